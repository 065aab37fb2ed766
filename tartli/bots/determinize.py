"""Determinization: deal the hidden cards of a view in a way consistent with everything public.

A player does not see the opponent's hand nor the order of the talon. To look
ahead, the search bot samples them (:func:`sample`) and builds a complete
:class:`~tartli.game.HandState` from the view and the sample (:func:`build_state`).
Only the view is used, never the referee's state. A sample respects:

* every card the player has seen: their hand, the cards played, the indicator,
  and the cards known to be in the opponent's hand (``view.opponent_known``: the
  indicator they took, a card shown under V8, the unplayed cards of melds they
  scored, which the scorer specifies or shows, K4/V6; béla's King and Over);
* every declaration the opponent announced and did not score ("kvart",
  "vannak", ...): when they announced it they held such a meld, so its cards are
  in their hand now or among the cards they have played since (M7, M6);
* the contest details: the rank the opponent named as leader (K4 step 5), and
  an answer "Good" (their best item was no better than the player's);
* a declaration of the opponent still being contested in the trick under way:
  the sample names concrete melds for it, held in the sampled hand (or the card
  they just led), so that the contest can be decided in the look-ahead.

One more thing is read from the opponent's play, an inference rather than a
fact (``infer=True``, the default): a player who had a meld they could declare
at a declaration step and said nothing is rare (the rules of thumb, and the
lessons, say to declare at once; K5 makes a lost contest cost nothing). So for
every step at which the opponent declared nothing (:func:`silences`), the sample
prefers hands in which they had nothing legal to declare then (M5-M7, K3 against
the player's own declaration, K6, K7/V5). Their hand at an earlier step is
rebuilt backwards from the sampled hand: the cards they played since are put back,
their swaps undone, and for each draw since then one of their cards is taken out
at random as the drawn card (never one they are known to have held before it: a
card of a meld they scored, béla, the indicator they swapped for). Cards they
were seen to draw (the indicator after trick 7, the V8 card) are exactly those.
If no such hand turns up quickly the sample falls back to the facts alone.

Sampling is by rejection (uniform over the consistent deals), falling back to
placing a fitting meld first when rejection does not find one quickly.

>>> import random
>>> from tartli.game import HandState
>>> state = HandState.from_seed(11)
>>> view = state.view(0)
>>> world = sample(view, random.Random(1))
>>> len(world.opponent_hand) == view.opponent_hand_size and len(world.talon) == view.talon_size
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tartli._checks import checked, checked_fields, checked_items, checked_whole, unchecked
from tartli.cards import Card, Rank, cards_of, indices_of, mask_of
from tartli.errors import ArgumentError, shown
from tartli.game import (
    TRICKS,
    Deal,
    HandState,
    PlayerView,
    Status,
    _Trick,
)
from tartli.melds import (
    SEQUENCE_NAMES,
    Meld,
    MeldKind,
    bela_mask,
    contest_key,
    same_suit_ok,
    sequences_in,
    sets_in,
)
from tartli.rules import RuleSet

__all__ = [
    "Announcement",
    "Sampler",
    "Silence",
    "World",
    "announcements",
    "build_state",
    "consistent",
    "could_declare",
    "sample",
    "silences",
]

ALL_CARDS = (1 << 32) - 1
"""The mask of the whole pack: a hand given as a mask is a whole number from 0 to this."""
MAX_TRIES = 10_000
"""The most tries :meth:`Sampler.sample` may be asked for (the search asks for 60)."""

_RANK_BY_NAME: dict[str, Rank] = {str(r.name_in("en")): r for r in Rank}  # the game logs details in English


@dataclass(frozen=True)
class Announcement:
    """A declaration of the opponent that did not score: what it tells about their hand.

    ``kinds``: the announcements ("kvart", "vannak"; béla left out, it is public);
    ``since``: the cards the opponent has played from that trick on (they may hold
    meld cards since played); ``detail``: the rank the opponent named as leader
    (K4 step 5) and whether it was a set; ``at_most``: the contest key of the
    player's own best item when the opponent answered "Good"; ``pending``: the
    contest of the trick under way is still open (the sample must name the melds).
    """

    trick: int
    kinds: tuple[str, ...]
    since: int
    detail: tuple[Rank, bool] | None
    at_most: tuple[int, int, int, int] | None
    pending: bool

    def __post_init__(self) -> None:
        checked_fields(self)


@dataclass(frozen=True)
class World:
    """One sample of the hidden cards: the opponent's hand, the talon (top first), the
    concrete melds of an opponent's declaration still being contested in this trick, and
    the sample's weight: the likelihood of the opponent's recent plays under a play model
    given to :func:`sample` (1.0 without one)."""

    opponent_hand: tuple[Card, ...]
    talon: tuple[Card, ...]
    pending: tuple[Meld, ...] | None
    weight: float = 1.0

    def __post_init__(self) -> None:
        checked_fields(self)


def _leaders_and_plays(view: PlayerView) -> tuple[dict[int, int], dict[int, int]]:
    """Who led each trick so far (the one under way included), and the card the opponent played
    to each trick (trick number -> card index)."""
    opp = 1 - view.player
    leaders = {i + 1: t[0] for i, t in enumerate(view.tricks)}
    leaders[view.trick_number] = view.leader
    played: dict[int, int] = {}
    for i, (leader, lead, second, _) in enumerate(view.tricks):
        played[i + 1] = (lead if leader == opp else second).index
    if view.lead is not None and view.leader == opp:
        played[view.trick_number] = view.lead.index
    return leaders, played


def announcements(view: PlayerView) -> list[Announcement]:
    """The opponent's unscored declarations of this hand, with what the contest revealed."""
    checked(view, PlayerView, "view", "state.view(0)")
    me, opp = view.player, 1 - view.player
    declared: dict[int, tuple[str, ...]] = {}
    scored: set[int] = set()
    details: dict[int, tuple[Rank, bool]] = {}
    good: set[int] = set()
    my_scored: dict[int, list[Meld]] = {}
    decided: set[int] = set()
    leaders, played = _leaders_and_plays(view)
    swapped: int | None = None
    for e in view.events:
        n = e.trick
        if e.kind == "swap" and e.player == opp:
            swapped = n
        if e.kind == "declare" and e.player == opp:
            kinds = tuple(k for k in e.say.split(", ") if k and k != "béla")
            if kinds:
                declared[n] = kinds
        elif e.kind in ("declare", "pass") and e.player is not None and e.player != leaders.get(n):
            decided.add(n)
        elif e.kind == "score" and e.player == opp and e.say != "Béla":
            scored.add(n)
        elif e.kind == "score" and e.player == me and e.say != "Béla":
            my_scored.setdefault(n, []).extend(m for m in _melds_named(e.cards))
        elif e.kind == "detail" and e.player == opp:
            word, _, rest = e.say.partition("-")
            rank = _RANK_BY_NAME.get(word)
            if rank is not None:
                details[n] = (rank, rest == "vannak")
        elif e.kind == "answer" and e.player == opp and e.say == "Good":
            good.add(n)
        elif e.kind == "play" and e.player is not None and e.player != leaders.get(n):
            decided.add(n)
    out = []
    for n, kinds in sorted(declared.items()):
        if n in scored:
            continue
        since = 0
        if swapped is not None and swapped >= n:  # the trump 7 they swapped away was theirs
            since |= 1 << (view.trump.index * 8 + Rank.SEVEN.index)
        for k, idx in played.items():
            if k >= n:
                since |= 1 << idx
        at_most = None
        if n in good and my_scored.get(n):
            at_most = max(contest_key(m, view.trump, view.rules) for m in my_scored[n] if m.kind is not MeldKind.BELA)
        pending = n == view.trick_number and n not in decided
        out.append(Announcement(n, kinds, since, details.get(n), at_most, pending))
    return out


