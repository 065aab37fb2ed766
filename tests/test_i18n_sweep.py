"""The sweep (tartli.catalogs.sweep): every template rendered with names of each gender and initial and with the
numbers Hungarian says with "az", and each sentence read for the faults the checks of the catalogs cannot see."""

from __future__ import annotations

from collections import Counter

import pytest
from babel.messages.catalog import Catalog

from tartli import catalogs


def _faults(lang: str, msgid: str, translation: str | tuple[str, str], plural: str | None = None) -> set[str]:
    """The fault kinds the sweep reads in one template of ``lang`` (a catalog of that one message)."""
    catalog = Catalog(locale=lang)
    catalog.add((msgid, plural) if plural else msgid, translation)
    return {kind for kind, _words, _msgid in catalogs.sweep(lang, catalog).faults}


def test_a_german_article_fixed_before_a_name_is_refused() -> None:
    """ "den {card}" is right for der Laub-König only: das Herz-Daus, die Eichel-Ober-Terz, die Béla."""
    assert _faults("de", "Win with the {card}.", "Gewinn mit dem {card}.") == {"de-article"}
    assert _faults("de", "Win with the {card_dat}.", "Gewinn mit {card_dat}.") == set()


def test_an_article_before_a_form_that_has_its_own_is_refused() -> None:
    assert _faults("de", "Play the {card_acc}.", "Spiel den {card_acc}.") == {"double-article"}
    assert _faults("hu", "Play the {card_acc}.", "Játszd ki a {card_acc}.") == {"double-article"}
    assert _faults("de", "the card that the {card_the} beats", "die Karte, die {card_the} schlägt") == set()


def test_one_with_a_plural_noun_is_refused() -> None:
    assert _faults("de", "it cost {lost} card points", "es kostete {lost} Augen") == {"plural-one"}
    assert _faults("de", "{n} cards in the hand", "{n} Karten auf der Hand") == {"plural-one"}
    plural = _faults("de", "{n} card point", ("{n} Auge", "{n} Augen"), plural="{n} card points")
    assert plural == set()
    # a plural message may say 1 in any of its numbers, "points" too (a loss: 11 - 10)
    one = _faults("de", "loses {points} point", ("verliert {points} Punkte", "{points} Punkte"), "{points} points")
    assert one == {"plural-one"}


def test_the_sweep_tries_only_the_numbers_a_field_can_hold() -> None:
    """RULES C3/C4: the cards are worth 20, 14, 11, 10, 4, 3, 2 or 0 and melds 20 or more: no sum of points is 1,
    so "{points} Augen" reads right; a trick's number is 1 to 16; a count the English calls "cards" is a number."""
    assert 1 not in catalogs.number_domain("points") and 1 in catalogs.number_domain("lost")
    assert catalogs.number_domain("trick") == tuple(range(1, 17))
    assert _faults("de", "{points} card points", "{points} Augen") == set()
    assert _faults("de", "the {cards} cards of the pack", "die {cards} Karten des Blattes") == set()
    # a trick's number asked for with its article is the number's (names.number): "az 5.", "a 12."
    assert _faults("hu", "up to trick {last_the}", "{last_the} ütésig") == set()
    assert _faults("hu", "up to trick {last}", "a {last}. ütésig") == {"hu-article"}


def test_a_capital_a_inside_a_hungarian_sentence_is_a_letter() -> None:
    """The rule book's letters: "Á ász, K király, F felső, A alsó" (A is the Under's letter, not an article)."""
    assert _faults("hu", "Letters: {x}", "Betűk: Á ász, F felső, A alsó; {x}") == set()
    assert _faults("hu", "{x}", "A alsó lap. {x}") == {"hu-article"}


@pytest.mark.parametrize(
    ("template", "right"),
    [("a {card}", "{card_the}"), ("mind a {points} lappont", "minden lappont ({points})"), ("az {n} ütés", "{n} ütés")],
)
def test_a_hungarian_article_that_does_not_fit_the_word_or_number_is_refused(template: str, right: str) -> None:
    """a/az by the sound that follows: "az ász vannak", "a makk ász", "az 1", "az 5", "az 51", "a 10"."""
    field = template.split("{")[1].split("}")[0]
    msgid = "{" + field + "}"
    assert _faults("hu", msgid, template) == {"hu-article"}
    assert _faults("hu", "{" + right.split("{")[1].split("}")[0] + "}", right) == set()


def test_the_form_a_z_left_to_the_reader_is_refused() -> None:
    assert _faults("hu", "Trick {trick}", "A(z) {trick}. ütés") == {"hu-a(z)"}


def test_an_english_card_code_in_a_hungarian_sentence_is_refused() -> None:
    assert _faults("hu", "the {card} ({code})", "{card_the} (UA)".replace("{card_the}", "{card}")) == {"hu-card-code"}


