"""plies-gtp's answers to bad input (issue 32, "Bad input found on the way"): a failed ``loadsgf``
leaves the game exactly as it was (size, komi, setup, history, to-move) and says why in its own
words; ``lz-genmove_analyze`` with an argument outside Leela Zero's grammar is refused and plays
nothing.  Sessions are seeded and bounded by simulation counts (``--search mcts``)."""
import subprocess
import sys

import pytest

from conftest import ROOT

from adapters import go_gtp
from protocols import gtp_go
from protocols.common import ProtocolError
from protocols.sgf import parse_sgf


def session(**overrides) -> go_gtp.GoSession:
    values = {"search": "mcts", "time": 0.0, "simulations": 50, "seed": 1, "size": 9, "capacity": 50_000}
    values.update(overrides)
    return go_gtp.GoSession(go_gtp.Settings(**values))


def snapshot(s: go_gtp.GoSession, engine) -> tuple:
    """Everything a controller can see of the game: the board drawing (size, stones, captures, komi,
    to-move), the SGF record (setup, handicap, moves) and the positions after each move."""
    return (engine.handle("showboard"), engine.handle("printsgf"), s.size, s.komi, s.handicap, list(s.moves),
            [state.tobytes() for state in s.states], s.to_move())


# (SGF text, what the reply must say): each load fails and must change nothing
BAD_RECORDS = [
    ("(;GM[1]FF[4]SZ[2]AB[aa][ab][ba][bb])", "bad setup stones"),           # a chain without liberties
    ("(;GM[1]FF[4]SZ[9]AB[ee]AW[ee])", "set up twice"),                      # one point, both colours
    ("(;GM[1]FF[4]SZ[9]AB[ee]AW[cc];AW[ee])", "set up twice"),               # ... in two setup nodes
    ("(;GM[1]FF[4]SZ[9]HA[-3])", "HA[-3]"),
    ("(;GM[1]FF[4]SZ[9]HA[81])", "HA[81]"),
    ("(;GM[1]FF[4]SZ[9]HA[x])", "HA[x] is not a number"),
    ("(;GM[1]FF[4]SZ[9];B[cc];W[zz])", "W[zz] is not a point of a 9x9 board"),
    ("(;GM[1]FF[4]SZ[9]AB[zz])", "AB[zz] holds a point off the 9x9 board"),
    ("(;GM[1]FF[4]SZ[9]KM[abc])", "KM[abc] is not a number"),
    ("(;GM[1]FF[4]SZ[9]KM[inf])", "KM[inf] is not a"),
    ("(;GM[1]FF[4]SZ[9];B[cc];W[cc])", "illegal move in the SGF: the point is occupied"),
    ("(;GM[1]FF[4]SZ[5]KM[0.5];B[cc];W[dd];B[aa];W[cc])", "illegal move in the SGF"),  # after a size change
]


@pytest.mark.parametrize("text, reason", BAD_RECORDS)
def test_a_failed_loadsgf_changes_nothing_and_says_why(tmp_path, text, reason):
    s = session()
    engine = go_gtp.make_engine(s)
    for line in ("boardsize 9", "komi 7.5", "play b c3", "play w e5", "play b pass"):
        assert engine.handle(line) == "= \n\n"
    before = snapshot(s, engine)
    path = tmp_path / "bad.sgf"
    path.write_text(text)
    reply = engine.handle(f"1 loadsgf {path}")
    assert reply.startswith("?1 ") and reason in reply, reply
    assert "could not convert" not in reply and "invalid literal" not in reply  # no Python text
    assert snapshot(s, engine) == before
    assert engine.handle("genmove w").startswith("= ")  # the game goes on from where it was
    assert s.moves[:3] == [(0, (6, 2)), (1, (4, 4)), (0, None)] and len(s.moves) == 4


def test_a_failed_loadsgf_after_a_handicap_keeps_the_handicap(tmp_path):
    s = session()
    engine = go_gtp.make_engine(s)
    assert engine.handle("fixed_handicap 2") == "= C3 G7\n\n"
    before = snapshot(s, engine)
    path = tmp_path / "bad.sgf"
    path.write_text("(;GM[1]FF[4]SZ[2]AB[aa][ab][ba][bb])")
    assert engine.handle(f"loadsgf {path}").startswith("? bad setup stones")
    assert snapshot(s, engine) == before and s.to_move() == 1


@pytest.mark.parametrize("text", [text for text, reason in BAD_RECORDS if "illegal move" not in reason
                                  and "bad setup" not in reason])
def test_parse_sgf_refuses_what_the_record_cannot_hold(text):
    with pytest.raises(ProtocolError):
        parse_sgf(text)


def test_parse_sgf_still_reads_good_records():
    record = parse_sgf("(;GM[1]FF[4]SZ[9]KM[6.5]HA[2]AB[cc][gg]AW[ee];W[dd];B[];W[ff])")
    assert record.komi == 6.5 and record.handicap == 2 and record.black_setup == [(2, 2), (6, 6)]
    assert record.white_setup == [(4, 4)] and record.moves == [(1, (3, 3)), (0, None), (1, (5, 5))]


# ==== lz-analyze / lz-genmove_analyze: Leela Zero's tag grammar ===================================

@pytest.mark.parametrize("args, expected", [
    ([], (1, 0)), (["b"], (0, 0)), (["50"], (1, 50)), (["W", "50"], (1, 50)), (["interval", "20", "black"], (0, 20)),
    (["b", "10", "minmoves", "3", "maxmoves", "9"], (0, 10)),
    (["avoid", "b", "d4,q16,pass", "30", "w", "interval", "5"], (1, 5)),
    (["allow", "white", "e5", "1", "100"], (1, 100)),
])
def test_lz_analyze_reads_leela_zeros_tags(args, expected):
    assert gtp_go.parse_lz_analyze(args, to_move=1) == expected


