"""The steps around Hex training that `plies hex train | topp | play | teach | fit` run: where outputs may
go, starting or resuming a run, the TOPP over a folder of networks, games of saved networks.

How its data is represented: a run is a folder of ``anet_<episode>.onnx`` networks with JSON sidecars
(engines/learn/network_file.py); outputs go to folders under ``RUNS`` (relative to the working folder)
and never into the shipped weights folder.  Every fault is ``Refused(kind, message)``: the message
names the cause and the fix, ``kind`` the sort of fault ("settings", "extra", "output", "network",
"cluster"), which the command line turns into its exit status.  Text for the user goes to ``say``.
"""
import os
import pathlib
import tempfile

import weights

RUNS = pathlib.Path("runs")
TRAIN_EXTRA = ("training needs PyTorch, the `train` extra: run `make train-extra` "
               "(or .venv/bin/pip install -e '.[train]')")


class Refused(Exception):
    """A step that cannot be done: the message (cause and fix) and the kind of fault."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def in_weights(path) -> bool:
    """True when path is the shipped weights folder or inside it (tracked, shipped: never written)."""
    shipped = pathlib.Path(weights.__file__).resolve().parent
    return pathlib.Path(os.path.abspath(path)).resolve().is_relative_to(shipped)


def writable_folder(path, what: str) -> pathlib.Path:
    """path, made if needed and checked writable; Refused("output") naming the fix otherwise."""
    path = pathlib.Path(path)
    if in_weights(path):
        raise Refused("output", f"{what} {path} is inside the shipped weights folder, which commands never write: "
                                f"give a folder under {RUNS}/ (--out)")
    if path.exists() and not path.is_dir():
        raise Refused("output", f"{what} {path} is a file, not a folder: give a new folder name (--out)")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as err:
        raise Refused("output", f"cannot write to {what} {path} ({err.strerror or type(err).__name__}): "
                                f"give a writable folder (--out)") from None
    return path


def need_torch():
    """Refused("extra") when PyTorch (the train extra) is missing: said before any file is made."""
    try:
        import engines.learn.hex.anet  # noqa: F401
    except ModuleNotFoundError as err:
        if err.name != "torch":
            raise
        raise Refused("extra", TRAIN_EXTRA) from None


def new_trainer(cfg, out, resume: bool):
    """The Trainer of a run in out: a new run (refused where one is already, unless resume) or the
    run in out resumed from its last saved network.  Refused for a folder that cannot be used;
    Refused("network") for a saved network that does not match the configuration."""
    from engines.knowledge.hex.network import load_network, load_value_network
    from engines.learn.hex.trainer import Trainer, last_saved
    start, init_from = 0, None
    previous = last_saved(out) if out.is_dir() else None
    if previous is not None and not resume:
        raise Refused("output", f"{out} holds a run already ({previous[0].name} ...): give a new --out, or "
                                f"--resume to continue that run")
    if resume:
        if previous is None:
            raise Refused("output", f"--resume: no saved network (anet_<episode>.onnx) in {out} to continue "
                                    f"from: drop --resume to start a run there")
        path, start = previous
        if start >= cfg.episodes:
            raise Refused("output", f"--resume: the run in {path.parent} is at episode {start} already, and "
                                    f"episodes is {cfg.episodes}: give more --episodes")
        try:
            network, _ = load_network(path, cfg.size)
            init_from = (network, load_value_network(path))
        except ValueError as err:  # NetworkError
            raise Refused("network", f"--resume: {err}: resume with the run's own configuration") from None
    writable_folder(out, "--out")
    try:
        return Trainer(cfg, out, init_from=init_from, start=start)
    except ValueError as err:  # layers that do not match the configuration
        raise Refused("network", f"--resume: {err}: resume with the run's own configuration") from None


def topp_folder(directory, out) -> pathlib.Path:
    """Where a TOPP writes: out, else beside the networks, else (shipped networks) runs/topp/<name>."""
    if out is None:
        out = RUNS / "topp" / pathlib.Path(directory).resolve().name if in_weights(directory) else directory
    return writable_folder(out, "--out" if out is not None else "the TOPP's folder")


def run_topp(directory, games, policy, display, seed, progress, out=None, say=print) -> list:
    """The TOPP of the networks in directory: its table said, topp.csv and topp.png written (the files
    written; Refused("extra") after the CSV when matplotlib is missing)."""
    from engines.knowledge.hex.network import network_size
    from engines.learn.hex.state_manager import HexStateManager
    from engines.learn.hex.topp import TOPP, load_agents
    out = topp_folder(directory, out)  # before the games: a bad folder is said at once
    agents, _ = load_agents(directory)
    manager = HexStateManager(network_size(agents[0][1]))
    say(f"\nTOPP: {len(agents)} networks, {games} games a pair, {policy} moves, {manager.size}x{manager.size}")
    result = TOPP(manager, agents, games, policy, display, seed, progress=progress).run()
    say(result.table())
    csv_path = result.save_csv(out / "topp.csv")
    try:
        from engines.learn.plots import heat_map
        png = heat_map(out / "topp.png", result.names, result.wins, games,
                       f"TOPP {manager.size}x{manager.size}: wins out of {games} ({policy})")
    except ModuleNotFoundError as err:
        if err.name != "matplotlib":
            raise
        say(f"saved {csv_path}")
        raise Refused("extra", "topp.png not drawn: matplotlib is not installed (the train extra: make "
                               "train-extra)") from None
    return [csv_path, png]


def topp_defaults(directory, games, policy) -> tuple[int, str]:
    """(games a pair, move choice) of a TOPP over directory: as given, else the run's configuration."""
    from engines.learn.hex.topp import load_agents
    if not pathlib.Path(directory).is_dir():
        raise Refused("network", f"no folder {directory}: give the folder of a run's networks (e.g. runs/hex5)")
    try:
        _, meta = load_agents(directory)
    except (FileNotFoundError, ValueError) as err:
        raise Refused("network", str(err)) from None
    run_cfg = meta.get("config", {})
    games = games if games is not None else run_cfg.get("games", 20)
    if games < 1:
        raise Refused("settings", "--games must be >= 1")
    return games, policy or run_cfg.get("topp_policy", "greedy")


