"""The trainers' questions without their widgets: a position dealt from a seed, the engine's answer and
the reason in words.

The trainers (:mod:`tartli.widgets.trainers`) and the quizzes of lessons 03, 11 and 12
(:mod:`tartli.widgets.quizzes`) pose these questions on the screen and the worksheets
(:mod:`tartli.worksheets`) print them, so both ask the same questions and judge them the same way.
Nothing here keeps a rule of its own: who wins a trick is :func:`~tartli.game.trick_winner`, card
points :func:`~tartli.game.trick_points`, melds :func:`~tartli.melds.find_melds`, the contest
:func:`~tartli.melds.may_answer` and :func:`~tartli.melds.contest`, same-suit sequences
:func:`~tartli.melds.same_suit_reason`, what may be played ``HandState.legal_moves()``, and going out
the claim pushed on a copy of the state; the deal quiz reads ``to_move``, ``legal_moves()``, the talon and
:class:`~tartli.match.Match`, the variants quiz pushes a move on a copy under a rule set, and the history
quiz's facts (:data:`FACTS`) are data written down from the sources, each with its source.

Each ``deal_*`` function takes a :class:`random.Random` and draws from it in a fixed order (the same seed
gives the same questions on every machine); each ``explain_*`` function gives the reason in the page's
language (:mod:`tartli.i18n`) with the card names in ``language``, citing the rule IDs.

>>> import random
>>> q = deal_trick(random.Random(3))
>>> q.winner in (q.lead, q.second)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from tartli import names
from tartli.cards import CARDS, LAST_TRICK_BONUS, PLAIN_ORDER, SUITS, TRUMP_ORDER, Card, Rank, Suit
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import (
    MACCS_LIMIT,
    PHASE1_TRICKS,
    WINNING_SCORE,
    ClaimWindow,
    Deal,
    HandState,
    trick_points,
    trick_winner,
)
from tartli.i18n import N_, _, ngettext
from tartli.match import Match
from tartli.melds import BELA, SEQUENCES, SETS, Meld, MeldKind, contest, find_melds, may_answer, same_suit_reason
from tartli.moves import OUTS, Bela, Declare, GoOut, Move, Play, Swap
from tartli.names import Language
from tartli.rules import RuleSet

__all__ = [
    "DEAL_KINDS",
    "FACTS",
    "LEGALITY_KINDS",
    "ORDINALS",
    "PLAYERS",
    "RANK_LOOKS",
    "RULE_SET_NAMES",
    "SIDES",
    "SOURCES",
    "SUIT_LOOKS",
    "TALON_AT_START",
    "VARIANT_KINDS",
    "ContestQuestion",
    "DealQuestion",
    "Fact",
    "HistoryQuestion",
    "MeldsQuestion",
    "PointsQuestion",
    "SameSuitQuestion",
    "Side",
    "TrickQuestion",
    "VariantQuestion",
    "after_moves",
    "announced",
    "ask_deal",
    "ask_variant",
    "by_player",
    "claim_truth",
    "deal_claim",
    "deal_contest",
    "deal_deal_question",
    "deal_history_question",
    "deal_melds",
    "deal_play",
    "deal_points",
    "deal_same_suit",
    "deal_trick",
    "deal_trick_of_two_suits",
    "deal_variant_question",
    "explain_card",
    "explain_claim",
    "explain_contest",
    "explain_deal",
    "explain_history",
    "explain_play",
    "explain_points",
    "explain_same_suit",
    "explain_trick",
    "explain_variant",
    "holder_of",
    "into_claim_window",
    "localize",
    "maximal_melds",
    "meld_found_text",
    "order_text",
    "phase_two_count",
    "play_out",
    "play_randomly",
    "playable",
    "players",
    "random_hand",
    "rules_for",
    "second_to_play_in",
    "silent_answer_line",
    "start_of_trick",
    "suit_cards",
    "trump_seven",
    "under_rules",
    "who",
]


# ---------------------------------------------------------------------------- positions from a seed
def random_hand(rng: random.Random, rules: RuleSet | None = None, scores: Sequence[int] = (0, 0)) -> HandState:
    """A new hand, shuffled and dealt from ``rng`` (the dealer drawn too)."""
    return HandState(Deal.shuffled(rng, dealer=rng.randint(0, 1)), rules, scores)


def play_randomly(state: HandState, rng: random.Random, stop: Callable[[HandState], bool], limit: int = 400) -> None:
    """Random legal moves (never a claim) until ``stop(state)`` or the hand ends."""
    for _round in range(limit):
        if state.is_over or stop(state):
            return
        moves = [m for m in state.legal_moves() if not isinstance(m, GoOut)]
        if not moves:
            return
        state.push(rng.choice(moves))


def second_to_play_in(trick: int) -> Callable[[HandState], bool]:
    """Stop when the lead of trick ``trick`` has been played."""

    def stop(state: HandState) -> bool:
        return state.trick_number == trick and state.lead is not None

    return stop


def into_claim_window(state: HandState, rng: random.Random, claimant: int) -> None:
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


def after_moves(count: int) -> Callable[[HandState], bool]:
    """Stop once ``count`` moves have been made."""

    def stop(state: HandState) -> bool:
        return len(state.moves) >= count

    return stop


def rules_for(rng: random.Random, taught: Collection[str], austrian_share: float) -> RuleSet:
    """The rules of a new position: the Austrian ones now and then, once the course has taught them
    (``taught``: :func:`tartli.course.taught`; nothing is drawn from ``rng`` before that)."""
    if "austrian" in taught and rng.random() < austrian_share:
        return RuleSet.austrian()
    return RuleSet()


# ---------------------------------------------------------------------------- words
def order_text(order: Sequence[Rank], language: Language) -> str:
    """An order of ranks by their letters: "A X K O U 9 8 7"."""
    return " ".join(names.RANK_LETTERS[language][r.index] for r in order)


def localize(text: str, melds: Iterable[Meld | None], language: Language) -> str:
    """The engine's reasons name melds in English: put the learner's language in."""
    if language == "en":
        return text
    for meld in sorted({m for m in melds if m is not None}, key=lambda m: -len(m.title("en"))):
        text = text.replace(meld.title("en"), meld.title(language))
    return text


# ---------------------------------------------------------------------------- which card wins (T1, C3, C4)
@dataclass(frozen=True)
class TrickQuestion:
    """A trick of two cards: which wins it?"""

    lead: Card
    second: Card
    trump: Suit
    trick_number: int

    @property
    def winner(self) -> Card:
        """The engine's verdict (T1)."""
        return self.second if trick_winner(self.lead, self.second, self.trump) else self.lead


def deal_trick(rng: random.Random, phase: int | None = None) -> TrickQuestion:
    """A trick: half of them in phase 1 (any second card, T2), half a legal second card of a real hand
    in phase 2 (T4). ``phase`` 1 or 2: only that phase."""
    if phase == 1 or (phase is None and rng.random() < 0.5):  # phase 1: any second card (T2)
        trump = rng.choice(SUITS)
        lead = rng.choice(CARDS)
        roll = rng.random()
        others = [c for c in CARDS if c is not lead]
        if roll < 0.45:
            pool = [c for c in others if c.suit is lead.suit]
        elif roll < 0.7:
            pool = [c for c in others if c.suit is trump]
        else:
            pool = others
        return TrickQuestion(lead, rng.choice(pool), trump, rng.randint(1, 7))
    # phase 2: a legal second card of a real hand (T4)
    state = random_hand(rng)
    target = rng.randint(8, 16)
    play_randomly(state, rng, second_to_play_in(target))
    assert state.lead is not None
    plays = [m.card for m in state.legal_moves() if isinstance(m, Play)]
    return TrickQuestion(state.lead, rng.choice(plays), state.trump, state.trick_number)


def explain_trick(question: TrickQuestion, language: Language) -> str:
    """Why the winner wins, in words, citing C3/C4 and T1 (the verdict is ``trick_winner``'s)."""
    trump = question.trump
    won = question.winner
    lost = question.second if won is question.lead else question.lead
    if won.suit is lost.suit:
        trumps = won.suit is trump
        order = TRUMP_ORDER if trumps else PLAIN_ORDER
        if trumps and won.rank is order[0]:
            text = _(
                "the {card_the} wins (the highest trump of all). Both cards are trumps; in that order "
                "({order}) the {rank_the} ranks above the {other_the} (C3, T1)."
            )
        elif trumps:
            text = _(
                "the {card_the} wins. Both cards are trumps; in that order ({order}) the {rank_the} ranks above the "
                "{other_the} (C3, T1)."
            )
        else:
            text = _(
                "the {card_the} wins. Both cards are of the led suit, {suit}, and not trumps; in that order "
                "({order}) the {rank_the} ranks above the {other_the} (C4, T1)."
            )
        return text.format(
            card=won.name(language),
            suit=won.suit.name_in(language),
            order=order_text(order, language),
            rank=won.rank.name_in(language),
            other=lost.rank.name_in(language),
        )
    if won.suit is trump:
        return _(
            "the {card_the} wins: it is a trump ({trump}) and the other card is not, "
            "and the highest trump wins the trick (T1)."
        ).format(card=won.name(language), trump=trump.name_in(language))
    return _(
        "the {card_the} wins: the {other_the} neither follows the led suit ({suit}) nor is a trump, "
        "so the card led wins (T1)."
    ).format(card=won.name(language), other=lost.name(language), suit=won.suit.name_in(language))


