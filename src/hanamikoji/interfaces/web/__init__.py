"""The browser interface: ``hanamikoji serve`` runs a Starlette app on uvicorn, and
``static/`` is the page (HTML, CSS, ES modules, no build step). ``docs/web.md``
describes it all, with the table of this package's modules (``tests/test_docs.py``
holds that table to this folder)."""
