"""The quizzes of lessons 11 and 12: VariantQuiz (tartli.widgets.quizzes.variants) and HistoryQuiz
(tartli.widgets.quizzes.history), and the two lessons as steps.

Every VariantQuiz verdict must be the engine's: the tests rebuild the position
under the named rule set from its deal and moves, push the move asked about (or
read the finished hand, the claim, the match, the deal) and compare. Answers are
given by pressing the buttons with ``.click()``, and the feedback is read as the
page shows it.
"""

from __future__ import annotations

import re
from typing import Any

import ipywidgets as w
import pytest

from tartli.course import PAGES
from tartli.errors import IllegalMoveError, InvalidDealError
from tartli.game import MACCS_LIMIT, PHASE1_TRICKS, WINNING_SCORE, HandState, buli_points
from tartli.moves import Declare, Swap
from tartli.rules import RuleSet
from tartli.widgets.quizzes import FACTS, RULE_SET_NAMES, SOURCES, HistoryQuiz, VariantQuiz, move_words, rule_options
from tartli.widgets.steps import ExerciseTask, Lesson, Question
from tartli.widgets.trainers import Exercise, Progress
from tests.test_steps import run_lesson

SEEDS = range(30)
KIND_RULE = {
    "four-nines": "V3",
    "two-sequences": "V4",
    "same-suit": "V5",
    "swap": "V7",
    "bela": "B2",
    "stichmatsch": "V9",
    "double": "V10",
    "dealer": "V2",
    "indicator": "V1",
}


def feedback_text(ex: Exercise) -> str:
    return re.sub(r"<[^>]+>", "", ex.feedback.value)


def buttons(ex: Exercise) -> list[Any]:
    return [b for b in ex.controls.children if isinstance(b, w.Button)]


def press(quiz: VariantQuiz, value: int | bool) -> None:
    labels = [label for label, v in quiz.choices if v == value and isinstance(v, bool) == isinstance(value, bool)]
    assert len(labels) == 1, (value, quiz.choices)
    [button] = [b for b in buttons(quiz) if b.description == labels[0]]
    button.click()


def press_option(quiz: HistoryQuiz, option: str) -> None:
    [button] = [b for b in buttons(quiz) if b.description == option]
    button.click()


def wrong_answer(quiz: VariantQuiz) -> int | bool:
    return next(v for _, v in quiz.choices if v != quiz.truth)


def rebuilt(quiz: VariantQuiz) -> HandState:
    """The quiz's position replayed from its deal under the named preset: the engine's own state."""
    state = HandState(quiz.state.deal, RuleSet.named(quiz.rules_name), quiz.state.scores_in)
    state.push_many(quiz.state.moves)
    return state


def engine_accepts(state: HandState, move: Any) -> bool:
    try:
        state.copy().push(move)
    except IllegalMoveError:
        return False
    return True


# ---------------------------------------------------------------------------- VariantQuiz
def test_variant_quiz_right_answer_by_button_solves_with_three_stars() -> None:
    for seed in range(18):
        progress = Progress()
        quiz = VariantQuiz(seed=seed, progress=progress, progress_id="lesson11.quiz")
        assert (quiz.solved, quiz.stars) == (False, 0)
        assert len(buttons(quiz)) == len(quiz.choices) == 2
        assert sum(v == quiz.truth for _, v in quiz.choices) == 1
        press(quiz, quiz.truth)
        assert (quiz.solved, quiz.stars, quiz.attempts) == (True, 3, 1)
        assert feedback_text(quiz).startswith("Right")
        assert all(b.disabled for b in buttons(quiz))
        assert progress.stage("lesson11.quiz") == (1, 0) and progress.stage("variant-quiz") == (0, 0)
        assert quiz.board.storage_key == "tartli.trainers.lesson11.quiz"


@pytest.mark.rule("B2", "V1", "V2", "V3", "V4", "V5", "V7", "V9", "V10")
@pytest.mark.parametrize("kind", list(KIND_RULE))
def test_variant_quiz_wrong_answer_explains_with_the_rule_then_two_stars(kind: str) -> None:
    for seed in range(6):
        quiz = VariantQuiz(seed=seed, kinds=(kind,))
        press(quiz, wrong_answer(quiz))
        text = feedback_text(quiz)
        assert not quiz.solved and quiz.mistakes == 1
        assert text.startswith("Not quite: the answer is " + quiz.answer_text(quiz.truth))
        assert KIND_RULE[kind] in text, text
        assert RULE_SET_NAMES[quiz.rules_name] in quiz.board.svg  # the rule set is named on the picture
        press(quiz, quiz.truth)
        assert (quiz.solved, quiz.stars) == (True, 2)


