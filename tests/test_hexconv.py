"""The Hex policy CNN (engines/knowledge/hex/conv.py): the hex convolution's geometry and the framed
board, the network file (ONNX) read by the one size-checked loader and run the same by onnxruntime
and the compiled pass, the fitting, and the CNN as the RAVE search's prior."""
import json

import numpy as np
import pytest

from engines.errors import NetworkError
from engines.games import make_game
from engines.knowledge.hex import conv as hexconv
from engines.knowledge.hex.registered import network_experience, network_experience_params
from engines.knowledge.hex.conv import ConvNetwork
from engines.knowledge.hex.network import OnnxPolicy, load_network, logits
from engines.learn.hex import teacher as T
from engines.learn.network_file import save_network


def played(game, moves):
    state = game.initial_state()
    for move in moves:
        state = game.play(state, move)
    return state


def observation(game, state):
    return game.observation(state).reshape(-1).astype(np.float32)


def reader(plane: int, offset: tuple[int, int]) -> ConvNetwork:
    """One hidden channel that copies ``plane`` at the neighbour ``offset`` of each cell; the head
    passes it through at the centre tap: each cell's logit is that plane at that neighbour."""
    net = ConvNetwork(np.zeros(hexconv.param_count(1, 1), np.float32), 1, 1, 5)
    (w0, _), (w1, _) = net.arrays()
    w0[hexconv.TAPS.tolist().index(list(offset)), plane, 0] = 1.0
    w1[hexconv.TAPS.tolist().index([0, 0]), 0, 0] = 1.0
    return net


def test_the_hex_convolution_reads_the_six_neighbours_and_the_edges_as_their_owner_s_stones():
    game = make_game("hex", size=5)
    n = 5
    state = played(game, [12, 3])  # player 0 at (2, 2), player 1 at (0, 3)
    x = observation(game, state)
    # player 0's stone at (2, 2) seen from each cell through the offset (-1, +1): only the cell (3, 1)
    # sees it; the top frame row is player 0's edge, so the first row sees it too, except its last cell,
    # whose (-1, +1) is the frame's corner beyond the board (nobody's)
    up_right = logits(reader(0, (-1, 1)), x).reshape(n, n)
    expected = np.zeros((n, n))
    expected[3, 1] = 1.0
    expected[0, :n - 1] = 1.0
    assert np.array_equal(up_right, expected)
    # player 1's stones through the offset (0, -1): the left frame column is player 1's edge, and the
    # stone at (0, 3) is seen from (0, 4)
    left = logits(reader(1, (0, -1)), x).reshape(n, n)
    expected = np.zeros((n, n))
    expected[:, 0] = 1.0
    expected[0, 4] = 1.0
    assert np.array_equal(left, expected)
    # (-1, -1) is no neighbour on the Hex grid: there is no tap for it
    assert [-1, -1] not in hexconv.TAPS.tolist() and [1, 1] not in hexconv.TAPS.tolist()


def random_cnn(size: int, channels: int = 4, layers: int = 2, seed: int = 0) -> ConvNetwork:
    rng = np.random.default_rng(seed)
    return ConvNetwork(rng.normal(0, 0.5, hexconv.param_count(channels, layers)).astype(np.float32),
                       channels, layers, size)


def test_a_cnn_file_runs_the_same_in_onnxruntime_and_the_compiled_pass(tmp_path):
    pytest.importorskip("onnxruntime")
    game = make_game("hex", size=5)
    net = random_cnn(5)
    path = save_network(tmp_path / "cnn5.onnx", net, {"size": 5})
    loaded, sidecar = load_network(path, 5)
    assert isinstance(loaded, ConvNetwork) and (loaded.channels, loaded.layers, loaded.size) == (4, 2, 5)
    assert np.array_equal(loaded.params, net.params) and sidecar["conv"] == {"channels": 4, "layers": 2}
    rng = np.random.default_rng(1)
    states = [played(game, list(rng.permutation(25)[:k])) for k in (0, 1, 6, 11)]
    x = np.stack([observation(game, s) for s in states])
    reference = OnnxPolicy(path).logits(x)
    compiled = np.stack([logits(loaded, row) for row in x])
    assert np.allclose(compiled, reference, atol=1e-4)
    assert not np.allclose(compiled[0], compiled[2])  # the stones count


