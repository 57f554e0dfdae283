"""A small residual policy CNN for any board game, trained with torch and written to ONNX by hand: the
Go policy (engines/learn/go/policy.py) and the Hex policy (engines/learn/hex/policy.py) share it, each
with its own positions, planes and symmetries.

Model (torch, imported only inside the functions: the engine never needs it).  A 3x3 stem convolution
to C channels, B blocks (3x3 conv, ReLU, 3x3 conv, add the block's input, ReLU), then a 1x1 convolution
to one logit a cell and, with ``pass_move`` (Go), a linear map of the channels' board means for the
pass.  Logits [batch, n*n (+1)] (no softmax).  ``fit`` trains with Adam on cross-entropy, each batch
under one of the game's symmetries drawn at random, with a checkpoint (torch state dicts, read with
weights_only) after each epoch, from which a run resumes.

Export.  ``to_onnx`` writes the graph with onnx.helper from the weights (no exporter needed): input
"planes" float32 [batch, P, n, n] -> Conv/Relu/Add ... -> "logits" [batch, n*n (+1)].
"""
import json
import resource
import sys
from pathlib import Path

import numpy as np

OPSET = 17
IR_VERSION = 8


def make_model(planes: int, channels: int = 32, blocks: int = 6, pass_move: bool = True):
    """The residual CNN (module docstring); with pass_move, a pass logit after the board's."""
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
            self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
            with torch.no_grad():
                self.conv2.weight.mul_(0.25)  # blocks start close to the identity

        def forward(self, h):
            return torch.relu(h + self.conv2(torch.relu(self.conv1(h))))

    class PolicyNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.shape = {"planes": planes, "channels": channels, "blocks": blocks}
            self.stem = nn.Conv2d(planes, channels, 3, padding=1)
            self.blocks = nn.ModuleList([Block() for _ in range(blocks)])
            self.head = nn.Conv2d(channels, 1, 1)
            self.pass_head = nn.Linear(channels, 1) if pass_move else None

        def forward(self, x):
            h = torch.relu(self.stem(x))
            for block in self.blocks:
                h = block(h)
            board = self.head(h).flatten(1)
            if self.pass_head is None:
                return board
            return torch.cat([board, self.pass_head(h.mean(dim=(2, 3)))], dim=1)

    return PolicyNet()


def model_arrays(model) -> dict:
    """The weights as numpy arrays by name."""
    return {k: v.detach().cpu().numpy().astype(np.float32) for k, v in model.state_dict().items()}


def to_onnx(arrays: dict, size: int, name: str = "policy"):
    """The ONNX model of the residual CNN with these weights (see the module docstring); a pass logit
    when the weights have a pass head."""
    passes = "pass_head.weight" in arrays
    from onnx import TensorProto, helper, numpy_helper
    planes = arrays["stem.weight"].shape[1]
    nn_ = size * size
    inits = [numpy_helper.from_array(np.asarray(v, np.float32), k) for k, v in arrays.items() if k != "pass_head.weight"]
    inits.append(numpy_helper.from_array(np.array([-1, nn_], np.int64), "shape.board"))
    if passes:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(arrays["pass_head.weight"].T), "pass_head.weight.T"))
    conv = lambda x, name, y, pad: helper.make_node("Conv", [x, f"{name}.weight", f"{name}.bias"], [y],
                                                    pads=[pad] * 4)
    nodes = [conv("planes", "stem", "stem.out", 1), helper.make_node("Relu", ["stem.out"], ["h0"])]
    blocks = len({k.split(".")[1] for k in arrays if k.startswith("blocks.")})
    for i in range(blocks):
        b = f"blocks.{i}"
        nodes += [conv(f"h{i}", f"{b}.conv1", f"{b}.c1", 1), helper.make_node("Relu", [f"{b}.c1"], [f"{b}.r1"]),
                  conv(f"{b}.r1", f"{b}.conv2", f"{b}.c2", 1),
                  helper.make_node("Add", [f"h{i}", f"{b}.c2"], [f"{b}.sum"]),
                  helper.make_node("Relu", [f"{b}.sum"], [f"h{i + 1}"])]
    h = f"h{blocks}"
    nodes += [conv(h, "head", "head.out", 0),
              helper.make_node("Reshape", ["head.out", "shape.board"], ["board" if passes else "logits"])]
    if passes:
        nodes += [helper.make_node("ReduceMean", [h], ["means"], axes=[2, 3], keepdims=0),
                  helper.make_node("Gemm", ["means", "pass_head.weight.T", "pass_head.bias"], ["pass"]),
                  helper.make_node("Concat", ["board", "pass"], ["logits"], axis=1)]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("planes", TensorProto.FLOAT, ["batch", planes, size, size])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", nn_ + int(passes)])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="plies")
    model.ir_version = IR_VERSION
    return model


def training_parser(prog: str, description: str, out: str, work: str, epochs: int, blocks: int, batch: int):
    """The command line of a policy network's training (a game's defaults for the rest): --games, --out,
    --work (a run resumes from its checkpoint), the shape, the recipe, --threads, --size."""
    import argparse
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--games", nargs="+", help="folders (or files) of SGF records")
    parser.add_argument("--out", default=out)
    parser.add_argument("--work", default=work, help="checkpoint folder (a run resumes from it)")
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=blocks)
    parser.add_argument("--batch", type=int, default=batch)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--size", type=int, default=9)
    return parser


