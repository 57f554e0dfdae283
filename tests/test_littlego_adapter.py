"""The Little-Go player's shape: the pure session of protocols/littlego.py, the host's rules in pure
Python (engines/games/reference/littlego.py), the exit statuses of adapters/littlego.py and its settings
(my_player3.toml beside the player, PLIES_LITTLEGO_<KEY>)."""
import io
import json
import os
import subprocess
import sys
import time
import tomllib

import pytest

from adapters import littlego as player
from engines.games.reference import littlego as rules
from engines.errors import IllegalMove, Reason
from protocols.common import PASS, EndOfInput, ProtocolError
from protocols.littlego import POSITION, PlayerSession, Turn, player_of, read_input, write_input

E = [[0] * 5 for _ in range(5)]
CENTRE = [[0] * 5 for _ in range(5)]
CENTRE[2][2] = 1
SEARCH = {"PLIES_LITTLEGO_SIMULATIONS": "200", "PLIES_LITTLEGO_SEED": "3"}


def run(workdir, env, player_dir=None):
    err = io.StringIO()
    return player.play(workdir, player_dir, env=env, err=err), err.getvalue()


# ==== the session ================================================================================
def test_the_session_answers_input_txt_with_output_txt():
    seen = []

    def answer(turn):
        seen.append(turn)
        return (1, 3)
    session = PlayerSession({POSITION: answer})
    assert session.handle(write_input(2, E, CENTRE)) == "1,3\n"
    assert seen == [(2, E, CENTRE)] and seen[0].colour == 2 and seen[0].current == CENTRE
    assert PlayerSession({POSITION: lambda turn: PASS}).handle(write_input(1, E, E)) == "PASS\n"


def test_the_session_outcomes_are_exceptions():
    called = []
    session = PlayerSession({POSITION: called.append})
    with pytest.raises(ProtocolError, match="11 lines"):
        session.handle("1\n00000\n")
    assert called == []  # text that does not parse never reaches the handler

    def refuse(turn):
        raise ProtocolError("the boards cannot follow each other")
    with pytest.raises(ProtocolError, match="follow"):
        PlayerSession({POSITION: refuse}).handle(write_input(1, E, E))

    def crash(turn):
        raise RuntimeError("a bug")
    with pytest.raises(RuntimeError):  # not the session's business: the transport decides
        PlayerSession({POSITION: crash}).handle(write_input(1, E, E))


def test_wire_colours_meet_engine_players_in_one_place():
    assert (player_of(1), player_of(2)) == (0, 1)
    for bad in (0, 3, True, "1", None):
        with pytest.raises(ProtocolError, match="colour"):
            player_of(bad)
    assert read_input(write_input(2, E, CENTRE)) == Turn(2, E, CENTRE)


# ==== the host's rules in pure Python ============================================================
def test_placements_and_the_most_captures():
    board = [[0, 2, 0, 0, 0],
             [2, 1, 0, 0, 0],
             [0, 2, 0, 0, 0],
             [0, 0, 0, 0, 0],
             [0, 0, 0, 0, 0]]
    pos = rules.Position(board, board, False, 2)
    assert pos.most_captures() == [(1, 2)]  # takes the black stone at (1,1)
    after = {p: (nxt, n) for p, nxt, n in pos.placements()}
    assert after[(1, 2)][1] == 1 and after[(1, 2)][0].board[1] == [2, 0, 2, 0, 0] and after[(1, 2)][0].colour == 1
    assert len(after) == 25 - 4  # every empty point is valid for White here
    quiet = rules.Position(E, E, False, 1)
    assert quiet.most_captures() == [(i, j) for i in range(5) for j in range(5)]  # none captures: all tie
    full = [[1] * 5 for _ in range(5)]
    full[0][0] = 0
    assert rules.Position(full, full, False, 1).placements() == []  # only suicide is left


