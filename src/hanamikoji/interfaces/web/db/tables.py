"""Every SQL table of the web server: the model the code queries.

The database gets these tables from the Alembic migrations in ``migrations/versions/``,
which :func:`~hanamikoji.interfaces.web.db.database.upgrade_schema` runs whenever a
:class:`~hanamikoji.interfaces.web.db.database.Store` opens a database
(``tests/test_web_migrations.py`` checks that the two agree). The queries are beside
their feature: the games' in ``games.py``, the players' in ``players/store.py``, the
ratings' in ``ratings/store.py``, the lobby's in ``lobby/store.py``, friends' and
challenges' in ``social/``, the chat's in ``chat/store.py``, the puzzles' in
``puzzles/store.py``, the instances' in
``cluster/instances.py``.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

__all__ = [
    "analyses",
    "analysis_runs",
    "api_tokens",
    "challenges",
    "chat_closures",
    "chat_lines",
    "chat_reports",
    "decisions",
    "game_seats",
    "games",
    "instances",
    "ladder_bots",
    "ladder_games",
    "lobby_queue",
    "lobby_seeks",
    "mail_batches",
    "metadata",
    "player_emails",
    "player_presence",
    "player_puzzles",
    "players",
    "private_games",
    "puzzle_attempts",
    "puzzle_ratings",
    "puzzle_solvers",
    "puzzle_streaks",
    "rating_history",
    "ratings",
    "relations",
    "seat_presence",
    "server_secrets",
    "sessions",
    "sign_in_attempts",
    "tournament_entrants",
    "tournament_games",
    "tournaments",
]

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", String(40), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("first_player", Integer, nullable=False),
    Column("token_hash_0", String(64), nullable=True),
    Column("token_hash_1", String(64), nullable=True),
    Column("bot_seat", Integer, nullable=True),
    Column("bot_level", Integer, nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("status", String(16), nullable=False),
    Column("result", String(8), nullable=True),
    Column("rematch_id", String(32), nullable=True),
    # Revision 0004: the time control (NULL kind: untimed) and why a game ended when its
    # decisions do not say (games/clocks.py recomputes the clocks from the decisions' times).
    Column("clock_kind", String(16), nullable=True),
    Column("clock_initial_ms", Integer, nullable=True),
    Column("clock_increment_ms", Integer, nullable=True),
    Column("clock_days", Integer, nullable=True),
    Column("termination", String(16), nullable=True),
    # Revision 0005: a rated game (NULL or false: not rated).
    Column("rated", Boolean, nullable=True),
    # Revision 0006: the instance that runs the game's pending work (NULL: none).
    Column("owner", String(32), nullable=True),
    Index("ix_games_owner", "owner"),
    # Revision 0010_browser: the game browser's newest finished games first (browser/).
    Index("ix_games_status_created", "status", "created", "id"),
    # Revision 0020_second_bot: the level of a second bot, at the seat other than bot_seat
    # (a game between two of our levels: a tournament's).
    Column("second_bot_level", Integer, nullable=True),
)

decisions = Table(
    "decisions",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("ply", Integer, primary_key=True, autoincrement=False),
    Column("text", String(16), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)


analyses = Table(
    "analyses",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("ply", Integer, primary_key=True, autoincrement=False),
    Column("data", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)
"""One row per decision of an analysed game: the decision's analysis as JSON text
(``bots/analysis.py``'s JSON form), keyed by its ply (from 1, as the analysis numbers it)."""

analysis_runs = Table(
    "analysis_runs",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("settings", Text, nullable=False),
    Column("version", String(40), nullable=False),
    Column("summary", Text, nullable=False),
    Column("finished", DateTime(timezone=True), nullable=False),
)
"""A game whose analysis is complete: its settings, the package's version, the per-player
summary (JSON text). Written in the same commit as the decisions' rows."""

# -- spectators (revision 0003) ------------------------------------------------------

private_games = Table(
    "private_games",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
)
"""Games their creator made private: nobody may watch them. Every other game may be
watched (a spectator sees only what is public until the end)."""

# -- ratings (revision 0005; their queries are in ratings/store.py) --------------------

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(16), primary_key=True),
    Column("variant", String(40), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
    Index("ix_ratings_variant_rating", "variant", "rating"),
)
"""Each player's Glicko-2 rating per variant (no row: a new player's); bots have none."""

