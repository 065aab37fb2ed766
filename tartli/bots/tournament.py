"""Tournaments between bots: seat-swapped hands and whole matches, with 95% confidence intervals.

``python -m tartli tournament --a search --b heuristic --hands 1000 --seed 1`` deals
``hands / 2`` hands from the seed and plays each twice, the seats exchanged, so both
bots get the same cards. For A it prints the share of hands won (more hand points:
melds + card points; a tie counts half), the mean point difference per hand, both
with 95% confidence intervals (normal approximation over the deals, each deal's two
hands taken together since they share the cards), and each bot's decision latency
(mean, p95, max). ``--matches N`` plays N whole matches instead (to ``--buli`` buli,
1 by default: one game to 501; seats alternate between matches).

The same seed gives the same figures (latencies aside) when every bot is budgeted by
samples, not time (``--samples``; the Hint and ``reference`` always are); a time budget
depends on the machine's speed and load. Each deal's bots are seeded from the seed and the
deal's number, so the deals are independent of each other: ``--jobs N`` plays them in N
processes and prints the same figures as one process does.

>>> lines = run_hands("heuristic", "random", hands=4, seed=1, out=lambda s: None)
>>> lines["hands"]
4
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tartli._checks import checked, checked_real, checked_whole
from tartli.bots.base import Bot, RandomBot, right_claim
from tartli.bots.evaluate import COURSE, Budget, _sampled, position_seed
from tartli.bots.heuristic import HeuristicBot
from tartli.bots.hint import HintBot, hint
from tartli.bots.search import MAX_BUDGET_MS, MAX_SAMPLES, SearchBot
from tartli.errors import ArgumentError, shown
from tartli.game import PHASE1_TRICKS, Deal, HandState, PlayerView
from tartli.match import Match
from tartli.moves import Bela, GoOut, Move, Pass, Play
from tartli.rules import RuleSet

__all__ = ["LEVELS", "TOLD", "ToldHint", "bot_for_level", "make_bot", "run_hands", "run_hint_bench", "run_matches"]

LEVELS = {"easy": "random", "medium": "heuristic", "hard": "search"}
"""Difficulty levels for the table: the bot behind each."""


REFERENCE_SAMPLES = 128
"""``reference``: the Hard computer as it was when the Hint became one evaluation, kept as a fixed
opponent so that the Hint's figure does not move when Hard does. Hard thinks 120 ms of wall-clock time
a decision, so its strength moves with the machine's speed and load; the reference is the same search
with a fixed number of deals instead, the number it sampled in those 120 ms on this project's 2-core
machine when idle (367 phase-1 searches of 40 hands against Medium, load average 0.3: 128 deals on
average, median 124, 78-195 from the 10th to the 90th percentile; about 121 ms a search). The same
seed then gives the same figure on any machine, whatever else it runs."""


MAX_HANDS = 1_000_000
"""The most hands (or deals, positions, matches) a benchmark may be asked for: a million hands of
the fastest bots take hours; more is a slip, refused before anything is played."""


def checked_run(
    seed: object, out: object = print, budget_ms: float = 120.0, samples: object = None, **counts: object
) -> None:
    """The arguments every benchmark takes, checked before anything is played: a wrong one found
    after an hour of hands (or never, for a count of 10**18) is no answer. ``out`` is called with
    each line of text (what it returns is not read); an exception it raises passes through
    unchanged: it is the caller's own."""
    for what, count in counts.items():
        checked_whole(count, what, 0, MAX_HANDS)
    if type(seed) is not int:
        raise ArgumentError(f"seed is a whole number, not {shown(seed, 30)}")
    if not callable(out):
        raise ArgumentError(f"out is a function of a line of text (print), not {shown(out, 30)}")
    checked_real(budget_ms, "budget_ms", 0.001, MAX_BUDGET_MS)
    if samples is not None:
        checked_whole(samples, "samples", 1, MAX_SAMPLES)


TOLD = {
    "hand": "told the opponent's hand",
    "deal": "told the opponent's hand and the talon's order",
}
"""What a :class:`ToldHint` is told, for the benchmarks' ceilings (``tartli bench --hint-vs ... --told``)."""


