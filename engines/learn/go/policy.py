"""A Go policy network trained on game records (GNU Go self-play, engines/learn/go/games.py), exported to
ONNX for onnxruntime: ``python -m engines.learn.go.policy``.

Positions.  Every move of a record made by the player (the random opening moves are replayed but not
targets) gives one example: the position before the move as input planes, the played action (row*n +
col with row 0 at the bottom, n*n the pass: engines/games/go.py's actions) as the target, and the legal
actions (a mask of n*n+1) for scoring.  Planes are ``PLANE_NAMES`` of engines/knowledge/go/policy_network.py
(the order the network reads), each n x n in action order, from the point of view of the player to move:
own / opponent stones, empty points, liberties 1 / 2 / 3+ of each side's chains (on the chain's stones),
the simple-ko point, the last and second-last moves (not for passes), ones on the board (the zero
padding of the convolutions then shows the edge) and ones when White is to move (komi makes colour
matter).  ``position_planes`` builds them in plain Python (flood fill of the chains from the cells and
the moves of the record), independently of the engine's compiled builder, which a test compares with it.

Data set.  ``Examples``: ``planes`` (N, P, n, n) uint8, ``target`` (N,) int64, ``legal`` (N, n*n+1) bool,
``seed`` (N,) the game's seed.  Games are split by seed: seed % HOLDOUT_EVERY == 0 is held out (the
split of the move weights' fit too, weights/go/mm9.json: every 10th of its 360 records, seeds 1..360).

Model and training: engines/learn/policy_cnn.py's residual CNN (with the pass logit), trained on the
training games under one of the 8 board symmetries a batch; a checkpoint after each epoch, from which
a run resumes.

Export.  policy_cnn's ``to_onnx`` writes the graph by hand with onnx.helper from the weights:
input "planes" float32 [batch, P, n, n] -> Conv/Relu/Add ... -> "logits" [batch, n*n+1]; the JSON
sidecar says the size, the planes, the data, the recipe, the CPU hours and the held-out accuracy.
"""
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engines.knowledge.go.policy_network import NUM_PLANES, PLANE_NAMES
from engines.learn.go.games import replay
from engines.learn.go.mm import generation_info, read_record
from engines.learn.policy_cnn import (arrays_of_onnx, cpu_seconds, evaluate_model, fit, make_model, model_arrays,  # noqa: F401
                                      to_onnx, topk_hits, training_parser, write_network)

HOLDOUT_EVERY = 10
_SEED = re.compile(r"-s(\d+)\.sgf$")


# ---- planes (plain Python, the reference) ----------------------------------------------------------
def _neighbours(n):
    out = []
    for a in range(n * n):
        r, c = divmod(a, n)
        out.append([b for b, ok in ((a - n, r > 0), (a + n, r < n - 1), (a - 1, c > 0), (a + 1, c < n - 1)) if ok])
    return out


def chain_liberties(cells, n) -> np.ndarray:
    """Per point: the number of distinct liberties of its chain (0 on empty points).  cells: n*n values
    0 empty, 1 Black, 2 White, in action order."""
    nbrs = _neighbours(n)
    libs = np.zeros(n * n, dtype=np.int64)
    seen = np.zeros(n * n, dtype=bool)
    for a in range(n * n):
        if cells[a] == 0 or seen[a]:
            continue
        colour, stack, chain, liberties = cells[a], [a], [a], set()
        seen[a] = True
        while stack:
            p = stack.pop()
            for q in nbrs[p]:
                if cells[q] == 0:
                    liberties.add(q)
                elif cells[q] == colour and not seen[q]:
                    seen[q] = True
                    stack.append(q)
                    chain.append(q)
        libs[chain] = len(liberties)
    return libs


def position_planes(cells, to_move: int, ko, last, last2, n: int) -> np.ndarray:
    """The (NUM_PLANES, n, n) float32 planes of a position (see the module docstring).  cells: n*n in
    action order (0/1/2); to_move 0 Black / 1 White; ko, last, last2: actions or None (a pass: None)."""
    cells = np.asarray(cells).reshape(-1)
    own, opp = to_move + 1, 2 - to_move
    libs = chain_liberties(cells, n)
    out = np.zeros((NUM_PLANES, n * n), dtype=np.float32)
    out[0] = cells == own
    out[1] = cells == opp
    out[2] = cells == 0
    for k, colour in ((3, own), (6, opp)):
        mine = cells == colour
        out[k] = mine & (libs == 1)
        out[k + 1] = mine & (libs == 2)
        out[k + 2] = mine & (libs >= 3)
    for k, a in ((9, ko), (10, last), (11, last2)):
        if a is not None:
            out[k, a] = 1.0
    out[12] = 1.0
    out[13] = float(to_move)
    return out.reshape(NUM_PLANES, n, n)


