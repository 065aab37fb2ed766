"""One hand of Tartli as a state machine (K1): swap, declare, pass, play, béla, going out.

>>> state = HandState.from_seed(7)
>>> state.to_move, state.trick_number, state.phase
(0, 1, <Phase.FIRST: 1>)
>>> move = state.legal_moves()[0]
>>> state.push(move)
>>> len(state.moves)
1

``legal_moves()`` is the one source of truth for what ``to_move`` may do;
``is_legal`` agrees with it for every move, also moves made out of turn (béla,
going out, the Austrian swap), which ``legal_moves(player)`` lists for the other
player. An illegal move raises :class:`IllegalMoveError` naming the RULES.md ID
and leaves the state exactly as it was.
"""

from __future__ import annotations

import enum
import itertools
import random
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from tartli.cards import (
    CARDS,
    LAST_TRICK_BONUS,
    PLAIN_POINTS,
    PLAIN_STRENGTH,
    SUITS,
    TOTAL_CARD_POINTS,
    TRUMP_POINTS,
    TRUMP_STRENGTH,
    Card,
    Rank,
    Suit,
    cards_of,
    mask_of,
    suit_singular,
)
from tartli.errors import IllegalMoveError, InvalidDealError
from tartli.melds import (
    BELA,
    Meld,
    MeldKind,
    bela_mask,
    contest_key,
    may_answer,
    same_suit_ok,
    sequences_in,
    sets_in,
)
from tartli.moves import (
    BELAS,
    OUTS,
    PASSES,
    PLAYS,
    SWAPS,
    Bela,
    Declare,
    GoOut,
    Move,
    Pass,
    Play,
    Swap,
    coerce_move,
)
from tartli.rules import RuleSet

WINNING_SCORE = 501
"""S3: the score to reach."""
MACCS_LIMIT = 250
"""S4: an opponent with 250 or less makes it a maccs (V10: below 250 is a double)."""
PHASE1_TRICKS = 7
LAST_MELD_TRICK = 8
TRICKS = 16

_SUIT_MASKS = tuple(0xFF << (8 * s) for s in range(4))
# _POINTS[trump][card index], _STRENGTH[trump][card index]
_POINTS = tuple(
    tuple((TRUMP_POINTS if i >> 3 == t else PLAIN_POINTS)[i & 7] for i in range(32)) for t in range(4)
)
_STRENGTH = tuple(
    tuple((TRUMP_STRENGTH if i >> 3 == t else PLAIN_STRENGTH)[i & 7] for i in range(32)) for t in range(4)
)
_SEVEN = Rank.SEVEN.index
_NO_MELDS: tuple[Meld, ...] = ()


class Phase(enum.Enum):
    """The two phases of play (T2, T4), and the end."""

    FIRST = 1  #: tricks 1-7: the talon is not empty; any card may be played (T2)
    SECOND = 2  #: tricks 8-16: follow suit, else trump (T4)
    OVER = 3  #: the hand has ended


class Status(enum.Enum):
    """How a hand stands (the ``status`` of a ``tartli-result/1``)."""

    IN_PROGRESS = "in-progress"  #: moves are still due
    FINISHED = "finished"  #: all 16 tricks were played (S1)
    OUT = "out"  #: a player claimed 501 (S3)


@dataclass(frozen=True)
class Deal:
    """The cards of one hand as dealt: two hands of 9, the indicator, the 13-card talon (D1).

    ``talon[0]`` is the top card, drawn first. ``hands[p]`` is player ``p``'s hand.
    """

    dealer: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    indicator: Card
    talon: tuple[Card, ...]

    def __post_init__(self) -> None:
        if self.dealer not in (0, 1) or isinstance(self.dealer, bool):
            raise InvalidDealError(f"D2: the dealer is player 0 or 1, not {self.dealer!r}")
        for p, hand in enumerate(self.hands):
            if len(hand) != 9:
                raise InvalidDealError(f"D1: player {p}'s hand has {len(hand)} cards; a hand is dealt 9")
        if len(self.talon) != 13:
            raise InvalidDealError(
                f"D1: the talon has {len(self.talon)} face-down cards; it must have 13 (14 with the indicator)"
            )
        seen: dict[Card, str] = {}
        places = [(f"player {p}'s hand", c) for p in (0, 1) for c in self.hands[p]]
        places += [("the indicator", self.indicator)] + [("the talon", c) for c in self.talon]
        for where, card in places:
            if not isinstance(card, Card):
                raise InvalidDealError(f"C1: {card!r} in {where} is not a card")
            if card in seen:
                raise InvalidDealError(f"C1: {card.name()} ({card}) is dealt twice: in {seen[card]} and in {where}")
            seen[card] = where
        # 32 distinct cards were counted above, so the pack is whole (C1).

    @property
    def trump(self) -> Suit:
        """The trump suit: the indicator's suit (D1)."""
        return self.indicator.suit

    @classmethod
    def shuffled(cls, rng: random.Random, dealer: int = 1, indicator_packet: int = 6) -> Deal:
        """Shuffle the pack with ``rng`` and deal as D1 says (V1: the indicator after packet 1-6).

        The pack in index order is shuffled by ``rng.shuffle``; packets of three go
        to the non-dealer first, then alternate; the indicator is the card after the
        ``indicator_packet``-th packet (6, the 19th card, by default; V1 allows the
        4th, 7th, 10th, 13th or 16th too); the rest, in order, is the talon.
        """
        if indicator_packet not in range(1, 7):
            raise InvalidDealError("V1: the indicator follows one of the packets 1-6 (the 4th to the 19th card)")
        pack = list(CARDS)
        rng.shuffle(pack)
        hands: tuple[list[Card], list[Card]] = ([], [])
        receiver = 1 - dealer
        pos = 0
        indicator = pack[0]
        for packet in range(1, 7):
            hands[receiver].extend(pack[pos : pos + 3])
            pos += 3
            receiver = 1 - receiver
            if packet == indicator_packet:
                indicator = pack[pos]
                pos += 1
        return cls(dealer, (tuple(hands[0]), tuple(hands[1])), indicator, tuple(pack[pos:]))

    @classmethod
    def from_seed(cls, seed: int, dealer: int = 1, indicator_packet: int = 6) -> Deal:
        """The deal of ``random.Random(seed)``: the same cards on every machine (D1)."""
        return cls.shuffled(random.Random(seed), dealer, indicator_packet)


