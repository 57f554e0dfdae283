"""gogui-twogtp's output of the Go referee (``plies go match --sgffile PREFIX``: regress/twogtp_table.py and
regress/go_match.py's TwogtpFiles) between scripted GTP engines (tests/scripted_gtp.py) and GNU Go.

The table is read here the way gogui's own code reads it (``util/Table.java`` and
``twogtp/Analyze.java``, re-stated below independently of the module's reader): properties until an
empty ``#`` line, then the column titles; cells split at tabs; every cell looked up by its column's
title and parsed with the type the analyzer gives it.  Decisions tested: the results from engine A's
side (B and W exchanged in the games where A played White), each engine's own final_score, the
resignation in all three result columns, an engine's failure marked ERR with its reason, the CPU time
by GTP cputime, the duplicate check (a repeated game, a rotated one, a near one), twogtp's file
names from 0, the SGFs re-read by sgfmill, and a match in parts appending rows under one header
(and refusing to play a game the table already holds, or another komi).
"""
import json
import os
import shlex
import sys

import pytest
from sgfmill import sgf

from conftest import ROOT
from regress import go_match as R
from regress import twogtp_table as T
from regress.go_match import Match, MatchConfig

SCRIPTED = ROOT / "tests" / "scripted_gtp.py"
GNUGO = "/usr/games/gnugo"


def engine(**script) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(SCRIPTED))} {shlex.quote(json.dumps(script))}"


def analyze(path):
    """(properties, rows) of a .dat as gogui reads it: Table.read, then Analyze.readTable's types."""
    properties, titles, raw = {}, [], []
    in_titles = False
    for line in path.read_text().split("\n"):
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            comment = line[1:].strip()
            if in_titles:
                titles += comment.split("\t")
            elif comment == "":
                in_titles = True
            else:
                key, _, value = comment.partition(":")
                properties[key.strip()] = value.strip()
            continue
        cells = line.split("\t")
        while cells and cells[-1] == "":   # Java's String.split drops trailing empty strings
            cells.pop()
        assert len(cells) <= len(titles), line
        raw.append(dict(zip(titles, cells)))
    kinds = {"GAME": int, "ALT": int, "LEN": int, "ERR": int, "TIME_B": float, "TIME_W": float,
             "CPU_B": float, "CPU_W": float}
    rows = [{title: kinds.get(title, str)(cells.get(title, "")) if title in kinds else cells.get(title, "")
             for title in titles} for cells in raw]
    return properties, rows


def test_the_table_reads_column_by_column_as_twogtp_s_analyzer_reads_it(tmp_path):
    """Game 1 (A Black) is scored, game 2 (B Black) A resigns, game 3 (A Black) A retakes an occupied
    point (an engine failure: ERR 1)."""
    a = engine(name="Alpha", games=[["c3", "pass"], ["resign"], ["c3", "c3"]], score=["W+0.5", "B+9"],
               cputime=0.5, known=["cputime"])
    b = engine(name="Beta", games=[["a1", "pass"], ["d4"], ["b2"]], score="W+1.5")
    prefix = tmp_path / "out" / "match"
    result = Match(MatchConfig(a=a, b=b, size=5, komi=0.5, games=3, sgffile=str(prefix))).run()
    assert [g.result for g in result.games] == ["W+0.5", "B+R", "W+F"]
    properties, rows = analyze(tmp_path / "out" / "match.dat")
    assert (properties["Black"], properties["White"]) == ("Alpha", "Beta")
    assert (properties["BlackLabel"], properties["WhiteLabel"]) == ("Alpha", "Beta")
    assert properties["BlackCommand"] == a and properties["WhiteCommand"] == b
    assert (properties["BlackVersion"], properties["Size"], properties["Komi"], properties["Xml"]) == ("1", "5", "0.5", "0")
    assert properties["Date"] and properties["Host"] and properties["Referee"] not in ("", "-")
    assert [r["GAME"] for r in rows] == [0, 1, 2] and [r["ALT"] for r in rows] == [0, 1, 0]
    first, second, third = rows
    # scored: each engine's own final_score, the referee's area count; A played Black, nothing swapped
    assert (first["RES_B"], first["RES_W"], first["RES_R"]) == ("W+0.5", "W+1.5", "W+0.5")
    # B played Black and won by A's resignation: from A's side (B+ means A won) it is W+R, in all three
    assert (second["RES_B"], second["RES_W"], second["RES_R"]) == ("W+R", "W+R", "W+R")
    # A's illegal move: an engine failure, no engine's score asked
    assert (third["RES_B"], third["RES_W"], third["RES_R"], third["ERR"]) == ("?", "?", "W+F", 1)
    assert "illegal" in third["ERR_MSG"] and "c3" in third["ERR_MSG"]
    assert [r["ERR"] for r in rows[:2]] == [0, 0] and rows[0]["ERR_MSG"] == ""
    assert [r["LEN"] for r in rows] == [4, 1, 2]
    assert [r["DUP"] for r in rows] == ["-", "-", "-"]
    # A knows cputime (0.5 s a call), B does not: twogtp writes 0
    assert [(r["CPU_B"], r["CPU_W"]) for r in rows] == [(0.5, 0.0)] * 3
    assert all(r["TIME_B"] >= 0 and r["TIME_W"] >= 0 for r in rows)
    assert rows[0]["TIME_B"] == pytest.approx(round(result.games[0].seconds["A"], 1))


