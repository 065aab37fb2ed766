"""The exact phase-2 solver (tricks 8-16) and the coach built on it.

Once the talon is empty every card not in a player's hand has been seen, so
phase 2 is a game of perfect information. :func:`solve` searches it exactly:
alpha-beta over the moves T4 allows (follow suit, else trump, else any card),
with a transposition table of bounds keyed by the two hands, the player to lead
and who has won a phase-2 trick so far (its best card is tried first), cards
that are equivalent in the trick order merged, plain suits led before trumps,
each trick's answers searched inside the leader's node (cheapest winner first),
and a cut-off when even all the card points still to play cannot reach the
window. It maximizes the final difference of card
points (C3-C5: the tricks' points and the last-trick 10; S2: stichmatsch gives
all 161 to a player who wins tricks 8-16, unless the rules have V9). Melds are
already decided (trick 8 declarations do not depend on the cards played), so
they add a constant and are left out.

Going out (S3) is not a move of the search: a claim is right exactly when the
player's total is 501 or more, which the bots check before every decision (and
then claim at once), and claiming ends the hand, so it would only change the
objective (winning the game rather than points) for the rare hands where both
run past 501 in phase 2. The search therefore plays for points.

>>> from tartli.game import HandState
>>> from tartli.moves import Play
>>> state = HandState.from_seed(5)
>>> while state.trick_number < 14:
...     state.push(next(m for m in state.legal_moves() if isinstance(m, Play)))
>>> solution = solve(state)
>>> solution.best_moves[0] in state.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tartli._checks import checked, checked_fields
from tartli.bots.heuristic import _phase2_card
from tartli.cards import (
    LAST_TRICK_BONUS,
    PLAIN_POINTS,
    PLAIN_STRENGTH,
    STRENGTH_BY_TRUMP,
    SUIT_MASKS,
    TOTAL_CARD_POINTS,
    TRUMP_POINTS,
    TRUMP_STRENGTH,
    Card,
    Suit,
    indices_of,
    mask_of,
)
from tartli.errors import ArgumentError, shown
from tartli.game import PHASE1_TRICKS, HandState, PlayerView, Status
from tartli.i18n import _, joined, the
from tartli.moves import PLAYS, Play
from tartli.names import Named

__all__ = [
    "PhaseTwoPosition",
    "Solution",
    "against_rules_of_thumb",
    "coach",
    "position_of",
    "solve",
]

_INF = 10_000

# The S2 state after a trick (see _Search): _NEXT_SM[state][winner of the trick]. 0 nobody has won
# a phase-2 trick yet, 1 only player 0, 2 only player 1, 3 both (or no S2).
_NEXT_SM = ((1, 2), (1, 3), (3, 2), (3, 3))


def _between_table(t: int) -> list[list[int]]:
    """between[a][b]: the cards of the suit of ``a`` and ``b`` whose strength lies strictly between theirs."""
    table = [[0] * 32 for _ in range(32)]
    for a in range(32):
        for b in range(32):
            if a >> 3 != b >> 3:
                continue
            sa, sb = STRENGTH_BY_TRUMP[t][a], STRENGTH_BY_TRUMP[t][b]
            lo, hi = min(sa, sb), max(sa, sb)
            table[a][b] = sum(1 << k for k in range(a & ~7, (a & ~7) + 8) if lo < STRENGTH_BY_TRUMP[t][k] < hi)
    return table


_BETWEEN = tuple(_between_table(t) for t in range(4))


@dataclass(frozen=True)
class PhaseTwoPosition:
    """A phase-2 position with both hands known: all the solver needs.

    ``card_points`` are those of completed tricks; ``phase2_winners`` the winners of
    the completed tricks 8-16 (for S2); ``lead`` the card led to the trick under way.
    """

    hands: tuple[int, int]
    trump: Suit
    leader: int
    lead: Card | None
    card_points: tuple[int, int]
    phase2_winners: tuple[int, ...]
    stichmatsch: bool

    def __post_init__(self) -> None:
        checked_fields(self, players=("leader",))

    @property
    def to_move(self) -> int:
        return self.leader if self.lead is None else 1 - self.leader


@dataclass(frozen=True)
class Solution:
    """The exact result of a phase-2 position for ``player`` (the player to move).

    ``value``: the final card-point difference (``player``'s minus the opponent's,
    last trick and stichmatsch included) with best play by both; ``card_points``: the
    card points ``player`` ends with; ``best_moves``: every play that achieves it;
    ``move_values``: the value of each legal play (only filled when asked for).
    """

    player: int
    value: int
    card_points: int
    best_moves: tuple[Play, ...]
    move_values: dict[Play, int]
    stichmatsch: bool
    """True if best play gives ``player`` all the tricks of phase 2 under S2."""
    nodes: int

    def __post_init__(self) -> None:
        checked_fields(self, players=("player",))


def position_of(source: HandState | PlayerView) -> PhaseTwoPosition:
    """The phase-2 position of a state, or of a player's view (the opponent's hand is then what is unseen).

    Raises an :class:`~tartli.errors.ArgumentError` (a ``ValueError``) for anything else and outside
    phase 2 (the talon must be empty and the hand not over).
    """
    if not isinstance(source, HandState | PlayerView):
        raise ArgumentError(f"the solver takes a HandState or a PlayerView, not {shown(source)}")
    if source.status is not Status.IN_PROGRESS or source.trick_number <= PHASE1_TRICKS:
        raise ArgumentError("the solver needs a phase-2 position (tricks 8-16 of a hand in progress)")
    if isinstance(source, PlayerView):
        me = source.player
        if source.talon_size or source.indicator is not None:
            raise ArgumentError("the talon is not empty: the opponent's hand is not known yet")
        mine = mask_of(source.hand)
        theirs = mask_of(source.unseen) | mask_of(source.opponent_known)
        hands = (mine, theirs) if me == 0 else (theirs, mine)
        tricks = source.tricks
        card_points = source.card_points
    else:
        hands = (mask_of(source.hand(0)), mask_of(source.hand(1)))
        tricks = tuple(source.tricks)
        card_points = (source.card_points[0], source.card_points[1])
    return PhaseTwoPosition(
        hands=hands,
        trump=source.trump,
        leader=source.leader,
        lead=source.lead,
        card_points=(card_points[0], card_points[1]),
        phase2_winners=tuple(t[3] for t in tricks[PHASE1_TRICKS:]),
        stichmatsch=source.rules.stichmatsch,
    )


_ANSWER_CACHE: dict[int, tuple[int, ...]] = {}


def _distinct_in_suit(t: int, s: int, sub: int, osub: int) -> tuple[int, ...]:
    """The cards of one suit worth trying (strongest first): of two cards with the same points and
    no card of ``osub`` between them in the trick order, only the first (they are equivalent)."""
    key = (t * 4 + s) << 16 | sub << 8 | osub
    found = _ANSWER_CACHE.get(key)
    if found is not None:
        return found
    table = TRUMP_STRENGTH if s == t else PLAIN_STRENGTH
    pts = TRUMP_POINTS if s == t else PLAIN_POINTS
    ranks = sorted((r for r in range(8) if sub >> r & 1), key=lambda r: -table[r])
    out: list[int] = []
    prev = -1
    for r in ranks:
        if prev >= 0 and pts[prev] == pts[r]:
            lo, hi = table[r], table[prev]
            if not any(osub >> k & 1 and lo < table[k] < hi for k in range(8)):
                continue
        out.append(8 * s + r)
        prev = r
    result = tuple(out)
    _ANSWER_CACHE[key] = result
    return result


class _Search:
    """Alpha-beta over tricks; values are the future card-point difference, player 0 minus player 1.

    One node is a trick to lead: the leader's cards and the second player's answers are
    searched in one function (fewer calls), with a transposition table of bounds keyed by
    the two hands, the leader and the S2 state, the table's best card tried first, and a
    cut-off when even winning every card point still to play cannot reach the window.
    """

    def __init__(self, pos: PhaseTwoPosition) -> None:
        t = pos.trump.index
        self.points = [(TRUMP_POINTS if i >> 3 == t else PLAIN_POINTS)[i & 7] for i in range(32)]
        self.strength = [(TRUMP_STRENGTH if i >> 3 == t else PLAIN_STRENGTH)[i & 7] for i in range(32)]
        self.trump_mask = SUIT_MASKS[t]
        self.t = t
        self.tt: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0
        # beaten_by[c]: the cards that win against a lead of ``c`` (T1).
        self.beaten_by = [sum(1 << d for d in range(32) if d != c and self.beats(c, d)) for c in range(32)]
        # The order of answers to a lead: cheapest winning card first, then the cheapest losers.
        self.answer_rank = [
            [(0 if self.beaten_by[c] >> d & 1 else 1000) + 20 * self.points[d] + self.strength[d] for d in range(32)]
            for c in range(32)
        ]
        # S2 state: 0 nobody has won a phase-2 trick yet, 1 only player 0, 2 only player 1, 3 both (or no S2).
        winners = set(pos.phase2_winners)
        if not pos.stichmatsch or len(winners) == 2:
            sm = 3
        elif not winners:
            sm = 0
        else:
            sm = 1 if 0 in winners else 2
        self.sm = sm
        # Card points still to be won (cards in hands and the lead) and the difference so far.
        remaining = pos.hands[0] | pos.hands[1]
        if pos.lead is not None:
            remaining |= 1 << pos.lead.index
        left = sum(self.points[i] for i in range(32) if remaining >> i & 1) + LAST_TRICK_BONUS
        self.left = left
        so_far = pos.card_points[0] - pos.card_points[1]
        # At the end, if one player won every phase-2 trick, all card points still to be won went
        # to them (so the path is known) and S2 replaces the final difference by +-161: the leaf
        # adds the constant that turns the plain sum into it.
        self.adjust = (
            0,
            TOTAL_CARD_POINTS - (so_far + left),
            -TOTAL_CARD_POINTS - (so_far - left),
            0,
        )
        # Bounds on a node's value given the points still to play (``left``) and the S2 state:
        # player 0 can gain at most ``left`` (more with a stichmatsch still open), and lose at most as much.
        a1, a2 = max(0, self.adjust[1]), min(0, self.adjust[2])
        self.up_extra = (a1, a1, 0, 0)
        self.down_extra = (a2, 0, a2, 0)
        # Leads are tried plain suits first, trumps last, the strongest first in each suit
        # (fewer nodes than trumps first on the benchmark's positions).
        self.order = sorted(range(32), key=lambda i: (i >> 3 == t, -self.strength[i], i))
        self.suit_order = [s for s in range(4) if s != t] + [t]

    def cards(self, mask: int) -> list[int]:
        order = self.order
        return [i for i in order if mask >> i & 1]

    def distinct(self, mask: int, other: int) -> list[int]:
        """The cards of ``mask`` worth trying (plain suits first, strongest first in each suit)."""
        t = self.t
        out: list[int] = []
        for s in self.suit_order:
            sub = mask >> (8 * s) & 255
            if sub:
                out.extend(_distinct_in_suit(t, s, sub, other >> (8 * s) & 255))
        return out

    def follow(self, hand: int, lead: int) -> int:
        """T4: the cards the second player may play to ``lead``."""
        return hand & SUIT_MASKS[lead >> 3] or hand & self.trump_mask or hand

    def beats(self, lead: int, second: int) -> bool:
        """T1: does ``second`` win against ``lead``?"""
        if second >> 3 == lead >> 3:
            return self.strength[second] > self.strength[lead]
        return second >> 3 == self.t

    def value(self, h0: int, h1: int, leader: int, sm: int, alpha: int, beta: int) -> int:
        """Best future difference (player 0 minus player 1) with ``leader`` to lead."""
        if not h0:
            return self.adjust[sm]
        points = self.points
        left = LAST_TRICK_BONUS
        m = h0 | h1
        while m:
            low = m & -m
            left += points[low.bit_length() - 1]
            m ^= low
        return self._value(h0, h1, leader, sm, alpha, beta, left)

    def _value(self, h0: int, h1: int, leader: int, sm: int, alpha: int, beta: int, left: int) -> int:
        if not h0:
            return self.adjust[sm]
        self.nodes += 1
        hi = left + self.up_extra[sm]
        if hi <= alpha:
            return hi
        lo = -left + self.down_extra[sm]
        if lo >= beta:
            return lo
        key = h0 | h1 << 32 | leader << 64 | sm << 65
        entry = self.tt.get(key)
        first = -1
        if entry is not None:
            elo, ehi, first = entry
            if elo >= beta:
                return elo
            if ehi <= alpha:
                return ehi
            if elo == ehi:
                return elo
            if elo > alpha:
                alpha = elo
            if ehi < beta:
                beta = ehi
            lo, hi = max(lo, elo), min(hi, ehi)
        a0, b0 = alpha, beta
        maximize = leader == 0
        lead_hand, other = (h0, h1) if maximize else (h1, h0)
        best = -_INF if maximize else _INF
        best_card = -1
        cards = self.distinct(lead_hand, other)
        if first >= 0 and first in cards:
            cards.remove(first)
            cards.insert(0, first)
        points = self.points
        suit_masks = SUIT_MASKS
        trump_mask = self.trump_mask
        adjust = self.adjust
        next_sm = _NEXT_SM[sm]  # by the trick's winner
        for c in cards:
            bit = 1 << c
            rest = lead_hand & ~bit
            legal = other & suit_masks[c >> 3] or other & trump_mask or other
            c_points = points[c] + (LAST_TRICK_BONUS if not rest else 0)
            beaten = self.beaten_by[c]
            answers = self.distinct(legal, rest | bit)
            if len(answers) > 1:
                answers.sort(key=self.answer_rank[c].__getitem__)
            # The second player answers: they minimize when the leader maximizes.
            v_best = _INF if maximize else -_INF
            for d in answers:
                dbit = 1 << d
                wins = beaten >> d & 1
                gain = c_points + points[d]
                if maximize:
                    n0, n1 = rest, other & ~dbit
                    winner = 1 if wins else 0
                else:
                    n0, n1 = other & ~dbit, rest
                    winner = 0 if wins else 1
                nsm = next_sm[winner]
                if not n0:
                    v = (gain if winner == 0 else -gain) + adjust[nsm]
                elif winner == 0:
                    v = gain + self._value(n0, n1, 0, nsm, alpha - gain, beta - gain, left - gain)
                else:
                    v = -gain + self._value(n0, n1, 1, nsm, alpha + gain, beta + gain, left - gain)
                if maximize:  # the second player (1) minimizes
                    if v < v_best:
                        v_best = v
                        if v <= alpha or v <= best:
                            break  # the leader will not choose this card
                elif v > v_best:
                    v_best = v
                    if v >= beta or v >= best:
                        break
            v = v_best
            if maximize:
                if v > best:
                    best, best_card = v, c
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_card = v, c
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.tt[key] = (lo, hi, best_card)
        return best

    def trick(self, h0: int, h1: int, leader: int, sm: int, c: int, alpha: int, beta: int) -> int:
        """The value once ``leader`` has led card ``c``: the second player answers (the opposite side)."""
        bit = 1 << c
        if leader == 0:
            h0 &= ~bit
            second_hand = h1
        else:
            h1 &= ~bit
            second_hand = h0
        legal = self.follow(second_hand, c)
        last = not (h0 if leader == 0 else h1)
        points = self.points
        c_points = points[c] + (LAST_TRICK_BONUS if last else 0)
        second = 1 - leader
        minimize = second == 1  # the second player is the minimizer when player 1
        rest = h0 if leader == 0 else h1
        answers = self.distinct(legal, rest | bit)
        answers.sort(key=self.answer_rank[c].__getitem__)
        best = _INF if minimize else -_INF
        for d in answers:
            dbit = 1 << d
            n0, n1 = (h0, h1 & ~dbit) if second == 1 else (h0 & ~dbit, h1)
            winner = second if self.beaten_by[c] >> d & 1 else leader
            gain = c_points + points[d]
            nsm = _NEXT_SM[sm][winner]
            if winner == 0:
                v = gain + self.value(n0, n1, 0, nsm, alpha - gain, beta - gain)
            else:
                v = -gain + self.value(n0, n1, 1, nsm, alpha + gain, beta + gain)
            if minimize:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            elif v > best:
                best = v
                if v > alpha:
                    alpha = v
            if alpha >= beta:
                break
        return best


def _root_moves(pos: PhaseTwoPosition, search: _Search) -> list[int]:
    p = pos.to_move
    hand = pos.hands[p]
    if pos.lead is None:
        return search.cards(hand)
    return search.cards(search.follow(hand, pos.lead.index))


def _root_value(pos: PhaseTwoPosition, search: _Search, card: int, alpha: int, beta: int) -> int:
    """Value (player 0 minus player 1, whole hand) of the player to move playing ``card``."""
    h0, h1 = pos.hands
    base = pos.card_points[0] - pos.card_points[1]
    if pos.lead is None:
        return base + search.trick(h0, h1, pos.leader, search.sm, card, alpha - base, beta - base)
    # The lead is on the table: finish the trick with ``card`` and search on.
    lead = pos.lead.index
    second = 1 - pos.leader
    bit = 1 << card
    n0, n1 = (h0 & ~bit, h1) if second == 0 else (h0, h1 & ~bit)
    wins = search.beats(lead, card)
    winner = second if wins else pos.leader
    gain = search.points[lead] + search.points[card] + (LAST_TRICK_BONUS if not (n0 | n1) else 0)
    sm = _NEXT_SM[search.sm][winner]
    signed = gain if winner == 0 else -gain
    return base + signed + search.value(n0, n1, winner, sm, alpha - base - signed, beta - base - signed)


def solve(source: HandState | PlayerView | PhaseTwoPosition, *, all_values: bool = False) -> Solution:
    """Solve a phase-2 position exactly for the player to move.

    ``source`` is a state, the view of the player to move, or a :class:`PhaseTwoPosition`.
    With ``all_values`` every legal play gets its exact value (for a coach);
    otherwise only the best plays are identified (cheaper: null-window tests).
    """
    pos = source if isinstance(source, PhaseTwoPosition) else position_of(source)
    checked(all_values, bool, "all_values")
    search = _Search(pos)
    me = pos.to_move
    sign = 1 if me == 0 else -1
    cards = _root_moves(pos, search)
    values: dict[Play, int] = {}
    best_value = -_INF
    best: list[int] = []
    for card in cards:
        if all_values or not best:
            v = sign * _root_value(pos, search, card, -_INF, _INF)
        else:
            # Is it at least as good as the best so far? A null window around best_value decides.
            if sign == 1:
                raw = _root_value(pos, search, card, best_value - 1, best_value + 1)
            else:
                raw = _root_value(pos, search, card, -best_value - 1, -best_value + 1)
            v = sign * raw
            if v > best_value:  # better: find its exact value
                v = sign * _root_value(pos, search, card, -_INF, _INF)
        if all_values or v >= best_value:
            values[PLAYS[me][card]] = v
        if v > best_value:
            best_value, best = v, [card]
        elif v == best_value:
            best.append(card)
    best.sort()
    mine = (TOTAL_CARD_POINTS + best_value) // 2
    return Solution(
        player=me,
        value=best_value,
        card_points=mine,
        best_moves=tuple(PLAYS[me][c] for c in best),
        move_values=values if all_values else {PLAYS[me][c]: best_value for c in best},
        stichmatsch=pos.stichmatsch and mine == TOTAL_CARD_POINTS and _takes_all(pos, search),
        nodes=search.nodes,
    )


def _takes_all(pos: PhaseTwoPosition, search: _Search) -> bool:
    """Can the player to move win every trick of phase 2 still to play (and has won all so far)?"""
    me = pos.to_move
    if any(w != me for w in pos.phase2_winners):
        return False

    def wins_all(mine: int, theirs: int, leading: bool) -> bool:
        if not mine:
            return True
        if leading:
            return any(
                all(
                    not search.beats(c, d) and wins_all(mine & ~(1 << c), theirs & ~(1 << d), True)
                    for d in indices_of(search.follow(theirs, c))
                )
                for c in indices_of(mine)
            )
        return all(
            any(
                search.beats(c, d) and wins_all(mine & ~(1 << d), theirs & ~(1 << c), True)
                for d in indices_of(search.follow(mine, c))
            )
            for c in indices_of(theirs)
        )

    mine, theirs = pos.hands[me], pos.hands[1 - me]
    if pos.lead is None:
        return wins_all(mine, theirs, True)
    c = pos.lead.index
    return any(
        search.beats(c, d) and wins_all(mine & ~(1 << d), theirs, True) for d in indices_of(search.follow(mine, c))
    )


class _AgainstRulesOfThumb:
    """Player ``me`` plays best while the other plays by the phase-2 rule of thumb
    (:func:`tartli.bots.heuristic.phase2_card`): a one-sided search (only ``me`` branches), with
    a table of the values met. Values are future card-point differences, player 0 minus player 1."""

    def __init__(self, pos: PhaseTwoPosition, me: int) -> None:
        self.search = _Search(pos)
        self.me = me
        self.sign = 1 if me == 0 else -1
        self.memo: dict[int, int] = {}

    def finish(self, h0: int, h1: int, leader: int, sm: int, c: int, d: int) -> int:
        """Both cards of the trick are played (``c`` led by ``leader``; the hands are without them)."""
        search = self.search
        winner = 1 - leader if search.beaten_by[c] >> d & 1 else leader
        gain = search.points[c] + search.points[d] + (LAST_TRICK_BONUS if not (h0 | h1) else 0)
        return (gain if winner == 0 else -gain) + self.value(h0, h1, winner, _NEXT_SM[sm][winner])

    def after_lead(self, h0: int, h1: int, leader: int, sm: int, c: int) -> int:
        """``leader`` has led ``c`` (already out of their hand): the answer, then the rest."""
        second = 1 - leader
        hand, other = (h0, h1) if second == 0 else (h1, h0)
        if second != self.me:
            answers = [_phase2_card(self.search.t, hand, other, c)[0]]
        else:
            answers = indices_of(self.search.follow(hand, c))
        sign = self.sign
        best = -_INF
        for d in answers:
            n0, n1 = (h0 & ~(1 << d), h1) if second == 0 else (h0, h1 & ~(1 << d))
            best = max(best, sign * self.finish(n0, n1, leader, sm, c, d))
        return sign * best

    def value(self, h0: int, h1: int, leader: int, sm: int) -> int:
        """``leader`` to lead the next trick."""
        if not h0 and not h1:
            return self.search.adjust[sm]
        key = h0 | h1 << 32 | leader << 64 | sm << 65
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        hand, other = (h0, h1) if leader == 0 else (h1, h0)
        leads = [_phase2_card(self.search.t, hand, other, -1)[0]] if leader != self.me else indices_of(hand)
        sign = self.sign
        best = -_INF
        for c in leads:
            n0, n1 = (h0 & ~(1 << c), h1) if leader == 0 else (h0, h1 & ~(1 << c))
            best = max(best, sign * self.after_lead(n0, n1, leader, sm, c))
        self.memo[key] = result = sign * best
        return result

    def play(self, pos: PhaseTwoPosition, card: int) -> int:
        """The whole hand's final difference (player 0 minus player 1) once the player to move plays ``card``."""
        h0, h1 = pos.hands
        base = pos.card_points[0] - pos.card_points[1]
        bit = 1 << card
        n0, n1 = (h0 & ~bit, h1) if pos.to_move == 0 else (h0, h1 & ~bit)
        if pos.lead is None:
            return base + self.after_lead(n0, n1, pos.leader, self.search.sm, card)
        return base + self.finish(n0, n1, pos.leader, self.search.sm, pos.lead.index, card)


