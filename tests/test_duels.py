"""Tables for two on the course's server (tartli.server.duels, tartli.server.shadow; issue 38).

Through the real store on a real SQLite file (a temporary folder), as the server uses it; each seat plays
as its kernel will, from its own state only: the shadow record replayed, a move chosen from its view.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tartli.bots import HeuristicBot, RandomBot
from tartli.cards import CARDS
from tartli.game import HandState
from tartli.moves import Move, Play
from tartli.record import Record
from tartli.rules import RuleSet
from tartli.server.classroom import CODE_LENGTH, CODE_LETTERS
from tartli.server.duels import (
    AWAY_AFTER,
    DELETE_AFTER,
    FILE_NAME,
    IDLE_CLOSE,
    MAX_TABLES,
    SCHEMA,
    BadArgument,
    DuelError,
    DuelFolder,
    DuelStore,
    NotAllowed,
    Stale,
)
from tartli.server.shadow import Shadow, _Knowledge, shadow_record
from tests.conftest import Clock


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> DuelStore:
    return DuelStore(tmp_path / FILE_NAME, clock=clock, deals=random.Random(7))  # the same deals every run


def seated(store: DuelStore, rules: RuleSet | None = None) -> tuple[str, str, str]:
    """A table with Anna (seat 0) and Bence (seat 1): its code and the two tokens."""
    code, anna = store.open_table("Anna", rules=rules)
    seat, bence = store.take_seat(code, "Bence")
    assert seat == 1
    return code, anna, bence


def seat_game(state: dict[str, Any]) -> HandState:
    """The hand as the seat's kernel holds it: its record (the shadow) replayed."""
    return Record.from_dict(state["game"]["record"]).replay()


def choose(state: dict[str, Any], bot: Any = None) -> Move:
    """The move a seat's kernel would make: from the view of its own game only."""
    game = seat_game(state)
    return (bot or HeuristicBot()).choose(game.view(state["seat"]))


def real_state(store: DuelStore, code: str) -> HandState:
    """The referee's hand (a test reads it to check what the seats are given)."""
    with store._lock:
        return store._load(store._db, code).match.state


def mover(store: DuelStore, code: str, tokens: dict[int, str]) -> tuple[str, dict[str, Any]]:
    """The token and state of the seat to move."""
    for token in tokens.values():
        state = store.state_for(code, token)
        if state["to_move"] == "you":
            return token, state
    raise AssertionError("no seat to move")


# ---------------------------------------------------------------------------- opening and sitting down
def test_a_table_has_a_short_code_and_a_secret_seat_token_kept_only_as_a_hash(store: DuelStore, tmp_path: Path) -> None:
    code, token = store.open_table("  Anna \n")
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_LETTERS)
    assert len(token) == 32 and int(token, 16) >= 0
    state = store.state_for(code, token)
    assert (state["seat"], state["you"], state["other"], state["status"]) == (0, "Anna", None, "waiting")
    assert state["to_move"] is None and state["other_away"] is None and state["version"] == 1
    assert state["hand_number"] == 1 and state["buli"] == [0, 0] and not state["computer_plays_other"]
    store.close()
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        everything = json.dumps([db.execute(f"SELECT * FROM {t}").fetchall() for t in ("duels", "duel_seats")])
    assert token not in everything and "Anna" in everything


def test_a_second_player_sits_down_a_third_is_refused_and_a_token_gets_its_seat_back(store: DuelStore) -> None:
    code, anna = store.open_table("Anna")
    with pytest.raises(BadArgument, match="first name"):
        store.take_seat(code, "   ")
    seat, bence = store.take_seat(code.lower(), "Bence")
    assert seat == 1 and bence != anna
    with pytest.raises(DuelError, match="already has two players"):
        store.take_seat(code, "Cili")
    assert store.take_seat(code, "Anna again", anna) == (0, anna)  # a reload: the same seat, the same token
    assert store.take_seat(code, "", bence) == (1, bence)
    state = store.state_for(code, bence)
    assert (state["seat"], state["you"], state["other"], state["status"]) == (1, "Bence", "Anna", "playing")
    with pytest.raises(DuelError, match="already has two players"):
        store.take_seat(code, "Cili", "not a token of this table")


