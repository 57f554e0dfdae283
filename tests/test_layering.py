"""The one-way dependencies of ARCHITECTURE.md: adapters -> protocols, adapters -> engines;
protocols never import the engine, the engine never imports protocols or adapters nor names a
harness's wire format, what a harness runs never imports the stand-ins of the harnesses, and no
playing path imports the training package (engines.learn)."""
import ast
import re
from pathlib import Path

import pytest

from conftest import ROOT

HARNESS_WORDS = re.compile(r"\b(gtp|otp|oht|gogui|input\.txt|output\.txt|judge)\b", re.IGNORECASE)


# the command line wires every verb, the local stand-ins' and training's included; everything else in
# adapters/ is run by a harness
COMMAND_LINE = {"cli.py", "hex_cli.py", "hex_train.py"}


def imported_modules(path: Path) -> set[str]:
    """Every module path a file imports, anywhere in it (top level or inside a function)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def imported_packages(path: Path) -> set[str]:
    return {name.split(".")[0] for name in imported_modules(path)}


def hidden_imports(path: Path) -> list[str]:
    """Calls that import a module by name (importlib.import_module, __import__): they hide an arrow."""
    text = path.read_text()
    return [f"{path.relative_to(ROOT)}:{i}" for i, line in enumerate(text.splitlines(), 1)
            if re.search(r"\bimport_module\(|\b__import__\(", line)]


def sources(package: str) -> list[Path]:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no sources under {package}/"
    return files


@pytest.mark.parametrize("package, forbidden", [("protocols", {"engines", "adapters", "standins"}),
                                                ("engines", {"protocols", "adapters", "standins"})])
def test_imports_point_one_way(package, forbidden):
    offenders = {str(p.relative_to(ROOT)): sorted(imported_packages(p) & forbidden) for p in sources(package)}
    assert {k: v for k, v in offenders.items() if v} == {}


def playing_adapters() -> list[Path]:
    return [p for p in sources("adapters") if p.name not in COMMAND_LINE]


def test_adapters_import_no_stand_in():
    offenders = {p.name: sorted(n for n in imported_modules(p) if n.split(".")[0] in ("standins", "bench"))
                 for p in playing_adapters()}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_no_playing_adapter_imports_training():
    offenders = {p.name: sorted(n for n in imported_modules(p) if n.startswith("engines.learn"))
                 for p in playing_adapters()}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_engine_imports_training_only_from_training():
    """Knowledge, search and rules work without the training package (its PyTorch is optional)."""
    offenders = {str(p.relative_to(ROOT)): sorted(n for n in imported_modules(p) if n.startswith("engines.learn"))
                 for p in sources("engines") if "learn" not in p.relative_to(ROOT).parts}
    assert {k: v for k, v in offenders.items() if v} == {}


@pytest.mark.parametrize("package", ["engines", "protocols", "adapters", "standins", "regress"])
def test_no_module_is_imported_by_name(package):
    """Plain imports wherever a module depends on another.  Only the standalone copies of a player
    (my_player3.py, othello_agent.py) look plies up, and they use find_spec, not import_module."""
    assert [hit for p in sources(package) for hit in hidden_imports(p)] == []


def test_the_engine_names_no_harness():
    named = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}" for p in sources("engines")
             for i, line in enumerate(p.read_text().splitlines(), 1) if HARNESS_WORDS.search(line)]
    assert named == []


def test_the_checks_see_an_offending_import(tmp_path):
    """The scanner itself: a file that imports the engine is caught."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom engines.games import make_game\nimport adapters.cli as cli\n")
    assert imported_packages(bad) == {"os", "engines", "adapters"}
    assert "engines.games.make_game" in imported_modules(bad)
    hidden = tmp_path / "hidden.py"
    hidden.write_text("import importlib\nmod = importlib.import_module('engines.learn.topp')\n")
    hidden = hidden.rename(ROOT / "tests" / f"_hidden_probe_{tmp_path.name}.py")
    try:
        assert hidden_imports(hidden) == [f"tests/{hidden.name}:2"]
    finally:
        hidden.unlink()
    assert HARNESS_WORDS.search("parse a GTP vertex") and not HARNESS_WORDS.search("a gtpx word")


def test_tests_import_no_benchmark():
    """bench/ holds figures only; the stand-ins the tests drive are the installed package standins."""
    offenders = {p.name: sorted(n for n in imported_modules(p) if n.split(".")[0] == "bench")
                 for p in sorted((ROOT / "tests").glob("*.py"))}
    assert {k: v for k, v in offenders.items() if v} == {}
