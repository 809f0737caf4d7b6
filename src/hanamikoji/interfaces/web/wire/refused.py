"""A refusal: what the server answers to a message, a request or a decision it will not
take (:class:`Refused`, a catalog key and its fields; nothing changes when it is raised),
and the readers of the small inputs that raise it.

A number written in a query or a header is read by :func:`whole_number`, never by
``int()`` (which refuses more than 4,300 digits with a ``ValueError``, and takes digits
of any script).

>>> whole_number("007", 10), whole_number("9" * 5000, 10), whole_number("²", 10)
(7, 10, None)
>>> parse_lang("xx")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_bad_lang
"""

from __future__ import annotations

from hanamikoji.interfaces.messages import localized
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = ["Refused", "parse_lang", "whole_number"]


class Refused(Exception):
    """A message or decision that is refused; ``key`` names the catalog sentence and
    ``fields`` fill it in. ``fields`` may hold callables of the language (card and action
    names), so one refusal reads right in every language."""

    def __init__(self, key: str, **fields: object) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields

    def localized_fields(self, lang: Lang) -> dict[str, object]:
        return localized(self.fields, lang)


def parse_lang(value: object) -> Lang:
    for lang in LANGUAGES:
        if value == lang:
            return lang
    raise Refused("err_bad_lang", langs=", ".join(LANGUAGES))


def whole_number(text: str, cap: int) -> int | None:
    """The whole number ``text`` writes in ASCII digits, ``cap`` if it is larger (however
    many digits it has), or ``None`` if ``text`` is not one (empty, a sign, a point,
    digits of another script)."""
    if not text.isascii() or not text.isdigit():
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(cap)):
        return cap
    return min(int(digits), cap)
