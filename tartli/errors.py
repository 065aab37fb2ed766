"""The engine's error types (STYLE.md principle 5).

Every error the engine raises for bad input is a :class:`TartliError`, which is
a :class:`ValueError`, so callers can catch one type. An illegal move carries the
RULES.md ID it breaks in ``rule`` and explains itself to a learner.
"""

from __future__ import annotations


class TartliError(ValueError):
    """Base class of every error the engine raises for bad input."""


class InvalidMoveError(TartliError):
    """A move that cannot be read at all (bad text, unknown action or card)."""


class IllegalMoveError(TartliError):
    """A well-formed move that the rules forbid at this moment.

    ``rule`` is the RULES.md ID (e.g. ``"T4"``); ``str(error)`` starts with it:
    ``"T4: you must follow suit: you hold a Heart"``. The state is unchanged.
    """

    def __init__(self, rule: str, explanation: str) -> None:
        self.rule = rule
        self.explanation = explanation
        super().__init__(f"{rule}: {explanation}")


class InvalidDealError(TartliError):
    """Hands, indicator and talon that are not one whole 32-card pack (C1, D1)."""


class RecordError(TartliError):
    """A ``tartli/1`` record that is malformed; the message names the field."""
