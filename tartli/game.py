"""One hand of Tartli as a state machine (K1): swap, declare, pass, play, béla, going out.

>>> state = HandState.from_seed(7)
>>> state.to_move, state.trick_number, state.phase
(0, 1, <Phase.FIRST: 1>)
>>> move = state.legal_moves()[0]
>>> state.push(move)
>>> len(state.moves)
1

``legal_moves()`` is the one source of truth for what ``to_move`` may do;
``is_legal`` agrees with it for every move, also moves made out of turn (béla,
going out, the Austrian swap), which ``legal_moves(player)`` lists for the other
player. An illegal move raises :class:`IllegalMoveError` naming the RULES.md ID
and leaves the state exactly as it was.
"""

from __future__ import annotations

import functools
import itertools
import operator
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from tartli import names
from tartli._checks import checked, checked_fields, unchecked
from tartli.cards import (
    CARDS,
    LAST_TRICK_BONUS,
    POINTS_BY_TRUMP,
    STRENGTH_BY_TRUMP,
    SUIT_MASKS,
    TOTAL_CARD_POINTS,
    Card,
    Rank,
    Suit,
    _card_arg,
    _cards_arg,
    _mask_of,
    _suit_arg,
    cards_of,
)
from tartli.errors import ArgumentError, Choice, IllegalMoveError, InvalidDealError, shown
from tartli.i18n import _, language, ngettext
from tartli.melds import (
    ALL_MELDS,
    BELA,
    SEQUENCE_LENGTHS,
    Meld,
    MeldKind,
    _contest,
    _may_answer,
    _may_hold_meld,
    _same_suit,
    _sequences_in,
    _sets_in,
    bela_mask,
    may_answer,
    same_suit_ok,
)
from tartli.moves import (
    BELAS,
    OUTS,
    PASSES,
    PLAYS,
    SWAPS,
    Bela,
    Declare,
    GoOut,
    Move,
    Pass,
    Play,
    Swap,
    coerce_move,
)
from tartli.rules import RuleSet, rules_arg, ruleset_arg

WINNING_SCORE = 501
"""S3: the score to reach."""
MACCS_LIMIT = 250
"""S4: an opponent with 250 or less makes it a maccs (V10: below 250 is a double)."""
PHASE1_TRICKS = 7
LAST_MELD_TRICK = 8
TRICKS = 16

_SEVEN = Rank.SEVEN.index
_NO_MELDS: tuple[Meld, ...] = ()
# _PLAYS_BY_BYTE[player][suit][8-bit mask of the suit]: the Play moves of those cards.
_PLAYS_BY_BYTE = tuple(
    tuple(tuple(tuple(PLAYS[p][s * 8 + r] for r in range(8) if byte >> r & 1) for byte in range(256)) for s in range(4))
    for p in (0, 1)
)


_INDEX = operator.attrgetter("index")
_DEFAULT_RULES = RuleSet()
_MOVE_CLASSES = frozenset((Swap, Declare, Pass, Play, Bela, GoOut))
_DECLARES: dict[tuple[int, tuple[Meld, ...]], Declare] = {}


def _declare_move(player: int, melds: tuple[Meld, ...]) -> Declare:
    """The interned Declare of these melds (declarations repeat across hands)."""
    key = (player, melds)
    move = _DECLARES.get(key)
    if move is None:
        move = _DECLARES[key] = Declare(player, melds)
    return move


def _player_arg(player: object) -> int:
    """A player argument of the public API: 0 or 1, else an :class:`ArgumentError`."""
    if type(player) is not int or player not in (0, 1):
        raise ArgumentError(f"a player is 0 or 1, not {shown(player)}")
    return player


def trick_winner(lead: Card, second: Card, trump: Suit) -> int:
    """T1: 0 if the lead card wins the trick, 1 if the second card does.

    >>> trick_winner(Card.parse("AH"), Card.parse("9H"), Suit.BELLS)
    0
    >>> trick_winner(Card.parse("AH"), Card.parse("7B"), Suit.BELLS)
    1
    """
    _card_arg(lead, "the lead")
    _card_arg(second, "the second card")
    _suit_arg(trump, "the trump suit")
    return _second_wins(lead.index, second.index, trump.index)


def trick_points(cards: Iterable[Card], trump: Suit) -> int:
    """C3/C4: the card points of some cards (the last-trick 10, C5, is not included)."""
    table = POINTS_BY_TRUMP[_suit_arg(trump, "the trump suit").index]
    return sum(table[c.index] for c in _cards_arg(cards))


class _ClaimWindowFields(NamedTuple):
    """The fields of :class:`ClaimWindow`, whose constructor checks them."""

    claimant: int  #: the leader of that trick, the only player the window is open to
    winner: int  #: who took the trick
    points: int  #: the trick's card points
    trick: int  #: its number


class ClaimWindow(_ClaimWindowFields):
    """S3's claim window, open for exactly one move after a trick whose second card decided a contest.

    The second player played without declaring or passing, so their card decided the contest
    (the leader's melds scored by it) and took the trick in the same move. The leader's ``out``
    as the very next move is judged at K1 step 7: without this trick's card points, which then
    count for neither player.
    """

    __slots__ = ()

    def __new__(cls, claimant: int, winner: int, points: int, trick: int) -> ClaimWindow:
        window = super().__new__(cls, claimant, winner, points, trick)
        checked_fields(window, players=("claimant", "winner"))
        return window


class _ClaimFields(NamedTuple):
    """The fields of :class:`Claim`, whose constructor checks them."""

    player: int
    valid: bool  #: 501 or more (S4), or any claim in B2's both-over state
    total: int  #: the claimant's count the claim is judged on
    other: int  #: the opponent's count at that moment (for the maccs)
    winner: int  #: who wins the buli
    buli: int  #: 1, or 2 for a maccs (S4) / a double (V10)
    at_step_seven: bool  #: judged in the claim window: the trick just taken counts for neither player


class Claim(_ClaimFields):
    """What a claim of 501 by ``player`` gives at this moment (S3, S4, B2, V10)."""

    __slots__ = ()

    def __new__(
        cls, player: int, valid: bool, total: int, other: int, winner: int, buli: int, at_step_seven: bool
    ) -> Claim:
        claim = super().__new__(cls, player, valid, total, other, winner, buli, at_step_seven)
        checked_fields(claim, players=("player", "winner"))
        return claim


def buli_points(rules: RuleSet, loser_total: int) -> int:
    """S4 maccs / V10 double: 2 if the loser has 250 or less (V10: less than 250), else 1."""
    if type(loser_total) is not int:
        raise ArgumentError(f"the loser's total is a whole number, not {shown(loser_total)}")
    if ruleset_arg(rules).single_games:
        return 2 if loser_total < MACCS_LIMIT else 1
    return 2 if loser_total <= MACCS_LIMIT else 1


