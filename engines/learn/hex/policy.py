"""A Hex policy CNN trained on records of strong play (MoHex self-play: standins/mohex_games.py,
engines/learn/hex/records.py), exported to ONNX for onnxruntime: ``python -m engines.learn.hex.policy``.

Positions.  Every move of a record after its random opening (the GC word ``random=K``: the first K
moves are replayed, not targets) gives one example: the position before the move as the planes of
engines/knowledge/hex/policy_network.py (``PLANE_NAMES``: own / opponent stones, empty cells, the
mover's edge rows, the opponent's edge columns, all in the mover's frame, where the player to move joins
the top and bottom rows: player 1's board is transposed), built by the engine's own compiled kernel;
the played cell in that frame as the target; the empty cells as the legal mask.

Data set.  ``Examples``: ``planes`` (N, P, n, n) uint8, ``target`` (N,) int64 (a frame cell),
``legal`` (N, n*n) bool, ``seed`` (N,) the record's seed.  Games are split by seed: seed %
HOLDOUT_EVERY == 0 is held out.  Augmentation: the frame's 180-degree rotation (cell q to n*n-1-q),
which keeps the mover's edges and Hex's neighbours; one of the two a batch.

Model, training and export: engines/learn/policy_cnn.py (the residual CNN Go's policy uses, without
the pass head).  The sidecar (the ONNX file's name with .json) says the size, the planes, the data,
the recipe, the CPU hours, and the held-out top-1 / top-3 of the network beside those of the move
patterns (weights/hex/patterns<n>.txt) on the same held-out positions.
"""
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engines.knowledge.hex.policy_network import KIND, NUM_PLANES, PLANE_NAMES, planes_of
from engines.learn.hex.records import read_record
from engines.learn.policy_cnn import (cpu_seconds, fit, make_model, model_arrays, topk_hits, training_parser,
                                      write_network)

HOLDOUT_EVERY = 10
_SEED = re.compile(r"-s(\d+)\.sgf$")


@dataclass
class Examples:
    planes: np.ndarray
    target: np.ndarray
    legal: np.ndarray
    seed: np.ndarray
    pattern_scores: np.ndarray   # (N, n*n) the move patterns' log strength by frame cell (-inf: occupied)

    def __len__(self):
        return len(self.target)

    def subset(self, mask):
        return Examples(self.planes[mask], self.target[mask], self.legal[mask], self.seed[mask],
                        self.pattern_scores[mask])


def frame_cell(action: int, mover: int, n: int) -> int:
    """The cell of action (r*n + c) in the mover's frame (policy_network's module docstring)."""
    r, c = divmod(action, n)
    return c * n + r if mover == 1 else action


def record_seed(path) -> int:
    m = _SEED.search(str(path))
    return int(m.group(1)) if m else -1


def examples(paths, size: int = 9, patterns=None) -> Examples:
    """The examples of these records (records of another size are skipped); with ``patterns`` (a
    move_patterns.PatternTable), each position's pattern strengths too (for the comparison)."""
    from engines.games.hex import HEADER, Hex
    from engines.knowledge.hex.move_patterns import log_strength
    game = Hex(size)
    nn = size * size
    packed = patterns.pack() if patterns is not None else None
    planes, target, legal, seeds, scores = [], [], [], [], []
    for path in paths:
        n, moves, info, _ = read_record(path)
        if n != size:
            continue
        nrandom = int(info.get("random", 0))
        state = game.initial_state()
        for i, a in enumerate(moves):
            if i >= nrandom:
                x, mover = planes_of(state)
                planes.append(x.astype(np.uint8))
                target.append(frame_cell(a, mover, size))
                legal.append(x[2].reshape(-1) > 0)
                seeds.append(record_seed(path))
                row = np.full(nn, -np.inf)
                if packed is not None:
                    cells = state[HEADER:HEADER + nn].copy()
                    for b in np.flatnonzero(cells == 0):
                        row[frame_cell(int(b), mover, size)] = log_strength(packed, cells, size, int(b), mover)
                scores.append(row)
            state = game.play(state, a)
    if not planes:
        return Examples(np.zeros((0, NUM_PLANES, size, size), np.uint8), np.zeros(0, np.int64),
                        np.zeros((0, nn), bool), np.zeros(0, np.int64), np.zeros((0, nn)))
    return Examples(np.stack(planes), np.array(target, np.int64), np.stack(legal), np.array(seeds, np.int64),
                    np.stack(scores))


def symmetry_tables(n: int):
    """(src, dst) (2, n*n): the identity and the frame's 180-degree rotation (its own inverse)."""
    ident = np.arange(n * n)
    table = np.stack([ident, ident[::-1]])
    return table, table


