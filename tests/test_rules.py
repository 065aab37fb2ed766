"""Rule tests: at least one test per RULES.md rule ID, each marked ``@pytest.mark.rule(...)``.

Expected values are worked out by hand from tests/data/RULES.md (the tables below
restate C3/C4 independently of the engine), never copied from engine output.
"""

from __future__ import annotations

import random

import pytest

from tartli import (
    CARDS,
    Card,
    Deal,
    Declare,
    HandState,
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    Match,
    Meld,
    Pass,
    Play,
    Record,
    RecordError,
    RuleSet,
    Status,
    TartliError,
    find_melds,
    result,
)
from tartli.game import Phase
from tartli.melds import same_suit_ok

# ---------------------------------------------------------------- the rule book, restated
TRUMP_ORDER = "O9AXKU87"  # C3, high to low
PLAIN_ORDER = "AXKOU987"  # C4, high to low
TRUMP_POINTS = {"O": 20, "9": 14, "A": 11, "X": 10, "K": 4, "U": 2, "8": 0, "7": 0}  # C3
PLAIN_POINTS = {"A": 11, "X": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}  # C4


def pts(card: Card, trump: str) -> int:
    table = TRUMP_POINTS if card.suit.value == trump else PLAIN_POINTS
    return table[card.rank.value]


def second_wins(lead: Card, second: Card, trump: str) -> bool:
    """T1 with the C3/C4 orders."""
    if second.suit == lead.suit:
        order = TRUMP_ORDER if lead.suit.value == trump else PLAIN_ORDER
        return order.index(second.rank.value) < order.index(lead.rank.value)
    return second.suit.value == trump


# ---------------------------------------------------------------- building positions
# Fillers: player 0's ranks K U 9 7 and player 1's ranks A O X 8 are never adjacent in
# C2 order, and each rank cycles the suits, so the fillers alone form no meld.
FILL0 = "7A 9L UH KB 7L 9H UB KA 7H 9B UA KL 7B 9A UL KH"
FILL1 = "8A XL OH AB 8L XH OB AA 8H XB OA AL 8B XA OL AH"


def cards(text: str | list[str]) -> list[Card]:
    return [Card.parse(c) for c in (text.split() if isinstance(text, str) else text)]


def make_deal(h0: str, h1: str, trump: str = "7B", talon: str = "", dealer: int = 1) -> Deal:
    """A deal with these hands (filled up to 9 from FILL0/FILL1), indicator ``trump``,
    and a talon that starts with ``talon`` (the rest in index order)."""
    hand0, hand1, top, ind = cards(h0), cards(h1), cards(talon), Card.parse(trump)
    used = {*hand0, *hand1, *top, ind}
    for hand, fill in ((hand0, FILL0), (hand1, FILL1)):
        for c in cards(fill):
            if len(hand) == 9:
                break
            if c not in used:
                hand.append(c)
                used.add(c)
    rest = [c for c in CARDS if c not in used]
    return Deal(dealer, (tuple(hand0), tuple(hand1)), ind, tuple(top + rest))


def make(
    h0: str,
    h1: str,
    trump: str = "7B",
    talon: str = "",
    dealer: int = 1,
    rules: RuleSet | None = None,
    scores: tuple[int, int] = (0, 0),
) -> HandState:
    return HandState(make_deal(h0, h1, trump, talon, dealer), rules or RuleSet.hungarian(), scores)


def push(state: HandState, *moves: str) -> HandState:
    for m in moves:
        state.push(m)
    return state


def play_trick(state: HandState, lead: str, second: str) -> None:
    state.push(f"{state.to_move}: play {lead}")
    state.push(f"{state.to_move}: play {second}")


def snapshot(state: HandState) -> tuple:
    return (
        result(state),
        list(state.moves),
        state.hand(0),
        state.hand(1),
        len(state.events),
        state.indicator,
        list(state.talon),
        state.declared,
        state.totals,
    )


def assert_refused(state: HandState, move: str, rule: str | tuple[str, ...]) -> None:
    """The move is illegal, refused with an error naming ``rule`` (or one of several
    acceptable IDs), and nothing changes."""
    rules = (rule,) if isinstance(rule, str) else rule
    before = snapshot(state)
    player = int(move.split(":")[0])
    assert not state.is_legal(move)
    assert move not in [str(m) for m in state.legal_moves(player)]
    with pytest.raises(IllegalMoveError) as err:
        state.push(move)
    assert err.value.rule in rules, str(err.value)
    assert str(err.value).startswith(f"{err.value.rule}: ")
    assert snapshot(state) == before


def legal_texts(state: HandState, player: int | None = None) -> list[str]:
    return [str(m) for m in state.legal_moves(player)]


def play_out(state: HandState) -> None:
    """Finish the hand with the first legal card each time (no declarations)."""
    while not state.is_over:
        state.push(next(m for m in state.legal_moves() if isinstance(m, Play)))


def random_hands(seeds: range, rules: RuleSet | None = None):
    """Yield the state before every card of random hands (random legal plays only)."""
    for seed in seeds:
        state = HandState.from_seed(seed, rules, dealer=seed % 2)
        rng = random.Random(seed)
        while not state.is_over:
            yield state
            state.push(rng.choice([m for m in state.legal_moves() if isinstance(m, Play)]))


# ---------------------------------------------------------------- the "sweep" hand
# Trumps are Bells (indicator 7B). Player 0 leads junk and wins tricks 1-6, loses trick 7
# (7L to the XL: 10 card points for player 1) and so takes the indicator 7B; from trick 8
# player 0 holds all eight Bells and AH and wins every trick of phase 2.
SWEEP = {
    "format": "tartli/1",
    "rules": "hungarian",
    "dealer": 1,
    "scores": [0, 0],
    "hands": [
        ["OB", "9B", "AB", "XB", "KB", "UB", "8B", "AH", "7H"],
        ["AA", "KA", "OA", "UA", "XA", "9A", "8A", "7A", "XL"],
    ],
    "trump": "7B",
    "talon": ["8H", "OL", "9H", "UL", "UH", "9L", "OH", "8L", "KH", "KL", "7L", "AL", "XH"],
    "moves": [],
}
PHASE1 = [
    "0: play 7H",
    "1: play 7A",
    "0: play 8H",
    "1: play 8A",
    "0: play 9H",
    "1: play 9A",
    "0: play UH",
    "1: play UA",
    "0: play OH",
    "1: play OA",
    "0: play KH",
    "1: play KA",
    "0: play 7L",
    "1: play XL",
]
PHASE2 = [
    "1: play AA",
    "0: play 8B",
    "0: play OB",
    "1: play XA",
    "0: play 9B",
    "1: play AL",
    "0: play AB",
    "1: play KL",
    "0: play XB",
    "1: play OL",
    "0: play KB",
    "1: play UL",
    "0: play UB",
    "1: play 9L",
    "0: play 7B",
    "1: play 8L",
    "0: play AH",
    "1: play XH",
]
# Card points by hand (C3/C4, trumps Bells): player 0 wins 7H/7A 0, 8H/8A 0, 9H/9A 0,
# UH/UA 4, OH/OA 6, KH/KA 8 = 18; player 1 wins 7L/XL = 10. Phase 2, all to player 0:
# AA/8B 11, OB/XA 30, 9B/AL 25, AB/KL 15, XB/OL 13, KB/UL 6, UB/9L 2, 7B/8L 0, AH/XH 21 + 10.
SWEEP_P0_AFTER_PHASE1 = 18
SWEEP_PHASE2 = [11, 30, 25, 15, 13, 6, 2, 0, 21]


