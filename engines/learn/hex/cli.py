"""`plies hex train | topp | play | teach | fit`: train actor networks for Hex (on-policy MCTS), run the
tournament of progressive policies over saved networks, play a saved or shipped network, and teach
networks from the knowledge-rich search (engines/learn/hex/teacher.py: teacher games, then fitting).
This is the command line only: the steps it runs (folder checks, starting or resuming a run, the
TOPP, games of networks) are engines/learn/hex/runs.py's.  Usage, with examples: README.md's section
on Hex training.

Every configuration key (engines/learn/hex/config.py; `plies hex train --print-config` lists them with
their defaults) is also an option of `train`: --episodes 200, --hidden 64,64, --optimizer sgd, ...

`train` writes into a new folder (--out) unless --resume; `topp` never writes into weights/.  Every
fault is one line on stderr naming the cause and the fix, and an exit status (EXIT, the one place;
shown under each verb's --help).
"""
import argparse
import pathlib
import sys

from engines.learn.hex import config as C
from engines.learn.hex.runs import RUNS, Refused, in_weights, writable_folder
EXIT = {  # how a `plies hex train | topp | play` ends -> (exit status, what --help says): the one place
    "done": (0, "done"),
    "settings": (2, "a bad option or configuration key"),
    "extra": (3, "an optional package is missing (PyTorch, matplotlib, Ray: the train extra)"),
    "output": (4, "the output folder cannot be used (a file, not writable, in weights/, or a run already there "
                  "without --resume)"),
    "network": (5, "a network file that is missing, is no network, or is for another board size"),
    "cluster": (6, "the Ray cluster at ray_address cannot be reached"),
}
EPILOG = "exit statuses:\n" + "\n".join(f"  {code}  {meaning}" for code, meaning in EXIT.values())


def fail(verb: str, err: Exception, kind: str | None = None) -> int:
    """Print the one line of a fault and return its exit status."""
    print(f"plies hex {verb}: {err}", file=sys.stderr)
    return EXIT[kind or getattr(err, "kind", "settings")][0]


