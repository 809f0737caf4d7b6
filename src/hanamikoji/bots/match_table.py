"""Match-win probability by favor-marker board, starting player and rounds left.

Favor markers carry over between rounds, so the end of a round is worth the chance of
winning the match from the board it leaves. This table gives that chance for every
board (3^7: each geisha neutral or on a side), for whoever starts the next round, and
for the rounds a variant still allows.

It is built by backward induction (value iteration for the unlimited ``classic``):
the distribution of one round's per-geisha results (the starter wins her, the other
player wins her, or a tie leaves her marker) is sampled from self-play rounds, and
the match value of each board is solved exactly under that distribution. Rebuild with
``.venv/bin/python -m hanamikoji.bots.match_table`` (needs numpy; about a minute).
The table is stored quantized to 16 bits in ``data/match_table.json``.
"""

from __future__ import annotations

import argparse
import base64
import json
import struct
from collections import Counter
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from hanamikoji.core.cards import CHARMS, ITEM_COUNT
from hanamikoji.core.outcome import WIN_CHARM, WIN_GEISHAS
from hanamikoji.core.variants import VARIANTS, Tiebreak, Variant

__all__ = ["MatchTable", "load_table", "table_match_value"]

BOARDS = 3**ITEM_COUNT
DATA_FILE = "match_table.json"
FORMAT = "hanamikoji-match-table"


def board_index(favor: tuple[int | None, ...]) -> int:
    """Base-3 index of a board: digit 0 neutral, 1 seat 0, 2 seat 1 (Ayane lowest)."""
    index = 0
    for owner in reversed(favor):
        index = index * 3 + (0 if owner is None else owner + 1)
    return index


class MatchTable:
    """Seat 0's chance to win from a board before a round, by starter and rounds left.

    ``rounds_left`` is ``None`` for a variant without a round limit.
    """

    def __init__(self, values: dict[str, list[int]], meta: dict[str, Any]) -> None:
        self._values = values
        self.meta = meta

    def seat0_wins(
        self, variant: Variant, index: int, starter: int, rounds_left: int | None
    ) -> float:
        key = _key(variant.family, starter, rounds_left if variant.max_rounds is not None else None)
        return self._values[key][index] / 65535.0

    def value(
        self,
        favor: tuple[int | None, ...],
        seat: int,
        next_starter: int,
        next_round: int,
        variant: Variant,
    ) -> float:
        """``seat``'s chance to win the match when round ``next_round`` is about to start."""
        left = None
        if variant.max_rounds is not None:
            left = variant.max_rounds - next_round + 1
            if (
                variant.family not in VARIANTS
                or variant.max_rounds != VARIANTS[variant.family].max_rounds
            ):
                left = min(left, 3)
        p0 = self.seat0_wins(variant, board_index(favor), next_starter, left)
        return p0 if seat == 0 else 1.0 - p0


def _key(family: str, starter: int, rounds_left: int | None) -> str:
    return f"{family}/starter={starter}/left={'inf' if rounds_left is None else rounds_left}"


@cache
def load_table() -> MatchTable:
    """The committed table."""
    text = resources.files("hanamikoji.bots").joinpath("data", DATA_FILE).read_text("utf-8")
    data = json.loads(text)
    if data.get("format") != FORMAT:
        raise ValueError(f"{DATA_FILE} is not a {FORMAT} file")
    values = {
        key: list(struct.unpack(f"<{BOARDS}H", base64.b64decode(blob)))
        for key, blob in data["tables"].items()
    }
    return MatchTable(values, data["meta"])


def table_match_value(
    favor: tuple[int | None, ...], seat: int, next_starter: int, next_round: int, variant: Variant
) -> float:
    """:data:`~hanamikoji.bots.evaluation.MatchValue` from the committed table."""
    return load_table().value(favor, seat, next_starter, next_round, variant)


# -- building -------------------------------------------------------------------------


def sample_round_results(bot: str, rounds: int, seed: int) -> Counter[tuple[int, ...]]:
    """Per-geisha results of ``rounds`` self-play first rounds, relative to the starter:
    0 the starter wins her, 1 the other player does, 2 a tie."""
    from hanamikoji.bots.base import make_bot
    from hanamikoji.core.game import Game

    results: Counter[tuple[int, ...]] = Counter()
    for number in range(rounds):
        game = Game("classic", seed=seed + number, first_player=number % 2)
        players = [make_bot(bot, seed=seed + 2 * number + s) for s in (0, 1)]
        while game.round == 1 and not game.is_over():
            mover = game.to_move
            assert mover is not None
            game.push(players[mover].choose(game.view(mover), game.legal_moves()))
        summary = game.summaries()[0]
        starter = summary.starter
        mine, theirs = summary.sides[starter], summary.sides[1 - starter]
        results[
            tuple(0 if a > b else 1 if b > a else 2 for a, b in zip(mine, theirs, strict=True))
        ] += 1
    return results


def solve(results: Counter[tuple[int, ...]]) -> dict[str, list[float]]:
    """Seat 0's match-win chance for every variant, board, starter and rounds left."""
    import numpy as np

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
        tables[_key("classic", s, None)] = value[s].tolist()
    for family, variant in VARIANTS.items():
        if variant.max_rounds is None:
            continue
        final = tiebreak_value(variant.tiebreak)
        value = step({}, final)
        for s in (0, 1):
            tables[_key(family, s, 1)] = value[s].tolist()
        for left in range(2, variant.max_rounds + 1):
            value = step(value, None)
            for s in (0, 1):
                tables[_key(family, s, left)] = value[s].tolist()
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
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("data") / DATA_FILE)
    args = parser.parse_args(argv)
    import hanamikoji.bots  # noqa: F401  (registers the bots)

    results = sample_round_results(args.bot, args.rounds, args.seed)
    tables = solve(results)
    meta = {
        "bot": args.bot,
        "rounds": args.rounds,
        "seed": args.seed,
        "distinct_results": len(results),
        "command": "python -m hanamikoji.bots.match_table "
        f"--bot {args.bot} --rounds {args.rounds} --seed {args.seed}",
    }
    write_table(tables, meta, args.out)
    print(f"wrote {args.out} from {args.rounds} rounds ({len(results)} distinct results)")


if __name__ == "__main__":
    main()
