"""Hex networks taught by the knowledge-rich search (engines/learn/hex/teacher.py) and a policy
network as RAVE's prior (engines.knowledge.hex.network_experience)."""
import json
import pathlib

import numpy as np
import pytest

from conftest import ROOT
from engines.games import make_game
from engines.knowledge import mlp
from engines.knowledge.bundle import Network
from engines.knowledge.hex.registered import (NET_AFTER, NET_COST, RAVE_CONFIG, heavy_knowledge, network_experience,
                                  network_experience_params, network_prior_strength)
from engines.learn.hex import teacher as T
from engines.learn.hex.state_manager import HexStateManager
from engines.search import Limits, make_searcher
from engines.search.rave import PVISITS, VISITS
from engines.search.tree import COUNT, FIRST, M_ROOT


def test_a_teacher_game_records_each_position_with_the_search_s_distribution_and_the_result():
    manager = HexStateManager(4)
    searcher = T.teacher_searcher(manager.game, seed=3)
    x, d, z, moves = T.teacher_game(manager, searcher, 200, 2, np.random.default_rng(0))
    game = manager.game
    state = game.initial_state()
    assert len(x) == len(d) == len(z) == len(moves)
    for i, move in enumerate(moves):
        np.testing.assert_array_equal(x[i], manager.encode(state))
        assert d[i].sum() == pytest.approx(1.0) and d[i][move] > 0
        assert all(d[i][a] == 0 for a in range(game.num_actions) if a not in game.legal_moves(state))
        state = game.play(state, move)
    assert game.is_terminal(state)
    assert set(z) == {1.0 if game.winner(state) == 0 else 0.0}


def test_shards_resume_where_a_run_stopped(tmp_path):
    first = T.write_shards(tmp_path, 4, games=3, simulations=50, seed=2, shard_games=1)
    assert [p.name for p in first] == [f"teacher-4x4-s2-000{k}.npz" for k in range(3)]
    kept = first[0].read_bytes()
    first[1].unlink()
    again = T.write_shards(tmp_path, 4, games=3, simulations=50, seed=2, shard_games=1)
    assert [p.name for p in again] == ["teacher-4x4-s2-0001.npz"]  # only the missing shard is played
    assert first[0].read_bytes() == kept
    with np.load(again[0]) as data:
        settings = json.loads(str(data["settings"]))
        assert settings["size"] == 4 and settings["simulations"] == 50 and settings["games"] == 1
        assert set(np.unique(data["game"])) == {0}



def shard_arrays(folder):
    """Each shard file's arrays, by name (the settings' timing and date left out)."""
    out = {}
    for path in sorted(pathlib.Path(folder).glob("teacher-*.npz")):
        with np.load(path) as data:
            out[path.name] = [data[k].copy() for k in ("x", "d", "z", "game")]
    return out


