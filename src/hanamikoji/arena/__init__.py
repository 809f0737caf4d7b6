"""The arena: seeded, seat-swapped matches and round-robins between bots, with
confidence intervals, game records, and process or Ray backends (``docs/arena.md``);
Glicko-2 ratings (:mod:`hanamikoji.arena.glicko2`)."""

from hanamikoji.arena import glicko2
from hanamikoji.arena.backends import BACKENDS, Backend, ProcessBackend, RayBackend, make_backend
from hanamikoji.arena.games import Batch, Forfeit, GameResult, MatchConfig, play_batch, play_game
from hanamikoji.arena.players import PlayerSpec, players_from_names
from hanamikoji.arena.runner import Plan, RecordWriter, default_records_dir, run_plan
from hanamikoji.arena.stats import elo_difference, elo_interval, wilson_interval
from hanamikoji.arena.summary import MatchSummary, PlayerTiming, Standing, TournamentSummary

__all__ = [
    "BACKENDS",
    "Backend",
    "Batch",
    "Forfeit",
    "GameResult",
    "MatchConfig",
    "MatchSummary",
    "Plan",
    "PlayerSpec",
    "PlayerTiming",
    "ProcessBackend",
    "RayBackend",
    "RecordWriter",
    "Standing",
    "TournamentSummary",
    "default_records_dir",
    "elo_difference",
    "elo_interval",
    "glicko2",
    "make_backend",
    "play_batch",
    "play_game",
    "players_from_names",
    "run_plan",
    "wilson_interval",
]
