"""The score slate (tartli/render/slate.py): chalk marks that add up, signs built stroke by stroke, clean SVG.

Hungarian tests are marked S1 (the running score), Austrian ones V11 (Beck's slate marks).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from itertools import groupby

import pytest

from tartli.errors import TartliError
from tartli.render.slate import (
    AUSTRIAN_ELEMENTS,
    BECK_319,
    HUNGARIAN_ELEMENTS,
    Mark,
    decompose,
    demo_html,
    marks_svg,
    slate_svg,
)

NS = "{http://www.w3.org/2000/svg}"
HU = pytest.param("hungarian", marks=pytest.mark.rule("S1"), id="hungarian")
AT = pytest.param("austrian", marks=pytest.mark.rule("V11"), id="austrian")
KINDS = {
    "hungarian": {"hundred", "eighty", "fifty", "thirty", "twenty", "number"},
    "austrian": {"group", "triangle", "vee", "stroke", "number"},
}


def chalk_paths(svg: str, cls: str = "chalk") -> list[tuple[str, str]]:
    """The (path data, transform) of every drawn chalk element with exactly this class."""
    root = ET.fromstring(svg)
    return [(p.get("d", ""), p.get("transform", "")) for p in root.iter(f"{NS}path") if p.get("class") == cls]


def classes(svg: str) -> Counter[str]:
    return Counter(p.get("class", "") for p in ET.fromstring(svg).iter(f"{NS}path"))


def is_one_straight_stroke(d: str) -> bool:
    """One subpath, no curves that close or turn back: a move and a single (slightly bowed) line."""
    return d.count("M") == 1 and re.fullmatch(r"M[-\d. ]+[LQ][-\d. ]+", d) is not None


# --- decompose --------------------------------------------------------------------------------------


@pytest.mark.parametrize("tradition", [HU, AT])
def test_marks_add_up_to_every_score_0_to_700(tradition: str) -> None:
    for score in range(701):
        marks = decompose(score, tradition)
        assert sum(m.value for m in marks) == score, (score, marks)
        assert {m.kind for m in marks} <= KINDS[tradition]
        numbers = [m for m in marks if m.kind == "number"]
        assert len(numbers) <= 1 and all(m.value != 0 and -10 <= m.value <= 10 for m in numbers)
        assert not numbers or marks[-1] == numbers[0], "the odd points come last"
        signs = [m.value for m in marks if m.kind != "number"]
        assert signs == sorted(signs, reverse=True), "big signs first"


@pytest.mark.parametrize("tradition", [HU, AT])
@pytest.mark.parametrize("score", [-1, -20, -501])
def test_negative_scores_are_refused_naming_s1(tradition: str, score: int) -> None:
    with pytest.raises(ValueError, match="S1"):
        decompose(score, tradition)


@pytest.mark.rule("S1")
def test_a_score_must_be_a_whole_number() -> None:
    with pytest.raises(TartliError, match="S1"):
        decompose(4.5, "hungarian")  # type: ignore[arg-type]
    with pytest.raises(TartliError, match="S1"):
        decompose(True, "hungarian")


@pytest.mark.rule("S1")
@pytest.mark.parametrize(
    ("score", "values"),
    [
        (0, []),
        (47, [50, -3]),
        (319, [100, 100, 100, 20, -1]),
        (501, [100, 100, 100, 100, 100, 1]),
        (45, [50, -5]),
        (25, [20, 5]),
        (110, [80, 30]),
        (160, [100, 30, 30]),
        (14, [20, -6]),
        (161, [100, 30, 30, 1]),
    ],
)
def test_hungarian_examples(score: int, values: list[int]) -> None:
    assert [m.value for m in decompose(score, "hungarian")] == values


@pytest.mark.rule("S1")
def test_hungarian_prefers_the_smallest_odd_number() -> None:
    for score in range(15, 701):
        numbers = [m.value for m in decompose(score, "hungarian") if m.kind == "number"]
        assert all(abs(n) <= 5 for n in numbers), score


@pytest.mark.rule("V11")
@pytest.mark.parametrize(
    ("score", "kinds"),
    [
        (0, []),
        (319, ["group", "group", "group", "stroke", "number"]),
        (130, ["vee", "stroke", "stroke", "stroke", "stroke"]),
        (30, ["stroke", "number"]),
        (47, ["vee", "number"]),
        (200, ["group", "group"]),
    ],
)
def test_austrian_examples(score: int, kinds: list[str]) -> None:
    assert [m.kind for m in decompose(score, "austrian")] == kinds


@pytest.mark.rule("V11")
def test_austrian_loose_strokes_never_make_a_group_and_vees_never_pair() -> None:
    for score in range(701):
        kinds = Counter(m.kind for m in decompose(score, "austrian"))
        assert kinds["stroke"] <= 4 and kinds["vee"] <= 1 and kinds["triangle"] == 0


@pytest.mark.rule("V11")
def test_austrian_319_uses_the_v11_elements() -> None:
    ours = decompose(319, "austrian")
    assert sum(m.value for m in ours) == 319 and {m.kind for m in ours} <= KINDS["austrian"]
    # Beck's own way, strokes of 20 read as runs: 100 + 80 + 50 + 80 - 3 + 12.
    assert sum(m.value for m in BECK_319) == 319
    read: list[int] = []
    for kind, run in groupby(BECK_319, key=lambda m: m.kind):
        values = [m.value for m in run]
        read.extend([sum(values)] if kind == "stroke" else values)
    assert read == [100, 80, 50, 80, -3, 12]
    svg = marks_svg(BECK_319, "austrian")
    assert classes(svg)["chalk bar"] == 1 and classes(svg)["chalk underline"] == 1


@pytest.mark.parametrize("tradition", [HU, AT])
def test_unknown_tradition_language_width_and_marks_are_refused(tradition: str) -> None:
    with pytest.raises(TartliError, match="tradition"):
        decompose(10, "swiss")
    with pytest.raises(TartliError, match="language"):
        slate_svg((0, 0), tradition=tradition, language="fr")
    with pytest.raises(TartliError, match="width"):
        marks_svg(10, tradition, width=0)
    wrong = Mark("vee", 50) if tradition == "hungarian" else Mark("fifty", 50)
    with pytest.raises(TartliError, match="not a"):
        marks_svg([wrong], tradition)
    with pytest.raises(TartliError):
        marks_svg([Mark("number", 0)], tradition)


# --- the drawn signs -------------------------------------------------------------------------------


@pytest.mark.rule("S1")
@pytest.mark.parametrize(("small", "big"), [(30, 50), (80, 100)])
def test_one_more_stroke_turns_30_into_50_and_80_into_100(small: int, big: int) -> None:
    # In the sign table ...
    assert HUNGARIAN_ELEMENTS[big][: len(HUNGARIAN_ELEMENTS[small])] == HUNGARIAN_ELEMENTS[small]
    assert len(HUNGARIAN_ELEMENTS[big]) == len(HUNGARIAN_ELEMENTS[small]) + 1
    assert is_one_straight_stroke(HUNGARIAN_ELEMENTS[big][-1])
    # ... and in what is drawn: the big sign is exactly the small one plus one straight stroke.
    drawn_small = Counter(chalk_paths(marks_svg(small)))
    drawn_big = Counter(chalk_paths(marks_svg(big)))
    assert not drawn_small - drawn_big
    extra = list((drawn_big - drawn_small).elements())
    assert len(extra) == 1 and is_one_straight_stroke(extra[0][0])


@pytest.mark.rule("S1")
def test_hungarian_signs_are_distinct_and_20_is_one_stroke() -> None:
    assert len(set(HUNGARIAN_ELEMENTS.values())) == 5
    assert len(HUNGARIAN_ELEMENTS[20]) == 1 and is_one_straight_stroke(HUNGARIAN_ELEMENTS[20][0])
    for value, elements in HUNGARIAN_ELEMENTS.items():
        assert len(chalk_paths(marks_svg([decompose(value)[0]]))) == len(elements)


@pytest.mark.rule("V11")
def test_austrian_group_is_five_strokes_and_the_triangle_closes_the_vee() -> None:
    assert len(AUSTRIAN_ELEMENTS["group"]) == 5 and all(is_one_straight_stroke(d) for d in AUSTRIAN_ELEMENTS["group"])
    assert AUSTRIAN_ELEMENTS["triangle"][:1] == AUSTRIAN_ELEMENTS["vee"]
    assert len(AUSTRIAN_ELEMENTS["triangle"]) == 2 and is_one_straight_stroke(AUSTRIAN_ELEMENTS["triangle"][1])
    vee = Counter(chalk_paths(marks_svg([Mark("vee", 50)], "austrian")))
    triangle = Counter(chalk_paths(marks_svg([Mark("triangle", 100)], "austrian")))
    assert not vee - triangle and sum((triangle - vee).values()) == 1
    assert len(chalk_paths(marks_svg(100, "austrian"))) == 5


@pytest.mark.rule("V11")
@pytest.mark.parametrize(
    ("score", "bars", "underlines"),
    [(47, 1, 0), (30, 0, 1), (501, 0, 0), (319, 1, 0), (10, 0, 1), (100, 0, 0)],
)
def test_austrian_numbers_barred_when_negative_underlined_when_two_digit(
    score: int, bars: int, underlines: int
) -> None:
    found = classes(marks_svg(score, "austrian"))
    assert (found["chalk bar"], found["chalk underline"]) == (bars, underlines)
    assert found["chalk sign"] == 0, "Austrian numbers carry no + or - sign"


@pytest.mark.rule("V11")
def test_austrian_slate_shows_bars_and_underlines() -> None:
    found = classes(slate_svg((47, 30), tradition="austrian"))
    assert found["chalk bar"] == 1 and found["chalk underline"] == 1


@pytest.mark.rule("S1")
def test_hungarian_numbers_are_signed_not_barred() -> None:
    found = classes(marks_svg(47))
    assert found["chalk sign"] == 1 and found["chalk digit"] == 1 and found["chalk bar"] == 0
    assert classes(marks_svg(10))["chalk underline"] == 0


# --- the SVG --------------------------------------------------------------------------------------


def all_svgs() -> list[str]:
    out = []
    for tradition in ("hungarian", "austrian"):
        for language in ("en", "hu", "de"):
            out.append(slate_svg((319, 47), tradition=tradition, language=language))
        out.append(slate_svg((0, 700), names=("<Anna & Béla>", "Csaba"), tradition=tradition, width=300))
        out.extend(marks_svg(s, tradition) for s in (0, 10, 47, 319, 501))
    out.append(marks_svg(BECK_319, "austrian", language="de"))
    return out


@pytest.mark.parametrize("tradition", [HU, AT])
def test_slate_parses_and_names_both_scores(tradition: str) -> None:
    labels = {
        "en": "Player 0: 319 points, Player 1: 47 points",
        "hu": "Player 0: 319 pont, Player 1: 47 pont",
        "de": "Player 0: 319 Punkte, Player 1: 47 Punkte",
    }
    for language, label in labels.items():
        root = ET.fromstring(slate_svg((319, 47), tradition=tradition, language=language))
        assert root.tag == f"{NS}svg" and root.get("role") == "img"
        assert root.get("aria-label") == label
        title = root.find(f"{NS}title")
        assert title is not None and title.text == label
        assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", root.get("viewBox", ""))
        texts = [t.text for t in root.iter(f"{NS}text")]
        assert texts == ["Player 0", "= 319", "Player 1", "= 47"]


@pytest.mark.rule("S1")
def test_names_are_escaped_and_width_scales() -> None:
    root = ET.fromstring(slate_svg((1, 0), names=("<Anna & Béla>", "Csaba"), width=300))
    assert root.get("aria-label") == "<Anna & Béla>: 1 point, Csaba: 0 points"
    view = [float(v) for v in root.get("viewBox", "").split()]
    assert float(root.get("width", "")) == 300
    assert float(root.get("height", "")) == pytest.approx(300 * view[3] / view[2], abs=0.01)
    assert "width" not in ET.fromstring(slate_svg((1, 0))).attrib


@pytest.mark.rule("S1")
def test_svg_is_self_contained_and_reusable_on_one_page() -> None:
    for svg in [*all_svgs(), demo_html()]:
        urls = re.findall(r"https?://[^\s\"'<>)]+", svg)
        assert set(urls) <= {"http://www.w3.org/2000/svg"}
        assert "<image" not in svg and "url(" not in svg and "@import" not in svg and "@font-face" not in svg
        assert ' id="' not in svg, "no ids, so many slates can share a page"
        for family in re.findall(r'font-family="([^"]*)"', svg):
            assert {f.strip() for f in family.split(",")} <= {"serif", "sans-serif", "cursive", "monospace"}
    for svg in all_svgs():
        ET.fromstring(svg)


@pytest.mark.rule("S1")
def test_chalk_is_rough_and_output_is_repeatable() -> None:
    svg = slate_svg((319, 47))
    assert 'stroke-linecap="round"' in svg and 'opacity=".9"' in svg
    assert svg == slate_svg((319, 47))
    assert slate_svg((0, 0)).count('class="chalk') == 0


@pytest.mark.rule("S1")
def test_marks_svg_label_spells_out_the_marks() -> None:
    root = ET.fromstring(marks_svg(47))
    assert root.get("aria-label") == "47 points in Hungarian chalk marks: 50 − 3"
    root = ET.fromstring(marks_svg(319, "austrian", language="hu"))
    assert root.get("aria-label") == "319 pont krétajelekkel (osztrák): 100 100 100 20 − 1"


@pytest.mark.rule("V11")
def test_demo_page_shows_the_signs_and_scores_of_both_traditions() -> None:
    page = demo_html()
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg ") >= 20
    for caption in ("20", "30", "50", "80", "100", "47", "319", "501", "triangle 100", "319 as Beck writes it"):
        assert f"<figcaption>{caption}</figcaption>" in page
    assert page.count('class="tartli-slate') == 2
