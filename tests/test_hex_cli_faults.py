"""Every `plies hex ...` verb (and the tournament client) on a fault a new user meets: a bad path, a
bad file, a missing optional package, no terminal.  Each ends with one line on stderr naming the cause
and the fix, and its own exit status (engines/learn/hex/cli.py EXIT; adapters/oht_client.py's table for
serve / connect / demo), never a traceback; and no command writes into the shipped weights folder."""
import hashlib
import os
import socket
import subprocess
import sys

import pytest

from conftest import ROOT, serving

PLIES = [sys.executable, "-m", "adapters.cli"]
WITHOUT = ("import sys; sys.modules[{name!r}] = None; "
           "from adapters.cli import main; sys.exit(main(sys.argv[1:]))")   # a package as if not installed
TINY = ["--size", "3", "--search-games", "4", "--batch-size", "4", "--train-batches", "1", "--hidden", "4",
        "--progress", "false", "--topp", "false"]


def run(args, cwd=ROOT, without=None, timeout=300, env=None, **kw):
    cmd = [sys.executable, "-c", WITHOUT.format(name=without), *args] if without else [*PLIES, *args]
    environment = {**os.environ, "PYTHONWARNINGS": "ignore", **(env or {})}
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=environment,
                          stdin=subprocess.DEVNULL, start_new_session=True, **kw)


def one_line(r, status, *words):
    """The run ended with status and a single stderr line holding words (no traceback)."""
    assert r.returncode == status, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, r.stderr
    for word in words:
        assert word in lines[0], lines[0]


def snapshot(folder):
    return {p.relative_to(folder): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


# ==== plies hex train =================================================================================
def test_train_refuses_an_out_that_is_a_file_unwritable_or_in_weights(tmp_path):
    pytest.importorskip("torch")
    from engines.learn.hex.cli import EXIT
    a_file = tmp_path / "a_file"
    a_file.write_text("not a folder")
    r = run(["hex", "train", *TINY, "--episodes", "1", "--out", str(a_file)])
    one_line(r, EXIT["output"][0], str(a_file), "is a file", "--out")
    r = run(["hex", "train", *TINY, "--episodes", "1", "--out", str(a_file / "run")])
    one_line(r, EXIT["output"][0], "cannot write", "--out")
    weights = ROOT / "weights" / "hex"
    before = snapshot(weights)
    r = run(["hex", "train", *TINY, "--episodes", "1", "--out", str(weights / "mine")])
    one_line(r, EXIT["output"][0], "shipped weights folder", "runs/")
    assert snapshot(weights) == before and not (weights / "mine").exists()


def test_train_refuses_a_run_folder_in_use_and_resumes_it_with_resume(tmp_path):
    pytest.importorskip("torch")
    import json

    from engines.learn.hex.cli import EXIT
    out = tmp_path / "run"
    r = run(["hex", "train", *TINY, "--episodes", "2", "--networks", "3", "--out", str(out)])
    assert r.returncode == 0, r.stderr
    first = snapshot(out)
    assert sorted(p.name for p in out.glob("*.onnx")) == ["anet_00000.onnx", "anet_00001.onnx", "anet_00002.onnx"]
    # a second run into the same folder would mix two runs' networks: refused, nothing touched
    r = run(["hex", "train", *TINY, "--episodes", "4", "--networks", "5", "--out", str(out)])
    one_line(r, EXIT["output"][0], "holds a run already", "--resume")
    assert snapshot(out) == first
    # --resume continues from the last network and episode: episodes 3 and 4, the old files kept
    r = run(["hex", "train", *TINY, "--episodes", "4", "--networks", "5", "--out", str(out), "--resume"])
    assert r.returncode == 0, r.stderr
    assert "resumed after episode 2" in r.stdout
    assert sorted(p.name for p in out.glob("*.onnx")) == [f"anet_{e:05d}.onnx" for e in range(5)]
    after = snapshot(out)
    for name in ("anet_00000.onnx", "anet_00001.onnx", "anet_00002.onnx"):
        assert after[out.joinpath(name).relative_to(out)] == first[out.joinpath(name).relative_to(out)]
    summary = json.loads((out / "training.json").read_text())
    assert summary["episodes"] == 4 and summary["resumed_from"] == 2 and len(summary["losses"]) == 4
    assert json.loads((out / "anet_00004.json").read_text())["episode"] == 4
    # nothing left to resume, and --resume where no run is
    r = run(["hex", "train", *TINY, "--episodes", "4", "--out", str(out), "--resume"])
    one_line(r, EXIT["output"][0], "at episode 4 already", "--episodes")
    r = run(["hex", "train", *TINY, "--episodes", "4", "--out", str(tmp_path / "new"), "--resume"])
    one_line(r, EXIT["output"][0], "no saved network", "drop --resume")


def test_train_with_an_unreachable_ray_cluster_says_so_at_once(tmp_path):
    pytest.importorskip("torch")
    from engines.learn.hex.cli import EXIT
    with socket.socket() as s:  # a port nobody listens on (bound, never listening)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        r = run(["hex", "train", *TINY, "--episodes", "2", "--ray-address", f"127.0.0.1:{port}",
                 "--out", str(tmp_path / "run")], timeout=120)
    one_line(r, EXIT["cluster"][0], f"no Ray cluster at 127.0.0.1:{port}", "ray start --head")
    assert not (tmp_path / "run").exists()  # nothing written before the check



