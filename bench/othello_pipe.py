"""Pipe-agent figures: the Othello game manager's agent on 8x8 with -l 2, -l 4, -l 6, each with and
without -c -o, alpha-beta and (-m) minimax.

Two measurements per setting:
  * positions: a fixed set of 8x8 positions (random play by seeded Randy from the start, both
    colours to move, 8 to 44 discs placed), each searched in this process by the agent's own
    PipeAgent.choose with the CPU clock (time.thread_time): nodes, CPU seconds per move (median,
    max) and nodes per CPU second (all nodes / all seconds);
  * games: whole games of adapters/othello_agent.py against standins/othello_randy.py through the local
    manager (standins/othello_manager.py: ``python3 FILE`` over pipes, as the course's manager), our
    agent dark in one game and light in the other: wall seconds per move as the manager measures
    them (median, max; the manager's limit is 10 s), and the result.

    .venv/bin/python -m bench.othello_pipe                  # about 5 minutes on a loaded 2-core machine
    .venv/bin/python -m bench.othello_pipe --positions 10 --no-games

Results go to bench/results/othello_pipe.md and .json.
"""
import argparse
import datetime
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from adapters.othello_agent import OthelloAgentSettings, PipeAgent
from protocols.othello_pipe import Flags
from standins import othello_manager as manager

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
AGENT = ROOT / "adapters" / "othello_agent.py"
RANDY = ROOT / "standins" / "othello_randy.py"
SIZE = 8
LIMITS = (2, 4, 6)
# (label, minimax, caching, ordering)
SEARCHES = (("alpha-beta", False, False, False), ("alpha-beta -c -o", False, True, True),
            ("minimax -m", True, False, False), ("minimax -m -c", True, True, False))


def positions(count: int, seed: int = 2024) -> list[tuple[tuple, int]]:
    """count (board, colour to move) pairs from seeded random games, spread over 8..44 discs."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board, color = manager.initial_board(SIZE), 1
        stop = rng.randrange(4, 41)
        for _ in range(stop):
            moves = manager.possible_moves(board, color)
            if not moves:
                break
            board, color = manager.play_move(board, color, *rng.choice(moves)), 3 - color
        if manager.possible_moves(board, color):
            out.append((tuple(map(tuple, board)), color))
    return out


def measure_positions(sample, limit: int, minimax: bool, caching: bool, ordering: bool) -> dict:
    agent = PipeAgent(OthelloAgentSettings(time=1e9), clock=time.thread_time)  # no budget: the depth limit alone
    agent.choose(sample[0][0], Flags(sample[0][1], limit, minimax, caching, ordering))  # build the searcher
    seconds, nodes = [], []
    for board, color in sample:
        start = time.thread_time()
        agent.choose(board, Flags(color, limit, minimax, caching, ordering), start)
        seconds.append(time.thread_time() - start)
        if agent.last is not None:  # a forced move is answered without a search
            nodes.append(agent.last.stats["nodes"])
    return {"positions": len(sample), "cpu_median": statistics.median(seconds), "cpu_max": max(seconds),
            "nodes_median": statistics.median(nodes), "nodes_per_second": sum(nodes) / sum(seconds)}


def measure_games(limit: int, minimax: bool, caching: bool, ordering: bool, seed: int) -> dict:
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
               OTHELLO_RANDY_SEED=str(seed))
    walls, results = [], []
    for ours in (1, 2):
        a, b = (AGENT, RANDY) if ours == 1 else (RANDY, AGENT)
        r = manager.play_game(str(a), str(b), SIZE, limit, minimax, caching, ordering, env=env, final_grace=10.0)
        walls += [m.seconds for m in r.moves if m.color == ours]
        outcome = "win" if r.winner == ours else ("draw" if r.winner is None else "loss")
        results.append(f"{'dark' if ours == 1 else 'light'} {outcome} {r.dark}:{r.light}"
                       + ("" if r.reason.startswith("no legal move") else f" ({r.reason})"))
    return {"moves": len(walls), "wall_median": statistics.median(walls), "wall_max": max(walls), "games": results}


def report(rows: list, settings: dict) -> str:
    lines = ["# Othello game manager: the pipe agent on 8x8", "",
             f"{settings['date']} - {settings['machine']} - load average {settings['load']} at start - "
             f"Python {settings['python']}", "",
             f"Positions: {settings['positions']} fixed 8x8 positions (seeded random play, 8 to 44 discs), searched "
             "in-process by PipeAgent.choose on the CPU clock. Games: our agent against Randy through the local "
             "manager, once as dark and once as light; wall time per move as the manager sees it (limit 10 s).", "",
             "| flags | search | nodes/s (CPU) | CPU s/move median | max | nodes/move median | "
             "manager wall s/move median | max | games vs Randy |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        p, g = r["positions"], r.get("games")
        lines.append(f"| `{r['flags']}` | {r['search']} | {p['nodes_per_second']:,.0f} | {p['cpu_median']:.4f} | "
                     f"{p['cpu_max']:.4f} | {p['nodes_median']:,.0f} | "
                     + (f"{g['wall_median']:.3f} | {g['wall_max']:.3f} | {'; '.join(g['games'])} |" if g else "| | |"))
    lines += ["", "- nodes: positions the search visits (engines/search/alphabeta.py: the root, every child stepped "
              "into, and leaves valued from static scores); with -l the search deepens 1, 2, ..., N, all counted.",
              "- minimax is measured with -c only: the agent ignores -o under -m (node ordering is an alpha-beta "
              "option, as in the course's agent).",
              "- manager wall time includes the pipe round trip and the agent's Python around the search.",
              f"- command: `{settings['command']}`"]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.othello_pipe", description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40, help="fixed positions per setting")
    parser.add_argument("--no-games", action="store_true", help="skip the games through the manager")
    parser.add_argument("--seed", type=int, default=7, help="Randy's seed in the games")
    parser.add_argument("--out", default=str(RESULTS / "othello_pipe"), help="results file stem (.md, .json)")
    args = parser.parse_args(argv)
    settings = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
                "load": [round(x, 2) for x in os.getloadavg()], "python": platform.python_version(),
                "positions": args.positions,
                "command": "python -m bench.othello_pipe " + " ".join(sys.argv[1:] if argv is None else argv)}
    sample = positions(args.positions)
    rows = []
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    for limit in LIMITS:
        for label, minimax, caching, ordering in SEARCHES:
            flags = f"-l {limit}" + " -m" * minimax + " -c" * caching + " -o" * ordering
            row = {"flags": flags, "search": label, "limit": limit, "minimax": minimax, "caching": caching,
                   "ordering": ordering, "positions": measure_positions(sample, limit, minimax, caching, ordering)}
            if not args.no_games:
                row["games"] = measure_games(limit, minimax, caching, ordering, args.seed)
            rows.append(row)
            p = row["positions"]
            print(f"{flags}: {p['nodes_per_second']:,.0f} nodes/s, CPU/move median {p['cpu_median']:.4f} s "
                  f"max {p['cpu_max']:.4f} s" + (f"; manager wall/move median {row['games']['wall_median']:.3f} s "
                                                 f"max {row['games']['wall_max']:.3f} s; {row['games']['games']}"
                                                 if "games" in row else ""), flush=True)
            out.with_suffix(".json").write_text(json.dumps({"settings": settings, "rows": rows}, indent=1) + "\n")
            out.with_suffix(".md").write_text(report(rows, settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
