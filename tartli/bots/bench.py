"""Benchmarks of the bots (``python -m tartli.bots.bench``); they print figures and assert nothing.

* ``--positions N`` (the default): the exact phase-2 solve from trick 8. Deals hands from one
  seed, plays tricks 1-7 with the rule-of-thumb bot for both players (declarations included), and
  times :func:`tartli.bots.solver.solve` on the position at the start of trick 8 (the leader to
  lead, both hands of nine known): the mean, p95 and maximum solve time and the nodes searched.
* ``--hints N``: the Hint's latency on the table. A player who follows the Hint plays N hands
  against the rule of thumb (the Medium computer), seats alternating, and every Hint is timed,
  as a learner pressing *Hint* at each turn would wait for it: mean, p95 and maximum, by phase.
  Each position is evaluated afresh (the evaluations kept from earlier asks are cleared).
* ``--reviews N``: the review of a hand. N hands of a learner who plays by the rules of thumb but
  slips now and then (a random card a third of the time) against the Medium computer, each
  reviewed for that learner with the course's budget (or ``--samples`` deals), nothing kept from
  a Hint: the time of the whole review per hand (mean, p95, max), of its phase-1 decisions, and
  the standard error of a sampled loss (every move but the best found, at every phase-1 decision).
* ``--agreement N``: one judgement. N seat-swapped hands in which one side always follows the Hint
  against the Medium computer; each hand is reviewed for that side, and every decision classed
  worse than best is counted (the goal: none). Then ``--positions`` positions of those hands are
  each given a Hint twice, the kept evaluations cleared in between: how many times the two agree.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tartli.bots.evaluate import COURSE, clear_kept
from tartli.bots.heuristic import HeuristicBot
from tartli.bots.hint import NoHint, hint
from tartli.bots.review import Grade, review
from tartli.bots.solver import solve
from tartli.bots.tournament import checked_run
from tartli.errors import ArgumentError, shown
from tartli.game import PHASE1_TRICKS, Deal, HandState, PlayerView
from tartli.moves import Play
from tartli.rules import RuleSet


def trick8_positions(count: int, seed: int = 1, rules: RuleSet | None = None) -> list[HandState]:
    """Positions at the start of trick 8 reached by the rule-of-thumb bot on both sides."""
    checked_run(seed, count=count)
    if rules is not None and not isinstance(rules, RuleSet):
        raise ArgumentError(f"rules is None or a RuleSet, not {shown(rules, 30)}")
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
    checked_run(seed, positions=positions)
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


def _p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def hint_latency(hands: int = 40, seed: int = 1, rules_name: str = "hungarian") -> dict[str, float]:
    """The Hint's time at every turn of a follower of the Hint against the rule of thumb."""
    checked_run(seed, hands=hands)
    rules = RuleSet.named(rules_name)
    rng = random.Random(seed)
    medium = HeuristicBot()
    times: dict[int, list[float]] = {1: [], 2: []}
    for k in range(hands):
        state = HandState(Deal.shuffled(rng, dealer=k % 2), rules)
        learner = k % 2
        while not state.is_over:
            player = state.to_move
            assert player is not None
            view = state.view(player)
            if player == learner:
                start = time.perf_counter()
                clear_kept()
                move = hint(view).move
                times[1 if state.trick_number <= PHASE1_TRICKS else 2].append(time.perf_counter() - start)
            else:
                move = medium.choose(view)
            state.push(move)
    every = times[1] + times[2]
    figures = {"mean_ms": 1000 * statistics.fmean(every), "p95_ms": 1000 * _p95(every), "max_ms": 1000 * max(every)}
    print(
        f"hint latency: {hands} hands, {len(every)} hints, seed {seed}: mean {figures['mean_ms']:.1f} ms, "
        f"p95 {figures['p95_ms']:.1f} ms, max {figures['max_ms']:.1f} ms"
    )
    for phase in (1, 2):
        print(
            f"  phase {phase}: {len(times[phase])} hints, mean {1000 * statistics.fmean(times[phase]):.1f} ms, "
            f"p95 {1000 * _p95(times[phase]):.1f} ms, max {1000 * max(times[phase]):.1f} ms"
        )
    return figures


