"""The Little-Go player (adapters/littlego.py, my_player3.py), the local host and the opponents.

The host on hand-made rule cases and against the engine's rules; the player end to end through the
local host against every opponent in both colours (seeded, counted in simulations: outcomes are
asserted, never timings); a decision pinned (the ko the player must not retake); every bad input;
the notes missing, corrupt or from another game.
"""
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from adapters import littlego as player
from engines.games.reference import littlego as rules
from adapters.cli import add_littlego_parser
from engines.errors import IllegalMove, Reason
from engines.games.go import Go
from protocols.common import PASS
from protocols.littlego import Turn, parse_move, read_input, write_input
from standins import littlego_host as host

E = [[0] * 5 for _ in range(5)]
MOVE_LINE = re.compile(r"^([0-4],[0-4]|PASS)\n$")
SIMULATIONS = "300"  # our player's search per move in the end-to-end games: counted, so a game repeats
SEARCH = {"PLIES_LITTLEGO_SIMULATIONS": SIMULATIONS, "PLIES_LITTLEGO_SEED": "7"}


def grid(*rows):
    return [[int(c) for c in r] for r in rows]


def game_at(board, previous, n_move, died=()):
    g = host.Game()
    g.board, g.previous, g.n_move, g.died = host.copy_board(board), host.copy_board(previous), n_move, list(died)
    return g


# ==== the host's rules ===========================================================================
def reason(board, previous, died, colour, i, j):
    """The Reason the host's rules give for a forbidden placement (None when it is valid)."""
    try:
        rules.place(board, previous, died, colour, i, j)
    except IllegalMove as err:
        return err.reason
    return None


def test_validation_order_and_reasons():
    board = grid("02000", "20000", "00000", "00000", "00000")
    g = game_at(board, board, 2)
    assert reason(g.board, g.previous, False, 1, 5, 0) is Reason.OUT_OF_RANGE
    assert reason(g.board, g.previous, False, 1, 0, 1) is Reason.OCCUPIED
    assert reason(g.board, g.previous, False, 1, 0, 0) is Reason.SUICIDE
    with pytest.raises(IllegalMove) as err:
        g.play((0, 0))
    assert err.value.reason is Reason.SUICIDE and g.over and g.winner == 2 and "suicide" in g.reason


def test_a_capture_without_own_liberty_is_valid():
    # the seed's example 4: the stone has no liberty until the white pair is removed
    board = grid("00000", "00000", "00011", "00122", "00210")
    g = game_at(board, board, 8)
    g.play((4, 4))
    assert g.board[3:] == grid("00100", "00211") and g.died == [(3, 3), (3, 4)]


KO_PREVIOUS = grid("00000", "01200", "10120", "01200", "00000")
KO_CURRENT = grid("00000", "01200", "12020", "01200", "00000")  # White (2,1) took the black (2,2)


def test_ko_is_judged_against_the_previous_board_when_stones_just_died():
    g = game_at(KO_CURRENT, KO_PREVIOUS, 6, died=[(2, 2)])
    with pytest.raises(IllegalMove) as err:
        g.play((2, 2))
    assert err.value.reason is Reason.KO and g.winner == 2 and "ko" in g.reason
    # the same boards without a capture on the previous turn: the retake is not a ko
    g = game_at(KO_CURRENT, KO_PREVIOUS, 6, died=[])
    g.play((2, 2))
    assert g.board[2] == [1, 0, 1, 2, 0]
    # a move elsewhere, the answer, then the retake is valid
    g = game_at(KO_CURRENT, KO_PREVIOUS, 6, died=[(2, 2)])
    for move in ((0, 4), (4, 4), (2, 2)):
        g.play(move)
    assert not g.over


def test_snapback_is_not_ko():
    previous = grid("02100", "22121", "20010", "02112", "01201")
    current = grid("02100", "22121", "20010", "02112", "01220")  # White (4,3) took the black (4,4)
    g = game_at(current, previous, 18, died=[(4, 4)])
    g.play((4, 4))
    assert g.board[4] == [0, 1, 0, 0, 1]


