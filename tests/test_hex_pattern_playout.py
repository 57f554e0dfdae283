"""The Hex playouts guided by the learned move patterns (engines/knowledge/hex/pattern_playout.py): a
cell with a huge gamma next to the last move is nearly always played, no move lands on an occupied or
off-board cell, the bridge answer comes first, today's bridge playout is unchanged (a golden trace), the
setting reaches the RAVE search and exists in the Hex adapters' flags."""
import hashlib

import numpy as np
import pytest

from engines.games import make_game
from engines.games.hex import HEADER, WINNER
from engines.knowledge.hex import move_patterns as MP
from engines.knowledge.hex import pattern_playout as PP
from engines.knowledge.hex import patterns as HP
from engines.rng import make_rng

N = 9


def position(moves, size=N):
    game = make_game("hex", size=size)
    s = game.initial_state()
    for r, c in moves:
        s = game.play(s, r * size + c)
    return game, s


def neighbourhood(a, n=N):
    r, c = divmod(a, n)
    return {(r + dr) * n + c + dc for dr, dc in MP.OFFSETS if 0 <= r + dr < n and 0 <= c + dc < n}


def local_draws(s, last, params, draws, seed=1):
    """How often local_move picks each cell (-1: the global draw) after ``last``."""
    rng = make_rng(seed)
    cand, weight = np.empty(PP.LOCAL, np.int64), np.empty(PP.LOCAL)
    left = int((s[HEADER:HEADER + N * N] == 0).sum())
    keys = np.empty(2 * N * N, np.int64)
    PP.board_raw_keys(s[HEADER:HEADER + N * N], N, keys)
    counts = {}
    for _ in range(draws):
        a = int(PP.local_move(s, N, last, int(s[1]), params, rng, left, cand, weight, keys))
        counts[a] = counts.get(a, 0) + 1
    return counts


def test_a_cell_with_a_huge_gamma_next_to_the_last_move_is_nearly_always_drawn():
    """Black at (4,4), then White at (3,5); Black to move: the cell (4,5) next to White's last stone,
    its pattern given a gamma of 1e6 for Black, takes nearly every draw; with a plain table few."""
    _, s = position([(4, 4), (3, 5)])
    cells = s[HEADER:HEADER + N * N]
    target = 4 * N + 5
    k12, _ = MP.cell_keys(cells, N, target, 0)
    plain = MP.PatternTable({}, {}, 1.0)
    favour = MP.PatternTable({int(k12): 1e6}, {}, 1.0)
    last = 3 * N + 5
    with_favour = local_draws(s, last, PP.pack_playout(favour, 1.0), 2000)
    without = local_draws(s, last, PP.pack_playout(plain, 1.0), 2000)
    assert with_favour.get(target, 0) >= 1990, with_favour
    assert without.get(target, 0) < 200, without  # 1 of 11 local cells against 79 global: about 1/90
    assert without.get(-1, 0) > 1500  # the global draw keeps its weight


def test_every_move_stays_local_when_every_local_cell_has_a_huge_gamma():
    """A table whose every pattern with a stone around weighs 1e6 (the empty pattern 1): after each
    move, the next one is drawn in its neighbourhood whenever one of those cells is empty (bar the
    bridge answers); the bridge playout's moves are local only by chance."""
    _, s = position([])
    table = MP.PatternTable({0: 1.0}, {}, 1e6)
    params = PP.pack_playout(table, 1.0)
    trace = np.empty(HP.playout_scratch(N), np.int64)

    def local_share(kernel, params):
        rng = make_rng(3)
        local = chances = 0
        for _ in range(100):
            w = s.copy()
            k = kernel(w, rng, trace, params)
            board = np.zeros(N * N, np.int64)
            for i in range(k):
                a = int(trace[i])
                if i > 0 and any(board[x] == 0 for x in neighbourhood(int(trace[i - 1]))):
                    chances += 1
                    local += a in neighbourhood(int(trace[i - 1]))
                board[a] = 1
        return local / chances

    assert local_share(PP.traced_pattern, params) > 0.99
    assert local_share(HP.traced_bridge, np.zeros(0)) < 0.6


@pytest.mark.parametrize("kernel", [PP.traced_pattern, PP.traced_pattern_vc])
def test_playouts_fill_every_empty_cell_once_and_nothing_else(kernel):
    """Stones on the edges and corners (off-board neighbours, occupied ones): every traced move was
    empty, each once, the board ends full, and the winner is the flood fill's."""
    moves = [(0, 0), (0, 8), (8, 0), (8, 8), (4, 0), (0, 4), (4, 8), (8, 4), (1, 1), (7, 7)]
    _, s = position(moves)
    empty = {a for a in range(N * N) if s[HEADER + a] == 0}
    params = PP.pack_playout(MP.load_table(MP.shipped_path(9)), 1.0)
    trace = np.empty(HP.playout_scratch(N), np.int64)
    rng = make_rng(5)
    for _ in range(200):
        w = s.copy()
        k = kernel(w, rng, trace, params)
        if k == 0:  # the connection check decided (not expected here, but legitimate)
            assert w[WINNER] in (0, 1)
            continue
        played = [int(a) for a in trace[:k]]
        assert len(played) == len(set(played)) == len(empty) and set(played) == empty
        assert (w[HEADER:HEADER + N * N] != 0).all()
        assert w[WINNER] in (0, 1)


