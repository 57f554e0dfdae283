"""The conformance test every game passes: random play through the generic interface only, checking
its invariants on thousands of games."""
import zlib

import numpy as np
import pytest

from engines.errors import GameOver, IllegalMove, Reason
from engines.games import make_game
from engines.rng import make_rng

# (game, options, number of random games); Go games are capped in plies since random Go can run long
CASES = [
    ("hex", {"size": 3}, 600), ("hex", {"size": 5}, 600), ("hex", {"size": 8}, 200), ("hex", {"size": 11}, 60),
    ("othello", {"size": 4}, 600), ("othello", {"size": 6}, 300), ("othello", {"size": 8}, 300),
    ("othello", {"size": 8, "variant": "manager"}, 300), ("othello", {"size": 10}, 60),
    ("othello", {"size": 16}, 10),
    ("go", {"size": 2}, 200), ("go", {"size": 5}, 300), ("go", {"size": 5, "rules": "littlego"}, 300),
    ("go", {"size": 7, "rules": "go5"}, 100), ("go", {"size": 9}, 60), ("go", {"size": 9, "rules": "superko"}, 40),
    ("go", {"size": 19}, 3),
]


def stones(game, state) -> tuple[int, int]:
    obs = game.observation(state)
    return int(obs[0].sum()), int(obs[1].sum())


def check_counts(game, before, after, move, mover):
    """Per-game piece-count invariants between two consecutive positions."""
    b0, b1 = stones(game, before)
    a0, a1 = stones(game, after)
    passed = move == game.pass_action
    if game.name == "hex":
        assert (a0 + a1, [a0, a1][mover]) == (b0 + b1 + 1, [b0, b1][mover] + 1)
    elif game.name == "othello":
        if passed:
            assert (a0, a1) == (b0, b1)
        else:  # one disc placed, at least one flipped, nothing removed
            own_b, own_a = [b0, b1][mover], [a0, a1][mover]
            assert a0 + a1 == b0 + b1 + 1 and own_a >= own_b + 2
    else:  # go: a stone is placed (the mover never loses stones: suicide is illegal), captures only remove
        if passed:
            assert (a0, a1) == (b0, b1)
        else:
            own_b, own_a = [b0, b1][mover], [a0, a1][mover]
            opp_b, opp_a = [b0, b1][1 - mover], [a0, a1][1 - mover]
            assert own_a == own_b + 1 and opp_a <= opp_b


def case_seed(name, options) -> int:
    """A fixed seed per case (Python's hash() of strings changes from run to run)."""
    return zlib.crc32(repr((name, sorted(options.items()))).encode())


