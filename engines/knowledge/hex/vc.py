"""Virtual connections of Hex by H-search (Anshelevich, "A hierarchical approach to computer Hex",
2002), compiled with numba: full and semi connections between a colour's groups, empty cells and its
two edges, built bottom-up by the AND and OR rules, with bounded lists (issue 33, items 2 and 3).

Board layout, players and neighbours are engines/games/hex.py's: player 0 joins row 0 to row n-1,
player 1 column 0 to column n-1.

Endpoints.  For one colour C, an endpoint is an empty cell (its id is the cell), a group of C's
stones touching neither edge (id: its smallest cell), or one of C's two edges (ids nn and nn+1; a
group touching an edge IS that edge).  The opponent's stones are walls, never endpoints.

Connections.  A *full* connection (x, y, K) says C connects x and y whatever the opponent does, using
only the empty cells of the carrier K (an empty endpoint counts as if C had played it).  A *semi*
connection also needs one C move first (its key, inside K).  Carriers are bitsets of empty cells:
WORDS uint64 words (6 words, 384 bits, cover 19x19); a board of nn cells uses (nn + 63) // 64 of them.
  base:  x and y adjacent (one of them an empty cell) -> full, empty carrier
  AND:   full (x, z, A) and full (z, y, B), A and B disjoint, x not in B, y not in A:
         z a group -> full (x, y, A|B); z empty -> semi (x, y, A|B|{z}), key z;
         also semi (x, z, A) and full (z, y, B) over a group z -> semi (x, y, A|B), the same key
  OR:    semis (x, y, K1..Km) whose carriers intersect in nothing -> full (x, y, K1|..|Km)
Every connection lives once in a pool (``HWork``) in the order it was found; the AND rule joins each
connection with the ones found before it over a shared midpoint (so every pair is tried exactly once,
breadth first), the OR rule runs when a semi is added (the new semi with up to ``max_or - 1`` older
ones).  A connection whose carrier contains one already known for the pair (a semi: a full's or a
semi's) is not kept.  With ``keep_smallest`` (the default, as in benzene) a pair's lists are
ordered by carrier size, smallest first: a full list takes a smaller newcomer by dropping its largest, and a newcomer removes the pair's connections whose
carriers contain its own (a new full: fulls and semis; a new semi: semis), so each list holds no two
nested carriers (an OR's union then contains no kept semi, so an OR never removes one of the semis
it walks).  Without it the lists are first come, first kept (the lists before issue 33's follow-up).
A connection taken out of a list stays in the pool (append-only: every index anyone holds, such as
stats[S_CONNECTED], stays a valid connection, and the connections derived from it only needed its
carrier to be a valid set when they were built) but is marked ``dropped``: the AND rule no longer
starts from it, and no list offers it.  Limits (``HLimits``, the "soft limits" of MoHex's
engine): connections kept per pair (fulls, semis), semis per OR, the pool's size, the carrier
operations of one search; reaching one makes the search less complete, never unsound.

Queries (the player's edges are ids nn, nn+1 of its colour):
  ``connected(state, player)``  a full connection between the player's edges (a proven win)
  ``must_play(state, player)``  the cells the player must play in: the intersection of the carriers
      (keys included) of the opponent's edge-to-edge semis; empty: the player has lost; None: the
      opponent has no such semi.
stats (int64[S_COUNT]): S_OPS counts carrier operations (the AND and OR rules' joins and the
subset checks), S_VCS the connections kept, S_CONNECTED the pool index of an edge-to-edge full or -1,
S_FULL_POOL 1 when the pool filled up, S_CUT 1 when the search stopped at max_ops.
"""
from typing import NamedTuple

import numba as nb
import numpy as np

from engines.games.hex import HEADER, NEIGHBOURS, SIZE, TO_MOVE, WINNER

WORDS = 6  # carrier words: 6 * 64 = 384 >= 19 * 19
FULL, SEMI = 0, 1
S_OPS, S_VCS, S_CONNECTED, S_FULL_POOL, S_CUT, S_COUNT = 0, 1, 2, 3, 4, 5


