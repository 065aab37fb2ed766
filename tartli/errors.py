"""The engine's error types (STYLE.md principle 5).

Every error the engine raises for bad input is a :class:`TartliError`, which is
a :class:`ValueError`, so callers can catch one type. An illegal move carries the
RULES.md ID it breaks in ``rule`` and explains itself to a learner.
"""

from __future__ import annotations

import enum
import json
from typing import Any


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
        why = reason if isinstance(reason, str) else shown(reason)  # (an int of 5,000 digits cannot be printed)
        super().__init__(why if move_text is None else f"{shown(move_text)}: {why}")


class IllegalMoveError(TartliError):
    """A well-formed move that the rules forbid at this moment.

    ``rule`` is the RULES.md ID (e.g. ``"T4"``); ``str(error)`` starts with it:
    ``"T4: you must follow suit: you hold a Heart"``. The state is unchanged.
    """

    def __init__(self, rule: str, explanation: str) -> None:
        self.rule = rule
        self.explanation = explanation
        texts = [text if isinstance(text, str) else shown(text) for text in (rule, explanation)]
        super().__init__(f"{texts[0]}: {texts[1]}")


class ArgumentError(TartliError):
    """A bad argument to the public API (a player that is not 0 or 1, a wrong type, an unknown name)."""


class _ChoiceType(enum.EnumMeta):
    """Looks a value up before :class:`enum.Enum` does: Python's own lookup of a value that is no
    member's formats it with ``%r`` before it asks ``_missing_``, and an integer of more than 4,300
    digits (``Suit(10**5000)``) cannot be formatted, so that would be Python's ValueError."""

    def __call__(cls, value: object, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs or not cls._member_map_:  # a new enum made by call (Choice("Name", ...))
            return super().__call__(value, *args, **kwargs)
        if isinstance(value, cls):
            return value
        try:
            return cls._value2member_map_[value]
        except (KeyError, TypeError):  # TypeError: an unhashable value
            pass
        member: Any
        for member in cls:  # as Enum does for an unhashable value or a value equal to a member's
            if member._value_ == value:
                return member
        return cls._missing_(value)  # type: ignore[attr-defined]  # Enum's, on the enum class


class Choice(enum.Enum, metaclass=_ChoiceType):
    """Base of the engine's enums: looking up a value that is not a member's is an :class:`ArgumentError`.

    >>> class Side(Choice):
    ...     LEFT = "L"
    >>> Side("R")
    Traceback (most recent call last):
    ...
    tartli.errors.ArgumentError: Side: 'R' is not one of 'L'
    """

    @classmethod
    def _missing_(cls, value: object) -> None:
        members = ", ".join(repr(m.value) for m in cls)
        raise ArgumentError(f"{cls.__name__}: {shown(value)} is not one of {members}")


class InvalidDealError(TartliError):
    """Hands, indicator and talon that are not one whole 32-card pack (C1, D1)."""


class RecordError(TartliError):
    """A ``tartli/1`` record that is malformed; the message names the field."""


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` for an error message, at most ``limit`` characters (with its length if cut).

    ``repr`` escapes what is not printable (control and format characters among them).
    """
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ (or an int too long to print) must not hide the real error
        text = f"<{type(value).__name__}>"
    return cut(text, limit)


def cut(text: str, limit: int = 60) -> str:
    """``text`` for a one-line message: at most ``limit`` characters, its length said if it was cut.

    >>> cut("0123456789" * 5, 30)
    '0123456789012… (50 characters)'
    >>> len(cut("x" * 10**6, 300))
    300
    """
    if not isinstance(text, str):
        raise ArgumentError(f"cut takes text, not {type(text).__name__}")
    if type(limit) is not int or limit < 1:
        raise ArgumentError(f"a limit is a whole number of characters, 1 or more, not {shown(limit, 20)}")
    if len(text) <= limit:
        return text
    suffix = f"… ({len(text):,} characters)"
    if len(suffix) >= limit:  # no room to say the length
        return text[: limit - 1] + "…"
    return text[: limit - len(suffix)] + suffix


def printable(text: str) -> str:
    r"""``text`` with each character that is not printable escaped as JSON escapes it (``\u202e``).

    Control characters, format characters (category Cf: bidirectional overrides, zero-width spaces)
    and other invisible ones would otherwise reach a terminal raw and change what it shows.

    >>> print(printable("0: play AH\u202e\x1b"))
    0: play AH\u202e\u001b
    """
    if not isinstance(text, str):
        raise ArgumentError(f"printable takes text, not {type(text).__name__}")
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in text)
