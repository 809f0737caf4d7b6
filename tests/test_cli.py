"""The ``hanamikoji`` command: terminal play, replays, listings, and what a person sees."""

from __future__ import annotations

import io
import re
import shlex
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from hanamikoji.arena.games import MatchConfig, play_game
from hanamikoji.arena.players import PlayerSpec
from hanamikoji.bots import BOTS, Bot, make_bot
from hanamikoji.bots.base import OPTION_MEANINGS, bot_option_defaults
from hanamikoji.bots.levels import LEVELS
from hanamikoji.core import (
    VARIANTS,
    Game,
    Move,
    MoveKind,
    View,
    cards,
)
from hanamikoji.interfaces import cli, play_cli
from hanamikoji.interfaces.cli import Command, Streams, register_command, run_command
from hanamikoji.interfaces.exits import EXIT_ENGINE, EXIT_ERROR, EXIT_INPUT_ENDED, EXIT_OK
from hanamikoji.interfaces.line import PlaySession, Terminal
from hanamikoji.interfaces.line import session as line_session
from hanamikoji.interfaces.messages import COMMANDS, command_for, message
from hanamikoji.interfaces.play_cli import default_bot
from hanamikoji.interfaces.rules import rules_markdown
from hanamikoji.interfaces.table import Player
from hanamikoji.interfaces.words import cards_inline, move_words, outcome_text
from hanamikoji.notation.names import LANGUAGES, Lang, action_name, card_label
from hanamikoji.notation.records import FORFEIT_TAGS, STANDARD_TAGS, GameRecord, read_record

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ROOT / ".venv" / "bin" / "hanamikoji"
PLENTY = 3000
"""Scripted lines enough for any game here to end (a round takes at most 8 of them)."""
ENGINES = ROOT / "tests" / "engines"
PICK_FIRST = ["moves", "1"]
"""The first legal decision: a number picks from the list 'moves' shows."""


class ScriptedInput:
    """Typed lines; a ``KeyboardInterrupt`` in the list is raised when its turn comes,
    as Ctrl-C at the prompt would."""

    def __init__(self, lines: Sequence[str | type[KeyboardInterrupt]]) -> None:
        self.lines = list(lines)

    def readline(self) -> str:
        if not self.lines:
            return ""
        line = self.lines.pop(0)
        if line is KeyboardInterrupt:
            raise KeyboardInterrupt
        assert isinstance(line, str)
        return line + "\n"

    def isatty(self) -> bool:
        return False


def run(argv: list[str], lines: Sequence[str] = ()) -> tuple[int, str, str]:
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    stdout, stderr = io.StringIO(), io.StringIO()
    status = run_command(argv, Streams(stdin, stdout, stderr))
    return status, stdout.getvalue(), stderr.getvalue()


def first_legal_game(seed: int, first: int, variant: str = "classic") -> Game:
    """The game the scripted person (always answering ``1``) plays against itself."""
    game = Game(variant, seed=seed, first_player=first)
    while not game.is_over():
        game.push(game.legal_moves[0])
    return game


def before_game_over(output: str, lang: Lang = "en") -> str:
    marker = message("game_over", lang)
    assert marker in output
    return output[: output.index(marker)]


# -- whole games -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_scripted_person_plays_a_whole_game_against_the_random_bot(
    lang: Lang, tmp_path: Path
) -> None:
    path = tmp_path / "game.hkr"
    argv = ["play", "--bot", "random", "--seed", "11", "--first", "you", "--lang", lang]
    status, output, errors = run([*argv, "--save", str(path)], PICK_FIRST * PLENTY)
    assert status == 0, errors
    assert errors == ""
    assert "Traceback" not in output
    game = read_record(path).replay()
    assert game.is_over()
    outcome = game.outcome
    assert outcome is not None
    labels = (
        message("player", lang, number=1),
        message("named_player", lang, name="random", number=2),
    )
    assert " ".join(outcome_text(outcome, labels, lang).split()) in " ".join(output.split())
    # "1" after "moves" is the first legal decision each time the person decides.
    replayed = Game(game.variant, seed=game.seed, first_player=game.first_player)
    for entry in game.log():
        if entry.seat == 0:
            assert entry.move == replayed.legal_moves[0]
        replayed.push(entry.move)
    played = before_game_over(output, lang)
    assert action_name(MoveKind.TRADE_OFF, lang) in played  # Discard in en-2018
    hand = re.split("[:：]", message("hand_cards", lang, letters="", n=7))[0]
    assert hand in played


def test_the_outcome_is_told_and_everything_is_revealed_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "game.hkr"
    status, output, _ = run(
        ["play", "--bot", "random", "--seed", "3", "--first", "bot", "--save", str(path)],
        PICK_FIRST * PLENTY,
    )
    assert status == 0
    game = read_record(path).replay()
    assert game.outcome is not None
    flat = " ".join(output.split())
    assert game.outcome.result() in flat
    assert "Game over" in output
    assert "Everything that was hidden" in output
    for rnd in game.reveal().rounds:
        assert f"Round {rnd.round} · removed card:" in output
    assert f"The game record is saved in {path}." in output


