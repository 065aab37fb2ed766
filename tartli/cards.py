"""Cards of the 32-card German-suited pack: suits, ranks, the three orders (C1-C5).

A card is a small frozen value written with two characters, rank then suit
(RULES.md notation): ``OH`` is the Over of Hearts, ``XA`` the Ten of Acorns.

>>> Card.parse("OH")
Card.parse('OH')
>>> str(Card.parse("10h"))
'XH'
>>> Card.parse("OH").name("hu"), Card.parse("OH").name("de")
('piros felső', 'Herz-Ober')

Inside the engine every card also has an ``index`` (0-31: suit * 8 + its place
in the sequence order), so that a hand can be kept as a 32-bit mask.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from tartli import names
from tartli._checks import bounded, checked, checked_items
from tartli.errors import ArgumentError, Choice, TartliError, shown
from tartli.names import LANGUAGES, Language

__all__ = [
    "CARDS",
    "LANGUAGES",
    "PLAIN_ORDER",
    "RANKS",
    "SEQUENCE_ORDER",
    "SUITS",
    "TRUMP_ORDER",
    "Card",
    "CardList",
    "InvalidCardError",
    "Language",
    "Rank",
    "Suit",
    "cards_of",
    "indices_of",
    "mask_of",
    "parse_cards",
    "suit_singular",
]


class Suit(Choice):
    """The four German suits, in the engine's fixed order (A, L, H, B)."""

    ACORNS = "A"  #: makk, Eichel
    LEAVES = "L"  #: zöld, Laub (Grün)
    HEARTS = "H"  #: piros, Herz (Rot)
    BELLS = "B"  #: tök, Schellen (also called Gourds)

    def __init__(self, letter: str) -> None:
        self.index: int = "ALHB".index(letter)
        """0-3, the suit's place in the order A, L, H, B."""

    def name_in(self, language: Language | None = None) -> str:
        """The suit's name: ``Suit.HEARTS.name_in("hu") == "piros"`` (no language: the page's)."""
        return names.suit_name(self.index, names.resolve(language))

    def __str__(self) -> str:
        return self.value


class Rank(Choice):
    """The eight ranks, declared in sequence order (C2), high to low."""

    ACE = "A"  #: ász (disznó), Daus
    KING = "K"  #: király (csikó), König
    OVER = "O"  #: felső (filkó), Ober
    UNDER = "U"  #: alsó, Unter
    TEN = "X"  #: tízes, Zehner
    NINE = "9"  #: kilences, Neuner
    EIGHT = "8"  #: nyolcas, Achter
    SEVEN = "7"  #: hetes, Siebener

    def __init__(self, letter: str) -> None:
        self.index: int = "AKOUX987".index(letter)
        """0-7, the rank's place in the sequence order A K O U X 9 8 7 (C2)."""

    def name_in(self, language: Language | None = None) -> names.Named:
        """The rank's name: ``Rank.OVER.name_in("de") == "Ober"`` (no language: the page's), with its
        forms (``.the`` "der Ober", see :class:`tartli.names.Named`)."""
        return names.rank_name(self.index, names.resolve(language))

    def __str__(self) -> str:
        return self.value


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)

# Trick order and card points, indexed by the sequence-order index of the rank.
# C3: trumps O 9 A X K U 8 7 with O 20, 9 14, A 11, X 10, K 4, U 2.
# C4: plain A X K O U 9 8 7 with A 11, X 10, K 4, O 3, U 2.
#                    A  K  O  U  X  9  8  7
TRUMP_STRENGTH = (5, 3, 7, 2, 4, 6, 1, 0)
PLAIN_STRENGTH = (7, 5, 4, 3, 6, 2, 1, 0)
TRUMP_POINTS = (11, 4, 20, 2, 10, 14, 0, 0)
PLAIN_POINTS = (11, 4, 3, 2, 10, 0, 0, 0)
LAST_TRICK_BONUS = 10  # C5

