"""Who owns each point of a Go position, and which stones are alive, dead or in seki.

Ownership.  ``ownership(state, playouts, seed)`` runs K random playouts from the position (the
game's playout, engines/games/go.py ``playout_traced``: uniformly random legal moves that never fill
an own eye, until two passes; here also never a self-atari of a chain of two or more stones that
captures nothing, michi's and Pachi's rule, without which a seki pair dies in every playout by
whoever moves first) and averages, per point, who owns it at the end: a stone's colour, or
for an empty point the one colour of all its on-board neighbours (an eye); +1 is Black, -1 White, 0
neither.  The result is n*n floats in [-1, 1] in action order (row 0 the BOTTOM row, as Go's
actions count), the same form as a search's ``stats["ownership"]``.  One compiled kernel
(``ownership_playouts``); the playouts clear the game-over flag, so a finished position (two
passes) is played on to the end.

Status.  ``stone_status(cells, owner, threshold)`` classifies each chain from the ownership of its
stones (m: the chain's mean ownership from its own colour's view):
  dead   m < -threshold (the other colour owns the chain's points), or m < 0 and the chain's region
         (its stones and the empty points and own stones reached from them without crossing an
         opponent stone) has a mean ownership below -threshold from the chain's view: a stone
         inside the opponent's area, which uniform random playouts often let live for a while;
  seki   not dead, and one of its liberties touches a chain of the other colour that is not dead
         either, and a stone of either colour there would be a self-atari of a chain of two or more
         stones (or suicide) capturing nothing: neither side can fill that shared liberty;
  alive  everything else (an unsettled neutral group gets the benefit of the doubt).
It works on the board view (``cells``: rows from the TOP, 0 empty, 1 black, 2 white) and ownership
in the same view, so an adapter turns a search's ownership into statuses without knowing the kernel.
"""
import numba as nb
import numpy as np

from engines.games.go import (A_CNT, A_EPOS, A_HEAD, A_NEXT, BLACK, EMPTY_CELL, HEADER, N_ARRAYS, NEMPTY, NPASS,
                              OK, OVER, PLAYOUT_CAP_PER_POINT, PSIZE, SIZE, STRIDE, TO_MOVE, WHITE, _check,
                              _in_atari, _is_eye, _pass, _place, set_aside_empty)
from engines.rng import below, make_rng

DEFAULT_PLAYOUTS = 400     # playouts of ownership(): the fraction's standard error is about 0.05
DEFAULT_THRESHOLD = 0.2    # a chain whose mean ownership (or its region's), from its own view, is below -this is dead


@nb.njit(cache=True)
def self_atari(s, p, c, heads):
    """True when a stone of colour c (1/2) on the empty point p (padded) would leave its chain of
    two or more stones with a single liberty without capturing anything.  heads: int64[4] scratch."""
    W = s[STRIDE]
    P = s[PSIZE]
    o = 3 - c
    lib = -1
    size = 1
    nh = 0
    for q in (p - 1, p + 1, p - W, p + W):
        v = s[HEADER + q]
        if v == EMPTY_CELL:
            if lib == -1:
                lib = q
            elif q != lib:
                return False
        elif v == o:
            if _in_atari(s, s[HEADER + A_HEAD * P + q]):
                return False  # its one liberty is p: the move captures
        elif v == c:
            h = s[HEADER + A_HEAD * P + q]
            known = False
            for i in range(nh):
                if heads[i] == h:
                    known = True
            if known:
                continue
            heads[nh] = h
            nh += 1
            size += s[HEADER + A_CNT * P + h]
            x = h
            while True:
                for y in (x - 1, x + 1, x - W, x + W):
                    if s[HEADER + y] == EMPTY_CELL and y != p:
                        if lib == -1:
                            lib = y
                        elif y != lib:
                            return False
                x = s[HEADER + A_NEXT * P + x]
                if x == h:
                    break
    return size >= 2


@nb.njit(cache=True)
def careful_playout(s, rng, heads):
    """The game's random playout (go.playout_traced) that also refuses self-ataris of chains of
    two or more stones; in place.  Stops after 3*n*n moves."""
    n = s[SIZE]
    P = s[PSIZE]
    em = HEADER + N_ARRAYS * P
    ep = HEADER + A_EPOS * P
    cap = PLAYOUT_CAP_PER_POINT * n * n
    steps = 0
    while s[OVER] == 0 and steps < cap:
        c = s[TO_MOVE] + 1
        k = s[NEMPTY]
        chosen = -1
        while k > 0:
            i = below(rng, k)
            p = s[em + i]
            if _check(s, p, c, False) == OK and not _is_eye(s, p, c) and not self_atari(s, p, c, heads):
                chosen = p
                break
            k -= 1
            set_aside_empty(s, em, ep, i, k)
        if chosen >= 0:
            _place(s, chosen, c)
        else:
            _pass(s)
        steps += 1


