"""Composites: hand, trick, meld and table SVG; what a player's table may show; Jupyter reprs; golden files."""

from __future__ import annotations

import os
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tartli import CARDS, Card, HandState, Meld, RuleSet, Suit
from tartli.moves import GoOut
from tartli.render.table import hand_svg, meld_svg, state_svg, table_svg, trick_svg

GOLDEN = Path(__file__).parent / "data" / "golden"
SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def face_up_cards(svg: str) -> set[str]:
    """The cards drawn face up: every nested card <svg> carries data-card."""
    return {e.get("data-card", "") for e in parse(svg).iter(f"{SVG}svg") if e.get("data-card")}


def random_states(count: int, seed: int = 5) -> list[HandState]:
    rng = random.Random(seed)
    states = []
    for n in range(count):
        rules = [RuleSet.hungarian(), RuleSet.pais(), RuleSet.austrian()][n % 3]
        state = HandState.from_seed(100 + n, rules)
        for _ in range(rng.randrange(0, 40)):
            moves = [m for m in state.legal_moves() if not isinstance(m, GoOut)]
            if not moves:
                break
            state.push(rng.choice(moves))
        states.append(state)
    return states


def test_hand_svg_draws_each_card_once_with_states() -> None:
    cards = [Card.parse(c) for c in ("OH", "9H", "AA", "7B")]
    svg = hand_svg(cards, trump=Suit.HEARTS, playable=cards[:2], selected=[cards[2]], highlighted=[cards[3]])
    root = parse(svg)
    assert face_up_cards(svg) == {"OH", "9H", "AA", "7B"}
    assert root.get("aria-label") == "Over of Hearts, Nine of Hearts, Ace of Acorns, Seven of Bells"
    classes = {e.get("data-card"): e.get("class", "") for e in root.iter(f"{SVG}svg") if e.get("data-card")}
    assert "playable" in classes["OH"].split() and "trump" in classes["OH"].split()
    assert "unplayable" in classes["AA"].split() and "selected" in classes["AA"].split()
    assert "highlighted" in classes["7B"].split() and "trump" not in classes["7B"].split()


def test_face_down_hand_reveals_nothing() -> None:
    cards = [Card.parse(c) for c in ("OH", "9H", "AA")]
    svg = hand_svg(cards, face_down=True)
    assert face_up_cards(svg) == set()
    for card in cards:
        assert card.text not in svg and card.name() not in svg
    assert parse(svg).get("aria-label", "").startswith("3 ")


@pytest.mark.rule("M1", "M2")
def test_meld_svg_names_the_meld_and_value() -> None:
    svg = meld_svg(Meld.parse("kvart:OA"))
    assert face_up_cards(svg) == {"OA", "UA", "XA", "9A"}
    assert "Acorn-Over-Kvart · 50" in svg
    hu = meld_svg(Meld.parse("vannak:U"), language="hu")
    assert "alsó vannak · 100" in hu and face_up_cards(hu) == {"UA", "UL", "UH", "UB"}


@pytest.mark.rule("M3")
def test_bela_meld_needs_the_trump_suit_for_its_cards() -> None:
    assert face_up_cards(meld_svg(Meld.parse("bela"), Suit.BELLS)) == {"KB", "OB"}
    assert face_up_cards(meld_svg(Meld.parse("bela"))) == set()


def test_trick_svg_labels_who_played_what() -> None:
    svg = trick_svg(Card.parse("AH"), Card.parse("9H"), leader=1)
    assert face_up_cards(svg) == {"AH", "9H"}
    assert parse(svg).get("aria-label") == "Player 1: Ace of Hearts; Player 0: Nine of Hearts"


def test_table_for_one_player_never_shows_the_other_hand() -> None:
    for state in random_states(30):
        for me in (0, 1):
            svg = state_svg(state, me, show_slate=False)
            shown = face_up_cards(svg)
            theirs = {c.text for c in state.hand(1 - me)}
            assert not shown & theirs, (state.moves, shown & theirs)
            mine = {c.text for c in state.hand(me)}
            assert mine <= shown
            public = set()
            if state.indicator is not None:
                public.add(state.indicator.text)
            if state.lead is not None:
                public.add(state.lead.text)
            assert shown == mine | public


def test_reveal_shows_both_hands_for_teaching() -> None:
    state = HandState.from_seed(9)
    svg = state_svg(state, 0, reveal=True, show_slate=False)
    both = {c.text for c in state.hand(0) + state.hand(1)}
    assert both <= face_up_cards(svg)


def test_table_marks_the_playable_cards_of_the_player_to_move() -> None:
    state = HandState.from_seed(12)
    for _ in range(14):  # into phase 1 with a lead on the table
        state.push(next(m for m in state.legal_moves() if not isinstance(m, GoOut)))
    while state.lead is None:
        state.push([m for m in state.legal_moves() if not isinstance(m, GoOut)][-1])
    me = state.to_move
    assert me is not None
    root = parse(state_svg(state, me, show_slate=False))
    classes = {e.get("data-card"): e.get("class", "").split() for e in root.iter(f"{SVG}svg") if e.get("data-card")}
    playable = {m.card.text for m in state.legal_moves() if hasattr(m, "card")}
    for card in state.hand(me):
        assert ("playable" in classes[card.text]) == (card.text in playable)


