"""plies-gtp-hex (adapters/gtp_hex.py, protocols/hex_gtp.py) as HexGui and a match referee drive it:
byte-exact dialogues through the real process; the cell parser and the engine's line handling
fuzzed (never a crash, the board unchanged after an error); genmove keeps the board in sync; whole
games refereed between two engine processes and against random moves; undo, board sizes, swap;
the regression file through regress.runner.

The referee (``GtpProcess``, ``referee_game``) is the stand-in standins/hex_referee.py, which the match
figures (bench/hex_gtp_match.py) use too.

No assertion depends on timing: searches are bounded by simulation counts (``--time 0``), and every
search and every game is seeded.
"""
import random
import re
import shlex
import subprocess
import time
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from adapters.gtp_hex import ANALYZE_COMMANDS, HexSession, Settings, make_engine
from engines.games import make_game
from engines.knowledge.hex.conv import policy_shape
from engines.knowledge.hex.network import NetworkError, shipped_sizes
from protocols import hex_gtp
from protocols.common import ProtocolError
from standins.hex_referee import ENGINE, GtpProcess, board_cells, referee_game

FAST = ["--time", "0", "--simulations", "300", "--seed", "0"]   # deterministic and quick
LETTERS = "abcdefghijklmnopqrstuvwxyz"


@pytest.fixture
def engine():
    process = GtpProcess(FAST)
    yield process
    process.close()


def dialogue(lines: str, *args: str) -> bytes:
    done = subprocess.run([*ENGINE, *args], input=lines.encode(), capture_output=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


# ==== protocols/hex_gtp.py ==========================================================================

def test_cells_name_columns_by_letter_and_rows_from_one_at_the_top():
    assert hex_gtp.parse_cell("a1", 7) == (0, 0)
    assert hex_gtp.parse_cell("C10", 11) == (9, 2)
    assert hex_gtp.parse_cell("i1", 9) == (0, 8)  # no letter is skipped in Hex
    assert hex_gtp.parse_cell("s19", 19) == (18, 18)
    assert hex_gtp.format_cell((0, 8), 9) == "i1"
    assert hex_gtp.format_cell((9, 2), 11) == "c10"
    for n in (3, 7, 19, 26):
        for r in range(n):
            for c in range(n):
                assert hex_gtp.parse_cell(hex_gtp.format_cell((r, c), n), n) == (r, c)


@pytest.mark.parametrize("text", ["", "a", "1", "1a", "a0", "a01", "aa1", "a1.5", "a-1", "a+1", "a 1", "é1",
                                  "a١", "pass", "swap", None, 7])
def test_bad_cells_are_protocol_errors(text):
    with pytest.raises(ProtocolError, match="invalid cell"):
        hex_gtp.parse_cell(text, 7)


@pytest.mark.parametrize("text", ["h1", "a8", "z26", "a99999999999999999999"])
def test_cells_off_the_board_are_protocol_errors(text):
    with pytest.raises(ProtocolError, match="off the 7x7 board"):
        hex_gtp.parse_cell(text, 7)


def test_special_moves_and_sizes():
    assert hex_gtp.parse_move("Swap-Pieces", 5) == "swap-pieces"
    assert hex_gtp.parse_move("RESIGN", 5) == "resign"
    assert hex_gtp.parse_boardsize(["7"]) == 7
    assert hex_gtp.parse_boardsize(["7", "7"]) == 7
    for args, message in ((["5", "6"], "only square"), (["x"], "must be an integer"), (["-3"], "must be in 1..inf"),
                          ([], "boardsize N"), (["5", "5", "5"], "boardsize N")):
        with pytest.raises(ProtocolError, match=message):
            hex_gtp.parse_boardsize(args)
    assert [hex_gtp.format_result(w) for w in (0, 1, None)] == ["B+", "W+", "cannot score"]


def test_the_board_is_drawn_as_benzene_draws_it():
    # StoneBoard::Write: letters, then row i shifted i spaces, "%2d\" cells joined by two spaces "\%d"
    assert hex_gtp.format_board([[1, 0, 0], [0, 2, 0], [0, 0, 0]], "black to move") == (
        "\n"
        "  a  b  c\n"
        " 1\\B  .  .\\1\n"
        "  2\\.  W  .\\2\n"
        "   3\\.  .  .\\3\n"
        "      a  b  c\n"
        "black to move")


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.text(max_size=6), st.integers(min_value=3, max_value=19))
@example("b12", 11)
@example("K10", 11)
def test_fuzz_cell_parser(text, size):
    """Any text is a cell of the board (and names itself back) or a ProtocolError; nothing else."""
    try:
        row, col = hex_gtp.parse_cell(text, size)
    except ProtocolError:
        return
    assert 0 <= row < size and 0 <= col < size
    assert hex_gtp.format_cell((row, col), size) == text.lower()


