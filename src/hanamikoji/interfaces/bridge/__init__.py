"""``hanamikoji bridge``: an engine speaking docs/protocol.md, or a built-in bot, played
as a bot account on a server through its bot API (docs/bot-api.md), as ``lichess-bot``
does for UCI engines. Needs httpx and msgspec (``pip install 'hanamikoji[bridge]'``).

The modules: ``api.py`` (HTTP and the NDJSON streams), ``events.py`` (the streams'
lines), ``seat_view.py`` (a seat's ``View`` from the server's ``SeatState``),
``policy.py`` (which challenges to accept), ``players.py`` (the bot or engine of each
game, its time per decision), ``game_loop.py`` (one game), ``game_records.py`` (a
game's record from the seat's side), ``bridge.py`` (the whole).
"""
