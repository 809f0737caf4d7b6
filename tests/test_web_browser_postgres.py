"""The game browser's search on PostgreSQL is index-backed: its plan, read with
``EXPLAIN`` on a database of many games (``benchmarks/game_browser.py``'s fill), uses
the indexes of revisions ``0010_browser`` and ``0016_browser_index`` and never scans the
whole ``games`` table; a player's games, even the heavy player's (2% of every game), come
in order from ``ix_game_seats_player_created``, never sorted."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import load_benchmark
from postgres_db import REASON, URL, postgres_schemas
from sqlalchemy import text

from hanamikoji.interfaces.web.browser.filters import Filters
from hanamikoji.interfaces.web.browser.store import BrowserStore, search_query
from hanamikoji.interfaces.web.db.database import Store

pytestmark = pytest.mark.skipif(URL is None, reason=REASON)


def plan(store: Store, query: Any) -> str:
    """PostgreSQL's plan of ``query`` as text (its bound values inlined)."""
    sql = str(query.compile(store.engine, compile_kwargs={"literal_binds": True}))
    with store.connection() as connection:
        rows = connection.exec_driver_sql("EXPLAIN " + sql).all()
    return "\n".join(str(row[0]) for row in rows)


def test_the_search_uses_the_indexes_and_never_scans_games() -> None:
    bench = load_benchmark("game_browser")
    with postgres_schemas() as new_schema:
        store = Store(new_schema())
        try:
            bench.fill(store, 20_000, 400, batch=5_000)
            with store.transaction() as connection:
                connection.execute(text("ANALYZE"))
            browser = BrowserStore(store)
            player = browser.account(bench.player_name(7))
            assert player is not None
            found = browser.search(Filters(player=player.name), player.id, None, 21)
            assert found, "the player has finished public games"

            for someone in (player.id, "p0"):  # p0: the heavy player
                of_player = plan(store, search_query(Filters(), someone, None, 21))
                assert "ix_game_seats_player_created" in of_player, of_player
                assert "Seq Scan on games" not in of_player, of_player
                assert "Sort" not in of_player, of_player  # in the index's order
            paged = plan(
                store, search_query(Filters(player=player.name), player.id, found[-1].cursor, 21)
            )
            assert "ix_game_seats_player_created" in paged, paged
            assert "Seq Scan on games" not in paged, paged
            won = Filters(player=player.name, variant="classic", result="won")
            assert "Seq Scan on games" not in plan(store, search_query(won, player.id, None, 21))

            newest = plan(store, search_query(Filters(), None, None, 21))
            assert "ix_games_status_created" in newest, newest
            assert "Seq Scan on games" not in newest, newest
        finally:
            store.close()