def test_the_sweep_reads_the_hungarian_numbers_and_names_of_every_kind() -> None:
    names = catalogs.sweep_names("hu")
    assert {n.the.split()[0] for n in names} == {"a", "az"}
    assert {1, 5, 50, 59, 10} <= set(catalogs.SWEEP_NUMBERS)
    genders = {catalogs._de_gender(str(n)) for n in catalogs.sweep_names("de")}
    assert genders == {"m", "n", "f"}


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_the_sweep_of_the_course(lang: str) -> None:
    """The figures of the whole catalog (printed: run with -s); every message whose fields ask for a role
    (the templates rewritten for GNU msgfmt) reads without a fault of article or gender."""
    found = catalogs.sweep(lang)
    kinds = Counter(kind for kind, _words, _msgid in found.faults)
    print(f"{lang}: {found.sentences} distinct sentences, {len(found.faults)} faults: {dict(kinds)}")
    assert found.sentences > 5000
    assert dict(kinds) == {}, "a fault the sweep did not find before (issue 40: 142 German and 54 Hungarian at first)"
    rewritten = [
        (kind, words, msgid)
        for kind, words, msgid in found.faults
        if kind != "plural-one" and any(catalogs.role_of(f) for f in catalogs.fields(msgid))
    ]
    assert rewritten == []


def test_no_hungarian_message_leaves_a_or_az_to_the_reader() -> None:
    """Issue 40: "A(z) 5. ütés" was the last one (the claim's note): a trick's number takes its article from the
    number (names.number's ``the``: "Az 5. ütés", "A 3. ütés")."""
    from babel.messages.pofile import read_po

    from tartli.i18n import LOCALE_DIR

    with (LOCALE_DIR / "hu" / "LC_MESSAGES" / "tartli.po").open("rb") as po:
        catalog = read_po(po)
    left = [
        m.id
        for m in catalog
        if m.id and any("(z)" in s for s in (m.string if isinstance(m.string, tuple) else (m.string,)))
    ]
    assert left == []


def test_a_german_pronoun_that_stands_for_no_name_before_it_is_refused() -> None:
    """Issue 40: "Nimm das Herz-Daus mit ..., der billigsten Karte, die ihn sticht" (no masculine word before "ihn":
    das Herz-Daus is neuter), "Der Laub-König. Ihre Zeichen ...", "in dem Laub-König, die schon gezählt hat"."""
    msgid = "Win the {lead_acc} with the {card_ins}, the cheapest card that takes {lead_itacc}."
    fixed = "Nimm {lead_acc} mit {card_ins}, der billigsten Karte, die ihn schlägt."
    assert _faults("de", msgid, fixed) == {"de-pronoun"}
    assert (
        _faults("de", msgid, "Nimm {lead_acc} mit {card_ins}, der billigsten Karte, die {lead_itacc} schlägt.") == set()
    )
    assert _faults("de", "the {card_the}. Its pips are {pips}.", "{card_the}. Ihre Zeichen sind {pips}.") == {
        "de-pronoun"
    }
    assert _faults("de", "the {card_the}. Its pips are {pips}.", "{card_the}. Die Zeichen der Karte: {pips}.") == set()
    assert _faults("de", "inside {old_ine}, scored", "in {old_ine}, die schon gezählt hat") == {"de-pronoun"}


def test_a_german_pronoun_that_stands_for_a_noun_or_a_person_is_no_fault() -> None:
    """ "ihn" for the trick, "seine" for the computer the message speaks of, "sie" for the face-up card."""
    assert (
        _faults("de", "{card_the} won, you took it", "{card_the} hat den Stich gewonnen, du hast ihn bekommen") == set()
    )
    assert _faults("de", "+ its {meld}: its points", "+ seine Meldung ({meld}) + keine Augen: Seine Augen") == set()
    won = _faults("de", "the indicator is the {card_the}, its suit", "die Trumpfkarte ist {card_the}, ihre Farbe")
    assert won == set()


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_what_a_learner_reads_in_play_has_no_fault(lang: str) -> None:
    """The sweep of play (``python -m tartli.catalogs sweep LANG --play HANDS``): the table, the Hint and the review
    of a few whole hands, read sentence by sentence. It found "1 Karten" / "1 cards in hand" (the table's count) and
    "zählen Ober-Vierling (200) jetzt 200" (the Hint's declaration), which the template sweep cannot see: the
    numbers and the names come from the game. In CI a few hands; the figure of hundreds is in the docs."""
    found = catalogs.play_sweep(lang, hands=3, seed=2)
    assert found.sentences > 150, found.sentences
    assert found.faults == []