def judge_claim(
    player: int,
    totals: tuple[int, int],
    rules: RuleSet,
    window: ClaimWindow | None = None,
    both_over: bool = False,
) -> Claim:
    """The verdict on a claim by ``player`` with these counts (S3): the one judge for the engine and views.

    ``window`` is an open :class:`ClaimWindow`: a claim by its claimant that has 501 or more without
    the trick's card points is judged at K1 step 7, where that trick counts for nobody; a claim that
    needs the trick is judged after it, as usual. ``both_over`` is B2's state: one contest lifted both
    to 501, so any claim is valid and the higher total wins 1 buli.

    >>> judge_claim(0, (505, 264), RuleSet()).buli
    1
    >>> window = ClaimWindow(claimant=0, winner=1, points=14, trick=1)  # the opponent took 14 just now
    >>> judge_claim(0, (505, 264), RuleSet(), window)  # at step 7 the opponent has 250: a maccs
    Claim(player=0, valid=True, total=505, other=250, winner=0, buli=2, at_step_seven=True)
    """
    _player_arg(player)
    if not isinstance(totals, tuple | list) or len(totals) != 2 or any(type(t) is not int for t in totals):
        raise ArgumentError(f"the totals are two whole numbers, not {shown(totals)}")
    ruleset_arg(rules)
    if window is not None and (
        not isinstance(window, ClaimWindow)
        or any(type(x) is not int for x in window)
        or window.claimant not in (0, 1)
        or window.winner not in (0, 1)
    ):
        raise ArgumentError(f"a claim window is None or a ClaimWindow of the engine, not {shown(window)}")
    if type(both_over) is not bool:
        raise ArgumentError(f"both_over is True or False, not {shown(both_over)}")
    counts = [totals[0], totals[1]]
    at_step_seven = False
    if window is not None and window.claimant == player and not both_over:
        before = counts.copy()
        before[window.winner] -= window.points
        if before[player] >= WINNING_SCORE:
            counts, at_step_seven = before, True
    mine, theirs = counts[player], counts[1 - player]
    if both_over:
        winner = player if mine > theirs else 1 - player
        return Claim(player, True, mine, theirs, winner, 1, False)
    if mine >= WINNING_SCORE:
        return Claim(player, True, mine, theirs, player, buli_points(rules, theirs), at_step_seven)
    return Claim(player, False, mine, theirs, 1 - player, 1, False)  # S4/V10: a wrong claim loses single


def _second_wins(lead: int, second: int, t: int) -> int:
    if second >> 3 == lead >> 3:
        return 1 if STRENGTH_BY_TRUMP[t][second] > STRENGTH_BY_TRUMP[t][lead] else 0
    return 1 if second >> 3 == t else 0


# _SECOND_WINS[trump][lead << 5 | second]: 1 if the second card wins (T1), precomputed from _second_wins.
_SECOND_WINS = tuple(bytes(_second_wins(a, b, t) for a in range(32) for b in range(32)) for t in range(4))


class Phase(Choice):
    """The two phases of play (T2, T4), and the end."""

    FIRST = 1  #: tricks 1-7: the talon is not empty; any card may be played (T2)
    SECOND = 2  #: tricks 8-16: follow suit, else trump (T4)
    OVER = 3  #: the hand has ended


class Status(Choice):
    """How a hand stands (the ``status`` of a ``tartli-result/1``)."""

    IN_PROGRESS = "in-progress"  #: moves are still due
    FINISHED = "finished"  #: all 16 tricks were played (S1)
    OUT = "out"  #: a player claimed 501 (S3)


_IN_PROGRESS = Status.IN_PROGRESS


@dataclass(frozen=True)
class Deal:
    """The cards of one hand as dealt: two hands of 9, the indicator, the 13-card talon (D1).

    ``talon[0]`` is the top card, drawn first. ``hands[p]`` is player ``p``'s hand.
    """

    dealer: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    indicator: Card
    talon: tuple[Card, ...]

    def __post_init__(self) -> None:
        if type(self.dealer) is not int or self.dealer not in (0, 1):
            raise InvalidDealError(
                "D2: " + _("the dealer is player 0 or 1, not {value}").format(value=shown(self.dealer))
            )
        if not isinstance(self.hands, tuple | list) or not isinstance(self.talon, tuple | list):
            raise InvalidDealError("D1: " + _("the hands and the talon are sequences of cards"))
        if len(self.hands) != 2 or not all(isinstance(h, tuple | list) for h in self.hands):
            raise InvalidDealError("D1: " + _("a deal has two hands"))
        cards = (*self.hands[0], *self.hands[1], self.indicator, *self.talon)
        if (
            len(cards) == 32
            and len(self.hands[0]) == len(self.hands[1]) == 9
            and set(map(type, cards)) == {Card}
            and len(set(map(_INDEX, cards))) == 32
        ):
            return  # the usual case: a whole pack, 9 + 9 + 1 + 13
        for p, hand in enumerate(self.hands):
            if len(hand) != 9:
                raise InvalidDealError(
                    "D1: "
                    + ngettext(
                        "{player} holds {count} card; a hand is dealt 9",
                        "{player} holds {count} cards; a hand is dealt 9",
                        len(hand),
                    ).format(player=names.player_name(p, language(), in_sentence=True), count=len(hand))
                )
        if len(self.talon) != 13:
            raise InvalidDealError(
                "D1: "
                + ngettext(  # English says "1 face-down cards" as it always has (the replay's vectors compare it)
                    "the talon has {count} face-down cards; it must have 13 (14 with the trump indicator)",
                    "the talon has {count} face-down cards; it must have 13 (14 with the trump indicator)",
                    len(self.talon),
                ).format(count=len(self.talon))
            )
        seen: dict[Card, str] = {}
        hands = (_("in player 0's hand"), _("in player 1's hand"))
        places = [(hands[p], c) for p in (0, 1) for c in self.hands[p]]
        places += [(_("in the trump indicator"), self.indicator)] + [(_("in the talon"), c) for c in self.talon]
        for where, card in places:
            if not isinstance(card, Card):
                raise InvalidDealError(
                    "C1: " + _("{value} {place} is not a card").format(value=shown(card), place=where)
                )
            if card in seen:
                # ({code}, the record's English notation, only where a sentence shows it: names.RECORD_CODES_SHOWN)
                twice = (
                    _("{card_the} ({code}) is dealt twice: {first} and {second}")
                    if names.RECORD_CODES_SHOWN[language()]
                    else _("{card_the} is dealt twice: {first} and {second}")
                )
                raise InvalidDealError(
                    "C1: " + twice.format(card=card.name(), code=card, first=seen[card], second=where)
                )
            seen[card] = where
        # 32 distinct cards were counted above, so the pack is whole (C1).

    @property
    def trump(self) -> Suit:
        """The trump suit: the indicator's suit (D1)."""
        return self.indicator.suit

    @classmethod
    def shuffled(cls, rng: random.Random, dealer: int = 1, indicator_packet: int = 6) -> Deal:
        """Shuffle the pack with ``rng`` and deal as D1 says (V1: the indicator after packet 1-6).

        The pack in index order is shuffled by sorting it on ``rng.random()`` keys; packets of three go
        to the non-dealer first, then alternate; the indicator is the card after the
        ``indicator_packet``-th packet (6, the 19th card, by default; V1 allows the
        4th, 7th, 10th, 13th or 16th too); the rest, in order, is the talon.
        """
        checked(rng, random.Random, "rng", "random.Random(7)")
        if type(dealer) is not int or dealer not in (0, 1):
            raise InvalidDealError("D2: " + _("the dealer is player 0 or 1, not {value}").format(value=shown(dealer)))
        if type(indicator_packet) is not int or indicator_packet not in range(1, 7):
            raise InvalidDealError(
                "V1: " + _("the trump indicator follows one of the packets 1-6 (the 4th to the 19th card)")
            )
        # A uniform shuffle, reproducible on every machine: sort the pack on rng.random() keys.
        draw = rng.random
        keys = [draw() for _ in range(32)]
        pack = [CARDS[i] for i in sorted(range(32), key=keys.__getitem__)]
        hands: tuple[list[Card], list[Card]] = ([], [])
        receiver = 1 - dealer
        pos = 0
        indicator = pack[0]
        for packet in range(1, 7):
            hands[receiver].extend(pack[pos : pos + 3])
            pos += 3
            receiver = 1 - receiver
            if packet == indicator_packet:
                indicator = pack[pos]
                pos += 1
        # A permutation of the whole pack needs no check (C1): skip __post_init__.
        return unchecked(
            cls, dealer=dealer, hands=(tuple(hands[0]), tuple(hands[1])), indicator=indicator, talon=tuple(pack[pos:])
        )

    @classmethod
    def from_seed(cls, seed: int, dealer: int = 1, indicator_packet: int = 6) -> Deal:
        """The deal of ``random.Random(seed)``: the same cards on every machine (D1)."""
        if type(seed) is not int:
            raise ArgumentError(f"a seed is a whole number, not {shown(seed)}")
        return cls.shuffled(random.Random(seed), dealer, indicator_packet)


