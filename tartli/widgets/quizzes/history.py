"""The history quiz of lesson 12: multiple-choice questions on the game, its pack and its relatives.

Each question comes from :data:`~tartli.trainer_questions.FACTS`, a small table
written down from the project's sources (``/work/shared/FACTS.md`` and the seed
documents), kept in :mod:`tartli.trainer_questions` with the other questions the
worksheets print; the comment beside each fact says where it comes from, and the
feedback names that source so a learner can read on. History teaches no rule, so
the quiz cites sources instead of rule IDs.

Headless use (tests, lessons)::

    quiz = HistoryQuiz(seed=3)
    quiz.answer(quiz.truth)        # the right option's text, or press its button
    quiz.solved, quiz.stars        # (True, 3)
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from tartli import trainer_questions
from tartli.cards import Card
from tartli.i18n import N_, _
from tartli.render.cards import card_svg
from tartli.trainer_questions import FACTS, SOURCES, Fact
from tartli.widgets.trainers.base import Exercise
from tartli.widgets.trainers.canvas import GOLD, Canvas

__all__ = ["FACTS", "SOURCES", "Fact", "HistoryQuiz"]


class HistoryQuiz(Exercise):
    """Multiple-choice questions on Tartli's history, the William Tell pack and the game's relatives."""

    id = "history-quiz"
    title = N_("History: a quick quiz")
    instruction = N_("Choose the right answer.")

    fact: Fact
    """The question asked, as written in :data:`FACTS` (English)."""
    options: list[str]
    """The options as shown on the buttons, in the page's language, in their shuffled order."""

    def __init__(self, seed: int | None = None, **kw: Any) -> None:
        self.options = []
        super().__init__(seed, **kw)

    # -- the cycle
    def _generate(self) -> object:
        question = trainer_questions.deal_history_question(self.rng)
        self.fact = question.fact
        self.options = [_(option) for option in question.options]
        return self.fact.question

    def _restart(self) -> None:
        self.instruction_html.value = (
            f"<div style='font-size:1.05em'><b>{html.escape(_(self.fact.question), quote=False)}</b></div>"
        )
        self.controls.children = [self._button(option, self._answering(option)) for option in self.options]
        self.controls.layout = w.Layout(flex_flow="column", align_items="flex-start")
        super()._restart()

    def _answering(self, option: str) -> Callable[[], bool]:
        return lambda: self.answer(option)

    # -- judging
    @property
    def truth(self) -> str:
        """The right option (the first one written in :data:`FACTS`), as shown."""
        return _(self.fact.options[0])

    @property
    def source(self) -> str:
        """Where the fact comes from, in the page's language."""
        return _(SOURCES[self.fact.source])

    def answer(self, option: str | int) -> bool:
        """The learner's choice: an option's text, or its place (0-3) as shown."""
        if isinstance(option, int):
            option = self.options[option]
        if option not in self.options:
            raise ValueError(f"choose one of the options shown: {', '.join(self.options)}")
        why, source = _(self.fact.why), self.source
        if option == self.truth:
            return self._judge(True, _("Right. {why} (Source: {source}.)").format(why=why, source=source))
        return self._judge(
            False,
            _("Not quite: the answer is “{answer}”. {why} (Source: {source}.)").format(
                answer=self.truth, why=why, source=source
            ),
        )

    # -- the picture
    def _picture(self) -> str:
        canvas = Canvas(_(self.fact.question), min_width=460)
        canvas.text(_(self.fact.topic), size=17, weight="bold", fill=GOLD)
        if self.fact.cards:
            chosen = [Card.parse(c) for c in self.fact.cards.split()]
            canvas.row([(card_svg(c, language=self.language, width=96), None) for c in chosen])
        return canvas.svg()
