"""The course in English, Hungarian and German: gettext catalogs and the language of a page.

Every sentence a learner reads is written in English in the source, marked for translation,
and looked up in a standard gettext catalog for the page's language::

    from tartli.i18n import _, ngettext          # in the package's modules
    from tartli.i18n import tr                   # in the notebooks (IPython keeps results in ``_``)

    raise IllegalMoveError("T4", _("you must follow suit: you hold the {card_acc}").format(card=...))
    ngettext("{n} point", "{n} points", n).format(n=n)

A field may ask for a form of a name (:class:`tartli.names.Named`) by a role after an underscore,
``{card_acc}``, ``{meld_the}``, ``{card_The}`` (see :data:`ROLES`), or for the pronoun that stands for it,
``{card_itacc}`` (:data:`tartli.names.PRONOUNS`: "it" in English): the code passes the name once,
``.format(card=name)``, and the message the translation gives fills the field with the form that
role takes in the page's language (English: the name itself). The msgid and every translation hold
the same fields, as GNU ``msgfmt -c`` (python-brace-format) demands.

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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from tartli import names
from tartli.names import FORMS, LANGUAGES, Language, Named

__all__ = [
    "DOMAIN",
    "LOCALE_DIR",
    "N_",
    "ROLES",
    "Message",
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


ROLES: dict[str, dict[str, str]] = {
    "en": {},
    "hu": {"gen": "the"},
    "de": {"ins": "dat", "sub": "acc", "ine": "dat", "ill": "acc", "ela": "dat", "cau": "acc"},
}
"""The form each role of a field (``{card_ins}``) takes in a language, where the role is not one of the
language's own forms (:data:`tartli.names.FORMS`): Hungarian's instrumental ``ins`` is German's dative
("mit dem Herz-Daus"), its causal ``cau`` ("a piros ászért") German's accusative ("für das Herz-Daus")."""

ROLE_NAMES = frozenset(f for forms in FORMS.values() for f in forms)
"""The roles a field may ask for: every form of every language (the, acc, dat, gen, ins, sub ...)."""


def role_of(field: str) -> tuple[str, str] | None:
    """``("card", "acc")`` for the field ``card_acc``, ``("card", "The")`` for ``card_The``; None for a plain field."""
    base, sep, role = field.rpartition("_")
    if sep and base and role[:1].lower() + role[1:] in ROLE_NAMES:
        return base, role
    return None


def form_of(value: object, role: str, lang: str | None = None) -> str:
    """The form of ``value`` (a :class:`Named`, or any value: then itself) that ``role`` takes in ``lang``.

    >>> set_language("de"); from tartli import Card
    >>> form_of(Card.parse("AH").name(), "ins"), form_of(Card.parse("AH").name(), "The"); set_language("en")
    ('dem Herz-Daus', 'Das Herz-Daus')
    """
    lang = lang or language()
    lower = role[:1].lower() + role[1:]
    if lang == "en" and lower in names.PRONOUNS:  # (English names carry no forms: "it" stands for any)
        return names.upper_first(names.pronoun(lower, "en")) if role[:1].isupper() else names.pronoun(lower, "en")
    form = ROLES.get(lang, {}).get(lower, lower)
    text = value.forms.get(form, str(value)) if isinstance(value, Named) and lang != "en" else str(value)
    return names.upper_first(text) if role[:1].isupper() and lang != "en" else text


class _Fields(string.Formatter):
    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str) and key not in kwargs:
            asked = role_of(key)
            if asked is not None and asked[0] in kwargs:
                return form_of(kwargs[asked[0]], asked[1])
        return super().get_value(key, args, kwargs)


_FIELDS = _Fields()


class Message(str):
    """A translated message: its :meth:`format` fills a role's field (``{card_acc}``) with the form of the
    name passed as ``card`` (see :data:`ROLES`)."""

    def format(self, *args: object, **kwargs: object) -> str:
        return _FIELDS.vformat(str(self), args, kwargs)


def _(message: str) -> str:
    """``message`` (English) in the page's language."""
    return Message(catalog(language()).gettext(message))


