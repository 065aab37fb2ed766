"""The quizzes of lessons 03 and 04 (tartli.widgets.quizzes): DealQuiz and DrawQuiz; and lessons 03, 04, 05 and 07
as steps.

Every verdict must be the engine's: the tests recompute it from the position
with the engine's own calls (``to_move``, ``is_legal``, ``talon``, the trick
records, ``Match``), press the answer buttons with ``.click()`` and read the
feedback, as the page would show it.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import ipywidgets as w
import pytest

from tartli.cards import Card, Rank, Suit
from tartli.course import PAGES
from tartli.game import Deal, HandState, Phase
from tartli.melds import Meld, find_melds
from tartli.moves import Play, Swap
from tartli.widgets.quizzes import QUIZZES, DealQuiz, DrawQuiz
from tartli.widgets.steps import ExerciseTask, Question
from tartli.widgets.trainers import Exercise, Progress
from tests.test_steps import run_lesson

SEEDS = range(30)


def feedback_text(ex: Exercise) -> str:
    return re.sub(r"<[^>]+>", "", ex.feedback.value)


def buttons(ex: Exercise) -> list[Any]:
    return [b for b in ex.controls.children if isinstance(b, w.Button)]


def press(quiz: DealQuiz | DrawQuiz, value: int | bool) -> None:
    """Press the answer button that stands for ``value``."""
    labels = [label for label, v in quiz.choices if v == value and isinstance(v, bool) == isinstance(value, bool)]
    assert len(labels) == 1, (value, quiz.choices)
    found = [b for b in buttons(quiz) if b.description == labels[0]]
    assert len(found) == 1
    found[0].click()


def wrong_answer(quiz: DealQuiz | DrawQuiz) -> int | bool:
    truth = quiz.truth
    return next(v for _, v in quiz.choices if v != truth)


def trump_seven(quiz: DealQuiz | DrawQuiz) -> Card:
    return Card(Rank.SEVEN, quiz.state.trump)


# ---------------------------------------------------------------------------- both quizzes
@pytest.mark.parametrize("cls", [DealQuiz, DrawQuiz])
def test_right_answer_by_button_solves_with_three_stars(cls: type[DealQuiz | DrawQuiz]) -> None:
    for seed in range(12):
        progress = Progress()
        quiz = cls(seed=seed, progress=progress, progress_id=f"lesson.{cls.id}")
        assert (quiz.solved, quiz.stars) == (False, 0)
        assert len(buttons(quiz)) == len(quiz.choices) >= 2
        assert sum(v == quiz.truth for _, v in quiz.choices) == 1  # the right answer is offered once
        press(quiz, quiz.truth)
        assert (quiz.solved, quiz.stars, quiz.attempts) == (True, 3, 1)
        assert feedback_text(quiz).startswith("Right")
        assert all(b.disabled for b in buttons(quiz))
        assert progress.stage(f"lesson.{cls.id}") == (1, 0) and progress.stage(cls.id) == (0, 0)


RULES_CITED = {
    ("deal-quiz", "leader"): "D3",
    ("deal-quiz", "swap"): "T5",
    ("deal-quiz", "talon"): "D1",
    ("deal-quiz", "dealer"): "D2",
    ("draw-quiz", "draws-first"): "T3",
    ("draw-quiz", "talon"): "T3",
    ("draw-quiz", "indicator"): "T3",
    ("draw-quiz", "may-play"): "T2",
}


@pytest.mark.rule("D1", "D2", "D3", "T2", "T3", "T5")
@pytest.mark.parametrize(("qid", "kind"), list(RULES_CITED))
def test_a_wrong_answer_explains_with_the_rule_then_the_right_one_earns_two_stars(qid: str, kind: str) -> None:
    for seed in range(6):
        quiz = QUIZZES[qid](seed=seed, kinds=(kind,))
        wrong = wrong_answer(quiz)
        press(quiz, wrong)
        text = feedback_text(quiz)
        assert not quiz.solved and quiz.mistakes == 1
        assert text.startswith("Not quite: the answer is " + quiz.answer_text(quiz.truth))
        assert RULES_CITED[qid, kind] in text
        assert not any(b.disabled for b in buttons(quiz))
        press(quiz, quiz.truth)
        assert (quiz.solved, quiz.stars) == (True, 2)


@pytest.mark.parametrize("cls", [DealQuiz, DrawQuiz])
def test_same_seed_same_questions_and_each_new_question_is_new(cls: type[DealQuiz | DrawQuiz]) -> None:
    a, b = cls(seed=21), cls(seed=21)

    def seen(q: DealQuiz | DrawQuiz) -> tuple[object, ...]:
        return (q.kind, q.question, q.truth, q.choices, q.board.svg, tuple(map(str, q.state.moves)))

    keys = [seen(a)]
    assert seen(a) == seen(b)
    for _ in range(6):
        a.new_button.click()
        b.new_position()
        assert seen(a) == seen(b)
        assert seen(a) != keys[-1]
        keys.append(seen(a))
    assert len({k[0] for k in keys}) >= 2  # several kinds of question come up
    assert seen(cls(seed=22)) != keys[0] or seen(cls(seed=23)) != keys[0]


PROGRAMMERS_WORDS = re.compile(r"[Pp]layer [01]|Játékos|\bP[01]\b")
"""The engine's numbers for the players: never shown to the learner, who is "you" against "the computer"."""
WRONG_VERB = re.compile(
    r"\b[Yy]ou (has|is|leads|holds|plays|takes|draws|deals|wins|says)\b"
    r"|(?<!May the )(?<!Does the )computer (have|are|lead|hold|play|take|draw|deal|win|say)\b"
)


