"""The training loop end to end (3x3, 4x4, tiny budgets) and every configuration key reaching the code
it names.  Needs PyTorch (the train extra)."""
import json

import numpy as np
import pytest

pytest.importorskip("torch")

from engines.learn.hex import config as C  # noqa: E402
from engines.learn.hex.anet import ANET  # noqa: E402
from engines.knowledge.hex.network import load_network, load_value_network  # noqa: E402
from engines.learn.hex.anet_mcts import PolicyMCTS  # noqa: E402
from engines.learn.hex.selfplay import SelfPlay, choose_move, play_episode  # noqa: E402
from engines.learn.hex.state_manager import HexStateManager  # noqa: E402
from engines.learn.hex.trainer import Trainer  # noqa: E402

TINY = dict(search_games=16, batch_size=8, train_batches=1, hidden=[8], progress=False, topp=False)


def tiny(**changes):
    return C.load(None, {**TINY, **changes})


@pytest.mark.parametrize("size, episodes, k", [(3, 4, 3), (4, 3, 4)])
def test_training_end_to_end_saves_k_loadable_networks(tmp_path, size, episodes, k):
    cfg = tiny(size=size, episodes=episodes, networks=k)
    trainer = Trainer(cfg, tmp_path)
    saved = trainer.run()
    assert len(saved) == k
    episodes_saved = []
    nets = []
    for path in saved:
        net, meta = load_network(path)
        assert net.layers == (3 * size * size, 8, size * size)
        assert meta["size"] == size and meta["config"]["episodes"] == episodes
        assert {"layers", "activation", "date", "figures"} <= set(meta)
        episodes_saved.append(meta["episode"])
        nets.append(net)
    assert episodes_saved == cfg.save_points() and episodes_saved[0] == 0 and episodes_saved[-1] == episodes
    # the first is the untrained network: ANET's initial weights for this seed
    assert np.array_equal(nets[0].params, ANET.from_config(cfg).network().params)
    assert not np.array_equal(nets[0].params, nets[-1].params)
    assert (tmp_path / "loss.png").stat().st_size > 0
    summary = json.loads((tmp_path / "training.json").read_text())
    assert summary["episodes"] == episodes and len(summary["losses"]) == episodes


def test_a_network_saved_at_the_first_save_point_is_untrained_even_with_training(tmp_path):
    cfg = tiny(size=3, episodes=2, networks=0, save_interval=1)
    saved = Trainer(cfg, tmp_path).run()
    assert [load_network(p)[1]["episode"] for p in saved] == [0, 1, 2]


def test_search_games_are_the_simulations_of_each_move():
    cfg = tiny(size=4, search_games=37)
    net = ANET.from_config(cfg).network()
    ep = play_episode(cfg, net, None, seed=3)
    assert ep.simulations == 37 * len(ep.moves)


def test_mcts_parameters_reach_the_search():
    cfg = tiny(size=4, c=1.7, epsilon=0.35, selection="puct", search_games=21, search_time=0.25)
    game = HexStateManager(4).game
    mcts = PolicyMCTS.from_config(game, ANET.from_config(cfg).network(), cfg)
    s = mcts.searcher.config
    assert (s.c, s.epsilon, s.selection, s.rollout) == (1.7, 0.35, "puct", "network")
    assert (mcts.limits.simulations, mcts.limits.time) == (21, 0.25)
    assert tiny().search_time == 0.0 and PolicyMCTS.from_config(game, ANET.from_config(cfg).network(),
                                                                 tiny(size=4)).limits.time is None


def test_epsilon_changes_the_rollouts():
    """epsilon = 0: rollouts follow the network's best move (deterministic given the tree);
    epsilon = 1: uniformly random rollouts; the visit counts differ."""
    net = ANET.from_config(tiny(size=4)).network()
    d = {}
    for eps in (0.0, 1.0):
        cfg = tiny(size=4, epsilon=eps, search_games=200)
        mcts = PolicyMCTS.from_config(HexStateManager(4).game, net, cfg, seed=5)
        d[eps] = mcts.distribution(HexStateManager(4).initial_state())
    assert not np.allclose(d[0.0], d[1.0])


