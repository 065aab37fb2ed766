"""The static edition (``python -m tartli.site build``) in a real browser, offline.

The site is built once per session from this checkout (the build needs PyPI and npm;
its tools and downloads are kept in ``.site-cache/``), served from 127.0.0.1 by
``tartli.site``'s own static server, and opened in Debian's Chromium started with a
host-resolver rule that makes every name but 127.0.0.1 unresolvable: the page, its web
worker (the Pyodide kernel) and the service worker have no internet at all, so a
kernel that tried the Pyodide CDN, or a lesson that needed PyPI, would fail here.

Every page must execute all its cells in the browser's Python with no error, and the
things that only work with a live kernel are tried: a card played at the table, an
exercise answered whose stars are then read back by the course map.
"""

from __future__ import annotations

import contextlib
import gzip
import http.client
import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tartli import site
from tartli.course import PAGES, page_url
from tartli.site import compress
from tartli.widgets.trainers import NameTheCard

from .conftest import CHROMIUM_ARGS, Watch, assert_no_error_output, browser_session, chromium_path
from .test_access import audit

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".site-cache"
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
"""Chromium resolves no host name but 127.0.0.1: the network beyond this machine does not exist."""

PAGE_TIMEOUT = 120_000
"""Milliseconds a page gets to start its kernel and run all its cells (about 10 s here)."""


