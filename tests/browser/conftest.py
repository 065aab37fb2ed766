"""Real-browser tests of the Voilà app: the server, Debian's Chromium, and pages that record what went wrong.

The app is served once per session on a free port (``tartli.app.voila_command``
with ``tartli.app.environment()``), exactly as ``tartli course`` serves it. The
browser is Debian's Chromium (Playwright's own browser download is not used):
without it the tests are skipped, or fail when ``CI=true``.

``bench_app.py`` imports the helpers of this module (``start_server``,
``stop_server``, ``launch_chromium``) so that the benchmark serves the app the
same way.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

import pytest

from tartli import app
from tartli.render.sheet import CHROMIUM_FLAGS

CHROMIUM_MISSING = "Chromium is missing: install Debian's chromium (apt-get install chromium)"
CHROMIUM_ARGS = list(CHROMIUM_FLAGS)  # the flags the package uses for its own screenshots
STARTUP_TIMEOUT = 300.0
"""Seconds the server gets to answer the index page with 200 (on an idle machine it takes a few; a
machine busy with other work took over a minute, and a test fails only when the server is broken)."""

LOCAL_HOSTS = {"127.0.0.1"}
"""The only host a page may contact: the app must work offline."""

CONSOLE_ERROR_ALLOWLIST: tuple[tuple[str, str], ...] = (
    # Chromium asks every site for /favicon.ico; Voilà has none, so the request
    # ends in a 404 that the console reports as an error. It is the browser's own
    # request, not the app's, and nothing on the page depends on it.
    ("favicon.ico", "Failed to load resource"),
)
"""Console errors that are known harmless noise: (substring of the location or text, substring of the text).

Everything else logged with type "error" fails the page. (The "Unsatisfied
version ... of shared singleton module @jupyterlab/..." lines of the widget
manager are warnings, not errors, and are not collected at all.)
"""


def chromium_path() -> str | None:
    """Debian's Chromium, if installed."""
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium")


def pdf_pages(pdf: bytes) -> int:
    """The pages of a PDF that Chromium printed (its /Type /Page objects)."""
    assert pdf.startswith(b"%PDF")
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def log_tail(path: Path, lines: int = 60) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


@dataclass
class Server:
    """A running ``tartli course`` server."""

    process: subprocess.Popen[bytes]
    port: int
    log_path: Path
    log_file: IO[bytes]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, file: str) -> str:
        return f"{self.base_url}/voila/render/{file}"


def start_server(
    log_path: Path, timeout: float = STARTUP_TIMEOUT, extra: tuple[str, ...] = (), port: int | None = None
) -> Server:
    """Start the app on a free port and wait (bounded) until the index page answers 200.

    The server logs at INFO (``tartli course`` logs warnings only), so that a failing test shows
    what the server did. Raises RuntimeError (with the log's tail) if it does not come up.
    """
    port = port or free_port()  # (a restart on the same port keeps the pages' origin: their localStorage)
    log_file = log_path.open("wb")
    process = subprocess.Popen(
        # the classes of a test server live beside its log, not in the user's data folder
        app.voila_command(
            port, extra=("--Voila.log_level=INFO", f"--TartliVoila.data_dir={log_path.parent / 'data'}", *extra)
        ),
        env=app.environment(),
        stdout=log_file,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    server = Server(process, port, log_path, log_file)
    index = app.start_url(port)
    trouble = wait_until_it_answers(process, index, timeout)
    if trouble is None:
        return server
    stop_server(server)
    raise RuntimeError(
        f"the app did not serve {index} within {timeout:.0f} s ({trouble}); log tail:\n{log_tail(log_path)}"
    )


def wait_until_it_answers(process: subprocess.Popen[bytes], url: str, timeout: float) -> str | None:
    """Wait (bounded) until ``url`` answers 200: None, or what went wrong (the process exited, HTTP 503 ...).

    Asks as a browser does, keeping the cookies the course's server sets (a client that keeps none
    shares one kernel with every other such client)."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return f"the server exited with code {process.returncode}"
        try:
            with opener.open(url, timeout=60) as response:
                if response.status == 200:
                    return None
                last = f"HTTP {response.status}"
        except urllib.error.HTTPError as err:
            last = f"HTTP {err.code}"
        except OSError as err:
            last = str(err)
        time.sleep(0.25)
    return last


def kernel_processes(server_pid: int) -> dict[int, Any]:
    """The server's kernel processes (a child process running ipykernel, or a child of the server's kernel
    template: tartli.server.zygote), by pid: psutil's processes (psutil is a test dependency: imported here, so that
    the module imports without it)."""
    import psutil

    found = {}
    templates = set(template_processes(server_pid))
    for child in psutil.Process(server_pid).children(recursive=True):
        try:
            if any("ipykernel" in part for part in child.cmdline()) or child.ppid() in templates:
                found[child.pid] = child
        except psutil.Error:
            pass
    return found


def template_processes(server_pid: int) -> dict[int, Any]:
    """The server's kernel template (tartli.server.zygote: a child of the server), by pid (none if it forks none)."""
    import psutil

    found = {}
    for child in psutil.Process(server_pid).children():
        try:
            if any("zygote.py" in part for part in child.cmdline()):
                found[child.pid] = child
        except psutil.Error:
            pass
    return found


