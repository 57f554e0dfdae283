"""The wire formats of protocols/: golden cases, round trips through the board view of every game,
and fuzzing (any text either parses or raises ProtocolError; nothing else escapes)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.games import make_game
from protocols import gtp, littlego, oht, otp, othello_pipe
from protocols.common import PASS, ProtocolError, parse_float, parse_int

FUZZ = settings(max_examples=300, deadline=None, derandomize=True)  # derandomized: replayable, never flaky
TEXT = st.one_of(st.text(max_size=40), st.text(alphabet="0123456789 ,-+()[]abcdijpsPASnf.\n\r\t", max_size=30))


# ---- golden cases ------------------------------------------------------------------------------

def test_gtp_vertices():
    assert gtp.parse_vertex("a1", 9) == (8, 0) and gtp.parse_vertex("A9", 9) == (0, 0)
    assert gtp.parse_vertex("j9", 9) == (0, 8) and gtp.parse_vertex("a01", 9) == (8, 0)
    assert gtp.parse_vertex("PASS", 9) is PASS and gtp.parse_vertex("Pass", 5) is PASS
    assert gtp.parse_vertex("t19", 19) == (0, 18)
    for bad in ("", "a", "i1", "1a", "a0", "a-1", "a1.0", "aa1", "a 1", "?1", "a¹"):
        with pytest.raises(gtp.InvalidPoint) as err:
            gtp.parse_vertex(bad, 9)
        assert str(err.value) == f"invalid point: '{bad.lower()}'"
    for bad in ("k1", "a10", "Z25"):
        with pytest.raises(gtp.OffBoard) as err:
            gtp.parse_vertex(bad, 9)
        assert str(err.value) == f"point is off board: '{bad.lower()}'"
    assert gtp.format_vertex((8, 0), 9) == "a1" and gtp.format_vertex((0, 8), 9) == "j9"
    assert gtp.format_vertex(PASS, 9) == "pass"
    for bad in ((9, 0), (0, -1), "a1", (1.0, 2)):
        with pytest.raises(ProtocolError):
            gtp.format_vertex(bad, 9)


def test_gtp_colours_and_score_text():
    assert [gtp.parse_colour(t) for t in ("b", "B", "black", "w", "White")] == [0, 0, 0, 1, 1]
    for bad in ("", "e", "bl", "1"):
        with pytest.raises(ProtocolError):
            gtp.parse_colour(bad)
    assert gtp.format_score(2.0) == "B+2.0" and gtp.format_score(-0.5) == "W+0.5"
    assert gtp.format_score(0.0) == "0" and gtp.format_score(-13.5) == "W+13.5"


def test_gtp_score_text_of_a_go_position():
    game = make_game("go", size=5, rules="go5")
    state = game.initial_state()
    for vertex in ("c3", "pass", "b2"):
        state = game.play(state, game.action_at(gtp.parse_vertex(vertex, 5)))
    assert gtp.format_score(game.score(state)) == "B+24.5"  # black owns the whole empty board, komi 0.5


def test_otp_moves():
    assert otp.parse_move("2 3") == (2, 3) and otp.parse_move(" 7  0\n") == (7, 0)
    assert otp.parse_move("8 0") is PASS and otp.format_move(PASS) == "8 0"
    assert otp.format_move((2, 3)) == "2 3"
    for bad in ("3", "3 4 5", "a b", "3,4", "8 1", "-1 0", "0 8", ""):
        with pytest.raises(ProtocolError):
            otp.parse_move(bad)


def test_pipe_moves_and_board_literal():
    assert othello_pipe.parse_move("3 2", 8) == (2, 3)  # column first
    assert othello_pipe.format_move((2, 3), 8) == "3 2"
    with pytest.raises(ProtocolError):
        othello_pipe.format_move(PASS, 8)
    for bad in ("8 0", "0 8", "-1 0", "9 9"):
        with pytest.raises(othello_pipe.OffBoard):  # two integers, off the board
            othello_pipe.parse_move(bad, 8)
    for bad in ("3", "1,2", "a b", ""):
        with pytest.raises(ProtocolError) as err:
            othello_pipe.parse_move(bad, 8)
        assert not isinstance(err.value, othello_pipe.OffBoard)
    game = make_game("othello", size=6, variant="manager")
    cells = game.cells(game.initial_state())
    literal = othello_pipe.format_board(cells)
    assert literal.startswith("((0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0), (0, 0, 2, 1, 0, 0)")
    assert othello_pipe.parse_board(literal) == cells.tolist()
    first = othello_pipe.format_board(cells, first_turn=True)  # the first turn sends lists
    assert first == str(cells.tolist()) and othello_pipe.parse_board(first) == cells.tolist()
    for bad in ("", "[", "[[0, 1], [1]]", "[[0, 3], [0, 0]]", "[[True, 0], [0, 0]]", "__import__('os')",
                "[[0.0, 1], [1, 0]]", "{}", "[]", "1"):
        with pytest.raises(ProtocolError):
            othello_pipe.parse_board(bad)


@pytest.mark.parametrize("protocol, colours", [(otp, ("black", "white")), (othello_pipe, (1, 2))])
def test_othello_wire_colours_meet_the_engine_players(protocol, colours):
    """One conversion per protocol: the first colour moves first (player 0); a disc placed by a
    colour's player shows as that player's cell, which the pipe's board literal names by colour."""
    assert [protocol.player_of(c) for c in colours] == [0, 1]
    for bad in ("b", 0, 3, None):
        with pytest.raises(ProtocolError):
            protocol.player_of(bad)
    game = make_game("othello", size=8) if protocol is otp else make_game("othello", size=6, variant="manager")
    start = game.cells(game.initial_state())
    for colour in colours:
        state = game.state_from_cells(start, protocol.player_of(colour))
        move = int(game.legal_moves(state)[0])
        after = game.cells(game.play(state, move))
        if protocol is otp:  # black's discs minus white's: 4 to 1 after black's first move
            assert otp.final_score(after) == (3 if colour == "black" else -3)
        else:
            assert othello_pipe.counts(after.tolist())[colour - 1] == 4 and after[game.coords(move)] == colour