def test_bot_decisions_are_announced_with_hidden_cards_face_down() -> None:
    status, output, _ = run(
        ["play", "--bot", "random", "--seed", "8", "--first", "bot"], PICK_FIRST * PLENTY
    )
    assert status == 0
    played = before_game_over(output)
    assert "random (Player 2) plays Secret (face down)" in played
    assert "random (Player 2) plays Trade-off (face down)" in played
    assert not re.search(r"random \(Player 2\) plays (Secret|Trade-off):", played)
    assert re.search(r"random \(Player 2\) plays (Gift|Competition):", played)


def test_the_board_shows_what_the_player_may_know() -> None:
    game = Game(seed=21, first_player=0)
    first = game.legal_moves[0]
    assert first.kind == MoveKind.SECRET
    status, output, _ = run(
        ["play", "--bot", "random", "--seed", "21", "--first", "you"], PICK_FIRST
    )
    assert status == EXIT_INPUT_ENDED
    for name in ("Ayane", "Iroha", "Tomoyo", "Yoko", "Chiharu", "Anju", "Ruri"):
        assert name in output
    for item in ("flute", "fan", "scroll", "parasol", "shamisen", "tea set", "flower"):
        assert item in output
    assert "Deck: 7 cards · in hand: Player 1 (you) 7, random (Player 2) 6" in output
    assert "Actions used by Player 1 (you): none" in output
    assert "Your turn. Actions left: Secret, Trade-off, Gift, Competition." in output
    assert f"Your hand: {cards.letters(game.view(0).hand, sort=True)} (7 cards)" in output
    assert f"Your Secret: {cards_inline(first.cards, 'en')}" in output
    assert "Actions used by Player 1 (you): Secret" in output


# -- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "label"), [("en", "Bot level 1 (Player 2)"), ("es", "Bot nivel 1 (Jugador 2)")]
)
def test_a_level_is_named_in_the_players_language(lang: str, label: str) -> None:
    status, output, _ = run(["play", "--level", "1", "--lang", lang, "--seed", "5"], ["quit"])
    assert status == 0
    assert label in output


def test_bad_input_gets_a_message_and_a_new_prompt() -> None:
    hand = Game(seed=4, first_player=0).view(0).hand
    missing = next(letter for letter in "ABCDEFG" if letter not in cards.letters(hand, sort=True))
    lines = [
        "garbage",
        "S:X",
        "T:AAA",
        f"S:{missing}",
        "G>A",
        "S",
        "moves",
        "0",
        "9999",
        "",
        "C:AB",
    ]
    status, output, errors = run(
        ["play", "--bot", "random", "--seed", "4", "--first", "you"], lines
    )
    assert status == EXIT_INPUT_ENDED
    assert "Traceback" not in output + errors
    flat = " ".join(output.split())
    assert flat.count("Not a decision:") == 4  # garbage, S:X, T:AAA, C:AB
    assert "Trade-off takes 2 cards, not 3" in flat
    # Why a decision is not legal, in the player's words (the core's reason, translated).
    label = card_label("ABCDEFG".index(missing), "en")
    assert f"Not in your hand: {label}." in flat
    assert "There is no offer to answer: it is your turn to act." in flat  # G>A
    assert "Secret takes 1 card." in flat  # S
    assert flat.count("There is no decision number") == 2
    assert "Type a decision, a number from 'moves', or 'help'." in flat
    assert output.count("Player 1> ") == len(lines) + 1
    assert "End of input: the game stops here." in output


def test_help_moves_log_and_board_answer_and_reprompt() -> None:
    game = Game(seed=6, first_player=0)
    legal = game.legal_moves
    status, output, _ = run(
        ["play", "--bot", "random", "--seed", "6", "--first", "you"],
        ["help", "moves", "log", "board", "AYUDA", str(len(legal))],
    )
    assert status == EXIT_INPUT_ENDED
    assert "Notation" in output
    assert "Legal decisions (type the number or the notation):" in output
    assert f"{len(legal):>3}. {legal[-1]!s:<9}" in output
    assert "No decision yet." in output
    assert output.count("Round 1 · classic") >= 3  # the board, again, then after the move
    assert output.count("Player 1> ") == 7
    assert f"Player 1 (you) plays {legal[-1].kind.name.title()}" in output.replace("_", "-")


