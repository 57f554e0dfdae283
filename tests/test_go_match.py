"""The Go match referee (regress/go_match.py, ``plies go match``) against scripted GTP engines
(tests/scripted_gtp.py: they know no rules and answer genmove from a script), and one short real
game between two GNU Go processes.

Decisions tested: an illegal move (occupied, ko, no move at all) loses, and so do a refused play, a
crash, garbage and a genmove over the per-move limit (the engine is killed, restarted for the next
game); two passes in a row end a game, one pass does not; resignation; the move cap; dead stones
both engines list are removed, a disagreement is reported with each engine's view; draws; the SGF
(moves, coordinates, result, comment) read back with sgfmill; the table's counts by colour; the
Canadian clock.  No assertion depends on timing: a sleeping engine only shows the referee does not
wait for it (the test has its own generous timeout).
"""
import json
import os
import shlex
import sys

import pytest
from sgfmill import sgf

from conftest import ROOT
from engines.games.go import Go
from protocols.gtp import parse_vertex
from regress import go_match as R
from regress.go_match import Clock, Match, MatchConfig, wilson

SCRIPTED = ROOT / "tests" / "scripted_gtp.py"
GNUGO = "/usr/games/gnugo"


def engine(**script) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(SCRIPTED))} {shlex.quote(json.dumps(script))}"


def run(a: dict, b: dict, games: int = 1, **options):
    options.setdefault("size", 5)
    options.setdefault("komi", 0.5)
    options.setdefault("command_timeout", 30.0)
    return Match(MatchConfig(a=engine(**a), b=engine(**b), games=games, **options)).run()


def only_game(result):
    (record,) = result.games
    return record


# ==== illegal moves, refusals, failures ===========================================================

def test_an_occupied_point_loses():
    record = only_game(run({"moves": ["c3", "c3"]}, {"moves": ["d4"]}))
    assert (record.winner, record.reason, record.result) == (1, R.ILLEGAL, "W+F")
    assert len(record.moves) == 2 and "occupied" in record.notes[-1] and "Black (A)" in record.notes[-1]


def test_retaking_a_ko_at_once_loses():
    """Black captures c3 at d3; White's immediate retake at c3 is a simple-ko violation."""
    black = {"moves": ["b3", "c4", "c2", "a1", "d3"]}
    white = {"moves": ["c3", "d4", "d2", "e3", "c3"]}
    record = only_game(run(black, white))
    assert (record.winner, record.reason) == (0, R.ILLEGAL)
    assert len(record.moves) == 9 and "ko" in record.notes[-1] and "White (B)" in record.notes[-1]


@pytest.mark.parametrize("move", ["z9", "f1", "i3", "", "hello"])
def test_a_reply_that_is_no_move_loses(move):
    record = only_game(run({"moves": ["c3"]}, {"moves": [move]}))
    assert (record.winner, record.reason) == (0, R.ILLEGAL)


def test_refusing_a_legal_move_loses():
    record = only_game(run({"moves": ["c3"]}, {"refuse": ["play"]}))
    assert (record.winner, record.reason, len(record.moves)) == (0, R.REFUSED, 1)


@pytest.mark.parametrize("move, reason", [("crash", R.CRASH), ("garbage", R.CRASH), ("fail", R.REFUSED)])
def test_a_crash_garbage_or_a_failed_genmove_loses(move, reason):
    record = only_game(run({"moves": [move]}, {}))
    assert (record.winner, record.reason, len(record.moves)) == (1, reason, 0)