def network_of(path, size: int | None = None):
    """(Network, sidecar, path) of a network file, or of the shipped network for size when path is
    None or "shipped"; with size, the network must play it (NetworkError otherwise)."""
    from engines.knowledge.hex.network import NetworkError, load_network, shipped_network_path
    if path is None or str(path) == "shipped":
        path = shipped_network_path(size)
        if path is None:
            raise NetworkError(f"no shipped network for {size}x{size} (weights/hex/hex{size}.onnx)")
    net, meta = load_network(path, size)
    return net, meta, pathlib.Path(path)


def play_networks(network, size, opponent="random", games=1, simulations=0, seconds=None, stochastic=False,
                  network_player=1, seed=0, quiet=False, say=print) -> int:
    """Games of a network (a file, or None / "shipped": the shipped one for size, or 5) against the
    random player or another network (greedy), drawn as diamonds unless quiet; the network's wins.
    Refused("network") for a network that cannot play (a file decides the size; the opponent must
    play it too)."""
    from engines.games import make_game
    from engines.knowledge.hex.network import NetworkError, network_size
    from engines.learn.hex.agents import NetworkAgent, RandomAgent, play_game
    shipped = network is None or str(network) == "shipped"
    try:
        net, _, path = network_of(network, size or 5 if shipped else size)
        size = network_size(net)
        other_net = None if opponent == "random" else network_of(opponent, size)
    except NetworkError as err:
        raise Refused("network", str(err)) from None
    game = make_game("hex", size=size)
    policy = "search" if simulations or seconds else "stochastic" if stochastic else "greedy"
    me = NetworkAgent(game, net, policy, simulations=simulations or None, time=seconds, seed=seed,
                      name=f"{path.stem} ({policy})")
    wins = 0
    for g in range(games):
        if other_net is None:
            other = RandomAgent(game, seed=seed + 1 + g)
        else:
            other = NetworkAgent(game, other_net[0], "greedy", name=f"{other_net[2].stem} (greedy)")
        if policy == "search":
            me.searcher.reset()
        seats = (me, other) if network_player == 1 else (other, me)
        if not quiet:
            say(f"\nHex {size}x{size}: {seats[0].name} = X (player 1, rows, moves first) against "
                f"{seats[1].name} = O (player 2, columns)")
            say(game.render(game.initial_state()))

        def show(state, move, agent):
            if not quiet:
                r, c = game.coords(move)
                say(f"\n{agent.name} plays ({r},{c})\n{game.render(state)}")
        winner = play_game(game, *seats, on_move=show)
        wins += seats[winner] is me
        if not quiet:
            say(f"winner: player {winner + 1} ({seats[winner].name})")
    say(f"{me.name} won {wins} of {games} against {opponent}")
    return wins
