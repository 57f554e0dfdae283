"""Hex search knowledge (engines/knowledge/hex/patterns.py): bridge answers, dead / captured /
dominated cells, virtual connections against the brute-force solver, and decisions of the search
with fixed seeds and simulation counts."""
import numpy as np
import pytest

from engines.games.hex import HEADER, Hex
from engines.knowledge.hex import patterns as HP
from engines.knowledge.bundle import Knowledge
from engines.knowledge.hex.registered import heavy_knowledge, hex_knowledge
from engines.knowledge.hex.solver import HexSolver
from engines.rng import make_rng
from engines.search import Limits, make_searcher
from hex_solver import hex_mover_wins

SYMBOL = {".": 0, "X": 1, "O": 2}  # X: player 0 (rows, top-bottom), O: player 1 (columns)


def position(rows: str, to_move: int):
    """A state from rows of '.', 'X', 'O' (row 0 first, spaces ignored)."""
    grid = [[SYMBOL[ch] for ch in line if ch in SYMBOL] for line in rows.strip().splitlines()]
    game = Hex(len(grid))
    return game, game.state_from_cells(np.array(grid, dtype=np.int8), to_move)


def cell(game, r, c):
    return game.action(r, c)


def candidates(state, flags):
    out = np.empty(state.shape[0], dtype=np.int32)
    count, status = HP.analyse(state, out, flags)
    return sorted(out[:count].tolist()), status


# ---- bridge patterns -------------------------------------------------------------------------

def test_bridge_intrusion_is_answered_in_the_other_carrier_cell():
    game, s = position("""
        . . . . .
        . . . . .
        . . X O .
        . . . X .
        . . . . .""", 0)
    # X bridge (2,2)-(3,3) with carriers (2,3) (taken by O) and (3,2): X answers at (3,2)
    assert HP.bridge_response(s, 5, cell(game, 2, 3), 0, make_rng(1)) == cell(game, 3, 2)
    assert HP.bridge_response(s, 5, cell(game, 2, 3), 1, make_rng(1)) == -1  # not an O bridge


def test_no_answer_when_the_bridge_is_broken_already_or_absent():
    game, s = position("""
        . . . . .
        . . . . .
        . . X O .
        . . O X .
        . . . . .""", 0)
    assert HP.bridge_response(s, 5, cell(game, 2, 3), 0, make_rng(1)) == -1
    game, s = position("""
        . . . . .
        . . . . .
        . . . O .
        . . . X .
        . . . . .""", 0)
    assert HP.bridge_response(s, 5, cell(game, 2, 3), 0, make_rng(1)) == -1


def test_bridge_to_the_edge_is_answered():
    game, s = position("""
        . . O . .
        . . X . .
        . . . . .
        . . . . .
        . . . . .""", 0)
    # X on row 1 reaches row 0 through (0,2) or (0,3); O took (0,2)
    assert HP.bridge_response(s, 5, cell(game, 0, 2), 0, make_rng(1)) == cell(game, 0, 3)
    # O's edges are the columns: the same shape at the left edge
    game, s = position("""
        . . . . .
        X O . . .
        . . . . .
        . . . . .
        . . . . .""", 1)
    assert HP.bridge_response(s, 5, cell(game, 1, 0), 1, make_rng(1)) == cell(game, 2, 0)


def test_the_bridge_playout_answers_inside_a_playout():
    # X's column of bridges from top to bottom: with the answers, every playout where O intrudes
    # first is still won by X; the uniform playout loses some
    game, s = position("""
        . X . . .
        . . . . .
        X . . . .
        . . . . .
        X . . . .""", 1)
    wins_bridge = sum(HP.playout_bridge(s.copy(), make_rng(seed)) for seed in range(200))
    wins_random = sum(game.kernels.playout(s.copy(), make_rng(seed)) for seed in range(200))
    assert wins_bridge > wins_random


def test_bridge_playout_fills_the_board_and_names_the_winner():
    game = Hex(7)
    for seed in range(20):
        s = game.initial_state()
        r = HP.playout_bridge(s, make_rng(seed))
        cells = s[HEADER:HEADER + 49]
        assert (cells != 0).all() and abs((cells == 1).sum() - (cells == 2).sum()) <= 1
        assert r == (1.0 if s[2] == 0 else 0.0)


