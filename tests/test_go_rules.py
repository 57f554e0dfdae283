"""Go rules (engines/games/go.py): hand-made positions for every rule preset, and random games and
playouts checked against a slow pure-Python flood-fill reference written here."""
import textwrap

import numpy as np
import pytest

from engines.errors import GameOver, IllegalMove, Reason
from engines.games import go as G
from engines.games.go import Go
from engines.rng import make_rng
from moves import go5_attempt, gtp_move, gtp_text
from protocols import littlego
from protocols.common import ProtocolError
from protocols.gtp import InvalidPoint, OffBoard, format_score

SYM = {".": 0, "X": 1, "O": 2}


def pos(game, diagram, to_move=0):
    """A state from a diagram drawn with the top row first (X black, O white, . empty)."""
    rows = [line.split() for line in textwrap.dedent(diagram).strip().splitlines()]
    assert len(rows) == game.size and all(len(r) == game.size for r in rows)
    return game.state_from_cells([[SYM[ch] for ch in row] for row in rows], to_move)


def bottom_up(game, state):
    """The stones as an (n, n) array with row 0 the BOTTOM (GTP row 1): flattened, it is indexed by
    the internal actions (row_from_bottom * n + col), as the reference below keeps its board."""
    return game.cells(state)[::-1]


def drawn(game, state):
    return "\n".join(" ".join(".XO"[v] for v in row) for row in game.cells(state))


def same(game, state, diagram):
    expected = "\n".join(" ".join(line.split()) for line in textwrap.dedent(diagram).strip().splitlines())
    return drawn(game, state) == expected


def mv(game, text):
    return gtp_move(game, text)


def play(game, state, *moves):
    for m in moves:
        state = game.play(state, mv(game, m))
    return state


def assert_illegal(game, state, move, reason):
    """game.play(state, move) raises IllegalMove carrying reason (and the move)."""
    with pytest.raises(IllegalMove) as e:
        game.play(state, move)
    assert e.value.reason is reason and e.value.action == move


# ---- the pure-Python reference (flood fill, nothing incremental) --------------------------------------
def nbrs(n, a):
    r, c = divmod(a, n)
    out = []
    if c > 0:
        out.append(a - 1)      # W
    if c < n - 1:
        out.append(a + 1)      # E
    if r > 0:
        out.append(a - n)      # S
    if r < n - 1:
        out.append(a + n)      # N
    return out


def diags(n, a):
    r, c = divmod(a, n)
    return [(r + dr, c + dc) for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1))]


def group(board, n, a):
    colour = board[a]
    stones, libs, todo = {a}, set(), [a]
    while todo:
        x = todo.pop()
        for y in nbrs(n, x):
            if board[y] == 0:
                libs.add(y)
            elif board[y] == colour and y not in stones:
                stones.add(y)
                todo.append(y)
    return stones, libs


def ref_play(board, n, a, colour):
    """(new board, removed blocks in removal order, each sorted) or None for a suicide."""
    b = list(board)
    b[a] = colour
    removed = []
    for q in nbrs(n, a):
        if b[q] == 3 - colour:
            stones, libs = group(b, n, q)
            if not libs:
                for x in stones:
                    b[x] = 0
                removed.append(sorted(stones))
    if not group(b, n, a)[1]:
        return None
    return b, removed


def ref_ko(board_before, after, n, a, colour, removed, rules):
    if rules == "go5":
        eyeish = all(board_before[q] == 3 - colour for q in nbrs(n, a))
        singles = [blk[0] for blk in removed if len(blk) == 1]
        return singles[0] if eyeish and len(singles) == 1 else None
    stones, libs = group(after, n, a)
    if sum(map(len, removed)) == 1 and len(stones) == 1 and len(libs) == 1:
        return removed[0][0]
    return None


def ref_is_eye(board, n, a, colour):
    if any(board[q] != colour for q in nbrs(n, a)) or not nbrs(n, a):
        return False
    false = sum(1 for r, c in diags(n, a) if 0 <= r < n and 0 <= c < n and board[r * n + c] == 3 - colour)
    if any(not (0 <= r < n and 0 <= c < n) for r, c in diags(n, a)):
        false += 1
    return false < 2


def ref_area(board, n):
    b, w = board.count(1), board.count(2)
    seen = set()
    for a in range(n * n):
        if board[a] == 0 and a not in seen:
            region, border, todo = {a}, set(), [a]
            while todo:
                x = todo.pop()
                for y in nbrs(n, x):
                    if board[y] == 0 and y not in region:
                        region.add(y)
                        todo.append(y)
                    elif board[y]:
                        border.add(board[y])
            seen |= region
            if border == {1}:
                b += len(region)
            elif border == {2}:
                w += len(region)
    return b, w