@pytest.mark.timeout(120)
def test_a_move_over_the_time_limit_loses_and_the_engine_is_restarted_for_the_next_game(tmp_path):
    """B sleeps for ever on its first genmove: the referee kills it after the limit (the test would
    otherwise hang), B loses game 1 and plays game 2 from a fresh process."""
    sleeper = {"moves": ["sleep:600"], "marker": str(tmp_path / "started"), "restarted": {"moves": ["d4", "pass"]}}
    result = run({"moves": ["c3", "pass"]}, sleeper, games=2, time_per_move=0.5)
    first, second = result.games
    assert (first.winner, first.reason, first.result) == (0, R.TIMEOUT, "B+T")
    assert "longer than 0.5 s" in first.notes[-1]
    assert second.black == "B" and second.reason == R.SCORE and len(second.moves) == 4  # d4 c3 pass pass
    assert result.starts == {"A": [0], "B": [0, 1]}  # B's second process made its genmove number 1 (0-based)


@pytest.mark.timeout(120)
def test_a_clock_that_runs_out_loses_on_time_and_time_left_is_sent(tmp_path):
    log = tmp_path / "b.log"
    result = run({"moves": ["c3", "d3"]}, {"moves": ["a1", "sleep:600"], "log": str(log)},
                 time_settings=(1, 0, 0))
    record = only_game(result)
    assert (record.winner, record.reason, record.result) == (0, R.TIME, "B+T")
    lines = log.read_text().splitlines()
    assert "time_settings 1 0 0" in lines and lines.count("time_left w 1 0") == 1
    assert lines.index("boardsize 5") < lines.index("clear_board") < lines.index("komi 0.5")


def test_an_engine_refusing_the_board_size_stops_the_match():
    with pytest.raises(R.MatchError) as err:
        run({}, {"refuse": ["boardsize"]})
    assert err.value.status == R.EXIT_SETUP and "engine B" in str(err.value)


# ==== the end of a game and its score ============================================================

def test_two_passes_in_a_row_end_the_game_and_one_pass_does_not():
    record = only_game(run({"moves": ["pass", "c3", "pass"]}, {"moves": ["a1", "pass"]}))
    assert [m for _, m in record.moves][1:3] == [parse_vertex("a1", 5), parse_vertex("c3", 5)]
    assert (len(record.moves), record.reason) == (5, R.SCORE)
    assert record.margin == 1 - 1 - 0.5 and record.result == "W+0.5"  # one stone each, the rest neutral


def test_resignation():
    record = only_game(run({"moves": ["c3", "resign"]}, {"moves": ["d3"]}))
    assert (record.winner, record.reason, record.result, len(record.moves)) == (1, R.RESIGN, "W+R", 2)


def test_the_move_cap_stops_and_scores_the_game():
    record = only_game(run({"moves": ["c3", "c4", "c2"]}, {"moves": ["a1", "b1", "e5"]}, move_cap=3))
    assert (len(record.moves), record.reason) == (3, R.CAP)
    assert record.margin == 2 - 1 - 0.5 and record.result == "B+0.5"


def test_dead_stones_both_engines_list_are_removed():
    record = only_game(run({"moves": ["c3", "pass"], "dead": "A1"}, {"moves": ["a1", "pass"], "dead": "a1"}))
    assert record.dead == {"A": ["a1"], "B": ["a1"]} and not record.disagreement
    assert record.margin == 25 - 0.5 and record.result == "B+24.5"


def test_a_disagreement_on_dead_stones_is_reported_with_each_view():
    record = only_game(run({"moves": ["c3", "pass"], "dead": "a1"}, {"moves": ["a1", "pass"], "dead": ""}))
    assert record.disagreement and len(record.moves) == 4 and record.cleanup_from is None  # no cleanup: unknown
    assert record.views == {"A": 24.5, "B": -0.5}
    assert record.margin == -0.5 and record.result == "W+0.5"  # scored with the stones both call dead: none
    assert "disagree" in record.notes[-1] and "B+24.5" in record.notes[-1] and "W+0.5" in record.notes[-1]


