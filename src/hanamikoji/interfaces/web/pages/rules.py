"""The rules for the web page: docs/rules.md or its translation (``interfaces/rules.py``)
as HTML, a fragment for the page's Rules panel and a page of its own.

The Markdown is turned into HTML here, on the server, with raw HTML switched off: a
``<script>`` in a rules page comes out as text. Each heading gets an id (``rules-`` and
the heading's slug, as GitHub makes it), and the page's own links to its headings follow;
links to other files of the repository, which the server does not serve, become plain
text. With a variant, the row of the Variants table that says how a game of that variant
ends is marked (``id="rules-end"``, class ``rules-end``) and a note before the rules
points to it, naming the variant as the page does. The section and the row are found by
position, the same in every language: the translations keep the English page's headings
in order, and the table's rows are in the order of ``VARIANTS`` (each named in the page's
language; ``tests/test_rules_pages.py``, docs/rules-notes.md).

>>> html, marked = rules_html(rules_markdown("en"), "french")
>>> row = html.split('id="rules-end"')[1].split("</tr>")[0]
>>> marked, html.count('id="rules-end"'), "<td>French</td>" in row
(True, 1, True)
>>> '<h2 id="rules-variants">Variants</h2>' in html
True
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache
from html import escape
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.rules import rules_markdown
from hanamikoji.interfaces.web.catalog.lookup import LANGUAGE_NAMES, text
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = ["END_ID", "PREFIX", "rules_document", "rules_fragment", "rules_html", "slug"]

PREFIX = "rules-"
"""Every id the rules give their headings starts with this (no clash with the page's)."""

END_ID = "rules-end"
"""The id of the part of the rules that says how a game of the chosen variant ends."""

VARIANTS_SLUG = "variants"
"""The English page's section of the variants, whose table has one row per variant."""

EXTERNAL = ("http://", "https://", "mailto:")


def slug(title: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation and symbols
    dropped, each space a hyphen.

    >>> slug("Example (a): 11 charm beats 4 geishas"), slug("Ｖａｒｉａｎｔｅｓ 勝利：")
    ('example-a-11-charm-beats-4-geishas', 'ｖａｒｉａｎｔｅｓ-勝利')
    """
    kept = (c for c in title.lower() if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return "".join(kept).replace(" ", "-")


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", _table_close)
    return md


def _table_open(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    """A table in a box that scrolls sideways on a narrow screen."""
    return '<div class="rules-table">' + renderer.renderToken(tokens, idx, options, env)


def _table_close(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return renderer.renderToken(tokens, idx, options, env) + "</div>\n"


MARKDOWN = _markdown()


def _inline_text(token: Token) -> str:
    """The words of an inline token (code spans without their backticks)."""
    return "".join(
        child.content for child in token.children or () if child.type in ("text", "code_inline")
    )


def _name_headings(tokens: list[Token]) -> None:
    """Give each heading its id (GitHub's slug, numbered if the same title comes again)."""
    seen: dict[str, int] = {}
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        base = slug(_inline_text(tokens[index + 1]))
        count = seen.get(base, 0)
        seen[base] = count + 1
        token.attrSet("id", PREFIX + (base if count == 0 else f"{base}-{count}"))


def _fix_links(tokens: list[Token]) -> None:
    """Links to the page's own headings follow their ids; links to other files of the
    repository become their text (the server does not serve them)."""
    for token in tokens:
        if token.type != "inline" or not token.children:
            continue
        kept: list[Token] = []
        dropping = False  # inside a link whose tags are dropped (links do not nest)
        for child in token.children:
            href = str(child.attrGet("href") or "")
            if child.type == "link_open" and href.startswith("#"):
                child.attrSet("href", "#" + PREFIX + unquote(href[1:]))
            elif child.type == "link_open" and not href.startswith(EXTERNAL):
                dropping = True
                continue
            elif child.type == "link_close" and dropping:
                dropping = False
                continue
            kept.append(child)
        token.children = kept


def _h2_starts(tokens: list[Token]) -> list[int]:
    return [i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]


def _section(tokens: list[Token], ordinal: int) -> list[Token]:
    """The tokens of the ``ordinal``-th level-2 section (from its heading to the next)."""
    starts = _h2_starts(tokens)
    if ordinal >= len(starts):
        return []
    end = starts[ordinal + 1] if ordinal + 1 < len(starts) else len(tokens)
    return tokens[starts[ordinal] : end]


@cache
def _variants_ordinal() -> int:
    """Which level-2 section of the English page (from 0) holds the variants."""
    tokens = MARKDOWN.parse(rules_markdown("en"))
    titles = [slug(_inline_text(tokens[i + 1])) for i in _h2_starts(tokens)]
    return titles.index(VARIANTS_SLUG)


def _mark_end(tokens: list[Token], variant: str) -> bool:
    """Mark the row of the variants table that says how ``variant`` ends (the rows are in
    the order of ``VARIANTS``); whether there was one."""
    section = _section(tokens, _variants_ordinal())
    end = next((i for i, token in enumerate(section) if token.type == "table_close"), 0)
    rows = [token for token in section[:end] if token.type == "tr_open"][1:]  # no header
    place = list(VARIANTS).index(variant) if variant in VARIANTS else len(rows)
    if place >= len(rows):
        return False
    row = rows[place]
    row.attrSet("id", END_ID)
    row.attrSet("class", "rules-end")
    row.attrSet("aria-current", "true")
    return True


def rules_html(source: str, variant: str | None = None) -> tuple[str, bool]:
    """The rules' Markdown ``source`` as HTML (raw HTML shown as text, headings with
    ids, links fixed), with the row that says how ``variant`` ends marked; and whether
    there was such a row."""
    tokens = MARKDOWN.parse(source)
    _name_headings(tokens)
    _fix_links(tokens)
    marked = variant is not None and _mark_end(tokens, variant)
    return MARKDOWN.renderer.render(tokens, MARKDOWN.options, {}), marked


@cache
def rules_fragment(lang: Lang, variant: str | None = None) -> str:
    """The rules in ``lang`` as HTML, with how ``variant`` ends marked (if one is
    named) after a note that links to it. Raises ``ValueError`` for an unknown
    variant."""
    if variant is not None and variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
    body, marked = rules_html(rules_markdown(lang), variant)
    note = ""
    if marked and variant is not None:
        name = text(f"variant_name_{variant.replace('-', '_')}", lang)
        sentence = escape(text("rules_variant_marked", lang, variant=name))
        note = f'<p class="rules-note"><a href="#{END_ID}">{sentence}</a></p>\n'
    return f'<div class="rules" lang="{_html_lang(lang)}">\n{note}{body}</div>\n'


def _html_lang(lang: Lang) -> str:
    return "en" if lang == "en-2018" else lang


@cache
def _title(lang: Lang) -> str:
    """The rules page's own title (its first heading)."""
    tokens = MARKDOWN.parse(rules_markdown(lang))
    return next(
        _inline_text(tokens[i + 1]) for i, t in enumerate(tokens) if t.type == "heading_open"
    )


def rules_document(lang: Lang, variant: str | None = None) -> str:
    """A page of its own for the rules in ``lang``: the site's style and top bar (the
    name, which leads to the start page, and the rules in the other languages), then
    :func:`rules_fragment`. Raises ``ValueError`` for an unknown variant."""
    fragment = rules_fragment(lang, variant)
    query = "" if variant is None else f"?variant={variant}"
    links = "".join(
        f'<a href="/rules/{code}{query}" hreflang="{_html_lang(code)}"'
        + (' aria-current="page"' if code == lang else "")
        + f">{escape(LANGUAGE_NAMES[code])}</a>"
        for code in LANGUAGES
    )
    label = escape(text("lang_label", lang))
    return (
        "<!doctype html>\n"
        f'<html lang="{_html_lang(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f"<title>{escape(_title(lang))} · Hanamikoji</title>\n"
        '<link rel="icon" href="data:,">\n'
        '<link rel="stylesheet" href="/static/style.css">\n'
        '<script src="/static/theme.js"></script>\n</head>\n<body class="rules-page">\n'
        '<header class="topbar"><a href="/" class="brand">Hanamikoji</a>'
        f'<nav class="rules-langs" aria-label="{label}">{links}</nav></header>\n'
        f'<main id="app">\n{fragment}</main>\n</body>\n</html>\n'
    )
