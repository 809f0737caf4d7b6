"""Bots see views only, are reproducible, and the search pieces compute what they claim."""

from __future__ import annotations

import gc
import pickle
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from hanamikoji import Game, Move, MoveKind, View
from hanamikoji.arena import Plan, PlayerSpec, ProcessBackend, run_plan
from hanamikoji.bots import BOTS, Bot, RandomBot, make_bot
from hanamikoji.bots.analysis import AnalysisSettings, analyze_record, label_for
from hanamikoji.bots.base import (
    OPTION_MEANINGS,
    BotSpecError,
    bot_option_defaults,
    bot_options,
    parse_bot_spec,
)
from hanamikoji.bots.determinize import determinize, sample_world
from hanamikoji.bots.evaluation import round_end_value
from hanamikoji.bots.expert import EXPERT_CONFIG, ExpertBot
from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.ismcts import (
    DEFAULT_CONFIG,
    ISMCTSBot,
    SearchConfig,
    fixed_search,
    searching_model,
)
from hanamikoji.bots.judge import best_first
from hanamikoji.bots.levels import LEVELS, Level, describe_level, make_level_bot
from hanamikoji.bots.match_table import BOARDS, load_table, table_match_value
from hanamikoji.bots.solver import RoundSolver, SolverTimeout
from hanamikoji.bots.weakened import WeakenedBot
from hanamikoji.core.variants import CLASSIC, FRENCH, THREE_ROUNDS
from hanamikoji.notation.records import GameRecord

FAST = {"ismcts": {"iterations": 30}, "expert": {"iterations": 30}}
PRIOR = replace(DEFAULT_CONFIG, random_prior=0.1)
"""``ismcts``'s search against an opponent who may play at random."""
DOCS = Path(__file__).resolve().parent.parent / "docs"


def fast_bot(name: str, seed: int) -> Bot:
    bot = make_bot(name, seed=seed, budget=30.0)
    for attribute, value in FAST.get(name, {}).items():
        setattr(bot, attribute, value)
    return bot


def reachable(root: object, limit: int = 200_000) -> list[object]:
    """Every object reachable from ``root`` through references (classes and modules aside)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack and len(seen) < limit:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type) or type(item).__name__ == "module":
            continue
        seen[id(item)] = item
        stack.extend(gc.get_referents(item))
    return list(seen.values())


class Spy(Bot):
    """Wraps a bot and checks what it is given."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(0)
        self.inner = inner
        self.calls = 0

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        assert isinstance(view, View)
        assert not any(isinstance(obj, Game) for obj in reachable((view, legal)))
        self.calls += 1
        return self.inner.choose(view, legal)


def play(game: Game, bots: Sequence[Bot]) -> list[Move]:
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        move = bots[seat].choose(game.view(seat), game.legal_moves)
        assert move in game.legal_moves
        game.push(move)
    return list(game.move_stack)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_is_given_a_view_and_the_legal_moves_and_nothing_reaching_the_game(
    name: str,
) -> None:
    spies = [Spy(fast_bot(name, 1)), Spy(fast_bot("random", 2))]
    play(Game("three-rounds", seed=5), spies)
    assert spies[0].calls > 0


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_are_reproducible_given_their_seed(name: str) -> None:
    def line(seed: int) -> list[Move]:
        return play(Game("french", seed=9), [fast_bot(name, seed), fast_bot("random", 4)])

    assert line(3) == line(3)


