"""The vulnerable cells and the fill-ins' domination of engines/knowledge/hex/patterns.py (issue 33,
item 4): crafted positions where they prune a known cell, and soundness against solvers that trust no analysis (the brute
force on 3x3-4x4, the plain negamax HexSolver(flags=0) on 5x5): when the mover wins, a candidate
wins; the fill-in never changes the winner; DFPN with vulnerable pruning keeps every verdict."""
import numpy as np
import pytest

from engines.games.hex import HASH, HEADER, TO_MOVE, Hex
from engines.knowledge.hex import patterns as HP
from engines.knowledge.hex.dfpn import HexDfpn
from engines.knowledge.hex.solver import HexSolver
from hex_solver import _mover_wins

MEMOS = {}  # board size -> the brute force's memo, shared by every test (keys: Zobrist, side to move included)


def hex_mover_wins(s):
    """The brute force (tests/hex_solver.py) with one memo per board size."""
    import numba as nb
    size = int(s[0])
    if size not in MEMOS:
        MEMOS[size] = nb.typed.Dict.empty(nb.types.int64, nb.types.boolean)
    return _mover_wins(s, MEMOS[size])


SYMBOL = {".": 0, "X": 1, "O": 2}  # X: player 0 (rows, top-bottom), O: player 1 (columns)
ICE = HP.F_INFERIOR | HP.F_VULNERABLE
FULL = ICE | HP.F_FILLIN_INFERIOR  # and domination / vulnerability read from whole fill-ins


def position(rows: str, to_move: int):
    grid = [[SYMBOL[ch] for ch in line if ch in SYMBOL] for line in rows.strip().splitlines()]
    game = Hex(len(grid))
    return game, game.state_from_cells(np.array(grid, dtype=np.int8), to_move)


def candidates(state, flags):
    out = np.empty(state.shape[0], dtype=np.int32)
    count, status = HP.analyse(state, out, flags)
    return sorted(out[:count].tolist()), status


def random_positions(size, count, seed, least_empty=0):
    """Random non-final positions of size x size reached by random play."""
    rng = np.random.default_rng(seed)
    game = Hex(size)
    found = []
    while len(found) < count:
        s = game.initial_state()
        stones = int(rng.integers(1, size * size - max(2, least_empty)))
        for _ in range(stones):
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
            if game.is_terminal(s):
                break
        if not game.is_terminal(s):
            found.append(s)
    return game, found


def winning_moves(game, s, wins):
    """The mover's winning moves; wins(state) -> does the side to move win."""
    return {m for m in game.legal_moves(s)
            if game.is_terminal(game.play(s, m)) or not wins(game.play(s, m))}


# ---- crafted positions ---------------------------------------------------------------------------

def test_a_vulnerable_cell_is_pruned_and_its_killer_stays():
    # X (player 0, top-bottom) to move.  The edge cell (0, 1) touches X's top edge, O's (0, 2) and
    # O's pair (0, 0)-(1, 0), and the empty (1, 1): for X it joins (1, 1) to the top, for O it joins
    # its two groups, so it is neither dead nor dominated for X.  Once O holds (1, 1) (the killer),
    # O's groups are one and X has nothing left to join there: (0, 1) is dead.  So (0, 1) is
    # vulnerable to (1, 1): pruned, while (1, 1) stays.
    rows = """
        O . O . .
        O . . . .
        . . X . .
        . . . . .
        . . . . ."""
    game, s = position(rows, 0)
    x, killer = game.action(0, 1), game.action(1, 1)
    before, _ = candidates(s, HP.F_INFERIOR)
    after, _ = candidates(s, ICE)
    assert x in before and killer in before
    assert x not in after and killer in after
    assert set(before) - set(after) == {x}
    marked = np.zeros(25, np.bool_)
    keep = np.array([v == 0 for v in s[HEADER:HEADER + 25]])
    assert HP.vulnerable_cells(s, np.empty_like(s), keep, marked, np.zeros(25, np.bool_), 0) >= 1
    assert marked[x] and not marked[killer]
    # a killer that is some dominated cell's dominator does not count (the argument needs it empty)
    marked[:] = False
    dominator = np.zeros(25, np.bool_)
    dominator[killer] = True
    HP.vulnerable_cells(s, np.empty_like(s), keep, marked, dominator, 0)
    assert not marked[x]


def test_the_fill_in_kinds_prune_a_cell_the_local_ones_keep_and_a_win_survives():
    # (a random 5x5 position, pinned): O (player 1) to move; the fill-ins after one stone show (1, 1)
    # inferior for O, which neither the adjacent dead-cell test nor the vulnerable cells see
    game, s = position("..X../O...X/....O/X..../..O.X".replace("/", "\n"), 1)
    local, _ = candidates(s, ICE)
    full, _ = candidates(s, FULL)
    assert set(local) - set(full) == {game.action(1, 1)}
    wins = set(HexSolver(game, table_bits=20, flags=0).winning_moves(s, max_nodes=5_000_000))
    assert not wins or set(full) & wins


def test_the_vulnerable_flag_alone_changes_nothing_without_the_fill_in():
    game, s = position("""
        O . O . .
        O . . . .
        . . X . .
        . . . . .
        . . . . .""", 0)
    assert candidates(s, HP.F_VULNERABLE)[0] == candidates(s, 0)[0]


