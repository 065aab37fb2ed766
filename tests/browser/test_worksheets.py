"""Worksheets printed by Chromium (issue 37): every lesson's sheet, in English, Hungarian and German, is
two A4 pages, the tasks on the first and the answer key on the second; nothing is fetched; on a phone the
sheet fits the screen's width.

The sheets are opened from files (the course's server answers the same page: tests/test_worksheets.py).
The answers themselves are checked against the engine in tests/test_worksheets.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tartli.worksheets import SHEETS, worksheet
from tests.browser.conftest import pdf_pages

pytestmark = pytest.mark.browser


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context()
    try:
        yield context
    finally:
        context.close()


def _open(context: Any, path: Path, width: int = 794) -> tuple[Any, list[str]]:
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(path.as_uri(), wait_until="load")
    return page, fetched


@pytest.mark.parametrize("lang", ["en", "hu", "de"])
def test_a_worksheet_prints_on_two_a4_pages_with_its_key_on_the_second(context: Any, tmp_path: Path, lang: str) -> None:
    for i, lesson in enumerate(SHEETS):
        seed = 20 + 7 * i
        path = tmp_path / f"sheet-{lesson}-{lang}.html"
        path.write_text(worksheet(lesson, seed, lang), encoding="utf-8")
        page, fetched = _open(context, path)
        assert fetched == [path.as_uri()], f"the sheet fetched {fetched[1:]}"  # one standalone page
        assert page.evaluate("getComputedStyle(document.querySelector('section.key')).breakBefore") == "page"
        # The key starts a page of its own after the tasks (break-before), so two pages in all are the tasks
        # on the first and the key on the second; tasks that ran over would make it three.
        printed = pdf_pages(page.pdf(format="A4", print_background=True))
        assert printed == 2, f"lesson {lesson} ({lang}, seed {seed}) prints on {printed} pages"
        page.close()


@pytest.mark.parametrize("lang", ["en", "hu", "de"])
def test_a_worksheet_on_a_phone_fits_its_width(context: Any, tmp_path: Path, lang: str) -> None:
    path = tmp_path / f"sheet-08-{lang}.html"
    path.write_text(worksheet("08", 3, lang), encoding="utf-8")
    page, _fetched = _open(context, path, width=390)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("section.task").count() == sum(count for _kind, count in SHEETS["08"].plan)
    assert page.locator("button.print").is_visible()  # on the screen a button prints it; not on paper
    page.emulate_media(media="print")
    assert not page.locator("button.print").is_visible()
    page.close()
