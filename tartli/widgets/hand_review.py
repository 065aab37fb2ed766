"""The review of a hand at the table, "Try again", and the match summary (the widgets; the judging
is :mod:`tartli.bots.review`).

After a hand the learner presses *Review this hand*: every decision of theirs in both phases is
judged (phase 1 over sampled deals of the hidden cards, with a progress bar while it runs; phase 2
exactly), each with its class, its loss, a sentence on what was better and why, and "could have
cost" where the hand did not charge it; the three costliest are marked, each with a *Try again*
button that opens its position: the learner finds a better move there (cards clicked as at the
table, declarations and going out as buttons), judged by the same evaluation, with stars (3 at the
first try, 2 at the second, 1 later).

At the end of a match, :func:`match_summary_html` shows each hand's meld and card points, its
decisions by class and the running accuracy (:func:`tartli.bots.review.match_summary`); the table
keeps the hands' summaries with the saved match.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import ipywidgets as w

from tartli import names
from tartli.bots.hint import move_phrase
from tartli.bots.review import Decision, Grade, HandReview, HandSummary, Retry, match_summary
from tartli.cards import Card
from tartli.game import HandState, PlayerView
from tartli.i18n import N_, _, ngettext
from tartli.moves import Declare, Move, Pass, Play
from tartli.names import Language
from tartli.render.table import table_svg
from tartli.widgets.board import Announcer, SvgBoard
from tartli.widgets.move_names import main_declarations, move_words


class ReviewTable(Protocol):
    """What the review panel needs of the table it reviews (:class:`~tartli.widgets.table.TableController`
    is one): the finished hand, the learner's review of it, where the summary goes, and how the table
    draws, speaks and catches a callback's error."""

    @property
    def state(self) -> HandState: ...

    @property
    def language(self) -> Language | None: ...

    @property
    def names(self) -> tuple[str, str]: ...

    @property
    def narrow(self) -> bool: ...

    @property
    def announcer(self) -> Announcer: ...

    def guard(self, fn: Callable[..., Any]) -> Callable[..., Any]: ...

    def offered(self, move: Move) -> bool: ...

    def learner_review(self, progress: Callable[[int, int], None] | None = None) -> HandReview: ...

    def note_summary(self, state: HandState, summary: HandSummary) -> None: ...


GRADE_NAMES = {
    Grade.BEST: N_("Best"),
    Grade.GOOD: N_("Good"),
    Grade.INACCURACY: N_("Inaccuracy"),
    Grade.MISTAKE: N_("Mistake"),
    Grade.BLUNDER: N_("Blunder"),
}
"""A decision's class as the review's list names it (English: ``_()`` gives the page's language)."""
GRADE_COLOURS = {
    Grade.BEST: "#1f6f2b",
    Grade.GOOD: "#2f6f5f",
    Grade.INACCURACY: "#8a5a00",
    Grade.MISTAKE: "#b54700",
    Grade.BLUNDER: "#a40000",
}
GRADE_SIGNS = {Grade.BEST: "✓", Grade.GOOD: "✓", Grade.INACCURACY: "?!", Grade.MISTAKE: "?", Grade.BLUNDER: "??"}
"""Each class has a sign as well as a colour (the colour is never the only mark)."""


def grade_name(found: Grade) -> str:
    return _(GRADE_NAMES[found])


def loss_words(d: Decision) -> str:
    """ "about 31 points lost, give or take 14", "12 points lost" (exact), or "" (a best move, or a
    claim: a game is not a number of points). The number is the one the class is made from."""
    if d.loss is None or round(d.loss) <= 0:
        return ""
    lost = round(d.loss)
    if d.samples:
        return ngettext(
            "about {points} point lost, give or take {se}", "about {points} points lost, give or take {se}", lost
        ).format(points=lost, se=round(d.se))
    return ngettext("{points} point lost", "{points} points lost", lost).format(points=lost)


