"""A lesson as short steps: one idea, one picture, one task, one step on screen at a time.

A lesson notebook builds a :class:`Lesson` in its first cell and shows it, then
adds one step per cell::

    from tartli.widgets.steps import Lesson, Question
    lesson = Lesson("06_meld_contest.ipynb", goals=["say who scores a meld contest"])
    lesson.show()

    lesson.step("Only one player scores", '''
    In any one trick only **one** player can score sets and sequences (K1).
    ''', cards_html("OA UA XA 9A"), task=MeldContest(seed=12).widget_task())

    lesson.recap(["the better declaration takes all (K1)"])

The learner sees the lesson's goals on the first step, where they are (dots
and "Step 4 of 11"), one step with its picture and task, and Back / Continue.
A step with a task lets the learner on when the task is done. Every step has
an address (``#step-4``) a teacher can send a class to, and the page reopens
on the learner's last step (kept in the browser). The text of a step is a
CommonMark (markdown-it-py): paragraphs, ``**bold**``, ``*italic*``, ``- `` lists and
``[links](page.ipynb)``, no raw HTML; rule IDs in it link to the rule book.
"""

from __future__ import annotations

import functools
import html
import logging
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import anywidget
import ipywidgets as w
import traitlets
from IPython import display as ipd
from markdown_it import MarkdownIt
from markdown_it.token import Token

from tartli.course import PAGES, index_of, nav_html, page_url
from tartli.errors import TartliError
from tartli.i18n import _, language
from tartli.names import number
from tartli.rulebook import link_rule_ids

log = logging.getLogger(__name__)

MAX_STEP_WORDS = 120
"""No step's text is longer than this (the lessons' test holds every step to it)."""


class Task(Protocol):
    """What a step's task offers the runner: a widget, whether it is done, and a call when it is (and
    maybe ``shown()``, called each time its step comes on screen)."""

    @property
    def widget(self) -> Any: ...

    @property
    def done(self) -> bool: ...

    def on_done(self, callback: Callable[[], None]) -> None: ...


