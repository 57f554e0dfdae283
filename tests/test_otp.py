"""plies-otp (adapters/otp.py) and its codec (protocols/otp.py): golden dialogues in process, over a
real socket and on stdin/stdout; bad input; the exact endgame solver; the genmove budget on the CPU
clock; end-to-end rounds through the local judge (standins/otp_judge.py)."""
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]

from adapters.otp import OtpSession, Player  # noqa: E402
from standins.otp_judge import Judge, run_match
from standins.otp_random import RandomPlayer
from engines.games import make_game
from engines.knowledge.bundle import knowledge_for
from engines.knowledge.othello import solve_endgame
from engines.search import Limits, make_searcher
from protocols import otp
from protocols.common import PASS, ProtocolError
ENGINE = [sys.executable, "-m", "adapters.otp"]
RANDOM_ENGINE = [sys.executable, "-m", "standins.otp_random"]
FUZZ = settings(max_examples=300, deadline=None, derandomize=True)
GAME = make_game("othello", size=8)


def position(empties: int, seed: int):
    """A position with that many empty squares reached by random play, the mover able to place."""
    rng = np.random.default_rng(seed)
    while True:
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            if int((GAME.cells(s) == 0).sum()) == empties and not GAME.must_pass(s):
                return s
            moves = GAME.legal_moves(s)
            s = GAME.play(s, int(moves[rng.integers(len(moves))]))


def board(entries, to_move=0):
    cells = np.zeros((8, 8), dtype=np.int64)
    for (r, c), v in entries.items():
        cells[r, c] = v
    return GAME.state_from_cells(cells, to_move)


# ---- the codec ----------------------------------------------------------------------------------

def test_codec_golden():
    assert otp.parse_command(b"play 2 3") == ("play", ["2", "3"])
    assert otp.parse_command("play 2 3\n") == ("play", ["2", "3"])      # a trailing newline is tolerated
    assert otp.parse_command(b"  GenMove \r\n") == ("genmove", [])
    for bad in (b"", b" \n", b"foo", b"play 2", b"play 2 3 4", b"name x", b"\xff\xfe", b"quit\0"):
        with pytest.raises(ProtocolError):
            otp.parse_command(bad)
    assert otp.format_reply("genmove", "8 0") == "genmove 8 0"
    assert otp.format_reply("final_score", -4) == "final_score -4"
    assert otp.format_error("illegal\nmove") == "? illegal move"
    assert otp.format_command("play", 8, 0) == "play 8 0"
    assert otp.parse_reply("genmove", b"GENMOVE 2 3") == ["2", "3"]
    for bad in (b"genmove 2 3\n", b" play", b"play\0", b"ply", b"", b"? unknown command"):
        with pytest.raises(ProtocolError):
            otp.parse_reply("play" if b"play" in bad or bad == b"ply" else "genmove", bad)
    assert otp.encode("name x") == b"name x"
    with pytest.raises(ProtocolError):
        otp.encode("x" * 1024)
    assert otp.parse_move("8 0") is PASS and otp.parse_move("7 0") == (7, 0)
    assert otp.format_move(PASS) == "8 0" and otp.format_move((2, 3)) == "2 3"


@FUZZ
@given(st.one_of(st.binary(max_size=60), st.text(max_size=40),
                 st.text(alphabet="playgenmovequit_undo0123456789 \n\r\t-+", max_size=30)))
def test_codec_fuzz(message):
    """Any message parses into a known command with its arity, or raises ProtocolError."""
    try:
        command, args = otp.parse_command(message)
    except ProtocolError:
        return
    assert command in otp.COMMANDS and len(args) == otp.ARITY.get(command, 0)


@FUZZ
@given(st.one_of(st.binary(max_size=40), st.text(max_size=30)))
def test_reply_fuzz(message):
    try:
        fields = otp.parse_reply("genmove", message)
    except ProtocolError:
        return
    text = message.decode() if isinstance(message, bytes) else message
    assert text.split(" ")[0].lower() == "genmove" and text == text.strip() and fields == text.split(" ")[1:]


@FUZZ
@given(st.one_of(st.none(), st.tuples(st.integers(0, 7), st.integers(0, 7))))
def test_move_round_trip(point):
    assert otp.parse_move(otp.format_move(point)) == point


# ---- the session in process ---------------------------------------------------------------------

def new_session(seconds=0.05):
    return OtpSession(Player("default", clock=time.thread_time), seconds=seconds)


def talk(session, *messages):
    return [session.handle(m, None)[0] for m in messages]


