"""The language a page opens in at the short address (``/``, ``.../00_index.ipynb`` without ``?lang``),
through the real server: the address's ``?lang=``, else the learner's own switch (the ``tartli_lang``
cookie), else the class language (``tartli course --language hu``), else the browser's language
(``Accept-Language``), else English. Plain HTTP: the page's address says its language (its kernel reads
``?lang``), and the page Voilà sends has its cells' outputs in it; one Chromium check for what only the
browser decides (a language the server chose is not remembered as the learner's choice).
"""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tartli.i18n import catalog
from tests.browser.conftest import Server, log_tail, start_server, stop_server, wait_for_cells

pytestmark = pytest.mark.browser

ONLY_THE_INDEX_POOLED = (
    "--VoilaKernelManager.preheat_denylist=.*/(0[1-9]|1[0-9])_[^/]*\\.ipynb$",
    "--VoilaKernelManager.preheat_denylist=.*/(practice|rules|table)\\.ipynb$",
    "--TartliVoila.connect_grace=30",
)
"""One pool, the index's, and the kernels of pages that never connect (these requests) shut down soon:
enough for what is tested here, and light on a 2-core machine."""
INDEX = "/voila/render/00_index.ipynb"
HEADING = "## How the course works"
"""The start of one of the index's texts (its English words are the catalogs' message id)."""


def heading(lang: str) -> str:
    """The index's heading "How the course works" in ``lang``, as the page's outputs carry it (JSON)."""
    translations = catalog(lang)
    texts = getattr(translations, "_catalog", {})  # (the English "catalog" has none: its ids are the text)
    message = next((m for m in texts if isinstance(m, str) and m.startswith(HEADING)), HEADING)
    first_line = translations.gettext(message).splitlines()[0].removeprefix("## ")
    return json.dumps(first_line)[1:-1]


def visit(
    server: Server, path: str, headers: dict[str, str] | None = None, cookies: dict[str, str] | None = None
) -> tuple[str, str]:
    """Open ``path`` as a new browser does (following redirects, keeping the cookies the server sets):
    the address it ends at and the page."""
    jar = dict(cookies or {})
    for _ in range(8):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
        sent = dict(headers or {})
        if jar:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in jar.items())
        connection.request("GET", path, headers=sent)
        response = connection.getresponse()
        body = response.read().decode("utf-8", errors="replace")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                jar[key] = rest.split(";", 1)[0]
        connection.close()
        if response.status not in (301, 302, 303, 307):
            assert response.status == 200, (path, response.status, body[:300])
            return path, body
        path = response.getheader("Location") or path
    raise AssertionError(f"more than 8 redirects, the last to {path}")


def language_of(address: str, page: str) -> str:
    """The language of a page: its address's ``lang`` (what its kernel reads; English without one),
    checked against the words of its outputs."""
    lang = parse_qs(urlsplit(address).query).get("lang", ["en"])[0]
    for other in ("en", "hu", "de"):
        shown = heading(other) in page
        assert shown == (other == lang), f"{address}: the {other} heading is {'shown' if shown else 'missing'}"
    return lang


def printed_address(server: Server) -> str:
    found = re.search(r"Tartli course: open (\S+)", server.log_path.read_text(errors="replace"))
    assert found, log_tail(server.log_path)
    return found.group(1)


