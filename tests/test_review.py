"""The review of a whole hand: classes, exact phase-2 losses, "could have cost", Try again, summaries."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tartli import HandState, RuleSet, TartliError, i18n
from tartli.bots import HeuristicBot, RandomBot
from tartli.bots.evaluate import Budget, exact_values, sample_values
from tartli.bots.review import (
    GOOD_BOUND,
    INACCURACY_BOUND,
    MISTAKE_BOUND,
    Grade,
    HandSummary,
    _reached,
    accuracy,
    grade,
    match_summary,
    review,
)
from tartli.bots.solver import solve
from tartli.cards import Card, parse_cards
from tartli.game import PHASE1_TRICKS, Deal
from tartli.moves import Declare, GoOut, Pass, Play
from tartli.record import Record
from tests.test_i18n_engine import english_left

DATA = Path(__file__).resolve().parent / "data"
EXAMPLE = DATA / "review_example.json"


def _played(seed: int, rules: RuleSet | None = None, slips: float = 0.4) -> HandState:
    """A whole hand: player 0 by the rules of thumb with random slips, player 1 at random."""
    rng = random.Random(seed)
    state = HandState.from_seed(seed, rules)
    learner, other = HeuristicBot(), RandomBot(seed=seed)
    while not state.is_over:
        p = state.to_move
        assert p is not None
        view = state.view(p)
        if p == 0:
            move = learner.choose(view)
            plays = [m for m in view.legal_moves if isinstance(m, Play)]
            if plays and rng.random() < slips:
                move = rng.choice(plays)
        else:
            move = other.choose(view)
        state.push(move)
    return state


def test_the_class_bounds() -> None:
    assert grade(0) is Grade.BEST
    assert grade(GOOD_BOUND - 1) is Grade.GOOD
    assert grade(GOOD_BOUND) is Grade.INACCURACY
    assert grade(INACCURACY_BOUND) is Grade.MISTAKE
    assert grade(MISTAKE_BOUND - 0.5) is Grade.MISTAKE
    assert grade(MISTAKE_BOUND) is Grade.BLUNDER
    # The class is made from the loss shown (rounded to a point), never from loss - se.
    assert grade(0.4) is Grade.BEST and grade(0.6) is Grade.GOOD
    assert grade(GOOD_BOUND - 0.6) is Grade.GOOD and grade(GOOD_BOUND - 0.4) is Grade.INACCURACY
    assert accuracy(0) == pytest.approx(100, abs=0.01)
    assert accuracy(None) == 0
    assert 79 < accuracy(GOOD_BOUND) < 81 and 40 < accuracy(MISTAKE_BOUND) < 42


@pytest.mark.rule("T4", "C5", "S2")
def test_phase_two_losses_equal_the_solvers() -> None:
    checked = 0
    for seed in range(6):
        state = _played(seed)
        found = review(state, 0, samples=4)
        for d in found.decisions:
            if d.phase != 2 or d.trick == 8 or not isinstance(d.move, Play):
                continue
            assert d.position is not None
            solution = solve(d.position, all_values=True)
            assert d.loss == solution.value - solution.move_values[d.move]
            assert d.se == 0 and d.samples == 0
            assert set(d.best) == set(solution.best_moves)
            assert (d.loss == 0) == (d.grade is Grade.BEST)
            checked += 1
    assert checked > 20


@pytest.mark.rule("S3", "S4")
def test_a_claim_under_501_is_a_blunder_and_a_right_one_best() -> None:
    state = HandState.from_seed(5, scores=(400, 100))
    player = state.to_move
    assert player is not None
    state.push(GoOut(player))
    found = review(state, player, samples=4)
    (d,) = found.decisions
    assert d.grade is Grade.BLUNDER and d.claim == "wrong" and d.loss is None
    assert "under 501 a claim loses the game" in d.text
    assert d.costly and found.summary.accuracy == 0
    retry = found.retry(d)  # Try again: the moves that were there instead are judged as usual
    assert d.best and retry.judge(d.best[0]).grade is Grade.BEST and retry.tries[-1].better
    assert retry.judge(GoOut(player)).grade is Grade.BLUNDER
    right = HandState.from_seed(5, scores=(520, 100))
    player = right.to_move
    assert player is not None
    right.push(GoOut(player))
    (d,) = review(right, player, samples=4).decisions
    assert d.grade is Grade.BEST and d.claim == "right"


@pytest.mark.rule("S3")
def test_playing_on_past_a_right_claim_is_a_blunder() -> None:
    state = HandState.from_seed(5, scores=(520, 100), dealer=1)
    assert state.to_move == 0
    state.push(next(m for m in state.legal_moves() if isinstance(m, Play)))
    (d, *_rest) = review(state, 0, samples=4).decisions
    assert d.grade is Grade.BLUNDER and d.claim == "missed" and d.best == (GoOut(0),)
    assert "claiming 501 then would have won the game" in d.text


def _four_overs() -> HandState:
    """The learner (player 0, leading) holds four Overs and leads one without declaring them."""
    mine = parse_cards(["OA", "OL", "OH", "OB", "7A", "8L", "9H", "XH", "UB"])
    rest = [Card.from_index(i) for i in range(32) if Card.from_index(i) not in mine]
    random.Random(2).shuffle(rest)
    deal = Deal(1, (tuple(mine), tuple(rest[:9])), rest[9], tuple(rest[10:]))
    state = HandState(deal)
    state.push("0: play OL")
    return state


@pytest.mark.rule("M2", "M7", "K1")
def test_a_phase_one_blunder_is_classed_a_blunder_and_the_best_move_best() -> None:
    state = _four_overs()
    found = review(state, 0, samples=32)
    (d,) = found.decisions
    assert d.phase == 1 and d.grade is Grade.BLUNDER
    assert d.loss is not None and d.loss - d.se > MISTAKE_BOUND  # the Over-vannak (200) is gone
    assert d.samples == 16 and d.se > 0  # a certain blunder is played on no more deals after the first 16
    assert d.evaluation is not None and d.evaluation.samples == d.evaluation.best.samples == 32
    assert "broke up your Over-vannak (200)" in d.text
    evaluation = d.evaluation
    assert evaluation is not None and not evaluation.exact
    declare = next(v for v in evaluation.moves if isinstance(v.move, Declare))
    assert declare.move.melds[0].text == "vannak:O"
    assert grade(declare.loss) in (Grade.BEST, Grade.GOOD)
    top = evaluation.best
    assert top.loss == 0 and grade(top.loss) is Grade.BEST
    # Try again: the best move is best, the same move again the same class.
    retry = found.retry(d)
    assert retry.view == d.position.view(0)  # type: ignore[union-attr]
    assert retry.judge(top.move).grade is Grade.BEST and retry.stars == 3
    again = found.retry(d.index)
    same = again.judge(d.move)
    assert same.grade is d.grade and not same.better and again.stars == 0
    assert again.judge(declare.move).better
    with pytest.raises(TartliError):
        again.judge("1: play 7L")
    with pytest.raises(TartliError, match="K1"):
        again.judge("0: play AL")  # not in the hand: refused with the rule


def test_common_random_numbers_and_the_sampling_error() -> None:
    state = HandState.from_seed(12)
    view = state.view(state.to_move)  # type: ignore[arg-type]
    never = Budget(deals=24, min_deals=24)  # no move dropped
    a = sample_values(view, budget=never, rng=random.Random(3))
    b = sample_values(view, budget=never, rng=random.Random(3))
    assert a == b  # the same seed, the same numbers
    assert all(v.samples == 24 for v in a.moves)
    assert a.best.loss == 0 and all(v.loss >= 0 for v in a.moves)
    assert all(v.se > 0 for v in a.moves[1:])
    more = sample_values(view, budget=Budget(deals=96, min_deals=96), rng=random.Random(3))
    assert sum(v.se for v in more.moves[1:]) < sum(v.se for v in a.moves[1:])  # about half


@pytest.mark.rule("T4", "S2")
def test_could_have_cost_where_the_result_did_not_change() -> None:
    found_unpunished = found_punished = 0
    for seed in range(40):
        state = _played(seed, slips=0.6)
        for d in review(state, 0, samples=4).decisions:
            if d.phase != 2 or d.grade is Grade.BEST or d.loss is None:
                continue
            assert d.position is not None
            best = exact_values(d.position).best.value
            kept = _reached(state, d.index, 0)
            if d.punished is False:
                found_unpunished += 1
                assert "could have cost" in d.text and "did not punish it" in d.text
                assert kept is not None and kept >= best  # at the next move or at the end
            elif d.punished is True:
                found_punished += 1
                assert "did not punish" not in d.text
    assert found_unpunished >= 2 and found_punished >= 2


@pytest.mark.rule("S2")
def test_after_a_stichmatsch_a_costly_card_could_have_cost() -> None:
    """The learner took every trick of phase 2: a card that cost card points against best play was
    not punished (their result is the most there is)."""
    seen = 0
    for seed in range(60):
        state = _played(seed, slips=0.3)
        if state.stichmatsch != 0:
            continue
        for d in review(state, 0, samples=2).decisions:
            if d.phase == 2 and d.loss and isinstance(d.move, Play):
                assert d.punished is False
                assert "could have cost" in d.text
                seen += 1
        if seen:
            break
    assert seen


def test_the_three_costliest_are_marked() -> None:
    state = _played(3, slips=0.7)
    found = review(state, 0, samples=6)
    marked = [d for d in found.decisions if d.costly]
    assert 1 <= len(marked) <= 3
    assert all(d.grade.rank >= Grade.INACCURACY.rank for d in marked)
    unmarked = [d for d in found.decisions if not d.costly and d.loss is not None]
    worst_unmarked = max((d.loss for d in unmarked), default=0)
    assert all(d.loss is None or d.loss >= worst_unmarked for d in marked)
    assert found.costly == tuple(sorted(marked, key=lambda d: -d.loss if d.loss is not None else -1e9))


def test_progress_and_every_decision_of_the_player() -> None:
    state = _played(4)
    calls: list[tuple[int, int]] = []
    found = review(state, 1, samples=8, progress=lambda done, total: calls.append((done, total)))
    total = len(found.decisions)
    assert calls == [(k, total) for k in range(total + 1)]
    assert all(state.moves[d.index] == d.move and d.move.player == 1 for d in found.decisions)
    assert found.summary.decisions == total
    assert found.summary.melds == (state.meld_points[1], state.meld_points[0])
    assert found.summary.cards == (state.card_points[1], state.card_points[0])
    assert all(d.phase == (1 if d.trick <= PHASE1_TRICKS else 2) for d in found.decisions)


def test_a_partial_hand_and_a_record_are_reviewed() -> None:
    record = Record.load(EXAMPLE)
    whole = review(record, 0, samples=4)
    cut = Record(record.deal, record.rules, record.scores, record.moves[:20])
    part = review(cut, 0, samples=4)
    assert [d.index for d in part.decisions] == [d.index for d in whole.decisions if d.index < 20]
    assert part.summary.status == "in-progress"
    with pytest.raises(TartliError):
        review(record, 2)
    with pytest.raises(TartliError):
        review(record, 0, samples=0)


def test_hand_and_match_summaries() -> None:
    hands = [review(_played(s), 0, samples=4).summary for s in (1, 2)]
    for h in hands:
        assert HandSummary.from_dict(json.loads(json.dumps(h.to_dict()))) == h
    match = match_summary(hands)
    first, both = match.running
    assert first == pytest.approx(hands[0].accuracy)
    assert both is not None and min(h.accuracy for h in hands) <= both <= max(h.accuracy for h in hands)  # type: ignore[type-var]
    assert match.grades == tuple(a + b for a, b in zip(hands[0].grades, hands[1].grades, strict=True))
    assert json.loads(json.dumps(match.to_dict()))["accuracy"] == round(both, 1)
    with pytest.raises(TartliError):
        HandSummary.from_dict({"player": 0})


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_review_has_no_english_left(lang: str) -> None:
    i18n.set_language(lang)
    try:
        found = review(Record.load(EXAMPLE), 0, samples=4)
        for d in found.decisions:
            assert english_left(d.text) == [], d.text
    finally:
        i18n.set_language("en")


def test_every_rule_set_and_both_seats() -> None:
    for k, rules in enumerate((RuleSet.hungarian(), RuleSet.pais(), RuleSet.austrian())):
        state = _played(20 + k, rules)
        for player in (0, 1):
            found = review(state, player, samples=3)
            for d in found.decisions:
                assert d.move.player == player
                if d.evaluation is not None:
                    assert d.evaluation.of(d.move).move == d.move
                    assert set(d.best) <= {v.move for v in d.evaluation.moves}


@pytest.mark.rule("K1")
def test_a_pass_is_judged_as_the_best_card_even_when_every_card_was_dropped() -> None:
    """Passing is playing without declaring: it takes the best card's numbers, also when the racing
    stopped sampling every card (a declaration was clearly best)."""
    for state in _second_with_a_pass():
        p = state.to_move
        assert p is not None
        view = state.view(p)
        drop_all = sample_values(view, budget=Budget(deals=12, min_deals=4, batch=4, drop=-1e9), rng=random.Random(1))
        passing = next(v for v in drop_all.moves if isinstance(v.move, Pass))
        cards = [v for v in drop_all.moves if isinstance(v.move, Play)]
        assert passing.value == max(cards, key=lambda v: (v.samples == drop_all.samples, v.value)).value
        return
    pytest.fail("no position with a pass")


def _second_with_a_pass() -> list[HandState]:
    out = []
    for seed in range(200):
        state = HandState.from_seed(seed)
        state.push(next(m for m in state.legal_moves() if isinstance(m, Play)))
        if any(isinstance(m, Pass) for m in state.legal_moves()):
            out.append(state)
    return out


@pytest.mark.rule("K1")
def test_a_pass_with_nothing_offered_to_declare_is_no_decision_and_the_review_does_not_stop_at_it() -> None:
    """K1: the second player may pass whether or not they hold a meld. A page offers Pass only beside a
    declaration (restrict), so a pass made where none was offered (the other browser at a table for two, a
    loaded record) is playing without declaring: not judged on its own, and the review goes on past it."""
    for seed in range(200):
        state = HandState.from_seed(seed)
        bot = RandomBot(seed=seed)
        lone = None
        while not state.is_over:
            player = state.to_move
            assert player is not None
            view = state.view(player)
            move = next((m for m in view.legal_moves if isinstance(m, Pass)), None)
            if move is not None and not any(isinstance(m, Declare) for m in view.legal_moves) and lone is None:
                lone = (len(state.moves), move)
            else:
                move = bot.choose(view)
            state.push(move)
        if lone is not None:
            break
    assert lone is not None, "no hand of 200 had a pass without a meld"
    index, move = lone
    found = review(state, move.player, samples=2, offered=lambda m: True)
    assert index not in {d.index for d in found.decisions} and found.decisions
