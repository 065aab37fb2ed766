"""The ``tartli/1`` game record (RECORD.md): load, save, replay, and ``tartli-result/1``.

>>> rec = Record.from_json('''{"format": "tartli/1", "dealer": 1, "seed": 3, "moves": []}''')
>>> state = rec.replay()
>>> result(state)["status"]
'in-progress'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tartli.cards import Card, InvalidCardError
from tartli.errors import IllegalMoveError, InvalidDealError, InvalidMoveError, RecordError, TartliError, cut, shown
from tartli.game import Deal, HandState, Status
from tartli.moves import Move, parse_move
from tartli.rules import RuleSet

FORMAT = "tartli/1"
RESULT_FORMAT = "tartli-result/1"
_KEYS = {"format", "rules", "dealer", "scores", "hands", "trump", "talon", "seed", "moves"}

MAX_RECORD_BYTES = 10 * 1024 * 1024
"""A record file is read only up to this size (10 MiB): a real hand's record has a few kilobytes."""
MAX_SCORE = 1_000_000
"""The highest running score a record may give (a game ends near 501; this only bounds the input)."""
SEED_RANGE = range(-(2**63), 2**64)
"""The seeds a record may give: the range of a 64-bit seed, signed or not."""


def quoted(text: str, limit: int = 80) -> str:
    """A move (or any text) in double quotes for a one-line message, cut to ``limit`` characters."""
    if len(text) <= limit:
        return json.dumps(text, ensure_ascii=False)
    return f"{json.dumps(text[:limit], ensure_ascii=False)}… ({len(text):,} characters)"


class ReplayError(TartliError):
    """A move of a record that cannot be made: ``index`` is its 0-based place in ``moves``."""

    def __init__(self, index: int, text: str, cause: TartliError) -> None:
        self.index = index
        self.move_text = text
        self.cause = cause
        # The move is quoted once (an unreadable move's own message would quote it again), and cut if long.
        why = cause.reason if isinstance(cause, InvalidMoveError) else str(cause)
        super().__init__(f"move {index} {quoted(text)}: {why}")


