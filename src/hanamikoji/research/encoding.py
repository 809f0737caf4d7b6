"""The stable action encoding (version 1), as the research environments use it.

The code lives in :mod:`hanamikoji.kernel.encoding`, the one source of the encoding
(the compiled engine builds its tables from it); this module re-exports it so that
every import of ``hanamikoji.research.encoding`` keeps working.

>>> NUM_ACTIONS, decode(0)
(534, Move.from_text('S:A'))
"""

from __future__ import annotations

from hanamikoji.kernel.encoding import (
    ENCODING_VERSION,
    KIND_OFFSETS,
    NUM_ACTIONS,
    all_moves,
    decode,
    encode,
    legal_action_mask,
    legal_actions,
)

__all__ = [
    "ENCODING_VERSION",
    "KIND_OFFSETS",
    "NUM_ACTIONS",
    "all_moves",
    "decode",
    "encode",
    "legal_action_mask",
    "legal_actions",
]
