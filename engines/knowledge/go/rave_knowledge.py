"""Heavy Go knowledge for the RAVE search: a Pachi/michi-style playout policy and michi-style tree
priors ("virtual experience"), compiled over the Go state of engines/games/go.py.

Playout policy (``heavy_playout_traced``), for the player to move X at each step:
  1. with probability params[P_CAPTURE]: tactics around the last two moves: capture an opponent
     chain in atari that touches the last (or second-last) move, or save an own chain in atari that
     touches it, by capturing an attacker in atari or by extending at its liberty when that leaves
     >= 3 liberties, or 2 liberties and no working ladder (``_ladder_move``);
  2. with probability params[P_TWOLIB]: chains of 2 liberties touching the last move, shallow (no
     reading): an atari on the opponent's chain where its way out does not run free, an extension
     of an own chain that surely gives it 3 liberties (``_two_lib_moves``); with
     params[P_TWOLIB_READ] != 0 the same rule reads instead: the atari that catches
     the opponent's chain in a ladder or net, the escapes of an own chain a ladder would catch;
  3. with probability params[P_NAKADE]: the vital point of an eye space of 3 to 6 points next to
     the last move (``_nakade_point``: it kills for one side, makes two eyes for the other); with
     params[P_NAKADE_FILLED] != 0 also of an eye space that holds the attacker's stones
     (``_filled_nakade_point``);
  4. with probability params[P_PATTERN]: a 3x3 pattern move (michi's hand-coded set: hane, cut,
     side patterns; both colours, all 8 symmetries) on an empty point next to the last move;
  5. otherwise a uniformly random legal point (libEGO style, as engines.games.go.playout).
  Never an own eye (go._is_eye); a self-atari that leaves a chain of >= 2 stones in atari is
  never played, a single-stone one with probability 1 - params[P_SELFATARI_1] (throw-ins live);
  a pass only when nothing else is left.  The playout stops after 3*n*n moves as go.playout does,
  records the actions in trace (-1 for a pass: no AMAF credit) and leaves the final position.

Tree priors (``go_experience``, engines.kernels.SIG_EXPERIENCE): for each child, virtual visits and
the mover's virtual wins (michi's): an even prior (EVEN visits at 0.5), capture and atari-escape
bonuses, the 3x3 pattern bonus, a self-atari malus, the closeness to the last move (distances
1, 2, 3; with E_CFG_LONE == 0 not next to a lone stone), first/second line in an empty area
(malus) and third line (bonus), and, when the params carry GoWeights
(``experience_params(weights)``), GAMMA * gamma / max gamma won visits (a bonus only: a small gamma
adds nothing, so a move the weights never saw keeps its chances); when the params carry a policy
network's root (``E_NET_*``: the root's Zobrist key, set before each search by the player), at that
position only, NET_VISITS * p / max p won visits of the network's probabilities p.  Reading (``_reading_bonus``):
every chain of 2 liberties on the board is read with the ladder reader: the capture bonus for the
atari that catches an opponent's, the escape bonus for each move that saves an own one the
opponent could catch; E_NAKADE won visits at the vital point of every eye space (also of those
holding the attacker's stones when E_NAKADE_FILLED != 0).  Critical chains (``_critical_bonus``,
when E_CRITICAL > 0): E_CRITICAL won visits for the moves that give air to an own chain of 4+
stones and 2 liberties, and for the moves of a liberty race of an own chain of 2-3 liberties
against an opponent's of 2-3 (one of them 4+ stones).

Ownership (``go_ownership``, engines.kernels.SIG_OWNERSHIP): +1 per point owned by Black (a black
stone, or an empty point whose on-board neighbours are all black), -1 by White, action order.
"""
import numba as nb
import numpy as np
from numba import types

from engines import kernels as K
from engines.games.go import (A_CNT, A_LIBS, A_LSUM, BLACK, WHITE, HASH, NMOVES, A_HEAD, A_NEXT, BORDER, EMPTY_CELL, HEADER, LAST, LAST2, N_ARRAYS, NEMPTY,
                              OK, OVER, PLAYOUT_CAP_PER_POINT, PSIZE, SIZE, STRIDE, TO_MOVE, A_EPOS, _check,
                              _in_atari, _is_eye, _pass, _place, set_aside_empty, action_of, playout_traced, point_of)
from engines.knowledge.go.features import MAX_FEATURES, compute_features, gamma_of
from engines.knowledge.go.go5_weights import NUM_FEATURES, PATTERN_CODES, images, pattern_code
from engines.rng import below, uniform

# ---- the playout params vector ----------------------------------------------------------------
P_CAPTURE, P_PATTERN, P_SELFATARI_1, P_HEAVY, P_LADDER, P_TWOLIB, P_NAKADE, P_TWOLIB_READ, P_NAKADE_FILLED = range(9)
PLAYOUT_HEAD = 10
PLAYOUT_PARAMS_LEN = PLAYOUT_HEAD + PATTERN_CODES  # then the michi 3x3 table (1.0 = a pattern move)
# ---- the experience params vector ----------------------------------------------------------------
(E_EVEN, E_CAPTURE_ONE, E_CAPTURE_MANY, E_PAT3, E_SELFATARI, E_CFG1, E_CFG2, E_CFG3, E_EMPTYAREA,
 E_GAMMA, E_PASS_WINRATE, E_ESCAPE, E_NAKADE, E_TWOLIB, E_CFG_LONE, E_NAKADE_FILLED, E_CRITICAL) = range(17)
