"""Bots: legal moves only, views only, the determinizer, levels, tournaments."""

from __future__ import annotations

import contextlib
import gc
import io
import random
from collections.abc import Iterator

import pytest

from tartli import Deal, HandState, RuleSet
from tartli.__main__ import main
from tartli.bots import HeuristicBot, RandomBot, SearchBot, bot_for_level
from tartli.bots.determinize import (
    Silence,
    World,
    announcements,
    build_state,
    consistent,
    could_declare,
    sample,
    silences,
)
from tartli.bots.solver import against_rules_of_thumb, solve
from tartli.bots.tournament import run_hands, run_matches
from tartli.cards import mask_of, parse_cards
from tartli.errors import ArgumentError
from tartli.game import PlayerView
from tartli.melds import Meld
from tartli.moves import Bela, Declare, GoOut, Move, Play, Swap

RULE_SETS = [RuleSet.hungarian(), RuleSet.pais(), RuleSet.austrian()]


def positions(count: int, seed: int, declare_bias: float = 0.5) -> Iterator[HandState]:
    """Random positions of random hands under every rule set (declarations made often)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        rules = RULE_SETS[made % 3]
        scores = (rng.choice([0, 250, 480]), rng.choice([0, 250, 480]))
        state = HandState.from_seed(rng.randrange(10**6), rules, dealer=rng.randrange(2), scores=scores)
        for _ in range(rng.randrange(0, 45)):
            moves = state.legal_moves()
            if not moves:
                break
            decls = [m for m in moves if isinstance(m, Declare)]
            others = [m for m in moves if not isinstance(m, GoOut)] or list(moves)
            state.push(rng.choice(decls) if decls and rng.random() < declare_bias else rng.choice(others))
        if state.is_over:
            continue
        made += 1
        yield state


def _choose(bot: RandomBot | HeuristicBot | SearchBot, view: PlayerView) -> Move:
    return bot.choose(view)


@pytest.mark.rule("T2", "T4", "K3", "M4", "S4")
def test_random_and_heuristic_bots_only_play_legal_moves() -> None:
    rand, heur = RandomBot(seed=1), HeuristicBot()
    count = 0
    for state in positions(2000, seed=1):
        p = state.to_move
        assert p is not None
        view = state.view(p)
        for bot in (rand, heur):
            move = bot.choose(view)
            assert move in state.legal_moves(p)
            if isinstance(move, GoOut):
                assert state.total(p) >= 501  # never a wrong claim
        move, reason = heur.choose_with_reason(view)
        assert isinstance(reason, str) and len(reason) > 5
        count += 1
    assert count == 2000


@pytest.mark.rule("T4")
def test_search_bot_only_plays_legal_moves() -> None:
    bot = SearchBot(seed=2, samples=2)
    for state in positions(150, seed=2):
        p = state.to_move
        assert p is not None
        move, reason = bot.choose_with_reason(state.view(p))
        assert move in state.legal_moves(p), (str(move), state)
        assert reason


def test_bots_play_whole_hands_under_every_rule_set() -> None:
    for rules in RULE_SETS:
        for seed in range(2):
            state = HandState.from_seed(seed, rules)
            bots = (SearchBot(seed=seed, samples=2), HeuristicBot())
            while not state.is_over:
                p = state.to_move
                assert p is not None
                state.push(bots[p].choose(state.view(p)))


def _reachable(root: object) -> Iterator[object]:
    """Every object reachable from ``root`` (not through classes, modules or functions)."""
    seen: set[int] = set()
    stack = [root]
    skip = (type, type(gc), type(_reachable), type(len))
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        yield obj
        stack.extend(gc.get_referents(obj))


def test_a_view_holds_no_reference_to_the_state() -> None:
    for state in positions(30, seed=3):
        view = state.view(0)
        found = [o for o in _reachable(view) if isinstance(o, (HandState, Deal))]
        assert not found
        # The view hides the opponent's cards: nothing of the hidden hand but what is known.
        hidden = set(state.hand(1)) - set(view.opponent_known)
        assert not hidden & set(view.hand)
        assert all(not e.cards or e.private_to in (None, 0) or e.kind != "draw" for e in view.events)


def _swapped_twin(state: HandState, viewer: int, rng: random.Random) -> HandState | None:
    """The same hand with one unknown card of the opponent exchanged with a card still in the talon."""
    opp = 1 - viewer
    view = state.view(viewer)
    deal = state.deal
    talon = state.talon
    candidates = [c for c in state.hand(opp) if c in deal.hands[opp] and c not in view.opponent_known]
    if not candidates or not talon:
        return None
    x, y = rng.choice(candidates), rng.choice(talon)
    hands = [list(deal.hands[0]), list(deal.hands[1])]
    hands[opp][hands[opp].index(x)] = y
    new_talon = tuple(x if c == y else c for c in deal.talon)
    twin = HandState(
        Deal(deal.dealer, (tuple(hands[0]), tuple(hands[1])), deal.indicator, new_talon), state.rules, state.scores_in
    )
    try:
        twin.push_many(state.moves)
    except ValueError:
        return None
    return twin


def test_search_bot_depends_only_on_the_view() -> None:
    """Two states with the same view but different hidden cards: the same choice (same seed)."""
    rng = random.Random(5)
    compared = 0
    for state in positions(60, seed=5, declare_bias=0.3):
        if state.trick_number > 7 or state.to_move is None:
            continue
        p = state.to_move
        twin = _swapped_twin(state, p, rng)
        if twin is None:
            continue
        assert state.hand(1 - p) != twin.hand(1 - p) or state.talon != twin.talon
        view, twin_view = state.view(p), twin.view(p)
        assert view == twin_view
        a = SearchBot(seed=9, samples=3).choose_with_reason(view)
        b = SearchBot(seed=9, samples=3).choose_with_reason(twin_view)
        assert a == b
        compared += 1
        if compared >= 12:
            break
    assert compared >= 8


@pytest.mark.rule("K4", "V6", "M7")
def test_determinizer_respects_everything_public() -> None:
    """Samples never hold a card seen elsewhere, always hold the known cards and fit every announcement."""
    checked_announcements = 0
    for i, state in enumerate(positions(400, seed=6, declare_bias=0.85)):
        p = state.to_move if i % 3 else 1 - (state.to_move or 0)
        assert p is not None
        view = state.view(p)
        anns = announcements(view)
        checked_announcements += len(anns)
        truth = mask_of(state.hand(1 - p))
        assert consistent(view, truth)  # the real hand always fits
        seen = mask_of(view.hand)
        for _, a, b, _w in view.tricks:
            seen |= a.bit | b.bit
        if view.lead is not None:
            seen |= view.lead.bit
        if view.indicator is not None:
            seen |= view.indicator.bit
        for k in range(2):
            world = sample(view, random.Random(k))
            hand = mask_of(world.opponent_hand)
            assert not hand & seen and not mask_of(world.talon) & (seen | hand)
            assert mask_of(view.opponent_known) & ~hand == 0
            assert len(world.opponent_hand) == view.opponent_hand_size and len(world.talon) == view.talon_size
            assert consistent(view, hand)
            for ann in anns:
                if ann.pending:
                    assert world.pending is not None
                    assert sorted(m.announcement for m in world.pending if m.announcement != "béla") == sorted(
                        ann.kinds
                    )
                    for m in world.pending:
                        if m.mask:
                            assert m.mask & ~(hand | ann.since) == 0
    assert checked_announcements >= 30


@pytest.mark.rule("K2", "K3")
def test_determinizer_reads_a_lost_announcement() -> None:
    """The opponent announced a sequence and lost the contest: every sample gives them one."""
    for state in positions(3000, seed=7, declare_bias=0.9):
        for p in (0, 1):
            view = state.view(p)
            anns = [a for a in announcements(view) if not a.pending]
            if not anns:
                continue
            for k in range(3):
                hand = mask_of(sample(view, random.Random(k)).opponent_hand)
                assert consistent(view, hand, anns)
            return
    pytest.fail("no lost announcement found")


def _heuristic_hands(rules: RuleSet, seed: int) -> Iterator[tuple[HandState, dict[int, int]]]:
    """Positions of rule-of-thumb hands (it declares whenever it can), with player 1's hand
    at each of their declaration steps so far (trick -> card mask)."""
    bot = HeuristicBot()
    state = HandState.from_seed(seed, rules, dealer=seed % 2)
    at_step: dict[int, int] = {}
    while not state.is_over:
        p = state.to_move
        assert p is not None
        move = bot.choose(state.view(p))
        if p == 1 and state.trick_number <= 8 and not isinstance(move, (Bela, Swap)):
            at_step.setdefault(state.trick_number, mask_of(state.hand(1)))
        yield state, dict(at_step)
        state.push(move)


@pytest.mark.rule("M5", "K3", "K6", "K7", "V5")
def test_silences_are_steps_with_nothing_legal_to_declare() -> None:
    """Against a player who declares whenever they can, every step read as silent is one at
    which their true hand had nothing legal to declare, and the steps are found."""
    found = 0
    for rules in RULE_SETS:
        for seed in range(40):
            for state, at_step in _heuristic_hands(rules, seed):
                for s in silences(state.view(0)):
                    assert s.trick in at_step
                    assert not could_declare(at_step[s.trick], s, rules), (seed, s)
                    found += 1
    assert found > 1000


def test_could_declare_follows_k3_k6_and_k7() -> None:
    rules = RuleSet.hungarian()
    terc = mask_of(parse_cards(["KH", "OH", "UH", "7A", "8B"]))
    kings = mask_of(parse_cards(["KA", "KL", "KH", "KB", "7A"]))
    free = Silence(1, None, frozenset(), ())
    assert could_declare(terc, free, rules) and could_declare(kings, free, rules)
    assert not could_declare(terc, Silence(2, (True, 0), frozenset(), ()), rules)  # K3: a set was led
    assert not could_declare(terc, Silence(2, (False, 4), frozenset(), ()), rules)  # K3: a kvart was led
    assert could_declare(kings, Silence(2, (True, 0), frozenset(), ()), rules)
    assert not could_declare(kings, Silence(3, None, frozenset({Meld.parse("vannak:K")}), ()), rules)  # K6
    assert not could_declare(terc, Silence(3, None, frozenset(), (Meld.parse("kvart:KH"),)), rules)  # K7
    assert not could_declare(mask_of(parse_cards(["AH", "XH", "9H", "7H", "8A"])), free, rules)


@pytest.mark.rule("M5", "K3")
def test_sampled_hands_had_nothing_to_declare_at_a_silent_step() -> None:
    """The opponent led without declaring: with the inference every sampled hand (with the
    card led) had nothing to declare then; without it some samples give them a meld."""
    checked = 0
    uniform_melds = 0
    for rules in RULE_SETS:
        for seed in range(60):
            for state, _ in _heuristic_hands(rules, 1000 + seed):
                view = state.view(0)
                if not (view.trick_number <= 7 and view.lead is not None and view.leader == 1):
                    continue
                now = next((s for s in silences(view) if s.trick == view.trick_number), None)
                if now is None:
                    continue
                for k in range(4):
                    hand = mask_of(sample(view, random.Random(k)).opponent_hand) | view.lead.bit
                    assert not could_declare(hand, now, rules)
                    checked += 1
                    plain = mask_of(sample(view, random.Random(k), infer=False).opponent_hand) | view.lead.bit
                    uniform_melds += could_declare(plain, now, rules)
    assert checked > 500 and uniform_melds > 20


def test_build_state_with_the_truth_is_the_state() -> None:
    """The look-ahead state built from a view and the true hidden cards behaves like the real one."""
    for i, state in enumerate(positions(150, seed=8, declare_bias=0.6)):
        p = state.to_move if i % 2 else 1 - (state.to_move or 0)
        assert p is not None
        view = state.view(p)
        twin = build_state(view, World(tuple(state.hand(1 - p)), tuple(state.talon), state.declared[1 - p]))
        for q in (0, 1):
            assert twin.legal_moves(q) == state.legal_moves(q)
        rng = random.Random(i)
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            assert move in twin.legal_moves()
            state.push(move)
            twin.push(move)
        assert (twin.totals, twin.buli, twin.stichmatsch) == (state.totals, state.buli, state.stichmatsch)


def _hand_result(view: PlayerView, card_difference: int) -> int:
    """+1, 0 or -1: the hand won, drawn or lost with this final card-point difference (melds final)."""
    diff = view.meld_points[view.player] - view.meld_points[1 - view.player] + card_difference
    return (diff > 0) - (diff < 0)


@pytest.mark.rule("T4")
def test_search_bot_plays_the_solver_in_phase_two() -> None:
    """A best move unless best play loses the hand; then a best move or a card that wins or draws
    against the rules of thumb (and it says so)."""
    winning = other = 0
    for state in positions(400, seed=9):
        if state.trick_number < 9 or state.to_move is None:
            continue
        view = state.view(state.to_move)
        move, reason = SearchBot(seed=1).choose_with_reason(view)
        if not isinstance(move, Play):
            continue
        solution = solve(view)
        if _hand_result(view, solution.value) >= 0:
            assert move in solution.best_moves
            winning += 1
        elif move not in solution.best_moves:
            values = against_rules_of_thumb(view)
            assert values[move] == max(values.values())
            assert _hand_result(view, solution.value) < 0 <= _hand_result(view, values[move])
            assert "rules of thumb" in reason
            other += 1
    assert winning >= 10 and other >= 1


@pytest.mark.rule("T4", "S1")
def test_search_bot_gives_a_lost_hand_a_chance_against_the_rules_of_thumb() -> None:
    """Phase 2 from trick 9, when best play cannot win the hand: the search bot picks a card that wins
    it if the opponent keeps to the rules of thumb, and against the rule-of-thumb bot it does win."""
    rules = RuleSet.hungarian()
    found = 0
    for seed in range(400):
        state = HandState.from_seed(seed, rules, dealer=seed % 2)
        bot = HeuristicBot()
        while not state.is_over and (state.trick_number < 9 or state.lead is not None):
            state.push(bot.choose(state.view(state.to_move)))
        if state.is_over:
            continue
        me = state.to_move
        view = state.view(me)
        best = solve(view)
        if _hand_result(view, best.value) >= 0:
            continue
        values = against_rules_of_thumb(view)
        if _hand_result(view, max(values.values())) <= 0:
            continue
        search = SearchBot(seed=1)
        move, reason = search.choose_with_reason(view)
        assert values[move] == max(values.values())
        assert _hand_result(view, values[move]) > 0 and "rules of thumb" in reason
        while not state.is_over:  # play on: search bot against the rule-of-thumb bot
            p = state.to_move
            state.push(search.choose(state.view(p)) if p == me else bot.choose(state.view(p)))
        mine = state.meld_points[me] + state.card_points[me]
        assert mine > state.meld_points[1 - me] + state.card_points[1 - me], seed
        found += 1
        if found == 3:
            return
    pytest.fail(f"only {found} lost hands with a chance found")


@pytest.mark.rule("B1", "S3")
def test_heuristic_takes_bela_and_goes_out() -> None:
    bot = HeuristicBot()
    for state in positions(1500, seed=10):
        p = state.to_move
        assert p is not None
        view = state.view(p)
        move, reason = bot.choose_with_reason(view)
        if any(isinstance(m, GoOut) for m in view.legal_moves) and view.totals[p] >= 501:
            assert isinstance(move, GoOut) and "501" in reason
        elif any(isinstance(m, Bela) for m in view.legal_moves):
            assert isinstance(move, Bela) and "Béla" in reason


def test_levels() -> None:
    assert isinstance(bot_for_level("easy"), RandomBot)
    assert isinstance(bot_for_level("medium"), HeuristicBot)
    assert isinstance(bot_for_level("hard"), SearchBot)
    with pytest.raises(ValueError):
        bot_for_level("grandmaster")


def _figures(lines: list[str]) -> list[str]:
    return [line for line in lines if not line.startswith("latency")]


def test_tournaments_are_reproducible() -> None:
    runs = []
    for _ in range(2):
        lines: list[str] = []
        result = run_hands("search", "heuristic", hands=4, seed=3, samples=2, out=lines.append)
        runs.append((_figures(lines), result))
    assert runs[0] == runs[1]
    assert runs[0][1]["hands"] == 4 and len(runs[0][0]) == 3
    other: list[str] = []
    run_hands("heuristic", "random", hands=20, seed=3, out=other.append)
    again: list[str] = []
    run_hands("heuristic", "random", hands=20, seed=3, out=again.append)
    assert _figures(other) == _figures(again)
    third: list[str] = []
    run_hands("heuristic", "random", hands=20, seed=4, out=third.append)
    assert _figures(third) != _figures(other)


def test_a_tournament_played_in_two_processes_prints_the_figures_of_one() -> None:
    """Each deal's bots are seeded from the seed and the deal's number, so ``jobs`` changes nothing
    but the time: the same lines (latencies aside) and the same numbers, also for a search that
    carries its random numbers from decision to decision."""
    runs = []
    for jobs in (1, 2):
        lines: list[str] = []
        result = run_hands("search", "heuristic", hands=12, seed=5, samples=3, out=lines.append, jobs=jobs)
        runs.append((_figures(lines), result))
    assert runs[0] == runs[1]
    assert runs[0][1]["hands"] == 12
    with pytest.raises(ArgumentError, match="jobs is a whole number from 1"):
        run_hands("random", "random", 2, jobs=0)


def test_the_reference_opponent_is_a_fixed_number_of_deals_not_a_time() -> None:
    """``reference`` (today's Hard kept fixed) samples :data:`REFERENCE_SAMPLES` deals a decision, never
    a wall-clock budget: the same seed chooses the same moves however busy the machine is."""
    from tartli.bots.tournament import REFERENCE_SAMPLES, make_bot

    bots = [make_bot("reference", seed=9), make_bot("reference", seed=9)]
    assert all(isinstance(bot, SearchBot) and bot.samples == REFERENCE_SAMPLES for bot in bots)
    state = HandState.from_seed(12)
    while state.trick_number <= 2 and not state.is_over:
        view = state.view(state.to_move)
        first, second = (bot.choose(view) for bot in bots)
        assert first == second
        assert bots[0].last_samples in (0, REFERENCE_SAMPLES)
        state.push(first)


def test_matches_to_501() -> None:
    lines: list[str] = []
    result = run_matches("heuristic", "random", matches=2, seed=1, out=lines.append)
    assert result["matches"] == 2 and result["hands"] >= 2
    assert "matches to 1 buli" in lines[0]


def test_tournament_command() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["tournament", "--a", "heuristic", "--b", "random", "--hands", "6", "--seed", "2"]) == 0
    text = out.getvalue()
    assert "A won" in text and "95% CI" in text and "latency A (heuristic)" in text
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["tournament", "--a", "wizard", "--hands", "2"]) == 2
    assert "unknown bot" in err.getvalue()


def test_playout_policy_only_plays_legal_moves() -> None:
    """The fast playout policy (a cheap rule of thumb on card masks) picks legal moves under every rule set."""
    from tartli.bots.search import _playout_move

    rng = random.Random(11)
    count = 0
    for state in positions(300, seed=11):
        while not state.is_over:
            move = _playout_move(state, rng)
            assert move in state.legal_moves(), (str(move), state)
            state.push(move)
            count += 1
    assert count > 3000


def test_search_shortlist_keeps_the_rule_of_thumb_and_every_other_kind_of_move() -> None:
    bot = SearchBot(seed=1, samples=2, width=2)
    checked = 0
    for state in positions(300, seed=12):
        p = state.to_move
        assert p is not None
        view = state.view(p)
        if view.trick_number > 7 or view.to_move != p:
            continue
        candidates = [m for m in view.legal_moves if not isinstance(m, GoOut)]
        hint = HeuristicBot().choose(view)
        if isinstance(hint, (GoOut, Bela)):
            continue  # decided before any search
        short = bot._shortlist(view, candidates, hint)
        assert hint in short and set(short) <= set(candidates)
        assert [m for m in candidates if not isinstance(m, Play)] == [m for m in short if not isinstance(m, Play)]
        assert sum(isinstance(m, Play) for m in short) <= 3
        checked += 1
    assert checked >= 50


def test_play_model_prefers_the_cards_a_sensible_player_gives_up() -> None:
    """The sampler's opponent model: leading a lone low card is likelier than breaking up a
    sequence or leading the trump Over; the probabilities over a hand sum to one."""
    from tartli.bots.search import play_model

    hand = mask_of(parse_cards(["OA", "UA", "XA", "7L", "8H", "9B", "AB", "KH", "OL"]))  # trumps: Acorns
    model = play_model(0, True, 10.0)
    odds = {
        c.text: model(hand, c.index, -1, 0) for c in parse_cards(["OA", "UA", "XA", "7L", "8H", "9B", "AB", "KH", "OL"])
    }
    assert sum(odds.values()) == pytest.approx(1.0)
    assert odds["7L"] > odds["UA"] and odds["8H"] > odds["OA"] and odds["7L"] > odds["AB"]
    sharper = play_model(0, True, 2.0)
    assert sharper(hand, parse_cards(["7L"])[0].index, -1, 0) > odds["7L"]


def test_samples_are_weighted_by_the_opponents_plays() -> None:
    """With a play model each sample carries the likelihood of the opponent's recent plays
    (0 < weight <= 1, and below 1 somewhere); without one every weight is 1."""
    from tartli.bots.search import play_model

    weighted = 0
    for state, _ in _heuristic_hands(RuleSet.hungarian(), 77):
        view = state.view(0)
        if not 2 <= view.trick_number <= 7 or state.to_move != 0:
            continue
        model = play_model(view.trump.index, True, 10.0)
        for k in range(3):
            world = sample(view, random.Random(k), plays=model)
            assert 0.0 < world.weight <= 1.0
            weighted += world.weight < 1.0
            assert sample(view, random.Random(k)).weight == 1.0
    assert weighted > 5