def play_piped(argv: list[str], typed: Sequence[str]) -> str:
    """What ``hanamikoji play`` writes when its input and output are pipes (the line
    interface) and ``typed`` is typed."""
    env = {
        "PATH": "/usr/bin:/bin",
        "NO_COLOR": "1",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONPATH": str(ROOT / "src"),
    }
    result = subprocess.run(
        [sys.executable, "-m", "hanamikoji", "play", *argv],
        input="".join(line + "\n" for line in typed),
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return " ".join(result.stdout.split())


def test_answering_an_offer_through_a_pipe_each_message_answers_what_was_typed() -> None:
    # Greedy offers a Gift of three different cards first with seed 1.
    typed = ["foo", "-1", "4", "dd", "quit", "n"]
    said = play_piped(["--bot", "greedy", "--seed", "1", "--first", "bot"], typed)
    assert "offers Gift:" in said and "3) G>" in said, said
    assert "'foo' is not an answer: type the letters of the cards you take (A to G)" in said
    assert "There is no answer number -1: choose 1 to 3 (listed above)." in said
    assert "There is no answer number 4: choose 1 to 3 (listed above)." in said
    assert "Take 1 card from the offer ('dd' has 2)." in said
    # Nothing quotes text the person never typed, or takes a number for a decision.
    assert "G>foo" not in said and "G>dd" not in said
    assert "a move starts with" not in said


def test_a_number_on_ones_turn_means_a_listed_decision_through_a_pipe() -> None:
    legal = Game(seed=1, first_player=0).legal_moves
    too_far = str(len(legal) + 1)
    typed = ["1", "-1", "moves", "0", too_far, "1", "quit", "n"]
    said = play_piped(["--bot", "greedy", "--seed", "1", "--first", "you"], typed)
    unlisted = "a number picks a decision from the list 'moves' shows. Type 'moves' to see it"
    listing = said.index("Legal decisions (type the number or the notation):")
    assert said.index(f"'1': {unlisted}") < listing
    assert said.index(f"'-1': {unlisted}") < listing
    # Before 'moves' listed them, no number played a decision.
    assert "(you) plays" not in said[:listing]
    after = said[listing:]
    count = len(legal)
    assert f"There is no decision number 0: choose 1 to {count}" in after
    assert f"There is no decision number {too_far}: choose 1 to {count}" in after
    assert f"Player 1 (you) plays {move_words(legal[0], 'en')}" in after


class OffersFirst(Bot):
    """Plays its first legal offer of ``kind`` when it can, else its first legal decision."""

    name = "offers"

    def __init__(self, kind: MoveKind) -> None:
        super().__init__(seed=0)
        self.kind = kind

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        return next((move for move in legal if move.kind == self.kind), legal[0])


@pytest.mark.parametrize(
    ("kind", "answer"), [(MoveKind.GIFT, "last card"), (MoveKind.COMPETITION, "second pair")]
)
def test_answers_to_an_offer_take_the_cards_alone(kind: MoveKind, answer: str) -> None:
    game = Game(seed=12, first_player=1)
    offer = OffersFirst(kind).choose(game.view(1), game.legal_moves)
    if kind == MoveKind.GIFT:
        typed = cards.letters(offer.cards[-1:], sort=True).lower()
        expected = Move.gift_response(offer.cards[-1])
    else:
        second = offer.pairs[1]  # type: ignore[misc]
        typed = " ".join(cards.letters(second, sort=True)).lower()
        expected = Move.competition_response(second)
    stdout = io.StringIO()
    terminal = Terminal(ScriptedInput(["xyz", typed]), stdout)
    players = (Player("Ann", "Player 1"), Player("offers bot", "Player 2", OffersFirst(kind)))
    session = PlaySession(game, players, terminal)
    assert session.run() == EXIT_INPUT_ENDED
    assert game.move_stack[:2] == (offer, expected)
    assert "Take one " in stdout.getvalue()
    assert "  2) " in stdout.getvalue()


def test_a_number_answers_an_offer_by_its_place_in_the_list() -> None:
    game = Game(seed=12, first_player=1)
    players = (
        Player("Ann", "Player 1"),
        Player("offers bot", "Player 2", OffersFirst(MoveKind.GIFT)),
    )
    session = PlaySession(game, players, Terminal(ScriptedInput(["2"]), io.StringIO()))
    session.run()
    offer = game.move_stack[0]
    options = sorted(set(offer.cards))
    assert game.move_stack[1] == Move.gift_response(options[1])


# -- stopping and saving ----------------------------------------------------------------


def test_end_of_input_mid_game_exits_cleanly_and_the_saved_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "unfinished.hkr"
    status, output, errors = run(
        ["play", "--bot", "random", "--seed", "5", "--first", "you", "--save", str(path)],
        PICK_FIRST * 3,
    )
    assert status == EXIT_INPUT_ENDED
    assert errors == ""
    assert "End of input: the game stops here." in output
    assert f"The game record is saved in {path}." in output
    assert "Save the game record?" not in output
    game = read_record(path).replay()
    assert not game.is_over()
    assert sum(1 for entry in game.log() if entry.seat == 0) == 3
    status, replayed, _ = run(["replay", str(path)])
    assert status == 0
    assert "the game was not finished" in " ".join(replayed.split())


def test_end_of_input_without_save_says_the_record_is_not_saved() -> None:
    status, output, _ = run(["play", "--bot", "random", "--seed", "5"], PICK_FIRST * 2)
    assert status == EXIT_INPUT_ENDED
    assert "The game record was not saved (use --save FILE to keep it)." in " ".join(output.split())
    assert "Save the game record?" not in output


def test_the_record_is_written_after_every_decision(tmp_path: Path) -> None:
    path = tmp_path / "live.json"
    game = Game(seed=2, first_player=0)
    terminal = Terminal(ScriptedInput(PICK_FIRST * 2), io.StringIO())
    lengths: list[int] = []

    class Watching(Bot):
        def choose(self, view: View, legal: Sequence[Move]) -> Move:
            lengths.append(len(read_record(path).replay().move_stack))
            return legal[0]

    players = (Player("Ann", "Player 1"), Player("watcher", "Player 2", Watching()))
    PlaySession(game, players, terminal, save_path=path).run()
    # When the bot decides, everything before its decision is already on disk.
    assert lengths and all(n >= 1 for n in lengths)
    recorded = read_record(path)
    assert recorded.players == ("Ann", "watcher")
    assert recorded.replay().move_stack == game.move_stack


def test_ctrl_c_offers_to_save_the_record(tmp_path: Path) -> None:
    path = tmp_path / "kept.hkr"
    game = Game(seed=5, first_player=0)
    stdout = io.StringIO()
    terminal = Terminal(ScriptedInput([*PICK_FIRST, KeyboardInterrupt, "y", str(path)]), stdout)
    players = (Player("Ann", "Player 1"), Player("random bot", "Player 2", make_bot("random")))
    assert PlaySession(game, players, terminal).run() == 130
    output = stdout.getvalue()
    assert "Interrupted." in output
    assert "Save the game record? [y/N]" in output
    assert f"The game record is saved in {path}." in output
    assert read_record(path).replay().move_stack == game.move_stack


def test_ctrl_c_at_the_save_question_leaves_quietly() -> None:
    game = Game(seed=5, first_player=0)
    stdout = io.StringIO()
    terminal = Terminal(ScriptedInput([*PICK_FIRST, KeyboardInterrupt, KeyboardInterrupt]), stdout)
    players = (Player("Ann", "Player 1"), Player("random bot", "Player 2", make_bot("random")))
    assert PlaySession(game, players, terminal).run() == 130
    assert "The game record was not saved" in stdout.getvalue()


def test_quit_then_no_leaves_without_saving(tmp_path: Path) -> None:
    status, output, _ = run(
        ["play", "--bot", "random", "--seed", "5", "--first", "you"], [*PICK_FIRST, "quit", "n"]
    )
    assert status == 0
    assert "Game stopped." in output
    assert "Save the game record? [y/N]" in output
    assert "saved in" not in output


def test_resign_asks_first_then_loses_the_game_and_the_record_says_resigned(
    tmp_path: Path,
) -> None:
    path = tmp_path / "resigned.hkr"
    argv = ["play", "--bot", "random", "--seed", "5", "--first", "you", "--name", "Ann"]
    lines = [*PICK_FIRST, "resign", "n", "help", "resign", "y", "n"]
    status, output, _ = run([*argv, "--save", str(path)], lines)
    assert status == EXIT_OK
    assert "Resign this game? Ann (Player 1) loses it. [y/N]" in output
    assert "The game goes on." in output  # the first answer was no
    assert "resign: give the game up" in output  # 'help' tells of it
    assert "Ann (Player 1) resigned: random (Player 2) wins." in output
    assert "Play again? [y/N]" in output
    record = read_record(path)
    assert record.tag("Forfeit") == "Player 1 (Ann) resigned"
    assert record.tag("ForfeitResult") == "0-1"
    assert record.forfeit is not None and record.forfeit.kind == "resigned"
    assert command_for("投了") == command_for("rendirse") == "resign"


def test_play_again_starts_a_rematch_with_the_other_player_first(tmp_path: Path) -> None:
    path = tmp_path / "game.hkr"
    argv = ["play", "--bot", "random", "--seed", "5", "--first", "you", "--save", str(path)]
    lines = ["resign", "y", "y", "resign", "y", "n"]
    status, output, _ = run(argv, lines)
    assert status == EXIT_OK
    assert output.count("Play again? [y/N]") == 2
    assert output.count("resigned: random (Player 2) wins.") == 2
    first, second = read_record(path), read_record(tmp_path / "game-2.hkr")
    assert (first.first_player, second.first_player) == (0, 1)
    assert second.tag("Forfeit") == "Player 1 resigned"


def test_an_engine_that_resigns_loses_and_the_person_wins_with_status_0(tmp_path: Path) -> None:
    command = shlex.join([sys.executable, str(ENGINES / "misbehaving_engine.py"), "resign", "1"])
    path = tmp_path / "won.hkr"
    argv = ["play", "--engine", command, "--seed", "2", "--first", "bot", "--save", str(path)]
    status, output, errors = run(argv, [*PICK_FIRST * 20, "n"])
    assert status == EXIT_OK, errors
    assert "(Player 2) resigned: Player 1 wins." in " ".join(output.split())
    record = read_record(path)
    assert record.forfeit is not None and record.forfeit.kind == "resigned"
    assert record.forfeit.seat == 1


def test_an_unwritable_save_path_is_refused_before_the_game(tmp_path: Path) -> None:
    path = tmp_path / "no such folder" / "game.hkr"
    status, output, _ = run(["play", "--bot", "random", "--save", str(path)], ["1"])
    assert status == EXIT_ERROR
    assert f"Could not save the record in {path}" in " ".join(output.split())
    assert "Player 1> " not in output


# -- names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "label"), [("en", "Bot level 1 (Player 2)"), ("fr", "Bot niveau 1 (Joueur 2)")]
)
def test_a_bot_has_one_name_at_the_table_in_the_record_and_in_replays(
    lang: Lang, label: str, tmp_path: Path
) -> None:
    path = tmp_path / "game.hkr"
    argv = ["play", "--level", "1", "--seed", "5", "--first", "bot", "--lang", lang]
    status, played, _ = run([*argv, "--save", str(path)], [*PICK_FIRST, "quit", "n"])
    assert status == EXIT_OK
    assert read_record(path).players == ("Player 1", "Bot level 1")
    status, replayed, _ = run(["replay", str(path), "--lang", lang])
    assert status == EXIT_OK
    for output in (played, replayed):
        assert label in output
        # No other naming of the same bot anywhere.
        assert output.count("level 1") == output.count("Bot level 1")
        assert "(level" not in output and "(niveau" not in output