def test_teach_with_an_unreachable_ray_cluster_says_so_at_once(tmp_path):
    from engines.learn.hex.cli import EXIT
    with socket.socket() as s:  # a port nobody listens on (bound, never listening)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        r = run(["hex", "teach", "--size", "3", "--games", "1", "--simulations", "10", "--ray-address",
                 f"127.0.0.1:{port}", "--out", str(tmp_path / "teacher")], timeout=120)
    one_line(r, EXIT["cluster"][0], f"no Ray cluster at 127.0.0.1:{port}", "ray start --head")
    assert not (tmp_path / "teacher").exists()  # nothing written before the check

def test_check_ray_address_times_out_rather_than_waiting():
    from engines.learn.hex.selfplay import ClusterUnreachable, check_ray_address
    with pytest.raises(ClusterUnreachable, match="not host:port"):
        check_ray_address("nowhere")
    check_ray_address("auto")  # left to Ray


# ==== plies hex topp ==================================================================================
def test_topp_of_the_shipped_networks_writes_under_runs_never_into_weights(tmp_path):
    shipped = ROOT / "weights" / "hex" / "topp5"
    before = snapshot(shipped)
    r = run(["hex", "topp", str(shipped), "--games", "1", "--no-progress"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert snapshot(shipped) == before
    out = tmp_path / "runs" / "topp" / "topp5"
    assert (out / "topp.csv").is_file() and (out / "topp.png").is_file()
    from engines.learn.hex.cli import EXIT
    r = run(["hex", "topp", str(shipped), "--games", "1", "--no-progress", "--out", str(shipped)], cwd=tmp_path)
    one_line(r, EXIT["output"][0], "shipped weights folder")
    assert snapshot(shipped) == before


def test_topp_of_a_missing_folder_or_of_files_that_are_no_networks(tmp_path):
    from engines.learn.hex.cli import EXIT
    r = run(["hex", "topp", str(tmp_path / "absent")], without="torch")
    one_line(r, EXIT["network"][0], "no folder", "runs/hex5")
    (tmp_path / "bad.onnx").write_text("garbage")
    r = run(["hex", "topp", str(tmp_path)], without="torch")
    one_line(r, EXIT["network"][0], "bad.onnx is not a readable ONNX network")


def test_topp_without_matplotlib_keeps_the_csv_and_says_what_is_missing(tmp_path):
    import shutil

    from engines.learn.hex.cli import EXIT
    for name in ("anet_00000", "anet_00067"):
        for ext in (".onnx", ".json"):
            shutil.copy(ROOT / "weights" / "hex" / "topp5" / (name + ext), tmp_path)
    r = run(["hex", "topp", str(tmp_path), "--games", "1", "--no-progress"], without="matplotlib")
    one_line(r, EXIT["extra"][0], "matplotlib", "train-extra")
    assert (tmp_path / "topp.csv").is_file() and not (tmp_path / "topp.png").exists()


# ==== plies hex play ==================================================================================
def test_play_a_file_that_is_no_network_or_of_another_size_than_size(tmp_path):
    from engines.learn.hex.cli import EXIT
    from engines.knowledge.hex.network import shipped_network_path
    bad = tmp_path / "bad.onnx"
    bad.write_text("garbage")
    r = run(["hex", "play", "--network", str(bad)], without="torch")
    one_line(r, EXIT["network"][0], "bad.onnx is not a readable ONNX network")
    six = shipped_network_path(6)
    r = run(["hex", "play", "--network", str(six), "--size", "5", "--quiet"], without="torch")
    one_line(r, EXIT["network"][0], "is a network for 6x6, not for 5x5")
    r = run(["hex", "play", "--network", str(six), "--size", "6", "--quiet"], without="torch")
    assert r.returncode == 0, r.stderr


# ==== plies hex serve / demo / connect ================================================================
def test_serve_and_demo_without_cryptography(tmp_path):
    from adapters.oht_session import EXIT_NO_CRYPTOGRAPHY
    r = run(["hex", "serve", "--self-signed", str(tmp_path / "c"), "--port", "0"], without="cryptography")
    one_line(r, EXIT_NO_CRYPTOGRAPHY, "cryptography", "pip install", "--cert and --key")
    r = run(["hex", "demo", "--simulations", "8", "--games", "1"], without="cryptography")
    one_line(r, EXIT_NO_CRYPTOGRAPHY, "cryptography", "pip install")


def test_serve_with_missing_or_bad_certificate_files_and_a_port_in_use(tmp_path, certs):
    from adapters.oht_session import EXIT_CANNOT_LISTEN, EXIT_CERTIFICATE, EXIT_SETTINGS
    r = run(["hex", "serve", "--cert", str(tmp_path / "x.crt"), "--key", str(tmp_path / "x.key"), "--port", "0"])
    one_line(r, EXIT_CERTIFICATE, "no --cert file", "--self-signed")
    junk = tmp_path / "junk.pem"
    junk.write_text("junk")
    r = run(["hex", "serve", "--cert", str(junk), "--key", str(junk), "--port", "0"])
    one_line(r, EXIT_CERTIFICATE, "not a PEM certificate")
    r = run(["hex", "serve"])
    one_line(r, EXIT_SETTINGS, "--cert and --key", "--self-signed")
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        r = run(["hex", "serve", "--cert", str(certs[0]), "--key", str(certs[1]), "--port", str(port)])
    one_line(r, EXIT_CANNOT_LISTEN, f"cannot listen on 127.0.0.1:{port}", "--port")


def test_connect_with_a_missing_or_bad_certificate_is_not_a_connection_failure(tmp_path):
    from adapters.oht_session import EXIT_CERTIFICATE
    r = run(["hex", "connect", "--cert", str(tmp_path / "absent.crt"), "--quiet", "--log", str(tmp_path / "log")])
    one_line(r, EXIT_CERTIFICATE, "no certificate file", "--cert")
    junk = tmp_path / "junk.pem"
    junk.write_text("junk")
    r = run(["hex", "connect", "--cert", str(junk), "--quiet", "--log", str(tmp_path / "log")])
    one_line(r, EXIT_CERTIFICATE, "is not a PEM certificate")


@pytest.mark.parametrize("generation, missing", [("A", "username"), ("A", "password"), ("B", "token")])
def test_connect_without_a_terminal_or_credentials_says_which_is_missing(tmp_path, certs, generation, missing):
    from adapters.oht_session import EXIT_NO_CREDENTIALS
    from standins.oht_server import ServerConfig
    env = {k: "" for k in ("PLIES_OHT_USERNAME", "PLIES_OHT_PASSWORD", "IT3105_AUTH")}
    args = ["--username", "me"] if missing == "password" else []
    with serving(certs, ServerConfig(generation=generation, series=1, games=1)) as server:
        r = run(["hex", "connect", "--generation", generation, "--port", str(server.port), "--cert", str(certs[0]),
                 "--quiet", "--timeout", "60", "--log", str(tmp_path / "log"), *args], env=env, timeout=120)
    one_line(r, EXIT_NO_CREDENTIALS, f"asks for the {missing}", "no terminal")


# ==== bad numbers on the command line (issue 32): a clear error, exit 2, nothing written ==============
def test_serve_with_a_port_out_of_range_writes_no_certificate(tmp_path):
    folder = tmp_path / "certs"
    r = run(["hex", "serve", "--port", "70000", "--self-signed", str(folder)])
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "'70000' is not a port number (0..65535" in r.stderr
    assert not folder.exists()


@pytest.mark.parametrize("port", ["abc", "0", "65536", "-1"])
def test_connect_with_a_bad_it3105_port_is_a_clear_error(tmp_path, port):
    r = run(["hex", "connect", "--log", str(tmp_path / "g.log")], env={"IT3105_PORT": port})
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{port!r} is not a port number (1..65535; from --port or IT3105_PORT)" in r.stderr
    assert not (tmp_path / "g.log").exists()


@pytest.mark.parametrize("size", ["0", "2", "20", "-5"])
def test_play_refuses_a_size_hex_does_not_have(size):
    from engines.learn.hex.cli import EXIT
    r = run(["hex", "play", "--size", size, "--quiet"])
    one_line(r, EXIT["settings"][0], f"--size must be in 3..19, got {size}")
    assert "won" not in r.stdout
