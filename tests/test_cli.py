"""The ``plies`` command (adapters/cli.py), run as a user runs it: whole games, perft, bad arguments."""
import re
import subprocess
import sys

import pytest

from conftest import ROOT

from adapters.cli import main



def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [
    ("play", "hex", "--size", "4", "--first", "mcts", "--second", "random", "--simulations", "300"),
    ("play", "hex", "--size", "4", "--first", "alphabeta", "--second", "mcts", "--time", "0.05",
     "--simulations", "200"),
    ("play", "go", "--size", "4", "--rules", "littlego", "--first", "mcts", "--second", "alphabeta",
     "--simulations", "200", "--time", "0.05"),
    ("play", "othello", "--size", "6", "--rules", "manager", "--first", "alphabeta", "--second", "random",
     "--time", "0.05", "--evaluation", "disc_difference"),
    ("play", "othello", "--size", "6", "--first", "mcts", "--second", "random", "--simulations", "100",
     "--first-config", "selection=puct", "c=1.5", "prior_use=additive"),
])
def test_play_shows_a_whole_game(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(r"result after \d+ moves: (draw|player [12] wins)", last)
    moves = re.findall(r"^move (\d+): player ([12]) plays (\S+)$", out, re.MULTILINE)
    assert moves and [int(m[0]) for m in moves] == list(range(1, len(moves) + 1))
    assert int(last.split()[2]) == len(moves)


def test_quiet_play_reports_only_the_result(capsys):
    code, out, _ = run(capsys, "play", "hex", "--size", "3", "--first", "random", "--quiet")
    assert code == 0 and len(out.strip().splitlines()) == 1 and out.startswith("result after ")


def test_perft(capsys):
    code, out, _ = run(capsys, "perft", "othello", "4")
    assert code == 0 and out.startswith("perft(4) = 244 ")
    code, out, _ = run(capsys, "perft", "hex", "2", "--size", "3")
    assert code == 0 and out.startswith("perft(2) = 72 ")


@pytest.mark.parametrize("argv, message", [
    (("play", "hex", "--rules", "standard"), "hex has no rule variants"),
    (("play", "othello", "--size", "3"), "othello board size must be an integer in 4..16"),
    (("play", "go", "--rules", "chinese"), "go rules must be one of"),
    (("play", "hex", "--first-config", "nonsense=1"), "unknown MCTSConfig key 'nonsense'"),
    (("play", "hex", "--first", "alphabeta", "--first-config", "use_cache=3"), "use_cache"),
    (("play", "hex", "--first", "mcts", "--first-config", "c=-1"), "MCTSConfig.c"),
    (("play", "hex", "--evaluation", "nope", "--first", "alphabeta"), "evaluation for hex must be one of"),
    (("perft", "othello", "-1"), "perft depth"),
])
def test_bad_arguments_give_a_message_and_status_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and err.startswith("plies: ")


@pytest.mark.parametrize("argv", [("play", "chess"), ("play", "hex", "--time", "nan"), ("play", "hex", "--size", "x"),
                                  ("perft", "hex"), ("play", "hex", "--first-config", "novalue"), ()])
def test_argument_syntax_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        main(list(argv))
    assert exit_.value.code == 2 and "usage: plies" in capsys.readouterr().err


def test_the_console_command_runs_in_a_fresh_process():
    done = subprocess.run([sys.executable, "-m", "adapters.cli", "perft", "go", "2", "--size", "3"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("perft(2) = 91 "), done.stderr
