"""The static edition's build helpers that need no network (the whole build: tests/browser/test_static.py)."""

from __future__ import annotations

import gzip
import hashlib
import http.client
import io
import json
import random
import re
import shutil
import socket
import subprocess
import sys
import types
import urllib.error
import urllib.request
import zipfile
from html import escape as html_escape
from pathlib import Path

import pytest

from tartli import site
from tartli.course import PAGES, nav_html, page_url
from tartli.site import builder, compress
from tartli.site.__main__ import main


def _wheel(folder: Path, name: str, version: str, files: dict[str, str]) -> Path:
    path = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in files.items():
            archive.writestr(member, text)
        archive.writestr(f"{name}-{version}.dist-info/METADATA", f"Name: {name}\nVersion: {version}\n")
    return path


NPM_LOCK = {
    "info": {"abi_version": "2025_0", "python": "3.13.2"},
    "packages": {
        "prompt-toolkit": {"version": "3.0.50", "depends": ["wcwidth"]},
        "matplotlib-inline": {"version": "0.1.7", "depends": ["traitlets", "matplotlib"]},
        "ipython": {"version": "9.0.2", "depends": ["prompt_toolkit", "traitlets"]},
    },
}


def test_the_lock_lists_exactly_the_given_wheels_with_their_own_hashes(tmp_path: Path) -> None:
    wheels = [
        _wheel(tmp_path, "prompt_toolkit", "3.0.50", {"prompt_toolkit/__init__.py": ""}),
        _wheel(tmp_path, "wcwidth", "0.2.13", {"wcwidth/__init__.py": ""}),
        _wheel(tmp_path, "traitlets", "5.14.3", {"traitlets/__init__.py": ""}),
        _wheel(tmp_path, "matplotlib_inline", "0.1.7", {"matplotlib_inline/__init__.py": ""}),
        _wheel(tmp_path, "ipython", "9.0.2", {"IPython/__init__.py": ""}),
        _wheel(tmp_path, "six", "1.17.0", {"six.py": ""}),
    ]
    lock = site.pyodide_lock(NPM_LOCK, wheels)
    assert lock["info"] == NPM_LOCK["info"]
    packages = lock["packages"]
    assert isinstance(packages, dict)
    assert sorted(packages) == ["ipython", "matplotlib-inline", "prompt-toolkit", "six", "traitlets", "wcwidth"]
    for wheel in wheels:
        entry = next(p for p in packages.values() if p["file_name"] == wheel.name)
        assert entry["sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()
    # dependency names are normalized; matplotlib (plots only) is left out
    assert packages["ipython"]["depends"] == ["prompt-toolkit", "traitlets"]
    assert packages["matplotlib-inline"]["depends"] == ["traitlets"]
    assert packages["ipython"]["imports"] == ["IPython"]
    assert packages["six"]["imports"] == ["six"]
    json.dumps(lock)  # what the build writes


def test_a_lock_with_a_missing_dependency_is_refused(tmp_path: Path) -> None:
    wheels = [_wheel(tmp_path, "prompt_toolkit", "3.0.50", {"prompt_toolkit/__init__.py": ""})]
    with pytest.raises(site.BuildError, match="wcwidth"):
        site.pyodide_lock(NPM_LOCK, wheels)


def test_the_placeholder_wheel_installs_nothing_importable(tmp_path: Path) -> None:
    wheel = builder._placeholder_wheel(tmp_path, "sqlite3")
    assert wheel.name == "sqlite3-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert names and all(n.startswith("sqlite3-0.0.0.dist-info/") for n in names)
    assert builder._top_level(wheel) == []
    assert builder._placeholder_wheel(tmp_path, "sqlite3").read_bytes() == wheel.read_bytes()  # reproducible


def test_pages_link_to_html_pages_in_the_static_edition() -> None:
    for page in PAGES:
        assert page_url(page, static=False) == page.file
        assert page_url(page, static=True) == page.file.removesuffix(".ipynb") + ".html"
    assert 'href="02_ranks_and_points.ipynb"' in nav_html("01_pack.ipynb")  # Voilà here (not Pyodide)


def test_the_static_server_serves_wasm_with_its_type(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<p>hi</p>", encoding="utf-8")
    (tmp_path / "x.wasm").write_bytes(b"\0asm")
    sent: list[int] = []
    server, base = site.serve_in_thread(tmp_path, sent=sent)
    try:
        with urllib.request.urlopen(base + "x.wasm") as response:
            assert response.headers["Content-Type"] == "application/wasm"
            assert response.read() == b"\0asm"
        with urllib.request.urlopen(base) as response:
            assert b"hi" in response.read()
        assert base.startswith("http://127.0.0.1:")
    finally:
        server.shutdown()
        server.server_close()


def test_the_static_server_counts_the_bytes_on_the_wire(tmp_path: Path) -> None:
    """The benchmarks' count: every byte of every response (status line, headers, body)."""
    (tmp_path / "x.txt").write_bytes(b"hello")
    sent: list[int] = []
    server, _ = site.serve_in_thread(tmp_path, sent=sent)
    host, port = server.server_address[:2]
    try:
        with socket.create_connection((str(host), port)) as sock:
            sock.sendall(b"GET /x.txt HTTP/1.0\r\nHost: x\r\n\r\n")
            received = b"".join(iter(lambda: sock.recv(65536), b""))
    finally:
        server.shutdown()
        server.server_close()
    assert received.endswith(b"\r\n\r\nhello")
    assert sent == [len(received)]


@pytest.fixture
def compressed_site(tmp_path: Path) -> Path:
    """A small site with the build's compressed copies: a large page, a large incompressible file,
    a small file, a wheel and a folder's index page."""
    site_dir = tmp_path / "site"
    (site_dir / "sub").mkdir(parents=True)
    text = "".join(
        f"<p>Card {i}: {random.Random(i).choice(['acorns', 'bells', 'hearts', 'leaves'])}</p>\n" for i in range(3000)
    )
    (site_dir / "page.html").write_text(text, encoding="utf-8")
    (site_dir / "sub" / "index.html").write_text(text, encoding="utf-8")
    (site_dir / "noise.bin").write_bytes(random.Random(1).randbytes(50_000))
    (site_dir / "small.js").write_text("console.log(1)", encoding="utf-8")
    (site_dir / "lib-1.0-py3-none-any.whl").write_bytes(text.encode() * 2)
    compress.precompress(site_dir, shutil.which("node"))
    return site_dir


def test_large_files_get_precompressed_copies_that_unpack_to_the_same_bytes(compressed_site: Path) -> None:
    node = shutil.which("node")
    assert node is not None, "Node.js is needed for the static edition (and this test)"
    for name in ("page.html", "sub/index.html"):
        plain = (compressed_site / name).read_bytes()
        packed = (compressed_site / (name + ".gz")).read_bytes()
        assert gzip.decompress(packed) == plain and len(packed) < len(plain) / 4
        assert packed[4:8] == b"\0\0\0\0"  # no time stamp: two builds give the same bytes
        brotli = (compressed_site / (name + ".br")).read_bytes()
        assert len(brotli) < len(packed)
        unpacked = subprocess.run(
            [node, "-e", "process.stdout.write(require('zlib').brotliDecompressSync(require('fs').readFileSync(0)))"],
            input=brotli,
            capture_output=True,
            check=True,
        ).stdout
        assert unpacked == plain
    left = sorted(p.name for p in compressed_site.rglob("*") if p.suffix in {".gz", ".br"})
    assert left == ["index.html.br", "index.html.gz", "page.html.br", "page.html.gz"]  # nothing else is worth it


def _get(base: str, path: str, method: str = "GET", **headers: str) -> tuple[int, dict[str, str], bytes]:
    host, port = base.removeprefix("http://").rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.request(method, path, headers={"Accept-Encoding": "identity", **headers})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_the_server_sends_the_copy_the_browser_accepts_and_plain_bytes_otherwise(compressed_site: Path) -> None:
    server, base = site.serve_in_thread(compressed_site)
    try:
        plain = (compressed_site / "page.html").read_bytes()
        for accept, coding in [
            ("gzip, deflate, br, zstd", "br"),
            ("gzip", "gzip"),
            ("gzip;q=1, br;q=0", "gzip"),
            ("identity", None),
            ("deflate", None),
        ]:
            status, headers, body = _get(base, "/page.html", **{"Accept-Encoding": accept})
            assert status == 200
            assert headers.get("content-encoding") == coding, accept
            assert headers["vary"] == "Accept-Encoding"
            assert headers["content-type"] == "text/html"
            assert int(headers["content-length"]) == len(body)
            expected = (compressed_site / f"page.html{compress.ENCODINGS[coding]}").read_bytes() if coding else plain
            assert body == expected, accept
            status, head_headers, head_body = _get(base, "/page.html", "HEAD", **{"Accept-Encoding": accept})
            assert status == 200 and head_body == b"" and head_headers["content-length"] == headers["content-length"]
        # A folder's index page is negotiated as well; a file with no copies is sent as it is.
        status, headers, body = _get(base, "/sub/", **{"Accept-Encoding": "gzip"})
        assert headers["content-encoding"] == "gzip" and gzip.decompress(body) == plain
        status, headers, body = _get(base, "/noise.bin", **{"Accept-Encoding": "gzip, br"})
        assert "content-encoding" not in headers and "vary" not in headers
        assert body == (compressed_site / "noise.bin").read_bytes()
        # A compressed copy asked for by its own name is that file, as it is.
        status, headers, body = _get(base, "/page.html.gz", **{"Accept-Encoding": "gzip, br"})
        assert "content-encoding" not in headers and body == (compressed_site / "page.html.gz").read_bytes()
    finally:
        server.shutdown()
        server.server_close()


def test_the_server_lets_the_browser_keep_files_and_check_them_again(compressed_site: Path) -> None:
    (compressed_site / "app.46b51ee.js").write_text("console.log(2)", encoding="utf-8")
    server, base = site.serve_in_thread(compressed_site)
    try:
        _, headers, _ = _get(base, "/app.46b51ee.js")
        assert headers["cache-control"] == "public, max-age=31536000, immutable"  # a hashed name never changes
        _, headers, _ = _get(base, "/small.js")
        assert headers["cache-control"] == "public, max-age=600"
        tags = {}
        for accept in ("br", "gzip", "identity"):
            status, headers, _ = _get(base, "/page.html", **{"Accept-Encoding": accept})
            assert headers["cache-control"] == "no-cache"  # a page is checked again on every visit
            tags[accept] = headers["etag"]
            status, again, body = _get(base, "/page.html", **{"Accept-Encoding": accept, "If-None-Match": tags[accept]})
            assert status == 304 and body == b""
            assert again["etag"] == tags[accept] and again["cache-control"] == "no-cache"
            assert again["vary"] == "Accept-Encoding"
        assert len(set(tags.values())) == 3  # one entity tag per copy
        status, _, body = _get(base, "/page.html", **{"Accept-Encoding": "br", "If-None-Match": tags["gzip"]})
        assert status == 200 and body == (compressed_site / "page.html.br").read_bytes()
        status, headers, _ = _get(base, "/page.html")
        status, _, body = _get(base, "/page.html", **{"If-Modified-Since": headers["last-modified"]})
        assert status == 304 and body == b""
    finally:
        server.shutdown()
        server.server_close()


def test_serve_refuses_a_folder_with_no_site(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", str(tmp_path)]) == 2
    assert "no built site" in capsys.readouterr().err


def test_placeholders_depend_on_nothing(tmp_path: Path) -> None:
    placeholder = builder._placeholder_wheel(tmp_path, "jedi")
    lock = site.pyodide_lock({"info": {}, "packages": {"jedi": {"depends": ["parso"]}}}, [], [placeholder])
    packages = lock["packages"]
    assert isinstance(packages, dict)
    assert packages["jedi"]["depends"] == []
    assert packages["jedi"]["version"] == "0.0.0"
    assert set(builder.PLACEHOLDERS) <= set(builder.PRELOAD)  # so the kernel never tries to install them


_WORKER = (
    "async initRuntime(e){let t,{pyodideUrl:n,indexUrl:s}=e;"
    "this._pyodide=await t({indexURL:s,stdout:e=>{console.log(e)},"
    "...e.loadPyodideOptions}),this._pyodide._api.on_fatal=async e=>{}}"
)


def test_the_worker_is_patched_to_start_from_the_snapshot(tmp_path: Path) -> None:
    static = tmp_path / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static"
    static.mkdir(parents=True)
    (static / "352.js").write_text(_WORKER, encoding="utf-8")
    (static / "other.js").write_text("console.log(1)", encoding="utf-8")
    assert builder.patch_worker(tmp_path) == 1
    patched = (static / "352.js").read_text(encoding="utf-8")
    assert "self.tartliSnapshot.load(f,o):f(o)})(t,{indexURL:s,stdout:" in patched
    assert "...e.loadPyodideOptions}),self.tartliSnapshot&&self.tartliSnapshot.restored(this._pyodide)," in patched
    assert (static / "other.js").read_text(encoding="utf-8") == "console.log(1)"


def test_a_worker_of_another_shape_stops_the_build(tmp_path: Path) -> None:
    static = tmp_path / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static"
    static.mkdir(parents=True)
    (static / "352.js").write_text(_WORKER.replace("...e.loadPyodideOptions", "...e.options"), encoding="utf-8")
    with pytest.raises(site.BuildError, match="no loadPyodide call"):
        builder.patch_worker(tmp_path)
    (static / "352.js").write_text("console.log(1)", encoding="utf-8")
    with pytest.raises(site.BuildError, match="no Pyodide kernel worker"):
        builder.patch_worker(tmp_path)


def test_the_snapshot_loaders_own_sha256_matches_hashlib(tmp_path: Path) -> None:
    """The loader checks the snapshot's SHA-256 before use; where crypto.subtle is missing (a site
    served without HTTPS) it uses its own SHA-256, which must agree with Python's."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is needed for the static edition (and this test)")
    samples = [b"", b"abc", bytes(55), bytes(56), bytes(64), random.Random(3).randbytes(1_000_003)]
    files = []
    for i, data in enumerate(samples):
        path = tmp_path / f"sample{i}.bin"
        path.write_bytes(data)
        files.append(str(path))
    loader = builder.FILES / "snapshot-loader.js"
    script = (
        "globalThis.self = globalThis;\n"
        f"require({json.dumps(str(loader))});\n"
        "const fs = require('fs');\n"
        f"for (const f of {json.dumps(files)})\n"
        "  console.log(self.tartliSnapshot.sha256Plain(new Uint8Array(fs.readFileSync(f))));\n"
    )
    out = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=120, check=True).stdout.split()
    assert out == [hashlib.sha256(data).hexdigest() for data in samples]


@pytest.mark.parametrize("python_has_filter", [True, False])
def test_unpacking_refuses_members_outside_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, python_has_filter: bool
) -> None:
    import io
    import tarfile

    archive = tmp_path / "evil.tgz"
    with tarfile.open(archive, "w:gz") as tar:
        data = b"x"
        for name in ("package/ok.txt", "../outside.txt"):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    if not python_has_filter:
        monkeypatch.delattr(tarfile, "data_filter", raising=False)
    target = tmp_path / "target"
    target.mkdir()
    with pytest.raises(site.BuildError, match="refusing to unpack"):
        builder._safe_extract(archive, target)
    assert not (tmp_path / "outside.txt").exists()


def test_every_download_is_pinned() -> None:
    table = builder.pins()
    assert f"npm:pyodide=={builder.PYODIDE_VERSION}" in table
    for requirement in builder.BROWSER_WHEELS:
        name, _, version = requirement.partition("==")
        assert f"{builder._normalize(name)}=={version}" in table, requirement
    assert all(len(digest) == 64 and int(digest, 16) >= 0 for digest in table.values())
    with pytest.raises(site.BuildError, match="no pinned SHA-256"):
        builder._download(Path("python-is-not-run"), ["left-pad==1.0"], Path("/tmp/tartli-no-download"))


def test_the_trimmed_standard_library_keeps_only_what_is_not_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The snapshot's zip of the standard library leaves out the modules the snapshot has imported
    (tartli/site/snapshot.py, run in the build's Pyodide; here with a zip and a module of its own)."""
    from tartli.site import snapshot

    stdlib = tmp_path / "python313.zip"
    with zipfile.ZipFile(stdlib, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in ("imported_one.py", "pkg/__init__.py", "pkg/later.py", "later.py"):
            archive.writestr(name, f"NAME = {name!r}\n")
    fake = types.ModuleType("imported_one")
    fake.__file__ = f"{stdlib}/imported_one.py"
    package = types.ModuleType("pkg")
    package.__file__ = f"{stdlib}/pkg/__init__.py"
    monkeypatch.setitem(sys.modules, "imported_one", fake)
    monkeypatch.setitem(sys.modules, "pkg", package)
    assert snapshot.trim_stdlib(str(stdlib), str(tmp_path / "trimmed.zip")) == (2, 2)
    with zipfile.ZipFile(stdlib) as archive:
        assert sorted(archive.namelist()) == ["later.py", "pkg/later.py"]
        assert all(info.compress_type == zipfile.ZIP_DEFLATED for info in archive.infolist())
    assert not (tmp_path / "trimmed.zip").exists()  # it took the zip's place


def test_the_archive_holds_what_a_page_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tartli.site import snapshot

    root = tmp_path / "site-packages"
    files = {
        "IPython/core/display.py": True,
        "IPython/core/later.py": False,
        "tartli/rules.py": True,
        "tartli/__pycache__/rules.cpython-313.pyc": True,
        "tartli/locale/hu/LC_MESSAGES/tartli.mo": False,
        "tartli/locale/hu/LC_MESSAGES/tartli.po": False,
        "tartli/notebooks/00_index.ipynb": False,
        "anywidget/labextension/static/main.js": False,
        "anywidget-0.11.0.data/data/share/x.js": False,
        "anywidget-0.11.0.dist-info/METADATA": False,
    }
    for name, imported in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x", encoding="utf-8")
        if imported:
            module = types.ModuleType(name)
            setattr(module, "__cached__" if name.endswith(".pyc") else "__file__", str(root / name))
            monkeypatch.setitem(sys.modules, f"_fake_{len(sys.modules)}", module)
    dirs, kept, cut = snapshot.archive_files(str(root))
    assert sorted(p.removeprefix(f"{root}/") for p in kept) == [
        "IPython/core/later.py",
        "anywidget-0.11.0.dist-info/METADATA",
        "tartli/locale/hu/LC_MESSAGES/tartli.mo",
        "tartli/rules.py",
    ]
    assert str(root) in dirs and str(root / "IPython" / "core") in dirs
    assert cut == {
        "already imported": 2,
        "an extension for JupyterLab or the notebook": 2,
        "a translation source": 1,
        "the course's server or build": 1,
    }


# ---------------------------------------------------------------- a page's first screen
@pytest.mark.parametrize("lang", ["en", "hu", "de"])
def test_every_page_has_a_first_screen_in_its_own_language(lang: str) -> None:
    """The words a static page shows before its Python starts: its title and summary (the index: its opening
    words and a link to every page, to the page's copy in the same language), and what is being got ready."""
    from tartli import i18n
    from tartli.course import welcome
    from tartli.site.preview import STATUS, first_screen
    from tartli.widgets.steps import markdown_html

    i18n.set_language(lang)
    try:
        wanted = {page.file: (i18n._(page.title), i18n._(page.summary)) for page in PAGES}
        opening = markdown_html(welcome(static=True))
        status = i18n._(STATUS)
    finally:
        i18n.set_language("en")
    for page in PAGES:
        text = first_screen(page, lang)
        assert i18n.language() == "en"  # the build's own language is left as it was
        assert html_escape(status) in text
        assert ".ipynb" not in text  # static pages link to static pages
        if page is PAGES[0]:
            assert opening in text
            links = re.findall(r'<a href="([^"]+)" target="_self">([^<]+)</a>', text)
            assert len(links) == len(PAGES)  # the rule book's link in the opening words, and every other page
            for other in PAGES[1:]:
                assert (page_url(other, static=True, lang=lang), html_escape(wanted[other.file][0])) in links
        else:
            title, summary = wanted[page.file]
            assert f"<h1>{html_escape(title)}</h1><p>{html_escape(summary)}</p>" in text
    if lang != "en":
        assert first_screen(PAGES[1], lang) != first_screen(PAGES[1], "en")


def test_the_built_pages_carry_their_first_screen(tmp_path: Path) -> None:
    """Every notebook the site is built from (each page in each language) carries its first screen."""
    from tartli.names import LANGUAGES
    from tartli.site.preview import first_screen

    contents = builder._contents(tmp_path)
    for page in PAGES:
        for lang in LANGUAGES:
            name = page_url(page, static=True, lang=lang).removesuffix(".html") + ".ipynb"
            notebook = json.loads((contents / name).read_text(encoding="utf-8"))
            assert notebook["metadata"]["tartli"]["first_screen"] == first_screen(page, lang), name
            assert notebook["metadata"]["tartli"]["title"]  # what the notebook's own metadata held is kept


def _fetch(base: str, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(base + path, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_the_static_server_closes_idle_connections_and_answers_meanwhile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """1,000 connections that send nothing (or half a request) hold no thread, a browser's request
    is answered meanwhile, and each is closed once its read timeout (10 s) is over, or sooner when
    it is among the oldest of more than 512 waiting. (As the server is started for a class.)"""
    import threading
    import time

    (tmp_path / "index.html").write_text("<p>hi</p>", encoding="utf-8")
    threads_before = threading.active_count()
    server, base = site.serve_in_thread(tmp_path)
    host, port = server.server_address[:2]
    idle: list[socket.socket] = []
    try:
        opened = time.perf_counter()
        for n in range(1000):
            sock = socket.create_connection((str(host), port))
            if n % 2:
                sock.sendall(b"GET /index.html HTTP/1.1\r\nHost: x\r\n")  # half a request, never ended
            idle.append(sock)
        threads_with_idle = threading.active_count()
        began = time.perf_counter()
        assert _fetch(base, "index.html") == (200, b"<p>hi</p>")
        answered = time.perf_counter() - began
        for sock in idle:
            sock.settimeout(30)  # a watchdog: a connection kept open for ever fails here, not hangs
            assert sock.recv(1024) == b""
        closed = time.perf_counter() - opened
        log = capsys.readouterr().err
        with capsys.disabled():
            print(
                f"\n1,000 idle connections: {threads_with_idle - threads_before} threads more than before;"
                f" a request answered in {answered * 1000:.1f} ms meanwhile; all closed {closed:.1f} s after"
                f" the first opened (read timeout 10 s); log: {log.strip()!r}"
            )
        assert threads_with_idle - threads_before <= 10  # the gathering thread and the workers: none per connection
        assert getattr(server, "closed_idle", None) == 1000
        assert "Traceback" not in log
        assert all(len(line) < 400 for line in log.splitlines())
    finally:
        for sock in idle:
            sock.close()
        server.shutdown()
        server.server_close()


def test_the_static_server_closes_the_oldest_waiting_connection_when_too_many_wait(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<p>hi</p>", encoding="utf-8")
    server, base = site.serve_in_thread(tmp_path, read_timeout=60.0, max_waiting=20, log=io.StringIO())
    host, port = server.server_address[:2]
    idle = [socket.create_connection((str(host), port)) for _ in range(100)]
    try:
        assert _fetch(base, "index.html") == (200, b"<p>hi</p>")  # it waited behind 100 idle ones
        idle[0].settimeout(30)
        assert idle[0].recv(1024) == b""  # the oldest was closed long before its 60 s
    finally:
        for sock in idle:
            sock.close()
        server.shutdown()
        server.server_close()


def test_the_static_server_answers_odd_requests_in_one_line_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A NUL byte in the path is a 400 (it was a dropped connection and a 29-line traceback), a
    folder without index.html is a 404 (it was a listing of its files), a 60 KB address is logged in
    one short line."""
    (tmp_path / "index.html").write_text("<p>hi</p>", encoding="utf-8")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "secret-name.txt").write_text("x", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "index.html").write_text("<p>sub</p>", encoding="utf-8")
    server, base = site.serve_in_thread(tmp_path)
    try:
        for path in ("%00", "a%00b.html", "sub/%00", "data/%00/x"):
            assert _fetch(base, path)[0] == 400, path
        code, body = _fetch(base, "data/")
        assert code == 404 and b"secret-name" not in body
        assert _fetch(base, "sub/") == (200, b"<p>sub</p>")  # a folder with its index: the page
        assert _fetch(base, "x" * 60_000)[0] in (404, 414)
        assert _fetch(base, "index.html") == (200, b"<p>hi</p>")
    finally:
        server.shutdown()
        server.server_close()
    printed = capsys.readouterr()
    lines = printed.err.splitlines()
    assert "Traceback" not in printed.err + printed.out
    assert len(lines) == 6, lines  # the four 400s and two 404s
    assert all(len(line) <= 320 for line in lines), max(map(len, lines))
    assert lines[0].startswith("tartli.site: 400 127.0.0.1 GET /%00 HTTP/1.1"), lines[0]
