"""The scenario lab: editing a position by clicks, the engine's checks, playing it, records, challenges;
and lesson 13, which teaches the lab in steps."""

from __future__ import annotations

from typing import Any

import pytest

from tartli import Card, Deal, HandState, RuleSet
from tartli.course import PAGES
from tartli.moves import Play
from tartli.record import Record, result
from tartli.widgets.lab import LabChallenge, ScenarioLab
from tests.test_steps import run_lesson


def test_the_lab_starts_from_a_seeded_deal_and_draws_every_card_pickable() -> None:
    lab = ScenarioLab(seed=3)
    seeded, shown = Deal.from_seed(3, dealer=1), lab.deal()
    assert [sorted(h) for h in shown.hands] == [sorted(h) for h in seeded.hands]  # a hand's order is no matter
    assert (shown.indicator, shown.talon, shown.dealer) == (seeded.indicator, seeded.talon, seeded.dealer)
    assert all(f'data-pick="{c.text}"' in lab.board.svg for c in Deal.from_seed(3).talon)
    assert "talon 13/13" in lab.board.svg
    assert "Your hand 9/9 · the computer&#x27;s 9/9" in lab.board.svg  # the learner plays hand 0 against the computer
    assert ">You</text>" in lab.board.svg and ">Computer</text>" in lab.board.svg
    assert "P0" not in lab.board.svg and "Player" not in lab.board.svg
    assert [label for label, _ in lab.dealer.options] == ["You deal", "The computer deals"]
    assert list(lab.brush.options)[:2] == [("Your hand", "hand0"), ("The computer's hand", "hand1")]


@pytest.mark.rule("C1", "D1")
def test_moving_one_card_breaks_the_deal_and_the_engine_says_why() -> None:
    lab = ScenarioLab(seed=3)
    card = lab.deal().hands[1][0]
    lab.place = "hand0"
    lab.board.pick(card.text)  # player 0 now has 10 cards, player 1 has 8
    lab.check_button.click()
    assert lab.message.value.count("D1") == 1 and "hand has 10 cards" in lab.message.value
    assert "not complete" in lab.download.value
    lab.place = "hand1"
    lab.click(card.text)
    lab.check_button.click()
    assert "dealt correctly (C1, D1): you lead" in lab.message.value  # the computer deals seed 3


@pytest.mark.rule("D1")
def test_the_talon_keeps_the_order_of_the_clicks() -> None:
    lab = ScenarioLab(seed=5)
    talon = list(lab.deal().talon)
    lab.place = "hand0"
    for card in talon[:2]:
        lab.click(card.text)
    lab.place = "talon"
    for card in reversed(talon[:2]):
        lab.click(card.text)
    assert lab.talon[-2:] == [talon[1], talon[0]]
    assert lab.talon[:11] == talon[2:] and len(lab.talon) == 13


def test_one_indicator_only() -> None:
    lab = ScenarioLab(seed=5)
    old = lab.deal().indicator
    new = lab.deal().talon[0]
    lab.place = "indicator"
    lab.click(new.text)
    assert lab.where[new] == "indicator" and old not in lab.where
    lab.place = "talon"
    lab.click(old.text)
    assert lab.deal().indicator == new and lab.deal().talon[-1] == old


def test_playing_the_position_opens_a_table_on_exactly_that_deal() -> None:
    lab = ScenarioLab(seed=8)
    lab.score0.value, lab.score1.value = 480, 120
    lab.rules.value = "austrian"
    table = lab.play()
    assert table.state.deal == lab.deal()
    assert table.state.scores_in == (480, 120) and table.state.rules == RuleSet.austrian()
    assert lab.table_box.children == (table.widget,)
    table.act(next(m for m in table.state.legal_moves() if isinstance(m, Play)))
    assert table.state.moves


def test_records_round_trip_through_the_lab() -> None:
    lab = ScenarioLab(seed=9)
    lab.score0.value = 333
    text = lab.record()
    other = ScenarioLab(seed=1)
    other.upload.receive("p.json", text.encode())
    assert other.deal() == lab.deal() and other.scores == (333, 0)
    assert result(Record.from_json(text).replay())["status"] == "in-progress"
    before = other.deal()
    other.load_record_guarded = other._guard(other.load_record)  # a bad record keeps the position
    other.load_record_guarded('{"format": "tartli/1", "dealer": 7}')
    assert other.deal() == before and other.message.value.startswith('<span style="color:#a40000">⚠ dealer:')


@pytest.mark.rule("T5", "M2", "B1", "D3")
def test_lab_challenges_are_judged_by_the_engine() -> None:
    lab = ScenarioLab(seed=2)
    for key, _ in LabChallenge.GOALS:
        ex = LabChallenge(lab, seed=1)
        ex.goal = next(g for g in LabChallenge.GOALS if g[0] == key)
        state = HandState(lab.deal(), lab.rule_set, lab.scores)
        ok, why = ex.met()
        assert "Player" not in why and "player 0" not in why and "player 1" not in why
        leader = state.to_move
        assert leader is not None
        trump = state.trump
        expected = {
            "swap": Card.parse(f"7{trump.value}") in state.hand(leader),
            "overs": leader == 0 and all(Card.parse(f"O{s}") in state.hand(0) for s in "ALHB"),
            "bela": {Card.parse(f"K{trump.value}"), Card.parse(f"O{trump.value}")} <= set(state.hand(leader)),
            "second-leads": leader == 1,
        }[key]
        assert ok == expected, key


