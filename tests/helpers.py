"""Small builders shared by the tests: cards from text and deals from two explicit hands."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from tartli import CARDS, Card, Deal, i18n


def cards(text: str) -> tuple[Card, ...]:
    """``cards("OH 9H")`` -> the two cards."""
    return tuple(Card.parse(c) for c in text.split())


def make_deal(h0: str, h1: str, trump: str, dealer: int = 1, talon_top: str = "") -> Deal:
    """A deal from two explicit hands; the talon is the other cards, ``talon_top`` first."""
    used = {str(c) for c in cards(h0) + cards(h1) + cards(trump)}
    top = list(cards(talon_top))
    rest = top + [c for c in CARDS if str(c) not in used and c not in top]
    return Deal(dealer, (cards(h0), cards(h1)), Card.parse(trump), tuple(rest))


ENGLISH_WORDS = frozenset(
    [
        "the",
        "and",
        "you",
        "of",
        "to",
        "card",
        "cards",
        "trick",
        "tricks",
        "play",
        "plays",
        "your",
        "with",
        "for",
        "this",
        "that",
        "what",
        "which",
        "who",
        "wins",
        "win",
        "points",
        "when",
        "from",
        "have",
        "has",
        "are",
        "not",
        "can",
        "may",
        "must",
        "step",
        "lesson",
        "continue",
        "back",
    ]
)
"""Common English words, none of them a Hungarian or German word (unlike "a", "is", "in", "was", "most",
"computer")."""
MOST_ENGLISH = 0.03
"""A page in another language may hold at most this share of common English words (names, codes, quotes)."""


def english_share(text: str) -> tuple[float, list[str]]:
    """The share of common English words among the words of ``text``, and the most frequent of them."""
    found = [w.lower() for w in re.findall(r"[^\W\d_]+", text)]
    english = [w for w in found if w in ENGLISH_WORDS]
    return (len(english) / len(found) if found else 1.0), [w for w, _n in Counter(english).most_common(8)]


def in_language(lang: str, run: Callable[..., Any], *args: Any) -> Any:
    """``run(*args)`` with the page speaking ``lang``, and the language as it was after it."""
    before = i18n.language()
    i18n.set_language(lang)
    try:
        return run(*args)
    finally:
        i18n.set_language(before)