SEQUENCE_ORDER: tuple[Rank, ...] = tuple(Rank)
"""C2: the order of sequences, high to low: A K O U X 9 8 7."""
TRUMP_ORDER: tuple[Rank, ...] = tuple(sorted(Rank, key=lambda r: -TRUMP_STRENGTH[r.index]))
"""C3: the trick order of the trump suit, high to low: O 9 A X K U 8 7."""
PLAIN_ORDER: tuple[Rank, ...] = tuple(sorted(Rank, key=lambda r: -PLAIN_STRENGTH[r.index]))
"""C4: the trick order of a plain suit, high to low: A X K O U 9 8 7."""
TOTAL_CARD_POINTS = sum(TRUMP_POINTS) + 3 * sum(PLAIN_POINTS) + LAST_TRICK_BONUS  # 161

# Tables on card indexes (8 * suit index + rank index), for the engine's and the bots' fast paths.
SUIT_MASKS: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))
"""SUIT_MASKS[suit index]: the card mask of the suit's eight cards."""
POINTS_BY_TRUMP: tuple[tuple[int, ...], ...] = tuple(
    tuple((TRUMP_POINTS if i >> 3 == t else PLAIN_POINTS)[i & 7] for i in range(32)) for t in range(4)
)
"""POINTS_BY_TRUMP[trump suit index][card index]: the card's points (C3, C4)."""
STRENGTH_BY_TRUMP: tuple[tuple[int, ...], ...] = tuple(
    tuple((TRUMP_STRENGTH if i >> 3 == t else PLAIN_STRENGTH)[i & 7] for i in range(32)) for t in range(4)
)
"""STRENGTH_BY_TRUMP[trump suit index][card index]: the card's trick strength in its suit (C3, C4)."""

_RANK_ALIASES = {"10": "X", "T": "X"}


@functools.total_ordering
@dataclass(frozen=True, slots=True, eq=True)
class Card:
    """One card: a rank of a suit. Ordered by suit (A L H B), then sequence order."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False, hash=False)
    text: str = field(init=False, repr=False, compare=False, hash=False)
    """The two-character notation, ``"OH"``."""

    def __post_init__(self) -> None:
        if not isinstance(self.rank, Rank) or not isinstance(self.suit, Suit):
            raise ArgumentError(
                f"a card is Card(rank, suit), e.g. Card(Rank.OVER, Suit.HEARTS), "
                f"not {shown(self.rank)}, {shown(self.suit)}"
            )
        object.__setattr__(self, "index", self.suit.index * 8 + self.rank.index)
        object.__setattr__(self, "text", self.rank.value + self.suit.value)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``"OH"`` (also ``"oh"``, ``"10H"``, ``"TH"``) into a card.

        Raises :class:`InvalidCardError` (a :class:`TartliError`) for anything else.
        """
        if not isinstance(text, str):
            raise InvalidCardError(f"C1: a card is written as two characters like 'OH', not {shown(text)}")
        key = text.strip().upper()
        card = _BY_TEXT.get(key)
        if card is None:
            raise InvalidCardError(
                f"C1: {shown(text)} is not a card: write rank (A K O U X 9 8 7) then suit "
                f"(A L H B), e.g. 'OH' for the Over of Hearts"
            )
        return card

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with engine index ``index`` (0-31)."""
        if type(index) is not int or not 0 <= index < 32:
            raise ArgumentError(f"a card index is a whole number from 0 to 31, not {shown(index)}")
        return CARDS[index]

    @property
    def bit(self) -> int:
        """This card's bit in a hand mask."""
        return 1 << self.index

    def points(self, trump: Suit | None) -> int:
        """Card points (C3/C4): in the trump order if the card is a trump."""
        _trump_arg(trump)
        table = TRUMP_POINTS if self.suit is trump else PLAIN_POINTS
        return table[self.rank.index]

    def strength(self, trump: Suit | None) -> int:
        """Place in the trick order of its suit (higher wins): C3 for trumps, C4 otherwise."""
        _trump_arg(trump)
        table = TRUMP_STRENGTH if self.suit is trump else PLAIN_STRENGTH
        return table[self.rank.index]

    def name(self, language: Language | None = None) -> names.Named:
        """The card's name: "Over of Hearts", "piros felső", "Herz-Ober" (no language: the page's),
        with its forms for a sentence (``.acc`` "den Herz-Ober", see :class:`tartli.names.Named`)."""
        try:
            return names.card_name(self.rank.index, self.suit.index, names.resolve(language))
        except ValueError as err:
            raise TartliError(str(err)) from None

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse('{self.text}')"

    def _repr_svg_(self) -> str:
        """Jupyter shows the card's face (rendering is imported only when asked for)."""
        from tartli.render.cards import card_svg

        return card_svg(self, width=90)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index