def test_a_wrong_token_and_an_unknown_table_are_the_same_refusal(store: DuelStore) -> None:
    code, anna = store.open_table("Anna")
    other, _ = store.open_table("Cili")
    for bad_code, bad_token in ((code, "0" * 32), ("XXXXXX", anna), (other, anna), (code, None), (code, 7)):
        with pytest.raises(NotAllowed) as refused:
            store.state_for(bad_code, bad_token)
        assert str(refused.value) == "not allowed"
    with pytest.raises(NotAllowed):
        store.take_seat("XXXXXX", "Bence")
    with pytest.raises(NotAllowed):
        store.version_of(code, "0" * 32)
    assert store.version_of(code, anna) == 1


def test_a_name_is_needed_and_the_open_tables_are_bounded(store: DuelStore, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(BadArgument, match="first name"):
        store.open_table("\x00 ")
    monkeypatch.setattr("tartli.server.duels.MAX_TABLES", 3)
    codes = [store.open_table(f"P{n}")[0] for n in range(3)]
    with pytest.raises(DuelError, match="3 open tables") as refused:
        store.open_table("One more")
    assert refused.value.words("hu") and MAX_TABLES == 500
    store.leave(codes[0], store.take_seat(codes[0], "Q")[1])  # a closed table makes room
    store.open_table("One more")


# ---------------------------------------------------------------------------- moves
def test_only_the_seat_to_move_may_play_and_a_refusal_changes_nothing(store: DuelStore) -> None:
    code, anna, bence = seated(store)
    token, state = mover(store, code, {0: anna, 1: bence})
    waiting = bence if token == anna else anna
    theirs = store.state_for(code, waiting)
    assert theirs["to_move"] == "other" and state["version"] == theirs["version"] == 2
    card = seat_game(theirs).hand(theirs["seat"])[0]
    with pytest.raises(DuelError, match="it is not your turn"):
        store.play(code, waiting, f"play {card}", theirs["version"])
    with pytest.raises(DuelError, match="not yours"):
        store.play(code, token, f"{theirs['seat']}: play {card}", state["version"])
    with pytest.raises(BadArgument, match="unknown action"):
        store.play(code, token, "dance", state["version"])
    assert store.state_for(code, token) == state
    lead = next(m for m in seat_game(state).legal_moves() if isinstance(m, Play))
    after = store.play(code, token, lead, state["version"])  # a Move, as the engine gives it
    assert after["version"] == 3 and after["to_move"] == "other"


def test_a_stale_version_is_refused_and_nothing_is_applied(store: DuelStore) -> None:
    code, anna, bence = seated(store)
    token, state = mover(store, code, {0: anna, 1: bence})
    move = choose(state)
    with pytest.raises(Stale, match="moved on"):
        store.play(code, token, move, state["version"] - 1)
    with pytest.raises(BadArgument):
        store.play(code, token, move, "2")
    assert store.state_for(code, token)["version"] == state["version"]
    assert store.play(code, token, move, state["version"])["version"] == state["version"] + 1
    with pytest.raises(Stale):  # the same move again, sent twice by an impatient page
        store.play(code, token, move, state["version"])


def test_an_illegal_move_is_refused_with_the_rules_id(store: DuelStore) -> None:
    code, anna, bence = seated(store)
    token, state = mover(store, code, {0: anna, 1: bence})
    held = set(seat_game(state).hand(state["seat"]))
    missing = next(c for c in CARDS if c not in held)
    with pytest.raises(DuelError) as refused:
        store.play(code, token, f"play {missing}", state["version"])
    assert refused.value.rule == "K1" and str(refused.value).startswith("K1: you do not hold")
    with pytest.raises(DuelError) as refused:
        store.play(code, token, "pass", state["version"])  # the leader does not pass
    assert refused.value.rule == "K1"
    assert store.state_for(code, token)["version"] == state["version"]


def test_a_move_waits_for_the_second_player(store: DuelStore) -> None:
    code, anna = store.open_table("Anna")
    state = store.state_for(code, anna)
    with pytest.raises(DuelError, match="second player"):
        store.play(code, anna, choose_any(state), state["version"])


def choose_any(state: dict[str, Any]) -> Move:
    game = seat_game(state)
    return game.legal_moves()[0]


def test_two_seats_play_a_whole_match_to_its_end_from_their_own_states(store: DuelStore) -> None:
    """Each seat chooses its moves from its own state (its shadow replayed), as its kernel will; the match
    is played to its end (S6), every hand's record is kept and replays as ``tartli replay`` reads it."""
    code, anna, bence = seated(store, RuleSet(buli_target=2))  # (a whole match, of 2 buli: CPU time is shared)
    tokens = {0: anna, 1: bence}
    bots = {0: HeuristicBot(), 1: RandomBot(seed=3)}
    moves = 0
    while True:
        states = {seat: store.state_for(code, token) for seat, token in tokens.items()}
        status = states[0]["status"]
        assert states[1]["status"] == status and states[0]["version"] == states[1]["version"]
        if status == "match-over":
            break
        if status == "hand-over":
            hand = states[0]["hand_number"]
            store.next_hand(code, tokens[0], hand)
            assert store.next_hand(code, tokens[1], hand)["hand_number"] == hand + 1  # both pressed Next
            continue
        seat = 0 if states[0]["to_move"] == "you" else 1
        assert states[1 - seat]["to_move"] == "other"
        store.play(code, tokens[seat], str(choose(states[seat], bots[seat])), states[seat]["version"])
        moves += 1
    final = store.state_for(code, anna)
    assert max(final["buli"]) >= 2 and store.state_for(code, bence)["buli"] == final["buli"][::-1]
    records = store.records(code, bence)
    assert len(records) == final["hand_number"] and records == store.records(code, anna)
    assert sum(len(r["moves"]) for r in records) == moves
    buli = [0, 0]
    for record in records:
        hand = Record.from_dict(json.loads(json.dumps(record))).replay()  # the `tartli replay` contract
        assert hand.is_over
        buli = [buli[0] + hand.buli[0], buli[1] + hand.buli[1]]
    assert sum(buli) >= 2
    with pytest.raises(DuelError, match="the match is over"):
        store.next_hand(code, anna)


def test_the_computer_may_play_for_a_player_who_is_away_and_gives_the_seat_back(store: DuelStore, clock: Clock) -> None:
    code, anna, bence = seated(store)
    clock.now += 60
    store.seen(code, anna)
    with pytest.raises(DuelError, match="wait 60 s") as refused:
        store.let_computer_play(code, anna, True)
    assert "Bence" in refused.value.words("de")
    state = store.state_for(code, anna)
    assert state["other_away"] == 60 and not state["computer_plays_other"]
    clock.now += AWAY_AFTER - 60
    state = store.let_computer_play(code, anna, True)
    assert state["computer_plays_other"] and state["to_move"] == "you" and state["other_away"] == AWAY_AFTER
    while not any(m.player == 1 for m in real_state(store, code).moves):  # (it moves at once if Bence leads)
        version = state["version"]
        state = store.play(code, anna, choose(state), version)  # the computer answers at once
        assert state["to_move"] == "you" and state["version"] == version + 1
    version = state["version"]
    assert store.state_for(code, bence)["computer_plays_other"] is False  # Bence's side: Anna is at the table
    store.seen(code, bence)  # Bence is back: his seat is his again
    state = store.state_for(code, anna)
    assert not state["computer_plays_other"] and state["other_away"] is None and state["version"] == version + 1
    with pytest.raises(BadArgument):
        store.let_computer_play(code, anna, "yes")


def until_the_other_moves(store: DuelStore, code: str, token: str) -> dict[str, Any]:
    """The seat of ``token`` plays until it is the other's turn (a lead may come after a swap or a declaration)."""
    state = store.state_for(code, token)
    while state["to_move"] == "you":
        state = store.play(code, token, choose(state), state["version"])
    return state


def test_the_player_at_the_table_may_choose_to_wait_again(store: DuelStore, clock: Clock) -> None:
    code, anna, _bence = seated(store)
    clock.now += AWAY_AFTER
    store.seen(code, anna)
    state = until_the_other_moves(store, code, anna)  # Bence to move, so that the computer moves as soon as it may
    before = len(real_state(store, code).moves)
    state = store.let_computer_play(code, anna, True)
    assert state["to_move"] == "you" and len(real_state(store, code).moves) > before
    state = store.let_computer_play(code, anna, False)
    assert not state["computer_plays_other"]
    state = until_the_other_moves(store, code, anna)
    assert state["to_move"] == "other" and not state["computer_plays_other"]  # the computer waits with Anna


def test_a_player_who_leaves_closes_the_table_for_both(store: DuelStore) -> None:
    code, anna, bence = seated(store)
    store.leave(code, bence)
    state = store.state_for(code, anna)
    assert state["status"] == "closed" and state["to_move"] is None
    with pytest.raises(DuelError, match="closed"):
        store.play(code, anna, choose_any(state), state["version"])
    with pytest.raises(DuelError, match="closed"):
        store.take_seat(code, "Cili")


def test_an_idle_table_closes_after_30_minutes_and_is_deleted_a_day_later(store: DuelStore, clock: Clock) -> None:
    code, anna, bence = seated(store)
    busy, cili = store.open_table("Cili")
    clock.now += IDLE_CLOSE - 10
    store.seen(code, anna)  # a page open keeps the table open
    clock.now += 20
    assert store.close_idle() == [busy]
    assert store.state_for(busy, cili)["status"] == "closed"
    assert store.state_for(code, anna)["status"] == "playing"
    clock.now += IDLE_CLOSE
    assert store.close_idle() == [code]
    assert store.state_for(code, bence)["status"] == "closed"
    clock.now += DELETE_AFTER + 1
    assert store.close_idle() == []
    for gone, token in ((busy, cili), (code, anna)):
        with pytest.raises(NotAllowed):
            store.state_for(gone, token)
    assert store.count_open() == 0
    with store._lock:  # nothing is kept of them: their seats and hands went with them
        kept = [store._db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("duel_seats", "duel_hands")]
    assert kept == [0, 0]


def test_a_class_lobby_lists_its_open_tables(store: DuelStore) -> None:
    first, _anna = store.open_table("Anna", class_code="ab3-k9m")
    second, cili = store.open_table("Cili", class_code="AB3K9M")
    store.open_table("Dóra", class_code="OTHER1")
    store.open_table("Emil")
    store.take_seat(first, "Bence")
    lobby = store.tables_of_class("ab3k9m")
    assert [t["code"] for t in lobby] == [first, second]
    assert lobby[0] == {
        "code": first,
        "names": ["Anna", "Bence"],
        "status": "playing",
        "hand_number": 1,
        "buli": [0, 0],
        "trick": 1,
        "points": [0, 0],
    }
    assert lobby[1]["names"] == ["Cili", None] and lobby[1]["status"] == "waiting"
    store.leave(second, cili)
    assert [t["code"] for t in store.tables_of_class("AB3K9M")] == [first]
    assert store.tables_of_class("") == [] and store.tables_of_class(None) == []


# ---------------------------------------------------------------------------- a restart
def test_a_new_store_on_the_same_file_continues_every_table_exactly(tmp_path: Path, clock: Clock) -> None:
    store = DuelStore(tmp_path / FILE_NAME, clock=clock, deals=random.Random(8))
    code, anna, bence = seated(store, RuleSet.pais())
    tokens = {0: anna, 1: bence}
    for _ in range(11):
        token, state = mover(store, code, tokens)
        store.play(code, token, choose(state), state["version"])
    before = {seat: store.state_for(code, token) for seat, token in tokens.items()}
    real = real_state(store, code)
    store.close()

    again = DuelStore(tmp_path / FILE_NAME, clock=clock)
    assert {seat: again.state_for(code, token) for seat, token in tokens.items()} == before  # the same shadows too
    continued = real_state(again, code)
    assert continued.deal == real.deal and continued.moves == real.moves and continued.rules == RuleSet.pais()
    token, state = mover(again, code, tokens)
    assert again.play(code, token, choose(state), state["version"])["version"] == state["version"] + 1


def test_a_restart_keeps_finished_hands_the_score_and_the_next_deal(tmp_path: Path, clock: Clock) -> None:
    store = DuelStore(tmp_path / FILE_NAME, clock=clock, deals=random.Random(9))
    code, anna, bence = seated(store)
    tokens = {0: anna, 1: bence}
    while store.state_for(code, anna)["status"] != "hand-over":
        token, state = mover(store, code, tokens)
        store.play(code, token, choose(state), state["version"])
    over = store.state_for(code, anna)
    store.close()
    again = DuelStore(tmp_path / FILE_NAME, clock=clock)
    assert again.state_for(code, anna) == over
    state = again.next_hand(code, bence)
    deal = real_state(again, code).deal
    again.close()
    third = DuelStore(tmp_path / FILE_NAME, clock=clock)
    assert real_state(third, code).deal == deal and state["hand_number"] == 2
    assert third.state_for(code, anna)["buli"] == over["buli"]
    assert len(third.records(code, anna)) == 1


# ---------------------------------------------------------------------------- long polls
def test_a_waiting_thread_hears_of_a_change_at_once(store: DuelStore) -> None:
    code, anna, bence = seated(store)
    heard: list[tuple[str, int]] = []
    store.listen(lambda c, v: heard.append((c, v)))
    token, state = mover(store, code, {0: anna, 1: bence})
    woke: list[float] = []

    def wait() -> None:
        if store.wait_for_change(code, state["version"], 5):
            woke.append(time.monotonic())

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.2)
    moved = time.monotonic()
    store.play(code, token, choose(state), state["version"])
    waiter.join(5)
    assert woke and woke[0] - moved < 0.2
    assert heard == [(code, state["version"] + 1)]
    assert store.wait_for_change(code, state["version"], 0)  # already changed: at once
    assert not store.wait_for_change(code, state["version"] + 1, 0.05)


