"""Players: guests and accounts (``accounts.py``), their names, passwords and cookies, their
tables (``store.py``), the session a request comes with (``sessions.py``), and their
routes (``routes.py``)."""
