"""Every error path of the engine: bad card text, bad move text, illegal moves of every
kind, bad deals and malformed records. Each error names the rule ID (RULES.md) or the
record field, and a refused move leaves the state exactly as it was."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import make_deal

import tartli
from tartli import (
    CARDS,
    Card,
    Deal,
    HandState,
    IllegalMoveError,
    InvalidCardError,
    InvalidDealError,
    InvalidMoveError,
    Play,
    Record,
    RecordError,
    RuleSet,
    Status,
    TartliError,
    parse_move,
)
from tartli.errors import ArgumentError
from tartli.record import ReplayError, result

EXAMPLE = Path(__file__).resolve().parent / "data" / "example.json"


# ----------------------------------------------------------------- helpers


def snapshot(state: HandState) -> tuple[Any, ...]:
    return (
        result(state),
        [str(m) for m in state.moves],
        state.hand(0),
        state.hand(1),
        state.talon,
        state.indicator,
        state.tricks,
        state.lead,
        state.declared,
        state.scored_melds,
        state.bela_scored,
        len(state.events),
        tuple(state.legal_moves(0)),
        tuple(state.legal_moves(1)),
    )


def refuse(state: HandState, move: str, rule: str, *words: str) -> IllegalMoveError:
    """``move`` is illegal for ``rule``: is_legal says so, push raises, nothing changes."""
    before = snapshot(state)
    assert not state.is_legal(move)
    assert parse_move(move) not in state.legal_moves(parse_move(move).player)
    with pytest.raises(IllegalMoveError) as info:
        state.push(move)
    err = info.value
    assert err.rule == rule, str(err)
    assert str(err).startswith(f"{rule}: ")
    for w in words:
        assert w in str(err)
    assert isinstance(err, TartliError) and isinstance(err, ValueError)
    assert snapshot(state) == before
    # the move object is refused the same way
    with pytest.raises(IllegalMoveError):
        state.push(parse_move(move))
    assert snapshot(state) == before
    return err


def first_play(state: HandState) -> tartli.Move:
    return next(m for m in state.legal_moves() if isinstance(m, Play))


def find_state(rules: RuleSet, pred: Callable[[HandState], bool], seeds: range = range(400)) -> HandState:
    """The first state, playing the first legal card from seeds 0.., where ``pred`` holds."""
    for seed in seeds:
        state = HandState.from_seed(seed, rules)
        while not state.is_over:
            if pred(state):
                return state
            state.push(first_play(state))
    raise AssertionError("no such state found")


# Deal A (Hungarian, trump Bells): player 0 leads holding four Overs, the Acorn Over-kvart and
# the trump 7; player 1 holds terc:UL and terc:UH and the trump Ace and King.
A0, A1, A_TRUMP = "OA OL OH OB UA XA 9A 7B 8L", "UL XL 9L AB KB UH XH 9H 7L", "9B"


def deal_a(rules: RuleSet | None = None, talon_top: str = "KA AA") -> HandState:
    return HandState(make_deal(A0, A1, A_TRUMP, talon_top=talon_top), rules)


# ----------------------------------------------------------------- card and move text
@pytest.mark.parametrize("text", ["", "ZZ", "OHX", "1H", "O", "11H", "KZ", "H O", "0H", "XX"])
def test_card_parse_refuses_bad_text(text: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.parse(text)
    assert isinstance(info.value, TartliError) and isinstance(info.value, ValueError)
    assert str(info.value).startswith("C1: ")
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("value", [None, 5, b"OH", ["OH"]])
def test_card_parse_refuses_non_strings(value: Any) -> None:
    with pytest.raises(InvalidCardError, match=r"^C1: "):
        Card.parse(value)


def test_card_parse_accepts_aliases() -> None:
    assert str(Card.parse("10h")) == "XH" and str(Card.parse("TA")) == "XA" and str(Card.parse(" oh ")) == "OH"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "player"),
        ("play AH", "player"),
        ("2: play AH", "player"),
        ("-1: play AH", "player"),
        ("0 play AH", "player"),
        ("0:", "no action"),
        ("0: play", "one card"),
        ("0: play AH KH", "one card"),
        ("0: play ZZ", "C1"),
        ("0: dance", "unknown action"),
        ("0: swap now", "takes nothing"),
        ("1: out 501", "takes nothing"),
        ("0: declare", "at least one meld"),
        ("0: declare kvart:ZZ", "M1/M2"),
        ("0: declare vannak:8", "M1/M2"),
        ("0: declare terc:8A", "M1/M2"),
    ],
)
def test_parse_move_refuses_bad_text(text: str, needle: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_move(text)
    assert isinstance(info.value, TartliError) and isinstance(info.value, ValueError)
    assert needle in str(info.value)


@pytest.mark.parametrize("text", ["0: declare vannak:7", "0: declare kvart:8A", "0: declare okt:KA", "0: declare terc"])
def test_parse_move_refuses_melds_that_cannot_exist(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="M1/M2"):
        parse_move(text)


@pytest.mark.parametrize("value", [None, 3, ("0", "play AH")])
def test_parse_move_refuses_non_strings(value: Any) -> None:
    with pytest.raises(InvalidMoveError):
        parse_move(value)


def test_push_and_is_legal_refuse_unreadable_moves_without_change() -> None:
    state = HandState.from_seed(5)
    before = snapshot(state)
    for bad in ["0: dance", "x", "2: play AH", "0: play QQ"]:
        assert not state.is_legal(bad)
        with pytest.raises(InvalidMoveError):
            state.push(bad)
    with pytest.raises(InvalidMoveError):
        state.push(Play(2, CARDS[0]))  # type: ignore[arg-type]
    assert snapshot(state) == before


# ----------------------------------------------------------------- plays (D3, K1, T2, T4)
def test_wrong_player_plays_before_the_lead() -> None:
    state = deal_a()  # dealer 1, so player 0 leads (D3)
    before = snapshot(state)
    assert not state.is_legal("1: play UL")
    with pytest.raises(IllegalMoveError) as info:
        state.push("1: play UL")
    # K1 is the order of a trick (the conformance vector rand_0068 expects K1 here).
    assert info.value.rule == "K1"
    assert str(info.value).startswith(f"{info.value.rule}: ")
    assert "player 0" in str(info.value)
    assert snapshot(state) == before


def test_leader_cannot_play_twice() -> None:
    state = deal_a()
    state.push("0: play 8L")
    refuse(state, "0: play OA", "K1", "player 1 plays next")


def test_card_not_held_in_phase_1_is_k1() -> None:
    # RULES.md notes: the ID is the rule that forbids the move; a player plays a card of their hand (K1).
    state = deal_a()
    refuse(state, "0: play AH", "K1", "do not hold", "AH")
    state.push("0: play 8L")
    refuse(state, "1: play 8L", "K1", "do not hold")
    refuse(state, "1: play OA", "K1", "do not hold")


def _phase2_second(state: HandState) -> bool:
    return state.trick_number >= 8 and state.lead is not None


def test_t4_must_follow_suit() -> None:
    def pred(s: HandState) -> bool:
        if not _phase2_second(s):
            return False
        assert s.lead is not None and s.to_move is not None
        hand = s.hand(s.to_move)
        return any(c.suit is s.lead.suit for c in hand) and any(c.suit is not s.lead.suit for c in hand)

    state = find_state(RuleSet.hungarian(), pred)
    p, lead = state.to_move, state.lead
    assert p is not None and lead is not None
    other = next(c for c in state.hand(p) if c.suit is not lead.suit)
    refuse(state, f"{p}: play {other}", "T4", "must follow suit")
    plays = [m for m in state.legal_moves() if isinstance(m, Play)]
    assert plays and all(m.card.suit is lead.suit for m in plays)


def test_t4_must_trump_when_void() -> None:
    def pred(s: HandState) -> bool:
        if not _phase2_second(s):
            return False
        assert s.lead is not None and s.to_move is not None
        hand = s.hand(s.to_move)
        return (
            s.lead.suit is not s.trump
            and not any(c.suit is s.lead.suit for c in hand)
            and any(c.suit is s.trump for c in hand)
            and any(c.suit is not s.trump for c in hand)
        )

    state = find_state(RuleSet.hungarian(), pred)
    p = state.to_move
    assert p is not None
    plain = next(c for c in state.hand(p) if c.suit is not state.trump)
    refuse(state, f"{p}: play {plain}", "T4", "must play a trump")
    plays = [m for m in state.legal_moves() if isinstance(m, Play)]
    assert plays and all(m.card.suit is state.trump for m in plays)


def test_card_not_held_in_phase_2_is_k1_for_the_leader_too() -> None:
    # A leader reading "T4" would read "you must follow suit": the ID is K1.
    state = find_state(RuleSet.hungarian(), lambda s: s.trick_number == 9 and s.lead is None)
    p = state.to_move
    assert p is not None
    absent = next(c for c in CARDS if c not in state.hand(p))
    refuse(state, f"{p}: play {absent}", "K1", "do not hold")
    state.push(next(m for m in state.legal_moves() if isinstance(m, Play)))
    second = state.to_move
    assert second is not None
    absent = next(c for c in CARDS if c not in state.hand(second) and c != state.lead)
    refuse(state, f"{second}: play {absent}", "K1", "do not hold")


# ----------------------------------------------------------------- declarations (M, K)
def test_k3_second_player_must_be_able_to_beat_a_set() -> None:
    state = deal_a()
    state.push("0: declare vannak:O kvart:OA")
    state.push("0: play 8L")
    refuse(state, "1: declare terc:UL", "K3", "vannak")
    refuse(state, "1: declare terc:UH", "K3")


def test_k3_second_player_needs_a_sequence_at_least_as_long() -> None:
    state = deal_a()
    state.push("0: declare kvart:OA")
    state.push("0: play 8L")
    refuse(state, "1: declare terc:UL", "K3", "kvart")
    # after a leader's terc, the terc is allowed (equal length: K2 decides, leader's wins if plain)
    state2 = deal_a()
    state2.push("0: declare terc:OA")
    state2.push("0: play 8L")
    assert state2.is_legal("1: declare terc:UL")


def test_m7_declared_melds_must_be_held() -> None:
    state = deal_a()
    refuse(state, "0: declare vannak:U", "M7", "do not hold")
    refuse(state, "0: declare terc:UL", "M7", "Under of Leaves")
    refuse(state, "0: declare kvint:OA", "M7")
    state.push("0: play 8L")
    refuse(state, "1: declare vannak:O", "M7")
    refuse(state, "1: declare kvart:UL", "M7", "Eight of Leaves")


def test_m5_one_set_and_one_sequence_a_trick() -> None:
    state = deal_a()
    refuse(state, "0: declare vannak:O vannak:U", "M5", "one set")
    refuse(state, "0: declare terc:OA kvart:OA", "M5", "one sequence")
    state.push("0: declare vannak:O")
    refuse(state, "0: declare kvart:OA", "M5", "already")


def test_k1_declaration_steps() -> None:
    state = deal_a()
    refuse(state, "1: declare terc:UL", "K1", "after the lead")
    refuse(state, "0: pass", "K1")
    refuse(state, "1: pass", "K1")
    state.push("0: play 8L")
    refuse(state, "0: declare kvart:OA", "K1", "before leading")
    state.push("1: pass")
    refuse(state, "1: declare terc:UL", "K1", "passed")
    refuse(state, "1: pass", "K1")


def test_k6_a_set_and_a_sequence_score_once() -> None:
    state = deal_a()
    state.push("0: declare vannak:O kvart:OA")
    state.push("0: play 8L")
    state.push("1: play 7L")  # 8L beats 7L: player 0 leads again and draws KA, player 1 AA
    assert state.trick_winners == [0]
    assert state.meld_points == [250, 0]
    refuse(state, "0: declare vannak:O", "K6", "once")
    refuse(state, "0: declare kvart:OA", "K6", "twice")


def test_k7_same_suit_sequences() -> None:
    state = deal_a()
    state.push("0: declare kvart:OA")
    state.push("0: play 8L")
    state.push("1: play 7L")
    assert Card.parse("KA") in state.hand(0)  # O U X 9 + K of Acorns
    # K7 examples: after O-kvart, a higher-topped overlapping sequence is fine ...
    for ok in ("kvart:KA", "kvint:KA", "terc:KA"):
        assert state.is_legal(f"0: declare {ok}")
    # ... a lower top or the same top and shorter is refused
    refuse(state, "0: declare terc:UA", "K7")
    refuse(state, "0: declare terc:OA", "K7")


def test_k7_adjacent_sequence_refused_separated_allowed() -> None:
    # player 0 holds 9 8 7 and O U X of Hearts: after scoring 9-terc, the O-terc is adjacent (K7 example)
    state = HandState(make_deal("OH UH XH 9H 8H 7H 8L 7L 8A", "AA KA AL KL XL UL 9L AB KB", "9B", talon_top="AH KH"))
    state.push("0: declare terc:9H")
    state.push("0: play 8L")
    state.push("1: play KL")  # player 1 wins and draws AH; player 0 draws KH
    assert state.meld_points == [20, 0]
    state.push("1: play AA")
    state.push("0: play 8A")
    assert state.leader == 1
    state.push("1: play AL")
    refuse(state, "0: declare terc:OH", "K7")
    assert state.is_legal("0: declare terc:UH")  # overlapping, higher top (K7 a)
    assert state.is_legal("0: declare terc:KH")  # the X is the gap (K7 b)


def test_m4_no_declaration_after_trick_8() -> None:
    state = find_state(RuleSet.hungarian(), lambda s: s.trick_number == 9 and s.lead is None)
    p = state.to_move
    assert p is not None
    refuse(state, f"{p}: declare terc:AA", "M4", "tricks 1-8")
    state.push(first_play(state))
    refuse(state, f"{1 - p}: pass", "M4")
    refuse(state, f"{1 - p}: declare vannak:O", "M4")


def test_b1_bela_after_trick_8_and_twice() -> None:
    bela = find_state(
        RuleSet.hungarian(),
        lambda s: (
            s.trick_number == 9
            and any({c.text for c in s.hand(p)} >= {"K" + s.trump.value, "O" + s.trump.value} for p in (0, 1))
        ),
        range(2000),
    )
    pair = {"K" + bela.trump.value, "O" + bela.trump.value}
    holder = next(p for p in (0, 1) if {c.text for c in bela.hand(p)} >= pair)
    refuse(bela, f"{holder}: bela", "B1", "trick 8")
    # twice in a hand
    state = HandState(make_deal("KB OB 7A 8A 9A 7L 8L 9L 7H", "AA KA AL KL XL UL AH KH XH", "9B"))
    state.push("0: play 7A")
    assert state.is_legal("0: bela")  # out of turn (player 1 is to play) is fine (B1)
    state.push("0: bela")
    assert state.meld_points == [40, 0]
    refuse(state, "0: bela", "B1", "once")


def test_m3_bela_needs_king_and_over_of_trumps() -> None:
    state = deal_a()  # player 0 holds OB, player 1 holds KB
    refuse(state, "0: bela", "M3", "King and Over")
    refuse(state, "1: bela", "M3")


def test_b1_bela_is_not_a_declared_meld_under_hungarian_rules() -> None:
    state = HandState(make_deal("KB OB 7A 8A 9A 7L 8L 9L 7H", "AA KA AL KL XL UL AH KH XH", "9B"))
    refuse(state, "0: declare bela", "B1")


def test_b2_bela_on_its_own_is_refused_under_pais() -> None:
    state = HandState(make_deal("KB OB 7A 8A 9A 7L 8L 9L 7H", "AA KA AL KL XL UL AH KH XH", "9B"), RuleSet.pais())
    refuse(state, "0: bela", "B2", "declare bela")
    assert state.is_legal("0: declare bela")
    refuse(state, "1: declare bela", "K1")  # not player 1's declaration step yet
    state.push("0: play 7A")
    refuse(state, "1: declare bela", "M3")


def test_b2_no_claim_while_totals_are_equal_after_both_reach_501_at_once() -> None:
    # pais: player 0 (451) scores a kvart 50, player 1 (461) béla 40 in the same contest: 501-501.
    deal = make_deal("OA UA XA 9A 7L 8L 9L 7H 8H", "KB OB KH OH UH AL KL AA KA", "9B")
    state = HandState(deal, RuleSet.pais(), scores=(451, 461))
    state.push("0: declare kvart:OA")
    state.push("0: play 7L")
    refuse(state, "1: declare bela terc:KH", "K3")  # a terc cannot answer a kvart
    state.push("1: declare bela")
    assert state.totals == (501, 501)
    refuse(state, "0: out", "B2", "equal")
    refuse(state, "1: out", "B2")
    assert all(str(m) != "1: out" for m in state.legal_moves())
    state.push("1: play AL")  # 1 wins 7L + AL = 11: the tie is broken
    assert state.totals == (501, 512)
    state.push("0: out")  # B2: valid, the higher total wins 1 buli
    assert result(state)["out"] == {"player": 0, "valid": True}
    assert state.buli == [0, 1]


# ----------------------------------------------------------------- swaps (T5, V7)
def test_t5_swap_refusals() -> None:
    state = deal_a()  # player 0 leads and holds 7B; indicator 9B
    refuse(state, "1: swap", "T5", "holder of the trump Seven")
    s2 = deal_a()
    s2.push("0: declare vannak:O")
    refuse(s2, "0: swap", "T5", "before declaring")
    s3 = deal_a()
    s3.push("0: play 8L")
    refuse(s3, "0: swap", "T5", "before leading")


def test_t5_only_the_leader_swaps() -> None:
    # player 1 holds the trump 7 but player 0 leads
    state = HandState(make_deal("OA OL OH OB UA XA 9A 8B 8L", "UL XL 9L AB KB UH XH 9H 7B", "9B"))
    refuse(state, "1: swap", "T5", "about to lead")
    state.push("0: play 8L")
    refuse(state, "1: swap", "T5")


def test_t5_no_swap_once_the_indicator_is_drawn() -> None:
    def pred(s: HandState) -> bool:
        seven = "7" + s.trump.value
        return s.trick_number == 8 and s.lead is None and seven in {c.text for c in s.hand(s.leader)}

    state = find_state(RuleSet.hungarian(), pred, range(3000))
    assert state.indicator is None
    refuse(state, f"{state.leader}: swap", "T5", "indicator has been drawn")


def test_v7_no_swap_after_declaring_a_sequence_with_the_trump_7() -> None:
    state = HandState(make_deal("9B 8B 7B OA UA AL 7L 8H 7H", "AA KA XL UL AH KH XH 8A 7A", "XB"), RuleSet.austrian())
    assert state.is_legal("0: swap")
    state.push("0: declare terc:9B")
    refuse(state, "0: swap", "V7", "trump Seven")
    refuse(state, "1: swap", "V7", "holder")


def test_v7_non_holder_cannot_swap_austrian() -> None:
    state = HandState.from_seed(3, RuleSet.austrian())
    seven = "7" + state.trump.value
    holders = [p for p in (0, 1) if seven in {c.text for c in state.hand(p)}]
    for p in (0, 1):
        if p not in holders:
            refuse(state, f"{p}: swap", "V7", "holder")


# ----------------------------------------------------------------- Austrian declarations (V3, V4, V5)
def test_v3_no_set_of_nines_austrian() -> None:
    deal = make_deal("9A 9L 9H 9B 7A 8A 7L 8L 7H", "AA KA AL KL XL UL AH KH XH", "OB")
    refuse(HandState(deal, RuleSet.austrian()), "0: declare vannak:9", "V3", "Nines")
    assert HandState(deal, RuleSet.hungarian()).is_legal("0: declare vannak:9")


def test_v4_several_sequences_must_be_in_different_suits() -> None:
    deal = make_deal("AA KA OA 9A 8A 7A 7L 8L 9L", "AL KL XL UL AH KH XH 8H 7H", "OB")
    state = HandState(deal, RuleSet.austrian())
    assert state.is_legal("0: declare terc:AA terc:9L")
    refuse(state, "0: declare terc:AA terc:9A", "V4", "different suit")
    refuse(HandState(deal), "0: declare terc:AA terc:9L", "M5", "one sequence")


def test_v5_no_sequence_inside_a_scored_one() -> None:
    state = HandState(make_deal(A0, A1, A_TRUMP, talon_top="KA AA"), RuleSet.austrian())
    state.push("0: declare kvart:OA")
    state.push("0: play 8L")
    state.push("1: play 7L")
    refuse(state, "0: declare terc:UA", "V5", "inside")
    refuse(state, "0: declare terc:OA", "V5")
    assert state.is_legal("0: declare kvart:KA")


# ----------------------------------------------------------------- the hand has ended (S1, S4)
def test_moves_after_a_finished_hand_are_refused() -> None:
    state = HandState.from_seed(21)
    while not state.is_over:
        state.push(first_play(state))
    assert state.status is Status.FINISHED
    assert state.legal_moves() == () and state.legal_moves(0) == () and state.legal_moves(1) == ()
    for move in ["0: play AA", "1: play AA", "0: out", "1: bela", "0: swap", "1: pass", "0: declare vannak:O"]:
        refuse(state, move, "S1", "16 tricks")


def test_moves_after_a_claim_are_refused() -> None:
    state = HandState.from_seed(21)
    state.push("1: out")
    assert state.status is Status.OUT
    assert result(state)["out"] == {"player": 1, "valid": False}
    for move in ["0: play AA", "0: out", "1: out", "1: bela", "0: swap", "1: pass"]:
        refuse(state, move, "S4", "went out")


def test_pop_with_no_moves() -> None:
    with pytest.raises(IllegalMoveError, match=r"^K1: "):
        HandState.from_seed(1).pop()


# ----------------------------------------------------------------- deals (C1, D1, D2, S1)
FULL = [str(c) for c in CARDS]


def _deal_args(h0: list[str], h1: list[str], trump: str, talon: list[str], dealer: Any = 1) -> Deal:
    return Deal(
        dealer,
        (tuple(Card.parse(c) for c in h0), tuple(Card.parse(c) for c in h1)),
        Card.parse(trump),
        tuple(Card.parse(c) for c in talon),
    )


def test_deal_with_a_short_hand() -> None:
    with pytest.raises(InvalidDealError, match=r"^D1: player 1 holds 8 cards; a hand is dealt 9$"):
        _deal_args(FULL[:9], FULL[9:17], FULL[18], FULL[19:])


def test_deal_with_a_short_talon() -> None:
    with pytest.raises(InvalidDealError, match=r"^D1: the talon has 12"):
        _deal_args(FULL[:9], FULL[9:18], FULL[18], FULL[19:31])


def test_deal_with_a_duplicate_card() -> None:
    talon = [*FULL[19:31], FULL[0]]  # 31 distinct cards, AA twice, 8B missing
    with pytest.raises(InvalidDealError) as info:
        _deal_args(FULL[:9], FULL[9:18], FULL[18], talon)
    assert str(info.value).startswith("C1: ")
    assert "AA" in str(info.value) and "twice" in str(info.value)


def test_deal_with_indicator_also_in_a_hand() -> None:
    with pytest.raises(InvalidDealError, match=r"^C1: .*twice"):
        _deal_args(FULL[:9], FULL[9:18], FULL[0], FULL[19:])


def test_deal_with_a_non_card() -> None:
    with pytest.raises(InvalidDealError, match=r"^C1: "):
        Deal(1, ((*CARDS[:8], "OH"), tuple(CARDS[9:18])), CARDS[18], tuple(CARDS[19:]))  # type: ignore[arg-type]


@pytest.mark.parametrize("dealer", [2, -1, True, None])
def test_deal_with_a_bad_dealer(dealer: Any) -> None:
    with pytest.raises(InvalidDealError, match=r"^D2: "):
        _deal_args(FULL[:9], FULL[9:18], FULL[18], FULL[19:], dealer)


def test_deal_errors_are_tartli_errors() -> None:
    assert issubclass(InvalidDealError, TartliError) and issubclass(InvalidDealError, ValueError)
    with pytest.raises(InvalidDealError, match=r"^V1: "):
        Deal.from_seed(1, indicator_packet=7)


@pytest.mark.parametrize("scores", [(-1, 0), (0,), (0, 0, 0), (1.5, 0), ("0", 0)])
def test_hand_with_bad_running_scores(scores: Any) -> None:
    with pytest.raises(InvalidDealError, match=r"^S1: "):
        HandState(Deal.from_seed(1), None, scores)


# ----------------------------------------------------------------- records
def _example() -> dict[str, Any]:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _edit(**changes: Any) -> dict[str, Any]:
    data = _example()
    for key, value in changes.items():
        if value is _DROP:
            del data[key]
        else:
            data[key] = value
    return data


_DROP = object()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (_edit(format="tartli/2"), "format"),
        (_edit(format=_DROP), "format"),
        (_edit(format=1), "format"),
        (_edit(rules="bavarian"), "rules"),
        (_edit(rules=5), "rules"),
        (_edit(rules={"base": "austrian", "no_such_option": True}), "rules"),
        (_edit(rules={"base": "hungarian", "stichmatsch": "yes"}), "rules"),
        (_edit(rules={"base": "hungarian", "buli_target": 0}), "rules"),
        (_edit(rules={"base": "hungarian", "same_suit_rule": "french"}), "rules"),
        (_edit(rules={"base": "klaverjas"}), "rules"),
        (_edit(dealer=2), "dealer"),
        (_edit(dealer=_DROP), "dealer"),
        (_edit(dealer=True), "dealer"),
        (_edit(dealer="1"), "dealer"),
        (_edit(scores=[-1, 0]), "scores"),
        (_edit(scores=[0]), "scores"),
        (_edit(scores="0 0"), "scores"),
        (_edit(scores=[0.5, 0]), "scores"),
        (_edit(scores=[True, 0]), "scores"),
        (_edit(hands=_DROP), "hands"),
        (_edit(hands="AH"), "hands"),
        (_edit(hands=[["AH"]]), "hands"),
        (_edit(hands=[["ZZ", "XH", "KH", "OA", "UA", "9L", "8L", "7B", "XB"], _example()["hands"][1]]), "hands[0]"),
        (_edit(hands=[_example()["hands"][0], _example()["hands"][1][:8]]), "hands/trump/talon"),
        (_edit(trump=_DROP), "trump"),
        (_edit(trump="9Z"), "trump"),
        (_edit(trump="AH"), "hands/trump/talon"),  # AH is in hand 0 too: C1
        (_edit(talon=_DROP), "talon"),
        (_edit(talon="7H 8H"), "talon"),
        (_edit(talon=_example()["talon"][:12]), "hands/trump/talon"),
        (_edit(talon=[*_example()["talon"][:12], 3]), "talon"),
        (_edit(moves=_DROP), "moves"),
        (_edit(moves="0: play AH"), "moves"),
        (_edit(moves=["0: play AH", 5]), "moves"),
        (_edit(seed="7"), "seed"),
        (_edit(seed=7), "hands"),  # a seed and the cards
        (_edit(seed=7.0), "seed"),
        (_edit(comment="hi"), "comment"),
        (_edit(Moves=[]), "Moves"),
    ],
)
def test_malformed_record_names_the_field(data: dict[str, Any], field: str) -> None:
    with pytest.raises(RecordError) as info:
        Record.from_dict(data)
    assert str(info.value).startswith(f"{field}: ") or str(info.value).startswith(f"{field} "), str(info.value)
    with pytest.raises(RecordError):
        Record.from_json(json.dumps(data))
    assert isinstance(info.value, TartliError) and isinstance(info.value, ValueError)


def test_record_with_a_duplicate_card_names_c1() -> None:
    data = _example()
    data["talon"][0] = data["hands"][0][0]
    with pytest.raises(RecordError) as info:
        Record.from_dict(data)
    assert str(info.value).startswith("hands/trump/talon: C1: ")


@pytest.mark.parametrize("moved", [1, -1])
def test_deal_with_cards_moved_between_hand_1_and_talon(moved: int) -> None:
    h1, talon = FULL[9:18], FULL[19:]
    if moved == 1:  # hand 1 gives a card to the talon: 9 + 8 + 1 + 14
        h1, talon = h1[:8], [h1[8], *talon]
    else:  # hand 1 takes one: 9 + 10 + 1 + 12
        h1, talon = [*h1, talon[0]], talon[1:]
    with pytest.raises(InvalidDealError, match=r"^D1: "):
        _deal_args(FULL[:9], h1, FULL[18], talon)


def test_record_with_a_short_hand_names_d1() -> None:
    data = _example()
    data["talon"].append(data["hands"][1].pop())
    with pytest.raises(RecordError) as info:
        Record.from_dict(data)
    assert "D1" in str(info.value)


@pytest.mark.parametrize("text", ["", "{", "not json", "{'format': 'tartli/1'}", '{"format": "tartli/1",}'])
def test_record_that_is_not_json(text: str) -> None:
    with pytest.raises(RecordError, match=r"^not JSON: "):
        Record.from_json(text)


@pytest.mark.parametrize("text", ["[]", "1", '"tartli/1"', "null"])
def test_record_that_is_not_an_object(text: str) -> None:
    with pytest.raises(RecordError, match="object"):
        Record.from_json(text)


def test_record_load_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no such file"):
        Record.load(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path)
    bad = tmp_path / "latin1.json"
    bad.write_bytes('{"format": "tartli/1", "x": "é"}'.encode("latin-1"))
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(bad)


def test_record_load_takes_a_path_and_never_a_file_descriptor(tmp_path: Path) -> None:
    # Record.load(1) used to open file descriptor 1, read nothing and close the caller's stdout.
    for not_a_path in (1, 0, True, b"record.json", None, 1.5):
        with pytest.raises(ArgumentError, match=r"a path is a str or a pathlib\.Path"):
            Record.load(not_a_path)  # type: ignore[arg-type]
    os.fstat(1)  # still open
    print("stdout still works", flush=True)
    with (
        EXAMPLE.open(encoding="utf-8") as file,
        pytest.raises(ArgumentError, match=r"Record.from_json\(file.read\(\)\)"),
    ):
        Record.load(file)  # type: ignore[arg-type]
    assert Record.load(str(EXAMPLE)) == Record.load(EXAMPLE)  # a str or a Path


def test_record_load_refuses_a_fifo_without_opening_it(tmp_path: Path) -> None:
    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)  # no writer: open() would wait for ever
    with pytest.raises(RecordError, match="a FIFO, not a regular file"):
        Record.load(fifo)


def test_record_save_refuses_a_path_it_cannot_write(tmp_path: Path) -> None:
    record = Record.from_json(EXAMPLE.read_text(encoding="utf-8"))
    for where in (tmp_path, tmp_path / "missing" / "r.json", tmp_path / "nul\x00.json"):
        with pytest.raises(ArgumentError, match="cannot write the record there"):
            record.save(where)
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no temporary file left behind
    with pytest.raises(ArgumentError):
        record.save(1)  # type: ignore[arg-type]
    record.save(tmp_path / "r.json")
    assert Record.load(tmp_path / "r.json") == record


def test_push_many_refused_leaves_the_state_as_it_was() -> None:
    state = HandState.from_seed(7)
    before = snapshot(state)
    with pytest.raises(TartliError):
        state.push_many([state.legal_moves()[0], "1: dance"])
    assert snapshot(state) == before


def test_next_hand_refused_leaves_the_match_as_it_was() -> None:
    match = tartli.Match(seed=2, first_dealer=1)
    match.state.push("0: out")  # a wrong claim: the hand is over
    before = (match.scores, match.buli, match.dealer, len(match.results), snapshot(match.state))
    wrong_dealer = Deal.from_seed(3, dealer=1)  # player 0 deals next
    for deal, packet in ((wrong_dealer, 6), ("deal", 6), (None, 0), (None, "6")):
        with pytest.raises(TartliError):
            match.next_hand(deal, packet)  # type: ignore[arg-type]
        assert (match.scores, match.buli, match.dealer, len(match.results), snapshot(match.state)) == before
    match.next_hand(Deal.from_seed(3, dealer=0))


def test_replay_error_has_the_index_and_cause() -> None:
    data = _edit(moves=["0: play AH", "1: play 9H", "0: play ZZ"])
    with pytest.raises(ReplayError) as info:
        Record.from_dict(data).replay()
    assert info.value.index == 2
    assert isinstance(info.value.cause, InvalidMoveError)
    assert str(info.value).startswith('move 2 "0: play ZZ": ')
    data = _edit(moves=["0: play AH", "1: play 9H", "1: play KB"])
    with pytest.raises(ReplayError) as info2:
        Record.from_dict(data).replay()
    assert info2.value.index == 2
    assert isinstance(info2.value.cause, IllegalMoveError)


@pytest.mark.rule("T4")
@pytest.mark.parametrize(("suit", "word"), [("A", "an Acorn"), ("L", "a Leaf"), ("H", "a Heart"), ("B", "a Bell")])
def test_t4_messages_use_the_right_article(suit: str, word: str) -> None:
    def pred(s: HandState) -> bool:
        if not _phase2_second(s):
            return False
        assert s.lead is not None and s.to_move is not None
        hand = s.hand(s.to_move)
        if s.lead.suit.value == suit:  # must follow: "you hold an Acorn"
            return any(c.suit is s.lead.suit for c in hand) and any(c.suit is not s.lead.suit for c in hand)
        return (  # must trump, trumps being ``suit``: "you hold an Acorn"
            s.trump.value == suit
            and not any(c.suit is s.lead.suit for c in hand)
            and any(c.suit is s.trump for c in hand)
            and any(c.suit is not s.trump for c in hand)
        )

    state = find_state(RuleSet.hungarian(), pred, range(3000))
    p = state.to_move
    assert p is not None
    allowed = {m.card for m in state.legal_moves() if isinstance(m, Play)}
    wrong = next(c for c in state.hand(p) if c not in allowed)
    err = refuse(state, f"{p}: play {wrong}", "T4")
    assert str(err).endswith(f"you hold {word}")


@pytest.mark.rule("B2")
def test_b2_a_second_bela_under_pais_cites_b2() -> None:
    state = HandState(
        make_deal("KB OB 7H 8H 9L UL 7A 8A XL", "AH XH AL OL 8L 7L AB UB XA", "9B", dealer=1), RuleSet.pais()
    )
    state.push_many(["0: declare bela", "0: play 7H", "1: play AH"])  # the silent Ace decides: béla scores
    assert state.meld_points == [40, 0]
    state.push("1: play XA")
    refuse(state, "0: declare bela", "B2", "once")


def _kind(path: Path) -> tuple[int, int, bytes | str]:
    """What ``path`` is, as itself (not what it points to): its mode, its device, and its content
    or link target (a FIFO or a device: nothing read)."""
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        return info.st_mode, info.st_rdev, os.readlink(path)
    return info.st_mode, info.st_rdev, path.read_bytes() if stat.S_ISREG(info.st_mode) else b""


def test_record_save_refuses_a_name_that_is_not_a_regular_file(tmp_path: Path) -> None:
    """A symbolic link, a FIFO and a device node are refused as Record.load refuses them, each left
    as it was (save once replaced each with a regular file: run as root, /dev/zero became JSON)."""
    record = Record.from_json(EXAMPLE.read_text(encoding="utf-8"))
    kept = tmp_path / "kept.json"
    kept.write_text("{}", encoding="utf-8")
    (tmp_path / "link.json").symlink_to(kept)
    (tmp_path / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    os.mkfifo(tmp_path / "fifo.json")
    names = ["link.json", "dangling.json", "fifo.json"]
    try:  # a device node of our own (the same as /dev/null): the machine's own are never a target here
        os.mknod(tmp_path / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
        names.append("null")
    except PermissionError:  # not root: the FIFO and the links still are tested
        pass
    before = {name: _kind(tmp_path / name) for name in names}
    for name, match in [
        ("link.json", "a symbolic link, not a regular file"),
        ("dangling.json", "a symbolic link, not a regular file"),
        ("fifo.json", "a FIFO, not a regular file"),
        ("null", "a device, not a regular file"),
    ]:
        if name in names:
            with pytest.raises(ArgumentError, match=f"cannot write the record there: it is {match}"):
                record.save(tmp_path / name)
    assert {name: _kind(tmp_path / name) for name in names} == before
    assert kept.read_text(encoding="utf-8") == "{}"
    assert not (tmp_path / "nowhere.json").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*names, "kept.json"])  # no temporary file left
    # A regular file and a new name are written as before.
    record.save(kept)
    record.save(tmp_path / "new.json")
    assert Record.load(kept) == Record.load(tmp_path / "new.json") == record
