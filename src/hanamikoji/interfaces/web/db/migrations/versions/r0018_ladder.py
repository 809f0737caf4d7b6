"""The bot ladder (issue 50): the bot accounts on it (``ladder_bots``: variants, cap of
concurrent games, when they joined) and the games it made (``ladder_games``).

Revision ID: 0018_ladder
Revises: 0017_chat_rate
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_ladder"
down_revision: str | None = "0017_chat_rate"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "ladder_bots",
        sa.Column("player_id", sa.String(16), primary_key=True),
        sa.Column("variants", sa.String(200), nullable=False),
        sa.Column("concurrency", sa.Integer, nullable=False),
        sa.Column("joined_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "ladder_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("player_0", sa.String(16), nullable=False),
        sa.Column("player_1", sa.String(16), nullable=False),
        sa.Column("made_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_ladder_games_player_0", "ladder_games", ["player_0", "variant", "made_ms"])
    op.create_index("ix_ladder_games_player_1", "ladder_games", ["player_1", "variant", "made_ms"])


def downgrade() -> None:
    op.drop_index("ix_ladder_games_player_1", table_name="ladder_games")
    op.drop_index("ix_ladder_games_player_0", table_name="ladder_games")
    op.drop_table("ladder_games")
    op.drop_table("ladder_bots")