# ---------------------------------------------------------------- the text of a step
def _markdown() -> MarkdownIt:
    """CommonMark (markdown-it-py) with what a step's text uses: paragraphs, headings, lists, bold,
    italic and links. No raw HTML (it shows as text), no pictures, code, quotes or rules."""
    md = MarkdownIt("commonmark", {"html": False})
    md.disable(["code", "fence", "blockquote", "hr", "reference", "html_block", "lheading"])
    md.disable(["backticks", "image", "autolink", "html_inline", "entity"])

    def tag(name: str) -> Callable[..., str]:
        return lambda _self, tokens, idx, _options, _env: f"<{'/' if tokens[idx].nesting < 0 else ''}{name}>"

    def link(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        token.attrSet("href", _href(str(token.attrGet("href") or "")))
        token.attrSet("target", "_self")
        return str(self.renderToken(tokens, idx, options, env))

    for name, html_tag in (("strong", "b"), ("em", "i")):
        md.add_render_rule(f"{name}_open", tag(html_tag))
        md.add_render_rule(f"{name}_close", tag(html_tag))
    md.add_render_rule("link_open", link)
    md.add_render_rule("softbreak", lambda *_args: " ")  # a line break in a paragraph is a space
    return md


_MD = _markdown()


def _href(target: str) -> str:
    """A link's address: a page of the course (``08_phase_two.ipynb#x``) in this page's language."""
    file, hash_, anchor = target.partition("#")
    page = next((p for p in PAGES if p.file == file), None)
    return target if page is None else page_url(page) + hash_ + anchor


def _lines(text: str) -> str:
    """The text without the indentation its lines share (an indented line is never code here: the
    step's Markdown has no code blocks; two spaces go on a list item, as in CommonMark)."""
    return textwrap.dedent(text).strip()


def _inline(text: str) -> str:
    """A line of the small Markdown (bold, italic, links) as HTML, for a question and its answer."""
    return str(_MD.renderInline(_lines(text))).replace("\n", "")


def markdown_html(text: str) -> str:
    """A step's text (CommonMark: paragraphs, ``- `` or ``1. `` lists, headings, bold, italic, links) as HTML,
    with every rule ID in it a link to the rule book.

    A number that starts a paragraph is a list's first number in CommonMark ("2. szakasz" would be a
    list starting at 2): the lessons' texts never start a line with one unless it is a list
    (``tests/test_steps.py`` checks every step in every language).

    >>> markdown_html("A **trick** is\\n*two* cards.\\n\\n- one\\n- two")
    '<p>A <b>trick</b> is <i>two</i> cards.</p><ul><li>one</li><li>two</li></ul>'
    >>> markdown_html("A 2. szakasz: <b>x</b> &amp;")
    '<p>A 2. szakasz: &lt;b&gt;x&lt;/b&gt; &amp;amp;</p>'
    """
    return link_rule_ids(_MD.render(_lines(text)).replace("\n", ""))


def prose(text: str) -> Any:
    """A page's text in the course's small Markdown (:func:`markdown_html`, headings too), to display.

    Not IPython's ``Markdown``: in the static edition the notebook's Markdown renderer asks a contents
    server that is not there for every link in it.

    >>> prose("# Practice\\n\\nEight *short* trainers.").data
    '<h1>Practice</h1><p>Eight <i>short</i> trainers.</p>'
    """
    from IPython.display import HTML

    return HTML(markdown_html(text))  # type: ignore[no-untyped-call]


def words(text: str) -> int:
    """How many words a step's text has (its Markdown marks not counted)."""
    return len(re.findall(r"[\w’'-]+", re.sub(r"\]\([^)]*\)", "]", text)))


# ---------------------------------------------------------------- a score question's picture
@dataclass(frozen=True)
class ScoreSheet:
    """A score question's picture and the numbers its answer is made of, from one state.

    Each player's row is the terms drawn, ``(label, value)``; a row's :meth:`total` is the sum of
    what is drawn and nothing else. The constructors take the state the question asks about and
    check the sum against the engine's own count, so a picture can never leave out a number the
    answer uses, nor show one it does not use. ``asks`` is what the question asks: ``("total", p)``
    (a number: player ``p``'s total) or ``("claim", p)`` (may ``p`` go out now, and for how many buli).
    """

    heading: str
    players: tuple[str, str]
    rows: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]
    asks: tuple[str, int]
    note: str = ""
    maccs_below: int = 251
    """A claim wins 2 buli against a total below this: 251 (S4, "250 or less"), 250 under V10."""
    sweeper: int | None = None
    """Who took all nine tricks of phase 2, for a stichmatsch question (S2)."""

    def total(self, player: int) -> int:
        return sum(value for _label, value in self.rows[player])

    def value(self) -> int:
        """The number a ``total`` or ``stichmatsch`` question asks for, from the drawn terms only: a row's
        sum; after a stichmatsch (S2) the card points drawn do not count, and the sweeper gets all 161."""
        kind, player = self.asks
        if kind == "total":
            return self.total(player)
        if kind == "stichmatsch":
            phase_1 = self.rows[player][-2][1]  # drawn (see stichmatsch()), but rewritten by S2
            return self.total(player) - phase_1 + (161 if self.sweeper == player else 0)
        raise TartliError(f"a {kind} question asks for no number")

    @classmethod
    def stichmatsch(
        cls,
        state: Any,
        cards_of_phase_1: Sequence[int],
        heading: str,
        players: tuple[str, str],
        player: int,
        *,
        running: bool = True,
    ) -> ScoreSheet:
        """A hand that ended in a stichmatsch (S2), drawn as it stood before phase 2's card points were
        rewritten: (the score before the hand,) the card points of tricks 1-7 and the melds of the whole
        hand, trick 8's included. The question asks what ``player`` adds (or, with ``running``, their
        new running score)."""
        rows = tuple(
            (
                *(((_("before the hand"), state.scores_in[p]),) if running else ()),
                (_("card points of tricks 1-7"), cards_of_phase_1[p]),
                (_("melds of the hand, trick 8 included"), state.meld_points[p]),
            )
            for p in (0, 1)
        )
        made = cls(heading, players, (rows[0], rows[1]), ("stichmatsch", player), "", 251, state.stichmatsch)
        expected = state.total(player) - (0 if running else state.scores_in[player])
        if state.stichmatsch is None or made.value() != expected:
            raise TartliError(f"the sheet gives {made.value()}, the engine {expected}")
        return made

    def claim(self, player: int) -> tuple[bool, int]:
        """What a claim by ``player`` gives, read from the drawn totals: (right?, buli of its winner) (S4)."""
        right = self.total(player) >= 501
        if not right:
            return False, 1
        return True, 2 if self.total(1 - player) < self.maccs_below else 1

    @classmethod
    def at_claim(cls, state: Any, heading: str, players: tuple[str, str], claimant: int = 0) -> ScoreSheet:
        """What a claim by ``claimant`` counts now (S3): running score + melds scored + completed tricks,
        without a trick in S3's claim window, which counts for neither player."""
        claim = state.claim(claimant)
        window = state.claim_window if claim.at_step_seven else None
        rows = []
        for p in (0, 1):
            cards = state.card_points[p] - (window.points if window is not None and window.winner == p else 0)
            rows.append(
                (
                    (_("running score"), state.scores_in[p]),
                    (_("melds"), state.meld_points[p]),
                    (_("completed tricks"), cards),
                )
            )
        note = ""
        if window is not None:
            note = _("Trick {trick_The}'s {points} card points count for neither of you (S3).").format(
                trick=number(window.trick, language()), points=window.points
            )
        made = cls(heading, players, (rows[0], rows[1]), ("claim", claimant), note, _maccs_below(state.rules))
        counted = {claimant: claim.total, 1 - claimant: claim.other}
        if made.total(0) != counted[0] or made.total(1) != counted[1]:
            raise TartliError(f"the sheet counts {made.total(0)}/{made.total(1)}, the engine {counted}")
        return made

    @classmethod
    def after_hand(
        cls, state: Any, heading: str, players: tuple[str, str], player: int, *, card_label: str = ""
    ) -> ScoreSheet:
        """A finished hand onto the running scores (S1, S2): before the hand + melds + card points."""
        rows = tuple(
            (
                (_("before the hand"), state.scores_in[p]),
                (_("melds of the hand"), state.meld_points[p]),
                (card_label or _("card points"), state.card_points[p]),
            )
            for p in (0, 1)
        )
        made = cls(heading, players, (rows[0], rows[1]), ("total", player), "", _maccs_below(state.rules))
        if made.total(player) != state.total(player):
            raise TartliError(f"the sheet counts {made.total(player)}, the engine {state.total(player)}")
        return made

    def html(self) -> str:
        """The sheet as the learner sees it: each player's terms one under the other, a number and what it
        is (it reads on a phone too); a claim's sheet adds them up, a question that asks for a number
        leaves the adding to the learner."""
        cells = "padding:0 .5em 0 0;text-align:right;vertical-align:top;white-space:nowrap"
        blocks = []
        for player, (name, row) in enumerate(zip(self.players, self.rows, strict=True)):
            summed = self.asks[0] == "claim"
            lines = [
                f"<tr><td style='{cells}'>{'+ ' if summed and k else ''}{value}</td>"
                f"<td style='color:#3b4a3f'>{html.escape(label)}</td></tr>"
                for k, (label, value) in enumerate(row)
            ]
            if summed:
                lines.append(f"<tr><td style='{cells}'><b>= {self.total(player)}</b></td><td></td></tr>")
            blocks.append(
                f"<div style='margin:.3em 0 0'><b>{html.escape(name)}</b></div>"
                f"<table style='border-collapse:collapse;margin:0 0 0 .6em'>{''.join(lines)}</table>"
            )
        note = f"<div style='margin-top:.3em'><small>{link_rule_ids(html.escape(self.note))}</small></div>"
        return (
            "<div class='tartli-sheet' style='background:#eef6f0;padding:6px 10px;border-radius:4px;"
            f"margin:4px 0;line-height:1.35'><div>{html.escape(self.heading)}</div>{''.join(blocks)}"
            f"{note if self.note else ''}</div>"
        )


