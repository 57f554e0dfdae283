"""The gogui-regress runner (regress/runner.py): the file parser, the judging of replies and the
report as pure functions, then whole runs against the scripted fake engine (regress/fake_engine.py)
for every outcome and exit status.  No assertion depends on timing."""
import json
import re
import shlex
import sys

import pytest

from conftest import COURSE_TESTS as GO5_TESTS
from conftest import regress_counts, regress_summary, run_regress
from regress.runner import (
    Check, Command, FormatError, Reply, Summary, Result, command_id, format_result, format_summary,
    is_failure, java_regex, java_trim, judge, outcome, parse_check, parse_file, parse_lines,
    response_text, summarise,
)


# ------------------------------------------------------------------------------------------
# Parsing
# ------------------------------------------------------------------------------------------

def parse(text: str):
    return parse_lines(text.split("\n"), "t.gtp")


def test_a_file_becomes_commands_with_their_checks():
    commands = parse("# a comment\n\n  boardsize 9  \n10 genmove b\n#? [d4|e5]\n"
                     "20 echo x\n#? [!x]*\n30\tshowboard\n40 name\n#?\nplay b a1\n#? [ ]\n")
    assert [(c.lineno, c.line, c.test_id, c.command) for c in commands] == [
        (3, "boardsize 9", -1, "boardsize 9"),
        (4, "10 genmove b", 10, "genmove b"),
        (6, "20 echo x", 20, "echo x"),
        (8, "30 showboard", 30, "showboard"),    # a tab is sent as a space
        (9, "40 name", 40, "name"),
        (11, "play b a1", -1, "play b a1"),
    ]
    assert [c.is_test for c in commands] == [False, True, True, True, True, True]
    genmove, echo, showboard, name, play = commands[1:]
    assert (genmove.check.expected, genmove.check.negate, genmove.check.expected_fail) == ("d4|e5", False, False)
    assert (echo.check.expected, echo.check.negate, echo.check.expected_fail) == ("!x", True, True)
    assert showboard.check is None and name.check is None             # an empty '#?' is no check
    assert play.check.expected == ""                                   # '[ ]' is trimmed: matches ""


@pytest.mark.parametrize("text, line, message", [
    ("10 name\n\n#? [x]\n", 3, "without preceding test command"),     # the spec's blank-line rule
    ("10 name\n# comment\n#? [x]\n", 3, "without preceding test command"),
    ("#? [x]\n10 name\n", 1, "without preceding test command"),
    ("10 name\n#? [x]\n#? [y]\n", 3, "without preceding test command"),
    ("10 name\n#? x]\n", 2, "no opening bracket"),
    ("10 name\n#? [x\n", 2, "no closing bracket"),
    ("10 name\n#? [x] *\n", 2, "no closing bracket"),
    ("10 name\n#? [(x]\n", 2, "bad regex"),
    ("10 name\n#? [\\p{IsLatin}]\n", 2, "unsupported"),
])
def test_malformed_files_are_format_errors(text, line, message):
    with pytest.raises(FormatError, match=rf"^t\.gtp:{line}: .*{message}"):
        parse(text)


@pytest.mark.parametrize("line, expected", [
    ("10 name", 10), ("name", -1), ("10", -1), ("+5 name", 5), ("007 name", 7), ("-3 name", -1),
    ("2147483647 x", 2147483647), ("2147483648 x", -1), ("1x name", -1), (" 1 name", -1),
])
def test_ids_are_read_like_javas_parse_int(line, expected):
    assert command_id(line) == expected


def test_a_check_after_an_unnumbered_command_is_a_test_with_id_minus_one():
    (command,) = parse("echo a\n#? [a]\n")
    assert command.test_id == -1 and command.is_test


def test_lines_are_trimmed_and_any_line_end_is_accepted(tmp_path):
    path = tmp_path / "t.gtp"
    path.write_bytes(b"\t10 name \r\n#? [x]\r20 version\n#? [y]")
    commands = parse_file(path)
    assert [(c.test_id, c.check.expected) for c in commands] == [(10, "x"), (20, "y")]
    assert java_trim("\x00\t a b \x1f") == "a b"


def test_missing_file_is_a_format_error(tmp_path):
    with pytest.raises(FormatError, match="File not found"):
        parse_file(tmp_path / "nope.gtp")


