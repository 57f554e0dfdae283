"""One way to configure every adapter.

An adapter's settings are a frozen dataclass whose fields are made with ``setting(default, meaning)``
(every tunable in one place, with its default and one line saying what it means).  ``load`` fills
it from, in increasing priority:

  1. the defaults;
  2. one TOML file beside the player (``<player>.toml``, read with tomllib; same keys);
  3. environment variables, ``PLIES_<ADAPTER>_<KEY>`` (the key in upper case), documented overrides
     for harnesses that pass no flags;
  4. command-line flags, where the harness lets a user pass them (a flag left at None is not given).

A bad key or value raises ConfigError naming the key and where it came from.  ``describe`` lists the
keys with their defaults and meanings (for ``--help`` and the README).
"""
import argparse
import dataclasses
import os
import tomllib
from pathlib import Path

from engines.settings import convert, setting  # noqa: F401  (setting: the field every settings dataclass is made of)


class ConfigError(ValueError):
    """A setting that cannot be used: names the key, the value and its source."""


def env_name(prefix: str, key: str) -> str:
    return f"{prefix}_{key.upper()}"


def _convert(cls, key: str, value, source: str):
    """value as the type of cls's field key (engines/settings.py: convert); ConfigError naming the source."""
    try:
        return convert({f.name: f for f in dataclasses.fields(cls)}[key], value)
    except ValueError as err:
        read, expected = err.args
        raise ConfigError(f"{key} = {read!r} ({source}): {expected}") from None


def read_toml(path) -> dict:
    """The table of a TOML settings file ({} when the file does not exist)."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError as err:  # tomllib reads UTF-8 only
        raise ConfigError(f"cannot read the settings file {path}: not UTF-8 text ({err.reason} at byte "
                          f"{err.start})") from None
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"cannot read the settings file {path}: {err}") from None


def load(cls, *, file=None, env_prefix: str | None = None, env=os.environ, flags: dict | None = None):
    """An instance of the settings dataclass cls from the defaults, the TOML file, the environment
    and the flags, in that order of priority (see the module's docstring)."""
    keys = [f.name for f in dataclasses.fields(cls)]
    values, sources = {}, {}

    def take(key, value, source):
        values[key], sources[key] = _convert(cls, key, value, source), source

    if file is not None:
        table = read_toml(file)
        unknown = sorted(set(table) - set(keys))
        if unknown:
            raise ConfigError(f"unknown key(s) {', '.join(unknown)} in {file}; the keys: {', '.join(keys)}")
        for key, value in table.items():
            take(key, value, str(file))
    if env_prefix:
        for key in keys:
            text = env.get(env_name(env_prefix, key))
            if text not in (None, ""):
                take(key, text, env_name(env_prefix, key))
    for key, value in (flags or {}).items():
        if key not in keys:
            raise ConfigError(f"unknown setting {key!r}; the keys: {', '.join(keys)}")
        if value is not None:
            take(key, value, "command line")
    try:
        return cls(**values)
    except (TypeError, ValueError) as err:  # the dataclass's own checks: say where the values came from
        given = "; ".join(f"{key} from {source}" for key, source in sources.items())
        raise ConfigError(f"{err}" + (f" ({given})" if given else "")) from None


def add_setting_flags(parser, cls, skip=()) -> None:
    """One command-line flag per field of the settings dataclass cls (``--key-name``; dest the key),
    with its meaning and default as help; None when not given, so the file and the environment
    decide.  Values are text converted by ``load`` (one conversion for flags, files and environment:
    a bool flag takes true/false/1/0/yes/no/on/off, or nothing: true; ``--no-key`` is false).  ``skip``:
    keys the adapter gives flags itself."""
    for f in dataclasses.fields(cls):
        if f.name in skip:
            continue
        choices = f.metadata.get("choices")
        meaning = f.metadata.get("meaning", "").replace("%", "%%")  # argparse %-formats help texts
        if f.metadata.get("kind") is bool:
            flag = f.name.replace("_", "-")
            parser.add_argument("--" + flag, dest=f.name, default=None, nargs="?", const="true", metavar="BOOL",
                                help=f"{meaning} [default {f.default!r}]")
            parser.add_argument("--no-" + flag, dest=f.name, action="store_const", const="false",
                                help=argparse.SUPPRESS)
            continue
        parser.add_argument("--" + f.name.replace("_", "-"), dest=f.name, default=None,
                            metavar=None if choices else f.name.upper(),
                            choices=None if choices is None else [str(c) for c in choices],
                            help=f"{meaning} [default {f.default!r}]")


def setting_flags(args, cls) -> dict:
    """The flags ``add_setting_flags`` made, read back from argparse's namespace (None: not given)."""
    return {f.name: getattr(args, f.name, None) for f in dataclasses.fields(cls)}


def describe(cls, env_prefix: str | None = None) -> str:
    """One line per key: name, default, meaning (and its environment variable)."""
    lines = []
    for f in dataclasses.fields(cls):
        env = f" [{env_name(env_prefix, f.name)}]" if env_prefix else ""
        lines.append(f"  {f.name} = {f.default!r}{env}: {f.metadata.get('meaning', '')}")
    return "\n".join(lines)


# ==== the command line of an adapter: a flag per key, --config FILE, the settings they make ===========
def settings_parser(prog: str, description: str, settings_class, config_example: str, epilog: str,
                    skip=()) -> argparse.ArgumentParser:
    """A flag for every key of settings_class but ``skip`` (add_setting_flags; left at None when not
    given: the file and environment decide), and --config FILE."""
    p = argparse.ArgumentParser(prog=prog, description=description,
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=epilog)
    p.add_argument("--config", type=Path,
                   help=f"a TOML file of settings, the keys of the flags below ({config_example})")
    add_setting_flags(p, settings_class, skip)
    return p


def settings_epilog(env_prefix: str, env_example: str, exit_status: dict) -> str:
    """The --help text after the flags: the environment variables and the exit statuses."""
    statuses = "\n".join(f"  {status}  {meaning}" for status, meaning in exit_status.values())
    return (f"Every key can also be set in the environment as {env_prefix}_<KEY> (e.g. "
            f"{env_prefix}_{env_example});\nflags override the environment, which overrides the --config file."
            f"\n\nexit status:\n{statuses}")


def command_line_settings(settings_class, args: argparse.Namespace, env_prefix: str, env=os.environ):
    """The settings of a command line: its flags over the environment over --config FILE over the
    defaults.  ConfigError for a bad key or value, naming it and where it came from."""
    if args.config is not None and not args.config.is_file():
        if args.config.is_dir():
            raise ConfigError(f"--config: {args.config} is a directory, not a TOML file")
        raise ConfigError(f"--config: no file {args.config}")
    return load(settings_class, file=args.config, env_prefix=env_prefix, env=env,
                flags=setting_flags(args, settings_class))
