"""The compiled-kernel cache's state, known without importing the engine (engines.warmup), and the
background compile an adapter starts when it is cold (engines/players/coldstart.py)."""
import io
import os
import subprocess
import sys

import pytest

from engines.players.coldstart import Compiler
from conftest import ROOT
from engines import warmup


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    """A NUMBA_CACHE_DIR with nothing in it: the stamps live there too, so every game is cold."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    return tmp_path / "numba"


def test_a_stamp_is_warm_until_an_engine_source_changes(tmp_path, monkeypatch):
    engines = tmp_path / "engines"
    (engines / "games").mkdir(parents=True)
    source = engines / "games" / "hex.py"
    source.write_text("X = 1\n")
    monkeypatch.setattr(warmup, "ENGINES", engines)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    assert not warmup.is_warm("hex")
    warmup._write_stamp("hex", 1.0)
    assert warmup.is_warm("hex") and not warmup.is_warm("hex", "go")
    os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 1_000_000))  # an edit
    assert not warmup.is_warm("hex")
    warmup._write_stamp("hex", 1.0)
    (engines / "games" / "new.py").write_text("")  # a new module counts too
    assert not warmup.is_warm("hex")
    warmup._write_stamp("hex", 1.0)
    (engines / "learn").mkdir()
    (engines / "learn" / "trainer.py").write_text("")  # training holds no kernel: still warm
    assert warmup.is_warm("hex")


def test_the_stamp_follows_the_cache_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "a"))
    warmup._write_stamp("go", 1.0)
    assert warmup.is_warm("go")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "b"))  # another cache: nothing compiled there
    assert not warmup.is_warm("go")


def test_check_compiles_nothing_and_says_cold(empty_cache):
    done = subprocess.run([sys.executable, "-m", "engines.warmup", "--check", "--game", "hex"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "cold" in done.stderr
    assert not empty_cache.exists() or not any(empty_cache.rglob("*.nbi"))  # no kernel was compiled


def test_a_warm_cache_starts_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(warmup, "is_warm", lambda *games: True)
    err = io.StringIO()
    compiler = Compiler("hex", "plies-test", err=err)
    assert compiler.ready() and compiler.process is None and err.getvalue() == ""


def real_cold_starts(folder):
    """The adapters' real cold starts, each from an empty cache and waiting for its compile (minutes),
    at once in threads: plies-gtp-hex on one Hex cache, plies-otp and the pipe agent on one Othello
    cache.  Two adapters started together on one cache compile the game once (the warm-up's lock):
    the other's compile waits, finds the cache warm and ends."""
    from concurrent.futures import ThreadPoolExecutor
    from test_hex_coldstart import gtp_hex_from_a_cold_cache
    from test_othello_coldstart import pipe_agent_from_a_cold_cache, plies_otp_from_a_cold_cache
    scenarios = [(gtp_hex_from_a_cold_cache, folder / "hex"), (plies_otp_from_a_cold_cache, folder / "othello"),
                 (pipe_agent_from_a_cold_cache, folder / "othello")]
    with ThreadPoolExecutor(len(scenarios)) as pool:
        runs = [pool.submit(scenario, where) for scenario, where in scenarios]
    for run in runs:
        run.result()  # its failure, raised here


@pytest.mark.beside_the_suite(work=real_cold_starts)
def test_real_cold_starts_side_by_side(beside):
    """Started when the collection is done, beside the other tests (its compiles, niced, mostly on the
    other core); here its result, waited for (no duration asserted)."""
    beside.result(timeout=1800)


def test_a_failed_compile_is_said_once_and_leaves_the_fallback(empty_cache, monkeypatch):
    monkeypatch.setattr(sys, "executable", sys.executable)
    err = io.StringIO()
    compiler = Compiler("hex", "plies-test", err=err, start=False)
    compiler.process = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    assert not compiler.wait(60)
    assert compiler.failed and "exit status 3" in err.getvalue()
    assert not compiler.ready() and err.getvalue().count("failed") == 1


class _StubCompiler:
    """A compile that finishes (or fails) when waited for."""

    def __init__(self, succeeds=True):
        self.done, self.succeeds, self.waited = False, succeeds, 0

    def ready(self):
        return self.done

    def wait(self, timeout=None):
        self.waited += 1
        self.done = self.succeeds
        return self.done


def _cold_start(make_player, compiler):
    from engines.players.coldstart import ColdStart
    cold = ColdStart("hex", "test", make_player, start=False)
    cold.compiler = compiler
    return cold


def test_the_player_is_built_at_the_first_ready_after_the_compile_and_wait_blocks_for_the_compile():
    built = []
    compiler = _StubCompiler()
    cold = _cold_start(lambda: built.append("player") or "player", compiler)
    assert cold.ready() is False and compiler.waited == 0 and built == []   # a fallback command: no wait
    assert cold.wait() is True and compiler.waited == 1                     # a command for the player
    assert cold.ready() is True and built == ["player"] and cold.player == "player"  # built once


def test_a_declined_player_is_asked_once_and_a_failed_compile_waits_for_nothing():
    asked = []
    compiler = _StubCompiler()
    compiler.done = True
    cold = _cold_start(lambda: asked.append(1), compiler)   # make_player says None: it cannot play
    assert cold.ready() is False and cold.wait() is False and cold.declined and asked == [1]
    failing = _cold_start(lambda: "player", _StubCompiler(succeeds=False))
    assert failing.wait() is False and failing.player is None and not failing.declined


def test_a_background_build_that_fails_is_said_once_and_declines_the_player():
    compiler = _StubCompiler()
    compiler.done = True
    said = []
    compiler.say = said.append
    cold = _cold_start(lambda: 1 / 0, compiler)
    cold.background = True
    assert cold.ready() is False
    cold._builder.join(60)
    assert cold.declined and not cold.loading() and cold.wait() is False
    assert cold.ready() is False and len(said) == 1 and "ZeroDivisionError" in said[0]
