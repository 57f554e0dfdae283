"""plies-gtp-hex: a Hex engine speaking the GTP dialect of HexGui and MoHex (benzene).

    plies-gtp-hex [--size N] [--time SECONDS] [--simulations N] [--seed N] [--swap] [--network shipped|PATH]

Attach it to HexGui as a program (Program > New program, command ``plies-gtp-hex``), or referee
matches between it and any other Hex GTP engine.  HexGui's start-up dialogue is ``name``,
``version``, ``hexgui-analyze_commands``, ``boardsize W H``, the moves so far, ``showboard``;
then ``play``/``genmove``/``undo`` as the game goes.

Conventions (protocols/hex_gtp.py): black (our player 0) moves first and joins the top and bottom
rows, white (player 1) the left and right columns; ``a1`` is the top-left cell.  ``play`` may give
either colour at any time (HexGui sends setup stones that way): a stone out of turn is placed and
the other colour moves next.  ``swap-pieces`` is refused unless swap is on (``--swap`` or
``param_game allow_swap 1``, MoHex's switch); when on, white may swap right after black's first
stone (the board stays, white moves again: the players have exchanged colours), and our
``genmove w`` swaps when the search rates black's stone better for black than any white reply.
``resign`` is accepted and changes nothing (as in MoHex).

Errors (a bad colour or cell, an occupied cell, a move after the game is over, a size outside
3..19, a non-square board, undo with no move) are GTP failures ``? message`` and leave the board
unchanged.  Unlike MoHex, ``genmove`` on a finished game is a failure too (MoHex answers
``= resign``), and ``play`` refuses moves after the game is won (MoHex places them).

The search is the engine's MCTS with random playouts, on a time budget per genmove (``--time``,
from the command's arrival) and/or a simulation budget (``--simulations``); the tree is kept from
move to move while the game goes on as it foresaw.  With ``--network shipped`` (the network
engines.learn.network_file ships for the board size) or ``--network PATH`` (an ONNX file of that
module), the playouts follow the policy network on the sizes it fits; other sizes keep random
playouts, with a note on stderr.
"""
import argparse
import sys
import time
from importlib import metadata
from pathlib import Path

import numpy as np

from engines.games import make_game
from engines.games.hex import MAX_SIZE, MIN_SIZE
from engines.search import Limits, make_searcher
from protocols import gtp, hex_gtp
from protocols.common import ProtocolError, Quit

NAME = "plies"
DEFAULT_SIZE = 11          # MoHex's start size; HexGui sends boardsize anyway
DEFAULT_TIME = 1.0         # seconds per genmove, counted from the command's arrival
SEARCH = {"expand_visits": 4}  # UCT, random playouts; a leaf grows children after 4 visits (memory)
CAPACITY = 1 << 22         # tree nodes (32 bytes each): room for several seconds of search
NETWORK_SEARCH = {"rollout": "network", "epsilon": 0.1}  # with a network: its epsilon-greedy playouts
SWAP_BELOW = 0.5           # genmove w swaps when white's best win rate after black's first stone is below this
ANALYZE_COMMANDS = "\n".join((  # HexGui's "type/label/command" lines (benzene's own first five)
    "param/Game Param/param_game",
    "plist/All Legal Moves/all_legal_moves %c",
    "string/ShowBoard/showboard",
    "string/Final Score/final_score",
    "varc/Reg GenMove/reg_genmove %c",
))


def version() -> str:
    try:
        return metadata.version("plies")
    except metadata.PackageNotFoundError:
        return "unknown"


