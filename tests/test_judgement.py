"""One judgement (issue 35): the Hint, the review and Try again use one evaluation of a position.

* A player who follows the Hint is never told by the review that a move was worse than best: the
  evaluation is computed afresh for the review (nothing kept from the Hint), so the agreement comes
  from the evaluation being one and the same, never from a rule of the review's.
* The same position always gets the same Hint.
* In phase 1 the evaluation sees what the next tricks bring: losing trick 7 draws the face-up
  indicator, and the Under-vannak it completes is declared in trick 8; the review says so.
* The review judges only the learner's decisions (lesson 08's endgames start from a record the
  lesson's script played).
* A move classed worse never shows a smaller loss than a move classed better.
"""

from __future__ import annotations

import html
import json
import os
import random
import re
from pathlib import Path
from typing import Any

import ipywidgets as w
import pytest

from tartli.bots import HeuristicBot
from tartli.bots.bench import hint_follower_hand
from tartli.bots.evaluate import COURSE, clear_kept, evaluate
from tartli.bots.explain import causes
from tartli.bots.hint import NoHint, hint
from tartli.bots.review import Grade, review
from tartli.cards import Card
from tartli.game import PHASE1_TRICKS, Deal, HandState
from tartli.melds import MeldKind
from tartli.moves import Declare, Play
from tartli.rules import RuleSet
from tartli.widgets.hand_review import loss_words
from tests.helpers import cards
from tests.test_bots import positions

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.rule("T2", "T3", "T4", "M4", "K1")
def test_the_review_finds_every_move_of_a_hint_follower_best() -> None:
    """20 seat-swapped hands (10 deals, each with the follower in both seats), the course's budget; the
    evaluations are cleared before each review, so the review computes every number itself."""
    rng = random.Random(35)
    judged = phase_one = 0
    for k in range(10):
        deal = Deal.shuffled(rng, dealer=k % 2)
        for follower in (0, 1):
            state = hint_follower_hand(deal, follower, RuleSet.named(("hungarian", "pais", "austrian")[k % 3]))
            clear_kept()
            found = review(state, follower)
            for d in found.decisions:
                assert d.grade is Grade.BEST, (k, follower, d.trick, str(d.move), d.grade, d.loss, d.text)
                judged += 1
                phase_one += d.phase == 1 and d.samples > 0
    assert judged > 150 and phase_one > 60  # the sampled decisions are most of what could disagree


def test_the_same_position_always_gets_the_same_hint() -> None:
    seen = 0
    for state in positions(40, seed=35):
        player = state.to_move
        assert player is not None
        view = state.view(player)
        if state.trick_number > PHASE1_TRICKS:
            continue
        try:
            clear_kept()
            first = hint(view)
            clear_kept()
            replayed = HandState(state.deal, state.rules, state.scores_in)  # as the review rebuilds it
            replayed.push_many(state.moves)
            second = hint(replayed.view(player))
        except NoHint:  # pragma: no cover
            continue
        assert (first.move, first.reason) == (second.move, second.reason)
        seen += 1
    assert seen >= 12


def _under_vannak_position() -> HandState:
    """Hungarian rules, trick 7: the computer has led the King of Hearts; you hold the Unders of Leaves,
    Hearts and Bells, and the face-up indicator is the Under of Acorns. Any trump of yours wins the
    trick (4 card points) and gives the Under away to the computer; losing it draws the Under, and
    the Under-vannak (100) is yours to declare in trick 8."""
    deal = Deal(
        dealer=1,
        hands=(cards("OH XB 9A 8A 7B KB UL UH UB"), cards("OL KA 8L OA OB 9B 7L XH KH")),
        indicator=Card.parse("UA"),
        talon=cards("7H 8B AL AA AB 7A AH XL 8H 9L XA 9H KL"),
    )
    state = HandState(deal, RuleSet.hungarian())
    moves = "0: play 7B|1: bela|1: play 9B|1: play 7H|0: play 8B|1: play 8L|0: play KB|1: play 7L"
    moves += "|0: declare terc:9A|0: play AA|0: play AH|1: play KA|1: play 8H|0: play 9L|1: play KH"
    state.push_many(moves.split("|"))
    return state


