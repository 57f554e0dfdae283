"""The install routes: each job gets the dependencies its code imports (setup.cfg's install_requires and
extras, read against an AST scan of the imports), the Makefile installs per job with stamps, and the demo
is short unless asked to show every move."""
import argparse
import ast
import configparser
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adapters import cli

ROOT = Path(__file__).resolve().parent.parent
FIRST_PARTY = {"engines", "protocols", "adapters", "standins", "weights", "regress", "bench", "tests"}
HARNESS_FILES = {"BasicClientActorAbs", "ActorClient"}  # the course's files the tournament subclasses sit beside
# import name -> distribution name (setup.cfg); a third-party import missing here fails the scan
DISTRIBUTION = {"numpy": "numpy", "numba": "numba", "llvmlite": "numba", "onnx": "onnx",
                "onnxruntime": "onnxruntime", "pexpect": "pexpect", "tqdm": "tqdm", "matplotlib": "matplotlib",
                "cryptography": "cryptography", "torch": "torch", "ray": "ray", "pyspiel": "open-spiel",
                "open_spiel": "open-spiel", "psutil": "psutil", "hypothesis": "hypothesis", "pytest": "pytest",
                "sgfmill": "sgfmill"}
# the code whose top-level imports must come with a plain `pip install .`: what an adapter imports
RUNTIME_TREES = ("adapters", "protocols", "engines")


def _names(value: str) -> set[str]:
    return {re.split(r"[<>=!~\[; ]", line.strip(), maxsplit=1)[0].lower()
            for line in value.splitlines() if line.strip() and not line.strip().startswith("#")}


def read_setup(text: str | None = None):
    """(install_requires names, {extra: names}, {extra: the raw requirement lines})."""
    cfg = configparser.ConfigParser()
    cfg.read_string(text if text is not None else (ROOT / "setup.cfg").read_text())
    extras = cfg["options.extras_require"]
    return (_names(cfg["options"]["install_requires"]), {k: _names(v) for k, v in extras.items()},
            {k: [line.strip() for line in v.splitlines() if line.strip()] for k, v in extras.items()})


def imports_of(source: str, top_level_only: bool) -> set[str]:
    """The top-level package names a module imports (absolute imports); with top_level_only, only the
    imports that run when the module is imported (not those inside a function body)."""
    found = set()
    stack = [ast.parse(source)]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if top_level_only and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.Import):
                found |= {a.name.split(".")[0] for a in child.names}
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                found.add(child.module.split(".")[0])
            stack.append(child)
    return found


def third_party(names: set[str], where: str, local: set[str] = frozenset()) -> set[str]:
    """The distributions of the third-party names (local: the modules beside the file); an unknown one
    fails (add it to DISTRIBUTION and setup.cfg)."""
    out = set()
    for name in names - FIRST_PARTY - HARNESS_FILES - local - set(sys.stdlib_module_names) - {"__future__"}:
        assert name in DISTRIBUTION, f"{where} imports {name}, a package this test does not know: add it to " \
                                     f"setup.cfg's requirements and to DISTRIBUTION here"
        out.add(DISTRIBUTION[name])
    return out


def scan(paths, top_level_only: bool, root: Path = ROOT) -> dict[str, set[str]]:
    """{file: the distributions it imports} over the .py files of these folders/files."""
    result = {}
    for base in paths:
        base = root / base
        for path in ([base] if base.is_file() else sorted(base.rglob("*.py"))):
            rel = str(path.relative_to(root))
            local = {p.stem for p in path.parent.glob("*.py")}
            dists = third_party(imports_of(path.read_text(), top_level_only), rel, local)
            if dists:
                result[rel] = dists
    return result


def runtime_offenders(install_requires: set[str], root: Path = ROOT) -> dict[str, set[str]]:
    found = scan(RUNTIME_TREES, top_level_only=True, root=root)
    return {f: d - install_requires for f, d in found.items()
            if not f.startswith("engines/learn/") and d - install_requires}


# ==== setup.cfg against the imports ================================================================
def test_no_adapter_module_imports_more_than_the_runtime_at_import():
    """A plain `pip install .` runs every adapter: adapters/, protocols/ and engines/ (but the training
    package engines/learn) import at module level only what install_requires brings."""
    install_requires, _, _ = read_setup()
    assert runtime_offenders(install_requires) == {}


def test_the_scan_sees_a_top_level_import_of_an_extra(tmp_path):
    """The scan itself: a module-level import of an optional package (also under try/if) is caught; the
    same import inside a function (a lazy import of an optional extra) is not."""
    (tmp_path / "engines").mkdir()
    (tmp_path / "engines" / "a.py").write_text("import numpy\ntry:\n    import matplotlib.pyplot\nexcept ImportError:\n"
                                               "    pass\n")
    (tmp_path / "engines" / "b.py").write_text("def f():\n    import torch\n")
    (tmp_path / "engines" / "learn").mkdir()
    (tmp_path / "engines" / "learn" / "c.py").write_text("import torch\n")
    assert runtime_offenders({"numpy"}, root=tmp_path) == {"engines/a.py": {"matplotlib"}}


