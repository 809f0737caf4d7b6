"""docs/rules.md against the engine: its tables, its worked examples, its links, and the
map of rules to code in docs/architecture.md (docs/rules-notes.md says how for
developers).

The worked examples are read from the page itself: each round table gives the cards on
each side at scoring and the markers after it; the test plays rounds that end with
exactly those cards and compares every marker, starting player and verdict (the sentence
the apps say at the end of such a game). Editing an example in the page without the
engine agreeing (or the other way round) fails here.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import LETTERS, play, scripted_round

from hanamikoji.core import (
    ACTIONS,
    GEISHAS,
    VARIANTS,
    Deal,
    Game,
    Move,
    MoveKind,
    Termination,
    Variant,
    response_moves,
)
from hanamikoji.core.cards import FULL_SET, TOTAL_CHARM, counts
from hanamikoji.core.game import TURNS_PER_ROUND
from hanamikoji.core.moves import CARDS_PER_ACTION
from hanamikoji.core.rng import DECK_SIZE, HAND_SIZE
from hanamikoji.interfaces.messages import message, outcome_key
from hanamikoji.interfaces.web.catalog.lookup import text as page_text
from hanamikoji.notation.names import LANGUAGES, action_name, item_name, term
from hanamikoji.notation.outcomes import seat_name

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SOURCE = ROOT / "src" / "hanamikoji"
RULES = (DOCS / "rules.md").read_text(encoding="utf-8")
ARCHITECTURE = (DOCS / "architecture.md").read_text(encoding="utf-8")

Table = list[list[str]]


# -- reading the page --------------------------------------------------------------------


def section(text: str, title: str) -> str:
    """The text under the heading ``title`` up to the next heading of the same or a
    higher level."""
    match = re.search(rf"^(#+) {re.escape(title)}\n", text, re.MULTILINE)
    assert match is not None, f"no heading {title!r}"
    level = len(match.group(1))
    following = re.compile(rf"^#{{1,{level}}} ", re.MULTILINE)
    end = following.search(text, match.end())
    return text[match.end() : end.start() if end else len(text)]


def tables(text: str) -> list[Table]:
    """Every Markdown table in ``text``: rows of stripped cells, the separator dropped."""
    found: list[Table] = []
    current: Table = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", cell) for cell in cells):
                current.append(cells)
        elif current:
            found.append(current)
            current = []
    return found


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    return {slug(h) for h in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}


def code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


# -- playing a worked example -------------------------------------------------------------

SEATS = {"Player 1": 0, "Player 2": 1}
MARKERS: dict[str, int | None] = {"middle": None, **SEATS}


class Round:
    """One round table of a worked example."""

    def __init__(self, table: Table) -> None:
        header = table[0]
        match = re.fullmatch(r"round (\d) \(Player ([12]) starts\)", header[0])
        assert match is not None, header[0]
        self.number = int(match.group(1))
        self.starter = int(match.group(2)) - 1
        assert header[1:] == [f"{g.name} {g.charm}" for g in GEISHAS]
        rows = {row[0]: row[1:] for row in table[1:]}
        assert set(rows) == {"Player 1's cards", "Player 2's cards", "marker after"}
        self.sides = (
            tuple(int(n) for n in rows["Player 1's cards"]),
            tuple(int(n) for n in rows["Player 2's cards"]),
        )
        self.favor = tuple(MARKERS[cell] for cell in rows["marker after"])

    def script(self) -> tuple[Deal, list[str]]:
        """A deal and decisions after which each side holds exactly its cards."""
        sides = ["".join(LETTERS[k] * n for k, n in enumerate(side)) for side in self.sides]
        rest = Counter(dict(enumerate(counts(FULL_SET))))
        for side in self.sides:
            rest.subtract(dict(enumerate(side)))
        assert min(rest.values()) >= 0, f"round {self.number} uses a card twice"
        left = "".join(LETTERS[k] * n for k, n in sorted(rest.items()))
        return scripted_round(
            sides[0], sides[1], left[0:2], left[2:4], left[4], starter=self.starter
        )


def example_rounds(title: str) -> list[Round]:
    rounds = [
        Round(table) for table in tables(section(RULES, title)) if table[0][0].startswith("round ")
    ]
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    return rounds


def play_example(title: str, variant: str = "classic") -> Game:
    """The example's rounds played in ``variant``, every scored round checked against its
    table; stops early if the game ends."""
    rounds = example_rounds(title)
    deals, scripts = zip(*(r.script() for r in rounds), strict=True)
    game = Game(variant, first_player=rounds[0].starter, deals=deals)
    for played, script in zip(rounds, scripts, strict=True):
        if game.is_over():
            break
        assert game.round_starter == played.starter
        play(game, script)
        summary = game.summaries()[-1]
        assert summary.round == played.number
        assert summary.starter == played.starter
        assert summary.sides == played.sides
        assert summary.favor == played.favor
    return game


def variant_names() -> dict[str, str]:
    """Each variant by the name the page gives it in English ("three rounds")."""
    return {page_text(f"variant_name_{v.replace('-', '_')}", "en"): v for v in VARIANTS}


def verdict(game: Game) -> str:
    """The sentence the apps say at the end of ``game``, in English."""
    outcome = game.outcome
    assert outcome is not None
    winner = "" if outcome.winner is None else seat_name(outcome.winner)
    return message(outcome_key(outcome), "en", winner=winner, charm_term=term("charm", "en"))


def assert_verdict(game: Game, text: str) -> None:
    """``text`` quotes the apps' verdict, or says which round follows and who starts it."""
    if game.outcome is not None:
        assert f'"{verdict(game)}"' in " ".join(text.split())
        return
    match = re.search(r"round (\d) follows, and Player ([12]) starts it", text)
    assert match is not None, f"no verdict and no next round in {text!r}"
    assert (game.round, game.round_starter) == (int(match.group(1)), int(match.group(2)) - 1)