def test_a_disagreement_is_played_out_with_kgs_genmove_cleanup_and_scored_again(tmp_path):
    """A calls White's a1 dead, B does not: both know kgs-genmove_cleanup, so they play on from a
    fresh pass count (Black's first pass does not end the phase); Black captures a1 (b1, a2), two
    passes end the cleanup phase and the lists now agree."""
    black = {"moves": ["c3", "pass"], "dead_calls": ["a1", ""], "known": [R.CLEANUP],
             "cleanup": ["pass", "b1", "a2"]}
    white = {"moves": ["a1", "pass"], "dead_calls": ["", ""], "known": [R.CLEANUP], "cleanup": ["e5"]}
    record = only_game(run(black, white, sgf_dir=str(tmp_path)))
    assert record.cleanup_from == 5 and [m for _, m in record.moves][4:] == [
        None, parse_vertex("e5", 5), parse_vertex("b1", 5), None, parse_vertex("a2", 5), None, None]
    assert not record.disagreement and record.reason == R.SCORE
    assert record.margin == 3 + 1 - 1 - 0.5 and record.result == "B+2.5"  # a1 captured: Black's point
    assert "cleanup" in record.notes[-1] and "B+24.5" in record.notes[-1]  # A's first view, kept in the note
    nodes = sgf.Sgf_game.from_bytes((tmp_path / "game-001.sgf").read_bytes()).get_main_sequence()
    assert "cleanup" in nodes[5].get("C") and nodes[5].get_move() == ("b", None)
    assert nodes[7].get_move() == ("b", (0, 1))


def test_without_cleanup_the_disagreement_is_scored_at_once():
    black = {"moves": ["c3", "pass"], "dead": "a1", "known": [R.CLEANUP], "cleanup": ["b1", "a2"]}
    white = {"moves": ["a1", "pass"], "dead": "", "known": [R.CLEANUP]}
    record = only_game(run(black, white, cleanup=False))
    assert record.disagreement and record.cleanup_from is None and len(record.moves) == 4
    assert record.result == "W+0.5"


def test_listed_points_that_are_no_stones_are_left_out():
    record = only_game(run({"moves": ["c3", "pass"], "dead": "b2 a1 zz"}, {"moves": ["a1", "pass"], "dead": "a1"}))
    assert record.dead["A"] == ["a1"] and not record.disagreement
    assert sum("no stone" in note for note in record.notes) == 2


def test_an_engine_without_final_status_list_is_left_out_of_the_count():
    record = only_game(run({"moves": ["c3", "pass"], "refuse": ["final_status_list"]},
                           {"moves": ["a1", "pass"], "dead": "a1"}))
    assert record.dead == {"A": None, "B": ["a1"]} and record.result == "B+24.5"


# ==== records and the table ======================================================================

def test_every_game_is_written_as_sgf_with_its_moves(tmp_path):
    black = {"moves": ["b3", "c4", "c2", "a1", "d3"], "name": "Scripted Black"}
    white = {"moves": ["c3", "d4", "d2", "e3", "c3"]}
    result = run(black, white, games=2, sgf_dir=str(tmp_path / "games"), komi=6.5)
    files = sorted((tmp_path / "games").glob("*.sgf"))
    assert [f.name for f in files] == ["game-001.sgf", "game-002.sgf"]
    first = sgf.Sgf_game.from_bytes(files[0].read_bytes())
    root = first.get_root()
    assert (first.get_size(), first.get_komi(), root.get("RE")) == (5, 6.5, "B+F")
    assert root.get("PB") == "Scripted Black 1 (A)" and root.get("PW") == "scripted 1 (B)"
    moves = [node.get_move() for node in first.get_main_sequence()[1:]]
    assert moves[:3] == [("b", (2, 1)), ("w", (2, 2)), ("b", (3, 2))]  # b3 c3 c4: sgfmill counts rows from the bottom
    assert len(moves) == 9 and moves[-1] == ("b", (2, 3))            # the illegal retake is not a move
    assert "ko" in first.get_main_sequence()[-1].get("C")
    second = sgf.Sgf_game.from_bytes(files[1].read_bytes())
    assert second.get_root().get("PB") == "scripted 1 (B)"
    assert result.games[0].sgf == str(files[0])