def test_a_bot_spec_sets_options_of_the_bots_constructor() -> None:
    bot = make_bot("ismcts:iterations=7, candidates=none,inference=FALSE", seed=3)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.config.candidates, bot.config.inference) == (7, None, False)
    assert bot.seed == 3
    explorer = make_bot("ismcts:exploration=1")
    assert isinstance(explorer, ISMCTSBot) and explorer.config.exploration == 1
    # The search's options are its configuration's fields, the rest kept from the bot's
    # default: the expert's root stays 10 wide.
    expert = make_bot("expert:surprise=0.2,random_prior=none")
    assert isinstance(expert, ExpertBot)
    assert expert.config == replace(EXPERT_CONFIG, surprise=0.2, random_prior=None)
    # The spec's budget is the player's own: it wins over the one given for everyone.
    assert make_bot("ismcts:budget=0.5", budget=0.1).budget == 0.5
    assert make_bot("ismcts", budget=0.1).budget == 0.1
    assert parse_bot_spec("greedy") == ("greedy", {})


def test_only_plain_options_can_be_set_and_every_bot_takes_a_budget() -> None:
    for name in BOTS:
        assert "budget" in bot_options(name)
        assert "seed" not in bot_options(name)
    assert bot_options("ismcts")[:3] == ["budget", "iterations", "exploration"]
    # Objects (a network, a match value, a tuning) are not written in a spec; nor is the
    # configuration itself, only its fields.
    for hidden in ("network", "match_value", "config"):
        assert hidden not in bot_options("ismcts")
    assert bot_options("expert") == bot_options("ismcts")
    assert bot_options("greedy") == ["budget", "compiled"]


def test_options_are_found_whether_annotations_are_postponed_or_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Plain(RandomBot):
        def __init__(
            self, seed: int | None = None, budget: float | None = None, depth: int = 1
        ) -> None:
            super().__init__(seed, budget)
            self.depth = depth

    # As a module without ``from __future__ import annotations`` leaves them: types.
    Plain.__init__.__annotations__.update(
        {"seed": int | None, "budget": float | None, "depth": int}
    )
    monkeypatch.setitem(BOTS, "plain", Plain)
    assert bot_options("plain") == ["budget", "depth"]
    bot = make_bot("plain:depth=3,budget=0.5")
    assert isinstance(bot, Plain) and (bot.depth, bot.budget) == (3, 0.5)
    with pytest.raises(BotSpecError) as caught:
        make_bot("plain:depth=0.5")
    assert "takes a whole number, not '0.5'" in str(caught.value)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nobody:iterations=3", "unknown bot 'nobody'"),
        ("greedy:depth=2", "greedy has no option 'depth' (its options: budget, compiled)"),
        ("ismcts:seed=3", "no option 'seed'"),
        ("ismcts:network=x", "no option 'network'"),
        ("ismcts:iterations", "option 1 of 'ismcts:iterations' is 'iterations', not OPTION=VALUE"),
        ("ismcts:iterations=4,", "option 2 of"),
        ("ismcts:iterations=x", "'x' is not a number, true, false or none"),
        ("ismcts:iterations=0.5", "takes a whole number or none, not '0.5'"),
        ("ismcts:iterations=true", "takes a whole number or none, not 'true'"),
        ("ismcts:inference=1", "takes true or false, not '1'"),
        ("ismcts:inference=0.02", "takes true or false, not '0.02'"),
        ("ismcts:exploration=none", "takes a number, not 'none'"),
        ("ismcts:iterations=1,iterations=2", "sets 'iterations' twice"),
        ("ismcts:exact_turns=99", "exact_turns is 0 to 8, not 99"),
        ("expert:surprise=0", "surprise is a share above 0 and at most 1, not 0"),
        ("expert:inference=false", "random_prior needs inference"),
        ("ismcts:temperature=0", "option 'temperature' of 'ismcts:temperature=0' is above 0"),
        ("ismcts:random_prior=1", "random_prior is a chance between 0 and 1, not 1"),
    ],
)
def test_a_bad_bot_spec_is_refused_naming_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError) as caught:
        make_bot(spec)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


REMOVED_OPTIONS = (
    "racing=2.5",
    "reply_temperature=0.02",
    "playout_temperature=0.02",
    "reply_widening=20",
    "shortlist=3",
    "modelled_replies=true",
    "network_playouts=true",
    "hiding=0.01",
    "greedy_prior=0.1",
)
"""Search options measured as no gain and removed (docs/bots.md keeps their results)."""