class HLimits(NamedTuple):
    """How much H-search may keep (benzene calls the list limits soft limits)."""
    max_fulls: int = 10     # full connections kept per pair of endpoints
    max_semis: int = 16     # semi connections kept per pair
    max_or: int = 4         # semis combined by one application of the OR rule
    max_vcs: int = 400_000  # connections in the pool
    max_ops: int = 2_000_000  # carrier operations, then the search stops (bounds a search's time)
    stop_connected: int = 1  # stop as soon as the edges are fully connected
    keep_smallest: int = 1   # lists ordered by carrier size, a full list replacing its largest


DEFAULT_LIMITS = HLimits()


class HWork(NamedTuple):
    """Scratch of one H-search, reused between calls on one board size (make_work)."""
    carrier: np.ndarray    # uint64[max_vcs, WORDS]
    ends: np.ndarray       # int32[max_vcs, 2]: endpoint ids, smaller first
    kind: np.ndarray       # int8[max_vcs]: FULL or SEMI
    key: np.ndarray        # int32[max_vcs]: a semi's key cell (-1 for a full)
    size: np.ndarray       # int32[max_vcs]: the carrier's cell count
    dropped: np.ndarray    # int8[max_vcs]: 1 once taken out of its pair's list
    fulls: np.ndarray      # int32[E*E, max_fulls]: pool indices per pair (x*E + y, x < y)
    nfulls: np.ndarray     # int32[E*E]
    semis: np.ndarray      # int32[E*E, max_semis]
    nsemis: np.ndarray     # int32[E*E]
    partners: np.ndarray   # int32[E, E]: the endpoints an endpoint has a connection with
    npartners: np.ndarray  # int32[E]
    label: np.ndarray      # int32[nn]: a cell's endpoint id (-1: the opponent's stone)
    stats: np.ndarray      # int64[S_COUNT]


def make_work(n: int, limits: HLimits = DEFAULT_LIMITS) -> HWork:
    """Scratch arrays for H-search on an n x n board with these limits."""
    nn = n * n
    e = nn + 2
    return HWork(carrier=np.zeros((limits.max_vcs, WORDS), np.uint64),
                 ends=np.zeros((limits.max_vcs, 2), np.int32),
                 kind=np.zeros(limits.max_vcs, np.int8), key=np.zeros(limits.max_vcs, np.int32),
                 size=np.zeros(limits.max_vcs, np.int32), dropped=np.zeros(limits.max_vcs, np.int8),
                 fulls=np.zeros((e * e, limits.max_fulls), np.int32), nfulls=np.zeros(e * e, np.int32),
                 semis=np.zeros((e * e, limits.max_semis), np.int32), nsemis=np.zeros(e * e, np.int32),
                 partners=np.zeros((e, e), np.int32), npartners=np.zeros(e, np.int32),
                 label=np.zeros(nn, np.int32), stats=np.zeros(S_COUNT, np.int64))


# ==== bitsets ====================================================================================

@nb.njit(cache=True, inline="always")
def _has(bits, cell):
    return (bits[cell >> 6] >> np.uint64(cell & 63)) & np.uint64(1) != 0


@nb.njit(cache=True, inline="always")
def _set(bits, cell):
    bits[cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)


@nb.njit(cache=True, inline="always")
def _is_empty(a, words):
    for w in range(words):
        if a[w] != 0:
            return False
    return True


@nb.njit(cache=True, inline="always")
def _row_has(carrier, i, cell):
    """cell is in the carrier of connection i (indexing the pool directly: a view carrier[i] costs a
    reference count increment and decrement, a large share of a carrier operation)."""
    return (carrier[i, cell >> 6] >> np.uint64(cell & 63)) & np.uint64(1) != 0


@nb.njit(cache=True, inline="always")
def _row_subset(carrier, i, bits, words):
    """The carrier of connection i is a subset of bits."""
    for w in range(words):
        if carrier[i, w] & ~bits[w] != 0:
            return False
    return True


@nb.njit(cache=True, inline="always")
def _rows_subset(carrier, i, j, words):
    """The carrier of connection i is a subset of connection j's."""
    for w in range(words):
        if carrier[i, w] & ~carrier[j, w] != 0:
            return False
    return True


@nb.njit(cache=True, inline="always")
def _rows_disjoint(carrier, i, j, words):
    for w in range(words):
        if carrier[i, w] & carrier[j, w] != 0:
            return False
    return True


