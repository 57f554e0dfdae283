"""What several test files share: the project's root, the test data beside the project
(../shared/data) and how a test that needs it is skipped or, in CI, failed; the course weights;
move weights of our own making; the regression runner as a user runs it; the small-pages fixture
of the timed search tests; the local tournament server (a throwaway certificate, a served
tournament); a ticking clock; seeded random positions of any game; watching and stopping a test's background compiles.

A test (or a ``pytest.param``) that reads ../shared/data says so with
``@pytest.mark.shared_data("file", ...)``; a fixture calls ``require_shared_data("file", ...)``.  When a file is absent the test is
skipped, unless the environment has PLIES_REQUIRE_SHARED_DATA=1 (.ci/run sets it): then it fails,
so that CI never passes by skipping them.
"""
import contextlib
import os
import subprocess
import threading
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"  # data for tests, not part of the project
REQUIRE_SHARED_DATA = "PLIES_REQUIRE_SHARED_DATA"
COURSE_WEIGHTS = DATA / "go5-course-weights.txt"
COURSE_TESTS = DATA / "go5-tests.gtp"


class FakeClock:
    """Seconds that pass only as the code asks the time: each reading advances ``step``."""

    def __init__(self, step: float, now: float = 1000.0):
        self.now, self.step = now, step

    def __call__(self):
        self.now += self.step
        return self.now


def missing_shared_data(*names: str) -> list[Path]:
    return [DATA / name for name in names if not (DATA / name).is_file()]


def require_shared_data(*names: str) -> None:
    """Skip the calling test or fixture when a file of ../shared/data is absent, or fail it when
    PLIES_REQUIRE_SHARED_DATA=1."""
    missing = missing_shared_data(*names)
    if missing:
        text = f"absent test data: {', '.join(map(str, missing))}"
        if os.environ.get(REQUIRE_SHARED_DATA) == "1":
            pytest.fail(f"{text} ({REQUIRE_SHARED_DATA}=1: such tests must run)", pytrace=False)
        pytest.skip(text)


def pytest_configure(config):
    config.addinivalue_line("markers", "shared_data(*names): the test reads these files of ../shared/data "
                                       f"(skipped when absent; failed when {REQUIRE_SHARED_DATA}=1)")
    config.addinivalue_line("markers", "beside_the_suite(work=f): f(folder) starts in a thread when the "
                                       "collection is done and runs beside the other tests; the test runs last "
                                       "and gets its Future from the `beside` fixture")


def pytest_runtest_setup(item):
    for mark in item.iter_markers("shared_data"):
        require_shared_data(*mark.args)


# ==== work that runs beside the suite =============================================================
# A test that mostly waits (the real cold starts wait minutes for a compile on one core) has its work
# started when the collection is done, in a thread beside the other tests, and runs last to collect
# the result: the wait overlaps the suite instead of adding to it.  A session stopped early (-x, Ctrl-C)
# still waits for the work to end at exit (minutes for the cold starts): deselect it (-k) to spare that.
BESIDE = pytest.StashKey()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.get_closest_marker("beside_the_suite") is not None)  # stable: last


def pytest_collection_finish(session):
    if session.config.option.collectonly:
        return
    from concurrent.futures import ThreadPoolExecutor
    import tempfile
    for item in session.items:
        mark = item.get_closest_marker("beside_the_suite")
        if mark is not None:
            folder = Path(tempfile.mkdtemp(prefix="plies-beside-"))
            item.stash[BESIDE] = ThreadPoolExecutor(1).submit(mark.kwargs["work"], folder), folder


@pytest.fixture
def beside(request):
    """The Future of this test's work started beside the suite (its folder removed afterwards)."""
    import shutil
    future, folder = request.node.stash[BESIDE]
    yield future
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def course_weights():
    """The course's Go5 move weights (GoWeights) from ../shared/data."""
    require_shared_data(COURSE_WEIGHTS.name)
    from engines.knowledge.go.go5_weights import load_weights
    return load_weights(COURSE_WEIGHTS)


@pytest.fixture
def small_pages():
    """Fresh memory comes in 4 KB pages while a timed test runs.  numpy asks the kernel for 2 MB pages
    for large arrays (the tree, the transposition table), and on a virtual machine the first touch
    of such a page can stall the thread for several milliseconds of CPU time while the host backs
    it: an effect of the machine, not of the search's time keeping, which these tests check."""
    try:
        from numpy._core.multiarray import _set_madvise_hugepage
    except ImportError:  # numpy < 2
        from numpy.core.multiarray import _set_madvise_hugepage
    previous = _set_madvise_hugepage(False)
    yield
    _set_madvise_hugepage(previous)


@lru_cache(maxsize=1)
def pattern_keys() -> tuple[str, ...]:
    """NUM_PATTERNS distinct canonical 3x3 patterns, in ASCII order: the keys of a well-formed weights
    file of our own making (not the course's pattern classes)."""
    from engines.knowledge.go import go5_weights as GW
    keys = sorted({GW.canonical(GW.pattern_string(code)) for code in range(GW.PATTERN_CODES)})
    return tuple(keys[:GW.NUM_PATTERNS])