class ToldHint:
    """A ceiling, not a player: the Hint, its phase-1 evaluation told what no player can know.

    ``told="hand"``: each of the evaluation's deals holds the opponent's true hand, the talon still
    shuffled (its order is hidden from both players); ``"deal"``: the true hand and the talon's true
    order, so every deal is the real one. Everything else is the course's Hint: the same budget,
    moves, playouts and choice (the best move of the evaluation), and its exact phase 2, which needs
    no telling. How far it beats the real Hint measures what better guesses of the hidden cards could
    at most bring (see docs/benchmarks.md). The tournament sets ``state``, the true state, before each of
    its decisions; anywhere else it has none to read, and a view not of that state is refused.
    """

    def __init__(self, told: str, *, budget: Budget = COURSE) -> None:
        if not isinstance(told, str) or told not in TOLD:
            raise ArgumentError(f"told is hand or deal, not {shown(told, 30)}")
        self.told = told
        self.name = f"hint-told-{told}"
        self.budget = checked(budget, Budget, "budget", "Budget(deals=48)")
        self.state: HandState | None = None

    def choose(self, view: PlayerView) -> Move:
        state = self.state
        if state is None:
            raise ArgumentError("a ToldHint plays only in a tournament, which tells it the true state")
        if not isinstance(view, PlayerView) or view.player not in (0, 1) or state.view(view.player) != view:
            raise ArgumentError(f"view is the view of the true state it was told, not {shown(view, 30)}")
        moves: list[Move] = [m for m in view.legal_moves if not isinstance(m, GoOut | Bela)]  # as evaluate() has
        choices = [m for m in moves if not isinstance(m, Pass)] if any(isinstance(m, Play) for m in moves) else moves
        if (
            view.to_move != view.player
            or view.trick_number > PHASE1_TRICKS
            or len(choices) < 2
            or any(isinstance(m, Bela) for m in view.legal_moves)
            or right_claim(view) is not None
        ):
            return hint(view, budget=self.budget).move  # not a sampled phase-1 choice: the Hint's own
        found = _sampled(view, moves, self.budget, random.Random(position_seed(view)), self._deal)
        return found.best.move

    def _deal(self, rng: random.Random) -> HandState:
        """The true state, its talon's order shuffled unless the deal is told."""
        assert self.state is not None
        base = self.state.copy()
        if self.told == "hand":
            drawn = base._drawn
            rest = base._talon[drawn:]  # a new list: the state's own is never changed
            rng.shuffle(rest)
            base._talon = [*base._talon[:drawn], *rest]
        return base


def make_bot(name: str, seed: int | None = None, *, budget_ms: float = 120.0, samples: int | None = None) -> Bot:
    """A bot by name: ``random``, ``heuristic``, ``search`` (also the levels easy, medium, hard),
    ``reference`` (the fixed reference opponent, :data:`REFERENCE_SAMPLES`), or ``hint``: a player
    who always follows the Hint (:class:`tartli.bots.hint.HintBot`; ``samples``: deals of its
    evaluation instead of the course's); ``hint-told-hand`` and ``hint-told-deal``: ceilings, not
    players (:class:`ToldHint`)."""
    if not isinstance(name, str):
        raise ArgumentError(f"a bot's name is text (random, heuristic, search, ...), not {shown(name, 30)}")
    name = LEVELS.get(name, name)
    told = name.removeprefix("hint-told-")
    if told != name and told in TOLD:
        return ToldHint(told, budget=COURSE if samples is None else Budget(deals=samples))
    if name == "hint":
        return HintBot(budget=COURSE if samples is None else Budget(deals=samples))
    if name == "reference":
        return SearchBot(seed=seed, samples=REFERENCE_SAMPLES)
    if name == "random":
        return RandomBot(seed=seed)
    if name == "heuristic":
        return HeuristicBot()
    if name == "search":
        return SearchBot(seed=seed, budget_ms=budget_ms, samples=samples)
    raise ArgumentError(
        f"unknown bot {shown(name, 30)}: use random, heuristic, search, reference or hint (or easy, medium, hard)"
    )


def bot_for_level(level: str, seed: int | None = None) -> Bot:
    """The opponent of a difficulty level: easy = random, medium = rule of thumb, hard = search (120 ms)."""
    if not isinstance(level, str) or level not in LEVELS:
        raise ArgumentError(f"unknown level {shown(level, 30)}: use easy, medium or hard")
    return make_bot(LEVELS[level], seed)