def test_a_folder_opens_its_store_only_when_a_table_is_opened(tmp_path: Path) -> None:
    folder = DuelFolder(tmp_path / "data")
    heard: list[str] = []
    folder.listen(lambda code, _version: heard.append(code))
    with pytest.raises(NotAllowed):
        folder.store()
    assert not (tmp_path / "data").exists()
    code, _token = folder.store(create=True).open_table("Anna")
    assert (tmp_path / "data" / FILE_NAME).exists() and heard == [code]
    assert DuelFolder(tmp_path / "data").store().count_open() == 1


# ---------------------------------------------------------------------------- the shadow
RULES = (RuleSet(), RuleSet.pais(), RuleSet.austrian())


def lockstep(record: Record, state: HandState, seat: int) -> None:
    """The shadow ``record`` replays legally, and ``seat``'s view of it is the real one after every move."""
    real = HandState(state.deal, state.rules, state.scores_in)
    shadow = record.new_state()
    assert real.view(seat) == shadow.view(seat)
    assert len(record.moves) == len(state.moves)
    for move, text in zip(state.moves, record.moves, strict=True):
        real.push(move)
        shadow.push(text)
        assert shadow.view(seat) == real.view(seat)


def random_hands(count: int, first: int = 0) -> list[tuple[int, RuleSet, list[Move]]]:
    """``count`` hands played to their end by two bots (rules by turns: Hungarian, Pais, Austrian)."""
    hands = []
    for n in range(first, first + count):
        rules = RULES[n % 3]
        state = HandState.from_seed(n, rules)
        bots = [RandomBot(seed=n), HeuristicBot()] if n % 2 else [RandomBot(seed=n), RandomBot(seed=n + 1)]
        while not state.is_over:
            player = state.to_move
            assert player is not None
            state.push(bots[player].choose(state.view(player)))
        hands.append((n, rules, list(state.moves)))
    return hands


