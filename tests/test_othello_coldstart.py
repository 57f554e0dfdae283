"""Othello's adapters never lose a game to a cold start, a strange board or a crash path: the
pure-Python rules (engines/games/reference/othello.py) against the engine's, the fallback move, the judge and
the manager's board as the truth, plies-otp and the pipe agent from an empty kernel cache for real
(NUMBA_CACHE_DIR an empty folder: the stamp lives there too), and their bad paths."""
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from adapters import othello_agent
from engines.games.reference import othello as rules
from adapters.otp import EXIT_STATUS as OTP_EXIT, OtpSession, OtpSettings, make_engine
from conftest import ROOT, cache_is_warm, compiles_below
from engines.games import make_game
from engines.knowledge.othello.registered import DEFAULT_EVALUATION, EVALUATIONS
from engines.players.coldstart import ColdStart
from protocols.common import FatalError
from protocols.othello_pipe import Flags
from standins import othello_manager as manager
from standins.otp_random import RandomPlayer

AGENT = ROOT / "adapters" / "othello_agent.py"
VENV_BIN = os.path.dirname(sys.executable)


# ==== the rules: the engine's, in pure Python (random games on every size: test_reference_othello.py) ====
def test_rules_refuse_as_the_engine_does():
    game, p = make_game("othello", size=8), rules.Position.start(8)
    for point in ((3, 3), (0, 0)):
        with pytest.raises(rules.IllegalMove) as ours:
            p.play(point)
        with pytest.raises(rules.IllegalMove) as theirs:
            game.play(game.initial_state(), game.action(*point))
        assert str(ours.value) == str(theirs.value) and ours.value.reason == theirs.value.reason


def test_the_fallback_is_legal_and_sensible():
    assert rules.fallback_move([[2, 2, 1, 0]] + [[0] * 4] * 3, 1) is None  # nothing for dark
    corner = rules.initial_board(8)
    corner[0][1:3] = [2, 1]            # dark's corner (0, 0) flips one disc
    corner[7][3:6] = [2, 2, 1]         # dark's edge square (7, 2) flips two
    assert rules.fallback_move(corner, 1) == (0, 0)  # a corner first
    rng = np.random.default_rng(0)
    for _ in range(20):  # legal by construction, in random positions of every size
        size = int(rng.integers(4, 13))
        p = rules.Position.start(size)
        while not p.is_over():
            point = p.fallback()
            assert point in p.legal()
            legal = p.legal()
            p = p.play(legal[int(rng.integers(len(legal)))])


def test_the_fallback_avoids_the_square_next_to_an_empty_corner():
    board = [[0] * 6 for _ in range(6)]
    board[2][2], board[3][3], board[4][4] = 2, 2, 1  # dark's (1, 1), an X-square, would flip two
    board[2][4], board[2][5] = 2, 1                  # dark's (2, 3) flips one
    assert rules.legal_moves(board, 1) == [(1, 1), (2, 3)]
    assert rules.fallback_move(board, 1) == (2, 3)


# ==== plies-otp: the judge is the authority =====================================================
class FakeCompiler:
    def __init__(self):
        self.done = False
        self.said = []

    def ready(self):
        return self.done

    def say(self, text):  # the Compiler's one line on stderr
        self.said.append(text)

    def wait(self, timeout=None):
        return self.done


def cold_start(make_player, compiler):
    """The adapters' ColdStart with a compiler the test finishes by hand."""
    cold = ColdStart("othello", "test", make_player, start=False)
    cold.compiler = compiler
    return cold


def judged():
    """A judge's session whose moves are the cold-start fallback search (a cold cache: deterministic up
    to the search's depth; the opening's four moves are equal, so the first is taken)."""
    warnings = []
    session = OtpSession(cold_start(lambda: None, FakeCompiler()), OtpSettings(name="x", time=0.3), authority=True,
                         warn=warnings.append)
    return session, make_engine(session), warnings


def test_the_judges_play_is_played_even_where_our_rules_refuse_it():
    s, e, warnings = judged()
    assert [e.handle(m) for m in ("clear_board", "genmove")] == ["clear_board", "genmove 2 3"]  # we are black
    assert e.handle("play 2 3") == "play"  # white on the square we took: the judge says so
    assert len(warnings) == 1 and "occupied" in warnings[0] and "as the judge says" in warnings[0]
    assert s.position.board[2][3] == 2 and s.position.to_move == 1  # white's disc, black to move
    assert e.handle("play 0 0") == "play" and len(warnings) == 2  # white again: out of turn, played
    assert s.position.board[0][0] == 2 and s.position.to_move == 1
    reply = e.handle("genmove")
    assert reply.startswith("genmove ") and not reply.startswith("genmove 8 0")
    assert e.handle("play 8 0") == "play" and len(warnings) == 3 and "pass" not in e.handle("final_score")


