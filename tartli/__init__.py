"""Tartli: a rules-exact engine for the Hungarian two-player card game, and its course.

The engine follows the rule book RULES.md (rule IDs C, D, T, M, K, B, S, V):

>>> from tartli import HandState, Card
>>> state = HandState.from_seed(1)
>>> Card.parse("OH") in state.hand(0) + state.hand(1) + state.talon + [state.indicator]
True
"""

from tartli.cards import CARDS, RANKS, SUITS, Card, InvalidCardError, Rank, Suit
from tartli.errors import IllegalMoveError, InvalidDealError, InvalidMoveError, RecordError, TartliError
from tartli.game import Deal, Event, HandState, Phase, PlayerView, Status
from tartli.match import Match
from tartli.melds import Meld, MeldKind, find_melds
from tartli.moves import Bela, Declare, GoOut, Move, Pass, Play, Swap, parse_move
from tartli.record import Record, ReplayError, result
from tartli.rules import RuleSet

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "RANKS",
    "SUITS",
    "Bela",
    "Card",
    "Deal",
    "Declare",
    "Event",
    "GoOut",
    "HandState",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidMoveError",
    "Match",
    "Meld",
    "MeldKind",
    "Move",
    "Pass",
    "Phase",
    "Play",
    "PlayerView",
    "Rank",
    "Record",
    "RecordError",
    "ReplayError",
    "RuleSet",
    "Status",
    "Suit",
    "Swap",
    "TartliError",
    "find_melds",
    "parse_move",
    "result",
]
