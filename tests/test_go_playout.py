"""The heavy Go playout, tree priors and ownership (engines/knowledge/go/rave_knowledge.py): every move
legal, never an own eye, captures and escapes around the last move far more often than random,
ladders read, self-ataris avoided; counted, seeded."""
import numpy as np
import pytest

from engines.games.go import Go, point_of
from engines.knowledge.go import rave_knowledge as gp
from engines.knowledge.go.registered import experience_params, heavy_knowledge, playout_params
from engines.knowledge.go.go5_weights import pattern_code
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


# ---- chains of two liberties and eye spaces ---------------------------------------------------------
def eye_space(shape):
    """A 9x9 position whose lower-left corner holds the given empty eye space (rows top first, '.'
    inside, 'X' the black wall) with the rest of the board white-free and black-walled off: the
    shape's rows are placed at the bottom-left, the wall closes it."""
    rows = [["."] * 9 for _ in range(9)]
    h = len(shape)
    for r, line in enumerate(shape):
        for col, ch in enumerate(line.split()):
            rows[9 - h + r][col] = ch
    return position([" ".join(r) for r in rows])


@pytest.mark.parametrize("shape, vital", [
    (["X X X X", ". . . X"], (1, 1)),                                  # straight three on the edge
    (["X X X .", ". . X .", ". X X ."], (1, 0)),                       # bent three in the corner
    (["X X X X .", ". . . X .", "X . X X ."], (1, 1)),                 # pyramid four
    (["X X X .", ". . X .", ". . X .", ". X X ."], (2, 0)),            # bulky five
    (["X X X .", "X . X X", ". . . X", "X . X X"], (2, 1)),            # crossed five
    (["X X X X X", ". . . . X"], None),                                # straight four: alive
    (["X X X X", ". . . X", ". X X X"], None),                         # bent four: alive
    (["X X X", ". . X", ". . X"], None),                               # the square four: no point
    (["X X X X", ". . . X", ". . . X"], None),                         # 2x3: alive in the middle
    (["X X X X X X X X", ". . . . . . . X"], None),                    # too big
    (["X X O X", ". . . X"], None),                                    # two colours around
])
def test_nakade_point_of_eye_spaces(shape, vital):
    """(shape rows top first, placed in the lower-left corner; vital as (shape row, column))"""
    g, s = eye_space(shape)
    h = len(shape)
    start = point_of(9, g.action(8, shape[-1].split().index(".")))  # the bottom row's first empty point
    got = gp._nakade_point(s, start, np.empty(6, dtype=np.int64))
    want = -1 if vital is None else point_of(9, g.action(9 - h + vital[0], vital[1]))
    assert got == want


def test_nakade_point_is_found_from_every_point_of_the_space():
    g, s = eye_space(["X X X .", ". . X .", ". . X .", ". X X ."])  # bulky five, vital point a2
    for r, c in ((6, 0), (6, 1), (7, 0), (7, 1), (8, 0)):
        assert gp._nakade_point(s, point_of(9, g.action(r, c)), np.empty(6, dtype=np.int64)) == point_of(9, g.action(7, 0))


# White just played e1 (row 8, col 4), closing the straight three b1-c1-d1 of its corner group:
# the playout answers at the vital point c1 (the killing point for Black) far more often than the
# playout without the rule.
NAKADE = [". . . . . . . . .",
          ". . . . . . . . .",
          ". . . . . . . . .",
          ". . . . . . . . .",
          ". . . . . . . . .",
          ". . . . . . . . .",
          "O O O O O O . . .",
          "O O O O O O . . .",
          "O . . . O . . . ."]


def test_playout_plays_the_vital_point_after_the_eye_space_closes():
    g, s = position(NAKADE, to_move=0, last=(8, 4))
    vital = g.action(8, 2)
    with_rule = first_moves(g, s, playout_params()).count(vital)
    without = first_moves(g, s, playout_params(nakade=0.0)).count(vital)
    assert with_rule >= 0.6 * 300 and without <= 0.2 * 300, (with_rule, without)


# White just played f5 (row 4, col 5) next to its e5: the pair has two liberties, f6 and g5.  After
# an atari at g5 its way out f6 has only 2 free points (g6, f7): the playout ataris at g5.  The
# atari at f6 would let it run to g5 (3 free points): not played by the rule.
TWO_LIBS = [". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . X . . . .",
            ". . . X O O . . .",
            ". . . . X X . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . ."]


