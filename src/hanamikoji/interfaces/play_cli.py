"""The terminal game's subcommands: ``play`` (against a bot, an engine, or two people at
one terminal) and ``replay`` (a game record, decision by decision), full screen where
Textual is installed and both streams are a terminal, else in the line interface.
"""

from __future__ import annotations

import argparse
import random
import secrets
from collections.abc import Callable
from pathlib import Path

from hanamikoji.bots import BOTS, Bot, make_bot
from hanamikoji.bots.levels import LEVELS, make_level_bot
from hanamikoji.core import VARIANTS, Game, UnknownVariantError, Variant
from hanamikoji.extras import MissingExtraError
from hanamikoji.interfaces.cli import (
    Command,
    RecordFileError,
    Streams,
    add_deck,
    add_lang,
    add_plain,
    fail,
    full_screen,
    load_record,
    register_command,
    terminal_for,
)
from hanamikoji.interfaces.exits import (
    EXIT_ENGINE,
    EXIT_ERROR,
    EXIT_INPUT_ENDED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
)
from hanamikoji.interfaces.line import PlaySession, replay_game
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.options import UsageError, command_line, positive_seconds, seed
from hanamikoji.interfaces.preparing import prepare_bot
from hanamikoji.interfaces.table import Player
from hanamikoji.interfaces.words import player_label
from hanamikoji.notation.names import Lang, check_lang
from hanamikoji.notation.outcomes import level_bot_name, seat_name
from hanamikoji.notation.records import RESIGNED
from hanamikoji.protocol import EngineError, ExternalEngineBot

__all__ = ["ENGINE_BUDGET", "PLAY_EPILOG", "default_bot"]


def _one_line(name: str) -> str:
    return " ".join(name.split())


# -- play ---------------------------------------------------------------------------------


def default_bot() -> str:
    """The bot ``play`` uses without ``--bot``: greedy when it is registered, else random."""
    return "greedy" if "greedy" in BOTS else "random"


def _configure_play(parser: argparse.ArgumentParser) -> None:
    opponent = parser.add_mutually_exclusive_group()
    opponent.add_argument(
        "--bot",
        metavar="NAME",
        help="the bot you play against, by name or NAME:OPTION=VALUE,... (see 'hanamikoji"
        " bots'; default: greedy if available, else random)",
    )
    opponent.add_argument(
        "--engine",
        type=command_line,
        metavar="CMD",
        help="an external engine speaking the protocol of docs/protocol.md, e.g."
        " 'hanamikoji engine --level 3'",
    )
    opponent.add_argument(
        "--level",
        type=int,
        choices=sorted(LEVELS),
        help=f"difficulty level 1-{max(LEVELS)} of the bot you play against"
        " (see 'hanamikoji bots')",
    )
    opponent.add_argument(
        "--hotseat",
        action="store_true",
        help="two people at one terminal; the screen is hidden and passed between their turns",
    )
    parser.add_argument(
        "--variant",
        default="classic",
        metavar="NAME",
        help=f"rules variant: {', '.join(VARIANTS)} (default: classic; see 'hanamikoji variants')",
    )
    add_lang(parser)
    add_deck(parser)
    parser.add_argument(
        "--seed",
        type=seed,
        help="deals (and who starts, with --first random) come from it",
    )
    parser.add_argument(
        "--first",
        choices=("you", "bot", "random", "1", "2"),
        default="random",
        help="who starts round 1: you (Player 1), the bot (Player 2), or drawn at random"
        " (default; from --seed when given). With --hotseat: 1 or 2",
    )
    parser.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="write the game record to FILE after every decision (.json: JSON, else text;"
        " .hkr suggested)",
    )
    parser.add_argument(
        "--name",
        action="append",
        default=[],
        metavar="NAME",
        help="your name in the record; with --hotseat give it twice (Player 1, Player 2)",
    )
    parser.add_argument(
        "--budget",
        type=positive_seconds,
        metavar="SECONDS",
        help=f"time per decision of the --engine, only with --engine (default"
        f" {ENGINE_BUDGET:g}; a level or bot has its own)",
    )
    add_plain(parser)


ENGINE_BUDGET = 1.0
"""The seconds per decision of ``play --engine`` without ``--budget``."""

PLAY_EPILOG = f"""exit status:
  {EXIT_OK}    the game was played to the end, or stopped with 'quit'
  {EXIT_ERROR}    the --save file cannot be written
  {EXIT_USAGE}    an option or its value is wrong
  {EXIT_ENGINE}    the --engine did not start, or it failed during the game and forfeited it
  {EXIT_INPUT_ENDED}    the input ended before the game did
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C)
(docs/cli.md has every subcommand's)"""


def _opponent(args: argparse.Namespace, bot_name: str, seed: int) -> Bot:
    if args.level is not None:
        return make_level_bot(args.level, seed=seed)
    return make_bot(bot_name, seed=seed)


