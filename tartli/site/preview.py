"""A page's first screen in the static edition: its words before its Python has started.

A page of the static edition runs its cells in the browser's Python, which needs a few seconds to
start (on a first visit it is downloaded too; on a phone ten seconds and more). Until the cells have
run, Voilà's template shows a spinner. The build puts the page's own words into the page instead
(:func:`first_screen`, kept in the notebook's metadata as ``tartli.first_screen``; the course's page
template draws it in place of the spinner): the index's opening words and the course map's links,
which work at once, or a lesson's title and summary; and a line that says the cards are being got
ready. When the cells have run, Voilà's page replaces the whole first screen with them.

The words come from where the page itself takes them (:func:`tartli.course.welcome`, the titles and
summaries of :data:`tartli.course.PAGES`), in the page's language.
"""

from __future__ import annotations

import html

from tartli import i18n
from tartli.course import PAGES, Page, page_url, welcome
from tartli.i18n import N_, _
from tartli.widgets.steps import markdown_html

METADATA_KEY = "first_screen"
"""Where in the notebook's ``tartli`` metadata the build keeps the first screen (the template reads it)."""
STATUS = N_(
    "Getting the cards ready… On the first visit your browser downloads the card game's program "
    "once; after that the course opens from this device, even offline."
)
"""The line under a first screen's words (in English: :func:`tartli.i18n._` gives it in the page's language)."""


def first_screen(page: Page, lang: str) -> str:
    """The HTML the static edition shows for ``page`` in ``lang`` until the page's cells have run.

    >>> text = first_screen(PAGES[1], "hu")
    >>> "<h1>A pakli</h1>" in text, 'class="tartli-first-status"' in text
    (True, True)
    """
    before = i18n.language()
    i18n.set_language(lang)
    try:
        status = _(STATUS)
        status_html = (
            '<p class="tartli-first-status" role="status"><span class="tartli-first-spinner" aria-hidden="true">'
            f"</span>{html.escape(status)}</p>"
        )
        if page is PAGES[0]:  # (the status under the opening words: on a phone's first screen)
            links = "".join(
                f'<li><a href="{html.escape(page_url(p, static=True, lang=lang))}" target="_self">'
                f"{html.escape(_(p.title))}</a> <span>{html.escape(_(p.summary))}</span></li>"
                for p in PAGES[1:]
            )
            course_map = _("Course map")  # (outside the f-string: the extractor reads no call inside one)
            words = (
                markdown_html(welcome(static=True))
                + status_html
                + f"<h2>{html.escape(course_map)}</h2>"
                + f'<ol class="tartli-first-map">{links}</ol>'
            )
        else:
            words = f"<h1>{html.escape(_(page.title))}</h1><p>{html.escape(_(page.summary))}</p>" + status_html
        return f'<div class="tartli-first-screen jp-RenderedHTMLCommon">{words}</div>'
    finally:
        i18n.set_language(before)
