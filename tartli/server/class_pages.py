"""The class's two pages on the course's server (issue 37): the pupil's part of every page, and the teacher's page.

``tartli/class/pupil.js?lang=hu`` is a script every page of the course's server loads (its template
asks for it when the server says it has a class API: the cookie :data:`API_COOKIE`): the course map's
box to join or leave a class, and the reports of a pupil's progress (``pages/pupil.js`` says how).

``tartli/teacher?lang=hu`` is the teacher's page, a page of its own without a kernel: the teacher
link (``tartli/teacher#class=CODE&key=KEY``) keeps the class's code and key after ``#``, which a
browser never sends to a server (nor to a page a link leads to), so the key is in no log; the page
posts it with each request of the class API (:mod:`tartli.server.classes`). Without a key the page
opens a class (its code and key typed) or makes a new one. Its view (:func:`tartli.classview.class_view`)
is asked for every 3 seconds.

Both are in the page's language (the address's ``?lang=``, else the learner's own choice, the class
language, the browser's), their words from the course's catalogs.
"""

from __future__ import annotations

import functools
import html
import json
from pathlib import Path
from typing import Any

import tornado.web

from tartli.classview import TABLE_CSS
from tartli.course import PAGES, Page
from tartli.i18n import N_, catalog
from tartli.server.classroom import ClassFolder
from tartli.worksheets import lessons

PAGES_DIR = Path(__file__).resolve().parent / "pages"
API_COOKIE = "tartli_class_api"
"""Set by the course's server on its pages: the page template loads the pupil's script only where there is
a class API to report to (not on Binder's server, not in the static edition)."""

PUPIL_WORDS = {
    "title": N_("Your class"),
    "invite": N_("In a class? Type the code your teacher gives you and your first name."),
    "code": N_("Class code"),
    "name": N_("Your first name"),
    "join": N_("Join the class"),
    "joined": N_("You have joined the class. Your teacher now sees your progress."),
    "noCode": N_("Type the class code your teacher gave you."),
    "noName": N_("Type your first name."),
    "wrongCode": N_("No class has that code: check it with your teacher."),
    "tooMany": N_("Too many tries: wait a minute, then try again."),
    "busy": N_("The course's server is busy: try again in a moment. Your progress stays in this browser."),
    "inClass": N_("You are in the class {class} as {name}."),
    "whatIsSent": N_(
        "Your teacher sees your first name, your stars, the steps you have done and the step you are on; "
        "nothing else, and only on this course's server."
    ),
    "leave": N_("Leave the class"),
    "leaveAsk": N_("Leave the class? Your teacher will no longer see your progress; it stays in this browser."),
    "left": N_("You have left the class: the server keeps nothing of you now."),
    "gone": N_("You are no longer in the class: your teacher closed it or removed you."),
    "playClassmate": N_("Play a classmate"),
    "tablesOpen": N_("Tables waiting for a player in your class: {n}."),
}

TEACHER_WORDS = {
    "title": N_("Your class"),
    "classTitle": N_("Class {class}"),
    "notAllowed": N_("This teacher link does not work: the class was closed, or it has a new teacher link."),
    "busy": N_("The course's server did not answer: it tries again in a moment."),
    "noName": N_("Give the class a name, such as 7.b."),
    "tooMany": N_("Too many tries: wait a minute, then try again."),
    "made": N_("The class is made. Keep this page's address: it is your teacher link, for you only."),
    "updated": N_("Updated at {time}; updates by itself every 3 seconds."),
    "removeAsk": N_("Remove {name} from the class? Everything kept of them is deleted."),
    "removed": N_("{name} is removed from the class."),
    "newKeyAsk": N_("Make a new teacher link? The old one stops working."),
    "newKey": N_("This page's address is your new teacher link; the old one no longer works."),
    "closeAsk": N_(
        "Close the class? Every pupil's progress kept on the server is deleted; it stays in their browsers."
    ),
    "closed": N_("The class is closed: the server keeps nothing of it."),
    "game": N_("{first} against {second}: hand {hand}, trick {trick}, points {points}, games won {won}"),
    "gameWaiting": N_("{name} waits for a classmate at a table"),
    "watch": N_("Watch"),
    "noLesson": N_("No lesson is prepared yet: choose one and press “Prepare for the class”."),
    "needsClassSize": N_(
        "The course's server was started without a class size, so it prepares no lesson. To prepare one, start it "
        "with the number of pupils, for example: tartli course --class-size 30"
    ),
}

TEACHER_PAGE_WORDS = {
    "OPEN_TITLE": N_("Open your class"),
    "OPEN_TEXT": N_("Your teacher link opens your class by itself. Or type the class code and your teacher key:"),
    "CODE_LABEL": N_("Class code"),
    "KEY_LABEL": N_("Teacher key"),
    "OPEN_BUTTON": N_("Open the class"),
    "MAKE_TITLE": N_("Make a new class"),
    "MAKE_TEXT": N_(
        "The pupils join with a class code and their first name; no passwords, no email. The server keeps their "
        "names and progress on this machine only, until you close the class."
    ),
    "NAME_LABEL": N_("Name of the class"),
    "MAKE_BUTTON": N_("Make the class"),
    "CODE_INTRO": N_("Class code:"),
    "JOIN_INTRO": N_("Pupils join on the course map, or with this link:"),
    "CSV_BUTTON": N_("Download the table (CSV)"),
    "NEW_KEY_BUTTON": N_("New teacher link"),
    "CLOSE_BUTTON": N_("Close the class"),
    "GAMES_TITLE": N_("Games between pupils"),
    "STOP_WATCHING": N_("Stop watching"),
    "SHEETS_TITLE": N_("Worksheets"),
    "SHEETS_TEXT": N_(
        "A lesson's worksheet to print, with its answer key on a page of its own. Each sheet number gives other "
        "tasks, so each pupil can have their own."
    ),
    "SHEET_LESSON": N_("Lesson"),
    "SHEET_NUMBER": N_("Sheet number"),
    "SHEET_BUTTON": N_("Open the sheet"),
    "LESSON_TITLE": N_("Lesson of the day"),
    "LESSON_TEXT": N_(
        "The server makes the lesson you choose ready ahead, so that the whole class can open it at once without "
        "waiting."
    ),
    "PREPARE_BUTTON": N_("Prepare for the class"),
}

