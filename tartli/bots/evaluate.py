"""The course's one evaluation of a position: the numbers behind the Hint, the review and Try again.

:func:`evaluate` values every move a page offers its player by the hand's final **point
difference**: the player's hand points (melds and card points, béla included) minus the
opponent's at the end of the hand. That is what decides who wins the hand, and it is the same unit
in both phases. The Hint advises its best move, the review grades a decision by its losses, Try
again judges a new try by it: one judgement, so a move the Hint advised is the review's best.

* **Phase 1** (tricks 1-7, :func:`sample_values`): the hidden cards are dealt from the player's
  view only (:class:`~tartli.bots.determinize.Sampler`: consistent with everything the player has
  seen, and with hands that had nothing to declare where the opponent said nothing), from a seed
  made of the position itself (:func:`position_seed`), so the same position is always dealt the
  same; on each deal every move is made and the hand played out by the search's fast policy
  (:func:`~tartli.bots.search.playout`) through the draws, trick 8's declarations and phase 2,
  every move with the same random numbers (common random numbers: the *differences* between moves
  are much less noisy than their values). Each playout keeps a :class:`Line` (what the hand
  brought), from which :mod:`tartli.bots.explain` says why a move lost. A move's ``loss`` is the
  mean, over the deals it was played on, of the best move's result minus its own, with its
  standard error. :class:`Budget` says how many deals, and when a move certainly worse than good
  is dropped. The numbers measure the moves against the fast policy's play of the rest of the
  hand, not against best play: a model, like every evaluation of a hidden-card game.
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

>>> from tartli.game import HandState
>>> state = HandState.from_seed(4)
>>> view = state.view(state.to_move)
>>> found = evaluate(view, Budget(deals=4))
>>> found.best.loss, found.samples, evaluate(view, Budget(deals=4)) == found
(0.0, 4, True)
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import random
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from tartli._checks import bounded, checked, checked_fields, checked_whole, unchecked
from tartli.bots.determinize import Sampler, build_state
from tartli.bots.search import hand_difference, playout_results
from tartli.bots.solver import solve
from tartli.cards import TOTAL_CARD_POINTS, Rank
from tartli.errors import ArgumentError, TartliError, shown
from tartli.game import LAST_MELD_TRICK, PHASE1_TRICKS, HandState, PlayerView, Status
from tartli.melds import Meld
from tartli.moves import Bela, Declare, GoOut, Move, Pass, Play

__all__ = [
    "COURSE",
    "Budget",
    "Evaluation",
    "Line",
    "MoveValue",
    "clear_kept",
    "evaluate",
    "exact_value",
    "exact_values",
    "phase_two_state",
    "playout_lines",
    "position_seed",
    "restrict",
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

    def __post_init__(self) -> None:
        checked_fields(self)


@dataclass(frozen=True, slots=True)
class Line:
    """What one playout of a move brought the player judged: the evaluation's own lines, from which
    a review says why a move lost (:func:`tartli.bots.explain.cause`)."""

    diff: int
    """The final point difference (the player's hand points minus the opponent's)."""
    melds: frozenset[Meld]
    """The sets and sequences the player had scored by the end of the hand (béla aside)."""
    their_melds: frozenset[Meld]
    """The same for the opponent."""
    cards: int
    """The card points the player ended the hand with (the last trick's 10 included)."""
    last: bool
    """The player won the last trick (C5)."""
    sweep: int
    """1: the player made a stichmatsch (S2; there is none under V9); -1: the opponent did; 0: neither."""
    indicator: bool
    """The player drew the trump indicator (lost trick 7, T3)."""

    def __post_init__(self) -> None:
        checked_fields(self)


@dataclass(frozen=True)
class Evaluation:
    """Every move of ``player`` at one position, best first (see the module notes)."""

    player: int
    exact: bool
    samples: int
    """The deals sampled (0 when exact): the most any move was played on."""
    moves: tuple[MoveValue, ...]
    lines: Mapping[Move, tuple[Line, ...]] = field(default_factory=dict, repr=False, compare=False)
    """Phase 1: each move's playouts, deal by deal (the same deals for every move, in order)."""

    def __post_init__(self) -> None:
        checked_fields(self, players=("player",))

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    def of(self, move: Move) -> MoveValue:
        """The value of ``move`` (a :class:`TartliError` if it was not evaluated here)."""
        for value in self.moves:
            if value.move == move:
                return value
        raise TartliError(f"{shown(move)} was not one of the moves judged at this position")


# ----------------------------------------------------------------------------- phase 1


MAX_DEALS = 1000
"""The most deals a phase-1 evaluation may sample (about 8 s on this project's machine; the course
samples 48)."""


@dataclass(frozen=True)
class Budget:
    """How much a phase-1 evaluation samples. The course has one, :data:`COURSE`: the Hint, the
    review and Try again use it, so that they judge a position by the same numbers.

    ``deals`` deals of the hidden cards at most. After ``min_deals``, and every ``batch`` deals
    from then on, a move that is certainly worse than good (``loss - 2 se`` at least ``drop``
    points: an inaccuracy or worse, see :mod:`tartli.bots.review`) is played on no more deals: the
    time goes to the moves that are close. The moves left are played on every deal, so the best
    move is always measured on all of them.

    The course's 48 deals with moves dropped at 11 points: a phase-1 evaluation takes about 0.4 s
    on this project's 2-core machine (64 deals, dropped at 45: about 0.6 s), so a hand's review
    of about 8 phase-1 decisions fits in a few seconds and the Hint in well under one.
    """

    deals: int = 48
    min_deals: int = 16
    batch: int = 8
    drop: float = 11.0

    def __post_init__(self) -> None:
        if type(self.deals) is not int or not 1 <= self.deals <= MAX_DEALS:
            raise ArgumentError(f"deals is a whole number from 1 to {MAX_DEALS:,}, not {shown(self.deals, 30)}")
        checked_whole(self.min_deals, "min_deals", 0, MAX_DEALS)
        checked_whole(self.batch, "batch", 1, MAX_DEALS)
        if type(self.drop) not in (int, float) or math.isnan(self.drop):
            raise ArgumentError(f"drop is a number of points, not {shown(self.drop, 30)}")


COURSE = Budget()
"""The course's one budget for a phase-1 position (see docs/benchmarks.md: the Hint's latency,
a hand's review, the strength of a player who follows the Hint)."""


def position_seed(view: PlayerView) -> int:
    """A number made from everything ``view`` shows (its hand, the table, every event its player saw,
    the moves offered): the same position always gives the same number, on any machine, so it is
    always sampled with the same deals and always gets the same advice."""
    checked(view, PlayerView, "view", "state.view(0)")
    text = repr(view).encode("utf-8")
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def _line(state: HandState, player: int) -> Line:
    """What the finished playout ``state`` brought ``player`` (see :class:`Line`)."""
    other = 1 - player
    winners = state.trick_winners
    scored = state.scored_melds
    sweep = state.stichmatsch  # the engine's own: None where there was none, or under V9
    return unchecked(  # one for each playout: right by construction
        Line,
        diff=hand_difference(state, player),
        melds=frozenset(scored[player]),
        their_melds=frozenset(scored[other]),
        cards=state.card_points[player],
        last=len(winners) == 16 and winners[-1] == player,
        sweep=0 if sweep is None else 1 if sweep == player else -1,
        indicator=len(winners) >= PHASE1_TRICKS and winners[PHASE1_TRICKS - 1] != player,  # T3
    )


def playout_lines(base: HandState, moves: Sequence[Move], player: int, seed: float) -> list[Line]:
    """Each of ``moves`` made from ``base`` and the hand played out by the search's fast policy, every
    move with the same random numbers (:func:`tartli.bots.search.playout_results`): its :class:`Line`."""
    if player not in (0, 1) or isinstance(player, bool):
        raise ArgumentError(f"a player is 0 or 1, not {shown(player, 30)}")
    return playout_results(base, moves, seed, lambda state: _line(state, player))


def _loss(best: Sequence[Line], mine: Sequence[Line]) -> tuple[float, float]:
    """Mean and standard error of the best move's difference minus this move's, over the deals
    both were played on."""
    diffs = [b.diff - m.diff for b, m in zip(best, mine, strict=False)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _won(diff: float) -> float:
    return 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0


def _summarize(player: int, moves: Sequence[Move], lines: dict[Move, list[Line]]) -> Evaluation:
    full = max(len(v) for v in lines.values())
    complete = [m for m in moves if len(lines[m]) == full]
    means = {m: sum(x.diff for x in lines[m]) / len(lines[m]) for m in moves}
    best = max(complete, key=lambda m: means[m])  # the first of equals: the order of ``moves``
    out = []
    for m in moves:
        loss, se = (0.0, 0.0) if m == best else _loss(lines[best], lines[m])
        won = sum(_won(x.diff) for x in lines[m]) / len(lines[m])
        out.append(MoveValue(m, means[m], loss, se, len(lines[m]), won))
    out.sort(key=lambda v: (v.move != best, v.loss, moves.index(v.move)))
    return Evaluation(player, False, full, tuple(out), {m: tuple(v) for m, v in lines.items()})


def sample_values(
    view: PlayerView,
    moves: Sequence[Move] | None = None,
    *,
    budget: Budget = COURSE,
    rng: random.Random | None = None,
) -> Evaluation:
    """Phase 1: every move (default: every legal move of ``view`` but going out) over the deals of
    ``budget`` as ``view``'s player sees them (see the module notes). ``rng`` deals the hidden cards;
    without it the deals come from :func:`position_seed` (what :func:`evaluate` does)."""
    checked(view, PlayerView, "view", "state.view(0)")
    checked(budget, Budget, "budget", "Budget(deals=48)")
    if rng is not None:
        checked(rng, random.Random, "rng", "random.Random(1)")
    if moves is not None:
        moves = cast(list[Move], bounded(moves, "moves"))
        if any(m not in view.legal_moves for m in moves):
            raise ArgumentError("moves: legal moves of the view, and nothing else")
    rng = rng if rng is not None else random.Random(position_seed(view))
    chosen: list[Move] = list(moves) if moves is not None else [m for m in view.legal_moves if not isinstance(m, GoOut)]
    if not chosen:
        raise TartliError("no move to judge: the hand is over or it is not this player's turn")
    sampler = Sampler(view, infer=True)
    return _sampled(view, chosen, budget, rng, lambda r: build_state(view, sampler.sample(r)))


def _sampled(
    view: PlayerView,
    chosen: list[Move],
    budget: Budget,
    rng: random.Random,
    deal: Callable[[random.Random], HandState],
) -> Evaluation:
    """:func:`sample_values` on the whole states ``deal(rng)`` gives, one for each deal of the hidden
    cards (the course's: a sample of what ``view``'s player cannot see; the benchmarks' ceilings,
    :class:`tartli.bots.tournament.ToldHint`: states told what no player can know)."""
    me = view.player
    lines: dict[Move, list[Line]] = {m: [] for m in chosen}
    passing = next((m for m in chosen if isinstance(m, Pass)), None)
    if passing is not None and any(isinstance(m, Play) for m in chosen):
        chosen.remove(passing)  # the same as playing without declaring: judged as the best card below
        del lines[passing]
    active = list(chosen)
    for n in range(1, budget.deals + 1):
        base = deal(rng)
        seed = rng.random()
        for m, line in zip(active, playout_lines(base, active, me, seed), strict=True):
            lines[m].append(line)
        if n >= budget.min_deals and (n - budget.min_deals) % budget.batch == 0 and len(active) > 1:
            found = _summarize(me, active, lines)
            best = found.best.move
            active = [v.move for v in found.moves if v.move == best or v.loss - 2 * v.se < budget.drop]
            active.sort(key=chosen.index)
    found = _summarize(me, chosen, lines)
    if passing is None or passing in chosen:
        return found
    plays = [v for v in found.moves if isinstance(v.move, Play)]
    card = max(plays, key=lambda v: (v.samples == found.samples, v.value))
    judged = sorted(
        (*found.moves, dataclasses.replace(card, move=passing)), key=lambda v: (v.loss, v.move != card.move)
    )
    return Evaluation(
        found.player, False, found.samples, tuple(judged), {**found.lines, passing: found.lines[card.move]}
    )


# ----------------------------------------------------------------------------- phase 2


def phase_two_state(view: PlayerView, rng: random.Random | None = None) -> HandState:
    """The whole state of a phase-2 view: the opponent's hand is every card not seen (the talon is
    empty); an opponent's declaration of this trick still in contest gets melds they hold."""
    checked(view, PlayerView, "view", "state.view(0)")
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
    checked(state, HandState, "state", "HandState.from_seed(1)")
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
    checked(state, HandState, "state", "HandState.from_seed(1)")
    if player not in (0, 1) or isinstance(player, bool):
        raise ArgumentError(f"a player is 0 or 1, not {shown(player, 30)}")
    if state.status is not Status.IN_PROGRESS:
        return hand_difference(state, player)
    best = exact_values(state).best.value
    return int(best) if state.to_move == player else -int(best)


# ----------------------------------------------------------------------------- the one judgement


def restrict(view: PlayerView, offered: Callable[[Move], bool] | None) -> PlayerView:
    """``view`` with only the moves a page offers (a lesson's table before melds has no Declare):
    passing only beside a declaration, since passing is playing a card without declaring. The Hint,
    the review and Try again judge the same restricted view, so they judge the same choice.

    ``offered(move)`` answers True or False (anything else is an :class:`ArgumentError` naming
    ``offered``); an exception it raises passes through unchanged: it is the caller's own."""
    checked(view, PlayerView, "view", "state.view(0)")
    if offered is None:
        return view
    if not callable(offered):
        raise ArgumentError(f"offered is None or a function of a move, not {shown(offered, 30)}")
    legal = tuple(m for m in view.legal_moves if _offers(offered, m))
    if not any(isinstance(m, Declare) for m in legal):
        legal = tuple(m for m in legal if not isinstance(m, Pass))
    if legal == view.legal_moves:
        return view
    return dataclasses.replace(view, legal_moves=legal)


def _offers(offered: Callable[[Move], bool], move: Move) -> bool:
    """``offered(move)``. An exception the function raises is the caller's own and passes through
    unchanged (as one raised by ``sorted``'s ``key`` does); an answer that is not True or False is
    a bad argument."""
    answer = offered(move)
    if answer is True or answer is False:
        return answer
    raise ArgumentError(f"offered must answer True or False, not {shown(answer, 30)} (for {move})")


_CACHE: OrderedDict[tuple[int, Budget], Evaluation] = OrderedDict()
_CACHE_SIZE = 48  # a hand's decisions several times over; a phase-1 evaluation keeps up to ~640 lines


def evaluate(view: PlayerView, budget: Budget = COURSE) -> Evaluation:
    """The course's one evaluation of a position: every move ``view`` offers its player (going out
    aside), judged by the final point difference, best first. The Hint advises its best move, the
    review grades a decision by its losses, Try again judges a new try by it: one judgement.

    Phase 1: :func:`sample_values` on the deals of :func:`position_seed` (the same position always
    gets the same numbers); phase 2: exact (:func:`exact_values`). Béla (B1), when it may be declared,
    is first: declaring it costs nothing (its holder still makes any move they could make without it)
    and holding it back can lose its 40 points, so it gets the best other move's numbers. Evaluations
    are kept (the last 48), so the review of a hand whose Hint was asked reuses its numbers.
    """
    if not isinstance(view, PlayerView):
        raise TartliError("an evaluation needs a player's view (state.view(player))")
    checked(budget, Budget, "budget", "Budget(deals=48)")
    if view.status is not Status.IN_PROGRESS or view.to_move != view.player:
        raise TartliError("no move to judge: the hand is over or it is not this player's turn")
    seed = position_seed(view)
    key = (seed, budget)
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        return found
    moves = [m for m in view.legal_moves if not isinstance(m, GoOut | Bela)]
    bela = next((m for m in view.legal_moves if isinstance(m, Bela)), None)
    if not moves:
        if bela is None:
            raise TartliError("no move to judge: only going out is left")
        found = Evaluation(view.player, True, 0, (MoveValue(bela, 0.0, 0.0, 0.0, 0, 0.5),))
    elif view.trick_number <= PHASE1_TRICKS:
        found = sample_values(view, moves, budget=budget, rng=random.Random(seed))
    else:
        found = _exact_for_view(view, moves, random.Random(seed))
    if bela is not None and moves:
        top = found.best
        found = dataclasses.replace(found, moves=(dataclasses.replace(top, move=bela), *found.moves))
        if found.lines:
            found = dataclasses.replace(found, lines={**found.lines, bela: found.lines[top.move]})
    _CACHE[key] = found
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return found


def clear_kept() -> None:
    """Forget the evaluations kept (benchmarks and tests that must evaluate afresh)."""
    _CACHE.clear()


def _exact_for_view(view: PlayerView, moves: Sequence[Move], rng: random.Random) -> Evaluation:
    """Phase 2 from a view: the whole state (:func:`phase_two_state`), exact values of the moves offered."""
    found = exact_values(phase_two_state(view, rng))
    offered = tuple(v for v in found.moves if v.move in moves)
    if len(offered) == len(found.moves):
        return found
    top = offered[0].value
    rebased = tuple(dataclasses.replace(v, loss=top - v.value) for v in offered)
    return dataclasses.replace(found, moves=rebased)
