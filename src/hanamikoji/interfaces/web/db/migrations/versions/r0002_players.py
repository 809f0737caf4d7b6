"""Players (issue 26): guests and accounts, their sessions, the player at each seat of a
game, and the secrets every server on the database shares.

``players.name_key`` is an account's case-folded name, unique (a guest's is ``NULL``);
``game_seats`` has a row only for a seat a player holds (none for bots and anonymous
seats); ``sessions`` keeps the SHA-256 of each session id; ``server_secrets`` the key that
signs session cookies, made by the first server that needs it.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("uq_players_name_key", "players", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_index("ix_sessions_expires", "sessions", ["expires"])
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.String(16), nullable=False),
        sa.Column("claimed", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_game_seats_player_id", "game_seats", ["player_id"])
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in ("server_secrets", "game_seats", "sessions", "players"):
        op.drop_table(table)