@pytest.mark.parametrize("kernel", HP.TRACED)
def test_traced_playout_records_the_fill_in_order(kernel):
    # the trace is the order of the fill: replayed move by move with alternating colours from the
    # player to move it gives the final board, and the winner is the one the flood fill names
    game = Hex(7)
    start = game.play(game.play(game.initial_state(), cell(game, 3, 3)), cell(game, 2, 4))
    trace = np.empty(HP.playout_scratch(7), dtype=np.int64)
    for seed in range(10):
        s = start.copy()
        k = kernel(s, make_rng(seed), trace, np.zeros(0))
        assert k == 47
        replay = start[HEADER:HEADER + 49].copy()
        for i, move in enumerate(trace[:k]):
            assert replay[move] == 0
            replay[move] = 1 + (start[1] + i) % 2  # the player to move first, then alternating
        assert (replay == s[HEADER:HEADER + 49]).all()
        assert s[2] == HP.flood_winner(s[HEADER:HEADER + 49], 7)


def test_traced_bridge_playout_is_the_bridge_playout():
    # one body: the same random stream gives the same final board and result
    game = Hex(7)
    trace = np.empty(HP.playout_scratch(7), dtype=np.int64)
    for seed in range(10):
        a, b = game.initial_state(), game.initial_state()
        r = HP.playout_bridge(a, make_rng(seed))
        HP.traced_bridge(b, make_rng(seed), trace, np.zeros(0))
        assert (a == b).all() and r == (1.0 if b[2] == 0 else 0.0)


def test_traced_connection_playout_plays_nothing_when_a_connection_decides():
    # X: (1,2) to the top and (3,1) to the bottom by templates II, joined by a bridge
    game, s = position("""
        . . . . .
        . . X . .
        . . . . .
        . X . . .
        . . . . .""", 1)
    trace = np.empty(HP.playout_scratch(5), dtype=np.int64)
    assert HP.traced_uniform(s.copy(), make_rng(1), trace, np.zeros(0)) == 23
    assert HP.traced_vc(s, make_rng(1), trace, np.zeros(0)) == 0 and s[2] == 0
    assert HP.traced_uniform(s.copy(), make_rng(1), trace, np.zeros(0)) == 0  # finished: nothing to fill


# ---- inferior cells --------------------------------------------------------------------------

def test_four_neighbours_of_one_colour_in_a_row_make_a_dead_cell():
    game, s = position("""
        . . . . .
        . . X X .
        . X . . .
        . X . . .
        . . . . .""", 0)
    # (2,2): ring (1,2) X, (1,3) X, (2,3) ., (3,2) ., (3,1) X, (2,1) X: X at 4, 5, 0, 1 in a row
    assert HP.dead(s, cell(game, 2, 2))
    game, s = position("""
        . . . . .
        . . X X .
        . . . . .
        . X X . .
        . . . . .""", 0)
    # two X pairs facing each other: X at (2,2) would join them
    assert not HP.dead(s, cell(game, 2, 2)) and not HP.useless(s, cell(game, 2, 2), 0)
    game, s = position("""
        . . . . .
        . . O O .
        . . . O .
        . . . . .
        . . . . .""", 0)
    assert not HP.dead(s, cell(game, 2, 2))  # three in a row alone is not enough
    game, s = position("""
        . . . . .
        . . O O .
        . . . O .
        . . O . .
        . . . . .""", 0)
    assert HP.dead(s, cell(game, 2, 2))  # (1,2) (1,3) (2,3) (3,2): ring positions 0,1,2,3


def test_three_and_two_make_a_dead_cell():
    game, s = position("""
        . . . . .
        . . X X .
        . . . X .
        . O O . .
        . . . . .""", 0)
    # ring of (2,2): X X X at 0,1,2 and O O at 3,4 ((3,2), (3,1)); (2,1) empty
    assert HP.dead(s, cell(game, 2, 2))
    assert not HP.useless(s, cell(game, 2, 1), 0)


def test_an_empty_board_has_no_dead_cell_but_the_acute_corner_is_not_dead_either():
    game = Hex(5)
    s = game.initial_state()
    assert not any(HP.dead(s, a) for a in range(25))


