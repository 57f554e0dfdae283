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


def heldout_figures(sidecar: dict, path, size: int) -> dict:
    """Top-1 / top-3 of the network and of the move patterns on the held-out positions, all of them and
    those not in the training positions (nor their 180-degree rotation: self-play openings repeat)."""
    import numpy as np

    from engines.knowledge.hex.move_patterns import table_for_size
    from engines.knowledge.hex.policy_network import HexPolicyNetwork
    from engines.learn.hex.policy import examples
    from engines.learn.policy_cnn import topk_hits
    paths = sorted(p for folder in sidecar["data"]["folders"] for p in Path(folder).glob("*.sgf"))
    paths = paths[:sidecar["data"]["records"]]   # the records the network was trained on (new ones come after)
    data = examples(paths, size, table_for_size("shipped", size))
    held = data.seed % HOLDOUT_EVERY == 0
    seen = {x.tobytes() for x in data.planes[~held]} | {x[:, ::-1, ::-1].copy().tobytes() for x in data.planes[~held]}
    test = data.subset(held)
    unseen = np.array([x.tobytes() not in seen for x in test.planes], dtype=bool)
    logits = HexPolicyNetwork(path, size).frame_logits(test.planes.astype(np.float32))
    out = {"positions": int(len(test)), "unseen_positions": int(unseen.sum())}
    for name, scores in (("network", logits), ("move_patterns", test.pattern_scores)):
        for k in (1, 3):
            hits = topk_hits(scores, test.legal, test.target, k)
            out[f"{name}_top{k}"] = float(hits.mean())
            out[f"{name}_top{k}_unseen"] = float(hits[unseen].mean())
    return out


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
    figures = heldout_figures(sidecar, path, options.size)
    rates = speed(options.size, options.seconds, prefixes)
    data = sidecar["data"]
    result = {"network": path.name, "heldout": figures, "data": data, "speed": rates,
              "seconds": options.seconds, "load": list(os.getloadavg())}
    (RESULTS / "hex_policy.json").write_text(json.dumps(result, indent=1) + "\n")
    shape = sidecar["shape"]
    lines = [f"# Hex policy CNN (bench/hex_policy.py, {options.size}x{options.size})", "",
             f"Network weights/hex/{path.name}: {shape['channels']} channels, {shape['blocks']} residual blocks, "
             f"{shape['parameters']} parameters; {data['games']['train']} training games "
             f"({data['train_positions']} positions), {data['games']['heldout']} held-out games "
             f"({data['heldout_positions']} positions, {data['heldout']}); CPU hours: generation "
             f"{sidecar['cpu_hours']['generation']}, training {sidecar['cpu_hours']['training']}.", "",
             f"Held-out positions: {figures['positions']}, of which {figures['unseen_positions']} are in no training "
             "game (nor its 180-degree rotation; MoHex's self-play repeats its openings):", "",
             "| model (same held-out positions) | top-1 | top-3 | top-1 unseen | top-3 unseen |", "|---|---|---|---|---|"]
    for name, label in (("network", "policy CNN"), ("move_patterns", f"move patterns (weights/hex/patterns{options.size}.txt)")):
        lines.append(f"| {label} | {figures[name + '_top1']:.3f} | {figures[name + '_top3']:.3f} | "
                     f"{figures[name + '_top1_unseen']:.3f} | {figures[name + '_top3_unseen']:.3f} |")
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