def same_shards(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(all(np.array_equal(u, v) for u, v in zip(a[k], b[k])) for k in a)


def test_a_shard_is_the_same_played_here_in_worker_processes_or_again_after_a_stop(tmp_path):
    """A shard's games depend on the seed and the shard's number only: two worker processes write
    the shards one process writes, and a shard played again (resumed) is the shard it was."""
    T.write_shards(tmp_path / "here", 4, games=4, simulations=40, seed=3, shard_games=1)
    T.write_shards(tmp_path / "workers", 4, games=4, simulations=40, seed=3, shard_games=1, workers=2)
    here = shard_arrays(tmp_path / "here")
    assert len(here) == 4 and same_shards(here, shard_arrays(tmp_path / "workers"))
    assert not np.array_equal(here["teacher-4x4-s3-0000.npz"][0], here["teacher-4x4-s3-0001.npz"][0])
    (tmp_path / "here" / "teacher-4x4-s3-0002.npz").unlink()
    T.write_shards(tmp_path / "here", 4, games=4, simulations=40, seed=3, shard_games=1)
    assert same_shards(here, shard_arrays(tmp_path / "here"))

def test_a_run_stopped_while_writing_leaves_no_half_shard(tmp_path, monkeypatch):
    def stopped(file, **arrays):  # the process is stopped with half the file written
        pathlib.Path(file).write_bytes(b"half a shard")
        raise KeyboardInterrupt
    T.write_shards(tmp_path, 4, games=1, simulations=50, seed=2, shard_games=1)
    monkeypatch.setattr(T.np, "savez_compressed", stopped)
    with pytest.raises(KeyboardInterrupt):
        T.write_shards(tmp_path, 4, games=2, simulations=50, seed=2, shard_games=1)
    monkeypatch.undo()
    assert len(T.read_shards(tmp_path, 4)[2]) == 1  # the half-written file is not read as a shard
    assert [p.name for p in T.write_shards(tmp_path, 4, games=2, simulations=50, seed=2, shard_games=1)] == [
        "teacher-4x4-s2-0001.npz"]  # and the shard is played again


def test_fit_writes_a_network_with_a_value_head_that_learns_the_teacher(tmp_path):
    pytest.importorskip("torch")
    from engines.knowledge.hex.network import load_network, load_value_network
    T.write_shards(tmp_path / "data", 4, games=20, simulations=100, seed=1, shard_games=2)
    out = tmp_path / "net4.onnx"
    report = T.fit(tmp_path / "data", 4, out, hidden=(32,), epochs=15, batch_size=16, seed=1)
    policy, sidecar = load_network(out, size=4)
    assert load_value_network(out) is not None and policy.layers == (48, 32, 16)
    assert sidecar["teacher"]["games"] == 20 and sidecar["held_out"] == report["best"]
    # trained, it predicts the held-out teacher's moves better than the uniform guess over the empty
    # cells does (the cross-entropy of that guess is the mean of ln(empty cells))
    _, held, _ = T.read_shards(tmp_path / "data", 4)
    empty = 16 - held["x"][:, :32].sum(axis=1)
    assert report["best"]["policy_loss"] < 0.8 * np.log(empty).mean()
    assert report["best"]["teacher_move_match"] > (1 / empty).mean()
    # the file holds each head from its own best epoch: loaded again, it scores what the best epochs scored
    history = report["history"]
    assert report["best"]["policy_loss"] == min(h["policy_loss"] for h in history)
    assert report["best"]["value_loss"] == min(h["value_loss"] for h in history)
    from engines.learn.hex.anet import ANET
    again = ANET(list(policy.layers), value_head=True)
    again.load(policy, load_value_network(out))
    figures = T.held_out_figures(again, held)
    assert figures["policy_loss"] == pytest.approx(report["best"]["policy_loss"], rel=1e-5)
    assert figures["value_loss"] == pytest.approx(report["best"]["value_loss"], rel=1e-5)
    with pytest.raises(FileNotFoundError, match="5x5"):
        T.fit(tmp_path / "data", 5, tmp_path / "net5.onnx")


def favouring(size: int, cell: int) -> Network:
    """A policy network whose logits ignore the board and favour one cell (its last bias)."""
    nn = size * size
    layers = (3 * nn, 4, nn)
    params = np.zeros(mlp.param_count(layers), np.float32)
    params[-nn + cell] = 5.0
    return Network(params, layers, "relu")


def test_network_experience_gives_the_network_s_favourite_the_best_virtual_rate():
    game = make_game("hex", size=5)
    state = game.initial_state()
    actions = np.array(game.legal_moves(state), dtype=np.int32)
    visits, wins = np.empty(len(actions)), np.empty(len(actions))
    network_experience(state, actions, len(actions), visits, wins,
                       network_experience_params(favouring(5, 7), visits=20.0, low=0.3, high=0.8))
    assert np.all(visits == 20.0)
    rates = wins / visits
    assert rates[list(actions).index(7)] == pytest.approx(0.8)
    others = np.delete(rates, list(actions).index(7))
    assert np.allclose(others, 0.3 + 0.5 * np.exp(-5.0))


def test_rave_with_a_network_prior_spends_its_visits_on_the_network_s_move():
    """Few simulations on an empty 7x7: without a network the edge cell b1 gets few visits; with a
    network that favours it, the prior makes it the most visited root move."""
    game = make_game("hex", size=7)
    edge = 1
    plain = make_searcher("rave", game, RAVE_CONFIG, heavy_knowledge(game), 1)
    taught = make_searcher("rave", game, RAVE_CONFIG, heavy_knowledge(game, network=favouring(7, edge),
                                                                      visits=50.0, low=0.3, high=0.9), 1)
    for searcher, favoured in ((plain, False), (taught, True)):
        result = searcher.search(game.initial_state(), Limits(simulations=300))
        most = result.moves[int(np.argmax(result.visits))]
        assert (most == edge) == favoured


def test_teach_then_fit_from_the_command_line(tmp_path):
    """`plies hex teach` then `plies hex fit` as a user runs them; a second teach resumes (plays nothing
    new); fit refuses the shipped weights folder and too little data with one line each."""
    pytest.importorskip("torch")
    from test_learn_cli import run
    data = tmp_path / "teacher"
    r = run(["hex", "teach", "--size", "4", "--games", "10", "--simulations", "50", "--shard-games", "1",
             "--out", str(data)])
    assert r.returncode == 0, r.stderr
    assert "10 new shards" in r.stdout and len(list(data.glob("teacher-4x4-s1-*.npz"))) == 10
    r = run(["hex", "teach", "--size", "4", "--games", "10", "--simulations", "50", "--shard-games", "1",
             "--out", str(data)])
    assert r.returncode == 0 and "0 new shards" in r.stdout
    r = run(["hex", "fit", "--size", "4", "--data", str(data), "--out", str(tmp_path / "n4.onnx"),
             "--hidden", "16", "--epochs", "2"])
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "n4.onnx").is_file() and (tmp_path / "n4.json").is_file() and "held-out" in r.stdout
    r = run(["hex", "fit", "--size", "4", "--data", str(data), "--out", "weights/hex/x4.onnx"])
    assert r.returncode == 4 and "weights" in r.stderr and not (ROOT / "weights/hex/x4.onnx").exists()
    r = run(["hex", "fit", "--size", "5", "--data", str(data), "--out", str(tmp_path / "n5.onnx")])
    assert r.returncode == 5 and "5x5" in r.stderr and "plies hex teach" in r.stderr
    r = run(["hex", "fit", "--size", "4", "--data", str(data), "--out", str(tmp_path / "n.onnx"), "--hidden", "a"])
    assert r.returncode == 2 and "--hidden" in r.stderr


