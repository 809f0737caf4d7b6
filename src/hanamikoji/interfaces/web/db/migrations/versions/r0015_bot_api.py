"""The bot API (issue 50): personal API tokens of accounts (``api_tokens``: a name,
scopes, the token's SHA-256 hash, when made, last used and revoked) and bot accounts
(``players.bot``, an irreversible upgrade of an account that has played no game).

Revision ID: 0015_bot_api
Revises: 0014_puzzles
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_bot_api"
down_revision: str | None = "0014_puzzles"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(16), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("scopes", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("last_used_ms", sa.BigInteger, nullable=True),
        sa.Column("revoked_ms", sa.BigInteger, nullable=True),
    )
    op.create_index("uq_api_tokens_hash", "api_tokens", ["token_hash"], unique=True)
    op.create_index("ix_api_tokens_player", "api_tokens", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_api_tokens_player", table_name="api_tokens")
    op.drop_index("uq_api_tokens_hash", table_name="api_tokens")
    op.drop_table("api_tokens")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("bot")
