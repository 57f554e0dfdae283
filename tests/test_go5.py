"""plies-go5 (adapters/go5.py) as a user meets it: golden GTP dialogues through the real process,
byte for byte; the command line; a fuzz of GtpEngine.handle; genmove with real budgets; tree reuse;
and the regression files (the course's 64 tests and our own regress/*.gtp) through regress.runner.

The expected answers come from ../shared/specs/gtp-go5.md (sections 1.9, 3.1, 3.2, 4.8, 5) and are
derived in the comments.  The course weights and regression file are data outside the project:
they are read from ../shared/data next to the project root (tests/conftest.py: the tests that need
them are skipped when they are absent, and fail instead under PLIES_REQUIRE_SHARED_DATA=1).  Every
search is seeded; no assertion depends on timing.
"""
import io
import os
import random
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from adapters import go5
from adapters.go5 import Go5Session, Settings, make_engine
from conftest import COURSE_TESTS, ROOT, made_weights, regress_counts, run_regress, weights_lines
from conftest import COURSE_WEIGHTS as WEIGHTS
from engines.search import Limits

OUR_FILES = sorted((ROOT / "regress").glob("*.gtp"))
TESTED_MODE = ("--movefilter", "--in_tree_knowledge=probabilistic", "--num_total_sim=1")
COLUMNS = "abcdefghjklmnopqrstuvwxyz"

needs_weights = pytest.mark.shared_data(WEIGHTS.name)
needs_course_tests = pytest.mark.shared_data(COURSE_TESTS.name)


