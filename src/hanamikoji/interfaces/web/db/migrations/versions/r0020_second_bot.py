"""A game between two of our bot levels (issue 51: a tournament's), played by the hub
as its bot games are, so it may be watched: ``games.second_bot_level`` is the level of
the bot at the seat other than ``bot_seat`` (NULL: a person, or nobody, sits there).

Revision ID: 0020_second_bot
Revises: 0019_tournaments
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020_second_bot"
down_revision: str | None = "0019_tournaments"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("second_bot_level", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("second_bot_level")