@pytest.mark.rule("V3", "V4", "V5", "V7", "B2", "M2", "M5", "K7", "T5", "B1")
@pytest.mark.parametrize("kind", VariantQuiz.LEGALITY_KINDS)
def test_variant_quiz_legality_verdicts_are_the_engines_over_30_seeds(kind: str) -> None:
    verdicts = set()
    for seed in SEEDS:
        quiz = VariantQuiz(seed=seed, kinds=(kind,))
        assert quiz.state.rules == RuleSet.named(quiz.rules_name)
        state = rebuilt(quiz)
        assert quiz.truth is engine_accepts(state, quiz.move) is state.is_legal(quiz.move)
        verdicts.add((quiz.rules_name, quiz.truth))
        if not quiz.truth:  # the engine's refusal, with its rule ID, is quoted in the feedback
            with pytest.raises(IllegalMoveError) as refused:
                state.push(quiz.move)
            assert str(refused.value) in quiz.explain() and refused.value.rule in quiz.explain()
        if kind == "four-nines":
            assert quiz.truth is RuleSet.named(quiz.rules_name).four_nines
        if kind == "bela":
            assert quiz.truth is not RuleSet.named(quiz.rules_name).bela_at_declaration
    assert {truth for _, truth in verdicts} == {True, False}


@pytest.mark.rule("V4", "M5")
def test_variant_quiz_two_sequences_only_in_different_suits_and_only_in_austria() -> None:
    for seed in SEEDS:
        quiz = VariantQuiz(seed=seed, kinds=("two-sequences",))
        assert isinstance(quiz.move, Declare) and len(quiz.move.melds) == 2
        different = len({m.suit for m in quiz.move.melds}) == 2
        assert quiz.truth is (different and quiz.rules_name == "austrian")


@pytest.mark.rule("V7", "T5")
def test_variant_quiz_swap_in_mid_trick_only_austrian_and_never_after_a_sequence_with_the_7() -> None:
    seen = set()
    for seed in SEEDS:
        quiz = VariantQuiz(seed=seed, kinds=("swap",))
        assert isinstance(quiz.move, Swap)
        state = quiz.state
        declared = state.declared[quiz.move.player]
        if quiz.move.player == state.leader and state.lead is None:
            assert quiz.truth is True  # T5: the leader may swap before declaring and leading
        elif declared:
            assert quiz.truth is False  # V7: not after declaring a sequence with the trump 7
        else:
            assert quiz.truth is (quiz.rules_name == "austrian")
        seen.add((quiz.move.player == state.leader, bool(declared), quiz.truth))
    assert len(seen) >= 3


@pytest.mark.rule("S2", "V9")
def test_variant_quiz_stichmatsch_verdict_is_the_finished_hands() -> None:
    verdicts = set()
    for seed in SEEDS:
        quiz = VariantQuiz(seed=seed, kinds=("stichmatsch",))
        state = quiz.state
        assert state.is_over and state.out is None and len(state.tricks) == 16
        sweep = len(set(state.trick_winners[PHASE1_TRICKS:])) == 1
        assert quiz.truth is (state.stichmatsch is not None)
        assert quiz.truth is (sweep and quiz.rules_name != "austrian")
        if quiz.truth:
            assert sorted(state.card_points) == [0, 161]
        verdicts.add((sweep, quiz.truth))
    assert verdicts >= {(True, True), (True, False)}