def test_the_shadow_gives_each_seat_its_real_view_at_every_move_of_30_random_hands() -> None:
    """The property: at every moment of 30 hands, each seat's shadow replays to that seat's real view after
    every move, field by field (its hand, the cards played, the scores, the events, its legal moves)."""
    exact = 0
    hidden_declarations = 0
    for n, rules, moves in random_hands(30):
        state = HandState.from_seed(n, rules)
        for index, move in enumerate(moves):
            for seat in (0, 1):
                shadow = shadow_record(state, seat, (n, index))
                assert shadow.exact
                exact += 1
                lockstep(shadow.record, state, seat)
                hidden_declarations += shadow.record.moves != [str(m) for m in state.moves]
            state.push(move)
        final = shadow_record(state, 0, n)
        assert final.record.deal == state.deal  # a hand that is over is no secret
    assert exact > 2000 and hidden_declarations > 10  # (the other's lost declarations were named anew)


def test_the_fallback_replays_and_keeps_the_points() -> None:
    """With no try the fallback is given: a record that replays, with the other's lost announcements left
    out and everything else the seat sees as it is."""
    for n, rules, moves in random_hands(12, first=100):
        state = HandState.from_seed(n, rules)
        for index, move in enumerate(moves):
            seat = index % 2
            shadow = shadow_record(state, seat, n, tries=0)
            assert isinstance(shadow, Shadow) and not shadow.exact
            mine, real = shadow.record.replay().view(seat), state.view(seat)
            assert (mine.hand, mine.tricks, mine.lead, mine.totals, mine.scored_melds, mine.to_move) == (
                real.hand,
                real.tricks,
                real.lead,
                real.totals,
                real.scored_melds,
                real.to_move,
            )
            state.push(move)