@nb.njit(cache=True, inline="always")
def _count(a, words):
    """The number of cells in a."""
    total = 0
    for w in range(words):
        v = a[w]
        while v != 0:
            v &= v - np.uint64(1)
            total += 1
    return total


# ==== the pool ===================================================================================

@nb.njit(cache=True, inline="always")
def _pair(x, y, e):
    return x * e + y if x < y else y * e + x


# The pool's helpers (and the AND rule's loop) are compiled without numba's reference counting
# (``_nrt=False``, a numba option its own tests use): with it, every call increfed and decrefed each of
# work's arrays, about half of H-search's time.  They allocate nothing, so they need none.
NO_REFCOUNT = dict(cache=True, _nrt=False)


@nb.njit(**NO_REFCOUNT)
def _link(work, x, y):
    """Records that x and y have a connection (the partner lists the AND rule walks)."""
    e = work.partners.shape[0]
    p = _pair(x, y, e)
    if work.nfulls[p] == 0 and work.nsemis[p] == 0:
        work.partners[x, work.npartners[x]] = y
        work.npartners[x] += 1
        work.partners[y, work.npartners[y]] = x
        work.npartners[y] += 1


@nb.njit(**NO_REFCOUNT)
def _store(work, x, y, bits, words, kind, key):
    """A new connection of (x, y) in the pool (its carrier, ends, kind, key): its index, or -1 when
    the pool is full (said in the stats)."""
    st = work.stats
    i = st[S_VCS]
    if i >= work.carrier.shape[0]:
        st[S_FULL_POOL] = 1
        return -1
    _link(work, x, y)
    st[S_VCS] = i + 1
    for w in range(words):
        work.carrier[i, w] = bits[w]
    work.ends[i, 0] = min(x, y)
    work.ends[i, 1] = max(x, y)
    work.kind[i] = kind
    work.key[i] = key
    work.size[i] = _count(bits, words)
    work.dropped[i] = 0
    return i


@nb.njit(**NO_REFCOUNT)
def _remove_supersets(work, lists, counts, p, i, words):
    """Takes out of the list p of lists the connections (other than i) whose carriers contain i's,
    keeping the order of the rest."""
    st = work.stats
    kept = 0
    for k in range(counts[p]):
        j = lists[p, k]
        if j != i:
            st[S_OPS] += 1
            if _rows_subset(work.carrier, i, j, words):
                work.dropped[j] = 1
                continue
        lists[p, kept] = j
        kept += 1
    counts[p] = kept


@nb.njit(**NO_REFCOUNT)
def _has_subset(work, lists, counts, p, bits, words):
    """Does the list p of lists hold a connection whose carrier is inside bits (then a connection
    with carrier bits adds nothing)?  Each check counts as one carrier operation."""
    st = work.stats
    for k in range(counts[p]):
        st[S_OPS] += 1
        if _row_subset(work.carrier, lists[p, k], bits, words):
            return True
    return False


@nb.njit(**NO_REFCOUNT)
def _take(work, lists, counts, p, i, keep_smallest):
    """Puts i into the list p: first come, at the end if there is room (else i is dropped); ordered
    by size, after the carriers not larger, the largest dropped when the list was full (the caller
    made sure i is smaller than it)."""
    if not keep_smallest:
        if counts[p] >= lists.shape[1]:
            work.dropped[i] = 1
            return
        lists[p, counts[p]] = i
        counts[p] += 1
        return
    if counts[p] >= lists.shape[1]:
        work.dropped[lists[p, counts[p] - 1]] = 1
        counts[p] -= 1
    at = counts[p]
    while at > 0 and work.size[lists[p, at - 1]] > work.size[i]:
        lists[p, at] = lists[p, at - 1]
        at -= 1
    lists[p, at] = i
    counts[p] += 1


@nb.njit(**NO_REFCOUNT)
def _no_room(work, lists, counts, p, bits, words, keep_smallest):
    """The list p is full and keeps what it has: first come, always; ordered by size, when its
    largest carrier is not larger than bits."""
    if counts[p] < lists.shape[1]:
        return False
    if not keep_smallest:
        return True
    return work.size[lists[p, counts[p] - 1]] <= _count(bits, words)


