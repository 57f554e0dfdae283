"""plies-gtp (adapters/go_gtp.py, engines/players/clock.py, protocols/gtp_go.py, protocols/sgf.py,
engines/knowledge/go/ownership.py): byte-exact dialogues through the real process with ids echoed;
every time-control mode under a simulated clock (budgets asserted as not exceeded, never wall
time); SGF round trips with handicap and setup stones; final_status_list on hand-made positions (a
seki, a dead stone inside territory); kgs-genmove_cleanup, resignation, the cold-start rules held
to the engine's; fuzzed GTP lines (one reply each, the board unchanged after an error); lz-analyze
read and parsed from the running process.

Searches are seeded and bounded by simulation counts (``--time 0 --simulations N``), with the
plain MCTS (``--search mcts``) where an answer is compared byte for byte.
"""
import random
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, FakeClock

from adapters import go_gtp
from engines.games.reference import go as go_rules
from engines.players.coldstart import ColdStart
from engines.players.clock import ABSOLUTE, BYOYOMI, CANADIAN, NONE, GameClock, TimeControl, TimeSettingsError
from engines.errors import IllegalMove
from engines.games.go import Go
from engines.knowledge.go.ownership import ownership, stone_status, to_view
from protocols import gtp_go
from protocols.common import ProtocolError
from protocols.sgf import GameRecord, format_sgf, parse_sgf

ENGINE = [sys.executable, "-m", "adapters.go_gtp"]
FAST = ["--search", "mcts", "--time", "0", "--simulations", "200", "--seed", "1"]


def run_dialogue(lines: str, *args: str, timeout: float = 300) -> str:
    done = subprocess.run([*ENGINE, *args], input=lines.encode(), capture_output=True, cwd=ROOT, timeout=timeout)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def session(**overrides) -> go_gtp.GoSession:
    values = {"search": "mcts", "time": 0.0, "simulations": 200, "seed": 1, "size": 9, "capacity": 200_000}
    values.update(overrides)
    return go_gtp.GoSession(go_gtp.Settings(**values))


def grid(rows) -> np.ndarray:
    return np.array([[".XO".index(ch) for ch in row.replace(" ", "")] for row in rows], dtype=np.int8)


def load_position(s: go_gtp.GoSession, rows, to_move: int = 0):
    cells = grid(rows)
    s.record.start(len(rows))
    black = [tuple(map(int, p)) for p in zip(*np.nonzero(cells == 1))]
    white = [tuple(map(int, p)) for p in zip(*np.nonzero(cells == 2))]
    s.record.set_stones(black, white, to_move)


# A black wall on column E with the area to its left, a white wall on F with the area to its
# right; a lone white stone (B5) inside black's area is dead.
DEAD_INSIDE = [
    "....XO...",
    "....XO...",
    "....XO...",
    "....XO...",
    ".O..XO...",
    "....XO...",
    "....XO...",
    "....XO...",
    "....XO...",
]
# A seki in the top-left corner: black B7/B6 and the white chain around them share the
# liberties A7 and C7; a stone of either colour there is a self-atari.  The rest is black's.
SEKI = [
    ". X . O X . X",
    "O X O O X X X",
    "O O O X X . X",
    "X X X X . X X",
    ". X X X X X X",
    "X X . X X X X",
    "X . X X . X X",
]


# ==== byte-exact dialogues through the real process ===============================================

def test_a_dialogue_byte_for_byte_with_ids_echoed():
    out = run_dialogue(
        "1 protocol_version\n2 name\n3 known_command lz-analyze\n4 known_command frobnicate\n"
        "5 boardsize 5\nclear_board\n6 komi 0.5\n7 play b c3\n8 play w c3\n9 play w z9\n10 play x c2\n"
        "11 play w b3\n12 showboard\n13 undo\n14 undo\n15 undo\n16 boardsize 25\n17 frobnicate\n"
        "18 time_settings 10 0 0\n19 kgs-time_settings byoyomi 10 1 3\n20 kgs-time_settings hourglass 1\n"
        "21 fixed_handicap 2\n# a comment\n\n22 quit\n", *FAST)
    assert out == (
        "=1 2\n\n=2 plies\n\n=3 true\n\n=4 false\n\n=5 \n\n= \n\n=6 \n\n=7 \n\n"
        "?8 illegal move: the point is occupied\n\n?9 point is off board: 'z9'\n\n"
        "?10 invalid colour: 'x' (use b or w)\n\n=11 \n\n"
        "=12 \n   A B C D E\n 5 . . . . . 5\n 4 . . . . . 4\n 3 . O X . . 3\n 2 . . . . . 2\n 1 . . . . . 1\n"
        "   A B C D E\ncaptured: black 0 white 0; komi 0.5; black to move\n\n"
        "=13 \n\n=14 \n\n?15 cannot undo\n\n?16 unacceptable size\n\n?17 unknown command\n\n"
        "=18 \n\n=19 \n\n?20 unknown time system 'hourglass' (none, absolute, byoyomi or canadian)\n\n"
        "?21 no fixed handicap on 5x5\n\n=22 \n\n")