EXPERIENCE_HEAD = 18
EXPERIENCE_LEN = EXPERIENCE_HEAD + PATTERN_CODES              # without gammas
EXPERIENCE_GAMMA_LEN = EXPERIENCE_LEN + NUM_FEATURES + PATTERN_CODES  # with GoWeights
# then, with a policy network at the root: the root's Zobrist key (low and high 32 bits), the won
# visits of the network's favourite, and its probabilities (n*n+1, up to 19x19)
E_NET_KEY_LO, E_NET_KEY_HI, E_NET_VISITS, E_NET_PROBS = (EXPERIENCE_GAMMA_LEN + k for k in range(4))
EXPERIENCE_NET_LEN = E_NET_PROBS + 19 * 19 + 1

LADDER_DEPTH = 48   # plies a ladder is read at most (states kept on the work stack)
LADDER_NODES = 200  # attacker moves tried at most per ladder read (beyond: the escape is believed)

# michi's 3x3 playout patterns (X, O the two colours, x: not X, o: not O, ?: anything, #: off board);
# the rows are read top (north) row first here; expanded to every symmetry and both colours.
MICHI_PATTERNS = (
    ("XOX", "...", "???"),  # hane: enclosing hane
    ("XO.", "...", "?.?"),  # hane: non-cutting hane
    ("XO?", "X..", "x.?"),  # hane: magari
    (".O.", "X..", "..."),  # generic: katatsuke or diagonal attachment
    ("XO?", "O.o", "?o?"),  # cut1: unprotected cut
    ("XO?", "O.X", "???"),  # cut1: peeping cut
    ("?X?", "O.O", "ooo"),  # cut2
    ("OX?", "o.O", "???"),  # cut keima
    ("X.?", "O.?", "##?"),  # side: chase
    ("OX?", "X.O", "###"),  # side: block side cut
    ("?X?", "x.O", "###"),  # side: block side connection
    ("?XO", "x.x", "###"),  # side: sagari
    ("?OX", "X.O", "###"),  # side: cut
)
_WILD = {"?": "#.OX", "x": "#.O", "o": "#.X", "X": "X", "O": "O", ".": ".", "#": "#"}


def michi_table() -> np.ndarray:
    """float64[65536]: 1.0 for the codes (engines.knowledge.go.go5_weights.pattern_code) of michi's
    patterns in any symmetry and either colour, else 0.0."""
    table = np.zeros(PATTERN_CODES)
    for rows in MICHI_PATTERNS:
        # go_weights strings read the SOUTH row first: reverse the rows
        text = "".join(reversed(rows))
        expanded = [""]
        for ch in text:
            expanded = [e + x for e in expanded for x in _WILD[ch]]
        for pattern in expanded:
            if pattern[4] != ".":
                continue
            for image in images(pattern):
                code = pattern_code(image)
                table[code] = 1.0
    return table


# ---- small chain helpers --------------------------------------------------------------------------
@nb.njit(cache=True)
def _holds(a, k, x):
    """x is among a[:k]."""
    for i in range(k):
        if a[i] == x:
            return True
    return False


@nb.njit(cache=True)
def _libs_of(s, h, exclude, out):
    """Distinct liberties of the chain with head h other than exclude, up to 3, into out; the count."""
    P = s[PSIZE]
    W = s[STRIDE]
    nx = HEADER + A_NEXT * P
    k = 0
    q = h
    while True:
        for t in (q - 1, q + 1, q - W, q + W):
            if s[HEADER + t] == EMPTY_CELL and t != exclude and not _holds(out, k, t):
                out[k] = t
                k += 1
                if k == 3:
                    return k
        q = s[nx + q]
        if q == h:
            break
    return k


@nb.njit(cache=True)
def _atari_lib(s, h):
    """The liberty of a chain in atari (pseudo-liberty sums: sum / count)."""
    P = s[PSIZE]
    return s[HEADER + A_LSUM * P + h] // s[HEADER + A_LIBS * P + h]


@nb.njit(cache=True)
def _self_atari(s, p, c):
    """Stones of c's chain left in atari by a stone of c at p (0 when it is not a self-atari): a move
    that captures is never one.  No allocation: it runs for every random move of a playout."""
    P = s[PSIZE]
    W = s[STRIDE]
    hd = HEADER + A_HEAD * P
    nx = HEADER + A_NEXT * P
    o = 3 - c
    l0 = -1  # the one liberty found so far (two distinct ones end the test)
    h0 = -1
    h1 = -1
    h2 = -1
    for q in (p - 1, p + 1, p - W, p + W):
        v = s[HEADER + q]
        if v == EMPTY_CELL:
            if l0 >= 0:
                return 0
            l0 = q
        elif v == o:
            if _in_atari(s, s[hd + q]):
                return 0
        elif v == c:
            h = s[hd + q]
            if h0 < 0:
                h0 = h
            elif h != h0 and h1 < 0:
                h1 = h
            elif h != h0 and h != h1 and h2 < 0:
                h2 = h
    size = 1
    for i in range(3):
        h = h0 if i == 0 else (h1 if i == 1 else h2)
        if h < 0:
            continue
        size += s[HEADER + A_CNT * P + h]
        x = h
        while True:
            for t in (x - 1, x + 1, x - W, x + W):
                if s[HEADER + t] == EMPTY_CELL and t != p and t != l0:
                    if l0 >= 0:
                        return 0
                    l0 = t
            x = s[nx + x]
            if x == h:
                break
    return size


@nb.njit(cache=True)
def _pattern_code(s, p, c):
    """The 3x3 code of the 8 cells around p seen by colour c (as go_features.compute_features)."""
    W = s[STRIDE]
    code = 0
    for t in (p - W - 1, p - W, p - W + 1, p - 1, p + 1, p + W - 1, p + W, p + W + 1):
        v = s[HEADER + t]
        d = 1 if v == EMPTY_CELL else (0 if v == BORDER else (3 if v == c else 2))
        code = code * 4 + d
    return code


