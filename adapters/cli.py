"""The ``plies`` command: play a game on the terminal, count perft nodes, measure speed, and the
verbs around the harness adapters: ``plies littlego`` (install the player, run the local host) and
``plies hex`` (training, tournaments of networks, the local tournament server and client).

The adapters a harness runs have their own entry points (plies-go5, plies-otp, plies-gtp-hex,
my_player3.py, othello_agent.py, the tournament subclasses); the command line (this file,
hex_cli.py, hex_train.py) is the only part of adapters/ that may import the local stand-ins
(standins/) or the training package (engines.learn).
"""
import argparse
import ast
import sys
import time

from engines.games import GAMES, make_game
from engines.rng import below, make_rng
from engines.search import SEARCHERS, Limits, make_searcher

PLAYERS = ("random",) + SEARCHERS
DEFAULT_SIMULATIONS = 2000  # MCTS budget per move when neither --time nor --simulations is given
DEFAULT_SECONDS = 1.0       # alpha-beta budget per move when --time is not given


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    if not (0 < value < float("inf")):
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text!r}")
    return value


def _setting(text):
    """KEY=VALUE, the value a Python literal (1.5, True, 'uct') or else plain text."""
    key, sep, value = text.partition("=")
    if not sep or not key.isidentifier():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return key, value


def _game_options(args) -> dict:
    options = {}
    if args.size is not None:
        options["size"] = args.size
    if getattr(args, "rules", None):
        keyword = make_game(args.game).rules_option  # the constructor keyword of the game's rule options
        if keyword is None:
            raise ValueError(f"{args.game} has no rule variants")
        options[keyword] = args.rules
    return options


def make_player(kind: str, game, seed: int, seconds: float | None = None, simulations: int | None = None,
                config: dict | None = None, evaluation: str | None = None):
    """A function state -> move: 'random', or a search by name with a config mapping."""
    if kind == "random":
        rng = make_rng(seed)

        def random_player(state):
            moves = game.legal_moves(state)
            return moves[below(rng, len(moves))]
        return random_player
    knowledge = None
    if evaluation is not None:
        from engines.knowledge.bundle import knowledge_for
        knowledge = knowledge_for(game, evaluation)
    searcher = make_searcher(kind, game, config or {}, knowledge, seed)
    if kind == "mcts":
        budget = dict(time=seconds, simulations=simulations) if (seconds or simulations) \
            else dict(simulations=DEFAULT_SIMULATIONS)
    else:
        budget = dict(time=seconds or DEFAULT_SECONDS)

    def search_player(state):
        return searcher.search(state, Limits(start=time.perf_counter(), **budget)).move
    return search_player


def play_game(game, players, show=True, out=None) -> tuple[float, float]:
    """Plays one game between two players (functions state -> move); returns the per-player result."""
    out = out if out is not None else sys.stdout  # looked up at call time (tests capture it)
    state = game.initial_state()
    if show:
        print(game.render(state), file=out)
    ply = 0
    while not game.is_terminal(state):
        mover = game.to_move(state)
        move = players[mover](state)
        state = game.play(state, move)
        ply += 1
        if show:
            print(f"\nmove {ply}: player {mover + 1} plays {game.move_label(move)}", file=out)
            print(game.render(state), file=out)
    winner = game.winner(state)
    print(("\n" if show else "") + f"result after {ply} moves: "
          + ("draw" if winner is None else f"player {winner + 1} wins"), file=out)
    return game.returns(state)


def cmd_play(args):
    game = make_game(args.game, **_game_options(args))
    players = [make_player(kind, game, args.seed + i, args.time, args.simulations, dict(config), args.evaluation)
               for i, (kind, config) in enumerate(((args.first, args.first_config),
                                                   (args.second, args.second_config)))]
    play_game(game, players, show=not args.quiet)
    return 0


def cmd_demo(args):
    """One short game of each game, boards shown (`make demo` then runs each harness adapter)."""
    for name, options in (("othello", {"size": 8}), ("hex", {"size": 5}), ("go", {"size": 5})):
        game = make_game(name, **options)
        print(f"===== {name} {options}: MCTS (player 1) against random (player 2) =====")
        players = [make_player("mcts", game, 1, None, args.simulations), make_player("random", game, 2, None, None)]
        play_game(game, players)
        print()
    return 0