# ---------------------------------------------------------------------------- count the card points (C3-C5)
@dataclass(frozen=True)
class PointsQuestion:
    """Tricks one player won (their numbers in the hand, lead and second card): how many card points?"""

    tricks: tuple[tuple[int, Card, Card], ...]
    trump: Suit
    include_last: bool

    @property
    def cards(self) -> list[Card]:
        return [c for _, lead, second in self.tricks for c in (lead, second)]

    @property
    def expected(self) -> int:
        """The engine's count: ``trick_points`` of the cards, plus 10 for the last trick (C5)."""
        return trick_points(self.cards, self.trump) + (LAST_TRICK_BONUS if self.include_last else 0)


def deal_points(rng: random.Random) -> PointsQuestion:
    """Two to four tricks of a hand played at random, the last trick among them now and then."""
    state = random_hand(rng)
    play_randomly(state, rng, after_moves(10**6))
    played = state.tricks  # all 16 tricks of the hand
    count = rng.randint(2, 4)
    include_last = rng.random() < 0.4
    numbers = list(range(len(played) - 1))
    chosen = sorted(rng.sample(numbers, count - 1 if include_last else count))
    if include_last:
        chosen.append(len(played) - 1)
    return PointsQuestion(tuple((i + 1, played[i][1], played[i][2]) for i in chosen), state.trump, include_last)


def explain_points(question: PointsQuestion, language: Language) -> str:
    """The sum card by card (the numbers are ``trick_points`` of each card)."""
    parts = []
    for card in question.cards:
        pts = trick_points([card], question.trump)
        part = _("{card} (trump) {points}") if card.suit is question.trump else "{card} {points}"
        parts.append(part.format(card=card.name(language), points=pts))
    if question.include_last:
        parts.append(_("last trick {points}").format(points=LAST_TRICK_BONUS))
    rules = "C3, C4, C5" if question.include_last else "C3, C4"
    return _("{sum} = {total} card points ({rules}).").format(
        sum=" + ".join(parts), total=question.expected, rules=rules
    )


# ---------------------------------------------------------------------------- find the melds (M1-M3)
@dataclass(frozen=True)
class MeldsQuestion:
    """A hand of nine and the trump suit: which melds does it hold?"""

    hand: tuple[Card, ...]
    trump: Suit
    melds: tuple[Meld, ...]
    """Every meld of the hand (``find_melds``), sequences inside longer ones included."""
    targets: tuple[Meld, ...]
    """The melds to find (:func:`maximal_melds`)."""


def maximal_melds(melds: Sequence[Meld]) -> list[Meld]:
    """The melds to find: sets, béla, and each sequence not lying inside a longer one found."""
    seqs = [m for m in melds if m.kind is MeldKind.SEQUENCE]
    return [
        m
        for m in melds
        if m.kind is not MeldKind.SEQUENCE or not any(o.length > m.length and o.mask & m.mask == m.mask for o in seqs)
    ]


def melds_question(cards: Iterable[Card], trump: Suit) -> MeldsQuestion:
    """The question of a chosen hand."""
    hand = sorted(set(cards))
    melds = find_melds(hand, trump=trump)
    return MeldsQuestion(tuple(hand), trump, tuple(melds), tuple(maximal_melds(melds)))


def deal_melds(rng: random.Random) -> MeldsQuestion:
    """A hand of nine built round one to three melds, holding one to three melds to find."""
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
        targets = maximal_melds(melds)
        if 1 <= len(targets) <= 3:
            break
    return MeldsQuestion(tuple(sorted(cards)), trump, tuple(melds), tuple(targets))


def meld_found_text(meld: Meld, trump: Suit, language: Language) -> str:
    """What makes ``meld`` a meld, and its points (M1, M2, M3)."""
    name, points = meld.title(language), meld.value
    if meld.kind is MeldKind.SET:
        assert meld.rank is not None
        return _("{meld}, {points} points: all four {rank}s make a set (M2).").format(
            meld=name, points=points, rank=meld.rank.name_in(language)
        )
    if meld.kind is MeldKind.BELA:
        return _("{meld}, {points} points: the King and Over of trumps ({suit}) (M3).").format(
            meld=name, points=points, suit=trump.name_in(language)
        )
    assert meld.suit is not None
    return _("{meld}, {points} points: {length} {suit} in a row (M1).").format(
        meld=name, points=points, length=meld.length, suit=meld.suit.name_in(language)
    )


# ---------------------------------------------------------------------------- the meld contest (K2, K3)
Side = Literal["leader", "second", "illegal"]
SIDES: tuple[Side, ...] = ("leader", "second", "illegal")


@dataclass(frozen=True)
class ContestQuestion:
    """Two declarations in one trick: whose melds score, or may the second not declare at all?"""

    leader_melds: tuple[Meld, ...]
    second_melds: tuple[Meld, ...]
    trump: Suit
    rules: RuleSet

    @property
    def truth(self) -> Side:
        """The engine's verdict: ``may_answer`` (K3), then ``contest`` (K2)."""
        if not may_answer(self.leader_melds, self.second_melds):
            return "illegal"
        winner = contest(self.leader_melds, self.second_melds, self.trump, self.rules).winner
        return "second" if winner == "second" else "leader"


def _declaration(
    rng: random.Random, rules: RuleSet, avoid: int, like: tuple[Meld, ...] = ()
) -> tuple[Meld, ...] | None:
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


def deal_contest(rng: random.Random, taught: Collection[str]) -> ContestQuestion:
    """A contest whose answer (leader, second, or the second may not declare) is drawn first, so the
    three come about as often; the Austrian rules now and then once taught."""
    wanted = rng.choice(SIDES)
    question: ContestQuestion | None = None
    for _round in range(60):
        rules = rules_for(rng, taught, 0.25)
        trump = rng.choice(SUITS)
        leader = _declaration(rng, rules, 0)
        if leader is None:
            continue
        second = _declaration(rng, rules, sum(m.mask for m in leader), leader)
        if second is None:
            continue
        question = ContestQuestion(leader, second, trump, rules)
        if question.truth == wanted:
            break
    assert question is not None  # sixty draws never all fail
    return question


def announced(melds: Sequence[Meld], language: Language) -> str:
    """What the melds are announced as: “kvart”, “vannak” (K4)."""
    return ", ".join(_("“{word}”").format(word=m.announcement_in(language)) for m in melds)


def explain_contest(question: ContestQuestion, language: Language) -> str:
    """Why the second may not declare (K3), or who scores and why (K2, K4, K1)."""
    if question.truth == "illegal":
        return k3_text(question, language)
    return k2_text(question, language)


def k3_text(question: ContestQuestion, language: Language) -> str:
    return _(
        "the leader announced {lead}, and the second may declare only what could beat the leader's best: "
        "after a set only a set; after a sequence only a set or a sequence at least as long. "
        "{answer} cannot, so the declaration is refused (K3)."
    ).format(lead=announced(question.leader_melds, language), answer=announced(question.second_melds, language))


def k2_text(question: ContestQuestion, language: Language) -> str:
    result = contest(question.leader_melds, question.second_melds, question.trump, question.rules)
    melds = (*question.leader_melds, *question.second_melds)
    if result.winner == "second":
        text = _("the second player scores ({rule}): {reason}.")
    else:
        text = _("the leader scores ({rule}): {reason}.")
    text = text.format(rule=result.rule, reason=localize(result.reason, melds, language))
    if result.needs_detail and result.leader_best is not None:
        best = result.leader_best
        assert best.rank is not None
        named = best.title(language) if best.kind is MeldKind.SET else best.rank.name_in(language)
        answer = names.announcement("higher" if result.winner == "second" else "good", language)
        text += " " + _(
            "The announcements tie, so the leader names “{named}” and the second answers “{answer}” (K4)."
        ).format(named=named, answer=answer)
    scored = question.second_melds if result.winner == "second" else question.leader_melds
    total = sum(m.value for m in scored)
    text += " " + _("The winner scores all their declared melds, {total} points; the other scores none (K1).").format(
        total=total
    )
    return text


# ---------------------------------------------------------------------------- same-suit sequences (K7, V5)
@dataclass(frozen=True)
class SameSuitQuestion:
    """A player scored sequences in a suit: may they declare another one there?"""

    scored: tuple[Meld, ...]
    candidate: Meld
    rules: RuleSet

    @property
    def verdict(self) -> tuple[bool, str]:
        """``same_suit_reason`` of the candidate."""
        return same_suit_reason(self.candidate, self.scored, self.rules)


def deal_same_suit(rng: random.Random, taught: Collection[str]) -> SameSuitQuestion:
    """One or two sequences scored in a suit and a new one there, allowed about half of the time."""
    rules = rules_for(rng, taught, 0.3)
    wanted = rng.random() < 0.5
    suit = rng.choice(SUITS)
    in_suit = [m for m in SEQUENCES if m.suit is suit]
    scored: list[Meld] = []
    for _round in range(rng.choice((1, 1, 2))):
        pool = [m for m in in_suit if m not in scored and same_suit_reason(m, scored, rules)[0]]
        if pool:
            scored.append(rng.choice(pool))
    rest = [m for m in in_suit if m not in scored]
    pool = [m for m in rest if same_suit_reason(m, scored, rules)[0] == wanted] or rest
    return SameSuitQuestion(tuple(scored), rng.choice(pool), rules)


def explain_same_suit(question: SameSuitQuestion, language: Language) -> str:
    """The engine's reason (it starts with the rule ID), with the melds named in ``language``."""
    return localize(question.verdict[1], (*question.scored, question.candidate), language) + "."


