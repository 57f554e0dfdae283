"""The DFPN solver with H-search (engines/knowledge/hex/dfpn.py) against the exact solver
(engines/knowledge/hex/solver.py) and the brute force of the tests, in nodes (evaluations), never
seconds; cell names as protocols/hex_gtp.py's (a column letter, a row number from 1 at the top)."""
import numpy as np
import pytest

from engines.games.hex import HASH, TO_MOVE, Hex
from engines.knowledge.hex.dfpn import LOSS, OPEN, WIN, DfpnBudgetExceeded, HexDfpn, evaluate
from engines.knowledge.hex.solver import HexSolver
from hex_solver import hex_mover_wins
from protocols.hex_gtp import format_cell

WINNING_5X5 = ["a4", "a5", "b2", "b3", "b4", "c2", "c3", "c4", "d2", "d3", "d4", "e1", "e2"]
WINNING_6X6 = ["a3", "a4", "a5", "a6", "b2", "b3", "b4", "b5", "c2", "c3", "c4", "c5", "d2", "d3", "d4", "d5",
               "e2", "e3", "e4", "e5", "f1", "f2", "f3", "f4"]  # benzene's DFPN (bench/results/hex_dfpn.md)


def names(game, moves):
    return sorted(format_cell(game.coords(m), game.size) for m in moves)


