"""``tartli review RECORD.json`` and ``tartli bench --hint-vs``, as the command line prints them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tartli.moves import parse_move
from tartli.record import Record

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
RECORD = DATA / "review_example.json"
CLASSES = {"best", "good", "inaccuracy", "mistake", "blunder"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tartli", *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )


def test_review_prints_one_json_object_per_decision_then_a_summary() -> None:
    proc = run("review", str(RECORD), "--samples", "16")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    *decisions, summary = lines
    moves = Record.load(RECORD).moves
    assert decisions and [d["index"] for d in decisions] == sorted(d["index"] for d in decisions)
    for d in decisions:
        assert {"index", "phase", "move", "best", "loss", "class"} <= set(d)
        assert d["move"] == moves[d["index"]] and d["move"].startswith("0: ")
        assert d["phase"] in (1, 2) and d["class"] in CLASSES
        assert isinstance(d["best"], list) and all(parse_move(m).player == 0 for m in d["best"])
        assert d["loss"] is None or d["loss"] >= 0
        assert (d["class"] == "best") == (d["move"] in d["best"]) or d["phase"] == 1
    # The record's first move leads an Over from four Overs without declaring them: a blunder.
    first = decisions[0]
    assert first["index"] == 0 and first["phase"] == 1 and first["class"] == "blunder"
    assert first["samples"] == 16 and first["se"] > 0
    assert any(d["phase"] == 2 and "could have cost" in d["text"] for d in decisions)
    assert 1 <= sum(d["costly"] for d in decisions) <= 3
    body = summary["summary"]
    assert body["decisions"] == len(decisions) and body["player"] == 0
    assert sum(body["classes"].values()) == len(decisions)
    assert summary["samples"] == 16 and summary["loss_se"]["mean"] > 0


def test_review_of_the_other_player_and_the_same_record_the_same_lines() -> None:
    """Each position is dealt from itself: two runs (two processes, nothing kept) print the same."""
    a = run("review", str(RECORD), "--player", "1", "--samples", "4")
    b = run("review", str(RECORD), "--player", "1", "--samples", "4")
    assert a.returncode == 0
    lines = a.stdout.splitlines()
    assert all(json.loads(line)["move"].startswith("1: ") for line in lines[:-1])
    strip = re.compile(r', "seconds": [0-9.]+')
    assert strip.sub("", a.stdout) == strip.sub("", b.stdout)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("review", "/nonexistent/record.json"), "no such file"),
        (("review", str(RECORD), "--player", "2"), "--player"),
        (("review", str(RECORD), "--samples", "0"), "--samples"),
        (("review",), "file"),
    ],
)
def test_review_refuses_bad_input_with_one_line_and_status_2(args: tuple[str, ...], needle: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and needle in proc.stderr


def test_review_names_an_illegal_move_of_the_record(tmp_path: Path) -> None:
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    data["moves"] = [*data["moves"][:3], "1: play AL"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    proc = run("review", str(path))
    assert proc.returncode == 2 and proc.stdout == ""
    assert re.fullmatch(r'move 3 "1: play AL": [A-Z][0-9]+: .*\n', proc.stderr)


def test_bench_hint_vs_prints_the_share_of_hands() -> None:
    proc = run("bench", "--hint-vs", "medium", "--hands", "2", "--seed", "4", "--samples", "2")
    assert proc.returncode == 0, proc.stderr
    first, second, third = proc.stdout.splitlines()
    assert re.fullmatch(r"hint vs medium: \d+\.\d% of hands \(95% CI \d+\.\d-\d+\.\d%\), 2 hands", first)
    assert second.startswith("latency of the hint: mean ")
    assert re.fullmatch(r"hint vs medium: mean point difference per hand [+-]\d+\.\d \(95% CI ±\d+\.\d\)", third)
    bad = run("bench", "--hint-vs", "easy", "--hands", "2")
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1
    in_two = run("bench", "--hint-vs", "medium", "--hands", "4", "--seed", "4", "--samples", "2", "--jobs", "2")
    in_one = run("bench", "--hint-vs", "medium", "--hands", "4", "--seed", "4", "--samples", "2")
    assert in_two.returncode == 0, in_two.stderr
    shares = [[line for line in p.stdout.splitlines() if "latency" not in line] for p in (in_one, in_two)]
    assert shares[0] == shares[1]  # the processes change the time, not the figures
    none = run("bench", "--hint-vs", "medium", "--hands", "2", "--jobs", "0")
    assert none.returncode == 2 and "--jobs" in none.stderr and len(none.stderr.splitlines()) == 1


def test_bench_hint_vs_told_measures_a_ceiling() -> None:
    proc = run("bench", "--hint-vs", "medium", "--hands", "2", "--seed", "4", "--samples", "2", "--told", "deal")
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    pattern = r"hint \(told the opponent's hand and the talon's order\) vs medium: \d+\.\d% of hands .*, 2 hands"
    assert re.fullmatch(pattern, first)
    alone = run("bench", "--told", "hand", "--hands", "2")
    assert (
        alone.returncode == 2 and "--told goes with --hint-vs" in alone.stderr and len(alone.stderr.splitlines()) == 1
    )
    bad = run("bench", "--hint-vs", "medium", "--told", "cards")
    assert bad.returncode == 2 and "--told" in bad.stderr and len(bad.stderr.splitlines()) == 1


def test_the_engine_benchmark_is_unchanged() -> None:
    proc = run("bench", "--hands", "50")
    assert proc.returncode == 0
    assert re.fullmatch(
        r"rules=hungarian hands=50 moves=\d+ seconds=[0-9.]+ hands/s=[0-9,]+ moves/s=[0-9,]+\n", proc.stdout
    )
