"""Hex knowledge for the search: bridge playouts, inferior cells and virtual connections (issue 20).

Layout, players and neighbours are those of engines/games/hex.py: player 0 joins row 0 to row n-1,
player 1 column 0 to column n-1; a state carries its cells and a union-find over the cells plus the
four edge nodes (nn top, nn+1 bottom, nn+2 left, nn+3 right).

Representation.  The six neighbours of a cell are taken in RING order (each ring neighbour is
adjacent to the next one, cyclically), so "two neighbours i and i+2 of x with i+1 empty" is a bridge
through x.  A neighbour off the board is the edge of the player whose edge it is (rows out: player 0;
columns out: player 1), a wall for the other player.

Pieces (all compiled, numba ``cache=True``):
* Playouts (SIG_PLAYOUT).  ``playout_bridge``: uniformly random, except that when the last move
  intruded into a bridge (or a bridge-to-edge template) of the player to move, that player answers
  in the other carrier cell (at random among several).  ``playout_vc`` / ``playout_bridge_vc`` first
  look for a virtual connection of either player and return its result at once.
* Inferior cells (``analyse``).  A cell is *useless* for a colour C when the C-connections that a C
  stone there would make already exist: its non-wall neighbours (C groups by union-find root, C's
  edge, empty cells) are pairwise adjacent, the same group, or two cells next to one of those groups
  (at most two empty neighbours).  *Dead* = useless for both colours: its colour never matters (this covers the standard
  interior dead patterns, four neighbours of one colour in a row, three plus two, ..., and the edge
  ones).  A pair of adjacent empty cells {x, y} is *captured* by C when C at either makes the other
  dead: C answers an intrusion in the other, so both are filled for C.  Dead cells are filled (for the
  player not to move) and captured ones for their owner, repeatedly, on a copy (the fill-in).  For the
  mover C a cell x is *dominated* by a neighbour y when after C at y the cell x is dead
  (P + C@y = P + C@y + C@x >= P + C@x); dominated cells are dropped while their dominator stays.
  With F_VULNERABLE, the mover's *vulnerable* cells go too: x is vulnerable to its killer y (a
  neighbour) when the opponent's stone on y makes x dead (``vulnerable_cells`` says why pruning them
  all keeps a winning move; neither x nor y may be a dominator).
* Virtual connections (``vc_chain``).  Links between C's groups and edges: two groups (or a group
  and an edge) with two common empty neighbours (bridges, the bridge-to-edge template II), and the
  ziggurat (template IIIa) of a stone on the third row, both mirror images.  A depth-first search
  from one edge to the other takes links whose carriers are disjoint from the chain's (each link
  answers an intrusion on its own), so a chain it finds is a second-player win: sound, not complete.
* ``children`` kernels (SIG_LEGAL, for Knowledge.children): the mover's moves without dead, captured
  and dominated cells (``children_vulnerable*``: and vulnerable cells) (all legal moves when nothing
  is left); with connections: one move when the
  mover is connected already, the opponent's carrier (the cells outside it lose at once) when the
  opponent is.  Save-bridge cells (the other carrier cell of an own bridge the opponent intruded) come
  first in child order.

``hex_knowledge(game, patterns=, inferior=, connections=)`` (engines/knowledge/hex/registered.py) bundles them.
"""

import numba as nb
import numpy as np

from engines import kernels as K
from engines.games.hex import HEADER, NSTONES, SIZE, TO_MOVE, WINNER, flood_winner
from engines.rng import below

RING = np.array([[-1, 0], [-1, 1], [0, 1], [1, 0], [1, -1], [0, -1]], dtype=np.int64)
# the ziggurat (template IIIa) to the top edge of a stone at (2, c): carrier offsets, two mirror images
ZIGGURAT = np.array([[[0, 1], [-1, 0], [-1, 1], [-1, 2], [-2, 0], [-2, 1], [-2, 2], [-2, 3]],
                     [[0, -1], [-1, -1], [-1, 0], [-1, 1], [-2, -1], [-2, 0], [-2, 1], [-2, 2]]], dtype=np.int64)

# element kinds of a ring neighbour seen by one colour
WALL, GROUP, EMPTY = 0, 1, 2
# analyse() status
UNKNOWN, MOVER_CONNECTED, OPPONENT_CONNECTED = 0, 1, 2
# analyse() flags (F_VULNERABLE and F_FILLIN_INFERIOR act only with F_INFERIOR: they read the fill-in's board)
F_INFERIOR, F_VC, F_VULNERABLE, F_FILLIN_INFERIOR = 1, 2, 4, 8


