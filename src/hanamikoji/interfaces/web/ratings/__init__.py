"""Rated games: the rating model and its rules (``model.py``), untimed rated games' forfeits
(``forfeits.py``), the ratings' store (``store.py``) and routes (``routes.py``)."""
