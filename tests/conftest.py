"""Fixtures shared by the unit tests (the browser tests have their own in tests/browser/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tartli import i18n


@pytest.fixture
def hungarian() -> Iterator[None]:
    """The page speaks Hungarian for the test, and English again after it."""
    i18n.set_language("hu")
    try:
        yield
    finally:
        i18n.set_language("en")


class Clock:
    """A store's clock that a test moves on by hand (``clock.now += 130``)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now
