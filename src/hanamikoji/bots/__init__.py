"""Bots: players that decide from a view and the legal decisions only.

:func:`make_bot` builds one by name (``random``, ``greedy``, ``weakened``, ``ismcts``,
``learned``, ``expert``), with options (``ismcts:iterations=800``), or by difficulty
level, ``level:1`` (random play) to ``level:8`` (the expert), as ``hanamikoji play
--level N`` and the web app offer them (:mod:`hanamikoji.bots.levels`; docs/bots.md):

>>> from hanamikoji import Game
>>> game = Game(seed=7)
>>> make_bot("level:3", seed=1).choose(game.view(0), game.legal_moves)
Move.from_text('T:AG')
"""

from hanamikoji.bots import expert, greedy, ismcts, levels, network, weakened
from hanamikoji.bots.base import BOTS, Bot, RandomBot, make_bot, register

__all__ = [
    "BOTS",
    "Bot",
    "RandomBot",
    "expert",
    "greedy",
    "ismcts",
    "levels",
    "make_bot",
    "network",
    "register",
    "weakened",
]
