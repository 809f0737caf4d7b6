"""An account's puzzle streak on the server (issue 52): the streak under way and the
account's best (``puzzle_streaks``), so a streak follows the player across browsers.

Revision ID: 0021_puzzle_streak
Revises: 0020_second_bot
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021_puzzle_streak"
down_revision: str | None = "0020_second_bot"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "puzzle_streaks",
        sa.Column("player_id", sa.String(16), primary_key=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("ids", sa.Text, nullable=False),
        sa.Column("at", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("ended", sa.Boolean, nullable=False),
        sa.Column("best", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("started_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_streaks")
