"""Go5 move features, pattern table, weights loader and prior knowledge
(engines/knowledge/go/go5_weights.py, go/features.py, go/go5_prior.py).

The course weights and the regression file are data outside the project: they are read from
../shared/data next to the project root (tests/conftest.py: the tests that need them are skipped
when they are absent, and fail instead under PLIES_REQUIRE_SHARED_DATA=1).  The compiled features are checked against a
slow pure-Python reference written here from the specification, on hand-made and random positions.
"""
import re
from functools import lru_cache

import numpy as np
import pytest

from conftest import COURSE_TESTS as REGRESS_FILE
from conftest import weights_lines
from moves import go5_attempt
from engines.games import make_game
from engines.games.go import TO_MOVE
from engines.knowledge.go import go5_weights as GW
from engines.knowledge.go.features import gammas, move_features
from engines.knowledge.go.go5_prior import (PRIOR_PARAMS_LEN, go5_children, go5_prior, prior_knowledge, prior_params,
                                        prior_values, vertex_name)

LETTERS = "abcdefghjklmnopqrstuvwxyz"
SPEC_WEIGHTS = [8.87323, 6.60904, 6.56391, 8.23333, 2.1466, 1, 0.375634, 0.620535, 1.07571, 5.09796, 2.93718,
                4.23323, 2.7383, 1.42036, 1.62858, 1.20849, 1.21587, 4.08844, 5.44847, 4.76146, 3.72079, 2.83425,
                1.88232, 1.93623, 1.3993, 1.5165]


# ---- positions -----------------------------------------------------------------------------------
def action(n, vertex):
    if vertex.lower() == "pass":
        return n * n
    return (int(vertex[1:]) - 1) * n + LETTERS.index(vertex[0].lower())


def replay(n, moves, strict=True):
    """A go5 state after moves like "b c3 w d4 b pass" (colours may come out of turn)."""
    game = make_game("go", size=n, rules="go5")
    state = game.initial_state()
    words = moves.split()
    for colour, vertex in zip(words[::2], words[1::2]):
        state, reason = go5_attempt(game, state, action(n, vertex), "bw".index(colour))
        assert not (strict and reason), f"{colour} {vertex} is illegal: {reason}"
    return game, state


