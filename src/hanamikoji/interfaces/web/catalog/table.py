"""The sentences of a game's table, declared in English: the table and how it explains
itself, scoring and the end, the analysis, the rules at hand, the menu, hints (their
translations are in the gettext catalogs, docs/i18n.md).
"""

from __future__ import annotations

from hanamikoji.interfaces.i18n import plural, sentence, sentences

__all__ = ["TABLE"]

TABLE = sentences(
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
        "The game was aborted before each player had made a decision. It counts for nobody.",
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
    # -- your turn, wherever you are (notices.js): the tab's title, the top bar's
    # preference, the browser's notification
    sentence("turn_title", "({count}) Your turn · Hanamikoji"),
    sentence("turn_pref_label", "Your turn"),
    sentence("turn_pref_title", "Title"),
    sentence("turn_pref_sound", "Sound"),
    sentence("turn_pref_notify", "Notify"),
    sentence("turn_pref_both", "Sound + notify"),
    sentence(
        "turn_notify_denied",
        "The browser does not allow this page's notifications: allow them in its settings.",
    ),
    sentence("turn_notify_title", "Your turn · Hanamikoji"),
    sentence("turn_notify_body", "It is your turn."),
)
"""The table's sentences by key, in English; fields in braces."""
