"""The review of phase 2 against the exact solver, card by card (:func:`review_hand`,
:func:`review_html`): it stays for scripts; the table's own review is
:class:`~tartli.widgets.hand_review.ReviewPanel`."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from tartli import names
from tartli.bots import solve
from tartli.cards import Card
from tartli.game import PHASE1_TRICKS, HandState, Status
from tartli.i18n import _, joined, ngettext, the
from tartli.moves import Play
from tartli.names import Language, Named


@dataclass(frozen=True)
class ReviewItem:
    """One phase-2 card of a player, compared with the exact solver's best at that moment.

    ``value`` and ``best_value`` are the solver's final card-point differences (the
    player's minus the opponent's) after this card and after the best card; ``loss``
    is their difference, so the card cost ``points`` = ``loss // 2`` card points.
    """

    index: int
    """The move's place in ``state.moves``."""
    trick: int
    card: Card
    led: bool
    best: tuple[Card, ...]
    value: int
    best_value: int
    turning: bool = False

    @property
    def loss(self) -> int:
        return self.best_value - self.value

    @property
    def points(self) -> int:
        """Card points this card cost against the best play (both sides playing best afterwards)."""
        return self.loss // 2


def review_hand(state: HandState, player: int, turning_points: int = 2) -> list[ReviewItem]:
    """Replay the hand (``state.deal`` + ``state.moves``) and judge each phase-2 card of ``player``.

    Each card is compared with the best of :func:`tartli.bots.solve` at that moment
    (tricks 8-16: both hands known, T4, C5, S2). The ``turning_points`` costliest
    cards that lost anything are marked ``turning``.
    """
    replay = HandState(state.deal, state.rules, state.scores_in)
    items: list[ReviewItem] = []
    for index, move in enumerate(state.moves):
        if (
            isinstance(move, Play)
            and move.player == player
            and replay.trick_number > PHASE1_TRICKS
            and replay.status is Status.IN_PROGRESS
        ):
            solution = solve(replay, all_values=True)
            items.append(
                ReviewItem(
                    index=index,
                    trick=replay.trick_number,
                    card=move.card,
                    led=replay.lead is None,
                    best=tuple(m.card for m in solution.best_moves),
                    value=solution.move_values[move],
                    best_value=solution.value,
                )
            )
        replay.push(move)
    costly = sorted((i for i in items if i.loss > 0), key=lambda i: (-i.loss, i.index))[:turning_points]
    marked = {i.index for i in costly}
    return [
        ReviewItem(i.index, i.trick, i.card, i.led, i.best, i.value, i.best_value, i.index in marked) for i in items
    ]


def names_or(cards: Sequence[Card], lang: Language) -> Named:
    """ "the Ace of Hearts, the Ten of Hearts or the King of Bells" (in the page's language, with the
    forms a sentence asks for, ``{best.acc}``)."""
    return joined([the(c.name(lang)) for c in cards], _("{cards} or {card}"), "cards", "card")


def _review_line(item: ReviewItem, lang: Language, spared: bool = False) -> str:
    """One card of the review; ``spared``: it lost points against best play, but the computer's replies
    did not take them (the hand ended as well as best play from there would have)."""
    card = item.card.name(lang)
    if item.loss == 0:
        if item.led:
            return _("Trick {trick}: you led the {card_acc}: a best card ✓").format(trick=item.trick, card=card)
        return _("Trick {trick}: you played the {card_acc}: a best card ✓").format(trick=item.trick, card=card)
    best = names_or(item.best, lang)
    n = item.points
    if spared and item.led:
        text = ngettext(
            "Trick {trick}: you led the {card_acc}: against best play it could have cost {points} card point; "
            "the computer did not punish it. Best was {best}",
            "Trick {trick}: you led the {card_acc}: against best play it could have cost {points} card points; "
            "the computer did not punish it. Best was {best}",
            n,
        )
    elif spared:
        text = ngettext(
            "Trick {trick}: you played the {card_acc}: against best play it could have cost {points} card point; "
            "the computer did not punish it. Best was {best}",
            "Trick {trick}: you played the {card_acc}: against best play it could have cost {points} card points; "
            "the computer did not punish it. Best was {best}",
            n,
        )
    elif item.led:
        text = ngettext(
            "Trick {trick}: you led the {card_acc}: it cost {points} card point; best was {best}",
            "Trick {trick}: you led the {card_acc}: it cost {points} card points; best was {best}",
            n,
        )
    else:
        text = ngettext(
            "Trick {trick}: you played the {card_acc}: it cost {points} card point; best was {best}",
            "Trick {trick}: you played the {card_acc}: it cost {points} card points; best was {best}",
            n,
        )
    return text.format(trick=item.trick, card=card, points=n, best=best)


def review_html(state: HandState, player: int, language: Language | None = None) -> str:
    """The post-hand review as a short HTML list (see :func:`review_hand`).

    A costly card the computer did not punish (the hand, played out, ended at least as well for the
    player as best play from that card on would have) "could have cost" its points: after a
    stichmatsch nothing was given away."""
    lang = names.resolve(language)
    title = _("<b>Review of your phase 2</b> (the exact solver compares each card you played with the best one)")
    items = review_hand(state, player)
    if not items:
        if len(state.tricks) < PHASE1_TRICKS + 1:
            ended = _("The hand ended before phase 2 (trick 8): there is nothing for the solver to review.")
        else:
            ended = _("The hand ended before your first card: there is nothing for the solver to review.")
        return f"{title}<p>{html.escape(ended)}</p>"
    played_out = state.status is Status.FINISHED
    result = state.card_points[player] - state.card_points[1 - player]

    def spared(item: ReviewItem) -> bool:
        return played_out and item.loss > 0 and result >= item.best_value

    rows = []
    turning = html.escape(_("turning point"))
    for item in items:
        # a card the computer did not punish turned nothing: no flag (the review after a stichmatsch had one)
        mark = f" <b style='color:#a40000'>⚑ {turning}</b>" if item.turning and not spared(item) else ""
        rows.append(f"<li>{html.escape(_review_line(item, lang, spared(item)))}{mark}</li>")
    lost = sum(i.points for i in items if not spared(i))
    could = sum(i.points for i in items if spared(i))
    if lost == 0 and could == 0:
        summary = _("You played every card of phase 2 as well as it can be played.")
    elif lost == 0:
        summary = ngettext(
            "Added up, your phase-2 choices could have cost {points} card point against best play; "
            "the computer did not punish them (T4, C5, S2).",
            "Added up, your phase-2 choices could have cost {points} card points against best play; "
            "the computer did not punish them (T4, C5, S2).",
            could,
        ).format(points=could)
    else:
        summary = ngettext(
            "Added up, your phase-2 choices gave away {points} card point against best play (T4, C5, S2).",
            "Added up, your phase-2 choices gave away {points} card points against best play (T4, C5, S2).",
            lost,
        ).format(points=lost)
    return f"{title}<ul style='margin:4px 0'>{''.join(rows)}</ul><p style='margin:0'>{html.escape(summary)}</p>"


__all__ = ["ReviewItem", "names_or", "review_hand", "review_html"]
