"""The training configuration: one TOML file (read with tomllib) holding every parameter the seed
asks to be "extremely easy to modify", plus command-line overrides.

The file has sections ([game], [mcts], [anet], [training], [topp], [display], [run]); every key name is
unique across sections, so an override names only the key (``--episodes 200``, ``--set c=1.2``).
An unknown key, a value of the wrong type, a value out of range or a file that is not TOML is a
ConfigError naming the key (and the file).
"""
import dataclasses
import tomllib
from dataclasses import dataclass, field

from engines.knowledge.mlp import ACTIVATIONS


class ConfigError(ValueError):
    """A bad configuration: the message names the key and says what is allowed."""


OPTIMIZERS = ("adagrad", "sgd", "rmsprop", "adam")
SELECTIONS = ("uct", "puct")
ROLLOUTS = ("network", "value")
MOVE_CHOICES = ("greedy", "sample")
TOPP_POLICIES = ("greedy", "stochastic")


@dataclass(frozen=True)
class Param:
    section: str
    kind: type          # int, float, bool, str, list (of ints)
    low: float | None = None
    high: float | None = None
    choices: tuple = ()
    help: str = ""


# key -> how it is checked; the defaults are TrainConfig's field defaults
PARAMS = {
    # [game]
    "size": Param("game", int, 3, 10, help="board size n (n x n Hex)"),
    # [training]
    "episodes": Param("training", int, 1, None, help="actual games played (episodes)"),
    "networks": Param("training", int, 0, None, help="K: networks cached for the TOPP, the first untrained "
                      "(0: given by save_interval)"),
    "save_interval": Param("training", int, 0, None, help="i_s: save ANET every i_s episodes (0: spread the K "
                           "saves evenly over the episodes)"),
    "batch_size": Param("training", int, 1, None, help="cases in a minibatch from RBUF"),
    "train_batches": Param("training", int, 1, None, help="minibatch training steps after each episode"),
    "buffer_size": Param("training", int, 1, None, help="RBUF capacity in cases (the oldest go first)"),
    "augment": Param("training", bool, help="also store each case rotated by 180 degrees (Hex's symmetry)"),
    "move_choice": Param("training", str, choices=MOVE_CHOICES, help="actual move from D: greedy (most "
                         "visited) or sample (in proportion to D)"),
    "sample_moves": Param("training", int, 0, None, help="with move_choice=greedy, the first moves of each "
                          "episode are still sampled from D (variety)"),
    # [mcts]
    "search_games": Param("mcts", int, 1, None, help="search games (simulations) per actual move"),
    "search_time": Param("mcts", float, 0.0, None, help="seconds per actual move (0: no time limit; with both, "
                         "the first reached stops the search)"),
    "c": Param("mcts", float, 0.0, None, help="exploration constant of the tree policy"),
    "epsilon": Param("mcts", float, 0.0, 1.0, help="rollout epsilon: random move probability, else ANET's best"),
    "selection": Param("mcts", str, choices=SELECTIONS, help="tree policy: uct, or puct with ANET's priors"),
    "rollout": Param("mcts", str, choices=ROLLOUTS, help="leaf evaluation: network (ANET rollouts, the seed) "
                     "or value (the value head instead of a rollout; needs value_head)"),
    # [anet]
    "hidden": Param("anet", list, 1, 4096, help="hidden layer sizes, e.g. [128, 64] ([] for none)"),
    "activation": Param("anet", str, choices=tuple(ACTIVATIONS), help="hidden activation"),
    "optimizer": Param("anet", str, choices=OPTIMIZERS, help="optimizer"),
    "learning_rate": Param("anet", float, 1e-9, 10.0, help="learning rate"),
    "value_head": Param("anet", bool, help="also train a value network on the games' results (AlphaZero style)"),
    # [topp]
    "games": Param("topp", int, 1, None, help="G: games in each series of the TOPP"),
    "topp_policy": Param("topp", str, choices=TOPP_POLICIES, help="move choice in the TOPP: greedy or stochastic"),
    "topp": Param("topp", bool, help="run the TOPP at the end of training"),
    # [display]
    "display": Param("display", int, 0, None, help="draw every Nth actual game of training (0: none)"),
    "topp_display": Param("display", bool, help="draw the TOPP's games"),
    "progress": Param("display", bool, help="a progress bar over the episodes"),
    # [run]
    "workers": Param("run", int, 1, 256, help="self-play processes (1: in this process)"),
    "ray_address": Param("run", str, help="Ray cluster address ('auto' or host:port) for self-play; '' = none"),
    "seed": Param("run", int, 0, None, help="random seed"),
}