class _EventFields(NamedTuple):
    """The fields of :class:`Event`, whose constructor checks them."""

    kind: str
    player: int | None
    say: str = ""
    cards: tuple[Card, ...] = ()
    points: int = 0
    trick: int = 0
    private_to: int | None = None


class Event(_EventFields):
    """One step of the hand for a log or a lesson to narrate.

    ``say`` is the traditional announcement ("kvart", "vannak", "Good", "Higher here",
    "Acorn-Over-Kvart", "béla"), always in English (it is data, which the bots read);
    :attr:`text` is a plain sentence in the page's language.
    ``private_to`` is the only player allowed to see it (a drawn card), or ``None``.
    """

    __slots__ = ()

    def __new__(
        cls,
        kind: str,
        player: int | None,
        say: str = "",
        cards: tuple[Card, ...] = (),
        points: int = 0,
        trick: int = 0,
        private_to: int | None = None,
    ) -> Event:
        # The hand's own log makes its events with _make, unchecked (HandState.events).
        event = super().__new__(cls, kind, player, say, cards, points, trick, private_to)
        checked_fields(event, players=("player", "private_to"))
        return event

    @property
    def text(self) -> str:
        """The step in plain words, as the referee sees it."""
        return self.describe()

    def describe(self, viewer: int | None = None, who: tuple[str, str] | None = None) -> str:
        """The step in plain words for ``viewer`` (None: the referee, who sees every card).

        ``who`` names the two players (default "Player 0", "Player 1"); a name "You" is spoken to,
        in the second person: ``who=("You", "The computer")`` gives "You play the Ace of Hearts."
        and "The computer wins trick 1 (21 card points)." The sentence is in the page's language
        (``who`` stays in English: "You" and "The computer" are said in that language).

        >>> Event("play", 0, cards=(Card.parse("AH"),)).describe(0, ("You", "The computer"))
        'You play the Ace of Hearts.'
        """
        if viewer is not None:
            _player_arg(viewer)
        if who is not None and (
            not isinstance(who, tuple | list) or len(who) != 2 or not all(isinstance(w, str) for w in who)
        ):
            raise ArgumentError(f'who names the two players, e.g. ("You", "The computer"), not {shown(who)}')
        p = self.player
        if p is None:
            name = ""
        elif who is None:
            name = names.player_name(p, language())
        else:
            name = who[p]
        you = name == "You"
        if name == "The computer":
            name = _("The computer")

        def says(second: str, third: str, **values: object) -> str:
            return (second if you else third).format(name=name, **values)

        card = self.cards[0].name() if self.cards else ""
        kind = self.kind
        if kind == "draw":
            if self.say == "indicator":
                return says(
                    _("You take the trump indicator, the {card_acc}."),
                    _("{name} takes the trump indicator, the {card_acc}."),
                    card=card,
                )
            if not self.cards or (viewer is not None and viewer != self.private_to):
                return says(_("You draw a card."), _("{name} draws a card."))
            return says(_("You draw the {card_acc}."), _("{name} draws the {card_acc}."), card=card)
        if kind == "play":
            return says(_("You play the {card_acc}."), _("{name} plays the {card_acc}."), card=card)
        if kind == "trick":
            return says(
                _("You win trick {trick_the} ({points} card points)."),
                _("{name} wins trick {trick_the} ({points} card points)."),
                trick=names.number(self.trick, language()),
                points=self.points,
            )
        if kind == "declare":
            said = ", ".join(_announcement_word(word) for word in self.say.split(", "))
            return says(_("You declare: {said}."), _("{name} declares: {said}."), said=said)
        if kind == "pass":
            return says(_("You pass."), _("{name} passes."))
        if kind == "detail":
            return says(
                _("You name the best: {best}."), _("{name} names the best: {best}."), best=_detail_words(self.say)
            )
        if kind == "answer":
            answer = {"Good": "good", "Higher here": "higher"}.get(self.say)
            said = names.announcement(answer, language()) if answer else self.say
            return says(_("You answer “{said}”."), _("{name} answers “{said}”."), said=said)
        if kind == "score":
            meld = _meld_by_title().get(self.say)
            said = meld.title() if meld is not None else names.Named(self.say)
            return says(
                _("You score {said_cau}: {points}."),
                _("{name} scores {said_cau}: {points}."),
                said=said,
                points=self.points,
            )
        if kind == "bela":
            return says(_("You declare béla and score 40."), _("{name} declares béla and scores 40."))
        if kind == "swap":
            return says(
                _("You swapped the trump Seven for the {card_sub}."),
                _("{name} swapped the trump Seven for the {card_sub}."),
                card=self.cards[1].name(),
            )
        if kind == "show":
            return says(
                _("You show the {card_acc} before taking it."),
                _("{name} shows the {card_acc} before taking it."),
                card=card,
            )
        if kind == "stichmatsch":
            return says(
                _("You won all nine tricks of phase 2: stichmatsch, all 161 card points."),
                _("{name} won all nine tricks of phase 2: stichmatsch, all 161 card points."),
            )
        if kind == "out":
            if self.say == "correct":
                return says(
                    _("You go out with {points}: the claim is correct."),
                    _("{name} goes out with {points}: the claim is correct."),
                    points=self.points,
                )
            if self.say == "wrong":
                return says(
                    _("You go out with {points}: the claim is wrong."),
                    _("{name} goes out with {points}: the claim is wrong."),
                    points=self.points,
                )
        if kind == "buli":
            if self.points == 2:
                return says(
                    _("You win {points} buli (maccs)."), _("{name} wins {points} buli (maccs)."), points=self.points
                )
            return says(_("You win {points} buli."), _("{name} wins {points} buli."), points=self.points)
        if kind == "uncounted":
            return _(
                "The claim came before trick {trick_the} was taken: its {points} card points count for neither player."
            ).format(trick=names.number(self.trick, language()), points=self.points)
        if kind == "tie":
            return _("Both have reached 501 with equal totals: the first to score in the next hand wins the buli.")
        if kind == "end":
            a, sep, b = self.say.partition(" to ")
            if sep:
                return _("The hand is over: {a} to {b}.").format(a=a, b=b)
            return _("The hand is over: {result}.").format(result=self.say)
        return f"{kind} {self.say}".strip()


def person(name: str) -> str:
    """A player inside a sentence, in the page's language: "You" and "The computer" (the names the
    engine's callers use, see :meth:`Event.describe`) become "you" and "the computer"; a person's own
    name stays as it is.

    >>> person("The computer"), person("Anna")
    ('the computer', 'Anna')
    """
    if name == "You":
        return _("you")
    if name == "The computer":
        return _("the computer")
    return name


def _announcement_word(word: str) -> str:
    """A logged announcement ("kvart", "vannak", "béla": the record's words) in the page's language."""
    lang = language()
    if word == "vannak":
        return names.SET_NAME[lang]
    if word == "béla":
        return names.BELA_NAME[lang]
    length = SEQUENCE_LENGTHS.get(word)
    return names.sequence_name(length, lang) if length is not None else word


def _detail_words(said: str) -> str:
    """A logged K4 detail ("Over-vannak", or a sequence's top rank "Ace") in the page's language."""
    word, _sep, rest = said.partition("-")
    rank = next((r for r in Rank if r.name_in("en") == word), None)
    if rank is None:
        return said
    if rest == "vannak":
        return names.set_title(rank.index, language())
    return rank.name_in() if not rest else said


def _follow_suit(suit: Suit) -> str:
    """T4's explanation when the second player holds the suit led (one sentence per suit)."""
    return (
        _("you must follow suit: you hold an Acorn"),
        _("you must follow suit: you hold a Leaf"),
        _("you must follow suit: you hold a Heart"),
        _("you must follow suit: you hold a Bell"),
    )[suit.index]


