"""The course in Hungarian and German in a real browser: every page with ``?lang=hu`` and with
``?lang=de`` (every step of every lesson) reads Hungarian or German, the widgets answer, the choice is
remembered for the next page, and the EN | HU | DE switch on every page changes it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tartli.course import PAGES
from tests.helpers import MOST_ENGLISH, english_share

from .conftest import PAGE_TIMEOUT_MS, Server, assert_no_error_output, leave, wait_for_cells
from .test_app import play, table_state


def open_in(context: Any, server: Server, file: str, lang: str | None) -> Any:
    page = context.new_page()
    page.set_default_timeout(30_000)
    url = server.url(file) + (f"?lang={lang}" if lang else "")
    page.goto(url, wait_until="commit")  # (the page may go on to its address in the chosen language)
    if lang is None:
        page.wait_for_timeout(500)
    page.wait_for_load_state("load", timeout=PAGE_TIMEOUT_MS)
    wait_for_cells(page)
    page.wait_for_load_state("networkidle", timeout=PAGE_TIMEOUT_MS)
    return page


def all_steps_text(page: Any) -> str:
    """The page's visible text; on a lesson, every step's, walked through by its address (a kernel round trip each)."""
    texts = [page.locator("#rendered_cells").inner_text()]
    dots = page.locator(".tartli-steps .tartli-dots button")
    if page.locator(".tartli-steps").count() == 0:
        return texts[0]
    page.locator(".tartli-steps .tartli-where").wait_for()
    count = dots.count()
    assert count > 3
    where = "document.querySelector('.tartli-steps .tartli-where').textContent"
    for number in range(2, count + 1):
        before = page.evaluate(where)
        page.evaluate(f"location.hash = '#step-{number}'")
        page.wait_for_function(f"before => {where} !== before", arg=before)
        page.wait_for_timeout(150)
        texts.append(page.locator("#rendered_cells").inner_text())
    return "\n".join(texts)


def assert_reads(text: str, where: str) -> None:
    share, words = english_share(text)
    print(f"{where}: {share:.1%} common English words in {len(text.split())} words")  # shown with pytest -s
    assert share <= MOST_ENGLISH, f"{where}: {share:.1%} common English words ({', '.join(words)})"


NUMBERED_PLAYER = re.compile(r"(Játékos|Spieler|Player)\s*:?\s*[01]\b|játékos:\s*[01]\b")
"""A person called by a number on a page ("Játékos 0", "(játékos: 0)", "Spieler 1")."""
LANGUAGE_WORDS = {"hu": {"a", "az", "és", "te"}, "de": {"du", "die", "und", "der"}}


def check_every_page_reads(chromium: Any, app_server: Server, file: str, lang: str) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = open_in(context, app_server, file, lang)
        assert page.evaluate("document.documentElement.lang") == lang
        assert_no_error_output(page)
        text = all_steps_text(page)
        assert_reads(text, f"{file} ({lang})")
        assert not NUMBERED_PLAYER.search(text), NUMBERED_PLAYER.search(text)
        words = {w.lower() for w in re.findall(r"[^\W\d_]+", text)}
        assert LANGUAGE_WORDS[lang] & words, f"{lang} words expected"
        if file == "00_index.ipynb":  # the course map's links keep the language
            links = "#rendered_cells .jp-OutputArea a[href*='.ipynb']"  # the map and lesson links, not EN/HU/DE
            hrefs = page.eval_on_selector_all(links, "a => a.map(x => x.href)")
            assert hrefs and all(f"lang={lang}" in h for h in hrefs)
    finally:
        leave(context)


@pytest.mark.parametrize("file", [page.file for page in PAGES])
def test_every_page_reads_hungarian(chromium: Any, app_server: Server, file: str) -> None:
    check_every_page_reads(chromium, app_server, file, "hu")


@pytest.mark.parametrize("file", [page.file for page in PAGES])
def test_every_page_reads_german(chromium: Any, app_server: Server, file: str) -> None:
    """As in Hungarian: every page, every step of every lesson, at most 3% common English words."""
    check_every_page_reads(chromium, app_server, file, "de")


def test_the_next_page_opened_without_lang_is_still_hungarian(chromium: Any, app_server: Server) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        open_in(context, app_server, "01_pack.ipynb", "hu").close()
        page = open_in(context, app_server, "table.ipynb", None)  # the server sees the switch's cookie
        assert "lang=hu" in page.url
        assert_reads(page.locator("#rendered_cells").inner_text(), "table.ipynb (after the cookie)")
        # the table works in Hungarian: a card played leaves the hand, and the table says so in Hungarian
        page.locator(".tartli-board svg").first.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
        page.wait_for_function("() => document.querySelector('.tartli-board [data-pick] svg.playable') !== null")
        after = play(page, table_state(page).hand[0])
        assert_reads(after.message + "\n" + page.locator("#rendered_cells").inner_text(), "table after a card")
        context.clear_cookies()  # without the cookie, the page's own script (localStorage) sends it on
        page.close()
        page = open_in(context, app_server, "02_ranks_and_points.ipynb", None)
        page.wait_for_url(re.compile(r"lang=hu"), wait_until="commit")
        wait_for_cells(page)
        assert_reads(page.locator("#rendered_cells").inner_text(), "02 (after localStorage)")
    finally:
        leave(context)


def test_the_switch_on_every_page_changes_the_language(chromium: Any, app_server: Server) -> None:
    context = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = open_in(context, app_server, "01_pack.ipynb", None)
        switch = page.locator("nav.tartli-languages")
        assert switch.is_visible()
        assert switch.inner_text().split() == ["EN", "|", "HU", "|", "DE"]
        page.locator(".tartli-steps").wait_for(timeout=PAGE_TIMEOUT_MS)  # (a loaded machine: slow)
        english = page.locator(".tartli-steps").inner_text()
        switch.get_by_text("HU").click()
        page.wait_for_url(re.compile(r"lang=hu"), wait_until="commit")
        page.locator(".tartli-steps").wait_for(timeout=PAGE_TIMEOUT_MS)
        assert page.evaluate("localStorage.getItem('tartli-language')") == "hu"
        assert page.locator(".tartli-steps").inner_text() != english
        assert_reads(page.locator("#rendered_cells").inner_text(), "01 after HU")
        page.locator("nav.tartli-languages").get_by_text("EN").click()
        page.wait_for_url(lambda url: "lang=hu" not in url, wait_until="commit")
        page.locator(".tartli-steps").wait_for(timeout=PAGE_TIMEOUT_MS)
        assert page.evaluate("localStorage.getItem('tartli-language')") == "en"
        page.close()
        page = open_in(context, app_server, "03_deal.ipynb", None)
        assert "lang=" not in page.url
        page.locator(".tartli-steps .tartli-step-text").first.wait_for(timeout=PAGE_TIMEOUT_MS)
        share, _words = english_share(page.locator("#rendered_cells").inner_text())
        assert share > 0.08  # English again
    finally:
        leave(context)


SPINNER_WORDS = """() => {
  window.__spinner = [];
  const seen = () => {
    const text = document.getElementById("loading_text");
    if (text && getComputedStyle(text).visibility !== "hidden"
        && window.__spinner[window.__spinner.length - 1] !== text.textContent) {
      window.__spinner.push(text.textContent);
    }
  };
  new MutationObserver(seen).observe(document, {childList: true, subtree: true, characterData: true});
}"""


@pytest.mark.parametrize(("lang", "words"), [("hu", "Az oldal előkészítése…"), ("de", "Die Seite wird vorbereitet …")])
def test_a_page_being_prepared_says_so_in_its_language(
    chromium: Any, app_server: Server, lang: str, words: str
) -> None:
    """A page that runs its notebook when asked (here every Hungarian and German page: the pools are English)
    shows a spinner while its cells run; what it shows is in the page's language, never Voilà's English and
    the notebook's file name ("Running 03_deal...", "Executing 3 of 12")."""
    context = chromium.new_context()
    try:
        context.add_init_script(script=f"({SPINNER_WORDS})()")
        page = open_in(context, app_server, "03_deal.ipynb", lang)
        said = page.evaluate("window.__spinner")
        assert said, "the spinner said nothing"
        assert all(text.startswith(words) for text in said), said
        assert any(re.search(r"\d", text) for text in said), said  # how far it is ("3/12", "3 von 12")
    finally:
        leave(context)