@pytest.mark.rule("S4", "V10")
def test_variant_quiz_double_is_the_engines_award_250_single_in_austria_maccs_in_hungary() -> None:
    boundary = set()
    for seed in range(40):
        quiz = VariantQuiz(seed=seed, kinds=("double",))
        state = rebuilt(quiz)
        assert quiz.move is not None
        p = quiz.move.player
        mine, theirs = state.total(p), state.total(1 - p)
        state.push(quiz.move)
        assert quiz.truth is (max(state.buli) == 2)
        if mine >= WINNING_SCORE:
            assert state.buli[p] >= 1
            expected = theirs < MACCS_LIMIT if quiz.rules_name == "austrian" else theirs <= MACCS_LIMIT
            assert quiz.truth is expected
            if theirs == MACCS_LIMIT:
                boundary.add(quiz.rules_name == "austrian")
        else:
            assert state.buli[1 - p] == 1 and quiz.truth is False
    assert boundary == {True, False}  # exactly 250 came up under both traditions


@pytest.mark.rule("D2", "V2")
def test_variant_quiz_next_dealer_is_the_matchs() -> None:
    for seed in SEEDS:
        quiz = VariantQuiz(seed=seed, kinds=("dealer",))
        assert quiz.match is not None
        last = quiz.match.results[-1]
        assert quiz.truth == quiz.match.state.dealer
        gained = [last.meld_points[p] + last.card_points[p] for p in (0, 1)]
        if quiz.rules_name != "austrian" or gained[0] == gained[1]:
            assert quiz.truth == 1 - last.dealer
        else:
            assert quiz.truth == (0 if gained[0] > gained[1] else 1)


@pytest.mark.rule("V1", "D1")
def test_variant_quiz_indicator_choice_only_under_austrian_rules() -> None:
    for seed in SEEDS:
        quiz = VariantQuiz(seed=seed, kinds=("indicator",))
        rules = RuleSet.named(quiz.rules_name)
        try:
            HandState.from_seed(quiz.deal_seed, rules, indicator_packet=quiz.packet)
            dealt = True
        except InvalidDealError:
            dealt = False
        assert quiz.truth is dealt is (quiz.packet == 6 or rules.indicator_choice)


WRONG_VERB = r"\b[Yy]ou (has|goes|says|wins|takes|deals)\b|(?<!May the )(?<!Does the )computer (have|go|say|take)\b"


def test_variant_quiz_says_you_and_the_computer_never_player_numbers() -> None:
    for kind in VariantQuiz.KINDS:
        for seed in range(10):
            quiz = VariantQuiz(seed=seed, kinds=(kind,))
            labels = [label for label, _ in quiz.choices]
            picture = " ".join(re.findall(r">([^<>]+)</text>", quiz.board.svg))
            words = " | ".join([quiz.question, *labels, quiz.explain(), picture])
            assert not re.search(r"[Pp]layer [01]|Játékos", words), words
            assert not re.search(WRONG_VERB, words), words
            if kind == "dealer":
                assert labels == ["You", "The computer"]


def test_variant_quiz_same_seed_same_questions_and_each_new_question_is_new() -> None:
    a, b = VariantQuiz(seed=21), VariantQuiz(seed=21)

    def seen(q: VariantQuiz) -> tuple[object, ...]:
        return (q.kind, q.rules_name, q.question, q.truth, q.choices, q.board.svg, tuple(map(str, q.state.moves)))

    keys = [seen(a)]
    assert seen(a) == seen(b)
    for _ in range(8):
        a.new_button.click()
        b.new_position()
        assert seen(a) == seen(b)
        assert seen(a) != keys[-1]
        keys.append(seen(a))
    assert len({k[0] for k in keys}) >= 3
    assert seen(VariantQuiz(seed=22)) != keys[0] or seen(VariantQuiz(seed=23)) != keys[0]


def test_variant_quiz_asks_every_kind_under_every_rule_set() -> None:
    asked = {(q.kind, q.rules_name) for q in (VariantQuiz(seed=s) for s in range(60))}
    assert {k for k, _ in asked} == set(VariantQuiz.KINDS)
    assert {r for _, r in asked} == set(RULE_SET_NAMES)
    with pytest.raises(ValueError, match="question kinds"):
        VariantQuiz(seed=1, kinds=("no-such-question",))
    quiz = VariantQuiz(seed=1, kinds=("four-nines",))
    with pytest.raises(ValueError, match="yes/no"):
        quiz.answer(1)