def test_an_engine_is_named_by_its_id_name(tmp_path: Path) -> None:
    command = shlex.join([sys.executable, str(ENGINES / "first_legal_engine.py")])
    path = tmp_path / "engine.hkr"
    argv = ["play", "--engine", command, "--seed", "3", "--first", "bot", "--save", str(path)]
    status, output, _ = run(argv, [*PICK_FIRST, "quit", "n"])
    assert status == EXIT_OK
    assert "first-legal (Player 2) plays" in output
    assert "(engine)" not in output and "engine bot" not in output
    assert read_record(path).players == ("Player 1", "first-legal")


def test_a_taking_is_told_in_a_sentence_and_lists_are_the_languages() -> None:
    # Greedy's first decision with seed 1 is a Gift of a fan, a scroll and a shamisen.
    argv = ["play", "--bot", "greedy", "--seed", "1", "--first", "bot"]
    _, english, _ = run(argv, ["1", "log", "quit", "n"])
    assert "Player 1 (you) takes from the Gift: fan (Iroha)" in english
    assert "Takes" not in before_listing(english)  # only the list of answers begins so
    _, japanese, _ = run([*argv, "--lang", "ja"], ["1", "log", "quit", "n"])
    assert "贈呈：扇 (Iroha)、巻物 (Tomoyo)、三味線 (Chiharu)" in japanese
    assert "残りのアクション：密約、破棄、贈呈、競争。" in japanese
    assert "プレイヤー1（あなた）：贈呈から取る：扇 (Iroha)" in japanese
    assert ", " not in japanese


