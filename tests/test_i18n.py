"""The translation catalogs: complete, in step with the sources, placeholders kept (tartli.i18n, tartli.catalogs)."""

from __future__ import annotations

import ast
import copy
import gettext
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po, write_po

from tartli import catalogs, i18n, names
from tartli.course import PAGES, Page, page_url
from tests.helpers import MOST_ENGLISH, english_share, in_language

ROOT = Path(__file__).resolve().parent.parent


def _catalog(lang: str) -> catalogs.Catalog:
    with catalogs.po_path(lang).open("rb") as file:
        return read_po(file, locale=lang)


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    assert catalogs.problems(_catalog(lang), lang) == []


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_the_catalog_holds_exactly_the_marked_strings_of_the_sources(lang: str) -> None:
    """Run ``python -m tartli.catalogs extract`` after marking or changing a string."""
    marked = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogs.template_of(catalogs.sources()) if m.id}
    held = {m.id if isinstance(m.id, str) else m.id[0] for m in _catalog(lang) if m.id}
    assert sorted(marked - held) == [], "marked but not in the catalog: run python -m tartli.catalogs extract"
    assert sorted(held - marked) == [], "in the catalog but no longer marked: run python -m tartli.catalogs extract"


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_the_compiled_catalog_is_the_po_compiled(lang: str) -> None:
    assert catalogs.is_current(lang), "run python -m tartli.catalogs compile"


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_no_page_falls_back_to_english(lang: str) -> None:
    """Every message of every page, the lesson prose, the rule book and the history quiz included."""
    catalog = _catalog(lang)
    pages = {place.split("#")[0] for m in catalog if m.id for place, _line in m.locations}
    assert {f"notebooks/{p.file}" for p in PAGES if p.file != "rules.ipynb"} <= pages  # (the rule book's
    assert "tartli/rulebook.py" in pages and "tartli/widgets/quizzes/history.py" in pages  # texts are its module's)
    assert [m.id for m in catalog if m.id and not all(catalogs._strings(m))] == []


def test_the_check_finds_a_missing_translation_a_fuzzy_one_and_a_lost_placeholder() -> None:
    catalog = _catalog("hu")
    messages = [m for m in catalog if m.id and isinstance(m.id, str) and i18n.placeholders(m.id)]
    broken = copy.deepcopy(catalog)
    first, second, third = (broken[m.id] for m in messages[:3])
    first.string = ""
    second.flags.add("fuzzy")
    third.string = "x"
    found = [line for line in catalogs.problems(broken, "hu") if line not in catalogs.problems(catalog, "hu")]
    assert [line.split(":")[1].strip().split(" ")[0] for line in found] == ["untranslated", "fuzzy", "placeholders"]


