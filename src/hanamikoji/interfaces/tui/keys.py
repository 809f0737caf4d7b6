"""Key bindings that a letter answers in either case: ``S`` (Shift, Caps Lock) does
what ``s`` does, on every screen of the app.

>>> any_case("q,escape")
'q,Q,shift+q,escape'
>>> binding("s", "choose('s')").key
's,S,shift+s'
"""

from __future__ import annotations

from textual.binding import Binding

__all__ = ["any_case", "binding"]


def any_case(keys: str) -> str:
    """``keys`` (Textual's comma-separated key names) with each single letter also as
    its capital: a terminal sends ``S`` for Shift+S or with Caps Lock, and ``shift+s``
    where it reports Shift on its own."""
    names: list[str] = []
    for key in keys.split(","):
        names.append(key)
        if len(key) == 1 and key.isalpha() and key.islower():
            names.extend((key.upper(), f"shift+{key}"))
    return ",".join(names)


def binding(keys: str, action: str) -> Binding:
    """A hidden binding (the key bar shows the keys) of ``keys`` in either case."""
    return Binding(any_case(keys), action, show=False)