def write_network(path, arrays: dict, size: int, name: str, head: dict, sidecar: dict) -> Path:
    """Writes path (the ONNX of to_onnx, checked) and its JSON sidecar (path with .json): the game's
    description ``head`` (kind, size, planes, outputs), the date, then ``sidecar`` (data, recipe, figures)."""
    import datetime
    import onnx
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    model = to_onnx(arrays, size, name)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    meta = {**head, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), **sidecar}
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    return path


def arrays_of_onnx(path) -> dict:
    """The weights (numpy arrays by torch name) of a network that to_onnx wrote, for any board size: the
    network is convolutional (3x3 and 1x1 convolutions, the pass from the channels' board means), so only
    the graph's declared shapes name a size, never the weights."""
    import onnx
    from onnx import numpy_helper
    model = onnx.load(str(path))
    arrays = {t.name: numpy_helper.to_array(t).astype(np.float32) for t in model.graph.initializer}
    arrays.pop("shape.board", None)
    if "pass_head.weight.T" in arrays:
        arrays["pass_head.weight"] = np.ascontiguousarray(arrays.pop("pass_head.weight.T").T)
    return arrays


def topk_hits(logits: np.ndarray, legal: np.ndarray, target: np.ndarray, k: int) -> np.ndarray:
    """Per position: 1 when the played move is among the k best legal moves (ties share: (k - better) /
    equal, clipped to 0..1)."""
    x = np.where(legal, logits, -np.inf)
    mine = x[np.arange(len(target)), target][:, None]
    better = (x > mine).sum(axis=1)
    equal = (x == mine).sum(axis=1)
    return np.clip((k - better) / equal, 0.0, 1.0)


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def evaluate_model(model, data) -> dict:
    """Held-out top-1, top-3 (legal moves only) and cross-entropy of a torch model over data (planes
    (N, P, n, n), legal (N, width) bool, target (N,))."""
    import torch
    if len(data) == 0:
        return {"top1": None, "top3": None, "loss": None}
    model.eval()
    outs = []
    with torch.no_grad():
        for i in range(0, len(data), 1024):
            outs.append(model(torch.from_numpy(data.planes[i:i + 1024]).float()).numpy())
    logits = np.concatenate(outs)
    z = logits - logits.max(axis=1, keepdims=True)
    loss = float(np.mean(np.log(np.exp(z).sum(axis=1)) - z[np.arange(len(data)), data.target]))
    return {"top1": float(topk_hits(logits, data.legal, data.target, 1).mean()),
            "top3": float(topk_hits(logits, data.legal, data.target, 3).mean()), "loss": loss}


def fit(model, train_set, test_set, src, dst, work, shape: dict, epochs: int = 8, batch: int = 256,
        lr: float = 2e-3, seed: int = 1, stream=sys.stdout) -> tuple[list, float]:
    """Trains model on train_set (planes (N, P, n, n) uint8, target (N,)), resuming from
    work/checkpoint.pt (which must hold the same shape); after each epoch the held-out figures and a
    checkpoint.  src (S, n*n): symmetry k moves plane cell q from src[k, q]; dst (S, width): the target a
    becomes dst[k, a]; one symmetry drawn a batch.  Returns (history, CPU seconds of the training)."""
    import torch
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    cpu0 = cpu_seconds()
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-5)
    history, start, cpu_before = [], 0, 0.0
    ckpt = work / "checkpoint.pt"
    if ckpt.exists():
        state = torch.load(ckpt, weights_only=True)
        if state["shape"] != shape:
            raise SystemExit(f"{ckpt} holds another shape {state['shape']}: remove it or use its shape")
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        start = state["epoch"]
        history = json.loads(state["history"])
        cpu_before = state["cpu"]
        print(f"resumed from {ckpt} after epoch {start}", file=stream)
    planes, size = train_set.planes.shape[1], train_set.planes.shape[2]
    src_t, dst_t = torch.from_numpy(np.asarray(src, np.int64)), torch.from_numpy(np.asarray(dst, np.int64))
    xs = torch.from_numpy(train_set.planes.reshape(len(train_set.target), planes, -1))
    ys = torch.from_numpy(train_set.target)
    for epoch in range(start, epochs):
        rng = np.random.default_rng([seed, epoch])
        for g in opt.param_groups:  # cosine decay over the planned epochs
            g["lr"] = float(lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        model.train()
        order = torch.from_numpy(rng.permutation(len(ys)))
        total, count, t0 = 0.0, 0, cpu_seconds()
        for i in range(0, len(order), batch):
            idx = order[i:i + batch]
            k = int(rng.integers(len(src_t)))
            x = xs[idx][:, :, src_t[k]].float().reshape(len(idx), planes, size, size)
            y = dst_t[k][ys[idx]]
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
            count += len(idx)
        figures = evaluate_model(model, test_set)
        entry = {"epoch": epoch + 1, "train_loss": total / max(count, 1), "cpu": cpu_seconds() - t0, **figures}
        history.append(entry)
        print(json.dumps(entry), file=stream, flush=True)
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": epoch + 1,
                    "history": json.dumps(history), "cpu": cpu_before + cpu_seconds() - cpu0,
                    "shape": shape}, work / "checkpoint.tmp")
        (work / "checkpoint.tmp").replace(ckpt)
    return history, cpu_before + cpu_seconds() - cpu0