def test_a_human_on_stdin_still_gets_a_one_line_refusal():
    session = OtpSession(RandomPlayer(0), OtpSettings())
    e = make_engine(session)
    e.handle("play 2 3")
    assert e.handle("play 2 3").startswith("? illegal move") and e.handle("play 8 0").startswith("? illegal move")


def test_genmove_on_a_board_we_think_over_is_a_pass():
    s, e, warnings = judged()
    s.position = rules.Position([[1] * 8 for _ in range(7)] + [[0] * 8], 2)  # no white disc: over
    assert s.position.is_over() and e.handle("genmove") == "genmove 8 0" and e.handle("play 8 0") == "play"
    assert warnings == []


def test_fallback_moves_until_the_compile_is_done_then_the_engine():
    """A cold session answers genmove from the rules, builds the engine's player at the first genmove
    after the compile, and searches from then on."""
    compiler, built = FakeCompiler(), []

    def build():
        built.append(RandomPlayer(1))
        return built[-1]
    session = OtpSession(cold_start(build, compiler), OtpSettings(time=0.3))
    e = make_engine(session)
    for _ in range(3):
        assert e.handle("genmove").startswith("genmove ")
    assert (session.fallbacks, session.searched, built) == (3, 0, [])
    compiler.done = True
    for _ in range(3):
        assert e.handle("genmove").startswith("genmove ")
    assert (session.fallbacks, session.searched, len(built)) == (3, 3, 1)


def test_the_player_is_built_in_the_background_while_fallback_moves_go_on():
    """background=True (plies-otp and the pipe agent): the first genmove after the compile starts the
    build in a thread and is answered by the fallback search within its budget; the engine plays from
    the first genmove after the build is done."""
    import threading
    compiler, release, built = FakeCompiler(), threading.Event(), []

    def build():
        release.wait(60)
        built.append(RandomPlayer(1))
        return built[-1]
    cold = ColdStart("othello", "test", build, start=False, background=True)
    cold.compiler = compiler
    session = OtpSession(cold, OtpSettings(time=0.3))
    e = make_engine(session)
    assert e.handle("genmove").startswith("genmove ")
    compiler.done = True
    for _ in range(2):  # the build runs (blocked here): fallback moves meanwhile
        assert e.handle("genmove").startswith("genmove ")
    assert (session.fallbacks, session.searched, built) == (3, 0, []) and cold._builder.is_alive()
    release.set()
    cold._builder.join(60)
    assert e.handle("genmove").startswith("genmove ") and (session.fallbacks, session.searched, len(built)) == (3, 1, 1)
    assert compiler.said == ["the player is loaded: the engine plays from the next move"]
    agent = othello_agent.PipeAgent(othello_agent.OthelloAgentSettings(time=0.2))
    agent.cold = ColdStart("othello", "test", agent.warm_up, start=False, background=True)
    agent.cold.compiler = FakeCompiler()
    agent.cold.compiler.done = True
    assert agent.cold.wait() and set(agent._players) == set(othello_agent.WARM_UP_SIZES)


# ==== the pipe agent: the manager's board is the truth ===========================================
def test_an_unexpected_board_is_played_with_a_warning():
    warnings = []
    agent = othello_agent.PipeAgent(othello_agent.OthelloAgentSettings(time=0.2), warn=warnings.append)
    start = rules.initial_board(6)
    point = agent.choose(start, Flags(1, 2))
    assert warnings == [] and point in rules.legal_moves(start, 1)
    odd = [[0] * 6 for _ in range(6)]
    odd[0][0], odd[0][1], odd[5][5] = 1, 2, 2  # unreachable: far from the last board
    point = agent.choose(odd, Flags(1, 2))
    assert point == (0, 2) and len(warnings) == 1 and "playing the board as given" in warnings[0]


def test_a_size_the_engine_does_not_play_is_played_by_the_rules():
    warnings = []
    agent = othello_agent.PipeAgent(othello_agent.OthelloAgentSettings(time=0.3), warn=warnings.append)
    for size in (3, 18):
        board = rules.initial_board(size)
        point = agent.choose(board, Flags(1, -1))
        assert point in rules.legal_moves(board, 1) and "sizes 4 to 16" in warnings[-1]
    assert agent.fallbacks == 2 and agent.searched == 0
    with pytest.raises(FatalError):
        agent.choose([[1, 1], [1, 0]], Flags(2, -1))