# ---------------------------------------------------------------------------- what may you play (T4)
def playable(state: HandState) -> set[Card]:
    """The cards ``legal_moves()`` lists as plays."""
    return {m.card for m in state.legal_moves() if isinstance(m, Play)}


def deal_play(rng: random.Random) -> HandState:
    """Phase 2, a card led, the second player to play; where it can, one where not every card may be played."""
    for _round in range(4):
        state = random_hand(rng)
        target = rng.randint(8, 14)
        play_randomly(state, rng, second_to_play_in(target))
        if len(playable(state)) < len(state.hand(state.to_move or 0)):
            break  # prefer positions where not every card may be played
    return state


def explain_play(state: HandState, language: Language) -> str:
    """The situation of T4 (the player to move, second in phase 2), told from the engine's set of playable cards."""
    correct = playable(state)
    lead = state.lead
    assert lead is not None and state.to_move is not None
    hand = state.hand(state.to_move)
    follow = {c for c in hand if c.suit is lead.suit}
    trumps = {c for c in hand if c.suit is state.trump}
    suit = lead.suit.name_in(language)
    if follow and correct == follow:
        return _(
            "you hold {suit}, so you must follow suit with one of them; any of them will do, "
            "there is no duty to play higher (T4)."
        ).format(suit=suit)
    if trumps and correct == trumps:
        return _(
            "you hold no {suit}, so you must play a trump ({trump}); any trump will do, "
            "there is no duty to play higher (T4)."
        ).format(suit=suit, trump=state.trump.name_in(language))
    return _("you hold neither {suit} nor trumps, so you may play any card (T4).").format(suit=suit)


# ---------------------------------------------------------------------------- going out (S3, S4, V10)
def deal_claim(rng: random.Random, taught: Collection[str]) -> tuple[HandState, int]:
    """Running scores near 501 and a hand under way, and who thinks of claiming; the answer (a wrong claim,
    1 or 2 buli) is drawn first, so the three come about as often."""
    wanted = rng.choice((0, 1, 2))
    found: tuple[HandState, int] | None = None
    for _round in range(60):
        rules = rules_for(rng, taught, 0.25)
        claimant = rng.randint(0, 1)
        scores = [0, 0]
        scores[claimant] = rng.randint(420, 495)
        scores[1 - claimant] = rng.randint(150, 470)
        state = random_hand(rng, rules, scores)
        if rng.random() < 0.3:
            into_claim_window(state, rng, claimant)  # S3: the moment after a silent deciding card
        else:
            play_randomly(state, rng, after_moves(rng.randint(0, 30)))
        if state.is_over or OUTS[claimant] not in state.legal_moves(claimant):
            continue
        found = (state, claimant)
        if claim_truth(state, claimant) == wanted:
            break
    assert found is not None  # sixty hands never all end before a claim
    return found


def claim_truth(state: HandState, claimant: int) -> int:
    """0 for a wrong claim, else the buli the claimant wins (1, or 2 for a maccs): the claim pushed on a copy."""
    after = state.copy()
    after.push(OUTS[claimant])
    assert after.out is not None
    return after.buli[claimant] if after.out[1] else 0


def explain_claim(state: HandState, claimant: int) -> str:
    """The claimant's count (S3) and the verdict (S4, V10), in the words of "you" and "the computer"."""
    p = claimant
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
    truth = claim_truth(state, p)
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


def silent_answer_line(window: ClaimWindow) -> str:
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


# ---------------------------------------------------------------------------- the players in words
PLAYERS: tuple[str, str] = (N_("You"), N_("The computer"))
"""The two players as the learner reads them: the learner is player 0, as at the course's tables.

In English; :func:`players` (or ``tr(PLAYERS[p])`` in a notebook) gives them in the page's language."""


def players() -> tuple[str, str]:
    """The two players in the page's language: ("You", "The computer"), ("Te", "A gép") ..."""
    return _(PLAYERS[0]), _(PLAYERS[1])


def who(p: int, *, start: bool = True) -> str:
    """Player ``p`` in words, in the page's language: "You", "The computer" (``start=False``: "you",
    "the computer"). A name to stand alone (an answer, a label): a sentence about a player is one
    message per player, since "you" and "the computer" do not conjugate alike.

    >>> who(1), who(0, start=False)
    ('The computer', 'you')
    """
    name = players()[p]
    return name if start else name[:1].lower() + name[1:]


def by_player(p: int, you: str, computer: str) -> str:
    """The message about player ``p``: ``you`` for the learner (player 0), ``computer`` for the other."""
    return you if p == 0 else computer


# ---------------------------------------------------------------------------- name the card (C1)
RANK_LOOKS: dict[Rank, str] = {
    Rank.ACE: N_("two large pips and the picture of a season make the {r_the}"),
    Rank.KING: N_("a rider on a horse is the {r_the}"),
    Rank.OVER: N_("on the {r_the} the suit pip stands high, in the top left corner"),
    Rank.UNDER: N_("on the {r_the} the suit pip stands lower down the left side"),
    Rank.TEN: N_("the numeral X and ten pips make the {r_the}"),
    Rank.NINE: N_("the numeral IX and nine pips make the {r_the}"),
    Rank.EIGHT: N_("the numeral VIII and eight pips make the {r_the}"),
    Rank.SEVEN: N_("the numeral VII and seven pips make the {r_the}"),
}
"""How each rank is recognised in the picture ({r} is the rank's name)."""

SUIT_LOOKS: dict[Suit, str] = {
    Suit.ACORNS: N_("brown acorns"),
    Suit.LEAVES: N_("green leaves"),
    Suit.HEARTS: N_("red hearts"),
    Suit.BELLS: N_("round yellow bells"),
}
"""What the pips of each suit look like."""


def explain_card(card: Card, language: Language) -> str:
    """How ``card`` is recognised in its picture, with the course's notation (C1)."""
    look = _(RANK_LOOKS[card.rank]).format(r=card.rank.name_in(language))
    if not names.RECORD_CODES_SHOWN[language]:
        text = _("the {card_the}. Its pips are {pips}, the suit of {suit}, and {look} (C1: 4 suits × 8 ranks).")
    else:
        text = _(
            "the {card_the}, written {code} in this course. Its pips are {pips}, the suit of {suit}, and {look} "
            "(C1: 4 suits × 8 ranks)."
        )
    return text.format(
        card=card.name(language),
        code=card.text,
        pips=_(SUIT_LOOKS[card.suit]),
        suit=card.suit.name_in(language),
        look=look,
    )


def deal_trick_of_two_suits(rng: random.Random) -> TrickQuestion:
    """A trick of two suits, which no order of ranks decides: a trump against a card of another suit, or
    an answer that neither follows suit nor trumps (what lesson 01 tells of T1; the orders come in 02)."""
    trump = rng.choice(SUITS)
    lead = rng.choice(CARDS)
    if lead.suit is trump:  # a trump led: the answer is of another suit
        pool = [c for c in CARDS if c.suit is not trump]
    elif rng.random() < 0.5:  # trumped
        pool = [c for c in CARDS if c.suit is trump]
    else:  # neither following suit nor trumping
        pool = [c for c in CARDS if c.suit is not lead.suit and c.suit is not trump]
    return TrickQuestion(lead, rng.choice(pool), trump, rng.randint(1, 7))


# ---------------------------------------------------------------------------- the deal quiz (D1, D2, D3, T5)
DEAL_KINDS: tuple[str, ...] = ("leader", "swap", "talon", "dealer")
"""The deal quiz's questions: who leads (D3), may this player swap the trump Seven (T5), how big is the
talon (D1), who deals this hand (D2)."""

TALON_AT_START = 14
"""The talon as dealt, the indicator included (D1); only used to word the explanations."""


def start_of_trick(number: int) -> Callable[[HandState], bool]:
    """Stop as soon as trick ``number`` may begin (nothing done in it yet)."""

    def stop(state: HandState) -> bool:
        return state.trick_number == number

    return stop


def play_out(state: HandState, rng: random.Random) -> None:
    """Random legal moves, never a claim, to the end of the hand."""
    play_randomly(state, rng, lambda s: False)


def trump_seven(state: HandState) -> Card:
    """The Seven of trumps of ``state``'s hand."""
    return Card(Rank.SEVEN, state.trump)


def holder_of(state: HandState, card: Card) -> int | None:
    """The player holding ``card``, or None."""
    return next((p for p in (0, 1) if card in state.hand(p)), None)


@dataclass(frozen=True, eq=False)
class DealQuestion:
    """A question of the deal quiz: its kind (:data:`DEAL_KINDS`) and the position it asks about."""

    kind: str
    state: HandState
    match: Match | None = None
    """The match whose next hand is dealt (``"dealer"``)."""
    holder: int = 0
    """The player holding the trump Seven (``"swap"``)."""

    @property
    def truth(self) -> int | bool:
        """The engine's answer: a player (0/1), yes/no, or a number of cards."""
        state = self.state
        if self.kind == "leader":
            assert state.to_move is not None
            return state.to_move  # D3: the player to move at the start of a trick leads it
        if self.kind == "swap":
            return Swap(self.holder) in state.legal_moves(self.holder)  # T5
        if self.kind == "talon":
            return len(state.talon) + (state.indicator is not None)  # D1, T3
        return state.dealer  # D2: Match deals each hand

    @property
    def key(self) -> tuple[object, ...]:
        """What tells two questions apart."""
        return (self.kind, self.state.deal, tuple(self.state.moves), self.holder)


