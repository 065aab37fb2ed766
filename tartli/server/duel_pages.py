"""The page where a table for two browsers is opened or joined (issue 38): ``tartli/duel?lang=hu``.

A page of its own on the course's server, without a kernel. *Open a table* asks for the player's first
name and posts it to the duel API (:mod:`tartli.server.duel_api`); the server answers with the table's
code and sets the seat's cookie, and the page goes to the table (``voila/render/table.ipynb?duel=CODE``),
where the opener waits with the code and the link to give a classmate. The classmate's link is this page
with ``?code=CODE``: it asks only for their first name and takes the other seat the same way. A browser
that already holds a seat at that table gets it back (a reload, a phone that locked). The name is filled
in from the class the pupil joined, if any (the pupil's script keeps it in the browser).
"""

from __future__ import annotations

import html

import tornado.web

from tartli.i18n import N_, catalog
from tartli.server.class_pages import _page_file, _script_json, _words, fill_blanks, language_links, page_css

DUEL_WORDS = {
    "noName": N_("Type your first name."),
    "noCode": N_("Type the table's code."),
    "noTable": N_("No table has that code, or it was closed: check the code with your classmate."),
    "tooMany": N_("Too many tries: wait a minute, then try again."),
    "busy": N_("The course's server did not answer: try again in a moment."),
    "joinTable": N_("Join {name}'s table"),
    "playing": N_("{first} and {second} are playing."),
}
"""What the page's script says (in the page's language)."""

DUEL_PAGE_WORDS = {
    "TITLE": N_("Play a classmate"),
    "INTRO": N_(
        "Play Tartli against a classmate, each on your own device: one of you opens a table and gives the other "
        "its code or link. You each see only your own cards."
    ),
    "JOIN_TITLE": N_("Join a table"),
    "INVITED": N_("A classmate has opened a table for you: type your first name and take the seat."),
    "CODE_LABEL": N_("Table code"),
    "NAME_LABEL": N_("Your first name"),
    "JOIN_BUTTON": N_("Take the seat"),
    "OPEN_TITLE": N_("Open a table"),
    "OPEN_TEXT": N_("You get a code and a link for your classmate; the game starts when they sit down."),
    "OPEN_BUTTON": N_("Open a table"),
    "KEPT": N_(
        "The course's server keeps your first name and the game on this machine only, and deletes them a day "
        "after the table closes (a table nobody plays for 30 minutes closes by itself)."
    ),
    "MAP_LINK": N_("Back to the course map"),
    "LOBBY_TITLE": N_("Tables in your class"),
}
"""The page's own words (filled in where the page says ``__KEY__``)."""


def duel_page(lang: str, base_url: str) -> str:
    """The page in ``lang``."""
    tr = catalog(lang).gettext
    fill = {key: html.escape(tr(words)) for key, words in DUEL_PAGE_WORDS.items()}
    fill |= {
        "LANG": lang,
        "LANGUAGES": language_links(lang),
        "PAGE_CSS": page_css(),
        "MAP": html.escape(f"{base_url}voila/render/00_index.ipynb?lang={lang}"),
        "WORDS": _script_json(_words(DUEL_WORDS, lang)),
        "BASE": _script_json(base_url),
    }
    return fill_blanks(_page_file("duel.html"), fill)


class DuelPageHandler(tornado.web.RequestHandler):
    def get(self) -> None:
        from tartli.server.app import request_language  # (the app imports this module)

        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Frame-Options", "DENY")
        lang = request_language(self, self.get_query_argument("lang", None))
        self.finish(duel_page(lang, self.settings.get("base_url", "/")))


def duel_page_handlers(base_url: str) -> list[tuple[str, type[DuelPageHandler]]]:
    """The page's route under ``base_url``."""
    return [(f"{base_url}tartli/duel", DuelPageHandler)]


__all__ = ["DUEL_PAGE_WORDS", "DUEL_WORDS", "DuelPageHandler", "duel_page", "duel_page_handlers"]