def test_playout_ataris_a_chain_of_two_liberties_that_cannot_run():
    g, s = position(TWO_LIBS, to_move=0, last=(4, 5))
    firsts = first_moves(g, s, playout_params())
    without = first_moves(g, s, playout_params(twolib=0.0))
    g5, f6 = g.action(4, 6), g.action(3, 5)
    # (g5 is also a 3x3 pattern move, so the playout without the rule plays it too, less often)
    assert firsts.count(g5) >= 0.8 * 300 and without.count(g5) <= 0.4 * 300, (firsts.count(g5), without.count(g5))
    assert firsts.count(f6) <= 0.2 * 300


# Black to move.  The white stone e5 has two liberties, e4 and f5: the atari at f5 catches it in a
# ladder toward the empty lower left (e4 and the ladder toward the upper right may too).
LADDER_START = [". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . X . . . .",
                ". . . X O . . . .",
                ". . . . . X . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . ."]


def priors(g, s, **changes):
    actions = np.array(g.legal_moves(s), dtype=np.int32)
    visits = np.empty(len(actions))
    wins = np.empty(len(actions))
    gp.go_experience(s, actions, len(actions), visits, wins, experience_params(**changes))
    return {int(a): (v, w) for a, v, w in zip(actions, visits, wins)}


def reading_gains(rows, to_move=0):
    """{move label: virtual wins the reading adds} for the player to move."""
    g, s = position(rows, to_move=to_move)
    read, unread = priors(g, s), priors(g, s, twolib=0.0)
    assert set(read) == set(unread)
    return {g.move_label(a): read[a][1] - unread[a][1] for a in read if read[a] != unread[a]}


def test_priors_read_chains_of_two_liberties():
    # the ladder's first atari gets the capture bonus of one stone, once
    assert reading_gains(LADDER_START) == {"f5": 15.0}
    # colours swapped: Black's stone is the one a ladder would catch; either extension gives it
    # three liberties and earns the escape bonus
    swap = str.maketrans("XO", "OX")
    assert reading_gains([r.translate(swap) for r in LADDER_START]) == {"e4": 30.0, "f5": 30.0}
    # a stone with two liberties that no ladder catches (the diagonal f4 gone): nothing
    open_rows = list(LADDER_START)
    open_rows[5] = ". . . . . . . . ."
    assert reading_gains(open_rows) == {}
    assert reading_gains([r.translate(swap) for r in open_rows]) == {}


def test_priors_favour_the_vital_point():
    g, s = position(NAKADE, to_move=0)
    c1 = g.action(8, 2)
    with_rule, without = priors(g, s), priors(g, s, nakade=0.0)
    assert with_rule[c1][1] - without[c1][1] == 30.0
    assert all(with_rule[a] == without[a] for a in with_rule if a != c1)


def test_closeness_bonus_skips_a_lone_stone_when_told():
    g = Go(9, komi=7.0)
    tengen = g.play(g.initial_state(), g.action(4, 4))  # a lone black e5: White to move
    e4, c3 = g.action(5, 4), g.action(6, 2)
    lone, usual = priors(g, tengen, cfg_lone=0.0), priors(g, tengen)
    assert usual[e4][1] - lone[e4][1] == 24.0 and usual[c3] == lone[c3]  # cfg1; c3 is far
    # the same contact answer next to a stone that is not alone keeps its bonus
    crowded = g.play(g.play(tengen, g.action(2, 2)), g.action(4, 3))  # White c7, Black d5 next to e5
    assert priors(g, crowded, cfg_lone=0.0) == priors(g, crowded)


def test_the_move_weights_count_more_on_large_boards():
    """heavy_knowledge gives the shipped move weights 30 won visits on 13x13 and 19x19, the 9x9
    default 10 below; a change the caller asks for still wins."""
    def gamma_visits(size, **changes):
        return heavy_knowledge(Go(size, komi=7.0), **changes).experience_params[gp.E_GAMMA]
    assert [gamma_visits(n) for n in (5, 9, 11, 13, 19)] == [10.0, 10.0, 10.0, 30.0, 30.0]
    assert gamma_visits(13, prior_changes={"gamma": 5.0}) == 5.0
    # on a 13x13 position the weights' favourite gets 20 won visits more than with the 9x9 share, and
    # no move gets less: the weights are the only difference
    g = Go(13, komi=7.0)
    s = g.play(g.play(g.initial_state(), g.action(3, 3)), g.action(9, 9))
    actions = np.array(g.legal_moves(s), dtype=np.int32)
    gained = []
    for changes in (None, {"gamma": 10.0}):
        bundle = heavy_knowledge(g, prior_changes=changes)
        visits, wins = np.empty(len(actions)), np.empty(len(actions))
        gp.go_experience(s, actions, len(actions), visits, wins, bundle.experience_params)
        gained.append((visits, wins))
    (v13, w13), (v9, w9) = gained
    assert np.allclose(v13 - w13, v9 - w9)  # the bonus is won visits only
    assert (w13 - w9).max() == pytest.approx(20.0) and (w13 - w9).min() >= 0.0