# ==== the engine's line handling, in process =====================================================

def snapshot(session: HexSession):
    return (session.game.size, session.game.cells(session.state).tobytes(), session.game.to_move(session.state),
            list(session.moves), session.allow_swap, session.game_clock.control,
            [session.game_clock.report(colour) for colour in (0, 1)])


WORDS = st.sampled_from(["play", "genmove", "undo", "boardsize", "showboard", "final_score", "clear_board",
                         "param_game", "all_legal_moves", "reg_genmove", "known_command", "name", "list_commands",
                         "hexgui-analyze_commands", "komi", "PLAY", "#", "12", "time_left",
                         "param_game game_time"])
ARGS = st.one_of(st.sampled_from(["b", "w", "black", "WHITE", "x", "a1", "b2", "c3", "e5", "a0", "z9",
                                  "swap-pieces", "resign", "pass", "3", "5", "20", "allow_swap", "1", "0", "-1",
                                  "game_time", "2.5", "nan", "inf", "1e9"]),
                 st.text(max_size=4))


@settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(WORDS, st.lists(ARGS, max_size=3)), max_size=25))
def test_fuzz_engine_lines_never_crash_and_errors_change_nothing(commands):
    session = HexSession(Settings(size=3, time=0, simulations=8, seed=1))
    engine = make_engine(session)
    for word, args in commands:
        line = " ".join([word, *args])
        before = snapshot(session)
        reply = engine.handle(line)
        if reply is None:
            assert line.strip() == "" or line.startswith("#")
            continue
        assert reply[0] in "=?" and reply.endswith("\n\n") and "internal error" not in reply, (line, reply)
        if reply[0] == "?" and word != "quit":
            assert snapshot(session) == before, (line, reply)
        if engine.finished:
            break


def test_genmove_spends_exactly_its_simulations_and_plays_an_empty_cell():
    session = HexSession(Settings(size=5, time=0, simulations=64, seed=3))
    engine = make_engine(session)
    assert engine.handle("play b c3") == "= \n\n"
    result = session.search(1, 0.0)
    assert result.stats["simulations"] == 64
    reply = engine.handle("genmove w")
    point = hex_gtp.parse_cell(reply[2:].strip(), 5)
    assert session.game.cells(session.state)[point] == 2 and session.game.to_move(session.state) == 0


def test_out_of_turn_stones_are_placed_as_hexgui_sends_setup_stones():
    session = HexSession(Settings(size=4, time=0, simulations=8, seed=0))
    engine = make_engine(session)
    for line in ("play b a1", "play b b1", "play b c1"):  # HexGui's playSetup sends all black stones first
        assert engine.handle(line) == "= \n\n"
    assert session.game.to_move(session.state) == 1
    assert session.game.cells(session.state)[0].tolist() == [1, 1, 1, 0]
    assert engine.handle("genmove b").startswith("= ")  # black again, out of turn: still answered
    assert (session.game.cells(session.state) == 1).sum() == 4


# ==== through the real process, byte for byte ======================================================

