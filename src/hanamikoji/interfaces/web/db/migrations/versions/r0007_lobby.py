"""The lobby shared by every instance on the database (issue 27): its open seeks and its
quick-pairing queue.

``lobby_seeks`` holds one row per open seek: the instance and the page (its client key)
it belongs to, what any instance needs to show it (the seeker's id, name, whether an
account, and rating in the seek's variant) and its settings (variant, time control,
rated, the accepted range, ``NULL``: anyone). ``lobby_queue`` holds one row per page
waiting for a quick pairing: its instance, player, settings, rating in the variant and
since when (ms) it waits. A row goes when it is accepted or paired, withdrawn, or its
page or its instance is gone.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "lobby_seeks",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("instance_id", sa.String(32), nullable=False),
        sa.Column("client_key", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(16), nullable=False),
        sa.Column("player_name", sa.String(40), nullable=False),
        sa.Column("account", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("provisional", sa.Boolean, nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("time_control", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("range_low", sa.Integer, nullable=True),
        sa.Column("range_high", sa.Integer, nullable=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_lobby_seeks_instance", "lobby_seeks", ["instance_id"])
    op.create_index("ix_lobby_seeks_client", "lobby_seeks", ["client_key"])
    op.create_table(
        "lobby_queue",
        sa.Column("client_key", sa.String(16), primary_key=True),
        sa.Column("instance_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("time_control", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("since_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_lobby_queue_instance", "lobby_queue", ["instance_id"])


def downgrade() -> None:
    op.drop_index("ix_lobby_queue_instance", table_name="lobby_queue")
    op.drop_table("lobby_queue")
    op.drop_index("ix_lobby_seeks_client", table_name="lobby_seeks")
    op.drop_index("ix_lobby_seeks_instance", table_name="lobby_seeks")
    op.drop_table("lobby_seeks")
