"""plies-nboard and the NBoard protocol: move text, GGF records, the session's dialogue and decisions,
the parsers fuzzed, and whole games through the stand-in GUI (standins/nboard_gui.py) over pipes."""
import random
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.nboard import NBoardSession, NBoardSettings
from engines.games.reference import othello as rules
from protocols import nboard
from protocols.common import PASS, ProtocolError
from standins import nboard_gui

from conftest import ROOT

START = "---------------------------O*------*O--------------------------- *"
DOC_GAME = ("(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]"
            f"BO[8 {START}]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)")
SETTINGS = NBoardSettings(time=2.0, depth=3, tt_size=1 << 16)


# ==== move text and GGF =========================================================================
def test_moves_as_nboard_writes_them():
    assert nboard.parse_move("F5") == (4, 5) and nboard.parse_move("a1") == (0, 0) and nboard.parse_move("H8") == (7, 7)
    assert all(nboard.parse_move(t) is PASS for t in ("PA", "pa", "P", "PASS", "--"))
    assert nboard.format_move((4, 5)) == "F5" and nboard.format_move(PASS) == "PA"
    assert nboard.parse_move_item("F5") == ((4, 5), None, 0.0)
    assert nboard.parse_move_item("F5/1.23") == ((4, 5), 1.23, 0.0)
    assert nboard.parse_move_item("F5//0.5") == ((4, 5), None, 0.5)
    assert nboard.parse_move_item("d3/-2.00/1.5") == ((2, 3), -2.0, 1.5)
    assert nboard.format_move_item((4, 5)) == "F5"
    assert nboard.format_move_item((4, 5), -1.0, 0.25) == "F5/-1.00/0.25"
    assert nboard.format_move_item((4, 5), None, 0.5) == "F5//0.50"
    for bad in ("I1", "A9", "A0", "F", "", "55", "F5/x", "F5/1/2/3", "F5/1e3", "F5//-1", "PAS S"):
        with pytest.raises(ProtocolError):
            nboard.parse_move_item(bad)


def test_the_documented_game_record():
    game = nboard.parse_game(DOC_GAME)
    assert game.board == rules.initial_board(8) and game.to_move == nboard.BLACK
    assert [nboard.format_move(m.point) for m in game.moves] == ["F5", "F6", "D3", "C5", "E6", "F7", "E7", "F4"]
    assert [m.colour for m in game.moves] == [1, 2] * 4
    assert game.properties["PW"] == "chris" and game.properties["TI"] == "15:00"
    again = nboard.parse_game(nboard.format_game(game.board, game.to_move, game.moves))
    assert (again.board, again.to_move, again.moves) == (game.board, game.to_move, game.moves)
    white = nboard.parse_game(f"1 (;GM[Othello]TY[8]BO[8 {START[:-1]}O]W[d3/0.5/2];)")
    assert white.to_move == nboard.WHITE and white.moves[0] == nboard.GgfMove(2, (2, 3), 0.5, 2.0)


@pytest.mark.parametrize("text, why", [
    (DOC_GAME.replace("GM[Othello]", "GM[Go]"), "only Othello"),
    (DOC_GAME.replace("TY[8]", "TY[10]"), "8x8"),
    (DOC_GAME.replace("TY[8]", "TY[8a]"), "8x8"),
    (DOC_GAME.replace(f"BO[8 {START}]", ""), "no start position"),
    (DOC_GAME.replace(f"BO[8 {START}]", f"BO[10 {START}]"), "8x8"),
    (DOC_GAME.replace(f"BO[8 {START}]", f"BO[8 {START[1:]}]"), "squares"),
    (DOC_GAME.replace("O*------*O", "O#------*O"), "a square"),
    (DOC_GAME.replace(";)", ")"), "starts with"),
    (DOC_GAME.replace("B[F5]", "B[Z9]"), "off the 8x8 board"),
    (DOC_GAME.replace("B[F5]", "B[5F]"), "bad move"),
    (DOC_GAME.replace("B[F5]", "B F5]"), "property"),
])
def test_bad_game_records_say_why(text, why):
    with pytest.raises(ProtocolError, match=why):
        nboard.parse_game(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_fuzzed_game_records_give_a_game_or_a_clear_error(text):
    try:
        game = nboard.parse_game(text)
    except ProtocolError as err:
        assert str(err)
        return
    assert len(game.board) == 8 and game.to_move in (1, 2)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(DOC_GAME) - 1), st.sampled_from("()[];/ *O-BWF5x")), max_size=4))
def test_mutated_game_records_give_a_game_or_a_clear_error(edits):
    text = list(DOC_GAME)
    for at, char in edits:
        text[at] = char
    try:
        nboard.parse_game("".join(text))
    except ProtocolError as err:
        assert str(err)


