"""The card art (tartli.render): well-formed standalone SVG, the right card on every face,
pip counts, a back that gives nothing away, visible states, and no outside references."""

from __future__ import annotations

import ast
import re
import sys
import xml.etree.ElementTree as ET
from itertools import product
from pathlib import Path

import pytest

from tartli.cards import CARDS, LANGUAGES, RANKS, SUITS, Card, Rank, Suit
from tartli.errors import TartliError
from tartli.render import back_svg, card_svg, sheet_html
from tartli.render.cards import MIN_TEXT_PX
from tartli.render.sheet import main as sheet_main

SVG = "{http://www.w3.org/2000/svg}"
PIPS_OF_NUMBER = {Rank.TEN: 10, Rank.NINE: 9, Rank.EIGHT: 8, Rank.SEVEN: 7}
ROMAN = {Rank.TEN: "X", Rank.NINE: "IX", Rank.EIGHT: "VIII", Rank.SEVEN: "VII"}
SEASON = {  # restated from the facts about the pack, not from the module
    Suit.HEARTS: ("Spring", "Tavasz", "Frühling"),
    Suit.BELLS: ("Summer", "Nyár", "Sommer"),
    Suit.LEAVES: ("Autumn", "Ősz", "Herbst"),
    Suit.ACORNS: ("Winter", "Tél", "Winter"),
}
STATES = [
    {"selected": True},
    {"playable": True},
    {"playable": False},
    {"highlighted": True},
    {"trump": True},
]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(el: ET.Element) -> list[str]:
    return el.get("class", "").split()


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in classes(el)]


def texts(root: ET.Element) -> list[str]:
    return ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]


def translate_y(el: ET.Element) -> float:
    m = re.match(r"translate\(([-\d.]+) ([-\d.]+)\)", el.get("transform", ""))
    assert m, el.get("transform")
    return float(m.group(2))


# ---------------------------------------------------------------- faces


@pytest.mark.rule("C1")
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_face_is_standalone_svg_naming_its_card(language: str) -> None:
    for card in CARDS:
        svg = card_svg(card, language=language)  # type: ignore[arg-type]
        root = parse(svg)
        assert root.tag == f"{SVG}svg"
        assert root.get("viewBox") == "0 0 100 160"
        assert root.get("role") == "img"
        assert root.get("aria-label") == card.name(language)  # type: ignore[arg-type]
        title = root.find(f"{SVG}title")
        assert title is not None and title.text == card.name(language)  # type: ignore[arg-type]
        assert root[0] is title  # the title comes first
        assert root.get("data-card") == card.text


@pytest.mark.rule("C1")
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_32_faces_are_pairwise_distinct(language: str) -> None:
    faces = {card_svg(card, language=language) for card in CARDS}  # type: ignore[arg-type]
    assert len(faces) == 32
    # also once the name, title and data-card are stripped: the pictures themselves differ
    pictures = {re.sub(r"<title>.*?</title>|aria-label=\"[^\"]*\"|data-card=\"..\"", "", f) for f in faces}
    assert len(pictures) == 32


@pytest.mark.rule("C1")
def test_the_names_follow_the_engine_in_three_languages() -> None:
    oh = Card.parse("OH")
    assert parse(card_svg(oh)).get("aria-label") == "Over of Hearts"
    assert parse(card_svg(oh, language="hu")).get("aria-label") == "piros felső"
    assert parse(card_svg(oh, language="de")).get("aria-label") == "Herz-Ober"


@pytest.mark.rule("C1")
@pytest.mark.parametrize(("rank", "suit"), list(product(RANKS, SUITS)))
def test_pip_counts(rank: Rank, suit: Suit) -> None:
    root = parse(card_svg(Card(rank, suit)))
    pips = with_class(root, "pip")
    expected = PIPS_OF_NUMBER.get(rank, 2 if rank is Rank.ACE else 1)
    assert len(pips) == expected
    assert len(with_class(root, "mini-pip")) == 2  # the two corner indices


@pytest.mark.rule("C1")
@pytest.mark.parametrize("suit", SUITS)
def test_the_pips_of_a_suit_are_one_shape_and_the_suits_differ(suit: Suit) -> None:
    def pip_body(card: Card) -> str:
        pip = with_class(parse(card_svg(card)), "pip")[0]
        return "".join(ET.tostring(child, encoding="unicode") for child in pip)

    bodies = {pip_body(Card(rank, suit)) for rank in RANKS}
    assert len(bodies) == 1
    others = {pip_body(Card(Rank.SEVEN, s)) for s in SUITS if s is not suit}
    assert bodies.isdisjoint(others)