def test_building_four_overs_solves_the_challenge_with_three_stars() -> None:
    lab = ScenarioLab(seed=2)
    lab.dealer.value = 1  # player 0 leads
    deal = lab.deal()
    overs = [Card.parse(f"O{s}") for s in "ALHB"]
    giveaway = [c for c in deal.hands[0] if c not in overs][: sum(c not in deal.hands[0] for c in overs)]
    for over, spare in zip([o for o in overs if o not in deal.hands[0]], giveaway, strict=True):
        origin = lab.where[over]
        lab.place = "hand0"
        lab.click(over.text)
        lab.place = origin  # type: ignore[assignment]
        lab.click(spare.text)
    ex = LabChallenge(lab, seed=1)
    ex.goal = next(g for g in LabChallenge.GOALS if g[0] == "overs")
    assert ex.check() and ex.stars == 3


def test_a_loaded_record_is_played_on_from_its_moves_until_the_position_is_edited() -> None:
    state = HandState.from_seed(4)
    for _ in range(3):
        state.push(next(m for m in state.legal_moves() if isinstance(m, Play)))
    lab = ScenarioLab(seed=1)
    lab.load_record(Record.from_state(state).to_json())
    table = lab.play()
    assert [str(m) for m in table.state.moves[:3]] == [str(m) for m in state.moves]
    lab.place = "hand0"
    lab.click(lab.deal().hands[0][0].text)  # editing (even a no-op move) makes it a new position
    assert lab.moves == []


def _take(lab: ScenarioLab, card: Card, place: str, keep: set[Card]) -> None:
    """Move ``card`` to ``place`` by clicks, sending a card of ``place`` (not in ``keep``) to where it was."""
    origin = lab.where[card]
    if origin == place:
        return
    spare = next(c for c, p in lab.where.items() if p == place and c not in keep)
    lab.place = place  # type: ignore[assignment]
    lab.click(card.text)
    lab.place = origin  # type: ignore[assignment]
    lab.click(spare.text)


def _check(task: Any) -> None:
    [button] = [b for b in task.exercise.controls.children if b.description == "Check my position"]
    button.click()


@pytest.mark.rule("M2", "D3", "T5", "B1", "D1")
def test_lesson_13_teaches_the_lab_in_steps_each_goal_built_by_clicks_on_its_own_lab() -> None:
    lesson = run_lesson(next(p for p in PAGES if p.file == "13_scenario_lab.ipynb"))
    tasks = [s.task for s in lesson.steps]
    labs = [t.exercise.lab for t in tasks if hasattr(t, "exercise")]
    assert len({id(lab) for lab in labs}) == len(labs)  # a lab a step: nothing carries over (issue 26)
    lab = tasks[0].exercise.lab
    assert lab.seed.value == 2024 and "Deal #2024" in lab.message.value  # the box names the deal shown

    lesson.go(0)  # four Overs in your hand; the computer deals, so you lead
    assert lesson.next_button.disabled
    overs = {Card.parse(f"O{s}") for s in "ALHB"}
    for over in sorted(overs):
        _take(lab, over, "hand0", overs)
    _check(tasks[0])
    assert tasks[0].done and not lesson.next_button.disabled

    lesson.go(1)  # the computer leads: you deal
    lab = tasks[1].exercise.lab
    lab.dealer.value = 0
    _check(tasks[1])
    assert tasks[1].done

    lesson.go(2)  # the leader (you: the computer deals in a fresh lab) may swap the trump Seven
    lab = tasks[2].exercise.lab
    trump = lab.deal().trump
    seven = Card.parse(f"7{trump.value}")
    if lab.where[seven] == "indicator":  # the Seven is the indicator: turn another card of the suit
        lab.place = "indicator"
        lab.click(Card.parse(f"8{trump.value}").text)
        lab.place = "talon"
        lab.click(seven.text)
    _take(lab, seven, "hand0", set())
    _check(tasks[2])
    assert tasks[2].done

    lesson.go(3)
    question = tasks[3]
    assert question.answer_text == str(len(Deal.from_seed(2024).talon)) == "13"
    assert question.choose("13")

    lesson.go(4)  # the leader (you) holds béla
    lab = tasks[4].exercise.lab
    trump = lab.deal().trump
    pair = {Card.parse(f"K{trump.value}"), Card.parse(f"O{trump.value}")}
    for card in sorted(pair):
        _take(lab, card, "hand0", pair)
    _check(tasks[4])
    assert tasks[4].done

    whole = lesson.steps[-2]
    assert whole.parts == (whole.task.exercise.lab.widget,)
    assert whole.task.exercise.progress_id == "lesson13.lab-challenge"
    assert lesson.steps[-1].recap


def test_on_a_phone_the_lab_draws_the_pack_at_the_phone_width_with_readable_text() -> None:
    import re

    lab = ScenarioLab(seed=5)
    lab.board.client_width = 358
    svg = lab.board.svg
    width = float(re.match(r'<svg[^>]* width="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    own = re.sub(r'<svg[^>]*class="tartli-card[^"]*".*?</svg>', "", svg[5:])
    assert width <= 358 and min(float(x) for x in re.findall(r'font-size="([\d.]+)"', own)) >= 9
    assert svg.count("data-pick=") == 32  # the whole pack, still one click a card
    lab.board.client_width = 1000
    assert float(re.match(r'<svg[^>]* width="([\d.]+)"', lab.board.svg).group(1)) > 600  # type: ignore[union-attr]