def test_every_game_is_an_sgf_named_as_twogtp_names_it(tmp_path):
    a, b = engine(name="Alpha", moves=["c3", "b2", "pass"]), engine(name="Beta", moves=["a1", "pass"])
    Match(MatchConfig(a=a, b=b, size=5, komi=6.5, games=2, sgffile=str(tmp_path / "m"))).run()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m-0.sgf", "m-1.sgf", "m.dat"]
    expected = [("Alpha", "Beta", "W+5.5", [("b", (2, 2)), ("w", (0, 0)), ("b", (1, 1)), ("w", None), ("b", None)]),
                ("Beta", "Alpha", "W+7.5", [("b", (0, 0)), ("w", (2, 2)), ("b", None), ("w", (1, 1)), ("b", None),
                                            ("w", None)])]  # sgfmill's rows count from the bottom
    for index, (black, white, re, moves) in enumerate(expected):
        game = sgf.Sgf_game.from_bytes((tmp_path / f"m-{index}.sgf").read_bytes())
        root = game.get_root()
        assert (game.get_size(), game.get_komi(), root.get("RE")) == (5, 6.5, re)  # 2 stones to 1, komi 6.5
        assert root.get("PB").startswith(black) and root.get("PW").startswith(white) and root.get("DT")
        assert f"Black command: {(a, b)[index]}" in root.get("C") and f"Result[Referee]: {re}" in root.get("C")
        assert [node.get_move() for node in game.get_main_sequence()[1:]] == moves