def test_hexgui_start_up_dialogue_byte_for_byte():
    # HexGui's connectProgram: name, version, hexgui-analyze_commands, boardsize W H, moves, showboard
    out = dialogue("name\nversion\nhexgui-analyze_commands\nboardsize 7 7\nplay black d4\nplay white c3\n"
                   "showboard\n1 final_score\n2 play white c3\n3 play black h1\n4 play red a1\n5 undo\n"
                   "6 showboard\nquit\n", *FAST)
    from adapters.gtp_serve import version
    assert out.decode() == (
        "= plies\n\n"
        f"= {version()}\n\n"
        f"= {ANALYZE_COMMANDS}\n\n"
        "= \n\n= \n\n= \n\n"
        "= \n"
        "  a  b  c  d  e  f  g\n"
        " 1\\.  .  .  .  .  .  .\\1\n"
        "  2\\.  .  .  .  .  .  .\\2\n"
        "   3\\.  .  W  .  .  .  .\\3\n"
        "    4\\.  .  .  B  .  .  .\\4\n"
        "     5\\.  .  .  .  .  .  .\\5\n"
        "      6\\.  .  .  .  .  .  .\\6\n"
        "       7\\.  .  .  .  .  .  .\\7\n"
        "          a  b  c  d  e  f  g\n"
        "black to move\n\n"
        "=1 cannot score\n\n"
        "?2 illegal move: white c3 (occupied)\n\n"
        "?3 cell h1 is off the 7x7 board (a1..g7)\n\n"
        "?4 invalid colour: 'red' (use b or w)\n\n"
        "=5 \n\n"
        "=6 \n"
        "  a  b  c  d  e  f  g\n"
        " 1\\.  .  .  .  .  .  .\\1\n"
        "  2\\.  .  .  .  .  .  .\\2\n"
        "   3\\.  .  .  .  .  .  .\\3\n"
        "    4\\.  .  .  B  .  .  .\\4\n"
        "     5\\.  .  .  .  .  .  .\\5\n"
        "      6\\.  .  .  .  .  .  .\\6\n"
        "       7\\.  .  .  .  .  .  .\\7\n"
        "          a  b  c  d  e  f  g\n"
        "white to move\n\n"
        "= \n\n")


def test_a_won_game_scores_and_refuses_more_moves_byte_for_byte():
    # black fills column a (a1..a3 joins row 1 to row 3 on 3x3); white plays elsewhere
    out = dialogue("boardsize 3\nplay b a1\nplay w b1\nplay b a2\nplay w b2\nplay b a3\nfinal_score\n"
                   "play w c3\ngenmove w\nall_legal_moves\nundo\nfinal_score\nall_legal_moves\nquit\n", *FAST)
    assert out.decode() == (
        "= \n\n" * 6 + "= B+\n\n"
        "? illegal move: white c3 (the game is over: black has won)\n\n"
        "? the game is over: black has won\n\n"
        "= \n\n"
        "= \n\n"
        "= cannot score\n\n"
        "= c1 c2 a3 b3 c3\n\n"
        "= \n\n")


@pytest.mark.parametrize("args, message", [
    (["--time", "0"], "time 0 needs simulations N"), (["--size", "2"], "size must be in 3..19"),
    (["--simulations", "0"], "simulations must be at least 1"), (["--time", "-1"], "time must be a finite number"),
    (["--time", "nan"], "time = nan (command line)"), (["--epsilon", "2"], "epsilon must be in 0..1"),
    (["--network", "absent.onnx"], "no network file absent.onnx"), (["--config", "absent.toml"], "--config: no file"),
])
def test_bad_settings_refuse_the_start_with_status_2(capsys, args, message):
    from adapters.gtp_hex import EXIT_STATUS, main
    kind = "network" if "--network" in args else "refused"   # a bad network file: status 3
    assert main(args) == EXIT_STATUS[kind][0] == {"refused": 2, "network": 3}[kind]
    assert message in capsys.readouterr().err


