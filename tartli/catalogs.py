"""Keeping the translation catalogs: extract the marked strings, compile, check (a maintainer's tool).

::

    python -m tartli.catalogs extract   # scan tartli/ and notebooks/; write tartli.pot, update every .po
    python -m tartli.catalogs compile   # every .po -> .mo (what tartli.i18n reads at run time)
    python -m tartli.catalogs check     # exit 1 on an untranslated or fuzzy entry, a placeholder
                                        # that differs, a word the glossary refuses, or a stale .mo
    python -m tartli.catalogs apply FILE LANG   # fill or override translations from a JSON map
    python -m tartli.catalogs sweep LANG [--play HANDS]   # read generated sentences for grammar faults

``apply`` takes a JSON map ``{"<msgid>": "<msgstr>"}`` (a plural entry: the key
``"<msgid>\u0000<msgid_plural>"`` and a list of forms) and writes those translations into
``LANG``'s .po, fuzzy flags cleared; messages the catalog does not hold are listed and left out.
Translations kept as such maps outlive a merge: re-apply them, then ``compile``.

This module uses Babel (a test dependency); the course itself reads the compiled catalogs with
the standard library only (:mod:`tartli.i18n`). Strings are marked with ``_()``, ``N_()`` and
``ngettext()`` in the package and with ``tr()`` in the notebooks (a notebook's code cells are read
as one Python file; a message's place is ``notebooks/NAME.ipynb:cell N``).

What must be translated: everything, in Hungarian and in German: no page falls back to English.

What else the check refuses (:func:`problems`), from the issue that asked for a course a teacher
signs: a word the language's glossary (``tartli/locale/LANG/GLOSSARY.md``) replaces with another, an
engine move word (``declare``, ``bela``, ``out``) in a sentence, a number for a person ("Játékos 0"),
and in Hungarian a capital Béla or game name after a sentence's first word, a card written in the
record's English code (``UA``, ``9H``) or the English rank letters ``A K O U`` outside the lab's
record help. A message may ask for a form of a name by a role (``{card_acc}``, :data:`tartli.i18n.ROLES`);
a role the language has no form for is refused. A translation holds exactly the fields of its msgid,
as GNU ``msgfmt -c`` demands of a python-brace-format message (and :func:`msgfmt_problems` runs it).

A fourth language: add its code to ``tartli.names.LANGUAGES`` (with its card names), then
``python -m tartli.catalogs extract --add xx`` makes ``tartli/locale/xx/LC_MESSAGES/tartli.po``
with every message to translate; translate it in Poedit or Weblate, ``compile``, ``check``.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from tartli import names
from tartli.i18n import DOMAIN, LOCALE_DIR, ROLES, fields, forms_asked, language, role_of
from tartli.names import FORMS, LANGUAGES, Named, bela_title, card_name, named, sequence_title, set_title

ROOT = LOCALE_DIR.parent.parent
"""The clone's top folder (this tool works on a clone, not on an installed package)."""
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
KEYWORDS: dict[str, Any] = {"_": None, "tr": None, "N_": None, "ngettext": (1, 2)}
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
PARTS_DIR = ROOT / ".i18n-parts"
"""Work in progress: translations of some files kept apart (``PART.LANG.po``) until ``extract`` takes them in."""

GLOSSARY = "GLOSSARY.md"
"""Each language's glossary, ``tartli/locale/LANG/GLOSSARY.md``: one word for one thing."""


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


def sources() -> list[Path]:
    """Every file whose marked strings go into the catalogs."""
    files = sorted((ROOT / "tartli").rglob("*.py")) + sorted((ROOT / "notebooks").glob("*.ipynb"))
    return [f for f in files if f.name != "catalogs.py"]


def _notebook_code(path: Path) -> Iterator[tuple[int, str]]:
    for number, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"], start=1):
        if cell["cell_type"] == "code":
            source = cell["source"]
            yield number, source if isinstance(source, str) else "".join(source)


def _messages_of(path: Path) -> Iterator[tuple[str, int, str | tuple[str, ...], list[str]]]:
    """(place, line, message, comments) for every marked string in ``path`` (a notebook's place: ``file#cellN``)."""
    where = path.relative_to(ROOT).as_posix()
    options = {"encoding": "utf-8"}
    if path.suffix == ".ipynb":
        for number, code in _notebook_code(path):
            for line, message, comments, _context in extract(
                "python", io.BytesIO(code.encode("utf-8")), KEYWORDS, ["Translators:"], options
            ):
                yield f"{where}#cell{number}", line, message, comments
    else:
        with path.open("rb") as file:
            for line, message, comments, _context in extract("python", file, KEYWORDS, ["Translators:"], options):
                yield where, line, message, comments


def template_of(paths: Iterable[Path]) -> Catalog:
    """A catalog template of the marked strings in ``paths``."""
    template = Catalog(domain=DOMAIN, project="Tartli", msgid_bugs_address="", charset="utf-8")
    for path in paths:
        for where, line, message, comments in _messages_of(path):
            if isinstance(message, tuple) and len(message) == 1:
                message = message[0]
            if not message or (isinstance(message, tuple) and not all(message)):
                continue
            template.add(message, locations=[(where, line)], auto_comments=comments)
    return template


def _read(path: Path, lang: str) -> Catalog:
    if path.exists():
        with path.open("rb") as file:
            return read_po(file, locale=lang)
    catalog = Catalog(locale=lang, domain=DOMAIN, project="Tartli", charset="utf-8")
    return catalog