@nb.njit(cache=True, inline="always")
def _find(s, base, x):
    root = x
    while s[base + root] != root:
        root = s[base + root]
    return root


@nb.njit(cache=True)
def place(s, a, colour):
    """Puts a stone of colour (0/1) on empty cell a and joins it to its groups and edges (no turn,
    winner, count or hash change: for analysis copies)."""
    n = s[SIZE]
    nn = n * n
    base = HEADER + nn
    s[HEADER + a] = colour + 1
    r = a // n
    c = a - r * n
    ra = _find(s, base, a)
    for d in range(6):
        rr = r + RING[d, 0]
        cc = c + RING[d, 1]
        if 0 <= rr < n and 0 <= cc < n and s[HEADER + rr * n + cc] == colour + 1:
            rb = _find(s, base, rr * n + cc)
            if rb != ra:
                s[base + rb] = ra
    edges = np.empty(2, dtype=np.int64)
    k = 0
    if colour == 0:
        if r == 0:
            edges[k] = nn
            k += 1
        if r == n - 1:
            edges[k] = nn + 1
            k += 1
    else:
        if c == 0:
            edges[k] = nn + 2
            k += 1
        if c == n - 1:
            edges[k] = nn + 3
            k += 1
    for i in range(k):
        rb = _find(s, base, edges[i])
        if rb != ra:
            s[base + rb] = ra


@nb.njit(cache=True, inline="always")
def _elem(s, n, rr, cc, colour):
    """(kind, id) of the point (rr, cc) for colour: an empty cell (id: cell), a group of colour (id:
    union-find root; the colour's edges included) or a wall."""
    nn = n * n
    rin = 0 <= rr < n
    cin = 0 <= cc < n
    if rin and cin:
        y = rr * n + cc
        v = s[HEADER + y]
        if v == 0:
            return EMPTY, y
        if v == colour + 1:
            return GROUP, _find(s, HEADER + nn, y)
        return WALL, -1
    if rin and colour == 1:  # a column out: player 1's edge
        return GROUP, _find(s, HEADER + nn, nn + 2 if cc < 0 else nn + 3)
    if cin and colour == 0:  # a row out: player 0's edge
        return GROUP, _find(s, HEADER + nn, nn if rr < 0 else nn + 1)
    return WALL, -1


@nb.njit(cache=True)
def _touches(s, n, e, root, colour):
    """Is the empty cell e next to the group (or edge) of colour with this union-find root?"""
    r = e // n
    c = e - r * n
    for d in range(6):
        kind, ident = _elem(s, n, r + RING[d, 0], c + RING[d, 1], colour)
        if kind == GROUP and ident == root:
            return True
    return False


@nb.njit(cache=True)
def useless(s, x, colour):
    """Would a stone of colour on empty cell x join nothing that is not joined already?"""
    n = s[SIZE]
    r = x // n
    c = x - r * n
    kinds = np.empty(6, dtype=np.int64)
    ids = np.empty(6, dtype=np.int64)
    empties = 0
    for d in range(6):
        kind, ident = _elem(s, n, r + RING[d, 0], c + RING[d, 1], colour)
        kinds[d] = kind
        ids[d] = ident
        if kind == EMPTY:
            empties += 1
    if empties > 2:
        return False
    for i in range(6):
        if kinds[i] == WALL:
            continue
        for j in range(i + 1, 6):
            if kinds[j] == WALL:
                continue
            if kinds[i] == GROUP and kinds[j] == GROUP:
                if ids[i] != ids[j]:
                    return False
            elif kinds[i] == EMPTY and kinds[j] == EMPTY:
                if j - i != 1 and j - i != 5:  # ring neighbours are adjacent, others are not ...
                    linked = False  # ... but two cells next to one group are joined through it
                    for k in range(6):
                        if kinds[k] == GROUP and not linked:
                            linked = _touches(s, n, ids[i], ids[k], colour) and _touches(s, n, ids[j], ids[k], colour)
                    if not linked:
                        return False
            elif kinds[i] == EMPTY:
                if not _touches(s, n, ids[i], ids[j], colour):
                    return False
            elif not _touches(s, n, ids[j], ids[i], colour):
                return False
    return True


@nb.njit(cache=True)
def dead(s, x):
    """Is the empty cell x dead (its colour can never change the winner)?"""
    return useless(s, x, 0) and useless(s, x, 1)


@nb.njit(cache=True, inline="always")
def _empty_neighbours(s, n, x):
    r = x // n
    c = x - r * n
    k = 0
    for d in range(6):
        rr = r + RING[d, 0]
        cc = c + RING[d, 1]
        if 0 <= rr < n and 0 <= cc < n and s[HEADER + rr * n + cc] == 0:
            k += 1
    return k


