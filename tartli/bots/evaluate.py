"""What each move of a position is worth: the numbers behind the Hint and the review.

Both measure a move by the hand's final **point difference**: the player's hand points (melds
and card points, béla included) minus the opponent's at the end of the hand. That is what decides
who wins the hand, and it is the same unit in both phases.

* **Phase 1** (tricks 1-7, :func:`sample_values`): the hidden cards are dealt ``samples`` times
  from the player's view only (:class:`~tartli.bots.determinize.Sampler`: consistent with everything
  the player has seen, and with hands that had nothing to declare where the opponent said nothing,
  as the search bot samples them; the search's weighting of each deal by the opponent's last plays
  is left out, since it leaves only a few deals that count and the sampling error grows), and on
  each deal every move is made and the hand played out by the search's fast policy
  (:func:`~tartli.bots.search.playout_values`), every move with the same deal and the same random
  numbers (common random numbers: the *differences* between moves are much less noisy than their
  values). A move's ``loss`` is the mean, over the deals it was played on, of the best move's
  result minus its own, with its standard error. The numbers measure the moves against the fast
  policy's play of the rest of the hand, not against best play: a model, like every evaluation of
  a hidden-card game.
* **Phase 2** (tricks 8-16, :func:`exact_values`): both hands are known, so the value is exact:
  the solver's card-point difference with best play on both sides (:func:`tartli.bots.solver.solve`)
  plus the meld difference. In trick 8, the last trick for melds (M4), the declarations, the
  pass and béla are searched exactly too, with both players declaring best (a contest outcome
  does not depend on the cards played, so the melds and the cards are added).

Passing (the second player's "nothing to declare", K1) is the same as playing a card without
declaring, so in phase 1 it is not played out: it gets the numbers of the best card (the player
who passes may still play it). Going out (S3) is not valued here: a claim is right or wrong by
the count (the Hint and the review judge it by :meth:`~tartli.game.PlayerView.claim`), so
:data:`GoOut` moves are left out.

>>> import random
>>> from tartli.game import HandState
>>> state = HandState.from_seed(4)
>>> found = sample_values(state.view(state.to_move), samples=4, rng=random.Random(1))
>>> found.best.loss, found.samples
(0.0, 4)
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tartli.bots.determinize import Sampler, build_state
from tartli.bots.search import hand_difference, playout_values
from tartli.bots.solver import solve
from tartli.cards import TOTAL_CARD_POINTS, Rank
from tartli.errors import TartliError
from tartli.game import LAST_MELD_TRICK, PHASE1_TRICKS, HandState, PlayerView, Status
from tartli.moves import Bela, GoOut, Move, Pass, Play

__all__ = [
    "Evaluation",
    "MoveValue",
    "exact_value",
    "exact_values",
    "phase_two_state",
    "sample_values",
]


@dataclass(frozen=True)
class MoveValue:
    """One move of a position, as :func:`sample_values` or :func:`exact_values` judged it.

    ``value``: the expected final point difference (the player's hand points minus the opponent's)
    after this move; ``loss``: the best move's value minus this move's (0 for the best; in phase 1
    measured on the deals both moves were played on); ``se``: the standard error of ``loss`` (0
    when exact); ``samples``: the deals this move was played on (0 when exact); ``won``: the share
    of those deals in which the hand was won, a tie counting half (exact: 1, 0.5 or 0);
    ``card_points``: exact only, the card points the player ends the hand with.
    """

    move: Move
    value: float
    loss: float
    se: float
    samples: int
    won: float
    card_points: int | None = None


@dataclass(frozen=True)
class Evaluation:
    """Every move of ``player`` at one position, best first (see the module notes)."""

    player: int
    exact: bool
    samples: int
    """The deals sampled (0 when exact): the most any move was played on."""
    moves: tuple[MoveValue, ...]

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    def of(self, move: Move) -> MoveValue:
        """The value of ``move`` (a :class:`TartliError` if it was not evaluated here)."""
        for value in self.moves:
            if value.move == move:
                return value
        raise TartliError(f"{move} was not one of the moves judged at this position")


# ----------------------------------------------------------------------------- phase 1


def _weighted_loss(best: list[int], mine: list[int], weights: list[float]) -> tuple[float, float]:
    """Mean and standard error of ``best - mine`` over the deals both were played on (weighted)."""
    n = len(mine)
    w = weights[:n]
    total = sum(w)
    if total <= 0:
        w = [1.0] * n
        total = float(n)
    diffs = [b - m for b, m in zip(best, mine, strict=False)]
    mean = sum(wi * d for wi, d in zip(w, diffs, strict=True)) / total
    if n < 2:
        return mean, 0.0
    # The ratio estimator's variance, with n / (n - 1) so that equal weights give the usual sd / sqrt(n).
    var = sum(wi * wi * (d - mean) ** 2 for wi, d in zip(w, diffs, strict=True)) / (total * total)
    return mean, math.sqrt(var * n / (n - 1))


def _weighted_mean(values: list[int], weights: list[float], key: Callable[[int], float]) -> float:
    w = weights[: len(values)]
    total = sum(w)
    if total <= 0:
        return sum(key(v) for v in values) / max(1, len(values))
    return sum(wi * key(v) for wi, v in zip(w, values, strict=True)) / total


def _won(diff: int) -> float:
    return 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0


def _summarize(player: int, moves: Sequence[Move], values: dict[Move, list[int]], weights: list[float]) -> Evaluation:
    full = len(weights)
    complete = [m for m in moves if len(values[m]) == full]
    means = {m: _weighted_mean(values[m], weights, float) for m in moves}
    best = max(complete, key=lambda m: means[m])  # the first of equals: the order of ``moves``
    out = []
    for m in moves:
        loss, se = (0.0, 0.0) if m == best else _weighted_loss(values[best], values[m], weights)
        out.append(MoveValue(m, means[m], loss, se, len(values[m]), _weighted_mean(values[m], weights, _won)))
    out.sort(key=lambda v: (v.move != best, v.loss))
    return Evaluation(player, False, full, tuple(out))


def sample_values(
    view: PlayerView,
    moves: Sequence[Move] | None = None,
    *,
    samples: int = 48,
    rng: random.Random | None = None,
    min_samples: int = 8,
    settled: Callable[[float, float], bool] | None = None,
    keep: Sequence[Move] = (),
    deadline: float | None = None,
) -> Evaluation:
    """Phase 1: every move (default: every legal move of ``view`` but going out) over ``samples``
    deals of the hidden cards as ``view``'s player sees them (see the module notes).

    With ``settled(loss, se)``, a move whose loss is settled (e.g. its class can no longer change)
    after ``min_samples`` deals is played on no more deals, which leaves the time to the moves that
    are close; the best move and the moves in ``keep`` are played on every deal. ``deadline``
    (a :func:`time.perf_counter` time) stops the sampling early, after ``min_samples`` deals.
    """
    rng = rng if rng is not None else random.Random()
    me = view.player
    chosen: list[Move] = list(moves) if moves is not None else [m for m in view.legal_moves if not isinstance(m, GoOut)]
    if not chosen:
        raise TartliError("no move to judge: the hand is over or it is not this player's turn")
    sampler = Sampler(view, infer=True)
    values: dict[Move, list[int]] = {m: [] for m in chosen}
    weights: list[float] = []
    passing = next((m for m in chosen if isinstance(m, Pass)), None)
    if passing is not None and any(isinstance(m, Play) for m in chosen):
        chosen.remove(passing)  # the same as playing without declaring: judged as the best card below
    active = list(chosen)
    for n in range(1, max(1, samples) + 1):
        world = sampler.sample(rng)
        base = build_state(view, world)
        seed = rng.random()
        for m, v in zip(active, playout_values(base, active, me, seed), strict=True):
            values[m].append(v)
        weights.append(world.weight)
        if n >= min_samples and deadline is not None and time.perf_counter() >= deadline:
            break
        if settled is not None and n >= min_samples and n % 4 == 0 and len(active) > 1:
            found = _summarize(me, active, values, weights)
            best = found.best.move
            active = [v.move for v in found.moves if v.move == best or v.move in keep or not settled(v.loss, v.se)]
            active.sort(key=chosen.index)
    found = _summarize(me, chosen, values, weights)
    if passing is None or passing in chosen:
        return found
    plays = [v for v in found.moves if isinstance(v.move, Play)]
    card = max(plays, key=lambda v: (v.samples == found.samples, v.value))
    judged = sorted(
        (*found.moves, dataclasses.replace(card, move=passing)), key=lambda v: (v.loss, v.move != card.move)
    )
    return Evaluation(found.player, False, found.samples, tuple(judged))


# ----------------------------------------------------------------------------- phase 2


def phase_two_state(view: PlayerView, rng: random.Random | None = None) -> HandState:
    """The whole state of a phase-2 view: the opponent's hand is every card not seen (the talon is
    empty); an opponent's declaration of this trick still in contest gets melds they hold."""
    if view.status is not Status.IN_PROGRESS or view.trick_number <= PHASE1_TRICKS:
        raise TartliError("a phase-2 position is needed (tricks 8-16 of a hand in progress)")
    world = Sampler(view, infer=False).sample(rng if rng is not None else random.Random(0))
    return build_state(view, world)