# RECORD.md's example hand: trumps Bells (9B), player 0 holds the trump 7.
EXAMPLE = {
    "format": "tartli/1",
    "rules": "hungarian",
    "dealer": 1,
    "scores": [0, 0],
    "hands": [
        ["AH", "XH", "KH", "OA", "UA", "9L", "8L", "7B", "XB"],
        ["OH", "9H", "UH", "AA", "KA", "XA", "AL", "KB", "OB"],
    ],
    "trump": "9B",
    "talon": ["7H", "8H", "XL", "KL", "OL", "UL", "7L", "9A", "8A", "7A", "AB", "UB", "8B"],
    "moves": [],
}


def sweep(moves: list[str], rules: str | dict = "hungarian", scores: tuple[int, int] = (0, 0)) -> HandState:
    return Record.from_dict({**SWEEP, "rules": rules, "scores": list(scores), "moves": moves}).replay()


# ================================================================ C: cards and orders
@pytest.mark.rule("C1")
def test_c1_pack_has_32_distinct_cards_4_suits_of_8():
    assert len(CARDS) == 32 == len(set(CARDS))
    assert {c.suit.value for c in CARDS} == set("ALHB")
    assert {c.rank.value for c in CARDS} == set("AKOUX987")
    assert str(Card.parse("10H")) == "XH" == str(Card.parse("TH"))


@pytest.mark.rule("C1")
def test_c1_deal_with_a_card_twice_is_refused():
    good = make_deal("", "")
    twice = ((*good.hands[0][:8], good.hands[1][0]), good.hands[1])
    with pytest.raises(InvalidDealError):
        Deal(1, twice, good.indicator, good.talon)


@pytest.mark.rule("C2")
def test_c2_sequence_order_and_no_wrap():
    def seqs(text: str) -> list[str]:
        return [str(m) for m in find_melds(cards(text)) if m.is_sequence]

    assert seqs("AH KH OH") == ["terc:AH"]
    assert seqs("KH OH UH XH") == ["terc:KH", "kvart:KH", "terc:OH"]  # K O U X: C2, not trick order
    assert seqs("8H 7H AH") == []  # no wrap from 7 to A
    assert seqs("AH XH KH") == []  # adjacent in trick order, not in sequence order
    assert [str(c) for c in Meld.parse("terc:UH").cards()] == ["UH", "XH", "9H"]
    with pytest.raises(TartliError):
        Meld.parse("terc:8H")  # 8 7 and nothing below


@pytest.mark.rule("C3", "T1")
@pytest.mark.parametrize(
    ("lead", "second", "second_wins_it", "points"),
    [
        ("AH", "9H", True, 11 + 14),  # the trump Nine beats the trump Ace
        ("9H", "OH", True, 14 + 20),  # the trump Over is the highest card
        ("XH", "KH", False, 10 + 4),  # Ten above King
        ("UH", "KH", True, 2 + 4),
        ("8H", "UH", True, 0 + 2),
        ("7H", "8H", True, 0),
    ],
)
def test_c3_trump_order_and_points(lead, second, second_wins_it, points):
    # Hearts are trumps: the indicator is a Heart that is not in play.
    spare = next(r for r in "AKOUX987" if r not in lead[0] + second[0])
    state = make(lead, second, trump=spare + "H")
    play_trick(state, lead, second)
    winner = 1 if second_wins_it else 0
    assert state.trick_winners == [winner]
    assert state.card_points[winner] == points and state.card_points[1 - winner] == 0


@pytest.mark.rule("C3")
def test_c3_trump_suit_holds_61_points():
    assert sum(TRUMP_POINTS.values()) == 61
    assert sum(c.points(c.suit) for c in CARDS if c.suit.value == "H") == 61


@pytest.mark.rule("C4", "T1")
@pytest.mark.parametrize(
    ("lead", "second", "second_wins_it", "points"),
    [
        ("XA", "AA", True, 21),
        ("KA", "XA", True, 14),  # plain Ten above King
        ("OA", "KA", True, 7),
        ("KA", "OA", False, 7),  # the plain Over is below the King
        ("UA", "OA", True, 5),
        ("9A", "UA", True, 2),  # a plain Nine is below the Under and worth 0
        ("7A", "8A", True, 0),
    ],
)
def test_c4_plain_order_and_points(lead, second, second_wins_it, points):
    state = make(lead, second, trump="7B")
    play_trick(state, lead, second)
    winner = 1 if second_wins_it else 0
    assert state.trick_winners == [winner]
    assert state.card_points == ([points, 0] if winner == 0 else [0, points])


@pytest.mark.rule("C4")
def test_c4_plain_suit_holds_30_points():
    assert sum(c.points(None) for c in CARDS if c.suit.value == "A") == 30 == sum(PLAIN_POINTS.values())


@pytest.mark.rule("C5", "S1")
def test_c5_last_trick_is_worth_10_more():
    state = sweep(PHASE1 + PHASE2[:-1], rules={"base": "hungarian", "stichmatsch": False})
    before = state.card_points[0]
    state.push(PHASE2[-1])  # AH takes XH: 11 + 10, plus 10 for the last trick
    assert state.card_points[0] - before == 21 + 10


@pytest.mark.rule("C5", "S1", "T1", "T2", "T4")
def test_c5_s1_random_hands_add_up_to_161():
    finished = 0
    for seed in range(12):
        state = HandState.from_seed(seed, RuleSet().replace(stichmatsch=False), dealer=seed % 2)
        play_out(state)
        assert sum(state.card_points) == 161
        expected = [0, 0]
        for _, lead, second, winner in state.tricks:
            expected[winner] += pts(lead, state.trump.value) + pts(second, state.trump.value)
        expected[state.trick_winners[-1]] += 10
        assert list(state.card_points) == expected
        assert state.totals == tuple(state.scores_in[p] + state.meld_points[p] + state.card_points[p] for p in (0, 1))
        finished += state.status is Status.FINISHED
    assert finished == 12


# ================================================================ D: the deal
class _IdentityShuffle(random.Random):
    """An rng that leaves the pack in index order (its shuffle does nothing and its
    random() keys increase), so the deal can be read off the pack."""

    def __init__(self) -> None:
        super().__init__(0)
        self.count = 0

    def random(self) -> float:
        self.count += 1
        return self.count / 1000

    def shuffle(self, x, *args) -> None:
        return None


@pytest.mark.rule("D1")
@pytest.mark.parametrize("dealer", [0, 1])
def test_d1_packets_of_three_non_dealer_first_19th_card_is_indicator(dealer):
    deal = Deal.shuffled(_IdentityShuffle(), dealer=dealer)
    pack = list(CARDS)
    non_dealer_cards = pack[0:3] + pack[6:9] + pack[12:15]
    dealer_cards = pack[3:6] + pack[9:12] + pack[15:18]
    assert list(deal.hands[1 - dealer]) == non_dealer_cards and list(deal.hands[dealer]) == dealer_cards
    assert deal.indicator == pack[18] and deal.trump == pack[18].suit
    assert list(deal.talon) == pack[19:] and len(deal.talon) == 13


@pytest.mark.rule("D1")
def test_d1_same_seed_same_cards():
    a, b, c = Deal.from_seed(42), Deal.from_seed(42), Deal.from_seed(43)
    assert a == b and a != c
    for deal in (a, c):
        assert [len(h) for h in deal.hands] == [9, 9] and len(deal.talon) == 13
        assert len({*deal.hands[0], *deal.hands[1], deal.indicator, *deal.talon}) == 32


@pytest.mark.rule("D1")
def test_d1_seed_record_deals_from_the_engine_shuffle():
    state = Record.from_dict({"format": "tartli/1", "dealer": 0, "seed": 9, "moves": []}).replay()
    assert state.deal == Deal.from_seed(9, dealer=0) and state.to_move == 1


@pytest.mark.rule("D1")
def test_d1_talon_must_be_13_cards():
    good = make_deal("", "")
    with pytest.raises(InvalidDealError):
        Deal(1, good.hands, good.indicator, good.talon[:12])


