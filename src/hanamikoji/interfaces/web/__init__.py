"""The browser interface: ``hanamikoji serve`` runs a Starlette app on uvicorn.

Modules: :mod:`~.app` (routes and the WebSocket), :mod:`~.hub` (live games, bots,
announcements), :mod:`~.storage` (SQL tables), :mod:`~.writer` (group commit),
:mod:`~.payload` (the one place a game becomes a message), :mod:`~.checks` (validation
of what players send), :mod:`~.catalog` (sentences in EN/ES/FR), and ``static/`` (the
page: HTML, CSS, ES modules, no build step). ``docs/web.md`` describes it all.
"""
