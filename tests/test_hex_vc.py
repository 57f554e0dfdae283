"""H-search's virtual connections (engines/knowledge/hex/vc.py): the known templates are found, every
claimed connection and must-play set is sound against the exact solvers, and its work is counted.

Cells are (row, col); Black (player 0, cells value 1) joins row 0 to row n-1, White the columns."""
import numpy as np
import pytest

from engines.games.hex import Hex
from engines.knowledge.hex import patterns as HP
from engines.knowledge.hex.solver import HexSolver
from engines.knowledge.hex.vc import FULL, SEMI, HLimits, HSearch, connected, must_play
from hex_solver import hex_mover_wins

BLACK, WHITE = 0, 1


def position(n, black=(), white=(), to_move=WHITE):
    cells = np.zeros((n, n), np.int8)
    for r, c in black:
        cells[r, c] = 1
    for r, c in white:
        cells[r, c] = 2
    return Hex(n).state_from_cells(cells, to_move)


def cells_of(n, carrier):
    return sorted(divmod(x, n) for x in carrier)


def smallest(carriers):
    return min(carriers, key=len) if carriers else None


# ==== templates ==================================================================================

def test_a_bridge_is_a_full_connection_with_its_two_cells():
    n = 7
    hs = HSearch(n)
    hs.run(position(n, black=[(2, 2), (3, 3)]), BLACK)
    fulls = hs.connections(2 * n + 2, 3 * n + 3, FULL)
    assert cells_of(n, smallest(fulls)) == [(2, 3), (3, 2)]
    # an intruded bridge is a semi-connection whose key is the other cell
    hs.run(position(n, black=[(2, 2), (3, 3)], white=[(2, 3)]), BLACK)
    assert hs.connections(2 * n + 2, 3 * n + 3, FULL) == []
    semis = hs.connections(2 * n + 2, 3 * n + 3, SEMI)
    assert [(3, 2)] in [cells_of(n, c) for c in semis]


def test_the_edge_template_of_the_second_row():
    n = 7
    hs = HSearch(n)
    hs.run(position(n, black=[(1, 3)]), BLACK)
    assert cells_of(n, smallest(hs.connections(1 * n + 3, n * n, FULL))) == [(0, 3), (0, 4)]
    # White's edges are the columns: the same stone of White on column 1 reaches the left edge
    hs.run(position(n, white=[(3, 1)], to_move=BLACK), WHITE)
    assert cells_of(n, smallest(hs.connections(3 * n + 1, n * n, FULL))) == [(3, 0), (4, 0)]


def _ziggurats(n, r, c):
    out = []
    for mirror in HP.ZIGGURAT:
        out.append(sorted((r + dr, c + dc) for dr, dc in mirror))
    return out


def _template_holds(n, stone, carrier):
    """The carrier alone joins the stone to the top edge: Black's stone is joined to the bottom by a
    column of stones, every cell outside the carrier is White's, White moves, and Black still wins."""
    r, c = stone
    black = [(rr, c) for rr in range(r, n)]
    inside = set(carrier) | set(black)
    white = [(rr, cc) for rr in range(n) for cc in range(n) if (rr, cc) not in inside]
    s = position(n, black=black, white=white, to_move=WHITE)
    return not HexSolver(Hex(n), table_bits=16, flags=0).solve(s).mover_wins


def test_the_ziggurat_of_the_third_row():
    n = 7
    hs = HSearch(n)
    hs.run(position(n, black=[(2, 3)]), BLACK)
    fulls = [cells_of(n, c) for c in hs.connections(2 * n + 3, n * n, FULL)]
    best = min(len(c) for c in fulls)
    assert best == 8
    assert all(c in _ziggurats(n, 2, 3) for c in fulls if len(c) == 8)
    assert _template_holds(n, (2, 3), min(fulls, key=len))