class _Timed:
    """A bot whose decisions are timed."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(self, state: HandState, player: int) -> None:
        view = state.view(player)
        start = time.perf_counter()
        if isinstance(self.bot, ToldHint):
            self.bot.state = state  # a ceiling's bot is told the true state (see ToldHint)
        move = self.bot.choose(view)
        self.times.append(time.perf_counter() - start)
        state.push(move)


def _play(state: HandState, seats: tuple[_Timed, _Timed]) -> None:
    while not state.is_over:
        player = state.to_move
        assert player is not None
        other = 1 - player
        # S3: a claim may be made out of turn (e.g. in the claim window); every bot claims once it is right.
        claim = right_claim(state.view(other)) if state.claim(other).valid else None
        if claim is not None:
            state.push(claim)
            continue
        seats[player].choose(state, player)


def _ci(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def _latency(name: str, times: list[float]) -> str:
    if not times:
        return f"latency {name}: no decisions"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"latency {name}: mean {1000 * statistics.fmean(ordered):.1f} ms, p95 {1000 * p95:.1f} ms, "
        f"max {1000 * ordered[-1]:.1f} ms ({len(ordered)} decisions)"
    )


MAX_JOBS = 64
"""The most processes a tournament may play its deals in."""


def _deal_seed(bot_seed: int, deal: int) -> int:
    """The seed of a bot for one deal: its seed and the deal's number, so each deal is played the same
    whichever process plays it and whatever was played before it."""
    return bot_seed * 2**32 + deal


def _play_deals(
    a: str,
    b: str,
    rules: RuleSet,
    seeds: tuple[int, int],
    budget_ms: float,
    samples: tuple[int | None, int | None],
    deals: Sequence[tuple[int, Deal]],
) -> list[tuple[float, float, int, int, list[float], list[float]]]:
    """Each of ``deals`` (numbered) played twice, the seats exchanged, by bots seeded for that deal
    (``seeds`` and ``samples``: A's and B's): A's share of the two hands won, A's mean point
    difference, the hands tied and won by A, and each bot's decision times. (A module-level
    function: the processes of ``jobs`` run it.)"""
    out = []
    for i, deal in deals:
        bot_a = _Timed(make_bot(a, _deal_seed(seeds[0], i), budget_ms=budget_ms, samples=samples[0]))
        bot_b = _Timed(make_bot(b, _deal_seed(seeds[1], i), budget_ms=budget_ms, samples=samples[1]))
        deal_wins = deal_diff = 0.0
        ties = won = 0
        for a_seat in (0, 1):
            state = HandState(deal, rules)
            seats = (bot_a, bot_b) if a_seat == 0 else (bot_b, bot_a)
            _play(state, seats)
            mine = state.meld_points[a_seat] + state.card_points[a_seat]
            theirs = state.meld_points[1 - a_seat] + state.card_points[1 - a_seat]
            ties += mine == theirs
            won += mine > theirs
            deal_wins += (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0) / 2
            deal_diff += (mine - theirs) / 2
        out.append((deal_wins, deal_diff, ties, won, bot_a.times, bot_b.times))
    return out


def run_hands(
    a: str,
    b: str,
    hands: int = 1000,
    seed: int = 1,
    rules_name: str = "hungarian",
    *,
    budget_ms: float = 120.0,
    samples: int | None = None,
    out: Callable[[str], None] = print,
    times: list[float] | None = None,
    samples_a: int | None = None,
    jobs: int = 1,
) -> dict[str, Any]:
    """Play ``hands`` seat-swapped hands (``hands // 2`` deals, each twice) and print A's figures
    (``times``, if given, receives A's decision times in seconds; ``samples_a``, if given, is A's
    budget instead of ``samples``; ``jobs``: the processes the deals are played in, the figures the
    same for any number)."""
    checked_run(seed, out, budget_ms, samples, hands=hands)
    checked_whole(jobs, "jobs", 1, MAX_JOBS)
    if samples_a is not None:
        checked_whole(samples_a, "samples_a", 1, MAX_SAMPLES)
    if times is not None and not isinstance(times, list):
        raise ArgumentError(f"times is None or a list to receive A's decision times, not {shown(times, 30)}")
    rules = RuleSet.named(rules_name)
    make_bot(a), make_bot(b)  # an unknown name is refused before anything is played
    count = max(1, hands // 2)
    rng = random.Random(seed)
    seeds = (rng.randrange(2**32), rng.randrange(2**32))
    deals = [(i, Deal.shuffled(rng, dealer=i % 2)) for i in range(count)]
    own = samples if samples_a is None else samples_a
    play = functools.partial(_play_deals, a, b, rules, seeds, budget_ms, (own, samples))
    if jobs == 1 or count == 1:
        played = play(deals)
    else:
        # Chunks of a few deals, in order; "spawn": a fresh interpreter, whatever the caller's threads hold.
        size = max(1, min(8, count // (4 * jobs)))
        chunks = [deals[k : k + size] for k in range(0, count, size)]
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            played = [row for part in pool.map(play, chunks) for row in part]
    wins = [row[0] for row in played]
    diffs = [row[1] for row in played]
    ties = sum(row[2] for row in played)
    won = sum(row[3] for row in played)
    times_a = [t for row in played for t in row[4]]
    times_b = [t for row in played for t in row[5]]
    share, share_ci = _ci(wins)
    mean, mean_ci = _ci(diffs)
    n = 2 * count
    out(f"tournament: A={a} vs B={b}, rules={rules_name}, {n} hands ({count} deals, seats swapped), seed {seed}")
    out(
        f"A won {won} of {n} hands, {ties} tied (a tie counts half): "
        f"{100 * share:.1f}% (95% CI {100 * (share - share_ci):.1f}-{100 * (share + share_ci):.1f}%)"
    )
    out(f"A mean point difference per hand: {mean:+.1f} (95% CI {mean - mean_ci:+.1f} to {mean + mean_ci:+.1f})")
    out(_latency(f"A ({a})", times_a))
    out(_latency(f"B ({b})", times_b))
    if times is not None:
        times.extend(times_a)
    return {
        "hands": n,
        "share": share,
        "share_ci": share_ci,
        "mean": mean,
        "mean_ci": mean_ci,
        "ties": ties,
    }


def run_hint_bench(
    level: str,
    hands: int = 200,
    seed: int = 1,
    rules_name: str = "hungarian",
    *,
    samples: int | None = None,
    out: Callable[[str], None] = print,
    jobs: int = 1,
    told: str | None = None,
) -> dict[str, Any]:
    """A player who always follows the Hint against the computer of ``level`` (medium, hard, or
    ``reference``: today's Hard kept fixed) over ``hands`` seat-swapped hands, in ``jobs`` processes
    (as :func:`run_hands`): ``hint vs medium: P% of hands (95% CI a-b), N hands``, then the Hint's
    decision times. ``told`` (``hand`` or ``deal``) measures a ceiling instead: the Hint told what no
    player can know (:class:`ToldHint`), on the same deals as without it."""
    if not isinstance(level, str) or level not in ("medium", "hard", "reference"):
        raise ArgumentError(f"--hint-vs takes medium, hard or reference, not {shown(level, 30)}")
    if told is not None and (not isinstance(told, str) or told not in TOLD):
        raise ArgumentError(f"told is None, hand or deal, not {shown(told, 30)}")
    checked_run(seed, out, samples=samples, hands=hands)
    checked_whole(jobs, "jobs", 1, MAX_JOBS)
    RuleSet.named(rules_name)
    times: list[float] = []
    player = "hint" if told is None else f"hint-told-{told}"
    figures = run_hands(
        player, level, hands, seed, rules_name, samples_a=samples, out=lambda _line: None, times=times, jobs=jobs
    )
    share, ci = figures["share"], figures["share_ci"]
    low, high = max(0.0, share - ci), min(1.0, share + ci)
    name = "hint" if told is None else f"hint ({TOLD[told]})"
    out(
        f"{name} vs {level}: {100 * share:.1f}% of hands (95% CI {100 * low:.1f}-{100 * high:.1f}%), "
        f"{figures['hands']} hands"
    )
    out(_latency("of the hint", times))
    out(f"{name} vs {level}: mean point difference per hand {figures['mean']:+.1f} (95% CI ±{figures['mean_ci']:.1f})")
    return figures


def run_matches(
    a: str,
    b: str,
    matches: int = 10,
    seed: int = 1,
    rules_name: str = "hungarian",
    *,
    buli: int = 1,
    budget_ms: float = 120.0,
    samples: int | None = None,
    out: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Play whole matches (to ``buli`` buli; 1 = one game to 501), A in seat 0 in the even-numbered ones."""
    checked_run(seed, out, budget_ms, samples, matches=matches)
    rules = RuleSet.named(rules_name).replace(buli_target=buli)
    rng = random.Random(seed)
    bot_a = _Timed(make_bot(a, rng.randrange(2**32), budget_ms=budget_ms, samples=samples))
    bot_b = _Timed(make_bot(b, rng.randrange(2**32), budget_ms=budget_ms, samples=samples))
    results: list[float] = []
    hands = 0
    for k in range(matches):
        a_seat = k % 2
        seats = (bot_a, bot_b) if a_seat == 0 else (bot_b, bot_a)
        match = Match(rules, rng=random.Random(rng.randrange(2**32)))
        while max(match.buli) < buli:
            _play(match.state, seats)
            hands += 1
            match.next_hand()
        results.append(1.0 if match.buli[a_seat] > match.buli[1 - a_seat] else 0.0)
    share, share_ci = _ci(results)
    out(f"matches: A={a} vs B={b}, rules={rules_name}, {matches} matches to {buli} buli ({hands} hands), seed {seed}")
    out(
        f"A won {sum(results):.0f} of {matches} matches: {100 * share:.1f}% "
        f"(95% CI {100 * (share - share_ci):.1f}-{100 * (share + share_ci):.1f}%)"
    )
    out(_latency(f"A ({a})", bot_a.times))
    out(_latency(f"B ({b})", bot_b.times))
    return {"matches": matches, "share": share, "share_ci": share_ci, "hands": hands}