# ==== the session: dialogue with a scripted player ================================================
class ScriptedPlayer:
    """A player of the session's interface whose move is the first legal one, valued 1.5 at depth 3."""

    def __init__(self):
        from engines.games import make_game
        self.game = make_game("othello", size=8)
        self.played_moves, self.resets = [], 0

    def choose(self, state, seconds, start=None, depth=None, search=None, solve=None):
        self.asked = {"seconds": seconds, "depth": depth, "solve": solve}
        return int(self.game.legal_moves(state)[0])

    def report(self, move):
        return {"move": move, "value": 1.5, "depth": 3, "exact": False, "wld": False, "pv": [move]}

    def hints(self, state, seconds, start=None, depth=None, count=1):
        legal = [int(a) for a in self.game.legal_moves(state)][:count]
        return [{"move": a, "value": 2.0 - i, "depth": 2, "exact": i == 0, "wld": False, "pv": [a, a]}
                for i, a in enumerate(legal)]

    def played(self, move):
        self.played_moves.append(move)

    def reset(self):
        self.resets += 1


def scripted_session():
    player = ScriptedPlayer()
    session = NBoardSession(player, SETTINGS, clock=lambda: 5.0, warn=lambda text: None)  # a stopped clock
    return session, nboard.NBoardEngine(session.commands()), player


def talk(engine, *lines):
    return [engine.handle(line) for line in lines]


def test_the_dialogue_is_as_nboard_expects():
    session, engine, player = scripted_session()
    replies = talk(engine, "nboard 2", "set depth 7", "ping 1", "set game " + DOC_GAME)
    first, second = sorted(session.position.legal())[:2]
    one, two = nboard.format_move(first), nboard.format_move(second)
    replies += talk(engine, "go", "hint 2", "ping 2", "move D6/1.00/0.5", "learn", "analyze", "set contempt 100",
                    "quit")
    assert replies == [None, "set myname plies", "pong 1", None, f"=== {one}/1.50",
                       f"status plies is thinking\nsearch {one}{one} 2.00 0 100%\nsearch {two}{two} 1.00 0 2\nstatus",
                       "pong 2", None, "learned", None, None, None]
    assert player.asked == {"seconds": SETTINGS.time, "depth": 7, "solve": True}  # set depth is the search's limit
    assert engine.finished and session.contempt == 100


def test_go_does_not_play_its_move_and_move_does():
    session, engine, player = scripted_session()
    talk(engine, "set game " + DOC_GAME)
    before = session.position
    reply = engine.handle("go")
    point = nboard.parse_move_item(reply.split()[1])[0]
    assert session.position == before and player.played_moves == []
    assert engine.handle("move " + nboard.format_move(point)) is None
    assert session.position == before.play(point) and player.played_moves == [player.game.action(*point)]


def test_set_game_replays_the_record_and_fills_a_left_out_pass():
    session, engine, _ = scripted_session()
    # white has no move after black's A1 here; the record goes on with black's next move, no W[PA]
    board = [[0] * 8 for _ in range(8)]
    board[0][1], board[0][2] = 2, 1
    board[7][7] = 1
    start = nboard.format_game(board, nboard.BLACK).replace(";)", "")
    assert engine.handle("set game " + start + "B[A1];)") is None
    assert session.position.board[0][:3] == (1, 1, 1) and session.position.is_over()
    board[7][6] = 2
    talk(engine, "set game " + nboard.format_game(board, nboard.BLACK))
    assert session.position.to_move == rules.DARK


def test_bad_commands_get_an_error_line_and_change_nothing():
    session, engine, player = scripted_session()
    talk(engine, "set game " + DOC_GAME)
    before = session.position
    replies = talk(engine, "bogus", "move A1", "move F5 F6", "move", "move Z9", "hint", "hint 0", "hint x",
                   "ping", "ping x", "set depth 0", "set depth x", "set colour 3", "set",
                   "set game " + DOC_GAME.replace("B[E7]", "B[A1]"), "set game (;GM[Go];)", "nboard two",
                   "x" * 70000, "go\0", b"\xff\xfe")
    assert all(r.startswith("error ") and "\n" not in r for r in replies), replies
    assert "unknown command 'bogus'" in replies[0] and "A1 is illegal" in replies[1]
    assert "move 7 of the game A1 is illegal" in replies[14]
    assert session.position == before and player.played_moves == [] and not engine.finished
    assert engine.handle("ping 3") == "pong 3"  # the session goes on


def test_a_hint_that_fails_inside_the_engine_is_still_closed(capsys):
    """NBoard waits for the empty status that ends a hint: an engine bug gives an error line between
    the two status lines (its traceback on stderr), and the session goes on."""
    session, engine, player = scripted_session()
    talk(engine, "set game " + DOC_GAME)

    def broken(*args, **kwargs):
        raise RuntimeError("the search broke")
    player.hints = broken
    reply = engine.handle("hint 2")
    assert reply == "status plies is thinking\nerror internal error: RuntimeError: the search broke\nstatus"
    assert "RuntimeError: the search broke" in capsys.readouterr().err
    assert engine.handle("ping 4") == "pong 4" and not engine.finished