# ---- ladders ---------------------------------------------------------------------------------------
@nb.njit(types.int64(types.int64[:, ::1], types.int64, types.int64, types.int64, types.int64[::1]), cache=True)
def _ladder_move(work, k, x, a, budget):
    """work[k]: the defender's chain (at point x) has 2 liberties and the attacker a (1/2) is to
    play.  The atari with which the attacker captures it (a ladder or a net read to depth), or -1.
    k counts the attacker's moves read so far: each is played on a copy, work[k + 1], and the
    defender's answer on the same copy (the state is ~33 KB on 19x19: one copy a move pair), so a
    read ends (no capture found) after 2k + 2 >= len(work) plies."""
    P = work[k, PSIZE]
    W = work[k, STRIDE]
    hd = HEADER + A_HEAD * P
    nx = HEADER + A_NEXT * P
    d = 3 - a
    if 2 * k + 2 >= work.shape[0] or budget[0] <= 0:
        return -1
    libs = np.empty(3, dtype=np.int64)
    h = work[k, hd + x]
    if _libs_of(work[k], h, -1, libs) != 2:
        return -1
    l0 = libs[0]
    l1 = libs[1]
    for option in range(2):
        m = l0 if option == 0 else l1
        other = l1 if option == 0 else l0
        budget[0] -= 1
        if _check(work[k], m, a, False) != OK:  # checked before the copy (a state is ~35 KB on 19x19)
            continue
        s1 = work[k + 1]
        s1[:] = work[k]
        _place(s1, m, a)
        if _in_atari(s1, s1[hd + m]):
            continue  # the attacker's stone can be taken: no ladder this way
        h1 = s1[hd + x]
        if not _in_atari(s1, h1):
            continue
        # the defender may capture an attacker chain next to it instead of running: an escape
        saved = False
        q = h1
        while True:
            for t in (q - 1, q + 1, q - W, q + W):
                if s1[HEADER + t] == a and _in_atari(s1, s1[hd + t]):
                    saved = True
            q = s1[nx + q]
            if q == h1 or saved:
                break
        if saved:
            continue
        if _check(s1, other, d, False) != OK:
            return m
        _place(s1, other, d)  # the defender runs: on the same copy (the next option copies work[k] again)
        n2 = _libs_of(s1, s1[hd + x], -1, libs)
        if n2 <= 1:
            return m
        if n2 == 2 and _ladder_move(work, k + 1, x, a, budget) >= 0:
            return m
    return -1


@nb.njit(cache=True)
def _liberties_after(s, p, c):
    """The liberties (up to 3) of c's chain through p once a stone of c is at p, counted without
    playing it (no copy of the state); -1 when the stone would capture (then it must be played)."""
    P = s[PSIZE]
    W = s[STRIDE]
    hd = HEADER + A_HEAD * P
    nx = HEADER + A_NEXT * P
    o = 3 - c
    k = 0    # liberties found: l0, l1 (a third ends the count)
    l0 = -1
    l1 = -1
    h0 = -1  # the distinct own chains next to p
    h1 = -1
    h2 = -1
    h3 = -1
    for q in (p - 1, p + 1, p - W, p + W):
        v = s[HEADER + q]
        if v == EMPTY_CELL:
            if k == 2:
                return 3
            if k == 0:
                l0 = q
            else:
                l1 = q
            k += 1
        elif v == o:
            if _in_atari(s, s[hd + q]):
                return -1
        elif v == c:
            h = s[hd + q]
            if h != h0 and h != h1 and h != h2:
                if h0 < 0:
                    h0 = h
                elif h1 < 0:
                    h1 = h
                elif h2 < 0:
                    h2 = h
                else:
                    h3 = h
    for i in range(4):
        h = h0 if i == 0 else (h1 if i == 1 else (h2 if i == 2 else h3))
        if h < 0:
            continue
        x = h
        while True:
            for t in (x - 1, x + 1, x - W, x + W):
                if s[HEADER + t] == EMPTY_CELL and t != p and t != l0 and t != l1:
                    if k == 2:
                        return 3
                    if k == 0:
                        l0 = t
                    else:
                        l1 = t
                    k += 1
            x = s[nx + x]
            if x == h:
                break
    return k


@nb.njit(cache=True)
def _escape_works(s, p, c, work):
    """A stone of c at p (the liberty of c's chain in atari next to it) saves the chain: >= 3
    liberties after it, or 2 and no ladder captures it.  The liberties are counted in place; the
    state is copied (to play the stone and read the ladder) only for 2 liberties or a capture."""
    if _check(s, p, c, False) != OK:
        return False
    counted = _liberties_after(s, p, c)
    if counted >= 3:
        return True
    if counted == 0 or counted == 1:
        return False
    work[0, :s.shape[0]] = s
    s0 = work[0]
    _place(s0, p, c)
    libs = np.empty(3, dtype=np.int64)
    n = _libs_of(s0, s0[HEADER + A_HEAD * s0[PSIZE] + p], -1, libs)
    if n >= 3:
        return True
    if n <= 1:
        return False
    budget = np.array([LADDER_NODES], dtype=np.int64)
    return _ladder_move(work, 0, p, 3 - c, budget) < 0


@nb.njit(cache=True)
def _tactics(s, c, cands, flags):
    """Capture and atari-escape moves of c around the last two moves, into cands; the count.
    flags[i] = 1 for an extension whose escape is still to be checked (``_escape_works``)."""
    P = s[PSIZE]
    W = s[STRIDE]
    hd = HEADER + A_HEAD * P
    nx = HEADER + A_NEXT * P
    o = 3 - c
    k = 0
    room = cands.shape[0]
    for which in range(2):
        last = s[LAST] if which == 0 else s[LAST2]
        if last < 0:
            continue
        for q in (last, last - 1, last + 1, last - W, last + W):
            v = s[HEADER + q]
            if v != BLACK and v != WHITE:
                continue
            h = s[hd + q]
            if not _in_atari(s, h):
                continue
            lib = _atari_lib(s, h)
            if v == o:
                if k < room and _check(s, lib, c, False) == OK:
                    cands[k] = lib
                    flags[k] = 0
                    k += 1
            else:
                # capture an attacker in atari touching the chain
                x = h
                while True:
                    for t in (x - 1, x + 1, x - W, x + W):
                        if s[HEADER + t] == o and _in_atari(s, s[hd + t]):
                            m = _atari_lib(s, s[hd + t])
                            if k < room and _check(s, m, c, False) == OK:
                                cands[k] = m
                                flags[k] = 0
                                k += 1
                    x = s[nx + x]
                    if x == h:
                        break
                if k < room and _check(s, lib, c, False) == OK:
                    cands[k] = lib
                    flags[k] = 1
                    k += 1
    return k