def random_positions(count, seed=7):
    """Random go5 positions of sizes 2..11: mostly alternating play, some out of turn, passes and
    illegal attempts (which clear npass and, for suicide, the ko ban)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(rng.integers(2, 12))
        game = make_game("go", size=n, rules="go5")
        state = game.initial_state()
        for _ in range(int(rng.integers(0, 3 * n * n))):
            colour = int(state[TO_MOVE]) if rng.random() < 0.9 else int(rng.integers(2))
            x = rng.random()
            if x < 0.08:
                move = n * n
            elif x < 0.2:
                move = int(rng.integers(n * n))  # any point: occupied, ko, suicide attempts too
            else:
                cands = game.go5_candidates(state, colour)
                move = int(rng.choice(cands)) if cands else n * n
            state, _ = go5_attempt(game, state, move, colour)
        out.append((game, state))
    return out


# ---- the pure-Python reference of the specification ------------------------------------------
def _canonical_ref(s):
    grid = np.array(list(s)).reshape(3, 3)
    best = None
    for swap in (False, True):
        g = np.vectorize({"X": "O", "O": "X"}.get)(grid, grid) if swap else grid
        for k in range(4):
            r = np.rot90(g, k)
            for m in (r, np.fliplr(r)):
                t = "".join(m.reshape(-1))
                best = t if best is None or t < best else best
    return best


class Ref:
    """Board model of spec section 1 and the features of section 2, straight from the text."""

    def __init__(self, game, state):
        self.n = n = game.size
        self.b = game.cells(state)[::-1].astype(int)  # [row from bottom][col]
        self.c = int(state[TO_MOVE]) + 1
        self.o = 3 - self.c
        self.ko = game.ko(state)
        self.last, self.last2, self.nmoves = game.last(state), game.last2(state), game.nmoves(state)
        self.pts = [(r, c) for r in range(n) for c in range(n)]  # board order

    def nbrs(self, r, c):
        return [(r + dr, c + dc) for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0))
                if 0 <= r + dr < self.n and 0 <= c + dc < self.n]

    def block(self, b, r, c):
        colour, stones, libs, todo = b[r, c], {(r, c)}, set(), [(r, c)]
        while todo:
            for q in self.nbrs(*todo.pop()):
                if b[q] == 0:
                    libs.add(q)
                elif b[q] == colour and q not in stones:
                    stones.add(q)
                    todo.append(q)
        return stones, libs

    def legal(self, r, c):
        if self.b[r, c] != 0 or (self.ko is not None and self.ko == r * self.n + c):
            return False
        b = self.b.copy()
        b[r, c] = self.c
        if any(b[q] == self.o and not self.block(b, *q)[1] for q in self.nbrs(r, c)):
            return True
        return bool(self.block(b, r, c)[1])

    def pattern(self, r, c):
        def cell(rr, cc):
            if not (0 <= rr < self.n and 0 <= cc < self.n):
                return "#"
            return {0: ".", self.c: "X", self.o: "O"}[int(self.b[rr, cc])]
        return "".join(cell(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))

    def features(self, weights):
        n = self.n
        L = {(r, c) for r, c in self.pts if self.legal(r, c)}
        feats = {p: [] for p in L}

        def add(p, f):
            if p in feats and f not in feats[p]:
                feats[p].append(f)
        seen = set()
        for p in self.pts:
            if self.b[p] == self.o and p not in seen:
                stones, libs = self.block(self.b, *p)
                seen |= stones
                for q in sorted(libs):
                    if len(libs) == 1:
                        add(q, 2)
                    elif len(libs) == 2:
                        add(q, 3 if self.ko is not None else 4)

        def dist(p, a):
            q = divmod(a, n)
            dx, dy = abs(p[1] - q[1]), abs(p[0] - q[0])
            return dx + dy + max(dx, dy)
        for p in sorted(L):
            if self.last is not None and 2 <= dist(p, self.last) <= 9:
                add(p, 9 + dist(p, self.last) - 2)
            if self.last2 is not None:
                d = dist(p, self.last2)
                if d == 0:
                    add(p, 17)
                elif 2 <= d <= 9:
                    add(p, 18 + d - 2)
            r, c = p
            add(p, 6 + min(min(r + 1, c + 1, n - r, n - c), 3) - 1)
            key = _canonical_ref(self.pattern(r, c))
            if key in weights.index:
                add(p, weights.index[key])
        out = {r * n + c: f for (r, c), f in feats.items()}
        out[n * n] = [0 if self.nmoves == 0 or self.last is not None else 1]
        return out


# ---- the basic features on hand-made positions ------------------------------------------------------
def feats_at(game, state, weights, vertex):
    return move_features(game, state, weights)[action(game.size, vertex)]


def test_capture_and_atari_on_the_same_point(course_weights):
    game, s = replay(5, "b b1 w a1 b a4 w a3")  # a1 has the one liberty a2; a3 has a2 and b3
    f = move_features(game, s, course_weights)
    assert f[action(5, "a2")][:2] == [GW.FE_CAPTURE, GW.FE_ATARI_OTHER]
    assert f[action(5, "b3")][0] == GW.FE_ATARI_OTHER
    assert sum(GW.FE_CAPTURE in v for v in f.values()) == 1
    assert sum(GW.FE_ATARI_OTHER in v for v in f.values()) == 2
    assert not any(GW.FE_ATARI_KO in v for v in f.values())


def test_no_save_feature_for_own_blocks_and_dropped_illegal_targets(course_weights):
    # white to move; black a2 (liberties a1, a3) and b1 (a1, c1) have two liberties each, white's
    # own b2 has two (b3, c2); white a1 would be suicide, so it gets nothing
    game, s = replay(4, "b a2 w b2 b b1")
    f = move_features(game, s, course_weights)
    assert action(4, "a1") not in f
    assert f[action(4, "a3")][0] == GW.FE_ATARI_OTHER and f[action(4, "c1")][0] == GW.FE_ATARI_OTHER
    for v in ("b3", "c2"):
        assert not {2, 3, 4} & set(f[action(4, v)])
    assert sum(bool({2, 3, 4} & set(x)) for x in f.values()) == 2
    assert f == Ref(game, s).features(course_weights)


def test_atari_ko_with_a_ko_point_that_survived_a_pass(course_weights):
    moves = "b b3 w c3 b c2 w d2 b c4 w d4 b a1 w e3 b d3"
    game, s = replay(5, moves)
    assert game.ko(s) == action(5, "c3")
    f = move_features(game, s, course_weights)  # white to move: black blocks with two liberties
    assert any(GW.FE_ATARI_KO in v for v in f.values())
    assert not any(GW.FE_ATARI_OTHER in v for v in f.values())
    assert action(5, "c3") not in f  # the ko point is not legal, so it gets nothing
    game, s = replay(5, moves + " w pass")  # the ban survives the pass and now binds black
    assert game.ko(s) == action(5, "c3")
    f = move_features(game, s, course_weights)
    atari_ko = sorted(vertex_name(5, a) for a, v in f.items() if GW.FE_ATARI_KO in v)
    assert atari_ko and not any(GW.FE_ATARI_OTHER in v for v in f.values())
    assert f[25] == [GW.FE_PASS_CONSECUTIVE]
    assert not any(9 <= x <= 16 for v in f.values() for x in v)  # last move was a pass: no DIST_PREV
    assert f == Ref(game, s).features(course_weights)


def test_dist_prev_own_0_after_last2_was_captured(course_weights):
    game, s = replay(5, "b a1 w b1 b c3 w b2 b a2 w a3")  # white a3 captured black a2
    assert game.last2(s) == action(5, "a2") and game.cells(s)[3, 0] == 0
    f = move_features(game, s, course_weights)
    assert GW.FE_DIST_PREV_OWN_0 in f[action(5, "a2")]
    assert sum(GW.FE_DIST_PREV_OWN_0 in v for v in f.values()) == 1
    assert f[action(5, "a2")][:2] == [GW.FE_DIST_PREV_2, GW.FE_DIST_PREV_OWN_0]


def test_no_distance_feature_above_9():
    game, s = replay(9, "b a1 w j9")
    W_ = _synthetic_weights()
    f = move_features(game, s, W_)
    for a, v in f.items():
        if a == 81:
            continue
        r, c = divmod(a, 9)
        d_prev = (8 - c) + (8 - r) + max(8 - c, 8 - r)
        d_own = c + r + max(c, r)
        prev = [x for x in v if 9 <= x <= 16]
        own = [x for x in v if 17 <= x <= 25]
        assert prev == ([9 + d_prev - 2] if d_prev <= 9 else [])
        assert own == ([18 + d_own - 2] if d_own <= 9 else [])
    assert all(x not in f[action(9, "e5")] for x in range(9, 26))


@pytest.mark.parametrize("moves, expected", [
    ("", GW.FE_PASS_NEW), ("b pass", GW.FE_PASS_CONSECUTIVE), ("b c3", GW.FE_PASS_NEW),
    ("b c3 w pass", GW.FE_PASS_CONSECUTIVE), ("b pass w pass", GW.FE_PASS_CONSECUTIVE),
    ("b pass w c3", GW.FE_PASS_NEW), ("b c3 w c3", GW.FE_PASS_NEW)])  # an illegal attempt is no move
def test_pass_features(moves, expected):
    game, s = replay(5, moves, strict=False)
    f = move_features(game, s, _synthetic_weights())
    assert f[25] == [expected]
    assert not any(x in (0, 1) for a, v in f.items() if a != 25 for x in v)


def test_line_features_on_every_board():
    W_ = _synthetic_weights()
    for n in range(2, 20):
        game = make_game("go", size=n, rules="go5")
        f = move_features(game, game.initial_state(), W_)
        assert sorted(f) == list(range(n * n + 1))
        for a in range(n * n):
            row, col = a // n + 1, a % n + 1
            line = min(row, col, n + 1 - row, n + 1 - col)
            assert [x for x in f[a] if 6 <= x <= 8] == [6 + min(line, 3) - 1], (n, a)


def test_features_match_the_reference_on_random_positions(course_weights):
    positions = random_positions(300)
    hand = [replay(5, "b b1 w a1 b a4 w a3"), replay(5, "b b3 w c3 b c2 w d2 b c4 w d4 b a1 w e3 b d3 w pass"),
            replay(5, "b a1 w b1 b c3 w b2 b a2 w a3"), replay(9, "b a1 w j9"), replay(3, "b b2 w a2 b b3 w a3")]
    fired = set()
    for game, s in positions + hand:
        got = move_features(game, s, course_weights)
        assert got == Ref(game, s).features(course_weights), game.render(s)
        for v in got.values():
            assert len(v) == len(set(v))
            fired.update(v)
    assert set(range(26)) - fired == {GW.FE_SELF_ATARI}
    assert sum(f >= 26 for f in fired) > 40


def test_gamma_is_the_product_in_feature_order(course_weights):
    for game, s in random_positions(40, seed=3):
        feats = move_features(game, s, course_weights)
        acts, gam = gammas(game, s, course_weights)
        assert acts == game.go5_candidates(s) + [game.pass_action]
        for a, g in zip(acts, gam):
            expected = 1.0
            for x in feats[a]:
                expected *= float(course_weights.weights[x])
            assert g == expected


# ---- patterns ----------------------------------------------------------------------------------------
def test_pattern_table(course_weights):
    assert int((course_weights.table >= 0).sum()) == 15828
    canon = _all_canonicals()
    for code in range(GW.PATTERN_CODES):
        s = GW.pattern_string(code)
        assert GW.pattern_code(s) == code
        assert course_weights.table[code] == course_weights.index.get(canon[code], -1)
    for key in course_weights.names[26:]:
        assert _canonical_ref(key) == key
    assert sorted(set(course_weights.table[course_weights.table >= 0].tolist())) == list(range(26, 1080))


def test_canonical_forms_by_hand(course_weights):
    assert GW.canonical(".........") == "........."
    assert GW.canonical("X........") == "........O"
    assert GW.canonical("........X") == "........O"
    assert GW.canonical("###...OX.") == "###....OX"
    assert GW.canonical("####..#OX") == "####..#OX"
    assert len(set(GW.images("####..#OX"))) == 16
    assert course_weights.index["####..#OX"] == 1043 and course_weights.index["###....OX"] == 1067
    assert course_weights.pattern_feature("###...OX.") == 1067 and course_weights.pattern_feature("#OX#..###") == 1043
    assert course_weights.pattern_feature(".........") == -1
    for s in ("X##.O.O##", "###...OX.", "#.X#.O#.."):
        assert GW.canonical(s) == _canonical_ref(s)


def test_worked_example(course_weights):
    game, s = replay(3, "b b2 w a2 b b3 w a3")
    f = move_features(game, s, course_weights)
    assert f[action(3, "a1")] == [2, 11, 21, 6, 1043]
    assert f[action(3, "b1")] == [12, 20, 6, 1067]
    assert f[action(3, "c3")] == [11, 18, 6] and f[action(3, "c2")] == [12, 19, 6]
    assert f[action(3, "c1")] == [13, 21, 6] and f[9] == [0]
    acts, gam = gammas(game, s, course_weights)
    assert [vertex_name(3, a) for a in acts] == ["a1", "b1", "c1", "c2", "c3", "Pass"]
    assert np.allclose(gam, [63.6924, 20.165, 1.51217, 4.89763, 8.66386, 8.87323], rtol=2e-5)
    assert format_prior(game, prior_knowledge(game, s, course_weights)) == \
        "a1 10 10 b1 2 3 Pass 1 1 c3 1 1 c2 0 1 c1 0 0"


def test_vertex_names_and_sorting():
    assert vertex_name(9, 0) == "a1" and vertex_name(9, 8) == "j1" and vertex_name(9, 80) == "j9"
    assert vertex_name(19, 9 * 19) == "a10" and vertex_name(5, 25) == "Pass"
    assert sorted(["a2", "Pass", "a10", "b1"]) == ["Pass", "a10", "a2", "b1"]
    with pytest.raises(ValueError):
        vertex_name(5, 26)


def test_empty_candidates_answer_pass_10_10(course_weights):
    game, s = replay(2, "b a1 w pass b b2")  # white: a2 and b1 are suicide
    assert game.go5_candidates(s) == []
    assert prior_knowledge(game, s, course_weights) == [(4, 10, 10)]


def format_prior(game, entries):
    return " ".join(f"{vertex_name(game.size, a)} {w} {v}" for a, w, v in entries)


# ---- the prior kernel ------------------------------------------------------------------------------
def test_prior_kernel_gives_the_node_initialisation(course_weights):
    params = prior_params(course_weights)
    assert params.shape == (PRIOR_PARAMS_LEN,)
    for game, s in random_positions(40, seed=11):
        nn = game.size ** 2
        acts = np.empty(nn + 1, dtype=np.int32)
        k = go5_children(s, acts)
        expected_acts, gam = gammas(game, s, course_weights)
        assert acts[:k].tolist() == expected_acts
        out = np.empty(nn + 1)
        go5_prior(s, acts, k, out, params)
        total = 0.0
        for g in gam:
            total += g
        assert out[:k].tolist() == [g / total for g in gam]
        pmax = max(out[:k])
        assert [10 * (p / pmax) for p in out[:k]] == [v[2] for v in prior_values(gam)]
    out = np.empty(3)
    go5_prior(s, np.array([0, 1, 2], np.int32), 3, out, np.zeros(5))  # wrong params: uniform
    assert out.tolist() == [1 / 3] * 3


def test_prior_kernel_drives_mcts_init(course_weights):
    from engines.knowledge.bundle import Knowledge
    from engines.search.mcts import MCTS, MCTSConfig, PRIOR, VISITS
    from engines.search.result import Limits
    game, s = replay(3, "b b2 w a2 b b3 w a3")
    mcts = MCTS(game, MCTSConfig(prior_use="init", prior_strength=10.0, c=0.4),
                knowledge=Knowledge(prior=go5_prior, prior_params=prior_params(course_weights)), capacity=1000)
    result = mcts.search(s, Limits(simulations=1))
    assert result.moves == [0, 1, 2, 5, 8, 9]  # the legal kernel's order: here the same as K(X) + pass
    _, gam = gammas(game, s, course_weights)
    rows = slice(1, 1 + len(gam))
    assert np.allclose(mcts.tree_f[rows, PRIOR], gam / gam.sum(), rtol=1e-6)
    extra = mcts.tree_f[rows, VISITS] - np.array([v[2] for v in prior_values(gam)])
    assert np.allclose(np.sort(extra), [0, 0, 0, 0, 0, 1], atol=1e-5)


# ---- the loader -------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _all_canonicals():
    """The canonical form of every table code's pattern string."""
    return [GW.canonical(GW.pattern_string(code)) for code in range(GW.PATTERN_CODES)]


