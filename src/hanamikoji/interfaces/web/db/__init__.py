"""The games database: ``Store`` (``database.py``) opens it and upgrades its schema with
the Alembic migrations of ``migrations/``; ``tables.py`` holds every table; the games',
analyses' and sign-in attempts' queries, and the writer thread, are beside them.
docs/web.md has the table of these modules."""
