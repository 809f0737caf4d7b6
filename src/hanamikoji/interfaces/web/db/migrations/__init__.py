"""The games database's schema changes, as Alembic migrations (``versions/``, one file each).

:func:`hanamikoji.interfaces.web.db.database.upgrade_schema` runs them when a ``Store`` opens a
database; ``env.py`` is Alembic's environment script for that run.
"""