@nb.njit(**NO_REFCOUNT)
def _add_full(work, x, y, bits, words, edge, keep_smallest):
    """Keeps the full (x, y, bits) unless the pair has one with a carrier inside it or no room for
    it; ordered by size, it first removes the pair's fulls and semis whose carriers contain it.
    Returns its pool index or -1."""
    e = work.partners.shape[0]
    p = _pair(x, y, e)
    st = work.stats
    if _has_subset(work, work.fulls, work.nfulls, p, bits, words):
        return -1
    if _no_room(work, work.fulls, work.nfulls, p, bits, words, keep_smallest):
        return -1
    i = _store(work, x, y, bits, words, FULL, -1)  # after the checks (_link wants the old counts)
    if i < 0:
        return -1
    if keep_smallest:
        _remove_supersets(work, work.fulls, work.nfulls, p, i, words)
        _remove_supersets(work, work.semis, work.nsemis, p, i, words)
    _take(work, work.fulls, work.nfulls, p, i, keep_smallest)
    if min(x, y) == edge and max(x, y) == edge + 1 and st[S_CONNECTED] < 0:
        st[S_CONNECTED] = i
    return i


@nb.njit(**NO_REFCOUNT)
def _or_rule(work, x, y, i, words, max_or, edge, keep_smallest, inter, union, start):
    """The OR rule for the new semi i of pair (x, y): every set of it and up to max_or - 1 older
    semis of the pair (each one shrinking the intersection) whose carriers meet in nothing makes a
    full with the union of the carriers.  inter, union: uint64[max_or, WORDS]; start: int64[max_or]."""
    e = work.partners.shape[0]
    p = _pair(x, y, e)
    st = work.stats
    count = work.nsemis[p]
    for w in range(words):
        inter[0, w] = work.carrier[i, w]
        union[0, w] = work.carrier[i, w]
    start[0] = 0
    d = 0
    while d >= 0:
        if start[d] >= count:
            d -= 1
            continue
        j = work.semis[p, start[d]]
        start[d] += 1
        if j == i:
            continue
        st[S_OPS] += 1
        shrinks = False
        empty = True
        for w in range(words):
            v = inter[d, w] & work.carrier[j, w]
            if v != inter[d, w]:
                shrinks = True
            if v != 0:
                empty = False
            inter[d + 1, w] = v
            union[d + 1, w] = union[d, w] | work.carrier[j, w]
        if not shrinks:
            continue
        if empty:
            _add_full(work, x, y, union[d + 1], words, edge, keep_smallest)
            continue
        if d + 2 < max_or:
            start[d + 1] = start[d]
            d += 1


@nb.njit(**NO_REFCOUNT)
def _add_semi(work, x, y, bits, key, words, limits, edge, inter, union, start):
    """Keeps the semi (x, y, bits) with its key unless a full or semi of the pair has a carrier
    inside it or the list no room for it (ordered by size, it first removes the pair's semis whose
    carriers contain it); then applies the OR rule.  Returns its pool index or -1."""
    e = work.partners.shape[0]
    p = _pair(x, y, e)
    if (_has_subset(work, work.fulls, work.nfulls, p, bits, words)
            or _has_subset(work, work.semis, work.nsemis, p, bits, words)):
        return -1
    keep_smallest = limits.keep_smallest
    if _no_room(work, work.semis, work.nsemis, p, bits, words, keep_smallest):
        return -1
    i = _store(work, x, y, bits, words, SEMI, key)
    if i < 0:
        return -1
    if keep_smallest:
        _remove_supersets(work, work.semis, work.nsemis, p, i, words)
    _take(work, work.semis, work.nsemis, p, i, keep_smallest)
    _or_rule(work, x, y, i, words, max(2, limits.max_or), edge, keep_smallest, inter, union, start)
    return i


# ==== H-search ===================================================================================