def test_edge_cell_behind_two_opponent_stones_is_dead():
    game, s = position("""
        . . . . .
        . O O . .
        . . . . .
        . . . . .
        . . . . .""", 0)
    # (0,2): the top edge (X's) and (0,1), (0,3); O's (1,1) (1,2) touch every other neighbour
    assert HP.dead(s, cell(game, 0, 2))
    assert not HP.dead(s, cell(game, 0, 1))


def test_captured_pair_is_filled_for_its_owner():
    # the acute corner a1 and b1 behind X's stone on (1,0), O on (0,2): whichever of the two O takes,
    # X takes the other and O's stone is dead; neither cell is dead on its own
    game, s = position("""
        . . O . .
        X . . . X
        . . . . .
        . . O . .
        . O . . .""", 1)
    assert not HP.dead(s, cell(game, 0, 0)) and not HP.dead(s, cell(game, 0, 1))
    w = s.copy()
    work = np.empty_like(s)
    dead_mark = np.zeros(25, dtype=np.bool_)
    captured = np.zeros(25, dtype=np.int64)
    assert HP.fill_in(s, w, work, dead_mark, captured) == 2
    assert np.flatnonzero(captured).tolist() == [cell(game, 0, 0), cell(game, 0, 1)]
    assert captured[cell(game, 0, 0)] == 1  # 1 + player 0
    assert w[HEADER + cell(game, 0, 0)] == 1 and w[HEADER + cell(game, 0, 1)] == 1
    moves, _ = candidates(s, HP.F_INFERIOR)  # O to move is never offered them
    assert cell(game, 0, 0) not in moves and cell(game, 0, 1) not in moves


def test_children_never_offer_dead_or_captured_cells():
    game, s = position("""
        . . . . .
        . . O O .
        . . . O .
        . . O . .
        . . . . .""", 0)
    moves, _ = candidates(s, HP.F_INFERIOR)
    assert cell(game, 2, 2) not in moves
    assert set(moves) <= set(game.legal_moves(s))
    out = np.empty(25, dtype=np.int32)
    assert cell(game, 2, 2) not in out[:HP.children_inferior(s, out)].tolist()


def test_dominated_cell_is_dropped_for_the_mover_only_while_its_dominator_stays():
    # the acute corner (0,0): once X holds (1,0)... the corner is dead, so (0,0) is dominated for X
    game = Hex(5)
    s = game.initial_state()
    moves, _ = candidates(s, HP.F_INFERIOR)
    assert cell(game, 0, 0) not in moves and cell(game, 4, 4) not in moves
    assert len(moves) >= 20


