"""The class's web API through the real course server (issue 37, first part: no pages yet).

A server started as ``tartli course --class "7.b"`` starts it prints the class's code and the
teacher's key; pupils join, report and leave over HTTP as their pages will; the teacher's key reads
the class; a restart keeps everything; wrong keys, forged reports and guessing are refused.
"""

from __future__ import annotations

import http.client
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, start_server, stop_server
from tests.browser.test_class_server import THREE_POOLS, kernels_running
from tests.browser.test_server import issued_visitor

CLASS_LINE = re.compile(r"Tartli class (.+?): pupils join with the code (\w{6}); the teacher's key is (\S+) ")


def post(
    server: Server, action: str, body: Any, *, kind: str = "application/json", cookie: str = ""
) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    headers = {"Content-Type": kind, "Host": "127.0.0.1"}
    if cookie:
        headers["Cookie"] = f"tartli_visitor={cookie}"
    connection.request("POST", f"/tartli/class/{action}", body=json.dumps(body).encode(), headers=headers)
    response = connection.getresponse()
    text = response.read()
    connection.close()
    return response.status, json.loads(text) if text else None


def class_line(server: Server, timeout: float = 120) -> tuple[str, str, str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = CLASS_LINE.search(server.log_path.read_text(errors="replace"))
        if found:
            return found.group(1), found.group(2), found.group(3)
        time.sleep(0.5)
    raise AssertionError("no class line in the server's output")


@pytest.fixture
def class_server(tmp_path: Path) -> Iterator[Any]:
    servers: list[Server] = []

    def start(port: int | None = None) -> Server:  # every server of a test keeps its classes in tmp_path / "data"
        server = start_server(
            tmp_path / f"voila-{len(servers)}.log", extra=(*THREE_POOLS, "--TartliVoila.class_name=7.b"), port=port
        )
        servers.append(server)
        return server

    yield start
    for server in servers:
        stop_server(server)


PROGRESS = {
    "tartli.trainers.lesson02.which-card-wins": json.dumps({"lesson02.which-card-wins": {"best": 2, "stages": 1}}),
    "tartli.steps.02_ranks_and_points": "4",
    "tartli.steps.02_ranks_and_points.done": "[1, 2, 3]",
    "tartli.table.game": "not progress: left out",
}


def test_a_class_joins_reports_and_the_teacher_reads_it_also_after_a_restart(class_server: Any, tmp_path: Path) -> None:
    server = class_server()
    name, code, key = class_line(server)
    assert name == "7.b"
    status, anna = post(server, "join", {"code": code.lower(), "name": "Anna"})
    assert status == 200 and anna["name"] == "Anna" and len(anna["token"]) > 30
    status, bela = post(server, "join", {"code": code, "name": "<b>Béla</b>"})
    assert status == 200
    status, _ = post(
        server, "report", {"token": anna["token"], "progress": PROGRESS, "page": "02_ranks_and_points.ipynb", "step": 4}
    )
    assert status == 204
    status, seen = post(server, "teacher", {"code": code, "key": key, "do": "pupils"})
    assert status == 200 and seen["class"] == "7.b"
    by_name = {p["name"]: p for p in seen["pupils"]}
    assert by_name["Anna"]["stars"] == {"lesson02.which-card-wins": 2} and by_name["Anna"]["step"] == 4
    assert by_name["Anna"]["steps"] == {"02_ranks_and_points": [4, [1, 2, 3]]}
    assert "<b>Béla</b>" in by_name  # kept as text: the teacher's page escapes it
    stop_server(server)

    again = class_server()  # restarted with the same --class and data folder: the same class, all kept
    assert class_line(again)[1:] == (code, key)
    status, seen = post(again, "teacher", {"code": code, "key": key, "do": "pupils"})
    assert status == 200 and {p["name"] for p in seen["pupils"]} == {"Anna", "<b>Béla</b>"}
    assert post(again, "leave", {"token": bela["token"]})[0] == 204
    assert [p["name"] for p in post(again, "teacher", {"code": code, "key": key, "do": "pupils"})[1]["pupils"]] == [
        "Anna"
    ]
    teacher_file = tmp_path / "data" / "teacher-keys.json"
    assert teacher_file.stat().st_mode & 0o077 == 0  # the teacher's key file is the owner's alone


def test_the_class_api_refuses_what_it_must(class_server: Any) -> None:
    server = class_server()
    _, code, key = class_line(server)
    _, anna = post(server, "join", {"code": code, "name": "Anna"})
    wrong = post(server, "teacher", {"code": code, "key": key + "x", "do": "pupils"})
    nobody = post(server, "teacher", {"code": "AAAAAA", "key": key, "do": "pupils"})
    assert wrong == nobody == (403, {"error": "not allowed"})  # a wrong key learns nothing, not even the class
    assert post(server, "join", {"code": code, "name": "Anna"}, kind="text/plain")[0] == 415  # no form can post
    forged = {"tartli.trainers.x": json.dumps({"lesson02.which-card-wins": {"best": 10_000}})}
    assert post(server, "report", {"token": anna["token"], "progress": forged})[0] == 400
    unknown = {"tartli.trainers.x": json.dumps({"lesson99.made-up": {"best": 3}})}
    assert post(server, "report", {"token": anna["token"], "progress": unknown})[0] == 400
    assert post(server, "report", {"token": "someone else", "progress": PROGRESS})[0] == 403
    seen = post(server, "teacher", {"code": code, "key": key, "do": "pupils"})[1]
    assert seen["pupils"][0]["stars"] == {}  # nothing of the refused reports was kept
    guesser, other = (issued_visitor(server).split("=", 1)[1] for _ in range(2))  # (cookies the server signed)
    answers = [post(server, "join", {"code": "ZZZZZZ", "name": "x"}, cookie=guesser)[0] for _ in range(30)]
    assert answers.count(403) == 10 and answers.count(429) == 20  # guessing codes is slowed, per browser
    assert post(server, "join", {"code": code, "name": "Cili"}, cookie=other)[0] == 200  # another browser may
    made_up = [post(server, "join", {"code": "ZZZZZZ", "name": "x"}, cookie=f"{n:032x}")[0] for n in range(12)]
    assert made_up.count(429) >= 2  # made-up cookies are no fresh limit each: they count as the address's


def test_a_course_without_a_class_writes_nothing_and_knows_no_class(tmp_path: Path) -> None:
    server = start_server(tmp_path / "voila.log", extra=THREE_POOLS)
    try:
        assert post(server, "join", {"code": "ACDEFH", "name": "Anna"}) == (403, {"error": "not allowed"})
        assert post(server, "report", {"token": "x", "progress": PROGRESS})[0] == 403
        assert not (tmp_path / "data").exists()  # no class made: nothing about pupils on disk
    finally:
        stop_server(server)


# ---------------------------------------------------------------- the lesson of the day (issue 39)
TWO_POOLS = (  # the index and lesson 03 have their pools (prepared or not); every other page none
    "--VoilaKernelManager.preheat_denylist=.*/(0[124-9]|1[0-9])_[^/]*\\.ipynb$",
    "--VoilaKernelManager.preheat_denylist=.*/(practice|rules|table)\\.ipynb$",
)
LESSON_WAIT = 400.0
"""How long a test waits for a lesson's pool to fill (a kernel or two at a time; the time it took is printed)."""


def lesson_now(server: Server, code: str, key: str) -> Any:
    status, view = post(server, "teacher", {"code": code, "key": key, "do": "view"})
    assert status == 200, view
    return view["lesson"]


def wait_for_lesson(server: Server, code: str, key: str, page: str, ready: int) -> float:
    """Seconds until the view says ``ready`` kernels wait for ``page`` (the deadline: :data:`LESSON_WAIT`)."""
    began = time.monotonic()
    while (lesson := lesson_now(server, code, key)) != {"page": page, "ready": ready, "wanted": ready}:
        assert time.monotonic() - began < LESSON_WAIT, (lesson, server.log_path.read_text(errors="replace")[-3000:])
        time.sleep(0.5)
    return time.monotonic() - began


def test_the_teacher_changes_the_lesson_of_the_day_while_the_server_runs(tmp_path: Path) -> None:
    """``--class-size 2 --prepare 03_deal``: the teacher's key makes lesson 04 the lesson of the day; 04's pool
    fills to two ready kernels, 03's goes back to Voilà's default of one (its other kernel shut down), the index
    keeps its two; a wrong key is 403, a name that is no page 400 with words that say which pages there are."""
    server = start_server(
        tmp_path / "voila.log",
        extra=(*TWO_POOLS, "--TartliVoila.class_name=7.b", "--TartliVoila.class_size=2", "--TartliVoila.prepare=03"),
    )
    try:
        _name, code, key = class_line(server)
        took = wait_for_lesson(server, code, key, "03_deal.ipynb", 2)
        print(f"\nlesson 03: 2 of 2 ready {took:.1f} s after the class line")
        assert post(server, "teacher", {"code": code, "key": "wrong", "do": "prepare", "page": "04"})[0] == 403
        status, refused = post(server, "teacher", {"code": code, "key": key, "do": "prepare", "page": "99_nothing"})
        assert status == 400 and "a page of the course" in refused["error"] and "04_phase_one" in refused["error"]
        assert post(server, "teacher", {"code": code, "key": key, "do": "prepare"})[0] == 400
        assert lesson_now(server, code, key)["page"] == "03_deal.ipynb", "a refused choice changes nothing"

        began = time.monotonic()
        status, answer = post(server, "teacher", {"code": code, "key": key, "do": "prepare", "page": "04"})
        assert status == 200 and answer["lesson"]["page"] == "04_phase_one.ipynb", answer
        assert answer["lesson"]["wanted"] == 2 and answer["lesson"]["released"] == 1, answer
        wait_for_lesson(server, code, key, "04_phase_one.ipynb", 2)
        print(f"lesson 04: 2 of 2 ready {time.monotonic() - began:.1f} s after the teacher's choice")
        # the index's two (and the page the start's check was given), 03's one (Voilà's default) and 04's two
        deadline = time.monotonic() + 120
        while (running := kernels_running(server)) != 6:
            assert time.monotonic() < deadline, f"{running} kernels run"
            time.sleep(0.5)
        log = server.log_path.read_text(errors="replace")
        shut = re.findall(r"shutting down kernel \S+ waiting in a pool: the pool of 03_deal.ipynb is back to 1", log)
        assert len(shut) == 1, shut
        assert "the lesson of the day is now 04_phase_one: 2 kernels wanted for it; 03_deal back to the default" in log
        assert "Error at server while executing cell" not in log, "the kernel shut down was running no cell"
    finally:
        stop_server(server)


def test_a_server_without_a_class_size_says_it_prepares_no_lesson(class_server: Any) -> None:
    server = class_server()
    _name, code, key = class_line(server)
    assert lesson_now(server, code, key) is None
    status, refused = post(server, "teacher", {"code": code, "key": key, "do": "prepare", "page": "03"})
    assert status == 409 and "--class-size" in refused["error"], refused
    assert post(server, "teacher", {"code": code, "key": "wrong", "do": "prepare", "page": "03"})[0] == 403
