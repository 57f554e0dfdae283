"""The training configuration: the committed files load, every key is checked, bad files and bad
overrides give an error naming the key.  (No PyTorch needed.)"""

import pytest

from conftest import ROOT
from hypothesis import given, settings, strategies as st

from engines.learn.hex import config as C



def write(tmp_path, text):
    path = tmp_path / "c.toml"
    path.write_text(text)
    return path


def test_committed_demonstration_config_is_the_seeds():
    cfg = C.load(ROOT / "weights" / "hex" / "hex.toml")
    assert (cfg.episodes, cfg.size, cfg.networks, cfg.topp) == (200, 5, 4, True)
    assert cfg.save_points() == [0, 67, 133, 200]


def test_every_committed_config_loads():
    files = sorted((ROOT / "weights" / "hex").glob("*.toml"))
    assert files
    for f in files:
        C.load(f)


def test_template_round_trips_to_the_defaults(tmp_path):
    assert C.load(write(tmp_path, C.template())) == C.TrainConfig()
    assert set(C.PARAMS) == {f for f in C.TrainConfig.__dataclass_fields__}


@pytest.mark.parametrize("text, words", [
    ("[game]\nsize = 5\nbogus = 1\n", ["bogus", "unknown"]),
    ("[game]\nepisodes = 5\n", ["episodes", "[training]"]),
    ("size = 5\n", ["size", "section"]),
    ("[game]\nsize = 2\n", ["size", "out of range"]),
    ("[game]\nsize = 11\n", ["size", "out of range"]),
    ("[game]\nsize = 'five'\n", ["size", "must be int"]),
    ("[game]\nsize = 5.0\n", ["size", "must be int"]),
    ("[mcts]\nepsilon = 1.5\n", ["epsilon", "out of range"]),
    ("[mcts]\nsearch_games = 0\n", ["search_games", "out of range"]),
    ("[anet]\nactivation = 'softplus'\n", ["activation", "relu"]),
    ("[anet]\noptimizer = 'lbfgs'\n", ["optimizer", "adagrad"]),
    ("[anet]\nhidden = [64, 'x']\n", ["hidden", "list of integers"]),
    ("[anet]\nhidden = 64\n", ["hidden", "list of integers"]),
    ("[anet]\nhidden = [0]\n", ["hidden", "out of range"]),
    ("[anet]\nlearning_rate = -0.1\n", ["learning_rate", "out of range"]),
    ("[training]\naugment = 1\n", ["augment", "must be bool"]),
    ("[training]\nnetworks = 4\nsave_interval = 10\nepisodes = 200\n", ["networks", "save_interval"]),
    ("[mcts]\nrollout = 'value'\n", ["rollout", "value_head"]),
    ("[game\nsize = 5\n", ["not valid TOML"]),
    ("[game]\nsize = 5\nsize = 6\n", ["not valid TOML"]),
])
def test_bad_files_name_the_key(tmp_path, text, words):
    with pytest.raises(C.ConfigError) as err:
        C.load(write(tmp_path, text))
    for w in words:
        assert w in str(err.value)
    assert "c.toml" in str(err.value)


def test_missing_file_is_a_config_error(tmp_path):
    with pytest.raises(C.ConfigError, match="cannot read"):
        C.load(tmp_path / "none.toml")


def test_overrides_win_over_the_file_and_are_typed(tmp_path):
    path = write(tmp_path, "[game]\nsize = 5\n[training]\nepisodes = 10\n")
    values = {k: C.parse_override(k, v) for k, v in
              {"episodes": "3", "size": "4", "hidden": "16,8", "augment": "false", "epsilon": "0.5",
               "optimizer": "sgd"}.items()}
    cfg = C.load(path, values)
    assert (cfg.episodes, cfg.size, cfg.hidden, cfg.augment, cfg.epsilon, cfg.optimizer) == \
        (3, 4, [16, 8], False, 0.5, "sgd")
    assert cfg.layers == [48, 16, 8, 16]


def test_save_interval_on_the_command_line_decides_k(tmp_path):
    cfg = C.load(write(tmp_path, "[training]\nepisodes = 10\nnetworks = 4\n"), {"save_interval": 5})
    assert cfg.save_points() == [0, 5, 10]


@pytest.mark.parametrize("key, text", [("episodes", "x"), ("augment", "maybe"), ("hidden", "1,b"),
                                       ("epsilon", "high")])
def test_bad_override_names_the_option(key, text):
    with pytest.raises(C.ConfigError, match=f"--{key.replace('_', '-')}"):
        C.parse_override(key, text)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(key=st.sampled_from(sorted(C.PARAMS)), text=st.text(max_size=12))
def test_fuzzed_overrides_either_load_or_raise_config_error(key, text):
    try:
        C.load(None, {key: C.parse_override(key, text)})
    except C.ConfigError as err:
        assert key in str(err) or key.replace("_", "-") in str(err) or "networks" in str(err)


def test_save_points_spread_k_networks_evenly():
    assert C.TrainConfig(episodes=200, networks=5).save_points() == [0, 50, 100, 150, 200]
    assert C.TrainConfig(episodes=4, networks=3).save_points() == [0, 2, 4]
    assert C.TrainConfig(episodes=9, networks=0, save_interval=3).save_points() == [0, 3, 6, 9]
