"""What the GTP engine adapters (plies-gtp for Go: adapters/go_gtp.py; plies-gtp-hex:
adapters/gtp_hex.py) share: the command line built from a Settings dataclass (adapters/config.py),
the checks of the search budget, the GtpEngine over a session's table, and the session plumbing of
a game record that keeps the search tree while the game goes on as the tree foresaw."""
import argparse
import dataclasses
import math
import os
from pathlib import Path

from adapters import config
from adapters.config import ConfigError
from protocols import gtp
from protocols.common import ProtocolError


def make_engine(session) -> gtp.GtpEngine:
    """The GTP engine over session's command table (ids echoed, "unknown command" for the others)."""
    return gtp.GtpEngine(session.commands(), echo_ids=True, unknown="unknown command")


def build_parser(prog: str, description: str, settings_class, config_example: str,
                 epilog: str) -> argparse.ArgumentParser:
    """A flag for every key of settings_class (left at None when not given: the file and environment
    decide), and --config FILE."""
    p = argparse.ArgumentParser(prog=prog, description=description,
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=epilog)
    p.add_argument("--config", type=Path,
                   help=f"a TOML file of settings, the keys of the flags below ({config_example})")
    for field in dataclasses.fields(settings_class):
        flag, kind = "--" + field.name.replace("_", "-"), field.metadata["kind"]
        default = "none" if field.default is None else field.default
        text = f"{field.metadata['meaning']} [default {default}]"
        if kind is bool:
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=None, help=text)
        else:
            p.add_argument(flag, type=kind, default=None, help=text, choices=field.metadata.get("choices"))
    return p


def epilog(env_prefix: str, env_example: str, exit_status: dict) -> str:
    """The --help text after the flags: the environment variables and the exit statuses."""
    statuses = "\n".join(f"  {status}  {meaning}" for status, meaning in exit_status.values())
    return (f"Every key can also be set in the environment as {env_prefix}_<KEY> (e.g. "
            f"{env_prefix}_{env_example});\nflags override the environment, which overrides the --config file."
            f"\n\nexit status:\n{statuses}")


def load_settings(settings_class, args: argparse.Namespace, env_prefix: str, env=os.environ):
    """The settings of a command line: its flags over the environment over --config FILE over the
    defaults.  ConfigError for a bad key or value, naming it and where it came from."""
    if args.config is not None and not args.config.is_file():
        raise ConfigError(f"--config: no file {args.config}")
    flags = {field.name: getattr(args, field.name) for field in dataclasses.fields(settings_class)}
    return config.load(settings_class, file=args.config, env_prefix=env_prefix, env=env, flags=flags)


def budget_problems(settings, min_size: int, max_size: int) -> list[str]:
    """What is wrong with settings' size (None: any), time and simulations, one sentence each."""
    problems = []
    if settings.size is not None and not min_size <= settings.size <= max_size:
        problems.append(f"size must be in {min_size}..{max_size}, got {settings.size}")
    if not (math.isfinite(settings.time) and settings.time >= 0):
        problems.append(f"time must be a finite number >= 0, got {settings.time}")
    if settings.simulations is not None and settings.simulations < 1:
        problems.append(f"simulations must be at least 1, got {settings.simulations}")
    if settings.time == 0 and settings.simulations is None:
        problems.append("time 0 needs simulations N")
    return problems


class TreeRecord:
    """Session plumbing: ``states`` (positions, the current last), ``moves`` (what was played),
    ``searcher`` and ``tree_state`` (the position the searcher's tree stands at, None: none kept)
    are the session's; UNDO_REFUSAL is the error text of undo with no move to take back."""

    UNDO_REFUSAL = "cannot undo"

    def went_on(self, before, action: int, after, record) -> None:
        """The game went from before to after by action (record goes into ``moves``); the tree is
        kept when it stood at before."""
        import numpy as np  # here, not at the top: a cold start answers without numpy (engines/players/coldstart.py)
        if self.tree_state is not None and np.array_equal(self.tree_state, before):
            self.searcher.advance(action)
            self.tree_state = after
        else:
            self.tree_state = None
        self.states.append(after)
        self.moves.append(record)

    def cmd_undo(self, args):
        if not self.moves:
            raise ProtocolError(self.UNDO_REFUSAL)
        self.moves.pop()
        self.states.pop()
        self.tree_state = None
        return ""
