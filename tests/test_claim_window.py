"""S3's claim window (RULES.md S3, RECORD.md): after a contest decided by the second player's silent
card, the leader may go out as the very next move, counted at K1 step 7, without that trick's points.

Expected values are worked out by hand from the rule text: trumps are Bells (indicator 9B), the
plain-suit points are C4's (A 11, X 10, K 4, O 3, U 2), a kvart is 50 (M1), maccs is 250 or less (S4).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import make_deal

from tartli import HandState, RuleSet
from tartli.bots import HeuristicBot, RandomBot, SearchBot
from tartli.bots.base import right_claim
from tartli.bots.tournament import _play, _Timed
from tartli.game import WINNING_SCORE, Status
from tartli.moves import Declare, GoOut, Play
from tartli.record import Record, result

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"

# Player 0 leads trick 1 (dealer 1) and holds the Acorn-Over-Kvart (O U X 9 of Acorns, 50).
# Player 1 holds the Ace and Ten of Hearts: a silent Ace on a led Heart takes 11 card points.
KVART = "OA UA XA 9A 7H 8H KL 7B 8B"
OTHER = "AH XH AL OL UL 8L 7L KB AB"


def hand(scores: tuple[int, int], rules: RuleSet | None = None) -> HandState:
    return HandState(make_deal(KVART, OTHER, "9B", dealer=1), rules, scores)


def after(state: HandState, *moves: str) -> HandState:
    state = state.copy()
    state.push_many(moves)
    return state


def summary(state: HandState) -> dict[str, object]:
    res = result(state)
    return {k: res[k] for k in ("status", "meld_points", "card_points", "scores", "out", "buli")}


@pytest.mark.rule("S3", "S4")
def test_the_shared_example_replays_exactly() -> None:
    expected = json.loads((DATA / "claim_window.expected.json").read_text(encoding="utf-8"))
    assert result(Record.load(DATA / "claim_window.json").replay()) == expected
    proc = subprocess.run(
        [sys.executable, "-m", "tartli", "replay", str(DATA / "claim_window.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout) == expected


@pytest.mark.rule("S3", "S4")
def test_the_window_after_a_silent_card_keeps_the_maccs() -> None:
    # 455 + kvart 50 = 505 at step 7; player 1 takes the trick (7H, AH: 11) and would reach 251.
    state = after(hand((455, 240)), "0: declare kvart:OA", "0: play 7H", "1: play AH")
    assert state.trick_winners == [1] and state.totals == (505, 251)
    assert state.claim_window is not None and state.claim_window.points == 11
    state.push("0: out")
    assert summary(state) == {
        "status": "out",
        "meld_points": [50, 0],
        "card_points": [0, 0],  # the trick counts for neither player
        "scores": [505, 240],
        "out": {"player": 0, "valid": True},
        "buli": [2, 0],  # 240 at step 7: a maccs
    }
    assert state.trick_winners == [1]  # the trick stays in the trick order
    assert "uncounted" in [e.kind for e in state.events]


# (player 0's hand, player 1's hand, talon top, the move between): trick 1's winner, player 1,
# draws the first talon card and player 0 the second (T3).
CLOSERS = {
    "the next lead": (KVART, OTHER, "", "1: play AL"),
    "the opponent's béla": (KVART, OTHER, "OB 9H", "1: bela"),  # player 1 draws the OB to its KB
    "the claimant's own béla": (KVART.replace("8B", "OB"), OTHER.replace("KB", "KH"), "9H KB", "0: bela"),
}


@pytest.mark.rule("S3", "B1")
@pytest.mark.parametrize("case", sorted(CLOSERS))
def test_the_window_closes_after_any_other_move(case: str) -> None:
    mine, theirs, talon_top, between = CLOSERS[case]
    state = HandState(make_deal(mine, theirs, "9B", dealer=1, talon_top=talon_top), None, (455, 240))
    state.push_many(["0: declare kvart:OA", "0: play 7H", "1: play AH"])
    assert state.claim_window is not None
    state.push(between)
    assert state.claim_window is None
    state.push("0: out")
    assert state.out == (0, True)
    assert state.card_points == [0, 11]  # judged as usual, after the trick: it counts
    assert state.buli == [1, 0]  # player 1 has 251 or more: no maccs


@pytest.mark.rule("S3")
def test_a_claim_that_needs_the_trick_is_judged_after_it() -> None:
    # 440 + 50 = 490 at step 7: short; the leader's Ace takes the 7 (11), which makes it 501.
    deal = make_deal("OA UA XA 9A AH XH KL 7B 8B", "7H 8H AL OL UL 8L 7L KB AB", "9B", dealer=1)
    state = HandState(deal, None, (440, 240))
    state.push_many(["0: declare kvart:OA", "0: play AH", "1: play 7H"])  # player 0 takes 11: 501
    assert state.totals == (501, 240) and state.claim_window is not None
    assert state.claim(0).at_step_seven is False and state.claim(0).valid
    state.push("0: out")
    assert summary(state) == {
        "status": "out",
        "meld_points": [50, 0],
        "card_points": [11, 0],  # needed, so counted
        "scores": [501, 240],
        "out": {"player": 0, "valid": True},
        "buli": [2, 0],
    }


@pytest.mark.rule("S3")
def test_a_claim_short_even_with_the_trick_is_wrong() -> None:
    state = after(hand((400, 240)), "0: declare kvart:OA", "0: play 7H", "1: play AH")
    state.push("0: out")
    assert state.out == (0, False) and state.buli == [0, 1] and state.card_points == [0, 11]


@pytest.mark.rule("S3", "K1")
def test_an_explicit_pass_gives_the_same_result() -> None:
    silent = after(hand((455, 240)), "0: declare kvart:OA", "0: play 7H", "1: play AH", "0: out")
    passed = after(hand((455, 240)), "0: declare kvart:OA", "0: play 7H", "1: pass", "0: out")
    assert summary(passed) == summary(silent)
    assert passed.trick_winners == [] and silent.trick_winners == [1]


@pytest.mark.rule("S3")
def test_the_window_is_the_leaders_only() -> None:
    # Player 1 took the trick; a claim by player 1 right after is judged as usual (and is wrong here).
    state = after(hand((455, 240)), "0: declare kvart:OA", "0: play 7H", "1: play AH", "1: out")
    assert state.out == (1, False) and state.card_points == [0, 11]


@pytest.mark.rule("S3", "K1")
def test_no_window_without_a_declaration_or_after_a_declared_answer() -> None:
    assert after(hand((455, 240)), "0: play 7H", "1: play AH").claim_window is None
    # The second player declared (and lost): the contest was decided before the card.
    deal = make_deal(KVART, "AH XH OL UL XL 9L 7L KB AB", "9B", dealer=1)
    state = HandState(deal, None, (455, 240))
    state.push_many(["0: declare kvart:OA", "0: play 7H", "1: declare kvart:OL", "1: play AH"])
    assert state.claim_window is None and state.meld_points == [50, 0]


@pytest.mark.rule("S3", "B2")
def test_no_window_in_b2s_both_over_state() -> None:
    # Pais (B2): a silent answer decides the contest, so only the leader's melds can score by it, and
    # one contest lifts both players only if the second was already past 501: then no window.
    rules = RuleSet.pais()
    deal = make_deal("OA UA XA 9A 7H KB OB 8B 9L", OTHER.replace("KB", "KH"), "9B", dealer=1)
    state = HandState(deal, rules, (420, 240))
    state.push_many(["0: declare bela kvart:OA", "0: play 7H", "1: play AH"])
    assert state.meld_points == [90, 0] and state.claim_window is not None  # béla is one of the leader's melds
    state.push("0: out")
    assert state.card_points == [0, 0] and state.buli == [2, 0]
    # B2's both-over state: in trick 1 the leader's béla (scored whatever the contest) and the second's
    # winning kvart lift both to 501 at once. In trick 2 a silent answer opens no window.
    deal = make_deal("KB OB 7H 8H 8B 7L 9L UL KH", "AH OA UA XA 9A AL KL OL 8L", "9B", dealer=1)
    both = HandState(deal, rules, (461, 451))
    both.push_many(["0: declare bela", "0: play 7H", "1: declare kvart:OA", "1: play AH"])
    assert both.totals == (501, 512) and both.view(0).both_over
    both.push_many(["1: declare terc:AL", "1: play 8L", "0: play 9L"])  # the terc scores by the silent 9L
    assert both.meld_points == [40, 70] and both.claim_window is None
    both.push("1: out")
    assert both.out == (1, True) and both.buli == [0, 1] and both.card_points == [0, 11]


@pytest.mark.rule("S3")
def test_the_window_survives_copy_and_pop() -> None:
    state = after(hand((455, 240)), "0: declare kvart:OA", "0: play 7H", "1: play AH")
    copy = state.copy()
    state.push("1: play AL")
    assert state.claim_window is None and copy.claim_window is not None
    state.pop()
    assert state.claim_window == copy.claim_window


# ---------------------------------------------------------------- property: the window never changes
# a claim that did not need it
def _usual_verdict(state: HandState, p: int) -> tuple[bool, int, list[int]]:
    """S3/S4 without the window: (valid, buli of the winner, card points), from the totals."""
    mine, theirs = state.total(p), state.total(1 - p)
    if mine >= WINNING_SCORE:
        limit = theirs < 250 if state.rules.single_games else theirs <= 250
        return True, 2 if limit else 1, list(state.card_points)
    return False, 1, list(state.card_points)


@pytest.mark.rule("S3", "S4")
@pytest.mark.parametrize("rules", ["hungarian", "austrian"])
def test_the_window_never_changes_a_claim_that_did_not_need_it(rules: str) -> None:
    rng = random.Random(15)
    ruleset = RuleSet.named(rules)
    checked = used = 0
    for _ in range(150):
        state = HandState.from_seed(
            rng.randrange(10**6), ruleset, scores=(rng.randint(380, 500), rng.randint(150, 480))
        )
        while not state.is_over:
            for p in (0, 1):
                if GoOut(p) not in state.legal_moves(p):
                    continue
                valid, buli, cards = _usual_verdict(state, p)
                trial = state.copy()
                trial.push(GoOut(p))
                window = state.claim_window
                checked += 1
                assert trial.out == (p, valid)  # the window never makes a wrong claim right or a right one wrong
                if (
                    window is None
                    or window.claimant != p
                    or state.total(p) - (window.points if window.winner == p else 0) < WINNING_SCORE
                ):
                    # the claim did not use the window: exactly the usual verdict
                    assert trial.card_points == cards
                    assert trial.buli[p if valid else 1 - p] == buli
                else:
                    used += 1
                    assert trial.card_points[window.winner] == cards[window.winner] - window.points
                    assert trial.buli[p] >= buli  # counted at step 7, the opponent never has more
            moves = [m for m in state.legal_moves() if not isinstance(m, GoOut)]
            declares = [m for m in moves if isinstance(m, Declare)]
            state.push(rng.choice(declares) if declares and rng.random() < 0.7 else rng.choice(moves))
    assert checked > 1000 and used >= 5


# ---------------------------------------------------------------- the bots know the window
@pytest.mark.rule("S3", "S4")
@pytest.mark.parametrize("bot", [RandomBot(seed=1), HeuristicBot(), SearchBot(samples=8, seed=1)], ids=lambda b: b.name)
def test_a_bot_claims_the_maccs_in_the_window(bot) -> None:
    # The bot leads with its kvart declared; the silent answer takes 11: the bot, not to move, claims.
    state = after(hand((455, 240)), "0: declare kvart:OA", "0: play 7H", "1: play AH")
    assert state.to_move == 1
    view = state.view(0)
    assert view.claim(0).at_step_seven and right_claim(view) == GoOut(0)

    class Never:
        name = "never"

        def choose(self, view):  # plays on, never claims
            return next(m for m in view.legal_moves if isinstance(m, Play))

    _play(state, (_Timed(bot), _Timed(Never())))  # the tournament offers the out-of-turn claim first
    assert state.status is Status.OUT and state.out == (0, True) and state.buli == [2, 0]
    assert state.card_points == [0, 0]