def deal_deal_question(rng: random.Random, kind: str) -> DealQuestion:
    """A position for a question of ``kind`` on the deal."""
    if kind == "leader":
        number = 1 if rng.random() < 0.35 else rng.randint(2, 9)
        return DealQuestion(kind, _hand_at_trick(rng, number))
    if kind == "talon":
        return DealQuestion(kind, _hand_at_trick(rng, rng.randint(1, 8)))
    if kind == "dealer":
        for _try in range(20):
            match = Match(seed=rng.randrange(10**9), first_dealer=rng.randint(0, 1))
            for _hand in range(rng.randint(1, 4)):
                play_out(match.state, rng)
                match.next_hand()
            if not match.is_over:
                break
        return DealQuestion(kind, match.state, match)
    if kind == "swap":
        return _deal_swap(rng)
    raise ValueError(f"choose a question kind among {', '.join(DEAL_KINDS)}, not {kind!r}")


def _hand_at_trick(rng: random.Random, number: int) -> HandState:
    state = random_hand(rng)
    play_randomly(state, rng, start_of_trick(number))
    return state


def _deal_swap(rng: random.Random) -> DealQuestion:
    case = rng.choice(("yes", "yes", "yes", "second", "led", "declared", "phase 2"))
    found: HandState | None = None
    for _try in range(200):
        state = random_hand(rng)
        found = _find_swap_case(rng, state, case)
        if found is not None:
            break
    if found is None:  # very unlikely: fall back on any position where someone holds the trump 7
        found = random_hand(rng)
        play_randomly(found, rng, lambda s: holder_of(s, trump_seven(s)) is not None)
    holder = holder_of(found, trump_seven(found))
    return DealQuestion("swap", found, holder=holder if holder is not None else found.leader)


def _find_swap_case(rng: random.Random, state: HandState, case: str) -> HandState | None:
    """Play random legal moves until the position of ``case`` comes up (None if the hand ends first)."""
    for _try in range(200):
        if state.is_over:
            return None
        seven = trump_seven(state)
        holder = holder_of(state, seven)
        fresh = state.lead is None and state.declared[state.leader] is None
        leading = holder is not None and holder == state.leader
        phase1 = state.trick_number <= PHASE1_TRICKS
        if case == "yes" and leading and fresh and phase1:
            return state
        if case == "second" and holder is not None and not leading and phase1 and state.indicator is not None:
            return state
        if case == "led" and leading and state.lead is not None and phase1:
            return state
        if case == "declared" and leading and phase1 and state.lead is None:
            if state.declared[state.leader] is not None:
                return state
            declarations = [m for m in state.legal_moves() if isinstance(m, Declare)]
            if declarations and fresh:
                state.push(rng.choice(declarations))
                continue
        if case == "phase 2" and leading and fresh and not phase1:
            return state
        moves = [m for m in state.legal_moves() if not isinstance(m, (GoOut, Swap))]
        if not moves:
            return None
        state.push(rng.choice(moves))
    return None


def ask_deal(question: DealQuestion, language: Language) -> str:
    """The question in words: "Who leads trick 3?"."""
    state = question.state
    if question.kind == "leader":
        return _("Who leads trick {number}?").format(number=state.trick_number)
    if question.kind == "talon":
        return _("How many cards are in the talon now, the face-up indicator included?")
    if question.kind == "dealer":
        assert question.match is not None
        return _("Who deals hand {number} of this match?").format(number=len(question.match.results) + 1)
    return by_player(
        question.holder,
        _("You hold the {card_acc}, the trump Seven. May you swap it for the indicator now?"),
        _("The computer holds the {card_acc}, the trump Seven. May the computer swap it for the indicator now?"),
    ).format(card=trump_seven(state).name(language))


def explain_deal(question: DealQuestion, language: Language) -> str:
    """Why the answer is what it is, citing the rule (D1, D2, D3, T5)."""
    return {
        "leader": _explain_leader,
        "swap": _explain_swap,
        "talon": _explain_talon,
        "dealer": _explain_dealer,
    }[question.kind](question, language)


def _explain_leader(question: DealQuestion, language: Language) -> str:
    state, leader = question.state, int(question.truth)
    if state.trick_number == 1:
        return by_player(
            leader,
            _("The computer dealt, so the non-dealer, you, lead the first trick (D3)."),
            _("You dealt, so the non-dealer, the computer, leads the first trick (D3)."),
        )
    number = state.trick_number - 1
    _leader, lead, second, winner = state.tricks[-1]
    won = lead if winner == state.tricks[-1][0] else second
    return by_player(
        winner,
        _(
            "the {card_the} won trick {number} (T1), so you took it and lead trick {next}: "
            "each trick's winner leads the next (D3)."
        ),
        _(
            "the {card_the} won trick {number} (T1), so the computer took it and leads trick {next}: "
            "each trick's winner leads the next (D3)."
        ),
    ).format(card=won.name(language), number=number, next=state.trick_number)


def _explain_swap(question: DealQuestion, language: Language) -> str:
    state, p, may = question.state, question.holder, bool(question.truth)
    if may:
        return by_player(
            p,
            _(
                "You are about to lead trick {number} and have not declared or played yet, so you may "
                "exchange the trump Seven for the trump indicator. The swap is optional: you may also keep "
                "the Seven (T5)."
            ),
            _(
                "The computer is about to lead trick {number} and has not declared or played yet, so the "
                "computer may exchange the trump Seven for the trump indicator. The swap is optional: it may "
                "also keep the Seven (T5)."
            ),
        ).format(number=state.trick_number)
    if state.indicator is None:
        return _(
            "the indicator is no longer on the table: the loser of trick 7 took it. "
            "The swap is only possible before tricks 1-7 (T5)."
        )
    if p != state.leader:
        return by_player(
            state.leader,
            _("only the player about to lead may swap, and you lead this trick (T5)."),
            _("only the player about to lead may swap, and the computer leads this trick (T5)."),
        )
    if state.lead is not None:
        return by_player(
            p,
            _("You have led already; the swap must come before the lead (T5)."),
            _("The computer has led already; the swap must come before the lead (T5)."),
        )
    if state.declared[p] is not None:
        return by_player(
            p,
            _("You have declared already; the swap comes before declaring (T5, K1)."),
            _("The computer has declared already; the swap comes before declaring (T5, K1)."),
        )
    return _("the swap is open only to the player about to lead, before they declare or lead, in tricks 1-7 (T5).")


def _explain_talon(question: DealQuestion, language: Language) -> str:
    state, count = question.state, int(question.truth)
    done = state.trick_number - 1
    start = _("The talon starts with 14 cards: 13 face down and the indicator under them (D1).")
    if done == 0:
        then = _("No trick has been played yet.")
    elif state.indicator is None:
        then = _(
            "After each of tricks 1-7 both players drew one card (T3); after trick 7 the "
            "loser took the indicator, so the talon is empty and phase 2 has begun."
        )
    else:
        then = ngettext(
            "After each trick both players draw one card, two a trick (T3): "
            "{done} trick played, 14 − 2 × {done} = {count}.",
            "After each trick both players draw one card, two a trick (T3): "
            "{done} tricks played, 14 − 2 × {done} = {count}.",
            done,
        ).format(done=done, count=count)
    return f"{start} {then}"


def _explain_dealer(question: DealQuestion, language: Language) -> str:
    assert question.match is not None
    dealers = [r.dealer for r in question.match.results]
    listed = ", ".join(
        by_player(d, _("you dealt hand {number}"), _("the computer dealt hand {number}")).format(number=i)
        for i, d in enumerate(dealers, start=1)
    )
    return by_player(
        question.state.dealer,
        _("the deal alternates from hand to hand (D2): {dealt}, so you deal hand {number}."),
        _("the deal alternates from hand to hand (D2): {dealt}, so the computer deals hand {number}."),
    ).format(dealt=listed, number=len(dealers) + 1)


# ---------------------------------------------------------------------------- the variants quiz (B2, V1-V10)
RULE_SET_NAMES = {
    "hungarian": N_("Hungarian rules (the default)"),
    "pais": N_("Hungarian rules with Pais's béla rule (B2)"),
    "austrian": N_("Austrian Tartl, after Beck (V1-V11)"),
}
"""The three presets by name, in words (English: ``_(RULE_SET_NAMES[name])`` in the page's language)."""

VARIANT_KINDS: tuple[str, ...] = (
    "four-nines",
    "two-sequences",
    "same-suit",
    "swap",
    "bela",
    "stichmatsch",
    "double",
    "dealer",
    "indicator",
)
"""The variants quiz's questions, each asked under one of the three rule sets:

* ``four-nines``: may the leader declare four Nines? (M2, V3)
* ``two-sequences``: may the leader declare two sequences in one trick? (M5, V4)
* ``same-suit``: may a player add this sequence to the one they scored in that suit? (K7, V5)
* ``swap``: may this player swap the trump Seven now? (T5, V7)
* ``bela``: may this player score béla now, as a move of its own? (B1, B2)
* ``stichmatsch``: does winning all of tricks 8-16 take all 161 card points here? (S2, V9)
* ``double``: a player goes out: is it a double (maccs)? (S4, V10)
* ``dealer``: who deals the next hand? (D2, V2)
* ``indicator``: may the non-dealer choose this card as the trump card? (D1, V1)
"""