def before_listing(output: str) -> str:
    """``output`` without the numbered answers to an offer (``  1) G>B   Takes from ...``)."""
    return "\n".join(line for line in output.splitlines() if not re.match(r" +\d\) ", line))


# -- an engine's forfeit ---------------------------------------------------------------------


def test_an_engines_forfeit_is_recorded_as_the_arena_records_one(tmp_path: Path) -> None:
    command = shlex.join([sys.executable, str(ENGINES / "misbehaving_engine.py"), "crash", "1"])
    path = tmp_path / "forfeit.hkr"
    argv = ["play", "--engine", command, "--seed", "2", "--first", "bot", "--save", str(path)]
    status, output, errors = run(argv, PICK_FIRST * 20)
    assert status == EXIT_ENGINE, errors
    assert "forfeits the game: crash:" in " ".join(output.split())
    played = read_record(path)
    # The same seats, seed and engine in the arena: seat 1 crashes at its second decision.
    engine = PlayerSpec.engine_command("first-legal", command)
    arena = play_game(MatchConfig(), (PlayerSpec.bot_named("random"), engine), 2)
    assert arena.forfeit is not None and arena.forfeit.kind == "crash"
    arena_record = GameRecord.from_text(arena.record)
    for record in (played, arena_record):
        assert record.result == "*"  # the rules did not end the game: it still replays
        assert not record.replay().is_over()
        names = [name for name, _ in record.tags if name not in STANDARD_TAGS]
        assert names == list(FORFEIT_TAGS)
        assert record.tag("ForfeitResult") == "1-0"
        reason = record.tag("Forfeit")
        assert reason is not None
        assert re.fullmatch(r"Player 2 \(first-legal\) crash: the engine exited .*", reason)
        assert "deliberate crash" in reason  # the engine's last words on stderr


