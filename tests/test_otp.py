"""plies-otp (adapters/otp.py) and its protocol (protocols/otp.py): the codec, the engine core's
command table, the channels' end of input; golden dialogues in process, over a real socket and on
stdin/stdout; bad input; the exact endgame solver and its node budget; the genmove budget on the CPU
clock; the exit statuses and the settings; seeded end-to-end rounds through the local judge
(standins/otp_judge.py)."""
import io
import select
import socket
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st


from adapters.config import ConfigError
from adapters.otp import EXIT_STATUS, OtpSession, OtpSettings, main, make_engine, parse, run
from engines.games import make_game
from engines.knowledge.registry import knowledge_for
from engines.knowledge.othello.registered import SolveBudgetExceeded, solve_endgame
from engines.knowledge.othello.endgame import EndgameSolver, state_bits
from engines.knowledge.othello.patterns import estimate_bits
from engines.players.coldstart import ColdStart
from engines.players.othello import make_player
from engines.search import Limits, make_searcher
from protocols import otp
from protocols.common import PASS, EndOfInput, ProtocolError, Quit
from standins.otp_judge import Judge, run_match
from standins.otp_random import RandomPlayer

ENGINE = [sys.executable, "-m", "adapters.otp", "--seed", "3"]
RANDOM_ENGINE = [sys.executable, "-m", "standins.otp_random", "--seed", "5"]
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


def Player(settings=OtpSettings(), clock=time.perf_counter):
    """The Othello player plies-otp asks (engines/players/othello.py), warmed up as plies-otp builds it."""
    return make_player(settings, clock=clock)


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


# ---- the engine core (protocols.otp.OtpEngine), with stub handlers -----------------------------

def stub_engine(log):
    """An OtpEngine whose handlers record their calls; play fails on '0 0', showboard draws two lines."""
    def handler(name):
        def answer(args):
            if name == "play" and args == ["0", "0"]:
                raise ProtocolError("illegal move: no")
            if name == "final_score" and log and log[-1][0] == "undo":
                raise RuntimeError("a bug")
            log.append((name, args))
            if name == "quit":
                raise Quit()
            return {"name": "stub", "genmove": "2 3", "showboard": "a b\nc d"}.get(name, "")
        return answer
    return otp.OtpEngine({name: handler(name) for name in otp.COMMANDS}, stderr=io.StringIO())


def test_engine_table_arity_errors_and_quit():
    log = []
    e = stub_engine(log)
    assert [e.handle(m) for m in (b"NAME", "genmove\n", "play 2 3", "showboard", "clear_board")] == \
        ["name stub", "genmove 2 3", "play", "showboard\na b\nc d", "clear_board"]
    assert log == [("name", []), ("genmove", []), ("play", ["2", "3"]), ("showboard", []), ("clear_board", [])]
    assert e.handle("bogus 1") == "? unknown command 'bogus'"
    assert e.handle("play 2") == "? play takes 2 argument(s), got 1"
    assert e.handle("genmove b") == "? genmove takes 0 argument(s), got 1"
    assert e.handle("   ") == "? empty command" and e.handle(b"\xff") == "? unreadable command (not UTF-8)"
    assert e.handle("play 0 0") == "? illegal move: no"
    e.handle("undo")
    assert e.handle("final_score").startswith("? internal error: RuntimeError: a bug")
    assert e.stderr.getvalue().count("Traceback") == 1
    assert len(log) == 6 and not e.finished  # no handler ran for the bad messages
    assert e.handle("QUIT") == "quit" and e.finished


def test_engine_answers_every_command_and_no_other():
    handlers = {name: (lambda args: "") for name in otp.COMMANDS}
    with pytest.raises(ValueError):
        otp.OtpEngine({k: v for k, v in handlers.items() if k != "undo"})
    with pytest.raises(ValueError):
        otp.OtpEngine({**handlers, "komi": lambda args: ""})


def test_colours_by_move_order():
    assert otp.player_of("black") == 0 and otp.player_of("white") == 1
    for bad in ("b", "Black", ""):
        with pytest.raises(ProtocolError):
            otp.player_of(bad)
    assert otp.final_score(GAME.cells(board({(0, 0): 1, (0, 1): 1, (5, 5): 2}))) == 1


