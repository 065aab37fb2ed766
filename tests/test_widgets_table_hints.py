"""The table's helpers, headless: the level selector, the Hint button, the post-hand review."""

from __future__ import annotations

import random

import pytest

from tartli.bots import HeuristicBot, RandomBot, SearchBot, solve
from tartli.bots.evaluate import Budget
from tartli.bots.hint import hint
from tartli.game import PHASE1_TRICKS, HandState
from tartli.moves import Play
from tartli.widgets import TableController
from tartli.widgets.table import move_words, review_hand


def play_to(table: TableController, rng: random.Random, stop: object) -> None:
    """The learner plays random legal cards (the computer answers) until ``stop(state)`` or the hand ends."""
    assert callable(stop)
    while not table.state.is_over and not stop(table.state):
        plays = [m for m in table.state.legal_moves() if isinstance(m, Play)]
        table.act(rng.choice(plays))


@pytest.mark.parametrize(("level", "cls"), [("easy", RandomBot), ("medium", HeuristicBot), ("hard", SearchBot)])
def test_the_level_selector_sets_the_computers_class(level: str, cls: type) -> None:
    table = TableController(seed=3, autoplay=False)
    assert isinstance(table.opponent, RandomBot) and table.level_buttons.value == "easy"
    table.level_buttons.value = level
    assert type(table.opponent) is cls and table.level == level
    table.new_deal(8)  # a new deal keeps the level (the computer is made afresh from the new seed)
    assert type(table.opponent) is cls
    assert type(TableController(seed=3, level=level, autoplay=False).opponent) is cls


def test_the_level_does_not_replace_an_opponent_given_by_the_caller() -> None:
    mine = HeuristicBot()
    table = TableController(seed=3, opponent=mine, autoplay=False)
    assert table.level_buttons.disabled
    table.level_buttons.value = "hard"  # the guard turns the refusal into a message
    assert table.opponent is mine
    assert "cannot change" in table.messages[-1]
    assert table.hand_level is None


def test_the_medium_computer_plays_the_rule_of_thumb_moves() -> None:
    table = TableController(seed=12, level="medium")
    rng = random.Random(5)
    bot = HeuristicBot()
    replay = HandState(table.state.deal)
    play_to(table, rng, lambda s: len(s.moves) > 20)
    for move in table.state.moves:
        if move.player == 1:
            assert move == bot.choose(replay.view(1))
        replay.push(move)


def test_the_hint_is_the_hint_functions_move_and_its_reason() -> None:
    table = TableController(seed=7)
    table.budget = Budget(deals=8)
    view = table.state.view(table.human)
    expected = hint(view, budget=Budget(deals=8))
    table.hint_button.click()
    text = table.hint_view.value.replace("&#x27;", "'")
    assert table.hinted == expected.move
    assert f"Hint: {move_words(expected.move, view)} — " in text
    assert expected.reason.split(":")[0] in text
    table.act(next(m for m in table.state.legal_moves() if isinstance(m, Play)))
    assert table.hint_view.value == "" and table.hinted is None  # the position changed: the old hint is gone


@pytest.mark.rule("T4")
def test_in_phase_2_the_hint_is_exact() -> None:
    table = TableController(seed=11)
    play_to(table, random.Random(2), lambda s: s.trick_number > PHASE1_TRICKS + 1 and s.to_move == 0)
    assert not table.state.is_over
    view = table.state.view(table.human)
    text = table.hint()
    assert table.hinted in solve(view).best_moves  # a card the solver calls best
    assert text == f"Hint: {move_words(table.hinted, view)} — {hint(view).reason}"


@pytest.mark.rule("T4", "C5", "S2")
def test_a_hinted_card_is_never_a_turning_point() -> None:
    table = TableController(seed=21, level="medium")
    while not table.state.is_over:
        state = table.state
        if state.to_move == table.human and state.trick_number > PHASE1_TRICKS:
            view = state.view(table.human)
            table.act(solve(view).best_moves[0])  # follow the hint's card every time
        else:
            table.act(next(m for m in state.legal_moves() if isinstance(m, Play)))
    assert not any(item.turning for item in review_hand(table.state, table.human))


def test_no_hint_when_it_is_not_your_turn_or_the_hand_is_over() -> None:
    table = TableController(seed=7, autoplay=False)
    table.act(next(m for m in table.state.legal_moves() if isinstance(m, Play)))
    assert table.hint().startswith("Wait for the computer")
    table.run_opponent()
    play_to(table, random.Random(1), lambda s: False)
    assert table.state.is_over and table.hint_button.disabled
    assert table.hint().startswith("The hand is over")


@pytest.mark.rule("T4", "C5", "S2")
@pytest.mark.parametrize("seed", [11, 21, 33])
def test_the_review_compares_each_phase_2_card_with_the_solver(seed: int) -> None:
    table = TableController(seed=seed, level="medium")
    play_to(table, random.Random(seed), lambda s: False)
    state = table.state
    assert state.is_over
    items = review_hand(state, table.human)
    # the learner's phase-2 cards, in order, each judged by the solver at that moment
    replay = HandState(state.deal, state.rules, state.scores_in)
    expected = []
    for move in state.moves:
        if isinstance(move, Play) and move.player == 0 and replay.trick_number > PHASE1_TRICKS:
            solution = solve(replay, all_values=True)
            expected.append((move.card, solution.value - solution.move_values[move], solution.best_moves))
        replay.push(move)
    assert [(i.card, i.loss) for i in items] == [(c, loss) for c, loss, _ in expected]
    assert all(i.best == tuple(m.card for m in best) for i, (_, _, best) in zip(items, expected, strict=True))
    assert all(i.points * 2 == i.loss and i.loss >= 0 for i in items)
    # turning points: the costliest cards that lost anything
    turning = [i for i in items if i.turning]
    assert all(i.loss > 0 for i in turning)
    assert all(t.loss >= i.loss for t in turning for i in items if not i.turning)
    assert len(turning) == min(2, sum(1 for i in items if i.loss > 0))
    # and the page's review judges the same cards the same way (exact in phase 2)
    found = table.review_panel.run()
    exact = {d.index: d.loss for d in found.decisions if d.phase == 2 and isinstance(d.move, Play) and d.trick > 8}
    assert exact and all(exact[i.index] == i.loss for i in items if i.index in exact)


def test_the_review_is_shown_only_when_the_hand_is_over_and_finds_a_costly_card() -> None:
    table = TableController(seed=11, level="medium")
    assert table.review_view.value == ""
    play_to(table, random.Random(2), lambda s: False)
    items = review_hand(table.state, 0)
    assert any(i.loss > 0 for i in items), "random play was chosen to make at least one mistake here"
    assert "Review this hand" in table.review_view.value
    table.budget = Budget(deals=8)
    table.review_panel.button.click()
    assert "one of the costliest" in table.review_view.value
    table.next_button.click()
    assert table.review_view.value == ""


def test_the_hand_level_is_the_easiest_the_computer_had() -> None:
    table = TableController(seed=4, level="hard", autoplay=False)
    assert table.hand_level == "hard"
    table.set_level("easy")
    table.set_level("medium")
    assert table.level == "medium" and table.hand_level == "easy"
    table.new_deal(5)
    assert table.hand_level == "medium"