def test_genmove_captures_and_scoring_through_the_process():
    # a white block of four in atari (its last liberty D2) on 5x5, set up by out-of-turn plays
    setup = "".join(f"play b {v}\n" for v in ("c5", "d5", "b4", "e4", "b3", "e3", "c2"))
    setup += "".join(f"play w {v}\n" for v in ("c4", "d4", "c3", "d3"))
    out = run_dialogue(f"1 boardsize 5\n2 komi 0.5\n{setup}9 genmove b\n10 showboard\n11 final_score\nquit\n",
                       *FAST)
    replies = out.split("\n\n")
    assert replies[13] == "=9 D2", out  # the capture
    assert "captured: black 4 white 0" in replies[14]
    assert replies[15] == "=11 B+24.5"  # the whole board is black's


def test_bad_settings_and_help_list_the_exit_statuses():
    done = subprocess.run([*ENGINE, "--size", "30"], capture_output=True, cwd=ROOT, timeout=60, input=b"")
    assert done.returncode == go_gtp.EXIT_STATUS["refused"][0] == 2
    assert "size must be in 2..19" in done.stderr.decode()
    helped = subprocess.run([*ENGINE, "--help"], capture_output=True, cwd=ROOT, timeout=60)
    text = helped.stdout.decode()
    for status, meaning in go_gtp.EXIT_STATUS.values():
        assert f"{status}  {meaning}" in text


# ==== lz-analyze: read and parsed from the running process ========================================

INFO = re.compile(r"info move (\S+) visits (\d+) winrate (\d+) prior (\d+) lcb (\d+) order (\d+) pv ((?:\S+ ?)+?)"
                  r"(?= info |$)")


@pytest.mark.timeout(300)
def test_lz_analyze_streams_info_lines_until_the_next_command():
    proc = subprocess.Popen([*ENGINE, *FAST, "--size", "9"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=ROOT)
    try:
        proc.stdin.write(b"play b e5\n7 lz-analyze w 5\n")
        proc.stdin.flush()
        assert proc.stdout.readline() == b"= \n" and proc.stdout.readline() == b"\n"  # play's reply
        assert proc.stdout.readline() == b"=7\n"
        lines = [proc.stdout.readline().decode() for _ in range(3)]  # it goes on until told otherwise
        proc.stdin.write(b"8 name\n")
        proc.stdin.flush()
        rest = []
        while True:
            line = proc.stdout.readline().decode()
            assert line, "the engine stopped"
            if line == "\n":
                break
            rest.append(line)
        assert proc.stdout.readline() == b"=8 plies\n" and proc.stdout.readline() == b"\n"
        proc.stdin.write(b"quit\n")
        proc.stdin.flush()
        assert proc.wait(60) == 0
    finally:
        proc.kill()
    board = Go(9)
    visits_seen = []
    for line in lines + rest:
        entries = INFO.findall(line.strip())
        assert entries, line
        assert [int(e[5]) for e in entries] == list(range(len(entries)))  # order 0, 1, ...
        visits = [int(e[1]) for e in entries]
        assert visits == sorted(visits, reverse=True)
        for move, _v, winrate, prior, _lcb, _order, pv in entries:
            assert 0 <= int(winrate) <= 10000 and 0 <= int(prior) <= 10000
            assert pv.split()[0] == move
            assert move == "pass" or move != "E5"  # never the occupied point
            if move != "pass":
                board.action_at(gtp_go_parse(move))
        visits_seen.append(sum(visits))
    assert visits_seen == sorted(visits_seen) and visits_seen[-1] > visits_seen[0]  # the tree grows on


def gtp_go_parse(text):
    from protocols.gtp import parse_vertex
    return parse_vertex(text, 9)


def test_gogui_analyze_commands_answer_gfx():
    s = session(analyze_seconds=0.05, simulations=100)
    engine = go_gtp.make_engine(s)
    listed = engine.handle("gogui-analyze_commands")
    for line in gtp_go.ANALYZE_COMMANDS.splitlines():
        assert engine.handle(f"known_command {line.split('/')[2].split()[0]}") == "= true\n\n"
    engine.handle("play b e5")
    heat = engine.handle("plies-heatmap w")
    assert heat.startswith("= \nINFLUENCE ") and "\nLABEL " in heat and "\nTEXT white to move" in heat
    pv = engine.handle("plies-pv w")
    assert pv.startswith("= \nVAR w ")
    own = engine.handle("plies-ownership")
    assert own.startswith("= \nINFLUENCE ") and own.count(" ") > 81
    assert listed.startswith("= gfx/")


# ==== dead stones, seki, scoring =====================================================================

def test_a_dead_stone_inside_territory_is_dead_and_scored_as_the_owners():
    s = session()
    load_position(s, DEAD_INSIDE)
    engine = go_gtp.make_engine(s)
    assert engine.handle("final_status_list dead") == "= B5\n\n"
    assert engine.handle("final_status_list seki") == "= \n\n"
    alive = engine.handle("final_status_list alive")
    assert "B5" not in alive and "E1" in alive and "F9" in alive
    # black: 5 columns of 9 = 45 (B5 counted as black's); white 36 + komi 7
    assert engine.handle("final_score") == "= B+2.0\n\n"


def test_a_seki_is_seki_not_dead():
    s = session()
    load_position(s, SEKI)
    status = stone_status(s.game.cells(s.state), s.ownership())
    assert sorted(status["seki"]) == sorted([(0, 1), (1, 1), (0, 3), (1, 0), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2)])
    assert status["dead"] == []
    engine = go_gtp.make_engine(s)
    assert engine.handle("final_status_list seki") == "= B7 D7 A6 B6 C6 D6 A5 B5 C5\n\n"
    assert engine.handle("final_status_list dead") == "= \n\n"


