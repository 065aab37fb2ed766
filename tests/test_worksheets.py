"""Worksheets (issue 37): the answers agree with the engine, every task shows what it asks about, a seed
gives the same sheet and another seed another, bad input is refused in one line.

The answers are worked out again here from the positions each task prints, through the engine's own
API (``trick_winner``, ``trick_points``, ``find_melds``, ``may_answer``/``contest``, ``same_suit_ok``,
``legal_moves``, a claim pushed on a copy), never through :mod:`tartli.worksheets` or the trainers'
questions. The printed pages are checked in Chromium by tests/browser/test_worksheets.py.
"""

from __future__ import annotations

import asyncio
import http.client
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

from tartli import worksheets
from tartli.__main__ import main
from tartli.cards import LAST_TRICK_BONUS, Card
from tartli.game import HandState, trick_points, trick_winner
from tartli.melds import Meld, MeldKind, contest, find_melds, may_answer, same_suit_ok
from tartli.moves import GoOut, Play
from tartli.names import upper_first
from tartli.server.worksheets import worksheet_handlers
from tartli.trainer_questions import ContestQuestion, MeldsQuestion, PointsQuestion, SameSuitQuestion, TrickQuestion
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
    raise AssertionError(f"unknown kind {kind}")


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
            if isinstance(position, TrickQuestion):
                assert shown == [position.lead, position.second]
                assert f"Trump: {position.trump.name_in('en')}" in section
                assert f"Trick {position.trick_number}" in section
                assert "led first" in section and "played second" in section
                if lesson == "02":  # the phases are not named before lesson 04
                    assert "phase" not in section
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


# ---------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("lesson", "seed", "lang"),
    [
        ("03", 1, "en"),  # a lesson without exercises of these kinds
        ("10", 1, "en"),
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
    assert worksheets.lessons() == ("02", "04", "05", "06", "07", "08", "09")


def test_the_command_writes_the_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["worksheet", "02", "--seed", "7", "--language", "hu"]) == 0
    out, err = capsys.readouterr()
    assert out.rstrip("\n") == worksheet("02", 7, "hu").rstrip("\n") and err == ""
    target = tmp_path / "sheet.html"
    assert main(["worksheet", "9", "-o", str(target)]) == 0  # seed 1 and English by default
    assert target.read_text(encoding="utf-8") == worksheet("09", 1, "en")
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize(
    "args",
    [
        ["worksheet", "03"],
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
        "lesson=03",
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
