"""The rule book page: one short explanation per RULES.md ID, in order, each under its own anchor,
and the links to it that other pages make (:func:`tartli.rulebook.link_rule_ids`)."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tartli import rulebook
from tartli.cards import Card
from tartli.course import PAGES, index_of
from tartli.errors import ArgumentError
from tartli.rulebook import (
    RULES,
    SECTIONS,
    anchor,
    link_rule_ids,
    print_buttons_html,
    quick_reference_html,
    rule_book_html,
    rule_href,
    rule_ids,
)

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = (ROOT / "tests" / "data" / "RULES.md").read_text(encoding="utf-8")
FILE_IDS = re.findall(r"^- ([A-Z][0-9]+) ", RULES_MD, re.MULTILINE)  # as tests/test_rule_coverage.py reads them
FILE_SECTIONS = re.findall(r"^## ([A-Z]): ", RULES_MD, re.MULTILINE)


class _Page(HTMLParser):
    """The ids, in-page link targets and text of a piece of HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.links: list[tuple[str, str]] = []  # (href, text) of every <a>
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(str(values["id"]))
        if tag == "a":
            self.hrefs.append(str(values.get("href")))
            self.links.append((str(values.get("href")), ""))
            self._open.append("a")

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._open:
            href, text = self.links[-1]
            self.links[-1] = (href, text + data)


def parsed(markup: str) -> _Page:
    page = _Page()
    page.feed(markup)
    page.close()
    return page


# ---------------------------------------------------------------- the book holds every rule, in order


def test_the_rule_ids_of_the_file_were_read() -> None:
    assert len(FILE_IDS) == 46 and FILE_IDS[0] == "C1" and FILE_IDS[-1] == "V11"
    assert FILE_SECTIONS == ["C", "D", "T", "M", "K", "B", "S", "V"]


def test_the_book_has_every_rule_of_rules_md_in_its_order_and_no_other() -> None:
    assert list(rule_ids()) == FILE_IDS
    assert [r.id for r in RULES] == FILE_IDS
    assert len(set(rule_ids())) == len(rule_ids())


def test_the_sections_are_those_of_rules_md_in_order() -> None:
    assert list(SECTIONS) == FILE_SECTIONS
    assert all(SECTIONS[r.section] for r in RULES)
    letters = [r.section for r in RULES]
    assert letters == sorted(letters, key=FILE_SECTIONS.index)  # each section's rules stand together


@pytest.mark.parametrize("item", RULES, ids=lambda r: r.id)
def test_each_rule_is_explained_shortly_in_plain_words(item: rulebook.Rule) -> None:
    assert item.title.strip() and len(item.title) <= 60
    words = item.text.split()
    assert 10 <= len(words) <= 90, f"{item.id}: {len(words)} words"
    sentences = re.findall(r"[.!?](?:\s|$)", item.text)
    assert 2 <= len(sentences) <= 5, f"{item.id}: {len(sentences)} sentences"
    for text in (item.title, item.text, item.caption):
        assert not re.search(r"[_`<>]|\b10H|\bT[AKLHB]\b|\bseed\b", text), f"{item.id}: code or source talk in {text!r}"
    mentioned = set(re.findall(r"\b([A-Z][0-9]{1,2})\b", item.text))
    assert mentioned <= set(FILE_IDS), f"{item.id} mentions unknown rules {mentioned - set(FILE_IDS)}"


@pytest.mark.parametrize("item", [r for r in RULES if r.example], ids=lambda r: r.id)
def test_examples_are_cards_with_a_caption(item: rulebook.Rule) -> None:
    codes = item.example.replace("/", " ").split()
    assert 1 <= len(codes) <= 8
    assert [str(Card.parse(code)) for code in codes] == codes  # written as printed: X for the Ten
    assert item.caption
    assert item.trump in ("", "A", "L", "H", "B")
    if item.trump:
        assert any(code.endswith(item.trump) for code in codes)


# ---------------------------------------------------------------- the page


def test_every_rule_has_one_anchored_section_with_its_heading() -> None:
    markup = rule_book_html()
    ids = parsed(markup).ids
    assert len(ids) == len(set(ids)), "ids are unique on the page"
    for item in RULES:
        assert markup.count(f'id="{anchor(item.id)}"') == 1, item.id
        assert ids.count(anchor(item.id)) == 1
        heading = re.search(rf'<section id="rule-{item.id}"><h3>(.*?)</h3>', markup)
        assert heading is not None, item.id
        assert html.unescape(re.sub(r"<[^>]+>", "", heading.group(1))) == f"{item.id} · {item.title}"


