"""The Hint: always a legal move offered at that moment, a claim only when right, reasons that are true."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from tartli import HandState, RuleSet, i18n
from tartli.bots import HeuristicBot
from tartli.bots.evaluate import Budget, exact_values, phase_two_state
from tartli.bots.hint import (
    Hint,
    HintBot,
    HintKind,
    NoHint,
    _broken_melds,
    _phase_one_facts,
    _sure,
    _unbeatable,
    hint,
)
from tartli.bots.solver import solve
from tartli.bots.tournament import ToldHint, make_bot, run_hint_bench
from tartli.cards import Card, Rank, mask_of
from tartli.errors import ArgumentError
from tartli.game import PHASE1_TRICKS, PlayerView
from tartli.melds import Meld, MeldKind, contest_key, same_suit_ok, sequences_in, sets_in
from tartli.moves import Bela, Declare, GoOut, Pass, Play, Swap
from tests.test_bots import positions
from tests.test_i18n_engine import english_left


def _to_move(count: int, seed: int, declare_bias: float = 0.5) -> Iterator[tuple[HandState, int, PlayerView]]:
    """Random positions (:func:`tests.test_bots.positions`) with the player to move and their view."""
    for state in positions(count, seed=seed, declare_bias=declare_bias):
        p = state.to_move
        assert p is not None
        yield state, p, state.view(p)


def _hints(count: int, seed: int) -> list[tuple[HandState, int, Hint | None]]:
    """Hints for both seats of random positions under every rule set (``None``: NoHint)."""
    out: list[tuple[HandState, int, Hint | None]] = []
    for state in positions(count, seed=seed):
        for player in (0, 1):
            try:
                advice: Hint | None = hint(state.view(player), budget=Budget(deals=3))
            except NoHint:
                advice = None
            out.append((state, player, advice))
    return out


HINTS = _hints(240, seed=27)


@pytest.mark.rule("T2", "T4", "T5", "V7", "M4", "K3", "B1", "B2", "S3", "S4")
def test_the_hint_is_always_a_legal_move_offered_at_that_moment() -> None:
    kinds: set[HintKind] = set()
    moves: set[type] = set()
    for state, player, advice in HINTS:
        if advice is None:
            assert state.to_move != player  # the player to move always gets a hint
            continue
        assert advice.move in state.legal_moves(player)
        assert advice.move in state.view(player).legal_moves
        assert state.is_legal(advice.move)
        assert advice.move.player == player
        assert isinstance(advice.reason, str) and len(advice.reason) > 10
        if state.to_move != player:
            assert isinstance(advice.move, GoOut | Bela | Swap)  # only what may be done out of turn
        kinds.add(advice.kind)
        moves.add(type(advice.move))
    assert set(HintKind) == kinds  # the search, exact, claims, béla, the only move, the Austrian swap (V7)
    assert {Play, Declare, GoOut, Bela, Swap} <= moves


@pytest.mark.rule("S3", "S4", "B2")
def test_a_claim_is_hinted_exactly_when_it_wins_the_game() -> None:
    claims = 0
    for state, player, advice in HINTS:
        claim = state.claim(player)
        right = claim.valid and claim.winner == player and GoOut(player) in state.legal_moves(player)
        if advice is not None and isinstance(advice.move, GoOut):
            claims += 1
            assert claim.valid and claim.winner == player
            assert str(claim.total) in advice.reason
        if right:
            assert advice is not None and isinstance(advice.move, GoOut)
    assert claims > 10


def test_the_hint_never_sees_the_hidden_cards() -> None:
    """Two states that differ only in what the player cannot see give the same hint."""
    checked = 0
    for state, p, view in _to_move(40, 41):
        if state.trick_number > PHASE1_TRICKS or view.talon_size < 2:
            continue
        twin = _swap_talon(state)
        if twin is None:
            continue
        a = hint(view, budget=Budget(deals=4))
        b = hint(twin.view(p), budget=Budget(deals=4))
        assert twin.view(p) == view
        assert (a.move, a.reason) == (b.move, b.reason)
        checked += 1
    assert checked > 10


def _swap_talon(state: HandState) -> HandState | None:
    """The same position with the talon's next two cards exchanged (hidden from both players)."""
    from tartli.game import Deal

    deal = state.deal
    k = len(state.tricks) * 2
    talon = list(deal.talon)
    if k + 1 >= len(talon):
        return None
    talon[k], talon[k + 1] = talon[k + 1], talon[k]
    twin = HandState(Deal(deal.dealer, deal.hands, deal.indicator, tuple(talon)), state.rules, state.scores_in)
    for move in state.moves:
        twin.push(move)
    return twin