# Black's three stones on the top edge are in atari (their liberty is (0,3), where they join the
# black group on the right); White's stone at (4,1) is in atari too.  The most captures takes (4,1)
# at (3,1) and loses three stones at (0,3); a search sees White's answer and connects at (0,3).
ATARI_CURRENT = [[1, 1, 1, 0, 1],
                 [2, 2, 2, 1, 1],
                 [0, 0, 0, 1, 0],
                 [0, 0, 0, 0, 0],
                 [1, 2, 1, 0, 0]]
ATARI_PREVIOUS = [row[:] for row in ATARI_CURRENT]
ATARI_PREVIOUS[1][2] = 0


def ticking(step: float = 1e-4):
    """A CPU clock that advances ``step`` at each reading (a search's length in readings, load-free)."""
    reads = iter(range(10 ** 9))
    return lambda: next(reads) * step


def test_the_fallback_move_is_a_search_where_the_most_captures_errs():
    assert rules.Position.from_input(1, ATARI_PREVIOUS, ATARI_CURRENT).most_captures() == [(3, 1)]
    turn = Turn(1, ATARI_PREVIOUS, ATARI_CURRENT)
    assert player.fallback_move(turn, 8, 0.3, ticking()) == (0, 3)
    assert player.fallback_move(turn, 8, 0.3) == (0, 3)  # on the real CPU clock too


def test_the_fallback_search_stays_within_its_share_of_cpu_time():
    cpu = ticking()
    start = cpu()
    player.fallback_move(Turn(1, E, E), 0, 0.3, cpu)
    assert cpu() - start <= 0.3 + 3e-4  # the deadline read, then the reading that found it passed
    spent = time.process_time()
    player.fallback_move(Turn(1, E, E), 0, 0.3)
    assert time.process_time() - spent <= 0.3 + 0.05  # one node's expansion past the deadline at most


def test_the_fallback_search_ends_the_game_only_when_it_wins():
    search = rules.SearchRules()
    ahead = [[1, 1, 1, 0, 0]] + [[0] * 5 for _ in range(4)]  # Black 3 - White 0 - 2.5: a pass now wins
    node = search.node(1, ahead, ahead, 6)   # the opponent passed: our pass ends the game
    assert None in search.moves(node) and search.outcome(search.play(node, None)) == -1  # White to move, lost
    behind = search.node(2, ahead, ahead, 7)
    assert player.fallback_move(Turn(2, ahead, ahead), 7, 0.3, ticking()) is not None  # White must not pass
    assert search.outcome(behind) is None and search.moves(search.node(1, CENTRE, E, 1)) != [None]


def test_a_forbidden_placement_raises_the_engines_illegal_move():
    with pytest.raises(IllegalMove) as err:
        rules.place(CENTRE, E, False, 2, 2, 2)
    assert err.value.reason is Reason.OCCUPIED and isinstance(err.value, ValueError)
    assert rules.Position.from_input(1, CENTRE, E).died  # our stone vanished: a ko is possible
    assert not rules.Position.from_input(1, E, CENTRE).died


# ==== exit statuses ==============================================================================
def test_the_exit_status_map():
    assert player.exit_status(None) == 0
    assert player.exit_status(player.SearchFailed("the engine failed")) == 0  # the fallback stands
    assert player.exit_status(ProtocolError("bad input.txt")) == 2
    assert player.exit_status(EndOfInput("no input.txt")) == 2
    assert player.exit_status(IsADirectoryError(21, "Is a directory")) == 3
    for status in ("0  a move", "1  (my_player3.py)", "2  input.txt", "3  output.txt"):
        assert status in player.__doc__


