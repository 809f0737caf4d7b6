"""Bots: players that decide from a view and the legal decisions only."""

from hanamikoji.bots import expert, greedy, ismcts, network, weakened
from hanamikoji.bots.base import BOTS, Bot, RandomBot, make_bot, register

__all__ = [
    "BOTS",
    "Bot",
    "RandomBot",
    "expert",
    "greedy",
    "ismcts",
    "make_bot",
    "network",
    "register",
    "weakened",
]
