"""The web interface's sentences, declared in English (their translations are in the
gettext catalogs: :mod:`hanamikoji.interfaces.i18n`, docs/i18n.md), and the catalog a
page loads for its language.

Game terms (actions, items, charm, markers) are not here: they come from
:mod:`hanamikoji.notation.names` in the edition's words, and the sentences the terminal
interface already has (outcomes, reveal, variants) come from
:mod:`hanamikoji.interfaces.messages`. ``en-2018`` reads the English sentences with the
2018 edition's terms.

>>> text("err_used", "fr", action="Dépôt")
'Vous avez déjà joué Dépôt dans cette manche.'
>>> client_catalog("es")["actions"]
['Secreto', 'Renuncia', 'Regalo', 'Competición']
"""

from __future__ import annotations

from typing import Any

from hanamikoji.bots.levels import LEVELS
from hanamikoji.core.cards import GEISHAS
from hanamikoji.core.moves import ACTIONS
from hanamikoji.interfaces.i18n import (
    PLURAL_RULES,
    page_sentences,
    plural,
    say,
    sentence,
    sentences,
    ui_lang,
)
from hanamikoji.interfaces.messages import MESSAGES
from hanamikoji.interfaces.web.wire.incoming import DEFAULT_LEVEL
from hanamikoji.notation.names import (
    LANGUAGES,
    Lang,
    action_name,
    card_table_faces,
    item_name,
    term,
)

__all__ = ["LANGUAGE_NAMES", "UI", "client_catalog", "text"]

LANGUAGE_NAMES: dict[Lang, str] = {
    "en": "English (2016 edition)",
    "en-2018": "English (2018 edition)",
    "es": "Español",
    "fr": "Français",
    "ja": "日本語",
    "zh-Hant": "繁體中文",
}

