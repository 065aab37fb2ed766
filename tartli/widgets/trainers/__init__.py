"""Trainers: short interactive exercises, one rule at a time, judged by the engine.

Each exercise is a small controller (:class:`Exercise`) that owns its question,
its ipywidgets and an :class:`~tartli.widgets.board.SvgBoard` picture, and
re-renders from its state. No exercise keeps a rule of its own: who wins a
trick comes from :func:`~tartli.game.trick_winner`, card points from
:func:`~tartli.game.trick_points`, melds from :func:`~tartli.melds.find_melds`,
the contest from :func:`~tartli.melds.may_answer` and :func:`~tartli.melds.contest`,
same-suit sequences from :func:`~tartli.melds.same_suit_reason`, what may be
played from ``HandState.legal_moves()``, and going out from pushing the claim
on a copy of a :class:`~tartli.game.HandState`.

Headless use (tests, lessons)::

    ex = trainer("which-card-wins", seed=3)
    ex.answer(ex.winning_card)      # or ex.board.pick("OH"), or a Button's .click()
    ex.solved, ex.stars             # (True, 3)

The positions come from ``random.Random(seed)``: the same seed gives the same
sequence of positions, and "New position" always moves on to a different one.

One module per family of exercises, beside the shared base:

- :mod:`~tartli.widgets.trainers.progress`: :class:`Progress`, the stars and stages kept in the browser;
- :mod:`~tartli.widgets.trainers.canvas`: the felt-green pictures, drawn for the learner's screen;
- :mod:`~tartli.widgets.trainers.base`: :class:`Exercise` and the helpers that deal positions;
- :mod:`~tartli.widgets.trainers.tricks`: name the card, which card wins, count the card points;
- :mod:`~tartli.widgets.trainers.melds`: find the melds, the meld contest, same-suit sequences;
- :mod:`~tartli.widgets.trainers.phase_two`: what may you play;
- :mod:`~tartli.widgets.trainers.going_out`: can you go out.
"""

from __future__ import annotations

from typing import Any

from tartli.widgets.trainers.base import FRIENDLY_ERROR, Exercise
from tartli.widgets.trainers.canvas import NARROW_BELOW
from tartli.widgets.trainers.going_out import GoingOut
from tartli.widgets.trainers.melds import FindMelds, MeldContest, SameSuit
from tartli.widgets.trainers.phase_two import WhatMayYouPlay
from tartli.widgets.trainers.progress import STAGE_LENGTH, Progress, stars_text
from tartli.widgets.trainers.tricks import CountPoints, NameTheCard, WhichCardWins

__all__ = [
    "FRIENDLY_ERROR",
    "NARROW_BELOW",
    "STAGE_LENGTH",
    "TRAINERS",
    "CountPoints",
    "Exercise",
    "FindMelds",
    "GoingOut",
    "MeldContest",
    "NameTheCard",
    "Progress",
    "SameSuit",
    "WhatMayYouPlay",
    "WhichCardWins",
    "stars_text",
    "trainer",
]


# ---------------------------------------------------------------------------- the catalogue
TRAINERS: dict[str, type[Exercise]] = {
    cls.id: cls
    for cls in (
        WhichCardWins,
        CountPoints,
        FindMelds,
        MeldContest,
        SameSuit,
        WhatMayYouPlay,
        GoingOut,
        NameTheCard,
    )
}
"""Every trainer by its id."""


def trainer(id: str, seed: int | None = None, **kw: Any) -> Exercise:
    """A new exercise by id: ``trainer("find-melds", seed=4, language="hu")``."""
    try:
        cls = TRAINERS[id]
    except KeyError:
        raise ValueError(f"unknown trainer {id!r}: choose one of {', '.join(TRAINERS)}") from None
    return cls(seed=seed, **kw)
