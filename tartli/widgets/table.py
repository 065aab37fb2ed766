"""The playable table: a controller that owns a match and its widgets and re-renders from the state.

The learner plays against a pluggable opponent (a bot that only ever receives
``state.view(player)``), or two people share one screen. Every rule comes from
the engine: the buttons shown are the moves ``legal_moves()`` lists, a refused
click shows the engine's explanation (with its RULES.md ID) and changes nothing.

Helpers for learners: a level selector (Easy, Medium, Hard: the bots of
:func:`~tartli.bots.bot_for_level`, how the computer plays), a *Hint* button (the best
advice the course has, :func:`tartli.bots.hint.hint`: the search from the learner's view in
phase 1, exact in phase 2, with a reason that is true of the position; only a move the table
offers at that moment), and once a hand is over *Review this hand*
(:class:`~tartli.widgets.hand_review.ReviewPanel`: every decision of the learner in both phases
classed, the three costliest with *Try again*), and at the end of a match the match summary.
:func:`review_hand` (phase 2 against the solver, card by card) stays for scripts.

Headless use (tests, lessons that script a position)::

    table = TableController(seed=7, autoplay=False)
    table.click_card("AH")          # as if the card was clicked
    table.run_opponent()            # the computer's replies, one move at a time
    table.undo()
    table.set_level("medium")       # the rule-of-thumb computer
    table.hint()                    # "Hint: lead the ... — ..."; table.hinted is the move
    table.review_panel.run()        # once the hand is over: every decision judged
"""

from __future__ import annotations

import asyncio
import dataclasses
import html
import json
import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import ipywidgets as w

from tartli import names
from tartli.bots import LEVELS, Bot, NoHint, bot_for_level, solve
from tartli.bots.base import right_claim
from tartli.bots.evaluate import COURSE, restrict
from tartli.bots.hint import hint as advise
from tartli.bots.review import HandReview, HandSummary, review
from tartli.cards import LAST_TRICK_BONUS, Card
from tartli.course import TOPICS
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import PHASE1_TRICKS, TRICKS, Deal, Event, HandState, PlayerView, Status
from tartli.i18n import N_, _, joined, language, ngettext, the
from tartli.match import Match
from tartli.melds import MeldKind, find_melds
from tartli.moves import Bela, Declare, GoOut, Move, Pass, Play, Swap
from tartli.names import Language, Named
from tartli.record import Record
from tartli.render.table import hand_svg, table_svg
from tartli.rules import RuleSet
from tartli.share import SharedPosition, share_query
from tartli.widgets.board import Announcer, RecordFile, SvgBoard
from tartli.widgets.hand_review import ReviewPanel, match_summary_html
from tartli.widgets.hands import HandsKept
from tartli.widgets.move_names import declaration_label, main_declarations, move_words
from tartli.widgets.share import ShareButton, open_linked, page_query

log = logging.getLogger(__name__)


def _hidden() -> w.Layout:
    # A new layout each time, as for _shown(): no widget is made when the module is imported (the
    # static edition's memory snapshot imports it before any page is open, see tartli.site).
    return w.Layout(display="none")


def _shown() -> w.Layout:
    return w.Layout(display="")


def kernel_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of a live Jupyter kernel serving a page, or None (scripts, tests): only there
    are the computer's moves spread out in time; elsewhere they are made at once."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipykernel
        return None
    shell = get_ipython()
    if shell is None or not hasattr(shell, "kernel"):
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


CONTROLS = (
    "swap",
    "melds",
    "out",
    "undo",
    "levels",
    "hint",
    "last-trick",
    "pause",
    "reveal",
    "review",
    "deals",
    "records",
)
"""The controls a table may offer besides playing cards: the trump-7 swap, declaring (melds, pass,
béla), going out, undo and redo, the computer's level, the hint, the last trick, how long a trick
stays, both hands shown, the review of phase 2, deals by number and records. A lesson's table offers
what the course has taught so far (``controls=taught(file)``: :func:`tartli.course.taught`; the
course's other topics, such as ``"phases"``, are no table control and are let through)."""

LEVEL_NAMES = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard")}
"""The table's difficulty levels as the selector shows them (the bots: ``tartli.bots.LEVELS``), in
English: ``level_name()`` gives them in the page's language."""


def level_name(level: str) -> str:
    """ "Easy", "Medium" or "Hard" in the page's language."""
    return _(LEVEL_NAMES[level])


@dataclass(frozen=True)
class ReviewItem:
    """One phase-2 card of a player, compared with the exact solver's best at that moment.

    ``value`` and ``best_value`` are the solver's final card-point differences (the
    player's minus the opponent's) after this card and after the best card; ``loss``
    is their difference, so the card cost ``points`` = ``loss // 2`` card points.
    """

    index: int
    """The move's place in ``state.moves``."""
    trick: int
    card: Card
    led: bool
    best: tuple[Card, ...]
    value: int
    best_value: int
    turning: bool = False

    @property
    def loss(self) -> int:
        return self.best_value - self.value

    @property
    def points(self) -> int:
        """Card points this card cost against the best play (both sides playing best afterwards)."""
        return self.loss // 2


def review_hand(state: HandState, player: int, turning_points: int = 2) -> list[ReviewItem]:
    """Replay the hand (``state.deal`` + ``state.moves``) and judge each phase-2 card of ``player``.

    Each card is compared with the best of :func:`tartli.bots.solve` at that moment
    (tricks 8-16: both hands known, T4, C5, S2). The ``turning_points`` costliest
    cards that lost anything are marked ``turning``.
    """
    replay = HandState(state.deal, state.rules, state.scores_in)
    items: list[ReviewItem] = []
    for index, move in enumerate(state.moves):
        if (
            isinstance(move, Play)
            and move.player == player
            and replay.trick_number > PHASE1_TRICKS
            and replay.status is Status.IN_PROGRESS
        ):
            solution = solve(replay, all_values=True)
            items.append(
                ReviewItem(
                    index=index,
                    trick=replay.trick_number,
                    card=move.card,
                    led=replay.lead is None,
                    best=tuple(m.card for m in solution.best_moves),
                    value=solution.move_values[move],
                    best_value=solution.value,
                )
            )
        replay.push(move)
    costly = sorted((i for i in items if i.loss > 0), key=lambda i: (-i.loss, i.index))[:turning_points]
    marked = {i.index for i in costly}
    return [
        ReviewItem(i.index, i.trick, i.card, i.led, i.best, i.value, i.best_value, i.index in marked) for i in items
    ]


def names_or(cards: Sequence[Card], lang: Language) -> Named:
    """ "the Ace of Hearts, the Ten of Hearts or the King of Bells" (in the page's language, with the
    forms a sentence asks for, ``{best.acc}``)."""
    return joined([the(c.name(lang)) for c in cards], _("{cards} or {card}"), "cards", "card")


def _review_line(item: ReviewItem, lang: Language, spared: bool = False) -> str:
    """One card of the review; ``spared``: it lost points against best play, but the computer's replies
    did not take them (the hand ended as well as best play from there would have)."""
    card = item.card.name(lang)
    if item.loss == 0:
        if item.led:
            return _("Trick {trick}: you led the {card_acc}: a best card ✓").format(trick=item.trick, card=card)
        return _("Trick {trick}: you played the {card_acc}: a best card ✓").format(trick=item.trick, card=card)
    best = names_or(item.best, lang)
    n = item.points
    if spared and item.led:
        text = ngettext(
            "Trick {trick}: you led the {card_acc}: against best play it could have cost {points} card point; "
            "the computer did not punish it. Best was {best}",
            "Trick {trick}: you led the {card_acc}: against best play it could have cost {points} card points; "
            "the computer did not punish it. Best was {best}",
            n,
        )
    elif spared:
        text = ngettext(
            "Trick {trick}: you played the {card_acc}: against best play it could have cost {points} card point; "
            "the computer did not punish it. Best was {best}",
            "Trick {trick}: you played the {card_acc}: against best play it could have cost {points} card points; "
            "the computer did not punish it. Best was {best}",
            n,
        )
    elif item.led:
        text = ngettext(
            "Trick {trick}: you led the {card_acc}: it cost {points} card point; best was {best}",
            "Trick {trick}: you led the {card_acc}: it cost {points} card points; best was {best}",
            n,
        )
    else:
        text = ngettext(
            "Trick {trick}: you played the {card_acc}: it cost {points} card point; best was {best}",
            "Trick {trick}: you played the {card_acc}: it cost {points} card points; best was {best}",
            n,
        )
    return text.format(trick=item.trick, card=card, points=n, best=best)


