"""The sentences the course makes, not only its templates: bot hands, every refusal, hints, the coach,
the contests and every trainer's questions and answers, in Hungarian and German, read for the glossary
and the grammar around the names.

A template's placeholders are filled at run time, so a template can read well and its sentences not
("tök ász terc már pontot ért": a meld name as the subject without its article). This module makes the
sentences themselves (:func:`generated_sentences`) and checks them: every card or meld name has its
article where the sentence needs one (:func:`missing_articles`), no word the glossary refuses, no
engine move word, no number for a person, no capital béla inside a Hungarian sentence, no English left.

``python tests/test_i18n_sentences.py`` prints the counts (distinct sentences, those missing an article).
"""

from __future__ import annotations

import contextlib
import html
import itertools
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # (run as a script)
    sys.path.insert(0, str(ROOT))

from tartli import CARDS, HandState, IllegalMoveError, RuleSet, catalogs, i18n  # noqa: E402
from tartli.bots import HeuristicBot, coach  # noqa: E402
from tartli.cards import Rank  # noqa: E402
from tartli.melds import ALL_MELDS, SEQUENCES, MeldKind, contest, same_suit_reason  # noqa: E402
from tartli.moves import Bela, Declare, GoOut, Pass, Play, Swap  # noqa: E402

ENGLISH = re.compile(r"\b(the|and|you|of|to|card|trick|play|must|trump|may|with|your)\b", re.IGNORECASE)
ARTICLES = {
    "hu": {"a", "az", "egy", "minden", "melyik", "bármelyik"},
    "de": {
        "der",
        "die",
        "das",
        "den",
        "dem",
        "des",
        "ein",
        "eine",
        "einen",
        "einem",
        "einer",
        "eines",
        "kein",
        "keine",
        "keinen",
        "deinen",
        "dein",
        "deine",
        "deinem",
        "seinen",
        "seine",
        "jeden",
        "jede",
        "jedem",
        "zum",
        "zur",
        "vom",
        "im",
        "beim",
        "am",
        "diesen",
        "dieser",
        "diese",
        "dieses",
        "diesem",
        "welche",
        "welcher",
        "welchen",
    },
}
"""Words that give a name its article (or another determiner)."""
JOINING = {"hu": {"és", "vagy", "meg"}, "de": {"und", "oder", "sowie"}}
"""A name followed by one of these is an item of a list, not a subject."""
LABEL = ":(„“\"'[–—-/,;·+=•"
"""After these a name is a label ("Kijátszod: tök ász."), which needs no article when nothing follows it."""


# ---------------------------------------------------------------- names and their articles
def _name_patterns(lang: str) -> re.Pattern[str]:
    """Every card name and meld title of ``lang``, in any of its forms, longest first."""
    from tartli import names

    texts = {c.name(lang) for c in CARDS} | {m.title(lang) for m in ALL_MELDS}
    parts = []
    for text in sorted(texts, key=len, reverse=True):
        if lang == "hu":
            head, _sep, last = text.rpartition(" ")
            forms = [last, *getattr(names, "_HU_ENDINGS", {}).get(last, "").split()]
            alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
            parts.append((re.escape(head) + " " if head else "") + f"(?:{alternatives})")
        else:
            parts.append(re.escape(text) + "(?:e?s)?")
    return re.compile(r"(?<![\w-])(?:" + "|".join(parts) + r")(?![\w-])", re.IGNORECASE if lang == "hu" else 0)


_PATTERNS: dict[str, re.Pattern[str]] = {}