# ---- reading for critical groups (issue 34 item 1): filled eye spaces, ladder-read two-liberty
# answers in the playouts, the critical-chain prior ------------------------------------------------
@pytest.mark.parametrize("shape, vital", [
    (["X X X X", "O . . X"], (1, 1)),                                  # straight three, a stone at its end
    (["X X X X", "O . O X"], (1, 1)),                                  # ... a stone at each end
    (["X X X .", ". O X .", ". X X ."], (1, 0)),                       # bent three
    (["X X X X .", ". . O X .", "X . X X ."], (1, 1)),                 # pyramid four
    (["X X X .", ". O X .", ". . X .", ". X X ."], (2, 0)),            # bulky five
    (["X X X .", "X O X X", ". . . X", "X . X X"], (2, 1)),            # crossed five
    (["X X X .", ". . X .", "O . X .", ". X X ."], None),              # the stone on the vital point
    (["X X X X X", "O . . . X"], None),                                # straight four: alive
])
def test_vital_point_of_eye_spaces_holding_attacker_stones(shape, vital):
    """The attacker's (White's) stones inside Black's eye space no longer hide its vital point;
    the empty-only rule sees two colours around and finds nothing."""
    g, s = eye_space(shape)
    h = len(shape)
    start = point_of(9, g.action(8, shape[-1].split().index(".")))
    region = np.empty(6, dtype=np.int64)
    want = -1 if vital is None else point_of(9, g.action(9 - h + vital[0], vital[1]))
    assert gp._vital_point(s, start, region, True) == want
    assert gp._vital_point(s, start, region, False) == -1


def test_vital_points_of_empty_eye_spaces_are_the_same_when_filled():
    for shape in (["X X X X", ". . . X"], ["X X X .", ". . X .", ". . X .", ". X X ."], ["X X X X X", ". . . . X"]):
        g, s = eye_space(shape)
        start = point_of(9, g.action(8, 0))
        region = np.empty(6, dtype=np.int64)
        assert gp._vital_point(s, start, region, True) == gp._nakade_point(s, start, region)


# Black has thrown in at a2 inside White's bulky five a1-b1-c1-a2-b2; White's vital point is b1.
BULKY = [". . . . . . . . .",
         ". . . . . . . . .",
         ". . . . . . . . .",
         ". . . . . . . . .",
         ". . . . . . . . .",
         "O O O O O . . . .",
         "O O O O O . . . .",
         "X . O O O . . . .",
         ". . . O O . . . ."]


def test_playout_answers_a_placement_inside_an_eye_space_at_its_vital_point():
    g, s = position(BULKY, to_move=1, last=(7, 0))
    b1 = g.action(8, 1)
    # (the two-liberty rule's atari at b2 is left out: it answers first either way)
    filled = first_moves(g, s, playout_params(twolib=0.0, nakade_filled=1.0)).count(b1)
    empty_only = first_moves(g, s, playout_params(twolib=0.0)).count(b1)
    assert filled >= 0.6 * 300 and empty_only <= 0.2 * 300, (filled, empty_only)


def test_priors_favour_the_vital_point_of_a_filled_eye_space_for_both_sides():
    for to_move in (0, 1):
        g, s = position(BULKY, to_move=to_move)
        b1 = g.action(8, 1)
        filled, empty_only = priors(g, s, nakade_filled=1.0), priors(g, s)
        assert filled[b1][1] - empty_only[b1][1] == 30.0
        assert all(filled[a] == empty_only[a] for a in filled if a != b1)


def test_playout_reads_the_ladder_of_a_chain_of_two_liberties():
    """White's e5 (just played) has two liberties: the read rule plays the ladder's atari f5; with
    ladder breakers on both ladder paths it no longer does; the shallow rule splits between the two
    ataris (e4 does not work) whatever the breakers."""
    g, s = position(LADDER_START, to_move=0, last=(4, 4))
    f5, e4 = g.action(4, 5), g.action(5, 4)
    read = first_moves(g, s, playout_params(twolib_read=1.0))
    shallow = first_moves(g, s, playout_params())
    assert read.count(f5) >= 0.85 * 300 and read.count(e4) <= 0.05 * 300, (read.count(f5), read.count(e4))
    assert shallow.count(e4) >= 0.3 * 300, shallow.count(e4)
    broken = list(LADDER_START)
    broken[7] = ". . O . . . . . ."
    broken[1] = ". . . . . . O . ."
    g, s = position(broken, to_move=0, last=(4, 4))
    read = first_moves(g, s, playout_params(twolib_read=1.0))
    assert read.count(f5) <= 0.4 * 300, read.count(f5)


