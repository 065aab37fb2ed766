"""Worksheets (issue 37): the answers agree with the engine, every task shows what it asks about, a seed
gives the same sheet and another seed another, bad input is refused in one line.

The answers are worked out again here from the positions each task prints, through the engine's own
API (``trick_winner``, ``trick_points``, ``find_melds``, ``may_answer``/``contest``, ``same_suit_ok``,
``legal_moves``, a claim pushed on a copy, the deal and the talon, a :class:`~tartli.match.Match`, a move
pushed on the position replayed under its rule set), never through :mod:`tartli.worksheets` or the
trainers' questions; the history answers by the history quiz's own marking (``HistoryQuiz.answer``). The
printed pages are checked in Chromium by tests/browser/test_worksheets.py.
"""

from __future__ import annotations

import asyncio
import http.client
import itertools
import random
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import tornado.httpserver
import tornado.netutil
import tornado.web

from tartli import names, trainer_questions, worksheets
from tartli.__main__ import main
from tartli.cards import LAST_TRICK_BONUS, Card, Rank
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import HandState, trick_points, trick_winner
from tartli.i18n import _, catalog
from tartli.melds import Meld, MeldKind, contest, find_melds, may_answer, same_suit_ok
from tartli.moves import Bela, Declare, GoOut, Play, Swap
from tartli.names import upper_first
from tartli.rules import RuleSet
from tartli.server.worksheets import worksheet_handlers
from tartli.trainer_questions import (
    ContestQuestion,
    DealQuestion,
    HistoryQuestion,
    MeldsQuestion,
    PointsQuestion,
    SameSuitQuestion,
    TrickQuestion,
    VariantQuestion,
)
from tartli.worksheets import SHEETS, WorksheetError, tasks, worksheet

LESSONS = list(SHEETS)
SEEDS = (0, 1, 7, 42)
RULE_ID = re.compile(r"\b[CDTMKBSV]\d{1,2}\b")


def _section(page: str, number: int) -> str:
    found = re.search(rf'<section class="task[^"]*" id="task-{number}".*?</section>', page, re.S)
    assert found is not None, f"task {number} is not on the sheet"
    return found.group(0)


def _key(page: str, number: int) -> str:
    found = re.search(rf'<li id="key-{number}">(.*?)</li>', page, re.S)
    assert found is not None, f"task {number} has no answer in the key"
    return found.group(1)


def _shown_cards(section: str) -> list[Card]:
    """The cards a task's pictures show, in order."""
    return [Card.parse(code) for code in re.findall(r'data-card="(\w\w)"', section)]


def _unescaped(text: str) -> str:
    return text.replace("&amp;", "&").replace("&quot;", '"').replace("&#x27;", "'").replace("&lt;", "<")


# ---------------------------------------------------------------------------- the engine's answers
def _engine_answer(kind: str, position: Any) -> object:
    """The task's answer worked out from its position with the engine's API alone."""
    if kind == "trick":
        lead, second, trump = position.lead, position.second, position.trump
        return second if trick_winner(lead, second, trump) else lead
    if kind == "points":
        cards = [c for _number, lead, second in position.tricks for c in (lead, second)]
        last = any(number == 16 for number, _lead, _second in position.tricks)
        return trick_points(cards, position.trump) + (LAST_TRICK_BONUS if last else 0)
    if kind == "melds":
        melds = find_melds(position.hand, trump=position.trump)
        sequences = [m for m in melds if m.kind is MeldKind.SEQUENCE]
        return {  # every set, béla, and each sequence not inside a longer one of the hand (M1-M3)
            m
            for m in melds
            if m.kind is not MeldKind.SEQUENCE
            or not any(set(m.cards()) < set(o.cards()) for o in sequences if o.length > m.length)
        }
    if kind == "contest":
        if not may_answer(position.leader_melds, position.second_melds):
            return "illegal"
        winner = contest(position.leader_melds, position.second_melds, position.trump, position.rules).winner
        return "second" if winner == "second" else "leader"
    if kind == "same-suit":
        return same_suit_ok(position.candidate, position.scored, position.rules)
    if kind == "play":
        state: HandState = position
        assert state.to_move is not None
        hand = state.hand(state.to_move)
        legal = {c for c in hand if state.is_legal(Play(state.to_move, c))}
        assert legal == {m.card for m in state.legal_moves() if isinstance(m, Play)}  # the two agree (STYLE 4)
        return frozenset(legal)
    if kind == "going-out":
        state, claimant = position
        after = state.copy()
        after.push(GoOut(claimant))
        assert after.out is not None and after.out[0] == claimant
        if not after.out[1]:
            return 0
        other = state.claim(claimant).other
        assert after.buli[claimant] == (2 if other <= 250 else 1)  # S4: a maccs when the other has 250 or less
        return after.buli[claimant]
    if kind == "name-card":
        return position  # the card the picture shows (checked with what the sheet shows, below)
    if kind.startswith("deal-"):
        return _deal_answer(position)
    if kind.startswith("variant-"):
        return _variant_answer(position)
    if kind == "history":
        return _history_answer(position)
    raise AssertionError(f"unknown kind {kind}")


