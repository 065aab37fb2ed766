"""The static edition's build helpers that need no network (the whole build: tests/browser/test_static.py)."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tartli import site
from tartli.course import PAGES, nav_html, page_url
from tartli.site import builder
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
        assert sent == [4]  # the benchmark's count of bytes sent
        with urllib.request.urlopen(base) as response:
            assert b"hi" in response.read()
        assert base.startswith("http://127.0.0.1:")
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
