"""Pairings as a maximum-weight matching (networkx), with costs ranked one above another.

A pairing of players is a matching in the graph whose nodes are the players (and,
for a Swiss round with an odd number of them, the bye) and whose edges are the games
that may be played. :func:`best_pairs` finds, among the matchings of the most edges,
the one of the least cost, where each edge has a vector of costs compared in order:
the first cost outranks all the others together, the second all after it, and so on.
The vector is folded into one integer weight per edge (each cost scaled past the
largest possible sum of the costs after it) for ``networkx.max_weight_matching`` with
``maxcardinality``, which computes in integers when the weights are integers, so the
result is exact.

networkx is the ``tournaments`` extra's package: imported here, when pairing, and
nowhere else.

>>> costs = {("a", "b"): (1, 0), ("a", "c"): (0, 5), ("b", "c"): (0, 1)}
>>> best_pairs(["a", "b", "c"], costs)   # two edges cannot both be in a matching
[('b', 'c')]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from hanamikoji.extras import require

__all__ = ["best_pairs", "folded_weights"]

Node = TypeVar("Node", bound=Hashable)


def folded_weights(
    costs: Mapping[tuple[Node, Node], Sequence[int]],
) -> dict[tuple[Node, Node], int]:
    """Each edge's weight: positive, and larger as its costs are smaller in the order of
    their vectors, such that the sum of a matching's weights orders matchings of equal
    size as their summed cost vectors compare (lexicographically)."""
    if not costs:
        return {}
    lengths = {len(vector) for vector in costs.values()}
    if len(lengths) != 1:
        raise ValueError("every edge has a cost vector of the same length")
    (length,) = lengths
    if any(cost < 0 for vector in costs.values() for cost in vector):
        raise ValueError("costs are not negative")
    edges = len(costs)
    # A matching has fewer edges than the graph: each cost's sum over a matching is at most
    # ``edges`` times its largest value, so one unit of the cost before it must outweigh that.
    scales = [1] * length
    for index in range(length - 2, -1, -1):
        largest = max(vector[index + 1] for vector in costs.values())
        scales[index] = scales[index + 1] * (edges * largest + 1)
    folded = {
        edge: sum(s * c for s, c in zip(scales, vector, strict=True))
        for edge, vector in costs.items()
    }
    top = max(folded.values()) + 1
    return {edge: top - value for edge, value in folded.items()}


def best_pairs(
    nodes: Sequence[Node], costs: Mapping[tuple[Node, Node], Sequence[int]]
) -> list[tuple[Node, Node]]:
    """The matching of the most edges among ``costs``' edges, and of those the least cost
    (see above), as pairs in the order of ``nodes`` (each pair's first node the earlier
    one, the pairs ordered by it). Raises :class:`~hanamikoji.extras.MissingExtraError`
    when networkx is not installed."""
    networkx = require("networkx", "tournaments", "pairing a tournament")
    graph = networkx.Graph()
    graph.add_nodes_from(nodes)
    for (a, b), weight in folded_weights(costs).items():
        graph.add_edge(a, b, weight=weight)
    order = {node: index for index, node in enumerate(nodes)}
    pairs = []
    for a, b in networkx.max_weight_matching(graph, maxcardinality=True):
        pairs.append((a, b) if order[a] < order[b] else (b, a))
    return sorted(pairs, key=lambda pair: order[pair[0]])