def _deal_answer(q: DealQuestion) -> object:
    """Lesson 03: who leads (D3), may the holder swap (T5), the talon (D1), who deals (D2), from the engine."""
    state = q.state
    if q.kind == "leader":
        assert state.lead is None and not any(state.declared) and state.to_move is not None
        if state.trick_number == 1:
            assert state.to_move == 1 - state.dealer  # the non-dealer leads the first trick
        else:
            leader, lead, second, _winner = state.tricks[-1]
            winner = leader if not trick_winner(lead, second, state.trump) else 1 - leader
            assert state.to_move == winner  # the winner of a trick leads the next
        return state.to_move
    if q.kind == "swap":
        seven = Card(Rank.SEVEN, state.trump)
        assert seven in state.hand(q.holder)
        legal = state.is_legal(Swap(q.holder))
        assert legal is (Swap(q.holder) in state.legal_moves(q.holder))
        return legal
    if q.kind == "talon":
        view = state.view(0)
        return view.talon_size + (view.indicator is not None)
    assert q.kind == "dealer" and q.match is not None
    dealers = [r.dealer for r in q.match.results]
    assert all(a != b for a, b in itertools.pairwise(dealers))  # the deal alternates
    assert q.match.dealer == state.dealer == 1 - dealers[-1]
    return q.match.dealer


def _variant_answer(q: VariantQuestion) -> object:
    """Lesson 11: the position replayed from its deal under the named rule set, and the move tried there."""
    rules = RuleSet.named(q.rules_name)
    if q.kind == "indicator":
        try:
            HandState.from_seed(q.deal_seed, rules, indicator_packet=q.packet)
        except TartliError:
            allowed = False
        else:
            allowed = True
        assert allowed is (q.packet == 6 or q.rules_name == "austrian")  # V1: only the Austrian rules choose
        return allowed
    if q.kind == "dealer":
        assert q.match is not None
        last = q.match.results[-1]
        if q.rules_name == "austrian":  # V2: the winner of the hand, who scored more in it
            gained = [last.meld_points[p] + last.card_points[p] for p in (0, 1)]
            assert q.match.dealer == max((0, 1), key=lambda p: gained[p])
        else:
            assert q.match.dealer == 1 - last.dealer  # D2: the deal alternates
        return q.match.dealer
    state = HandState(q.state.deal, rules, q.state.scores_in)
    state.push_many(q.state.moves)
    if q.kind == "stichmatsch":
        phase2 = state.trick_winners[7:]
        swept = state.is_over and len(set(phase2)) == 1
        assert (state.stichmatsch is not None) is (swept and q.rules_name != "austrian")  # S2, V9
        return state.stichmatsch is not None
    if q.kind == "double":
        assert isinstance(q.move, GoOut)
        after = state.copy()
        after.push(q.move)
        claimant = q.move.player
        assert after.out is not None
        other = state.total(1 - claimant)
        if after.out[1]:  # a right claim: a maccs at 250 or less (S4), a double below 250 in Austria (V10)
            assert (max(after.buli) == 2) is (other < 250 if q.rules_name == "austrian" else other <= 250)
        return max(after.buli) == 2
    try:
        state.copy().push(q.move)  # type: ignore[arg-type]
    except IllegalMoveError:
        accepted = False
    else:
        accepted = True
    assert accepted is state.is_legal(q.move)  # type: ignore[arg-type]
    return accepted


