"""Game records: text and JSON round trips, replay, and the errors of broken records."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanamikoji import Deal, Game, Move, Variant
from hanamikoji.bots.base import RandomBot
from hanamikoji.core.cards import FULL_SET, items
from hanamikoji.core.rng import MAX_SEED, deal_for_round
from hanamikoji.notation.names import card_table_text, describe_move
from hanamikoji.notation.records import (
    FORFEIT_TAGS,
    JSON_FORMAT,
    Forfeit,
    GameRecord,
    RecordError,
    RecordRound,
    read_record,
    write_record,
)

VARIANT_NAMES = (
    "classic",
    "three-rounds",
    "french",
    "classic/cap=2",
    "three-rounds/cap=2",
    "french/cap=1",
)
DOCS = Path(__file__).resolve().parent.parent / "docs" / "records.md"

# -- making games ---------------------------------------------------------------------


def random_deal(rng: random.Random) -> Deal:
    order = list(items(FULL_SET))
    rng.shuffle(order)
    return Deal.from_order(order)


def play(
    game: Game,
    rng: random.Random,
    stop: int | None = None,
    feed: bool = False,
    until_offer: bool = False,
) -> Game:
    """Random legal decisions until the game ends, ``stop`` decisions are on the stack,
    or the game waits for a deal nobody ``feed``s; then, with ``until_offer``, on until
    a Gift or Competition waits for its response."""
    while not game.is_over():
        if game.needs_deal:
            if not feed:
                break
            game.deal(random_deal(rng))
            continue
        stopping = stop is not None and len(game.move_stack) >= stop
        if stopping and (not until_offer or game.pending is not None):
            break
        legal = game.legal_moves
        game.push(legal[rng.randrange(len(legal))])
    return game


def assert_same_game(replayed: Game, original: Game) -> None:
    assert replayed.move_stack == original.move_stack
    assert replayed.outcome == original.outcome
    assert replayed.view(0) == original.view(0)
    assert replayed.view(1) == original.view(1)
    assert replayed.needs_deal == original.needs_deal
    assert replayed.deals() == original.deals()
    assert replayed.legal_moves == original.legal_moves


@st.composite
def games(draw: st.DrawFn) -> tuple[Game, bool]:
    """A random game, finished or not, and whether it is fed deals by hand (no seed)."""
    variant = draw(st.sampled_from(VARIANT_NAMES))
    first_player = draw(st.sampled_from((0, 1)))
    dealing = draw(st.sampled_from(("seed", "seed+deals", "deals", "deals+feed")))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    seed = draw(st.integers(0, MAX_SEED)) if dealing.startswith("seed") else None
    if dealing == "seed":
        explicit = 0
    elif dealing == "deals+feed":
        explicit = 1
    else:
        explicit = draw(st.integers(1, 4))
    game = Game(variant, seed, first_player, deals=[random_deal(rng) for _ in range(explicit)])
    stop = draw(st.one_of(st.none(), st.integers(0, 40)))
    play(game, rng, stop, feed=dealing == "deals+feed", until_offer=draw(st.booleans()))
    return game, dealing == "deals+feed"


# -- round trips and replay -----------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_text_and_json_round_trip_and_replay_to_the_same_game(case: tuple[Game, bool]) -> None:
    game, _ = case
    record = GameRecord.from_game(game, players=("Alice", "random"), date="2026-11-22")

    text = record.to_text()
    assert GameRecord.from_text(text) == record
    assert GameRecord.from_text(text).to_text() == text
    as_json = record.to_json()
    assert GameRecord.from_json(as_json) == record
    assert json.loads(as_json)["format"] == JSON_FORMAT

    assert_same_game(record.replay(), game)
    assert_same_game(GameRecord.from_text(text).replay(), game)
    assert_same_game(GameRecord.from_json(as_json).replay(), game)

    outcome = game.outcome
    assert record.result == ("*" if outcome is None else outcome.result())
    assert record.termination == (None if outcome is None else outcome.termination.value)
    assert len(record.rounds) == len(game.deals())
    for rnd, deal in zip(record.rounds, game.deals(), strict=True):
        seed_gives_it = game.seed is not None and deal_for_round(game.seed, rnd.number) == deal
        assert rnd.deal == (None if seed_gives_it else deal)
    assert sum(len(rnd.moves) for rnd in record.rounds) == len(game.move_stack)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_finished_games_of_every_variant_replay(variant: str) -> None:
    for seed in range(10):
        game = play(Game(variant, seed=seed, first_player=seed % 2), random.Random(seed))
        assert game.is_over()
        record = GameRecord.from_game(game)
        assert record.variant == variant
        assert record.seed == seed
        assert record.first_player == seed % 2
        assert_same_game(GameRecord.from_text(record.to_text()).replay(), game)
        assert_same_game(GameRecord.from_json(record.to_json()).replay(), game)


def test_games_between_bots_round_trip() -> None:
    bots = (RandomBot(seed=1), RandomBot(seed=2))
    game = Game("three-rounds", seed=99)
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        game.push(bots[seat].choose(game.view(seat), game.legal_moves))
    record = GameRecord.from_game(game, players=("random 1", "random 2"))
    assert record.players == ("random 1", "random 2")
    assert_same_game(GameRecord.from_text(record.to_text()).replay(), game)


def test_a_record_stopping_at_an_offer_keeps_the_offer_waiting() -> None:
    game = Game(seed=7)
    game.push_text("G:FGG")
    record = GameRecord.from_game(game)
    assert record.to_text().endswith("Round 1\n1. G:FGG\n")
    replayed = GameRecord.from_text(record.to_text()).replay()
    assert replayed.pending == Move.from_text("G:FGG")
    assert [str(m) for m in replayed.legal_moves] == ["G>F", "G>G"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_decisions_walk_the_record_with_the_game_before_each(case: tuple[Game, bool]) -> None:
    game, _ = case
    record = GameRecord.from_game(game)
    steps = [(position.copy(), entry) for position, entry in record.decisions()]
    assert [entry for _, entry in steps] == list(game.log())
    for position, entry in reversed(steps):
        assert game.pop() == entry.move
        assert position.move_stack == game.move_stack
        assert position.to_move == entry.seat == game.to_move
        assert position.view(0) == game.view(0)
        assert position.view(1) == game.view(1)
        assert position.legal_moves == game.legal_moves


def test_seedless_game_fed_with_game_deal() -> None:
    rng = random.Random(11)
    game = Game("classic", seed=None, first_player=1, deals=[random_deal(rng)])
    play(game, rng, feed=True)
    assert game.seed is None and game.is_over()
    record = GameRecord.from_game(game)
    assert record.seed is None
    assert all(rnd.deal is not None for rnd in record.rounds)
    assert "[Seed" not in record.to_text()
    assert record.to_text().count("\nDeal removed:") == len(game.deals())
    assert_same_game(GameRecord.from_text(record.to_text()).replay(), game)


def test_seedless_game_waiting_for_its_next_deal() -> None:
    rng = random.Random(5)
    game = Game("classic", seed=None, deals=[random_deal(rng)])
    play(game, rng)
    assert game.needs_deal, "this seed's game must not end in round 1"
    record = GameRecord.from_game(game)
    assert len(record.rounds) == 1
    replayed = record.replay()
    assert replayed.needs_deal
    assert_same_game(replayed, game)
    following = random_deal(rng)
    game.deal(following)
    replayed.deal(following)
    assert_same_game(replayed, game)


def test_seeded_game_with_explicit_deals_writes_only_the_deals_the_seed_does_not_give() -> None:
    seed = 2024
    for attempt in range(200):
        rng = random.Random(attempt)
        deals = [random_deal(rng), deal_for_round(seed, 2), random_deal(rng)]
        game = play(Game("classic", seed=seed, deals=deals), rng)
        if game.round >= 4:
            break
    else:
        pytest.fail("no game reached round 4")
    record = GameRecord.from_game(game)
    written = [rnd.deal is not None for rnd in record.rounds]
    assert written[:4] == [True, False, True, False]
    assert_same_game(GameRecord.from_text(record.to_text()).replay(), game)


def test_a_fresh_game_is_a_record_with_one_empty_round() -> None:
    game = Game("french", seed=3, first_player=1)
    record = GameRecord.from_game(game, date="2026-11-22", event="Club night")
    assert record.to_text() == (
        '[Event "Club night"]\n'
        '[Date "2026-11-22"]\n'
        '[Variant "french"]\n'
        '[Seed "3"]\n'
        '[FirstPlayer "2"]\n'
        '[Player1 "Player 1"]\n'
        '[Player2 "Player 2"]\n'
        '[Result "*"]\n'
        "\n"
        "Round 1\n"
    )
    assert record.event == "Club night" and record.date == "2026-11-22"
    assert_same_game(GameRecord.from_text(record.to_text()).replay(), game)


def test_text_form_of_an_explicit_deal() -> None:
    order = [6, 0, 0, 1, 3, 4, 5, 1, 2, 3, 5, 6, 6, 2, 3, 4, 4, 5, 5, 6, 6]
    # Hands are written sorted, the deck in draw order.
    order[1:7] = [5, 4, 3, 1, 0, 0]
    order[13:21] = [6, 6, 5, 5, 4, 4, 3, 2]
    game = Game("french", seed=None, first_player=1, deals=[Deal.from_order(order)])
    game.push_text("G:DFG")
    text = GameRecord.from_game(game, players=("Alice", "Bob")).to_text()
    assert "Deal removed:G hand1:AABDEF hand2:BCDFGG deck:GGFFEEDC\n1. G:DFG\n" in text


def test_only_a_seedless_record_has_no_seed_tag() -> None:
    assert (
        "[Seed" not in GameRecord.from_game(Game(deals=[random_deal(random.Random(1))])).to_text()
    )
    assert '[Seed "0"]' in GameRecord.from_game(Game(seed=0)).to_text()


tag_values = st.text(st.characters(exclude_characters="\r\n", codec="utf-8"), max_size=30)


@settings(deadline=None)
@given(
    st.lists(
        st.tuples(st.from_regex(r"X[A-Za-z0-9_]{0,8}", fullmatch=True), tag_values),
        max_size=4,
        unique_by=lambda tag: tag[0],
    ),
    tag_values,
    tag_values,
)
def test_any_tag_values_round_trip(extra: list[tuple[str, str]], alice: str, event: str) -> None:
    game = Game(seed=1)
    game.push_text(str(game.legal_moves[0]))
    record = GameRecord.from_game(game, players=(alice, "Bob"), event=event, extra_tags=extra)
    if extra:
        assert record.tags[-len(extra) :] == tuple(extra)
    assert GameRecord.from_text(record.to_text()) == record
    assert GameRecord.from_json(record.to_json()) == record
    assert GameRecord.from_text(record.to_text()).players == (alice, "Bob")


def test_quotes_backslashes_and_hashes_in_tag_values() -> None:
    record = GameRecord.from_game(Game(seed=1), event='Game #3: "the \\ final"')
    assert '[Event "Game #3: \\"the \\\\ final\\""]' in record.to_text()
    assert GameRecord.from_text(record.to_text()).event == 'Game #3: "the \\ final"'


def test_the_reader_ignores_comments_blank_lines_whitespace_and_case() -> None:
    game = play(Game(seed=21, deals=[random_deal(random.Random(4))]), random.Random(3), 30)
    record = GameRecord.from_game(game)
    lines = []
    for line in record.to_text().splitlines():
        if line.startswith("Round"):
            lines.append("  # a comment line\n\n\t" + line.replace("Round ", "ROUND\t ") + "  # ")
        elif line[:1].isdigit():
            number, _, moves = line.partition(" ")
            lines.append(f"  {number}{moves.lower()}   # {number}")
        elif line.startswith("Deal"):
            fields = line.split()[1:]
            lines.append("deal  " + "  ".join(reversed(fields)).lower())
        else:
            lines.append(line.replace("[", " [ ").replace("]", " ] # tag"))
    text = "\r\n".join(lines) + "\r\n"
    assert GameRecord.from_text(text) == record


def test_files_are_text_or_json_by_suffix(tmp_path: Path) -> None:
    game = play(Game(seed=5), random.Random(5))
    record = GameRecord.from_game(game, players=("Ann", "Bo"))
    write_record(tmp_path / "game.hkr", record)
    write_record(tmp_path / "game.json", record)
    assert (tmp_path / "game.hkr").read_text(encoding="utf-8") == record.to_text()
    assert json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))["version"] == 1
    assert read_record(tmp_path / "game.hkr") == record
    assert read_record(str(tmp_path / "game.json")) == record
    (tmp_path / "GAME.JSON").write_text(record.to_json(), encoding="utf-8")
    assert read_record(tmp_path / "GAME.JSON") == record
    (tmp_path / "bom.txt").write_text("\ufeff" + record.to_text(), encoding="utf-8")
    assert read_record(tmp_path / "bom.txt") == record


def test_json_tags_may_be_an_array_of_pairs() -> None:
    record = GameRecord.from_game(Game(seed=8), players=("A", "B"))
    data = json.loads(record.to_json())
    data["tags"] = [[name, value] for name, value in data["tags"].items()]
    assert GameRecord.from_json(json.dumps(data)) == record
    del data["rounds"][0]["deal"]
    assert GameRecord.from_json(json.dumps(data)) == record


def test_the_examples_in_the_documentation_read_and_replay() -> None:
    text = DOCS.read_text(encoding="utf-8")
    hkr = re.findall(r"```hkr\n(.*?)```", text, re.DOTALL)
    as_json = re.findall(r"```json\n(.*?)```", text, re.DOTALL)
    assert len(hkr) == 2 and len(as_json) == 1
    full, dealt = (GameRecord.from_text(block) for block in hkr)
    assert full.replay().is_over() and full.result == "1-0"
    assert dealt.rounds[0].deal is not None
    assert GameRecord.from_json(as_json[0]) == dealt
    assert dealt.to_json() == as_json[0]
    assert full.to_text() == hkr[0]


# -- broken text records --------------------------------------------------------------

BASE = """\
[Variant "classic"]
[Seed "7"]
[FirstPlayer "1"]
[Result "*"]