@pytest.mark.rule("B2", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "V10", "V11")
def test_rule_options_read_the_rule_sets_and_their_documentation() -> None:
    options = {name: (doc, values) for name, doc, values in rule_options()}
    assert set(options) == {f for f in RuleSet.__dataclass_fields__}
    for name, (doc, values) in options.items():
        assert doc and "``" not in doc, name
        for preset, value in values.items():
            assert getattr(RuleSet.named(preset), name) == value
    differing = {n for n, (_, v) in options.items() if len(set(map(str, v.values()))) > 1}
    assert differing == _diff_names() | {"bela_at_declaration"}
    cited = " ".join(doc for doc, _ in options.values())
    for rule in ("B2", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "V10", "V11"):
        assert rule in cited


def _diff_names() -> set[str]:
    return {n for n in RuleSet.__dataclass_fields__ if getattr(RuleSet.austrian(), n) != getattr(RuleSet(), n)}


def test_move_words() -> None:
    assert move_words("0: bela") == "You call béla on its own"
    assert move_words("1: declare bela") == "The computer declares béla"
    assert move_words("0: declare vannak:9") == "You declare the Nine-vannak"
    assert move_words("1: swap") == "The computer swaps the trump Seven for the trump card"
    assert move_words("0: play XH") == "You play the Ten of Hearts"
    assert move_words("1: pass") == "The computer passes"
    assert move_words("0: out") == "You go out (claim 501)"
    assert move_words("1: out", names=("Anna", "Bence")) == "Bence goes out (claims 501)"


# ---------------------------------------------------------------------------- HistoryQuiz
def test_history_facts_are_well_formed() -> None:
    questions = [f.question for f in FACTS]
    assert len(questions) == len(set(questions)) >= 15
    for fact in FACTS:
        assert fact.source in SOURCES
        assert len(fact.options) == len(set(fact.options)) == 4


def test_history_quiz_right_answer_by_button_solves_with_three_stars() -> None:
    for seed in range(15):
        progress = Progress()
        quiz = HistoryQuiz(seed=seed, progress=progress, progress_id="lesson12.quiz")
        assert sorted(quiz.options) == sorted(quiz.fact.options) and quiz.truth in quiz.options
        assert [b.description for b in buttons(quiz)] == quiz.options
        press_option(quiz, quiz.truth)
        assert (quiz.solved, quiz.stars) == (True, 3)
        text = feedback_text(quiz)
        assert text.startswith("Right") and quiz.source in text
        assert progress.stage("lesson12.quiz") == (1, 0)


def test_history_quiz_wrong_answer_names_the_right_one_and_the_source() -> None:
    for seed in range(15):
        quiz = HistoryQuiz(seed=seed)
        wrong = next(o for o in quiz.options if o != quiz.truth)
        press_option(quiz, wrong)
        text = feedback_text(quiz)
        assert not quiz.solved and quiz.mistakes == 1
        assert text.startswith(f"Not quite: the answer is “{quiz.truth}”")
        assert f"Source: {quiz.source}" in text
        assert quiz.answer(quiz.options.index(quiz.truth))  # by its place among the buttons
        assert quiz.stars == 2


def test_history_quiz_same_seed_same_questions_and_options_shuffled() -> None:
    a, b = HistoryQuiz(seed=5), HistoryQuiz(seed=5)
    firsts = []
    for _ in range(10):
        assert (a.fact, a.options, a.board.svg) == (b.fact, b.options, b.board.svg)
        firsts.append(a.options.index(a.truth))
        before = a.fact
        a.new_button.click()
        b.new_position()
        assert a.fact != before
    assert len(set(firsts)) >= 2  # the right answer is not always in the same place
    with pytest.raises(ValueError, match="options shown"):
        a.answer("Nobody at all")


def test_history_quiz_shows_the_cards_a_question_is_about() -> None:
    for seed in range(40):
        quiz = HistoryQuiz(seed=seed)
        for card in quiz.fact.cards.split():
            assert f'data-card="{card}"' in quiz.board.svg


# ---------------------------------------------------------------------------- lessons 11 and 12 as steps
def steps_of(file: str) -> Lesson:
    return run_lesson(next(p for p in PAGES if p.file == file))