@pytest.mark.rule("D2")
def test_d2_lower_card_drawn_deals():
    # match.py's documented reading: player 0 draws the first card, player 1 the second;
    # the lower card in the plain order C4 deals; equal ranks draw again.
    class Draws(random.Random):
        def __init__(self, *pairs: str) -> None:
            super().__init__(0)
            self.pairs = iter(pairs)

        def sample(self, population, k, **kwargs):
            return cards(next(self.pairs))

    assert Match.draw_for_dealer(Draws("AH 7L")) == 1
    assert Match.draw_for_dealer(Draws("9A UB")) == 0  # C4: 9 below U
    assert Match.draw_for_dealer(Draws("XL KA")) == 1  # C4: K below X (not C2, where X is lower)
    assert Match.draw_for_dealer(Draws("KH KA", "OB XH")) == 0


@pytest.mark.rule("D2")
def test_d2_deal_alternates():
    match = Match(seed=5, first_dealer=1)
    dealers = []
    for _ in range(4):
        dealers.append(match.state.dealer)
        match.state.push("0: out")  # a wrong claim ends the hand at once
        match.next_hand()
    assert dealers == [1, 0, 1, 0]


@pytest.mark.rule("D3")
@pytest.mark.parametrize("dealer", [0, 1])
def test_d3_non_dealer_leads_first_trick(dealer):
    state = make("AH", "7H", dealer=dealer)
    assert state.to_move == 1 - dealer
    card = state.hand(dealer)[0]
    # Playing before the leader breaks D3 and the trick order of K1; the engine names K1.
    assert_refused(state, f"{dealer}: play {card}", ("D3", "K1"))


@pytest.mark.rule("D3", "T1")
def test_d3_trick_winner_leads_next():
    state = make("7H", "AH")
    play_trick(state, "7H", "AH")
    assert state.trick_winners == [1] and state.to_move == 1


# ================================================================ T: tricks and phases
@pytest.mark.rule("T1")
def test_t1_any_trump_beats_a_plain_ace():
    state = make("AH", "7B", trump="8B")
    play_trick(state, "AH", "7B")
    assert state.trick_winners == [1] and state.card_points == [0, 11]


@pytest.mark.rule("T1")
def test_t1_off_suit_plain_card_never_wins():
    state = make("7H", "AL")
    play_trick(state, "7H", "AL")  # AL is higher but neither Hearts nor trump
    assert state.trick_winners == [0] and state.card_points == [11, 0]


@pytest.mark.rule("T2")
def test_t2_phase_one_second_player_may_play_any_card():
    state = make("7H", "AH KH 9A")  # player 1 holds Hearts but need not follow
    push(state, "0: play 7H")
    assert state.phase is Phase.FIRST
    plays = {str(m) for m in state.legal_moves() if isinstance(m, Play)}
    assert plays == {f"1: play {c}" for c in state.hand(1)}
    state.push("1: play 9A")
    assert state.trick_winners == [0]


@pytest.mark.rule("T3")
def test_t3_winner_draws_top_card_then_loser():
    state = make("7H", "AH", talon="XL 9A")
    play_trick(state, "7H", "AH")
    assert Card.parse("XL") in state.hand(1) and Card.parse("9A") in state.hand(0)
    assert len(state.hand(0)) == len(state.hand(1)) == 9 and len(state.talon) == 11


@pytest.mark.rule("T3", "T2")
def test_t3_trick7_loser_takes_the_indicator():
    state = sweep(PHASE1[:-1])
    assert state.indicator == Card.parse("7B") and state.talon == [Card.parse("XH")]
    state.push(PHASE1[-1])  # player 1 wins trick 7
    assert state.indicator is None and state.talon == []
    assert Card.parse("7B") in state.hand(0) and Card.parse("XH") in state.hand(1)
    assert state.phase is Phase.SECOND
    draws = [(e.player, e.say, e.cards) for e in state.events if e.kind == "draw" and e.trick == 7]
    assert (0, "indicator", (Card.parse("7B"),)) in draws


@pytest.mark.rule("T3", "T5")
def test_t3_trick7_loser_takes_the_swapped_trump_seven():
    state = Record.from_dict(EXAMPLE).replay()
    state.push("0: swap")  # the 7B now lies on the table in place of the 9B
    while len(state.trick_winners) < 7:
        state.push(next(m for m in state.legal_moves() if isinstance(m, Play)))
    loser = 1 - state.trick_winners[6]
    assert state.indicator is None and state.talon == []
    assert Card.parse("7B") in state.hand(loser)


@pytest.mark.rule("T3", "T1")
def test_t3_random_hands_draw_winner_first_then_loser():
    for seed in range(10):
        state, rng = HandState.from_seed(seed, dealer=seed % 2), random.Random(seed)
        for trick in range(1, 8):
            top, second = state.talon[0], state.indicator if trick == 7 else state.talon[1]
            lead = rng.choice(state.hand(state.to_move))
            state.push(f"{state.to_move}: play {lead}")
            p = state.to_move
            card = rng.choice(state.hand(p))  # phase 1: any card (T2)
            state.push(f"{p}: play {card}")
            winner = p if second_wins(lead, card, state.trump.value) else 1 - p
            assert state.trick_winners[-1] == winner and state.to_move == winner
            assert top in state.hand(winner) and second in state.hand(1 - winner)
            assert len(state.hand(0)) == len(state.hand(1)) == 9
        assert state.talon == [] and state.indicator is None


@pytest.mark.rule("T4")
def test_t4_must_trump_when_void():
    state = sweep([*PHASE1, "1: play AA"])  # player 0 holds no Acorn, eight Bells and AH
    plays = {str(m) for m in state.legal_moves() if isinstance(m, Play)}
    assert plays == {f"0: play {r}B" for r in "AKOUX987"}
    assert_refused(state, "0: play AH", "T4")


@pytest.mark.rule("T4")
def test_t4_random_phase2_plays_follow_suit_then_trump():
    checked = 0
    for state in random_hands(range(15)):
        if state.phase is not Phase.SECOND or state.lead is None:
            continue
        hand, lead, trump = state.hand(state.to_move), state.lead, state.trump
        allowed = [c for c in hand if c.suit == lead.suit] or [c for c in hand if c.suit == trump] or hand
        plays = {m.card for m in state.legal_moves() if isinstance(m, Play)}
        assert plays == set(allowed)
        checked += 1
    assert checked > 50


def _find(pred) -> HandState:
    for state in random_hands(range(200)):
        if state.phase is Phase.SECOND and state.lead is not None and pred(state):
            return state
    raise AssertionError("no such position in 200 random hands")


@pytest.mark.rule("T4")
def test_t4_must_follow_suit_but_need_not_head():
    def spot(state):
        hand, lead = state.hand(state.to_move), state.lead
        suit = [c for c in hand if c.suit == lead.suit]
        others = [c for c in hand if c.suit != lead.suit]
        return (
            others
            and any(not second_wins(lead, c, state.trump.value) for c in suit)
            and any(second_wins(lead, c, state.trump.value) for c in suit)
        )

    state = _find(spot)
    p, lead = state.to_move, state.lead
    lower = next(c for c in state.hand(p) if c.suit == lead.suit and not second_wins(lead, c, state.trump.value))
    other = next(c for c in state.hand(p) if c.suit != lead.suit)
    assert_refused(state, f"{p}: play {other}", "T4")
    state.push(f"{p}: play {lower}")  # no duty to head the trick
    assert state.trick_winners[-1] != p


@pytest.mark.rule("T4")
def test_t4_void_in_suit_and_trumps_may_play_anything():
    state = _find(lambda s: not any(c.suit in (s.lead.suit, s.trump) for c in s.hand(s.to_move)))
    plays = {m.card for m in state.legal_moves() if isinstance(m, Play)}
    assert plays == set(state.hand(state.to_move))


