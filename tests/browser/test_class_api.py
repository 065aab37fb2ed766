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
from tests.browser.test_class_server import THREE_POOLS
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