def _brace_flags_only(catalog: Catalog) -> None:
    """Babel flags a message ``python-format`` when it holds a ``%`` ("{won}% of them"); the course formats with
    ``str.format`` only, and GNU msgfmt would check those texts as printf formats: the flag goes."""
    for message in catalog:
        message.flags.discard("python-format")


def _write_po(catalog: Catalog, path: Path, lang: str | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    _brace_flags_only(catalog)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, ignore_obsolete=True, sort_output=False)
    _atomic_write(path, buffer.getvalue())


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    os.chmod(name, 0o644)
    with os.fdopen(handle, "wb") as file:
        file.write(data)
    os.replace(name, path)


def _parts(lang: str) -> list[Catalog]:
    return [_read(p, lang) for p in sorted(PARTS_DIR.glob(f"*.{lang}.po"))] if PARTS_DIR.is_dir() else []


def _take_translations(catalog: Catalog, others: Iterable[Catalog]) -> None:
    for other in others:
        for message in other:
            if not message.id or not _done(message):
                continue
            mine = catalog.get(message.id)
            if mine is not None:
                mine.string = message.string
                mine.flags.discard("fuzzy")


def _ids(message: Message) -> tuple[str, ...]:
    """The message's id, and its plural id if it has one."""
    return tuple(str(i) for i in message.id) if isinstance(message.id, tuple | list) else (str(message.id),)


def _strings(message: Message) -> tuple[str, ...]:
    """The message's translation (one string, or one per plural form); "" where missing."""
    value = message.string
    return tuple(str(v or "") for v in value) if isinstance(value, tuple | list) else (str(value or ""),)


def _done(message: Message) -> bool:
    strings = _strings(message)
    return bool(strings) and all(strings) and "fuzzy" not in message.flags


def update(paths: Iterable[Path], target: Path, lang: str) -> Catalog:
    """Make ``target`` hold exactly the marked strings of ``paths``, keeping its translations."""
    template = template_of(paths)
    catalog = _read(target, lang)
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    return catalog