@lru_cache(maxsize=1)
def _synthetic_lines():
    return weights_lines(lambda i, key: f"{1 + (i % 7) / 8:g}")


@lru_cache(maxsize=1)
def _synthetic_weights():
    return GW.parse_weights("\n".join(_synthetic_lines()) + "\n", "synthetic")


def load_text(tmp_path, text, name="w.txt"):
    path = tmp_path / name
    path.write_bytes(text.encode("latin-1") if isinstance(text, str) else text)
    return GW.load_weights(path)


def test_the_course_file(course_weights):
    assert course_weights.weights.dtype == np.float64 and course_weights.weights.shape == (1080,)
    assert course_weights.names[:26] == GW.BASIC_NAMES and len(course_weights.names) == 1080
    assert course_weights.weights[:26].tolist() == SPEC_WEIGHTS
    assert course_weights.table.shape == (65536,)
    assert (course_weights.weights == 1).sum() == 829  # the 828 pattern classes of weight 1, and FE_SELF_ATARI


def test_loader_accepts_a_valid_file_with_or_without_final_newline(tmp_path):
    lines = list(_synthetic_lines())
    a = load_text(tmp_path, "\n".join(lines) + "\n")
    b = load_text(tmp_path, "\n".join(lines), "b.txt")
    assert a.names == b.names and (a.weights == b.weights).all() and (a.table == b.table).all()
    assert a.index["FE_LINE_3"] == 8


