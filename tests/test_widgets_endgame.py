"""The endgame exercise (judged by the exact solver) and the match challenge (stars by level), headless."""

from __future__ import annotations

import re

import pytest

from tartli import CARDS, Card, Deal
from tartli.bots import HeuristicBot, solve
from tartli.cards import TOTAL_CARD_POINTS
from tartli.game import HandState
from tartli.moves import Play
from tartli.widgets import TableController
from tartli.widgets.endgame import Endgame, MatchChallenge
from tartli.widgets.trainers import Progress

SEEDS = range(20)


def plain(html_text: str) -> str:
    """The feedback as the learner reads it (rule IDs are links)."""
    return re.sub(r"<[^>]+>", "", html_text)


def fresh(seed: int) -> Endgame:
    return Endgame(seed=seed, progress=Progress())


@pytest.mark.rule("T4", "C5", "S2")
@pytest.mark.parametrize("seed", SEEDS)
def test_a_best_card_is_right_and_another_is_wrong_as_the_solver_says(seed: int) -> None:
    ex = fresh(seed)
    state = ex.state
    assert state.trick_number >= 8 and state.to_move == ex.player
    solution = solve(state, all_values=True)  # the solver, asked afresh on the exercise's position
    best = {m.card for m in solution.best_moves}
    worse = {m.card: v for m, v in solution.move_values.items() if v < solution.value}
    assert set(ex.best) == best and worse, "the positions are chosen so that the choice matters"
    for card in sorted(best):
        one = fresh(seed)
        assert one.answer(card) and one.solved and one.stars == 3
        assert "Right" in plain(one.feedback.value)
    card, value = min(worse.items(), key=lambda kv: kv[1])
    assert not ex.answer(card) and not ex.solved
    lost = (solution.value - value) // 2
    text = plain(ex.feedback.value)
    assert f"costs you {lost} card points" in text
    assert f"instead of {solution.card_points}" in text
    assert all(c.name() in text for c in best)
    for rule in ("(T4)", "(C5)", "(S2)"):  # the lead case names T4 in words: "T4 binds only the second player"
        assert rule in text or (rule == "(T4)" and "T4 binds" in text), rule
    assert ex.answer(sorted(best)[0]) and ex.stars == 2  # right after one mistake


def test_more_mistakes_give_one_star_and_the_best_is_kept() -> None:
    progress = Progress()
    ex = Endgame(seed=10, progress=progress, progress_id="lesson08.endgame")
    wrong = [c for c, v in ex.values.items() if v < ex.solution.value]
    for card in (wrong * 2)[:2]:
        assert not ex.answer(card)
    assert ex.answer(ex.best[0]) and ex.stars == 1
    assert progress.best("lesson08.endgame") == 0 and progress.stage("lesson08.endgame") == (0, 1)  # a slip
    for _ in range(5):
        ex.new_position()
        assert not ex.solved and ex.stars == 0
        ex.board.pick(ex.best[0].text)  # a click on the picture answers too
        assert ex.solved and ex.stars == 3
    assert progress.best("lesson08.endgame") == 2  # the stage: five right at the first try, one slip


@pytest.mark.rule("T4")
def test_a_card_the_rules_forbid_is_explained_and_not_counted() -> None:
    for seed in range(60):
        ex = fresh(seed)
        illegal = [c for c in ex.state.hand(ex.player) if c not in ex.values]
        if illegal:
            break
    else:
        pytest.fail("no position with a forbidden card among 60 seeds")
    assert not ex.answer(illegal[0])
    assert ex.attempts == 0 and not ex.solved
    assert "may not be played here: T4: you" in plain(ex.feedback.value)
    theirs = ex.state.hand(1 - ex.player)[0]
    assert not ex.answer(theirs) and ex.attempts == 0
    assert "Click one of your own cards" in plain(ex.feedback.value)


