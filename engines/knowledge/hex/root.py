"""H-search's connections at the root of a Hex search (engines/knowledge/hex/vc.py, issue 33).

``ConnectionRoot`` wraps a searcher (engines/search/base.py's interface: search, advance, reset).
Per move it asks the connections once (``HSearch.root``: the mover's H-search, then the opponent's
only when the mover has no proven win): a proven win (an edge-to-edge semi's key, or a cell of a
full connection's carrier) is played at once; otherwise the searcher searches and its move is kept
to the must-play cells (where the carriers of the opponent's edge-to-edge semis meet).  With a
``SolverUse``, when few enough cells are empty the DFPN solver (engines/knowledge/hex/dfpn.py, its
table kept from move to move) then gets a share of the move's time (and at most a number of nodes):
a proven win is played at once, and moves it proved lost are kept out of the searcher's choice
(unless every move is).  With a ``MoveCheck``, the move the search chose is checked before it is
played, where the root solver does not run (more empty cells): the same solver (its table shared with
the root solver's) tries to prove that the opponent wins after it, within the share of the move's
time kept back from the search (and a number of nodes); a move proven lost gives way to the next most
visited one, checked in turn.  Why: each of plies' 14 games lost as Black to MoHex 2.0 on 9x9 (stop 48's
match) ended with a move after which MoHex proved its win at once; plies' own solver proves all 14 of
those moves lost (6 within 13 nodes), and in 6 of the positions before them finds a winning move
(bench/results/hex_move_check.md).  Moves are the game's actions
(r * n + c); the counters say how often each case happened.
"""
from dataclasses import replace
from time import perf_counter
from typing import NamedTuple

from engines.games.hex import HASH, HEADER, WINNER
from engines.knowledge.hex.dfpn import DfpnBudgetExceeded, HexDfpn
from engines.knowledge.hex.vc import DEFAULT_LIMITS, HSearch
from engines.search.result import WIN_PROBABILITY, Limits, SearchResult


PLAYER_TABLE = 200_000  # the root solver's table entries (about 50 MB), kept from move to move
SIMULATIONS_A_NODE = 100  # a move of simulations only: the check's nodes are its share of them over this (a
#                          solver node, fill-in and two H-searches, costs 2-15 ms on 9x9: 100-700 simulations)


class SolverUse(NamedTuple):
    """When and how long the DFPN solver runs at the root (the player's defaults: HexSettings' solver_*)."""
    empties: int     # at most this many empty cells
    share: float     # of the move's time (from its start), when the move has a time limit
    max_nodes: int   # evaluations a move, at most (the only bound without a time limit)


class MoveCheck(NamedTuple):
    """The check of the searched move by the DFPN solver (the player's defaults: HexSettings' check_*)."""
    share: float     # of the move's time kept back from the search for the check
    max_nodes: int   # evaluations a move, at most (without a time limit: also share x simulations / 100)
    candidates: int  # the most visited moves that may be checked, at most


