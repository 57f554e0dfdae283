"""engines/players: the one time manager (clock.py) and the one cold-start path (coldstart.py): the
deadline every clock gives, the fallback search over reference rules, and a compile that outlives the
process which started it, one at a time."""
import os
import random
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT
from engines import warmup
from engines.players import coldstart
from engines.players.clock import (ABSOLUTE, CPU, BYOYOMI, Deadline, GameClock, Limit, TimeControl,
                                   TimeManager)


class FakeClock:
    def __init__(self, t=100.0):
        self.t = t

    def __call__(self):
        return self.t


def test_a_fixed_budget_gives_its_seconds_less_the_margin_from_the_arrival():
    clock = FakeClock()
    manager = TimeManager(2.0, margin=0.1, clock=clock)
    deadline = manager.deadline(start=99.5)  # the request arrived half a second ago
    assert deadline.at == pytest.approx(99.5 + 1.9)
    assert deadline.left() == pytest.approx(1.4) and not deadline.passed()
    clock.t = 101.4
    assert deadline.passed() and deadline.left() == 0.0
    assert manager.deadline(share=0.5, start=100.0).at == pytest.approx(100.0 + 0.9)  # a policy's share
    assert manager.deadline(share=3.0, start=100.0).at == pytest.approx(101.9)  # never past the budget


def test_no_budget_means_no_deadline_and_a_game_clock_wins_over_the_fixed_budget():
    clock = FakeClock()
    assert TimeManager(None, clock=clock).deadline() is None
    assert TimeManager(0, clock=clock).deadline() is None
    game = GameClock(TimeControl(ABSOLUTE, 60.0), margin=0.0, margin_fraction=0.0, clock=clock)
    manager = TimeManager(5.0, margin=0.0, game_clock=game, clock=clock)
    expected = game.allocation(0, 0, 81)
    assert expected != 5.0 and manager.deadline(0, 0, 81, start=100.0).at == pytest.approx(100.0 + expected)
    game.set_control(TimeControl())  # time_settings with no limit: the fixed budget again
    assert manager.deadline(start=100.0).at == pytest.approx(105.0)


@pytest.mark.parametrize("control", [TimeControl(ABSOLUTE, 30.0), TimeControl(BYOYOMI, 10.0, 5.0, periods=3)])
def test_charge_takes_the_moves_time_off_the_players_clock(control):
    manager = TimeManager(margin=0.0, game_clock=GameClock(control), clock=FakeClock())
    before = manager.game_clock.report(1)
    assert manager.charge(1, 4.0)
    after = manager.game_clock.report(1)
    assert after[0] == pytest.approx(before[0] - 4.0) and manager.game_clock.report(0) == before


def test_the_cpu_kind_counts_the_process_s_cpu_time():
    manager = TimeManager(1.0, kind=CPU)
    assert manager.clock is __import__("time").process_time
    with pytest.raises(ValueError):
        TimeManager(1.0, kind="sundial")
    with pytest.raises(ValueError):
        TimeManager(float("nan"))


@pytest.mark.parametrize("bad", [dict(time=-1.0), dict(time=float("inf")), dict(simulations=0),
                                 dict(depth=True), dict(simulations=2.5)])
def test_a_limit_refuses_what_means_nothing(bad):
    with pytest.raises(ValueError):
        Limit(**bad)


class TakeAway:
    """A toy game for the fallback search: take 1 or 2 from a pile, taking the last wins.  The
    evaluation is deliberately misleading (it likes leaving an even pile), so only a search finds
    the winning move: leave a multiple of 3."""

    def moves(self, pile):
        return [n for n in (1, 2) if n <= pile]

    def play(self, pile, take):
        return pile - take

    def outcome(self, pile):
        return -1 if pile == 0 else None  # the side to move facing an empty pile has lost

    def evaluate(self, pile):
        return 0.5 if pile % 2 == 0 else -0.5


class Never:
    def passed(self):
        return False


class After:
    """A deadline that passes after ``calls`` questions (counted, not timed)."""

    def __init__(self, calls):
        self.calls = calls

    def passed(self):
        self.calls -= 1
        return self.calls < 0


