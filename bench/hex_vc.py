"""H-search (engines/knowledge/hex/vc.py) measured -> bench/results/hex_vc.md

1. Speed: one H-search per colour on positions of random play (a quarter to a half of the board
   filled, not decided by stones) on 9x9 and 11x11: median and maximum milliseconds and carrier
   operations, beside the connection check the search uses today (patterns.vc_winner: template chains).
2. Decided positions: on 5x5 and 6x6 positions of random play, how many the exact solver decides
   (all) and how many H-search decides: the mover connected or holding an edge-to-edge semi (a win),
   the opponent connected or the mover's must-play empty (a loss); beside vc_winner.  A decision that
   disagrees with the solver is counted as wrong (it must stay 0).
3. Strength (--games N): today's default Hex searcher (RAVE with the knowledge and the shipped prior,
   HexSettings' defaults) with H-search at its root (root.ConnectionRoot: a proven win played at
   once, the move kept to must-play) against the same searcher without it, --time seconds a move
   each (H-search's time counted in the move's), colours alternating, no swap; the win rate with its
   95 % Wilson interval, both sides' seconds a move (median, max).

    nice -n 15 .venv/bin/python -m bench.hex_vc                 # ~ a few CPU minutes
    nice -n 15 .venv/bin/python -m bench.hex_vc --quick
    nice -n 15 .venv/bin/python -m bench.hex_vc --games 40 --time 0.5 --size 9 --skip-figures
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from engines.games.hex import Hex
from engines.knowledge.hex import patterns as HP
from engines.knowledge.hex.solver import HexSolver, SolveBudgetExceeded
from engines.knowledge.hex.vc import DEFAULT_LIMITS, HSearch

RESULTS = Path(__file__).resolve().parent / "results"


def undecided_positions(n, count, fewest, most, rng):
    """count undecided positions of n x n Hex, each after fewest..most uniformly random moves (rng draws
    how many, then the moves)."""
    game = Hex(n)
    out = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(int(rng.integers(fewest, most + 1))):
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
            if game.is_terminal(s):
                break
        if not game.is_terminal(s):
            out.append(s)
    return out


def random_positions(n, count, low, high, seed):
    return undecided_positions(n, count, int(low * n * n), int(high * n * n), np.random.default_rng(seed))


POLICIES = {"first come": DEFAULT_LIMITS._replace(keep_smallest=0), "smallest": DEFAULT_LIMITS}


def speed(n, count, policies, seed=1):
    """Each policy's figures on the same positions, the searches interleaved (the same load)."""
    searches = {name: HSearch(n, limits) for name, limits in policies.items()}
    positions = random_positions(n, count, 0.25, 0.5, seed)
    for hs in searches.values():
        hs.connected(positions[0], 0)  # load the compiled kernels
    HP.vc_winner(positions[0])
    figures = {name: {"ms": [], "cpu": [], "ops": [], "vcs": []} for name in policies}
    old_ms = []
    for s in positions:
        for colour in (0, 1):
            for name, hs in searches.items():
                f = figures[name]
                t, c = time.perf_counter(), time.process_time()
                hs.connected(s, colour)
                f["ms"].append(1e3 * (time.perf_counter() - t))
                f["cpu"].append(1e3 * (time.process_time() - c))
                f["ops"].append(hs.stats["ops"])
                f["vcs"].append(hs.stats["vcs"])
        t = time.perf_counter()
        HP.vc_winner(s)
        old_ms.append(1e3 * (time.perf_counter() - t))
    out = {}
    for name, f in figures.items():
        out[name] = {"n": n, "searches": len(f["ms"]), "median_ms": statistics.median(f["ms"]),
                     "max_ms": max(f["ms"]), "median_cpu_ms": statistics.median(f["cpu"]),
                     "max_cpu_ms": max(f["cpu"]), "median_ops": statistics.median(f["ops"]),
                     "max_ops": max(f["ops"]), "median_vcs": statistics.median(f["vcs"]),
                     "old_median_ms": statistics.median(old_ms)}
    return out


def decided(n, count, policies, seed=2, budget=2_000_000):
    """Each policy's tally on the same positions (each solved once)."""
    game = Hex(n)
    searches = {name: HSearch(n, limits) for name, limits in policies.items()}
    solver = HexSolver(game, table_bits=22)
    tallies = {name: {"n": n, "positions": 0, "vc": 0, "vc_win": 0, "vc_loss": 0, "old": 0, "wrong": 0,
                      "unsolved": 0} for name in policies}
    for s in random_positions(n, count, 0.2, 0.6, seed):
        try:
            win = solver.solve(s, budget).mover_wins
        except SolveBudgetExceeded:
            for tally in tallies.values():
                tally["unsolved"] += 1
            continue
        p = int(s[1])
        old = HP.vc_winner(s)
        for name, hs in searches.items():
            tally = tallies[name]
            tally["positions"] += 1
            claim = None
            if hs.winning_move(s) is not None:
                claim = True
            elif hs.must_play(s, p) == []:
                claim = False
            if claim is not None:
                tally["vc"] += 1
                tally["vc_win" if claim else "vc_loss"] += 1
                tally["wrong"] += claim != win
            if old >= 0:
                tally["old"] += 1
                tally["wrong"] += (old == p) != win
    return tallies