UI = sentences(
    # -- refusals (sent by the server)
    sentence("err_not_json", "The message is not JSON."),
    sentence("err_not_object", "The message must be a JSON object."),
    sentence("err_too_long", "The message is too long (at most {limit} characters)."),
    sentence("err_unknown_type", "Unknown kind of message."),
    sentence("err_bad_field", "The field '{field}' is missing or not valid."),
    sentence(
        "err_content_type", "The request must be sent as JSON (Content-Type: application/json)."
    ),
    sentence("err_rate_limited", "Too many requests: try again in {seconds} s."),
    sentence(
        "err_hello_again",
        "This connection already opens a seat; open another one for another seat.",
    ),
    sentence("err_bad_lang", "Unknown language; known: {langs}."),
    sentence("err_hello_first", "The page must first say which seat it opens."),
    sentence("err_bad_token", "This link does not open a seat of this game."),
    sentence("err_origin", "Connections from another site are not accepted."),
    sentence("err_not_your_turn", "It is not your turn."),
    sentence("err_not_a_move", "'{text}' is not a decision."),
    sentence(
        "err_stale",
        "The game has moved on since your page last heard of it; here is the current table.",
    ),
    sentence("err_conflict", "Another decision was recorded first; here is the current table."),
    sentence("err_storage", "The decision could not be saved; nothing changed. Try again."),
    sentence(
        "err_unavailable",
        "The server cannot reach its database just now; nothing changed. Try again in {seconds} s.",
    ),
    sentence("err_not_over", "Only available once the game is over."),
    sentence(
        "err_replaced",
        "This seat was opened on other pages since; this page stopped following the game.",
    ),
    sentence(
        "err_too_many_sockets",
        "Too many pages are open from your address (at most {max}):"
        " close some, and this one reconnects.",
    ),
    sentence("seat_reopen", "Play on this page"),
    sentence("err_no_game", "There is no such game."),
    # -- spectators (watch.js, the table read-only)
    sentence("err_spectator", "You are watching this game: a spectator cannot play."),
    sentence("watch_title", "Watching"),
    sentence("watch_status", "{player} to play."),
    sentence("watch_totals", "{player1}: {score1}. {player2}: {score2}."),
    sentence("watch_list_title", "Games to watch"),
    sentence("watch_list_empty", "Nobody is playing a public game right now."),
    sentence("watch_button", "Watch"),
    sentence("private_label", "Private game: nobody can watch it"),
    sentence("lobby_title", "Lobby"),
    # -- the lobby (lobby.js)
    sentence("err_seek_gone", "This seek is no longer open."),
    sentence("err_seek_own", "You cannot accept your own seek."),
    sentence("err_seek_range", "Your rating is outside this seek's range."),
    sentence("err_rated_account", "Rated games need an account."),
    sentence("err_too_many_seeks", "You already have {max} open seeks: cancel one first."),
    sentence("err_pairing", "The game could not be created: try again."),
    sentence("lobby_button", "Lobby"),
    sentence("lobby_sign_in", "Sign in, or play as a guest, to post or accept a seek."),
    sentence("lobby_you", "You play as {name} (rating {rating})"),
    sentence("lobby_post_title", "Post a seek"),
    sentence("lobby_time_label", "Time control"),
    sentence("lobby_time_none", "Untimed"),
    sentence("lobby_rated", "Rated"),
    sentence("lobby_casual", "Casual"),
    sentence("lobby_range_label", "Opponent's rating (optional)"),
    sentence("lobby_range_low", "From"),
    sentence("lobby_range_high", "To"),
    sentence("lobby_post", "Post the seek"),
    sentence("lobby_seeks_title", "Open seeks"),
    sentence("lobby_no_seeks", "No open seek right now."),
    sentence("lobby_accept", "Play"),
    sentence("lobby_cancel", "Cancel"),
    sentence("lobby_seek_line", "{player} ({rating}) · {variant} · {time} · {kind}"),
    sentence("lobby_quick_title", "Quick pairing"),
    sentence("lobby_quick", "Find an opponent"),
    sentence("lobby_quick_stop", "Stop searching"),
    sentence("lobby_searching", "Looking for an opponent near your rating…"),
    sentence("err_hint_friend", "Hints are only given in games against a bot."),
    sentence("err_hint_rated", "Hints are not given in rated games."),
    sentence("err_hint_late", "No hint came in time; ask again in a moment."),
    # -- the start page
    sentence("tagline", "The two-player card game of geishas and their favors."),
    sentence("new_game", "New game"),
    sentence("learn_button", "Learn to play"),
    sentence("opponent_label", "Opponent"),
    sentence("opponent_bot", "A bot"),
    sentence("opponent_friend", "A friend, with a link"),
    sentence("level_label", "Bot level"),
    sentence("level_1", "1 · plays at random"),
    sentence("level_2", "2 · careless"),
    sentence("level_3", "3 · casual"),
    sentence("level_4", "4 · attentive"),
    sentence("level_5", "5 · solid"),
    sentence("level_6", "6 · greedy"),
    sentence("level_7", "7 · plans ahead"),
    sentence("level_8", "8 · strongest"),
    sentence("variant_label", "Rules"),
    sentence("first_label", "Who starts"),
    sentence("first_me", "Me"),
    sentence("first_opponent", "My opponent"),
    sentence("first_random", "Draw at random"),
    sentence("lang_label", "Language"),
    sentence("theme_label", "Theme"),
    sentence("theme_auto", "System"),
    sentence("theme_light", "Light"),
    sentence("theme_dark", "Dark"),
    sentence("deck_label", "Deck"),
    sentence("deck_boxed", "Boxed game"),
    sentence("deck_card_table", "Card table"),
    sentence("start_button", "Start the game"),
    sentence(
        "no_seat",
        "This page needs the link of a seat. Ask the person who created the game for"
        " it, or start a new game.",
    ),
    # -- players and the connection
    sentence("you", "You"),
    sentence("you_are", "You are {player}"),
    sentence("bot_name", "Bot (level {level})"),
    sentence("friend_name", "Your friend"),
    sentence("conn_online", "Connected"),
    sentence("conn_offline", "Connection lost: reconnecting…"),
    sentence("invite_title", "Invite your opponent"),
    sentence(
        "invite_text",
        "Send this link to the person you play with: it opens Player 2's seat. Keep"
        " your own page's address to yourself: it is your seat.",
    ),
    sentence("copy", "Copy"),
    sentence("copied", "Copied"),
    sentence("opponent_away", "Your opponent's page is not open."),
    # -- players: guests, accounts, my games, a player's page (player_routes.py, account.js)
    sentence("err_csrf", "This page's security token is missing or out of date: reload the page."),
    sentence("err_signed_out", "You are not signed in."),
    sentence("err_login_failed", "Wrong name or password."),
    sentence("err_login_rate", "Too many sign-in attempts: try again in {seconds} s."),
    sentence("err_name_length", "A name has {min} to {max} characters."),
    sentence(
        "err_name_chars",
        "A name holds only the letters A to Z, digits, '_' and '-', and begins with a letter"
        " or a digit.",
    ),
    sentence("err_name_reserved", "The name '{name}' is reserved."),
    sentence("err_name_taken", "The name '{name}' is already taken."),
    sentence("err_nickname_length", "A nickname has {min} to {max} characters."),
    sentence(
        "err_nickname_chars", "A nickname holds only letters, digits, spaces and the signs _ - . '"
    ),
    sentence("err_password_length", "A password has {min} to {max} characters."),
    sentence("err_already_account", "You are already signed in as {name}."),
    sentence("err_seat_taken", "This seat already belongs to another player."),
    sentence("err_claim_both", "You already hold the other seat of this game."),
    sentence("err_no_player", "There is no player named '{name}'."),
    sentence("account_sign_in", "Sign in"),
    sentence("account_sign_out", "Sign out"),
    sentence("account_register", "Create an account"),
    sentence("account_guest", "Play as a guest"),
    sentence("account_name", "Name"),
    sentence("account_password", "Password"),
    sentence("account_nickname", "Nickname"),
    sentence("account_name_hint", "{min} to {max} letters A to Z, digits, _ or -"),
    sentence("account_password_hint", "At least {min} characters."),
    sentence(
        "account_guest_hint",
        "No password: your games stay with this browser. Create an account later to keep"
        " them under a name.",
    ),
    sentence(
        "account_upgrade_hint",
        "You play as a guest. An account keeps your games under a name and a password.",
    ),
    sentence("account_close", "Close"),
    sentence("account_menu", "Player: {name}"),
    sentence("account_guest_name", "{name} (guest)"),
    sentence("my_games", "My games"),
    sentence("my_games_ongoing", "Ongoing games"),
    sentence("my_games_finished", "Finished games"),
    sentence("my_games_none", "No games here yet."),
    sentence(
        "my_games_signed_out",
        "Sign in, or play as a guest, and the games you play are kept here.",
    ),
    sentence("my_games_your_turn", "Your turn"),
    sentence("my_games_their_turn", "Their turn"),
    sentence("my_games_entry", "{variant} against {opponent}"),
    sentence("my_games_started", "Started on {date}"),
    sentence("my_games_open", "Open"),
    sentence("anonymous_player", "an anonymous player"),
    sentence("result_won", "Won"),
    sentence("result_lost", "Lost"),
    sentence("result_drawn", "Drawn"),
    sentence("result_aborted", "Aborted"),
    sentence("player_since", "Playing since {date}"),
    sentence("player_recent", "Recent games"),
    # -- ratings (ratings.py, ratings.js): rated games, the leaderboard, the history
    sentence(
        "err_rated_needs_account",
        "Rated games are for accounts: sign in to one (a guest cannot play rated).",
    ),
    sentence("err_rated_variant", "The bots have no ratings in {variant} yet: play it unrated."),
    sentence("rated_label", "Rated"),
    sentence("rated_hint", "(both players need an account; leaving the game loses it)"),
    sentence("rated_change_title", "Ratings"),
    sentence("rated_bot_fixed", "fixed"),
    sentence(
        "rating_provisional_hint",
        "A rating with ? is provisional: too few recent games to be sure of it.",
    ),
    sentence("leaderboard_title", "Leaderboard"),
    sentence(
        "leaderboard_about",
        "Accounts rated in this variant, best first. A rating is provisional while its"
        " deviation is above {bound}: those are listed apart, below.",
    ),
    sentence("leaderboard_provisional", "Provisional ratings"),
    sentence("leaderboard_none", "Nobody here yet."),
    sentence("leaderboard_player", "Player"),
    sentence("leaderboard_rating", "Rating"),
    sentence("leaderboard_games", "Rated games"),
    sentence("rating_title", "Ratings"),
    sentence("rating_none", "No rated games yet."),
    plural("rating_games", "{n} rated game", "{n} rated games"),
    sentence("rating_history_caption", "Rating history in {variant}"),
    sentence("rating_history_date", "Date"),
    sentence("rating_history_change", "Change"),
    sentence("outcome_abandoned", "{winner} wins: the other player left the game."),
    sentence(
        "outcome_unstarted",
        "The game was aborted: a player made no first decision in time. It counts for nobody.",
    ),
    # -- the table
    sentence("round_of", "Round {round}"),
    sentence("round_of_max", "Round {round} of {max}"),
    sentence("your_hand", "Your hand"),
    sentence("your_hidden", "Your face-down cards"),
    sentence("their_hidden", "Their face-down cards"),
    sentence("drawn_card", "just drawn"),
    sentence(
        "geisha_label",
        "{geisha}, {charm} {charm_term}, {item}. {favor}. You: {mine}, opponent: {theirs}.",
    ),
    sentence("favor_you", "Her favor is yours"),
    sentence("favor_them", "Her favor is your opponent's"),
    sentence("favor_neutral", "Her favor is neutral"),
    sentence("favor_moved", "moved"),
    sentence("actions_title", "Action markers"),
    sentence("action_used", "used"),
    sentence("action_free", "available"),
    sentence("status_your_turn", "Your turn: choose an action, then its cards."),
    sentence("status_answer_gift", "{player} offers you a {action}: take one card."),
    sentence("status_answer_competition", "{player} offers you a {action}: take one pair."),
    sentence("status_waiting", "Waiting for {player}…"),
    sentence("status_waiting_answer", "Waiting for {player} to answer your {action}…"),
    sentence("status_over", "The game is over."),
    sentence("choose_action", "Choose an action marker."),
    sentence("choose_split", "{action}: how are the two pairs made?"),
    sentence("confirm", "Confirm"),
    sentence("clear", "Clear"),
    sentence("pair_n", "Pair {n}"),
    sentence("offer_title", "On offer"),
    sentence("take", "Take"),
    # -- the table explains itself (table.js: the numbers, the last decisions, tooltips)
    sentence("variant_name_classic", "classic"),
    sentence("variant_name_three_rounds", "three rounds"),
    sentence("variant_name_french", "French"),
    plural("n_cards", "{n} card", "{n} cards"),
    plural("n_cards_in_hand", "{n} card in hand", "{n} cards in hand"),
    sentence("score_counts", "{charm} {charm_term} · {geishas}"),
    sentence("choose_cards_n", "{action}: choose {cards} from your hand ({chosen}/{count})"),
    sentence("ready_to_play", "Ready to play: {move}"),
    sentence(
        "keys_help",
        "Keys: 1-4 choose an action, then 1-9 its cards; P changes the pairs; Enter confirms, "
        "Esc clears.",
    ),
    sentence("last_decision", "Last decision: {moves}"),
    sentence("tip_last_theirs", "Part of {player}'s last decision."),
    sentence("tip_last_mine", "Part of your last decision."),
    sentence("tip_last_watch", "Part of the last decisions."),
    sentence(
        "tip_action_secret",
        "{action} (1 card): its player puts one card face down. At the end of the round it is "
        "turned up and scores for that player; the other player does not see it before.",
    ),
    sentence(
        "tip_action_trade_off",
        "{action} (2 cards): its player puts two cards face down, out of the round. They "
        "score for nobody, and the other player never sees them.",
    ),
    sentence(
        "tip_action_gift",
        "{action} (3 cards): its player offers three cards face up. The other player takes "
        "one for their side; the other two go to the offerer's side.",
    ),
    sentence(
        "tip_action_competition",
        "{action} (4 cards): its player offers four cards face up in two pairs. The other "
        "player takes one pair for their side; the other pair goes to the offerer's side.",
    ),
    sentence("tip_action_used", "Used this round."),
    sentence("tip_action_free", "Not used yet this round: each action is used once per round."),
    sentence("tip_card", "{geisha}'s {item}: winning her is worth {charm} {charm_term}."),
    sentence("tip_in_hand", "In your hand: only you see it. Play it with an action."),
    sentence(
        "tip_on_my_side",
        "On your side: when the round is scored, whoever has more of {geisha}'s items wins "
        "her favor.",
    ),
    sentence(
        "tip_on_their_side",
        "On {player}'s side: when the round is scored, whoever has more of {geisha}'s items "
        "wins her favor.",
    ),
    sentence(
        "tip_offer_take", "On offer: what you take goes to your side, the rest to {player}'s side."
    ),
    sentence(
        "tip_offer_wait", "On offer: what {player} takes goes to their side, the rest to yours."
    ),
    sentence(
        "tip_my_secret",
        "Your {action}: face down. It is turned up and scores for you at the end of the round.",
    ),
    sentence(
        "tip_my_trade_off", "Your {action}: face down and out of this round; it scores for nobody."
    ),
    sentence(
        "tip_their_secret",
        "{player}'s {action}: a face-down card you cannot see. It scores for them at the end "
        "of the round.",
    ),
    sentence(
        "tip_their_trade_off",
        "{player}'s {action}: face-down cards out of this round. You never see them.",
    ),
    sentence("tip_their_hand", "{player}'s hand: {cards} you cannot see."),
    sentence(
        "tip_geisha",
        "{geisha} ({item}) is worth {charm} {charm_term} to the player who wins her favor.",
    ),
    sentence(
        "tip_favor_you",
        "Her {marker} is on your side. It stays there from round to round, and moves only if "
        "{player} has more of {geisha}'s items at a scoring.",
    ),
    sentence(
        "tip_favor_them",
        "Her {marker} is on {player}'s side. It stays there from round to round, and moves "
        "only if you have more of {geisha}'s items at a scoring.",
    ),
    sentence(
        "tip_favor_watch",
        "Her {marker} is on {player}'s side. It stays there from round to round, and moves "
        "only if {other} has more of {geisha}'s items at a scoring.",
    ),
    sentence(
        "tip_favor_neutral",
        "Her {marker} is in the middle: at a scoring, the player with more of {geisha}'s "
        "items wins it; a tie leaves it where it is. Once won, it stays from round to round.",
    ),
    sentence(
        "tip_score", "{player}: {score}, counted from the geishas whose markers are on that side."
    ),
    sentence(
        "tip_goal",
        "After a round is scored, a player with 4 geishas or 11 {charm_term} wins; 11 "
        "{charm_term} beats 4 geishas.",
    ),
    sentence("tracker_title", "Card tracker"),
    sentence(
        "tracker_hint",
        "Cards you have not seen this round: in your opponent's hand, Secret or"
        " Trade-off, in the deck, or the removed card.",
    ),
    sentence(
        "tracker_hint_watch",
        "Cards not shown face up yet this round: in either player's hand, {secret} or"
        " {tradeoff}, in the deck, or the removed card.",
    ),
    sentence("tracker_toggle", "Show"),
    sentence("log_move", "{player}: {move}"),
    sentence("opponent", "Opponent"),
    # -- scoring and the end
    sentence("summary_you", "You"),
    sentence("summary_them", "Opponent"),
    sentence("summary_marker", "Favor"),
    sentence("summary_totals", "You: {mine}. Opponent: {theirs}."),
    sentence("continue", "Continue"),
    sentence("you_win", "You win!"),
    sentence("you_lose", "You lose."),
    sentence("nobody_wins", "No winner."),
    sentence("shared_win", "A shared win."),
    sentence("reveal_secret", "Secret"),
    sentence("replay", "Replay"),
    sentence("rematch", "Rematch"),
    sentence("rematch_ready", "Your opponent has started a rematch: press Rematch to join it."),
    sentence("download_text", "Download the record (text)"),
    sentence("download_json", "Download the record (JSON)"),
    sentence("replay_title", "Replay"),
    sentence("replay_position", "Decision {ply} of {total}"),
    sentence("replay_deal", "Round {round}: the deal"),
    sentence("replay_first", "First"),
    sentence("replay_prev", "Previous"),
    sentence("replay_next", "Next"),
    sentence("replay_last", "Last"),
    sentence("replay_close", "Back to the table"),
    sentence("replay_removed", "Removed card"),
    sentence("replay_deck", "Deck, top first"),
    sentence("replay_hand", "{player}'s hand"),
    sentence("replay_scored", "Round {round} scored"),
    sentence("close", "Close"),
    # -- the analysis
    sentence("analyse", "Analyse"),
    sentence("analysis_title", "Analysis"),
    sentence("analysis_progress", "Analysing the game: {done} of {total} decisions"),
    sentence("analysis_failed", "The analysis did not finish; try again."),
    sentence(
        "analysis_reading",
        "Each figure is the chance that the player who decided wins the match,"
        " estimated from that player's view of the cards.",
    ),
    sentence("analysis_graph", "Win chance of the player who decided, decision by decision"),
    sentence("analysis_axis_x", "Decision"),
    sentence("analysis_axis_y", "Win chance"),
    sentence("analysis_decision", "R{round} T{turn} {player}: {move}"),
    sentence("analysis_chance", "{chance}%"),
    sentence("analysis_cost", "{label} (−{cost}%)"),
    sentence("analysis_best", "best {move}"),
    sentence("analysis_forced", "forced"),
    sentence("analysis_good", "best or close"),
    sentence("label_inaccuracy", "inaccuracy"),
    sentence("label_mistake", "mistake"),
    sentence("label_blunder", "blunder"),
    sentence(
        "analysis_summary",
        "{player}: {decisions} with a choice, mean cost {cost}%; {inaccuracies},"
        " {mistakes}, {blunders}",
    ),
    # Counted words, one sentence per plural category of the language (the page picks
    # with the browser's Intl.PluralRules: French says "0 gaffe", English "0 blunders").
    plural("n_decisions", "{n} decision", "{n} decisions"),
    plural("n_inaccuracies", "{n} inaccuracy", "{n} inaccuracies"),
    plural("n_mistakes", "{n} mistake", "{n} mistakes"),
    plural("n_blunders", "{n} blunder", "{n} blunders"),
    sentence("analysis_view", "Decision {ply}, from {player}'s side"),
    sentence("analysis_played", "Played"),
    sentence("analysis_best_move", "Best"),
    sentence("analysis_best_cards", "Cards of the best decision"),
    # Clocks (clock.js): the time control, both clocks, the low-time warning, the end.
    sentence("clock_label", "Time control"),
    sentence("clock_none", "Untimed"),
    sentence("clock_realtime", "{minutes} min + {seconds} s per decision"),
    plural("clock_days", "{n} day per decision", "{n} days per decision"),
    sentence("clock_of", "Clock: {player}"),
    sentence("clock_low", "Less than 20 seconds left on your clock."),
    sentence("outcome_time", "{winner} wins on time: the other player's clock ran out."),
    sentence(
        "outcome_aborted",
        "The game was aborted: a clock ran out before each player had made a decision."
        " It counts for nobody.",
    ),
    sentence("waiting_title", "Waiting for you"),
    sentence("waiting_item", "Against {opponent}: {time} left to decide"),
    # -- the rules at hand
    sentence("rules_button", "Rules"),
    # -- the top bar's menu, where its links and preferences do not fit in one row
    sentence("menu_button", "Menu"),
    sentence("rules_close", "Close"),
    sentence("rules_open_page", "Open as a page"),
    sentence("rules_variant_marked", "How a game of {variant} ends is marked ▶."),
    # -- hints (games against a bot)
    sentence("hint_toggle", "Show hints"),
    sentence("hint_button", "Hint"),
    sentence("hint_thinking", "Thinking…"),
    sentence("hint_suggestion", "Suggestion: {move}"),
    sentence(
        "hint_reason",
        "Win chance {value} over {deals}, against {next_value} for the next best ({next}).",
    ),
    sentence("hint_reason_alone", "Win chance {value} over {deals}."),
    sentence("hint_only", "It is your only legal decision."),
    plural("hint_sampled", "{n} sampled deal", "{n} sampled deals"),
    plural("hint_possible", "{n} possible deal", "all {n} possible deals"),
)
"""Each sentence of the server and the page by key, in English; fields in braces."""

