"""The Online Hex Tournament client from a cold compiled-kernel cache (engines/players/coldstart.py): importing
it loads no engine, each action is answered at once with a legal fallback move (engines/games/reference/hex.py)
while the kernels compile in the background, and the series' HexPlayer plays once they are compiled."""
import json
import os
import subprocess
import sys

from adapters import oht_client as C
from adapters import oht_session
from adapters.oht_client import Settings
from conftest import OHT_WAIT, ROOT, serving, stop_compiles_into
from standins import oht_server as S

CHEAP = {"simulations": 30, "network": "none", "seed": 0}
FIRST_MOVES_BUDGET = 3.0   # seconds a fallback move may take (an engine import from a cold cache: ~9 s)


class FakeCompiler:
    """A Compiler whose compile finishes when the test says so."""

    def __init__(self):
        self.done, self.closed = False, False

    def ready(self):
        return self.done

    def close(self):
        self.closed = True


class CompilingAgent(C.OHTAgent):
    """An agent whose compile finishes just before its action number ``after`` + 1."""

    def __init__(self, settings, record, after: int):
        super().__init__(settings, record, compiler=FakeCompiler())
        self.after, self.asked = after, 0

    def get_action(self, state, start=None):
        self.asked += 1
        if self.asked > self.after:
            self.compiler.done = True
        return super().get_action(state, start)


def test_importing_the_client_loads_no_engine():
    code = ("import sys, adapters.oht_client, engines.players.hex\n"
            "print(' '.join(m for m in sys.modules if m.split('.')[0] in ('numba', 'numpy', 'llvmlite') "
            "or (m.startswith(('engines.games', 'engines.search', 'engines.knowledge')) "
            "and m != 'engines.games' and not m.startswith('engines.games.reference'))))")  # pure Python, lazy
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=OHT_WAIT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []


def test_fallback_moves_until_the_compile_is_done_then_the_engine(certs, tmp_path):
    settings = Settings(**CHEAP, log=str(tmp_path / "games.log"))
    agent = CompilingAgent(settings, C.Record(settings.log), after=5)
    config = S.ServerConfig(generation="A", sizes=(5,), series=2, games=3)
    with serving(certs, config) as server:
        status = oht_session.play("A", "127.0.0.1", server.port, certs[0], agent,
                        oht_session.Login(username="student", ask_secret=lambda prompt: "hunter2"), timeout=OHT_WAIT)
    agent.close()
    result = server.results[0]
    assert status == oht_session.EXIT_OK and result.ended == "finished" and result.illegal == []
    assert agent.fallback_moves == 5 and agent.asked > 5                 # then the engine's moves
    assert agent.players[5] is not None and agent.compiler.closed
    record = agent.record
    assert record.series[0]["player"].startswith("quick fallback") and record.series[1]["player"].startswith("RAVE")
    assert [[m[:3] for m in g["moves"]] for g in record.games] == [g["moves"] for g in result.games]
    log = (tmp_path / "games.log").read_text()
    assert "cache is cold" in log and "the engine is compiled: it plays from now on" in log
    first = record.games[0]["moves"][0]
    assert first[:3] == (1, 2, 2)      # we start the first game: the fallback's centre


def test_a_real_cold_start_answers_every_action_at_once_with_legal_moves(certs, tmp_path):
    """A generation-A client process with an empty numba cache against the local server."""
    cache = tmp_path / "cache"
    cache.mkdir()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONWARNINGS": "ignore", oht_session.ENV_PASSWORD: "hunter2"}
    log, record = tmp_path / "games.log", tmp_path / "record.json"
    config = S.ServerConfig(generation="A", sizes=(5, 6), series=2, games=3)
    with serving(certs, config) as server:
        done = subprocess.run([sys.executable, "-m", "adapters.oht_client", "--generation", "A",
                               "--port", str(server.port), "--cert", str(certs[0]), "--username", "student",
                               "--quiet", "--simulations", "30", "--network", "none", "--seed", "0",
                               "--log", str(log), "--record", str(record)],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=OHT_WAIT)
    assert stop_compiles_into(cache) == 1  # the client left its compile running for the next session
    result = server.results[0]
    assert done.returncode == oht_session.EXIT_OK, done.stderr
    assert result.ended == "finished" and result.illegal == [] and len(result.games) == 6
    assert "cold" in done.stderr and "make warmup" in done.stderr
    assert "cache is cold" in log.read_text()
    assert max(result.client_times[:3]) < FIRST_MOVES_BUDGET      # not exceeded: no engine compile on the clock
    saved = json.loads(record.read_text())
    assert saved["totals"]["illegal"] == 0 and saved["series"][0]["player"].startswith("quick fallback")