@nb.njit(cache=True)
def _free_besides(s, p, m):
    """Empty neighbours of p other than m."""
    W = s[STRIDE]
    free = 0
    for t in (p - 1, p + 1, p - W, p + W):
        if t != m and s[HEADER + t] == EMPTY_CELL:
            free += 1
    return free


@nb.njit(cache=True)
def _runs_free(s, l, m):
    """A chain of 2 liberties l and m, put in atari at m, surely escapes by extending at l: l has
    3 empty neighbours besides m (a cheap test that spares most ladder reads in open play)."""
    return _free_besides(s, l, m) >= 3


@nb.njit(cache=True)
def _two_lib_moves(s, c, cands, scratch, read, work, budget):
    """c's answers to chains of 2 liberties touching the last move, into cands; the count.  A chain
    both of whose liberties run free (``_runs_free``) is left alone.
    Shallow (read False; no reading, no copy of the position: the tree's priors read these chains
    out, ``_reading_bonus``): an atari on the opponent's chain at a liberty whose stone is safe when
    the other liberty does not run free, and, for an own chain the opponent could atari so, an
    extension at a liberty that surely gives it 3.
    Read (read True) with the ladder reader: the atari that captures an opponent chain
    (``_ladder_move``: a ladder or a net), and, for an own chain the opponent could capture so, each
    liberty that saves it (``_escape_works``); work: the reader's stack (rows of len(s)), budget:
    int64[1].  scratch: int64[>= 10]."""
    last = s[LAST]
    if last < 0:
        return 0
    P = s[PSIZE]
    W = s[STRIDE]
    hd = HEADER + A_HEAD * P
    o = 3 - c
    heads = scratch[1:6]
    libs = scratch[6:9]
    nh = 0
    k = 0
    room = cands.shape[0]
    for q in (last, last - 1, last + 1, last - W, last + W):
        v = s[HEADER + q]
        if v != BLACK and v != WHITE:
            continue
        h = s[hd + q]
        if _holds(heads, nh, h):
            continue
        heads[nh] = h
        nh += 1
        # a liberty is counted once per stone it touches (at most 4): more than 8 pseudo-liberties
        # are 3 liberties or more, without walking the chain
        if s[HEADER + A_LIBS * P + h] > 8 or _libs_of(s, h, -1, libs) != 2:
            continue
        l0 = libs[0]
        l1 = libs[1]
        free0 = _runs_free(s, l0, l1)
        free1 = _runs_free(s, l1, l0)
        if free0 and free1:
            continue
        if read:
            work[0, :s.shape[0]] = s
            budget[0] = LADDER_NODES
            if v == o:
                m = _ladder_move(work, 0, q, c, budget)
                if m >= 0 and k < room:
                    cands[k] = m
                    k += 1
            elif _ladder_move(work, 0, q, o, budget) >= 0:
                for m in (l0, l1):
                    if k < room and _escape_works(s, m, c, work):
                        cands[k] = m
                        k += 1
            continue
        for option in range(2):
            m = l0 if option == 0 else l1
            other = l1 if option == 0 else l0
            if k >= room or _check(s, m, c, False) != OK:
                continue
            if v == o:
                # the atari at m: the chain cannot run at the other liberty
                if (free1 if option == 0 else free0) or _self_atari(s, m, c) > 0:
                    continue
            elif _free_besides(s, m, other) < 2 or _is_eye(s, m, c):
                continue  # the extension at m must give 3 liberties by itself
            cands[k] = m
            k += 1
    return k


@nb.njit(cache=True)
def _nakade_point(s, start, region):
    """The vital point of the empty region holding start when it is an eye space of 3 to 6 points
    enclosed by stones of one colour (and the edge) with one point touching more of it than any
    other (straight and bent three, the pyramid four, bulky and crossed five, rabbity six): the
    point that makes two eyes for the owner and kills for the other side.  -1 for any other
    region (bigger, two colours around, straight or bent four, the square, the 2x3 block...).
    region: int64[>= 6] scratch."""
    W = s[STRIDE]
    region[0] = start
    n = 1
    colour = 0
    i = 0
    while i < n:
        p = region[i]
        i += 1
        for t in (p - 1, p + 1, p - W, p + W):
            v = s[HEADER + t]
            if v == EMPTY_CELL:
                if not _holds(region, n, t):
                    if n == 6:
                        return -1
                    region[n] = t
                    n += 1
            elif v == BLACK or v == WHITE:
                if colour == 0:
                    colour = v
                elif colour != v:
                    return -1
    if n < 3:
        return -1
    # (a unique most-connected point has 3 neighbours or more from 4 points up: a path or the square
    # of 4 or more points ties at 2)
    return _most_connected(region, n, W)


@nb.njit(cache=True)
def _most_connected(region, n, W):
    """The point of region[:n] with the most neighbours inside the region; -1 when that most is tied."""
    best = -1
    best_degree = -1
    ties = 0
    for i in range(n):
        p = region[i]
        degree = 0
        for j in range(n):
            t = region[j]
            if t == p - 1 or t == p + 1 or t == p - W or t == p + W:
                degree += 1
        if degree > best_degree:
            best = p
            best_degree = degree
            ties = 1
        elif degree == best_degree:
            ties += 1
    return best if ties == 1 else -1


