"""The terminal interface's own sentences, declared in English (their translations are
in the gettext catalogs: :mod:`hanamikoji.interfaces.i18n`, docs/i18n.md).

Game terms (actions, items, charm, markers) are not here: they come from
:mod:`hanamikoji.notation.names`, and templates take them as fields. ``en-2018`` uses
the English sentences with the 2018 edition's terms.

>>> message("pass_terminal", "es", player="Jugador 2")
'Pasa el terminal a Jugador 2 y pulsa Intro. '
>>> command_for("AYUDA"), command_for("S:D")
('help', None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hanamikoji.core.errors import Illegality, IllegalMoveError
from hanamikoji.core.moves import MoveKind
from hanamikoji.core.outcome import Outcome
from hanamikoji.interfaces.i18n import plural, say, sentence, sentences
from hanamikoji.notation.names import Lang, action_name, card_label, join_list

__all__ = [
    "COMMANDS",
    "MESSAGES",
    "command_for",
    "illegality",
    "is_yes",
    "localized",
    "message",
    "outcome_key",
]

MESSAGES = sentences(
    # -- players and the board
    sentence("player", "Player {number}"),
    sentence("named_player", "{name} (Player {number})"),
    sentence("bot_level_name", "Bot level {level}"),
    sentence("you_label", "{player} (you)"),
    sentence("board_title", "Round {round} · {variant}"),
    sentence("col_geisha", "Geisha"),
    sentence("col_charm", "Charm"),
    sentence("col_item", "Item"),
    sentence("col_marker", "Marker"),
    sentence("marker_neutral", "neutral"),
    sentence("marker_them", "opponent"),
    sentence("marker_you", "you"),
    plural("deck_cards", "Deck: {n} card", "Deck: {n} cards"),
    sentence("deck_and_hands", "{deck} · in hand: {me} {mine}, {them} {theirs}"),
    sentence("used_actions", "Actions used by {player}: {actions}"),
    sentence("labelled", "{label}: {value}"),
    sentence("none", "none"),
    sentence("your_action", "Your {action}:"),
    plural("hand_cards", "Your hand: {letters} ({n} card)", "Your hand: {letters} ({n} cards)"),
    sentence("drawn", "just drawn"),
    sentence("this_round", "This round:"),
    sentence("your_turn", "Your turn. Actions left: {actions}."),
    sentence("answer_gift", "{player} offers {offer}. Take one card:"),
    sentence("answer_competition", "{player} offers {offer}. Take one pair:"),
    sentence("announce_action", "{player} plays {move}"),
    sentence("announce_take_gift", "{player} takes from the {action}: {cards}"),
    sentence("announce_take_competition", "{player} takes from the {action}: {cards}"),
    sentence("last_round", "Round {round} scored. Secrets: {secrets}. {tally}"),
    plural("n_geishas", "{n} geisha", "{n} geishas"),
    sentence("tally", "{player}: {charm} {charm_term}, {geishas}"),
    sentence("round_scored", "End of round {round}: scoring"),
    sentence("secrets_revealed", "Secrets revealed: {secrets}"),
    sentence("rounds_played", "rounds played: {rounds}"),
    # -- outcomes ({charm_term} is the edition's word for charm)
    sentence("outcome_charm", "{winner} wins with 11 or more {charm_term}."),
    sentence(
        "outcome_charm_over_geishas",
        "{winner} wins with 11 or more {charm_term}, which beats the other player's 4 geishas.",
    ),
    sentence("outcome_geishas", "{winner} wins with 4 or more geishas."),
    sentence("outcome_most_geishas", "{winner} wins with more geishas after the last round."),
    sentence("outcome_most_charm", "{winner} wins with more {charm_term} after the last round."),
    sentence(
        "outcome_shared_win",
        "Both players share the win: geishas and {charm_term} are tied after the last round.",
    ),
    sentence("outcome_no_winner", "Nobody wins: tied on {charm_term} after the last round."),
    sentence("outcome_round_cap", "Draw: the round limit was reached."),
    sentence("game_over", "Game over"),
    sentence("reveal_title", "Everything that was hidden"),
    sentence("reveal_round", "Round {round} · removed card: {removed}"),
    sentence("reveal_dealt", "dealt"),
    sentence("reveal_drawn", "drawn"),
    # -- the prompt
    sentence("intro", "Hanamikoji · variant {variant}: {description} · seed {seed}"),
    sentence("starts", "{player} starts."),
    sentence(
        "intro_help", "Type a decision such as S:D, 'moves' for the legal ones, 'help', or 'quit'."
    ),
    sentence("prompt", "{player}> "),
    sentence("pass_terminal", "Pass the terminal to {player}, then press Enter. "),
    sentence("empty_input", "Type a decision, a number from 'moves', or 'help'."),
    sentence(
        "no_such_number",
        "There is no decision number {number}: choose 1 to {count} ('moves' lists them).",
    ),
    sentence(
        "no_such_answer", "There is no answer number {number}: choose 1 to {count} (listed above)."
    ),
    sentence(
        "number_not_listed",
        "'{number}': a number picks a decision from the list 'moves' shows. Type 'moves' to"
        " see it, or type the decision (such as S:D).",
    ),
    sentence(
        "not_an_answer",
        "'{text}' is not an answer: type the letters of the cards you take (A to G), or"
        " their number in the list.",
    ),
    plural(
        "answer_card_count",
        "Take {n} card from the offer ('{text}' has {count}).",
        "Take {n} cards from the offer ('{text}' has {count}).",
    ),
    sentence("not_a_move", "Not a decision: {error}. Type 'help' for the notation."),
    # -- why a decision is not legal now (one per core.errors.Illegality; the web
    #    server sends them too, under these keys as its error codes)
    sentence("err_game_over", "The game is over."),
    sentence("err_answer_first", "First answer your opponent's {action}."),
    sentence("err_not_offered", "The {action} on offer does not hold that choice."),
    sentence("err_no_offer", "There is no offer to answer: it is your turn to act."),
    sentence("err_used", "You have already used {action} this round."),
    plural("err_card_count", "{action} takes {n} card.", "{action} takes {n} cards."),
    sentence("err_not_in_hand", "Not in your hand: {cards}."),
    sentence("err_awaiting_deal", "The next round has not been dealt yet."),
    sentence("help_title", "Notation"),
    sentence(
        "help_letters",
        "Cards are the letters of the geisha row: A Ayane, B Iroha, C Tomoyo, D Yoko, E"
        " Chiharu, F Anju, G Ruri. Upper or lower case, spaces allowed.",
    ),
    sentence("help_decision", "decision"),
    sentence("help_write", "write"),
    sentence("help_example_now", "legal now, e.g."),
    sentence(
        "help_answer",
        "Answering an offer, the cards alone are enough (D, FG), or its number (1, 2).",
    ),
    sentence(
        "help_commands",
        "Commands: moves (numbered legal decisions; a number picks one), log, board,"
        " rules, help, quit.",
    ),
    sentence("rules_variant", "This game's variant, {variant}: {description}"),
    sentence("moves_title", "Legal decisions (type the number or the notation):"),
    sentence("log_title", "Public log"),
    sentence("log_empty", "No decision yet."),
    sentence("round_heading", "Round {round}"),
    # -- stopping and saving
    sentence("stopped_quit", "Game stopped."),
    sentence("engine_forfeit", "{player} forfeits the game: {reason}"),
    sentence("forfeit_win", "{player} wins by forfeit · {result}"),
    sentence("engine_not_started", "the engine '{command}' did not start: {reason}"),
    sentence(
        "full_screen_missing",
        "note: the full-screen game needs Textual, which is not installed"
        " (pip install 'hanamikoji[tui]'); here is the line interface.",
    ),
    sentence("stopped_eof", "End of input: the game stops here."),
    sentence("stopped_interrupt", "Interrupted."),
    sentence("save_question", "Save the game record? [y/N] "),
    sentence("save_file", "File name [{default}]: "),
    sentence("saved", "The game record is saved in {path}."),
    sentence("not_saved", "The game record was not saved (use --save FILE to keep it)."),
    sentence("save_failed", "Could not save the record in {path}: {error}"),
    # -- replays
    sentence("round_start", "Round {round} · {player} starts"),
    sentence("removed_card", "Removed card: {card}"),
    sentence("dealt_hand", "{player} is dealt: {cards}"),
    sentence("deck_order", "Deck, top first: {cards}"),
    sentence("step_prompt", "[Enter: next, q: stop] "),
    sentence("unfinished", "The record stops after {moves} decisions: the game was not finished."),
    sentence("replay_players", "{first} vs {second}"),
    sentence("replay_variant", "Variant {variant} · seed {seed}"),
    sentence("replay_resigned", "{player} resigned: {winner} wins."),
    # -- listings and errors of the command line
    sentence("variants_title", "Variants"),
    sentence("bots_title", "Bots"),
    sentence("bots_default", "* {bot}: the opponent of 'hanamikoji play' without --bot."),
    sentence(
        "bots_options",
        "NAME:OPTION=VALUE,...: the bot with some options set, e.g. ismcts:iterations=800.",
    ),
    sentence("variants_cap", "NAME/cap=N: at most N rounds, for tools that need bounded games."),
    sentence("col_name", "name"),
    sentence("levels_title", "Difficulty levels"),
    sentence("col_level", "level"),
    sentence("col_bot", "bot"),
    sentence("col_time", "time per decision"),
    sentence("options_title", "Options"),
    sentence("col_defaults", "options (defaults)"),
    sentence("col_option", "option"),
    sentence("col_meaning", "what it sets"),
    sentence("col_rounds", "rounds"),
    sentence("col_description", "description"),
    sentence("col_options", "options"),
    sentence("unlimited", "until someone wins"),
    sentence("variant_classic", "Rounds until someone has 11 charm or 4 geishas."),
    sentence(
        "variant_three_rounds",
        "At most 3 rounds; then most geishas, then most charm, then a shared win (2018"
        " English optional rule).",
    ),
    sentence(
        "variant_french", "At most 3 rounds; then most charm; a tie has no winner (French edition)."
    ),
    sentence("error", "error: {error}"),
    # -- the full-screen app (interfaces/tui)
    sentence("tui_help_key", "? help"),
    sentence("tui_side", "{charm} {charm_term} · {geishas}"),
    plural("tui_hand", "Your hand: {n} card", "Your hand: {n} cards"),
    sentence("tui_how_to_act", "Press S, T, G or C (or click a marker), then choose its cards."),
    sentence("tui_choose_action", "Choose an action first: S, T, G or C."),
    plural("tui_choose_cards", "{action}: choose {n} card:", "{action}: choose {n} cards:"),
    sentence(
        "tui_how_to_choose",
        "Keys 1-7, or ←/→ and Space, or a click · Backspace takes back · Esc starts again",
    ),
    sentence("tui_pairs", "{action}: which two pairs? P or a click switches."),
    sentence("tui_enter_plays", "Enter (or a click here) plays it · Backspace takes back"),
    sentence("tui_answer_keys", "↑/↓ or 1-{count} choose · Enter (or a click here) takes it"),
    plural(
        "tui_no_card",
        "Your hand has {n} card: choose 1.",
        "Your hand has {n} cards: choose 1 to {n}.",
    ),
    sentence("tui_no_option", "Choose an answer from 1 to {n}."),
    sentence("tui_thinking", "{player} is thinking… {seconds} s"),
    sentence(
        "bot_preparing",
        "Preparing {player}: the first time on this computer its search is compiled, which"
        " takes about a minute (later starts take a second or two).",
    ),
    sentence("bot_preparing_progress", "Preparing {player}: the first time only… {seconds} s"),
    sentence("bot_prepared", "{player} is ready ({seconds} s)."),
    sentence("tui_unseen", "unseen"),
    sentence(
        "tui_keys", "1-7 cards · Enter play · ⌫ undo · Esc clear · K unseen · ? help · Q quit"
    ),
    sentence("tui_help_title", "Keys"),
    sentence(
        "tui_help_keys",
        "S, T, G, C     choose Secret, Trade-off, Gift or Competition (or click a marker)\n"
        "1-7            choose or give back the card with that number (or click it)\n"
        "←/→, Space     move along the hand, choose the card under ▸\n"
        "P              a Competition: switch how its four cards make two pairs\n"
        "↑/↓, 1-3       answering a Gift or Competition: the card or pair you take\n"
        "Enter          play the decision\n"
        "Backspace      take back the last step; Esc: start the decision again\n"
        "K              show or hide the column of cards not seen yet this round (unseen)\n"
        "?              this help and the rules; Q: stop the game; Ctrl+C: stop at once\n"
        "Cards are the letters of the geisha row with a glyph: A♪ Ayane (flute), B◭"
        " Iroha, C§ Tomoyo, D☂ Yoko, E♫ Chiharu, F♨ Anju, G✿ Ruri. ◀ or ▶ beside a"
        " geisha: her marker is on that side; · on both: neutral. ×: an action marker"
        " already used; ▒: a card face down; *: the card just drawn.",
    ),
    sentence("tui_help_close", "Esc closes this help. The rules follow."),
    sentence("tui_continue", "Enter: continue"),
    sentence("tui_save_title", "Save the game record"),
    sentence(
        "tui_save_hint",
        "File name (.json: JSON, else text; .hkr suggested). Enter saves, Esc cancels.",
    ),
    sentence(
        "tui_quit_question",
        "Stop this game? Enter stops, S saves the record first, Esc goes back to it.",
    ),
    sentence(
        "tui_quit_saved", "Stop this game? Its record is saved. Enter stops, Esc goes back to it."
    ),
    sentence("tui_end_keys", "R rematch · S save the record · V review the game · Q quit"),
    sentence("tui_replay_keys", "←/→ step · Home/End first/last · PgUp/PgDn by round · Q close"),
    sentence("tui_replay_step", "decision {step} of {total}"),
    # -- puzzles (hanamikoji puzzle: interfaces/puzzling.py, line/puzzle.py, tui/puzzle.py)
    sentence("cli_puzzle_title", "Puzzle {id} · {variant} · puzzle rating {rating}"),
    sentence("cli_puzzle_solver_rating", "Your puzzle rating: {rating}"),
    sentence("cli_puzzle_find", "{player} to decide: find the one best decision."),
    sentence(
        "cli_puzzle_help",
        "Type the decision (such as C:AB/CD or G>A) or its number in the list; 'board',"
        " 'log', 'rules', 'help' or 'quit'.",
    ),
    sentence(
        "cli_puzzle_malformed",
        "'{text}' is not a decision: type one such as G>A or C:AB/CD, or its number in the list.",
    ),
    sentence(
        "cli_puzzle_illegal", "'{text}' is not a legal decision here: type one of those listed."
    ),
    sentence("cli_puzzle_right", "Right: {decision} is the best decision."),
    sentence("cli_puzzle_wrong", "Not the best: {decision}. The best is {solution}."),
    sentence("cli_puzzle_values_title", "Each decision's chance to win the match:"),
    sentence("cli_puzzle_value", "{decision}: {chance}%"),
    plural(
        "cli_puzzle_proved",
        "Proved exactly over the {n} world of the cards you could not see.",
        "Proved exactly over the {n} worlds of the cards you could not see.",
    ),
    plural(
        "cli_puzzle_searched",
        "Found by two searches over {n} sampled world of the cards you could not see.",
        "Found by two searches over {n} sampled worlds of the cards you could not see.",
    ),
    sentence("cli_puzzle_worlds_title", "Where your answer does worse than the best:"),
    sentence(
        "cli_puzzle_world",
        "Chance {chance}%: the opponent's hand {hand}, {secret_term} {secret}, {tradeoff_term}"
        " {tradeoff}; set aside {removed}; deck {deck}. Your answer {answer}%, the best {best}%.",
    ),
    sentence("cli_puzzle_themes", "Themes: {themes}"),
    # the themes' names (puzzles/themes.py; the page's are puzzle_theme_* in site.py)
    sentence("cli_puzzle_theme_gift_answer", "Answering a {action}"),
    sentence("cli_puzzle_theme_competition_answer", "Answering a {action}"),
    sentence("cli_puzzle_theme_gift_offer", "Offering a {action}"),
    sentence("cli_puzzle_theme_competition_split", "Splitting a {action}"),
    sentence("cli_puzzle_theme_secret", "Choosing the {action}"),
    sentence("cli_puzzle_theme_trade_off", "Discarding two cards"),
    sentence("cli_puzzle_theme_last_secret", "The last {action}"),
    sentence("cli_puzzle_theme_last_turn", "The round's last turn"),
    sentence("cli_puzzle_theme_seventh_turn", "The seventh turn"),
    sentence("cli_puzzle_theme_win_now", "Win now"),
    sentence("cli_puzzle_theme_save_the_match", "Save the match"),
    sentence("cli_puzzle_theme_by_charm", "Win by charm"),
    sentence("cli_puzzle_theme_by_geishas", "Win by geishas"),
    sentence("cli_puzzle_theme_charm_beats_geishas", "Charm beats geishas"),
    sentence("cli_puzzle_theme_hold_marker", "Hold a marker"),
    sentence("cli_puzzle_theme_final_round", "The final round"),
    sentence("cli_puzzle_rating_change", "Your puzzle rating: {before} → {after} ({change})"),
    sentence(
        "cli_puzzle_not_counted", "You answered this puzzle before: your rating stays {rating}."
    ),
    plural("cli_puzzle_streak", "Streak: {n} solved.", "Streak: {n} solved."),
    plural(
        "cli_puzzle_streak_over", "The streak ends: {n} solved.", "The streak ends: {n} solved."
    ),
    plural(
        "cli_puzzle_streak_done",
        "Streak complete: all {n} puzzle solved!",
        "Streak complete: all {n} puzzles solved!",
    ),
    sentence("cli_puzzle_next_prompt", "[Enter: next puzzle, q: stop] "),
    sentence("cli_puzzle_none_left", "No puzzle left: you answered every puzzle of this choice."),
    sentence("cli_puzzle_not_found", "no puzzle of that id, theme or variant in the set: {what}"),
    sentence("cli_puzzle_record_failed", "Could not save your puzzle rating in {path}: {error}"),
    sentence("cli_puzzle_stopped", "Puzzles stopped."),
    sentence("cli_puzzle_eof", "End of input: the puzzles stop here."),
    sentence(
        "tui_puzzle_keys",
        "S T G C action · 1-7 cards · Enter answer · ⌫ undo · Esc clear · ? help · Q quit",
    ),
    sentence(
        "tui_too_small",
        "This terminal is {width}×{height}: the table needs at least {min_width}×{min_height}."
        " Make the window larger to go on, or press Q to stop.",
    ),
    # -- resigning and playing again (issue 49)
    sentence("help_resign", "resign: give the game up (you are asked first)."),
    sentence("resign_question", "Resign this game? {player} loses it. [y/N] "),
    sentence("resign_kept", "The game goes on."),
    sentence("play_again_question", "Play again? [y/N] "),
    sentence("tui_resign_key", "R resign"),
    sentence("tui_help_resign", "R              resign this game (a dialog asks first)"),
    sentence(
        "tui_resign_question",
        "Resign this game? {player} loses it. Enter resigns, Esc goes back to it.",
    ),
)
"""Each sentence of the terminal interfaces by key, in English; fields in braces."""

COMMANDS: dict[str, tuple[str, ...]] = {
    "help": ("help", "h", "?", "ayuda", "aide", "ヘルプ", "說明"),
    "moves": ("moves", "m", "jugadas", "coups", "候補", "走法"),
    "log": ("log", "l", "registro", "journal", "記録", "紀錄"),
    "board": ("board", "tablero", "plateau", "盤面", "牌桌"),
    "rules": ("rules", "reglas", "règles", "regles", "ルール", "規則"),
    "quit": ("quit", "q", "exit", "salir", "quitter", "終了", "離開"),
    "resign": ("resign", "rendirse", "abandonner", "投了", "認輸"),
}
"""Prompt commands and their words in every language (any word works in any language;
none is a card letter, which answers an offer)."""

_YES = frozenset({"y", "yes", "s", "si", "sí", "o", "oui", "はい", "是"})
_COMMAND_WORDS = {word: command for command, words in COMMANDS.items() for word in words}


def message(key: str, lang: Lang, **fields: object) -> str:
    """The sentence ``key`` in ``lang`` with its fields filled in (a counted sentence
    chooses its form by ``n``). Raises ``KeyError`` for an unknown key."""
    return say(MESSAGES[key], lang, **fields)


def outcome_key(outcome: Outcome) -> str:
    """The key of the sentence that says who won ``outcome`` and why: one per
    :class:`~hanamikoji.core.outcome.Termination`, and ``outcome_charm_over_geishas``
    when 11 charm beat the other player's 4 geishas in the same scoring. Every interface
    chooses its end sentence here.

    >>> from hanamikoji.core.outcome import Termination
    >>> outcome_key(Outcome(1, Termination.CHARM, (9, 12), (4, 3), 1))
    'outcome_charm_over_geishas'
    >>> outcome_key(Outcome(None, Termination.SHARED_WIN, (4, 4), (2, 2), 3))
    'outcome_shared_win'
    """
    if outcome.charm_over_geishas:
        return "outcome_charm_over_geishas"
    return "outcome_" + outcome.termination.value.replace("-", "_")


def command_for(text: str) -> str | None:
    """The prompt command ``text`` names (``help``, ``moves``, ``log``, ``board``,
    ``rules``, ``quit``, ``resign``), or ``None``."""
    return _COMMAND_WORDS.get(text.strip().lower())


def is_yes(text: str) -> bool:
    """Whether an answer means yes in any of the languages."""
    return text.strip().lower() in _YES


Field = Callable[[Lang], str] | int
"""A sentence's field: a number, or a name that depends on the language."""

