"""Worksheets on the course's server (issue 37): ``tartli/worksheet?lesson=02&seed=7&lang=hu``.

A ``GET`` answers a lesson's printable worksheet with its answer key (:func:`tartli.worksheets.worksheet`),
one standalone HTML page the teacher prints from the browser. ``seed`` (the sheet's number, default 1)
gives each pupil their own tasks; ``lang`` is en, hu or de, and without it the page's language as the
course chooses it for this browser (the learner's switch, the class language, the browser's). A lesson
without a worksheet, a seed that is not a number from 0 to 999999999 or another language is a 400 with one
short line of plain text, never a traceback.
"""

from __future__ import annotations

import logging
from typing import Any

import tornado.web

from tartli.worksheets import WorksheetError, parse_seed, worksheet

log = logging.getLogger("tartli")


class WorksheetHandler(tornado.web.RequestHandler):
    """``GET tartli/worksheet?lesson=02&seed=7&lang=hu``: the sheet as HTML."""

    why = ""
    """What a refusal says (its body, plain text)."""

    def set_default_headers(self) -> None:
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        if status_code >= 500:
            self.finish("the worksheet could not be made; try another seed\n")
        else:
            self.finish((self.why or "bad request") + "\n")

    def get(self) -> None:
        lesson = self.get_query_argument("lesson", "")
        lang = self.get_query_argument("lang", None)
        try:
            seed = parse_seed(self.get_query_argument("seed", "1"))
            page = worksheet(lesson, seed, self._language() if lang is None else lang.strip().lower())
        except WorksheetError as err:
            self.why = " ".join(str(err).split())[:200]
            raise tornado.web.HTTPError(400) from None
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")  # (without lang= the sheet's language is this browser's)
        self.finish(page)

    def _language(self) -> str:
        """The language the course gives this browser's pages (its switch, the class's, the browser's)."""
        from tartli.server.app import request_language  # (the app imports this module)

        return request_language(self, None)


def worksheet_handlers(base_url: str) -> list[Any]:
    """The worksheet's route under ``base_url`` (the server's base address, ending in ``/``)."""
    return [(f"{base_url}tartli/worksheet", WorksheetHandler)]
