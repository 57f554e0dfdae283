"""adapters/config.py: the one settings path of every adapter (defaults < TOML file < environment < flags)."""
from dataclasses import dataclass

import pytest

from adapters import config
from adapters.config import ConfigError, setting


@dataclass(frozen=True)
class Example:
    seconds: float = setting(2.0, "CPU seconds per move")
    capacity: int = setting(1 << 10, "MCTS nodes")
    verbose: bool = setting(False, "one line per move on stderr")
    mode: str = setting("search", "how moves are chosen", choices=("search", "greedy"))
    network: str | None = setting(None, "an ONNX file", kind=str)

    def __post_init__(self):
        if self.seconds <= 0:
            raise ValueError(f"seconds must be positive, got {self.seconds}")


def test_defaults_when_nothing_is_given(tmp_path):
    assert config.load(Example, file=tmp_path / "absent.toml", env_prefix="PLIES_X", env={}) == Example()


def test_each_source_overrides_the_one_before(tmp_path):
    f = tmp_path / "player.toml"
    f.write_text('seconds = 3.5\ncapacity = 64\nmode = "greedy"\n')
    env = {"PLIES_X_SECONDS": "4", "PLIES_X_VERBOSE": "yes"}
    s = config.load(Example, file=f, env_prefix="PLIES_X", env=env, flags={"seconds": 5.0, "capacity": None})
    assert (s.seconds, s.capacity, s.verbose, s.mode) == (5.0, 64, True, "greedy")
    s = config.load(Example, file=f, env_prefix="PLIES_X", env=env)
    assert s.seconds == 4.0
    s = config.load(Example, file=f, env_prefix="PLIES_X", env={})
    assert s.seconds == 3.5


@pytest.mark.parametrize("text, words", [
    ("secnds = 3\n", ["secnds", "player.toml"]),                 # a misspelt key names itself and the file
    ('capacity = "many"\n', ["capacity", "int"]),
    ("capacity = 1.5\n", ["capacity"]),
    ('mode = "fast"\n', ["mode", "search", "greedy"]),
    ("seconds = -1\n", ["seconds must be positive"]),             # the dataclass's own check
    ("seconds = [\n", ["cannot read", "player.toml"]),            # not TOML
])
def test_a_bad_file_is_a_clear_error(tmp_path, text, words):
    f = tmp_path / "player.toml"
    f.write_text(text)
    with pytest.raises(ConfigError) as err:
        config.load(Example, file=f)
    assert all(w in str(err.value) for w in words), str(err.value)


def test_a_value_the_settings_refuse_names_its_source(tmp_path):
    with pytest.raises(ConfigError, match="seconds must be positive.*seconds from PLIES_X_SECONDS"):
        config.load(Example, env_prefix="PLIES_X", env={"PLIES_X_SECONDS": "0"})


@pytest.mark.parametrize("name, value", [("PLIES_X_SECONDS", "soon"), ("PLIES_X_SECONDS", "nan"),
                                         ("PLIES_X_VERBOSE", "maybe"), ("PLIES_X_CAPACITY", "1e3")])
def test_a_bad_environment_value_names_the_variable(name, value):
    with pytest.raises(ConfigError, match=name):
        config.load(Example, env_prefix="PLIES_X", env={name: value})


def test_none_and_empty_values():
    s = config.load(Example, env_prefix="PLIES_X", env={"PLIES_X_NETWORK": "none", "PLIES_X_SECONDS": ""})
    assert s.network is None and s.seconds == 2.0
    assert config.load(Example, flags={"network": "a.onnx"}).network == "a.onnx"
    with pytest.raises(ConfigError, match="unknown setting"):
        config.load(Example, flags={"speed": 1})


def test_describe_lists_every_key_with_its_meaning_and_variable():
    text = config.describe(Example, "PLIES_X")
    for key, meaning in (("seconds", "CPU seconds per move"), ("capacity", "MCTS nodes"), ("mode", "how moves")):
        line = next(line for line in text.splitlines() if line.strip().startswith(key + " "))
        assert meaning in line and f"PLIES_X_{key.upper()}" in line


def test_a_settings_file_that_is_not_utf8_is_a_clear_error(tmp_path):
    f = tmp_path / "player.toml"
    f.write_bytes(b'seconds = 3\nmode = "gr\xe9edy"\n')  # Latin-1, not UTF-8
    with pytest.raises(ConfigError, match=r"player\.toml.*not UTF-8"):
        config.load(Example, file=f)


def test_the_little_go_player_reports_a_non_utf8_settings_file_and_plays_with_the_defaults(tmp_path):
    from adapters import littlego
    (tmp_path / littlego.SETTINGS_FILE).write_bytes(b"seconds = 3\n# \xff\xfe\n")
    said = []
    assert littlego.load_settings(tmp_path, env={}, warn=said.append) == littlego.LittleGoSettings()
    assert len(said) == 1 and "not UTF-8" in said[0] and "default" in said[0]


def test_flags_are_made_from_the_settings_dataclass():
    import argparse
    parser = argparse.ArgumentParser()
    config.add_setting_flags(parser, Example, skip=("network",))
    args = parser.parse_args(["--seconds", "2.5", "--verbose", "off", "--mode", "greedy"])
    flags = config.setting_flags(args, Example)
    assert flags == {"seconds": "2.5", "capacity": None, "verbose": "off", "mode": "greedy", "network": None}
    assert config.load(Example, env={}, flags=flags) == Example(seconds=2.5, verbose=False, mode="greedy")
    assert "--network" not in parser.format_help() and "CPU seconds per move" in parser.format_help()
    with pytest.raises(SystemExit):  # a value outside the choices is argparse's usage error
        parser.parse_args(["--mode", "fast"])
    with pytest.raises(ConfigError, match="capacity"):  # the one conversion: a bad int names its key
        config.load(Example, env={}, flags=config.setting_flags(parser.parse_args(["--capacity", "x"]), Example))


def test_a_meaning_with_a_percent_sign_keeps_help_working():
    """argparse %-formats every help text: a setting's meaning that quotes a rate ("61.7 % of ...")
    must come out as written, not crash --help."""
    import argparse
    from dataclasses import dataclass

    from adapters.config import add_setting_flags, setting

    @dataclass(frozen=True)
    class Rated:
        share: float = setting(0.5, "won 61.7 % of 120 games (100% sure)")
        on: bool = setting(True, "a 5 % margin")

    parser = argparse.ArgumentParser(prog="x")
    add_setting_flags(parser, Rated)
    text = " ".join(parser.format_help().split())
    assert "won 61.7 % of 120 games (100% sure)" in text and "a 5 % margin" in text
