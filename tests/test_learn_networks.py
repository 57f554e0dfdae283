"""Network files (ONNX + sidecar), the three forward passes agreeing, the network API the Hex clients
use, and the TOPP's bookkeeping."""
import io
import json

import numpy as np
import pytest

import weights
from engines.games import make_game
from engines.knowledge.hex import network as N
from engines.knowledge.bundle import Network
from engines.knowledge.hex.conv import policy_shape
from engines.knowledge.mlp import param_count
from engines.learn.network_file import save_network
from engines.learn.hex.state_manager import HexStateManager
from engines.learn.hex.topp import TOPP, load_agents


def random_network(layers, activation, seed=0):
    rng = np.random.default_rng(seed)
    return Network(rng.normal(0, 0.5, param_count(layers)).astype(np.float32), tuple(layers), activation)


@pytest.mark.parametrize("activation", ["linear", "sigmoid", "tanh", "relu"])
def test_onnxruntime_pytorch_and_compiled_forward_agree(tmp_path, activation):
    torch = pytest.importorskip("torch")
    from engines.learn.hex.anet import ANET
    anet = ANET([48, 20, 12, 16], activation, seed=3)
    for m in anet.policy:  # larger weights than the default init, so that the activations matter
        if isinstance(m, torch.nn.Linear):
            torch.nn.init.normal_(m.weight, 0, 0.6)
    net = anet.network()
    path = save_network(tmp_path / "n.onnx", net, {"size": 4, "episode": 0})
    loaded, meta = N.load_network(path)
    assert loaded.layers == (48, 20, 12, 16) and loaded.activation == activation and meta["size"] == 4
    x = np.random.default_rng(1).random((64, 48)).astype(np.float32)
    x[:32] = (x[:32] > 0.6)  # board-like 0/1 inputs too
    ort = N.OnnxPolicy(path).logits(x)
    pt = anet.forward(x)
    compiled = np.stack([N.logits(loaded, row) for row in x])
    assert np.abs(ort - pt).max() < 1e-5
    assert np.abs(compiled - pt).max() < 1e-5
    assert np.abs(compiled - ort).max() < 1e-5


@pytest.mark.parametrize("activation", ["linear", "sigmoid", "tanh", "relu"])
def test_onnx_written_without_torch_matches_the_compiled_forward(tmp_path, activation):
    net = random_network((27, 9, 9), activation)
    value = random_network((27, 5, 1), activation, seed=2)
    path = save_network(tmp_path / "v.onnx", net, {"size": 3}, value=value)
    x = np.random.default_rng(2).random((20, 27)).astype(np.float32)
    session = N.OnnxPolicy(path)
    compiled = np.stack([N.logits(net, row) for row in x])
    assert np.abs(session.logits(x) - compiled).max() < 1e-5
    v = 1 / (1 + np.exp(-np.stack([N.logits(value, row)[0] for row in x])))
    assert np.abs(session.value(x) - v).max() < 1e-5
    assert np.array_equal(N.load_value_network(path).params, value.params)


def test_value_kernel_is_the_value_network(tmp_path):
    from engines.learn.hex.value_net import network_value, value_params
    game = make_game("hex", size=3)
    value = random_network((27, 6, 1), "tanh", seed=4)
    s = game.play(game.play(game.initial_state(), 4), 0)
    expected = 1 / (1 + np.exp(-N.logits(value, game.observation(s).reshape(-1))[0]))
    assert abs(network_value(s, value_params(value)) - expected) < 1e-6
    won = game.initial_state()
    for m in (0, 1, 3, 2, 6):  # player 0 down column 0: (0,0) (1,0) (2,0)
        won = game.play(won, m)
    assert game.winner(won) == 0 and network_value(won, value_params(value)) == 1.0


def test_sidecar_holds_what_made_the_network(tmp_path):
    net = random_network((27, 4, 9), "relu")
    path = save_network(tmp_path / "x.onnx", net, {"size": 3, "episode": 7, "config": {"episodes": 9},
                                                      "figures": {"loss": np.float64(1.5)}})
    meta = json.loads(N.sidecar_path(path).read_text())
    assert meta["episode"] == 7 and meta["layers"] == [27, 4, 9] and meta["activation"] == "relu"
    assert meta["figures"]["loss"] == 1.5 and "date" in meta and meta["config"]["episodes"] == 9


def test_network_api_for_the_clients():
    game = make_game("hex", size=3)
    net = random_network((27, 8, 9), "relu", seed=5)
    state = game.play(game.initial_state(), 4)
    p = N.distribution(game, state, net)
    assert p[4] == 0 and abs(p.sum() - 1) < 1e-9
    move = N.greedy_move(game, state, net)
    assert move == int(np.argmax(p)) and move != 4
    knowledge = N.policy_knowledge(net)
    assert knowledge.network is net and knowledge.prior == "network"
    from engines.search import make_searcher
    from engines.search.result import Limits
    searcher = make_searcher("mcts", game, {"rollout": "network", "selection": "puct"}, knowledge, 0)
    assert game.is_legal(state, searcher.search(state, Limits(simulations=50)).move)


def test_shipped_networks_load_and_fit_their_board():
    found = 0
    for size in range(3, 11):
        path = N.shipped_network_path(size)
        if path is None:
            continue
        found += 1
        net, meta = N.load_network(path, size)
        assert policy_shape(net) == (3 * size * size, size * size) and meta["size"] == size
        game = make_game("hex", size=size)
        assert game.is_legal(game.initial_state(), N.greedy_move(game, game.initial_state(), net))
    assert N.shipped_network_path(19) is None
    assert found == len(list(weights.HEX_DIR.glob("hex*.onnx"))) == len(N.shipped_sizes())


