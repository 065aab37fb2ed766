"""The shadow of a hand: the record one seat of a table for two may hold (issue 38).

At a table for two the course's server is the referee: it holds the real hand. Each seat's kernel
holds a game of its own to draw the table and check its player's moves, restored from a ``tartli/1``
record (:meth:`tartli.widgets.table.TableController.restore_game`). The real record would show that
kernel, and anyone who reads its traffic, the other player's cards and the talon's order; so a seat
gets a **shadow**: a record whose deal puts the cards the seat cannot know anew, such that replaying
its moves is legal and gives, after every move, a state whose ``view(seat)`` is the real state's
``view(seat)``, field by field (:func:`shadow_record`).

What the seat knows, and the shadow keeps as it is: the rules, the dealer, the running scores, the
indicator, the seat's own nine cards, the card at each talon place the seat drew (and the card V8
shows), who won each trick, every move of the seat, every card the other played, swapped, showed
with béla or scored in a meld, and the announcements ("kvart", "vannak") of the other's declarations
that did not score. What it does not know, and the shadow deals anew: the other's nine cards, the
talon places the other drew from, the undrawn talon, and which melds an announcement stood for.

How a shadow is made (one try):

1. The other's hand now is sampled as the search bot samples it
   (:class:`tartli.bots.determinize.Sampler`, facts only): the cards the seat has not seen, with a
   meld for each of the other's announcements that did not score.
2. Each card the other was seen to hold (played, shown, scored, swapped; and the cards of a meld
   that fits an announcement) gets a deadline: the trick it was seen in. It is put at a random one
   of the other's places that reached their hand by then (their nine cards: trick 1; the draw
   after trick ``t``: trick ``t + 1``). Cards taken earliest first, any free place that is early
   enough will do (the places of a later card are a superset), so where a card came from (the first
   deal or which draw) is left to chance whenever more than one place fits. The other sampled cards
   take the other's remaining places at random, the rest of the unseen cards the undrawn talon.
3. The moves are replayed on that deal, the seat's view compared with the real one after each. A
   declaration of the other that did not score is named anew: one of the engine's legal
   declarations of the shadow with the same announcements, which gives the same contest (the same
   details, answers and scores: checked to the end of its trick).

A try can fail (the sampled hand fits the announcements but not at the tricks they were made in, or
a contest comes out otherwise); up to ``tries`` tries are made, with a generator seeded by the caller
(the table's code, its version and the seat: the same moment gives the same shadow).

Nothing of the real hidden cards goes in: every step reads only what the seat knows (its view after
each move, its own cards and draws, the announcements' words, never the melds the other named), so a
shadow tells the seat nothing it did not know, whatever the tries find.

**The fallback**, after ``tries`` failed tries (``Shadow.exact`` is False): the other's hand is drawn
uniformly from the cards the seat has not seen, the other's seen cards placed by their deadlines as
above (the real deal shows that this always succeeds), and the other's declarations that did not
score are left out of the moves (a leader's declaration is dropped, a second player's becomes a
pass; under B2 a declaration that also named béla keeps béla alone, which scored in public). Such a
record always replays: it needs only what the real hand proves possible. Its view differs from the
real one in the other's lost announcements alone (their words, and the details and answers they
drew); the points are the same, since those declarations scored nothing. The fallback does not aim
to put the other's hidden cards away from their true places either: a deal that avoided them would
tell where they are *not* (at the last tricks, where they are). It is as likely to hold them there
as any deal the seat could imagine, and it never depends on where they really are: the seat learns
nothing from it.

A hand that is over is no secret: its real record is given (:func:`shadow_record` returns it).
After the 16th trick every card has been played; after a claim (S3) the cards still held and the
talon were never played, but the hand is over and they no longer count for anything, so they are
shown as cards are turned up after a hand, for the review and the download.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tartli.bots.determinize import Sampler, _fits, announcements
from tartli.cards import CARDS, Card, cards_of, mask_of
from tartli.errors import TartliError
from tartli.game import PHASE1_TRICKS, Deal, HandState, PlayerView
from tartli.melds import BELA, MeldKind
from tartli.moves import Declare, Move, Pass
from tartli.record import Record

__all__ = ["TRIES", "Shadow", "shadow_record"]

TRIES = 40
"""Tries before the fallback (a try is a deal and a replay: a few milliseconds)."""
_NEVER = 99
"""When an undrawn talon place reaches the other's hand: not in this hand so far."""


