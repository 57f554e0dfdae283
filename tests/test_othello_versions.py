"""bench.othello_versions runs each engine from the checkout its command names: an engine of another
revision (``env PYTHONPATH=DIR python -m adapters.otp``) must run DIR's code even though the bench runs in
today's checkout, whose own ``adapters`` package ``python -m`` would otherwise put first on the path."""
import sys
from pathlib import Path

from bench.othello_versions import Engine

PROJECT = Path(__file__).resolve().parents[1]


def fake_checkout(root: Path, name: str) -> Path:
    """A checkout whose ``adapters.otp`` answers ``name NAME`` to every line."""
    package = root / "adapters"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "otp.py").write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        f"    print('name {name}', flush=True)\n")
    return root


def test_an_engine_runs_the_checkout_its_command_names(tmp_path, monkeypatch):
    other = fake_checkout(tmp_path / "other", "other-revision")
    monkeypatch.chdir(PROJECT)  # the bench runs in today's checkout, which has an adapters package too
    engine = Engine(f"env PYTHONPATH={other} {sys.executable} -m adapters.otp")
    try:
        answer, _ = engine.ask("name", 30.0)
    finally:
        engine.proc.kill()
        engine.proc.wait()
    assert answer == "name other-revision"

