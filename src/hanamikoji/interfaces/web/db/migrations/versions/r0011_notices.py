"""E-mail for correspondence games (issue 49): an account's verified address and its
opt-in to e-mails about its turn (``player_emails``), and the batches sent
(``mail_batches``: one row per player, the last e-mail's time, claimed by one instance).

Revision ID: 0011_notices
Revises: 0010_browser
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_notices"
down_revision: str | None = "0010_browser"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "player_emails",
        sa.Column("player_id", sa.String(16), primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("verified", sa.Boolean, nullable=False),
        sa.Column("notify", sa.Boolean, nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("changed", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "mail_batches",
        sa.Column("player_id", sa.String(16), primary_key=True),
        sa.Column("sent_ms", sa.BigInteger, nullable=False),
        sa.Column("instance_id", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("mail_batches")
    op.drop_table("player_emails")
