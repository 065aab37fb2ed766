"""Benchmark of a class's reports: ``python tests/browser/bench_class_reports.py [PUPILS] [SECONDS]``.

It serves the course as the tests do (``start_server``, a class opened with ``--class``) and measures:

(a) the CPU the course's server process spends (its own, from /proc: not its kernels') over SECONDS
    (default 120) while it idles, then while PUPILS (default 30) protocol-level clients report as the
    pupils' pages do (a real page reports when its progress changes and once a minute; here each pupil
    answers a question every 10 s, much faster than a class does, each answer a report of a progress code
    that grows as the course is done), with the teacher's page asking for its view every 3 s: the
    extra CPU, in percent of one core. The clients are threads of this process, not of the server's: a
    class's pupils use their own devices.
(b) the teacher's view of PUPILS pupils who have done the whole course (every step of 13 lessons, every
    exercise with stars, slips on many questions): the server's time to answer it (median of 30), and in
    Chromium the time from asking to the table drawn and sorted (the page's own refresh, median of 10).

It prints the figures and asserts nothing.
"""

from __future__ import annotations

import http.client
import json
import os
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

from tartli.course import PAGES
from tests.browser.conftest import chromium_path, start_server, stop_server
from tests.browser.test_class_api import CLASS_LINE
from tests.browser.test_class_server import THREE_POOLS

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def post(port: int, action: str, body: Any, visitor: str = "") -> tuple[int, Any]:
    """A request of the class API; ``visitor``: the browser's cookie (each pupil's device has its own)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"}
    if visitor:
        headers["Cookie"] = f"tartli_visitor={visitor}"
    connection.request("POST", f"/tartli/class/{action}", json.dumps(body).encode(), headers)
    response = connection.getresponse()
    text = response.read()
    connection.close()
    return response.status, json.loads(text) if text else None


def progress(done_lessons: int, rng: random.Random) -> dict[str, str]:
    """What a pupil's browser holds after ``done_lessons`` lessons (their steps, stars and some slips)."""
    have: dict[str, str] = {}
    lessons = [p for p in PAGES if p.steps][:done_lessons]
    for page in lessons:
        name = page.file.removesuffix(".ipynb")
        have[f"tartli.steps.{name}"] = str(page.steps)
        have[f"tartli.steps.{name}.done"] = json.dumps(list(range(1, page.steps + 1)))
        have[f"tartli.steps.{name}.slips"] = json.dumps({str(rng.randint(1, page.steps)): rng.randint(1, 4)})
        for exercise in page.exercises:
            record = {exercise: {"best": rng.randint(1, 3), "stages": 3, "solved": 15, "tries": 18}}
            have[f"tartli.trainers.{exercise}"] = json.dumps(record)
    return have


def join(port: int, code: str, name: str) -> str:
    status, answer = post(port, "join", {"code": code, "name": name}, visitor=secrets.token_hex(16))
    assert status == 200, (status, answer)
    return str(answer["token"])


def reporting(port: int, code: str, pupils: int, seconds: float, key: str) -> dict[str, float]:
    tokens = [join(port, code, f"Pupil {n}") for n in range(pupils)]
    stop = time.monotonic() + seconds
    counts = {"reports": 0, "refused": 0, "views": 0}
    lock = threading.Lock()

    def pupil(number: int, token: str) -> None:
        rng = random.Random(number)
        done = 0
        time.sleep(rng.uniform(0, 10))
        while time.monotonic() < stop:
            done = min(done + 1, 13) if rng.random() < 0.3 else done
            status, _ = post(port, "report", {"token": token, "progress": progress(done, rng), "page": "03_deal.ipynb",
                                              "step": rng.randint(1, 10)})  # fmt: skip
            with lock:
                counts["reports" if status == 204 else "refused"] += 1
            time.sleep(10)

    def teacher() -> None:
        while time.monotonic() < stop:
            post(port, "teacher", {"code": code, "key": key, "do": "view", "lang": "hu"})
            with lock:
                counts["views"] += 1
            time.sleep(3)

    threads = [threading.Thread(target=pupil, args=(n, t)) for n, t in enumerate(tokens)]
    threads.append(threading.Thread(target=teacher))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return counts


