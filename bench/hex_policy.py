"""Figures of the Hex policy CNN (issue 33 item 7): held-out top-1 / top-3 of the network beside the move
patterns' on the same held-out positions (from its sidecar, written by engines/learn/hex/policy.py), and
the RAVE search's simulations a second without and with the network's prior at every node (the
setting policy_network), side by side on the same positions (positions of the held-out records, every
6th move; each searched --seconds by each player in turn, a fresh tree each; both with today's default
otherwise: the move patterns' prior, root_connections off so that the search alone is timed).

    nice -n 15 .venv/bin/python -m bench.hex_policy --size 9 --seconds 0.5 --positions 20

Strength at equal time is a match of bench/hex_gtp_match.py (bench/results/hex_policy_match.md):

    nice -n 15 .venv/bin/python -m bench.hex_gtp_match --games 20 --size 9 --seed S \\
        --a "--time 0.5 --policy-network shipped" --b "--time 0.5" --out bench/results/hex_policy_match.md

Writes bench/results/hex_policy.{md,json}.
"""
import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from engines.knowledge.hex.policy_network import shipped_path
from engines.learn.hex.policy import HOLDOUT_EVERY, record_seed
from engines.learn.hex.records import read_record
from engines.players.hex import HexPlayer, HexSettings
from engines.search import Limits

RESULTS = Path(__file__).resolve().parent / "results"


def held_out_positions(sidecar: dict, size: int, count: int, every: int = 6):
    """Move prefixes of the network's held-out records (seed % HOLDOUT_EVERY == 0), every ``every``-th move."""
    out = []
    for folder in sidecar["data"]["folders"]:
        for path in sorted(Path(folder).glob("*.sgf")):
            if record_seed(path) % HOLDOUT_EVERY:
                continue
            n, moves, _, _ = read_record(path)
            if n == size:
                out += [moves[:k] for k in range(2, len(moves) - 4, every)]
    return out[:count]


def speed(size: int, seconds: float, prefixes) -> dict:
    settings = {"without": HexSettings(time=seconds, root_connections=False),
                "with": HexSettings(time=seconds, root_connections=False, policy_network="shipped")}
    players = {name: HexPlayer(s, size) for name, s in settings.items()}
    rates = {name: [] for name in players}
    hook = players["with"].tree_policy
    for moves in prefixes:
        for name, player in players.items():
            state = player.game.initial_state()
            for a in moves:
                state = player.game.play(state, a)
            player.searcher.reset()
            started = time.perf_counter()
            result = player._search(state, Limits(time=seconds))
            rates[name].append(result.stats["simulations"] / (time.perf_counter() - started))
    out = {name: {"median": statistics.median(r), "positions": len(r)} for name, r in rates.items()}
    out["ratio_with_over_without"] = out["with"]["median"] / out["without"]["median"]
    out["network"] = {"positions": hook.positions, "calls": hook.calls, "seconds": hook.seconds,
                      "share_of_search_time": hook.seconds / (seconds * len(prefixes))}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--positions", type=int, default=20)
    options = parser.parse_args(argv)
    path = shipped_path(options.size)
    if not path.is_file():
        print(f"no shipped policy network for {options.size}x{options.size} ({path})", file=sys.stderr)
        return 2
    sidecar = json.loads(path.with_suffix(".json").read_text())
    prefixes = held_out_positions(sidecar, options.size, options.positions)
    rates = speed(options.size, options.seconds, prefixes)
    net, pat, data = sidecar["heldout"], sidecar.get("heldout_move_patterns") or {}, sidecar["data"]
    result = {"network": path.name, "heldout": net, "heldout_move_patterns": pat, "data": data, "speed": rates,
              "seconds": options.seconds, "load": list(os.getloadavg())}
    (RESULTS / "hex_policy.json").write_text(json.dumps(result, indent=1) + "\n")
    shape = sidecar["shape"]
    lines = [f"# Hex policy CNN (bench/hex_policy.py, {options.size}x{options.size})", "",
             f"Network weights/hex/{path.name}: {shape['channels']} channels, {shape['blocks']} residual blocks, "
             f"{shape['parameters']} parameters; {data['games']['train']} training games "
             f"({data['train_positions']} positions), {data['games']['heldout']} held-out games "
             f"({data['heldout_positions']} positions, {data['heldout']}); CPU hours: generation "
             f"{sidecar['cpu_hours']['generation']}, training {sidecar['cpu_hours']['training']}.", "",
             "| model (same held-out positions) | top-1 | top-3 |", "|---|---|---|",
             f"| policy CNN | {net['top1']:.3f} | {net['top3']:.3f} |"]
    if pat:
        lines.append(f"| move patterns (weights/hex/patterns{options.size}.txt) | {pat['top1']:.3f} | {pat['top3']:.3f} |")
    hook = rates["network"]
    lines += ["", f"RAVE simulations a second, {options.seconds:g} s a search, root_connections off, the same "
              f"{rates['with']['positions']} held-out positions for both (median): without {rates['without']['median']:.0f}, "
              f"with the network's prior at every node {rates['with']['median']:.0f} (ratio "
              f"{rates['ratio_with_over_without']:.2f}); the network: {hook['positions']} positions in {hook['calls']} "
              f"batches, {100 * hook['share_of_search_time']:.0f} % of the search time; 1-minute load at the end "
              f"{result['load'][0]:.1f} on 2 cores.", "",
              "Strength at equal time: bench/results/hex_policy_match.md (bench/hex_gtp_match.py)."]
    (RESULTS / "hex_policy.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
