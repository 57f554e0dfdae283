"""Hex search knowledge (issue 20), measured one piece at a time -> bench/results/hex_knowledge.md

1. Speed: playouts per second of the uniform playout (the game's) and of the bridge playouts
   (engines/knowledge/hex/patterns.py), through a compiled loop; and MCTS simulations per second of
   today's default search and of each knowledge variant, from the empty board and from a middle game.
2. Strength at equal time: each variant, a search with pieces of knowledge (patterns = bridge
   playouts, inferior = dead/captured/dominated cells kept out of the tree, connections = virtual
   connections, all), against --against (default the old default MCTS: UCT c=0.7, expand_visits=4,
   uniform playouts), in-process games at --time seconds a move, colours alternating, no swap, tree
   reuse as the adapters do; the win rate of the variant with its 95 % Wilson interval.  The pieces'
   contribution to the RAVE default: --variants rave:none rave:patterns ... --against rave:all.
3. The exact solver (engines/knowledge/hex/solver.py): every first move of 5x5, then as many of the
   6x6 first moves (one of each pair related by the 180 degree turn) as --solver-minutes allow.

    nice -n 15 .venv/bin/python -m bench.hex_knowledge                # the full run (~25 CPU minutes)
    nice -n 15 .venv/bin/python -m bench.hex_knowledge --quick        # a smoke run
"""
import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from bench.playouts import playout_batch
from bench.strength import wilson
from engines import kernels as K
from engines.games import make_game
from engines.knowledge.hex import patterns as HP
from engines.players.hex import SEARCHES, knowledge_pieces, make_hex_searcher
from engines.knowledge.hex.registered import hex_knowledge
from engines.knowledge.hex.solver import HexSolver, SolveBudgetExceeded
from engines.rng import make_rng
from engines.search import Limits, make_searcher

RESULTS = Path(__file__).resolve().parent / "results"
DEFAULT_CONFIG = {"c": 0.7, "expand_visits": 4}  # plies-gtp-hex's search settings
ROLLOUT_CONFIG = {"rollout": "network", "epsilon": 0.1}  # plies-gtp-hex --network's playouts (its default epsilon)
PUCT_CONFIG = {"selection": "puct", "c": 1.5, "rollout": "value"}  # AlphaZero style: the value head, no playouts
RAVE_SPEED = ("rave:none", "rave:all")  # the RAVE search's simulations per second, without and with the knowledge
VARIANTS = {"patterns": (True, False, False), "inferior": (False, True, False),
            "connections": (False, False, True), "all": (True, True, True)}


def middle_game(game, moves: int, seed: int = 5):
    rng = np.random.default_rng(seed)
    s = game.initial_state()
    for _ in range(moves):
        s = game.play(s, int(rng.choice(game.legal_moves(s))))
    return s


def knowledge_of(game, variant):
    return None if variant == "default" else hex_knowledge(game, *VARIANTS[variant])


