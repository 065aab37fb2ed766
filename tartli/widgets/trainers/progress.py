"""Stars and stages: what a learner has mastered, per exercise, kept in the browser."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tartli.widgets.board import SvgBoard

log = logging.getLogger(__name__)


def stars_text(stars: int) -> str:
    """Three stars, filled for each one earned: ``stars_text(2) == "★★☆"``."""
    stars = max(0, min(3, stars))
    return "★" * stars + "☆" * (3 - stars)


# ---------------------------------------------------------------------------- progress
STAGE_LENGTH = 5
"""Positions answered right at the first try that finish a stage (its stars: see :meth:`Progress.record_position`)."""


class Progress:
    """Stars and counts per exercise id, kept as JSON (and in the browser via an SvgBoard).

    Stars mean mastery of a stage, not a lucky answer: a stage is finished by
    :data:`STAGE_LENGTH` positions answered right at the first try (a position
    with a wrong answer first, whose right answer the feedback then showed,
    earns nothing and counts as a slip). Its stars: 3 with no slip, 2 with
    one, 1 with more. ``best`` keeps the best stage.

    >>> p = Progress()
    >>> [p.record_position("which-card-wins", clean) for clean in (True, False, True, True, True, True)]
    [0, 0, 0, 0, 0, 2]
    >>> p.best("which-card-wins"), p.stage("which-card-wins"), p.solved("which-card-wins")
    (2, (0, 0), 6)
    >>> Progress.from_json(p.to_json()).to_dict() == p.to_dict()
    True
    """

    FIELDS: ClassVar[tuple[str, ...]] = ("best", "tries", "solved", "stages")
    STAGE_FIELDS: ClassVar[tuple[str, ...]] = ("clean", "slips")
    """The stage under way: taken whole from the newer record on a merge (they go back to 0)."""

    def __init__(self, data: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self._data: dict[str, dict[str, int]] = {}
        self._boards: list[SvgBoard] = []
        self.writing = False
        """True while this record is being written to the boards (a change that did not come from a browser)."""
        if data:
            self.merge(data)

    # -- reading
    def best(self, exercise: str) -> int:
        """The best stars (0-3) earned on any position of the exercise."""
        return self._data.get(exercise, {}).get("best", 0)

    def tries(self, exercise: str) -> int:
        """How many positions of the exercise were answered at least once."""
        return self._data.get(exercise, {}).get("tries", 0)

    def solved(self, exercise: str) -> int:
        """How many positions of the exercise were solved."""
        return self._data.get(exercise, {}).get("solved", 0)

    def stage(self, exercise: str) -> tuple[int, int]:
        """The stage under way: (positions right at the first try, slips)."""
        entry = self._data.get(exercise, {})
        return entry.get("clean", 0), entry.get("slips", 0)

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {k: dict(v) for k, v in sorted(self._data.items())}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Progress:
        """Read :meth:`to_json` output; anything unreadable gives an empty record (and a log line)."""
        try:
            data = json.loads(text or "{}") if len(text or "") <= 100_000 else {}
        except (ValueError, RecursionError):
            log.warning("ignoring unreadable progress record")
            data = {}
        return cls(data if isinstance(data, dict) else {})

    # -- writing
    def record_try(self, exercise: str) -> None:
        """A position of ``exercise`` got its first answer."""
        entry = self._entry(exercise)
        entry["tries"] += 1
        self._save()

    def record_result(self, exercise: str, stars: int) -> None:
        """A position of ``exercise`` was solved with ``stars`` (a challenge's own): the best is kept."""
        entry = self._entry(exercise)
        entry["solved"] += 1
        entry["best"] = max(entry["best"], max(0, min(3, int(stars))))
        self._save()

    def record_position(self, exercise: str, clean: bool, length: int = STAGE_LENGTH) -> int:
        """A position was solved, ``clean`` if at the first try. Returns the stars of the stage it
        finished (1-3), or 0 while the stage goes on."""
        entry = self._entry(exercise)
        entry["solved"] += 1
        entry["clean" if clean else "slips"] += 1
        stars = 0
        if entry["clean"] >= length:
            stars = 3 if entry["slips"] == 0 else 2 if entry["slips"] == 1 else 1
            entry["best"] = max(entry["best"], stars)
            entry["stages"] += 1
            entry["clean"] = entry["slips"] = 0
        self._save()
        return stars

    def merge(self, data: Mapping[str, Any]) -> bool:
        """Take in another record (the larger number wins in each field); True if anything changed."""
        changed = False
        for exercise, entry in data.items():
            if not isinstance(exercise, str) or not isinstance(entry, Mapping):
                continue
            mine = self._entry(exercise)

            def count(record: Mapping[str, Any], name: str) -> int:
                value = record.get(name, 0)
                return value if type(value) is int and value >= 0 else 0

            newer = (count(entry, "stages"), count(entry, "solved")) > (mine["stages"], mine["solved"])
            if newer:
                for name in self.STAGE_FIELDS:
                    changed |= mine[name] != count(entry, name)
                    mine[name] = count(entry, name)
            for name in self.FIELDS:
                value = entry.get(name, 0)
                if type(value) is int and value > mine[name]:
                    mine[name] = min(value, 3) if name == "best" else value
                    changed = True
        return changed

    def _entry(self, exercise: str) -> dict[str, int]:
        entry = self._data.setdefault(exercise, {})
        for name in (*self.FIELDS, *self.STAGE_FIELDS):
            entry.setdefault(name, 0)
        return entry

    # -- the browser's localStorage, through SvgBoard.progress
    def bind(self, board: SvgBoard) -> None:
        """Keep this record in ``board``'s localStorage: load what it holds now and whenever the
        browser sends its saved copy, and write every change back."""
        if board in self._boards:
            return
        self._boards.append(board)
        self.merge(board.load_progress())
        board.observe(self._on_board, names="progress")
        board.save_progress(self.to_dict())

    def _on_board(self, change: Any) -> None:
        board = change["owner"]
        if self.merge(board.load_progress()):
            self._save()
        elif board.load_progress() != self.to_dict():
            self._save([board])

    def _save(self, boards: Sequence[SvgBoard] | None = None) -> None:
        """Write this record to ``boards`` (all bound boards by default), marked as not from a browser."""
        data = self.to_dict()
        self.writing = True
        try:
            for board in self._boards if boards is None else boards:
                board.save_progress(data)
        finally:
            self.writing = False