class ConnectionRoot:
    """A searcher with H-search's connections at its root: when the side to move has a proven win
    it plays it without searching; otherwise the searcher searches (within the same limits, counted
    from the same start, so the connections' time is part of the move's) and its move is kept to the
    must-play cells: the most visited of them.  An empty must-play (the position is lost) leaves the
    searcher's move.  With a SolverUse, the DFPN solver runs between the two (see the module's
    docstring).  advance / reset go to the searcher (it notices a root it did not search)."""

    def __init__(self, searcher, game, limits=None, clock=None, solver: SolverUse | None = None,
                 check: MoveCheck | None = None):
        self.searcher, self.game = searcher, game
        self.hsearch = HSearch(game.size, DEFAULT_LIMITS if limits is None else limits)
        self.clock = perf_counter if clock is None else clock
        self.solver, self.check = solver, check
        self.dfpn = None if solver is None and check is None else HexDfpn(
            game, DEFAULT_LIMITS if limits is None else limits, max_entries=PLAYER_TABLE, clock=self.clock)
        self.decided = 0    # moves played from a proven win (the connections' or the solver's)
        self.restricted = 0  # moves the must-play cells (or the solver's lost moves) changed
        self.solved = 0     # moves the solver proved won
        self.avoided = 0    # moves the solver's lost moves changed
        self.refuted = 0    # searched moves the check proved lost (each gave way to another)

    def search(self, state, limits, think=None):
        """The move of state within limits; ``think(search, result)``, when given, may search on after
        the searcher's first result (``search(seconds)`` grows the same tree): the move check's share
        then follows where thinking on ended."""
        started = self.clock()
        win, must = self.hsearch.root(state)
        if win is not None:
            self.decided += 1
            return SearchResult(move=win, value=1.0, scale=WIN_PROBABILITY, moves=[win], visits=[0], values=[1.0],
                                pv=[win], stats={"time": self.clock() - started, "simulations": 0})
        lost = []
        solving = self.solver is not None and self._solver_runs(state)
        checking = self.check is not None and not solving  # (the root solver has tried the moves already)
        if solving:
            deadline = None if not limits.time else (limits.start or started) + self.solver.share * limits.time
            verdict, move, lost = self.dfpn.root(state, self.solver.max_nodes, deadline)
            if verdict:
                self.decided += 1
                self.solved += 1
                return SearchResult(move=move, value=1.0, scale=WIN_PROBABILITY, moves=[move], visits=[0],
                                    values=[1.0], pv=[move],
                                    stats={"time": self.clock() - started, "simulations": 0})
        start = started if limits.start is None else limits.start
        searched = replace(limits, start=start)
        if checking and limits.time:
            searched = replace(searched, time=limits.time * (1.0 - self.check.share))
        result = self.searcher.search(state, searched)
        if think is not None:
            result = think(lambda seconds: self.searcher.search(
                state, Limits(time=seconds, simulations=None, margin=0.0)), result)
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
        if checking:
            deadline = None if not limits.time else start + limits.time
            if deadline is not None and result.stats.get("thought_on"):  # its share after the slices
                deadline = self.clock() + self.check.share * limits.time
            nodes = self.check.max_nodes
            if deadline is None and limits.simulations:  # the check's share of the move's work
                nodes = min(nodes, max(1, round(self.check.share * limits.simulations / SIMULATIONS_A_NODE)))
            self._check(state, result, allowed, lost, deadline, nodes)
        result.stats["time"] = self.clock() - started
        return result

    def _check(self, state, result, allowed, lost, deadline, max_nodes) -> None:
        """Replaces result's move by the most visited candidate not proven lost.  The candidates are
        the searched moves by visits (within allowed, not in lost; the search's own choice first);
        each is tried by the solver (the opponent to move after it), at most check.candidates of
        them within max_nodes in all and the deadline, until one is not proven lost (unproven, or
        won).  A move proven lost also rules out every candidate outside its proof set (with all
        cells outside it ours the opponent still wins, so after any move outside it as well: the
        DFPN's own sibling pruning).  When the tries run out the next candidate left is played
        unchecked; when none is left (every one proven lost) the search's move stays."""
        ranked = sorted(zip(result.visits, result.moves), key=lambda vm: -vm[0])
        candidates = [int(m) for _, m in ranked if (allowed is None or m in allowed) and m not in lost]
        if result.move in candidates:  # the search's own choice first (keep_to may have made it)
            candidates.remove(result.move)
            candidates.insert(0, int(result.move))
        nodes = self.dfpn.nodes + max_nodes
        inside, tries = None, 0  # inside: the cells in every refuted move's proof set
        for move in candidates:
            if inside is not None and not (inside >> move) & 1:
                continue  # outside a refuted move's proof: lost too
            if tries == self.check.candidates or self.dfpn.nodes >= nodes or (
                    deadline is not None and self.clock() >= deadline):
                result.move = move  # no tries left: played unchecked
                return
            tries += 1
            child = self.game.play(state, move)
            if child[WINNER] >= 0:
                result.move = move  # a move that ends the game is the mover's win
                return
            try:
                opponent_wins = self.dfpn.solve(child, max(nodes - self.dfpn.nodes, 1), deadline).mover_wins
            except DfpnBudgetExceeded:
                opponent_wins = False  # not proven either way: it is played
            if not opponent_wins:
                result.move = move
                return
            self.refuted += 1
            entry = self.dfpn.table.get(int(child[HASH]))  # (None if a full table was cleared meanwhile)
            if entry is not None:
                inside = entry[3] if inside is None else inside & entry[3]

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