@nb.njit(cache=True)
def ownership_playouts(state, playouts, rng, out):
    """out[a] (n*n floats, action order) = the mean ownership of point a over ``playouts`` random
    playouts from state: +1 Black, -1 White, 0 neither (a shared empty point)."""
    n = state[SIZE]
    W = state[STRIDE]
    for a in range(n * n):
        out[a] = 0.0
    scratch = np.empty_like(state)
    heads = np.empty(4, dtype=np.int64)
    for _ in range(playouts):
        scratch[:] = state
        scratch[OVER] = 0
        scratch[NPASS] = 0
        careful_playout(scratch, rng, heads)
        for r in range(n):
            for c in range(n):
                p = (r + 1) * W + c + 1
                v = scratch[HEADER + p]
                if v == BLACK:
                    out[r * n + c] += 1.0
                elif v == WHITE:
                    out[r * n + c] -= 1.0
                elif v == EMPTY_CELL:
                    seen = 0
                    for q in (p - 1, p + 1, p - W, p + W):
                        u = scratch[HEADER + q]
                        if u == BLACK or u == WHITE:
                            seen |= u
                        elif u == EMPTY_CELL:
                            seen |= 3
                    if seen == BLACK:
                        out[r * n + c] += 1.0
                    elif seen == WHITE:
                        out[r * n + c] -= 1.0
    if playouts > 0:
        for a in range(n * n):
            out[a] /= playouts


def ownership(state, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0) -> np.ndarray:
    """Mean ownership of each point (n*n floats in [-1, 1], action order, +1 Black) over
    ``playouts`` seeded random playouts from a Go state."""
    state = np.ascontiguousarray(state, dtype=np.int64)
    n = int(state[SIZE])
    out = np.zeros(n * n, dtype=np.float64)
    ownership_playouts(state, int(playouts), make_rng(seed), out)
    return out


def to_view(owner, size: int) -> np.ndarray:
    """Ownership in action order (row 0 at the bottom) as an (n, n) grid of the board view (row 0
    at the top)."""
    return np.asarray(owner, dtype=np.float64).reshape(size, size)[::-1]


def chains(cells):
    """The chains of a board view: a list of (colour, [points], {liberties})."""
    grid = np.asarray(cells)
    n = grid.shape[0]
    seen = np.zeros((n, n), dtype=bool)
    out = []
    for i in range(n):
        for j in range(n):
            colour = int(grid[i, j])
            if colour == 0 or seen[i, j]:
                continue
            stones, libs, todo = [], set(), [(i, j)]
            seen[i, j] = True
            while todo:
                r, c = todo.pop()
                stones.append((r, c))
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= rr < n and 0 <= cc < n:
                        v = int(grid[rr, cc])
                        if v == 0:
                            libs.add((rr, cc))
                        elif v == colour and not seen[rr, cc]:
                            seen[rr, cc] = True
                            todo.append((rr, cc))
            out.append((colour, sorted(stones), libs))
    return out


def _fills_badly(grid, point, colour) -> bool:
    """A stone of colour on the empty point would be suicide, or a self-atari of a chain of two or
    more stones that captures nothing (the board view, plain Python)."""
    trial = grid.copy()
    trial[point] = colour
    for chain_colour, stones, libs in chains(trial):
        if chain_colour != colour and len(libs) == 0:
            return False  # captures
    for chain_colour, stones, libs in chains(trial):
        if point in stones:
            return len(libs) == 0 or (len(libs) == 1 and len(stones) >= 2)
    return False


def stone_status(cells, owner_view, threshold: float = DEFAULT_THRESHOLD) -> dict:
    """{"alive": [...], "dead": [...], "seki": [...]}: the stones (board-view points, sorted) of
    each status, from the ownership grid in the board view (+1 Black); see the module's header."""
    owner_view = np.asarray(owner_view, dtype=np.float64)
    found = chains(cells)
    means = []
    for colour, stones, _libs in found:
        sign = 1.0 if colour == 1 else -1.0
        means.append(sign * float(np.mean([owner_view[p] for p in stones])))
    grid = np.asarray(cells).astype(np.int8)
    n = grid.shape[0]
    regions = []
    for colour, stones, _libs in found:
        sign = 1.0 if colour == 1 else -1.0
        seen, todo = set(stones), list(stones)
        while todo:
            r, c = todo.pop()
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < n and 0 <= cc < n and (rr, cc) not in seen and grid[rr, cc] != 3 - colour:
                    seen.add((rr, cc))
                    todo.append((rr, cc))
        regions.append(sign * float(np.mean([owner_view[p] for p in seen])))
    dead = [m < -threshold or (m < 0 and region < -threshold) for m, region in zip(means, regions)]
    living_libs = {1: set(), 2: set()}   # liberties of the chains of each colour that are not dead
    for (colour, _stones, libs), is_dead in zip(found, dead):
        if not is_dead:
            living_libs[colour] |= libs
    shared = living_libs[1] & living_libs[2]
    unfillable = {x for x in shared if _fills_badly(grid, x, 1) and _fills_badly(grid, x, 2)}
    status = {"alive": [], "dead": [], "seki": []}
    for (colour, stones, libs), is_dead in zip(found, dead):
        if is_dead:
            kind = "dead"
        elif libs & unfillable:
            kind = "seki"
        else:
            kind = "alive"
        status[kind] += stones
    return {kind: sorted(points) for kind, points in status.items()}