EXAMPLE_A = "Example (a): 11 charm beats 4 geishas"
EXAMPLE_B = "Example (b): a tie leaves the marker where it was"
EXAMPLE_C = "Example (c): who starts each round"
EXAMPLE_D = "Example (d): the last of three rounds"


def test_example_a_eleven_charm_beats_four_geishas() -> None:
    game = play_example(EXAMPLE_A)
    outcome = game.outcome
    assert outcome is not None
    assert outcome.winner == 1 and outcome.termination == Termination.CHARM
    assert outcome.geishas[0] >= 4 and outcome.charm[1] >= 11
    assert_verdict(game, section(RULES, EXAMPLE_A))


def test_example_b_a_tie_leaves_the_marker_where_it_was() -> None:
    game = play_example(EXAMPLE_B)
    first, second = game.summaries()
    tied = [k for k in range(7) if second.sides[0][k] == second.sides[1][k]]
    assert first.favor[6] == 0 and 6 in tied and second.favor[6] == 0  # Ruri 2-2
    assert first.favor[5] == 1 and 5 in tied and second.favor[5] == 1  # Anju 0-0
    assert_verdict(game, section(RULES, EXAMPLE_B))


def test_example_c_who_starts_each_round() -> None:
    text = section(RULES, EXAMPLE_C)
    games = {"b": play_example(EXAMPLE_B), "d": play_example(EXAMPLE_D)}
    checked = 0
    for letter, claims in re.findall(r"In example \((\w)\), (.*?)(?=In example|$)", text, re.S):
        game = games[letter]
        for seat, number in re.findall(r"Player ([12])\s+starts\s+round\s+(\d)", claims):
            rnd = int(number)
            starter = game.summaries()[rnd - 1].starter if rnd <= len(game.summaries()) else None
            if starter is None:
                assert rnd == game.round and not game.is_over()
                starter = game.round_starter
            assert starter == int(seat) - 1
            checked += 1
    assert checked == 6


@pytest.mark.parametrize("first_player", [0, 1])
def test_the_starter_alternates_whatever_the_rounds_gave(first_player: int) -> None:
    game = Game("classic", seed=11, first_player=first_player)
    while game.round < 6 and not game.is_over():
        game.push(game.legal_moves[0])
    starters = [s.starter for s in game.summaries()]
    assert len(starters) >= 2
    assert starters == [(first_player + n) % 2 for n in range(len(starters))]


def test_example_d_the_variants_decide_the_last_round_differently() -> None:
    names = variant_names()
    verdicts = {names[row[0]]: row[1] for row in tables(section(RULES, EXAMPLE_D))[-1][1:]}
    assert set(verdicts) == set(VARIANTS)
    for variant, said in verdicts.items():
        assert_verdict(play_example(EXAMPLE_D, variant), said)