def test_ownership_sees_the_seki_only_with_self_atari_avoidance():
    game = Go(7, komi=7)
    state = game.state_from_cells(grid(SEKI), 0)
    own = to_view(ownership(state, 200, 3), 7)
    assert own[0, 1] == pytest.approx(1.0) and own[1, 0] == pytest.approx(-1.0)  # both survive every playout


def test_the_default_search_is_rave_and_its_ownership_decides_the_dead_stones():
    pytest.importorskip("engines.search.rave")
    s = session(search="auto", simulations=400)
    assert s.search_name == "rave"
    load_position(s, DEAD_INSIDE)
    engine = go_gtp.make_engine(s)
    engine.handle("reg_genmove b")  # a search of this position: final_status_list uses its ownership
    assert len(s.last_result[1].stats["ownership"]) == 81
    assert engine.handle("final_status_list dead") == "= B5\n\n"
    assert engine.handle("final_score") == "= B+2.0\n\n"


def test_kgs_genmove_cleanup_captures_dead_stones_instead_of_passing():
    s = session(simulations=300)
    load_position(s, DEAD_INSIDE)
    engine = go_gtp.make_engine(s)
    engine.handle("play w pass")
    assert engine.handle("reg_genmove b") is not None
    genmove = engine.handle("genmove b")  # black wins by counting after white's pass: it passes
    assert genmove in ("= pass\n\n",)
    engine.handle("undo")
    cleanup = engine.handle("kgs-genmove_cleanup b")
    assert cleanup.startswith("= ") and cleanup != "= pass\n\n"
    for _ in range(6):  # cleanup goes on until the stone is taken
        if s.game.cells(s.state)[4, 1] == 0:
            break
        engine.handle("play w pass")
        engine.handle("kgs-genmove_cleanup b")
    assert s.game.cells(s.state)[4, 1] == 0


def test_resigns_a_hopeless_game_unless_told_not_to():
    for resign, expected in ((True, "= resign\n\n"), (False, None)):
        s = session(size=5, komi=60.0, resign=resign, resign_moves=1, simulations=100)
        engine = go_gtp.make_engine(s)
        reply = engine.handle("genmove b")
        if expected:
            assert reply == expected
        else:
            assert reply != "= resign\n\n"


# ==== SGF ===========================================================================================