def test_lesson_11_takes_one_variant_rule_a_step_in_order_each_judged_by_its_rule() -> None:
    lesson = steps_of("11_variants.ipynb")
    ids = ["B2"] + [f"V{n}" for n in range(1, 12)]
    found = [
        next(k for k, s in enumerate(lesson.steps) if s.title.startswith(f"{i}:") or f"({i})" in s.title) for i in ids
    ]
    assert found == sorted(found) and len(set(found)) == 12, "one rule a step, B2 then V1 to V11"
    for rule, k in zip(ids, found, strict=True):
        step = lesson.steps[k]
        assert rule in step.text, step.title
        if isinstance(step.task, Question):  # the right answer is the engine's, the explanation names the rule
            assert rule in step.task.explain, step.title
            assert step.task.choose(step.task.answer_text) and lesson.steps[k].task.done
    assert sum(isinstance(lesson.steps[k].task, Question) for k in found) >= 11  # V11 (chalk) only shows
    quiz = lesson.steps[-2].task
    assert isinstance(quiz, ExerciseTask) and isinstance(quiz.exercise, VariantQuiz)
    assert quiz.exercise.progress_id == "lesson11.quiz"
    text = " ".join(s.text for s in lesson.steps)
    for wrong in ("little book", "every other source", "Beck gives an example", "country houses"):
        assert wrong not in text  # errata for lesson 11
    assert "this course rules" in text  # a wrong claim under V10 is the course's ruling, said so


def test_lesson_11_same_deal_answers_are_the_engines() -> None:
    lesson = steps_of("11_variants.ipynb")
    by_title = {s.title: s.task for s in lesson.steps}
    v10 = by_title["V10: each game stands alone"]
    assert isinstance(v10, Question) and v10.answer_text == str(buli_points(RuleSet.hungarian(), 250)) == "2"
    v9 = by_title["V9: no stichmatsch"]
    assert isinstance(v9, Question) and v9.answer_text == "24"  # King 4 + Over 20 of trumps, kept in Austria
    first = lesson.steps[0].task
    assert isinstance(first, Question) and first.answer_text == "Austrian"


def test_lesson_12_is_a_timeline_with_every_date_and_its_source() -> None:
    lesson = steps_of("12_history.ipynb")
    timeline = str(lesson.steps[0].parts)
    dates = ["1804", "1835-1837", "1898", "around 1900", "mid-1920s", "1926", "1960", "1990", "1993", "1999",
             "2020", "1 Oct 2021", "2 Oct 2021"]  # fmt: skip
    places = [timeline.index(f"<b style='flex:0 0 6.2em'>{d}</b>") for d in dates]
    assert places == sorted(places), "in order"
    assert timeline.count("Source: ") == len(dates)
    assert "2024" not in timeline, "a web page's last update is not an event of the game's history (issue 36 item 19)"
    assert "https://www.pagat.com/jass/tartli.html" in timeline
    text = " ".join(s.text for s in lesson.steps)
    assert "www.pagat.com/jass/tartli.html" in lesson.steps[0].text
    for name in ("Jass", "Kláber", "Alsós", "Felsős", "Ulti", "Tarock"):
        assert name in text
    assert "It is said" in text and "foreign play" not in text and "little book" not in text
    assert "No source says that Tartli descends" in text
    quiz = lesson.steps[-2].task
    assert isinstance(quiz, ExerciseTask) and isinstance(quiz.exercise, HistoryQuiz)
    assert quiz.exercise.progress_id == "lesson12.quiz"


def test_every_history_question_shows_the_cards_it_asks_about() -> None:
    """Issue 36 item 11: "Whose play gave the Overs and Unders their characters?" showed only the four
    Overs. A question that names a rank (Overs, Unders, Kings, Aces) and shows cards shows that rank."""
    from tartli.cards import Card
    from tartli.widgets.quizzes import FACTS

    checked = 0
    for fact in FACTS:
        if not fact.cards:
            continue
        shown = {Card.parse(c).rank.name for c in fact.cards.split()}
        for word, rank in (("Over", "OVER"), ("Under", "UNDER"), ("King", "KING"), ("Ace", "ACE")):
            if re.search(rf"\b{word}s?\b", fact.question):
                checked += 1
                assert rank in shown, f"{fact.question!r} shows {fact.cards}"
    assert checked >= 4


