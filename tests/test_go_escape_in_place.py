"""The heavy Go playout's atari-escape check counts liberties in place (engines/knowledge/go/rave_knowledge.py:
``_liberties_after``, used by ``_escape_works``) instead of playing the stone on a copy of the state; the
answer must be the one the copy gives, so the playouts and the search play the same moves from the same
seed.  Checked on every empty point, both colours, of positions taken along seeded playouts on 5x5, 9x9 and
19x19 (captures, own chains merged, ko bans and suicides included): the count against the copy-and-play
count, and the whole escape check against the copy-and-read statement of it (the former code, re-stated
here).  A wrong liberty (one counted twice, the point itself, a capture missed) fails the first test.
"""
import numpy as np
import pytest

from engines.games.go import A_HEAD, HEADER, OK, PSIZE, STRIDE, Go, point_of
from engines.knowledge.go import rave_knowledge as gp
from engines.knowledge.go.registered import playout_params
from engines.rng import make_rng


def positions(size: int, seeds: int, every: int):
    """Positions along seeded heavy playouts from the empty board: every ``every``-th one."""
    game = Go(size, komi=7.0)
    params = playout_params()
    found = []
    for seed in range(seeds):
        state = game.initial_state()
        trace = np.empty(gp.playout_scratch(state), dtype=np.int64)
        moves = gp.heavy_playout_traced(state.copy(), make_rng(seed), trace, params)
        for i in range(moves):
            action = trace[i]
            state = game.play(state, game.pass_action if action < 0 else int(action))
            if i % every == every - 1:
                found.append(state)
            if game.is_terminal(state):
                break
    return game, found


def counted_on_a_copy(s, p, c):
    """The liberties (up to 3) of the chain through p once c plays there, played on a copy."""
    t = s.copy()
    gp._place(t, p, c)
    libs = np.empty(3, dtype=np.int64)
    return gp._libs_of(t, t[HEADER + A_HEAD * t[PSIZE] + p], -1, libs)


def captures(s, p, c):
    """Whether a stone of c at p captures: an opponent chain next to p in atari."""
    w = int(s[STRIDE])
    hd = HEADER + A_HEAD * int(s[PSIZE])
    return any(s[HEADER + q] == 3 - c and gp._in_atari(s, s[hd + q]) for q in (p - 1, p + 1, p - w, p + w))


def ladder_on_copies(work, k, x, a, budget):
    """The ladder reader as it was (two copies a move pair: the attacker's move on work[k + 1], the
    defender's answer on work[k + 2]): the attacker's capturing atari, or -1."""
    P, W = int(work[k, PSIZE]), int(work[k, STRIDE])
    hd, nx = HEADER + A_HEAD * P, HEADER + gp.A_NEXT * P
    d = 3 - a
    if k + 2 >= work.shape[0] or budget[0] <= 0:
        return -1
    libs = np.empty(3, dtype=np.int64)
    if gp._libs_of(work[k], work[k, hd + x], -1, libs) != 2:
        return -1
    l0, l1 = int(libs[0]), int(libs[1])
    for m, other in ((l0, l1), (l1, l0)):
        budget[0] -= 1
        s1 = work[k + 1]
        s1[:] = work[k]
        if gp._check(s1, m, a, False) != OK:
            continue
        gp._place(s1, m, a)
        if gp._in_atari(s1, s1[hd + m]) or not gp._in_atari(s1, s1[hd + x]):
            continue
        chain, q = [], int(s1[hd + x])
        while True:
            chain.append(q)
            q = int(s1[nx + q])
            if q == chain[0]:
                break
        if any(s1[HEADER + t] == a and gp._in_atari(s1, s1[hd + t])
               for q in chain for t in (q - 1, q + 1, q - W, q + W)):
            continue
        s2 = work[k + 2]
        s2[:] = s1
        if gp._check(s2, other, d, False) != OK:
            return m
        gp._place(s2, other, d)
        n2 = gp._libs_of(s2, s2[hd + x], -1, libs)
        if n2 <= 1 or (n2 == 2 and ladder_on_copies(work, k + 2, x, a, budget) >= 0):
            return m
    return -1


