"""The lobby (issue 27): open seeks that others accept, and quick pairing by rating,
shared by every instance on the database. ``service.py`` is the lobby an instance serves;
``docs/web.md`` has the table of this folder's modules."""
