"""The bot interface and the random opponent.

A bot is given a :class:`~tartli.game.PlayerView` (what its player may know) and
returns one move from ``view.legal_moves``; it never sees the referee's state.

>>> from tartli import HandState
>>> state = HandState.from_seed(3)
>>> bot = RandomBot(seed=1)
>>> bot.choose(state.view(state.to_move)) in state.legal_moves()
True
"""

from __future__ import annotations

import random
from typing import Protocol

from tartli._checks import checked
from tartli.errors import ArgumentError, shown
from tartli.game import PlayerView
from tartli.moves import GoOut, Move


class Bot(Protocol):
    """Anything with a name that picks a move from a view."""

    name: str

    def choose(self, view: PlayerView) -> Move: ...


def right_claim(view: PlayerView) -> GoOut | None:
    """The claim to make now if it wins the game (S3, S4): judged as the engine judges it (melds
    scored, completed tricks, and S3's claim window), so a bot never goes out wrongly and never misses
    a maccs that the window gives; in B2's both-over state, where any claim is valid, only by the
    player with the higher total.

    Every bot starts here, so this is also where anything but a view, or a view with no move, is
    refused (:class:`~tartli.errors.ArgumentError`).
    """
    checked(view, PlayerView, "a bot's view", "state.view(player)")
    if not view.legal_moves:
        raise ArgumentError("no legal move: the hand is over or it is not this player's turn")
    claim = view.claim(view.player)  # S3's claim window included
    if not claim.valid or claim.winner != view.player:  # B2's both-over state: only the higher total wins
        return None
    return next((m for m in view.legal_moves if isinstance(m, GoOut)), None)


def bot_rng(seed: object, rng: object) -> random.Random:
    """A bot's random generator: ``rng`` if given (a :class:`random.Random`), else one from ``seed``
    (None or a whole number)."""
    if rng is not None:
        return checked(rng, random.Random, "rng", "random.Random(1)")
    if seed is not None and type(seed) is not int:
        raise ArgumentError(f"seed is None or a whole number, not {shown(seed, 30)}")
    return random.Random(seed)


class RandomBot:
    """Uniform over the legal moves, never a wrong claim; goes out as soon as a claim is right (S3, S4)."""

    name = "random"

    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        self.rng = bot_rng(seed, rng)

    def choose(self, view: PlayerView) -> Move:
        claim = right_claim(view)
        if claim is not None:
            return claim
        moves = view.legal_moves
        others = [m for m in moves if not isinstance(m, GoOut)]
        return self.rng.choice(others) if others else moves[0]