def test_example_a_says_why_charm_won() -> None:
    game = play_example(EXAMPLE_A)
    assert verdict(game) == (
        "Player 2 wins with 11 or more charm, which beats the other player's 4 geishas."
    )


def test_round_caps_as_the_developer_notes_say() -> None:
    capped = play_example(EXAMPLE_D, "classic/cap=3").outcome
    assert capped is not None and capped.winner is None
    assert capped.termination == Termination.ROUND_CAP and capped.result() == "1/2-1/2"
    shortened = play_example(EXAMPLE_D, "three-rounds/cap=2").outcome
    assert shortened is not None and shortened.rounds == 2
    assert shortened.termination == Termination.MOST_GEISHAS
    assert Variant.by_name("french/cap=5").max_rounds == 3
    french = play_example(EXAMPLE_D, "french").outcome
    assert french is not None and french.result() == "1/2-1/2"


def test_one_player_reaching_both_goals_wins_by_charm() -> None:
    # Player 1 wins Yoko, Chiharu, Anju and Ruri: 4 geishas and 15 charm.
    deal, script = scripted_round("DDEEFFGG", "AABBCCDE", "FF", "GG", "G")
    game = Game(deals=[deal])
    play(game, script)
    outcome = game.outcome
    assert outcome is not None
    assert (outcome.winner, outcome.termination) == (0, Termination.CHARM)
    assert outcome.geishas == (4, 3) and outcome.charm == (15, 6)
    assert "A player who reaches both goals at once simply wins" in section(RULES, "Winning")


# -- the page's tables ---------------------------------------------------------------------


def test_components_table_is_the_engines_row() -> None:
    (table,) = tables(section(RULES, "Components"))
    rows = [tuple(row) for row in table[1:]]
    assert rows == [
        (g.letter, g.name, str(g.charm), str(g.charm), g.item, g.colour) for g in GEISHAS
    ]
    assert counts(FULL_SET) == tuple(g.charm for g in GEISHAS)
    assert sum(counts(FULL_SET)) == TOTAL_CHARM == 21


def test_deal_and_turn_counts() -> None:
    assert (HAND_SIZE, DECK_SIZE, TURNS_PER_ROUND) == (6, 8, 8)
    assert sum(CARDS_PER_ACTION.values()) == HAND_SIZE + DECK_SIZE // 2
    game = Game(seed=5, first_player=1)
    view = game.view(1)
    assert view.hand_sizes == (6, 7) and view.deck_size == 7


@pytest.mark.parametrize("seed", range(20))
def test_the_last_action_takes_the_whole_hand(seed: int) -> None:
    game = Game(seed=seed)
    while game.round == 1 and not game.is_over():
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        if game.pending is None and len(view.used[seat]) == 3:
            (last,) = set(ACTIONS) - view.used[seat]
            assert len(view.hand) == CARDS_PER_ACTION[last]
        game.push(game.legal_moves[-1])


def test_answers_as_the_page_describes_them() -> None:
    assert [str(m) for m in response_moves(Move.from_text("G:DDG"))] == ["G>D", "G>G"]
    assert [str(m) for m in response_moves(Move.from_text("C:AB/AB"))] == ["C>AB"]
    game = Game(seed=7)
    game.push_text("G:FGG")
    assert game.to_move == 1 and game.turn == 0 and len(game.hand(1)) == HAND_SIZE
    game.push_text("G>F")
    assert game.turn == 1 and len(game.hand(1)) == HAND_SIZE + 1


def test_variants_table_lists_every_variant_with_its_rounds() -> None:
    """One row per variant, named as the page names it, in the order of VARIANTS (the web
    page marks a game's variant by its row's place)."""
    (table,) = tables(section(RULES, "Variants"))
    names = variant_names()
    assert [names.get(row[0]) for row in table[1:]] == list(VARIANTS)
    for row in table[1:]:
        variant = VARIANTS[names[row[0]]]
        expected = "no limit" if variant.max_rounds is None else str(variant.max_rounds)
        assert row[1] == expected


