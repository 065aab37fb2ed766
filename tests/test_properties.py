"""Property tests: random legal hands from random seeds under every rule set.

At every step of a random game (legal moves chosen uniformly, sometimes a move out of
turn, sometimes a claim) the invariants below must hold: the pack is conserved, hand and
talon sizes follow D1/T3, tricks are won and counted as C3/C4/T1 say (recomputed here
from the rule book's tables, not the engine's), is_legal agrees with legal_moves, illegal
moves are refused without a trace, copy/pop/replay round-trip.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tartli import (
    CARDS,
    Bela,
    Card,
    Declare,
    GoOut,
    HandState,
    IllegalMoveError,
    Move,
    Pass,
    Play,
    Record,
    RuleSet,
    Status,
    Swap,
    find_melds,
)
from tartli.melds import ALL_MELDS
from tartli.record import result

RULESETS = {
    "hungarian": RuleSet.hungarian(),
    "pais": RuleSet.pais(),
    "austrian": RuleSet.austrian(),
    "austrian+tens": RuleSet.austrian().replace(tens_below_unders=True),
}

# RULES.md C3 / C4, written out again here: rank -> (strength, points).
TRUMP_ORDER = "O9AXKU87"  # high to low
PLAIN_ORDER = "AXKOU987"
TRUMP_POINTS = {"O": 20, "9": 14, "A": 11, "X": 10, "K": 4, "U": 2, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "X": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}


def points(card: Card, trump: str) -> int:
    rank, suit = card.text[0], card.text[1]
    return (TRUMP_POINTS if suit == trump else PLAIN_POINTS)[rank]


def trick_winner(leader: int, lead: Card, second: Card, trump: str) -> int:
    """T1: highest trump, else highest card of the suit led."""
    ls, ss = lead.text[1], second.text[1]
    if ss == ls:
        order = TRUMP_ORDER if ls == trump else PLAIN_ORDER
        return 1 - leader if order.index(second.text[0]) < order.index(lead.text[0]) else leader
    return 1 - leader if ss == trump else leader


def check_invariants(state: HandState) -> None:
    trump = state.deal.indicator.text[1]
    tricks = state.tricks
    done = len(tricks)
    # C1: the 32 cards, each once
    where: list[Card] = [*state.hand(0), *state.hand(1), *state.talon]
    if state.indicator is not None:
        where.append(state.indicator)
    for _, a, b, _ in tricks:
        where += [a, b]
    if state.lead is not None:
        where.append(state.lead)
    assert sorted(where) == list(CARDS)
    # D1 / T3: sizes
    assert len(state.talon) == (13 - 2 * done if done < 7 else 0)
    assert (state.indicator is not None) == (done < 7)
    base = 9 if done < 7 else 16 - done
    for p in (0, 1):
        led = state.lead is not None and p == state.leader
        assert len(state.hand(p)) == base - led
    # T1 / C3 / C4: winners and card points, recomputed
    cp = [0, 0]
    leader = 1 - state.dealer  # D3
    for ld, a, b, w in tricks:
        assert ld == leader
        assert w == trick_winner(ld, a, b, trump)
        cp[w] += points(a, trump) + points(b, trump)
        leader = w
    assert state.trick_winners == [t[3] for t in tricks]
    if state.status is Status.FINISHED:
        assert done == 16
        cp[tricks[-1][3]] += 10  # C5
        assert sum(cp) == 161
        phase2 = {t[3] for t in tricks[7:]}
        if state.rules.stichmatsch and len(phase2) == 1:
            s = phase2.pop()
            assert state.stichmatsch == s
            assert state.card_points[s] == 161 and state.card_points[1 - s] == 0
        else:
            assert state.stichmatsch is None
            assert state.card_points == cp
        assert sum(state.card_points) == 161
        assert state.to_move is None and state.legal_moves() == ()
    else:
        assert state.stichmatsch is None
        for e in state.events:
            if e.kind == "uncounted":  # S3: a claim in the window; that trick counts for neither player
                won = tricks[e.trick - 1]
                assert state.status is Status.OUT and e.points == points(won[1], trump) + points(won[2], trump)
                cp[won[3]] -= e.points
        assert state.card_points == cp
        assert state.leader == leader
    # S1 / S3: running totals
    for p in (0, 1):
        assert state.total(p) == state.scores_in[p] + state.meld_points[p] + state.card_points[p]
    assert all(m >= 0 for m in state.meld_points)


def candidate_moves(state: HandState, p: int, rng: random.Random) -> list[Move]:
    """Plays of all 32 cards, swap, pass, bela, out, and declarations of melds."""
    out: list[Move] = [Play(p, c) for c in CARDS]
    out += [Swap(p), Pass(p), Bela(p), GoOut(p)]
    held = find_melds(state.hand(p), state.rules, state.trump)
    for m in held:
        out.append(Declare(p, (m,)))
    for _ in range(4):
        if held:
            out.append(Declare(p, tuple(rng.sample(held, min(len(held), rng.randint(1, 3))))))
        out.append(Declare(p, tuple(rng.sample(ALL_MELDS, rng.randint(1, 2)))))
    return out


def record_roundtrip(state: HandState) -> None:
    text = Record.from_state(state).to_json()
    again = Record.from_json(text).replay()
    assert result(again) == result(state)
    assert [str(m) for m in again.moves] == [str(m) for m in state.moves]
    assert again.hand(0) == state.hand(0) and again.hand(1) == state.hand(1)


def play_random_hand(
    seed: int,
    rules: RuleSet,
    dealer: int,
    scores: tuple[int, int],
    rng: random.Random,
    out_chance: float,
    off_turn_chance: float,
) -> HandState:
    state = HandState.from_seed(seed, rules, dealer=dealer, scores=scores)
    check_invariants(state)
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps < 200
        to_move = state.to_move
        assert to_move is not None
        # is_legal agrees with legal_moves for both players
        legal = {p: state.legal_moves(p) for p in (0, 1)}
        assert legal[to_move] == state.legal_moves()
        assert legal[to_move], "the player to move always has a move"
        assert any(isinstance(m, Play) for m in legal[to_move])
        assert not any(isinstance(m, Play) for m in legal[1 - to_move])
        assert result(state)["legal"] == sorted(str(m) for m in legal[to_move])
        for p in (0, 1):
            assert all(m.player == p for m in legal[p])
            assert len(set(legal[p])) == len(legal[p])
            for m in legal[p]:
                assert state.is_legal(m)
                assert state.is_legal(str(m))
            illegal = [m for m in candidate_moves(state, p, rng) if m not in legal[p]]
            for m in illegal:
                assert not state.is_legal(m), m
            for m in rng.sample(illegal, min(3, len(illegal))):
                before_result, before_moves = result(state), list(state.moves)
                before_hands = (state.hand(0), state.hand(1))
                try:
                    state.push(m)
                except IllegalMoveError as err:
                    assert str(err).startswith(f"{err.rule}: ")
                else:
                    raise AssertionError(f"{m} was accepted but is not in legal_moves")
                assert result(state) == before_result
                assert list(state.moves) == before_moves
                assert (state.hand(0), state.hand(1)) == before_hands
        # choose a move: sometimes out of turn, sometimes a claim, else uniform over to_move's
        r = rng.random()
        off_turn = [m for m in legal[1 - to_move] if not isinstance(m, GoOut)]
        if r < out_chance and any(isinstance(m, GoOut) for m in legal[to_move]):
            move: Move = GoOut(
                rng.choice([to_move, 1 - to_move]) if GoOut(1 - to_move) in legal[1 - to_move] else to_move
            )
        elif r < out_chance + off_turn_chance and off_turn:
            move = rng.choice(off_turn)
        else:
            move = rng.choice([m for m in legal[to_move] if not isinstance(m, GoOut)])
        # copy, then push on the copy: the original does not change
        if rng.random() < 0.3:
            before = (result(state), [str(m) for m in state.moves], state.hand(0), state.hand(1), state.talon)
            twin = state.copy()
            twin.push(move)
            for _ in range(3):
                if twin.is_over:
                    break
                twin.push(rng.choice(twin.legal_moves()))
            assert (result(state), [str(m) for m in state.moves], state.hand(0), state.hand(1), state.talon) == before
        before_result = result(state)
        n = len(state.moves)
        state.push(move)
        assert len(state.moves) == n + 1 and state.moves[-1] == move
        check_invariants(state)
        if rng.random() < 0.25:
            after = result(state)
            assert state.pop() == move
            assert result(state) == before_result
            assert len(state.moves) == n
            check_invariants(state)
            state.push(move)
            assert result(state) == after
    return state


def check_end(state: HandState) -> None:
    res = result(state)
    assert res["to_move"] is None and res["legal"] == []
    totals = state.totals
    if state.status is Status.OUT:
        assert state.out is not None
        p, valid = state.out
        assert res["out"] == {"player": p, "valid": valid}
        if totals[p] >= 501:
            assert valid  # S4
        if not valid:
            assert totals[p] < 501 and state.buli == [1 if q != p else 0 for q in (0, 1)]
        assert sum(state.buli) in (1, 2)
    else:
        assert state.status is Status.FINISHED and state.out is None and res["out"] is None
        a, b = totals
        if a < 501 and b < 501:
            assert state.buli == [0, 0]  # S5: nobody reached 501
        elif a != b:
            w = 0 if a > b else 1
            assert state.buli[w] in (1, 2) and state.buli[1 - w] == 0
        else:
            assert state.buli == [0, 0]


score_pairs = st.one_of(
    st.just((0, 0)),
    st.tuples(st.integers(0, 500), st.integers(0, 500)),
    st.tuples(st.integers(380, 500), st.integers(380, 500)),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    rules=st.sampled_from(sorted(RULESETS)),
    dealer=st.integers(0, 1),
    scores=score_pairs,
    rng=st.randoms(use_true_random=False),
    out_chance=st.sampled_from([0.0, 0.01, 0.05]),
    off_turn_chance=st.sampled_from([0.0, 0.1, 0.3]),
)
def test_random_hands_keep_every_invariant(
    seed: int,
    rules: str,
    dealer: int,
    scores: tuple[int, int],
    rng: random.Random,
    out_chance: float,
    off_turn_chance: float,
) -> None:
    state = play_random_hand(seed, RULESETS[rules], dealer, scores, rng, out_chance, off_turn_chance)
    check_end(state)
    record_roundtrip(state)
    # a prefix of the hand replays to the same result as popping back to it
    cut = rng.randint(0, len(state.moves))
    prefix = Record.from_state(state)
    prefix.moves = prefix.moves[:cut]
    replayed = Record.from_json(prefix.to_json()).replay()
    popped = state.copy()
    while len(popped.moves) > cut:
        popped.pop()
    assert result(replayed) == result(popped)
    check_invariants(replayed)
    record_roundtrip(replayed)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(sorted(RULESETS)), rng=st.randoms(use_true_random=False))
def test_played_out_hands_share_161_card_points(seed: int, rules: str, rng: random.Random) -> None:
    """Only plays (no claims): every hand reaches 16 tricks and C5's 161 (S2: 161 and 0)."""
    state = HandState.from_seed(seed, RULESETS[rules])
    while not state.is_over:
        plays = [m for m in state.legal_moves() if isinstance(m, Play)]
        state.push(rng.choice(plays))
        check_invariants(state)
    assert state.status is Status.FINISHED
    assert sum(state.card_points) == 161
    if state.stichmatsch is not None:
        assert sorted(state.card_points) == [0, 161]
        assert RULESETS[rules].stichmatsch  # V9: never under the Austrian rules
    assert state.meld_points == [0, 0]
    check_end(state)
    record_roundtrip(state)


def _snapshot(state: HandState) -> Any:
    return (result(state), [str(m) for m in state.moves], state.tricks, state.hand(0), state.hand(1))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(sorted(RULESETS)), rng=st.randoms(use_true_random=False))
def test_pop_all_the_way_back_to_the_deal(seed: int, rules: str, rng: random.Random) -> None:
    state = HandState.from_seed(seed, RULESETS[rules])
    history = [_snapshot(state)]
    while not state.is_over:
        state.push(rng.choice(state.legal_moves()))
        history.append(_snapshot(state))
    history.pop()
    while state.moves:
        state.pop()
        assert _snapshot(state) == history.pop()
    assert _snapshot(HandState.from_seed(seed, RULESETS[rules])) == _snapshot(state)