def test_the_contents_list_every_section_and_rule_and_every_in_page_link_has_a_target() -> None:
    page = parsed(rule_book_html())
    targets = {h[1:] for h in page.hrefs if h.startswith("#")}
    assert {anchor(i) for i in FILE_IDS} <= targets
    assert {f"rules-{letter}" for letter in FILE_SECTIONS} <= targets
    assert targets <= set(page.ids)
    assert all(h.startswith("#") for h in page.hrefs), "the book links within itself (no reload)"


def test_mentions_of_rules_in_the_explanations_are_links() -> None:
    page = parsed(rule_book_html())
    assert ("#rule-C3", "C3") in page.links  # T1 says "the order of C3"
    assert ("#rule-S2", "S2") in page.links  # V9


def test_the_page_shows_the_example_cards_at_small_size_and_wraps_them() -> None:
    markup = rule_book_html()
    shown = len(re.findall(r'data-card="', markup))
    assert shown == sum(len(r.example.replace("/", " ").split()) for r in RULES)
    assert "flex-wrap:wrap" in markup and "font-size:16px" in markup
    assert 'data-card="OH"' in markup and "Over of Hearts" in markup
    assert "Herz-Ober" in rule_book_html("de")  # the pictures' names follow the language
    m3 = markup[markup.index('id="rule-M3"') : markup.index('id="rule-M4"')]
    assert m3.count('class="tartli-card face trump"') == 2  # béla's King and Over wear the trump badge


# ---------------------------------------------------------------- links to the rule book


def test_anchor_and_href() -> None:
    assert anchor("K7") == "rule-K7"
    assert rulebook.RULE_BOOK_PAGE == "rules.ipynb"
    assert rule_href("K7") == "rules.ipynb#rule-K7"
    assert rule_href("V11", static=True) == "rules.html#rule-V11"  # the static edition's pages
    for bad in ("K99", "k7", "", None):
        with pytest.raises(ArgumentError):
            anchor(bad)  # type: ignore[arg-type]


def link(rule_id: str) -> str:
    return f'<a href="rules.ipynb#rule-{rule_id}" class="tartli-rule">{rule_id}</a>'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("K7", link("K7")),
        ("see (S3).", f"see ({link('S3')})."),
        ("T2/T4", f"{link('T2')}/{link('T4')}"),
        ("V1, V10 and V11", f"{link('V1')}, {link('V10')} and {link('V11')}"),
        ("T4: you must follow suit", f"{link('T4')}: you must follow suit"),
        ("K99 V12 K0 K7x XK7 K7_ 7K7", "K99 V12 K0 K7x XK7 K7_ 7K7"),  # unknown IDs and parts of words
        ("OH XA 9H and a 7B", "OH XA 9H and a 7B"),  # card codes are not rule IDs
        ("<p>K7</p>", f"<p>{link('K7')}</p>"),
        ('<span title="K7" data-rule="T4">x</span>', '<span title="K7" data-rule="T4">x</span>'),
        ('<b title="a>K7">B1</b>', f'<b title="a>K7">{link("B1")}</b>'),  # a '>' inside an attribute
        ('<a href="#x">K7 <b>T4</b></a> T4', f'<a href="#x">K7 <b>T4</b></a> {link("T4")}'),
        ("<style>.K7{}</style><script>var C1;</script>", "<style>.K7{}</style><script>var C1;</script>"),
        ("<!-- K7 --><K7>", "<!-- K7 --><K7>"),
        ("<svg><title>C1</title></svg>C2", f"<svg><title>C1</title></svg>{link('C2')}"),
        ("", ""),
    ],
)
def test_link_rule_ids(text: str, expected: str) -> None:
    assert link_rule_ids(text) == expected
    assert link_rule_ids(expected) == expected  # linking again changes nothing


