"""Puzzles (issue 52): each puzzle's Glicko-2 rating, each account's puzzle rating, every
account's attempts (one per account and puzzle), and the puzzles players made from their
own games.

Revision ID: 0014_puzzles
Revises: 0013_chat
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_puzzles"
down_revision: str | None = "0013_chat"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
    )
    op.create_table(
        "puzzle_solvers",
        sa.Column("player_id", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(16), nullable=False),
        sa.Column("puzzle_id", sa.String(64), nullable=False),
        sa.Column("answer", sa.String(16), nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
        sa.UniqueConstraint("player_id", "puzzle_id", name="uq_puzzle_attempts_player_puzzle"),
    )
    op.create_index("ix_puzzle_attempts_player", "puzzle_attempts", ["player_id", "id"])
    op.create_table(
        "player_puzzles",
        sa.Column("puzzle_id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_player_puzzles_player", "player_puzzles", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_player_puzzles_player", table_name="player_puzzles")
    op.drop_table("player_puzzles")
    op.drop_index("ix_puzzle_attempts_player", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_solvers")
    op.drop_table("puzzle_ratings")
