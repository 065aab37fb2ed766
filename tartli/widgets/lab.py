"""The scenario lab: set up any position by clicking, check it, play it, or pass it on as a record.

The whole pack is drawn in four suit rows. Choose a place ("Your hand",
"The computer's hand", "Indicator", "Talon") and click cards to put them there; the
talon is filled in the order you click, top card first. The engine checks the
position (C1, D1: 9 + 9 cards, one indicator, 13 in the talon, each card once)
before it can be played; a wrong set-up is explained, never accepted.

Headless use::

    lab = ScenarioLab(seed=3)        # starts from the deal of seed 3
    lab.place = "hand0"; lab.click("OH")
    lab.deal()                       # the Deal, or InvalidDealError naming the rule
    lab.play()                       # a TableController on that deal below the lab
"""

from __future__ import annotations

import html
import logging
import textwrap
from collections.abc import Callable
from typing import Any, Literal
from urllib.parse import quote

import ipywidgets as w

from tartli.cards import CARDS, SUITS, Card, Rank
from tartli.errors import InvalidDealError, TartliError
from tartli.game import Deal, HandState
from tartli.i18n import N_, _, ngettext
from tartli.melds import BELA, Meld
from tartli.moves import Bela, Declare, Swap
from tartli.names import Language, upper_first
from tartli.record import Record, ReplayError
from tartli.render.cards import card_svg
from tartli.rules import RuleSet
from tartli.share import SharedPosition, share_query
from tartli.widgets.board import RecordFile, SvgBoard
from tartli.widgets.share import ShareButton, open_linked, page_query, position_from_address
from tartli.widgets.table import TableController
from tartli.widgets.trainers.base import Exercise
from tartli.widgets.trainers.canvas import NARROW_BELOW

log = logging.getLogger(__name__)

Place = Literal["hand0", "hand1", "indicator", "talon"]
PLACES: dict[str, str] = {
    "hand0": N_("Your hand"),
    "hand1": N_("The computer's hand"),
    "indicator": N_("Indicator (trumps)"),
    "talon": N_("Talon (in order)"),
}
"""The places a card may be put, with their labels (marked: translated where shown)."""
_TAGS = {"hand0": N_("You"), "hand1": N_("Computer"), "indicator": N_("IND")}
_SHORT_TAGS = {"hand0": N_("You"), "hand1": N_("PC"), "indicator": N_("IND")}  # under a phone's narrow cards
"""The label under a placed card (a talon card's is its place, T1 to T13)."""
_COLOURS = {"hand0": "#1d4ed8", "hand1": "#a40000", "indicator": "#7a4d00", "talon": "#2f6b45"}
RULE_CHOICES = {N_("Hungarian"): "hungarian", N_("Pais (B2)"): "pais", N_("Austrian (V1-V11)"): "austrian"}
"""The rule sets to choose, by their (marked) labels."""


