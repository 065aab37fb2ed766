"""The base of the quizzes: :class:`Quiz` (a question of one of several kinds, its answer buttons, the
verdict and its explanation as feedback) and the players in words.

A quiz is an :class:`~tartli.widgets.trainers.base.Exercise` (stars, "New position", the guard that turns a
failing callback into a friendly message) that asks one of its ``KINDS`` of question about a position. The
kinds say what :attr:`Quiz.truth` and :meth:`Quiz.explain` read from the engine; this base shows the
question, offers the choices, judges the answer against the truth and explains it.

The players in words (:data:`PLAYERS`, :func:`players`, :func:`who`) are :mod:`tartli.trainer_questions`'
(the worksheets ask the same questions).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from tartli import names, trainer_questions
from tartli.cards import Card
from tartli.game import PHASE1_TRICKS, HandState
from tartli.i18n import _
from tartli.names import agree, upper_first
from tartli.render.cards import card_svg
from tartli.widgets.trainers.base import Exercise
from tartli.widgets.trainers.canvas import GOLD, Canvas

__all__ = ["PLAYERS", "Answer", "Quiz", "does", "players", "who", "whose"]

Answer = int | bool
"""An answer to a quiz: a player (0 or 1), yes/no (True/False) or a number of cards."""
_TALON_AT_START = trainer_questions.TALON_AT_START

# The players in words and the positions are tartli.trainer_questions' (the worksheets ask the same questions).
PLAYERS = trainer_questions.PLAYERS
players = trainer_questions.players
who = trainer_questions.who


def does(p: int, third: str, second: str, *, start: bool = True) -> str:
    """Player ``p`` with an English verb that agrees: "You hold", "The computer holds" (English only).

    >>> does(0, "holds", "hold"), does(1, "has", "have", start=False)
    ('You hold', 'the computer has')
    """
    name = PLAYERS[p]
    return f"{name if start else name[:1].lower() + name[1:]} {agree(name, third, second)}"


def whose(p: int, *, start: bool = True) -> str:
    """Player ``p``'s: "Your", "The computer's" (``start=False``: "your", "the computer's"; English only)."""
    name = "Your" if p == 0 else f"{PLAYERS[p]}'s"
    return name if start else name[:1].lower() + name[1:]


_by = trainer_questions.by_player


class Quiz(Exercise):
    """An exercise asking one of several kinds of question, each with its own answer buttons."""

    KINDS: ClassVar[tuple[str, ...]] = ()
    PLAYER_KINDS: ClassVar[tuple[str, ...]] = ()
    """The kinds answered with a player."""

    kind: str
    state: HandState
    question: str
    choices: list[tuple[str, Answer]]

    def __init__(self, seed: int | None = None, *, kinds: Iterable[str] | None = None, **kw: Any) -> None:
        chosen = tuple(kinds) if kinds is not None else self.KINDS
        unknown = [k for k in chosen if k not in self.KINDS]
        if not chosen or unknown:
            raise ValueError(f"choose question kinds among {', '.join(self.KINDS)}, not {unknown or 'none'}")
        self.kinds = chosen
        self.question = ""
        self.choices = []
        super().__init__(seed, **kw)

    # -- the cycle
    def _generate(self) -> object:
        self.kind = self.rng.choice(self.kinds)
        self._pose()
        return (self.kind, self.state.deal, tuple(self.state.moves), self.question)

    def _pose(self) -> None:
        """Set ``state``, ``question`` and ``choices`` for ``self.kind`` from ``self.rng``."""
        raise NotImplementedError

    def _question_of(self, key: object) -> object:
        """The question as the learner reads it ("Who deals hand 4 of this match?"), whatever the deal."""
        assert isinstance(key, tuple)
        return key[0], key[-1]

    def _restart(self) -> None:
        self.instruction_html.value = (
            f"<div style='font-size:1.05em'><b>{html.escape(self.question, quote=False)}</b></div>"
        )
        self.controls.children = [self._button(label, self._answering(value)) for label, value in self.choices]
        super()._restart()

    def _answering(self, value: Answer) -> Callable[[], bool]:
        return lambda: self.answer(value)

    # -- judging
    @property
    def truth(self) -> Answer:
        """The engine's answer to the current question."""
        raise NotImplementedError

    def explain(self) -> str:
        """Why the answer is what it is, citing the rule."""
        raise NotImplementedError

    def answer(self, value: Answer) -> bool:
        """The learner's answer: a player (0 or 1), yes/no (True/False) or a number of cards."""
        truth = self.truth
        if isinstance(truth, bool) != isinstance(value, bool):
            raise ValueError(f"this question is answered with {'yes/no' if isinstance(truth, bool) else 'a number'}")
        right = value == truth
        why = upper_first(self.explain())
        if right:
            return self._judge(True, _("Right. {why}").format(why=why))
        return self._judge(
            False, _("Not quite: the answer is {answer}. {why}").format(answer=self.answer_text(truth), why=why)
        )

    def answer_text(self, value: Answer) -> str:
        """An answer in words: "yes", "no", "you", "the computer", "12"."""
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        return who(value, start=False) if self.kind in self.PLAYER_KINDS else str(value)

    # -- words and pictures
    def _player_choices(self) -> list[tuple[str, Answer]]:
        return [(who(0), 0), (who(1), 1)]

    def _count_choices(self, truth: int) -> list[tuple[str, Answer]]:
        """The right number of cards among three wrong ones near it (always 0-14)."""
        wrong = [n for n in range(_TALON_AT_START + 1) if 0 < abs(n - truth) <= 4]
        picked = sorted([truth, *self.rng.sample(wrong, 3)])
        return [(str(n), n) for n in picked]

    def _header(self, canvas: Canvas, when: str | None = None) -> None:
        """Trumps, the dealer, and the moment (by default the trick under way and its phase)."""
        state = self.state
        if when is None:
            phase = names.term("phase 1" if state.trick_number <= PHASE1_TRICKS else "phase 2", self.language)
            when = _("trick {number}, {phase}").format(number=state.trick_number, phase=phase)
        canvas.text(
            _("Trump: {suit} · dealer: {dealer} · {when}").format(
                suit=self.suit_name(state.trump), dealer=who(state.dealer, start=False), when=when
            ),
            weight="bold",
            fill=GOLD,
        )

    def _trick_row(self, canvas: Canvas, number: int, width: float = 92) -> None:
        """The two cards of completed trick ``number``, each labelled with who played it."""
        leader, lead, second, _winner = self.state.tricks[number - 1]
        y = canvas.y + 24
        for i, (p, card) in enumerate(((leader, lead), (1 - leader, second))):
            x = 16 + i * (width + 40)
            if i == 0:
                label = _by(p, _("You led"), _("The computer led"))
            else:
                label = _by(p, _("You played second"), _("The computer played second"))
            canvas.label(x, y - 6, label)
            canvas.place(card_svg(card, language=self.language, width=width, trump=card.suit is self.state.trump), x, y)
        canvas.y = y + width * 1.6 + 4

    def _indicator_row(self, canvas: Canvas, indicator: Card | None, caption: str) -> None:
        canvas.text(caption, size=13)
        if indicator is not None:
            canvas.row([(card_svg(indicator, language=self.language, width=64, trump=True), None)])