@nb.njit(cache=True)
def _enclosed(s, start, wall, region):
    """The points reached from start through anything but wall's stones and the edge (empty points
    and the other colour's stones), into region; their count, or -1 beyond 6."""
    W = s[STRIDE]
    region[0] = start
    n = 1
    i = 0
    while i < n:
        p = region[i]
        i += 1
        for t in (p - 1, p + 1, p - W, p + W):
            v = s[HEADER + t]
            if v == BORDER or v == wall or _holds(region, n, t):
                continue
            if n == 6:
                return -1
            region[n] = t
            n += 1
    return n


@nb.njit(cache=True)
def _filled_nakade_point(s, start, region):
    """``_nakade_point`` for an eye space that may already hold the attacker's stones: the region
    of 3 to 6 points (empty or the attacker's) walled by the other colour's stones and the edge, its
    one most-connected point when that point is empty, else -1.  (An attacker stone inside no longer
    hides the vital point, so the owner answers a first placement inside and the attacker plays the
    point that is left.)"""
    W = s[STRIDE]
    for wall in (BLACK, WHITE):
        n = _enclosed(s, start, wall, region)
        if n < 3:
            continue
        best = _most_connected(region, n, W)
        if best < 0 or s[HEADER + best] != EMPTY_CELL:
            return -1
        return best
    return -1


@nb.njit(cache=True)
def _vital_point(s, start, region, filled):
    """The vital point of the eye space of start: ``_filled_nakade_point`` when filled, else
    ``_nakade_point`` (empty eye spaces only)."""
    if filled:
        return _filled_nakade_point(s, start, region)
    return _nakade_point(s, start, region)


@nb.njit(cache=True)
def _nakade_moves(s, c, cands, region, filled):
    """Vital points (``_vital_point``) of the eye spaces touching the last move that c may play,
    into cands; the count."""
    last = s[LAST]
    if last < 0:
        return 0
    W = s[STRIDE]
    k = 0
    for q in (last - 1, last + 1, last - W, last + W):
        if s[HEADER + q] != EMPTY_CELL:
            continue
        v = _vital_point(s, q, region, filled)
        if v >= 0 and not _holds(cands, k, v) and _check(s, v, c, False) == OK:
            cands[k] = v
            k += 1
    return k


@nb.njit(cache=True)
def _pattern_moves(s, c, cands, table):
    """Empty points next to the last move matching the 3x3 table (legal, not an own eye, not a
    self-atari), into cands; the count."""
    last = s[LAST]
    if last < 0:
        return 0
    W = s[STRIDE]
    k = 0
    for q in (last - W - 1, last - W, last - W + 1, last - 1, last + 1, last + W - 1, last + W, last + W + 1):
        if s[HEADER + q] != EMPTY_CELL:
            continue
        if table[PLAYOUT_HEAD + _pattern_code(s, q, c)] == 0.0:
            continue
        if _check(s, q, c, False) != OK or _is_eye(s, q, c) or _self_atari(s, q, c) > 0:
            continue
        cands[k] = q
        k += 1
    return k


@nb.njit(cache=True)
def _acceptable(s, p, c, rng, params):
    """A random move's filter: legal (simple ko), not an own eye, not a big self-atari."""
    if _check(s, p, c, False) != OK or _is_eye(s, p, c):
        return False
    if params[P_HEAVY] != 0.0:
        sa = _self_atari(s, p, c)
        if sa >= 2:
            return False
        if sa == 1 and uniform(rng) >= params[P_SELFATARI_1]:
            return False
    return True


@nb.njit(cache=True)
def heavy_moves(s, rng, trace, params):
    """The heavy playout (module docstring); returns the number of moves written to trace (-1 for
    a pass)."""
    n = s[SIZE]
    P = s[PSIZE]
    em = HEADER + N_ARRAYS * P
    ep = HEADER + A_EPOS * P
    cap = PLAYOUT_CAP_PER_POINT * n * n
    heavy = params[P_HEAVY] != 0.0
    ladders = params[P_LADDER] != 0.0
    read_twolib = params[P_TWOLIB_READ] != 0.0
    filled = params[P_NAKADE_FILLED] != 0.0
    budget = np.empty(1, dtype=np.int64)
    cands = np.empty(32, dtype=np.int64)
    flags = np.empty(32, dtype=np.int64)
    scratch = np.empty(10, dtype=np.int64)
    depth = LADDER_DEPTH if n > 5 else 2 * n * n
    need = depth * s.shape[0]
    if trace.shape[0] - cap >= need:  # the ladder reader's stack: the caller's scratch beyond the moves
        work = trace[cap:cap + need].reshape((depth, s.shape[0]))
    else:  # or made when first needed
        work = np.empty((0, 0), dtype=np.int64)
    steps = 0
    while s[OVER] == 0 and steps < cap:
        c = s[TO_MOVE] + 1
        chosen = -1
        if heavy:
            if uniform(rng) < params[P_CAPTURE]:
                k = _tactics(s, c, cands, flags)
                if ladders:
                    j = 0
                    for i in range(k):
                        if flags[i] == 1:
                            if work.shape[0] == 0:
                                work = np.empty((depth, s.shape[0]), dtype=np.int64)
                            if not _escape_works(s, cands[i], c, work):
                                continue
                        cands[j] = cands[i]
                        j += 1
                    k = j
                if k > 0:
                    chosen = cands[below(rng, k)]
            if chosen < 0 and params[P_TWOLIB] > 0.0 and uniform(rng) < params[P_TWOLIB]:
                if read_twolib and work.shape[0] == 0:
                    work = np.empty((depth, s.shape[0]), dtype=np.int64)
                k = _two_lib_moves(s, c, cands, scratch, read_twolib, work, budget)
                if k > 0:
                    chosen = cands[below(rng, k)]
            if chosen < 0 and params[P_NAKADE] > 0.0 and uniform(rng) < params[P_NAKADE]:
                k = _nakade_moves(s, c, cands, scratch, filled)
                if k > 0:
                    chosen = cands[below(rng, k)]
            if chosen < 0 and uniform(rng) < params[P_PATTERN]:
                k = _pattern_moves(s, c, cands, params)
                if k > 0:
                    chosen = cands[below(rng, k)]
        if chosen < 0:
            k = s[NEMPTY]
            while k > 0:
                i = below(rng, k)
                p = s[em + i]
                if _acceptable(s, p, c, rng, params):
                    chosen = p
                    break
                k -= 1
                set_aside_empty(s, em, ep, i, k)
        if chosen >= 0:
            _place(s, chosen, c)
            trace[steps] = action_of(n, chosen)
        else:
            _pass(s)
            trace[steps] = -1
        steps += 1
    return steps


