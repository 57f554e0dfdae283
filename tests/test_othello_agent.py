"""The Othello game manager's pipe agent (adapters/othello_agent.py): the dialogue codec and core, the
flags reaching the search, perfect 4x4 play, the time budget on the CPU clock, the settings and exit
statuses, bad input, and seeded whole games through our stand-in of the manager
(standins/othello_manager.py), which runs ``python3 FILE`` as the real one does (the venv's bin first
on PATH)."""
import ast
import functools
import io
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT
from hypothesis import given, settings, strategies as st

from adapters import othello_agent
from adapters.othello_agent import EXIT_STATUS, OthelloAgentSettings, PipeAgent, search_config, search_depth
from engines.knowledge.othello.registered import EVALUATIONS
from protocols.common import EndOfInput, FatalError, ProtocolError, Quit
from protocols.othello_pipe import (AgentSession, Flags, LineChannel, format_final, format_flags, format_score,
                                    parse_final, parse_flags, parse_score)
from standins import othello_manager as manager

AGENT = ROOT / "adapters" / "othello_agent.py"
RANDY = ROOT / "standins" / "othello_randy.py"
VENV_BIN = os.path.dirname(sys.executable)
MOVE_LINE = re.compile(rb"[0-9]+ [0-9]+\n")
STARTUP = 300.0   # seconds allowed for an agent's name (kernels load from the cache; generous for CI)


def agent_env(**extra) -> dict:
    """The environment of a manager whose python3 is the venv's, Randy seeded (OTHELLO_RANDY_SEED)
    and no PLIES_OTHELLO_* settings unless given."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLIES_OTHELLO_")
           and k not in ("PLIES_OTHELLO_PYTHON", "PLIES_HOME")}
    env.update(PATH=VENV_BIN + os.pathsep + os.environ.get("PATH", ""), OTHELLO_RANDY_SEED="0")
    env.update(extra)
    return env


def run_agent(stdin: bytes, path=AGENT, cwd=None, env=None, python="python3"):
    return subprocess.run([python, str(path)], input=stdin, capture_output=True, cwd=cwd,
                          env=env or agent_env(), timeout=STARTUP)


def board_text(board) -> bytes:
    return (str(board) + "\n").encode()


def game(a, b, size, tmp_path, **options):
    """A game through the stand-in manager with the agents' stderr captured; (result, stderr text)."""
    log = tmp_path / f"stderr-{size}-{len(list(tmp_path.iterdir()))}.txt"
    with open(log, "wb") as err:
        result = manager.play_game(str(a), str(b), size, env=options.pop("env", None) or agent_env(), stderr=err,
                                   final_grace=60.0, name_timeout=STARTUP, **options)
    return result, log.read_text()


@functools.lru_cache(maxsize=None)
def in_process_agent() -> PipeAgent:
    return PipeAgent()


# ==== the codec and the dialogue core ============================================================
def test_flags_lines():
    assert parse_flags("1,3,0,1,0\n") == Flags(color=1, limit=3, minimax=False, caching=True, ordering=False)
    assert parse_flags("2,-1,1,0,1") == Flags(2, -1, True, False, True)
    assert format_flags(Flags(2, -1, True, False, True)) == "2,-1,1,0,1"
    for bad in ("", "1", "1,2,0,0", "1,2,0,0,0,0", "0,2,0,0,0", "3,2,0,0,0", "1,-2,0,0,0", "1,2,2,0,0",
                "1,x,0,0,0", "1 2 0 0 0", "1,2,0,0,-1", "1,,0,0,0"):
        with pytest.raises(ProtocolError):
            parse_flags(bad)


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_flags_parser_fuzz(text):
    try:
        flags = parse_flags(text)
    except ProtocolError:
        return
    assert parse_flags(format_flags(flags)) == flags


