"""Bots see views only, are reproducible, and the search pieces compute what they claim."""

from __future__ import annotations

import gc
import pickle
import random
from collections.abc import Sequence

import pytest

from hanamikoji import Game, Move, MoveKind, View
from hanamikoji.bots import BOTS, Bot, RandomBot, make_bot
from hanamikoji.bots.analysis import analyze_record, label_for
from hanamikoji.bots.base import BotSpecError, bot_options, parse_bot_spec
from hanamikoji.bots.determinize import determinize, sample_world
from hanamikoji.bots.evaluation import round_end_value
from hanamikoji.bots.expert import ExpertBot
from hanamikoji.bots.greedy import GreedyBot, best_first
from hanamikoji.bots.inference import exposure
from hanamikoji.bots.ismcts import (
    EXPOSURE_CAP,
    EXPOSURE_WEIGHED,
    ISMCTSBot,
    _best_move,
    _race,
    _root_values,
    fixed_search,
    opponent_model,
    searching_model,
)
from hanamikoji.bots.levels import LEVELS, describe_level, make_level_bot
from hanamikoji.bots.match_table import BOARDS, load_table, table_match_value
from hanamikoji.bots.solver import RoundSolver, SolverTimeout
from hanamikoji.core.variants import CLASSIC, FRENCH, THREE_ROUNDS
from hanamikoji.notation.records import GameRecord

FAST = {"ismcts": {"iterations": 30}, "expert": {"iterations": 30}}


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
        move = bots[seat].choose(game.view(seat), game.legal_moves())
        assert move in game.legal_moves()
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
    bot = make_bot("ismcts:iterations=7, candidates=none,network_playouts=TRUE", seed=3)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.candidates, bot.network_playouts) == (7, None, True)
    assert bot.seed == 3
    explorer = make_bot("ismcts:exploration=1")
    assert isinstance(explorer, ISMCTSBot) and explorer.exploration == 1
    # The spec's budget is the player's own: it wins over the one given for everyone.
    assert make_bot("ismcts:budget=0.5", budget=0.1).budget == 0.5
    assert make_bot("ismcts", budget=0.1).budget == 0.1
    assert parse_bot_spec("greedy") == ("greedy", {})


def test_only_plain_options_can_be_set_and_every_bot_takes_a_budget() -> None:
    for name in BOTS:
        assert "budget" in bot_options(name)
        assert "seed" not in bot_options(name)
    assert bot_options("ismcts")[:3] == ["budget", "iterations", "exploration"]
    # Objects (a network, a match value, a tuning) are not written in a spec.
    for hidden in ("network", "match_value"):
        assert hidden not in bot_options("ismcts")
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
        ("ismcts:network_playouts=1", "takes true or false, not '1'"),
        ("ismcts:exploration=none", "takes a number, not 'none'"),
        ("ismcts:iterations=1,iterations=2", "sets 'iterations' twice"),
        ("ismcts:exact_turns=99", "exact_turns is 0 to 8, not 99"),
        ("expert:surprise=0", "surprise is a share above 0 and at most 1, not 0"),
        ("expert:inference=none", "random_prior needs inference"),
        ("ismcts:shortlist=0", "shortlist is a positive number of decisions, not 0"),
    ],
)
def test_a_bad_bot_spec_is_refused_naming_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError) as caught:
        make_bot(spec)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_the_expert_searches_without_inference_when_asked() -> None:
    game = Game(seed=12)
    game.push(game.legal_moves()[0])
    bot = make_bot("expert:inference=none,random_prior=none,iterations=20", seed=1, budget=60.0)
    assert isinstance(bot, ExpertBot) and bot.inference is None
    view = game.view(game.to_move or 0)
    sample = bot._sampler(view)
    worlds = {sample()[0].hand(1 - view.player) for _ in range(40)}
    assert len(worlds) > 1
    assert bot.choose(view, game.legal_moves()) in game.legal_moves()


def test_levels_map_onto_registered_bots_with_budgets() -> None:
    assert sorted(LEVELS) == [1, 2, 3, 4, 5]
    for number, level in LEVELS.items():
        bot = make_level_bot(number, seed=1)
        assert bot.name == level.resolved_bot()
        assert level.resolved_bot() in BOTS
    assert [LEVELS[n].budget for n in (3, 4, 5)] == [0.2, 0.5, 1.0]
    assert describe_level(3) == "level 3: ismcts, 0.2 s per decision"
    with pytest.raises(ValueError, match="1-5"):
        make_level_bot(6)