def _melds_named(cards: tuple[Card, ...]) -> list[Meld]:
    """The meld a "score" event shows (its cards): a set or a sequence."""
    if len(cards) < 3:
        return []
    mask = mask_of(cards)
    if len({c.rank for c in cards}) == 1:
        return [Meld(MeldKind.SET, cards[0].rank)]
    top = min(cards, key=lambda c: c.index)
    meld = Meld(MeldKind.SEQUENCE, top.rank, top.suit, len(cards))
    return [meld] if meld.mask == mask else []


def _fits(
    view: PlayerView, ann: Announcement, available: int, scored_sets: set[Meld], opp_scored: list[Meld]
) -> tuple[Meld, ...] | None:
    """A choice of melds within ``available`` matching the announcement, or None."""
    rules = view.rules
    sets = sets_in(available, rules)
    seqs = sequences_in(available)
    if ann.pending:  # K6, K7/V5 as they stand now (an old declaration met the rules of its own time)
        sets = [m for m in sets if m not in scored_sets]
        seqs = [m for m in seqs if same_suit_ok(m, opp_scored, rules)]
    wanted = sorted(ann.kinds)
    options: list[tuple[Meld, ...]] = []
    set_count = wanted.count("vannak")
    seq_kinds = [k for k in wanted if k != "vannak"]
    if set_count > 1:
        return None
    set_choices: list[tuple[Meld, ...]] = [(m,) for m in sets] if set_count else [()]
    seq_choices: list[tuple[Meld, ...]] = [()]
    for kind in seq_kinds:
        seq_choices = [
            (*c, m)
            for c in seq_choices
            for m in seqs
            if m.announcement == kind and all(o.suit is not m.suit for o in c)
        ]
    for a in set_choices:
        for b in seq_choices:
            melds = a + b
            best = max(melds, key=lambda m: contest_key(m, view.trump, rules))
            if ann.detail is not None:
                rank, is_set = ann.detail
                if best.rank is not rank or (best.kind is MeldKind.SET) != is_set:
                    continue
            if ann.at_most is not None and contest_key(best, view.trump, rules) > ann.at_most:
                continue
            options.append(melds)
            if not ann.pending:
                return melds  # existence is enough
    return options[0] if options else None