def test_link_rule_ids_links_every_rule_of_a_long_text_and_is_idempotent() -> None:
    text = "<ul>" + "".join(f"<li>{i}: ({i}) {i}/{i}</li>" for i in FILE_IDS) + "</ul>"
    once = link_rule_ids(text)
    assert link_rule_ids(once) == once
    page = parsed(once)
    assert [t for _, t in page.links] == [i for i in FILE_IDS for _ in range(4)]
    assert all(h == rule_href(t) for h, t in page.links)


def test_link_rule_ids_can_link_within_a_page_or_open_a_new_tab() -> None:
    assert link_rule_ids("K7", href=lambda i: f"#rule-{i}") == '<a href="#rule-K7" class="tartli-rule">K7</a>'
    new_tab = link_rule_ids("K7", target="_blank")
    assert new_tab == '<a href="rules.ipynb#rule-K7" class="tartli-rule" target="_blank" rel="noopener">K7</a>'
    assert link_rule_ids(new_tab, target="_blank") == new_tab


def test_links_within_the_book_stay_on_the_page() -> None:
    # Voilà's output renderer opens a link without a target in a new tab: the book's own links say _self
    anchors = re.findall(r"<a [^>]*>", rule_book_html())
    assert anchors and all('target="_self"' in a for a in anchors)


# ---------------------------------------------------------------- the page of the course


def test_the_rule_book_is_a_page_of_the_course_after_the_lessons() -> None:
    i = index_of("rules.ipynb")
    page = PAGES[i]
    assert (page.title, page.summary) == ("The rule book", "Every rule of the game, by its ID, in a few words.")
    assert PAGES[i - 1].file == "13_scenario_lab.ipynb"
    assert [p.file for p in PAGES[i + 1 :]] == ["practice.ipynb", "table.ipynb"]


def test_the_notebook_shows_the_book_and_links_on(monkeypatch: pytest.MonkeyPatch) -> None:
    notebook = json.loads((ROOT / "notebooks" / "rules.ipynb").read_text(encoding="utf-8"))
    assert notebook["metadata"]["tartli"]["title"] == "The rule book"
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"
    cells = notebook["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    assert len(code) == 1
    import IPython.display

    shown: list[object] = []
    monkeypatch.setattr(IPython.display, "display", lambda *objs, **_: shown.extend(objs))
    exec(compile(code[0], "rules.ipynb", "exec"), {})  # what the kernel runs (nbval runs it there too)
    markups = [getattr(o, "data", "") for o in shown]
    assert markups[0] == "<h1>The rule book</h1>"  # a heading in the page's language (tr)
    assert markups[1] == print_buttons_html() and markups[2] == quick_reference_html()  # for a teacher to print
    assert markups[3] == rule_book_html()
    assert 'class="tartli-nav"' in markups[-1] and "practice.ipynb" in markups[-1]


def test_the_quick_reference_holds_the_engine_s_tables_and_the_contest_and_scoring_rules() -> None:
    from tartli.cards import PLAIN_POINTS, TRUMP_POINTS
    from tartli.melds import SEQUENCE_VALUES, SET_VALUES

    sheet = quick_reference_html()
    cells = re.findall(r'<td class="n">(\d+)</td>', sheet)
    assert sorted(map(int, cells)) == sorted(
        [*TRUMP_POINTS, *PLAIN_POINTS, *SEQUENCE_VALUES.values(), *SET_VALUES.values(), 40]
    )
    for rule_id in ("T1", "T4", "T5", "K1", "K2", "K3", "S1", "S3", "S4"):  # T1/T4/T5: issue 36 item 17
        assert f"<b>{rule_id} · " in sheet
    assert "Print the rule book" in print_buttons_html() and "window.print()" in print_buttons_html()


def test_s3_names_the_silent_answer_in_the_words_of_lesson_09() -> None:
    """Issue 36 item 16: the book's S3 left out the exception lesson 09 teaches and never named the
    "silent answer" the lessons use. Both now say it in the same words."""
    book = next(r for r in RULES if r.id == "S3").text
    cells = json.loads((ROOT / "notebooks" / "09_scoring.ipynb").read_text(encoding="utf-8"))["cells"]
    lesson = " ".join(" ".join("".join(c["source"]).split()) for c in cells)
    assert "silent answer" in book and "**silent answer**" in lesson
    for words in (
        "the claim is judged at the contest: that trick's card points count for neither of you",
        "If you need those points yourself, the claim is judged after the trick, as usual.",
    ):
        assert words in book and words in lesson, words