class Ref:
    """Reference game state: board (action order), colour to move 1/2, ko, history of boards."""

    def __init__(self, n, rules):
        self.n, self.rules = n, rules
        self.board = [0] * (n * n)
        self.colour = 1
        self.ko = None
        self.history = [tuple(self.board)]  # positions after stone moves; the engine keeps 4*n*n
        self.caps = [0, 0]
        self.npass = 0
        self.empty_order = list(range(n * n))  # the Go5 empty list

    def legal_points(self, colour=None):
        colour = colour or self.colour
        out = []
        for a in range(self.n * self.n):
            if self.board[a] == 0 and a != self.ko:
                r = ref_play(self.board, self.n, a, colour)
                window = self.history[-4 * self.n * self.n:]  # the engine's ring buffer
                if r is not None and not (self.rules == "superko" and tuple(r[0]) in window):
                    out.append(a)
        return out

    def play(self, a):
        n = self.n
        if a == n * n:
            if self.rules != "go5":
                self.ko = None
            self.npass += 1
        else:
            before = self.board
            self.board, removed = ref_play(before, n, a, self.colour)
            self.ko = ref_ko(before, self.board, n, a, self.colour, removed, self.rules)
            self.caps[self.colour - 1] += sum(map(len, removed))
            self.history.append(tuple(self.board))
            self.empty_order.remove(a)
            for blk in removed:
                self.empty_order.extend(blk)
            self.npass = 0
        self.colour = 3 - self.colour


def check_same(game, s, ref):
    assert bottom_up(game, s).reshape(-1).tolist() == ref.board
    assert game.to_move(s) == ref.colour - 1
    assert game.ko(s) == ref.ko
    assert game.captures(s) == tuple(ref.caps)
    assert game.npass(s) == ref.npass
    # the hash is a function of the stones and the side to move only
    fresh = game.state_from_cells(np.array(ref.board).reshape(game.size, game.size)[::-1], ref.colour - 1)
    assert game.hash(fresh) == game.hash(s)


# ---- construction and validation ----------------------------------------------------------------------
def test_options_are_validated():
    for bad in (1, 20, 0, 9.0, True, "9"):
        with pytest.raises(ValueError, match="size"):
            Go(bad)
    for bad in (float("nan"), float("inf"), -float("inf"), "7.5", True):
        with pytest.raises(ValueError, match="komi"):
            Go(9, komi=bad)
    with pytest.raises(ValueError, match="rules"):
        Go(9, rules="japanese")
    with pytest.raises(ValueError, match="max_moves"):
        Go(9, max_moves=-1)
    assert Go(9, komi=-3).komi == -3.0
    assert Go(rules="littlego").size == 5 and Go(rules="littlego").komi == 2.5
    assert Go().size == 9 and Go().komi == 7.5
    assert Go(rules="go5").komi == 0.5 and Go(rules="superko").komi == 7.5
    g = Go(7)
    assert g.num_actions == 50 and g.observation_shape == (3, 7, 7)
    assert g.legal_moves(g.initial_state()) == list(range(50))


def test_observation_and_hash_follow_stones_and_side():
    g = Go(5)
    s = play(g, g.initial_state(), "a1", "e5")
    o = g.observation(s)
    assert o.shape == (3, 5, 5) and o.dtype == np.float32
    assert o[0, 0, 0] == 1 and o[1, 4, 4] == 1 and o[0].sum() == 1 and o[1].sum() == 1
    assert (o[2] == 0).all()  # Black to move
    s2 = g.play(s, g.pass_action)
    assert (g.observation(s2)[2] == 1).all()
    assert g.hash(s2) != g.hash(s)  # only the side differs
    assert g.hash(play(g, g.initial_state(), "e5", "a1")) != g.hash(s)  # colours swapped
    assert g.hash(play(g, g.initial_state(), "pass", "e5", "a1")) == g.hash(s2)
    assert not g.is_terminal(play(g, g.initial_state(), "pass"))
    assert g.is_terminal(play(g, g.initial_state(), "a1", "pass", "pass"))


def test_single_capture_centre_edge_corner():
    g = Go(5)
    s = pos(g, """
        . . . . .
        . . X . .
        . X O . .
        . . X . .
        . . . . .""")
    s = play(g, s, "d3")
    assert same(g, s, """
        . . . . .
        . . X . .
        . X . X .
        . . X . .
        . . . . .""")
    assert g.captures(s) == (1, 0)
    s = pos(g, """
        . . . . .
        . . . . .
        . . . . .
        O X . . .
        X . . . .""", to_move=1)
    s = play(g, s, "b1")  # corner capture by White
    assert same(g, s, """
        . . . . .
        . . . . .
        . . . . .
        O X . . .
        . O . . .""")
    assert g.captures(s) == (0, 1)
    s = pos(g, """
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        . X O X .""")
    s = play(g, s, "c2")  # edge
    assert same(g, s, """
        . . . . .
        . . . . .
        . . . . .
        . . X . .
        . X . X .""")


def test_multiple_groups_captured_at_once():
    g = Go(5)
    s = pos(g, """
        . X O O X
        X O . O X
        . X O X .
        . . X . .
        . . . . .""")
    s = play(g, s, "c4")  # captures b4, c3 and the c5-d5-d4 block: three blocks, five stones
    assert same(g, s, """
        . X . . X
        X . X . X
        . X . X .
        . . X . .
        . . . . .""")
    assert g.captures(s) == (5, 0)