def test_the_loader_refuses_a_cnn_for_another_size_or_without_its_size(tmp_path):
    path = save_network(tmp_path / "cnn5.onnx", random_cnn(5), {"size": 5})
    with pytest.raises(NetworkError, match="for 5x5, not for 7x7"):
        load_network(path, 7)
    sidecar = tmp_path / "cnn5.json"
    meta = json.loads(sidecar.read_text())
    del meta["size"]
    sidecar.write_text(json.dumps(meta))
    with pytest.raises(NetworkError, match="must say the size"):
        load_network(path)
    with pytest.raises(ValueError, match="policy alone"):
        save_network(tmp_path / "v.onnx", random_cnn(5), {"size": 5}, value=object())


def test_a_cnn_plays_the_sizes_its_sidecar_lists_and_no_others(tmp_path):
    """A CNN taught on 5x5 whose sidecar lists plays [7] loads for 7x7 as the same weights on the 7x7
    board (its logits rate 49 cells), and is still refused for 6x6; a plays list that is no list of
    board sizes is refused by name."""
    net = random_cnn(5)
    path = save_network(tmp_path / "cnn5.onnx", net, {"size": 5, "plays": [7]})
    seven, _ = load_network(path, 7)
    assert seven.size == 7 and np.array_equal(seven.params, net.params)
    game = make_game("hex", size=7)
    assert logits(seven, observation(game, game.initial_state())).shape == (49,)
    assert load_network(path, 5)[0].size == 5
    with pytest.raises(NetworkError, match="for 5x5, not for 6x6"):
        load_network(path, 6)
    sidecar = tmp_path / "cnn5.json"
    for bad in ("7", [7.0], [True], [99]):
        sidecar.write_text(json.dumps({**json.loads(sidecar.read_text()), "plays": bad}))
        with pytest.raises(NetworkError, match="plays must list board sizes"):
            load_network(path, 7)


def test_the_shipped_prior_for_a_size_is_its_own_file_else_one_that_plays_it(tmp_path, monkeypatch):
    import weights
    from engines.knowledge.hex.network import shipped_prior_path
    monkeypatch.setattr(weights, "HEX_DIR", tmp_path)
    save_network(tmp_path / "prior9.onnx", random_cnn(9), {"size": 9, "plays": [11, 13]})
    save_network(tmp_path / "prior11.onnx", random_cnn(11), {"size": 11})
    assert shipped_prior_path(9) == tmp_path / "prior9.onnx"
    assert shipped_prior_path(11) == tmp_path / "prior11.onnx"  # its own file first
    assert shipped_prior_path(13) == tmp_path / "prior9.onnx"
    assert shipped_prior_path(7) is None


def test_a_cnn_prior_rates_the_children_by_its_own_logits():
    """network_experience runs the CNN (not the MLP) when handed one: each child's virtual rate is
    low + (high - low) * p / p_max of the CNN's logits."""
    game = make_game("hex", size=5)
    state = played(game, [12, 7])
    net = random_cnn(5, seed=3)
    actions = np.array(game.legal_moves(state), dtype=np.int32)
    visits, wins = np.empty(len(actions)), np.empty(len(actions))
    network_experience(state, actions, len(actions), visits, wins,
                       network_experience_params(net, visits=10.0, low=0.2, high=0.9))
    z = logits(net, observation(game, state)).astype(np.float64)[actions]
    assert np.all(visits == 10.0)
    assert np.allclose(wins / visits, 0.2 + 0.7 * np.exp(z - z.max()), atol=1e-6)
    assert actions[np.argmax(wins)] == actions[np.argmax(z)]


def test_fit_a_cnn_that_learns_the_teacher_and_exports_what_it_learned(tmp_path):
    torch = pytest.importorskip("torch")
    from engines.learn.hex.cnn import HexCNN
    T.write_shards(tmp_path / "data", 4, games=20, simulations=100, seed=1, shard_games=2)
    out = tmp_path / "cnn4.onnx"
    report = T.fit(tmp_path / "data", 4, out, epochs=10, batch_size=16, seed=1, conv=(8, 2))
    net, sidecar = load_network(out, size=4)
    assert isinstance(net, ConvNetwork) and sidecar["training"]["conv"] == {"channels": 8, "layers": 2}
    assert "value_loss" not in report["best"]
    _, held, _ = T.read_shards(tmp_path / "data", 4)
    empty = 16 - held["x"][:, :32].sum(axis=1)
    assert report["best"]["policy_loss"] < 0.8 * np.log(empty).mean()
    # the file is what was trained: loaded again, it scores what the best epoch scored, and PyTorch's
    # forward on it equals the compiled pass
    again = HexCNN(4, 8, 2)
    again.load(net)
    assert T.held_out_figures(again, held)["policy_loss"] == pytest.approx(report["best"]["policy_loss"], rel=1e-5)
    with torch.no_grad():
        torch_logits = again(torch.as_tensor(held["x"][:5])).numpy()
    assert np.allclose(torch_logits, np.stack([logits(net, x) for x in held["x"][:5]]), atol=1e-4)
    assert np.array_equal(again.network().params, net.params)
    with pytest.raises(ValueError, match="channels"):
        HexCNN(4, 4, 2).load(net)