@pytest.mark.parametrize("name", ["ismcts", "expert"])
@pytest.mark.parametrize("option", REMOVED_OPTIONS)
def test_a_removed_search_option_is_refused_by_name(name: str, option: str) -> None:
    key = option.partition("=")[0]
    with pytest.raises(BotSpecError) as caught:
        make_bot(f"{name}:iterations=5,{option}")
    assert f"{name} has no option {key!r} (its options: budget, iterations," in str(caught.value)


def test_the_expert_searches_without_inference_when_asked() -> None:
    game = Game(seed=12)
    game.push(game.legal_moves[0])
    bot = make_bot("expert:inference=false,random_prior=none,iterations=20", seed=1, budget=60.0)
    assert isinstance(bot, ExpertBot) and not bot.config.inference
    view = game.view(game.to_move or 0)
    # The sampler behind the search, tested on purpose: its worlds must vary.
    sample = bot._sampler(view)  # noqa: SLF001
    worlds = {sample()[0].hand(1 - view.player) for _ in range(40)}
    assert len(worlds) > 1
    assert bot.choose(view, game.legal_moves) in game.legal_moves


OPTIONS_MARKER = "<!-- search options:"


def documented_options(text: str) -> dict[str, tuple[str, str, str]]:
    """The rows of the table after the options marker of docs/bots.md: each option with
    its default for ``ismcts`` and for ``expert`` and its meaning, as written."""
    table = text[text.index(OPTIONS_MARKER) :].split("\n\n", 1)[0]
    rows: dict[str, tuple[str, str, str]] = {}
    for line in table.splitlines()[3:]:  # the marker, the header and its rule
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        rows[cells[0].strip("`")] = (cells[2], cells[3], cells[4])
    return rows


def written(value: object) -> str:
    """A default as a spec writes it: ``none``, ``true``, ``0.2``, ``1``."""
    if value is None or isinstance(value, bool):
        return str(value).lower()
    return f"{value:g}" if isinstance(value, float) else str(value)


def test_the_options_table_of_the_docs_is_the_search_options_and_defaults_of_the_code() -> None:
    documented = documented_options((DOCS / "bots.md").read_text(encoding="utf-8"))
    assert list(documented) == bot_options("ismcts") == bot_options("expert")
    for column, name in enumerate(("ismcts", "expert")):
        defaults = bot_option_defaults(name)
        for option, row in documented.items():
            assert row[column] == written(defaults[option]), (name, option)
    for option, row in documented.items():
        assert row[2] == OPTION_MEANINGS[option], option


def test_every_option_of_every_bot_has_a_default_and_a_meaning() -> None:
    for name in BOTS:
        assert set(bot_option_defaults(name)) == set(bot_options(name))
        assert set(bot_options(name)) <= set(OPTION_MEANINGS), name
    bot = make_bot("expert")
    assert isinstance(bot, ISMCTSBot)
    assert bot_option_defaults("expert")["random_prior"] == bot.config.random_prior


def test_levels_map_onto_registered_bots_with_budgets() -> None:
    assert sorted(LEVELS) == [1, 2, 3, 4, 5, 6, 7, 8]
    for number, level in LEVELS.items():
        bot = make_level_bot(number, seed=1)
        assert bot.name == level.resolved_bot()
        assert level.resolved_bot() in BOTS
        assert bot.budget == level.budget
    assert [LEVELS[n].spec() for n in (1, 6, 8)] == ["random", "greedy", "expert"]
    # Levels 2-5: the greedy judge played hotter and hotter down the levels.
    weakened = [make_level_bot(n, seed=1) for n in (2, 3, 4, 5)]
    assert all(isinstance(bot, WeakenedBot) for bot in weakened)
    temperatures = [bot.play_temperature for bot in weakened if isinstance(bot, WeakenedBot)]
    assert temperatures == sorted(temperatures, reverse=True)
    search = make_level_bot(7, seed=1)
    assert isinstance(search, ISMCTSBot) and search.iterations == 200
    assert search.config.compiled
    assert describe_level(7) == "level 7: ismcts (iterations=200,compiled=true), 1 s per decision"
    assert describe_level(2) == "level 2: weakened (play_temperature=0.6)"
    with pytest.raises(ValueError, match="1-8"):
        make_level_bot(9)


