"""The analyses of finished games: one row per decision (``analyses``) and one per
complete run (``analysis_runs``), written in one commit, once per game.

>>> from hanamikoji.interfaces.web.db.database import Store
>>> analyses = AnalysisStore(Store("sqlite://"))
>>> analyses.load_analysis("nope") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import analyses, analysis_runs

__all__ = ["AnalysisStore", "StoredAnalysis"]


@dataclass(frozen=True, slots=True)
class StoredAnalysis:
    """A complete analysis: each decision's JSON in ply order, and the run's JSON fields."""

    settings: str
    version: str
    summary: str
    decisions: tuple[str, ...]


class AnalysisStore:
    """The analyses' queries, through ``store``'s transactions."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def save_analysis(self, game_id: str, analysis: StoredAnalysis) -> bool:
        """Record a game's complete analysis, its decisions and its run in one commit;
        ``False`` (nothing written) if the game already has one (another server's)."""
        now = datetime.now(UTC)
        rows = [
            {"game_id": game_id, "ply": ply, "data": data, "created": now}
            for ply, data in enumerate(analysis.decisions, start=1)
        ]
        try:
            with self.store.transaction() as connection:
                connection.execute(
                    insert(analysis_runs).values(
                        game_id=game_id,
                        settings=analysis.settings,
                        version=analysis.version,
                        summary=analysis.summary,
                        finished=now,
                    )
                )
                if rows:
                    connection.execute(insert(analyses), rows)
        except IntegrityError:
            return False
        return True

    def load_analysis(self, game_id: str) -> StoredAnalysis | None:
        """The game's complete analysis, or ``None`` if it has none yet."""
        with self.store.connection() as connection:
            run = connection.execute(
                select(analysis_runs).where(analysis_runs.c.game_id == game_id)
            ).first()
            if run is None:
                return None
            rows = connection.execute(
                select(analyses.c.data)
                .where(analyses.c.game_id == game_id)
                .order_by(analyses.c.ply)
            ).all()
        fields = run._mapping
        return StoredAnalysis(
            settings=fields["settings"],
            version=fields["version"],
            summary=fields["summary"],
            decisions=tuple(str(data) for (data,) in rows),
        )
