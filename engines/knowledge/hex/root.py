"""H-search's connections at the root of a Hex search (engines/knowledge/hex/vc.py, issue 33).

``ConnectionRoot`` wraps a searcher (engines/search/base.py's interface: search, advance, reset).
Per move it asks the connections once (``HSearch.root``: the mover's H-search, then the opponent's
only when the mover has no proven win): a proven win (an edge-to-edge semi's key, or a cell of a
full connection's carrier) is played at once; otherwise the searcher searches and its move is kept
to the must-play cells (where the carriers of the opponent's edge-to-edge semis meet).  Moves are
the game's actions (r * n + c); the counters say how often each case happened.
"""
from dataclasses import replace
from time import perf_counter

from engines.knowledge.hex.vc import DEFAULT_LIMITS, HSearch
from engines.search.result import WIN_PROBABILITY, SearchResult


class ConnectionRoot:
    """A searcher with H-search's connections at its root: when the side to move has a proven win
    it plays it without searching; otherwise the searcher searches (within the same limits, counted
    from the same start, so the connections' time is part of the move's) and its move is kept to the
    must-play cells: the most visited of them.  An empty must-play (the position is lost) leaves the
    searcher's move.  advance / reset go to the searcher (it notices a root it did not search)."""

    def __init__(self, searcher, game, limits=None, clock=None):
        self.searcher, self.game = searcher, game
        self.hsearch = HSearch(game.size, DEFAULT_LIMITS if limits is None else limits)
        self.clock = perf_counter if clock is None else clock
        self.decided = 0    # moves played from a proven win
        self.restricted = 0  # moves the must-play cells changed

    def search(self, state, limits):
        started = self.clock()
        win, must = self.hsearch.root(state)
        if win is not None:
            self.decided += 1
            return SearchResult(move=win, value=1.0, scale=WIN_PROBABILITY, moves=[win], visits=[0], values=[1.0],
                                pv=[win], stats={"time": self.clock() - started, "simulations": 0})
        result = self.searcher.search(state, replace(limits, start=started if limits.start is None else limits.start))
        if must and result.move not in must:
            keep_to(result, must)
            self.restricted += 1
        result.stats["time"] = self.clock() - started
        return result

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


__all__ = ["ConnectionRoot", "keep_to"]