@nb.njit(cache=True)
def dead_after(s, work, x, y, colour):
    """Is x dead once colour has a stone on y? (work: scratch of the state's length)"""
    work[:] = s
    place(work, y, colour)
    return dead(work, x)


@nb.njit(cache=True)
def fill_in(s, w, work, dead_mark, captured_mark):
    """The fill-in on w (a copy of s is made into it): dead cells for the player not to move,
    captured pairs for their owner, until nothing changes.  dead_mark / captured_mark (bool, nn) say
    which cells were filled and why (captured_mark: 1 + owner).  Returns the number of cells filled."""
    n = s[SIZE]
    nn = n * n
    w[:] = s
    dead_mark[:] = False
    captured_mark[:] = 0
    other = 1 - s[TO_MOVE]
    filled = 0
    for _ in range(nn):
        changed = False
        for x in range(nn):
            if w[HEADER + x] != 0 or _empty_neighbours(w, n, x) > 2:
                continue
            if dead(w, x):
                place(w, x, other)
                dead_mark[x] = True
                filled += 1
                changed = True
        for x in range(nn):
            if w[HEADER + x] != 0 or _empty_neighbours(w, n, x) > 3:
                continue
            r = x // n
            c = x - r * n
            for d in range(6):
                rr = r + RING[d, 0]
                cc = c + RING[d, 1]
                if not (0 <= rr < n and 0 <= cc < n):
                    continue
                y = rr * n + cc
                if y < x or w[HEADER + y] != 0 or w[HEADER + x] != 0 or _empty_neighbours(w, n, y) > 3:
                    continue
                for colour in range(2):
                    if dead_after(w, work, x, y, colour) and dead_after(w, work, y, x, colour):
                        place(w, x, colour)
                        place(w, y, colour)
                        captured_mark[x] = 1 + colour
                        captured_mark[y] = 1 + colour
                        filled += 2
                        changed = True
                        break
        if not changed:
            break
    return filled


# ==== virtual connections ========================================================================

@nb.njit(cache=True)
def _zig_cell(n, edge, r, c, dr, dc):
    """The cell at offset (dr, dc) of the top-edge ziggurat, turned towards edge (0 top, 1 bottom,
    2 left, 3 right) around the stone (r, c); -1 off the board."""
    if edge == 0:
        rr, cc = r + dr, c + dc
    elif edge == 1:
        rr, cc = r - dr, c - dc
    elif edge == 2:
        rr, cc = r + dc, c + dr
    else:
        rr, cc = r - dc, c - dr
    if 0 <= rr < n and 0 <= cc < n:
        return rr * n + cc
    return -1


