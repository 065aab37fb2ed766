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

from collections.abc import Iterable
from typing import TypeVar

from tartli.errors import ArgumentError, shown

T = TypeVar("T")


def checked(value: object, kind: type[T], what: str, example: str = "") -> T:
    """``value`` if it is a ``kind``, else an :class:`ArgumentError` naming ``what``."""
    if not isinstance(value, kind):
        hint = f" (e.g. {example})" if example else ""
        raise ArgumentError(f"{what} must be a {kind.__name__}{hint}, not {shown(value)}")
    return value


def checked_items(values: object, kind: type[T], what: str, example: str = "") -> list[T]:
    """``values`` as a list if it is an iterable of ``kind`` (text is not), else an :class:`ArgumentError`."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise ArgumentError(f"{what} must be a list of {kind.__name__} objects, not {shown(values)}")
    items = list(values)
    for value in items:
        checked(value, kind, f"each of the {what}", example)
    return items