def _run_play(args: argparse.Namespace, streams: Streams) -> int:
    if args.budget is not None and args.engine is None:
        raise UsageError(
            "argument --budget: only with --engine (a --level or --bot has its own time"
            " per decision)"
        )
    lang = check_lang(args.lang)
    try:
        variant = Variant.by_name(args.variant)
    except UnknownVariantError as error:
        return fail(streams, str(error), lang=lang)
    names: list[str] = [_one_line(name) for name in args.name]
    people = 2 if args.hotseat else 1
    if len(names) > people:
        who = "a --hotseat game has two people" if args.hotseat else "you play alone here"
        raise UsageError(f"argument --name: given {len(names)} times; {who}")
    bot_name = None
    if args.level is not None:
        bot_name = level_bot_name(args.level)
    elif args.engine is None and not args.hotseat:
        bot_name = args.bot if args.bot is not None else default_bot()
    seed = args.seed if args.seed is not None else secrets.randbelow(1 << 32)
    draws = random.Random(seed)
    first = {"you": 0, "1": 0, "bot": 1, "2": 1}.get(args.first)
    if first is None:
        first = draws.randrange(2)
    game = Game(variant, seed=seed, first_player=first)

    def seating(draws: random.Random, *, strict: bool = False) -> tuple[Player, Player]:
        return (
            _seat(args, lang, names, bot_name, 0, draws, strict=strict),
            _seat(args, lang, names, bot_name, 1, draws, strict=strict),
        )

    try:
        # A missing or broken engine is told now, not after the person's first decision.
        players = seating(draws, strict=True)
    except ValueError as error:  # an unknown bot, or options it does not take
        return fail(streams, str(error), lang=lang)
    except MissingExtraError as error:  # a bot whose extra is not installed
        return fail(streams, str(error), EXIT_ERROR, lang)
    except EngineError as error:
        text = message("engine_not_started", lang, command=args.engine, reason=str(error))
        return fail(streams, text, EXIT_ENGINE, lang)
    if full_screen(args, streams):
        return _play_full_screen(args, streams, game, players, seating)
    session = PlaySession(
        game,
        (players[0], players[1]),
        terminal_for(streams, lang, args.deck),
        save_path=args.save,
        hotseat=args.hotseat,
        seating=seating,
    )
    return session.run()


def _seat(
    args: argparse.Namespace,
    lang: Lang,
    names: list[str],
    bot_name: str | None,
    seat: int,
    draws: random.Random,
    *,
    strict: bool,
) -> Player:
    """The player of ``seat``: a person, or for seat 1 the bot (seeded from ``draws``),
    named as in records: a level's bot ``Bot level 3``, a bot by its spec, an engine by
    its ``id name`` (else its command), which needs it started. Raises ``ValueError`` for
    a bot that cannot be made and, when ``strict``, ``EngineError`` for an engine that
    does not start (else it forfeits at its first decision, saying why)."""
    if seat < len(names) and names[seat]:
        return Player.seated(names[seat], seat, lang)
    if seat == 1 and args.engine is not None:
        budget = ENGINE_BUDGET if args.budget is None else args.budget
        engine = ExternalEngineBot(args.engine, budget_seconds=budget)
        try:
            engine.start()
        except EngineError:
            if strict:
                raise
        return Player.seated(engine.name, seat, lang, engine)
    if seat == 1 and bot_name is not None:
        bot_seed = draws.getrandbits(64)
        # The expert's judge compiles for about a minute the first time: in the
        # background, while the game opens.
        bot = prepare_bot(lambda: _opponent(args, bot_name, bot_seed))
        return Player.seated(bot_name, seat, lang, bot)
    return Player.seated(seat_name(seat), seat, lang)


def _play_full_screen(
    args: argparse.Namespace,
    streams: Streams,
    game: Game,
    players: tuple[Player, Player],
    seating: Callable[[random.Random], tuple[Player, Player]],
) -> int:
    from hanamikoji.interfaces.table import Table, TableSettings
    from hanamikoji.interfaces.tui import play_in_app

    lang = check_lang(args.lang)
    settings = TableSettings(game.variant, lang, seating, args.hotseat, args.save, args.deck)
    table = Table(settings, game, players)
    if args.save is not None:
        try:
            table.save(args.save)
        except OSError as error:
            table.release()
            reason = error.strerror or str(error)
            text = message("save_failed", lang, path=str(args.save), error=reason)
            return fail(streams, text, EXIT_ERROR, lang)
    return play_in_app(table)


# -- replay -------------------------------------------------------------------------------


def _configure_replay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE", help="a game record (.hkr or .json)")
    add_lang(parser)
    add_deck(parser)
    parser.add_argument(
        "--step", action="store_true", help="wait for Enter between decisions (q stops)"
    )
    add_plain(parser)


def _run_replay(args: argparse.Namespace, streams: Streams) -> int:
    lang = check_lang(args.lang)
    try:
        record = load_record(args.file)
    except RecordFileError as error:
        return fail(streams, str(error), EXIT_ERROR, lang)
    game = record.replay()
    names = record.players
    labels = (player_label(names[0], 0, lang), player_label(names[1], 1, lang))
    header = [
        message("replay_players", lang, first=labels[0], second=labels[1]),
        message("replay_variant", lang, variant=record.variant, seed=record.seed),
    ]
    header.extend(value for value in (record.event, record.date) if value)
    forfeit = record.forfeit  # a game a player lost outside the rules (a resignation)
    if forfeit is not None:
        loser, winner = labels[forfeit.seat], labels[1 - forfeit.seat]
        header.append(
            message("replay_resigned", lang, player=loser, winner=winner)
            if forfeit.kind == RESIGNED
            else message("forfeit_win", lang, player=winner, result=forfeit.result)
        )
    if full_screen(args, streams):
        from hanamikoji.interfaces.tui import replay_in_app

        return replay_in_app(game, labels, lang, header, deck=args.deck)
    terminal = terminal_for(streams, lang, args.deck)
    return replay_game(game, labels, terminal, step=args.step, header=header)


register_command(
    Command(
        "play",
        "play a game against a bot or with two people",
        _configure_play,
        _run_play,
        PLAY_EPILOG,
    )
)
register_command(
    Command("replay", "replay a game record decision by decision", _configure_replay, _run_replay)
)