def test_a_chosen_position_can_be_posed() -> None:
    state = HandState.from_seed(5)
    while state.trick_number < 14 or state.lead is not None:
        state.push(next(m for m in state.legal_moves() if isinstance(m, Play)))
    ex = fresh(1)
    ex.set_state(state)
    assert ex.state is state and ex.solution.value == solve(state).value
    assert ex.points_with(ex.best[0]) == (TOTAL_CARD_POINTS + ex.solution.value) // 2
    assert 'data-pick="' + state.hand(state.to_move or 0)[0].text + '"' in ex.board.svg


# ---------------------------------------------------------------------------- the match challenge
def deal_with(h0: str, h1: str, indicator: str) -> Deal:
    cards0 = tuple(Card.parse(c) for c in h0.split())
    cards1 = tuple(Card.parse(c) for c in h1.split())
    used = {*cards0, *cards1, Card.parse(indicator)}
    talon = tuple(c for c in CARDS if c not in used)
    return Deal(1, (cards0, cards1), Card.parse(indicator), talon)


STRONG = "OH 9H AH XH KH UH AA AL AB"
WEAK = "7A 8A 9A 7L 8L 9L 7B 8B 9B"


def play_hand(table: TableController, careful: bool) -> None:
    """The learner's scripted moves: the rule-of-thumb bot's choices, or always the first legal move."""
    bot = HeuristicBot()
    while not table.state.is_over:
        assert table.state.to_move == table.human
        view = table.state.view(table.human)
        table.act(bot.choose(view) if careful else view.legal_moves[0])


@pytest.mark.rule("S1", "S4")
@pytest.mark.parametrize(("level", "stars"), [("easy", 1), ("medium", 2), ("hard", 3)])
def test_a_hand_won_earns_the_stars_of_its_level(level: str, stars: int) -> None:
    table = TableController(seed=1, level=level)
    progress = Progress()
    challenge = MatchChallenge(table, progress=progress, progress_id="lesson10.match")
    table.load_deal(deal_with(STRONG, WEAK, "8H"))
    assert not challenge.solved and challenge.stars == 0
    play_hand(table, careful=True)
    state = table.state
    assert state.buli[0] > 0 or state.totals[0] - state.scores_in[0] > state.totals[1] - state.scores_in[1]
    assert challenge.solved and challenge.stars == stars
    assert progress.best("lesson10.match") == stars
    assert "You won the hand" in challenge.feedback.value
    table.next_button.click()  # the next hand is a new question
    assert not challenge.solved and challenge.stars == 0


@pytest.mark.rule("S1")
def test_a_hand_lost_earns_nothing() -> None:
    table = TableController(seed=1, level="easy")
    challenge = MatchChallenge(table, progress=Progress())
    table.load_deal(deal_with(WEAK, STRONG, "8H"))
    play_hand(table, careful=False)
    mine = table.state.totals[0] - table.state.scores_in[0]
    theirs = table.state.totals[1] - table.state.scores_in[1]
    assert mine < theirs
    assert not challenge.solved and challenge.stars == 0 and challenge.mistakes == 1
    assert "Not this time" in challenge.feedback.value


def test_the_easiest_level_of_the_hand_counts() -> None:
    table = TableController(seed=1, level="easy")
    challenge = MatchChallenge(table, progress=Progress())
    table.load_deal(deal_with(STRONG, WEAK, "8H"))
    table.act(HeuristicBot().choose(table.state.view(0)))
    table.set_level("hard")  # too late: Easy was played in this hand
    play_hand(table, careful=True)
    assert challenge.solved and challenge.stars == 1


def test_no_stars_against_an_opponent_without_a_level() -> None:
    table = TableController(seed=1, opponent=HeuristicBot())
    challenge = MatchChallenge(table, progress=Progress())
    table.load_deal(deal_with(STRONG, WEAK, "8H"))
    play_hand(table, careful=True)
    assert not challenge.solved and challenge.stars == 0
    assert "no stars" in challenge.feedback.value