def test_session_dialogue_and_undo():
    s = new_session()
    assert talk(s, "name", "clear_board", "play 2 3", "final_score", "undo", "final_score") == \
        ["name plies", "clear_board", "play", "final_score 3", "undo", "final_score 0"]
    assert s.handle("quit", None) == ("quit", True)
    reply = talk(s, "genmove")[0]
    row, col = otp.parse_move(reply.split(" ", 1)[1])
    assert GAME.action(row, col) in GAME.legal_moves(GAME.initial_state())
    assert talk(s, "undo", "undo") == ["undo", "? nothing to undo"]


def test_session_bad_input_keeps_the_board():
    s = new_session()
    talk(s, "play 2 3")
    before = (talk(s, "showboard")[0], talk(s, "final_score")[0])
    replies = talk(s, "play 2 3", "play 0 0", "play 8 0", "play 9 9", "play a b", "play 1", "", "   ", "foo",
                   b"\xff", "genmove 1", "x" * 2000, "play -1 0")
    assert all(r.startswith("? ") and "\n" not in r for r in replies), replies
    assert replies[0].startswith("? illegal move") and replies[1].startswith("? illegal move")
    assert replies[2] == "? illegal move: a pass while a placement exists"
    assert (talk(s, "showboard")[0], talk(s, "final_score")[0]) == before


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.one_of(st.sampled_from(["play 2 3", "play 3 2", "play 2 2", "play 8 0", "undo", "clear_board",
                                           "name", "final_score", "play 4 5", "play 5 4"]),
                          st.text(alphabet="playundoqit_ 0123456789\n", max_size=12)), max_size=12))
def test_session_fuzz(messages):
    """Any sequence of messages: one reply each, its first word the command's or '?'; an error reply
    leaves the board exactly as it was."""
    s = OtpSession(RandomPlayer(0))
    for m in messages:
        if m.split()[:1] in (["genmove"], ["quit"]):
            continue
        before = s.state.copy()
        reply, done = s.handle(m, None)
        assert not done and reply and ("\n" not in reply or reply.startswith("showboard"))
        if reply.startswith("? "):
            assert np.array_equal(s.state, before)
        else:
            assert reply.split()[0] == m.split()[0].lower()


def test_pass_exactly_when_stuck_and_the_closing_exchange():
    s = new_session()
    s.state = board({(0, 0): 2, (0, 1): 1})  # black to move, no placement; white has (0, 2)
    assert talk(s, "play 0 2")[0].startswith("? illegal move")
    assert talk(s, "genmove", "genmove") == ["genmove 8 0", "genmove 0 2"]  # black passes, white plays
    assert GAME.is_terminal(s.state) and talk(s, "final_score") == ["final_score -3"]
    assert talk(s, "genmove", "play 8 0", "final_score") == ["genmove 8 0", "play", "final_score -3"]
    s.state = board({(0, 0): 2, (0, 1): 1}, to_move=1)  # white to move: the pass is illegal for white
    assert talk(s, "play 8 0")[0].startswith("? illegal move") and talk(s, "play 0 2") == ["play"]


def test_endgame_solver_is_exact():
    """The solver's score equals a full alpha-beta solve on the disc difference."""
    ab = make_searcher("alphabeta", GAME, {}, knowledge_for(GAME, "disc_difference"))
    for seed in range(4):
        s = position(9, seed)
        move, score, nodes = solve_endgame(s)
        exact = ab.search(s, Limits(depth=40))
        assert exact.stats["complete"] and score == exact.value and nodes > 0
        assert GAME.is_legal(s, move) and dict(zip(exact.moves, exact.values))[move] == score
    assert solve_endgame(position(16, 0), node_budget=100)[:2] == (None, None)


@pytest.mark.parametrize("algo,empties", [("default", 30), ("default", 20), ("default", 12), ("uct", 30),
                                          ("ucb", 30), ("uct-pp", 30)])
def test_genmove_budget_on_the_cpu_clock(algo, empties):
    """choose() never spends more than its budget of thread CPU time, counted from the request."""
    player = Player(algo, clock=time.thread_time)
    state = position(empties, 1)
    for seconds in (0.05, 0.3):
        start = time.thread_time()
        move = player.choose(state, seconds, start)
        assert time.thread_time() - start <= seconds and GAME.is_legal(state, move)


# ---- over a real socket and on stdin/stdout ------------------------------------------------------

