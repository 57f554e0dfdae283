"""The Hex policy CNN (issue 33 item 7): its planes in the mover's frame, the network file, and its
prior at every node of the RAVE tree (engines/knowledge/hex/policy_network.py over
engines/knowledge/tree_prior.py; the setting policy_network of engines/players/hex.py)."""
import numpy as np
import pytest
from rave_tree import entered_nodes, real_visits

from engines.games.hex import Hex
from engines.knowledge.hex.policy_network import (NUM_PLANES, PLANE_NAMES, HexPolicyNetwork, board_logits,
                                                  planes_of)
from engines.learn.hex.policy import examples, frame_cell, save_onnx, symmetry_tables

N = 5
P = {name: i for i, name in enumerate(PLANE_NAMES)}


def at(r, c, n=N):
    return r * n + c


def numpy_arrays(channels=4, blocks=1, seed=0):
    rng = np.random.default_rng(seed)
    arrays = {"stem.weight": rng.normal(0, 0.3, (channels, NUM_PLANES, 3, 3)), "stem.bias": rng.normal(0, 0.1, channels)}
    for i in range(blocks):
        for j in (1, 2):
            arrays[f"blocks.{i}.conv{j}.weight"] = rng.normal(0, 0.3, (channels, channels, 3, 3))
            arrays[f"blocks.{i}.conv{j}.bias"] = rng.normal(0, 0.1, channels)
    arrays.update({"head.weight": rng.normal(0, 0.3, (1, channels, 1, 1)), "head.bias": rng.normal(0, 0.1, 1)})
    return {k: np.asarray(v, np.float32) for k, v in arrays.items()}


def edge_network(tmp_path, n=N):
    """A network whose favourites are the mover's own edge rows (in its frame): for player 0 the top and
    bottom rows, for player 1 the left and right columns."""
    arrays = {k: np.zeros_like(v) for k, v in numpy_arrays(channels=1, blocks=0).items()}
    arrays["stem.weight"][0, P["own_edges"], 1, 1] = 1.0
    arrays["head.weight"][0, 0] = 10.0
    return save_onnx(tmp_path / "edges.onnx", arrays, n, {})


def test_planes_are_in_the_movers_frame():
    game = Hex(N)
    s = game.play(game.initial_state(), at(0, 3))     # player 0 at (0, 3); player 1 to move
    planes, mover = planes_of(s)
    assert mover == 1 and planes.shape == (NUM_PLANES, N, N)
    # player 1's board transposed: its stone-to-be joins the frame's rows; (0, 3) shows at (3, 0)
    assert planes[P["opponent"]][3, 0] == 1 and planes[P["opponent"]].sum() == 1 and planes[P["own"]].sum() == 0
    assert planes[P["empty"]].sum() == N * N - 1 and planes[P["empty"]][3, 0] == 0
    assert planes[P["own_edges"]][0].all() and planes[P["own_edges"]][N - 1].all() and planes[P["own_edges"]].sum() == 2 * N
    assert planes[P["opponent_edges"]][:, 0].all() and planes[P["opponent_edges"]].sum() == 2 * N
    s2 = game.play(s, at(2, 4))                      # player 1 at (2, 4); player 0 to move: no transpose
    planes, mover = planes_of(s2)
    assert mover == 0 and planes[P["own"]][0, 3] == 1 and planes[P["opponent"]][2, 4] == 1
    assert frame_cell(at(2, 4), 1, N) == at(4, 2) and frame_cell(at(2, 4), 0, N) == at(2, 4)


def test_board_logits_turn_player_ones_frame_back():
    z = np.arange(2 * N * N, dtype=np.float32).reshape(2, N * N)
    out = board_logits(z, np.array([0, 1]), N)
    assert np.array_equal(out[0], z[0])
    assert out[1, at(1, 3)] == z[1, at(3, 1)]


def test_examples_targets_and_rotation(tmp_path):
    game = Hex(N)
    moves = [at(0, 0), at(1, 3), at(2, 2)]
    record = tmp_path / "hex5-t-s000001.sgf"
    from engines.learn.hex.records import cell_name
    body = "".join(f";{'BW'[i % 2]}[{cell_name(a, N)}]" for i, a in enumerate(moves))
    record.write_text(f"(;FF[4]GC[generator=test seed=1 random=1]GM[11]SZ[{N}]RE[B+]{body})")
    data = examples([record], N)
    assert len(data) == 2                              # the random first move is no target
    assert data.target.tolist() == [frame_cell(at(1, 3), 1, N), at(2, 2)]
    state = game.play(game.initial_state(), at(0, 0))
    assert np.array_equal(data.planes[0], planes_of(state)[0].astype(np.uint8))
    src, dst = symmetry_tables(N)
    x = data.planes[1].reshape(NUM_PLANES, -1)[:, src[1]]
    assert x[P["own"], dst[1][at(0, 0)]] == 1 and dst[1][data.target[1]] == at(N - 1 - 2, N - 1 - 2)


