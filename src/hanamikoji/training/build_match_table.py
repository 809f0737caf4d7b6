"""Rebuild the match-value table of :mod:`hanamikoji.bots.match_table`.

``.venv/bin/python -m hanamikoji.training.build_match_table`` (about a minute) samples
the per-geisha results of self-play first rounds, solves every board's match value under
them by backward induction, and writes ``bots/data/match_table.json`` with the command and
its parameters. Only this command imports this module: the bots read the table
through :mod:`hanamikoji.bots.match_table`, which imports no bot.
"""

from __future__ import annotations

import argparse
import base64
import json
import struct
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

import hanamikoji.bots as bots_package
from hanamikoji.bots import make_bot
from hanamikoji.bots.match_table import BOARDS, DATA_FILE, FORMAT, table_key
from hanamikoji.core.cards import CHARMS, ITEM_COUNT
from hanamikoji.core.game import Game
from hanamikoji.core.outcome import WIN_CHARM, WIN_GEISHAS
from hanamikoji.core.variants import VARIANTS, Tiebreak

__all__ = ["main", "sample_round_results", "solve", "write_table"]


def sample_round_results(bot: str, rounds: int, seed: int) -> Counter[tuple[int, ...]]:
    """Per-geisha results of ``rounds`` self-play first rounds, relative to the starter:
    0 the starter wins her, 1 the other player does, 2 a tie."""
    results: Counter[tuple[int, ...]] = Counter()
    for number in range(rounds):
        game = Game("classic", seed=seed + number, first_player=number % 2)
        players = [make_bot(bot, seed=seed + 2 * number + s) for s in (0, 1)]
        while game.round == 1 and not game.is_over():
            mover = game.to_move
            assert mover is not None
            game.push(players[mover].choose(game.view(mover), game.generate_legal_moves()))
        summary = game.summaries()[0]
        starter = summary.starter
        mine, theirs = summary.sides[starter], summary.sides[1 - starter]
        results[
            tuple(0 if a > b else 1 if b > a else 2 for a, b in zip(mine, theirs, strict=True))
        ] += 1
    return results


def solve(results: Counter[tuple[int, ...]]) -> dict[str, list[float]]:
    """Seat 0's match-win chance for every variant, board, starter and rounds left."""
    digits = np.array(
        [[(b // 3**k) % 3 for k in range(ITEM_COUNT)] for b in range(BOARDS)], dtype=np.int64
    )
    charms = np.array(CHARMS)
    total = sum(results.values())
    outcomes = np.array(list(results.keys()), dtype=np.int64)
    probs = np.array([results[tuple(r)] / total for r in outcomes.tolist()])
    powers = 3 ** np.arange(ITEM_COUNT)

    def after(starter: int) -> Any:
        # digit for a geisha won by the starter / the other player
        won = {0: starter + 1, 1: (1 - starter) + 1}
        new = np.where(
            outcomes[None, :, :] == 2,
            digits[:, None, :],
            np.where(outcomes[None, :, :] == 0, won[0], won[1]),
        )
        return (new * powers).sum(axis=2)

    nxt = {s: after(s) for s in (0, 1)}
    own = [(digits == s + 1) for s in (0, 1)]
    charm = [(own[s] * charms).sum(axis=1) for s in (0, 1)]
    count = [own[s].sum(axis=1) for s in (0, 1)]
    win0 = (charm[0] >= WIN_CHARM) | ((charm[1] < WIN_CHARM) & (count[0] >= WIN_GEISHAS))
    win1 = (charm[1] >= WIN_CHARM) | ((charm[0] < WIN_CHARM) & (count[1] >= WIN_GEISHAS))
    decided = np.where(win0, 1.0, np.where(win1, 0.0, np.nan))

    def tiebreak_value(kind: Tiebreak) -> Any:
        if kind == Tiebreak.GEISHAS_THEN_CHARM:
            by_geishas = np.sign(count[0] - count[1])
            by_charm = np.sign(charm[0] - charm[1])
            sign = np.where(by_geishas != 0, by_geishas, by_charm)
        elif kind == Tiebreak.CHARM:
            sign = np.sign(charm[0] - charm[1])
        else:
            sign = np.zeros(BOARDS)
        return np.where(np.isnan(decided), 0.5 + 0.5 * sign, decided)

    def step(future: dict[int, Any], final: Any | None) -> dict[int, Any]:
        """Value before a round, given the value of each board before the next round."""
        out = {}
        for s in (0, 1):
            landed = nxt[s]
            cont = np.where(np.isnan(decided), future[1 - s], decided) if final is None else final
            out[s] = (cont[landed] * probs[None, :]).sum(axis=1)
        return out

    tables: dict[str, list[float]] = {}
    value = {s: np.full(BOARDS, 0.5) for s in (0, 1)}
    for _ in range(200):
        new = step(value, None)
        delta = max(float(np.abs(new[s] - value[s]).max()) for s in (0, 1))
        value = new
        if delta < 1e-7:
            break
    for s in (0, 1):
        tables[table_key("classic", s, None)] = value[s].tolist()
    for family, variant in VARIANTS.items():
        if variant.max_rounds is None:
            continue
        final = tiebreak_value(variant.tiebreak)
        value = step({}, final)
        for s in (0, 1):
            tables[table_key(family, s, 1)] = value[s].tolist()
        for left in range(2, variant.max_rounds + 1):
            value = step(value, None)
            for s in (0, 1):
                tables[table_key(family, s, left)] = value[s].tolist()
    return tables


def write_table(tables: dict[str, list[float]], meta: dict[str, Any], path: Path) -> None:
    packed = {
        key: base64.b64encode(
            struct.pack(f"<{BOARDS}H", *(round(min(max(v, 0.0), 1.0) * 65535) for v in values))
        ).decode("ascii")
        for key, values in sorted(tables.items())
    }
    data = {"format": FORMAT, "version": 1, "meta": meta, "tables": packed}
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Rebuild the match-value table.")
    parser.add_argument("--bot", default="greedy", help="bot whose self-play rounds are sampled")
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=20261122)
    data = Path(bots_package.__file__).parent / "data"
    parser.add_argument("--out", type=Path, default=data / DATA_FILE)
    args = parser.parse_args(argv)
    results = sample_round_results(args.bot, args.rounds, args.seed)
    tables = solve(results)
    meta = {
        "bot": args.bot,
        "rounds": args.rounds,
        "seed": args.seed,
        "distinct_results": len(results),
        "command": "python -m hanamikoji.training.build_match_table "
        f"--bot {args.bot} --rounds {args.rounds} --seed {args.seed}",
    }
    write_table(tables, meta, args.out)
    print(f"wrote {args.out} from {args.rounds} rounds ({len(results)} distinct results)")


if __name__ == "__main__":
    main()