def test_pass_handling_and_the_end_of_the_game():
    g = host.Game()
    g.play(PASS)
    assert g.over and g.winner == 2  # a black pass on move 1: 0 > 0 + 2.5 fails
    g = host.Game()
    g.play((2, 2))
    g.play(PASS)  # white passes: previous becomes current, the game goes on
    assert not g.over and g.previous == g.board and g.input_text().splitlines()[1:6] == g.input_text().splitlines()[6:]
    g.play(PASS)
    assert g.over and "pass" in g.reason and g.winner == 2  # 1 stone against 0 + 2.5
    g = host.Game()
    g.play((2, 2))
    g.play(PASS)
    g.play((0, 0))
    g.play(PASS)
    assert not g.over  # a pass after a stone does not end it


def test_the_game_ends_after_move_24_and_scores_stones_only():
    g = host.Game()
    rng = np.random.default_rng(3)
    while not g.over:
        pos = rules.Position(g.board, g.previous, bool(g.died), g.colour)
        moves = pos.placements()
        g.play(moves[rng.integers(len(moves))][0] if moves else PASS)
        if not g.over:
            assert g.n_move < 24
    assert g.n_move == 24 or "pass" in g.reason
    full = grid("11111", "11111", "11000", "22222", "22222")  # the seed's example: 12 < 10 + 2.5
    assert not rules.black_wins(full)
    full[2][2] = 1
    assert rules.black_wins(full)  # 13 > 12.5


def test_input_for_the_mover_has_its_own_last_board_as_previous():
    g = host.Game()
    g.play((2, 2))
    assert read_input(g.input_text()) == (2, E, grid("00000", "00000", "00100", "00000", "00000"))
    g.play((1, 1))
    after_black = grid("00000", "00000", "00100", "00000", "00000")
    assert read_input(g.input_text())[1:] == (after_black, grid("00000", "02000", "00100", "00000", "00000"))


def test_the_host_agrees_with_the_engine_rules():
    """Random games: the host's valid moves are the engine's legal stones, its end and winner too."""
    game = Go(rules="littlego")
    rng = np.random.default_rng(561)
    kos = 0
    for _ in range(40):
        g, s = host.Game(), game.initial_state()
        while not g.over:
            pos = rules.Position(g.board, g.previous, bool(g.died), g.colour)
            valid = sorted(game.action(*p) for p, _, _ in pos.placements())
            assert valid == sorted(game.legal_moves(s)[:-1])
            kos += sum(1 for i in range(5) for j in range(5)
                       if reason(g.board, g.previous, bool(g.died), g.colour, i, j) is Reason.KO)
            m = valid[rng.integers(len(valid))] if valid and rng.random() > 0.05 else game.pass_action
            g.play(game.point_of(m))
            s = game.play(s, m)
            assert g.board == game.cells(s).tolist() and g.over == game.is_terminal(s)
        assert g.winner == game.winner(s) + 1
    assert kos > 0


# ==== the host's handling of player processes ====================================================
def script_player(tmp_path, name, body):
    path = tmp_path / f"{name}.py"
    path.write_text(body)
    return host.Player(name, (sys.executable, str(path)))


@pytest.mark.parametrize("body, verdict", [
    ("open('output.txt','w').write('garbage\\n')", "unparseable"),
    ("open('output.txt','w').write('5,0\\n')", "unparseable"),
    ("pass", "unparseable"),                                         # no output.txt at all
    ("open('output.txt','w').write('2,2\\n')", "occupied"),          # white answers on black's stone
    ("import time\nt=time.process_time()\nwhile time.process_time()-t<1.2: pass\n"
     "open('output.txt','w').write('0,0\\n')", "time"),
])
def test_a_bad_or_slow_move_loses_at_once(tmp_path, body, verdict):
    first = script_player(tmp_path, "centre", "open('output.txt','w').write('2,2\\n')")
    bad = script_player(tmp_path, "bad", body)
    db = host.prepare(bad, tmp_path / "b")
    (db / "output.txt").write_text("0,0\n")  # an older, valid move: never to be read
    rec = host.play_game(first, bad, (host.prepare(first, tmp_path / "a"), db), time_limit=1.0, seed="1")
    assert rec.winner == 1 and len(rec.moves) == 2 and verdict in rec.moves[1].verdict


