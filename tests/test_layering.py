"""The one-way dependencies of ARCHITECTURE.md: adapters -> protocols, adapters -> engines;
protocols never import the engine, the engine never imports protocols or adapters nor names a
harness's wire format, what a harness runs never imports the stand-ins of the harnesses, and no
playing path imports the training package (engines.learn).  The import graph of the installed
packages has no circle, and the search (engines/search) names no game.

The graph: one node per module (a file of engines/, protocols/, adapters/, standins/, regress/, a
package by its __init__.py), one edge per import written in it, at the top or inside a function,
``from X import Y`` counting as an import of X.Y when Y is a submodule, else of X.  A package's
__init__ is a node like any module: importing X.Y does not count as importing X (Python runs X's
__init__ first, but a module depends on what it names)."""
import ast
import re
from pathlib import Path

import pytest

from conftest import ROOT

HARNESS_WORDS = re.compile(r"\b(gtp|otp|oht|gogui|input\.txt|output\.txt|judge)\b", re.IGNORECASE)
GRAPH_PACKAGES = ("engines", "protocols", "adapters", "standins", "regress")
# a word naming a game, as a whole module name or identifier or one of its "_"-separated parts
GAME_WORDS = {"go", "go5", "gnugo", "littlego", "othello", "hex", "hexconv"}


# the command line wires every verb, the local stand-ins' and training's included; everything else in
# adapters/ is run by a harness
COMMAND_LINE = {"cli.py"}


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


@pytest.mark.parametrize("package, forbidden", [("protocols", {"engines", "adapters", "standins", "regress"}),
                                                ("engines", {"protocols", "adapters", "standins", "regress"})])
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
    hidden.write_text("import importlib\nmod = importlib.import_module('engines.learn.hex.topp')\n")
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


# ---- the import graph ---------------------------------------------------------------------------

def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_edges(path: Path, modules, root: Path = ROOT) -> set[str]:
    """The modules of ``modules`` (names) that the file imports, anywhere in it (relative imports
    resolved against its package)."""
    here = module_name(path, root)
    package = here.split(".") if path.name == "__init__.py" else here.split(".")[:-1]
    edges = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            edges.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    edges.add(f"{source}.{alias.name}")
                elif source in modules:
                    edges.add(source)
    edges.discard(here)
    return edges


def import_graph(root: Path = ROOT, packages=GRAPH_PACKAGES) -> dict[str, set[str]]:
    """module -> the modules it imports, over the packages' sources."""
    files = {module_name(p, root): p for package in packages for p in sorted((root / package).rglob("*.py"))}
    return {name: import_edges(path, files, root) for name, path in files.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of the graph as [a, b, ..., a], None when it has none (depth-first search; the
    colours: absent = unseen, 1 = on the current path, 2 = done)."""
    colour: dict[str, int] = {}
    for start in sorted(graph):
        if start in colour:
            continue
        path, stack = [start], [iter(sorted(graph[start]))]
        colour[start] = 1
        while stack:
            step = next(stack[-1], None)
            if step is None:
                colour[path.pop()] = 2
                stack.pop()
            elif colour.get(step) == 1:
                return path[path.index(step):] + [step]
            elif step not in colour and step in graph:
                colour[step] = 1
                path.append(step)
                stack.append(iter(sorted(graph[step])))
    return None


def test_the_import_graph_has_no_circle():
    graph = import_graph()
    assert len(graph) > 100 and "engines.search.factory" in graph["engines.search"]
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def names_a_game(name: str) -> bool:
    return any(part.lower() in GAME_WORDS for word in name.split(".") for part in word.split("_"))


def game_specific(graph: dict[str, set[str]]) -> set[str]:
    """The modules of engines/games and engines/knowledge that belong to one game: named after it (or
    in a package named after it), or importing a game's rules directly (e.g. a network loader that
    checks Hex board sizes)."""
    rules = {m for m in graph if m.startswith("engines.games.") and names_a_game(m[len("engines.games."):])}
    knowledge = {m for m in graph if m.startswith("engines.knowledge.")
                 and (names_a_game(m[len("engines.knowledge."):]) or graph[m] & rules)}
    return rules | knowledge


def identifiers(path: Path) -> set[str]:
    """Every name a file writes: variables, attributes, functions, classes, arguments, imports."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.update(filter(None, (node.name, node.asname)))
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_search_names_no_game():
    """A policy network reaches the search as a kernel in the knowledge bundle, a game's default
    knowledge through the registry: engines/search imports no game's rules or knowledge, and no
    name in it names a game."""
    graph = import_graph()
    specific = game_specific(graph)
    assert {"engines.games.go", "engines.knowledge.hex.conv", "engines.knowledge.hex.network",
            "engines.knowledge.othello.endgame"} <= specific
    assert not specific & {"engines.knowledge.bundle", "engines.knowledge.registry", "engines.knowledge.priors"}
    search = sorted(m for m in graph if m == "engines.search" or m.startswith("engines.search."))
    assert "engines.search.mcts" in search
    assert {m: sorted(graph[m] & specific) for m in search if graph[m] & specific} == {}
    named = {str(p.relative_to(ROOT)): sorted(n for n in identifiers(p) if names_a_game(n))
             for p in sources("engines/search")}
    assert {k: v for k, v in named.items() if v} == {}


def test_the_factory_and_the_registry_sit_on_top():
    """make_searcher's factory is imported by the package's __init__ only, which no search imports;
    no knowledge module imports the registry, and the bundle dataclasses import no game."""
    graph = import_graph()
    importers = {m: sorted(n for n in graph if m in graph[n] and n.startswith(("engines.search", "engines.knowledge")))
                 for m in ("engines.search", "engines.search.factory", "engines.knowledge.registry")}
    assert importers["engines.search"] == [] and importers["engines.search.factory"] == ["engines.search"]
    assert [m for m in importers["engines.knowledge.registry"] if m.startswith("engines.knowledge")] == []
    assert not graph["engines.knowledge.bundle"] & game_specific(graph)


def test_the_graph_checks_see_a_circle_and_a_game(tmp_path):
    """The scanner itself, on a small tree: a circle through a function-level import of a submodule
    named in ``from X import Y`` is found, and a search that imports a game's network is caught."""
    (tmp_path / "engines" / "search").mkdir(parents=True)
    (tmp_path / "engines" / "knowledge").mkdir()
    for name, text in {"__init__.py": "", "search/__init__.py": "from engines.search.mcts import MCTS\n",
                       "search/base.py": "def make():\n    from engines.search import mcts\n",
                       "search/mcts.py": "from .base import make\nfrom engines.knowledge.hex.conv import pack\n",
                       "knowledge/__init__.py": "", "knowledge/hex/__init__.py": "",
                       "knowledge/hex/conv.py": "import numpy\n"}.items():
        (tmp_path / "engines" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "engines" / name).write_text(text)
    graph = import_graph(tmp_path, ("engines",))
    assert graph["engines.search.base"] == {"engines.search.mcts"}
    assert graph["engines.search.mcts"] == {"engines.search.base", "engines.knowledge.hex.conv"}
    assert find_cycle(graph) in (["engines.search.base", "engines.search.mcts", "engines.search.base"],
                                 ["engines.search.mcts", "engines.search.base", "engines.search.mcts"])
    assert game_specific(graph) == {"engines.knowledge.hex", "engines.knowledge.hex.conv"}
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert names_a_game("pack_go5_weights") and names_a_game("hexconv") and not names_a_game("good_moves")