# -- hotseat -------------------------------------------------------------------------------


def test_hotseat_shows_each_person_only_their_own_hand() -> None:
    seed = 31
    status, output, _ = run(
        ["play", "--hotseat", "--seed", str(seed), "--first", "1"], PICK_FIRST * PLENTY
    )
    assert status == 0
    game = Game(seed=seed, first_player=0)
    expected: list[tuple[int, str]] = []  # who decides, and the hand they hold
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        expected.append((seat, cards.letters(game.view(seat).hand, sort=True)))
        game.push(game.legal_moves[0])

    screens = output.split("Pass the terminal to Player ")[1:]
    assert len(screens) >= 2
    seen: list[tuple[int, str]] = []
    for number, screen in enumerate(screens):
        seat = int(screen[0]) - 1
        if number:
            assert seat != seen[-1][0], "the terminal is passed only to the other person"
        hidden_part = before_game_over(screen) if number == len(screens) - 1 else screen
        for letters in re.findall(r"Your hand: (\S+) \(\d+ cards?\)", hidden_part):
            seen.append((seat, "" if letters == "-" else letters))
        other = f"Player {2 - seat}"
        assert not re.search(rf"{other} plays (Secret|Trade-off):", hidden_part)
        assert f"{other} (you)" not in hidden_part
    assert seen == expected


def test_hotseat_names_label_both_people(tmp_path: Path) -> None:
    path = tmp_path / "names.hkr"
    status, output, _ = run(
        ["play", "--hotseat", "--name", "Ann", "--name", "Bo", "--seed", "1", "--save", str(path)],
        ["", "1"],
    )
    assert status == EXIT_INPUT_ENDED
    assert "Ann (Player 1)" in output and "Bo (Player 2)" in output
    assert read_record(path).players == ("Ann", "Bo")


# -- replay -----------------------------------------------------------------------------


def record_of(game: Game, path: Path) -> Path:
    path.write_text(GameRecord.from_game(game, players=("Ann", "Bo")).to_text(), encoding="utf-8")
    return path


@pytest.mark.parametrize("lang", LANGUAGES)
def test_replay_prints_every_decision_and_the_outcome(lang: Lang, tmp_path: Path) -> None:
    game = first_legal_game(seed=17, first=0)
    path = record_of(game, tmp_path / "game.hkr")
    status, output, errors = run(["replay", str(path), "--lang", lang])
    assert status == 0, errors
    outcome = game.outcome
    assert outcome is not None
    labels = (
        message("named_player", lang, name="Ann", number=1),
        message("named_player", lang, name="Bo", number=2),
    )
    flat = " ".join(output.split())
    assert " ".join(outcome_text(outcome, labels, lang).split()) in flat
    for entry in game.log():
        assert f"{entry.turn}. {entry.move}" in flat
    for summary in game.summaries():
        assert message("round_scored", lang, round=summary.round) in output


def test_replay_step_waits_for_enter_and_q_stops(tmp_path: Path) -> None:
    game = first_legal_game(seed=17, first=0)
    path = record_of(game, tmp_path / "game.hkr")
    status, output, _ = run(["replay", str(path), "--step"], ["", "", "q"])
    assert status == 0
    assert output.count("[Enter: next, q: stop]") == 3
    assert "Game over" not in output
    status, output, _ = run(["replay", str(path), "--step"], ["", ""])
    assert status == 0
    assert "Game over" in output  # the end of input stops the waiting, not the replay


def test_a_json_record_replays_too(tmp_path: Path) -> None:
    game = first_legal_game(seed=2, first=1, variant="french")
    path = tmp_path / "game.json"
    path.write_text(GameRecord.from_game(game).to_json(), encoding="utf-8")
    status, output, _ = run(["replay", str(path)])
    assert status == 0
    assert "Player 1 vs Player 2" in output
    assert "Variant french · seed 2" in output


def test_a_broken_record_exits_1_with_the_line_and_column(tmp_path: Path) -> None:
    game = first_legal_game(seed=17, first=0)
    text = GameRecord.from_game(game).to_text().replace("1. ", "1. X:Q ", 1)
    path = tmp_path / "broken.hkr"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index(next(t for t in text.splitlines() if "X:Q" in t)) + 1
    status, output, errors = run(["replay", str(path)])
    assert status == EXIT_ERROR
    assert output == ""
    assert f"line {line}, column 4" in errors
    status, _, errors = run(["replay", str(tmp_path / "missing.hkr")])
    assert status == EXIT_ERROR
    assert "missing.hkr" in errors


# -- listings, options, the command itself ------------------------------------------------