@pytest.mark.rule("T4", "C5", "S2")
def test_in_phase_two_the_hint_is_a_best_move_of_the_exact_search() -> None:
    seen = 0
    for state, player, advice in HINTS:
        if advice is None or advice.kind is not HintKind.EXACT:
            continue
        assert state.to_move == player
        values = exact_values(state)
        assert values.of(advice.move).value == values.best.value
        if state.trick_number > 8 and isinstance(advice.move, Play):
            assert advice.move in solve(state).best_moves
        seen += 1
    assert seen > 30


def _opponent_may_beat(view: PlayerView, card: Card) -> bool:
    """Phase 1, a lead: can any card the opponent may hold or draw win against it (T1, T2)?"""
    out = mask_of(view.unseen) | mask_of(view.opponent_known)
    if view.indicator is not None:
        out |= view.indicator.bit
    for other in (Card.from_index(i) for i in range(32) if out >> i & 1):
        if other.suit is card.suit and other.strength(view.trump) > card.strength(view.trump):
            return True
        if other.suit is view.trump and card.suit is not view.trump:
            return True
    return False


def test_every_nothing_can_beat_it_reason_is_true() -> None:
    """Each "nothing can beat" and "only a trump can beat" fact holds against every card not seen."""
    said = 0
    for state, p, view in _to_move(300, 9):
        if state.trick_number > PHASE1_TRICKS:
            if view.lead is None:
                for move in view.legal_moves:
                    if isinstance(move, Play) and _sure(state, move.card):
                        theirs = state.hand(1 - p)
                        follow = [c for c in theirs if c.suit is move.card.suit] or [
                            c for c in theirs if c.suit is state.trump
                        ]
                        for answer in follow or theirs:  # T4: what they may answer; T1: none wins
                            same = answer.suit is move.card.suit
                            assert not (same and answer.strength(state.trump) > move.card.strength(state.trump))
                            assert same or answer.suit is not state.trump
                        said += 1
            continue
        for move in view.legal_moves:
            for fact in _phase_one_facts(view, move):
                if fact.startswith("Every higher trump"):
                    assert isinstance(move, Play) and not _opponent_may_beat(view, move.card)
                    said += 1
                if "only a trump can beat" in fact:
                    assert isinstance(move, Play)
                    stronger = [
                        Card(r, move.card.suit)
                        for r in Rank
                        if Card(r, move.card.suit).strength(view.trump) > move.card.strength(view.trump)
                    ]
                    outside = mask_of(view.unseen) | mask_of(view.opponent_known)
                    if view.indicator is not None:
                        outside |= view.indicator.bit
                    assert not any(outside >> c.index & 1 for c in stronger)
                    said += 1
    assert said > 50


@pytest.mark.rule("K2", "K3", "K6", "K7")
def test_a_meld_said_to_win_the_contest_cannot_be_beaten() -> None:
    said = 0
    for _state, p, view in _to_move(600, 12, declare_bias=0.1):
        for move in view.legal_moves:
            if not isinstance(move, Declare):
                continue
            best = _unbeatable(view, move)
            if best is None:
                continue
            said += 1
            key = contest_key(best, view.trump, view.rules)
            possible = mask_of(view.unseen) | mask_of(view.opponent_known)
            scored = {m for ms in view.scored_melds for m in ms}
            second = view.leader != p
            for m in sets_in(possible, view.rules):
                assert m in scored or contest_key(m, view.trump, view.rules) < key or (m == best and not second)
            for m in sequences_in(possible):
                if same_suit_ok(m, view.scored_melds[1 - p], view.rules):
                    other = contest_key(m, view.trump, view.rules)
                    assert other < key or (other == key and not second)
    assert said > 5


