"""The one-way dependencies of ARCHITECTURE.md: adapters -> protocols, adapters -> engines;
protocols never import the engine, and the engine never imports protocols or adapters nor names a
harness's wire format."""
import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HARNESS_WORDS = re.compile(r"\b(gtp|otp|oht|gogui|input\.txt|output\.txt|judge)\b", re.IGNORECASE)


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def sources(package: str) -> list[Path]:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no sources under {package}/"
    return files


@pytest.mark.parametrize("package, forbidden", [("protocols", {"engines", "adapters"}),
                                                ("engines", {"protocols", "adapters"})])
def test_imports_point_one_way(package, forbidden):
    offenders = {str(p.relative_to(ROOT)): sorted(imported_packages(p) & forbidden) for p in sources(package)}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_engine_names_no_harness():
    named = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}" for p in sources("engines")
             for i, line in enumerate(p.read_text().splitlines(), 1) if HARNESS_WORDS.search(line)]
    assert named == []


def test_the_checks_see_an_offending_import(tmp_path):
    """The scanner itself: a file that imports the engine is caught."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom engines.games import make_game\nimport adapters.cli as cli\n")
    assert imported_packages(bad) == {"os", "engines", "adapters"}
    assert HARNESS_WORDS.search("parse a GTP vertex") and not HARNESS_WORDS.search("a gtpx word")