def review_html(state: HandState, player: int, language: Language | None = None) -> str:
    """The post-hand review as a short HTML list (see :func:`review_hand`).

    A costly card the computer did not punish (the hand, played out, ended at least as well for the
    player as best play from that card on would have) "could have cost" its points: after a
    stichmatsch nothing was given away."""
    lang = names.resolve(language)
    title = _("<b>Review of your phase 2</b> (the exact solver compares each card you played with the best one)")
    items = review_hand(state, player)
    if not items:
        if len(state.tricks) < PHASE1_TRICKS + 1:
            ended = _("The hand ended before phase 2 (trick 8): there is nothing for the solver to review.")
        else:
            ended = _("The hand ended before your first card: there is nothing for the solver to review.")
        return f"{title}<p>{html.escape(ended)}</p>"
    played_out = state.status is Status.FINISHED
    result = state.card_points[player] - state.card_points[1 - player]

    def spared(item: ReviewItem) -> bool:
        return played_out and item.loss > 0 and result >= item.best_value

    rows = []
    turning = html.escape(_("turning point"))
    for item in items:
        # a card the computer did not punish turned nothing: no flag (the review after a stichmatsch had one)
        mark = f" <b style='color:#a40000'>⚑ {turning}</b>" if item.turning and not spared(item) else ""
        rows.append(f"<li>{html.escape(_review_line(item, lang, spared(item)))}{mark}</li>")
    lost = sum(i.points for i in items if not spared(i))
    could = sum(i.points for i in items if spared(i))
    if lost == 0 and could == 0:
        summary = _("You played every card of phase 2 as well as it can be played.")
    elif lost == 0:
        summary = ngettext(
            "Added up, your phase-2 choices could have cost {points} card point against best play; "
            "the computer did not punish them (T4, C5, S2).",
            "Added up, your phase-2 choices could have cost {points} card points against best play; "
            "the computer did not punish them (T4, C5, S2).",
            could,
        ).format(points=could)
    else:
        summary = ngettext(
            "Added up, your phase-2 choices gave away {points} card point against best play (T4, C5, S2).",
            "Added up, your phase-2 choices gave away {points} card points against best play (T4, C5, S2).",
            lost,
        ).format(points=lost)
    return f"{title}<ul style='margin:4px 0'>{''.join(rows)}</ul><p style='margin:0'>{html.escape(summary)}</p>"


