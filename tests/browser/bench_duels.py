"""Benchmark of tables for two: ``python tests/browser/bench_duels.py [TABLES] [SECONDS] [THINK]``.

It serves the course as the tests do (``start_server``) and seats TABLES (default 15) tables of two players
each (30 players), who play hand after hand for SECONDS (default 120) through the duel API exactly as the
seats' kernels call it (:class:`tartli.widgets.duel.HttpLink`: the seat's token in a header, a long poll of
up to 25 s for the other's move). Each player thinks THINK seconds (default 1.0; a class thinks longer)
before a move, chosen at random among the moves the table offers from its own shadow of the hand. The
players are threads of this process, not of the server's: a class's pupils use their own devices (and
their pages' kernels, which draw the table, are not in this figure).

It prints the move latency (a move sent until the other player's long poll has it: p50, p95, the most),
the time the server takes to answer a move, the moves made, and the CPU and memory of the course's server
process (its own: not its kernels'). It asserts nothing.
"""

from __future__ import annotations

import http.client
import json
import random
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import psutil

from tartli.bots.evaluate import restrict
from tartli.moves import Declare, GoOut, Pass, Play
from tartli.record import Record
from tests.browser.bench_class_reports import cpu_seconds
from tests.browser.conftest import start_server, stop_server
from tests.browser.test_class_server import THREE_POOLS


def post(port: int, action: str, body: Any, *, seat: str = "", visitor: str = "", timeout: float = 60) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json"}
    if seat:
        headers["X-Tartli-Seat"] = seat
    if visitor:
        headers["Cookie"] = f"tartli_visitor={visitor}"
    connection.request("POST", f"/tartli/duel/{action}", json.dumps(body).encode(), headers)
    response = connection.getresponse()
    text = response.read()
    connection.close()
    if response.status >= 400:
        raise RuntimeError(f"{action}: {response.status} {text[:200]!r}")
    return json.loads(text) if text else None


class Clocks:
    """When each move was sent (table, version it made), and how long until the other player had it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent: dict[tuple[str, int], float] = {}
        self.seen: list[float] = []
        self.answers: list[float] = []
        self.moves = 0
        self.hands = 0
        self.errors: list[str] = []


def player(port: int, code: str, token: str, think: float, until: float, clocks: Clocks, rng: random.Random) -> None:
    state = post(port, "state", {"code": code}, seat=token)
    while time.monotonic() < until:
        if state["status"] == "hand-over" and state["seat"] == 0:
            state = post(port, "next", {"code": code, "hand": state["hand_number"]}, seat=token)
            with clocks.lock:
                clocks.hands += 1
            continue
        if state["status"] == "playing" and state["to_move"] == "you":
            time.sleep(think * rng.uniform(0.5, 1.5))
            shadow = Record.from_dict(state["game"]["record"]).replay()
            view = restrict(shadow.view(state["seat"]), lambda m: not isinstance(m, GoOut))
            moves = [m for m in view.legal_moves if isinstance(m, (Play, Declare, Pass))]
            started = time.monotonic()
            try:
                answer = post(
                    port,
                    "move",
                    {"code": code, "version": state["version"], "move": str(rng.choice(moves))},
                    seat=token,
                )
            except RuntimeError as err:  # (a stale version: the other moved out of turn; look again)
                clocks.errors.append(str(err))
                state = post(port, "state", {"code": code}, seat=token)
                continue
            with clocks.lock:
                clocks.answers.append(time.monotonic() - started)
                clocks.sent[(code, answer["version"])] = started
                clocks.moves += 1
            state = answer
            continue
        if state["status"] in ("closed", "match-over"):
            return
        version = state["version"]
        state = post(port, "state", {"code": code, "since": version, "wait": 25}, seat=token, timeout=40)
        now = time.monotonic()
        with clocks.lock:
            sent = clocks.sent.get((code, state["version"]))
            if sent is not None and state["version"] != version:
                clocks.seen.append(now - sent)


def main() -> int:
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 120.0
    think = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    folder = Path(tempfile.mkdtemp(prefix="tartli-bench-duels-"))
    server = start_server(folder / "voila.log", extra=THREE_POOLS)
    try:
        port, pid = server.port, server.process.pid
        time.sleep(10)  # the pools filled
        seats = []
        for n in range(tables):
            opened = post(port, "new", {"name": f"A{n}"}, visitor=secrets.token_hex(16))
            joined = post(port, "join", {"code": opened["code"], "name": f"B{n}"}, visitor=secrets.token_hex(16))
            seats += [(opened["code"], opened["token"]), (opened["code"], joined["token"])]
        memory_before = psutil.Process(pid).memory_info().rss
        clocks = Clocks()
        until = time.monotonic() + seconds
        before = cpu_seconds(pid)
        threads = [
            threading.Thread(target=player, args=(port, code, token, think, until, clocks, random.Random(i)))
            for i, (code, token) in enumerate(seats)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(seconds + 60)
        busy = cpu_seconds(pid) - before
        memory_after = psutil.Process(pid).memory_info().rss
        seen = sorted(clocks.seen)
        answers = sorted(clocks.answers)

        def ms(values: list[float], q: float) -> float:
            return 1000 * values[min(len(values) - 1, int(q * len(values)))]

        print(f"{tables} tables ({2 * tables} players thinking {think:.1f} s a move), {seconds:.0f} s:")
        print(f"  {clocks.moves} moves, {clocks.hands} hands dealt anew, {len(clocks.errors)} moves refused")
        print(f"  a move seen by the other player: p50 {ms(seen, 0.5):.0f} ms, p95 {ms(seen, 0.95):.0f} ms, "
              f"most {1000 * seen[-1]:.0f} ms ({len(seen)} moves)")  # fmt: skip
        print(f"  the server's answer to a move: p50 {ms(answers, 0.5):.0f} ms, p95 {ms(answers, 0.95):.0f} ms")
        print(f"  the course's server process: {100 * busy / seconds:.1f}% of a core, "
              f"memory {memory_before / 2**20:.0f} MB before, {memory_after / 2**20:.0f} MB after "
              f"(median answer {statistics.median(answers) * 1000:.0f} ms)")  # fmt: skip
    finally:
        stop_server(server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
