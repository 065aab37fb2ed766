"""A match: hands one after another, running scores to 501, buli and maccs, the deal (D2, S4-S6, V2, V10).

>>> match = Match(seed=3, first_dealer=1)
>>> state = match.state
>>> state.dealer, match.scores, match.buli
(1, [0, 0], [0, 0])

Play the hand on ``match.state`` (push moves), then call :meth:`Match.next_hand`,
which books the hand's result and deals the next one.

Readings of RULES.md chosen here (each tested):

* D2: the first dealer is drawn: each player draws a card from a shuffled pack and
  the lower card in the plain order (C4) deals; equal ranks draw again.
* V2: "the winner of each hand" is the player who won the buli, if one was won,
  else the one who scored more points in the hand (melds + card points); if both
  scored the same, the deal alternates.
* S6: a match ends when a player has ``rules.buli_target`` buli (5 by default);
  under V10 (``single_games``) each game stands alone and the match has no end:
  ``buli`` then counts stakes won (1, or 2 for a double).

The S5 tie follows RULES.md S5 as written (its ruling, not ours): when both have 501
or more with equal totals, the buli goes to the first player to score anything in
the next hand (a meld, béla, or a trick with card points), and that next hand is
already the new game's first: both start it at 0.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tartli import names
from tartli._checks import checked, checked_fields
from tartli.cards import CARDS
from tartli.errors import ArgumentError, TartliError, shown
from tartli.game import Deal, HandState, Status, person
from tartli.i18n import _, language
from tartli.rules import RuleSet, rules_arg


@dataclass(frozen=True)
class HandResult:
    """What one hand did to the match."""

    number: int
    dealer: int
    status: Status
    meld_points: tuple[int, int]
    card_points: tuple[int, int]
    totals: tuple[int, int]
    buli: tuple[int, int]
    """Buli (or stakes, V10) won in this hand, including a tie decided by it."""
    out: tuple[int, bool] | None
    stichmatsch: int | None
    tie_decided_by: int | None
    """S5: the player whose first score in this hand broke the previous hand's tie."""

    def __post_init__(self) -> None:
        checked_fields(self, players=("dealer",))