@pytest.mark.rule("T5")
def test_t5_leader_may_swap_trump_seven_before_leading():
    state = Record.from_dict(EXAMPLE).replay()
    assert "0: swap" in legal_texts(state)
    state.push("0: swap")
    assert Card.parse("9B") in state.hand(0) and Card.parse("7B") not in state.hand(0)
    assert state.indicator == Card.parse("7B")
    assert [e.kind for e in state.events] == ["swap"]


@pytest.mark.rule("T5")
def test_t5_swap_allowed_before_a_later_trick():
    # RECORD.md's example: after trick 1, player 0 (holding 7B, trumps Bells) may swap.
    state = Record.from_dict({**EXAMPLE, "moves": ["0: play AH", "1: play 9H"]}).replay()
    res = result(state)
    assert res["card_points"] == [11, 0] and res["trick_winners"] == [0] and res["to_move"] == 0
    assert "0: swap" in res["legal"]


@pytest.mark.rule("T5")
def test_t5_only_the_leader_before_declaring_and_leading():
    # Player 1 holds the trump 7 (Bells, indicator 9B) but player 0 leads.
    state = make("AL KL OL AH", "7B KA", trump="9B")
    assert_refused(state, "1: swap", "T5")
    push(state, "0: play AH")
    assert_refused(state, "1: swap", "T5")
    # The leader who holds it: not after declaring, not after leading.
    state = make("7B AL KL OL", "AH", trump="9B")
    state.push("0: declare terc:AL")
    assert_refused(state, "0: swap", "T5")
    state = make("7B AL", "AH", trump="9B")
    state.push("0: play AL")
    assert_refused(state, "0: swap", "T5")


# ================================================================ M: melds
# Trumps Bells (7B). Player 0: four Kings and A K O U X of Leaves (and AH);
# player 1: four Nines and O U X 9 8 7 of Hearts.
P0_MELDS = "KA KH KB AL KL OL UL XL AH"
P1_MELDS = "9A 9L 9H 9B OH UH XH 8H 7H"


def melds_state(rules: RuleSet | None = None, scores: tuple[int, int] = (0, 0)) -> HandState:
    return make(P0_MELDS, P1_MELDS, rules=rules, scores=scores)


@pytest.mark.rule("M1")
@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("terc", 20),
        ("kvart", 50),
        ("kvint", 100),
        ("szext", 100),
        ("szept", 100),
        ("okt", 100),
    ],
)
def test_m1_sequence_values(name, value):
    state = make("AL KL OL UL XL 9L 8L 7L AH", "")
    push(state, f"0: declare {name}:AL", "0: play AH", "1: pass")
    assert state.meld_points == [value, 0]


@pytest.mark.rule("M1")
def test_m1_sequence_named_by_top_card_and_length():
    kvart = Meld.parse("kvart:OA")
    assert [str(c) for c in kvart.cards()] == ["OA", "UA", "XA", "9A"]
    assert kvart.title() == "Acorn-Over-Kvart"
    assert [str(m) for m in find_melds(cards("KA OA UA")) if m.is_sequence] == ["terc:KA"]
    assert [m for m in find_melds(cards("KA OA 9A 8A"))] == []  # O 9 8 skips the U and X


@pytest.mark.rule("M2")
@pytest.mark.parametrize(("rank", "value"), [("O", 200), ("9", 150), ("A", 100), ("X", 100), ("K", 100), ("U", 100)])
def test_m2_set_values(rank, value):
    state = make(" ".join(rank + s for s in "ALHB"), "")
    push(state, f"0: declare vannak:{rank}", f"0: play {rank}A", "1: pass")
    assert state.meld_points == [value, 0]


@pytest.mark.rule("M2")
@pytest.mark.parametrize("rank", ["8", "7"])
def test_m2_no_set_of_eights_or_sevens(rank):
    state = make(" ".join(rank + s for s in "ALHB"), "", trump="XB")
    assert not any(m.is_set for m in find_melds(state.hand(0)))
    assert not any(x.is_set for m in state.legal_moves() if isinstance(m, Declare) for x in m.melds)
    with pytest.raises(InvalidMoveError):
        state.push(f"0: declare vannak:{rank}")


@pytest.mark.rule("M3")
def test_m3_bela_scores_40():
    state = make("KB OB", "")
    state.push("0: bela")
    assert state.meld_points == [40, 0]
    assert [e.kind for e in state.events] == ["bela"]


@pytest.mark.rule("M3")
def test_m3_bela_needs_king_and_over_of_trumps():
    state = make("KB OH", "OB")
    assert_refused(state, "0: bela", "M3")
    state = make("KH OH", "")  # King and Over of a plain suit are not béla
    assert_refused(state, "0: bela", "M3")


@pytest.mark.rule("M4")
def test_m4_trick_8_still_allows_melds():
    state = sweep([*PHASE1, "1: play AA"])
    assert state.trick_number == 8 and state.phase is Phase.SECOND
    assert state.is_legal("0: declare okt:AB")
    state.push("0: declare okt:AB")
    assert state.meld_points == [100, 0]


@pytest.mark.rule("M4")
def test_m4_no_melds_from_trick_9():
    state = sweep(PHASE1 + PHASE2[:2])
    assert state.trick_number == 9
    assert_refused(state, "0: declare szext:AB", "M4")
    state.push("0: play OB")
    assert_refused(state, "1: pass", "M4")
    assert not any(isinstance(m, (Declare, Pass)) for m in state.legal_moves())


@pytest.mark.rule("M5")
def test_m5_one_sequence_a_trick():
    state = make("AL KL OL AH KH OH", "")
    assert_refused(state, "0: declare terc:AH terc:AL", "M5")


@pytest.mark.rule("M5")
def test_m5_one_set_a_trick():
    state = make("KA KL KH KB AA AL AH AB", "")
    assert_refused(state, "0: declare vannak:A vannak:K", "M5")


@pytest.mark.rule("M5", "K1")
def test_m5_set_and_sequence_may_share_a_card():
    state = make("UA UL UH UB OH XH", "")  # Under-vannak + Heart-Over-Terc share the UH
    assert "0: declare terc:OH vannak:U" in legal_texts(state)
    push(state, "0: declare vannak:U terc:OH", "0: play UA", "1: pass")
    assert state.meld_points == [100 + 20, 0]


@pytest.mark.rule("M5")
def test_m5_second_declaration_in_same_trick_refused():
    state = melds_state()
    push(state, "0: declare vannak:K")
    assert_refused(state, "0: declare kvint:AL", "M5")


@pytest.mark.rule("M6")
def test_m6_meld_card_may_be_played_to_the_same_trick():
    state = melds_state()
    push(state, "0: declare kvint:AL")
    assert state.is_legal("0: play AL")
    push(state, "0: play AL", "1: pass")
    assert state.meld_points == [100, 0]


@pytest.mark.rule("M7")
def test_m7_meld_must_be_held():
    state = melds_state()
    assert_refused(state, "0: declare vannak:A", "M7")
    push(state, "0: play AL", "1: play 7H")  # player 0 wins and leads again, without the AL
    assert state.to_move == 0
    assert_refused(state, "0: declare kvint:AL", "M7")
    assert state.is_legal("0: declare kvart:KL")


@pytest.mark.rule("M7", "K1")
def test_m7_undeclared_meld_cannot_score_later_in_the_trick():
    state = melds_state()
    state.push("0: play AH")  # the declaration step is over for the leader
    with pytest.raises(IllegalMoveError) as err:
        state.push("0: declare kvint:AL")
    assert err.value.rule in ("K1", "M7")
    push(state, "1: play 7H")
    assert state.meld_points == [0, 0]