def test_littlego_input_and_moves():
    text = "2\n00000\n00000\n00100\n00000\n00000\n00000\n00000\n00100\n02000\n00000\n"
    colour, previous, current = littlego.read_input(text)
    assert colour == 2 and previous[2] == [0, 0, 1, 0, 0] and current[3] == [0, 2, 0, 0, 0]
    assert littlego.read_input(text.replace("\n", "\r\n") + "\n\n") == (colour, previous, current)
    lines = text.splitlines()
    broken = {"missing line": "\n".join(lines[:-1]), "colour 3": "\n".join(["3"] + lines[1:]),
              "colour 0": "\n".join(["0"] + lines[1:]), "bad digit": "\n".join(lines[:4] + ["00300"] + lines[5:]),
              "short row": "\n".join(lines[:4] + ["0000"] + lines[5:]), "empty": "",
              "extra line": text + "00000\n"}
    for name, bad in broken.items():
        with pytest.raises(ProtocolError, match="line|input.txt"):
            littlego.read_input(bad)
    assert littlego.parse_move("2,3\n") == (2, 3) and littlego.parse_move("PASS") is PASS
    assert littlego.format_move((2, 3)) == "2,3" and littlego.format_move(PASS) == "PASS"
    for bad in ("pass", "2, 3", "5,0", "2;3", "", "-1,2"):
        with pytest.raises(ProtocolError):
            littlego.parse_move(bad)


def test_littlego_input_as_a_go_position_with_its_ko():
    """The host's boards become a state through the board view: the ko ban follows from previous."""
    game = make_game("go", rules="littlego")
    # white (1, 3) just captured the black stone at (1, 2); black retaking at (1, 2) would capture
    # (1, 3) and recreate the previous board: a ko violation
    previous = ["00210", "02101", "00210", "00000", "00000"]
    current = ["00210", "02021", "00210", "00000", "00000"]
    prev = [[int(ch) for ch in row] for row in previous]
    text = "1\n" + "\n".join(previous + current) + "\n"
    colour, prev_read, cur = littlego.read_input(text)
    assert prev_read == prev
    state = game.state_from_cells(cur, colour - 1, previous=prev_read)
    ko = game.action_at(littlego.parse_move("1,2"))
    assert ko not in game.legal_moves(state) and game.ko(state) == ko


def test_oht_actions():
    assert oht.format_action((2, 3), 5) == "(2, 3)"
    assert oht.format_action((np.int64(2), np.int64(3)), 5) == "(2, 3)"  # never 'np.int64(2)'
    assert oht.parse_action("(2, 3)", 5) == (2, 3) and oht.parse_action("[4, 0]", 5) == (4, 0)
    for bad in ("(5, 0)", "(1, 2, 3)", "x", "(1.0, 2)", "('1', 2)", "__import__('os')"):
        with pytest.raises(ProtocolError):
            oht.parse_action(bad, 5)


def test_numbers():
    assert parse_int(" 42 ") == 42 and parse_int("-3") == -3 and parse_int("+7", low=0, high=9) == 7
    assert parse_float("0.5") == 0.5 and parse_float("-7") == -7.0
    for bad in ("", "4.0", "1e3", "x", "٣"):
        with pytest.raises(ProtocolError):
            parse_int(bad)
    with pytest.raises(ProtocolError):
        parse_int("10", low=0, high=9)
    for bad in ("nan", "inf", "-Infinity", "", "1,5"):
        with pytest.raises(ProtocolError):
            parse_float(bad)


# ---- every point of every game through each of its formats and back -------------------------------