def test_every_import_of_each_job_is_in_its_extra():
    """Each job's code, lazy imports included, finds its packages in the runtime plus its extra."""
    runtime, extras, _ = read_setup()
    jobs = {  # the code -> what installs its packages
        ("adapters", "protocols", "engines/games", "engines/search", "engines/knowledge"): runtime | extras["dev"],
        ("engines/learn",): runtime | extras["train"],
        ("standins", "regress"): runtime | extras["demo"],
        ("tests",): runtime | extras["dev"] | extras["train"],
        ("bench",): runtime | extras["bench"] | extras["train"],
    }
    missing = {}
    for trees, allowed in jobs.items():
        for f, dists in scan(trees, top_level_only=False).items():
            if dists - allowed:
                missing[f] = dists - allowed
    assert missing == {}


def test_the_extras_fit_their_jobs():
    runtime, extras, raw = read_setup()
    assert {"numpy", "numba"} <= runtime
    tooling = {"pytest", "pytest-timeout", "hypothesis", "open-spiel", "psutil", "wheel", "torch", "ray"}
    assert "onnxruntime" in runtime, "any user's network plays through onnxruntime in every Hex adapter"
    assert not (runtime | extras["demo"]) & tooling, "the runtime and the demo carry no test, bench or training tool"
    assert extras["demo"] <= extras["dev"], "the tests exercise what the demo runs"
    assert "torch==2.13.0" in raw["train"], "torch pinned to the local CPU build"
    assert not any(line.startswith("torch") for name, lines in raw.items() if name != "train" for line in lines)


# ==== the Makefile =================================================================================
needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="no make")


def make_n(*args, venv) -> str:
    """What make would run (nothing is run: -n), for a venv at this path."""
    done = subprocess.run(["make", "-n", "--no-print-directory", *args, f"VENV={venv}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def pip_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if "pip install" in line]


@needs_make
def test_make_demo_installs_the_runtime_and_the_demo_extra_not_dev(tmp_path):
    lines = pip_lines(make_n("demo", venv=tmp_path / "venv"))
    assert lines, "a fresh venv gets installs"
    assert not any("dev" in line or "torch" in line or "train" in line for line in lines), lines
    assert any(line.endswith("-e .") for line in lines) and any("'.[demo]'" in line for line in lines)


@needs_make
def test_make_install_is_the_runtime_alone_and_make_test_has_dev_and_train(tmp_path):
    assert [line.split("pip ")[1] for line in pip_lines(make_n("install", venv=tmp_path / "venv"))] \
        == ["install --quiet -e ."]
    lines = pip_lines(make_n("test", venv=tmp_path / "venv"))
    torch = next(i for i, line in enumerate(lines) if "torch==2.13.0" in line)
    train = next(i for i, line in enumerate(lines) if "'.[" in line and "train" in line)
    assert torch < train and "[" not in lines[torch], "the CPU torch goes in first, alone"
    assert any("'.[dev,train]'" in line for line in lines)


def touched(text: str) -> set[str]:
    return {Path(line.split()[1]).name for line in text.splitlines() if line.startswith("touch ")}


@needs_make
def test_each_install_leaves_its_stamp(tmp_path):
    assert touched(make_n("install", venv=tmp_path / "venv")) == {".installed"}
    assert touched(make_n("demo", venv=tmp_path / "venv")) == {".installed", ".installed-demo"}
    assert touched(make_n("test", venv=tmp_path / "venv")) == {".installed", ".installed-train", ".installed-dev"}


@needs_make
def test_a_second_run_installs_nothing_and_warms_the_cache(tmp_path):
    venv = tmp_path / "venv"
    venv.mkdir()
    later = time.time() + 10  # newer than setup.cfg and pyproject.toml
    for stamp in (".installed", ".installed-demo", ".installed-train", ".installed-dev"):
        (venv / stamp).touch()
        os.utime(venv / stamp, (later, later))
    for target in ("install", "demo", "test"):
        text = make_n(target, venv=venv)
        assert pip_lines(text) == [] and "-m venv" not in text, (target, pip_lines(text))
        assert "engines.warmup" in text, f"make {target} leaves a warm cache"


@needs_make
def test_the_demo_shows_every_move_only_when_asked(tmp_path):
    venv = tmp_path / "venv"
    short, shown = make_n("demo", venv=venv), make_n("demo", "SHOW=1", venv=venv)
    assert "--show" not in short and "--long" not in short and "--display 0" in short and "--quiet" in short
    assert re.search(r"plies demo --show", shown) and re.search(r"littlego match .*--show", shown)
    assert re.search(r"othello_manager .*\n?.*--show", shown) and "--display 4" in shown and "--long" in shown


# ==== plies demo ===================================================================================
def test_plies_demo_prints_each_final_board_and_result(capsys):
    assert cli.cmd_demo(argparse.Namespace(simulations=20, show=False)) == 0
    short = capsys.readouterr().out
    assert short.count("result after") == 3
    assert "move 1:" not in short, "no move by move boards"
    assert "game over" in short and "winner" in short, "the final boards (Othello, Go; Hex) are drawn"
    assert cli.cmd_demo(argparse.Namespace(simulations=20, show=True)) == 0
    shown = capsys.readouterr().out
    assert shown.count("result after") == 3 and "move 1:" in shown and len(shown) > 3 * len(short)
    finals = [line for line in short.splitlines() if line.startswith("result after")]
    assert finals == [line.strip() for line in shown.splitlines() if line.startswith("result after")], \
        "the same games"