def test_fit_takes_a_cnn_s_shape_from_the_command_line(tmp_path):
    pytest.importorskip("torch")
    from test_learn_cli import run
    data = tmp_path / "teacher"
    T.write_shards(data, 4, games=10, simulations=50, seed=1, shard_games=1)
    r = run(["hex", "fit", "--size", "4", "--data", str(data), "--out", str(tmp_path / "c4.onnx"),
             "--conv", "4,1", "--epochs", "1"])
    assert r.returncode == 0, r.stderr
    assert isinstance(load_network(tmp_path / "c4.onnx", 4)[0], ConvNetwork)
    r = run(["hex", "fit", "--size", "4", "--data", str(data), "--out", str(tmp_path / "c.onnx"), "--conv", "4"])
    assert r.returncode == 2 and "--conv" in r.stderr


def test_a_fit_stopped_after_an_epoch_leaves_its_best_network_so_far(tmp_path):
    """fit writes the best network after every epoch: stopped during its second epoch's report (as a
    killed run would be), the file is there, loads, and its sidecar says 2 of 5 epochs."""
    pytest.importorskip("torch")
    T.write_shards(tmp_path / "data", 4, games=10, simulations=50, seed=1, shard_games=1)
    out = tmp_path / "c4.onnx"
    reports = []

    def stop_at_the_second(text):
        reports.append(json.loads(text))
        if len(reports) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        T.fit(tmp_path / "data", 4, out, epochs=5, batch_size=16, conv=(4, 1), progress=stop_at_the_second)
    net, sidecar = load_network(out, 4)
    assert isinstance(net, ConvNetwork)
    assert (sidecar["training"]["epochs"], sidecar["training"]["of_epochs"]) == (2, 5)
    best = min(reports, key=lambda r: r["policy_loss"])
    assert sidecar["held_out"]["policy_epoch"] == best["epoch"]


def edge_reader(offset: tuple[int, int], weight: float = 8.0) -> ConvNetwork:
    """A 5x5 CNN whose logits are weight on the cells next to the frame row at offset ((-1, 0): the
    top row, (1, 0): the bottom row; the frame rows hold player 0's stones) and 0 elsewhere."""
    net = reader(0, offset)
    net.arrays()[0][0][hexconv.TAPS.tolist().index(list(offset)), 0, 0] = weight
    return net


@pytest.mark.parametrize("use", ["puct priors", "rollouts"])
def test_mcts_asks_a_cnn_for_its_priors_and_its_playouts_as_it_asks_an_mlp(use):
    """MCTS with a CNN (the networks shipped for 5x5-7x7 are CNNs): PUCT over its priors, or its
    greedy playouts, from the empty 5x5 board.  A CNN that favours the top row puts the search's
    visits there; the mirror CNN, which favours the bottom row, puts them on the bottom row."""
    from engines.knowledge.hex.network import policy_knowledge
    from engines.search import make_searcher
    from engines.search.result import Limits
    game = make_game("hex", size=5)
    config = ({"selection": "puct", "c": 1.0} if use == "puct priors"
              else {"selection": "uct", "rollout": "network", "epsilon": 0.0})
    row_visits = {}
    for name, offset, row in (("top", (-1, 0), 0), ("bottom", (1, 0), 4)):
        net = edge_reader(offset)
        assert logits(net, observation(game, game.initial_state())).reshape(5, 5)[row].min() == 8.0
        result = make_searcher("mcts", game, config, policy_knowledge(net), 0).search(
            game.initial_state(), Limits(simulations=400))
        visits = dict(zip(result.moves, result.visits))
        row_visits[name] = [sum(visits[game.action(r, c)] for c in range(5)) for r in (0, 4)]
    if use == "puct priors":
        assert row_visits["top"][0] > 0.8 * 400 and row_visits["bottom"][1] > 0.8 * 400, row_visits
    else:  # greedy playouts along one edge: the two CNNs' searches differ, each the other's mirror
        assert row_visits["top"] != row_visits["bottom"], row_visits
