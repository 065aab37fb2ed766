"""Share links in a real browser: the table and the scenario lab opened from a link made from a record
of tests/data show the engine's hand, trick and scores at that move, in English and Hungarian; the
Share button's link opens the same position; a garbled, an illegal and an oversized link give a
message and a page that still plays. (The server gives such a page its own kernel: a pooled kernel
ran its notebook before the address was known.)"""

from __future__ import annotations

import base64
import html
import json
import re
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tartli.i18n import set_language
from tartli.record import Record
from tartli.share import share_query
from tartli.widgets.lab import linked_lab
from tartli.widgets.table import TableController

from .conftest import Server, Watch, assert_no_error_output, pdf_pages, wait_for_cells

pytestmark = pytest.mark.browser

RECORD = Path(__file__).resolve().parents[1] / "data" / "conformance" / "rand_0182.json"

TEXTS_JS = """(scope) => {
  const table = document.querySelector(scope + ' .tartli-table');
  if (!table) return null;
  const board = table.querySelector('.tartli-board');
  if (!board || !board.querySelector('svg')) return null;  // (drawn a moment after the table)
  return {
    texts: Array.from(board.querySelectorAll('text')).map((t) => t.textContent),
    hand: Array.from(board.querySelectorAll('[data-pick]')).map((n) => n.getAttribute('data-pick')),
    message: (table.querySelector('.tartli-message') || {}).innerText || '',
    status: table.children[0].innerText.trim(),
  };
}"""