def extract_all(add: Iterable[str] = ()) -> None:
    template = template_of(sources())
    _brace_flags_only(template)
    buffer = io.BytesIO()
    write_po(buffer, template, width=100, sort_output=False)
    _atomic_write(TEMPLATE, buffer.getvalue())
    for lang in (*TRANSLATED, *add):
        catalog = _read(po_path(lang), lang)
        # (a copy: Babel's update shares the template's message objects with the catalog it updates)
        catalog.update(copy.deepcopy(template), no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        _take_translations(catalog, _parts(lang))
        _write_po(catalog, po_path(lang), lang)
        print(f"{_shown(po_path(lang))}: {len(catalog)} messages")


def fragment(part: str, files: list[str]) -> None:
    """Work apart: ``.i18n-parts/PART.LANG.po`` for the marked strings of ``files`` only."""
    paths = [ROOT / f for f in files]
    for lang in TRANSLATED:
        target = PARTS_DIR / f"{part}.{lang}.po"
        catalog = update(paths, target, lang)
        _take_translations(catalog, [_read(po_path(lang), lang)] if po_path(lang).exists() else [])
        _write_po(catalog, target, lang)
        missing = sum(1 for m in catalog if m.id and not _done(m))
        print(f"{_shown(target)}: {len(catalog)} messages, {missing} to translate")


def todo(part: str, lang: str) -> None:
    """Print the part's untranslated messages as JSON: {msgid: ""} or {msgid: ["", ""]} for plurals."""
    catalog = _read(PARTS_DIR / f"{part}.{lang}.po", lang)
    out: dict[str, object] = {}
    for message in catalog:
        if message.id and not _done(message):
            ids = _ids(message)
            out[ids[0]] = ["", ""] if len(ids) > 1 else ""
    print(json.dumps(out, ensure_ascii=False, indent=1))


def fill(part: str, lang: str, source: Path) -> None:
    """Set translations of the part from a JSON file {msgid: msgstr} (plurals: {msgid: [one, other]})."""
    target = PARTS_DIR / f"{part}.{lang}.po"
    catalog = _read(target, lang)
    by_first = {_ids(m)[0]: m for m in catalog if m.id}
    unknown = []
    for key, value in json.loads(source.read_text(encoding="utf-8")).items():
        message = by_first.get(key)
        if message is None:
            unknown.append(key)
            continue
        message.string = tuple(value) if isinstance(value, list) else value
        message.flags.discard("fuzzy")
    _write_po(catalog, target, lang)
    for key in unknown:
        print(f"not in {target.name}: {key[:70]!r}")
    missing = sum(1 for m in catalog if m.id and not _done(m))
    print(f"{_shown(target)}: {len(catalog)} messages, {missing} to translate")


def apply(source: Path, lang: str) -> int:
    """Fill or override ``lang``'s translations from a JSON map ``{msgid: msgstr}`` (a plural entry:
    ``"msgid\\u0000msgid_plural": [forms]``); returns how many messages the catalog did not hold."""
    table = json.loads(source.read_text(encoding="utf-8"))
    if not isinstance(table, dict):
        raise SystemExit(f"{source}: a JSON object {{msgid: msgstr}} is expected")
    catalog = _read(po_path(lang), lang)
    by_key = {"\u0000".join(_ids(m)): m for m in catalog if m.id}
    unknown, changed = [], 0
    for key, value in table.items():
        message = by_key.get(key)
        plural = isinstance(value, list)
        if message is None or plural != (len(_ids(message)) > 1):
            unknown.append(key)
            continue
        string = tuple(str(v) for v in value) if plural else str(value)
        if message.string != string or "fuzzy" in message.flags:
            message.string = string
            message.flags.discard("fuzzy")
            changed += 1
    _write_po(catalog, po_path(lang), lang)
    for key in unknown:
        print(f"not in {lang}'s catalog: {key.split(chr(0))[0][:70]!r}")
    print(f"{_shown(po_path(lang))}: {changed} translation(s) set from {source}, {len(unknown)} not in the catalog")
    return len(unknown)


def compiled(lang: str, *, with_parts: bool = False) -> bytes:
    """The .mo that ``lang``'s .po compiles to (with the work-in-progress parts laid over it)."""
    catalog = _read(po_path(lang), lang)
    if with_parts:
        _lay_over(catalog, _parts(lang))
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def messages_of(mo: bytes) -> dict[object, object]:
    """The messages a .mo holds, as the stdlib's gettext reads them, without the header's "Generated-By"
    line (which names the Babel version that wrote it: a newer Babel must not make a catalog stale)."""
    import gettext

    translations = gettext.GNUTranslations(io.BytesIO(mo))
    found: dict[object, object] = dict(translations._catalog)  # type: ignore[attr-defined]
    header = found.get("")
    if isinstance(header, str):
        found[""] = "".join(line for line in header.splitlines(True) if not line.startswith("Generated-By:"))
    return found


def is_current(lang: str) -> bool:
    """Is ``lang``'s committed .mo its .po compiled (the same messages)?"""
    path = mo_path(lang)
    return path.exists() and messages_of(path.read_bytes()) == messages_of(compiled(lang))


def compile_all(with_parts: bool = True) -> None:
    for lang in TRANSLATED:
        _atomic_write(mo_path(lang), compiled(lang, with_parts=with_parts and bool(_parts(lang))))


def _lay_over(catalog: Catalog, parts: list[Catalog]) -> None:
    for part in parts:
        for message in part:
            if message.id and _done(message):
                if message.id in catalog:
                    catalog[message.id].string = message.string
                    catalog[message.id].flags.discard("fuzzy")
                else:
                    catalog.add(message.id, message.string, locations=message.locations)


_ENGLISH = frozenset(
    ("the and you of to card cards trick tricks play your with for this that what which who").split()  # noqa: SIM905
)
_HUNGARIAN = frozenset(("és hogy lap lapot gép nem vagy egy").split())  # noqa: SIM905
SAME_IN_EVERY_LANGUAGE = frozenset({"The Penguin Book of Card Games"})
"""Texts whose translation is the English itself (a book's title)."""


def _words(text: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[^\W\d_]+", re.sub(r"<[^>]*>|\{[^}]*\}", " ", text))]


def wrong_language(msgid: str, string: str, lang: str) -> str | None:
    """Why ``string`` does not look like ``lang`` (the English left in, or Hungarian in German), or None."""
    found = _words(string)
    if msgid in SAME_IN_EVERY_LANGUAGE:
        return None
    if len(found) >= 3 and string.strip() == msgid.strip() and any(w in _ENGLISH for w in found):
        return "the English text itself"  # (a name or a book's title is the same in every language)
    if len(found) >= 5 and sum(w in _ENGLISH for w in found) > len(found) / 5:
        return "English words"
    quoted = set(_words(msgid))  # Hungarian words the English quotes too (felső, Felsős) are no slip
    own = [w for w in found if w not in quoted]
    if lang != "hu" and (sum(w.count("ő") + w.count("ű") for w in own) >= 2 or sum(w in _HUNGARIAN for w in own) >= 2):
        return "Hungarian"
    return None


@dataclass(frozen=True)
class Term:
    """One row of a glossary: the word to use for a thing, and the words the check refuses for it."""

    english: str
    use: str
    refused: tuple[str, ...]
    """Regular expressions (searched without regard to case unless they say ``(?-i:...)``)."""


def glossary_path(lang: str) -> Path:
    return LOCALE_DIR / lang / GLOSSARY


def glossary(lang: str, path: Path | None = None) -> list[Term]:
    """The terms of ``lang``'s glossary: the rows of its Markdown table ``| English | use | not | note |``,
    where the third column lists the refused words as code spans (`` `mérkőzés` ``)."""
    path = path or glossary_path(lang)
    if not path.exists():
        return []
    terms = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if not line.startswith("|") or len(cells) < 3 or set(cells[0]) <= set("-: "):
            continue
        refused = tuple(re.findall(r"`([^`]+)`", cells[2]))
        if cells[0].lower() == "english":
            continue
        terms.append(Term(cells[0], cells[1], refused))
    return terms


ENGINE_WORDS = re.compile(r"(?<![\w/-])(declare|bela|out)(?![\w/-])", re.IGNORECASE)
"""The engine's move words ('declare bela', 'out'): a learner never types them, so no translation says them."""
NUMBERED_PERSON = re.compile(r"(?<!\w)(játékos|spieler|player)\s*:?\s*[01](?!\d)", re.IGNORECASE)
"""A person called by a number ("Játékos 0", "(játékos: 0)")."""
HU_CAPITALS = re.compile(
    r"(?<!\w)(Bél[aá]|Tartli|Tartl|Felsős|Alsós|Ulti|Talonmáriás|Talonmarias|Kláber|Jass|Tarokk|Römi|Whist|Kanaszta|Piké)"
)
"""Words Hungarian writes in lower case: béla, and the names of card games (tartli, ulti, kláber ...)."""
TITLES = ("Tartl und Zensa", "Ulti, Tarokk és néhány kis játék", "Perlen Reihe")
"""Titles whose capitals stand (books): taken out before :data:`HU_CAPITALS` is looked for."""
HU_CARD_CODE = re.compile(r"(?<![\w/])([AKOUX987][ALHB])(?!\w)|(?<!\w)(A K O U)(?!\w)")
"""A card in the record's English code (UA, 9H), or the English rank letters, in a Hungarian sentence."""
RECORD_HELP = ("notebooks/13_scenario_lab.ipynb",)
"""Where the record's codes may be explained in Hungarian (the lab saves and opens records)."""


def _sentence_start(before: str) -> bool:
    """Does a word that follows ``before`` (the text before it on its line) start a sentence?"""
    rest = before.rstrip(" *„“\"'(#-_>")
    return not rest or rest[-1] in ".!?"


def hu_capitals(text: str) -> list[str]:
    """The words of :data:`HU_CAPITALS` that ``text`` writes with a capital inside a sentence.

    >>> hu_capitals("Bemondod a Bélát. Béla: az adu király. A Tartli szabályai; Tartl und Zensa")
    ['Bélát', 'Tartli']
    """
    for title in TITLES:
        text = text.replace(title, " " * len(title))
    text = re.sub(r"<[^>]*>", lambda tag: " " * len(tag.group(0)), text)  # <b>Tartli ...: a sentence's start
    found = []
    for match in HU_CAPITALS.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        if not _sentence_start(text[line_start : match.start()]):
            word = re.match(r"\w+", text[match.start() :])
            found.append(word.group(0) if word else match.group(0))
    return found


def _glossary_words(text: str, terms: list[Term]) -> list[str]:
    said = []
    for term in terms:
        for pattern in term.refused:
            hit = re.search(pattern, text, re.IGNORECASE)
            if hit:
                said.append(f"{hit.group(0)!r} (the glossary says {term.use!r} for {term.english})")
    return said


def _style(message: Message, string: str, lang: str, terms: list[Term]) -> list[str]:
    """What the glossary and the language's spelling refuse in one translation."""
    found = [f"glossary: {word}" for word in _glossary_words(string, terms)]
    words = ENGINE_WORDS.findall(string)
    if words:
        found.append(f"an engine move word ({', '.join(sorted(set(words)))})")
    if NUMBERED_PERSON.search(string):
        found.append("a number for a person")
    attributes = sorted(f for f in fields(string) if "." in f or "[" in f)
    if attributes:
        found.append(f"a field GNU msgfmt refuses ({', '.join(attributes)}: write a role, {{card_acc}})")
    known = set(FORMS.get(lang, ())) | set(ROLES.get(lang, {}))
    unknown = {f for f in forms_asked(string) if f[:1].lower() + f[1:] not in known}
    if unknown:
        found.append(f"a form {lang} does not have ({', '.join(sorted(unknown))})")
    if lang == "hu":
        capitals = hu_capitals(string)
        if capitals:
            found.append(f"a capital inside a sentence ({', '.join(capitals)})")
        places = {place.split("#")[0] for place, _line in message.locations}
        if not places & set(RECORD_HELP):
            codes = [m.group(0) for m in HU_CARD_CODE.finditer(string)]
            if codes:
                found.append(f"English card codes in a Hungarian sentence ({', '.join(codes)})")
    return found


def problems(catalog: Catalog, lang: str, terms: list[Term] | None = None) -> list[str]:
    """What is wrong with ``catalog`` (one line each): untranslated, fuzzy, placeholders that differ, a text
    in the wrong language, and what the glossary and the language's spelling refuse (:func:`_style`)."""
    found = []
    terms = glossary(lang) if terms is None else terms
    for message in catalog:
        if not message.id:
            continue
        ids, strings = _ids(message), _strings(message)
        where = ", ".join(f"{w}:{line}" for w, line in message.locations[:2])
        short = ids[0][:60].replace("\n", " ")
        if "fuzzy" in message.flags:
            found.append(f"{lang}: fuzzy: {short!r} ({where})")
            continue
        if not all(strings):
            found.append(f"{lang}: untranslated: {short!r} ({where})")
            continue
        odd = wrong_language(ids[0], strings[0], lang)
        if odd is not None:
            found.append(f"{lang}: translation is {odd}: {short!r} ({where})")
        wanted: set[str] = set().union(*(fields(i) for i in ids))
        for string in strings:
            got = fields(string)
            if got != wanted and not (len(ids) > 1 and string is not strings[-1] and got == wanted - {"n"}):
                found.append(f"{lang}: placeholders {sorted(got)} != {sorted(wanted)}: {short!r} ({where})")
            for said in _style(message, string, lang, terms):
                found.append(f"{lang}: {said}: {short!r} ({where})")
    return found


def msgfmt_problems(path: Path) -> list[str] | None:
    """What GNU ``msgfmt -c`` (what Poedit and Weblate run) finds fatal in the catalog at ``path``, one line
    each; None where msgfmt is not installed (Debian's gettext package brings it)."""
    import shutil
    import subprocess

    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        return None
    done = subprocess.run(
        [msgfmt, "-c", "-o", os.devnull, str(path)], capture_output=True, text=True, check=False, env={"LC_ALL": "C"}
    )
    said = [
        line
        for line in done.stderr.splitlines()
        if line.strip() and not re.search(r"warning:|found \d+ fatal error", line)
    ]
    return said if done.returncode else []


# ---------------------------------------------------------------- the sweep: every template rendered and read
NAME_FIELDS = frozenset(
    [
        "card",
        "cards",
        "lead",
        "led",
        "other",
        "second",
        "first",
        "yours",
        "theirs",
        "answer",
        "indicator",
        "meld",
        "melds",
        "old",
        "scored",
        "new",
        "longer",
        "said",
        "r",
        "rank",
        "over",
        "under",
        "last",
    ]
)
"""Fields that hold a card's, a rank's or a meld's name (besides any field that asks for a role: ``{card_acc}``)."""
NUMBER_FIELDS = frozenset(
    [
        "n",
        "points",
        "total",
        "left",
        "trick",
        "number",
        "next",
        "mine",
        "worst",
        "lost",
        "value",
        "count",
        "done",
        "won",
        "won2",
        "diff",
        "diff2",
        "accuracy",
        "score",
        "scores",
        "gap",
        "need",
    ]
)
"""Fields that hold a number."""
SWEEP_NUMBERS = (1, 2, 5, 10, 11, 20, 50, 51, 59, 66, 120)
"""The numbers the sweep says: in Hungarian "az 1", "az 5", "az 50"-"az 59" but "a 10", "a 120"."""
POINT_SUMS = (0, 2, 3, 5, 10, 11, 20, 50, 51, 59, 66, 120)
"""What a sum of card points or meld values can be: the cards are worth 20, 14, 11, 10, 4, 3, 2 or 0 (C3, C4) and
a meld 20 or more (M1-M3), so no sum is 1 ("1 Augen" is no sentence the course can say)."""
TRICK_NUMBERS = tuple(range(1, 17))
"""A trick's (or a hand's) number: 1 to 16 (T2)."""
POINT_SUM_FIELDS = frozenset(
    ["points", "total", "mine", "theirs", "yours", "score", "scores", "value", "worst", "fewer", "meld_points"]
)
"""Fields that hold a sum of card points or meld values (:data:`POINT_SUMS`). A difference of two sums (a loss,
a gain, a margin) can be 1: it has a field of its own (``lost``, ``gain``, ``diff``) and is said with ngettext."""
MANY = tuple(v for v in SWEEP_NUMBERS if v != 1)
"""A count the rules fix above 1."""
MANY_FIELDS = frozenset(["down", "tricks", "cards", "length"])
"""Fields that hold a count the rules fix above 1 (:data:`MANY`): the talon's cards face down (D1), the tricks of
phase 1 (T2), the pack's cards (C1), a sequence's length (M1: 3 to 8)."""
TRICK_FIELDS = frozenset(["trick", "number", "first", "last", "next"])
"""Fields that hold a trick's or a hand's number (:data:`TRICK_NUMBERS`)."""
COUNT_BEFORE = re.compile(r"\{(\w+)\} (?:cards|tricks|card points|points|deals)\b")
COUNT_AFTER = re.compile(r"\btricks? (?:\{\w+\} to )?\{(\w+)\}")
SUM_BEFORE = re.compile(r"\{(\w+)\} (?:card )?points\b")
"""A field the English says is a count or a trick's number ("the {cards} cards", "up to trick {last}") holds a
number, whatever its name."""


def number_domain(field: str) -> tuple[int, ...]:
    """The numbers the sweep tries in ``field``: every one it can hold of :data:`SWEEP_NUMBERS` (a sum of points never
    1, a trick's number 1 to 16), 1 kept wherever 1 can be said."""
    if field in POINT_SUM_FIELDS:
        return POINT_SUMS
    if field in TRICK_FIELDS:
        return TRICK_NUMBERS
    if field in MANY_FIELDS:
        return MANY
    return SWEEP_NUMBERS


def _base(field: str) -> str:
    """The name's field of a role's (``card`` of ``card_acc``)."""
    asked = role_of(field)
    return asked[0] if asked else field


def _domain_value(domain: tuple[int, ...], number: int) -> int:
    """``number`` if ``domain`` holds it, else the nearest number it holds (the larger on a tie)."""
    return number if number in domain else min(domain, key=lambda v: (abs(v - number), -v))


def sweep_names(lang: str) -> list[Named]:
    """Names of every kind a sentence may hold: German of each gender (das Herz-Daus, der Laub-König, die
    Eichel-Ober-Terz, die Béla); Hungarian vowel- and consonant-initial (a makk ász, az ász vannak)."""
    if lang == "de":
        return [card_name(0, 2, lang), card_name(1, 1, lang), sequence_title(2, 0, 3, lang), bela_title(lang)]
    if lang == "hu":
        return [card_name(0, 0, lang), set_title(0, lang), card_name(4, 3, lang), set_title(3, lang)]
    return [card_name(0, 2, lang)]


_ARTICLES = {"m": ("der", "den", "dem", "des"), "n": ("das", "dem", "des"), "f": ("die", "der")}
_DE_ARTICLE = re.compile(r"(?<![\w-])([Dd](?:er|en|em|es|ie|as))\s+([\w-]+)")
_DE_WORDS = frozenset(("der", "den", "dem", "des", "die", "das"))
_HU_VOWEL_START = "aáeéiíoóöőuúüű"


_DE_PRONOUNS: dict[str, str] = {**dict.fromkeys(("er", "ihn"), "m"), "ihm": "mn", "sie": "fp", "ihr": "fp"}
"""German personal pronouns that stand for a name, by the genders they can stand for (p: a plural). ("es" is left
out: it is also the sentence's empty subject, "es lohnt sich".)"""
_DE_POSSESSIVES = re.compile(r"(?i:(sein|ihr)(?:e|en|em|er|es)?)$")
"""A possessive ("seine", "Ihre"): read only as the first word after the sentence that ends with the name ("Der
Laub-König. Ihre Zeichen"), as elsewhere it may stand for a noun before the name ("die Trumpfkarte ist das
Herz-Daus, ihre Farbe") or for a person the message does not name ("seine Meldung": the computer's)."""
_DE_RELATIVES = {"der": "mf", "den": "m", "dem": "mn", "die": "fp", "das": "n", "dessen": "mn", "deren": "fp"}
"""A relative pronoun right after a name ("..., die schon gezählt hat"), by the genders it can stand for."""
DE_NOUN_GENDERS: dict[str, str] = {
    **dict.fromkeys(
        ("Stich", "Stichs", "Trumpf", "Computer", "Gegner", "Spieler", "Talon", "Vergleich", "Meldungsvergleich"), "m"
    ),
    **dict.fromkeys(("Spiel", "Blatt", "Programm"), "n"),
    **dict.fromkeys(("Karte", "Meldung", "Folge", "Farbe", "Runde", "Hand", "Ansage", "Trumpfkarte", "Partie"), "f"),
    **dict.fromkeys(("Karten", "Stiche", "Trümpfe", "Augen", "Punkte", "Meldungen", "Folgen", "Farben"), "p"),
}
"""The gender of the German nouns a pronoun in the catalog may stand for besides a name (p: a plural; a compound
by its last part); a noun not listed here may be the one a pronoun stands for, so no fault is read past it."""
_DE_WORD = re.compile(r"(?<![\w-])[\w…-]+")
_OPENERS = '.!?:;(„"'


def _de_pronoun_faults(text: str, names: Sequence[Named]) -> list[str]:
    """The pronouns of a German sentence that stand for none of the names and nouns before them ("Nimm das
    Herz-Daus mit ..., der billigsten Karte, die ihn sticht": no masculine noun before "ihn"), and a relative
    pronoun or a possessive right after a name whose gender is not the name's ("Der Laub-König. Ihre Zeichen")."""
    said = [
        (m.start(), m.end(), _de_gender(str(n)))
        for n in names
        for m in re.finditer(rf"(?<![\w-]){re.escape(str(n))}(?![\w-])", text)
    ]
    found = []
    for start, end, gender in said:
        relative = re.match(r", (\w+) ([a-zäöüß]\w*) ([a-zäöüß]\w*)", text[end:])
        if relative and relative.group(1) in _DE_RELATIVES and gender not in _DE_RELATIVES[relative.group(1)]:
            found.append(text[start : end + relative.end(1)])
        possessive = re.match(r"[.!?]\s+(\w+)", text[end:])
        if possessive and _DE_POSSESSIVES.match(possessive.group(1)):
            genders = "mn" if possessive.group(1).lower().startswith("sein") else "fp"
            if gender not in genders:
                found.append(text[start : end + possessive.end(1)])
    cover = text
    for start, end, _gender in said:  # (a name's words are read above, not as nouns of unknown gender)
        cover = cover[:start] + " " * (end - start) + cover[end:]
    for match in _DE_WORD.finditer(text):
        stands_for = _DE_PRONOUNS.get(match.group(0).lower())
        before = [(g, start) for start, _end, g in said if start < match.start()]
        if stands_for is None or not before:
            continue
        nouns = []
        for word in _DE_WORD.finditer(cover, 0, match.start()):
            token = word.group(0).rpartition("-")[2]
            opening = cover[: word.start()].rstrip()
            if token in DE_NOUN_GENDERS:
                nouns.append(DE_NOUN_GENDERS[token])
            elif token[:1].isupper() and not re.fullmatch(r"[A-Z]+\d*", token) and opening[-1:] not in _OPENERS:
                nouns.append("?")  # a noun of unknown gender: it may be the one the pronoun stands for
        if "?" in nouns or any(g in stands_for for g in nouns) or any(g in stands_for for g, _start in before):
            continue
        found.append(text[before[-1][1] : match.end()])
    return found


def _hu_number_vowel(digits: str) -> bool:
    """Is the number said with a vowel first (egy, öt, ötven, ezer)?"""
    return digits[0] == "5" or (digits[0] == "1" and len(digits) in (1, 4))


def sentence_faults(text: str, lang: str, names: Sequence[Named] = ()) -> list[tuple[str, str]]:
    """The faults the sweep reads in one rendered sentence: (kind, the words at fault).

    Kinds: ``de-article`` (an article whose gender is not the name's, "den Herz-Daus"), ``de-pronoun`` (a pronoun
    that stands for no name or noun before it: "das Herz-Daus ..., der billigsten Karte, die ihn sticht"; a name's
    pronoun is a role, ``{lead_itacc}``, :data:`tartli.names.PRONOUNS`), ``double-article``
    ("den das Herz-Daus", "a a makk ász"), ``plural-one`` ("1 Augen"), ``hu-article`` ("a ász", "a 5",
    "az 10"), ``hu-a(z)`` (the form's "A(z)" left to the reader), ``hu-card-code`` (an English card code).
    """
    found: list[tuple[str, str]] = []
    if lang == "de":
        genders = {str(n): _de_gender(str(n)) for n in names}
        for match in _DE_ARTICLE.finditer(text):
            article, word = match.group(1).lower(), match.group(2)
            rest = text[match.end(2) :].lstrip()
            relative = text[: match.start()].rstrip().endswith(",")  # ", die das Herz-Daus schlägt"
            if word.lower() in _DE_WORDS and not relative and any(rest.startswith(n) for n in genders):
                found.append(("double-article", f"{match.group(0)} {rest.split()[0]}"))  # (not "die der Computer")
            elif word in genders and article not in _ARTICLES[genders[word]]:
                found.append(("de-article", match.group(0)))
        for match in re.finditer(r"(?<![\d.,])1 (Augen|Punkte|Stiche|Karten|Runden|Meldungen)\b", text):
            found.append(("plural-one", match.group(0)))
        found += [("de-pronoun", words) for words in _de_pronoun_faults(text, names)]
    if lang == "hu":
        for match in re.finditer(r"(?<![\w-])([Aa]z?) (\S+)", text):
            article, word = match.group(1).lower(), match.group(2)
            digits = re.match(r"\d+", word)
            line_start = text.rfind("\n", 0, match.start()) + 1
            if match.group(1) == "A" and not _sentence_start(text[line_start : match.start()]):
                continue  # a capital A inside a sentence is the Under's letter ("F felső, A alsó"), no article
            if article == "a" and word.lower() in ("a", "az"):
                found.append(("double-article", match.group(0)))
            elif digits:
                if (article == "az") != _hu_number_vowel(digits.group(0)):
                    found.append(("hu-article", match.group(0)))
            elif re.fullmatch(r"[IVXLC]+\W*", word):
                continue  # a Roman numeral (the card's IX): said as the number, "a kilences"
            elif article == "a" and word[:1].lower() in _HU_VOWEL_START:
                found.append(("hu-article", match.group(0)))
            elif (
                article == "az"
                and word[:1].lower() not in _HU_VOWEL_START
                and any(text.startswith(str(n), match.start(2)) for n in names)
            ):
                found.append(("hu-article", match.group(0)))  # ("az" alone is also "that": only before a name)
        for match in re.finditer(r"\b[Aa]\(z\)", text):
            found.append(("hu-a(z)", match.group(0)))
        for match in HU_CARD_CODE.finditer(text):
            found.append(("hu-card-code", match.group(0)))
        for match in re.finditer(r"(?<![\d.,])1 (lappontok|pontok|ütések)\b", text):
            found.append(("plural-one", match.group(0)))
    return found


def _de_gender(name: str) -> str:
    return {"der": "m", "das": "n", "die": "f"}[named(name, "de").the.split()[0]]


def _values(template: str, name: Named, number: int, msgid: str = "", plural: bool = False) -> dict[str, object]:
    """The values the sweep fills ``template``'s fields with: ``name`` in a name's field, ``number`` (or the nearest
    number the field can hold, :func:`number_domain`) in a number's; in a plural message every number as it is (the
    count that chooses the form may be any of them)."""
    counted = {_base(f) for f in COUNT_BEFORE.findall(msgid) + COUNT_AFTER.findall(msgid)}
    summed = {_base(f) for f in SUM_BEFORE.findall(msgid)} - NUMBER_FIELDS
    values: dict[str, object] = {}
    for field in fields(template):
        base = field.split(".")[0].split("[")[0].split(":")[0].split("!")[0]
        asked = role_of(base)
        key = asked[0] if asked else base
        if key in TRICK_FIELDS or key in counted:
            said = _domain_value(POINT_SUMS if key in summed else number_domain(key), number)
            values[key] = names.number(said, language()) if asked else said
        elif asked or key in NAME_FIELDS:
            values[key] = name
        elif key in NUMBER_FIELDS or key in POINT_SUM_FIELDS or key in MANY_FIELDS:
            values[key] = number if plural else _domain_value(number_domain(key), number)
        else:
            values[key] = "…"
    return values


@dataclass(frozen=True)
class Sweep:
    """What :func:`sweep` rendered and read."""

    sentences: int
    """Distinct sentences rendered."""
    faults: list[tuple[str, str, str]]
    """(kind, the words at fault, the msgid) for each fault, once per msgid and words."""


def sweep(lang: str, catalog: Catalog | None = None, places: Iterable[str] = ()) -> Sweep:
    """Render every translated template of ``lang`` (those of ``places``, files or folders, if given) with names of
    each gender and initial (:func:`sweep_names`) and the numbers of :data:`SWEEP_NUMBERS`, and read each
    sentence for :func:`sentence_faults`."""
    import gettext

    from tartli.i18n import Message, set_language
    from tartli.i18n import language as current

    catalog = catalog if catalog is not None else _read(po_path(lang), lang)
    wanted = tuple(places)
    seen: set[str] = set()
    faults: dict[tuple[str, str, str], None] = {}
    before = current()
    set_language(lang)
    samples = sweep_names(lang)
    form_of_number = gettext.c2py(catalog.plural_expr)
    try:
        for message in catalog:
            if not message.id or not _done(message):
                continue
            if wanted and not any(p.startswith(w) for p, _line in message.locations for w in wanted):
                continue
            strings = _strings(message)
            record_help = bool({place.split("#")[0] for place, _line in message.locations} & set(RECORD_HELP))
            for index, template in enumerate(strings):
                for name in samples:
                    for number in SWEEP_NUMBERS if fields(template) else (0,):
                        if len(strings) > 1 and form_of_number(number) != index:
                            continue  # (a plural form is said only of the numbers that choose it)
                        try:
                            values = _values(template, name, number, _ids(message)[0], plural=len(strings) > 1)
                            text = Message(template).format(**values)
                        except (KeyError, IndexError, ValueError, AttributeError):
                            continue
                        if text in seen:
                            continue
                        seen.add(text)
                        for kind, words in sentence_faults(text, lang, samples):
                            if kind != "hu-card-code" or not record_help:
                                faults[(kind, words, _ids(message)[0])] = None
    finally:
        set_language(before)
    return Sweep(len(seen), list(faults))


PLAY_NAMES: tuple[tuple[str, str], ...] = (("You", "The computer"), ("Anna", "Bence"), ("The computer", "You"))
"""The players' names the play sweep seats at its tables: the learner's and the computer's (as the lessons and the
table page name them), and two pupils' (a duel, or the teacher watching)."""
SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")


def play_sweep(lang: str, hands: int = 100, seed: int = 1, deals: int = 8) -> Sweep:
    """Read what a learner reads in ``hands`` hands of play in ``lang``: one side follows the Hint, the other plays
    as the Medium computer, and the Hint's side is reviewed; every text of the table (both the wide and the narrow
    picture, its accessible names), every Hint and every review sentence is split into sentences and each distinct
    one read for :func:`sentence_faults`. The three rule sets and :data:`PLAY_NAMES` take turns. ``deals``: the
    Hint's and the review's deals of the hidden cards (fewer than the course's 48, for speed; the words are the
    same, only their numbers change)."""
    import html
    import random

    from tartli.bots.evaluate import Budget
    from tartli.bots.heuristic import HeuristicBot
    from tartli.bots.hint import hint
    from tartli.bots.review import review
    from tartli.game import Deal, HandState
    from tartli.i18n import set_language
    from tartli.render.table import table_svg
    from tartli.rules import RuleSet

    before = language()
    set_language(lang)
    samples = sweep_names(lang)
    seen: set[str] = set()
    faults: dict[tuple[str, str, str], None] = {}
    text_of_svg = re.compile(r">([^<>]+)</text>|aria-label=\"([^\"]+)\"")

    def read(text: str) -> None:
        for sentence in SENTENCE_END.split(text.strip()):
            if sentence and sentence not in seen:
                seen.add(sentence)
                for kind, words in sentence_faults(sentence, lang, samples):
                    faults[(kind, words, sentence)] = None

    rng = random.Random(seed)
    budget = Budget(deals=deals)
    try:
        for k in range(hands):
            rules = RuleSet.named(("hungarian", "pais", "austrian")[k % 3])
            state = HandState(Deal.shuffled(rng, dealer=k % 2), rules)
            follower, medium, seats = k % 2, HeuristicBot(), PLAY_NAMES[k % len(PLAY_NAMES)]
            while state.to_move is not None:
                view = state.view(state.to_move)
                picture = table_svg(view, language=lang, player_names=seats, narrow=bool(k % 2))  # type: ignore[arg-type]
                for plain, label in text_of_svg.findall(picture):
                    read(html.unescape(plain or label))
                if state.to_move == follower:
                    advice = hint(view, budget=budget)
                    read(advice.reason)
                    state.push(advice.move)
                else:
                    state.push(medium.choose(view))
            for decision in review(state, follower, budget=budget).decisions:
                read(decision.text)
    finally:
        set_language(before)
    return Sweep(len(seen), list(faults))


def check(part: str | None = None) -> int:
    lines = []
    for lang in TRANSLATED:
        path = PARTS_DIR / f"{part}.{lang}.po" if part else po_path(lang)
        lines += problems(_read(path, lang), lang)
        lines += [f"{lang}: msgfmt: {line}" for line in msgfmt_problems(path) or []]
        if part is None and not is_current(lang):
            lines.append(f"{lang}: {_shown(mo_path(lang))} is not its .po compiled: run compile")
    for line in lines:
        print(line)
    print(f"{len(lines)} problem(s)")
    return 1 if lines else 0


def _print_sweep(lang: str, hands: int, seed: int) -> int:
    import time

    began = time.perf_counter()
    found = play_sweep(lang, hands, seed) if hands > 0 else sweep(lang)
    what = f"{hands} hands of play (seed {seed})" if hands > 0 else "the templates"
    print(
        f"{lang}: {what}: {found.sentences} distinct sentences, {len(found.faults)} faults, "
        f"{time.perf_counter() - began:.0f} s"
    )
    for kind, words, where in found.faults:
        print(f"  {kind}: {words!r} in {where!r}")
    return 1 if found.faults else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tartli.catalogs", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("extract", help="collect the marked strings into tartli.pot and every .po")
    ex.add_argument("--add", action="append", default=[], help="start the catalog of a new language")
    sub.add_parser("compile", help="compile every .po to .mo")
    ck = sub.add_parser("check", help="report untranslated, fuzzy and placeholder problems")
    ck.add_argument("--part", help="check one work-in-progress part (.i18n-parts/PART.LANG.po)")
    fr = sub.add_parser("part", help="work apart on some files: .i18n-parts/PART.LANG.po")
    fr.add_argument("part")
    fr.add_argument("files", nargs="+")
    td = sub.add_parser("todo", help="print a part's untranslated messages as JSON")
    td.add_argument("part")
    td.add_argument("lang")
    fl = sub.add_parser("fill", help="set a part's translations from a JSON file")
    fl.add_argument("part")
    fl.add_argument("lang")
    fl.add_argument("json", type=Path)
    sw = sub.add_parser("sweep", help="read generated sentences for grammar faults: the templates, or --play hands")
    sw.add_argument("lang", choices=TRANSLATED, metavar="LANG")
    sw.add_argument("--play", type=int, default=0, metavar="HANDS", help="read HANDS hands of play instead")
    sw.add_argument("--seed", type=int, default=1)
    ap = sub.add_parser("apply", help="fill or override a language's translations from a JSON map {msgid: msgstr}")
    ap.add_argument("json", type=Path, metavar="FILE")
    ap.add_argument("lang", choices=TRANSLATED, metavar="LANG")
    args = parser.parse_args(argv)
    if args.command == "extract":
        extract_all(args.add)
    elif args.command == "compile":
        compile_all()
    elif args.command == "todo":
        todo(args.part, args.lang)
    elif args.command == "fill":
        fill(args.part, args.lang, args.json)
    elif args.command == "part":
        fragment(args.part, args.files)
    elif args.command == "apply":
        apply(args.json, args.lang)
    elif args.command == "sweep":
        return _print_sweep(args.lang, args.play, args.seed)
    else:
        return check(args.part)
    return 0


if __name__ == "__main__":
    sys.exit(main())