def test_version_one_bare_moves_and_the_pass():
    session, engine, _ = scripted_session()
    assert talk(engine, "F5", "f6") == [None, None]
    assert session.position == rules.Position.start(8).play((4, 5)).play((5, 5))
    board = [[0] * 8 for _ in range(8)]
    board[0] = [0, 1, 2, 2, 2, 2, 2, 2]  # black to move has no placement; white has A1
    talk(engine, "set game " + nboard.format_game(board, nboard.BLACK))
    assert engine.handle("go") == "=== PA"
    assert engine.handle("move PA") is None and session.position.to_move == rules.LIGHT


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=6))
def test_fuzzed_lines_never_break_the_session(lines):
    session, engine, player = scripted_session()
    for line in lines:
        before = session.position
        reply = engine.handle(line)
        assert reply is None or isinstance(reply, str)
        if reply is not None and reply.startswith("error "):
            assert session.position == before
    assert engine.handle("ping 9") == "pong 9" or engine.finished


# ==== decisions of the real player ============================================================
@pytest.fixture(scope="module")
def real_session():
    from engines.players.othello import make_player
    settings_ = NBoardSettings(time=5.0, depth=4, tt_size=1 << 16)
    player = make_player(settings_, clock=time.thread_time)  # CPU seconds: the budget holds on a busy machine
    session = NBoardSession(player, settings_, clock=time.thread_time, warn=lambda text: None)
    return session, nboard.NBoardEngine(session.commands())


def endgame_record(empties: int, seed: int) -> str:
    """A game record of random moves down to ``empties`` empty squares, black or white to move."""
    rng = random.Random(seed)
    position, moves = rules.Position.start(8), []
    while sum(row.count(0) for row in position.board) > empties or position.status != rules.PLAYING:
        point = rng.choice(position.legal())
        moves.append(nboard.GgfMove(position.to_move, point))
        position = position.play(point)
        if position.is_over():
            return endgame_record(empties, seed + 1000)
    return nboard.format_game(rules.initial_board(8), nboard.BLACK, moves)


def exact_values(position) -> dict:
    """Every legal move's exact final margin for the side to move (the engine's exact solver)."""
    from engines.games import make_game
    from engines.knowledge.othello.registered import solve_endgame
    game = make_game("othello", size=8)
    values = {}
    for point in position.legal():
        child = game.state_from_cells(position.play(point).board, position.play(point).to_move - 1)
        if game.is_terminal(child):
            margin = game.score(child) * (1 if position.to_move == rules.DARK else -1)
        else:
            margin = -solve_endgame(child).score  # the opponent's (a pass when it has no placement)
        values[point] = margin
    return values


@pytest.mark.parametrize("empties, seed", [(10, 1), (10, 2), (8, 32)])  # (8, 32): a move there makes the opponent pass
def test_go_and_hint_solve_the_endgame_whatever_the_midgame_depth(real_session, empties, seed):
    session, engine = real_session
    talk(engine, "set depth 1", "set game " + endgame_record(empties, seed))
    values = exact_values(session.position)
    best = max(values.values())
    point, value, _ = nboard.parse_move_item(engine.handle("go").split()[1])
    assert values[point] == best and value == best  # depth 1 alone would not find it: the endgame is solved
    lines = engine.handle(f"hint {len(values)}").split("\n")[1:-1]
    hinted = [(nboard.parse_move(line.split()[1][:2]), float(line.split()[2]), line.split()[4]) for line in lines]
    assert [v for _, v, _ in hinted] == sorted((v for _, v, _ in hinted), reverse=True)
    assert {p: v for p, v, _ in hinted} == values and all(d == "100%" for _, _, d in hinted)


def test_go_keeps_to_the_depth_in_the_midgame(real_session):
    session, engine = real_session
    talk(engine, "set depth 2", "set game " + DOC_GAME)
    engine.handle("go")
    player = session.current()
    assert player.result.stats["depth"] == 2 and not player.result.stats["complete"]
    lines = engine.handle("hint 3").split("\n")
    assert len(lines) == 5 and all(line.split()[4] == "2" for line in lines[1:-1])


# ==== whole games through the stand-in GUI ========================================================
def test_a_game_through_the_stand_in_gui():
    command = [sys.executable, "-m", "adapters.nboard", "--time", "0.3", "--tt-size", str(1 << 16)]
    report = nboard_gui.run(command, games=1, depth=2, hints=2, limit=60.0, cwd=ROOT)
    assert len(report.scores) == 1 and len(report.moves) >= 58
    assert report.names == ["plies"] and report.ignored == []
    assert len(report.hints) >= 6 and all(len(h) <= 2 for h in report.hints)


def test_the_stand_in_gui_catches_an_engine_that_plays_illegally(tmp_path):
    fake = tmp_path / "fake.py"
    fake.write_text("import sys\nfor line in sys.stdin:\n    w = line.split()\n"
                    "    if w and w[0] == 'ping': print('pong', w[1], flush=True)\n"
                    "    elif w and w[0] == 'go': print('=== A1', flush=True)\n")
    with pytest.raises(nboard_gui.GuiError, match="not a legal move"):
        nboard_gui.run([sys.executable, str(fake)], depth=2, limit=10.0)


def test_plies_nboard_refuses_bad_settings():
    done = subprocess.run([sys.executable, "-m", "adapters.nboard", "--time", "0"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "time must be a positive number" in done.stderr