@dataclass(frozen=True)
class Shadow:
    """A seat's record of the hand (see the module's notes)."""

    record: Record
    exact: bool  #: replays to the seat's view after every move (False: the fallback)


@dataclass(frozen=True)
class _Hidden:
    """A declaration of the other that did not score, as the seat knows it: its announcements."""

    player: int
    announced: tuple[str, ...]  #: the words, sorted ("kvart", "vannak")
    bela: bool  #: B2: béla named with it (béla scores whatever the contest, in public)
    leading: bool  #: made by the trick's leader


def _announced(move: Declare) -> tuple[tuple[str, ...], bool]:
    """What a declaration says aloud (the event's words; béla apart)."""
    words = tuple(sorted(m.announcement for m in move.melds if m is not BELA))
    return words, BELA in move.melds


def shadow_record(state: HandState, seat: int, seed: object, tries: int = TRIES) -> Shadow:
    """The record of ``state``'s hand that ``seat`` may hold (see the module's notes): the real record
    once the hand is over, else a shadow found in at most ``tries`` tries, else the fallback.
    ``seed`` seeds the tries (any value :class:`random.Random` takes as a seed: text, a number)."""
    if state.is_over:
        return Shadow(Record.from_state(state), True)
    knowledge = _Knowledge.of(state, seat)
    rng = random.Random(f"tartli-shadow:{seed}")
    for _ in range(tries):
        found = knowledge.attempt(rng)
        if found is not None:
            return Shadow(found, True)
    return Shadow(knowledge.fallback(rng), False)