def test_the_network_prior_s_strength_is_read_from_text_and_reaches_the_search():
    """network_prior_strength reads "visits=V,low=L,high=H" (the bench's engine spec takes it so); the
    settings reach the prior's params, and a setting it does not know or a value that is not a number
    is refused."""
    game = make_game("hex", size=5)
    net = favouring(5, 7)
    assert network_prior_strength("") == {}
    strength = network_prior_strength("visits=50,high=0.9")
    assert strength == {"visits": 50.0, "high": 0.9}
    default = heavy_knowledge(game, network=net).experience_params
    strong = heavy_knowledge(game, network=net, **strength).experience_params
    assert list(default[:3]) == [20.0, 0.3, 0.8] and list(strong[:3]) == [50.0, 0.3, 0.9]
    assert np.array_equal(strong[3:], default[3:])
    for text, problem in (("visit=50", "'visit'"), ("high=x", "high must be a number"),
                          ("after=1.5", "whole number"), ("after=-8", "whole number")):
        with pytest.raises(ValueError, match=problem):
            network_prior_strength(text)
    assert network_prior_strength("after=64") == {"after": 64}
    assert heavy_knowledge(game, network=net, **network_prior_strength("after=64")).experience_visits == 64
    assert heavy_knowledge(game).experience_visits == 0  # no network: nothing to wait for


def prior_visits(searcher, node):
    """The virtual visits of node's children (their prior experience), in the searcher's tree."""
    first, count = int(searcher.tree_i[node, FIRST]), int(searcher.tree_i[node, COUNT])
    return searcher.tree_f[first:first + count, PVISITS], first, count


def test_a_late_network_prior_reaches_a_node_s_children_once_when_it_has_enough_visits():
    """With after=A the children start with the even prior (RaveConfig.prior_even, 10 visits) and get
    the network's 50 virtual visits once, when their parent has A real visits: the root's children
    all carry 60 after 600 simulations (not 10: never given; not 110 or more: given again), a node
    below A real visits carries only the 10, and the network's favourite still leads the root."""
    game = make_game("hex", size=7)
    edge = 1
    after = 64
    searcher = make_searcher("rave", game, RAVE_CONFIG, heavy_knowledge(game, network=favouring(7, edge),
                                                                        visits=50.0, high=0.9, after=after), 1)
    result = searcher.search(game.initial_state(), Limits(simulations=600))
    assert result.moves[int(np.argmax(result.visits))] == edge
    priors, first, count = prior_visits(searcher, int(searcher.meta[M_ROOT]))
    assert np.all(priors == 60.0)
    real = searcher.tree_f[first:first + count, VISITS] - searcher.tree_f[first:first + count, PVISITS]
    checked = 0
    for k in range(count):
        below, _, n = prior_visits(searcher, first + k)
        if n:
            assert np.all(below == (60.0 if real[k] >= after else 10.0))
            checked += 1
    assert checked >= 2  # some children were expanded, so both cases could be seen
    # after=0: the experience comes with the children, without the even prior
    at_once = make_searcher("rave", game, RAVE_CONFIG, heavy_knowledge(game, network=favouring(7, edge),
                                                                       visits=20.0, after=0), 1)
    at_once.search(game.initial_state(), Limits(simulations=50))
    assert np.all(prior_visits(at_once, int(at_once.meta[M_ROOT]))[0] == 20.0)