def test_the_search_and_its_knowledge_come_from_the_settings():
    from engines.knowledge.hex import patterns as HP
    from engines.search.rave import Rave
    default = HexSession(Settings(size=5, time=0, simulations=40))
    assert isinstance(default.searcher, Rave)
    assert default.searcher.knowledge.traced_playout is HP.traced_bridge_vc
    assert default.searcher.knowledge.children is HP.children_full
    chosen = HexSession(Settings(size=5, time=0, simulations=40, knowledge="patterns+inferior"))
    assert chosen.searcher.knowledge.traced_playout is HP.traced_bridge
    assert chosen.searcher.knowledge.children is HP.children_inferior
    mcts = HexSession(Settings(size=5, time=0, simulations=40, search="mcts", knowledge="connections"))
    assert mcts.searcher.knowledge.playout is HP.playout_vc and mcts.searcher.knowledge.children is HP.children_vc
    for bad in ("bridges", "patterns+", "all+inferior", "patterns+patterns"):
        with pytest.raises(ValueError, match="knowledge"):
            Settings(knowledge=bad)
    with pytest.raises(ValueError, match="network"):
        Settings(network="shipped", search="rave")


def test_settings_come_from_the_flags_the_environment_and_a_config_file(tmp_path, capsys):
    from adapters.gtp_hex import build_parser, load_settings, main

    def load(*flags, **env):
        environment = {f"PLIES_HEXGTP_{key}": value for key, value in env.items()}
        return load_settings(build_parser().parse_args(list(flags)), env=environment)
    toml = tmp_path / "hexgtp.toml"
    toml.write_text("size = 5\ntime = 0\nsimulations = 40\nseed = 3\nuct_c = 1.25\nexpand_visits = 2\n"
                    "swap = true\nsearch = 'mcts'\nknowledge = 'none'\n")
    assert load() == Settings()
    assert load("--config", str(toml)) == Settings(size=5, time=0, simulations=40, seed=3, uct_c=1.25, expand_visits=2,
                                                  swap=True, search="mcts", knowledge="none")
    assert load("--config", str(toml), SEED="4").seed == 4                 # the environment over the file
    assert load("--config", str(toml), "--seed", "5", SEED="4").seed == 5  # a flag over both
    assert load("--config", str(toml), "--no-swap").swap is False
    # the constants of the search reach it
    session = HexSession(load("--config", str(toml), "--capacity", "5000"))
    config = session.searcher.config
    assert (config.c, config.expand_visits, config.rollout, session.searcher.capacity) == (1.25, 2, "random", 5000)
    assert session.searcher.knowledge.playout is None and session.searcher.knowledge.children is None
    assert session.allow_swap and session.game.size == 5
    toml.write_text("simulatons = 40\n")
    assert main(["--config", str(toml)]) == 2 and "simulatons" in capsys.readouterr().err


def test_garbage_bytes_and_unknown_commands_do_not_end_the_session():
    out = dialogue("\x00\xff junk\nkomi 6.5\n\n# a comment\nplay\nboardsize 7 7 7\nboardsize 99999999999\n"
                   "play b a1 extra\nshowboard\nquit\n", *FAST).decode("utf-8", "surrogateescape")
    replies = out.split("\n\n")
    assert replies[:6] == ["? unknown command", "? unknown command", "? play b|w CELL", "? boardsize N (or boardsize N N)",
                           "? board size must be in 3..19, got 99999999999", "= "]
    assert "1\\B" in replies[6]


# ==== genmove, undo, sizes, swap through the process ===============================================

def test_hexgui_drives_it_one_command_at_a_time(engine):
    # HexGui's HtpController writes one command and reads until the reply's empty line
    assert engine.raw("name") == "= plies\n\n"
    assert engine.raw("hexgui-analyze_commands") == f"= {ANALYZE_COMMANDS}\n\n"
    assert engine.raw("boardsize 5 5") == "= \n\n"
    assert engine.raw("play black c3") == "= \n\n"
    reply = engine.raw("genmove white")
    assert re.fullmatch(r"= [a-e][1-5]\n\n", reply) and reply != "= c3\n\n"
    assert engine.raw("7 undo") == "=7 \n\n"
    assert re.fullmatch(r"=8 [a-e][1-5]\n\n", engine.raw("8 genmove white"))
    engine.proc.stdin.write("# interrupt\n")  # HexGui's interrupt line: a comment, no reply
    assert engine.raw("known_command undo") == "= true\n\n"


