"""The heavy Go playout, tree priors and ownership (engines/knowledge/go_playout.py): every move
legal, never an own eye, captures and escapes around the last move far more often than random,
ladders read, self-ataris avoided; counted, seeded."""
import numpy as np
import pytest

from engines.games.go import Go, point_of
from engines.knowledge import go_playout as gp
from engines.knowledge.go import experience_params, heavy_knowledge, playout_params
from engines.knowledge.go_weights import pattern_code
from engines.rng import make_rng


def position(rows, to_move=0, komi=7.0, last=None):
    """rows drawn top row first; last: (row, col) of the opponent's last move (played by replaying
    the position without that stone, then the move)."""
    g = Go(len(rows), komi=komi)
    cells = np.array([[{".": 0, "X": 1, "O": 2}[ch] for ch in r.split()] for r in rows])
    if last is None:
        return g, g.state_from_cells(cells, to_move)
    before = cells.copy()
    before[last] = 0
    s = g.state_from_cells(before, 1 - to_move)
    return g, g.play(s, g.action(*last))


def traced(g, s, seed, params=None):
    t = s.copy()
    trace = np.empty(gp.playout_scratch(s), dtype=np.int64)
    k = gp.heavy_playout_traced(t, make_rng(seed), trace, playout_params() if params is None else params)
    return t, trace[:k].tolist()


@pytest.mark.parametrize("size", [9, 13])
def test_playouts_are_legal_and_never_fill_an_own_eye(size):
    g = Go(size, komi=7.0)
    filled = 0
    for seed in range(30 if size == 9 else 8):
        end, moves = traced(g, g.initial_state(), seed)
        s = g.initial_state()
        for a in moves:
            a = g.pass_action if a == -1 else a
            if a != g.pass_action:
                filled += g.is_eye(s, a, g.to_move(s))
            s = g.play(s, a)  # IllegalMove if the playout broke a rule
        assert np.array_equal(g.cells(s), g.cells(end))
        assert g.is_terminal(end) or len(moves) == 3 * size * size
    assert filled == 0


def test_the_eye_rule_holds_when_only_eyes_are_left():
    rows = ["X . X . X O . O .",
            "X X X X X O O O O"] + ["X X X X X O . O ." if i % 2 == 0 else "X X X X X O O O O" for i in range(7)]
    g, s = position(rows)
    end, moves = traced(g, s, 0)
    assert moves == [-1, -1] and np.array_equal(g.cells(end), g.cells(s))


# White just played a8 (row 1, col 0) into atari under the black a9-b9-b8: Black captures at a7.
CAPTURE = ["X X . . . . . . .",
           "O X . . . . . . .",
           ". . . . . . . . .",
           ". . . . . . . . .",
           ". . . . . . . . .",
           ". . . . . . . . .",
           ". . . . . . . . .",
           ". . . . . . . . .",
           ". . . . . . . . ."]


def first_moves(g, s, params, n=300):
    out = []
    for seed in range(n):
        _, moves = traced(g, s, seed, params)
        out.append(moves[0])
    return out


def test_captures_the_last_move_far_more_often_than_random():
    g, s = position(CAPTURE, to_move=0, last=(1, 0))
    target = g.action(2, 0)  # a7
    assert g.is_legal(s, target)
    heavy = first_moves(g, s, playout_params()).count(target)
    plain = first_moves(g, s, playout_params(heavy=0.0)).count(target)
    assert heavy >= 0.8 * 300 and plain <= 0.05 * 300, (heavy, plain)