def test_channels_raise_end_of_input():
    here, there = socket.socketpair()
    with here, there:
        channel = otp.SocketChannel(here)
        there.send(b"name")
        assert channel.receive() == b"name"
        channel.send("name plies")
        assert there.recv(100) == b"name plies"
        there.shutdown(socket.SHUT_WR)
        with pytest.raises(EndOfInput):
            channel.receive()
    out = io.StringIO()
    channel = otp.LineChannel(io.StringIO("name\n"), out)
    assert channel.receive() == "name\n"
    with pytest.raises(EndOfInput):
        channel.receive()
    channel.send("name plies")
    assert out.getvalue() == "name plies\n"


# ---- the session in process ---------------------------------------------------------------------

class Session:
    """An OTP engine over a board session, both in reach (tests look at the board)."""

    def __init__(self, player, settings=OtpSettings()):
        self.board = OtpSession(player, settings)
        self.engine = make_engine(self.board)

    @property
    def state(self):
        return self.board.state

    @state.setter
    def state(self, state):
        self.board.state = state


def new_session(seconds=0.05):
    return Session(Player(OtpSettings(time=seconds), clock=time.thread_time), OtpSettings(time=seconds))


def talk(session, *messages):
    return [session.engine.handle(m) for m in messages]


def test_session_dialogue_and_undo():
    s = new_session()
    assert talk(s, "name", "clear_board", "play 2 3", "final_score", "undo", "final_score") == \
        ["name plies", "clear_board", "play", "final_score 3", "undo", "final_score 0"]
    assert not s.engine.finished
    assert talk(s, "quit") == ["quit"] and s.engine.finished
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


def test_an_illegal_move_names_the_square_and_the_reason():
    """The refusal says the square as OTP writes it ('row col') and why, never the engine's action
    number (d3 is action 19, d4 27 on 8x8)."""
    s = new_session()
    talk(s, "play 2 3")
    assert talk(s, "play 2 3", "play 3 3", "play 0 0") == [
        "? illegal move 2 3: the point is occupied", "? illegal move 3 3: the point is occupied",
        "? illegal move 0 0: it flips no discs (a placement must bracket opponent discs in a line)"]
    s.state = board({(0, 0): 2, (0, 1): 1})  # black to move has no placement; white has (0, 2)
    assert talk(s, "play 0 2") == ["? illegal move 0 2: the side to move has no placement and must pass"]
    assert talk(s, "play 8 0", "play 0 2", "play 5 5") == ["play", "play", "? illegal move 5 5: the game is over"]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.one_of(st.sampled_from(["play 2 3", "play 3 2", "play 2 2", "play 8 0", "undo", "clear_board",
                                           "name", "final_score", "play 4 5", "play 5 4"]),
                          st.text(alphabet="playundoqit_ 0123456789\n", max_size=12)), max_size=12))
def test_session_fuzz(messages):
    """Any sequence of messages: one reply each, its first word the command's or '?'; an error reply
    leaves the board exactly as it was."""
    s = Session(RandomPlayer(0))
    for m in messages:
        if m.split()[:1] in (["genmove"], ["quit"]):
            continue
        before = s.state.copy()
        reply = s.engine.handle(m)
        assert not s.engine.finished and reply and ("\n" not in reply or reply.startswith("showboard"))
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
        solved = solve_endgame(s)
        exact = ab.search(s, Limits(depth=40))
        assert exact.stats["complete"] and solved.score == exact.value and solved.nodes > 0
        assert GAME.is_legal(s, solved.move) and dict(zip(exact.moves, exact.values))[solved.move] == solved.score


def test_endgame_solver_budget():
    """The budget is a ceiling: the solve stops on the node after it and says how many it spent."""
    with pytest.raises(SolveBudgetExceeded) as out:
        solve_endgame(position(16, 0), node_budget=100)
    assert out.value.nodes == 101
    exact = solve_endgame(position(12, 3))
    assert solve_endgame(position(12, 3), node_budget=exact.nodes) == exact