@nb.njit(cache=True)
def vc_chain(s, colour, carrier, semi):
    """Does colour have a virtual connection between its edges (bridges, two-common-cell links,
    template II and the ziggurat, carriers disjoint)?  With semi, a semi-connection (one link a single
    common empty cell, the key: colour connects by playing it) also counts.  Returns (count, key):
    count -1 if none was found, else the number of carrier cells written to carrier (0: connected by
    stones; the key, if one, among them); key -1 for a full connection."""
    n = s[SIZE]
    nn = n * n
    base = HEADER + nn
    e1 = nn if colour == 0 else nn + 2
    r1 = _find(s, base, e1)
    r2 = _find(s, base, e1 + 1)
    if r1 == r2:
        return 0, -1
    index = np.full(nn + 4, -1, dtype=np.int64)
    index[r1] = 0
    index[r2] = 1
    g = 2
    for x in range(nn):
        if s[HEADER + x] == colour + 1:
            root = _find(s, base, x)
            if index[root] < 0:
                index[root] = g
                g += 1
    # common empty neighbours of pairs of groups (up to four each)
    cnt = np.zeros(g * g, dtype=np.int64)
    common = np.empty(g * g * 4, dtype=np.int64)
    adj = np.empty(6, dtype=np.int64)
    for e in range(nn):
        if s[HEADER + e] != 0:
            continue
        r = e // n
        c = e - r * n
        k = 0
        for d in range(6):
            kind, ident = _elem(s, n, r + RING[d, 0], c + RING[d, 1], colour)
            if kind == GROUP:
                gi = index[ident]
                dup = False
                for t in range(k):
                    if adj[t] == gi:
                        dup = True
                if not dup:
                    adj[k] = gi
                    k += 1
        for a in range(k):
            for b in range(k):
                if a != b:
                    pair = adj[a] * g + adj[b]
                    if cnt[pair] < 4:
                        common[pair * 4 + cnt[pair]] = e
                        cnt[pair] += 1
    # ziggurats of stones on the third line from an own edge
    zg = np.empty(4 * n, dtype=np.int64)
    ze = np.empty(4 * n, dtype=np.int64)
    zc = np.empty((4 * n, 8), dtype=np.int64)
    nz = 0
    if n >= 4:
        for side in range(2):
            edge = 2 * colour + side
            for k in range(n):
                if colour == 0:
                    r, c = (2, k) if side == 0 else (n - 3, k)
                else:
                    r, c = (k, 2) if side == 0 else (k, n - 3)
                if s[HEADER + r * n + c] != colour + 1:
                    continue
                for m in range(2):
                    ok = True
                    for t in range(8):
                        y = _zig_cell(n, edge, r, c, ZIGGURAT[m, t, 0], ZIGGURAT[m, t, 1])
                        if y < 0 or s[HEADER + y] != 0:
                            ok = False
                            break
                        zc[nz, t] = y
                    if ok:
                        zg[nz] = index[_find(s, base, r * n + c)]
                        ze[nz] = side
                        nz += 1
                        break
    # depth-first search from edge 0 to edge 1, carriers disjoint along the path; links: pairs with
    # two free common cells (it 0..g-1), ziggurats (g..g+nz-1), then, when semi, one pair with a
    # single free common cell (the key; g+nz..2g+nz-1), at most once on the path
    used = np.zeros(nn, dtype=np.bool_)
    visited = np.zeros(2 * g, dtype=np.bool_)  # (group, the path used its semi link)
    depth = 2 * g + 2  # a path holds each (group, semi) pair once
    stack = np.empty(depth, dtype=np.int64)
    it = np.empty(depth, dtype=np.int64)
    cstart = np.empty(depth, dtype=np.int64)  # where each step's carrier starts in path_cells
    semi_on = np.zeros(depth, dtype=np.int64)
    keycell = np.full(depth, -1, dtype=np.int64)
    path_cells = np.empty(nn, dtype=np.int64)
    links = g + nz + (g if semi else 0)
    ncells = 0
    top = 0
    stack[0] = 0
    it[0] = 0
    cstart[0] = 0
    visited[0] = True
    while top >= 0:
        u = stack[top]
        sm = semi_on[top]
        if u == 1:
            for i in range(ncells):
                carrier[i] = path_cells[i]
            return ncells, keycell[top]
        moved = False
        while it[top] < links and not moved:
            j = it[top]
            it[top] += 1
            key = keycell[top]
            if j < g or j >= g + nz:
                is_semi = j >= g + nz
                jj = j - g - nz if is_semi else j
                if is_semi and sm:
                    continue
                v = 1 if jj == 0 else (jj if jj != 1 else 0)  # the far edge first
                vs = 1 if (sm or is_semi) else 0
                if visited[2 * v + vs]:
                    continue
                pair = u * g + v
                pick0 = -1
                pick1 = -1
                for t in range(cnt[pair]):
                    y = common[pair * 4 + t]
                    if not used[y]:
                        if pick0 < 0:
                            pick0 = y
                        elif pick1 < 0:
                            pick1 = y
                if pick0 < 0 or (pick1 < 0 and not is_semi):
                    continue
                used[pick0] = True
                path_cells[ncells] = pick0
                ncells += 1
                if is_semi:
                    key = pick0
                else:
                    used[pick1] = True
                    path_cells[ncells] = pick1
                    ncells += 1
            else:
                z = j - g
                vs = sm
                if zg[z] == u and not visited[2 * ze[z] + vs]:
                    v = ze[z]
                elif ze[z] == u and not visited[2 * zg[z] + vs]:
                    v = zg[z]
                else:
                    continue
                clash = False
                for t in range(8):
                    if used[zc[z, t]]:
                        clash = True
                if clash:
                    continue
                for t in range(8):
                    used[zc[z, t]] = True
                    path_cells[ncells + t] = zc[z, t]
                ncells += 8
            visited[2 * v + vs] = True
            top += 1
            stack[top] = v
            semi_on[top] = vs
            keycell[top] = key
            it[top] = 0
            cstart[top] = ncells
            moved = True
        if not moved:  # backtrack: free the carrier of the link into this group
            if top > 0:
                start = cstart[top - 1]
                for i in range(start, ncells):
                    used[path_cells[i]] = False
                ncells = start
            top -= 1
    return -1, -1


@nb.njit(cache=True)
def vc_winner(s):
    """0 or 1 when that player is connected by virtual connections (the player to move also by a
    semi-connection: it plays the key), -1 when neither is found."""
    if s[WINNER] >= 0:
        return s[WINNER]
    nn = s[SIZE] * s[SIZE]
    carrier = np.empty(nn, dtype=np.int64)
    p = s[TO_MOVE]
    if vc_chain(s, p, carrier, True)[0] >= 0:  # a semi-connection of the mover wins too
        return p
    if vc_chain(s, 1 - p, carrier, False)[0] >= 0:
        return 1 - p
    return -1