class ScenarioLab:
    """A position editor over the engine's :class:`~tartli.game.Deal`."""

    def __init__(self, *, seed: int = 1, language: Language | None = None) -> None:
        self.language = language
        self.place: Place = "hand0"
        self.where: dict[Card, str] = {}
        self.talon: list[Card] = []
        self.moves: list[str] = []  # the moves of a loaded record, until the position is edited
        self.table: TableController | None = None
        self.seat = 0
        """The learner's seat at the lab's table (a link may seat them at 1: ``&as=1``)."""
        self._checked: list[Callable[[bool], None]] = []
        self._seated: list[Callable[[TableController], None]] = []
        self._build()
        self.from_seed(seed)

    # ------------------------------------------------------------ widgets
    def _build(self) -> None:
        self.board = SvgBoard(layout=w.Layout(width="100%"))
        self.board.on_pick(self._guard(self.click))
        self.board.observe(self._guard(lambda _change: self.refresh()), names="client_width")  # a phone's width
        self.brush = w.ToggleButtons(
            options=[(_(label), key) for key, label in PLACES.items()],
            value="hand0",
            description=_("Put cards in:"),
            style={"button_width": "170px"},
        )
        self.brush.observe(self._guard(lambda change: self._set_place(change["new"])), names="value")
        self.dealer = w.ToggleButtons(
            options=[(_("You deal"), 0), (_("The computer deals"), 1)],
            value=1,
            description=_("Dealer:"),
            style={"button_width": "150px"},
        )
        wide = {"description_width": "initial"}
        self.score0 = w.BoundedIntText(
            value=0, min=0, max=2000, description=_("Your score:"), style=wide, layout=w.Layout(width="170px")
        )
        self.score1 = w.BoundedIntText(
            value=0,
            min=0,
            max=2000,
            description=_("The computer's score:"),
            style=wide,
            layout=w.Layout(width="240px"),
        )
        self.rules = w.Dropdown(
            options=[(_(label), key) for label, key in RULE_CHOICES.items()], value="hungarian", description=_("Rules:")
        )
        self.seed = w.BoundedIntText(
            value=1, min=0, max=10**9, description=_("Deal #:"), layout=w.Layout(width="170px")
        )
        self.seed_button = w.Button(description=_("Deal it"))
        self.clear_button = w.Button(description=_("Clear all"))
        self.check_button = w.Button(description=_("Check position"), button_style="info")
        self.play_button = w.Button(
            description=_("Play it against the computer"), button_style="success", layout=w.Layout(width="auto")
        )
        self.upload = RecordFile()
        self.download = w.HTML()
        self.share_button = ShareButton()
        self.message = w.HTML()
        self.table_box = w.VBox()
        self.seed_button.on_click(self._guard(lambda _b: self.from_seed(int(self.seed.value))))
        self.clear_button.on_click(self._guard(lambda _b: self.clear()))
        self.check_button.on_click(self._guard(lambda _b: self.check()))
        self.play_button.on_click(self._guard(lambda _b: self.play()))
        self.upload.on_text(self._guard(self.load_record), lambda err: self.say(str(err), error=True))
        for control in (self.dealer, self.score0, self.score1, self.rules):
            control.observe(self._guard(lambda _change: self.refresh()), names="value")
        self.widget = w.VBox(
            [
                self.brush,
                self.board,
                self.message,
                w.HBox([self.dealer, self.rules], layout=w.Layout(flex_flow="row wrap")),
                w.HBox(
                    [self.score0, self.score1, self.seed, self.seed_button, self.clear_button],
                    layout=w.Layout(flex_flow="row wrap"),
                ),
                w.HBox(
                    [self.check_button, self.play_button, self.upload, self.download, self.share_button],
                    layout=w.Layout(flex_flow="row wrap", align_items="center"),
                ),
                self.table_box,
            ]
        )
        self.widget.add_class("tartli-lab")

    def _guard(self, fn: Any) -> Any:
        def run(*args: Any) -> Any:
            try:
                return fn(*args)
            except TartliError as err:
                self.say(err.said() if isinstance(err, ReplayError) else str(err), error=True)
            except Exception as err:  # the page stays usable
                log.exception("lab callback failed")
                self.say(
                    _("Something went wrong ({error}); the position is unchanged.").format(error=type(err).__name__),
                    error=True,
                )
            return None

        return run

    def say(self, text: str, *, error: bool = False) -> None:
        mark, colour = ("⚠ ", "#a40000") if error else ("", "#1f4d2b")
        self.message.value = f'<span style="color:{colour}">{mark}{html.escape(text)}</span>'

    def _set_place(self, place: str) -> None:
        if place not in PLACES:
            raise TartliError(f"unknown place {place!r}")
        self.place = place  # type: ignore[assignment]

    # ------------------------------------------------------------ editing
    def click(self, text: str) -> None:
        """Put the clicked card in the chosen place (the indicator place holds one card)."""
        card = Card.parse(text)
        self.moves = []  # an edited position is a new position
        self._remove(card)
        if self.place == "indicator":
            for other, place in list(self.where.items()):
                if place == "indicator":
                    del self.where[other]
            self.where[card] = "indicator"
        elif self.place == "talon":
            self.where[card] = "talon"
            self.talon.append(card)
        else:
            self.where[card] = self.place
        self.refresh()

    def _remove(self, card: Card) -> None:
        if self.where.pop(card, None) == "talon":
            self.talon.remove(card)

    def clear(self) -> None:
        """Start from an empty table: every card unplaced."""
        self.where.clear()
        self.talon.clear()
        self.moves = []
        self.say(_("All cards are off the table: put them where you want them."))
        self.refresh()

    def set_deal(self, deal: Deal) -> None:
        """Show a deal in the lab."""
        self.where = {c: "hand0" for c in deal.hands[0]}
        self.where.update({c: "hand1" for c in deal.hands[1]})
        self.where[deal.indicator] = "indicator"
        self.talon = list(deal.talon)
        self.where.update({c: "talon" for c in deal.talon})
        self.dealer.value = deal.dealer
        self.refresh()

    def from_seed(self, seed: int) -> None:
        """Start from the deal of a seed (D1)."""
        self.moves = []
        if self.seed.value != seed:
            self.seed.value = seed  # the "Deal #" box names the deal shown
        self.set_deal(Deal.from_seed(seed, dealer=int(self.dealer.value)))
        self.say(_("Deal #{seed}: change it by clicking cards.").format(seed=seed))

    def _cards_in(self, place: str) -> list[Card]:
        return sorted(c for c, p in self.where.items() if p == place)

    def counts(self) -> dict[str, int]:
        """How many cards each place holds."""
        return {p: sum(1 for v in self.where.values() if v == p) for p in PLACES}

    def missing(self) -> list[str]:
        """What the position lacks to be a deal (D1), in the learner's words: empty once it is one.

        Every card is in one place at most (C1), so 9 + 9 + 1 + 13 placed cards are the whole pack.
        """
        counts = self.counts()
        said: list[str] = []
        # Translators: these parts are joined by "; " after "Not finished yet:" (lower case).
        more = 9 - counts["hand0"]
        if more > 0:
            said.append(
                ngettext("place {n} more card in your hand", "place {n} more cards in your hand", more).format(n=more)
            )
        elif more < 0:
            said.append(
                ngettext("your hand has {n} card too many", "your hand has {n} cards too many", -more).format(n=-more)
            )
        more = 9 - counts["hand1"]
        if more > 0:
            said.append(
                ngettext(
                    "place {n} more card in the computer's hand", "place {n} more cards in the computer's hand", more
                ).format(n=more)
            )
        elif more < 0:
            said.append(
                ngettext(
                    "the computer's hand has {n} card too many", "the computer's hand has {n} cards too many", -more
                ).format(n=-more)
            )
        if counts["indicator"] == 0:
            said.append(_("choose a trump indicator"))
        more = 13 - counts["talon"]
        if more > 0:
            said.append(
                ngettext("place {n} more card in the talon", "place {n} more cards in the talon", more).format(n=more)
            )
        elif more < 0:
            said.append(
                ngettext("the talon has {n} card too many", "the talon has {n} cards too many", -more).format(n=-more)
            )
        return said

    def unfinished(self) -> str | None:
        """What the position still lacks, said as one sentence; None once it is a whole deal (C1, D1)."""
        said = self.missing()
        return _("Not finished yet: {missing} (D1).").format(missing="; ".join(said)) if said else None

    def deal(self) -> Deal:
        """The position as the engine's Deal; an unfinished one raises InvalidDealError saying what it lacks."""
        unfinished = self.unfinished()
        if unfinished is not None:
            raise InvalidDealError(unfinished)
        indicator = self._cards_in("indicator")
        return Deal(
            int(self.dealer.value),
            (tuple(self._cards_in("hand0")), tuple(self._cards_in("hand1"))),
            indicator[0],
            tuple(self.talon),
        )

    @property
    def rule_set(self) -> RuleSet:
        return RuleSet.named(str(self.rules.value))

    @property
    def scores(self) -> tuple[int, int]:
        return int(self.score0.value), int(self.score1.value)

    def check(self) -> HandState | None:
        """Check the position with the engine and say what the player to move may do; of an unfinished
        position (None), say what it still lacks."""
        unfinished = self.unfinished()
        if unfinished is not None:
            self.say(unfinished)  # not an error: the learner is building it
            self._tell_checked(False)
            return None
        state = HandState(self.deal(), self.rule_set, self.scores)
        leader = state.to_move
        assert leader is not None
        moves = state.legal_moves()
        you = leader == 0
        # Translators: the notes follow "you lead and" or "the computer leads and": say them without a
        # subject (in Hungarian and German impersonally), they serve both.
        notes = []
        if any(isinstance(m, Swap) for m in moves):
            notes.append(_("may swap the trump Seven (T5)"))
        declares = len([m for m in moves if isinstance(m, Declare)])
        if declares:
            notes.append(
                ngettext("may declare {n} way(s) (M1-M5)", "may declare {n} way(s) (M1-M5)", declares).format(
                    n=declares
                )
            )
        if any(isinstance(m, Bela) for m in moves):
            notes.append(_("may declare béla (B1)"))
        if notes and you:
            text = _("The position is a whole pack, dealt correctly (C1, D1): you lead and {notes}.")
        elif notes:
            text = _("The position is a whole pack, dealt correctly (C1, D1): the computer leads and {notes}.")
        elif you:
            text = _("The position is a whole pack, dealt correctly (C1, D1): you lead.")
        else:
            text = _("The position is a whole pack, dealt correctly (C1, D1): the computer leads.")
        self.say(text.format(notes=", ".join(notes)))
        self._tell_checked(True)
        return state

    def on_check(self, callback: Callable[[bool], None]) -> None:
        """Call ``callback(whole)`` after each Check position: ``whole`` is whether the position is a deal."""
        self._checked.append(callback)

    def _tell_checked(self, whole: bool) -> None:
        for callback in list(self._checked):
            callback(whole)

    def on_table(self, callback: Callable[[TableController], None]) -> None:
        """Call ``callback(table)`` each time the position is put on a table below the lab."""
        self._seated.append(callback)

    def play(self) -> TableController:
        """Play the position against the computer, below the lab."""
        deal = self.deal()
        table = TableController(
            seed=int(self.seed.value),
            rules=self.rule_set,
            language=self.language,
            first_dealer=deal.dealer,
            human=self.seat,
        )
        if self.moves:  # a loaded record goes on from where it stopped
            table.load_record(Record(deal, self.rule_set, self.scores, list(self.moves)).to_json())
        else:
            table.load_deal(deal, scores=self.scores)
        self._seat_table(table)
        self.say(_("Here is the position at the table below: you play “Your hand”, the computer the other one."))
        return table

    def _seat_table(self, table: TableController) -> None:
        self.table = table
        self.table_box.children = [table.widget]
        table.on_refresh(self._share_table)
        self._share_table()
        for callback in list(self._seated):
            callback(table)

    def _share_table(self) -> None:
        """The Share button of the lab links to its table's game while there is one."""
        if self.table is not None:
            self.share_button.query = self.table.share_button.query

    def open_position(self, position: SharedPosition) -> TableController:
        """Show a shared position: its cards, rules and scores in the lab, and the hand after
        ``position.move`` moves at the table below, the learner in ``position.seat``."""
        record = position.record
        self.load_record(record.to_json())
        self.seat = position.seat
        table = TableController(
            seed=int(self.seed.value),
            rules=record.rules,
            language=self.language,
            first_dealer=record.deal.dealer,
            human=position.seat,
        )
        table.open_position(position)
        self._seat_table(table)
        self.say(_("The position of the link is at the table below: play on, or step through its game with Redo."))
        return table

    def open_from_address(self, query: str | None = None) -> bool:
        """Open the position the page's address names (``?record=...``, see :mod:`tartli.share`); True
        if one was opened. A link that cannot be opened leaves the lab's deal and says why."""
        return open_linked(query, self.open_position, lambda text: self.say(text, error=True))

    def record(self) -> str:
        """The position as ``tartli/1`` text (no moves yet): to hand to a friend."""
        return Record(self.deal(), self.rule_set, self.scores, []).to_json()

    def load_record(self, text: str) -> None:
        """Show the position of a record (its dealt cards, rules and scores)."""
        record = Record.from_json(text)
        self.rules.value = record.rules.name if record.rules.name in RULE_CHOICES.values() else "hungarian"
        self.score0.value, self.score1.value = record.scores
        self.set_deal(record.deal)
        self.moves = list(record.moves)
        count = len(record.moves)
        if count:
            self.say(
                ngettext(
                    "Record loaded (its {n} moves are replayed when you play it).",
                    "Record loaded (its {n} moves are replayed when you play it).",
                    count,
                ).format(n=count)
            )
        else:
            self.say(_("Record loaded."))

    # ------------------------------------------------------------ drawing
    def refresh(self) -> None:
        self.board.svg = self._picture()
        try:
            text = self.record()
        except TartliError:
            waiting = html.escape(_("Save record: the position is not complete yet"))
            self.download.value = f"<span style='color:#777'>{waiting}</span>"
        else:
            href = "data:application/json;charset=utf-8," + quote(text)
            label = html.escape(_("Save record"))
            self.download.value = (
                f'<a class="tartli-button-link" download="tartli-position.json" href="{href}">{label}</a>'
            )
            if self.table is None:
                record = Record(self.deal(), self.rule_set, self.scores, list(self.moves))
                self.share_button.query = share_query(record, seat=self.seat)

    def _picture(self) -> str:
        phone = 0 < self.board.client_width < NARROW_BELOW  # drawn for the phone's own width
        counts = self.counts()
        lines = [
            _("Your hand {you}/9 · the computer's {computer}/9").format(you=counts["hand0"], computer=counts["hand1"]),
            _("indicator {indicator}/1 · talon {talon}/13 · unplaced {unplaced}").format(
                indicator=counts["indicator"], talon=counts["talon"], unplaced=32 - len(self.where)
            ),
        ]
        summary = " · ".join(lines)
        if phone:
            gap, left = 4.0, 8.0
            cw = (self.board.client_width - 2 * left - 7 * gap) / 8
            top, label = 18.0 + 2 * 20, 16.0  # the suit's name above its row
        else:
            cw, gap, left, top, label = 62.0, 8.0, 110.0, 34.0, 0.0
            lines = [summary]
        ch = cw * 1.6
        row = ch + 26 + label
        width = left + 8 * (cw + gap) - gap + (8 if phone else 10)
        height = top + 4 * row + 8
        tags = {place: _(tag) for place, tag in (_SHORT_TAGS if phone else _TAGS).items()}
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" '
            f'role="img" aria-label="{html.escape(summary)}"><title>{html.escape(summary)}</title>',
            f'<rect width="{width:.0f}" height="{height:.0f}" rx="12" fill="#f4efe2"/>',
        ]
        for k, line in enumerate(lines):
            parts.append(
                f'<text x="{left + 4:.0f}" y="{22 + 20 * k}" font-family="sans-serif" '
                f'font-size="{14 if phone else 15}" font-weight="bold" fill="#333">{html.escape(line)}</text>'
            )
        for s, suit in enumerate(SUITS):
            y = top + s * row + label
            name_x, name_y = (left + 4, y - 5) if phone else (12, y + ch / 2)
            parts.append(
                f'<text x="{name_x:.0f}" y="{name_y:.0f}" font-family="sans-serif" font-size="14" fill="#333">'
                f"{html.escape(upper_first(suit.name_in(self.language)))}</text>"
            )
            for r in range(8):
                card = CARDS[s * 8 + r]
                x = left + r * (cw + gap)
                place = self.where.get(card)
                svg = card_svg(
                    card, width=cw, language=self.language, selected=place is not None, trump=place == "indicator"
                )
                faded = "" if place is not None else ' opacity="0.55"'
                parts.append(
                    f'<g data-pick="{card.text}"{faded}><g transform="translate({x:.0f} {y:.0f})">{svg}</g></g>'
                )
                if place is not None:
                    tag = tags.get(place) or f"T{self.talon.index(card) + 1}"
                    fit = f' textLength="{cw - 16:.0f}" lengthAdjust="spacingAndGlyphs"' if len(tag) > 4 else ""
                    pad = 2 if phone else 6
                    parts.append(
                        f'<rect x="{x + pad:.0f}" y="{y + ch + 2:.0f}" width="{cw - 2 * pad:.0f}" height="18" rx="4" '
                        f'fill="{_COLOURS[place]}"/><text x="{x + cw / 2:.0f}" y="{y + ch + 15:.0f}" '
                        f'font-family="sans-serif" font-size="{11 if fit else 12}" font-weight="bold" fill="#fff" '
                        f'text-anchor="middle"{fit}>{html.escape(tag)}</text>'
                    )
        parts.append("</svg>")
        return "".join(parts)


