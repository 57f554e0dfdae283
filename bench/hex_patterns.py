"""Figures of the learned Hex move patterns (issue 33 item 6): held-out top-1 and log-likelihood of the
fitted table against a uniform and a distance-only model (from its sidecar, written by
engines/learn/hex/patterns_mm.py), and the RAVE search's simulations a second with and without the
patterns' prior, side by side on the same positions (positions of the held-out records, every 6th
move; each searched --seconds by each setting in turn).

    nice -n 15 .venv/bin/python -m bench.hex_patterns --size 9 --seconds 0.5 --positions 20

Strength at equal time is a match of bench/hex_gtp_match.py (its table: bench/results/hex_patterns_match.md):

    nice -n 15 .venv/bin/python -m bench.hex_gtp_match --games 40 --size 9 \\
        --a "--time 0.5 --move-patterns shipped" --b "--time 0.5" --out bench/results/hex_patterns_match.md

Writes bench/results/hex_patterns.{md,json}.

The pattern playouts (engines/knowledge/hex/pattern_playout.py; the setting playout_patterns), with
``--playouts``: playouts a CPU second of the bridge playout and the pattern playout alone, and the RAVE
search's simulations a CPU second with today's default (bridge playouts) and with the pattern playouts,
side by side on the same held-out positions; writes bench/results/hex_pattern_playout.{md,json}:

    nice -n 15 .venv/bin/python -m bench.hex_patterns --playouts --size 9 --seconds 0.5 --positions 20

Their strength at equal time against today's default (bench/results/hex_pattern_playout_match.md):

    nice -n 15 .venv/bin/python -m bench.hex_gtp_match --games 40 --size 9 --seed S \
        --a "--time 0.5 --playout-patterns shipped" --b "--time 0.5" \
        --out bench/results/hex_pattern_playout_match_t0.5_sS.md
"""
import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from engines.knowledge.hex.move_patterns import shipped_path
from engines.learn import mm
from engines.learn.hex.records import read_record
from engines.players.hex import HexPlayer, HexSettings
from engines.search import Limits

RESULTS = Path(__file__).resolve().parent / "results"


def held_out_positions(sidecar: dict, size: int, count: int, every: int = 6):
    """(moves) prefixes of the held-out records (the fit's own split), every ``every``-th move."""
    paths = mm.record_paths(sidecar["from"]["records"])
    _, held = mm.split_records(paths, sidecar.get("holdout_every", 10))
    out = []
    for path in held:
        n, moves, _, _ = read_record(path)
        if n == size:
            out += [moves[:k] for k in range(2, len(moves) - 4, every)]
    return out[:count]


def speed(size: int, seconds: float, prefixes) -> dict:
    players = {name: HexPlayer(HexSettings(time=seconds, move_patterns=choice, root_connections=False), size)
               for name, choice in (("without", "none"), ("with", "shipped"))}
    rates = {name: [] for name in players}
    for moves in prefixes:
        for name, player in players.items():
            state = player.game.initial_state()
            for a in moves:
                state = player.game.play(state, a)
            started = time.perf_counter()
            result = player._search(state, Limits(time=seconds))
            rates[name].append(result.stats["simulations"] / (time.perf_counter() - started))
    out = {name: {"median": statistics.median(r), "positions": len(r)} for name, r in rates.items()}
    out["ratio_with_over_without"] = out["with"]["median"] / out["without"]["median"]
    return out


def playout_speed(size: int, seconds: float, prefixes, playout_global: float = 1.0, playouts: int = 2000) -> dict:
    """Playouts and RAVE simulations a CPU second, bridge playouts against pattern playouts, each
    position measured by both in turn (process CPU time: the machine's other load does not count)."""
    import numpy as np

    from engines.knowledge.hex import pattern_playout as PP
    from engines.knowledge.hex import patterns as HP
    from engines.knowledge.hex.move_patterns import load_table
    from engines.rng import make_rng
    settings = {"bridge": HexSettings(time=seconds, root_connections=False),
                "patterns": HexSettings(time=seconds, root_connections=False, playout_patterns="shipped",
                                        playout_global=playout_global)}
    players = {name: HexPlayer(s, size) for name, s in settings.items()}
    params = {"bridge": np.zeros(0), "patterns": PP.pack_playout(load_table(shipped_path(size)), playout_global, size)}
    kernels = {"bridge": HP.traced_bridge_vc, "patterns": PP.traced_pattern_vc}
    trace = np.empty(HP.playout_scratch(size), dtype=np.int64)
    rates = {name: {"playouts": [], "simulations": []} for name in players}
    for moves in prefixes:
        for name, player in players.items():
            state = player.game.initial_state()
            for a in moves:
                state = player.game.play(state, a)
            rng = make_rng(1)
            started = time.process_time()
            for _ in range(playouts):
                kernels[name](state.copy(), rng, trace, params[name])
            rates[name]["playouts"].append(playouts / (time.process_time() - started))
            player.searcher.reset()
            started = time.process_time()
            result = player._search(state, Limits(time=seconds))
            rates[name]["simulations"].append(result.stats["simulations"] / (time.process_time() - started))
    out = {name: {kind: statistics.median(r) for kind, r in kinds.items()} for name, kinds in rates.items()}
    out["positions"] = len(prefixes)
    out["ratio_patterns_over_bridge"] = {kind: out["patterns"][kind] / out["bridge"][kind]
                                         for kind in ("playouts", "simulations")}
    return out


