"""The one search interface: make_searcher, the Searcher protocol, frozen configs, limits each search
refuses, GameOver on final positions, documented statistics, and the knowledge registry."""
import ast
import dataclasses
import subprocess
import sys
import time

import numpy as np
import pytest

from engines.errors import GameOver
from engines.games import make_game
from engines.knowledge.go import registered as go_knowledge
from engines.knowledge.hex import registered as hex_knowledge
from engines.knowledge.bundle import Knowledge, Network
from engines.knowledge.registry import evaluations, knowledge_for
from engines.search import (SCORE, SEARCHERS, STATS_KEYS, WIN_PROBABILITY, Limits, Searcher, SearchResult,
                            make_searcher)
from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig
from engines.search.mcts import MCTS, MCTSConfig

GAMES = [("go", {"size": 5}), ("othello", {"size": 6}), ("othello", {"size": 8}), ("hex", {"size": 4}),
         ("hex", {"size": 5})]
BUDGETS = {"mcts": Limits(simulations=300), "alphabeta": Limits(depth=2), "rave": Limits(simulations=300)}
SCALE = {"mcts": WIN_PROBABILITY, "alphabeta": SCORE, "rave": WIN_PROBABILITY}


def game_id(case):
    return f"{case[0]}{case[1]['size']}"


def random_final_state(game, seed):
    rng = np.random.default_rng(seed)
    s = game.initial_state()
    while not game.is_terminal(s):
        s = game.play(s, int(rng.choice(game.legal_moves(s))))
    return s


# ---- every search on every game through the factory ---------------------------------------------
@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("case", GAMES, ids=game_id)
def test_every_search_plays_legal_moves_on_every_game(name, case):
    game = make_game(case[0], **case[1])
    searcher = make_searcher(name, game, seed=3)
    assert isinstance(searcher, Searcher) and searcher.game is game
    state = game.initial_state()
    for ply in range(4):  # a few plies, the searcher told of every move (advance)
        result = searcher.search(state, BUDGETS[name])
        assert isinstance(result, SearchResult) and result.scale == SCALE[name]
        assert result.move in game.legal_moves(state), f"ply {ply}"
        assert result.pv and result.pv[0] == result.move
        if name in ("mcts", "rave"):
            assert 0.0 <= result.value <= 1.0
        state = game.play(state, result.move)
        searcher.advance(result.move)
        if game.is_terminal(state):
            break
    searcher.reset()
    assert searcher.search(game.initial_state(), BUDGETS[name]).move in game.legal_moves(game.initial_state())


@pytest.mark.parametrize("case", GAMES, ids=game_id)
def test_every_reported_stats_key_is_documented(case):
    game = make_game(case[0], **case[1])
    for name in SEARCHERS:
        result = make_searcher(name, game).search(game.initial_state(), BUDGETS[name])
        undocumented = set(result.stats) - set(STATS_KEYS)
        assert not undocumented, f"{name} reports undocumented stats keys {undocumented}"
        assert "time" in result.stats
    assert all(isinstance(text, str) and text for text in STATS_KEYS.values())


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("case", GAMES, ids=game_id)
def test_a_final_position_raises_game_over(name, case):
    game = make_game(case[0], **case[1])
    final = random_final_state(game, seed=5)
    with pytest.raises(GameOver):
        make_searcher(name, game).search(final, BUDGETS[name])


# ---- limits a search cannot honour ----------------------------------------------------------------
@pytest.mark.timeout(30)
@pytest.mark.parametrize("limits", [Limits(depth=3), Limits(nodes=1000), Limits(depth=3, simulations=100),
                                    Limits(time=0.1, nodes=10)])
def test_mcts_refuses_alphabeta_limits_at_once(limits):
    game = make_game("hex", size=5)
    mcts = make_searcher("mcts", game, clock=time.thread_time)
    t = time.thread_time()
    with pytest.raises(ValueError, match="simulations and time"):
        mcts.search(game.initial_state(), limits)
    assert time.thread_time() - t < 0.05


