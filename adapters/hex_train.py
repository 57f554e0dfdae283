"""`plies hex train | topp | play`: train actor networks for Hex (on-policy MCTS), run the tournament of
progressive policies over saved networks, and play a saved or shipped network.

  plies hex train --config weights/hex/hex.toml --episodes 200 --size 5 --display 10 --out runs/hex5
  plies hex topp runs/hex5 --games 20 [--policy stochastic] [--display]
  plies hex play [--network FILE | --size 5] [--opponent random|FILE] [--simulations 2000]

Every configuration key (engines/learn/config.py; `plies hex train --print-config` lists them with
their defaults) is also an option of `train`: --episodes 200, --hidden 64,64, --optimizer sgd, ...
"""
import argparse
import pathlib
import sys

from engines.learn import config as C

TRAIN_EXTRA = ("training needs PyTorch, the `train` extra: run `make train-extra` "
               "(or .venv/bin/pip install -e '.[train]')")


def add_parsers(hexsub):
    p = hexsub.add_parser("train", help="train ANET by on-policy MCTS (the seed's loop); K networks saved",
                          description="Train ANET.  Options override the configuration file's keys.",
                          formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--config", type=pathlib.Path, help="TOML file (default: the built-in defaults; "
                   "weights/hex/hex.toml is the seed's demonstration)")
    p.add_argument("--out", type=pathlib.Path, help="directory for the networks (default: runs/hex<size>)")
    p.add_argument("--print-config", action="store_true", help="print every key with its default, as TOML")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override any key")
    keys = p.add_argument_group("configuration keys (override the file)")
    for key, param in C.PARAMS.items():
        keys.add_argument(f"--{key.replace('_', '-')}", dest=f"key_{key}", metavar="VALUE", help=param.help)
    p.set_defaults(func=cmd_train)

    p = hexsub.add_parser("topp", help="the tournament of progressive policies over the networks in DIR")
    p.add_argument("dir", type=pathlib.Path)
    p.add_argument("--games", type=int, help="G: games per pair (default: the run's configuration)")
    p.add_argument("--policy", choices=C.TOPP_POLICIES, help="move choice (default: the run's configuration)")
    p.add_argument("--display", action="store_true", help="draw every game")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--out", type=pathlib.Path, help="where topp.csv and topp.png go (default: DIR)")
    p.set_defaults(func=cmd_topp)

    p = hexsub.add_parser("play", help="a game of a saved or shipped network, drawn as diamonds")
    p.add_argument("--network", type=pathlib.Path, help="ONNX file (default: the shipped one for --size)")
    p.add_argument("--size", type=int, default=5, help="board size of the shipped network (a network file "
                   "plays its own size)")
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
    if args.print_config:
        print(C.template(), end="")
        return 0
    try:
        cfg = C.load(args.config, overrides(args))
    except C.ConfigError as err:
        print(f"plies hex train: {err}", file=sys.stderr)
        return 2
    try:
        from engines.learn.trainer import Trainer
        trainer = Trainer(cfg, args.out or pathlib.Path("runs") / f"hex{cfg.size}")
    except ModuleNotFoundError as err:
        if err.name != "torch":
            raise
        print(f"plies hex train: {TRAIN_EXTRA}", file=sys.stderr)
        return 3
    print(f"training ANET {cfg.layers} ({cfg.activation}, {cfg.optimizer} lr {cfg.learning_rate}) on {cfg.size}x"
          f"{cfg.size}: {cfg.episodes} episodes, {cfg.search_games} search games a move, epsilon {cfg.epsilon}, "
          f"networks saved after episodes {cfg.save_points()} -> {trainer.out}")
    saved = trainer.run()
    s = trainer.summary
    print(f"done: {s['episodes']} episodes in {s['seconds']:.1f} s ({s['episodes_per_minute']:.1f} a minute), "
          f"{len(saved)} networks, loss curve {trainer.out / 'loss.png'}")
    if cfg.topp:
        return run_topp(trainer.out, cfg.games, cfg.topp_policy, cfg.topp_display, cfg.seed, cfg.progress)
    return 0


def run_topp(directory, games, policy, display, seed, progress, out=None) -> int:
    from engines.knowledge.network import network_size
    from engines.learn.plots import heat_map
    from engines.learn.state_manager import HexStateManager
    from engines.learn.topp import TOPP, load_agents
    agents, _ = load_agents(directory)
    manager = HexStateManager(network_size(agents[0][1]))
    print(f"\nTOPP: {len(agents)} networks, {games} games a pair, {policy} moves, {manager.size}x{manager.size}")
    result = TOPP(manager, agents, games, policy, display, seed, progress=progress).run()
    print(result.table())
    out = pathlib.Path(out or directory)
    out.mkdir(parents=True, exist_ok=True)
    csv_path = result.save_csv(out / "topp.csv")
    png = heat_map(out / "topp.png", result.names, result.wins, games,
                   f"TOPP {manager.size}x{manager.size}: wins out of {games} ({policy})")
    print(f"saved {csv_path} and {png}")
    return 0


def cmd_topp(args) -> int:
    from engines.learn.topp import load_agents
    try:
        _, meta = load_agents(args.dir)
    except (FileNotFoundError, ValueError) as err:
        print(f"plies hex topp: {err}", file=sys.stderr)
        return 2
    run_cfg = meta.get("config", {})
    games = args.games if args.games is not None else run_cfg.get("games", 20)
    policy = args.policy or run_cfg.get("topp_policy", "greedy")
    if games < 1:
        print("plies hex topp: --games must be >= 1", file=sys.stderr)
        return 2
    return run_topp(args.dir, games, policy, args.display, args.seed, not args.no_progress, args.out)


def _network(path, size: int | None = None):
    """(Network, sidecar, path) of a network file, or of the shipped network for size when path is
    None or "shipped"; with size, the network must play it (NetworkError otherwise)."""
    from engines.knowledge.network import NetworkError, load_network, shipped_network_path
    if path is None or str(path) == "shipped":
        path = shipped_network_path(size)
        if path is None:
            raise NetworkError(f"no shipped network for {size}x{size} (weights/hex/hex{size}.onnx)")
    net, meta = load_network(path, size)
    return net, meta, pathlib.Path(path)


def cmd_play(args) -> int:
    from engines.games import make_game
    from engines.knowledge.network import NetworkError, network_size
    from engines.learn.agents import NetworkAgent, RandomAgent, play_game
    shipped = args.network is None or str(args.network) == "shipped"
    try:
        net, _, path = _network(args.network, args.size if shipped else None)
        size = network_size(net)  # a network file decides the board; the opponent must play it too
        opponent = None if args.opponent == "random" else _network(args.opponent, size)
    except NetworkError as err:
        print(f"plies hex play: {err}", file=sys.stderr)
        return 2
    game = make_game("hex", size=size)
    if args.simulations or args.time:
        policy = "search"
    else:
        policy = "stochastic" if args.stochastic else "greedy"
    me = NetworkAgent(game, net, policy, simulations=args.simulations or None, time=args.time, seed=args.seed,
                      name=f"{path.stem} ({policy})")
    wins = 0
    for g in range(args.games):
        if opponent is None:
            other = RandomAgent(game, seed=args.seed + 1 + g)
        else:
            onet, _, opath = opponent
            other = NetworkAgent(game, onet, "greedy", name=f"{opath.stem} (greedy)")
        if policy == "search":
            me.searcher.reset()
        seats = (me, other) if args.network_player == 1 else (other, me)
        if not args.quiet:
            print(f"\nHex {size}x{size}: {seats[0].name} = X (player 1, rows, moves first) against "
                  f"{seats[1].name} = O (player 2, columns)")
            print(game.render(game.initial_state()))

        def show(state, move, agent):
            if not args.quiet:
                r, c = game.coords(move)
                print(f"\n{agent.name} plays ({r},{c})\n{game.render(state)}")
        winner = play_game(game, *seats, on_move=show)
        won = seats[winner] is me
        wins += won
        if not args.quiet:
            print(f"winner: player {winner + 1} ({seats[winner].name})")
    print(f"{me.name} won {wins} of {args.games} against {args.opponent}")
    return 0
