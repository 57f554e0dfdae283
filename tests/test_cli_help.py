"""Every command line's --help prints its usage and exits 0.  argparse formats help strings with
%-formatting only when help is asked for, so a stray "%" in one option's help (it happened: "index % 10")
crashes --help and nothing else: each entry point is asked for it here, and every ``plies`` subcommand."""
import argparse
import contextlib
import importlib
import io

import pytest

from adapters import cli

ENTRY_POINTS = [
    "engines.warmup", "engines.learn.go.mm", "engines.learn.go.policy", "engines.learn.hex.patterns_mm",
    "engines.learn.hex.policy", "engines.learn.othello.book", "engines.learn.othello.probcut_fit",
    "engines.learn.othello.train", "adapters.cli", "adapters.gtp_hex", "adapters.go5", "adapters.go_gtp",
    "adapters.oht_client", "adapters.otp", "regress.fake_engine", "regress.go_match", "regress.runner",
]


@pytest.mark.parametrize("module", ENTRY_POINTS)
def test_help_prints_usage_and_exits_0(module):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        importlib.import_module(module).main(["--help"])
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
