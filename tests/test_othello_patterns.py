"""The learned Othello pattern evaluation (engines/knowledge/othello/patterns.py): the compiled kernel
against the plain Python model, the board symmetries, the weights loader's refusals, the registration,
the training's label search and fit, and what the shipped weights decide."""
import json

import numpy as np
import pytest

from engines.games.othello import Othello, bb_moves, flips_at
from engines.knowledge.othello import patterns as OP
from engines.knowledge.registry import knowledge_for
from engines.knowledge.othello.registered import evaluate_strong, solve_endgame
from engines.knowledge.scores import WIN_SCORE
from engines.learn.othello import train as T
from engines.search import Limits, make_searcher

GAME = Othello(8)


def random_positions(count, seed, game=GAME):
    """Positions from random games: every depth, passes and final positions included."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.initial_state()
        stop = int(rng.integers(0, 61))
        for _ in range(stop):
            if game.is_terminal(s):
                break
            moves = game.legal_moves(s)
            s = game.play(s, moves[int(rng.integers(len(moves)))])
        out.append(s)
    return out


def random_params(seed, scale=3.0, symmetric=True):
    w = np.random.default_rng(seed).normal(scale=scale, size=(OP.N_PHASES, OP.PHASE_STRIDE))
    return OP.params_from_weights(OP.symmetrize(w) if symmetric else w)


SYMS = [lambda g: g, lambda g: g[:, ::-1], lambda g: g[::-1, :], lambda g: g[::-1, ::-1],
        lambda g: g.T, lambda g: g.T[:, ::-1], lambda g: g.T[::-1, :], lambda g: g.T[::-1, ::-1]]


# ---- the layout --------------------------------------------------------------------------------------
def test_layout():
    assert OP.N_INSTANCES == 46  # 4 edge2x, 4 corner3x3, 8 corner2x5, 3 x 4 lines, 2 + 4 x 4 diagonals
    counts = np.bincount(OP.INSTANCE_TYPES)
    assert counts.tolist() == [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4]
    # every instance's squares distinct and on the board; the x-squares belong to edge2x
    for inst in OP.INSTANCES:
        assert len(set(inst)) == len(inst) and all(0 <= sq < 64 for sq in inst)
    assert {9, 14} <= set(OP.INSTANCES[0])
    assert OP.PARAMS_LEN == OP.HEADER_LEN + OP.N_PHASES * OP.PHASE_STRIDE
    assert [OP.phase_of(e) for e in (0, 1, 2, 3, 4, 57, 58, 59, 60)] == [0, 0, 1, 1, 2, 28, 29, 29, 29]
    assert OP.phase_empties(0) == (0, 1) and OP.phase_empties(28) == (56, 57) and OP.phase_empties(29) == (58, 60)
    assert all(OP.phase_empties(OP.phase_of(e))[0] <= e <= OP.phase_empties(OP.phase_of(e))[1] for e in range(61))


# ---- kernel == Python model --------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
def test_kernel_equals_the_python_model(seed):
    params = random_params(seed)
    positions = random_positions(150, seed)
    for s in positions:
        expected = OP.python_evaluate(GAME.cells(s), int(GAME.to_move(s)), params)
        assert OP.evaluate_patterns(s, params) == expected  # exact: quantised weights sum exactly


def test_kernel_equals_the_model_on_passes_and_final_positions():
    params = random_params(3)
    rows = ["XXXXXXXX"] * 7 + ["XXXXXXO."]  # black can take h8; white must pass
    cells = np.array([[1 if ch == "X" else (2 if ch == "O" else 0) for ch in r] for r in rows])
    assert GAME.must_pass(GAME.state_from_cells(cells, 1)) and not GAME.must_pass(GAME.state_from_cells(cells, 0))
    for to_move in (0, 1):
        s = GAME.state_from_cells(cells, to_move)
        assert OP.evaluate_patterns(s, params) == OP.python_evaluate(cells, to_move, params)
    # a final position (full board) scores final_score of the disc difference for the mover
    full = np.ones((8, 8), int)
    full[0, :3] = 2
    s = GAME.state_from_cells(full, 1)
    assert GAME.is_terminal(s)
    assert OP.evaluate_patterns(s, params) == -WIN_SCORE - 58 == OP.python_evaluate(full, 1, params)
    # a position where the mover must pass: its mobility is 0, the opponent's is not
    found = [s for s in random_positions(400, 7) if GAME.must_pass(s)]
    for s in found:
        assert OP.evaluate_patterns(s, params) == OP.python_evaluate(GAME.cells(s), int(GAME.to_move(s)), params)


def test_scalar_features_by_hand():
    """Only the scalars on: bias + parity + mobilities + potential mobilities of the start position."""
    w = np.zeros((OP.N_PHASES, OP.PHASE_STRIDE))
    w[:, OP.N_PATTERN_WEIGHTS:] = [1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0]
    params = OP.params_from_weights(w)
    s = GAME.initial_state()  # 60 empties (even), 4 placements each, 10 empties next to each colour
    limit = WIN_SCORE - 1
    assert OP.evaluate_patterns(s, params) == limit  # clamped
    w[:, OP.N_PATTERN_WEIGHTS:] = [0.5, 0.25, 1.0, -2.0, 0.125, -0.0625]
    params = OP.params_from_weights(w)
    assert OP.evaluate_patterns(s, params) == 0.5 - 0.25 + 4 - 8 + 10 * 0.125 - 10 * 0.0625


def test_one_pattern_entry_by_hand():
    """The corner 3x3 entry of a position with one mover disc on a1: index 3**8 (a1 first, most
    significant, mover = 1), read by the a1 instance and by nothing else of that type."""
    w = np.zeros((OP.N_PHASES, OP.PHASE_STRIDE))
    t = OP.PATTERN_NAMES.index("corner3x3")
    cells = np.zeros((8, 8), int)
    cells[0, 0] = 1
    cells[3, 3] = cells[4, 4] = 1
    cells[3, 4] = cells[4, 3] = 2
    s = GAME.state_from_cells(cells, 0)
    phase = OP.phase_of(59)
    w[phase, OP.TYPE_OFFSET[t] + 3 ** 8] = 7.0
    params = OP.params_from_weights(w)
    assert OP.evaluate_patterns(s, params) == 7.0
    s = GAME.state_from_cells(cells, 1)  # now a1 is the opponent's: index 2 * 3**8
    assert OP.evaluate_patterns(s, params) == 0.0
    w[phase, OP.TYPE_OFFSET[t] + 2 * 3 ** 8] = -5.0
    assert OP.evaluate_patterns(s, OP.params_from_weights(w)) == -5.0


# ---- symmetry ----------------------------------------------------------------------------------------
def test_the_eight_symmetries_give_the_same_value():
    params = random_params(11)
    for s in random_positions(60, 11):
        cells = GAME.cells(s)
        p = int(GAME.to_move(s))
        values = {OP.evaluate_patterns(GAME.state_from_cells(np.ascontiguousarray(f(cells)), p), params) for f in SYMS}
        assert len(values) == 1, values


def test_unsymmetric_tables_would_break_the_symmetry():
    """The symmetry comes from the tables (symmetrize), not from luck: without it values differ."""
    params = random_params(12, symmetric=False)
    differs = 0
    for s in random_positions(20, 12):
        cells = GAME.cells(s)
        p = int(GAME.to_move(s))
        values = {OP.evaluate_patterns(GAME.state_from_cells(np.ascontiguousarray(f(cells)), p), params) for f in SYMS}
        differs += len(values) > 1
    assert differs > 10


# ---- the other sizes, the registration ---------------------------------------------------------------
def test_other_sizes_and_short_params_fall_back_to_strong():
    params = random_params(5)
    for game in (Othello(6), Othello(8, impl="mailbox"), Othello(10)):
        for s in random_positions(10, 5, game):
            assert OP.evaluate_patterns(s, params) == evaluate_strong(s, np.zeros(0))
    s = random_positions(1, 6)[0]
    assert OP.evaluate_patterns(s, params[:100]) == evaluate_strong(s, np.zeros(0))


def test_registration():
    assert knowledge_for(Othello(8), "patterns").evaluate is OP.evaluate_patterns
    np.testing.assert_array_equal(knowledge_for(Othello(8), "patterns").eval_params, OP.load_params())
    for game in (Othello(6), Othello(8, impl="mailbox"), Othello(12)):
        assert knowledge_for(game, "patterns").evaluate is evaluate_strong


def test_the_value_function():
    params = OP.load_params()
    for s in random_positions(40, 9):
        v = OP.value_patterns(s, params)
        if GAME.is_terminal(s):
            b, w = (np.count_nonzero(GAME.cells(s) == c) for c in (1, 2))
            assert v == (1.0 if b > w else 0.0 if b < w else 0.5)
        else:
            e = OP.evaluate_patterns(s, params) * (1 if GAME.to_move(s) == 0 else -1)
            assert 0 < v < 1 and v == pytest.approx(1 / (1 + np.exp(-e / OP.VALUE_SCALE)))
    knowledge = knowledge_for(GAME, "patterns")
    assert knowledge.value is OP.value_patterns
    r = make_searcher("mcts", GAME, {"rollout": "value"}, knowledge, capacity=1 << 12).search(
        GAME.initial_state(), Limits(simulations=64))
    assert r.move in GAME.legal_moves(GAME.initial_state())


# ---- the loader --------------------------------------------------------------------------------------
def _write(path, weights="zeros", layout=OP.LAYOUT_ID, sidecar=None, **extra):
    """A weights file and its sidecar; weights=None leaves the array out, a sidecar value None the key."""
    if isinstance(weights, str):
        weights = np.zeros((OP.N_PHASES, OP.PHASE_STRIDE), np.float32)
    arrays = {"weights": weights, "layout": np.array(layout)}
    arrays.update(extra)
    arrays = {k: v for k, v in arrays.items() if v is not None}
    np.savez(path, **arrays)
    meta = {"format": OP.FORMAT, "layout": OP.LAYOUT_ID, "phases": OP.N_PHASES, "how": "test", "from": "test",
            "when": "today", "positions": 0, "cpu_hours": 0, "held_out": {}}
    if sidecar is not None:
        meta.update(sidecar)
        meta = {k: v for k, v in meta.items() if v is not None}
    path.with_suffix(".json").write_text(json.dumps(meta))
    return path


def test_the_loader_reads_a_good_file(tmp_path):
    w = OP.symmetrize(np.random.default_rng(0).normal(size=(OP.N_PHASES, OP.PHASE_STRIDE))).astype(np.float32)
    path = _write(tmp_path / "good.npz", w)
    np.testing.assert_array_equal(OP.load_weights(path), OP.quantize(w))
    assert OP.load_params(path)[0] == OP.LAYOUT_CODE


def test_a_file_of_the_first_layout_reads_as_its_phases_repeated(tmp_path):
    # v1: 15 phases of 4 empties; phase k's bias k + 1, every other weight 0: a position with e empties must
    # score v1's phase min(e, 59) // 4 (a wrong expansion, say np.tile, gives another phase's bias)
    v1 = np.zeros((OP.V1_PHASES, OP.PHASE_STRIDE), np.float32)
    v1[:, OP.N_PATTERN_WEIGHTS] = np.arange(1, OP.V1_PHASES + 1)
    path = _write(tmp_path / "v1.npz", v1, layout=OP.LAYOUT_V1, sidecar={"layout": OP.LAYOUT_V1, "phases": 15})
    w = OP.load_weights(path)
    assert w.shape == (OP.N_PHASES, OP.PHASE_STRIDE)
    params = OP.params_from_weights(w)
    rng = np.random.default_rng(3)
    seen = set()
    for _ in range(6):
        P, O = np.uint64(0x0000000810000000), np.uint64(0x0000001008000000)
        while True:
            moves = np.uint64(bb_moves(P, O, OP.FULL))
            if moves == 0:
                break
            e = 64 - bin(int(P | O)).count("1")
            seen.add(e)
            assert OP.score_bits(P, O, moves, params) == min(e, 59) // 4 + 1
            squares = [sq for sq in range(64) if int(moves) >> sq & 1]
            sq = int(rng.choice(squares))
            f = np.uint64(flips_at(sq, P, O))
            P, O = O ^ f, P ^ f ^ (np.uint64(1) << np.uint64(sq))
    assert len(seen) > 40
    # a v1 sidecar's per-phase entries (held-out errors) are found for this layout's phases the same way
    assert [OP.sidecar_phase({"phases": 15}, k) for k in (0, 1, 2, 3, 28, 29)] == ["0", "0", "1", "1", "14", "14"]
    assert [OP.sidecar_phase({"phases": 30}, k) for k in (0, 1, 29)] == ["0", "1", "29"]
    # the first layout's file with the new phase count, or the new layout with 15 phases: refused
    refusal(tmp_path, "phases", weights=v1, layout=OP.LAYOUT_V1, sidecar={"layout": OP.LAYOUT_V1, "phases": 30})
    refusal(tmp_path, "shape", weights=v1)
    refusal(tmp_path, "sidecar says", weights=v1, layout=OP.LAYOUT_V1)  # the sidecar of another layout
    refusal(tmp_path, "shape", weights=OP.from_v1(v1).astype(np.float32), layout=OP.LAYOUT_V1,
            sidecar={"layout": OP.LAYOUT_V1, "phases": 15})


def refusal(tmp_path, fault, **kwargs):
    path = _write(tmp_path / "w.npz", **kwargs)
    with pytest.raises(ValueError, match=fault) as err:
        OP.load_weights(path)
    assert "w." in str(err.value)  # names the file (w.npz or its sidecar w.json)
    return str(err.value)


def test_the_loader_refuses_malformed_or_mismatched_files(tmp_path):
    good = OP.symmetrize(np.zeros((OP.N_PHASES, OP.PHASE_STRIDE))).astype(np.float32)
    refusal(tmp_path, "shape", weights=good[:, :100])
    refusal(tmp_path, "shape", weights=good[:3])
    refusal(tmp_path, "dtype float64", weights=good.astype(np.float64))
    bad = good.copy()
    bad[2, 7] = np.nan
    refusal(tmp_path, "non-finite", weights=bad)
    bad = good.copy()
    bad[0, OP.TYPE_OFFSET[0] + 1] = 1.0  # an edge index whose mirror image keeps 0
    refusal(tmp_path, "not symmetric", weights=bad)
    refusal(tmp_path, "feature layout", layout="othello-patterns-v0")
    refusal(tmp_path, "missing arrays weights", weights=None, other=np.zeros(3))
    refusal(tmp_path, "missing keys cpu_hours", sidecar={"cpu_hours": None})
    refusal(tmp_path, "feature layout", sidecar={"layout": "something else"})
    refusal(tmp_path, "phases", sidecar={"phases": 13})
    refusal(tmp_path, "format", sidecar={"format": "onnx"})


def test_the_loader_refuses_missing_and_unreadable_files(tmp_path):
    path = _write(tmp_path / "w.npz")
    path.with_suffix(".json").unlink()
    with pytest.raises(ValueError, match="w.json: the sidecar of w.npz is missing"):
        OP.load_weights(path)
    path = _write(tmp_path / "w.npz")
    path.with_suffix(".json").write_text("{not json")
    with pytest.raises(ValueError, match="w.json: not a readable JSON sidecar"):
        OP.load_weights(path)
    path.with_suffix(".json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="w.json: the sidecar must be a JSON object"):
        OP.load_weights(path)
    path = _write(tmp_path / "w.npz")
    path.write_bytes(b"garbage, not a zip")
    with pytest.raises(ValueError, match="w.npz: not a readable .npz"):
        OP.load_weights(path)
    path = _write(tmp_path / "w.npz")
    path.unlink()
    with pytest.raises(ValueError, match="w.npz: no such weights file"):
        OP.load_weights(path)


def test_the_loader_refuses_pickled_objects(tmp_path):
    path = tmp_path / "w.npz"
    _write(path)
    np.savez(path, weights=np.array([object()], dtype=object), layout=np.array(OP.LAYOUT_ID))
    with pytest.raises(ValueError, match="w.npz: not a readable .npz"):
        OP.load_weights(path)


def test_save_then_load_round_trip(tmp_path):
    w = np.random.default_rng(1).normal(size=(OP.N_PHASES, OP.PHASE_STRIDE))
    path = tmp_path / "p.npz"
    OP.save_weights(path, w, {"how": "h", "from": "f", "when": "w", "positions": 1, "cpu_hours": 0.0, "held_out": {}})
    np.testing.assert_array_equal(OP.load_weights(path), OP.quantize(OP.symmetrize(w)).astype(np.float32))


def test_the_shipped_weights_load_with_their_sidecar():
    sidecar = OP.read_sidecar(OP.shipped_path())
    assert sidecar["positions"] > 0 and sidecar["cpu_hours"] > 0
    assert OP.load_params().shape == (OP.PARAMS_LEN,)


# ---- training pieces ---------------------------------------------------------------------------------
def test_the_label_search_is_exact_when_it_reaches_the_end():
    """negamax deeper than the empties (plus passes) gives the exact solver's score."""
    params = random_params(2, scale=10.0)
    nodes = np.zeros(1, np.int64)
    rng = np.random.default_rng(4)
    checked = 0
    for s in random_positions(400, 4):
        e = 64 - int(np.count_nonzero(GAME.cells(s)))
        if not (3 <= e <= 9) or GAME.is_terminal(s) or GAME.must_pass(s):
            continue
        b, w = np.uint64(s[8]), np.uint64(s[9])
        P, O = (b, w) if GAME.to_move(s) == 0 else (w, b)
        assert T.negamax(P, O, 2 * e + 2, -1e9, 1e9, 0, params, nodes) == solve_endgame(s).score
        checked += 1
    assert checked > 20 and rng is not None


