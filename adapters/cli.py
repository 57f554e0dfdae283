"""The ``plies`` command: play a game on the terminal, count perft nodes, measure speed, and the
verbs around the harness adapters: ``plies littlego`` (install the player, run the local host),
``plies go`` (the GTP Go engine, matches between GTP engines through the referee) and ``plies hex``
(training, tournaments of networks, the local tournament server and client).

The adapters a harness runs have their own entry points (plies-go5, plies-otp, plies-gtp-hex,
my_player3.py, othello_agent.py, the tournament subclasses); the command line (this file) is the
only part of adapters/ that may import the local stand-ins (standins/) or the training package
(engines.learn: the training verbs live beside the training, engines/learn/hex/cli.py as Go's mm.py
and Othello's train.py).

Exit statuses (``main`` maps the outcomes; each failure is one line on stderr naming the cause and
the fix; the ``plies hex`` commands document their own further statuses):
  0  done;
  1  interrupted (Ctrl-C) or the output was closed;
  2  bad arguments or settings (argparse's usage errors too);
  3  a file or folder cannot be read or written (a missing file, a file where a folder is needed,
     no permission);
  4  ``plies littlego install``: the player is installed but warming the compiled-kernel cache failed.
"""
import argparse
import ast
import os
import subprocess
import sys
import time

from engines.games import GAMES, make_game
from engines.players.generic import DEFAULT_SIMULATIONS, demo, make_player, play_game
from engines.search import SEARCHERS

PLAYERS = ("random",) + SEARCHERS
EXIT_OK, EXIT_INTERRUPTED, EXIT_USAGE, EXIT_FILES, EXIT_WARMUP = 0, 1, 2, 3, 4