def consistent(view: PlayerView, opponent_hand: int, anns: Iterable[Announcement] | None = None) -> bool:
    """Does a hand of the opponent (a card mask) fit every public fact of ``view``?"""
    checked(view, PlayerView, "view", "state.view(0)")
    checked_whole(opponent_hand, "opponent_hand (a mask of cards)", 0, ALL_CARDS)
    if anns is not None:
        anns = checked_items(anns, Announcement, "announcements")
    if opponent_hand & ~_possible(view):
        return False
    known = mask_of(view.opponent_known)
    if opponent_hand & known != known or bin(opponent_hand).count("1") != view.opponent_hand_size:
        return False
    scored_sets = {m for ms in view.scored_melds for m in ms if m.kind is MeldKind.SET}
    opp_scored = list(view.scored_melds[1 - view.player])
    for ann in announcements(view) if anns is None else anns:
        if _fits(view, ann, opponent_hand | ann.since, scored_sets, opp_scored) is None:
            return False
    return True


def _possible(view: PlayerView) -> int:
    """Cards the opponent may hold: the unseen ones and those known to be theirs."""
    return mask_of(view.unseen) | mask_of(view.opponent_known)


_LENGTH_BY_NAME = {name: length for length, name in SEQUENCE_NAMES.items()}


@dataclass(frozen=True)
class Silence:
    """A declaration step of tricks 1-8 at which the opponent declared nothing.

    ``need``: when they were second after the player declared, what K3 asked of an
    answer: ``(True, 0)`` a set, ``(False, n)`` a set or a sequence of ``n`` or more
    cards; ``None`` when anything could be declared. ``sets``: the sets scored by
    either player before that trick (K6); ``sequences``: the opponent's sequences
    scored before it (K7/V5).
    """

    trick: int
    need: tuple[bool, int] | None
    sets: frozenset[Meld]
    sequences: tuple[Meld, ...]

    def __post_init__(self) -> None:
        checked_fields(self)