def two_lib_answers(rows, last, to_move=0):
    """(the read rule's, the shallow rule's) answers to the chains of two liberties at last."""
    from engines.games.go import action_of
    g, s = position(rows, to_move=to_move, last=last)
    cands, scratch = np.empty(32, dtype=np.int64), np.empty(10, dtype=np.int64)
    work, budget = np.empty((gp.LADDER_DEPTH, s.shape[0]), dtype=np.int64), np.empty(1, dtype=np.int64)
    k = gp._two_lib_moves(s, to_move + 1, cands, scratch, True, work, budget)
    read = sorted(g.move_label(action_of(9, int(p))) for p in cands[:k])
    k = gp._two_lib_moves(s, to_move + 1, cands, scratch, False, work, budget)
    return read, sorted(g.move_label(action_of(9, int(p))) for p in cands[:k])


def test_two_liberty_answers_are_read():
    """Black's e5 could be caught in a ladder after White's e6: both rules extend (e4, f5); with
    ladder breakers on both paths it need not run: the read rule leaves it, the shallow one still
    extends.  White's e5 (colours back): the read rule plays only the atari that works, f5."""
    swap = str.maketrans("XO", "OX")
    rows = [r.translate(swap) for r in LADDER_START]
    assert two_lib_answers(rows, (3, 4)) == (["e4", "f5"], ["e4", "f5"])
    rows[7], rows[1] = ". . X . . . . . .", ". . . . . . X . ."
    assert two_lib_answers(rows, (3, 4)) == ([], ["e4", "f5"])
    assert two_lib_answers(LADDER_START, (4, 4)) == (["f5"], ["e4", "f5"])


def critical_gains(rows, to_move=0):
    """{move label: won visits the critical-chain prior (20) adds} for the player to move."""
    g, s = position(rows, to_move=to_move)
    on, off = priors(g, s, critical=20.0), priors(g, s)
    assert all(on[a][0] - off[a][0] == on[a][1] - off[a][1] for a in on)  # won visits only
    return {g.move_label(a): on[a][1] - off[a][1] for a in on if on[a] != off[a]}


# Black's four stones d5-g5 have two liberties, f4 and g4: only g4 gives them a third.
CRITICAL = [". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . O O O O . .",
            ". . O X X X X O .",
            ". . . O O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . ."]
# Black's five stones b5-e5-e4 (liberties e3, f4) against White's f5 (three: f4, f6, g5).
RACE = [". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". O O O O . . . .",
        "O X X X X O . . .",
        "O O O O X . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . ."]


def test_critical_prior_saves_a_big_chain_of_two_liberties():
    assert critical_gains(CRITICAL) == {"g4": 20.0}
    # three stones are not critical
    small = list(CRITICAL)
    small[3], small[4] = ". . . . O O O . .", ". . . O X X X O ."
    assert critical_gains(small) == {}


def test_critical_prior_plays_a_liberty_race():
    # Black (2 liberties) cannot win by filling f5's 3: it gains liberties (e3 and f4, the shared one)
    assert critical_gains(RACE) == {"e3": 20.0, "f4": 20.0}
    # colours swapped, Black to move: its f5 (3 liberties) races White's big chain (2): Black fills
    # the outside liberty e3 and the shared f4, and extends f5 (f6, g5)
    swap = str.maketrans("XO", "OX")
    assert critical_gains([r.translate(swap) for r in RACE]) == {"e3": 20.0, "f4": 20.0, "f6": 20.0, "g5": 20.0}


def test_player_settings_reach_the_knowledge():
    from engines.players.go import GoPlayer
    from engines.players.go_settings import GoSettings
    g = Go(9, komi=7.0)
    assert GoPlayer(GoSettings()).knowledge("rave", g) is None  # the search's default knowledge
    kn = GoPlayer(GoSettings(twolib_reading=True, nakade_filled=True, critical_prior=25.0)).knowledge("rave", g)
    assert kn.playout_params[gp.P_TWOLIB_READ] == 1.0 and kn.playout_params[gp.P_NAKADE_FILLED] == 1.0
    assert kn.experience_params[gp.E_NAKADE_FILLED] == 1.0 and kn.experience_params[gp.E_CRITICAL] == 25.0
