"""Melds and the contest: find the melds (M1-M3), who scores a contest (K2, K3), a new sequence in a
suit already scored (K7, V5)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from tartli import names
from tartli.cards import CARDS, SEQUENCE_ORDER, SUITS, Card, Rank, Suit
from tartli.i18n import N_, _, ngettext
from tartli.melds import BELA, SEQUENCES, SETS, Meld, MeldKind, contest, find_melds, may_answer, same_suit_reason
from tartli.render.cards import card_svg
from tartli.render.table import hand_svg, meld_svg
from tartli.rules import RuleSet
from tartli.widgets.trainers.base import (
    Exercise,
    _card,
    _localize,
    _order_text,
    _Selecting,
    _verdict,
)
from tartli.widgets.trainers.canvas import (
    _GOLD,
    _INK,
    _SANS,
    _Canvas,
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
        return self._judge(False, _("Not quite: {why}").format(why=self._why_not(chosen)), shows_answer=False)

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
            self.rules = self._rules(rng, 0.25)
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
        # "illegal" said of a legal contest asks whose melds are better: the answer is left to the learner
        return self._judge(right, _verdict(right, why), shows_answer=side != "illegal")

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
        self.rules = self._rules(rng, 0.3)
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