def test_a_shadow_does_not_hold_the_other_players_hidden_cards() -> None:
    """Over many moments of phase 1 the shadow's hand for the other shares about as many cards with their
    real hidden hand as chance gives (the unseen cards are theirs or the talon's), far from all of them;
    sending the real hand would share every one. Where their cards came from is left to chance too."""
    shared = hidden = same_first_hand = first_hand = 0
    for n, rules, moves in random_hands(12, first=200):
        state = HandState.from_seed(n, rules)
        for index, move in enumerate(moves):
            if state.trick_number > 7:
                break
            seat, other = index % 2, 1 - index % 2
            known = set(state.view(seat).opponent_known)
            theirs = set(state.hand(other)) - known
            game = shadow_record(state, seat, (n, index)).record.replay()
            shared += len(theirs & set(game.hand(other)))
            hidden += len(theirs)
            same_first_hand += len(set(state.deal.hands[other]) & set(game.deal.hands[other]))
            first_hand += 9
            state.push(move)
    assert hidden > 1000
    assert shared / hidden < 0.7
    assert same_first_hand / first_hand < 0.75


def test_the_same_moment_gives_the_same_shadow_and_another_moment_another() -> None:
    state = HandState.from_seed(5)
    bot = HeuristicBot()
    for _ in range(6):
        player = state.to_move
        assert player is not None
        state.push(bot.choose(state.view(player)))
    first = shadow_record(state, 0, "ABCDEF:7:0").record
    assert shadow_record(state, 0, "ABCDEF:7:0").record == first
    assert shadow_record(state, 0, "ABCDEF:8:0").record.deal != first.deal


