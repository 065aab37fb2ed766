"""A page's render in the course's server, without compiling its templates again for every page.

Voilà renders every page (a prepared kernel's, as the pool fills; a cold page's, as it is asked for) with a new
nbconvert exporter, and nbconvert gives each exporter a Jinja environment of its own: every page parsed and
compiled the page template and the templates it extends (``index.html.j2``, ``base.html.j2``, nbconvert's
``lab`` and ``display_priority`` ...) again, about half of the server's CPU time for a page's render (py-spy,
issue 39: a class of 10 taking its prepared pages while the pools refill). :data:`TEMPLATE_CODE` keeps the
compiled templates in memory, shared by every exporter of the server (Jinja's own bytecode cache, which checks
each template's source against the code kept for it: an edited template is compiled again).
:func:`share_compiled_templates` makes Voilà's renderer use :class:`CourseExporter`.
"""

from __future__ import annotations

from types import CodeType
from typing import Any

import jinja2
import voila.notebook_renderer as voila_renderer
from voila.exporter import VoilaExporter


class TemplateCode(jinja2.BytecodeCache):
    """Compiled Jinja templates, in memory: by template (its name and file: Jinja's bucket key), its source (the
    bucket's checksum) and what of the environment changes the compiled code (async rendering, extensions,
    autoescape)."""

    def __init__(self) -> None:
        self.code: dict[tuple[str, str, bool, tuple[str, ...], str], CodeType] = {}

    @staticmethod
    def _key(bucket: jinja2.bccache.Bucket) -> tuple[str, str, bool, tuple[str, ...], str]:
        environment = bucket.environment
        return (
            bucket.key,
            bucket.checksum,
            bool(environment.is_async),
            tuple(sorted(environment.extensions)),
            repr(environment.autoescape),
        )

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.code.get(self._key(bucket))
        if code is not None:
            bucket.code = code

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.code is not None:
            self.code[self._key(bucket)] = bucket.code


TEMPLATE_CODE = TemplateCode()
"""The server's compiled templates (a few dozen code objects)."""


class CourseExporter(VoilaExporter):  # type: ignore[misc]
    """Voilà's exporter, its Jinja environment reading compiled templates from :data:`TEMPLATE_CODE`."""

    def _create_environment(self) -> Any:
        environment = super()._create_environment()
        environment.bytecode_cache = TEMPLATE_CODE
        return environment


def share_compiled_templates() -> None:
    """Voilà's page renderer makes :class:`CourseExporter` exporters from now on (in this process)."""
    voila_renderer.VoilaExporter = CourseExporter
