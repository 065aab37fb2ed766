"""The sdist and the wheel, built from the repository, hold the whole course; an installed wheel finds it.

The pages live in ``notebooks/`` at the top of the repository and nowhere else (no symbolic link,
which a Windows clone or a zip download does not keep): the build maps the package
``tartli.notebooks`` to that folder (pyproject.toml), so the wheel has them as ``tartli/notebooks``.
The build runs on a copy of the checkout (symbolic links copied as links, so that one would show),
with this venv's setuptools (``python -m build --no-isolation``: no download), as the sdist first and
the wheel from the sdist, the way a package index gets them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest

from tartli.course import PAGES, notebooks_dir

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = Path("tartli/server/jupyter/voila/templates/tartli")
SERVER_JSON = Path("tartli/server/voila.json")
IGNORED = shutil.ignore_patterns(  # .gitignore's names, and git's own folder
    ".git",
    ".venv",
    "__pycache__",
    "*.egg-info",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    "build",
    "dist",
    "*.tmp",
    ".site-cache",
    "_site",
)


def package_files(root: Path) -> list[str]:
    """The files of the package folder ``tartli/`` under ``root``, as paths relative to ``root``."""
    return sorted(
        p.relative_to(root).as_posix()
        for p in (root / "tartli").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    )


def template_files() -> list[str]:
    files = sorted(p.name for p in (ROOT / TEMPLATE).iterdir() if p.is_file())
    assert {"conf.json", "index.html.j2"} <= set(files)
    return [(TEMPLATE / name).as_posix() for name in files]


class Built:
    def __init__(self, source: Path, sdist: Path, wheel: Path) -> None:
        self.source = source
        self.sdist = sdist
        self.wheel = wheel
        with zipfile.ZipFile(wheel) as archive:
            self.wheel_files = {name: archive.read(name) for name in archive.namelist()}
        with tarfile.open(sdist) as archive:
            top = sdist.name.removesuffix(".tar.gz") + "/"
            self.sdist_files: dict[str, bytes] = {}
            for member in archive.getmembers():
                assert (member.name + "/").startswith(top), member.name  # one folder, tartli-VERSION/
                if member.isfile():
                    data = archive.extractfile(member)
                    assert data is not None
                    self.sdist_files[member.name.removeprefix(top)] = data.read()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The sdist and the wheel of a copy of this checkout."""
    source = tmp_path_factory.mktemp("checkout") / "tartli"
    shutil.copytree(ROOT, source, symlinks=True, ignore=IGNORED)
    out = source.parent / "dist"
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (sdist,) = out.glob("tartli-*.tar.gz")
    (wheel,) = out.glob("tartli-*-py3-none-any.whl")
    return Built(source, sdist, wheel)


def test_the_repository_has_no_symbolic_links(built: Built) -> None:
    links = [p.relative_to(built.source).as_posix() for p in built.source.rglob("*") if p.is_symlink()]
    assert links == []


def test_the_pages_live_in_notebooks_and_a_clone_finds_them_there() -> None:
    assert not (ROOT / "tartli" / "notebooks").exists()  # the wheel's folder, made by the build only
    assert notebooks_dir() == ROOT / "notebooks"
    for page in PAGES:
        assert (notebooks_dir() / page.file).is_file(), page.file


def test_the_wheel_ships_every_page_the_template_and_the_server_settings(built: Built) -> None:
    for page in PAGES:
        name = f"tartli/notebooks/{page.file}"
        assert name in built.wheel_files, name
        assert built.wheel_files[name] == (built.source / "notebooks" / page.file).read_bytes(), name
    for name in [*template_files(), SERVER_JSON.as_posix()]:
        assert name in built.wheel_files, name
    json.loads(built.wheel_files[SERVER_JSON.as_posix()])


def test_the_wheel_ships_every_file_of_the_package(built: Built) -> None:
    """pyproject.toml lists the packages one by one: a new subpackage or data folder must be added there."""
    missing = [name for name in package_files(built.source) if name not in built.wheel_files]
    assert missing == []
    pages = {f"tartli/notebooks/{page.file}" for page in PAGES}
    stray = [
        name
        for name in built.wheel_files
        if name.startswith("tartli/notebooks/") and name not in pages and not name.endswith(".ipynb")
    ]
    assert stray == []  # nothing but notebooks from notebooks/ (no __init__.py, no checkpoints)


def test_the_sdist_ships_every_page_the_template_and_the_server_settings(built: Built) -> None:
    for page in PAGES:
        assert f"notebooks/{page.file}" in built.sdist_files, page.file
    for name in [*template_files(), SERVER_JSON.as_posix(), "pyproject.toml", "README.md"]:
        assert name in built.sdist_files, name
    missing = [name for name in package_files(built.source) if name not in built.sdist_files]
    assert missing == []


def test_an_installed_wheel_finds_its_pages_in_a_fresh_venv(built: Built, tmp_path: Path) -> None:
    """A new venv with the wheel alone (``--no-deps``: the course map, the app's settings and the engine
    need the standard library only); run away from the checkout, so that nothing is imported from it."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}  # nothing from here
    pip = [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check"]
    done = subprocess.run(
        [*pip, "install", "--quiet", "--no-deps", "--no-index", str(built.wheel)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    script = textwrap.dedent(
        """
        import json, sys
        from pathlib import Path
        import tartli, tartli.app
        from tartli import i18n
        from tartli.course import PAGES, notebooks_dir
        pages = notebooks_dir()
        print(json.dumps({
            "package": str(Path(tartli.__file__).resolve().parent),
            "pages": str(pages),
            "missing": [p.file for p in PAGES if not (pages / p.file).is_file()],
            "served": tartli.app.voila_command()[3],
            "template": sorted(p.name for p in (tartli.app.DATA_DIR / "voila" / "templates" / "tartli").iterdir()),
            "settings": sorted(tartli.app.settings()),
            "prefix": sys.prefix,
            "hungarian": (i18n.set_language("hu"), i18n._("Continue"), i18n.LOCALE_DIR.is_relative_to(sys.prefix))[1:],
        }))
        """
    )
    run = subprocess.run(
        [str(python), "-I", "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert Path(found["prefix"]).resolve() == venv.resolve()
    package = Path(found["package"])
    assert package.is_relative_to(venv.resolve()) and package.parent.name == "site-packages", package
    assert Path(found["pages"]) == package / "notebooks"
    assert found["missing"] == []
    assert found["served"] == found["pages"]
    assert found["template"] == sorted(Path(name).name for name in template_files())
    assert "Voila" in found["settings"]
    assert found["hungarian"] == ["Tovább", True]  # the compiled catalogs are in the wheel, read by the stdlib
    assert (venv / ("Scripts/tartli.exe" if os.name == "nt" else "bin/tartli")).is_file()
