"""The search opponent: determinized Monte Carlo (PIMC) in phase 1, the exact solver in phase 2.

In phase 1 the bot samples the hidden cards many times (:mod:`tartli.bots.determinize`:
consistent with everything its view shows, never with the true state), and for each
sample plays every candidate move out to the end of the hand with a fast playout
policy for both players (the same sample and the same random numbers for every
candidate). The move with the best mean final difference of hand points (melds and
card points) is chosen. The budget is a time (``budget_ms``, 120 ms by default) or a
number of samples (``samples``: the same seed then gives the same choices on any
machine). In phase 2 both hands are known and :func:`tartli.bots.solver.solve`
plays the cards exactly; declarations and béla in trick 8 follow the rules of thumb.

>>> from tartli.game import HandState
>>> state = HandState.from_seed(4)
>>> bot = SearchBot(seed=1, samples=4)
>>> bot.choose(state.view(state.to_move)) in state.legal_moves()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from tartli.bots.determinize import build_state, sample
from tartli.bots.heuristic import HeuristicBot
from tartli.bots.solver import solve
from tartli.cards import PLAIN_POINTS, PLAIN_STRENGTH, TRUMP_POINTS, TRUMP_STRENGTH
from tartli.game import PHASE1_TRICKS, WINNING_SCORE, HandState, PlayerView, Status
from tartli.moves import Bela, Declare, GoOut, Move, Pass, Play, Swap

__all__ = ["SearchBot", "playout"]

_SUIT = tuple(0xFF << (8 * s) for s in range(4))
_PTS = tuple(tuple((TRUMP_POINTS if i >> 3 == t else PLAIN_POINTS)[i & 7] for i in range(32)) for t in range(4))
_STR = tuple(tuple((TRUMP_STRENGTH if i >> 3 == t else PLAIN_STRENGTH)[i & 7] for i in range(32)) for t in range(4))
# Phase-1 cost of giving a card up: its points, more for trumps, Overs and Nines (melds).
_KEEP = tuple(
    tuple(_PTS[t][i] + (12 + 3 * _STR[t][i] if i >> 3 == t else 0) + (4 if i & 7 in (2, 5) else 0) for i in range(32))
    for t in range(4)
)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _playout_move(state: HandState, rng: random.Random) -> Move:
    """A fast move for the player to move: swap, béla, the best declaration, then a greedy card."""
    moves = state.legal_moves()
    first = moves[0]
    kind = type(first)
    if kind is Swap or kind is Bela:
        return first
    if kind is Declare:
        best: Move = first
        best_value = -1
        for m in moves:
            if type(m) is not Declare:
                break
            v = sum(x.value for x in m.melds)
            if v > best_value:
                best, best_value = m, v
        return best
    if kind is Pass:
        return first
    p = first.player
    t = state.trump.index
    hand = state._hands[p]
    lead = state._trick.lead
    phase1 = state.trick_number <= PHASE1_TRICKS
    pts, strength = _PTS[t], _STR[t]
    if lead < 0:
        cards = _bits(hand)
        if phase1:
            keep = _KEEP[t]
            card = min(cards, key=lambda i: keep[i] + 6 * rng.random())
        else:
            trumps = hand & _SUIT[t]
            if trumps and rng.random() < 0.5:
                card = max(_bits(trumps), key=strength.__getitem__)
            else:
                card = max(cards, key=lambda i: strength[i] * 2 + pts[i] + 8 * rng.random())
        return _play(p, card)
    legal = hand if phase1 else (hand & _SUIT[lead >> 3] or hand & _SUIT[t] or hand)
    cards = _bits(legal)
    winners = [
        i for i in cards if (i >> 3 == lead >> 3 and strength[i] > strength[lead]) or (i >> 3 == t and lead >> 3 != t)
    ]
    lead_points = pts[lead]
    if winners and (lead_points >= 10 or (not phase1 and lead_points > 0) or rng.random() < 0.15):
        keep = _KEEP[t] if phase1 else pts
        card = min(winners, key=lambda i: keep[i] + (20 if i >> 3 == t and phase1 else 0))
        return _play(p, card)
    keep = _KEEP[t]
    return _play(p, min(cards, key=lambda i: keep[i] + 3 * rng.random()))


def _play(p: int, card: int) -> Move:
    from tartli.moves import PLAYS

    return PLAYS[p][card]


def playout(state: HandState, rng: random.Random) -> None:
    """Play ``state`` to the end of the hand with the fast policy (never going out)."""
    while state.status is Status.IN_PROGRESS:
        state.push(_playout_move(state, rng))


class SearchBot:
    """PIMC in phase 1, the exact solver in phase 2 (see the module notes)."""

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        *,
        budget_ms: float = 120.0,
        samples: int | None = None,
        rng: random.Random | None = None,
        prior: float = 6.0,
    ) -> None:
        self.rng = rng if rng is not None else random.Random(seed)
        self.budget_ms = budget_ms
        self.samples = samples
        self._rules_of_thumb = HeuristicBot()
        self.last_samples = 0
        self.prior = prior

    def choose(self, view: PlayerView) -> Move:
        return self.choose_with_reason(view)[0]

    def choose_with_reason(self, view: PlayerView) -> tuple[Move, str]:
        moves = view.legal_moves
        if not moves:
            raise ValueError("no legal move: the hand is over or it is not this player's turn")
        me = view.player
        claim = next((m for m in moves if isinstance(m, GoOut)), None)
        if claim is not None and view.totals[me] >= WINNING_SCORE:
            return claim, f"You have {view.totals[me]}: claim 501 now (S3)."
        candidates = [m for m in moves if not isinstance(m, GoOut)]
        if not candidates:
            return moves[0], "The only move."
        bela = next((m for m in candidates if isinstance(m, Bela)), None)
        if bela is not None:
            return bela, "Béla always scores 40: take it now."
        if view.to_move != me:
            return self._rules_of_thumb.choose_with_reason(view)
        if view.trick_number > PHASE1_TRICKS:
            plays = [m for m in candidates if isinstance(m, Play)]
            if len(plays) < len(candidates):  # trick 8: declarations (they do not change the card play)
                return self._rules_of_thumb.choose_with_reason(view)
            solution = solve(view)
            move = solution.best_moves[0]
            return move, (
                f"Exact search of the rest of the hand: the {move.card.name()} "
                f"leaves you {solution.card_points} card points with best play on both sides."
            )
        if len(candidates) == 1:
            return candidates[0], "The only move."
        return self._pimc(view, candidates)

    def _pimc(self, view: PlayerView, candidates: Sequence[Move]) -> tuple[Move, str]:
        me = view.player
        totals = [0.0] * len(candidates)
        start = time.perf_counter()
        limit = self.samples
        deadline = start + self.budget_ms / 1000.0
        n = 0
        while True:
            if limit is not None:
                if n >= limit:
                    break
            elif n >= 2 and time.perf_counter() >= deadline:
                break
            world = sample(view, self.rng)
            base = build_state(view, world)
            seed = self.rng.random()
            for k, move in enumerate(candidates):
                state = base.copy()
                state.push(move)
                playout(state, random.Random(seed))
                totals[k] += (state.meld_points[me] + state.card_points[me]) - (
                    state.meld_points[1 - me] + state.card_points[1 - me]
                )
            n += 1
        self.last_samples = n
        means = [x / n for x in totals]
        # The rule of thumb's choice gets a small head start: a noisy estimate must beat it clearly.
        hint = self._rules_of_thumb.choose(view)
        for k, move in enumerate(candidates):
            if move == hint:
                means[k] += self.prior
        order = sorted(range(len(candidates)), key=lambda k: -means[k])
        best = candidates[order[0]]
        margin = means[order[0]] - means[order[1]] if len(order) > 1 else 0.0
        return best, (
            f"{_describe(best)}: over {n} deals of the hidden cards it ends the hand "
            f"{means[order[0]]:+.0f} points on average, {margin:.0f} better than the next choice."
        )


def _describe(move: Move) -> str:
    if isinstance(move, Play):
        return f"Play the {move.card.name()}"
    if isinstance(move, Declare):
        return "Declare " + " and ".join(m.title() for m in move.melds)
    if isinstance(move, Swap):
        return "Swap the trump 7"
    if isinstance(move, Pass):
        return "Pass"
    return str(move)
