"""Hanamikoji: an exact rules engine, notation, records, bots and ways to play.

The public API re-exports the core; see ``docs/architecture.md`` for the layers.
"""

from hanamikoji.core import *  # noqa: F403
from hanamikoji.core import __all__ as _core_all

__version__ = "0.2.0"
__all__ = [*_core_all, "__version__"]
