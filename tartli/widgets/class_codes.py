"""A class's table without the course's server: the teacher pastes the pupils' progress codes (issue 37).

On Binder and in the static edition there is no class on a server: each pupil copies their progress
code on the course map (*Copy my progress*) and sends it to the teacher, who pastes the codes here, one
pupil a line (``Anna: P1...``; a tab or a comma works too, as from a spreadsheet), or opens a text or
CSV file of them. The table is the one the course's server shows (:func:`tartli.classview.class_view`),
made in this page only: nothing is sent or stored anywhere. A line that is not a name and a code says
so, by its number, and the others are shown.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from tartli.classview import TABLE_CSS, Pupil, class_view, pupil_from_code
from tartli.course import Page, page_url
from tartli.i18n import _, language
from tartli.widgets.progress_code import PREFIX, ProgressCodeError

MAX_LINES = 200
"""The most pupils read (a class is some thirty)."""
MAX_TEXT = 400_000
"""The most characters read (thirty whole-course codes are some 20,000)."""


_VIEW_CSS = (
    "<style>"
    ".tartli-for-teachers .widget-html-content { line-height: 1.45; white-space: normal; min-width: 0;"
    " flex: 1 1 auto; max-width: 100%; }"
    ".tartli-for-teachers .widget-html { min-width: 0; max-width: 100%; height: auto; }"
    ".tartli-class-view h2 { font-size: 20px; }" + TABLE_CSS + "</style>"
)


def read_lines(text: str) -> tuple[list[Pupil], list[str]]:
    """The pupils of ``text`` (one ``name: code`` a line) and what was wrong with the other lines.

    >>> from tartli.widgets.progress_code import progress_code
    >>> code = progress_code({"tartli.steps.01_pack": "3"})
    >>> pupils, problems = read_lines(f"Anna: {code}\\n\\nBéla;{code}\\nnot a code")
    >>> [p.name for p in pupils], problems
    (['Anna', 'Béla'], ['Line 4: no progress code (it starts with P1).'])
    """
    pupils: list[Pupil] = []
    problems: list[str] = []
    if len(text) > MAX_TEXT:
        return [], [_("That is too much text: at most {limit} characters.").format(limit=MAX_TEXT)]
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) > MAX_LINES:
        problems.append(_("Only the first {limit} lines are read.").format(limit=MAX_LINES))
        lines = lines[:MAX_LINES]
    for number, line in lines:
        head, _space, code = line.replace("\t", " ").rpartition(" ")
        if not code.startswith(PREFIX):  # "Anna:P1..." or "Anna,P1...": the code after the last separator
            for separator in (":", ",", ";"):
                if separator in line:
                    head, _sep, code = line.rpartition(separator)
                    break
        code = code.strip().strip('"')
        name = head.strip().strip('"').rstrip(":,;").strip()
        if not code.startswith(PREFIX):
            problems.append(_("Line {number}: no progress code (it starts with P1).").format(number=number))
            continue
        try:
            pupil = pupil_from_code(name or _("Pupil {number}").format(number=len(pupils) + 1), code)
        except ProgressCodeError as error:
            problems.append(_("Line {number}: {problem}").format(number=number, problem=str(error)))
            continue
        pupils.append(pupil)
    return pupils, problems


class ClassCodes:
    """The teacher's part of the course map: pasted codes (or a file) in, the class's table out."""

    def __init__(self) -> None:
        self.text = w.Textarea(
            placeholder=_("Anna: P1…\nBéla: P1…"),
            layout=w.Layout(width="100%", height="8em"),
        )
        self.text.add_class("tartli-class-codes")
        said = _("One pupil a line: their first name, then their progress code.")
        label = w.HTML(f"<p>{html.escape(said)}</p>")
        self.text.tooltip = said  # (the field's name for a screen reader)
        self.upload = w.FileUpload(accept=".txt,.csv,text/plain,text/csv", multiple=False, description=_("Open a file"))
        self.show = w.Button(description=_("Show the table"), button_style="primary")
        self.show.on_click(lambda _b: self.draw())
        self.upload.observe(self._uploaded, names="value")
        self.view = w.HTML("", layout=w.Layout(width="100%", min_width="0"))
        self.box = w.VBox(
            [
                w.HTML(
                    _VIEW_CSS
                    + "<p>"
                    + html.escape(
                        _(
                            "Without a class on the course's server, each pupil copies their progress code on this "
                            "map (Copy my progress) and sends it to you. Paste the codes here: the table is made in "
                            "this page only, and nothing is sent or kept anywhere."
                        )
                    )
                    + "</p>"
                ),
                label,
                self.text,
                w.HBox([self.show, self.upload], layout=w.Layout(flex_flow="row wrap")),
                self.view,
            ]
        )
        self.widget = w.Accordion([self.box], selected_index=None)
        self.widget.set_title(0, _("For teachers: your class's table from progress codes"))
        self.widget.add_class("tartli-for-teachers")

    def _uploaded(self, change: Any) -> None:
        files = change["new"]
        if not files:
            return
        content = bytes(files[0]["content"])[:MAX_TEXT]
        self.text.value = content.decode("utf-8-sig", errors="replace")
        self.draw()

    def draw(self) -> None:
        pupils, problems = read_lines(self.text.value)
        lang = language()

        def link(page: Page, step: int) -> str:
            return f"{page_url(page, lang=lang)}#step-{step}"

        said = ""
        if problems:
            items = "".join(f"<li>{html.escape(p)}</li>" for p in problems)
            said = f"<div class='tartli-feedback wrong' role='status'><ul>{items}</ul></div>"
        if not pupils:
            nothing = _("Paste at least one line: a first name and a progress code.")
            self.view.value = said or f"<p role='status'>{html.escape(nothing)}</p>"
            return
        self.view.value = said + f"<div class='tartli-class-view'>{class_view(pupils, lang, link=link)}</div>"


__all__ = ["MAX_LINES", "ClassCodes", "read_lines"]
