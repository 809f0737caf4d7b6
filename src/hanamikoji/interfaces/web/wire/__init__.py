"""Typed messages both ways: what the server takes in (``incoming.py``), what it sends
(``outgoing.py``, ``lobby_messages.py``, ``answers.py``), and the page's TypeScript
declarations generated from them (``typescript.py``)."""
