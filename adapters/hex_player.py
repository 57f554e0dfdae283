"""The Hex moves of the Online Hex Tournament client (adapters/oht_client.py), and the client's one
settings dataclass (``Settings``: how it plays, and where it keeps its record).

A ``HexPlayer`` plays one board size: the game, the network (if any) and the searcher are made when
it is built, and the client builds one at the start of each series, when the size is known.  So a
network file for another size is refused there (NetworkError naming both sizes), never mid-game;
``shipped`` is the network shipped for the size, and simply none for a size without one; so is
``prior`` (the RAVE search's prior network, adapters/hex_search.py).

Modes:
  greedy  the network's best move, no search (without a network the player searches
          ``simulations`` or ``fallback_simulations`` simulations a move and says so in ``notes``)
  search  a tree search on a per-move budget (``seconds`` on the player's clock and/or
          ``simulations``): RAVE with the Hex knowledge (``search``, ``knowledge``: adapters/hex_search.py),
          or MCTS with the network's rollouts and/or priors (``network_use``) when it has a network
Whatever goes wrong inside the engine during a game, ``choose`` answers a legal move (the first
empty cell, noted in ``notes``): a tournament forfeits nothing for a slow or broken player but a lot
for an illegal or missing move.

This module imports the engine only when a player is built (``engine()``): importing it (for
``Settings``) from a cold compiled-kernel cache compiles nothing (engines/players/coldstart.py).
"""
import time
from dataclasses import dataclass
from pathlib import Path

from adapters import hex_search
from adapters.config import setting

MODES = ("greedy", "search")
NETWORK_USES = ("rollout", "prior", "both")
PRIOR_USES = ("init", "additive", "multiplicative")   # engines/search/mcts.py, the ways that use priors
DEFAULT_SECONDS = 1.0   # a move's budget when neither seconds nor simulations is set


@dataclass(frozen=True)
class Settings:
    """The tournament client's settings: defaults here, then plies_oht.toml beside the course-class
    subclass (or ``plies hex connect --config FILE``), then PLIES_OHT_<KEY>, then the command line's
    flags (adapters/config.py)."""
    mode: str = setting("search", "greedy: the network's best move, no search; search: a tree search", choices=MODES)
    search: str | None = setting(None, "tree search of mode search: 'rave' (all-moves-as-first) or 'mcts' (UCT); "
                                       "none: rave, or mcts with a network", kind=str, choices=hex_search.SEARCHES)
    knowledge: str = setting("all", "Hex knowledge of the search: 'all', 'none', or pieces of patterns, inferior, "
                                    "connections joined by '+'")
    seconds: float | None = setting(None, f"a move's time budget on the player's clock (unset: {DEFAULT_SECONDS:g} s, "
                                          "or none when simulations is set)", kind=float)
    simulations: int | None = setting(None, "a move's MCTS simulations (unset: the clock decides)", kind=int)
    network: str = setting("auto", "'shipped' (weights/hex/hex<K>.onnx; none for a size without one), an ONNX "
                                   "file, 'none', or 'auto': shipped for greedy, none for search (random "
                                   "rollouts measured stronger on 7x7: bench/results/oht.md)")
    prior: str = setting("shipped", "policy network of the rave search's prior: 'shipped' (weights/hex/prior<K>.onnx, "
                                    "none for a size without one), 'none', or an ONNX network file")
    network_use: str = setting("rollout", "how search uses a network: its rollouts, its priors (PUCT) or both",
                               choices=NETWORK_USES)
    seed: int = setting(0, "the searcher's random seed (the board size is added to it)")
    capacity: int = setting(1 << 22, "MCTS node pool (rows of 32 bytes, touched only as used)")
    margin: float = setting(0.05, "seconds of the time budget kept for the reply (at most a fifth of it)")
    fallback_simulations: int = setting(2000, "greedy mode without a network: simulations a move (unless "
                                              "simulations is set)")
    uct_c: float = setting(0.7, "UCT exploration constant of the mcts search (its own playouts, or network_use "
                                "rollout)")
    puct_c: float = setting(1.5, "PUCT exploration constant (network_use prior or both)")
    prior_use: str = setting("multiplicative", "how PUCT applies the network's priors", choices=PRIOR_USES)
    epsilon: float = setting(0.1, "network rollouts: the chance of a uniformly random move")
    log: str = setting("oht-games.log", "the game log, appended (each game, series and a summary)")
    record: str | None = setting(None, "a file to write the whole record to as JSON at the end", kind=str)

    def __post_init__(self):
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be positive, got {self.seconds!r}")
        for name in ("simulations", "capacity", "fallback_simulations"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, int) and value > 0):
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        for name in ("margin", "uct_c", "puct_c"):
            if not getattr(self, name) >= 0:
                raise ValueError(f"{name} must be at least 0, got {getattr(self, name)!r}")
        if not 0 <= self.epsilon <= 1:
            raise ValueError(f"epsilon must be in 0..1, got {self.epsilon!r}")
        problems = hex_search.settings_problems(self.search, self.knowledge, self.network_choice() != "none",
                                                self.prior)
        if problems:
            raise ValueError("; ".join(problems))

    def budget_seconds(self) -> float | None:
        """A move's time budget (None: simulations only)."""
        if self.seconds is None and self.simulations is None:
            return DEFAULT_SECONDS
        return self.seconds

    def network_choice(self) -> str:
        """'shipped', 'none' or a file ('auto' resolved by the mode)."""
        if self.network == "auto":
            return "shipped" if self.mode == "greedy" else "none"
        return "none" if self.network is None else self.network

    def search_config(self, with_network: bool) -> dict:
        """The MCTSConfig fields of a search with or without a network."""
        if not with_network:
            return {"selection": "uct", "c": self.uct_c}
        config = {"selection": "uct", "c": self.uct_c}
        if self.network_use in ("prior", "both"):
            config = {"selection": "puct", "c": self.puct_c, "prior_use": self.prior_use}
        if self.network_use in ("rollout", "both"):
            config.update(rollout="network", epsilon=self.epsilon)
        return config