def html_name(file: str) -> str:
    return file.removesuffix(".ipynb") + ".html"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built from this checkout (or, to save the build while working on the tests, the one
    built already in the folder ``TARTLI_BUILT_SITE`` names: the tests then check that site, not this
    checkout's code)."""
    given = os.environ.get("TARTLI_BUILT_SITE")
    if given:
        return Path(given).resolve()
    out = tmp_path_factory.mktemp("static") / "site"
    try:
        site.build(out, CACHE)
    except site.BuildError as err:
        pytest.fail(f"the static site did not build: {err}", pytrace=False)
    return out


@pytest.fixture(scope="session")
def requested() -> list[str]:
    """Every path the site's server was asked for, in order."""
    return []


@pytest.fixture(scope="session")
def static_site(built_site: Path, requested: list[str]) -> Iterator[str]:
    """The built site served on a free port of 127.0.0.1; its base URL."""
    server, base = site.serve_in_thread(built_site, requested=requested)
    try:
        yield base
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def offline_chromium(playwright_driver: Any) -> Iterator[Any]:
    """Debian's Chromium with no name resolution beyond 127.0.0.1."""
    yield from browser_session(playwright_driver, OFFLINE)


@pytest.fixture
def context(offline_chromium: Any) -> Iterator[Any]:
    """A fresh browser context: an empty cache and an empty localStorage."""
    ctx = offline_chromium.new_context()
    try:
        yield ctx
    finally:
        with contextlib.suppress(Exception):
            ctx.close()


def open_static(context: Any, base: str, file: str) -> tuple[Any, Watch]:
    """Open a page of the static site and wait until all its cells have run."""
    page = context.new_page()
    page.set_default_timeout(30_000)
    watch = Watch()
    watch.attach(page)
    response = page.goto(base + "voici/render/" + html_name(file), wait_until="load")
    assert response is not None and response.status == 200
    page.locator("#loading").wait_for(state="hidden", timeout=PAGE_TIMEOUT)
    return page, watch


def test_the_start_page_opens_the_lesson_index(static_site: str, context: Any) -> None:
    page = context.new_page()
    page.goto(static_site, wait_until="load")
    page.wait_for_url("**/voici/render/00_index.html", timeout=30_000)


FIRST_H1 = """() => { const h = document.querySelector('#loading .tartli-first-screen h1, #rendered_cells h1');
  const r = h.getBoundingClientRect(); return {text: h.innerText, x: r.x, y: r.y}; }"""


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize(
    ("file", "lang", "title"), [("00_index.ipynb", "en", "Tartli"), ("01_pack.ipynb", "hu", "A pakli")]
)
def test_a_page_shows_its_own_words_before_its_python_has_started(
    static_site: str, offline_chromium: Any, file: str, lang: str, title: str, width: int
) -> None:
    """Before a page's Python has started (on a phone's first visit, ten seconds and more) the page shows its
    own words in its language, not a spinner: its title (the index: its opening words and every page's link)
    and the language switch; its cells then replace them where they were (the index's title in the same
    place). Held back here by never letting the page's own script come. The first screen passes axe-core too."""
    address = static_site + "voici/render/" + page_url(next(p for p in PAGES if p.file == file), static=True, lang=lang)
    context = offline_chromium.new_context(viewport={"width": width, "height": 844})
    try:
        page = context.new_page()
        page.route(re.compile(r"/voici/build/voici\.js$"), lambda route: route.abort())
        page.goto(address, wait_until="load")
        first = page.locator("#loading .tartli-first-screen")
        first.wait_for(state="visible", timeout=10_000)
        before = page.evaluate(FIRST_H1)
        assert before["text"] == title
        assert page.locator("#loading .tartli-first-status").is_visible()
        assert page.locator("#loading nav.tartli-languages a[aria-current='true']").inner_text() == lang.upper()
        audit(page, f"{file} {lang} {width} px, first screen")  # axe-core: no serious or critical finding
        if file == "00_index.ipynb":
            links = page.locator("#loading .tartli-first-map a")
            assert links.count() == len(PAGES) - 1
            assert links.first.get_attribute("href") == page_url(PAGES[1], static=True, lang=lang)
        page.unroute(re.compile(r"/voici/build/voici\.js$"))
        page.goto(address, wait_until="load")
        page.locator("#loading").wait_for(state="hidden", timeout=PAGE_TIMEOUT)
        assert page.locator(".tartli-first-screen").count() == 0
        assert page.locator("nav.tartli-languages").count() == 1  # the copy went with the first screen
        if file == "00_index.ipynb":
            after = page.evaluate(FIRST_H1)
            assert after["text"] == title
            assert abs(after["x"] - before["x"]) <= 2 and abs(after["y"] - before["y"]) <= 2, (before, after)
    finally:
        context.close()


@pytest.mark.parametrize("file", [page.file for page in PAGES])
def test_every_page_runs_in_the_browser_with_no_errors(static_site: str, context: Any, file: str) -> None:
    page, watch = open_static(context, static_site, file)
    # Something from Python reached the page: every page ends with its navigation or a recap.
    assert page.locator(".tartli-nav, .jupyter-widgets").count() > 0
    if file == PAGES[0].file:
        links = page.locator(".tartli-map a")
        links.first.wait_for(state="visible")
        assert links.count() == len(PAGES) - 1
        for link, later in zip(links.all(), PAGES[1:], strict=True):
            assert link.get_attribute("href") == page_url(later, static=True)
    if file == "table.ipynb":
        page.locator(".tartli-board svg").first.wait_for(state="visible")
        assert page.locator(".tartli-board [data-pick]").count() == 9
    page.wait_for_timeout(1_000)  # late errors still count
    assert_no_error_output(page)
    watch.assert_clean()


def test_a_card_is_played_against_the_computer_in_the_browser(static_site: str, context: Any) -> None:
    page, watch = open_static(context, static_site, "table.ipynb")
    page.locator(".tartli-board svg.playable").first.wait_for(state="visible")
    picks = page.locator(".tartli-board [data-pick]")
    first = picks.first.get_attribute("data-pick")
    picks.first.click()
    page.wait_for_function(
        '(pick) => !document.querySelector(`.tartli-board [data-pick="${pick}"]`)', arg=first, timeout=15_000
    )
    # The computer answers (after its short delay) and the learner has a full hand again.
    page.wait_for_function("() => document.querySelectorAll('.tartli-board [data-pick]').length === 9", timeout=30_000)
    assert page.locator(".tartli-board [data-pick]").count() == 9
    # The finished trick stays on the table, with both cards and who won it.
    result = page.locator(".tartli-board .tartli-trick-result")
    result.wait_for(state="visible", timeout=15_000)
    assert " ".join((result.text_content() or "").split()).startswith("Trick 1: ")
    assert_no_error_output(page)
    watch.assert_clean()


def test_progress_is_kept_in_the_browser_and_shown_on_the_course_map(static_site: str, context: Any) -> None:
    exercise = NameTheCard(seed=2, progress_id="lesson01.name-the-card")  # the lesson's own exercise
    page, watch = open_static(context, static_site, "01_pack.ipynb")
    page.evaluate("location.hash = '#step-10'")  # the step of the exercise, by its address
    page.locator(".tartli-where", has_text="Step 10 of").wait_for()
    for _ in range(5):  # a stage: five positions right at the first try, for three stars
        page.get_by_role("button", name=exercise.card_name(exercise.card), exact=True).click()
        page.locator(".tartli-feedback.right").wait_for()
        page.get_by_role("button", name="New position").click()
        page.locator(".tartli-feedback").wait_for(state="detached")
        exercise.new_position()
    page.wait_for_function(
        """() => {
          try {
            const data = JSON.parse(localStorage.getItem('tartli.trainers.lesson01.name-the-card'));
            return data['lesson01.name-the-card'].best === 3;
          } catch (e) { return false; }
        }""",
        timeout=15_000,
    )
    saved = json.loads(page.evaluate("() => localStorage.getItem('tartli.trainers.lesson01.name-the-card')"))
    assert saved["lesson01.name-the-card"]["best"] == 3
    watch.assert_clean()
    index, index_watch = open_static(context, static_site, PAGES[0].file)
    pack = index.locator(".tartli-map li").first
    pack.locator(".tartli-stars").wait_for(state="visible")
    assert pack.locator(".tartli-stars").inner_text() == "★ 3/3"
    index_watch.assert_clean()


SNAPSHOT_NAME = re.compile(r"snapshot(-files|-stdlib|-loader)?-[0-9a-f]{16}\.(bin|zip|js)")
"""The snapshot's files, their content's hash in their names."""


def test_pages_start_from_the_memory_snapshot(static_site: str, context: Any, requested: list[str]) -> None:
    """The kernel restores the snapshot, the site-packages archive and the trimmed standard library
    (brotli-compressed by the server, as Chromium asks for): no wheel, nor Pyodide's own zip, is fetched."""
    del requested[:]
    page, watch = open_static(context, static_site, "table.ipynb")
    page.locator(".tartli-board svg").first.wait_for(state="visible")
    names = [path.rsplit("/", 1)[-1] for path in requested]
    kinds = {match.group(1) for name in names if (match := SNAPSHOT_NAME.fullmatch(name))}
    assert kinds == {None, "-files", "-stdlib", "-loader"}, names
    assert not [name for name in names if name.endswith((".whl", ".gz", ".br"))], names
    assert "python_stdlib.zip" not in names
    watch.assert_clean()


@pytest.mark.parametrize("damage", ["missing", "changed"])
def test_without_the_snapshot_pages_start_from_the_wheels(
    built_site: Path, context: Any, tmp_path: Path, damage: str
) -> None:
    """A host that lost the snapshot file, or holds one that is not the build's (its SHA-256 differs
    from the one in the settings), still gets the course: the worker falls back to the wheels."""
    copy = tmp_path / "site"
    shutil.copytree(built_site, copy, copy_function=os.link)
    runtime = copy / "static" / "pyodide"
    (archive,) = runtime.glob("snapshot-files-*.bin")
    (snapshot,) = runtime.glob("snapshot-????????????????.bin")
    for path in [archive] if damage == "changed" else [archive, snapshot]:
        for version in (path, path.with_name(path.name + ".gz"), path.with_name(path.name + ".br")):
            version.unlink()  # hard links: unlink before writing, the built site stays as it is
    if damage == "changed":
        wrong = b"not the archive the build made"
        archive.write_bytes(wrong)
        archive.with_name(archive.name + ".gz").write_bytes(gzip.compress(wrong))
    asked: list[str] = []
    server, base = site.serve_in_thread(copy, requested=asked)
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(base + "voici/render/table.html", wait_until="load")
        page.locator("#loading").wait_for(state="hidden", timeout=PAGE_TIMEOUT)
        page.locator(".tartli-board [data-pick]").first.wait_for(state="visible")
        assert page.locator(".tartli-board [data-pick]").count() == 9
        assert_no_error_output(page)
    finally:
        server.shutdown()
        server.server_close()
    names = [path.rsplit("/", 1)[-1] for path in asked]
    assert snapshot.name in names or snapshot.name + ".gz" in names  # asked for, then not used
    assert any(name.startswith("tartli-") and name.endswith(".whl") for name in names)


FIRST_VISIT = 15 * 2**20
REPEAT_VISIT = 2**20


def test_a_first_visit_is_light_on_the_wire_and_a_repeat_visit_lighter(
    built_site: Path, playwright_driver: Any, tmp_path: Path
) -> None:
    """Through ``python -m tartli.site serve`` in Chromium with a profile of its own (a disk cache, as
    a learner's browser has): the index's first visit sends at most 15 MiB (32.5 MiB before the site
    was compressed), a repeat visit at most 1 MiB. Counted by the server: every byte of every
    response, headers included, the kernel's worker's too."""
    sent: list[int] = []
    server, base = site.serve_in_thread(built_site, sent=sent)
    context = playwright_driver.chromium.launch_persistent_context(
        tmp_path / "profile", executable_path=chromium_path(), headless=True, args=[*CHROMIUM_ARGS, OFFLINE]
    )
    try:
        visits = []
        for _ in range(2):
            sent.clear()
            page, watch = open_static(context, base, PAGES[0].file)
            page.locator(".tartli-map").first.wait_for(state="visible")
            page.wait_for_timeout(1_500)  # late requests still count
            watch.assert_clean()
            page.close()
            visits.append(sum(sent))
    finally:
        context.close()
        server.shutdown()
        server.server_close()
    first, repeat = visits
    print(f"\nthe index: {first / 2**20:.2f} MiB the first time, {repeat / 2**10:.0f} KiB the second")
    assert first <= FIRST_VISIT, f"{first:,} bytes"
    assert repeat <= REPEAT_VISIT, f"{repeat:,} bytes"


LARGE = 64 * 2**10
"""A file at least this large (bytes) is one whose copies matter on the wire."""


def test_every_large_file_of_the_build_has_its_compressed_copies(built_site: Path) -> None:
    """Every file the build could compress has a ``.gz`` and a ``.br`` copy unless gzip saves less than
    a tenth of it; the runtime and the snapshot, the bulk of a first visit, have both."""
    missing = []
    for path in compress.candidates(built_site):
        copies = [path.with_name(path.name + suffix).exists() for suffix in compress.ENCODINGS.values()]
        if all(copies):
            continue
        plain = path.read_bytes()
        if any(copies) or len(gzip.compress(plain, compresslevel=9)) <= len(plain) * (1 - compress.MIN_SAVING):
            missing.append(f"{path.relative_to(built_site)} ({len(plain):,} bytes)")
    assert not missing, missing
    runtime = built_site / "static" / "pyodide"
    big = [runtime / "pyodide.asm.wasm", runtime / "pyodide.asm.js", *runtime.glob("snapshot-*.bin")]
    assert len(big) == 4
    large = [p for p in compress.candidates(built_site) if p.stat().st_size >= LARGE]
    assert set(big) <= set(large)
    plain = [p.relative_to(built_site) for p in large if not p.with_name(p.name + ".br").exists()]
    assert not plain, f"large files sent as they are: {plain}"


def _ask(base: str, path: str, accept: str) -> tuple[dict[str, str], bytes]:
    host, port = base.removeprefix("http://").rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        connection.request("GET", path, headers={"Accept-Encoding": accept})
        response = connection.getresponse()
        assert response.status == 200, (path, response.status)
        return {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_the_static_server_sends_the_built_sites_copies_to_who_accepts_them(built_site: Path) -> None:
    """Plain HTTP, no browser: the runtime, the snapshot and a page come brotli-compressed to a client
    that accepts ``br``, gzip-compressed to one that accepts only ``gzip``, and as the file's own bytes
    to one that accepts neither."""
    runtime = built_site / "static" / "pyodide"
    (snapshot,) = runtime.glob("snapshot-????????????????.bin")
    files = [runtime / "pyodide.asm.wasm", snapshot, built_site / "voici" / "render" / "00_index.html"]
    server, base = site.serve_in_thread(built_site)
    try:
        for path in files:
            url = "/" + path.relative_to(built_site).as_posix()
            plain = path.read_bytes()
            for accept, coding in [("gzip, deflate, br, zstd", "br"), ("gzip, deflate", "gzip"), ("identity", None)]:
                headers, body = _ask(base, url, accept)
                assert headers.get("content-encoding") == coding, (url, accept)
                assert headers["vary"] == "Accept-Encoding"
                assert int(headers["content-length"]) == len(body)
                if coding is None:
                    assert body == plain
                else:
                    assert body == path.with_name(path.name + compress.ENCODINGS[coding]).read_bytes()
                    assert len(body) < len(plain) * (1 - compress.MIN_SAVING)
                if coding == "gzip":
                    assert gzip.decompress(body) == plain
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("accept", [None, "identity"])
def test_a_page_opens_offline_after_one_visit(built_site: Path, offline_chromium: Any, accept: str | None) -> None:
    """After one visit of the index, the service worker's cache holds what the page needs (the page
    itself, fetched before the worker took over, included): with the browser offline the index opens
    again, its kernel starts from the snapshot and its cells run, and nothing reaches the server but
    the browser's check for a new service worker. Also from a host that compresses nothing (``accept``
    identity: the snapshot's loader fetched the ``.gz`` copies, as from GitHub Pages). The one failed
    request is JupyterLite's listing of its drive, ``api/contents/all.json``, which the service worker
    never keeps and the page does not need."""
    asked: list[str] = []
    server, base = site.serve_in_thread(built_site, requested=asked)
    context = offline_chromium.new_context(**({"extra_http_headers": {"Accept-Encoding": accept}} if accept else {}))
    try:
        page, watch = open_static(context, base, PAGES[0].file)
        page.locator(".tartli-map").first.wait_for(state="visible")
        if accept == "identity":
            assert any(path.endswith(".bin.gz") for path in asked), asked
        needed = {"/voici/render/00_index.html", "/voici/build/voici.js", "/static/pyodide/pyodide.asm.wasm"}
        for _ in range(60):  # the page's own files are asked for again once the worker has taken over
            kept = page.evaluate(
                "async () => (await (await caches.open('precache')).keys()).map(r => new URL(r.url).pathname)"
            )
            if needed <= set(kept):
                break
            page.wait_for_timeout(500)
        assert needed <= set(kept), sorted(needed - set(kept))
        watch.assert_clean()
        page.close()
        context.set_offline(True)
        del asked[:]
        page, watch = open_static(context, base, PAGES[0].file)
        page.locator(".tartli-map").first.wait_for(state="visible")
        assert_no_error_output(page)
        page.wait_for_timeout(1_000)
        watch.console_errors = [e for e in watch.console_errors if "/api/contents/all.json" not in e]
        watch.assert_clean()
        assert [path for path in asked if not path.startswith("/service-worker.js")] == []
    finally:
        context.close()
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("file", ["06_meld_contest.ipynb", "table.ipynb"])
def test_the_static_edition_fits_a_phone(static_site: str, offline_chromium: Any, file: str) -> None:
    from .test_phone import check

    context = offline_chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page, watch = open_static(context, static_site, file)
        if file == "table.ipynb":
            page.locator(".tartli-board svg.narrow").first.wait_for(state="visible")  # the upright table
        else:
            page.locator(".tartli-where", has_text="Step 1 of").wait_for()
            page.evaluate("location.hash = '#step-10'")  # the step with the live table
            page.locator(".tartli-where", has_text="Step 10 of").wait_for()
        page.wait_for_timeout(1_000)
        check(page, f"static {file}")
        watch.assert_clean()
    finally:
        context.close()


def test_the_static_edition_speaks_hungarian_and_remembers_it(static_site: str, context: Any) -> None:
    """``?lang=hu`` opens the page's Hungarian copy (NN.hu.html); the next page follows the choice."""
    from .test_languages import assert_reads

    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(static_site + "voici/render/03_deal.html?lang=hu", wait_until="load")
    page.wait_for_url("**/voici/render/03_deal.hu.html", timeout=30_000)
    page.locator("#loading").wait_for(state="hidden", timeout=PAGE_TIMEOUT)
    page.locator(".tartli-steps").wait_for(timeout=PAGE_TIMEOUT)
    assert page.evaluate("document.documentElement.lang") == "hu"
    assert_reads(page.locator("#rendered_cells").inner_text(), "03_deal.hu.html")
    assert_no_error_output(page)
    page.close()
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(static_site + "voici/render/table.html", wait_until="commit")  # asked for in English
    page.wait_for_url("**/voici/render/table.hu.html", timeout=30_000)
    page.locator("#loading").wait_for(state="hidden", timeout=PAGE_TIMEOUT)
    page.locator(".tartli-board svg").first.wait_for(state="visible")
    assert_reads(page.locator("#rendered_cells").inner_text(), "table.hu.html")
    assert page.locator(".tartli-languages a[aria-current='true']").inner_text() == "HU"


def test_the_offline_edition_unpacks_and_opens_with_python_alone(
    built_site: Path, offline_chromium: Any, tmp_path: Path
) -> None:
    """Issue 39: the release's archive (``tartli.site archive``, as the release workflow makes it) unpacked on a
    machine with no Node.js on the PATH, served by Python's own ``http.server`` (what its READ-ME says), opens
    the lesson index and a lesson in Chromium with no name resolution beyond 127.0.0.1, their cells run and no
    error on the page."""
    import socket
    import subprocess
    import sys
    import time
    import zipfile

    from tartli.site.archive import FOLDER, archive

    made = archive(built_site, tmp_path / "tartli-offline.zip")
    with zipfile.ZipFile(made) as zipped:
        names = zipped.namelist()
        assert all(name.startswith(f"{FOLDER}/") for name in names)
        assert "python3 -m http.server 8000" in zipped.read(f"{FOLDER}/READ-ME.txt").decode()
        zipped.extractall(tmp_path / "unpacked")
    folder = tmp_path / "unpacked" / FOLDER
    assert (folder / "index.html").is_file()
    bare = tmp_path / "bin"  # a PATH with Python and nothing else: no node, no npm
    bare.mkdir()
    (bare / "python3").symlink_to(sys.executable)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        ["python3", "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=folder,
        env={"PATH": str(bare), "HOME": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    context = offline_chromium.new_context()
    try:
        assert shutil.which("node", path=str(bare)) is None and shutil.which("npm", path=str(bare)) is None
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            time.sleep(0.1)
        base = f"http://127.0.0.1:{port}/"
        page, watch = open_static(context, base, PAGES[0].file)
        page.locator(".tartli-map").first.wait_for(state="visible")
        assert_no_error_output(page)
        lesson, lesson_watch = open_static(context, base, "02_ranks_and_points.ipynb")
        lesson.locator(".tartli-steps .tartli-step").first.wait_for(state="visible")
        assert_no_error_output(lesson)
        for seen in (watch, lesson_watch):
            seen.console_errors = [e for e in seen.console_errors if "/api/contents/all.json" not in e]
            seen.assert_clean()
    finally:
        context.close()
        server.terminate()
        server.wait(timeout=10)