def _edit(i, new):
    lines = list(_synthetic_lines())
    if new is None:
        del lines[i]
    else:
        lines[i] = new
    return lines


@pytest.mark.parametrize("lines, line, what", [
    (list(_synthetic_lines())[:-1], 1080, "wrong count"),
    (list(_synthetic_lines()) + ["1080 1 FE_EXTRA"], 1081, "extra line"),
    (_edit(5, "6 1 FE_SELF_ATARI"), 6, "bad index"),
    (_edit(5, "05 1 FE_SELF_ATARI"), 6, "bad index"),
    (_edit(5, "x 1 FE_SELF_ATARI"), 6, "bad index"),
    (_edit(3, "3 1 FE_ATARI_OTHER"), 4, "bad key"),
    (_edit(30, "30 1 " + _synthetic_lines()[28].split()[2]), 31, "duplicate key"),
    (_edit(30, "30 1 ....a...."), 31, "bad key characters"),
    (_edit(30, "30 1 ........"), 31, "bad key characters"),
    (_edit(30, "30 1 ....X...."), 31, "centre"),
    (_edit(30, "30 1 ........X"), 31, "non-canonical"),
    (_edit(7, "7 abc FE_LINE_2"), 8, "bad weight"),
    (_edit(7, "7 nan FE_LINE_2"), 8, "bad weight"),
    (_edit(7, "7 inf FE_LINE_2"), 8, "bad weight"),
    (_edit(7, "7 1e999 FE_LINE_2"), 8, "bad weight"),
    (_edit(7, "7 -1 FE_LINE_2"), 8, "bad weight"),
    (_edit(7, "7 0 FE_LINE_2"), 8, "bad weight"),
    (_edit(7, "7 1_0 FE_LINE_2"), 8, "bad weight"),
    (_edit(7, "7  1 FE_LINE_2"), 8, "extra spaces"),
    (_edit(7, "7 1 FE_LINE_2 "), 8, "extra spaces"),
    (_edit(7, " 7 1 FE_LINE_2"), 8, "extra spaces"),
    (_edit(7, "7\t1 FE_LINE_2"), 8, "whitespace"),
    (_edit(7, "7 1"), 8, "3 fields"),
    (_edit(7, "7 1 FE_LINE_2 # second line"), 8, "comment"),
    (_edit(9, ""), 10, "blank line"),
    (["# weights"] + list(_synthetic_lines()), 1, "comment"),
    (_edit(9, "9 1 FE_DIST_PREV_2\r"), 10, "carriage return"),
])
def test_loader_rejects_malformed_files(tmp_path, lines, line, what):
    with pytest.raises(ValueError) as info:
        load_text(tmp_path, "\n".join(lines) + "\n", "bad-weights.txt")
    message = str(info.value)
    assert "bad-weights.txt" in message and f"line {line}:" in message and what in message, message


