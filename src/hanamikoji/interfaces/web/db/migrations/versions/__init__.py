"""One Alembic revision per file, each naming the one before it (``down_revision``)."""
