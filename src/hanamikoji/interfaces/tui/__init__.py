"""The full-screen terminal app (Textual): a game at a table drawn on the whole screen,
decisions by keys or mouse, replays and puzzles. ``hanamikoji play`` and ``hanamikoji replay``
open it when both standard input and output are a terminal (docs/terminal.md).
"""

from hanamikoji.interfaces.tui.app import TableApp, play_in_app, puzzles_in_app, replay_in_app

__all__ = ["TableApp", "play_in_app", "puzzles_in_app", "replay_in_app"]