def test_the_fit_recovers_a_pattern_model():
    """Labels made by known (symmetric) weights of one phase are fitted back to a small error."""
    rng = np.random.default_rng(8)
    truth = np.zeros((OP.N_PHASES, OP.PHASE_STRIDE))
    truth[:, OP.N_PATTERN_WEIGHTS:] = [1.0, 2.0, 1.5, -1.5, -0.5, 0.5]
    t = OP.PATTERN_NAMES.index("corner3x3")
    truth[:, OP.TYPE_OFFSET[t]:OP.TYPE_OFFSET[t] + OP.TYPE_SIZE[t]] = rng.normal(scale=4.0, size=OP.TYPE_SIZE[t])
    truth = OP.symmetrize(truth)
    params = OP.params_from_weights(truth)
    Ps, Os, _ = T.generate(60, 3, 30, 0.3)
    E = T.empties_of(Ps, Os)
    keep = (E >= 40) & (E <= 43)
    Ps, Os = Ps[keep], Os[keep]
    y = T.predict(params, Ps, Os)
    idx = np.empty((len(Ps), OP.N_INSTANCES), np.int64)
    sc = np.empty((len(Ps), OP.N_SCALARS))
    T.features_batch(Ps, Os, idx, sc)
    w, mae = T.fit_phase(T.canonical_positions()[idx], sc, y, ridge=1e-3, iterations=400)
    assert mae < 0.05 * np.abs(y).mean()