_ILLEGALITY_KEYS = {
    Illegality.GAME_OVER: "err_game_over",
    Illegality.AWAITING_DEAL: "err_awaiting_deal",
    Illegality.ANSWER_FIRST: "err_answer_first",
    Illegality.NOT_OFFERED: "err_not_offered",
    Illegality.NO_OFFER: "err_no_offer",
    Illegality.ACTION_USED: "err_used",
    Illegality.CARD_COUNT: "err_card_count",
    Illegality.NOT_IN_HAND: "err_not_in_hand",
}


def illegality(error: IllegalMoveError) -> tuple[str, dict[str, Field]]:
    """The sentence that says, to the player who tried it, why a decision is not legal
    now, and its fields: the core's reason, in any language.

    >>> from hanamikoji.core import Game
    >>> game = Game(seed=7, first_player=0)
    >>> try:
    ...     game.push_text("S:B")
    ... except IllegalMoveError as error:
    ...     key, fields = illegality(error)
    >>> message(key, "fr", **{name: field("fr") for name, field in fields.items()})
    'Pas dans votre main : Éventail (Iroha).'
    """
    fields: dict[str, Field] = {}
    if error.action is not None:
        kind = MoveKind(error.action)
        fields["action"] = lambda lang: action_name(kind, lang)
    if error.count is not None:
        fields["n"] = error.count
    if error.cards:
        cards = error.cards
        fields["cards"] = lambda lang: join_list((card_label(card, lang) for card in cards), lang)
    return _ILLEGALITY_KEYS[error.reason], fields


def localized(fields: Mapping[str, object], lang: Lang) -> dict[str, object]:
    """The fields of a sentence with the names (functions of the language) in ``lang``."""
    return {name: field(lang) if callable(field) else field for name, field in fields.items()}
