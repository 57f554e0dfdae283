"""The one search interface: the Searcher protocol and the helpers every search shares (the factory
that builds a search by name is engines/search/factory.py, above the searches).

Every search is built the same way, ``Search(game, config, knowledge, seed, **options)``:
  game       an engines.games Game (its compiled kernels)
  config     the search's frozen config dataclass, a mapping of its fields, or None for the defaults
  knowledge  an engines.knowledge.bundle.Knowledge, or None for the game's registered default
  seed       the random seed (searches without randomness accept and ignore it)
and offers ``search(state, limits) -> SearchResult``, ``advance(move)`` (the game went on with
move: keep what is still useful) and ``reset()`` (forget everything from earlier searches).
"""
import dataclasses
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np

from engines.errors import GameOver
from engines.search.result import Limits, SearchResult


@runtime_checkable
class Searcher(Protocol):
    """What adapters and command lines use of any search."""
    game: Any
    config: Any

    def search(self, state: np.ndarray, limits: Limits) -> SearchResult:
        """The best move from state within limits; GameOver on a final state, ValueError for limits
        the search cannot honour."""

    def advance(self, move: int) -> None:
        """The game went on with move from the last searched position."""

    def reset(self) -> None:
        """Forget everything kept from earlier searches."""


def config_from(config_class, config):
    """config as a config_class instance: None gives the defaults, a mapping gives its fields (an
    unknown key is a ValueError naming it and listing the valid ones)."""
    if config is None:
        return config_class()
    if isinstance(config, config_class):
        return config
    if isinstance(config, Mapping):
        valid = [f.name for f in dataclasses.fields(config_class)]
        for key in config:
            if key not in valid:
                raise ValueError(f"unknown {config_class.__name__} key {key!r}; valid keys: {', '.join(valid)}")
        return config_class(**config)
    raise ValueError(f"config must be a {config_class.__name__}, a mapping of its fields or None, got {config!r}")


def knowledge_from(game, knowledge, default=None):
    """knowledge as a Knowledge bundle: None gives default(game) (default None: the game's registered
    default bundle)."""
    # imported when first asked for: importing engines.search loads no compiled code (cold starts)
    from engines.knowledge.bundle import Knowledge
    from engines.knowledge.registry import knowledge_for
    if knowledge is None:
        return (default or knowledge_for)(game)
    if not isinstance(knowledge, Knowledge):
        raise ValueError(f"knowledge must be an engines.knowledge.bundle.Knowledge or None, got {knowledge!r}")
    return knowledge


def checked_position(game, state, limits, length: int) -> np.ndarray:
    """The checks every search makes of its input: limits a Limits, state an int64 position of the
    game's length (ValueError), and not final (GameOver)."""
    if not isinstance(limits, Limits):
        raise ValueError(f"limits must be a Limits, got {limits!r}")
    state = np.asarray(state)
    if state.dtype != np.int64 or state.shape != (length,):
        raise ValueError(f"state must be an int64 array of length {length} for {game!r}")
    if game.kernels.terminal(state):
        raise GameOver()
    return state