def test_search_obeys_a_fixed_iteration_count() -> None:
    game = Game(seed=12)
    bot = ISMCTSBot(seed=1, budget=60.0, iterations=25)
    bot.choose(game.view(0), game.legal_moves())
    assert bot.stats.iterations == 25


def test_search_compares_its_root_candidates_on_the_same_worlds() -> None:
    game = Game(seed=12)
    bot = ISMCTSBot(seed=1, budget=60.0, iterations=30, candidates=3)
    values = bot.evaluate(game.view(0), game.legal_moves())
    assert len(values) == 3
    # Each sampled world is played once under every candidate.
    assert [visits for visits, _ in values.values()] == [10, 10, 10]
    best = max(values, key=lambda move: values[move][1])
    again = ISMCTSBot(seed=1, budget=60.0, iterations=30, candidates=3)
    assert again.choose(game.view(0), game.legal_moves()) == best


def test_the_expert_root_searches_the_judges_best_and_then_the_networks_best() -> None:
    game = Game(seed=12)
    view, legal = game.view(0), game.legal_moves()
    for width in (3, 6):
        expert = ExpertBot(seed=1, budget=60.0, iterations=4 * (width + 2), root_candidates=width)
        searched = set(expert.evaluate(view, legal))
        judged = best_first(legal, GreedyBot(seed=1).scores(view, legal))[:width]
        assert set(judged) <= searched
        assert expert.network is not None
        learned = [m for m in expert._by_network(view, legal) if m not in judged][:2]
        assert searched == set(judged) | set(learned)


def test_the_opponent_model_mixes_the_judges_softmax_with_a_uniform_share() -> None:
    game = Game(seed=12)
    view, legal = game.view(0), game.legal_moves()
    scores = GreedyBot(seed=1).scores(view, legal)
    best = max(legal, key=scores.__getitem__)
    for surprise in (0.05, 0.1, 0.5):
        model = ExpertBot(seed=1, inference=0.03, surprise=surprise)._model(view, legal)
        assert sum(model.values()) == pytest.approx(1.0)
        assert min(model.values()) == pytest.approx(surprise / len(legal), rel=0.05)
        assert max(model, key=model.__getitem__) == best
    uniform = ExpertBot(seed=1, surprise=1.0)._model(view, legal)
    assert list(uniform.values()) == pytest.approx([1.0 / len(legal)] * len(legal))
    colder = ExpertBot(seed=1, inference=0.01)._model(view, legal)[best]
    assert colder > ExpertBot(seed=1, inference=0.04)._model(view, legal)[best]


def test_the_opponent_model_over_a_shortlist_leaves_the_rest_the_uniform_share() -> None:
    game = Game(seed=12)
    view, legal = game.view(0), game.legal_moves()
    scores = GreedyBot(seed=1).scores(view, legal)
    ranked = best_first(legal, scores)
    plain = ExpertBot(seed=1, inference=0.1, surprise=0.05)._model(view, legal)
    for shortlist in (1, 3, 5):
        model = ExpertBot(seed=1, inference=0.1, surprise=0.05, shortlist=shortlist)._model(
            view, legal
        )
        assert sum(model.values()) == pytest.approx(1.0)
        floor = 0.05 / len(legal)
        assert [model[m] for m in ranked[shortlist:]] == pytest.approx(
            [floor] * (len(legal) - shortlist)
        )
        listed = [model[m] - floor for m in ranked[:shortlist]]
        assert min(listed) > 0
        # Within the shortlist, the chances keep the softmax's proportions.
        assert [p / listed[0] for p in listed] == pytest.approx(
            [(plain[m] - floor) / (plain[ranked[0]] - floor) for m in ranked[:shortlist]]
        )
    assert opponent_model(scores, 0.1, 0.05, len(legal)) == opponent_model(scores, 0.1, 0.05)
    assert opponent_model(scores, 0.1, 0.05, 1)[ranked[0]] == pytest.approx(0.95 + floor)


def test_the_searching_model_softens_a_fixed_search_over_what_it_searched() -> None:
    game = Game(seed=12)
    view, legal = game.view(0), game.legal_moves()
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