@dataclass
class _Knowledge:
    """What ``seat`` knows of the hand, read once: the makings of every try."""

    seat: int
    start: HandState  #: the hand before its first move (the seat's places filled in; read for the rules)
    moves: list[Move | _Hidden]  #: the moves, the other's lost declarations by their words only
    tricks_at: list[int]  #: the trick each move was made in
    views: list[PlayerView]  #: the seat's view after each move
    now: PlayerView  #: the seat's view now
    fixed: dict[int, Card]  #: talon places whose card the seat knows
    places: list[tuple[int, int]]  #: the other's places: (the trick it reached their hand, place)
    undrawn: list[int]  #: the talon places still to draw
    deadlines: dict[Card, int]  #: cards the other was seen to hold: the first trick they were seen in
    unknown: frozenset[Card]  #: the cards whose place the seat does not know
    sampler: Sampler  #: the search bot's sampler of the other's hand, on the facts of ``now`` only

    @classmethod
    def of(cls, state: HandState, seat: int) -> _Knowledge:
        deal, other = state.deal, 1 - seat
        real = HandState(deal, state.rules, state.scores_in)
        start = real.copy()
        tricks_at: list[int] = []
        views: list[PlayerView] = []
        for move in state.moves:
            tricks_at.append(real.trick_number)
            real.push(move)
            views.append(real.view(seat))
        now = real.view(seat)
        winners = [w for _leader, _lead, _second, w in now.tricks]
        owners: dict[int, tuple[int, int]] = {}  # talon place -> (drawn by, the trick it reached their hand)
        for trick in range(1, min(len(winners), PHASE1_TRICKS) + 1):
            winner = winners[trick - 1]
            if trick < PHASE1_TRICKS:
                owners[2 * trick - 2] = (winner, trick + 1)
                owners[2 * trick - 1] = (1 - winner, trick + 1)
            else:  # T3: the loser of trick 7 takes the indicator, not a talon card
                owners[12] = (winner, trick + 1)
        shown = len(winners) >= PHASE1_TRICKS and state.rules.show_last_talon_card  # V8: the card was shown
        fixed = {j: deal.talon[j] for j, (who, _) in owners.items() if who == seat or (j == 12 and shown)}
        places = [(1, -1 - i) for i in range(9)]  # the other's nine cards (negative: not talon places)
        places += [(when, j) for j, (who, when) in owners.items() if j not in fixed]
        undrawn = [j for j in range(13) if j not in owners]
        known = {*deal.hands[seat], deal.indicator, *fixed.values()}
        unknown = frozenset(c for c in CARDS if c not in known)
        deadlines: dict[Card, int] = {}
        revealed: set[int] = set()  # tricks in which the other's melds scored (béla apart)
        for event in now.events:
            if event.player != other:
                continue
            if event.kind == "score" and event.say != "Béla":
                revealed.add(event.trick)
            if event.kind == "declare" and "béla" in event.say.split(", "):  # B2: béla named, so held
                for card in BELA.cards(now.trump):
                    if card in unknown:
                        deadlines[card] = min(deadlines.get(card, _NEVER), event.trick)
            if event.kind in ("play", "bela", "score", "swap"):
                for card in event.cards[:1] if event.kind == "swap" else event.cards:  # a swap: the Seven given
                    if card in unknown:
                        deadlines[card] = min(deadlines.get(card, _NEVER), event.trick)
        moves: list[Move | _Hidden] = []
        for move, trick in zip(state.moves, tricks_at, strict=True):
            if type(move) is Declare and move.player == other and trick not in revealed:
                words, bela = _announced(move)
                if words:  # only its words are kept: which melds they stood for stays unknown
                    leader = views[len(moves) - 1].leader if moves else start.leader  # (the trick's leader)
                    moves.append(_Hidden(other, words, bela, leader == other))
                    continue
            moves.append(move)
        sampler = Sampler(now, infer=False)
        return cls(seat, start, moves, tricks_at, views, now, fixed, places, undrawn, deadlines, unknown, sampler)

    # ------------------------------------------------------------------ one try
    def attempt(self, rng: random.Random) -> Record | None:
        """One try (see the module's notes, steps 1-3); None if it failed."""
        now, trump = self.now, self.now.trump
        world = self.sampler.sample(rng)
        hidden = _holding(world.opponent_hand, now, self.deadlines, rng)
        held = mask_of(now.opponent_known) | mask_of(hidden)
        deadlines = dict(self.deadlines)
        scored_sets = {m for ms in now.scored_melds for m in ms if m.kind is MeldKind.SET}
        theirs = list(now.scored_melds[1 - self.seat])
        for ann in announcements(now):  # a meld for each announcement, held when it was made
            fit = _fits(now, ann, held | ann.since, scored_sets, theirs)
            if fit is None:
                return None
            for meld in fit:
                for card in meld.cards(trump):
                    if card in self.unknown:
                        deadlines[card] = min(deadlines.get(card, _NEVER), ann.trick)
        talon = [c for c in world.talon if c not in hidden] + [
            c for c in world.opponent_hand if not held >> c.index & 1
        ]
        rng.shuffle(talon)
        deal = self._deal(rng, deadlines, hidden, talon)
        return None if deal is None else self._replay(deal, rng)

    def _deal(
        self, rng: random.Random, deadlines: dict[Card, int], hidden: list[Card], talon: list[Card]
    ) -> Deal | None:
        """The cards at the places the seat does not know (step 2); None if the deadlines cannot be met."""
        free = list(self.places)
        placed: dict[int, Card] = {}
        for when, card in sorted(((d, c) for c, d in deadlines.items()), key=lambda dc: (dc[0], rng.random())):
            early = [p for p in free if p[0] <= when]
            if not early:
                return None
            place = early[rng.randrange(len(early))]
            free.remove(place)
            placed[place[1]] = card
        rest = [c for c in hidden if c not in deadlines]
        if len(rest) != len(free) or len(talon) != len(self.undrawn):
            return None  # not a hand the seat's view allows (cannot happen with the view's own counts)
        rng.shuffle(rest)
        placed.update((place, card) for (_, place), card in zip(free, rest, strict=True))
        placed.update(zip(self.undrawn, talon, strict=True))
        placed.update(self.fixed)
        start, other = self.start.deal, 1 - self.seat
        hands = [start.hands[0], start.hands[1]]
        hands[other] = tuple(cards_of(mask_of(placed[-1 - i] for i in range(9))))
        try:
            return Deal(start.dealer, (hands[0], hands[1]), start.indicator, tuple(placed[j] for j in range(13)))
        except TartliError:
            return None

    def _replay(self, deal: Deal, rng: random.Random) -> Record | None:
        """The moves on ``deal``, the seat's view checked after each (step 3); None if it differs."""
        shadow = HandState(deal, self.start.rules, self.start.scores_in)
        for index, move in enumerate(self.moves):
            if isinstance(move, _Hidden):
                if not self._name_anew(shadow, index, move, rng):
                    return None
            else:
                try:
                    shadow.push(move)
                except TartliError:
                    return None
                if shadow.view(self.seat) != self.views[index]:
                    return None
        return Record(deal, self.start.rules, self.start.scores_in, [str(m) for m in shadow.moves])

    def _name_anew(self, shadow: HandState, index: int, hidden: _Hidden, rng: random.Random) -> bool:
        """Make a declaration of the shadow's with ``hidden``'s words that gives the seat the same views
        to the end of its trick (so the same contest); False if there is none."""
        choices = [
            m
            for m in shadow.legal_moves(hidden.player)
            if type(m) is Declare and _announced(m) == (hidden.announced, hidden.bela)
        ]
        rng.shuffle(choices)
        trick = self.tricks_at[index]
        for choice in choices:
            trial = shadow.copy()
            trial.push(choice)
            ok = trial.view(self.seat) == self.views[index]
            later = index + 1
            while ok and later < len(self.moves) and self.tricks_at[later] == trick:
                move = self.moves[later]
                try:
                    trial.push(move if not isinstance(move, _Hidden) else _first_declaration(trial, move))
                except TartliError:
                    ok = False
                    break
                ok = trial.view(self.seat) == self.views[later]
                later += 1
            if ok:
                shadow.push(choice)
                return True
        return False

    # ------------------------------------------------------------------ the fallback
    def fallback(self, rng: random.Random) -> Record:
        """The fallback (see the module's notes): always a record that replays."""
        now = self.now
        unseen = list(now.unseen)
        count = now.opponent_hand_size - len(now.opponent_known)
        must = [c for c in unseen if c in self.deadlines]
        for _ in range(100):
            hidden = must + rng.sample([c for c in unseen if c not in must], count - len(must))
            talon = [c for c in unseen if c not in hidden]
            rng.shuffle(talon)
            deal = self._deal(rng, dict(self.deadlines), hidden, talon)
            if deal is not None:
                break
        else:  # pragma: no cover - the real deal meets the deadlines, and the earliest-first placing finds one
            raise TartliError("no deal fits what this seat has seen")
        shadow = HandState(deal, self.start.rules, self.start.scores_in)
        for move in self.moves:
            if not isinstance(move, _Hidden):
                shadow.push(move)
                continue
            for instead in _without_words(move):
                if shadow.is_legal(instead):
                    shadow.push(instead)
                    break
        return Record(deal, self.start.rules, self.start.scores_in, [str(m) for m in shadow.moves])