# ---- what the shipped weights decide -----------------------------------------------------------------
# Black to move in positions of held-out self-play games where the corner is the only winning move (the
# exact scores of every move are checked below), and the biggest flip is another move.
CORNER_POSITIONS = [
    ([[0, 0, 0, 0, 2, 2, 2, 2], [0, 0, 0, 2, 2, 2, 2, 1], [0, 1, 2, 2, 2, 1, 1, 2], [0, 2, 1, 2, 1, 1, 2, 2],
      [0, 0, 2, 2, 1, 2, 2, 2], [0, 1, 1, 2, 1, 2, 1, 1], [0, 0, 2, 1, 2, 1, 0, 0], [0, 2, 1, 1, 1, 1, 1, 0]], (7, 0)),
    ([[0, 0, 1, 0, 2, 2, 2, 0], [1, 0, 1, 1, 1, 2, 0, 0], [1, 2, 2, 2, 1, 2, 2, 2], [1, 2, 2, 2, 1, 1, 2, 2],
      [1, 2, 1, 2, 1, 2, 1, 2], [1, 1, 1, 1, 2, 1, 2, 2], [1, 0, 0, 0, 1, 2, 0, 2], [0, 0, 0, 0, 0, 1, 2, 0]], (7, 7)),
]


@pytest.mark.parametrize("cells, corner", CORNER_POSITIONS)
def test_the_shipped_weights_take_the_corner_that_wins(cells, corner):
    """A depth-1 search with the pattern evaluation takes the corner; disc difference does not."""
    s = GAME.state_from_cells(np.array(cells), 0)
    corner = GAME.action(*corner)
    exact = {}
    for m in GAME.legal_moves(s):
        child = GAME.play(s, m)
        exact[m] = -solve_endgame(child).score
    assert exact[corner] > 0 and all(v < 0 for m, v in exact.items() if m != corner)
    search = make_searcher("alphabeta", GAME, {}, knowledge_for(GAME, "patterns"))
    assert search.search(s, Limits(depth=1)).move == corner
    greedy = make_searcher("alphabeta", GAME, {}, knowledge_for(GAME, "disc_difference"))
    assert greedy.search(s, Limits(depth=1)).move != corner  # the position is a real choice