def missing_articles(sentence: str, lang: str) -> list[str]:
    """The names in ``sentence`` that lack the article the sentence needs: one after a word that is not
    an article ("spiel Eichel-Daus aus", "nincs nálad makk ász"), or a subject that starts a clause
    without one ("K6: tök ász terc már pontot ért"). A label ("Kijátszod: tök ász.") and a list item
    are fine.

    >>> missing_articles("K6: tök ász terc már pontot ért", "hu"), missing_articles("Dobd el a tök ászt.", "hu")
    (['tök ász terc'], [])
    >>> missing_articles("Melde Schellen-Ober-Quint", "de"), missing_articles("Stich 3: Herz-Daus (11)", "de")
    (['Schellen-Ober-Quint'], [])
    """
    pattern = _PATTERNS.get(lang) or _PATTERNS.setdefault(lang, _name_patterns(lang))
    found = []
    for match in pattern.finditer(sentence):
        before = sentence[: match.start()].rsplit("\n", 1)[-1].rstrip()
        after = sentence[match.end() :].lstrip(" ")
        previous = re.search(r"([^\W\d_]+)\W*$", before) if before and before[-1].isalpha() else None
        if previous is not None:
            if previous.group(1).lower() not in ARTICLES[lang]:
                found.append(match.group(0))
            continue
        next_word = re.match(r"([^\W\d_]+)", after)
        if next_word and next_word.group(1).lower() not in JOINING[lang] and (not before or before[-1] in LABEL):
            found.append(match.group(0))
    return found


# ---------------------------------------------------------------- the sentences
def _refusals(state: HandState) -> Iterator[str]:
    """Every refusal of the moment: each card played, each meld declared, béla, the swap, a pass, a claim."""
    for player in (0, 1):
        moves: list[Any] = [Play(player, c) for c in CARDS]
        moves += [Declare(player, (m,)) for m in ALL_MELDS]
        moves += [Bela(player), Swap(player), Pass(player), GoOut(player)]
        for move in moves:
            if not state.is_legal(move):
                try:
                    state.copy().push(move)
                except IllegalMoveError as err:
                    yield str(err)


def _hands() -> Iterator[tuple[HandState, RuleSet]]:
    for seed, rules in itertools.product(range(4), (RuleSet(), RuleSet.pais(), RuleSet.austrian())):
        yield HandState.from_seed(seed, rules), rules


def _play_hand(state: HandState, out: set[str]) -> None:
    bot = HeuristicBot()
    while not state.is_over:
        view = state.view(state.to_move)  # type: ignore[arg-type]
        move, why = bot.choose_with_reason(view)
        out.add(why)
        if state.trick_number > 7 and any(isinstance(m, Play) for m in view.legal_moves):
            out.add(coach(view))
        if state.trick_number in (1, 4, 8, 12):
            out.update(_refusals(state))
        try:
            from tartli.widgets.table import move_words

            out.update(move_words(m, view) for m in view.legal_moves)
        except ImportError:  # pragma: no cover
            pass
        state.push(move)
    for who in (("You", "The computer"), ("The computer", "You")):
        out.update(e.describe(0, who) for e in state.events)


def _feedback(exercise: Any) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", exercise.feedback.value)).strip()


def _exercise_texts(make: Callable[[], Any], answers: Callable[[Any], Iterable[Any]]) -> Iterator[str]:
    first = make()
    for attribute in ("question",):
        text = getattr(first, attribute, "")
        if text:
            yield text
    explain = getattr(first, "explain", None)
    if explain is not None:
        explained = ""
        with contextlib.suppress(Exception):  # an exercise without an explanation for this position
            explained = explain()
        yield explained
    for value in list(answers(first)):
        exercise = make()
        exercise.answer(value)
        yield _feedback(exercise)


def _trainer_texts(lang: str, seeds: int) -> Iterator[str]:
    from tartli.widgets import trainers as t
    from tartli.widgets.quizzes import DealQuiz, DrawQuiz, VariantQuiz
    from tartli.widgets.trainers.melds import SIDES

    answer_sets: dict[str, Callable[[Any], Iterable[Any]]] = {
        "which-card-wins": lambda e: [e.lead, e.second],
        "count-points": lambda e: [0],
        "meld-contest": lambda e: list(SIDES),
        "same-suit": lambda e: [True, False],
        "what-may-you-play": lambda e: [[], list(e.hand)],
        "going-out": lambda e: [0, 1, 2],
        "name-the-card": lambda e: list(e.options),
        "find-melds": lambda e: [list(e.hand)[:3], list(e.hand)[-4:]],
    }
    for trainer_id, answers in answer_sets.items():
        if trainer_id not in t.TRAINERS:  # pragma: no cover - a trainer renamed
            continue
        for seed in range(seeds):
            yield from _exercise_texts(lambda i=trainer_id, s=seed: t.trainer(i, seed=s, language=lang), answers)
            if trainer_id == "name-the-card":
                card = t.trainer(trainer_id, seed=seed, language=lang)
                yield from (card.hint(c) for c in card.options if c != card.card)
    for quiz in (DealQuiz, DrawQuiz, VariantQuiz):
        for seed in range(seeds * 2):
            yield from _exercise_texts(
                lambda q=quiz, s=seed: q(seed=s, language=lang), lambda e: [v for _label, v in e.choices]
            )


