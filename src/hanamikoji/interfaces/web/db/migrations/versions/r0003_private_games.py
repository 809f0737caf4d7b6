"""Spectators (issue 26): the games their creator made private, which nobody may watch.

A table of its own rather than a column of ``games``: a game is private by having a row
here, and every game made before this revision has none (it stays watchable, as a new
game is unless its creator says otherwise).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "private_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("private_games")
