"""Going out: may a player claim 501 now, and for how many games won (S3, S4, V10)?"""

from __future__ import annotations

from typing import Any

from tartli.errors import TartliError
from tartli.game import ClaimWindow, HandState
from tartli.i18n import N_, _, ngettext
from tartli.melds import BELA
from tartli.moves import OUTS
from tartli.render.cards import card_svg
from tartli.widgets.trainers.base import (
    Exercise,
    _after_moves,
    _into_claim_window,
    _play_randomly,
    _random_hand,
    _verdict,
)
from tartli.widgets.trainers.canvas import (
    _GOLD,
    _Canvas,
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
        rng = self.rng
        wanted = rng.choice((0, 1, 2))
        for _round in range(60):
            rules = self._rules(rng, 0.25)
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
            canvas.text(_silent_answer_line(window), size=13)
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
        if truth == 0 and state.rules.single_games:  # V10: no buli; a wrong claim loses single (a ruling)
            if they == 0:
                text = _("{sum} That is short of 501: the claim is wrong and you win the game, single (V10).")
            else:
                text = _("{sum} That is short of 501: the claim is wrong and the computer wins the game, single (V10).")
            return text.format(sum=sum_text)
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


def _silent_answer_line(window: ClaimWindow) -> str:
    """Who took the trick the silent answer ended, and who answered (issue 36: the old words
    "taken by the silent answer" read as if the answerer had won it, beside a panel that credits
    the trick to the leader)."""
    if window.claimant == 0:  # you declared and led; the computer answered with a card alone
        if window.winner == 0:
            text = _(
                "You have just taken trick {trick} ({points} card points): the computer answered your "
                "declaration with a card alone (a silent answer), which decided the contest and ended the trick."
            )
        else:
            text = _(
                "The computer has just taken trick {trick} ({points} card points): it answered your "
                "declaration with a card alone (a silent answer), which decided the contest and ended the trick."
            )
    elif window.winner == 0:
        text = _(
            "You have just taken trick {trick} ({points} card points): you answered the computer's "
            "declaration with a card alone (a silent answer), which decided the contest and ended the trick."
        )
    else:
        text = _(
            "The computer has just taken trick {trick} ({points} card points): you answered its "
            "declaration with a card alone (a silent answer), which decided the contest and ended the trick."
        )
    return text.format(trick=window.trick, points=window.points)