def _history_answer(q: HistoryQuestion) -> object:
    """Lesson 12: the option the history quiz itself marks right, in the sheet's language (English here)."""
    from tartli.widgets.quizzes import HistoryQuiz

    marked = []
    for option in q.options:
        quiz = HistoryQuiz(seed=1, storage_key="")
        quiz.fact, quiz.options = q.fact, [_(o) for o in q.options]
        if quiz.answer(_(option)):
            marked.append(option)
    assert len(marked) == 1
    return marked[0]


def _answer_words(kind: str, truth: object) -> str:
    """The key's words for an answer, as the course's buttons say them."""
    if kind == "name-card":
        return upper_first(truth.name("en"))  # type: ignore[attr-defined]
    if kind in ("deal-leader", "deal-dealer", "variant-dealer"):
        return ("You", "The computer")[truth]  # type: ignore[index]
    if kind == "deal-swap":
        return "Yes, the swap is allowed now" if truth else "No, not now"
    if kind == "deal-talon":
        return str(truth)
    if kind in (f"variant-{k}" for k in trainer_questions.LEGALITY_KINDS):
        return "Yes, that is allowed" if truth else "No, that is refused"
    if kind.startswith("variant-"):
        return "Yes" if truth else "No"
    return str(truth)


@pytest.mark.parametrize("lesson", LESSONS)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_answers_agree_with_the_engine(lesson: str, seed: int) -> None:
    page = worksheet(lesson, seed, "en")
    made = tasks(lesson, seed, "en")
    for number, task in enumerate(made, start=1):
        truth = _engine_answer(task.kind, task.position)
        solution = set(task.solution) if task.kind == "melds" else task.solution  # type: ignore[call-overload]
        assert solution == truth, (lesson, seed, number, task.kind)
        key = _unescaped(_key(page, number))
        assert task.answer and _unescaped(f'<b class="answer-text">{task.answer}</b>') in key
        if task.kind == "trick":
            assert task.answer == upper_first(truth.name("en"))  # type: ignore[attr-defined]
        elif task.kind == "points":
            assert task.answer == str(truth) and f"= {truth} card points" in key
        elif task.kind == "play":
            assert all(card.name("en") in task.answer for card in truth)  # type: ignore[attr-defined]
        elif task.kind == "melds":
            for meld in truth:  # type: ignore[attr-defined]
                assert f"{meld.title('en')} {meld.value}".lower() in task.answer.lower()
        elif task.kind in ("name-card", "history") or task.kind.startswith(("deal-", "variant-")):
            assert task.answer == _answer_words(task.kind, truth), (lesson, seed, number, task.kind)
        if task.kind == "history":  # history teaches no rule: its answers name their source
            assert "(Source: " in task.reason and _(task.position.fact.why) in task.reason  # type: ignore[attr-defined]
        else:
            assert RULE_ID.search(task.reason), f"the reason of task {number} names no rule: {task.reason!r}"


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_task_shows_what_it_asks_about(lesson: str) -> None:
    """The trumps, the trick and its phase, the cards and what was led: on the task itself."""
    for seed in SEEDS:
        page = worksheet(lesson, seed, "en")
        for number, task in enumerate(tasks(lesson, seed, "en"), start=1):
            section = _unescaped(_section(page, number))
            shown = _shown_cards(section)
            position = task.position
            if isinstance(position, Card):  # lesson 01: the card to name, drawn as a real pack shows it
                assert shown == [position] and 'aria-label="the card to name"' in section
                assert position.name("en") not in section and "<title>" not in section
            elif isinstance(position, TrickQuestion):
                assert shown == [position.lead, position.second]
                assert f"Trump: {position.trump.name_in('en')}" in section
                assert f"Trick {position.trick_number}" in section
                assert "led first" in section and "played second" in section
                if lesson in ("01", "02"):  # the phases are not named before lesson 04
                    assert "phase" not in section
                if lesson == "01":  # two suits: lesson 01 tells no order of ranks within a suit
                    assert position.lead.suit is not position.second.suit
                if lesson == "04":
                    assert position.trick_number <= 7 and "phase 1" in section
                if lesson == "08":
                    assert position.trick_number >= 8 and "phase 2" in section
            elif isinstance(position, PointsQuestion):
                assert shown == [c for _n, lead, second in position.tricks for c in (lead, second)]
                assert f"Trump: {position.trump.name_in('en')}" in section
                for trick_number, _lead, _second in position.tricks:
                    assert f"Trick {trick_number}" in section
                said = "Including the last trick" if position.include_last else "The last trick is not among them"
                assert said in section
            elif isinstance(position, MeldsQuestion):
                assert shown == list(position.hand) and len(shown) == 9
                assert f"Trump: {position.trump.name_in('en')} (for béla)" in section
            elif isinstance(position, ContestQuestion):
                melds: tuple[Meld, ...] = (*position.leader_melds, *position.second_melds)
                assert shown == [c for m in melds for c in m.cards(position.trump)]
                assert f"Trump: {position.trump.name_in('en')}" in section and "Hungarian rules" in section
                for meld in melds:
                    assert f"“{meld.announcement_in('en')}”" in section and meld.title("en") in section
            elif isinstance(position, SameSuitQuestion):
                assert shown == [c for m in (*position.scored, position.candidate) for c in m.cards()]
                assert "Hungarian rule (K7)" in section
                assert f"new: {position.candidate.title('en')}" in section
                for meld in position.scored:
                    assert f"scored: {meld.title('en')}" in section
            elif isinstance(position, HandState):
                lead = position.lead
                assert lead is not None and position.to_move is not None
                assert shown == [lead, *position.hand(position.to_move)]
                assert f"Trump: {position.trump.name_in('en')} · trick {position.trick_number}, phase 2" in section
                assert f"Your opponent led the {lead.name('en')}" in section
            elif isinstance(position, DealQuestion):
                _shows_the_deal_question(position, section, shown)
            elif isinstance(position, VariantQuestion):
                _shows_the_variant_question(position, section, shown)
            elif isinstance(position, HistoryQuestion):
                fact = position.fact
                assert shown == [Card.parse(code) for code in fact.cards.split()]
                assert fact.topic in section and fact.question in section
                places = [section.index(f"</span>{option}</li>") for option in position.options]
                assert places == sorted(places)  # the options in the order the seed gave
            else:
                state, claimant = position  # type: ignore[misc]
                assert ("You want to claim 501" if claimant == 0 else "The computer wants to claim 501") in section
                assert f"trick {state.trick_number}" in section
                for player in (0, 1):
                    assert f"before this hand: {state.scores_in[player]}" in section
                    assert f"card points of completed tricks: {state.card_points[player]}" in section
                    for meld in state.scored_melds[player]:
                        assert f"{meld.title('en')} {meld.value}" in section
                window = state.claim_window
                if window is not None and window.claimant == claimant:
                    assert f"trick {window.trick} ({window.points} card points)" in section
                if state.lead is not None:
                    assert shown == [state.lead] and f"the {state.lead.name('en')}." in section
                else:
                    assert shown == []