LEGALITY_KINDS: tuple[str, ...] = ("four-nines", "two-sequences", "same-suit", "swap", "bela")
"""The kinds answered by pushing the question's ``move`` on its ``state``."""

ORDINALS = {1: N_("4th"), 2: N_("7th"), 3: N_("10th"), 4: N_("13th"), 5: N_("16th"), 6: N_("19th")}
"""The card turned after packet 1-6 of three, in words."""


@dataclass(frozen=True, eq=False)
class VariantQuestion:
    """A question of the variants quiz: its kind (:data:`VARIANT_KINDS`), the rule set it is asked under
    and the position; the engine judges it (a move pushed on a copy, a finished or claimed hand, a match,
    a deal)."""

    kind: str
    rules_name: str
    """A key of :data:`RULE_SET_NAMES`."""
    state: HandState
    move: Move | None = None
    """The move asked about (the legality kinds; ``"double"``: the claim)."""
    match: Match | None = None
    """The match whose next dealer is asked (``"dealer"``)."""
    packet: int = 6
    """After which packet of three the trump card is asked for (``"indicator"``)."""
    deal_seed: int = 0
    """The deal asked about (``"indicator"``)."""
    named: tuple[Meld, ...] = ()
    """The melds the question names, in its order (``"two-sequences"``; ``"same-suit"``: scored, new)."""

    @property
    def rules(self) -> RuleSet:
        return RuleSet.named(self.rules_name)

    @property
    def key(self) -> tuple[object, ...]:
        """What tells two questions apart."""
        state = self.state
        return (self.kind, self.rules_name, state.deal, tuple(state.moves), state.scores_in, self.move, self.packet)

    def refusal(self) -> IllegalMoveError | None:
        """Push ``move`` on a copy of the position: None if the engine accepts it, else its refusal."""
        assert self.move is not None
        try:
            self.state.copy().push(self.move)
        except IllegalMoveError as err:
            return err
        return None

    def claimed(self) -> HandState:
        """The position after the claim (``"double"``)."""
        after = self.state.copy()
        assert self.move is not None
        after.push(self.move)
        return after

    def deal_refusal(self) -> TartliError | None:
        """None if the engine deals with the trump card asked for, else its refusal (``"indicator"``)."""
        try:
            HandState.from_seed(self.deal_seed, self.rules, indicator_packet=self.packet)
        except TartliError as err:
            return err
        return None

    @property
    def truth(self) -> int | bool:
        """The engine's answer: yes/no, or a player (``"dealer"``)."""
        if self.kind in LEGALITY_KINDS:
            return self.refusal() is None
        if self.kind == "stichmatsch":
            return self.state.stichmatsch is not None  # S2, V9: the engine's finished hand
        if self.kind == "double":
            return max(self.claimed().buli) == 2  # S4, V10: the engine's award for the claim
        if self.kind == "dealer":
            assert self.match is not None
            return self.match.dealer  # D2, V2: the dealer the match chose
        return self.deal_refusal() is None  # V1: the engine deals with that indicator, or refuses


def deal_variant_question(rng: random.Random, kind: str) -> VariantQuestion:
    """A position for a question of ``kind`` under one of the three rule sets, drawn first."""
    if kind not in VARIANT_KINDS:
        raise ValueError(f"choose a question kind among {', '.join(VARIANT_KINDS)}, not {kind!r}")
    rules_name = rng.choice(tuple(RULE_SET_NAMES))
    return _VARIANT_DEALERS[kind](rng, rules_name)


def _deal_with(
    rng: random.Random, first: list[Card], second: list[Card], trump: Suit | None = None, indicator: Card | None = None
) -> Deal:
    """A deal (player 1 deals, so player 0 leads) where player 0 holds ``first`` and player 1 ``second``;
    the rest of each hand, the indicator (of the suit ``trump`` if given) and the talon are drawn at
    random from the other cards."""
    rest = [c for c in CARDS if c not in first and c not in second and c != indicator]
    rng.shuffle(rest)
    if indicator is None:
        indicator = next(c for c in rest if trump is None or c.suit is trump)
        rest.remove(indicator)
    hand0 = first + [rest.pop() for _try in range(9 - len(first))]
    hand1 = second + [rest.pop() for _try in range(9 - len(second))]
    return Deal(dealer=1, hands=(tuple(hand0), tuple(hand1)), indicator=indicator, talon=tuple(rest))


def suit_cards(suit: Suit, ranks: str) -> list[Card]:
    """The cards of ``suit`` with the rank letters ``ranks``: ``suit_cards(Suit.HEARTS, "KO")``."""
    return [Card(Rank(r), suit) for r in ranks]


def _strongest(cards: list[Card], trump: Suit) -> Card:
    return max(cards, key=lambda c: (c.suit is trump, c.strength(trump)))


def _start_of(trick: int) -> Callable[[HandState], bool]:
    """Stop when trick ``trick`` is about to be led."""

    def stop(state: HandState) -> bool:
        return state.trick_number == trick and state.lead is None

    return stop


def _deal_four_nines(rng: random.Random, rules_name: str) -> VariantQuestion:
    rules = RuleSet.named(rules_name)
    nines = [Card(Rank.NINE, s) for s in SUITS]
    state = HandState(_deal_with(rng, nines, []), rules)
    return VariantQuestion("four-nines", rules_name, state, Declare(0, (Meld.parse("vannak:9"),)))


def _deal_two_sequences(rng: random.Random, rules_name: str) -> VariantQuestion:
    rules = RuleSet.named(rules_name)
    if rng.random() < 0.3:  # two sequences in one suit, a card apart
        suit = rng.choice(SUITS)
        first, second = Meld.parse(f"terc:A{suit.value}"), Meld.parse(f"terc:9{suit.value}")
    else:
        a, b = rng.sample(SUITS, 2)
        first = rng.choice([m for m in SEQUENCES if m.suit is a and m.length == 3])
        second = rng.choice([m for m in SEQUENCES if m.suit is b and m.length in (3, 4)])
    held = first.cards() + second.cards()
    state = HandState(_deal_with(rng, held, []), rules)
    return VariantQuestion("two-sequences", rules_name, state, Declare(0, (first, second)), named=(first, second))


def _deal_same_suit(rng: random.Random, rules_name: str) -> VariantQuestion:
    rules = RuleSet.named(rules_name)
    trump = rng.choice(SUITS)
    suit = rng.choice([s for s in SUITS if s is not trump])
    in_suit = [m for m in SEQUENCES if m.suit is suit and m.length <= 5]
    for _try in range(100):
        scored = rng.choice([m for m in in_suit if m.length in (3, 4)])
        new = rng.choice(in_suit)
        lo, hi = scored.top.rank.index, scored.top.rank.index + scored.length - 1
        near = lo - 2 <= new.top.rank.index <= hi + 2
        if new != scored and near and len(set(scored.cards() + new.cards())) <= 7:
            break
    held = [*sorted(set(scored.cards() + new.cards())), Card(Rank.OVER, trump)]
    state = HandState(_deal_with(rng, held, [], indicator=Card(Rank.SEVEN, trump)), rules)
    state.push(Declare(0, (scored,)))
    state.push(Play(0, Card(Rank.OVER, trump)))  # the top trump: player 0 wins trick 1 and leads trick 2
    state.push(Play(1, rng.choice(state.hand(1))))
    return VariantQuestion("same-suit", rules_name, state, Declare(0, (new,)), named=(scored, new))


def _deal_swap_variant(rng: random.Random, rules_name: str) -> VariantQuestion:
    rules = RuleSet.named(rules_name)
    trump = rng.choice(SUITS)
    seven = Card(Rank.SEVEN, trump)
    case = rng.choice(("second", "second", "declared", "leader"))
    if case == "leader":
        return VariantQuestion("swap", rules_name, HandState(_deal_with(rng, [seven], [], trump), rules), Swap(0))
    held = suit_cards(trump, "987") if case == "declared" else [seven]
    others = [c for c in CARDS if c.suit is not trump]
    state = HandState(_deal_with(rng, [rng.choice(others)], held, trump), rules)
    lead = rng.choice([c for c in state.hand(0) if c.suit is not trump])
    state.push(Play(0, lead))
    if case == "declared":
        state.push(Declare(1, (Meld.parse(f"terc:9{trump.value}"),)))
    return VariantQuestion("swap", rules_name, state, Swap(1))


def _deal_bela(rng: random.Random, rules_name: str) -> VariantQuestion:
    rules = RuleSet.named(rules_name)
    trump = rng.choice(SUITS)
    pair = suit_cards(trump, "KO")
    p = rng.randint(0, 1)
    state = HandState(_deal_with(rng, pair if p == 0 else [], pair if p == 1 else [], trump), rules)
    return VariantQuestion("bela", rules_name, state, Bela(p))


def _deal_stichmatsch(rng: random.Random, rules_name: str) -> VariantQuestion:
    rules = RuleSet.named(rules_name)
    want_sweep = rng.random() < 0.7
    state = random_hand(rng, rules)
    for _try in range(300):
        state = random_hand(rng, rules)
        play_randomly(state, rng, lambda s: s.trick_number > PHASE1_TRICKS)
        _play_phase_two(rng, state, sweep=want_sweep)
        phase2 = state.trick_winners[PHASE1_TRICKS:]
        if state.is_over and len(set(phase2)) == 1 and want_sweep:
            break
        if state.is_over and not want_sweep and max(phase2.count(0), phase2.count(1)) >= 7:
            break
    return VariantQuestion("stichmatsch", rules_name, state)