# ==== inferior-cell analysis and the children ===================================================

@nb.njit(cache=True)
def _save_bridge(s, n, m, colour):
    """Is the empty cell m the other carrier cell of a bridge (or bridge-to-edge) of colour that the
    opponent intruded into?"""
    r = m // n
    c = m - r * n
    for d in range(6):
        ka, _ = _elem(s, n, r + RING[d, 0], c + RING[d, 1], colour)
        if ka != GROUP:
            continue
        d1 = (d + 1) % 6
        d2 = (d + 2) % 6
        rr = r + RING[d1, 0]
        cc = c + RING[d1, 1]
        if not (0 <= rr < n and 0 <= cc < n) or s[HEADER + rr * n + cc] != 2 - colour:
            continue
        kb, _ = _elem(s, n, r + RING[d2, 0], c + RING[d2, 1], colour)
        if kb == GROUP:
            return True
    return False


@nb.njit(cache=True)
def vulnerable_cells(w, work, keep, pruned, dominator, p):
    """Marks in pruned the mover's (p's) vulnerable cells of the filled board w: an empty x that
    the opponent's stone on a neighbour y (its killer) makes dead.  Neither x nor y may be a
    dominator (another cell's reason to be pruned).  Returns how many cells it marked.

    Why pruning them all keeps a winning move (no killer needs to stay a candidate): if x wins,
    the mover still wins after the opponent's y (x is dead there, so the mover's x is as good as the
    opponent's), i.e. the mover wins w + the opponent on x and y, moving first; every winning move
    there wins w too (Hex is monotone).  Such a move is a candidate, or again vulnerable (deadness
    survives added stones, so with its killer still empty, or already the opponent's, the same step
    applies on a board with two more opponent stones), or dominated (its dominator stays empty:
    dominators are never killers or vulnerable, and it wins too).  The board fills up, and a full
    board the mover wins would mean the mover had connected already: the chain ends at a candidate."""
    n = w[SIZE]
    nn = n * n
    other = 1 - p
    marked = 0
    for x in range(nn):
        if not keep[x] or pruned[x] or dominator[x] or _empty_neighbours(w, n, x) > 3:
            continue
        r = x // n
        c = x - r * n
        for d in range(6):
            rr = r + RING[d, 0]
            cc = c + RING[d, 1]
            if 0 <= rr < n and 0 <= cc < n:
                y = rr * n + cc
                if w[HEADER + y] == 0 and not dominator[y] and dead_after(w, work, x, y, other):
                    pruned[x] = True
                    marked += 1
                    break
    return marked


@nb.njit(cache=True)
def fillin_inferior(w, keep, dominated, dominator, pruned, support, p):
    """Domination and vulnerability read from whole fill-ins (benzene's way), for the mover p on
    the filled board w: y dominates x when x is filled in the fill-in of w + p@y as dead or as
    captured for p (w + p@y is worth its fill-in, which holds p's stone on x, so >= w + p@x);
    x is vulnerable to the killer y (any empty cell) when x is filled as dead in the fill-in of
    w + opponent@y, and that fill-in captured nothing for p.  Marks dominated (and in dominator the
    dominators and the cells captured for p that a domination relies on: they are never pruned as
    vulnerable nor killers, so they stay empty in vulnerable_cells' argument), then pruned (the
    vulnerable cells; x and y outside dominator).  support: the cells a loss proof must keep beside
    the pruned cells' neighbourhoods (dominators, killers, and the cells a fill-in used captured for
    the opponent, which must stay empty when the cells outside the proof go to p).  Returns the
    number of cells marked.  2 n^2 fill-ins: for the solver, too slow for the tree."""
    n = w[SIZE]
    nn = n * n
    u = np.empty_like(w)
    f = np.empty_like(w)
    work = np.empty_like(w)
    dead_mark = np.zeros(nn, dtype=np.bool_)
    captured = np.zeros(nn, dtype=np.int64)
    marked = 0
    for y in range(nn):
        if not keep[y] or dominated[y]:
            continue
        u[:] = w
        place(u, y, p)
        fill_in(u, f, work, dead_mark, captured)
        hit = False
        for x in range(nn):
            if x != y and keep[x] and not dominated[x] and f[HEADER + x] != 0 and (dead_mark[x] or captured[x] == 1 + p):
                dominated[x] = True
                hit = True
                marked += 1
        if hit:
            dominator[y] = True
            support[y] = True
            for z in range(nn):
                if captured[z] == 1 + p:
                    dominator[z] = True
                elif captured[z] == 2 - p:
                    support[z] = True
    for y in range(nn):
        if w[HEADER + y] != 0 or dominator[y]:
            continue
        u[:] = w
        place(u, y, 1 - p)
        fill_in(u, f, work, dead_mark, captured)
        mine = False
        for z in range(nn):
            if captured[z] == 1 + p:
                mine = True
        if mine:
            continue
        hit = False
        for x in range(nn):
            if x != y and keep[x] and not dominated[x] and not pruned[x] and not dominator[x] and dead_mark[x]:
                pruned[x] = True
                hit = True
                marked += 1
        if hit:
            support[y] = True
            for z in range(nn):
                if captured[z] == 2 - p:
                    support[z] = True
    return marked


