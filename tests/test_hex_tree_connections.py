"""H-search at the nodes of the RAVE tree (engines/knowledge/hex/tree_connections.py, issue 33 item 3):
every node the hook checks gets exactly what H-search says of its position, once; the search then keeps
its simulations to the must-play cells; the adapters take the setting.

Cells are (row, col); Black (player 0, cells value 1) joins row 0 to row n-1, White the columns."""
import numpy as np
import pytest
from rave_tree import entered_nodes

from engines.games.hex import TO_MOVE, Hex
from engines.knowledge.hex.tree_connections import PROVEN, TREE_LIMITS, VC_CHECKED, Hooks, TreeConnections
from engines.knowledge.hex.vc import HSearch
from engines.players.hex import HexPlayer, HexSettings
from engines.search import Limits
from engines.search.rave import PVISITS, PWINS, VISITS, WINS
from engines.search.tree import COUNT, FIRST, FLAGS, M_ROOT, MOVE


def random_position(game, rng, lo, hi):
    while True:
        s = game.initial_state()
        for _ in range(int(rng.integers(lo, hi))):
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
            if game.is_terminal(s):
                break
        if not game.is_terminal(s):
            return s


@pytest.mark.parametrize("n", [5, 7])
def test_each_checked_node_gets_what_h_search_says_of_it_and_only_once(n):
    """On trees grown from random positions: a node whose mover has lost (no must-play cell) is won for
    who moved into it (PROVEN virtual visits, all won), a node under an edge-to-edge threat has exactly
    its children outside the must-play cells lost (PROVEN, none won); the root's own row, the nodes short
    of min_visits and everything else stay as they were; a second call changes nothing."""
    game, hs = Hex(n), HSearch(n, TREE_LIMITS)
    rng = np.random.default_rng(n)
    seen = {"lost": 0, "pruned": 0, "open": 0}
    min_visits = 12
    for _ in range(6):
        state = random_position(game, rng, 2, n * n // 3)
        player = HexPlayer(HexSettings(simulations=1500, root_connections=False, seed=int(rng.integers(99))), n)
        searcher = player.searcher
        searcher.search(state, Limits(simulations=1500))
        expected = entered_nodes(searcher, min_visits)
        before = searcher.tree_f.copy()
        hook = TreeConnections(n, min_visits, batch=4096)
        hook(searcher)
        flagged = {int(r) for r in np.flatnonzero(searcher.tree_i[:searcher.tree_size, FLAGS] & VC_CHECKED)}
        assert flagged == set(expected)
        root = int(searcher.meta[M_ROOT])
        delta = searcher.tree_f.astype(np.float64) - before
        touched = set()
        for row, moves in expected.items():
            s = state
            for a in moves:
                s = game.play(s, a)
            must = hs.must_play(s, int(s[TO_MOVE]))
            first, count = int(searcher.tree_i[row, FIRST]), int(searcher.tree_i[row, COUNT])
            if must == []:
                if row != root:
                    touched.add(row)
                    assert delta[row, VISITS] == PROVEN and delta[row, PVISITS] == PROVEN
                    assert delta[row, PWINS] == PROVEN    # lost by its mover: won by who moved in
                seen["lost"] += 1
            elif must is not None:
                outside = {j for j in range(first, first + count) if int(searcher.tree_i[j, MOVE]) not in must}
                for j in outside:
                    assert delta[j, PVISITS] == PROVEN and delta[j, PWINS] == 0.0 and delta[j, WINS] == 0.0
                touched |= outside
                seen["pruned"] += bool(outside)
            else:
                seen["open"] += 1
        changed = {int(r) for r in np.flatnonzero((delta != 0).any(axis=1))}
        assert changed == touched                     # nothing else in the tree moved
        after = searcher.tree_f.copy()
        hook(searcher)                                # checked once: a second walk finds nothing to do
        assert np.array_equal(searcher.tree_f, after)
    assert min(v for k, v in seen.items() if k != "open" or n > 5) > 0, seen  # 5x5's checked nodes are all decided


def test_the_search_keeps_its_simulations_to_the_must_play_cells():
    """White to move on 7x7 must stop Black's edge-to-edge threats (five must-play cells); at 200
    simulations the plain search (no connections at its root either) plays outside them; with H-search
    in the tree, every simulation after the first batch of 8 goes inside, and so does the move."""
    n = 7
    cells = np.zeros((n, n), np.int8)
    for r, c in [(1, 3), (1, 5), (3, 1), (3, 5), (4, 6)]:
        cells[r, c] = 1
    for r, c in [(2, 2), (4, 1), (5, 0), (5, 6)]:
        cells[r, c] = 2
    state = Hex(n).state_from_cells(cells, 1)
    win, must = HSearch(n, TREE_LIMITS).root(state)
    assert win is None and must == [19, 25, 31, 38, 45]
    outside = {}
    for tree_connections in (0, 1):
        player = HexPlayer(HexSettings(simulations=200, root_connections=False, tree_connections=tree_connections,
                                       seed=0), n)
        result = player.searcher.search(state, Limits(simulations=200))
        outside[tree_connections] = (result.move in must,
                                     sum(v for m, v in zip(result.moves, result.visits) if m not in must))
    assert outside[0][0] is False and outside[0][1] > 8
    assert outside[1][0] is True and outside[1][1] <= 8


def test_the_hooks_run_together_and_the_setting_is_checked(tmp_path):
    """With the policy CNN's prior and the connections both on, both hooks run (both flags at the root);
    a negative tree_connections is refused; a network's mcts search has no hook."""
    pytest.importorskip("onnxruntime")
    from engines.knowledge.tree_prior import NET_PRIORED
    player = HexPlayer(HexSettings(simulations=300, policy_network="shipped", tree_connections=1), 9)
    assert player.tree_policy is not None and isinstance(player.searcher.batch_hook, Hooks)
    player.search(0)
    root = int(player.searcher.meta[M_ROOT])
    assert player.searcher.tree_i[root, FLAGS] & NET_PRIORED and player.searcher.tree_i[root, FLAGS] & VC_CHECKED
    assert player.tree_connections.figures()["nodes"] >= 1
    with pytest.raises(ValueError, match="tree_connections"):
        HexSettings(tree_connections=-1)
    assert HexPlayer(HexSettings(simulations=50, network="shipped", tree_connections=8), 5).tree_connections is None


def test_plies_gtp_hex_with_tree_connections_beats_random_play_with_both_colours():
    """The HexGui engine with --tree-connections, refereed over GTP (the referee checks every move against
    its own rules): it wins a 5x5 game against random moves as Black and as White."""
    import random
    from standins.hex_referee import GtpProcess, referee_game
    engine = GtpProcess(["--simulations", "300", "--tree-connections", "16"])
    try:
        for colour in (0, 1):
            players = (engine, "random") if colour == 0 else ("random", engine)
            winner, moves = referee_game(players, 5, random.Random(colour))
            assert winner == colour, moves
    finally:
        engine.close()


def test_the_hook_stops_at_the_searchs_deadline_and_the_nodes_left_wait():
    """H-search runs a node at a time and reads the search's clock before each: with a clock that moves
    one tick a reading and the deadline three ticks ahead, two nodes are checked and the rest stay
    unflagged for a later call; past the deadline, none; without one, all."""
    from itertools import count
    n = 7
    game = Hex(n)
    state = random_position(game, np.random.default_rng(4), 3, 8)
    player = HexPlayer(HexSettings(simulations=2000, root_connections=False), n)
    searcher = player.searcher
    searcher.search(state, Limits(simulations=2000))
    expected = entered_nodes(searcher, 12)
    assert len(expected) > 4
    ticks = count()
    searcher.clock = lambda: float(next(ticks))

    def flagged():
        return int(np.count_nonzero(searcher.tree_i[:searcher.tree_size, FLAGS] & VC_CHECKED))
    hook = TreeConnections(n, 12, batch=4096)
    searcher.deadline = -1.0
    hook(searcher)
    assert flagged() == 0
    searcher.deadline = searcher.clock() + 3
    hook(searcher)
    assert flagged() == 2
    searcher.deadline = None
    hook(searcher)
    assert flagged() == len(expected)
