"""What every search takes (Limits) and returns (SearchResult)."""
import time
from dataclasses import dataclass, field


@dataclass
class Limits:
    """Budget of one search.  Any combination; the search stops at the first limit reached.

    time is wall-clock seconds measured from ``start`` (the moment the request arrived, as
    ``time.perf_counter()``; default: when the search begins), less ``margin`` seconds of safety.
    """
    simulations: int | None = None  # MCTS simulations
    time: float | None = None       # seconds for this request
    start: float | None = None      # perf_counter() at request arrival
    margin: float = 0.05            # seconds kept in reserve for process noise and the reply
    depth: int | None = None        # alpha-beta depth limit (plies)
    nodes: int | None = None        # alpha-beta node budget

    def __post_init__(self):
        for name in ("simulations", "depth", "nodes"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
                raise ValueError(f"Limits.{name} must be a non-negative integer, got {v!r}")
        for name in ("time", "margin"):
            v = getattr(self, name)
            if v is not None and not (isinstance(v, (int, float)) and v == v and 0 <= v < float("inf")):
                raise ValueError(f"Limits.{name} must be a finite non-negative number, got {v!r}")
        if self.simulations is None and self.time is None and self.depth is None and self.nodes is None:
            raise ValueError("Limits needs at least one of simulations, time, depth or nodes")

    def deadline(self, now: float | None = None) -> float | None:
        """Absolute perf_counter() time by which the search must have returned, or None."""
        if self.time is None:
            return None
        start = self.start if self.start is not None else (now if now is not None else time.perf_counter())
        return start + max(0.0, self.time - self.margin)


@dataclass
class SearchResult:
    """The answer of any search.  Values are from the view of the player to move at the root:
    MCTS gives win probabilities in [0, 1]; alpha-beta gives heuristic scores (larger is better)."""
    move: int                                       # the chosen action
    value: float                                    # estimated value of the root position
    moves: list = field(default_factory=list)       # root actions considered
    visits: list = field(default_factory=list)      # per-move visit counts (MCTS; empty for alpha-beta)
    values: list = field(default_factory=list)      # per-move mean values (MCTS) or scores (alpha-beta)
    pv: list = field(default_factory=list)          # principal variation, starting with move
    stats: dict = field(default_factory=dict)       # simulations / nodes, depth, time (s), tree size, ...