def test_the_bridge_answer_comes_before_the_patterns():
    """Black's bridge (2,2)-(3,3); White intrudes at (2,3): Black answers (3,2) every time, even with a
    table that makes every other local cell weigh 1e6."""
    _, s = position([(2, 2), (6, 6), (3, 3)])  # White to move
    params = PP.pack_playout(MP.PatternTable({0: 1.0}, {}, 1e6), 1.0)
    trace = np.empty(HP.playout_scratch(N), np.int64)
    rng = make_rng(11)
    intrusions = 0
    for _ in range(3000):
        w = s.copy()
        PP.traced_pattern(w, rng, trace, params)
        if trace[0] == 2 * N + 3:
            intrusions += 1
            assert trace[1] == 3 * N + 2
    assert intrusions >= 10


def test_the_bridge_playout_is_unchanged():
    """Today's bridge playouts, seeded: the same traces and final boards as before the pattern playout
    came (a golden hash)."""
    _, s = position([divmod(a, N) for a in (40, 30, 50, 21, 59)])
    for kernel in (HP.traced_bridge, HP.traced_bridge_vc):
        rng = make_rng(7)
        digest = hashlib.sha256()
        trace = np.empty(HP.playout_scratch(N), np.int64)
        for _ in range(50):
            w = s.copy()
            k = kernel(w, rng, trace, np.zeros(0))
            digest.update(trace[:k].tobytes())
            digest.update(w.tobytes())
        assert digest.hexdigest()[:16] == "e886e838ed6c84dc", kernel.__name__


def test_the_setting_off_keeps_the_default_search_and_on_changes_its_playouts():
    """The default (playout_patterns 'none') is the bridge playout with the connection check, and
    searches the same visits as the setting named explicitly; 'shipped' puts the pattern playout in
    the RAVE knowledge and changes the search."""
    import time

    from adapters.gtp_hex import HexSession, Settings
    visits = {}
    for name, extra in (("default", {}), ("none", {"playout_patterns": "none"}),
                        ("shipped", {"playout_patterns": "shipped"})):
        session = HexSession(Settings(size=N, time=0, simulations=300, seed=0, root_connections=False, **extra))
        knowledge = session.searcher.knowledge
        expected = PP.traced_pattern_vc if name == "shipped" else HP.traced_bridge_vc
        assert knowledge.traced_playout is expected, name
        result = session.search(0, time.perf_counter())
        visits[name] = dict(zip(result.moves, result.visits))
    assert visits["default"] == visits["none"]
    assert visits["shipped"] != visits["none"]


def test_the_setting_exists_in_the_hex_adapters_flags_and_refuses_mcts(tmp_path):
    import argparse

    from adapters import gtp_hex, oht_client
    from adapters.config import add_setting_flags
    for module in (gtp_hex, oht_client):
        assert module.Settings().playout_patterns == "none"
        parser = argparse.ArgumentParser()
        add_setting_flags(parser, module.Settings)
        options = parser.parse_args(["--playout-patterns", "shipped", "--playout-global", "2"])
        assert options.playout_patterns == "shipped" and float(options.playout_global) == 2.0
    assert "--playout-patterns" in gtp_hex.build_parser().format_help()
    with pytest.raises(ValueError, match="playout_patterns"):
        gtp_hex.Settings(playout_patterns="shipped", search="mcts")
    with pytest.raises(ValueError, match="playout_global"):
        gtp_hex.Settings(playout_global=0.0)


def test_the_playout_lookup_agrees_with_the_prior_lookup():
    """The hashed raw-key lookup of the playout gives every empty cell the gamma the prior's canonical
    lookup (move_patterns.log_strength) gives it, on random 9x9 boards for both colours."""
    table = MP.load_table(MP.shipped_path(9))
    params, prior = PP.pack_playout(table, 1.0), table.pack()
    rng = np.random.default_rng(4)
    for _ in range(40):
        cells = rng.choice(3, size=N * N, p=[0.5, 0.25, 0.25]).astype(np.int64)
        for mover in (0, 1):
            for a in np.flatnonzero(cells == 0):
                expected = np.exp(MP.log_strength(prior, cells, N, int(a), mover))
                assert PP.cell_gamma(params, cells, N, int(a), mover) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("size, packed", [(5, 9), (5, 5), (9, 9), (9, 0)])
def test_the_keys_kept_during_a_playout_are_the_keys_of_the_board(size, packed):
    """After some moves of a playout from a position with stones, the incrementally kept key of every
    empty cell, for both movers, is the key read afresh from the board (the transposed frame of White
    included), whether the params carry the size's empty-board keys (packed == size) or not."""
    _, s = position([(0, 1), (2, 2), (size - 1, 3), (1, size - 1)], size)
    params = PP.pack_playout(MP.load_table(MP.shipped_path(9)), 1.0, packed)
    nn = size * size
    rng = make_rng(2)
    for moves in range(1, nn - 4, 3):  # fewer moves than the empty cells: the playout stops midway
        w = s.copy()
        trace, empties, pos = (np.empty(nn, np.int64) for _ in range(3))
        keys = np.empty(2 * nn, np.int64)
        played = PP.fill_patterns(w, rng, False, params, trace, empties, pos, keys, moves)
        assert played == moves
        cells = w[HEADER:HEADER + nn]
        for a in np.flatnonzero(cells == 0):
            for mover in (0, 1):
                assert keys[mover * nn + a] == PP.raw_key(cells, size, int(a), mover), (moves, a, mover)
