"""Fuzzing ``tartli replay`` (RECORD.md: exit 0 with the result, or exit 2 with one line; never a
traceback): a fixed seed mutates the conformance records into a few thousand bad inputs, at the
level of JSON values and of raw text, and every one must keep the contract.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tartli.__main__ import MAX_ERROR_LINE, main
from tartli.record import MAX_RECORD_BYTES

DATA = Path(__file__).resolve().parent / "data"
BASES = [*sorted((DATA / "conformance").glob("rand_00[0-4]?.json"))[:40], DATA / "example.json"]
HUGE = "9" * 5000  # over Python's 4,300-digit limit for int <-> str
NASTY: list[Any] = [
    None,
    True,
    1.0,
    -1,
    2,
    10**30,
    1e308,
    "",
    "x" * 100_000,
    [],
    {},
    [[[]]],
    "\x1c0",
    "0: play AH\x1f",
    {"base": "austrian", "stichmatsch": 1},
    {"base": {"base": "x"}},
    ["AH"] * 40,
    [0, 0, 0],
    [-1, 0],
    [0.5, 0],
]
FIELDS = ["format", "rules", "dealer", "scores", "hands", "trump", "talon", "seed", "moves"]


def replay(path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", str(path)])
    return code, out.getvalue(), err.getvalue()


def mutate_value(data: dict[str, Any], rng: random.Random) -> str:
    data = json.loads(json.dumps(data))
    roll = rng.random()
    key = rng.choice(FIELDS)
    if roll < 0.25:
        data[key] = rng.choice(NASTY)
    elif roll < 0.35:
        data.pop(key, None)
    elif roll < 0.4:
        data[rng.choice(["extra", "x" * 5000, "Moves"])] = 1
    elif roll < 0.75 and data.get("moves"):
        moves = data["moves"]
        i = rng.randrange(len(moves))
        text = moves[i]
        op = rng.randrange(7)
        if op == 0:
            pos = rng.randrange(len(text) + 1)
            text = text[:pos] + chr(rng.choice([0, 9, 10, 13, 0x1C, 0x1F, 0x7F, 0x85, 0x2028, 0xA0])) + text[pos:]
        elif op == 1:
            text = text[: rng.randrange(len(text))]
        elif op == 2:
            text = text + " " + "A" * rng.choice([1, 300, 1_000_000])
        elif op == 3:
            text = rng.choice(["0", "1", "2", "-1", " 0", "00"]) + text[1:]
        elif op == 4:
            text = text.replace("play", rng.choice(["PLAY", "ply", "declare", "out AH", "bela x"]))
        elif op == 5:
            moves.insert(i, text)
        if op == 6:
            moves[i] = rng.choice(NASTY)
        elif op != 5:
            moves[i] = text
    elif roll < 0.85:
        value: Any = data.get(key, 0)
        for _ in range(rng.choice([50, 900, 5000])):
            value = [value]
        data[key] = value
    else:
        scores = data.get("scores", [0, 0])
        data["scores"] = [rng.choice([0, 500, 10**6, 10**6 + 1, 2**63]), scores[1] if len(scores) > 1 else 0]
    try:
        return json.dumps(data)
    except (ValueError, RecursionError):
        return "[" * 3000 + "]" * 3000


def mutate_text(text: str, rng: random.Random) -> bytes:
    op = rng.randrange(6)
    raw = text.encode()
    if op == 0:
        return raw[: rng.randrange(len(raw))]
    if op == 1:
        pos = rng.randrange(len(raw))
        return raw[:pos] + bytes([rng.randrange(256)]) + raw[pos + 1 :]
    if op == 2:
        return raw.replace(b'"dealer": 1', b'"dealer": ' + HUGE.encode(), 1).replace(b'"dealer": 0', b'"dealer": 1.0')
    if op == 3:
        return raw.replace(b'"scores": [', b'"scores": [' + HUGE.encode() + b", ", 1)
    if op == 4:
        return b"\xff\xfe" + raw
    return raw.replace(b"[", b"[" * rng.choice([2, 1200]), 1)


@pytest.mark.parametrize("chunk", range(4))
def test_replay_keeps_its_contract_on_mutated_records(tmp_path: Path, chunk: int) -> None:
    rng = random.Random(20261124 + chunk)
    path = tmp_path / "record.json"
    outcomes = {0: 0, 2: 0}
    for case in range(750):
        base = rng.choice(BASES)
        text = base.read_text(encoding="utf-8")
        if case % 3 == 2:
            path.write_bytes(mutate_text(text, rng))
        else:
            path.write_text(mutate_value(json.loads(text), rng), encoding="utf-8")
        code, out, err = replay(path)
        assert code in (0, 2), (case, code)
        outcomes[code] += 1
        if code == 0:
            assert err == "" and json.loads(out)["format"] == "tartli-result/1"
        else:
            assert out == "", case
            assert err.endswith("\n") and err.count("\n") == 1, (case, err[:300])
            assert len(err) <= MAX_ERROR_LINE + 1, (case, len(err))
            assert "Traceback" not in err and not err.startswith("tartli: cannot replay"), (case, err)
    assert outcomes[2] > 300  # most mutations break the record


def test_replay_refuses_a_file_without_end(tmp_path: Path) -> None:
    # A device is refused before it is opened; a regular file is read only up to the bound.
    code, out, err = replay(Path("/dev/zero"))
    assert code == 2 and out == "" and "a device, not a regular file" in err and err.count("\n") == 1
    big = tmp_path / "big.json"
    with big.open("wb") as file:
        file.truncate(MAX_RECORD_BYTES + 1)  # sparse: no disk used
    code, out, err = replay(big)
    assert code == 2 and out == "" and "at most" in err and err.count("\n") == 1