class HexSession:
    """One engine session: the board, its history (for undo) and the search with its tree."""

    def __init__(self, size: int = DEFAULT_SIZE, seconds: float | None = DEFAULT_TIME,
                 simulations: int | None = None, seed: int = 0, allow_swap: bool = False,
                 network: str | None = None, stderr=None):
        if seconds is None and simulations is None:
            raise ValueError("a genmove budget is needed: seconds and/or simulations")
        self.seconds = seconds
        self.simulations = simulations
        self.seed = seed
        self.allow_swap = allow_swap
        self.network = network   # None, "shipped" or the path of an ONNX network
        self.stderr = stderr if stderr is not None else sys.stderr
        self.uses_network = False
        self.game = None
        self.new_game(size)

    def network_for(self, size: int):
        """The policy network to play size with, or None (random playouts; the reason on stderr)."""
        if self.network is None:
            return None
        try:
            from engines.learn import network_file
        except ImportError as err:
            return self.note(f"no network support ({err}): random playouts")
        path = network_file.shipped_network_path(size) if self.network == "shipped" else Path(self.network)
        if path is None or not path.is_file():
            return self.note(f"no network for {size}x{size}: random playouts")
        try:
            network, _sidecar = network_file.load_network(path)
        except Exception as err:  # an unreadable file in any way (protobuf's decode errors included)
            return self.note(f"cannot read the network {path} ({err}): random playouts")
        if network.layers[0] != 3 * size * size or network.layers[-1] != size * size:
            return self.note(f"the network {path} is not for {size}x{size}: random playouts")
        return network

    def note(self, text: str):
        print(f"plies-gtp-hex: {text}", file=self.stderr, flush=True)
        return None

    # ---- the board ----------------------------------------------------------------------------
    def new_game(self, size: int):
        if self.game is None or self.game.size != size:
            game = make_game("hex", size=size)
            network = self.network_for(size)
            config, knowledge = dict(SEARCH), None
            if network is not None:
                from engines.learn.network_file import policy_knowledge
                config, knowledge = {**SEARCH, **NETWORK_SEARCH}, policy_knowledge(network)
            self.searcher = make_searcher("mcts", game, config, knowledge, self.seed, capacity=CAPACITY)
            self.game, self.uses_network = game, network is not None
        else:
            self.searcher.reset()  # same size: keep the searcher (its random stream goes on)
        self.states = [self.game.initial_state()]
        self.moves = []          # (colour, action or hex_gtp.SWAP), in order
        self.tree_state = None   # the position the searcher's tree stands at, when it is still useful

    @property
    def state(self) -> np.ndarray:
        return self.states[-1]

    def cell_name(self, action: int) -> str:
        return hex_gtp.format_cell(self.game.coords(action), self.game.size)

    def winner(self):
        return self.game.winner(self.state) if self.game.is_terminal(self.state) else None

    def game_over_text(self) -> str:
        return f"the game is over: {hex_gtp.COLOUR_NAMES[self.winner()]} has won"

    def swap_allowed(self, colour: int) -> bool:
        """MoHex's rule: swap on, white, right after black's first stone (and only then)."""
        return self.allow_swap and colour == 1 and len(self.moves) == 1 and self.moves[0][0] == 0

    def position_for(self, colour: int) -> np.ndarray:
        """The current position with colour to move (a new state when it is the other's turn)."""
        state = self.state
        if self.game.to_move(state) != colour:
            state = self.game.state_from_cells(self.game.cells(state), colour)
        return state

    def place(self, colour: int, action: int):
        """Put colour's stone on action (checked empty, game not over) and keep the tree if the
        game went on as the tree foresaw."""
        before = self.position_for(colour)
        after = self.game.play(before, action)
        if self.tree_state is not None and np.array_equal(self.tree_state, before):
            self.searcher.advance(action)
            self.tree_state = after
        else:
            self.tree_state = None
        self.states.append(after)
        self.moves.append((colour, action))

    def swap(self):
        self.states.append(self.state)  # the board stays; white moves again
        self.moves.append((1, hex_gtp.SWAP))

    # ---- the search ---------------------------------------------------------------------------
    def search(self, colour: int, arrival: float):
        state = self.position_for(colour)
        limits = Limits(time=self.seconds, simulations=self.simulations, start=arrival)
        result = self.searcher.search(state, limits)
        self.tree_state = state
        return result

    # ---- commands -----------------------------------------------------------------------------
    def cmd_boardsize(self, args):
        size = hex_gtp.parse_boardsize(args)
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"board size must be in {MIN_SIZE}..{MAX_SIZE}, got {size}")
        self.new_game(size)
        return ""

    def cmd_clear_board(self, args):
        self.new_game(self.game.size)
        return ""

    def cmd_play(self, args):
        colour = hex_gtp.parse_colour(args[0])
        move = hex_gtp.parse_move(args[1], self.game.size)
        if move == hex_gtp.RESIGN:
            return ""
        said = f"{hex_gtp.COLOUR_NAMES[colour]} {args[1].lower()}"
        if self.winner() is not None:
            raise ProtocolError(f"illegal move: {said} ({self.game_over_text()})")
        if move == hex_gtp.SWAP:
            if not self.swap_allowed(colour):
                why = ("swap is off: param_game allow_swap 1 turns it on" if not self.allow_swap
                       else "only white may swap, right after black's first stone")
                raise ProtocolError(f"illegal move: {said} ({why})")
            self.swap()
            return ""
        action = self.game.action(*move)
        if self.game.cells(self.state)[move] != 0:
            raise ProtocolError(f"illegal move: {said} (occupied)")
        self.place(colour, action)
        return ""

    def cmd_genmove(self, args):
        arrival = time.perf_counter()
        colour = hex_gtp.parse_colour(args[0])
        if self.winner() is not None:
            raise ProtocolError(self.game_over_text())
        result = self.search(colour, arrival)
        if self.swap_allowed(colour) and result.values[result.moves.index(result.move)] < SWAP_BELOW:
            self.swap()
            return hex_gtp.SWAP
        self.place(colour, result.move)
        return self.cell_name(result.move)

    def cmd_reg_genmove(self, args):
        """The move genmove would choose, without playing it (benzene's reg_genmove)."""
        arrival = time.perf_counter()
        colour = hex_gtp.parse_colour(args[0])
        if self.winner() is not None:
            raise ProtocolError(self.game_over_text())
        return self.cell_name(self.search(colour, arrival).move)

    def cmd_undo(self, args):
        if not self.moves:
            raise ProtocolError("cannot undo: no move has been played")
        self.moves.pop()
        self.states.pop()
        self.tree_state = None
        return ""

    def cmd_showboard(self, args):
        winner = self.winner()
        if winner is not None:
            status = f"{hex_gtp.COLOUR_NAMES[winner]} has won"
        else:
            status = f"{hex_gtp.COLOUR_NAMES[self.game.to_move(self.state)]} to move"
        return hex_gtp.format_board(self.game.cells(self.state).tolist(), status)

    def cmd_final_score(self, args):
        return hex_gtp.format_result(self.winner())

    def cmd_all_legal_moves(self, args):
        """The empty cells in benzene's order (a1 b1 c1 ... a2 ...), and swap-pieces when legal;
        nothing once the game is over.  The colour argument of HexGui's '%c' is optional."""
        if self.winner() is not None:
            return ""
        names = [self.cell_name(a) for a in self.game.legal_moves(self.state)]
        colour = hex_gtp.parse_colour(args[0]) if args else self.game.to_move(self.state)
        if self.swap_allowed(colour):
            names.append(hex_gtp.SWAP)
        return " ".join(names)

    def cmd_param_game(self, args):
        """MoHex's game parameters: with no argument, the list HexGui's parameter dialog reads;
        'param_game allow_swap 0|1' sets one."""
        if not args:
            return f"\n[bool] allow_swap {int(self.allow_swap)}"
        if len(args) != 2:
            raise ProtocolError("expected 0 or 2 arguments")
        if args[0] != "allow_swap":
            raise ProtocolError(f"unknown parameter: {args[0]} (the only one is allow_swap)")
        value = args[1].lower()
        if value not in ("0", "1", "false", "true"):
            raise ProtocolError(f"allow_swap takes 0 or 1, got {args[1]!r}")
        self.allow_swap = value in ("1", "true")
        return ""

    def cmd_quit(self, args):
        raise Quit("")

    def commands(self) -> dict:
        C = gtp.Command
        return {
            "protocol_version": C(lambda a: "2"), "name": C(lambda a: NAME), "version": C(lambda a: version()),
            "quit": C(self.cmd_quit),
            "boardsize": C(self.cmd_boardsize, 1, "boardsize N (or boardsize N N)"),
            "clear_board": C(self.cmd_clear_board),
            "play": C(self.cmd_play, 2, "play b|w CELL"),
            "genmove": C(self.cmd_genmove, 1, "genmove b|w"),
            "reg_genmove": C(self.cmd_reg_genmove, 1, "reg_genmove b|w"),
            "undo": C(self.cmd_undo),
            "showboard": C(self.cmd_showboard),
            "final_score": C(self.cmd_final_score),
            "all_legal_moves": C(self.cmd_all_legal_moves),
            "param_game": C(self.cmd_param_game),
            "hexgui-analyze_commands": C(lambda a: ANALYZE_COMMANDS),
        }