def engine_process(stdin: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `python -m adapters.go5 ARGS` with stdin as input; bytes out."""
    return subprocess.run([sys.executable, "-m", "adapters.go5", *args], input=stdin.encode("utf-8"),
                          capture_output=True, cwd=ROOT, timeout=timeout)


def run_tested_mode(stdin: str) -> subprocess.CompletedProcess:
    return engine_process(stdin, *TESTED_MODE, "--weights", str(WEIGHTS))


class Processes:
    """The module's engine and runner processes, started a few at a time in the background as soon
    as the first test needs one (each costs a second or two of start-up), so that the tests that
    read them mostly find them done.  ``result(key)`` waits for one."""
    AT_ONCE = 3

    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=self.AT_ONCE)
        self.jobs, self.futures = {}, {}

    def add(self, key, function, *args, needs=(), first=False):
        self.jobs[key] = (function, args, needs, first)

    def start_all(self):
        """Submit every job whose data files exist, the long ones (first=True) first."""
        for key, (function, args, needs, _) in sorted(self.jobs.items(), key=lambda item: not item[1][3]):
            if all(path.is_file() for path in needs) and key not in self.futures:
                self.futures[key] = self.pool.submit(function, *args)

    def result(self, key):
        if key not in self.futures:
            function, args, _, _ = self.jobs[key]
            self.futures[key] = self.pool.submit(function, *args)
        return self.futures[key].result()


PROCESSES = Processes()


@pytest.fixture(scope="module")
def procs():
    PROCESSES.start_all()
    yield PROCESSES
    PROCESSES.pool.shutdown(wait=True)


def replies(*texts: str) -> bytes:
    """The stdout of successive '=' replies ('?' when a text starts with '? ')."""
    return "".join((t if t.startswith("? ") else "= " + t) + "\n\n" for t in texts).encode("utf-8")


def empty_board_prior(n: int) -> str:
    """prior_knowledge on the empty n x n board, by hand from spec 2.3 and 3.1: only LINE features
    fire and Pass has PASS_NEW (8.87323), so Pass has r = 1 ('10 10'); a point on line >= 3 has
    r = 1.07571 / 8.87323 = 0.121 (sims 1.21 -> 1, wins 0.68 -> 1), line 2 r = 0.070 (sims 0.70 -> 1,
    wins 0.37 -> 0), line 1 r = 0.042 ('0 0').  Sorted by win rate, then by name."""
    groups = {1: [], 2: [], 3: []}
    for row in range(1, n + 1):
        for col in range(1, n + 1):
            groups[min(row, col, n + 1 - row, n + 1 - col, 3)].append(f"{COLUMNS[col - 1]}{row}")
    return " ".join(["Pass 10 10"] + [f"{v} 1 1" for v in sorted(groups[3])]
                    + [f"{v} 0 1" for v in sorted(groups[2])] + [f"{v} 0 0" for v in sorted(groups[1])])


LIST_COMMANDS = ("protocol_version name version quit boardsize clear_board komi play genmove legal_moves "
                 "legal_moves_for_toPlay random_moves policy_moves prior_knowledge score final_score showboard "
                 "set_free_handicap num_total_sim in_tree_knowledge mcts_info gogui-analyze_commands selfatari "
                 "use_pattern random_simulation use_ucb known_command list_commands")


# ---- golden dialogues (byte-exact, through the process) ---------------------------------------------

PROCESSES.add("basics", engine_process,
              "12 name\n  7 name\n\n   \n\t\n# a comment\n#12 name\nPLAY b a1\nversion\r\nprotocol_version\n"
              "known_command play\nknown_command PLAY\nknown_command list_commands\nlist_commands\n007 version\n"
              "3name\nname with extra words\n quit x\nquit\nname\n")


def test_gtp_basics_ids_blank_and_comment_lines(procs):
    """5.1/5.2: a leading id is dropped and not repeated; an indented id is no id; empty, blank and
    '#' lines get no reply; command names are case sensitive; extra arguments are ignored; nothing is
    answered after quit, and the process exits with 0."""
    proc = procs.result("basics")
    assert proc.stdout == replies("Go5", "? Unknown command", "? Unknown command", "0.22", "2", "true", "false",
                                  "true", LIST_COMMANDS, "0.22", "Go5", "Go5", "")
    assert proc.returncode == 0


PROCESSES.add("eof", engine_process, "name\n")


def test_end_of_input_without_quit_ends_normally(procs):
    proc = procs.result("eof")
    assert (proc.stdout, proc.returncode) == (replies("Go5"), 0)


USAGES = {
        "boardsize": "boardsize INT", "komi": "komi FLOAT", "play": "play {b,w} MOVE", "play b": "play {b,w} MOVE",
        "genmove": "genmove {w,b}", "legal_moves": "legal_moves {w,b}", "known_command": "known_command CMD_NAME",
        "set_free_handicap": "set_free_handicap MOVE (e.g. A4)", "selfatari": "selfatari INT",
        "use_pattern": "use_pattern INT", "random_simulation": "random_simulation INT", "use_ucb": "use_ucb INT",
        "num_total_sim": "num_total_sim #(e.g. num_total_sim 100 )",
        "in_tree_knowledge": "in_tree_knowledge p r o b a b i l i s t i c",
    }
PROCESSES.add("usage", engine_process, "".join(line + "\n" for line in USAGES) + "name\n")


def test_too_few_arguments_answer_the_usage_strings(procs):
    """5.3's usage strings, as '?' replies; the stream stays in step."""
    assert procs.result("usage").stdout == replies(*("? " + u for u in USAGES.values()), "Go5")


PROCESSES.add("play", engine_process,
              "boardsize 3\nplay b b1\nplay w a1\nplay b A2\nplay w B01\nplay w a1\nplay b I3\nplay b A0\n"
              "play b c-1\nplay b 3c\nplay b Z1\nplay b D4\nplay b a4\nplay x a1\nplay B c+2\nplay W pass\n"
              "showboard\n")


def test_user_errors_of_play_are_success_replies(procs):
    """5.3: 'Illegal Move: <as typed>' (occupied, ko, suicide), 'Error: invalid point: <lowercased>',
    'Error: point is off board: <lowercased>', the bad-colour text with its trailing space; the row
    is anything Python's int() reads (1.2: 'a01', 'c+2')."""
    bad_colour = ("Error: Valid color characters are: b, w, e, BORDER and FLOODFILL. "
                  "please provide the input in this format ")
    # b1, then White a1 (one liberty, a2); Black a2 captures it; White b1 is occupied (typed B01);
    # White a1 is suicide there now (a2 and b1 are Black, no capture)
    assert procs.result("play").stdout == replies(
        "", "", "", "", "Illegal Move: B01", "Illegal Move: a1", "Error: invalid point: 'i3'",
        "Error: invalid point: 'a0'", "Error: invalid point: 'c-1'", "Error: invalid point: '3c'",
        "Error: point is off board: 'z1'", "Error: point is off board: 'd4'", "Error: point is off board: 'a4'",
        bad_colour, "", "", "\n[[0 1 0]\n [1 0 1]\n [0 0 0]]")


PROCESSES.add("bad values", run_tested_mode,
              "boardsize 3\nplay b b2\nselfatari 2\nuse_pattern -1\nrandom_simulation x\nuse_ucb 1.0\n"
              "in_tree_knowledge rulebased\nboardsize x\nkomi x\nnum_total_sim x\ngenmove x\nname\nshowboard\n",
              needs=(WEIGHTS,))


@needs_weights
def test_bad_values_give_a_single_error_reply(procs):
    """5.5: where the original answered twice or crashed, one '?' reply; the board is unchanged."""
    assert procs.result("bad values").stdout == replies(
        "", "", "? selfatari takes 0 or 1, got 2", "? use_pattern takes 0 or 1, got -1",
        "? random_simulation must be an integer, got 'x'", "? use_ucb must be an integer, got '1.0'",
        "? unknown in_tree_knowledge value 'rulebased': the only one is probabilistic",
        "? board size must be an integer, got 'x'", "? komi must be a number, got 'x'",
        "? num_total_sim must be an integer, got 'x'", "? invalid colour: 'x' (use b or w)", "Go5",
        "\n[[0 0 0]\n [0 1 0]\n [0 0 0]]")


PROCESSES.add("score", engine_process,
              "boardsize 5\nkomi 0.03\nplay b c3\nplay w d4\nplay b c4\nplay w d3\nscore\nfinal_score\n"
              "boardsize 2\nplay w a2\nplay w b2\nfinal_score\n"
              "boardsize 3\nkomi 0.1\nplay w b2\nscore\nkomi 1e-17\nscore\n"
              "komi 1\nboardsize 2\nplay b a1\nplay w b2\nplay b a2\nscore\n"
              "komi -7.25\nclear_board\nscore\nkomi 0\nfinal_score\n")


def test_score_accumulates_white_from_komi(procs):
    """1.9: W starts at komi and adds each white stone and each white-only region (whole, when its
    first point is reached in board order) as a float; the difference is Python's str() of it.
    - 5x5, Black c3 c4, White d3 d4, one mixed region: W = 0.03 + 1 + 1 = 2.0300000000000002, B = 2
      -> W+0.03000000000000025 (komi + 2 at once would give W+0.029999999999999805);
    - 2x2, White a2 b2: region a1-b1 first, W = 0.03 + 2 + 1 + 1 -> W+4.029999999999999
      (point by point: W+4.03);
    - 3x3, White b2: W = 0.1 + 8 + 1 -> W+9.1; komi 1e-17 with the same stone -> W+9.0;
    - komi 1, 2x2 Black a1 a2, White b2 (b1 is neutral): B = W = 2 -> 0;
    - komi -7.25 on an empty board (no one's area): B+7.25; komi 0: 0."""
    assert procs.result("score").stdout == replies(
        "", "", "", "", "", "", "W+0.03000000000000025", "W+0.03000000000000025",
        "", "", "", "W+4.029999999999999",
        "", "", "", "W+9.1", "", "W+9.0",
        "", "", "", "", "", "0",
        "", "", "B+7.25", "", "0")


PROCESSES.add("showboard", engine_process,
              "showboard\nboardsize 4\nplay b a1\nplay w d4\nplay b b2\nshowboard\ngogui-analyze_commands\n")


def test_showboard_is_the_numpy_matrix_with_row_1_first_and_the_analyze_commands(procs):
    """showboard (5.3): a newline, then numpy's text of the board, row 1 first; the
    gogui-analyze_commands answer without the original's stray empty line (5.5)."""
    empty7 = "[" + "\n ".join(["[0 0 0 0 0 0 0]"] * 7) + "]"
    assert procs.result("showboard").stdout == replies(
        "\n" + empty7, "", "", "", "", "\n[[1 0 0 0]\n [0 1 0 0]\n [0 0 0 0]\n [0 0 0 2]]",
        "pstring/Legal Moves For ToPlay/legal_moves_for_toPlay\npstring/Policy Moves/policy_moves\n"
        "pstring/Random Moves/random_moves")


PROCESSES.add("mcts_info", run_tested_mode,
              "mcts_info\nboardsize 3\nplay b b2\nplay w a2\nplay b b3\nplay w a3\nprior_knowledge\n"
              "genmove b\nmcts_info\nlegal_moves w\n", needs=(WEIGHTS,))


@needs_weights
def test_mcts_info_before_and_after_a_genmove(procs):
    """5.3: 'No avaiable MCTS tree' (sic) before the first genmove; then an empty reply, with the
    tree's figures on stderr.  The genmove is the handout's 3x3 example (3.2, go5-tests 60/70)."""
    proc = procs.result("mcts_info")
    assert proc.stdout == replies("No avaiable MCTS tree", "", "", "", "", "",
                                  "a1 10 10 b1 2 3 Pass 1 1 c3 1 1 c2 0 1 c1 0 0", "a1", "",
                                  "a2 a3 b1 c1 c2 c3")
    assert b"mcts_info" in proc.stderr


PROCESSES.add("handicap", run_tested_mode,
              "boardsize 3\nplay b a3\nplay w c1\nset_free_handicap a1 zz b2 A1 c9 pass i1 c3\nshowboard\n"
              "legal_moves_for_toPlay\nset_free_handicap\nset_free_handicap b2\nshowboard\n", needs=(WEIGHTS,))


@needs_weights
def test_set_free_handicap_resets_the_board_and_plays_black_stones(procs):
    """5.3: the board only is reset, each vertex is played as Black, what cannot be played (occupied,
    off board, invalid, pass) is skipped; the stones count as moves (White to move; last = c3,
    last2 = b2 for the features: go5-tests-style prior checked against the spec's model)."""
    assert procs.result("handicap").stdout == replies(
        "", "", "", "", "\n[[1 0 0]\n [0 1 0]\n [0 0 1]]", "a2 a3 b1 b3 c1 c2",
        "? set_free_handicap MOVE (e.g. A4)", "", "\n[[0 0 0]\n [0 1 0]\n [0 0 0]]")


PROCESSES.add("genmove pass", run_tested_mode,
              "prior_knowledge\ngenmove b\nshowboard\nprior_knowledge\ngenmove b\nquit\nname\n", needs=(WEIGHTS,))


@needs_weights
def test_genmove_pass_leaves_the_board_and_the_player_to_move_unchanged(procs):
    """4.8, go5-tests 20/260: on the empty 7x7 board Pass is the only child with 10 prior visits, so
    genmove b answers pass and changes nothing: the same empty board and the same prior (still
    Black to move, no move made: PASS_NEW; a played pass would give PASS_CONSECUTIVE, White to move)."""
    prior = empty_board_prior(7)
    empty7 = "[" + "\n ".join(["[0 0 0 0 0 0 0]"] * 7) + "]"
    proc = procs.result("genmove pass")
    assert proc.stdout == replies(prior, "pass", "\n" + empty7, prior, "pass", "")
    assert proc.returncode == 0


# ---- the command line ---------------------------------------------------------------------------------

NO_WEIGHTS = [TESTED_MODE, ("--in_tree_knowledge", "probabilistic"), ("--simulations", "probabilistic")]
for args in NO_WEIGHTS:
    PROCESSES.add(("no weights", args), engine_process, "name\n", *args)


@pytest.mark.parametrize("args", NO_WEIGHTS, ids=" ".join)
def test_knowledge_without_weights_stops_at_start_up(procs, args):
    proc = procs.result(("no weights", args))
    assert proc.returncode != 0
    assert proc.stdout == b""
    assert b"--weights" in proc.stderr


PROCESSES.add("bogus", engine_process, "name\n", "--simulations", "bogus", "--in_tree_knowledge=probabilistic")


def test_an_unknown_simulation_policy_exits_0_with_a_message_on_stderr(procs):
    """5.4: Go5's own reaction (before any weights check)."""
    proc = procs.result("bogus")
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert b"bogus" in proc.stderr


def test_a_malformed_weights_file_stops_at_start_up_naming_the_line(tmp_path):
    bad = tmp_path / "weights.txt"
    bad.write_text("0 8.87323 FE_PASS_NEW\n1 six FE_PASS_CONSECUTIVE\n")
    proc = engine_process("name\n", "--weights", str(bad))
    assert proc.returncode != 0 and proc.stdout == b""
    assert b"line 2" in proc.stderr


@needs_weights
def test_a_weights_file_with_one_bad_line_among_good_ones(tmp_path):
    lines = WEIGHTS.read_text().splitlines()
    lines[500] = lines[500].replace(" ", "  ", 1)  # two spaces: not the format of 2.7
    bad = tmp_path / "weights.txt"
    bad.write_text("\n".join(lines) + "\n")
    proc = engine_process("name\n", *TESTED_MODE, "--weights", str(bad))
    assert proc.returncode != 0 and proc.stdout == b""
    assert b"line 501" in proc.stderr


PROCESSES.add("rulebased", engine_process, "name\n", "--simulations", "rulebased", "--movefilter")


def test_rulebased_simulations_are_refused_at_start_up(procs):
    """The engine has no rule-based rollout policy: it says so and stops (exit 2) rather than quietly
    playing random rollouts; a session cannot be made with it either."""
    proc = procs.result("rulebased")
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert b"--simulations rulebased is not available" in proc.stderr
    with pytest.raises(ValueError, match="rulebased"):
        Go5Session(simulations="rulebased")


def start(*argv):
    return go5.start(go5.build_parser().parse_args(argv))


@pytest.fixture
def no_go5_environment(monkeypatch):
    """The settings tests start from the defaults, whatever PLIES_GO5_* the user's shell has."""
    for key in [k for k in os.environ if k.startswith(go5.ENV_PREFIX + "_")]:
        monkeypatch.delenv(key)


@pytest.mark.usefixtures("no_go5_environment")
def test_settings_come_from_the_file_the_environment_and_the_flags(tmp_path, monkeypatch):
    """The project's own settings: defaults (Go5's constants), then --config FILE, then PLIES_GO5_<KEY>,
    then --weights / --seed; the search is built from them."""
    default = start().new_searcher()
    assert (default.config.c, default.config.rollout_limit, default.capacity, default.seed) == (0.4, 100, 1 << 20, 0)
    file = tmp_path / "go5.toml"
    file.write_text('c = 0.9\nrollout_limit = 50\ncapacity = 4096\nseed = 5\n')
    session = start("--config", str(file))
    searcher = session.new_searcher()
    assert (searcher.config.c, searcher.config.rollout_limit, searcher.capacity, searcher.seed) == (0.9, 50, 4096, 5)
    monkeypatch.setenv("PLIES_GO5_SEED", "7")
    monkeypatch.setenv("PLIES_GO5_C", "0.25")
    settings = start("--config", str(file)).settings
    assert (settings.seed, settings.c, settings.rollout_limit) == (7, 0.25, 50)
    assert start("--config", str(file), "--seed", "9").settings.seed == 9
    weights = tmp_path / "weights.txt"
    weights.write_text("\n".join(weights_lines(lambda i, key: 1)) + "\n")
    monkeypatch.setenv("PLIES_GO5_WEIGHTS", str(weights))
    assert start("--in_tree_knowledge=probabilistic").knowledge and start().weights is not None
    with pytest.raises(go5.Refused, match="cannot load the weights"):
        start("--weights", str(tmp_path / "missing.txt"))  # the flag over the environment


@pytest.mark.parametrize("argv, env, message", [
    (["--config", "missing.toml"], {}, "no file"),
    (["--config", "{file}"], {}, "unknown key(s) nodes"),
    ([], {"PLIES_GO5_CAPACITY": "many"}, "capacity"),
    ([], {"PLIES_GO5_ROLLOUT_LIMIT": "0"}, "rollout_limit"),
    (["--num_total_sim", "0"], {}, "--num_total_sim"),
    (["--weights", "missing.txt"], {}, "cannot load the weights"),
])
@pytest.mark.usefixtures("no_go5_environment")
def test_bad_settings_are_refused_with_exit_status_2(tmp_path, monkeypatch, capsys, argv, env, message):
    file = tmp_path / "go5.toml"
    file.write_text("nodes = 10\n")
    monkeypatch.chdir(tmp_path)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert go5.main([arg.format(file=file) for arg in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("plies-go5: ") and message in err


def test_help_lists_the_settings_and_the_exit_statuses():
    text = go5.build_parser().format_help()
    for key in ("weights", "seed", "c", "rollout_limit", "capacity"):
        assert f"  {key} = " in text and f"PLIES_GO5_{key.upper()}" in text
    for status, meaning in go5.EXIT_STATUS.values():
        assert f"  {status}  {meaning}" in text


def test_the_flag_commands_keep_their_replies():
    """5.3: selfatari sets the self-atari filter; use_pattern, random_simulation and use_ucb accept 0
    or 1 and answer an empty success, as Go5 does (nothing here reads them)."""
    session = Go5Session()
    engine = make_engine(session)
    assert engine.handle("selfatari 1") == "= \n\n" and session.movefilter
    assert engine.handle("selfatari 0") == "= \n\n" and not session.movefilter
    for name in ("use_pattern", "random_simulation", "use_ucb"):
        assert [engine.handle(f"{name} {v}") for v in "01"] == ["= \n\n"] * 2
        assert engine.handle(f"{name} 2") == f"? {name} takes 0 or 1, got 2\n\n"


# ---- fuzz: GtpEngine.handle in process -----------------------------------------------------------------

NAMES = LIST_COMMANDS.split() + ["PLAY", "Name", "foo", "cputime", "genmove_black", ""]
VERTICES = st.one_of(st.sampled_from(["a1", "A1", "e5", "j9", "pass", "PASS", "i3", "a0", "z25", "c+2", "t19",
                                      "a01", "b٣", "aa1", "1a", "a-1", "a1.5", "t20"]),
                     st.builds(lambda c, r: f"{c}{r}", st.sampled_from(COLUMNS), st.integers(1, 20)))
ARGS = st.one_of(
    VERTICES, st.sampled_from(["b", "w", "B", "W", "black", "white", "x", "e", "0", "1", "2", "-1", "0.5", "nan",
                               "inf", "1e300", "probabilistic", "rulebased", "3", "5", "7", "9", "19", "25", "1_0"]),
    st.integers(-3, 30).map(str), st.text(max_size=12),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=8))
SMALL_SIMS = st.one_of(st.integers(-2, 20).map(str), st.sampled_from(["x", "1.5", "", "1e3"]))


COLOUR = st.sampled_from(["b", "w", "B", "W", "black", "white"])
VALID_ARGS = {  # arguments a command accepts, so that the session moves on
    "play": st.tuples(COLOUR, VERTICES), "genmove": st.tuples(COLOUR), "legal_moves": st.tuples(COLOUR),
    "boardsize": st.tuples(st.integers(2, 19).map(str)), "komi": st.tuples(st.sampled_from(["0", "0.03", "-2.5", "7"])),
    "known_command": st.tuples(st.sampled_from(NAMES)), "set_free_handicap": st.lists(VERTICES, min_size=1, max_size=5),
    "selfatari": st.tuples(st.sampled_from(["0", "1"])), "use_pattern": st.tuples(st.sampled_from(["0", "1"])),
    "in_tree_knowledge": st.tuples(st.just("probabilistic")), "num_total_sim": st.tuples(st.integers(1, 20).map(str)),
}


@st.composite
def gtp_lines(draw):
    kind = draw(st.sampled_from(["command"] * 6 + ["garbage", "unicode", "long", "id", "blank", "comment"]))
    if kind == "command":
        name = draw(st.sampled_from(NAMES))
        if name in VALID_ARGS and draw(st.booleans()):
            args = list(draw(VALID_ARGS[name]))
        elif name == "num_total_sim":  # a big budget would only make the test slow
            args = [draw(SMALL_SIMS)]
        else:
            args = draw(st.lists(ARGS, max_size=3))
        sep = draw(st.sampled_from([" ", "  ", "\t", " \t "]))
        line = sep.join([name, *args])
    elif kind == "garbage":
        line = draw(st.text(alphabet=" \tabcdefgijpsw0123456789#?=-+._", max_size=40))
    elif kind == "unicode":
        line = draw(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30))
    elif kind == "long":
        line = draw(st.sampled_from(["play b a", "komi ", "boardsize ", "name ", "", "known_command "])) + \
            draw(st.sampled_from(["1", "x", "é", " "])) * draw(st.integers(1000, 20000))
    elif kind == "id":
        line = draw(st.sampled_from(["12 ", "0", "007 ", "99999999999999999999 ", "١٢ ", " 7 "])) + \
            draw(st.sampled_from(NAMES))
    elif kind == "blank":
        line = draw(st.text(alphabet=" \t\x0b\x0c\x1c\x85\u2028\u3000", max_size=5))
    else:
        line = "#" + draw(st.text(max_size=20))
    # one transport line: the line breaks that Python's text stdin splits on cannot occur inside
    return line.replace("\n", " ").replace("\r", " ")


def check_one_reply(engine, session, line):
    before_state, before_size = session.state.copy(), session.game.size
    reply = engine.handle(line)
    if line.strip() == "" or line.startswith("#"):
        assert reply is None, (line, reply)
        return
    assert reply is not None, line
    assert reply[:2] in ("= ", "? "), (line, reply)
    assert reply.endswith("\n\n") and "\n\n" not in reply[:-1], (line, reply)
    assert "internal error" not in reply, (line, reply)
    if reply.startswith("?"):
        assert session.game.size == before_size and np.array_equal(session.state, before_state), (line, reply)


@settings(max_examples=500, deadline=None, derandomize=True)
@given(lines=st.lists(gtp_lines(), min_size=1, max_size=25))
@example(lines=["boardsize " + "1" * 5000, "num_total_sim " + "9" * 4400, "play b a" + "1" * 5000,
                "komi " + "1" * 400, "selfatari 1" + "0" * 5000, "name"])
def test_fuzz_one_well_formed_reply_per_line_and_no_change_after_errors(course_weights, lines):
    session = Go5Session(course_weights, num_total_sim=1, movefilter=True, knowledge=True)
    errors = io.StringIO()
    engine = make_engine(session)
    engine.stderr = errors
    for line in lines:
        check_one_reply(engine, session, line)
        if engine.finished:
            assert re.sub(r"^[0-9]+", "", line).split()[0] == "quit"
            break
    assert "Traceback" not in errors.getvalue()


def test_fuzz_quit_stops_the_engine(course_weights):
    engine = make_engine(Go5Session(course_weights))
    assert engine.handle("5 quit now") == "= \n\n" and engine.finished


# ---- genmove with real budgets -----------------------------------------------------------------------

def opening(engine, session, size, seed):
    """A few random legal moves (captures likely on 7x7) through the engine."""
    rng = random.Random(seed)
    assert engine.handle(f"boardsize {size}") == "= \n\n"
    for i in range(size * 2):
        colour = "bw"[i % 2]
        legal = engine.handle(f"legal_moves {colour}")[2:].split()
        engine.handle(f"play {colour} {rng.choice(legal) if legal else 'pass'}")


@pytest.mark.parametrize("size", [7, 9])
@pytest.mark.parametrize("simulations", ["random", "probabilistic"])
@pytest.mark.parametrize("knowledge", [True, False])
def test_genmove_with_200_playouts_plays_legal_moves(course_weights, size, simulations, knowledge):
    session = Go5Session(course_weights, num_total_sim=200, simulations=simulations, movefilter=True,
                         knowledge=knowledge, settings=Settings(seed=size))
    engine = make_engine(session)
    opening(engine, session, size, seed=size)
    for i in range(8):
        colour = "bw"[session.game.to_move(session.state)]
        legal = engine.handle(f"legal_moves {colour}")[2:].split()
        before = session.game.cells(session.state).copy()
        reply = engine.handle(f"genmove {colour}")
        assert reply.startswith("= ") and reply.endswith("\n\n"), reply
        move = reply[2:-2]
        if move == "pass":
            assert np.array_equal(session.game.cells(session.state), before)
            continue
        assert move in legal, (move, legal)
        row, col = int(move[1:]), COLUMNS.index(move[0])
        assert session.game.cells(session.state)[size - row][col] == 1 + "bw".index(colour)
    assert session.last_stats["simulations"] == 200


# ---- the prior's integers: Python's round, half to even (3.1 step 4, 3.3) -------------------------------

def test_prior_counts_round_half_to_even_in_the_reply_and_in_the_tree():
    """Weights of our own making, all 1 except FE_PASS_NEW 8, FE_LINE_1 2 and FE_LINE_2 4, on the empty
    3x3 board (Black to move, no move yet): gamma is 8 for Pass, 4 for b2 (line 2) and 2 for the eight
    edge points (line 1).  S = 28 and each p = gamma / 28 is a power-of-two multiple of 2 / 28, so
    r = p / p_max is exact: 1, 1/2 and 1/4.
    - Pass: sims 10, wins 10.  b2: sims_f 5, wins_f 0.75 * 5 = 3.75 -> 4.
    - edges: sims_f = 10 / 4 = 2.5 exactly, half to even -> 2 (half up would give 3);
      wins_f = 0.625 * 2.5 = 1.5625 -> 2.
    Sorted by win rate, then by name.  The tree starts each root child with the same integers (3.3):
    the root's N = 10 + 5 + 8 * 2 = 31, and the one playout goes to the UCT maximum for Black,
    b/n + 0.4 sqrt(ln N / n): an edge point's 2/2 + 0.4 * 1.31 = 1.52 beats Pass's 1.23 and b2's
    1.13, so a1, the first edge point in child order, ends with 3 visits.  (With edges at 3/2 the
    visit would go to Pass instead: 1.24 against 1.11.)"""
    session = Go5Session(made_weights(FE_PASS_NEW=8, FE_LINE_1=2, FE_LINE_2=4), num_total_sim=1, knowledge=True)
    engine = make_engine(session)
    assert engine.handle("boardsize 3") == "= \n\n"
    edges = ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]
    assert engine.handle("prior_knowledge") == replies(
        " ".join(["Pass 10 10", "b2 4 5"] + [f"{v} 2 2" for v in edges])).decode()
    result = session.new_searcher().search(session.state, Limits(simulations=1))
    visits = {session._vertex(m) if m != session.game.pass_action else "pass": v
              for m, v in zip(result.moves, result.visits)}
    assert visits == {"a1": 3, "b1": 2, "c1": 2, "a2": 2, "b2": 5, "c2": 2, "a3": 2, "b3": 2, "c3": 2, "pass": 10}
    assert engine.handle("genmove b") == "= pass\n\n"