tr = _
"""The notebooks' name for :func:`_` (IPython's ``_`` holds the last result)."""


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the page's language."""
    return Message(catalog(language()).ngettext(singular, plural, n))


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now (a constant; translate it at use)."""
    return message


def placeholders(text: str) -> set[str]:
    """The named fields of a ``str.format`` text: ``placeholders("{n} of {card}") == {"n", "card"}``.

    A field that asks for a form of a name (``{card_acc}``, see :data:`ROLES`) is the name's field.

    >>> sorted(placeholders("{who} plays {card_acc}, {{not this}}"))
    ['card', 'who']
    """
    found = set()
    for field in fields(text):
        name = field.split(".")[0].split("[")[0]
        asked = role_of(name)
        found.add(asked[0] if asked else name)
    return found


def fields(text: str) -> set[str]:
    """The fields of a ``str.format`` text as written, forms included: ``{"card.acc", "n"}``."""
    found = set()
    for _literal, field, _spec, _conversion in string.Formatter().parse(text):
        if field is not None:
            found.add(field)
    return found


def forms_asked(text: str) -> set[str]:
    """The roles a text asks of names: ``forms_asked("{card_acc} und {meld_the}") == {"acc", "the"}``;
    an attribute field (``{card.acc}``, which GNU msgfmt refuses) counts too."""
    found = set()
    for field in fields(text):
        asked = role_of(field)
        if asked:
            found.add(asked[1])
        elif "." in field:
            found.add(field.split(".", 1)[1])
    return found


def the(name: str) -> Named:
    """``_("the {card}")`` of a card's or a meld's name, keeping the name's forms for the sentence around it.

    English "the Ace of Hearts"; German "das Herz-Daus" (its ``acc`` "das Herz-Daus", ``dat`` "dem
    Herz-Daus"); Hungarian "a piros ász" (``acc`` "a piros ászt").
    """
    forms = name.forms if isinstance(name, Named) else {}
    return Named(_("the {card_the}").format(card=name), forms)


def comma_list(items: Sequence[str]) -> Named:
    """``items`` joined by commas (no conjunction), every form of the names joined the same way:
    "Heart-Ace-Terc, Heart-Nine-Terc", and in German ``.dat`` "der Herz-Daus-Terz, der Herz-Neuner-Terz"."""
    forms: dict[str, str] = {}
    for form in FORMS[language()]:
        forms[form] = ", ".join(
            item.forms.get(form, str(item)) if isinstance(item, Named) else str(item) for item in items
        )
    return Named(", ".join(items), forms | _plural_pronouns(items))


def _plural_pronouns(items: Sequence[str]) -> dict[str, str]:
    """The pronouns of a list of two or more names (German "sie", Hungarian "azokat"): a list is plural."""
    lang = language()
    if len(items) < 2 or lang == "en":
        return {}
    return {role: names.pronoun(role, lang, plural=True) for role in names.PRONOUNS}


def joined(items: Sequence[str], template: str, head: str, tail: str) -> Named:
    """A list said in a sentence: ``template`` (translated, e.g. ``_("{cards} or {card}")``) with
    ``head`` the items but the last, joined by commas, and ``tail`` the last. Every form the items
    know is joined the same way, so that ``{cards_acc}`` puts each of them in the accusative.

    >>> set_language("de"); from tartli import Card
    >>> both = joined([the(Card.parse(c).name()) for c in ("AH", "XH")], _("{cards} or {card}"), "cards", "card")
    >>> form_of(both, "acc"); set_language("en")
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
    return Named(text, forms | _plural_pronouns(items))


def language_from_query(query: str) -> Language | None:
    """The ``lang`` of a page address's query (``"lang=hu&x=1"``), if it is one the course speaks.

    >>> language_from_query("lang=hu"), language_from_query("lang=xx"), language_from_query("")
    ('hu', None, None)
    """
    values = parse_qs(query.lstrip("?")).get("lang", [])
    lang = values[0].strip().lower() if values else ""
    return lang if lang in LANGUAGES else None


def from_page_address() -> None:
    """Voilà gives a page's kernel its address's query as ``QUERY_STRING``: ``?lang=hu`` sets Hungarian (read
    when this module is imported, and again by a kernel forked from the kernel template: tartli.server.zygote)."""
    lang = language_from_query(os.environ.get("QUERY_STRING", ""))
    if lang is not None:
        set_language(lang)


from_page_address()