def _holding(sampled: tuple[Card, ...], now: PlayerView, deadlines: dict[Card, int], rng: random.Random) -> list[Card]:
    """The other's hidden cards of a sample, with the unseen cards they were seen to hold put in (B2: the
    béla they named with a declaration still being contested), each for a sampled card of no deadline."""
    hidden = [c for c in sampled if c not in now.opponent_known]
    for card in now.unseen:
        if card in deadlines and card not in hidden:
            free = [i for i, c in enumerate(hidden) if c not in deadlines]
            if free:
                hidden[free[rng.randrange(len(free))]] = card
    return hidden


def _without_words(hidden: _Hidden) -> list[Move]:
    """What the fallback makes instead of a lost declaration, best first (nothing: a leader's is dropped)."""
    out: list[Move] = []
    if hidden.bela:
        out.append(Declare(hidden.player, (BELA,)))
    if not hidden.leading:
        out.append(Pass(hidden.player))
    return out


def _first_declaration(state: HandState, hidden: _Hidden) -> Move:
    """Any legal declaration with ``hidden``'s words (a second lost declaration in one trick cannot
    happen: one declaration a player a trick; this keeps the look-ahead total)."""
    for m in state.legal_moves(hidden.player):
        if type(m) is Declare and _announced(m) == (hidden.announced, hidden.bela):
            return m
    raise TartliError("no such declaration")