def test_a_broken_meld_is_one_the_player_could_declare() -> None:
    found = 0
    for _state, _p, view in _to_move(300, 3):
        for move in view.legal_moves:
            for fact in _broken_melds(view, move):
                assert isinstance(move, Play)
                assert any(
                    isinstance(d, Declare) and any(m.mask & move.card.bit for m in d.melds) for d in view.legal_moves
                )
                assert "broke up" in fact
                found += 1
    assert found > 5


def test_the_heuristic_reasons_say_only_what_is_true() -> None:
    """The rule of thumb's reasons, now the Medium computer's: the trick's points, the lowest trump."""
    bot = HeuristicBot()
    said = 0
    for state, _p, view in _to_move(1500, 77):
        move, reason = bot.choose_with_reason(view)
        assert "worth a low trump" not in reason and "cheaply" not in reason and "count double" not in reason
        if not isinstance(move, Play) or view.lead is None or state.trick_number > PHASE1_TRICKS:
            continue
        found = re.search(r"the trick brings you (\d+) card points", reason)
        if found:
            said += 1
            assert int(found.group(1)) == view.lead.points(view.trump) + move.card.points(view.trump)
            if "your lowest trump" in reason:
                assert move.card == min(
                    (c for c in view.hand if c.suit is view.trump), key=lambda c: c.strength(view.trump)
                )
        if reason.startswith("None of your cards can win"):
            lead = view.lead
            assert not any(
                (c.suit is lead.suit and c.strength(view.trump) > lead.strength(view.trump))
                or (c.suit is view.trump and lead.suit is not view.trump)
                for c in view.hand
            )
    assert said > 20


def test_the_search_reason_reports_the_evaluations_own_numbers() -> None:
    """The phase-1 reason quotes the evaluation the move was chosen by: its deals, and the gap to the
    runner-up (or both moves' means), never a number of its own."""
    checked = 0
    for _state, _player, advice in HINTS:
        if advice is None or advice.kind is not HintKind.SEARCH or advice.evaluation is None:
            continue
        found = advice.evaluation
        assert found.best.move == advice.move  # the Hint is the evaluation's best move
        if len(found.moves) < 2:
            continue
        checked += 1
        assert f"Over {found.samples} deals" in advice.reason
        said = re.findall(r"([+-]?\d+) points? better|on average ([+-]\d+)", advice.reason)
        numbers = [int(x or y) for x, y in said]
        if "better on average than" in advice.reason:
            (better,) = numbers
            assert better > 0 and any(round(v.loss) == better for v in found.moves[1:])
        else:
            assert round(found.best.value) in numbers
    assert checked > 20


def test_passing_is_never_hinted_while_a_card_can_be_played() -> None:
    for state, player, advice in HINTS:
        if advice is not None and isinstance(advice.move, Pass):
            assert not any(isinstance(m, Play) for m in state.legal_moves(player))


def test_nothing_to_advise_out_of_turn_or_after_the_hand() -> None:
    state = HandState.from_seed(8)
    other = 1 - (state.to_move or 0)
    view = state.view(other)
    if any(isinstance(m, Bela | Swap) for m in view.legal_moves) or view.claim(other).valid:
        pytest.skip("this deal gives the other player a move out of turn")
    with pytest.raises(NoHint):
        hint(view, budget=Budget(deals=2))
    while not state.is_over:
        state.push(HeuristicBot().choose(state.view(state.to_move)))  # type: ignore[arg-type]
    with pytest.raises(NoHint):
        hint(state.view(0), budget=Budget(deals=2))


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_hints_have_no_english_left(lang: str) -> None:
    i18n.set_language(lang)
    try:
        for _state, _p, view in _to_move(40, 5):
            text = hint(view, budget=Budget(deals=3)).reason
            assert english_left(text) == [], text
    finally:
        i18n.set_language("en")