@pytest.mark.parametrize("args", [["x"], ["b", "x"], ["-5"], ["interval"], ["interval", "x"], ["minmoves"],
                                  ["avoid", "b", "d4"], ["avoid", "y", "d4", "3"], ["allow", "b", "d4,zz9x", "3"],
                                  ["b", "50", "ponder"]])
def test_lz_analyze_refuses_unknown_tags(args):
    with pytest.raises(ProtocolError):
        gtp_go.parse_lz_analyze(args, to_move=0)


def test_lz_genmove_analyze_with_an_unknown_tag_plays_nothing():
    """Through the real process: the streaming path hands a line it cannot parse to the ordinary
    reply, which refuses it; the board is as before and the next genmove is black's."""
    lines = "1 play b e5\n2 lz-genmove_analyze x\n3 lz-genmove_analyze w 5 frobnicate\n4 lz-analyze b ponder\n" \
            "5 showboard\nquit\n"
    done = subprocess.run([sys.executable, "-m", "adapters.go_gtp", "--search", "mcts", "--time", "0",
                           "--simulations", "50", "--size", "5"], input=lines, capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    replies = done.stdout.split("\n\n")
    assert done.returncode == 0, done.stderr
    assert replies[0] == "=1 "
    assert replies[1] == "?2 cannot parse analyze tags: unknown tag 'x'"
    assert replies[2] == "?3 cannot parse analyze tags: unknown tag 'frobnicate'"
    assert replies[3] == "?4 cannot parse analyze tags: unknown tag 'ponder'"
    assert replies[4].startswith("=5 \n") and replies[4].count("X") == 1 and "O" not in replies[4]
    assert "white to move" in replies[4]


# ==== positional superko: plies-gtp's default; genmove never recreates a board =====================
# A ko on 5x5: black C3 takes the white stone B3; white's retake at B3 would recreate the board
# before black's capture.  After two passes (the session goes on: a controller's cleanup) simple ko
# allows the retake; positional superko forbids it.
KO_SETUP = ("play b b4", "play w c4", "play b a3", "play w b3", "play b b2", "play w c2", "play w d3")
RETAKE = (2, 1)  # B3


def ko_after_two_passes(**overrides):
    s = session(size=5, komi=0.5, **overrides)
    engine = go_gtp.make_engine(s)
    for line in ("boardsize 5",) + KO_SETUP + ("play b c3", "play w pass", "play b pass"):
        assert engine.handle(line) == "= \n\n", line
    return s, engine


def test_plies_gtp_defaults_to_positional_superko():
    assert go_gtp.Settings().rules == "superko"
    s, _ = ko_after_two_passes()
    assert not s.game.is_legal(s.position_for(1), s.game.action_at(RETAKE))
    standard, _ = ko_after_two_passes(rules="standard")  # the premise: simple ko allows it here
    assert standard.game.is_legal(standard.position_for(1), standard.game.action_at(RETAKE))


@pytest.mark.parametrize("seed", range(3))
def test_genmove_never_recreates_a_board_in_a_position_that_cycles(seed):
    """The retake is white's best move under simple ko (it wins the ko, the game is even); under
    the default rules every genmove of the cycle is a fresh board."""
    standard, engine = ko_after_two_passes(rules="standard", seed=seed, simulations=400)
    assert engine.handle("genmove w") == "= B3\n\n"  # the premise: the search wants the cycle
    s, engine = ko_after_two_passes(seed=seed, simulations=400)
    boards = {s.game.cells(state).tobytes() for state in s.states}
    assert engine.handle("genmove w") != "= B3\n\n"
    boards.add(s.game.cells(s.state).tobytes())
    for _ in range(6):  # plies plays both sides on: no stone move repeats a board
        for colour in "bw":
            reply = engine.handle(f"genmove {colour}")
            if reply not in ("= pass\n\n", "= resign\n\n"):
                board = s.game.cells(s.state).tobytes()
                assert board not in boards, reply
                boards.add(board)


def test_play_accepts_a_controllers_superko_repetition_and_genmove_does_not_repeat_it():
    """The controller's rules decide what was played (simple ko, KGS's Japanese rules): the
    retake is accepted, and black's immediate recapture, now a repetition, is not played."""
    s, engine = ko_after_two_passes()
    assert engine.handle("play w b3") == "= \n\n"
    assert s.game.cells(s.state)[RETAKE] == 2
    assert not s.game.is_legal(s.position_for(0), s.game.action_at((2, 2)))  # C3 again: a repetition
    assert engine.handle("reg_genmove b") != "= C3\n\n"
    assert engine.handle("play b c3").startswith("? illegal move: ko")  # simple ko still holds for play
    assert engine.handle("play b pass") == "= \n\n" and engine.handle("play w pass") == "= \n\n"
    assert engine.handle("play b c3") == "= \n\n"  # the controller's superko repetition is accepted


@pytest.mark.parametrize("values, message", [
    (dict(time=0), "time 0 needs simulations N"), (dict(time=float("inf")), "time must be a finite number >= 0"),
    (dict(time=-1.0), "time must be a finite number >= 0"), (dict(simulations=0), "simulations must be at least 1"),
    (dict(size=20), r"size must be in 2\.\.19, got 20")])
def test_a_budget_or_size_plies_gtp_cannot_play_is_refused_by_its_settings(values, message):
    with pytest.raises(ValueError, match=message):
        go_gtp.Settings(**values)
    go_gtp.Settings(**{**values, "size": 9, "time": 0, "simulations": 10})  # a good budget and size pass