def test_a_failed_search_leaves_the_fallback_move_and_exits_0(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the search")
    monkeypatch.setattr(player, "think", broken)
    (tmp_path / "input.txt").write_text(write_input(1, E, E))
    code, err = run(tmp_path, SEARCH)
    assert code == 0 and "the fallback move stands" in err and "RuntimeError" in err
    assert (tmp_path / "output.txt").read_text() == player.write_output(player.fallback_move(Turn(1, E, E)))
    assert not (tmp_path / player.NOTES_FILE).exists()  # notes only follow a searched move


def test_no_input_exits_2_and_removes_an_older_move(tmp_path):
    (tmp_path / "output.txt").write_text("0,0\n")
    code, err = run(tmp_path, SEARCH)
    assert code == 2 and "input.txt: not found" in err and not (tmp_path / "output.txt").exists()


# ==== settings ===================================================================================
def test_settings_come_from_the_toml_beside_the_player_then_the_environment(tmp_path):
    (tmp_path / player.SETTINGS_FILE).write_text(
        'python = "/opt/py"\nseconds = 1.25\nc = 0.9\ncapacity = 4096\nselection = "ucb1"\nseed = "s"\n')
    s = player.load_settings(tmp_path, {})
    assert (s.python, s.seconds, s.c, s.capacity, s.selection, s.seed) == ("/opt/py", 1.25, 0.9, 4096, "ucb1", "s")
    s = player.load_settings(tmp_path, {"PLIES_LITTLEGO_C": "0.3", "PLIES_LITTLEGO_SEED": "t",
                                        "PLIES_LITTLEGO_SIMULATIONS": "50"})
    assert (s.c, s.seed, s.simulations, s.capacity) == (0.3, "t", 50, 4096)


@pytest.mark.parametrize("text, words", [
    ("secnds = 3\n", ["secnds", player.SETTINGS_FILE]),
    ("capacity = 0\n", ["capacity must be at least 1"]),
    ("max_seconds = 9.5\n", ["watchdog_seconds"]),
    ("simulations = 0\n", ["simulations"]),
    ("seconds = [\n", ["cannot read"]),
])
def test_a_bad_setting_is_told_and_the_defaults_play(tmp_path, text, words):
    (tmp_path / player.SETTINGS_FILE).write_text(text)
    warnings = []
    assert player.load_settings(tmp_path, {}, warnings.append) == player.LittleGoSettings()
    assert len(warnings) == 1 and all(w in warnings[0] for w in words), warnings


def test_a_fixed_simulation_count_and_seed_repeat_the_move(tmp_path):
    """The search is counted (simulations), not timed, and the seed makes it repeat."""
    moves = []
    for k in range(2):
        d = tmp_path / str(k)
        d.mkdir()
        (d / "input.txt").write_text(write_input(2, E, CENTRE))
        assert run(d, SEARCH)[0] == 0
        notes = json.loads((d / player.NOTES_FILE).read_text())
        assert notes["simulations"] == 200
        moves.append(((d / "output.txt").read_text(), notes["pv"], notes["value"]))
    assert moves[0] == moves[1]


@pytest.mark.parametrize("python", ["/opt/plies/.venv/bin/python", 'C:\\Py "3"\\python.exe', "/home/é/\t\x7f/py"])
def test_the_settings_file_names_any_python(tmp_path, python):
    text = player.settings_text(python, 0.5)
    assert tomllib.loads(text) == {"python": python, "seconds": 0.5}
    (tmp_path / player.SETTINGS_FILE).write_text(text, encoding="utf-8")
    assert player.load_settings(tmp_path, {}).python == python


@pytest.mark.parametrize("prelude", ["", "import sys\nsys.modules['tomllib'] = None\n"], ids=["tomllib", "before-3.11"])
def test_the_standalone_copy_reads_the_python_setting(tmp_path, prelude):
    """my_player3.py reads only the python key: with tomllib, or on a python3 before 3.11 (no
    tomllib) from the line install writes."""
    player.install(tmp_path, python='/opt/"py"/bin/python')
    code = prelude + ("import runpy\nplayer = runpy.run_path('my_player3.py', run_name='copy')\n"
                      "print(player['_python_setting']())\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={k: v for k, v in os.environ.items() if not k.startswith("PLIES_")})
    assert done.returncode == 0 and done.stdout == '/opt/"py"/bin/python\n', done.stderr