def test_the_sgf_replays_legally_and_records_passes(tmp_path):
    run({"moves": ["pass", "c3", "pass"]}, {"moves": ["a1", "pass"]}, sgf_dir=str(tmp_path))
    game = sgf.Sgf_game.from_bytes((tmp_path / "game-001.sgf").read_bytes())
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    assert moves == [("b", None), ("w", (0, 0)), ("b", (2, 2)), ("w", None), ("b", None)]
    assert "two passes" in game.get_main_sequence()[-1].get("C")


def test_the_table_counts_wins_by_colour():
    """White wins every game (two passes on an empty board, komi 0.5); A is Black in the odd games,
    so B wins games 1 and 3 (as White) and A game 2."""
    result = run({}, {}, games=3)
    assert [(g.black, g.winner_label) for g in result.games] == [("A", "B"), ("B", "A"), ("A", "B")]
    assert result.points("A") == (1, 3) and result.points("B") == (2, 3)
    assert result.points("A", 0) == (0, 2) and result.points("A", 1) == (1, 1)
    assert result.points("B", 0) == (0, 1) and result.points("B", 1) == (2, 2)
    summary = result.summary()
    assert summary["engines"]["A"]["as_black"] == (0, 2) and summary["ended_by"][R.SCORE] == 3
    table = result.table()
    assert "1/3" in table and "2/3" in table and "0/2" in table and "2/2" in table


def test_a_match_in_two_parts_keeps_colours_and_names_and_adds_up_to_the_whole(tmp_path):
    """Games 1-3 in one run and 4-5 in another (``first_game``) are games 1-5: A Black in the odd ones,
    SGF names by number, and ``summarise`` over both parts gives what one run of 5 games gives."""
    whole = run({}, {}, games=5)
    first = run({}, {}, games=3, sgf_dir=str(tmp_path))
    second = run({}, {}, games=2, first_game=4, sgf_dir=str(tmp_path))
    assert [(g.number, g.black) for g in second.games] == [(4, "B"), (5, "A")]
    assert sorted(f.name for f in tmp_path.iterdir()) == [f"game-00{n}.sgf" for n in range(1, 6)]
    parts = [first.summary(), second.summary()]
    records = parts[0]["records"] + parts[1]["records"]
    seconds = {label: first.seconds[label] + second.seconds[label] for label in R.LABELS}
    starts = {label: first.starts[label] + [i + len(first.seconds[label]) for i in second.starts[label]]
              for label in R.LABELS}
    merged = R.summarise({}, {"A": "a", "B": "b"}, whole.names, records, seconds, starts)
    expected = whole.summary()
    for label in R.LABELS:
        for key in ("wins", "games", "rate", "ci95", "as_black", "as_white"):
            assert merged["engines"][label][key] == expected["engines"][label][key], (label, key)
        assert merged["engines"][label]["time"]["moves"] == expected["engines"][label]["time"]["moves"]
    assert merged["ended_by"] == expected["ended_by"] and merged["games"] == 5
    with pytest.raises(ValueError, match="first game"):
        MatchConfig(a="x", b="y", first_game=0)


def test_fixed_colours_keep_a_black_and_draws_count_half():
    result = run({}, {}, games=2, komi=0, alternate=False)
    assert [g.black for g in result.games] == ["A", "A"]
    assert all(g.winner is None and g.result == "0" for g in result.games)
    assert result.points("A") == (1.0, 2) and result.points("B") == (1.0, 2)


def test_seed_is_substituted_in_the_commands():
    config = MatchConfig(a="x --seed {seed}", b="y --seed {seed}", seed=7)
    assert (config.command("A"), config.command("B")) == ("x --seed 7", "y --seed 8")


def test_each_side_s_time_per_move_is_recorded():
    result = run({"moves": ["c3", "pass"]}, {"moves": ["a1", "pass"]})
    assert result.timing("A")["moves"] == 2 and result.timing("B")["moves"] == 2
    assert result.timing("A")["max_s"] >= result.timing("A")["median_s"] >= 0


# ==== the clock and the interval =================================================================

