"""A cold compiled-kernel cache and the Go adapters: the Little-Go player (through the local host,
which enforces the course's CPU limit) says so at once, writes a valid move every run, compiles only
inside its own runs and plays the searched move once the compile carried over; plies-go5 says so at
start; ``plies littlego install`` leaves a warm cache.  Cold for real: NUMBA_CACHE_DIR an empty folder."""
import io
import os
import subprocess
import sys

import pytest

from conftest import ROOT

from adapters import cli, go5
from adapters import littlego as player
from engines import warmup
from protocols.littlego import parse_move
from standins import littlego_host as host

COLD = "cache of go is cold"


def test_the_little_go_player_from_a_cold_cache(tmp_path):
    """Each run is a fresh process with the host's limits: a valid move every time, the cold cache
    told at once, the CPU limit never exceeded, and the engine's searched move within a few runs
    (numba keeps what each run compiled; no process outlives a run).  How many runs the compile takes
    depends on the machine's speed and load (4 did not suffice in one CI run of 29 min): up to 10."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PLIES_LITTLEGO_SEED": "1",
           "PLIES_LITTLEGO_SECONDS": "1"}
    me = host.make_player("me")
    workdir = host.prepare(me, tmp_path / "me")
    searched = []
    for run in range(10):
        (workdir / player.NOTES_FILE).unlink(missing_ok=True)
        line, cpu, wall, rss, code, tail = host.run_move(me, workdir, host.Game().input_text(), env=env)
        assert cpu <= host.TIME_LIMIT and parse_move(line) is not None, (line, code, tail)  # a stone, in time
        if run == 0:
            assert COLD in tail.splitlines()[0]  # the first thing said
        searched.append((workdir / player.NOTES_FILE).exists())
        if searched[-1]:
            break
    assert searched[0] is False and searched[-1] is True, searched  # the fallback first, then the engine


def test_the_cold_run_gets_a_kernel_cpu_limit(tmp_path):
    code = ("import resource, time\nfrom adapters import littlego\n"
            "littlego.cpu_backstop(time.process_time() + 2.5)\n"
            "print(resource.getrlimit(resource.RLIMIT_CPU)[0], resource.getrlimit(resource.RLIMIT_CORE)[0])\n"
            "open('output.txt','w').write('0,0\\n')\nwhile True: pass\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    soft, core = map(int, run.stdout.split())
    assert soft == 3 and core == 0 and run.returncode != 0  # SIGXCPU ended the loop
    assert (tmp_path / "output.txt").read_text() == "0,0\n"


def test_the_player_reports_a_cold_cache_and_arms_the_shorter_watchdog(tmp_path, monkeypatch):
    armed = []
    monkeypatch.setattr(warmup, "is_warm", lambda *games: False)
    monkeypatch.setattr(player, "arm_watchdog", armed.append)
    monkeypatch.setattr(player, "cpu_backstop", armed.append)
    (tmp_path / "input.txt").write_text(host.Game().input_text())
    err = io.StringIO()
    code = player.play(tmp_path, None, env={"PLIES_LITTLEGO_SIMULATIONS": "50"}, err=err, watchdog=True)
    assert code == 0 and COLD in err.getvalue().splitlines()[0] and "engines.warmup --game go" in err.getvalue()
    assert armed == [player.LittleGoSettings().cold_watchdog_seconds] * 2
    monkeypatch.setattr(warmup, "is_warm", lambda *games: True)
    armed.clear()
    err = io.StringIO()
    assert player.play(tmp_path, None, env={"PLIES_LITTLEGO_SIMULATIONS": "50"}, err=err, watchdog=True) == 0
    assert COLD not in err.getvalue() and armed == [player.LittleGoSettings().watchdog_seconds]


def test_plies_go5_says_at_start_that_its_cache_is_cold(tmp_path):
    """The line comes before any engine module is imported (they compile at import): read it, then stop."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "adapters.go5"], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stderr.readline()
    finally:
        proc.kill()
        proc.wait()
    assert first.startswith("plies-go5: ") and COLD in first and "engines.warmup --game go" in first


def test_plies_go5_imports_no_compiled_code_before_its_check():
    code = "import sys\nfrom adapters import go5\nprint(sorted(m for m in sys.modules if m.startswith('numba')))"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "[]", run.stderr


def test_plies_go5_is_quiet_on_a_warm_cache(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(warmup, "is_warm", lambda *games: True)
    assert go5.report_cold_cache(err) is False and err.getvalue() == ""
    monkeypatch.setattr(warmup, "is_warm", lambda *games: False)
    assert go5.report_cold_cache(err) is True and COLD in err.getvalue()


@pytest.mark.parametrize("status", [0, 1])
def test_install_warms_the_cache_with_the_installing_python(tmp_path, monkeypatch, capsys, status):
    calls = []
    monkeypatch.setattr(warmup, "is_warm", lambda *games: False)
    monkeypatch.setattr(cli.subprocess, "run",
                        lambda command, **kw: calls.append(command) or subprocess.CompletedProcess(command, status))
    code = cli.main(["littlego", "install", str(tmp_path / "hw")])
    out, err = capsys.readouterr()
    assert calls == [[sys.executable, "-m", "engines.warmup", "--game", "go"]]
    assert (tmp_path / "hw" / "my_player3.py").exists() and "warming the compiled-kernel cache of go" in out
    if status == 0:
        assert code == 0 and "is warm" in out
    else:
        assert code == cli.EXIT_WARMUP and len(err.strip().splitlines()) == 1 and "engines.warmup" in err


def test_install_on_a_warm_cache_compiles_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(warmup, "is_warm", lambda *games: True)
    monkeypatch.setattr(cli.subprocess, "run", lambda *a, **k: pytest.fail("no warm-up on a warm cache"))
    assert cli.main(["littlego", "install", str(tmp_path / "hw")]) == 0 and "is warm" in capsys.readouterr().out