class Match:
    """A match of hands under one rule set (S6: to 5 or 10 buli)."""

    def __init__(
        self,
        rules: RuleSet | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        first_dealer: int | None = None,
        scores: tuple[int, int] = (0, 0),
        buli: tuple[int, int] = (0, 0),
    ) -> None:
        rules_arg(rules)
        if seed is not None and type(seed) is not int:
            raise ArgumentError(f"a seed is a whole number, not {shown(seed)}")
        if rng is not None:
            checked(rng, random.Random, "rng", "random.Random(7)")
        self.rules = rules or RuleSet()
        self.rng = rng if rng is not None else random.Random(seed)
        if (
            not isinstance(scores, tuple | list)
            or not isinstance(buli, tuple | list)
            or any(type(x) is not int or x < 0 for x in (*scores, *buli))
            or len(scores) != 2
            or len(buli) != 2
        ):
            raise TartliError("S1/S6: " + _("running scores and buli are two whole numbers of 0 or more"))
        self.scores = [scores[0], scores[1]]  # e.g. to start a scenario from a given position
        self.buli = [buli[0], buli[1]]
        self.results: list[HandResult] = []
        self.tie_pending = False
        self._player_names: tuple[str, str] | None = None
        if first_dealer is None:
            first_dealer = self.draw_for_dealer(self.rng)
        elif type(first_dealer) is not int or first_dealer not in (0, 1):
            raise TartliError("D2: " + _("the first dealer is player 0 or 1"))
        self.dealer = first_dealer
        self.state: HandState = self._deal()

    @staticmethod
    def draw_for_dealer(rng: random.Random) -> int:
        """D2: each player draws a card; the lower in the plain order (C4) deals."""
        checked(rng, random.Random, "rng", "random.Random(7)")
        while True:
            a, b = rng.sample(CARDS, 2)
            sa, sb = a.strength(None), b.strength(None)
            if sa != sb:
                return 0 if sa < sb else 1

    @property
    def target(self) -> int | None:
        """Buli needed to win the match (None under V10: single games)."""
        return None if self.rules.single_games else self.rules.buli_target

    @property
    def winner(self) -> int | None:
        """The match winner, once a player has reached the target."""
        target = self.target
        if target is None:
            return None
        for p in (0, 1):
            if self.buli[p] >= target:
                return p
        return None

    def _match_over(self) -> str:
        """S6's refusal of another hand: who won, by the name the caller gave (:attr:`player_names`)."""
        winner = self.winner
        assert winner is not None
        if self.player_names is None:
            if language() == "en":
                return _("the match is over: {name} has won it").format(name=f"player {winner}")
            return _("the match is over: {name} has won it").format(
                name=names.player_name(winner, language(), in_sentence=True)
            )
        if self.player_names[winner] == "You":
            return _("the match is over: you have won it")
        return _("the match is over: {name} has won it").format(name=person(self.player_names[winner]))

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def buli_with_hand(self) -> tuple[int, int]:
        """The buli counting the current hand's too: ``buli`` books a hand's at :meth:`next_hand`, but a
        learner reads the tally the moment the hand is won (S4, S5)."""
        state = self.state
        buli = [self.buli[0] + state.buli[0], self.buli[1] + state.buli[1]]
        if self.tie_pending and state.first_scorer is not None:
            buli[state.first_scorer] += 1
        return buli[0], buli[1]

    @property
    def player_names(self) -> tuple[str, str] | None:
        """How messages name the players (see :attr:`HandState.player_names`); every hand of the match
        gets them. None: no names were given, and no message shows a number for a person but English."""
        return self._player_names

    @player_names.setter
    def player_names(self, value: tuple[str, str] | None) -> None:
        if value is not None and (
            not isinstance(value, tuple) or len(value) != 2 or not all(isinstance(v, str) for v in value)
        ):
            raise ArgumentError(f'player_names are two names, e.g. ("You", "The computer"), not {shown(value)}')
        self._player_names = value
        self.state.player_names = value

    def _deal(self, deal: Deal | None = None, indicator_packet: int = 6) -> HandState:
        if deal is None:
            deal = Deal.shuffled(self.rng, self.dealer, indicator_packet)
        state = HandState(deal, self.rules, self.scores)
        state.player_names = self._player_names
        return state

    def redeal(self, deal: Deal | None = None, indicator_packet: int = 6) -> HandState:
        """Replace the current hand before any move (e.g. V1: the non-dealer chose the indicator)."""
        if self.state.moves:
            raise TartliError("D1: " + _("the hand has started; it cannot be dealt again"))
        if indicator_packet != 6 and not self.rules.indicator_choice:
            raise TartliError("V1: " + _("only the Austrian rules let the non-dealer choose the trump indicator"))
        self._check_deal(deal, indicator_packet, self.dealer)
        self.state = self._deal(deal, indicator_packet)
        return self.state

    def next_hand(self, deal: Deal | None = None, indicator_packet: int = 6) -> HandState:
        """Book the finished hand on ``state`` and deal the next one (from ``deal`` if given)."""
        state = self.state
        if not state.is_over:
            raise TartliError("S1: " + _("the hand is not over yet: play it out or go out first"))
        if self.is_over:
            raise TartliError("S6: " + self._match_over())
        if indicator_packet != 6 and not self.rules.indicator_choice:
            raise TartliError("V1: " + _("only the Austrian rules let the non-dealer choose the trump indicator"))
        self._check_deal(deal, indicator_packet, self._next_dealer(state))  # before the hand is booked
        buli = list(state.buli)
        tie_decided_by = None
        if self.tie_pending and state.first_scorer is not None:
            tie_decided_by = state.first_scorer
            buli[tie_decided_by] += 1
            self.tie_pending = False
        totals = state.totals
        result = HandResult(
            number=len(self.results) + 1,
            dealer=state.dealer,
            status=state.status,
            meld_points=(state.meld_points[0], state.meld_points[1]),
            card_points=(state.card_points[0], state.card_points[1]),
            totals=totals,
            buli=(buli[0], buli[1]),
            out=state.out,
            stichmatsch=state.stichmatsch,
            tie_decided_by=tie_decided_by,
        )
        self.results.append(result)
        self.buli[0] += buli[0]
        self.buli[1] += buli[1]
        if any(state.buli) or state.tied:
            self.scores = [0, 0]  # S6: a new game starts (after a tie, from the next hand)
            self.tie_pending = self.tie_pending or state.tied
        else:
            self.scores = [totals[0], totals[1]]
        self.dealer = self._next_dealer(state)
        self.state = self._deal(deal, indicator_packet)
        return self.state

    @staticmethod
    def _check_deal(deal: object, indicator_packet: object, dealer: int) -> None:
        """The ``deal`` and ``indicator_packet`` arguments: None or a Deal by ``dealer``, and 1-6."""
        given = None if deal is None else checked(deal, Deal, "a deal (or None: shuffle one)")
        if given is not None and given.dealer != dealer:
            raise TartliError(
                "D2: "
                + _("{dealer} deals this hand, not {given}").format(
                    dealer=names.player_name(dealer, language(), in_sentence=True),
                    given=names.player_name(given.dealer, language(), in_sentence=True),
                )
            )
        if type(indicator_packet) is not int or not 1 <= indicator_packet <= 6:
            raise ArgumentError(f"V1: the indicator packet is a number from 1 to 6, not {shown(indicator_packet)}")

    def _next_dealer(self, state: HandState) -> int:
        if not self.rules.winner_deals:
            return 1 - state.dealer  # D2: the deal alternates
        if state.buli[0] != state.buli[1]:
            return 0 if state.buli[0] > state.buli[1] else 1
        gained = [state.meld_points[p] + state.card_points[p] for p in (0, 1)]
        if gained[0] == gained[1]:
            return 1 - state.dealer
        return 0 if gained[0] > gained[1] else 1
