"""The server's and the page's sentences, declared in English by feature (``site.py``,
``table.py``), and how a sentence is said in a language (``lookup.py``)."""