# ================================================================ K: the meld contest
def contest(
    h0: str, h1: str, lead: str | None, second: str, rules: RuleSet | None = None, dealer: int = 1
) -> HandState:
    """Trick 1: the leader declares ``lead`` (if any) and plays, the second declares ``second``."""
    state = make(h0, h1, dealer=dealer, rules=rules)
    leader = state.to_move
    if lead:
        state.push(f"{leader}: declare {lead}")
    state.push(f"{leader}: play {state.hand(leader)[-1]}")
    state.push(f"{1 - leader}: declare {second}")
    return state


@pytest.mark.rule("K1")
def test_k1_declaration_steps_in_order():
    state = melds_state()
    assert_refused(state, "1: declare vannak:9", "K1")  # the second declares after the lead
    assert_refused(state, "0: pass", "K1")  # only the second player passes
    push(state, "0: play AH")
    assert_refused(state, "0: declare vannak:K", "K1")  # the leader declares before leading
    push(state, "1: pass")
    assert_refused(state, "1: declare vannak:9", "K1")  # no declaration after a pass
    assert_refused(state, "1: pass", "K1")  # once a trick


@pytest.mark.rule("K1")
def test_k1_winner_scores_all_declared_melds_loser_none():
    state = contest(P0_MELDS, P1_MELDS, "kvint:AL", "szext:OH vannak:9")
    assert state.meld_points == [0, 150 + 100]  # decided at the second's declaration, before they play
    state = contest(P0_MELDS, P1_MELDS, "kvint:AL vannak:K", "vannak:9")
    assert state.meld_points == [0, 150]


SETS = RuleSet.austrian().replace(tens_below_unders=True)


@pytest.mark.rule("K2", "M2", "V3")
@pytest.mark.parametrize(
    ("lead", "second", "rules", "points"),
    [
        ("K", "A", RuleSet(), [0, 100]),
        ("9", "A", RuleSet(), [150, 0]),
        ("O", "9", RuleSet(), [200, 0]),
        ("U", "K", RuleSet(), [0, 100]),
        ("A", "X", RuleSet(), [100, 0]),
        ("X", "U", RuleSet(), [100, 0]),
        ("U", "X", RuleSet(), [0, 100]),
        ("X", "U", SETS, [0, 100]),  # V3 option: four Tens below four Unders
        ("U", "X", SETS, [100, 0]),
    ],
)
def test_k2_set_order(lead, second, rules, points):
    state = contest(
        " ".join(lead + s for s in "ALHB"),
        " ".join(second + s for s in "ALHB"),
        f"vannak:{lead}",
        f"vannak:{second}",
        rules,
    )
    assert state.meld_points == points


@pytest.mark.rule("K2")
def test_k2_any_set_beats_any_sequence():
    state = contest(P0_MELDS, P1_MELDS, "kvint:AL", "vannak:9")
    assert state.meld_points == [0, 150]


@pytest.mark.rule("K2")
@pytest.mark.parametrize(
    ("h0", "h1", "lead", "second", "dealer", "points"),
    [
        ("AB KB OB", "UA XA 9A 8A", "terc:AB", "kvart:UA", 1, [0, 50]),  # longer beats a trump terc
        ("UL XL 9L 8L", "KA OA UA XA", "kvart:UL", "kvart:KA", 1, [0, 50]),  # higher top
        ("KA OA UA XA", "UL XL 9L 8L", "kvart:KA", "kvart:UL", 1, [50, 0]),
        ("AL KL OL", "AB KB OB", "terc:AL", "terc:AB", 1, [0, 20]),  # equal: trumps win
        ("AL KL OL", "AH KH OH", "terc:AL", "terc:AH", 1, [20, 0]),  # equal plain: the leader
        ("AL KL OL", "AH KH OH", "terc:AH", "terc:AL", 0, [0, 20]),  # player 1 leads here
    ],
)
def test_k2_sequence_contest(h0, h1, lead, second, dealer, points):
    state = contest(h0, h1, lead, second, dealer=dealer)
    assert state.meld_points == points


@pytest.mark.rule("K3")
@pytest.mark.parametrize(
    ("lead", "second", "allowed"),
    [
        ("vannak:K", "terc:OH", False),
        ("vannak:K", "szext:OH", False),  # a set needs a set, whatever the length
        ("vannak:K", "vannak:9", True),
        ("vannak:K", "szext:OH vannak:9", True),
        ("kvart:AL", "terc:OH", False),  # shorter than the leader's sequence
        ("kvart:AL", "kvart:XH", True),  # as long (it will lose, but may be declared)
        ("kvart:AL", "szext:OH", True),
        ("kvart:AL", "vannak:9", True),
        (None, "terc:OH", True),  # the leader declared nothing
    ],
)
def test_k3_what_the_second_player_may_declare(lead, second, allowed):
    state = melds_state()
    if lead:
        state.push(f"0: declare {lead}")
    state.push("0: play AH")
    move = f"1: declare {second}"
    if allowed:
        assert state.is_legal(move)
        state.push(move)
    else:
        assert_refused(state, move, "K3")


@pytest.mark.rule("K3")
def test_k3_legal_moves_after_a_set_offer_only_sets():
    state = melds_state()
    push(state, "0: declare vannak:K", "0: play AH")
    declares = [m for m in state.legal_moves() if isinstance(m, Declare)]
    assert declares and all(any(x.is_set for x in m.melds) for m in declares)


def said(state: HandState, kinds=("declare", "pass", "detail", "answer", "score")) -> list[tuple]:
    return [(e.kind, e.player, e.say) for e in state.events if e.kind in kinds]


@pytest.mark.rule("K4")
def test_k4_sets_announced_vannak_then_rank_then_higher_here():
    state = contest(P0_MELDS, P1_MELDS, "vannak:K", "vannak:9")
    assert said(state) == [
        ("declare", 0, "vannak"),
        ("declare", 1, "vannak"),
        ("detail", 0, "King-vannak"),
        ("answer", 1, "Higher here"),
        ("score", 1, "Nine-vannak"),
    ]


@pytest.mark.rule("K4")
def test_k4_equal_length_sequences_answer_good():
    state = contest(P0_MELDS, P1_MELDS, "kvart:AL", "kvart:OH")
    events = said(state)
    assert events[:2] == [("declare", 0, "kvart"), ("declare", 1, "kvart")]
    assert events[2][:2] == ("detail", 0) and "Ace" in events[2][2]  # the leader names the top card
    assert events[3:] == [("answer", 1, "Good"), ("score", 0, "Leaf-Ace-Kvart")]
    assert state.meld_points == [50, 0]


@pytest.mark.rule("K4")
def test_k4_scorer_specifies_each_meld():
    state = make("OA UA XA 9A UL UH UB", "")
    push(state, "0: declare vannak:U kvart:OA", "0: play UL", "1: pass")
    declare = next(e for e in state.events if e.kind == "declare")
    assert sorted(declare.say.split(", ")) == ["kvart", "vannak"]
    scores = {(e.say, e.points) for e in state.events if e.kind == "score"}
    assert scores == {("Acorn-Over-Kvart", 50), ("Under-vannak", 100)}


@pytest.mark.rule("K5")
def test_k5_unscored_meld_may_be_declared_again():
    state = contest(P0_MELDS, P1_MELDS, "kvint:AL", "vannak:9")
    assert state.meld_points == [0, 150]
    push(state, "1: play 7H")  # the leader played AH: player 0 wins and leads trick 2
    assert state.to_move == 0 and state.is_legal("0: declare kvint:AL")
    push(state, "0: declare kvint:AL", "0: play KA", "1: pass")
    assert state.meld_points == [100, 150]


@pytest.mark.rule("K6")
@pytest.mark.parametrize("meld", ["vannak:K", "kvint:AL"])
def test_k6_a_meld_scores_once_a_hand(meld):
    state = melds_state()
    push(state, f"0: declare {meld}", "0: play AH", "1: pass", "1: play 7H")
    assert state.to_move == 0 and state.meld_points[0] == 100
    assert_refused(state, f"0: declare {meld}", "K6")


