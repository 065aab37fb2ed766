"""One table of names in English, Hungarian and German: suits, ranks, melds, announcements, terms.

Rendering and the lessons take their words from here, so one language setting
changes them all.

>>> suit_name(2, "hu"), rank_name(2, "de"), sequence_name(4, "de"), term("trump", "hu")
('piros', 'Ober', 'Quart', 'adu')
>>> announcement("higher", "en")
'Higher here'

Sources: the Hungarian and German card and meld names are those of the rule
sources (seed 001: makk, zöld, piros, tök; ász, király, felső, alsó; terc to okt,
vannak, béla; Beck's Terz, Quart, Quint, Sext, Siebt, Acht and "Vierling").
The English sources keep the Hungarian meld words (a "kvart", a "vannak"),
and so does the English course. The Hungarian and German renderings of the
contest answers "Good" and "Higher here" are our translations: the sources give
them in English only, and the other ``TERMS`` beyond the sources' own words
(trump adu/Trumpf, trick ütés/Stich, talon) are plain descriptive translations.
"""

from __future__ import annotations

from typing import Literal

from tartli._checks import checked
from tartli.errors import ArgumentError, shown


class UnknownLanguageError(ArgumentError):
    """A language code that is not en, hu or de."""


Language = Literal["en", "hu", "de"]
LANGUAGES: tuple[Language, ...] = ("en", "hu", "de")
LANGUAGE_NAMES = {"en": "English", "hu": "magyar", "de": "Deutsch"}

# Indexed as the engine's Suit.index (A, L, H, B) and Rank.index (A K O U X 9 8 7).
SUITS: dict[str, tuple[str, ...]] = {
    "en": ("Acorns", "Leaves", "Hearts", "Bells"),
    "hu": ("makk", "zöld", "piros", "tök"),
    "de": ("Eichel", "Laub", "Herz", "Schellen"),
}
SUIT_ALIASES: dict[str, tuple[str, ...]] = {
    "en": ("Acorns", "Leaves", "Hearts", "Bells (Gourds)"),
    "hu": ("makk", "zöld", "piros", "tök"),
    "de": ("Eichel", "Laub (Grün)", "Herz (Rot)", "Schellen"),
}
SUIT_SINGULAR: dict[str, tuple[str, ...]] = {
    "en": ("Acorn", "Leaf", "Heart", "Bell"),
    "hu": ("makk", "zöld", "piros", "tök"),
    "de": ("Eichel", "Laub", "Herz", "Schellen"),
}
RANKS: dict[str, tuple[str, ...]] = {
    "en": ("Ace", "King", "Over", "Under", "Ten", "Nine", "Eight", "Seven"),
    "hu": ("ász", "király", "felső", "alsó", "tízes", "kilences", "nyolcas", "hetes"),
    "de": ("Daus", "König", "Ober", "Unter", "Zehner", "Neuner", "Achter", "Siebener"),
}
RANK_LETTERS: dict[str, tuple[str, ...]] = {
    "en": ("A", "K", "O", "U", "X", "9", "8", "7"),
    "hu": ("Á", "K", "F", "A", "X", "9", "8", "7"),
    "de": ("A", "K", "O", "U", "X", "9", "8", "7"),
}
SEQUENCES: dict[str, dict[int, str]] = {
    "en": {3: "terc", 4: "kvart", 5: "kvint", 6: "szext", 7: "szept", 8: "okt"},
    "hu": {3: "terc", 4: "kvart", 5: "kvint", 6: "szext", 7: "szept", 8: "okt"},
    "de": {3: "Terz", 4: "Quart", 5: "Quint", 6: "Sext", 7: "Siebt", 8: "Acht"},
}
SET_NAME = {"en": "vannak", "hu": "vannak", "de": "Vierling"}
BELA_NAME = {"en": "béla", "hu": "béla", "de": "Béla"}
ANNOUNCEMENTS: dict[str, dict[str, str]] = {
    "good": {"en": "Good", "hu": "Jó", "de": "Gut"},
    "higher": {"en": "Higher here", "hu": "Nálam magasabb", "de": "Bei mir höher"},
}
TERMS: dict[str, dict[str, str]] = {
    "trump": {"en": "trump", "hu": "adu", "de": "Trumpf"},
    "trick": {"en": "trick", "hu": "ütés", "de": "Stich"},
    "talon": {"en": "talon", "hu": "talon", "de": "Talon"},
    "indicator": {"en": "trump indicator", "hu": "felcsapott adu", "de": "aufgedeckte Trumpfkarte"},
    "card points": {"en": "card points", "hu": "lappont", "de": "Augen"},
    "meld": {"en": "meld", "hu": "bemondás", "de": "Meldung"},
    "sequence": {"en": "sequence", "hu": "sor", "de": "Folge"},
    "phase 1": {"en": "phase 1", "hu": "1. szakasz", "de": "1. Phase"},
    "phase 2": {"en": "phase 2", "hu": "2. szakasz", "de": "2. Phase"},
    "stichmatsch": {"en": "stichmatsch", "hu": "stichmatsch", "de": "Stichmatsch"},
    "buli": {"en": "buli", "hu": "buli", "de": "Spiel"},
    "maccs": {"en": "maccs", "hu": "maccs", "de": "Doppel"},
    "going out": {"en": "going out", "hu": "501 bejelentése", "de": "501 ansagen"},
    "player": {"en": "Player", "hu": "Játékos", "de": "Spieler"},
    "score": {"en": "score", "hu": "pontszám", "de": "Stand"},
    "cards": {"en": "cards", "hu": "lap", "de": "Karten"},
    "your hand": {"en": "your hand", "hu": "a lapjaid", "de": "deine Karten"},
}


