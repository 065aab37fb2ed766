"""The course server's checks without a server: websocket frame shapes, Host names, versions,
the kernel log and its bounds. (tests/browser/test_server.py runs the same checks against the real server.)"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tartli.server.app import (
    MAX_MESSAGE_BUFFERS,
    SUPPORTED,
    V1_PROTOCOL,
    default_max_kernels,
    frame_problem,
    host_name,
    kernel_transport,
    not_started_piece,
    unsupported_versions,
)
from tartli.server.logs import LINE_LIMIT, KernelLogFollower, OneLineRecords
from tartli.widgets import kernel_log


def v1_frame(*parts: bytes) -> bytes:
    """A well-formed v1 frame: the offset count, the offsets, then the parts (channel, header, ...)."""
    count = len(parts) + 1
    start = 8 * (count + 1)
    offsets, position = [], start
    for part in parts:
        offsets.append(position)
        position += len(part)
    offsets.append(position)
    head = count.to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + b"".join(parts)


def test_sound_frames_pass() -> None:
    assert frame_problem(v1_frame(b"shell", b"{}", b"{}", b"{}", b"{}"), V1_PROTOCOL) is None
    assert frame_problem('{"channel": "shell"}', None) is None  # the legacy text protocol
    assert frame_problem((1).to_bytes(4, "big") + (8).to_bytes(4, "big") + b"{}", None) is None


@pytest.mark.parametrize(
    ("frame", "protocol"),
    [
        ((40_000_000).to_bytes(8, "little") + bytes(8), V1_PROTOCOL),  # the 16-byte stall
        ((2**63).to_bytes(8, "little") + bytes(8), V1_PROTOCOL),
        (bytes(4), V1_PROTOCOL),
        ("text", V1_PROTOCOL),
        ((3).to_bytes(8, "little") + (99).to_bytes(8, "little") * 3, V1_PROTOCOL),  # offsets past the end
        ((122_000_000).to_bytes(4, "big") + bytes(4), None),  # the legacy buffer count
        ((-5).to_bytes(4, "big", signed=True) + bytes(4), None),
    ],
)
def test_malformed_frames_are_refused_before_parsing(frame: Any, protocol: str | None) -> None:
    assert frame_problem(frame, protocol) is not None


def test_host_names() -> None:
    assert host_name("127.0.0.1:8866") == "127.0.0.1"
    assert host_name("EVIL.example:80") == "evil.example"
    assert host_name("[::1]:8866") == "::1"
    assert 4 <= default_max_kernels() <= 50


def test_a_frame_that_claims_many_parts_is_refused_before_its_offsets_are_read() -> None:
    """A well-formed 1 MiB frame with 131,000 offsets that fit its length: refused by its count alone."""
    count = 131_000
    frame = count.to_bytes(8, "little") + b"".join((8 * (count + 1)).to_bytes(8, "little") for _ in range(count))
    assert frame_problem(frame, V1_PROTOCOL) == f"v1 frame of {len(frame)} bytes claims {count} offsets"
    parts = [b"shell", b"{}", b"{}", b"{}", b"{}", *([b"x"] * MAX_MESSAGE_BUFFERS)]  # the most buffers allowed
    assert frame_problem(v1_frame(*parts), V1_PROTOCOL) is None
    assert frame_problem(v1_frame(*parts, b"one too many"), V1_PROTOCOL) is not None


def test_kernels_talk_over_unix_sockets_where_their_names_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unix sockets (no TCP port chosen and let go before the kernel binds it), unless the folder's path makes a
    socket's name too long for the system, or the system has none (Windows): then TCP, jupyter_client's default."""
    assert kernel_transport("/tmp/voila_abcdefgh") == "ipc"
    assert kernel_transport("/tmp/" + "x" * 40) == "ipc"  # (97 bytes: kernel-<id>-ipc-999 fits)
    assert kernel_transport("/tmp/" + "x" * 45) == "tcp"  # (102 bytes: over the 100 allowed)
    monkeypatch.setattr("os.name", "nt")
    assert kernel_transport("/tmp/voila_abcdefgh") == "tcp"


def test_the_page_whose_kernel_did_not_start_speaks_the_learners_language() -> None:
    assert "Diese Seite konnte nicht starten" in not_started_piece("de")
    assert 'lang="hu"' in not_started_piece("hu") and "Újra" in not_started_piece("hu")
    assert "This page did not start" in not_started_piece("fr")  # (a language the course has not: English)