def test_the_fallback_search_finds_a_win_that_one_ply_misses():
    rules = TakeAway()
    one_ply = max(rules.moves(7), key=lambda m: -rules.evaluate(rules.play(7, m)))
    assert one_ply == 2  # leaves 5: the evaluation's favourite, a loss
    assert coldstart.fallback_search(rules, 7, Never()) == 1  # leaves 6, a multiple of 3
    assert coldstart.fallback_search(rules, 11, Never(), random.Random(3)) == 2


def test_the_fallback_search_always_answers_a_legal_move_even_out_of_time():
    rules = TakeAway()
    for pile in range(1, 12):
        assert coldstart.fallback_search(rules, pile, After(0), random.Random(pile)) in rules.moves(pile)
    with pytest.raises(ValueError):
        coldstart.fallback_search(rules, 0, Never())


def test_an_edit_of_a_player_or_of_the_reference_rules_leaves_the_cache_warm(tmp_path, monkeypatch):
    engines = tmp_path / "engines"
    for folder in ("games/reference", "players", "search"):
        (engines / folder).mkdir(parents=True)
    monkeypatch.setattr(warmup, "ENGINES", engines)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    warmup._write_stamp("go", 1.0)
    (engines / "players" / "go.py").write_text("")
    (engines / "games" / "reference" / "go.py").write_text("")
    assert warmup.is_warm("go")
    (engines / "search" / "mcts.py").write_text("")  # a kernel module: cold
    assert not warmup.is_warm("go")


def test_compiles_take_turns_under_the_lock(tmp_path):
    """Two processes in compile_lock: the second enters only after the first has left."""
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from engines import warmup
        with warmup.compile_lock():
            open({str(tmp_path / 'log')!r}, 'a').write(sys.argv[1] + ' in\\n')
            time.sleep(0.5)
            open({str(tmp_path / 'log')!r}, 'a').write(sys.argv[1] + ' out\\n')
    """)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    procs = [subprocess.Popen([sys.executable, "-c", script, name], env=env) for name in ("a", "b")]
    assert [p.wait(60) for p in procs] == [0, 0]
    events = (tmp_path / "log").read_text().splitlines()
    first, second = events[0].split()[0], events[2].split()[0]
    assert events == [f"{first} in", f"{first} out", f"{second} in", f"{second} out"] and first != second


def test_the_background_compile_outlives_the_process_that_started_it(tmp_path, monkeypatch):
    """The compile is detached: a process that starts one and exits at once leaves it running in a
    session of its own (the harness that starts a fresh process per game then finds the cache warm)."""
    marker = tmp_path / "compiled"
    fake = tmp_path / "fake_warmup"
    fake.mkdir()
    (fake / "engines").mkdir()
    # a stand-in for `python -m engines.warmup` that takes a while, then leaves a mark
    (fake / "engines" / "__init__.py").write_text("")
    (fake / "engines" / "warmup.py").write_text(
        f"import os, time\ntime.sleep(1.5)\nopen({str(marker)!r}, 'w').write(str(os.getsid(0)))\n")
    starter = textwrap.dedent(f"""
        import io, os, sys
        sys.path.insert(0, {str(ROOT)!r})
        from engines.players.coldstart import Compiler
        from engines import warmup
        warmup.is_warm = lambda *games: False
        os.chdir({str(fake)!r})  # the child finds the stand-in warm-up first on its path
        compiler = Compiler("hex", "plies-test", err=io.StringIO())
        compiler.close()
        print(os.getsid(0))
    """)
    env = {**os.environ, "PYTHONPATH": str(fake)}
    done = subprocess.run([sys.executable, "-c", starter], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()  # the starter has left; its compile has not finished yet
    for _ in range(100):
        if marker.exists() and marker.read_text():
            break
        __import__("time").sleep(0.1)
    assert marker.exists(), "the compile died with the process that started it"
    assert marker.read_text() != done.stdout.strip()  # in a session of its own


def test_cold_start_builds_the_player_once_the_cache_is_warm(monkeypatch):
    warm = {"now": False}
    monkeypatch.setattr(warmup, "is_warm", lambda *games: warm["now"])
    built = []
    cold = coldstart.ColdStart("othello", "plies-test", lambda: built.append(1) or "player", err=open(os.devnull, "w"),
                               start=False)
    cold.compiler.process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert not cold.ready() and cold.player is None and built == []
        warm["now"] = True
        cold.compiler._polled = float("-inf")
        assert cold.ready() and cold.player == "player" and cold.ready() and built == [1]
    finally:
        cold.compiler.process.kill()