def against_rules_of_thumb(source: HandState | PlayerView | PhaseTwoPosition) -> dict[Play, int]:
    """For each legal play of the player to move: the final card-point difference (theirs minus
    the opponent's, as :attr:`Solution.value`) if the opponent plays by the phase-2 rule of thumb
    (:func:`tartli.bots.heuristic.phase2_card`) and the player plays best against it.

    This is a model of the opponent, not best play: the search bot only uses it when best play
    cannot win the hand (:meth:`tartli.bots.search.SearchBot.choose_with_reason`), to keep a chance
    that an opponent who plays by the rules of thumb goes wrong.
    """
    pos = source if isinstance(source, PhaseTwoPosition) else position_of(source)
    me = pos.to_move
    search = _AgainstRulesOfThumb(pos, me)
    sign = search.sign
    return {PLAYS[me][card]: sign * search.play(pos, card) for card in _root_moves(pos, search.search)}


def best_play(view: PlayerView) -> Play:
    """The solver's choice for the player to move in phase 2 (lowest card of the best ones)."""
    return solve(view).best_moves[0]


def _names(cards: Sequence[Card]) -> Named:
    """ "the Ace of Hearts, the Ten of Hearts or the King of Hearts", in the page's language (with the
    forms a sentence asks for, ``{cards.acc}``)."""
    return joined([the(c.name()) for c in cards], _("{cards} or {card}"), "cards", "card")