def _play_phase_two(rng: random.Random, state: HandState, *, sweep: bool) -> None:
    """Tricks 8-16: the leader leads their strongest card; the second plays a card that loses
    (if ``sweep``) or one at random. Only choices: the engine decides who wins."""
    while not state.is_over:
        plays = [m for m in state.legal_moves() if isinstance(m, Play)]
        if state.lead is None:
            card = _strongest([m.card for m in plays], state.trump)
            state.push(Play(state.leader, card))
            continue
        losing = [m for m in plays if trick_winner(state.lead, m.card, state.trump) == 0]
        state.push(rng.choice(losing if sweep and losing else plays))


def _deal_double(rng: random.Random, rules_name: str) -> VariantQuestion:
    rules = RuleSet.named(rules_name)
    p = rng.randint(0, 1)
    loser_total = rng.choice((248, 249, 249, 250, 250, 250, 251, 252))
    mine = rng.randint(495, 500) if rng.random() < 0.12 else rng.randint(WINNING_SCORE, 540)
    for _try in range(100):
        probe = random_hand(rng, rules)
        trick = rng.randint(2, 5)
        play_randomly(probe, rng, _start_of(trick))
        gained = probe.totals
        scores = [0, 0]
        scores[p], scores[1 - p] = mine - gained[p], loser_total - gained[1 - p]
        if min(scores) >= 0 and not probe.is_over:
            break
    state = HandState(probe.deal, rules, scores)
    state.push_many(probe.moves)
    return VariantQuestion("double", rules_name, state, GoOut(p))


def _deal_dealer(rng: random.Random, rules_name: str) -> VariantQuestion:
    rules = RuleSet.named(rules_name)
    match = Match(rules, seed=rng.randrange(10**9), first_dealer=rng.randint(0, 1))
    play_randomly(match.state, rng, lambda s: False)
    match.next_hand()
    return VariantQuestion("dealer", rules_name, match.state, match=match)


def _deal_indicator(rng: random.Random, rules_name: str) -> VariantQuestion:
    rules = RuleSet.named(rules_name)
    deal_seed = rng.randrange(10**6)
    packet = rng.choice((1, 2, 3, 4, 5, 5, 6))
    state = HandState.from_seed(deal_seed, rules)
    return VariantQuestion("indicator", rules_name, state, packet=packet, deal_seed=deal_seed)


_VARIANT_DEALERS: dict[str, Callable[[random.Random, str], VariantQuestion]] = {
    "four-nines": _deal_four_nines,
    "two-sequences": _deal_two_sequences,
    "same-suit": _deal_same_suit,
    "swap": _deal_swap_variant,
    "bela": _deal_bela,
    "stichmatsch": _deal_stichmatsch,
    "double": _deal_double,
    "dealer": _deal_dealer,
    "indicator": _deal_indicator,
}


def under_rules(question: VariantQuestion) -> str:
    """The rule set in force, to start a question: "Under the Pais rules"."""
    if question.rules_name == "hungarian":
        return _("Under the Hungarian rules")
    if question.rules_name == "pais":
        return _("Under the Pais rules")
    return _("Under the Austrian rules")


def phase_two_count(state: HandState) -> tuple[int, int]:
    """The player who won more of tricks 8-16, and how many they won."""
    phase2 = state.trick_winners[PHASE1_TRICKS:]
    best = max((0, 1), key=phase2.count)
    return best, phase2.count(best)


def ask_variant(question: VariantQuestion, language: Language) -> str:
    """The question in words, starting with the rule set: "Under the Austrian rules, may you ..."."""
    rules, state, move, kind = under_rules(question), question.state, question.move, question.kind
    if kind == "four-nines":
        return _("{rules}, may you declare four Nines (a Nine-vannak) before leading?").format(rules=rules)
    if kind == "two-sequences":
        first, second = question.named
        return _("{rules}, may you declare the {first_acc} and the {second_acc} together, in this one trick?").format(
            rules=rules, first=first.title(language), second=second.title(language)
        )
    if kind == "same-suit":
        scored, new = question.named
        return _(
            "{rules}: you scored the {scored_cau} in trick 1. May you declare the {new_acc} now, in trick 2?"
        ).format(rules=rules, scored=scored.title(language), new=new.title(language))
    if kind == "swap":
        assert move is not None
        if move.player == 0:
            text = _("{rules}, may you, about to lead trick 1, swap the trump Seven for the trump indicator now?")
        elif state.declared[1]:
            text = _(
                "{rules}: you have led. May the computer, after declaring a terc that holds it, swap the trump "
                "Seven for the indicator now, in the middle of the trick?"
            )
        else:
            text = _(
                "{rules}: you have led. May the computer swap the trump Seven for the indicator now, "
                "in the middle of the trick?"
            )
        return text.format(rules=rules)
    if kind == "bela":
        assert move is not None
        return by_player(
            move.player,
            _(
                "{rules}, may you, holding the King and Over of trumps, score béla right now, "
                "before leading trick 1, as a move of its own?"
            ),
            _(
                "{rules}, may the computer, holding the King and Over of trumps, score béla right now, "
                "before you have led trick 1 (not its turn), as a move of its own?"
            ),
        ).format(rules=rules)
    if kind == "stichmatsch":
        best, count = phase_two_count(state)
        return by_player(
            best,
            _("{rules}: you won {count} of the 9 tricks of phase 2. Do you take all 161 card points (a stichmatsch)?"),
            _(
                "{rules}: the computer won {count} of the 9 tricks of phase 2. "
                "Does the computer take all 161 card points (a stichmatsch)?"
            ),
        ).format(rules=rules, count=count)
    if kind == "double":
        assert move is not None
        p = move.player
        return by_player(
            p,
            _("{rules}: you go out with {mine}; the computer has {theirs}. Is the game won double (maccs)?"),
            _("{rules}: the computer goes out with {mine}; you have {theirs}. Is the game won double (maccs)?"),
        ).format(rules=rules, mine=state.total(p), theirs=state.total(1 - p))
    if kind == "dealer":
        assert question.match is not None
        last = question.match.results[-1]
        gained = [last.meld_points[p] + last.card_points[p] for p in (0, 1)]
        return by_player(
            last.dealer,
            _(
                "{rules}: you dealt the hand just played, in which you scored {yours} and the computer scored "
                "{computers}. Who deals the next hand?"
            ),
            _(
                "{rules}: the computer dealt the hand just played, in which you scored {yours} and the computer "
                "scored {computers}. Who deals the next hand?"
            ),
        ).format(rules=rules, yours=gained[0], computers=gained[1])
    return _(
        "{rules}, may the non-dealer ask for the {nth} card of the pack (the card after packet {packet} of "
        "three) to be turned up as the trump card?"
    ).format(rules=rules, nth=_(ORDINALS[question.packet]), packet=question.packet)


def explain_variant(question: VariantQuestion, language: Language) -> str:
    """Why the answer is what it is under the question's rule set, citing the rules (the engine's refusal
    quoted where it refused)."""
    return _VARIANT_REASONS[question.kind](question, language)


def _refused(question: VariantQuestion) -> str:
    err = question.refusal()
    return _("the engine refuses it: “{reason}”.").format(reason=err) if err is not None else ""


def _why_four_nines(question: VariantQuestion, language: Language) -> str:
    if question.truth:
        return _(
            "four Nines are a set worth 150 in the Hungarian game (M2), and Pais's rule changes only béla. "
            "Only the Austrian rules have no Nine-vannak (V3)."
        )
    then = _("Beck's Austrian game knows no set of four Nines (V3); four Overs, Aces, Tens, Kings and Unders remain.")
    return f"{_refused(question)} {then}"


def _why_two_sequences(question: VariantQuestion, language: Language) -> str:
    if question.truth:
        return _(
            "under the Austrian rules several sequences may be declared in one trick, each in a different suit (V4)."
        )
    if question.rules.several_sequences:
        then = _("Several sequences in one trick are allowed only in different suits (V4).")
    else:
        then = _(
            "The Hungarian rules allow one set and one sequence a trick (M5); "
            "only the Austrian rules allow several sequences, one per suit (V4)."
        )
    return f"{_refused(question)} {then}"


def _why_same_suit(question: VariantQuestion, language: Language) -> str:
    rule = "V5" if question.rules.same_suit_rule == "austrian" else "K7"
    if rule == "V5":
        other = _(
            "The Austrian rule only forbids a new sequence lying wholly inside one already scored in the suit (V5)."
        )
    else:
        other = _(
            "The Hungarian rule (K7) asks more than the Austrian one (V5), which only forbids a new sequence "
            "lying wholly inside one already scored."
        )
    if question.truth:
        return _("the engine accepts it under {rule}. {other}").format(rule=rule, other=other)
    return f"{_refused(question)} {other}"


def _why_swap(question: VariantQuestion, language: Language) -> str:
    swap_any_time = question.rules.swap_any_time
    if question.truth:
        if swap_any_time:
            return _(
                "under the Austrian rules the holder of the trump Seven may swap it at any moment "
                "while the indicator lies out (V7)."
            )
        return _(
            "the player about to lead may swap before declaring or leading (T5); "
            "the Austrian rules allow it at any moment (V7)."
        )
    if swap_any_time:
        then = _(
            "The Austrian swap is open at any moment, but a 7 swapped in a trick may not be "
            "part of a sequence declared in that trick (V7)."
        )
    else:
        then = _("Only the Austrian rules let the holder swap at any moment, even in the middle of a trick (V7).")
    return f"{_refused(question)} {then}"


