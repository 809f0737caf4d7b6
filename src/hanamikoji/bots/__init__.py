"""Bots: players that decide from a view and the legal decisions only."""

from hanamikoji.bots import greedy, ismcts
from hanamikoji.bots.base import BOTS, Bot, RandomBot, make_bot, register

__all__ = ["BOTS", "Bot", "RandomBot", "greedy", "ismcts", "make_bot", "register"]
