"""Small builders shared by the tests: cards from text and deals from two explicit hands."""

from __future__ import annotations

from tartli import CARDS, Card, Deal


def cards(text: str) -> tuple[Card, ...]:
    """``cards("OH 9H")`` -> the two cards."""
    return tuple(Card.parse(c) for c in text.split())


def make_deal(h0: str, h1: str, trump: str, dealer: int = 1, talon_top: str = "") -> Deal:
    """A deal from two explicit hands; the talon is the other cards, ``talon_top`` first."""
    used = {str(c) for c in cards(h0) + cards(h1) + cards(trump)}
    top = list(cards(talon_top))
    rest = top + [c for c in CARDS if str(c) not in used and c not in top]
    return Deal(dealer, (cards(h0), cards(h1)), Card.parse(trump), tuple(rest))