def test_genmove_answers_legal_empty_cells_and_keeps_the_board_in_sync(engine):
    rng = random.Random(5)
    game = make_game("hex", size=6)
    state = game.initial_state()
    engine.ok("boardsize 6 6")
    colour = 0
    while not game.is_terminal(state):
        name = "bw"[colour]
        if rng.random() < 0.5:
            move = engine.genmove(name)
        else:
            move = hex_gtp.format_cell(game.coords(rng.choice(game.legal_moves(state))), 6)
            engine.ok(f"play {name} {move}")
        point = hex_gtp.parse_cell(move, 6)
        assert game.cells(state)[point] == 0
        state = game.play(state, game.action(*point))
        assert (board_cells(engine.ok("showboard"), 6) == game.cells(state)).all()
        colour = 1 - colour
    assert engine.ok("final_score") == ("B+", "W+")[game.winner(state)]
    ok, text = engine.send("genmove b")
    assert not ok and "game is over" in text


def test_undo_takes_back_moves_and_genmoves_one_at_a_time(engine):
    engine.ok("boardsize 5")
    boards = [engine.ok("showboard")]
    for line in ("play b c3", "play w b2", "genmove b", "genmove w"):
        engine.ok(line)
        boards.append(engine.ok("showboard"))
    for board in reversed(boards[:-1]):
        engine.ok("undo")
        assert engine.ok("showboard") == board
    ok, text = engine.send("undo")
    assert not ok and text == "cannot undo: no move has been played"
    engine.ok("play b a1")  # the session goes on after the error


def test_boardsize_changes_clear_the_board_and_bound_the_cells(engine):
    engine.ok("boardsize 3")
    engine.ok("play b c3")
    assert engine.send("play w d1") == (False, "cell d1 is off the 3x3 board (a1..c3)")
    engine.ok("boardsize 19 19")
    assert board_cells(engine.ok("showboard"), 19).sum() == 0
    engine.ok("play w s19")
    engine.ok("play b i9")
    assert board_cells(engine.ok("showboard"), 19)[8, 8] == 1
    for bad in ("boardsize 2", "boardsize 20 20", "boardsize 8 9"):
        assert not engine.send(bad)[0]
    assert board_cells(engine.ok("showboard"), 19)[18, 18] == 2  # a refused size changes nothing
    engine.ok("boardsize 4")
    assert engine.ok("all_legal_moves").split() == [f"{c}{r}" for r in range(1, 5) for c in "abcd"]


def test_swap_follows_mohex(engine):
    engine.ok("boardsize 5")
    engine.ok("play b c3")
    assert engine.send("play w swap-pieces") == (
        False, "illegal move: white swap-pieces (swap is off: param_game allow_swap 1 turns it on)")
    assert engine.ok("param_game") == "[bool] allow_swap 0\n[string] game_time 0"
    engine.ok("param_game allow_swap 1")
    assert engine.ok("param_game") == "[bool] allow_swap 1\n[string] game_time 0"
    assert engine.ok("all_legal_moves w").split()[-1] == "swap-pieces"
    before = board_cells(engine.ok("showboard"), 5)
    engine.ok("play w swap-pieces")
    board = engine.ok("showboard")
    assert (board_cells(board, 5) == before).all() and board.endswith("white to move")  # white moves again
    assert not engine.send("play w swap-pieces")[0]
    engine.ok("undo")  # takes back the swap only
    assert engine.ok("showboard") == board
    engine.ok("play w swap-pieces")
    engine.ok("undo")
    engine.ok("undo")
    assert not engine.send("play b swap-pieces")[0]  # only white, only second
    assert engine.ok("play b resign") == ""  # MoHex: resign is accepted and changes nothing