@nb.njit(cache=True)
def analyse(s, out, flags):
    """analyse_into without the support (see there)."""
    return analyse_into(s, out, flags, np.zeros(s[SIZE] * s[SIZE], dtype=np.bool_))


@nb.njit(cache=True)
def analyse_into(s, out, flags, support):
    """The mover's candidate moves after inferior-cell pruning (flags & F_INFERIOR; with
    F_VULNERABLE also the vulnerable cells) and connection
    checks (flags & F_VC), save-bridge cells first.  Returns (count, status): status
    MOVER_CONNECTED (out: one winning move: the key of the mover's semi-connection, or a cell of its
    connection's carrier), OPPONENT_CONNECTED (the opponent is connected, or connects whatever the
    mover does: out holds the candidates in the opponent's carrier, or all if none is) or UNKNOWN
    (out: the candidates, cut to the carrier of an opponent's semi-connection if it has one).
    count is 0 only for a final position.  support (bool, n*n; cleared here): the cells the pruning
    relied on beyond the pruned cells' neighbourhoods (F_FILLIN_INFERIOR's: fillin_inferior)."""
    support[:] = False
    if s[WINNER] >= 0:
        return 0, UNKNOWN
    n = s[SIZE]
    nn = n * n
    p = s[TO_MOVE]
    keep = np.zeros(nn, dtype=np.bool_)
    for x in range(nn):
        keep[x] = s[HEADER + x] == 0
    w = s.copy()
    if flags & F_INFERIOR:
        work = np.empty_like(s)
        dead_mark = np.zeros(nn, dtype=np.bool_)
        captured = np.zeros(nn, dtype=np.int64)
        fill_in(s, w, work, dead_mark, captured)
        for x in range(nn):
            if w[HEADER + x] != 0:
                keep[x] = False
        # dominated for the mover: x is dead once the mover holds a neighbour y that stays a candidate
        dominated = np.zeros(nn, dtype=np.bool_)
        dominator = np.zeros(nn, dtype=np.bool_)  # the cells some dominated cell relies on
        for x in range(nn):
            if not keep[x] or _empty_neighbours(w, n, x) > 3:
                continue
            r = x // n
            c = x - r * n
            for d in range(6):
                rr = r + RING[d, 0]
                cc = c + RING[d, 1]
                if 0 <= rr < n and 0 <= cc < n:
                    y = rr * n + cc
                    if keep[y] and not dominated[y] and dead_after(w, work, x, y, p):
                        dominated[x] = True
                        dominator[y] = True
                        break
        vulnerable = np.zeros(nn, dtype=np.bool_)
        if flags & F_FILLIN_INFERIOR:
            fillin_inferior(w, keep, dominated, dominator, vulnerable, support, p)
        if flags & F_VULNERABLE:
            vulnerable_cells(w, work, keep, vulnerable, dominator, p)
        for x in range(nn):
            if dominated[x] or vulnerable[x]:
                keep[x] = False
    status = UNKNOWN
    carrier = np.empty(nn, dtype=np.int64)
    inside = np.zeros(nn, dtype=np.bool_)
    winning = -1
    if flags & F_VC:
        k, key = vc_chain(w, p, carrier, True)
        if k >= 0:
            status = MOVER_CONNECTED
            winning = key
            for i in range(k):  # connected already: a move in the carrier makes progress
                if winning < 0 and keep[carrier[i]]:
                    winning = carrier[i]
            for x in range(nn):  # connected through the fill-in: a cell captured for the mover joins
                if winning < 0 and s[HEADER + x] == 0 and w[HEADER + x] == p + 1:
                    winning = x
        else:
            k, key = vc_chain(w, 1 - p, carrier, True)
            if k >= 0:  # the opponent is connected (key < 0) or connects with the key: the mustplay
                if key < 0:
                    status = OPPONENT_CONNECTED
                for i in range(k):
                    inside[carrier[i]] = True
                hit = False
                for x in range(nn):
                    if keep[x] and inside[x]:
                        hit = True
                if hit:
                    for x in range(nn):
                        if not inside[x]:
                            keep[x] = False
                else:
                    status = OPPONENT_CONNECTED
    if winning >= 0:
        out[0] = winning
        return 1, status
    count = 0
    for x in range(nn):  # save-bridge cells first
        if keep[x] and _save_bridge(s, n, x, p):
            out[count] = x
            count += 1
            keep[x] = False
    for x in range(nn):
        if keep[x]:
            out[count] = x
            count += 1
    if count == 0:  # every empty cell was pruned: the position is decided, any move will do
        for x in range(nn):
            if s[HEADER + x] == 0:
                out[count] = x
                count += 1
    if status == MOVER_CONNECTED and count > 1:
        count = 1
    return count, status


