"""Why a move lost: the cause read from the evaluation's own lines, in the learner's words.

A phase-1 evaluation (:func:`tartli.bots.evaluate.evaluate`) plays every move out on the same deals
of the hidden cards and keeps, for each deal, what the hand brought the player
(:class:`~tartli.bots.evaluate.Line`: the melds each side scored, the card points, the last trick,
a stichmatsch, who drew the indicator). :func:`cause` compares the best move's lines with another
move's, deal by deal, and names what made the difference, with its count over the deals:

* a meld that one of the moves lets the player score more often, or the opponent less often, worth
  its value times how much more often it scores (when a draw completes it, the draw is said: the
  face-up indicator goes to the loser of trick 7, T3);
* a stichmatsch (S2) won or let through;
* the last trick and its 10 (C5);
* otherwise the card points the two moves end the hand with.

A cause is named only for a loss of at least :data:`LEAST` points, and only when it explains a fair
part of it (at least :data:`SHARE` of it and at least :data:`LEAST` points); otherwise :func:`cause`
returns None and the review says a fact of the position instead.

>>> import random
>>> from tartli.game import HandState
>>> from tartli.bots.evaluate import Budget, evaluate
>>> state = HandState.from_seed(4)
>>> view = state.view(state.to_move)
>>> found = evaluate(view, Budget(deals=8))
>>> worst = found.moves[-1]
>>> text = cause(view, found, worst.move)
>>> text is None or isinstance(text, str)
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tartli._checks import checked, checked_fields, checked_real
from tartli.bots.evaluate import Evaluation, Line
from tartli.errors import ArgumentError, shown
from tartli.game import PlayerView
from tartli.i18n import _
from tartli.melds import Meld
from tartli.moves import Move

__all__ = ["LEAST", "SHARE", "Cause", "cause", "causes"]

SHARE = 0.3
"""A cause is named when it explains at least this share of the loss..."""
LEAST = 6.0
"""...and at least this many points of it."""
SWEEP_WORTH = 100.0
"""What a stichmatsch is taken to be worth in the ranking of causes (its card points over the
usual share of phase 2's tricks); the sentence gives counts, never this number."""


@dataclass(frozen=True)
class Cause:
    """One difference between the best move's lines and another move's (see the module notes).

    ``kind``: ``meld`` (the player's), ``their-meld``, ``sweep``, ``their-sweep``, ``last`` or
    ``cards``; ``meld`` the meld; ``best`` and ``mine`` how often it happened after each move (for
    ``cards``: the mean card points) over ``deals`` deals; ``worth`` the points of the loss it
    explains (an estimate for ranking: a meld's value times the difference in how often it scored).
    """

    kind: str
    worth: float
    best: float
    mine: float
    deals: int
    meld: Meld | None = None
    drawn: bool = False
    """A meld completed by drawing the face-up indicator (the loser of trick 7 takes it, T3)."""

    def __post_init__(self) -> None:
        checked_fields(self)


def causes(view: PlayerView, evaluation: Evaluation, move: Move) -> list[Cause]:
    """Every difference between the best move's lines and ``move``'s, the biggest first."""
    checked(view, PlayerView, "the view", "state.view(player)")
    checked(evaluation, Evaluation, "the evaluation", "evaluate(view)")
    if not isinstance(move, Move):
        raise ArgumentError(f"move must be a move (e.g. Play(0, Card.parse('AH'))), not {shown(move)}")
    if evaluation.exact or not evaluation.lines:
        return []
    top = evaluation.best.move
    best_lines = evaluation.lines.get(top, ())
    mine_lines = evaluation.lines.get(move, ())
    n = min(len(best_lines), len(mine_lines))
    if n == 0 or move == top:
        return []
    best, mine = best_lines[:n], mine_lines[:n]
    me = view.player
    already = set(view.scored_melds[me]) | set(view.scored_melds[1 - me])
    found: list[Cause] = []
    sides: tuple[tuple[str, Callable[[Line], frozenset[Meld]]], ...] = (
        ("meld", _own),
        ("their-meld", _theirs),
    )
    for kind, side in sides:
        melds: set[Meld] = set()
        for line in (*best, *mine):
            melds |= side(line)
        for meld in sorted(melds - already, key=lambda m: m.text):
            kb = sum(meld in side(x) for x in best)
            km = sum(meld in side(x) for x in mine)
            delta = kb - km if kind == "meld" else km - kb
            if delta <= 0:
                continue
            drawn = False
            if kind == "meld" and view.indicator is not None and meld.mask >> view.indicator.index & 1:
                # Said only where the draw is the difference: the best move's lines drew the indicator
                # for it, this move's mostly did not (it won trick 7).
                with_it = [x for x in best if meld in x.melds]
                drawn = sum(x.indicator for x in with_it) * 2 > len(with_it) and sum(x.indicator for x in mine) * 2 < n
            found.append(Cause(kind, meld.value * delta / n, kb, km, n, meld, drawn))
    for kind, sign in (("sweep", 1), ("their-sweep", -1)):
        kb = sum(x.sweep == sign for x in best)
        km = sum(x.sweep == sign for x in mine)
        delta = kb - km if sign == 1 else km - kb
        if delta > 0:
            found.append(Cause(kind, SWEEP_WORTH * delta / n, kb, km, n))
    kb = sum(x.last for x in best)
    km = sum(x.last for x in mine)
    if kb > km:
        found.append(Cause("last", 20.0 * (kb - km) / n, kb, km, n))
    cards_best = _mean(best)
    cards_mine = _mean(mine)
    if cards_best > cards_mine:
        found.append(Cause("cards", 2 * (cards_best - cards_mine), cards_best, cards_mine, n))
    found.sort(key=lambda c: (-c.worth, c.kind, "" if c.meld is None else c.meld.text))  # the same on every run
    return found


def _own(line: Line) -> frozenset[Meld]:
    return line.melds


def _theirs(line: Line) -> frozenset[Meld]:
    return line.their_melds


def _mean(lines: Sequence[Line]) -> float:
    return sum(x.cards for x in lines) / len(lines)


def cause(view: PlayerView, evaluation: Evaluation, move: Move, loss: float | None = None) -> str | None:
    """The main reason ``move`` did worse than the evaluation's best move, in a sentence of the
    page's language (see the module notes), or None when no single cause explains enough of it."""
    from tartli.bots.hint import move_phrase  # the hint's words for a move (it imports this module's neighbours)

    checked(view, PlayerView, "the view", "state.view(player)")
    checked(evaluation, Evaluation, "the evaluation", "evaluate(view)")
    if loss is not None:
        checked_real(loss, "loss", -math.inf, math.inf)

    if loss is None:
        loss = evaluation.of(move).loss
    if loss < LEAST:
        return None
    found = [c for c in causes(view, evaluation, move) if c.worth >= max(LEAST, SHARE * loss)]
    if not found:
        return None
    c = found[0]
    best = move_phrase(evaluation.best.move, view)
    mine = move_phrase(move, view)
    if c.kind == "cards":
        return _(
            "After {best_move_ins} you end the hand with {points} card points on average over the {n} deals, after "
            "{move_ins} with {fewer}."
        ).format(best_move=best, move=mine, points=round(c.best), fewer=round(c.mine), n=c.deals)
    counts = {"best": round(c.best), "mine": round(c.mine), "n": c.deals, "best_move": best, "move": mine}
    if c.kind == "meld":
        assert c.meld is not None
        text = _(
            "After {best_move_ins} you score your {meld_the} ({value}) in {best} of the {n} deals of the hidden "
            "cards, after {move_ins} in {mine}."
        ).format(meld=c.meld.title(), value=c.meld.value, **counts)
        if c.drawn and view.indicator is not None:
            text += " " + _(
                "The face-up {card_the} completes it: the loser of trick 7 draws it (T3), so losing that trick pays."
            ).format(card=view.indicator.name())
        return text
    if c.kind == "their-meld":
        assert c.meld is not None
        return _(
            "After {move_ins} your opponent scores their {meld_the} ({value}) in {mine} of the {n} deals of the "
            "hidden cards, after {best_move_ins} in {best}."
        ).format(meld=c.meld.title(), value=c.meld.value, **counts)
    if c.kind == "sweep":
        return _(
            "After {best_move_ins} you win every trick of phase 2 (stichmatsch: all 161 card points, S2) in {best} "
            "of the {n} deals, after {move_ins} in {mine}."
        ).format(**counts)
    if c.kind == "their-sweep":
        return _(
            "After {move_ins} your opponent wins every trick of phase 2 (stichmatsch: all 161 card points, S2) in "
            "{mine} of the {n} deals, after {best_move_ins} in {best}."
        ).format(**counts)
    return _(
        "After {best_move_ins} you win the last trick and its 10 card points (C5) in {best} of the {n} deals, after "
        "{move_ins} in {mine}."
    ).format(**counts)
