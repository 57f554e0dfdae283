"""plies-gtp's answers to bad input (issue 32, "Bad input found on the way"): a failed ``loadsgf``
leaves the game exactly as it was (size, komi, setup, history, to-move) and says why in its own
words; ``lz-genmove_analyze`` with an argument outside Leela Zero's grammar is refused and plays
nothing.  Sessions are seeded and bounded by simulation counts (``--search mcts``)."""
import pytest

from adapters import go_gtp
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
