"""The game browser: finished public games searched by player, variant, result, rated and
date, a page at a time; each account's statistics; a player's games exported as one record
file (``docs/web.md``'s ``browser/`` table)."""
