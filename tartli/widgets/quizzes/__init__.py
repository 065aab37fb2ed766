"""Quizzes: questions about a position or a fact, each judged by the engine or read from its source.

Each quiz is an :class:`~tartli.widgets.trainers.base.Exercise` (stars, "New position", a friendly message
when a callback fails). The three that ask about a position share :class:`Quiz`: one of several ``KINDS``
of question, its answer buttons, the engine's truth and the explanation that cites the rule. No quiz keeps
a rule of its own: the positions, verdicts and reasons are :mod:`tartli.trainer_questions`' or the engine's,
and the worksheets print the same questions.

Headless use (tests, lessons)::

    quiz = DealQuiz(seed=3, kinds=("swap",))
    quiz.answer(quiz.truth)        # or press one of the answer buttons
    quiz.solved, quiz.stars        # (True, 3)

One module per lesson's quiz, beside the shared base:

- :mod:`~tartli.widgets.quizzes.base`: :class:`Quiz`, :data:`Answer` and the players in words
  (:data:`PLAYERS`, :func:`players`, :func:`who`, :func:`does`, :func:`whose`);
- :mod:`~tartli.widgets.quizzes.deal`: :class:`DealQuiz`, the deal (lesson 03);
- :mod:`~tartli.widgets.quizzes.phase_one`: :class:`DrawQuiz`, trick and draw in phase 1 (lesson 04);
- :mod:`~tartli.widgets.quizzes.variants`: :class:`VariantQuiz`, the Hungarian, Pais and Austrian rules
  (lesson 11), with :func:`rule_options` and :func:`move_words`;
- :mod:`~tartli.widgets.quizzes.history`: :class:`HistoryQuiz`, multiple choice on the game's history
  (lesson 12), citing sources instead of rule IDs.
"""

from __future__ import annotations

from tartli.widgets.quizzes.base import PLAYERS, Answer, Quiz, does, players, who, whose
from tartli.widgets.quizzes.deal import DealQuiz
from tartli.widgets.quizzes.history import FACTS, SOURCES, Fact, HistoryQuiz
from tartli.widgets.quizzes.phase_one import DrawQuiz
from tartli.widgets.quizzes.variants import RULE_SET_NAMES, VariantQuiz, move_words, rule_options

__all__ = [
    "FACTS",
    "PLAYERS",
    "QUIZZES",
    "RULE_SET_NAMES",
    "SOURCES",
    "Answer",
    "DealQuiz",
    "DrawQuiz",
    "Fact",
    "HistoryQuiz",
    "Quiz",
    "VariantQuiz",
    "does",
    "move_words",
    "players",
    "rule_options",
    "who",
    "whose",
]


QUIZZES: dict[str, type[Quiz]] = {cls.id: cls for cls in (DealQuiz, DrawQuiz)}
"""The quizzes of lessons 03 and 04 by id (as before the package: the variants and history quizzes are not in it)."""