def test_a_level_falls_back_to_ismcts_without_its_options() -> None:
    level = Level(9, "no-such-bot", 0.1, "play_temperature=0.5")
    assert level.resolved_bot() == "ismcts" and level.spec() == "ismcts"


# -- the weakened greedy bot ------------------------------------------------------------


def positions(count: int, seed: int) -> list[tuple[View, list[Move]]]:
    """Decisions met in greedy self-play (a few per game, none forced): the view of the
    player to decide and the legal decisions."""
    rng = random.Random(seed)
    found: list[tuple[View, list[Move]]] = []
    game_seed = seed
    while len(found) < count:
        game = Game(seed=game_seed)
        game_seed += 1
        bots = [GreedyBot(seed=game_seed), GreedyBot(seed=game_seed + 1)]
        while not game.is_over() and len(found) < count:
            seat = game.to_move
            assert seat is not None
            legal = game.legal_moves
            if len(legal) > 1 and rng.random() < 0.2:
                found.append((game.view(seat), list(legal)))
            game.push(bots[seat].choose(game.view(seat), legal))
    return found


def test_the_weakened_bot_is_legal_and_reproducible_per_seed() -> None:
    for view, legal in positions(30, seed=5):
        first = WeakenedBot(seed=7, play_temperature=0.3, blunders=0.1).choose(view, legal)
        again = WeakenedBot(seed=7, play_temperature=0.3, blunders=0.1).choose(view, legal)
        assert first in legal and first == again
    spec = make_bot("weakened:play_temperature=0.2,blunders=0.05", seed=3)
    assert isinstance(spec, WeakenedBot)
    assert (spec.play_temperature, spec.blunders) == (0.2, 0.05)


def test_a_cold_weakened_bot_plays_one_of_greedys_best() -> None:
    judge = GreedyBot(seed=1)
    for index, (view, legal) in enumerate(positions(40, seed=11)):
        scores = judge.scores(view, legal)
        cold = WeakenedBot(seed=index, play_temperature=1e-9).choose(view, legal)
        assert scores[cold] >= max(scores.values()) - 1e-6


def test_the_weakened_bots_chances_are_a_softmax_with_a_uniform_share() -> None:
    view, legal = positions(1, seed=2)[0]
    bot = WeakenedBot(seed=1, play_temperature=0.2, blunders=0.25)
    chances = bot.chances(view, legal)
    assert set(chances) == set(legal) and sum(chances.values()) == pytest.approx(1.0)
    assert min(chances.values()) >= 0.25 / len(legal) - 1e-12
    scores = GreedyBot(seed=1).scores(view, legal)
    ranked = sorted(legal, key=scores.__getitem__)
    assert [chances[m] for m in ranked] == sorted(chances[m] for m in ranked)
    hot = WeakenedBot(seed=1, play_temperature=0.2).chances(view, legal)
    best = max(legal, key=scores.__getitem__)
    assert hot[best] > chances[best]  # blunders take their share from the best


def test_the_weakened_bot_refuses_settings_out_of_range() -> None:
    for spec in ("weakened:play_temperature=0", "weakened:blunders=1.5", "weakened:blunders=-0.1"):
        with pytest.raises(BotSpecError):
            make_bot(spec)
    with pytest.raises(ValueError, match="temperature"):
        WeakenedBot(play_temperature=-1.0)
    with pytest.raises(ValueError, match="share"):
        WeakenedBot(blunders=2.0)


