"""Every message the engine and the trainers give a learner, built for all suits, ranks and melds,
checked for English articles ("an Acorn", never "a Acorn") and sentence capitals (". The Nine").

The messages are collected by driving the code, not copied from it: illegal moves of every kind in
random hands under each rule set, the narration of those hands, unreadable moves, cards, melds and
records, the meld contest and same-suit reasons for every pair of melds, and every trainer's
feedback for right and wrong answers over many positions.
"""

from __future__ import annotations

import html
import itertools
import random
import re
from collections.abc import Iterator

import pytest

from tartli import HandState, RuleSet, TartliError
from tartli.cards import CARDS, Card
from tartli.melds import ALL_MELDS, SEQUENCES, SETS, Meld, MeldKind, contest, same_suit_reason
from tartli.moves import Bela, Declare, GoOut, Pass, Play, Swap, parse_move
from tartli.record import Record, ReplayError
from tartli.widgets.trainers import TRAINERS, trainer

RULESETS = {"hungarian": RuleSet(), "pais": RuleSet.pais(), "austrian": RuleSet.austrian()}

# "a" before a vowel sound, "an" before a consonant sound (the words said like a consonant are listed).
A_BEFORE_VOWEL = re.compile(r"\b[Aa] (?!one\b|once\b|uni|use|usu|eu)([AEIOUaeiou]\w*)")
AN_BEFORE_CONSONANT = re.compile(r"\b[Aa]n (?!hour|8|11\b|18\b|X\b)([b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z0-79]\w*)")
A_BEFORE_AN_NUMBER = re.compile(r"\ba (8\d*|11|18)\b")  # lower case: "A 11" is the Ace's 11
# A sentence after a full stop, "!" or "?" starts with a capital ("e.g." and "i.e." are not sentence ends).
LOWER_AFTER_STOP = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.!?] +([a-z]\w*)")


def problems(text: str) -> list[str]:
    found = [f"'a {m.group(1)}'" for m in A_BEFORE_VOWEL.finditer(text)]
    found += [f"'an {m.group(1)}'" for m in AN_BEFORE_CONSONANT.finditer(text)]
    found += [f"'a {m.group(1)}'" for m in A_BEFORE_AN_NUMBER.finditer(text)]
    found += [f"lower case after a stop: {m.group(0)!r}" for m in LOWER_AFTER_STOP.finditer(text)]
    return found


def test_the_checks_catch_the_errata_examples() -> None:
    assert problems("T4: you must follow suit: you hold a Acorn")
    assert problems("Not quite: the Ten of Bells does not win. the Nine of Bells wins.")
    assert problems("you hold an Bell") and problems("worth a 8")
    assert not problems("you hold an Acorn, a Bell, an Under, an 8, a one-point card; e.g. this. The Nine wins.")


# ---------------------------------------------------------------- the engine
def candidate_moves(state: HandState, player: int, rng: random.Random) -> Iterator[object]:
    yield from (Play(player, c) for c in CARDS)
    yield from (Swap(player), Pass(player), Bela(player), GoOut(player))
    for meld in rng.sample(ALL_MELDS, 30):
        yield Declare(player, (meld,))
    yield Declare(player, (rng.choice(SETS), rng.choice(SETS)))
    yield Declare(player, (rng.choice(SEQUENCES), rng.choice(SEQUENCES)))


