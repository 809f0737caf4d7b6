"""``import hanamikoji.openspiel`` registers the OpenSpiel game ``python_hanamikoji``.

A short name for :mod:`hanamikoji.research.openspiel` (needs the ``research`` extra):

>>> import pyspiel
>>> import hanamikoji.openspiel
>>> pyspiel.load_game("python_hanamikoji").get_type().short_name
'python_hanamikoji'
"""

from hanamikoji.research.openspiel import *  # noqa: F403
from hanamikoji.research.openspiel import __all__ as __all__
