"""Any user's ONNX policy network plays (issue 33, item 8): networks of other architectures than plies'
own, built here with onnx.helper (an MLP on the tournament's state vector with a softmax, a conv net
on NCHW planes, an MLP on the 2-bits-a-cell vector without a batch dimension, an NHWC conv net), read
by the one loader (engines/knowledge/hex/network.py), run by onnxruntime, and played through every
Hex entry path: plies-gtp-hex's genmove, the tournament client's action, `plies hex play --network`,
the TOPP over two user networks, and the player's search (the network as the root's prior).  Networks
that do not fit are refused at load, the message naming the file and the reason; and the compiled
pass equals onnxruntime on the shipped networks.

Each network is designed so that its move says whether it was fed right: the state MLP's favourite
depends on the player to move, the conv net's on which plane a stone is on, the bits MLP's on both."""
import json

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import weights
from adapters import cli, gtp_hex
from adapters import oht_client as C
from engines.games import make_game
from engines.knowledge.hex import network as N
from engines.players.hex import HexPlayer, HexSettings

pytest.importorskip("onnxruntime")
SIZE = 5
NN = SIZE * SIZE
BOTTOM_RIGHT, TOP_LEFT, CENTRE = NN - 1, 0, NN // 2


def save(path, nodes, inputs, outputs, arrays, sidecar=None):
    inits = [numpy_helper.from_array(np.asarray(a, np.float32), name) for name, a in arrays.items()]
    graph = helper.make_graph(nodes, path.stem, inputs, outputs, inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    if sidecar is not None:
        N.sidecar_path(path).write_text(json.dumps(sidecar))
    return path


def tensor(name, dims):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, dims)