def review_time(
    hands: int = 20, seed: int = 1, samples: int | None = None, rules_name: str = "hungarian"
) -> dict[str, float]:
    """The time of the review of a hand (nothing kept from a Hint), and the sampling error of a loss."""
    checked_run(seed, samples=samples, hands=hands)
    rules = RuleSet.named(rules_name)
    rng = random.Random(seed)
    medium = HeuristicBot()
    whole: list[float] = []
    per_hand: list[float] = []
    per_decision: list[float] = []
    errors: list[float] = []
    counts: list[int] = []
    for k in range(hands):
        state = HandState(Deal.shuffled(rng, dealer=k % 2), rules)
        while not state.is_over:
            player = state.to_move
            assert player is not None
            view = state.view(player)
            move = medium.choose(view)
            if player == 0 and rng.random() < 1 / 3:
                plays = [m for m in view.legal_moves if isinstance(m, Play)]
                move = rng.choice(plays) if plays else move
            state.push(move)
        clear_kept()
        found = review(state, 0, samples=samples)
        whole.append(found.seconds)
        first = [d for d in found.decisions if d.phase == 1 and d.samples]
        per_hand.append(found.phase1_seconds)
        counts.append(len(first))
        if first:
            per_decision.append(found.phase1_seconds / len(first))
        errors.extend(found.sampling_errors)
    errors.sort()
    deals = COURSE.deals if samples is None else samples
    figures = {
        "review_mean_s": statistics.fmean(whole),
        "review_p95_s": _p95(whole),
        "review_max_s": max(whole),
        "hand_mean_s": statistics.fmean(per_hand),
        "hand_max_s": max(per_hand),
        "decision_mean_ms": 1000 * statistics.fmean(per_decision),
        "eight_s": 8 * statistics.fmean(per_decision),
        "se_mean": statistics.fmean(errors),
        "se_median": errors[len(errors) // 2],
    }
    print(
        f"review of a hand: {hands} hands, {deals} deals at most a phase-1 decision, seed {seed}: "
        f"mean {figures['review_mean_s']:.2f} s, p95 {figures['review_p95_s']:.2f} s, "
        f"max {figures['review_max_s']:.2f} s"
    )
    print(
        f"  phase 1: "
        f"{statistics.fmean(counts):.1f} decisions a hand, {figures['hand_mean_s']:.2f} s a hand on average "
        f"(max {figures['hand_max_s']:.2f} s), {figures['decision_mean_ms']:.0f} ms a decision "
        f"({figures['eight_s']:.2f} s for 8 decisions)"
    )
    print(
        f"  standard error of a sampled loss ({len(errors)} losses): mean {figures['se_mean']:.1f} points, "
        f"median {figures['se_median']:.1f}, p90 {errors[int(0.9 * len(errors))]:.1f}"
    )
    return figures


def hint_follower_hand(deal: Deal, follower: int, rules: RuleSet, views: list[PlayerView] | None = None) -> HandState:
    """A hand in which ``follower`` always makes the Hint's move and the other seat plays by the rules
    of thumb (the Medium computer); ``views``, if given, receives every view the Hint advised."""
    medium = HeuristicBot()
    state = HandState(deal, rules)
    while not state.is_over:
        player = state.to_move
        assert player is not None
        view = state.view(player)
        move = None
        if player == follower:
            try:
                move = hint(view).move
                if views is not None:
                    views.append(view)
            except NoHint:  # not expected: the player to move always gets a hint
                move = None
        state.push(move if move is not None else medium.choose(view))
    return state


def agreement(hands: int = 200, seed: int = 1, positions: int = 1000, rules_name: str = "hungarian") -> dict[str, int]:
    """One judgement (see the module notes): decisions of a Hint follower the review classes worse
    than best, and Hints asked twice that differ."""
    checked_run(seed, hands=hands, positions=positions)
    rules = RuleSet.named(rules_name)
    rng = random.Random(seed)
    views: list[PlayerView] = []
    decisions = worse = 0
    by_class: dict[str, int] = {}
    for k in range(max(1, hands // 2)):
        deal = Deal.shuffled(rng, dealer=k % 2)
        for follower in (0, 1):
            state = hint_follower_hand(deal, follower, rules, views)
            clear_kept()  # the review computes every number itself, nothing kept from the Hint
            found = review(state, follower)
            for d in found.decisions:
                decisions += 1
                by_class[d.grade.value] = by_class.get(d.grade.value, 0) + 1
                if d.grade is not Grade.BEST:
                    worse += 1
                    print(f"  hand {2 * k + follower}: trick {d.trick} {d.move} classed {d.grade.value}: {d.text}")
    picked = random.Random(seed).sample(views, min(positions, len(views)))
    same = 0
    for view in picked:
        clear_kept()
        first = hint(view).move
        clear_kept()
        same += hint(view).move == first
    print(
        f"agreement: {2 * max(1, hands // 2)} hands following the Hint, {decisions} decisions reviewed: "
        f"{worse} classed worse than best ({', '.join(f'{k} {v}' for k, v in sorted(by_class.items()))})"
    )
    print(f"  the Hint asked twice on {len(picked)} positions: the same move {same} times")
    return {"decisions": decisions, "worse": worse, "positions": len(picked), "same": same}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=None, help="positions (solve: 200; agreement: 1000)")
    parser.add_argument("--hints", type=int, default=0, help="time the Hint over this many hands instead")
    parser.add_argument("--reviews", type=int, default=0, help="time the review of this many hands instead")
    parser.add_argument("--agreement", type=int, default=0, help="review this many hands of a Hint follower instead")
    parser.add_argument("--samples", type=int, default=None, help="with --reviews: deals per phase-1 decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="hungarian")
    args = parser.parse_args()
    if args.agreement:
        agreement(args.agreement, args.seed, 1000 if args.positions is None else args.positions, args.rules)
    elif args.hints:
        hint_latency(args.hints, args.seed, args.rules)
    elif args.reviews:
        review_time(args.reviews, args.seed, args.samples, args.rules)
    else:
        run(200 if args.positions is None else args.positions, args.seed, args.rules)
