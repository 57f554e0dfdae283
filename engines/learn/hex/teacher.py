"""Hex networks taught by the knowledge-rich search (issue 20): teacher games, then supervised fitting.

Teacher games.  RAVE with all the Hex knowledge (the default searcher of both Hex adapters:
engines.knowledge.hex.registered.heavy_knowledge with RAVE_CONFIG) plays both sides at a fixed number of
simulations a move.  Every position of a game is a training case: x, the game's observation
(3*n*n floats, as ANET and the compiled forward read it); d, the root's visit distribution over the
n*n actions (0 on the cells the search kept out: occupied, dead or dominated); z, 1.0 when player 0
won the game.  The first ``sample_moves`` moves are drawn in proportion to d (so that games differ),
the others are the search's own choice.  Games are written in shards of ``shard_games`` games
(``teacher-<n>x<n>-s<seed>-<k>.npz``, each with the settings that made it), so a run stopped anywhere
resumes at its first missing shard and two processes with different seeds fill one folder.  A shard's
games depend only on the seed and the shard's number (``teacher_shard``), so they are the same
whether played here, in ``workers`` processes, or as Ray tasks on the cluster at ``ray_address``.

Fitting.  ANET (engines/learn/hex/anet.py: policy logits and the value head) on the cases of every
shard of one board size, each case also turned by 180 degrees (Hex's symmetry); the games of every
tenth shard are held out.  After each epoch the held-out policy loss, value loss and the share of
positions where the network's best move is the teacher's most visited are recorded.  The policy and
the value are two networks on the same input, so each is kept from its own best epoch (the lowest
held-out loss: the value, whose target is one result for a whole game, overfits within a few epochs
while the policy still improves), and both are written as one network file
(engines/learn/network_file.py) with a sidecar saying from what and how it was made.
"""
import datetime
import json
import pathlib
import time

import numpy as np

from engines.learn.hex.state_manager import HexStateManager
from engines.search.result import Limits

SHARD = "teacher-{size}x{size}-s{seed}-{shard:04d}.npz"
HOLD_OUT_EVERY = 10   # every tenth shard (by name order) is the held-out set
AUGMENTED = 4         # augmented() gives each case four times (Hex's symmetries)


def teacher_searcher(game, seed: int):
    """The teacher: the Hex adapters' default searcher (RAVE with all the knowledge)."""
    from engines.knowledge.hex.registered import RAVE_CONFIG, heavy_knowledge
    from engines.search import make_searcher
    return make_searcher("rave", game, RAVE_CONFIG, heavy_knowledge(game), seed, capacity=1 << 21)


