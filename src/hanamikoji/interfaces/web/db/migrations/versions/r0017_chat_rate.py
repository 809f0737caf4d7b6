"""The chat's rate limit across instances (issue 49): a player's recent lines are
counted in the database as each line is written, by ``ix_chat_lines_author``
(author_id, created_ms).

Revision ID: 0017_chat_rate
Revises: 0016_browser_index
"""

from __future__ import annotations

from alembic import op

revision = "0017_chat_rate"
down_revision: str | None = "0016_browser_index"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index("ix_chat_lines_author", "chat_lines", ["author_id", "created_ms"])


def downgrade() -> None:
    op.drop_index("ix_chat_lines_author", table_name="chat_lines")
