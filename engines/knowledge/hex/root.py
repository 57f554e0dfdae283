"""H-search's connections at the root of a Hex search (engines/knowledge/hex/vc.py, issue 33).

``ConnectionRoot`` wraps a searcher (engines/search/base.py's interface: search, advance, reset).
Per move it asks the connections once (``HSearch.root``: the mover's H-search, then the opponent's
only when the mover has no proven win): a proven win (an edge-to-edge semi's key, or a cell of a
full connection's carrier) is played at once; otherwise the searcher searches and its move is kept
to the must-play cells (where the carriers of the opponent's edge-to-edge semis meet).  With a
``SolverUse``, when few enough cells are empty the DFPN solver (engines/knowledge/hex/dfpn.py, its
table kept from move to move) then gets a share of the move's time (and at most a number of nodes):
a proven win is played at once, and moves it proved lost are kept out of the searcher's choice
(unless every move is).  Moves are the game's actions (r * n + c); the counters say how often each
case happened.
"""
from dataclasses import replace
from time import perf_counter
from typing import NamedTuple

from engines.games.hex import HEADER
from engines.knowledge.hex.dfpn import HexDfpn
from engines.knowledge.hex.vc import DEFAULT_LIMITS, HSearch
from engines.search.result import WIN_PROBABILITY, SearchResult


PLAYER_TABLE = 200_000  # the root solver's table entries (about 50 MB), kept from move to move


class SolverUse(NamedTuple):
    """When and how long the DFPN solver runs at the root (the player's defaults: HexSettings' solver_*)."""
    empties: int     # at most this many empty cells
    share: float     # of the move's time (from its start), when the move has a time limit
    max_nodes: int   # evaluations a move, at most (the only bound without a time limit)


class ConnectionRoot:
    """A searcher with H-search's connections at its root: when the side to move has a proven win
    it plays it without searching; otherwise the searcher searches (within the same limits, counted
    from the same start, so the connections' time is part of the move's) and its move is kept to the
    must-play cells: the most visited of them.  An empty must-play (the position is lost) leaves the
    searcher's move.  With a SolverUse, the DFPN solver runs between the two (see the module's
    docstring).  advance / reset go to the searcher (it notices a root it did not search)."""

    def __init__(self, searcher, game, limits=None, clock=None, solver: SolverUse | None = None):
        self.searcher, self.game = searcher, game
        self.hsearch = HSearch(game.size, DEFAULT_LIMITS if limits is None else limits)
        self.clock = perf_counter if clock is None else clock
        self.solver = solver
        self.dfpn = None if solver is None else HexDfpn(game, DEFAULT_LIMITS if limits is None else limits,
                                                         max_entries=PLAYER_TABLE, clock=self.clock)
        self.decided = 0    # moves played from a proven win (the connections' or the solver's)
        self.restricted = 0  # moves the must-play cells (or the solver's lost moves) changed
        self.solved = 0     # moves the solver proved won
        self.avoided = 0    # moves the solver's lost moves changed

    def search(self, state, limits):
        started = self.clock()
        win, must = self.hsearch.root(state)
        if win is not None:
            self.decided += 1
            return SearchResult(move=win, value=1.0, scale=WIN_PROBABILITY, moves=[win], visits=[0], values=[1.0],
                                pv=[win], stats={"time": self.clock() - started, "simulations": 0})
        lost = []
        if self.dfpn is not None and self._solver_runs(state):
            deadline = None if not limits.time else (limits.start or started) + self.solver.share * limits.time
            verdict, move, lost = self.dfpn.root(state, self.solver.max_nodes, deadline)
            if verdict:
                self.decided += 1
                self.solved += 1
                return SearchResult(move=move, value=1.0, scale=WIN_PROBABILITY, moves=[move], visits=[0],
                                    values=[1.0], pv=[move],
                                    stats={"time": self.clock() - started, "simulations": 0})
        result = self.searcher.search(state, replace(limits, start=started if limits.start is None else limits.start))
        allowed = must if must else None
        if lost:
            pool = allowed if allowed is not None else [int(m) for m in self.game.legal_moves(state)]
            kept = [m for m in pool if m not in lost]
            allowed = kept if kept else allowed  # every move lost: the must-play cells (or any move) then
        if allowed and result.move not in allowed:
            if result.move in lost:
                self.avoided += 1
            keep_to(result, allowed)
            self.restricted += 1
        result.stats["time"] = self.clock() - started
        return result

    def _solver_runs(self, state) -> bool:
        n = self.game.size
        return int((state[HEADER:HEADER + n * n] == 0).sum()) <= self.solver.empties

    def advance(self, move):
        self.searcher.advance(move)

    def reset(self):
        self.searcher.reset()


def keep_to(result, allowed) -> None:
    """Changes result's move to the most visited of the allowed moves (the first allowed one when
    the search visited none of them)."""
    visits = {m: v for m, v in zip(result.moves, result.visits) if m in allowed}
    result.move = max(visits, key=visits.get) if visits else allowed[0]
    if result.move not in result.moves:  # a result names the values of the move it plays
        result.moves, result.visits = [*result.moves, result.move], [*result.visits, 0]
        result.values = [*result.values, result.value]
    result.pv = [result.move]


__all__ = ["ConnectionRoot", "SolverUse", "keep_to"]
