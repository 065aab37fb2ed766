"""The table's Hint, review, Try again and match summary, headless (through the widget objects)."""

from __future__ import annotations

import json
import random
import re

import pytest

from tartli.bots.evaluate import Budget
from tartli.bots.review import Grade, HandSummary
from tartli.course import taught
from tartli.moves import Declare, GoOut, Move, Pass, Play
from tartli.rules import RuleSet
from tartli.widgets import TableController
from tartli.widgets.hand_review import match_summary_html

LESSON_TABLES = [  # the lessons whose page has a table, with the controls the course has taught by then
    "03_deal.ipynb",
    "04_phase_one.ipynb",
    "06_meld_contest.ipynb",
    "08_phase_two.ipynb",
    "09_scoring.ipynb",
    "10_play_a_game.ipynb",
]


def quick(table: TableController) -> TableController:
    """The Hint, the review and Try again on few deals (one budget: they agree, and it is fast)."""
    table.budget = Budget(deals=6, min_deals=4, batch=2)
    return table


def press(table: TableController, move: Move) -> None:
    """Make ``move`` with the control the learner would use: a card clicked, a button pressed."""
    if isinstance(move, Play):
        table.board.pick(str(move.card))
    elif isinstance(move, Declare):
        table.declarations.value = table._declare_moves.index(move)
        table.declare_button.click()
    elif isinstance(move, GoOut):
        table.confirm_claims = False
        table.out_button.click()
    else:
        button = {"Pass": table.pass_button, "Bela": table.bela_button, "Swap": table.swap_button}[type(move).__name__]
        assert button.layout.display != "none", f"{move} is advised but its button is hidden"
        button.click()


def hint_everywhere(table: TableController, rng: random.Random, follow: float) -> int:
    """Play a hand: at every moment (the learner's turn and the computer's) ask for the Hint; a move
    advised must be among the moves the table offers right then. The learner follows it with
    probability ``follow``, else plays any offered move. Returns how many hints advised a move."""
    advised = 0
    while not table.state.is_over:
        table.hint()
        offered = table.offered_moves()
        if table.hinted is not None:
            advised += 1
            assert table.hinted in offered, (table.hinted, offered)
            assert table.hinted in table.state.view(table.human).legal_moves
        follow_now = table.hinted is not None and rng.random() < follow
        if table.state.to_move == table.human:
            if follow_now:
                press(table, table.hinted)
            else:
                sane = [m for m in offered if not isinstance(m, (Pass, GoOut)) or table.state.claim(table.human).valid]
                press(table, rng.choice(sane))
        elif follow_now:
            press(table, table.hinted)  # a claim or the Austrian swap out of turn
        elif not table.opponent_step():
            table.play_on()  # the computer waits in the claim window: the learner lets it pass
    return advised


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.parametrize("page", [*LESSON_TABLES, "table.ipynb"])
def test_the_hint_is_always_legal_and_offered(page: str, level: str) -> None:
    rng = random.Random(f"{page}-{level}")
    advised = 0
    for _hand in range(2):
        table = quick(
            TableController(
                seed=rng.randrange(10**6),
                level=level,
                autoplay=False,
                controls=taught(page),
                confirm_claims=page != "table.ipynb",
            )
        )
        advised += hint_everywhere(table, rng, follow=0.5)
        assert table.state.is_over
    assert advised >= 8


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_hint_speaks_the_pages_language(lang: str) -> None:
    from tartli import i18n

    i18n.set_language(lang)
    try:
        table = quick(TableController(seed=5, autoplay=False, language=lang))  # type: ignore[arg-type]
        text = table.hint()
    finally:
        i18n.set_language("en")
    assert text.startswith("Tipp") and table.hinted in table.offered_moves()
    assert "Over " not in text and "deals of the hidden" not in text  # not English


def test_a_declaration_advised_is_the_dropdowns_chosen_entry() -> None:
    # Whatever declaration the Hint advises (a shorter sequence of K7's ladder too: the dropdown then
    # lists them), the dropdown holds it and has it chosen: Declare makes it.
    seen = 0
    for seed in range(40):
        table = quick(TableController(seed=seed, autoplay=False))
        table.hint()
        if isinstance(table.hinted, Declare):
            seen += 1
            advised = table.hinted
            assert table._declare_moves[table.declarations.value] == advised
            table.declare_button.click()
            assert table.state.moves[-1] == advised
    assert seen >= 1


