"""Trainers: short interactive exercises, one rule at a time, judged by the engine.

Each exercise is a small controller (:class:`Exercise`) that owns its question,
its ipywidgets and an :class:`~tartli.widgets.board.SvgBoard` picture, and
re-renders from its state. No exercise keeps a rule of its own: who wins a
trick comes from :func:`~tartli.game.trick_winner`, card points from
:func:`~tartli.game.trick_points`, melds from :func:`~tartli.melds.find_melds`,
the contest from :func:`~tartli.melds.may_answer` and :func:`~tartli.melds.contest`,
same-suit sequences from :func:`~tartli.melds.same_suit_reason`, what may be
played from ``HandState.legal_moves()``, and going out from pushing the claim
on a copy of a :class:`~tartli.game.HandState`.

Headless use (tests, lessons)::

    ex = trainer("which-card-wins", seed=3)
    ex.answer(ex.winning_card)      # or ex.board.pick("OH"), or a Button's .click()
    ex.solved, ex.stars             # (True, 3)

The positions come from ``random.Random(seed)``: the same seed gives the same
sequence of positions, and "New position" always moves on to a different one.
"""

from __future__ import annotations

import contextvars
import html
import json
import logging
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal

import ipywidgets as w

from tartli import names
from tartli.cards import CARDS, LAST_TRICK_BONUS, PLAIN_ORDER, SEQUENCE_ORDER, SUITS, TRUMP_ORDER, Card, Rank, Suit
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import Deal, HandState, trick_points, trick_winner
from tartli.i18n import N_, _, joined, ngettext, the
from tartli.melds import BELA, SEQUENCES, SETS, Meld, MeldKind, contest, find_melds, may_answer, same_suit_reason
from tartli.moves import OUTS, PLAYS, Declare, GoOut, Play
from tartli.names import Language, Named, upper_first
from tartli.record import Record
from tartli.render.cards import card_svg
from tartli.render.table import hand_svg, meld_svg
from tartli.rulebook import link_rule_ids
from tartli.rules import RuleSet
from tartli.widgets.board import SvgBoard

__all__ = [
    "TRAINERS",
    "CountPoints",
    "Exercise",
    "FindMelds",
    "GoingOut",
    "MeldContest",
    "NameTheCard",
    "Progress",
    "SameSuit",
    "WhatMayYouPlay",
    "WhichCardWins",
    "stars_text",
    "trainer",
]

log = logging.getLogger(__name__)

FRIENDLY_ERROR = N_(
    "Sorry, something went wrong in this exercise. Your answer was not counted: try again, or press “New position”."
)
"""What the page shows when a callback fails (the details go to the log, never to the page)."""

_FELT = "#2f6b45"
_INK = "#f4f1e6"
_GOLD = "#ffe28a"
_SANS = "'Helvetica Neue', Arial, 'DejaVu Sans', sans-serif"


def stars_text(stars: int) -> str:
    """Three stars, filled for each one earned: ``stars_text(2) == "★★☆"``."""
    stars = max(0, min(3, stars))
    return "★" * stars + "☆" * (3 - stars)


def _e(text: str) -> str:
    return html.escape(text, quote=False)


def _attr(text: str) -> str:
    """``text`` for an HTML attribute in single or double quotes (a translation may hold either)."""
    return html.escape(text, quote=True)


def _n(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


# ---------------------------------------------------------------------------- progress
STAGE_LENGTH = 5
"""Positions answered right at the first try that finish a stage (its stars: see :meth:`Progress.record_position`)."""


class Progress:
    """Stars and counts per exercise id, kept as JSON (and in the browser via an SvgBoard).

    Stars mean mastery of a stage, not a lucky answer: a stage is finished by
    :data:`STAGE_LENGTH` positions answered right at the first try (a position
    with a wrong answer first, whose right answer the feedback then showed,
    earns nothing and counts as a slip). Its stars: 3 with no slip, 2 with
    one, 1 with more. ``best`` keeps the best stage.

    >>> p = Progress()
    >>> [p.record_position("which-card-wins", clean) for clean in (True, False, True, True, True, True)]
    [0, 0, 0, 0, 0, 2]
    >>> p.best("which-card-wins"), p.stage("which-card-wins"), p.solved("which-card-wins")
    (2, (0, 0), 6)
    >>> Progress.from_json(p.to_json()).to_dict() == p.to_dict()
    True
    """

    FIELDS: ClassVar[tuple[str, ...]] = ("best", "tries", "solved", "stages")
    STAGE_FIELDS: ClassVar[tuple[str, ...]] = ("clean", "slips")
    """The stage under way: taken whole from the newer record on a merge (they go back to 0)."""

    def __init__(self, data: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self._data: dict[str, dict[str, int]] = {}
        self._boards: list[SvgBoard] = []
        self.writing = False
        """True while this record is being written to the boards (a change that did not come from a browser)."""
        if data:
            self.merge(data)

    # -- reading
    def best(self, exercise: str) -> int:
        """The best stars (0-3) earned on any position of the exercise."""
        return self._data.get(exercise, {}).get("best", 0)

    def tries(self, exercise: str) -> int:
        """How many positions of the exercise were answered at least once."""
        return self._data.get(exercise, {}).get("tries", 0)

    def solved(self, exercise: str) -> int:
        """How many positions of the exercise were solved."""
        return self._data.get(exercise, {}).get("solved", 0)

    def stage(self, exercise: str) -> tuple[int, int]:
        """The stage under way: (positions right at the first try, slips)."""
        entry = self._data.get(exercise, {})
        return entry.get("clean", 0), entry.get("slips", 0)

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {k: dict(v) for k, v in sorted(self._data.items())}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Progress:
        """Read :meth:`to_json` output; anything unreadable gives an empty record (and a log line)."""
        try:
            data = json.loads(text or "{}") if len(text or "") <= 100_000 else {}
        except (ValueError, RecursionError):
            log.warning("ignoring unreadable progress record")
            data = {}
        return cls(data if isinstance(data, dict) else {})

    # -- writing
    def record_try(self, exercise: str) -> None:
        """A position of ``exercise`` got its first answer."""
        entry = self._entry(exercise)
        entry["tries"] += 1
        self._save()

    def record_result(self, exercise: str, stars: int) -> None:
        """A position of ``exercise`` was solved with ``stars`` (a challenge's own): the best is kept."""
        entry = self._entry(exercise)
        entry["solved"] += 1
        entry["best"] = max(entry["best"], max(0, min(3, int(stars))))
        self._save()

    def record_position(self, exercise: str, clean: bool, length: int = STAGE_LENGTH) -> int:
        """A position was solved, ``clean`` if at the first try. Returns the stars of the stage it
        finished (1-3), or 0 while the stage goes on."""
        entry = self._entry(exercise)
        entry["solved"] += 1
        entry["clean" if clean else "slips"] += 1
        stars = 0
        if entry["clean"] >= length:
            stars = 3 if entry["slips"] == 0 else 2 if entry["slips"] == 1 else 1
            entry["best"] = max(entry["best"], stars)
            entry["stages"] += 1
            entry["clean"] = entry["slips"] = 0
        self._save()
        return stars

    def merge(self, data: Mapping[str, Any]) -> bool:
        """Take in another record (the larger number wins in each field); True if anything changed."""
        changed = False
        for exercise, entry in data.items():
            if not isinstance(exercise, str) or not isinstance(entry, Mapping):
                continue
            mine = self._entry(exercise)

            def count(record: Mapping[str, Any], name: str) -> int:
                value = record.get(name, 0)
                return value if type(value) is int and value >= 0 else 0

            newer = (count(entry, "stages"), count(entry, "solved")) > (mine["stages"], mine["solved"])
            if newer:
                for name in self.STAGE_FIELDS:
                    changed |= mine[name] != count(entry, name)
                    mine[name] = count(entry, name)
            for name in self.FIELDS:
                value = entry.get(name, 0)
                if type(value) is int and value > mine[name]:
                    mine[name] = min(value, 3) if name == "best" else value
                    changed = True
        return changed

    def _entry(self, exercise: str) -> dict[str, int]:
        entry = self._data.setdefault(exercise, {})
        for name in (*self.FIELDS, *self.STAGE_FIELDS):
            entry.setdefault(name, 0)
        return entry

    # -- the browser's localStorage, through SvgBoard.progress
    def bind(self, board: SvgBoard) -> None:
        """Keep this record in ``board``'s localStorage: load what it holds now and whenever the
        browser sends its saved copy, and write every change back."""
        if board in self._boards:
            return
        self._boards.append(board)
        self.merge(board.load_progress())
        board.observe(self._on_board, names="progress")
        board.save_progress(self.to_dict())

    def _on_board(self, change: Any) -> None:
        board = change["owner"]
        if self.merge(board.load_progress()):
            self._save()
        elif board.load_progress() != self.to_dict():
            self._save([board])

    def _save(self, boards: Sequence[SvgBoard] | None = None) -> None:
        """Write this record to ``boards`` (all bound boards by default), marked as not from a browser."""
        data = self.to_dict()
        self.writing = True
        try:
            for board in self._boards if boards is None else boards:
                board.save_progress(data)
        finally:
            self.writing = False


# ---------------------------------------------------------------------------- pictures
_SIZE = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)" height="([0-9.]+)"')


def _size(svg: str) -> tuple[float, float]:
    found = _SIZE.match(svg)
    if not found:
        raise ValueError("a picture part needs its width and height")
    return float(found.group(1)), float(found.group(2))


NARROW_BELOW = 600
"""A picture narrower than this (CSS px) on the learner's screen is drawn for it: see :class:`_Canvas`."""

_FIT_WIDTH: contextvars.ContextVar[float | None] = contextvars.ContextVar("tartli_fit_width", default=None)
"""The width (CSS px) a picture drawn now must fit, or None for the usual desktop layout."""


class _Canvas:
    """A felt-green picture built top to bottom: lines of text and rows of (pickable) pictures.

    On a phone (when :data:`_FIT_WIDTH` is set, see :meth:`Exercise.render`) the picture is
    drawn at the screen's own width, one unit a CSS pixel, instead of being drawn for a desktop
    and shrunk: long lines of text wrap, and a row of pictures goes on to a second line when
    the next one would not fit. So its text keeps its size (at least 9 px, the brief's minimum).
    """

    def __init__(self, label: str, min_width: float = 560) -> None:
        self.caption = label
        self.parts: list[str] = []
        self.y = 10.0
        self.fit = _FIT_WIDTH.get()
        self.right = (self.fit if self.fit is not None else min_width) - 16

    def _lines(self, text: str, size: float, x: float) -> list[str]:
        if self.fit is None:
            return [text]
        room = max(8, int((self.fit - 16 - x) / (size * 0.55)))
        lines: list[str] = []
        line = ""
        for word in text.split(" "):
            if line and len(line) + 1 + len(word) > room:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        return [*lines, line]

    def text(self, text: str, *, size: float = 15, weight: str = "normal", fill: str = _INK, x: float = 16) -> None:
        for line in self._lines(text, size, x):
            self.y += size * 1.3
            self.parts.append(
                f'<text x="{_n(x)}" y="{_n(self.y)}" font-family="{_SANS}" font-size="{_n(size)}" '
                f'font-weight="{weight}" fill="{fill}">{_e(line)}</text>'
            )
            self.right = max(self.right, x + len(line) * size * 0.55)
        self.y += 3

    def label(self, x: float, y: float, text: str, *, size: float = 13, weight: str = "normal") -> None:
        """A short text at a given place (its baseline at ``y``)."""
        self.parts.append(
            f'<text x="{_n(x)}" y="{_n(y)}" font-family="{_SANS}" font-size="{_n(size)}" '
            f'font-weight="{weight}" fill="{_INK}">{_e(text)}</text>'
        )

    def place(self, svg: str, x: float, y: float, pick: str | None = None) -> tuple[float, float]:
        width, height = _size(svg)
        placed = f'<g transform="translate({_n(x)} {_n(y)})">{svg}</g>'
        if pick is not None:
            placed = f'<g data-pick="{_e(pick)}">{placed}</g>'
        self.parts.append(placed)
        self.right = max(self.right, x + width)
        return width, height

    def row(self, items: Sequence[tuple[str, str | None]], *, x: float = 16, gap: float = 12) -> None:
        """Pictures side by side (each with its ``data-pick`` value or None)."""
        self.y += 6
        tallest = 0.0
        left = x
        for svg, pick in items:
            width, height = _size(svg)
            if self.fit is not None and x > left and x + width > self.fit - 16:  # on to a second line
                self.y += tallest + gap
                x, tallest = left, 0.0
            self.place(svg, x, self.y, pick)
            x += width + gap
            tallest = max(tallest, height)
        self.y += tallest + 4

    def card_width(self, count: int, preferred: float) -> float:
        """The card width for a hand of ``count`` cards (see :func:`hand_svg`) that fits this picture."""
        if self.fit is None:
            return preferred
        return min(preferred, (self.fit - 32 - 24) / (1 + 0.62 * max(count - 1, 0)))

    def slot(self, x: float, y: float, width: float) -> None:
        """An empty place for a card (a dashed outline)."""
        self.right = max(self.right, x + width)
        self.parts.append(
            f'<rect x="{_n(x + 2)}" y="{_n(y + 2)}" width="{_n(width - 4)}" height="{_n(width * 1.6 - 4)}" rx="5" '
            f'fill="none" stroke="{_INK}" stroke-opacity=".35" stroke-dasharray="5 4"/>'
        )

    def svg(self) -> str:
        width, height = self.right + 16, self.y + 14
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(width)} {_n(height)}" width="{_n(width)}" '
            f'height="{_n(height)}" role="img" aria-label="{_e(self.caption)}" class="tartli-trainer">'
            f"<title>{_e(self.caption)}</title>"
            f'<rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" rx="14" fill="{_FELT}"/>'
            + "".join(self.parts)
            + "</svg>"
        )


