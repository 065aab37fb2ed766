"""The exact phase-2 solver: its value equals brute force over the engine's legal moves; the coach."""

from __future__ import annotations

import random

import pytest

from tartli import HandState, RuleSet
from tartli.bots.heuristic import HeuristicBot
from tartli.bots.solver import against_rules_of_thumb, coach, position_of, solve
from tartli.game import Status
from tartli.moves import Declare, GoOut, Play

RULE_SETS = [RuleSet.hungarian(), RuleSet.pais(), RuleSet.austrian()]


def brute_force(state: HandState, me: int, opponent: HeuristicBot | None = None) -> int:
    """Minimax over every legal play of the engine: the final card-point difference for ``me``.
    With ``opponent``, the other player's cards are that bot's choices (over its views) instead."""
    if state.status is not Status.IN_PROGRESS:
        return state.card_points[me] - state.card_points[1 - me]
    if opponent is not None and state.to_move != me:
        moves = [opponent.choose(state.view(state.to_move))]
    else:
        moves = [m for m in state.legal_moves() if isinstance(m, Play)]
    values = []
    for move in moves:
        child = state.copy()
        child.push(move)
        values.append(brute_force(child, me, opponent))
    return max(values) if state.to_move == me else min(values)


def endgame(seed: int, rules: RuleSet, trick: int, mid_trick: bool) -> HandState | None:
    """A random hand played (by random legal moves, never going out) up to ``trick``."""
    rng = random.Random(seed)
    state = HandState.from_seed(seed, rules)
    while not state.is_over and (state.trick_number < trick or state.lead is not None):
        state.push(rng.choice([m for m in state.legal_moves() if not isinstance(m, GoOut)]))
    if state.is_over:
        return None
    if mid_trick:
        state.push(rng.choice([m for m in state.legal_moves() if isinstance(m, Play)]))
    return state


@pytest.mark.rule("T4", "S2", "C5", "V9")
@pytest.mark.parametrize("rules", RULE_SETS, ids=["hungarian", "pais", "austrian"])
def test_solver_value_equals_brute_force(rules: RuleSet) -> None:
    checked = 0
    for seed in range(40):
        state = endgame(seed, rules, 13 + seed % 2, mid_trick=seed % 3 == 0)
        if state is None or state.to_move is None:
            continue
        me = state.to_move
        solution = solve(state, all_values=True)
        assert solution.value == brute_force(state, me), seed
        # Every play's value too, and the best moves are exactly those reaching the best value.
        for move, value in solution.move_values.items():
            child = state.copy()
            child.push(move)
            assert value == brute_force(child, me), (seed, move)
        assert set(solution.best_moves) == {m for m, v in solution.move_values.items() if v == solution.value}
        assert solution.card_points == (161 + solution.value) // 2
        checked += 1
    assert checked >= 30


@pytest.mark.rule("S2")
def test_stichmatsch_changes_the_value() -> None:
    """With S2 a player who can take every phase-2 trick gets 161; without it (V9) only the tricks' points."""
    found = 0
    for seed in range(400):
        state = endgame(seed, RuleSet.hungarian(), 15, mid_trick=False)
        if state is None:
            continue
        me = state.to_move
        assert me is not None
        winners = state.trick_winners[7:]
        if any(w != me for w in winners):
            continue
        solution = solve(state)
        if solution.stichmatsch:
            assert solution.card_points == 161
            assert coach(state).startswith("You can take all")
            found += 1
            if found >= 2:
                break
    assert found >= 1


def test_solve_view_equals_solve_state() -> None:
    for seed in range(30):
        state = endgame(seed, RuleSet.hungarian(), 11, mid_trick=seed % 2 == 1)
        if state is None or state.to_move is None:
            continue
        a, b = solve(state), solve(state.view(state.to_move))
        assert (a.value, a.best_moves) == (b.value, b.best_moves)
        assert all(m in state.legal_moves() for m in a.best_moves)


def test_solver_from_trick_8_gives_a_legal_best_move() -> None:
    for seed in range(3):
        state = endgame(seed, RuleSet.hungarian(), 8, mid_trick=False)
        assert state is not None
        solution = solve(state)
        assert solution.best_moves and all(m in state.legal_moves() for m in solution.best_moves)
        assert -161 <= solution.value <= 161


def test_coach_names_the_best_card() -> None:
    state = endgame(3, RuleSet.hungarian(), 12, mid_trick=False)
    assert state is not None and state.to_move is not None
    text = coach(state.view(state.to_move))
    best = solve(state).best_moves[0].card
    assert best.name() in text
    assert text.startswith(("Best play: lead", "You can take"))


def test_position_needs_phase_two() -> None:
    state = HandState.from_seed(1)
    with pytest.raises(ValueError, match="phase-2"):
        position_of(state)
    with pytest.raises(ValueError):
        solve(state.view(0))


@pytest.mark.rule("M4")
def test_trick_8_declarations_are_not_plays() -> None:
    """At trick 8 melds may still be declared (M4); the solver only weighs the cards."""
    for seed in range(50):
        state = endgame(seed, RuleSet.hungarian(), 8, mid_trick=False)
        if state is None or not any(isinstance(m, Declare) for m in state.legal_moves()):
            continue
        assert all(isinstance(m, Play) for m in solve(state).best_moves)
        return
    pytest.skip("no declaration at trick 8 in these deals")


@pytest.mark.rule("T4", "S2", "C5")
@pytest.mark.parametrize("rules", RULE_SETS, ids=["hungarian", "pais", "austrian"])
def test_solver_equals_brute_force_from_deeper_endgames(rules: RuleSet) -> None:
    """Six or seven tricks left (from trick 11; one hand from trick 10): up to about a million leaves."""
    checked = 0
    deepest = 10 if rules == RuleSet.hungarian() else 11
    for seed in range(100, 200):
        state = endgame(seed, rules, 11 if checked else deepest, mid_trick=checked % 2 == 1)
        if state is None or state.to_move is None:
            continue
        assert solve(state).value == brute_force(state, state.to_move), seed
        checked += 1
        if checked == 4:
            break
    assert checked == 4


@pytest.mark.rule("T4", "S2", "C5")
@pytest.mark.parametrize("rules", RULE_SETS, ids=["hungarian", "pais", "austrian"])
def test_play_against_the_rules_of_thumb_equals_brute_force(rules: RuleSet) -> None:
    """The search the bot uses when best play cannot win: every play's value against the rule-of-thumb
    bot equals brute force over the engine, and is never below its value against best play."""
    checked = 0
    better = 0
    for seed in range(60):
        state = endgame(seed, rules, 11 + seed % 3, mid_trick=seed % 2 == 0)
        if state is None or state.to_move is None:
            continue
        me = state.to_move
        values = against_rules_of_thumb(state)
        best_play = solve(state, all_values=True).move_values
        assert set(values) == set(best_play)
        for move, value in values.items():
            child = state.copy()
            child.push(move)
            assert value == brute_force(child, me, HeuristicBot()), (seed, move)
            assert value >= best_play[move]
        better += max(values.values()) > max(best_play.values())
        checked += 1
    assert checked >= 50
    assert better >= 10  # the rule of thumb is not best play: it can be made to go wrong