def _marked(section: str) -> list[Card]:
    """The cards a task marks (highlighted in its picture)."""
    return [
        Card.parse(code)
        for code in re.findall(r'class="tartli-card face highlighted[^"]*" data-card="(\w\w)"', section)
    ]


def _shows_the_deal_question(q: DealQuestion, section: str, shown: list[Card]) -> None:
    """Lesson 03: the question, trumps, the dealer and the trick (no phase named yet), and what it is about."""
    state = q.state
    assert "phase" not in section  # the phases come in lesson 04
    if q.kind != "dealer":
        dealer = ("you", "the computer")[state.dealer]
        assert f"Trump: {state.trump.name_in('en')} · dealer: {dealer} · trick {state.trick_number}" in section
    if q.kind == "leader":
        assert f"Who leads trick {state.trick_number}?" in section
        if state.trick_number == 1:
            assert shown == [] and "nothing has been played yet" in section
        else:
            leader, lead, second, _winner = state.tricks[-1]
            assert shown == [lead, second] and f"Trick {state.trick_number - 1} has just been played" in section
            assert ("You led" if leader == 0 else "The computer led") in section
    elif q.kind == "swap":
        seven = Card(Rank.SEVEN, state.trump)
        assert f"the {seven.name('en')}, the trump Seven" in section
        extra = [c for c in (state.lead, state.indicator) if c is not None]
        assert shown == [*extra, *state.hand(q.holder)] and _marked(section) == [seven]
        assert ("You lead this trick" if state.leader == 0 else "The computer leads this trick") in section
        if state.indicator is None:
            assert "The indicator has been taken" in section
        if state.declared[state.leader]:
            assert "declared:" in section
    elif q.kind == "talon":
        done = state.trick_number - 1
        said = "1 trick has been played" if done == 1 else f"{done} tricks have been played"
        assert f"{said}; trick {state.trick_number} is about to begin" in section
        assert shown == ([state.indicator] if state.indicator is not None else [])
    else:
        assert q.match is not None and shown == []
        results = q.match.results
        assert f"Who deals hand {len(results) + 1} of this match?" in section
        first = ("You dealt", "The computer dealt")[results[0].dealer]
        assert f"{first} the first hand of this match." in section
        assert f"{len(results)} hand" in section