def generated_sentences(lang: str, seeds: int = 6) -> set[str]:
    """The course's sentences in ``lang``: bot hands (narration, hints, coach, the table's move words),
    every refusal at moments of them, every contest and same-suit verdict, and the trainers' and
    quizzes' questions and answers for ``seeds`` positions each."""
    before = i18n.language()
    i18n.set_language(lang)
    try:
        out: set[str] = set()
        for state, _rules in _hands():
            _play_hand(state, out)
        trump = CARDS[0].suit
        contested = [m for m in ALL_MELDS if m.kind is not MeldKind.BELA]
        for leader, second in itertools.product(contested[::3], contested[1::4]):
            for rules in (RuleSet(), RuleSet.austrian()):
                if rules.four_nines or Rank.NINE not in (leader.rank, second.rank):
                    out.add(contest([leader], [second], trump, rules).reason)
        for new, old in itertools.product(SEQUENCES[:20], SEQUENCES[:20]):
            if new.suit is old.suit:
                for rules in (RuleSet(), RuleSet.austrian()):
                    out.add(same_suit_reason(new, [old], rules)[1])
        out.update(_trainer_texts(lang, seeds))
        return {s for s in out if s}
    finally:
        i18n.set_language(before)


# ---------------------------------------------------------------- the tests
_MADE: dict[str, set[str]] = {}


def _sentences(lang: str) -> set[str]:
    if lang not in _MADE:
        _MADE[lang] = generated_sentences(lang)
    return _MADE[lang]


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_every_generated_name_has_its_article(lang: str) -> None:
    made = _sentences(lang)
    assert len(made) > 1500
    wrong = {s: missing_articles(s, lang) for s in made if missing_articles(s, lang)}
    assert wrong == {}, f"{len(wrong)} sentences: {list(wrong.items())[:10]}"


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_generated_sentences_keep_the_glossary_and_the_spelling(lang: str) -> None:
    terms = catalogs.glossary(lang)
    found = {}
    for sentence in _sentences(lang):
        said = catalogs._glossary_words(sentence, terms)
        if catalogs.ENGINE_WORDS.search(sentence):
            said.append("engine word")
        if catalogs.NUMBERED_PERSON.search(sentence):
            said.append("a number for a person")
        if lang == "hu":
            said += [f"capital {w}" for w in catalogs.hu_capitals(sentence)]
            said += [f"code {m.group(0)}" for m in catalogs.HU_CARD_CODE.finditer(sentence)]
        if said:
            found[sentence] = said
    assert found == {}, f"{len(found)} sentences: {list(found.items())[:10]}"


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_generated_sentences_have_no_english_left(lang: str) -> None:
    left = {s: ENGLISH.findall(s) for s in _sentences(lang) if ENGLISH.findall(s)}
    assert left == {}, f"{len(left)} sentences: {list(left.items())[:10]}"


if __name__ == "__main__":  # the counts, for a report
    for language in ("hu", "de"):
        made = generated_sentences(language)
        missing = [s for s in made if missing_articles(s, language)]
        print(f"{language}: {len(made)} distinct sentences, {len(missing)} with a name missing its article")
        for sentence in sorted(missing)[: int(sys.argv[1]) if len(sys.argv) > 1 else 0]:
            print("   ", sentence.replace("\n", " ")[:200], missing_articles(sentence, language))