def test_the_hint_bot_and_its_benchmark() -> None:
    bot = make_bot("hint", seed=3, samples=2)
    assert isinstance(bot, HintBot)
    state = HandState.from_seed(6, RuleSet.pais())
    while not state.is_over:
        p = state.to_move
        assert p is not None
        state.push(bot.choose(state.view(p)))
    lines: list[str] = []
    figures = run_hint_bench("medium", 2, seed=2, samples=2, out=lines.append)
    assert re.fullmatch(r"hint vs medium: \d+\.\d% of hands \(95% CI \d+\.\d-\d+\.\d%\), 2 hands", lines[0])
    assert lines[1].startswith("latency of the hint: mean ")
    assert figures["hands"] == 2
    with pytest.raises(ValueError, match="medium, hard or reference"):
        run_hint_bench("easy", 2, out=lines.append)


def test_a_told_hint_is_told_the_true_cards_and_nothing_else() -> None:
    """The ceilings of docs/benchmarks.md: ``deal`` evaluates on the true state itself, ``hand`` on
    the true hands with the talon's order shuffled (hidden from both players); the true state is
    never changed, and a told Hint is told only by a tournament."""
    early = next(
        s for s in positions(60, seed=12) if s.trick_number <= 5 and len(s.talon) >= 4 and s.to_move is not None
    )
    late = next(s for s in positions(200, seed=12) if s.trick_number > PHASE1_TRICKS + 1 and s.to_move is not None)
    talon, hands = list(early.talon), (early.hand(0), early.hand(1))
    deal, hand = ToldHint("deal"), ToldHint("hand")
    deal.state = hand.state = early
    told = deal._deal(random.Random(1))
    assert (told.hand(0), told.hand(1), told.talon, told.indicator) == (*hands, talon, early.indicator)
    orders = set()
    for k in range(20):
        shuffled = hand._deal(random.Random(k))
        assert (shuffled.hand(0), shuffled.hand(1), shuffled.indicator) == (*hands, early.indicator)
        assert sorted(shuffled.talon) == sorted(talon)
        orders.add(tuple(shuffled.talon))
    assert len(orders) > 1
    assert list(early.talon) == talon  # the true state is not changed
    p = early.to_move
    assert p is not None
    assert deal.choose(early.view(p)) in early.legal_moves()
    q = late.to_move
    assert q is not None
    deal.state = late
    assert deal.choose(late.view(q)) == hint(late.view(q), budget=deal.budget).move  # phase 2: the Hint's own
    with pytest.raises(ArgumentError, match="true state"):
        ToldHint("hand").choose(early.view(p))
    with pytest.raises(ArgumentError, match="told is hand or deal"):
        ToldHint("cards")
    made = make_bot("hint-told-hand", samples=2)
    assert isinstance(made, ToldHint) and made.told == "hand" and made.budget == Budget(deals=2)
    lines: list[str] = []
    figures = run_hint_bench("medium", 2, seed=2, samples=2, out=lines.append, told="hand")
    assert lines[0].startswith("hint (told the opponent's hand) vs medium: ") and figures["hands"] == 2
    with pytest.raises(ArgumentError, match="told"):
        run_hint_bench("medium", 2, out=lines.append, told="cards")


def test_a_phase_two_state_holds_what_the_view_shows() -> None:
    for state in positions(200, seed=8):
        p = state.to_move
        if p is None or state.trick_number <= PHASE1_TRICKS:
            continue
        built = phase_two_state(state.view(p))
        assert built.hand(1 - p) == state.hand(1 - p)
        assert built.view(p).legal_moves == state.view(p).legal_moves
        assert exact_values(built).best.value == exact_values(state).best.value


def test_melds_of_a_hint_are_named_by_kind() -> None:
    """A declaration's reason names its melds and their value."""
    for _state, _player, advice in HINTS:
        if advice is not None and isinstance(advice.move, Declare) and advice.kind is HintKind.SEARCH:
            for meld in advice.move.melds:
                if meld.kind is not MeldKind.BELA:
                    assert meld.title() in advice.reason