def test_value_head_and_value_rollouts(tmp_path):
    cfg = tiny(size=3, episodes=2, networks=2, value_head=True, rollout="value", selection="puct")
    trainer = Trainer(cfg, tmp_path)
    saved = trainer.run()
    assert trainer.anet.value is not None and trainer.value_losses
    value = load_value_network(saved[-1])
    assert value.layers == (27, 8, 1)
    mcts = PolicyMCTS.from_config(HexStateManager(3).game, trainer.anet.network(), cfg, value=value)
    assert mcts.searcher.config.rollout == "value"
    assert load_value_network(Trainer(tiny(size=3, episodes=1, networks=2), tmp_path / "b").run()[0]) is None


@pytest.mark.parametrize("name, cls", [("adagrad", "Adagrad"), ("sgd", "SGD"), ("rmsprop", "RMSprop"),
                                       ("adam", "Adam")])
def test_optimizer_and_learning_rate_reach_anet(name, cls):
    anet = ANET.from_config(tiny(optimizer=name, learning_rate=0.0123))
    assert type(anet.optimizer).__name__ == cls
    assert anet.optimizer.param_groups[0]["lr"] == 0.0123


@pytest.mark.parametrize("activation, cls", [("linear", "Identity"), ("sigmoid", "Sigmoid"), ("tanh", "Tanh"),
                                             ("relu", "ReLU")])
def test_layers_and_activation_reach_anet(activation, cls):
    cfg = tiny(size=4, hidden=[12, 7], activation=activation)
    anet = ANET.from_config(cfg)
    linears = [m for m in anet.policy if type(m).__name__ == "Linear"]
    assert [(m.in_features, m.out_features) for m in linears] == [(48, 12), (12, 7), (7, 16)]
    assert [type(m).__name__ for m in anet.policy if type(m).__name__ != "Linear"] == [cls, cls]
    net = anet.network()
    assert net.layers == (48, 12, 7, 16) and net.activation == activation


def test_training_keys_reach_the_loop(tmp_path, monkeypatch):
    cfg = tiny(size=3, episodes=3, networks=2, batch_size=5, train_batches=3, buffer_size=7, augment=True)
    calls = []
    original = ANET.train_step

    def spy(self, x, d, z=None):
        calls.append(x.shape[0])
        return original(self, x, d, z)
    monkeypatch.setattr(ANET, "train_step", spy)
    trainer = Trainer(cfg, tmp_path)
    trainer.run()
    assert len(calls) == 3 * 3                       # train_batches after each of the episodes
    assert max(calls) == 5                           # batch_size (once RBUF holds that many)
    assert trainer.rbuf.capacity == 7 and len(trainer.rbuf) == 7
    assert trainer.rbuf.added == 2 * trainer.moves  # augment: every case also turned by 180 degrees
    trainer = Trainer(cfg.replace(augment=False), tmp_path / "b")
    trainer.run()
    assert trainer.rbuf.added == trainer.moves


def test_move_choice_and_sample_moves():
    d = np.array([0.1, 0.6, 0.3])
    rng = np.random.default_rng(0)
    greedy = tiny(move_choice="greedy", sample_moves=0)
    assert {choose_move(d, 0, greedy, rng) for _ in range(50)} == {1}
    opening = tiny(move_choice="greedy", sample_moves=2)
    assert {choose_move(d, 1, opening, rng) for _ in range(200)} == {0, 1, 2}
    assert {choose_move(d, 2, opening, rng) for _ in range(50)} == {1}
    sample = tiny(move_choice="sample", sample_moves=0)
    picks = [choose_move(d, 9, sample, rng) for _ in range(2000)]
    assert abs(picks.count(1) / 2000 - 0.6) < 0.05
    assert choose_move(np.array([0.0, 0.0, 1.0]), 0, sample, rng) == 2  # illegal (0) never sampled


def test_seed_makes_runs_repeatable(tmp_path):
    a = Trainer(tiny(size=3, episodes=2, networks=2, seed=4), tmp_path / "a")
    b = Trainer(tiny(size=3, episodes=2, networks=2, seed=4), tmp_path / "b")
    c = Trainer(tiny(size=3, episodes=2, networks=2, seed=5), tmp_path / "c")
    pa, pb, pc = (load_network(t.run()[-1])[0].params for t in (a, b, c))
    assert np.array_equal(pa, pb) and not np.array_equal(pa, pc)