@dataclass
class Record:
    """One hand as a record: rules, dealer, running scores, the cards, and the moves so far."""

    deal: Deal
    rules: RuleSet = field(default_factory=RuleSet)
    scores: tuple[int, int] = (0, 0)
    moves: list[str] = field(default_factory=list)
    seed: int | None = None

    # ------------------------------------------------------------ reading
    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Parse record text; :class:`RecordError` names the field that is wrong.

        Bounded in time and memory: text over :data:`MAX_RECORD_BYTES` is refused before it is
        parsed, and JSON nested too deep or with numbers too long to read is refused, not a crash.
        """
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(f"a record has at most {MAX_RECORD_BYTES:,} bytes; this one has {len(text):,}")
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as err:
                raise RecordError(f"cannot read it: not UTF-8 text ({err.reason} at byte {err.start})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise RecordError(f"not JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
        except RecursionError:
            raise RecordError("not a record: JSON nested too deep") from None
        except ValueError as err:  # e.g. an integer too long to convert (Python's 4,300-digit limit)
            raise RecordError(f"not a record: {cut(str(err), 120)}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file (``RecordError`` if it is missing, unreadable, too large or malformed)."""
        where = cut(str(path), 120)
        try:
            with open(path, "rb") as file:
                data = file.read(MAX_RECORD_BYTES + 1)  # a bounded read: /dev/zero or a huge file stops here
        except FileNotFoundError:
            raise RecordError(f"{where}: no such file") from None
        except IsADirectoryError:
            raise RecordError(f"{where}: cannot read it: a folder, not a record file") from None
        except (OSError, ValueError) as err:
            raise RecordError(f"{where}: cannot read it: {cut(str(err), 120)}") from None
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError(f"{where}: a record file has at most {MAX_RECORD_BYTES:,} bytes; this one has more")
        return cls.from_json(data)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        unknown = sorted(set(data) - _KEYS)
        if unknown:
            raise RecordError(f"{cut(unknown[0])}: not a field of a {FORMAT} record")
        if data.get("format") != FORMAT:
            raise RecordError(f'format: must be "{FORMAT}", not {shown(data.get("format"))}')
        rules = RuleSet.from_record(data.get("rules", "hungarian"))
        dealer = data.get("dealer")
        if type(dealer) is not int or dealer not in (0, 1):  # not 1.0, not true
            raise RecordError("dealer: must be 0 or 1 (D2)")
        scores = data.get("scores", [0, 0])
        if (
            not isinstance(scores, list)
            or len(scores) != 2
            or any(type(s) is not int or not 0 <= s <= MAX_SCORE for s in scores)
        ):
            raise RecordError(f"scores: must be two whole numbers from 0 to {MAX_SCORE:,}, e.g. [0, 0] (S1)")
        moves = data.get("moves")
        if not isinstance(moves, list) or any(not isinstance(m, str) for m in moves):
            raise RecordError('moves: must be a list of strings like "0: play AH"')
        seed = data.get("seed")
        card_keys = [k for k in ("hands", "trump", "talon") if k in data]
        if seed is not None:
            if type(seed) is not int or seed not in SEED_RANGE:
                raise RecordError("seed: must be a whole number from -2**63 to 2**64 - 1")
            if card_keys:
                raise RecordError(f"{card_keys[0]}: a record gives either a seed or the cards, not both")
            deal = Deal.from_seed(seed, dealer)
        else:
            for key in ("hands", "trump", "talon"):
                if key not in data:
                    raise RecordError(f"{key}: missing (give hands, trump and talon, or a seed)")
            deal = _read_deal(data, dealer)
        return cls(deal, rules, (scores[0], scores[1]), list(moves), seed)

    # ------------------------------------------------------------ writing
    @classmethod
    def from_state(cls, state: HandState, seed: int | None = None) -> Record:
        """The record of a hand so far (moves in record notation)."""
        return cls(state.deal, state.rules, state.scores_in, [str(m) for m in state.moves], seed)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_record(),
            "dealer": self.deal.dealer,
            "scores": list(self.scores),
        }
        if self.seed is not None and Deal.from_seed(self.seed, self.deal.dealer) == self.deal:
            data["seed"] = self.seed
        else:
            data["hands"] = [[str(c) for c in h] for h in self.deal.hands]
            data["trump"] = str(self.deal.indicator)
            data["talon"] = [str(c) for c in self.deal.talon]
        data["moves"] = [str(parse_move(m)) for m in self.moves]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the record; the file is replaced whole or not at all."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(self.to_json(), encoding="utf-8")
        tmp.replace(target)

    # ------------------------------------------------------------ replaying
    def new_state(self) -> HandState:
        return HandState(self.deal, self.rules, self.scores)

    def replay(self) -> HandState:
        """The state after all the moves; :class:`ReplayError` names the first bad move."""
        state = self.new_state()
        for index, text in enumerate(self.moves):
            try:
                move: Move = parse_move(text)
                state.push(move)
            except (InvalidMoveError, IllegalMoveError) as err:
                raise ReplayError(index, text, err) from None
        return state


def _read_deal(data: dict[str, Any], dealer: int) -> Deal:
    def card(text: Any, where: str) -> Card:
        try:
            return Card.parse(text)
        except InvalidCardError as err:
            raise RecordError(f"{where}: {err}") from None

    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != 2 or any(not isinstance(h, list) for h in hands):
        raise RecordError("hands: must be two lists of 9 cards")
    parsed = tuple(tuple(card(c, f"hands[{p}]") for c in hands[p]) for p in (0, 1))
    talon = data["talon"]
    if not isinstance(talon, list):
        raise RecordError("talon: must be a list of 13 cards")
    try:
        return Deal(
            dealer,
            (parsed[0], parsed[1]),
            card(data["trump"], "trump"),
            tuple(card(c, "talon") for c in talon),
        )
    except InvalidDealError as err:
        raise RecordError(f"hands/trump/talon: {err}") from None


def result(state: HandState) -> dict[str, Any]:
    """The ``tartli-result/1`` object of a state (RECORD.md, "Replaying")."""
    to_move = state.to_move
    legal = sorted(str(m) for m in state.legal_moves()) if to_move is not None else []
    return {
        "format": RESULT_FORMAT,
        "status": state.status.value,
        "trick_winners": list(state.trick_winners),
        "meld_points": list(state.meld_points),
        "card_points": list(state.card_points),
        "stichmatsch": state.stichmatsch,
        "scores": list(state.totals),
        "out": None if state.out is None else {"player": state.out[0], "valid": state.out[1]},
        "buli": list(state.buli),
        "to_move": to_move,
        "legal": legal,
    }


def replay_file(path: str | Path) -> dict[str, Any]:
    """Load and replay a record file, giving its ``tartli-result/1`` object."""
    return result(Record.load(path).replay())


__all__ = ["FORMAT", "RESULT_FORMAT", "Record", "ReplayError", "Status", "replay_file", "result"]