def _match(game, depth, knowledge_a, knowledge_b, openings):
    """Games from the given openings, a playing black in the first of each pair: a's disc margin."""
    margins = []
    for opening in openings:
        for a_black in (True, False):
            s = game.initial_state()
            for m in opening:
                s = game.play(s, m)
            searches = [make_searcher("alphabeta", game, {}, k) for k in (knowledge_a, knowledge_b)]
            while not game.is_terminal(s):
                mover = int(game.to_move(s))
                who = 0 if (mover == 0) == a_black else 1
                s = game.play(s, searches[who].search(s, Limits(depth=depth)).move)
            margins.append(game.score(s) * (1 if a_black else -1))
    return margins


def test_the_shipped_weights_beat_disc_difference_at_equal_depth():
    rng = np.random.default_rng(19)
    openings = []
    for _ in range(3):
        s, moves = GAME.initial_state(), []
        for _ in range(4):
            m = GAME.legal_moves(s)[int(rng.integers(len(GAME.legal_moves(s))))]
            moves.append(m)
            s = GAME.play(s, m)
        openings.append(moves)
    margins = _match(GAME, 2, knowledge_for(GAME, "patterns"), knowledge_for(GAME, "disc_difference"), openings)
    assert sum(m > 0 for m in margins) >= 5, margins


def test_the_bitboard_estimate_is_the_searched_pattern_value():
    """estimate_bits (the endgame solver's first guess) is the value of the same-depth alpha-beta
    search over the shipped pattern evaluation, rounded to an even disc count, on middle-game
    positions.  Catches a wrong sign, a mover mix-up, a depth off by one."""
    from engines.knowledge.othello.endgame import state_bits
    search = make_searcher("alphabeta", GAME, {}, knowledge_for(GAME, "patterns"))
    checked = 0
    for s in random_positions(40, seed=21):
        cells = GAME.cells(s)
        if GAME.is_terminal(s) or not 16 <= (cells == 0).sum() <= 44 or len(GAME.legal_moves(s)) < 2:
            continue
        P, O = state_bits(s)
        for depth in (1, 3):
            value = search.search(s, Limits(depth=depth)).value
            assert OP.estimate_bits(int(P), int(O), depth) == max(-64, min(64, 2 * round(value / 2)))
        checked += 1
    assert checked >= 10
