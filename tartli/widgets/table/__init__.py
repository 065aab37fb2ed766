"""The playable table: a controller that owns a match and its widgets and re-renders from the state.

The learner plays against a pluggable opponent (a bot that only ever receives
``state.view(player)``), or two people share one screen. Every rule comes from
the engine: the buttons shown are the moves ``legal_moves()`` lists, a refused
click shows the engine's explanation (with its RULES.md ID) and changes nothing.

Helpers for learners: a level selector (Easy, Medium, Hard: the bots of
:func:`~tartli.bots.bot_for_level`, how the computer plays), a *Hint* button (the best
advice the course has, :func:`tartli.bots.hint.hint`: the search from the learner's view in
phase 1, exact in phase 2, with a reason that is true of the position; only a move the table
offers at that moment), and once a hand is over *Review this hand*
(:class:`~tartli.widgets.hand_review.ReviewPanel`: every decision of the learner in both phases
classed, the three costliest with *Try again*), and at the end of a match the match summary.
:func:`review_hand` (phase 2 against the solver, card by card) stays for scripts.

The package by responsibility (each module a base of the next):

* :mod:`~tartli.widgets.table.flow`: the game and the match: turns, the learner's and the computer's
  moves, claims, undo and redo, deals, records and links, the hands' summaries (no widget);
* :mod:`~tartli.widgets.table.history`: the status line, the hand's log, the last trick, what a screen
  reader hears, the record to save or share, the match kept in the browser;
* :mod:`~tartli.widgets.table.controls`: :class:`TableController` itself: the widgets, drawing them
  from the state, the levels, the Hint, the review panel and the match summary;
* :mod:`~tartli.widgets.table.review`: :func:`review_hand` and :func:`review_html`, for scripts.

Headless use (tests, lessons that script a position)::

    table = TableController(seed=7, autoplay=False)
    table.click_card("AH")          # as if the card was clicked
    table.run_opponent()            # the computer's replies, one move at a time
    table.undo()
    table.set_level("medium")       # the rule-of-thumb computer
    table.hint()                    # "Hint: lead the ... — ..."; table.hinted is the move
    table.review_panel.run()        # once the hand is over: every decision judged
"""

from __future__ import annotations

from tartli.game import Status
from tartli.widgets.move_names import declaration_label, main_declarations, move_words
from tartli.widgets.table.controls import CONTROLS, LEVEL_NAMES, TableController, level_name
from tartli.widgets.table.flow import kernel_loop
from tartli.widgets.table.review import ReviewItem, names_or, review_hand, review_html

__all__ = [
    "CONTROLS",
    "LEVEL_NAMES",
    "ReviewItem",
    "Status",
    "TableController",
    "declaration_label",
    "kernel_loop",
    "level_name",
    "main_declarations",
    "move_words",
    "names_or",
    "review_hand",
    "review_html",
]