def test_genmove_swaps_a_winning_centre_opening_on_3x3():
    # b2 on 3x3 wins for black with any reply: white's search sees every reply lose and swaps
    session = HexSession(Settings(size=3, time=0, simulations=3000, seed=0, swap=True))
    engine = make_engine(session)
    engine.handle("play b b2")
    assert engine.handle("genmove w") == "= swap-pieces\n\n"
    assert session.moves[-1] == (1, "swap-pieces") and session.game.to_move(session.state) == 1
    # without swap, the same search answers a cell
    session = HexSession(Settings(size=3, time=0, simulations=3000, seed=0))
    engine = make_engine(session)
    engine.handle("play b b2")
    assert engine.handle("genmove w")[2:4] in {f"{c}{r}" for c in "abc" for r in "123"}


# ==== the optional policy network ====================================================================

def random_network_file(directory: Path, size: int, seed: int = 0) -> Path:
    from engines.knowledge import mlp
    from engines.knowledge.bundle import Network
    from engines.learn.network_file import save_network
    layers = (3 * size * size, 16, size * size)
    params = np.random.default_rng(seed).normal(0, 0.3, mlp.param_count(layers)).astype(np.float32)
    return save_network(directory / f"test{size}.onnx", Network(params, layers, "relu"), {"made_by": "a test"})


def uses_network(session: HexSession) -> bool:
    """The searcher plays the session's network (its playouts), not random playouts."""
    searcher = session.searcher
    return searcher.config.rollout == "network" and searcher.knowledge.network is session.network is not None


def test_a_network_file_plays_its_size_and_starts_on_it(tmp_path):
    path = random_network_file(tmp_path, 5)
    session = HexSession(Settings(time=0, simulations=50, seed=0, network=str(path)))
    engine = make_engine(session)
    assert session.game.size == 5 and uses_network(session)  # no --size: the network's size
    for colour in "bwbw":
        assert re.fullmatch(r"= [a-e][1-5]\n\n", engine.handle(f"genmove {colour}"))


def test_a_network_for_another_size_refuses_the_start_naming_both_sizes(tmp_path, capsys):
    from adapters.gtp_hex import main
    path = random_network_file(tmp_path, 5)
    with pytest.raises(NetworkError) as err:
        HexSession(Settings(size=7, time=0, simulations=50, seed=0, network=str(path)))
    assert str(err.value) == f"{path} is a network for 5x5, not for 7x7"
    assert main(["--size", "7", "--network", str(path), "--time", "0", "--simulations", "50"]) == 3  # EXIT_STATUS["network"]
    assert f"{path} is a network for 5x5, not for 7x7" in capsys.readouterr().err


def test_boardsize_the_network_cannot_play_is_a_failure_and_changes_nothing(tmp_path):
    path = random_network_file(tmp_path, 5)
    session = HexSession(Settings(time=0, simulations=50, seed=0, network=str(path)))
    engine = make_engine(session)
    engine.handle("play b c3")
    before = snapshot(session)
    assert engine.handle("boardsize 7") == f"? {path} is a network for 5x5, not for 7x7\n\n"
    assert snapshot(session) == before and uses_network(session)
    assert re.fullmatch(r"= [a-e][1-5]\n\n", engine.handle("genmove w"))  # the game goes on, with the network
    assert engine.handle("boardsize 5") == "= \n\n" and uses_network(session)


def test_shipped_networks_play_their_sizes_and_refuse_the_others():
    sizes = shipped_sizes()
    assert sizes[:1] == (5,)
    session = HexSession(Settings(time=0, simulations=50, seed=0, network="shipped"))
    engine = make_engine(session)
    assert session.game.size == 5 and uses_network(session)  # no --size: the smallest shipped size
    listed = ", ".join(f"{n}x{n}" for n in sizes)
    assert engine.handle("boardsize 11") == f"? no shipped network for 11x11 (shipped: {listed})\n\n"
    assert session.game.size == 5
    for size in sizes:
        assert engine.handle(f"boardsize {size}") == "= \n\n"
        assert uses_network(session) and policy_shape(session.network)[1] == size * size
    with pytest.raises(NetworkError, match="no shipped network for 11x11"):
        HexSession(Settings(size=11, time=0, simulations=50, seed=0, network="shipped"))


