"""Crash paths of the command-line entry points of the Go side and the generic ``plies`` commands:
bad paths, bad files, no terminal, unwritable places.  Each ends with one clear line naming the
cause and the fix, a documented exit status, and no Python traceback."""
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

from adapters import cli
from adapters import littlego as player
from regress import runner
from standins import littlego_host as host

BIN = Path(sys.executable).parent


def run(argv, cwd=ROOT, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=120):
    """A command in a fresh process, no terminal: (status, stdout, stderr)."""
    done = subprocess.run(argv, cwd=cwd, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, text=True,
                          timeout=timeout)
    return done.returncode, done.stdout or "", done.stderr


def one_line(err, prefix):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(prefix) and "Traceback" not in err, err
    return lines[0]


# ==== plies ======================================================================================
def test_plies_documents_its_exit_statuses():
    for status in ("0  done", "1  interrupted", "2  bad arguments", "3  a file or folder", "4  ``plies littlego"):
        assert status in cli.__doc__
    assert "exit statuses" in cli.build_parser().epilog


@pytest.mark.parametrize("where, words", [
    ("a-file", "it is a file, not a folder"),
    ("a-file/below", "a folder is needed there"),
])
def test_littlego_install_into_a_file(tmp_path, where, words):
    (tmp_path / "a-file").write_text("x")
    code, _, err = run([sys.executable, "-m", "adapters.cli", "littlego", "install", str(tmp_path / where)])
    assert code == cli.EXIT_FILES and words in one_line(err, "plies: cannot install")


def test_littlego_install_where_nothing_may_be_written(tmp_path, monkeypatch, capsys):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(tmp_path / "ro"))
    monkeypatch.setattr(player, "install", refuse)  # as root, a folder's mode refuses nothing
    assert cli.main(["littlego", "install", str(tmp_path / "ro")]) == cli.EXIT_FILES
    assert "choose a place you may write to" in one_line(capsys.readouterr().err, "plies: cannot install")


@pytest.mark.parametrize("argv, status, words", [
    (["littlego", "match", "me", "no-such-player.py", "--games", "1"], cli.EXIT_USAGE, "no such .py file or program"),
    (["littlego", "match", "me", "random", "--games", "1", "--workdir", "{tmp}/a-file"], cli.EXIT_FILES,
     "a folder is needed there"),
])
def test_littlego_match_bad_players_and_folders(tmp_path, argv, status, words):
    (tmp_path / "a-file").write_text("x")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, _, err = run([sys.executable, "-m", "adapters.cli"] + argv)
    assert code == status and words in one_line(err, "plies: ")


def test_play_into_a_full_disk():
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        code, _, err = run([sys.executable, "-m", "adapters.cli", "play", "hex", "--size", "3", "--first", "random"],
                           stdout=full)
    assert code == cli.EXIT_FILES and "No space left" in one_line(err, "plies: cannot write the output")