_setting: list[Language] = ["en"]


def set_language(language: str) -> None:
    """Choose the language that rendering uses when a call names none (the lessons' switch)."""
    _setting[0] = resolve(language)


def get_language() -> Language:
    """The language chosen with :func:`set_language` ("en" until then)."""
    return _setting[0]


def resolve(language: str | None) -> Language:
    """``language`` checked, or the current setting if it is None."""
    if language is None:
        return _setting[0]
    _check(language)
    return language  # type: ignore[return-value]


def _check(language: str) -> None:
    if not isinstance(language, str) or language not in LANGUAGES:
        raise UnknownLanguageError(f"unknown language {shown(language, 40)}: choose one of {', '.join(LANGUAGES)}")


def _index(value: object, size: int, what: str) -> int:
    """An index argument (a suit 0-3, a rank 0-7): a whole number in range, else an :class:`ArgumentError`."""
    if type(value) is not int or not 0 <= value < size:
        raise ArgumentError(f"{what} is a whole number from 0 to {size - 1}, not {shown(value)}")
    return value


def _key(value: object, table: dict[str, dict[str, str]], what: str) -> str:
    if not isinstance(value, str) or value not in table:
        raise ArgumentError(f"unknown {what} {shown(value, 40)}: choose one of {', '.join(table)}")
    return value


def _text(value: object, what: str = "the text") -> str:
    return checked(value, str, what)


def suit_name(index: int, language: str = "en") -> str:
    """A suit's name (plural in English): 0-3 in the order A, L, H, B."""
    _check(language)
    return SUITS[language][_index(index, 4, "a suit index")]


def rank_name(index: int, language: str = "en") -> str:
    """A rank's name: 0-7 in the order A K O U X 9 8 7."""
    _check(language)
    return RANKS[language][_index(index, 8, "a rank index")]


def card_name(rank: int, suit: int, language: str = "en") -> str:
    """ "Over of Hearts", "piros felső", "Herz-Ober"."""
    _check(language)
    rank, suit = _index(rank, 8, "a rank index"), _index(suit, 4, "a suit index")
    if language == "en":
        return f"{RANKS['en'][rank]} of {SUITS['en'][suit]}"
    if language == "hu":
        return f"{SUITS['hu'][suit]} {RANKS['hu'][rank]}"
    return f"{SUITS['de'][suit]}-{RANKS['de'][rank]}"


