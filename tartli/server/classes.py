"""The class's web API on the course's server (issue 37): pupils join, report and leave; the teacher reads.

Every request is a ``POST`` of a small JSON object (``Content-Type: application/json``: a page of
another site cannot send one without the browser asking the server first, and the server never
says yes), and every answer is JSON. Under the server's base address:

``tartli/class/join``   ``{"code": "AB3K9M", "name": "Anna"}`` -> ``{"pupil", "token", "name"}``; at most
                        10 tries a minute per browser and 120 in all (:class:`~tartli.server.classroom.Limiter`),
                        then 429.
``tartli/class/report`` ``{"token", "progress": {localStorage key: text}, "page", "step"}`` -> 204; the
                        progress is what the browser holds (the course map's keys), made into a progress
                        code and checked (:func:`~tartli.server.classroom.checked_progress`): a forged one is 400.
``tartli/class/leave``  ``{"token"}`` -> 204: everything kept of the pupil is deleted.
``tartli/class/teacher`` ``{"code", "key", "do": "view" | "csv" | "pupils" | "remove" | "prepare" | "new-key" |
                        "close", "pupil", "page", "lang"}`` -> JSON: ``view`` is the teacher page's table as HTML
                        (:func:`tartli.classview.class_view`) and the lesson of the day (``lesson``: its page, the
                        kernels ready and wanted; null on a server started without ``--class-size``), ``csv`` the
                        same as CSV, ``pupils`` the data; ``prepare`` makes ``page`` the lesson of the day (409 on a
                        server started without ``--class-size``, 400 for a name that is no page).
``tartli/class/make``   ``{"name": "7.b"}`` -> ``{"code", "key", "class"}``: a new class (the teacher page's button;
                        behind the same limiter as joins, at most ``MAX_CLASSES`` on a server).

A wrong key, a token not known or a class that does not exist is 403 with the same body for all.
A store that cannot write (a full disk, a locked file) is 503 and one line in the server's log: the
pupil's page keeps its progress in the browser and reports it again later.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from typing import Any, NoReturn

import tornado.web

from tartli.classview import Pupil, class_csv, class_view
from tartli.course import Page
from tartli.server.classroom import (
    BadReport,
    ClassFolder,
    ClassroomError,
    ClassStore,
    Limiter,
    NotAllowed,
    PupilRecord,
    checked_browser_progress,
    normal_code,
)
from tartli.server.logs import Throttle

Answer = tuple[int, "dict[str, Any] | None"]
"""An action's answer: its status and its JSON (None: no body)."""

_STORE_TROUBLE = Throttle(per_window=1, window=300.0)
"""A store that cannot write is one line in the log every 5 minutes, not one a report."""


class Refused(Exception):
    """An action refused with ``status`` (and words for the page)."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status, self.why = status, why


NO_CLASS_SIZE = (
    "the course was started without --class-size: start it with --class-size and the number of pupils "
    "(tartli course --class-size 30) to prepare a lesson for the class"
)
"""The answer to the teacher's ``prepare`` on a server that prepares nothing for a class."""

MAX_BODY = 64 * 1024
"""The largest request body read (a whole course's progress is a few kilobytes)."""

log = logging.getLogger("tartli")


class JsonHandler(tornado.web.RequestHandler):
    """A handler of a JSON API of the course's server (the class's, :mod:`tartli.server.duel_api`'s): a ``POST``
    of one JSON object (``Content-Type: application/json``, at most :attr:`max_body` bytes), an answer of JSON,
    an error as ``{"error": words, ...}``."""

    max_body = MAX_BODY
    error_body: dict[str, Any] | None = None
    """What the error answer says (in the JSON body; the status line keeps tornado's own words)."""

    def check_xsrf_cookie(self) -> None:
        """JSON only (see the module's notes): no form of another site can post one."""

    def set_default_headers(self) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish(self.error_body or {"error": "refused"})

    def _fail(self, status: int, why: str, **more: Any) -> NoReturn:
        self.error_body = {"error": why.replace("\n", " ")[:300], **more}
        raise tornado.web.HTTPError(status)

    def _body(self) -> dict[str, Any]:
        kind = (self.request.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            self._fail(415, "send JSON (Content-Type: application/json)")
        if len(self.request.body) > self.max_body:
            self._fail(413, "too large")
        try:
            data = json.loads(self.request.body or b"null")
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict):
            self._fail(400, "send a JSON object")
        return data

    def _client(self) -> str:
        """Who is trying, for a limiter: the browser (the course's visitor cookie, if the course's server issued
        it: a made-up one would give a script a fresh limit at every try), else its address."""
        cookie = self.get_cookie("tartli_visitor", "") or ""
        app = self.settings.get("tartli_app")
        if app is not None:
            name = app.visitor_of(cookie)
            return f"v:{name}" if name else f"ip:{self.request.remote_ip}"
        return cookie or f"ip:{self.request.remote_ip}"  # (the API served on its own, as its tests serve it)