def shown_words(quiz: Any) -> str:
    """Everything a quiz shows in words: the question, the answers, the explanation and the picture's text."""
    labels = [label for label, _ in quiz.choices]
    picture = " ".join(re.findall(r">([^<>]+)</text>", quiz.board.svg))
    return " | ".join([quiz.question, *labels, quiz.explain(), picture])


@pytest.mark.parametrize("cls", [DealQuiz, DrawQuiz])
def test_the_learner_reads_you_and_the_computer_never_player_numbers(cls: type[DealQuiz | DrawQuiz]) -> None:
    for kind in cls.KINDS:
        for seed in range(10):
            quiz = cls(seed=seed, kinds=(kind,))
            words = shown_words(quiz)
            assert not PROGRAMMERS_WORDS.search(words), words
            assert not WRONG_VERB.search(words), words
            if kind in cls.PLAYER_KINDS:
                assert quiz.choices == [("You", 0), ("The computer", 1)]
                assert quiz.answer_text(quiz.truth) in ("you", "the computer")


@pytest.mark.parametrize("cls", [DealQuiz, DrawQuiz])
def test_answers_of_the_wrong_type_and_unknown_kinds_are_refused(cls: type[DealQuiz | DrawQuiz]) -> None:
    with pytest.raises(ValueError, match="question kinds"):
        cls(seed=1, kinds=("no-such-question",))
    yes_no = "swap" if cls is DealQuiz else "may-play"
    quiz = cls(seed=1, kinds=(yes_no,))
    with pytest.raises(ValueError, match="yes/no"):
        quiz.answer(1)
    assert quiz.attempts == 0


# ---------------------------------------------------------------------------- DealQuiz
@pytest.mark.rule("D3")
def test_deal_quiz_who_leads_is_to_move_at_the_start_of_the_trick() -> None:
    for seed in SEEDS:
        quiz = DealQuiz(seed=seed, kinds=("leader",))
        state = quiz.state
        assert state.lead is None and state.to_move == state.leader
        assert quiz.truth == state.to_move
        if state.trick_number == 1:
            assert quiz.truth == 1 - state.dealer  # the non-dealer leads the first trick
            assert "dealt" in quiz.explain()
        else:
            assert quiz.truth == state.tricks[-1][3]  # the winner of the last trick leads
            assert f"won trick {state.trick_number - 1}" in quiz.explain()
        assert quiz.answer(quiz.truth) and quiz.stars == 3