def save_onnx(path, arrays: dict, size: int, sidecar: dict) -> Path:
    """Writes path (ONNX, checked) and its JSON sidecar (path with .json)."""
    return write_network(path, arrays, size, "hex_policy",
                         {"kind": KIND, "size": size, "planes": list(PLANE_NAMES),
                          "frame": "the player to move joins the top and bottom rows: player 1's board transposed",
                          "outputs": "logits [batch, n*n]: one a cell of the mover's frame, row-major; no softmax"},
                         sidecar)


def train(records, out, work, epochs: int = 12, channels: int = 32, blocks: int = 4, batch: int = 128,
          lr: float = 2e-3, seed: int = 1, threads: int = 1, size: int = 9, stream=sys.stdout) -> dict:
    """Trains on the records (folders or files), resuming from work/checkpoint.pt; writes out (ONNX)
    and its sidecar.  Returns the sidecar."""
    import torch
    from engines.knowledge.hex.move_patterns import table_for_size
    torch.set_num_threads(threads)
    paths = []
    for r in records:
        r = Path(r)
        paths += sorted(r.glob("*.sgf")) if r.is_dir() else [r]
    cpu0 = cpu_seconds()
    patterns = table_for_size("shipped", size)
    data = examples(paths, size, patterns)
    held = (data.seed % HOLDOUT_EVERY) == 0
    train_set, test_set = data.subset(~held), data.subset(held)
    games = {"train": len(set(train_set.seed.tolist())), "heldout": len(set(test_set.seed.tolist()))}
    cpu_data = cpu_seconds() - cpu0
    print(f"{len(paths)} records: {len(train_set)} training positions ({games['train']} games), "
          f"{len(test_set)} held out ({games['heldout']} games); {cpu_data:.0f} CPU s", file=stream)
    torch.manual_seed(seed)
    model = make_model(NUM_PLANES, channels, blocks, pass_move=False)
    src, dst = symmetry_tables(size)
    shape = {"planes": NUM_PLANES, "channels": channels, "blocks": blocks}
    history, cpu_fit = fit(model, train_set, test_set, src, dst, work, shape, epochs=epochs, batch=batch, lr=lr,
                           seed=seed, stream=stream)
    final = history[-1] if history else {}
    pattern_figures = None
    if patterns is not None and len(test_set):
        pattern_figures = {f"top{k}": float(topk_hits(test_set.pattern_scores, test_set.legal, test_set.target,
                                                      k).mean()) for k in (1, 3)}
    gen_cpu = sum(float(_gc(p).get("cpu", 0.0)) for p in paths)
    sidecar = {
        "shape": {**shape, "parameters": int(sum(p.numel() for p in model.parameters()))},
        "data": {"records": len(paths), "folders": [str(r) for r in records], "games": games,
                 "train_positions": len(train_set), "heldout_positions": len(test_set),
                 "heldout": f"seed % {HOLDOUT_EVERY} == 0",
                 "generator": "MoHex 2.0 self-play, 500 simulations a move (param_mohex max_games 500), no swap, "
                              "1..2 uniformly random opening moves (not targets): python -m standins.mohex_games"},
        "recipe": {"epochs": epochs, "batch": batch, "optimizer": "Adam", "lr": lr, "lr_schedule": "cosine per epoch",
                   "weight_decay": 1e-5, "augmentation": "the identity or the 180-degree rotation per batch",
                   "seed": seed, "loss": "cross-entropy over the n*n cells"},
        "cpu_hours": {"generation": round(gen_cpu / 3600, 4), "training": round((cpu_fit + cpu_data) / 3600, 4)},
        "heldout": {k: final.get(k) for k in ("top1", "top3", "loss")},
        "heldout_move_patterns": pattern_figures,
        "history": history,
    }
    save_onnx(out, model_arrays(model), size, sidecar)
    print(f"wrote {out}; held out: network {sidecar['heldout']}, move patterns {pattern_figures}", file=stream)
    return sidecar


def _gc(path) -> dict:
    return read_record(path)[2]


def main(argv=None) -> int:
    parser = training_parser("python -m engines.learn.hex.policy", __doc__.split("\n")[0], "weights/hex/policy9.onnx",
                             "runs/hex-policy", epochs=12, blocks=4, batch=128)
    args = parser.parse_args(argv)
    if not args.games:
        parser.error("--games is needed to train")
    train(args.games, args.out, args.work, epochs=args.epochs, channels=args.channels, blocks=args.blocks,
          batch=args.batch, lr=args.lr, seed=args.seed, threads=args.threads, size=args.size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