def engine():
    """The engine's modules a player uses, imported at the first call (a cold cache compiles them then)."""
    from engines import games, search
    from engines.knowledge import network
    return games, network, search


def load_player_network(settings: Settings, size: int):
    """The network the settings give for size x size, or None; NetworkError for a file that is not
    a network for that size."""
    _games, N, _search = engine()
    load_network, shipped_network_path = N.load_network, N.shipped_network_path
    choice = settings.network_choice()
    if choice == "none":
        return None
    path = shipped_network_path(size) if choice == "shipped" else Path(choice)
    if path is None:
        return None
    network, _sidecar = load_network(path, size)
    return network


class HexPlayer:
    """The moves of one board size (see the module's docstring); NetworkError when built with a
    network file for another size."""

    def __init__(self, settings: Settings, size: int, clock=time.perf_counter):
        self.settings = settings
        self.size = size
        games, N, search = engine()
        self.game = games.make_game("hex", size=size)
        self.network = load_player_network(settings, size)
        self.notes = []       # what the player had to work around (no network, an engine failure)
        self.searcher = None
        if settings.mode == "search" or self.network is None:
            prior = hex_search.load_prior(settings.prior, size) if self.network is None else None
            self.searcher = hex_search.make_hex_searcher(self.game, settings.search, settings.knowledge, self.network,
                                                         settings.search_config(self.network is not None),
                                                         settings.seed + size, settings.capacity, prior=prior,
                                                         clock=clock)
        if settings.mode == "greedy" and self.network is None:
            self.notes.append(f"greedy mode: no network for {size}x{size}; searching "
                              f"{self.limits().simulations} simulations a move instead")

    def describe(self) -> str:
        s = self.settings
        if self.network is not None:
            search = f"MCTS (network {s.network_use})"
        else:
            search = f"{'MCTS' if s.search == 'mcts' else 'RAVE'} (knowledge {s.knowledge})"
        if s.mode == "greedy":
            return "greedy policy network" if self.network is not None else \
                f"{search}, {self.limits().simulations} simulations a move (greedy, but no network)"
        seconds = s.budget_seconds()
        budget = ", ".join(x for x in (f"{seconds:g} s" if seconds else "",
                                       f"{s.simulations} simulations" if s.simulations else "") if x)
        return f"{search}, {budget} a move"

    def limits(self, start: float | None = None):
        """The search's Limits of a move (engines.search.Limits)."""
        Limits = engine()[2].Limits
        s = self.settings
        if s.mode == "greedy":
            return Limits(simulations=s.simulations or s.fallback_simulations)
        seconds = s.budget_seconds()
        if seconds is None:
            return Limits(simulations=s.simulations)
        margin = min(s.margin, 0.2 * seconds)  # a short budget keeps most of itself
        return Limits(simulations=s.simulations, time=seconds, start=start, margin=margin)

    def choose(self, cells, player: int, start: float | None = None) -> tuple[int, int]:
        """(row, col) for the engine player to move (0: joins the rows, 1: joins the columns) on this
        size's grid of 0/1/2; start: the clock's reading when the request arrived."""
        if len(cells) != self.size:
            raise ValueError(f"a {len(cells)}x{len(cells)} board given to the {self.size}x{self.size} player")
        state = self.game.state_from_cells(cells, player)
        legal = self.game.legal_moves(state)
        if not legal:  # a won board still has empty cells to offer; a full one has none
            empty = [(r, c) for r in range(self.size) for c in range(self.size) if int(cells[r][c]) == 0]
            if not empty:
                raise ValueError("the board is full: there is no move to make")
            return empty[0]
        try:
            if self.searcher is None:
                move = engine()[1].greedy_move(self.game, state, self.network)
            else:
                move = self.searcher.search(state, self.limits(start)).move
            move = int(move)
            if move not in legal:
                raise ValueError(f"the engine chose {move}, not a legal move")
        except Exception as err:  # noqa: BLE001 - a legal move matters more than the engine's failure
            self.notes.append(f"engine failure ({type(err).__name__}: {err}); played the first legal move")
            move = legal[0]
        row, col = self.game.coords(move)
        return int(row), int(col)
