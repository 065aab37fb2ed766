"""The scenario lab: editing a position by clicks, the engine's checks, playing it, records, challenges;
and lesson 13, which teaches the lab in steps."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest

from tartli import Card, Deal, HandState, RuleSet
from tartli.course import PAGES
from tartli.moves import Play
from tartli.record import Record, result
from tartli.widgets.lab import CheckTask, LabChallenge, PlayTask, ScenarioLab
from tartli.widgets.steps import Lesson
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
    assert lab.message.value.count("D1") == 1 and "⚠" not in lab.message.value  # unfinished, not wrong
    assert "your hand has 1 card too many; place 1 more card in the computer&#x27;s hand" in lab.message.value
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


@pytest.mark.rule("C1", "D1", "S1")
@pytest.mark.usefixtures("hungarian")
def test_a_bad_record_is_refused_in_hungarian_with_its_field_and_rule_as_they_are() -> None:
    """Issue 40: the lab showed the engine's refusal of a record in English on a Hungarian page ("C1: Nine
    of Acorns (9A) is dealt twice: in player 0's hand and in the talon"). The record's field and the
    rule ID stay in front, as the record and RULES.md write them; the words are Hungarian."""
    lab = ScenarioLab(seed=9)
    data = json.loads(lab.record())
    twice = Card.parse(data["hands"][0][0])
    before = lab.deal()
    said = []
    for change in ({"talon": [*data["talon"][:-1], str(twice)]}, {"scores": [-1, 0]}, {"talon": 3}):
        lab.upload.receive("p.json", json.dumps({**data, **change}).encode())
        assert lab.deal() == before  # a bad record keeps the position
        said.append(html.unescape(re.sub(r"<[^>]*>", "", lab.message.value)))
    assert said == [
        f"⚠ hands/trump/talon: C1: {twice.name().forms['the']} kétszer van kiosztva: az egyik játékos kezében"
        " és a talonban",
        "⚠ scores: két 0 és 1\u00a0000\u00a0000 közötti egész számnak kell lennie, például [0, 0] (S1)",
        "⚠ talon: 13 lapból álló listának kell lennie",
    ]


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
            "bela-501": lab.scores[0] >= 461
            and {Card.parse(f"K{trump.value}"), Card.parse(f"O{trump.value}")} <= set(state.hand(0)),
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


def _lesson_13() -> Lesson:
    return run_lesson(next(p for p in PAGES if p.file == "13_scenario_lab.ipynb"))


def _overs(lab: ScenarioLab) -> None:
    overs = {Card.parse(f"O{s}") for s in "ALHB"}
    for over in sorted(overs):
        _take(lab, over, "hand0", overs)


@pytest.mark.rule("M2", "D3", "T5", "B1", "D1")
def test_lesson_13_teaches_the_lab_in_steps_on_one_lab_each_goal_built_by_clicks() -> None:
    lesson = _lesson_13()
    tasks = [s.task for s in lesson.steps]
    lab = tasks[0].exercise.lab
    assert all(getattr(t, "exercise", t).lab is lab for t in tasks if t is not None)  # one lab (issue 36)
    assert lab.seed.value == 2024 and "Deal #2024" in lab.message.value  # the box names the deal shown

    lesson.go(0)  # four Overs in your hand; the computer deals, so you lead
    assert lesson.next_button.disabled
    _overs(lab)
    _check(tasks[0])
    assert tasks[0].done and not lesson.next_button.disabled

    lesson.go(1)  # you lead: you may swap the trump Seven
    assert not tasks[1].exercise.met()[0]
    trump = lab.deal().trump
    seven = Card.parse(f"7{trump.value}")
    _take(lab, seven, "hand0", {Card.parse(f"O{s}") for s in "ALHB"})
    _check(tasks[1])
    assert tasks[1].done

    lesson.go(2)  # the computer leads: you deal
    assert not tasks[2].exercise.met()[0]
    lab.dealer.value = 0
    _check(tasks[2])
    assert tasks[2].done

    lesson.go(3)  # a card out of place, checked; then the whole deal again
    assert isinstance(tasks[3], CheckTask) and not tasks[3].done
    lab.check_button.click()  # a whole deal, but nothing found missing yet
    assert not tasks[3].done and lesson.next_button.disabled
    spare = next(c for c, p in lab.where.items() if p == "hand0" and c.rank.name != "OVER" and c != seven)
    lab.place = "talon"
    lab.click(spare.text)
    lab.check_button.click()
    assert "place 1 more card in your hand; the talon has 1 card too many" in lab.message.value
    assert not tasks[3].done
    lab.place = "hand0"
    lab.click(spare.text)
    lab.check_button.click()
    assert tasks[3].done and "dealt correctly" in lab.message.value

    lesson.go(4)  # your score 461 and béla (out of turn: the computer leads): 501 at once
    assert not tasks[4].exercise.met()[0]
    lab.score0.value = 461
    pair = {Card.parse(f"K{trump.value}"), Card.parse(f"O{trump.value}")}
    for card in sorted(pair):
        _take(lab, card, "hand0", pair)
    _check(tasks[4])
    assert tasks[4].done and "from 461 to 501" in tasks[4].exercise.feedback.value

    lesson.go(5)  # played from the learner's own position
    assert isinstance(tasks[5], PlayTask) and not tasks[5].done
    lab.play_button.click()
    table = lab.table
    assert table is not None and table.state.deal == lab.deal() and not tasks[5].done
    move = next(m for m in table.state.legal_moves() if isinstance(m, Play) and m.player == table.human)
    table.click_card(move.card.text)
    assert tasks[5].done and not lesson.next_button.disabled

    whole = lesson.steps[-2]
    lesson.go(len(lesson.steps) - 2)
    assert whole.parts == (lab.widget,) and not whole.task.exercise.met()[0]  # an open goal
    assert whole.task.exercise.progress_id == "lesson13.lab-challenge"
    assert lesson.steps[-1].recap


def test_lesson_13_a_check_with_a_card_too_many_says_what_is_missing_and_is_no_slip() -> None:
    """Issue 36: the learner took a card in (ten in the hand) and checked: that counted as a slip."""
    lesson = _lesson_13()
    task = lesson.steps[0].task
    exercise, lab = task.exercise, task.exercise.lab
    lesson.go(0)
    lab.brush.value = "hand0"
    lab.board.pick("OH")  # the fourth Over, from the computer's hand: yours has ten now
    _check(task)
    said = exercise.feedback.value
    assert "your hand has 1 card too many; place 1 more card in the computer's hand" in said
    assert "Not yet" not in said and "player 0" not in said and "info" in said
    assert exercise.mistakes == 0 and "no slips" in exercise.score_html.value and not task.done
    lab.brush.value = "hand1"
    lab.board.pick("8A")  # a card given back: a whole deal with the four Overs in your hand
    _check(task)
    assert task.done and exercise.stars == 3 and "no slips" in exercise.score_html.value


def test_lesson_13_the_position_built_on_a_step_is_there_on_the_next() -> None:
    lesson = _lesson_13()
    lab = lesson.steps[0].task.exercise.lab
    lesson.go(0)
    _overs(lab)
    lab.place = "indicator"
    lab.click("9H")  # Hearts are trumps now, the old indicator pale
    built = (dict(lab.where), list(lab.talon))
    _check(lesson.steps[0].task)
    for number in range(1, len(lesson.steps) - 1):
        lesson.next_button.click() if lesson.may_continue() else lesson.go(number)
        shown = lesson.steps[number]
        lab_here = getattr(shown.task, "exercise", shown.task).lab
        assert (dict(lab_here.where), list(lab_here.talon)) == built, f"step {number + 1}"
        assert lab_here is lab and any(x is lab.message for x in _widgets(shown.box)), f"step {number + 1}"


def _widgets(widget: Any) -> list[Any]:
    found = [widget]
    for child in getattr(widget, "children", ()):
        found += _widgets(child)
    return found


def test_lesson_13_every_step_but_the_recap_asks_the_learner_to_do_something() -> None:
    """Issue 36: a learner skimmed 3 of the 8 steps (no task; a question the text answered; a goal that
    had nothing to do with the step). Each step's task now uses what its step shows, and none is
    done before the learner acts."""
    lesson = _lesson_13()
    for number, step in enumerate(lesson.steps[:-1], 1):
        lesson.go(number - 1)
        assert step.task is not None and not step.task.done, f"step {number}"
        assert lesson.next_button.disabled, f"step {number}"
    goals = [s.task.exercise.goal[0] for s in lesson.steps if hasattr(s.task, "exercise")]
    assert goals[:4] == ["overs", "swap", "second-leads", "bela-501"]  # scores and rules: béla to 501
    assert "461" in lesson.steps[4].text and "B1" in lesson.steps[4].text


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


@pytest.mark.usefixtures("hungarian")
def test_a_record_that_is_not_json_is_refused_in_hungarian_words_with_its_line_and_column() -> None:
    """Issue 40: the lab said Python's "Expecting value: line 1 column 1 (char 0)" inside a Hungarian sentence; the
    JSON reader's and the UTF-8 decoder's reasons are said in the page's words, the line and column kept."""
    lab = ScenarioLab(seed=9)
    said = []
    for text in (b"", b'{"format" "tartli/1"}', b'{"format": "tartli/1"} x'):
        lab.upload.receive("p.json", text)
        said.append(html.unescape(re.sub(r"<[^>]*>", "", lab.message.value)))
    assert said == [
        "⚠ nem JSON: itt egy értéknek kellene állnia (1. sor, 1. oszlop)",
        "⚠ nem JSON: a mező neve után hiányzik a kettőspont (1. sor, 11. oszlop)",
        "⚠ nem JSON: a mentett játék vége után még további szöveg áll (1. sor, 24. oszlop)",
    ]
    with pytest.raises(ValueError, match=r"^nem olvasható: nem UTF-8 szöveg \(érvénytelen kezdőbájt a szöveg elejétől"):
        Record.from_json(b"\xff")  # (the lab's file button refuses such a file itself, before the record reads it)