def test_the_shadow_is_made_from_what_the_seat_knows_only() -> None:
    """Two hands that the seat cannot tell apart (the other's cards and the talon dealt otherwise, the same
    moves) give the same shadow: nothing of the real hidden cards goes in."""
    rng = random.Random(4)
    for _ in range(20):
        state = HandState.from_seed(rng.randrange(10**6))
        seat = rng.randrange(2)
        bot = HeuristicBot()
        for _move in range(rng.randrange(1, 12)):
            player = state.to_move
            assert player is not None
            state.push(bot.choose(state.view(player)))
        twin = shadow_record(state, seat, "twin").record.replay()  # a hand the seat cannot tell from the real one
        assert _Knowledge.of(state, seat).views == _Knowledge.of(twin, seat).views
        assert shadow_record(twin, seat, "x").record == shadow_record(state, seat, "x").record


def test_the_hint_is_agreed_by_each_seat_and_kept(tmp_path: Path, clock: Clock) -> None:
    store = DuelStore(tmp_path / "duels.sqlite3", clock=clock)
    code, anna = store.open_table("Anna")
    _seat, bence = store.take_seat(code, "Bence")
    assert store.state_for(code, anna)["hints"] == {"mine": False, "theirs": False}
    assert store.allow_hints(code, anna, True)["hints"] == {"mine": True, "theirs": False}
    assert store.state_for(code, bence)["hints"] == {"mine": False, "theirs": True}
    with pytest.raises(BadArgument):
        store.allow_hints(code, bence, "yes")
    store.close()
    again = DuelStore(tmp_path / "duels.sqlite3", clock=clock)  # kept across a restart
    assert again.state_for(code, anna)["hints"] == {"mine": True, "theirs": False}
    again.close()


