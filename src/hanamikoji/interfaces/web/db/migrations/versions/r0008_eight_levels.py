"""The eight difficulty levels (issue 29): a stored bot game keeps the bot it was
played against.

The five levels were 1 ``random``, 2 ``greedy``, 3 ``ismcts`` at 0.2 s, 4 ``ismcts`` at
0.5 s and 5 the ``expert``; the eight are 1 ``random``, 2-5 the weakened greedy, 6
``greedy``, 7 ``ismcts`` at 400 playouts and 8 the ``expert`` (``bots/levels.py``). A
game's ``bot_level`` is renumbered to the same bot, or the nearest one: 1 stays, 2 (greedy)
becomes 6, 3 and 4 (the searches below the expert) become 7, 5 (the expert) becomes 8.
An unfinished game then goes on against the bot it began with, and a finished one is
named after it.

Downgrading maps back 6 to 2, 7 to 3 and 8 to 5, and the weakened levels 2-5, which the
five levels lacked, to 2 (greedy, the nearest).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None

UP = {2: 6, 3: 7, 4: 7, 5: 8}
DOWN = {2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3, 8: 5}


def _renumber(mapping: dict[int, int]) -> None:
    # One statement: a level is renumbered once, never again by a later rule.
    cases = " ".join(f"WHEN {old} THEN {new}" for old, new in mapping.items())
    op.execute(
        f"UPDATE games SET bot_level = CASE bot_level {cases} ELSE bot_level END"
        " WHERE bot_level IS NOT NULL"
    )


def upgrade() -> None:
    _renumber(UP)


def downgrade() -> None:
    _renumber(DOWN)
