"""The command line, ``python -m tartli replay FILE`` and the ``tartli`` console script (RECORD.md)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
EXAMPLE = DATA / "example.json"
EXAMPLE_EXPECTED = DATA / "example.expected.json"
SCRIPT = Path(sys.executable).parent / "tartli"
ERROR_LINE = re.compile(r'^move (\d+) "([01]: [^"]+)": ([A-Z][0-9]+): \S.*$')


def run(*args: str, script: bool = False) -> subprocess.CompletedProcess[str]:
    cmd = [str(SCRIPT)] if script else [sys.executable, "-m", "tartli"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, cwd=ROOT, timeout=60)


def example_with_moves(tmp_path: Path, moves: list[str], name: str = "rec.json") -> Path:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["moves"] = moves
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(params=[False, True], ids=["python-m", "console-script"])
def script(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


def test_console_script_is_installed() -> None:
    assert SCRIPT.is_file(), SCRIPT
    assert (ROOT / ".venv" / "bin" / "tartli").is_file()


def test_example_prints_exactly_the_expected_text(script: bool) -> None:
    proc = run("replay", str(EXAMPLE), script=script)
    assert proc.returncode == 0
    assert proc.stderr == ""
    assert proc.stdout.rstrip("\n") == EXAMPLE_EXPECTED.read_text(encoding="utf-8").rstrip("\n")
    assert json.loads(proc.stdout) == json.loads(EXAMPLE_EXPECTED.read_text(encoding="utf-8"))


def test_example_result_content() -> None:
    out = json.loads(run("replay", str(EXAMPLE)).stdout)
    # RECORD.md: the Heart Ace takes the Heart Nine for 11; player 0 may swap before trick 2.
    assert out["card_points"] == [11, 0]
    assert out["to_move"] == 0
    assert "0: swap" in out["legal"] and "0: out" in out["legal"]
    assert out["legal"] == sorted(out["legal"])


@pytest.mark.parametrize(
    ("moves", "index", "rule"),
    [
        (["0: play AH", "1: play 9H", "1: play KB"], 2, "K1"),  # player 0 won trick 1 and leads (D3)
        (["0: play AH", "0: play XH"], 1, "K1"),  # the leader cannot play twice
        (["0: play AH", "1: play 9H", "0: play 7B", "1: play 7H"], 3, "K1"),  # 1 does not hold 7H (0 drew it)
        (["0: play AH", "1: play 9H", "0: bela"], 2, "M3"),
        (["1: swap"], 0, "T5"),
    ],
)
def test_illegal_move_exits_2_with_one_stderr_line(
    tmp_path: Path, script: bool, moves: list[str], index: int, rule: str
) -> None:
    path = example_with_moves(tmp_path, moves)
    proc = run("replay", str(path), script=script)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    m = ERROR_LINE.match(lines[0])
    assert m, lines[0]
    assert int(m.group(1)) == index
    assert m.group(2) == moves[index]
    assert m.group(3) == rule


def test_unreadable_move_text_also_exits_2(tmp_path: Path) -> None:
    path = example_with_moves(tmp_path, ["0: play AH", "1: dance"])
    proc = run("replay", str(path))
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith('move 1 "1: dance": ')


def _write(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


@pytest.mark.parametrize(
    ("kind", "needle"),
    [
        ("malformed", "format"),
        ("missing", "no such file"),
        ("directory", "cannot read"),
        ("not-utf8", "cannot read"),
        ("not-json", "not JSON"),
        ("json-array", "object"),
        ("bad-card", "hands[0]"),
    ],
)
def test_bad_files_exit_2_with_one_line_and_no_traceback(tmp_path: Path, script: bool, kind: str, needle: str) -> None:
    if kind == "malformed":
        path = _write(tmp_path, "r.json", b'{"format": "tartli/2", "dealer": 1, "seed": 1, "moves": []}')
    elif kind == "missing":
        path = tmp_path / "nope.json"
    elif kind == "directory":
        path = tmp_path
    elif kind == "not-utf8":
        path = _write(tmp_path, "r.json", b'{"format": "tartli/1", "moves": ["\xff\xfe"]}')
    elif kind == "not-json":
        path = _write(tmp_path, "r.json", b"this is not json {")
    elif kind == "json-array":
        path = _write(tmp_path, "r.json", b"[1, 2]")
    else:
        data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
        data["hands"][0][0] = "ZZ"
        path = _write(tmp_path, "r.json", json.dumps(data).encode())
    proc = run("replay", str(path), script=script)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert needle in lines[0]


def test_help_lists_the_commands_and_exits_0(script: bool) -> None:
    proc = run("--help", script=script)
    assert proc.returncode == 0
    assert "replay" in proc.stdout and "course" in proc.stdout
    assert proc.stdout.startswith("usage: tartli")


def test_unknown_command_exits_2_with_one_line() -> None:
    proc = run("bogus")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_console_script_and_module_agree_on_a_finished_hand(tmp_path: Path) -> None:
    from tartli.record import Record

    rec = Record.from_json('{"format": "tartli/1", "dealer": 0, "seed": 11, "moves": []}')
    state = rec.replay()
    while not state.is_over:
        state.push(state.legal_moves()[0] if len(state.legal_moves()) == 1 else state.legal_moves()[-2])
    path = tmp_path / "finished.json"
    Record.from_state(state, seed=11).save(path)
    a, b = run("replay", str(path)), run("replay", str(path), script=True)
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout
    assert json.loads(a.stdout)["status"] == "finished"


def test_replay_with_extra_arguments_exits_2_with_one_line() -> None:
    proc = run("replay", "a.json", "b.json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1


def test_replay_without_a_file_exits_2_with_one_line() -> None:
    proc = run("replay")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1, proc.stderr


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    # `tartli replay FILE | head -1`: the pipe is closed before the result is written.
    proc = subprocess.Popen(
        [sys.executable, "-m", "tartli", "replay", str(EXAMPLE)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipeError" not in err and err == ""


def test_a_malformed_move_is_quoted_once(tmp_path: Path) -> None:
    proc = run("replay", str(example_with_moves(tmp_path, ["0: play ZZ"])))
    assert proc.returncode == 2
    assert proc.stderr.startswith("move 0 \"0: play ZZ\": C1: 'ZZ' is not a card")
    assert proc.stderr.count("0: play ZZ") == 1


def test_course_options_reach_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from tartli import __main__ as cli
    from tartli import app

    calls: list[tuple[object, ...]] = []
    monkeypatch.setattr(app, "main", lambda *args: calls.append(args) or 0)
    assert cli.main(["course", "--port", "9001", "--allow-host", "school.lan", "--max-kernels", "30"]) == 0
    port, ip, extra = calls[0]
    assert port == 9001 and ip is None
    assert "--TartliVoila.allowed_hosts=school.lan" in extra and "--TartliVoila.allowed_hosts=127.0.0.1" in extra
    assert "--TartliVoila.max_kernels=30" in extra
    assert cli.main(["course", "--max-kernels", "0"]) == 2
    assert cli.main(["course", "--kernels-per-browser", "2", "--verbose"]) == 0
    assert {"--TartliVoila.kernels_per_visitor=2", "--Voila.log_level=INFO"} <= set(calls[-1][2])
    assert cli.main(["course", "--kernels-per-browser", "0"]) == 2


@pytest.mark.parametrize("kind", ["fifo", "directory", "device"])
def test_replay_refuses_what_is_not_a_regular_file_at_once(tmp_path: Path, kind: str) -> None:
    # A FIFO without a writer would block open() for ever: it is refused from its stat, unopened.
    if kind == "fifo":
        path = tmp_path / "record.json"
        os.mkfifo(path)
    elif kind == "directory":
        path = tmp_path
    else:
        path = Path("/dev/zero")  # a device without end
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "tartli", "replay", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=30
    )
    assert time.monotonic() - start < 30
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert {"fifo": "a FIFO, not a regular file", "directory": "a folder", "device": "a device"}[kind] in lines[0]


def test_an_error_line_has_at_most_300_characters_with_the_cut(tmp_path: Path) -> None:
    from tartli.__main__ import MAX_ERROR_LINE

    # A long value in the line: the cut's "… (N characters)" is counted within the 300.
    proc = run("replay", str(EXAMPLE), "x" * 1000)
    line = proc.stderr.rstrip("\n")
    assert proc.returncode == 2 and "\n" not in line
    assert len(line) == MAX_ERROR_LINE and line.endswith(" characters)"), line
    # The example: a move of control characters, each escaped in six characters, made 321.
    proc = run("replay", str(example_with_moves(tmp_path, ["0: play AH" + "\x01" * 100])))
    line = proc.stderr.rstrip("\n")
    assert proc.returncode == 2 and "\n" not in line and len(line) <= MAX_ERROR_LINE
    assert line.startswith('move 0 "0: play AH\\u0001') and "\x01" not in line


def test_an_error_line_cut_in_process_fits_the_limit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tartli import __main__ as cli
    from tartli.errors import RecordError

    def long_error(path: str) -> dict[str, object]:
        raise RecordError("moves: " + "\u202e" * 40 + "y" * 5000)

    monkeypatch.setattr(cli, "replay_file", long_error)
    assert cli.main(["replay", "any.json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    line = err.rstrip("\n")
    assert len(line) == cli.MAX_ERROR_LINE and line.endswith("… (5,247 characters)"), line  # the escaped line's length
    assert line.startswith("moves: \\u202e\\u202e") and "\u202e" not in line


FORMAT_AND_CONTROL = ["\u202e", "\u200b", "\u2066", "\u2069", "\ufeff", "\U000e0001", "\x1b", "\x7f", "\x9b"]


@pytest.mark.parametrize("char", FORMAT_AND_CONTROL)
def test_format_and_control_characters_are_shown_escaped(tmp_path: Path, char: str) -> None:
    escaped = json.dumps(char)[1:-1]  # "\u202e"; beyond the BMP, its JSON surrogate pair
    assert unicodedata.category(char) in ("Cf", "Cc")
    # In a move (quoted in the line) and in a file name (the line names the file).
    record = example_with_moves(tmp_path, [f"0: play A{char}H"])
    missing = tmp_path / f"no{char}such.json"
    for path, needle in ((record, f'move 0 "0: play A{escaped}H"'), (missing, f"no{escaped}such.json: no such file")):
        proc = run("replay", str(path))
        assert proc.returncode == 2 and proc.stdout == ""
        line = proc.stderr.rstrip("\n")
        assert char not in proc.stderr and "\n" not in line
        assert needle in line, line