def test_racing_drops_the_decisions_clearly_behind_on_the_same_worlds() -> None:
    a, b, c, d = (Move.from_text(text) for text in ("S:A", "S:B", "S:C", "S:D"))
    rng = random.Random(5)
    # Every world's hands move all decisions together; only the paired gap matters.
    luck = [rng.random() for _ in range(40)]
    results = {
        a: [x for x in luck],
        b: [x - 0.05 for x in luck],  # always 0.05 behind: far beyond any noise
        c: [x - rng.choice((-0.01, 0.01)) for x in luck],  # level with a, on average
        d: [x - 0.05 for x in luck],
    }
    assert _race([a, b, c, d], results, 2.5, keep=[d]) == [a, c, d]
    # Big differences between worlds do not hide a steady gap (pairing cancels them).
    assert _race([b, a], results, 2.5, keep=[]) == [a]


def test_a_racing_search_stops_once_one_decision_is_left_and_offers_only_survivors() -> None:
    game = Game(seed=12)
    with pytest.raises(ValueError, match="racing"):
        ISMCTSBot(racing=0)
    plain = ISMCTSBot(seed=1, budget=60.0, iterations=600, candidates=3)
    racing = ISMCTSBot(seed=1, budget=60.0, iterations=600, candidates=3, racing=2.5)
    values = plain.evaluate(game.view(0), game.legal_moves())
    raced = racing.evaluate(game.view(0), game.legal_moves())
    # Here one Gift leads the others clearly from the first worlds on: the search plays
    # the plain search's choice and stops long before its 600 playouts.
    best = max(values, key=lambda move: values[move][1])
    assert list(raced) == [best]
    assert racing.stats.iterations < 200
    same = ISMCTSBot(seed=1, budget=60.0, iterations=600, candidates=3, racing=2.5)
    assert same.choose(game.view(0), game.legal_moves()) == best
    # A decision asked for is never raced out (analysis needs its value).
    worst = min(values, key=lambda move: values[move][1])
    eager = ISMCTSBot(seed=1, budget=60.0, iterations=600, candidates=3, racing=0.01)
    assert set(eager.evaluate(game.view(0), game.legal_moves(), include=[worst])) == {
        best,
        worst,
    }


def test_drawn_decisions_follow_a_softmax_over_the_judges_scores() -> None:
    with pytest.raises(ValueError, match="reply_temperature"):
        ISMCTSBot(reply_temperature=0.0)
    with pytest.raises(ValueError, match="playout_temperature"):
        ISMCTSBot(playout_temperature=-1.0)
    game = Game(seed=12)
    legal = game.legal_moves()
    bot = ISMCTSBot(seed=1)
    scores = bot._judge.scores(game.view(0), legal)
    best = max(scores.values())
    cold = {bot._drawn(game, 0, legal, bot._softmax_at(1e-6)) for _ in range(200)}
    assert cold and all(scores[move] == best for move in cold)
    bot._policies = {}
    hot = [bot._drawn(game, 0, legal, bot._softmax_at(1e6)) for _ in range(3000)]
    # Nearly uniform: most of the many decisions come up.
    assert len(set(hot)) > 0.8 * len(legal)
    bot._policies = {}
    warm = [bot._drawn(game, 0, legal, bot._softmax_at(0.02)) for _ in range(2000)]
    top = max(set(warm), key=warm.count)
    assert scores[top] == best
    assert len(set(warm)) > 1


def test_a_search_with_drawn_replies_keeps_several_replies_under_its_decisions() -> None:
    game = Game(seed=12)
    bot = ISMCTSBot(
        seed=1, budget=60.0, iterations=300, reply_temperature=0.05, playout_temperature=0.05
    )
    root = bot._timed_search(game.view(0), game.legal_moves(), ())
    assert bot.stats.iterations == 300
    replies = [len(child.children) for child in root.children.values()]
    # The opponent's answer is drawn anew in each world, so it varies below a decision.
    assert max(replies) > 1
    assert all(
        grand.mover == 1 for child in root.children.values() for grand in child.children.values()
    )
    # Still reproducible from the bot's seed.
    first, second = (
        ISMCTSBot(
            seed=1, budget=60.0, iterations=300, reply_temperature=0.05, playout_temperature=0.05
        )
        for _ in range(2)
    )
    choice = first.choose(game.view(0), game.legal_moves())
    assert second.choose(game.view(0), game.legal_moves()) == choice
    assert first.stats.root_visits == second.stats.root_visits