@nb.njit(cache=True)
def _label(s, colour, work):
    """Endpoint ids of the cells for colour (flood fill of its groups); False when a group touches
    both edges (the colour has won)."""
    n = s[SIZE]
    nn = n * n
    own = colour + 1
    label = work.label
    for x in range(nn):
        v = s[HEADER + x]
        label[x] = x if v == 0 else (-1 if v != own else -2)  # -2: a stone not labelled yet
    stack = np.empty(nn, dtype=np.int64)
    members = np.empty(nn, dtype=np.int64)
    for x in range(nn):
        if label[x] != -2:
            continue
        top = 0
        count = 0
        stack[top] = x
        top += 1
        label[x] = x
        first = False
        second = False
        while top > 0:
            top -= 1
            y = stack[top]
            members[count] = y
            count += 1
            r = y // n
            c = y - r * n
            line = r if colour == 0 else c  # the coordinate running from edge to edge
            if line == 0:
                first = True
            if line == n - 1:
                second = True
            for d in range(6):
                rr = r + NEIGHBOURS[d, 0]
                cc = c + NEIGHBOURS[d, 1]
                if 0 <= rr < n and 0 <= cc < n and label[rr * n + cc] == -2:
                    label[rr * n + cc] = x
                    stack[top] = rr * n + cc
                    top += 1
        if first and second:
            return False
        ident = nn if first else (nn + 1 if second else x)
        for k in range(count):
            label[members[k]] = ident
    return True


@nb.njit(cache=True)
def h_search(s, colour, work, limits):
    """Runs H-search for colour on state s, filling work.  Returns True when colour's edges are
    fully connected (by stones or a full connection; work.stats[S_CONNECTED] then holds the
    connection's pool index, or -1 for stones)."""
    n = s[SIZE]
    nn = n * n
    words = (nn + 63) >> 6
    edge = nn
    st = work.stats
    st[:] = 0
    st[S_CONNECTED] = -1
    work.nfulls[:] = 0
    work.nsemis[:] = 0
    work.npartners[:] = 0
    if s[WINNER] >= 0:
        return s[WINNER] == colour
    if not _label(s, colour, work):
        return True
    label = work.label
    bits = np.zeros(WORDS, dtype=np.uint64)
    max_or = max(2, limits.max_or)
    inter = np.zeros((max_or, WORDS), dtype=np.uint64)
    union = np.zeros((max_or, WORDS), dtype=np.uint64)
    start = np.zeros(max_or, dtype=np.int64)
    keep_smallest = limits.keep_smallest
    # base: every empty cell is fully connected to its neighbouring endpoints
    for x in range(nn):
        if s[HEADER + x] != 0:
            continue
        r = x // n
        c = x - r * n
        for d in range(6):
            rr = r + NEIGHBOURS[d, 0]
            cc = c + NEIGHBOURS[d, 1]
            if 0 <= rr < n and 0 <= cc < n:
                y = label[rr * n + cc]
                if y < 0 or (y < nn and s[HEADER + y] == 0 and y < x):
                    continue  # a wall, or an empty pair already joined from the other side
            else:
                off = rr if colour == 0 else cc  # off the board across colour's own edges only
                if off < 0:
                    y = nn
                elif off >= n:
                    y = nn + 1
                else:
                    continue
            _add_full(work, x, y, bits, words, edge, keep_smallest)
    _join_all(s, work, limits, bits, inter, union, start)
    return st[S_CONNECTED] >= 0