_REUSED_MESSAGES = (
    "player",
    "deck_cards",
    "n_geishas",
    "col_geisha",
    "log_title",
    "log_empty",
    "round_scored",
    "secrets_revealed",
    "outcome_charm",
    "outcome_charm_over_geishas",
    "outcome_geishas",
    "outcome_most_geishas",
    "outcome_most_charm",
    "outcome_shared_win",
    "outcome_no_winner",
    "outcome_round_cap",
    "game_over",
    "reveal_title",
    "reveal_round",
    "reveal_dealt",
    "reveal_drawn",
    "removed_card",
    "deck_order",
    "rounds_played",
    "variant_classic",
    "variant_three_rounds",
    "variant_french",
)
"""Sentences of the terminal interface the page uses as they are."""


def text(key: str, lang: Lang, **fields: object) -> str:
    """The sentence ``key`` in ``lang`` with its fields filled in (a counted sentence
    chooses its form by ``n``)."""
    return say(UI.get(key) or MESSAGES[key], lang, **fields)


def client_catalog(lang: Lang) -> dict[str, Any]:
    """Everything a page needs to speak ``lang``: sentences (with ``{field}`` holes; a
    counted one as the list of its forms, with the rule that picks a form), the
    edition's terms, the card-table deck's faces (the same in every language) and the
    difficulty levels (each named by its sentence ``level_N``) with the start page's
    default."""
    compiled = page_sentences(ui_lang(lang))
    return {
        "lang": lang,
        "languages": {code: LANGUAGE_NAMES[code] for code in LANGUAGES},
        "ui": {key: compiled[key] for key in (*UI, *_REUSED_MESSAGES)},
        "plural": PLURAL_RULES[ui_lang(lang)],
        "levels": sorted(LEVELS),
        "default_level": DEFAULT_LEVEL,
        "actions": [action_name(kind, lang) for kind in ACTIONS],
        "items": [item_name(geisha.index, lang) for geisha in GEISHAS],
        "geishas": [geisha.name for geisha in GEISHAS],
        "charms": [geisha.charm for geisha in GEISHAS],
        "colours": [geisha.colour for geisha in GEISHAS],
        "letters": [geisha.letter for geisha in GEISHAS],
        "deck": card_table_faces(),
        "terms": {
            key: term(key, lang)
            for key in (
                "charm",
                "marker",
                "take_gift",
                "take_competition",
                "hidden",
                "colon",
                "list",
            )
        },
    }