def record_seed(path) -> int | None:
    m = _SEED.search(Path(path).name)
    return int(m.group(1)) if m else None


def is_heldout(seed) -> bool:
    return seed is not None and seed % HOLDOUT_EVERY == 0


def record_positions(record, skip_random: bool = True):
    """(game, state, planes, played action, legal mask, move number) for each move of an sgfmill record
    made by the player (games.replay).  Last moves come from the record, not from the engine's state."""
    for game, state, played, a, move in replay(record, skip_random):
        n = game.size
        last = played[-1] if played and played[-1] != game.pass_action else None
        last2 = played[-2] if len(played) > 1 and played[-2] != game.pass_action else None
        cells = game.cells(state)[::-1].reshape(-1)
        planes = position_planes(cells, game.to_move(state), game.ko(state), last, last2, n)
        legal = np.zeros(n * n + 1, dtype=bool)
        legal[game.legal_moves(state)] = True
        yield game, state, planes, a, legal, move


@dataclass
class Examples:
    planes: np.ndarray
    target: np.ndarray
    legal: np.ndarray
    seed: np.ndarray

    def __len__(self):
        return len(self.target)

    def subset(self, mask):
        return Examples(self.planes[mask], self.target[mask], self.legal[mask], self.seed[mask])


def examples(paths, size: int = 9) -> Examples:
    """The examples of these SGF records (records of another size are skipped)."""
    planes, target, legal, seeds = [], [], [], []
    for path in paths:
        record = read_record(path)
        if record.get_size() != size:
            continue
        seed = record_seed(path)
        for _game, _state, x, a, mask, _move in record_positions(record):
            if not mask[a]:
                continue
            planes.append(x.astype(np.uint8))
            target.append(a)
            legal.append(mask)
            seeds.append(-1 if seed is None else seed)
    nn = size * size
    if not planes:
        return Examples(np.zeros((0, NUM_PLANES, size, size), np.uint8), np.zeros(0, np.int64),
                        np.zeros((0, nn + 1), bool), np.zeros(0, np.int64))
    return Examples(np.stack(planes), np.array(target, np.int64), np.stack(legal), np.array(seeds, np.int64))


# ---- symmetries --------------------------------------------------------------------------------------
def symmetry_source(n: int, k: int) -> np.ndarray:
    """src (n*n,) of symmetry k (0..7): transformed.flat[q] = original.flat[src[q]]."""
    idx = np.arange(n * n).reshape(n, n)
    t = np.rot90(idx, k % 4)
    if k >= 4:
        t = t[:, ::-1]
    return np.ascontiguousarray(t).reshape(-1)


def symmetry_tables(n: int):
    """(src, dst) (8, n*n+1): planes move by src; a target action a becomes dst[a] (the pass stays)."""
    src = np.zeros((8, n * n + 1), np.int64)
    dst = np.zeros((8, n * n + 1), np.int64)
    for k in range(8):
        s = symmetry_source(n, k)
        src[k, :-1] = s
        dst[k, s] = np.arange(n * n)
        src[k, -1] = dst[k, -1] = n * n
    return src, dst


# ---- model and training (torch) ------------------------------------------------------------------
def save_onnx(path, arrays: dict, size: int, sidecar: dict) -> Path:
    """Writes path (ONNX, checked) and its JSON sidecar (path with .json)."""
    return write_network(path, arrays, size, "go_policy",
                         {"kind": "go policy", "size": size, "planes": list(PLANE_NAMES),
                          "outputs": "logits [batch, n*n+1]: one a point in action order (row 0 at the bottom), "
                                     "then the pass; no softmax"}, sidecar)


