"""The course in English, Hungarian and German: gettext catalogs and the language of a page.

Every sentence a learner reads is written in English in the source, marked for translation,
and looked up in a standard gettext catalog for the page's language::

    from tartli.i18n import _, ngettext          # in the package's modules
    from tartli.i18n import tr                   # in the notebooks (IPython keeps results in ``_``)

    raise IllegalMoveError("T4", _("you must follow suit: you hold {card}").format(card=...))
    ngettext("{n} point", "{n} points", n).format(n=n)

The catalogs are ``tartli/locale/<lang>/LC_MESSAGES/tartli.po`` (Poedit and Weblate open them),
compiled to ``tartli.mo`` beside them, which the standard library's :mod:`gettext` reads: the
engine needs nothing else. The English text is the message id, so English needs no catalog.
Placeholders are named, ``{card}``, and must be the same in every language.

Maintainers (Babel is a test dependency)::

    python -m tartli.catalogs extract  # collect the marked strings into tartli.pot and each .po
    python -m tartli.catalogs compile  # .po -> .mo
    python -m tartli.catalogs check    # untranslated, fuzzy, placeholder and stale-.mo report

Which language a page speaks: :func:`set_language`; in the Voilà app a page's address says it
(``?lang=hu``, read from the kernel's ``QUERY_STRING`` when this module is imported); the static
edition builds one copy of each page per language that sets it in its first cell.

>>> set_language("hu"); _("Continue"); set_language("en"); _("Continue")
'Tovább'
'Continue'
"""

from __future__ import annotations

import functools
import gettext as _gettext
import os
import string
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import parse_qs

from tartli import names
from tartli.names import FORMS, LANGUAGES, Language, Named

__all__ = [
    "DOMAIN",
    "LOCALE_DIR",
    "N_",
    "Named",
    "_",
    "catalog",
    "comma_list",
    "joined",
    "language",
    "language_from_query",
    "ngettext",
    "placeholders",
    "set_language",
    "the",
    "tr",
]

DOMAIN = "tartli"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


@functools.cache
def catalog(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English, or a missing catalog: the message ids themselves)."""
    if lang == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def language() -> Language:
    """The language of this page (``"en"`` until :func:`set_language`)."""
    return names.get_language()


def set_language(lang: str) -> None:
    """Speak ``lang`` (en, hu or de) from now on: messages, card names and pictures."""
    names.set_language(lang)


def _(message: str) -> str:
    """``message`` (English) in the page's language."""
    return catalog(language()).gettext(message)


tr = _
"""The notebooks' name for :func:`_` (IPython's ``_`` holds the last result)."""


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the page's language."""
    return catalog(language()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now (a constant; translate it at use)."""
    return message


def placeholders(text: str) -> set[str]:
    """The named fields of a ``str.format`` text: ``placeholders("{n} of {card}") == {"n", "card"}``.

    A field that asks for a form of a name (``{card.acc}``, see :class:`tartli.names.Named`) is the
    name's field: the same placeholder.

    >>> sorted(placeholders("{who} plays {card.acc}, {{not this}}"))
    ['card', 'who']
    """
    return {field.split(".")[0].split("[")[0] for field in fields(text)}


def fields(text: str) -> set[str]:
    """The fields of a ``str.format`` text as written, forms included: ``{"card.acc", "n"}``."""
    found = set()
    for _literal, field, _spec, _conversion in string.Formatter().parse(text):
        if field is not None:
            found.add(field)
    return found


def forms_asked(text: str) -> set[str]:
    """The forms of names a translation asks for: ``forms_asked("{card.acc} und {meld.the}") == {"acc", "the"}``."""
    return {field.split(".", 1)[1] for field in fields(text) if "." in field}


def the(name: str) -> Named:
    """``_("the {card}")`` of a card's or a meld's name, keeping the name's forms for the sentence around it.

    English "the Ace of Hearts"; German "das Herz-Daus" (its ``acc`` "das Herz-Daus", ``dat`` "dem
    Herz-Daus"); Hungarian "a piros ász" (``acc`` "a piros ászt").
    """
    forms = name.forms if isinstance(name, Named) else {}
    return Named(_("the {card}").format(card=name), forms)


def comma_list(items: Sequence[str]) -> Named:
    """``items`` joined by commas (no conjunction), every form of the names joined the same way:
    "Heart-Ace-Terc, Heart-Nine-Terc", and in German ``.dat`` "der Herz-Daus-Terz, der Herz-Neuner-Terz"."""
    forms: dict[str, str] = {}
    for form in FORMS[language()]:
        forms[form] = ", ".join(
            item.forms.get(form, str(item)) if isinstance(item, Named) else str(item) for item in items
        )
    return Named(", ".join(items), forms)


def joined(items: Sequence[str], template: str, head: str, tail: str) -> Named:
    """A list said in a sentence: ``template`` (translated, e.g. ``_("{cards} or {card}")``) with
    ``head`` the items but the last, joined by commas, and ``tail`` the last. Every form the items
    know is joined the same way, so that ``{cards.acc}`` puts each of them in the accusative.

    >>> set_language("de"); from tartli import Card
    >>> both = joined([the(Card.parse(c).name()) for c in ("AH", "XH")], _("{cards} or {card}"), "cards", "card")
    >>> both.acc; set_language("en")
    'das Herz-Daus oder den Herz-Zehner'
    """
    if len(items) == 1:
        only = items[0]
        return only if isinstance(only, Named) else Named(only)
    text = template.format(**{head: ", ".join(items[:-1]), tail: items[-1]})
    forms = {}
    if not forms_asked(template):
        for form in FORMS[language()]:
            said = [item.forms.get(form, str(item)) if isinstance(item, Named) else str(item) for item in items]
            forms[form] = template.format(**{head: ", ".join(said[:-1]), tail: said[-1]})
    return Named(text, forms)


def language_from_query(query: str) -> Language | None:
    """The ``lang`` of a page address's query (``"lang=hu&x=1"``), if it is one the course speaks.

    >>> language_from_query("lang=hu"), language_from_query("lang=xx"), language_from_query("")
    ('hu', None, None)
    """
    values = parse_qs(query.lstrip("?")).get("lang", [])
    lang = values[0].strip().lower() if values else ""
    return lang if lang in LANGUAGES else None


def _from_page_address() -> None:
    """Voilà gives a page's kernel its address's query as ``QUERY_STRING``: ``?lang=hu`` sets Hungarian."""
    lang = language_from_query(os.environ.get("QUERY_STRING", ""))
    if lang is not None:
        set_language(lang)


_from_page_address()
