"""The engine speaks Hungarian and German: every rule it refuses a move for, its narration and its advice.

One test per rule ID the engine raises :class:`IllegalMoveError` for, each on a real position: the
rule ID stays first and unchanged, the explanation is Hungarian (no English words left) and German,
and the refused move changes nothing. A rule ID added to the engine without a position here fails
:func:`test_every_rule_the_engine_refuses_for_has_a_translated_test`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import make_deal

from tartli import HandState, IllegalMoveError, RuleSet, i18n
from tartli.bots import HeuristicBot, coach
from tartli.melds import Meld, contest, same_suit_reason
from tartli.moves import Play, parse_move
from tests.test_errors import snapshot

ROOT = Path(__file__).resolve().parent.parent
ENGLISH_WORDS = re.compile(r"\b(the|and|you|of|to|card|trick|play|must|trump|may)\b", re.IGNORECASE)


# ---------------------------------------------------------------- positions, one per rule ID
# Deal A (Hungarian, trump Bells): player 0 leads holding four Overs, the Acorn Over-kvart and the
# trump 7; player 1 holds terc:UL and terc:UH and the trump Ace and King (as in test_errors.py).
A0, A1, A_TRUMP = "OA OL OH OB UA XA 9A 7B 8L", "UL XL 9L AB KB UH XH 9H 7L", "9B"
BELA_DEAL = ("KB OB 7A 8A 9A 7L 8L 9L 7H", "AA KA AL KL XL UL AH KH XH", "9B")


def deal_a(rules: RuleSet | None = None) -> HandState:
    return HandState(make_deal(A0, A1, A_TRUMP, talon_top="KA AA"), rules)


def first_play(state: HandState) -> Play:
    return next(m for m in state.legal_moves() if isinstance(m, Play))


def find_state(pred: Callable[[HandState], bool]) -> HandState:
    """The first state, playing the first legal card from seeds 0.., where ``pred`` holds."""
    for seed in range(400):
        state = HandState.from_seed(seed)
        while not state.is_over:
            if pred(state):
                return state
            state.push(first_play(state))
    raise AssertionError("no such state found")


def finished() -> tuple[HandState, str]:
    state = HandState.from_seed(21)
    while not state.is_over:
        state.push(first_play(state))
    return state, "0: play AA"


def gone_out() -> tuple[HandState, str]:
    state = HandState.from_seed(21)
    state.push("1: out")
    return state, "0: play AA"


def both_at_501() -> tuple[HandState, str]:
    deal = make_deal("OA UA XA 9A 7L 8L 9L 7H 8H", "KB OB KH OH UH AL KL AA KA", "9B")
    state = HandState(deal, RuleSet.pais(), scores=(451, 461))
    state.push_many(["0: declare kvart:OA", "0: play 7L", "1: declare bela"])
    return state, "0: out"


def after_trick_8() -> tuple[HandState, str]:
    state = find_state(lambda s: s.trick_number == 9 and s.lead is None)
    return state, f"{state.to_move}: declare terc:AA"


def out_of_turn() -> tuple[HandState, str]:
    return deal_a(), "1: play UL"


def not_following_suit() -> tuple[HandState, str]:
    def pred(s: HandState) -> bool:
        if s.trick_number < 8 or s.lead is None or s.to_move is None:
            return False
        hand = s.hand(s.to_move)
        return any(c.suit is s.lead.suit for c in hand) and any(c.suit is not s.lead.suit for c in hand)

    state = find_state(pred)
    p, lead = state.to_move, state.lead
    assert p is not None and lead is not None
    other = next(c for c in state.hand(p) if c.suit is not lead.suit)
    return state, f"{p}: play {other}"


def bela_twice() -> tuple[HandState, str]:
    state = HandState(make_deal(*BELA_DEAL))
    state.push_many(["0: play 7A", "0: bela"])
    return state, "0: bela"


def bela_without_the_pair() -> tuple[HandState, str]:
    return deal_a(), "0: bela"


def austrian_swap_after_a_trump_sequence() -> tuple[HandState, str]:
    deal = make_deal("9B 8B 7B OA UA AL 7L 8H 7H", "AA KA XL UL AH KH XH 8A 7A", "XB")
    state = HandState(deal, RuleSet.austrian())
    state.push("0: declare terc:9B")
    return state, "0: swap"


def swap_by_a_non_holder() -> tuple[HandState, str]:
    return deal_a(), "1: swap"


def two_sets() -> tuple[HandState, str]:
    return deal_a(), "0: declare vannak:O vannak:U"


def two_sequences_in_one_suit() -> tuple[HandState, str]:
    deal = make_deal("AA KA OA 9A 8A 7A 7L 8L 9L", "AL KL XL UL AH KH XH 8H 7H", "OB")
    return HandState(deal, RuleSet.austrian()), "0: declare terc:AA terc:9A"


def four_nines_austrian() -> tuple[HandState, str]:
    deal = make_deal("9A 9L 9H 9B 7A 8A 7L 8L 7H", "AA KA AL KL XL UL AH KH XH", "OB")
    return HandState(deal, RuleSet.austrian()), "0: declare vannak:9"


def meld_not_held() -> tuple[HandState, str]:
    return deal_a(), "0: declare terc:UL"


def set_scored_twice() -> tuple[HandState, str]:
    state = deal_a()
    state.push_many(["0: declare vannak:O kvart:OA", "0: play 8L", "1: play 7L"])
    return state, "0: declare vannak:O"


def sequence_inside_a_scored_one() -> tuple[HandState, str]:
    state = deal_a(RuleSet.austrian())
    state.push_many(["0: declare kvart:OA", "0: play 8L", "1: play 7L"])
    return state, "0: declare terc:UA"


def same_suit_lower_top() -> tuple[HandState, str]:
    state = deal_a()
    state.push_many(["0: declare kvart:OA", "0: play 8L", "1: play 7L"])
    return state, "0: declare terc:UA"


def answer_that_cannot_beat_the_lead() -> tuple[HandState, str]:
    state = deal_a()
    state.push_many(["0: declare kvart:OA", "0: play 8L"])
    return state, "1: declare terc:UL"


POSITIONS: dict[str, Callable[[], tuple[HandState, str]]] = {
    "S1": finished,
    "S4": gone_out,
    "B2": both_at_501,
    "M4": after_trick_8,
    "K1": out_of_turn,
    "T4": not_following_suit,
    "B1": bela_twice,
    "M3": bela_without_the_pair,
    "V7": austrian_swap_after_a_trump_sequence,
    "T5": swap_by_a_non_holder,
    "M5": two_sets,
    "V4": two_sequences_in_one_suit,
    "V3": four_nines_austrian,
    "M7": meld_not_held,
    "K6": set_scored_twice,
    "V5": sequence_inside_a_scored_one,
    "K7": same_suit_lower_top,
    "K3": answer_that_cannot_beat_the_lead,
}


def refusal(state: HandState, move: str, lang: str) -> IllegalMoveError:
    """The error ``move`` raises in ``lang``; the state is checked to be unchanged."""
    i18n.set_language(lang)
    before = snapshot(state)
    assert not state.is_legal(move)
    with pytest.raises(IllegalMoveError) as info:
        state.push(move)
    assert snapshot(state) == before
    with pytest.raises(IllegalMoveError):
        state.push(parse_move(move))
    assert snapshot(state) == before
    return info.value


def english_left(text: str) -> list[str]:
    return ENGLISH_WORDS.findall(text)


# ---------------------------------------------------------------- one test per rule ID
@pytest.mark.parametrize("rule", sorted(POSITIONS))
def test_the_refusal_is_translated(rule: str, hungarian: None) -> None:
    state, move = POSITIONS[rule]()
    english = refusal(state, move, "en")
    assert english.rule == rule, str(english)

    hu = refusal(state, move, "hu")
    assert hu.rule == rule
    assert str(hu).startswith(f"{rule}: ")
    assert str(hu) == f"{rule}: {hu.explanation}"
    assert str(hu) != str(english)
    assert english_left(hu.explanation) == [], str(hu)

    de = refusal(state, move, "de")
    assert de.rule == rule
    assert str(de).startswith(f"{rule}: ")
    assert str(de) not in (str(english), str(hu))
    assert english_left(de.explanation) == [], str(de)


def _rules_raised_in(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "IllegalMoveError"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
    return found


def test_every_rule_the_engine_refuses_for_has_a_translated_test() -> None:
    raised: set[str] = set()
    for path in sorted((ROOT / "tartli").rglob("*.py")):
        raised |= _rules_raised_in(path)
    assert "T4" in raised and "K1" in raised
    assert set(POSITIONS) == raised


# ---------------------------------------------------------------- English stays as it was
def test_english_messages_are_unchanged() -> None:
    i18n.set_language("hu")
    i18n.set_language("en")
    state = deal_a()
    assert str(refusal(state, "0: play AH", "en")) == "K1: you do not hold the Ace of Hearts (AH)"
    assert str(refusal(state, "1: play UL", "en")) == "K1: player 0 leads this trick (D3): wait for their card"
    assert str(refusal(state, "0: bela", "en")) == "M3: béla is the King and Over of trumps (Bells): you must hold both"
    assert str(refusal(state, "1: swap", "en")) == (
        "T5: only the holder of the trump Seven (7B) may swap it for the trump indicator"
    )
    state.push("0: play 8L")
    assert str(refusal(state, "0: play OA", "en")) == "K1: you have led to this trick: player 1 plays next"
    t4, move = not_following_suit()
    assert re.fullmatch(r"T4: you must follow suit: you hold an? (Acorn|Leaf|Heart|Bell)", str(refusal(t4, move, "en")))
    k3, move = answer_that_cannot_beat_the_lead()
    assert str(refusal(k3, move, "en")) == (
        "K3: the leader announced kvart: you may declare only what could beat it "
        "(a set after a set; after a sequence, a set or a sequence at least as long)"
    )
    assert same_suit_reason(Meld.parse("terc:OH"), [Meld.parse("terc:9H")], RuleSet())[1] == (
        "K7: Heart-Over-Terc shares no card with Heart-Nine-Terc but lies right next to it (no missing card between)"
    )
    outcome = contest([Meld.parse("kvart:OA")], [Meld.parse("vannak:U")], deal_a().trump, RuleSet())
    assert outcome.reason == "any set beats any sequence: Under-vannak beats Acorn-Over-Kvart"
    played = deal_a()
    played.push_many(["0: declare kvart:OA", "0: play 8L"])
    said = [e.describe(0, ("You", "The computer")) for e in played.events]
    assert said == ["You declare: kvart.", "You play the Eight of Leaves."]


# ---------------------------------------------------------------- narration and advice
def _a_whole_hand(seed: int, rules: RuleSet) -> HandState:
    state = HandState.from_seed(seed, rules)
    while not state.is_over:
        state.push(HeuristicBot().choose(state.view(state.to_move)))  # type: ignore[arg-type]
    return state


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_narration_and_the_advice_have_no_english_left(lang: str, hungarian: None) -> None:
    i18n.set_language(lang)
    texts: list[str] = []
    for seed, rules in ((3, RuleSet()), (8, RuleSet.pais()), (5, RuleSet.austrian())):
        state = _a_whole_hand(seed, rules)
        for who in (("You", "The computer"), ("The computer", "You"), None):
            texts += [e.describe(0, who) for e in state.events]
        replay = HandState(state.deal, rules)
        for move in state.moves:
            if replay.to_move is not None:
                view = replay.view(replay.to_move)
                texts.append(HeuristicBot().choose_with_reason(view)[1])
                if replay.trick_number > 7 and any(isinstance(m, Play) for m in view.legal_moves):
                    texts.append(coach(view))
            replay.push(move)
    leftovers = {t: english_left(t) for t in texts if english_left(t)}
    assert leftovers == {}
    assert ("A gép" if lang == "hu" else "Der Computer") in " ".join(texts)
    i18n.set_language("en")
    assert any(t.startswith("The computer ") for t in (e.describe(0, ("You", "The computer")) for e in state.events))


# ---------------------------------------------------------------- players by name, never by number
def test_a_refusal_names_the_players_the_caller_named(hungarian: None) -> None:
    state = deal_a()
    i18n.set_language("hu")
    assert str(refusal(state, "1: play UL", "hu")) == "K1: az ellenfeled hív ebben az ütésben (D3): várd meg a lapját"
    state.player_names = ("The computer", "You")
    assert str(refusal(state, "1: play UL", "hu")) == "K1: a gép hív ebben az ütésben (D3): várd meg a lapját"
    assert (
        str(refusal(state, "1: play UL", "de"))
        == "K1: der Computer spielt zu diesem Stich aus (D3): warte auf die Karte"
    )
    state.player_names = ("Anna", "Bence")
    state.push("0: play 8L")
    assert str(refusal(state, "0: play OA", "hu")) == "K1: ebbe az ütésbe már hívtál: most Bence következik"
    assert str(refusal(state, "0: play OA", "en")) == "K1: you have led to this trick: Bence plays next"


def test_the_match_over_message_names_the_winner() -> None:
    from tartli import Match, TartliError

    match = Match(seed=3, first_dealer=1, buli=(0, 4))
    match.state.push("0: out")  # a wrong claim: player 1 reaches 5 buli
    match.next_hand()
    assert match.is_over and match.winner == 1
    match.state.push("0: out")  # the hand after it is over too: only S6 refuses another
    for lang, names_given, said in (
        ("en", None, "the match is over: player 1 has won it"),
        ("hu", None, "a partinak vége: a másik játékos megnyerte"),
        ("hu", ("You", "The computer"), "a partinak vége: a gép megnyerte"),
        ("hu", ("The computer", "You"), "a partinak vége: megnyerted"),
        ("de", ("Anna", "Bence"), "die Partie ist vorbei: Bence hat sie gewonnen"),
    ):
        i18n.set_language(lang)
        match.player_names = names_given
        with pytest.raises(TartliError) as info:
            match.next_hand()
        assert str(info.value) == f"S6: {said}"
    i18n.set_language("en")