class CommandFailed(Exception):
    """A command that cannot go on: the one line (cause and fix) and the exit status."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def file_problem(err: OSError, doing: str) -> CommandFailed:
    """CommandFailed (EXIT_FILES) for an OSError met while ``doing`` something with a path."""
    if not err.filename:  # a write to the output (a full disk, a closed terminal)
        return CommandFailed(f"cannot write the output: {err.strerror or err}; check the disk or where the "
                             f"output goes", EXIT_FILES)
    path = err.filename
    if isinstance(err, FileNotFoundError):
        fix = "check the path"
    elif isinstance(err, (FileExistsError, NotADirectoryError)):
        fix = "a folder is needed there: choose another path or remove the file"
    elif isinstance(err, IsADirectoryError):
        fix = "a file is needed there, not a folder"
    elif isinstance(err, PermissionError):
        fix = "choose a place you may write to (or fix its permissions)"
    else:
        fix = "check the path and the disk"
    return CommandFailed(f"cannot {doing} {path}: {err.strerror or err}; {fix}", EXIT_FILES)


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    if not (0 < value < float("inf")):
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text!r}")
    return value


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
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


def cmd_play(args):
    game = make_game(args.game, **_game_options(args))
    players = [make_player(kind, game, args.seed + i, args.time, args.simulations, dict(config), args.evaluation)
               for i, (kind, config) in enumerate(((args.first, args.first_config),
                                                   (args.second, args.second_config)))]
    play_game(game, players, show=not args.quiet)
    return 0


def cmd_demo(args):
    """One short game of each game (engines/players/generic.py: demo); `make demo` then runs each
    harness adapter."""
    demo(args.simulations, args.show)
    return 0


def cmd_perft(args):
    from engines.games.perft import perft
    game = make_game(args.game, **_game_options(args))
    t0 = time.perf_counter()

    def counting():
        print(f"plies: counting perft({args.depth}) of {args.game} (Ctrl-C stops it)", file=sys.stderr, flush=True)
    try:
        count = perft(game, game.initial_state(), args.depth, progress=counting)
    except KeyboardInterrupt:
        raise CommandFailed(f"perft({args.depth}) interrupted (Ctrl-C) after {time.perf_counter() - t0:.1f} s; "
                            f"a smaller depth finishes sooner", EXIT_INTERRUPTED) from None
    print(f"perft({args.depth}) = {count}   ({time.perf_counter() - t0:.3f} s)")
    return 0


def cmd_bench(args):
    from engines.speed import quick_figures
    print(f"{'game':<14}{'playouts/s':>14}{'MCTS sims/s':>14}   (median of {args.repeats}, one thread)")
    for case, playouts, simulations in quick_figures(args.seconds, args.repeats):
        print(f"{case:<14}{playouts:>14,.0f}{simulations:>14,.0f}")
    return 0


def cmd_littlego_install(args):
    """Copy the player, then warm the compiled-kernel cache of Go with this Python (the host's clock
    must never pay the compile)."""
    from adapters.littlego import install
    from engines import warmup
    if os.path.exists(args.directory) and not os.path.isdir(args.directory):
        raise CommandFailed(f"cannot install into {args.directory}: it is a file, not a folder; name a folder "
                            f"(it is created when missing)", EXIT_FILES)
    try:
        written = install(args.directory, args.seconds)
    except OSError as err:
        raise file_problem(err, "install the player into") from None
    print(f"installed {' and '.join(map(str, written))} (python {sys.executable}"
          + (f", {args.seconds:g} s per move" if args.seconds is not None else "") + ")", flush=True)
    command = [sys.executable, "-m", "engines.warmup", "--game", "go"]
    if warmup.is_warm("go"):
        print("the compiled-kernel cache of go is warm: the player's moves load the engine at once")
        return EXIT_OK
    print(f"warming the compiled-kernel cache of go (once, about 20 s): {' '.join(command)}", flush=True)
    done = subprocess.run(command, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise CommandFailed(f"the player is installed, but warming the cache failed (exit status {done.returncode}): "
                            f"its first moves would compile within the host's clock; run `{' '.join(command)}` "
                            f"to see why", EXIT_WARMUP)
    print("the compiled-kernel cache of go is warm")
    return EXIT_OK


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


def add_go_parser(sub):
    """``plies go``: the GTP Go engine (plies-gtp) and matches between GTP engines through the referee
    (a stand-in of gogui-twogtp)."""
    from adapters import go_gtp
    from regress.go_match import add_match_parser
    p = sub.add_parser("go", help="Go over GTP: the engine (plies-gtp) and matches between GTP engines")
    gsub = p.add_subparsers(dest="go_command", required=True)
    g = gsub.add_parser("gtp", help="the GTP Go engine (plies-gtp); its flags follow (plies go gtp --help)",
                        add_help=False)
    g.add_argument("args", nargs=argparse.REMAINDER)
    g.set_defaults(func=lambda args: go_gtp.main(args.args))
    add_match_parser(gsub)


def add_hex_parser(sub):
    """``plies hex``: the training verbs (engines/learn/hex/cli.py, beside the training as Go's and
    Othello's) and the local Online Hex Tournament's server, client and demo (a stand-in:
    standins/oht_server.py); each module adds its verbs."""
    from engines.learn.hex import cli as hex_train  # the training verbs, beside the training
    from standins import oht_server
    p = sub.add_parser("hex", help="Hex: train networks, run their tournament, serve a local Hex tournament")
    hexsub = p.add_subparsers(dest="hex_command", required=True)
    for module in (hex_train, oht_server):
        module.add_parsers(hexsub)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="plies", description=__doc__.splitlines()[0],
                                     epilog="exit statuses: 0 done, 1 interrupted or output closed, 2 bad arguments, "
                                            "3 a file or folder cannot be read or written, 4 littlego install: "
                                            "the warm-up failed")
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
    p.add_argument("--simulations", type=_positive_int,
                   help=f"MCTS simulations per move (default {DEFAULT_SIMULATIONS})")
    p.add_argument("--first-config", type=_setting, nargs="*", default=[], metavar="KEY=VALUE",
                   help="settings of player 1's search (its config fields, e.g. selection=puct c=1.2)")
    p.add_argument("--second-config", type=_setting, nargs="*", default=[], metavar="KEY=VALUE",
                   help="settings of player 2's search")
    p.add_argument("--evaluation", help="the registered evaluation the searches use (default: the game's)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true", help="show only the result, not the boards")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("demo", help="one game of each game: the final board and the result")
    p.add_argument("--simulations", type=int, default=2000)
    p.add_argument("--show", action="store_true", help="show the board after every move")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("perft", help="count move sequences of a given length from the start")
    game_args(p)
    p.add_argument("depth", type=int)
    p.set_defaults(func=cmd_perft)

    add_littlego_parser(sub)
    add_go_parser(sub)
    add_hex_parser(sub)

    p = sub.add_parser("bench", help="quick speed figures of this machine (make bench compares with OpenSpiel)")
    p.add_argument("--seconds", type=_positive_float, default=0.5)
    p.add_argument("--repeats", type=_positive_int, default=3)
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv=None) -> int:
    """The ``plies`` command; the exit statuses are the module docstring's, mapped here only."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:2] == ["go", "gtp"]:  # the rest is plies-gtp's (argparse's REMAINDER would refuse a leading flag)
        from adapters import go_gtp
        return go_gtp.main(argv[2:])
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except CommandFailed as err:
        print(f"plies: {err}", file=sys.stderr)
        return err.status
    except ValueError as err:
        print(f"plies: {err}", file=sys.stderr)
        return EXIT_USAGE
    except (BrokenPipeError, KeyboardInterrupt):
        try:
            sys.stdout = open(os.devnull, "w")  # no second error when the interpreter flushes a closed pipe
        except OSError:
            pass
        return EXIT_INTERRUPTED
    except OSError as err:
        print(f"plies: {file_problem(err, 'use')}", file=sys.stderr)
        return EXIT_FILES


if __name__ == "__main__":
    sys.exit(main())