def _play_a_trump(trump: Suit) -> str:
    """T4's explanation when the second player cannot follow suit but holds a trump."""
    return (
        _("you cannot follow suit, so you must play a trump: you hold an Acorn"),
        _("you cannot follow suit, so you must play a trump: you hold a Leaf"),
        _("you cannot follow suit, so you must play a trump: you hold a Heart"),
        _("you cannot follow suit, so you must play a trump: you hold a Bell"),
    )[trump.index]


@functools.cache
def _meld_by_title() -> dict[str, Meld]:
    """Every meld by its English title, as the game logs it ("Acorn-Over-Kvart", "Béla")."""
    return {m.title("en"): m for m in ALL_MELDS}


@dataclass(frozen=True)
class PlayerView:
    """What one player may know (RULES.md, notes for the engine): all a bot or widget gets.

    ``opponent_known`` are cards the opponent is known to hold (the indicator they took,
    a card shown under V8, cards of melds they specified and have not played).
    ``opponent_declared`` is what the opponent announced this trick ("kvart", "vannak")
    before it is specified.
    """

    player: int
    rules: RuleSet
    dealer: int
    status: Status
    phase: Phase
    trick_number: int
    leader: int
    to_move: int | None
    trump: Suit
    indicator: Card | None
    hand: tuple[Card, ...]
    opponent_hand_size: int
    opponent_known: tuple[Card, ...]
    talon_size: int
    lead: Card | None
    tricks: tuple[tuple[int, Card, Card, int], ...]
    scores_in: tuple[int, int]
    meld_points: tuple[int, int]
    card_points: tuple[int, int]
    my_declaration: tuple[Meld, ...] | None
    opponent_declared: tuple[str, ...] | None
    scored_melds: tuple[tuple[Meld, ...], tuple[Meld, ...]]
    events: tuple[Event, ...]
    legal_moves: tuple[Move, ...]
    claim_window: ClaimWindow | None = None
    both_over: bool = False  #: B2: one contest lifted both players to 501 together

    def __post_init__(self) -> None:
        checked_fields(self, players=("player", "dealer", "leader", "to_move"))

    @property
    def totals(self) -> tuple[int, int]:
        """Running scores with melds and completed tricks (S3)."""
        return (
            self.scores_in[0] + self.meld_points[0] + self.card_points[0],
            self.scores_in[1] + self.meld_points[1] + self.card_points[1],
        )

    def claim(self, player: int) -> Claim:
        """What a claim by ``player`` would give now (S3, S4, B2; the claim window included)."""
        return judge_claim(_player_arg(player), self.totals, self.rules, self.claim_window, self.both_over)

    def _repr_svg_(self) -> str:
        """Jupyter shows the table as this player sees it."""
        from tartli.render.table import table_svg

        return table_svg(self)

    @property
    def unseen(self) -> tuple[Card, ...]:
        """Cards this player has not seen: in the talon or the opponent's hand, not known."""
        seen = set(self.hand) | set(self.opponent_known)
        for _n, lead, second, _w in self.tricks:
            seen.update((lead, second))
        if self.lead is not None:
            seen.add(self.lead)
        if self.indicator is not None:
            seen.add(self.indicator)
        return tuple(c for c in CARDS if c not in seen)


@dataclass
class _Trick:
    """Declarations and cards of the trick under way."""

    declared: list[tuple[Meld, ...] | None] = field(default_factory=lambda: [None, None])
    passed: bool = False
    decided: bool = False
    lead: int = -1  # card index of the lead, -1 before it