def serve_one(commands, close_after=None):
    """Start plies-otp against a socket we listen on, send commands one per send(), and collect each
    recv(); close the connection after close_after commands if given.  (replies, status, stderr)"""
    server = socket.create_server(("127.0.0.1", 0))
    proc = subprocess.Popen([*ENGINE, "--time", "0.05", "127.0.0.1", str(server.getsockname()[1])], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        server.settimeout(60)
        conn, _ = server.accept()
        conn.settimeout(60)
        replies = []
        with conn:
            for i, command in enumerate(commands):
                if close_after is not None and i == close_after:
                    break
                conn.send(command)
                replies.append(conn.recv(4096))
        out, err = proc.communicate(timeout=60)
    finally:
        server.close()
        if proc.poll() is None:
            proc.kill()
    return replies, proc.returncode, err


def test_socket_dialogue_byte_exact():
    commands = [b"name", b"clear_board", b"play 2 3", b"play 2 3", b"final_score", b"bogus", b"undo",
                b"final_score\n", b"play 2 3", b"genmove", b"quit"]
    replies, status, err = serve_one(commands)
    assert replies[:9] == [b"name plies", b"clear_board", b"play", b"? illegal move 19: the point is occupied (d3)",
                           b"final_score 3", b"? unknown command 'bogus'", b"undo", b"final_score 0", b"play"]
    assert replies[9].startswith(b"genmove ") and otp.parse_move(replies[9][8:].decode()) is not PASS
    assert replies[10] == b"quit" and status == 0, err


def test_socket_closed_mid_game():
    replies, status, err = serve_one([b"name", b"clear_board", b"genmove", b"play 2 2"], close_after=3)
    assert replies[:2] == [b"name plies", b"clear_board"] and replies[2].startswith(b"genmove ")
    assert status != 0 and "closed the connection" in err


def test_stdin_dialogue_and_end_of_input():
    text = "name\nplay 2 3\nplay 2 2\nfinal_score\n\nhello\nplay 8 0\n"
    run = subprocess.run(ENGINE, input=text, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.stdout == ("name plies\nplay\nplay\nfinal_score 0\n? empty command\n? unknown command 'hello'\n"
                          "? illegal move: a pass while a placement exists\n")
    assert run.returncode == 0


# ---- the local judge ----------------------------------------------------------------------------

def test_judge_rounds_against_random_and_itself():
    """plies-otp against the random engine and against itself, both colours, the judge's normal limits."""
    report = run_match([[*ENGINE, "--time", "0.1"], RANDOM_ENGINE], rounds=2)
    assert report["names"] == ["plies", "random"] and not report["forfeits"], report
    assert [r["black"] for r in report["rounds"]] == [0, 1]
    assert [r["results"] for r in report["rounds"]] == [["WIN", "LOSE"], ["WIN", "LOSE"]]
    assert report["quit"] == {0: True, 1: True} and report["exit_status"] == [0, 0]
    assert len(report["latency"][0]) >= 40
    report = run_match([[*ENGINE, "--time", "0.1"], [*ENGINE, "--time", "0.1", "--name", "other"]], rounds=2)
    assert not report["forfeits"] and report["exit_status"] == [0, 0], report
    for r in report["rounds"]:
        assert sorted(r["results"]) in (["LOSE", "WIN"], ["DRAW", "DRAW"]) and r["score"] is not None


def fake_engine(port, replies):
    """An engine in a thread: answers each message with replies(message) (None: close)."""
    def run():
        with socket.create_connection(("127.0.0.1", port)) as sock:
            while True:
                data = sock.recv(1024)
                if not data:
                    return
                reply = replies(data.decode())
                if reply is None:
                    return
                sock.send(reply.encode())
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def honest(name):
    session = OtpSession(RandomPlayer(1), name=name)
    return lambda m: session.handle(m, None)[0]


@pytest.mark.parametrize("fault", ["newline", "illegal", "silent", "disconnect"])
def test_judge_forfeits(fault):
    """A reply with a newline, an illegal move, no reply in time, a dropped connection: the faulty
    engine loses that round and every remaining one, and is never sent quit."""
    judge = Judge(0, rounds=3, short_limit=0.5, genmove_limit=0.5)
    seen = []
    honest_bad = honest("bad")

    def bad(message):
        seen.append(message)
        if message == "genmove":
            if fault == "newline":
                return honest_bad(message) + "\n"
            if fault == "illegal":
                return "genmove 0 0"
            if fault == "silent":
                time.sleep(1.0)
            if fault == "disconnect":
                return None
        return honest_bad(message)
    try:
        threads = [fake_engine(judge.port, honest("good"))]
        judge.accept()
        threads.append(fake_engine(judge.port, bad))
        judge.accept()
        report = judge.run()
    finally:
        judge.close()
    assert report["forfeits"].keys() == {1} and report["rounds"][0]["forfeit"]["engine"] == 1
    assert [r["results"] for r in report["rounds"]] == [["WIN", "LOSE"]] * 3
    assert "quit" not in seen and report["quit"] == {0: True}