def test_score_and_final_lines():
    assert parse_score("SCORE 2 3\n") == (2, 3)
    assert parse_final("FINAL 33 31") == (33, 31)
    assert format_score(2, 3) == "SCORE 2 3" and format_final(33, 31) == "FINAL 33 31"
    for bad in ("SCORE 2", "SCORE a b", "score 2 2", "FINAL 2 2", "SCORE -1 2", "SCORE 1 2 3"):
        with pytest.raises(ProtocolError):
            parse_score(bad)


def test_session_turns_and_errors():
    calls, warnings = [], []

    def choose(board, flags, received):
        calls.append((board, flags, received))
        return 2, 3  # (row, col)

    start = str(manager.initial_board(4))
    s = AgentSession(choose, warn=warnings.append, clock=lambda: 7.5)
    assert s.handle("2,4,0,1,1\n") is None
    assert s.handle("SCORE 2 2\n") is None
    assert s.handle(start + "\n") == "3 2"  # column first, the board's arrival on the session's clock
    assert calls == [(manager.initial_board(4), Flags(2, 4, False, True, True), 7.5)] and warnings == []
    assert s.handle("SCORE 9 9") is None
    assert s.handle(str(tuple(map(tuple, manager.initial_board(4))))) == "3 2"
    assert len(warnings) == 1 and "SCORE 9 9" in warnings[0]
    with pytest.raises(Quit):
        s.handle("FINAL 2 2")
    cases = [["garbage"], ["1,2,0,0,0", "SCORE 2 2", "__import__('os')"],
             ["1,2,0,0,0", "[[0]]"], ["1,2,0,0,0", "SCORE 2 2", str([[0] * 3] * 3)],
             ["1,2,0,0,0", "SCORE 2 2", str([[0] * 17] * 17)], ["1,2,0,0,0", "SCORE 2 2", str([[0] * 4] * 5)],
             ["1,2,0,0,0", "SCORE 2 2", str([[0, 0, 0, 3]] * 4)]]
    for lines in cases:
        s = AgentSession(choose)
        with pytest.raises(FatalError):
            for line in lines:
                s.handle(line)


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=60), min_size=1, max_size=4))
def test_session_fuzz(lines):
    """Any lines: a reply, a quit or a fatal error with a message; never another exception."""
    s = AgentSession(lambda board, flags, received: (0, 0))
    try:
        for line in lines:
            reply = s.handle(line)
            assert reply is None or reply == "0 0"
    except (FatalError, Quit):
        pass


# ==== the flags reach the search =================================================================
def test_flags_select_the_search():
    assert search_config(Flags(1, -1, True, True, True)) == {
        "use_alphabeta": False, "use_cache": True, "use_ordering": False, "iterative_deepening": True}
    assert search_config(Flags(1, 3, False, False, True))["use_ordering"] is True
    assert search_config(Flags(1, 3, False, False, False)) == {
        "use_alphabeta": True, "use_cache": False, "use_ordering": False, "iterative_deepening": True}
    assert [search_depth(Flags(1, n)) for n in (-1, 0, 1, 5)] == [None, 1, 1, 5]


def _stats(board, color, limit, minimax=False, caching=False, ordering=False):
    agent = in_process_agent()
    point = agent.choose(board, Flags(color, limit, minimax, caching, ordering))
    return point, agent.last


def test_each_flag_changes_the_search_and_depth_is_respected():
    board = [list(r) for r in manager.play_move(manager.initial_board(8), 1, 2, 3)]  # light to move
    results = {key: _stats(board, 2, 6, *key) for key in
               [(True, False, False), (False, False, False), (False, True, False), (False, False, True),
                (False, True, True), (True, True, False)]}
    nodes = {key: r.stats["nodes"] for key, (_, r) in results.items()}
    for key, (point, r) in results.items():
        assert r.stats["depth"] == 6 and not r.stats["complete"]
        assert (point[1], point[0]) in manager.possible_moves(board, 2)
    minimax, alphabeta = results[(True, False, False)][1], results[(False, False, False)][1]
    assert nodes[(True, False, False)] > nodes[(False, False, False)]        # -m searches every child
    assert minimax.value == alphabeta.value                                    # ... for the same value
    assert nodes[(False, True, False)] < nodes[(False, False, False)]         # -c: transpositions cut off
    assert results[(False, True, False)][1].stats["tt_hits"] > 0
    assert nodes[(False, False, True)] < nodes[(False, False, False)]         # -o
    assert nodes[(True, True, False)] < nodes[(True, False, False)]           # -m -c: repeated states cached
    for limit in (1, 2, 3, 5):
        _, r = _stats(board, 2, limit, ordering=True)
        assert r.stats["depth"] == limit and len(r.pv) <= limit
    _, r = _stats(board, 2, 0)
    assert r.stats["depth"] == 1