def test_a_file_that_is_no_network_refuses_the_start(tmp_path, capsys):
    from adapters.gtp_hex import main
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"\x00\xffnot onnx" * 8)
    assert main(["--network", str(broken)]) == 3  # EXIT_STATUS["network"]
    assert f"{broken} is not a readable ONNX network" in capsys.readouterr().err


def test_network_through_the_process(tmp_path):
    path = random_network_file(tmp_path, 5, seed=1)
    out = dialogue("boardsize 5\ngenmove b\ngenmove w\nboardsize 6\nfinal_score\nquit\n", "--time", "0",
                   "--simulations", "100", "--seed", "0", "--network", str(path)).decode()
    refused = re.escape(f"? {path} is a network for 5x5, not for 6x6\n\n")
    assert re.fullmatch(r"= \n\n= [a-e][1-5]\n\n= [a-e][1-5]\n\n" + refused + r"= cannot score\n\n= \n\n", out)


# ==== the RAVE search's prior network ================================================================

def prior_file(directory: Path, size: int, cell: int) -> Path:
    """A network file whose policy favours one cell whatever the board (test_hex_teacher.favouring)."""
    from engines.learn.network_file import save_network
    from test_hex_teacher import favouring
    return save_network(directory / f"favour{size}-{cell}.onnx", favouring(size, cell), {"size": size})


def prior_params(session: HexSession):
    """The RAVE searcher's prior experience params (None: the search has no prior)."""
    knowledge = session.searcher.knowledge
    return None if knowledge.experience is None else knowledge.experience_params


def test_a_prior_file_moves_the_search_s_visits_to_its_favourite():
    """300 simulations on an empty 7x7 give the edge cell b1 a visit or a few by themselves (three
    seeds); with a prior that favours it, once the root has its NET_AFTER visits (the network rates
    its children then), b1 gets tens of visits, several times as many."""
    import tempfile
    from engines.knowledge.hex.registered import NET_AFTER
    path = prior_file(Path(tempfile.mkdtemp()), 7, 1)
    b1 = 1
    for seed in (0, 1, 2):
        visits = []
        for prior in ("none", str(path)):
            session = HexSession(Settings(size=7, time=0, simulations=300, seed=seed, prior=prior,
                                          root_solver=False))  # the search's visits, not a proof
            result = session.search(0, time.perf_counter())
            visits.append(dict(zip(result.moves, result.visits))[b1])
        plain, taught = visits
        assert taught >= 25 and taught > 3 * plain
        assert session.searcher.knowledge.experience_visits == NET_AFTER


def test_a_prior_plays_its_size_and_a_size_it_cannot_play_is_refused(tmp_path, capsys):
    from adapters.gtp_hex import main
    path = prior_file(tmp_path, 5, 12)
    session = HexSession(Settings(time=0, simulations=50, seed=0, prior=str(path)))
    engine = make_engine(session)
    assert session.game.size == 5 and prior_params(session) is not None  # no --size: the prior's size
    engine.handle("play b c3")
    before = snapshot(session)
    assert engine.handle("boardsize 7") == f"? {path} is a network for 5x5, not for 7x7\n\n"
    assert snapshot(session) == before and prior_params(session) is not None
    assert main(["--size", "7", "--prior", str(path), "--time", "0", "--simulations", "50"]) == 3
    assert f"{path} is a network for 5x5, not for 7x7" in capsys.readouterr().err
    with pytest.raises(ValueError, match="prior"):
        Settings(prior=str(path), search="mcts")
    assert Settings(search="mcts").prior == "shipped"  # the default prior does not stand in mcts's way


def test_the_shipped_prior_is_the_default_where_one_is_shipped():
    from engines.knowledge.hex.registered import network_experience_params
    from engines.knowledge.hex.network import load_network, shipped_prior_path
    for size in (5, 9, 11):
        path = shipped_prior_path(size)
        # (without the move patterns, the default prior where no network is shipped)
        default = HexSession(Settings(size=size, time=0, simulations=10, move_patterns="none"))
        none = HexSession(Settings(size=size, time=0, simulations=10, prior="none", move_patterns="none"))
        assert prior_params(none) is None
        if path is None:
            assert prior_params(default) is None
        else:
            expected = network_experience_params(load_network(path, size)[0])
            assert np.array_equal(prior_params(default), expected)