def make_engine(session: HexSession) -> gtp.GtpEngine:
    return gtp.GtpEngine(session.commands(), echo_ids=True, unknown="unknown command")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="plies-gtp-hex", description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=DEFAULT_SIZE, help=f"board size at start ({MIN_SIZE}..{MAX_SIZE})")
    p.add_argument("--time", type=float, default=DEFAULT_TIME,
                   help="seconds per genmove (0: no time limit, then --simulations is needed)")
    p.add_argument("--simulations", type=int, default=None, help="MCTS simulations per genmove (at most)")
    p.add_argument("--seed", type=int, default=0, help="random seed of the search")
    p.add_argument("--swap", action="store_true", help="allow the swap move from the start (param_game allow_swap 1)")
    p.add_argument("--network", default=None,
                   help="'shipped' (the shipped network of each size) or an ONNX file: network playouts")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    seconds = args.time if args.time > 0 else None
    problems = []
    if not MIN_SIZE <= args.size <= MAX_SIZE:
        problems.append(f"--size must be in {MIN_SIZE}..{MAX_SIZE}")
    if not np.isfinite(args.time) or args.time < 0:
        problems.append("--time must be a finite number >= 0")
    if args.simulations is not None and args.simulations < 1:
        problems.append("--simulations must be at least 1")
    if seconds is None and args.simulations is None:
        problems.append("--time 0 needs --simulations N")
    if args.network not in (None, "shipped") and not Path(args.network).is_file():
        problems.append(f"--network: no file {args.network}")
    if problems:
        print("plies-gtp-hex: " + "; ".join(problems), file=sys.stderr)
        return 2
    session = HexSession(args.size, seconds, args.simulations, args.seed, args.swap, args.network)
    return make_engine(session).serve()


if __name__ == "__main__":
    sys.exit(main())
