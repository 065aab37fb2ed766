"""Argument checks at the engine's public edge (STYLE.md principle 5).

A value of the wrong type is an :class:`ArgumentError` that names the argument, not an
AttributeError or a TypeError from deeper down. The module is private: the engine's modules
call it, users see only the errors.

>>> checked(7, str, "a phrase")
Traceback (most recent call last):
...
tartli.errors.ArgumentError: a phrase must be a str, not 7
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sized
from typing import TypeVar

from tartli.errors import ArgumentError, shown

T = TypeVar("T")


def checked(value: object, kind: type[T], what: str, example: str = "") -> T:
    """``value`` if it is a ``kind``, else an :class:`ArgumentError` naming ``what``."""
    if not isinstance(value, kind):
        hint = f" (e.g. {example})" if example else ""
        raise ArgumentError(f"{what} must be a {kind.__name__}{hint}, not {shown(value)}")
    return value


MAX_ITEMS = 1000
"""The most items a list argument of the public API is read to (a pack has 32 cards): an endless
iterator (``itertools.repeat``) or a huge ``range`` is refused after that many, never read whole."""


def bounded(values: object, what: str, limit: int = MAX_ITEMS) -> list[object]:
    """The items of an iterable that has at most ``limit`` of them, else an :class:`ArgumentError`.

    A sized one (a list, a ``range``) is measured before it is read; any other is read to one
    item past the limit, never further.

    >>> import itertools
    >>> bounded(itertools.count(), "the cards")
    Traceback (most recent call last):
    ...
    tartli.errors.ArgumentError: the cards: at most 1,000 items, this one has more
    """
    if type(values) is list or type(values) is tuple:  # the common case, without the ABC checks below
        if len(values) > limit:
            raise _too_many(what, limit)
        return list(values)
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise ArgumentError(f"{what} must be a list, not {shown(values)}")
    if isinstance(values, Sized):
        try:
            size = len(values)
        except (OverflowError, TypeError, ValueError):  # range(10**20): more than a C integer counts
            raise _too_many(what, limit) from None
        if size > limit:
            raise _too_many(what, limit)
    items = list(itertools.islice(values, limit + 1))
    if len(items) > limit:
        raise _too_many(what, limit)
    return items


def _too_many(what: str, limit: int) -> ArgumentError:
    """The error of :func:`bounded` (made only when raised: the bots' inner loops call it)."""
    return ArgumentError(f"{what}: at most {limit:,} items, this one has more")


def checked_items(values: object, kind: type[T], what: str, example: str = "", limit: int = MAX_ITEMS) -> list[T]:
    """``values`` as a list if it is an iterable of at most ``limit`` items of ``kind`` (text is
    not), else an :class:`ArgumentError`."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise ArgumentError(f"{what} must be a list of {kind.__name__} objects, not {shown(values)}")
    return [checked(value, kind, f"each of the {what}", example) for value in bounded(values, what, limit)]


def checked_whole(value: object, what: str, low: int, high: int) -> int:
    """``value`` if it is a whole number (not a bool) from ``low`` to ``high``, else an :class:`ArgumentError`."""
    if type(value) is not int or not low <= value <= high:
        raise ArgumentError(f"{what} is a whole number from {low:,} to {high:,}, not {shown(value, 30)}")
    return value


def checked_real(value: object, what: str, low: float, high: float) -> float:
    """``value`` as a float if it is a finite number (int or float, not a bool) from ``low`` to ``high``."""
    if not isinstance(value, int | float) or isinstance(value, bool) or not low <= value <= high:  # nan fails
        raise ArgumentError(f"{what} is a number from {low:g} to {high:g}, not {shown(value, 30)}")
    return float(value)