def _stop(state: HandState, moves: Sequence[Move]) -> Move:
    """A card that ends the player's declaration step without breaking béla (any card would do
    for the melds; a King or Over of trumps is kept back if another card is legal)."""
    plays = [m for m in moves if isinstance(m, Play)]
    keep = [m for m in plays if not (m.card.suit is state.trump and m.card.rank in (Rank.KING, Rank.OVER))]
    return (keep or plays)[0]


def _after(state: HandState, move: Move) -> HandState:
    """``state`` after ``move``; a leader who leads in trick 8 still holding béla declares it out of
    turn before the second card (B1): that costs them nothing and nobody would leave it."""
    nxt = state.copy()
    nxt.push(move)
    if isinstance(move, Play) and nxt.trick_number == state.trick_number and nxt.status is Status.IN_PROGRESS:
        bela = next((m for m in nxt.legal_moves(move.player) if isinstance(m, Bela)), None)
        if bela is not None:
            nxt.push(bela)
    return nxt


def _melds(state: HandState, me: int) -> int:
    """The meld difference for ``me`` once trick 8's declarations are over, both declaring best."""
    if state.trick_number > LAST_MELD_TRICK or state.status is not Status.IN_PROGRESS:
        return state.meld_points[me] - state.meld_points[1 - me]
    moves = state.legal_moves()
    options: list[Move] = [m for m in moves if not isinstance(m, Play | GoOut)]
    options.append(_stop(state, moves))
    results = [_melds(_after(state, m), me) for m in options]
    return max(results) if state.to_move == me else min(results)