@nb.njit(K.SIG_LEGAL, cache=True)
def children_inferior(s, out):
    """Legal moves without dead, captured and dominated cells (save-bridge cells first)."""
    return analyse(s, out, F_INFERIOR)[0]


@nb.njit(K.SIG_LEGAL, cache=True)
def children_vc(s, out):
    """Legal moves, cut by virtual connections (one move when won, the opponent's carrier when lost)."""
    return analyse(s, out, F_VC)[0]


@nb.njit(K.SIG_LEGAL, cache=True)
def children_full(s, out):
    """Inferior-cell pruning and connection cuts together."""
    return analyse(s, out, F_INFERIOR | F_VC)[0]


@nb.njit(K.SIG_LEGAL, cache=True)
def children_vulnerable(s, out):
    """children_inferior without the mover's vulnerable cells either."""
    return analyse(s, out, F_INFERIOR | F_VULNERABLE)[0]


@nb.njit(K.SIG_LEGAL, cache=True)
def children_vulnerable_full(s, out):
    """children_full without the mover's vulnerable cells either."""
    return analyse(s, out, F_INFERIOR | F_VULNERABLE | F_VC)[0]


# ==== playouts ==================================================================================

@nb.njit(cache=True)
def _stone_owner(s, n, rr, cc, p):
    """GROUP-like test without union-find (the playout does not keep it): p's stone or p's edge."""
    rin = 0 <= rr < n
    cin = 0 <= cc < n
    if rin and cin:
        return s[HEADER + rr * n + cc] == p + 1
    if rin and p == 1:
        return True
    if cin and p == 0:
        return True
    return False


@nb.njit(cache=True)
def bridge_response(s, n, x, p, rng):
    """The cell that restores a bridge (or bridge-to-edge) of player p into which the stone on x
    intruded; -1 if none (a random one of several).  Reads cells only (a playout's union-find is stale)."""
    r = x // n
    c = x - r * n
    answer = -1
    k = 0
    for d in range(6):
        if not _stone_owner(s, n, r + RING[d, 0], c + RING[d, 1], p):
            continue
        d2 = (d + 2) % 6
        if not _stone_owner(s, n, r + RING[d2, 0], c + RING[d2, 1], p):
            continue
        d1 = (d + 1) % 6
        rr = r + RING[d1, 0]
        cc = c + RING[d1, 1]
        if 0 <= rr < n and 0 <= cc < n and s[HEADER + rr * n + cc] == 0:
            k += 1
            if k == 1 or below(rng, k) == 0:  # reservoir sampling: each answer with chance 1/k
                answer = rr * n + cc
    return answer


@nb.njit(cache=True)
def fill_start(s, connections, empties, pos):
    """A playout's start: -1 when the game is decided already (a winner, or with connections a virtual
    connection, whose winner is then set); else the empty cells listed in empties[:k] (pos: a cell's index
    there, -1 for a stone) and k returned."""
    if s[WINNER] >= 0:
        return -1
    if connections:
        v = vc_winner(s)
        if v >= 0:
            s[WINNER] = v
            return -1
    k = 0
    for i in range(s[SIZE] * s[SIZE]):
        pos[i] = -1
        if s[HEADER + i] == 0:
            empties[k] = i
            pos[i] = k
            k += 1
    return k