class LabChallenge(Exercise):
    """Build a position in the lab that meets a goal; the engine checks it (T5, M2, B1, D3)."""

    id = "lab-challenge"
    title = N_("Build it")
    instruction = N_("Set up the position the goal asks for in the lab above, then press “Check my position”.")

    GOALS: tuple[tuple[str, str], ...] = (
        ("swap", N_("The player who leads trick 1 may swap the trump Seven (T5).")),
        ("overs", N_("You hold four Overs, ready to declare them (M2).")),
        ("bela", N_("The leader of trick 1 may declare béla at once (B1).")),
        ("second-leads", N_("The computer leads the first trick (D3).")),
        ("bela-501", N_("You may declare béla at once, and it takes you to 501 (B1).")),
    )
    """The goals by key, in English (marked: translated where shown)."""

    def __init__(self, lab: ScenarioLab, seed: int | None = None, *, goal: str | None = None, **kw: Any) -> None:
        """``goal`` (a key of :attr:`GOALS`) fixes the goal, for a lesson's step that teaches it: no
        "New position" then. Without it, each new position draws a goal the lab's position does not
        meet yet."""
        self.lab = lab
        self.goal: tuple[str, str] = ("", "")
        self.fixed = goal
        if goal is not None and goal not in dict(self.GOALS):
            raise TartliError(f"no lab goal {goal!r}")
        super().__init__(seed=seed, **kw)
        if goal is not None:
            self.new_button.layout.display = "none"

    def _make_controls(self) -> list[Any]:
        return [self._button(_("Check my position"), self.check)]

    def _generate(self) -> object:
        if self.fixed is not None:
            self.goal = next(g for g in self.GOALS if g[0] == self.fixed)
            return self.goal[0]
        goals = [g for g in self.GOALS if g[0] != self.goal[0]]
        open_goals = [g for g in goals if not self._met(g[0])[0]]  # a goal met already asks for nothing
        self.goal = self.rng.choice(open_goals or goals)
        return self.goal[0]

    def shown(self) -> None:
        """The step with this challenge is on screen: a drawn goal that the position the learner brought
        meets already is drawn again (a fixed goal stays: the learner built it)."""
        if self.fixed is None and self.attempts == 0 and not self.solved and self.met()[0]:
            self.new_position()

    def _picture(self) -> str:
        """The goal, in lines short enough to stay readable on a phone."""
        goal = _("Goal: {goal}").format(goal=_(self.goal[1]))
        lines = textwrap.wrap(goal, 34)
        text = "".join(
            f'<text x="16" y="{34 + 26 * k}" font-family="sans-serif" font-size="19" fill="#fff">'
            f"{html.escape(line)}</text>"
            for k, line in enumerate(lines)
        )
        height = 26 * len(lines) + 24
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 380 {height}" width="380" height="{height}" '
            f'role="img" aria-label="{html.escape(goal)}"><rect width="380" height="{height}" rx="10" '
            f'fill="#2f6b45"/>{text}</svg>'
        )

    def met(self) -> tuple[bool, str]:
        """Whether the lab's position meets the goal, judged by the engine."""
        return self._met(self.goal[0])

    def _met(self, key: str) -> tuple[bool, str]:
        unfinished = self.lab.unfinished()
        if unfinished is not None:
            return False, unfinished
        state = HandState(self.lab.deal(), self.lab.rule_set, self.lab.scores)
        leader = state.to_move
        assert leader is not None
        you = leader == 0
        if key == "swap":
            ok = Swap(leader) in state.legal_moves(leader)
            if ok:
                return ok, _("The leader may swap the trump Seven (T5).")
            if you:
                why = _("You lead trick 1: to swap, you must hold the {card_the} (T5).")
            else:
                why = _("The computer leads trick 1: to swap, the computer must hold the {card_the} (T5).")
            return ok, why.format(card=Card(Rank.SEVEN, state.trump).name(self.language))
        if key == "overs":
            overs = Meld.parse("vannak:O")
            ok = any(isinstance(m, Declare) and overs in m.melds for m in state.legal_moves(0))
            if ok:
                return ok, _("You may declare the {meld_acc} now (M2).").format(meld=overs.title(self.language))
            return ok, _(
                "You need all four Overs, and must lead trick 1 to declare them at once (choose “The computer deals”)."
            )
        if key == "bela":
            moves = state.legal_moves(leader)
            ok = any(isinstance(m, Bela) or (isinstance(m, Declare) and BELA in m.melds) for m in moves)
            if ok:
                return ok, _("The leader may declare béla now (B1).")
            if you:
                why = _("You lead trick 1: to declare béla, you must hold the King and Over of {suit} (B1).")
            else:
                why = _(
                    "The computer leads trick 1: to declare béla, the computer must hold the King and Over of {suit} "
                    "(B1)."
                )
            return ok, why.format(suit=state.trump.name_in(self.language))
        if key == "bela-501":
            return self._bela_to_501(state)
        ok = leader == 1
        if ok:
            return ok, _("The computer leads: you are the dealer (D3).")
        return ok, _("The non-dealer leads trick 1 (D3): choose “You deal”.")

    def _bela_to_501(self, state: HandState) -> tuple[bool, str]:
        """Your score 461 or more, and béla yours to declare now (B1; out of turn too): 501 at once."""
        if self.lab.rule_set.bela_at_declaration:
            return False, _("Under the Pais rules béla scores only with the declarations (B2): choose Hungarian.")
        if Bela(0) not in state.legal_moves(0):
            why = _("To declare béla, you must hold the King and Over of {suit} (B1).")
            return False, why.format(suit=state.trump.name_in(self.language))
        after = state.copy()
        after.push(Bela(0))
        total = after.claim(0).total
        if total < 501:
            return False, _("Béla brings your score to {total}: set your score so that it makes 501 (B1).").format(
                total=total
            )
        return True, _("Béla brings your score from {score} to {total}: you may go out (B1, S3).").format(
            score=state.scores_in[0], total=total
        )

    def check(self) -> bool:
        """Judge the position against the goal. An unfinished position is not judged (no slip): the
        learner hears what it lacks."""
        unfinished = self.lab.unfinished()
        if unfinished is not None and not self.solved:
            self._say(unfinished, "info")
            self.render()
            return False
        ok, why = self.met()
        return self._judge(ok, (_("Right: {why}") if ok else _("Not yet: {why}")).format(why=why), shows_answer=False)