def test_the_canadian_clock():
    clock = Clock(10, 5, 2)
    assert clock.available() == 15 and clock.time_left() == (10, 0)
    assert clock.spend(8) and clock.time_left() == (2, 0)
    assert clock.spend(4) and clock.time_left() == (3, 1)      # 2 s of main time, then 2 s of the period
    assert clock.spend(3) and clock.time_left() == (5, 2)      # the period's last stone: a fresh period
    assert not clock.spend(5.5)
    absolute = Clock(5, 0, 0)
    assert absolute.available() == 5 and absolute.spend(4) and not absolute.spend(1.5)
    unlimited = Clock(0, 5, 0)
    assert unlimited.available() == float("inf") and unlimited.spend(1e9)


def test_wilson_interval():
    low, high = wilson(0.5, 100)
    assert 0.40 < low < 0.41 and 0.59 < high < 0.60
    assert wilson(1.0, 10)[1] == 1.0 and wilson(0.0, 10)[0] == 0.0 and wilson(0.0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("options", [{"size": 1}, {"size": 20}, {"games": 0}, {"rules": "go5"},
                                     {"move_cap": 0}, {"time_per_move": 0}, {"time_settings": (0, 0, 0)},
                                     {"time_settings": (10, 5, 1.5)}, {"komi": float("nan")}])
def test_bad_settings_are_refused(options):
    with pytest.raises(ValueError):
        MatchConfig(a="x", b="y", **options)


# ==== the command line ===========================================================================

def test_the_command_line_plays_prints_the_table_and_writes_json(tmp_path, capsys):
    out = tmp_path / "match.json"
    status = R.main(["--a", engine(moves=["c3", "pass"]), "--b", engine(moves=["a1", "pass"]), "--size", "5",
                     "--komi", "0.5", "--games", "2", "--sgf-dir", str(tmp_path / "sgf"), "--json", str(out)])
    assert status == R.EXIT_OK
    printed = capsys.readouterr().out
    assert "game 1: A Black, B White: W+0.5" in printed and "95% interval" in printed
    summary = json.loads(out.read_text())
    assert summary["games"] == 2 and [r["result"] for r in summary["records"]] == ["W+0.5", "W+0.5"]
    assert len(list((tmp_path / "sgf").glob("*.sgf"))) == 2


def test_the_command_line_exit_statuses(tmp_path, capsys):
    assert R.main(["--a", "/no/such/engine", "--b", engine()]) == R.EXIT_FILES
    assert "engine A cannot be started" in capsys.readouterr().err
    assert R.main(["--a", engine(), "--b", engine(refuse=["komi"])]) == R.EXIT_SETUP
    assert R.main(["--a", engine(), "--b", engine(), "--size", "25"]) == R.EXIT_USAGE
    with pytest.raises(SystemExit) as err:
        R.main(["--a", engine()])
    assert err.value.code == 2


# ==== a real game ================================================================================

@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason=f"GNU Go is not installed at {GNUGO}")
def test_two_gnu_go_processes_play_refereed_games(tmp_path):
    gnugo = f"{GNUGO} --mode gtp --level 0 --chinese-rules"
    result = Match(MatchConfig(a=gnugo, b=gnugo, size=7, komi=7, games=2, sgf_dir=str(tmp_path),
                               time_per_move=60)).run()
    game = Go(7, komi=7)
    for record in result.games:
        assert record.reason in (R.SCORE, R.RESIGN), record.notes
        assert record.dead["A"] is not None and record.dead["B"] is not None
        replay = sgf.Sgf_game.from_bytes(open(record.sgf, "rb").read())
        state = game.initial_state()
        for node in replay.get_main_sequence()[1:]:
            colour, move = node.get_move()
            assert game.to_move(state) == "bw".index(colour)
            state = game.play(state, game.pass_action if move is None else game.action(6 - move[0], move[1]))
        assert len(record.moves) == len(replay.get_main_sequence()) - 1
    assert "GNU Go" in result.names["A"]