def _shows_the_variant_question(q: VariantQuestion, section: str, shown: list[Card]) -> None:
    """Lesson 11: the question names its rule set, and the picture shows what it is about."""
    state = q.state
    under = {
        "hungarian": "Under the Hungarian rules",
        "pais": "Under the Pais rules",
        "austrian": "Under the Austrian rules",
    }
    assert under[q.rules_name] in section
    if q.kind in trainer_questions.LEGALITY_KINDS:
        move = q.move
        assert move is not None
        extra = [c for c in (state.lead, state.indicator) if c is not None]
        assert shown == [*extra, *state.hand(move.player)]
        assert f"Trump: {state.trump.name_in('en')}" in section and f"trick {state.trick_number}" in section
        if isinstance(move, Declare):
            assert set(_marked(section)) == {c for m in move.melds for c in m.cards(state.trump)}
            for meld in move.melds:
                assert meld.title("en") in section
        elif isinstance(move, Swap):
            assert _marked(section) == [Card(Rank.SEVEN, state.trump)]
        else:
            assert isinstance(move, Bela)
            assert set(_marked(section)) == {Card(Rank.KING, state.trump), Card(Rank.OVER, state.trump)}
        if q.kind == "same-suit":
            assert f"scored: {state.scored_melds[0][0].title('en')}" in section
    elif q.kind == "stichmatsch":
        assert shown == [c for _leader, lead, second, _w in state.tricks[7:] for c in (lead, second)]
        for p, name in ((0, "you won"), (1, "the computer won")):
            late = [str(i + 8) for i, w in enumerate(state.trick_winners[7:]) if w == p]
            assert f"{name} {', '.join(late) or 'none'}" in section
    elif q.kind == "double":
        assert q.move is not None
        for p in (0, 1):
            count = f"{state.meld_points[p]} in melds + {state.card_points[p]} in tricks = {state.total(p)}"
            assert f"{state.scores_in[p]} before this hand + {count}" in section
        assert "“I am out!”" in section
    elif q.kind == "dealer":
        assert q.match is not None
        last = q.match.results[-1]
        assert ("Hand 1 was dealt by you." if last.dealer == 0 else "Hand 1 was dealt by the computer.") in section
        points = [last.meld_points[p] + last.card_points[p] for p in (0, 1)]
        assert f"you {points[0]}, the computer {points[1]}" in section
    else:
        assert section.count('class="asked"') == 1 and f"card {3 * q.packet + 1}" in section