def train(records, out, work, epochs: int = 8, channels: int = 32, blocks: int = 6, batch: int = 256,
          lr: float = 2e-3, seed: int = 1, threads: int = 1, size: int = 9, init=None, stream=sys.stdout) -> dict:
    """Trains on the records (folders or files), resuming from work/checkpoint.pt, else starting from the
    weights of the network ``init`` (an ONNX file of to_onnx, of any board size: fine-tuning) when given;
    writes out (ONNX) and its sidecar.  Returns the sidecar."""
    import torch
    torch.set_num_threads(threads)
    paths = []
    for r in records:
        r = Path(r)
        paths += sorted(r.glob("*.sgf")) if r.is_dir() else [r]
    cpu0 = cpu_seconds()
    data = examples(paths, size)
    held = np.array([is_heldout(s) for s in data.seed], dtype=bool)
    train_set, test_set = data.subset(~held), data.subset(held)
    cpu_data = cpu_seconds() - cpu0
    games = {"train": len({s for s in train_set.seed}), "heldout": len({s for s in test_set.seed})}
    print(f"{len(paths)} records: {len(train_set)} training positions ({games['train']} games), "
          f"{len(test_set)} held out ({games['heldout']} games); {cpu_seconds() - cpu0:.0f} CPU s", file=stream)
    torch.manual_seed(seed)
    model = make_model(NUM_PLANES, channels, blocks)
    if init is not None and not (Path(work) / "checkpoint.pt").exists():  # (a checkpoint resumes instead)
        arrays = arrays_of_onnx(init)
        model.load_state_dict({k: torch.from_numpy(arrays[k]) for k in model.state_dict()})
        print(f"starting from the weights of {init}", file=stream)
    src, dst = symmetry_tables(size)
    history, cpu_fit = fit(model, train_set, test_set, src[:, :-1], dst, work,
                           {"planes": NUM_PLANES, "channels": channels, "blocks": blocks},
                           epochs=epochs, batch=batch, lr=lr, seed=seed, stream=stream)
    final = history[-1] if history else {}
    cpu_train = cpu_fit + cpu_data
    gen_cpu = generation_info(paths)["cpu_seconds"]
    sidecar = {
        "shape": {"planes": NUM_PLANES, "channels": channels, "blocks": blocks, "parameters":
                  int(sum(p.numel() for p in model.parameters()))},
        "data": {"records": len(paths), "folders": [str(r) for r in records],
                 "seeds": f"{int(data.seed.min())}..{int(data.seed.max())}" if len(data) else "",
                 "games": games, "train_positions": len(train_set),
                 "heldout_positions": len(test_set), "heldout": f"seed % {HOLDOUT_EVERY} == 0",
                 "generator": "GNU Go 3.8 level 10 self-play, --chinese-rules, komi 7, 0..4 random opening moves "
                              "(not targets): python -m standins.gnugo_games"},
        "recipe": {"init": None if init is None else Path(init).name, "epochs": epochs, "batch": batch, "optimizer": "Adam", "lr": lr, "lr_schedule": "cosine per epoch",
                   "weight_decay": 1e-5, "augmentation": "one of the 8 symmetries per batch", "seed": seed,
                   "loss": "cross-entropy over n*n+1"},
        "cpu_hours": {"generation": round(gen_cpu / 3600, 4), "training": round(cpu_train / 3600, 4)},
        "heldout": {k: final.get(k) for k in ("top1", "top3", "loss")},
        "history": history,
    }
    save_onnx(out, model_arrays(model), size, sidecar)
    print(f"wrote {out}", file=stream)
    return sidecar


def export(init, out, size: int) -> Path:
    """Writes the network ``init`` (ONNX, any size) as the network of a size x size board, untrained
    there; its sidecar is init's, marked as applied to the new size."""
    meta = json.loads(Path(init).with_suffix(".json").read_text()) if Path(init).with_suffix(".json").is_file() else {}
    sidecar = {k: v for k, v in meta.items() if k not in ("kind", "size", "planes", "outputs", "date")}
    sidecar["applied"] = f"the {meta.get('size')}x{meta.get('size')} network {Path(init).name}, weights unchanged"
    return save_onnx(out, arrays_of_onnx(init), size, sidecar)


def main(argv=None) -> int:
    parser = training_parser("python -m engines.learn.go.policy", __doc__.split("\n")[0], "weights/go/policy9.onnx",
                             "runs/go-policy", epochs=8, blocks=6, batch=256)
    parser.add_argument("--init", help="start from this network's weights (ONNX; any board size): fine-tuning")
    parser.add_argument("--export-only", action="store_true",
                        help="no training: write --init's weights as the network of --size (with a sidecar)")
    args = parser.parse_args(argv)
    if args.export_only:
        if args.init is None:
            parser.error("--export-only needs --init")
        export(args.init, args.out, args.size)
        return 0
    if not args.games:
        parser.error("--games is needed to train")
    train(args.games, args.out, args.work, epochs=args.epochs, channels=args.channels, blocks=args.blocks,
          batch=args.batch, lr=args.lr, seed=args.seed, threads=args.threads, size=args.size, init=args.init)
    return 0


if __name__ == "__main__":
    sys.exit(main())