@pytest.mark.rule("C1")
@pytest.mark.parametrize("rank", list(ROMAN))
def test_number_cards_show_their_roman_numeral(rank: Rank) -> None:
    for suit in SUITS:
        root = parse(card_svg(Card(rank, suit)))
        numerals = with_class(root, "numeral")
        assert ["".join(n.itertext()) for n in numerals] == [ROMAN[rank]]


@pytest.mark.rule("C1")
@pytest.mark.parametrize("suit", SUITS)
def test_over_holds_the_pip_high_under_low(suit: Suit) -> None:
    over = with_class(parse(card_svg(Card(Rank.OVER, suit))), "pip")[0]
    under = with_class(parse(card_svg(Card(Rank.UNDER, suit))), "pip")[0]
    assert translate_y(over) < 50 < 80 < translate_y(under)  # top of the card vs. its lower half


@pytest.mark.rule("C1")
@pytest.mark.parametrize("suit", SUITS)
def test_aces_show_their_season(suit: Suit) -> None:
    for language, season in zip(LANGUAGES, SEASON[suit], strict=True):
        root = parse(card_svg(Card(Rank.ACE, suit), language=language))  # type: ignore[arg-type]
        assert season in texts(root)


@pytest.mark.rule("C1")
def test_tell_and_gessler_are_named() -> None:
    oa, oh = Card.parse("OA"), Card.parse("OH")
    assert "Tell Vilmos" in texts(parse(card_svg(oa, language="hu")))
    assert "William Tell" in texts(parse(card_svg(oa, language="en")))
    assert "Wilhelm Tell" in texts(parse(card_svg(oa, language="de")))
    for language in LANGUAGES:
        assert "Gessler" in texts(parse(card_svg(oh, language=language)))  # type: ignore[arg-type]


@pytest.mark.rule("C1")
def test_corner_index_letters() -> None:
    expected = {
        "en": "A K O U X 9 8 7",  # the Ten is X, as in the records and the course's notation
        "hu": "Á K F A X 9 8 7",
        "de": "A K O U X 9 8 7",
    }
    for language, letters in expected.items():
        for rank, letter in zip(RANKS, letters.split(), strict=True):
            root = parse(card_svg(Card(rank, Suit.HEARTS), language=language))  # type: ignore[arg-type]
            index = with_class(root, "index")
            assert len(index) == 2
            assert all("".join(i.itertext()) == letter for i in index)


ACCENTED_CAPITAL_EM = 0.92
"""How far DejaVu Serif Bold's "Á" (the index font on the test machine) reaches above its baseline, in em:
its ink, measured in Chromium with canvas measureText (a plain "A" reaches 0.73)."""


@pytest.mark.parametrize("width", [None, 32, 44, 60, 110, 160])
def test_the_selected_mark_leaves_the_index_letters_accent_visible(width: float | None) -> None:
    """The winning card's frame covered the top of the Hungarian Ace's "Á", which then read "A" (the Under's
    letter): the letter's top, its accent included, is inside the selected mark's inner edge, in every
    language, at every size of the index, and on the turned index at the bottom as well (the same group)."""
    for card, language in product((Card.parse("AH"), Card.parse("AL"), Card.parse("UB")), LANGUAGES):
        root = parse(card_svg(card, language=language, width=width, selected=True))  # type: ignore[arg-type]
        (mark,) = with_class(root, "selected-mark")
        inner_edge = max(
            float(r.get("y", "0")) + float(r.get("stroke-width", "0")) / 2 for r in mark.iter(f"{SVG}rect")
        )
        for letter in (t for index in with_class(root, "index") for t in index.iter(f"{SVG}text")):
            top = float(letter.get("y", "0")) - ACCENTED_CAPITAL_EM * float(letter.get("font-size", "0"))
            assert top >= inner_edge + 0.3, (card, language, width, "".join(letter.itertext()), top, inner_edge)


def text_sizes_px(svg: str, width: float) -> list[tuple[float, str]]:
    """Each text's letter height in CSS px on a card drawn ``width`` px wide (viewBox 100 wide)."""
    sizes = []
    for node in parse(svg).iter():
        if node.tag.endswith("text"):
            size = float(node.get("font-size", "0")) * width / 100
            for parent_scale in re.findall(r"scale\(([\d.]+)\)", node.get("transform", "")):
                size *= float(parent_scale)
            sizes.append((size, "".join(node.itertext())))
    return sizes