def test_loader_rejects_unreadable_and_non_ascii_files(tmp_path):
    with pytest.raises(ValueError, match="missing.txt"):
        GW.load_weights(tmp_path / "missing.txt")
    lines = list(_synthetic_lines())
    lines[2] = "2 1 FE_CAPTURE\u00e9"
    with pytest.raises(ValueError, match=r"w.txt: line 3: a non-ASCII byte"):
        load_text(tmp_path, "\n".join(lines).encode("utf-8"))
    with pytest.raises(ValueError, match=r"line 1: wrong count"):
        load_text(tmp_path, "")


# ---- the regression file: every prior_knowledge test -----------------------------------------------
def _regression_events():
    """[(id, command, args, expected regex)] of the regression file, in order."""
    events = []
    for raw in REGRESS_FILE.read_text().splitlines():
        line = raw.strip()
        m = re.fullmatch(r"#\?\s*\[(.*)\]", line)
        if m:
            ident, cmd, args, _ = events[-1]
            events[-1] = (ident, cmd, args, m.group(1))
            continue
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"(\d+)\s+(.*)", line)
        ident, rest = (int(m.group(1)), m.group(2)) if m else (None, line)
        words = rest.split()
        events.append((ident, words[0], words[1:], None))
    return events


def _regression_ids():
    if not REGRESS_FILE.is_file():  # a test that says so
        return [pytest.param(None, marks=pytest.mark.shared_data(REGRESS_FILE.name))]
    return [e[0] for e in _regression_events() if e[1] == "prior_knowledge" and e[0] is not None]