def test_the_player_runs_in_its_own_directory_and_sees_a_fresh_input(tmp_path):
    echo = script_player(tmp_path, "echo", "import os\nt=open('input.txt').read()\n"
                         "open('seen.txt','a').write(os.getcwd()+'|'+t.replace('\\n','/')+'\\n')\n"
                         "open('output.txt','w').write('PASS\\n')")
    da, db = host.prepare(echo, tmp_path / "a"), host.prepare(echo, tmp_path / "b")
    rec = host.play_game(echo, echo, (da, db), seed="1")
    assert rec.winner == 2 and len(rec.moves) == 1  # black passes on move 1: the game ends
    assert (da / "seen.txt").read_text().startswith(str(da.resolve()) + "|1/00000/")


# ==== the player end to end through the host =====================================================
@pytest.mark.parametrize("opponent", host.OPPONENTS)
def test_the_player_finishes_games_against_every_opponent_in_both_colours(tmp_path, opponent):
    me = host.make_player("me")
    result = host.run_match(me, host.make_player(opponent), games=2, jobs=2, workroot=tmp_path,
                            env={**os.environ, **SEARCH}, seed=f"every-opponent-{opponent}")
    for k, rec in enumerate(result.games):
        mine = 1 if k % 2 == 0 else 2
        assert rec.black == ("me" if mine == 1 else opponent)
        assert all(m.verdict == "ok" for m in rec.moves), [m.verdict for m in rec.moves]
        assert rec.reason.startswith(("move 24", "a pass"))  # finished by the rules, nobody forfeited
        ours = [m for m in rec.moves if m.colour == mine]
        assert ours and all(m.exit_code == 0 and MOVE_LINE.match(m.raw) for m in ours)
        assert all(m.cpu < host.TIME_LIMIT for m in ours)
    for job in ("job0", "job1"):
        notes = json.loads((tmp_path / job / "A" / player.NOTES_FILE).read_text())
        assert notes["move_number_from"] == "notes" and notes["moves_played"] in (23, 24)