def test_the_installed_voila_and_jupyter_server_are_the_ones_the_server_was_written_for() -> None:
    """tartli.server.app subclasses their internals: outside SUPPORTED this fails with what to install."""
    problems = unsupported_versions()
    assert problems == [], "; ".join(problems)


def test_pyproject_pins_what_the_server_supports() -> None:
    """The dependency ranges in pyproject.toml are SUPPORTED's (a lower and an upper bound for each)."""
    text = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    for package, (lowest, first_not) in SUPPORTED.items():
        pin = f'"{package}>={".".join(map(str, lowest))},<{".".join(map(str, first_not))}"'
        assert pin in text, f"pyproject.toml should depend on {pin}"


def test_versions_outside_the_range_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    monkeypatch.setattr(
        metadata,
        "version",
        lambda package: {
            "voila": "0.6.0",
            "jupyter_server": "2.21.1",
            "nbconvert": "7.17.2",
            "jupyter_client": "8.10.0",
        }[package],
    )
    (problem,) = unsupported_versions()
    assert problem.startswith("voila 0.6.0 is installed") and "voila>=0.5.13,<0.6" in problem


# ---------------------------------------------------------------- bounded logs (tartli.server.logs)


class _Log:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def warning(self, text: str, *args: Any) -> None:
        self.lines.append(text % args)


def test_a_kernel_line_is_cut_escaped_and_a_kernel_is_rate_limited(tmp_path: Path) -> None:
    path = tmp_path / "kernels.log"
    path.write_text("")
    log, now = _Log(), [0.0]
    follower = KernelLogFollower(path, log, per_minute=5, clock=lambda: now[0])
    with path.open("a", encoding="utf-8") as file:
        file.write("2026 kernel 41 tartli ERROR value " + "x" * 100_000 + "\n")
        file.write("2026 kernel 41 tartli ERROR \x1b[2J\u202egnp.exe\n")
        file.writelines(f"2026 kernel 42 tartli ERROR line {i}\n" for i in range(20))
    follower.follow()
    assert all(len(line) <= len("kernel: ") + LINE_LIMIT for line in log.lines), max(map(len, log.lines))
    assert log.lines[0].endswith("… (100,034 characters)")
    assert log.lines[1].endswith("\\u001b[2J\\u202egnp.exe")
    assert sum("line " in line for line in log.lines) == 5  # kernel 42: five a minute
    now[0] += 61
    path.open("a").write("2026 kernel 42 tartli ERROR later\n")
    follower.follow()
    assert log.lines[-2] == "kernel: (15 more lines of kernel 42 left out in a minute)"
    assert log.lines[-1].endswith("later")
    with path.open("a") as file:  # more than a pass reads (256 KiB every 2 s): the rest is skipped, and said so
        file.write("2026 kernel 43 tartli ERROR " + "y" * 5_000_000 + "\n")
    follower.follow()
    assert log.lines[-2].startswith("kernel: (4,737,") and "bytes of kernel log skipped" in log.lines[-2]
    assert log.lines[-1].endswith("… (262,144 characters)")  # the start of what was read


def test_the_kernel_log_file_is_rotated_and_followed_on(tmp_path: Path) -> None:
    path = tmp_path / "kernels.log"
    path.write_text("")
    log = _Log()
    follower = KernelLogFollower(path, log, rotate_bytes=1000, per_minute=1000)
    with path.open("a") as file:
        file.writelines(f"kernel 7 line {i:03d} " + "." * 40 + "\n" for i in range(40))
    follower.follow()
    assert ((tmp_path / "kernels.log.1").exists() and not path.exists()) or path.stat().st_size == 0
    path.open("a").write("kernel 7 after the rotation\n")
    follower.follow()
    assert [line for line in log.lines if "line " in line][-1].startswith("kernel: kernel 7 line 039")
    assert log.lines[-1] == "kernel: kernel 7 after the rotation"


def test_a_kernel_traceback_is_one_line_with_the_kernel_and_the_error(tmp_path: Path) -> None:
    path = tmp_path / "kernels.log"
    path.write_text("")
    log = _Log()
    follower = KernelLogFollower(path, log)
    kernel = "0ff7d7fc-9946-42ab-952e-c996a3e722a5"
    record = (
        f"2026-11-29 07:03:13,098 kernel {kernel} IPKernelApp ERROR Invalid message\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/jupyter_client/session.py", line 1084, in deserialize\n'
        '    message["msg_id"] = header["msg_id"]\n'
        "KeyError: 'msg_id'\n"
    )
    path.write_text(record * 3 + f"2026-11-29 07:03:14,000 kernel {kernel} Comm WARNING No such comm: 5\n")
    follower.follow()
    assert log.lines == [
        f"kernel: 2026-11-29 07:03:13,098 kernel {kernel} IPKernelApp ERROR Invalid message (KeyError)"
    ] * 3 + [f"kernel: 2026-11-29 07:03:14,000 kernel {kernel} Comm WARNING No such comm: 5"]