def coach(source: HandState | PlayerView) -> str:
    """The best achievable result of a phase-2 position in words, and which cards achieve it.

    >>> from tartli.game import HandState
    >>> from tartli.moves import Play
    >>> state = HandState.from_seed(5)
    >>> while state.trick_number < 15:
    ...     state.push(next(m for m in state.legal_moves() if isinstance(m, Play)))
    >>> coach(state.view(state.to_move)).startswith(("Best play", "You can take"))
    True
    """
    pos = position_of(source)
    solution = solve(pos, all_values=True)
    leading = pos.lead is None
    cards = _names([m.card for m in solution.best_moves])
    left = bin(pos.hands[pos.to_move]).count("1")
    if solution.stichmatsch:
        if left == 9:
            if leading:
                text = _("You can take all nine tricks (stichmatsch: all {total} card points): lead {cards_acc}.")
            else:
                text = _("You can take all nine tricks (stichmatsch: all {total} card points): play {cards_acc}.")
        elif leading:
            text = _(
                "You can take all {left} remaining tricks (stichmatsch: all {total} card points): lead {cards_acc}."
            )
        else:
            text = _(
                "You can take all {left} remaining tricks (stichmatsch: all {total} card points): play {cards_acc}."
            )
        return text.format(left=left, total=TOTAL_CARD_POINTS, cards=cards)
    worst = min(solution.move_values.values())
    points = solution.card_points
    if worst < solution.value:
        if leading:
            text = _(
                "Best play: lead {cards_acc} (you end with {points} card points; the worst card leaves you {worst})."
            )
        else:
            text = _(
                "Best play: play {cards_acc} (you end with {points} card points; the worst card leaves you {worst})."
            )
    elif leading:
        text = _("Best play: lead {cards_acc} (you end with {points} card points).")
    else:
        text = _("Best play: play {cards_acc} (you end with {points} card points).")
    return text.format(cards=cards, points=points, worst=(TOTAL_CARD_POINTS + worst) // 2)