class HandState:
    """One hand from the deal to its end: the referee's whole state.

    Give it to nobody but a referee: players get :meth:`view`.
    """

    player_names: tuple[str, str] | None = None
    """How a refusal names the players, as :meth:`Event.describe`'s ``who`` does (``("You", "The
    computer")``, or two people's names): the caller sets it. Without it a refusal calls the mover's
    opponent "your opponent" (English keeps its "player 0"); it never shows a number for a person."""

    def __init__(self, deal: Deal, rules: RuleSet | None = None, scores: Sequence[int] = (0, 0)) -> None:
        if not isinstance(deal, Deal):
            raise ArgumentError(f"a hand starts from a Deal, not {shown(deal)}")
        rules_arg(rules)
        if not isinstance(scores, Sequence) or len(scores) != 2 or any(type(s) is not int or s < 0 for s in scores):
            raise InvalidDealError("S1: " + _("running scores are two whole numbers of 0 or more"))
        self.rules = rules or _DEFAULT_RULES
        self.deal = deal
        self.scores_in: tuple[int, int] = (scores[0], scores[1])
        self._reset()

    # ---------------------------------------------------------------- set-up
    @classmethod
    def from_seed(
        cls,
        seed: int,
        rules: RuleSet | None = None,
        dealer: int = 1,
        scores: Sequence[int] = (0, 0),
        indicator_packet: int = 6,
    ) -> HandState:
        """A new hand dealt from ``random.Random(seed)`` (D1; V1: ``indicator_packet`` 1-6)."""
        rules_arg(rules)
        if indicator_packet != 6 and not (rules and rules.indicator_choice):
            raise InvalidDealError("V1: " + _("only the Austrian rules let the non-dealer choose the trump indicator"))
        return cls(Deal.from_seed(seed, dealer, indicator_packet), rules, scores)

    def _reset(self) -> None:
        deal = self.deal
        self.dealer = deal.dealer
        self.trump: Suit = deal.indicator.suit
        self._t = deal.indicator.suit.index
        self._bela = bela_mask(self.trump)
        self._seven = 1 << (self._t * 8 + _SEVEN)
        self._hands = [_mask_of(deal.hands[0]), _mask_of(deal.hands[1])]
        self.indicator: Card | None = deal.indicator
        self._talon = list(deal.talon)
        self._drawn = 0
        self.trick_number = 1
        self.leader = 1 - deal.dealer  # D3
        self._trick = _Trick()
        self.meld_points = [0, 0]
        self.card_points = [0, 0]
        self._tricks: list[tuple[int, int, int, int]] = []  # leader, lead idx, second idx, winner
        self._scored: tuple[list[Meld], list[Meld]] = ([], [])
        self._scored_sets: set[Meld] = set()
        self._bela_done = [False, False]
        self._known = [0, 0]  # cards a player is publicly known to hold
        self.status = Status.IN_PROGRESS
        self.out: tuple[int, bool] | None = None
        self.buli = [0, 0]
        self.stichmatsch: int | None = None
        self.first_scorer: int | None = None  # S5: the first to score anything (meld, béla, trick with points)
        self.tied = False
        self._both_at_once = False  # B2: one contest lifted both to 501 together
        self._window: ClaimWindow | None = None  # S3: open for the one move after a silent deciding card
        self.moves: list[Move] = []
        self._events: list[tuple[str, int | None, str, tuple[Card, ...], int, int, int | None]] = []
        self._legal: list[tuple[Move, ...] | None] = [None, None]
        self._playmask = [0, 0]  # the plays listed in _legal, as a card mask
        self._decls: list[list[Declare] | None] = [None, None]

    def copy(self) -> HandState:
        """An independent copy (for bots that look ahead)."""
        other = HandState.__new__(HandState)
        other.__dict__.update(self.__dict__)
        other._hands = list(self._hands)
        other._talon = self._talon  # never mutated: drawing moves a pointer
        other._trick = _Trick(list(self._trick.declared), self._trick.passed, self._trick.decided, self._trick.lead)
        other.meld_points = list(self.meld_points)
        other.card_points = list(self.card_points)
        other._tricks = list(self._tricks)
        other._scored = (list(self._scored[0]), list(self._scored[1]))
        other._scored_sets = set(self._scored_sets)
        other._bela_done = list(self._bela_done)
        other._known = list(self._known)
        other.buli = list(self.buli)
        other.moves = list(self.moves)
        other._events = list(self._events)
        other._legal = [None, None]
        other._playmask = [0, 0]
        other._decls = [None, None]
        return other

    # ---------------------------------------------------------------- reading
    @property
    def phase(self) -> Phase:
        if self.status is not Status.IN_PROGRESS:
            return Phase.OVER
        return Phase.FIRST if self.trick_number <= PHASE1_TRICKS else Phase.SECOND

    @property
    def to_move(self) -> int | None:
        """Whose decision is due: the leader until they play, then the second (RECORD.md)."""
        if self.status is not Status.IN_PROGRESS:
            return None
        return self.leader if self._trick.lead < 0 else 1 - self.leader

    @property
    def events(self) -> list[Event]:
        """Every step of the hand so far, for a log or a lesson (the referee's view)."""
        return [Event._make(e) for e in self._events]

    @property
    def is_over(self) -> bool:
        return self.status is not Status.IN_PROGRESS

    def hand(self, player: int) -> list[Card]:
        """The cards ``player`` holds, in index order (referee's knowledge)."""
        return cards_of(self._hands[_player_arg(player)])

    @property
    def lead(self) -> Card | None:
        """The card led to the trick under way, if any."""
        return CARDS[self._trick.lead] if self._trick.lead >= 0 else None

    @property
    def talon(self) -> list[Card]:
        """Face-down talon cards still to draw, top first."""
        return self._talon[self._drawn :]

    @property
    def declared(self) -> tuple[tuple[Meld, ...] | None, tuple[Meld, ...] | None]:
        """What each player declared in the trick under way (None: not yet)."""
        d = self._trick.declared
        return d[0], d[1]

    @property
    def scored_melds(self) -> tuple[list[Meld], list[Meld]]:
        """Sets and sequences each player has scored this hand (béla not included)."""
        return list(self._scored[0]), list(self._scored[1])

    @property
    def bela_scored(self) -> tuple[bool, bool]:
        return self._bela_done[0], self._bela_done[1]

    @property
    def trick_winners(self) -> list[int]:
        """The winner of each completed trick, in order."""
        return [t[3] for t in self._tricks]

    @property
    def tricks(self) -> list[tuple[int, Card, Card, int]]:
        """Completed tricks: (leader, lead card, second card, winner)."""
        return [(ld, CARDS[a], CARDS[b], w) for ld, a, b, w in self._tricks]

    def won_cards(self, player: int) -> list[Card]:
        """Cards in ``player``'s trick pile."""
        _player_arg(player)
        out: list[Card] = []
        for _n, a, b, w in self._tricks:
            if w == player:
                out += [CARDS[a], CARDS[b]]
        return out

    def total(self, player: int) -> int:
        """Running score + melds + card points of completed tricks (S3; a trick under way never counts)."""
        p = _player_arg(player)
        return self.scores_in[p] + self.meld_points[p] + self.card_points[p]

    @property
    def totals(self) -> tuple[int, int]:
        scores, melds, cards = self.scores_in, self.meld_points, self.card_points
        return scores[0] + melds[0] + cards[0], scores[1] + melds[1] + cards[1]

    @property
    def claim_window(self) -> ClaimWindow | None:
        """S3's claim window, if the last move opened it (it closes with the next move)."""
        return self._window

    def claim(self, player: int) -> Claim:
        """What a claim by ``player`` would give now, without making it (S3, S4, B2, V10)."""
        return judge_claim(_player_arg(player), self.totals, self.rules, self._window, self._both_at_once)

    # ---------------------------------------------------------------- legality
    # Legality lives in legal_moves() alone; the _why_not_* methods below only explain refusals.
    def _can_swap(self, p: int) -> bool:
        """T5 (V7): the caller has checked the trick number, the indicator and the trump Seven."""
        trick = self._trick
        if not self.rules.swap_any_time:
            # T5: only the leader, before declaring and before leading.
            return p == self.leader and trick.lead < 0 and trick.declared[p] is None
        # V7: at any moment, but not after declaring a sequence with the trump 7 in this trick.
        decl = trick.declared[p]
        return not (decl and any(m.kind is MeldKind.SEQUENCE and m.mask & self._seven for m in decl))

    def _declarations(self, p: int) -> list[Declare]:
        """Every declaration ``p`` may make at their declaration step (M5-M7, K3, K6, K7/V5, V3, V4, B2)."""
        cached = self._decls[p]
        if cached is None:
            cached = self._decls[p] = self._find_declarations(p)
        return cached

    def _find_declarations(self, p: int) -> list[Declare]:
        rules = self.rules
        hand = self._hands[p]
        can_bela = rules.bela_at_declaration and not self._bela_done[p] and hand & self._bela == self._bela
        sets = _sets_in(hand, rules)
        seqs = _sequences_in(hand)
        if not (sets or seqs or can_bela):
            return []  # the usual case: nothing to declare
        if self._scored_sets:
            sets = [m for m in sets if m not in self._scored_sets]
        scored = self._scored[p]
        if scored:
            seqs = [m for m in seqs if _same_suit(m, scored, rules)[0] == "ok"]
        set_choices: list[tuple[Meld, ...]] = [()] + [(m,) for m in sets]
        if rules.several_sequences:
            per_suit: list[list[tuple[Meld, ...]]] = [[()] for _ in range(4)]
            for m in seqs:
                per_suit[m.suit.index].append((m,))  # type: ignore[union-attr]
            seq_choices = [sum(parts, ()) for parts in itertools.product(*per_suit)]
        else:
            seq_choices = [()] + [(m,) for m in seqs]
        bela_choices: list[tuple[Meld, ...]] = [(), (BELA,)] if can_bela else [()]
        leader_decl = self._trick.declared[self.leader] if p != self.leader else None
        out: list[Declare] = []
        for a in set_choices:
            for b in seq_choices:
                for c in bela_choices:
                    melds = a + b + c
                    if not melds:
                        continue
                    if leader_decl and not _may_answer(leader_decl, melds):
                        continue
                    out.append(_declare_move(p, melds))
        return out

    def legal_moves(self, player: int | None = None) -> tuple[Move, ...]:
        """Every legal move of ``player`` (default: ``to_move``), in a stable order:
        swap, béla, declarations, pass, plays (in card order), going out (always last).

        This is the one source of truth: ``push`` and ``is_legal`` accept exactly
        these moves. For ``to_move`` it is the ``legal`` list of a
        ``tartli-result/1``; for the other player it holds what they may do out of
        turn (béla B1, going out S3, the Austrian swap V7).
        """
        trick = self._trick
        if self.status is not _IN_PROGRESS:
            return ()
        if player is None:
            player = self.leader if trick.lead < 0 else 1 - self.leader
        elif player.__class__ is not int or not 0 <= player <= 1:
            raise ArgumentError(f"a player is 0 or 1, not {shown(player)}")
        cached = self._legal[player]
        if cached is not None:
            return cached
        hand = self._hands[player]
        lead = trick.lead
        leading = player == self.leader
        number = self.trick_number
        # T2, T4: which cards may be played (none if it is not this player's turn to play).
        if lead < 0:
            playable = hand if leading else 0
        elif leading:
            playable = 0
        elif number <= PHASE1_TRICKS:
            playable = hand
        else:
            playable = hand & SUIT_MASKS[lead >> 3] or hand & SUIT_MASKS[self._t] or hand
        self._playmask[player] = playable
        table = _PLAYS_BY_BYTE[player]
        plays = (
            table[0][playable & 0xFF]
            + table[1][playable >> 8 & 0xFF]
            + table[2][playable >> 16 & 0xFF]
            + table[3][playable >> 24 & 0xFF]
        )
        # S3 at any moment; B2: not while both reached 501 in one contest and the totals are equal.
        if self._both_at_once and self.total(0) == self.total(1):
            out: tuple[Move, ...] = ()
        else:
            out = (OUTS[player],)
        if number > LAST_MELD_TRICK:  # swaps, béla and melds end with trick 8 (T5, B1, M4)
            result = self._legal[player] = plays + out
            return result
        moves: list[Move] = []
        if hand & self._seven and number <= PHASE1_TRICKS and self.indicator is not None and self._can_swap(player):
            moves.append(SWAPS[player])
        bela = hand & self._bela == self._bela
        if bela and not self.rules.bela_at_declaration and not self._bela_done[player]:
            moves.append(BELAS[player])  # B1: any moment of tricks 1-8, once
        # K1 steps 2 and 4: the leader before leading, the second after the lead, once a trick.
        if trick.declared[player] is None and (lead < 0 if leading else lead >= 0 and not trick.passed):
            if bela or _may_hold_meld(hand):
                moves.extend(self._declarations(player))
            if not leading:
                moves.append(PASSES[player])
        result = self._legal[player] = tuple(moves) + plays + out
        return result

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` may be made now (in or out of turn): ``move in legal_moves(move.player)``."""
        try:
            move = coerce_move(move)
        except ValueError:
            return False
        return move in self.legal_moves(move.player)

    # ---------------------------------------------------------------- explaining
    def _why_illegal(self, move: Move) -> IllegalMoveError | None:
        """None if ``move`` is legal, else the error that explains why not."""
        if move in self.legal_moves(move.player):
            return None
        p = move.player
        if self.status is not Status.IN_PROGRESS:
            if self.status is Status.OUT:
                return IllegalMoveError("S4", _("the hand is over: a player went out"))
            return IllegalMoveError("S1", _("the hand is over: all 16 tricks have been played"))
        if isinstance(move, Play):
            return self._why_not_play(p, move.card)
        if isinstance(move, GoOut):
            return IllegalMoveError(
                "B2",
                _(
                    "both reached 501 in the same contest and the totals are equal: "
                    "no one may go out until a trick or a meld breaks the tie"
                ),
            )
        if isinstance(move, Bela):
            return self._why_not_bela(p)
        if isinstance(move, Swap):
            return self._why_not_swap(p)
        if isinstance(move, Pass):
            if self.trick_number > LAST_MELD_TRICK:
                return IllegalMoveError("M4", _("melds are declared only in tricks 1-8, so there is nothing to pass"))
            return IllegalMoveError(
                "K1", _("only the second player passes, after the lead and before declaring or playing, once a trick")
            )
        return self._why_not_declare(p, move.melds)

    def _why_not_play(self, p: int, card: Card) -> IllegalMoveError:
        trick = self._trick
        if trick.lead < 0 and p != self.leader:
            return IllegalMoveError(
                "K1", _("{name} leads this trick (D3): wait for their card").format(name=self._opponent_of(p))
            )
        if trick.lead >= 0 and p == self.leader:
            return IllegalMoveError(
                "K1", _("you have led to this trick: {name} plays next").format(name=self._opponent_of(p))
            )
        if not self._hands[p] >> card.index & 1:
            # K1: a player plays a card of their hand (T2/T4 are the second player's duties, not this).
            # ({code}, the record's English notation, only where a sentence shows it: names.RECORD_CODES_SHOWN)
            return IllegalMoveError(
                "K1",
                (
                    _("you do not hold the {card_the} ({code})")
                    if names.RECORD_CODES_SHOWN[language()]
                    else _("you do not hold the {card_the}")
                ).format(card=card.name(), code=card),
            )
        lead_suit = CARDS[trick.lead].suit
        if self._hands[p] & SUIT_MASKS[lead_suit.index]:
            return IllegalMoveError("T4", _follow_suit(lead_suit))
        return IllegalMoveError("T4", _play_a_trump(self.trump))

    def _opponent_of(self, p: int) -> str:
        """The mover's opponent in a refusal: the name the caller gave (:attr:`player_names`), else
        "your opponent" (English, as always, "player 1")."""
        other = 1 - p
        if self.player_names is not None:
            return person(self.player_names[other])
        return f"player {other}" if language() == "en" else _("your opponent")

    def _why_not_bela(self, p: int) -> IllegalMoveError:
        if self.rules.bela_at_declaration:
            return IllegalMoveError(
                "B2", _("under the Pais rule béla is declared with your other melds: 'declare bela'")
            )
        if self.trick_number > LAST_MELD_TRICK:
            return IllegalMoveError("B1", _("béla may be declared only until the second card of trick 8 is played"))
        if self._bela_done[p]:
            return IllegalMoveError("B1", _("béla scores once a hand, and you have scored it"))
        return IllegalMoveError(
            "M3",
            _("béla is the King and Over of trumps ({suit}): you must hold both").format(suit=self.trump.name_in()),
        )

    def _why_not_swap(self, p: int) -> IllegalMoveError:
        rule = "V7" if self.rules.swap_any_time else "T5"
        seven = Card(Rank.SEVEN, self.trump)
        if self.indicator is None or self.trick_number > PHASE1_TRICKS:
            return IllegalMoveError(rule, _("the trump indicator has been drawn: there is nothing to swap with"))
        if not self._hands[p] & seven.bit:
            return IllegalMoveError(
                rule,
                (
                    _("only the holder of the trump Seven ({code}) may swap it for the trump indicator")
                    if names.RECORD_CODES_SHOWN[language()]
                    else _("only the holder of the trump Seven may swap it for the trump indicator")
                ).format(code=seven),
            )
        if self.rules.swap_any_time:
            return IllegalMoveError(
                "V7", _("you declared a sequence with the trump Seven in this trick, so you may not swap it now")
            )
        if p != self.leader:
            return IllegalMoveError("T5", _("only the player about to lead may swap the trump Seven"))
        if self._trick.lead >= 0:
            return IllegalMoveError("T5", _("the swap comes before leading to the trick"))
        return IllegalMoveError("T5", _("the swap comes before declaring (K1 step 1)"))

    def _why_not_declare(self, p: int, melds: Iterable[Meld]) -> IllegalMoveError:
        melds = tuple(melds)
        rules, trick = self.rules, self._trick
        if self.trick_number > LAST_MELD_TRICK:
            return IllegalMoveError("M4", _("melds may be declared only during tricks 1-8"))
        if trick.declared[p] is not None:
            return IllegalMoveError("M5", _("you have declared in this trick already: one declaration a trick"))
        if p == self.leader and trick.lead >= 0:
            return IllegalMoveError("K1", _("the leader declares before leading (step 2); you have played"))
        if p != self.leader and trick.lead < 0:
            return IllegalMoveError("K1", _("the second player declares after the lead (step 4): wait for it"))
        if p != self.leader and trick.passed:
            return IllegalMoveError("K1", _("you passed in this trick: no declaration after a pass"))
        if not melds:
            return IllegalMoveError("K1", _("a declaration names at least one meld"))
        hand = self._hands[p]
        sets = [m for m in melds if m.kind is MeldKind.SET]
        seqs = [m for m in melds if m.kind is MeldKind.SEQUENCE]
        belas = [m for m in melds if m.kind is MeldKind.BELA]
        if belas and not rules.bela_at_declaration:
            return IllegalMoveError("B1", _("here béla is not part of a declaration: say it on its own with 'bela'"))
        if len(belas) > 1:
            return IllegalMoveError("M5", _("béla is named once"))
        if len(sets) > 1:
            return IllegalMoveError("M5", _("at most one set may be declared in a trick"))
        if len(seqs) > 1:
            if not rules.several_sequences:
                return IllegalMoveError("M5", _("at most one sequence may be declared in a trick"))
            suits = [m.suit for m in seqs]
            if len(set(suits)) != len(suits):
                return IllegalMoveError("V4", _("several sequences in one trick must each be in a different suit"))
        for m in sets:
            if m.rank is Rank.NINE and not rules.four_nines:
                return IllegalMoveError("V3", _("there is no set of four Nines in the Austrian game"))
        for m in (*sets, *seqs):
            if hand & m.mask != m.mask:
                missing = cards_of(m.mask & ~hand)
                return IllegalMoveError(
                    "M7",
                    _("you do not hold the {card_the}, so you cannot declare {meld_acc}").format(
                        card=missing[0].name(), meld=m.title()
                    ),
                )
        if belas:
            bm = bela_mask(self.trump)
            if hand & bm != bm:
                return IllegalMoveError("M3", _("béla is the King and Over of trumps: you must hold both"))
            if self._bela_done[p]:
                return IllegalMoveError("B2", _("béla scores once a hand, and you have scored it"))
        for m in sets:
            if m.rank is Rank.NINE and not rules.four_nines:
                return IllegalMoveError("V3", _("there is no set of four Nines in the Austrian game"))
            if m in self._scored_sets:
                return IllegalMoveError(
                    "K6", _("{meld_the} has scored already: a set scores once a hand").format(meld=m.title())
                )
        for m in seqs:
            if m in self._scored[p]:
                return IllegalMoveError(
                    "K6",
                    _("{meld_the} has scored already: the same sequence cannot score twice").format(meld=m.title()),
                )
            if not same_suit_ok(m, self._scored[p], rules):
                assert m.suit is not None
                if rules.same_suit_rule == "austrian":
                    return IllegalMoveError(
                        "V5",
                        _("{meld_the} lies inside a sequence you have scored in {suit}").format(
                            meld=m.title(), suit=m.suit.name_in()
                        ),
                    )
                return IllegalMoveError(
                    "K7",
                    _(
                        "{meld_the} may not follow your scored {suit} sequences: "
                        "a new one must overlap with a higher top (or the same top and more cards), "
                        "or be separated by a missing card"
                    ).format(meld=m.title(), suit=names.SUIT_SINGULAR[language()][m.suit.index]),
                )
        leader_decl = trick.declared[self.leader]
        if p != self.leader and leader_decl and not may_answer(leader_decl, melds):
            said = ", ".join(m.announcement_in() for m in leader_decl)
            return IllegalMoveError(
                "K3",
                _(
                    "the leader announced {said}: you may declare only what could beat it "
                    "(a set after a set; after a sequence, a set or a sequence at least as long)"
                ).format(said=said),
            )
        return IllegalMoveError("K1", _("that declaration is not allowed now"))

    # ---------------------------------------------------------------- making moves
    def push(self, move: Move | str) -> None:
        """Make a move (a move object or its record text); refuse it if illegal.

        Raises :class:`InvalidMoveError` for text that is not a move and
        :class:`IllegalMoveError` (naming the rule) for a move the rules forbid;
        in both cases nothing changes.
        """
        if type(move) is Play:  # the common case, inlined
            p = move.player
            # legal_moves() keeps the mask of the cards it listed as plays: the same test, without
            # comparing the move with each listed move.
            if (
                (p == 0 or p == 1)
                and (self._legal[p] or self.legal_moves(p))
                and self._playmask[p] >> move.card.index & 1
            ):
                legal, decls = self._legal, self._decls
                legal[0] = legal[1] = decls[0] = decls[1] = None
                self.moves.append(move)
                self._play(p, move.card.index)
                return
        elif (
            type(move) in _MOVE_CLASSES
            and (move.player == 0 or move.player == 1)  # type: ignore[union-attr]
            and move in self.legal_moves(move.player)  # type: ignore[union-attr]
        ):
            self._apply(move)
            return
        move = coerce_move(move)
        error = self._why_illegal(move)
        if error is not None:
            raise error
        self._apply(move)

    def push_many(self, moves: Iterable[Move | str]) -> None:
        """Make several moves in order; if one is refused, none is made (the state is as it was)."""
        if isinstance(moves, str | bytes) or not isinstance(moves, Iterable):
            raise ArgumentError(f"push_many takes a list of moves (push takes one), not {shown(moves)}")
        before = self.copy()
        made = 0
        try:
            for m in moves:
                self.push(m)
                made += 1
        except BaseException:
            if made:
                self.__dict__.update(before.__dict__)
            raise

    def pop(self) -> Move:
        """Take back the last move (replaying the hand from the deal)."""
        if not self.moves:
            raise IllegalMoveError("K1", _("there is no move to take back"))
        moves = self.moves[:-1]
        last = self.moves[-1]
        self._reset()
        for m in moves:
            self._apply(m)
        return last

    def _log(
        self,
        kind: str,
        player: int | None,
        say: str = "",
        cards: tuple[Card, ...] = (),
        points: int = 0,
        private_to: int | None = None,
    ) -> None:
        self._events.append((kind, player, say, cards, points, self.trick_number, private_to))

    def _apply(self, move: Move) -> None:
        legal, decls = self._legal, self._decls
        legal[0] = legal[1] = decls[0] = decls[1] = None
        self.moves.append(move)
        p = move.player
        kind = type(move)
        if kind is GoOut:
            self._go_out(p)
        self._window = None  # S3: any move closes the claim window (a play may open a new one)
        if kind is Play:
            self._play(p, move.card.index)  # type: ignore[union-attr]
        elif kind is Declare:
            self._declare(p, move.melds)  # type: ignore[union-attr]
        elif kind is Pass:
            self._trick.passed = True
            self._log("pass", p, "pass")
            self._decide()
        elif kind is Bela:
            self._score_bela(p)
        elif kind is Swap:
            self._swap(p)

    def _score_bela(self, p: int) -> None:
        self._bela_done[p] = True
        self._known[p] |= self._bela
        self._credit(p, BELA.value)
        self._log(
            "bela" if not self.rules.bela_at_declaration else "score",
            p,
            "Béla",
            tuple(BELA.cards(self.trump)),
            BELA.value,
        )

    def _swap(self, p: int) -> None:
        seven = self._t * 8 + _SEVEN
        assert self.indicator is not None
        taken = self.indicator
        self._hands[p] = self._hands[p] & ~(1 << seven) | (1 << taken.index)
        self._known[p] |= 1 << taken.index
        self.indicator = CARDS[seven]
        self._log("swap", p, "swap", (CARDS[seven], taken))

    def _declare(self, p: int, melds: tuple[Meld, ...]) -> None:
        self._trick.declared[p] = melds
        self._log("declare", p, ", ".join(m.announcement for m in melds))
        if p != self.leader:
            self._decide()

    def _credit(self, p: int, points: int) -> None:
        if points and self.first_scorer is None:
            self.first_scorer = p
        self.meld_points[p] += points

    def _decide(self) -> None:
        """K1 steps 5 and 7: find the best declared item; its owner scores all their melds."""
        trick = self._trick
        if trick.decided:
            return
        trick.decided = True
        leader = self.leader
        second = 1 - leader
        lead_decl = trick.declared[leader] or _NO_MELDS
        second_decl = trick.declared[second] or _NO_MELDS
        if not lead_decl and not second_decl:
            return
        before = self.totals
        if self.rules.bela_at_declaration:  # B2: béla scores at step 7 whatever the contest
            for p, decl in ((leader, lead_decl), (second, second_decl)):
                if BELA in decl:
                    self._score_bela(p)
            lead_decl = tuple(m for m in lead_decl if m is not BELA)
            second_decl = tuple(m for m in second_decl if m is not BELA)
        outcome = _contest(lead_decl, second_decl, self.trump, self.rules)  # unchecked: the engine's own melds
        winner = {"leader": leader, "second": second, "none": None}[outcome.winner]
        if outcome.needs_detail:  # K4 step 5: only when the announcements did not decide
            best = outcome.leader_best
            assert best is not None and best.rank is not None
            detail = f"{best.rank.name_in('en')}-vannak" if best.kind is MeldKind.SET else best.rank.name_in("en")
            self._log("detail", leader, detail)
            self._log("answer", second, "Higher here" if winner == second else "Good")
        if winner is not None:
            won = lead_decl if winner == leader else second_decl
            for m in won:
                if m.kind is MeldKind.SET:
                    self._scored_sets.add(m)
                self._scored[winner].append(m)
                self._known[winner] |= m.mask
                self._credit(winner, m.value)
                self._log("score", winner, m.title("en"), tuple(m.cards()), m.value)
        if self.rules.bela_at_declaration and max(before) < WINNING_SCORE <= min(self.totals):
            self._both_at_once = True

    def _play_known(self, p: int, idx: int) -> None:
        """``p`` plays card ``idx``, a play the caller knows to be legal: :meth:`push` without its
        check (the bots' playouts from trick 9, whose policy follows T4 itself). Not for a move a
        person or another program chose."""
        legal, decls = self._legal, self._decls
        legal[0] = legal[1] = decls[0] = decls[1] = None
        self.moves.append(PLAYS[p][idx])
        self._play(p, idx)

    def _play(self, p: int, idx: int) -> None:
        self._hands[p] &= ~(1 << idx)
        card = CARDS[idx]
        trick = self._trick
        self._events.append(("play", p, card.text, (card,), 0, self.trick_number, None))
        self._window = None
        if trick.lead < 0:
            trick.lead = idx
            return
        lead = trick.lead
        leader = self.leader
        t = self._t
        winner = leader ^ _SECOND_WINS[t][lead << 5 | idx]  # T1, from the table of _second_wins
        points = POINTS_BY_TRUMP[t][lead] + POINTS_BY_TRUMP[t][idx]
        if not trick.decided and (trick.declared[0] or trick.declared[1]):
            # The second player's silent card decides the contest (K1 step 7) and takes the trick in
            # one move; S3: if the leader's melds scored by it, the leader may claim at step 7.
            melds_before = self.meld_points[leader]
            self._decide()
            if self.meld_points[leader] > melds_before and not self._both_at_once:
                self._window = ClaimWindow(leader, winner, points, self.trick_number)
        self.card_points[winner] += points
        if points and self.first_scorer is None:
            self.first_scorer = winner
        self._tricks.append((leader, lead, idx, winner))
        self._events.append(("trick", winner, "", (CARDS[lead], card), points, self.trick_number, None))
        if self.trick_number <= PHASE1_TRICKS:
            self._draw(winner)
        self.leader = winner
        trick.declared = [None, None]
        trick.passed = trick.decided = False
        trick.lead = -1
        self.trick_number += 1
        if self.trick_number > TRICKS:
            self._finish()

    def _draw(self, winner: int) -> None:
        """T3: the winner draws the top card, then the loser; after trick 7 the loser takes the indicator."""
        loser = 1 - winner
        number = self.trick_number
        drawn = self._drawn
        top = self._talon[drawn]
        events = self._events
        if number == PHASE1_TRICKS and self.rules.show_last_talon_card:  # V8: shown before it is taken
            self._known[winner] |= 1 << top.index
            events.append(("show", winner, top.text, (top,), 0, number, None))
        events.append(("draw", winner, "", (top,), 0, number, winner))
        if number == PHASE1_TRICKS:
            assert self.indicator is not None
            second_card = self.indicator
            self.indicator = None
            self._known[loser] |= 1 << second_card.index
            events.append(("draw", loser, "indicator", (second_card,), 0, number, None))
            self._drawn = drawn + 1
        else:
            second_card = self._talon[drawn + 1]
            events.append(("draw", loser, "", (second_card,), 0, number, loser))
            self._drawn = drawn + 2
        hands = self._hands
        hands[winner] |= 1 << top.index
        hands[loser] |= 1 << second_card.index

    def _finish(self) -> None:
        """S1, S2, S5 (V9, V10): last trick, stichmatsch, and who wins the buli."""
        winners = self.trick_winners
        self.card_points[winners[-1]] += LAST_TRICK_BONUS
        phase2 = winners[PHASE1_TRICKS:]
        if self.rules.stichmatsch and len(set(phase2)) == 1:
            self.stichmatsch = phase2[0]
            self.card_points[phase2[0]] = TOTAL_CARD_POINTS
            self.card_points[1 - phase2[0]] = 0
            self._log("stichmatsch", phase2[0], "stichmatsch", (), TOTAL_CARD_POINTS)
        self.status = Status.FINISHED
        a, b = self.totals
        self._log("end", None, f"{a} to {b}")
        winner: int | None = None
        if a >= WINNING_SCORE and b >= WINNING_SCORE:
            if a == b:
                self.tied = True  # S5: the first to score in the next hand wins
                self._log("tie", None)
            else:
                winner = 0 if a > b else 1
        elif a >= WINNING_SCORE:
            winner = 0
        elif b >= WINNING_SCORE:
            winner = 1
        if winner is not None:
            self._award(winner, buli_points(self.rules, self.total(1 - winner)))

    def _award(self, winner: int, points: int) -> None:
        self.buli[winner] += points
        self._log("buli", winner, "maccs" if points == 2 else "buli", (), points)

    def _go_out(self, p: int) -> None:
        """S3, S4, B2: the claim ends the hand at once (judged at K1 step 7 in the claim window)."""
        claim = self.claim(p)
        self.status = Status.OUT
        window = self._window
        if claim.at_step_seven and window is not None:
            self.card_points[window.winner] -= window.points  # S3: that trick counts for neither player
            self._events.append(("uncounted", None, "", (), window.points, window.trick, None))
        self.out = (p, claim.valid)
        self._log("out", p, "correct" if claim.valid else "wrong", (), claim.total)
        self._award(claim.winner, claim.buli)

    # ---------------------------------------------------------------- views
    def view(self, player: int) -> PlayerView:
        """What ``player`` may know (RULES.md, notes for the engine)."""
        other = 1 - _player_arg(player)
        trick = self._trick
        opp_decl = trick.declared[other]
        announced = None if opp_decl is None else tuple(m.announcement for m in opp_decl)
        if (
            opp_decl is not None
            and self.rules.show_melds
            and trick.decided
            and all(m in self._scored[other] for m in opp_decl if m is not BELA)
        ):
            announced = tuple(str(m) for m in opp_decl)  # V6: scored melds are shown, lost ones are not
        # A card drawn by the opponent stays hidden: the step is shown, the card is not.
        events = tuple(
            e if e.private_to is None or e.private_to == player else e._replace(cards=()) for e in self.events
        )
        return unchecked(  # made from the referee's own state: right by construction, and bots ask often
            PlayerView,
            player=player,
            rules=self.rules,
            dealer=self.dealer,
            status=self.status,
            phase=self.phase,
            trick_number=self.trick_number,
            leader=self.leader,
            to_move=self.to_move,
            trump=self.trump,
            indicator=self.indicator,
            hand=tuple(cards_of(self._hands[player])),
            opponent_hand_size=bin(self._hands[other]).count("1"),
            opponent_known=tuple(cards_of(self._known[other] & self._hands[other])),
            talon_size=len(self._talon) - self._drawn,
            lead=self.lead,
            tricks=tuple(self.tricks),
            scores_in=self.scores_in,
            meld_points=(self.meld_points[0], self.meld_points[1]),
            card_points=(self.card_points[0], self.card_points[1]),
            my_declaration=trick.declared[player],
            opponent_declared=announced,
            scored_melds=(tuple(self._scored[0]), tuple(self._scored[1])),
            events=events,
            legal_moves=tuple(self.legal_moves(player)),
            claim_window=self._window,
            both_over=self._both_at_once,
        )

    def _repr_svg_(self) -> str:
        """Jupyter shows the referee's table: the player to move's view with both hands revealed."""
        from tartli.render.table import state_svg

        return state_svg(self, self.to_move if self.to_move is not None else 0, reveal=True)

    def __repr__(self) -> str:
        return f"<HandState trick {self.trick_number} {self.status.value} to_move={self.to_move} totals={self.totals}>"
