"""The game browser (issue 49): every finished public game searchable by player, variant,
result, rated and date, newest first, a page at a time.

Two indexes, no new table or column: ``ix_games_status_created`` (status, created, id)
gives the newest finished games in order (the search without a player, and the keyset
cursor's ``(created, id)``), and ``ix_game_seats_player_game`` (player_id, game_id, seat)
gives a player's games and seats from the index alone, each game then read by its key.

Revision ID: 0010_browser
Revises: 0009
"""

from __future__ import annotations

from alembic import op

revision = "0010_browser"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index("ix_games_status_created", "games", ["status", "created", "id"])
    op.create_index("ix_game_seats_player_game", "game_seats", ["player_id", "game_id", "seat"])


def downgrade() -> None:
    op.drop_index("ix_game_seats_player_game", table_name="game_seats")
    op.drop_index("ix_games_status_created", table_name="games")