def cmd_perft(args):
    from engines.games.perft import perft
    game = make_game(args.game, **_game_options(args))
    t0 = time.perf_counter()
    count = perft(game, game.initial_state(), args.depth)
    print(f"perft({args.depth}) = {count}   ({time.perf_counter() - t0:.3f} s)")
    return 0


def cmd_bench(args):
    from engines.speed import playouts_per_second, simulations_per_second
    cases = (("othello", {"size": 8}), ("hex", {"size": 5}), ("hex", {"size": 8}), ("go", {"size": 9}),
             ("go", {"size": 5}))
    print(f"{'game':<14}{'playouts/s':>14}{'MCTS sims/s':>14}   (median of {args.repeats}, one thread)")
    for name, options in cases:
        game = make_game(name, **options)
        p = playouts_per_second(game, args.seconds, args.repeats)
        s = simulations_per_second(game, args.seconds, args.repeats)
        print(f"{name + ' ' + str(options['size']):<14}{p:>14,.0f}{s:>14,.0f}")
    return 0


def cmd_littlego_install(args):
    from adapters.littlego import install
    written = install(args.directory, args.seconds)
    print(f"installed {' and '.join(map(str, written))} (python {sys.executable}"
          + (f", {args.seconds:g} s per move" if args.seconds is not None else "") + ")")
    return 0


def add_littlego_parser(sub):
    """``plies littlego``: install the real player (the adapter) and play matches through the local
    host (a stand-in)."""
    from standins.littlego_host import add_match_parser
    p = sub.add_parser("littlego", help="the Little-Go course host: install the player, matches through a local host")
    lsub = p.add_subparsers(dest="littlego_command", required=True)
    add_match_parser(lsub)
    i = lsub.add_parser("install", help="copy my_player3.py (and a my_player3.toml naming this Python) into a folder")
    i.add_argument("directory")
    i.add_argument("--seconds", type=_positive_float, help="CPU budget per move written to my_player3.toml")
    i.set_defaults(func=cmd_littlego_install)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="plies", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    def game_args(p):
        p.add_argument("game", choices=GAMES)
        p.add_argument("--size", type=int, help="board size (go 2..19, othello 4..16, hex 3..19)")
        p.add_argument("--rules", help="go: standard|go5|littlego|superko; othello: standard|manager")

    p = sub.add_parser("play", help="play a full game and show the boards")
    game_args(p)
    p.add_argument("--first", choices=PLAYERS, default="mcts", help="player 1 (moves first)")
    p.add_argument("--second", choices=PLAYERS, default="random", help="player 2")
    p.add_argument("--time", type=_positive_float, help="seconds per move for search players")
    p.add_argument("--simulations", type=int, help=f"MCTS simulations per move (default {DEFAULT_SIMULATIONS})")
    p.add_argument("--first-config", type=_setting, nargs="*", default=[], metavar="KEY=VALUE",
                   help="settings of player 1's search (its config fields, e.g. selection=puct c=1.2)")
    p.add_argument("--second-config", type=_setting, nargs="*", default=[], metavar="KEY=VALUE",
                   help="settings of player 2's search")
    p.add_argument("--evaluation", help="the registered evaluation the searches use (default: the game's)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true", help="show only the result, not the boards")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("demo", help="one game of each game, boards shown")
    p.add_argument("--simulations", type=int, default=2000)
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("perft", help="count move sequences of a given length from the start")
    game_args(p)
    p.add_argument("depth", type=int)
    p.set_defaults(func=cmd_perft)

    add_littlego_parser(sub)
    from adapters.hex_cli import add_hex_parser
    add_hex_parser(sub)

    p = sub.add_parser("bench", help="quick speed figures of this machine (make bench compares with OpenSpiel)")
    p.add_argument("--seconds", type=_positive_float, default=0.5)
    p.add_argument("--repeats", type=int, default=3)
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ValueError as err:
        print(f"plies: {err}", file=sys.stderr)
        return 2
    except (BrokenPipeError, KeyboardInterrupt):
        return 1


if __name__ == "__main__":
    sys.exit(main())
