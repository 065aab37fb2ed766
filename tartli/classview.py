"""The teacher's view of a class: one table of pupils by lesson, who needs help, as HTML and CSV.

The course's server makes it from what its class store keeps (:mod:`tartli.server.classroom`); a
teacher without the server (Binder, the static edition) makes the same table from the pupils'
progress codes (:func:`pupil_from_code`). Both go through :func:`class_view`, so both show the same.

A pupil is a :class:`Pupil`: a name, what their progress code holds (each exercise's record, each
lesson's step and the steps done) and, from the server only, where they are and since when. A
lesson's cell gives the steps done of the lesson's steps (:attr:`tartli.course.Page.steps`), the step
they are on, and the stars of its exercises (the best of each, out of 3).

**Who needs help** (the server only: a progress code says nothing of time): a pupil who has been on
one step of a lesson for more than :data:`STUCK_AFTER` seconds without finishing it, and was active in
the last :data:`ACTIVE_WITHIN` seconds (a pupil who went home is not stuck).

Every name is text from a pupil and is escaped wherever it is shown; in the CSV a name that a
spreadsheet would read as a formula (``=``, ``+``, ``-``, ``@``) is written with a leading ``'``.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tartli.course import PAGES, Page
from tartli.i18n import catalog
from tartli.lesson_questions import questions
from tartli.widgets.progress_code import read_progress

TABLE_CSS = """
.tartli-class-view { max-width: 100%; }
.tartli-class-view .tartli-legend { color: #4a5a50; font-size: 14px; margin: .8em 0 .3em; }
.tartli-class-view .tartli-class-table { overflow-x: auto; max-width: 100%; border: 1px solid #d6ddd8;
  position: relative; }
.tartli-class-view table { border-collapse: collapse; font-size: 16px; }
.tartli-class-view th, .tartli-class-view td { border: 1px solid #d6ddd8; padding: 4px 6px; text-align: center;
  white-space: nowrap; }
.tartli-class-view tbody td:nth-child(2) { white-space: normal; min-width: 7em; max-width: 10em; font-size: 14px; }
.tartli-class-view thead th { background: #eef4f0; position: sticky; top: 0; }
.tartli-class-view tbody th { text-align: left; position: sticky; left: 0; background: #fff; max-width: 12em;
  overflow: hidden; text-overflow: ellipsis; }
.tartli-class-view th button { background: none; border: 0; color: inherit; font: inherit; font-weight: 700;
  padding: 2px 4px; min-height: 44px; min-width: 44px; cursor: pointer; }
.tartli-class-view th[aria-sort="ascending"] button::after { content: " \\25B2"; font-size: .7em; }
.tartli-class-view th[aria-sort="descending"] button::after { content: " \\25BC"; font-size: .7em; }
.tartli-class-view td.tartli-none { color: #5f6b63; }
.tartli-class-view .tartli-done { color: #1f6b35; font-weight: 700; }
.tartli-class-view .tartli-stars { color: #7a5200; }
.tartli-class-view .tartli-remove { background: #fff; color: #b42318; border: 1px solid #b42318; border-radius: 4px;
  font: inherit; font-size: 14px; min-height: 44px; min-width: 44px; cursor: pointer; }
.tartli-class-view .tartli-sr-only { position: absolute !important; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
@media print { .tartli-class-view .tartli-class-table { overflow: visible; border: 0; } }
"""
"""The class table's look (:func:`class_view` inside an element of class ``tartli-class-view``): one copy
for the teacher page of the course's server and the table made from pasted progress codes."""

STUCK_AFTER = 5 * 60
"""Seconds on one step, not done, after which a pupil is shown as needing help."""
STUCK_SLIPS = 3
"""Wrong answers to one question, not yet answered rightly, after which a pupil is shown as needing help."""
ACTIVE_WITHIN = 3 * 60
"""A pupil whose page reported within this many seconds is still working (their pages report every minute)."""

COLUMNS: tuple[Page, ...] = tuple(p for p in PAGES if p.steps or p.exercises)
"""The table's columns: the lessons (steps, exercises) and the practice page (exercises)."""
_BY_FILE = {p.file: p for p in PAGES}


@dataclass
class Pupil:
    """One pupil as the teacher sees them."""

    name: str
    records: dict[str, dict[str, dict[str, int]]]  #: progress records by key, as :func:`read_code` gives them
    steps: dict[str, list[Any]]  #: lesson -> [step, [steps done]]
    number: int | None = None  #: the pupil's number in the class (the server's), for "remove"
    last_active: float | None = None
    page: str | None = None  #: the page they are on (a file name)
    step: int | None = None
    since: float | None = None  #: on that step since
    hands: dict[str, list[int]] = field(default_factory=dict)  #: table -> [played, reviewed, accuracy sum]
    best: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.best = {}
        for record in self.records.values():
            for exercise, numbers in record.items():
                self.best[exercise] = max(self.best.get(exercise, 0), int(numbers.get("best", 0)))


def pupil_from_code(name: str, code: str) -> Pupil:
    """A pupil from a progress code (``P1...``); :class:`~tartli.widgets.progress_code.ProgressCodeError`
    if it is not one."""
    records, steps, hands = read_progress(code)
    return Pupil(name, records, steps, hands=hands)


@dataclass(frozen=True)
class Cell:
    done: int  #: steps done
    of: int  #: the lesson's steps (0: a page without steps)
    on: int  #: the step the pupil is on (0: not opened)
    stars: int
    of_stars: int

    @property
    def sort_key(self) -> int:
        return self.done * 100 + self.stars


def cell(pupil: Pupil, page: Page) -> Cell:
    lesson = page.file.removesuffix(".ipynb")
    on, done = pupil.steps.get(lesson, [0, []])[:2]
    finished = len([n for n in done if 0 < n <= page.steps])
    stars = sum(min(3, pupil.best.get(exercise, 0)) for exercise in page.exercises)
    return Cell(finished, page.steps, on, stars, 3 * len(page.exercises))


@dataclass(frozen=True)
class Help:
    """A pupil who needs help, and why: on one step for ``minutes``, or ``slips`` wrong answers to its question."""

    pupil: Pupil
    page: Page
    step: int
    minutes: int = 0
    slips: int = 0


def slips_of(pupil: Pupil, page: Page) -> dict[int, int]:
    """The pupil's wrong answers to each question of ``page``'s lesson: ``{step: slips}`` (only the steps that
    ask a question: a code that says otherwise came from elsewhere than the course)."""
    lesson = page.file.removesuffix(".ipynb")
    entry = pupil.steps.get(lesson, [0, []])
    asked = questions("en").get(lesson, {})
    return {int(k): int(n) for k, n in (entry[2] if len(entry) > 2 else {}).items() if k in asked}


def needing_help(pupils: Sequence[Pupil], now: float | None = None) -> list[Help]:
    """The pupils stuck (see the module's notes): on one step too long (``now`` given: the server's
    view), or with :data:`STUCK_SLIPS` wrong answers to a question they have not answered yet; the
    longest and the most slips first."""
    found = []
    for pupil in pupils:
        for page in COLUMNS:
            done = pupil.steps.get(page.file.removesuffix(".ipynb"), [0, []])[1]
            for step, slips in slips_of(pupil, page).items():
                if slips >= STUCK_SLIPS and step not in done:
                    found.append(Help(pupil, page, step, slips=slips))
        if now is None or None in (pupil.page, pupil.step, pupil.since, pupil.last_active):
            continue
        on = _BY_FILE.get(pupil.page or "")
        if on is None or not on.steps or not 0 < (pupil.step or 0) <= on.steps:
            continue
        page = on
        done = pupil.steps.get(page.file.removesuffix(".ipynb"), [0, []])[1]
        active, since = float(pupil.last_active or 0), float(pupil.since or 0)
        if pupil.step in done or now - active > ACTIVE_WITHIN or now - since <= STUCK_AFTER:
            continue
        if any(h.pupil is pupil and h.page is page and h.step == pupil.step for h in found):
            continue  # (said once: by its slips)
        found.append(Help(pupil, page, int(pupil.step or 0), minutes=int((now - since) // 60)))
    return sorted(found, key=lambda h: (-h.minutes, -h.slips, h.pupil.name.casefold()))


@dataclass(frozen=True)
class Missed:
    """A question the class misses: how many pupils answered it wrongly, and how many wrong answers in all."""

    page: Page
    step: int
    pupils: int
    slips: int


def most_missed(pupils: Sequence[Pupil], most: int = 5) -> list[Missed]:
    """The questions with the most wrong answers (at least one), most first."""
    count: dict[tuple[str, int], list[int]] = {}
    for pupil in pupils:
        for page in COLUMNS:
            for step, slips in slips_of(pupil, page).items():
                entry = count.setdefault((page.file, step), [0, 0])
                entry[0] += 1
                entry[1] += slips
    ranked = sorted(count.items(), key=lambda item: (-item[1][1], -item[1][0], item[0]))
    return [Missed(_BY_FILE[file], step, n, slips) for (file, step), (n, slips) in ranked[:most]]


def _short(page: Page) -> str:
    """A lesson's number as the table heads its column ("03"); "" for a page without one."""
    number = page.file[:2]
    return number if number.isdigit() and number != "00" else ""


def class_view(
    pupils: Sequence[Pupil],
    lang: str = "en",
    *,
    now: float | None = None,
    remove: bool = False,
    link: Callable[[Page, int], str] | None = None,
) -> str:
    """The teacher's view as HTML, in ``lang``: who needs help, the questions the class misses most,
    and the table. ``now`` (the server's clock) adds where each pupil is and who has been on one step
    too long (a progress code alone says nothing of time); ``remove`` adds a button to each row (the
    server's page; it acts by the pupil's number); ``link`` (the address of a lesson's step, where the
    view is shown) makes each missed question a link to its step."""
    tr, ngettext = catalog(lang).gettext, catalog(lang).ngettext  # (the server speaks every page's language)
    e = html.escape
    parts = []
    helps = needing_help(pupils, now)
    help_title, pupil_title, now_title, remove_title = tr("Who needs help"), tr("Pupil"), tr("Now on"), tr("Remove")
    parts.append(
        f"<section class='tartli-help' aria-labelledby='tartli-help-title'><h2 id='tartli-help-title'>"
        f"{e(help_title)}</h2>"
    )
    if helps:
        items = []
        for h in helps:
            where = tr("lesson {number} ({title}), step {step}").format(
                number=int(h.page.file[:2]), title=tr(h.page.title), step=h.step
            )
            if h.slips:
                why = ngettext("{n} wrong answer", "{n} wrong answers", h.slips).format(n=h.slips)
            else:
                why = ngettext("for {n} minute", "for {n} minutes", h.minutes).format(n=h.minutes)
            items.append(f"<li><b>{e(h.pupil.name)}</b>: {e(where)}, {e(why)}</li>")
        parts.append(f"<ul>{''.join(items)}</ul>")
    else:
        nobody = tr("Nobody seems stuck (on one step for more than 5 minutes, or 3 wrong answers to one question).")
        parts.append(f"<p>{e(nobody)}</p>")
    parts.append("</section>")
    missed = most_missed(pupils)
    if missed:
        asked = questions(lang)
        title = tr("The questions the class misses most")
        items = []
        for m in missed:
            lesson = m.page.file.removesuffix(".ipynb")
            where = e(tr("Lesson {number}, step {step}").format(number=int(m.page.file[:2]), step=m.step))
            if link is not None:
                where = f"<a href='{e(link(m.page, m.step))}'>{where}</a>"
            count = ngettext("{n} pupil", "{n} pupils", m.pupils).format(n=m.pupils)
            count += ", " + ngettext("{n} wrong answer", "{n} wrong answers", m.slips).format(n=m.slips)
            question = asked.get(lesson, {}).get(str(m.step))
            said = ""
            if question is not None:  # (the course's own words, made when it was built: HTML already)
                right = tr("right answer:")
                said = f" {question[0]} <i>{e(right)} {question[1]}</i>"
            items.append(f"<li>{where}:{said} <small>({e(count)})</small></li>")
        parts.append(
            f"<section class='tartli-missed' aria-labelledby='tartli-missed-title'><h2 id='tartli-missed-title'>"
            f"{e(title)}</h2><ol>{''.join(items)}</ol></section>"
        )
    if not pupils:
        nobody = tr("No pupil has joined yet.")
        parts.append(f"<p class='tartli-empty'>{e(nobody)}</p>")
        return "".join(parts)
    head = [f"<th scope='col' data-sort='text'>{e(pupil_title)}</th>"]
    if now is not None and any(p.last_active is not None for p in pupils):
        head.append(f"<th scope='col' data-sort='number'>{e(now_title)}</th>")
    for page in COLUMNS:
        label = _short(page) or tr(page.title)
        head.append(f"<th scope='col' data-sort='number' title='{e(tr(page.title))}'>{e(label)}</th>")
    hands_title, hands_said = tr("Hands"), tr("Hands played at a table")
    head.append(f"<th scope='col' data-sort='number' title='{e(hands_said)}'>{e(hands_title)}</th>")
    if remove:
        head.append(f"<th scope='col'><span class='tartli-sr-only'>{e(remove_title)}</span></th>")
    rows = []
    for pupil in pupils:
        row = [f"<th scope='row' data-value='{e(pupil.name.casefold())}'>{e(pupil.name)}</th>"]
        if now is not None and any(p.last_active is not None for p in pupils):
            row.append(_now_on(pupil, now, tr))
        for page in COLUMNS:
            row.append(_cell_html(cell(pupil, page), tr))
        row.append(_hands_html(pupil, tr))
        if remove and pupil.number is not None:
            label = tr("Remove {name}").format(name=pupil.name)
            row.append(
                f"<td><button type='button' class='tartli-remove' data-pupil='{pupil.number}' "
                f"data-name='{e(pupil.name)}' aria-label='{e(label)}'>{e(remove_title)}</button></td>"
            )
        rows.append("<tr>" + "".join(row) + "</tr>")
    region = tr("Your class")
    legend = tr("A lesson's cell: steps done of its steps, the step the pupil is on, and its stars.")
    parts.append(
        f"<p class='tartli-legend'>{e(legend)}</p><div class='tartli-class-table' role='region' tabindex='0' "
        f"aria-label='{e(region)}'><table><thead><tr>{''.join(head)}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )
    return "".join(parts)


def _now_on(pupil: Pupil, now: float, tr: Any) -> str:
    if pupil.last_active is None:
        return "<td data-value='0'></td>"
    ago = max(0, int(now - pupil.last_active))
    when = tr("active now") if ago < ACTIVE_WITHIN else tr("away for {minutes} min").format(minutes=ago // 60)
    page = _BY_FILE.get(pupil.page or "")
    where = ""
    if page is not None:
        where = _short(page) or (tr("course map") if page is PAGES[0] else tr(page.title))
        if page.steps and pupil.step:
            where = tr("{page}, step {step}").format(page=where, step=pupil.step)
    text = html.escape(f"{where} · {when}" if where else when)
    return f"<td data-value='{int(pupil.last_active)}'>{text}</td>"


def _cell_html(c: Cell, tr: Any) -> str:
    lines = []
    if c.of:
        if c.done >= c.of:
            lines.append(f"<span class='tartli-done'>✓ {c.done}/{c.of}</span>")
        else:
            step = tr("on {step}").format(step=c.on)
            on = f" <small>{html.escape(step)}</small>" if c.on else ""
            lines.append(f"{c.done}/{c.of}{on}")
    if c.of_stars:
        stars = tr("{stars} of {most} stars").format(stars=c.stars, most=c.of_stars)
        lines.append(f"<span class='tartli-stars' title='{html.escape(stars)}'>★ {c.stars}/{c.of_stars}</span>")
    if not c.done and not c.on and not c.stars:  # not begun: a dash, not a row of zeros
        said = html.escape(tr("not begun"))
        dash = "<span aria-hidden='true'>–</span>"
        return f"<td data-value='0' class='tartli-none'>{dash}<span class='tartli-sr-only'>{said}</span></td>"
    return f"<td data-value='{c.sort_key}'>{'<br>'.join(lines)}</td>"


def hands_of(pupil: Pupil) -> tuple[int, int, int | None]:
    """The hands a pupil played at the course's tables, the hands reviewed, and their mean accuracy (None: none)."""
    played = sum(n[0] for n in pupil.hands.values())
    reviewed = sum(n[1] for n in pupil.hands.values())
    total = sum(n[2] for n in pupil.hands.values())
    return played, reviewed, round(total / reviewed) if reviewed else None


def _hands_html(pupil: Pupil, tr: Any) -> str:
    played, reviewed, accuracy = hands_of(pupil)
    if not played:
        said = html.escape(tr("no hand played"))
        dash = "<span aria-hidden='true'>–</span>"
        return f"<td data-value='0' class='tartli-none'>{dash}<span class='tartli-sr-only'>{said}</span></td>"
    lines = [str(played)]
    if accuracy is not None:
        said = tr("mean accuracy {accuracy}% over {n} reviewed hands").format(accuracy=accuracy, n=reviewed)
        lines.append(f"<small title='{html.escape(said)}'>{accuracy}%</small>")
    return f"<td data-value='{played}'>{'<br>'.join(lines)}</td>"


def class_csv(pupils: Sequence[Pupil], lang: str = "en") -> str:
    """The table as CSV (one row a pupil; for each lesson its steps done and its stars)."""
    tr = catalog(lang).gettext
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    head = [tr("Pupil")]
    for page in COLUMNS:
        label = _short(page) or tr(page.title)
        if page.steps:
            head.append(tr("{page}: steps done").format(page=label))
        if page.exercises:
            head.append(tr("{page}: stars").format(page=label))
    head += [tr("Hands played"), tr("Hands reviewed"), tr("Mean accuracy (%)")]
    writer.writerow(head)
    for pupil in pupils:
        name = pupil.name
        if name[:1] in ("=", "+", "-", "@"):
            name = "'" + name  # (a spreadsheet reads the rest as text, not a formula)
        row: list[Any] = [name]
        for page in COLUMNS:
            c = cell(pupil, page)
            if page.steps:
                row.append(c.done)
            if page.exercises:
                row.append(c.stars)
        played, reviewed, accuracy = hands_of(pupil)
        row += [played, reviewed, "" if accuracy is None else accuracy]
        writer.writerow(row)
    return out.getvalue()


def pupils_from_csv(text: str) -> list[tuple[str, list[int]]]:
    """The names and numbers of a CSV made by :func:`class_csv` (for a test's round trip, and a teacher's
    own check that a downloaded file is whole)."""
    rows = list(csv.reader(io.StringIO(text)))
    out = []
    for row in rows[1:]:
        name = row[0][1:] if row[0][:2] in ("'=", "'+", "'-", "'@") else row[0]
        out.append((name, [int(n) if n else -1 for n in row[1:]]))  # (-1: no mean accuracy, no hand reviewed)
    return out


__all__ = [
    "ACTIVE_WITHIN",
    "COLUMNS",
    "STUCK_AFTER",
    "TABLE_CSS",
    "Cell",
    "Help",
    "Pupil",
    "cell",
    "class_csv",
    "class_view",
    "needing_help",
    "pupil_from_code",
    "pupils_from_csv",
]
