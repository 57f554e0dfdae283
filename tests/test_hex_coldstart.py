"""plies-gtp-hex from a cold compiled-kernel cache: every command is answered at once from the pure-Python
board (engines/games/reference/hex.py), genmove is a legal fallback move, and the engine takes over (the same
board and history) at the first command after the background compile is done."""
import io
import os
import random
import subprocess
import sys
import time


from engines.games.reference import hex as hex_rules
from conftest import ROOT, cache_is_warm, compiles_below


class FakeCompiler:
    """A Compiler whose compile finishes when the test says so."""

    def __init__(self):
        self.done = False
        self.cold, self.failed = True, False

    def ready(self):
        return self.done and not self.failed

    def close(self):
        pass


def engine_for(session):
    from adapters.gtp_hex import make_engine
    return make_engine(session)


def ask(engine, line):
    reply = engine.handle(line)
    return reply


def cold_session(**settings):
    from adapters.gtp_hex import HexSession, Settings
    compiler = FakeCompiler()
    return HexSession(Settings(**settings), compiler=compiler, err=io.StringIO()), compiler


# ==== the pure-Python rules ==========================================================================
def test_rules_winner_agrees_with_the_engine_on_random_boards():
    from engines.games import make_game
    rng = random.Random(21)
    for n in (3, 5, 7, 11):
        game = make_game("hex", size=n)
        for _ in range(60):
            cells = [[rng.choice((0, 1, 2)) for _ in range(n)] for _ in range(n)]
            state = game.state_from_cells(cells, 0)
            expected = game.winner(state) if game.is_terminal(state) else None
            assert hex_rules.winner(cells) == expected   # in Hex at most one player connects


def fallback(cells, player: int, seconds: float = 0.2):
    """The cold start's move: the shallow search over the reference rules (engines/players/coldstart.py)."""
    from engines.players.clock import Deadline
    from engines.players.coldstart import fallback_search
    rules = hex_rules.SearchRules(len(cells))
    return rules.point(fallback_search(rules, rules.position(cells, player), Deadline.after(seconds)))


def test_fallback_moves_are_legal_and_sensible():
    rng = random.Random(5)
    for n in (3, 5, 11, 13):
        assert fallback(hex_rules.empty_board(n), 0) == (n // 2, n // 2)   # the centre first
    for n in (3, 5, 8):
        for _ in range(30):
            cells = [[rng.choice((0, 0, 1, 2)) for _ in range(n)] for _ in range(n)]
            if not hex_rules.empty_cells(cells) or hex_rules.winner(cells) is not None:
                continue
            r, c = fallback(cells, rng.choice((0, 1)), 0.02)
            assert cells[r][c] == 0
    # a bridge of black's (1,1)-(2,2) on 5x5: (1,2) and (2,1) are its carriers; white takes one
    cells = hex_rules.empty_board(5)
    cells[1][1] = cells[2][2] = 1
    cells[1][2] = 2
    assert fallback(cells, 0) == (2, 1)
    # no intrusion: black extends toward its edges (rows), not sideways; white toward its columns
    cells = hex_rules.empty_board(7)
    cells[3][3] = 1
    r, _ = fallback(cells, 0)
    assert r in (1, 2, 4, 5)
    cells = hex_rules.empty_board(7)
    cells[3][3] = 2
    _, c = fallback(cells, 1)
    assert c in (1, 2, 4, 5)


# ==== the cold session ===============================================================================
DIALOGUE = ["name", "version", "hexgui-analyze_commands", "boardsize 5", "play b c3", "play w c2", "showboard",
            "all_legal_moves", "undo", "showboard", "play w b3", "final_score", "param_game", "play b a1 ",
            "boardsize 2", "play b a1", "play w zz", "undo", "undo", "undo", "undo", "undo"]


def test_the_cold_session_answers_what_the_engine_answers():
    from adapters.gtp_hex import HexSession, Settings
    cold, _ = cold_session(size=5, simulations=8, time=0)
    warm = HexSession(Settings(size=5, simulations=8, time=0))
    a, b = engine_for(cold), engine_for(warm)
    for line in DIALOGUE:
        assert ask(a, line) == ask(b, line), line


def test_cold_genmoves_are_fallback_moves_then_the_engine_takes_over_the_same_game():
    cold, compiler = cold_session(size=5, simulations=16, time=0, seed=1)
    engine = engine_for(cold)
    for line in ("boardsize 5", "play b c3"):
        assert ask(engine, line) == "= \n\n"
    first = ask(engine, "genmove w")
    assert first.startswith("= ") and cold.fallback_moves == 1 and cold.player is None
    ask(engine, "play b b2")
    ask(engine, "genmove w")
    assert cold.fallback_moves == 2 and cold.player is None
    compiler.done = True
    board = ask(engine, "showboard")            # the first command after the compile switches
    assert cold.player is not None
    assert board == ask(engine, "showboard")
    assert len(cold.player.states) == 1 + 4    # the stones carried over, in order
    reply = ask(engine, "genmove b")
    assert reply.startswith("= ") and cold.fallback_moves == 2 and len(cold.player.states) == 1 + 5
    assert "occupied" in ask(engine, "play w c3")   # the engine's board holds the cold moves


def test_a_whole_cold_game_is_legal_to_the_end():
    cold, _ = cold_session(size=7, simulations=8, time=0)
    engine = engine_for(cold)
    colour = "b"
    for _ in range(49):
        reply = ask(engine, f"genmove {colour}")
        if not reply.startswith("= "):
            assert "the game is over" in reply
            break
        colour = "w" if colour == "b" else "b"
    assert cold.record.winner() is not None and cold.player is None
    assert ask(engine, "final_score").startswith("= ")


# ==== a real cold start ==============================================================================
def gtp_hex_from_a_cold_cache(cache):
    """plies-gtp-hex with an empty numba cache: the cold line on stderr, fallback answers, then the
    engine once the background compile wrote the cache (no duration asserted: we wait for it).  Run
    side by side with the other adapters' real cold starts by
    tests/test_coldstart.py::test_real_cold_starts_side_by_side."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONWARNINGS": "ignore"}
    proc = subprocess.Popen([sys.executable, "-m", "adapters.gtp_hex", "--size", "5", "--time", "0",
                             "--simulations", "64"], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)

    def command(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        reply = []
        while True:
            text = proc.stdout.readline()
            assert text, "the engine closed its output"
            if text == "\n":
                return "".join(reply)
            reply.append(text)
    try:
        assert command("name") == "= plies\n"
        cells = set()
        for colour in ("b", "w"):
            reply = command(f"genmove {colour}")
            assert reply.startswith("= ")
            cells.add(reply.split()[1])
        assert len(cells) == 2
        for _ in range(450):  # the background compile (counted in polls, each a Python start: not too often)
            if cache_is_warm(env, "hex"):
                break
            time.sleep(2)
        proc_done = time.monotonic() + 60     # the stamp is written just before the compile's process ends
        while time.monotonic() < proc_done and compiles_below(proc.pid):
            time.sleep(0.5)
        reply = command("genmove b")
        assert reply.startswith("= ")
        command("quit")
        proc.wait(60)
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "cold" in err and "make warmup" in err
    assert "the compile of hex is done" in err
    assert proc.returncode == 0
    assert any(cache.rglob("*.nbi"))  # the kernels went to the cache the adapter was given
