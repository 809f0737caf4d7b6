"""How much of the opponent's hidden cards inference guesses right, on recorded games.

Run: ``.venv/bin/python benchmarks/inference.py DIR [DIR ...] --player NAME [--models
uniform 0.02,0.05 ...] [--draws 200] [--positions 300] [--seed 1]`` on game records
(``.hkr``) written by ``hanamikoji arena ... --records DIR``.

Records hold every card, so each recorded decision of ``--player`` can be given back as
the view that player had, with the truth beside it. At ``--positions`` of them (spread
evenly; only positions where the opponent has decided at least once this round, so that
there is something to infer from), each sampler draws ``--draws`` hidden worlds as the
search draws them, and each world's opponent cards (hand, Secret and Trade-off) are
compared with the true ones: the share guessed right is the size of the multiset
intersection over the number of cards. The table also counts the different worlds among
each position's draws: a sampler that weighs worlds draws some of them again, and a
search plays only the different ones (the expert plays every world under each decision
its root compares, usually 12, so ``N`` playouts draw about ``N / 12`` worlds).
``uniform`` deals the worlds uniformly
(:func:`hanamikoji.bots.determinize.sample_world`); ``T,s`` is
:class:`hanamikoji.bots.inference.WorldSampler` weighing worlds by the search's opponent
model (:func:`hanamikoji.bots.ismcts.opponent_model`) at temperature ``T`` and surprise
``s``; ``search:N,T,s`` weighs them by a model of a searching
opponent instead (:func:`hanamikoji.bots.ismcts.searching_model`: ``ismcts`` at ``N``
playouts on the opponent's view, a softmax at ``T`` over the values it found; tens of
milliseconds per decision, so use few positions and draws). Prints each sampler's mean
share with its 95% interval over positions, and its difference from the first sampler's
at the same positions.
``benchmarks/oracle.py`` measures what knowing every card would win; this measures how
near a sampler comes to knowing them, in seconds instead of hours.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from hanamikoji.arena.stats import mean_interval
from hanamikoji.bots.determinize import World, sample_world
from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.inference import WorldSampler
from hanamikoji.bots.ismcts import opponent_model, searching_model
from hanamikoji.core.cards import counts, pack
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View
from hanamikoji.core.worlds import hidden_from
from hanamikoji.notation.records import read_record

Sampler = Callable[[View, random.Random], Callable[[], World]]
"""Given a view and a source of randomness, a source of hidden worlds behind it."""


@dataclass(frozen=True)
class Position:
    """A recorded view of the player measured, and the opponent's true hidden cards."""

    view: View
    cards: tuple[int, ...]


def opponent_cards(world: World) -> tuple[int, ...]:
    """The opponent's hidden cards of a world: hand, Secret and Trade-off."""
    hand, secret, tradeoff, _, _ = world
    return (*hand, *(() if secret is None else (secret,)), *tradeoff)


def share_right(guess: Sequence[int], truth: Sequence[int]) -> float:
    """The share of ``truth`` that ``guess`` holds (as multisets).

    >>> share_right((0, 0, 3), (0, 3, 3))
    0.6666666666666666
    """
    held = counts(pack(guess))
    wanted = counts(pack(truth))
    return sum(min(a, b) for a, b in zip(held, wanted, strict=True)) / len(truth)


def recorded_positions(paths: Sequence[Path], player: str) -> list[Position]:
    positions: list[Position] = []
    for path in paths:
        record = read_record(path)
        if player not in record.players:
            continue
        seat = record.players.index(player)
        for game, entry in record.decisions():
            if entry.seat != seat or len(game.generate_legal_moves()) < 2:
                continue
            view = game.view(seat)
            if not any(e.round == view.round and e.seat != seat for e in view.log):
                continue
            positions.append(Position(view, opponent_cards(hidden_from(game, seat))))
    return positions


def uniform_sampler(view: View, rng: random.Random) -> Callable[[], World]:
    return lambda: sample_world(view, rng)