class LabTask:
    """A lesson step's task done with the lab itself, not a goal to build: a line saying what to do,
    and done once the learner has done it (:class:`CheckTask`, :class:`PlayTask`)."""

    def __init__(self, lab: ScenarioLab, prompt: str) -> None:
        self.lab = lab
        self._done = False
        self._callbacks: list[Callable[[], None]] = []
        self.feedback = w.HTML("")
        self.widget = w.VBox(
            [w.HTML(f"<div class='tartli-question'><b>{html.escape(prompt)}</b></div>"), self.feedback]
        )

    @property
    def done(self) -> bool:
        return self._done

    def on_done(self, callback: Callable[[], None]) -> None:
        self._callbacks.append(callback)

    def _finish(self, message: str) -> None:
        if self._done:
            return
        self._done = True
        self.feedback.value = (
            "<div class='tartli-feedback right' role='status' style='background:#e6f4ea;"
            f"border-left:5px solid #2e7d32;padding:6px 10px;margin:4px 0'>{html.escape(message)}</div>"
        )
        for callback in list(self._callbacks):
            callback()


class CheckTask(LabTask):
    """Done when Check position has found something missing, and then a whole deal."""

    def __init__(self, lab: ScenarioLab, prompt: str) -> None:
        super().__init__(lab, prompt)
        self.found_missing = False
        lab.on_check(self._checked)

    def _checked(self, whole: bool) -> None:
        if not whole:
            self.found_missing = True
        elif self.found_missing:
            self._finish(_("Done: the engine said what was missing, then found a whole deal."))


