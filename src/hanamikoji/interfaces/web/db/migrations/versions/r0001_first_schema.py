"""The schema as it was before migrations: games, decisions, analyses, analysis_runs.

A database made before migrations has exactly these tables and no ``alembic_version``;
``db.database.upgrade_schema`` stamps it with this revision instead of running it.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("first_player", sa.Integer, nullable=False),
        sa.Column("token_hash_0", sa.String(64), nullable=True),
        sa.Column("token_hash_1", sa.String(64), nullable=True),
        sa.Column("bot_seat", sa.Integer, nullable=True),
        sa.Column("bot_level", sa.Integer, nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("rematch_id", sa.String(32), nullable=True),
    )
    op.create_table(
        "decisions",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("text", sa.String(16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "analysis_runs",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("version", sa.String(40), nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in ("analysis_runs", "analyses", "decisions", "games"):
        op.drop_table(table)
