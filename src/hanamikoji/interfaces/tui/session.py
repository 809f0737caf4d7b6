"""A game at the full-screen table, apart from how it is drawn.

A :class:`Table` holds the game, its two seats (a person or a bot each, as the line
interface's :class:`~hanamikoji.interfaces.terminal.Player`), whom the screen faces and
the record file. Everything a person is shown comes from :meth:`Table.view` of the seat
the screen faces: the opponent's hand, Secret and Trade-off never reach the screen
before the game is over.
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hanamikoji.bots import Bot
from hanamikoji.core import Game, Move, Variant, View
from hanamikoji.interfaces.terminal import Player, release_bots, save_game
from hanamikoji.notation.names import Deck, Lang
from hanamikoji.notation.records import Forfeit
from hanamikoji.protocol import GameObserver

__all__ = ["Seating", "Table", "TableSettings"]

Seating = Callable[[random.Random], tuple[Player, Player]]
"""Builds a game's two seats (each bot seeded from the draws given): the same people and
bots for the first game and every rematch."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What a game at the table is played with; a rematch keeps all of it."""

    variant: Variant
    lang: Lang
    seating: Seating
    hotseat: bool = False
    save_path: Path | None = None
    deck: Deck = "boxed"


class Table:
    """One game: whose turn it is, who faces the screen, decisions, the record."""

    def __init__(
        self,
        settings: TableSettings,
        game: Game,
        players: tuple[Player, Player],
        number: int = 1,
    ) -> None:
        self.settings = settings
        self.game = game
        self.players = players
        self.number = number
        """Which game of the sitting this is (a rematch is the next)."""
        self.labels = (players[0].label, players[1].label)
        people = [seat for seat in (0, 1) if players[seat].bot is None]
        # Against a bot the one person faces the screen from the start; in a hotseat
        # game nobody does until the screen is passed.
        self.facing: int | None = people[0] if len(people) == 1 else None
        self.forfeit: Forfeit | None = None
        """How the seat whose engine failed lost the game, once it forfeits it."""
        self._released = False

    def rematch(self) -> Table:
        """A new game for the same seats; the other player starts, a new seed deals."""
        self.release()
        settings = self.settings
        path = settings.save_path
        if path is not None:
            # The first game's record stays: game 2 goes to game-2.hkr, and so on.
            stem = path.stem.removesuffix(f"-{self.number}") if self.number > 1 else path.stem
            path = path.with_stem(f"{stem}-{self.number + 1}")
        renamed = dataclasses.replace(settings, save_path=path)
        seed = secrets.randbelow(1 << 32)
        game = Game(settings.variant, seed=seed, first_player=1 - self.game.first_player)
        return Table(renamed, game, settings.seating(random.Random(seed)), self.number + 1)

    # -- whose turn -------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.game.to_move

    @property
    def over(self) -> bool:
        return self.game.is_over() or self.forfeit is not None

    def bot_to_move(self) -> Bot | None:
        seat = self.to_move
        return None if seat is None else self.players[seat].bot

    def needs_pass(self) -> bool:
        """Whether the screen must be passed to the person to move first (hotseat)."""
        seat = self.to_move
        return self.settings.hotseat and seat is not None and self.facing != seat

    def face(self, seat: int) -> None:
        self.facing = seat

    def view(self) -> View | None:
        """What the person facing the screen may see (``None`` before anyone faces it)."""
        return None if self.facing is None else self.game.view(self.facing)

    def viewer(self) -> int:
        """The seat shown at the bottom of the screen."""
        return 0 if self.facing is None else self.facing

    # -- decisions --------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Play a decision (raises the core's errors when it is not legal now)."""
        self.game.push(move)

    def lose_by_forfeit(self, forfeit: Forfeit) -> None:
        self.forfeit = forfeit
        bot = self.players[forfeit.seat].bot
        if isinstance(bot, GameObserver):
            view = self.game.view(forfeit.seat)
            bot.game_over(view, result=forfeit.result, reason=forfeit.kind)

    # -- the record -------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Write the record to ``path``; raises ``OSError``."""
        names = (self.players[0].name, self.players[1].name)
        save_game(self.game, names, path, forfeit=self.forfeit)

    def release(self) -> None:
        """Tell the bots the game is over (engines hear it) and let them go (once)."""
        if self._released:
            return
        self._released = True
        release_bots(self.players, self.game)