def engine(game, spec: str, seed: int):
    """A searcher named "SEARCH:KNOWLEDGE" (plies-gtp-hex's --search and --knowledge, e.g. "rave:all",
    "rave:patterns+inferior", "mcts:none" = the old default MCTS with random playouts); with a network
    file (engines/learn/hex/teacher.py): "rave:KNOWLEDGE:FILE[:visits=V,low=L,high=H]" (the network's
    policy as RAVE's prior experience, with engines.knowledge.hex.registered.network_prior_strength's settings)
    or "puct:FILE" (MCTS with PUCT over the network's priors and its value head at the leaves, no
    playouts), or "rollout:FILE" (MCTS in the network's epsilon-greedy playouts: plies-gtp-hex
    --network FILE)."""
    search, _, rest = spec.partition(":")
    if search == "rollout":
        from engines.knowledge.hex.network import load_network
        policy, _ = load_network(rest, game.size)
        return make_hex_searcher(game, None, "none", policy, {**DEFAULT_CONFIG, **ROLLOUT_CONFIG}, seed, 1 << 22)
    if search == "puct":
        from engines.knowledge.hex.network import load_network, load_value_network
        from engines.learn.hex.value_net import value_knowledge
        policy, _ = load_network(rest, game.size)
        return make_searcher("mcts", game, PUCT_CONFIG, value_knowledge(policy, load_value_network(rest)), seed,
                             capacity=1 << 22)
    knowledge, _, network = rest.partition(":")
    if search not in SEARCHES:
        raise ValueError(f"engine {spec!r}: rave:KNOWLEDGE[:FILE], mcts:KNOWLEDGE, puct:FILE or rollout:FILE")
    if network:
        if search != "rave":
            raise ValueError(f"engine {spec!r}: a network goes with rave (rave:KNOWLEDGE:FILE) or puct (puct:FILE)")
        from engines.knowledge.hex.registered import RAVE_CONFIG, heavy_knowledge, network_prior_strength
        from engines.knowledge.hex.network import load_network
        network, _, options = network.partition(":")
        policy, _ = load_network(network, game.size)
        try:
            strength = network_prior_strength(options)
        except ValueError as err:
            raise ValueError(f"engine {spec!r}: {err}") from None
        bundle = heavy_knowledge(game, *knowledge_pieces(knowledge or "all"), network=policy, **strength)
        return make_searcher("rave", game, RAVE_CONFIG, bundle, seed, capacity=1 << 22)
    return make_hex_searcher(game, search, knowledge or "all", None, DEFAULT_CONFIG, seed, 1 << 22)


