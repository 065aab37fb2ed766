"""The engine's error types (STYLE.md principle 5).

Every error the engine raises for bad input is a :class:`TartliError`, which is
a :class:`ValueError`, so callers can catch one type. An illegal move carries the
RULES.md ID it breaks in ``rule`` and explains itself to a learner.
"""

from __future__ import annotations


class TartliError(ValueError):
    """Base class of every error the engine raises for bad input."""


class InvalidMoveError(TartliError):
    """A move that cannot be read at all (bad text, unknown action or card).

    ``reason`` says what is wrong; ``move_text``, when the move was text, is that text, which
    ``str(error)`` quotes once in front of the reason (cut if it is long).
    """

    def __init__(self, reason: str, move_text: str | None = None) -> None:
        self.reason = reason
        self.move_text = move_text
        super().__init__(reason if move_text is None else f"{shown(move_text)}: {reason}")


class IllegalMoveError(TartliError):
    """A well-formed move that the rules forbid at this moment.

    ``rule`` is the RULES.md ID (e.g. ``"T4"``); ``str(error)`` starts with it:
    ``"T4: you must follow suit: you hold a Heart"``. The state is unchanged.
    """

    def __init__(self, rule: str, explanation: str) -> None:
        self.rule = rule
        self.explanation = explanation
        super().__init__(f"{rule}: {explanation}")


class ArgumentError(TartliError):
    """A bad argument to the public API (a player that is not 0 or 1, a wrong type, an unknown name)."""


class InvalidDealError(TartliError):
    """Hands, indicator and talon that are not one whole 32-card pack (C1, D1)."""


class RecordError(TartliError):
    """A ``tartli/1`` record that is malformed; the message names the field."""


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters (with its length if cut)."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ (or an int too long to print) must not hide the real error
        text = f"<{type(value).__name__}>"
    return cut(text, limit)


def cut(text: str, limit: int = 60) -> str:
    """``text`` for a one-line message: cut to about ``limit`` characters, with its length if cut."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}… ({len(text):,} characters)"