def finished_hand(seed: int, level: str = "medium") -> TableController:
    table = quick(TableController(seed=seed, level=level))
    rng = random.Random(seed)
    while not table.state.is_over:
        plays = [m for m in table.offered_moves() if isinstance(m, (Play, Declare))]
        table.act(rng.choice(plays))
    return table


def test_the_review_lists_every_decision_with_a_progress_bar() -> None:
    table = finished_hand(11)
    panel = table.review_panel
    assert panel.button.layout.display != "none" and panel.button.description == "Review this hand"
    steps: list[tuple[int, int]] = []
    panel.progress.observe(lambda change: steps.append((change["new"], panel.progress.max)), names="value")
    panel.button.click()
    found = panel.result
    assert found is not None and found.decisions
    assert steps and steps[-1] == (len(found.decisions), len(found.decisions))  # counted up to every decision
    assert panel.progress.layout.display == "none"  # gone once done
    shown = table.review_view.value
    assert shown.count("<li class='tartli-decision'") == len(found.decisions)
    assert {d.phase for d in found.decisions} == {1, 2}  # both phases judged
    costly = [d for d in found.decisions if d.costly]
    assert 1 <= len(costly) <= 3 and shown.count("one of the costliest") == len(costly)
    assert all(d.grade.rank >= Grade.INACCURACY.rank for d in costly)
    for d in found.decisions:
        assert d.text.replace("'", "&#x27;") in shown
    for d in found.decisions:
        if d.punished is False:
            assert "could have cost" in d.text.lower()
    assert "Accuracy" in shown and "48 deals" not in shown  # the table's own sample count (6 here) is said
    assert table.announcer.text.startswith("Accuracy")  # a screen reader hears that the review is ready
    assert [b.description for b in panel.retry_buttons.children] == [
        f"Try again: trick {d.trick}" for d in found.costly if d.evaluation is not None or d.claim == "missed"
    ]


def test_could_have_cost_is_shown_where_the_hand_did_not_charge_it() -> None:
    for seed in range(11, 40):
        table = finished_hand(seed)
        found = table.review_panel.run()
        spared = [d for d in found.decisions if d.punished is False and d.loss]
        if spared:
            assert "could have cost" in table.review_view.value
            return
    raise AssertionError("no decision that could have cost in 29 hands")


def test_try_again_opens_the_position_and_gives_stars() -> None:
    table = finished_hand(11)
    panel = table.review_panel
    found = panel.run()
    marked = next(d for d in found.costly if d.evaluation is not None)
    index = found.costly.index(marked)
    panel.retry_buttons.children[index].click()
    retry = panel.retry
    assert retry is not None and retry.decision is marked
    assert panel.retry_box.layout.display != "none" and "Try again" in panel.retry_title.value
    assert panel.retry_board.svg  # the position drawn, the learner's cards to click
    worse = [v.move for v in marked.evaluation.moves if grade_of(v) is not Grade.BEST]
    if worse:  # a move that is not best: no star yet
        verdict = try_with_controls(panel, worse[-1])
        assert "try again" in verdict and retry.stars == 0
    best = marked.best[0]
    verdict = try_with_controls(panel, best)
    assert "Found" in verdict and retry.stars == (2 if worse else 3) and retry.solved
    assert table.announcer.text.startswith("✓ Best") and "★" in table.announcer.text
    panel.retry_close.click()
    assert panel.retry_box.layout.display == "none" and panel.retry is None


def grade_of(value: object) -> Grade:
    from tartli.bots.review import grade

    return grade(value.loss)  # type: ignore[attr-defined]


def try_with_controls(panel: object, move: Move) -> str:
    """Try ``move`` as the learner would: a card clicked on the position, or its button."""
    from tartli.widgets.hand_review import ReviewPanel

    assert isinstance(panel, ReviewPanel)
    before = len(panel.retry.tries)  # type: ignore[union-attr]
    if isinstance(move, Play):
        panel.retry_board.pick(str(move.card))
    else:
        offered = panel.retry_moves_offered()
        assert move in offered
        panel.retry_moves.children[offered.index(move)].click()
    assert len(panel.retry.tries) == before + 1  # type: ignore[union-attr]
    return panel.retry_verdict.value