@dataclass(frozen=True)
class Event:
    """One step of the hand for a log or a lesson to narrate.

    ``say`` is the traditional announcement ("kvart", "vannak", "Good", "Higher here",
    "Acorn-Over-Kvart", "béla"), ``text`` a plain sentence. ``private_to`` is the only
    player allowed to see it (a drawn card), or ``None`` if it is public.
    """

    kind: str
    player: int | None
    text: str
    say: str = ""
    cards: tuple[Card, ...] = ()
    points: int = 0
    trick: int = 0
    private_to: int | None = None


@dataclass(frozen=True)
class PlayerView:
    """What one player may know (RULES.md, notes for the engine): all a bot or widget gets.

    ``opponent_known`` are cards the opponent is known to hold (the indicator they took,
    a card shown under V8, cards of melds they specified and have not played).
    ``opponent_declared`` is what the opponent announced this trick ("kvart", "vannak")
    before it is specified.
    """

    player: int
    rules: RuleSet
    dealer: int
    status: Status
    phase: Phase
    trick_number: int
    leader: int
    to_move: int | None
    trump: Suit
    indicator: Card | None
    hand: tuple[Card, ...]
    opponent_hand_size: int
    opponent_known: tuple[Card, ...]
    talon_size: int
    lead: Card | None
    tricks: tuple[tuple[int, Card, Card, int], ...]
    scores_in: tuple[int, int]
    meld_points: tuple[int, int]
    card_points: tuple[int, int]
    my_declaration: tuple[Meld, ...] | None
    opponent_declared: tuple[str, ...] | None
    scored_melds: tuple[tuple[Meld, ...], tuple[Meld, ...]]
    events: tuple[Event, ...]
    legal_moves: tuple[Move, ...]

    @property
    def totals(self) -> tuple[int, int]:
        """Running scores with melds and completed tricks (S3)."""
        return (
            self.scores_in[0] + self.meld_points[0] + self.card_points[0],
            self.scores_in[1] + self.meld_points[1] + self.card_points[1],
        )

    @property
    def unseen(self) -> tuple[Card, ...]:
        """Cards this player has not seen: in the talon or the opponent's hand, not known."""
        seen = set(self.hand) | set(self.opponent_known)
        for _, lead, second, _ in self.tricks:
            seen.update((lead, second))
        if self.lead is not None:
            seen.add(self.lead)
        if self.indicator is not None:
            seen.add(self.indicator)
        return tuple(c for c in CARDS if c not in seen)


@dataclass
class _Trick:
    """Declarations and cards of the trick under way."""

    declared: list[tuple[Meld, ...] | None] = field(default_factory=lambda: [None, None])
    passed: bool = False
    decided: bool = False
    lead: int = -1  # card index of the lead, -1 before it