def test_capturing_stone_without_liberty_until_the_capture_is_legal():
    g = Go(5)
    s = pos(g, """
        O X . . .
        . O . . .
        O . . . .
        . . . . .
        . . . . .""")
    # Black a4 has no liberty of its own (a5, b4, a3 white) but takes a5, whose last liberty it was
    assert g.is_legal(s, mv(g, "a4"))
    s = play(g, s, "a4")
    assert same(g, s, """
        . X . . .
        X O . . .
        O . . . .
        . . . . .
        . . . . .""")
    assert g.captures(s) == (1, 0) and g.ko(s) == mv(g, "a5")  # a corner ko


def test_suicide_is_illegal():
    g = Go(5)
    s = pos(g, """
        . O . . .
        O . . . .
        . . . . .
        . . . . .
        . . . . .""")
    a5 = mv(g, "a5")
    assert not g.is_legal(s, a5)
    assert g.illegal_reason(s, a5) is Reason.SUICIDE
    assert_illegal(g, s, a5, Reason.SUICIDE)
    # a multi-stone suicide: filling the last liberty of an own group
    s = pos(g, """
        X X O . .
        . X O . .
        X X O . .
        O O O . .
        . . . . .""")
    assert g.illegal_reason(s, mv(g, "a4")) is Reason.SUICIDE
    assert mv(g, "a4") not in g.legal_moves(s)
    # White may play there: it captures
    s = g.set_to_move(s, 1)
    assert g.is_legal(s, mv(g, "a4"))
    s = play(g, s, "a4")
    assert same(g, s, """
        . . O . .
        O . O . .
        . . O . .
        O O O . .
        . . . . .""")
    assert g.illegal_reason(s, mv(g, "a4")) is Reason.OCCUPIED


# ---- ko ------------------------------------------------------------------------------------------------
KO = """
    . . . . .
    . X O . .
    X O . O .
    . X O . .
    . . . . ."""


def test_simple_ko_and_retake_after_an_intervening_move():
    for rules in ("standard", "superko", "littlego"):
        g = Go(5, rules=rules)
        s = pos(g, KO)
        s = play(g, s, "c3")  # Black takes b3
        assert g.ko(s) == mv(g, "b3")
        assert not g.is_legal(s, mv(g, "b3"))
        assert g.illegal_reason(s, mv(g, "b3")) is Reason.KO
        assert_illegal(g, s, mv(g, "b3"), Reason.KO)
        s = play(g, s, "e1", "e5")  # a threat and an answer elsewhere
        assert g.ko(s) is None
        assert g.is_legal(s, mv(g, "b3"))
        s = play(g, s, "b3")
        assert g.ko(s) == mv(g, "c3")
        # standard: a pass clears the ban
        if rules == "standard":
            t = play(g, s, "pass", "pass")
            assert g.is_terminal(t)
            t = play(g, s, "pass")
            assert g.ko(t) is None


def test_capture_of_two_stones_makes_no_ko():
    g = Go(5)
    s = pos(g, """
        . . . . .
        . X X . .
        X O O X .
        . X . . .
        . . . . .""")
    s = play(g, s, "c2")
    assert g.captures(s) == (2, 0) and g.ko(s) is None
    # a single-stone capture by a stone that keeps two liberties is no ko either
    s = pos(g, """
        . . . . .
        . X O . .
        X O . . .
        . X O . .
        . . . . .""")
    s = play(g, s, "c3")
    assert g.captures(s) == (1, 0) and g.ko(s) is None
    assert g.is_legal(s, mv(g, "b3")) is False  # b3 is now simply suicide for White
    assert g.illegal_reason(s, mv(g, "b3")) is Reason.SUICIDE


def test_go5_ko_survives_a_pass_and_forbids_both_colours():
    g = Go(5, rules="go5")
    s = pos(g, KO)
    s = play(g, s, "c3")
    assert g.ko(s) == mv(g, "b3")
    s = play(g, s, "pass")  # White passes: the ban stays
    assert g.ko(s) == mv(g, "b3") and g.npass(s) == 1 and g.to_move(s) == 0
    assert not g.is_legal(s, mv(g, "b3"))  # even Black, who captured, may not fill it
    assert g.illegal_reason(s, mv(g, "b3")) is Reason.KO
    t, err = go5_attempt(g, s, mv(g, "b3"))
    assert err is Reason.KO and g.npass(t) == 0 and g.ko(t) == mv(g, "b3") and g.to_move(t) == 0
    assert g.cells(t).tolist() == g.cells(s).tolist()
    s = play(g, s, "pass")  # two passes: over, the ban still there
    assert g.ko(s) == mv(g, "b3") and g.is_terminal(s) and g.to_move(s) == 1
    assert g.go5_candidates(s) and mv(g, "b3") not in g.go5_candidates(s)
    s, err = go5_attempt(g, s, mv(g, "e5"))  # the next stone clears the ban (and npass)
    assert err is None and g.ko(s) is None and not g.is_terminal(s)
    assert g.last(s) == mv(g, "e5") and g.last2(s) is None
    assert g.nmoves(s) == 8 + 4  # the diagram's 8 stones count as 8 moves, then c3, pass, pass, e5
    assert g.is_legal(s, mv(g, "b3"))
    # the standard rules: a pass clears the ban
    gs = Go(5)
    s = play(gs, pos(gs, KO), "c3", "pass")
    assert gs.ko(s) is None and gs.is_legal(s, mv(gs, "b3"))


