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

import dataclasses
import itertools
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sized
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


_Test = Callable[[object], bool]
_FIELD_TESTS: dict[type, tuple[tuple[str, _Test, str], ...]] = {}


def checked_fields(value: object, players: tuple[str, ...] = ()) -> None:
    """Each field of the dataclass or named tuple ``value`` holds a value of its annotated type,
    else an :class:`ArgumentError` naming the class and the field (``World: talon must be a tuple,
    each item a Card, not 3``).

    The constructors of the values the engine and the bots hand out (views, worlds, evaluations...)
    call it in ``__post_init__`` (or ``__new__``): the annotations are read once per class, a call
    is a few ``isinstance`` per field. ``int`` is a whole number (a bool is not), ``float`` any
    int or float (a bool is not), ``bool`` True or False. The fields named in ``players`` hold a
    player, 0 or 1 (or None where the type allows it).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Pair:
    ...     cards: tuple[int, int]
    ...     def __post_init__(self) -> None:
    ...         checked_fields(self)
    >>> Pair((1, "2"))
    Traceback (most recent call last):
    ...
    tartli.errors.ArgumentError: Pair: cards must be a tuple (a whole number, a whole number), not (1, '2')
    """
    cls = type(value)
    tests = _FIELD_TESTS.get(cls)
    if tests is None:
        tests = _FIELD_TESTS[cls] = _field_tests(cls)
    for name, test, kind in tests:
        field = getattr(value, name)
        if not test(field):
            raise ArgumentError(f"{cls.__name__}: {name} must be {kind}, not {shown(field)}")
    for name in players:
        player = getattr(value, name)
        if player is not None and player not in (0, 1):
            raise ArgumentError(f"{cls.__name__}: {name} must be a player, 0 or 1, not {shown(player)}")


def _field_tests(cls: type) -> tuple[tuple[str, _Test, str], ...]:
    hints = typing.get_type_hints(cls)
    named_tuple = not dataclasses.is_dataclass(cls)
    names = list(cls._fields) if named_tuple else [f.name for f in dataclasses.fields(cls) if f.init]  # type: ignore[attr-defined]
    return tuple((name, *_type_test(hints[name])) for name in names)


def _type_test(hint: object) -> tuple[_Test, str]:
    """A test of a value against a type annotation, and the type in words."""
    plain = _plain(hint)
    if plain is not None:  # the common case, one isinstance
        return (lambda v: isinstance(v, plain)), " or ".join(_word(c) for c in plain)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is int:
        return (lambda v: type(v) is int), "a whole number"
    if hint is float:
        return (lambda v: type(v) is float or type(v) is int), "a number"
    if origin is typing.Union or origin is types.UnionType:
        # None first: "None or a tuple, each item a Meld" (not "a tuple, each item a Meld or None")
        parts = [_type_test(arg) for arg in sorted(args, key=lambda arg: arg is not type(None))]
        tests = [test for test, _ in parts]
        return (lambda v: any(test(v) for test in tests)), " or ".join(kind for _, kind in parts)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item, kind = _type_test(args[0])
        classes = _plain(args[0])
        if classes is not None:
            return (lambda v: type(v) is tuple and all(map(isinstance, v, itertools.repeat(classes)))), (
                f"a tuple, each item {kind}"
            )
        return (lambda v: type(v) is tuple and all(map(item, v))), f"a tuple, each item {kind}"
    if origin is tuple:
        parts = [_type_test(arg) for arg in args]
        tests = [test for test, _ in parts]
        words = ", ".join(kind for _, kind in parts)
        if all(arg is int for arg in args):  # scores, points: one C loop
            exact = tuple(int for _ in args)
            return (lambda v: type(v) is tuple and tuple(map(type, v)) == exact), f"a tuple ({words})"
        return (
            lambda v: type(v) is tuple and len(v) == len(tests) and all(t(x) for t, x in zip(tests, v, strict=True))
        ), f"a tuple ({words})"
    if origin in (frozenset, set):
        item, kind = _type_test(args[0])
        return (lambda v: isinstance(v, origin) and all(map(item, v))), f"a {origin.__name__}, each item {kind}"
    if origin in (dict, Mapping):
        (key, key_kind), (val, val_kind) = _type_test(args[0]), _type_test(args[1])
        return (
            lambda v: isinstance(v, origin) and all(key(k) and val(x) for k, x in v.items())
        ), f"a {origin.__name__} from {key_kind} to {val_kind}"
    raise TypeError(f"checked_fields cannot check {hint!r}")  # a new kind of annotation: teach it here


def _plain(hint: object) -> tuple[type, ...] | None:
    """The classes a value of ``hint`` is an instance of, if one ``isinstance`` tells (a class, None,
    or a union of them; not int or float, which a bool must not pass), else None."""
    if hint is None or hint is type(None):
        return (type(None),)
    if isinstance(hint, type) and typing.get_origin(hint) is None:
        return None if hint in (int, float) else (hint,)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        parts = [_plain(arg) for arg in sorted(typing.get_args(hint), key=lambda arg: arg is not type(None))]
        return None if any(p is None for p in parts) else tuple(c for p in parts if p is not None for c in p)
    return None


def _word(cls: type) -> str:
    return {type(None): "None", bool: "True or False", str: "text"}.get(cls, f"a {cls.__name__}")


def unchecked(cls: type[T], **fields: object) -> T:
    """A frozen dataclass ``cls(**fields)`` made without its ``__post_init__`` checks, every field given.

    Only for the engine's own hot paths, whose values are right by construction (a view of the
    referee's state, a sampled world, a playout's line): the public constructor checks each field
    (:func:`checked_fields`), which costs more than the object itself there.
    """
    value = object.__new__(cls)
    for name, field in fields.items():
        object.__setattr__(value, name, field)
    return value