@pytest.mark.parametrize(
    ("column", "line", "key"),
    [
        ("hints", "    hints INTEGER NOT NULL DEFAULT 0,\n", lambda state: state["hints"]["mine"] is False),
        ("match_no", ",\n    match_no INTEGER NOT NULL DEFAULT 1\n", lambda state: state["match_number"] == 1),
    ],
)
def test_a_store_file_from_before_a_column_gets_it(tmp_path: Path, column: str, line: str, key: Any) -> None:
    """A duels file made before the Hint could be agreed on, or before another match could be played at a table."""
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    before = SCHEMA.replace(line, "\n" if line.startswith(",") else "")
    assert before != SCHEMA and column not in before.split("duel_past")[0]
    old.executescript(before)
    old.close()
    store = DuelStore(path)
    code, anna = store.open_table("Anna")
    assert key(store.state_for(code, anna))
    store.close()


# ---------------------------------------------------------------------------- another match
def play_to_the_end(store: DuelStore, code: str, tokens: dict[int, str]) -> int:
    """Both seats play from their own states until the match is over (each pressing Next); the moves made."""
    bots = {0: HeuristicBot(), 1: RandomBot(seed=3)}
    moves = 0
    while True:
        states = {seat: store.state_for(code, token) for seat, token in tokens.items()}
        status = states[0]["status"]
        if status == "match-over":
            return moves
        if status == "hand-over":
            store.next_hand(code, tokens[1], states[1]["hand_number"])
            continue
        seat = 0 if states[0]["to_move"] == "you" else 1
        store.play(code, tokens[seat], str(choose(states[seat], bots[seat])), states[seat]["version"])
        moves += 1


@pytest.mark.rule("S6", "D2")
def test_another_match_starts_at_0_with_the_deal_alternating_and_keeps_the_first_match(
    tmp_path: Path, clock: Clock
) -> None:
    """S6 and D2 across matches: once a match is over either player may start another at the table, the same
    two players, both at 0 buli; the player who did not deal the last hand deals (the deal alternates). The
    first match's records stay downloadable by its number, and a restart continues the second match."""
    store = DuelStore(tmp_path / FILE_NAME, clock=clock, deals=random.Random(7))
    code, anna, bence = seated(store, RuleSet(buli_target=1))
    with pytest.raises(DuelError, match="not over"):
        store.another_match(code, anna)
    first_deal = real_state(store, code).deal
    play_to_the_end(store, code, {0: anna, 1: bence})
    first = store.records(code, anna)
    last_dealer = real_state(store, code).dealer
    assert first and store.state_for(code, bence)["match_number"] == 1
    state = store.another_match(code, bence, 1)
    assert (state["status"], state["match_number"], state["hand_number"], state["buli"]) == ("playing", 2, 1, [0, 0])
    again = store.another_match(code, anna, 1)  # the other pressed it too: still the second match
    assert (again["match_number"], again["version"]) == (2, state["version"])
    hand = real_state(store, code)
    assert hand.dealer == 1 - last_dealer and hand.totals == (0, 0) and not hand.moves
    assert hand.deal != first_deal  # (another match deals other hands than the first)
    assert store.records(code, anna) == [] and store.records(code, bence, 1) == first
    assert store.records(code, anna, 7) == []
    with pytest.raises(BadArgument):
        store.records(code, anna, "1")
    token, seat_state = mover(store, code, {0: anna, 1: bence})
    store.play(code, token, str(choose(seat_state)), seat_state["version"])
    played = real_state(store, code)
    store.close()
    restarted = DuelStore(tmp_path / FILE_NAME, clock=clock)
    assert restarted.state_for(code, anna)["match_number"] == 2
    assert real_state(restarted, code).deal == played.deal and real_state(restarted, code).moves == played.moves
    assert restarted.records(code, bence, 1) == first
    restarted.close()
