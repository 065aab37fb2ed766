"""The web API of the tables for two browsers (tartli.server.duel_api, issue 38) through its real handlers.

The handlers are served by a tornado server of their own in a thread with its own event loop (as the
worksheet route's tests do: a test run may have a loop running already); the requests are real HTTP,
as a seat's browser (its cookie) and its kernel (the ``X-Tartli-Seat`` header) make them.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import random
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
import tornado.httpserver
import tornado.netutil
import tornado.web

from tartli.bots import HeuristicBot
from tartli.game import HandState
from tartli.record import Record
from tartli.server.classroom import ClassFolder, ClassStore, Limiter
from tartli.server.duel_api import MAX_WAIT, SEAT_COOKIE, SEAT_HEADER, duel_handlers
from tartli.server.duels import DuelFolder, DuelStore
from tartli.server.logs import Throttle

HOST = "127.0.0.1"


@dataclass
class Answer:
    status: int
    body: Any
    headers: Any
    text: bytes = b""


@dataclass
class Server:
    port: int
    folder: Path
    duels: DuelFolder
    loop: Any = None
    visitor: str = field(default_factory=lambda: secrets.token_hex(16))

    def post(
        self,
        action: str,
        body: Any,
        *,
        seat: str | None = None,
        cookies: dict[str, str] | None = None,
        kind: str = "application/json",
        timeout: float = 60,
    ) -> Answer:
        """A request as a browser (its cookies; the course's visitor cookie) or a kernel (``seat``) makes it."""
        connection = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        jar = {"tartli_visitor": self.visitor, **(cookies or {})}
        headers = {"Content-Type": kind, "Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())}
        if seat is not None:
            headers[SEAT_HEADER] = seat
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        connection.request("POST", f"/course/tartli/duel/{action}", body=data, headers=headers)
        response = connection.getresponse()
        text = response.read()
        connection.close()
        return Answer(response.status, json.loads(text) if text else None, response.headers, text)

    @property
    def store(self) -> DuelStore:
        return self.duels.store()


@contextmanager
def serve(
    folder: Path, limiter: Limiter | None = None, seed: int = 1, seats: Limiter | None = None
) -> Iterator[Server]:
    """The duel API's real handlers (and the class store of ``folder``) on a server of their own; its tables
    are dealt from ``seed`` (the same deals every run)."""
    started = threading.Event()
    held: dict[str, Any] = {}
    duels = DuelFolder(folder, deals=random.Random(seed))

    def run() -> None:
        loop = held["loop"] = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)

        async def start() -> None:
            handlers = duel_handlers("/course/", duels, ClassFolder(folder), limiter, seats)
            server = tornado.httpserver.HTTPServer(tornado.web.Application(handlers))
            sockets = tornado.netutil.bind_sockets(0, HOST)
            server.add_sockets(sockets)
            held["port"] = sockets[0].getsockname()[1]
            started.set()

        loop.run_until_complete(start())
        loop.run_forever()
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(30)
    try:
        yield Server(held["port"], folder, duels, held["loop"])
    finally:
        held["loop"].call_soon_threadsafe(held["loop"].stop)
        thread.join(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    unlimited = Limiter(per_client=10**6, in_all=10**9)  # (the tests' scripts play without a pause)
    guessing = Limiter(per_client=1000, in_all=100_000)
    with serve(tmp_path_factory.mktemp("duel-api"), guessing, seats=unlimited) as running:
        yield running


@pytest.fixture
def visitor(server: Server) -> Server:
    """The server as a browser of its own sees it (its own visitor cookie: its own tries)."""
    server.visitor = secrets.token_hex(16)
    return server


def seat_cookie(answer: Answer) -> dict[str, str]:
    """The seat's cookie as the browser keeps it (and the attributes it was set with)."""
    jar = SimpleCookie()
    for line in answer.headers.get_all("Set-Cookie") or []:
        jar.load(line)
    return {name: morsel.value for name, morsel in jar.items()}


def opened(server: Server, rules: Any = None) -> tuple[str, str, str]:
    """A table with Anna and Bence: its code and the seats' tokens."""
    body: dict[str, Any] = {"name": "Anna"}
    if rules is not None:
        body["rules"] = rules
    anna = server.post("new", body)
    assert anna.status == 200, anna.body
    code = anna.body["code"]
    bence = server.post("join", {"code": code.lower(), "name": "Bence"})
    assert bence.status == 200 and bence.body["seat"] == 1, bence.body
    return code, anna.body["token"], bence.body["token"]


def game(state: dict[str, Any]) -> HandState:
    return Record.from_dict(state["game"]["record"]).replay()


def turn(server: Server, code: str, tokens: tuple[str, str]) -> tuple[str, dict[str, Any]]:
    for token in tokens:
        state = server.post("state", {"code": code}, seat=token).body
        if state["to_move"] == "you":
            return token, state
    raise AssertionError("no seat to move")


# ---------------------------------------------------------------------------- opening and sitting down
def test_a_table_is_opened_and_joined_with_the_seats_cookie(visitor: Server) -> None:
    server = visitor
    anna = server.post("new", {"name": "Anna"})
    assert anna.status == 200 and set(anna.body) == {"code", "seat", "version", "token"}
    code, token = anna.body["code"], anna.body["token"]
    assert anna.body["seat"] == 0 and anna.body["version"] == 1 and len(token) == 32
    line = anna.headers.get("Set-Cookie")
    assert line.startswith(f"{SEAT_COOKIE}{code}={token}") and "HttpOnly" in line and "Path=/course/" in line
    assert "samesite=lax" in line.lower()
    cookies = seat_cookie(anna)
    state = server.post("state", {"code": code}, cookies=cookies)  # the browser: its cookie
    assert state.status == 200 and state.body["status"] == "waiting" and "token" not in state.text.decode()
    assert server.post("state", {"code": code}, seat=token).body == state.body  # the kernel: the header
    again = server.post("join", {"code": code, "name": "Anna"}, cookies=cookies)  # a reload: the same seat
    assert again.status == 200 and again.body["seat"] == 0 and again.body["token"] == token
    bence = server.post("join", {"code": code, "name": "Bence"})
    assert bence.status == 200 and bence.body["seat"] == 1 and bence.body["version"] == 2
    cili = server.post("join", {"code": code, "name": "Cili"})
    assert cili.status == 409 and "two players" in cili.body["error"]
    hungarian = server.post("join", {"code": code, "name": "Cili", "lang": "hu"})
    assert hungarian.status == 409 and hungarian.body["error"]  # (its words once the catalogs have them)
    nameless = server.post("new", {"name": " "})
    assert nameless.status == 400 and "first name" in nameless.body["error"]


def test_a_wrong_token_and_an_unknown_table_are_the_same_403(server: Server) -> None:
    code, anna, _bence = opened(server)
    refusals = [
        server.post("state", {"code": code}, seat="0" * 32),
        server.post("state", {"code": code}),
        server.post("state", {"code": "XXXXXX"}, seat=anna),
        server.post("move", {"code": code, "version": 2, "move": "play AH"}, seat="f" * 32),
        server.post("state", {"code": code}, cookies={f"{SEAT_COOKIE}{code}": "nope"}),
        server.post("join", {"code": "XXXXXX", "name": "Cili"}),
        server.post("records", {}, seat=anna),
        server.post("leave", {"code": code}, seat=anna + "0"),
    ]
    assert {(r.status, r.text) for r in refusals} == {(403, b'{"error": "not allowed"}')}
    assert server.post("state", {"code": code}, seat=anna).status == 200  # not closed by the tries


def test_only_json_is_taken(server: Server) -> None:
    code, anna, _bence = opened(server)
    for kind, body in (("text/plain", b'{"code": "x"}'), ("application/x-www-form-urlencoded", b"code=x")):
        answer = server.post("state", body, seat=anna, kind=kind)
        assert answer.status == 415 and "JSON" in answer.body["error"]
    for body in (b"[1, 2]", b"{not json", b"null"):
        assert server.post("state", body, seat=anna).status == 400
    assert server.post("state", b'{"code": "' + b"x" * 20_000 + b'"}', seat=anna).status == 413
    assert server.post("state", {"code": code}, seat=anna, kind="application/json; charset=utf-8").status == 200


def test_new_and_join_are_behind_a_limiter(tmp_path: Path) -> None:
    """A table's code cannot be guessed: a browser gets a few tries a minute, then 429."""
    with serve(tmp_path, Limiter(per_client=4, in_all=1000)) as server:
        answers = [server.post("join", {"code": f"ABCDE{n}", "name": "Eve"}).status for n in range(4)]
        assert answers == [403] * 4
        assert server.post("join", {"code": "ABCDEF", "name": "Eve"}).status == 429
        assert server.post("new", {"name": "Eve"}).status == 429
        server.visitor = secrets.token_hex(16)  # another browser has its own tries
        assert server.post("new", {"name": "Ada"}).status == 200


def test_a_flood_of_requests_from_one_seat_is_refused_and_the_other_plays_on(tmp_path: Path) -> None:
    """A page or a script that floods its table gets 429 after its burst; the other seat is not held up."""
    with serve(tmp_path, seats=Limiter(per_client=5, in_all=10**9)) as server:
        code, anna, bence = opened(server)
        statuses = [server.post("state", {"code": code}, seat=anna).status for _ in range(8)]
        assert statuses[:4] == [200] * 4 and statuses[-1] == 429, statuses
        assert server.post("move", {"code": code, "version": 1, "move": "dance"}, seat=anna).status == 429
        assert server.post("state", {"code": code}, seat=bence).status == 200


# ---------------------------------------------------------------------------- playing
def test_moves_a_stale_version_and_an_illegal_move(server: Server) -> None:
    code, anna, bence = opened(server)
    token, state = turn(server, code, (anna, bence))
    other = bence if token == anna else anna
    theirs = server.post("state", {"code": code}, seat=other).body
    assert theirs["to_move"] == "other" and theirs["seat"] != state["seat"]
    card = game(theirs).hand(theirs["seat"])[0]
    refused = server.post("move", {"code": code, "version": theirs["version"], "move": f"play {card}"}, seat=other)
    assert refused.status == 409 and refused.body == {"error": "it is not your turn"}
    mine = set(game(state).hand(state["seat"]))
    missing = next(c for c in game(state).view(state["seat"]).unseen if c not in mine)
    illegal = server.post("move", {"code": code, "version": state["version"], "move": f"play {missing}"}, seat=token)
    assert illegal.status == 409 and illegal.body["rule"] == "K1" and illegal.body["error"].startswith("K1: ")
    garbled = server.post("move", {"code": code, "version": state["version"], "move": "dance"}, seat=token)
    assert garbled.status == 400
    assert server.post("move", {"code": code, "version": state["version"], "move": 7}, seat=token).status == 400
    move = str(HeuristicBot().choose(game(state).view(state["seat"])))
    stale = server.post("move", {"code": code, "version": state["version"] - 1, "move": move}, seat=token)
    assert stale.status == 409 and stale.body["stale"] is True
    made = server.post("move", {"code": code, "version": state["version"], "move": move}, seat=token)
    assert made.status == 200 and made.body["version"] == state["version"] + 1


def test_the_long_poll_answers_within_half_a_second_of_the_others_move(server: Server) -> None:
    code, anna, bence = opened(server)
    token, state = turn(server, code, (anna, bence))
    other = bence if token == anna else anna
    version = state["version"]
    heard: dict[str, Any] = {}

    def wait() -> None:
        heard["answer"] = server.post("state", {"code": code, "since": version, "wait": 20}, seat=other)
        heard["at"] = time.monotonic()

    waiting = threading.Thread(target=wait)
    asked = time.monotonic()
    waiting.start()
    time.sleep(1.0)
    assert "answer" not in heard  # it waits
    move = str(HeuristicBot().choose(game(state).view(state["seat"])))
    moved = time.monotonic()
    assert server.post("move", {"code": code, "version": version, "move": move}, seat=token).status == 200
    waiting.join(10)
    assert heard["answer"].status == 200 and heard["answer"].body["version"] == version + 1
    assert heard["at"] - moved < 0.5 and heard["at"] - asked > 1.0
    # a version the table has moved on from is answered at once; a quiet table at the end of the wait
    start = time.monotonic()
    assert server.post("state", {"code": code, "since": version, "wait": 20}, seat=other).body["version"] == version + 1
    assert time.monotonic() - start < 0.5
    start = time.monotonic()
    quiet = server.post("state", {"code": code, "since": version + 1, "wait": 0.6}, seat=other)
    assert quiet.status == 200 and 0.5 < time.monotonic() - start < 3 and MAX_WAIT == 25


def test_away_the_computer_plays_and_the_player_comes_back(server: Server) -> None:
    code, anna, bence = opened(server)
    store = server.store
    clock = store.clock
    try:
        now = [time.time()]
        store.clock = lambda: now[0]
        assert server.post("seen", {"code": code}, seat=bence).status == 204
        early = server.post("computer", {"code": code, "on": True}, seat=anna)
        assert early.status == 409 and "wait 120 s" in early.body["error"]
        now[0] += 130
        assert server.post("seen", {"code": code}, cookies={f"{SEAT_COOKIE}{code}": anna}).status == 204
        state = server.post("state", {"code": code}, seat=anna).body
        assert state["other_away"] == 130
        state = server.post("computer", {"code": code, "on": True}, seat=anna).body
        assert state["computer_plays_other"] and state["to_move"] == "you"
        assert server.post("computer", {"code": code, "on": "yes"}, seat=anna).status == 400
        assert server.post("seen", {"code": code}, seat=bence).status == 204  # Bence is back
        assert server.post("state", {"code": code}, seat=anna).body["computer_plays_other"] is False
    finally:
        store.clock = clock


def test_leaving_closes_the_table_for_both(server: Server) -> None:
    code, anna, bence = opened(server)
    assert server.post("leave", {"code": code}, seat=bence).status == 204
    state = server.post("state", {"code": code}, seat=anna).body
    assert state["status"] == "closed"
    answer = server.post("move", {"code": code, "version": state["version"], "move": "out"}, seat=anna)
    assert answer.status == 409 and "closed" in answer.body["error"]


def test_a_store_that_cannot_write_is_a_503_and_one_line_in_the_log(
    server: Server, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    code, anna, _bence = opened(server)

    def locked(*_args: Any) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(DuelStore, "seen", locked)
    monkeypatch.setattr("tartli.server.duel_api._STORE_TROUBLE", Throttle(per_window=1, window=300.0))
    with caplog.at_level(logging.WARNING, logger="tartli"):
        answers = [server.post("seen", {"code": code}, seat=anna) for _ in range(3)]
    assert {a.status for a in answers} == {503} and "busy" in answers[0].body["error"]
    assert [r.getMessage() for r in caplog.records].count(
        "tartli: the tables' store could not write (database is locked)"
    ) == 1


# ---------------------------------------------------------------------------- a class's tables
def test_a_class_lobby_for_its_pupils_and_its_teacher(server: Server) -> None:
    classes = ClassStore.in_folder(server.folder)
    made = classes.create("7.b")
    pupil = classes.join(made.code, "Anna")
    other = classes.create("8.a")
    stranger = classes.join(other.code, "Dóra")
    classes.close()
    table = server.post("new", {"name": "Anna", "pupil": pupil.token}).body["code"]
    server.post("new", {"name": "Dóra", "pupil": stranger.token})
    server.post("new", {"name": "Emil"})
    lobby = server.post("lobby", {"pupil": pupil.token})
    assert lobby.status == 200 and [t["code"] for t in lobby.body["tables"]] == [table]
    assert lobby.body["tables"][0]["names"] == ["Anna", None] and lobby.body["tables"][0]["status"] == "waiting"
    teacher = server.post("lobby", {"class": made.code, "key": made.key})
    assert teacher.status == 200 and teacher.body == lobby.body
    for wrong in ({"pupil": "nobody"}, {"class": made.code, "key": other.key}, {"class": made.code}, {}):
        assert server.post("lobby", wrong).status == 403
    assert server.post("new", {"name": "Eve", "pupil": "nobody"}).status == 403


def test_the_teacher_watches_a_game_of_the_class_with_both_hands_face_down(server: Server) -> None:
    classes = ClassStore.in_folder(server.folder)
    made = classes.create("7.c")
    anna = classes.join(made.code, "Anna")
    other = classes.create("8.c")
    classes.close()
    opened = server.post("new", {"name": "Anna", "pupil": anna.token}).body
    code, seat_a = opened["code"], opened["token"]
    server.visitor = secrets.token_hex(16)
    seat_b = server.post("join", {"code": code, "name": "Bence"}).body["token"]
    for _ in range(5):  # a few moves, so that cards have been played and drawn
        token, state = turn(server, code, (seat_a, seat_b))
        move = str(HeuristicBot().choose(game(state).view(state["seat"])))
        server.post("move", {"code": code, "version": state["version"], "move": move}, seat=token)
    watched = server.post("watch", {"class": made.code, "key": made.key, "code": code})
    assert watched.status == 200, watched.body
    real = server.store._matches[code][2].state
    faces = set(re.findall(r'data-card="(\w\w)"', watched.body["svg"]))
    in_hands = {c.text for p in (0, 1) for c in real.hand(p)} - {c.text for c in real.view(0).opponent_known}
    in_hands -= {c.text for c in real.view(1).opponent_known}
    assert faces and not faces & in_hands, "the trick and the indicator face up, no card of either hand"
    assert (
        "Anna · " in watched.body["svg"]
        and "Bence · " in watched.body["svg"]
        and "your hand" not in watched.body["svg"]
    )
    assert watched.body["trick"] == real.trick_number and watched.body["points"] == list(real.totals)
    narrow = server.post("watch", {"class": made.code, "key": made.key, "code": code, "narrow": True})
    assert narrow.status == 200 and "narrow" in narrow.body["svg"]
    for wrong in (
        {"class": made.code, "key": other.key, "code": code},  # another class's key
        {"class": other.code, "key": other.key, "code": code},  # a table of another class
        {"class": made.code, "code": code},
    ):
        assert server.post("watch", wrong).status == 403


# ---------------------------------------------------------------------------- a whole match
def hidden_places(state: HandState, seat: int, record: Record) -> tuple[int, int]:
    """How many of the other's hidden cards ``record`` deals where the real deal has them (their nine cards,
    or the talon place they were drawn from), and how many hidden cards there are."""
    other = 1 - seat
    real = state.deal
    known = set(state.view(seat).opponent_known)
    hidden = [c for c in state.hand(other) if c not in known]
    same = 0
    for card in hidden:
        if card in real.hands[other]:
            same += card in record.deal.hands[other]
        else:
            place = real.talon.index(card)
            same += record.deal.talon[place] == card
    return same, len(hidden)


def test_no_answer_of_a_whole_match_holds_the_other_players_hidden_cards(tmp_path: Path) -> None:
    """Every answer of a whole match played through the API, to either seat, is scanned: the record a seat
    gets never holds the other's hidden cards where they really are but by chance (about half of them at
    most, over the match), where the real record would hold all of them; no answer but new and join holds a
    token, and none holds the other's."""
    unlimited = Limiter(per_client=10**6, in_all=10**9)  # (a script plays the whole match without a pause)
    with serve(tmp_path, Limiter(per_client=1000, in_all=1000), seats=unlimited) as server:
        answers = play_a_match(server)
    same = hidden = same_if_real = 0
    for seat, body, state in answers:
        record = Record.from_dict(body["game"]["record"])
        if state.is_over:
            assert record.deal == state.deal  # a hand that is over is shown as it was
            continue
        assert record.deal.hands[seat] == state.deal.hands[seat]
        found, count = hidden_places(state, seat, record)
        same, hidden = same + found, hidden + count
        same_if_real += hidden_places(state, seat, Record.from_state(state))[0]
    assert hidden > 300 and same_if_real == hidden  # (the scan finds every card in the real record)
    assert same / hidden < 0.6


def play_a_match(server: Server) -> list[tuple[int, dict[str, Any], HandState]]:
    """A whole match through the API (both seats' kernels, Medium's moves from their own states): every
    answer, with the seat it went to and the referee's hand when it was given. No answer holds a token."""
    code, anna, bence = opened(server, {"base": "hungarian", "buli_target": 2})
    tokens = (anna, bence)
    answers: list[tuple[int, dict[str, Any], HandState]] = []
    store = server.store

    def seen(seat: int, answer: Answer) -> dict[str, Any]:
        assert answer.status == 200, answer.body
        text = answer.text.decode()
        assert anna not in text and bence not in text
        with store._lock:
            real = store._load(store._db, code).match.state.copy()
        answers.append((seat, answer.body, real))
        return dict(answer.body)

    refused = server.post("again", {"code": code}, seat=anna)
    assert refused.status == 409 and "not over" in refused.body["error"]
    status = "playing"
    while status != "match-over":
        states = [seen(seat, server.post("state", {"code": code}, seat=tokens[seat])) for seat in (0, 1)]
        status = states[0]["status"]
        if status == "hand-over":
            seen(1, server.post("next", {"code": code, "hand": states[1]["hand_number"]}, seat=bence))
        elif status == "playing":
            seat = 0 if states[0]["to_move"] == "you" else 1
            move = str(HeuristicBot().choose(game(states[seat]).view(seat)))
            body = {"code": code, "version": states[seat]["version"], "move": move}
            seen(seat, server.post("move", body, seat=tokens[seat]))
    records = server.post("records", {"code": code}, seat=anna)
    assert records.status == 200 and len(records.body["records"]) >= 2
    for record in records.body["records"]:
        assert Record.from_dict(record).replay().is_over
    again = seen(0, server.post("again", {"code": code, "match": 1}, seat=anna))  # another match at the table
    assert again["match_number"] == 2 and again["status"] == "playing" and again["buli"] == [0, 0]
    earlier = server.post("records", {"code": code, "match": 1}, seat=bence)  # the first match stays saved
    assert earlier.status == 200 and earlier.body["records"] == records.body["records"]
    assert server.post("records", {"code": code, "match": "1"}, seat=bence).status == 400
    return answers