@pytest.mark.parametrize("width", [32, 40, 56, 70, 90, 114, 115, 160])
def test_no_text_on_a_card_is_smaller_than_nine_css_pixels(width: float) -> None:
    for card in CARDS:
        for language in LANGUAGES:
            svg = card_svg(card, language=language, width=width, trump=True, highlighted=True)  # type: ignore[arg-type]
            sizes = text_sizes_px(svg, width)
            assert sizes, card  # the corner index is always there
            too_small = [(round(px, 1), text) for px, text in sizes if px < MIN_TEXT_PX - 1e-9]
            assert not too_small, (card, width, too_small)


def test_a_small_card_keeps_its_index_and_drops_its_lettering() -> None:
    over = Card.parse("OA")
    large, small = card_svg(over, width=130), card_svg(over, width=60)
    assert "William Tell" in texts(parse(large)) and "William Tell" not in texts(parse(small))
    assert len(with_class(parse(small), "index")) == 2
    big_index = [
        float(t.get("font-size", "0")) for t in parse(card_svg(over, width=34)).iter() if t.tag.endswith("text")
    ]
    assert min(big_index) * 34 / 100 >= MIN_TEXT_PX  # grown to stay readable
    ten = Card.parse("XB")
    assert "X" in texts(parse(card_svg(ten, width=60))) and "X" in texts(parse(card_svg(ten, width=40)))
    assert any(t.get("class") == "numeral" for t in parse(card_svg(ten, width=60)).iter())
    assert not any(t.get("class") == "numeral" for t in parse(card_svg(ten, width=40)).iter())


# ---------------------------------------------------------------- the back


BACK_NAMES = {"en": "face-down card", "hu": "lefordított kártya", "de": "verdeckte Karte"}


def forbidden_words() -> set[str]:
    words = set()
    for language in LANGUAGES:
        for card in CARDS:
            words.add(card.name(language))
        for suit in SUITS:
            words.add(suit.name_in(language))
        for rank in RANKS:
            words.add(rank.name_in(language))
    words |= {"Acorn", "Leaf", "Heart", "Bell", "Gessler", "Tell"}
    for seasons in SEASON.values():
        words |= set(seasons)
    return words


@pytest.mark.rule("C1")
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_back_reveals_nothing(language: str) -> None:
    back = back_svg(language=language)  # type: ignore[arg-type]
    for card in CARDS:
        for state in [{}, *STATES]:
            assert card_svg(card, language=language, face_down=True, **state) == back  # type: ignore[arg-type]
    for card in CARDS:
        assert card.text not in back
    for word in forbidden_words():
        assert not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", back, re.IGNORECASE), word
    root = parse(back)
    assert root.get("data-card") is None
    assert root.get("aria-label") == BACK_NAMES[language]
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == BACK_NAMES[language]
    assert root.get("role") == "img"
    assert not with_class(root, "pip") and not with_class(root, "mini-pip")


def test_back_width() -> None:
    root = parse(back_svg(width=60))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("60", "96", "0 0 100 160")


# ---------------------------------------------------------------- states


def test_each_state_changes_the_markup_and_draws_its_cue() -> None:
    card = Card.parse("OH")
    plain = card_svg(card)
    marks = {
        "selected": "selected-mark",
        "highlighted": "meld-mark",
        "trump": "trump-badge",
    }
    variants = {plain}
    for state in STATES:
        svg = card_svg(card, **state)  # type: ignore[arg-type]
        assert svg != plain
        variants.add(svg)
        root = parse(svg)
        for key, mark in marks.items():
            assert bool(with_class(root, mark)) == (key in state), (state, mark)
        assert bool(with_class(root, "playable-mark")) == (state.get("playable") is True)
        assert bool(with_class(root, "unplayable")) == (state.get("playable") is False)
    assert len(variants) == len(STATES) + 1


def test_unplayable_is_not_only_a_colour_change() -> None:
    root = parse(card_svg(Card.parse("9B"), playable=False))
    hatch = with_class(root, "unplayable-hatch")
    cross = with_class(root, "unplayable-cross")
    assert len(hatch) == 1 and hatch[0].tag == f"{SVG}path"
    assert hatch[0].get("d", "").count("M") >= 10  # a real hatch, many lines
    assert len(cross) == 1 and cross[0].tag == f"{SVG}path"
    assert "unplayable" in classes(root)


