"""Melds and the contest: find the melds (M1-M3), who scores a contest (K2, K3), a new sequence in a
suit already scored (K7, V5)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tartli import names, trainer_questions
from tartli.cards import SEQUENCE_ORDER, Card, Rank, Suit
from tartli.i18n import N_, _, ngettext
from tartli.melds import Meld, MeldKind
from tartli.render.cards import card_svg
from tartli.render.table import hand_svg, meld_svg
from tartli.rules import RuleSet
from tartli.trainer_questions import SIDES, Side
from tartli.widgets.trainers.base import (
    Exercise,
    _order_text,
    _Selecting,
    _verdict,
    as_card,
)
from tartli.widgets.trainers.canvas import (
    _INK,
    _SANS,
    GOLD,
    Canvas,
    _e,
    _n,
)


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
        self._pose(trainer_questions.deal_melds(self.rng))
        return (self.trump, tuple(self.hand))

    def _pose(self, question: trainer_questions.MeldsQuestion) -> None:
        self.trump = question.trump
        self.hand = list(question.hand)
        self.melds = list(question.melds)
        self.targets = list(question.targets)
        self.found = []
        self.selection = []

    def set_hand(self, cards: Iterable[Card | str], trump: Suit) -> None:
        """Pose a chosen hand (for a lesson that scripts its example)."""
        self._pose(trainer_questions.melds_question((as_card(c) for c in cards), trump))
        self._restart()

    @staticmethod
    def maximal(melds: Sequence[Meld]) -> list[Meld]:
        """The melds to find: sets, béla, and each sequence not lying inside a longer one found."""
        return trainer_questions.maximal_melds(melds)

    def _picture(self) -> str:
        lang = self.language
        canvas = Canvas(_("Your hand: {cards}").format(cards=", ".join(self.card_name(c) for c in self.hand)))
        canvas.text(_("Trump: {suit} (for béla)").format(suit=self.suit_name(self.trump)), weight="bold", fill=GOLD)
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
        self.selection = [as_card(c) for c in cards]
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
            self._say(_("You have found the {meld_acc} already.").format(meld=self.meld_name(match)), "info")
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
                    "Nearly: the {meld_the} is a sequence, but it lies inside the longer {longer_ine}. "
                    "Add the whole run (M1)."
                ).format(meld=self.meld_name(match), longer=self.meld_name(longer)),
                "info",
            )
            self.render()
            return False
        return self._judge(False, _("Not quite: {why}").format(why=self._why_not(chosen)), shows_answer=False)

    def _what(self, meld: Meld) -> str:
        return trainer_questions.meld_found_text(meld, self.trump, self.language)

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

    def _generate(self) -> object:
        question = trainer_questions.deal_contest(self.rng, self.taught)
        self.leader_melds, self.second_melds = question.leader_melds, question.second_melds
        self.trump, self.rules = question.trump, question.rules
        return (self.leader_melds, self.second_melds, self.trump, self.rules)

    @property
    def _question(self) -> trainer_questions.ContestQuestion:
        return trainer_questions.ContestQuestion(self.leader_melds, self.second_melds, self.trump, self.rules)

    @property
    def truth(self) -> Side:
        """The engine's verdict: ``may_answer`` (K3), then ``contest`` (K2)."""
        return self._question.truth

    def _announced(self, melds: Sequence[Meld]) -> str:
        return trainer_questions.announced(melds, self.language)

    def _picture(self) -> str:
        lang = self.language
        canvas = Canvas(_("A meld contest"))
        rules = _("Austrian rules (V3, V4)") if self.rules.same_suit_rule == "austrian" else _("Hungarian rules")
        canvas.text(f"{self._trump_line(self.trump)} · {rules}", weight="bold", fill=GOLD)
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
        # "illegal" said of a legal contest asks whose melds are better: the answer is left to the learner
        return self._judge(right, _verdict(right, why), shows_answer=side != "illegal")

    def _k3_text(self) -> str:
        return trainer_questions.k3_text(self._question, self.language)

    def _k2_text(self) -> str:
        return trainer_questions.k2_text(self._question, self.language)


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
        question = trainer_questions.deal_same_suit(self.rng, self.taught)
        self.rules, self.scored, self.candidate = question.rules, list(question.scored), question.candidate
        return (tuple(self.scored), self.candidate, self.rules)

    @property
    def _question(self) -> trainer_questions.SameSuitQuestion:
        return trainer_questions.SameSuitQuestion(tuple(self.scored), self.candidate, self.rules)

    @property
    def verdict(self) -> tuple[bool, str]:
        """``same_suit_reason`` of the candidate."""
        return self._question.verdict

    def _picture(self) -> str:
        lang = self.language
        canvas = Canvas(
            _("Scored: {scored}; new: {new}").format(
                scored=", ".join(self.meld_name(m) for m in self.scored), new=self.meld_name(self.candidate)
            )
        )
        rule = _("Austrian rule (V5)") if self.rules.same_suit_rule == "austrian" else _("Hungarian rule (K7)")
        canvas.text(rule, weight="bold", fill=GOLD)
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
                f'font-weight="{"bold" if new else "normal"}" fill="{GOLD if new else _INK}">{_e(label)}</text>'
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
        ok, _reason = self.verdict
        text = trainer_questions.explain_same_suit(self._question, self.language)
        return self._judge(bool(may) == ok, _verdict(bool(may) == ok, text))
