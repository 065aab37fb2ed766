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