@pytest.mark.parametrize("lang", ["en", "hu", "de"])
def test_a_seed_gives_the_same_sheet_and_another_seed_other_tasks(lang: str) -> None:
    for lesson in LESSONS:
        assert worksheet(lesson, 3, lang) == worksheet(lesson, 3, lang)
        sheets = [[task.body for task in tasks(lesson, seed, lang)] for seed in range(1, 6)]
        assert len({tuple(bodies) for bodies in sheets}) == 5, lesson  # five seeds, five sheets
        for bodies in sheets:
            assert len(set(bodies)) == len(bodies), lesson  # no task twice on a sheet


def test_the_sheets_of_one_seed_ask_the_same_in_every_language() -> None:
    """A teacher may hand out the same sheet in two languages: the same tasks, the same answers."""
    for lesson in LESSONS:
        cards = [_shown_cards(worksheet(lesson, 5, lang)) for lang in ("en", "hu", "de")]
        assert cards[0] == cards[1] == cards[2]
        solutions = [[repr(t.solution) for t in tasks(lesson, 5, lang)] for lang in ("en", "hu", "de")]
        assert solutions[0] == solutions[1] == solutions[2]


def test_the_sheet_is_one_standalone_a4_page_with_the_key_apart() -> None:
    page = worksheet("09", 11, "en")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "@page { size: A4;" in page and ".key { break-before: page; }" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)  # nothing fetched
    assert "<script" not in page and "@import" not in page and "url(" not in page
    assert page.index('class="tasks"') < page.index('class="key"')
    assert page.count('<section class="task') == sum(count for _kind, count in SHEETS["09"].plan)
    assert "Name:" in page and "Date:" in page and "Worksheet no. 11" in page and "Answer key" in page
    assert "Player 0" not in page and "Player 1" not in page  # the learner's words: you and the computer


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_a_sheet_speaks_its_language(lang: str) -> None:
    """The course's words in the sheet's language (the worksheet's own words pass once its catalog entries,
    /tmp/catalog_worksheets.json, are merged), the card names always."""
    page = worksheet("02", 4, lang)
    assert f'<html lang="{lang}">' in page
    words = {
        "hu": ("Adu:", "Melyik lap viszi az ütést?", "Megoldókulcs", "Dátum", "Feladatlap"),
        "de": ("Trumpf:", "Welche Karte gewinnt den Stich?", "Lösungen", "Datum", "Arbeitsblatt"),
    }[lang]
    for word in words:
        assert word in page, word
    for task in tasks("02", 4, lang):
        if task.kind == "trick":
            assert task.answer == upper_first(task.solution.name(lang))  # type: ignore[attr-defined]
    assert "Which card wins" not in page and "Answer key" not in page


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_new_sheets_keys_speak_the_sheets_language(lang: str) -> None:
    """The names, players and options of lessons 01, 03, 11 and 12 in the sheet's language, the history
    answer the one the history quiz marks right in that language."""
    from tartli.widgets.quizzes import HistoryQuiz

    words = catalog(lang).gettext
    before = names.get_language()
    for lesson in ("01", "03", "11", "12"):
        for task in tasks(lesson, 6, lang):
            truth = task.solution
            if task.kind in ("name-card", "trick"):
                assert task.answer == upper_first(truth.name(lang))  # type: ignore[attr-defined]
            elif task.kind in ("deal-leader", "deal-dealer", "variant-dealer"):
                assert task.answer == words(("You", "The computer")[truth])  # type: ignore[index]
            elif task.kind == "history":
                assert isinstance(task.position, HistoryQuestion)
                assert task.answer == words(task.position.fact.options[0])
                names.set_language(lang)
                try:
                    quiz = HistoryQuiz(seed=1, storage_key="")
                    quiz.fact, quiz.options = task.position.fact, [words(o) for o in task.position.options]
                    assert quiz.answer(task.answer)
                finally:
                    names.set_language(before)
            elif task.kind.startswith(("deal-", "variant-")) and task.kind != "deal-talon":
                assert task.answer == words(_answer_words(task.kind, truth))