def teacher_game(manager: HexStateManager, searcher, simulations: int, sample_moves: int,
                 rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
    """One game of the teacher against itself: (x, d, z) arrays of its positions and the moves."""
    game = manager.game
    state = manager.initial_state()
    searcher.reset()
    xs, ds, moves = [], [], []
    while not manager.is_final(state):
        result = searcher.search(state, Limits(simulations=simulations))
        d = np.zeros(manager.num_actions)
        d[result.moves] = result.visits
        if d.sum() <= 0:  # a decided node with no visits recorded: the search's move alone
            d[result.move] = 1.0
        d /= d.sum()
        move = int(rng.choice(d.shape[0], p=d)) if len(moves) < sample_moves else int(result.move)
        xs.append(manager.encode(state))
        ds.append(d.astype(np.float32))
        state = game.play(state, move)
        searcher.advance(move)
        moves.append(move)
    z = 1.0 if manager.winner(state) == 0 else 0.0
    return (np.array(xs, np.float32), np.array(ds, np.float32), np.full(len(xs), z, np.float32), moves)


def shard_path(folder, size: int, seed: int, shard: int) -> pathlib.Path:
    return pathlib.Path(folder) / SHARD.format(size=size, seed=seed, shard=shard)


def teacher_shard(size: int, simulations: int, sample_moves: int, seed: int, shard: int, count: int) -> dict:
    """The count games of one shard: the arrays of its file and its settings (the same arguments
    give the same games wherever they run: the searcher and the sampling are seeded by seed and
    shard)."""
    manager = HexStateManager(size)
    searcher = teacher_searcher(manager.game, int(np.random.SeedSequence([seed, shard]).generate_state(1)[0]))
    rng = np.random.default_rng([seed, shard])
    started = time.perf_counter()
    parts = [teacher_game(manager, searcher, simulations, sample_moves, rng) for _ in range(count)]
    x, d, z = (np.concatenate([p[i] for p in parts]) for i in range(3))
    game_of = np.concatenate([np.full(len(p[0]), g, np.int32) for g, p in enumerate(parts)])
    settings = {"size": size, "simulations": simulations, "sample_moves": sample_moves, "seed": seed,
                "shard": shard, "games": count, "teacher": "rave:all", "seconds": time.perf_counter() - started,
                "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    return {"x": x, "d": d, "z": z, "game": game_of, "settings": settings,
            "first_player_wins": int(sum(p[2][0] for p in parts))}


def _teacher_shard(job: tuple) -> dict:
    return teacher_shard(*job)


def _played(jobs: list[tuple], workers: int, ray_address: str):
    """teacher_shard of each job, as each is done: here, in worker processes, or as Ray tasks."""
    if ray_address:
        from engines.learn.hex.selfplay import connect_ray
        ray = connect_ray(ray_address)
        remote = ray.remote(num_cpus=1)(teacher_shard)
        pending = [remote.remote(*job) for job in jobs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    elif workers > 1 and len(jobs) > 1:
        import multiprocessing
        # spawn: a fresh interpreter per worker (no forked threads); numba loads its cache
        with multiprocessing.get_context("spawn").Pool(min(workers, len(jobs))) as pool:
            yield from pool.imap_unordered(_teacher_shard, jobs)
    else:
        yield from map(_teacher_shard, jobs)


def write_shards(folder, size: int, games: int, simulations: int, seed: int = 1, shard_games: int = 20,
                 sample_moves: int | None = None, progress=None, workers: int = 1,
                 ray_address: str = "") -> list[pathlib.Path]:
    """Play ``games`` teacher games in shards of ``shard_games`` into folder (here, in ``workers``
    processes, or as Ray tasks at ``ray_address``); shards already there (a resumed run) are kept
    and not played again.  progress(text) is told of each shard as it is written."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    sample_moves = size if sample_moves is None else sample_moves
    jobs = [(size, simulations, sample_moves, seed, shard, min(shard_games, games - shard * shard_games))
            for shard in range((games + shard_games - 1) // shard_games)
            if not shard_path(folder, size, seed, shard).exists()]
    written = []
    for played in _played(jobs, workers, ray_address):
        settings = played["settings"]
        path = shard_path(folder, size, seed, settings["shard"])
        tmp = path.with_name("." + path.name)  # a hidden name: the shards' pattern never reads a half-written file
        np.savez_compressed(tmp, x=played["x"], d=played["d"], z=played["z"], game=played["game"],
                            settings=json.dumps(settings))
        tmp.replace(path)  # whole shards only: a run stopped mid-shard leaves no half shard behind
        written.append(path)
        if progress is not None:
            progress(f"{path.name}: {settings['games']} games, {len(played['x'])} positions, player 0 won "
                     f"{played['first_player_wins']}, {settings['seconds']:.0f} s")
    return written


def read_shards(folder, size: int) -> tuple[dict, dict, list[dict]]:
    """The cases of the shards of one size: (training, held-out) dicts of x, d, z, and the settings."""
    paths = sorted(pathlib.Path(folder).glob(f"teacher-{size}x{size}-s*-*.npz"))
    train, held, settings = {"x": [], "d": [], "z": []}, {"x": [], "d": [], "z": []}, []
    for i, path in enumerate(paths):
        with np.load(path) as data:
            meta = json.loads(str(data["settings"]))
            if meta["size"] != size:
                continue
            target = held if i % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1 else train
            for key in target:
                target[key].append(data[key])
            settings.append(meta)
    if not settings:
        raise FileNotFoundError(f"no teacher shards of {size}x{size} in {folder}")
    return _joined(train), _joined(held), settings


def _joined(part: dict) -> dict:
    """Each key's list of arrays as one array (an empty list: an empty array)."""
    return {k: np.concatenate(v) if v else np.zeros((0,)) for k, v in part.items()}


def augmented(cases: dict, manager: HexStateManager) -> dict:
    """The cases under Hex's symmetries: each as it is, turned by 180 degrees, and mirrored in the
    main diagonal with the colours swapped (player 1's stones become player 0's, the other player
    is to move, and the result is the other player's), and both."""
    n = manager.size
    nn = n * n
    x = cases["x"].reshape(-1, 3, n, n)
    d = cases["d"].reshape(-1, n, n)
    turned_x, turned_d = x[:, :, ::-1, ::-1], d[:, ::-1, ::-1]
    xs, ds, zs = [x, turned_x], [d, turned_d], [cases["z"], cases["z"]]
    for bx, bd in ((x, d), (turned_x, turned_d)):
        mirrored = np.stack([bx[:, 1].transpose(0, 2, 1), bx[:, 0].transpose(0, 2, 1),
                             1.0 - bx[:, 2].transpose(0, 2, 1)], axis=1)
        xs.append(mirrored)
        ds.append(bd.transpose(0, 2, 1))
        zs.append(1.0 - cases["z"])
    count = sum(len(b) for b in xs)
    return {"x": np.concatenate(xs).reshape(count, 3 * nn).astype(np.float32),
            "d": np.concatenate(ds).reshape(count, nn).astype(np.float32),
            "z": np.concatenate(zs).astype(np.float32)}


def held_out_figures(anet, cases: dict) -> dict:
    """Policy cross-entropy, value log-loss and the teacher's-move match of ANET on the cases."""
    import torch
    x = torch.as_tensor(cases["x"])
    with torch.no_grad():
        logp = torch.log_softmax(anet.masked_logits(x), dim=1).numpy()
        v = anet.value(x)[:, 0] if anet.value is not None else None  # a CNN has no value network
        value_loss = (float(torch.nn.functional.binary_cross_entropy_with_logits(v, torch.as_tensor(cases["z"])))
                      if v is not None else None)
    policy_loss = float(-(cases["d"] * logp).sum(axis=1).mean())
    match = float(np.mean(np.argmax(logp, axis=1) == np.argmax(cases["d"], axis=1)))
    return {"policy_loss": policy_loss, "value_loss": value_loss, "teacher_move_match": match}


def fit(folder, size: int, out, hidden=(256, 256), epochs: int = 20, batch_size: int = 256,
        learning_rate: float = 1e-3, seed: int = 1, conv: tuple[int, int] | None = None, progress=None) -> dict:
    """Fit ANET (policy and value heads) on the teacher shards of folder, or with conv = (channels,
    layers) a Hex CNN (engines/learn/hex/cnn.py, policy only); write the policy and the value of
    their best epochs to out (ONNX and sidecar) after every epoch, so that a fit stopped early
    leaves its best network so far (the sidecar says after how many epochs); return the figures of
    every epoch."""
    from engines.learn.hex.anet import ANET
    from engines.learn.hex.cnn import HexCNN
    from engines.learn.network_file import save_network
    manager = HexStateManager(size)
    train, held, settings = read_shards(folder, size)
    if len(held["x"]) == 0:
        raise ValueError(f"fitting needs {HOLD_OUT_EVERY} shards or more (every {HOLD_OUT_EVERY}th is held out)")
    train = augmented(train, manager)
    nn = manager.num_actions
    layers = [3 * nn, *hidden, nn]
    anet = (ANET(layers, "relu", "adam", learning_rate, value_head=True, seed=seed) if conv is None
            else HexCNN(size, *conv, learning_rate=learning_rate, seed=seed))
    rng = np.random.default_rng(seed)
    history, policy, value = [], None, None
    started = time.perf_counter()
    how = ("supervised on the teacher's games (engines/learn/hex/teacher.py): the root visit distribution of "
           "RAVE with all the Hex knowledge as the policy target, the game's result as the value target (an "
           "MLP's; a CNN is a policy alone)")
    teacher = {"search": "rave:all", "simulations": sorted({s["simulations"] for s in settings}),
               "games": sum(s["games"] for s in settings),
               "positions": int(len(train["x"]) // AUGMENTED + len(held["x"])),
               "cpu_seconds": sum(s["seconds"] for s in settings)}
    shape = {"hidden": list(hidden)} if conv is None else {"conv": {"channels": conv[0], "layers": conv[1]}}
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(train["x"]))
        for i in range(0, len(order), batch_size):
            idx = order[i:i + batch_size]
            anet.train_step(train["x"][idx], train["d"][idx], train["z"][idx])
        figures = {"epoch": epoch, **held_out_figures(anet, held)}
        history.append(figures)
        if policy is None or figures["policy_loss"] < policy[1]["policy_loss"]:
            policy = (anet.network(), figures)
        if anet.value is not None and (value is None or figures["value_loss"] < value[1]["value_loss"]):
            value = (anet.value_network(), figures)
        # the best so far after every epoch: a fit stopped early leaves its best network, said so
        best = {"policy_epoch": policy[1]["epoch"], "policy_loss": policy[1]["policy_loss"],
                "teacher_move_match": policy[1]["teacher_move_match"]}
        if value is not None:
            best.update(value_epoch=value[1]["epoch"], value_loss=value[1]["value_loss"])
        sidecar = {"size": size, "how": how, "teacher": teacher,
                   "training": {**shape, "epochs": epoch, "of_epochs": epochs, "batch_size": batch_size,
                                "learning_rate": learning_rate, "seed": seed,
                                "symmetries": AUGMENTED, "cpu_seconds": time.perf_counter() - started},
                   "held_out": best}
        save_network(out, policy[0], sidecar, value=None if value is None else value[0])
        if progress is not None:
            progress(json.dumps(figures))
    return {"history": history, "best": best, "sidecar": sidecar}