@nb.njit(**NO_REFCOUNT)
def _join_all(s, work, limits, bits, inter, union, start):
    """h_search's AND rule (and through it the OR rule) over the pool, breadth first from its start
    (module docstring).  Without reference counting (_nrt=False, as its helpers): numba counted
    references to every array of work at each call of a helper, which was half the search's time."""
    n = s[SIZE]
    nn = n * n
    e = nn + 2
    words = (nn + 63) >> 6
    edge = nn
    st = work.stats
    keep_smallest = limits.keep_smallest
    carrier = work.carrier
    head = 0
    while head < st[S_VCS]:
        if limits.stop_connected and st[S_CONNECTED] >= 0:
            break
        if st[S_OPS] > limits.max_ops:
            st[S_CUT] = 1
            break
        i = head
        head += 1
        if work.dropped[i]:
            continue  # out of its list: no longer a known connection
        for side in range(2):
            z = work.ends[i, side]
            other = work.ends[i, 1 - side]
            if z >= nn:
                continue  # no connection through an edge (it never helps join the two edges)
            through_stone = s[HEADER + z] != 0
            if work.kind[i] == SEMI and not through_stone:
                continue
            for k in range(work.npartners[z]):
                w = work.partners[z, k]
                if w == other:
                    continue
                p = _pair(z, w, e)
                # fulls (and, over a stone, semis) of (z, w) found before i: each join once
                for kind in range(2):
                    if kind == SEMI and not (through_stone and work.kind[i] == FULL):
                        break
                    count = work.nfulls[p] if kind == FULL else work.nsemis[p]
                    for t in range(count):
                        j = work.fulls[p, t] if kind == FULL else work.semis[p, t]
                        if j >= i:  # each join once, when the later of the two is at the head
                            if keep_smallest:
                                continue  # the lists are in size order
                            break  # the lists grow in pool order
                        st[S_OPS] += 1
                        if not _rows_disjoint(carrier, i, j, words):
                            continue
                        # an endpoint inside the other carrier: Anshelevich's condition (with C on
                        # that cell the other connection only gets easier, so this keeps the lists
                        # small and the carriers meaningful rather than guarding soundness)
                        if other < nn and _row_has(carrier, j, other):
                            continue
                        if w < nn and _row_has(carrier, i, w):
                            continue
                        for q in range(words):
                            bits[q] = carrier[i, q] | carrier[j, q]
                        if not through_stone:
                            _set(bits, z)
                            _add_semi(work, other, w, bits, z, words, limits, edge, inter, union, start)
                        elif work.kind[i] == FULL and kind == FULL:
                            _add_full(work, other, w, bits, words, edge, keep_smallest)
                        else:
                            semi_key = work.key[i] if work.kind[i] == SEMI else work.key[j]
                            _add_semi(work, other, w, bits, semi_key, words, limits, edge, inter, union, start)


@nb.njit(cache=True)
def connected_kernel(s, player, work, limits):
    """Has player a full connection between its edges (a proven win)?"""
    return h_search(s, player, work, limits)


@nb.njit(cache=True)
def must_play_kernel(s, player, work, limits, out):
    """The cells player must play in (written to out; returned: their count), 0 when player has
    lost (the opponent is connected, or no cell meets all its semis), -1 when the opponent has no
    edge-to-edge semi connection."""
    n = s[SIZE]
    nn = n * n
    words = (nn + 63) >> 6
    if h_search(s, 1 - player, work, limits):
        return 0
    p = _pair(nn, nn + 1, nn + 2)
    count = work.nsemis[p]
    if count == 0:
        return -1
    inter = np.empty(WORDS, dtype=np.uint64)
    for w in range(words):
        inter[w] = work.carrier[work.semis[p, 0], w]
    for k in range(1, count):
        for w in range(words):
            inter[w] &= work.carrier[work.semis[p, k], w]
    m = 0
    for x in range(nn):
        if _has(inter, x):
            out[m] = x
            m += 1
    return m


@nb.njit(cache=True)
def winning_key_kernel(s, work, limits):
    """A move that wins for the player to move by its connections: the key of an edge-to-edge semi,
    a carrier cell of an edge-to-edge full (or any empty cell when its stones join the edges), -1 if
    none is known."""
    n = s[SIZE]
    nn = n * n
    if s[WINNER] >= 0:
        return -1
    p = s[TO_MOVE]
    if h_search(s, p, work, limits):
        i = work.stats[S_CONNECTED]
        for x in range(nn):
            if s[HEADER + x] == 0 and (i < 0 or _has(work.carrier[i], x)):
                return x
        for x in range(nn):  # an empty carrier: every move keeps the connection
            if s[HEADER + x] == 0:
                return x
        return -1
    pair = _pair(nn, nn + 1, nn + 2)
    if work.nsemis[pair] > 0:
        return work.key[work.semis[pair, 0]]
    return -1


@nb.njit(cache=True)
def root_kernel(s, work, limits, out):
    """What the connections say at a root, in one call: (move, count): move >= 0 wins for the side
    to move (winning_key_kernel; then count is -1); else count is must_play_kernel's for the side to
    move (out: the cells; 0: lost; -1: no threat).  The mover's search runs first and the
    opponent's only when the mover has no win."""
    move = winning_key_kernel(s, work, limits)
    if move >= 0:
        return move, -1
    return -1, must_play_kernel(s, s[TO_MOVE], work, limits, out)


# ==== Python side ================================================================================

