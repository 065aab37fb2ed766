"""The deal quiz of lesson 03: who leads a trick (D3), may a player swap the trump 7 now (T5), how many
cards the talon holds (D1), who deals a hand (D2).

No verdict is decided here: the positions, verdicts and reasons are :mod:`tartli.trainer_questions`'
(:class:`~tartli.trainer_questions.DealQuestion`), which the worksheets print too, read from the engine's
:class:`~tartli.game.HandState` and :class:`~tartli.match.Match` (the next dealer); this module draws them.

Headless use (tests, lessons)::

    quiz = DealQuiz(seed=3, kinds=("swap",))
    quiz.answer(quiz.truth)        # or press one of the answer buttons
    quiz.solved, quiz.stars        # (True, 3)
"""

from __future__ import annotations

from typing import Any

from tartli import trainer_questions
from tartli.i18n import N_, _, ngettext
from tartli.match import Match
from tartli.render.cards import card_svg
from tartli.render.table import hand_svg
from tartli.widgets.quizzes.base import Answer, Quiz
from tartli.widgets.trainers.canvas import GOLD, Canvas

__all__ = ["DealQuiz"]

_by = trainer_questions.by_player
_trump_seven = trainer_questions.trump_seven


class DealQuiz(Quiz):
    """Questions on the deal: who leads (D3), may this player swap the trump 7 (T5), how big is the
    talon (D1), who deals this hand (D2)."""

    id = "deal-quiz"
    title = N_("The deal: a quick quiz")
    instruction = N_("Answer the question about the position shown.")

    KINDS = trainer_questions.DEAL_KINDS
    PLAYER_KINDS = ("leader", "dealer")

    match: Match | None
    holder: int

    def __init__(self, seed: int | None = None, **kw: Any) -> None:
        self.match = None
        self.holder = 0
        super().__init__(seed, **kw)

    # -- positions (dealt by tartli.trainer_questions)
    def _pose(self) -> None:
        question = trainer_questions.deal_deal_question(self.rng, self.kind)
        self.state, self.match, self.holder = question.state, question.match, question.holder
        self.question = trainer_questions.ask_deal(question, self.language)
        if self.kind == "swap":
            self.choices = [(_("Yes, the swap is allowed now"), True), (_("No, not now"), False)]
        elif self.kind == "talon":
            self.choices = self._count_choices(int(self.truth))
        else:
            self.choices = self._player_choices()

    @property
    def dealt(self) -> trainer_questions.DealQuestion:
        """The question asked, as :mod:`tartli.trainer_questions` judges it."""
        return trainer_questions.DealQuestion(self.kind, self.state, self.match, self.holder)

    # -- the verdicts
    @property
    def truth(self) -> Answer:
        return self.dealt.truth

    def explain(self) -> str:
        return trainer_questions.explain_deal(self.dealt, self.language)

    # -- the picture
    def _picture(self) -> str:
        state = self.state
        canvas = Canvas(self.question)
        if self.kind == "dealer":
            assert self.match is not None
            first = self.match.results[0].dealer if self.match.results else state.dealer
            canvas.text(
                _by(
                    first,
                    _("You dealt the first hand of this match."),
                    _("The computer dealt the first hand of this match."),
                ),
                weight="bold",
                fill=GOLD,
            )
            played = len(self.match.results)
            canvas.text(
                ngettext(
                    "{count} hand has been played so far.", "{count} hands have been played so far.", played
                ).format(count=played),
                size=14,
            )
            canvas.text(_("Now hand {number} is about to be dealt.").format(number=played + 1), size=14)
            return canvas.svg()
        self._header(canvas)
        if self.kind == "leader":
            if state.trick_number == 1:
                canvas.text(_("The cards are dealt; nothing has been played yet."), size=14)
            else:
                canvas.text(_("Trick {number} has just been played:").format(number=state.trick_number - 1), size=14)
                self._trick_row(canvas, state.trick_number - 1)
        elif self.kind == "talon":
            done = state.trick_number - 1
            canvas.text(
                ngettext(
                    "{count} trick has been played; trick {number} is about to begin.",
                    "{count} tricks have been played; trick {number} is about to begin.",
                    done,
                ).format(count=done, number=state.trick_number),
                size=14,
            )
            self._indicator_row(
                canvas,
                state.indicator,
                _("The indicator:") if state.indicator is not None else _("The indicator has been taken."),
            )
        else:
            self._swap_picture(canvas)
        return canvas.svg()

    def _swap_picture(self, canvas: Canvas) -> None:
        state, p, leader = self.state, self.holder, self.state.leader
        canvas.text(_by(leader, _("You lead this trick."), _("The computer leads this trick.")), size=14)
        if state.declared[leader]:
            said = ", ".join(m.announcement_in(self.language) for m in state.declared[leader] or ())
            canvas.text(
                _by(leader, _("You have declared: {melds}."), _("The computer has declared: {melds}.")).format(
                    melds=said
                ),
                size=14,
            )
        if state.lead is not None:
            canvas.text(
                _by(leader, _("You have led the {card_acc}:"), _("The computer has led the {card_acc}:")).format(
                    card=self.card_name(state.lead)
                ),
                size=14,
            )
            lead = card_svg(state.lead, language=self.language, width=64, trump=state.lead.suit is state.trump)
            canvas.row([(lead, None)])
        elif not state.declared[leader]:
            canvas.text(_("Nothing has happened in this trick yet."), size=14)
        if state.indicator is not None:
            self._indicator_row(canvas, state.indicator, _("The indicator, under the talon:"))
        else:
            canvas.text(_("The indicator has been taken: the talon is empty."), size=14)
        canvas.text(_by(p, _("Your hand:"), _("The computer's hand:")), size=14)
        hand = hand_svg(
            state.hand(p),
            language=self.language,
            trump=state.trump,
            highlighted=[_trump_seven(state)],
            card_width=canvas.card_width(len(state.hand(p)), 72),
        )
        canvas.hand(hand)