# ---- tree reuse (4.7) -------------------------------------------------------------------------------

def recording(searcher, calls):
    search = searcher.search

    def wrapped(state, limits):
        calls.append((state.copy(), None if searcher.root_state is None else searcher.root_state.copy(),
                      searcher.tree_size, id(searcher)))
        return search(state, limits)
    searcher.search = wrapped


@pytest.mark.parametrize("seed", range(12))
def test_genmove_b_then_genmove_w_keeps_the_subtree(course_weights, seed):
    """After 'genmove b', the searcher's root is the chosen child and its root_state must equal the
    state the engine hands to the next 'genmove w' (exact go5_play state): then the subtree is
    searched on, not rebuilt."""
    session = Go5Session(course_weights, num_total_sim=[1, 30, 200][seed % 3], movefilter=True, knowledge=seed % 4 != 3,
                         simulations=["random", "probabilistic"][seed % 2], settings=Settings(seed=seed))
    engine = make_engine(session)
    opening(engine, session, [5, 7, 9][seed % 3], seed)
    if session.game.to_move(session.state) == 1:
        engine.handle("play w pass")
    move = engine.handle("genmove b")[2:-2]
    if move == "pass":  # a pass never keeps the tree
        assert session.searcher is None
        return
    calls = []
    recording(session.searcher, calls)
    kept = id(session.searcher)
    assert engine.handle("genmove w").startswith("= ")
    (state, root_state, tree_size, searcher_id), = calls
    assert searcher_id == kept and root_state is not None and tree_size > 1
    assert np.array_equal(state, root_state)
    assert session.last_stats["tree_size"] >= tree_size  # searched on from the kept nodes