def test_duplicates_are_found_in_games_with_the_same_colours_and_in_any_symmetry():
    game = [(0, (0, 1)), (1, (2, 2)), (0, None)]
    mirrored = [(0, (1, 0)), (1, (2, 2)), (0, None)]    # reflected in the main diagonal
    assert T.duplicate(mirrored, {0: game}, 5, alternate=True, exchanged=False) == "0"
    assert T.duplicate(mirrored, {1: game}, 5, alternate=True, exchanged=False) == "-"  # the other colours
    assert T.duplicate(mirrored, {1: game}, 5, alternate=False, exchanged=False) == "1"
    long = [(i % 2, (i // 5, i % 5)) for i in range(20)]
    near = long[:-1] + [(1, (4, 4))]
    assert T.duplicate(near, {0: long}, 5, alternate=False, exchanged=False) == "0?"  # 1 of 20 differs
    def moved(count):  # the first ``count`` moves one point to the right
        return [(c, (p[0], (p[1] + 1) % 5)) if i < count else (c, p) for i, (c, p) in enumerate(long)]
    assert T.duplicate(moved(3), {0: long}, 5, alternate=False, exchanged=False) == "0?"
    assert T.duplicate(moved(4), {0: long}, 5, alternate=False, exchanged=False) == "-"  # a fifth differs
    assert T.duplicate(long[:16], {0: long}, 5, alternate=False, exchanged=False) == "-"  # 4 moves shorter


def test_a_repeated_game_is_marked_in_dup(tmp_path):
    Match(MatchConfig(a=engine(), b=engine(), size=5, komi=0.5, games=4, sgffile=str(tmp_path / "m"))).run()
    _, rows = analyze(tmp_path / "m.dat")
    assert [r["DUP"] for r in rows] == ["-", "-", "0", "1"]


def test_a_match_in_parts_appends_rows_under_one_header(tmp_path, capsys):
    prefix = str(tmp_path / "m")
    players = ["--a", engine(name="Alpha"), "--b", engine(name="Beta"), "--size", "5", "--quiet"]
    common = players + ["--komi", "0.5", "--sgffile", prefix]
    assert R.main(common + ["--games", "2"]) == R.EXIT_OK
    first = (tmp_path / "m.dat").read_text()
    assert R.main(common + ["--games", "2", "--first-game", "3"]) == R.EXIT_OK
    text = (tmp_path / "m.dat").read_text()
    assert text.startswith(first) and text.count("#GAME\t") == 1 and text.count("# Date:") == 1
    _, rows = analyze(tmp_path / "m.dat")
    assert [(r["GAME"], r["ALT"], r["RES_R"]) for r in rows] == [(0, 0, "W+0.5"), (1, 1, "B+0.5"),
                                                                 (2, 0, "W+0.5"), (3, 1, "B+0.5")]
    assert [r["DUP"] for r in rows] == ["-", "-", "0", "1"]  # the first part's games, read from their SGFs
    assert sorted(p.name for p in tmp_path.glob("*.sgf")) == [f"m-{i}.sgf" for i in range(4)]
    capsys.readouterr()
    # a game the table already holds, or another komi: refused before any engine starts, the table untouched
    assert R.main(common + ["--games", "1", "--first-game", "4"]) == R.EXIT_USAGE
    err = capsys.readouterr().err
    assert "already holds game 4" in err and "--first-game 5" in err
    assert R.main(players + ["--komi", "7", "--sgffile", prefix, "--first-game", "5"]) == R.EXIT_USAGE
    assert "komi" in capsys.readouterr().err
    assert (tmp_path / "m.dat").read_text() == text
    (tmp_path / "other.dat").write_text("GAME,RESULT\n1,B+R\n")
    assert R.main(players + ["--sgffile", str(tmp_path / "other")]) == R.EXIT_USAGE
    assert "no gogui-twogtp table" in capsys.readouterr().err


def test_the_refusal_of_a_game_already_played_names_the_next_game(tmp_path):
    prefix = str(tmp_path / "m")
    Match(MatchConfig(a=engine(), b=engine(), size=5, komi=0.5, games=3, sgffile=prefix)).run()
    with pytest.raises(R.MatchError, match=r"already holds game 2 .*--first-game 4") as err:
        Match(MatchConfig(a=engine(), b=engine(), size=5, komi=0.5, games=2, first_game=2, sgffile=prefix)).run()
    assert err.value.status == R.EXIT_USAGE


def test_cells_and_header_helpers():
    assert [T.decimal(x) for x in (12.34, 10.0, 0.04, 0.96, 1234.5)] == ["12.3", "10", "0", "1", "1234.5"]
    assert [T.swapped(x) for x in ("B+3.5", "W+R", "?", "0")] == ["W+3.5", "B+R", "?", "0"]
    assert T.labels({"A": "GNU Go", "B": "GNU Go"}, {"A": "3.8", "B": "3.8"}) == {"A": "GNU Go:3.8", "B": "GNU Go:3.8"}
    assert T.labels({"A": "x", "B": "x"}, {"A": "", "B": ""}) == {"A": "x[1]", "B": "x[2]"}
    head = T.header({"White": "w", "Black": "b\tc", "Komi": "7"})
    assert head.splitlines() == ["# Black: b c", "# Komi: 7", "# White: w", "#", "#" + "\t".join(T.COLUMNS)]
    assert T.row({"GAME": 0, "ERR_MSG": "two\nlines"}).count("\t") == len(T.COLUMNS) - 1
    with pytest.raises(ValueError, match="prefix is empty"):
        MatchConfig(a="x", b="y", sgffile=" ")


@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason=f"GNU Go is not installed at {GNUGO}")
def test_gnu_go_s_own_scores_and_cpu_time_fill_their_columns(tmp_path):
    gnugo = f"{GNUGO} --mode gtp --level 0 --chinese-rules"
    result = Match(MatchConfig(a=gnugo, b=gnugo, size=7, komi=7, games=2, sgffile=str(tmp_path / "g"),
                               time_per_move=60)).run()
    properties, rows = analyze(tmp_path / "g.dat")
    assert properties["BlackLabel"] == properties["WhiteLabel"] == f"GNU Go:{properties['BlackVersion']}"
    for record, row in zip(result.games, rows):
        assert row["ERR"] == 0 and row["LEN"] == len(record.moves)
        if record.reason == R.SCORE and not record.disagreement:  # both GNU Gos count as the referee does
            assert row["RES_B"] == row["RES_W"], row                 # (GNU Go writes B+4.0 for B+4)
            assert row["RES_B"][:2] == row["RES_R"][:2] and float(row["RES_B"][2:]) == float(row["RES_R"][2:])
        game = sgf.Sgf_game.from_bytes((tmp_path / f"g-{row['GAME']}.sgf").read_bytes())
        assert game.get_root().get("RE") == record.result
