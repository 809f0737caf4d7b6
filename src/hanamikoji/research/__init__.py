"""Research interfaces: a stable action encoding, observation tensors, and environments.

This layer needs the ``research`` extra (``pip install hanamikoji[research]``): NumPy
here, and OpenSpiel, PettingZoo and Gymnasium in the modules that wrap them, each
imported only with its own module:

- :mod:`hanamikoji.research.encoding`: decision <-> integer id (version 1);
- :mod:`hanamikoji.research.observation`: observation and information-state tensors
  and strings from a :class:`~hanamikoji.core.view.View`;
- :mod:`hanamikoji.research.openspiel`: the OpenSpiel game ``python_hanamikoji``
  (also ``import hanamikoji.openspiel``) and OpenSpiel bots as our bots;
- :mod:`hanamikoji.research.pettingzoo_env`: the PettingZoo AEC environment;
- :mod:`hanamikoji.research.gym_env`: a Gymnasium single-agent environment against a bot.
- :mod:`~hanamikoji.research.vector_env`, :mod:`~hanamikoji.research.batch`: N games at once.

``docs/research.md`` describes them all.
"""

from hanamikoji.research.encoding import (
    ENCODING_VERSION,
    NUM_ACTIONS,
    decode,
    encode,
    legal_action_mask,
    legal_actions,
)
from hanamikoji.research.observation import (
    INFORMATION_STATE_SIZE,
    OBSERVATION_SIZE,
    information_state_string,
    information_state_tensor,
    observation_string,
    observation_tensor,
)
from hanamikoji.research.variant import DEFAULT_ROUND_CAP, research_variant

__all__ = [
    "DEFAULT_ROUND_CAP",
    "ENCODING_VERSION",
    "INFORMATION_STATE_SIZE",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "decode",
    "encode",
    "information_state_string",
    "information_state_tensor",
    "legal_action_mask",
    "legal_actions",
    "observation_string",
    "observation_tensor",
    "research_variant",
]
