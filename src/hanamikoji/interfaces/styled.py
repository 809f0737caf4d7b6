"""The styled text of the line interface and the listings: rich's names when rich is
installed (``pip install 'hanamikoji[tui]'``: colour, tables drawn to the width,
progress bars), else the plain stand-ins of :mod:`hanamikoji.interfaces.plain` (the
base install, which has no third-party package). Modules import these names from here,
never from rich, wherever the base install must work.

>>> table = Table(title="Bots")
>>> table.add_column("name")
>>> table.add_row(Text("greedy"))
>>> RICH in (True, False)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hanamikoji.extras import installed

__all__ = [
    "RICH",
    "BarColumn",
    "Console",
    "Group",
    "JustifyMethod",
    "MofNCompleteColumn",
    "Progress",
    "RenderableType",
    "Table",
    "Text",
    "TextColumn",
    "TimeRemainingColumn",
    "box",
]

RICH = installed("rich")
"""Whether rich is installed, and these names are its own."""

if TYPE_CHECKING or RICH:
    from rich import box
    from rich.console import Console, Group, JustifyMethod, RenderableType
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.table import Table
    from rich.text import Text
else:
    from hanamikoji.interfaces.plain import (
        BarColumn,
        Console,
        Group,
        JustifyMethod,
        MofNCompleteColumn,
        Progress,
        RenderableType,
        Table,
        Text,
        TextColumn,
        TimeRemainingColumn,
        box,
    )