@pytest.mark.rule("T5")
def test_deal_quiz_swap_verdict_is_the_engines_over_30_seeds() -> None:
    verdicts = set()
    for seed in SEEDS:
        quiz = DealQuiz(seed=seed, kinds=("swap",))
        state, p = quiz.state, quiz.holder
        assert trump_seven(quiz) in state.hand(p)  # the question is about the holder of the trump 7
        assert quiz.truth is state.is_legal(Swap(p))
        verdicts.add(quiz.truth)
        text = quiz.explain()
        assert "T5" in text
        if quiz.truth:
            assert p == state.leader and state.lead is None and state.trick_number <= 7
            assert "also keep the Seven" in text
        elif state.indicator is None:
            assert "loser of trick 7 took it" in text
        elif p != state.leader:
            assert "only the player about to lead" in text
        elif state.lead is not None:
            assert "led already" in text
        else:
            assert "declared already" in text
        assert f'data-card="{trump_seven(quiz)}"' in quiz.board.svg
    assert verdicts == {True, False}


SWAP_REFUSALS = ("only the player about to lead", "led already", "declared already", "loser of trick 7 took it")


@pytest.mark.rule("T5")
def test_deal_quiz_swap_cases_come_up() -> None:
    reasons = set()
    for seed in range(60):
        quiz = DealQuiz(seed=seed, kinds=("swap",))
        if not quiz.truth:
            reasons.add(next(r for r in SWAP_REFUSALS if r in quiz.explain()))
    assert len(reasons) >= 4  # second player, led already, declared already, indicator gone


@pytest.mark.rule("D1", "T3")
def test_deal_quiz_talon_counts_the_face_down_cards_and_the_indicator() -> None:
    counts = set()
    for seed in SEEDS:
        quiz = DealQuiz(seed=seed, kinds=("talon",))
        state = quiz.state
        view = state.view(0)
        expected = view.talon_size + (1 if view.indicator is not None else 0)
        assert quiz.truth == expected
        if state.trick_number == 1:
            assert quiz.truth == 14
        counts.add(quiz.truth)
        assert f"talon: {expected}" not in quiz.board.svg  # the picture does not give it away
        assert "D1" in quiz.explain()
    assert {14, 0} & counts and len(counts) >= 5


@pytest.mark.rule("D2")
def test_deal_quiz_dealer_alternates_as_the_match_deals() -> None:
    for seed in SEEDS:
        quiz = DealQuiz(seed=seed, kinds=("dealer",))
        assert quiz.match is not None
        dealers = [r.dealer for r in quiz.match.results] + [quiz.state.dealer]
        assert len(dealers) >= 2
        assert all(a != b for a, b in itertools.pairwise(dealers))
        assert quiz.truth == quiz.match.state.dealer == quiz.match.dealer
        assert "alternates" in quiz.explain()


# ---------------------------------------------------------------------------- DrawQuiz
@pytest.mark.rule("T3")
def test_draw_quiz_the_winner_draws_first() -> None:
    for seed in SEEDS:
        quiz = DrawQuiz(seed=seed, kinds=("draws-first",))
        state, n = quiz.state, quiz.number
        assert 1 <= n <= 7 and state.trick_number == n + 1 and state.lead is None
        draws = [e for e in state.events if e.kind == "draw" and e.trick == n]
        assert [e.player for e in draws] == [quiz.truth, 1 - quiz.truth]
        assert quiz.truth == state.tricks[n - 1][3]  # the trick's winner
        assert quiz.answer(quiz.truth) and quiz.stars == 3


@pytest.mark.rule("T3")
def test_draw_quiz_talon_left_after_each_trick() -> None:
    counts = set()
    for seed in SEEDS:
        quiz = DrawQuiz(seed=seed, kinds=("talon",))
        state, n = quiz.state, quiz.number
        assert quiz.truth == len(state.talon) + (state.indicator is not None)
        assert quiz.truth == (0 if n == 7 else 14 - 2 * n)
        assert len(state.hand(0)) == len(state.hand(1)) == 9  # both have drawn back to nine
        counts.add(quiz.truth)
    assert len(counts) >= 5