def sequence_name(length: int, language: str = "en") -> str:
    """The name of a sequence of ``length`` cards: terc, kvart ... (de Terz, Quart ...)."""
    _check(language)
    return SEQUENCES[language][_length(length)]


def sequence_title(top_rank: int, suit: int, length: int, language: str = "en") -> str:
    """How a scorer names a sequence: "Acorn-Over-Kvart", "makk felső kvart", "Eichel-Ober-Quart"."""
    _check(language)
    name = SEQUENCES[language][_length(length)]
    top_rank, suit = _index(top_rank, 8, "a rank index"), _index(suit, 4, "a suit index")
    if language == "en":
        return f"{SUIT_SINGULAR['en'][suit]}-{RANKS['en'][top_rank]}-{name.capitalize()}"
    if language == "hu":
        return f"{SUITS['hu'][suit]} {RANKS['hu'][top_rank]} {name}"
    return f"{SUITS['de'][suit]}-{RANKS['de'][top_rank]}-{name}"


def _length(length: object) -> int:
    if type(length) is not int or length not in SEQUENCES["en"]:
        raise ArgumentError(f"a sequence has 3 to 8 cards, not {shown(length)}")
    return length


def set_title(rank: int, language: str = "en") -> str:
    """How a set is named: "Under-vannak", "alsó vannak", "Unter-Vierling"."""
    _check(language)
    rank = _index(rank, 8, "a rank index")
    if language == "hu":
        return f"{RANKS['hu'][rank]} vannak"
    return f"{RANKS[language][rank]}-{SET_NAME[language]}"


def announcement(key: str, language: str = "en") -> str:
    """A contest answer: ``"good"`` or ``"higher"``."""
    _check(language)
    return ANNOUNCEMENTS[_key(key, ANNOUNCEMENTS, "announcement")][language]


def term(key: str, language: str = "en") -> str:
    """A game term (see ``TERMS``): ``term("trump", "de") == "Trumpf"``."""
    _check(language)
    return TERMS[_key(key, TERMS, "term")][language]


_AN_EXCEPTIONS = ("one", "once", "uni", "use", "usu", "eu")  # vowels said like a consonant


def a_or_an(phrase: str) -> str:
    """English "a" or "an" in front of ``phrase``, by how it is said.

    >>> a_or_an("Acorn"), a_or_an("Heart"), a_or_an("Under"), a_or_an("8"), a_or_an("11"), a_or_an("one-point card")
    ('an Acorn', 'a Heart', 'an Under', 'an 8', 'an 11', 'a one-point card')
    """
    return f"{article_for(phrase)} {_text(phrase, 'a phrase')}"


def article_for(phrase: str) -> str:
    """The English indefinite article for ``phrase``: "a" or "an"."""
    word = _text(phrase, "a phrase").lower()
    digits = word[: len(word) - len(word.lstrip("0123456789"))]
    if digits:  # "an 8", "an 80", "an 11", "an 18"; "a 10", "a 110"
        return "an" if digits.startswith("8") or digits in ("11", "18") else "a"
    if word[:1] in ("a", "e", "i", "o", "u") and not word.startswith(_AN_EXCEPTIONS):
        return "an"
    return "a"


def upper_first(text: str) -> str:
    """``text`` with its first letter in upper case: the start of a sentence.

    >>> upper_first("the Nine of Bells wins.")
    'The Nine of Bells wins.'
    """
    return _text(text)[:1].upper() + text[1:]


def agree(subject: str, third: str, second: str) -> str:
    """The verb form for ``subject``: the second person for "You", else the third.

    >>> agree("You", "wins", "win"), agree("The computer", "wins", "win")
    ('win', 'wins')
    """
    return second if subject == "You" else third