class InvalidCardError(TartliError):
    """Text that is not a card in RULES.md notation."""


CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
"""All 32 cards in index order (C1)."""
_BY_TEXT: dict[str, Card] = {}
for _card in CARDS:
    _BY_TEXT[str(_card)] = _card
    for _alias, _canon in _RANK_ALIASES.items():
        if _card.rank.value == _canon:
            _BY_TEXT[_alias + _card.suit.value] = _card
FULL_PACK_MASK = (1 << 32) - 1


def _trump_arg(trump: object) -> None:
    """A ``trump`` argument of the public API: a Suit or None, else an :class:`ArgumentError`."""
    if trump is not None:
        checked(trump, Suit, "the trump suit (or None)", "Suit.HEARTS")


def _suit_arg(suit: object, what: str = "a suit") -> Suit:
    return checked(suit, Suit, what, "Suit.HEARTS")


def _card_arg(card: object, what: str = "a card") -> Card:
    return checked(card, Card, what, "Card.parse('AH')")


def _cards_arg(cards: object, what: str = "the cards") -> list[Card]:
    return checked_items(cards, Card, what, "Card.parse('AH')")


def _mask_arg(mask: object) -> int:
    """A hand mask argument of the public API: a whole number with bits 0-31 only."""
    if type(mask) is not int or not 0 <= mask <= FULL_PACK_MASK:
        raise ArgumentError(f"a card mask is a whole number from 0 to 2**32 - 1, not {shown(mask)}")
    return mask


def suit_singular(suit: Suit) -> str:
    """The singular form used in meld names: "Acorn", "Leaf", "Heart", "Bell"."""
    _suit_arg(suit)
    return names.SUIT_SINGULAR["en"][suit.index]


class CardList(list[Card]):
    """A list of cards that Jupyter draws as a hand (otherwise a plain list)."""

    def __init__(self, cards: Iterable[Card] | None = None) -> None:
        if cards is None:
            super().__init__()
        else:
            super().__init__(_cards_arg(cards))

    def _repr_svg_(self) -> str:
        from tartli.render.table import hand_svg

        return hand_svg(self, card_width=70)


# _BYTE_INDICES[k][b]: the card indices of byte ``b`` of a mask's ``k``-th byte (a suit), in order.
_BYTE_INDICES = tuple(tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)) for k in range(4))


def indices_of(mask: int) -> list[int]:
    """The card indices whose bits are set in ``mask``, in order (for the bots' fast loops)."""
    _mask_arg(mask)
    a, b, c, d = _BYTE_INDICES
    return [*a[mask & 255], *b[mask >> 8 & 255], *c[mask >> 16 & 255], *d[mask >> 24]]


def cards_of(mask: int) -> CardList:
    """The cards whose bits are set in ``mask``, in index order."""
    _mask_arg(mask)
    out = CardList()
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def mask_of(cards: Iterable[Card]) -> int:
    """The hand mask of some cards."""
    return _mask_of(_cards_arg(cards))


def _mask_of(cards: Iterable[Card]) -> int:
    return sum({1 << c.index for c in cards})


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Parse several cards: ``parse_cards(["OH", "9H"])`` (a list of texts, not one text)."""
    if isinstance(texts, str | bytes) or not isinstance(texts, Iterable):
        raise ArgumentError(f'cards to parse are a list of texts like ["OH", "9H"], not {shown(texts)}')
    return [Card.parse(t) for t in bounded(texts, "cards to parse")]  # type: ignore[arg-type]  # parse checks each


def full_pack() -> Iterator[Card]:
    """The 32 cards in index order (C1)."""
    return iter(CARDS)