def test_a_colder_weakened_bot_beats_a_hotter_one() -> None:
    """Levels 5 and 2 on 20 seeded games with the seats swapped (a second): the level
    with the colder judge scores more (275 of 300 in the levels' calibration:
    docs/strength.md)."""
    plan = Plan.match(
        PlayerSpec.bot_named(LEVELS[5].spec(), "cold"),
        PlayerSpec.bot_named(LEVELS[2].spec(), "hot"),
        games=20,
    )
    summary = run_plan(plan, ProcessBackend(jobs=1))
    assert summary.matches[0].score > 12


def test_search_obeys_a_fixed_iteration_count() -> None:
    game = Game(seed=12)
    bot = ISMCTSBot(seed=1, budget=60.0, iterations=25)
    bot.choose(game.view(0), game.legal_moves)
    assert bot.stats.iterations == 25


def test_search_compares_its_root_candidates_on_the_same_worlds() -> None:
    game = Game(seed=12)
    three = replace(DEFAULT_CONFIG, candidates=3)
    bot = ISMCTSBot(seed=1, budget=60.0, iterations=30, config=three)
    values = bot.evaluate(game.view(0), game.legal_moves)
    assert len(values) == 3
    # Each sampled world is played once under every candidate.
    assert [visits for visits, _ in values.values()] == [10, 10, 10]
    best = max(values, key=lambda move: values[move][1])
    again = ISMCTSBot(seed=1, budget=60.0, iterations=30, config=three)
    assert again.choose(game.view(0), game.legal_moves) == best


def test_the_expert_root_searches_the_judges_best_and_then_the_networks_best() -> None:
    game = Game(seed=12)
    view, legal = game.view(0), game.legal_moves
    for width in (3, 6):
        config = replace(EXPERT_CONFIG, root_candidates=width)
        expert = ExpertBot(seed=1, budget=60.0, iterations=4 * (width + 2), config=config)
        searched = set(expert.evaluate(view, legal))
        judged = best_first(legal, GreedyBot(seed=1).scores(view, legal))[:width]
        assert set(judged) <= searched
        assert expert.network is not None
        # The network's own moves, on purpose: the search adds them to what it judged.
        learned = [m for m in expert._by_network(view, legal) if m not in judged][:2]  # noqa: SLF001
        assert searched == set(judged) | set(learned)


def test_the_opponent_model_mixes_the_judges_softmax_with_a_uniform_share() -> None:
    game = Game(seed=12)
    view, legal = game.view(0), game.legal_moves
    scores = GreedyBot(seed=1).scores(view, legal)
    best = max(legal, key=scores.__getitem__)
    for surprise in (0.05, 0.1, 0.5):
        config = replace(EXPERT_CONFIG, temperature=0.03, surprise=surprise)
        # The bot's move model, on purpose (SLF001 here and below): its shape is the point.
        model = ExpertBot(seed=1, config=config)._model(view, legal)  # noqa: SLF001
        assert sum(model.values()) == pytest.approx(1.0)
        assert min(model.values()) == pytest.approx(surprise / len(legal), rel=0.05)
        assert max(model, key=model.__getitem__) == best
    uniform = ExpertBot(seed=1, config=replace(EXPERT_CONFIG, surprise=1.0))._model(view, legal)  # noqa: SLF001
    assert list(uniform.values()) == pytest.approx([1.0 / len(legal)] * len(legal))
    colder = ExpertBot(seed=1, config=replace(EXPERT_CONFIG, temperature=0.01))
    warmer = ExpertBot(seed=1, config=replace(EXPERT_CONFIG, temperature=0.04))
    assert colder._model(view, legal)[best] > warmer._model(view, legal)[best]  # noqa: SLF001