def test_escapes_an_own_atari_unless_it_is_a_ladder():
    # White just played e4 (row 5, col 4), putting the black stone e5 in atari; its liberty f5
    # (row 4, col 5) gives three liberties: the playout extends there.
    rows = [". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . O . . . .",
            ". . . O X . . . .",
            ". . . . O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . ."]
    g, s = position(rows, to_move=0, last=(5, 4))
    escape = g.action(4, 5)
    assert first_moves(g, s, playout_params()).count(escape) >= 0.8 * 300
    # with a white stone at f6 too, the extension at f5 leaves two liberties and a ladder toward the
    # lower right catches it: the playout does not run
    rows[3] = ". . . . O O . . ."
    g, s = position(rows, to_move=0, last=(5, 4))
    assert not gp._escape_works(s, point_of(9, escape), 1, np.empty((48, s.shape[0]), np.int64))
    read = first_moves(g, s, playout_params()).count(escape)  # only as a 3x3 pattern move or a random one
    no_ladder = first_moves(g, s, playout_params(ladder=0.0)).count(escape)
    assert read <= 0.5 * 300 and no_ladder >= 0.8 * 300, (read, no_ladder)  # the reader is what stops it


def test_self_atari_of_a_large_chain_is_never_played():
    rows = [". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            "O O O O . . . . .",
            "X X X O . . . . .",
            ". . O O . . . . ."]
    g, s = position(rows, to_move=0)
    a1, b1 = g.action(8, 0), g.action(8, 1)
    assert gp._self_atari(s, point_of(9, a1), 1) == 4  # the chain a2-c2 and the new stone, one liberty left
    assert gp._self_atari(s, point_of(9, b1), 1) == 4
    assert gp._self_atari(s, point_of(9, g.action(4, 4)), 1) == 0
    firsts = first_moves(g, s, playout_params())
    assert a1 not in firsts and b1 not in firsts
    plain = first_moves(g, s, playout_params(heavy=0.0))
    assert a1 in plain or b1 in plain  # the uniformly random playout does play them


def test_michi_patterns_are_symmetric_in_colour_and_board():
    table = gp.michi_table()
    assert 0 < int(table.sum()) < 65536
    swap = str.maketrans("XO", "OX")
    # the enclosing hane: north row X O X, middle row empty, south row anything (go_weights order:
    # the 8 cells south row first, the centre left out)
    for south in ("...", "XXO", "#.O"):
        code = south + "..." + "XOX"
        assert table[pattern_code(code)] == 1.0
        assert table[pattern_code(code.translate(swap))] == 1.0
        assert table[pattern_code(code[::-1])] == 1.0  # turned over
    assert table[pattern_code(".........")] == 0.0


def test_ownership_counts_stones_and_eyes():
    rows = ["X . X . X O . O ."] + ["X X X X X O O O O"] * 8
    g, s = position(rows)
    out = np.zeros(81)
    gp.go_ownership(s, out)
    grid = out.reshape(9, 9)[::-1]  # action order is bottom row first
    assert (grid[:, :5] == 1.0).all() and (grid[:, 5:] == -1.0).all()


def test_tree_priors_favour_captures():
    g, s = position(CAPTURE, to_move=0, last=(1, 0))
    actions = np.array(g.legal_moves(s), dtype=np.int32)
    visits = np.empty(len(actions))
    wins = np.empty(len(actions))
    gp.go_experience(s, actions, len(actions), visits, wins, experience_params())
    i = list(actions).index(g.action(2, 0))
    rate = wins / visits
    assert rate[i] == rate.max() and wins[i] >= 15 + 5


def test_plain_traced_playout_is_the_games_playout():
    g = Go(9)
    s1, s2 = g.initial_state(), g.initial_state()
    trace = np.empty(3 * 81, dtype=np.int64)
    k = gp.plain_playout_traced(s1, make_rng(5), trace, np.zeros(0))
    v = g.kernels.playout(s2, make_rng(5))
    assert np.array_equal(s1, s2) and v == g.kernels.result(s1) and k == int(s1[6])
    assert -1 in trace[:k].tolist() and 81 not in trace[:k].tolist()


def test_heavy_knowledge_bundle():
    g = Go(9)
    kn = heavy_knowledge(g, weights=False)
    assert kn.ownership_size == 81 and kn.playout_scratch == gp.playout_scratch(g.initial_state())
    assert kn.experience_params.shape == (gp.EXPERIENCE_LEN,)
    with pytest.raises(ValueError, match="playout"):
        heavy_knowledge(g, playout="light")
    with pytest.raises(ValueError, match="unknown playout setting"):
        playout_params(speed=1.0)