class ClassHandler(JsonHandler):
    """One action of the class API (``initialize`` says which)."""

    def initialize(self, classes: ClassFolder, limiter: Limiter, action: str) -> None:
        self.classes, self.limiter, self.action = classes, limiter, action

    @property
    def store(self) -> ClassStore:
        return self.classes.store()

    async def post(self) -> None:
        data = self._body()
        self.client, self.pages = self._client(), self.settings.get("base_url", "/") + "voila/render/"
        action = getattr(self, "_" + self.action.replace("-", "_"))
        try:
            # the store's work in a thread: a locked file waits up to 5 s there, not in the server's one loop
            status, answer = await asyncio.get_running_loop().run_in_executor(None, action, data)
            if self.action == "teacher" and data.get("do") in ("view", "prepare") and answer is not None:
                answer = {**answer, **self._lesson_of_the_day(data)}  # (here: the kernels are the loop's)
        except Refused as refused:
            self._fail(refused.status, refused.why)
        except NotAllowed:
            if self.action in ("report", "leave"):
                self._note_pupil(present=False)  # removed, or the class closed: no longer a pupil's browser
            self._fail(403, "not allowed")
        except BadReport as error:
            self._fail(400, str(error))
        except ClassroomError as error:
            self._fail(400, str(error))
        except sqlite3.Error as error:  # a full disk, a locked file: the page keeps its progress and tries again
            allowed, dropped = _STORE_TROUBLE.allow("store")
            if allowed:
                more = f" ({dropped} more in the last 5 minutes)" if dropped else ""
                log.warning(
                    "tartli: the class store could not write (%s)%s; the pupils' pages keep their progress and "
                    "report again",
                    error,
                    more,
                )
            self._fail(503, "the class store is busy; your progress stays in this browser")
        if self.action in ("join", "report", "leave"):
            self._note_pupil(present=self.action != "leave")
        self.set_status(status)
        if answer is None:
            self.finish()
        else:
            self.finish(answer)

    # ---------------------------------------------------------------- the pupil
    def _note_pupil(self, present: bool) -> None:
        """Tell the course's server (not the API served on its own) whether this browser is a pupil's now: on a
        full server a pupil's page comes first (:class:`tartli.server.kernels.ClassPupils`)."""
        pupils = getattr(self.settings.get("tartli_app"), "class_pupils", None)
        if pupils is not None and self.client.startswith("v:"):
            pupils.note(self.client[2:], present=present)

    def _join(self, data: dict[str, Any]) -> Answer:
        if not self.limiter.allow(self.client):
            raise Refused(429, "too many tries: wait a minute")
        joined = self.store.join(data.get("code"), data.get("name"))
        return 200, {"pupil": joined.pupil, "token": joined.token, "name": joined.name, "class": joined.class_name}

    def _report(self, data: dict[str, Any]) -> Answer:
        code = checked_browser_progress(data.get("progress"))
        self.store.report(data.get("token"), code, page=data.get("page"), step=data.get("step"))
        return 204, None

    def _leave(self, data: dict[str, Any]) -> Answer:
        self.store.leave(data.get("token"))
        return 204, None

    # ---------------------------------------------------------------- the teacher
    def _make(self, data: dict[str, Any]) -> Answer:
        """A new class, made on the teacher's page of a running server (behind the same limiter as joins)."""
        if not self.limiter.allow(self.client):
            raise Refused(429, "too many tries: wait a minute")
        made = self.classes.store(create=True).create(data.get("name"))
        return 200, {"code": made.code, "key": made.key, "class": made.name}

    def _lesson_of_the_day(self, data: dict[str, Any]) -> dict[str, Any]:
        """The teacher's ``prepare`` (the key checked already, in :meth:`_teacher`) and what ``view`` says of the
        lesson prepared for the class: ``{"lesson": {"page", "ready", "wanted"} | None}`` (None: the server
        prepares nothing for a class; ``TartliVoila.lesson_of_the_day``)."""
        app = self.settings.get("tartli_app")
        if data.get("do") == "prepare":
            page = data.get("page")
            if not isinstance(page, str) or not page.strip():
                raise Refused(400, "page: the lesson to prepare, e.g. 03 or 03_deal")
            if app is None:  # (the API served on its own: no kernels)
                raise Refused(409, NO_CLASS_SIZE)
            prepared: dict[str, Any] = app.prepare_lesson(page)
            return {"lesson": prepared}
        return {"lesson": app.lesson_of_the_day() if app is not None else None}

    def _teacher(self, data: dict[str, Any]) -> Answer:
        code, key, do = data.get("code"), data.get("key"), data.get("do")
        if not isinstance(code, str) or not isinstance(key, str):
            raise NotAllowed("not allowed")
        if do in ("view", "csv"):
            lang = str(data.get("lang")) if data.get("lang") in ("en", "hu", "de") else "en"
            seen = [_view_pupil(p) for p in self.store.pupils(code, key)]
            if do == "view":
                pages = self.pages

                def link(page: Page, step: int) -> str:
                    return f"{pages}{page.file}?lang={lang}#step-{step}"

                view = class_view(seen, lang, now=self.store.clock(), remove=True, link=link)
                return 200, {"class": self.store.name_of(code, key), "code": normal_code(code), "html": view}
            name = self.store.name_of(code, key)
            file = "".join(c if c.isalnum() or c in "._-" else "_" for c in name) or "class"
            return 200, {"csv": class_csv(seen, lang), "file": f"tartli-{file}.csv"}
        if do == "pupils":
            pupils = [_pupil(p) for p in self.store.pupils(code, key)]
            return 200, {"class": self.store.name_of(code, key), "pupils": pupils}
        if do == "remove":
            pupil = data.get("pupil")
            if type(pupil) is not int:
                raise ClassroomError("pupil: the pupil's number")
            return 200, {"removed": self.store.remove(code, key, pupil)}
        if do == "prepare":  # (the lesson itself is prepared on the server's loop: _lesson_of_the_day)
            return 200, {"class": self.store.name_of(code, key)}
        if do == "new-key":
            return 200, {"key": self.store.new_key(code, key)}
        if do == "close":
            self.store.close_class(code, key)
            return 200, {"closed": True}
        raise ClassroomError("do: view, csv, pupils, remove, prepare, new-key or close")


def _pupil(record: PupilRecord) -> dict[str, Any]:
    """What the teacher's page gets of a pupil (their progress as the store keeps it)."""
    return {
        "pupil": record.pupil,
        "name": record.name,
        "joined": record.joined,
        "last_active": record.last_active,
        "page": record.page,
        "step": record.step,
        "since": record.since,
        "stars": record.stars,
        "steps": record.progress.get("steps", {}),
    }


def _view_pupil(record: PupilRecord) -> Pupil:
    return Pupil(
        record.name,
        record.progress.get("records", {}),
        record.progress.get("steps", {}),
        number=record.pupil,
        last_active=record.last_active,
        page=record.page,
        step=record.step,
        since=record.since,
        hands=record.progress.get("hands", {}),
    )


def class_handlers(base_url: str, classes: ClassFolder, limiter: Limiter | None = None) -> list[Any]:
    """The API's routes under ``base_url`` (one limiter for all of them)."""
    limiter = limiter or Limiter()
    return [
        (f"{base_url}tartli/class/{action}", ClassHandler, {"classes": classes, "limiter": limiter, "action": action})
        for action in ("join", "report", "leave", "teacher", "make")
    ]