def decision_html(d: Decision, player: int) -> str:
    """One decision of the review as a list item: trick, move, class (with a sign), loss, the sentence."""
    assert d.position is not None
    view = d.position.view(player)
    head = _("Trick {trick}: {move}").format(trick=d.trick, move=move_phrase(d.move, view))
    klass = f"{GRADE_SIGNS[d.grade]} {grade_name(d.grade)}"
    loss = loss_words(d)
    mark = ""
    if d.costly:
        costliest = _("one of the costliest")  # (outside the f-string: the catalog's extractor reads calls only)
        mark = f" <b style='color:#a40000'>⚑ {html.escape(costliest)}</b>"
    colour = GRADE_COLOURS[d.grade]
    return (
        f"<li class='tartli-decision' data-index='{d.index}'><b>{html.escape(head)}</b> "
        f"<span style='color:{colour};font-weight:bold'>{html.escape(klass)}</span>"
        + (f" ({html.escape(loss)})" if loss else "")
        + mark
        + f"<br>{html.escape(d.text)}</li>"
    )


def review_summary_text(found: HandReview) -> str:
    """The review's closing lines: accuracy, decisions by class, how phase 1 was sampled."""
    s = found.summary
    if not s.decisions:
        return _("You had no decision to make in this hand: every move was forced.")
    counts = ", ".join(f"{grade_name(g)} {n}" for g, n in zip(Grade, s.grades, strict=True))
    text = _("Accuracy {accuracy}% over {n} decisions: {counts}.").format(
        accuracy=round(s.accuracy or 0), n=s.decisions, counts=counts
    )
    errors = found.sampling_errors
    dealt = [d.samples for d in found.decisions if d.phase == 1 and d.samples]
    if dealt:
        typical = sorted(errors)[len(errors) // 2] if errors else 0.0
        text += " " + _(
            "Phase 1 is judged over {n} deals of the hidden cards as you saw them, the same deals the Hint uses "
            "(a loss there is known give or take about {se} points); phase 2 exactly."
        ).format(n=max(dealt), se=round(typical))
    return text


def stars_text(stars: int) -> str:
    return "★" * stars + "☆" * (3 - stars)


class ReviewPanel:
    """The review of the table's finished hand, with Try again (see the module notes)."""

    def __init__(self, table: ReviewTable) -> None:
        self.table = table
        self.result: HandReview | None = None
        self.retry: Retry | None = None
        self._state: HandState | None = None
        self.button = w.Button(
            description=_("Review this hand"),
            icon="search",
            tooltip=_("Every decision of yours in both phases: what it cost and what was better"),
            layout=w.Layout(width="auto", display="none"),
        )
        self.progress = w.IntProgress(
            value=0, min=0, max=1, description=_("Reviewing:"), layout=w.Layout(width="auto", display="none")
        )
        self.progress.style.description_width = "initial"
        self.progress_label = w.Label()
        self.body = w.HTML()
        self.retry_buttons = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.retry_title = w.HTML()
        self.retry_board = SvgBoard(layout=w.Layout(width="100%"))
        self.retry_moves = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.retry_verdict = w.HTML()
        self.retry_close = w.Button(description=_("Back to the review"), tooltip=_("Close this position"))
        self.retry_box = w.VBox(
            [self.retry_title, self.retry_board, self.retry_moves, self.retry_verdict, self.retry_close],
            layout=w.Layout(display="none", flex_flow="column"),
        )
        self.retry_box.add_class("tartli-try-again")
        self.button.on_click(table.guard(lambda _b: self.run()))
        self.retry_board.on_pick(table.guard(lambda text: self.try_move(Play(self._retry_player(), Card.parse(text)))))
        self.retry_close.on_click(table.guard(lambda _b: self.close_retry()))
        self.widget = w.VBox(
            [self.button, w.HBox([self.progress, self.progress_label]), self.body, self.retry_buttons, self.retry_box]
        )
        self.widget.add_class("tartli-review")

    # ------------------------------------------------------------ the hand's review
    def reset(self) -> None:
        """A hand under way: nothing to show (nothing is sent when nothing is shown)."""
        if self._state is None and self.result is None and self.retry is None and not self.body.value:
            return
        self._state = None
        self.result = None
        self.button.layout.display = "none"
        self.progress.layout.display = "none"
        self.progress_label.value = ""
        self.body.value = ""
        self.retry_buttons.children = ()
        self.close_retry()

    def offer(self, state: HandState) -> None:
        """The hand is over: offer its review (once per finished hand)."""
        if self._state is state and (self.result is not None or self.button.layout.display != "none"):
            return
        self.reset()
        self._state = state
        self.button.layout.display = ""
        self.body.value = "<p style='margin:4px 0'>{}</p>".format(
            html.escape(
                _(
                    "Review this hand: every decision of yours in both phases, what it cost and what was better "
                    "(phase 1 takes a few seconds)."
                )
            )
        )

    def run(self) -> HandReview:
        """Judge every decision of the learner in the finished hand, with a progress bar."""
        state = self.table.state
        if not state.is_over:
            raise_not_over()
        self.button.layout.display = "none"
        self.progress.layout.display = ""

        def progress(done: int, total: int) -> None:
            self.progress.max = max(1, total)
            self.progress.value = done
            self.progress_label.value = _("{done} of {total} decisions").format(done=done, total=total)

        found = self.table.learner_review(progress)
        self.progress.layout.display = "none"
        self.progress_label.value = ""
        self._state = state
        self.show(found)
        self.table.announcer.say(review_summary_text(found))  # a screen reader hears that it is ready
        self.table.note_summary(state, found.summary)
        return found

    def show(self, found: HandReview) -> None:
        self.result = found
        title = html.escape(_("Review of your decisions in this hand"))
        rows = "".join(decision_html(d, found.player) for d in found.decisions)
        summary = html.escape(review_summary_text(found))
        self.body.value = (
            f"<div style='border-left:5px solid #5b6b80;background:#eef2f7;padding:6px 10px;margin:4px 0'>"
            f"<b>{title}</b><ol style='margin:4px 0'>{rows}</ol><p style='margin:0'>{summary}</p></div>"
        )
        buttons = []
        for d in found.costly:
            if d.evaluation is None and d.claim != "missed":
                continue  # a claim made out of turn: the better choice was to wait, not another move
            button = w.Button(
                description=_("Try again: trick {trick}").format(trick=d.trick),
                icon="repeat",
                tooltip=_("Find a better move in this position"),
                layout=w.Layout(width="auto"),
            )
            button.on_click(self.table.guard(lambda _b, index=d.index: self.try_again(index)))
            buttons.append(button)
        self.retry_buttons.children = tuple(buttons)

    # ------------------------------------------------------------ Try again
    def _retry_player(self) -> int:
        if self.retry is None:
            raise_no_retry()
        assert self.retry is not None
        return self.retry.player

    def retry_moves_offered(self) -> list[Move]:
        """The moves Try again offers as buttons (cards are clicked on the picture)."""
        if self.retry is None:
            return []
        legal = [m for m in self.retry.view.legal_moves if self.table.offered(m)]
        declares = main_declarations([m for m in legal if isinstance(m, Declare)])
        best = self.retry.decision.best
        declares += [m for m in best if isinstance(m, Declare) and m not in declares]
        others = [m for m in legal if not isinstance(m, (Play, Declare, Pass))]
        return [*declares, *others]

    def try_again(self, index: int) -> Retry:
        """Open the position of the decision at move ``index`` for the learner to find a better move."""
        if self.result is None:
            raise_no_retry()
        assert self.result is not None
        self.retry = self.result.retry(index)
        lang = names.resolve(self.table.language)
        d = self.retry.decision
        self.retry_title.value = "<b>{}</b> {}".format(
            html.escape(_("Try again: trick {trick}").format(trick=d.trick)),
            html.escape(
                _("You played {move_ins} here ({grade}). Find a better move: click a card or press a button.").format(
                    move=move_phrase(d.move, self.retry.view), grade=grade_name(d.grade)
                )
            ),
        )
        self.retry_board.svg = table_svg(
            self.retry.view,
            language=lang,
            pickable=True,
            player_names=self.table.names,
            narrow=self.table.narrow,
        )
        buttons = []
        for move in self.retry_moves_offered():
            button = w.Button(description=_button_words(move, self.retry.view, lang), layout=w.Layout(width="auto"))
            button.on_click(self.table.guard(lambda _b, m=move: self.try_move(m)))
            buttons.append(button)
        self.retry_moves.children = tuple(buttons)
        self.retry_verdict.value = ""
        self.retry_box.layout.display = "flex"
        return self.retry

    def try_move(self, move: Move) -> str:
        """Judge a move tried at the open position; the verdict and the stars are shown (and returned)."""
        if self.retry is None:
            raise_no_retry()
        assert self.retry is not None
        verdict = self.retry.judge(move)
        head = f"{GRADE_SIGNS[verdict.grade]} {grade_name(verdict.grade)}"
        if verdict.grade is Grade.BEST:
            line = _("Found: {stars}").format(stars=stars_text(self.retry.stars))
        elif verdict.better:
            line = _("Better than your move, but not the best yet: try again.")
        else:
            line = _("Not better than your move: try again.")
        text = f"{head}: {verdict.text} {line}"
        self.table.announcer.say(text)
        colour = GRADE_COLOURS[verdict.grade]
        self.retry_verdict.value = (
            f"<div role='status' style='border-left:5px solid {colour};padding:4px 8px'>{html.escape(text)}</div>"
        )
        return text

    def close_retry(self) -> None:
        self.retry = None
        self.retry_box.layout.display = "none"
        self.retry_moves.children = ()
        self.retry_verdict.value = ""


def _button_words(move: Move, view: PlayerView, lang: Language) -> str:
    words = move_words(move, view, lang)
    return words[:1].upper() + words[1:]


def raise_not_over() -> None:
    from tartli.errors import TartliError

    raise TartliError(_("The hand is not over yet: the review comes when it is."))


def raise_no_retry() -> None:
    from tartli.errors import TartliError

    raise TartliError(_("Review the hand first, then choose a marked decision."))


def match_summary_html(hands: Sequence[HandSummary | None], said: Callable[[int], str], player: int) -> str:
    """The match summary: per hand, meld and card points (the learner's and the computer's), decisions by
    class and the running accuracy; a hand without a summary shows its row as not reviewed."""
    known = [h for h in hands if h is not None]
    summary = match_summary(known)
    running = iter(summary.running)
    you, other = html.escape(said(player)), html.escape(said(1 - player))
    heads = [
        _("Hand"),
        _("Meld points ({you} : {other})").format(you=you, other=other),
        _("Card points ({you} : {other})").format(you=you, other=other),
        *(grade_name(g) for g in Grade),
        _("Running accuracy"),
    ]
    cell = "padding:2px 6px;border-bottom:1px solid #ccd;text-align:right"
    rows = ["<tr>" + "".join(f"<th scope='col' style='{cell}'>{html.escape(h)}</th>" for h in heads) + "</tr>"]
    for k, h in enumerate(hands, start=1):
        if h is None:
            cells = [str(k), "", "", *[""] * 5, _("not reviewed")]
        else:
            accuracy = next(running)
            cells = [
                str(k),
                f"{h.melds[0]} : {h.melds[1]}",
                f"{h.cards[0]} : {h.cards[1]}",
                *(str(n) for n in h.grades),
                "" if accuracy is None else f"{accuracy:.0f}%",
            ]
        rows.append(
            "<tr>"
            + f"<th scope='row' style='{cell}'>{html.escape(cells[0])}</th>"
            + "".join(f"<td style='{cell}'>{html.escape(c)}</td>" for c in cells[1:])
            + "</tr>"
        )
    title = html.escape(_("Match summary"))
    if summary.accuracy is None:
        closing = _("No decision of yours was reviewed in this match.")
    else:
        closing = _("Your accuracy over the match: {accuracy}% ({n} decisions).").format(
            accuracy=round(summary.accuracy), n=sum(summary.grades)
        )
    return (
        "<div class='tartli-match-summary' style='border-left:5px solid #1f4d2b;background:#eef6ef;padding:6px 10px;"
        f"margin:4px 0;overflow-x:auto'><table style='border-collapse:collapse;margin:4px 0'>"
        f"<caption style='text-align:left;font-weight:bold'>{title}</caption>{''.join(rows)}</table>"
        f"<p style='margin:0'>{html.escape(closing)}</p></div>"
    )


__all__ = [
    "GRADE_NAMES",
    "ReviewPanel",
    "ReviewTable",
    "decision_html",
    "grade_name",
    "loss_words",
    "match_summary_html",
    "review_summary_text",
    "stars_text",
]
