"""Every command line's --help prints its usage and exits 0.  argparse formats help strings with
%-formatting only when help is asked for, so a stray "%" in one option's help (it happened: "index % 10")
crashes --help and nothing else: each entry point is asked for it here, and every ``plies`` subcommand.
The entry points are found, not listed: every module of the project's packages with a ``__main__`` block,
less those that take no options (WITHOUT_OPTIONS says why each)."""
import argparse
import configparser
import contextlib
import importlib
import io
from pathlib import Path

import pytest

from adapters import cli

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engines", "adapters", "regress", "standins", "protocols", "bench")
WITHOUT_OPTIONS = {
    "adapters.my_player3": "the Little-Go host runs it bare; it reads input.txt",
    "adapters.oht_actor_a": "the course's client script: it connects at once",
    "adapters.oht_actor_b": "the course's client script: it connects at once",
    "adapters.othello_agent": "the game manager spawns it; its settings come from a file",
    "standins.littlego_opponents": "one positional name (it prints its usage otherwise)",
    "standins.otp_judge": "positional PORT ROUNDS -- CMD -- CMD (it prints its usage otherwise)",
    "standins.othello_randy": "a random agent of the manager's protocol, no arguments",
}


def _entry_points():
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if 'if __name__ == "__main__"' in path.read_text(encoding="utf-8"):
                found.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return found


ENTRY_POINTS = [m for m in _entry_points() if m not in WITHOUT_OPTIONS]
OPTIONAL_PACKAGES = {"pyspiel": "open-spiel, the bench extra: some benches compare with its bots"}


def test_the_entry_points_are_all_found():
    """The console scripts of setup.cfg (what a user types) are among them, and every exception is real."""
    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg")
    scripts = {line.split("=")[1].strip().split(":")[0]
               for line in setup["options.entry_points"]["console_scripts"].strip().splitlines()}
    assert scripts <= set(ENTRY_POINTS)
    assert set(WITHOUT_OPTIONS) <= set(_entry_points())
    assert len(ENTRY_POINTS) >= 20


@pytest.mark.parametrize("module", ENTRY_POINTS)
def test_help_prints_usage_and_exits_0(module):
    try:
        entry = importlib.import_module(module)
    except ModuleNotFoundError as err:
        if err.name not in OPTIONAL_PACKAGES:
            raise
        pytest.skip(f"{module} needs {err.name}, an optional package ({OPTIONAL_PACKAGES[err.name]})")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        entry.main(["--help"])
    assert stop.value.code in (0, None)
    assert out.getvalue().startswith("usage:")


def _subparsers(parser):
    for action in parser._actions:  # argparse keeps its subcommands only here
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield sub
                yield from _subparsers(sub)


def test_every_plies_subcommand_formats_its_help():
    subs = list(_subparsers(cli.build_parser()))
    assert len(subs) >= 5
    for sub in subs:
        assert sub.format_help().startswith("usage:")
