"""Othello alpha-beta move ordering, measured as the nodes a fixed depth costs -> bench/results/othello_ordering.md.

    python -m bench.othello_ordering [--games 4] [--depth 8] [--first 10] [--last 40]

Positions: --games seeded games (random first 6 plies, then the default search at depth 4 plays),
plies --first..--last of each, searched IN ORDER by one searcher per game and configuration, as the
player does along a game (so a table kept across searches can help the next one).  Per
configuration: the total nodes to complete --depth over all the positions, their ratio to the
default's, the nodes per CPU second, and how many root values equal the default's (ordering changes
no value at a fixed depth; a value that differs shows a fault).
"""
import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results"


def configs() -> dict:
    """name -> AlphaBetaConfig: the default first, then the variants under trial (results/othello_ordering.md
    names the commit where the table kept across searches and aspiration windows were measured)."""
    from engines.search.alphabeta import AlphaBetaConfig
    return {"default": AlphaBetaConfig(),
            "without the transposition table": AlphaBetaConfig(use_cache=False)}


def game_positions(game, count: int, first: int, last: int, seed: int = 5) -> list:
    """count lists of consecutive positions (plies first..last) of seeded games."""
    from engines.knowledge.registry import knowledge_for
    from engines.search import Limits
    from engines.search.alphabeta import AlphaBeta
    rng = np.random.default_rng(seed)
    player = AlphaBeta(game, None, knowledge_for(game, "patterns"))
    games = []
    for _ in range(count):
        s, line = game.initial_state(), []
        for ply in range(last + 1):
            if game.is_terminal(s):
                break
            if ply >= first:
                line.append(s.copy())
            moves = game.legal_moves(s)
            move = int(rng.choice(moves)) if ply < 6 else player.search(s, Limits(depth=4)).move
            s = game.play(s, move)
        games.append(line)
    return games


def measure(games: list, depth: int) -> dict:
    from engines.games.othello import Othello
    from engines.knowledge.registry import knowledge_for
    from engines.search import Limits
    from engines.search.alphabeta import AlphaBeta
    game = Othello(8)
    knowledge = knowledge_for(game, "patterns")
    rows = {}
    for name, config in configs().items():
        nodes, cpu, values = 0, 0.0, []
        for line in games:
            search = AlphaBeta(game, config, knowledge)
            search.search(game.initial_state(), Limits(depth=1))  # loads the kernels, touches the table
            search.reset()
            for s in line:
                began = time.process_time()
                r = search.search(s, Limits(depth=depth))
                cpu += time.process_time() - began
                nodes += r.stats["nodes"]
                values.append(r.value)
        rows[name] = {"nodes": nodes, "cpu": cpu, "values": values}
        print(f"othello_ordering: {name}: {nodes} nodes, {cpu:.1f} CPU s", file=sys.stderr, flush=True)
    return rows


def report(args, command: str, rows: dict, positions: int) -> str:
    base = rows["default"]
    lines = ["# Othello alpha-beta: move ordering, nodes to a fixed depth", "", f"Command: `{command}`  ",
             f"Machine: {platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}; "
             f"{positions} positions: plies {args.first}-{args.last} of {args.games} seeded games, searched in "
             f"order by one searcher per game (the pattern evaluation, incremental).", "",
             f"| configuration | nodes to depth {args.depth} (total) | ratio | nodes per CPU s | same root values |",
             "|---|---|---|---|---|"]
    for name, r in rows.items():
        same = sum(a == b for a, b in zip(r["values"], base["values"]))
        lines.append(f"| {name} | {r['nodes']:,} | {r['nodes'] / base['nodes']:.3f} | "
                     f"{r['nodes'] / max(r['cpu'], 1e-9):,.0f} | {same}/{len(base['values'])} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--depth", type=int, default=8)
    p.add_argument("--first", type=int, default=10)
    p.add_argument("--last", type=int, default=40)
    p.add_argument("--out", type=Path, default=RESULTS / "othello_ordering.md")
    args = p.parse_args(argv)
    from engines.games.othello import Othello
    command = "python -m bench.othello_ordering " + " ".join(sys.argv[1:] if argv is None else argv)
    games = game_positions(Othello(8), args.games, args.first, args.last)
    text = report(args, command, measure(games, args.depth), sum(len(g) for g in games))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
