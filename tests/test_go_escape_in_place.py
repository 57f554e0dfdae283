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


def escape_on_a_copy(s, p, c, work):
    """_escape_works as it was: play the stone on a copy, count, read the ladder at 2 liberties."""
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
    return gp._ladder_move(work, 0, p, 3 - c, np.array([gp.LADDER_NODES], dtype=np.int64)) < 0


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