# After a K-kvart of Hearts (K O U X) player 0 still holds A K O U X 9 8 of Hearts.
P0_HEARTS = "AH KH OH UH XH 9H 8H AA AL"


def after_k_kvart(rules: RuleSet) -> HandState:
    state = make(P0_HEARTS, "8A", rules=rules)
    push(state, "0: declare kvart:KH", "0: play AA", "1: pass", "1: play 8A")
    assert state.meld_points == [50, 0] and state.to_move == 0
    return state


@pytest.mark.rule("K7")
@pytest.mark.parametrize(
    ("meld", "allowed"),
    [
        ("terc:AH", True),  # overlaps (K O), higher top
        ("kvint:KH", True),  # same top, longer
        ("terc:KH", False),  # same top, shorter
        ("kvint:OH", False),  # overlaps, lower top
        ("terc:XH", False),  # overlaps at the X, lower top
    ],
)
def test_k7_examples_after_heart_king_kvart(meld, allowed):
    state = after_k_kvart(RuleSet.hungarian())
    if allowed:
        push(state, f"0: declare {meld}", "0: play AL", "1: pass")
        assert state.meld_points[0] == 50 + Meld.parse(meld).value
    else:
        assert_refused(state, f"0: declare {meld}", "K7")


@pytest.mark.rule("K7")
@pytest.mark.parametrize(
    ("scored", "new", "allowed"),
    [
        ("kvart:AH", "terc:9H", True),  # the X is the gap
        ("kvart:AH", "terc:XH", False),  # directly adjacent
        ("terc:9H", "terc:UH", True),  # overlapping, higher top
        ("terc:9H", "terc:OH", False),  # no shared card but adjacent (seed 000)
        ("terc:9H", "terc:KH", True),  # the X is the gap
    ],
)
def test_k7_same_suit_rule_examples(scored, new, allowed):
    assert same_suit_ok(Meld.parse(new), [Meld.parse(scored)], RuleSet.hungarian()) is allowed


@pytest.mark.rule("K7")
def test_k7_over_kvint_ladder():
    ladder = [Meld.parse(m) for m in ["terc:XH", "terc:UH", "kvart:UH", "terc:OH", "kvart:OH", "kvint:OH"]]
    for i, meld in enumerate(ladder):
        assert same_suit_ok(meld, ladder[:i], RuleSet.hungarian()), meld
    # Out of order it fails: the O-kvart cannot follow the O-kvint, nor the U-kvart an O-terc.
    assert not same_suit_ok(ladder[4], [ladder[5]], RuleSet.hungarian())
    assert not same_suit_ok(ladder[2], [ladder[3]], RuleSet.hungarian())


# ================================================================ B: béla timing
@pytest.mark.rule("B1", "S3", "S4")
def test_b1_bela_out_of_turn_right_after_drawing_then_out():
    state = make("7H KB", "AH", talon="XL OB", scores=(470, 0))
    play_trick(state, "7H", "AH")  # player 1 wins (11) and draws XL; player 0 draws OB
    assert state.to_move == 1 and Card.parse("OB") in state.hand(0)
    assert "0: bela" in legal_texts(state, 0)
    push(state, "0: bela", "0: out")  # 470 + 40 = 510
    assert result(state)["out"] == {"player": 0, "valid": True}
    assert state.buli == [2, 0]  # player 1 has 11: maccs


@pytest.mark.rule("B1")
def test_b1_bela_until_the_second_card_of_trick_8():
    state = sweep([*PHASE1, "1: play AA"])  # trick 8 under way; player 0 holds KB and OB
    assert state.is_legal("0: bela")
    state.push("0: play 8B")
    assert_refused(state, "0: bela", "B1")


@pytest.mark.rule("B1")
def test_b1_bela_once_a_hand():
    state = make("KB OB", "")
    state.push("0: bela")
    assert_refused(state, "0: bela", "B1")
    assert state.meld_points == [40, 0]


@pytest.mark.rule("B1")
def test_b1_hungarian_bela_is_not_declared_inside_a_declaration():
    state = make("KB OB AL KL OL", "")
    assert_refused(state, "0: declare bela terc:AL", "B1")


P0_PAIS = "KB OB AL KL OL AH"
P1_PAIS = "AA KA OA UA"


def pais_contest(scores: tuple[int, int] = (0, 0), lead: str = "bela terc:AL", second: str = "kvart:AA"):
    state = make(P0_PAIS, P1_PAIS, rules=RuleSet.pais(), scores=scores)
    push(state, f"0: declare {lead}", "0: play AH", f"1: declare {second}")
    return state


@pytest.mark.rule("B2")
def test_b2_pais_bela_only_inside_a_declaration():
    state = make(P0_PAIS, P1_PAIS, rules=RuleSet.pais())
    assert_refused(state, "0: bela", "B2")
    assert state.is_legal("0: declare bela")


@pytest.mark.rule("B2", "M3")
@pytest.mark.parametrize(
    ("lead", "second", "points"),
    [
        ("bela terc:AL", "kvart:AA", [40, 50]),  # player 0 loses the contest, béla still scores
        ("bela", "terc:AA", [40, 20]),  # béla neither beats nor is beaten
    ],
)
def test_b2_pais_bela_scores_whatever_the_contest(lead, second, points):
    assert pais_contest(lead=lead, second=second).meld_points == points


@pytest.mark.rule("B2")
@pytest.mark.parametrize("claimer", [0, 1])
def test_b2_both_reach_501_in_one_contest_higher_total_wins(claimer):
    state = pais_contest(scores=(470, 465))
    assert state.totals == (510, 515)
    state.push(f"{claimer}: out")
    assert result(state)["out"] == {"player": claimer, "valid": True}
    assert state.buli == [0, 1]


@pytest.mark.rule("B2")
def test_b2_equal_totals_no_claim_until_the_tie_breaks():
    state = pais_contest(scores=(470, 460))
    assert state.totals == (510, 510)
    assert_refused(state, "0: out", "B2")
    assert_refused(state, "1: out", "B2")
    state.push("1: play 8A")  # AH takes it: 11 card points break the tie
    assert state.totals == (521, 510)
    state.push("1: out")
    assert result(state)["out"] == {"player": 1, "valid": True} and state.buli == [1, 0]


# ================================================================ S: scoring and going out
@pytest.mark.rule("S1")
def test_s1_hand_totals_add_to_running_scores():
    state = sweep(PHASE1 + PHASE2, rules={"base": "hungarian", "stichmatsch": False}, scores=(100, 200))
    res = result(state)
    assert res["status"] == "finished" and res["card_points"] == [151, 10]
    assert res["scores"] == [251, 210] and res["buli"] == [0, 0]
    assert_refused(state, "0: out", "S1")


@pytest.mark.rule("S2")
def test_s2_stichmatsch_takes_all_161_and_melds_are_kept():
    moves = [*PHASE1[:1], "1: declare terc:AA", *PHASE1[1:], *PHASE2]
    state = sweep(moves)
    assert state.trick_winners[7:] == [0] * 9 and state.trick_winners[6] == 1
    res = result(state)
    assert res["stichmatsch"] == 0
    assert res["card_points"] == [161, 0] and res["meld_points"] == [0, 20] and res["scores"] == [161, 20]
    assert "stichmatsch" in [e.kind for e in state.events]


@pytest.mark.rule("S2", "S3", "S4")
def test_s2_no_stichmatsch_after_a_claim():
    state = sweep(PHASE1 + PHASE2[:-2], scores=(400, 0))  # tricks 1-15 played
    assert state.total(0) == 400 + SWEEP_P0_AFTER_PHASE1 + sum(SWEEP_PHASE2[:-1])  # 520
    state.push("0: out")
    res = result(state)
    assert res["status"] == "out" and res["stichmatsch"] is None
    assert res["card_points"] == [120, 10] and res["buli"] == [2, 0]