def playout_scratch(state) -> int:
    """Entries of trace with which heavy_playout_traced allocates nothing: the moves, then the
    ladder reader's stack."""
    n = int(state[SIZE])
    return PLAYOUT_CAP_PER_POINT * n * n + (LADDER_DEPTH if n > 5 else 2 * n * n) * int(state.shape[0])


@nb.njit(K.SIG_TRACED_PLAYOUT, cache=True)
def heavy_playout_traced(s, rng, trace, params):
    """The heavy playout; trace needs room for 3*n*n moves, and is used as the ladder reader's work
    stack beyond them when it has ``playout_scratch(state)`` entries (else that stack is allocated
    per playout when first needed).  Returns the number of moves traced."""
    return heavy_moves(s, rng, trace, params)


@nb.njit(K.SIG_TRACED_PLAYOUT, cache=True)
def plain_playout_traced(s, rng, trace, params):
    """engines.games.go.playout (uniformly random, no own eye) with its trace (passes as -1)."""
    before = s[NMOVES]
    playout_traced(s, rng, trace)
    steps = s[NMOVES] - before
    nn = s[SIZE] * s[SIZE]
    for i in range(steps):
        if trace[i] == nn:
            trace[i] = -1
    return steps


@nb.njit(K.SIG_OWNERSHIP, cache=True)
def go_ownership(s, out):
    """Adds +1 (Black) / -1 (White) / 0 for each point of the final position, in action order."""
    n = s[SIZE]
    W = s[STRIDE]
    for a in range(n * n):
        p = point_of(n, a)
        v = s[HEADER + p]
        if v == 1:
            out[a] += 1.0
        elif v == 2:
            out[a] -= 1.0
        else:
            seen = 0
            for q in (p - 1, p + 1, p - W, p + W):
                u = s[HEADER + q]
                if u == 1 or u == 2:
                    seen |= u
                elif u == EMPTY_CELL:
                    seen |= 4
            if seen == 1:
                out[a] += 1.0
            elif seen == 2:
                out[a] -= 1.0


# ---- tree priors -------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _empty_area(s, p, dist, centre=True):
    """No stone within Manhattan distance dist of p (p itself left out when centre is False)."""
    n = s[SIZE]
    W = s[STRIDE]
    r0 = p // W - 1
    c0 = p % W - 1
    for r in range(max(0, r0 - dist), min(n, r0 + dist + 1)):
        for c in range(max(0, c0 - dist), min(n, c0 + dist + 1)):
            if abs(r - r0) + abs(c - c0) <= dist and (centre or r != r0 or c != c0):
                v = s[HEADER + (r + 1) * W + c + 1]
                if v == 1 or v == 2:
                    return False
    return True


@nb.njit(cache=True)
def _gammas(s, params, out):
    """out[a] = the GoWeights gamma of each action (0 when not a legal point)."""
    nn = s[SIZE] * s[SIZE]
    feats = np.empty((nn + 1, MAX_FEATURES), dtype=np.int32)
    nfeat = np.empty(nn + 1, dtype=np.int32)
    base = EXPERIENCE_LEN
    compute_features(s, params[base + NUM_FEATURES:base + NUM_FEATURES + PATTERN_CODES], feats, nfeat)
    w = params[base:base + NUM_FEATURES]
    for a in range(nn + 1):
        out[a] = gamma_of(feats, nfeat, a, w)
    return 0


@nb.njit(cache=True)
def _reading_bonus(s, c, params, bonus_n, bonus_w):
    """Adds the priors of reading to bonus_n / bonus_w (virtual visits, all won), by action: with
    params[E_TWOLIB] > 0, the atari that captures an opponent chain of 2 liberties by a ladder or
    net (the capture bonus, times E_TWOLIB) and each move that saves an own chain of 2 liberties
    the opponent could capture so (the escape bonus, times E_TWOLIB); with params[E_NAKADE] > 0,
    that many at the vital point of every eye space (``_nakade_point``)."""
    size = s[SIZE]
    nn = size * size
    P = s[PSIZE]
    hd = HEADER + A_HEAD * P
    o = 3 - c
    seen = np.zeros(P, dtype=np.bool_)
    vitals = np.zeros(P, dtype=np.bool_)
    libs = np.empty(3, dtype=np.int64)
    budget = np.empty(1, dtype=np.int64)
    region = np.empty(6, dtype=np.int64)
    work = np.empty((0, 0), dtype=np.int64)
    scale = params[E_TWOLIB]
    for a in range(nn):
        p = point_of(size, a)
        v = s[HEADER + p]
        if v == EMPTY_CELL:
            if params[E_NAKADE] > 0.0:
                vital = _vital_point(s, p, region, params[E_NAKADE_FILLED] != 0.0)
                # found from each point of its region: counted once
                if vital >= 0 and not vitals[vital] and _check(s, vital, c, False) == OK:
                    vitals[vital] = True
                    bonus_n[action_of(size, vital)] += params[E_NAKADE]
                    bonus_w[action_of(size, vital)] += params[E_NAKADE]
            continue
        if scale <= 0.0 or (v != BLACK and v != WHITE):
            continue
        h = s[hd + p]
        if seen[h]:
            continue
        seen[h] = True
        if _libs_of(s, h, -1, libs) != 2 or (_runs_free(s, libs[0], libs[1]) and _runs_free(s, libs[1], libs[0])):
            continue
        if work.shape[0] == 0:
            work = np.empty((LADDER_DEPTH if size > 5 else 2 * nn, s.shape[0]), dtype=np.int64)
        work[0, :] = s
        budget[0] = LADDER_NODES
        if v == o:
            m = _ladder_move(work, 0, p, c, budget)
            if m >= 0:
                b = scale * (params[E_CAPTURE_ONE] if s[HEADER + A_CNT * P + h] == 1 else params[E_CAPTURE_MANY])
                bonus_n[action_of(size, m)] += b
                bonus_w[action_of(size, m)] += b
        elif _ladder_move(work, 0, p, o, budget) >= 0:
            l0 = libs[0]
            l1 = libs[1]
            for m in (l0, l1):
                if _escape_works(s, m, c, work):
                    b = scale * params[E_ESCAPE]
                    bonus_n[action_of(size, m)] += b
                    bonus_w[action_of(size, m)] += b
    return 0


