"""The line interface: the game and replays as lines of text at a prompt, for a pipe, a
transcript or ``--plain`` (docs/cli.md), driving the same
:class:`~hanamikoji.interfaces.table.Table` as the full-screen app.
"""

from hanamikoji.interfaces.line.console import LineSource, Terminal
from hanamikoji.interfaces.line.replay import replay_game
from hanamikoji.interfaces.line.session import PlaySession

__all__ = ["LineSource", "PlaySession", "Terminal", "replay_game"]