@dataclass(frozen=True)
class TrainConfig:
    size: int = 5
    episodes: int = 200
    networks: int = 4
    save_interval: int = 0
    batch_size: int = 128
    train_batches: int = 4
    buffer_size: int = 4096
    augment: bool = True
    move_choice: str = "greedy"
    sample_moves: int = 2
    search_games: int = 500
    search_time: float = 0.0
    c: float = 1.0
    epsilon: float = 0.2
    selection: str = "uct"
    rollout: str = "network"
    hidden: list = field(default_factory=lambda: [128, 128])
    activation: str = "relu"
    optimizer: str = "adam"
    learning_rate: float = 0.002
    value_head: bool = False
    games: int = 20
    topp_policy: str = "greedy"
    topp: bool = True
    display: int = 0
    topp_display: bool = False
    progress: bool = True
    workers: int = 1
    ray_address: str = ""
    seed: int = 0

    def __post_init__(self):
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, check_value(f.name, getattr(self, f.name)))
        if self.rollout == "value" and not self.value_head:
            raise ConfigError("rollout = 'value' needs value_head = true (the value network replaces rollouts)")
        if self.networks == 0 and self.save_interval == 0:
            raise ConfigError("networks and save_interval are both 0: set networks (K) or save_interval (i_s)")
        if self.networks == 1 and self.save_interval == 0:
            raise ConfigError("networks = 1 caches only the untrained network: use K >= 2 (or save_interval)")
        if self.save_interval > 0 and self.networks > 0 and self.networks != 1 + self.episodes // self.save_interval:
            raise ConfigError(f"networks = {self.networks} disagrees with save_interval = {self.save_interval} over "
                              f"{self.episodes} episodes ({1 + self.episodes // self.save_interval} saves): "
                              "set one of them to 0")

    def save_points(self) -> list[int]:
        """Episodes after which ANET is saved (0: the untrained network, before episode 1)."""
        if self.save_interval > 0:
            return list(range(0, self.episodes + 1, self.save_interval))
        k = min(self.networks, self.episodes + 1)
        return sorted({round(i * self.episodes / (k - 1)) for i in range(k)})

    @property
    def layers(self) -> list[int]:
        """ANET's layer widths: inputs (3 planes of n*n), hidden..., outputs (n*n)."""
        nn = self.size * self.size
        return [3 * nn, *self.hidden, nn]

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def replace(self, **changes) -> "TrainConfig":
        return dataclasses.replace(self, **changes)


def check_value(key: str, value):
    """value checked against PARAMS[key] (ConfigError naming the key); ints are accepted for floats."""
    p = PARAMS.get(key)
    if p is None:
        raise ConfigError(f"unknown key {key!r}; known keys: {', '.join(PARAMS)}")
    where = f"[{p.section}] {key}"
    if p.kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if p.kind is list:
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                          for v in value):
            raise ConfigError(f"{where} must be a list of integers, got {value!r}")
        for v in value:
            _range(where, v, p)
        return list(value)
    if not isinstance(value, p.kind) or (p.kind is int and isinstance(value, bool)):
        raise ConfigError(f"{where} must be {p.kind.__name__}, got {value!r} ({type(value).__name__})")
    if p.kind is float and value != value:
        raise ConfigError(f"{where} must be a number, got nan")
    if p.choices and value not in p.choices:
        raise ConfigError(f"{where} must be one of {', '.join(p.choices)}; got {value!r}")
    if p.kind in (int, float):
        _range(where, value, p)
    return value