@dataclass(frozen=True)
class _Past:
    """The opponent's side of the hand so far, to rebuild their hand at earlier steps."""

    silences: dict[int, Silence]
    played: dict[int, int]  # trick -> the card they played to it
    swaps: dict[int, int]  # trick -> the indicator they took for the trump 7 (T5/V7)
    drawn: dict[int, int]  # trick -> the card they were seen to draw after it (indicator, V8)
    held_from: dict[int, int]  # card -> the first trick they are known to have held it in
    leads: dict[int, int]  # trick -> the card the player led to it, when the opponent answered
    seen: dict[int, int]  # trick -> the cards played before the opponent's card in it


def could_declare(hand: int, silence: Silence, rules: RuleSet) -> bool:
    """Had a player holding ``hand`` at the step of ``silence`` anything legal to declare?"""
    checked_whole(hand, "hand (a mask of cards)", 0, ALL_CARDS)
    checked(silence, Silence, "silence")
    checked(rules, RuleSet, "rules", "RuleSet()")
    sets = [m for m in sets_in(hand, rules) if m not in silence.sets]
    if sets:
        return True  # a set is always a legal answer (K3) and always a legal lead
    need = silence.need
    if need is not None and need[0]:
        return False
    shortest = need[1] if need is not None else 3
    return any(m.length >= shortest and same_suit_ok(m, silence.sequences, rules) for m in sequences_in(hand))


def silences(view: PlayerView) -> list[Silence]:
    """The opponent's declaration steps (tricks 1-8) that have passed without a declaration."""
    checked(view, PlayerView, "view", "state.view(0)")
    return list(_past(view).silences.values())


def _past(view: PlayerView) -> _Past:
    me, opp = view.player, 1 - view.player
    n = view.trick_number
    leaders, played = _leaders_and_plays(view)
    leads: dict[int, int] = {}
    seen: dict[int, int] = {}
    before = 0
    for i, (leader, lead, second, _) in enumerate(view.tricks):
        seen[i + 1] = before
        if leader != opp:
            leads[i + 1] = lead.index
            seen[i + 1] |= lead.bit
        before |= lead.bit | second.bit
    if n in played:
        seen[n] = before
    declared: set[int] = set()
    passed: set[int] = set()
    mine: dict[int, list[str]] = {}
    scored_before: dict[int, tuple[frozenset[Meld], tuple[Meld, ...]]] = {}
    sets: set[Meld] = set()
    opp_seqs: list[Meld] = []
    swaps: dict[int, int] = {}
    drawn: dict[int, int] = {}
    held_from: dict[int, int] = {}
    for e in view.events:
        t = e.trick
        if t not in scored_before:
            scored_before[t] = (frozenset(sets), tuple(opp_seqs))
        if e.kind == "declare":
            if e.player == opp:
                declared.add(t)
            elif e.player == me:
                mine.setdefault(t, []).extend(k for k in e.say.split(", ") if k and k != "béla")
        elif e.kind == "pass" and e.player == opp:
            passed.add(t)
        elif e.kind == "score" and e.player is not None:
            for m in _melds_named(e.cards):
                if m.kind is MeldKind.SET:
                    sets.add(m)
                elif e.player == opp:
                    opp_seqs.append(m)
        if e.player == opp and e.kind in ("score", "bela"):
            for c in e.cards:
                held_from.setdefault(c.index, t)
        elif e.player == opp and e.kind == "swap" and len(e.cards) == 2:
            swaps[t] = e.cards[1].index
            held_from.setdefault(e.cards[1].index, t)
        elif e.player == opp and e.kind in ("show", "draw") and e.cards:
            drawn[t] = e.cards[0].index  # seen: the indicator after trick 7, the V8 card
            held_from.setdefault(e.cards[0].index, t + 1)
    out: dict[int, Silence] = {}
    for t in range(1, min(n, 8) + 1):
        if t in declared or (view.rules.swap_any_time and t in swaps):
            continue  # under V7 the swap may have come after the step: not used
        if leaders.get(t) == opp:
            done = t in played  # the lead is played after the leader's step
            need = None
        else:
            done = t in passed or t in played
            words = mine.get(t, [])
            if not words:
                need = None
            elif "vannak" in words:
                need = (True, 0)
            else:
                need = (False, max(_LENGTH_BY_NAME[w] for w in words))
        if done:
            then = scored_before.get(t, (frozenset(sets), tuple(opp_seqs)))
            out[t] = Silence(t, need, then[0], then[1])
    return _Past(out, played, swaps, drawn, held_from, leads, seen)


