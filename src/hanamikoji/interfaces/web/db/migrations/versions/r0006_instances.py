"""Several servers on one database (issue 27): the live instances, who owns each game's
pending work, and which instance has a page open at which seat.

``instances`` holds one row per running server (its heartbeat in ms since the epoch,
from its own clock); a row whose heartbeat is older than the lease is a dead server's,
and the first instance to see it hands its work over. ``games.owner`` names the instance
that runs a game's pending work (a bot to move, a clock, a rated game's forfeit timer;
``NULL``: nothing pending). ``seat_presence`` holds, per game, seat and instance, how
many pages that instance has open at the seat and since when (ms) that count last
changed: a seat is away when no live instance has a page open there.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "instances",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("started_ms", sa.BigInteger, nullable=False),
        sa.Column("heartbeat_ms", sa.BigInteger, nullable=False),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("owner", sa.String(32), nullable=True))
        batch.create_index("ix_games_owner", ["owner"])
    op.create_table(
        "seat_presence",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("instance_id", sa.String(32), primary_key=True),
        sa.Column("pages", sa.Integer, nullable=False),
        sa.Column("changed_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_seat_presence_instance", "seat_presence", ["instance_id"])


def downgrade() -> None:
    op.drop_index("ix_seat_presence_instance", table_name="seat_presence")
    op.drop_table("seat_presence")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_owner")
        batch.drop_column("owner")
    op.drop_table("instances")