rating_history = Table(
    "rating_history",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("player_id", String(16), primary_key=True),
    Column("variant", String(40), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("score", Float, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("deviation_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("deviation_after", Float, nullable=False),
    Column("volatility_after", Float, nullable=False),
    Column("opponent_rating", Float, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Index("ix_rating_history_player", "player_id", "variant", "created"),
)
"""One row per rated game per player; the key makes a game rated once."""

# -- players (revision 0002; their queries are in players/store.py) --------------------

players = Table(
    "players",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(40), nullable=False),
    Column("name_key", String(40), nullable=True),
    Column("password_hash", String(255), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("bot", Boolean, nullable=False, server_default=false()),
    Index("uq_players_name_key", "name_key", unique=True),
)
"""Guests and accounts. ``name_key`` is an account's case-folded name (unique: two
accounts never share a name, whatever its case) and ``NULL`` for a guest, whose nickname
need not be unique; ``password_hash`` is an account's Argon2 hash; ``bot`` marks a bot
account (revision 0014: an irreversible upgrade, ``bots/``)."""

sessions = Table(
    "sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("player_id", String(16), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
    Index("ix_sessions_player_id", "player_id"),
    Index("ix_sessions_expires", "expires"),
)
"""Signed-in browsers: the SHA-256 hash of the session id their cookie carries."""

game_seats = Table(
    "game_seats",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("player_id", String(16), nullable=False),
    Column("claimed", DateTime(timezone=True), nullable=False),
    Index("ix_game_seats_player_id", "player_id"),
    # Revision 0010_browser: a player's games without reading the seats' rows (browser/).
    Index("ix_game_seats_player_game", "player_id", "game_id", "seat"),
    # Revision 0016_browser_index: the game's start, copied, so that a player's games
    # come newest first from one index (browser/store.py).
    Column("game_created", DateTime(timezone=True), nullable=False),
    Index("ix_game_seats_player_created", "player_id", "game_created", "game_id"),
)
"""The player at a seat of a game; no row: a bot, or a seat nobody has named. The
primary key means a seat is named once: of two claims at once, one wins.
``game_created`` is the game's ``created`` (which never changes), written with the seat."""

instances = Table(
    # Revision 0006: the running servers and their heartbeats (cluster/instances.py).
    "instances",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("started_ms", BigInteger, nullable=False),
    Column("heartbeat_ms", BigInteger, nullable=False),
)

seat_presence = Table(
    # Revision 0006: pages open at each seat, per instance (cluster/instances.py).
    "seat_presence",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("instance_id", String(32), primary_key=True),
    Column("pages", Integer, nullable=False),
    Column("changed_ms", BigInteger, nullable=False),
    Index("ix_seat_presence_instance", "instance_id"),
)

lobby_seeks = Table(
    # Revision 0007: the open seeks of the lobby, each its instance's page's (lobby/).
    "lobby_seeks",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("instance_id", String(32), nullable=False),
    Column("client_key", String(16), nullable=False),
    Column("player_id", String(16), nullable=False),
    Column("player_name", String(40), nullable=False),
    Column("account", Boolean, nullable=False),
    Column("rating", Float, nullable=False),
    Column("provisional", Boolean, nullable=False),
    Column("variant", String(40), nullable=False),
    Column("time_control", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("range_low", Integer, nullable=True),
    Column("range_high", Integer, nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    Index("ix_lobby_seeks_instance", "instance_id"),
    Index("ix_lobby_seeks_client", "client_key"),
)

lobby_queue = Table(
    # Revision 0007: the pages waiting for a quick pairing (lobby/).
    "lobby_queue",
    metadata,
    Column("client_key", String(16), primary_key=True),
    Column("instance_id", String(32), nullable=False),
    Column("player_id", String(16), nullable=False),
    Column("variant", String(40), nullable=False),
    Column("time_control", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("rating", Float, nullable=False),
    Column("since_ms", BigInteger, nullable=False),
    Index("ix_lobby_queue_instance", "instance_id"),
)

sign_in_attempts = Table(
    # Revision 0009: sign-in attempts per client address and per account name, counted
    # in the database so that every instance on it shares one limit (issue 46).
    "sign_in_attempts",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("attempts", Text, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
    Index("ix_sign_in_attempts_expires", "expires_ms"),
)
"""One row per counted key (``attempts.attempt_key``: the SHA-256 of what is counted, so no
address or name is kept): the times (ms) of its latest attempts within the window,
oldest first, comma-separated; the row goes once its newest attempt is out of the window
(``expires_ms``)."""

# -- e-mail for correspondence games (revision 0011_notices; queries in notices/store.py) --

player_emails = Table(
    "player_emails",
    metadata,
    Column("player_id", String(16), primary_key=True),
    Column("address", String(254), nullable=False),
    Column("verified", Boolean, nullable=False),
    Column("notify", Boolean, nullable=False),
    Column("lang", String(8), nullable=False),
    Column("changed", DateTime(timezone=True), nullable=False),
)
"""An account's e-mail address (one at most), whether its link was followed
(``verified``), whether the player opted in to e-mails about their turn in correspondence
games (``notify``, only once verified), and the language they are written in. Never
shown to anybody but the account itself."""

mail_batches = Table(
    "mail_batches",
    metadata,
    Column("player_id", String(16), primary_key=True),
    Column("sent_ms", BigInteger, nullable=False),
    Column("instance_id", String(32), nullable=False),
)
"""When a player was last sent their games waiting (ms), and by which instance: an
instance claims a batch by moving ``sent_ms`` from the value it read to now, so of two
instances looking at once one sends it."""
# -- friends and challenges (revision 0012_social, social/) ------------------------------

relations = Table(
    "relations",
    metadata,
    Column("owner_id", String(16), primary_key=True),
    Column("other_id", String(16), primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Index("ix_relations_other", "other_id"),
)
"""Who follows or blocks whom: one row per (owner, other), ``follow`` or ``block``."""

player_presence = Table(
    "player_presence",
    metadata,
    Column("player_id", String(16), primary_key=True),
    Column("instance_id", String(32), primary_key=True),
    Column("seen_ms", BigInteger, nullable=False),
    Index("ix_player_presence_instance", "instance_id"),
)
"""A player's pages open on an instance, touched while they are (online: a fresh row)."""

challenges = Table(
    "challenges",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("challenger_id", String(16), nullable=False),
    Column("opponent_id", String(16), nullable=True),
    Column("variant", String(40), nullable=False),
    Column("time_control", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("first", String(8), nullable=False),
    Column("status", String(12), nullable=False),
    Column("game_id", String(32), nullable=True),
    Column("acceptor_id", String(16), nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
    Index("ix_challenges_opponent", "opponent_id", "status"),
    Index("ix_challenges_challenger", "challenger_id", "status"),
    Index("ix_challenges_status", "status", "expires_ms"),
)
"""Challenges: a named opponent (``NULL``: open, through its link), the settings, the
status (``open``, ``accepted``, ``declined``, ``cancelled``, ``expired``), the game an
acceptance made."""

server_secrets = Table(
    "server_secrets",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("value", String(128), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)
"""Secrets every server on the database shares (the key that signs session cookies),
made by the first server that needs one."""

# -- chat (revision 0011; its queries are in chat/store.py) -----------------------------

chat_lines = Table(
    "chat_lines",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), nullable=False),
    Column("room", String(16), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("author_id", String(16), nullable=True),
    Column("author_name", String(40), nullable=True),
    Column("preset", String(40), nullable=True),
    Column("text", Text, nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    Column("ply", Integer, nullable=False),
    Index("ix_chat_lines_game", "game_id", "room", "id"),
    # Revision 0017_chat_rate: a player's recent lines, counted on every instance.
    Index("ix_chat_lines_author", "author_id", "created_ms"),
)
"""Every chat line of every game: its room (``player`` or ``spectator``), who said it
(the seat, the player and their name then; ``NULL`` for a seat opened by its link
alone), a preset phrase's key or free text, when, and at which ply."""

chat_reports = Table(
    "chat_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("line_id", Integer, nullable=False),
    Column("reporter_id", String(16), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("open", Boolean, nullable=False),
    UniqueConstraint("line_id", "reporter_id", name="uq_chat_reports_line_reporter"),
    Index("ix_chat_reports_open", "open"),
)
"""A line reported by a player, once per reporter; open until a moderator dismisses it."""

chat_closures = Table(
    "chat_closures",
    metadata,
    Column("player_id", String(16), primary_key=True),
    Column("created_ms", BigInteger, nullable=False),
)
"""The accounts whose free text a moderator closed (``hanamikoji moderate close-chat``)."""


# -- puzzles (puzzles/store.py) -----------------------------------------------------------

puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("puzzle_id", String(64), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
)
"""Each puzzle's Glicko-2 rating once an account tried it (before: its level's), how many
accounts tried it and how many solved it."""

puzzle_solvers = Table(
    "puzzle_solvers",
    metadata,
    Column("player_id", String(16), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
)
"""Each account's puzzle rating (Glicko-2), its attempts and puzzles solved."""

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(16), nullable=False),
    Column("puzzle_id", String(64), nullable=False),
    Column("answer", String(16), nullable=False),
    Column("correct", Boolean, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    UniqueConstraint("player_id", "puzzle_id", name="uq_puzzle_attempts_player_puzzle"),
    Index("ix_puzzle_attempts_player", "player_id", "id"),
)
"""An account's answer to a puzzle, once per account and puzzle (the first answer is the
one rated), and its puzzle rating before and after."""

player_puzzles = Table(
    "player_puzzles",
    metadata,
    Column("puzzle_id", String(64), primary_key=True),
    Column("player_id", String(16), nullable=False),
    Column("game_id", String(32), nullable=False),
    Column("data", Text, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Index("ix_player_puzzles_player", "player_id"),
)
"""The puzzles players made from a decision of their own games ("Make this a puzzle"):
the puzzle's file line (``hanamikoji.puzzles.store.puzzle_json``)."""

puzzle_streaks = Table(
    "puzzle_streaks",
    metadata,
    Column("player_id", String(16), primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("ids", Text, nullable=False),
    Column("at", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("ended", Boolean, nullable=False),
    Column("best", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("started_ms", BigInteger, nullable=False),
)
"""An account's puzzle streak (revision 0021; ``web/puzzles/streaks.py``): its puzzles'
ids (comma-separated, easiest first), the one to answer now (``at``), how many were
solved, whether it ended (a miss, or the last one answered), the account's best streak,
and a version for compare-and-set."""
# -- the bot API (revision 0014; its queries are in db/api_tokens.py) --------------------

api_tokens = Table(
    "api_tokens",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("player_id", String(16), nullable=False),
    Column("name", String(40), nullable=False),
    Column("scopes", String(64), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("last_used_ms", BigInteger, nullable=True),
    Column("revoked_ms", BigInteger, nullable=True),
    Index("uq_api_tokens_hash", "token_hash", unique=True),
    Index("ix_api_tokens_player", "player_id"),
)
"""Personal API tokens of accounts: a name, its scopes (space-separated: ``bot:play``,
``read``), the SHA-256 hash of the token (never the token), when it was made, last used
and revoked (``NULL``: in use)."""

# -- the bot ladder (revision 0018_ladder; its queries are in ladder/store.py) ----------

ladder_bots = Table(
    "ladder_bots",
    metadata,
    Column("player_id", String(16), primary_key=True),
    Column("variants", String(200), nullable=False),
    Column("concurrency", Integer, nullable=False),
    Column("joined_ms", BigInteger, nullable=False),
)
"""The bot accounts on the ladder: the variants they play (comma-separated), their cap
of concurrent games, when they joined. Leaving deletes the row."""

ladder_games = Table(
    "ladder_games",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("variant", String(40), nullable=False),
    Column("player_0", String(16), nullable=False),
    Column("player_1", String(16), nullable=False),
    Column("made_ms", BigInteger, nullable=False),
    Index("ix_ladder_games_player_0", "player_0", "variant", "made_ms"),
    Index("ix_ladder_games_player_1", "player_1", "variant", "made_ms"),
)
"""The games the ladder made: its variant and players (seat 0, seat 1), when."""

# -- tournaments (revision 0019; their queries are in tournaments/store.py) -------------

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("creator_id", String(16), nullable=False),
    Column("name", String(60), nullable=False),
    Column("variant", String(40), nullable=False),
    Column("time_control", String(24), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("rounds", Integer, nullable=True),
    Column("minutes", Integer, nullable=True),
    Column("starts_ms", BigInteger, nullable=False),
    Column("invite_code", String(32), nullable=True),
    Column("entry", String(8), nullable=False),
    Column("status", String(10), nullable=False),
    Column("event", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("ended_ms", BigInteger, nullable=True),
    Index("ix_tournaments_status_starts", "status", "starts_ms"),
)
"""Tournaments (``tournaments/``): who made one, its settings (``kind`` ``swiss`` with
``rounds``, or ``arena`` with ``minutes``; ``entry`` ``people``, ``bots`` or ``both``; an
``invite_code`` for one by invitation, ``NULL`` for an open one), its ``status``
(``created``, ``started``, ``finished``) and the library's value as JSON (``event``:
``hanamikoji.tournaments``' ``to_json``), written by compare-and-set on ``version``."""

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column("tournament_id", String(16), primary_key=True),
    Column("entrant_id", String(16), primary_key=True),
    Column("player_id", String(16), nullable=True),
    Column("bot_level", Integer, nullable=True),
    Column("bot", Boolean, nullable=False),
    Column("name", String(40), nullable=False),
    Column("joined_ms", BigInteger, nullable=False),
    Index("ix_tournament_entrants_player", "player_id"),
)
"""Who entered a tournament: an account (``player_id``, a bot account's too) or one of
our bot levels (``bot_level``, its ``entrant_id`` ``level:N``), as the event names them."""

tournament_games = Table(
    "tournament_games",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("tournament_id", String(16), nullable=False),
    Column("round", Integer, nullable=False),
    Column("board", Integer, nullable=False),
    Index("ix_tournament_games_tournament", "tournament_id", "round", "board"),
)
"""A tournament's games: the Swiss round (from 1) and board (from 0), or an arena's
game number (``round`` 0, ``board`` its index in the event)."""