FORMATS = [
    ("go", {"size": 9}, lambda p, n: gtp.parse_vertex(gtp.format_vertex(p, n), n)),
    ("go", {"size": 19}, lambda p, n: gtp.parse_vertex(gtp.format_vertex(p, n), n)),
    ("go", {"rules": "littlego"}, lambda p, n: littlego.parse_move(littlego.format_move(p, n), n)),
    ("othello", {"size": 8}, lambda p, n: otp.parse_move(otp.format_move(p, n), n)),
    ("othello", {"size": 10, "variant": "manager"},
     lambda p, n: othello_pipe.parse_move(othello_pipe.format_move(p, n), n)),
    ("hex", {"size": 7}, lambda p, n: oht.parse_action(oht.format_action(p, n), n)),
]


@pytest.mark.parametrize("name, options, round_trip", FORMATS, ids=[f"{f[0]}-{f[1]}" for f in FORMATS])
def test_every_action_round_trips_through_its_wire_format(name, options, round_trip):
    game = make_game(name, **options)
    actions = [a for a in range(game.num_actions) if a < game.size ** 2 or a == game.pass_action]
    for a in actions:
        assert game.action_at(round_trip(game.point_of(a), game.size)) == a


def test_go_vertices_name_the_drawn_points():
    """'a1' is the bottom-left point of the drawing, as a Go player reads it."""
    game = make_game("go", size=5)
    state = game.play(game.initial_state(), game.action_at(gtp.parse_vertex("a1", 5)))
    assert game.render(state).splitlines()[5].split()[:2] == ["1", "X"]


# ---- fuzzing ---------------------------------------------------------------------------------------

PARSERS = {
    "gtp.parse_vertex": lambda t: gtp.parse_vertex(t, 9), "gtp.parse_colour": gtp.parse_colour,
    "otp.parse_move": otp.parse_move, "pipe.parse_move": lambda t: othello_pipe.parse_move(t, 8),
    "pipe.parse_board": othello_pipe.parse_board, "littlego.read_input": littlego.read_input,
    "littlego.parse_move": littlego.parse_move, "oht.parse_action": lambda t: oht.parse_action(t, 5),
    "parse_int": parse_int, "parse_float": parse_float,
}


@pytest.mark.parametrize("name", sorted(PARSERS))
@FUZZ
@given(text=TEXT)
def test_parsers_take_any_text(name, text):
    try:
        value = PARSERS[name](text)
    except ProtocolError:
        return
    if name == "parse_float":
        assert math.isfinite(value)
    elif name in ("gtp.parse_vertex", "otp.parse_move", "pipe.parse_move", "littlego.parse_move",
                  "oht.parse_action"):
        assert value is PASS or all(isinstance(v, int) and 0 <= v < 9 for v in value)


@FUZZ
@given(rows=st.lists(st.text(alphabet="0123", min_size=4, max_size=6), min_size=9, max_size=12),
       colour=st.sampled_from(["1", "2", "3", "", "x"]))
def test_littlego_reader_on_near_miss_files(rows, colour):
    text = "\n".join([colour] + rows) + "\n"
    try:
        got, previous, current = littlego.read_input(text)
    except ProtocolError:
        return
    assert got in (1, 2) and len(previous) == len(current) == 5
    assert all(len(r) == 5 and set(r) <= {0, 1, 2} for r in previous + current)


def test_gtp_go_arguments_and_gogui_texts():
    from protocols import gtp_go
    assert gtp_go.parse_time_settings(["300", "30", "5"]) == (300.0, 30.0, 5)
    assert gtp_go.parse_time_left(["w", "12.5", "0"]) == (1, 12.5, 0)
    with pytest.raises(ProtocolError, match="byo-yomi stones"):
        gtp_go.parse_time_settings(["300", "30", "-1"])
    assert gtp_go.parse_status("DEAD") == "dead"
    with pytest.raises(ProtocolError, match="alive, dead or seki"):
        gtp_go.parse_status("lost")
    assert gtp_go.parse_vertex_list(["d4", "q16"], 19) == [(15, 3), (3, 15)]
    for bad in (["d4", "d4"], ["d4", "pass"], ["a1", "a2", "b1", "b2"]):  # twice, a pass, the whole 2x2 board
        with pytest.raises(ProtocolError, match="bad vertex list"):
            gtp_go.parse_vertex_list(bad, 2 if len(bad) == 4 else 19)
    # the heat map names the best candidate even when it is the pass
    heat = gtp_go.format_heat_map(9, 1, 0.25, 40, [((0, 0), 0.5)], [((0, 0), 7)], (PASS, 30, 0.2, []))
    assert heat.splitlines() == ["INFLUENCE A9 0.50", "LABEL A9 7",
                                 "TEXT white to move: win rate 0.250, 40 simulations, best pass"]
    assert gtp_go.format_heat_map(9, 0, 0.5, 0, [], [], None) == "TEXT black to move: win rate 0.500, 0 simulations"
    assert gtp_go.format_variation(9, 1, 0.75, [(4, 4), (0, 8)]) == "VAR w E5 b J9\nTEXT win rate 0.750 for white"
    own = np.array([[1.0, -1.0], [0.25, 0.0]])
    assert gtp_go.format_ownership(own) == "INFLUENCE A2 1.00 B2 -1.00 A1 0.25 B1 0.00"