def model_sampler(temperature: float, surprise: float) -> Sampler:
    judge = GreedyBot(seed=0, compiled=True)

    def model(view: View, legal: Sequence[Move]) -> dict[Move, float]:
        return opponent_model(judge.scores(view, legal), temperature, surprise)

    def make(view: View, rng: random.Random) -> Callable[[], World]:
        return WorldSampler(view, rng, model, True).draw

    return make


def search_sampler(iterations: int, temperature: float, surprise: float) -> Sampler:
    searching_model(iterations, temperature, surprise)  # refuses bad settings now

    def make(view: View, rng: random.Random) -> Callable[[], World]:
        model = searching_model(iterations, temperature, surprise, rng.getrandbits(32))
        return WorldSampler(view, rng, model, True).draw

    return make


def sampler_of(text: str) -> tuple[str, Sampler]:
    """A ``--models`` value: ``uniform``, ``T,s`` or ``search:N,T,s``."""
    if text == "uniform":
        return text, uniform_sampler
    searching = text.startswith("search:")
    parts = text.removeprefix("search:").split(",")
    try:
        if searching:
            if len(parts) != 3:
                raise ValueError
            return text, search_sampler(int(parts[0]), float(parts[1]), float(parts[2]))
        if len(parts) != 2:
            raise ValueError
        temperature, surprise = float(parts[0]), float(parts[1])
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a model is uniform, T,s or search:N,T,s, not {text!r}"
        ) from None
    return text, model_sampler(temperature, surprise)


@dataclass(frozen=True)
class Measured:
    """A sampler's result at one position: the mean share of the opponent's cards its
    worlds got right, and how many different worlds it drew."""

    share: float
    distinct: int


def measure(
    positions: Sequence[Position], sampler: Sampler, draws: int, seed: int
) -> list[Measured]:
    """Per position, the mean share of the opponent's cards that ``draws`` sampled worlds
    got right, and the number of different worlds among them (a pool drawn in proportion
    to weight draws some worlds again: those are all a search of ``draws`` worlds plays)."""
    measured = []
    for index, position in enumerate(positions):
        draw = sampler(position.view, random.Random(seed * 1_000_003 + index))
        worlds = [draw() for _ in range(draws)]
        total = sum(share_right(opponent_cards(world), position.cards) for world in worlds)
        measured.append(Measured(total / draws, len(set(worlds))))
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directories", nargs="+", type=Path, help="folders of .hkr records")
    parser.add_argument("--player", required=True, help="whose views to infer from")
    parser.add_argument(
        "--models", type=sampler_of, nargs="+", default=[sampler_of("uniform")], metavar="M"
    )
    parser.add_argument("--draws", type=int, default=200, help="worlds per position")
    parser.add_argument("--positions", type=int, default=300, help="positions measured")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    paths = sorted(path for folder in args.directories for path in folder.rglob("*.hkr"))
    if not paths:
        parser.error("no .hkr records in " + ", ".join(map(str, args.directories)))
    found = recorded_positions(paths, args.player)
    if len(found) < 2:
        parser.error(f"fewer than 2 positions of {args.player!r} to measure")
    step = max(1, len(found) // args.positions)
    positions = found[::step][: args.positions]
    print(
        f"{len(paths)} records, {len(found)} positions of {args.player} after an opponent's"
        f" decision; {len(positions)} measured, {args.draws} worlds each"
    )
    print(
        "\n| sampler | share of the opponent's cards right [95%] | difference from the first"
        " | different worlds drawn, median (least) |"
    )
    print("|---|---|---|---|")
    first: list[float] | None = None
    for name, sampler in args.models:
        measured = measure(positions, sampler, args.draws, args.seed)
        shares = [m.share for m in measured]
        distinct = sorted(m.distinct for m in measured)
        mean, (low, high) = mean_interval(shares)
        if first is None:
            first, versus = shares, "-"
        else:
            gained, (below, above) = mean_interval(
                [a - b for a, b in zip(shares, first, strict=True)]
            )
            versus = f"{gained:+.2%} [{below:+.2%}, {above:+.2%}]"
        spread = f"{statistics.median(distinct):g} ({distinct[0]})"
        print(f"| {name} | {mean:.2%} [{low:.2%}, {high:.2%}] | {versus} | {spread} |")


if __name__ == "__main__":
    main()
