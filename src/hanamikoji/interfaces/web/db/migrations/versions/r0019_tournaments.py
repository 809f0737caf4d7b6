"""Tournaments on the server (issue 51): a tournament's settings and the library's
event as JSON with a version for compare-and-set (``tournaments``), who entered it
(``tournament_entrants``), and its games' round and board (``tournament_games``).

Revision ID: 0019_tournaments
Revises: 0018_ladder
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_tournaments"
down_revision: str | None = "0018_ladder"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("creator_id", sa.String(16), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("time_control", sa.String(24), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("minutes", sa.Integer, nullable=True),
        sa.Column("starts_ms", sa.BigInteger, nullable=False),
        sa.Column("invite_code", sa.String(32), nullable=True),
        sa.Column("entry", sa.String(8), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_tournaments_status_starts", "tournaments", ["status", "starts_ms"])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(16), primary_key=True),
        sa.Column("entrant_id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(16), nullable=True),
        sa.Column("bot_level", sa.Integer, nullable=True),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("joined_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_tournament_entrants_player", "tournament_entrants", ["player_id"])
    op.create_table(
        "tournament_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("board", sa.Integer, nullable=False),
    )
    op.create_index(
        "ix_tournament_games_tournament", "tournament_games", ["tournament_id", "round", "board"]
    )


def downgrade() -> None:
    op.drop_index("ix_tournament_games_tournament", table_name="tournament_games")
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_entrants_player", table_name="tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index("ix_tournaments_status_starts", table_name="tournaments")
    op.drop_table("tournaments")
