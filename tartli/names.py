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

A card's, a rank's and a meld's name is a :class:`Named`: the name itself (a ``str``, as it always
was), which also knows its forms with the article and in the cases a sentence needs. A translation
asks for one with an attribute, ``{card.acc}``; English never does::

    >>> card = card_name(0, 2, "de")
    >>> card, card.the, card.acc, card.dat, card.The
    ('Herz-Daus', 'das Herz-Daus', 'das Herz-Daus', 'dem Herz-Daus', 'Das Herz-Daus')
    >>> card_name(3, 0, "hu").ins, set_title(0, "hu").the, sequence_title(2, 3, 4, "hu").acc
    ('a makk alsóval', 'az ász vannak', 'a tök felső kvartot')
    >>> "Spiel {card.acc} aus".format(card=card_name(1, 1, "de"))
    'Spiel den Laub-König aus'
"""

from __future__ import annotations

import functools
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
BELA_TITLE = {"en": "Béla", "hu": "béla", "de": "Béla"}
"""Béla as a meld's title (K4): English writes the meld names with capitals; Hungarian writes béla
in lower case, as a common noun (a capital Béla is a man's name); German capitalises every noun."""
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


PRONOUNS = ("it", "itacc", "itdat")
"""The pronoun roles: the word that stands for a name once the sentence has said it, as the subject, the object
and the dative ("the cheapest card that takes {lead_itacc}"). German takes it from the name's gender (er/ihn/ihm,
es/es/ihm, sie/sie/ihr: "die es sticht" for das Herz-Daus, "die ihn sticht" for der Laub-König); English says
"it"; Hungarian, which names a thing with the demonstrative, az/azt/annak. A pronoun of a list is plural. (No
possessive: German's declines with the noun it stands before; say "die Zeichen der Karte" instead.)"""

FORMS: dict[str, tuple[str, ...]] = {
    "en": (),
    "hu": ("the", "acc", "dat", "ins", "sub", "ine", "ill", "ela", "cau", *PRONOUNS),
    "de": ("the", "acc", "dat", "gen", *PRONOUNS),
}
"""The forms a translation may ask of a name (``{card.acc}``), by language, besides the name itself.

Hungarian, each with the definite article (a/az): ``the`` (alanyeset), ``acc`` (tárgyeset, -t),
``dat`` (-nak/-nek), ``ins`` (-val/-vel), ``sub`` (-ra/-re), ``ine`` (-ban/-ben), ``ill`` (-ba/-be),
``ela`` (-ból/-ből), ``cau`` (-ért). German, each with the definite article: ``the`` (Nominativ),
``acc``, ``dat``, ``gen``. Both: the pronouns of :data:`PRONOUNS`. A form with a capital first letter
(``{card.The}``) starts a sentence. A number (a trick's) knows ``the`` in Hungarian: the ordinal with its
article, "az 5.", "a 3."."""

FORM_NAMES = frozenset(f for forms in FORMS.values() for f in forms)


class Named(str):
    """A name (the ``str`` itself) that also knows its grammatical forms (see :data:`FORMS`).

    >>> n = Named("alsó vannak", {"the": "az alsó vannak"})
    >>> n == "alsó vannak", n.the, n.The, n.acc
    (True, 'az alsó vannak', 'Az alsó vannak', 'alsó vannak')

    A form the name does not know is the name itself, so a translation never fails on it.
    """

    _forms: dict[str, str]

    def __new__(cls, text: str, forms: dict[str, str] | None = None) -> Named:
        _text(text, "a name")
        if forms is not None and (
            not isinstance(forms, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in forms.items())
        ):
            raise ArgumentError(
                f"a name's forms are a dict of texts, e.g. {{'acc': 'den Herz-Ober'}}, not {shown(forms)}"
            )
        made = super().__new__(cls, text)
        made._forms = dict(forms or {})
        return made

    def __getattr__(self, key: str) -> str:
        if key.startswith("_"):
            raise AttributeError(key)
        if key in FORM_NAMES:
            return self._forms.get(key, str(self))
        lower = key[:1].lower() + key[1:]
        if key[:1].isupper() and lower in FORM_NAMES:
            return upper_first(self._forms.get(lower, str(self)))
        raise AttributeError(f"a name has no form {key!r}: use one of {', '.join(sorted(FORM_NAMES))}")

    @property
    def forms(self) -> dict[str, str]:
        """The forms this name knows (a copy)."""
        return dict(self._forms)

    def __reduce__(self) -> tuple[object, ...]:
        return (Named, (str(self), self._forms))


_HU_VOWELS = frozenset("aáeéiíoóöőuúüű")
_HU_ENDINGS: dict[str, str] = {
    # the last word of a name: acc, dat, ins, sub, ine, ill, ela, cau (vowel harmony and assimilation by hand)
    "ász": "ászt ásznak ásszal ászra ászban ászba ászból ászért",
    "király": "királyt királynak királlyal királyra királyban királyba királyból királyért",
    "felső": "felsőt felsőnek felsővel felsőre felsőben felsőbe felsőből felsőért",
    "alsó": "alsót alsónak alsóval alsóra alsóban alsóba alsóból alsóért",
    "tízes": "tízest tízesnek tízessel tízesre tízesben tízesbe tízesből tízesért",
    "kilences": "kilencest kilencesnek kilencessel kilencesre kilencesben kilencesbe kilencesből kilencesért",
    "nyolcas": "nyolcast nyolcasnak nyolcassal nyolcasra nyolcasban nyolcasba nyolcasból nyolcasért",
    "hetes": "hetest hetesnek hetessel hetesre hetesben hetesbe hetesből hetesért",
    "terc": "tercet tercnek terccel tercre tercben tercbe tercből tercért",
    "kvart": "kvartot kvartnak kvarttal kvartra kvartban kvartba kvartból kvartért",
    "kvint": "kvintet kvintnek kvinttel kvintre kvintben kvintbe kvintből kvintért",
    "szext": "szextet szextnek szexttel szextre szextben szextbe szextből szextért",
    "szept": "szeptet szeptnek szepttel szeptre szeptben szeptbe szeptből szeptért",
    "okt": "oktot oktnak okttal oktra oktban oktba oktból oktért",
    "vannak": "vannakot vannaknak vannakkal vannakra vannakban vannakba vannakból vannakért",
    "béla": "bélát bélának bélával bélára bélában bélába bélából béláért",
}


def hu_article(phrase: str) -> str:
    """The Hungarian definite article before ``phrase``: "az" before a vowel, else "a".

    >>> hu_article("alsó vannak"), hu_article("makk ász")
    ('az', 'a')
    """
    return "az" if _text(phrase, "a phrase")[:1].lower() in _HU_VOWELS else "a"


_PRONOUN_FORMS: dict[str, tuple[str, str, str]] = {
    "en": ("it", "it", "it"),
    "hu": ("az", "azt", "annak"),
    "de-m": ("er", "ihn", "ihm"),
    "de-n": ("es", "es", "ihm"),
    "de-f": ("sie", "sie", "ihr"),
    "de-pl": ("sie", "sie", "ihnen"),
    "hu-pl": ("azok", "azokat", "azoknak"),
}
"""The words of :data:`PRONOUNS` (subject, object, dative) by language, German by gender, and of a list."""


def pronoun(role: str, language: str, gender: str = "", *, plural: bool = False) -> str:
    """The pronoun of ``role`` (one of :data:`PRONOUNS`) in ``language`` for a name of ``gender`` (German: m,
    n or f) or a list (``plural``; English says "it" of a list too: "the Ace or the Ten, whichever takes it").

    >>> pronoun("itacc", "de", "n"), pronoun("itacc", "de", "m"), pronoun("it", "en"), pronoun("itacc", "hu")
    ('es', 'ihn', 'it', 'azt')
    """
    _check(language)
    if role not in PRONOUNS:
        raise ArgumentError(f"a pronoun's role is one of {', '.join(PRONOUNS)}, not {shown(role, 20)}")
    key = "en" if language == "en" else f"{language}-pl" if plural else f"de-{gender}" if language == "de" else language
    if key not in _PRONOUN_FORMS:
        raise ArgumentError(f"a German name's gender is m, n or f, not {shown(gender, 20)}")
    return _PRONOUN_FORMS[key][PRONOUNS.index(role)]


def _hu_forms(text: str) -> dict[str, str]:
    head, _sep, last = text.rpartition(" ")
    endings = _HU_ENDINGS.get(last, "").split()
    article = hu_article(text)
    forms = {"the": f"{article} {text}", **{role: pronoun(role, "hu") for role in PRONOUNS}}
    if endings:
        start = f"{article} {head} " if head else f"{article} "
        forms.update(
            zip(("acc", "dat", "ins", "sub", "ine", "ill", "ela", "cau"), (start + e for e in endings), strict=True)
        )
    return forms


_DE_ARTICLES = {  # the, acc, dat, gen
    "m": ("der", "den", "dem", "des"),
    "n": ("das", "das", "dem", "des"),
    "f": ("die", "die", "der", "der"),
}
_DE_GENDER = {"Daus": "n", "Terz": "f", "Quart": "f", "Quint": "f", "Sext": "f", "Siebt": "f", "Acht": "f", "Béla": "f"}
"""German genders of the last word of a name (every other rank and the Vierling are masculine)."""


def _de_forms(text: str) -> dict[str, str]:
    last = text.rpartition("-")[2]
    gender = _DE_GENDER.get(last, "m")
    the, acc, dat, gen = _DE_ARTICLES[gender]
    genitive = text if gender == "f" else text + ("es" if text.endswith("s") else "s")
    forms = {"the": f"{the} {text}", "acc": f"{acc} {text}", "dat": f"{dat} {text}", "gen": f"{gen} {genitive}"}
    return forms | {role: pronoun(role, "de", gender) for role in PRONOUNS}


def number(value: int, language: str = "en") -> Named:
    """A number said in a sentence (a trick's): in Hungarian its ``the`` is the ordinal with its article,
    "a 3.", "az 5.", "az 1." (the article as the number is said: egy, öt, ezer begin with a vowel).

    >>> number(5, "hu").the, number(12, "hu").the, number(5, "en")
    ('az 5.', 'a 12.', '5')
    """
    _check(language)
    text = str(_count(value))
    if language != "hu":
        return Named(text)
    vowel = text[0] == "5" or (text[0] == "1" and len(text) in (1, 4))
    return Named(text, {"the": f"{'az' if vowel else 'a'} {text}."})


def _count(value: object) -> int:
    if type(value) is not int or not 0 <= value <= 10**100:  # (Python refuses to print past 4,300 digits)
        raise ArgumentError(f"a count is a whole number from 0 to 10**100, not {shown(value)}")
    return value


def named(text: str, language: str) -> Named:
    """``text``, a card's, a rank's or a meld's name in ``language``, with its forms (see :class:`Named`)."""
    _check(language)
    return _named(_text(text, "a name"), language)


@functools.cache
def _named(text: str, language: str) -> Named:
    if language == "hu":
        return Named(text, _hu_forms(text))
    if language == "de":
        return Named(text, _de_forms(text))
    return Named(text)


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


def rank_name(index: int, language: str = "en") -> Named:
    """A rank's name: 0-7 in the order A K O U X 9 8 7."""
    _check(language)
    return named(RANKS[language][_index(index, 8, "a rank index")], language)


def card_name(rank: int, suit: int, language: str = "en") -> Named:
    """ "Over of Hearts", "piros felső", "Herz-Ober"."""
    _check(language)
    rank, suit = _index(rank, 8, "a rank index"), _index(suit, 4, "a suit index")
    if language == "en":
        return named(f"{RANKS['en'][rank]} of {SUITS['en'][suit]}", language)
    if language == "hu":
        return named(f"{SUITS['hu'][suit]} {RANKS['hu'][rank]}", language)
    return named(f"{SUITS['de'][suit]}-{RANKS['de'][rank]}", language)


def sequence_name(length: int, language: str = "en") -> str:
    """The name of a sequence of ``length`` cards: terc, kvart ... (de Terz, Quart ...)."""
    _check(language)
    return SEQUENCES[language][_length(length)]


def sequence_title(top_rank: int, suit: int, length: int, language: str = "en") -> Named:
    """How a scorer names a sequence: "Acorn-Over-Kvart", "makk felső kvart", "Eichel-Ober-Quart"."""
    _check(language)
    name = SEQUENCES[language][_length(length)]
    top_rank, suit = _index(top_rank, 8, "a rank index"), _index(suit, 4, "a suit index")
    if language == "en":
        return named(f"{SUIT_SINGULAR['en'][suit]}-{RANKS['en'][top_rank]}-{name.capitalize()}", language)
    if language == "hu":
        return named(f"{SUITS['hu'][suit]} {RANKS['hu'][top_rank]} {name}", language)
    return named(f"{SUITS['de'][suit]}-{RANKS['de'][top_rank]}-{name}", language)


def _length(length: object) -> int:
    if type(length) is not int or length not in SEQUENCES["en"]:
        raise ArgumentError(f"a sequence has 3 to 8 cards, not {shown(length)}")
    return length


def set_title(rank: int, language: str = "en") -> Named:
    """How a set is named: "Under-vannak", "alsó vannak", "Unter-Vierling"."""
    _check(language)
    rank = _index(rank, 8, "a rank index")
    if language == "hu":
        return named(f"{RANKS['hu'][rank]} vannak", language)
    return named(f"{RANKS[language][rank]}-{SET_NAME[language]}", language)


def bela_title(language: str = "en") -> Named:
    """Béla as a meld's title: "Béla" (English, German), "béla" (Hungarian: see :data:`BELA_TITLE`)."""
    _check(language)
    return named(BELA_TITLE[language], language)


PLAYER_NAMES: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "en": (("Player 0", "Player 1"), ("player 0", "player 1")),
    "hu": (("Az egyik játékos", "A másik játékos"), ("az egyik játékos", "a másik játékos")),
    "de": (("Der eine Spieler", "Der andere Spieler"), ("der eine Spieler", "der andere Spieler")),
}
"""The two players when nobody named them (the referee's narration): English keeps the engine's
numbers; Hungarian and German never show a number for a person."""


def player_name(player: int, language: str = "en", *, in_sentence: bool = False) -> str:
    """A player nobody named: "Player 0" (en), "Az egyik játékos" (hu), "Der eine Spieler" (de);
    ``in_sentence``: with a small first letter, inside a sentence."""
    _check(language)
    return PLAYER_NAMES[language][1 if in_sentence else 0][_index(player, 2, "a player")]


def announcement(key: str, language: str = "en") -> str:
    """A contest answer: ``"good"`` or ``"higher"``."""
    _check(language)
    return ANNOUNCEMENTS[_key(key, ANNOUNCEMENTS, "announcement")][language]


def term(key: str, language: str = "en") -> str:
    """A game term (see ``TERMS``): ``term("trump", "de") == "Trumpf"``."""
    _check(language)
    return TERMS[_key(key, TERMS, "term")][language]


RECORD_CODES_SHOWN: dict[str, bool] = {"en": True, "hu": False, "de": True}
"""Does a sentence name a card's record code (``UA``) beside its name? Not in Hungarian, where the codes'
English letters mislead (A is the Under's letter there): they are explained only in the lab's record help."""

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