GO5_SUICIDE = """
    . X . . .
    X . . . .
    . X O . .
    X O . O .
    . X O . ."""


def test_go5_suicide_attempt_erases_ko():
    g = Go(5, rules="go5")
    s = play(g, pos(g, GO5_SUICIDE), "c2")  # Black takes b2
    assert g.ko(s) == mv(g, "b2")
    assert not g.is_legal(s, mv(g, "b2"))
    t, err = go5_attempt(g, s, mv(g, "a5"))  # White's suicide attempt at a5
    assert err is Reason.SUICIDE
    assert g.ko(t) is None and g.to_move(t) == 1 and g.cells(t).tolist() == g.cells(s).tolist()
    assert g.nmoves(t) == g.nmoves(s) and g.last(t) == mv(g, "c2")
    assert g.is_legal(t, mv(g, "b2"))  # the ban is gone: White may retake at once
    t, err = go5_attempt(g, t, mv(g, "b2"))
    assert err is None and g.ko(t) == mv(g, "c2") and g.captures(t) == (1, 1)
    t2, err = go5_attempt(g, t, mv(g, "b2"), 0)
    assert err is Reason.OCCUPIED and t2[G.KO] == t[G.KO]
    # under the standard rules the retake stays forbidden
    gs = Go(5)
    u = play(gs, pos(gs, GO5_SUICIDE), "c2")
    assert not gs.is_legal(u, mv(gs, "b2"))


GO5_QUIRK = """
    . X . . .
    X O X . .
    O . O . .
    O O X . .
    X X . . ."""


def test_go5_ko_point_rule():
    g5, gs = Go(5, rules="go5"), Go(5)
    # a plain ko: enemy-eyeish b3, one single stone (a3) removed; b2 keeps b1
    s = pos(g5, """
        . . . . .
        X O . . .
        O . O . .
        X O X . .
        . . . . .""")
    assert g5.ko(play(g5, s, "b3")) == mv(g5, "a3")
    # the quirk: b3 is enemy-eyeish and removes the a2-b2-a3 block and the single b4: ko at b4
    s = pos(g5, GO5_QUIRK)
    t = play(g5, s, "b3")
    assert same(g5, t, """
        . X . . .
        X . X . .
        . X O . .
        . . X . .
        X X . . .""")
    assert g5.captures(t) == (4, 0)
    assert g5.ko(t) == mv(g5, "b4")
    assert not g5.is_legal(t, mv(g5, "b4"))
    assert not g5.is_legal(g5.set_to_move(t, 0), mv(g5, "b4"))  # both colours
    assert gs.ko(play(gs, pos(gs, GO5_QUIRK), "b3")) is None  # standard: four stones, no ko
    # two single-stone blocks removed (b4 and c3): no ko
    s = pos(g5, """
        . X . . .
        X O X . .
        O . O X .
        O O X . .
        X X . . .""")
    t = play(g5, s, "b3")
    assert g5.captures(t) == (5, 0) and g5.ko(t) is None
    # not enemy-eyeish (a black neighbour): no ko although one single stone dies
    s = pos(g5, """
        . . . . .
        X O . . .
        O . X . .
        X O X . .
        . . . . .""")
    t = play(g5, s, "b3")
    assert g5.captures(t) == (1, 0) and g5.ko(t) is None


def test_go5_empty_list_order_after_captures():
    g = Go(5, rules="go5")
    s = pos(g, GO5_QUIRK)
    board = bottom_up(g, s).reshape(-1)
    assert g.empty_list(s) == [a for a in range(25) if board[a] == 0]
    t = play(g, s, "b3")
    before = [a for a in g.empty_list(s) if a != mv(g, "b3")]
    # W neighbour a3: block a2 b2 a3 in board order; E c3 lives; S b2 already gone; N b4
    added = [mv(g, "a2"), mv(g, "b2"), mv(g, "a3"), mv(g, "b4")]
    assert g.empty_list(t) == before + added
    k = g.go5_candidates(t)
    assert k == [a for a in g.empty_list(t) if g.is_legal(t, a) and not g.is_eye(t, a, 1)]
    assert k[-2:] == [mv(g, "b2"), mv(g, "a3")] and mv(g, "a2") in k
    assert g.legal_moves(t) == sorted(g.legal_moves(t))
    out = np.empty(26, dtype=np.int32)
    n = g.kernels.rollout_moves(t, out)
    assert out[:n].tolist() == k
    # a stone played on a freed point leaves the others in order
    u = play(g, t, "b2")
    assert g.empty_list(u) == [a for a in before + added if a != mv(g, "b2")]