def test_sgf_round_trips_handicap_setup_stones_and_passes():
    record = GameRecord(size=9, komi=0.5, handicap=2, black_setup=[(2, 6), (6, 2)], white_setup=[(0, 0)],
                        moves=[(1, (4, 4)), (0, None), (1, (8, 0))], result="W+2.5", players=("a", "b"))
    text = format_sgf(record)
    assert "HA[2]" in text and "AB[cg][gc]" in text and "AW[aa]" in text and ";W[ee];B[];W[ai]" in text.replace(
        "B[tt]", "B[]")
    back = parse_sgf(text)
    assert back == record
    assert parse_sgf(text, up_to=3).moves == record.moves[:2]
    assert parse_sgf(text, up_to=1).moves == []


@pytest.mark.parametrize("text", ["", "(;", "(;GM[2]SZ[9])", "(;SZ[25])", "(;SZ[9];B[ee];AB[aa])"])
def test_bad_sgf_is_a_protocol_error(text):
    with pytest.raises(ProtocolError):
        parse_sgf(text)


def test_printsgf_then_loadsgf_replays_handicap_and_moves(tmp_path):
    s = session(size=9)
    engine = go_gtp.make_engine(s)
    assert engine.handle("fixed_handicap 3") == "= C3 G7 C7\n\n"
    for line in ("play w e5", "play b d5", "play w pass", "play b d4"):
        assert engine.handle(line) == "= \n\n"
    path = tmp_path / "game.sgf"
    assert engine.handle(f"printsgf {path}") == "= \n\n"
    other = session(size=19)
    other_engine = go_gtp.make_engine(other)
    assert other_engine.handle(f"loadsgf {path}") == "= white\n\n"
    assert (other.game.cells(other.state) == s.game.cells(s.state)).all() and other.size == 9
    assert other.komi == s.komi and other.handicap == 3
    assert other_engine.handle(f"loadsgf {path} 3") == "= white\n\n"  # before move 3: white's pass
    assert other.moves == [(1, (4, 4)), (0, (4, 3))]
    assert other_engine.handle(f"loadsgf {tmp_path / 'none.sgf'}").startswith("? cannot load file")
    assert other.moves == [(1, (4, 4)), (0, (4, 3))]  # unchanged by the error


def test_handicap_commands():
    s = session(size=19)
    engine = go_gtp.make_engine(s)
    assert engine.handle("fixed_handicap 9") == "= D4 Q16 D16 Q4 D10 Q10 K4 K16 K10\n\n"
    assert engine.handle("fixed_handicap 2") == "? board not empty\n\n"
    assert s.to_move() == 1
    engine.handle("clear_board")
    reply = engine.handle("place_free_handicap 12")
    assert reply.startswith("= ") and len(reply.split()) == 13 and s.to_move() == 1
    engine.handle("clear_board")
    assert engine.handle("set_free_handicap a1 b2 c3") == "= \n\n"
    assert (s.game.cells(s.state) == 1).sum() == 3
    engine.handle("clear_board")
    assert engine.handle("set_free_handicap a1 a1").startswith("? ")
    assert (s.game.cells(s.state) == 0).all()


# ==== time: every mode under a simulated clock ======================================================

class Referee:
    """The controller's clock of one player under a TimeControl (as kgsGtp keeps it)."""

    def __init__(self, control: TimeControl):
        self.c = control
        self.main, self.period, self.stones, self.periods = control.main, control.period, control.stones, control.periods
        self.byo = False

    def spend(self, seconds: float) -> bool:
        """Charge a move; False when it loses on time."""
        c = self.c
        if not self.byo:
            if seconds <= self.main:
                self.main -= seconds
                return True
            if c.mode == ABSOLUTE:
                return False
            seconds -= self.main
            self.main, self.byo = 0.0, True
            self.period, self.stones = c.period, c.stones
        if c.mode == BYOYOMI:
            while seconds > c.period:
                self.periods -= 1
                seconds -= c.period
                if self.periods <= 0:
                    return False
            return True
        self.period -= seconds
        if self.period < 0:
            return False
        self.stones -= 1
        if self.stones == 0:
            self.period, self.stones = c.period, c.stones
        return True

    def report(self):
        """time_left's (seconds, stones)."""
        if not self.byo:
            return self.main, 0
        return (self.period, self.stones) if self.c.mode == CANADIAN else (self.c.period, self.periods)