def _maccs_below(rules: Any) -> int:
    return 250 if getattr(rules, "single_games", False) else 251


# ---------------------------------------------------------------- tasks
class Question:
    """A short question with a few answers, one right: the step's task when no trainer fits.

    ``answer`` is the right option, computed by the engine in the lesson; ``explain`` is said
    after any answer. A wrong answer may be followed by another.
    """

    def __init__(
        self, prompt: str, options: Sequence[str], answer: str, explain: str = "", *, sheet: ScoreSheet | None = None
    ) -> None:
        if answer not in options:
            raise TartliError(f"the right answer {answer!r} must be one of the options {list(options)!r}")
        self.prompt, self.options, self.answer_text, self.explain = prompt, list(options), answer, explain
        self.sheet = sheet
        """The numbers the question asks about, drawn above it (its answer is made of them)."""
        self.solved = False
        self.mistakes = 0
        self._callbacks: list[Callable[[], None]] = []
        self._slip_callbacks: list[Callable[[], None]] = []

    # The widgets are made when first asked for (the step shown, or an answer chosen): a lesson's questions are
    # made with the page, and their 20 or so widgets each were most of a page's start (lesson 08: 8 questions).
    @functools.cached_property
    def feedback(self) -> w.HTML:
        return w.HTML("")

    @functools.cached_property
    def buttons(self) -> list[w.Button]:
        made = [w.Button(description=o, layout=w.Layout(width="auto")) for o in self.options]
        for button, option in zip(made, self.options, strict=True):
            button.on_click(lambda _b, o=option: self.choose(o))
        return made

    @functools.cached_property
    def widget(self) -> w.VBox:
        return w.VBox(
            [
                *([w.HTML(self.sheet.html())] if self.sheet is not None else []),
                w.HTML(f"<div class='tartli-question'><b>{_inline(self.prompt)}</b></div>"),
                w.HBox(self.buttons, layout=w.Layout(flex_flow="row wrap")),
                self.feedback,
            ]
        )

    @property
    def done(self) -> bool:
        return self.solved

    def on_done(self, callback: Callable[[], None]) -> None:
        self._callbacks.append(callback)

    def on_slip(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` after each wrong answer (the lesson counts them for the teacher's page)."""
        self._slip_callbacks.append(callback)

    def choose(self, option: str) -> bool:
        """The learner picks ``option``; True if it is the right one."""
        if self.solved:
            return option == self.answer_text
        right = option == self.answer_text
        if right:
            self.solved = True
            for button in self.buttons:
                button.disabled = True
        else:
            self.mistakes += 1
            for callback in list(self._slip_callbacks):
                callback()
        colour = ("#e6f4ea", "#2e7d32") if right else ("#fdecea", "#c62828")
        if self.explain:
            why = link_rule_ids(_inline(self.explain))
            verdict = (_("Right: {explain}") if right else _("Not quite: {explain}")).format(explain=why)
        else:
            verdict = _("Right.") if right else _("Not quite.")
        self.feedback.value = (
            f"<div class='tartli-feedback {'right' if right else 'wrong'}' role='status' "
            f"style='background:{colour[0]};border-left:5px solid {colour[1]};padding:6px 10px;margin:4px 0'>"
            f"{verdict}</div>"
        )
        if right:
            for callback in list(self._callbacks):
                callback()
        return right


class ExerciseTask:
    """A trainer as a step's task: done when one of its positions is solved."""

    def __init__(self, exercise: Any) -> None:
        self.exercise = exercise
        self.widget = exercise.widget

    @property
    def done(self) -> bool:
        return bool(self.exercise.solved) or self.exercise.progress.solved(self.exercise.progress_id) > 0

    def shown(self) -> None:
        """The step is on screen: a trainer that draws its question from what the learner brought (the
        lab's challenge) may draw it now."""
        shown = getattr(self.exercise, "shown", None)
        if callable(shown):
            shown()

    def on_done(self, callback: Callable[[], None]) -> None:
        self.exercise.on_solved(callback)
        board = getattr(self.exercise, "board", None)
        if board is not None:  # the stars kept in the browser arrive after the page is drawn
            board.observe(lambda _change: callback() if self.done else None, names="progress")


def as_task(task: Any) -> Task | None:
    """A step's ``task=``: None, a :class:`Question`, a trainer (an Exercise), or anything with
    ``widget``, ``done`` and ``on_done``."""
    if task is None or isinstance(task, Question):
        return task  # (a Question makes its widgets when they are first asked for: not here)
    if hasattr(task, "on_done") and hasattr(task, "widget"):
        return task  # type: ignore[no-any-return]
    if hasattr(task, "score_html") and hasattr(task, "solved"):
        return ExerciseTask(task)
    raise TartliError(f"a step's task must be a Question or a trainer, not {type(task).__name__}")


# ---------------------------------------------------------------- steps and the lesson
@dataclass(frozen=True)
class Later:
    """A step's picture, widget or task made when the step is first shown (:func:`later`)."""

    make: Callable[[], Any]


def later(make: Callable[[], Any]) -> Later:
    """A part or the task of a step, made only when the step is first shown (or first looked at)::

        lesson.step("Try it at the table", text, later(practice_table), task=later(lambda: DealQuiz(seed=3)))

    A page then builds the widgets of the step the learner sees, not of every step: a lesson's table has
    some 200 widgets, which a kernel sends the server and the browser one by one when it is made."""
    if not callable(make):
        raise TartliError("later() takes a function that makes the part or the task")
    return Later(make)


@dataclass
class Step:
    """One step: a title, a few sentences, pictures or widgets, and maybe a task. Parts and a task given as
    :func:`later` are made when the step is first shown, or first asked for (``parts``, ``task``)."""

    title: str
    text: str
    given_parts: tuple[Any, ...] = ()
    given_task: Any = None
    recap: bool = False
    _made: tuple[tuple[Any, ...], Task | None] | None = field(default=None, repr=False)
    _on_made: list[Callable[[Step], None]] = field(default_factory=list, repr=False)
    _box: Any = field(default=None, repr=False)
    _boxer: Callable[[Step], Any] | None = field(default=None, repr=False)

    @property
    def box(self) -> Any:
        """The step's widget (its title, text, parts and task), made when it is first shown or asked for: a page
        sends the browser the widgets of the step it shows, not every step's (lesson 03 sent 0.85 MB of widget state
        at its start, most of it the pictures of steps not shown yet). None for a step of no lesson."""
        if self._box is None and self._boxer is not None:
            self._box = self._boxer(self)
        return self._box

    @property
    def words(self) -> int:
        return words(self.title) + words(self.text)

    @property
    def made(self) -> bool:
        """Are the step's parts and task made (a step with nothing :func:`later` is made at once)?"""
        return self._made is not None

    def make(self) -> None:
        """Make the parts and the task given as :func:`later` (once)."""
        if self._made is None:
            parts = tuple(p.make() if isinstance(p, Later) else p for p in self.given_parts)
            task = self.given_task.make() if isinstance(self.given_task, Later) else self.given_task
            self._made = (parts, as_task(task))
            for callback in self._on_made:
                callback(self)

    @property
    def parts(self) -> tuple[Any, ...]:
        self.make()
        assert self._made is not None
        return self._made[0]

    @property
    def task(self) -> Task | None:
        self.make()
        assert self._made is not None
        return self._made[1]


_NAV_ESM = r"""
function render({ model, el }) {
  el.style.display = "none";
  const key = "tartli.steps." + model.get("lesson");
  const fromHash = () => {
    const found = /^#step-(\d+)$/.exec(window.location.hash || "");
    return found ? parseInt(found[1], 10) : 0;
  };
  let wanted = fromHash();
  if (!wanted) {
    try { wanted = parseInt(window.localStorage.getItem(key) || "0", 10) || 0; } catch (e) { wanted = 0; }
  }
  if (wanted) { model.set("wanted", wanted); model.save_changes(); }
  const show = () => {
    const step = model.get("step");
    if (!step) return;
    const hash = "#step-" + step;
    if (window.location.hash !== hash) {
      try { window.history.replaceState(null, "", hash); } catch (e) { /* a sandboxed page keeps its address */ }
    }
    try { window.localStorage.setItem(key, String(step)); } catch (e) { /* storage may be blocked */ }
  };
  model.on("change:step", show);
  show();
  const doneKey = key + ".done";  // the steps done on earlier visits: their dots keep their ✓
  try {
    const kept = JSON.parse(window.localStorage.getItem(doneKey) || "[]");
    if (Array.isArray(kept) && kept.length) {
      model.set("done", kept.filter((n) => Number.isInteger(n) && n > 0 && n < 100));
      model.save_changes();
    }
  } catch (e) { /* storage may be blocked, or hold something else */ }
  model.on("change:done", () => {
    try { window.localStorage.setItem(doneKey, JSON.stringify(model.get("done"))); } catch (e) { /* blocked */ }
  });
  const slipsKey = key + ".slips";  // the wrong answers to each question, for a class's teacher
  try {
    const kept = JSON.parse(window.localStorage.getItem(slipsKey) || "{}");
    if (kept && typeof kept === "object" && !Array.isArray(kept) && Object.keys(kept).length) {
      const clean = {};
      Object.keys(kept).forEach((n) => {
        if (/^\d{1,2}$/.test(n) && Number.isInteger(kept[n]) && kept[n] > 0) clean[n] = kept[n];
      });
      model.set("slips", clean);
      model.save_changes();
    }
  } catch (e) { /* storage may be blocked, or hold something else */ }
  model.on("change:slips", () => {
    try { window.localStorage.setItem(slipsKey, JSON.stringify(model.get("slips"))); } catch (e) { /* blocked */ }
  });
  window.addEventListener("hashchange", () => {
    const step = fromHash();
    if (step && step !== model.get("step")) { model.set("wanted", step); model.save_changes(); }
  });
}
export default { render };
"""


def next_page_link(file: str) -> str:
    """The recap's way on: a link to the page after ``file`` that looks like the Continue button ("" if none)."""
    i = index_of(file)
    if not 0 <= i < len(PAGES) - 1:
        return ""
    following = PAGES[i + 1]
    words = html.escape(_("Next: {title}").format(title=_(following.title)))
    return (
        f'<a class="tartli-next-page" target="_self" href="{html.escape(page_url(following))}" '
        "style='display:inline-flex;align-items:center;min-height:44px;box-sizing:border-box;padding:0 14px;"
        "background:#1d4ed8;color:#fff;text-decoration:none;border-radius:2px;font-weight:600'>"
        f"{words} →</a>"
    )


class StepAddress(anywidget.AnyWidget):
    """The step's address in the page (``#step-4``) and the last step kept in the browser."""

    _esm = _NAV_ESM
    lesson = traitlets.Unicode("").tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
    """The step on screen (1-based), written to the address and the browser by the page."""
    wanted = traitlets.Int(0).tag(sync=True)
    """The step the page asks for: from its address, a link, or the last visit."""
    done = traitlets.List(traitlets.Int()).tag(sync=True)
    """The steps done (1-based): kept in the browser, so a lesson opened again shows its ✓ dots."""
    slips = traitlets.Dict(value_trait=traitlets.Int()).tag(sync=True)
    """Wrong answers to each step's question (``{"4": 2}``), kept in the browser; a class's teacher sees them."""


_CSS = """
<style>
.tartli-steps .tartli-step-text { font-size: 1.05em; line-height: 1.5; max-width: 44em; }
.tartli-steps .tartli-step-text p { margin: .4em 0; }
.tartli-steps .tartli-step-title { margin: .2em 0 .3em; }
.tartli-steps .tartli-where { color: #555; font-size: .95em; }
.tartli-steps .tartli-dots button { min-width: 44px; width: 44px; min-height: 44px; padding: 0; }
.tartli-steps .tartli-step-text a, .tartli-steps .tartli-feedback a, .tartli-feedback a.tartli-rule {
  color: #1d4ed8; text-decoration: underline; }
.tartli-steps .tartli-task-box { border-top: 1px solid #ddd; margin-top: .6em; padding-top: .4em; }
</style>
"""


class Lesson:
    """A lesson of short steps shown one at a time (see the module's docstring)."""

    def __init__(self, file: str, *, goals: Sequence[str] = (), title: str | None = None) -> None:
        from tartli.course import PAGES

        page = next((p for p in PAGES if p.file == file), None)
        if page is None:
            raise TartliError(f"no course page {file!r}: a lesson needs its page's file name")
        self.file = file
        self.title = title or page.title  # a course page's title is English here, shown translated
        self.goals = list(goals)
        self.steps: list[Step] = []
        self.current = 0  # 0-based
        self.address = StepAddress(lesson=file.removesuffix(".ipynb"))
        self.address.observe(self._on_wanted, names="wanted")
        self.done_steps: set[int] = set()
        """Steps done (0-based): a task solved, a step without a task continued from, or either on an earlier
        visit."""
        self.address.observe(self._on_kept_done, names="done")
        self.header = w.HTML("")
        self.where = w.HTML("")
        self.dots = w.HBox([], layout=w.Layout(flex_flow="row wrap"))
        self.dots.add_class("tartli-dots")
        self.body = w.VBox([])
        self.back_button = w.Button(description=_("← Back"), layout=w.Layout(width="auto", flex="0 0 auto"))
        self.next_button = w.Button(
            description=_("Continue") + " →", button_style="primary", layout=w.Layout(width="auto", flex="0 0 auto")
        )
        self.back_button.on_click(lambda _b: self.go(self.current - 1))
        self.next_button.on_click(lambda _b: self.next())
        self.hint = w.HTML("")
        self._dot_buttons: list[Any] = []
        self.nav = w.HBox(  # on a phone the hint goes under the buttons, which keep their whole words
            [self.back_button, self.next_button, self.hint],
            layout=w.Layout(align_items="center", flex_flow="row wrap"),
        )
        self.nav.add_class("tartli-step-nav")  # (sticky at the bottom of a phone's screen: the page template)
        self.widget = w.VBox(
            [
                w.HTML(_CSS),
                self.address,
                self.header,
                self.where,
                self.dots,
                self.body,
                self.nav,
            ],
            layout=w.Layout(max_width="960px"),
        )
        self.widget.add_class("tartli-steps")
        self._draw()

    # -- building
    def step(self, title: str, text: str, *parts: Any, task: Any = None) -> None:
        """Add a step: its title, its text (small Markdown), pictures (HTML strings or widgets), a task.

        (It returns nothing, so that a notebook cell ending with it shows nothing of its own.)
        """
        if not isinstance(task, Later):
            task = as_task(task)  # (a task that is no task is refused at once)
        self._add(Step(title, text.strip(), tuple(parts), task))

    def recap(self, items: Sequence[str], *, title: str | None = None) -> None:
        """The last step: the points to remember, and the links to the next page (title: "Recap")."""
        text = "\n".join(f"- {item}" for item in items)
        self._add(Step(title or _("Recap"), text, (nav_html(self.file),), None, recap=True))

    def _add(self, made: Step) -> None:
        made._on_made.append(functools.partial(self._wire, len(self.steps) + 1))
        if not any(isinstance(p, Later) for p in (*made.given_parts, made.given_task)):
            made.make()  # (nothing later: the step is made as it is added)
        self.steps.append(made)
        if self.address.wanted and len(self.steps) == self.address.wanted:
            self.current = len(self.steps) - 1
        self._draw()

    def _wire(self, number: int, made: Step) -> None:
        """A step's parts and task are made: its box (made when first shown), and its task's news to the runner."""
        task = made.task
        if task is not None:
            task.on_done(self._draw)
        if isinstance(task, Question):
            task.on_slip(functools.partial(self._slipped, number))
        made._boxer = self._box  # (its widgets are made when it is first shown: Step.box)

    def _slipped(self, number: int) -> None:
        """A wrong answer to step ``number``'s question: counted (with the earlier visits' count from the browser)."""
        slips = dict(self.address.slips)
        slips[str(number)] = min(slips.get(str(number), 0) + 1, 99)
        self.address.slips = slips

    def _box(self, made: Step) -> Any:
        parts: list[Any] = [
            w.HTML(f"<h2 class='tartli-step-title'>{html.escape(made.title)}</h2>"),
            w.HTML(f"<div class='tartli-step-text'>{markdown_html(made.text)}</div>"),
        ]
        for part in made.parts:
            parts.append(w.HTML(part) if isinstance(part, str) else part)
        if made.task is not None:
            task_box = w.VBox([made.task.widget])
            task_box.add_class("tartli-task-box")
            parts.append(task_box)
        box = w.VBox(parts)
        box.add_class("tartli-step")
        return box

    # -- moving
    def go(self, index: int) -> None:
        """Show step ``index`` (0-based), if it exists."""
        if 0 <= index < len(self.steps):
            self.current = index
            shown = getattr(self.steps[index].task, "shown", None)  # a task may look at what the learner brings
            if callable(shown):
                try:
                    shown()
                except Exception:  # the step is drawn all the same
                    log.exception("a step's task could not look at the position")
            self._draw()

    def next(self) -> None:
        """The Continue button: a step without a task is done once the learner continues from it."""
        if self.steps and self.steps[self.current].task is None:
            self.done_steps.add(self.current)
        self.go(self.current + 1)

    def _on_wanted(self, change: Any) -> None:
        wanted = change["new"]
        if isinstance(wanted, int) and 1 <= wanted <= len(self.steps):
            self.go(wanted - 1)

    def may_continue(self) -> bool:
        """Whether the step on screen lets the learner on (its task done now or on an earlier visit, or no task)."""
        if not self.steps:
            return False
        task = self.steps[self.current].task
        return task is None or task.done or self.current in self.done_steps

    def _on_kept_done(self, change: Any) -> None:
        """The browser sent the steps done on earlier visits."""
        kept = {n - 1 for n in change["new"] if isinstance(n, int) and n > 0}  # steps may still be coming
        if not kept <= self.done_steps:
            self.done_steps |= kept
            self._draw()

    def _note_done(self) -> None:
        """Mark the steps whose task is done, and keep every step done in the browser (a step without a
        task is done once the learner continues from it: see :meth:`next`; the recap, the last step,
        is never continued from: it is done once reached)."""
        for k, made in enumerate(self.steps):
            if (made.made and made.task is not None and made.task.done) or (made.recap and k == self.current):
                self.done_steps.add(k)
        kept = sorted(k + 1 for k in self.done_steps)
        if list(self.address.done) != kept:
            self.address.done = kept

    def _draw(self) -> None:
        try:
            count = len(self.steps)
            if not count:
                loading = _("Loading the lesson…")
                self.header.value = f"<h1>{html.escape(_(self.title))}</h1><p>{html.escape(loading)}</p>"
                self.next_button.disabled = self.back_button.disabled = True
                return
            made = self.steps[self.current]
            made.make()  # (a step with later parts is made when it is first shown)
            goals = ""
            if self.current == 0 and self.goals:
                items = "".join(f"<li>{html.escape(g)}</li>" for g in self.goals)
                heading = _("In this lesson you will")
                goals = (
                    "<div class='tartli-box' style='border-left:5px solid #2f6b45;background:#eef6f0;"
                    f"padding:.5em 1em;margin:.5em 0'><b>{html.escape(heading)}</b><ul>{items}</ul></div>"
                )
            self.header.value = f"<h1 style='margin:.2em 0'>{html.escape(_(self.title))}</h1>{goals}"
            where = _("Step {number} of {count} · recap") if made.recap else _("Step {number} of {count}")
            self._note_done()
            self._draw_dots()
            # The buttons first: a step's widgets may be made now (Step.box) and reach the browser a moment later,
            # and in that moment Continue must not be open on a step whose task is not done.
            self.back_button.disabled = self.current == 0
            last = self.current == count - 1
            self.next_button.disabled = last or not self.may_continue()
            self.next_button.description = _("Continue") + " →"
            self.back_button.description = _("← Back")
            onward = next_page_link(self.file) if last else ""
            # (on the recap, Continue leads on to the next page: a link dressed as the button it replaces)
            self.next_button.layout.display = "none" if onward else None
            if made.task is not None and not made.task.done:
                hint = _("Do the task to go on.")
                self.hint.value = f"<span style='color:#555;margin-left:.6em'>{html.escape(hint)}</span>"
            else:
                self.hint.value = onward
            self.body.children = (made.box,)
            self.where.value = (  # after the step itself: "Step 4 of 12" on screen means step 4 is there
                "<div class='tartli-where' aria-live='polite'>"
                f"{html.escape(where.format(number=self.current + 1, count=count))}</div>"
            )
            self.address.step = self.current + 1
        except Exception:  # a lesson page never shows a traceback
            log.exception("the step runner could not draw")

    def _draw_dots(self) -> None:
        while len(self._dot_buttons) < len(self.steps):
            k = len(self._dot_buttons)
            button = w.Button(
                tooltip=_("Step {number}: {title}").format(number=k + 1, title=self.steps[k].title),
                layout=w.Layout(width="44px", height="44px", padding="0"),
            )
            button.on_click(lambda _b, k=k: self.go(k))
            self._dot_buttons.append(button)
        for k, (made, button) in enumerate(zip(self.steps, self._dot_buttons, strict=False)):
            done = k in self.done_steps or (made.made and made.task is not None and made.task.done)
            mark = "●" if k == self.current else ("✓" if done else "○")
            if button.description != mark:
                button.description = mark
        if len(self.dots.children) != len(self._dot_buttons):
            self.dots.children = tuple(self._dot_buttons)

    def show(self) -> None:
        """Show the lesson in the page (the steps added later appear in it)."""
        ipd.display(self.widget)  # type: ignore[no-untyped-call]

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
