"""``python -m hanamikoji``: the ``hanamikoji`` command."""

import sys

from hanamikoji.interfaces.cli import main

sys.exit(main())