def test_perft_into_a_closed_pipe():
    proc = subprocess.Popen([sys.executable, "-m", "adapters.cli", "perft", "go", "3", "--size", "5"], cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader went away (`| head -0`)
    err = proc.stderr.read().decode()
    assert proc.wait(120) in (cli.EXIT_OK, cli.EXIT_INTERRUPTED) and "Traceback" not in err


@pytest.mark.parametrize("argv", [["bench", "--repeats", "0"], ["play", "hex", "--simulations", "0"],
                                  ["play", "hex", "--simulations", "x"]])
def test_counts_below_one_are_usage_errors(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == cli.EXIT_USAGE and ("must be at least 1" in err or "not an integer" in err)


# ==== plies-go5 ==================================================================================
@pytest.mark.parametrize("kind, words", [("a folder", "Is a directory"), ("binary", "non-ASCII"),
                                         ("missing", "No such file")])
def test_go5_weights_that_cannot_be_read(tmp_path, kind, words):
    path = {"a folder": tmp_path, "binary": tmp_path / "w.txt", "missing": tmp_path / "none.txt"}[kind]
    (tmp_path / "w.txt").write_bytes(b"\x00\x9f\xff weights\n")
    code, out, err = run([sys.executable, "-m", "adapters.go5", "--weights", str(path)])
    assert code == 2 and out == "" and words in one_line(err, "plies-go5: cannot load the weights")


def test_go5_config_that_is_a_folder(tmp_path):
    code, _, err = run([sys.executable, "-m", "adapters.go5", "--config", str(tmp_path)])
    assert code == 2 and "is a directory, not a TOML file" in one_line(err, "plies-go5: --config")


# ==== plies-regress ==============================================================================
def test_regress_missing_file_and_missing_engine(tmp_path):
    code, _, err = run([sys.executable, "-m", "regress.runner", "true", str(tmp_path / "none.gtp")])
    assert code == runner.EXIT_CRASH and "File not found" in one_line(err, "regress: ")
    (tmp_path / "t.gtp").write_text("1 name\n#? [x]\n")
    code, _, err = run([sys.executable, "-m", "regress.runner", "no-such-engine --x", str(tmp_path / "t.gtp")])
    line = one_line(err, "regress: cannot start engine")
    assert code == runner.EXIT_CRASH and "No such file" in line and "executable" in line


# ==== my_player3.py ==============================================================================
def test_my_player3_with_a_folder_where_output_txt_goes(tmp_path):
    me = host.make_player("me")
    host.prepare(me, tmp_path)
    (tmp_path / "input.txt").write_text(host.Game().input_text())
    (tmp_path / "output.txt").mkdir()
    env = {**os.environ, "PLIES_LITTLEGO_SIMULATIONS": "50"}
    done = subprocess.run([sys.executable, "my_player3.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 3 and "output.txt" in one_line(done.stderr, "my_player3: cannot write")


# ==== plies go gtp, plies perft (issue 32) =======================================================
def test_plies_go_gtp_passes_its_arguments_to_plies_gtp():
    code, out, err = run([sys.executable, "-m", "adapters.cli", "go", "gtp", "--help"])
    assert code == 0 and "--time" in out and "--rules" in out, err
    done = subprocess.run([sys.executable, "-m", "adapters.cli", "go", "gtp", "--time", "1", "--size", "5",
                           "--komi", "0.5"], cwd=ROOT, input="1 name\n2 showboard\nquit\n", capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.startswith("=1 plies\n\n=2 \n") and "komi 0.5" in done.stdout, \
        done.stderr
    code, _, err = run([sys.executable, "-m", "adapters.cli", "go", "gtp", "--no-such-flag"])
    assert code == 2 and "unrecognized arguments: --no-such-flag" in err and "usage: plies-gtp" in err


@pytest.mark.parametrize("depth", ["999", "21"])
def test_perft_refuses_depths_that_would_never_finish(depth, capsys):
    assert cli.main(["perft", "go", depth]) == cli.EXIT_USAGE
    assert "perft depth must be an integer in 0..20" in one_line(capsys.readouterr().err, "plies: ")


def test_perft_stops_on_ctrl_c():
    # Ctrl-C as at a terminal: a test run started in the background (`cmd &` in a script) passes SIGINT on
    # ignored, and Python keeps an inherited SIG_IGN (the count would go on for ever)
    proc = subprocess.Popen([sys.executable, "-m", "adapters.cli", "perft", "go", "20", "--size", "9"], cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # written once the count outlasts its first slice: it is counting (the wait only guards a hang)
        said = proc.stderr.readline() if select.select([proc.stderr], [], [], 300)[0] else ""
        assert "counting perft(20) of go (Ctrl-C stops it)" in said
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == cli.EXIT_INTERRUPTED and out == ""
    assert "perft(20) interrupted (Ctrl-C)" in one_line(err, "plies: ")