def _why_bela(question: VariantQuestion, language: Language) -> str:
    if question.truth:
        return _(
            "béla may be declared and scored at any moment of tricks 1-8, also out of turn (B1). Only Pais's "
            "rule keeps it for the declaration, to score at step 7 (B2)."
        )
    then = _("Under Pais's rule béla is declared with the player's other melds and scores at step 7 of the trick (B2).")
    return f"{_refused(question)} {then}"


def _why_stichmatsch(question: VariantQuestion, language: Language) -> str:
    state = question.state
    phase2 = state.trick_winners[PHASE1_TRICKS:]
    if len(set(phase2)) != 1:
        return _(
            "a stichmatsch needs all nine tricks of phase 2 (S2), and here both players won some, "
            "so each keeps their own card points. (The Austrian rules have no stichmatsch at all, V9.)"
        )
    if question.truth:
        return by_player(
            phase2[0],
            _(
                "You won all of tricks 8-16, so you take all 161 card points and the computer none (S2); "
                "only the Austrian rules drop this (V9). The engine ends the hand with {yours} card points "
                "for you and {computers} for the computer."
            ),
            _(
                "The computer won all of tricks 8-16, so the computer takes all 161 card points and you none "
                "(S2); only the Austrian rules drop this (V9). The engine ends the hand with {yours} card "
                "points for you and {computers} for the computer."
            ),
        ).format(yours=state.card_points[0], computers=state.card_points[1])
    return _(
        "the Austrian rules have no stichmatsch (V9): each player keeps the card points of the tricks "
        "they won, here {yours} for you and {computers} for the computer."
    ).format(yours=state.card_points[0], computers=state.card_points[1])


def _why_double(question: VariantQuestion, language: Language) -> str:
    after = question.claimed()
    assert question.move is not None
    p = question.move.player
    q = 1 - p
    mine, theirs = question.state.total(p), question.state.total(q)
    if after.out is not None and not after.out[1]:
        return by_player(
            p,
            _("You have only {points}, under 501: a wrong claim, and the computer wins a single game (S4, V10)."),
            _("The computer has only {points}, under 501: a wrong claim, and you win a single game (S4, V10)."),
        ).format(points=mine)
    if question.rules.single_games:
        verdict = _("below 250, so a double") if theirs < MACCS_LIMIT else _("not below 250, so no double")
        text = by_player(
            q,
            _(
                "the Austrian loser pays double only with less than 250 (V10); you have {points}, {verdict}. "
                "(The Hungarian maccs counts 250 itself, S4.)"
            ),
            _(
                "the Austrian loser pays double only with less than 250 (V10); the computer has {points}, "
                "{verdict}. (The Hungarian maccs counts 250 itself, S4.)"
            ),
        )
        return text.format(points=theirs, verdict=verdict)
    verdict = _("250 or less: a maccs, 2 buli") if theirs <= MACCS_LIMIT else _("more than 250: 1 buli")
    text = by_player(
        q,
        _(
            "the Hungarian maccs needs the loser at 250 or less (S4); you have {points}, {verdict}. "
            "(Under the Austrian rules exactly 250 would not be double, V10.)"
        ),
        _(
            "the Hungarian maccs needs the loser at 250 or less (S4); the computer has {points}, {verdict}. "
            "(Under the Austrian rules exactly 250 would not be double, V10.)"
        ),
    )
    return text.format(points=theirs, verdict=verdict)


def _why_dealer(question: VariantQuestion, language: Language) -> str:
    assert question.match is not None
    last = question.match.results[-1]
    if question.rules.winner_deals:
        return _(
            "under the Austrian rules the winner of a hand deals the next (V2); the engine reads the winner "
            "as the player who scored more in it: {player}."
        ).format(player=who(question.match.dealer, start=False))
    return by_player(
        last.dealer,
        _(
            "the deal alternates (D2): you dealt, so the computer deals next, whoever won. "
            "Only the Austrian rules give the deal to the winner (V2)."
        ),
        _(
            "the deal alternates (D2): the computer dealt, so you deal next, whoever won. "
            "Only the Austrian rules give the deal to the winner (V2)."
        ),
    )


def _why_indicator(question: VariantQuestion, language: Language) -> str:
    err = question.deal_refusal()
    if err is not None:
        return _(
            "the engine refuses to deal so: “{reason}”. The usual trump card is the 19th, after the deal (D1)."
        ).format(reason=err)
    if question.packet == 6:
        return _("the 19th card, right after the two hands, is the usual trump card under every rule set (D1, V1).")
    return _(
        "under the Austrian rules the non-dealer may choose the card after any packet of three: "
        "the 4th, 7th, 10th, 13th, 16th or 19th (V1)."
    )


_VARIANT_REASONS: dict[str, Callable[[VariantQuestion, Language], str]] = {
    "four-nines": _why_four_nines,
    "two-sequences": _why_two_sequences,
    "same-suit": _why_same_suit,
    "swap": _why_swap,
    "bela": _why_bela,
    "stichmatsch": _why_stichmatsch,
    "double": _why_double,
    "dealer": _why_dealer,
    "indicator": _why_indicator,
}


# ---------------------------------------------------------------------------- the history quiz (lesson 12)
# The facts are written down from the project's sources (FACTS.md and the seed documents); the comment beside
# each says where it comes from, and the answer names that source so a learner can read on. History teaches
# no rule, so these questions cite sources instead of rule IDs.
SOURCES = {
    "pagat": N_("John McLeod's Tartli page on pagat.com, based on a contribution by Róbert Kovács"),
    "penguin": N_("The Penguin Book of Card Games (its chapter on Ulti, after John McLeod and Gyula Zsigri)"),
    "tarock": N_("a rules summary of three-player Slovenian Tarock"),
    "wiki": N_("the Hungarian Wikipedia article “Magyar kártya”"),
    "tell": N_("the Hungarian Wikipedia article “Magyar kártya”, steve-p.org (Tell cards) and mistrypress"),
    "seasons": N_("the Hungarian Wikipedia article “Magyar kártya” and wopc.co.uk (Hungarian Seasons pack)"),
}
"""Where the facts come from, in words a learner can look up (in English: translated when shown)."""


@dataclass(frozen=True)
class Fact:
    """One question: the right answer first among ``options``, why, where it comes from, cards to show.

    The texts are in English, the message ids of the catalogs: :meth:`translated` gives them in the
    page's language.
    """

    topic: str
    question: str
    options: tuple[str, ...]
    why: str
    source: str
    cards: str = ""

    def translated(self) -> Fact:
        """The same fact in the page's language (:func:`tartli.i18n.language`); ``source`` stays a key of SOURCES."""
        return Fact(
            _(self.topic), _(self.question), tuple(_(o) for o in self.options), _(self.why), self.source, self.cards
        )


