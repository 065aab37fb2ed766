"""Opponents. A bot sees only a :class:`~tartli.game.PlayerView` and returns one of its legal moves.

* :class:`RandomBot` (easy): uniform over the legal moves.
* :class:`HeuristicBot` (medium): rules of thumb, each decision with a reason
  (``choose_with_reason``), for the table's hint.
* :class:`SearchBot` (hard): determinized Monte Carlo in phase 1, the exact
  solver (:mod:`tartli.bots.solver`) in phase 2.

:func:`tartli.bots.evaluate.evaluate` is the course's one evaluation of a position:
:func:`tartli.bots.hint.hint` advises its best move, with a reason that is true of the position;
:func:`tartli.bots.review.review` judges every decision of a player in a hand by it, and gives the
positions back for Try again, which judges by it too; :func:`tartli.bots.explain.cause` says why a
move lost, from its lines (the modules keep their names: import the functions from them).

``bot_for_level("easy" | "medium" | "hard")`` gives the opponent of a level;
:mod:`tartli.bots.tournament` plays them against each other.
"""

from tartli.bots.base import Bot, RandomBot
from tartli.bots.heuristic import HeuristicBot
from tartli.bots.hint import Hint, HintBot, NoHint
from tartli.bots.review import HandReview
from tartli.bots.search import SearchBot
from tartli.bots.solver import Solution, coach, solve
from tartli.bots.tournament import LEVELS, bot_for_level

__all__ = [
    "LEVELS",
    "Bot",
    "HandReview",
    "HeuristicBot",
    "Hint",
    "HintBot",
    "NoHint",
    "RandomBot",
    "SearchBot",
    "Solution",
    "bot_for_level",
    "coach",
    "solve",
]