def _range(where, value, p):
    if (p.low is not None and value < p.low) or (p.high is not None and value > p.high):
        bounds = f"{p.low} <= value" + (f" <= {p.high}" if p.high is not None else "")
        raise ConfigError(f"{where} out of range: {value!r} (allowed: {bounds})")


def flatten(data: dict, source: str = "the configuration") -> dict:
    """Section tables -> {key: value}; a key in the wrong section or unknown is a ConfigError."""
    flat = {}
    for section, table in data.items():
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: top-level key {section!r} must be a section like [game] "
                              f"(sections: {', '.join(sorted({p.section for p in PARAMS.values()}))})")
        for key, value in table.items():
            p = PARAMS.get(key)
            if p is None:
                raise ConfigError(f"{source}: unknown key {key!r} in [{section}]; known keys: {', '.join(PARAMS)}")
            if p.section != section:
                raise ConfigError(f"{source}: key {key!r} belongs in [{p.section}], not [{section}]")
            flat[key] = value
    return flat


def load(path=None, overrides: dict | None = None) -> TrainConfig:
    """The configuration of a TOML file (None: the defaults), with overrides {key: value} applied."""
    values = {}
    if path is not None:
        try:
            with open(path, "rb") as f:
                data = tomllib.load(f)
        except tomllib.TOMLDecodeError as err:
            raise ConfigError(f"{path}: not valid TOML: {err}") from None
        except OSError as err:
            raise ConfigError(f"cannot read the configuration {path}: {err.strerror}") from None
        values = flatten(data, str(path))
    values.update(overrides or {})
    if "save_interval" in (overrides or {}) and "networks" not in (overrides or {}):
        values["networks"] = 0  # an i_s given on the command line decides K
    try:
        return TrainConfig(**{k: check_value(k, v) for k, v in values.items()})
    except ConfigError as err:
        raise ConfigError(f"{path}: {err}" if path is not None else str(err)) from None


def parse_override(key: str, text: str):
    """A command-line value for key, typed after PARAMS[key] (ConfigError naming the key)."""
    p = PARAMS.get(key)
    if p is None:
        raise ConfigError(f"unknown key {key!r}; known keys: {', '.join(PARAMS)}")
    try:
        if p.kind is bool:
            low = text.strip().lower()
            if low not in ("true", "false", "1", "0", "on", "off", "yes", "no"):
                raise ValueError
            return low in ("true", "1", "on", "yes")
        if p.kind is list:
            text = text.strip().strip("[]")
            return [int(v) for v in text.replace(",", " ").split()] if text else []
        if p.kind is int:
            return int(text)
        if p.kind is float:
            return float(text)
        return text
    except ValueError:
        kind = "true/false" if p.kind is bool else "a list of integers" if p.kind is list else p.kind.__name__
        raise ConfigError(f"--{key.replace('_', '-')}: {text!r} is not {kind}") from None


def template() -> str:
    """A commented TOML file with every key and its default (``plies hex train --print-config``)."""
    defaults = TrainConfig()
    lines, section = [], None
    for key, p in sorted(PARAMS.items(), key=lambda kv: list(dict.fromkeys(q.section for q in PARAMS.values()))
                         .index(kv[1].section)):
        if p.section != section:
            section = p.section
            lines.append(f"\n[{section}]")
        value = getattr(defaults, key)
        text = ("true" if value else "false") if isinstance(value, bool) else repr(value).replace("'", '"')
        lines.append(f"{key} = {text}".ljust(28) + f"# {p.help}")
    return "\n".join(lines).lstrip() + "\n"
