"""Benchmark: whole random legal hands per second on one core (``python -m tartli bench``).

Each hand is dealt from one ``random.Random(seed)`` and played to trick 16 by choosing uniformly
among the legal moves of the player to move, declarations included, never going
out (S3 claims are left out so that every hand runs all 16 tricks). It prints
hands per second and the moves made; it asserts nothing about time.
"""

from __future__ import annotations

import random
import time

from tartli.game import Deal, HandState
from tartli.moves import GoOut
from tartli.rules import RuleSet


def play_random_hand(rules: RuleSet, rng: random.Random) -> HandState:
    """Deal from ``rng`` and play one hand uniformly at random over the legal moves other than going out."""
    state = HandState(Deal.shuffled(rng, dealer=1), rules)
    draw = rng.random
    moves = state.legal_moves()
    while moves:  # empty once the hand is over
        count = len(moves) - (type(moves[-1]) is GoOut)  # going out is always listed last
        state.push(moves[int(draw() * count)])  # uniform choice
        moves = state.legal_moves()
    return state


def run(hands: int = 20000, seed: int = 1, rules_name: str = "hungarian") -> float:
    rules = RuleSet.named(rules_name)
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for _ in range(hands):
        state = play_random_hand(rules, rng)
        moves += len(state.moves)
    elapsed = time.perf_counter() - start
    rate = hands / elapsed
    print(
        f"rules={rules_name} hands={hands} moves={moves} seconds={elapsed:.2f} "
        f"hands/s={rate:,.0f} moves/s={moves / elapsed:,.0f}"
    )
    return rate


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="hungarian")
    args = parser.parse_args()
    run(args.hands, args.seed, args.rules)
