"""What every search takes (Limits) and returns (SearchResult), and what its statistics mean."""
from dataclasses import dataclass, field

from engines.validate import check_choice, check_int, check_number

# ---- the scale of SearchResult.value (and of SearchResult.values) -------------------------------
WIN_PROBABILITY = "win_probability"  # in [0, 1]: the chance that the player to move at the root wins (draw 0.5)
SCORE = "score"                      # the evaluator's units, from the view of the player to move at the root
SCALES = (WIN_PROBABILITY, SCORE)

# ---- every key a search may put in SearchResult.stats, and its one meaning ----------------------
STATS_KEYS = {
    "time": "seconds on the searcher's clock from the call of search() to its return",
    "simulations": "MCTS: simulations run by this call (descents from the root, each ending in one "
                   "rollout, value or final result)",
    "tree_size": "MCTS: nodes held in the tree after this call, counting those kept from earlier searches",
    "max_depth": "MCTS: the longest simulation path of this call, in plies below the root",
    "tree_full": "MCTS: True when the node pool is full, so the tree stopped growing and simulations "
                 "went on from its leaves",
    "pruned": "MCTS: the root moves that progressive pruning stopped sampling (list of actions)",
    "ownership": "RAVE: the mean final owner of each point (action order, n*n floats in [-1, 1]: +1 player 0, "
                 "-1 player 1) over every playout run from the current root, this call's and earlier calls' "
                 "on the same root",
    "nodes": "alpha-beta: positions visited by this call (the root, every child stepped into, and "
             "leaves valued from their static scores)",
    "depth": "alpha-beta: depth in plies of the deepest completed iteration (0 when none completed)",
    "iterations": "alpha-beta: iterations of deepening completed",
    "partial_depth": "alpha-beta: depth of the iteration a limit cut short whose best completed root move "
                     "became the answer (0 when the answer is the deepest completed iteration's)",
    "tt_hits": "alpha-beta: transposition-table entries that settled a node without searching it",
    "complete": "alpha-beta: True when no depth cut-off happened, so the value is the game's exact "
                "outcome as the evaluator scores final states",
}


@dataclass
class Limits:
    """Budget of one search.  Any combination; the search stops at the first limit reached.

    time is seconds on the searcher's clock (``time.perf_counter`` unless another clock was
    injected) measured from ``start`` (the clock's reading when the request arrived; default: when
    the search begins), less ``margin`` seconds of safety.  MCTS counts simulations and time;
    alpha-beta counts depth, nodes and time; each rejects the limits it cannot honour.
    """
    simulations: int | None = None  # MCTS simulations
    time: float | None = None       # seconds for this request
    start: float | None = None      # the searcher's clock at request arrival
    margin: float = 0.05            # seconds kept in reserve for process noise and the reply
    depth: int | None = None        # alpha-beta depth limit (plies)
    nodes: int | None = None        # alpha-beta node budget
    pacer: object = None            # alpha-beta on a clock: after each completed iteration,
    #                                 pacer.deepen(depth, move, value, now) says whether to start the next
    #                                 (a time manager's; None: the config's stop_share rule)

    def __post_init__(self):
        for name in ("simulations", "depth", "nodes"):
            if getattr(self, name) is not None:
                check_int(f"Limits.{name}", getattr(self, name), 0)
        for name in ("time", "margin"):
            if getattr(self, name) is not None:
                check_number(f"Limits.{name}", getattr(self, name), 0.0)
        if self.start is not None:
            check_number("Limits.start", self.start)
        if self.simulations is None and self.time is None and self.depth is None and self.nodes is None:
            raise ValueError("Limits needs at least one of simulations, time, depth or nodes")

    def deadline(self, now: float) -> float | None:
        """The clock reading by which the search must have returned (None without a time limit);
        ``now`` is the searcher's clock when the search began."""
        if self.time is None:
            return None
        start = self.start if self.start is not None else now
        return start + max(0.0, self.time - self.margin)


@dataclass
class SearchResult:
    """The answer of any search.  ``value`` and ``values`` are from the view of the player to move
    at the root, on the scale named by ``scale``: WIN_PROBABILITY (MCTS) or SCORE (alpha-beta)."""
    move: int                                       # the chosen action
    value: float                                    # estimated value of the root position
    scale: str                                      # WIN_PROBABILITY or SCORE: what value means
    moves: list = field(default_factory=list)       # root actions considered
    visits: list = field(default_factory=list)      # per-move visit counts (MCTS; empty for alpha-beta)
    values: list = field(default_factory=list)      # per-move mean values (MCTS) or scores (alpha-beta)
    pv: list = field(default_factory=list)          # principal variation, starting with move
    stats: dict = field(default_factory=dict)       # keys and meanings: STATS_KEYS

    def __post_init__(self):
        check_choice("SearchResult.scale", self.scale, SCALES)