class PlayTask(LabTask):
    """Done when the learner has made a move at a table the lab opened."""

    def __init__(self, lab: ScenarioLab, prompt: str) -> None:
        super().__init__(lab, prompt)
        lab.on_table(self._seated)

    def _seated(self, table: TableController) -> None:
        def moved() -> None:
            if any(move.player == table.human for move in table.state.moves):
                self._finish(_("Done: you played from your own position."))

        table.on_refresh(moved)
        moved()


class LinkedLab:
    """The position of the page's address (``?record=...``), shown above the lesson in a lab of its own
    with a title: :attr:`widget` is empty until there is one. Voilà gives the kernel the address; in
    the static edition the browser sends it when :attr:`widget` is shown (a hidden Share button,
    :class:`~tartli.widgets.share.ShareButton`), and the lab appears then."""

    def __init__(self, seed: int = 2024) -> None:
        self.seed = seed
        self.lab: ScenarioLab | None = None
        self._listener = ShareButton(layout=w.Layout(display="none"))
        self.widget = w.VBox([self._listener])

    def open(self, query: str | None = None) -> ScenarioLab | None:
        """Open the address's link (``query``, default Voilà's ``QUERY_STRING``); the lab, or None if
        the address names no position. A link that cannot be opened gives a lab with a fresh deal and a
        message saying why."""
        if query is None:
            query = page_query()
            if not self._listener.listen_address:
                self._listener.on_address(lambda text: self._open_guarded(text))
        if "record=" in query:
            self._listener.address_handled = True
        position, why = position_from_address(query)
        if position is None and why is None:
            return None
        lab = ScenarioLab(seed=self.seed)
        lab.open_from_address(query)
        heading = _("The position from your link")
        title = w.HTML(f"<h2>{html.escape(heading)}</h2>")
        lab.widget.children = (title, *lab.widget.children)
        self.lab = lab
        self.widget.children = (self._listener, lab.widget)
        return lab

    def _open_guarded(self, query: str) -> None:
        try:
            self.open(query)
        except Exception:  # a crafted address: the lesson below stays usable
            log.exception("the linked position could not be opened")


def linked_lab(query: str | None = None, seed: int = 2024) -> LinkedLab:
    """The :class:`LinkedLab` of the page's address (``query``, default Voilà's ``QUERY_STRING``),
    opened if the address names a position: display its ``widget`` above the lesson."""
    linked = LinkedLab(seed)
    linked.open(query)
    return linked