def test_is_eye_per_go5_rules():
    g = Go(5, rules="go5")
    X, O = 0, 1
    s = pos(g, """
        . X . X .
        X X X O .
        . X . X .
        . . X . .
        . . . . .""")
    assert g.is_eye(s, mv(g, "a5"), X)        # corner: only the off-board count
    assert not g.is_eye(s, mv(g, "a5"), O)
    assert not g.is_eye(s, mv(g, "c5"), X)    # edge with one opponent diagonal (d4)
    assert g.is_eye(s, mv(g, "c3"), X)        # interior with one opponent diagonal (d4)
    assert not g.is_eye(s, mv(g, "a3"), X)    # an empty neighbour (a2)
    assert not g.is_eye(s, mv(g, "e4"), O)    # empty neighbours
    assert not g.is_eye(s, mv(g, "e5"), X)    # an empty neighbour (e4)
    t = pos(g, """
        . . . . .
        . O X . .
        . X . X .
        . . X O .
        . . . . .""")
    assert not g.is_eye(t, mv(g, "c3"), X)    # two opponent diagonals: a false eye
    u = pos(g, """
        . X . . .
        X O . . .
        . . . . .
        . . . . .
        . . . . .""")
    assert not g.is_eye(u, mv(g, "a5"), X)    # corner with an opponent diagonal
    v = pos(g, """
        . X . X .
        . X X X .
        . . . . .
        . . . . .
        . . . . .""")
    assert g.is_eye(v, mv(g, "c5"), X)        # edge, own diagonals
    assert not g.is_eye(v, mv(g, "b5"), X)    # occupied points are never eyes
    with pytest.raises(ValueError):
        g.is_eye(v, g.pass_action, X)
    with pytest.raises(ValueError):
        g.is_eye(v, 0, 2)
    for state in (s, t, u, v):  # every point, both colours, against the reference
        board = bottom_up(g, state).reshape(-1).tolist()
        for a in range(25):
            if board[a] == 0:
                for c in (0, 1):
                    assert g.is_eye(state, a, c) == ref_is_eye(board, 5, a, c + 1), (a, c)


def test_area_scoring_and_go5_text():
    g = Go(5, rules="go5")  # komi 0.5
    s = g.initial_state()
    assert g.score(s) == -0.5 and format_score(g.score(s)) == "W+0.5"  # the empty board counts for nobody
    assert g.kernels.result(s) == 0.0
    s = pos(g, """
        . X O . .
        . X O . .
        X X O . .
        . X O O O
        . X O . .""")
    # Black: 6 stones + a5-a4 + a2-a1; White: 7 stones + d3..e5 (6) + d1-e1 (2)
    b, w = ref_area(bottom_up(g, s).reshape(-1).tolist(), 5)
    assert (b, w) == (10, 15)
    assert g.score(s) == 10 - 15.5 and format_score(g.score(s)) == "W+5.5"
    g0 = Go(5, rules="go5", komi=0)
    s0 = pos(g0, """
        . X O . .
        . X O . .
        . X O . .
        . X O . .
        . X O . .""")
    assert format_score(g0.score(s0)) == "W+5.0"
    s0 = pos(g0, """
        . . X O .
        . . X O .
        . . X O .
        . . X O .
        . . X O .""")
    assert format_score(g0.score(s0)) == "B+5.0" and g0.score(s0) == 5.0
    s0 = pos(g0, """
        . X . O .
        . X . O .
        . X . O .
        . X . O .
        . X . O .""")
    assert format_score(g0.score(s0)) == "0" and g0.kernels.result(s0) == 0.5  # c-file is dame
    g2 = Go(5, komi=2.0)
    s2 = pos(g2, """
        . X . O .
        X X . O O
        . . . . .
        . . . . .
        . . . . .""")
    # a5 is Black's, e5 White's, the rest one region bordered by both
    assert g2.score(s2) == 4 - (2.0 + 4) and format_score(g2.score(s2)) == "W+2.0"
    g3 = Go(5, komi=-2.5)
    assert format_score(g3.score(g3.initial_state())) == "B+2.5"


# ---- superko ------------------------------------------------------------------------------------------
def test_positional_superko_forbids_a_repeated_position():
    # 2x2: B a1, W b2, B b1, W a2 (takes two), B a1, W b1 (takes one), B a1 takes three and would
    # recreate the position after move 1 - no simple-ko ban applies.
    seq = ["a1", "b2", "b1", "a2", "a1", "b1"]
    gs, gk = Go(2, rules="standard"), Go(2, rules="superko")
    s, k = play(gs, gs.initial_state(), *seq), play(gk, gk.initial_state(), *seq)
    assert gs.ko(s) is None and gk.ko(k) is None
    assert gs.is_legal(s, mv(gs, "a1"))
    assert same(gs, play(gs, s, "a1"), """
        . .
        X .""")
    assert not gk.is_legal(k, mv(gk, "a1"))
    assert gk.illegal_reason(k, mv(gk, "a1")) is Reason.SUPERKO
    assert mv(gk, "a1") not in gk.legal_moves(k)
    assert_illegal(gk, k, mv(gk, "a1"), Reason.SUPERKO)
    # the random playout kernel checks only simple ko, and the standard rules do not see it
    assert mv(gs, "a1") in gs.legal_moves(s)