PlayModel = Callable[[int, int, int, int], float]
"""How likely the opponent was to play a card: ``(hand, card, lead, seen) -> probability``, with
``hand`` the card mask they held (``card`` in it), ``lead`` the card they answered (-1 when they
led) and ``seen`` the cards played in earlier tricks (and the lead)."""


def _replay(
    view: PlayerView, past: _Past, hand: int, rng: random.Random, plays: PlayModel | None, depth: int
) -> tuple[int, float]:
    """Rebuild the opponent's hand backwards from ``hand`` (see the module notes).

    Returns the trick of the newest silent step at which that hand had something legal to
    declare (0 if none), and the likelihood of their plays of the last ``depth`` tricks
    under ``plays`` (1.0 without a model).
    """
    rules = view.rules
    seven = 1 << (view.trump.index * 8 + Rank.SEVEN.index)
    n = view.trick_number
    first = min(past.silences, default=n + 1)
    if plays is not None:
        first = min(first, max(1, n - depth + 1))
    if first > n:
        return 0, 1.0
    weight = 1.0
    t = n
    h = hand
    if t in past.played:
        h |= 1 << past.played[t]
    while True:
        silence = past.silences.get(t)
        if silence is not None and could_declare(h, silence, rules):
            return t, 0.0
        if plays is not None and t in past.played and t > n - depth:
            likelihood = plays(h, past.played[t], past.leads.get(t, -1), past.seen.get(t, 0))
            if (
                not isinstance(likelihood, int | float)
                or isinstance(likelihood, bool)
                or not 0 <= likelihood < math.inf
            ):
                raise ArgumentError(f"plays must answer a likelihood, a number from 0, not {shown(likelihood, 30)}")
            weight *= likelihood
        if t <= first:
            return 0, weight
        taken = past.swaps.get(t)
        if taken is not None:
            h = h & ~(1 << taken) | seven
        t -= 1  # the draw after trick t (tricks 1-7), then trick t's card back in hand
        if t <= 7:
            x = past.drawn.get(t)
            if x is None:
                options = [c for c in indices_of(h) if past.held_from.get(c, 99) > t]
                if not options:
                    return 0, weight  # an impossible history: do not judge the hand by it
                x = options[rng.randrange(len(options))]
            h &= ~(1 << x)
        if t in past.played:
            h |= 1 << past.played[t]