@pytest.fixture(scope="module")
def regression_answers(course_weights):
    """id -> (our formatted answer, the expected regex), replaying the file as the engine would."""
    answers = {}
    game = state = None
    for ident, cmd, args, expected in _regression_events():
        if cmd == "boardsize":
            game = make_game("go", size=int(args[0]), rules="go5")
            state = game.initial_state()
        elif cmd == "clear_board":
            state = game.initial_state()
        elif cmd == "play":
            state, _ = go5_attempt(game, state, action(game.size, args[1]), "bw".index(args[0].lower()))
        elif cmd == "genmove" and expected and expected != "pass":  # the engine plays its answer
            state, reason = go5_attempt(game, state, action(game.size, expected), "bw".index(args[0].lower()))
            assert reason is None
        elif cmd == "prior_knowledge":
            answers[ident] = (format_prior(game, prior_knowledge(game, state, course_weights)), expected)
    return answers


@pytest.mark.shared_data(REGRESS_FILE.name)
def test_the_regression_file_has_24_prior_knowledge_tests():
    events = _regression_events()
    assert len([e for e in events if e[0] is not None]) == 64
    assert len(_regression_ids()) == 24


@pytest.mark.parametrize("ident", _regression_ids())
def test_regression_prior_knowledge(regression_answers, ident):
    answer, expected = regression_answers[ident]
    assert re.fullmatch(expected, answer), f"test {ident}:\n  got      {answer}\n  expected {expected}"
