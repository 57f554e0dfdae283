"""The DFPN solver with H-search (engines/knowledge/hex/dfpn.py) measured -> bench/results/hex_dfpn.md

1. First moves (--size N): for every first move X of black on the empty N x N board (no swap), does
   X win?  plies' DFPN (a fresh table per move, a cap of --cap seconds) and, with PLIES_MOHEX naming
   a MoHex 2.0 binary, benzene's DFPN on the same position right after it (bench/hex_benzene_solver.py:
   dfpn-clear-tt, play b X, dfpn-solve-state white, param_dfpn timelimit = the cap), so both run
   under the same load; without PLIES_MOHEX the benzene columns come from the records of
   bench/results/hex_benzene_solver.jsonl (say so in the table).  Per move: each verdict, nodes
   (plies: evaluations; benzene: MID calls) and seconds (plies: CPU and wall; benzene: its own
   elapsed and the GTP wall); then how many each solved within the cap and whether the verdicts agree.
   With --compare JSON: each first move solved by two settings of plies' solver, one right after the
   other (``before``: the HexDfpn keyword arguments of JSON, e.g. '{"proof_pruning": false}';
   ``after``: --solver's, HexDfpn's defaults unless given), beside benzene's recorded figures.
2. Endgames (--endgames SIZE...): positions with E empty cells (not decided by stones) of the Hex
   player's self-play games (--source selfplay, 500 simulations a move) or of random play (--source
   random, nearly always decided by the connections at once), for each E of --empties; how many plies' DFPN proves within --endgame-cap seconds each
   (and how many the root's connections alone decide), median nodes and seconds of the proven.

    nice -n 15 .venv/bin/python -m bench.hex_dfpn --size 6 --cap 20
    PLIES_MOHEX=... nice -n 15 .venv/bin/python -m bench.hex_dfpn --size 7 --cap 15
    nice -n 15 .venv/bin/python -m bench.hex_dfpn --endgames 9 11 --empties 10 20 30 40 --positions 10
    nice -n 15 .venv/bin/python -m bench.hex_dfpn --games 40 --time 0.5 --match-size 9
3. Strength (--games N): the Hex player's default searcher with H-search at its root and the DFPN
   solver (root_solver on, whatever the default) against the same without the solver (root_solver
   off), --time seconds a move each (the solver's time is part of the move's), colours alternating,
   no swap: the win rate with its 95 % Wilson interval, both sides' seconds a move (median, max),
   the moves the solver decided and the moves it changed by avoiding a proven loss.

4. RAVE speed (--rave-speed SIZE...): the RAVE search's simulations a CPU second with the tree's
   children pruning vulnerable cells or not (--rave-simulations a search, --rounds interleaved).
   The inferior cells in the solver: --compare '{"vulnerable": false}' --solver '{"vulnerable": true}'.

Records: one JSON line per position in bench/results/hex_dfpn.jsonl (appended); the markdown table of
each run is appended to bench/results/hex_dfpn.md.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from engines.games.hex import Hex
from engines.knowledge.hex.dfpn import DfpnBudgetExceeded, HexDfpn

RESULTS = Path(__file__).resolve().parent / "results"
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def cell_name(n, a):
    return f"{LETTERS[a % n]}{a // n + 1}"


def plies_solve(dfpn, state, cap):
    """(verdict or None, nodes, cpu s, wall s) for the side to move, a fresh table; cap: CPU seconds
    (dfpn's clock is the process's CPU time: the machine is shared, and a wall cap measures the load)."""
    dfpn.clear()
    nodes0 = dfpn.nodes
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        verdict = dfpn.solve(state, deadline=time.process_time() + cap).mover_wins
    except DfpnBudgetExceeded:
        verdict = None
    return verdict, dfpn.nodes - nodes0, time.process_time() - cpu, time.perf_counter() - wall


def recorded_benzene(size):
    path = RESULTS / "hex_benzene_solver.jsonl"
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        r = json.loads(line)
        if r["size"] == size and "move" in r:
            out[r["move"]] = r
    return out


def first_moves(size, cap, moves, records):
    game = Hex(size)
    dfpn = HexDfpn(game, clock=time.process_time)
    binary = os.environ.get("PLIES_MOHEX")
    benzene, recorded = None, {}
    if binary:
        from bench.hex_benzene_solver import Solver
        benzene = Solver(binary, Path(tempfile.gettempdir()) / f"hex_dfpn.{os.getpid()}.stderr", cap)
    else:
        recorded = recorded_benzene(size)
    rows = []
    empty = game.initial_state()
    try:
        for a in moves:
            name = cell_name(size, a)
            verdict, nodes, cpu, wall = plies_solve(dfpn, game.play(empty, a), cap)
            row = {"part": "first", "size": size, "move": name, "cap": cap,
                   "plies_first_wins": None if verdict is None else not verdict,
                   "plies_nodes": nodes, "plies_cpu_s": round(cpu, 3), "plies_wall_s": round(wall, 3)}
            b = benzene.solve_first_move(size, name) if benzene else recorded.get(name)
            if b:
                row.update(benzene_first_wins=b["first_move_wins"], benzene_mid_calls=b.get("mid_calls"),
                           benzene_s=b.get("solver_s"), benzene_wall_s=b["wall_s"],
                           benzene_source="live" if benzene else f"recorded (time limit {b['timelimit']:g} s)")
            rows.append(row)
            records.write(json.dumps(row) + "\n")
            records.flush()
            print(json.dumps(row), flush=True)
    finally:
        if benzene:
            benzene.close()
    return rows


def first_moves_table(size, cap, rows, command):
    mark = {None: "?", True: "W", False: "L"}
    solved = [r for r in rows if r["plies_first_wins"] is not None]
    bz = [r for r in rows if r.get("benzene_first_wins") is not None]
    bz_in_cap = [r for r in bz if (r.get("benzene_s") or r["benzene_wall_s"]) <= cap]
    both = [r for r in rows if r["plies_first_wins"] is not None and r.get("benzene_first_wins") is not None]
    disagree = [r["move"] for r in both if r["plies_first_wins"] != r["benzene_first_wins"]]
    source = sorted({r.get("benzene_source", "none") for r in rows})
    lines = [f"## {size}x{size} first moves, cap {cap:g} s a move (plies: CPU seconds; benzene: its dfpn timelimit)", "", f"Command: `{command}`; benzene: {', '.join(source)}.", "",
             f"plies solved {len(solved)} of {len(rows)} within the cap ({sum(r['plies_cpu_s'] for r in rows):.0f} CPU s, "
             f"{sum(r['plies_wall_s'] for r in rows):.0f} wall s in all); benzene {len(bz)} "
             f"({len(bz_in_cap)} within {cap:g} s of its own time; {sum((r.get('benzene_s') or 0) for r in bz):.0f} s in all); "
             f"verdicts compared on {len(both)}: {len(disagree)} differ {disagree or ''}.",
             f"plies winning: {' '.join(r['move'] for r in rows if r['plies_first_wins'])}",
             f"benzene winning: {' '.join(r['move'] for r in rows if r.get('benzene_first_wins'))}", "",
             "| move | plies | nodes | CPU s | wall s | benzene | MID calls | solver s | wall s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['move']} | {mark[r['plies_first_wins']]} | {r['plies_nodes']} | {r['plies_cpu_s']:.2f} "
                     f"| {r['plies_wall_s']:.2f} | {mark[r.get('benzene_first_wins')]} | {r.get('benzene_mid_calls', '')} "
                     f"| {r.get('benzene_s') if r.get('benzene_s') is not None else ''} | {r.get('benzene_wall_s', '')} |")
    proven = [r for r in rows if r["plies_first_wins"] is not None]
    if proven:
        lines.append("")
        lines.append(f"plies, proven moves: median {statistics.median(r['plies_cpu_s'] for r in proven):.2f} CPU s, "
                     f"median {statistics.median(r['plies_nodes'] for r in proven):.0f} nodes; benzene (same moves, where "
                     f"solved): median {statistics.median([r['benzene_s'] for r in proven if r.get('benzene_s') is not None] or [0]):.2f} s.")
    return "\n".join(lines) + "\n"


def first_moves_compare(size, cap, moves, records, before, after):
    """Each first move solved by two settings of the solver, one after the other (interleaved, so
    both see the same load): before and after are HexDfpn keyword arguments."""
    game = Hex(size)
    solvers = {"before": HexDfpn(game, clock=time.process_time, **before),
               "after": HexDfpn(game, clock=time.process_time, **after)}
    recorded = recorded_benzene(size)
    rows = []
    empty = game.initial_state()
    for a in moves:
        name = cell_name(size, a)
        row = {"part": "first-compare", "size": size, "move": name, "cap": cap, "before": before, "after": after}
        for label, dfpn in solvers.items():
            verdict, nodes, cpu, wall = plies_solve(dfpn, game.play(empty, a), cap)
            row.update({f"{label}_first_wins": None if verdict is None else not verdict, f"{label}_nodes": nodes,
                        f"{label}_cpu_s": round(cpu, 3), f"{label}_wall_s": round(wall, 3)})
        b = recorded.get(name)
        if b:
            row.update(benzene_first_wins=b["first_move_wins"], benzene_mid_calls=b.get("mid_calls"),
                       benzene_s=b.get("solver_s"), benzene_timelimit=b["timelimit"])
        rows.append(row)
        records.write(json.dumps(row) + "\n")
        records.flush()
        print(json.dumps(row), flush=True)
    return rows


def first_moves_compare_table(size, cap, rows, command, before, after):
    mark = {None: "?", True: "W", False: "L"}
    lines = [f"## {size}x{size} first moves, before {before} and after {after}, cap {cap:g} CPU s a move, interleaved",
             "", f"Command: `{command}`; benzene: its recorded DFPN (bench/results/hex_benzene_solver.jsonl).", ""]
    for label in ("before", "after"):
        solved = [r for r in rows if r[f"{label}_first_wins"] is not None]
        wrong = [r["move"] for r in solved if r.get("benzene_first_wins") is not None
                 and r[f"{label}_first_wins"] != r["benzene_first_wins"]]
        lines.append(f"- {label}: {len(solved)} of {len(rows)} proven within {cap:g} CPU s; "
                     f"{sum(r[f'{label}_nodes'] for r in rows)} nodes and "
                     f"{sum(r[f'{label}_cpu_s'] for r in rows):.1f} CPU s in all; verdicts differing from benzene's: "
                     f"{len(wrong)} {wrong or ''}")
    both = [r for r in rows if r["before_first_wins"] is not None and r["after_first_wins"] is not None]
    if both:
        ratios = sorted(r["after_nodes"] / max(1, r["before_nodes"]) for r in both)
        lines.append(f"- moves both proved ({len(both)}): nodes {sum(r['before_nodes'] for r in both)} before, "
                     f"{sum(r['after_nodes'] for r in both)} after; median ratio after/before "
                     f"{statistics.median(ratios):.2f}; CPU s {sum(r['before_cpu_s'] for r in both):.1f} before, "
                     f"{sum(r['after_cpu_s'] for r in both):.1f} after")
    bz = [r for r in rows if r.get("benzene_s") is not None]
    lines.append(f"- benzene: {sum(1 for r in bz if r['benzene_s'] <= cap)} of {len(rows)} within {cap:g} s "
                 f"of its own time")
    lines += ["", "| move | benzene | MID calls | benzene s | before | nodes | CPU s | after | nodes | CPU s |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['move']} | {mark[r.get('benzene_first_wins')]} | {r.get('benzene_mid_calls', '')} "
                     f"| {r.get('benzene_s', '')} | {mark[r['before_first_wins']]} | {r['before_nodes']} "
                     f"| {r['before_cpu_s']:.2f} | {mark[r['after_first_wins']]} | {r['after_nodes']} "
                     f"| {r['after_cpu_s']:.2f} |")
    return "\n".join(lines) + "\n"


def random_endgame(game, empties, rng):
    """A position of random play with `empties` empty cells, not decided by stones (None: it was)."""
    s = game.initial_state()
    for _ in range(game.num_actions - empties):
        s = game.play(s, int(rng.choice(game.legal_moves(s))))
        if game.is_terminal(s):
            return None
    return s


def selfplay_endgames(game, empties_list, count, seed, simulations=500):
    """{empties: [positions]}: the positions with that many empty cells of self-play games of the
    Hex player (HexSettings' defaults at `simulations` a move, seeds from `seed`), skipping games
    decided by stones before."""
    from engines.players.hex import HexPlayer, HexSettings
    out = {e: [] for e in empties_list}
    g = 0
    while min(len(v) for v in out.values()) < count and g < 20 * count:
        player = HexPlayer(HexSettings(time=0, simulations=simulations, seed=seed + g), game.size)
        g += 1
        s = game.initial_state()
        while not game.is_terminal(s):
            empties = game.num_actions - int(s[3])
            if empties in out and len(out[empties]) < count:
                out[empties].append(s.copy())
            if empties < min(empties_list):
                break
            result = player.connections.search(s, player.limits())
            s = game.play(s, result.move)
            player.connections.advance(result.move)
    return out


def endgames(sizes, empties_list, count, cap, seed, records, source):
    rows = []
    for n in sizes:
        game = Hex(n)
        dfpn = HexDfpn(game, clock=time.process_time)
        rng = np.random.default_rng(seed + n)
        pool = selfplay_endgames(game, empties_list, count, seed) if source == "selfplay" else None
        for empties in empties_list:
            found = 0
            tries = 0
            while found < count and tries < 50 * count:
                tries += 1
                if pool is not None:
                    if not pool[empties]:
                        break
                    s = pool[empties].pop()
                else:
                    s = random_endgame(game, empties, rng)
                if s is None:
                    continue
                found += 1
                verdict, nodes, cpu, wall = plies_solve(dfpn, s, cap)
                row = {"part": "endgame", "source": source, "size": n, "empties": empties, "cap": cap, "verdict": verdict,
                       "nodes": nodes, "cpu_s": round(cpu, 3), "wall_s": round(wall, 3)}
                rows.append(row)
                records.write(json.dumps(row) + "\n")
                records.flush()
                print(json.dumps(row), flush=True)
    return rows


def endgames_table(rows, cap, command, source):
    how = ("the Hex player's self-play games (HexSettings' defaults, 500 simulations a move, root connections), "
           "the position with E empty cells of each game" if source == "selfplay" else "random play to E empty cells")
    lines = [f"## Endgames ({source}), cap {cap:g} CPU s a position", "", f"Command: `{command}`.  Positions: {how} "
             "(positions decided by stones skipped); \"at the root\": proven by the first evaluation (the "
             "connections or an empty must-play) without a search.", "",
             "| size | empties | positions | proven in the cap | at the root | by search | median nodes (searched) "
             "| median CPU s (proven) | max CPU s (proven) |", "|---|---|---|---|---|---|---|---|---|"]
    keys = sorted({(r["size"], r["empties"]) for r in rows})
    for n, e in keys:
        group = [r for r in rows if r["size"] == n and r["empties"] == e]
        proven = [r for r in group if r["verdict"] is not None]
        root = [r for r in proven if r["nodes"] <= 1]
        searched = [r for r in proven if r["nodes"] > 1]
        lines.append(f"| {n}x{n} | {e} | {len(group)} | {len(proven)} | {len(root)} | {len(searched)} "
                     f"| {statistics.median([r['nodes'] for r in searched]) if searched else '-'} "
                     f"| {statistics.median([r['cpu_s'] for r in proven]) if proven else 0:.3f} "
                     f"| {max([r['cpu_s'] for r in proven], default=0):.3f} |")
    return "\n".join(lines) + "\n"


def match(size, games, move_time, first_game, records, solver=None):
    from bench.hex_knowledge import play
    from bench.strength import wilson
    from engines.players.hex import HexPlayer, HexSettings
    game = Hex(size)
    wins, played, seconds = [0, 0], [0, 0], {"ours": [], "theirs": []}
    solved = avoided = 0
    for g in range(first_game - 1, first_game - 1 + games):
        colour = g % 2  # ours
        ours = HexPlayer(HexSettings(seed=1000 + g, **({"root_solver": True} | (solver or {}))), size).connections
        theirs = HexPlayer(HexSettings(seed=2000 + g, root_solver=False), size).connections
        engines = (ours, theirs) if colour == 0 else (theirs, ours)
        moves = ([], [])
        winner = play(game, engines, move_time, moves)
        played[colour] += 1
        wins[colour] += int(winner == colour)
        seconds["ours"] += [t for t, _ in moves[colour]]
        seconds["theirs"] += [t for t, _ in moves[1 - colour]]
        solved += ours.solved
        avoided += ours.avoided
        row = {"part": "match", "size": size, "game": g + 1, "ours_colour": colour, "won": winner == colour,
               "time": move_time, "solved": ours.solved, "avoided": ours.avoided,
               "max_s_ours": max(t for t, _ in moves[colour]), "max_s_theirs": max(t for t, _ in moves[1 - colour])}
        records.write(json.dumps(row) + "\n")
        records.flush()
        print(f"game {g + 1}: ours as {'first' if colour == 0 else 'second'} {'won' if winner == colour else 'lost'}; "
              f"{sum(wins)}/{sum(played)}; solved {ours.solved}, avoided {ours.avoided}", flush=True)
    n, total = sum(played), sum(wins)
    low, high = wilson(total / n, n)
    return (f"| {size}x{size} | {move_time:g} s | {n} (from game {first_game}) | {total} ({100 * total / n:.0f} %, 95 % "
            f"{100 * low:.0f}-{100 * high:.0f} %) | {wins[0]}/{played[0]} | {wins[1]}/{played[1]} "
            f"| {statistics.median(seconds['ours']):.2f} / {max(seconds['ours']):.2f} "
            f"| {statistics.median(seconds['theirs']):.2f} / {max(seconds['theirs']):.2f} | {solved} | {avoided} |")


MATCH_HEAD = ("| size | time a move | games | with the solver won | as first | as second | ours s/move median / max "
              "| theirs s/move median / max | moves the solver won at once | moves it changed (avoided a loss) |\n"
              "|---|---|---|---|---|---|---|---|---|---|")


def rave_speed(sizes, simulations, rounds, records):
    """The RAVE search's simulations a CPU second with the tree's children kernel pruning vulnerable
    cells or not (heavy_knowledge's defaults otherwise), from the empty board and a middle game of
    random moves; the two searched one right after the other, ``rounds`` times; medians."""
    from engines.knowledge.hex.registered import RAVE_CONFIG, heavy_knowledge
    from engines.search import Limits, make_searcher
    rows = []
    for size in sizes:
        game = Hex(size)
        rng = np.random.default_rng(5)
        middle = game.initial_state()
        for _ in range(size * size // 3):
            middle = game.play(middle, int(rng.choice(game.legal_moves(middle))))
        for where, state in (("empty", game.initial_state()), ("middle", middle)):
            searchers = {v: make_searcher("rave", game, RAVE_CONFIG, heavy_knowledge(game, vulnerable=v), 1,
                                          capacity=1 << 20) for v in (False, True)}
            rates = {False: [], True: []}
            for _ in range(rounds):
                for v, searcher in searchers.items():
                    searcher.reset()
                    t0 = time.process_time()
                    result = searcher.search(state, Limits(simulations=simulations))
                    rates[v].append(result.stats["simulations"] / max(time.process_time() - t0, 1e-9))
            row = {"part": "rave-speed", "size": size, "position": where, "simulations": simulations,
                   "off": statistics.median(rates[False]), "on": statistics.median(rates[True])}
            records.write(json.dumps(row) + "\n")
            records.flush()
            print(json.dumps(row), flush=True)
            rows.append(row)
    return rows


def rave_speed_table(rows, rounds, command):
    lines = [f"## RAVE simulations a CPU second, vulnerable cells off / on in the tree's children "
             f"(median of {rounds}, interleaved)", "", f"Command: `{command}`", "",
             "| size | position | simulations a search | off | on | on / off |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['size']}x{r['size']} | {r['position']} | {r['simulations']} | {r['off']:.0f} | "
                     f"{r['on']:.0f} | {r['on'] / r['off']:.2f} |")
    return "\n".join(lines) + "\n\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=0, help="first moves of this size (0: none)")
    ap.add_argument("--moves", nargs="*", help="first moves to solve, as a1 b2 (default: every cell)")
    ap.add_argument("--cap", type=float, default=20.0, help="seconds a first move, at most (each solver)")
    ap.add_argument("--endgames", type=int, nargs="*", default=[], help="board sizes of the endgame part")
    ap.add_argument("--empties", type=int, nargs="*", default=[10, 20, 30, 40])
    ap.add_argument("--positions", type=int, default=10, help="endgame positions per size and empties")
    ap.add_argument("--endgame-cap", type=float, default=1.0)
    ap.add_argument("--source", choices=("selfplay", "random"), default="selfplay",
                    help="endgame positions from the player's self-play (500 simulations a move) or random play")
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--games", type=int, default=0, help="strength games (0: none)")
    ap.add_argument("--time", type=float, default=0.5, help="seconds a move in the strength games")
    ap.add_argument("--match-size", type=int, default=9)
    ap.add_argument("--first-game", type=int, default=1, help="number of the first game (runs in parts)")
    ap.add_argument("--solver-empties", type=int, help="ours' solver_empties (default: HexSettings')")
    ap.add_argument("--solver-share", type=float, help="ours' solver_share (default: HexSettings')")
    ap.add_argument("--compare", metavar="JSON",
                    help="first moves: also solve each with these HexDfpn settings first ('before'), interleaved")
    ap.add_argument("--solver", metavar="JSON", default="{}", help="the HexDfpn settings ('after'; default: its defaults)")
    ap.add_argument("--rave-speed", type=int, nargs="*", default=[],
                    help="board sizes: the RAVE search's simulations a CPU second, vulnerable cells off / on")
    ap.add_argument("--rave-simulations", type=int, default=20000, help="simulations a RAVE search (--rave-speed)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of --rave-speed")
    ap.add_argument("--out", default=str(RESULTS / "hex_dfpn"))
    args = ap.parse_args(argv)
    command = "nice -n 15 python -m bench.hex_dfpn " + " ".join(sys.argv[1:] if argv is None else argv)
    if os.environ.get("PLIES_MOHEX"):
        command = "PLIES_MOHEX=... " + command
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.with_suffix(".jsonl").open("a") as records:
        text = ""
        if args.size:
            n = args.size
            moves = ([LETTERS.index(m[0]) + n * (int(m[1:]) - 1) for m in args.moves] if args.moves
                     else list(range(n * n)))
            if args.compare is not None:
                before, after = json.loads(args.compare), json.loads(args.solver)
                rows = first_moves_compare(n, args.cap, moves, records, before, after)
                text += first_moves_compare_table(n, args.cap, rows, command, before, after)
            else:
                rows = first_moves(n, args.cap, moves, records)
                text += first_moves_table(n, args.cap, rows, command)
        if args.endgames:
            rows = endgames(args.endgames, args.empties, args.positions, args.endgame_cap, args.seed, records,
                            args.source)
            text += endgames_table(rows, args.endgame_cap, command, args.source)
        if args.rave_speed:
            rows = rave_speed(args.rave_speed, args.rave_simulations, args.rounds, records)
            text += rave_speed_table(rows, args.rounds, command)
        if args.games:
            solver = {k: v for k, v in (("solver_empties", args.solver_empties), ("solver_share", args.solver_share))
                      if v is not None}
            row = match(args.match_size, args.games, args.time, args.first_game, records, solver)
            text += (f"## Strength: the root solver against none, at equal time ({solver or 'defaults'})\n\n"
                     f"Command: `{command}`\n\n"
                     f"{MATCH_HEAD}\n{row}\n")
    with out.with_suffix(".md").open("a") as f:
        if f.tell() == 0:
            f.write("# DFPN with H-search (bench/hex_dfpn.py)\n\nMachine shared (2 cores, other sessions' load): "
                    "nodes are the stable figure; CPU seconds are the process's own.\n\n")
        f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
