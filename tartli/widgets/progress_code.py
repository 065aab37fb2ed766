"""Progress that moves: the stars and stages kept in one browser as a short code, and back.

The course keeps a learner's progress in the browser's ``localStorage`` (:mod:`tartli.widgets.board`):
each exercise's record under ``tartli.trainers.<id>`` (``{"<exercise>": {"best": 2, "stages": 1,
"solved": 6, "tries": 7, ...}}``, :class:`~tartli.widgets.trainers.progress.Progress`) and each
lesson's step under ``tartli.steps.<lesson>`` (the step, and the steps done in
``tartli.steps.<lesson>.done``). The game kept at the table (``tartli.table.*``) is not progress and
stays out.

:func:`progress_code` packs what the browser holds (``{key: text}``, as the course map reads it)
into a code: ``P1`` and then compact JSON, zlib, base64url (:func:`tartli.share.pack`): the whole
course done (23 exercises, 17 pages' steps) makes 604 characters. :func:`merge_code` reads a code
and merges it with what the browser holds: every number the larger of the two (the best stars, the
stages finished, the steps), the steps done joined, the stage under way from the record that
finished more; nothing is ever lowered, so loading an old code, or one's own, loses no star. A
garbled code is a :class:`ProgressCodeError` and changes nothing.

A code is checked against the course's real exercises (:data:`tartli.course.EXERCISES`): an
exercise the course does not have is ignored by :func:`merge_code` and :func:`stars`, not refused.
It gets no star and nothing is written for it, so a code claiming a thousand made-up exercises is
worth no more than the real ones it holds; and a code made by an older course (an exercise renamed
or dropped since) still brings the rest of a learner's progress, which refusing the whole code for
one stale name would lose. (:func:`read_progress` still shows it: a class's report refuses a code
that could not come from the course.)

>>> have = {"tartli.trainers.lesson02.count-points": '{"lesson02.count-points": {"best": 2, "stages": 1}}'}
>>> code = progress_code(have)
>>> code.startswith("P1"), merge_code(code, {}) == {"tartli.trainers.lesson02.count-points":
...     '{"lesson02.count-points": {"best": 2, "clean": 0, "slips": 0, "solved": 0, "stages": 1, "tries": 0}}'}
(True, True)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from tartli.course import EXERCISES
from tartli.errors import TartliError
from tartli.i18n import _
from tartli.share import pack, unpack
from tartli.widgets.hands import FIELDS as HAND_FIELDS
from tartli.widgets.trainers.progress import Progress

PREFIX = "P1"
"""A progress code starts with this (the format's version): a table link's code is not taken for one."""
MAX_CODE_CHARS = 20_000
"""The longest code read (the whole course done makes 604 characters)."""
MAX_CODE_BYTES = 200_000
"""The most a code may unpack to."""
MAX_ENTRIES = 1_000
"""The most exercises and lessons a code may hold (the course has about a hundred)."""
MAX_NUMBER = 10**6
_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,120}")
_STEP = re.compile(r"[1-9][0-9]?")
MAX_SLIPS = 99
"""The most wrong answers to one question a code keeps (the lesson counts no further)."""
_FIELDS = ("best", "stages", "solved", "tries", "clean", "slips")
"""A record's numbers, in the order a code writes them (a list: no field names in every entry)."""


class ProgressCodeError(TartliError):
    """A progress code that cannot be read (garbled, cut short, too long, or not a progress code)."""


Records = dict[str, dict[str, dict[str, int]]]
Steps = dict[str, list[Any]]
Hands = dict[str, list[int]]
"""A table's hands (:mod:`tartli.widgets.hands`): ``{"table": [played, reviewed, accuracy]}``."""


def _progress_keys(have: Mapping[str, str]) -> tuple[Records, Steps, Hands]:
    """What the browser holds, read: progress records by key, lessons' steps ``[step, [done...]]`` (and
    ``{step: slips}``), and the tables' hands."""
    records: Records = {}
    steps: Steps = {}
    hands: Hands = {}
    for key, text in have.items():
        if not isinstance(key, str) or not isinstance(text, str) or not key.startswith("tartli."):
            continue
        name = key[len("tartli.") :]
        if name.startswith("table.") or not _NAME.fullmatch(name) or len(text) > 100_000:
            continue
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            continue
        if name.startswith("hands."):
            if isinstance(value, dict):
                numbers = [value.get(f, 0) for f in HAND_FIELDS]
                if all(type(n) is int and 0 <= n <= MAX_NUMBER for n in numbers) and any(numbers):
                    hands[name[len("hands.") :]] = numbers
        elif name.startswith("steps."):
            lesson, part = name[len("steps.") :], "step"
            for suffix in (".done", ".slips"):
                if lesson.endswith(suffix):
                    lesson, part = lesson[: -len(suffix)], suffix[1:]
            entry = steps.setdefault(lesson, [0, []])
            if part == "done" and isinstance(value, list):
                entry[1] = sorted({n for n in value if type(n) is int and 0 < n < 100})
            elif part == "slips" and isinstance(value, dict):
                slips = {
                    k: min(n, MAX_SLIPS) for k, n in value.items() if _STEP.fullmatch(k) and type(n) is int and n > 0
                }
                if slips:
                    entry[2:] = [dict(sorted(slips.items(), key=lambda kv: int(kv[0])))]
            elif part == "step" and type(value) is int and 0 <= value < 100:
                entry[0] = value
        elif isinstance(value, dict):
            records[name] = Progress(value).to_dict()
    return records, steps, hands


def progress_code(have: Mapping[str, str]) -> str:
    """The code of the progress the browser holds (``have``: its ``tartli.*`` keys and their text)."""
    records, steps, hands = _progress_keys(have)
    data: dict[str, Any] = {
        "p": {
            key: {ex: [entry.get(f, 0) for f in _FIELDS] for ex, entry in rec.items()} for key, rec in records.items()
        },
        "s": steps,
    }
    if hands:  # (a code of a browser that played no hand is as before)
        data["h"] = hands
    return PREFIX + pack(data)


def read_code(code: str) -> tuple[Records, Steps]:
    """The progress records and lessons' steps of a code; :class:`ProgressCodeError` if it is not one."""
    records, steps, _hands = read_progress(code)
    return records, steps


def read_progress(code: str) -> tuple[Records, Steps, Hands]:
    """The progress records, lessons' steps and tables' hands of a code; :class:`ProgressCodeError` if it is
    not one."""
    garbled = ProgressCodeError(_("That is not a progress code, or not all of it: copy the whole code again."))
    if not isinstance(code, str):
        raise garbled
    code = "".join(code.split())  # a code pasted over two lines
    if len(code) > MAX_CODE_CHARS:
        raise ProgressCodeError(
            _("That progress code is too long: at most {limit} characters.").format(limit=MAX_CODE_CHARS)
        )
    if not code.startswith(PREFIX):
        raise garbled
    try:
        data = unpack(code[len(PREFIX) :], MAX_CODE_CHARS, MAX_CODE_BYTES)
    except ValueError:
        raise garbled from None
    if not isinstance(data, dict) or not isinstance(data.get("p"), dict) or not isinstance(data.get("s"), dict):
        raise garbled
    records: dict[str, dict[str, dict[str, int]]] = {}
    count = 0
    for key, record in data["p"].items():
        if not _NAME.fullmatch(key) or key.startswith(("table.", "steps.")) or not isinstance(record, dict):
            raise garbled
        for exercise, numbers in record.items():
            count += 1
            if (
                not _NAME.fullmatch(exercise)
                or not isinstance(numbers, list)
                or len(numbers) != len(_FIELDS)
                or any(type(n) is not int or not 0 <= n <= MAX_NUMBER for n in numbers)
                or numbers[0] > 3
            ):
                raise garbled
            records.setdefault(key, {})[exercise] = dict(zip(_FIELDS, numbers, strict=True))
    steps: dict[str, list[Any]] = {}
    for lesson, entry in data["s"].items():
        count += 1
        if (
            not _NAME.fullmatch(lesson)
            or not isinstance(entry, list)
            or len(entry) not in (2, 3)  # [step, done] or [step, done, {step: slips}] (a code made before slips: 2)
            or type(entry[0]) is not int
            or not 0 <= entry[0] < 100
            or not isinstance(entry[1], list)
            or any(type(n) is not int or not 0 < n < 100 for n in entry[1])
        ):
            raise garbled
        steps[lesson] = [entry[0], sorted(set(entry[1]))]
        if len(entry) == 3:
            slips = entry[2]
            if not isinstance(slips, dict) or any(
                not _STEP.fullmatch(k) or type(n) is not int or not 0 < n <= MAX_SLIPS for k, n in slips.items()
            ):
                raise garbled
            if slips:
                steps[lesson].append(dict(sorted(slips.items(), key=lambda kv: int(kv[0]))))
    hands: Hands = {}
    for table, numbers in (data.get("h") or {}).items() if isinstance(data.get("h") or {}, dict) else [(None, None)]:
        count += 1
        if (
            not isinstance(table, str)
            or not _NAME.fullmatch(table)
            or not isinstance(numbers, list)
            or len(numbers) != len(HAND_FIELDS)
            or any(type(n) is not int or not 0 <= n <= MAX_NUMBER for n in numbers)
            or numbers[2] > 100 * numbers[1]  # (the sum of the reviewed hands' accuracies, each at most 100)
        ):
            raise garbled
        hands[table] = list(numbers)
    if count > MAX_ENTRIES:
        raise garbled
    return records, steps, hands


def merge_code(code: str, have: Mapping[str, str]) -> dict[str, str]:
    """The ``localStorage`` keys to write (and their text) to take in ``code`` on top of ``have``:
    the best of each, nothing lowered. :class:`ProgressCodeError` (and nothing to write) for a bad code."""
    records, steps, hands = read_progress(code)
    mine, my_steps, my_hands = _progress_keys(have)
    writes: dict[str, str] = {}
    for table, numbers in hands.items():
        old = my_hands.get(table, [0, 0, 0])
        reviewed = old[1:] if old[1] >= numbers[1] else numbers[1:]  # (the accuracy sum goes with its count)
        kept = [max(numbers[0], old[0]), *reviewed]
        if kept != old:
            writes[f"tartli.hands.{table}"] = json.dumps(dict(zip(HAND_FIELDS, kept, strict=True)))
    for key, whole in records.items():
        record = {exercise: entry for exercise, entry in whole.items() if exercise in EXERCISES}
        if not record:  # only exercises the course does not have: ignored (see the module notes)
            continue
        merged = Progress(mine.get(key, {}))
        merged.merge(record)
        if merged.to_dict() != mine.get(key):
            writes["tartli." + key] = merged.to_json()
    for lesson, (step, done, *more) in steps.items():
        old_step, old_done, *old_more = my_steps.get(lesson, [0, []])
        if step > old_step:
            writes[f"tartli.steps.{lesson}"] = str(step)
        joined = sorted(set(old_done) | set(done))
        if joined != old_done:
            writes[f"tartli.steps.{lesson}.done"] = json.dumps(joined)
        slips, old_slips = (more or [{}])[0], (old_more or [{}])[0]
        most = {k: max(n, old_slips.get(k, 0)) for k, n in slips.items()}
        if any(old_slips.get(k) != n for k, n in most.items()):
            writes[f"tartli.steps.{lesson}.slips"] = json.dumps(old_slips | most, separators=(",", ":"))
    return writes


def stars(have: Mapping[str, str]) -> int:
    """All the stars the browser holds for the course's exercises (each exercise's best, counted
    once), as the course map counts them."""
    best: dict[str, int] = {}
    for record in _progress_keys(have)[0].values():
        for exercise, entry in record.items():
            if exercise not in EXERCISES:
                continue
            best[exercise] = max(best.get(exercise, 0), entry.get("best", 0))
    return sum(best.values())


__all__ = ["PREFIX", "ProgressCodeError", "merge_code", "progress_code", "read_code", "read_progress", "stars"]
