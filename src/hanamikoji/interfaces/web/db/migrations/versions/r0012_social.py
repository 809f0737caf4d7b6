"""Friends and challenges (issue 49): who follows or blocks whom, who has a page of the
site open on which instance, and the challenges one player sends another (or anyone,
through a link).

``relations`` holds one row per (owner, other) pair: ``follow`` or ``block`` (lichess's
relation: one of the two, never both), indexed by ``other_id`` too (who blocked me).
``player_presence`` holds one row per player per instance that has a page of theirs
open, touched every few seconds while it does (``seen_ms``); a player is online while
one row is fresh. ``challenges`` holds every challenge: its challenger, its named
opponent (``NULL``: an open challenge, for whoever opens its link), its settings, its
status (``open``, ``accepted``, ``declined``, ``cancelled``, ``expired``), the game an
acceptance made and who accepted it, and when it was made and expires (ms).

Revision ID: 0012_social
Revises: 0011_notices
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_social"
down_revision: str | None = "0011_notices"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "relations",
        sa.Column("owner_id", sa.String(16), primary_key=True),
        sa.Column("other_id", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_relations_other", "relations", ["other_id"])
    op.create_table(
        "player_presence",
        sa.Column("player_id", sa.String(16), primary_key=True),
        sa.Column("instance_id", sa.String(32), primary_key=True),
        sa.Column("seen_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_player_presence_instance", "player_presence", ["instance_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("challenger_id", sa.String(16), nullable=False),
        sa.Column("opponent_id", sa.String(16), nullable=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("time_control", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("first", sa.String(8), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("acceptor_id", sa.String(16), nullable=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_challenges_opponent", "challenges", ["opponent_id", "status"])
    op.create_index("ix_challenges_challenger", "challenges", ["challenger_id", "status"])
    op.create_index("ix_challenges_status", "challenges", ["status", "expires_ms"])


def downgrade() -> None:
    op.drop_index("ix_challenges_status", table_name="challenges")
    op.drop_index("ix_challenges_challenger", table_name="challenges")
    op.drop_index("ix_challenges_opponent", table_name="challenges")
    op.drop_table("challenges")
    op.drop_index("ix_player_presence_instance", table_name="player_presence")
    op.drop_table("player_presence")
    op.drop_index("ix_relations_other", table_name="relations")
    op.drop_table("relations")