def test_modelled_replies_are_drawn_from_inferences_opponent_model() -> None:
    with pytest.raises(ValueError, match="modelled_replies needs inference"):
        ISMCTSBot(modelled_replies=True, inference=None)
    with pytest.raises(ValueError, match="and no reply_temperature"):
        ISMCTSBot(modelled_replies=True, reply_temperature=0.05)
    game = Game(seed=12)
    legal = game.legal_moves()
    bot = ISMCTSBot(seed=1, modelled_replies=True, inference=0.1, surprise=1e-9, shortlist=2)
    ranked = best_first(legal, bot._judge.scores(game.view(0), legal))
    model = bot._model(game.view(0), legal)
    drawn = [bot._drawn_reply(game, 0, legal) for _ in range(2000)]
    # Only the shortlist's two, as often as the model says.
    assert set(drawn) == set(ranked[:2])
    assert drawn.count(ranked[0]) / 2000 == pytest.approx(model[ranked[0]], abs=0.04)
    # A search with them is reproducible from the seed, and its replies vary by world.
    first, second = (
        ExpertBot(seed=1, budget=60.0, iterations=240, modelled_replies=True, shortlist=3)
        for _ in range(2)
    )
    root = first._timed_search(game.view(0), legal, ())
    assert max(len(child.children) for child in root.children.values()) > 1
    assert second.choose(game.view(0), legal) == _best_move(root)
    assert first.stats.root_visits == second.stats.root_visits


def test_hiding_prefers_the_close_decision_that_gives_the_hand_away_least() -> None:
    with pytest.raises(ValueError, match="hiding"):
        ISMCTSBot(hiding=0.01, inference=None)
    with pytest.raises(ValueError, match="hiding"):
        ExpertBot(hiding=0.0)
    game = Game(seed=12)
    view, legal = game.view(0), game.legal_moves()
    bot = ExpertBot(seed=1, hiding=0.01)
    gifts = [move for move in legal if move.kind == MoveKind.GIFT][:6]
    exposed = {move: exposure(view, move, bot._model, random.Random(1), 64) for move in gifts}
    least, most = min(gifts, key=exposed.__getitem__), max(gifts, key=exposed.__getitem__)
    assert exposed[most] - exposed[least] > 0.5
    # Equal values: the least exposed; a clear lead in value: the best, however exposed.
    tied = {most: (100, 0.5), least: (100, 0.5)}
    assert bot._least_exposed(view, tied, 0.01) == least
    ahead = {**tied, most: (100, 0.5 + 4 * EXPOSURE_CAP * 0.01)}
    assert bot._least_exposed(view, ahead, 0.01) == most
    # Only the few best values are weighed (the time it takes is bounded).
    better = {move: (100, 0.51) for move in gifts if move not in tied}
    assert len(better) >= EXPOSURE_WEIGHED
    assert bot._least_exposed(view, {**tied, **better}, 0.01) in better
    # A search with it chooses a legal decision, reproducibly from the seed.
    first, second = (ExpertBot(seed=2, budget=60.0, iterations=200, hiding=0.01) for _ in range(2))
    assert first.choose(view, legal) == second.choose(view, legal) in legal


def test_the_search_tells_a_random_opponent_from_the_judge_by_their_decisions() -> None:
    with pytest.raises(ValueError, match="random_prior"):
        ISMCTSBot(random_prior=1.0)
    with pytest.raises(ValueError, match="needs inference"):
        ISMCTSBot(random_prior=0.1, inference=None)
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
            game.push(bot.choose(game.view(seat), game.legal_moves()))
        assert game.round == 1
        sample = ISMCTSBot(seed=2, random_prior=0.1)._sampler(game.view(0))
        shares[opponent.name] = sum(sample()[1] for _ in range(300)) / 300
    # The prior is 0.1: the judge's decisions make a random opponent unlikely; random
    # ones, after four of them, likely.
    assert shares["greedy"] < 0.05 and shares["random"] > 0.5, shares
    # Searching with it: reproducible from the seed.
    first, second = (
        ISMCTSBot(seed=1, budget=60.0, iterations=200, random_prior=0.1) for _ in range(2)
    )
    view, legal = game.view(0), game.legal_moves()
    assert first.choose(view, legal) == second.choose(view, legal)
    assert first.stats.root_visits == second.stats.root_visits


