"""Benchmark: the exact phase-2 solve from trick 8 (``python -m tartli.bots.bench``).

Deals hands from one seed, plays tricks 1-7 with the rule-of-thumb bot for both
players (declarations included), and times :func:`tartli.bots.solver.solve` on the
position at the start of trick 8 (the leader to lead, both hands of nine known). It
prints the mean, p95 and maximum solve time and the nodes searched; it asserts
nothing about time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tartli.bots.heuristic import HeuristicBot
from tartli.bots.solver import solve
from tartli.game import PHASE1_TRICKS, Deal, HandState
from tartli.rules import RuleSet


def trick8_positions(count: int, seed: int = 1, rules: RuleSet | None = None) -> list[HandState]:
    """Positions at the start of trick 8 reached by the rule-of-thumb bot on both sides."""
    rng = random.Random(seed)
    bot = HeuristicBot()
    out: list[HandState] = []
    while len(out) < count:
        state = HandState(Deal.shuffled(rng, dealer=rng.randrange(2)), rules)
        while not state.is_over and state.trick_number <= PHASE1_TRICKS:
            player = state.to_move
            assert player is not None
            state.push(bot.choose(state.view(player)))
        if not state.is_over:
            out.append(state)
    return out


def run(positions: int = 200, seed: int = 1, rules_name: str = "hungarian") -> dict[str, float]:
    states = trick8_positions(positions, seed, RuleSet.named(rules_name))
    times: list[float] = []
    nodes: list[int] = []
    for state in states:
        start = time.perf_counter()
        solution = solve(state)
        times.append(time.perf_counter() - start)
        nodes.append(solution.nodes)
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    figures = {"mean_ms": 1000 * statistics.fmean(times), "p95_ms": 1000 * p95, "max_ms": 1000 * times[-1]}
    print(
        f"phase-2 exact solve from trick 8: rules={rules_name} positions={len(times)} seed={seed} "
        f"mean={figures['mean_ms']:.1f} ms p95={figures['p95_ms']:.1f} ms max={figures['max_ms']:.1f} ms "
        f"mean nodes={statistics.fmean(nodes):.0f}"
    )
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="hungarian")
    args = parser.parse_args()
    run(args.positions, args.seed, args.rules)