class TableController:
    """A table for one learner (``human``) against ``opponent``, or for two people (``two_players``)."""

    def __init__(
        self,
        *,
        rules: RuleSet | None = None,
        seed: int | None = None,
        human: int = 0,
        opponent: Bot | None = None,
        two_players: bool = False,
        language: Language | None = None,
        autoplay: bool = True,
        delay: float = 0.7,
        first_dealer: int | None = 1,
        record: Record | None = None,
        level: str = "easy",
        trick_pause: float = 1.5,
        confirm_claims: bool = True,
        player_names: tuple[str, str] | None = None,
        keep_in_browser: str | None = None,
        offer_two_players: bool = False,
        controls: Collection[str] = CONTROLS,
    ) -> None:
        self.rules = rules or RuleSet()
        self.seed = seed if seed is not None else 1
        self.human = human
        if level not in LEVELS:
            raise TartliError(f"unknown level {level!r}: use easy, medium or hard")
        self.level = level
        self._own_opponent = opponent is None  # the default computer is re-seeded with each new deal
        self.opponent: Bot = opponent or bot_for_level(level, seed=self.seed)
        self.budget = COURSE
        """The evaluation's budget for the Hint, the review and Try again: one for all three, so they
        agree (:func:`tartli.bots.evaluate.evaluate`; tests give it fewer deals)."""
        self._mine: tuple[HandState | None, set[int]] = (None, set())
        """The hand's moves (indices) the learner made here: the review judges these only."""
        self.hinted: Move | None = None
        """The move the Hint shown advises (None: no hint shown, or no move to advise)."""
        self._hint_at: tuple[HandState, int] | None = None  # the moment the hint shown was given for
        self._summaries: list[HandSummary] = []
        """The match's booked hands' summaries (decisions by class, points), kept with the saved match."""
        self._hand_summary: tuple[tuple[HandState, int], HandSummary] | None = None
        self._hand: HandState | None = None  # the hand whose levels are noted in _levels
        self._levels: set[str] = set()
        self._listeners: list[Callable[[], None]] = []
        self.two_players = two_players
        self.language = language
        self.autoplay = autoplay
        self.delay = delay
        self.reveal = False
        self._redo: list[Move] = []
        self._pending = False
        self._played_on_at = -1  # the move count at which the learner let S3's claim window pass
        self.trick_pause = trick_pause
        """Seconds a finished trick stays on the table before the computer leads again (0: until Continue)."""
        self.confirm_claims = confirm_claims
        """Ask once before a claim that would be wrong (the course's tables); the table page may turn it off."""
        self._player_names = player_names
        self._tricks_seen = 0  # completed tricks when the table was last drawn
        self._shown_trick: int | None = None  # the finished trick kept on the table, an index into the tricks
        self._question: Callable[[], None] | None = None  # what "Yes" does while a question is asked
        self._ready_for: int | None = None  # at a table for two: whose cards may be shown now
        self._offer_two = offer_two_players
        self._held = False
        """A position opened from a link waits for the learner: the computer does not move until they
        play, or press Play on (Redo steps through the game's own moves meanwhile)."""
        self._from_link = False
        """This page was opened from a link (good or bad): the game kept in the browser is not taken back."""
        unknown = set(controls) - set(CONTROLS) - set(TOPICS)
        if unknown:
            raise TartliError(f"unknown controls {sorted(unknown)}: use {', '.join(CONTROLS)}")
        self.controls = frozenset(controls)
        """What the learner is offered besides playing cards (a lesson offers what it has taught so far)."""
        self._keep = keep_in_browser
        """The name under which the running match is kept in the browser (a reload brings it back)."""
        self.messages: list[str] = []
        self.match = Match(self.rules, seed=self.seed, first_dealer=first_dealer)
        self._build()
        if record is not None:
            self.load_record(record.to_json())
        else:
            self.refresh()
            self._after_move()

    # ------------------------------------------------------------ state
    @property
    def match(self) -> Match:
        """The match at this table; the engine's refusals name its players as the table does."""
        return self._match

    @match.setter
    def match(self, match: Match) -> None:
        self._match = match
        self._summaries, self._hand_summary = [], None  # a new match: no hand summed up yet
        match.player_names = self._english_names()

    @property
    def state(self) -> HandState:
        return self.match.state

    @property
    def viewer(self) -> int:
        """Whose view is drawn: the learner, or in a two-player game the player to move."""
        if self.two_players and self.state.to_move is not None:
            return self.state.to_move
        return self.human

    NARROW_BELOW = 600
    """Below this width in CSS pixels the table is drawn upright, for a phone."""

    @property
    def narrow(self) -> bool:
        """Is the table shown on a narrow screen (a phone)? Known once the browser reports its width."""
        return 0 < self.board.client_width < self.NARROW_BELOW

    @property
    def names(self) -> tuple[str, str]:
        """The two players as every text and picture calls them: "You" and "The computer", or the two
        people's names at a table for two."""
        if self._player_names is not None:
            return self._player_names
        if self.two_players:
            return ("Anna", "Bence")
        you, computer = _("You"), _("The computer")
        return (you, computer) if self.human == 0 else (computer, you)

    def _english_names(self) -> tuple[str, str]:
        """The two players as the engine's event texts expect them: "You" is spoken to (the engine
        says them in the page's language)."""
        if self._player_names is not None or self.two_players:
            return self.names
        return ("You", "The computer") if self.human == 0 else ("The computer", "You")

    def _who(self, player: int) -> str:
        """ "you", "computer" or "name": which sentence speaks of ``player``."""
        name = self._english_names()[player]
        if name in ("You", _("You")):
            return "you"
        if name in ("The computer", _("The computer")):
            return "computer"
        return "name"

    def _said(self, player: int) -> str:
        """``player``'s name inside a sentence: "te", "a gép" (English keeps "You", "The computer")."""
        name = self.names[player]
        if language() == "en" or self._who(player) == "name":
            return name
        return name[:1].lower() + name[1:]

    def _describe(self, event: Event, viewer: int | None = None) -> str:
        """One step of the hand in words, for ``viewer`` (default: the player whose view is drawn)."""
        return event.describe(self.viewer if viewer is None else viewer, self._english_names())

    def _is_bot(self, player: int) -> bool:
        return not self.two_players and player != self.human

    # ------------------------------------------------------------ widgets
    def _build(self) -> None:
        self.board = SvgBoard(layout=w.Layout(width="100%"))
        self.board.on_pick(self.guard(self.click_card))
        self.board.observe(self.guard(self._on_width), names="client_width")
        if self._keep:
            self.board.storage_key = f"tartli.table.{self._keep}"
            self.board.observe(self.guard(self._on_saved_game), names="progress")
        self.hands = HandsKept(key=f"tartli.hands.{self._keep}" if self._keep else "")
        """The hands played here to their end and reviewed, kept in the browser for a class's teacher."""
        self._hand_counted: Any = None  # the deal of the last hand counted as played (an undo does not count it again)
        self._review_counted: Any = None  # the deal of the last hand counted as reviewed
        self.message = w.HTML(layout=w.Layout(min_height="1.6em"))
        self.message.add_class("tartli-message")
        self.announcer = Announcer()  # what a screen reader says of each move and trick
        self._announced: int | None = None
        self.swap_button = w.Button(
            description=_("Swap the trump Seven"), tooltip=_("T5: exchange it for the indicator")
        )
        self.bela_button = w.Button(description=_("Béla (40)"), tooltip=_("B1: King and Over of trumps"))
        self.declarations = w.Dropdown(options=[], description=_("Melds:"), layout=w.Layout(width="auto"))
        self.declare_button = w.Button(description=_("Declare"), button_style="info")
        self.not_offered = w.HTML()
        self.shorter_toggle = w.Checkbox(description=_("Shorter sequences too"), indent=False)
        self.pass_button = w.Button(description=_("Pass"), tooltip=_("Declare nothing this trick"))
        self.out_button = w.Button(
            description=_("Go out (501)"), tooltip=_("S3: claim 501; a wrong claim loses the buli")
        )
        self.next_button = w.Button(description=_("Next hand"), button_style="success")
        self.play_on_button = w.Button(description=_("Play on"), tooltip=_("Do not claim now: let the computer go on"))
        self.continue_button = w.Button(  # not "Continue": a lesson's own button is called that
            description=_("Next trick"), button_style="info", tooltip=_("Gather the trick")
        )
        self.last_trick_button = w.ToggleButton(
            description=_("Last trick"), tooltip=_("Show the trick before this one")
        )
        self.last_trick_view = w.HTML()
        self.pause_choice = w.Dropdown(
            options=[(_("1.5 s"), 1.5), (_("3 s"), 3.0), (_("until I click Next trick"), 0.0)],
            value=self.trick_pause if self.trick_pause in (1.5, 3.0, 0.0) else 1.5,
            description=_("A trick stays:"),
            style={"description_width": "initial"},
            layout=w.Layout(width="auto"),
        )
        self.two_toggle = w.ToggleButton(
            value=self.two_players,
            description=_("Two people at one screen"),
            tooltip=_("Play against a friend"),
            layout=w.Layout(width="auto"),
        )
        self.ready_button = w.Button(button_style="success")  # its layout is set with its label in refresh()
        self.level_label = w.Label(_("Computer:"))
        self.question = w.HTML()
        self.yes_button = w.Button(button_style="danger")
        self.no_button = w.Button(description=_("Keep playing"), button_style="success")
        self.undo_button = w.Button(description=_("↶ Undo"))
        self.redo_button = w.Button(description=_("↷ Redo"))
        self.reveal_toggle = w.ToggleButton(description=_("Show both hands"), tooltip=_("For teaching"))
        self.seed_input = w.BoundedIntText(
            value=self.seed, min=0, max=10**9, description=_("Deal #:"), layout=w.Layout(width="180px")
        )
        self.new_button = w.Button(description=_("New deal"))
        self.upload = RecordFile()
        self.download = w.HTML()
        self.share_button = ShareButton()
        self.log_view = w.HTML(
            layout=w.Layout(max_height="260px", overflow="auto", border="1px solid #ccc", padding="4px 8px")
        )
        self.status = w.HTML()
        self.level_buttons = w.ToggleButtons(
            options=[(level_name(k), k) for k in LEVELS],
            value=self.level,
            tooltips=[_("Plays any legal card"), _("Plays by rules of thumb"), _("Thinks ahead; exact in phase 2")],
            disabled=not self._own_opponent,
            style={"button_width": "80px"},
        )
        self.hint_button = w.Button(
            description=_("Hint"), icon="lightbulb-o", tooltip=_("The best move the course can find, and why")
        )
        self.hint_view = w.HTML(layout=w.Layout(min_height="0"))
        self.hint_view.add_class("tartli-hint")
        self.review_panel = ReviewPanel(self)
        self.review_view = self.review_panel.body
        """The review's text (the panel: :attr:`review_panel`)."""
        self.summary_view = w.HTML()
        """The match summary, shown when the match is over."""
        self.level_buttons.observe(self.guard(lambda change: self.set_level(str(change["new"]))), names="value")
        self.hint_button.on_click(self.guard(lambda _b: self.hint()))
        for button, handler in (
            (self.swap_button, lambda: self.act(Swap(self.viewer))),
            (self.bela_button, lambda: self.act(Bela(self.viewer))),
            (self.declare_button, self._declare_chosen),
            (self.pass_button, lambda: self.act(Pass(self.viewer))),
            (self.out_button, self.request_claim),
            (self.next_button, self.next_hand),
            (self.play_on_button, self.play_on),
            (self.continue_button, self.continue_play),
            (self.ready_button, self.show_my_cards),
            (self.yes_button, self._answer_yes),
            (self.no_button, self._answer_no),
            (self.undo_button, self.undo),
            (self.redo_button, self.redo),
            (self.new_button, lambda: self.request_new_deal(int(self.seed_input.value))),
        ):
            button.on_click(self.guard(lambda _b, h=handler: h()))
        self.reveal_toggle.observe(self.guard(lambda change: self.set_reveal(bool(change["new"]))), names="value")
        self.last_trick_button.observe(self.guard(lambda _change: self.refresh()), names="value")
        self.shorter_toggle.observe(self.guard(lambda _change: self.refresh()), names="value")
        self.two_toggle.observe(self.guard(lambda change: self.request_two_players(bool(change["new"]))), names="value")
        self.pause_choice.observe(self.guard(lambda change: setattr(self, "trick_pause", change["new"])), names="value")
        self.upload.on_text(
            self.guard(lambda text: self.load_record(text, announce=True)), self.guard(lambda err: self.say(str(err)))
        )
        actions = w.HBox(
            [
                self.swap_button,
                self.declarations,
                self.declare_button,
                self.shorter_toggle,
                self.pass_button,
                self.bela_button,
                self.out_button,
                self.play_on_button,
                self.continue_button,
                self.ready_button,
                self.next_button,
            ],
            layout=w.Layout(flex_flow="row wrap"),
        )
        tools = w.HBox(
            [
                self.undo_button,
                self.redo_button,
                self.seed_input,
                self.new_button,
                self.reveal_toggle,
                self.upload,
                self.download,
                self.share_button,
            ],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )
        self.two_toggle.layout.display = "" if self._offer_two else "none"
        # "Computer:" and its levels wrap as one piece (the label stood at the end of one row on a phone,
        # its levels on the next)
        levels = w.HBox([self.level_label, self.level_buttons], layout=w.Layout(align_items="center"))
        levels.add_class("tartli-levels")
        helpers = w.HBox(
            [
                self.hint_button,
                self.last_trick_button,
                levels,
                self.pause_choice,
                self.two_toggle,
            ],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )
        self.question_box = w.HBox(
            [self.question, self.yes_button, self.no_button],
            layout=w.Layout(flex_flow="row wrap", align_items="center", display="none"),
        )
        if self.two_players:
            self.level_buttons.layout = _hidden()
            self.level_label.layout = _hidden()
        for topic, parts in (  # what the course has not taught yet is not offered (a lesson's table)
            ("undo", (self.undo_button, self.redo_button)),
            ("levels", (self.level_label, self.level_buttons)),
            ("hint", (self.hint_button, self.hint_view)),
            ("last-trick", (self.last_trick_button, self.last_trick_view)),
            ("pause", (self.pause_choice,)),
            ("reveal", (self.reveal_toggle,)),
            ("review", (self.review_panel.widget, self.summary_view)),
            ("deals", (self.seed_input, self.new_button)),
            ("records", (self.upload, self.download, self.share_button)),
        ):
            if topic not in self.controls:
                for part in parts:
                    part.layout.display = "none"
        self.widget = w.VBox(
            [
                self.status,
                self.board,
                self.last_trick_view,
                self.message,
                self.question_box,
                self.hint_view,
                actions,
                self.not_offered,
                helpers,
                self.review_panel.widget,
                self.summary_view,
                self.log_view,
                tools,
                self.announcer,
                *([self.hands] if self._keep else []),
            ]
        )
        self.widget.add_class("tartli-table")

    def guard(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Run a callback; any error becomes a short message on the page (and a log line), never a traceback."""

        def run(*args: Any) -> Any:
            try:
                return fn(*args)
            except TartliError as err:
                self.say(str(err), error=True)
            except Exception as err:  # the page must stay usable whatever happens
                log.exception("table callback failed")
                self.say(
                    _("Something went wrong ({error}); the game is unchanged.").format(error=type(err).__name__),
                    error=True,
                )
            return None

        return run

    # ------------------------------------------------------------ the match kept in the browser
    def saved_game(self) -> str:
        """The running match as the browser keeps it: the hand as a tartli/1 record, the buli, the level,
        and the summaries of the hands booked (for the match summary)."""
        m = self.match
        return json.dumps(
            {
                "tartli-table": 1,
                "record": Record.from_state(self.state).to_dict(),
                "buli": list(m.buli),
                "tie_pending": m.tie_pending,
                "hands": len(m.results),
                "level": self.level,
                "seed": self.seed,
                "summaries": [h.to_dict() for h in self._summaries],
            },
            sort_keys=True,
        )

    def restore_game(self, text: str) -> bool:
        """Bring back a match the browser kept (True if it was restored). Anything that is not a
        readable saved match is ignored and the fresh game stays."""
        try:
            data = json.loads(text) if len(text) <= 200_000 else None
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict) or data.get("tartli-table") != 1:
            return False
        buli, level, seed = data.get("buli"), data.get("level"), data.get("seed")
        if not (isinstance(buli, list) and len(buli) == 2 and all(type(b) is int and 0 <= b < 1000 for b in buli)):
            return False
        record = Record.from_dict(data.get("record"))  # a TartliError for anything malformed
        state = record.replay()
        kept = data.get("summaries", [])
        if not isinstance(kept, list) or len(kept) > 1000:
            return False
        summaries = [HandSummary.from_dict(h) for h in kept]  # a TartliError for anything malformed
        match = Match(
            record.rules,
            seed=seed if type(seed) is int else self.seed,
            first_dealer=record.deal.dealer,
            scores=record.scores,
            buli=(buli[0], buli[1]),
        )
        match.state = state
        match.tie_pending = data.get("tie_pending") is True
        self.rules, self.match = record.rules, match
        # The game kept in the browser was played at this table: the learner's moves are theirs again.
        self._mine = (state, {k for k, m in enumerate(state.moves) if self.two_players or m.player == self.human})
        self._summaries = summaries
        if type(seed) is int:
            self.seed = seed
        if isinstance(level, str) and level in LEVELS and self._own_opponent:
            self.level = level
            self.opponent = bot_for_level(level, seed=self.seed)
            self.level_buttons.value = level
        self._redo.clear()
        return True

    def _on_saved_game(self, change: dict[str, Any]) -> None:
        text = change["new"]
        if self._from_link or self._human_moves_made() or self.match.results or text == self.saved_game():
            return  # only a fresh page takes the kept game back
        try:
            restored = self.restore_game(text)
        except TartliError:
            log.warning("ignoring a kept game that is not a valid match")
            return
        if restored:
            self.refresh()
            self.say(_("Your game is back where you left it."))
            self._after_move()

    def _on_width(self, change: dict[str, Any]) -> None:
        was = 0 < change["old"] < self.NARROW_BELOW
        if was != self.narrow:
            self.refresh()

    def say(self, text: str, *, error: bool = False) -> None:
        """Show a message to the learner (errors get a red mark, not only a colour: a sign too)."""
        self.messages.append(text)
        mark = "⚠ " if error else ""
        colour = "#a40000" if error else "#1f4d2b"
        self.message.value = f'<span style="color:{colour}">{mark}{html.escape(text)}</span>'

    # ------------------------------------------------------------ drawing
    def refresh(self) -> None:
        """Re-render everything from the state."""
        state, viewer = self.state, self.viewer
        view = state.view(viewer)
        opponent = state.hand(1 - viewer) if self.reveal else None
        lang = names.resolve(self.language)
        hidden = self._cards_hidden()
        if hidden:  # between turns at a table for two: nobody's cards until the next player is ready
            view = dataclasses.replace(view, hand=(), legal_moves=())
            opponent = None
        self.ready_button.layout = w.Layout(width="auto") if hidden else _hidden()
        if hidden:
            self.ready_button.description = _("I am {name}: show my cards").format(name=self.names[state.to_move or 0])
        done = len(view.tricks)
        if done != self._tricks_seen:  # a trick was just finished (or moves were taken back)
            self._shown_trick = done - 1 if done > self._tricks_seen else None
            self._tricks_seen = done
        if view.lead is not None or state.is_over:
            self._shown_trick = None  # the next trick has begun: the finished one is gathered
        self.board.svg = table_svg(
            view,
            opponent_hand=opponent,
            language=lang,
            pickable=True,
            player_names=self.names,
            shown_trick=self._shown_trick,
            narrow=self.narrow,
            phases="phases" in self.controls or set(CONTROLS) <= self.controls,  # (taught in lesson 04)
        )
        self.continue_button.layout = _shown() if self._waiting_for_continue() else _hidden()
        self.last_trick_view.value = self._last_trick_html(view) if self.last_trick_button.value else ""
        legal = tuple(m for m in view.legal_moves if self.offered(m))
        allowed = {type(m) for m in legal}
        self.swap_button.layout = _shown() if Swap in allowed else _hidden()
        self.bela_button.layout = _shown() if Bela in allowed else _hidden()
        # Pass only when there is something one could declare: otherwise playing a card says the same.
        self.pass_button.layout = _shown() if Pass in allowed and Declare in allowed else _hidden()
        self.out_button.layout = _shown() if GoOut in allowed else _hidden()
        self.play_on_button.layout = _shown() if self._holding_for_claim() or self._held_bot() else _hidden()
        # Going out is always allowed (S3) but only right with 501 (or in S3's claim window): say so by its look.
        self.out_button.button_style = "warning" if state.claim(viewer).valid else ""
        every = [m for m in legal if isinstance(m, Declare)]
        declares = main_declarations(every)
        if self.shorter_toggle.value:  # the K7 ladder: the shorter sequences too, after the main choices
            declares += sorted(
                (d for d in every if d not in declares), key=lambda d: (-sum(m.value for m in d.melds), str(d))
            )
        self.shorter_toggle.layout.display = "" if len(every) > len(main_declarations(every)) else "none"
        options = [(declaration_label(m, lang), i) for i, m in enumerate(declares)]
        if list(self.declarations.options) != options:
            self.declarations.options = options
            if declares:
                self.declarations.value = 0  # the best declaration first, and chosen until the learner picks
        self._declare_moves = declares
        self.not_offered.value = self._not_offered_html(view) if declares or Pass in allowed else ""
        shown = _shown() if declares else _hidden()
        self.declarations.layout = w.Layout(display="" if declares else "none", width="auto")
        self.declare_button.layout = shown
        over = state.is_over
        self.next_button.layout = _shown() if over and not self.match.is_over else _hidden()
        self.undo_button.disabled = not self._human_moves_made()
        self.redo_button.disabled = not self._redo
        self.log_view.value = log = self._log_html(view)
        self.log_view.layout.display = None if log else "none"  # an empty log draws no empty bordered box
        self._announce(view)
        self.status.value = self._status_html()
        self._refresh_download()
        self._refresh_helpers()
        if self._keep:
            self.board.progress = self.saved_game()
        if over and not self.two_players and self._hand_counted is not state.deal:
            self._hand_counted = state.deal
            self.hands.hand_played()
        for listener in list(self._listeners):
            listener()

    def on_refresh(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every redraw (an exercise that watches the game, for example)."""
        self._listeners.append(callback)

    # ------------------------------------------------------------ levels, hints, review
    def _refresh_helpers(self) -> None:
        state = self.state
        if self._hand is not state:  # a new hand: note its levels afresh
            self._hand, self._levels = state, set()
        if self._own_opponent and not state.is_over:
            self._levels.add(self.level)
        if self._hint_at != (state, len(state.moves)):
            self._hint_at = None
            self.hint_view.value = ""
        self.hint_button.disabled = state.is_over
        if self._hint_at is None:
            self.hinted = None
        if not state.is_over or "review" not in self.controls or self.two_players:
            self.review_panel.reset()
            self.summary_view.value = ""
            return
        self.review_panel.offer(state)
        if self.match_won():
            self._show_match_summary()

    # ------------------------------------------------------------ the match summary
    def match_won(self) -> bool:
        """The hand is over and someone has won the match with it (the buli as the status line counts them)."""
        m = self.match
        return self.state.is_over and m.target is not None and any(b >= m.target for b in m.buli_with_hand)

    def note_summary(self, state: HandState, summary: HandSummary) -> None:
        """Keep a finished hand's summary (from its review) for the match summary."""
        if state is self.state and state.is_over:
            self._hand_summary = ((state, len(state.moves)), summary)
            if self._review_counted is not state.deal and not self.two_players:
                self._review_counted = state.deal
                self.hands.hand_reviewed(summary.accuracy)
            if self.summary_view.value and self.match_won():
                self._show_match_summary()  # the full review replaces the quick one in the match summary

    def _known_summary(self) -> HandSummary | None:
        state = self.state
        if self._hand_summary is not None and self._hand_summary[0] == (state, len(state.moves)):
            return self._hand_summary[1]
        return None

    def hand_summary(self, progress: Callable[[int, int], None] | None = None) -> HandSummary:
        """The finished hand's summary: from its review, or reviewed now (the same review) when the
        learner did not ask for it (``progress`` is told how far, as the review's own bar is)."""
        known = self._known_summary()
        if known is None:
            found = self.learner_review(progress)
            self.note_summary(self.state, found.summary)
            known = found.summary
        return known

    @property
    def summaries(self) -> list[HandSummary]:
        """The summaries of the match's hands so far (the finished hand's included once it is known)."""
        done = list(self._summaries)
        known = self._known_summary() if self.state.is_over else None
        if known is not None:
            done.append(known)
        return done

    def _summing_up(self) -> bool:
        """Are the hands summed up for the match summary? (Not at a table for two or without the review.)"""
        return "review" in self.controls and not self.two_players and self.state.is_over

    def _show_match_summary(self) -> None:
        self.hand_summary()
        self.summary_view.value = match_summary_html(self.summaries, self._said, self.human)

    @staticmethod
    def _box(body: str, edge: str, fill: str) -> str:
        return f"<div style='border-left:5px solid {edge};background:{fill};padding:6px 10px;margin:4px 0'>{body}</div>"

    @property
    def hand_level(self) -> str | None:
        """The easiest level the computer played at in this hand (None with an opponent of the caller's)."""
        if not self._own_opponent or not self._levels:
            return None
        return min(self._levels, key=list(LEVELS).index)

    def set_level(self, level: str) -> None:
        """Easy, medium or hard: the computer becomes that level's bot (seeded from the table's seed)."""
        if level not in LEVELS:
            raise TartliError(f"unknown level {level!r}: use easy, medium or hard")
        if not self._own_opponent:
            raise TartliError(_("this table plays against an opponent of its own: the level cannot change it"))
        if self.level_buttons.value != level:
            self.level_buttons.value = level  # the selector's observer calls back here
            return
        self.level = level
        self.opponent = bot_for_level(level, seed=self.seed)
        self.say(_("The computer now plays at {level} level.").format(level=level_name(level)))
        self.refresh()

    def offered_moves(self) -> tuple[Move, ...]:
        """The moves the learner can make now with this table's controls: a card of the hand (clicked),
        the declaration dropdown's entries with Declare, Pass, Béla, the swap and Go out buttons shown.
        Nothing while the computer's move is pending or the cards are hidden between turns."""
        state = self.state
        if state.is_over or self._pending or self._cards_hidden():
            return ()
        legal = [m for m in state.view(self.viewer).legal_moves if self.offered(m)]
        declaring = any(isinstance(m, Declare) for m in legal)
        return tuple(
            m
            for m in legal
            if not (isinstance(m, Declare) and m not in self._declare_moves)
            and not (isinstance(m, Pass) and not declaring)
        )

    def hint(self) -> str:
        """The best advice the course has for the player whose view is drawn (:func:`tartli.bots.hint.hint`:
        the search from the learner's view in phase 1, exact in phase 2) and its reason, in the page's
        language. Only a move this table offers now is advised (a lesson before melds has no Declare); a
        shorter sequence advised is put in the declaration dropdown and chosen there. Shown under the
        message; returned too. ``hinted`` keeps the move."""
        state, viewer = self.state, self.viewer
        self.hinted = None
        if state.is_over:
            text = _("The hand is over: the review below looks back on your play.")
        elif self._pending or self._cards_hidden():
            text = _("Wait for the computer's move: a hint comes when it is your turn.")
        else:
            view = restrict(state.view(viewer), self.offered)  # as the review will judge it
            try:
                found = advise(view, budget=self.budget)
            except NoHint:
                found = None
            if found is None:
                text = _("Wait for the computer's move: a hint comes when it is your turn.")
            else:
                move = found.move
                if isinstance(move, Declare) and move not in self._declare_moves:
                    self.shorter_toggle.value = True  # the K7 ladder's shorter sequences (its observer redraws)
                if isinstance(move, Declare) and move in self._declare_moves:
                    self.declarations.value = self._declare_moves.index(move)
                self.hinted = move
                text = _("Hint: {move} — {reason}").format(
                    move=move_words(move, view, self.language), reason=found.reason
                )
        self._hint_at = (state, len(state.moves))
        self.hint_view.value = self._box(html.escape(text), "#8a5a00", "#fbf4e4")
        return text

    def _status_html(self) -> str:
        state, m = self.state, self.match
        who = self.names
        if state.is_over:
            a, b = state.totals
            line = _("Hand over: {name0} {score0}, {name1} {score1}.").format(
                name0=self._said(0), score0=a, name1=self._said(1), score1=b
            )
            if state.out is not None:
                p, valid = state.out
                line += " " + self._went_out(p, valid)
            if any(state.buli):
                winner = 0 if state.buli[0] else 1
                buli = max(state.buli)
                if self._who(winner) == "you":
                    won = ngettext("You win {n} buli.", "You win {n} buli.", buli)
                else:
                    won = ngettext("{name} wins {n} buli.", "{name} wins {n} buli.", buli)
                line += " " + won.format(name=who[winner], n=buli)
            if state.tied:
                line += " " + _("Both past 501 and equal: the first to score in the next hand wins the buli (S5).")
        elif self._holding_for_claim() and state.claim(self.human).at_step_seven:
            line = _(
                "Your melds won the contest and the trick was taken at once: you may go out now, counted before "
                "that trick (its card points count for nobody, S3), or play on."
            )
        elif self._holding_for_claim():
            line = _(
                "Your melds won the contest: with {total} you may go out now, before the computer plays its card "
                "(S3), or play on."
            ).format(total=state.claim(self.human).total)
        elif self._held_bot():
            line = _("The computer's turn: Play on lets it move; Redo shows the move made in the game.")
        elif self._waiting_for_continue():
            line = _("Trick over: press Next trick when you have seen it.")
        elif self._is_bot(state.to_move or 0):
            line = _("The computer is thinking…")
        elif self._who(state.to_move or 0) == "you":
            line = _("Your turn.")
        else:
            line = _("{name}: your turn.").format(name=who[state.to_move or 0])
        if "out" not in self.controls:  # games won (buli) come with going out, lesson 09
            return f"<b>{html.escape(line)}</b>"
        you, other = self.human, 1 - self.human
        if m.target is not None:
            games = _("Games won (buli): {you} {mine}, {other} {theirs} (first to {target})")
        else:
            games = _("Games won (buli): {you} {mine}, {other} {theirs}")
        standing = m.buli_with_hand  # the hand's buli as soon as it is won, not only after Next hand
        line += " " + games.format(
            you=self._said(you), mine=standing[you], other=self._said(other), theirs=standing[other], target=m.target
        )
        champion = next((p for p in (0, 1) if m.target is not None and standing[p] >= m.target), None)
        if champion is not None:
            if self._who(champion) == "you":
                line += ". " + _("You win the match!")
            else:
                line += ". " + _("{name} wins the match!").format(name=who[champion])
        return f"<b>{html.escape(line)}</b>"

    def _went_out(self, player: int, valid: bool) -> str:
        name = self.names[player]
        if self._who(player) == "you":
            return _("You went out: the claim was right.") if valid else _("You went out: the claim was wrong.")
        if valid:
            return _("{name} went out: the claim was right.").format(name=name)
        return _("{name} went out: the claim was wrong.").format(name=name)

    def _announce(self, view: PlayerView) -> None:
        """Say, in the live region, what happened since the last redraw, in the log's words: each card, who
        won a trick and its card points, the draws, a meld scored, a claim judged, the hand's end. Moves
        taken back are not said, and the first drawing of a hand says nothing."""
        events = view.events
        seen, self._announced = self._announced, len(events)
        if seen is None or len(events) <= seen:
            return
        sentences = (self._describe(e, view.player).strip() for e in events[seen:])
        self.announcer.say(" ".join(s if s.endswith((".", "!", "?")) else s + "." for s in sentences if s))

    def _log_html(self, view: PlayerView) -> str:
        """The hand's story, trick by trick, oldest first: the trick under way and the last finished one
        open, the earlier ones folded (a click opens them); nothing is cut."""
        groups: dict[int, list[str]] = {}
        for e in view.events:
            if e.kind != "end":
                groups.setdefault(e.trick, []).append(self._describe(e, view.player))
        finished = {n + 1: t for n, t in enumerate(view.tricks)}
        last = max(groups, default=0)
        parts = []
        for number in sorted(groups):
            trick = finished.get(number)
            if trick is not None:
                _leader, lead, second, winner = trick
                points = lead.points(view.trump) + second.points(view.trump)
                if number == TRICKS:  # C5: the last trick's 10 is in the score, so it is in the log
                    points += LAST_TRICK_BONUS
                    if self._who(winner) == "you":
                        head = _("Trick {number}: You won {points} card points (the last trick's 10 included, C5)")
                    else:
                        head = _("Trick {number}: {name} won {points} card points (the last trick's 10 included, C5)")
                elif self._who(winner) == "you":
                    head = _("Trick {number}: You won {points} card points")
                else:
                    head = _("Trick {number}: {name} won {points} card points")
                head = head.format(number=number, name=self._said(winner), points=points)
            elif number > TRICKS:  # what the hand's end says (stichmatsch, the buli): no trick 17
                head = _("End of the hand")
            elif view.status is not Status.IN_PROGRESS:
                head = _("Trick {number} (not finished: the hand ended)").format(number=number)
            else:
                head = _("Trick {number} (under way)").format(number=number)
            rows = "".join(f"<li>{html.escape(t)}</li>" for t in groups[number])
            opened = " open" if number >= last - 1 else ""
            parts.append(
                f"<details{opened}><summary>{html.escape(head)}</summary><ul style='margin:2px 0'>{rows}</ul></details>"
            )
        return "".join(parts)

    def _not_offered_html(self, view: PlayerView) -> str:
        """Why a meld the learner holds is not in the menu now (K3, K6, K7, V5...), from the engine."""
        state = self.state
        player = view.player
        offered = {m for d in view.legal_moves if isinstance(d, Declare) for m in d.melds}
        reasons: list[str] = []
        said: set[str] = set()  # the general words after a reason's last ": ", said once (K7's long rule was said
        for meld in find_melds(view.hand, state.rules, state.trump):  # for every sequence it refused)
            if meld in offered or meld.kind is MeldKind.BELA:
                continue
            trial = state.copy()
            try:
                trial.push(Declare(player, (meld,)))
            except IllegalMoveError as err:
                title, reason = meld.title(names.resolve(self.language)), str(err)
                head, _colon, general = reason.rpartition(": ")
                if head and general in said and head.count(": ") >= 1:
                    reason = head
                said.add(general)
                # the reason names the meld itself ("K7: Acorn-Nine-Terc may not follow..."): no title before it
                reasons.append(reason if title in reason else f"{title}: {reason}")
        if not reasons:
            return ""
        items = "".join(f"<li>{html.escape(r)}</li>" for r in reasons[:4])
        not_now = html.escape(_("Not offered now:"))
        head = f"<div class='tartli-not-offered'><small>{not_now}"
        return f"{head}<ul style='margin:2px 0'>{items}</ul></small></div>"

    def _last_trick_html(self, view: PlayerView) -> str:
        """The trick before the one on the table, small, with who won it (the "Last trick" button)."""
        if not view.tricks:
            none_yet = html.escape(_("No trick has been finished yet."))
            return f"<i>{none_yet}</i>"
        index = len(view.tricks) - 1
        if self._shown_trick == index and len(view.tricks) > 1:
            index -= 1  # the last one is on the table already: show the one before
        elif self._shown_trick == index:
            on_table = html.escape(_("The only finished trick is on the table."))
            return f"<i>{on_table}</i>"
        leader, lead, second, winner = view.tricks[index]
        points = lead.points(view.trump) + second.points(view.trump)
        lang = names.resolve(self.language)
        cards = hand_svg([lead, second], language=lang, trump=view.trump, card_width=56)
        you_led, you_won = self._who(leader) == "you", self._who(winner) == "you"
        if you_led and you_won:
            said = _("Trick {number}: You led, You won {points} card points.")
        elif you_led:
            said = _("Trick {number}: You led, {winner} won {points} card points.")
        elif you_won:
            said = _("Trick {number}: {leader} led, You won {points} card points.")
        else:
            said = _("Trick {number}: {leader} led, {winner} won {points} card points.")
        text = said.format(number=index + 1, leader=self._said(leader), winner=self._said(winner), points=points)
        return f"<div class='tartli-last-trick'>{cards}<div>{html.escape(text)}</div></div>"

    def share_record(self) -> tuple[Record, int]:
        """The game a link to this table holds, and how many of its moves are made: the moves so far,
        and those a Redo would make again (a position opened from a link keeps the rest of its game)."""
        state = self.state
        made = len(state.moves)
        record = Record.from_state(state)
        record.moves += [str(m) for m in reversed(self._redo)]
        return record, made

    def _refresh_download(self) -> None:
        record, made = self.share_record()
        self.share_button.query = share_query(record, move=made, seat=self.human)
        text = Record.from_state(self.state).to_json()
        href = "data:application/json;charset=utf-8," + quote(text)
        save = html.escape(_("Save record"))
        # a link (the browser saves the file) that looks and sits as the buttons beside it do
        self.download.value = f'<a class="tartli-button-link" download="tartli-hand.json" href="{href}">{save}</a>'

    def set_reveal(self, on: bool) -> None:
        """The teacher's switch: show both hands."""
        self.reveal = on
        if self.reveal_toggle.value != on:
            self.reveal_toggle.value = on
        self.refresh()

    # ------------------------------------------------------------ moves
    def click_card(self, text: str) -> None:
        """A card of the learner's hand was clicked: play it if the rules allow, else explain."""
        card = Card.parse(text)
        self.act(Play(self.viewer, card))

    def _declare_chosen(self) -> None:
        index = self.declarations.value
        if index is None or not self._declare_moves:
            raise TartliError(_("K1: there is nothing to declare now"))
        self.act(self._declare_moves[index])

    def act(self, move: Move) -> None:
        """Make the learner's move; a refused move changes nothing and shows the rule."""
        if self._pending:
            raise TartliError(_("K1: wait for the computer's move"))
        self.state.push(move)  # raises IllegalMoveError with the rule, leaving the state as it was
        self._note_mine(len(self.state.moves) - 1)
        self._redo.clear()
        self._held = False
        self.say(self._describe_last())
        self._after_move()

    def _note_mine(self, index: int) -> None:
        state = self.state
        if self._mine[0] is not state:
            self._mine = (state, set())
        self._mine[1].add(index)

    def learner_review(self, progress: Callable[[int, int], None] | None = None) -> HandReview:
        """The review of the hand under way for the learner: the moves they made here, the kinds of move
        this table offers, the evaluation's budget the Hint uses (:func:`tartli.bots.review.review`)."""
        return review(
            self.state,
            self.human,
            budget=self.budget,
            moves=self.learner_moves(),
            offered=self.offered,
            progress=progress,
        )

    def learner_moves(self) -> frozenset[int]:
        """The moves of the hand under way that the learner made at this table (their indices): not a
        lesson's script, the moves of a record loaded or of a shared game, or the computer's. A move
        taken back and made again (Redo) stays the learner's."""
        state = self.state
        return frozenset(self._mine[1]) if self._mine[0] is state else frozenset()

    def _describe_last(self) -> str:
        events = self.state.view(self.viewer).events
        return self._describe(events[-1]) if events else ""

    def _waiting_for_continue(self) -> bool:
        """A finished trick is on show and the computer would lead next: it waits for Continue
        (or for the pause the learner chose)."""
        state = self.state
        return (
            self._shown_trick is not None
            and state.to_move is not None
            and self._is_bot(state.to_move)
            and state.lead is None
            and not self._holding_for_claim()
        )

    def offered(self, move: Move) -> bool:
        """Is this kind of move one of the table's controls? (Cards are always played.)"""
        if isinstance(move, Swap):
            return "swap" in self.controls
        if isinstance(move, (Declare, Pass, Bela)):
            return "melds" in self.controls
        if isinstance(move, GoOut):
            return "out" in self.controls
        return True

    def _cards_hidden(self) -> bool:
        state = self.state
        return self.two_players and not state.is_over and state.to_move is not None and state.to_move != self._ready_for

    def show_my_cards(self) -> None:
        """At a table for two: the player to move is at the screen; show their cards."""
        self._ready_for = self.state.to_move
        self.refresh()

    def request_two_players(self, on: bool) -> None:
        """The "Two people at one screen" switch: a new match for two people (or against the computer)."""
        if on == self.two_players:
            return

        def switch() -> None:
            self.two_players = on
            self._ready_for = None
            self.two_toggle.value = on
            levels = not on and "levels" in self.controls
            self.level_buttons.layout = _shown() if levels else _hidden()
            self.level_label.layout = _shown() if levels else _hidden()
            self.new_deal(self.seed)

        if self.match.results or self.state.moves:
            self._ask(
                _("This starts a new match for two people. Start it?")
                if on
                else _("This starts a new match against the computer. Start it?"),
                _("Start the new match"),
                switch,
            )
            self.two_toggle.value = self.two_players  # until the answer, the switch shows what is played
            return
        switch()

    def continue_play(self) -> None:
        """The learner has seen the finished trick: gather it, and the computer goes on."""
        self._shown_trick = None
        self._pending = False
        self.refresh()
        if self._bot_due() is not None and self.autoplay:
            self._after_move()

    # ------------------------------------------------------------ questions asked once
    def _ask(self, question: str, yes: str, on_yes: Callable[[], None]) -> None:
        self._question = on_yes
        self.question.value = f"<b>{html.escape(question)}</b>"
        self.yes_button.description = yes
        self.question_box.layout.display = "flex"

    def _close_question(self) -> None:
        self._question = None
        self.question.value = ""
        self.question_box.layout.display = "none"

    def _answer_yes(self) -> None:
        action = self._question
        self._close_question()
        if action is not None:
            action()

    def _answer_no(self) -> None:
        self._close_question()
        self.say(_("Nothing changed: play on."))

    def request_claim(self) -> None:
        """The Go out button: a right claim is made at once; a wrong one is asked about first (the
        course's tables; ``confirm_claims=False`` on the table page for real play)."""
        viewer = self.viewer
        claim = self.state.claim(viewer)
        if claim.valid or not self.confirm_claims:
            self.act(GoOut(viewer))
            return
        if self._who(1 - viewer) == "computer":
            question = _(
                "You have {total}; a claim needs 501 and would give the computer the game (S3, S4). Claim anyway?"
            )
        else:
            question = _("You have {total}; a claim needs 501 and would give {name} the game (S3, S4). Claim anyway?")
        self._ask(
            question.format(total=claim.total, name=self.names[1 - viewer]),
            _("Claim anyway"),
            lambda: self.act(GoOut(viewer)),
        )

    def request_new_deal(self, seed: int) -> None:
        """The New deal button: asks first while a match is under way (its buli would be lost)."""
        match = self.match
        if (not match.results and not self.state.moves) or match.is_over:
            self.new_deal(seed)
            return
        you, other = self.human, 1 - self.human
        self._ask(
            _(
                "A new deal ends this match ({you} {mine}, {other} {theirs} buli) and starts a new one. Start anew?"
            ).format(you=self._said(you), mine=match.buli[you], other=self._said(other), theirs=match.buli[other]),
            _("Start a new match"),
            lambda: self.new_deal(seed),
        )

    def _holding_for_claim(self) -> bool:
        """The learner may go out now, and the computer's last move gave them that chance: the computer
        waits until they go out or play on (S3: a claim may be made at any moment).

        The chance is S3's claim window (the computer's silent card decided a contest the learner's melds
        won and took the trick), or the computer's pass or losing declaration, which decided the contest
        and scored the learner's melds before its card: a claim then counts what a record counts at that
        moment, not the trick the computer's card would take."""
        state = self.state
        if (
            self.two_players
            or "out" not in self.controls
            or state.to_move is None
            or not self._is_bot(state.to_move)
            or self._played_on_at == len(state.moves)
        ):
            return False
        return state.claim(self.human).at_step_seven or self._claim_opened_by_computer()

    def _claim_opened_by_computer(self) -> bool:
        """The learner's claim is right now and was not before the computer's last move."""
        state = self.state
        if not state.moves or state.moves[-1].player == self.human or not state.claim(self.human).valid:
            return False
        before = state.copy()
        before.pop()
        return not before.claim(self.human).valid

    def play_on(self) -> None:
        """The learner lets the claim window pass (or a position from a link go on): the computer goes on."""
        self._played_on_at = len(self.state.moves)
        self._held = False
        self._after_move()

    def _held_bot(self) -> bool:
        """A position from a link waits with the computer to move (it moves when Play on is pressed)."""
        to_move = self.state.to_move
        return self._held and to_move is not None and self._is_bot(to_move)

    def _bot_due(self) -> int | None:
        """The computer's seat if it moves now: in turn, or out of turn with a right claim (S3, e.g. in the
        claim window after the learner's silent card took a trick its melds had won)."""
        state = self.state
        player = state.to_move
        if player is None or self._held or self._holding_for_claim():
            return None
        if self._is_bot(player):
            return player
        other = 1 - player
        return other if self._is_bot(other) and state.claim(other).valid else None

    def _after_move(self) -> None:
        self.refresh()
        if self._bot_due() is None:
            return
        loop = kernel_loop()
        if self.autoplay and self._waiting_for_continue() and loop is not None:
            # Every trick is seen: the finished one stays until Continue, or for the chosen pause.
            if self.trick_pause > 0:
                self._pending = True
                shown = (self.state, len(self.state.moves))

                def gather() -> None:
                    if (self.state, len(self.state.moves)) == shown and self._shown_trick is not None:
                        self.continue_play()

                loop.call_later(self.trick_pause, self.guard(gather))
            return
        if self.autoplay and self.delay > 0 and loop is not None:
            self._pending = True
            loop.call_later(self.delay, self.guard(self._auto_step))
            return
        if self.autoplay:
            self.run_opponent()

    def _auto_step(self) -> None:
        self._pending = False
        if self.opponent_step():
            self._after_move()

    def opponent_step(self) -> bool:
        """One move of the computer, from its view only. True if it moved."""
        state = self.state
        player = self._bot_due()
        if player is None:
            return False
        view = state.view(player)
        move = self.opponent.choose(view) if player == state.to_move else right_claim(view)
        if move is None:
            return False
        state.push(move)
        self.say(self._describe_last())
        self.refresh()
        return True

    def run_opponent(self) -> int:
        """Let the computer move until it is the learner's turn or the hand ends; returns the moves made."""
        made = 0
        while self.opponent_step():
            made += 1
        return made

    # ------------------------------------------------------------ undo, deals, records
    def _human_moves_made(self) -> bool:
        return any(m.player == self.human or self.two_players for m in self.state.moves)

    def undo(self) -> None:
        """Take back the learner's last move (and the computer's replies after it)."""
        state = self.state
        if not self._human_moves_made():
            raise TartliError(_("there is no move of yours to take back"))
        while state.moves:
            move = state.pop()
            self._redo.append(move)
            if self.two_players or move.player == self.human:
                break
        self.say(_("Move taken back."))
        self.refresh()

    def redo(self) -> None:
        """Make again the moves taken back last (the computer's replies as they were)."""
        if not self._redo:
            raise TartliError(_("there is nothing to redo"))
        while self._redo:
            move = self._redo.pop()
            self.state.push(move)
            if self._redo and (self.two_players or self._redo[-1].player == self.human):
                break
        self.say(_("Move made again."))
        self._after_move()

    def new_deal(self, seed: int) -> None:
        """Start again from a fresh match with the deal of ``seed``."""
        self.seed = seed
        if self._own_opponent:
            self.opponent = bot_for_level(self.level, seed=seed)  # the same deal number plays the same way
        self.match = Match(self.rules, seed=seed, first_dealer=1)
        self._redo.clear()
        self._held = False
        self.refresh()  # the board and buttons first: a page that sees the message sees them too
        self.say(_("New deal #{seed}.").format(seed=seed))
        self._after_move()

    def next_hand(self) -> None:
        """Book the finished hand and deal the next one of the match (D2, S6). A hand the learner did
        not have reviewed is reviewed now for the match summary (a few seconds): the message line
        counts its decisions, so the button does not seem dead meanwhile."""

        def counting(done: int, total: int) -> None:
            self.say(
                _("Summing up this hand for the match: {done} of {total} decisions").format(done=done, total=total)
            )

        summary = self.hand_summary(counting) if self._summing_up() else None
        self.match.next_hand()
        if summary is not None:
            self._summaries.append(summary)
        self._hand_summary = None
        self._redo.clear()
        self._held = False
        self.refresh()  # the board and buttons first: a page that sees the message sees them too
        dealer, number = self.state.dealer, len(self.match.results) + 1
        if self._who(dealer) == "you":
            self.say(_("Hand {number}: You deal.").format(number=number))
        else:
            self.say(_("Hand {number}: {name} deals.").format(number=number, name=self._said(dealer)))
        self._after_move()

    def load_record(self, text: str, *, announce: bool = False) -> None:
        """Load a ``tartli/1`` record; a bad record is refused with a message and the game is kept.

        ``announce``: say "Record loaded: N moves." (the table page's Load, where the learner chose a
        saved game). A lesson's scripted position is loaded silently: that learner loaded nothing, and
        the last message, about the game before, goes."""
        record = Record.from_json(text)
        state = record.replay()  # raises before anything is replaced
        match = Match(record.rules, seed=self.seed, first_dealer=record.deal.dealer, scores=record.scores)
        match.state = state
        self.rules = record.rules
        self.match = match
        self._redo.clear()
        self._held = False
        self.refresh()  # the board and buttons first: a page that sees the message sees them too
        if announce:
            self.say(_("Record loaded: {n} moves.").format(n=len(state.moves)))
        else:
            self.message.value = ""
        self._after_move()

    def open_position(self, position: SharedPosition) -> None:
        """Show a shared position: its hand after ``position.move`` moves, the learner in ``position.seat``.
        The game's later moves wait in Redo (step through them), and the computer waits for the learner
        (who may play on from here instead)."""
        record = position.record
        whole = record.replay()  # a link's record was replayed once already: this cannot fail
        state = position.state()
        match = Match(record.rules, seed=self.seed, first_dealer=record.deal.dealer, scores=record.scores)
        match.state = state
        self.human = position.seat
        self.rules = record.rules
        self.match = match  # (after the seat: the engine's names follow it)
        self._redo = list(reversed(whole.moves[position.move :]))
        self._held = True
        self._from_link = True
        self._played_on_at = -1
        self.refresh()  # the board and buttons first: a page that sees the message sees them too
        total = len(record.moves)
        if position.move == total:
            said = ngettext(
                "The position of the link, after its game's {n} move.",
                "The position of the link, after all {n} moves of its game.",
                total,
            )
        else:
            said = _("The position of the link: move {n} of {total}. Play on, or step through the game with Redo.")
        self.say(said.format(n=position.move, total=total))
        self._after_move()

    def open_from_address(self, query: str | None = None) -> bool:
        """Open the position the page's address names (``?record=...&move=N&as=S``: Voilà's
        ``QUERY_STRING``, or ``query``). True if one was opened; a link that cannot be opened leaves a
        fresh deal and says why. Nothing happens without ``record=`` in the address. Without
        ``query``, a page whose kernel was not given its address (the static edition) opens the link
        when the browser sends the address (:class:`~tartli.widgets.share.ShareButton`)."""
        if query is None:
            query = page_query()
            if not self.share_button.listen_address:  # (the static edition's kernel is not given the address)
                self.share_button.on_address(self.guard(self.open_from_address))
        if "record=" in query:
            self.share_button.address_handled = True

        def refused(text: str) -> None:
            self._from_link = True  # the message stays: the kept game does not replace it
            self.say(text, error=True)

        return open_linked(query, self.open_position, refused)

    def save_record(self) -> str:
        """The hand so far as ``tartli/1`` text."""
        return Record.from_state(self.state).to_json()

    def load_deal(self, deal: Deal, scores: tuple[int, int] = (0, 0)) -> None:
        """Start a given deal (a lesson's scenario)."""
        self.match = Match(self.rules, seed=self.seed, first_dealer=deal.dealer, scores=scores)
        self.match.redeal(deal)
        self._redo.clear()
        self._held = False
        self.refresh()  # the board and buttons first: a page that sees the message sees them too
        self.say(_("A new position is dealt."))
        self._after_move()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """In a notebook the controller shows its widget."""
        return self.widget._repr_mimebundle_(**kwargs)


__all__ = [
    "LEVEL_NAMES",
    "ReviewItem",
    "Status",
    "TableController",
    "declaration_label",
    "level_name",
    "move_words",
    "names_or",
    "review_hand",
    "review_html",
]