def test_onnx_file_equals_the_torch_model(tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnxruntime")
    from engines.learn.policy_cnn import make_model
    torch.manual_seed(3)
    model = make_model(NUM_PLANES, channels=8, blocks=2, pass_move=False).eval()
    arrays = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    network = HexPolicyNetwork(save_onnx(tmp_path / "p.onnx", arrays, N, {}), N)
    game = Hex(N)
    s = game.play(game.play(game.initial_state(), at(2, 2)), at(1, 1))
    x = planes_of(s)[0][None]
    with torch.no_grad():
        want = model(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(network.frame_logits(x), want, rtol=1e-4, atol=1e-5)


def test_a_network_that_does_not_fit_is_refused_with_its_reason(tmp_path):
    pytest.importorskip("onnxruntime")
    from engines.errors import NetworkError
    path = edge_network(tmp_path, 7)
    with pytest.raises(NetworkError, match="7x7"):
        HexPolicyNetwork(path, N)
    # the player plays a size the file was not made for without it, and says so
    from engines.players.hex import HexPlayer, HexSettings
    player = HexPlayer(HexSettings(simulations=10, policy_network=str(path)), N)
    assert player.tree_policy is None and any("7x7" in note for note in player.notes)
    with pytest.raises(NetworkError, match="not a readable ONNX"):
        bad = tmp_path / "bad.onnx"
        bad.write_bytes(b"not a network")
        HexPlayer(HexSettings(simulations=10, policy_network=str(bad)), N)
    with pytest.raises(NetworkError, match="no network file"):
        HexPolicyNetwork(tmp_path / "missing.onnx", N)


# ---- the prior at every node of the tree ---------------------------------------------------------------------

def grown_tree(simulations=1500, **settings):
    """A RAVE tree of the Hex player without the network, grown a few moves into a 5x5 game."""
    from engines.players.hex import HexPlayer, HexSettings
    player = HexPlayer(HexSettings(simulations=simulations, root_connections=False, **settings), N)
    for colour, point in ((0, (2, 2)), (1, (1, 3))):
        player.place(colour, point)
    player.search(0)
    return player


def test_nodes_with_k_real_visits_get_the_network_prior_once_and_others_not(tmp_path):
    pytest.importorskip("onnxruntime")
    from engines.knowledge.hex.policy_network import TreePolicy
    from engines.knowledge.tree_prior import NET_PRIORED
    from engines.search.rave import PWINS
    from engines.search.tree import COUNT, FIRST, FLAGS, MOVE
    player = grown_tree()
    searcher, game, state = player.searcher, player.game, player.position_for(0)
    network = HexPolicyNetwork(save_onnx(tmp_path / "random.onnx", numpy_arrays(seed=5), N, {}), N)
    k, weight = 20, 30.0
    expected = entered_nodes(searcher, k)
    assert len(expected) > 3 and max(len(m) for m in expected.values()) >= 2   # nodes below the root's children
    assert any(len(m) % 2 == 1 for m in expected.values())                      # player 1 to move: the frame turned
    before_f, before_i = searcher.tree_f.copy(), searcher.tree_i.copy()
    hook = TreePolicy(network, weight, k, batch=512)
    hook(searcher)
    flagged = {int(r) for r in np.flatnonzero(searcher.tree_i[:searcher.tree_size, FLAGS] & NET_PRIORED)}
    assert flagged == set(expected) and hook.positions == len(expected)
    changed = {int(r) for r in np.flatnonzero((searcher.tree_f != before_f).any(axis=1))}
    children = {j for row in expected for j in range(int(searcher.tree_i[row, FIRST]),
                                                     int(searcher.tree_i[row, FIRST] + searcher.tree_i[row, COUNT]))}
    assert changed == children                       # nothing else in the tree moved
    for row, moves in expected.items():
        s = state
        for a in moves:
            s = game.play(s, a)
        first, count = int(searcher.tree_i[row, FIRST]), int(searcher.tree_i[row, COUNT])
        kids = searcher.tree_i[first:first + count, MOVE]
        planes, mover = planes_of(s)
        z = network.logits(planes[None], [mover])[0][kids].astype(np.float64)
        got = searcher.tree_f[first:first + count, PWINS].astype(np.float64) - before_f[first:first + count, PWINS]
        np.testing.assert_allclose(got, weight * np.exp(z - z.max()), rtol=1e-4, atol=1e-3)
    after = searcher.tree_f.copy()                   # evaluated once: a second walk finds nothing to do
    hook(searcher)
    assert hook.positions == len(expected) and np.array_equal(searcher.tree_f, after)
    assert np.array_equal(np.asarray(searcher.tree_i[:, :3]), before_i[:, :3])


def test_a_node_short_of_k_visits_waits_then_gets_the_prior(tmp_path):
    pytest.importorskip("onnxruntime")
    from engines.knowledge.hex.policy_network import TreePolicy
    from engines.knowledge.tree_prior import NET_PRIORED
    from engines.search.tree import FLAGS
    searcher = grown_tree(600).searcher
    network = HexPolicyNetwork(edge_network(tmp_path), N)
    k = 60
    TreePolicy(network, 10.0, k, batch=512)(searcher)
    waiting = set(entered_nodes(searcher, 15)) - set(entered_nodes(searcher, k))
    assert waiting and not any(searcher.tree_i[row, FLAGS] & NET_PRIORED for row in waiting)
    TreePolicy(network, 10.0, 15, batch=512)(searcher)
    assert all(searcher.tree_i[row, FLAGS] & NET_PRIORED for row in waiting)


def test_the_players_prior_below_the_root_follows_the_network_and_the_tree_is_kept(tmp_path):
    pytest.importorskip("onnxruntime")
    from engines.knowledge.tree_prior import NET_PRIORED
    from engines.search.rave import PWINS
    from engines.search.tree import COUNT, FIRST, FLAGS, M_ROOT, MOVE
    path = edge_network(tmp_path)
    player = grown_tree(1500, policy_network=str(path), policy_prior=200.0, policy_visits=16)
    assert player.tree_policy is not None and player.searcher.batch_hook is player.tree_policy
    searcher = player.searcher
    root = int(searcher.meta[M_ROOT])

    def priors(row):
        f, c = int(searcher.tree_i[row, FIRST]), int(searcher.tree_i[row, COUNT])
        return {int(searcher.tree_i[r, MOVE]): float(searcher.tree_f[r, PWINS]) for r in range(f, f + c)}, f, c

    assert searcher.tree_i[root, FLAGS] & NET_PRIORED
    def favourites(p):
        top = max(p.values())
        return {a for a, v in p.items() if v > top - 1e-3}

    root_priors, first, count = priors(root)         # player 0 to move: its own edges are rows 0 and N-1
    rows_edge = {a for a in root_priors if a // N in (0, N - 1)}
    assert rows_edge and favourites(root_priors) == rows_edge
    reply = max(range(first, first + count), key=lambda r: real_visits(searcher.tree_f, r))
    assert searcher.tree_i[reply, FLAGS] & NET_PRIORED      # a node below the root, player 1 to move
    reply_priors, _, _ = priors(reply)
    columns_edge = {a for a in reply_priors if a % N in (0, N - 1)}
    rows_edge = {a for a in reply_priors if a // N in (0, N - 1)}
    assert columns_edge and columns_edge != rows_edge and favourites(reply_priors) == columns_edge
    # the move played keeps its subtree and its flags
    move = int(searcher.tree_i[reply, MOVE])
    player.place(0, player.game.coords(move))
    assert int(searcher.meta[M_ROOT]) != root and searcher.tree_i[int(searcher.meta[M_ROOT]), FLAGS] & NET_PRIORED


def test_off_leaves_the_search_unchanged_and_shipped_steps_aside(tmp_path):
    from engines.players.hex import HexPlayer, HexSettings
    plain = grown_tree(400)
    path = edge_network(tmp_path)
    off = grown_tree(400, policy_network=str(path), policy_prior=0.0)
    assert plain.tree_policy is None and off.tree_policy is None and off.searcher.batch_hook is None
    size = plain.searcher.tree_size
    assert size == off.searcher.tree_size
    assert np.array_equal(plain.searcher.tree_f[:size], off.searcher.tree_f[:size])
    # 'shipped' steps aside for the mcts search; a file there is refused
    assert HexPlayer(HexSettings(search="mcts", policy_network="shipped", simulations=10), N).tree_policy is None
    with pytest.raises(ValueError, match="policy_network"):
        HexSettings(search="mcts", policy_network=str(path))
    with pytest.raises(ValueError, match="policy_prior"):
        HexSettings(policy_prior=-1.0)