@pytest.mark.rule("T3", "M2", "M4")
def test_the_hint_loses_trick_7_for_the_under_vannak_and_the_review_names_it() -> None:
    state = _under_vannak_position()
    view = state.view(0)
    assert view.trick_number == PHASE1_TRICKS and view.indicator == Card.parse("UA")
    assert {Card.parse(x) for x in ("UL", "UH", "UB")} <= set(view.hand)
    lead = view.lead
    assert lead == Card.parse("KH")
    advice = hint(view)
    assert isinstance(advice.move, Play)
    card = advice.move.card
    assert card.rank.name != "UNDER"  # the vannak is kept whole
    heads = card.suit is lead.suit and card.strength(view.trump) > lead.strength(view.trump)
    assert card.suit is not view.trump and not heads  # it lets the trick go
    # The learner took the trick with a trump instead: the review names the vannak the draw would have completed.
    state.push("0: play 7A")
    while not state.is_over:
        p = state.to_move
        assert p is not None
        state.push(HeuristicBot().choose(state.view(p)))
    clear_kept()
    found = review(state, 0)
    (d,) = [d for d in found.decisions if d.trick == PHASE1_TRICKS]
    assert d.grade is Grade.BLUNDER
    assert "Under-vannak (100)" in d.text and "Under of Acorns" in d.text and "trick 7" in d.text, d.text
    assert d.best and all(isinstance(m, Play) and m.card.rank.name != "UNDER" for m in d.best)
    (top, *_) = causes(view, d.evaluation, d.move)  # type: ignore[arg-type]
    assert top.kind == "meld" and top.meld is not None and top.meld.kind is MeldKind.SET and top.drawn


def _played(seed: int, slips: float = 0.5) -> HandState:
    """A hand of a learner who slips now and then (a random card) against the rules of thumb."""
    rng = random.Random(seed)
    bot = HeuristicBot()
    state = HandState(Deal.shuffled(rng, dealer=seed % 2))
    while not state.is_over:
        p = state.to_move
        assert p is not None
        view = state.view(p)
        move = bot.choose(view)
        if p == 0 and rng.random() < slips:
            plays = [m for m in view.legal_moves if isinstance(m, Play)]
            move = rng.choice(plays) if plays else move
        state.push(move)
    return state


def test_a_worse_class_never_shows_a_smaller_loss() -> None:
    shown: list[tuple[int, int, str]] = []
    for seed in range(6):
        found = review(_played(seed), 0)
        for d in found.decisions:
            if d.loss is None:
                continue
            words = loss_words(d)
            number = int(words.split()[1] if words.startswith("about") else words.split()[0]) if words else 0
            assert number == round(d.loss)
            if d.samples and number:
                assert f"give or take {round(d.se)}" in words
            shown.append((d.grade.rank, number, d.text))
    assert len({g for g, _n, _t in shown}) >= 3
    for rank, number, text in shown:
        for other_rank, other_number, _ in shown:
            if rank > other_rank:
                assert number >= other_number, (rank, number, other_rank, other_number, text)


def test_the_review_judges_only_the_moves_named_as_the_learners() -> None:
    state = _played(3)
    every = review(state, 0)
    later = [d.index for d in every.decisions if d.index >= 12]
    part = review(state, 0, moves=later)
    assert [d.index for d in part.decisions] == later
    assert part.summary.decisions == len(later)
    assert all(d.index in later for d in part.costly)


def _lesson_08_table() -> Any:
    """Lesson 08's notebook, executed as Voilà does (in its folder); its namespace."""
    nb = json.loads((ROOT / "notebooks" / "08_phase_two.ipynb").read_text("utf-8"))
    namespace: dict[str, Any] = {}
    here = os.getcwd()
    os.chdir(ROOT / "notebooks")
    try:
        for cell in nb["cells"]:
            exec(compile("".join(cell["source"]), "08_phase_two.ipynb", "exec"), namespace)
    finally:
        os.chdir(here)
    return namespace