def test_table_label_and_texts_in_each_language() -> None:
    state = HandState.from_seed(4)
    for language, word in (("en", "trump"), ("hu", "adu"), ("de", "Trumpf")):
        svg = table_svg(state.view(0), language=language, show_slate=False)
        parse(svg)
        assert word in svg
        assert state.trump.name_in(language) in svg  # type: ignore[arg-type]


def test_every_rendering_is_offline_and_raster_free() -> None:
    state = random_states(1)[0]
    for svg in (state_svg(state, 0, show_slate=False), meld_svg(Meld.parse("okt:AB")), hand_svg(CARDS[:9])):
        assert "<image" not in svg and "href" not in svg and "url(" not in svg
        assert svg.count("http") == svg.count("http://www.w3.org/2000/svg")


def test_card_meld_and_hand_have_jupyter_reprs() -> None:
    state = HandState.from_seed(2)
    assert face_up_cards(state.hand(0)._repr_svg_()) == {c.text for c in state.hand(0)}
    assert 'data-card="OH"' in Card.parse("OH")._repr_svg_()
    assert "Heart-King-Terc" in Meld.parse("terc:KH")._repr_svg_()


# ------------------------------------------------------------------ golden files
GOLDEN_CASES = {
    "card_OH.svg": lambda: Card.parse("OH")._repr_svg_(),
    "meld_kvart_OA_hu.svg": lambda: meld_svg(Meld.parse("kvart:OA"), language="hu"),
    "table_seed1_player0.svg": lambda: state_svg(HandState.from_seed(1), 0, show_slate=False),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_rendering(name: str) -> None:
    """A few renderings are kept as files; set TARTLI_UPDATE_GOLDEN=1 to rewrite them after a deliberate change."""
    got = GOLDEN_CASES[name]()
    path = GOLDEN / name
    if os.environ.get("TARTLI_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert got == path.read_text(encoding="utf-8"), f"{name} changed: look at it, then update the golden file"


def test_the_phone_table_draws_the_talon_across_the_indicator() -> None:
    """Issue 36 item 8: lesson 03 and lesson 10 say the talon lies across the trump indicator; the
    phone's table drew the indicator alone. It draws the talon's backs across it while cards are left
    in it, and none once it is empty (phase 2)."""
    for state in random_states(30):
        view = state.view(0)
        svg = table_svg(view, narrow=True)
        backs = svg.count('aria-label="face-down card"')
        talon_backs = backs - view.opponent_hand_size
        if view.talon_size and view.indicator is not None:
            assert talon_backs == min(view.talon_size, 3), (view.talon_size, talon_backs)
        else:
            assert talon_backs == 0


def test_the_tables_talon_number_counts_the_indicator_as_d1_does() -> None:
    """The walk-through of issue 36: the table said "talon: 13" beside a lesson (and the deal quiz) that
    count the talon as 14 cards, the indicator under them included (D1). Both tables say 14 now."""
    state = HandState.from_seed(1)
    for narrow in (False, True):
        svg = table_svg(state.view(0), narrow=narrow)
        assert "talon: 14" in svg and "talon: 13" not in svg


def test_a_table_watched_shows_both_hands_face_down_and_names_both_players() -> None:
    """A teacher watching two pupils' game (issue 38): neither hand is in the markup, both counted as backs."""
    import dataclasses
    import re

    import pytest

    from tartli.bots import HeuristicBot
    from tartli.game import HandState
    from tartli.render.table import table_svg

    state = HandState.from_seed(7)
    for _ in range(9):
        state.push(HeuristicBot().choose(state.view(state.to_move)))
    view = state.view(0)
    with pytest.raises(ValueError):
        table_svg(view, watching=9)
    hidden = dataclasses.replace(view, hand=(), legal_moves=())
    held = {c.text for p in (0, 1) for c in state.hand(p)}
    for narrow in (False, True):
        svg = table_svg(hidden, player_names=("Anna", "Bence"), watching=len(state.hand(0)), narrow=narrow)
        assert not set(re.findall(r'data-card="(\w\w)"', svg)) & held
        assert f"Anna · {len(state.hand(0))} cards" in svg and "your hand" not in svg
        assert svg.count("face-down card") >= len(state.hand(0)) + len(state.hand(1))
        assert "The Tartli table of Anna and Bence, both hands face down" in svg


@pytest.mark.parametrize(("lang", "one", "many"), [("en", "1 card", "cards"), ("de", "1 Karte", "Karten")])
def test_a_hand_of_one_card_is_counted_in_the_singular(lang: str, one: str, many: str) -> None:
    """The opponent's hand size beside its name, on the wide and the narrow table: "Anna · 1 card", never
    "1 cards" / "1 Karten" (a hand played to its last trick showed it; found by reading the play in German)."""
    from tartli import i18n
    from tartli.bots import HeuristicBot

    state = HandState.from_seed(11)
    while not (state.to_move is not None and len(state.hand(1 - state.to_move)) == 1):
        assert state.to_move is not None, "the hand goes on to its last trick"
        state.push(HeuristicBot().choose(state.view(state.to_move)))
    me = state.to_move
    who = ("You", "Anna") if me == 0 else ("Anna", "You")
    i18n.set_language(lang)
    try:
        for narrow in (False, True):
            svg = table_svg(state.view(me), player_names=who, narrow=narrow, language=lang)  # type: ignore[arg-type]
            assert f"Anna · {one}" in svg, narrow
            assert f"1 {many}" not in svg, "also the accessible name: '1 cards in hand'"
    finally:
        i18n.set_language("en")