# ==== perfect play on 4x4 (the manager's variant: the game ends when the mover is stuck) ==========
def _solve(board, color, memo) -> int:
    """Exact disc margin for color to move, by plain negamax over the manager's rules."""
    key = (board, color)
    if key not in memo:
        moves = manager.possible_moves(board, color)
        if not moves:
            d, l = manager.score(board)
            memo[key] = d - l if color == 1 else l - d
        else:
            memo[key] = max(-_solve(manager.play_move(board, color, i, j), 3 - color, memo) for i, j in moves)
    return memo[key]


def test_minimax_without_limit_wins_every_4x4_game_as_light():
    start = tuple(map(tuple, manager.initial_board(4)))
    memo = {}
    assert _solve(start, 1, memo) < 0  # the second player wins with perfect play (independent solver)
    agent = PipeAgent()
    flags = Flags(color=2, limit=-1, minimax=True)
    answers, finals, solved = {}, [], []

    def light(board):
        if board not in answers:
            row, col = agent.choose(board, flags)
            solved.append(agent.player(4).last.get("forced") or agent.last.stats["complete"])  # forced: at once
            answers[board] = (col, row)
        return answers[board]

    def every_dark_line(board):  # dark to move: try every reply; light answers with the agent
        moves = manager.possible_moves(board, 1)
        if not moves:
            finals.append(manager.score(board))
            return
        for i, j in moves:
            after = manager.play_move(board, 1, i, j)
            if not manager.possible_moves(after, 2):
                finals.append(manager.score(after))
                continue
            reply = light(after)
            assert _solve(after, 2, memo) == -_solve(manager.play_move(after, 2, *reply), 1, memo)  # optimal
            every_dark_line(manager.play_move(after, 2, *reply))

    every_dark_line(start)
    assert len(finals) > 50 and all(l > d for d, l in finals)
    assert all(solved)