def test_a_variants_sheet_asks_four_kinds_a_history_sheet_eight_facts() -> None:
    kinds: set[str] = set()
    rules: set[str] = set()
    for seed in range(40):
        made = tasks("11", seed, "en")
        assert len(made) == 4 and len({t.kind for t in made}) == 4
        order = [t.kind.removeprefix("variant-") for t in made]
        assert order == sorted(order, key=trainer_questions.VARIANT_KINDS.index)  # in the quiz's order
        kinds.update(order)
        rules.update(t.position.rules_name for t in made)  # type: ignore[attr-defined]
    assert kinds == set(trainer_questions.VARIANT_KINDS) and rules == {"hungarian", "pais", "austrian"}
    facts: set[object] = set()
    places: set[int] = set()
    for seed in range(40):
        made = tasks("12", seed, "en")
        asked = [t.position.fact for t in made]  # type: ignore[attr-defined]
        assert len(asked) == len(set(asked)) == 8
        facts.update(asked)
        places.update(t.position.order.index(0) for t in made)  # type: ignore[attr-defined]
    assert facts == set(trainer_questions.FACTS) and places == {0, 1, 2, 3}


def test_the_quizzes_and_the_sheets_share_one_copy_of_their_questions() -> None:
    from tartli.widgets.quizzes import deal as quiz
    from tartli.widgets.quizzes import history as history_quiz
    from tartli.widgets.quizzes import variants as variant_quiz

    assert history_quiz.FACTS is trainer_questions.FACTS and history_quiz.SOURCES is trainer_questions.SOURCES
    assert quiz.DealQuiz.KINDS is trainer_questions.DEAL_KINDS
    assert variant_quiz.VariantQuiz.KINDS is trainer_questions.VARIANT_KINDS
    assert variant_quiz.RULE_SET_NAMES is trainer_questions.RULE_SET_NAMES
    for seed in range(5):  # a quiz draws its kind, then the same position the sheets deal
        shown = quiz.DealQuiz(seed=seed, kinds=("swap",), storage_key="")
        rng = random.Random(seed)
        rng.choice(("swap",))
        dealt = trainer_questions.deal_deal_question(rng, "swap")
        assert (dealt.state.deal, dealt.state.moves, dealt.holder) == (
            shown.state.deal,
            shown.state.moves,
            shown.holder,
        )
        assert trainer_questions.explain_deal(dealt, "en") == shown.explain()


# ---------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("lesson", "seed", "lang"),
    [
        ("10", 1, "en"),  # a lesson without exercises of these kinds (whole games)
        ("13", 1, "en"),
        ("99", 1, "en"),
        ("", 1, "en"),
        ("two", 1, "en"),
        (None, 1, "en"),
        ("02", -1, "en"),
        ("02", worksheets.MAX_SEED + 1, "en"),
        ("02", True, "en"),
        ("02", "7", "en"),
        ("02", 1.5, "en"),
        ("02", 1, "fr"),
        ("02", 1, "EN"),
        ("02", 1, None),
    ],
)
def test_bad_input_is_refused(lesson: Any, seed: Any, lang: Any) -> None:
    with pytest.raises(WorksheetError):
        worksheet(lesson, seed, lang)


def test_a_lesson_may_be_named_by_its_number_or_its_page() -> None:
    assert worksheet("7", 2, "en") == worksheet("07", 2, "en") == worksheet("07_sequences.ipynb", 2, "en")
    assert worksheets.lessons() == ("01", "02", "03", "04", "05", "06", "07", "08", "09", "11", "12")
    assert worksheet("1", 2, "en") == worksheet("01_pack.ipynb", 2, "en")


