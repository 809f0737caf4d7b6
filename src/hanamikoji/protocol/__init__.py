"""The Hanamikoji engine protocol (HMP): a line-based text protocol over stdin and
stdout, so that engines in any language can play here and ours can play elsewhere.
The specification is ``docs/protocol.md``.

- :mod:`~hanamikoji.protocol.messages`: the lines, as values.
- :mod:`~hanamikoji.protocol.tracker`: one seat's view rebuilt from the events alone.
- :mod:`~hanamikoji.protocol.narrator`: the events worked out from one seat's views.
- :mod:`~hanamikoji.protocol.engine`: one of our bots served as an engine.
- :mod:`~hanamikoji.protocol.client`: an external engine as a bot.
"""

from hanamikoji.protocol.client import (
    EngineError,
    EngineFailure,
    ExternalEngineBot,
    GameObserver,
    forfeit_of,
)
from hanamikoji.protocol.engine import serve
from hanamikoji.protocol.messages import PROTOCOL_VERSION, ProtocolError
from hanamikoji.protocol.narrator import NarrationError, Narrator
from hanamikoji.protocol.tracker import KnowledgeTracker

__all__ = [
    "PROTOCOL_VERSION",
    "EngineError",
    "EngineFailure",
    "ExternalEngineBot",
    "GameObserver",
    "KnowledgeTracker",
    "NarrationError",
    "Narrator",
    "ProtocolError",
    "forfeit_of",
    "serve",
]
