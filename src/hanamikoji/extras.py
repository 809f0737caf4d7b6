"""The optional extras: which feature needs which, and the error that says which to
install when it is missing.

``pip install hanamikoji`` installs no third-party package: the rules, notation,
records, the bots in pure Python and the line interface. Each extra adds a feature:

>>> for extra, feature in EXTRAS.items():
...     print(f"{extra:9} {feature}")
tui       the full-screen terminal game, colour and progress bars (Textual, rich)
learned   the learned evaluation: the learned and expert bots, the endgame solver (NumPy)
fast      the compiled judge and engine: about five times the playouts (numba, NumPy)
web       the web server (Starlette, uvicorn, SQLAlchemy, ...)
research  OpenSpiel, PettingZoo and Gymnasium environments (NumPy)
ray       matches and training on a Ray cluster
bridge    hanamikoji bridge: an engine as a bot account on a server (httpx, msgspec)
tournaments Swiss and arena pairings by maximum-weight matching (networkx)

>>> require("hanamikoji_no_such_module", "learned", "the learned bot")
Traceback (most recent call last):
...
hanamikoji.extras.MissingExtraError: the learned bot needs hanamikoji_no_such_module,
    which is not installed: pip install 'hanamikoji[learned]'
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

__all__ = ["EXTRAS", "MissingExtraError", "installed", "require"]

EXTRAS: dict[str, str] = {
    "tui": "the full-screen terminal game, colour and progress bars (Textual, rich)",
    "learned": "the learned evaluation: the learned and expert bots, the endgame solver (NumPy)",
    "fast": "the compiled judge and engine: about five times the playouts (numba, NumPy)",
    "web": "the web server (Starlette, uvicorn, SQLAlchemy, ...)",
    "research": "OpenSpiel, PettingZoo and Gymnasium environments (NumPy)",
    "ray": "matches and training on a Ray cluster",
    "bridge": "hanamikoji bridge: an engine as a bot account on a server (httpx, msgspec)",
    "tournaments": "Swiss and arena pairings by maximum-weight matching (networkx)",
}
"""Each extra of ``pyproject.toml`` and what it adds."""


class MissingExtraError(ImportError):
    """A feature asked for whose package is not installed; the message names the extra
    that installs it. An ``ImportError``, so that code which falls back without the
    package keeps working."""

    def __init__(self, feature: str, module: str, extra: str) -> None:
        if extra not in EXTRAS:
            raise ValueError(f"no extra {extra!r}: one of {', '.join(EXTRAS)}")
        super().__init__(
            f"{feature} needs {module}, which is not installed: pip install 'hanamikoji[{extra}]'",
            name=module,
        )
        self.feature = feature
        self.extra = extra


def installed(module: str) -> bool:
    """Whether the top-level ``module`` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def require(module: str, extra: str, feature: str) -> ModuleType:
    """``module`` imported, or :class:`MissingExtraError` naming ``extra`` if it is not
    installed (``feature`` says what needed it)."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        if error.name is not None and module.startswith(error.name):
            raise MissingExtraError(feature, module, extra) from None
        raise