_LANGUAGE_NAMES = (("en", "EN", "English"), ("hu", "HU", "magyar"), ("de", "DE", "Deutsch"))


def language_links(lang: str) -> str:
    """The links of a page of its own to itself in each language (``lang`` marked as the page's)."""
    return "<span> | </span>".join(
        f"<a href='?lang={code}' data-lang='{code}' lang='{code}' title='{title}'"
        + (" aria-current='true'" if code == lang else "")
        + f">{label}</a>"
        for code, label, title in _LANGUAGE_NAMES
    )


def page_css() -> str:
    """The look shared by the course server's pages of their own (the teacher's, a table for two's): the page's
    ``__PAGE_CSS__`` (a page may set ``--page-width``)."""
    return _page_file("page.css")


def _words(words: dict[str, str], lang: str) -> dict[str, str]:
    tr = catalog(lang).gettext
    return {key: tr(text) for key, text in words.items()}


def _script_json(value: Any) -> str:
    """JSON to put inside a ``<script>`` (no ``</script>`` or ``<!--`` can end it early)."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")


@functools.cache
def _page_file(name: str) -> str:
    """A page's file (read once: the pupil's script is asked for by every page a pupil opens)."""
    return (PAGES_DIR / name).read_text(encoding="utf-8")


def pupil_script(lang: str, base_url: str, has_classes: bool) -> str:
    """The pupil's script in ``lang``."""
    text = _page_file("pupil.js")
    return (
        text.replace("__WORDS__", _script_json(_words(PUPIL_WORDS, lang)))
        .replace("__BASE__", _script_json(base_url))
        .replace("__CLASSES__", "true" if has_classes else "false")
    )


def teacher_page(lang: str, base_url: str) -> str:
    """The teacher's page in ``lang``."""
    tr = catalog(lang).gettext
    text = _page_file("teacher.html")
    fill = {key: html.escape(tr(words)) for key, words in TEACHER_PAGE_WORDS.items()}
    options = "".join(
        f"<option value='{number}'>{html.escape(page_label(page, tr))}</option>"
        for number in lessons()
        for page in PAGES
        if page.file.startswith(number + "_")
    )
    fill |= {
        "SHEET_OPTIONS": options,
        "LESSON_OPTIONS": "".join(
            f"<option value='{html.escape(page.file)}'>{html.escape(page_label(page, tr))}</option>" for page in PAGES
        ),
        "TABLE_CSS": TABLE_CSS,
        "LANG": lang,
        "TITLE": html.escape(tr(TEACHER_WORDS["title"])),
        "LANGUAGES": language_links(lang),
        "PAGE_CSS": page_css(),
        "WORDS": _script_json(_words(TEACHER_WORDS, lang) | {"lessonReady": lesson_ready_forms(lang)}),
        "BASE": _script_json(base_url),
    }
    return fill_blanks(text, fill)


def lesson_ready_forms(lang: str) -> list[str]:
    """The lesson of the day's line for one page wanted and for more (the page picks by the count it shows)."""
    ngettext = catalog(lang).ngettext
    return [
        ngettext(
            "{lesson}: {ready} of {wanted} page ready for the class.",
            "{lesson}: {ready} of {wanted} pages ready for the class.",
            count,
        )
        for count in (1, 2)
    ]


def page_label(page: Page, tr: Any) -> str:
    """A page's name in the teacher's list of lessons: "3. The deal" (a page without a number: its title)."""
    number = page.file.split("_", 1)[0]
    return f"{int(number)}. {tr(page.title)}" if number.isdigit() else str(tr(page.title))


def fill_blanks(text: str, fill: dict[str, str]) -> str:
    """A page file with each ``__KEY__`` of ``fill`` replaced by its value."""
    for key, value in fill.items():
        text = text.replace(f"__{key}__", value)
    return text


class _PageHandler(tornado.web.RequestHandler):
    def initialize(self, classes: ClassFolder) -> None:
        self.classes = classes

    def language(self) -> str:
        from tartli.server.app import request_language  # (the app imports this module)

        return request_language(self, self.get_query_argument("lang", None))

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")


class PupilScriptHandler(_PageHandler):
    def get(self) -> None:
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.finish(pupil_script(self.language(), self.settings.get("base_url", "/"), self.classes.has_classes()))


class TeacherPageHandler(_PageHandler):
    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("X-Frame-Options", "DENY")
        self.finish(teacher_page(self.language(), self.settings.get("base_url", "/")))


def class_page_handlers(base_url: str, classes: ClassFolder) -> list[Any]:
    """The two pages' routes under ``base_url``."""
    return [
        (f"{base_url}tartli/class/pupil.js", PupilScriptHandler, {"classes": classes}),
        (f"{base_url}tartli/teacher", TeacherPageHandler, {"classes": classes}),
    ]