def exact_values(state: HandState) -> Evaluation:
    """Phase 2: the exact value of every move of the player to move (going out left out), with
    best play on both sides from there (see the module notes). ``state`` is the whole state (for a
    player's view, :func:`phase_two_state`)."""
    if state.status is not Status.IN_PROGRESS or state.trick_number <= PHASE1_TRICKS:
        raise TartliError("a phase-2 position is needed (tricks 8-16 of a hand in progress)")
    me = state.to_move
    assert me is not None
    solution = solve(state, all_values=True)
    cards = solution.move_values
    top = solution.value
    moves: list[Move] = [m for m in state.legal_moves() if not isinstance(m, GoOut)]
    fixed = state.meld_points[me] - state.meld_points[1 - me]
    values: dict[Move, tuple[int, int]] = {}
    for m in moves:
        card = cards[m] if isinstance(m, Play) else top
        meld = fixed if state.trick_number > LAST_MELD_TRICK else _melds(_after(state, m), me)
        values[m] = (meld + card, card)
    best = max(v for v, _c in values.values())
    out = [
        MoveValue(m, float(v), float(best - v), 0.0, 0, _won(v), (TOTAL_CARD_POINTS + c) // 2)
        for m, (v, c) in values.items()
    ]
    out.sort(key=lambda x: (x.loss, moves.index(x.move)))
    return Evaluation(me, True, 0, tuple(out))


def exact_value(state: HandState, player: int) -> int:
    """The final point difference for ``player`` of a phase-2 position with best play on both
    sides (a hand that is over: its actual difference)."""
    if state.status is not Status.IN_PROGRESS:
        return hand_difference(state, player)
    best = exact_values(state).best.value
    return int(best) if state.to_move == player else -int(best)