@pytest.mark.parametrize("command, report", [
    ("time_settings 6 0 0", True),                    # absolute
    ("time_settings 6 0 0", False),                   # absolute, counted by the engine alone
    ("time_settings 2 1.5 4", True),                  # canadian
    ("kgs-time_settings absolute 8", True),
    ("kgs-time_settings byoyomi 3 0.8 2", True),
    ("kgs-time_settings byoyomi 3 0.8 2", False),
    ("kgs-time_settings canadian 1 3 5", False),
])
def test_timed_moves_never_exceed_the_allocation_nor_the_clock(command, report):
    step = 0.02  # large enough that the clock, not the simulation cap, ends every search
    clock = FakeClock(step)
    s = go_gtp.GoSession(go_gtp.Settings(search="mcts", size=9, simulations=5000, time=1.0, seed=2, capacity=200_000,
                                         time_margin=0.15, ownership_playouts=50), clock=clock)
    engine = go_gtp.make_engine(s)
    assert engine.handle(command) == "= \n\n"
    referee = Referee(s.game_clock.control)
    rng = random.Random(0)
    for move in range(25):
        if report:
            seconds, stones = referee.report()
            assert engine.handle(f"time_left b {seconds:.3f} {stones}") == "= \n\n"
        allocation = s.game_clock.allocation(0, s.game.nmoves(s.state), 81)
        start = clock.now
        reply = engine.handle("genmove b")
        used = clock.now - start
        assert reply.startswith("= "), reply
        # past the allocation only by the search's last batch and the reply's own clock readings (the
        # simulated clock charges every reading): what the allocation's safety margin is for
        assert used <= allocation + 8 * step, (move, used, allocation)
        searched = s.last_result[1].stats["simulations"] if s.last_limits is not None else 0
        assert searched < 5000  # the clock ended the search
        assert referee.spend(used), f"lost on time at move {move}"
        if reply in ("= pass\n\n", "= resign\n\n") or s.game.is_terminal(s.state):
            break
        white = [a for a in s.game.legal_moves(s.position_for(1)) if a != s.game.pass_action]
        engine.handle(f"play w {gtp_go.format_move(s.game.point_of(rng.choice(white)), 9)}" if white else "play w pass")


def test_no_time_settings_use_the_fixed_budget():
    clock = GameClock(TimeControl.from_gtp(0, 1, 0))  # byo-yomi time without stones: no limit
    assert clock.control.mode == NONE and clock.allocation(0, 0, 81) is None


def test_allocation_spends_more_in_the_middle_game_and_keeps_the_margin():
    clock = GameClock(TimeControl(ABSOLUTE, 300.0), margin=0.5)
    spent = {}
    for m in range(0, 360, 2):  # a whole game, spending each allocation
        spent[m] = clock.allocation(0, m, 361)
        clock.spent(0, spent[m])
    opening = np.mean([a for m, a in spent.items() if m < 36])
    middle = np.mean([a for m, a in spent.items() if 36 <= m < 180])
    end = np.mean([a for m, a in spent.items() if m >= 180])
    assert middle > opening and middle > end and clock.players[0].main > 0
    clock.time_left(0, 1.0, 0)
    assert clock.allocation(0, 200, 361) <= 1.0 - 0.5
    clock.time_left(0, 0.0, 0)
    assert clock.allocation(0, 200, 361) == clock.floor
    byo = GameClock(TimeControl(BYOYOMI, 0.0, 10.0, periods=3), margin=0.5)
    assert byo.allocation(0, 50, 81) <= 10.0 - 0.5
    canadian = GameClock(TimeControl(CANADIAN, 0.0, 60.0, stones=20), margin=0.2)
    canadian.time_left(0, 30.0, 10)
    assert canadian.allocation(0, 50, 361) <= 3.0 - 0.2


@pytest.mark.parametrize("words", [[], ["absolute"], ["byoyomi", "1", "2"], ["canadian", "1", "x", "3"],
                                   ["canadian", "10", "5", "0"], ["absolute", "-1"], ["absolute", "nan"]])
def test_bad_kgs_time_settings_are_refused(words):
    with pytest.raises(TimeSettingsError):
        TimeControl.from_kgs(words)


# ==== the cold start ===================================================================================

class StubCompiler:
    """A compile that is done when the test says so (or when someone waits for it)."""

    def __init__(self):
        self.done, self.waited = False, 0

    def ready(self):
        return self.done

    def wait(self, timeout=None):
        self.waited += 1
        self.done = True
        return True


COLD = go_gtp.Settings(search="mcts", time=0.0, simulations=100, seed=3, size=9, capacity=100_000)


def cold_session(compiler) -> go_gtp.GoSession:
    """A cold session over engines/players/coldstart.py's ColdStart, its compile the stub's."""
    cold = ColdStart("go", "plies-gtp", None, start=False)
    cold.compiler = compiler
    return go_gtp.GoSession(COLD, cold=cold)