def test_inferior_pruning_keeps_the_value_on_random_small_positions():
    """Every pruned cell is a losing-or-equal choice: if the mover wins, some candidate wins."""
    rng = np.random.default_rng(7)
    checked = 0
    for size in (3, 4):
        game = Hex(size)
        for _ in range(60):
            s = game.initial_state()
            for _ in range(int(rng.integers(size * size // 2 - 1, size * size - 2))):  # brute force stays small
                legal = game.legal_moves(s)
                s = game.play(s, int(rng.choice(legal)))
                if game.is_terminal(s):
                    break
            if game.is_terminal(s):
                continue
            moves, status = candidates(s, HP.F_INFERIOR | HP.F_VC)
            assert moves and set(moves) <= set(game.legal_moves(s))
            if hex_mover_wins(s):
                assert status != HP.OPPONENT_CONNECTED
                assert any(game.is_terminal(game.play(s, m)) or not hex_mover_wins(game.play(s, m)) for m in moves)
            else:
                assert status != HP.MOVER_CONNECTED
            checked += 1
    assert checked > 60


# Positions of 5x5 to 7x7 with one or two winning moves, found by the solver without any analysis
# (HexSolver flags=0: plain negamax, so it does not trust the pruning it checks): (size, mover,
# rows with X player 0 and O player 1, the winning moves).  The analysis prunes cells in each.
LARGER = [
    (5, 1, "X..../XOO.O/.X..X/O.X.X/OX.O.", [(2, 2)]),
    (5, 1, "OXX../X.O../..X../...OX/...O.", [(2, 1), (4, 1)]),
    (5, 1, "X..X./...XX/..X../O...O/.O..O", [(3, 3), (4, 2)]),
    (5, 1, "X...X/O.O../O..../O..XX/....X", [(2, 3)]),
    (6, 0, ".XXO.O/.OO.../....X./X....O/XOX..X/.XOOXO", [(0, 4)]),
    (6, 0, "..O.X./X..OOO/X..X.O/X...X./.O.O.O/O..XXX", [(3, 2)]),
    (6, 0, "X.X.../.XOOXO/X.OO.O/...OOX/..X.../XX..O.", [(3, 0), (3, 1)]),
    (6, 0, "...XXO/.X.O.X/.X.OO./O..XOO/X..X.X/...O.O", [(3, 1), (3, 2)]),
    (7, 1, "X....../OOXX.XO/XX.OX../.X.OO.O/.XXO.../OO...XO/OXXOXXO", [(5, 2)]),
    (7, 1, ".OO..../O...O../XOXOX.X/.XX.OO./XO.X.OX/XOO.OXO/.X..XXX", [(3, 3), (6, 0)]),
    (7, 1, "OXOOXXX/...O..X/XXXOXXO/...X.OX/.OOXX.O/..OO..O/O..X...", [(5, 4)]),
    (7, 1, "..XOX../OX..X.X/O..X..O/.X.XOOX/XOX.XXX/OOX.OOO/OO.OXOX", [(6, 2)]),
]


@pytest.mark.parametrize("size, mover, rows, wins", LARGER, ids=lambda v: str(v)[:12])
def test_inferior_pruning_keeps_a_winning_move_on_larger_boards(size, mover, rows, wins):
    """The soundness of the pruning beyond 4x4: the solver without analysis names the winning moves,
    and the analysis (dead, captured, dominated cells; virtual connections) keeps one of them."""
    game, s = position(rows.replace("/", "\n"), mover)
    assert game.size == size
    solver = HexSolver(game, table_bits=20, flags=0)
    assert sorted(game.coords(m) for m in solver.winning_moves(s, max_nodes=5_000_000)) == wins
    moves, status = candidates(s, HP.F_INFERIOR | HP.F_VC)
    assert set(moves) <= set(game.legal_moves(s)) and len(moves) < len(game.legal_moves(s))  # it prunes here
    assert {game.coords(m) for m in moves} & set(wins), "every winning move was pruned"
    assert status != HP.OPPONENT_CONNECTED


# ---- virtual connections ----------------------------------------------------------------------

def test_bridges_and_edge_templates_connect():
    game, s = position("""
        . . . . .
        . . X . .
        . . . . .
        . X . . .
        . . . . .""", 1)
    carrier = np.empty(25, dtype=np.int64)
    k, key = HP.vc_chain(s, 0, carrier, False)
    # template II to the top, the bridge (1,2)-(3,1) through (2,1) (2,2), template II to the bottom
    assert k == 6 and key == -1
    assert set(carrier[:k].tolist()) == {cell(game, *rc) for rc in ((0, 2), (0, 3), (2, 1), (2, 2), (4, 0), (4, 1))}
    assert HP.vc_winner(s) == 0


def test_an_intruded_bridge_is_only_a_semi_connection():
    game, s = position("""
        . . . . .
        . . X . .
        . O . . .
        . X . . .
        . . . . .""", 0)
    carrier = np.empty(25, dtype=np.int64)
    assert HP.vc_chain(s, 0, carrier, False)[0] < 0
    k, key = HP.vc_chain(s, 0, carrier, True)
    assert key == cell(game, 2, 2) and k == 5
    assert HP.vc_winner(s) == 0  # X to move: it plays the key
    s1 = game.state_from_cells(game.cells(s), 1)  # O to move instead: X has no connection yet
    assert HP.vc_winner(s1) == -1


@pytest.mark.parametrize("shape", [0, 1])
def test_ziggurat_connects_a_third_row_stone_to_its_edge_and_needs_all_its_cells(shape):
    # X's column (2..5, 2) joins the bottom; every cell but the ziggurat's carrier is O's
    n = 6
    grid = np.full((n, n), 2, dtype=np.int8)
    grid[2:, 2] = 1
    carrier = [(2 + dr, 2 + dc) for dr, dc in HP.ZIGGURAT[shape]]
    for rc in carrier:
        grid[rc] = 0
    game = Hex(n)
    s = game.state_from_cells(grid, 1)
    out = np.empty(36, dtype=np.int64)
    k, key = HP.vc_chain(s, 0, out, False)
    assert k == 8 and key == -1 and set(out[:k].tolist()) == {game.action(*rc) for rc in carrier}
    assert not hex_mover_wins(s)  # O to move cannot cut it
    for rc in carrier:  # and without any one of its cells it is no template
        smaller = grid.copy()
        smaller[rc] = 2
        t = game.state_from_cells(smaller, 1)
        assert HP.vc_chain(t, 0, out, False)[0] < 0 and hex_mover_wins(t)


def test_semi_connection_has_its_key():
    game, s = position("""
        . . . . .
        . . X . .
        . . O . .
        . X . . .
        . . . . .""", 0)
    carrier = np.empty(25, dtype=np.int64)
    assert HP.vc_chain(s, 0, carrier, False)[0] < 0
    k, key = HP.vc_chain(s, 0, carrier, True)
    assert k == 5 and key == cell(game, 2, 1) and key in carrier[:k].tolist()
    t = game.play(s, key)
    assert HP.vc_chain(t, 0, carrier, False)[0] >= 0


def _random_positions(size, count, seed):
    rng = np.random.default_rng(seed)
    game = Hex(size)
    out = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(int(rng.integers(size * size // 2 - 1, size * size - 1))):
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
            if game.is_terminal(s):
                break
        if not game.is_terminal(s):
            out.append(s)
    return game, out


@pytest.mark.parametrize("size", [3, 4])
def test_connections_agree_with_the_brute_force_solver(size):
    game, states = _random_positions(size, 150, seed=size)
    carrier = np.empty(size * size, dtype=np.int64)
    found = 0
    for s in states:
        mover = int(s[1])
        if HP.vc_chain(s, 1 - mover, carrier, False)[0] >= 0:  # the opponent is connected
            assert not hex_mover_wins(s)
            found += 1
        if HP.vc_chain(s, mover, carrier, True)[0] >= 0:  # the mover (semi-)connected
            assert hex_mover_wins(s)
            found += 1
        w = HP.vc_winner(s)
        if w >= 0:
            assert hex_mover_wins(s) == (w == mover)
    assert found >= 20


def test_the_children_of_a_won_or_lost_node():
    # X (to move) is semi-connected: one child, its key, which wins
    game, s = position("""
        . . . . .
        . . X . .
        . . O . .
        . X . . .
        . . . . .""", 0)
    out = np.empty(25, dtype=np.int32)
    count, status = HP.analyse(s, out, HP.F_INFERIOR | HP.F_VC)
    assert status == HP.MOVER_CONNECTED and count == 1
    assert out[0] == HP.vc_chain(s, 0, np.empty(25, dtype=np.int64), True)[1]
    # O to move against X's full connection: only cells of X's carrier are offered
    game, s = position("""
        . . . . .
        . . X . .
        . . . . .
        . X . . .
        . . . . .""", 1)
    count, status = HP.analyse(s, out, HP.F_VC)
    carrier = np.empty(25, dtype=np.int64)
    k, _ = HP.vc_chain(s, 0, carrier, False)
    assert status == HP.OPPONENT_CONNECTED and set(out[:count].tolist()) <= set(carrier[:k].tolist())


def test_a_connection_whose_carrier_is_filled_in_still_plays_in_it():
    # X joins the bottom through the captured pair (2,0)/(2,1), which the fill-in gives X: the one
    # child is a cell of that pair (the win at once), not some other cell "since any move will do"
    game = Hex(3)
    s = game.state_from_cells(np.array([[0, 1, 0], [0, 1, 0], [0, 0, 0]], dtype=np.int8), 0)
    out = np.empty(9, dtype=np.int32)
    count, status = HP.analyse(s, out, HP.F_INFERIOR | HP.F_VC)
    assert status == HP.MOVER_CONNECTED and count == 1 and out[0] in (cell(game, 2, 0), cell(game, 2, 1))


# ---- decisions of the search -------------------------------------------------------------------

def _search(game, s, knowledge, sims=600, seed=3, search="mcts"):
    if search == "rave":
        searcher = make_searcher("rave", game, {"expand_visits": 1}, heavy_knowledge(game, *knowledge), seed)
    else:
        searcher = make_searcher("mcts", game, {"c": 0.7, "expand_visits": 1}, hex_knowledge(game, *knowledge),
                                 seed)
    return searcher.search(s, Limits(simulations=sims))


SEARCHES = ("mcts", "rave")


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("pieces", [(True, True, True), (True, False, False)])
def test_search_answers_a_bridge_intrusion(pieces, search):
    game, s = position("""
        . . . . .
        . . X . .
        . . O . .
        . X . . .
        . . . . .""", 0)
    # O intruded the bridge (1,2)-(3,1) at (2,2): X answers at (2,1) (and is connected: templates II)
    result = _search(game, s, pieces, sims=800, search=search)
    assert result.move == cell(game, 2, 1)


@pytest.mark.parametrize("pieces", [(True, True, True), (False, False, True)])
def test_search_takes_a_winning_edge_template(pieces):
    # X to move: (1,2) reaches the top by template II; (3,1) holds the bottom by another
    game, s = position("""
        . . . . .
        . O . . .
        . X . . .
        . X . . .
        . . . . .""", 0)
    result = _search(game, s, pieces, sims=400)
    assert result.move == cell(game, 1, 2)
    after = game.play(s, result.move)
    assert HP.vc_chain(after, 0, np.empty(25, dtype=np.int64), False)[0] >= 0


# O to move has one winning move (the exact solver says so); plain RAVE with 2,000 simulations finds
# it with 0-3 of 5 seeds, with the knowledge with all of them
ONLY_WIN = [("""
    . . X . .
    . . . . O
    X . . . .
    . . . . .
    O . . . X""", (3, 2)), ("""
    . . . . .
    . . X . .
    O . . X .
    . . O . .
    . . X . .""", (2, 2)), ("""
    . . . . .
    O . . . .
    . . . X X
    . . . X X
    O . . O .""", (1, 3)), ("""
    O O . . X
    . X . . .
    . X O . .
    . . . . X
    . . X O .""", (1, 3))]


@pytest.mark.parametrize("rows, win", ONLY_WIN)
def test_rave_with_the_knowledge_finds_the_only_winning_move(rows, win):
    game, s = position(rows, 1)
    assert HexSolver(game).winning_moves(s) == [cell(game, *win)]
    for seed in range(3):
        assert _search(game, s, (True, True, True), sims=2000, seed=seed, search="rave").move == cell(game, *win)


@pytest.mark.parametrize("search", SEARCHES)
def test_search_never_plays_a_dead_cell(search):
    game, s = position("""
        . . . . .
        . . O O .
        . . . O .
        . . O . .
        . . . . .""", 0)
    for seed in range(3):
        result = _search(game, s, (True, True, True), sims=200, seed=seed, search=search)
        assert cell(game, 2, 2) not in result.moves


def test_knowledge_pieces_are_chosen_one_by_one():
    game = Hex(5)
    assert hex_knowledge(game, False, False, False).playout is None
    assert hex_knowledge(game, False, False, False).children is None
    assert hex_knowledge(game, True, False, False).playout is HP.playout_bridge
    assert hex_knowledge(game, False, True, False).children is HP.children_inferior
    assert hex_knowledge(game, False, False, True).children is HP.children_vc
    k = hex_knowledge(game)
    assert k.playout is HP.playout_bridge_vc and k.children is HP.children_full
    with pytest.raises(ValueError, match="playout"):
        Knowledge(playout=HP.children_full)
    assert heavy_knowledge(game, False, False, False).traced_playout is HP.traced_uniform
    assert heavy_knowledge(game, False, False, False).children is None
    assert heavy_knowledge(game, True, False, True).traced_playout is HP.traced_bridge_vc
    assert heavy_knowledge(game, False, True, False).children is HP.children_inferior
