"""A game at a table, apart from how it is shown: the one model both terminal interfaces
drive, the line interface (``line/``) and the full-screen app (``tui/``).

A :class:`Table` holds the game, its two seats (a person or a bot each), whom the screen
faces, the forfeit of a seat whose engine failed, the record file, and the bots' release
at the end. Everything a person is shown comes from :meth:`Table.view` of the seat the
screen faces: the opponent's hand, Secret and Trade-off never reach the screen before the
game is over. Plain Python: no drawing, no input.

>>> from hanamikoji.bots import make_bot
>>> people = (Player("Ann", "Ann (Player 1)"), Player("Bo", "Bo (Player 2)"))
>>> classic = Variant.by_name("classic")
>>> hotseat = Table(TableSettings(classic, "en", hotseat=True), Game(seed=1), people)
>>> hotseat.facing is None, hotseat.needs_pass()
(True, True)
>>> against_a_bot = (people[0], Player("random", "random (Player 2)", make_bot("random")))
>>> table = Table(TableSettings(classic, "en"), Game(seed=1), against_a_bot)
>>> table.facing, table.needs_pass()
(0, False)
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import os
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from hanamikoji.bots import Bot
from hanamikoji.core import Game, Move, Variant, View
from hanamikoji.interfaces.words import player_label
from hanamikoji.notation.names import Deck, Lang
from hanamikoji.notation.records import RESIGNED, Forfeit, GameRecord
from hanamikoji.protocol import EngineError, GameObserver, forfeit_of

__all__ = [
    "Player",
    "Seating",
    "Table",
    "TableSettings",
    "default_record_name",
    "save_game",
]


@dataclass(frozen=True, slots=True)
class Player:
    """One seat: its name in the game record, its label on screen, and its bot if any."""

    name: str
    label: str
    bot: Bot | None = None

    @classmethod
    def seated(cls, name: str, seat: int, lang: Lang, bot: Bot | None = None) -> Player:
        """The player of ``seat`` named ``name``, labelled by
        :func:`~hanamikoji.interfaces.words.player_label`."""
        return cls(name, player_label(name, seat, lang), bot)


Seating = Callable[[random.Random], tuple[Player, Player]]
"""Builds a game's two seats (each bot seeded from the draws given): the same people and
bots for the first game and every rematch."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What a game at the table is played with; a rematch keeps all of it.

    ``seating`` seats a rematch (a table without it plays one game); with ``hotseat``
    two people share the screen, which is passed between their decisions; with
    ``save_path`` the record is written after every decision.
    """

    variant: Variant
    lang: Lang
    seating: Seating | None = None
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
        # game nobody does until the screen is passed, nor between two bots.
        self.facing: int | None = people[0] if len(people) == 1 else None
        self.forfeit: Forfeit | None = None
        """How a seat lost the game outside the rules: its engine failed or resigned, or
        its person resigned (:meth:`resign`)."""
        self._released = False
        self._save_failed = False

    def rematch(self) -> Table:
        """A new game for the same seats; the other player starts, a new seed deals.
        Raises ``ValueError`` when the settings have no seating."""
        settings = self.settings
        if settings.seating is None:
            raise ValueError("a rematch needs the table settings' seating")
        self.release()
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
        """The seat to decide, ``None`` once the game is over (a forfeit ends it too)."""
        return None if self.over else self.game.to_move

    @property
    def over(self) -> bool:
        """Whether the game is over: played to its end, or forfeited."""
        return self.game.is_over() or self.forfeit is not None

    def bot_to_move(self) -> Bot | None:
        """The bot to decide now, ``None`` when a person is (or nobody is)."""
        seat = self.to_move
        return None if seat is None else self.players[seat].bot

    def needs_pass(self) -> bool:
        """Whether the screen must be passed to the person to move first (hotseat)."""
        seat = self.to_move
        return self.settings.hotseat and seat is not None and self.facing != seat

    def face(self, seat: int) -> None:
        """Turn the screen to ``seat`` (after it was passed to them)."""
        self.facing = seat

    def view(self) -> View | None:
        """What the person facing the screen may see (``None`` before anyone faces it)."""
        return None if self.facing is None else self.game.view(self.facing)

    def viewer(self) -> int:
        """The seat shown at the bottom of the screen: the one facing it, else seat 0."""
        return 0 if self.facing is None else self.facing

    # -- decisions --------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Play a decision (raises the core's errors when it is not legal now)."""
        self.game.push(move)

    def ask_bot(self, seat: int) -> Callable[[], Move]:
        """The decision of the bot of ``seat``, as a call to make (in a worker thread if
        need be) from the seat's view and legal decisions as they are now. The call raises
        ``EngineError`` when an external engine fails: see :meth:`engine_failed`. Raises
        ``ValueError`` when a person sits there."""
        bot = self.players[seat].bot
        if bot is None:
            raise ValueError(f"seat {seat} is a person's, not a bot's")
        return partial(bot.choose, self.game.view(seat), self.game.generate_legal_moves())

    def engine_failed(self, seat: int, error: EngineError) -> Forfeit:
        """The engine of ``seat`` failed (timeout, crash, illegal answer): the seat
        forfeits the game, and its engine hears so. Returns the forfeit."""
        forfeit = forfeit_of(seat, error)
        self.forfeit = forfeit
        bot = self.players[seat].bot
        if isinstance(bot, GameObserver):
            bot.game_over(self.game.view(seat), result=forfeit.result, reason=forfeit.kind)
        return forfeit

    def resign(self, seat: int) -> Forfeit:
        """The person at ``seat`` gives the game up: the other seat wins, the record says
        ``resigned`` (as the web's Resign does), and an engine in the game hears so.
        Returns the forfeit."""
        forfeit = Forfeit(seat, RESIGNED, "")
        self.forfeit = forfeit
        for other, player in enumerate(self.players):
            if isinstance(player.bot, GameObserver):
                with contextlib.suppress(Exception):  # a dead engine changes nothing here
                    view = self.game.view(other)
                    player.bot.game_over(view, result=forfeit.result, reason=RESIGNED)
        return forfeit

    # -- the record -------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Write the record to ``path``; raises ``OSError``."""
        names = (self.players[0].name, self.players[1].name)
        save_game(self.game, names, path, forfeit=self.forfeit)

    def autosave(self) -> OSError | None:
        """With a record file (``settings.save_path``), write the record as it is now.
        Returns the error to tell when writing fails, once: ``None`` when written, without
        a record file, and while the writes go on failing after a failure was told."""
        path = self.settings.save_path
        if path is None:
            return None
        try:
            self.save(path)
        except OSError as error:
            told = self._save_failed
            self._save_failed = True
            return None if told else error
        self._save_failed = False
        return None

    def release(self) -> None:
        """Tell the bots the game is over (an engine hears it; over only if it is) and let
        them go (an engine's process ends); once."""
        if self._released:
            return
        self._released = True
        for seat, player in enumerate(self.players):
            bot = player.bot
            if bot is None:
                continue
            if isinstance(bot, GameObserver) and self.game.is_over():
                bot.game_over(self.game.view(seat))
            close = getattr(bot, "close", None)
            if callable(close):
                close()


def save_game(
    game: Game, names: tuple[str, str], path: Path, *, forfeit: Forfeit | None = None
) -> None:
    """Write the record of ``game`` so far to ``path`` (JSON when its name ends in
    ``.json``, else the text form), dated today; a game lost by ``forfeit`` says so in
    the record's tags, as the arena's do. Raises ``OSError``."""
    today = datetime.date.today().isoformat()
    record = GameRecord.from_game(game, players=names, date=today, forfeit=forfeit)
    text = record.to_json() if path.suffix.lower() == ".json" else record.to_text()
    # Written beside the file, then renamed over it: a Ctrl-C in the middle of a write
    # never leaves half a record where the last whole one was.
    partial_file = path.with_name(path.name + ".tmp")
    try:
        partial_file.write_text(text, encoding="utf-8")
        os.replace(partial_file, path)
    except OSError:
        with contextlib.suppress(OSError):
            partial_file.unlink(missing_ok=True)
        raise


def default_record_name() -> str:
    """A file name for a record saved without one: ``hanamikoji-20240131-1502.hkr``."""
    return datetime.datetime.now().strftime("hanamikoji-%Y%m%d-%H%M%S.hkr")