def state_mlp(path, n=SIZE, outputs=None, sidecar=None, width=None, favourites=(-1, 0)):
    """Input "x" [N, 1+n*n] (the tournament's state: player 1 or 2, then the cells), a linear layer,
    a softmax: player 1 to move prefers the cell favourites[0] (the bottom-right corner), player 2
    favourites[1] (the top-left one), then the centre (no sidecar: the size and the encoding come
    from the shapes)."""
    nn = n * n
    outputs = outputs or nn
    w = np.zeros((width or 1 + nn, outputs))
    b = np.zeros(outputs)
    if outputs == nn:
        first, second = (f % nn for f in favourites)
        w[0, first], b[first] = -5.0, 7.5      # player 1 (x[0] = 1): +2.5; player 2: -2.5
        w[0, second], b[second] = 5.0, -7.5    # player 1: -2.5; player 2: +2.5
        b[nn // 2] = 1.0
    nodes = [helper.make_node("MatMul", ["x", "w"], ["xw"]), helper.make_node("Add", ["xw", "b"], ["z"]),
             helper.make_node("Softmax", ["z"], ["probs"], axis=-1)]
    return save(path, nodes, [tensor("x", ["N", width or 1 + nn])], [tensor("probs", ["N", outputs])],
                {"w": w, "b": b}, sidecar)


def planes4_cnn(path, n=SIZE):
    """Input [1, 4, n, n] (empty, player-1, player-2, player-2-to-move planes), one 3x3 convolution: a
    cell's logit is player 1's stone right above it, half player 2's stone right above it, and a hundredth
    for being empty; then Flatten to [1, n*n].  The sidecar names the size and the encoding."""
    w = np.zeros((1, 4, 3, 3))
    w[0, 1, 0, 1] = 1.0      # the player-1 plane at (r-1, c)
    w[0, 2, 0, 1] = 0.5      # the player-2 plane at (r-1, c)
    w[0, 0, 1, 1] = 0.01     # the empty plane at (r, c)
    nodes = [helper.make_node("Conv", ["planes", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Flatten", ["c"], ["policy"])]
    return save(path, nodes, [tensor("planes", [1, 4, n, n])], [tensor("policy", [1, n * n])],
                {"w": w, "b": np.zeros(1)}, {"size": n, "encoding": "planes4", "made_by": "a student"})


def bits_mlp(path, n=SIZE):
    """Input [2+2*n*n] without a batch dimension (player to move as 2 bits, then 2 bits a cell): a cell's
    logit is player 2's stone on its left, plus 2 on the last cell when player 1 is to move, plus a
    hundredth (output [n*n], no batch either)."""
    nn = n * n
    w = np.zeros((2 + 2 * nn, nn))
    for k in range(nn):
        if k % n:
            w[2 + 2 * (k - 1) + 1, k] = 1.0
    w[0, nn - 1] = 2.0
    nodes = [helper.make_node("MatMul", ["bits", "w"], ["xw"]), helper.make_node("Add", ["xw", "b"], ["logits"])]
    return save(path, nodes, [tensor("bits", [2 + 2 * nn])], [tensor("logits", [nn])],
                {"w": w, "b": np.full(nn, 0.01)})


def nhwc_cnn(path, n=SIZE):
    """Input [N, n, n, 3] (plies' own planes, channels last), a transpose and a 1x1 convolution, output
    [N, n, n] (the move values as a grid): player-1 stones minus player-2 stones, minus the turn plane."""
    nodes = [helper.make_node("Transpose", ["x"], ["t"], perm=[0, 3, 1, 2]),
             helper.make_node("Conv", ["t", "w", "b"], ["c"]),
             helper.make_node("Reshape", ["c", "shape"], ["grid"])]
    arrays = {"w": np.array([1.0, -1.0, -1.0]).reshape(1, 3, 1, 1), "b": np.zeros(1)}
    path = save(path, nodes, [tensor("x", ["N", n, n, 3])], [tensor("grid", ["N", n, n])], arrays)
    model = onnx.load(str(path))
    model.graph.initializer.append(numpy_helper.from_array(np.array([-1, n, n], np.int64), "shape"))
    onnx.save(model, str(path))
    return path


def position(game, stones, to_move):
    """A state with stones {(row, col): 1 or 2} and to_move (0: player 1)."""
    cells = np.zeros((game.size, game.size), np.int8)
    for (r, c), v in stones.items():
        cells[r, c] = v
    return game.state_from_cells(cells, to_move)


@pytest.fixture(scope="module")
def nets(tmp_path_factory):
    folder = tmp_path_factory.mktemp("users")
    return {"state": state_mlp(folder / "state_mlp.onnx"), "planes4": planes4_cnn(folder / "planes4_cnn.onnx"),
            "bits": bits_mlp(folder / "bits_mlp.onnx"), "nhwc": nhwc_cnn(folder / "nhwc_cnn.onnx")}


# ==== the loader =====================================================================================
def test_each_architecture_is_read_with_its_size_encoding_and_layout(nets):
    expected = {"state": ("state", "flat", True, True), "planes4": ("planes4", "nchw", True, False),
                "bits": ("bits", "flat", False, False), "nhwc": ("planes", "nhwc", True, False)}
    for name, path in nets.items():
        net, _ = N.load_network(path, SIZE)
        assert isinstance(net, N.RuntimeNetwork) and N.network_size(net) == SIZE
        assert (net.encoding, net.layout, net.batched, net.probabilities) == expected[name]


def test_a_fixed_example_batch_an_integer_input_and_a_value_head_are_taken_as_exported(tmp_path):
    """Exports as students make them: the example batch fixed at 4 (positions run 4 at a time, padded),
    the board as int64 cast inside the graph, and a value output beside the policy (the one with n*n
    values a position is the policy)."""
    game = make_game("hex", size=SIZE)
    nn = NN
    w = np.zeros((1 + nn, nn))
    w[0, 0], w[0, nn - 1] = 1.0, -1.0          # player 2 (x[0] = 2) prefers the top-left, player 1 the last cell
    b = np.zeros(nn)
    b[0], b[nn - 1] = -1.5, 1.5                 # player 1: -0.5 and +0.5; player 2: +0.5 and -0.5
    value_w = np.ones((1 + nn, 1))
    nodes = [helper.make_node("Cast", ["state"], ["xf"], to=TensorProto.FLOAT),
             helper.make_node("MatMul", ["xf", "w"], ["xw"]), helper.make_node("Add", ["xw", "b"], ["policy"]),
             helper.make_node("MatMul", ["xf", "vw"], ["v"]), helper.make_node("Tanh", ["v"], ["value"])]
    inputs = [helper.make_tensor_value_info("state", TensorProto.INT64, [4, 1 + nn])]
    path = save(tmp_path / "fixed4.onnx", nodes, inputs, [tensor("value", [4, 1]), tensor("policy", [4, nn])],
                {"w": w, "b": b, "vw": value_w})
    net, _ = N.load_network(path)
    assert (net.batch, net.encoding, net.output_name, net.input_dtype) == (4, "state", "policy", np.int64)
    states = [position(game, {}, 0), position(game, {(4, 4): 1}, 1), position(game, {(2, 2): 1}, 1),
              position(game, {(0, 0): 2, (2, 2): 1}, 0), position(game, {(1, 1): 1}, 1)]
    x = np.stack([game.observation(s).reshape(-1) for s in states])
    z = net.logits(x)                           # 5 positions: a run of 4 and a padded run
    assert z.shape == (5, nn)
    assert [int(np.argmax(row)) for row in z] == [nn - 1, 0, 0, nn - 1, 0]
    assert N.greedy_move(game, states[1], net) == 0


def test_the_encodings_of_a_position():
    game = make_game("hex", size=3)
    state = position(game, {(0, 0): 1, (1, 2): 2}, to_move=1)
    obs = game.observation(state).reshape(-1)
    assert N.encode("state", obs, 3).tolist() == [2, 1, 0, 0, 0, 0, 2, 0, 0, 0]
    assert N.encode("bits", obs, 3).tolist() == [0, 1, 1, 0] + [0, 0] * 4 + [0, 1] + [0, 0] * 3
    planes4 = N.encode("planes4", obs, 3).reshape(4, 3, 3)
    assert planes4[0].sum() == 7 and planes4[1, 0, 0] == planes4[2, 1, 2] == 1 and (planes4[3] == 1).all()
    assert np.array_equal(N.encode("planes", obs, 3), obs)
    first = game.observation(position(game, {}, 0)).reshape(-1)
    assert N.encode("state", first, 3)[0] == 1 and N.encode("bits", first, 3)[:2].tolist() == [1, 0]


def test_the_state_mlp_plays_for_the_player_to_move_and_only_on_empty_cells(nets):
    game = make_game("hex", size=SIZE)
    net, _ = N.load_network(nets["state"])
    assert N.greedy_move(game, position(game, {}, 0), net) == BOTTOM_RIGHT
    assert N.greedy_move(game, position(game, {(4, 4): 1}, 1), net) == TOP_LEFT
    assert N.greedy_move(game, position(game, {(4, 4): 2, (1, 1): 1}, 0), net) == CENTRE  # its favourite taken
    p = N.distribution(game, position(game, {(4, 4): 2, (1, 1): 1}, 0), net)
    assert p[BOTTOM_RIGHT] == p[6] == 0 and abs(p.sum() - 1) < 1e-9   # the softmax's output renormalised
    assert abs(p[CENTRE] / p[1] - np.e) < 1e-4   # the centre's logit is 1 above the others': e times as likely


def test_the_planes_cnn_tells_player_1s_stones_from_player_2s(nets):
    game = make_game("hex", size=SIZE)
    net, _ = N.load_network(nets["planes4"], SIZE)
    state = position(game, {(1, 2): 1, (3, 3): 2}, 0)
    assert game.coords(N.greedy_move(game, state, net)) == (2, 2)     # below player 1's stone
    swapped = position(game, {(1, 2): 2, (3, 3): 1}, 0)
    assert game.coords(N.greedy_move(game, swapped, net)) == (4, 3)   # below player 1's stone, now at (3, 3)


def test_the_bits_mlp_reads_the_player_bits_and_the_cells(nets):
    game = make_game("hex", size=SIZE)
    net, _ = N.load_network(nets["bits"], SIZE)
    assert N.greedy_move(game, position(game, {(2, 1): 2, (0, 0): 1}, 0), net) == BOTTOM_RIGHT
    assert game.coords(N.greedy_move(game, position(game, {(2, 1): 2, (0, 0): 1, (3, 3): 1}, 1), net)) == (2, 2)


def test_the_runtime_logits_are_the_networks_own_on_a_batch(nets):
    """The NHWC net's logits are player-1 minus player-2 stones minus the turn plane, cell by cell."""
    game = make_game("hex", size=SIZE)
    net, _ = N.load_network(nets["nhwc"])
    states = [position(game, {(0, 1): 1, (2, 2): 2}, t) for t in (0, 1)]
    obs = np.stack([game.observation(s).reshape(-1) for s in states])
    planes = obs.reshape(2, 3, NN)
    assert np.allclose(net.logits(obs), planes[:, 0] - planes[:, 1] - planes[:, 2])


def refused(path, size=None) -> str:
    with pytest.raises(N.NetworkError) as err:
        N.load_network(path, size)
    message = str(err.value)
    assert str(path) in message and isinstance(err.value, ValueError)
    return message


def test_a_network_for_another_size_is_refused_naming_both(nets):
    assert refused(nets["state"], 7) == f"{nets['state']} is a network for 5x5, not for 7x7"
    assert "for 5x5, not for 6x6" in refused(nets["planes4"], 6)


def test_networks_that_do_not_fit_are_refused_with_the_reason(tmp_path):
    garbage = tmp_path / "garbage.onnx"
    garbage.write_bytes(b"\x08\x07 no network" * 20)
    assert "is not a readable ONNX network" in refused(garbage)
    assert "gives 24 values a position, not n*n move values" in refused(state_mlp(tmp_path / "o24.onnx", outputs=24))
    told = state_mlp(tmp_path / "o24s.onnx", outputs=24, sidecar={"size": 5})
    assert "gives 24 values for one position, not the 25 move values of a 5x5 board" in refused(told)
    assert "input of 30 values fits no encoding of a 5x5 board" in refused(state_mlp(tmp_path / "w30.onnx", width=30))
    onehot = state_mlp(tmp_path / "onehot.onnx", sidecar={"encoding": "onehot"})
    assert "encoding 'onehot' is none of planes, planes4, state, bits" in refused(onehot)
    wrong = state_mlp(tmp_path / "wrong.onnx", sidecar={"encoding": "bits"})
    assert "takes 26 values, the bits encoding of a 5x5 board is 52" in refused(wrong)
    two = save(tmp_path / "two.onnx", [helper.make_node("Add", ["a", "b"], ["y"])],
               [tensor("a", [1, 26]), tensor("b", [1, 26])], [tensor("y", [1, 26])], {})
    assert "takes one input (the board), this one takes 2: a, b" in refused(two)
    unsized = save(tmp_path / "unsized.onnx", [helper.make_node("Relu", ["x"], ["y"])], [tensor("x", ["N", "F"])],
                   [tensor("y", ["N", "F"])], {})
    assert "its shapes say no board size: give it a sidecar unsized.json" in refused(unsized)
    tiny = state_mlp(tmp_path / "two_by_two.onnx", n=2)
    assert "Hex is played on 3x3 to 19x19" in refused(tiny)


def test_a_user_network_cannot_enter_the_compiled_search(nets):
    net, _ = N.load_network(nets["state"])
    with pytest.raises(N.NetworkError, match="runs in onnxruntime, which the compiled search cannot call"):
        N.policy_knowledge(net)


def shipped_actor_networks():
    """The shipped actor networks (the tree prior's policy CNN, weights/hex/policy<n>.onnx, is another kind,
    run by onnxruntime only: tests/test_hex_policy.py)."""
    paths = sorted(weights.HEX_DIR.glob("*.onnx")) + sorted(weights.HEX_DIR.glob("*/*.onnx"))
    return [p for p in paths if not p.name.startswith("policy")]


@pytest.mark.parametrize("path", shipped_actor_networks(), ids=lambda p: p.relative_to(weights.HEX_DIR).as_posix())
def test_the_compiled_pass_equals_onnxruntime_on_the_shipped_networks(path):
    net, _ = N.load_network(path)
    assert not isinstance(net, N.RuntimeNetwork)  # the shipped architectures keep the compiled fast path
    game = make_game("hex", size=N.network_size(net))
    rng = np.random.default_rng(3)
    states = [game.initial_state()]
    for k in (1, 4, 9, game.num_actions // 2):
        state = game.initial_state()
        for a in rng.permutation(game.num_actions)[:k]:
            if not game.is_terminal(state):
                state = game.play(state, int(a))
        states.append(state)
    x = np.stack([game.observation(s).reshape(-1) for s in states]).astype(np.float32)
    reference = N.OnnxPolicy(path).logits(x)
    compiled = np.stack([N.logits(net, row) for row in x])
    assert np.abs(compiled - reference).max() < 1e-5   # float32 sums in another order: a few 1e-6 at most


# ==== every entry path ===============================================================================
def test_plies_gtp_hex_genmove_plays_a_user_network(nets):
    session = gtp_hex.HexSession(gtp_hex.Settings(network=str(nets["planes4"]), mode="greedy"))
    engine = gtp_hex.make_engine(session)
    assert session.game.size == SIZE   # the network's size, from its sidecar
    assert engine.handle("play b c2") == "= \n\n"    # (1, 2)
    assert engine.handle("play w d4") == "= \n\n"    # (3, 3)
    assert engine.handle("genmove b") == "= c3\n\n"  # below black's stone: black is player 1 (rows)


def test_the_plies_gtp_hex_process_plays_a_user_network(nets):
    """The engine as a GTP controller runs it: its own process, the network from the command line."""
    import subprocess
    from conftest import ROOT
    from standins.hex_referee import ENGINE
    done = subprocess.run([*ENGINE, "--network", str(nets["state"]), "--mode", "greedy"], cwd=ROOT, timeout=120,
                          input=b"genmove b\nplay b b2\ngenmove w\nquit\n", capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    # black (player 1) takes its favourite corner; white (player 2) its own, the top-left, is free
    assert done.stdout == b"= e5\n\n= \n\n= a1\n\n= \n\n"


def test_plies_gtp_hex_refuses_a_network_that_does_not_fit(tmp_path, capsys):
    bad = state_mlp(tmp_path / "bad.onnx", width=30)
    assert gtp_hex.main(["--network", str(bad)]) == 3
    assert f"{bad}: an input of 30 values fits no encoding" in capsys.readouterr().err


class Ready:
    """The compiled-kernel cache as ready (the tests' warm-up compiled it)."""

    def ready(self):
        return True

    def close(self):
        pass


def test_the_tournament_client_plays_a_user_network(nets, tmp_path):
    settings = C.Settings(network=str(nets["state"]), mode="greedy", log=str(tmp_path / "games.log"))
    agent = C.OHTAgent(settings, C.Record(settings.log), compiler=Ready())
    agent.series_start(7, 2, [(7, 2), (8, 1)], 2, [SIZE])
    agent.game_start(1)
    state = (2,) + (0,) * (NN - 1) + (1,)   # player 1 took the bottom-right corner; we are player 2
    assert agent.get_action(state) == (0, 0)
    assert agent.get_action((2, 1) + (0,) * (NN - 2) + (1,)) == (2, 2)   # its favourite taken: the centre
    agent.close()


def test_the_tournament_client_refuses_a_user_network_of_another_size_at_the_series_start(nets, tmp_path):
    settings = C.Settings(network=str(nets["state"]), mode="greedy", log=str(tmp_path / "games.log"))
    agent = C.OHTAgent(settings, C.Record(settings.log), compiler=Ready())
    with pytest.raises(N.NetworkError, match="is a network for 5x5, not for 7x7"):
        agent.series_start(7, 2, [(7, 2), (8, 1)], 2, [7])
    agent.close()


def test_plies_hex_play_plays_a_user_network_greedy_and_with_search(nets, capsys):
    assert cli.main(["hex", "play", "--network", str(nets["bits"]), "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "bits_mlp (greedy) plays (4,4)" in out and "won" in out and "of 2 against random" in out
    assert cli.main(["hex", "play", "--network", str(nets["state"]), "--games", "1", "--simulations", "64",
                     "--quiet"]) == 0
    assert "state_mlp (search) won" in capsys.readouterr().out


def test_plies_hex_play_refuses_a_network_that_does_not_fit(tmp_path, capsys):
    bad = state_mlp(tmp_path / "onehot.onnx", sidecar={"encoding": "onehot"})
    assert cli.main(["hex", "play", "--network", str(bad)]) == 5
    assert "its sidecar's encoding 'onehot' is none of" in capsys.readouterr().err


def test_the_topp_over_two_user_networks(tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    state_mlp(folder / "a_state.onnx")
    bits_mlp(folder / "b_bits.onnx")
    assert cli.main(["hex", "topp", str(folder), "--games", "2", "--no-progress", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "TOPP: 2 networks, 2 games a pair, greedy moves, 5x5" in out
    rows = (tmp_path / "topp.csv").read_text().splitlines()
    assert rows[0].startswith("agent,a_state,b_bits") and len(rows) == 3
    # greedy against greedy, each network first once: the same games played here by the networks decide
    from engines.learn.hex.agents import NetworkAgent, play_game
    game = make_game("hex", size=SIZE)
    a, b = (NetworkAgent(game, N.load_network(folder / f)[0]) for f in ("a_state.onnx", "b_bits.onnx"))
    a_wins = (play_game(game, a, b) == 0) + (play_game(game, b, a) == 1)
    assert [int(r.split(",")[-2]) for r in rows[1:]] == [a_wins, 2 - a_wins]


# ==== the search: the network as the root's prior ======================================================
def test_the_search_takes_a_user_networks_probabilities_at_its_root(tmp_path):
    """RAVE's root children start with the network's experience: with few simulations the network's
    favourite, a move the search alone does not pick, is the move; asked again at each new root."""
    game = make_game("hex", size=7)
    favourite, reply = game.action(5, 1), game.action(1, 5)
    path = state_mlp(tmp_path / "fav7.onnx", n=7, favourites=(favourite, reply))
    # without H-search at the root: after (5, 1) it keeps White to the must-play cells, wherever a prior points
    settings = {"time": 0, "simulations": 24, "seed": 0, "root_connections": False}
    alone = HexPlayer(HexSettings(**settings, network="none", prior="none"), 7)
    guided = HexPlayer(HexSettings(**settings, network=str(path)), 7)
    assert guided.root_prior is not None and "the root's prior from fav7.onnx" in guided.describe()
    assert alone.genmove(0) != (5, 1)
    assert guided.genmove(0) == (5, 1)
    guided.place(0, (5, 1))
    assert guided.genmove(1) == (1, 5)    # the new root's prior: player 2's favourite
    as_prior = HexPlayer(HexSettings(**settings, network="none", prior=str(path)), 7)
    assert as_prior.root_prior is not None and as_prior.genmove(0) == (5, 1)