CRITICAL_STONES = 4  # a chain this big is worth a reading prior of its own (``_critical_bonus``)


@nb.njit(cache=True)
def _libs_upto(s, h, out):
    """Distinct liberties of the chain with head h, up to len(out), into out; the count."""
    P = s[PSIZE]
    W = s[STRIDE]
    nx = HEADER + A_NEXT * P
    cap = out.shape[0]
    k = 0
    q = h
    while True:
        for t in (q - 1, q + 1, q - W, q + W):
            if s[HEADER + t] == EMPTY_CELL and not _holds(out, k, t):
                out[k] = t
                k += 1
                if k == cap:
                    return k
        q = s[nx + q]
        if q == h:
            break
    return k


@nb.njit(cache=True)
def _libs_with(s, p, c, found):
    """The liberties (up to len(found)) of c's chain through p once a stone of c is at p, counted in
    place; -1 when the stone would capture."""
    P = s[PSIZE]
    W = s[STRIDE]
    hd = HEADER + A_HEAD * P
    nx = HEADER + A_NEXT * P
    cap = found.shape[0]
    k = 0
    heads = np.full(4, -1, dtype=np.int64)
    nh = 0
    for q in (p - 1, p + 1, p - W, p + W):
        v = s[HEADER + q]
        if v == EMPTY_CELL:
            if not _holds(found, k, q):
                found[k] = q
                k += 1
                if k == cap:
                    return k
        elif v == 3 - c:
            if _in_atari(s, s[hd + q]):
                return -1
        elif v == c and not _holds(heads, nh, s[hd + q]):
            heads[nh] = s[hd + q]
            nh += 1
    for i in range(nh):
        h = heads[i]
        x = h
        while True:
            for t in (x - 1, x + 1, x - W, x + W):
                if s[HEADER + t] == EMPTY_CELL and t != p and not _holds(found, k, t):
                    found[k] = t
                    k += 1
                    if k == cap:
                        return k
            x = s[nx + x]
            if x == h:
                break
    return k


@nb.njit(cache=True)
def _critical_bonus(s, c, params, bonus_n, bonus_w):
    """Adds params[E_CRITICAL] won visits (once a move) to the moves that read as saving or killing
    a critical chain: an own chain of CRITICAL_STONES or more with 2 liberties: each liberty after
    which it has 3 or more, and each capture that gives it air; a liberty race, an own chain of 2-3
    liberties against a neighbouring opponent chain of 2-3 (one of the two CRITICAL_STONES or
    more): the own chain's liberty-gaining moves, and, when the opponent's has no more liberties
    than the own (c, to move, wins the race by filling them), each of its outside liberties (not
    shared with the own chain) that c can fill without a self-atari."""
    size = s[SIZE]
    nn = size * size
    P = s[PSIZE]
    W = s[STRIDE]
    hd = HEADER + A_HEAD * P
    nx = HEADER + A_NEXT * P
    cnt = HEADER + A_CNT * P
    o = 3 - c
    b = params[E_CRITICAL]
    seen = np.zeros(P, dtype=np.bool_)
    marked = np.zeros(P, dtype=np.bool_)
    libs = np.empty(4, dtype=np.int64)
    theirs = np.empty(4, dtype=np.int64)
    found = np.empty(5, dtype=np.int64)
    rivals = np.empty(16, dtype=np.int64)
    for a in range(nn):
        p = point_of(size, a)
        if s[HEADER + p] != c:
            continue
        h = s[hd + p]
        if seen[h]:
            continue
        seen[h] = True
        nl = _libs_upto(s, h, libs)
        if nl < 2 or nl > 3:
            continue
        big = s[cnt + h] >= CRITICAL_STONES
        # the opponent chains of 2-3 liberties next to it (a race when one of the two is big)
        nr = 0
        x = h
        while True:
            for t in (x - 1, x + 1, x - W, x + W):
                if s[HEADER + t] == o:
                    r = s[hd + t]
                    if nr < rivals.shape[0] and not _holds(rivals, nr, r) and (big or s[cnt + r] >= CRITICAL_STONES):
                        rivals[nr] = r
                        nr += 1
            x = s[nx + x]
            if x == h:
                break
        racing = False
        for i in range(nr):
            n2 = _libs_upto(s, rivals[i], theirs)
            if n2 < 2 or n2 > 3:
                continue
            racing = True
            if n2 > nl:
                continue  # filling its liberties loses the race: the own chain is taken first
            for j in range(n2):
                m = theirs[j]
                if _holds(libs, nl, m) or marked[m]:
                    continue
                if _check(s, m, c, False) == OK and _self_atari(s, m, c) == 0:
                    marked[m] = True
        if not ((big and nl == 2) or racing):
            continue
        for j in range(nl):
            m = libs[j]
            if marked[m] or _check(s, m, c, False) != OK:
                continue
            gained = _libs_with(s, m, c, found)
            if gained < 0 or gained > nl:
                marked[m] = True
        # captures of a neighbouring chain in atari give it air
        x = h
        while True:
            for t in (x - 1, x + 1, x - W, x + W):
                if s[HEADER + t] == o and _in_atari(s, s[hd + t]):
                    m = _atari_lib(s, s[hd + t])
                    if _check(s, m, c, False) == OK:
                        marked[m] = True
            x = s[nx + x]
            if x == h:
                break
    for a in range(nn):
        if marked[point_of(size, a)]:
            bonus_n[a] += b
            bonus_w[a] += b
    return 0