FACTS: tuple[Fact, ...] = (
    # seed 001 (pagat.com, Tartli): Bródy paid partners to play after lunch
    Fact(
        N_("Hungary around 1900"),
        N_("Which Hungarian writer liked Tartli so much that he paid partners to play a game or two after lunch?"),
        (N_("Sándor Bródy"), N_("István Szomaházy"), N_("József Pais"), N_("Gyula Zsigri")),
        N_("Sándor Bródy, a writer of the years around 1900, paid people to sit down to Tartli with him after lunch."),
        "pagat",
    ),
    # seed 001: by the mid-1920s the decline was called "agonizing" by Szomaházy (the source does not say
    # where; his 1926 Pesti Hírlap article is listed apart, among the references)
    Fact(
        N_("Hungary around 1900"),
        N_("Who wrote in the mid-1920s that Tartli was in an “agonizing” decline?"),
        (N_("István Szomaházy"), N_("Sándor Bródy"), N_("Fritz Beck"), N_("Friedrich Schiller")),
        N_(
            "István Szomaházy, who wrote much about card games, called the game's state so by the mid-1920s "
            "(likely in his 1926 article on the life and death of card games, which the source lists apart)."
        ),
        "pagat",
    ),
    # seed 001: Felsős = the Over (felső) is top trump; Alsós = the Under (alsó) is
    Fact(
        N_("The names"),
        N_("Why is Tartli also called Felsős?"),
        (
            N_("Its highest trump is the Over (felső)"),
            N_("Its highest trump is the Under (alsó)"),
            N_("It is played with the Overs removed"),
            N_("The Over of Acorns always leads the first trick"),
        ),
        N_("Felső is the Over. In Tartli the Over is the top trump; in the game called Alsós it is the Under (alsó)."),
        "pagat",
        "OH UH",
    ),
    # seed 001: Alsós, top trump the Under
    Fact(
        N_("The names"),
        N_("In the game called Alsós, which card is the highest trump?"),
        (N_("The Under (alsó)"), N_("The Over (felső)"), N_("The Ace (ász)"), N_("The Nine (kilences)")),
        N_("Alsós is named after the Under (alsó), its top trump, as Felsős (Tartli) is named after the Over."),
        "pagat",
        "UA",
    ),
    # seed 001: class Jass group; unlike most Jass games the Over, not the Under, is top trump
    Fact(
        N_("The Jass family"),
        N_("To which family of card games does Tartli belong?"),
        (N_("The Jass family"), N_("The Tarock family"), N_("The Rummy family"), N_("The Whist family")),
        N_(
            "The Jass family: you take tricks, draw from a talon and score melds. Unlike most games of that family, "
            "Tartli's highest trump is the Over, not the Under."
        ),
        "pagat",
    ),
    # seed 001: related games: Kláber
    Fact(
        N_("The Jass family"),
        N_("Which game does the Pagat page name as related to Tartli?"),
        (N_("Kláber"), N_("Canasta"), N_("Piquet"), N_("Whist")),
        N_("The page classes Tartli in the Jass group and names Kláber as a related game."),
        "pagat",
    ),
    # FACTS.md: Schneider, card painter of Pest (hu.wikipedia; steve-p.org; mistrypress)
    Fact(
        N_("The William Tell pack"),
        N_("Who designed the William Tell pack, and where?"),
        (
            N_("József Schneider, a card painter in Pest"),
            N_("Fritz Beck, in Vienna"),
            N_("Friedrich Schiller, in Weimar"),
            N_("István Szomaházy, in Budapest"),
        ),
        N_("The pack was drawn by József Schneider, a card painter working in Pest."),
        "tell",
        "OA",
    ),
    # FACTS.md: mid-1830s; 1835, 1836 and 1837 are all given (the sources disagree)
    Fact(
        N_("The William Tell pack"),
        N_("When was the William Tell pack first made?"),
        (N_("In the mid-1830s"), N_("Around 1900"), N_("In 1804"), N_("In 1960")),
        N_(
            "In the mid-1830s: the sources give 1835, 1836 or 1837 and do not agree on the year. "
            "(1804 is the year of Schiller's play.)"
        ),
        "tell",
    ),
    # FACTS.md: Over of Acorns = William Tell (hu.wikipedia)
    Fact(
        N_("The William Tell pack"),
        N_("Who is pictured on the Over of Acorns?"),
        (N_("William Tell"), N_("Hermann Gessler"), N_("Rudolf Harras"), N_("Walter Fürst")),
        N_("The Over of Acorns is William Tell himself."),
        "wiki",
        "OA",
    ),
    # FACTS.md: Over of Hearts = Hermann Gessler (hu.wikipedia)
    Fact(
        N_("The William Tell pack"),
        N_("Who is pictured on the Over of Hearts?"),
        (N_("Hermann Gessler"), N_("William Tell"), N_("Stüssi the hunter"), N_("Ulrich Rudenz")),
        N_("The Over of Hearts shows Gessler, the governor of Schiller's play. Makers vary the names a little."),
        "wiki",
        "OH",
    ),
    # FACTS.md: characters from Schiller's Wilhelm Tell (1804)
    Fact(
        N_("The William Tell pack"),
        N_("Whose play gave the Overs and Unders their characters?"),
        (
            N_("Friedrich Schiller's Wilhelm Tell (1804)"),
            N_("Goethe's Faust"),
            N_("Shakespeare's Julius Caesar"),
            N_("Mozart's The Magic Flute"),
        ),
        N_(
            "The Overs and Unders are characters of Schiller's Wilhelm Tell, first staged in 1804; "
            "the Kings are anonymous."
        ),
        "wiki",
        "OA UA OH UH",  # both kinds the question names (issue 36: it showed four Overs)
    ),
    # FACTS.md: Aces show the seasons: Hearts spring (hu.wikipedia; wopc.co.uk)
    Fact(
        N_("The William Tell pack"),
        N_("Which season does the Ace of Hearts show?"),
        (N_("Spring"), N_("Summer"), N_("Autumn"), N_("Winter")),
        N_("The four Aces show the seasons: Hearts spring, Bells summer, Leaves autumn, Acorns winter."),
        "seasons",
        "AH",
    ),
    # FACTS.md: Acorns winter
    Fact(
        N_("The William Tell pack"),
        N_("Which season does the Ace of Acorns show?"),
        (N_("Winter"), N_("Spring"), N_("Summer"), N_("Autumn")),
        N_("The four Aces show the seasons: Hearts spring, Bells summer, Leaves autumn, Acorns winter."),
        "seasons",
        "AA",
    ),
    # FACTS.md: used across the former Austro-Hungarian lands (hu.wikipedia)
    Fact(
        N_("The William Tell pack"),
        N_("Where is the William Tell pack used?"),
        (
            N_("Across the lands of the former Austro-Hungarian monarchy"),
            N_("Only in Switzerland"),
            N_("Only in Budapest"),
            N_("In Spain and Portugal"),
        ),
        N_(
            "It is played across the former Austro-Hungarian lands: Hungary, Austria, Slovenia, Czechia, Slovakia, "
            "Croatia, Transylvania and South Tyrol."
        ),
        "wiki",
    ),
    # seed 001: Austrian Tartl after Fritz Beck, Tartl und Zensa, Perlen Reihe 660, Vienna 1960
    Fact(
        N_("Austria"),
        N_("Which book describes the Austrian Tartl?"),
        (
            N_("Fritz Beck, Tartl und Zensa (Vienna, 1960)"),
            N_("József Pais, Ulti, Tarokk és néhány kis játék (Budapest, 1990)"),
            N_("István Szomaházy, Kártya-Codex (Budapest, 1898)"),
            N_("Gyula Zsigri, 21 válogatott kártyajáték (Szeged, 1993)"),
        ),
        N_("Fritz Beck's Tartl und Zensa, volume 660 of the Perlen Reihe, Vienna 1960."),
        "pagat",
    ),
    # seed 001: the Hungarian rules follow Pais's book
    Fact(
        N_("Sources"),
        N_("The Hungarian rules of this course follow which book?"),
        (
            N_("József Pais, Ulti, Tarokk és néhány kis játék (Budapest, 1990)"),
            N_("Fritz Beck, Tartl und Zensa (Vienna, 1960)"),
            N_("The Penguin Book of Card Games"),
            N_("István Szomaházy, Kártyajátékok élete és halála (1926)"),
        ),
        N_(
            "József Pais's book (Hungaria Sport, Budapest, 1990), except for his béla rule, which the course offers "
            "as an option."
        ),
        "pagat",
    ),
    # seed 001: chalk and slate, signs for 20, 30, 50, 80 and 100
    Fact(
        N_("At the table"),
        N_("How was a game of Tartli traditionally scored?"),
        (
            N_("In chalk on a slate, with signs for 20, 30, 50, 80 and 100"),
            N_("With pegs on a board"),
            N_("With coloured chips"),
            N_("Only in the players' heads"),
        ),
        N_("With chalk on a slate (and a sponge), using signs for 20, 30, 50, 80 and 100."),
        "pagat",
    ),
    # seed 002: Ulti (Talonmarias), 3 players, 32 cards
    Fact(
        N_("Relatives"),
        N_("How many players does Ulti (formerly Talonmarias), Hungary's national card game, take?"),
        (N_("Three"), N_("Two"), N_("Four"), N_("Six")),
        N_("Ulti is a game for three: in each deal the highest bidder plays alone against the other two."),
        "penguin",
    ),
    # seed 002: the ulti bid: win the last trick with the trump 7
    Fact(
        N_("Relatives"),
        N_("In Ulti, what does the bid “ulti” promise?"),
        (
            N_("To win the last trick with the Seven of trumps"),
            N_("To win every trick"),
            N_("To lose every trick"),
            N_("To take at least 100 points"),
        ),
        N_("Ulti, the bid that named the game, undertakes to win the last trick with the lowest trump, the Seven."),
        "penguin",
    ),
    # seed 002: Aces and Tens 10 each, last trick 10: 90 points
    Fact(
        N_("Relatives"),
        N_("In Ulti, which cards count 10 card points each?"),
        (N_("Aces and Tens"), N_("Overs and Nines"), N_("Kings and Overs"), N_("Every picture card")),
        N_("Only Aces and Tens count, 10 each, plus 10 for the last trick: 90 in all, before marriages."),
        "penguin",
    ),
    # seed 004: 54 cards = 32 suited + 22 tarocks
    Fact(
        N_("Relatives"),
        N_("How many cards are in the Slovenian Tarock pack?"),
        ("54", "32", "36", "78"),
        N_("54: 32 suited cards and 22 tarocks."),
        "tarock",
    ),
    # seed 004: card points counted in groups of three
    Fact(
        N_("Relatives"),
        N_("How are card points counted in Slovenian Tarock?"),
        (
            N_("In groups of three cards"),
            N_("Card by card, as in Tartli"),
            N_("Only the tarocks count"),
            N_("By the number of tricks"),
        ),
        N_("Cards are counted in groups of three: the group's values plus one. The whole pack makes 70."),
        "tarock",
    ),
)
"""The facts the quiz asks about (the right answer is the first option), in English: see :meth:`Fact.translated`."""


@dataclass(frozen=True)
class HistoryQuestion:
    """A fact of :data:`FACTS` and the order its options are offered in."""

    fact: Fact
    order: tuple[int, ...]
    """The options' places in ``fact.options`` as offered (the right one, 0, somewhere among them)."""

    @property
    def options(self) -> tuple[str, ...]:
        """The options as offered, in English (the message ids)."""
        return tuple(self.fact.options[i] for i in self.order)


def deal_history_question(rng: random.Random) -> HistoryQuestion:
    """A fact drawn from :data:`FACTS` and its options shuffled."""
    fact = rng.choice(FACTS)
    order = list(range(len(fact.options)))
    rng.shuffle(order)
    return HistoryQuestion(fact, tuple(order))


def explain_history(fact: Fact) -> str:
    """The answer's reason and its source, in the page's language."""
    return _("{why} (Source: {source}.)").format(why=_(fact.why), source=_(SOURCES[fact.source]))