def add_parsers(hexsub):
    p = hexsub.add_parser("train", help="train ANET by on-policy MCTS (the seed's loop); K networks saved",
                          description="Train ANET.  Options override the configuration file's keys.",
                          formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    p.add_argument("--config", type=pathlib.Path, help="TOML file (default: the built-in defaults; "
                   "weights/hex/hex.toml is the seed's demonstration)")
    p.add_argument("--out", type=pathlib.Path, help="a new folder for the networks (default: runs/hex<size>)")
    p.add_argument("--resume", action="store_true", help="continue the run in --out from its last saved network "
                   "and episode (the same configuration; the replay buffer starts empty)")
    p.add_argument("--print-config", action="store_true", help="print every key with its default, as TOML")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override any key")
    keys = p.add_argument_group("configuration keys (override the file)")
    for key, param in C.PARAMS.items():
        keys.add_argument(f"--{key.replace('_', '-')}", dest=f"key_{key}", metavar="VALUE", help=param.help)
    p.set_defaults(func=cmd_train)

    p = hexsub.add_parser("topp", help="the tournament of progressive policies over the networks in DIR",
                          formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    p.add_argument("dir", type=pathlib.Path)
    p.add_argument("--games", type=int, help="G: games per pair (default: the run's configuration)")
    p.add_argument("--policy", choices=C.TOPP_POLICIES, help="move choice (default: the run's configuration)")
    p.add_argument("--display", action="store_true", help="draw every game")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--out", type=pathlib.Path, help="where topp.csv and topp.png go (default: DIR; "
                   f"{RUNS}/topp/<name> for a folder of shipped networks)")
    p.set_defaults(func=cmd_topp)

    p = hexsub.add_parser("play", help="a game of a saved or shipped network, drawn as diamonds",
                          formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    p.add_argument("--network", type=pathlib.Path, help="ONNX file (default: the shipped one for --size)")
    p.add_argument("--size", type=int, help="board size (default 5 for the shipped network; a network file "
                   "plays its own size, and must play --size when both are given)")
    p.add_argument("--opponent", default="random", help="random, shipped, or an ONNX file")
    p.add_argument("--simulations", type=int, default=0, help="search games a move for the network "
                   "(0: the network alone, greedy)")
    p.add_argument("--time", type=float, help="seconds a move for the network's search")
    p.add_argument("--stochastic", action="store_true", help="sample the network's moves instead of greedy")
    p.add_argument("--network-player", type=int, choices=(1, 2), default=1,
                   help="1: the network moves first (rows), 2: second (columns)")
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--quiet", action="store_true", help="results only")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_play)

    p = hexsub.add_parser("teach", help="teacher games: RAVE with all the Hex knowledge against itself, "
                                        "saved in shards (a stopped run resumes)",
                          formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    p.add_argument("--size", type=int, default=7)
    p.add_argument("--games", type=int, default=1000, help="games in all (those in --out already count)")
    p.add_argument("--simulations", type=int, default=4000, help="the teacher's simulations a move")
    p.add_argument("--seed", type=int, default=1, help="processes with different seeds can fill one folder")
    p.add_argument("--shard-games", type=int, default=25, help="games a shard (a file)")
    p.add_argument("--out", type=pathlib.Path, default=RUNS / "teacher", help="the shards' folder")
    p.add_argument("--workers", type=int, default=1, help="worker processes playing shards at once")
    p.add_argument("--ray-address", default="", help="play the shards as Ray tasks on the cluster at host:port "
                                                     "(or 'auto'), instead of --workers")
    p.set_defaults(func=cmd_teach)

    p = hexsub.add_parser("fit", help="fit a policy and value network to the teacher games of --data",
                          formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    p.add_argument("--size", type=int, default=7)
    p.add_argument("--data", type=pathlib.Path, default=RUNS / "teacher", help="the teacher shards' folder")
    p.add_argument("--out", type=pathlib.Path, required=True, help="the network file (.onnx; a .json sidecar beside)")
    p.add_argument("--hidden", default="256,256", help="hidden layer widths, comma-separated")
    p.add_argument("--conv", default="", metavar="CHANNELS,LAYERS",
                   help="a Hex CNN (policy only) of LAYERS hex convolutions of CHANNELS channels instead of the MLP")
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=cmd_fit)


def cmd_teach(args) -> int:
    from engines.games.hex import MAX_SIZE, MIN_SIZE
    from engines.learn.hex.teacher import write_shards
    from engines.learn.hex.selfplay import ClusterUnreachable, check_ray_address
    if not MIN_SIZE <= args.size <= MAX_SIZE or min(args.games, args.simulations, args.shard_games, args.workers) < 1:
        return fail("teach", f"--size {MIN_SIZE}..{MAX_SIZE}, and --games, --simulations, --shard-games, --workers "
                             f">= 1", "settings")
    try:
        if args.ray_address:
            check_ray_address(args.ray_address)  # before any file is written
        out = writable_folder(args.out, "--out")
        written = write_shards(out, args.size, args.games, args.simulations, args.seed, args.shard_games,
                               progress=lambda text: print(text, flush=True), workers=args.workers,
                               ray_address=args.ray_address)
    except ClusterUnreachable as err:
        return fail("teach", err, "cluster")
    except Refused as err:
        return fail("teach", err)
    print(f"{len(written)} new shards in {out}")
    return 0


def cmd_fit(args) -> int:
    from engines.learn.hex.runs import need_torch
    try:
        hidden = tuple(int(w) for w in args.hidden.split(","))
        conv = tuple(int(w) for w in args.conv.split(",")) if args.conv else None
        if not hidden or min(hidden) < 1 or args.epochs < 1 or (conv is not None and (len(conv) != 2 or min(conv) < 1)):
            raise ValueError
    except ValueError:
        return fail("fit", f"--hidden {args.hidden!r}: positive widths joined by commas; --conv {args.conv!r}: "
                           f"CHANNELS,LAYERS; --epochs >= 1", "settings")
    try:
        need_torch()
        from engines.learn.hex.teacher import fit
        if in_weights(args.out):
            raise Refused("output", f"--out {args.out} is inside the shipped weights folder, which commands never "
                                    f"write: fit into {RUNS}/ and copy the file you choose to ship")
        writable_folder(args.out.parent, "--out's folder")
        report = fit(args.data, args.size, args.out, hidden, args.epochs, seed=args.seed, conv=conv,
                     progress=lambda text: print(text, flush=True))
    except Refused as err:
        return fail("fit", err)
    except (FileNotFoundError, ValueError) as err:
        return fail("fit", f"{err}: play more teacher games first (plies hex teach)", "network")
    print(f"saved {args.out}: held-out {report['best']}")
    return 0


def overrides(args) -> dict:
    values = {}
    for key in C.PARAMS:
        text = getattr(args, f"key_{key}")
        if text is not None:
            values[key] = C.parse_override(key, text)
    for item in args.set:
        key, sep, text = item.partition("=")
        if not sep:
            raise C.ConfigError(f"--set {item!r}: expected KEY=VALUE")
        values[key.strip()] = C.parse_override(key.strip(), text.strip())
    return values


def cmd_train(args) -> int:
    from engines.learn.hex.runs import need_torch, new_trainer
    from engines.learn.hex.selfplay import ClusterUnreachable, check_ray_address
    if args.print_config:
        print(C.template(), end="")
        return 0
    try:
        cfg = C.load(args.config, overrides(args))
    except C.ConfigError as err:
        return fail("train", err, "settings")
    try:
        need_torch()  # said before any file is made
        if cfg.ray_address:
            check_ray_address(cfg.ray_address)  # before any file is written
        trainer = new_trainer(cfg, args.out or RUNS / f"hex{cfg.size}", args.resume)
        print(f"training ANET {cfg.layers} ({cfg.activation}, {cfg.optimizer} lr {cfg.learning_rate}) on {cfg.size}x"
              f"{cfg.size}: {cfg.episodes} episodes, {cfg.search_games} search games a move, epsilon {cfg.epsilon}, "
              f"networks saved after episodes {cfg.save_points()} -> {trainer.out}"
              + (f" (resumed after episode {trainer.start})" if trainer.start else ""))
        saved = trainer.run()
    except Refused as err:
        return fail("train", err)
    except ClusterUnreachable as err:
        return fail("train", err, "cluster")
    except ModuleNotFoundError as err:
        if err.name not in ("ray", "matplotlib", "tqdm"):
            raise
        return fail("train", f"{err.name} is not installed: the train extra has it (make train-extra)", "extra")
    s = trainer.summary
    print(f"done: {s['episodes']} episodes in {s['seconds']:.1f} s ({s['episodes_per_minute']:.1f} a minute), "
          f"{len(saved)} networks, loss curve {trainer.out / 'loss.png'}")
    if cfg.topp:
        return topp(trainer.out, cfg.games, cfg.topp_policy, cfg.topp_display, cfg.seed, cfg.progress)
    return 0


def topp(directory, games, policy, display, seed, progress, out=None) -> int:
    from engines.learn.hex.runs import run_topp
    try:
        csv_path, png = run_topp(directory, games, policy, display, seed, progress, out,
                                 say=lambda text: print(text, flush=True))
    except Refused as err:
        return fail("topp", err)
    print(f"saved {csv_path} and {png}")
    return 0


def cmd_topp(args) -> int:
    from engines.learn.hex.runs import topp_defaults
    try:
        games, policy = topp_defaults(args.dir, args.games, args.policy)
    except Refused as err:
        return fail("topp", err)
    return topp(args.dir, games, policy, args.display, args.seed, not args.no_progress, args.out)


def cmd_play(args) -> int:
    from engines.games.reference.hex import MAX_SIZE, MIN_SIZE
    from engines.learn.hex.runs import play_networks
    if args.size is not None and not MIN_SIZE <= args.size <= MAX_SIZE:
        return fail("play", f"--size must be in {MIN_SIZE}..{MAX_SIZE}, got {args.size}", "settings")
    try:
        play_networks(args.network, args.size, args.opponent, args.games, args.simulations, args.time,
                      args.stochastic, args.network_player, args.seed, args.quiet)
    except Refused as err:
        return fail("play", err)
    return 0
