"""The game browser at a million games (issue 49): a player's games, newest first, from
one index.

Revision 0010_browser listed a player's games through ``ix_game_seats_player_game``
(player_id, game_id, seat): every seat of the player was read, its game fetched by key,
and the lot sorted by the game's start, so the page of a player with 17,000 games took
800 ms. Each seat now carries its game's start (``game_created``, a copy of
``games.created``, which never changes), and ``ix_game_seats_player_created``
(player_id, game_created, game_id) hands a player's games newest first: a page reads
about as many seats as it shows.

The upgrade backfills the copy from the games (a seat whose game is gone takes its own
``claimed`` time), then makes it required.

Revision ID: 0016_browser_index
Revises: 0015_bot_api
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_browser_index"
down_revision: str | None = "0015_bot_api"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("game_seats", sa.Column("game_created", sa.DateTime(timezone=True)))
    op.execute(
        "UPDATE game_seats SET game_created ="
        " (SELECT games.created FROM games WHERE games.id = game_seats.game_id)"
    )
    op.execute("UPDATE game_seats SET game_created = claimed WHERE game_created IS NULL")
    with op.batch_alter_table("game_seats") as batch:
        batch.alter_column("game_created", existing_type=sa.DateTime(timezone=True), nullable=False)
    op.create_index(
        "ix_game_seats_player_created", "game_seats", ["player_id", "game_created", "game_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_game_seats_player_created", table_name="game_seats")
    with op.batch_alter_table("game_seats") as batch:
        batch.drop_column("game_created")