def test_superko_history_is_a_ring_buffer():
    g = Go(2, rules="superko")
    s = g.initial_state()
    assert s[G.HCAP] == 4 * 4 and s[G.HLEN] == 1
    s = play(g, s, "a1", "b2")
    assert s[G.HLEN] == 3
    s = play(g, s, "pass")
    assert s[G.HLEN] == 3  # a pass adds no position
    assert Go(9).initial_state()[G.HCAP] == 0


# ---- notation ------------------------------------------------------------------------------------------
def test_notation_round_trips_and_errors():
    """The move notations, now spoken by protocols/gtp.py and protocols/littlego.py over the board view."""
    for n in (2, 5, 9, 13, 19):
        g = Go(n)
        for a in range(g.num_actions):
            assert gtp_move(g, gtp_text(g, a)) == a
            assert g.action_at(littlego.parse_move(littlego.format_move(g.point_of(a), n), n)) == a
    g = Go(9)
    assert gtp_text(g, 0) == "a1" and gtp_text(g, 8) == "j1" and gtp_text(g, 80) == "j9"
    assert gtp_text(g, 81) == "pass" and littlego.format_move(g.point_of(81), 9) == "PASS"
    assert gtp_move(g, "D4") == 3 * 9 + 3 and gtp_move(g, "j9") == 80
    assert gtp_move(g, "PaSs") == 81 and gtp_move(g, "a01") == 0
    assert gtp_text(Go(19), 18) == "t1" and gtp_move(Go(19), "T19") == 360
    for bad in ("", "i5", "I5", "a0", "d", "4d", "pass1", "dd", "5,5", "a-1"):
        with pytest.raises(InvalidPoint):
            gtp_move(g, bad)
    for bad in ("k1", "a10", "z1"):  # well-formed, beyond the 9x9 board
        with pytest.raises(OffBoard):
            gtp_move(g, bad)
    with pytest.raises(ProtocolError):
        gtp_move(g, None)
    gl = Go(rules="littlego")

    def lg_text(a):
        return littlego.format_move(gl.point_of(a))

    def lg_move(text):
        return gl.action_at(littlego.parse_move(text))

    assert lg_text(0) == "4,0" and lg_text(24) == "0,4" and lg_text(25) == "PASS"
    assert lg_move("0,0") == 20 and lg_move("PASS") == 25 and lg_move("2,3") == 13
    assert gtp_text(gl, 12) == "c3"
    for bad in ("5,0", "0,5", "-1,0", "a,b", "1", "1,2,3", "", "1;2"):
        with pytest.raises(ProtocolError):
            lg_move(bad)
    for bad in (-1, 26, 2.0, True, "3"):
        with pytest.raises(ValueError):
            lg_text(bad)
    for bad in ((5, 0), (0, -1), (1.0, 2), (True, 0), "1,2"):
        with pytest.raises(ProtocolError):
            littlego.format_move(bad)


def test_render_shows_grid_and_status():
    g = Go(5)
    s = play(g, pos(g, KO), "c3")
    text = g.render(s)
    lines = text.splitlines()
    assert lines[0].split() == list("abcde") and lines[1].split()[0] == "5"
    assert lines[3] == " 3 X . X O . 3"
    assert "White (O) to move" in text and "ko b3" in text and "captures X 1 O 0" in text


# ---- values, not references ----------------------------------------------------------------------
def test_play_never_mutates_its_input():
    g = Go(5)
    rng = np.random.default_rng(3)
    s = g.initial_state()
    while not g.is_terminal(s):
        before = s.copy()
        m = int(rng.choice(g.legal_moves(s)))
        t = g.play(s, m)
        assert np.array_equal(s, before) and t is not s
        g.random_playout(s, make_rng(1))
        g.observation(s), g.render(s), g.score(s), g.go5_candidates(s), g.illegal_reason(s, m)
        assert np.array_equal(s, before)
        s = t


def test_illegal_and_over_games_raise():
    g = Go(5)
    s = play(g, g.initial_state(), "c3")
    assert_illegal(g, s, mv(g, "c3"), Reason.OCCUPIED)
    s = play(g, s, "pass", "pass")
    assert g.is_terminal(s) and g.legal_moves(s) == []
    with pytest.raises(GameOver) as e:
        g.play(s, g.pass_action)
    assert e.value.reason is Reason.GAME_OVER
    assert g.returns(s) == (1.0, 0.0) and g.winner(s) == 0  # 25 points to 7.5
    gm = Go(5, max_moves=3)
    s = play(gm, gm.initial_state(), "a1", "b1", "c1")
    assert gm.is_terminal(s)