@pytest.mark.shared_data(GO5_TESTS.name)
def test_the_go5_regression_file_has_its_64_tests():
    tests = [c for c in parse_file(GO5_TESTS) if c.is_test]
    assert [t.test_id for t in tests] == list(range(10, 650, 10))
    assert all(t.check is not None and not t.check.expected_fail and not t.check.negate for t in tests)


# ------------------------------------------------------------------------------------------
# Judging
# ------------------------------------------------------------------------------------------

def check(pattern: str) -> Check:
    return parse_check(pattern, 1)


@pytest.mark.parametrize("full, text", [
    ("= a1\n\n", "a1"), ("=12 a1\n\n", "a1"), ("= \n\n", ""), ("=\n\n", ""), ("=12\n\n", ""),
    ("= a\nb\n\n", "a\nb"), ("?  bad thing \n\n", "bad thing"),
])
def test_the_response_text_is_what_follows_the_first_space_trimmed(full, text):
    assert response_text(full) == text


@pytest.mark.parametrize("pattern, text, failed", [
    ("[a1]", "a1", False), ("[a1]", "a1 b2", True),               # the whole text must match
    ("[a.]", "a\n", True),                                         # the text is trimmed
    ("[a.b]", "a\nb", False), ("[^b$]", "a\nb", True),            # DOTALL; fullmatch
    ("[.*^b$.*]", "a\nb\nc", False),                               # MULTILINE anchors
    ("[!a1]", "a1", True), ("[!a1]", "b2", False),                 # negation
    ("[A1]", "a1", True),                                           # case sensitive
    ("[\\w+]", "é", True),                                          # Java's \w is ASCII
    ("[\\Q1+1\\E]", "1+1", False), ("[\\p{Alpha}\\d]", "a1", False), ("[\\P{Digit}]", "1", True),
    ("[]", "", False), ("[]", "x", True),
])
def test_patterns_match_the_whole_response_like_java(pattern, text, failed):
    assert is_failure(check(pattern), Reply(False, f"= {text}\n\n")) is failed


def test_an_error_reply_always_fails_and_otherwise_only_a_check_can_fail():
    error, ok = Reply(True, "? oops\n\n"), Reply(False, "= oops\n\n")
    assert is_failure(check("[!x]"), error) and is_failure(check("[.*]"), error) and is_failure(None, error)
    assert not is_failure(None, ok)


def test_the_four_outcomes():
    assert [outcome(False, False), outcome(True, False), outcome(True, True), outcome(False, True)] == \
        ["pass", "FAIL", "fail", "PASS"]


def test_judge_and_summary_counts():
    def result(text, pattern=None, test_id=1, error=False):
        command = Command(1, "x", test_id, "x", check(pattern) if pattern else None)
        return judge(command, Reply(error, f"{'?' if error else '='} {text}\n\n"))

    assert result("x", test_id=-1) is None                             # no id, no check: no test
    results = [result("a", "[a]"), result("a", "[b]"), result("a", "[b]*"), result("a", "[a]*"),
               result("oops", error=True), result("a"), result("a", "[a]", test_id=-1)]
    assert [r.outcome for r in results] == ["pass", "FAIL", "fail", "PASS", "FAIL", "pass", "pass"]
    summary = summarise(results, errors=2, time_s=1.25, cputime=0.5)
    assert (summary.tests, summary.FAIL, summary.fail, summary.PASS, summary.passed, summary.errors) == \
        (7, 2, 1, 1, 3, 2)
    assert summary.exit_status == 1 and Summary(tests=3, passed=2, fail=1).exit_status == 0
    assert format_summary(summary) == ("#Tests\tFAIL\tfail\tPASS\tpass\tError\tTime\tCpuTime\n"
                                       "7\t2\t1\t1\t3\t2\t1.2\t0.5\t\n")


def test_a_result_shows_command_expectation_response_and_outcome():
    command = Command(3, "20 lines a b", 20, "lines a b", check("[a]*"))
    text = format_result(Result("f.gtp", command, Reply(False, "= a\nb\n\n"), "fail"), "f.gtp ")
    assert text == ("f.gtp 20 fail: lines a b\n"
                    "    expected: [a]*\n"
                    "    response: = a\n"
                    "              b\n")


