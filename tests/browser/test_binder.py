"""Binder's way into the course, run the way repo2docker runs it.

Once per session a fixture copies the checkout (its tracked and new files, as a clone has them) to
a temporary folder, makes a fresh virtual environment and runs ``pip install -r
binder/requirements.txt`` from the copy's root, as repo2docker does (pip may use its cache and the
machine's wheel folders; the time is printed: about 20 s here). The server is what Binder starts,
behind ``binder/start``: ``jupyter server`` under the base URL ``/user/x/`` (Binder serves each
launch at ``/user/<name>/``), with no token. The pages are opened at the README badge's
``urlpath``: Voilà's server extension must use the course's template and settings
(``binder/jupyter_server_config.py``, ``tartli/server/binder.py``), every link must stay under the
base URL, no request may leave 127.0.0.1, and leaving a page must shut its kernel down.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from urllib.parse import unquote, urlsplit

import pytest

from tartli.course import PAGES, page_url
from tests.browser.conftest import (
    Watch,
    assert_no_error_output,
    free_port,
    log_tail,
    stop_server,
    wait_until_it_answers,
)
from tests.browser.test_server import FOREIGN_LOAD

ROOT = Path(__file__).resolve().parents[2]
BASE = "/user/x/"
"""Binder's base URL for a launch (``/user/<name>/``)."""
BADGE = re.compile(r"https://mybinder\.org/v2/gh/tartli-course/tartli/HEAD\?urlpath=([^)\s]+)")
PIP_TIMEOUT = 900
STARTUP_TIMEOUT = 90.0
NO_NETWORK = ("NewConnectionError", "Temporary failure in name resolution", "Network is unreachable")


def badge_urlpath() -> str:
    """The ``urlpath`` of the README's Binder badge, decoded (``voila/render/...``)."""
    found = BADGE.search((ROOT / "README.md").read_text(encoding="utf-8"))
    assert found, "the README has no Binder badge for tartli-course/tartli"
    return unquote(found.group(1))


def test_the_badge_opens_the_index_with_no_template_parameter() -> None:
    urlpath = badge_urlpath()
    assert urlpath == f"voila/render/notebooks/{PAGES[0].file}", urlpath  # the template comes from the config


def test_binder_files_are_the_ones_repo2docker_reads() -> None:
    binder = ROOT / "binder"
    assert "." in (binder / "requirements.txt").read_text(encoding="utf-8").split()
    runtime = (binder / "runtime.txt").read_text(encoding="utf-8").strip()
    assert re.fullmatch(r"python-3\.1[0-9]", runtime), runtime
    assert os.access(binder / "start", os.X_OK)
    assert (binder / "jupyter_server_config.py").is_file()


# ---------------------------------------------------------------- the environment and the server


@dataclass
class BinderServer:
    process: subprocess.Popen[bytes]
    port: int
    log_path: Path
    log_file: IO[bytes]

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.port}{BASE}{path}"

    def log(self, lines: int = 4000) -> str:
        return log_tail(self.log_path, lines)


NOT_IN_A_CLONE = (
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    ".site-cache",
    "_site",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "*.tmp",
)
"""What a copy without git leaves out (the .gitignore's folders)."""


def copy_checkout(target: Path) -> Path:
    """The checkout's tracked and new (not ignored) files, as repo2docker's copy of the repository has them
    (without git, or where git refuses the folder: the tree less what .gitignore names)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(*NOT_IN_A_CLONE))
        return target
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted but not yet committed is listed and absent
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="session")
def binder_repo(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """A copy of the checkout with a fresh virtual environment in which ``pip install -r
    binder/requirements.txt`` ran from the copy's root."""
    base = tmp_path_factory.mktemp("binder")
    repo = copy_checkout(base / "repo")
    venv = base / "venv"
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    made = time.monotonic()
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    pip = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=PIP_TIMEOUT,
    )
    done = time.monotonic()
    if pip.returncode != 0:
        output = (pip.stdout + pip.stderr)[-3000:]
        if any(sign in output for sign in NO_NETWORK) and os.environ.get("CI") != "true":
            pytest.skip(f"pip could not reach the package index:\n{output}")
        pytest.fail(f"pip install -r binder/requirements.txt failed:\n{output}", pytrace=False)
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None:
        with capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext():
            reporter.write_line(
                f"\nbinder: fresh venv {made - started:.1f} s, pip install -r binder/requirements.txt "
                f"{done - made:.1f} s ({done - started:.1f} s in all)"
            )
    return repo