def _texts(svg: str) -> list[str]:
    """The words of an SVG picture as the browser's ``textContent`` of its <text> elements gives them."""
    found = re.findall(r"<text\b[^>]*>(.*?)</text>", svg, flags=re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", t)) for t in found]


def _expected(query: str, lang: str, lab: bool = False) -> TableController:
    """The table the page's kernel builds for ``query``, built here the same way, in ``lang``."""
    set_language(lang)
    try:
        if lab:
            opened = linked_lab(query).lab
            assert opened is not None and opened.table is not None
            return opened.table
        table = TableController(seed=2024, keep_in_browser="table", offer_two_players=True)
        assert table.open_from_address(query)
        return table
    finally:
        set_language("en")


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    made = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield made
    finally:
        made.close()


def _open(context: Any, url: str) -> tuple[Any, Watch]:
    page = context.new_page()
    page.set_default_timeout(60_000)
    watch = Watch()
    watch.attach(page)
    page.goto(url, wait_until="load")
    wait_for_cells(page)
    return page, watch


def _shown(page: Any, scope: str = "") -> dict[str, Any]:
    page.wait_for_function(TEXTS_JS, arg=scope, timeout=120_000)
    page.wait_for_function(
        "(scope) => { const t = document.querySelector(scope + ' .tartli-table .tartli-message');"
        " return t && t.innerText.trim().length > 0; }",
        arg=scope,
        timeout=120_000,
    )
    shown: dict[str, Any] = page.evaluate(TEXTS_JS, scope)
    return shown


def _same_position(shown: dict[str, Any], table: TableController) -> None:
    seat = table.human
    assert sorted(shown["hand"]) == sorted(c.text for c in table.state.hand(seat))  # the hand
    texts = _texts(table.board.svg)
    assert Counter(shown["texts"]) == Counter(texts)  # the trick, the piles, the scores panel: every word
    for p in (0, 1):  # the scores, said outright ("You: 123", "Te: 123")
        assert any(t.endswith(f": {table.state.totals[p]}") for t in shown["texts"])


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_table_opens_a_link_at_its_move(app_server: Server, context: Any, lang: str) -> None:
    query = share_query(Record.load(RECORD), move=21, seat=1) + ("&lang=hu" if lang == "hu" else "")
    table = _expected(query, lang)
    page, watch = _open(context, app_server.url("table.ipynb?" + query))
    shown = _shown(page)
    _same_position(shown, table)
    assert shown["message"].strip() == table.messages[-1]
    assert_no_error_output(page)
    if lang == "en":
        # The Share button's link (read from its field: the clipboard may ask first) opens the same position.
        button = page.get_by_role("button", name="Share", exact=True)
        box = button.bounding_box()
        assert box is not None and box["height"] >= 28
        button.click()
        field = page.get_by_role("textbox", name="Link to this position")
        field.wait_for(state="visible")
        link = field.input_value()
        assert link.startswith(app_server.url("table.ipynb?")) and "record=" in link and "move=21" in link
        assert "as=1" in link
        again, _ = _open(context, link)
        _same_position(_shown(again), table)
    watch.assert_clean()


def test_the_share_button_on_a_phone(app_server: Server, chromium: Any) -> None:
    phone = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page, watch = _open(phone, app_server.url("table.ipynb"))
        button = page.get_by_role("button", name="Share", exact=True)
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44  # as every button on a phone
        button.tap()
        field = page.get_by_role("textbox", name="Link to this position")
        field.wait_for(state="visible")
        assert "record=" in field.input_value()
        field_box = field.bounding_box()
        assert field_box is not None and field_box["height"] >= 44 and field_box["x"] + field_box["width"] <= 390
        watch.assert_clean()
    finally:
        phone.close()


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_lab_opens_a_link_with_its_table(app_server: Server, context: Any, lang: str) -> None:
    query = share_query(Record.load(RECORD), move=30) + ("&lang=hu" if lang == "hu" else "")
    table = _expected(query, lang, lab=True)
    page, watch = _open(context, app_server.url("13_scenario_lab.ipynb?" + query))
    heading = "A linkedben küldött helyzet" if lang == "hu" else "The position from your link"
    page.get_by_role("heading", name=heading).wait_for(state="visible", timeout=120_000)
    _same_position(_shown(page, ".tartli-lab"), table)
    assert page.get_by_role("button", name="Megosztás" if lang == "hu" else "Share").count() >= 2  # lab, table
    assert_no_error_output(page)
    watch.assert_clean()


def _code_of(data: Any) -> str:
    return base64.urlsafe_b64encode(zlib.compress(json.dumps(data).encode())).decode().rstrip("=")


def _illegal() -> str:
    data = Record.load(RECORD).to_dict()
    data["moves"][1] = data["moves"][0].replace("0:", "1:", 1)  # a card the other player does not hold
    return _code_of(data)


@pytest.mark.parametrize(
    ("page_file", "code", "words"),
    [
        ("table.ipynb", "garbled-link", "damaged or cut short"),
        ("table.ipynb", _illegal(), "move 1"),
        ("13_scenario_lab.ipynb", "A" * 5000, "too long"),
    ],
    ids=["garbled", "illegal", "oversized"],
)
def test_a_bad_link_says_why_and_the_page_plays(
    app_server: Server, context: Any, page_file: str, code: str, words: str
) -> None:
    page, watch = _open(context, app_server.url(f"{page_file}?record={code}"))
    message = page.locator(".tartli-message, .tartli-lab").filter(has_text="This link cannot be opened").first
    message.wait_for(state="visible", timeout=120_000)
    assert words in message.inner_text() and "fresh deal" in message.inner_text()
    assert_no_error_output(page)
    if page_file == "table.ipynb":
        shown = _shown(page)
        assert len(shown["hand"]) == 9  # a fresh deal, whole
        page.locator(".tartli-table .tartli-board [data-pick]").first.click()  # it plays (or a rule says why)
        page.wait_for_function(
            "() => !document.querySelector('.tartli-table .tartli-message').innerText.includes('This link')",
            timeout=60_000,
        )
    else:
        assert page.locator(".tartli-lab .tartli-board [data-pick]").count() == 32  # the lab's fresh deal
    watch.assert_clean()


# ---------------------------------------------------------------- progress that moves

SCHOOL = {
    "tartli.trainers.lesson02.which-card-wins": {"lesson02.which-card-wins": {"best": 3, "stages": 2, "solved": 11}},
    "tartli.trainers.lesson05.find-melds": {"lesson05.find-melds": {"best": 1, "stages": 1, "solved": 5}},
}
PHONE = {
    "tartli.trainers.lesson05.find-melds": {"lesson05.find-melds": {"best": 2, "stages": 1, "solved": 6}},
    "tartli.trainers.lesson01.name-the-card": {"lesson01.name-the-card": {"best": 1, "stages": 1, "solved": 5}},
}


def _browser_with(chromium: Any, kept: dict[str, Any]) -> Any:
    """A browser context whose localStorage holds ``kept`` when the first page opens."""
    made = chromium.new_context(viewport={"width": 1280, "height": 900})
    items = {k: json.dumps(v) for k, v in kept.items()}
    made.add_init_script(
        "if (!sessionStorage.getItem('tartli-test-seeded')) { sessionStorage.setItem('tartli-test-seeded', '1');"
        f" for (const [k, v] of Object.entries({json.dumps(items)})) localStorage.setItem(k, v); }}"
    )
    return made


def _total(page: Any) -> str:
    total = page.locator(".tartli-total")
    total.wait_for(state="visible", timeout=120_000)
    return str(total.inner_text())


def test_progress_copied_in_one_browser_loads_in_another(app_server: Server, chromium: Any) -> None:
    school, phone = _browser_with(chromium, SCHOOL), _browser_with(chromium, PHONE)
    try:
        page, watch = _open(school, app_server.url("00_index.ipynb"))
        assert "Stars so far: 4 of" in _total(page)
        page.get_by_role("button", name="Copy my progress").click()
        field = page.get_by_role("textbox", name="Progress code")
        page.wait_for_function(
            "() => (document.querySelector('.tartli-progress-field') || {}).value?.startsWith('P1')", timeout=60_000
        )
        code = field.input_value()
        assert len(code) < 200
        watch.assert_clean()

        other, watch = _open(phone, app_server.url("00_index.ipynb"))
        assert "Stars so far: 3 of" in _total(other)  # 2 + 1 on the phone
        box = other.get_by_role("textbox", name="Progress code")
        box.fill("P1garbled" + code[9:20])
        other.get_by_role("button", name="Load progress").click()
        said = other.locator(".tartli-progress-said")
        said.filter(has_text="not a progress code").wait_for(timeout=60_000)
        assert "Stars so far: 3 of" in _total(other)  # refused: nothing changed
        box.fill(code)
        other.get_by_role("button", name="Load progress").click()
        said.filter(has_text="Progress loaded").wait_for(timeout=60_000)
        assert "Stars so far: 6 of" in _total(other)  # 3 + 2 (the phone's better melds) + 1: the best of each
        kept = other.evaluate("() => JSON.parse(localStorage.getItem('tartli.trainers.lesson05.find-melds'))")
        assert kept["lesson05.find-melds"]["best"] == 2 and kept["lesson05.find-melds"]["solved"] == 6
        for name in ("Copy my progress", "Load progress"):
            box = other.get_by_role("button", name=name).bounding_box()
            assert box is not None and box["height"] >= 44
        watch.assert_clean()
    finally:
        school.close()
        phone.close()


# ---------------------------------------------------------------- the rule book on paper

PRINTED_JS = """() => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const controls = Array.from(document.querySelectorAll('button, input, select, .jupyter-button, .tartli-languages a'));
  const book = document.querySelector('.tartli-rulebook');
  const quick = document.querySelector('.tartli-quickref');
  return {
    text: document.body.innerText,
    controls: controls.filter(shown).map((el) => el.outerHTML.slice(0, 80)),
    pictures: book ? Array.from(book.querySelectorAll('.tartli-example svg')).filter(shown).length : -1,
    allPictures: book ? book.querySelectorAll('.tartli-example svg').length : -1,
    book: !!book && shown(book),
    quick: !!quick && shown(quick),
  };
}"""


@pytest.mark.parametrize("lang", ["en", "hu", "de"])
def test_the_rule_book_and_the_quick_reference_print(app_server: Server, context: Any, lang: str) -> None:
    from tartli.rulebook import SECTIONS, rule_ids

    url = app_server.url("rules.ipynb" + ("" if lang == "en" else f"?lang={lang}"))
    page, watch = _open(context, url)
    page.locator(".tartli-rulebook").wait_for(state="visible", timeout=120_000)
    buttons = page.locator(".tartli-print button")
    assert buttons.count() == 2
    words = [buttons.nth(i).inner_text() for i in range(2)]
    page.emulate_media(media="print")
    printed = page.evaluate(PRINTED_JS)
    assert printed["controls"] == [], printed["controls"]
    assert printed["book"] and not printed["quick"]
    for word in words:  # no button's words on paper
        assert word not in printed["text"]
    for rule_id in rule_ids():  # every rule, headed by its ID
        assert f"{rule_id} · " in printed["text"], rule_id
    assert printed["pictures"] == printed["allPictures"] > 10  # the card pictures kept
    assert pdf_pages(page.pdf(format="A4")) >= len(SECTIONS)  # a page break before each part

    page.evaluate("() => document.body.classList.add('tartli-print-quick')")  # what its button does before print()
    quick = page.evaluate(PRINTED_JS)
    assert quick["quick"] and not quick["book"] and quick["controls"] == []
    for rule_id in ("C3", "C4", "M1", "M2", "K2", "S1", "S4"):
        assert rule_id in quick["text"]
    assert pdf_pages(page.pdf(format="A4")) == 1  # one sheet
    page.emulate_media(media="screen")
    assert_no_error_output(page)
    watch.assert_clean()


# ---------------------------------------------------------------- the static edition


@pytest.fixture(scope="module")
def share_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The static edition built from this checkout (tests/browser/test_static.py's way; with its
    downloads kept in .site-cache a build takes about 30 s), served on 127.0.0.1."""
    from tartli import site

    from .test_static import CACHE

    out = tmp_path_factory.mktemp("static") / "site"
    try:
        site.build(out, CACHE)
    except site.BuildError as err:
        pytest.fail(f"the static site did not build: {err}", pytrace=False)
    server, base = site.serve_in_thread(out, requested=[])
    try:
        yield base
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(("page_file", "lang"), [("table", "en"), ("13_scenario_lab", "hu")])
def test_the_static_edition_opens_a_link(share_site: str, context: Any, page_file: str, lang: str) -> None:
    """The static edition's kernel runs in the browser without the address: the page's Share button
    sends it, and the position appears (the same as the engine's at that move)."""
    from .test_static import PAGE_TIMEOUT

    query = share_query(Record.load(RECORD), move=21 if page_file == "table" else 30, seat=1)
    lab = page_file != "table"
    table = _expected(query, lang, lab=lab)
    suffix = "" if lang == "en" else f".{lang}"
    page = context.new_page()
    watch = Watch()
    watch.attach(page)
    page.goto(f"{share_site}voici/render/{page_file}{suffix}.html?{query}", wait_until="load")
    page.locator("#loading").wait_for(state="hidden", timeout=PAGE_TIMEOUT)
    shown = _shown(page, ".tartli-lab" if lab else "")
    _same_position(shown, table)
    assert shown["message"].strip() == table.messages[-1]
    assert_no_error_output(page)
    watch.assert_clean()