@nb.njit(K.SIG_EXPERIENCE, cache=True)
def go_experience(s, actions, n, visits, wins, params):
    """Virtual visits and the mover's virtual wins of each child (module docstring)."""
    size = s[SIZE]
    nn = size * size
    W = s[STRIDE]
    P = s[PSIZE]
    hd = HEADER + A_HEAD * P
    c = s[TO_MOVE] + 1
    o = 3 - c
    even = params[E_EVEN]
    bonus_n = np.zeros(nn + 1)
    bonus_w = np.zeros(nn + 1)
    # captures and escapes, over every chain in atari
    seen = np.zeros(P, dtype=np.bool_)
    work = np.empty((0, 0), dtype=np.int64)  # the ladder reader's stack, made when first needed
    for a in range(nn):
        p = point_of(size, a)
        v = s[HEADER + p]
        if v != 1 and v != 2:
            continue
        h = s[hd + p]
        if seen[h]:
            continue
        seen[h] = True
        if not _in_atari(s, h):
            continue
        lib = _atari_lib(s, h)
        la = action_of(size, lib)
        if v == o:
            if _check(s, lib, c, False) == OK:
                b = params[E_CAPTURE_ONE] if s[HEADER + A_CNT * P + h] == 1 else params[E_CAPTURE_MANY]
                bonus_n[la] += b
                bonus_w[la] += b
        else:
            if work.shape[0] == 0:
                work = np.empty((LADDER_DEPTH if size > 5 else 2 * nn, s.shape[0]), dtype=np.int64)
            if not _escape_works(s, lib, c, work):
                continue
            b = params[E_ESCAPE]
            bonus_n[la] += b
            bonus_w[la] += b
    if params[E_TWOLIB] > 0.0 or params[E_NAKADE] > 0.0:
        _reading_bonus(s, c, params, bonus_n, bonus_w)
    if params[E_CRITICAL] > 0.0:
        _critical_bonus(s, c, params, bonus_n, bonus_w)
    last = s[LAST]
    # the closeness bonus answers local fights: with E_CFG_LONE == 0 not a lone stone's (no other
    # stone within distance 2 of the last move, as an opening move: contact with it is no answer)
    lone_ok = params[E_CFG_LONE] != 0.0
    lone = last >= 0 and _empty_area(s, last, 2, False)
    gammas_on = params.shape[0] >= EXPERIENCE_GAMMA_LEN and params[E_GAMMA] > 0.0
    gam = np.zeros(nn + 1)
    gmax = 0.0
    if gammas_on:
        _gammas(s, params, gam)
        for i in range(n):
            gmax = max(gmax, gam[actions[i]])
    net_top = 0.0  # the policy network's largest probability among the children, at its root only
    if (params.shape[0] >= EXPERIENCE_NET_LEN and params[E_NET_VISITS] > 0.0
            and params[E_NET_KEY_LO] == np.float64(s[HASH] & 0xFFFFFFFF)
            and params[E_NET_KEY_HI] == np.float64((s[HASH] >> 32) & 0xFFFFFFFF)):
        for i in range(n):
            net_top = max(net_top, params[E_NET_PROBS + actions[i]])
    for i in range(n):
        a = actions[i]
        if a >= nn:  # the pass
            visits[i] = even
            wins[i] = even * params[E_PASS_WINRATE]
            continue
        p = point_of(size, a)
        vn = even + bonus_n[a]
        vw = 0.5 * even + bonus_w[a]
        if params[EXPERIENCE_HEAD + _pattern_code(s, p, c)] != 0.0:
            vn += params[E_PAT3]
            vw += params[E_PAT3]
        if _self_atari(s, p, c) > 0:
            vn += params[E_SELFATARI]
        if last >= 0 and (lone_ok or not lone):
            dy = abs(p // W - last // W)
            dx = abs(p % W - last % W)
            d = dx + dy
            if d <= 3:
                b = params[E_CFG1] if d == 1 else (params[E_CFG2] if d == 2 else params[E_CFG3])
                vn += b
                vw += b
        r = p // W - 1
        col = p % W - 1
        line = min(min(r, col), min(size - 1 - r, size - 1 - col))
        if line <= 2 and _empty_area(s, p, 3):
            if line <= 1:
                vn += params[E_EMPTYAREA]
            else:
                vn += params[E_EMPTYAREA]
                vw += params[E_EMPTYAREA]
        if gammas_on and gmax > 0.0:
            share = params[E_GAMMA] * gam[a] / gmax  # a bonus only: a low gamma is no evidence of a bad move
            vn += share
            vw += share
        if net_top > 0.0:
            share = params[E_NET_VISITS] * params[E_NET_PROBS + a] / net_top
            vn += share
            vw += share
        visits[i] = vn
        wins[i] = vw
