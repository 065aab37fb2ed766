"""Opponents. A bot sees only a :class:`~tartli.game.PlayerView` and returns one of its legal moves."""

from tartli.bots.base import Bot, RandomBot

__all__ = ["Bot", "RandomBot"]
