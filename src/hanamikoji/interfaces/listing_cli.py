"""The listings: ``variants`` (the rules variants), ``rules`` (the rules page, in
``--lang``'s language) and ``bots`` (the levels, the bots and their options).
"""

from __future__ import annotations

import argparse

from hanamikoji.bots import BOTS
from hanamikoji.bots.base import OPTION_MEANINGS, Option, bot_option_defaults, bot_options
from hanamikoji.bots.levels import LEVELS
from hanamikoji.core import VARIANTS, UnknownVariantError, Variant
from hanamikoji.interfaces.cli import Command, Streams, add_lang, register_command, terminal_for
from hanamikoji.interfaces.exits import EXIT_OK
from hanamikoji.interfaces.line.render import render_rules
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.options import UsageError
from hanamikoji.interfaces.play_cli import default_bot
from hanamikoji.interfaces.styled import Table, Text
from hanamikoji.interfaces.words import variant_description
from hanamikoji.notation.names import Lang, check_lang

__all__: list[str] = []


# -- listings -----------------------------------------------------------------------------


def _configure_listing(parser: argparse.ArgumentParser) -> None:
    add_lang(parser)


def _configure_rules(parser: argparse.ArgumentParser) -> None:
    add_lang(parser)
    parser.add_argument(
        "--variant",
        default="classic",
        metavar="NAME",
        help="say how a game of this variant ends before the rules (default: classic)",
    )


def _run_rules(args: argparse.Namespace, streams: Streams) -> int:
    lang = check_lang(args.lang)
    try:
        variant = Variant.by_name(args.variant)
    except UnknownVariantError as error:
        raise UsageError(str(error)) from None
    terminal_for(streams, lang).show_document(render_rules(variant, lang))
    return EXIT_OK


def _run_variants(args: argparse.Namespace, streams: Streams) -> int:
    lang = check_lang(args.lang)
    table = Table(title=message("variants_title", lang), title_justify="left")
    table.add_column(message("col_name", lang), no_wrap=True)
    table.add_column(message("col_rounds", lang))
    table.add_column(message("col_description", lang))
    for variant in VARIANTS.values():
        rounds = (
            str(variant.max_rounds)
            if variant.max_rounds is not None
            else message("unlimited", lang)
        )
        description = variant_description(variant.name, variant.description, lang)
        table.add_row(variant.name, rounds, description)
    terminal = terminal_for(streams, lang)
    terminal.show(table)
    terminal.show(Text(message("variants_cap", lang)))
    return EXIT_OK


def _run_bots(args: argparse.Namespace, streams: Streams) -> int:
    lang = check_lang(args.lang)
    terminal = terminal_for(streams, lang)
    terminal.show(_levels_table(lang))
    table = Table(title=message("bots_title", lang), title_justify="left")
    table.add_column(message("col_name", lang), no_wrap=True)
    table.add_column(message("col_description", lang))
    table.add_column(message("col_defaults", lang))
    default = default_bot()
    for name, factory in BOTS.items():
        paragraph = (factory.__doc__ or "").strip().split("\n\n")[0]
        defaults = bot_option_defaults(name).items()
        table.add_row(
            f"{name} *" if name == default else name,
            " ".join(paragraph.split()),
            ", ".join(f"{option}={_written(value)}" for option, value in defaults),
        )
    terminal.show(table)
    terminal.show(Text(message("bots_default", lang, bot=default)))
    terminal.show(_options_table(lang))
    terminal.show(Text(message("bots_options", lang)))
    return EXIT_OK


def _levels_table(lang: Lang) -> Table:
    """The difficulty levels: which bot, with how much time per decision."""
    table = Table(title=message("levels_title", lang), title_justify="left")
    table.add_column(message("col_level", lang), justify="right")
    table.add_column(message("col_bot", lang))
    table.add_column(message("col_time", lang))
    for number, level in sorted(LEVELS.items()):
        time = "-" if level.budget is None else f"{level.budget:g} s"
        table.add_row(str(number), level.spec(), time)
    return table


def _options_table(lang: Lang) -> Table:
    """Every option a spec can set, and what it sets."""
    options = dict.fromkeys(option for name in BOTS for option in bot_options(name))
    table = Table(title=message("options_title", lang), title_justify="left")
    table.add_column(message("col_option", lang), no_wrap=True)
    table.add_column(message("col_meaning", lang))
    for option in options:
        table.add_row(option, OPTION_MEANINGS[option])
    return table


def _written(value: Option) -> str:
    """An option's value as a spec writes it: ``none``, ``true``, ``0.2``, ``3``."""
    if value is None or isinstance(value, bool):
        return str(value).lower()
    return f"{value:g}" if isinstance(value, float) else str(value)


register_command(Command("variants", "list the rules variants", _configure_listing, _run_variants))
register_command(
    Command("rules", "the rules of the game, in --lang's language", _configure_rules, _run_rules)
)
register_command(Command("bots", "list the bots", _configure_listing, _run_bots))
