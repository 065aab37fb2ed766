"""Bad arguments to the public API: a TartliError with a clear message, never an IndexError,
TypeError or AttributeError, and never an answer for the wrong player (``legal_moves(-1)``).

Hypothesis throws values of every kind at each entry point; a call either works or raises a
:class:`TartliError`, and a refused call leaves the hand as it was.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tartli import Card, Deal, HandState, Match, Meld, RuleSet, TartliError, names, parse_move
from tartli.errors import ArgumentError
from tartli.moves import Bela, Declare, GoOut, Pass, Play, Swap
from tartli.record import Record, result

ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.binary(max_size=8),
    st.lists(st.integers(-3, 3), max_size=4),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    st.sampled_from([0, 1, -1, 2, 0.0, 1.0, True, False, "0", "hungarian", "austrian", {}, [], (0, 0)]),
)


def _state() -> HandState:
    return HandState.from_seed(7)


CALLS = {
    "legal_moves": lambda s, a: s.legal_moves(a),
    "hand": lambda s, a: s.hand(a),
    "total": lambda s, a: s.total(a),
    "won_cards": lambda s, a: s.won_cards(a),
    "view": lambda s, a: s.view(a),
    "claim": lambda s, a: s.claim(a),
    "view_claim": lambda s, a: s.view(0).claim(a),
    "is_legal": lambda s, a: s.is_legal(a),
    "push": lambda s, a: s.push(a),
    "play": lambda s, a: s.push(Play(a, Card.parse("AH"))),
    "play_card": lambda s, a: s.push(Play(0, a)),
    "declare": lambda s, a: s.push(Declare(0, a)),
    "swap": lambda s, a: s.push(Swap(a)),
    "pass": lambda s, a: s.push(Pass(a)),
    "bela": lambda s, a: s.push(Bela(a)),
    "out": lambda s, a: s.push(GoOut(a)),
    "from_seed_rules": lambda s, a: HandState.from_seed(1, a),
    "from_seed_seed": lambda s, a: HandState.from_seed(a),
    "from_seed_dealer": lambda s, a: HandState.from_seed(1, dealer=a),
    "from_seed_scores": lambda s, a: HandState.from_seed(1, scores=a),
    "from_seed_packet": lambda s, a: HandState.from_seed(1, RuleSet.austrian(), indicator_packet=a),
    "hand_state": lambda s, a: HandState(a),
    "deal_dealer": lambda s, a: Deal(a, s.deal.hands, s.deal.indicator, s.deal.talon),
    "deal_hands": lambda s, a: Deal(1, a, s.deal.indicator, s.deal.talon),
    "deal_talon": lambda s, a: Deal(1, s.deal.hands, s.deal.indicator, a),
    "match_rules": lambda s, a: Match(a, seed=1),
    "match_seed": lambda s, a: Match(seed=a),
    "match_dealer": lambda s, a: Match(seed=1, first_dealer=a),
    "match_scores": lambda s, a: Match(seed=1, scores=a),
    "rules_named": lambda s, a: RuleSet.named(a),
    "rules_from_record": lambda s, a: RuleSet.from_record(a),
    "rules_option": lambda s, a: RuleSet.from_record({"base": "hungarian", "buli_target": a}),
    "card_parse": lambda s, a: Card.parse(a),
    "meld_parse": lambda s, a: Meld.parse(a),
    "parse_move": lambda s, a: parse_move(a),
    "card_name": lambda s, a: Card.parse("AH").name(a),
    "set_language": lambda s, a: names.resolve(a),
    "record": lambda s, a: Record.from_dict({"format": "tartli/1", "dealer": a, "seed": 1, "moves": []}),
    "record_seed": lambda s, a: Record.from_dict({"format": "tartli/1", "dealer": 1, "seed": a, "moves": []}),
    "record_moves": lambda s, a: Record.from_dict(
        {"format": "tartli/1", "dealer": 1, "seed": 1, "moves": [a]}
    ).replay(),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(arg=ANYTHING)
def test_bad_arguments_raise_a_tartli_error(name: str, arg: Any) -> None:
    state = _state()
    before = json.dumps(result(state)), [str(m) for m in state.moves]
    try:
        CALLS[name](state, arg)
    except TartliError as err:
        assert str(err) and len(str(err)) < 400  # a message, and a short one
        assert (json.dumps(result(state)), [str(m) for m in state.moves]) == before
    # Any other exception type fails the test: that is the point.


@pytest.mark.parametrize("player", [-1, 2, 1.0, True, None, "1"])
def test_legal_moves_never_answers_for_another_player(player: Any) -> None:
    state = _state()
    if player is None:
        assert state.legal_moves(player) == state.legal_moves(state.to_move)
        return
    with pytest.raises(ArgumentError, match="a player is 0 or 1"):
        state.legal_moves(player)


def test_the_issue_examples() -> None:
    state = _state()
    for call in (
        lambda: state.legal_moves(2),
        lambda: Play(0, None),  # type: ignore[arg-type]
        lambda: HandState.from_seed(1, dealer=0.0),  # type: ignore[arg-type]
        lambda: RuleSet.named({}),  # type: ignore[arg-type]
        lambda: HandState.from_seed(1, "austrian"),  # type: ignore[arg-type]
    ):
        with pytest.raises(TartliError):
            call()


def test_the_examples_of_issue_25() -> None:
    """Calls that raised AttributeError, TypeError, KeyError or IndexError from the engine's own code."""
    state = _state()
    before = json.dumps(result(state)), [str(m) for m in state.moves]
    for call in (
        lambda: Match.draw_for_dealer("AH"),  # type: ignore[arg-type]
        lambda: Card.from_index(2**64),
        lambda: Card.from_index(-1),  # not the last card
        lambda: Meld("x", rank=0, suit=7),  # type: ignore[arg-type]
        lambda: Record.from_json(31),  # type: ignore[arg-type]
        lambda: state.push_many(1),  # type: ignore[arg-type]
        lambda: state.push_many("0: play AH"),  # one move is push's
        lambda: Record.from_state("austrian", ""),  # type: ignore[arg-type]
        lambda: Record.load(1),  # type: ignore[arg-type]
    ):
        with pytest.raises(ArgumentError):
            call()
    assert (json.dumps(result(state)), [str(m) for m in state.moves]) == before
