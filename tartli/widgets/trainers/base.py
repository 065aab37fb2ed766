"""The base of every trainer: :class:`Exercise` (question, controls, feedback, stars) and the helpers that
deal positions from a seed."""

from __future__ import annotations

import collections
import logging
import random
from collections.abc import Callable, Collection
from typing import Any, ClassVar, Literal

import ipywidgets as w

from tartli import names, trainer_questions
from tartli.cards import Card, Suit
from tartli.course import TOPICS
from tartli.errors import TartliError
from tartli.game import HandState
from tartli.i18n import N_, _, ngettext
from tartli.melds import Meld
from tartli.names import Language
from tartli.record import Record
from tartli.rulebook import link_rule_ids
from tartli.rules import RuleSet
from tartli.widgets.board import SvgBoard
from tartli.widgets.trainers.canvas import (
    _FIT_WIDTH,
    NARROW_BELOW,
    _attr,
    _e,
)
from tartli.widgets.trainers.progress import STAGE_LENGTH, Progress, stars_text

log = logging.getLogger(__name__)

FRIENDLY_ERROR = N_(
    "Sorry, something went wrong in this exercise. Your answer was not counted: try again, or press “New position”."
)
"""What the page shows when a callback fails (the details go to the log, never to the page)."""


# ---------------------------------------------------------------------------- helpers
# The positions are dealt by tartli.trainer_questions (the worksheets deal the same); the trainers' names for them:
_second_to_play_in = trainer_questions.second_to_play_in
_into_claim_window = trainer_questions.into_claim_window
_after_moves = trainer_questions.after_moves
_order_text = trainer_questions.order_text
_localize = trainer_questions.localize


def _verdict(right: bool, why: str) -> str:
    """ "Right: ..." or "Not quite: ..." in front of an explanation."""
    return (_("Right: {why}") if right else _("Not quite: {why}")).format(why=why)


def as_card(value: Card | str) -> Card:
    """A card given as a Card or as its text ("OH")."""
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
        taught: Collection[str] | None = None,
    ) -> None:
        self.taught = frozenset(TOPICS if taught is None else taught)
        """What the course has taught where the exercise stands (:func:`tartli.course.taught`): it deals
        and words only that (no Austrian position before the variants, no phase named before lesson 04)."""
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
        self.answer_shown = False
        """A wrong answer's feedback told the right one (a later right answer was read, not found)."""
        self.solved = False
        self.positions = 0
        self._key: object = None
        self._recent: collections.deque[object] = collections.deque(maxlen=self.STAGE - 1)
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
        self.title_html = w.HTML(f"<h2 class='tartli-trainer-title'>{_e(self.title)}</h2>")
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
        """Move on to a new question: never the same as the one before, nor one the learner read in the
        last positions of a stage (:meth:`_question_of`: no question twice in a stage of five)."""
        for _round in range(30):
            key = self._generate()
            if key != self._key and self._question_of(key) not in self._recent:
                break
        self._key = key
        self._recent.append(self._question_of(key))
        self._restart()

    def _question_of(self, key: object) -> object:
        """What the learner reads as the question of the position ``key`` (the key itself by default)."""
        return key

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
        self.answer_shown = False
        self.solved = False
        self.render()  # the new picture first, then the old words go (a page never pairs them the other way)
        self._say("", "info")

    def render(self) -> None:
        """Draw the picture, the controls and the score line from the state."""
        self._draw_picture()
        self._update_controls()
        self.score_html.value = self._score_line()

    def _score_line(self) -> str:
        """The stage under way and the stars kept (the same the course map shows)."""
        best = self.progress.best(self.progress_id)
        clean, slips = self.progress.stage(self.progress_id)
        if self.mistakes and not self.solved:  # a wrong answer is a slip at once, not once the position is solved
            slips += 1
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

    def _judge(self, right: bool, message: str, *, shows_answer: bool = True) -> bool:
        """Count an answer, show the feedback and record progress. Returns ``right``.

        ``shows_answer``: a wrong answer's ``message`` tells the right one (the default: most explain
        the verdict); False for a hint that leaves the answer to the learner."""
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
            self.answer_shown = self.answer_shown or shows_answer
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
        if self.mistakes and self.answer_shown:
            return " " + _("(This one earns nothing: its answer was shown after a slip.)")
        if self.mistakes:  # found by the learner after a hint: say so, and why it earns nothing
            return " " + _("(Right, after a slip: only an answer right at the first try counts toward the stage.)")
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

    def _rules(self, rng: random.Random, austrian_share: float) -> RuleSet:
        """The rules of a new position: the Austrian ones now and then, once the course has taught them."""
        return trainer_questions.rules_for(rng, self.taught, austrian_share)

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


# ---------------------------------------------------------------------------- 3. find the melds
class _Selecting:
    """Cards of the hand picked one by one (click again to drop): for FindMelds and WhatMayYouPlay."""

    solved: bool
    selection: list[Card]
    _not_there: ClassVar[str] = N_("The {card_The} is not in this hand.")

    def _on_pick(self, pick: str) -> None:
        self.select(pick)

    def select(self, card: Card | str) -> None:
        """Select a card of the hand, or drop it if selected."""
        card = as_card(card)
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