def test_the_command_writes_the_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["worksheet", "02", "--seed", "7", "--language", "hu"]) == 0
    out, err = capsys.readouterr()
    assert out.rstrip("\n") == worksheet("02", 7, "hu").rstrip("\n") and err == ""
    target = tmp_path / "sheet.html"
    assert main(["worksheet", "9", "-o", str(target)]) == 0  # seed 1 and English by default
    assert target.read_text(encoding="utf-8") == worksheet("09", 1, "en")
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize("lesson", ["01", "03", "11", "12"])
def test_the_command_writes_the_new_sheets(lesson: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["worksheet", lesson.lstrip("0"), "--seed", "12", "--language", "de"]) == 0
    out, err = capsys.readouterr()
    assert out.rstrip("\n") == worksheet(lesson, 12, "de").rstrip("\n") and err == ""


def test_the_commands_help_names_every_lesson_with_a_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["worksheet", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert f"the lesson: {', '.join(worksheets.lessons()[:-1])} or {worksheets.lessons()[-1]}" in said


@pytest.mark.parametrize(
    "args",
    [
        ["worksheet", "10"],
        ["worksheet", "02", "--seed", "x"],
        ["worksheet", "02", "--seed", "-3"],
        ["worksheet", "02", "--seed", "12345678901234567890"],
        ["worksheet", "02", "--language", "fr"],
        ["worksheet"],
        ["worksheet", "02", "-o", "/nonexistent-folder/sheet.html"],
    ],
)
def test_the_command_refuses_bad_input_in_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("tartli: ") and "Traceback" not in err


# ---------------------------------------------------------------------------- the course's server
@dataclass
class Answer:
    code: int
    headers: Any
    body: bytes


@pytest.fixture(scope="module")
def fetch() -> Iterator[Callable[..., Answer]]:
    """The real handler (tartli.server.worksheets) in a tornado application of its own, served from a thread
    with its own event loop (a test run may have a loop running already: tornado's AsyncHTTPTestCase failed
    there, in the whole suite only)."""
    started = threading.Event()
    held: dict[str, Any] = {}

    def serve() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)

        async def start() -> None:
            server = tornado.httpserver.HTTPServer(tornado.web.Application(worksheet_handlers("/")))
            sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
            server.add_sockets(sockets)
            held["port"], held["server"] = sockets[0].getsockname()[1], server
            started.set()

        loop.run_until_complete(start())
        held["loop"] = loop
        loop.run_forever()
        loop.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert started.wait(30)

    def get(address: str, headers: dict[str, str] | None = None) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", held["port"], timeout=60)
        connection.request("GET", address, headers=headers or {})
        response = connection.getresponse()
        answer = Answer(response.status, response.headers, response.read())
        connection.close()
        return answer

    yield get
    held["loop"].call_soon_threadsafe(held["loop"].stop)
    thread.join(10)


def test_the_server_serves_a_sheet(fetch: Callable[..., Answer]) -> None:
    response = fetch("/tartli/worksheet?lesson=02&seed=7&lang=hu")
    assert response.code == 200
    assert response.headers["Content-Type"].startswith("text/html")
    assert response.body.decode("utf-8") == worksheet("02", 7, "hu")


def test_the_servers_defaults_are_seed_1_and_the_browsers_language(fetch: Callable[..., Answer]) -> None:
    response = fetch("/tartli/worksheet?lesson=5", headers={"Accept-Language": "de-AT,de;q=0.9"})
    assert response.code == 200 and response.body.decode("utf-8") == worksheet("05", 1, "de")
    response = fetch("/tartli/worksheet?lesson=5&lang=EN")
    assert response.code == 200 and response.body.decode("utf-8") == worksheet("05", 1, "en")


def test_bad_parameters_are_a_400_with_a_short_text(fetch: Callable[..., Answer]) -> None:
    for query in (
        "lesson=13",
        "lesson=02&seed=x",
        "lesson=02&seed=-1",
        "lesson=02&seed=99999999999999999999999",
        "lesson=02&lang=fr",
        "",
        "lesson=%3Cscript%3E",
    ):
        response = fetch(f"/tartli/worksheet?{query}")
        body = response.body.decode("utf-8")
        assert response.code == 400, query
        assert response.headers["Content-Type"].startswith("text/plain")
        assert body.count("\n") == 1 and len(body) < 250 and "Traceback" not in body, body