@pytest.mark.rule("T3")
def test_draw_quiz_the_loser_of_trick_7_takes_the_indicator() -> None:
    for seed in SEEDS:
        quiz = DrawQuiz(seed=seed, kinds=("indicator",))
        state = quiz.state
        assert quiz.number == 7 and state.phase is Phase.SECOND and state.indicator is None
        loser = 1 - state.tricks[6][3]
        assert quiz.truth == loser
        swapped = any(e.kind == "swap" for e in state.events)
        taken = trump_seven(quiz) if swapped else state.deal.indicator
        assert taken in state.hand(loser)
        assert taken.name() in quiz.explain() and "phase 2" in quiz.explain()


@pytest.mark.rule("T2")
def test_draw_quiz_the_second_player_may_play_any_card_in_phase_1() -> None:
    off_suit = 0
    for seed in SEEDS:
        quiz = DrawQuiz(seed=seed, kinds=("may-play",))
        state = quiz.state
        p = state.to_move
        assert p is not None and p != state.leader and state.lead is not None and state.phase is Phase.FIRST
        assert quiz.card in state.hand(p)
        assert quiz.truth is state.is_legal(Play(p, quiz.card)) is True
        if quiz.card.suit not in (state.lead.suit, state.trump):
            off_suit += 1
        assert f'class="tartli-card face highlighted" data-card="{quiz.card}"' in quiz.board.svg
        assert not quiz.answer(False) and "T2" in feedback_text(quiz)
    assert off_suit >= 10  # mostly cards that neither follow suit nor trump


def test_quizzes_keep_stars_under_the_lesson_id() -> None:
    progress = Progress()
    deal = DealQuiz(seed=4, progress=progress, progress_id="lesson03.quiz")
    draw = DrawQuiz(seed=4, progress=progress, progress_id="lesson04.quiz")
    deal.answer(deal.truth)
    draw.answer(wrong_answer(draw))
    draw.answer(draw.truth)
    assert progress.stage("lesson03.quiz") == (1, 0) and progress.stage("lesson04.quiz") == (0, 1)
    assert deal.board.storage_key == "tartli.trainers.lesson03.quiz"


# ---------------------------------------------------------------------------- lesson 03 as steps
def test_lesson_03_deals_as_d1_says_and_shows_the_whole_table() -> None:
    lesson = run_lesson(next(p for p in PAGES if p.file == "03_deal.ipynb"))
    by_title = {s.title: s for s in lesson.steps}
    talon = by_title["The trump indicator and the talon"]
    deal = Deal.from_seed(12)
    assert isinstance(talon.task, Question) and talon.task.answer_text == str(len(deal.talon) + 1) == "14"
    assert "19th" in talon.text and "V1" in talon.text  # the 10th card is an Austrian choice, not the error
    assert "33" not in talon.text and "still add up to 32" in talon.text  # no source's error (issue 36 item 19)
    table = str(by_title["The table"].parts)
    assert 'class="tartli-table"' in table and 'class="tartli-table narrow"' in table  # wide, and upright on a phone
    assert "The computer" in table and "Player 1" not in table
    assert isinstance(by_title["The table"].task, Question)
    trump = next(card for card in deal.hands[0] if card.suit is deal.indicator.suit)  # (issue 36: not the label's)
    assert by_title["The table"].task.answer_text == trump.name()
    packets = by_title["Nine cards each"]
    assert isinstance(packets.task, Question) and packets.task.answer_text == "The computer"  # you deal: 7-9 are its
    for title in ("Swapping the trump Seven", "Why keep the Seven?"):
        task = by_title[title].task
        assert isinstance(task, Question) and task.answer_text == "No" and "T5" in task.explain
    text = " ".join(s.text for s in lesson.steps)
    for wrong in ("both players will draw during the first half", "hetes", "turned-up card", "Player 0"):
        assert wrong not in text  # errata: one term for the turned card and the trump Seven; our own words
    quiz = lesson.steps[-2].task
    assert isinstance(quiz, ExerciseTask) and isinstance(quiz.exercise, DealQuiz)
    assert quiz.exercise.progress_id == "lesson03.quiz"


# ---------------------------------------------------------------------------- lessons 04, 05 and 07 as steps
def lesson_steps(file: str) -> dict[str, Any]:
    lesson = run_lesson(next(p for p in PAGES if p.file == file))
    return {s.title: s for s in lesson.steps}