# ---- random play against the reference -----------------------------------------------------------------
@pytest.mark.parametrize("n,rules,games", [(3, "standard", 40), (5, "standard", 20), (7, "standard", 6),
                                           (9, "standard", 3), (13, "standard", 1), (4, "go5", 20),
                                           (6, "go5", 8), (3, "superko", 40), (4, "superko", 15),
                                           (2, "superko", 60)])
def test_random_games_match_the_reference(n, rules, games):
    g = Go(n, rules=rules)
    rng = np.random.default_rng(1000 + n)
    kos = banned = 0
    for _ in range(games):
        s, ref = g.initial_state(), Ref(n, rules)
        for _ in range(6 * n * n):
            if g.is_terminal(s):
                break
            legal = g.legal_moves(s)
            assert legal == ref.legal_points() + [n * n]
            if rules == "superko":  # points only the history forbids
                for a in range(n * n):
                    if (ref.board[a] == 0 and a != ref.ko and a not in legal
                            and ref_play(ref.board, n, a, ref.colour) is not None):
                        assert g.illegal_reason(s, a) is Reason.SUPERKO
                        banned += 1
            if rules == "go5":
                board = ref.board
                k = [a for a in ref.empty_order if a in legal and not ref_is_eye(board, n, a, ref.colour)]
                assert g.go5_candidates(s) == k
                assert g.empty_list(s) == ref.empty_order
            # mostly stones, a few passes (they matter for ko under go5)
            stones = legal[:-1]
            m = int(rng.choice(stones)) if stones and rng.random() > 0.05 else n * n
            s = g.play(s, m)
            ref.play(m)
            check_same(g, s, ref)
            kos += ref.ko is not None
    if n >= 3 and games >= 3:
        assert kos > 0  # the games did meet kos (none is possible on 2x2)
    if rules == "superko":
        assert banned > 0  # and superko bans


@pytest.mark.parametrize("n,rules", [(n, r) for n in (2, 3, 4, 5, 7, 9, 13, 19)
                                     for r in ("standard", "go5", "littlego", "superko")])
def test_playouts_terminate_with_a_result(n, rules):
    g = Go(n, rules=rules)
    rng = make_rng(n)
    for _ in range(3):
        v = g.random_playout(g.initial_state(), rng)
        assert v in (0.0, 0.5, 1.0)
    s = g.initial_state()
    v = g.kernels.playout(s, rng)
    assert v == g.kernels.result(s)
    if rules == "littlego":
        assert g.is_terminal(s)


@pytest.mark.parametrize("n,rules,count", [(3, "standard", 60), (5, "standard", 60), (9, "standard", 15),
                                           (5, "go5", 30), (7, "superko", 10), (19, "standard", 2)])
