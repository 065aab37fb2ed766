"""The server's page renders share their compiled templates (tartli.server.render, issue 39)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jinja2
import pytest
import voila.notebook_renderer
from voila.paths import collect_template_paths

from tartli import app
from tartli.server.render import CourseExporter, TemplateCode, share_compiled_templates


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates Jinja compiles from now on."""
    seen: list[str] = []
    compile_ = jinja2.Environment.compile

    def counted(self: jinja2.Environment, source: Any, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        seen.append(str(name))
        return compile_(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return seen


def test_a_template_is_compiled_once_for_every_environment_until_its_source_changes(
    tmp_path: Path, compiles: list[str]
) -> None:
    (tmp_path / "page.j2").write_text("{% for x in xs %}[{{ x }}]{% endfor %}", encoding="utf-8")
    code = TemplateCode()

    def render() -> str:
        environment = jinja2.Environment(loader=jinja2.FileSystemLoader(tmp_path), bytecode_cache=code)
        return environment.get_template("page.j2").render(xs=[1, 2])

    assert render() == "[1][2]" and compiles == ["page.j2"]
    assert render() == "[1][2]" and compiles == ["page.j2"]  # a second environment: the code kept
    (tmp_path / "page.j2").write_text("{% for x in xs %}<{{ x }}>{% endfor %}", encoding="utf-8")
    assert render() == "<1><2>" and compiles == ["page.j2", "page.j2"]  # an edited template: compiled again


def test_code_compiled_for_async_rendering_is_not_given_to_a_synchronous_environment(
    tmp_path: Path, compiles: list[str]
) -> None:
    (tmp_path / "page.j2").write_text("{{ 1 + 1 }}", encoding="utf-8")
    code = TemplateCode()
    for is_async in (True, False, True):
        environment = jinja2.Environment(
            loader=jinja2.FileSystemLoader(tmp_path), bytecode_cache=code, enable_async=is_async
        )
        environment.get_template("page.j2")
    assert compiles == ["page.j2", "page.j2"]


def test_the_course_pages_exporters_compile_the_page_template_once(
    monkeypatch: pytest.MonkeyPatch, compiles: list[str]
) -> None:
    """Voilà's page renderer makes the course's exporter, and a second page's render compiles none of the templates
    the first one did (the course's page template and the lab and nbconvert templates it extends)."""
    monkeypatch.setattr(voila.notebook_renderer, "VoilaExporter", voila.notebook_renderer.VoilaExporter)
    share_compiled_templates()
    assert voila.notebook_renderer.VoilaExporter is CourseExporter
    monkeypatch.setitem(os.environ, "JUPYTER_PATH", app.environment()["JUPYTER_PATH"])
    paths = collect_template_paths(["voila", "nbconvert"], "tartli")
    first = CourseExporter(template_paths=paths, template_name="tartli")
    first.template  # noqa: B018 (loading it compiles it)
    assert "index.html.j2" in compiles
    before = len(compiles)
    second = CourseExporter(template_paths=paths, template_name="tartli")
    assert second.environment is not first.environment
    second.template  # noqa: B018
    assert len(compiles) == before