# ---------------------------------------------------------------------------- helpers
def _random_hand(rng: random.Random, rules: RuleSet | None = None, scores: Sequence[int] = (0, 0)) -> HandState:
    return HandState(Deal.shuffled(rng, dealer=rng.randint(0, 1)), rules, scores)


def _play_randomly(state: HandState, rng: random.Random, stop: Callable[[HandState], bool], limit: int = 400) -> None:
    """Random legal moves (never a claim) until ``stop(state)`` or the hand ends."""
    for _round in range(limit):
        if state.is_over or stop(state):
            return
        moves = [m for m in state.legal_moves() if not isinstance(m, GoOut)]
        if not moves:
            return
        state.push(rng.choice(moves))


def _second_to_play_in(trick: int) -> Callable[[HandState], bool]:
    """Stop when the lead of trick ``trick`` has been played."""

    def stop(state: HandState) -> bool:
        return state.trick_number == trick and state.lead is not None

    return stop


def _into_claim_window(state: HandState, rng: random.Random, claimant: int) -> None:
    """Random play until ``claimant`` leads a trick of 1-8 holding a meld, then: declare, lead, and the
    other player's silent card, which decides the contest and takes the trick (S3's claim window)."""
    while not state.is_over and state.trick_number <= 8:
        if state.to_move == claimant and state.lead is None:
            declares = [m for m in state.legal_moves() if isinstance(m, Declare)]
            if declares:
                state.push(rng.choice(declares))
                state.push(rng.choice([m for m in state.legal_moves() if isinstance(m, Play)]))
                state.push(rng.choice([m for m in state.legal_moves() if isinstance(m, Play)]))
                return
        moves = [m for m in state.legal_moves() if not isinstance(m, GoOut)]
        state.push(rng.choice(moves))


def _after_moves(count: int) -> Callable[[HandState], bool]:
    def stop(state: HandState) -> bool:
        return len(state.moves) >= count

    return stop


def _order_text(order: Sequence[Rank], language: Language) -> str:
    return " ".join(names.RANK_LETTERS[language][r.index] for r in order)


def _localize(text: str, melds: Iterable[Meld | None], language: Language) -> str:
    """The engine's reasons name melds in English: put the learner's language in."""
    if language == "en":
        return text
    for meld in sorted({m for m in melds if m is not None}, key=lambda m: -len(m.title("en"))):
        text = text.replace(meld.title("en"), meld.title(language))
    return text


def _verdict(right: bool, why: str) -> str:
    """ "Right: ..." or "Not quite: ..." in front of an explanation."""
    return (_("Right: {why}") if right else _("Not quite: {why}")).format(why=why)


def _card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else Card.parse(value)


Verdict = Literal["right", "wrong", "info", "error"]
_BOX = {
    "right": ("#e7f6ea", "#2e7d32"),
    "wrong": ("#fff4e0", "#b26a00"),
    "info": ("#eef2f7", "#5b6b80"),
    "error": ("#fdecea", "#c62828"),
}