def test_playout_kernel_agrees_with_the_reference(n, rules, count):
    """Replays the moves of traced playouts in the reference: each stone is legal (simple ko) and
    no own eye, a pass happens only when no such point exists, and board and value agree."""
    g = Go(n, rules=rules)
    gen = np.random.default_rng(n)
    rng = make_rng(5 * n)
    for i in range(count):
        # start from a random position reached by a few uniformly random legal moves
        s, ref = g.initial_state(), Ref(n, "go5" if rules == "go5" else "standard")
        for _ in range(int(gen.integers(0, n * n // 2 + 1))):
            legal = g.legal_moves(s)
            if g.is_terminal(s) or len(legal) == 1:
                break
            m = int(gen.choice(legal[:-1]))
            s = g.play(s, m)
            ref.play(m)
        t = s.copy()
        trace = np.full(3 * n * n, -1, dtype=np.int64)
        value = G.playout_traced(t, rng, trace)
        played = int(t[G.NMOVES] - s[G.NMOVES])
        assert played > 0 and (trace[played:] == -1).all()
        for m in trace[:played].tolist():
            cands = [a for a in ref.legal_points() if not ref_is_eye(ref.board, n, a, ref.colour)]
            if m == n * n:
                assert cands == []
            else:
                assert m in cands
            ref.play(m)
        check_same(g, t, ref)
        b, w = ref_area(ref.board, n)
        d = b - (g.komi + w)
        assert value == (1.0 if d > 0 else 0.0 if d < 0 else 0.5)
        assert g.score(t) == d
        assert played == 3 * n * n or g.is_terminal(t)


def test_registry_komi_and_cells_helpers():
    from engines.games import make_game
    g = make_game("go", size=7, rules="go5")
    assert isinstance(g, Go) and g.size == 7 and g.rules == "go5"
    s = g.initial_state()
    t = g.with_komi(s, 3.0)
    assert g.score(t) == -3.0 and format_score(g.score(t)) == "W+3.0" and g.score(s) == -0.5
    for bad in (float("nan"), float("inf"), "1"):
        with pytest.raises(ValueError, match="komi"):
            g.with_komi(s, bad)
    with pytest.raises(ValueError, match="liberties"):
        g.state_from_cells(np.array([[1] * 7] * 7), 0)
    with pytest.raises(ValueError):
        g.state_from_cells(np.zeros((6, 6), dtype=int), 0)
    with pytest.raises(ValueError):
        g.state_from_cells(np.full((7, 7), 3), 0)
    with pytest.raises(ValueError):
        g.state_from_cells(np.zeros((7, 7), dtype=int), 2)
    with pytest.raises(ValueError):
        g.set_to_move(s, 2)
    assert g.to_move(g.set_to_move(s, 1)) == 1 and g.hash(g.set_to_move(s, 1)) != g.hash(s)


# ---- typed illegal moves and the board view ----------------------------------------------------------
def test_every_illegal_move_reason_is_raised_with_its_code():
    g = Go(5)
    s = play(g, g.initial_state(), "c3")
    assert_illegal(g, s, mv(g, "c3"), Reason.OCCUPIED)
    s = pos(g, """
        . O . . .
        O . . . .
        . . . . .
        . . . . .
        . . . . .""")
    assert_illegal(g, s, mv(g, "a5"), Reason.SUICIDE)
    s = play(g, pos(g, KO), "c3")
    assert_illegal(g, s, mv(g, "b3"), Reason.KO)
    gk = Go(2, rules="superko")
    k = play(gk, gk.initial_state(), "a1", "b2", "b1", "a2", "a1", "b1")
    assert_illegal(gk, k, mv(gk, "a1"), Reason.SUPERKO)
    for bad in (-1, g.num_actions):
        with pytest.raises(IllegalMove) as e:
            g.play(g.initial_state(), bad)
        assert e.value.reason is Reason.OUT_OF_RANGE
    with pytest.raises(IllegalMove) as e:
        g.action(5, 0)
    assert e.value.reason is Reason.OUT_OF_RANGE
    over = play(g, g.initial_state(), "c3", "pass", "pass")
    for m in (mv(g, "a1"), g.pass_action):
        assert g.illegal_reason(over, m) is Reason.GAME_OVER
        with pytest.raises(GameOver) as e:
            g.play(over, m)
        assert isinstance(e.value, IllegalMove) and isinstance(e.value, ValueError)
        assert e.value.reason is Reason.GAME_OVER
    # a pass is always legal before the end
    assert g.illegal_reason(s, g.pass_action) is None and g.is_legal(s, g.pass_action)


@pytest.mark.parametrize("n,rules", [(2, "superko"), (5, "standard"), (5, "littlego"), (7, "go5"),
                                     (9, "standard"), (13, "superko")])
def test_board_view_round_trips(n, rules):
    g = Go(n, rules=rules)
    for a in range(n * n):
        row, col = g.coords(a)
        assert 0 <= row < n and 0 <= col < n
        assert g.action(row, col) == a and g.point_of(a) == (row, col) and g.action_at((row, col)) == a
        assert (row, col) == (n - 1 - a // n, a % n)  # row 0 is the top; actions count from the bottom
        assert g.move_label(a) == gtp_text(g, a)
    assert g.point_of(g.pass_action) is None and g.action_at(None) == g.pass_action
    assert g.move_label(g.pass_action) == "pass"
    with pytest.raises(ValueError):
        g.coords(g.pass_action)
    rng = np.random.default_rng(7 * n)
    for _ in range(6):
        s = g.initial_state()
        for _ in range(int(rng.integers(0, 2 * n * n))):
            if g.is_terminal(s):
                break
            legal = g.legal_moves(s)
            s = g.play(s, int(rng.choice(legal[:-1])) if len(legal) > 1 else g.pass_action)
        cells = g.cells(s)
        assert cells.shape == (n, n) and cells.dtype == np.int8 and set(np.unique(cells)) <= {0, 1, 2}
        for a in range(n * n):  # each point's cell is the stone on that action
            assert cells[g.coords(a)] == bottom_up(g, s).reshape(-1)[a]
        t = g.state_from_cells(cells, g.to_move(s))
        assert np.array_equal(g.cells(t), cells) and g.to_move(t) == g.to_move(s)
        assert g.hash(t) == g.hash(s)
        u = g.state_from_cells(cells, g.to_move(s), previous=cells, moves_played=g.nmoves(s))
        assert np.array_equal(g.cells(u), cells) and g.nmoves(u) == g.nmoves(s) and g.to_move(u) == g.to_move(s)


def test_board_view_rows_count_from_the_top():
    g = Go(9)
    assert g.coords(mv(g, "a9")) == (0, 0) and g.coords(mv(g, "a1")) == (8, 0)
    assert g.coords(mv(g, "j9")) == (0, 8) and g.coords(mv(g, "j1")) == (8, 8)
    assert g.coords(mv(g, "d4")) == (5, 3) and gtp_text(g, g.action(5, 3)) == "d4"
    s = play(g, g.initial_state(), "a9", "j1")
    cells = g.cells(s)
    assert cells[0, 0] == 1 and cells[8, 8] == 2 and np.count_nonzero(cells) == 2
    assert g.state_from_cells(cells, 0)[G.HEADER + G.point_of(9, mv(g, "a9"))] == G.BLACK