def test_the_copied_player_finds_plies_from_another_python_and_writes_one_lf_line(tmp_path):
    """python3 on PATH (here without numba) restarts under the Python named in my_player3.toml."""
    me = host.make_player("me")
    host.prepare(me, tmp_path)
    (tmp_path / "input.txt").write_text(write_input(2, E, grid("00000", "00000", "00100", "00000", "00000")))
    env = {**os.environ, **SEARCH}
    env.pop("PLIES_LITTLEGO_PYTHON", None)
    run = subprocess.run([host.python3(), "my_player3.py"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    out = (tmp_path / "output.txt").read_bytes()
    assert MOVE_LINE.match(out.decode()) and out != b"2,2\n"
    notes = json.loads((tmp_path / player.NOTES_FILE).read_text())
    assert notes["moves_played"] == 2 and notes["colour"] == 2 and notes["move_number_from"] == "start"


def test_without_plies_the_player_names_the_fix(tmp_path):
    (tmp_path / "my_player3.py").write_text(host.PLAYER_FILE.read_text())
    (tmp_path / "input.txt").write_text(write_input(1, E, E))
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    check = subprocess.run([python, "-c", "import numba"], env=env, capture_output=True)
    if check.returncode == 0:
        pytest.skip("this python3 has numba: nothing to find")
    run = subprocess.run([python, "my_player3.py"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 1 and "PLIES_LITTLEGO_PYTHON" in run.stderr and "plies littlego install" in run.stderr
    assert not (tmp_path / "output.txt").exists()


# ==== bad input ==================================================================================
def one_move(workdir, env=None):
    """play() in this process, a small seeded search counted in simulations."""
    env = {"PLIES_LITTLEGO_SIMULATIONS": "100", "PLIES_LITTLEGO_SEED": "1", **(env or {})}
    import io
    err = io.StringIO()
    code = player.play(workdir, None, env=env, err=err, started=time.process_time())
    return code, err.getvalue()


GOOD = write_input(2, E, grid("00000", "00000", "00100", "00000", "00000"))
LINES = GOOD.splitlines()
BAD_INPUTS = {
    "empty": "",
    "short": "\n".join(LINES[:10]) + "\n",
    "extra line": GOOD + "00000\n",
    "colour 0": "\n".join(["0"] + LINES[1:]) + "\n",
    "colour 3": "\n".join(["3"] + LINES[1:]) + "\n",
    "colour x": "\n".join(["x"] + LINES[1:]) + "\n",
    "digit 3": "\n".join(LINES[:3] + ["00300"] + LINES[4:]) + "\n",
    "short row": "\n".join(LINES[:3] + ["0000"] + LINES[4:]) + "\n",
    "spaces in a row": "\n".join(LINES[:3] + ["0 0 0"] + LINES[4:]) + "\n",
}
UNREACHABLE = {  # boards that cannot follow each other: the host is the authority, they are played
    "two new stones": write_input(2, E, grid("00000", "00000", "00110", "00000", "00000")),
    "own stone appeared": write_input(1, E, grid("00000", "00000", "00100", "00000", "00000")),
    "opponent stone vanished": write_input(1, grid("00000", "00000", "00120", "00000", "00000"),
                                           grid("00000", "00000", "00100", "00000", "00000")),
    "capture not made": write_input(1, grid("12000", "00000", "00000", "00000", "00000"),
                                    grid("12000", "20000", "00000", "00000", "00000")),
    "stones vanished uncaptured": write_input(1, grid("10000", "00000", "00000", "00000", "00000"),
                                              grid("00000", "00000", "00000", "00000", "02000")),
    "chain without liberty": write_input(2, E, grid("21000", "10000", "00000", "00000", "00000")),
}


KO_DEAD_PREVIOUS = grid("00000", "01200", "10120", "01202", "00021")  # the ko, and a black stone without liberty
KO_DEAD_CURRENT = grid("00000", "01200", "12020", "01202", "00021")
UNREACHABLE.update({
    "ko beside a chain without liberty": write_input(1, KO_DEAD_PREVIOUS, KO_DEAD_CURRENT),
    "stones from nowhere": write_input(2, E, grid("11100", "22200", "00000", "00000", "00002")),
    "colour against the stones": write_input(2, grid("10000", "00000", "00000", "00000", "00000"),
                                             grid("10000", "00000", "00000", "00000", "00000")),
})


@pytest.mark.parametrize("name", sorted(UNREACHABLE))
def test_boards_that_cannot_follow_are_played_as_given(tmp_path, name):
    """The host is the authority: a warning, then the searched move, valid by the host's rules on the
    current board as given (its ko judged against the previous board)."""
    (tmp_path / "input.txt").write_text(UNREACHABLE[name])
    code, err = one_move(tmp_path)
    turn = read_input(UNREACHABLE[name])
    notes = json.loads((tmp_path / player.NOTES_FILE).read_text())
    text = (tmp_path / "output.txt").read_text()
    assert code == 0 and MOVE_LINE.match(text) and notes["simulations"] == 100, err  # searched, not the fallback
    move = parse_move(text)
    valid = [p for p, _, _ in rules.Position.from_input(*turn).placements()]
    assert move is PASS or move in valid, (move, valid)
    if name != "colour against the stones":  # a pass there is a game a host may well have
        assert "as given" in err and "input.txt" in err
    if name.startswith("ko"):
        assert move != (2, 2)


def test_the_searched_move_gives_way_to_the_most_visited_valid_one():
    from engines.players.go import best_allowed
    from engines.search.result import SearchResult
    game = Go(rules="littlego")
    a, b, c = game.action(0, 0), game.action(1, 1), game.action(2, 2)
    result = SearchResult(a, 0.5, "win_probability", moves=[a, b, c], visits=[50, 10, 30])
    assert best_allowed(game, a, result, {a, b, c}) == a
    assert best_allowed(game, a, result, {b, c}) == c
    assert best_allowed(game, a, result, set()) == game.pass_action
    assert best_allowed(game, game.pass_action, result, {b}) == game.pass_action


def test_think_plays_only_what_the_host_allows_on_the_board_as_given(monkeypatch):
    """The engine sees a chain without liberty left out: a search that picks its point (occupied on the
    board as given) gives way to the most visited stone the host allows."""
    from engines.search.result import SearchResult
    game = Go(rules="littlego")
    current = grid("00000", "01000", "12100", "01000", "00000")  # the white (2,1) has no liberty
    dead, ok = game.action(2, 1), game.action(4, 4)
    monkeypatch.setattr(player.littlego_player, "choose", lambda *a, **k: (dead, SearchResult(
        dead, 0.5, "win_probability", moves=[dead, ok], visits=[9, 3])))
    warnings = []
    point, notes = player.think(game, Turn(1, E, current), player.LittleGoSettings(simulations=10), None, 0.0,
                                warn=warnings.append)
    assert point == (4, 4) and notes["move"] == "4,4" and "not valid" in warnings[0]
    assert notes["board"][4] == "00001" and notes["board"][2] == "10100"  # the host removes the dead white stone


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_exits_2_with_a_message_and_no_output(tmp_path, name):
    (tmp_path / "input.txt").write_text(BAD_INPUTS[name])
    (tmp_path / "output.txt").write_text("0,0\n")  # an older move
    code, err = one_move(tmp_path)
    assert code == 2 and "input.txt" in err and not (tmp_path / "output.txt").exists()


def test_missing_and_undecodable_input_through_the_entry_file(tmp_path):
    me = host.make_player("me")
    host.prepare(me, tmp_path)
    for content in (None, b"\xff\xfe\x00garbage\n", "1\r\n" + "00000\r\n" * 10):
        if content is None:
            (tmp_path / "input.txt").unlink(missing_ok=True)
        elif isinstance(content, bytes):
            (tmp_path / "input.txt").write_bytes(content)
        else:
            (tmp_path / "input.txt").write_text(content)
        run = subprocess.run([sys.executable, "my_player3.py"], cwd=tmp_path, capture_output=True, text=True,
                             env={**os.environ, **SEARCH})
        if content is not None and isinstance(content, str):  # CR LF endings are tolerated
            assert run.returncode == 0 and MOVE_LINE.match((tmp_path / "output.txt").read_text())
        else:
            assert run.returncode == 2 and "input.txt" in run.stderr and not (tmp_path / "output.txt").exists()
        (tmp_path / "output.txt").unlink(missing_ok=True)


# ==== notes ======================================================================================
def test_move_number_from_start_notes_and_estimate():
    b = grid("00000", "00000", "00100", "00000", "00000")
    assert player.move_number(None, 1, E, E) == (0, "start")
    assert player.move_number(None, 2, E, b) == (1, "start")
    after = grid("00000", "00000", "00100", "00200", "00000")
    cur = grid("00000", "01000", "00100", "00200", "00000")
    notes = {"colour": 2, "moves_played": 10, "board": player.board_text(after)}  # captures happened
    assert player.move_number(notes, 2, after, cur) == (11, "notes")
    assert player.move_number({**notes, "colour": 1}, 2, after, cur) == (3, "estimate")  # another game
    assert player.move_number({**notes, "board": player.board_text(cur)}, 2, after, cur) == (3, "estimate")
    assert player.move_number({**notes, "moves_played": 9}, 2, after, cur) == (3, "estimate")  # wrong parity
    assert player.move_number({**notes, "moves_played": 23}, 2, after, cur)[1] == "estimate"  # past the end


def test_notes_carry_the_move_number_and_survive_corruption(tmp_path):
    path = tmp_path / player.NOTES_FILE
    (tmp_path / "input.txt").write_text(write_input(1, E, E))
    assert one_move(tmp_path)[0] == 0
    notes = json.loads(path.read_text())
    assert notes["moves_played"] == 1 and notes["move_number_from"] == "start"
    mine = [[int(c) for c in row] for row in notes["board"]]
    # the opponent answers somewhere empty; the notes give move 2 played, we play move 3
    i, j = next((i, j) for i in range(5) for j in range(5) if mine[i][j] == 0)
    cur = host.copy_board(mine)
    cur[i][j] = 2
    (tmp_path / "input.txt").write_text(write_input(1, mine, cur))
    assert one_move(tmp_path)[0] == 0
    notes = json.loads(path.read_text())
    assert notes["moves_played"] == 3 and notes["move_number_from"] == "notes"
    for corrupt in ("{not json", "[]", '{"format": 1, "colour": 1, "moves_played": "3", "board": []}', "\x00\x01"):
        path.write_text(corrupt)
        (tmp_path / "input.txt").write_text(write_input(1, mine, cur))
        code, err = one_move(tmp_path)
        assert code == 0 and MOVE_LINE.match((tmp_path / "output.txt").read_text())
        assert json.loads(path.read_text())["move_number_from"] == "estimate"
    path.unlink()  # missing
    assert one_move(tmp_path)[0] == 0 and json.loads(path.read_text())["move_number_from"] == "estimate"
    # a new game (empty boards) with notes of the old one left behind
    (tmp_path / "input.txt").write_text(write_input(1, E, E))
    assert one_move(tmp_path)[0] == 0 and json.loads(path.read_text())["moves_played"] == 1


def test_the_player_knows_the_last_move(tmp_path):
    """From the notes White knows it plays move 24, the last one."""
    previous = grid("11111", "12221", "10000", "02000", "00000")
    current = grid("11111", "12221", "10001", "02000", "00000")   # black played (2,4), move 23
    after_ours = previous
    notes = {"format": player.NOTES_FORMAT, "colour": 2, "moves_played": 22, "board": player.board_text(after_ours)}
    (tmp_path / player.NOTES_FILE).write_text(json.dumps(notes))
    (tmp_path / "input.txt").write_text(write_input(2, previous, current))
    assert one_move(tmp_path, {"PLIES_LITTLEGO_SIMULATIONS": "600"})[0] == 0
    notes = json.loads((tmp_path / player.NOTES_FILE).read_text())
    assert notes["moves_played"] == 24 and notes["move_number_from"] == "notes"


# ==== budget and watchdog ========================================================================
def test_budget_sources_and_limits(tmp_path):
    warnings = []
    defaults = player.LittleGoSettings()
    assert player.load_settings(tmp_path, {}, warnings.append) == defaults
    (tmp_path / player.SETTINGS_FILE).write_text(player.settings_text(sys.executable, 1.5))
    assert player.load_settings(tmp_path, {}).seconds == 1.5
    assert player.load_settings(tmp_path, {"PLIES_LITTLEGO_SECONDS": "3"}).seconds == 3.0
    assert warnings == []
    assert player.load_settings(tmp_path, {"PLIES_LITTLEGO_SECONDS": "nan"}, warnings.append) == defaults
    assert player.load_settings(None, {"PLIES_LITTLEGO_SECONDS": "-1"}, warnings.append) == defaults
    assert player.load_settings(None, {"PLIES_LITTLEGO_SECONDS": "60"}, warnings.append).seconds == defaults.max_seconds
    assert player.load_settings(None, {"PLIES_LITTLEGO_SECONDS": "0.001"}, warnings.append).seconds == defaults.min_seconds
    assert len(warnings) == 4 and defaults.max_seconds < defaults.watchdog_seconds < host.TIME_LIMIT


EARLY_PREVIOUS = grid("00000", "00200", "01000", "00000", "00000")  # White's second move (move 4)
EARLY_CURRENT = grid("00000", "00200", "01000", "00000", "00010")


@pytest.mark.parametrize("floor", [2000, 256])
def test_a_budget_spent_by_start_up_still_searches_the_floor(floor):
    """A CPU clock that says the budget is gone before the first batch (seconds of 1 or less, a slow
    start-up): 256 simulations pass here as White's second move with this seed; the floor of
    min_simulations (with a warning) plays a stone."""
    game = Go(rules="littlego")
    state = game.state_from_cells(EARLY_CURRENT, 1, previous=EARLY_PREVIOUS, moves_played=3)
    settings = player.LittleGoSettings(seconds=0.5, min_simulations=floor)
    warnings = []
    action, result = player.choose(game, state, settings, 0.0, player.hash_seed("15", EARLY_PREVIOUS, EARLY_CURRENT),
                                   cpu=lambda: 10.0, warn=warnings.append)
    assert len(warnings) == 1 and "min_simulations" in warnings[0] and "seconds" in warnings[0]
    assert result.stats["simulations"] == floor
    if floor == 256:  # the cause, pinned: a floor of 256 simulations passes
        assert action == game.pass_action
        return
    assert player.LittleGoSettings().min_simulations == floor
    assert action != game.pass_action


def test_a_budget_with_time_left_searches_without_a_warning():
    game = Go(rules="littlego")
    state = game.state_from_cells(EARLY_CURRENT, 1, previous=EARLY_PREVIOUS, moves_played=3)
    ticks = iter(range(10 ** 6))
    warnings = []
    _, result = player.choose(game, state, player.LittleGoSettings(seconds=2.0), 38.0, 1,
                              cpu=lambda: float(next(ticks)), warn=warnings.append)
    assert result.stats["simulations"] >= player.LittleGoSettings().min_simulations and warnings == []


def test_the_watchdog_leaves_with_the_fallback_move(tmp_path):
    code = ("from adapters import littlego\nlittlego.arm_watchdog(0.4)\n"
            "open('output.txt','w').write('0,0\\n')\nwhile True: pass\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, timeout=60)
    assert run.returncode == 0 and (tmp_path / "output.txt").read_text() == "0,0\n"


def test_the_fallback_move_is_valid_for_the_host():
    g = game_at(KO_CURRENT, KO_PREVIOUS, 6, died=[(2, 2)])
    move = player.fallback_move(Turn(1, KO_PREVIOUS, KO_CURRENT))
    assert move != (2, 2)  # greedy would take the ko; the rules forbid it
    g.play(move)


# ==== a decision pinned ==========================================================================
@pytest.mark.parametrize("search", player.SEARCHES)
@pytest.mark.parametrize("seed", range(5))
def test_the_player_never_retakes_the_ko(tmp_path, seed, search):
    """Black may not retake at (2,2) at once: only the previous board of input.txt tells so.  A search
    of the current board alone retakes it (an illegal move: the game lost) for most seeds."""
    (tmp_path / "input.txt").write_text(write_input(1, KO_PREVIOUS, KO_CURRENT))
    code, err = one_move(tmp_path, {"PLIES_LITTLEGO_SIMULATIONS": "2000", "PLIES_LITTLEGO_SEED": str(seed),
                                    "PLIES_LITTLEGO_SEARCH": search})
    notes = json.loads((tmp_path / player.NOTES_FILE).read_text())
    assert code == 0 and notes["simulations"] == 2000, err  # the searched move, not the fallback
    text = (tmp_path / "output.txt").read_text()
    assert MOVE_LINE.match(text) and parse_move(text) != (2, 2)
    game_at(KO_CURRENT, KO_PREVIOUS, 6, died=[(2, 2)]).play(parse_move(text))  # valid for the host


# ==== the search setting =========================================================================
def test_the_search_setting_takes_mcts_or_rave_and_names_a_bad_value(tmp_path):
    assert player.LittleGoSettings().search == "mcts"
    assert player.load_settings(None, {"PLIES_LITTLEGO_SEARCH": "rave"}).search == "rave"
    (tmp_path / player.SETTINGS_FILE).write_text('search = "rave"\n')
    assert player.load_settings(tmp_path, {}).search == "rave"
    warnings = []
    assert player.load_settings(None, {"PLIES_LITTLEGO_SEARCH": "alphabeta"}, warnings.append) == \
        player.LittleGoSettings()
    assert len(warnings) == 1 and "search" in warnings[0] and "mcts, rave" in warnings[0]
    with pytest.raises(ValueError, match="search"):
        player.LittleGoSettings(search="RAVE")
    from engines.search.mcts import MCTS
    from engines.search.rave import Rave
    game = Go(rules="littlego")
    rave = player.make_player(player.LittleGoSettings(search="rave")).build_searcher(game, 1)
    assert isinstance(rave, Rave) and rave.knowledge.traced_playout is not None  # the heavy knowledge
    assert isinstance(player.make_player(player.LittleGoSettings()).build_searcher(game, 1), MCTS)


# White plays move 24, the last: Black leads by 12 stones to 9 (+0.5 after komi); filling one of
# White's own eyes (0,1) or (4,0) is a stone more and wins (the game ends before Black can take
# the group, now in atari), every other point is suicide, a pass loses.
LAST_MOVE = grid("20210", "22211", "21111", "22101", "02111")


@pytest.mark.parametrize("search", player.SEARCHES)
@pytest.mark.parametrize("seed", range(3))
def test_the_last_move_fills_an_own_eye_when_the_stone_wins(search, seed):
    """Stones-only scoring and the 24-move horizon make an own eye worth a stone at the end; a tree
    without eye fills (the heavy knowledge's candidates as RAVE's children) can only pass here."""
    game = Go(rules="littlego")
    state = game.state_from_cells(LAST_MOVE, 1, moves_played=23)
    assert game.score(state) == 0.5 and not game.is_terminal(state)
    settings = player.LittleGoSettings(search=search, simulations=500)
    action, result = player.choose(game, state, settings, 0.0, seed)
    assert action in (game.action(0, 1), game.action(4, 0)), game.point_of(action)
    assert result.stats["simulations"] == 500


# ==== the command line ===========================================================================
def test_the_littlego_subcommands_parse_and_install(tmp_path, capsys):
    import argparse
    import tomllib
    parser = argparse.ArgumentParser(prog="plies")
    add_littlego_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["littlego", "match", "me", "greedy", "--games", "4", "--jobs", "2", "--seed", "s"])
    assert args.func is host.match_command and (args.a, args.b, args.games, args.jobs, args.seed) == \
        ("me", "greedy", 4, 2, "s")
    args = parser.parse_args(["littlego", "install", str(tmp_path / "hw2"), "--seconds", "1.5"])
    assert args.func(args) == 0 and "installed" in capsys.readouterr().out
    settings = tomllib.loads((tmp_path / "hw2" / player.SETTINGS_FILE).read_text())
    assert settings == {"python": sys.executable, "seconds": 1.5}
    assert player.load_settings(tmp_path / "hw2", {}).seconds == 1.5  # the player reads what install wrote
    assert (tmp_path / "hw2" / "my_player3.py").read_text() == player.PLAYER_FILE.read_text()
    with pytest.raises(ValueError):
        host.make_player("")