def _lesson_08_coach_table() -> tuple[Any, w.ToggleButtons, w.Button]:
    """Lesson 08's step "Play an endgame with the coach" as its step makes it when first shown: its table, the
    endgame's choice and Start again."""
    table, box = _lesson_08_table()["coach_table"]()
    controls = box.children[0].children
    position = next(c for c in controls if isinstance(c, w.ToggleButtons))
    again = next(c for c in controls if isinstance(c, w.Button))
    return table, position, again


@pytest.mark.parametrize("which", [0, 1])
def test_lesson_08s_endgame_review_lists_only_the_learners_decisions(which: int) -> None:
    """Step 10 ("Play an endgame with the coach"): tricks 1-7 were played by the lesson's script; the
    learner plays from trick 8 with the table's own controls, then presses Review this hand."""
    table, position, _again = _lesson_08_coach_table()
    position.value = position.options[which]  # "All nine?", "Lead well"
    start = len(table.state.moves)
    assert table.state.trick_number == 8 and start >= 14
    clicked: list[int] = []
    while not table.state.is_over:
        if table.state.to_move != table.human:
            table.run_opponent()
            continue
        offered = [m for m in table.offered_moves() if isinstance(m, Play | Declare)]
        clicked.append(len(table.state.moves))
        move = offered[-1]
        if isinstance(move, Play):
            table.board.pick(str(move.card))
        else:
            table.declarations.value = table._declare_moves.index(move)
            table.declare_button.click()
    table.review_panel.button.click()
    found = table.review_panel.result
    assert found is not None
    assert found.decisions, "the learner made decisions from trick 8 on"
    assert all(d.index >= start and d.trick >= 8 for d in found.decisions)
    assert {d.index for d in found.decisions} <= set(clicked)
    assert found.summary.decisions == len(found.decisions)
    shown = table.review_view.value
    assert "Trick 1:" not in shown and "Trick 7:" not in shown
    assert f"over {len(found.decisions)} decisions" in shown


def test_the_courses_budget_is_the_one_the_table_uses() -> None:
    from tartli.widgets import TableController

    table = TableController(seed=4, autoplay=False)
    assert table.budget == COURSE
    view = table.state.view(table.human)
    clear_kept()
    first = evaluate(view)
    assert table.hint() and table.hinted == first.best.move


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_reviews_list_speaks_the_pages_language(lang: str) -> None:
    """Every word of a review's list (class, loss, the costliest mark, the sentence) is the page's
    language: "one of the costliest" stood in English in Hungarian and German (its call sat inside an
    f-string, where the catalog's extractor does not look)."""
    from tartli import i18n
    from tartli.widgets.hand_review import decision_html, review_summary_text
    from tests.test_i18n_engine import english_left

    state = _played(3, slips=0.7)
    i18n.set_language(lang)
    try:
        found = review(state, 0)
        assert any(d.costly for d in found.decisions)
        for d in found.decisions:
            shown = re.sub(r"<[^>]+>", " ", decision_html(d, 0))
            assert english_left(shown) == [], shown
        assert english_left(review_summary_text(found)) == []
    finally:
        i18n.set_language("en")


@pytest.mark.rule("C5")
def test_the_trick_log_adds_up_to_the_card_points_the_board_shows() -> None:
    """Issue 36, item 5: in lesson 08's second endgame ("Lead well") the log's tricks added up to 106
    while the board said 116: trick 16's line now carries the last trick's 10 (C5)."""
    table, position, _again = _lesson_08_coach_table()
    position.value = position.options[1]
    while not table.state.is_over:
        if table.state.to_move != table.human:
            table.run_opponent()
            continue
        table.board.pick(str(next(m for m in table.offered_moves() if isinstance(m, Play)).card))
    state = table.state
    log = html.unescape(re.sub(r"<[^>]+>", " ", table.log_view.value))
    won = {"You": 0, "other": 0}
    for who, points in re.findall(r"Trick \d+: (You|The computer) won (\d+) card points", log):
        won["You" if who == "You" else "other"] += int(points)
    assert "the last trick's 10 included, C5" in log
    if state.stichmatsch is None:
        assert (won["You"], won["other"]) == (state.card_points[0], state.card_points[1])
    else:  # S2: the sweep takes all 161
        assert won["You"] + won["other"] == 161