@pytest.mark.timeout(30)
@pytest.mark.parametrize("limits", [Limits(simulations=100), Limits(simulations=100, depth=2),
                                    Limits(simulations=100, time=0.1)])
def test_alphabeta_refuses_simulations(limits):
    game = make_game("hex", size=5)
    with pytest.raises(ValueError, match="simulations"):
        make_searcher("alphabeta", game).search(game.initial_state(), limits)


def test_searches_refuse_what_is_not_limits_or_a_state():
    game = make_game("hex", size=4)
    for name in SEARCHERS:
        searcher = make_searcher(name, game)
        with pytest.raises(ValueError):
            searcher.search(game.initial_state(), {"time": 1.0})
        with pytest.raises(ValueError):
            searcher.search(game.initial_state()[:-1], BUDGETS[name])
        with pytest.raises(ValueError):
            searcher.search(game.initial_state().astype(np.float64), BUDGETS[name])


# ---- the factory and frozen configs ----------------------------------------------------------------
def test_factory_builds_each_search_with_its_config():
    game = make_game("othello", size=6)
    mcts = make_searcher("mcts", game, {"c": 1.2, "selection": "puct"}, seed=4, capacity=1 << 10)
    assert isinstance(mcts, MCTS) and mcts.config == MCTSConfig(c=1.2, selection="puct")
    assert mcts.seed == 4 and mcts.capacity == 1 << 10
    ab = make_searcher("alphabeta", game, AlphaBetaConfig(use_cache=False), knowledge_for(game, "disc_difference"))
    assert isinstance(ab, AlphaBeta) and not ab.config.use_cache
    assert make_searcher("alphabeta", game, None).config == AlphaBetaConfig()


def test_factory_rejects_unknown_names_keys_and_options():
    game = make_game("hex", size=4)
    with pytest.raises(ValueError, match="mcts, alphabeta"):
        make_searcher("mtcs", game)
    with pytest.raises(ValueError, match=r"'cc'.*valid keys: selection, c, "):
        make_searcher("mcts", game, {"cc": 1.0})
    with pytest.raises(ValueError, match=r"'c'.*valid keys: use_alphabeta"):
        make_searcher("alphabeta", game, {"c": 1.0})  # an MCTS key
    with pytest.raises(ValueError, match="capacity"):
        make_searcher("alphabeta", game, capacity=10)
    with pytest.raises(ValueError):
        make_searcher("mcts", game, AlphaBetaConfig())  # the other search's config
    with pytest.raises(ValueError):
        make_searcher("mcts", game, {"c": "big"})  # values are validated by the config
    with pytest.raises(ValueError):
        make_searcher("mcts", game, knowledge="strong")


@pytest.mark.parametrize("config, field", [(MCTSConfig(), "c"), (AlphaBetaConfig(), "use_cache")])
def test_configs_are_frozen(config, field):
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(config, field, getattr(config, field))


# ---- knowledge -----------------------------------------------------------------------------------------
def test_registered_evaluations():
    assert evaluations(make_game("othello", size=8)) == ("patterns", "strong", "disc_difference")  # the default first
    assert evaluations(make_game("go", size=5)) == ("score",)
    assert evaluations(make_game("hex", size=5)) == ("distance",)
    for name, options in GAMES:
        game = make_game(name, **options)
        knowledge = knowledge_for(game)
        assert knowledge.evaluate is not None and knowledge.value is not None
        with pytest.raises(ValueError, match=evaluations(game)[0]):
            knowledge_for(game, "nonsense")
    with pytest.raises(dataclasses.FrozenInstanceError):
        knowledge.evaluate = None