def weights_lines(weight_of) -> tuple[str, ...]:
    """The lines of a weights file (engines/knowledge/go/go5_weights.py) with the basic features and
    pattern_keys(), each weighing weight_of(index, key) (a decimal text or a number)."""
    from engines.knowledge.go.go5_weights import BASIC_NAMES
    return tuple(f"{i} {weight_of(i, key)} {key}" for i, key in enumerate(BASIC_NAMES + pattern_keys()))


def made_weights(**basic: float):
    """GoWeights of our own making: the named basic features (FE_PASS_NEW=8, ...) weigh what is given,
    every other feature 1, so that a move's gamma is the product of the named weights it has."""
    from engines.knowledge.go.go5_weights import BASIC_NAMES, parse_weights
    unknown = set(basic) - set(BASIC_NAMES)
    assert not unknown, f"no such basic features: {unknown}"
    return parse_weights("\n".join(weights_lines(lambda i, key: basic.get(key, 1))) + "\n", "made-weights")


# ---- the regression runner as a user runs it ------------------------------------------------------
SUMMARY_HEADER = "#Tests\tFAIL\tfail\tPASS\tpass\tError\tTime\tCpuTime"
COUNTS = ("#Tests", "FAIL", "fail", "PASS", "pass", "Error")


def run_regress(engine_command: str, *files, options=(), cwd=ROOT, timeout=300) -> subprocess.CompletedProcess:
    """``python -m regress.runner [OPTIONS] ENGINE_COMMAND FILE...`` (text out)."""
    return subprocess.run([sys.executable, "-m", "regress.runner", *options, engine_command, *map(str, files)],
                          capture_output=True, text=True, cwd=cwd, timeout=timeout)


def regress_summary(stdout: str) -> dict[str, str]:
    """The runner's summary, its last two lines (gogui's summary.dat): column name -> text."""
    header, values = stdout.splitlines()[-2:]
    assert header == SUMMARY_HEADER, stdout[-500:]
    return dict(zip(header.split("\t"), values.split("\t")))


def regress_counts(stdout: str) -> tuple[int, ...]:
    """(#Tests, FAIL, fail, PASS, pass, Error) of the runner's summary."""
    summary = regress_summary(stdout)
    return tuple(int(summary[key]) for key in COUNTS)


# ==== the local Online Hex Tournament server =====================================================
OHT_WAIT = 120  # seconds before a stuck tournament test fails (never reached)


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    """A throwaway self-signed certificate and key for CN=localhost (the `cryptography` package)."""
    from standins.oht_server import self_signed
    return self_signed(tmp_path_factory.mktemp("certs"))


@contextlib.contextmanager
def serving(certs, config, opponent=None):
    """A server thread playing one client's tournament; joined (and the listener closed) on exit."""
    from standins import oht_server as S
    server = S.Server(*certs, config, opponent or S.RandomOpponent(7), out=None, timeout=OHT_WAIT)
    thread = threading.Thread(target=server.serve_one, name="oht-test-server")
    thread.start()
    try:
        yield server
    finally:
        thread.join(OHT_WAIT)
        server.close()
        assert not thread.is_alive(), "the server thread did not end"


def cache_is_warm(env, game: str) -> bool:
    """The warm-up's own check (a Python start) with env's NUMBA_CACHE_DIR."""
    done = subprocess.run([sys.executable, "-m", "engines.warmup", "--check", "--game", game], cwd=ROOT,
                          env=env, capture_output=True)
    return done.returncode == 0


def compiles_below(pid: int) -> bool:
    """Whether a process below pid (children, grandchildren) runs engines.warmup (Linux /proc)."""
    todo = [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            try:
                todo += [int(c) for c in task.read_text().split()]
            except OSError:
                continue
        if p != pid:
            try:
                cmdline = Path(f"/proc/{p}/cmdline").read_bytes()
                state = Path(f"/proc/{p}/stat").read_text().rpartition(")")[2].split()[0]
            except (OSError, IndexError):
                continue
            # an exiting process has an empty cmdline before it is a zombie, and until it is one the
            # adapter's poll() still sees it running
            if b"engines.warmup" in cmdline or (not cmdline and state != "Z"):
                return True
    return False


def stop_compiles_into(cache: Path) -> int:
    """Stop the background compiles (``engines.warmup``, detached from the adapter that started them)
    that write into ``cache``: a test that does not wait for its compile must not leave minutes of
    CPU to the tests after it.  The number stopped (Linux /proc)."""
    wanted = f"NUMBA_CACHE_DIR={cache}".encode()
    stopped = 0
    for proc in Path("/proc").iterdir():
        try:
            if b"engines.warmup" in (proc / "cmdline").read_bytes() and wanted in (proc / "environ").read_bytes().split(b"\0"):
                os.kill(int(proc.name), 9)
                stopped += 1
        except (OSError, ValueError):  # not a process, gone meanwhile, or not ours
            continue
    return stopped


class TickingClock:
    """A clock for deadline tests that advances by ``step`` seconds at each reading (counted, not timed:
    a test on it does not depend on the machine's load)."""

    def __init__(self, step):
        self.t = 0.0
        self.step = step

    def __call__(self):
        self.t += self.step
        return self.t


def random_positions(game, count, plies, seed, min_plies=0):
    """Non-final positions of ``game`` after a seeded random number (min_plies..plies) of random moves."""
    import numpy as np
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(int(rng.integers(min_plies, plies + 1))):
            if game.is_terminal(s):
                break
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
        if not game.is_terminal(s):
            out.append(s)
    return out
