"""A page imports what it uses (issue 39: a cheaper cold page). Each page's code runs in a fresh Python, as its
kernel runs it; a page that shows no table must not load the bots, the table, the review, the site builder, the
server or the worksheets (the table's package once imported them all for every page: about 0.2 CPU-seconds of
each cold page)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
WITHOUT_A_TABLE = ("00_index", "01_pack", "02_ranks_and_points", "05_melds", "07_sequences", "11_variants",
                   "12_history", "practice", "rules")  # fmt: skip
HEAVY = ("tartli.bots", "tartli.widgets.table", "tartli.widgets.hand_review", "tartli.site", "tartli.server",
         "tartli.worksheets")  # fmt: skip

RUN = """
import json, sys
notebook = json.load(open(sys.argv[1], encoding="utf-8"))
names = {"__name__": "__main__"}
for cell in notebook["cells"]:
    if cell["cell_type"] == "code":
        exec(compile("".join(cell["source"]), "cell", "exec"), names)
"""
"""A page's code cells run in a fresh Python, as its kernel runs them; a report (Python that prints one line of
JSON) follows."""


def run_page(page: str, report: str) -> Any:
    """What ``report`` prints (as JSON) once ``page``'s cells have run in a fresh Python, in the notebooks' folder."""
    done = subprocess.run(
        [sys.executable, "-c", RUN + report, str(NOTEBOOKS / f"{page}.ipynb")],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=NOTEBOOKS,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def modules_of(page: str) -> list[str]:
    loaded: list[str] = run_page(page, "print(json.dumps(sorted(sys.modules)))")
    return loaded


@pytest.mark.parametrize("page", WITHOUT_A_TABLE)
def test_a_page_without_a_table_does_not_load_the_bots_or_the_server(page: str) -> None:
    heavy = [m for m in modules_of(page) if m.startswith(HEAVY)]
    assert heavy == [], f"{page} loads {heavy}"


def test_a_page_with_a_table_loads_it() -> None:
    """(The check can see a module: the table page does load the table and the bots.)"""
    loaded = modules_of("10_play_a_game")
    assert "tartli.widgets.table" in loaded and "tartli.bots.hint" in loaded


SERVER_ONLY = ("tartli.server", "tartli.site")
"""What the static edition does not ship (tartli.site.snapshot.SERVER_ONLY): no page may need it."""


@pytest.mark.parametrize("page", sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")))
def test_no_page_loads_what_the_static_edition_does_not_ship(page: str) -> None:
    """(The table page once imported a constant from tartli.server, and the static edition's table failed.)"""
    needs = [m for m in modules_of(page) if m.startswith(SERVER_ONLY)]
    assert needs == [], f"{page} loads {needs}"


def test_lesson_03s_table_and_quiz_are_made_with_their_steps_not_with_the_page() -> None:
    """Lesson 03 shows its table and its quiz in later steps (steps.later): the page's start loads neither the
    table's code nor the bots (before: the table's 205 widgets and the bots at every cold page)."""
    heavy = [m for m in modules_of("03_deal") if m.startswith(HEAVY)]
    assert heavy == [], f"03_deal loads {heavy} at its start"


WIDGETS = """
from ipywidgets.widgets.widget import _instances
states = [w.get_state() for w in list(_instances.values())]  # what the kernel sends when the page asks (request_states)
print(json.dumps([len(states), len(json.dumps(states, default=str))]))
"""

AT_THE_START = {  # page: (widgets, KB of widget state) its kernel holds once its cells have run, at most
    "04_phase_one": (150, 400),  # 90 widgets, 273 KB (396 and 633 KB before its table and quiz came with their steps)
    "08_phase_two": (150, 400),  # 99 widgets, 268 KB (1,281 and 1,849 KB before: three tables, two trainers)
    "09_scoring": (180, 250),  # 118 widgets, 96 KB (571 and 565 KB before: a table and a trainer)
    "13_scenario_lab": (220, 450),  # 162 widgets, 359 KB (282 and 462 KB before: the lab's seven tasks)
}


def widgets_of(page: str) -> tuple[int, int]:
    count, size = run_page(page, WIDGETS)
    return count, size


@pytest.mark.parametrize("page", sorted(AT_THE_START))
def test_a_lesson_page_starts_with_the_widgets_of_its_first_step_not_of_every_step(page: str) -> None:
    """Issue 39 (every cold page at most 1.0 CPU-s): a kernel sends every widget it has made, each as its own
    message, through the server (Voilà's run of the notebook parses each) and again in full when the page asks
    for the widgets' state. Lesson 08 made three tables and two trainers at its start (1,281 widgets, 1.8 MB of
    state: 2.4-2.9 CPU-s a cold page); a step's table, trainer and question buttons are made when it is shown."""
    count, size = widgets_of(page)
    most, most_kb = AT_THE_START[page]
    assert count <= most and size <= most_kb * 1000, f"{page}: {count} widgets, {size / 1000:.0f} KB of widget state"