def test_alternating_genmove_and_play_starts_fresh_trees(course_weights):
    """4.7: 'genmove b / play w / genmove b' asks for the colour the tree is not for: a new tree."""
    session = Go5Session(course_weights, num_total_sim=50, movefilter=True, knowledge=True)
    engine = make_engine(session)
    engine.handle("boardsize 7")
    engine.handle("play b d4")
    engine.handle("play w c3")
    first = engine.handle("genmove b")
    assert first != "= pass\n\n"
    old = session.searcher
    legal = engine.handle("legal_moves w")[2:].split()
    engine.handle(f"play w {legal[0]}")
    engine.handle("genmove b")
    assert session.searcher is not old


# ---- the regression files through regress.runner -------------------------------------------------------

def regress_tested_mode(path) -> subprocess.CompletedProcess:
    return run_regress(shlex.join([sys.executable, "-m", "adapters.go5", *TESTED_MODE, "--weights", str(WEIGHTS)]),
                       path)


def summary(proc) -> dict:
    return dict(zip(("tests", "FAIL", "fail", "PASS", "pass", "Error"), regress_counts(proc.stdout)))


PROCESSES.add("course tests", regress_tested_mode, COURSE_TESTS, needs=(WEIGHTS, COURSE_TESTS), first=True)
for path in OUR_FILES:
    PROCESSES.add(path.name, regress_tested_mode, path, needs=(WEIGHTS,), first=True)


@needs_weights
@needs_course_tests
def test_the_64_course_tests_pass_in_the_tested_mode(procs):
    proc = procs.result("course tests")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert summary(proc) == {"tests": 64, "FAIL": 0, "fail": 0, "PASS": 0, "pass": 64, "Error": 0}


def test_our_regression_files_are_there():
    assert {p.name for p in OUR_FILES} >= {"basics.gtp", "boards.gtp", "sizes.gtp", "ko_suicide_captures.gtp",
                                           "errors.gtp"}


@needs_weights
@pytest.mark.parametrize("path", OUR_FILES, ids=[p.name for p in OUR_FILES])
def test_our_regression_file_passes(procs, path):
    proc = procs.result(path.name)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    counts = summary(proc)
    assert counts["FAIL"] == 0 and counts["PASS"] == 0 and counts["Error"] == 0, proc.stdout
    assert counts["tests"] == counts["pass"] + counts["fail"] > 0
    if path.name != "errors.gtp":  # only errors.gtp expects error replies ('fail')
        assert counts["fail"] == 0, proc.stdout