def test_the_searching_model_softens_a_fixed_search_over_what_it_searched() -> None:
    game = Game(seed=12)
    view, legal = game.view(0), game.legal_moves
    values = {m: value for m, (_, value) in fixed_search(60, seed=5).evaluate(view, legal).items()}
    model = searching_model(60, 0.05, 0.1, seed=5)(view, legal)
    assert list(model) == list(legal)
    assert sum(model.values()) == pytest.approx(1.0)
    floor = 0.1 / len(legal)
    # Unsearched decisions have only the uniform share; the search's best the most.
    assert all(model[m] == pytest.approx(floor) for m in legal if m not in values)
    assert all(model[m] > floor for m in values)
    assert max(model, key=model.__getitem__) == max(values, key=values.__getitem__)
    # The same seed and playouts give the same chances: it is reproducible.
    assert searching_model(60, 0.05, 0.1, seed=5)(view, legal) == model
    colder = searching_model(60, 0.01, 0.1, seed=5)(view, legal)
    best = max(values, key=values.__getitem__)
    assert colder[best] >= model[best]
    for bad in ((0, 0.05, 0.1), (60, 0.0, 0.1), (60, 0.05, 0.0), (60, 0.05, 1.5)):
        with pytest.raises(ValueError):
            searching_model(*bad)


def test_the_search_tells_a_random_opponent_from_the_judge_by_their_decisions() -> None:
    with pytest.raises(ValueError, match="random_prior"):
        SearchConfig(random_prior=1.0)
    with pytest.raises(ValueError, match="needs inference"):
        SearchConfig(random_prior=0.1, inference=False)
    shares = {}
    for opponent in (GreedyBot(seed=4), RandomBot(seed=4)):
        game = Game(seed=10, first_player=1)
        player = GreedyBot(seed=3)
        opponent_decisions = 0
        while opponent_decisions < 4 or game.to_move != 0:
            seat = game.to_move
            assert seat is not None
            bot = opponent if seat == 1 else player
            opponent_decisions += seat == 1
            game.push(bot.choose(game.view(seat), game.legal_moves))
        assert game.round == 1
        # The sampler, on purpose: how often it guesses a random opponent.
        sample = ISMCTSBot(seed=2, config=PRIOR)._sampler(game.view(0))  # noqa: SLF001
        shares[opponent.name] = sum(sample()[1] for _ in range(300)) / 300
    # The prior is 0.1: the judge's decisions make a random opponent unlikely; random
    # ones, after four of them, likely.
    assert shares["greedy"] < 0.05 and shares["random"] > 0.5, shares
    # Searching with it: reproducible from the seed.
    first, second = (ISMCTSBot(seed=1, budget=60.0, iterations=200, config=PRIOR) for _ in range(2))
    view, legal = game.view(0), game.legal_moves
    assert first.choose(view, legal) == second.choose(view, legal)
    assert first.stats.root_visits == second.stats.root_visits


def test_sampled_worlds_are_the_unseen_cards_in_the_places_the_view_leaves_open() -> None:
    rng = random.Random(3)
    game = Game(seed=21)
    for _ in range(7):
        moves = game.legal_moves
        game.push(moves[rng.randrange(len(moves))])
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    for _ in range(50):
        hand, secret, tradeoff, removed, deck = sample_world(view, rng)
        cards = [*hand, *tradeoff, removed, *deck] + ([secret] if secret is not None else [])
        assert tuple(cards.count(k) for k in range(7)) == view.unseen()
        assert len(hand) == view.hand_sizes[view.opponent]
        assert len(deck) == view.deck_size


def test_the_match_table_is_symmetric_between_the_seats() -> None:
    table = load_table()
    rng = random.Random(0)
    for variant in (CLASSIC, THREE_ROUNDS, FRENCH):
        for _ in range(200):
            favor = tuple(rng.choice((None, 0, 1)) for _ in range(7))
            mirrored = tuple(None if f is None else 1 - f for f in favor)
            starter = rng.randrange(2)
            next_round = rng.randrange(2, 4)
            p = table.value(favor, 0, starter, next_round, variant)
            q = table.value(mirrored, 1, 1 - starter, next_round, variant)
            assert p == pytest.approx(q, abs=2e-5)
            assert 0.0 <= p <= 1.0
    # The table's stored values, on purpose: one per board.
    assert len(table._values["classic/starter=0/left=inf"]) == BOARDS  # noqa: SLF001