KINDS = {"Secret": 0, "Trade-off": 1, "Gift": 2, "Competition": 3}
ITEM_ROWS = {f"{g.name}'s item": g.index for g in GEISHAS}


def test_edition_names_are_those_of_the_notation_module() -> None:
    table = tables(section(RULES, "Names in each edition"))[0]
    langs = [re.sub(r"`([^`]+)`.*", r"\1", cell) for cell in table[0][1:]]
    assert tuple(langs) == LANGUAGES
    seen = set()
    for label, *names in table[1:]:
        for lang, name in zip(LANGUAGES, names, strict=True):
            if label in KINDS:
                assert name == action_name(MoveKind(KINDS[label]), lang)
            elif label in ITEM_ROWS:
                assert name == item_name(ITEM_ROWS[label], lang)
            else:
                key = {"charm": "charm", "favor marker": "marker"}[label]
                assert name == term(key, lang)
        seen.add(label)
    assert seen == {*KINDS, *ITEM_ROWS, "charm", "favor marker"}


def test_notation_table_is_the_engines_text_form() -> None:
    (table,) = tables(section(RULES, "Notation"))
    kinds = {
        "Secret": MoveKind.SECRET,
        "Trade-off": MoveKind.TRADE_OFF,
        "Gift": MoveKind.GIFT,
        "Competition": MoveKind.COMPETITION,
        "answer to a Gift": MoveKind.GIFT_RESPONSE,
        "answer to a Competition": MoveKind.COMPETITION_RESPONSE,
    }
    for decision, text, _ in table[1:]:
        move = Move.from_text(text.strip("`"))
        assert move.kind == kinds[decision]
        assert f"`{move.text()}`" == text
    assert {row[0] for row in table[1:]} == set(kinds)
    notes = section(RULES, "Notation")
    assert "`c:gf/ba` back as `C:AB/FG`" in notes
    assert Move.from_text("c:gf/ba").text() == "C:AB/FG"
    assert [Move.from_text(t).public().text() for t in ("S:D", "T:AG")] == ["S", "T"]


# -- links and pointers --------------------------------------------------------------------


def test_every_link_to_a_section_of_the_rules_finds_it() -> None:
    own = re.findall(r"\]\(#([^)]+)\)", RULES)
    from_architecture = re.findall(r"\]\(rules\.md#([^)]+)\)", ARCHITECTURE)
    assert own and from_architecture
    assert set(own) | set(from_architecture) <= anchors(RULES)


def rule_map() -> Table:
    text = section(ARCHITECTURE, "Where each rule lives")
    (table,) = tables(text)
    return table[1:]


def test_the_rule_map_covers_every_section_of_the_rules() -> None:
    linked = {anchor for row in rule_map() for anchor in re.findall(r"rules\.md#([\w-]+)", row[0])}
    sections = {slug(h) for h in re.findall(r"^##+ (.+)$", RULES, re.MULTILINE)}
    # "A round" only groups its subsections; the examples are checked above, not mapped.
    unmapped = {s for s in sections if s.startswith("example-")} | {"worked-examples", "a-round"}
    assert linked == sections - unmapped


def top_level_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_every_name_in_the_rule_map_exists_where_it_says() -> None:
    checked = 0
    for row in rule_map():
        spans = code_spans(row[1])
        paths = [span for span in spans if span.endswith(".py")]
        for path in paths:
            assert (SOURCE / path).is_file(), path
        modules = paths or ["core/game.py"]
        for span in spans:
            if span.endswith(".py"):
                continue
            head, _, attribute = span.partition(".")
            homes = [m for m in modules if head in top_level_names(SOURCE / m)]
            if not homes and head == "Game":
                homes = ["core/game.py"]
            assert homes, f"{span} is not defined in {', '.join(modules)}"
            if attribute:
                module = importlib.import_module(
                    "hanamikoji." + homes[0].removesuffix(".py").replace("/", ".")
                )
                assert hasattr(getattr(module, head), attribute), span
            checked += 1
    assert checked > 30


def test_nothing_points_outside_the_repository() -> None:
    files = [
        DOCS / "rules.md",
        DOCS / "architecture.md",
        *sorted((SOURCE / "core").glob("*.py")),
        *sorted((SOURCE / "notation").glob("*.py")),
    ]
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "RULES.md" not in text and "shared/" not in text, path