def test_a_declaration_is_counted_once_and_its_verb_agrees() -> None:
    """One meld is named once, without its value, which the sentence gives ("If your Acorn-Over-Vannak wins the
    contest, it scores 200"), two or more together ("... (20) and ... (100) win the contest, they score 120");
    German "Gewinnt der Ober-Vierling den Vergleich" for one (a hand played by the Hint once read "zählen
    Ober-Vierling (200) jetzt 200")."""
    seen = set()
    for _state, _player, advice in HINTS:
        if advice is None or not isinstance(advice.move, Declare) or advice.kind is not HintKind.SEARCH:
            continue
        melds = advice.move.melds
        total = sum(m.value for m in melds)
        if len(melds) == 1:
            assert f"If your {melds[0].title()} wins the contest, it scores {total} now" in advice.reason, advice.reason
            assert f"({melds[0].value})" not in advice.reason.split(" now")[0], advice.reason
        else:
            assert f"win the contest, they score {total} now" in advice.reason, advice.reason
        seen.add(len(melds) == 1)
    assert True in seen, "a declaration of one meld was hinted"
    assert ngettext_de(2).startswith(
        "If your Acorn-Over-Terc (20) and Under-vannak (100) win the contest, they score 120"
    )
    i18n.set_language("de")
    try:
        single = ngettext_de(1)
        assert "Gewinnt der Ober-Vierling den Vergleich, bekommst du dafür jetzt 200" in single, single
        assert "Gewinnen die Eichel-Ober-Terz (20) und der Unter-Vierling (100) den Vergleich" in ngettext_de(2)
        assert "zusammen 120" in ngettext_de(2)
    finally:
        i18n.set_language("en")


def ngettext_de(count: int) -> str:
    """The declaration sentence of the Hint as the page shows it, for one meld (the Ober-Vierling) or two."""
    from tartli.bots.heuristic import melds_words

    text = i18n.ngettext(
        "If your {melds_the} wins the contest, it scores {points} now.",
        "If your {melds_the} win the contest, they score {points} now.",
        count,
    )
    if count == 1:
        return text.format(melds=Meld.parse("vannak:O").title(), points=200)
    return text.format(melds=melds_words([Meld.parse("terc:OA"), Meld.parse("vannak:U")]), points=120)


@pytest.mark.parametrize(
    ("lang", "card", "declared"),
    [
        ("de", "mit dem Herz-Daus", "mit dem sofortigen Melden des Unter-Vierlings (100)"),
        ("hu", "a piros ásszal", "az alsó vannak (100) azonnali bemondásával"),
    ],
)
def test_a_move_is_said_in_its_case_as_the_means_of_a_sentence(lang: str, card: str, declared: str) -> None:
    """A sentence that compares two moves says each in its case ("mit dem Herz-Daus", "a piros ásszal"), not
    as a quoted label ("mit „das Herz-Daus“", "ezzel – a piros ász –"); a declaration too, with its article
    in Hungarian. The English is unchanged."""
    from tartli.bots.explain import cause
    from tartli.bots.hint import move_phrase
    from tartli.i18n import Message

    view = HINTS[0][0].view(HINTS[0][1])
    play, declare = Play(0, Card.parse("AH")), Declare(0, (Meld.parse("vannak:U"),))
    sentence = Message("{move_ins} … {other_ins}")
    assert sentence.format(move=move_phrase(play, view), other=move_phrase(declare, view)) == (
        "the Ace of Hearts … declaring Under-vannak (100) now"
    )
    i18n.set_language(lang)
    try:
        said = sentence.format(move=move_phrase(play, view), other=move_phrase(declare, view))
        assert said == f"{card.removeprefix('mit ')} … {declared.removeprefix('mit ')}", said
        causes = [
            cause(v, a.evaluation, m)
            for _s, _p, a in HINTS[:80]
            if a and a.evaluation
            for v in [_s.view(_p)]
            for m in [a.evaluation.moves[-1].move]
        ]
        assert sum(1 for c in causes if c) >= 5, "the check reads real sentences"
        assert not [c for c in causes if c and ("„" in c or " – " in c)], "no move quoted as a label"
    finally:
        i18n.set_language("en")
