"""Every rule ID of RULES.md has at least one test marked ``@pytest.mark.rule("ID")``.

The markers are read from the test modules of this folder themselves (imported
under private names), so the check holds whatever subset of tests is run.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).parent
RULE_LINE = re.compile(r"^- ([A-Z][0-9]+) ", re.MULTILINE)


def rule_ids() -> set[str]:
    """The IDs defined in RULES.md: lines like ``- C1 32 cards ...``."""
    return set(RULE_LINE.findall((HERE / "data" / "RULES.md").read_text(encoding="utf-8")))


def _marks(obj: object) -> Iterator[pytest.Mark]:
    for mark in getattr(obj, "pytestmark", []):
        yield mark
        if mark.name == "parametrize":  # marks given to single parameter sets
            for value in mark.args[1] if len(mark.args) > 1 else []:
                yield from getattr(value, "marks", ())


def _test_objects(module: object) -> Iterator[object]:
    yield module
    for name, obj in vars(module).items():
        if inspect.isclass(obj) and name.startswith("Test"):
            yield obj
            yield from (f for n, f in vars(obj).items() if n.startswith("test") and callable(f))
        elif name.startswith("test") and callable(obj):
            yield obj


def marked_ids() -> set[str]:
    """The IDs named by ``rule`` markers of the tests in tests/test_*.py."""
    ids: set[str] = set()
    for path in sorted(HERE.glob("test_*.py")):
        if path.name == Path(__file__).name or "mark.rule" not in path.read_text(encoding="utf-8"):
            continue
        spec = importlib.util.spec_from_file_location(f"_rule_coverage_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for obj in _test_objects(module):
            for mark in _marks(obj):
                if mark.name == "rule":
                    ids.update(mark.args)
    return ids


def test_rule_ids_are_read_from_the_rule_book():
    ids = rule_ids()
    groups = {"C": 5, "D": 3, "T": 5, "M": 7, "K": 7, "B": 2, "S": 6, "V": 11}
    for letter, count in groups.items():
        assert {f"{letter}{n}" for n in range(1, count + 1)} <= ids


def test_every_rule_has_a_test():
    missing = rule_ids() - marked_ids()
    assert not missing, f"rules without a test marked @pytest.mark.rule: {', '.join(sorted(missing))}"


def test_markers_name_only_known_rules():
    unknown = marked_ids() - rule_ids()
    assert not unknown, f"rule markers naming no rule of RULES.md: {', '.join(sorted(unknown))}"