def test_topp_bookkeeping():
    manager = HexStateManager(3)
    agents = [(f"a{i}", random_network((27, 6, 9), "tanh", seed=i)) for i in range(4)]
    games = 5
    result = TOPP(manager, agents, games, policy="stochastic", seed=1).run()
    assert len(result.series) == 6
    for i, j, starters, winners in result.series:
        assert len(starters) == games == len(winners)
        assert starters == [i, j, i, j, i]                    # the starting player alternates
        assert set(winners) <= {i, j}
        assert result.wins[i][j] + result.wins[j][i] == games
        assert result.wins[i][j] == winners.count(i)
    assert sum(result.totals) == 6 * games
    assert all(result.wins[i][i] == 0 for i in range(4))
    table = result.table()
    assert "total" in table and f"{result.totals[0]}/{3 * games}" in table


def preference_network(size: int, as_first, as_second) -> Network:
    """A linear network whose greedy move is the first empty cell of a list of (row, col): as_first
    when player 1 (rows, moving first) is to move, as_second when player 2 (columns) is.  The bias
    holds as_first's preferences; the plane "player 2 to move" (all ones) shifts them to as_second's
    through the weights of its first cell."""
    nn = size * size

    def preferences(cells):
        z = np.zeros(nn, dtype=np.float32)
        for rank, (r, c) in enumerate(cells):
            z[r * size + c] = len(cells) - rank
        return z
    w = np.zeros((3 * nn, nn), dtype=np.float32)
    w[2 * nn] = preferences(as_second) - preferences(as_first)
    return Network(np.concatenate([w.reshape(-1), preferences(as_first)]), (3 * nn, nn), "linear")


# on 3x3: STRONG builds column b as player 1 and row 2 as player 2; WEAK fills row 1 whichever side
# it plays, which never joins its edges nor blocks STRONG, so STRONG wins every game from either seat
STRONG = preference_network(3, as_first=[(0, 1), (1, 1), (2, 1)], as_second=[(1, 0), (1, 1), (1, 2)])
WEAK = preference_network(3, as_first=[(0, 0), (0, 1), (0, 2)], as_second=[(0, 0), (0, 1), (0, 2)])


@pytest.mark.parametrize("order", [("weak", "strong"), ("strong", "weak")])
def test_topp_credits_each_game_to_its_winner(order):
    """A known-stronger agent wins every game of its series, as first and as second player: the
    table must give the wins to it (and not, say, to the loser of each game)."""
    agents = [(name, {"strong": STRONG, "weak": WEAK}[name]) for name in order]
    strong, weak = order.index("strong"), order.index("weak")
    result = TOPP(HexStateManager(3), agents, games=4, policy="greedy").run()
    (i, j, starters, winners), = result.series
    assert starters == [i, j, i, j] and winners == [strong] * 4  # both seats, always the strong agent
    assert result.wins[strong][weak] == 4 and result.wins[weak][strong] == 0
    assert result.totals[strong] == 4 and result.totals[weak] == 0
    row = next(line for line in result.table().splitlines() if line.startswith("strong"))
    assert row.split()[-1] == "4/4"


def test_topp_greedy_is_deterministic_and_stochastic_follows_the_seed():
    manager = HexStateManager(3)
    agents = [(f"a{i}", random_network((27, 6, 9), "relu", seed=i)) for i in range(3)]
    greedy = [TOPP(manager, agents, 4, "greedy", seed=s).run().wins for s in (1, 2)]
    assert greedy[0] == greedy[1]
    for _, _, _, winners in TOPP(manager, agents, 4, "greedy").run().series:
        assert winners[0] == winners[2] and winners[1] == winners[3]  # same starter, same game
    a = TOPP(manager, agents, 6, "stochastic", seed=3).run().series
    b = TOPP(manager, agents, 6, "stochastic", seed=3).run().series
    assert a == b


def test_topp_display_draws_every_game():
    manager = HexStateManager(3)
    agents = [(f"a{i}", random_network((27, 6, 9), "relu", seed=i)) for i in range(2)]
    out = io.StringIO()
    TOPP(manager, agents, 2, display=True, stream=out).run()
    text = out.getvalue()
    assert text.count("(X, rows) against") == 2 and "winner: player" in text
    out = io.StringIO()
    TOPP(manager, agents, 2, display=False, stream=out).run()
    assert out.getvalue() == ""


def test_topp_files_and_loading_a_directory(tmp_path):
    for ep in (0, 5, 10):
        save_network(tmp_path / f"anet_{ep:05d}.onnx", random_network((27, 6, 9), "relu", seed=ep),
                        {"size": 3, "episode": ep, "config": {"games": 3}})
    agents, meta = load_agents(tmp_path)
    assert [n for n, _ in agents] == ["ep0", "ep5", "ep10"] and meta["size"] == 3
    result = TOPP(HexStateManager(3), agents, 3).run()
    csv_text = result.save_csv(tmp_path / "t.csv").read_text().splitlines()
    assert csv_text[0] == "agent,ep0,ep5,ep10,total,played" and len(csv_text) == 4
    from engines.learn.plots import heat_map
    assert heat_map(tmp_path / "t.png", result.names, result.wins, 3).stat().st_size > 0
    with pytest.raises(FileNotFoundError):
        load_agents(tmp_path / "empty")