@pytest.mark.parametrize("name,options,games", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_random_games_keep_the_invariants(name, options, games):
    game = make_game(name, **options)
    seed = case_seed(name, options)
    print(f"seed {seed}")  # shown by pytest on failure: replay with this seed
    rng = np.random.default_rng(seed)
    playout_rng = make_rng(seed)
    max_plies = 4 * game.num_actions
    finished = 0
    for g in range(games):
        state = game.initial_state()
        assert game.to_move(state) == 0
        for ply in range(max_plies):
            if game.is_terminal(state):
                break
            moves = game.legal_moves(state)
            assert moves and len(set(moves)) == len(moves)
            assert all(0 <= m < game.num_actions for m in moves)
            if name == "go" and len(moves) > 1 and rng.random() < 0.97:
                moves = moves[:-1]  # pass (the last action) rarely, so random Go games get somewhere
            move = int(moves[rng.integers(len(moves))])
            before = state.copy()
            mover = game.to_move(state)
            state = game.play(state, move)
            assert not np.array_equal(before, state)
            assert game.to_move(state) == 1 - mover
            check_counts(game, before, state, move, mover)
            if g < 5:  # deeper checks on a few games: board view, illegal moves, hashes, playouts
                check_board_view(game, before, move)
                illegal = sorted(set(range(game.num_actions)) - set(game.legal_moves(before)))
                if illegal:
                    bad = int(illegal[rng.integers(len(illegal))])
                    reason = game.illegal_reason(before, bad)
                    assert isinstance(reason, Reason) and reason is not Reason.GAME_OVER
                    with pytest.raises(IllegalMove) as err:
                        game.play(before, bad)
                    assert err.value.reason is reason and err.value.action == bad
                untouched = before.copy()
                game.play(untouched, move)
                assert np.array_equal(untouched, before)  # play never mutates its input
                # the incremental hash equals the hash of the same board built from scratch
                rebuilt = game.state_from_cells(game.cells(state), game.to_move(state))
                assert game.hash(rebuilt) == game.hash(state)
                assert np.array_equal(game.cells(rebuilt), game.cells(state))
                value = game.random_playout(state, playout_rng)
                assert value in (0.0, 0.5, 1.0)
                assert isinstance(game.render(state), str) and game.render(state)
        if game.is_terminal(state):
            finished += 1
            assert game.legal_moves(state) == []
            r0, r1 = game.returns(state)
            assert r0 + r1 == 1.0 and r0 in (0.0, 0.5, 1.0)
            if name == "hex":
                assert r0 != 0.5  # hex has no draws
            with pytest.raises(GameOver):
                game.play(state, 0)
            assert game.illegal_reason(state, 0) is Reason.GAME_OVER
        else:
            with pytest.raises(ValueError):
                game.returns(state)
    if name != "go" or options.get("rules") == "littlego":
        assert finished == games  # these games always end within the ply cap


def check_board_view(game, state, move):
    """The board view of one position: cells, points, the pass, a state rebuilt from the cells."""
    n = game.size
    cells = game.cells(state)
    assert cells.dtype == np.int8 and cells.shape == (n, n) and set(np.unique(cells)) <= {0, 1, 2}
    obs = game.observation(state)  # the observation's planes are the cells, in the same orientation
    for a in range(n * n):
        row, col = game.coords(a)
        assert game.action(row, col) == a and game.point_of(a) == (row, col)
        assert obs[0].reshape(-1)[a] == (cells[row, col] == 1) and obs[1].reshape(-1)[a] == (cells[row, col] == 2)
    if game.pass_action is not None:
        assert game.point_of(game.pass_action) is None and game.action_at(None) == game.pass_action
    assert game.action_at(game.point_of(move)) == move
    rebuilt = game.state_from_cells(cells, game.to_move(state))
    assert np.array_equal(game.cells(rebuilt), cells) and game.to_move(rebuilt) == game.to_move(state)
    assert game.state_from_cells(cells.tolist(), game.to_move(state)).shape == state.shape


@pytest.mark.parametrize("name,options", [("hex", {"size": 5}), ("othello", {"size": 8}), ("go", {"size": 9})])
def test_observation_and_interface_basics(name, options):
    game = make_game(name, **options)
    state = game.initial_state()
    obs = game.observation(state)
    assert obs.shape == game.observation_shape and obs.dtype == np.float32
    assert np.all(obs[2] == 0.0)  # player 0 to move
    after = game.play(state, game.legal_moves(state)[0])
    assert np.all(game.observation(after)[2] == 1.0)
    assert game.hash(state) != game.hash(after)
    for bad in (-1, game.num_actions):
        with pytest.raises(IllegalMove) as err:
            game.play(state, bad)
        assert err.value.reason is Reason.OUT_OF_RANGE
    for bad in (1.5, "3", None, True):
        with pytest.raises(ValueError):
            game.play(state, bad)


def test_make_game_rejects_unknown_names_and_bad_sizes():
    with pytest.raises(ValueError, match="unknown game"):
        make_game("chess")
    for name, size in (("go", 1), ("go", 20), ("othello", 3), ("othello", 17), ("hex", 2), ("hex", 20)):
        with pytest.raises(ValueError, match="size"):
            make_game(name, size=size)