def test_a_cold_agent_plays_the_rules_move_then_searches():
    compiler = FakeCompiler()
    agent = othello_agent.PipeAgent(othello_agent.OthelloAgentSettings(time=0.2), cold=cold_start(lambda: True, compiler))
    board = rules.initial_board(8)
    assert agent.choose(board, Flags(1, 2)) == rules.fallback_move(board, 1) and agent.last is None
    compiler.done = True
    agent.after = None
    agent.choose(board, Flags(1, 2))
    assert (agent.fallbacks, agent.searched) == (1, 1) and agent.last is not None


def test_the_agents_evaluation_names_are_the_engines():
    assert othello_agent.EVALUATION_NAMES == tuple(EVALUATIONS)
    assert othello_agent.DEFAULT_EVALUATION == DEFAULT_EVALUATION


# ==== for real, from an empty cache ==============================================================
def cold_env(folder, **extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PLIES_OTHELLO", "PLIES_OTP"))}
    env.update(NUMBA_CACHE_DIR=str(folder / "numba"), PATH=VENV_BIN + os.pathsep + env.get("PATH", ""))
    env.update(extra)
    return env


def _wait_warm(env, proc, limit=900.0):
    """Until the stamp says warm and the adapter's background compile has exited (it writes the stamp
    just before it exits, and the adapter switches to the engine only once it has: a loaded machine
    may take seconds between the two)."""
    end = time.monotonic() + limit
    while not cache_is_warm(env, "othello") or compiles_below(proc.pid):
        assert time.monotonic() < end, "the background compile did not finish"
        time.sleep(2)  # each check is a Python start: not too often


# The two real cold starts below are run side by side with the other adapters' by
# tests/test_coldstart.py::test_real_cold_starts_side_by_side, on one cache (one of them compiles).
def plies_otp_from_a_cold_cache(folder):
    """It says so at once, answers at once with legal fallback moves, and plays with the engine once
    the background compile is done."""
    env = cold_env(folder)
    proc = subprocess.Popen([sys.executable, "-m", "adapters.otp", "--time", "0.2"], cwd=ROOT, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        began = time.monotonic()
        proc.stdin.write("name\ngenmove\n")
        proc.stdin.flush()
        assert proc.stdout.readline() == "name plies\n"
        first = proc.stdout.readline()
        fast = time.monotonic() - began
        assert first.startswith("genmove ") and not cache_is_warm(env, "othello")
        _wait_warm(env, proc)
        proc.stdin.write("genmove\nshowboard\nquit\n")
        proc.stdin.flush()
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    p = rules.Position.start(8)
    for reply in (first, out.splitlines()[0]):
        row, col = map(int, reply.split()[1:])
        assert (row, col) in p.legal()
        p = p.play((row, col))
    assert proc.returncode == 0 and "cold" in err and "the engine plays from now on" in err and "Traceback" not in err
    print(f"cold: first genmove answered after {fast:.2f} s")


def pipe_agent_from_a_cold_cache(folder):
    """The name at once, a legal fallback move in time, then the engine's move (verbose: its depth)
    once the compile is done and the player loaded (in the background, a fallback move meanwhile)."""
    import threading
    # (no opening book: the engine's move after the take-over is then a search, whose depth is logged)
    env = cold_env(folder, PLIES_OTHELLO_VERBOSE="1", PLIES_OTHELLO_TIME="0.3", PLIES_OTHELLO_BOOK="0")
    proc = subprocess.Popen(["python3", str(AGENT)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stderr.readline, b"")), daemon=True)
    reader.start()
    board = manager.initial_board(8)

    def our_move_and_theirs(board):
        proc.stdin.write(b"SCORE %d %d\n%s\n" % (*manager.score(board), str(board).encode()))
        proc.stdin.flush()
        i, j = map(int, proc.stdout.readline().split())
        assert (i, j) in manager.possible_moves(board, 1)
        board = manager.play_move(board, 1, i, j)
        return manager.play_move(board, 2, *manager.possible_moves(board, 2)[0])
    try:
        assert proc.stdout.readline() == b"plies\n"
        proc.stdin.write(b"1,-1,0,1,1\n")
        board = our_move_and_theirs(board)
        assert not cache_is_warm(env, "othello")
        _wait_warm(env, proc)
        board = our_move_and_theirs(board)  # the first move after the compile starts loading the player
        end = time.monotonic() + 300
        while not any(b"the player is loaded" in line for line in lines):
            assert time.monotonic() < end, "the player was not loaded"
            time.sleep(0.2)
        proc.stdin.write(b"SCORE %d %d\n%s\nFINAL 0 0\n" % (*manager.score(board), str(board).encode()))
        proc.stdin.flush()
        proc.stdin.close()
        out = proc.stdout.read()  # stderr is the reader's
        proc.wait(timeout=300)
        reader.join(60)
        err = b"".join(lines)
    finally:
        if proc.poll() is None:
            proc.kill()
        reader.join(60)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            pipe.close()
    i, j = map(int, out.split())
    assert (i, j) in manager.possible_moves(board, 1) and proc.returncode == 0
    assert b"cold" in err and b"rules' fallback" in err and b" depth " in err and b"Traceback" not in err


# ==== crash paths: one line, the cause and the fix, a documented status ==========================
def _otp(args, tmp_path, **kw):
    return subprocess.run([sys.executable, "-m", "adapters.otp", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, **kw)


@pytest.mark.parametrize("case", ["missing", "directory", "unreadable", "bad toml", "bad env"])
def test_plies_otp_bad_settings(tmp_path, case):
    path = tmp_path / "otp.toml"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLIES_OTP")}
    if case == "directory":
        path.mkdir()
    elif case == "unreadable":
        path.write_text("time = 1\n")
        path.chmod(0)
        if os.access(path, os.R_OK):
            pytest.skip("running as root: every file is readable")
    elif case == "bad toml":
        path.write_text("time = = 1\n")
    args = [] if case == "bad env" else ["--config", str(path)]
    if case == "bad env":
        env["PLIES_OTP_TIME"] = "soon"
    done = _otp(args, tmp_path, env=env, input="name\n")
    assert done.returncode == OTP_EXIT["refused"][0] and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr and "Fix:" in done.stderr
    assert {"missing": "no file", "directory": "directory", "unreadable": "ermission", "bad toml": "cannot read",
            "bad env": "PLIES_OTP_TIME"}[case] in done.stderr


def test_plies_otp_without_stdio(tmp_path):
    done = subprocess.run(f"{sys.executable} -m adapters.otp >&-", shell=True, cwd=ROOT, input="name\nname\n",
                          capture_output=False, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == OTP_EXIT["no stdio"][0] and "Traceback" not in done.stderr
    assert "stdout" in done.stderr and done.stderr.count("\n") == 1
    nothing = _otp([], tmp_path, stdin=subprocess.DEVNULL)  # no terminal, nothing to read: a quiet end
    assert nothing.returncode == 0 and nothing.stdout == "" and "Traceback" not in nothing.stderr


@pytest.mark.parametrize("case", ["directory", "unreadable", "bad toml", "bad env"])
def test_the_pipe_agent_bad_settings(tmp_path, case):
    copy = tmp_path / "othello_agent.py"
    copy.write_bytes(AGENT.read_bytes())
    path = tmp_path / othello_agent.SETTINGS_FILE
    env = cold_env(tmp_path)
    env.pop("NUMBA_CACHE_DIR")
    if case == "directory":
        path.mkdir()
    elif case == "unreadable":
        path.write_text("time = 1\n")
        path.chmod(0)
        if os.access(path, os.R_OK):
            pytest.skip("running as root: every file is readable")
    elif case == "bad toml":
        path.write_text("time = = 1\n")
    else:
        env["PLIES_OTHELLO_TT_SIZE"] = "1000"
    done = subprocess.run(["python3", str(copy)], input=b"1,-1,0,0,0\n", capture_output=True, env=env, timeout=120)
    assert done.returncode == othello_agent.EXIT_STATUS["fatal"][0] and done.stdout == b""
    assert done.stderr.count(b"\n") == 1 and b"Traceback" not in done.stderr and b"Fix:" in done.stderr


def test_the_pipe_agent_without_stdout(tmp_path):
    env = cold_env(tmp_path)
    env.pop("NUMBA_CACHE_DIR")
    done = subprocess.run(f"python3 {AGENT} >&-", shell=True, input=b"1,-1,0,0,0\n", stderr=subprocess.PIPE,
                          env=env, timeout=120)
    assert done.returncode == othello_agent.EXIT_STATUS["fatal"][0]
    assert done.stderr.count(b"\n") == 1 and b"stdout" in done.stderr and b"Traceback" not in done.stderr
