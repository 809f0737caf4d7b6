"""Several server instances on one database: the instances, their heartbeats, the owner
of each game's pending work and who is at each seat (``instances.py``), and the events
they send each other (``events.py``). docs/web.md has the table of these modules."""