def test_a_template_of_the_fourth_row():
    """Template IVa's reach: the lone stone on the fourth row is joined to its edge, and the carrier
    H-search gives is a real template (the solver proves it on the carrier alone)."""
    n = 9
    hs = HSearch(n)
    hs.run(position(n, black=[(3, 4)]), BLACK)
    fulls = [cells_of(n, c) for c in hs.connections(3 * n + 4, n * n, FULL)]
    assert fulls
    assert _template_holds(n, (3, 4), min(fulls, key=len))
    # one row further no template exists: nothing is claimed
    hs.run(position(n, black=[(4, 4)]), BLACK)
    assert hs.connections(4 * n + 4, n * n, FULL) == []


def test_a_chain_of_bridges_and_edge_templates_connects():
    n = 7
    black = [(1, 3), (3, 2), (5, 1)]  # template II, bridge, bridge, template II
    assert connected(position(n, black=black), BLACK)
    assert not connected(position(n, black=black), WHITE)
    # White intrudes one bridge: Black (to move) has a semi-connection, White no longer sees a full
    s = position(n, black=black, white=[(2, 2)], to_move=BLACK)
    assert not connected(s, BLACK)
    assert HSearch(n).winning_move(s) == 2 * n + 3  # the bridge's other cell
    # with White to move, nothing but the bridge's other cell can save White (with wider limits
    # H-search also sees Black's second way to the top: then White has lost, must-play empty)
    assert set(must_play(position(n, black=black, white=[(2, 2)], to_move=WHITE), WHITE)) <= {2 * n + 3}


def test_an_intruded_bridge_leaves_one_move_to_the_intruder():
    """5x5: template II, a bridge, template II; White has intruded the bridge and must now take the
    bridge's other cell: must-play is exactly that cell, the only winning move (per the solver)."""
    n = 5
    s = position(n, black=[(1, 2), (3, 1)], white=[(2, 1)], to_move=WHITE)
    assert not connected(s, BLACK)
    assert must_play(s, WHITE) == [2 * n + 2]
    assert HexSolver(Hex(n)).winning_moves(s) == [2 * n + 2]


def test_the_centre_of_5x5_wins_by_two_ziggurats():
    assert connected(position(5, black=[(2, 2)]), BLACK)
    assert must_play(position(5, black=[(2, 2)]), WHITE) == []  # lost whatever White plays


def test_nothing_is_claimed_on_an_empty_board():
    for n in (7, 9):  # (on 5x5 the centre already joins both edges: each side has semis)
        s = Hex(n).initial_state()
        assert not connected(s, BLACK) and not connected(s, WHITE)
        assert must_play(s, BLACK) is None and must_play(s, WHITE) is None


def test_the_empty_3x3_board_must_play_is_the_set_of_winning_first_moves():
    """On 3x3 the second player already has semi-connections: their carriers meet exactly in the
    five winning first moves (the short diagonal and its two neighbours)."""
    game = Hex(3)
    s = game.initial_state()
    assert must_play(s, BLACK) == HexSolver(game).winning_moves(s) == [2, 3, 4, 5, 6]


# ==== soundness against the solvers ==============================================================

