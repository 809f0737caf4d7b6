"""Key bindings that a letter answers in either case: ``S`` (Shift, Caps Lock) does
what ``s`` does, on every screen of the app; and Enter typed before the app has the
terminal (while it starts) counts as Enter.

>>> any_case("q,escape")
'q,Q,shift+q,escape'
>>> any_case("enter")
'enter,ctrl+j'
>>> binding("s", "choose('s')").key
's,S,shift+s'
"""

from __future__ import annotations

from textual.binding import Binding

__all__ = ["any_case", "binding"]


def any_case(keys: str) -> str:
    """``keys`` (Textual's comma-separated key names) with each single letter also as
    its capital: a terminal sends ``S`` for Shift+S or with Caps Lock, and ``shift+s``
    where it reports Shift on its own. Enter also as ``ctrl+j``: keys typed while the
    app starts reach it through the terminal's line mode, which turns Enter into a line
    feed."""
    names: list[str] = []
    for key in keys.split(","):
        names.append(key)
        if len(key) == 1 and key.isalpha() and key.islower():
            names.extend((key.upper(), f"shift+{key}"))
        elif key == "enter":
            names.append("ctrl+j")
    return ",".join(names)


def binding(keys: str, action: str) -> Binding:
    """A hidden binding (the key bar shows the keys) of ``keys`` in either case."""
    return Binding(any_case(keys), action, show=False)