def engine_messages() -> set[str]:
    messages: set[str] = set()
    rng = random.Random(2026)
    for rules in RULESETS.values():
        for seed in range(25):
            state = HandState.from_seed(seed, rules, scores=(rng.choice((0, 470)), rng.choice((0, 300))))
            while True:
                for p in (0, 1):
                    for move in candidate_moves(state, p, rng):
                        if not state.is_legal(move):  # type: ignore[arg-type]
                            try:
                                state.push(move)  # type: ignore[arg-type]
                            except TartliError as err:
                                messages.add(str(err))
                if state.is_over:
                    break
                moves = [m for m in state.legal_moves() if not isinstance(m, GoOut)]
                declares = [m for m in moves if isinstance(m, Declare)]
                state.push(rng.choice(declares) if declares and rng.random() < 0.6 else rng.choice(moves))
            end = state.copy()
            for p in (0, 1):  # moves after the end
                for move in list(candidate_moves(end, p, rng))[:3]:
                    try:
                        end.push(move)  # type: ignore[arg-type]
                    except TartliError as err:
                        messages.add(str(err))
            for viewer in (None, 0, 1):
                messages.update(e.describe(viewer) for e in state.events)
            claimed = HandState.from_seed(seed, rules, scores=(480, 200))
            claimed.push(GoOut(1 - claimed.dealer))
            messages.update(e.describe() for e in claimed.events)
    for text in ("0: play ZZ", "2: play AH", "0: fly", "0:", "0: play", "0: declare", "0: declare zz:ZZ", "0: pass x"):
        try:
            parse_move(text)
        except TartliError as err:
            messages.add(str(err))
    for text in ("ZZ", "1H", "OX", ""):
        try:
            Card.parse(text)
        except TartliError as err:
            messages.add(str(err))
    for text in ("terc:7H", "vannak:8", "kvart", "okt:KH", "bela:X"):
        try:
            Meld.parse(text)
        except TartliError as err:
            messages.add(str(err))
    for record in (
        '{"format": "tartli/1", "dealer": 1, "seed": 3, "moves": ["0: play ZZ"]}',
        '{"format": "tartli/1", "dealer": 1, "seed": 3, "moves": ["1: play AH"]}',
        '{"format": "tartli/2", "dealer": 1, "seed": 3, "moves": []}',
        '{"format": "tartli/1", "dealer": 2, "seed": 3, "moves": []}',
        '{"format": "tartli/1", "dealer": 1, "hands": [[], []], "trump": "AH", "talon": [], "moves": []}',
    ):
        try:
            Record.from_json(record).replay()
        except (TartliError, ReplayError) as err:
            messages.add(str(err))
    return messages


def meld_messages() -> set[str]:
    messages: set[str] = set()
    for rules in (RuleSet(), RuleSet.austrian()):
        singles = [
            m for m in ALL_MELDS if m.kind is MeldKind.SEQUENCE or (m.rank and m.rank.value in rules.set_order())
        ]
        for trump in {c.suit for c in CARDS}:
            for a, b in itertools.product(singles, repeat=2):
                if a.mask & b.mask == 0:
                    messages.add(contest((a,), (b,), trump, rules).reason)
        for new, old in itertools.product(SEQUENCES, repeat=2):
            if new.suit is old.suit:
                messages.add(same_suit_reason(new, [old], rules)[1])
    return messages


# ---------------------------------------------------------------- the trainers
def _text(html_text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", html_text))


def _answers(ex: object) -> list[object]:
    """Every answer a learner can give to the position (right and wrong)."""
    tid = ex.id  # type: ignore[attr-defined]
    if tid == "which-card-wins":
        return [ex.lead, ex.second]  # type: ignore[attr-defined]
    if tid == "count-points":
        return [ex.expected + 3, ex.expected - 1, ex.expected]  # type: ignore[attr-defined]
    if tid == "meld-contest":
        return ["leader", "second", "illegal"]
    if tid == "same-suit":
        return [True, False]
    if tid == "going-out":
        return [0, 1, 2]
    if tid == "name-the-card":
        return list(ex.options)  # type: ignore[attr-defined]
    if tid == "find-melds":
        hand = ex.hand  # type: ignore[attr-defined]
        picks = [hand[:2], hand[:3], hand[2:5], [c for c in hand if c.rank is hand[0].rank]]
        return [*picks, *[m.cards(ex.trump) for m in ex.targets]]  # type: ignore[attr-defined]
    if tid == "what-may-you-play":
        hand = ex.hand  # type: ignore[attr-defined]
        return [hand[:1], hand[:3], sorted(ex.correct)]  # type: ignore[attr-defined]
    raise AssertionError(f"no answers listed for the trainer {tid}")


def trainer_messages() -> set[str]:
    messages: set[str] = set()
    for tid in TRAINERS:
        for seed in range(40):
            ex = trainer(tid, seed=seed)
            messages.add(_text(ex.instruction_html.value))
            messages.update(_text(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", ex.board.svg))
            for answer in _answers(ex):
                ex.answer(answer)  # type: ignore[attr-defined]
                messages.add(_text(ex.feedback.value))
            if hasattr(ex, "explain"):
                messages.add(ex.explain())
    return messages


@pytest.mark.parametrize("source", ["engine", "melds", "trainers"])
def test_every_message_has_right_articles_and_capitals(source: str) -> None:
    messages = {"engine": engine_messages, "melds": meld_messages, "trainers": trainer_messages}[source]()
    assert len(messages) > 60
    bad = {text: problems(text) for text in messages if problems(text)}
    assert not bad, "\n".join(f"{text}\n    -> {', '.join(found)}" for text, found in sorted(bad.items())[:20])