# ==== whole games refereed between processes =======================================================

def test_engine_against_engine_games_end_with_an_agreed_winner():
    strong = GtpProcess(["--time", "0", "--simulations", "2000", "--seed", "1"])
    weak = GtpProcess(["--time", "0", "--simulations", "30", "--seed", "2"])
    try:
        rng = random.Random(0)
        results = []
        for players in ((strong, weak), (weak, strong)):
            winner, moves = referee_game(players, 5, rng, check_boards=True)
            results.append(players[winner])
            assert 5 <= len(moves) <= 25
        # an engine process plays both colours in turn; the referee checked every move and board
        assert all(r in (strong, weak) for r in results)
    finally:
        strong.close()
        weak.close()


def test_engine_beats_random_moves_from_both_sides():
    ours = GtpProcess(["--time", "0", "--simulations", "1500", "--seed", "4"])
    try:
        rng = random.Random(1)
        wins = 0
        for game in range(4):
            players = (ours, "random") if game % 2 == 0 else ("random", ours)
            winner, _ = referee_game(players, 5, rng)
            wins += players[winner] is ours
        assert wins == 4
    finally:
        ours.close()


# ==== the regression file ==========================================================================

def test_regression_file_passes():
    files = sorted((ROOT / "regress" / "hex").glob("*.gtp"))
    assert files
    engine = shlex.join([sys.executable, "-m", "adapters.gtp_hex", *FAST])
    done = subprocess.run([sys.executable, "-m", "regress.runner", engine, *map(str, files)], capture_output=True,
                          cwd=ROOT, timeout=300, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.splitlines()[-1].split("\t")
    tests, unexpected_failures, expected_failures, unexpected_passes, passes = map(int, summary[:5])
    assert unexpected_failures == 0 and unexpected_passes == 0 and passes + expected_failures == tests > 40


# ==== benzene's game clock: param_game game_time, time_left ======================================

def test_a_game_clock_as_benzene_keeps_it():
    """game_time is each side's time for the game (only before the first move; 0: none), genmove
    charges its own time, time_left reads and sets it, a new game fills both clocks again; bad
    values are errors that change nothing."""
    engine = make_engine(HexSession(Settings(size=5, time=0, simulations=50, seed=0)))
    ask = engine.handle
    assert ask("param_game").endswith("[string] game_time 0\n\n")
    assert ask("time_left").startswith("? no game clock")
    assert ask("param_game game_time 30") == "= \n\n"
    assert ask("param_game").endswith("[bool] allow_swap 0\n[string] game_time 30\n\n")
    assert ask("time_left") == "= Black: 30, White: 30\n\n"
    assert ask("genmove b").startswith("= ")
    black = float(ask("time_left b")[2:])
    assert 0 < black < 30 and ask("time_left w") == "= 30\n\n"  # the move's own time, charged to black
    assert ask("param_game game_time 10") == "? cannot set game_time once the game has started\n\n"
    assert ask("time_left w 12.5") == "= \n\n" and ask("time_left white") == "= 12.5\n\n"
    assert ask("time_left w 7 0") == "= \n\n" and ask("time_left w") == "= 7\n\n"  # GTP's form, in main time
    for bad in ("time_left w x", "time_left w -1", "time_left w inf", "time_left q 3", "time_left w 3 2",
                "time_left w 1 0 9", "param_game game_time nan", "param_game game_time -2"):
        assert ask(bad).startswith("? "), bad
    assert ask("time_left") == f"= Black: {black:g}, White: 7\n\n"
    assert ask("clear_board") == "= \n\n" and ask("time_left") == "= Black: 30, White: 30\n\n"
    assert ask("param_game game_time 0") == "= \n\n" and ask("time_left").startswith("? no game clock")