def test_knowledge_validates_its_pieces():
    with pytest.raises(ValueError):
        Knowledge(evaluate=lambda s, p: 0.0)
    with pytest.raises(ValueError):
        Knowledge(value=hex_knowledge.evaluate_distance, value_params=[1.0, np.inf])
    with pytest.raises(ValueError):
        Knowledge(prior="policy")
    with pytest.raises(ValueError):
        Knowledge(rollout_weights=[-1.0, 2.0])
    with pytest.raises(ValueError):
        Knowledge().with_prior_weights([[1.0]])
    with pytest.raises(ValueError):
        Network(np.zeros(4), [2, 1], "relu")  # needs 2 * 1 + 1 parameters
    with pytest.raises(ValueError):
        Network(np.zeros(3), [2, 1], "swish")


def test_hex_distance_evaluation():
    game = make_game("hex", size=4)
    s = game.play(game.initial_state(), game.action(0, 1))  # player 0 (top to bottom) has one stone
    assert hex_knowledge.distance(s, 0) == 3 and hex_knowledge.distance(s, 1) == 4
    assert hex_knowledge.evaluate_distance(s, np.zeros(0)) == 3 - 4  # player 1 to move
    for r in (1, 2):  # player 1 plays down column 3, player 0 down column 1
        s = game.play(s, game.action(r, 3))
        s = game.play(s, game.action(r, 1))
    assert hex_knowledge.distance(s, 0) == 1  # (3, 0) or (3, 1) joins the bottom row
    assert hex_knowledge.distance(s, 1) == 3  # round the end of player 0's column: (3,0) (3,1) (2,2)
    s = game.play(s, game.action(0, 3))
    s = game.play(s, game.action(3, 1))
    assert game.is_terminal(s)
    assert hex_knowledge.distance(s, 1) == game.size * game.size + 1  # cut off by player 0's column
    empty = int((game.cells(s) == 0).sum())
    assert hex_knowledge.evaluate_distance(s, np.zeros(0)) == -(hex_knowledge.WIN_SCORE + empty)  # mover lost
    assert hex_knowledge.value_distance(s, np.zeros(0)) == 1.0


def test_go_score_evaluation():
    game = make_game("go", size=5)
    s = game.play(game.initial_state(), game.action(2, 2))
    assert go_knowledge.evaluate_score(s, np.zeros(0)) == -game.score(s)  # White to move
    final = random_final_state(game, seed=2)
    margin = game.score(final)
    mover = game.to_move(final)
    expect = np.sign(margin) * go_knowledge.WIN_SCORE + margin
    assert go_knowledge.evaluate_score(final, np.zeros(0)) == (expect if mover == 0 else -expect)
    assert go_knowledge.value_score(final, np.zeros(0)) == game.returns(final)[0]
    assert 0.0 < go_knowledge.value_score(s, go_knowledge.DEFAULT_WEIGHTS) < 1.0


def test_game_without_registered_knowledge_gets_an_empty_bundle():
    class Unregistered:
        name = "bandit"
    assert evaluations(Unregistered()) == ()
    assert knowledge_for(Unregistered()).evaluate is None
    with pytest.raises(ValueError):
        knowledge_for(Unregistered(), "strong")


def test_a_search_loads_only_what_it_uses():
    """The factory and the knowledge registry import by plain imports, each when first asked for: an
    alpha-beta search of Othello loads neither the MCTS nor another game's knowledge (each would add
    tens of milliseconds of cached-kernel loading to an adapter's start-up)."""
    code = ("import sys\n"
            "from engines.games import make_game\n"
            "from engines.search import Limits, make_searcher\n"
            "game = make_game('othello', size=6)\n"
            "make_searcher('alphabeta', game).search(game.initial_state(), Limits(depth=1))\n"
            "print(sorted(m for m in sys.modules if m.startswith(('engines.search.', 'engines.knowledge.'))))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    loaded = set(ast.literal_eval(done.stdout))
    assert {"engines.search.alphabeta", "engines.knowledge.othello"} <= loaded
    assert not loaded & {"engines.search.mcts", "engines.knowledge.go", "engines.knowledge.hex"}