def match(size, games, move_time, first_game=1):
    from bench.hex_knowledge import play
    from bench.strength import wilson
    from engines.knowledge.hex.root import ConnectionRoot
    from engines.players.hex import HexPlayer, HexSettings
    game = Hex(size)
    wins, played, seconds = [0, 0], [0, 0], {"ours": [], "theirs": []}
    decided = restricted = 0
    for g in range(first_game - 1, first_game - 1 + games):
        colour = g % 2  # ours
        ours = ConnectionRoot(HexPlayer(HexSettings(seed=1000 + g), size).searcher, game)
        theirs = HexPlayer(HexSettings(seed=2000 + g), size).searcher
        engines = (ours, theirs) if colour == 0 else (theirs, ours)
        moves = ([], [])
        winner = play(game, engines, move_time, moves)
        played[colour] += 1
        wins[colour] += int(winner == colour)
        seconds["ours"] += [t for t, _ in moves[colour]]
        seconds["theirs"] += [t for t, _ in moves[1 - colour]]
        decided += ours.decided
        restricted += ours.restricted
        print(f"game {g + 1}: ours as {'first' if colour == 0 else 'second'} {'won' if winner == colour else 'lost'}; "
              f"{sum(wins)}/{sum(played)}", flush=True)
    n, total = sum(played), sum(wins)
    low, high = wilson(total / n, n)
    return {"size": size, "games": n, "wins": total, "ci95": (low, high), "first": (wins[0], played[0]),
            "second": (wins[1], played[1]), "move_time": move_time, "decided_moves": decided,
            "restricted_moves": restricted,
            "s_move_ours": (statistics.median(seconds["ours"]), max(seconds["ours"])),
            "s_move_theirs": (statistics.median(seconds["theirs"]), max(seconds["theirs"]))}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--positions", type=int, default=40, help="positions per size for the speed figures")
    ap.add_argument("--decided", type=int, default=300, help="positions per size for the decided count")
    ap.add_argument("--games", type=int, default=0, help="strength games (0: none)")
    ap.add_argument("--time", type=float, default=0.5, help="seconds a move in the strength games")
    ap.add_argument("--size", type=int, default=9, help="board size of the strength games")
    ap.add_argument("--first-game", type=int, default=1, help="number of the first game (runs in parts)")
    ap.add_argument("--skip-figures", action="store_true", help="the strength games only")
    ap.add_argument("--out", default=str(RESULTS / "hex_vc.md"))
    args = ap.parse_args(argv)
    if args.skip_figures:
        r = match(args.size, args.games, args.time, args.first_game)
        text = (f"| {r['size']}x{r['size']} | {r['move_time']:g} s | {r['games']} | {r['wins']} "
                f"({100 * r['wins'] / r['games']:.0f} %, 95 % {100 * r['ci95'][0]:.0f}-{100 * r['ci95'][1]:.0f} %) "
                f"| {r['first'][0]}/{r['first'][1]} | {r['second'][0]}/{r['second'][1]} "
                f"| {r['s_move_ours'][0]:.2f} / {r['s_move_ours'][1]:.2f} | {r['s_move_theirs'][0]:.2f} / "
                f"{r['s_move_theirs'][1]:.2f} | {r['decided_moves']} | {r['restricted_moves']} |")
        print(text)
        with open(args.out, "a") as f:
            f.write(text + "\n")
        return
    if args.quick:
        args.positions, args.decided = 5, 30
    limits = DEFAULT_LIMITS
    lines = ["# H-search (engines/knowledge/hex/vc.py)", "",
             f"Command: `nice -n 15 python -m bench.hex_vc {' '.join(argv if argv is not None else sys.argv[1:])}`; "
             f"limits {limits}.  Lists per pair: \"first come\" (keep_smallest=0, the lists before "
             "issue 33's follow-up) beside \"smallest\" (keep_smallest=1: ordered by carrier size, the "
             "largest replaced, supersets removed), on the same positions in one run.",
             "Machine shared (2 cores, load of other sessions): the operation counts are the stable figure.", "",
             "## Speed: one H-search per colour, random-play positions (1/4 to 1/2 of the board filled)", "",
             "| size | lists | searches | median ms (CPU) | max ms (CPU) | median ms (wall) | median ops | max ops "
             "| median connections kept | today's vc_winner, median ms (wall) |", "|---|---|---|---|---|---|---|---|---|---|"]
    for n in (9, 11):
        for name, r in speed(n, args.positions, POLICIES).items():
            lines.append(f"| {n}x{n} | {name} | {r['searches']} | {r['median_cpu_ms']:.1f} | {r['max_cpu_ms']:.1f} "
                         f"| {r['median_ms']:.1f} | {r['median_ops']:.0f} "
                         f"| {r['max_ops']} | {r['median_vcs']:.0f} | {r['old_median_ms']:.2f} |")
            print(lines[-1], flush=True)
    lines += ["", "## Decided positions against the exact solver (random play, 1/5 to 3/5 filled)", "",
              "| size | lists | solved positions | H-search decides | of which wins / losses | today's vc_winner decides "
              "| wrong | not solved in budget |", "|---|---|---|---|---|---|---|---|"]
    for n in (5, 6):
        for name, t in decided(n, args.decided, POLICIES).items():
            lines.append(f"| {n}x{n} | {name} | {t['positions']} | {t['vc']} ({100 * t['vc'] / max(1, t['positions']):.0f} %) "
                         f"| {t['vc_win']} / {t['vc_loss']} | {t['old']} ({100 * t['old'] / max(1, t['positions']):.0f} %) "
                         f"| {t['wrong']} | {t['unsolved']} |")
            print(lines[-1], flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"-> {args.out}")


if __name__ == "__main__":
    main()
