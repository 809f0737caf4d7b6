"""Clocks (issue 26): each game's time control, and how a game ended outside the rules.

``games.clock_kind`` is ``realtime`` or ``correspondence`` (``NULL``: untimed, as every
game before this revision), with ``clock_initial_ms`` and ``clock_increment_ms`` for real
time and ``clock_days`` for correspondence. ``games.termination`` says why a game ended
when its decisions do not: ``time`` (lost on time: ``result`` names the winner) or
``aborted`` (a clock ran out before each side had decided: not rated, ``result`` is
``*``). The clocks themselves are recomputed from ``games.created`` and each decision's
``decisions.created`` (its commit time, to the millisecond), so nothing else is stored.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

COLUMNS = ("clock_kind", "clock_initial_ms", "clock_increment_ms", "clock_days", "termination")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock_kind", sa.String(16), nullable=True))
        batch.add_column(sa.Column("clock_initial_ms", sa.Integer, nullable=True))
        batch.add_column(sa.Column("clock_increment_ms", sa.Integer, nullable=True))
        batch.add_column(sa.Column("clock_days", sa.Integer, nullable=True))
        batch.add_column(sa.Column("termination", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for column in reversed(COLUMNS):
            batch.drop_column(column)