class HandState:
    """One hand from the deal to its end: the referee's whole state.

    Give it to nobody but a referee: players get :meth:`view`.
    """

    def __init__(self, deal: Deal, rules: RuleSet | None = None, scores: Sequence[int] = (0, 0)) -> None:
        if len(scores) != 2 or any(type(s) is not int or s < 0 for s in scores):
            raise InvalidDealError("S1: running scores are two whole numbers of 0 or more")
        self.rules = rules or RuleSet()
        self.deal = deal
        self.scores_in: tuple[int, int] = (scores[0], scores[1])
        self._reset()

    # ---------------------------------------------------------------- set-up
    @classmethod
    def from_seed(
        cls,
        seed: int,
        rules: RuleSet | None = None,
        dealer: int = 1,
        scores: Sequence[int] = (0, 0),
        indicator_packet: int = 6,
    ) -> HandState:
        """A new hand dealt from ``random.Random(seed)`` (D1)."""
        return cls(Deal.from_seed(seed, dealer, indicator_packet), rules, scores)

    def _reset(self) -> None:
        deal = self.deal
        self.dealer = deal.dealer
        self.trump: Suit = deal.indicator.suit
        self._t = deal.indicator.suit.index
        self._hands = [mask_of(deal.hands[0]), mask_of(deal.hands[1])]
        self.indicator: Card | None = deal.indicator
        self._talon = list(deal.talon)
        self._drawn = 0
        self.trick_number = 1
        self.leader = 1 - deal.dealer  # D3
        self._trick = _Trick()
        self.meld_points = [0, 0]
        self.card_points = [0, 0]
        self.trick_winners: list[int] = []
        self._tricks: list[tuple[int, int, int, int]] = []  # leader, lead idx, second idx, winner
        self._scored: tuple[list[Meld], list[Meld]] = ([], [])
        self._scored_sets: set[Meld] = set()
        self._bela_done = [False, False]
        self._known = [0, 0]  # cards a player is publicly known to hold
        self.status = Status.IN_PROGRESS
        self.out: tuple[int, bool] | None = None
        self.buli = [0, 0]
        self.stichmatsch: int | None = None
        self.first_scorer: int | None = None
        self.tied = False
        self._both_at_once = False  # B2: one contest lifted both to 501 together
        self.moves: list[Move] = []
        self.events: list[Event] = []
        self._cache: dict[int, list[Move]] = {}

    def copy(self) -> HandState:
        """An independent copy (for bots that look ahead)."""
        other = HandState.__new__(HandState)
        other.__dict__.update(self.__dict__)
        other._hands = list(self._hands)
        other._talon = self._talon  # never mutated: drawing moves a pointer
        other._trick = _Trick(list(self._trick.declared), self._trick.passed, self._trick.decided, self._trick.lead)
        other.meld_points = list(self.meld_points)
        other.card_points = list(self.card_points)
        other.trick_winners = list(self.trick_winners)
        other._tricks = list(self._tricks)
        other._scored = (list(self._scored[0]), list(self._scored[1]))
        other._scored_sets = set(self._scored_sets)
        other._bela_done = list(self._bela_done)
        other._known = list(self._known)
        other.buli = list(self.buli)
        other.moves = list(self.moves)
        other.events = list(self.events)
        other._cache = {}
        return other

    # ---------------------------------------------------------------- reading
    @property
    def phase(self) -> Phase:
        if self.status is not Status.IN_PROGRESS:
            return Phase.OVER
        return Phase.FIRST if self.trick_number <= PHASE1_TRICKS else Phase.SECOND

    @property
    def to_move(self) -> int | None:
        """Whose decision is due: the leader until they play, then the second (RECORD.md)."""
        if self.status is not Status.IN_PROGRESS:
            return None
        return self.leader if self._trick.lead < 0 else 1 - self.leader

    @property
    def is_over(self) -> bool:
        return self.status is not Status.IN_PROGRESS

    def hand(self, player: int) -> list[Card]:
        """The cards ``player`` holds, in index order (referee's knowledge)."""
        return cards_of(self._hands[player])

    @property
    def lead(self) -> Card | None:
        """The card led to the trick under way, if any."""
        return CARDS[self._trick.lead] if self._trick.lead >= 0 else None

    @property
    def talon(self) -> list[Card]:
        """Face-down talon cards still to draw, top first."""
        return self._talon[self._drawn :]

    @property
    def declared(self) -> tuple[tuple[Meld, ...] | None, tuple[Meld, ...] | None]:
        """What each player declared in the trick under way (None: not yet)."""
        d = self._trick.declared
        return d[0], d[1]

    @property
    def scored_melds(self) -> tuple[list[Meld], list[Meld]]:
        """Sets and sequences each player has scored this hand (béla not included)."""
        return list(self._scored[0]), list(self._scored[1])

    @property
    def bela_scored(self) -> tuple[bool, bool]:
        return self._bela_done[0], self._bela_done[1]

    @property
    def tricks(self) -> list[tuple[int, Card, Card, int]]:
        """Completed tricks: (leader, lead card, second card, winner)."""
        return [(ld, CARDS[a], CARDS[b], w) for ld, a, b, w in self._tricks]

    def won_cards(self, player: int) -> list[Card]:
        """Cards in ``player``'s trick pile."""
        out: list[Card] = []
        for _, a, b, w in self._tricks:
            if w == player:
                out += [CARDS[a], CARDS[b]]
        return out

    def total(self, player: int) -> int:
        """Running score + melds + card points of completed tricks (S3; a trick under way never counts)."""
        return self.scores_in[player] + self.meld_points[player] + self.card_points[player]

    @property
    def totals(self) -> tuple[int, int]:
        return self.total(0), self.total(1)

    # ---------------------------------------------------------------- legality
    def _can_out(self, p: int) -> bool:
        if self.status is not Status.IN_PROGRESS:
            return False
        # B2: after one contest lifted both to 501, no claim while the totals are equal.
        return not (self._both_at_once and self.total(0) == self.total(1))

    def _can_bela(self, p: int) -> bool:
        bm = bela_mask(self.trump)
        return (
            not self.rules.bela_at_declaration
            and self.status is Status.IN_PROGRESS
            and self.trick_number <= LAST_MELD_TRICK
            and not self._bela_done[p]
            and self._hands[p] & bm == bm
        )

    def _can_swap(self, p: int) -> bool:
        seven = 1 << (self._t * 8 + _SEVEN)
        if not (
            self.status is Status.IN_PROGRESS
            and self.indicator is not None
            and self.trick_number <= PHASE1_TRICKS
            and self._hands[p] & seven
        ):
            return False
        trick = self._trick
        if not self.rules.swap_any_time:
            # T5: only the leader, before declaring and before leading.
            return p == self.leader and trick.lead < 0 and trick.declared[p] is None
        # V7: at any moment, but not after declaring a sequence with the trump 7 in this trick.
        decl = trick.declared[p]
        return not (decl and any(m.kind is MeldKind.SEQUENCE and m.mask & seven for m in decl))

    def _declare_step(self, p: int) -> bool:
        """Is ``p`` at their declaration step (K1 steps 2 and 4, tricks 1-8)?"""
        trick = self._trick
        if self.status is not Status.IN_PROGRESS or self.trick_number > LAST_MELD_TRICK:
            return False
        if trick.declared[p] is not None:
            return False
        if p == self.leader:
            return trick.lead < 0
        return trick.lead >= 0 and not trick.passed

    def _declarations(self, p: int) -> list[Declare]:
        """Every declaration ``p`` may make now (M4-M7, K3, K6, K7/V5, V3, V4, B2)."""
        if not self._declare_step(p):
            return []
        rules = self.rules
        hand = self._hands[p]
        scored = self._scored[p]
        sets = [m for m in sets_in(hand, rules) if m not in self._scored_sets]
        seqs = [m for m in sequences_in(hand) if same_suit_ok(m, scored, rules)]
        set_choices: list[tuple[Meld, ...]] = [()] + [(m,) for m in sets]
        if rules.several_sequences:
            per_suit: list[list[tuple[Meld, ...]]] = [[()] for _ in range(4)]
            for m in seqs:
                per_suit[m.suit.index].append((m,))  # type: ignore[union-attr]
            seq_choices = [sum(parts, ()) for parts in itertools.product(*per_suit)]
        else:
            seq_choices = [()] + [(m,) for m in seqs]
        bela_choices: list[tuple[Meld, ...]] = [()]
        if rules.bela_at_declaration and not self._bela_done[p]:
            bm = bela_mask(self.trump)
            if hand & bm == bm:
                bela_choices.append((BELA,))
        leader_decl = self._trick.declared[self.leader] if p != self.leader else None
        out: list[Declare] = []
        for a in set_choices:
            for b in seq_choices:
                for c in bela_choices:
                    melds = a + b + c
                    if not melds:
                        continue
                    if leader_decl and not may_answer(leader_decl, melds):
                        continue
                    out.append(Declare(p, melds))
        return out

    def _can_pass(self, p: int) -> bool:
        return p != self.leader and self._declare_step(p)

    def _playable(self, p: int) -> int:
        """Mask of the cards ``p`` may play now (T2, T4), 0 if it is not their turn to play."""
        if self.status is not Status.IN_PROGRESS:
            return 0
        hand = self._hands[p]
        lead = self._trick.lead
        if lead < 0:
            return hand if p == self.leader else 0
        if p == self.leader:
            return 0
        if self.trick_number <= PHASE1_TRICKS:
            return hand
        follow = hand & _SUIT_MASKS[lead >> 3]
        if follow:
            return follow
        trumps = hand & _SUIT_MASKS[self._t]
        return trumps or hand

    def legal_moves(self, player: int | None = None) -> list[Move]:
        """Every legal move of ``player`` (default: ``to_move``), in a stable order.

        For ``to_move`` this is the ``legal`` list of a ``tartli-result/1``; for the
        other player it holds the moves they may make out of turn (B1, S3, V7).
        """
        if player is None:
            player = self.to_move
            if player is None:
                return []
        cached = self._cache.get(player)
        if cached is not None:
            return list(cached)
        moves: list[Move] = []
        if self._can_swap(player):
            moves.append(SWAPS[player])
        if self._can_bela(player):
            moves.append(BELAS[player])
        moves.extend(self._declarations(player))
        if self._can_pass(player):
            moves.append(PASSES[player])
        playable = self._playable(player)
        plays = PLAYS[player]
        while playable:
            low = playable & -playable
            moves.append(plays[low.bit_length() - 1])
            playable ^= low
        if self._can_out(player):
            moves.append(OUTS[player])
        self._cache[player] = moves
        return list(moves)

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` may be made now (in or out of turn)."""
        try:
            return self._why_illegal(coerce_move(move)) is None
        except ValueError:
            return False

    # ---------------------------------------------------------------- explaining
    def _why_illegal(self, move: Move) -> IllegalMoveError | None:
        p = move.player
        if self.status is not Status.IN_PROGRESS:
            if self.status is Status.OUT:
                return IllegalMoveError("S4", "the hand is over: a player went out")
            return IllegalMoveError("S1", "the hand is over: all 16 tricks have been played")
        if isinstance(move, Play):
            if self._playable(p) >> move.card.index & 1:
                return None
            return self._why_not_play(p, move.card)
        if isinstance(move, GoOut):
            if self._can_out(p):
                return None
            return IllegalMoveError(
                "B2", "both reached 501 in the same contest and the totals are equal: "
                "no one may go out until a trick or a meld breaks the tie"
            )
        if isinstance(move, Bela):
            if self._can_bela(p):
                return None
            return self._why_not_bela(p)
        if isinstance(move, Swap):
            if self._can_swap(p):
                return None
            return self._why_not_swap(p)
        if isinstance(move, Pass):
            if self._can_pass(p):
                return None
            if self.trick_number > LAST_MELD_TRICK:
                return IllegalMoveError("M4", "melds are declared only in tricks 1-8, so there is nothing to pass")
            return IllegalMoveError(
                "K1", "only the second player passes, after the lead and before declaring or playing, once a trick"
            )
        if isinstance(move, Declare):
            if move in self._declarations(p):
                return None
            return self._why_not_declare(p, move.melds)
        raise AssertionError(move)  # coerce_move admits nothing else

    def _why_not_play(self, p: int, card: Card) -> IllegalMoveError:
        trick = self._trick
        if trick.lead < 0 and p != self.leader:
            return IllegalMoveError("D3", f"player {self.leader} leads this trick: wait for their card")
        if trick.lead >= 0 and p == self.leader:
            return IllegalMoveError("K1", f"you have led to this trick: player {1 - p} plays next")
        rule = "T2" if self.trick_number <= PHASE1_TRICKS else "T4"
        if not self._hands[p] >> card.index & 1:
            return IllegalMoveError(rule, f"you do not hold the {card.name()} ({card})")
        lead_suit = CARDS[trick.lead].suit
        if self._hands[p] & _SUIT_MASKS[lead_suit.index]:
            return IllegalMoveError(
                "T4", f"you must follow suit: you hold a {suit_singular(lead_suit)}"
            )
        return IllegalMoveError(
            "T4", f"you cannot follow suit, so you must play a trump: you hold a {suit_singular(self.trump)}"
        )

    def _why_not_bela(self, p: int) -> IllegalMoveError:
        if self.rules.bela_at_declaration:
            return IllegalMoveError("B2", "under the Pais rule béla is declared with your other melds: 'declare bela'")
        if self.trick_number > LAST_MELD_TRICK:
            return IllegalMoveError("B1", "béla may be declared only until the second card of trick 8 is played")
        if self._bela_done[p]:
            return IllegalMoveError("B1", "béla scores once a hand, and you have scored it")
        return IllegalMoveError(
            "M3", f"béla is the King and Over of trumps ({self.trump.name_in()}): you must hold both"
        )

    def _why_not_swap(self, p: int) -> IllegalMoveError:
        rule = "V7" if self.rules.swap_any_time else "T5"
        seven = Card(Rank.SEVEN, self.trump)
        if self.indicator is None or self.trick_number > PHASE1_TRICKS:
            return IllegalMoveError(rule, "the indicator has been drawn: there is nothing to swap with")
        if not self._hands[p] & seven.bit:
            return IllegalMoveError(rule, f"only the holder of the trump 7 ({seven}) may swap it for the indicator")
        if self.rules.swap_any_time:
            return IllegalMoveError(
                "V7", "you declared a sequence with the trump 7 in this trick, so you may not swap it now"
            )
        if p != self.leader:
            return IllegalMoveError("T5", "only the player about to lead may swap the trump 7")
        if self._trick.lead >= 0:
            return IllegalMoveError("T5", "the swap comes before leading to the trick")
        return IllegalMoveError("T5", "the swap comes before declaring (K1 step 1)")

    def _why_not_declare(self, p: int, melds: Iterable[Meld]) -> IllegalMoveError:
        melds = tuple(melds)
        rules, trick = self.rules, self._trick
        if self.trick_number > LAST_MELD_TRICK:
            return IllegalMoveError("M4", "melds may be declared only during tricks 1-8")
        if trick.declared[p] is not None:
            return IllegalMoveError("M5", "you have declared in this trick already: one declaration a trick")
        if p == self.leader and trick.lead >= 0:
            return IllegalMoveError("K1", "the leader declares before leading (step 2); you have played")
        if p != self.leader and trick.lead < 0:
            return IllegalMoveError("K1", "the second player declares after the lead (step 4): wait for it")
        if p != self.leader and trick.passed:
            return IllegalMoveError("K1", "you passed in this trick: no declaration after a pass")
        if not melds:
            return IllegalMoveError("K1", "a declaration names at least one meld")
        hand = self._hands[p]
        sets = [m for m in melds if m.kind is MeldKind.SET]
        seqs = [m for m in melds if m.kind is MeldKind.SEQUENCE]
        belas = [m for m in melds if m.kind is MeldKind.BELA]
        if belas and not rules.bela_at_declaration:
            return IllegalMoveError("B1", "béla is not declared with other melds here: make it on its own with 'bela'")
        if len(belas) > 1:
            return IllegalMoveError("M5", "béla is named once")
        if len(sets) > 1:
            return IllegalMoveError("M5", "at most one set may be declared in a trick")
        if len(seqs) > 1:
            if not rules.several_sequences:
                return IllegalMoveError("M5", "at most one sequence may be declared in a trick")
            suits = [m.suit for m in seqs]
            if len(set(suits)) != len(suits):
                return IllegalMoveError("V4", "several sequences in one trick must each be in a different suit")
        for m in (*sets, *seqs):
            if hand & m.mask != m.mask:
                missing = cards_of(m.mask & ~hand)
                return IllegalMoveError(
                    "M7", f"you do not hold the {missing[0].name()}, so you cannot declare {m.title()}"
                )
        if belas:
            bm = bela_mask(self.trump)
            if hand & bm != bm:
                return IllegalMoveError("M3", "béla is the King and Over of trumps: you must hold both")
            if self._bela_done[p]:
                return IllegalMoveError("K6", "béla scores once a hand, and you have scored it")
        for m in sets:
            if m.rank is Rank.NINE and not rules.four_nines:
                return IllegalMoveError("V3", "there is no set of four Nines in the Austrian game")
            if m in self._scored_sets:
                return IllegalMoveError("K6", f"{m.title()} has scored already: a set scores once a hand")
        for m in seqs:
            if m in self._scored[p]:
                return IllegalMoveError("K6", f"{m.title()} has scored already: the same sequence cannot score twice")
            if not same_suit_ok(m, self._scored[p], rules):
                if rules.same_suit_rule == "austrian":
                    return IllegalMoveError(
                        "V5", f"{m.title()} lies inside a sequence you have scored in {m.suit.name_in()}"  # type: ignore[union-attr]
                    )
                return IllegalMoveError(
                    "K7",
                    f"{m.title()} may not follow your scored {suit_singular(m.suit)} sequences: "  # type: ignore[arg-type]
                    "a new one must overlap with a higher top (or the same top and more cards), "
                    "or be separated by a missing card",
                )
        leader_decl = trick.declared[self.leader]
        if p != self.leader and leader_decl and not may_answer(leader_decl, melds):
            said = ", ".join(m.announcement for m in leader_decl)
            return IllegalMoveError(
                "K3", f"the leader announced {said}: you may declare only what could beat it "
                "(a set after a set; after a sequence, a set or a sequence at least as long)"
            )
        return IllegalMoveError("K1", "that declaration is not allowed now")

    # ---------------------------------------------------------------- making moves
    def push(self, move: Move | str) -> None:
        """Make a move (a move object or its record text); refuse it if illegal.

        Raises :class:`InvalidMoveError` for text that is not a move and
        :class:`IllegalMoveError` (naming the rule) for a move the rules forbid;
        in both cases nothing changes.
        """
        move = coerce_move(move)
        error = self._why_illegal(move)
        if error is not None:
            raise error
        self._apply(move)

    def push_many(self, moves: Iterable[Move | str]) -> None:
        for m in moves:
            self.push(m)

    def pop(self) -> Move:
        """Take back the last move (replaying the hand from the deal)."""
        if not self.moves:
            raise IllegalMoveError("K1", "there is no move to take back")
        moves = self.moves[:-1]
        last = self.moves[-1]
        self._reset()
        for m in moves:
            self._apply(m)
        return last

    def _log(self, kind: str, player: int | None, text: str, say: str = "", cards: tuple[Card, ...] = (),
             points: int = 0, private_to: int | None = None) -> None:
        self.events.append(Event(kind, player, text, say, cards, points, self.trick_number, private_to))

    def _apply(self, move: Move) -> None:
        self._cache.clear()
        self.moves.append(move)
        p = move.player
        if type(move) is Play:
            self._play(p, move.card.index)
        elif type(move) is Declare:
            self._declare(p, move.melds)
        elif type(move) is Pass:
            self._trick.passed = True
            self._log("pass", p, f"Player {p} passes.", "pass")
            self._decide()
        elif type(move) is Bela:
            self._bela_done[p] = True
            self._known[p] |= bela_mask(self.trump)
            self._credit(p, BELA.value)
            self._log("bela", p, f"Player {p} declares béla for 40.", "béla", tuple(BELA.cards(self.trump)),
                      BELA.value)
        elif type(move) is Swap:
            self._swap(p)
        elif type(move) is GoOut:
            self._go_out(p)

    def _swap(self, p: int) -> None:
        seven = self._t * 8 + _SEVEN
        assert self.indicator is not None
        taken = self.indicator
        self._hands[p] = self._hands[p] & ~(1 << seven) | (1 << taken.index)
        self._known[p] |= 1 << taken.index
        self.indicator = CARDS[seven]
        self._log("swap", p, f"Player {p} swaps the trump 7 for the {taken.name()}.", "swap", (CARDS[seven], taken))

    def _declare(self, p: int, melds: tuple[Meld, ...]) -> None:
        self._trick.declared[p] = melds
        say = ", ".join(m.announcement for m in melds)
        self._log("declare", p, f"Player {p} declares: {say}.", say)
        if p != self.leader:
            self._decide()

    def _credit(self, p: int, points: int) -> None:
        if points and self.first_scorer is None:
            self.first_scorer = p
        self.meld_points[p] += points

    def _decide(self) -> None:
        """K1 steps 5 and 7: find the best declared item; its owner scores all their melds."""
        trick = self._trick
        if trick.decided:
            return
        trick.decided = True
        leader = self.leader
        second = 1 - leader
        before = self.totals
        lead_decl = trick.declared[leader] or _NO_MELDS
        second_decl = trick.declared[second] or _NO_MELDS
        if self.rules.bela_at_declaration:  # B2: béla scores at step 7 whatever the contest
            for p, decl in ((leader, lead_decl), (second, second_decl)):
                if BELA in decl:
                    self._bela_done[p] = True
                    self._known[p] |= bela_mask(self.trump)
                    self._credit(p, BELA.value)
                    self._log("score", p, f"Player {p} scores béla: 40.", "Béla", tuple(BELA.cards(self.trump)), 40)
            lead_decl = tuple(m for m in lead_decl if m is not BELA)
            second_decl = tuple(m for m in second_decl if m is not BELA)
        winner: int | None = None
        if lead_decl and second_decl:
            t, rules = self.trump, self.rules
            lead_best = max(lead_decl, key=lambda m: contest_key(m, t, rules))
            second_best = max(second_decl, key=lambda m: contest_key(m, t, rules))
            lk, sk = contest_key(lead_best, t, rules), contest_key(second_best, t, rules)
            winner = second if sk > lk else leader
            both_sets = lead_best.kind is MeldKind.SET and second_best.kind is MeldKind.SET
            same_length = (lead_best.kind is MeldKind.SEQUENCE and second_best.kind is MeldKind.SEQUENCE
                           and lead_best.length == second_best.length)
            if both_sets or same_length:  # K4 step 5: only when the announcements did not decide
                assert lead_best.rank is not None
                detail = f"{lead_best.rank.name_in()}-vannak" if both_sets else lead_best.rank.name_in()
                self._log("detail", leader, f"Player {leader} names {detail}.", detail)
                answer = "Higher here" if winner == second else "Good"
                self._log("answer", second, f"Player {second} answers “{answer}”.", answer)
        elif lead_decl:
            winner = leader
        elif second_decl:
            winner = second
        if winner is not None:
            won = lead_decl if winner == leader else second_decl
            for m in won:
                if m.kind is MeldKind.SET:
                    self._scored_sets.add(m)
                self._scored[winner].append(m)
                self._known[winner] |= m.mask
                self._credit(winner, m.value)
                self._log("score", winner, f"Player {winner} scores {m.title()}: {m.value}.", m.title(),
                          tuple(m.cards()), m.value)
        if self.rules.bela_at_declaration and min(before) < WINNING_SCORE <= min(self.totals):
            if max(before) < WINNING_SCORE:
                self._both_at_once = True

    def _play(self, p: int, idx: int) -> None:
        self._hands[p] &= ~(1 << idx)
        self._known[p] &= ~(1 << idx)
        card = CARDS[idx]
        trick = self._trick
        self._log("play", p, f"Player {p} plays the {card.name()}.", str(card), (card,))
        if trick.lead < 0:
            trick.lead = idx
            return
        self._decide()
        lead = trick.lead
        leader = self.leader
        t = self._t
        if idx >> 3 == lead >> 3:
            winner = (1 - leader) if _STRENGTH[t][idx] > _STRENGTH[t][lead] else leader
        elif idx >> 3 == t:
            winner = 1 - leader
        else:
            winner = leader
        points = _POINTS[t][lead] + _POINTS[t][idx]
        self.card_points[winner] += points
        if points and self.first_scorer is None:
            self.first_scorer = winner
        self.trick_winners.append(winner)
        self._tricks.append((leader, lead, idx, winner))
        self._log("trick", winner, f"Player {winner} wins trick {self.trick_number} ({points} points).",
                  "", (CARDS[lead], card), points)
        loser = 1 - winner
        if self.trick_number <= PHASE1_TRICKS:
            top = self._talon[self._drawn]
            self._drawn += 1
            if self.trick_number == PHASE1_TRICKS:
                if self.rules.show_last_talon_card:  # V8
                    self._known[winner] |= 1 << top.index
                    self._log("show", winner, f"Player {winner} shows the {top.name()} before taking it.",
                              str(top), (top,))
                assert self.indicator is not None
                second_card = self.indicator
                self.indicator = None
                self._known[loser] |= 1 << second_card.index
                self._log("draw", loser, f"Player {loser} takes the indicator, the {second_card.name()}.",
                          "", (second_card,))
            else:
                second_card = self._talon[self._drawn]
                self._drawn += 1
                self._log("draw", loser, f"Player {loser} draws a card.", "", (second_card,), private_to=loser)
            self._log("draw", winner, f"Player {winner} draws a card.", "", (top,), private_to=winner)
            self._hands[winner] |= 1 << top.index
            self._hands[loser] |= 1 << second_card.index
        self.leader = winner
        self._trick = _Trick()
        self.trick_number += 1
        if self.trick_number > TRICKS:
            self._finish()

    def _finish(self) -> None:
        """S1, S2, S5 (V9, V10): last trick, stichmatsch, and who wins the buli."""
        last = self.trick_winners[-1]
        self.card_points[last] += LAST_TRICK_BONUS
        phase2 = self.trick_winners[PHASE1_TRICKS:]
        if self.rules.stichmatsch and len(set(phase2)) == 1:
            self.stichmatsch = phase2[0]
            self.card_points[phase2[0]] = TOTAL_CARD_POINTS
            self.card_points[1 - phase2[0]] = 0
            self._log("stichmatsch", phase2[0], f"Player {phase2[0]} won all nine tricks of phase 2: "
                      "stichmatsch, all 161 card points.", "stichmatsch", (), TOTAL_CARD_POINTS)
        self.status = Status.FINISHED
        a, b = self.totals
        self._log("end", None, f"The hand is over: {a} to {b}.", "", (), 0)
        winner: int | None = None
        if a >= WINNING_SCORE and b >= WINNING_SCORE:
            if a == b:
                self.tied = True  # S5: the first to score in the next hand wins
                self._log("tie", None, "Both have reached 501 with equal totals: "
                          "the first to score in the next hand wins the buli.")
            else:
                winner = 0 if a > b else 1
        elif a >= WINNING_SCORE:
            winner = 0
        elif b >= WINNING_SCORE:
            winner = 1
        if winner is not None:
            self._award(winner, self._buli_for(winner))

    def _buli_for(self, winner: int) -> int:
        """S4 maccs / V10 double: 2 if the loser has 250 or less (V10: less than 250)."""
        loser_total = self.total(1 - winner)
        if self.rules.single_games:
            return 2 if loser_total < MACCS_LIMIT else 1
        return 2 if loser_total <= MACCS_LIMIT else 1

    def _award(self, winner: int, points: int) -> None:
        self.buli[winner] += points
        word = {1: "1 buli", 2: "2 buli (maccs)"}[points]
        if self.rules.single_games:
            word = {1: "the game", 2: "the game double"}[points]
        self._log("buli", winner, f"Player {winner} wins {word}.", "maccs" if points == 2 else "buli", (), points)

    def _go_out(self, p: int) -> None:
        """S3, S4, B2: the claim ends the hand at once."""
        mine, theirs = self.total(p), self.total(1 - p)
        self.status = Status.OUT
        if self._both_at_once:
            # B2: a claim by either is valid and the higher total wins 1 buli.
            valid, winner, points = True, (p if mine > theirs else 1 - p), 1
        elif mine >= WINNING_SCORE:
            valid, winner = True, p
            points = self._buli_for(p)
        else:
            valid, winner, points = False, 1 - p, 1  # S4/V10: a wrong claim loses single
        self.out = (p, valid)
        verdict = "correct" if valid else "wrong"
        self._log("out", p, f"Player {p} goes out with {mine}: the claim is {verdict}.", "out", (), mine)
        self._award(winner, points)

    # ---------------------------------------------------------------- views
    def view(self, player: int) -> PlayerView:
        """What ``player`` may know (RULES.md, notes for the engine)."""
        other = 1 - player
        trick = self._trick
        opp_decl = trick.declared[other]
        announced = None if opp_decl is None else tuple(m.announcement for m in opp_decl)
        if opp_decl is not None and self.rules.show_melds and trick.decided:
            announced = tuple(str(m) for m in opp_decl)
        events = tuple(e for e in self.events if e.private_to is None or e.private_to == player)
        return PlayerView(
            player=player,
            rules=self.rules,
            dealer=self.dealer,
            status=self.status,
            phase=self.phase,
            trick_number=self.trick_number,
            leader=self.leader,
            to_move=self.to_move,
            trump=self.trump,
            indicator=self.indicator,
            hand=tuple(cards_of(self._hands[player])),
            opponent_hand_size=bin(self._hands[other]).count("1"),
            opponent_known=tuple(cards_of(self._known[other] & self._hands[other])),
            talon_size=len(self._talon) - self._drawn,
            lead=self.lead,
            tricks=tuple(self.tricks),
            scores_in=self.scores_in,
            meld_points=(self.meld_points[0], self.meld_points[1]),
            card_points=(self.card_points[0], self.card_points[1]),
            my_declaration=trick.declared[player],
            opponent_declared=announced,
            scored_melds=(tuple(self._scored[0]), tuple(self._scored[1])),
            events=events,
            legal_moves=tuple(self.legal_moves(player)),
        )

    def __repr__(self) -> str:
        return (f"<HandState trick {self.trick_number} {self.status.value} "
                f"to_move={self.to_move} totals={self.totals}>")


def all_suits() -> tuple[Suit, ...]:
    return SUITS
