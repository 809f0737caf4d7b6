"""Games on the web: the live games and their hub, clocks, payloads, checks, the bots'
workers, hints and analyses, and the game routes and sockets (``docs/web.md``'s
``games/`` table)."""