def test_the_last_round_of_a_limited_variant_is_valued_by_its_tiebreak() -> None:
    # Three geishas each, charm 7 against 9, before the last round of the French
    # edition: the player ahead on charm keeps that lead unless the last round changes it.
    favor = (0, 0, 0, 1, 1, 1, None)
    ahead = table_match_value(favor, 1, 0, 3, FRENCH)
    behind = table_match_value(favor, 0, 0, 3, FRENCH)
    assert ahead > 0.5 > behind


def test_the_round_solver_is_minimax_over_the_rest_of_the_round() -> None:
    rng = random.Random(8)
    sizes = []
    for seed in range(6):
        game = Game("classic", seed=seed)
        while game.turn < 5:
            moves = game.legal_moves
            game.push(moves[rng.randrange(len(moves))])
        before = len(game.move_stack)
        solver = RoundSolver(table_match_value)
        assert solver.value(game) == pytest.approx(_minimax(game, game.round))
        assert len(game.move_stack) == before  # the solver restores the position
        sizes.append(len(solver.table))
    assert max(sizes) > 20  # real trees: actions, splits and the answers to them


def test_one_table_serves_the_solvers_of_many_worlds_of_a_round() -> None:
    """Positions are keyed by everything that decides the rest of the round, so worlds
    sampled behind one view share solved positions, and their values do not change."""
    game = Game("classic", seed=31)
    rng = random.Random(3)
    while game.turn < 7:  # the last turn: at most 4 unseen cards, so worlds repeat
        moves = game.legal_moves
        game.push(moves[rng.randrange(len(moves))])
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    shared: dict[tuple[object, ...], float] = {}
    alone_sizes = 0
    for world_seed in range(40):
        world = determinize(view, random.Random(world_seed))
        alone = RoundSolver(table_match_value)
        value = alone.value(world.copy())
        alone_sizes += len(alone.table)
        assert RoundSolver(table_match_value, table=shared).value(world) == value
    assert len(shared) < alone_sizes


def test_the_solver_stops_at_its_deadline_and_the_expert_falls_back_to_the_judge() -> None:
    game = _last_turn_with_a_competition_to_offer()
    with pytest.raises(SolverTimeout):
        RoundSolver(table_match_value, deadline=0.0).value(game.copy())
    seat = game.to_move
    assert seat is not None
    view, legal = game.view(seat), game.legal_moves
    # A budget too small for one world: nothing solved, and still a legal decision.
    expert = ExpertBot(seed=1, budget=1e-9)
    assert expert.choose(view, legal) in legal
    assert expert.stats.iterations == 0


def _last_turn_with_a_competition_to_offer() -> Game:
    """A first round's last turn with a Competition to offer in more than one way: the
    answers to it make a real tree to solve."""
    rng = random.Random(8)
    for seed in range(100):
        game = Game("classic", seed=seed)
        while game.round == 1 and game.turn < 7:
            moves = game.legal_moves
            game.push(moves[rng.randrange(len(moves))])
        moves = game.legal_moves
        if game.round == 1 and len(moves) > 1 and moves[0].kind == MoveKind.COMPETITION:
            return game
    raise AssertionError("no such position in 100 seeds")


def _minimax(game: Game, round_number: int, chance_seat: int | None = None) -> float:
    """Seat 0's value by plain minimax (expectimax with ``chance_seat`` choosing
    uniformly) to the end of the round, without the solver's table."""
    if game.is_over() or game.round != round_number:
        return round_end_value(game, 0, table_match_value)
    values = []
    mover = game.to_move
    for move in game.legal_moves:
        game.push(move)
        values.append(_minimax(game, round_number, chance_seat))
        game.pop()
    if mover == chance_seat:
        return sum(values) / len(values)
    return max(values) if mover == 0 else min(values)


