"""Alembic's environment script: runs the migrations on the connection the caller passes.

:func:`hanamikoji.interfaces.web.db.database.upgrade_schema` opens the transaction (and, on
PostgreSQL, takes the advisory lock) and hands its connection over in
``config.attributes["connection"]``; the migrations run inside that transaction.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from hanamikoji.interfaces.web.db.tables import metadata


def run_migrations(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()


# Alembic runs this file as the module ``env_py`` for each command; pytest's doctest
# collection only imports it (as ``hanamikoji.interfaces.web.db.migrations.env``), when
# there is no migration under way and nothing to run.
if __name__ == "env_py":
    run_migrations(context.config.attributes["connection"])
