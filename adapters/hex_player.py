"""The Hex move of a tournament client: a board (cells 0/1/2, the player to move) -> (row, col).

Modes:
  greedy  the shipped policy network's best move, no search (needs a network; without one the
          player searches with FALLBACK_SIMULATIONS simulations and says so in ``notes``)
  search  MCTS on a per-move budget (``seconds`` on ``clock`` and/or ``simulations``): with the
          network's rollouts or priors when one is shipped for the board size (``network_use``),
          else random rollouts
The network comes from engines.learn.network_file (``shipped_network_path(size)`` unless a path is
given) when that module exists.  Whatever goes wrong inside the engine, ``choose`` answers a legal
move (the first empty cell, noted in ``notes``): a tournament forfeits nothing for a slow or broken
player but a lot for an illegal or missing move.
"""
import importlib
import importlib.util
import time
from dataclasses import dataclass, field
from pathlib import Path

MODES = ("greedy", "search")
NETWORK_USES = ("rollout", "prior", "both")
NETWORK_MODULE = "engines.learn.network_file"
DEFAULT_SECONDS = 1.0            # per move, on the player's clock
FALLBACK_SIMULATIONS = 2000      # greedy mode without a network
CAPACITY = 1 << 22               # MCTS node pool (rows of 32 bytes, touched only as used)
MARGIN = 0.05                    # seconds of the budget kept for the reply
# MCTS tunables per kind of knowledge (engines/search/mcts.py MCTSConfig fields)
RANDOM_SEARCH = {"selection": "uct", "c": 0.7}
NETWORK_SEARCH = {
    "rollout": {"selection": "uct", "c": 0.7, "rollout": "network", "epsilon": 0.1},
    "prior": {"selection": "puct", "c": 1.5, "prior_use": "multiplicative"},
    "both": {"selection": "puct", "c": 1.5, "prior_use": "multiplicative", "rollout": "network", "epsilon": 0.1},
}


def network_module():
    """engines.learn.network_file when it exists (it is being written alongside), else None."""
    try:
        if importlib.util.find_spec(NETWORK_MODULE) is None:
            return None
    except ModuleNotFoundError:
        return None
    return importlib.import_module(NETWORK_MODULE)


@dataclass
class PlayerConfig:
    mode: str = "search"
    seconds: float | None = DEFAULT_SECONDS   # per-move budget (None: simulations only)
    simulations: int | None = None            # per-move simulations (None: time only)
    network: str | None = "shipped"           # "shipped", a path to an ONNX file, or None (no network)
    network_use: str = "rollout"              # with a network in search mode: NETWORK_USES
    search: dict = field(default_factory=dict)  # extra MCTSConfig fields
    seed: int = 0

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if self.network_use not in NETWORK_USES:
            raise ValueError(f"network_use must be one of {', '.join(NETWORK_USES)}, got {self.network_use!r}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be positive, got {self.seconds!r}")
        if self.simulations is not None and not (isinstance(self.simulations, int) and self.simulations > 0):
            raise ValueError(f"simulations must be a positive integer, got {self.simulations!r}")
        if self.mode == "search" and self.seconds is None and self.simulations is None:
            raise ValueError("search needs seconds or simulations")


class HexPlayer:
    """Picks moves for any board size (one game, network and searcher per size, made on first use)."""

    def __init__(self, config: PlayerConfig | None = None, clock=time.perf_counter):
        self.config = config or PlayerConfig()
        self.clock = clock
        self._sizes = {}
        self.notes = []       # what the player had to work around (no network, an engine failure)

    def describe(self, size: int) -> str:
        game, network, searcher = self._for_size(size)
        c = self.config
        budget = ", ".join(x for x in (f"{c.seconds:g} s" if c.seconds else "",
                                       f"{c.simulations} simulations" if c.simulations else "") if x)
        if c.mode == "greedy":
            return "greedy policy network" if network is not None else \
                f"MCTS (random rollouts), {FALLBACK_SIMULATIONS} simulations a move (greedy, but no network)"
        knowledge = f"network {c.network_use}" if network is not None else "random rollouts"
        return f"MCTS ({knowledge}), {budget or f'{FALLBACK_SIMULATIONS} simulations'} a move"

    def _for_size(self, size: int):
        if size not in self._sizes:
            from engines.games import make_game  # here, not at the top: `plies --help` stays light
            from engines.search import make_searcher
            game = make_game("hex", size=size)
            network = self._load_network(size)
            searcher = None
            if self.config.mode == "search" or network is None:
                knowledge, search = None, dict(RANDOM_SEARCH)
                if network is not None:
                    knowledge = network_module().policy_knowledge(network)
                    search = dict(NETWORK_SEARCH[self.config.network_use])
                search.update(self.config.search)
                searcher = make_searcher("mcts", game, search, knowledge, self.config.seed + size,
                                         capacity=CAPACITY, clock=self.clock)
            if self.config.mode == "greedy" and network is None:
                self.notes.append(f"greedy mode: no network for {size}x{size}; searching "
                                  f"{FALLBACK_SIMULATIONS} simulations a move instead")
            self._sizes[size] = (game, network, searcher)
        return self._sizes[size]

    def _load_network(self, size: int):
        choice = self.config.network
        module = network_module() if choice is not None else None
        if module is None:
            return None
        path = module.shipped_network_path(size) if choice == "shipped" else Path(choice)
        if path is None or not Path(path).exists():
            return None
        network, _meta = module.load_network(path)
        return network

    def limits(self, start: float | None = None):
        from engines.search import Limits
        c = self.config
        if c.mode == "greedy" or (c.seconds is None and c.simulations is None):
            return Limits(simulations=c.simulations or FALLBACK_SIMULATIONS)
        margin = min(MARGIN, 0.2 * c.seconds) if c.seconds else MARGIN  # a short budget keeps most of itself
        return Limits(simulations=c.simulations, time=c.seconds, start=start, margin=margin)

    def choose(self, cells, to_move: int, start: float | None = None) -> tuple[int, int]:
        """(row, col) for the player to move (0: player 1 joining the rows, 1: player 2 joining the
        columns) on a K x K grid of 0/1/2; start: the clock's reading when the request arrived."""
        size = len(cells)
        game, network, searcher = self._for_size(size)
        state = game.state_from_cells(cells, to_move)
        legal = game.legal_moves(state)
        if not legal:  # a won board still has empty cells to offer; a full one has none
            empty = [(r, c) for r in range(size) for c in range(size) if int(cells[r][c]) == 0]
            if not empty:
                raise ValueError("the board is full: there is no move to make")
            return empty[0]
        try:
            if network is not None and self.config.mode == "greedy":
                move = network_module().greedy_move(game, state, network)
            else:
                move = searcher.search(state, self.limits(start)).move
            move = int(move)
            if move not in legal:
                raise ValueError(f"the engine chose {move}, not a legal move")
        except Exception as err:  # noqa: BLE001 - a legal move matters more than the engine's failure
            self.notes.append(f"engine failure ({type(err).__name__}: {err}); played the first legal move")
            move = legal[0]
        row, col = game.coords(move)
        return int(row), int(col)
