"""The quizzes of lessons 03 and 04 (tartli.widgets.quiz): DealQuiz and DrawQuiz.

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

from tartli.cards import Card, Rank
from tartli.game import Phase
from tartli.moves import Play, Swap
from tartli.widgets.quiz import QUIZZES, DealQuiz, DrawQuiz
from tartli.widgets.trainers import Exercise, Progress

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
            assert "also keep the 7" in text
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
        assert f"talon: {view.talon_size}" not in quiz.board.svg  # the picture does not give it away
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
