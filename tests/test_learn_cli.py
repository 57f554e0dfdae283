"""`plies hex train | topp | play` as a user runs them (subprocesses), the path without PyTorch, and
self-play on a real local Ray cluster (started with `ray start --head`)."""
import contextlib
import os
import pathlib
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

from conftest import ROOT

PLIES = [sys.executable, "-m", "adapters.cli"]
NO_TORCH = "import sys; sys.modules['torch'] = None; from adapters.cli import main; sys.exit(main(sys.argv[1:]))"
TINY = ["--search-games", "12", "--batch-size", "8", "--train-batches", "1", "--hidden", "8"]


def run(args, no_torch=False, timeout=600):
    cmd = [sys.executable, "-c", NO_TORCH, *args] if no_torch else [*PLIES, *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})


def test_train_then_topp_then_play(tmp_path):
    pytest.importorskip("torch")
    out = tmp_path / "run"
    r = run(["hex", "train", "--config", "weights/hex/hex.toml", "--size", "3", "--episodes", "4", "--networks", "3",
             "--display", "4", "--games", "3", "--progress", "false", "--out", str(out), *TINY])
    assert r.returncode == 0, r.stderr
    assert "episode 4: an actual game" in r.stdout and "episode 3:" not in r.stdout
    assert "TOPP: 3 networks, 3 games a pair" in r.stdout and "total" in r.stdout
    assert sorted(p.name for p in out.glob("*.onnx")) == ["anet_00000.onnx", "anet_00002.onnx", "anet_00004.onnx"]
    assert (out / "topp.csv").is_file() and (out / "topp.png").is_file() and (out / "loss.png").is_file()
    # the TOPP again, on its own, stochastic and drawn
    r = run(["hex", "topp", str(out), "--games", "2", "--policy", "stochastic", "--display", "--no-progress",
             "--out", str(tmp_path / "t")])
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "t" / "topp.csv").is_file() and (tmp_path / "t" / "topp.png").is_file()
    assert r.stdout.count("(X, rows) against") == 3 * 2 and "2 games a pair, stochastic" in r.stdout
    r = run(["hex", "play", "--network", str(out / "anet_00004.onnx"), "--games", "2", "--network-player", "2"])
    assert r.returncode == 0, r.stderr
    assert "won" in r.stdout and "of 2 against random" in r.stdout and "winner: player" in r.stdout


def test_train_errors_name_the_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[anet]\nneurons = 5\n")
    r = run(["hex", "train", "--config", str(bad)], no_torch=True)
    assert r.returncode == 2 and "neurons" in r.stderr and "bad.toml" in r.stderr
    r = run(["hex", "train", "--epsilon", "2"], no_torch=True)
    assert r.returncode == 2 and "epsilon" in r.stderr and "out of range" in r.stderr
    r = run(["hex", "train", "--episodes", "many"], no_torch=True)
    assert r.returncode == 2 and "--episodes" in r.stderr


def test_without_torch_train_says_how_to_install_and_topp_play_still_work(tmp_path):
    r = run(["hex", "train", "--size", "3", "--episodes", "1", "--out", str(tmp_path / "x")], no_torch=True)
    assert r.returncode == 3 and "make train-extra" in r.stderr
    from engines.knowledge.hex.network import shipped_network_path
    r = run(["hex", "play", "--size", "5"], no_torch=True)
    assert r.returncode == 0, r.stderr
    assert "hex5 (greedy)" in r.stdout and r.stdout.count("X = player 1") >= 10
    import shutil
    for name in ("hex5.onnx", "hex5.json"):
        shutil.copy(shipped_network_path(5).with_name(name), tmp_path / name)
    shutil.copy(shipped_network_path(5), tmp_path / "copy.onnx")
    shutil.copy(shipped_network_path(5).with_suffix(".json"), tmp_path / "copy.json")
    r = run(["hex", "topp", str(tmp_path), "--games", "2", "--no-progress"], no_torch=True)
    assert r.returncode == 0, r.stderr
    assert "TOPP: 2 networks" in r.stdout and (tmp_path / "topp.png").is_file()


def test_play_refuses_an_opponent_for_another_board_size():
    from engines.knowledge.hex.network import shipped_network_path
    five, six = shipped_network_path(5), shipped_network_path(6)
    r = run(["hex", "play", "--network", str(five), "--opponent", str(six)], no_torch=True)
    assert r.returncode == 5 and f"{six} is a network for 6x6, not for 5x5" in r.stderr
    r = run(["hex", "play", "--size", "4"], no_torch=True)
    assert r.returncode == 5 and "no shipped network for 4x4" in r.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def ray_cluster():
    """A local Ray head (`ray start --head --block`) in its own process group, ended by its id."""
    ray = pytest.importorskip("ray")
    exe = pathlib.Path(sys.executable).with_name("ray")
    if not exe.is_file():
        pytest.skip("the ray command is not installed")
    port = free_port()
    temp = tempfile.mkdtemp(prefix="rt", dir="/tmp")  # short: Ray's socket paths have a length limit
    proc = subprocess.Popen([str(exe), "start", "--head", "--block", f"--port={port}", "--num-cpus=2",
                             "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp}"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    address = f"127.0.0.1:{port}"
    try:
        for _ in range(240):  # wait for the head (no duration is asserted)
            if proc.poll() is not None:
                pytest.skip("ray start --head exited")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.skip("the Ray head did not open its port")
        yield address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        # SIGKILL to the head's process group, which holds all of its processes (none is left behind):
        # after SIGTERM, `ray start --block` took 33 s to end
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)


def test_self_play_on_a_local_ray_cluster(ray_cluster, tmp_path):
    pytest.importorskip("torch")
    import numpy as np
    from engines.learn.hex import config as C
    from engines.learn.hex.anet import ANET
    from engines.learn.hex.selfplay import SelfPlay, play_episode
    from engines.learn.hex.trainer import Trainer
    cfg = C.load(None, {"size": 3, "episodes": 2, "networks": 2, "search_games": 12, "hidden": [8], "batch_size": 8,
                        "train_batches": 1, "progress": False, "topp": False, "ray_address": ray_cluster,
                        "workers": 2})
    net = ANET.from_config(cfg).network()
    with SelfPlay(cfg) as pool:
        assert pool.engine == "ray"
        episodes = pool.play(net, None, [21, 22])
    inline = [play_episode(cfg, net, None, s) for s in (21, 22)]
    assert [e.moves for e in episodes] == [e.moves for e in inline]
    assert all(np.allclose(a.d, b.d) for a, b in zip(episodes, inline))
    trainer = Trainer(cfg, tmp_path)
    assert len(trainer.run()) == 2 and trainer.rbuf.added > 0


def test_teacher_games_on_a_local_ray_cluster(ray_cluster, tmp_path):
    """plies hex teach --ray-address: the shards are Ray tasks, and the same shards as played here."""
    import numpy as np
    from engines.learn.hex import teacher as T
    written = T.write_shards(tmp_path / "ray", 3, games=2, simulations=20, seed=4, shard_games=1,
                             ray_address=ray_cluster)
    T.write_shards(tmp_path / "here", 3, games=2, simulations=20, seed=4, shard_games=1)
    assert sorted(p.name for p in written) == ["teacher-3x3-s4-0000.npz", "teacher-3x3-s4-0001.npz"]
    for path in written:
        with np.load(path) as ray, np.load(tmp_path / "here" / path.name) as here:
            assert all(np.array_equal(ray[k], here[k]) for k in ("x", "d", "z", "game"))