def test_against_a_seat_that_chooses_at_random_the_solver_averages_its_decisions() -> None:
    rng = random.Random(9)
    for seed in range(6):
        game = Game("classic", seed=seed)
        while game.turn < 6:
            moves = game.legal_moves
            game.push(moves[rng.randrange(len(moves))])
        for chance_seat in (0, 1):
            value = RoundSolver(table_match_value, chance_seat=chance_seat).value(game)
            assert value == pytest.approx(_minimax(game, game.round, chance_seat))
            perfect = RoundSolver(table_match_value).value(game)
            # A seat that gives up choosing can only do worse for itself.
            assert (value >= perfect - 1e-12) if chance_seat == 1 else (value <= perfect + 1e-12)


def test_cost_labels() -> None:
    assert [label_for(c) for c in (0.0, 0.049, 0.05, 0.1, 0.25)] == [
        "",
        "",
        "inaccuracy",
        "mistake",
        "blunder",
    ]


def test_analysis_covers_every_decision_and_marks_forced_ones() -> None:
    game = Game("french", seed=31)
    play(game, [make_bot("random", seed=1), make_bot("greedy", seed=2)])
    record = GameRecord.from_game(game)
    analysis = analyze_record(record, AnalysisSettings(worlds=5, seed=1))
    assert [d.played for d in analysis.decisions] == list(game.move_stack)
    replay = Game("french", seed=31)
    for decision in analysis.decisions:
        assert decision.forced == (len(replay.legal_moves) == 1)
        value = decision.played_value
        assert decision.forced == (value is None) and decision.cost >= 0.0
        assert value is None or 0.0 <= value <= 1.0
        replay.push(decision.played)
    for seat in (0, 1):
        summary = analysis.summary(seat)
        own = [d for d in analysis.decisions if d.seat == seat and not d.forced]
        assert summary.decisions == len(own)


def test_what_a_round_says_about_a_random_opponent_is_the_next_rounds_prior() -> None:
    priors: dict[str, float] = {}
    for opponent in (GreedyBot(seed=4), RandomBot(seed=4)):
        searcher = ISMCTSBot(seed=2, budget=60.0, iterations=40, config=PRIOR)
        game = Game(seed=10, first_player=1)
        while game.round == 1:
            seat = game.to_move
            assert seat is not None and not game.is_over()
            bot = opponent if seat == 1 else searcher
            game.push(bot.choose(game.view(seat), game.legal_moves))
        # The bot's belief and prior, on purpose (SLF001 here and below): what it learnt.
        belief = searcher._random_beliefs[1]  # noqa: SLF001
        prior = searcher._random_prior(game.view(0))  # noqa: SLF001
        assert prior == min(max(belief, 0.01), 0.99)
        priors[opponent.name] = prior
        # A bot built anew for the next decision (as the web app does) carries on from
        # the memory of the last one, which pickles (it crosses to a worker process).
        memory = pickle.loads(pickle.dumps(searcher.memory()))
        assert memory == {1: belief}
        rebuilt = ISMCTSBot(seed=5, config=PRIOR)
        rebuilt.recall(memory)
        assert rebuilt._random_prior(game.view(0)) == prior  # noqa: SLF001
        for nothing in (None, "junk", {"1": 0.5}, {1: "0.5"}):
            rebuilt.recall(nothing)
            assert rebuilt._random_prior(game.view(0)) == 0.1  # noqa: SLF001
        # A new match starts from the prior again.
        assert searcher._random_prior(Game(seed=11).view(0)) == 0.1  # noqa: SLF001
    assert priors["greedy"] < 0.1 < priors["random"], priors
    # Bots that infer nothing carry nothing.
    greedy = GreedyBot(seed=1)
    greedy.recall({1: 0.5})
    assert greedy.memory() is None