def question(step: Any) -> Question:
    assert isinstance(step.task, Question), step.title
    return step.task


def test_lesson_04_draws_as_t3_says() -> None:
    steps = lesson_steps("04_phase_one.ipynb")
    assert question(steps["Two phases"]).answer_text == "7"
    free = HandState.from_seed(21, dealer=0)
    free.push(Play(1, free.hand(1)[0]))
    assert len([m for m in free.legal_moves() if isinstance(m, Play)]) == 9  # T2: any card
    assert question(steps["Any card will do"]).answer_text == "Yes"
    assert question(steps["Two cards fewer each trick"]).answer_text == "8"  # 14 - 3 x 2
    swap = question(steps["Trick 7 and the trump indicator"])
    assert swap.answer_text == "The Seven of Hearts" and "T5" in swap.explain  # the trump Seven swapped in
    assert "tartli-narrow-only" in str(steps["Seven tricks, played by the computer"].parts)  # a phone's own table
    assert steps["Your turn: the first seven tricks"].task is None
    quiz = steps["Trick and draw"].task
    assert isinstance(quiz, ExerciseTask) and quiz.exercise.progress_id == "lesson04.quiz"
    text = " ".join(s.text + " ".join(getattr(s.task, "options", [])) for s in steps.values())
    for wrong in ("turned-up", "trump 7", "Player 0", "newest line first"):
        assert wrong not in text  # errata: one term for the turned card and the trump Seven; the log reads down


def test_lesson_05_names_every_meld_of_the_starting_hand_and_keeps_the_ladder_for_lesson_07() -> None:
    steps = lesson_steps("05_melds.ipynb")
    start = [Card.parse(c) for c in ("UA", "UL", "UH", "UB", "OH", "XH", "KL", "OL", "7A")]
    explore = steps["Explore: the melds in a hand"]
    melds = find_melds(start, trump=Suit.LEAVES)
    assert len(melds) == 4
    for meld in melds:  # errata: the Leaf-King-Terc was missing
        assert meld.title().lower() in explore.text.lower(), meld
    without = find_melds([c for c in start if c != Card.parse("UH")], trump=Suit.LEAVES)
    assert question(explore).answer_text == str(len(without)) == "2"
    text = " ".join(s.text for s in steps.values())
    assert "longest" not in text  # errata: a long run may score in steps (lesson 07), not "announce the longest"
    assert "07" in steps["Runs inside runs"].text
    assert "at most one set and at most one sequence" not in text  # a near-copy of the source, reworded
    assert question(steps["Only in tricks 1 to 8"]).answer_text == "Yes"  # trick 8 still allows melds (M4)
    assert question(steps["One set and one sequence a trick"]).answer_text == "One set and the terc"  # M5
    assert question(steps["Your moment, from your hand"]).answer_text == "No, only in a later trick"  # M7
    kvart = Meld.parse("kvart:OA")
    assert question(steps["From terc to okt"]).answer_text == str(kvart.value)
    finder = steps["Find the melds"].task
    assert isinstance(finder, ExerciseTask) and finder.exercise.progress_id == "lesson05.find-melds"


def test_lesson_07_ladder_builder_climbs_with_the_engine_and_fits_a_phone() -> None:
    lesson = run_lesson(next(p for p in PAGES if p.file == "07_sequences.ipynb"))
    steps = {s.title: s for s in lesson.steps}
    build = steps["Build your own ladder"]
    builder = build.task
    assert builder is not None and not builder.done
    ladder = str(steps["Climbing the ladder"].parts)
    assert ">X</th>" in ladder and ">10</th>" not in ladder  # the column heads write the Ten as X
    widths = [float(x) for x in re.findall(r'<svg [^>]*?width="([\d.]+)"[^>]*class="tartli-card', ladder)]
    assert len(widths) > 20 and min(widths) >= 34  # small cards keep a readable corner index on a phone
    lesson.go(lesson.steps.index(build))
    assert lesson.next_button.disabled
    buttons = builder.buttons  # every sequence of Hearts, as the engine judges it
    buttons[Meld.parse("terc:UH")].click()
    buttons[Meld.parse("terc:XH")].click()  # refused: overlapping with a lower top card (K7)
    assert Meld.parse("terc:XH") not in builder.scored and "Refused" in builder.message.value
    builder.clear_button.click()
    for text in ("terc:XH", "terc:UH", "kvart:UH", "terc:OH", "kvart:OH", "kvint:OH"):
        buttons[Meld.parse(text)].click()
    assert builder.done and not lesson.next_button.disabled
    assert sum(m.value for m in builder.scored) == 260 == int(question(steps["Climbing the ladder"]).answer_text)
    # the Austrian rule (V5) waits for the variants, lesson 11 (issue 26: only what the course has taught)
    assert "The Austrian rule" not in steps and "Austrian" not in " ".join(s.text for s in lesson.steps)
    same_suit = steps["May this sequence follow?"].task
    assert isinstance(same_suit, ExerciseTask) and same_suit.exercise.progress_id == "lesson07.same-suit"