# ==== the time budget, on the CPU clock ==========================================================
@pytest.mark.parametrize("size, limit, minimax", [(8, -1, False), (16, -1, False), (8, 12, True)])
def test_answer_within_the_budget_on_the_cpu_clock(size, limit, minimax):
    budget = 0.4
    messages = []
    # the search's budget: no opening book (it would answer this second move of 8x8 at once)
    agent = PipeAgent(OthelloAgentSettings(time=budget, book=False), clock=time.thread_time, log=messages.append)
    board = [list(r) for r in manager.play_move(manager.initial_board(size), 1, size // 2 - 2, size // 2 - 1)]
    flags = Flags(color=2, limit=limit, minimax=minimax, caching=True, ordering=True)
    agent.choose(board, flags)  # the searcher is built (the manager's first move pays this too)
    received = time.thread_time()
    row, col = agent.choose(board, flags, received)
    assert time.thread_time() - received <= budget  # not exceeded
    assert (col, row) in manager.possible_moves(board, 2)
    assert agent.last.stats["depth"] >= 1 and not agent.last.stats["complete"]
    if limit > 0:
        assert agent.last.stats["depth"] < limit and any("budget ran out" in m for m in messages)


def test_settings_defaults_file_and_environment(tmp_path):
    assert othello_agent.load_settings(tmp_path / "absent.toml", env={}) == OthelloAgentSettings() == \
        OthelloAgentSettings(time=8.0, verbose=False, name="plies", evaluation="patterns", tt_size=1 << 20)
    f = tmp_path / "othello_agent.toml"
    f.write_text('time = 2.5\nevaluation = "disc_difference"\ntt_size = 1024\n')
    s = othello_agent.load_settings(f, env={})
    assert (s.time, s.evaluation, s.tt_size, s.verbose) == (2.5, "disc_difference", 1024, False)
    s = othello_agent.load_settings(f, env={"PLIES_OTHELLO_TIME": "4", "PLIES_OTHELLO_VERBOSE": "1"})
    assert (s.time, s.verbose, s.evaluation) == (4.0, True, "disc_difference")
    search = PipeAgent(s).player(6).searcher_for(search_config(Flags(1, 3, caching=True)))  # the settings reach the search
    assert search.config.tt_size == 1024 and search.config.use_cache
    assert search.knowledge.evaluate is EVALUATIONS["disc_difference"](None).evaluate


@pytest.mark.parametrize("env, toml, words", [
    ({"PLIES_OTHELLO_TIME": bad}, None, ["time"]) for bad in ("0", "-1", "nan", "inf", "soon")
] + [({"PLIES_OTHELLO_SECONDS": "4"}, None, ["PLIES_OTHELLO_SECONDS is now PLIES_OTHELLO_TIME"]),
     ({}, "seconds = 4\n", ["the key seconds", "is now time"]),
     ({"PLIES_OTHELLO_VERBOSE": "maybe"}, None, ["PLIES_OTHELLO_VERBOSE"]),
     ({}, 'evaluation = "best"\n', ["evaluation", "strong"]), ({}, "tt_size = 1000\n", ["power of two"]),
     ({}, "second = 3\n", ["unknown key", "second"]), ({}, 'name = "two words"\n', ["name"])])
def test_a_bad_setting_is_a_clear_error(tmp_path, env, toml, words):
    f = tmp_path / "othello_agent.toml"
    if toml is not None:
        f.write_text(toml)
    with pytest.raises(othello_agent.ConfigError) as err:
        othello_agent.load_settings(f, env=env)
    assert all(w in str(err.value) for w in words), str(err.value)


def test_exit_statuses_are_documented():
    assert {k: v[0] for k, v in EXIT_STATUS.items()} == {"done": 0, "fatal": 2, "no plies": 3}
    for status, meaning in EXIT_STATUS.values():
        assert f"  {status}  {meaning}" in othello_agent.__doc__


# ==== the process: dialogue byte for byte, where it runs, bad input ==============================
def test_dialogue_byte_exact():
    flags = Flags(color=1, limit=3, caching=True, ordering=True)
    board1 = manager.initial_board(8)
    row1, col1 = in_process_agent().choose(board1, flags)
    after = manager.play_move(board1, 1, col1, row1)
    board2 = manager.play_move(after, 2, *manager.possible_moves(after, 2)[0])
    row2, col2 = in_process_agent().choose(board2, flags)
    (d1, l1), (d2, l2) = manager.score(board1), manager.score(board2)
    stdin = (f"{format_flags(flags)}\nSCORE {d1} {l1}\n".encode() + board_text(board1)
             + f"SCORE {d2} {l2}\n".encode() + board_text(board2) + f"FINAL {d2} {l2}\n".encode())
    assert stdin.count(b"[[") == 1 and stdin.count(b"((") == 1  # a list first, then tuples
    out = run_agent(stdin)
    assert out.returncode == 0 and out.stderr == b""
    assert out.stdout == f"plies\n{col1} {row1}\n{col2} {row2}\n".encode()


def test_runs_from_another_directory_and_as_a_copy(tmp_path):
    board = manager.play_move(manager.initial_board(4), 1, 1, 0)
    stdin = b"2,2,0,0,0\n%s\n" % format_score(*manager.score(board)).encode() + board_text(board) + b"FINAL 2 2\n"
    here = run_agent(stdin)
    elsewhere = run_agent(stdin, cwd=tmp_path)
    copy = tmp_path / "my_agent.py"
    shutil.copy(AGENT, copy)
    copied = run_agent(stdin, path="my_agent.py", cwd=tmp_path)
    for out in (here, elsewhere, copied):
        assert out.returncode == 0 and out.stderr == b""
        assert out.stdout.startswith(b"plies\n") and MOVE_LINE.fullmatch(out.stdout[6:])
    assert here.stdout == elsewhere.stdout == copied.stdout


def test_settings_beside_the_copy_and_the_environment(tmp_path):
    """othello_agent.toml beside the file the manager runs (here a copy), PLIES_OTHELLO_<KEY> over it,
    and a bad value: a one-line reason on stderr and the documented status, before the name."""
    copy = tmp_path / "my_agent.py"
    shutil.copy(AGENT, copy)
    (tmp_path / "othello_agent.toml").write_text('name = "filed"\ntime = 0.5\n')
    stdin = b"1,1,0,0,0\nFINAL 2 2\n"
    assert run_agent(stdin, path=copy).stdout == b"filed\n"
    assert run_agent(stdin, path=copy, env=agent_env(PLIES_OTHELLO_NAME="told")).stdout == b"told\n"
    (tmp_path / "othello_agent.toml").write_text('time = "soon"\n')
    out = run_agent(stdin, path=copy)
    assert out.returncode == EXIT_STATUS["fatal"][0] and out.stdout == b""
    assert b"time" in out.stderr and out.stderr.count(b"\n") == 1 and b"Traceback" not in out.stderr


def test_the_pipes_raise_end_of_input():
    out = io.BytesIO()
    channel = LineChannel(io.BytesIO(b"1,2,0,0,0\nSCORE 2 2"), out)
    assert channel.receive() == "1,2,0,0,0\n" and channel.receive() == "SCORE 2 2"
    with pytest.raises(EndOfInput):
        channel.receive()
    channel.send("2 3")
    assert out.getvalue() == b"2 3\n"


def _python_without_plies():
    for python in ("/usr/bin/python3", "/bin/python3"):
        if os.path.isfile(python):
            found = subprocess.run([python, "-c", "import numba"], capture_output=True, env={"PATH": "/usr/bin:/bin"})
            if found.returncode != 0:
                return python
    return None


@pytest.mark.skipif(_python_without_plies() is None, reason="no Python without plies on this machine")
def test_a_python_without_plies(tmp_path):
    python = _python_without_plies()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    env.update({k: v for k, v in os.environ.items() if k in ("PYTHONPATH", "NUMBA_CACHE_DIR")})
    copy = tmp_path / "othello_agent.py"
    shutil.copy(AGENT, copy)
    lost = run_agent(b"1,1,0,0,0\n", path=copy, env=env, python=python)
    assert lost.returncode == EXIT_STATUS["no plies"][0] and lost.stdout == b""
    assert b"cannot import plies" in lost.stderr and b"Traceback" not in lost.stderr
    # the same copy told where plies' Python is, and the tree's own file (it finds the tree's .venv)
    told = run_agent(b"1,1,0,0,0\nFINAL 2 2\n", path=copy, env=dict(env, PLIES_OTHELLO_PYTHON=sys.executable), python=python)
    assert told.returncode == 0 and told.stdout == b"plies\n"
    if Path(ROOT, ".venv", "bin", "python").exists():
        tree = run_agent(b"1,1,0,0,0\nFINAL 2 2\n", env=env, python=python)
        assert tree.returncode == 0 and tree.stdout == b"plies\n"


BAD_BOARDS = {
    "3x3": str([[0] * 3] * 3),
    "17x17": str([[0] * 17] * 17),
    "ragged": str([[0] * 6] * 5 + [[0] * 5]),
    "values": str([[0, 0, 0, 0], [0, 2, 1, 0], [0, 1, 5, 0], [0, 0, 0, 0]]),
    "not a literal": "__import__('os').system('echo hacked')",
    "not a board": "'hello'",
    "no move for us": str([[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 0]]),
}


WELL_FORMED = ("3x3", "17x17", "no move for us")  # well-formed boards without a move for us: nothing legal to say


@pytest.mark.parametrize("what", sorted(BAD_BOARDS))
def test_bad_boards_stop_the_agent_with_a_message(what):
    score = b"SCORE %d %d\n" % manager.score(ast.literal_eval(BAD_BOARDS[what])) if what in WELL_FORMED else b"SCORE 2 2\n"
    out = run_agent(b"2,2,0,0,0\n" + score + BAD_BOARDS[what].encode() + b"\n")
    assert out.returncode == EXIT_STATUS["fatal"][0]
    assert out.stdout == b"plies\n" and b"hacked" not in out.stdout
    assert out.stderr.startswith(b"plies: ") and b"Traceback" not in out.stderr and out.stderr.count(b"\n") == 1


@pytest.mark.parametrize("lines", [b"garbage\n", b"1,2,3\n", b"1,2,0,0,0\nhello\n", b"1,2,0,0,0\nSCORE x y\n"])
def test_garbage_lines_stop_the_agent_with_a_message(lines):
    out = run_agent(lines)
    assert out.returncode == EXIT_STATUS["fatal"][0] and out.stdout == b"plies\n"
    assert out.stderr.startswith(b"plies: ") and b"Traceback" not in out.stderr


@pytest.mark.parametrize("stdin, moves", [
    (b"", 0), (b"1,2,0,0,0\n", 0), (b"1,2,0,0,0\nSCORE 2 2\n", 0),
    (b"1,2,0,0,0\nSCORE 2 2\n" + board_text(manager.initial_board(8)), 1)])
def test_end_of_input_is_a_quiet_exit(stdin, moves):
    out = run_agent(stdin)
    assert out.returncode == 0 and b"Traceback" not in out.stderr
    assert out.stdout.startswith(b"plies\n") and len(MOVE_LINE.findall(out.stdout[6:])) == moves
    assert len(out.stdout[6:]) == sum(len(m) for m in MOVE_LINE.findall(out.stdout[6:]))


def test_broken_pipe_is_a_quiet_exit():
    process = subprocess.Popen(["python3", str(AGENT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=agent_env())
    try:
        assert process.stdout.readline() == b"plies\n"
        process.stdout.close()  # the manager stops listening: the move cannot be written
        process.stdin.write(b"1,2,0,0,0\nSCORE 2 2\n" + board_text(manager.initial_board(8)))
        process.stdin.close()
        assert process.wait(timeout=STARTUP) == 0
        assert process.stderr.read() == b""
    finally:
        if process.poll() is None:
            process.kill()
        process.stderr.close()


# ==== whole games through the stand-in manager ===================================================
def _assert_clean(result, log, ours):
    assert result.reason.startswith("no legal move"), result.reason  # no forfeit
    assert all(result.exit_codes[c] == 0 for c in ours), result.exit_codes  # quiet exit after FINAL
    assert "Traceback" not in log and all(result.names[c] == "plies" for c in ours)
    d, l = manager.score(result.board)
    assert (result.dark, result.light) == (d, l)


@pytest.mark.parametrize("size, limit, caching, ordering, seeds", [
    (4, -1, False, False, (1, 2)), (6, 3, True, True, (3,)), (8, 2, False, True, (4,)), (10, 1, True, False, (5,))])
def test_against_random_both_colours(size, limit, caching, ordering, seeds, tmp_path):
    for seed in seeds:
        env = agent_env(OTHELLO_RANDY_SEED=str(seed))
        for ours in (1, 2):
            a, b = (AGENT, RANDY) if ours == 1 else (RANDY, AGENT)
            result, log = game(a, b, size, tmp_path, limit=limit, caching=caching, ordering=ordering, env=env,
                               minimax=size == 4)
            _assert_clean(result, log, (ours,))
            if size > 4 or ours == 2:  # 4x4: dark loses against perfect play, so only light must win
                assert result.winner == ours, (size, seed, ours, result)
            assert len(result.moves) >= 2


def test_self_play_replays_in_process(tmp_path):
    result, log = game(AGENT, AGENT, 6, tmp_path, limit=2, caching=True, ordering=True)
    _assert_clean(result, log, (1, 2))
    agent = in_process_agent()
    board = manager.initial_board(6)
    for move in result.moves:  # the pipe adds nothing: the same moves as the agent in this process
        row, col = agent.choose(board, Flags(move.color, 2, False, True, True))
        assert (col, row) == move.point
        board = manager.play_move(board, move.color, col, row)
    assert board == result.board


# ==== the stand-in manager itself ================================================================
RECORDER = """
import ast, os, sys
sys.path.insert(0, {root!r})
from standins.othello_manager import possible_moves
log = open(os.environ["RECORD_TO"], "a")
print("Recorder", flush=True)
flags = sys.stdin.readline()
log.write(flags)
color = int(flags.split(",")[0])
while True:
    line = sys.stdin.readline()
    log.write(line)
    log.flush()
    if not line or line.startswith("FINAL"):
        break
    board_line = sys.stdin.readline()
    log.write(board_line)
    moves = possible_moves(ast.literal_eval(board_line), color)
    {answer}
"""


def _script(tmp_path, name, answer):
    path = tmp_path / name
    path.write_text(RECORDER.format(root=str(ROOT), answer=answer))
    return path


def test_manager_dialogue_as_the_real_one(tmp_path):
    record = tmp_path / "record.txt"
    first = _script(tmp_path, "first.py", 'print("%d %d" % moves[0], flush=True)')
    result, _ = game(first, RANDY, 4, tmp_path, limit=3, caching=True, env=agent_env(RECORD_TO=str(record)))
    lines = record.read_text().splitlines()
    assert lines[0] == "1,3,0,1,0" and lines[-1] == f"FINAL {result.dark} {result.light}"
    boards = lines[2:-1:2]
    assert lines[1] == "SCORE 2 2" and boards[0] == str(manager.initial_board(4))  # a list of lists first
    assert all(b.startswith("((") for b in boards[1:]) and len(boards) >= 2  # then tuples of tuples
    for score, board in zip(lines[1:-1:2], boards):
        assert score == "SCORE %d %d" % manager.score(ast.literal_eval(board))
    assert result.names == {1: "Recorder", 2: "Randy"}

def test_randy_is_seeded(tmp_path):
    """The stand-ins' games repeat: Randy plays the same game for the same OTHELLO_RANDY_SEED (the
    tests' default seed included), another game for another seed."""
    moves = {}
    for seed in ("0", "0", "1"):
        result, _ = game(RANDY, RANDY, 6, tmp_path, env=agent_env(**({} if seed == "0" else {"OTHELLO_RANDY_SEED": seed})))
        moves.setdefault(seed, []).append([(m.color, m.point) for m in result.moves])
    assert moves["0"][0] == moves["0"][1] != moves["1"][0]


@pytest.mark.parametrize("answer, reason", [
    ("sys.stdin.read()", "timed out"),          # never answers
    ('print("9 9", flush=True)', "illegal move"),
    ('print("left", flush=True)', "malformed move"),
    ("sys.exit(1)", "died"),
])
def test_manager_forfeits(tmp_path, answer, reason):
    bad = _script(tmp_path, "bad.py", answer)  # dark: only its own answer is timed
    env = agent_env(RECORD_TO=str(tmp_path / "r.txt"))
    result, _ = game(bad, RANDY, 6, tmp_path, timeout=0.5 if reason == "timed out" else manager.TIMEOUT, env=env)
    assert result.winner == 2 and reason in result.reason and result.reason.startswith("dark lost")
    assert result.moves == []