@pytest.fixture(scope="module")
def hungarian_class(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``tartli course --language hu``."""
    server = start_server(
        tmp_path_factory.mktemp("hu") / "voila.log", extra=(*ONLY_THE_INDEX_POOLED, "--TartliVoila.language=hu")
    )
    yield server
    stop_server(server)


@pytest.fixture(scope="module")
def no_class_language(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``tartli course`` (no ``--language``)."""
    server = start_server(tmp_path_factory.mktemp("plain") / "voila.log", extra=ONLY_THE_INDEX_POOLED)
    yield server
    stop_server(server)


@pytest.mark.parametrize(
    ("path", "browser_language"),
    [("/", None), (INDEX, None), (INDEX, "hu-HU,hu;q=0.9,en;q=0.8"), ("/", "de-AT,de;q=0.9"), (INDEX, "en-US,en")],
)
def test_a_class_language_is_the_short_addresss_language(
    hungarian_class: Server, path: str, browser_language: str | None
) -> None:
    """``--language hu``: a new browser (no cookie) that types the short address gets the page in
    Hungarian, whatever its own language, from the pool prepared in Hungarian."""
    headers = {"Accept-Language": browser_language} if browser_language else {}
    address, page = visit(hungarian_class, path, headers)
    assert language_of(address, page) == "hu"
    log = hungarian_class.log_path.read_text(errors="replace")
    assert re.search(r"Using pre-heated kernel: \S+ for 00_index\.ipynb", log), log_tail(hungarian_class.log_path)


def test_the_address_printed_for_a_class_is_the_short_one(hungarian_class: Server) -> None:
    """The address a teacher writes on the board opens the class language by itself; a ``?lang=hu`` in it
    would override a learner's own switch."""
    assert printed_address(hungarian_class) == f"http://127.0.0.1:{hungarian_class.port}{INDEX}"


@pytest.mark.parametrize(("chosen", "expected"), [("en", "en"), ("de", "de"), ("hu", "hu"), ("xx", "hu")])
def test_the_learners_own_choice_beats_the_class_language(hungarian_class: Server, chosen: str, expected: str) -> None:
    """A learner who chose a language with the switch (the ``tartli_lang`` cookie) keeps it under
    ``--language hu``; an unknown value counts as no choice."""
    address, page = visit(hungarian_class, INDEX, {"Accept-Language": "hu"}, {"tartli_lang": chosen})
    assert language_of(address, page) == expected


def test_the_address_beats_everything(hungarian_class: Server) -> None:
    address, page = visit(hungarian_class, INDEX + "?lang=en", {"Accept-Language": "de"}, {"tartli_lang": "de"})
    assert language_of(address, page) == "en"


@pytest.mark.parametrize(
    ("path", "browser_language", "expected"),
    [
        ("/", "de-AT,de;q=0.9", "de"),
        (INDEX, "de-AT,de;q=0.9", "de"),
        (INDEX, "hu", "hu"),
        (INDEX, "fr-FR,fr;q=0.9,de;q=0.5,hu;q=0.7", "hu"),
        ("/", "en-US,en;q=0.9,hu;q=0.8", "en"),
        (INDEX, "fr-FR,fr;q=0.9", "en"),
        (INDEX, None, "en"),
    ],
)
def test_without_a_class_language_the_browsers_language_is_the_guess(
    no_class_language: Server, path: str, browser_language: str | None, expected: str
) -> None:
    """No ``--language`` (not the same as ``--language en``): a new browser gets its own language
    (``Accept-Language``, the highest q the course speaks), else English."""
    headers = {"Accept-Language": browser_language} if browser_language else {}
    address, page = visit(no_class_language, path, headers)
    assert language_of(address, page) == expected


def test_without_a_class_language_the_learners_choice_beats_the_browsers(no_class_language: Server) -> None:
    address, page = visit(no_class_language, INDEX, {"Accept-Language": "de-AT,de;q=0.9"}, {"tartli_lang": "en"})
    assert language_of(address, page) == "en"
    assert printed_address(no_class_language) == f"http://127.0.0.1:{no_class_language.port}{INDEX}"


def test_a_language_the_server_chose_is_not_the_learners_choice(hungarian_class: Server, chromium: Any) -> None:
    """In Chromium: the class's Hungarian is not remembered as the learner's own choice (a browser in
    the school's room keeps no language from the last class); the switch's choice is, and beats the
    class language at the short address."""
    context = chromium.new_context(locale="de-DE")
    try:
        page = context.new_page()
        page.goto(hungarian_class.url("00_index.ipynb"), wait_until="load")
        wait_for_cells(page)
        assert page.evaluate("document.documentElement.lang") == "hu"
        assert "lang=hu" in page.url
        remembered = page.evaluate("[document.cookie, window.localStorage.getItem('tartli-language')]")
        assert "tartli_lang=" not in remembered[0] and remembered[1] is None, remembered
        page.locator(".tartli-languages a[data-lang='en']").click()
        page.wait_for_url(re.compile(r"00_index\.ipynb$"))
        wait_for_cells(page)
        page.goto(hungarian_class.base_url + "/", wait_until="load")
        wait_for_cells(page)
        assert page.evaluate("document.documentElement.lang") == "en"
        assert "lang=" not in page.url
    finally:
        context.close()