def test_vulnerable_pruning_only_takes_cells_away():
    game, found = random_positions(6, 40, seed=5)
    fewer = 0
    for s in found:
        plain, _ = candidates(s, HP.F_INFERIOR | HP.F_VC)
        ice, _ = candidates(s, ICE | HP.F_VC)
        assert set(ice) <= set(plain) or set(ice) == set(game.legal_moves(s))
        fewer += len(ice) < len(plain)
    assert fewer > 0


# ---- soundness against solvers that trust no analysis ---------------------------------------------

@pytest.mark.parametrize("flags", [ICE, FULL, FULL | HP.F_VC], ids=["vulnerable", "fillin", "fillin+vc"])
@pytest.mark.parametrize("size, count, seed", [(3, 150, 1), (4, 150, 2)])
def test_a_winning_move_survives_on_small_boards(size, count, seed, flags):
    game, found = random_positions(size, count, seed)
    pruned_some = won = 0
    for s in found:
        legal = set(game.legal_moves(s))
        ice, _ = candidates(s, flags)
        plain, _ = candidates(s, HP.F_INFERIOR)
        assert set(ice) <= legal and ice
        pruned_some += len(ice) < len(plain)
        wins = winning_moves(game, s, hex_mover_wins)
        if wins:
            won += 1
            assert set(ice) & wins, (game.render(s), ice, wins)
    assert won > count // 4
    assert pruned_some > 0  # the vulnerable cells did prune somewhere


@pytest.mark.parametrize("flags", [ICE, FULL], ids=["vulnerable", "fillin"])
def test_a_winning_move_survives_on_5x5(flags):
    game, found = random_positions(5, 60, seed=3, least_empty=8)
    solver = HexSolver(game, table_bits=20, flags=0)  # plain negamax: it trusts no pruning
    pruned_some = won = 0
    for s in found:
        ice, _ = candidates(s, flags)
        plain, _ = candidates(s, HP.F_INFERIOR)
        pruned_some += len(ice) < len(plain)
        if len(game.legal_moves(s)) > 16:
            continue  # (the plain solver would take too long)
        wins = set(solver.winning_moves(s, max_nodes=2_000_000))
        if wins:
            won += 1
            assert set(ice) & wins
    assert won > 10 and pruned_some > 5


def test_the_fill_in_never_changes_the_winner():
    for size, seed in ((3, 4), (4, 5)):
        game, found = random_positions(size, 80, seed)
        for s in found:
            w = s.copy()
            n = size * size
            HP.fill_in(s, w, np.empty_like(s), np.zeros(n, np.bool_), np.zeros(n, np.int64))
            filled = game.state_from_cells(w[HEADER:HEADER + n].reshape(size, size).astype(np.int8),
                                           game.to_move(s))
            if game.is_terminal(filled):
                assert game.winner(filled) == (game.to_move(s) if hex_mover_wins(s) else 1 - game.to_move(s))
            else:
                assert hex_mover_wins(filled) == hex_mover_wins(s)


ICE_SETTINGS = [{"vulnerable": True}, {"vulnerable": True, "fillin_inferior": True}]


@pytest.mark.parametrize("settings", ICE_SETTINGS, ids=["vulnerable", "fillin"])
@pytest.mark.parametrize("n, count, seed", [(4, 40, 11), (5, 25, 12)])
def test_dfpn_with_vulnerable_cells_keeps_the_verdicts(n, count, seed, settings):
    game, found = random_positions(n, count, seed, least_empty=6 if n == 5 else 0)
    plain = HexSolver(game, table_bits=20)
    with_ice = HexDfpn(game, **settings)
    without = HexDfpn(game)
    nodes_ice = nodes_plain = 0
    for s in found:
        truth = hex_mover_wins(s) if n == 4 else plain.solve(s, max_nodes=5_000_000).mover_wins
        a = with_ice.solve(s, max_nodes=200_000)
        b = without.solve(s, max_nodes=200_000)
        assert a.mover_wins == truth == b.mover_wins
        nodes_ice += a.nodes
        nodes_plain += b.nodes
    assert nodes_ice <= nodes_plain


@pytest.mark.parametrize("settings", ICE_SETTINGS, ids=["vulnerable", "fillin"])
def test_dfpn_proof_sets_hold_with_vulnerable_pruning(settings):
    """Every proven entry's proof set: with every cell outside it given to the loser, the winner
    still wins (the brute force decides), on random 4x4 positions and their subtrees."""
    game, found = random_positions(4, 40, seed=13)
    dfpn = HexDfpn(game, **settings)
    checked = 0
    for s in found:
        dfpn.clear()
        dfpn.solve(s, max_nodes=100_000)
        stack, seen = [s], set()
        while stack:
            u = stack.pop()
            key = int(u[HASH])
            if key in seen or game.is_terminal(u):
                continue
            seen.add(key)
            entry = dfpn.table.get(key)
            if entry is None or entry[2] is not None:
                continue
            mover = int(u[TO_MOVE])
            winner = mover if entry[0] == 0 else 1 - mover
            grid = u[HEADER:HEADER + 16].reshape(4, 4).astype(np.int8).copy()
            for x in range(16):
                if grid.flat[x] == 0 and not (entry[3] >> x) & 1:
                    grid.flat[x] = 2 - winner  # the loser's
            v = game.state_from_cells(grid, mover)
            if game.is_terminal(v):
                assert game.winner(v) == winner
            else:
                assert hex_mover_wins(v) == (winner == mover)
            checked += 1
            for m in game.legal_moves(u):
                stack.append(game.play(u, m))
    assert checked > 30