def _random_positions(n, count, seed):
    game = Hex(n)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(int(rng.integers(n * n // 4, n * n * 2 // 3 + 1))):
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
            if game.is_terminal(s):
                break
        if not game.is_terminal(s):
            out.append(s)
    return out


@pytest.mark.parametrize("n, count", [(3, 60), (4, 60), (5, 60)])
def test_connections_and_must_play_are_sound(n, count):
    """Whenever H-search says "connected for P", P wins; every winning move of the side to move lies
    in its must-play set (empty must-play: the side to move loses); a winning move wins.  The truth:
    the brute force on 3x3, the exact solver (itself checked against it) on 4x4 and 5x5."""
    game = Hex(n)
    hs = HSearch(n)
    solver = HexSolver(game, table_bits=18)
    if n <= 3:
        def mover_wins(s):
            return hex_mover_wins(s)
    else:
        def mover_wins(s):
            return solver.solve(s).mover_wins
    claims = {"connected": 0, "must_play": 0, "winning_move": 0}
    for s in _random_positions(n, count, seed=n):
        p = int(s[1])
        win = mover_wins(s)
        for player in (BLACK, WHITE):
            if hs.connected(s, player):
                claims["connected"] += 1
                assert (player == p) == win, (player, game.render(s))
        forced = hs.must_play(s, p)
        if forced is not None:
            claims["must_play"] += 1
            winning = [m for m in game.legal_moves(s) if game.is_terminal(game.play(s, m))
                       or not mover_wins(game.play(s, m))]
            assert set(winning) <= set(forced), game.render(s)
            if not forced:
                assert not win
        move = hs.winning_move(s)
        if move is not None:
            claims["winning_move"] += 1
            child = game.play(s, move)
            assert game.is_terminal(child) or not mover_wins(child)
    assert min(claims.values()) >= count // 10  # the checks had something to check


# ==== limits, work and bad input =================================================================

def test_work_is_bounded_on_a_middle_game_of_11x11():
    """Counted work, not seconds: carrier operations and connections kept on a fixed position."""
    s = _random_positions(11, 1, seed=7)[0]
    hs = HSearch(11)
    for player in (BLACK, WHITE):
        hs.connected(s, player)
        assert not hs.stats["pool_full"] and not hs.stats["cut"]
        assert hs.stats["ops"] < 1_000_000 and hs.stats["vcs"] < 30_000


def test_the_operation_budget_stops_the_search_without_a_false_claim():
    s = position(5, black=[(2, 2)])
    assert HSearch(5).connected(s, BLACK)
    short = HSearch(5, HLimits(max_ops=200))
    assert not short.connected(s, BLACK) and short.stats["cut"]
    assert short.stats["ops"] < 1000


def test_tighter_limits_keep_fewer_connections_and_stay_sound():
    s = position(9, black=[(2, 4), (6, 3)], white=[(4, 4)], to_move=WHITE)
    wide, narrow = HSearch(9), HSearch(9, HLimits(max_fulls=2, max_semis=2, max_or=2))
    wide.run(s, BLACK)
    narrow.run(s, BLACK)
    assert narrow.stats["vcs"] < wide.stats["vcs"]
    tiny = HSearch(5, HLimits(max_vcs=50))  # the pool fills: less is found, nothing false
    assert not tiny.connected(Hex(5).initial_state(), BLACK) and tiny.stats["pool_full"]


# ==== the lists keep the smallest carriers =======================================================

def _offer(work, kind, cells, keep_smallest, limits):
    """Offers a connection of kind with these carrier cells to the pair (0, 1) of a 5x5 work (key:
    its first cell); its pool index or -1."""
    from engines.knowledge.hex import vc
    bits = np.zeros(vc.WORDS, np.uint64)
    for x in cells:
        bits[x >> 6] |= np.uint64(1) << np.uint64(x & 63)
    if kind == FULL:
        return vc._add_full(work, 0, 1, bits, 1, 25, keep_smallest)
    lim = limits._replace(keep_smallest=keep_smallest)
    m = lim.max_or
    return vc._add_semi(work, 0, 1, bits, cells[0], 1, lim, 25, np.zeros((m, vc.WORDS), np.uint64),
                        np.zeros((m, vc.WORDS), np.uint64), np.zeros(m, np.int64))


def _carriers(work, kind):
    from engines.knowledge.hex import vc
    p = 0 * 27 + 1
    ids = work.fulls[p, :work.nfulls[p]] if kind == FULL else work.semis[p, :work.nsemis[p]]
    return [vc._cells(work.carrier[i], 25) for i in ids]


@pytest.mark.parametrize("kind", [FULL, SEMI])
def test_a_full_list_takes_a_smaller_carrier_and_drops_its_largest(kind):
    from engines.knowledge.hex import vc
    limits = HLimits(max_fulls=2, max_semis=2, max_or=2, max_vcs=64)
    work = vc.make_work(5, limits)
    work.stats[vc.S_CONNECTED] = -1
    big = _offer(work, kind, [10, 11, 12, 13], 1, limits)
    assert _offer(work, kind, [2, 3, 4], 1, limits) >= 0
    assert _carriers(work, kind) == [[2, 3, 4], [10, 11, 12, 13]]  # smallest first
    assert _offer(work, kind, [20, 21, 22, 23, 24], 1, limits) == -1  # larger than all kept
    assert _offer(work, kind, [5, 6], 1, limits) >= 0  # smaller: kept, the largest dropped
    assert _carriers(work, kind) == [[5, 6], [2, 3, 4]]
    assert work.dropped[big] == 1
    assert _offer(work, kind, [2, 3, 4, 9], 1, limits) == -1  # contains a kept carrier
    assert _offer(work, kind, [3, 4], 1, limits) >= 0  # inside a kept one: that one goes
    assert _carriers(work, kind) == [[5, 6], [3, 4]]
    # first come, first kept (keep_smallest=0): a full list refuses even a smaller carrier
    old = vc.make_work(5, limits)
    _offer(old, kind, [10, 11, 12, 13], 0, limits)
    _offer(old, kind, [2, 3, 4], 0, limits)
    assert _offer(old, kind, [5, 6], 0, limits) == -1
    assert _carriers(old, kind) == [[10, 11, 12, 13], [2, 3, 4]]


def test_a_new_full_removes_the_semis_whose_carriers_contain_it():
    from engines.knowledge.hex import vc
    limits = HLimits(max_fulls=2, max_semis=3, max_or=2, max_vcs=64)
    work = vc.make_work(5, limits)
    work.stats[vc.S_CONNECTED] = -1
    _offer(work, SEMI, [1, 2, 3], 1, limits)
    _offer(work, SEMI, [7, 8], 1, limits)
    _offer(work, FULL, [2, 3], 1, limits)
    assert _carriers(work, SEMI) == [[7, 8]] and _carriers(work, FULL) == [[2, 3]]


@pytest.mark.parametrize("n", [7, 9])
def test_after_a_search_every_list_is_ordered_by_size_without_nested_carriers(n):
    limits = HLimits(max_fulls=3, max_semis=4)
    hs = HSearch(n, limits)
    w = hs.work
    for s in _random_positions(n, 3, seed=11):
        for colour in (BLACK, WHITE):
            hs.run(s, colour)
            for lists, counts in ((w.fulls, w.nfulls), (w.semis, w.nsemis)):
                for p in np.flatnonzero(counts):
                    ids = lists[p, :counts[p]]
                    sizes = [int(w.size[i]) for i in ids]
                    assert sizes == sorted(sizes)
                    assert not any(w.dropped[i] for i in ids)
                    sets = [_bitset(w.carrier[i], n) for i in ids]
                    assert not any(a <= b for k, a in enumerate(sets) for b in sets[k + 1:])


def test_on_7x7_the_default_lists_prove_a_loss_first_come_lists_missed():
    """Found by random play (seed 2 of a search over 1000 positions): first come, the default limits
    (10 fulls, 16 semis) left White one cell (3, 3) to play; 16/24 proved the loss (wider lists then
    finding MORE than 10/16 and 25/50, the latter only because it reaches max_ops).  Kept smallest,
    10/16 proves it.  The exact solver agrees White, to move, has lost (160 s, not run here)."""
    s = position(7, black=[(0, 0), (1, 5), (2, 3), (3, 4), (6, 0), (6, 5)],
                 white=[(0, 1), (0, 4), (1, 6), (2, 5), (5, 6)], to_move=WHITE)
    assert HSearch(7, HLimits(keep_smallest=0)).must_play(s, WHITE) == [3 * 7 + 3]
    assert HSearch(7, HLimits(keep_smallest=0, max_fulls=16, max_semis=24)).must_play(s, WHITE) == []
    assert HSearch(7).must_play(s, WHITE) == []


def _bitset(bits, n):
    from engines.knowledge.hex import vc
    return set(vc._cells(bits, n * n))


def test_bad_arguments_are_refused():
    hs = HSearch(5)
    with pytest.raises(ValueError, match="player"):
        hs.connected(Hex(5).initial_state(), 2)
    with pytest.raises(ValueError, match="5x5"):
        hs.connected(Hex(7).initial_state(), BLACK)
    with pytest.raises(ValueError):
        HSearch(5, HLimits(max_fulls=0))
    with pytest.raises(ValueError):
        HSearch(2)


# ==== at the root of a search (root.ConnectionRoot) ========================================

class _ScriptedSearcher:
    """Answers every search with a fixed move and visit counts; records what it was asked."""

    def __init__(self, move, visits):
        self.move, self.visits, self.calls, self.advanced = move, visits, [], []

    def search(self, state, limits):
        from engines.search.result import WIN_PROBABILITY, SearchResult
        self.calls.append(limits)
        moves = sorted(self.visits)
        return SearchResult(move=self.move, value=0.5, scale=WIN_PROBABILITY, moves=moves,
                            visits=[self.visits[m] for m in moves], values=[0.5] * len(moves),
                            stats={"time": 0.0, "simulations": sum(self.visits.values())})

    def advance(self, move):
        self.advanced.append(move)

    def reset(self):
        pass


def test_the_root_plays_a_proven_win_without_searching():
    from engines.knowledge.hex.root import ConnectionRoot
    from engines.search import Limits
    n = 5
    s = position(n, black=[(1, 2), (3, 1)], white=[(2, 1)], to_move=BLACK)  # Black: the bridge's key wins
    inner = _ScriptedSearcher(0, {0: 10})
    root = ConnectionRoot(inner, Hex(n))
    result = root.search(s, Limits(time=1.0))
    assert result.move == 2 * n + 2 and inner.calls == [] and root.decided == 1
    root.advance(result.move)
    assert inner.advanced == [result.move]


def test_the_root_keeps_the_move_to_must_play():
    """White must take the bridge's other cell; a search that prefers another move is overruled by the
    most visited must-play cell, and a search that chose inside must-play is left alone."""
    from engines.knowledge.hex.root import ConnectionRoot
    from engines.search import Limits
    n = 7
    s = position(n, black=[(1, 3), (3, 2), (5, 1)], white=[(2, 2)], to_move=WHITE)
    key = 2 * n + 3
    limits = HLimits(max_fulls=10, max_semis=16, max_or=4)  # (wider lists also see White lost: [])
    assert HSearch(n, limits).must_play(s, WHITE) == [key] and HSearch(n, limits).winning_move(s) is None
    inner = _ScriptedSearcher(0, {0: 50, key: 3, 48: 7})
    root = ConnectionRoot(inner, Hex(n), limits)
    assert root.search(s, Limits(time=1.0)).move == key and root.restricted == 1
    assert inner.calls[0].start is not None  # the search's time counts from the root's start
    inner = _ScriptedSearcher(key, {0: 50, key: 3})
    root = ConnectionRoot(inner, Hex(n), limits)
    assert root.search(s, Limits(time=1.0)).move == key and root.restricted == 0


def test_one_root_call_answers_as_the_two_queries_do():
    """HSearch.root (the root's one call a move) gives winning_move's answer, and must_play's for the
    mover only when there is no win, on random positions of 5x5 and 7x7."""
    rng = np.random.default_rng(33)
    seen = {"win": 0, "must": 0, "none": 0}
    for n in (5, 7):
        game, hs = Hex(n), HSearch(n)
        for _ in range(40):
            s = game.initial_state()
            for _ in range(int(rng.integers(2, n * n // 2))):
                s = game.play(s, int(rng.choice(game.legal_moves(s))))
                if game.is_terminal(s):
                    break
            if game.is_terminal(s):
                continue
            win, must = hs.root(s)
            assert win == hs.winning_move(s)
            assert must == (None if win is not None else hs.must_play(s, int(s[1])))
            seen["win" if win is not None else ("must" if must is not None else "none")] += 1
    assert min(seen.values()) > 0, seen
