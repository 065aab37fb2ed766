"""Going out: may a player claim 501 now, and for how many games won (S3, S4, V10)?"""

from __future__ import annotations

from typing import Any

from tartli import trainer_questions
from tartli.errors import TartliError
from tartli.game import HandState
from tartli.i18n import N_, _, ngettext
from tartli.melds import BELA
from tartli.moves import OUTS
from tartli.render.cards import card_svg
from tartli.widgets.trainers.base import (
    Exercise,
    _verdict,
)
from tartli.widgets.trainers.canvas import (
    GOLD,
    Canvas,
    _e,
)

# ---------------------------------------------------------------------------- 7. going out
AUSTRIAN_INSTRUCTION = N_("Can the player named below claim 501 now, and is it a single or a double game?")
"""The question under the Austrian rules, where each game stands alone: no buli (V10)."""


class GoingOut(Exercise):
    """Running scores near 501: can this player go out now, and for how many buli (S3, S4, V10)?"""

    id = "going-out"
    title = N_("Can you go out?")
    instruction = N_("Can the player named below claim 501 now, and for how many buli?")

    state: HandState
    claimant: int

    def _make_controls(self) -> list[Any]:
        self.answer_buttons = [
            self._button(_("No (wrong claim)"), lambda: self.answer(0)),
            self._button(_("Yes: 1 buli"), lambda: self.answer(1)),
            self._button(_("Yes: 2 buli (maccs)"), lambda: self.answer(2)),
        ]
        return list(self.answer_buttons)

    def _update_controls(self) -> None:
        """The answers in the words of the position's rules: buli and maccs (S4), or under the Austrian
        rules a single or a double game, with no buli (V10)."""
        super()._update_controls()
        if self.state.rules.single_games:
            labels = (_("No (wrong claim)"), _("Yes: a single game"), _("Yes: a double game"))
            self.instruction_html.value = f"<div>{_e(_(AUSTRIAN_INSTRUCTION))}</div>"
        else:
            labels = (_("No (wrong claim)"), _("Yes: 1 buli"), _("Yes: 2 buli (maccs)"))
            self.instruction_html.value = f"<div>{_e(self.instruction)}</div>"
        for button, label in zip(self.answer_buttons, labels, strict=True):
            button.description = button.tooltip = label

    def _generate(self) -> object:
        self.state, self.claimant = trainer_questions.deal_claim(self.rng, self.taught)
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
        return trainer_questions.claim_truth(self.state, self.claimant)

    def _picture(self) -> str:
        lang, state = self.language, self.state
        you = self.claimant == 0
        canvas = Canvas(_("Can you go out?") if you else _("Can the computer go out?"))
        rules = _("Austrian rules (V10)") if state.rules.single_games else _("Hungarian rules")
        if you:
            wants = _("You want to claim 501 · trick {number} · {rules}")
        else:
            wants = _("The computer wants to claim 501 · trick {number} · {rules}")
        canvas.text(wants.format(number=state.trick_number, rules=rules), weight="bold", fill=GOLD)
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
                    "card points of completed tricks: {points} ({n} trick won)",
                    "card points of completed tricks: {points} ({n} tricks won)",
                    won,
                ).format(points=state.card_points[p], n=won),
                size=13,
                x=32,
            )
        window = state.claim_window
        if window is not None and window.claimant == self.claimant:
            canvas.y += 6
            canvas.text(trainer_questions.silent_answer_line(window), size=13)
        lead = state.lead
        if lead is not None:
            canvas.y += 6
            if state.leader == 0:
                under_way = _("Trick {number} is under way: you led the {card_acc}.")
            else:
                under_way = _("Trick {number} is under way: the computer led the {card_acc}.")
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
        """The claimant's count and the verdict (S3, S4, V10)."""
        return trainer_questions.explain_claim(self.state, self.claimant)