def test_java_regex_refuses_what_python_would_read_differently():
    for pattern in ("[a-z&&[^b]]", "[a[b]]"):
        with pytest.raises(ValueError):
            java_regex(pattern)
    assert java_regex("a\\z").fullmatch("a") and java_regex("a\\Z").fullmatch("a")


# ------------------------------------------------------------------------------------------
# Whole runs against the fake engine
# ------------------------------------------------------------------------------------------

def engine(*flags: str) -> str:
    return shlex.join([sys.executable, "-m", "regress.fake_engine", *flags])


def regress(tmp_path, files: dict, engine_command: str, *options: str):
    """Write the files, run the runner as a user does; (status, stdout, stderr)."""
    paths = []
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text if isinstance(text, str) else json.dumps(text))
        if name.endswith(".gtp"):
            paths.append(str(path))
    proc = run_regress(engine_command, *paths, options=options, cwd=tmp_path, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


ALL_PASS = ("boardsize 9\n10 name\n#? [FakeEngine]\n20 echo hello  world\n#? [hello world]\n"
            "30 lines a b\n#? [a\\nb]\n40 play b d4\n#? []\n50 echo x\n#? [!y]\n60 protocol_version\n")


@pytest.mark.parametrize("flags", [(), ("--echo-ids",), ("--crlf", "--junk", "--stderr-noise"),
                                   ("--echo-ids", "--crlf", "--no-cputime")])
def test_all_pass_with_ids_echoed_or_not_and_odd_output(tmp_path, flags):
    status, out, err = regress(tmp_path, {"t.gtp": ALL_PASS}, engine(*flags))
    assert (status, err) == (0, "")
    assert regress_counts(out) == (6, 0, 0, 0, 6, 0)
    assert out.splitlines()[:-2] == []                                 # passes are not reported
    assert re.fullmatch(r"\d+\.\d", regress_summary(out)["Time"]) and re.fullmatch(r"\d+\.\d", regress_summary(out)["CpuTime"])


def test_long_reports_every_test(tmp_path):
    status, out, _ = regress(tmp_path, {"t.gtp": ALL_PASS}, engine(), "--long")
    assert status == 0
    assert re.findall(r"^(\d+) (\w+): ", out, re.M) == [(str(i), "pass") for i in range(10, 70, 10)]
    assert "30 pass: lines a b\n    expected: [a\\nb]\n    response: = a\n              b\n" in out


def test_unexpected_failure_exits_1_and_shows_why(tmp_path):
    status, out, _ = regress(tmp_path, {"t.gtp": "10 echo a1\n#? [a1]\n20 echo b2\n#? [c3]\n"}, engine())
    assert status == 1 and regress_counts(out) == (2, 1, 0, 0, 1, 0)
    assert out.startswith("20 FAIL: echo b2\n    expected: [c3]\n    response: = b2\n")


def test_expected_failure_and_unexpected_pass_exit_0(tmp_path):
    status, out, _ = regress(tmp_path, {"t.gtp": "10 echo a\n#? [b]*\n20 echo a\n#? [a]*\n"}, engine())
    assert status == 0 and regress_counts(out) == (2, 0, 1, 1, 0, 0)
    assert re.findall(r"^(\d+) (\w+): ", out, re.M) == [("10", "fail"), ("20", "PASS")]


def test_negated_pattern(tmp_path):
    status, out, _ = regress(tmp_path, {"t.gtp": "10 echo pass\n#? [!pass]\n20 echo b\n#? [!pass]\n"}, engine())
    assert status == 1 and regress_counts(out) == (2, 1, 0, 0, 1, 0)
    assert "10 FAIL: echo pass\n    expected: [!pass]\n" in out


def test_error_replies(tmp_path):
    """A test answered with an error fails, even with a pattern its text matches or an expected
    failure; a numbered command without '#?' fails only on an error; an error to an
    unnumbered command counts in Error."""
    text = ("10 error boom\n#? [boom]\n20 error boom\n#? [x]*\n30 error boom\n40 echo ok\n"
            "error unnumbered\nfoo\necho fine\n")
    status, out, _ = regress(tmp_path, {"t.gtp": text}, engine())
    assert status == 1 and regress_counts(out) == (4, 2, 1, 0, 1, 2)
    assert "10 FAIL: error boom\n    expected: [boom]\n    response: ? boom\n" in out
    assert "30 FAIL: error boom\n    expected: (no #? line: any reply but an error)\n    response: ? boom\n" in out


def test_scripted_replies_and_the_engine_runs_in_the_files_directory(tmp_path):
    script = {"genmove b": "d4", "showboard": "\n1 . X\n2 O .", "final_score": ["B+1", "W+2"],
              "name": {"error": "no name"}}
    text = ("1 genmove b\n#? [[a-t][0-9]+]\n2 showboard\n#? [.*X.*]\n3 final_score\n#? [B\\+1]\n"
            "4 final_score\n#? [W\\+2]\n5 final_score\n#? [W\\+2]\n6 pwd\n#? [.*/sub]\n")
    status, out, err = regress(tmp_path, {"sub/t.gtp": text, "s.json": script},
                               engine("--script", str(tmp_path / "s.json")), "--long")
    assert (status, err) == (0, ""), out
    assert regress_counts(out) == (6, 0, 0, 0, 6, 0)


def test_an_engine_that_dies_mid_file_is_a_crash(tmp_path):
    status, out, err = regress(tmp_path, {"t.gtp": "10 echo a\n#? [b]\n20 exit 7\n#? [x]\n30 echo c\n"},
                               engine("--stderr-noise"))
    assert status == 2
    assert out.startswith("10 FAIL: echo a\n") and "#Tests" not in out    # results so far, no summary
    assert "engine died" in err and "exit status 7" in err and "line 3: 20 exit 7" in err
    assert "noise on stderr" in err                                   # the engine's stderr, shown apart


def test_an_engine_that_dies_before_the_file_is_a_crash(tmp_path):
    status, _, err = regress(tmp_path, {"t.gtp": "10 echo a\n"}, engine("--die-after", "0"))
    assert status == 2 and "engine died" in err and "at name" in err


def test_an_engine_that_dies_after_the_last_command_is_no_crash(tmp_path):
    # name, version, cputime, 10 echo a: then it exits instead of answering cputime; quit is not sent
    status, out, err = regress(tmp_path, {"t.gtp": "10 echo a\n#? [a]\n"}, engine("--die-after", "4"))
    assert (status, err) == (0, "") and regress_counts(out) == (1, 0, 0, 0, 1, 0)


def test_an_engine_that_never_answers_times_out(tmp_path):
    status, _, err = regress(tmp_path, {"t.gtp": "10 echo a\n20 hang\n"}, engine(), "--timeout", "3")
    assert status == 2 and "no reply within 3 s at " in err   # at line 2 (or earlier on a very slow machine)


def test_a_failing_quit_is_a_crash(tmp_path):
    status, _, err = regress(tmp_path, {"t.gtp": "10 echo a\n", "s.json": {"quit": {"error": "no"}}},
                             engine("--script", str(tmp_path / "s.json")))
    assert status == 2 and "quit" in err


def test_a_malformed_file_is_a_format_error_before_any_engine_runs(tmp_path):
    # the engine command does not even exist: the file error comes first
    status, out, err = regress(tmp_path, {"t.gtp": "10 echo a\n\n#? [a]\n"}, "no-such-engine-xyz")
    assert (status, out) == (2, "")
    assert re.search(r"t\.gtp:3: Response pattern without preceding test command", err)


def test_a_missing_engine_or_file_is_exit_2(tmp_path):
    status, _, err = regress(tmp_path, {"t.gtp": "10 echo a\n"}, "no-such-engine-xyz")
    assert status == 2 and "cannot start engine" in err
    status, _, err = regress(tmp_path, {}, engine(), str(tmp_path / "missing.gtp"))
    assert status == 2 and "File not found" in err


def test_several_files_are_prefixed_and_summed(tmp_path):
    status, out, _ = regress(tmp_path, {"a.gtp": "10 echo a\n#? [a]\n20 echo a\n#? [b]\n",
                                        "b.gtp": "10 echo a\n#? [a]*\nerror x\n"}, engine())
    assert status == 1 and regress_counts(out) == (3, 1, 0, 1, 1, 1)
    lines = out.splitlines()
    assert lines[0] == f"{tmp_path / 'a.gtp'} 20 FAIL: echo a" and lines[3] == f"{tmp_path / 'b.gtp'} 10 PASS: echo a"


def test_bad_arguments_exit_2(tmp_path):
    proc = run_regress("only-an-engine", timeout=60)
    assert proc.returncode == 2 and "usage" in proc.stderr
