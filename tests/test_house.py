"""The house a newcomer walks into (issue 41): files are rooms, imports are doors. Read from the sources
with :mod:`ast` (every import counts: at the top, inside a function, under ``TYPE_CHECKING``):

* no circle among the widget modules (the review panel once imported the table's private names and the
  table imported the panel back: neither could be read or tested alone);
* no widget module imports a private (``_``) name of another widget module (a package, such as
  ``tartli.widgets.trainers``, shares its private names among its own modules only);
* the engine imports nothing from the widgets, the pictures or the server (:mod:`tartli.render` only in
  a ``_repr_*_`` hook, lazily, as STYLE.md's principle 8 has it: ``Card`` shows itself in a notebook).
"""

from __future__ import annotations

import ast
import graphlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tartli"

ENGINE = (
    "tartli.cards",
    "tartli.melds",
    "tartli.rules",
    "tartli.moves",
    "tartli.game",
    "tartli.match",
    "tartli.record",
)
"""The engine as docs/contributors/layout.md names it; what these import (names, errors, i18n...) is engine too."""
NOT_FOR_THE_ENGINE = ("tartli.widgets", "tartli.render", "tartli.server")


@dataclass(frozen=True)
class Door:
    """One import in ``module``: of ``target`` (a module), the name ``name`` from it (None: the module)."""

    module: str
    target: str
    name: str | None
    function: str | None
    """The function or method the import is in (None: at the module's top or under TYPE_CHECKING)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _is_package(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def doors(module: str) -> Iterator[Door]:
    """Every import of ``module``: ``from a.b import c`` opens the module ``a.b.c`` if there is one, else
    the name ``c`` of ``a.b``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    package = module if _is_package(module) else module.rpartition(".")[0]

    def visit(node: ast.AST, function: str | None) -> Iterator[Door]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield from visit(child, child.name)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield Door(module, alias.name, None, function)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    base = ".".join([*up, base] if base else up)
                for alias in child.names:
                    whole = f"{base}.{alias.name}"
                    if whole in MODULES:
                        yield Door(module, whole, None, function)
                    else:
                        yield Door(module, base, alias.name, function)
            yield from visit(child, function)

    yield from visit(tree, None)


WIDGETS = sorted(m for m in MODULES if m.startswith("tartli.widgets."))


def unit(module: str) -> str:
    """The room a widget module belongs to: itself, or the package of tartli.widgets it is in."""
    return ".".join(module.split(".")[:3])


def widget_graph() -> dict[str, set[str]]:
    return {m: {d.target for d in doors(m) if d.target in WIDGETS and d.target != m} for m in WIDGETS}


def test_no_circle_among_the_widget_modules() -> None:
    try:
        order = list(graphlib.TopologicalSorter(widget_graph()).static_order())
    except graphlib.CycleError as err:
        pytest.fail(f"widget modules import each other in a circle: {' -> '.join(err.args[1])}")
    assert "tartli.widgets.table" in order and "tartli.widgets.hand_review" in order  # (the check sees them)


def test_no_widget_module_imports_a_private_name_of_another() -> None:
    private = [
        f"{d.module} imports {d.name} from {d.target}"
        for m in WIDGETS
        for d in doors(m)
        if d.target in WIDGETS
        and unit(d.target) != unit(m)
        and d.name is not None
        and d.name.startswith("_")
        and not d.name.startswith("__")
    ]
    assert private == []


def engine_modules() -> set[str]:
    """The engine's modules and every tartli module they import (a lazy ``_repr_*_`` hook's not followed)."""
    found: set[str] = set()
    todo = list(ENGINE)
    while todo:
        module = todo.pop()
        if module in found:
            continue
        found.add(module)
        todo += [
            d.target
            for d in doors(module)
            if d.target in MODULES and d.target != "tartli" and not (d.function or "").startswith("_repr_")
        ]
    return found


def test_the_engine_imports_nothing_from_the_widgets_the_pictures_or_the_server() -> None:
    engine = engine_modules()
    assert {"tartli.cards", "tartli.game", "tartli.names"} <= engine  # (the check follows the imports)
    wrong = [
        f"{d.module} imports {d.target}" + (f" in {d.function}()" if d.function else "")
        for m in sorted(engine)
        for d in doors(m)
        if d.target.startswith(NOT_FOR_THE_ENGINE)
        and not (d.target.startswith("tartli.render") and (d.function or "").startswith("_repr_"))
    ]
    assert wrong == []


def test_the_check_reads_imports_as_python_does() -> None:
    """(The doors of a module the tests know: a lazy import, a relative-free ``from a.b import c``.)"""
    table = {(d.target, d.name) for d in doors("tartli.widgets.hand_review")}
    assert ("tartli.widgets.board", "SvgBoard") in table
    game = [d for d in doors("tartli.game") if d.target == "tartli.render.table"]
    assert game and all(d.function is not None and d.function.startswith("_repr_") for d in game)
