"""Themes named from a puzzle's position and solution, and its level.

Every theme is read from what the solver may know (their view) and the verdict's values,
except the ways of winning (``by-charm``, ``by-geishas``, ``charm-beats-geishas``), which
say how the solution ends the game in the worlds of the solver's information set where
it does (on the last turn only: every world is played out, every answer tried).

>>> sorted(THEMES)[:3]
['by-charm', 'by-geishas', 'charm-beats-geishas']
>>> level_for((0.9, 0.5, 0.2))
1
>>> level_for((0.9, 0.7, 0.65, 0.1))
3
"""

from __future__ import annotations

from collections.abc import Sequence

from hanamikoji.bots.exact import list_worlds
from hanamikoji.core.moves import Move, MoveKind
from hanamikoji.core.outcome import Termination
from hanamikoji.core.variants import Variant
from hanamikoji.core.view import View
from hanamikoji.core.worlds import from_view
from hanamikoji.puzzles.judging import Verdict

__all__ = ["CLOSE", "THEMES", "level_for", "themes_for"]

THEMES: dict[str, str] = {
    "gift-answer": "answering a Gift: which of the three cards to take",
    "competition-answer": "answering a Competition: which pair to take",
    "gift-offer": "offering a Gift: which three cards",
    "competition-split": "splitting a Competition: which cards, in which pairs",
    "secret": "keeping a card secret: which one",
    "trade-off": "discarding two cards: which ones",
    "last-secret": "the solver's last Secret of the round: their last choice of an action "
    "(the fourth action is forced: it takes the cards left)",
    "last-turn": "the round's last turn: it is scored after this decision (and its answer)",
    "seventh-turn": "the round's seventh turn",
    "win-now": "the solution wins the match at this round's scoring in every world",
    "save-the-match": "another decision can lose the match at once; the solution cannot",
    "by-charm": "the solution wins by 11 charm",
    "by-geishas": "the solution wins by 4 geishas",
    "charm-beats-geishas": "11 charm against 4 geishas: the solution's charm wins though "
    "the opponent reaches 4 geishas",
    "hold-marker": "a marker that must not move: the solution adds a card to a geisha whose "
    "marker is the solver's but whose cards do not favour them",
    "final-round": "the variant's last round",
}
"""Every theme and what it means."""
CLOSE = 0.35
"""An alternative within this much of the solution's value looks close (the level)."""


def level_for(values: Sequence[float]) -> int:
    """1 plus the number of alternatives within :data:`CLOSE` of the best value (the
    first), at most 5."""
    return min(5, 1 + sum(1 for value in values[1:] if value >= values[0] - CLOSE))


def _gained(view: View, move: Move) -> tuple[int, ...]:
    """The cards the decision puts (or keeps) on its player's side, where known."""
    if move.kind in (MoveKind.SECRET, MoveKind.GIFT_RESPONSE, MoveKind.COMPETITION_RESPONSE):
        return move.cards
    return ()


def _holds_marker(view: View, move: Move) -> bool:
    me, them = view.player, view.opponent
    mine = list(view.placed[me])
    if view.secret is not None:
        mine[view.secret] += 1
    return any(
        view.favor[geisha] == me and mine[geisha] <= view.placed[them][geisha]
        for geisha in set(_gained(view, move))
    )


def _endings(view: View, move: Move) -> tuple[set[Termination], bool]:
    """How the game ends with the solver's win after ``move`` on the last turn, over the
    worlds of their information set and every answer, and whether 11 charm ever beats 4
    geishas there."""
    found: set[Termination] = set()
    over_geishas = False
    for world, _ in list_worlds(view) or ():
        game = from_view(view, world)
        game.push(move)
        answers = (None,) if game.pending is None else game.generate_legal_moves()
        for answer in answers:
            if answer is not None:
                game.push(answer)
            outcome = game.outcome
            if outcome is not None and outcome.winner == view.player:
                found.add(outcome.termination)
                over_geishas = over_geishas or outcome.charm_over_geishas
            if answer is not None:
                game.pop()
    return found, over_geishas


def _final_round(variant: Variant, round_number: int) -> bool:
    return variant.max_rounds is not None and round_number >= variant.max_rounds


def themes_for(view: View, verdict: Verdict) -> tuple[str, ...]:
    """The themes of the puzzle whose position ``view`` shows, judged by ``verdict``, in
    the order of :data:`THEMES`."""
    move = verdict.best
    kind = move.kind
    found = {
        MoveKind.GIFT_RESPONSE: "gift-answer",
        MoveKind.COMPETITION_RESPONSE: "competition-answer",
        MoveKind.GIFT: "gift-offer",
        MoveKind.COMPETITION: "competition-split",
        MoveKind.SECRET: "secret",
        MoveKind.TRADE_OFF: "trade-off",
    }
    themes = {found[kind]}
    if kind == MoveKind.SECRET and len(view.used[view.player]) == 2:
        themes.add("last-secret")
    if view.deck_size == 0:
        themes.add("last-turn")
    elif view.deck_size == 1:
        themes.add("seventh-turn")
    if verdict.wins_at_once.get(move) == 1.0:
        themes.add("win-now")
    loses = [verdict.loses_at_once.get(other) or 0.0 for other, _ in verdict.values[1:]]
    if verdict.loses_at_once.get(move) == 0.0 and max(loses, default=0.0) > 0.0:
        themes.add("save-the-match")
    if view.deck_size == 0 and (verdict.wins_at_once.get(move) or 0.0) > 0.0:
        endings, over_geishas = _endings(view, move)
        if Termination.CHARM in endings:
            themes.add("by-charm")
        if Termination.GEISHAS in endings:
            themes.add("by-geishas")
        if over_geishas:
            themes.add("charm-beats-geishas")
    if _holds_marker(view, move):
        themes.add("hold-marker")
    if _final_round(view.variant, view.round):
        themes.add("final-round")
    return tuple(theme for theme in THEMES if theme in themes)