class StepClock:
    """A clock that advances one second at every reading: times counted in readings, not seconds."""

    def __init__(self):
        self.now = -1.0

    def __call__(self):
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("seconds, share, empties, solved", [
    (100.0, 0.5, 14, True), (16.0, 1.0, 14, True), (16.0, 0.5, 14, False), (100.0, 0.5, 13, False)])
def test_player_retries_the_solve_while_it_fits_then_searches(seconds, share, empties, solved):
    """first_solve_nodes runs out; each retry has solve_growth times the nodes while its predicted
    time fits in solve_share of the time left, else the player searches instead.  Here the solve
    needs five attempts (the last with 16 times the first budget); an attempt that runs out takes three
    clock readings (its start, the deadline check before its one slice of nodes, its end), so it
    lasts two seconds and a retry is predicted to take four: after the fourth attempt (reading 11)
    a deadline at 15.95 leaves 4.95 s, enough with solve_share 1, not with 0.5 (which stops after the
    third).  With 14 empty squares, solve_empties 13 does not try the solve.  The position's first
    aspiration window holds its score (with the evaluation's guess), so no attempt spends readings on a
    second window."""
    state = position(14, 5)
    exact = solve_endgame(state, guess=estimate_bits(*state_bits(state)))  # the player's first window
    settings = OtpSettings(first_solve_nodes=-(-exact.nodes // 16), solve_growth=2, solve_share=share,
                           solve_empties=empties, wld_extra=0,  # the exact solve alone (win/loss/draw: test_otp_time)
                           pacing=False)  # the retries of the unpaced policy (the paced one: test_othello_time)
    clock = StepClock()
    player = Player(settings, clock=clock)
    move = player.choose(state, seconds, 0.0)
    assert GAME.is_legal(state, move)
    if solved:
        assert player.last == {"solved": True, "score": exact.score, "nodes": exact.nodes} and move == exact.move
        # readings: four attempts that ran out (three each), then the fifth's start and its slices (one
        # a window of the aspiration search, counted on a solve of its own)
        alone = StepClock()
        EndgameSolver(clock=alone).solve(*state_bits(state), deadline=1e9, guess=estimate_bits(*state_bits(state)))
        assert clock.now == 12 + alone.now + 1
    else:
        assert player.last["solved"] is False and "depth" in player.last


@pytest.mark.parametrize("algo,empties", [("default", 30), ("default", 20), ("default", 12), ("uct", 30),
                                          ("ucb", 30), ("uct-pp", 30)])
def test_genmove_budget_on_the_cpu_clock(algo, empties):
    """choose() never spends more than its budget of thread CPU time, counted from the request."""
    player = Player(OtpSettings(algo=algo), clock=time.thread_time)
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
    """Over TCP the judge is the authority: its play of a move our board refuses (here a square already
    taken) is played as told and answered 'play', with a warning on stderr; only unknown or malformed
    commands get '? ...'."""
    commands = [b"name", b"clear_board", b"play 2 3", b"play 2 3", b"final_score", b"bogus", b"undo", b"undo",
                b"final_score\n", b"play 2 3", b"genmove", b"quit"]
    replies, status, err = serve_one(commands)
    assert replies[:10] == [b"name plies", b"clear_board", b"play", b"play", b"final_score 3",
                            b"? unknown command 'bogus'", b"undo", b"undo", b"final_score 0", b"play"]
    assert replies[10].startswith(b"genmove ") and otp.parse_move(replies[10][8:].decode()) is not PASS
    assert replies[11] == b"quit" and status == 0, err
    assert err.count("not legal on our board") == 1 and "other side to move" in err and "Traceback" not in err


def test_socket_closed_mid_game():
    replies, status, err = serve_one([b"name", b"clear_board", b"genmove", b"play 2 2"], close_after=3)
    assert replies[:2] == [b"name plies", b"clear_board"] and replies[2].startswith(b"genmove ")
    assert status == EXIT_STATUS["judge lost"][0] and "closed the connection before quit" in err


def test_stdin_dialogue_and_end_of_input():
    text = "name\nplay 2 3\nplay 2 2\nfinal_score\n\nhello\nplay 8 0\n"
    run = subprocess.run(ENGINE, input=text, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.stdout == ("name plies\nplay\nplay\nfinal_score 0\n? empty command\n? unknown command 'hello'\n"
                          "? illegal move: a pass while a placement exists\n")
    assert run.returncode == 0


def test_exit_statuses(capsys):
    """The one map: stdin ending or quit is 0, the judge dropping or breaking the connection before
    quit is 1, bad settings 2; --help lists them."""
    assert {k: v[0] for k, v in EXIT_STATUS.items()} == {"quit": 0, "judge lost": 1, "refused": 2, "no stdio": 3}
    engine = lambda: make_engine(OtpSession(RandomPlayer(0)))  # noqa: E731
    out = io.StringIO()
    assert run(engine(), otp.LineChannel(io.StringIO("name\nplay 2 3\n"), out)) == 0
    assert out.getvalue() == "name plies\nplay\n"
    for last, status in ((b"quit", 0), (b"name", 1)):  # one message (one recv), then the judge's half-close
        here, there = socket.socketpair()
        with here, there:
            there.send(last)
            there.shutdown(socket.SHUT_WR)
            assert run(engine(), otp.SocketChannel(here)) == status
            assert there.recv(100).startswith(last)  # answered before the end
    assert "closed the connection before quit" in capsys.readouterr().err

    class Broken:
        def receive(self):
            raise ConnectionResetError("reset by peer")

        def send(self, message):
            raise AssertionError("nothing was received")
    assert run(engine(), Broken()) == 1 and "connection lost: reset by peer" in capsys.readouterr().err
    assert main(["--time", "0"]) == 2 and "plies-otp: time" in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    text = capsys.readouterr().out
    assert done.value.code == 0
    for status, meaning in EXIT_STATUS.values():
        assert f"  {status}  {meaning}" in text
    for key in OtpSettings.__dataclass_fields__:
        assert "--" + key.replace("_", "-") in text


def test_settings_defaults_are_todays_constants():
    assert OtpSettings() == OtpSettings(
        algo="default", time=8.0, margin=0.1, seed=0, name="plies", tt_size=1 << 20, solve_empties=22,
        first_solve_nodes=1 << 16, solve_growth=4, solve_share=0.5, exploration=0.7, mcts_capacity=1 << 22,
        rd=1.0, min_samples=50)
    assert parse([], env={})[1] == OtpSettings()


def test_settings_file_environment_and_flags(tmp_path):
    f = tmp_path / "otp.toml"
    f.write_text('time = 2.5\nalgo = "uct-pp"\nsolve_empties = 18\nname = "filed"\nrd = 2.0\n')
    _, s = parse(["--config", str(f)], env={})
    assert (s.time, s.algo, s.solve_empties, s.name, s.rd) == (2.5, "uct-pp", 18, "filed", 2.0)
    env = {"PLIES_OTP_TIME": "3", "PLIES_OTP_SOLVE_EMPTIES": "20", "PLIES_OTP_MIN_SAMPLES": "9"}
    _, s = parse(["--config", str(f)], env=env)
    assert (s.time, s.solve_empties, s.min_samples, s.algo) == (3.0, 20, 9, "uct-pp")
    args, s = parse(["127.0.0.1", "17122", "--config", str(f), "--time", "4", "--min-samples", "7",
                     "--exploration", "0.3", "--mcts-capacity", "4096"], env=env)
    assert (args.host, args.port, s.time, s.min_samples, s.solve_empties) == ("127.0.0.1", 17122, 4.0, 7, 20)
    search = Player(s).searcher  # the settings reach the search
    assert (search.config.c, search.config.pp_rd, search.config.pp_min_samples, search.capacity) == \
        (0.3, 2.0, 7, 4096) and search.config.progressive_pruning
    assert Player(OtpSettings(tt_size=1 << 10)).searcher.config.tt_size == 1 << 10


@pytest.mark.parametrize("argv, env, toml, words", [
    (["--time", "-1"], {}, None, ["time"]),
    ([], {"PLIES_OTP_TIME": "soon"}, None, ["PLIES_OTP_TIME", "float"]),
    (["--name", "two words"], {}, None, ["name must be one word"]),
    (["--tt-size", "1000"], {}, None, ["tt_size", "power of two"]),
    (["--solve-share", "1.5"], {}, None, ["solve_share"]),
    (["--config", "absent.toml"], {}, None, ["no file", "absent.toml"]),
    ([], {}, "algo = 'minimax'\n", ["algo", "default, ucb, uct, uct-pp"]),
    ([], {}, "tim = 5\n", ["unknown key", "tim"]),
])
def test_a_bad_setting_is_a_clear_error(tmp_path, argv, env, toml, words):
    if toml is not None:
        (tmp_path / "bad.toml").write_text(toml)
        argv = [*argv, "--config", str(tmp_path / "bad.toml")]
    with pytest.raises(ConfigError) as err:
        parse(argv, env=env)
    assert all(w in str(err.value) for w in words), str(err.value)


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
    return make_engine(OtpSession(RandomPlayer(1), OtpSettings(name=name))).handle


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


# ==== the whole budget: the engine loads in the background from the start (issue 35, item 5) ========
class _WarmCompiler:
    """A compiled-kernel cache that is warm: ColdStart builds the player at once (in its thread)."""
    def ready(self):
        return True

    def say(self, text):
        pass

    def wait(self, timeout=None):
        return True


def test_the_engine_loads_in_the_background_and_never_delays_name_or_clear_board():
    """plies-otp starts the player's load before connecting; name and clear_board (1 s each at the judge)
    are answered while it runs; a genmove during the load waits at most LOAD_WAIT_SHARE of its budget
    for it, then plays the fallback search, in the budget; once loaded, the player answers."""
    from adapters.otp import LOAD_WAIT_SHARE
    from engines.players.coldstart import ColdStart
    release, built = threading.Event(), []

    def load():  # a load that lasts until the test releases it
        release.wait(60)
        built.append(RandomPlayer(2))
        return built[-1]
    cold = ColdStart("othello", "test", load, start=False, background=True)
    cold.compiler = _WarmCompiler()
    assert not cold.ready() and cold.loading()  # main(): the load starts, nothing waits for it
    session = OtpSession(cold, OtpSettings(time=0.4))
    e = make_engine(session)
    assert [e.handle(m) for m in ("name", "clear_board")] == ["name plies", "clear_board"] and cold.loading()
    began = time.perf_counter()
    reply = e.handle("genmove")
    spent = time.perf_counter() - began
    assert reply.startswith("genmove ") and (session.fallbacks, session.searched) == (1, 0)
    assert LOAD_WAIT_SHARE * 0.4 <= spent <= 0.4  # it waited for the load, and kept its budget
    release.set()
    cold._builder.join(60)
    assert e.handle("genmove").startswith("genmove ") and (session.fallbacks, session.searched) == (1, 1)
    assert not cold.loading() and len(built) == 1



def test_plies_otp_connects_before_the_player_loads(monkeypatch):
    """The judge wants the connection within 10 s of its start (specs/otp.md), and the player's load
    (a thread that can hold the interpreter for seconds on a busy machine) must not delay it: the
    first ready() (which starts that load) comes once the connection is made."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(30)
    connected_at_first_ready, accepted, lock = [], [], threading.Lock()

    def ready(cold):
        if not connected_at_first_ready:
            with lock:  # connected: the connection waits to be accepted, or was (no race with the accept below)
                connected_at_first_ready.append(bool(accepted or select.select([server], [], [], 0)[0]))
        return False  # fallback moves: no player needed for this dialogue
    monkeypatch.setattr(ColdStart, "ready", ready)
    status = []
    engine = threading.Thread(target=lambda: status.append(main(["127.0.0.1", str(server.getsockname()[1])])))
    engine.start()
    with server:
        assert select.select([server], [], [], 30)[0]
        with lock:
            conn, _ = server.accept()
            accepted.append(conn)
        with conn:
            conn.sendall(b"name")
            assert conn.recv(100) == b"name plies"
            conn.sendall(b"quit")
            conn.recv(100)
    engine.join(30)
    assert connected_at_first_ready == [True] and status == [0]