@pytest.mark.rule("K1")
def test_the_hard_computer_plays_its_card_instead_of_passing() -> None:
    """Issue 36, item 14: "The computer passes" appeared at the table when nothing was declared,
    telling the learner that the computer held a meld. Passing is playing a card without declaring:
    the Hard computer now plays the card."""
    from tartli.bots import SearchBot
    from tartli.widgets import TableController

    passes = hands = 0
    for seed in range(8):
        table = TableController(seed=seed, level="hard", opponent=SearchBot(seed=seed, samples=12), delay=0)
        while not table.state.is_over:
            if table.state.to_move != table.human:
                table.run_opponent()
                continue
            table.act(next(m for m in table.offered_moves() if isinstance(m, Play)))
        hands += 1
        passes += sum(1 for e in table.state.events if e.kind == "pass")
        assert "passes" not in html.unescape(table.log_view.value)
    assert hands == 8 and passes == 0


@pytest.mark.rule("T4")
def test_lesson_10s_cards_you_may_not_play_are_dimmed_as_its_step_says() -> None:
    """Issue 36, item 7: lesson 10 step 2 says the cards you may not play are dimmed; its hand showed
    none dimmed. Now the hand marks the playable cards as the table does and dims the others."""
    from tartli.course import PAGES
    from tests.test_steps import run_lesson

    lesson = run_lesson(next(p for p in PAGES if p.file == "10_play_a_game.ipynb"))
    step = lesson.steps[1]
    assert "dimmed" in step.text
    shown = " ".join(p for p in step.parts if isinstance(p, str))
    dimmed = len(re.findall(r'<svg[^>]*class="[^"]*\bunplayable\b', shown))
    ticked = len(re.findall(r'<svg[^>]*class="[^"]*(?<!un)\bplayable\b', shown))
    assert dimmed >= 1 and ticked >= 1  # (the card led is drawn plain)


@pytest.mark.rule("S2", "V9")
@pytest.mark.parametrize(("rules", "seed"), [(RuleSet.hungarian(), 4), (RuleSet.austrian(), 9)])
def test_a_line_counts_a_sweep_only_where_it_is_a_stichmatsch(rules: RuleSet, seed: int) -> None:
    """Both hands (the rules of thumb on both sides) end with one player taking every trick of phase 2.
    Under the Hungarian rules that is a stichmatsch (S2) and the evaluation's line says so; under the
    Austrian rules there is none (V9), so no cause may call it "stichmatsch: all 161 card points"."""
    from tartli.bots.evaluate import _line

    state = HandState.from_seed(seed, rules)
    while not state.is_over:
        p = state.to_move
        assert p is not None
        state.push(HeuristicBot().choose(state.view(p)))
    winners = state.trick_winners
    sweeper = winners[-1]
    assert len(set(winners[PHASE1_TRICKS:])) == 1
    line, other = _line(state, sweeper), _line(state, 1 - sweeper)
    expected = 1 if rules.stichmatsch else 0
    assert (line.sweep, other.sweep) == (expected, -expected)
    assert line.last and not other.last and line.indicator != other.indicator


def test_lesson_08s_endgame_does_not_say_a_saved_game_was_loaded() -> None:
    """Issue 36 item 20: the lesson loads its endgames through the table's record loading; the learner
    loaded nothing, so the table does not say "Record loaded: 23 moves" (the table page's Load does)."""
    table, position, again = _lesson_08_coach_table()
    for which in (1, 0):
        position.value = position.options[which]
        again.click()
        assert not any("loaded" in m.lower() for m in table.messages), table.messages
        assert "loaded" not in table.message.value.lower()