def stop_server(server: Any, timeout: float = 15) -> None:
    """Terminate a server (a :class:`Server`, or any with ``process`` and ``log_file``; it shuts its
    kernels down), killing it if it does not stop within ``timeout`` seconds."""
    process = server.process
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    server.log_file.close()


def launch_chromium(playwright: Any, *extra_args: str) -> Any:
    """Debian's Chromium, headless, through Playwright (``playwright.chromium.launch``)."""
    path = chromium_path()
    if path is None:
        raise RuntimeError(CHROMIUM_MISSING)
    return playwright.chromium.launch(executable_path=path, headless=True, args=[*CHROMIUM_ARGS, *extra_args])


# ---------------------------------------------------------------- pytest wiring


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: a real-browser test of the Voilà app (needs Debian's chromium)")


_LOG_KEY = pytest.StashKey[Path]()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """On failure, show the tail of the server's log (tracebacks of the kernels end up there)."""
    path = config.stash.get(_LOG_KEY, None)
    if path is not None and (terminalreporter.stats.get("failed") or terminalreporter.stats.get("error")):
        terminalreporter.write_sep("-", f"Voilà server log (tail of {path})")
        terminalreporter.write_line(log_tail(path))


@pytest.fixture(scope="session")
def app_server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Server]:
    """The app served on a free port for the whole session."""
    log_path = tmp_path_factory.mktemp("voila") / "voila.log"
    request.config.stash[_LOG_KEY] = log_path
    try:
        server = start_server(log_path)
    except RuntimeError as err:
        pytest.fail(str(err), pytrace=False)
    try:
        yield server
    finally:
        stop_server(server)


@pytest.fixture(scope="session")
def base_url(app_server: Server) -> str:
    """``http://127.0.0.1:PORT`` of the running app."""
    return app_server.base_url


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    """Playwright's driver, one for the whole session (a second sync driver cannot start beside it);
    skipped, or failed under CI, when Debian's Chromium is missing."""
    if chromium_path() is None:
        if os.environ.get("CI") == "true":
            pytest.fail(CHROMIUM_MISSING, pytrace=False)
        pytest.skip(CHROMIUM_MISSING)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


def browser_session(driver: Any, *extra_args: str) -> Iterator[Any]:
    """A Chromium browser for a session fixture, closed at the end."""
    browser = launch_chromium(driver, *extra_args)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="session")
def chromium(playwright_driver: Any) -> Iterator[Any]:
    """Debian's Chromium through Playwright, for the whole session."""
    yield from browser_session(playwright_driver)