def test_variants_and_bots_are_listed() -> None:
    status, output, _ = run(["variants"])
    assert status == 0
    for name in VARIANTS:
        assert name in output
    status, output, _ = run(["bots"])
    assert status == 0
    for name in BOTS:
        assert name in output
    assert "NAME:OPTION=VALUE" in output
    flat = " ".join(output.split())
    for number, level in LEVELS.items():  # the levels: bot and time per decision
        time = "-" if level.budget is None else f"{level.budget:g} s"
        assert re.search(rf"│ +{number} │ {re.escape(level.spec())} +│ {re.escape(time)} ", output)
    for name in BOTS:  # every option of every bot, its default and its meaning
        for option, value in bot_option_defaults(name).items():
            assert option in output and OPTION_MEANINGS[option].split()[-1] in flat
            shown = f"{value:g}" if isinstance(value, float) else str(value).lower()
            assert f"{option}={shown}" in flat.replace(" ", "")
    assert "random_prior=0.1" in flat.replace(" ", "")  # the expert's
    status, output, _ = run(["variants", "--lang", "es"])
    assert "Como mucho 3 rondas" in " ".join(output.split())


def test_the_default_bot_comes_from_the_registry() -> None:
    assert default_bot() == ("greedy" if "greedy" in BOTS else "random")
    assert default_bot() in BOTS