def speed(sizes, seconds: float) -> list[dict]:
    rows = []
    for size in sizes:
        game = make_game("hex", size=size)
        for where, state in (("empty", game.initial_state()), ("middle", middle_game(game, size * size // 3))):
            row = {"size": size, "position": where}
            for name, kernel in (("uniform", game.kernels.playout), ("bridge", HP.playout_bridge),
                                 ("bridge_vc", HP.playout_bridge_vc)):
                fv = K.function_value(kernel, K.SIG_PLAYOUT)
                rates = []
                for rep in range(3):
                    rng = make_rng(rep)
                    n, t0 = 0, time.perf_counter()
                    while time.perf_counter() - t0 < seconds / 3:
                        playout_batch(fv, state, rng, 200)
                        n += 200
                    rates.append(n / (time.perf_counter() - t0))
                row[f"playouts_{name}"] = statistics.median(rates)
            for variant in ("default",) + tuple(VARIANTS) + RAVE_SPEED:
                searcher = (engine(game, variant, 1) if variant in RAVE_SPEED
                            else make_searcher("mcts", game, DEFAULT_CONFIG, knowledge_of(game, variant), 1))
                rates = []
                for _ in range(3):
                    searcher.reset()
                    result = searcher.search(state, Limits(time=seconds / 3))
                    rates.append(result.stats["simulations"] / max(result.stats["time"], 1e-9))
                row[f"sims_{variant}"] = statistics.median(rates)
            print(json.dumps(row), flush=True)
            rows.append(row)
    return rows


def play(game, engines, move_time: float, moves=None) -> int:
    """One game; engines[p] plays player p; returns the winner.  moves: a list per player that gets
    (seconds, simulations) of each of its searches."""
    s = game.initial_state()
    for e in engines:
        e.reset()
    while not game.is_terminal(s):
        mover = game.to_move(s)
        result = engines[mover].search(s, Limits(time=move_time))
        if moves is not None:
            moves[mover].append((result.stats["time"], result.stats["simulations"]))
        s = game.play(s, result.move)
        for e in engines:
            e.advance(result.move)
    return game.winner(s)


def strength(sizes, variants, games: int, move_time: float, against: str = "mcts:none",
             first_game: int = 1) -> list[dict]:
    """Each variant against the engine `against` (both "SEARCH:KNOWLEDGE"; a bare piece name of
    VARIANTS is "mcts:PIECE"), games at move_time seconds a move, colours alternating; the games are
    numbered from first_game (their seeds follow the number, so runs in parts play different games)."""
    rows = []
    for size in sizes:
        game = make_game("hex", size=size)
        for variant in variants:
            wins = {0: 0, 1: 0}
            played = {0: 0, 1: 0}
            searches = {"ours": [], "theirs": []}  # (seconds, simulations) of every search
            t0 = time.perf_counter()
            spec = variant if ":" in variant else f"mcts:{variant}"
            for g in range(first_game - 1, first_game - 1 + games):
                colour = g % 2  # the variant's colour
                ours = engine(game, spec, 1000 + g)
                theirs = engine(game, against, 2000 + g)
                engines = (ours, theirs) if colour == 0 else (theirs, ours)
                moves = ([], [])
                winner = play(game, engines, move_time, moves)
                searches["ours"] += moves[colour]
                searches["theirs"] += moves[1 - colour]
                played[colour] += 1
                wins[colour] += int(winner == colour)
            n = played[0] + played[1]
            total = wins[0] + wins[1]
            low, high = wilson(total / n, n)
            row = {"size": size, "variant": spec, "against": against, "games": n, "wins": total, "rate": total / n,
                   "ci95": [low, high], "wins_first": wins[0], "games_first": played[0],
                   "wins_second": wins[1], "games_second": played[1], "move_time": move_time,
                   "seconds": time.perf_counter() - t0}
            for side, done in searches.items():  # both sides' time per move and simulations per second
                row[f"s_move_{side}"] = [statistics.median(t for t, _ in done), max(t for t, _ in done)]
                row[f"sims_s_{side}"] = statistics.median(n / max(t, 1e-9) for t, n in done)
            print(json.dumps(row), flush=True)
            rows.append(row)
    return rows


def solver_progress(minutes: float) -> dict:
    out = {}
    game = make_game("hex", size=5)
    solver = HexSolver(game)
    t0 = time.perf_counter()
    wins = solver.winning_moves(game.initial_state())
    out["5x5"] = {"winning": sorted(_name(game, m) for m in wins), "seconds": time.perf_counter() - t0}
    print(json.dumps(out["5x5"]), flush=True)
    game = make_game("hex", size=6)
    solver = HexSolver(game, table_bits=24)
    deadline = time.perf_counter() + minutes * 60
    rows = []
    start = game.initial_state()
    order = sorted(range(36), key=lambda a: (abs(a // 6 - 2.5) + abs(a % 6 - 2.5), a))
    done = set()
    for move in order:
        r, c = divmod(move, 6)
        twin = (5 - r) * 6 + (5 - c)
        if twin in done:
            continue
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        t1 = time.perf_counter()
        try:  # nodes per second measured on the 5x5 run set a budget that fits the time left
            result = solver.solve(game.play(start, move), max_nodes=max(1, int(left * 20_000)))
            rows.append({"move": _name(game, move), "first_wins": not result.mover_wins, "nodes": result.nodes,
                         "seconds": time.perf_counter() - t1})
        except SolveBudgetExceeded:
            rows.append({"move": _name(game, move), "first_wins": None, "nodes": None,
                         "seconds": time.perf_counter() - t1})
        done.add(move)
        print(json.dumps(rows[-1]), flush=True)
    out["6x6"] = {"minutes": minutes, "openings": rows,
                  "solved": sum(r["first_wins"] is not None for r in rows), "of": 18}
    return out


def _name(game, move) -> str:
    r, c = game.coords(move)
    return f"{'abcdefghijklmnopqrs'[c]}{r + 1}"


def report(args, speed_rows, games_rows, solver) -> str:
    lines = ["# Hex search knowledge, one piece at a time (issue 20)", "",
             f"Command: `nice -n 15 .venv/bin/python -m bench.hex_knowledge {' '.join(args)}`".rstrip(), "",
             "## Speed (medians of 3)", "",
             "| size | position | uniform playouts/s | bridge | bridge+VC | MCTS sims/s default | patterns | "
             "inferior | connections | all | RAVE sims/s, no knowledge | RAVE all (the default) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in speed_rows:
        lines.append(f"| {r['size']} | {r['position']} | {r['playouts_uniform']:,.0f} | {r['playouts_bridge']:,.0f} "
                     f"({r['playouts_bridge'] / r['playouts_uniform']:.2f}x) | {r['playouts_bridge_vc']:,.0f} "
                     f"({r['playouts_bridge_vc'] / r['playouts_uniform']:.2f}x) | {r['sims_default']:,.0f} | "
                     + " | ".join(f"{r['sims_' + v]:,.0f} ({r['sims_' + v] / r['sims_default']:.2f}x)"
                                  for v in VARIANTS) + " | "
                     + " | ".join(f"{r['sims_' + v]:,.0f}" for v in RAVE_SPEED if 'sims_' + v in r) + " |")
    lines += ["", "## Strength at equal time (search:knowledge; mcts:none is the old default, UCT with random "
              "playouts)", "",
              "| size | variant | against | s/move | games | win rate | 95 % interval | as first | as second "
              "| variant s/move median (max) | against s/move median (max) | variant sims/s | against sims/s |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in games_rows:
        sides = ("ours", "theirs")
        timing = (" | ".join(f"{r[f's_move_{side}'][0]:.3f} ({r[f's_move_{side}'][1]:.3f})" for side in sides)
                  + " | " + " | ".join(f"{r[f'sims_s_{side}']:,.0f}" for side in sides)
                  if "sims_s_ours" in r else "- | - | - | -")
        lines.append(f"| {r['size']} | {r['variant']} | {r.get('against', 'mcts:none')} | {r['move_time']} | "
                     f"{r['games']} | {r['rate']:.2f} | "
                     f"{r['ci95'][0]:.2f}-{r['ci95'][1]:.2f} | {r['wins_first']}/{r['games_first']} | "
                     f"{r['wins_second']}/{r['games_second']} | {timing} |")
    if solver:
        five = solver["5x5"]
        six = solver["6x6"]
        lines += ["", "## Exact solver", "",
                  f"5x5, every first move: the first player wins with {', '.join(five['winning'])} "
                  f"({len(five['winning'])} moves), in {five['seconds']:.1f} s.", "",
                  f"6x6 in {six['minutes']} minutes: {six['solved']} of the {six['of']} first moves (up to the "
                  "180 degree turn) proven.", "", "| opening | first player wins | nodes | seconds |",
                  "|---|---|---|---|"]
        for r in six["openings"]:
            lines.append(f"| {r['move']} | {r['first_wins']} | {r['nodes']} | {r['seconds']:.1f} |")
    lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: short timings, 2 games, no solver")
    parser.add_argument("--time", type=float, default=0.3, help="seconds per move in the games")
    parser.add_argument("--games", type=int, default=20, help="games per size and variant")
    parser.add_argument("--sizes", type=int, nargs="+", default=[7, 9])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS),
                        help="engines to measure: SEARCH:KNOWLEDGE (rave:all, rave:none, mcts:patterns+inferior, "
                             "...) or a piece name (MCTS with that piece)")
    parser.add_argument("--against", default="mcts:none", help="their opponent, SEARCH:KNOWLEDGE")
    parser.add_argument("--first-game", type=int, default=1,
                        help="the first game's number (a match in parts: each part plays other seeds)")
    parser.add_argument("--solver-minutes", type=float, default=10.0)
    parser.add_argument("--sections", nargs="+", default=["speed", "games", "solver"],
                        choices=["speed", "games", "solver"], help="what to measure (the others are left out)")
    parser.add_argument("--out", default=str(RESULTS / "hex_knowledge.md"))
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.time, args.solver_minutes = 2, 0.05, 0.0
    speed_rows = speed(args.sizes + [11], 0.6 if args.quick else 3.0) if "speed" in args.sections else []
    games_rows = (strength(args.sizes, args.variants, args.games, args.time, args.against, args.first_game)
                  if "games" in args.sections else [])
    solver = (solver_progress(args.solver_minutes) if args.solver_minutes > 0 and "solver" in args.sections
              else None)
    text = report(sys.argv[1:] if argv is None else argv, speed_rows, games_rows, solver)
    Path(args.out).write_text(text)
    Path(args.out).with_suffix(".json").write_text(json.dumps(
        {"speed": speed_rows, "games": games_rows, "solver": solver}, indent=1))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
