"""Self-play samples and where they are kept: rows of (view, decision) features with
their targets, a file per chunk of games in a folder per generation's self-play."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

__all__ = ["Array", "Samples", "default_store", "samples_folder"]

Array = npt.NDArray[np.float32]
"""The arrays of features, targets and weights."""


@dataclass
class Samples:
    """Rows of (view, decision) features (raw, before :data:`SCALE`) and their targets,
    a view's rows together."""

    features: Array
    policy: Array
    """The target probability of each row's decision in its view (0 for negatives)."""
    values: Array
    """The search's value of each row's decision (NaN for negatives)."""
    views: npt.NDArray[np.int32]
    """The view (decision point) each row belongs to, in increasing order."""
    games: npt.NDArray[np.int32]

    def save(self, path: Path) -> None:
        """Write the samples to ``path`` (NumPy's ``.npz``), whole or not at all."""
        partial = path.with_name(path.name + ".partial")
        with partial.open("wb") as out:
            np.savez(out, **{name: getattr(self, name) for name in _SAMPLE_ARRAYS})
        partial.replace(path)

    @staticmethod
    def load(path: Path) -> Samples:
        with np.load(path) as stored:
            return Samples(*(stored[name] for name in _SAMPLE_ARRAYS))

    @staticmethod
    def join(parts: Sequence[Samples]) -> Samples:
        shift = 0
        views = []
        for part in parts:
            views.append(part.views + shift)
            shift += int(part.views.max()) + 1 if len(part.views) else 0
        return Samples(
            np.concatenate([p.features for p in parts]),
            np.concatenate([p.policy for p in parts]),
            np.concatenate([p.values for p in parts]),
            np.concatenate(views).astype(np.int32),
            np.concatenate([p.games for p in parts]),
        )


_SAMPLE_ARRAYS = ("features", "policy", "values", "views", "games")


def default_store() -> Path:
    """Where self-play samples are kept unless ``--samples`` says otherwise."""
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "hanamikoji" / "self-play"


def samples_folder(store: Path, first: int, iterations: int, guide: str | None) -> Path:
    """The folder of the self-play games from seed ``first`` at ``iterations`` playouts,
    guided by the network whose fingerprint is ``guide``."""
    return store / f"{first}-{iterations}-{(guide or 'none')[:12]}"
