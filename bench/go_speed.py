"""Go: simulations per second of today's MCTS and of the RAVE search with plain (uniformly random)
and heavy (engines/knowledge/go/rave_knowledge.py) playouts, 9x9 and 19x19, side by side; then RAVE with
the heavy knowledge against today's plain MCTS (UCT, random rollouts) at equal time per move on
9x9, komi 7, in-process games alternating colours.  Writes bench/results/go_speed.md.

    nice -n 15 .venv/bin/python -m bench.go_speed [--seconds 0.5] [--games 40] [--budget 1500] [--speed-seconds 2]
                                                  [--out FILE]    (--games 0: the speed table alone)

--budget caps the match's wall time in seconds (the games played by then count).
"""
import argparse
import copy
import statistics
import sys
import time
from pathlib import Path

import numba as nb
import numpy as np

from engines import kernels as K
from engines.games.go import PLAYOUT_CAP_PER_POINT, SIZE, Go, result
from engines.knowledge.go import rave_knowledge as gp
from engines.knowledge.go.registered import heavy_knowledge, playout_params
from engines.search import Limits, make_searcher
from regress.go_match import wilson

OUT = Path(__file__).resolve().parent / "results" / "go_speed.md"
_PARAMS = playout_params()  # a compile-time constant of the kernel below


@nb.njit(K.SIG_PLAYOUT, cache=True)
def heavy_playout(s, rng):
    """The heavy playout as a plain playout kernel (for today's MCTS): the value for Black."""
    trace = np.empty(PLAYOUT_CAP_PER_POINT * s[SIZE] * s[SIZE], dtype=np.int64)
    gp.heavy_moves(s, rng, trace, _PARAMS)  # (heavy_playout_traced takes writable params only)
    return result(s)


def with_playout(game, playout):
    g = copy.copy(game)
    g.kernels = game.kernels._replace(playout=playout)
    return g


def rate(searcher, state, seconds, reps=3):
    rates = []
    for _ in range(reps):
        searcher.reset()
        t0 = time.perf_counter()
        r = searcher.search(state, Limits(time=seconds, margin=0.0))
        rates.append(r.stats["simulations"] / (time.perf_counter() - t0))
    return statistics.median(rates)


def speed_table(seconds):
    rows = []
    for n in (9, 19):
        game = Go(n, komi=7.0)
        state = game.initial_state()
        cap = 1 << 20
        cells = {}
        cells["mcts", "plain"] = make_searcher("mcts", game, None, None, 0, capacity=cap)
        cells["mcts", "heavy"] = make_searcher("mcts", with_playout(game, heavy_playout), None, None, 0, capacity=cap)
        cells["rave", "plain"] = make_searcher("rave", game, None, heavy_knowledge(game, playout="plain"), 0, capacity=cap)
        cells["rave", "heavy"] = make_searcher("rave", game, None, heavy_knowledge(game), 0, capacity=cap)
        # root parallelism (engines/search/parallel.py): two trees in two threads, one per core
        cells["rave", "threads"] = make_searcher("rave", game, None, heavy_knowledge(game), 0, capacity=cap,
                                                 threads=2)
        for s in cells.values():  # compile / load before timing
            s.search(state, Limits(simulations=20))
        got = {key: rate(s, state, seconds) for key, s in cells.items()}
        for search in ("mcts", "rave"):
            plain, heavy = got[search, "plain"], got[search, "heavy"]
            threads = got.get((search, "threads"))
            two = f"{threads:,.0f} ({threads / heavy:.2f}x)" if threads else "-"
            rows.append(f"| {n}x{n} | {search} | {plain:,.0f} | {heavy:,.0f} | {plain / heavy:.2f} | {two} |")
            print(rows[-1], flush=True)
    return rows


def play_game(game, black, white, seconds, cap_moves):
    state = game.initial_state()
    players = (black, white)
    for p in players:
        p.reset()
    moves = 0
    while not game.is_terminal(state) and moves < cap_moves:
        me = players[game.to_move(state)]
        move = me.search(state, Limits(time=seconds, margin=0.02)).move
        for p in players:
            p.advance(move) if p.root_state is not None else None
        state = game.play(state, move)
        moves += 1
    return game.score(state), moves


def match(seconds, games, budget, log):
    game = Go(9, komi=7.0)
    rave = make_searcher("rave", game, None, None, 1, capacity=1 << 20)
    mcts = make_searcher("mcts", game, None, None, 2, capacity=1 << 20)
    rave.search(game.initial_state(), Limits(simulations=20))
    mcts.search(game.initial_state(), Limits(simulations=20))
    wins = {0: 0, 1: 0}
    played = {0: 0, 1: 0}
    t0 = time.perf_counter()
    for i in range(games):
        if time.perf_counter() - t0 > budget:
            break
        rave_colour = i % 2
        black, white = (rave, mcts) if rave_colour == 0 else (mcts, rave)
        score, moves = play_game(game, black, white, seconds, 3 * 81)
        won = (score > 0) == (rave_colour == 0)
        played[rave_colour] += 1
        wins[rave_colour] += int(won)
        print(f"game {i + 1}: rave as {'BW'[rave_colour]} {'wins' if won else 'loses'} (score {score:+.1f}, "
              f"{moves} moves)", file=log, flush=True)
    return wins, played, time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.5, help="per move in the match")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--budget", type=float, default=1500.0, help="the match's wall-time cap, seconds")
    ap.add_argument("--speed-seconds", type=float, default=2.0, help="per timed search in the speed table")
    ap.add_argument("--out", default=str(OUT), help="the markdown file (default bench/results/go_speed.md)")
    args = ap.parse_args(argv)
    command = "python -m bench.go_speed " + " ".join(argv if argv is not None else sys.argv[1:])
    rows = speed_table(args.speed_seconds)
    lines = [
        "# Go: simulations per second, plain and heavy playouts; RAVE+heavy against plain MCTS", "",
        f"Command: `{command}` (empty board, median of 3 timed searches of {args.speed_seconds:g} s each;",
        "plain = uniformly random non-eye moves, engines.games.go.playout; heavy = engines/knowledge/go/rave_knowledge.py;",
        "mcts = today's MCTSConfig() defaults (UCT); rave = RaveConfig() defaults with the heavy knowledge's priors;",
        "2 threads = two heavy RAVE trees searched at once, engines/search/parallel.py).", "",
        "| board | search | plain sims/s | heavy sims/s | plain / heavy | heavy, 2 threads |", "|---|---|---|---|---|---|",
        *rows, ""]
    if args.games > 0:
        wins, played, took = match(args.seconds, args.games, args.budget, sys.stdout)
        total, n = wins[0] + wins[1], played[0] + played[1]
        lo, hi = wilson(total / n, n) if n else (0.0, 1.0)
        lines += [
            f"## RAVE + heavy knowledge against plain MCTS (uct, random rollouts), 9x9 komi 7, {args.seconds:g} s a move",
            "", "| games | RAVE wins | as Black | as White | win rate | 95 % interval (Wilson) | wall time |",
            "|---|---|---|---|---|---|---|",
            f"| {n} | {total} | {wins[0]}/{played[0]} | {wins[1]}/{played[1]} | {total / max(n, 1):.1%} | "
            f"{lo:.1%} .. {hi:.1%} | {took / 60:.1f} min |", ""]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
