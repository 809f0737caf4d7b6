"""Ratings (issue 26): rated games, each account's Glicko-2 rating per variant, and
the history of every rated game's change.

``games.rated`` is true for a game chosen as rated when it was made (``NULL`` or false:
not rated, as every game before this revision). ``ratings`` holds one row per player
and variant (rating, deviation and volatility on the Glicko scale, rated games played,
when it last changed); a player with no row has a new player's rating. ``rating_history``
holds one row per rated game per player (before and after): its primary key
``(game_id, player_id)`` makes rating a game happen once, whichever server gets there
first. Bots have no rows: their ratings are fixed (``bots/ratings.py``).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=True))
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(16), primary_key=True),
        sa.Column("variant", sa.String(40), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_variant_rating", "ratings", ["variant", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(16), primary_key=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("deviation_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
        sa.Column("deviation_after", sa.Float, nullable=False),
        sa.Column("volatility_after", sa.Float, nullable=False),
        sa.Column("opponent_rating", sa.Float, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_rating_history_player", "rating_history", ["player_id", "variant", "created"]
    )


def downgrade() -> None:
    op.drop_index("ix_rating_history_player", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_variant_rating", table_name="ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