Round 1
1. G:FGG G>F
2. S:C
3. T:AF
4. C:BF/EG C>BF
5. S:G
"""
DEAL = "Deal removed:G hand1:AABDEF hand2:BCDFGG deck:CDEEFFGG"


def test_the_base_record_is_good() -> None:
    record = GameRecord.from_text(BASE)
    assert record.replay().turn == 5
    assert record.players == ("Player 1", "Player 2")
    assert record.tag("Seed") == "7" and record.tag("Event") is None


BROKEN = [
    # tags
    ('[Variant "classic"]', "[Variant classic]", 1, 10, "double quotes"),
    ('[Variant "classic"]', '[Variant "classic]', 1, 10, "no closing"),
    ('[Variant "classic"]', '[Variant "clas\\sic"]', 1, 15, "comes before only"),
    ('[Variant "classic"]', '[Variant "classic"', 1, 19, "ends with ']'"),
    ('[Variant "classic"]', '[Variant "classic"] x', 1, 21, "after a tag"),
    ('[Variant "classic"]', '[9Variant "classic"]', 1, 2, 'a tag is [Name "value"]'),
    ('[Variant "classic"]\n', "", 1, 1, "no Variant tag"),
    ('[FirstPlayer "1"]\n', "", 1, 1, "no FirstPlayer tag"),
    ('[Result "*"]\n', "", 1, 1, "no Result tag"),
    ('"7"', '"7x"', 2, 8, "the Seed '7x' is not a whole number"),
    ('"7"', '"-1"', 2, 8, "the Seed '-1'"),
    ('"7"', '"07"', 2, 8, "the Seed '07'"),
    ('"7"', '"18446744073709551616"', 2, 8, "from 0 to 18446744073709551615"),
    ('"classic"', '"chess"', 1, 11, "unknown variant 'chess'"),
    ('"classic"', '"classic/cap=0"', 1, 11, "the only option is '/cap=N'"),
    ('[FirstPlayer "1"]', '[FirstPlayer "3"]', 3, 15, "FirstPlayer is 1 or 2"),
    ('[Result "*"]', '[Result "2-0"]', 4, 10, "the Result is 1-0, 0-1"),
    ('[Result "*"]', '[Result "*"]\n[Termination "charm"]', 5, 15, "unfinished game"),
    ('[Result "*"]', '[Result "1-0"]\n[Termination "resigned"]', 5, 15, "none of charm"),
    ('[Result "*"]', '[Result "*"]\n[Seed "8"]', 5, 2, "the Seed tag is given twice"),
    ("5. S:G", '5. S:G\n[Event "late"]', 12, 1, "tags come before the first round"),
    # rounds and turns
    ("Round 1\n", "", 6, 1, "a turn comes after 'Round 1'"),
    ("Round 1", "Round 2", 6, 7, "expected round 1 here, not '2'"),
    ("Round 1", "Round one", 6, 7, "expected round 1 here"),
    ("Round 1", "Round", 6, 6, "expected 'Round 1'"),
    ("Round 1", "Round 1 now", 6, 9, "only 'Round N'"),
    ("5. S:G", "6. S:G", 11, 1, "expected turn 5 here, not turn 6"),
    ("2. S:C", "2 S:C", 8, 1, "expected a tag, 'Round N', a Deal line or a numbered turn"),
    ("5. S:G", "5.", 11, 3, "turn 5 has no decision"),
    ("5. S:G", "5. S:G\n\nRound 2", 6, 1, "round 1 has 5 of its 8 turns"),
    # decisions on a turn line
    ("5. S:G", "5. S:X", 11, 4, "'S:X' is not a move: 'X' is not a card"),
    ("5. S:G", "5. S:G\n6. x", 12, 4, "'x' is not a move: a move starts with S, T, G or C"),
    ("5. S:G", "5. S:G G>G", 11, 8, "S:G is a whole turn"),
    ("4. C:BF/EG C>BF", "4. C:BF/EG S:G", 10, 12, "after C:BF/EG comes its response (C>...)"),
    ("4. C:BF/EG C>BF", "4. C:BF/EG C>BF S:G", 10, 17, "nothing more"),
    ("4. C:BF/EG C>BF", "4. C>BF", 10, 4, "C>BF is a response"),
    ("4. C:BF/EG C>BF", "4. C:BF/EG", 10, 4, "the Competition C:BF/EG has no response"),
    ("4. C:BF/EG C>BF", "4. C:BF/EG G>B", 10, 12, "G>B does not answer the Competition"),
    ("5. S:G", "5. S", 11, 4, "S hides its cards: a record names them (such as S:A)"),
    # deals
    ("Round 1\n", f"{DEAL}\nRound 1\n", 6, 1, "a Deal line belongs to a round"),
    ("2. S:C", f"2. S:C\n{DEAL}", 9, 1, "comes right after 'Round 1', before its turns"),
    ("Round 1", f"Round 1\n{DEAL}\n{DEAL}", 8, 1, "round 1 already has its Deal (line 7)"),
    ("Round 1", f"Round 1\n{DEAL[:-1]}X", 7, 54, "'X' is not a card"),
    ("Round 1", "Round 1\n" + DEAL.replace("AABDEF", "AABDE"), 7, 22, "hand1 has 6 cards, not 5"),
    ("Round 1", "Round 1\n" + DEAL.replace("removed:G", "removed:"), 7, 14, "one card, not 0"),
    ("Round 1", "Round 1\n" + DEAL.replace(" deck:CDEEFFGG", ""), 7, 41, "the Deal has no deck"),
    ("Round 1", "Round 1\n" + DEAL.replace("hand2", "hand3"), 7, 29, "a Deal line's fields"),
    ("Round 1", "Round 1\n" + DEAL.replace("hand2:", "hand1:"), 7, 29, "gives hand1 twice"),
    (
        "Round 1",
        "Round 1\n" + DEAL.replace("removed:G", "removed:A"),
        7,
        1,
        "not a deal of the 21 cards: a deal uses each item card exactly once",
    ),
    ('[Seed "7"]\n', "", 5, 1, "round 1 has no Deal and the record has no Seed tag"),
]


@pytest.mark.parametrize(("old", "new", "line", "column", "reason"), BROKEN)
def test_broken_text_records_say_where_and_why(
    old: str, new: str, line: int, column: int, reason: str
) -> None:
    assert old in BASE
    with pytest.raises(RecordError) as caught:
        GameRecord.from_text(BASE.replace(old, new, 1))
    error = caught.value
    assert (error.line, error.column) == (line, column), str(error)
    assert reason in error.reason, str(error)
    assert str(error).startswith(f"line {line}, column {column}: ")


def test_a_seedless_record_needs_a_round_with_a_deal() -> None:
    with pytest.raises(RecordError, match="no Seed tag and no round with a Deal") as caught:
        GameRecord.from_text('[Variant "classic"]\n[FirstPlayer "1"]\n[Result "*"]\n')
    assert (caught.value.line, caught.value.column) == (1, 1)


def test_a_turn_after_the_eighth() -> None:
    game = Game(seed=7)
    rng = random.Random(1)
    while game.round == 1:
        play(game, rng, stop=len(game.move_stack) + 1)
    assert not game.is_over()
    text = GameRecord.from_game(game).to_text()
    assert text.endswith("\n\nRound 2\n")
    broken = text.replace("\n\nRound 2\n", "\n9. S:A\n")
    with pytest.raises(RecordError, match="already has its 8 turns") as caught:
        GameRecord.from_text(broken)
    assert caught.value.line == broken.count("\n")


def test_illegal_decisions_are_refused_with_round_turn_and_reason() -> None:
    broken = BASE.replace("5. S:G", "5. T:GG")
    with pytest.raises(RecordError) as caught:
        GameRecord.from_text(broken)
    error = caught.value
    assert (error.line, error.column, error.round, error.turn) == (11, 4, 1, 5)
    assert error.reason == "illegal move T:GG: Player 1 has already used Trade-off this round"
    assert str(error) == (
        "line 11, column 4: round 1, turn 5: illegal move T:GG:"
        " Player 1 has already used Trade-off this round"
    )

    unchecked = GameRecord.from_text(broken, check=False)
    with pytest.raises(RecordError) as replayed:
        unchecked.replay()
    assert (replayed.value.line, replayed.value.round, replayed.value.turn) == (None, 1, 5)
    assert str(replayed.value).startswith("round 1, turn 5: illegal move T:GG: ")


def test_a_response_taking_cards_not_offered_is_illegal() -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_text(BASE.replace("G>F", "G>A"))
    error = caught.value
    assert (error.line, error.column, error.round, error.turn) == (7, 10, 1, 1)
    assert "G>A takes cards the Gift G:FGG does not offer" in error.reason


def test_a_wrong_deal_makes_the_decisions_illegal() -> None:
    broken = BASE.replace("Round 1", f"Round 1\n{DEAL}")
    with pytest.raises(RecordError) as caught:
        GameRecord.from_text(broken)
    assert (caught.value.round, caught.value.turn) == (1, 1)
    assert "not in Player 1's hand" in caught.value.reason


def test_the_result_must_be_what_the_decisions_give() -> None:
    with pytest.raises(RecordError, match="says 1-0 but the decisions give \\*") as caught:
        GameRecord.from_text(BASE.replace('[Result "*"]', '[Result "1-0"]'))
    assert (caught.value.line, caught.value.column) == (4, 10)


def finished_record() -> tuple[Game, GameRecord]:
    game = play(Game(seed=17), random.Random(17))
    assert game.outcome is not None
    return game, GameRecord.from_game(game)


def test_a_finished_game_with_a_wrong_result_or_termination() -> None:
    game, record = finished_record()
    assert game.outcome is not None
    text = record.to_text()
    lines = text.splitlines()
    result_line = lines.index(f'[Result "{game.outcome.result()}"]') + 1
    with pytest.raises(RecordError, match="the Result tag says \\* but") as caught:
        GameRecord.from_text(
            text.replace(f'[Result "{game.outcome.result()}"]', '[Result "*"]').replace(
                f'[Termination "{game.outcome.termination.value}"]\n', ""
            )
        )
    assert caught.value.line == result_line
    other = "geishas" if game.outcome.termination.value != "geishas" else "charm"
    wrong_termination = text.replace(
        f'[Termination "{game.outcome.termination.value}"]', f'[Termination "{other}"]'
    )
    with pytest.raises(RecordError, match=f"the Termination tag says {other} but") as caught:
        GameRecord.from_text(wrong_termination)
    assert caught.value.line == result_line + 1


def test_a_round_after_the_end_of_the_game_is_refused() -> None:
    _, record = finished_record()
    text = record.to_text()
    rounds = len(record.rounds)
    broken = text + f"\nRound {rounds + 1}\n1. S:A\n"
    with pytest.raises(RecordError, match=f"Round {rounds + 1} should not be in the record") as e:
        GameRecord.from_text(broken)
    assert e.value.line == len(text.splitlines()) + 2
    assert "the game ended in round" in e.value.reason


# -- broken JSON records --------------------------------------------------------------


def base_json() -> dict[str, object]:
    data = json.loads(GameRecord.from_text(BASE).to_json())
    assert isinstance(data, dict)
    return data


def json_error(data: object) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(json.dumps(data))
    return caught.value


def test_broken_json_is_refused_with_line_and_column() -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json('{"format": "hanamikoji-record",\n  "version": }')
    assert (caught.value.line, caught.value.column) == (2, 14)
    assert caught.value.reason.startswith("not JSON")


def test_broken_json_records_name_the_path() -> None:
    data = base_json()
    assert json_error({**data, "format": "pgn"}).path == "$.format"
    assert json_error({**data, "version": 2}).path == "$.version"
    assert json_error({**data, "version": True}).path == "$.version"
    assert json_error({**data, "extra": 1}).path == "$.extra"
    assert json_error([data]).path == "$"
    missing = dict(data)
    del missing["rounds"]
    assert "no 'rounds'" in json_error(missing).reason

    def with_tags(tags: object) -> RecordError:
        return json_error({**data, "tags": tags})

    tags = data["tags"]
    assert isinstance(tags, dict)
    assert with_tags({**tags, "Seed": 7}).path == "$.tags.Seed"
    assert with_tags({**tags, "Seed": "x"}).path == "$.tags.Seed"
    assert with_tags({**tags, "Seed": "x"}).reason.startswith("the Seed 'x'")
    assert with_tags({**tags, "bad name": "x"}).path == '$.tags["bad name"]'
    assert with_tags({k: v for k, v in tags.items() if k != "Variant"}).path == "$.tags"
    assert with_tags("classic").path == "$.tags"
    assert with_tags([["Variant"]]).path == "$.tags[0]"
    assert with_tags([["Variant", 1]]).path == "$.tags[0][1]"
    pairs = [[k, v] for k, v in tags.items()]
    assert with_tags([*pairs, ["Seed", "9"]]).path == f"$.tags[{len(pairs)}][0]"


def test_broken_json_rounds_name_the_path() -> None:
    data = base_json()
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    first = rounds[0]
    assert isinstance(first, dict)
    moves = first["moves"]
    assert isinstance(moves, list)

    def with_round(**changes: object) -> RecordError:
        return json_error({**data, "rounds": [{**first, **changes}]})

    assert json_error({**data, "rounds": {}}).path == "$.rounds"
    assert with_round(round=2).path == "$.rounds[0].round"
    assert with_round(round="1").path == "$.rounds[0].round"
    assert with_round(turns=[]).path == "$.rounds[0].turns"
    assert with_round(moves="S:A").path == "$.rounds[0].moves"
    assert with_round(moves=[*moves[:3], 7]).path == "$.rounds[0].moves[3]"
    error = with_round(moves=[*moves[:3], "S:X"])
    assert error.path == "$.rounds[0].moves[3]"
    assert error.reason.startswith("'S:X' is not a move: 'X' is not a card")
    error = with_round(moves=[*moves[:6], "T:GG"])
    assert (error.path, error.round, error.turn) == ("$.rounds[0].moves[6]", 1, 5)
    assert str(error).startswith("$.rounds[0].moves[6]: round 1, turn 5: illegal move T:GG")
    assert with_round(moves=[*moves[:6], "C>BF"]).path == "$.rounds[0].moves[6]"
    assert with_round(moves=[*moves[:5], *moves[6:]]).path == "$.rounds[0].moves[4]"

    deal = {"removed": "G", "hands": ["AABDEF", "BCDFGG"], "deck": "CDEEFFGG"}
    assert with_round(deal={**deal, "deck": "CDEEFFGX"}).path == "$.rounds[0].deal.deck"
    assert with_round(deal={**deal, "hands": ["AABDEF"]}).path == "$.rounds[0].deal.hands"
    assert with_round(deal={**deal, "hands": ["AABDEF", 1]}).path == "$.rounds[0].deal.hands[1]"
    assert with_round(deal={**deal, "removed": "A"}).path == "$.rounds[0].deal"
    assert with_round(deal={**deal, "cut": 3}).path == "$.rounds[0].deal.cut"
    assert with_round(deal="random").path == "$.rounds[0].deal"

    tags = data["tags"]
    assert isinstance(tags, dict)
    no_seed = {k: v for k, v in tags.items() if k != "Seed"}
    assert json_error({**data, "tags": no_seed}).path == "$.rounds[0].deal"
    assert json_error({**data, "tags": {**tags, "Result": "0-1"}}).path == "$.tags.Result"


def test_a_json_key_given_twice() -> None:
    text = (
        GameRecord.from_text(BASE)
        .to_json()
        .replace('"version": 1,', '"version": 1,\n  "version": 1,')
    )
    with pytest.raises(RecordError, match="given twice") as caught:
        GameRecord.from_json(text)
    assert caught.value.path == "$.version"


# -- records built in code ------------------------------------------------------------


def test_building_a_record_checks_its_tags_and_rounds() -> None:
    good = GameRecord.from_text(BASE)
    tags = good.tags
    with pytest.raises(RecordError, match="no Variant tag"):
        GameRecord(tags[1:], good.rounds)
    with pytest.raises(RecordError, match="round 2 is out of place"):
        GameRecord(tags, (RecordRound(2, None, good.rounds[0].moves),))
    with pytest.raises(RecordError, match="round 1, turn 2: S hides its cards") as caught:
        GameRecord(tags, (RecordRound(1, None, (*good.rounds[0].moves[:2], Move.from_text("S"))),))
    assert (caught.value.round, caught.value.turn, caught.value.line) == (1, 2, None)
    record = GameRecord([list(tag) for tag in tags], [good.rounds[0]])  # type: ignore[arg-type]
    assert record == good
    with pytest.raises(RecordError, match="a tag is a"):
        GameRecord((*tags, ("Event",)), good.rounds)  # type: ignore[arg-type]


@pytest.mark.parametrize("position", [0, 1, 2])
def test_a_decision_given_as_text_is_refused_with_its_place_and_how_to_read_it(
    position: int,
) -> None:
    good = GameRecord.from_text(BASE)
    moves = list(good.rounds[0].moves[:3])
    text = str(moves[position])
    moves[position] = text  # type: ignore[call-overload]
    with pytest.raises(RecordError, match=r"read text with Move\.from_text") as caught:
        GameRecord(good.tags, (RecordRound(1, None, tuple(moves)),))
    assert (caught.value.round, caught.value.turn) == (1, (1, 1, 2)[position])
    assert f"a decision is a Move, not {text!r}" in str(caught.value)


def test_words_for_a_decision_given_as_text_are_a_type_error() -> None:
    for describe in (describe_move, card_table_text):
        with pytest.raises(TypeError, match=rf"^{describe.__name__} takes a Move, not the text"):
            describe("S:D")  # type: ignore[arg-type]


def test_from_game_refuses_what_a_record_cannot_say() -> None:
    custom = Variant("custom", 2, Variant.by_name("french").tiebreak, "two rounds")
    with pytest.raises(RecordError, match=r"'custom' is not one Variant\.by_name knows"):
        GameRecord.from_game(Game(custom, seed=1))
    with pytest.raises(RecordError, match="the Variant tag is given twice"):
        GameRecord.from_game(Game(seed=1), extra_tags=[("Variant", "french")])
    with pytest.raises(RecordError, match="must fit on one line"):
        GameRecord.from_game(Game(seed=1), event="two\nlines")
    with pytest.raises(RecordError, match="is not a tag name"):
        GameRecord.from_game(Game(seed=1), extra_tags=[("Round 1", "x")])


def test_a_forfeit_goes_in_its_own_tags_and_the_record_still_replays() -> None:
    game = Game(seed=3)
    game.push_text(str(game.legal_moves[0]))
    forfeit = Forfeit(1, "timeout", "no bestmove within  1000 ms\nand 1 s of grace")
    record = GameRecord.from_game(game, players=("Ann", "stub"), forfeit=forfeit)
    assert record.result == "*"
    assert record.tags[-2:] == (
        ("ForfeitResult", "1-0"),
        ("Forfeit", "Player 2 (stub) timeout: no bestmove within 1000 ms and 1 s of grace"),
    )
    assert tuple(name for name, _ in record.tags[-2:]) == FORFEIT_TAGS
    assert GameRecord.from_text(record.to_text()) == record
    assert record.replay().move_stack == game.move_stack
    # A seat without a name is named once; seat 0's forfeit gives 0-1.
    unnamed = GameRecord.from_game(game, forfeit=Forfeit(0, "illegal", "G>A"))
    assert unnamed.tag("ForfeitResult") == "0-1"
    assert unnamed.tag("Forfeit") == "Player 1 illegal: G>A"
    finished = play(Game("french", seed=4), random.Random(4))
    with pytest.raises(RecordError, match="a game the rules ended is not lost by forfeit"):
        GameRecord.from_game(finished, forfeit=forfeit)


def test_a_capped_variant_keeps_its_name() -> None:
    game = play(Game("three-rounds/cap=5", seed=4), random.Random(4))
    record = GameRecord.from_game(game)
    assert record.variant == "three-rounds/cap=5"
    assert_same_game(GameRecord.from_text(record.to_text()).replay(), game)