def escape_on_a_copy(s, p, c, work):
    """_escape_works as it was: play the stone on a copy, count, read the ladder (on copies) at 2
    liberties."""
    if gp._check(s, p, c, False) != OK:
        return False
    work[0, :s.shape[0]] = s
    gp._place(work[0], p, c)
    libs = np.empty(3, dtype=np.int64)
    n = gp._libs_of(work[0], work[0, HEADER + A_HEAD * work[0, PSIZE] + p], -1, libs)
    if n >= 3:
        return True
    if n <= 1:
        return False
    return ladder_on_copies(work, 0, p, 3 - c, np.array([gp.LADDER_NODES], dtype=np.int64)) < 0


@pytest.mark.parametrize("size, seeds, every", [(5, 12, 2), (9, 6, 5), (19, 2, 40)])
def test_liberties_counted_in_place_are_those_of_the_stone_played(size, seeds, every):
    game, found = positions(size, seeds, every)
    checked = captured = two = 0
    for s in found:
        for point in range(size * size):
            p = point_of(size, point)
            for c in (1, 2):
                if gp._check(s, p, c, False) != OK:
                    continue
                got = gp._liberties_after(s, p, c)
                if captures(s, p, c):
                    assert got == -1 or got == 3, (point, c)  # -1, or 3 empty neighbours found first
                    captured += 1
                    continue
                n = counted_on_a_copy(s, p, c)
                assert got == n, (size, point, c, got, n)
                checked += 1
                two += n == 2
    assert checked > 100 and captured > 0 and two > 0  # the positions do hold every case


@pytest.mark.parametrize("size, seeds, every", [(5, 12, 2), (9, 6, 5), (19, 2, 40)])
def test_the_escape_check_answers_as_playing_on_a_copy(size, seeds, every):
    game, found = positions(size, seeds, every)
    work = np.empty((gp.LADDER_DEPTH if size > 5 else 2 * size * size, found[0].shape[0]), dtype=np.int64)
    answers = set()
    for s in found:
        for point in range(size * size):
            p = point_of(size, point)
            for c in (1, 2):
                expected = escape_on_a_copy(s, p, c, work)
                assert gp._escape_works(s, p, c, work) == expected, (size, point, c)
                answers.add(expected)
    assert answers == {True, False}


@pytest.mark.parametrize("size, seeds, every", [(5, 12, 2), (9, 6, 5), (19, 2, 40)])
def test_the_ladder_reader_answers_and_counts_as_the_copying_one(size, seeds, every):
    """Every chain of 2 liberties, read for both attackers: the same capturing move and the same node
    budget spent (the move pairs read on one copy instead of two).  A depth limit that reads twice as
    far, or a defender's answer played on the wrong state, fails here."""
    game, found = positions(size, seeds, every)
    depth = gp.LADDER_DEPTH if size > 5 else 2 * size * size
    stacks = [[np.empty((rows, found[0].shape[0]), dtype=np.int64) for _ in range(2)] for rows in (depth, 6)]
    reads = captures_found = 0
    hd = HEADER + A_HEAD * int(found[0][PSIZE])
    for s in found:
        for point in range(size * size):
            p = point_of(size, point)
            if s[HEADER + p] not in (1, 2):
                continue
            libs = np.empty(3, dtype=np.int64)
            if gp._libs_of(s, s[hd + p], -1, libs) != 2:
                continue
            for attacker in (1, 2):
                for mine, theirs in stacks:  # the whole stack, and a short one where the depth limit bites
                    mine[0], theirs[0] = s, s
                    budget_mine = np.array([gp.LADDER_NODES], dtype=np.int64)
                    budget_theirs = budget_mine.copy()
                    got = gp._ladder_move(mine, 0, p, attacker, budget_mine)
                    assert got == ladder_on_copies(theirs, 0, p, attacker, budget_theirs), (size, point, attacker)
                    assert budget_mine[0] == budget_theirs[0]
                    reads += 1
                    captures_found += got >= 0
    assert reads > 20 and 0 < captures_found < reads
