"""The names table (en/hu/de) and the language setting that rendering follows."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tartli import CARDS, Card, Meld, names
from tartli.render import card_svg, meld_svg, slate_svg


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    names.set_language("en")


def test_every_table_has_all_three_languages() -> None:
    for table in (names.SUITS, names.SUIT_SINGULAR, names.RANKS, names.RANK_LETTERS, names.SEQUENCES):
        assert set(table) == set(names.LANGUAGES)
    for row in (*names.ANNOUNCEMENTS.values(), *names.TERMS.values(), names.SET_NAME, names.BELA_NAME):
        assert set(row) == set(names.LANGUAGES)


@pytest.mark.rule("C1")
@pytest.mark.parametrize(
    ("card", "en", "hu", "de"),
    [
        ("OH", "Over of Hearts", "piros felső", "Herz-Ober"),
        ("AA", "Ace of Acorns", "makk ász", "Eichel-Daus"),
        ("UL", "Under of Leaves", "zöld alsó", "Laub-Unter"),
        ("7B", "Seven of Bells", "tök hetes", "Schellen-Siebener"),
    ],
)
def test_card_names(card: str, en: str, hu: str, de: str) -> None:
    c = Card.parse(card)
    assert (c.name("en"), c.name("hu"), c.name("de")) == (en, hu, de)


def test_all_32_names_are_distinct_in_each_language() -> None:
    for language in names.LANGUAGES:
        assert len({c.name(language) for c in CARDS}) == 32


@pytest.mark.rule("M1", "M2", "K4")
def test_meld_titles_and_announcements() -> None:
    kvart = Meld.parse("kvart:OA")
    assert [kvart.title(lang) for lang in names.LANGUAGES] == [
        "Acorn-Over-Kvart",
        "makk felső kvart",
        "Eichel-Ober-Quart",
    ]
    unders = Meld.parse("vannak:U")
    assert [unders.title(lang) for lang in names.LANGUAGES] == ["Under-vannak", "alsó vannak", "Unter-Vierling"]
    assert [kvart.announcement_in(lang) for lang in names.LANGUAGES] == ["kvart", "kvart", "Quart"]
    assert names.announcement("higher", "en") == "Higher here" and names.announcement("good", "en") == "Good"


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        names.term("trump", "fr")
    with pytest.raises(ValueError, match="unknown language"):
        names.set_language("fr")
    assert names.get_language() == "en"


def test_rendering_follows_the_language_setting() -> None:
    oh = Card.parse("OH")
    assert "<title>Over of Hearts</title>" in card_svg(oh)
    names.set_language("hu")
    assert "<title>piros felső</title>" in card_svg(oh)
    assert "makk felső kvart" in meld_svg(Meld.parse("kvart:OA"))
    assert "pont" in slate_svg((12, 30))
    assert "<title>Herz-Ober</title>" in card_svg(oh, language="de")  # a call may still name its own


# ---------------------------------------------------------------- names with their forms (articles, cases)
@pytest.mark.parametrize(
    ("card", "the", "acc", "dat"),
    [
        ("AH", "das Herz-Daus", "das Herz-Daus", "dem Herz-Daus"),
        ("OA", "der Eichel-Ober", "den Eichel-Ober", "dem Eichel-Ober"),
        ("7B", "der Schellen-Siebener", "den Schellen-Siebener", "dem Schellen-Siebener"),
    ],
)
def test_german_card_names_know_their_article_by_case(card: str, the: str, acc: str, dat: str) -> None:
    name = Card.parse(card).name("de")
    assert (name.the, name.acc, name.dat) == (the, acc, dat)
    assert name.The == the[0].upper() + the[1:]
    template = "Spiel {card.acc} aus"  # a translation asks for a form
    assert template.format(card=name) == f"Spiel {acc} aus"


def test_hungarian_names_know_their_article_and_suffixes() -> None:
    assert Card.parse("AH").name("hu").acc == "a piros ászt"
    assert Card.parse("AH").name("hu").ins == "a piros ásszal"
    assert Card.parse("KL").name("hu").ins == "a zöld királlyal"
    assert Card.parse("OB").name("hu").sub == "a tök felsőre"
    unders, aces = Meld.parse("vannak:U").title("hu"), Meld.parse("vannak:A").title("hu")
    assert (unders.the, aces.the, aces.acc) == ("az alsó vannak", "az ász vannak", "az ász vannakot")
    kvart = Meld.parse("kvart:OA").title("hu")
    assert (kvart.the, kvart.ine, kvart.cau) == ("a makk felső kvart", "a makk felső kvartban", "a makk felső kvartért")
    assert Meld.parse("bela").title("hu") == "béla" and Meld.parse("bela").title("hu").acc == "a bélát"
    assert Meld.parse("bela").title("en") == "Béla"  # English keeps its capital title


def test_german_melds_have_their_gender() -> None:
    assert Meld.parse("kvart:OA").title("de").acc == "die Eichel-Ober-Quart"
    assert Meld.parse("vannak:U").title("de").acc == "den Unter-Vierling"
    assert Meld.parse("bela").title("de").dat == "der Béla"


def test_a_name_is_still_its_plain_text_and_english_has_no_forms() -> None:
    name = Card.parse("OH").name("en")
    assert name == "Over of Hearts" and isinstance(name, str) and name.acc == "Over of Hearts"
    with pytest.raises(AttributeError, match="no form"):
        _ = name.accusative  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="forms"):
        names.Named("x", {"acc": 3})  # type: ignore[dict-item]


def test_numbers_and_unnamed_players() -> None:
    assert [names.number(n, "hu").the for n in (1, 3, 5, 11, 16)] == ["az 1.", "a 3.", "az 5.", "a 11.", "a 16."]
    assert names.player_name(0, "en") == "Player 0"
    assert names.player_name(1, "hu", in_sentence=True) == "a másik játékos"
    assert not any(ch.isdigit() for lang in ("hu", "de") for p in (0, 1) for ch in names.player_name(p, lang))
