"""The table's widgets: the board, the buttons and selectors, the hint, the review panel and the match
summary, drawn again from the state after every move (:meth:`TableController.refresh`); which controls a
table offers (:data:`CONTROLS`) and the computer's levels."""

from __future__ import annotations

import dataclasses
import html
import logging
from collections.abc import Callable, Collection
from typing import Any

import ipywidgets as w

from tartli import names
from tartli.bots import LEVELS, Bot, NoHint, bot_for_level
from tartli.bots.evaluate import COURSE, restrict
from tartli.bots.hint import hint as advise
from tartli.bots.review import HandSummary
from tartli.cards import Card
from tartli.course import TOPICS
from tartli.errors import TartliError
from tartli.game import HandState
from tartli.i18n import N_, _
from tartli.match import Match
from tartli.moves import Bela, Declare, GoOut, Move, Pass, Play, Swap
from tartli.names import Language
from tartli.record import Record, ReplayError
from tartli.render.table import table_svg
from tartli.rules import RuleSet
from tartli.widgets.board import Announcer, RecordFile, SvgBoard
from tartli.widgets.hand_review import ReviewPanel, match_summary_html
from tartli.widgets.hands import HandsKept
from tartli.widgets.move_names import declaration_label, main_declarations, move_words
from tartli.widgets.share import ShareButton
from tartli.widgets.table.history import TableHistory

log = logging.getLogger("tartli.widgets.table")  # (the name the table's log lines have always had)


def _hidden() -> w.Layout:
    # A new layout each time, as for _shown(): no widget is made when the module is imported (the
    # static edition's memory snapshot imports it before any page is open, see tartli.site).
    return w.Layout(display="none")


def _shown() -> w.Layout:
    return w.Layout(display="")


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


class TableController(TableHistory):
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

    NARROW_BELOW = 600
    """Below this width in CSS pixels the table is drawn upright, for a phone."""

    @property
    def narrow(self) -> bool:
        """Is the table shown on a narrow screen (a phone)? Known once the browser reports its width."""
        return 0 < self.board.client_width < self.NARROW_BELOW

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
                self.say(err.said() if isinstance(err, ReplayError) else str(err), error=True)
            except Exception as err:  # the page must stay usable whatever happens
                log.exception("table callback failed")
                self.say(
                    _("Something went wrong ({error}); the game is unchanged.").format(error=type(err).__name__),
                    error=True,
                )
            return None

        return run

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

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """In a notebook the controller shows its widget."""
        return self.widget._repr_mimebundle_(**kwargs)


__all__ = ["CONTROLS", "LEVEL_NAMES", "TableController", "level_name"]