def playout_main(options, sidecar) -> int:
    prefixes = held_out_positions(sidecar, options.size, options.positions)
    rates = playout_speed(options.size, options.seconds, prefixes, options.playout_global)
    result = {"speed": rates, "seconds": options.seconds, "playout_global": options.playout_global,
              "load": list(__import__("os").getloadavg())}
    (RESULTS / "hex_pattern_playout.json").write_text(json.dumps(result, indent=1) + "\n")
    ratio = rates["ratio_patterns_over_bridge"]
    lines = [f"# Hex pattern playouts (bench/hex_patterns.py --playouts, {options.size}x{options.size})", "",
             (f"The same {rates['positions']} held-out positions for both, medians, per CPU second of this process "
              f"(playout_global {options.playout_global:g}; RAVE {options.seconds:g} s a search, root_connections "
              f"off, the shipped move patterns as the prior for both):"), "",
             "| playouts | playouts / CPU s (alone) | RAVE simulations / CPU s |", "|---|---|---|",
             f"| bridge (today's default) | {rates['bridge']['playouts']:.0f} | {rates['bridge']['simulations']:.0f} |",
             f"| move patterns | {rates['patterns']['playouts']:.0f} | {rates['patterns']['simulations']:.0f} |",
             f"| ratio | {ratio['playouts']:.2f} | {ratio['simulations']:.2f} |", "",
             f"1-minute load at the end {result['load'][0]:.1f} on 2 cores."]
    (RESULTS / "hex_pattern_playout.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--playouts", action="store_true", help="the pattern playouts' figures instead")
    parser.add_argument("--playout-global", type=float, default=1.0)
    options = parser.parse_args(argv)
    table = shipped_path(options.size)
    if table is None:
        print(f"no shipped patterns for {options.size}x{options.size}", file=sys.stderr)
        return 2
    sidecar = json.loads(table.with_suffix(".json").read_text())
    if options.playouts:
        return playout_main(options, sidecar)
    prefixes = held_out_positions(sidecar, options.size, options.positions)
    rates = speed(options.size, options.seconds, prefixes)
    held = sidecar["heldout"]
    result = {"table": table.name, "heldout": held, "from": sidecar["from"], "speed": rates,
              "seconds": options.seconds, "load": list(__import__("os").getloadavg())}
    (RESULTS / "hex_patterns.json").write_text(json.dumps(result, indent=1) + "\n")
    lines = [f"# Hex move patterns (bench/hex_patterns.py, {options.size}x{options.size})", "",
             f"Table weights/hex/{table.name}: {sidecar['from']['games']} training games "
             f"({sidecar['from']['positions']} positions), {sidecar['from']['heldout_games']} held-out games "
             f"({sidecar['from']['heldout_positions']} positions); {sidecar['from']['patterns12']} 12-cell and "
             f"{sidecar['from']['patterns6']} 6-cell patterns.", "",
             "| model | held-out top-1 | held-out log-likelihood / move |", "|---|---|---|"]
    for name in ("patterns", "distance_only", "uniform"):
        lines.append(f"| {name} | {held[name]['top1']:.3f} | {held[name]['loglik_per_move']:.3f} |")
    lines += ["", f"RAVE simulations a second, {options.seconds:g} s a search, root_connections off, the same "
              f"{rates['with']['positions']} held-out positions for both (median): without {rates['without']['median']:.0f}, "
              f"with the patterns' prior {rates['with']['median']:.0f} (ratio {rates['ratio_with_over_without']:.2f}); "
              f"1-minute load at the end {result['load'][0]:.1f} on 2 cores.", "",
              "Strength at equal time: bench/results/hex_patterns_match.md (bench/hex_gtp_match.py)."]
    (RESULTS / "hex_patterns.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