def test_cold_start_answers_a_timed_genmove_at_once_then_replays_into_the_engine():
    compiler = StubCompiler()
    cold = cold_session(compiler)
    engine = go_gtp.make_engine(cold)
    for line in ("boardsize 9", "komi 6.5", "time_settings 30 0 0", "play b e5", "play w c3", "play b d3"):
        assert engine.handle(line) == "= \n\n"
    reply = engine.handle("genmove w")
    assert reply.startswith("= ") and compiler.waited == 0 and cold.fallback_moves == 1
    assert engine.handle("play b e5") == "? illegal move: the point is occupied\n\n"
    positions = cold.positions  # the reference positions, until the hand-over
    compiler.done = True
    board = engine.handle("showboard")  # the first command after the compile: the engine takes over
    assert cold.engine is not None and cold.engine.komi == 6.5 and len(cold.engine.moves) == 4
    assert (cold.engine.game.cells(cold.engine.state) == np.array(positions[-1].board)).all()
    assert board == go_gtp.make_engine(cold.engine).handle("showboard")
    assert cold.engine.game_clock.control.mode == ABSOLUTE


def test_cold_start_without_a_clock_waits_for_the_engine():
    compiler = StubCompiler()
    cold = cold_session(compiler)
    engine = go_gtp.make_engine(cold)
    engine.handle("play b e5")
    assert engine.handle("genmove w").startswith("= ")
    assert compiler.waited == 1 and cold.fallback_moves == 0 and cold.engine is not None
    assert engine.handle("final_score").startswith("= ")  # the engine's command, through the switch


# ==== the cold start's rules agree with the engine's ================================================

@pytest.mark.parametrize("seed", range(4))
def test_cold_start_rules_agree_with_the_engine(seed):
    rng = random.Random(seed)
    n = 5
    game = Go(n, komi=0.5, rules="superko" if seed % 2 else "standard")
    state = game.initial_state()
    position = go_rules.Position(n, superko=bool(seed % 2))
    for _ in range(150):
        colour = game.to_move(state)
        point = (rng.randrange(n), rng.randrange(n)) if rng.random() < 0.95 else None
        action = game.action_at(point)
        legal = game.is_terminal(state) is False and game.illegal_reason(state, action) is None
        try:
            position.copy().play(colour + 1, point)
            ours = True
        except IllegalMove:
            ours = False
        if game.is_terminal(state):
            state = game.resumed(state)
            legal = game.illegal_reason(state, action) is None
        assert ours == legal, (point, game.render(state))
        if legal:
            state = game.play(state, action)
            position.play(colour + 1, point)
            assert (game.cells(state) == np.array(position.board)).all()


# ==== fuzzed GTP lines: one reply each, the board unchanged after an error ==========================

WORDS = ["play", "boardsize", "komi", "undo", "time_settings", "time_left", "kgs-time_settings", "fixed_handicap",
         "set_free_handicap", "place_free_handicap", "known_command", "final_status_list", "clear_board", "b", "w",
         "black", "pass", "a1", "e5", "j9", "i3", "z99", "0", "9", "-1", "1e9", "nan", "byoyomi", "canadian", "dead",
         "seki", "\x00", "é", "#", "=", "?"]


@pytest.fixture(scope="module")
def fuzz_session():
    return session(size=9, ownership_playouts=20)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=6)), min_size=1, max_size=5),
       st.one_of(st.none(), st.integers(0, 999)))
def test_fuzzed_lines_get_one_reply_and_errors_change_nothing(fuzz_session, words, ident):
    s = fuzz_session
    engine = go_gtp.make_engine(s)
    line = " ".join(words).replace("\n", " ").replace("\r", " ")
    if ident is not None:
        line = f"{ident} {line}"
    before = (s.size, s.komi, s.game.cells(s.state).copy(), list(s.moves), s.game_clock.control)
    reply = engine.handle(line)
    if reply is None:
        assert not line.strip() or line.startswith("#")
        return
    assert reply.endswith("\n\n") and reply.count("\n\n") == 1 and reply[0] in "=?"
    assert "internal error" not in reply, (line, reply)
    if reply.startswith("?"):
        after = (s.size, s.komi, s.game.cells(s.state), s.moves, s.game_clock.control)
        assert before[0] == after[0] and before[1] == after[1] and (before[2] == after[2]).all()
        assert before[3] == after[3] and before[4] == after[4]
    if len(s.moves) > 30:
        s.record.start(9)