class Sampler:
    """The facts of one view (and, with ``infer``, what the opponent's play suggests), read once
    for many samples: :meth:`sample` deals the hidden cards (see the module notes).

    ``plays``: a model of the opponent's card play (:data:`PlayModel`); each sample's weight is
    the likelihood of their plays of the last ``depth`` tricks under it. It answers a finite number
    from 0 (anything else is an :class:`ArgumentError` naming ``plays``); an exception it raises
    passes through unchanged: it is the caller's own, as one raised by ``sorted``'s ``key`` is.
    """

    def __init__(self, view: PlayerView, *, infer: bool = True, plays: PlayModel | None = None, depth: int = 3) -> None:
        checked(view, PlayerView, "view", "state.view(0)")
        if plays is not None and not callable(plays):
            raise ArgumentError(f"plays is None or a model of play (a function), not {shown(plays, 30)}")
        checked_whole(depth, "depth (tricks)", 0, TRICKS)
        self.view = view
        self.unseen = list(view.unseen)
        self.known = mask_of(view.opponent_known)
        self.slots = view.opponent_hand_size - len(view.opponent_known)
        self.anns = announcements(view)
        self.scored_sets = {m for ms in view.scored_melds for m in ms if m.kind is MeldKind.SET}
        self.opp_scored = list(view.scored_melds[1 - view.player])
        past = _past(view) if infer and view.trick_number <= 8 else None
        self.past = past if past is not None and (past.silences or plays is not None) else None
        self.plays = plays
        self.depth = depth

    def _check(self, hand: int) -> tuple[bool, tuple[Meld, ...] | None]:
        pending = None
        for ann in self.anns:
            fit = _fits(self.view, ann, hand | ann.since, self.scored_sets, self.opp_scored)
            if fit is None:
                return False, None
            if ann.pending:
                pending = fit
        return True, pending

    def sample(self, rng: random.Random, tries: int = 60) -> World:
        checked(rng, random.Random, "rng", "random.Random(1)")
        checked_whole(tries, "tries", 1, MAX_TRIES)
        view, anns, unseen, slots, past = self.view, self.anns, self.unseen, self.slots, self.past
        weight = 1.0
        best_hand: int | None = None
        best_pending: tuple[Meld, ...] | None = None
        best_miss = 99  # the fallback: the facts met, and the inference met for the newest steps
        for attempt in range(tries * 2 if anns else tries):
            if attempt < tries or not anns:
                chosen = rng.sample(unseen, slots)
            else:
                chosen = _constructive(view, anns, unseen, slots, rng, self.scored_sets, self.opp_scored)
            hand = self.known | mask_of(chosen)
            ok, pending = self._check(hand)
            if best_hand is None:
                best_hand, best_pending = hand, pending
            if ok:
                miss, w = (0, 1.0) if past is None else _replay(view, past, hand, rng, self.plays, self.depth)
                if not miss:
                    best_hand, best_pending, weight = hand, pending, w
                    break
                if miss < best_miss:
                    best_hand, best_pending, best_miss = hand, pending, miss
        assert best_hand is not None
        rest = [c for c in unseen if not best_hand >> c.index & 1]
        rng.shuffle(rest)
        # Unchecked: the search samples a world for each of its deals, and these are right by construction.
        return unchecked(
            World, opponent_hand=tuple(cards_of(best_hand)), talon=tuple(rest), pending=best_pending, weight=weight
        )


def sample(
    view: PlayerView,
    rng: random.Random,
    tries: int = 60,
    *,
    infer: bool = True,
    plays: PlayModel | None = None,
    depth: int = 3,
) -> World:
    """Deal the hidden cards at random, consistent with the view (see the module notes); for
    many samples of one view, :class:`Sampler` reads the view once."""
    return Sampler(view, infer=infer, plays=plays, depth=depth).sample(rng, tries)


def _constructive(
    view: PlayerView,
    anns: list[Announcement],
    unseen: list[Card],
    slots: int,
    rng: random.Random,
    scored_sets: set[Meld],
    opp_scored: list[Meld],
) -> list[Card]:
    """Place the cards of a fitting meld for each announcement first, then fill at random."""
    known = mask_of(view.opponent_known)
    unseen_mask = mask_of(unseen)
    forced = 0
    for ann in anns:
        base = known | forced | ann.since
        if _fits(view, ann, base, scored_sets, opp_scored) is not None:
            continue
        pool = base | unseen_mask
        fit = _fits(view, ann, pool, scored_sets, opp_scored)
        if fit is None:
            continue
        # Among the fitting melds, pick one at random: try a few shuffled choices of cards.
        candidates = [m for m in (*sets_in(pool, view.rules), *sequences_in(pool))]
        rng.shuffle(candidates)
        for m in candidates:
            need = m.mask & ~base
            if bin(forced | need).count("1") > slots or need & ~unseen_mask:
                continue
            trial = forced | need
            if _fits(view, ann, known | trial | ann.since, scored_sets, opp_scored) is not None:
                forced = trial
                break
    chosen = cards_of(forced)
    rest = [c for c in unseen if not forced >> c.index & 1]
    chosen += rng.sample(rest, slots - len(chosen))
    return chosen


