"""The documentation (docs/): it builds with warnings as errors, its examples run, it loads nothing from
the network, the API reference holds the engine, the bots and share, and the README stays a short
page that points into it (the README's test command runs this file, so CI builds the docs).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)\s]*)?\)")  # a Markdown link's target, without its anchor
REMOTE = re.compile(r"""<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=["'](?:https?:)?//""", re.I)

pytest.importorskip("sphinx", reason="the docs extra (pip install -e '.[test]' brings it)")


def sphinx(builder: str, out: Path, doctrees: Path) -> subprocess.CompletedProcess[str]:
    """``sphinx-build -W --keep-going -b BUILDER docs OUT``, the documentation's build command."""
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", builder, "-d", str(doctrees)]
    return subprocess.run(
        [*command, str(DOCS), str(out)], capture_output=True, text=True, timeout=600, cwd=ROOT, check=False
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("docs")
    done = sphinx("html", out / "html", out / "doctrees")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    assert "WARNING" not in done.stderr, done.stderr[-6000:]
    return out


def test_the_docs_build_with_warnings_as_errors(built: Path) -> None:
    html = built / "html"
    for page in ["index", "learners/course", "teachers/class", "teachers/pupil-against-pupil"]:
        assert (html / f"{page}.html").is_file(), page
    for page in ["translators/index", "contributors/index", "contributors/rule-readings", "benchmarks"]:
        assert (html / f"{page}.html").is_file(), page


def test_the_docs_examples_run_as_doctests(built: Path) -> None:
    done = sphinx("doctest", built / "doctest", built / "doctrees")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    summary = (built / "doctest" / "output.txt").read_text(encoding="utf-8")
    tests = int(re.search(r"^\s*(\d+) tests$", summary, re.M).group(1))  # type: ignore[union-attr]
    assert tests >= 20 and re.search(r"^\s*0 failures in tests$", summary, re.M), summary


def test_a_failing_example_fails_the_doctest_build(tmp_path: Path) -> None:
    """The doctest build above is not vacuous: a wrong answer in a page's example fails it."""
    copy = tmp_path / "docs"
    subprocess.run(["cp", "-r", str(DOCS), str(copy)], check=True)
    page = copy / "contributors" / "engine.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("L 0 ['0: play OA'", "H 0 ['0: play OA'", 1), encoding="utf-8")
    command = [sys.executable, "-m", "sphinx", "-q", "-b", "doctest", str(copy), str(tmp_path / "out")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT, check=False)
    assert done.returncode != 0


def test_the_pages_load_nothing_from_the_network(built: Path) -> None:
    html = built / "html"
    pages = sorted(html.rglob("*.html"))
    assert len(pages) >= 20
    for page in pages:
        found = REMOTE.search(page.read_text(encoding="utf-8"))
        assert found is None, (page.relative_to(html), found and found.group(0))
    for sheet in sorted((html / "_static").rglob("*.css")):
        assert not re.search(r"url\(\s*['\"]?(?:https?:)?//", sheet.read_text(encoding="utf-8")), sheet.name
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert "sphinx.ext.intersphinx" not in conf  # its inventories come from the network


@pytest.mark.parametrize(
    ("page", "names"),
    [
        ("cards", ["tartli.cards.Card", "tartli.cards.Suit", "tartli.cards.Rank"]),
        ("moves", ["tartli.moves.Play", "tartli.moves.parse_move"]),
        ("melds", ["tartli.melds.Meld", "tartli.melds.find_melds"]),
        ("rules", ["tartli.rules.RuleSet"]),
        ("game", ["tartli.game.HandState", "tartli.game.HandState.legal_moves", "tartli.game.PlayerView"]),
        ("match", ["tartli.match.Match"]),
        ("record", ["tartli.record.Record"]),
        ("errors", ["tartli.errors.TartliError", "tartli.errors.IllegalMoveError"]),
        ("bots", ["tartli.bots.search.SearchBot", "tartli.bots.hint.hint", "tartli.bots.review.review"]),
        ("share", ["tartli.share.share_query", "tartli.share.SharedPosition"]),
    ],
)
def test_the_api_reference_is_made_from_the_docstrings(built: Path, page: str, names: list[str]) -> None:
    text = (built / "html" / "api" / f"{page}.html").read_text(encoding="utf-8")
    for name in names:
        assert f'id="{name}"' in text, name


def test_the_readme_is_short_and_its_links_lead_somewhere() -> None:
    readme = README.read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    targets = [t for t in LINK.findall(readme) if not re.match(r"[a-z]+:", t)]
    assert "docs/index.md" in targets and "docs/images/table.png" in targets
    missing = [t for t in targets if not (ROOT / t).exists()]
    assert missing == []
    # the two commands, as .ci/run and tests/run.sh rely on
    assert "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/tartli" in readme
    assert "```sh\nbash tests/run.sh\n```" in readme
    assert "exec bash tests/run.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_every_page_is_in_the_table_of_contents(built: Path) -> None:
    """Every Markdown page of docs/ is built (a page left out of every toctree is a warning: an error under -W)."""
    pages = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)
    assert len(pages) >= 25
    for page in pages:
        assert (built / "html" / page.relative_to(DOCS).with_suffix(".html")).is_file(), page


def test_the_test_command_installs_the_docs_and_read_the_docs_can_build_them() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # no tomllib: Python 3.10 is supported
    test = re.search(r"^test = \[(.*?)^\]", pyproject, re.M | re.S)
    docs = re.search(r"^docs = \[(.*?)^\]", pyproject, re.M | re.S)
    assert test and docs
    assert '"tartli[docs]"' in test.group(1)
    pins = dict(re.findall(r'"([\w-]+)>=([\d.]+)"', docs.group(1)))
    assert set(pins) == {"sphinx", "myst-parser", "pydata-sphinx-theme"}  # lower bounds only
    config = YAML(typ="safe").load((ROOT / ".readthedocs.yaml").read_text(encoding="utf-8"))
    assert config["sphinx"]["configuration"] == "docs/conf.py" and config["sphinx"]["fail_on_warning"] is True
    assert config["python"]["install"] == [{"method": "pip", "path": ".", "extra_requirements": ["docs"]}]
    done = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.readthedocs", ".readthedocs.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