class HSearch:
    """H-search for one board size, its scratch kept between calls (not thread-safe: one per
    thread)."""

    def __init__(self, n: int, limits: HLimits = DEFAULT_LIMITS):
        from engines.validate import check_int
        from engines.games.hex import MAX_SIZE, MIN_SIZE
        self.n = check_int("n", n, MIN_SIZE, MAX_SIZE)
        for name, value in zip(limits._fields, limits):
            check_int(name, value, 0 if name in ("stop_connected", "keep_smallest") else 1)
        self.limits = HLimits(*(int(v) for v in limits))
        self.work = make_work(self.n, self.limits)

    def _state(self, state):
        state = np.ascontiguousarray(state, dtype=np.int64)
        if state.shape[0] < HEADER or state[SIZE] != self.n:
            raise ValueError(f"state is not a {self.n}x{self.n} Hex state")
        return state

    def run(self, state, colour: int) -> bool:
        """H-search for colour; the connections stay in self.work until the next call."""
        return bool(h_search(self._state(state), _player(colour), self.work, self.limits))

    def connected(self, state, player: int) -> bool:
        """A full connection between player's edges (a proven win for player)."""
        return bool(connected_kernel(self._state(state), _player(player), self.work, self.limits))

    def must_play(self, state, player: int):
        """Sorted cells player must play in (empty list: player has lost), or None when the
        opponent has no edge-to-edge semi connection."""
        out = np.empty(self.n * self.n, dtype=np.int64)
        m = must_play_kernel(self._state(state), _player(player), self.work, self.limits, out)
        return None if m < 0 else [int(x) for x in out[:m]]

    def winning_move(self, state):
        """A move that wins for the side to move by its connections, or None."""
        m = winning_key_kernel(self._state(state), self.work, self.limits)
        return None if m < 0 else int(m)

    def root(self, state):
        """(winning move or None, must-play cells or None) for the side to move, from one call
        (root_kernel): the must-play cells only when there is no winning move."""
        out = np.empty(self.n * self.n, dtype=np.int64)
        move, m = root_kernel(self._state(state), self.work, self.limits, out)
        if move >= 0:
            return int(move), None
        return None, (None if m < 0 else [int(x) for x in out[:m]])

    def connections(self, x: int, y: int, kind: int = FULL) -> list:
        """The carriers (sorted cell lists) of the last run's kind connections between endpoints x
        and y (cells, or nn / nn+1 for the colour's edges)."""
        nn = self.n * self.n
        e = nn + 2
        p = x * e + y if x < y else y * e + x
        w = self.work
        ids = w.fulls[p, :w.nfulls[p]] if kind == FULL else w.semis[p, :w.nsemis[p]]
        return [_cells(w.carrier[i], nn) for i in ids]

    @property
    def stats(self) -> dict:
        st = self.work.stats
        return {"ops": int(st[S_OPS]), "vcs": int(st[S_VCS]), "pool_full": bool(st[S_FULL_POOL]),
                "cut": bool(st[S_CUT])}


def _player(p) -> int:
    if p not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {p!r}")
    return int(p)


def _cells(bits, nn) -> list:
    return [x for x in range(nn) if (int(bits[x >> 6]) >> (x & 63)) & 1]


def connected(state, player: int, limits: HLimits = DEFAULT_LIMITS) -> bool:
    """A full connection between player's edges in state (a proven win for player)."""
    return HSearch(int(state[SIZE]), limits).connected(state, player)


def must_play(state, player: int, limits: HLimits = DEFAULT_LIMITS):
    """The cells player must play in: the intersection of the carriers (keys included) of the
    opponent's edge-to-edge semi connections ([] when player has lost, None when there is none)."""
    return HSearch(int(state[SIZE]), limits).must_play(state, player)


def warm_up(game):
    """Compile H-search and its queries on a small position of game."""
    search = HSearch(game.size, HLimits(max_vcs=4096))
    state = game.play(game.initial_state(), game.legal_moves(game.initial_state())[0])
    search.connected(state, 0)
    search.must_play(state, 1)
    search.winning_move(state)
    search.root(state)


__all__ = ["HLimits", "HSearch", "connected", "must_play", "DEFAULT_LIMITS", "FULL", "SEMI"]