def test_bad_options_are_refused_without_a_traceback() -> None:
    status, _, errors = run(["play", "--bot", "nobody"])
    assert status == 2
    assert "unknown bot 'nobody'" in errors
    status, _, errors = run(["play", "--bot", "ismcts:exact_turns=99"])
    assert status == 2
    assert "exact_turns is 0 to 8, not 99" in errors
    status, _, errors = run(["play", "--variant", "checkers"])
    assert status == 2
    assert "unknown variant 'checkers'" in errors
    status, _, errors = run(["play", "--name", "A", "--name", "B"])
    assert status == 2


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--name", "A", "--name", "B"], "given 2 times; you play alone here"),
        (["--hotseat", *["--name", "A"] * 3], "given 3 times; a --hotseat game has two people"),
    ],
)
def test_too_many_names_are_refused_in_words(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, _ = run(["play", *argv])
    assert status == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last == f"hanamikoji play: error: argument --name: {said}"


def test_another_module_can_add_a_subcommand(monkeypatch: pytest.MonkeyPatch) -> None:
    # The subcommand registry, copied so the test's addition does not outlive it.
    monkeypatch.setattr(cli, "_COMMANDS", dict(cli._COMMANDS))  # noqa: SLF001

    def configure(parser: object) -> None:
        pass

    def hello(args: object, streams: Streams) -> int:
        streams.stdout.write("hello\n")
        return 7

    register_command(Command("hello", "say hello", configure, hello))
    assert run(["hello"]) == (7, "hello\n", "")
    with pytest.raises(ValueError, match="already registered"):
        register_command(Command("hello", "again", configure, hello))


def test_the_2018_edition_speaks_english_and_command_words_are_not_card_letters() -> None:
    assert message("game_over", "en-2018") == message("game_over", "en")
    for command, words in COMMANDS.items():
        for word in words:
            assert command_for(word.upper()) == command
            assert word.upper() not in "ABCDEFG", "a command word must not be a card letter"


def run_installed(args: list[str], text: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [str(COMMAND), *args], input=text, capture_output=True, text=True, env=env, check=False
    )


def test_the_installed_command_plays_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.hkr"
    played = run_installed(
        ["play", "--bot", "random", "--seed", "9", "--lang", "es", "--save", str(path)],
        "moves\n1\n" * PLENTY,
    )
    assert played.returncode == 0, played.stderr
    assert "Traceback" not in played.stderr
    assert "\x1b[" not in played.stdout
    assert "Fin de la partida" in played.stdout
    replayed = run_installed(["replay", str(path), "--lang", "fr"], "")
    assert replayed.returncode == 0, replayed.stderr
    assert "Fin de la partie" in replayed.stdout


def test_the_installed_command_reports_a_broken_record(tmp_path: Path) -> None:
    path = tmp_path / "broken.hkr"
    path.write_text('[Variant "classic"]\n[FirstPlayer "3"]\n[Result "*"]\n', encoding="utf-8")
    result = run_installed(["replay", str(path)], "")
    assert result.returncode == EXIT_ERROR
    assert "line 2, column" in result.stderr
    assert "Traceback" not in result.stderr


def test_end_of_input_through_the_installed_command(tmp_path: Path) -> None:
    path = tmp_path / "game.hkr"
    result = run_installed(["play", "--bot", "random", "--save", str(path)], "moves\n1\n")
    assert result.returncode == EXIT_INPUT_ENDED
    assert "Traceback" not in result.stderr
    assert read_record(path).replay().move_stack


def test_python_m_hanamikoji_lists_the_subcommands() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "hanamikoji", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    for name in ("play", "replay", "variants", "bots"):
        assert name in result.stdout


def test_the_rules_are_at_hand_with_the_variant_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, output, _ = run(["rules", "--variant", "french", "--lang", "es"])
    assert status == 0
    flat = " ".join(output.split())
    assert flat.startswith("Variante de esta partida, french: Como mucho 3 rondas")
    assert "Las reglas de Hanamikoji" in flat and "Competición" in flat
    status, _, _ = run(["rules", "--variant", "nope"])
    assert status == 2 and "unknown variant 'nope'" in capsys.readouterr().err


def test_rules_at_the_prompt_show_the_rules_and_ask_again() -> None:
    status, output, _ = run(
        ["play", "--bot", "random", "--seed", "4", "--first", "you"], ["reglas"]
    )
    assert status == EXIT_INPUT_ENDED
    flat = " ".join(output.split())
    assert "This game's variant, classic:" in flat and "The rules of Hanamikoji" in flat
    assert output.count("Player 1> ") == 2


WORD = re.compile(r"[0-9A-Za-zÀ-ɏ]+(?:['’][0-9A-Za-zÀ-ɏ]+)*|[^\W\d_A-Za-zÀ-ɏ]")
"""A word of Latin letters (with its apostrophes), or any other single letter: Japanese
and Chinese wrap between any two characters, so each is counted alone."""


def rules_words(lang: Lang) -> Counter[str]:
    """Every word of the rules page in ``lang`` a reader sees: the text of its
    paragraphs, list items, headings, table cells and code blocks, without the
    Markdown around them."""
    texts: list[str] = []
    for token in MarkdownIt().enable("table").parse(rules_markdown(lang)):
        if token.type == "inline":
            # The pieces of one paragraph or cell run on ("l’*Offre*" is one word).
            texts.append("".join(_inline_text(child) for child in token.children or []))
        elif token.type in ("fence", "code_block"):
            texts.append(token.content)
    return Counter(WORD.findall("\n".join(texts)))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_piped_rules_keep_every_word(lang: Lang, monkeypatch: pytest.MonkeyPatch) -> None:
    # A pipe is 80 columns wide; list items and tables used to be cut there, mid-word.
    monkeypatch.delenv("COLUMNS", raising=False)
    status, output, _ = run(["rules", "--lang", lang])
    assert status == 0
    missing = rules_words(lang) - Counter(WORD.findall(output))
    assert not missing, f"words lost: {sorted(missing)[:20]}"
    assert max(cells(line) for line in output.splitlines()) <= 80


def test_rules_at_a_piped_prompt_keep_every_word(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    status, output, _ = run(
        ["play", "--bot", "random", "--seed", "4", "--first", "you", "--plain"], ["rules"]
    )
    assert status == EXIT_INPUT_ENDED
    missing = rules_words("en") - Counter(WORD.findall(output))
    assert not missing, f"words lost: {sorted(missing)[:20]}"


def _inline_text(token: Token) -> str:
    if token.type in ("text", "code_inline"):
        return token.content
    return " " if token.type in ("softbreak", "hardbreak") else ""


def cells(line: str) -> int:
    from rich.cells import cell_len

    return cell_len(line.rstrip())


class SlowLevel:
    """A level bot that takes as long as the test wants to be made (the expert compiling
    its judge the first time takes about a minute): ``release`` ends it."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def __call__(self, number: int, seed: int | None = None) -> Bot:
        assert self.release.wait(60), "the test never released the bot"
        return make_bot("random", seed=seed)


def wait_until(done: Callable[[], bool], seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_plain_play_says_the_bot_is_being_prepared_and_keeps_what_is_typed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slow = SlowLevel()
    monkeypatch.setattr(play_cli, "make_level_bot", slow)
    monkeypatch.setattr(line_session, "PROGRESS_SECONDS", 0.05, raising=False)
    stdin = io.StringIO("moves\n1\n" * PLENTY)
    stdout = io.StringIO()
    argv = ["play", "--level", "8", "--seed", "4", "--first", "you", "--plain"]
    statuses: list[int] = []
    thread = threading.Thread(
        target=lambda: statuses.append(run_command(argv, Streams(stdin, stdout, io.StringIO())))
    )
    thread.start()
    try:
        preparing = "Preparing Bot level 8 (Player 2): the first time on this computer"
        assert wait_until(lambda: preparing in stdout.getvalue()), stdout.getvalue()[-500:]
        assert wait_until(
            lambda: "Preparing Bot level 8 (Player 2): the first time only… " in stdout.getvalue()
        )
    finally:
        slow.release.set()
        thread.join(60)
    assert statuses == [0]
    shown = stdout.getvalue()
    # The person's first decision, typed while the bot was made, was played before it.
    assert shown.index("Player 1 (you) plays") < shown.index(preparing)
    assert "Bot level 8 (Player 2) is ready (" in shown
    assert "Game over" in shown