def main() -> int:
    pupils = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 120.0
    folder = Path(tempfile.mkdtemp(prefix="tartli-bench-class-"))
    server = start_server(folder / "voila.log", extra=(*THREE_POOLS, "--TartliVoila.class_name=bench"))
    try:
        deadline = time.monotonic() + 120
        found = None
        while found is None and time.monotonic() < deadline:
            found = CLASS_LINE.search(server.log_path.read_text(errors="replace"))
            time.sleep(0.5)
        assert found, "no class line"
        code, key = found.group(2), found.group(3)
        pid = server.process.pid
        time.sleep(10)  # the pools filled
        before = cpu_seconds(pid)
        time.sleep(seconds)
        idle = cpu_seconds(pid) - before
        before = cpu_seconds(pid)
        counts = reporting(server.port, code, pupils, seconds, key)
        busy = cpu_seconds(pid) - before
        print(f"(a) {pupils} pupils reporting every 10 s and the teacher's view every 3 s, {seconds:.0f} s each:")
        idle_pc, busy_pc = 100 * idle / seconds, 100 * busy / seconds
        print(f"    server process CPU idle {idle_pc:.2f}% of a core, reporting {busy_pc:.2f}%; extra "
              f"{busy_pc - idle_pc:.2f}% ({counts['reports']} reports taken, {counts['refused']} refused, "
              f"{counts['views']} views)")  # fmt: skip

        # (b) the whole course done by every pupil, in a class of its own
        _status, made = post(server.port, "make", {"name": "whole"}, visitor=secrets.token_hex(16))
        code, key = made["code"], made["key"]
        tokens = [join(server.port, code, f"Whole {n}") for n in range(pupils)]
        rng = random.Random(7)
        for token in tokens:
            post(
                server.port,
                "report",
                {"token": token, "progress": progress(13, rng), "page": "13_scenario_lab.ipynb", "step": 8},
            )
        post(server.port, "teacher", {"code": code, "key": key, "do": "view", "lang": "en"})
        times = []
        for _ in range(30):
            started = time.perf_counter()
            _status, answer = post(server.port, "teacher", {"code": code, "key": key, "do": "view", "lang": "en"})
            times.append(time.perf_counter() - started)
        rows = answer["html"].count("<tr>") - 1
        median, most = 1000 * statistics.median(times), 1000 * max(times)
        print(f"(b) the teacher's view of {rows} pupils x {len(PAGES)} pages: server answers in median "
              f"{median:.0f} ms (max {most:.0f} ms, {len(answer['html'])} bytes)")  # fmt: skip
        browser_times = drawn_in_chromium(server, code, key)
        if browser_times:
            median, most = 1000 * statistics.median(browser_times), 1000 * max(browser_times)
            print(
                f"    in Chromium, asked to drawn and sorted: median {median:.0f} ms, max {most:.0f} ms (10 refreshes)"
            )
    finally:
        stop_server(server)
    return 0


def drawn_in_chromium(server: Any, code: str, key: str) -> list[float]:
    executable = chromium_path()
    if executable is None:
        print("    (no Chromium: the page's time is not measured)")
        return []
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"{server.base_url}/tartli/teacher#class={code}&key={key}")
        page.wait_for_function("document.querySelectorAll('#view tbody tr').length >= 30", timeout=60_000)
        page.locator("#view thead th button").nth(3).click()  # sorted by a lesson: each refresh sorts again
        times = []
        for _ in range(10):
            took = page.evaluate(
                """() => {
                    const started = performance.now();
                    return window.tartliTeacherRefresh(true).then(() => new Promise(done =>
                        requestAnimationFrame(() => setTimeout(() => done(performance.now() - started), 0))));
                }"""
            )
            times.append(float(took) / 1000)
        browser.close()
    return times


if __name__ == "__main__":
    sys.exit(main())