def random_positions(n, count, seed, least=0):
    game, rng, out = Hex(n), np.random.default_rng(seed), []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(int(rng.integers(least, n * n // 2 + 1))):
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
            if game.is_terminal(s):
                break
        if not game.is_terminal(s):
            out.append(s)
    return out


@pytest.mark.parametrize("n, count, budget", [(3, 30, 50), (4, 40, 400), (5, 40, 4000)])
def test_agrees_with_the_exact_solver_on_random_positions(n, count, budget):
    """Every verdict equals the exact solver's, each within a node budget; both answers occur."""
    game = Hex(n)
    dfpn, exact = HexDfpn(game), HexSolver(game, table_bits=16)
    verdicts = set()
    for s in random_positions(n, count, seed=n):
        dfpn.clear()
        got = dfpn.solve(s, max_nodes=budget)
        assert got.mover_wins == exact.solve(s).mover_wins
        assert got.nodes <= budget
        verdicts.add(got.mover_wins)
    assert verdicts == {True, False}


def test_small_boards_against_the_brute_force():
    for n in (3, 4):
        game = Hex(n)
        dfpn = HexDfpn(game)
        for s in random_positions(n, 12, seed=10 + n):
            assert dfpn.solve(s).mover_wins == hex_mover_wins(s)


def test_the_winning_first_moves_of_5x5():
    """The empty 5x5 board's 13 winning first moves (every other cell loses), within 1000 nodes in
    all (about 300 today)."""
    game = Hex(5)
    dfpn = HexDfpn(game)
    s = game.initial_state()
    wins = [m for m in game.legal_moves(s) if not dfpn.solve(game.play(s, m), max_nodes=1000).mover_wins]
    assert names(game, wins) == WINNING_5X5
    assert dfpn.nodes <= 1000


def test_a_small_table_forgets_and_still_proves():
    """With room for 100 entries (the 5x5 first moves need about 300) the table forgets, stays
    within its size and the answers stay right, for a few more nodes."""
    game = Hex(5)
    dfpn = HexDfpn(game, max_entries=100)
    s = game.initial_state()
    wins = [m for m in game.legal_moves(s) if not dfpn.solve(game.play(s, m), max_nodes=5000).mover_wins]
    assert names(game, wins) == WINNING_5X5
    assert len(dfpn.table) <= 100 and dfpn.nodes > 299


def test_a_stored_result_is_reused():
    """A second solve of a position visits no node; a position met inside the first proof (the
    winning reply) costs none either; clear() forgets."""
    game = Hex(5)
    dfpn = HexDfpn(game)
    for m in game.legal_moves(game.initial_state()):  # the first black opening that takes a search
        s = game.play(game.initial_state(), m)
        first = dfpn.solve(s)
        if first.nodes > 5:
            break
    assert first.nodes > 5
    assert dfpn.solve(s).nodes == 0
    verdict, move, lost = dfpn.root(s)
    assert verdict is first.mover_wins
    if verdict:
        assert dfpn.solve(game.play(s, move)).nodes == 0
    dfpn.clear()
    assert dfpn.solve(s).nodes == first.nodes


def test_the_root_names_a_winning_move_and_the_lost_ones():
    """root(): the move it calls winning wins (exact solver), every move it calls lost loses; a
    lost position says so; a budget too small gives no verdict and no exception."""
    game = Hex(5)
    exact = HexSolver(game, table_bits=16)
    checked = {True: 0, False: 0}
    for s in random_positions(5, 25, seed=7):
        dfpn = HexDfpn(game)
        verdict, move, lost = dfpn.root(s)
        assert verdict == exact.solve(s).mover_wins
        checked[verdict] += 1
        if verdict:
            child = game.play(s, move)
            assert game.is_terminal(child) or not exact.solve(child).mover_wins
        for m in lost:
            assert exact.solve(game.play(s, m)).mover_wins
    assert min(checked.values()) > 0
    verdict, move, lost = HexDfpn(Hex(7)).root(Hex(7).initial_state(), max_nodes=3)
    assert verdict is None and move is None


def test_must_play_prunes_and_the_connections_decide():
    """evaluate: Black's three stones joined by bridges from edge to edge are a loss for White to
    move and a win for Black to move; the children of an open position come best first by the
    distance (the centre first on an empty board)."""
    n = 5
    game = Hex(n)
    dfpn = HexDfpn(game)
    cells = np.zeros((n, n), np.int8)
    for r, c in [(0, 2), (2, 1), (4, 0)]:  # bridges down the board, edge templates at both ends
        cells[r, c] = 1
    for colour, verdict in ((1, LOSS), (0, WIN)):
        s = game.state_from_cells(cells, colour)
        assert evaluate(s, dfpn.hwork, dfpn.limits, dfpn.scratch, dfpn.out, False)[0] == verdict
    s = game.initial_state()
    verdict, count = evaluate(s, dfpn.hwork, dfpn.limits, dfpn.scratch, dfpn.out, True)
    assert verdict == OPEN and count > 1 and dfpn.out[0] == 2 * n + 2


def test_budgets_and_bad_input():
    game = Hex(7)
    dfpn = HexDfpn(game)
    with pytest.raises(DfpnBudgetExceeded):
        dfpn.solve(game.play(game.initial_state(), 0), max_nodes=5)
    assert dfpn.nodes == 6  # the sixth evaluation is refused
    with pytest.raises(ValueError):
        dfpn.solve(Hex(5).initial_state())
    with pytest.raises(ValueError):
        HexDfpn(game, epsilon=-1)
    with pytest.raises(ValueError):
        HexDfpn(object())


# ==== at the root of the player's search (root.ConnectionRoot with a SolverUse) ===================

class _Scripted:
    """A searcher that answers with fixed visit counts (its move: the most visited)."""

    def __init__(self, visits):
        self.visits, self.calls, self.limits = visits, 0, None

    def search(self, state, limits):
        from engines.search.result import WIN_PROBABILITY, SearchResult
        self.calls += 1
        self.limits = limits
        moves = sorted(self.visits)
        best = max(moves, key=self.visits.get)
        return SearchResult(move=best, value=0.5, scale=WIN_PROBABILITY, moves=moves,
                            visits=[self.visits[m] for m in moves], values=[0.5] * len(moves), stats={})

    def advance(self, move):
        pass

    def reset(self):
        pass


def test_the_root_plays_the_solvers_win_without_searching():
    """On random 6x6 positions (12 to 18 stones) that H-search does not decide, a position the
    solver proves won is answered with a winning move (exact solver) without searching."""
    from engines.knowledge.hex.root import ConnectionRoot, SolverUse
    from engines.search import Limits
    game = Hex(6)
    exact = HexSolver(game, table_bits=20)
    played = 0
    for s in random_positions(6, 30, seed=5, least=12):
        win, must = ConnectionRoot(_Scripted({}), game).hsearch.root(s)
        if win is not None or must == []:
            continue
        searcher = _Scripted({int(m): 1 for m in game.legal_moves(s)})
        root = ConnectionRoot(searcher, game, solver=SolverUse(empties=36, share=1.0, max_nodes=300))
        result = root.search(s, Limits(simulations=10))
        if root.solved:
            played += 1
            assert searcher.calls == 0 and not exact.solve(game.play(s, result.move)).mover_wins
        else:
            assert searcher.calls == 1
    assert played > 0


def test_the_default_player_solves_the_tournaments_boards():
    """The player as every Hex adapter builds it (default settings; here the tournament's whole-board
    ``choose``) runs the root solver on 6x6 from the opening: the empty board's first move is proven
    (one of benzene's winning moves), and positions H-search does not decide but the solver proves
    within its node budget are answered with a winning move (exact solver) without a search; the same
    player without the solver searches them."""
    from engines.players.hex import HexPlayer, HexSettings
    game = Hex(6)
    exact = HexSolver(game, table_bits=20)
    player = HexPlayer(HexSettings(simulations=10), 6)
    plain = HexPlayer(HexSettings(simulations=10, root_solver=False), 6)
    first = player.choose(game.cells(game.initial_state()), 0)
    assert player.connections.solved == 1 and names(game, [first[0] * 6 + first[1]])[0] in WINNING_6X6
    solved = 0
    for s in random_positions(6, 30, seed=5, least=12):
        win, must = player.connections.hsearch.root(s)
        if win is not None or must == [] or not exact.solve(s).mover_wins:
            continue
        before = player.connections.solved
        row, col = player.choose(game.cells(s), int(s[TO_MOVE]))
        if player.connections.solved > before:
            solved += 1
            assert not exact.solve(game.play(s, row * 6 + col)).mover_wins
            assert plain.connections.solver is None
            assert plain._search(s, plain.limits()).stats["simulations"] == 10
    assert solved > 0


def test_the_root_avoids_a_move_the_solver_proved_lost():
    """6x6's a1 loses (benzene and plies agree; about 30 nodes); once the root's solver table holds
    that, a searcher that prefers a1 on the empty board is overruled, within a budget of one node
    (no proof of the root); with too few empty cells for the solver, the searcher's a1 stands."""
    from engines.knowledge.hex.root import ConnectionRoot, SolverUse
    from engines.search import Limits
    game = Hex(6)
    empty = game.initial_state()
    searcher = _Scripted({0: 100, 14: 5, 15: 7})
    root = ConnectionRoot(searcher, game, solver=SolverUse(empties=36, share=1.0, max_nodes=1))
    assert root.hsearch.root(empty) == (None, None)
    assert root.dfpn.solve(game.play(empty, 0), max_nodes=2000).mover_wins  # a1: white wins
    result = root.search(empty, Limits(simulations=10))
    assert result.move == 15 and root.avoided == 1 and root.restricted == 1 and searcher.calls == 1
    fewer = ConnectionRoot(searcher, game, solver=SolverUse(empties=35, share=1.0, max_nodes=1))
    fewer.dfpn = root.dfpn
    assert fewer.search(empty, Limits(simulations=10)).move == 0 and fewer.avoided == 0


def test_the_move_check_replaces_a_searched_move_proven_lost():
    """6x6's a1 loses (about 30 nodes): a searcher that prefers it on the empty board (36 empty cells,
    no root solver) is overruled by the move check, which plays the next most visited move (d3, 7
    visits, before b3's 5), passing over a move outside a1's proof set; with one candidate the next is
    played unchecked; with a budget of one
    node nothing is proven and a1 stands, and so with few simulations (the check's nodes are at most
    its share of them over 100); without the check a1 stands.  With a time limit the searcher gets
    the share the check does not keep back; where the root solver runs, no check and all the time."""
    from engines.knowledge.hex.root import ConnectionRoot, MoveCheck, SolverUse
    from engines.search import Limits
    game = Hex(6)
    empty = game.initial_state()
    visits = {0: 100, 13: 5, 15: 7}  # a1, b3, d3
    many = Limits(simulations=400_000)  # (the scripted searcher runs none; the check may use 2,000 nodes)
    root = ConnectionRoot(_Scripted(visits), game, check=MoveCheck(share=0.5, max_nodes=2000, candidates=4))
    assert root.search(empty, many).move == 15 and root.refuted == 1
    one = ConnectionRoot(_Scripted(visits), game, check=MoveCheck(share=0.5, max_nodes=2000, candidates=1))
    assert one.search(empty, many).move == 15 and one.refuted == 1
    starved = ConnectionRoot(_Scripted(visits), game, check=MoveCheck(share=0.5, max_nodes=1, candidates=4))
    assert starved.search(empty, many).move == 0 and starved.refuted == 0
    # b1 lies outside a1's proof set (White wins after a1 with every cell but a1 and b1 in it): it loses
    # too, and is passed over without a try, so the one try goes to a1 and d3 is played unchecked
    pruned = ConnectionRoot(_Scripted({**visits, 1: 50}), game,
                            check=MoveCheck(share=0.5, max_nodes=2000, candidates=1))
    assert pruned.search(empty, many).move == 15 and pruned.refuted == 1
    few = ConnectionRoot(_Scripted(visits), game, check=MoveCheck(share=0.5, max_nodes=2000, candidates=4))
    assert few.search(empty, Limits(simulations=200)).move == 0 and few.refuted == 0
    assert ConnectionRoot(_Scripted(visits), game).search(empty, many).move == 0
    timed = _Scripted(visits)
    clock = iter(range(1000)).__next__  # (each reading one second later: the check's deadline passes at once)
    ConnectionRoot(timed, game, clock=clock, check=MoveCheck(share=0.25, max_nodes=2000, candidates=4)).search(
        empty, Limits(time=8.0, start=0.0, margin=0.0))
    assert timed.limits.time == 6.0 and timed.limits.start == 0.0
    solving = _Scripted(visits)  # where the root solver runs there is no check: the searcher gets all the time
    both = ConnectionRoot(solving, game, clock=iter(range(1000)).__next__,
                          solver=SolverUse(empties=36, share=0.5, max_nodes=1),
                          check=MoveCheck(share=0.25, max_nodes=2000, candidates=4))
    assert both.search(empty, Limits(time=8.0, start=0.0, margin=0.0)).move == 0
    assert solving.limits.time == 8.0 and both.refuted == 0


def test_the_player_checks_its_moves_when_asked():
    """move_check (on by default) builds the root's check from the settings."""
    from engines.knowledge.hex.root import MoveCheck
    from engines.players.hex import HexPlayer, HexSettings
    assert HexPlayer(HexSettings(simulations=10), 6).connections.check == MoveCheck(0.25, 1000, 4)
    assert HexPlayer(HexSettings(simulations=10, move_check=False), 6).connections.check is None
    player = HexPlayer(HexSettings(simulations=10, move_check=True, check_share=0.3, check_nodes=50,
                                   check_candidates=2), 6)
    assert player.connections.check == MoveCheck(0.3, 50, 2) and player.connections.dfpn is not None
    with pytest.raises(ValueError, match="check_nodes"):
        HexSettings(check_nodes=0)


# ==== proof sets and the pruning of siblings by them ==============================================

def _proof_holds(game, state, entry, exact):
    """The winner of a proven entry still wins when every empty cell outside its proof set is the
    loser's (brute force on 4x4 and smaller, else the exact solver)."""
    n = game.size
    mover = int(state[TO_MOVE])
    winner = mover if entry[0] == 0 else 1 - mover
    cells = game.cells(state).copy().reshape(-1)
    for x in range(n * n):
        if cells[x] == 0 and not (entry[3] >> x) & 1:
            cells[x] = 2 - winner
    filled = game.state_from_cells(cells.reshape(n, n), mover)
    if game.is_terminal(filled):
        return game.score(filled) == (1.0 if winner == 0 else -1.0)
    wins = hex_mover_wins(filled) if n <= 4 else exact.solve(filled).mover_wins
    return wins == (mover == winner)


@pytest.mark.parametrize("n, count", [(4, 40), (5, 40)])
def test_proof_sets_hold(n, count):
    """Every proven entry of a position and its children after a solve with the sibling pruning:
    with all the empty cells outside its proof set given to the loser, the winner still wins."""
    game = Hex(n)
    exact = HexSolver(game, table_bits=16)
    checked = 0
    for s in random_positions(n, count, seed=40 + n):
        dfpn = HexDfpn(game, proof_pruning=True)
        dfpn.solve(s, max_nodes=4000)
        for t in [s] + [game.play(s, m) for m in game.legal_moves(s)]:
            entry = dfpn.table.get(int(t[HASH]))
            if entry is None or entry[2] is not None or game.is_terminal(t):
                continue
            assert _proof_holds(game, t, entry, exact), game.render(t)
            checked += 1
    assert checked > count


@pytest.mark.parametrize("widening", [0.0, 0.25])
def test_proof_pruning_keeps_the_verdicts_and_saves_nodes(widening):
    """With the sibling pruning (and benzene's widening) the verdicts equal the exact solver's on
    random 5x5 positions and the 5x5 first moves, and the first moves take fewer nodes with the
    pruning than without it."""
    game = Hex(5)
    exact = HexSolver(game, table_bits=16)
    dfpn = HexDfpn(game, proof_pruning=True, widening_factor=widening)
    for s in random_positions(5, 30, seed=77):
        dfpn.clear()
        assert dfpn.solve(s, max_nodes=4000).mover_wins == exact.solve(s).mover_wins
    s = game.initial_state()
    counts = {}
    for pruning in (False, True):
        dfpn = HexDfpn(game, proof_pruning=pruning, widening_factor=widening)
        wins = [m for m in game.legal_moves(s) if not dfpn.solve(game.play(s, m), max_nodes=2000).mover_wins]
        assert names(game, wins) == WINNING_5X5
        counts[pruning] = dfpn.nodes
        assert (dfpn.pruned > 0) == pruning
    assert counts[True] < counts[False]


def test_a_lost_childs_proof_prunes_exactly_the_siblings_outside_it():
    """After a solve of lost 5x5 positions (after the winning first moves, and random ones), at the
    root: the first child proven lost for the mover
    whose proof set leaves siblings out has made every one of those siblings a proven loss (no
    evaluation of theirs: fewer nodes than without the pruning), and each truly loses."""
    game = Hex(5)
    exact = HexSolver(game, table_bits=16)
    seen = 0
    empty = game.initial_state()
    for s in [game.play(empty, m) for m in game.legal_moves(empty)] + random_positions(5, 40, seed=3):
        if exact.solve(s).mover_wins:
            continue
        dfpn = HexDfpn(game, proof_pruning=True)
        verdict, count = evaluate(s, dfpn.hwork, dfpn.limits, dfpn.scratch, dfpn.out, False)
        if verdict != OPEN:
            continue
        moves = [int(m) for m in dfpn.out[:count]]
        dfpn.solve(s, max_nodes=4000)
        entries = {m: dfpn.table.get(int(game.play(s, m)[HASH])) for m in moves}
        for m in moves:  # the children in the order searched
            e = entries[m]
            if e is None or e[2] is not None:
                continue
            outside = [x for x in moves if x != m and not (e[3] >> x) & 1]
            if outside:
                break
        else:
            continue
        seen += 1
        for x in outside:
            assert entries[x] is not None and entries[x][2] is None and entries[x][0] == 0
            assert exact.solve(game.play(s, x)).mover_wins
        plain = HexDfpn(game, proof_pruning=False)
        plain.solve(s)
        assert dfpn.nodes < plain.nodes
        if seen == 2:
            break
    assert seen == 2


# A 9x9 game plies lost as Black to MoHex 2.0 (bench/results/hex_solver_default/hex9_mohex_p1.games.jsonl,
# game 19): after these 30 moves plies played b7, which White refutes at once (the solver proves it in 2
# nodes), while a7 wins.
MOHEX_GAME = "f4 e6 g5 f7 d6 d5 e5 f3 g3 h1 i1 h2 i2 h3 g2 g1 f2 f1 i3 h4 e2 e1 d2 c8 d1 h6 e7 d9 b8 c7".split()


@pytest.mark.parametrize("check", [True, False])
def test_plies_gtp_hex_does_not_play_a_move_its_check_refutes(check):
    """Through the real plies-gtp-hex (as HexGui or a referee drives it; simulations, not seconds):
    with the default settings genmove does not answer b7 in that position, and its answer is not
    proven lost within 200 nodes; with --move-check false the search's b7 is played."""
    from engines.knowledge.hex.dfpn import HexDfpn
    from protocols.hex_gtp import parse_cell
    from standins.hex_referee import GtpProcess
    engine = GtpProcess(["--time", "0", "--simulations", "20000", "--seed", "1", "--no-swap",
                         *([] if check else ["--move-check", "false"])])
    try:
        assert engine.ok("boardsize 9 9") == ""
        for i, cell in enumerate(MOHEX_GAME):
            assert engine.ok(f"play {'bw'[i % 2]} {cell}") == ""
        answer = engine.genmove("b")
    finally:
        engine.close()
    if not check:
        assert answer == "b7"
        return
    assert answer != "b7"
    game = Hex(9)
    s = game.initial_state()
    for cell in MOHEX_GAME + [answer]:
        r, c = parse_cell(cell, 9)
        s = game.play(s, r * 9 + c)
    try:
        assert not HexDfpn(game).solve(s, max_nodes=200).mover_wins
    except DfpnBudgetExceeded:
        pass  # not proven lost