@nb.njit(cache=True)
def _fill(s, rng, bridges, connections, trace, empties, pos):
    """The playout's body: fill every empty cell (answering bridge intrusions when bridges), record
    the moves in trace when it is not empty, set the winner.  Returns the moves played (0 when a
    virtual connection decided at the start; the winner is set all the same)."""
    k = fill_start(s, connections, empties, pos)
    if k < 0:
        return 0
    n = s[SIZE]
    nn = n * n
    p = s[TO_MOVE]
    last = -1
    tracing = trace.shape[0] > 0
    for i in range(k):
        j = -1
        if bridges and last >= 0:
            answer = bridge_response(s, n, last, p, rng)
            if answer >= 0:
                j = pos[answer]
        if j < 0:
            j = i + below(rng, k - i)
        e = empties[j]
        moved = empties[i]
        empties[j] = moved
        pos[moved] = j
        empties[i] = e
        pos[e] = i
        s[HEADER + e] = p + 1
        if tracing:
            trace[i] = e
        last = e
        p = 1 - p
    s[WINNER] = flood_winner(s[HEADER:HEADER + nn], n)
    s[TO_MOVE] = p
    s[NSTONES] += k
    return k


@nb.njit(cache=True)
def _playout(s, rng, bridges, connections):
    nn = s[SIZE] * s[SIZE]
    _fill(s, rng, bridges, connections, np.empty(0, dtype=np.int64), np.empty(nn, dtype=np.int64),
          np.empty(nn, dtype=np.int64))
    return 1.0 if s[WINNER] == 0 else 0.0


@nb.njit(cache=True)
def _traced(s, rng, trace, bridges, connections):
    """A traced playout (SIG_TRACED_PLAYOUT, for the RAVE search): the moves go to trace[:k], and
    trace's tail is the scratch space (playout_scratch(n) entries in all)."""
    nn = s[SIZE] * s[SIZE]
    return _fill(s, rng, bridges, connections, trace[:nn], trace[nn:2 * nn], trace[2 * nn:3 * nn])


@nb.njit(K.SIG_TRACED_PLAYOUT, cache=True)
def traced_uniform(s, rng, trace, params):
    """The uniformly random fill, traced."""
    return _traced(s, rng, trace, False, False)


@nb.njit(K.SIG_TRACED_PLAYOUT, cache=True)
def traced_bridge(s, rng, trace, params):
    """The bridge playout, traced."""
    return _traced(s, rng, trace, True, False)


@nb.njit(K.SIG_TRACED_PLAYOUT, cache=True)
def traced_bridge_vc(s, rng, trace, params):
    """The bridge playout after the connection check, traced (no moves when a connection decides)."""
    return _traced(s, rng, trace, True, True)


@nb.njit(K.SIG_TRACED_PLAYOUT, cache=True)
def traced_vc(s, rng, trace, params):
    """The uniform fill after the connection check, traced."""
    return _traced(s, rng, trace, False, True)


def playout_scratch(n: int) -> int:
    """Trace entries a traced playout of an n x n board wants (moves, then its scratch)."""
    return 3 * n * n


@nb.njit(K.SIG_PLAYOUT, cache=True)
def playout_bridge(s, rng):
    """Random playout that answers every intrusion into a bridge of the player to move."""
    return _playout(s, rng, True, False)


@nb.njit(K.SIG_PLAYOUT, cache=True)
def playout_vc(s, rng):
    """Random playout, or at once the result of a virtual connection found at its start."""
    return _playout(s, rng, False, True)


@nb.njit(K.SIG_PLAYOUT, cache=True)
def playout_bridge_vc(s, rng):
    """Bridge playout, or at once the result of a virtual connection found at its start."""
    return _playout(s, rng, True, True)


# ==== the bundle's kernels ======================================================================

def playout_kernel(patterns: bool, connections: bool):
    """The playout for a choice of pieces (None: the game's own uniform playout)."""
    if patterns:
        return playout_bridge_vc if connections else playout_bridge
    return playout_vc if connections else None


def traced_kernel(patterns: bool, connections: bool):
    """The traced playout (RAVE) for a choice of pieces."""
    if patterns:
        return traced_bridge_vc if connections else traced_bridge
    return traced_vc if connections else traced_uniform


def children_kernel(inferior: bool, connections: bool, vulnerable: bool = False):
    """The children kernel for a choice of pieces (None: the game's legal moves); vulnerable (with
    inferior only): the mover's vulnerable cells pruned too."""
    if inferior and vulnerable:
        return children_vulnerable_full if connections else children_vulnerable
    if inferior:
        return children_full if connections else children_inferior
    return children_vc if connections else None


KERNELS = (playout_bridge, playout_vc, playout_bridge_vc, children_inferior, children_vc, children_full,
           children_vulnerable, children_vulnerable_full)
CHILDREN = (children_inferior, children_vc, children_full, children_vulnerable, children_vulnerable_full)
TRACED = (traced_uniform, traced_bridge, traced_vc, traced_bridge_vc)
