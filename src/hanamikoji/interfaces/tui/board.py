"""The table: the geisha row with both sides' cards and the markers, and each side's
tallies, action markers and face-down cards.

A :class:`Side` is built from a :class:`View` by :func:`side_of`: the hand, Secret and
Trade-off are filled only for the view's own seat, so a side drawn for the opponent
cannot show them.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group
from rich.table import Table
from rich.text import Text

from hanamikoji.core import ACTIONS, GEISHAS, MoveKind, RoundSummary, View
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.tui.cards import action_words, chip, geisha_rank, letters_with_glyphs
from hanamikoji.interfaces.words import GEISHA_STYLES, summary_line
from hanamikoji.notation.names import Deck, Lang, term

__all__ = [
    "ACTION_KEYS",
    "Side",
    "render_markers",
    "render_row",
    "render_scoring",
    "render_side",
    "seat_headings",
    "side_of",
]

ACTION_KEYS = {
    MoveKind.SECRET: "s",
    MoveKind.TRADE_OFF: "t",
    MoveKind.GIFT: "g",
    MoveKind.COMPETITION: "c",
}
"""The key of each action: its letter in the notation, in every language."""


@dataclass(frozen=True, slots=True)
class Side:
    """One seat as the screen shows it. ``own`` says the private cards are filled in."""

    seat: int
    label: str
    placed: tuple[int, ...]
    used: frozenset[MoveKind]
    hand_size: int
    charm: int
    geishas: int
    own: bool
    hand: tuple[int, ...] = ()
    secret: int | None = None
    tradeoff: tuple[int, ...] = ()


def side_of(view: View, seat: int, label: str, *, private: bool = True) -> Side:
    """``seat`` as the player of ``view`` knows it; without ``private``, as anybody
    watching knows it (the hand, Secret and Trade-off left out)."""
    own = private and seat == view.player
    return Side(
        seat=seat,
        label=label,
        placed=view.placed[seat],
        used=view.used[seat],
        hand_size=view.hand_sizes[seat],
        charm=view.charm(seat),
        geishas=view.geishas(seat),
        own=own,
        hand=view.hand if own else (),
        secret=view.secret if own else None,
        tradeoff=view.tradeoff if own else (),
    )


def _placed_cell(count: int, card: int) -> Text:
    if count == 0:
        return Text("·", style="dim")
    return Text(GEISHAS[card].letter * count, style=GEISHA_STYLES[card])


def render_row(
    favor: tuple[int | None, ...],
    left: Side,
    right: Side,
    headers: tuple[str, str],
    unseen: tuple[str, tuple[int, ...]] | None = None,
    *,
    deck: Deck = "boxed",
) -> Table:
    """The geisha row, one geisha a line: ``left``'s cards, the marker (◀ on the left
    side, ▶ on the right, · neutral on both), the geisha, ``right``'s cards; and with
    ``unseen`` (a heading, counts per geisha) the card tracker's column."""
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 1))
    # A side's heading (a player's name in a replay) wraps at its words when the row is
    # too narrow for it: never cut.
    table.add_column(headers[0], justify="right", overflow="fold")
    table.add_column("", justify="center", width=1)
    table.add_column("", no_wrap=True)
    table.add_column("", justify="center", width=1)
    table.add_column(headers[1], overflow="fold")
    if unseen is not None:
        table.add_column(unseen[0], no_wrap=True, overflow="ellipsis", max_width=10)
    for geisha in GEISHAS:
        k = geisha.index
        name = chip(k, deck)
        name.append(f" {geisha.name:<7} {geisha_rank(k, deck)}", style=GEISHA_STYLES[k])
        holder = favor[k]
        cells = [
            _placed_cell(left.placed[k], k),
            Text("◀", style="bold") if holder == left.seat else Text("·", style="dim"),
            name,
            Text("▶", style="bold") if holder == right.seat else Text("·", style="dim"),
            _placed_cell(right.placed[k], k),
        ]
        if unseen is not None:
            count = unseen[1][k]
            cells.append(Text(f"{count} " + "●" * count, style="" if count else "dim"))
        table.add_row(*cells)
    return table


def render_markers(side: Side, lang: Lang, keys: bool, deck: Deck = "boxed") -> list[Text]:
    """The four action markers, one text each: used ones struck through and crossed
    (×), a used Secret or Trade-off with its cards, face up for one's own, face down
    (▒) for the other's; with ``keys`` each unused marker starts with its key."""
    markers: list[Text] = []
    for kind in ACTIONS:
        marker = Text()
        name = action_words(kind, side.seat, lang, deck)
        if kind in side.used:
            marker.append(f"×{name}", style="dim strike")
            marker.append_text(_face_down(side, kind, deck))
        else:
            if keys:
                marker.append(ACTION_KEYS[kind].upper() + " ", style="bold reverse")
            marker.append(name, style="bold" if keys else "")
        markers.append(marker)
    return markers


def _face_down(side: Side, kind: MoveKind, deck: Deck) -> Text:
    if kind not in (MoveKind.SECRET, MoveKind.TRADE_OFF):
        return Text()
    if not side.own:
        return Text(" " + "▒" * (1 if kind == MoveKind.SECRET else 2), style="dim")
    if kind == MoveKind.SECRET:
        return Text(" ").append_text(
            letters_with_glyphs(() if side.secret is None else (side.secret,), deck)
        )
    return Text(" ").append_text(letters_with_glyphs(side.tradeoff, deck))


def render_side(side: Side, lang: Lang) -> Text:
    """A seat's name, charm and geishas."""
    head = Text(side.label, style="bold")
    tally = message(
        "tui_side",
        lang,
        charm=side.charm,
        charm_term=term("charm", lang),
        geishas=message("n_geishas", lang, n=side.geishas),
    )
    head.append(" · " + tally)
    return head


def seat_headings(left: int, lang: Lang) -> tuple[str, str]:
    """The headings of the row's two sides when nobody faces the screen (a replay, the
    end): the seats, ``left`` first. A player's whole name is on their side's line; a
    long one would not fit above the row's cards at 80 columns."""
    return (
        message("player", lang, number=left + 1),
        message("player", lang, number=2 - left),
    )


def render_scoring(
    summary: RoundSummary,
    labels: tuple[str, str],
    viewer: int | None,
    lang: Lang,
    *,
    deck: Deck = "boxed",
) -> Group:
    """A scored round: both Secrets and the totals in words, then the geisha row with
    each side's cards at scoring (Secrets included) and the markers after it. The
    opponent of ``viewer`` is on the left, as on the table; Player 2 for no viewer (as
    in a replay)."""
    left = 1 if viewer is None else 1 - viewer
    sides = [
        Side(seat, labels[seat], summary.sides[seat], frozenset(), 0, 0, 0, own=False)
        for seat in (left, 1 - left)
    ]
    headers = seat_headings(left, lang)
    if viewer is not None:
        headers = (message("marker_them", lang), message("marker_you", lang))
    return Group(
        Text(message("round_scored", lang, round=summary.round), "bold underline"),
        Text(summary_line(summary, labels, viewer, lang, deck=deck)),
        render_row(summary.favor, sides[0], sides[1], headers, deck=deck),
    )
