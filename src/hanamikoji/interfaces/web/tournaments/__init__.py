"""Tournaments on the server (issue 51): Swiss and arena events built on
``hanamikoji.tournaments``, directed by one instance at a time (``director.py``)."""
