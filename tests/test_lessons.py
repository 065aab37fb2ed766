"""The lessons as documents: each is a page of the course map, carries the RULES.md IDs it teaches,
opens with goals and ends with a recap and a link on, has an exercise whose stars the map shows;
and part 1 of the course (lessons 01-06) covers the rules its issue names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tartli.course import PAGES, Page, notebooks_dir

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
RULE_IDS = set(re.findall(r"^- ([A-Z]\d+) ", (ROOT / "tests" / "data" / "RULES.md").read_text("utf-8"), re.M))
LESSONS = [p for p in PAGES if re.match(r"\d\d_", p.file) and not p.file.startswith("00_")]
PART_1 = {f"0{n}" for n in range(1, 7)}
PART_1_RULES = {
    "C1", "C2", "C3", "C4", "C5", "D1", "D2", "D3", "T1", "T2", "T3", "T5",
    "M1", "M2", "M3", "M4", "M5", "M6", "M7", "K1", "K2", "K3", "K4", "K5", "K6", "B1",
}  # fmt: skip


def notebook(page: Page) -> dict[str, object]:
    return json.loads((NOTEBOOKS / page.file).read_text("utf-8"))  # type: ignore[no-any-return]


def code(page: Page) -> list[str]:
    cells = notebook(page)["cells"]
    assert isinstance(cells, list)
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def test_the_rule_book_ids_were_read() -> None:
    assert len(RULE_IDS) == 46 and {"C1", "K7", "V11", "B2"} <= RULE_IDS


def test_every_page_of_the_map_exists_and_ships_with_the_package() -> None:
    for page in PAGES:
        assert (NOTEBOOKS / page.file).is_file(), page.file
        assert (notebooks_dir() / page.file).is_file(), page.file  # (the wheel's copy: tests/test_packaging.py)


@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.file)
def test_lesson_metadata_names_its_title_and_valid_rules(page: Page) -> None:
    meta = notebook(page)["metadata"]
    assert isinstance(meta, dict)
    tartli = meta["tartli"]
    assert tartli["title"] == page.title
    rules = tartli["rules"]
    assert isinstance(rules, list) and set(rules) <= RULE_IDS, rules
    assert rules or page.file.startswith("12_"), "only the history lesson teaches no rule"


@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.file)
def test_lesson_opens_with_goals_and_ends_with_recap_and_a_link_on(page: Page) -> None:
    cells = code(page)
    # a lesson of steps: Lesson(..., goals=...) first, lesson.recap(...) last (it links on itself);
    # tests/test_steps.py runs the steps and checks them one by one
    assert f'Lesson(\n    "{page.file}"' in cells[0] or f'Lesson("{page.file}"' in cells[0], (
        "the first cell makes the lesson"
    )
    assert "goals=" in cells[0], "the first cell states what you will learn"
    assert "lesson.recap(" in cells[-1], "the lesson ends with a recap (the last step, with the link on)"


@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.file)
def test_lesson_has_an_exercise_whose_stars_the_map_shows(page: Page) -> None:
    assert page.exercises, f"{page.file} lists no exercise"
    text = "\n".join(code(page))
    for exercise in page.exercises:
        assert f'progress_id="{exercise}"' in text, f"{page.file}: no exercise keeps its stars as {exercise}"


def test_part_1_covers_its_rules() -> None:
    taught: set[str] = set()
    for page in LESSONS:
        if page.file[:2] in PART_1:
            taught |= set(notebook(page)["metadata"]["tartli"]["rules"])  # type: ignore[index]
    assert taught >= PART_1_RULES, sorted(PART_1_RULES - taught)
    assert len([p for p in LESSONS if p.file[:2] in PART_1]) == 6


def test_the_whole_course_covers_every_rule_of_the_rule_book() -> None:
    taught: set[str] = set()
    for page in LESSONS:
        taught |= set(notebook(page)["metadata"]["tartli"]["rules"])  # type: ignore[index]
    assert taught == RULE_IDS, sorted(RULE_IDS - taught)
    assert len(LESSONS) == 13  # lessons 01-13; the index is 00


def test_the_learners_guide_lists_every_page_of_the_course_in_order() -> None:
    guide = (Path(__file__).resolve().parents[1] / "docs" / "learners" / "course.md").read_text(encoding="utf-8")
    listed = re.findall(r"^- \*\*(.+?)\*\* \(`notebooks/(.+?)`\)", guide, flags=re.M)
    assert listed == [(page.title, page.file) for page in PAGES]