@pytest.mark.rule("S3")
def test_s3_a_trick_in_progress_never_counts():
    state = sweep(PHASE1 + PHASE2[:2] + ["0: play OB"], scores=(471, 0))
    assert state.totals == (471 + 18 + 11, 10)  # 500: the OB lies on the table uncounted
    done = state.copy()
    state.push("0: out")
    assert result(state)["out"] == {"player": 0, "valid": False} and state.buli == [0, 1]
    done.push("1: play XA")  # OB takes XA: 30
    done.push("0: out")
    assert result(done)["out"] == {"player": 0, "valid": True} and done.buli == [2, 0]


@pytest.mark.rule("S3")
def test_s3_melds_count_once_the_contest_is_decided():
    state = melds_state(scores=(460, 0))
    for move in ("0: declare kvint:AL", "0: play AH"):
        state.push(move)
        assert state.total(0) == 460
        early = state.copy()
        early.push("0: out")
        assert early.out == (0, False)
    state.push("1: pass")
    assert state.total(0) == 560
    state.push("0: out")
    assert state.out == (0, True)


@pytest.mark.rule("S4", "V10")
@pytest.mark.parametrize(
    ("rules", "scores", "claimer", "valid", "buli"),
    [
        (RuleSet(), (520, 250), 0, True, [2, 0]),  # S4: 250 or less is maccs
        (RuleSet(), (520, 251), 0, True, [1, 0]),
        (RuleSet.austrian(), (520, 250), 0, True, [1, 0]),  # V10: double only below 250
        (RuleSet.austrian(), (520, 249), 0, True, [2, 0]),
        (RuleSet(), (500, 0), 0, False, [0, 1]),  # wrong claim: the opponent wins 1
        (RuleSet.austrian(), (500, 0), 0, False, [0, 1]),  # V10: a wrong claim loses single
        (RuleSet(), (510, 600), 0, True, [1, 0]),  # both 501+: the first to claim wins
        (RuleSet(), (0, 505), 1, True, [0, 2]),  # out of turn
    ],
)
def test_s4_claim_buli_and_maccs(rules, scores, claimer, valid, buli):
    state = make("", "", rules=rules, scores=scores)
    state.push(f"{claimer}: out")
    res = result(state)
    assert res["status"] == "out" and res["out"] == {"player": claimer, "valid": valid}
    assert res["buli"] == buli and res["to_move"] is None and res["legal"] == []
    assert_refused(state, f"{1 - claimer}: out", "S4")


NO_STICH = {"base": "hungarian", "stichmatsch": False}


@pytest.mark.rule("S5")
@pytest.mark.parametrize(
    ("rules", "scores", "totals", "buli"),
    [
        ("hungarian", (400, 0), [561, 0], [2, 0]),  # one over 501: S4's maccs applies
        (NO_STICH, (360, 495), [511, 505], [1, 0]),  # both over: the higher wins
        (NO_STICH, (350, 496), [501, 506], [0, 1]),
    ],
)
def test_s5_played_out_hand_gives_the_buli(rules, scores, totals, buli):
    state = sweep(PHASE1 + PHASE2, rules=rules, scores=scores)
    res = result(state)
    assert res["status"] == "finished" and res["scores"] == totals and res["buli"] == buli
    assert state.tied is False


@pytest.mark.rule("S5")
def test_s5_equal_totals_over_501_is_a_tie():
    state = sweep(PHASE1 + PHASE2, rules=NO_STICH, scores=(354, 495))
    assert state.totals == (505, 505) and state.buli == [0, 0] and state.tied
    assert "tie" in [e.kind for e in state.events]


@pytest.mark.rule("S5", "S6")
def test_s5_tie_buli_goes_to_first_scorer_of_next_hand():
    # RULES.md S5: the first player to score anything in the next hand wins the tied buli (a trick
    # scores only with card points), and that hand is already the new game's first: it starts at 0-0.
    match = Match(RuleSet().replace(stichmatsch=False), seed=0, first_dealer=1)
    match.scores = [354, 495]
    state = match.redeal(Record.from_dict(SWEEP).new_state().deal)
    push(state, *PHASE1, *PHASE2)
    assert state.tied
    nxt = match.next_hand(make_deal("7H AH", "8H UH", dealer=0))
    assert nxt.scores_in == (0, 0) and match.buli == [0, 0]
    play_trick(nxt, "8H", "7H")  # player 1 wins trick 1, but for 0 points
    play_trick(nxt, "UH", "AH")  # player 0 is the first to score (13)
    play_out(nxt)
    match.next_hand()
    assert match.results[-1].tie_decided_by == 0 and match.buli == [1, 0]


@pytest.mark.rule("S5")
def test_s5_tie_buli_goes_to_first_bela_of_next_hand():
    # RULES.md S5: any first score breaks the tie, a béla included.
    match = Match(RuleSet().replace(stichmatsch=False), seed=0, first_dealer=1)
    match.scores = [354, 495]
    push(match.redeal(Record.from_dict(SWEEP).new_state().deal), *PHASE1, *PHASE2)
    nxt = match.next_hand(make_deal("KB OB", "AH", dealer=0))
    nxt.push("0: bela")  # out of turn, before player 1 leads
    play_out(nxt)
    match.next_hand()
    assert match.results[-1].tie_decided_by == 0 and match.buli == [1, 0]


@pytest.mark.rule("S5", "K1")
def test_s5_tie_buli_goes_to_first_meld_of_next_hand():
    # RULES.md S5: a declared meld is a score too; here it comes before any trick has card points.
    match = Match(RuleSet().replace(stichmatsch=False), seed=0, first_dealer=1)
    match.scores = [354, 495]
    push(match.redeal(Record.from_dict(SWEEP).new_state().deal), *PHASE1, *PHASE2)
    nxt = match.next_hand(make_deal("7H", "KA OA UA 8H", dealer=0))  # player 1 leads trick 1 (D3)
    push(nxt, "1: declare terc:KA", "1: play 8H")
    assert nxt.first_scorer is None  # not decided yet: the contest ends with player 0's pass or card
    push(nxt, "0: play 7H")  # player 1's terc scores (20); the trick (8H, 7H) has no card points
    assert nxt.first_scorer == 1
    play_out(nxt)
    match.next_hand()
    assert match.results[-1].tie_decided_by == 1 and match.buli == [0, 1]


@pytest.mark.rule("S5", "S6")
def test_s5_the_tie_breaking_hand_already_counts_for_the_new_game():
    match = Match(RuleSet().replace(stichmatsch=False), seed=0, first_dealer=1)
    match.scores = [354, 495]
    push(match.redeal(Record.from_dict(SWEEP).new_state().deal), *PHASE1, *PHASE2)
    nxt = match.next_hand(make_deal("7H AH", "8H UH", dealer=0))
    assert nxt.scores_in == (0, 0)
    play_out(nxt)
    totals = nxt.totals
    match.next_hand()
    first = nxt.first_scorer
    assert first is not None and match.results[-1].tie_decided_by == first  # the tie is decided by this hand
    assert match.buli[first] == 1 and match.buli[1 - first] == 0
    assert match.scores == list(totals)  # and its points stay: the new game goes on from them
    assert match.state.scores_in == totals


@pytest.mark.rule("S6")
def test_s6_scores_restart_at_zero_after_a_buli():
    match = Match(seed=1, first_dealer=1)
    state = match.redeal(make_deal("AH", "7H"))
    play_trick(state, "AH", "7H")
    state.push("1: out")  # wrong claim: player 0 wins a buli
    match.next_hand()
    assert match.buli == [1, 0] and match.scores == [0, 0] and match.state.scores_in == (0, 0)