@dataclass
class Watch:
    """What a page did that it should not: uncaught errors, console errors, requests to other hosts."""

    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.on("console", self._on_console)
        page.on("request", self._on_request)

    def _on_console(self, message: Any) -> None:
        if message.type != "error":
            return
        location = message.location.get("url", "") if isinstance(message.location, dict) else ""
        text = f"{message.text} @ {location}"
        if any(where in text and what in message.text for where, what in CONSOLE_ERROR_ALLOWLIST):
            return
        self.console_errors.append(text)

    def _on_request(self, request: Any) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("data", "blob", "about"):
            return
        if parts.hostname not in LOCAL_HOSTS:
            self.foreign_requests.append(request.url)

    def assert_clean(self) -> None:
        assert not self.page_errors, f"uncaught errors in the page: {self.page_errors}"
        assert not self.console_errors, f"console errors: {self.console_errors}"
        assert not self.foreign_requests, f"requests to hosts other than {LOCAL_HOSTS}: {self.foreign_requests}"


def assert_no_error_output(page: Any) -> None:
    """No traceback, error text, stderr output or error box among a page's rendered cells."""
    cells = page.locator("#rendered_cells").inner_text()
    assert "Traceback" not in cells
    assert "Error" not in cells
    assert page.locator('[data-mime-type="application/vnd.jupyter.stderr"]').count() == 0
    assert page.locator(".jp-OutputArea-output.jp-mod-error, .voila-error").count() == 0


PAGE_TIMEOUT_MS = 240_000
"""How long a page gets to show its cells: a page without a pre-started kernel (a lesson in Hungarian
or German) runs its notebook when asked, which on this 2-core machine busy with the pools' refills of
the pages before it took over a minute. A test fails on a broken page, not on a slow one."""


def wait_for_cells(page: Any, timeout: float = PAGE_TIMEOUT_MS) -> None:
    """Wait until the page shows its cells; if it does not, fail with what it shows instead (the busy
    page, an error) rather than a bare timeout."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.locator("#rendered_cells").wait_for(state="visible", timeout=timeout)
    except PlaywrightTimeout:
        try:
            shown = page.locator("body").inner_text(timeout=5_000)[:400]
        except Exception as err:  # (the page itself may be gone)
            shown = f"(no text: {err})"
        raise AssertionError(f"{page.url} showed no cells in {timeout / 1000:.0f} s; it shows: {shown!r}") from None


STEP_WHERE = "document.querySelector('.tartli-steps .tartli-where').textContent"
"""The lesson's "Step N of M" line, as the page shows it."""


def leave(context: Any) -> None:
    """Close a browser context as a learner leaves a page: each page navigates away first, so that Voilà's
    page sends its "shut my kernel down" beacon (closing the context alone sends none, and the kernel
    would hold a place on the server until culled: tests that open many pages would fill it)."""
    for page in list(context.pages):
        with contextlib.suppress(Exception):
            page.goto("about:blank", timeout=15_000)
    with contextlib.suppress(Exception):
        context.close()


def go_to_step(page: Any, number: int) -> str:
    """Go to step ``number`` of a lesson by its address and wait until the step counter moved (a page
    just opened stands on step 1); the counter's text after."""
    page.locator(".tartli-steps .tartli-where").wait_for(timeout=PAGE_TIMEOUT_MS)
    before = page.evaluate(STEP_WHERE)
    page.evaluate(f"location.hash = '#step-{number}'")
    if number > 1:
        page.wait_for_function(f"before => {STEP_WHERE} !== before", arg=before)
    text: str = page.evaluate(STEP_WHERE)
    return text


@dataclass
class OpenedPage:
    page: Any
    watch: Watch
    response_status: int | None


@pytest.fixture
def open_page(chromium: Any, app_server: Server) -> Iterator[Callable[[str], OpenedPage]]:
    """``open_page("table.ipynb")``: a page of the app in a fresh browser context (its own kernel), loaded."""
    contexts: list[Any] = []

    def _open(file: str) -> OpenedPage:
        context = chromium.new_context()
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(30_000)
        watch = Watch()
        watch.attach(page)
        response = page.goto(app_server.url(file), wait_until="load")
        wait_for_cells(page)
        return OpenedPage(page, watch, response.status if response is not None else None)

    yield _open
    for context in contexts:
        leave(context)
