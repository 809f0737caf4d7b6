"""A tournament as its pages see it (``wire/tournament_messages.py``): its card in the
list, its standings from the library's (``standings`` for a Swiss,
``arena_standings`` for an arena), its pairings, and the viewer's own place."""

from __future__ import annotations

from collections.abc import Mapping

from hanamikoji.interfaces.web.tournaments.model import FINISHED, Tournament, level_of
from hanamikoji.interfaces.web.tournaments.store import EntrantRow
from hanamikoji.interfaces.web.wire.tournament_messages import (
    TournamentBoard,
    TournamentCard,
    TournamentLine,
    TournamentMine,
    TournamentView,
)
from hanamikoji.tournaments import Pairing, Swiss, arena_standings, standings

__all__ = ["card_of", "view_of"]


def card_of(tournament: Tournament) -> TournamentCard:
    s = tournament.settings
    return TournamentCard(
        id=tournament.id,
        name=s.name,
        creator=tournament.creator_name,
        variant=s.variant,
        time_control=s.time_control,
        rated=s.rated,
        kind=s.kind,  # type: ignore[arg-type]
        rounds=s.rounds,
        minutes=s.minutes,
        starts=s.starts,
        ends=s.ends,
        status=tournament.status,  # type: ignore[arg-type]
        entry=s.entry,  # type: ignore[arg-type]
        entrants=len(tournament.event.entrants),
    )


def lines_of(tournament: Tournament, bots: Mapping[str, bool]) -> tuple[TournamentLine, ...]:
    event = tournament.event
    if isinstance(event, Swiss):
        return tuple(
            TournamentLine(
                rank=line.rank,
                name=line.name,
                level=level_of(line.player),
                bot=bots.get(line.player, False),
                rating=line.rating,
                active=line.active,
                score=line.score,
                buchholz=line.buchholz,
                sonneborn_berger=line.sonneborn_berger,
                fire=False,
                sheet=(),
                wins=line.wins,
                draws=line.draws,
                losses=line.losses,
                byes=line.byes,
            )
            for line in standings(event)
        )
    return tuple(
        TournamentLine(
            rank=line.rank,
            name=line.name,
            level=level_of(line.player),
            bot=bots.get(line.player, False),
            rating=line.rating,
            active=line.active,
            score=float(line.points),
            buchholz=0.0,
            sonneborn_berger=0.0,
            fire=line.fire,
            sheet=line.sheet,
            wins=line.wins,
            draws=line.draws,
            losses=line.losses,
            byes=0,
        )
        for line in arena_standings(event.entrants, event.games)
    )


def _pairings(tournament: Tournament) -> list[tuple[int, Pairing]]:
    """Every pairing with its round (0 in an arena), the latest first."""
    event = tournament.event
    if isinstance(event, Swiss):
        found = [(r.number, p) for r in event.played for p in r.pairings]
    else:
        found = [(0, game) for game in event.games]
    return found[::-1]


def view_of(
    tournament: Tournament,
    entrants: Mapping[str, EntrantRow],
    viewer: str | None,
    now: int,
    *,
    can_join: bool,
) -> TournamentView:
    """The tournament as ``viewer`` (a player id, ``None``: nobody signed in) sees it."""
    event = tournament.event
    names = {e.id: e.name for e in event.entrants}
    bots = {key: row.bot for key, row in entrants.items()}
    pairings = _pairings(tournament)
    boards = tuple(
        TournamentBoard(
            round=number,
            first=names.get(p.first, p.first),
            second=names.get(p.second, p.second),
            result=p.result,
            game=p.game,
        )
        for number, p in pairings
    )
    byes: tuple[str, ...] = ()
    current = 0
    if isinstance(event, Swiss) and event.played:
        current = event.played[-1].number
        bye = event.played[-1].bye
        byes = () if bye is None else (names.get(bye, bye),)
    return TournamentView(
        card=card_of(tournament),
        standings=lines_of(tournament, bots),
        boards=boards,
        byes=byes,
        round=current,
        mine=_mine(tournament, pairings, names, viewer),
        can_join=can_join,
        creator=viewer == tournament.creator,
        invite_code=tournament.settings.invite_code if viewer == tournament.creator else None,
        now=now,
    )


def _mine(
    tournament: Tournament,
    pairings: list[tuple[int, Pairing]],
    names: Mapping[str, str],
    viewer: str | None,
) -> TournamentMine:
    entrant = next((e for e in tournament.event.entrants if e.id == viewer), None)
    if viewer is None or entrant is None:
        return TournamentMine(entered=False, active=False, game=None, seat=None, opponent=None)
    on = None
    if tournament.status != FINISHED:
        on = next((p for _, p in pairings if p.result is None and viewer in p.players), None)
    seat = None
    if on is not None and on.game is not None:
        levels = level_of(on.first) is not None or level_of(on.second) is not None
        seat = 0 if on.first == viewer or levels else 1
    opponent = None if on is None else names.get(on.opponent_of(viewer))
    return TournamentMine(
        entered=True,
        active=entrant.active,
        game=None if on is None else on.game,
        seat=seat,
        opponent=opponent,
    )