def test_the_replay_commands_words_for_a_bad_json_record_stay_pythons() -> None:
    """RECORD.md: the replay command's stderr line is English and names Python's reason as it always did."""
    with pytest.raises(ValueError, match=r"^not JSON: Expecting value at line 1 column 1$"):
        Record.from_json("")


def _record_with_a_move_out_of_turn() -> tuple[str, str]:
    state = HandState.from_seed(4)
    waiting = 1 - (state.to_move or 0)
    move = f"{waiting}: play {state.hand(waiting)[0].text}"
    data = json.loads(Record.from_state(state).to_json())
    return json.dumps({**data, "moves": [move]}), move


@pytest.mark.usefixtures("hungarian")
def test_a_record_whose_move_cannot_be_made_is_refused_in_the_pages_language_when_played() -> None:
    """Issue 40: the lab showed a replay refusal with the command's English prefix ('move 0 "1: play ...": ...') on
    a Hungarian page; the page counts the move from 1 in its own words, and the command's line is unchanged."""
    from tartli.record import ReplayError

    text, move = _record_with_a_move_out_of_turn()
    lab = ScenarioLab(seed=1)
    lab.load_record(text)
    lab._guard(lab.play)()
    said = html.unescape(re.sub(r"<[^>]*>", "", lab.message.value))
    assert said.startswith(f'⚠ A mentett játék 1. lépése, "{move}", nem léphető meg: '), said
    assert "move 0" not in said
    with pytest.raises(ReplayError, match=rf'^move 0 "{re.escape(move)}": '):
        Record.from_json(text).replay()
