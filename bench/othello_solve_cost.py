"""What an exact (and a win/loss/draw) endgame solve costs by empty squares, on positions of played games
-> bench/results/othello_solve_cost.md (the figures behind engines/knowledge/othello/endgame.py's
predicted_nodes, which the paced player uses to decide whether a solve fits its time).

    python -m bench.othello_solve_cost [--games 6] [--seed 1] [--jsonl FILE]

Games: 6 random plies, then a depth-3 pattern search plays both sides (above 23 empties, and one move
in five below, a random move one time in five instead, for variety); every
position with 15-23 empties whose mover can place is solved exactly and win/loss/draw with a fresh
table (2**20 entries), the exact solve's window centred on a depth-6 search's value (as a game's solve
is centred on an estimate).  Reported by empties: positions, median and largest nodes, median and
largest CPU seconds, nodes a CPU second.  One core; CPU seconds (process_time).
"""
import argparse
import collections
import json
import platform
import statistics
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def measure(games: int, seed: int, out) -> None:
    import numpy as np
    from engines.games.othello import Othello
    from engines.knowledge.othello.endgame import EndgameSolver, state_bits
    from engines.knowledge.registry import knowledge_for
    from engines.players.othello import disc_value
    from engines.search import Limits
    from engines.search.alphabeta import AlphaBeta
    game = Othello(8)
    search = AlphaBeta(game, {"tt_size": 1 << 18}, knowledge_for(game, "patterns"))
    rng = np.random.default_rng(seed)
    for _ in range(games):
        s = game.initial_state()
        for _ in range(6):
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
        while not game.is_terminal(s):
            empties = int((game.cells(s) == 0).sum())
            if 15 <= empties <= 23 and not game.must_pass(s):
                guess = int(round(disc_value(search.search(s, Limits(depth=6)).value)))
                for wld in (False, True):
                    began = time.process_time()
                    solved = EndgameSolver(tt_bits=20).solve(*state_bits(s), wld=wld, guess=guess)
                    out.write(json.dumps({"e": empties, "wld": wld, "nodes": solved.nodes,
                                          "cpu": time.process_time() - began}) + "\n")
                    out.flush()
            legal = game.legal_moves(s)
            if empties > 23 or rng.random() < 0.2:
                move = int(search.search(s, Limits(depth=3)).move) if rng.random() < 0.8 else int(rng.choice(legal))
            else:
                move = int(search.search(s, Limits(depth=3)).move)
            s = game.play(s, move)


def report(rows: list, command: str) -> str:
    from engines.knowledge.othello.endgame import predicted_nodes
    lines = ["# Othello endgame solves: cost by empty squares", "", f"Command: `{command}`  ",
             f"Machine: {platform.machine()}, Python {platform.python_version()}; CPU seconds on one core, a "
             f"shared machine.", ""]
    for wld in (False, True):
        by = collections.defaultdict(list)
        for r in rows:
            if r["wld"] == wld:
                by[r["e"]].append(r)
        lines += [f"## {'win/loss/draw' if wld else 'exact'} solve", "",
                  "| empties | positions | median nodes | largest nodes | predicted_nodes | median CPU s | "
                  "largest CPU s | M nodes / CPU s |", "|---|---|---|---|---|---|---|---|"]
        for e in sorted(by):
            nodes, cpu = [r["nodes"] for r in by[e]], [r["cpu"] for r in by[e]]
            lines.append(f"| {e} | {len(nodes)} | {int(statistics.median(nodes)):,} | {max(nodes):,} | "
                         f"{int(predicted_nodes(e, wld)):,} | {statistics.median(cpu):.3f} | {max(cpu):.3f} | "
                         f"{sum(nodes) / max(sum(cpu), 1e-9) / 1e6:.1f} |")
        lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jsonl", type=Path, default=RESULTS / "othello_solve_cost.jsonl",
                   help="the measurements (appended; the report reads them all)")
    p.add_argument("--report-only", action="store_true", help="only rewrite the report from --jsonl")
    p.add_argument("--out", type=Path, default=RESULTS / "othello_solve_cost.md")
    args = p.parse_args(argv)
    command = "python -m bench.othello_solve_cost " + " ".join(sys.argv[1:] if argv is None else argv)
    if not args.report_only:
        with args.jsonl.open("a") as out:
            measure(args.games, args.seed, out)
    rows = [json.loads(line) for line in args.jsonl.read_text().splitlines() if line.strip()]
    args.out.write_text(report(rows, command))
    return 0


if __name__ == "__main__":
    sys.exit(main())