def test_states_are_described_in_words() -> None:
    root = parse(card_svg(Card.parse("OH"), language="de", trump=True, playable=False))
    desc = root.find(f"{SVG}desc")
    assert desc is not None and desc.text == "nicht spielbar, Trumpf"
    assert parse(card_svg(Card.parse("OH"))).find(f"{SVG}desc") is None


def test_states_combine() -> None:
    svg = card_svg(Card.parse("XL"), selected=True, highlighted=True, trump=True, playable=True)
    root = parse(svg)
    for mark in ("selected-mark", "meld-mark", "trump-badge", "playable-mark"):
        assert with_class(root, mark)


# ---------------------------------------------------------------- size and hygiene


def test_width_sets_the_size_and_keeps_the_viewbox() -> None:
    card = Card.parse("AH")
    free = parse(card_svg(card))
    assert free.get("width") is None and free.get("height") is None
    sized = parse(card_svg(card, width=90))
    assert (sized.get("width"), sized.get("height"), sized.get("viewBox")) == ("90", "144", "0 0 100 160")
    big = parse(card_svg(card, width=300))
    assert (big.get("width"), big.get("height"), big.get("viewBox")) == ("300", "480", "0 0 100 160")
    with pytest.raises(TartliError):
        card_svg(card, width=0)


def all_markup() -> list[str]:
    out = [back_svg(language=language) for language in LANGUAGES]  # type: ignore[arg-type]
    for card, language in product(CARDS, LANGUAGES):
        out.append(card_svg(card, language=language))  # type: ignore[arg-type]
    out += [card_svg(Card.parse("KB"), **state) for state in STATES]  # type: ignore[arg-type]
    return out


def test_no_outside_references_no_images_no_ids() -> None:
    for svg in all_markup():
        assert re.findall(r"https?://[^\"' ]*", svg) == ["http://www.w3.org/2000/svg"]
        root = parse(svg)
        tags = {el.tag for el in root.iter()}
        assert f"{SVG}image" not in tags and f"{SVG}foreignObject" not in tags and f"{SVG}style" not in tags
        assert "href" not in svg and "url(" not in svg and "@import" not in svg
        assert not [el for el in root.iter() if el.get("id") is not None]  # inlining many cards cannot clash


def test_fonts_end_in_a_generic_family() -> None:
    for svg in all_markup():
        for family in re.findall(r'font-family="([^"]*)"', svg):
            assert family.rsplit(",", 1)[-1].strip() in ("serif", "sans-serif"), family


def test_unknown_language() -> None:
    with pytest.raises(TartliError):
        card_svg(Card.parse("OH"), language="fr")  # type: ignore[arg-type]
    with pytest.raises(TartliError):
        back_svg(language="fr")  # type: ignore[arg-type]


def test_render_uses_the_standard_library_only() -> None:
    folder = Path(__file__).resolve().parents[1] / "tartli" / "render"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top == "tartli" or top in sys.stdlib_module_names, (path.name, name)


# ---------------------------------------------------------------- the sheet


@pytest.mark.rule("C1")
@pytest.mark.parametrize("language", LANGUAGES)
def test_sheet_shows_the_whole_pack(language: str) -> None:
    html = sheet_html(language)  # type: ignore[arg-type]
    shown = re.findall(r'data-card="(..)"', html)
    assert set(shown) == {c.text for c in CARDS}
    assert html.count(BACK_NAMES[language]) >= 2  # aria-label and title of the back
    for cls in ("selected-mark", "playable-mark", "unplayable-hatch", "meld-mark", "trump-badge"):
        assert cls in html
    assert 'width="90"' in html
    cards = re.findall(r"<(?:td|figure)>(<svg.*?</svg>)(?:</td>|<figcaption>)", html, re.DOTALL)
    assert len(cards) == 32 + 6  # the pack, the back and five states
    for svg in cards:
        parse(svg)


def test_sheet_script_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet.html"
    assert sheet_main([str(out), "--language", "hu"]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "piros felső" in page
    assert "wrote" in capsys.readouterr().out


def test_a_bare_card_is_drawn_as_a_real_pack_shows_it() -> None:
    over = Card.parse("OA")
    bare = parse(card_svg(over, width=130, bare=True))
    assert not with_class(bare, "index")
    assert "William Tell" not in texts(bare) and "Over" not in texts(bare)
    dressed = parse(card_svg(over, width=130))
    assert with_class(dressed, "index") and "William Tell" in texts(dressed)