def play_match(table: TableController, rng: random.Random) -> None:
    """Random cards until the match is won (a claim when it is right)."""
    while not table.match_won():
        if table.state.is_over:
            table.next_button.click()
            continue
        moves = table.offered_moves()
        right = [m for m in moves if isinstance(m, GoOut) and table.state.claim(table.human).valid]
        table.act(right[0] if right else rng.choice([m for m in moves if isinstance(m, (Play, Declare))]))


def test_the_match_summary_at_the_end_of_a_match() -> None:
    table = quick(TableController(seed=4, rules=RuleSet(buli_target=1), level="easy"))
    play_match(table, random.Random(4))
    hands = table.summaries
    assert len(hands) == len(table.match.results) + 1 and all(isinstance(h, HandSummary) for h in hands)
    shown = table.summary_view.value
    assert "Match summary" in shown and shown.count("<th scope='row'") == len(hands)
    for h in hands:
        assert f"{h.melds[0]} : {h.melds[1]}" in shown and f"{h.cards[0]} : {h.cards[1]}" in shown
    assert "Running accuracy" in shown and "Your accuracy over the match" in shown
    last = hands[-1]
    state = table.state
    assert last.cards == (state.card_points[0], state.card_points[1])
    assert last.melds == (state.meld_points[0], state.meld_points[1])
    found = table.review_panel.run()  # the full review replaces the quick summary of the last hand
    assert table.summaries[-1] == found.summary
    assert table.summary_view.value == match_summary_html(table.summaries, table._said, table.human)


def test_the_hands_summaries_are_kept_with_the_saved_match() -> None:
    table = quick(TableController(seed=6, rules=RuleSet(buli_target=3), level="easy"))
    rng = random.Random(6)
    for _hand in range(2):
        while not table.state.is_over:
            table.act(rng.choice([m for m in table.offered_moves() if isinstance(m, Play)]))
        if table.match_won():
            break
        table.review_panel.run()  # the first hand reviewed in full, the second summed up at Next hand
        table.next_button.click()
    kept = table.saved_game()
    assert len(json.loads(kept)["summaries"]) == len(table.summaries) >= 1
    again = TableController(seed=99, rules=RuleSet(buli_target=3), level="easy")
    assert again.restore_game(kept)
    assert again.summaries == table.summaries
    assert json.loads(again.saved_game())["summaries"] == json.loads(kept)["summaries"]
    broken = json.loads(kept)
    broken["summaries"] = [{"player": 0}]
    assert not _restores(broken)


def _restores(data: dict[str, object]) -> bool:
    from tartli.errors import TartliError

    try:
        return TableController(seed=1).restore_game(json.dumps(data))
    except TartliError:
        return False


def test_the_review_is_gone_in_a_new_hand_and_at_a_table_for_two() -> None:
    table = finished_hand(12)
    table.review_panel.run()
    assert table.review_view.value and table.review_panel.retry_buttons.children
    table.two_toggle.value = True  # a new match for two people (asked first: a hand was played)
    table.yes_button.click()
    assert table.two_players and not table.state.moves
    assert table.review_view.value == "" and not table.review_panel.retry_buttons.children
    assert table.review_panel.button.layout.display == "none" and table.summary_view.value == ""


def test_next_hand_counts_the_decisions_it_sums_up_in_the_message_line() -> None:
    """Next hand reviews an unreviewed hand for the match summary (seconds at the course's budget):
    the message line counts the decisions meanwhile, then says who deals."""
    table = finished_hand(12)
    said: list[str] = []
    table.message.observe(lambda change: said.append(change["new"]), names="value")
    table.next_button.click()
    counts = [re.search(r"(\d+) of (\d+) decisions", text) for text in said]
    counts = [(int(m[1]), int(m[2])) for m in counts if m]
    assert counts and counts[-1][0] == counts[-1][1] >= 5, said
    last_count = max(i for i, text in enumerate(said) if "decisions" in text)
    assert any("Hand 2: " in text for text in said[last_count:]) and table.summaries  # then the next hand, booked