def build_state(view: PlayerView, world: World) -> HandState:
    """A complete state matching ``view`` with the hidden cards of ``world`` (for look-ahead only).

    Its legal moves, scores, tricks and meld history are the view's; its event log and
    move list start empty (so it cannot be taken back with ``pop``).
    """
    checked(view, PlayerView, "view", "state.view(0)")
    checked(world, World, "world", "sample(view, rng)")
    me, opp = view.player, 1 - view.player
    rules = view.rules
    trump = view.trump
    hands = [0, 0]
    hands[me] = mask_of(view.hand)
    hands[opp] = mask_of(world.opponent_hand)
    indicator = view.indicator if view.indicator is not None else Card(Rank.SEVEN, trump)
    deal = object.__new__(Deal)
    for name, value in (
        ("dealer", view.dealer),
        ("hands", (tuple(cards_of(hands[0])), tuple(cards_of(hands[1])))),
        ("indicator", indicator),
        ("talon", world.talon),
    ):
        object.__setattr__(deal, name, value)
    st = HandState.__new__(HandState)
    st.rules = rules
    st.deal = deal
    st.scores_in = view.scores_in
    st.dealer = view.dealer
    st.trump = trump
    st._t = trump.index
    st._bela = bela_mask(trump)
    st._seven = 1 << (trump.index * 8 + Rank.SEVEN.index)
    st._hands = hands
    st.indicator = view.indicator
    st._talon = list(world.talon)
    st._drawn = 0
    st.trick_number = view.trick_number
    st.leader = view.leader
    current = [e for e in view.events if e.trick == view.trick_number]
    declared: list[tuple[Meld, ...] | None] = [None, None]
    declared[me] = view.my_declaration
    if view.opponent_declared is not None:
        declared[opp] = world.pending if world.pending is not None else ()
    second = 1 - view.leader
    passed = any(e.kind == "pass" for e in current)
    decided = any(e.kind in ("pass", "declare") and e.player == second for e in current)
    st._trick = _Trick(declared, passed, decided, view.lead.index if view.lead is not None else -1)
    st.meld_points = list(view.meld_points)
    st.card_points = list(view.card_points)
    st._tricks = [(ld, a.index, b.index, w) for ld, a, b, w in view.tricks]
    st._scored = (list(view.scored_melds[0]), list(view.scored_melds[1]))
    st._scored_sets = {m for ms in view.scored_melds for m in ms if m.kind is MeldKind.SET}
    bela_done = [False, False]
    first_scorer = None
    known = [0, 0]
    known[opp] = mask_of(view.opponent_known)
    for e in view.events:
        if (e.kind == "bela" or (e.kind == "score" and e.say == "Béla")) and e.player is not None:
            bela_done[e.player] = True
        if first_scorer is None and e.player is not None and e.points and e.kind in ("score", "bela", "trick"):
            first_scorer = e.player
        if e.player == me and e.kind in ("score", "bela", "show"):
            known[me] |= mask_of(e.cards)
        if e.player == me and e.kind == "swap":
            known[me] |= mask_of(e.cards[1:])
        if e.player == me and e.kind == "draw" and e.say == "indicator":
            known[me] |= mask_of(e.cards)
    known[me] &= hands[me]
    st._bela_done = bela_done
    st._known = known
    st.status = Status.IN_PROGRESS
    st.out = None
    st.buli = [0, 0]
    st.stichmatsch = None
    st.first_scorer = first_scorer
    st.tied = False
    st._both_at_once = view.both_over
    st._window = view.claim_window
    st.moves = []
    st._events = []
    st._legal = [None, None]
    st._playmask = [0, 0]
    st._decls = [None, None]
    return st