# ---------------------------------------------------------------------------- the base class
class Exercise:
    """One trainer: a question drawn from a seeded random generator, judged by the engine.

    ``widget`` is the VBox to show: title, instruction, the picture (an
    :class:`SvgBoard`), the answer controls, a feedback area, "New position" and
    the score line. Every callback runs inside a guard: an exception becomes a
    short friendly message in the feedback area (and a log entry), never a
    traceback on the page, and the exercise stays usable.

    ``attempts`` counts the judged answers to the current position and
    ``mistakes`` the wrong ones; ``stars`` is 3 for a position solved without a
    mistake (at the first attempt), 2 after one, 1 after more, 0 while unsolved.
    """

    id: ClassVar[str] = ""
    title: str = ""
    """The exercise's name (marked with ``N_`` on the class; an instance holds it in the page's language)."""
    instruction: str = ""
    STAGE: ClassVar[int] = STAGE_LENGTH

    def __init__(
        self,
        seed: int | None = None,
        *,
        language: str | None = None,
        progress: Progress | None = None,
        storage_key: str | None = None,
        progress_id: str | None = None,
    ) -> None:
        # A lesson may keep its own stars for a trainer ("lesson02.which-card-wins"),
        # apart from the Practice page's.
        self.progress_id = progress_id or self.id
        self.title = _(self.title) if self.title else ""  # the class keeps the English, marked with N_
        self.instruction = _(self.instruction) if self.instruction else ""
        self.seed = seed
        self.rng = random.Random(seed)
        self.language: Language = names.resolve(language)
        self.progress = progress if progress is not None else Progress()
        self.attempts = 0
        self.mistakes = 0
        self.solved = False
        self.positions = 0
        self._key: object = None
        self.board = SvgBoard(
            storage_key=storage_key if storage_key is not None else f"tartli.trainers.{self.progress_id}",
            layout=w.Layout(width="100%"),  # its width is the room the screen gives (see render)
        )
        self.progress.bind(self.board)
        self._redealt = False
        self._solved_callbacks: list[Callable[[], None]] = []
        self.board.observe(self._guard(self._on_saved_progress), names="progress")
        self.board.on_pick(self._guard(self._on_pick))
        self.board.observe(self._guard(lambda _change: self._draw_picture()), names="client_width")
        self.title_html = w.HTML(f"<h3 style='margin:4px 0'>{_e(self.title)}</h3>")
        self.instruction_html = w.HTML(f"<div>{_e(self.instruction)}</div>")
        self.feedback = w.HTML("")
        self.score_html = w.HTML("")
        self.new_button = w.Button(description=_("New position"), tooltip=_("Another question"))
        self.new_button.on_click(self._guard(lambda _b: self.new_position()))
        self.controls = w.HBox(self._make_controls(), layout=w.Layout(flex_flow="row wrap"))
        self.widget = w.VBox(
            [
                self.title_html,
                self.instruction_html,
                self.board,
                self.controls,
                self.feedback,
                w.HBox([self.new_button, self.score_html], layout=w.Layout(align_items="center")),
            ],
            layout=w.Layout(max_width="960px"),
        )
        self.widget.add_class("tartli-trainer")
        self.new_position()

    # -- to override
    def _make_controls(self) -> list[Any]:
        """The answer widgets (buttons, a number box ...)."""
        return []

    def _generate(self) -> object:
        """Draw a new question from ``self.rng``; return a key that identifies it."""
        raise NotImplementedError

    def _picture(self) -> str:
        """The SVG of the current state."""
        raise NotImplementedError

    def _on_pick(self, pick: str) -> None:
        """A card (or other ``data-pick`` element) of the picture was chosen."""

    # -- the cycle
    def new_position(self) -> None:
        """Move on to a new question (never the same as the one before)."""
        for _round in range(30):
            key = self._generate()
            if key != self._key:
                break
        self._key = key
        self._restart()

    def load_record(self, text: str) -> None:
        """Pose a fixed scenario from a ``tartli/1`` record (the trainers that ask about a position).

        The record is replayed by the engine; a record that does not fit the question is refused
        with a message and the current question stays.
        """
        state = Record.from_json(text).replay()
        self.set_state(state)

    def set_state(self, state: HandState) -> None:
        """Pose a position (only for trainers that ask about one)."""
        raise TartliError(f"the trainer {self.title!r} does not take a game position")

    def _restart(self) -> None:
        """Start the current question afresh: no attempts, nothing said."""
        self.positions += 1
        self.attempts = 0
        self.mistakes = 0
        self.solved = False
        self._say("", "info")
        self.render()

    def render(self) -> None:
        """Draw the picture, the controls and the score line from the state."""
        self._draw_picture()
        self._update_controls()
        self.score_html.value = self._score_line()

    def _score_line(self) -> str:
        """The stage under way and the stars kept (the same the course map shows)."""
        best = self.progress.best(self.progress_id)
        clean, slips = self.progress.stage(self.progress_id)
        length = self.STAGE
        dots = "●" * clean + "○" * max(0, length - clean)
        slip_text = _("no slips") if slips == 0 else ngettext("{n} slip", "{n} slips", slips).format(n=slips)
        count = _("{clean} of {length}").format(clean=clean, length=length)
        stage = _("Stage: {dots} {count} · {slips}").format(
            dots=f"<span aria-label='{_attr(count)}'>{dots}</span>", count=_e(count), slips=_e(slip_text)
        )
        kept = _("{best} of 3 stars kept").format(best=best)
        stars = _("stars {stars}").format(stars=stars_text(best))
        tip = _("right at the first try in this stage")
        return (
            f"<span class='tartli-stage' title='{_attr(tip)}'>{stage}</span> · "
            f"<span class='tartli-best' aria-label='{_attr(kept)}'>{_e(stars)}</span>"
        )

    def _draw_picture(self) -> None:
        """The picture, drawn for the learner's screen: a phone's own width, or the desktop layout."""
        width = self.board.client_width
        token = _FIT_WIDTH.set(float(width) if 0 < width < NARROW_BELOW else None)
        try:
            self.board.svg = self._picture()
        finally:
            _FIT_WIDTH.reset(token)

    def _update_controls(self) -> None:
        """Enable or disable the controls (answer buttons off once solved)."""
        for child in self.controls.children:
            if isinstance(child, w.Button):
                child.disabled = self.solved

    @property
    def stars(self) -> int:
        if not self.solved:
            return 0
        return 3 if self.mistakes == 0 else 2 if self.mistakes == 1 else 1

    def _judge(self, right: bool, message: str) -> bool:
        """Count an answer, show the feedback and record progress. Returns ``right``."""
        if self.solved:
            self._say(_("Solved already: press “New position” for another question."), "info")
            return right
        if self.attempts == 0:
            self.progress.record_try(self.progress_id)
        self.attempts += 1
        if right:
            self.solved = True
            message += self._record_solved()
            for callback in list(self._solved_callbacks):
                callback()
        else:
            self.mistakes += 1
        self._say(message, "right" if right else "wrong")
        self.render()
        return right

    def _record_solved(self) -> str:
        """Count the solved position in its stage; a word for the feedback when a stage ends."""
        stars = self.progress.record_position(self.progress_id, self.mistakes == 0, self.STAGE)
        if stars:
            return " " + _("Stage finished: {stars}. A new stage starts with the next position.").format(
                stars=stars_text(stars)
            )
        if self.mistakes:
            return " " + _("(This one earns nothing: its answer was shown after a slip.)")
        return ""

    def on_solved(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` each time a position is solved (a lesson's step lets the learner on)."""
        self._solved_callbacks.append(callback)

    def _on_saved_progress(self, change: Any) -> None:
        """The browser sent the progress it kept: a position seen before a reload is not dealt again."""
        if self.progress.writing:
            return  # our own record, written back to the browser
        if self.seed is not None and self.attempts == 0 and not self._redealt:
            self._redealt = True
            done = self.progress.tries(self.progress_id)
            if done:
                self.rng = random.Random(f"{self.seed}/{done}")
                self.new_position()
                return
        self.render()

    def _say(self, message: str, verdict: Verdict) -> None:
        if not message:
            self.feedback.value = ""
            return
        fill, edge = _BOX[verdict]
        self.feedback.value = (
            f"<div class='tartli-feedback {verdict}' role='status' style='background:{fill};"
            f"border-left:5px solid {edge};padding:6px 10px;margin:4px 0'>"
            f"{link_rule_ids(_e(message), target='_blank')}</div>"  # a rule ID opens the rule book beside the page
        )

    def _guard(self, callback: Callable[..., object]) -> Callable[..., None]:
        """Run a widget callback; on an exception show a friendly message and log the details."""

        def run(*args: Any) -> None:
            try:
                callback(*args)
            except TartliError as err:  # a rule or a bad input, said to the learner as it is
                self._say(str(err), "info")
            except Exception:
                log.exception("trainer %s: a callback failed", self.id)
                self._say(_(FRIENDLY_ERROR), "error")
                try:
                    self.render()
                except Exception:
                    log.exception("trainer %s: could not redraw", self.id)

        return run

    def _button(self, label: str, callback: Callable[[], object], tooltip: str = "") -> Any:
        button = w.Button(description=label, tooltip=tooltip or label, layout=w.Layout(width="auto"))
        button.on_click(self._guard(lambda _b: callback()))
        return button

    # -- words in the learner's language
    def _trump_line(self, trump: Suit) -> str:
        """ "Trump: Hearts", the first line of many pictures."""
        return _("Trump: {suit}").format(suit=self.suit_name(trump))

    def card_name(self, card: Card) -> str:
        return card.name(self.language)

    def suit_name(self, suit: Suit) -> str:
        return suit.name_in(self.language)

    def meld_name(self, meld: Meld) -> str:
        return meld.title(self.language)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """Jupyter shows the exercise's widget."""
        return self.widget._repr_mimebundle_(**kwargs)


# ---------------------------------------------------------------------------- 1. which card wins
class WhichCardWins(Exercise):
    """A trick of two cards and a trump suit: click the card that wins it (T1, C3, C4)."""

    id = "which-card-wins"
    title = N_("Which card wins the trick?")
    instruction = N_("Click the card that wins this trick.")

    lead: Card
    second: Card
    trump: Suit
    trick_number: int

    def _generate(self) -> object:
        rng = self.rng
        if rng.random() < 0.5:  # phase 1: any second card (T2)
            self.trump = rng.choice(SUITS)
            self.lead = rng.choice(CARDS)
            roll = rng.random()
            others = [c for c in CARDS if c is not self.lead]
            if roll < 0.45:
                pool = [c for c in others if c.suit is self.lead.suit]
            elif roll < 0.7:
                pool = [c for c in others if c.suit is self.trump]
            else:
                pool = others
            self.second = rng.choice(pool)
            self.trick_number = rng.randint(1, 7)
        else:  # phase 2: a legal second card of a real hand (T4)
            state = _random_hand(rng)
            target = rng.randint(8, 16)
            _play_randomly(state, rng, _second_to_play_in(target))
            assert state.lead is not None
            plays = [m.card for m in state.legal_moves() if isinstance(m, Play)]
            self.trump, self.lead, self.second = state.trump, state.lead, rng.choice(plays)
            self.trick_number = state.trick_number
        return (self.lead, self.second, self.trump)

    def set_trick(self, lead: Card | str, second: Card | str, trump: Suit, trick_number: int = 1) -> None:
        """Pose a chosen trick (for a lesson that scripts its example)."""
        self.lead, self.second, self.trump, self.trick_number = _card(lead), _card(second), trump, trick_number
        self._restart()

    @property
    def winning_card(self) -> Card:
        """The engine's verdict (T1)."""
        return self.second if trick_winner(self.lead, self.second, self.trump) else self.lead

    def _picture(self) -> str:
        lang = self.language
        canvas = _Canvas(
            _("A trick: {lead} led, {second} second").format(
                lead=self.card_name(self.lead), second=self.card_name(self.second)
            )
        )
        canvas.text(self._trump_line(self.trump), weight="bold", fill=_GOLD)
        if self.trick_number <= 7:
            phase = _("Trick {number}, phase 1: any card may be played (T2)")
        else:
            phase = _("Trick {number}, phase 2 (T4)")
        canvas.text(phase.format(number=self.trick_number), size=13)
        y = canvas.y + 26
        canvas.label(16, y - 6, _("led first"))
        canvas.label(146, y - 6, _("played second"))
        chosen = self.winning_card if self.solved else None
        for i, card in enumerate((self.lead, self.second)):
            svg = card_svg(
                card,
                language=lang,
                width=110,
                trump=card.suit is self.trump,
                selected=card is chosen,  # the winner, once found (not the meld mark)
            )
            canvas.place(svg, 16 + i * 130, y, pick=card.text)
        canvas.y = y + 110 * 1.6 + 4
        return canvas.svg()

    def _on_pick(self, pick: str) -> None:
        self.answer(pick)

    def answer(self, card: Card | str) -> bool:
        """The learner says ``card`` wins the trick."""
        card = _card(card)
        if card not in (self.lead, self.second):
            self._say(
                _("Click one of the two cards of the trick, not the {card}.").format(card=self.card_name(card)), "info"
            )
            return False
        right = card is self.winning_card
        why = self.explain()
        if right:
            return self._judge(True, _("Right: {why}").format(why=why))
        return self._judge(
            False,
            _("Not quite: the {card} does not win. {why}").format(card=self.card_name(card), why=upper_first(why)),
        )

    def explain(self) -> str:
        """Why the winner wins, in words, citing C3/C4 and T1 (the verdict is ``trick_winner``'s)."""
        lang, trump = self.language, self.trump
        won = self.winning_card
        lost = self.second if won is self.lead else self.lead
        if won.suit is lost.suit:
            trumps = won.suit is trump
            order = TRUMP_ORDER if trumps else PLAIN_ORDER
            if trumps and won.rank is order[0]:
                text = _(
                    "the {card} wins (the highest trump of all). Both cards are trumps; in that order "
                    "({order}) the {rank} ranks above the {other} (C3, T1)."
                )
            elif trumps:
                text = _(
                    "the {card} wins. Both cards are trumps; in that order ({order}) the {rank} ranks above the "
                    "{other} (C3, T1)."
                )
            else:
                text = _(
                    "the {card} wins. Both cards are of the led suit, {suit}, and not trumps; in that order "
                    "({order}) the {rank} ranks above the {other} (C4, T1)."
                )
            return text.format(
                card=self.card_name(won),
                suit=self.suit_name(won.suit),
                order=_order_text(order, lang),
                rank=won.rank.name_in(lang),
                other=lost.rank.name_in(lang),
            )
        if won.suit is trump:
            return _(
                "the {card} wins: it is a trump ({trump}) and the other card is not, "
                "and the highest trump wins the trick (T1)."
            ).format(card=self.card_name(won), trump=self.suit_name(trump))
        return _(
            "the {card} wins: the {other} neither follows the led suit ({suit}) nor is a trump, "
            "so the card led wins (T1)."
        ).format(card=self.card_name(won), other=self.card_name(lost), suit=self.suit_name(won.suit))


# ---------------------------------------------------------------------------- 2. count the points
class CountPoints(Exercise):
    """A few won tricks: type their card points (C3, C4, C5)."""

    id = "count-points"
    title = N_("Count the card points")
    instruction = N_("A player won these tricks. Type how many card points they are worth, then press Check.")

    tricks: list[tuple[int, Card, Card]]
    trump: Suit
    include_last: bool

    def _make_controls(self) -> list[Any]:
        self.points_box = w.IntText(value=0, description=_("Points:"), layout=w.Layout(width="180px"))
        self.check_button = self._button(_("Check"), self._check, _("Check your count"))
        return [self.points_box, self.check_button]

    def _generate(self) -> object:
        rng = self.rng
        state = _random_hand(rng)
        _play_randomly(state, rng, _after_moves(10**6))
        played = state.tricks  # all 16 tricks of the hand
        count = rng.randint(2, 4)
        self.include_last = rng.random() < 0.4
        numbers = list(range(len(played) - 1))
        chosen = sorted(rng.sample(numbers, count - 1 if self.include_last else count))
        if self.include_last:
            chosen.append(len(played) - 1)
        self.trump = state.trump
        self.tricks = [(i + 1, played[i][1], played[i][2]) for i in chosen]
        self.points_box.value = 0
        return (self.trump, tuple(self.tricks), self.include_last)

    @property
    def cards(self) -> list[Card]:
        return [c for _, lead, second in self.tricks for c in (lead, second)]

    @property
    def expected(self) -> int:
        """The engine's count: ``trick_points`` of the cards, plus 10 for the last trick (C5)."""
        return trick_points(self.cards, self.trump) + (LAST_TRICK_BONUS if self.include_last else 0)

    def _picture(self) -> str:
        lang = self.language
        canvas = _Canvas(_("Tricks won: {cards}").format(cards=", ".join(self.card_name(c) for c in self.cards)))
        canvas.text(self._trump_line(self.trump), weight="bold", fill=_GOLD)
        if self.include_last:
            canvas.text(
                _("Including the last trick (trick {number})").format(number=self.tricks[-1][0]), size=13, fill=_GOLD
            )
        else:
            canvas.text(_("The last trick is not among them"), size=13)
        x, y = 16.0, canvas.y + 22
        tallest = 0.0
        for number, lead, second in self.tricks:
            pair = hand_svg([lead, second], language=lang, trump=self.trump, card_width=70)
            if canvas.fit is not None and x > 16 and x + _size(pair)[0] > canvas.fit - 16:  # a phone: next line
                x, y, tallest = 16.0, y + tallest + 22, 0.0
            label = _("Trick {number} (last)") if number == 16 else _("Trick {number}")
            canvas.label(x + 12, y, label.format(number=number))
            width, height = canvas.place(pair, x, y)
            x += width + 8
            tallest = max(tallest, height)
        canvas.y = y + tallest + 4
        return canvas.svg()

    def _check(self) -> None:
        self.answer(int(self.points_box.value))

    def answer(self, value: int) -> bool:
        """The learner says the tricks hold ``value`` card points."""
        self.points_box.value = value
        if value == self.expected:
            return self._judge(True, _("Right: {why}").format(why=self.explain()))
        if self.mistakes == 0:
            if self.include_last:
                hint = _(
                    "Not quite: {value} is not it. Count each card: trumps {trumps} (C3); other suits {plain} (C4); "
                    "and the last trick brings 10 more (C5)."
                )
            else:
                hint = _(
                    "Not quite: {value} is not it. Count each card: trumps {trumps} (C3); other suits {plain} (C4)."
                )
            return self._judge(
                False,
                hint.format(
                    value=value, trumps=self._table(TRUMP_ORDER, self.trump), plain=self._table(PLAIN_ORDER, None)
                ),
            )
        return self._judge(
            False, _("Not quite: {value} is not it. {why}").format(value=value, why=upper_first(self.explain()))
        )

    def _table(self, order: Sequence[Rank], trump: Suit | None) -> str:
        suit = trump if trump is not None else next(s for s in SUITS if s is not self.trump)
        lang = self.language
        return ", ".join(
            f"{names.RANK_LETTERS[lang][r.index]} {trick_points([Card(r, suit)], self.trump)}"
            for r in order
            if trick_points([Card(r, suit)], self.trump)
        )

    def explain(self) -> str:
        """The sum card by card (the numbers are ``trick_points`` of each card)."""
        parts = []
        for card in self.cards:
            pts = trick_points([card], self.trump)
            part = _("{card} (trump) {points}") if card.suit is self.trump else "{card} {points}"
            parts.append(part.format(card=self.card_name(card), points=pts))
        if self.include_last:
            parts.append(_("last trick {points}").format(points=LAST_TRICK_BONUS))
        rules = "C3, C4, C5" if self.include_last else "C3, C4"
        return _("{sum} = {total} card points ({rules}).").format(
            sum=" + ".join(parts), total=self.expected, rules=rules
        )


# ---------------------------------------------------------------------------- 3. find the melds
class _Selecting:
    """Cards of the hand picked one by one (click again to drop): for FindMelds and WhatMayYouPlay."""

    solved: bool
    selection: list[Card]
    _not_there: ClassVar[str] = N_("The {card} is not in this hand.")

    def _on_pick(self, pick: str) -> None:
        self.select(pick)

    def select(self, card: Card | str) -> None:
        """Select a card of the hand, or drop it if selected."""
        card = _card(card)
        if self.solved:
            return
        if card not in self.hand:  # type: ignore[attr-defined]  # an attribute or a property of the exercise
            self._say(_(self._not_there).format(card=self.card_name(card)), "info")  # type: ignore[attr-defined]
            return
        if card in self.selection:
            self.selection.remove(card)
        else:
            self.selection.append(card)
        self.render()  # type: ignore[attr-defined]


class FindMelds(_Selecting, Exercise):
    """A hand of nine: select the cards of each meld and add it (M1, M2, M3)."""

    id = "find-melds"
    title = N_("Find the melds")
    instruction = N_(
        "Select the cards of a meld (click to select, click again to drop), then press “Add meld”. "
        "Find every set, every longest sequence and béla."
    )

    hand: list[Card]
    trump: Suit
    melds: list[Meld]
    targets: list[Meld]
    found: list[Meld]
    selection: list[Card]

    def _make_controls(self) -> list[Any]:
        self.add_button = self._button(_("Add meld"), self.add_meld, _("Check the selected cards as a meld"))
        self.clear_button = self._button(_("Clear selection"), self.clear_selection)
        return [self.add_button, self.clear_button]

    def _generate(self) -> object:
        rng = self.rng
        for _round in range(200):
            trump = rng.choice(SUITS)
            cards: set[Card] = set()
            for _meld in range(rng.choice((1, 1, 2, 2, 3))):
                roll = rng.random()
                if roll < 0.5:
                    length = rng.choice((3, 3, 4, 4, 5))
                    seq = rng.choice([m for m in SEQUENCES if m.length == length])
                    cards.update(seq.cards())
                elif roll < 0.8:
                    cards.update(rng.choice(SETS).cards())
                else:
                    cards.update(BELA.cards(trump))
            if len(cards) > 9:
                continue
            rest = [c for c in CARDS if c not in cards]
            cards.update(rng.sample(rest, 9 - len(cards)))
            melds = find_melds(cards, trump=trump)
            targets = self.maximal(melds)
            if 1 <= len(targets) <= 3:
                break
        self.trump = trump
        self.hand = sorted(cards)
        self.melds = melds
        self.targets = targets
        self.found = []
        self.selection = []
        return (trump, tuple(self.hand))

    def set_hand(self, cards: Iterable[Card | str], trump: Suit) -> None:
        """Pose a chosen hand (for a lesson that scripts its example)."""
        self.trump = trump
        self.hand = sorted({_card(c) for c in cards})
        self.melds = find_melds(self.hand, trump=trump)
        self.targets = self.maximal(self.melds)
        self.found, self.selection = [], []
        self._restart()

    @staticmethod
    def maximal(melds: Sequence[Meld]) -> list[Meld]:
        """The melds to find: sets, béla, and each sequence not lying inside a longer one found."""
        seqs = [m for m in melds if m.kind is MeldKind.SEQUENCE]
        return [
            m
            for m in melds
            if m.kind is not MeldKind.SEQUENCE
            or not any(o.length > m.length and o.mask & m.mask == m.mask for o in seqs)
        ]

    def _picture(self) -> str:
        lang = self.language
        canvas = _Canvas(_("Your hand: {cards}").format(cards=", ".join(self.card_name(c) for c in self.hand)))
        canvas.text(_("Trump: {suit} (for béla)").format(suit=self.suit_name(self.trump)), weight="bold", fill=_GOLD)
        canvas.text(
            _("Melds found: {found} of {total}").format(found=len(self.found), total=len(self.targets)), size=13
        )
        marked = [c for m in self.found for c in m.cards(self.trump)]
        hand = hand_svg(
            self.hand,
            language=lang,
            trump=self.trump,
            selected=self.selection,
            highlighted=marked,
            card_width=canvas.card_width(len(self.hand), 90),
            pickable=True,
        )
        canvas.row([(hand, None)])
        if self.found:
            canvas.row([(meld_svg(m, self.trump, language=lang), None) for m in self.found], gap=8)
        return canvas.svg()

    def _update_controls(self) -> None:
        super()._update_controls()
        self.clear_button.disabled = self.solved or not self.selection

    def clear_selection(self) -> None:
        self.selection = []
        self.render()

    def answer(self, cards: Iterable[Card | str]) -> bool:
        """Select exactly ``cards`` and add them as a meld."""
        self.selection = [_card(c) for c in cards]
        return self.add_meld()

    def add_meld(self) -> bool:
        """Check the selection against ``find_melds``; returns True if it was a new meld to find."""
        chosen = sorted(set(self.selection))
        if not chosen:
            self._say(_("Select the cards of a meld first: click them in the picture."), "info")
            return False
        mask = sum(c.bit for c in chosen)
        match = next((m for m in self.melds if m.card_mask(self.trump) == mask), None)
        self.selection = []
        if match is not None and match in self.found:
            self._say(_("You have found the {meld} already.").format(meld=self.meld_name(match)), "info")
            self.render()
            return False
        if match is not None and match in self.targets:
            self.found.append(match)
            done = len(self.found) == len(self.targets)
            message = _("Right: {why}").format(why=self._what(match))
            if done:
                message += " " + _("That is every meld in this hand.")
            else:
                left = len(self.targets) - len(self.found)
                message += " " + ngettext("{n} more to find.", "{n} more to find.", left).format(n=left)
            if done:
                return self._judge(True, message)
            if self.attempts == 0:
                self.progress.record_try(self.progress_id)
            self.attempts += 1
            self._say(message, "right")
            self.render()
            return True
        if match is not None:  # a sequence inside a longer one
            longer = next(m for m in self.targets if m.kind is MeldKind.SEQUENCE and m.mask & match.mask == match.mask)
            self._say(
                _(
                    "Nearly: the {meld} is a sequence, but it lies inside the longer {longer}. Add the whole run (M1)."
                ).format(meld=self.meld_name(match), longer=self.meld_name(longer)),
                "info",
            )
            self.render()
            return False
        return self._judge(False, _("Not quite: {why}").format(why=self._why_not(chosen)))

    def _what(self, meld: Meld) -> str:
        name, points = self.meld_name(meld), meld.value
        if meld.kind is MeldKind.SET:
            assert meld.rank is not None
            return _("{meld}, {points} points: all four {rank}s make a set (M2).").format(
                meld=name, points=points, rank=meld.rank.name_in(self.language)
            )
        if meld.kind is MeldKind.BELA:
            return _("{meld}, {points} points: the King and Over of trumps ({suit}) (M3).").format(
                meld=name, points=points, suit=self.suit_name(self.trump)
            )
        assert meld.suit is not None
        return _("{meld}, {points} points: {n} {suit} in a row (M1).").format(
            meld=name, points=points, n=meld.length, suit=self.suit_name(meld.suit)
        )

    def _why_not(self, chosen: Sequence[Card]) -> str:
        """What keeps the selection from being a meld (the verdict was ``find_melds``')."""
        lang = self.language
        ranks = {c.rank for c in chosen}
        suits = {c.suit for c in chosen}
        if ranks == {Rank.KING, Rank.OVER} and len(chosen) == 2 and len(suits) == 1:
            return _("a King and an Over make béla only in the trump suit, {suit} (M3).").format(
                suit=self.suit_name(self.trump)
            )
        if len(ranks) == 1:
            rank = next(iter(ranks))
            if rank in (Rank.EIGHT, Rank.SEVEN):
                return _("there is no set of Eights or Sevens (M2).")
            return _("a set needs all four {rank}s (M2).").format(rank=rank.name_in(lang))
        if len(suits) == 1:
            if len(chosen) < 3:
                return _("a sequence needs at least three cards of one suit (M1).")
            places = sorted(c.rank.index for c in chosen)
            missing = [SEQUENCE_ORDER[i] for i in range(places[0], places[-1] + 1) if i not in places]
            gap = ", ".join(r.name_in(lang) for r in missing)
            return _(
                "these {suit} are not consecutive: the {missing} is missing between them. "
                "Sequences run {order} (C2, M1)."
            ).format(suit=self.suit_name(next(iter(suits))), missing=gap, order=_order_text(SEQUENCE_ORDER, lang))
        return _(
            "these cards are neither of one suit (a sequence, M1) nor of one rank (a set, M2), "
            "nor the King and Over of trumps (béla, M3)."
        )


# ---------------------------------------------------------------------------- 4. the meld contest
Side = Literal["leader", "second", "illegal"]
SIDES: tuple[Side, ...] = ("leader", "second", "illegal")


class MeldContest(Exercise):
    """Two declarations in one trick: whose melds score, or may the second not declare at all (K2, K3)?"""

    id = "meld-contest"
    title = N_("Who scores the melds?")
    instruction = N_("The leader and then the second player declared these melds. Who scores?")

    leader_melds: tuple[Meld, ...]
    second_melds: tuple[Meld, ...]
    trump: Suit
    rules: RuleSet

    def _make_controls(self) -> list[Any]:
        return [
            self._button(_("The leader scores"), lambda: self.answer("leader")),
            self._button(_("The second player scores"), lambda: self.answer("second")),
            self._button(_("The second may not declare this (K3)"), lambda: self.answer("illegal")),
        ]

    def _declaration(self, avoid: int, like: tuple[Meld, ...] = ()) -> tuple[Meld, ...] | None:
        rng, rules = self.rng, self.rules
        sets = [m for m in SETS if m.rank is not None and m.rank.value in rules.set_order()]
        seqs = [m for m in SEQUENCES if m.length <= 6]
        roll = rng.random()
        lead_seq = next((m for m in like if m.kind is MeldKind.SEQUENCE), None)
        if lead_seq is not None and roll < 0.4:  # an answer of the same length, to reach the finer clauses of K2
            assert lead_seq.rank is not None
            pool = [m for m in seqs if m.length == lead_seq.length]
            if rng.random() < 0.5:
                pool = [m for m in pool if m.rank is lead_seq.rank] or pool
            melds: tuple[Meld, ...] = (rng.choice(pool),)
        elif roll < 0.7:
            melds = (rng.choice(seqs),)
            if rules.several_sequences and rng.random() < 0.3:  # V4
                melds += (rng.choice([m for m in seqs if m.suit is not melds[0].suit]),)
        elif roll < 0.9:
            melds = (rng.choice(sets),)
        else:
            melds = (rng.choice(sets), rng.choice(seqs))
        mask = 0
        for m in melds:  # a set and a sequence may share a card (M5)
            mask |= m.mask
        if mask & avoid or bin(mask).count("1") > 9:  # the two hands share no card; a hand holds nine
            return None
        return melds

    def _generate(self) -> object:
        rng = self.rng
        wanted = rng.choice(SIDES)
        for _round in range(60):
            self.rules = RuleSet.austrian() if rng.random() < 0.25 else RuleSet()
            self.trump = rng.choice(SUITS)
            leader = self._declaration(0)
            if leader is None:
                continue
            second = self._declaration(sum(m.mask for m in leader), leader)
            if second is None:
                continue
            self.leader_melds, self.second_melds = leader, second
            if self.truth == wanted:
                break
        return (self.leader_melds, self.second_melds, self.trump, self.rules)

    @property
    def truth(self) -> Side:
        """The engine's verdict: ``may_answer`` (K3), then ``contest`` (K2)."""
        if not may_answer(self.leader_melds, self.second_melds):
            return "illegal"
        winner = contest(self.leader_melds, self.second_melds, self.trump, self.rules).winner
        return "second" if winner == "second" else "leader"

    def _announced(self, melds: Sequence[Meld]) -> str:
        return ", ".join(_("“{word}”").format(word=m.announcement_in(self.language)) for m in melds)

    def _picture(self) -> str:
        lang = self.language
        canvas = _Canvas(_("A meld contest"))
        rules = _("Austrian rules (V3, V4)") if self.rules.same_suit_rule == "austrian" else _("Hungarian rules")
        canvas.text(f"{self._trump_line(self.trump)} · {rules}", weight="bold", fill=_GOLD)
        announces = (
            (_("The leader announces {melds}:"), self.leader_melds),
            (_("The second player announces {melds}:"), self.second_melds),
        )
        for text, melds in announces:
            canvas.text(text.format(melds=self._announced(melds)), size=14)
            canvas.row([(meld_svg(m, self.trump, language=lang), None) for m in melds], gap=8)
        return canvas.svg()

    def answer(self, side: Side) -> bool:
        """The learner's verdict: ``"leader"``, ``"second"`` or ``"illegal"`` (K3)."""
        if side not in SIDES:
            raise ValueError(f"answer 'leader', 'second' or 'illegal', not {side!r}")
        truth = self.truth
        right = side == truth
        if truth == "illegal":
            why = self._k3_text()
        elif side == "illegal":
            why = _(
                "the second may declare this (K3): after {lead} an answer of {answer} could win. "
                "So whose melds are better?"
            ).format(lead=self._announced(self.leader_melds), answer=self._announced(self.second_melds))
        else:
            why = self._k2_text()
        return self._judge(right, _verdict(right, why))

    def _k3_text(self) -> str:
        return _(
            "the leader announced {lead}, and the second may declare only what could beat the leader's best: "
            "after a set only a set; after a sequence only a set or a sequence at least as long. "
            "{answer} cannot, so the declaration is refused (K3)."
        ).format(lead=self._announced(self.leader_melds), answer=self._announced(self.second_melds))

    def _k2_text(self) -> str:
        result = contest(self.leader_melds, self.second_melds, self.trump, self.rules)
        lang = self.language
        melds = (*self.leader_melds, *self.second_melds)
        if result.winner == "second":
            text = _("the second player scores ({rule}): {reason}.")
        else:
            text = _("the leader scores ({rule}): {reason}.")
        text = text.format(rule=result.rule, reason=_localize(result.reason, melds, lang))
        if result.needs_detail and result.leader_best is not None:
            best = result.leader_best
            assert best.rank is not None
            named = self.meld_name(best) if best.kind is MeldKind.SET else best.rank.name_in(lang)
            answer = names.announcement("higher" if result.winner == "second" else "good", lang)
            text += " " + _(
                "The announcements tie, so the leader names “{named}” and the second answers “{answer}” (K4)."
            ).format(named=named, answer=answer)
        scored = self.second_melds if result.winner == "second" else self.leader_melds
        total = sum(m.value for m in scored)
        text += " " + _(
            "The winner scores all their declared melds, {total} points; the other scores none (K1)."
        ).format(total=total)
        return text


# ---------------------------------------------------------------------------- 5. same-suit sequences
class SameSuit(Exercise):
    """A player already scored sequences in a suit: may they declare another one (K7, V5)?"""

    id = "same-suit"
    title = N_("Another sequence in the same suit?")
    instruction = N_("This player has scored the sequences shown. May they now declare the new one?")

    scored: list[Meld]
    candidate: Meld
    rules: RuleSet

    def _make_controls(self) -> list[Any]:
        return [
            self._button(_("May declare"), lambda: self.answer(True)),
            self._button(_("May not"), lambda: self.answer(False)),
        ]

    def _generate(self) -> object:
        rng = self.rng
        self.rules = RuleSet.austrian() if rng.random() < 0.3 else RuleSet()
        wanted = rng.random() < 0.5
        suit = rng.choice(SUITS)
        in_suit = [m for m in SEQUENCES if m.suit is suit]
        scored: list[Meld] = []
        for _round in range(rng.choice((1, 1, 2))):
            pool = [m for m in in_suit if m not in scored and same_suit_reason(m, scored, self.rules)[0]]
            if pool:
                scored.append(rng.choice(pool))
        rest = [m for m in in_suit if m not in scored]
        pool = [m for m in rest if same_suit_reason(m, scored, self.rules)[0] == wanted] or rest
        self.scored, self.candidate = scored, rng.choice(pool)
        return (tuple(self.scored), self.candidate, self.rules)

    @property
    def verdict(self) -> tuple[bool, str]:
        """``same_suit_reason`` of the candidate."""
        return same_suit_reason(self.candidate, self.scored, self.rules)

    def _picture(self) -> str:
        lang = self.language
        canvas = _Canvas(
            _("Scored: {scored}; new: {new}").format(
                scored=", ".join(self.meld_name(m) for m in self.scored), new=self.meld_name(self.candidate)
            )
        )
        rule = _("Austrian rule (V5)") if self.rules.same_suit_rule == "austrian" else _("Hungarian rule (K7)")
        canvas.text(rule, weight="bold", fill=_GOLD)
        cw, step, x0 = 52.0, 58.0, 200.0
        if canvas.fit is not None:  # a phone: the eight columns take the width, each row's name above it
            step = (canvas.fit - 32) / len(SEQUENCE_ORDER)
            cw, x0 = step - 4, 16.0
        canvas.y += 4
        for i, rank in enumerate(SEQUENCE_ORDER):
            canvas.parts.append(
                f'<text x="{_n(x0 + i * step + cw / 2)}" y="{_n(canvas.y + 12)}" text-anchor="middle" '
                f'font-family="{_SANS}" font-size="13" fill="{_INK}">{_e(names.RANK_LETTERS[lang][rank.index])}</text>'
            )
        canvas.y += 18
        rows = [(_("scored: {meld}").format(meld=self.meld_name(m)), m, False) for m in self.scored]
        rows.append((_("new: {meld}").format(meld=self.meld_name(self.candidate)), self.candidate, True))
        for label, meld, new in rows:
            top = canvas.y + 6
            if canvas.fit is not None:
                top += 18
            canvas.parts.append(
                f'<text x="16" y="{_n(top - 6 if canvas.fit is not None else top + cw * 0.8)}" '
                f'font-family="{_SANS}" font-size="13" '
                f'font-weight="{"bold" if new else "normal"}" fill="{_GOLD if new else _INK}">{_e(label)}</text>'
            )
            held = set(meld.cards())
            for i, rank in enumerate(SEQUENCE_ORDER):
                assert meld.suit is not None
                card = Card(rank, meld.suit)
                if card in held:
                    canvas.place(card_svg(card, language=lang, width=cw, highlighted=new), x0 + i * step, top)
                else:
                    canvas.slot(x0 + i * step, top, cw)
            canvas.y = top + cw * 1.6 + 4
        return canvas.svg()

    def answer(self, may: bool) -> bool:
        """The learner says the new sequence may (True) or may not (False) be declared."""
        ok, reason = self.verdict
        melds = (*self.scored, self.candidate)
        text = _localize(reason, melds, self.language)
        return self._judge(bool(may) == ok, _verdict(bool(may) == ok, text + "."))


# ---------------------------------------------------------------------------- 6. what may you play
class WhatMayYouPlay(_Selecting, Exercise):
    """Phase 2, second to play: click every card you may play, then Check (T4)."""

    _not_there = N_("The {card} is not in your hand.")
    id = "what-may-you-play"
    title = N_("What may you play?")
    instruction = N_("Phase 2: you play second. Click every card you may play (click again to drop it), then Check.")

    state: HandState
    selection: list[Card]

    def _make_controls(self) -> list[Any]:
        self.check_button = self._button(_("Check"), self.check, _("Check your choice"))
        return [self.check_button]

    def _generate(self) -> object:
        rng = self.rng
        for _round in range(4):
            state = _random_hand(rng)
            target = rng.randint(8, 14)
            _play_randomly(state, rng, _second_to_play_in(target))
            if len(self._playable(state)) < len(state.hand(state.to_move or 0)):
                break  # prefer positions where not every card may be played
        self.state = state
        self.selection = []
        return tuple(state.moves)

    def set_state(self, state: HandState) -> None:
        """Pose this position: phase 2, with a card led and the second player to play (T4)."""
        if state.is_over or state.trick_number < 8 or state.lead is None:
            raise TartliError(_("T4: this trainer needs a phase-2 position (trick 8 or later) with a card led"))
        self.state, self.selection = state, []
        self._key = tuple(state.moves)
        self._restart()

    @staticmethod
    def _playable(state: HandState) -> set[Card]:
        return {m.card for m in state.legal_moves() if isinstance(m, Play)}

    @property
    def player(self) -> int:
        assert self.state.to_move is not None
        return self.state.to_move

    @property
    def hand(self) -> list[Card]:
        return self.state.hand(self.player)

    @property
    def correct(self) -> set[Card]:
        """The cards ``legal_moves()`` lists as plays."""
        return self._playable(self.state)

    def _picture(self) -> str:
        lang, state = self.language, self.state
        lead = state.lead
        assert lead is not None
        canvas = _Canvas(
            _("Trick {number}: {card} led; your hand").format(number=state.trick_number, card=self.card_name(lead))
        )
        canvas.text(
            _("Trump: {suit} · trick {number}, phase 2").format(
                suit=self.suit_name(state.trump), number=state.trick_number
            ),
            weight="bold",
            fill=_GOLD,
        )
        canvas.text(_("Your opponent led the {card}:").format(card=self.card_name(lead)), size=13)
        canvas.row([(card_svg(lead, language=lang, width=80, trump=lead.suit is state.trump), None)])
        canvas.text(_("Your hand:"), size=13)
        hand = hand_svg(
            self.hand,
            language=lang,
            trump=state.trump,
            selected=self.selection,
            playable=self.correct if self.solved else None,
            card_width=canvas.card_width(len(self.hand), 84),
            pickable=True,
        )
        canvas.row([(hand, None)])
        return canvas.svg()

    def answer(self, cards: Iterable[Card | str]) -> bool:
        """Select exactly ``cards`` and check."""
        self.selection = [_card(c) for c in cards]
        return self.check()

    def check(self) -> bool:
        chosen, correct = set(self.selection), self.correct
        if not chosen:
            self._say(_("Click the cards you may play first."), "info")
            return False
        if chosen == correct:
            return self._judge(True, _("Right: {why}").format(why=self.explain()))
        refused: dict[str, list[Card]] = {}
        for card in sorted(chosen - correct):
            try:
                self.state.copy().push(PLAYS[self.player][card.index])
            except IllegalMoveError as err:  # the engine's own explanation, with its rule ID
                refused.setdefault(str(err), []).append(card)
        parts = [
            upper_first(
                ngettext(
                    "{cards} may not be played: {reason}.", "{cards} may not be played: {reason}.", len(cards)
                ).format(cards=self._names(cards), reason=reason)
            )
            for reason, cards in refused.items()
        ]
        missing = sorted(correct - chosen)
        if missing:
            parts.append(
                ngettext("You may also play {cards} (T4).", "You may also play {cards} (T4).", len(missing)).format(
                    cards=self._names(missing)
                )
            )
        if self.mistakes >= 1:
            parts.append(upper_first(self.explain()))
        return self._judge(False, _("Not quite. {details}").format(details=" ".join(parts)))

    def _names(self, cards: Sequence[Card]) -> Named:
        """ "the Ace of Hearts, the Ten of Hearts and the Seven of Bells" (a list inside a sentence,
        with the forms a translation asks for, ``{cards.acc}``)."""
        return joined([the(self.card_name(c)) for c in cards], _("{cards} and {last}"), "cards", "last")

    def explain(self) -> str:
        """The situation of T4, told from the engine's set of playable cards."""
        state, correct = self.state, self.correct
        lead = state.lead
        assert lead is not None
        follow = {c for c in self.hand if c.suit is lead.suit}
        trumps = {c for c in self.hand if c.suit is state.trump}
        suit = self.suit_name(lead.suit)
        if follow and correct == follow:
            return _(
                "you hold {suit}, so you must follow suit with one of them; any of them will do, "
                "there is no duty to play higher (T4)."
            ).format(suit=suit)
        if trumps and correct == trumps:
            return _(
                "you hold no {suit}, so you must play a trump ({trump}); any trump will do, "
                "there is no duty to play higher (T4)."
            ).format(suit=suit, trump=self.suit_name(state.trump))
        return _("you hold neither {suit} nor trumps, so you may play any card (T4).").format(suit=suit)


# ---------------------------------------------------------------------------- 7. going out
class GoingOut(Exercise):
    """Running scores near 501: can this player go out now, and for how many buli (S3, S4, V10)?"""

    id = "going-out"
    title = N_("Can you go out?")
    instruction = N_("Can the player named below claim 501 now, and for how many buli?")

    state: HandState
    claimant: int

    def _make_controls(self) -> list[Any]:
        return [
            self._button(_("No (wrong claim)"), lambda: self.answer(0)),
            self._button(_("Yes: 1 buli"), lambda: self.answer(1)),
            self._button(_("Yes: 2 buli (maccs)"), lambda: self.answer(2)),
        ]

    def _generate(self) -> object:
        rng = self.rng
        wanted = rng.choice((0, 1, 2))
        for _round in range(60):
            rules = RuleSet.austrian() if rng.random() < 0.25 else RuleSet()
            claimant = rng.randint(0, 1)
            scores = [0, 0]
            scores[claimant] = rng.randint(420, 495)
            scores[1 - claimant] = rng.randint(150, 470)
            state = _random_hand(rng, rules, scores)
            if rng.random() < 0.3:
                _into_claim_window(state, rng, claimant)  # S3: the moment after a silent deciding card
            else:
                _play_randomly(state, rng, _after_moves(rng.randint(0, 30)))
            if state.is_over or OUTS[claimant] not in state.legal_moves(claimant):
                continue
            self.state, self.claimant = state, claimant
            if self.truth == wanted:
                break
        return (tuple(self.state.moves), self.state.scores_in, self.claimant)

    def set_state(self, state: HandState, claimant: int | None = None) -> None:
        """Pose this position; the claimant is ``claimant`` or else the player to move (S3)."""
        if state.is_over:
            raise TartliError(_("S3: the hand in this record is over: nobody can go out"))
        player = claimant if claimant is not None else state.to_move
        if player not in (0, 1) or OUTS[player] not in state.legal_moves(player):
            raise TartliError(_("B2: no claim may be made in this position"))
        self.state, self.claimant = state, player
        self._key = (tuple(state.moves), state.scores_in, player)
        self._restart()

    @property
    def claim(self) -> HandState:
        """A copy of the state after the claim (S3): its ``out`` and ``buli`` are the verdict."""
        after = self.state.copy()
        after.push(OUTS[self.claimant])
        return after

    @property
    def truth(self) -> int:
        """0 for a wrong claim, else the buli the claimant wins (1, or 2 for a maccs)."""
        after = self.claim
        assert after.out is not None
        return after.buli[self.claimant] if after.out[1] else 0

    def _picture(self) -> str:
        lang, state = self.language, self.state
        you = self.claimant == 0
        canvas = _Canvas(_("Can you go out?") if you else _("Can the computer go out?"))
        rules = _("Austrian rules (V10)") if state.rules.single_games else _("Hungarian rules")
        if you:
            wants = _("You want to claim 501 · trick {number} · {rules}")
        else:
            wants = _("The computer wants to claim 501 · trick {number} · {rules}")
        canvas.text(wants.format(number=state.trick_number, rules=rules), weight="bold", fill=_GOLD)
        scored = state.scored_melds
        for p in (self.claimant, 1 - self.claimant):
            canvas.y += 6
            canvas.text(_("You") if p == 0 else _("The computer"), weight="bold")
            canvas.text(_("before this hand: {score}").format(score=state.scores_in[p]), size=13, x=32)
            melds = [f"{self.meld_name(m)} {m.value}" for m in scored[p]]
            if state.bela_scored[p]:
                melds.append(f"{BELA.title(lang)} {BELA.value}")
            if melds:
                canvas.text(_("melds scored this hand: {melds}").format(melds=", ".join(melds)), size=13, x=32)
            else:
                canvas.text(_("melds scored this hand: none"), size=13, x=32)
            won = len([t for t in state.tricks if t[3] == p])
            canvas.text(
                ngettext(
                    "card points of completed tricks: {points} ({n} tricks won)",
                    "card points of completed tricks: {points} ({n} tricks won)",
                    won,
                ).format(points=state.card_points[p], n=won),
                size=13,
                x=32,
            )
        window = state.claim_window
        if window is not None and window.claimant == self.claimant:
            canvas.y += 6
            canvas.text(
                _(
                    "Trick {trick} ({points} card points) was taken just now by the silent answer "
                    "that decided the contest."
                ).format(trick=window.trick, points=window.points),
                size=13,
            )
        lead = state.lead
        if lead is not None:
            canvas.y += 6
            if state.leader == 0:
                under_way = _("Trick {number} is under way: you led the {card}.")
            else:
                under_way = _("Trick {number} is under way: the computer led the {card}.")
            canvas.text(under_way.format(number=state.trick_number, card=self.card_name(lead)), size=13)
            canvas.row([(card_svg(lead, language=lang, width=64, trump=lead.suit is state.trump), None)])
        return canvas.svg()

    def answer(self, buli: int) -> bool:
        """The learner's verdict: 0 (the claim would be wrong), 1 or 2 buli."""
        if buli not in (0, 1, 2):
            raise ValueError(f"answer 0 (no), 1 or 2 buli, not {buli!r}")
        truth = self.truth
        right = buli == truth
        return self._judge(right, _verdict(right, self.explain()))

    def explain(self) -> str:
        state, p = self.state, self.claimant
        you = p == 0
        claim = state.claim(p)
        total, other = claim.total, claim.other
        window = state.claim_window
        cards = state.card_points[p]
        if claim.at_step_seven and window is not None:
            cards -= window.points if window.winner == p else 0
            if you:
                sum_text = _(
                    "You declared and led in trick {trick}, and the silent answer decided the contest, "
                    "so the claim is made at step 7, before that trick is taken: its {points} card points count "
                    "for neither player (S3). You have {score} + {melds} in melds + {cards} card points = {total}."
                )
            else:
                sum_text = _(
                    "The computer declared and led in trick {trick}, and the silent answer decided the contest, "
                    "so the claim is made at step 7, before that trick is taken: its {points} card points count "
                    "for neither player (S3). The computer has {score} + {melds} in melds + {cards} card points = "
                    "{total}."
                )
        else:
            under_way = state.lead is not None
            if you and under_way:
                sum_text = _(
                    "You have {score} + {melds} in melds + {cards} card points = {total} "
                    "(S3; the trick under way does not count yet)."
                )
            elif you:
                sum_text = _("You have {score} + {melds} in melds + {cards} card points = {total} (S3).")
            elif under_way:
                sum_text = _(
                    "The computer has {score} + {melds} in melds + {cards} card points = {total} "
                    "(S3; the trick under way does not count yet)."
                )
            else:
                sum_text = _("The computer has {score} + {melds} in melds + {cards} card points = {total} (S3).")
        sum_text = sum_text.format(
            trick=window.trick if window is not None else 0,
            points=window.points if window is not None else 0,
            score=state.scores_in[p],
            melds=state.meld_points[p],
            cards=cards,
            total=total,
        )
        if not claim.at_step_seven and window is not None and window.claimant == p and claim.valid:
            sum_text += " " + _(
                "Without trick {trick}'s {points} card points it would be short of 501, so the "
                "claim is judged after that trick, which counts (S3)."
            ).format(trick=window.trick, points=window.points)
        truth = self.truth
        they = 1 - p  # the other player: "you" when the computer claims
        if truth == 0:
            if they == 0:
                text = _("{sum} That is short of 501: the claim is wrong and you win one buli (S4).")
            else:
                text = _("{sum} That is short of 501: the claim is wrong and the computer wins one buli (S4).")
            return text.format(sum=sum_text)
        if state.rules.single_games:
            if truth == 2:
                double = (
                    _("you have {other}, below 250, so the loser pays double: 2 (V10).")
                    if they == 0
                    else _("the computer has {other}, below 250, so the loser pays double: 2 (V10).")
                )
            else:
                double = (
                    _("you have {other}, not below 250, so it is a single game: 1 (V10).")
                    if they == 0
                    else _("the computer has {other}, not below 250, so it is a single game: 1 (V10).")
                )
        elif truth == 2:
            double = (
                _("you have {other}, 250 or less: a maccs, 2 buli (S4).")
                if they == 0
                else _("the computer has {other}, 250 or less: a maccs, 2 buli (S4).")
            )
        else:
            double = (
                _("you have {other}, more than 250: 1 buli (S4).")
                if they == 0
                else _("the computer has {other}, more than 250: 1 buli (S4).")
            )
        return _("{sum} That is 501 or more, so the claim is right; {double}").format(
            sum=sum_text, double=double.format(other=other)
        )


# ---------------------------------------------------------------------------- 8. name the card
_LOOKS_LIKE: dict[Rank, tuple[Rank, ...]] = {
    Rank.ACE: (Rank.KING, Rank.TEN),
    Rank.KING: (Rank.OVER, Rank.UNDER),
    Rank.OVER: (Rank.UNDER,),
    Rank.UNDER: (Rank.OVER,),
    Rank.TEN: (Rank.NINE, Rank.ACE),
    Rank.NINE: (Rank.TEN, Rank.EIGHT),
    Rank.EIGHT: (Rank.NINE, Rank.SEVEN),
    Rank.SEVEN: (Rank.EIGHT,),
}
"""For each rank, the ranks a beginner takes it for (above all the Over for the Under and back)."""

_RANK_LOOKS: dict[Rank, str] = {
    Rank.ACE: N_("two large pips and the picture of a season make the {r}"),
    Rank.KING: N_("a rider on a horse is the {r}"),
    Rank.OVER: N_("on the {r} the suit pip stands high, in the top left corner"),
    Rank.UNDER: N_("on the {r} the suit pip stands lower down the left side"),
    Rank.TEN: N_("the numeral X and ten pips make the {r}"),
    Rank.NINE: N_("the numeral IX and nine pips make the {r}"),
    Rank.EIGHT: N_("the numeral VIII and eight pips make the {r}"),
    Rank.SEVEN: N_("the numeral VII and seven pips make the {r}"),
}
"""How each rank is recognised in the picture ({r} is the rank's name)."""

_SUIT_LOOKS: dict[Suit, str] = {
    Suit.ACORNS: N_("brown acorns"),
    Suit.LEAVES: N_("green leaves"),
    Suit.HEARTS: N_("red hearts"),
    Suit.BELLS: N_("round yellow bells"),
}
"""What the pips of each suit look like."""

_TITLE = re.compile(r"<title>[^<]*</title>")
_ARIA = re.compile(r"aria-label=([\"']).*?\1")


class NameTheCard(Exercise):
    """One card's picture and four names: choose the card's name (C1).

    The wrong names are ones a beginner picks: the same suit with a look-alike
    rank (the Under for the Over, the Nine for the Ten), the same rank in
    another suit. The verdict compares ``Card.name`` in the learner's language.
    """

    id = "name-the-card"
    title = N_("Name the card")
    instruction = N_("What is this card called? Choose its name.")

    card: Card
    options: list[Card]
    tried: set[Card]

    def _make_controls(self) -> list[Any]:
        self.option_buttons = [self._button("?", self._chooser(i)) for i in range(4)]
        return list(self.option_buttons)

    def _chooser(self, i: int) -> Callable[[], object]:
        return lambda: self.answer(self.options[i])

    def _generate(self) -> object:
        self._pose(self.rng.choice(CARDS))
        return self.card

    def set_card(self, card: Card | str) -> None:
        """Pose a chosen card (the wrong names are still drawn from the seed)."""
        self._pose(_card(card))
        self._restart()

    def _pose(self, card: Card) -> None:
        rng = self.rng
        look_alike = Card(rng.choice(_LOOKS_LIKE[card.rank]), card.suit)
        other_suit = Card(card.rank, rng.choice([s for s in SUITS if s is not card.suit]))
        # a third wrong name sharing either the suit or the rank (never both)
        pool = [
            c for c in CARDS if (c.suit is card.suit) != (c.rank is card.rank) and c not in (look_alike, other_suit)
        ]
        options = [card, look_alike, other_suit, rng.choice(pool)]
        rng.shuffle(options)
        self.card, self.options, self.tried = card, options, set()

    @property
    def option_names(self) -> list[str]:
        """The four names offered, in the order of the buttons."""
        return [self.card_name(c) for c in self.options]

    def _update_controls(self) -> None:
        for button, card in zip(self.option_buttons, self.options, strict=True):
            button.description = button.tooltip = self.card_name(card)
            button.disabled = self.solved or card in self.tried
            right = self.solved and card is self.card
            button.button_style = "success" if right else "warning" if card in self.tried else ""

    def _picture(self) -> str:
        lang = self.language
        svg = card_svg(self.card, language=lang, width=130, bare=True)  # as a real pack shows it
        if not self.solved:  # the picture's own label would give the name away
            label = _attr(_("the card to name"))
            svg = _ARIA.sub(lambda _m: f'aria-label="{label}"', _TITLE.sub("", svg, count=1), count=1)
        canvas = _Canvas(
            _("The card: {card}").format(card=self.card_name(self.card)) if self.solved else _("A card to name")
        )
        canvas.text(_("Which card is this?"), weight="bold", fill=_GOLD)
        canvas.row([(svg, None)])
        if self.solved:
            canvas.text(f"{self.card_name(self.card)} ({self.card.text})", weight="bold", fill=_GOLD)
        return canvas.svg()

    def answer(self, choice: Card | str) -> bool:
        """The learner names the card: one of the offered cards, or its name (``"Over of Hearts"``)."""
        if isinstance(choice, Card):
            chosen: Card | None = choice
        else:
            chosen = next((c for c in self.options if self.card_name(c) == choice), None)
        if chosen is None or chosen not in self.options:
            self._say(_("Choose one of the four names under the picture."), "info")
            return False
        if self.solved:
            return self._judge(chosen is self.card, "")
        self.tried.add(chosen)
        said = self.card_name(chosen)
        if said == self.card_name(self.card):  # judged by the names, in the learner's language
            return self._judge(True, _("Right: {why}").format(why=self.explain()))
        if self.mistakes == 0:
            return self._judge(
                False, _("Not quite: this is not the {card}. {hint}").format(card=said, hint=self.hint(chosen))
            )
        return self._judge(
            False, _("Not quite: this is not the {card}. It is {why}").format(card=said, why=self.explain())
        )

    def hint(self, wrong: Card) -> str:
        """What tells ``wrong`` apart from the card shown, without naming the card (C1)."""
        lang = self.language
        if wrong.rank is not self.card.rank:
            if {wrong.rank, self.card.rank} == {Rank.OVER, Rank.UNDER}:
                over, under = Rank.OVER.name_in(lang), Rank.UNDER.name_in(lang)
                return _(
                    "Look where the suit pip stands: on the {over} it stands high, in the top left corner; "
                    "on the {under} lower down the left side. Try again (C1)."
                ).format(over=over, under=under)
            look = _(_RANK_LOOKS[wrong.rank]).format(r=wrong.rank.name_in(lang))
            return _("Look at the figure or the numeral: {look}. Try again (C1).").format(look=look)
        return _("Look at the pips: the pips of {suit} are {pips}, and these are not. Try again (C1).").format(
            suit=self.suit_name(wrong.suit), pips=_(_SUIT_LOOKS[wrong.suit])
        )

    def explain(self) -> str:
        """How the card shown is recognised, with its notation (C1)."""
        lang, card = self.language, self.card
        look = _(_RANK_LOOKS[card.rank]).format(r=card.rank.name_in(lang))
        return _(
            "the {card}, written {code} in this course. Its pips are {pips}, the suit of {suit}, and {look} "
            "(C1: 4 suits × 8 ranks)."
        ).format(
            card=self.card_name(card),
            code=card.text,
            pips=_(_SUIT_LOOKS[card.suit]),
            suit=self.suit_name(card.suit),
            look=look,
        )


# ---------------------------------------------------------------------------- the catalogue
TRAINERS: dict[str, type[Exercise]] = {
    cls.id: cls
    for cls in (
        WhichCardWins,
        CountPoints,
        FindMelds,
        MeldContest,
        SameSuit,
        WhatMayYouPlay,
        GoingOut,
        NameTheCard,
    )
}
"""Every trainer by its id."""


def trainer(id: str, seed: int | None = None, **kw: Any) -> Exercise:
    """A new exercise by id: ``trainer("find-melds", seed=4, language="hu")``."""
    try:
        cls = TRAINERS[id]
    except KeyError:
        raise ValueError(f"unknown trainer {id!r}: choose one of {', '.join(TRAINERS)}") from None
    return cls(seed=seed, **kw)