def test_searched_replies_widen_in_the_opponents_own_information_sets() -> None:
    with pytest.raises(ValueError, match="reply_widening"):
        ISMCTSBot(reply_widening=0)
    game = Game(seed=12)
    greedy = GreedyBot(seed=1)
    for _ in range(5):
        seat = game.to_move
        assert seat is not None
        game.push(greedy.choose(game.view(seat), game.legal_moves()))
    me = game.to_move
    assert me is not None
    view, legal = game.view(me), game.legal_moves()
    # Widening beyond the visits a search can make: the judge's reply, the plain search.
    plain = ISMCTSBot(seed=1, budget=60.0, iterations=300)
    never = ISMCTSBot(seed=1, budget=60.0, iterations=300, reply_widening=10_000)
    assert _root_values(plain._timed_search(view, legal, ())) == _root_values(
        never._timed_search(view, legal, ())
    )
    bot = ISMCTSBot(seed=1, budget=60.0, iterations=300, reply_widening=5)
    root = bot._timed_search(view, legal, ())
    widened = 0
    for child in root.children.values():
        assert child.replies is not None
        for key, stats in child.replies.items():
            visits = sum(int(entry[0]) for entry in stats.values())
            # The replies searched in an information set are the judge's best on the
            # opponent's view, as many as its visits allow (up to ``candidates``).
            assert len(stats) <= min(3, 1 + (visits - 1) // 5)
            assert key[0] == 1 - me
            assert list(stats) == bot._rankings[key][: len(stats)]
            widened += len(stats) > 1
    assert widened > 0
    first, second = (
        ISMCTSBot(seed=1, budget=60.0, iterations=300, reply_widening=5) for _ in range(2)
    )
    assert first.choose(view, legal) == second.choose(view, legal)
    assert first.stats.root_visits == second.stats.root_visits


def test_sampled_worlds_are_the_unseen_cards_in_the_places_the_view_leaves_open() -> None:
    rng = random.Random(3)
    game = Game(seed=21)
    for _ in range(7):
        moves = game.legal_moves()
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
    assert len(table._values["classic/starter=0/left=inf"]) == BOARDS


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
            moves = game.legal_moves()
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
        moves = game.legal_moves()
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
    view, legal = game.view(seat), game.legal_moves()
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
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])
        moves = game.legal_moves()
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
    for move in game.legal_moves():
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
            moves = game.legal_moves()
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
    analysis = analyze_record(record, budget=0.02, seed=1)
    assert [d.played for d in analysis.decisions] == list(game.move_stack)
    replay = Game("french", seed=31)
    for decision in analysis.decisions:
        assert decision.forced == (len(replay.legal_moves()) == 1)
        assert 0.0 <= decision.played_value <= 1.0 and decision.cost >= 0.0
        replay.push(decision.played)
    for seat in (0, 1):
        summary = analysis.summary(seat)
        own = [d for d in analysis.decisions if d.seat == seat and not d.forced]
        assert summary.decisions == len(own)


def test_what_a_round_says_about_a_random_opponent_is_the_next_rounds_prior() -> None:
    priors: dict[str, float] = {}
    for opponent in (GreedyBot(seed=4), RandomBot(seed=4)):
        searcher = ISMCTSBot(seed=2, budget=60.0, iterations=40, random_prior=0.1)
        game = Game(seed=10, first_player=1)
        while game.round == 1:
            seat = game.to_move
            assert seat is not None and not game.is_over()
            bot = opponent if seat == 1 else searcher
            game.push(bot.choose(game.view(seat), game.legal_moves()))
        belief = searcher._random_beliefs[1]
        prior = searcher._random_prior(game.view(0))
        assert prior == min(max(belief, 0.01), 0.99)
        priors[opponent.name] = prior
        # A bot built anew for the next decision (as the web app does) carries on from
        # the memory of the last one, which pickles (it crosses to a worker process).
        memory = pickle.loads(pickle.dumps(searcher.memory()))
        assert memory == {1: belief}
        rebuilt = ISMCTSBot(seed=5, random_prior=0.1)
        rebuilt.recall(memory)
        assert rebuilt._random_prior(game.view(0)) == prior
        for nothing in (None, "junk", {"1": 0.5}, {1: "0.5"}):
            rebuilt.recall(nothing)
            assert rebuilt._random_prior(game.view(0)) == 0.1
        # A new match starts from the prior again.
        assert searcher._random_prior(Game(seed=11).view(0)) == 0.1
    assert priors["greedy"] < 0.1 < priors["random"], priors
    # Bots that infer nothing carry nothing.
    greedy = GreedyBot(seed=1)
    greedy.recall({1: 0.5})
    assert greedy.memory() is None