def test_lesson_12s_days_question_is_answered_by_the_dates_its_step_gives() -> None:
    """Issue 36 item 10: the step said the player "wrote up its rules on 1 October 2021, tried the game",
    which reads as one day, and the key wanted 1. The step gives both dates; the key is their difference."""
    import datetime

    from test_steps import LESSONS, run_lesson_in

    lesson = run_lesson_in(next(p for p in LESSONS if p.file == "12_history.ipynb"), "en")
    step = next(s for s in lesson.steps if s.title == "1990 to 2021: books and the web")
    dates = [datetime.datetime.strptime(d, "%d %B %Y").date() for d in re.findall(r"\d{1,2} \w+ \d{4}", step.text)]
    assert len(dates) == 2, step.text
    assert step.task.answer_text == str((dates[1] - dates[0]).days)


def test_lesson_12_pack_question_is_worked_out_not_read_off_the_timeline() -> None:
    """Issue 36: 12/2's timeline shows 1804 as Schiller's play and 1835-1837 as the pack, then asked which of
    1804, 1835, 1836, 1837 is not a year of the pack. It asks how long after the play the pack was drawn."""
    lesson = steps_of("12_history.ipynb")
    pack = lesson.steps[1]
    task = pack.task
    assert isinstance(task, Question)
    assert not any(option.isdigit() and len(option) == 4 for option in task.options), task.options
    assert task.answer_text == task.options[1] and "30" in task.answer_text  # 1835-1837 less 1804
    assert task.choose(task.answer_text) and "1804" in task.explain


def test_lesson_11_in_hungarian_names_no_step_of_a_trick_by_the_lessons_word() -> None:
    """Issue 36: 11/2 and the recap said "az ütés 7. lépésében" (at step 7 of the trick), while the lesson's own
    counter reads "2. lépés (összesen 16)": a pupil took it for a step of the lesson. A trick's scoring moment
    is "az ütés pontozásakor"."""
    from tests.test_steps import run_lesson_in

    lesson = run_lesson_in(next(p for p in PAGES if p.file == "11_variants.ipynb"), "hu")
    for number, step in enumerate(lesson.steps, start=1):
        words = step.text + " ".join(p for p in step.parts if isinstance(p, str))
        if isinstance(step.task, Question):
            words += " " + step.task.prompt + " " + step.task.explain
        assert not re.search(r"\d\.\s+lépés", words), (number, re.findall(r"[\s\S]{0,40}\d\.\s+lépés", words))


def test_lesson_08_endgame_says_the_long_k7_reason_once() -> None:
    """Issue 36: 08/10's "Not offered now" said K7's long sentence ("... a new one must overlap with a higher
    top (or the same top and more cards), or be separated by a missing card") twice word for word, and named
    each sequence twice in its line. Each reason's words once; each sequence once."""
    lesson = steps_of("08_phase_two.ipynb")
    box = lesson.steps[9].parts[-1]
    lesson.go(9)
    shown = next(c.value for c in box.children[2].children if "tartli-not-offered" in str(getattr(c, "value", "")))
    lines = [re.sub(r"<[^>]+>", "", line) for line in re.findall(r"<li>(.*?)</li>", shown)]
    assert len(lines) >= 2 and sum("K7" in line for line in lines) >= 2, lines  # the position has two K7 refusals
    assert shown.count("a new one must overlap") == 1, lines
    for line in lines:
        title = line.split(":", 1)[0]
        assert line.count(title) == 1, line


def test_lesson_08_endgame_coach_waits_until_asked() -> None:
    """Issue 36: 08/10 asks "Can you take every trick?" while the Coach line under it already said "You can
    take all nine tricks". The coach speaks when the learner asks, and is quiet again for a new position."""
    lesson = steps_of("08_phase_two.ipynb")
    lesson.go(9)
    box = lesson.steps[9].parts[-1]
    controls, coach_line = box.children[0], box.children[1]
    ask = next(c for c in controls.children if isinstance(c, w.ToggleButton))
    assert "every trick" in lesson.steps[9].text
    assert "all nine" not in coach_line.value and not ask.value
    ask.value = True
    assert "all nine tricks" in coach_line.value, coach_line.value
    position = next(c for c in controls.children if isinstance(c, w.ToggleButtons))
    position.value = position.options[1]  # the other endgame: the learner thinks first again
    assert not ask.value and "Coach:" not in coach_line.value