def test_augmented_cases_are_the_position_under_hex_s_symmetries():
    """A 3x3 case (player 0 at a1 = (0, 0) and c2 = (1, 2), player 1 at b1 = (0, 1), player 1 to move,
    the teacher's move b2, player 0 won) comes back four times: as it is; turned by 180 degrees; and
    each of these mirrored in the main diagonal with the colours swapped, where player 1 holds
    (0, 0) and (2, 1), player 0 holds (1, 0), player 0 is to move, the move is the mirrored cell and
    player 1 won."""
    manager = HexStateManager(3)
    game = manager.game
    state = game.initial_state()
    for move in (0, 1, 5):
        state = game.play(state, move)
    x = manager.encode(state)[None].astype(np.float32)
    d = np.zeros((1, 9), np.float32)
    d[0, 4] = 0.75
    d[0, 2] = 0.25  # (0, 2): turned (2, 0), mirrored (2, 0), both (0, 2)
    out = T.augmented({"x": x, "d": d, "z": np.array([1.0], np.float32)}, manager)
    assert out["x"].shape == (T.AUGMENTED, 27) and out["d"].shape == (T.AUGMENTED, 9)

    def planes(p0, p1, to_move):
        y = np.zeros((3, 3, 3), np.float32)
        for r, c in p0:
            y[0, r, c] = 1.0
        for r, c in p1:
            y[1, r, c] = 1.0
        y[2] = to_move
        return y.reshape(-1)

    def target(cells):
        t = np.zeros((3, 3), np.float32)
        for (r, c), p in cells:
            t[r, c] = p
        return t.reshape(-1)

    expected = [
        (planes([(0, 0), (1, 2)], [(0, 1)], 1), target([((1, 1), 0.75), ((0, 2), 0.25)]), 1.0),
        (planes([(2, 2), (1, 0)], [(2, 1)], 1), target([((1, 1), 0.75), ((2, 0), 0.25)]), 1.0),
        (planes([(1, 0)], [(0, 0), (2, 1)], 0), target([((1, 1), 0.75), ((2, 0), 0.25)]), 0.0),
        (planes([(1, 2)], [(2, 2), (0, 1)], 0), target([((1, 1), 0.75), ((0, 2), 0.25)]), 0.0),
    ]
    for k, (ex, ed, ez) in enumerate(expected):
        np.testing.assert_array_equal(out["x"][k], ex)
        np.testing.assert_array_equal(out["d"][k], ed)
        assert out["z"][k] == ez


def test_a_late_prior_s_cost_cuts_a_batch_short_but_never_changes_the_search():
    """A batch of the RAVE kernel counts each late network call as experience_cost simulations: with
    a huge cost, a batch of 1,000 simulations from a root with one visit stops with the simulation
    that made the call (the 128th: the root has its NET_AFTER visits then).  A whole search on a
    simulation budget runs the same simulations in the same order whatever the cost, so its visits
    are the same."""
    import dataclasses
    game = make_game("hex", size=7)
    bundle = heavy_knowledge(game, network=favouring(7, 1))
    assert bundle.experience_cost == NET_COST and bundle.experience_visits == NET_AFTER
    costly = dataclasses.replace(bundle, experience_cost=1e9)
    searcher = make_searcher("rave", game, RAVE_CONFIG, costly, 3)
    searcher.search(game.initial_state(), Limits(simulations=1))
    assert searcher._run(1000) == NET_AFTER
    results = [make_searcher("rave", game, RAVE_CONFIG, b, 3).search(game.initial_state(), Limits(simulations=2000))
               for b in (bundle, costly, dataclasses.replace(bundle, experience_cost=0.0))]
    assert all(r.stats["simulations"] == 2000 for r in results)
    assert results[0].visits == results[1].visits == results[2].visits
