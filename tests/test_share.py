"""Links to a position (tartli.share): round trips, the measured length, and every way a link is refused."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest

from tartli.errors import ArgumentError, TartliError
from tartli.record import Record, result
from tartli.share import (
    MAX_LINK_CHARS,
    MAX_RECORD_CHARS,
    SharedPosition,
    ShareError,
    record_code,
    record_from_code,
    share_query,
    share_url,
)

DATA = Path(__file__).resolve().parent / "data"
WHOLE_HAND = DATA / "conformance" / "rand_0182.json"  # 44 moves: the longest record in tests/data


def _code_of(data: object) -> str:
    raw = zlib.compress(json.dumps(data, separators=(",", ":")).encode())
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_round_trip_of_every_conformance_record() -> None:
    for path in sorted((DATA / "conformance").glob("rand_00*.json")):
        if path.name.endswith(".expect.json"):
            continue
        if "error_index" in json.loads(path.with_suffix(".expect.json").read_text())["expect"]:
            continue  # a record with an illegal move: refused, below
        record = Record.load(path)
        code = record_code(record)
        assert set(code) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        back = record_from_code(code)
        assert back.to_dict() == record.to_dict()
        assert result(back.replay()) == result(record.replay())


def test_whole_hand_link_length() -> None:
    record = Record.load(WHOLE_HAND)
    assert len(record.moves) == 44
    code = record_code(record)
    assert len(code) <= 500  # 442 measured: the docstring says so
    assert len(share_query(record)) == len("record=") + len(code)


def test_position_after_n_moves_and_seat() -> None:
    record = Record.load(WHOLE_HAND)
    position = SharedPosition.from_query("?" + share_query(record, move=10, seat=1) + "&lang=hu")
    assert position is not None
    assert (position.move, position.seat) == (10, 1)
    state = position.state()
    assert [str(m) for m in state.moves] == record.moves[:10]
    assert position.record.moves == record.moves  # the rest stays there to step through
    assert SharedPosition.from_query(position.query()) == position


def test_defaults_all_moves_seat_zero() -> None:
    record = Record.load(DATA / "example.json")
    position = SharedPosition.from_query(share_query(record))
    assert position is not None
    assert (position.move, position.seat) == (len(record.moves), 0)


def test_no_record_in_the_query() -> None:
    assert SharedPosition.from_query("lang=hu") is None
    assert SharedPosition.from_query("") is None


def test_share_url_replaces_an_old_position_and_keeps_the_language() -> None:
    record = Record.load(DATA / "example.json")
    url = share_url("http://h/voila/render/table.ipynb?lang=hu&record=abc&move=3#step-2", record, 1)
    assert url.startswith("http://h/voila/render/table.ipynb?lang=hu&record=")
    assert url.endswith("&move=1") and "abc" not in url and "#" not in url


@pytest.mark.parametrize(
    ("code", "rule"),
    [
        ("not base64!", "garbled"),
        ("eJzLSM3JyVcozy_KSQEAGgQEXQ"[:-5], "garbled"),  # cut short
        (base64.urlsafe_b64encode(b"plain text").decode().rstrip("="), "garbled"),  # not zlib
        (base64.urlsafe_b64encode(zlib.compress(b"{nope")).decode().rstrip("="), "garbled"),
        (_code_of({"format": "tartli/1", "dealer": 7, "seed": 1, "moves": []}), "not-a-record"),
        (_code_of([1, 2, 3]), "not-a-record"),
        ("A" * (MAX_LINK_CHARS + 1), "too-long"),
    ],
    ids=["not-base64url", "cut-short", "not-zlib", "not-json", "bad-dealer", "a-list", "too-long"],
)
def test_bad_codes_are_refused_by_name(code: str, rule: str) -> None:
    with pytest.raises(ShareError) as caught:
        record_from_code(code)
    assert caught.value.rule == rule and caught.value.field == "record"
    assert isinstance(caught.value, TartliError)
    assert "Traceback" not in str(caught.value) and str(caught.value)


def test_a_tampered_move_is_refused_by_the_engine() -> None:
    data = Record.load(WHOLE_HAND).to_dict()
    data["moves"][1] = data["moves"][0].replace("0:", "1:", 1)  # a card the other player does not hold
    with pytest.raises(ShareError) as caught:
        record_from_code(_code_of(data))
    assert caught.value.rule == "illegal-move"
    assert "move 1" in str(caught.value)


def test_a_zip_bomb_is_not_unpacked() -> None:
    bomb = base64.urlsafe_b64encode(zlib.compress(b" " * 2_000_000, 9)).decode().rstrip("=")
    assert len(bomb) <= MAX_LINK_CHARS  # small as a link, 2 MB unpacked
    with pytest.raises(ShareError) as caught:
        record_from_code(bomb)
    assert caught.value.rule == "too-large"
    assert str(MAX_RECORD_CHARS) in str(caught.value).replace(",", "")


def test_an_oversized_query_is_refused_before_parsing() -> None:
    with pytest.raises(ShareError) as caught:
        SharedPosition.from_query("record=" + "A" * 1_000_000)
    assert caught.value.rule == "too-long"


@pytest.mark.parametrize(
    ("extra", "field"), [("&move=45", "move"), ("&move=-1", "move"), ("&move=x", "move"), ("&as=2", "as")]
)
def test_move_and_seat_out_of_range(extra: str, field: str) -> None:
    query = share_query(Record.load(WHOLE_HAND)) + extra
    with pytest.raises(ShareError) as caught:
        SharedPosition.from_query(query)
    assert caught.value.field == field and caught.value.rule == "out-of-range"


def test_wrong_argument_types() -> None:
    with pytest.raises(ArgumentError):
        record_code("{}")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        SharedPosition.from_query(None)  # type: ignore[arg-type]