def test_display_every_nth_actual_game(tmp_path, capsys):
    import io
    out = io.StringIO()
    Trainer(tiny(size=3, episodes=4, networks=2, display=2), tmp_path, stream=out).run()
    text = out.getvalue()
    assert "episode 2: an actual game" in text and "episode 4: an actual game" in text
    assert "episode 1:" not in text and "episode 3:" not in text
    assert "X = player 1" in text  # the diamond's legend
    out = io.StringIO()
    Trainer(tiny(size=3, episodes=2, networks=2, display=0), tmp_path / "b", stream=out).run()
    assert out.getvalue() == ""


def test_progress_bar_on_and_off(tmp_path, capsys):
    Trainer(tiny(size=3, episodes=1, networks=2, progress=True), tmp_path / "a").run()
    assert "training 3x3" in capsys.readouterr().err
    Trainer(tiny(size=3, episodes=1, networks=2, progress=False), tmp_path / "b").run()
    assert "training 3x3" not in capsys.readouterr().err


def test_replay_buffer_cases_hold_state_player_and_a_legal_distribution():
    cfg = tiny(size=4, search_games=40)
    manager = HexStateManager(4)
    ep = play_episode(cfg, ANET.from_config(cfg).network(), None, seed=1)
    cases = ep.cases(manager, augment=True)
    assert len(cases) == 2 * len(ep.moves)
    state = manager.initial_state()
    for i, move in enumerate(ep.moves):
        case, turned = cases[2 * i], cases[2 * i + 1]
        assert np.array_equal(case.x, manager.encode(state))
        assert case.to_move == manager.to_move(state) == int(case.x[32])
        legal = manager.legal_mask(state)
        assert abs(case.d.sum() - 1.0) < 1e-5 and (case.d[~legal] == 0).all() and (case.d[legal] >= 0).all()
        assert case.d[move] > 0                      # the move played came from D
        assert case.z == (1.0 if ep.winner == 0 else 0.0)
        # the 180-degree turn: the same position seen upside down, same player to move
        turned_state = manager.game.state_from_cells(manager.game.cells(state)[::-1, ::-1], manager.to_move(state))
        assert np.array_equal(turned.x, manager.encode(turned_state))
        assert np.array_equal(turned.d, case.d[::-1]) and turned.to_move == case.to_move
        state = manager.child(state, move)
    assert manager.is_final(state) and manager.winner(state) == ep.winner


def test_replay_buffer_ring_and_sampling():
    from engines.learn.hex.replay import Case, ReplayBuffer
    rb = ReplayBuffer(3, 2, 2)
    for i in range(5):
        rb.add(Case(np.full(2, i, np.float32), np.array([1.0, 0.0], np.float32), 1.0, 0))
    assert len(rb) == 3 and rb.added == 5 and sorted(rb.x[:, 0]) == [2, 3, 4]
    x, d, z = rb.sample(10, np.random.default_rng(0))
    assert x.shape == (3, 2) and sorted(x[:, 0]) == [2, 3, 4]
    with pytest.raises(ValueError):
        ReplayBuffer(0, 2, 2)


def test_workers_and_ray_address_choose_the_engine():
    assert SelfPlay(tiny()).engine == "inline"
    assert SelfPlay(tiny(workers=2)).engine == "processes" and SelfPlay(tiny(workers=2)).parallel == 2
    assert SelfPlay(tiny(ray_address="127.0.0.1:1")).engine == "ray"


def test_two_workers_produce_the_same_cases_as_one(tmp_path):
    cfg = tiny(size=3, episodes=2, networks=2, workers=2)
    net = ANET.from_config(cfg).network()
    with SelfPlay(cfg) as pool:
        eps = pool.play(net, None, [11, 12, 13])
    inline = [play_episode(cfg, net, None, s) for s in (11, 12, 13)]
    assert [e.moves for e in eps] == [e.moves for e in inline]
    assert all(np.allclose(a.d, b.d) for a, b in zip(eps, inline))
    trainer = Trainer(cfg, tmp_path)
    assert len(trainer.run()) == 2 and trainer.rbuf.added == 2 * trainer.moves > 0
