"""Chat at the table (issue 49): the lines of every game's player and spectator rooms,
the lines players reported, and the accounts whose free text a moderator closed.

Revision ID: 0013_chat
Revises: 0012_social
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_chat"
down_revision: str | None = "0012_social"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("author_id", sa.String(16), nullable=True),
        sa.Column("author_name", sa.String(40), nullable=True),
        sa.Column("preset", sa.String(40), nullable=True),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
    )
    op.create_index("ix_chat_lines_game", "chat_lines", ["game_id", "room", "id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("line_id", sa.Integer, nullable=False),
        sa.Column("reporter_id", sa.String(16), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("open", sa.Boolean, nullable=False),
        sa.UniqueConstraint("line_id", "reporter_id", name="uq_chat_reports_line_reporter"),
    )
    op.create_index("ix_chat_reports_open", "chat_reports", ["open"])
    op.create_table(
        "chat_closures",
        sa.Column("player_id", sa.String(16), primary_key=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_closures")
    op.drop_index("ix_chat_reports_open", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_lines_game", table_name="chat_lines")
    op.drop_table("chat_lines")
