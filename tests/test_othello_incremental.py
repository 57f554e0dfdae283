"""The incremental pattern evaluation (engines/knowledge/othello/patterns.py: features_init,
features_play, evaluate_features) and alpha-beta's use of it: the same indices and the same values
as the evaluation from scratch, so the search visits the same nodes."""
import numpy as np
import pytest

from engines.games.othello import Othello
from engines.knowledge.bundle import Knowledge
from engines.knowledge.othello import patterns as OP
from engines.knowledge.othello.evaluation import evaluate_strong
from engines.knowledge.registry import knowledge_for
from engines.search import Limits
from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig

GAME = Othello(8)


def unsymmetric_params(seed):
    """Random tables that are NOT symmetric: a feature read in the wrong view or with its cells in
    the wrong order then gives another value."""
    w = np.random.default_rng(seed).normal(scale=3.0, size=(OP.N_PHASES, OP.PHASE_STRIDE))
    return OP.params_from_weights(w)


def from_scratch(s):
    features = np.zeros(OP.FEATURES_LEN, np.int64)
    OP.features_init(s, features)
    return features


def test_the_start_position_by_hand():
    """row4 (d4..h4 from a4): d4 white, e4 black; black's view 0 0 0 2 1 0 0 0, white's 0 0 0 1 2 0 0 0."""
    features = from_scratch(GAME.initial_state())
    row4 = OP.PATTERN_NAMES.index("row4")
    i = OP.INSTANCE_TYPES.index(row4)
    assert OP.INSTANCES[i] == tuple(range(24, 32))
    offset = int(OP.TYPE_OFFSET[row4])
    assert features[i] & 0xFFFFFFFF == offset + 2 * 3 ** 4 + 1 * 3 ** 3
    assert features[i] >> 32 == offset + 1 * 3 ** 4 + 2 * 3 ** 3
    # an instance over empty squares only is its type's offset in both views
    edge = OP.INSTANCE_TYPES.index(OP.PATTERN_NAMES.index("edge2x"))
    assert features[edge] == int(OP.TYPE_OFFSET[0]) | (int(OP.TYPE_OFFSET[0]) << 32)


@pytest.mark.parametrize("seed", [1, 2])
def test_features_follow_random_games_and_give_the_same_values(seed):
    """Along whole random games (both colours to move, passes, the final position) the updated
    features equal the ones computed from the boards, and both evaluations agree to the last bit."""
    params = unsymmetric_params(seed)
    shipped = OP.load_params()
    rng = np.random.default_rng(seed)
    passes = positions = 0
    for _ in range(40):
        s = GAME.initial_state()
        features = from_scratch(s)
        while True:
            assert np.array_equal(features, from_scratch(s))
            for w in (params, shipped):
                assert OP.evaluate_features(s, features, w) == OP.evaluate_patterns(s, w)
            positions += 1
            if GAME.is_terminal(s):
                break
            moves = GAME.legal_moves(s)
            move = moves[int(rng.integers(len(moves)))]
            passes += move == GAME.pass_action
            child = GAME.play(s, move)
            child_features = np.full(OP.FEATURES_LEN, -1, np.int64)
            OP.features_play(s, child, features, child_features)
            s, features = child, child_features
    assert passes > 0 and positions > 2000  # the games did pass


def test_other_boards_fall_back_to_strong():
    for game in (Othello(6), Othello(8, impl="mailbox")):
        s = game.initial_state()
        features = np.zeros(OP.FEATURES_LEN, np.int64)
        OP.features_init(s, features)
        child = game.play(s, game.legal_moves(s)[0])
        OP.features_play(s, child, features, features.copy())
        assert OP.evaluate_features(child, features, OP.load_params()) == evaluate_strong(child, np.zeros(0))


def test_a_bundle_takes_the_incremental_kernels_together():
    full = knowledge_for(GAME, "patterns")
    assert full.features_len == OP.FEATURES_LEN and full.evaluate_features is OP.evaluate_features
    with pytest.raises(ValueError, match="together"):
        Knowledge(evaluate=OP.evaluate_patterns, features_init=OP.features_init, features_len=OP.FEATURES_LEN)
    with pytest.raises(ValueError, match="features_len"):
        full.replace(features_len=0)
    with pytest.raises(ValueError, match="features_len"):
        Knowledge(evaluate=OP.evaluate_patterns, features_len=3)
    with pytest.raises(ValueError, match="features_play"):
        full.replace(features_play=OP.evaluate_patterns)


def search_positions():
    """Mid-game positions and late ones (the search reaches final positions and passes)."""
    rng = np.random.default_rng(11)
    out = []
    for plies in (12, 20, 28, 36, 50, 54, 56):
        s = GAME.initial_state()
        for _ in range(plies):
            if GAME.is_terminal(s):
                break
            moves = GAME.legal_moves(s)
            s = GAME.play(s, moves[int(rng.integers(len(moves)))])
        if not GAME.is_terminal(s):
            out.append(s)
    return out


@pytest.mark.parametrize("config", [{}, {"use_pvs": False}, {"use_cache": False, "use_ordering": False}])
def test_the_search_is_the_same_with_and_without_the_incremental_evaluation(config):
    knowledge = knowledge_for(GAME, "patterns")
    incremental = AlphaBeta(GAME, AlphaBetaConfig(**config), knowledge)
    plain = AlphaBeta(GAME, AlphaBetaConfig(use_incremental=False, **config), knowledge)
    assert incremental.incremental and not plain.incremental
    depth = 5 if config.get("use_ordering", True) else 4
    for s in search_positions():
        a, b = incremental.search(s, Limits(depth=depth)), plain.search(s, Limits(depth=depth))
        assert (a.move, a.value, a.pv, a.values) == (b.move, b.value, b.pv, b.values)
        assert a.stats["nodes"] == b.stats["nodes"] > 0


def test_a_bundle_without_an_incremental_evaluation_searches_as_before():
    search = AlphaBeta(GAME, AlphaBetaConfig(), knowledge_for(GAME, "strong"))
    assert not search.incremental
    assert search.search(GAME.initial_state(), Limits(depth=3)).move in GAME.legal_moves(GAME.initial_state())