def collecting(bounds: OneLineRecords) -> tuple[logging.Handler, list[str]]:
    """A log handler with the server's filter on it, and the lines it is given."""
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    handler = Collect()
    handler.addFilter(bounds)
    return handler, lines


def test_the_server_log_gets_one_short_line_a_record_and_a_minute_of_refusals_in_one(tmp_path: Path) -> None:
    now = [0.0]
    bounds = OneLineRecords(["/home/someone/course"], refusals=3, clock=lambda: now[0])
    handler, lines = collecting(bounds)
    loggers = [logging.getLogger(name) for name in ("tornado.access", "tornado.general", "tornado.application")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        summary = "GET /voila/static/" + "a" * 60_000 + " (127.0.0.1)"
        for _ in range(5):  # tornado's reason, then its access line, for each refused request
            loggers[1].warning("%d %s: %s is not in root static directory", 403, summary, "a" * 60_000)
            loggers[0].warning("%d %s %.2fms", 403, summary, 1.5)
        try:
            open("/home/someone/course/x\x00")  # noqa: SIM115
        except ValueError:
            loggers[2].error("Uncaught exception %s\n%r", "GET /x (127.0.0.1)", "HTTPServerRequest(...)", exc_info=True)
        now[0] += 61
        assert bounds.summaries() == ["tartli: 2 more requests refused in the last minute (not logged one by one)"]
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
    assert len(lines) == 4 and all(len(line) <= 240 for line in lines), lines
    assert lines[0].startswith("403 GET /voila/static/aaa") and "(60,030 characters) 1.50ms: aaa" in lines[0]
    assert lines[3] == "Uncaught exception GET /x (127.0.0.1) (ValueError)"


def test_a_jupyter_servers_own_access_lines_are_bounded_and_counted_as_refusals() -> None:
    """Issue 42, on Binder: jupyter_server logs a refused request with its handler's log (not tornado's), its
    reason with tornado's template and its access line formatted already; one short line a request, and past
    the limit the refusals are counted (before: two lines of 60 KB a request, none counted)."""
    now = [0.0]
    bounds = OneLineRecords([], refusals=3, clock=lambda: now[0])
    handler, lines = collecting(bounds)
    server = logging.getLogger("ServerApp.test")
    server.addHandler(handler)
    server.propagate = False
    try:
        for n in range(5):
            uri = f"/user/x/voila/render/missing-{n}-" + "a" * 60_000
            server.warning("%d %s: %s", 404, f"GET {uri} (127.0.0.1)", "no such notebook")
            server.warning(f"404 GET {uri} (@127.0.0.1) 2.50ms")
        server.warning("200 GET is not a refusal, and neither is this line")
        now[0] += 61
        assert bounds.summaries() == ["tartli: 2 more requests refused in the last minute (not logged one by one)"]
    finally:
        server.removeHandler(handler)
    assert len(lines) == 4 and all(len(line) <= 240 for line in lines), [line[:300] for line in lines]
    assert lines[0].startswith("404 GET /user/x/voila/render/missing-0-aaa")
    assert lines[0].endswith("(60,031 characters) (@127.0.0.1) 2.50ms: no such notebook"), lines[0]


def test_the_kernel_side_writes_bounded_records(tmp_path: Path) -> None:
    """In a process of its own (as a kernel): 100 records with 1 MB values give at most 30 records of short
    lines, and a handler that reopens the file after the server moved it."""
    path = tmp_path / "kernels.log"
    env = {**os.environ, kernel_log.KERNEL_LOG_ENV: str(path)}
    for records in (100, 5):  # past the limit; then under it, with the file moved away meanwhile
        script = (
            "import logging, os, tartli.widgets\n"
            "log = logging.getLogger('tartli')\n"
            f"for i in range({records}): log.error('bad value %s', 'x' * 1_000_000)\n"
            f"os.replace({str(path)!r}, {str(path) + '.1'!r})\n"
            "log.error('after the move')\n"
        )
        proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        moved = (tmp_path / "kernels.log.1").read_text(encoding="utf-8").splitlines()
        assert len(moved) == min(records, kernel_log.RECORDS_PER_MINUTE)
        assert max(map(len, moved)) <= kernel_log.LINE_LIMIT
    assert path.read_text(encoding="utf-8").count("after the move") == 1  # written to the file made again


def test_kernel_log_sends_errors_to_the_file_not_to_stderr(tmp_path: Path) -> None:
    """In a process of its own (as a kernel is): the course's log and other loggers go to the file."""
    path = tmp_path / "kernels.log"
    script = (
        "import logging, sys\n"
        "import tartli.widgets\n"  # installs from TARTLI_KERNEL_LOG on import
        "logging.getLogger('tartli.widgets.table').exception('table callback failed')\n"
        "logging.getLogger('Comm').error('Exception in comm_msg for x')\n"
    )
    env = {**os.environ, kernel_log.KERNEL_LOG_ENV: str(path)}
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "" and proc.stdout == ""  # nothing on the streams a kernel forwards to the page
    logged = path.read_text(encoding="utf-8")
    assert "table callback failed" in logged and "Exception in comm_msg" in logged


# ---------------------------------------------------------------- Binder (tartli.server.binder)


def test_binder_gives_voilas_extension_the_course_settings() -> None:
    """What the Jupyter server on Binder gets is voila.json's, less what only Voilà's own server uses."""
    from traitlets.config import Config

    from tartli.app import settings
    from tartli.server.binder import EXTENSION, NOT_FOR_THE_EXTENSION, server_config

    shipped = settings()
    c = server_config()
    voila = {k: v for k, v in shipped["VoilaConfiguration"].items() if k not in NOT_FOR_THE_EXTENSION}
    assert dict(c.VoilaConfiguration) == voila
    assert voila["template"] == "tartli" and voila["show_tracebacks"] is False
    assert dict(c.VoilaExecutor) == shipped["VoilaExecutor"]
    assert dict(c.MappingKernelManager) == shipped["MappingKernelManager"]
    # Merged into the extensions and settings other configuration files give, not replacing them.
    merged = Config({"ServerApp": {"jpserver_extensions": {"voila.server_extension": True}}})
    merged.merge(c)
    assert merged.ServerApp.jpserver_extensions == {"voila.server_extension": True, EXTENSION: True}
    assert c.ServerApp.tornado_settings.get_value({"x": 1}) == {"x": 1, "mathjax_url": None, "mathjax_config": None}


def test_binder_swaps_voilas_page_handler_when_voila_loaded_first() -> None:
    """Extensions load alphabetically (Voilà's after the course's); in the other order the rule is swapped."""
    import tornado.web
    from voila.tornado.handler import TornadoVoilaHandler

    from tartli.server.app import CookieVoilaHandler
    from tartli.server.binder import _swap_page_handler

    web_app = tornado.web.Application()
    web_app.add_handlers(".*$", [(r"/user/x/voila/render/(.*)", TornadoVoilaHandler, {})])
    assert _swap_page_handler(web_app.default_router, CookieVoilaHandler) == 1
    assert _swap_page_handler(web_app.default_router, CookieVoilaHandler) == 0  # nothing left to swap


def test_the_largest_saved_game_fits_the_bounds_with_room() -> None:
    """Records of 300 random hands played to the end (declarations, béla, swaps included), as the table
    saves them: the largest is far below what a page may upload, which is below the websocket limit."""
    import random

    from tartli import HandState, Record, RuleSet
    from tartli.server.app import WEBSOCKET_MAX_BYTES
    from tartli.widgets.board import MAX_SAVED_GAME_BYTES

    rng = random.Random(5)
    largest = 0
    for seed in range(300):
        rules = (RuleSet.hungarian(), RuleSet.named("pais"), RuleSet.austrian())[seed % 3]
        state = HandState.from_seed(seed, rules)
        while not state.is_over:
            moves = state.legal_moves()
            declares = [m for m in moves if type(m).__name__ == "Declare"]
            state.push(max(declares, key=str) if declares and rng.random() < 0.8 else rng.choice(moves))
        largest = max(largest, len(Record.from_state(state).to_json().encode("utf-8")))
    print(f"\nthe largest record of 300 whole hands: {largest:,} bytes")
    assert largest * 16 < MAX_SAVED_GAME_BYTES and 2 * MAX_SAVED_GAME_BYTES < WEBSOCKET_MAX_BYTES
