"""Sign-in attempts counted in the database (issue 46): every instance on it shares one
limit per client address and per account name, where each counted its own before (two
instances let one account try 20 wrong passwords a minute under a limit of 10).

``sign_in_attempts`` holds one row per counted key, the SHA-256 of what is counted (an
address or an account name, so neither is kept): the times (ms since the epoch) of its
latest attempts within the window, oldest first, comma-separated, and when the newest
of them leaves the window (``expires_ms``, indexed: expired rows are deleted as
attempts are counted).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "sign_in_attempts",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("attempts", sa.Text, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_sign_in_attempts_expires", "sign_in_attempts", ["expires_ms"])


def downgrade() -> None:
    op.drop_index("ix_sign_in_attempts_expires", table_name="sign_in_attempts")
    op.drop_table("sign_in_attempts")