def _reason_lines(builder: Any) -> list[str]:
    return [re.sub(r"<[^>]+>", "", line) for line in re.findall(r"<li>(.*?)</li>", builder.reasons.value)]


def test_lesson_07_ladder_builder_marks_its_six_rungs_and_says_each_reason_once() -> None:
    """Issue 36 (a teacher on a phone): 21 alike green ✓ buttons, the ladder's six rungs not told apart, and
    the reason box saying one sentence 21 times. The rungs stand in their own box under the ladder's name; a
    reason is said once, after every sequence it holds for, and each sequence is named in one line."""
    lesson = run_lesson(next(p for p in PAGES if p.file == "07_sequences.ipynb"))
    builder = next(s for s in lesson.steps if s.title == "Build your own ladder").task
    rungs_title, rungs, others_title, others = builder.grid.children
    kvint = "Heart-Over-Kvint"
    assert kvint in rungs_title.value and "six" in rungs_title.value
    assert set(rungs.children) == {builder.buttons[m] for m in builder.ladder()}
    other_buttons = [b for row in others.children for b in row.children]  # a row for each top card
    assert "other" in others_title.value and not set(other_buttons) & set(rungs.children)
    assert len(rungs.children) + len(other_buttons) == len(builder.buttons) == 21
    for declared in ((), ("terc:UH",), ("terc:UH", "terc:XH"), ("terc:XH", "terc:UH", "kvart:UH")):
        builder.clear_button.click()
        for text in declared:
            builder.buttons[Meld.parse(text)].click()
        lines = _reason_lines(builder)
        assert len(lines) == len(set(lines)), lines
        for meld in builder.buttons:  # each sequence in exactly one line, by its short name
            short = meld.title().split("-", 1)[1]
            assert sum(f" {short}," in f" {line}" or f" {short}:" in f" {line}" for line in lines) == 1, (short, lines)
        if not declared:
            assert len(lines) == 1, lines  # nothing scored yet: one reason for all 21


def _gap_under_the_hands_label(svg: str) -> float:
    """From the baseline of "Your hand:" / "The computer's hand:" to the top of the hand's cards."""
    label = re.search(r'y="([\d.]+)"[^>]*>(Your hand|The computer\'s hand)[^<]*:</text>', svg)
    assert label is not None, svg[:200]
    placed = re.search(r'<g transform="translate\([\d.]+ ([\d.]+)\)"><svg[^>]*class="tartli-hand"', svg[label.end() :])
    assert placed is not None
    return float(placed.group(1)) + 22 - float(label.group(1))  # (a hand's cards start 22 units inside it)


@pytest.mark.parametrize("quiz", ["deal", "variants"])
def test_a_quizs_hand_stands_right_under_its_label_on_a_phone(quiz: str) -> None:
    """Issue 36: 03/9 and 11/14 showed an empty band between "Your hand:" and the cards on a phone (the room a
    hand keeps for a lifted card, and no card is lifted in a quiz)."""
    from tartli.widgets.quizzes import VariantQuiz

    made = DealQuiz(seed=3) if quiz == "deal" else VariantQuiz(seed=3)
    made.board.client_width = 358  # what the browser reports on a 390 px phone
    assert _gap_under_the_hands_label(made.board.svg) <= 20
