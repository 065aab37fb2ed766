"""The trainers' questions without their widgets: a position dealt from a seed, the engine's answer and
the reason in words.

The trainers (:mod:`tartli.widgets.trainers`) pose these questions on the screen and the worksheets
(:mod:`tartli.worksheets`) print them, so both ask the same questions and judge them the same way.
Nothing here keeps a rule of its own: who wins a trick is :func:`~tartli.game.trick_winner`, card
points :func:`~tartli.game.trick_points`, melds :func:`~tartli.melds.find_melds`, the contest
:func:`~tartli.melds.may_answer` and :func:`~tartli.melds.contest`, same-suit sequences
:func:`~tartli.melds.same_suit_reason`, what may be played ``HandState.legal_moves()``, and going out
the claim pushed on a copy of the state.

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
from tartli.game import ClaimWindow, Deal, HandState, trick_points, trick_winner
from tartli.i18n import _
from tartli.melds import BELA, SEQUENCES, SETS, Meld, MeldKind, contest, find_melds, may_answer, same_suit_reason
from tartli.moves import OUTS, Declare, GoOut, Play
from tartli.names import Language
from tartli.rules import RuleSet

__all__ = [
    "SIDES",
    "ContestQuestion",
    "MeldsQuestion",
    "PointsQuestion",
    "SameSuitQuestion",
    "Side",
    "TrickQuestion",
    "after_moves",
    "announced",
    "claim_truth",
    "deal_claim",
    "deal_contest",
    "deal_melds",
    "deal_play",
    "deal_points",
    "deal_same_suit",
    "deal_trick",
    "explain_claim",
    "explain_contest",
    "explain_play",
    "explain_points",
    "explain_same_suit",
    "explain_trick",
    "into_claim_window",
    "localize",
    "maximal_melds",
    "meld_found_text",
    "order_text",
    "play_randomly",
    "playable",
    "random_hand",
    "rules_for",
    "second_to_play_in",
    "silent_answer_line",
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
                "the {card} wins (the highest trump of all). Both cards are trumps; in that order "
                "({order}) the {rank} ranks above the {other} (C3, T1)."
            )
        elif trumps:
            text = _(
                "the {card} wins. Both cards are trumps; in that order ({order}) the {rank} ranks above the "
                "{other} (C3, T1)."
            )
        else:
            text = _(
                "the {card} wins. Both cards are of the led suit, {suit}, and not trumps; in that order "
                "({order}) the {rank} ranks above the {other} (C4, T1)."
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
            "the {card} wins: it is a trump ({trump}) and the other card is not, "
            "and the highest trump wins the trick (T1)."
        ).format(card=won.name(language), trump=trump.name_in(language))
    return _(
        "the {card} wins: the {other} neither follows the led suit ({suit}) nor is a trump, so the card led wins (T1)."
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
    return _("{meld}, {points} points: {n} {suit} in a row (M1).").format(
        meld=name, points=points, n=meld.length, suit=meld.suit.name_in(language)
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