@pytest.mark.rule("S6", "S1")
def test_s6_scores_carry_over_without_a_buli():
    match = Match(seed=1, first_dealer=1)
    state = match.redeal(make_deal("AH", "7H"))
    play_out(state)
    totals = state.totals
    match.next_hand()
    assert match.buli == [0, 0] and match.state.scores_in == totals and sum(totals) == 161


@pytest.mark.rule("S6")
@pytest.mark.parametrize(("rules", "target"), [(RuleSet(), 5), (RuleSet().replace(buli_target=10), 10)])
def test_s6_match_ends_at_buli_target(rules, target):
    match = Match(rules, seed=2, first_dealer=1)
    for hand in range(1, target + 1):
        assert not match.is_over
        match.state.push("0: out")  # wrong: player 1 wins one buli
        match.next_hand()
        assert match.buli == [0, hand]
    assert match.is_over and match.winner == 1
    match.state.push("0: out")
    with pytest.raises(TartliError):
        match.next_hand()


# ================================================================ V: variants
@pytest.mark.rule("V1", "D1")
@pytest.mark.parametrize("packet", [1, 2, 3, 4, 5, 6])
def test_v1_indicator_after_any_packet(packet):
    deal = Deal.shuffled(_IdentityShuffle(), dealer=1, indicator_packet=packet)
    assert deal.indicator == CARDS[3 * packet]  # the 4th, 7th, ..., 19th card
    assert list(deal.talon) == list(CARDS[19:])
    if packet == 1:
        assert list(deal.hands[0]) == list(CARDS[0:3] + CARDS[7:10] + CARDS[13:16])
        assert list(deal.hands[1]) == list(CARDS[4:7] + CARDS[10:13] + CARDS[16:19])


@pytest.mark.rule("V1")
def test_v1_indicator_choice_only_under_austrian_rules():
    with pytest.raises(InvalidDealError):
        Deal.from_seed(1, indicator_packet=7)
    assert RuleSet.austrian().indicator_choice and not RuleSet().indicator_choice
    state = Match(RuleSet.austrian(), seed=4, first_dealer=1).redeal(indicator_packet=1)
    assert len(state.talon) == 13
    with pytest.raises(TartliError, match="V1"):
        Match(seed=4, first_dealer=1).redeal(indicator_packet=1)


@pytest.mark.rule("V2")
def test_v2_winner_deals_under_austrian_rules():
    match = Match(RuleSet.austrian(), seed=3, first_dealer=0)
    match.state.push("1: out")  # wrong: player 0 wins
    match.next_hand()
    assert match.state.dealer == 0
    match.state.push("0: out")  # wrong: player 1 wins
    match.next_hand()
    assert match.state.dealer == 1
    hungarian = Match(seed=3, first_dealer=0)
    hungarian.state.push("1: out")
    hungarian.next_hand()
    assert hungarian.state.dealer == 1  # D2: alternates whoever won


@pytest.mark.rule("V3")
def test_v3_no_set_of_nines_in_austrian():
    for rules, legal in ((RuleSet.hungarian(), True), (RuleSet.austrian(), False)):
        state = melds_state(rules)
        state.push("0: play AH")
        if legal:
            assert state.is_legal("1: declare vannak:9")
        else:
            assert_refused(state, "1: declare vannak:9", "V3")


@pytest.mark.rule("V4")
def test_v4_several_sequences_in_different_suits():
    state = make("AL KL OL UL AH KH OH", "", rules=RuleSet.austrian())
    assert_refused(state, "0: declare terc:AL terc:KL", "V4")  # same suit
    push(state, "0: declare terc:AH terc:AL", "0: play UL", "1: pass")
    assert state.meld_points == [40, 0]


@pytest.mark.rule("V5")
@pytest.mark.parametrize(
    ("meld", "allowed"),
    [
        ("terc:KH", False),  # inside the scored K-kvart
        ("terc:OH", False),  # O U X: inside too
        ("kvint:OH", True),  # overlaps but not inside (K7 would refuse it)
        ("terc:XH", True),  # X 9 8: not inside (K7 would refuse it)
        ("terc:AH", True),
    ],
)
def test_v5_austrian_same_suit_rule(meld, allowed):
    state = after_k_kvart(RuleSet.austrian())
    if allowed:
        push(state, f"0: declare {meld}", "0: play AL", "1: pass")
        assert state.meld_points[0] == 50 + Meld.parse(meld).value
    else:
        assert_refused(state, f"0: declare {meld}", "V5")


@pytest.mark.rule("V6")
def test_v6_scored_melds_shown_to_the_opponent():
    seen = {}
    for name in ("hungarian", "austrian"):
        state = make("OA UA XA 9A", "", rules=RuleSet.named(name))
        state.push("0: declare kvart:OA")
        assert state.view(1).opponent_declared == ("kvart",)  # only the announcement so far
        push(state, "0: play OA", "1: pass")
        seen[name] = state.view(1).opponent_declared
        assert {"UA", "XA", "9A"} <= {str(c) for c in state.view(1).opponent_known}
    assert seen == {"hungarian": ("kvart",), "austrian": ("kvart:OA",)}


@pytest.mark.rule("V7", "T5")
def test_v7_any_holder_may_swap_at_any_moment():
    state = make("AL KL OL AH", "7B KA", trump="9B", rules=RuleSet.austrian())
    assert "1: swap" in legal_texts(state, 1) and state.to_move == 0
    state.push("0: play AH")
    state.push("1: swap")  # the second player, in the middle of the trick
    assert state.indicator == Card.parse("7B") and Card.parse("9B") in state.hand(1)
    leader = make("7B AL KL OL", "AH", trump="9B", rules=RuleSet.austrian())
    push(leader, "0: declare terc:AL", "0: swap")  # after declaring (T5 would refuse)


@pytest.mark.rule("V7")
def test_v7_no_swap_after_declaring_a_sequence_with_the_trump_seven():
    state = make("9B 8B 7B AL", "", trump="XB", rules=RuleSet.austrian())
    state.push("0: declare terc:9B")
    assert_refused(state, "0: swap", "V7")


@pytest.mark.rule("V8")
def test_v8_trick7_winner_shows_the_last_talon_card():
    xh = Card.parse("XH")
    austrian = sweep(PHASE1, rules="austrian")
    shows = [e for e in austrian.events if e.kind == "show"]
    assert [(e.player, e.cards) for e in shows] == [(1, (xh,))]
    assert xh in austrian.view(0).opponent_known
    hungarian = sweep(PHASE1)
    assert not [e for e in hungarian.events if e.kind == "show"]
    assert xh not in hungarian.view(0).opponent_known


@pytest.mark.rule("V9", "S2")
def test_v9_no_stichmatsch_in_austrian():
    res = result(sweep(PHASE1 + PHASE2, rules="austrian"))
    assert res["stichmatsch"] is None and res["card_points"] == [151, 10]


@pytest.mark.rule("V10", "S6")
def test_v10_single_games_have_no_match_target():
    match = Match(RuleSet.austrian(), seed=6, first_dealer=1)
    assert match.target is None
    for _ in range(6):
        match.state.push("0: out")
        match.next_hand()
    assert match.buli == [0, 6] and not match.is_over and match.winner is None


@pytest.mark.rule("V11")
def test_v11_slate_is_an_option_written_in_the_record():
    assert RuleSet.austrian().slate == "austrian" and RuleSet.hungarian().slate == "hungarian"
    rules = RuleSet().replace(slate="austrian")
    assert rules.to_record() == {"base": "hungarian", "slate": "austrian"}
    record = Record.from_state(HandState(make_deal("", ""), rules))
    assert record.to_dict()["rules"] == {"base": "hungarian", "slate": "austrian"}
    assert Record.from_dict(record.to_dict()).rules.slate == "austrian"
    with pytest.raises(RecordError):
        RuleSet().replace(slate="chalk")