def _marker_calls(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in catalogs.KEYWORDS:
            yield node


def _code_of(path: Path) -> Iterator[tuple[str, str]]:
    if path.suffix == ".ipynb":
        for number, code in catalogs._notebook_code(path):
            yield f"{path.name} cell {number}", code
    else:
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")


def test_every_marked_string_is_a_literal_with_named_placeholders() -> None:
    """What extraction reads: one literal, never an f-string or a text formatted before it is translated
    (``_(CONSTANT)`` of a constant marked ``N_("...")`` is fine); named placeholders only."""
    bad = []
    for path in catalogs.sources():
        for where, code in _code_of(path):
            for call in _marker_calls(ast.parse(code)):
                keyword = call.func.id  # type: ignore[attr-defined]
                texts = call.args[:2] if keyword == "ngettext" else call.args[:1]
                for arg in texts:
                    literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                    if isinstance(arg, ast.JoinedStr | ast.BinOp | ast.Call) or (keyword == "N_" and not literal):
                        bad.append(f"{where}:{call.lineno}: {keyword}() of {type(arg).__name__}, not one literal")
                    elif literal and ("{}" in arg.value or "%s" in arg.value):  # type: ignore[attr-defined]
                        bad.append(f"{where}:{call.lineno}: positional placeholder in {arg.value[:40]!r}")  # type: ignore[attr-defined]
    assert bad == []


def test_notebooks_translate_with_tr_not_the_underscore() -> None:
    """IPython keeps the last result in ``_``: a notebook calling ``_("...")`` would call a number."""
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for where, code in _code_of(path):
            calls = [c for c in ast.walk(ast.parse(code)) if isinstance(c, ast.Call)]
            assert not [c for c in calls if isinstance(c.func, ast.Name) and c.func.id == "_"], where


def test_every_lesson_step_and_question_is_marked_for_translation() -> None:
    """A step's title and text, a question's prompt and explanation: ``tr(...)`` calls, never bare text."""
    unmarked = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for where, code in _code_of(path):
            for node in ast.walk(ast.parse(code)):
                if not isinstance(node, ast.Call):
                    continue
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                places = {"step": (0, 1), "Question": (0, 3)}.get(name, ())
                for index in places:
                    if index < len(node.args) and isinstance(node.args[index], ast.Constant):
                        unmarked.append(f"{where}:{node.lineno}: {name} argument {index}")
    assert unmarked == []


def test_a_page_address_chooses_the_language() -> None:
    assert i18n.language_from_query("lang=hu") == "hu"
    assert i18n.language_from_query("?x=1&lang=DE") == "de"
    assert i18n.language_from_query("lang=fr") is None


def test_the_course_speaks_hungarian_through_the_compiled_catalog(hungarian: None) -> None:
    translations = gettext.translation(i18n.DOMAIN, i18n.LOCALE_DIR, languages=["hu"])
    assert i18n._("Continue") == translations.gettext("Continue") != "Continue"
    assert names.term("trump", i18n.language()) == "adu"
    assert page_url(PAGES[1], static=False) == "01_pack.ipynb?lang=hu"
    assert page_url(PAGES[1], static=True) == "01_pack.hu.html"


def test_english_needs_no_catalog() -> None:
    assert i18n.language() == "en"
    assert i18n._("Continue") == "Continue"
    assert i18n.ngettext("{n} point", "{n} points", 2) == "{n} points"


def test_a_fourth_language_starts_with_every_message_to_translate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What docs/translators tells a translator: ``extract --add xx`` makes a catalog with every message, empty."""
    hungarian = len(_catalog("hu"))
    monkeypatch.setattr(catalogs, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(catalogs, "TEMPLATE", tmp_path / "tartli.pot")
    monkeypatch.setattr(catalogs, "TRANSLATED", ())
    monkeypatch.setattr(catalogs, "PARTS_DIR", tmp_path / "no-parts")
    catalogs.extract_all(["fr"])
    with (tmp_path / "fr" / "LC_MESSAGES" / "tartli.po").open("rb") as file:
        french = read_po(file, locale="fr")
    assert len(french) == hungarian
    assert len(catalogs.problems(french, "fr")) == len(french)


def test_the_static_edition_makes_a_copy_of_each_page_per_language() -> None:
    from tartli.site import language_copy

    notebook = json.loads((ROOT / "notebooks" / "03_deal.ipynb").read_text(encoding="utf-8"))
    copy_hu = language_copy(notebook, "hu")
    assert copy_hu["cells"][1:] == notebook["cells"]
    namespace: dict[str, object] = {}
    try:
        exec(copy_hu["cells"][0]["source"], namespace)
        assert i18n.language() == "hu"
    finally:
        i18n.set_language("en")


LESSONS = [p for p in PAGES if re.match(r"\d\d_", p.file) and not p.file.startswith("00_")]


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.file)
def test_every_step_of_every_lesson_is_in_the_language(page: Page, lang: str) -> None:
    """Run in Hungarian or German, each step's title, text, question and recap is in that language
    (the names of the cards in their cases: the lesson's code formats them in the page's language), and
    every question still has its right answer among its options (the answer is computed in the page's
    language)."""
    from tartli.widgets.steps import Question
    from tests.test_steps import run_lesson

    english = run_lesson_in(page, "en", run_lesson)
    lesson = run_lesson_in(page, lang, run_lesson)
    assert len(lesson.steps) == len(english.steps)
    assert lesson.goals != english.goals
    for number, (step, original) in enumerate(zip(lesson.steps, english.steps, strict=True), 1):
        assert step.text != original.text, f"{page.file} step {number} is not translated"
        text = " ".join([step.title, step.text, *lesson.goals])
        if isinstance(step.task, Question):
            text += " " + " ".join([step.task.prompt, *step.task.options])
        assert english_share(text)[0] <= MOST_ENGLISH, f"{page.file} step {number}: {text[:200]}"


def run_lesson_in(page: Page, lang: str, run: Any) -> Any:
    return in_language(lang, run, page)


# ---------------------------------------------------------------- the glossaries and the spelling rules of the check
@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_each_language_has_a_glossary_the_check_reads(lang: str) -> None:
    terms = catalogs.glossary(lang)
    assert len(terms) > 20
    refused = [p for t in terms for p in t.refused]
    assert refused and all(re.compile(p) for p in refused)
    wanted = {
        "hu": {"parti", "buli", "rang", "mentett játék", "nyertes"},
        "de": {"die Partie", "das Spiel", "die Runde"},
    }
    uses = {t.use for t in terms}
    assert all(any(u.startswith(w) for u in uses) for w in wanted[lang])


def _broken(lang: str, changes: dict[str, str]) -> list[str]:
    """The check's new lines after ``changes`` ({msgid: translation}) are made to ``lang``'s catalog."""
    catalog = _catalog(lang)
    broken = copy.deepcopy(catalog)
    for msgid, string in changes.items():
        broken[msgid].string = string
    before = set(catalogs.problems(catalog, lang))
    return [line for line in catalogs.problems(broken, lang) if line not in before]


def test_the_check_refuses_a_word_the_glossary_replaces() -> None:
    found = _broken("hu", {"Buli and the match": "Buli és mérkőzés", "Record loaded.": "Játszmafájl betöltve."})
    assert len(found) == 2 and all("glossary" in line for line in found)
    assert "'parti'" in found[0] and "'mentett játék'" in found[1]
    assert _broken("de", {"Deal #:": "Verteilung Nr.:"})[0].startswith("de: glossary: 'Verteilung'")


def test_the_check_refuses_a_capital_béla_an_engine_word_a_card_code_and_a_numbered_player() -> None:
    found = _broken(
        "hu",
        {
            "The only move.": "Most a Béla jön.",
            "Not your turn.": "Nem te jössz: 'declare bela'.",
            "Course map": "Tananyag (UA, 9H)",
            "Practice": "Játékos 0 gyakorol",
            "Variants": "Változatok: az Ulti és a Tartli",
        },
    )
    said = " ".join(found)
    assert "capital inside a sentence (Béla)" in said
    assert "engine move word (bela, declare)" in said
    assert "English card codes in a Hungarian sentence (UA, 9H)" in said
    assert "a number for a person" in said
    assert "capital inside a sentence (Ulti, Tartli)" in said
    assert _broken("hu", {"Béla (40)": "Béla (40)", "Béla timing": "Béla. A tartli Béla-ideje"})[0].endswith(
        "(tartli/rulebook.py:82)"
    )  # a sentence may start with Béla; a second one inside it is refused


def test_a_translation_holds_exactly_the_fields_of_its_msgid_and_no_attribute_field() -> None:
    """GNU msgfmt -c wants the msgid's fields in every translation, no more and no fewer: a form of a name is
    asked for by the msgid's role field (``{card_the}``), never chosen by the translation (``{card.acc}``)."""
    message = "you do not hold the {card_the}"
    assert _broken("de", {message: "{card_the} fehlt dir"}) == []
    changed = _broken("de", {message: "du hast {card_acc} nicht"})
    assert changed and "placeholders ['card_acc'] != ['card_the']" in changed[0]
    attribute = " ".join(_broken("hu", {message: "nincs nálad {card.the}"}))
    assert "placeholders" in attribute and "a field GNU msgfmt refuses (card.the" in attribute
    assert _broken("hu", {"Tricks won: {cards}": "Elvitt ütések"})[0].split(":")[1].strip().startswith("placeholders")


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_gnu_msgfmt_finds_no_fatal_error_in_the_catalog(lang: str, tmp_path: Path) -> None:
    """What Poedit and Weblate check (``msgfmt -c``): format flags that match the fields, the same fields."""
    found = catalogs.msgfmt_problems(catalogs.po_path(lang))
    if found is None:
        pytest.skip("GNU msgfmt is not installed (Debian's gettext package)")
    assert found == []
    broken = _catalog(lang)
    broken["you do not hold the {card_the}"].string = "{card.the}"  # what the catalogs held before
    broken["Accuracy {accuracy}% over {n} decisions: {counts}."].flags.add("python-format")
    with (tmp_path / "broken.po").open("wb") as file:
        write_po(file, broken, width=100)
    said = " ".join(catalogs.msgfmt_problems(tmp_path / "broken.po") or [])
    assert "argument 'card.the' doesn't exist in 'msgid'" in said  # the attribute field is not the msgid's
    assert "is not a valid Python format string" in said  # a stray python-format flag before a "%"


def test_hungarian_has_two_plural_forms_where_a_list_follows() -> None:
    catalog = _catalog("hu")
    assert catalog.num_plurals == 2
    refused = catalog[("{cards} may not be played: {reason}.", "{cards} may not be played: {reason}.")]
    assert refused.string[0].endswith("nem játszható ki: {reason}.")
    assert refused.string[1].endswith("nem játszhatók ki: {reason}.")


def test_apply_fills_and_overrides_translations_from_a_json_map(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locale = tmp_path / "locale"
    for lang in catalogs.TRANSLATED:
        (locale / lang / "LC_MESSAGES").mkdir(parents=True)
        (locale / lang / "LC_MESSAGES" / "tartli.po").write_bytes(catalogs.po_path(lang).read_bytes())
    monkeypatch.setattr(catalogs, "LOCALE_DIR", locale)
    table = {
        "Continue": "Weiter so",
        "{n} slip\u0000{n} slips": ["{n} Fehler", "{n} Fehlerchen"],
        "not a message of the course": "nichts",
    }
    source = tmp_path / "de.json"
    source.write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
    assert catalogs.main(["apply", str(source), "de"]) == 0
    german = read_po(catalogs.po_path("de").open("rb"), locale="de")
    assert german["Continue"].string == "Weiter so"
    assert german[("{n} slip", "{n} slips")].string == ("{n} Fehler", "{n} Fehlerchen")
    assert catalogs.apply(source, "de") == 1  # the message the catalog does not hold


def test_no_marked_literal_inside_an_f_string() -> None:
    """Babel reads no call inside an f-string on this Python: ``f"⚑ {_('one of the costliest')}"`` never
    reached the catalogs. Translate it before, into a name (``costliest = _("...")``)."""
    hidden = []
    for path in catalogs.sources():
        for where, code in _code_of(path):
            for node in ast.walk(ast.parse(code)):
                if isinstance(node, ast.JoinedStr):
                    for call in _marker_calls(node):
                        if call.args and isinstance(call.args[0], ast.Constant):
                            hidden.append(f"{where}:{call.lineno}: {ast.unparse(call)[:60]}")
    assert hidden == []
    sample = "x = f\"<b>{_('one of the costliest')}</b>\""
    assert [c for n in ast.walk(ast.parse(sample)) if isinstance(n, ast.JoinedStr) for c in _marker_calls(n)]


ENGINE_MODULES = ("tartli/game.py", "tartli/record.py", "tartli/match.py", "tartli/melds.py", "tartli/rules.py")
LEARNER_ERRORS = ("InvalidDealError", "RecordError", "IllegalMoveError", "TartliError")
"""The engine's errors a pupil reads (the lab shows a deal's, a record's and a move's refusal as it is)."""
RECORD_FIELDS = ("format", "rules", "dealer", "scores", "hands", "trump", "talon", "seed", "moves")
"""The record's JSON keys (RECORD.md): a refusal names the field in front, ``hands/trump/talon:``, the same in
every language (it is no text to translate)."""
_FIELD = "(?:" + "|".join(RECORD_FIELDS) + ")"
PREFIX = re.compile(rf"^\s*(?:[A-Z]\d+(?:/[A-Z]\d+)*:?|{_FIELD}(?:/{_FIELD})*:)\s*")
"""What a message of the engine says in front of its words: a rule ID ("S1/S6:") or a record's field."""


def _unmarked_texts(node: ast.AST) -> list[str]:
    """The literal text of an error's message that no ``_()`` translates (its prefix, :data:`PREFIX`, aside)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value for v in node.values if isinstance(v, ast.Constant))]
    if isinstance(node, ast.BinOp):
        return _unmarked_texts(node.left) + _unmarked_texts(node.right)
    return []


def test_the_engine_messages_a_pupil_reads_are_marked() -> None:
    """ "D1: player 0's hand has 11 cards", "dealer: must be 0 or 1 (D2)" and "V1: only the Austrian rules ..."
    were English in a Hungarian lab: a learner's error of the engine says its words through ``_()``."""
    found = set()
    for name in ENGINE_MODULES:
        for node in ast.walk(ast.parse((ROOT / name).read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            if getattr(node.exc.func, "id", "") not in LEARNER_ERRORS:
                continue
            for arg in node.exc.args:
                for text in _unmarked_texts(arg):
                    words = PREFIX.sub("", text)
                    if len(re.findall(r"[a-z]{2,}", words)) >= 3:
                        found.add((name, text))
    assert sorted(found) == []
    said = [PREFIX.sub("", t) for t in ("hands/trump/talon: ", "S1/S6: ", "scores: must be two whole numbers")]
    assert said == ["", "", "must be two whole numbers"]  # the lint still reads what follows a prefix


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", ["It: it", "It: it", "it"]),
        ("de", ["Es: es", "Er: ihn", "sie"]),
        ("hu", ["Az: azt", "Az: azt", "azokat"]),
    ],
)
def test_a_pronoun_role_stands_for_the_name_in_its_gender(lang: str, said: list[str]) -> None:
    """Issue 40: a German pronoun for a card takes the card's gender (das Herz-Daus: es; der Laub-König: er, ihn);
    English says "it", Hungarian "az"/"azt"; a list is plural (German "sie")."""
    cards = [names.card_name(0, 2, lang), names.card_name(1, 1, lang)]

    def say() -> list[str]:
        got = [i18n.Message("{card_It}: {card_itacc}").format(card=card) for card in cards]
        both = i18n.joined([i18n.the(c) for c in cards], i18n._("{cards} or {card}"), "cards", "card")
        return [*got, i18n.Message("{cards_itacc}").format(cards=both)]

    assert in_language(lang, say) == said