def start_binder_server(repo: Path, log_path: Path, extra_env: dict[str, str] | None = None) -> BinderServer:
    """``binder/start jupyter server`` as Binder runs it, under /user/x/ on a free port; waits until it answers.
    ``extra_env``: set in the server's environment (and so its kernels')."""
    venv_bin = repo.parent / "venv" / "bin"
    home = repo.parent / "home"  # the container's own home: no ~/.jupyter of this machine
    home.mkdir(exist_ok=True)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("JUPYTER", "TARTLI_", "VIRTUAL_ENV", "PYTHONPATH", "IPYTHONDIR"))
    }
    env.update(PATH=f"{venv_bin}{os.pathsep}{env.get('PATH', '')}", HOME=str(home))
    env.update(extra_env or {})
    port = free_port()
    command = [
        "binder/start",
        "jupyter",
        "server",
        f"--ServerApp.base_url={BASE}",
        "--ServerApp.token=",
        "--ServerApp.ip=127.0.0.1",
        f"--port={port}",
        "--no-browser",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # Binder runs as an ordinary user; this machine may not
    log_file = log_path.open("wb")
    process = subprocess.Popen(
        command, cwd=repo, env=env, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
    )
    server = BinderServer(process, port, log_path, log_file)
    trouble = wait_until_it_answers(process, server.url("api/status"), STARTUP_TIMEOUT)
    if trouble is None:
        return server
    stop_server(server, timeout=20)
    raise RuntimeError(f"binder/start jupyter server did not come up ({trouble}); log:\n{log_tail(log_path)}")


@pytest.fixture(scope="session")
def binder_server(binder_repo: Path) -> Iterator[BinderServer]:
    try:
        server = start_binder_server(binder_repo, binder_repo.parent / "jupyter-server.log")
    except RuntimeError as err:
        pytest.fail(str(err), pytrace=False)
    try:
        yield server
    finally:
        stop_server(server, timeout=20)


def get(server: BinderServer, path: str) -> tuple[int, dict[str, str], str]:
    """GET ``/user/x/<path>``: status, headers (lower-case names; Set-Cookie joined), body."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    connection.request("GET", BASE + path)
    response = connection.getresponse()
    body = response.read().decode("utf-8", errors="replace")
    headers: dict[str, str] = {}
    for name, value in response.getheaders():
        headers[name.lower()] = f"{headers[name.lower()]}\n{value}" if name.lower() in headers else value
    connection.close()
    return response.status, headers, body


def kernel_of(body: str) -> str:
    found = re.search(r'"kernelId": "([0-9a-f-]{36})"', body)
    assert found, "no kernel id in the page"
    return found.group(1)


# ---------------------------------------------------------------- the pages


def test_the_extension_loads_with_the_course_settings(binder_server: BinderServer) -> None:
    log = binder_server.log()
    assert "tartli.server.binder | extension was successfully loaded" in log, log
    assert "voila.server_extension | extension was successfully loaded" in log, log
    assert "served with the course's handler" in log, log


@pytest.mark.parametrize(
    "path",
    [
        "",  # the badge's page
        "voila/render/notebooks/05_melds.ipynb",
        "voila/render/notebooks/00_index.ipynb?voila-template=lab&template=classic&theme=dark",  # overrides off
        "voila/tree/notebooks",
        "voila/render/notebooks/missing.ipynb",
    ],
)
def test_every_page_uses_the_course_template_and_links_no_cdn(binder_server: BinderServer, path: str) -> None:
    status, headers, body = get(binder_server, path or badge_urlpath())
    assert status in (200, 404), (status, body[:500])
    links = [body[m.start() : m.start() + 120] for m in FOREIGN_LOAD.finditer(body)]
    assert not links, links
    assert "https://cdn" not in body and "cdnjs" not in body
    if "/render/" in (path or badge_urlpath()) and status == 200:
        assert "tartli-trouble" in body  # the course's template, not Voilà's default
        assert '"fullMathjaxUrl": null' in body  # MathJax from Voilà's own scripts, not from cdnjs
        assert f'"baseUrl": "{BASE}"' in body
        assert re.search(rf"_xsrf=[^;]+;.*Path={re.escape(BASE)}", headers.get("set-cookie", "")), headers
        assert "from tartli" not in body  # code sources stripped (every page imports the course)
    if "?" in path:
        assert "theme-light" in body and "jp-mod-dark" not in body


def test_long_addresses_add_short_lines_to_the_binder_servers_log(binder_server: BinderServer) -> None:
    """Issue 42: the Binder server's log is bounded as the course server's is: 100 requests for missing pages with
    60 KB addresses (before: a 60 KB line each, 6 MB in all) add a few KB in short lines, no folder of the machine."""
    from tests.browser.test_quiet_server import LONG, LogWatch

    watch = LogWatch(binder_server)  # type: ignore[arg-type]  (it reads the server's log_path)
    for n in range(100):
        status, _headers, _body = get(binder_server, f"voila/render/notebooks/missing-{n}-{LONG}.ipynb")
        assert status == 404
    time.sleep(1.0)  # (the server writes its log lines as it answers; a moment for the last ones)
    watch.assert_quiet()


def test_what_a_binder_kernel_writes_before_ipykernel_takes_its_output_reaches_the_log_bounded(
    binder_repo: Path, tmp_path: Path
) -> None:
    """Issue 42: on Binder too, a kernel process's own output (here a ``sitecustomize`` that writes a 60 KB line
    and a traceback in each kernel at start, as a broken package's import would) goes through the kernels' log
    file into the server's log, one short line, not to the server's terminal whole (before, on Binder: the
    60 KB line and the traceback, whose kernels are the Jupyter server's own, not the course's)."""
    from tartli.server.logs import LINE_LIMIT

    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import sys\n"
        "if 'ipykernel_launcher' in ' '.join(sys.orig_argv):\n"
        "    sys.stderr.write('early-kernel-noise ' + 'x' * 60000 + '\\n')\n"
        "    sys.stderr.write('Traceback (most recent call last):\\n  File \"/somewhere/broken.py\", line 1\\n'\n"
        "                     'ValueError: broken at import\\n')\n"
        "    sys.stderr.flush()\n"
    )
    log_path = tmp_path / "jupyter-server.log"
    server = start_binder_server(binder_repo, log_path, {"PYTHONPATH": str(site)})
    try:
        status, _headers, body = get(server, badge_urlpath())  # the page's kernel starts as it renders
        assert status == 200, body[-2000:]
        deadline = time.monotonic() + 60
        while "early-kernel-noise" not in (text := log_path.read_text(errors="replace")):
            assert time.monotonic() < deadline, log_tail(log_path)
            time.sleep(0.5)
        time.sleep(2)  # (the follower copies the file every second)
        text = log_path.read_text(errors="replace")
    finally:
        stop_server(server, timeout=20)
    noisy = [line for line in text.splitlines() if "early-kernel-noise" in line or "broken" in line]
    assert noisy and all(len(line) <= LINE_LIMIT + 200 for line in noisy), [line[:300] for line in noisy]
    assert "Traceback" not in text and "/somewhere/broken.py" not in text, [line[:300] for line in noisy]


def test_the_badge_opens_the_index_a_lesson_opens_from_its_link_and_leaving_shuts_its_kernel(
    chromium: Any, binder_server: BinderServer
) -> None:
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        watch = Watch()
        watch.attach(page)
        paths: list[str] = []  # of every http request (not data: or blob:)
        page.on("request", lambda r: paths.append(urlsplit(r.url).path if r.url.startswith("http") else ""))
        response = page.goto(binder_server.url(badge_urlpath()), wait_until="load")
        assert response is not None and response.status == 200
        course_map = page.locator(".tartli-map")
        course_map.wait_for(state="visible", timeout=90_000)
        links = course_map.locator("a")
        assert links.count() == len(PAGES) - 1
        assert links.first.get_attribute("href") == page_url(PAGES[1])
        index_kernel = kernel_of(page.content())

        with page.expect_navigation():
            links.first.click()
        lesson_path = f"{BASE}voila/render/notebooks/{PAGES[1].file}"
        assert urlsplit(page.url).path == lesson_path, page.url
        page.locator("#rendered_cells").wait_for(state="visible", timeout=90_000)
        page.locator(".tartli-steps .tartli-where").wait_for(state="visible", timeout=90_000)
        assert "Step 1 of" in page.locator(".tartli-steps .tartli-where").inner_text()
        # The recap (the last dot) holds the previous / course map / next links: under the base URL.
        page.locator(".tartli-steps .tartli-dots button").last.click()
        page.locator(".tartli-nav a.tartli-next").wait_for(state="visible")
        hrefs = page.eval_on_selector_all("#rendered_cells a[href]", "links => links.map(a => a.href)")
        local = [h for h in hrefs if urlsplit(h).hostname == "127.0.0.1" and urlsplit(h).path != lesson_path]
        assert len(local) >= 3, hrefs
        for href in local:
            parts = urlsplit(href)
            assert parts.path.startswith(f"{BASE}voila/render/notebooks/"), href
            assert (ROOT / "notebooks" / parts.path.rsplit("/", 1)[1]).is_file(), href
        lesson_kernel = kernel_of(page.content())
        # The course template's "connection lost" check asks for the page's kernel under the base URL.
        polled = f"{BASE}api/kernels/{lesson_kernel}"
        if polled not in paths:
            with page.expect_request(lambda request: urlsplit(request.url).path == polled, timeout=25_000):
                pass  # checked every 10 s
        page.wait_for_timeout(1_000)  # late errors still count
        assert_no_error_output(page)
        watch.assert_clean()
        outside = sorted({path for path in paths if path and not path.startswith(BASE)} - {"/favicon.ico"})
        assert not outside, f"requests outside the base URL {BASE}: {outside}"

        # Closing the tab as a browser does (beforeunload runs): the page's beacon asks for a shutdown.
        page.close(run_before_unload=True)
        deadline = time.monotonic() + 30
        while True:
            gone = [k for k in (index_kernel, lesson_kernel) if get(binder_server, f"api/kernels/{k}")[0] == 404]
            if len(gone) == 2:
                break
            assert time.monotonic() < deadline, f"kernels still running after leaving:\n{binder_server.log()}"
            time.sleep(0.25)
    finally:
        with contextlib.suppress(Exception):
            context.close()
    log = binder_server.log()
    assert "403 POST" not in log and "'_xsrf' argument missing" not in log, log
    for kernel in (index_kernel, lesson_kernel):
        assert f"Kernel shutdown: {kernel}" in log, log


RUN_EVERY_PAGE = r"""
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

import tartli
from tartli.course import PAGES, notebooks_dir

assert "site-packages" in tartli.__file__, tartli.__file__  # the installed package, not the checkout
folder = notebooks_dir()
assert "site-packages" in str(folder), folder
failed = []
for page in PAGES:
    nb = nbformat.read(folder / page.file, as_version=4)
    NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(folder)}}).execute()
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    print(page.file, "error" if errors else "ran")
    if errors:
        failed.append(page.file)
sys.exit(1 if failed else 0)
"""


def test_the_installed_package_runs_every_page_of_the_course(binder_repo: Path, tmp_path: Path) -> None:
    """The package as pip installed it from the clone (a wheel, not the checkout) runs every page of its own
    copy of the course top to bottom, as Voilà would serve them, away from the repository."""
    venv_python = binder_repo.parent / "venv" / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "VIRTUAL_ENV", "PYTHONPATH"))}
    env["HOME"] = str(tmp_path)
    result = subprocess.run(
        [str(venv_python), "-c", RUN_EVERY_PAGE], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900
    )
    ran = [line.split()[0] for line in result.stdout.splitlines() if line.endswith(" ran")]
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    assert ran == [page.file for page in PAGES]
