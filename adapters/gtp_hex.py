"""plies-gtp-hex: a Hex engine speaking the GTP dialect of HexGui and MoHex (benzene).

    plies-gtp-hex [--size N] [--time SECONDS] [--simulations N] [--seed N] [--swap] [--search rave|mcts]
                  [--knowledge all|none|PIECE+PIECE...] [--network shipped|PATH]
                  [--config FILE] [--c X] [--expand-visits N] [--capacity N] [--epsilon X] [--swap-below X]

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

The search (``--search``) is RAVE by default: MCTS whose children also learn from every cell a
playout fills (all-moves-as-first), with the Hex knowledge of ``--knowledge`` (default all: bridge
playouts, inferior cells kept out of the tree, virtual connections; engines/knowledge/hex_patterns.py);
``--search mcts`` is plain UCT with the same knowledge.  It runs on a time budget per genmove
(``--time``, from the command's arrival) and/or a simulation budget (``--simulations``); the tree is
kept from move to move while the game goes on as it foresaw.  With a policy network (``--network
PATH``, an ONNX network file, or ``--network shipped``, the network shipped for each board size) the
search is MCTS whose playouts follow the network (alone: not with ``--search rave`` or knowledge
pieces).  A network plays one board size, and the engine never quietly plays without
the network it was given: a file that is no network refuses the start; so does a ``--size`` the
network cannot play (without ``--size`` the engine starts on the network's size, the smallest
shipped size for ``shipped``); later, ``boardsize`` of a size the network cannot play is a GTP
failure naming both sizes, and the board stays as it was.  RAVE's prior (``--prior``, default
``shipped``: the policy CNN shipped for the board size, where there is one; ``none``; or a network
file for the size) gives each new child the network's opinion as virtual experience; a prior file
that cannot play a size fails like a network.

Settings (class Settings: every key with its default and meaning under --help) come from, in
increasing priority: the defaults, ``--config FILE`` (TOML, the same keys), the environment
(PLIES_HEXGTP_<KEY>, e.g. PLIES_HEXGTP_SIMULATIONS=2000) and the flags.
"""
import argparse
import dataclasses
import os
import sys
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from adapters import gtp_serve, hex_search
from engines.games.reference import hex as hex_rules
from engines.players.coldstart import Compiler
from adapters.config import ConfigError, setting
from engines.games.reference.hex import MAX_SIZE, MIN_SIZE
from protocols import gtp, hex_gtp
from protocols.common import ProtocolError, Quit

# The engine is imported only once its compiled kernels are in the cache (``_import_engine``): an
# import from a cold cache compiles them, longer than anyone waits for an answer (engines/players/coldstart.py).
np = make_game = Limits = None
NetworkError = load_network = network_size = shipped_network_path = shipped_sizes = None


def _import_engine():
    global np, make_game, Limits, NetworkError, load_network, network_size
    global shipped_network_path, shipped_sizes
    if make_game is not None:
        return
    import numpy
    from engines.games import make_game as _make_game
    from engines.knowledge import network as N
    from engines.search import Limits as _Limits
    np, make_game, Limits = numpy, _make_game, _Limits
    NetworkError, load_network, network_size = N.NetworkError, N.load_network, N.network_size
    shipped_network_path, shipped_sizes = N.shipped_network_path, N.shipped_sizes

NAME = "plies"
DEFAULT_SIZE = 11          # MoHex's start size; HexGui sends boardsize anyway
SHIPPED = "shipped"        # --network shipped: the network shipped for each board size
ENV_PREFIX = "PLIES_HEXGTP"
EXIT_STATUS = {  # how a run ends -> (the process's exit status, what --help says of it): the one place
    "served": (0, "quit, or the end of the input"),
    "interrupted": (1, "the controller closed the pipe, or Ctrl-C"),
    "refused": (2, "bad settings (flags, --config, PLIES_HEXGTP_*)"),
    "network": (3, "a --network file that is missing, is no network, or cannot play --size"),
}
ANALYZE_COMMANDS = "\n".join((  # HexGui's "type/label/command" lines (benzene's own first five)
    "param/Game Param/param_game",
    "plist/All Legal Moves/all_legal_moves %c",
    "string/ShowBoard/showboard",
    "string/Final Score/final_score",
    "varc/Reg GenMove/reg_genmove %c",
))


@dataclass(frozen=True)
class Settings:
    """Every tunable of the engine, with its default and meaning (adapters/config.py)."""
    size: int | None = setting(None, f"board size at start ({MIN_SIZE}..{MAX_SIZE}; none: {DEFAULT_SIZE}, "
                                     "or the network's size)", kind=int)
    time: float = setting(1.0, "seconds per genmove, counted from the command's arrival (0: no time limit; "
                               "then simulations is needed)")
    simulations: int | None = setting(None, "MCTS simulations per genmove, at most (none: the time alone)", kind=int)
    seed: int = setting(0, "random seed of the search")
    swap: bool = setting(False, "allow the swap move from the start (as param_game allow_swap 1)")
    network: str | None = setting(None, "policy network for the playouts: 'shipped' (the shipped network of "
                                        "each size) or an ONNX network file (none: the search's own playouts)",
                                  kind=str)
    search: str | None = setting(None, "tree search: 'rave' (all-moves-as-first values from every cell a "
                                       "playout fills) or 'mcts' (UCT; a network plays in its playouts only) "
                                       "(none: rave, or mcts with a network)", kind=str, choices=hex_search.SEARCHES)
    knowledge: str = setting("all", "Hex knowledge of the search: 'all', 'none', or pieces joined by '+': "
                                    "patterns (bridge playouts), inferior (dead/captured/dominated cells), "
                                    "connections (virtual connections)")
    prior: str = setting("shipped", "policy network of the rave search's prior: 'shipped' (weights/hex/prior<n>.onnx, "
                                    "none for a size without one), 'none', or an ONNX network file")
    c: float = setting(0.7, "UCT exploration constant of --search mcts (results are on a 0..1 scale)")
    expand_visits: int = setting(4, "visits a leaf of --search mcts needs before it grows children (saves memory)")
    capacity: int = setting(1 << 22, "MCTS tree nodes (32 bytes each): room for several seconds of search")
    epsilon: float = setting(0.1, "with a network: probability of a uniformly random move in its playouts")
    swap_below: float = setting(0.5, "genmove w swaps when white's best win rate after black's first stone "
                                     "is below this")

    def __post_init__(self):
        problems = gtp_serve.budget_problems(self, MIN_SIZE, MAX_SIZE)
        if self.expand_visits < 0 or self.capacity < 1:
            problems.append("expand_visits must be >= 0 and capacity >= 1")
        if not (0 <= self.epsilon <= 1 and 0 <= self.swap_below <= 1 and self.c >= 0):
            problems.append("epsilon and swap_below must be in 0..1, c >= 0")
        problems += hex_search.settings_problems(self.search, self.knowledge, self.network is not None, self.prior)
        if problems:
            raise ValueError("; ".join(problems))

    @property
    def seconds(self) -> float | None:
        """The time budget of a genmove (None: simulations only)."""
        return self.time if self.time > 0 else None

    def mcts_config(self, with_network: bool) -> dict:
        """The MCTS configuration: UCT with the knowledge's playouts, or the network's epsilon-greedy ones."""
        config = {"c": self.c, "expand_visits": self.expand_visits}
        if with_network:
            config.update(rollout="network", epsilon=self.epsilon)
        return config


def version() -> str:
    try:
        return metadata.version("plies")
    except metadata.PackageNotFoundError:
        return "unknown"


class PlayRules:
    """What the engine's session and the cold-start session answer alike: MoHex's swap rule, the
    game-over text and the checks of `play`.  A session gives ``size``, ``allow_swap``, ``moves``,
    ``winner()``, ``occupied(point)``, ``place_point(colour, point)`` and ``swap()``."""

    def game_over_text(self) -> str:
        return f"the game is over: {hex_gtp.COLOUR_NAMES[self.winner()]} has won"

    def swap_allowed(self, colour: int) -> bool:
        """MoHex's rule: swap on, white, right after black's first stone (and only then)."""
        return self.allow_swap and colour == 1 and len(self.moves) == 1 and self.moves[0][0] == 0

    def cmd_play(self, args):
        colour = hex_gtp.parse_colour(args[0])
        move = hex_gtp.parse_move(args[1], self.size)
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
        if self.occupied(move):
            raise ProtocolError(f"illegal move: {said} (occupied)")
        self.place_point(colour, move)
        return ""


class HexSession(gtp_serve.TreeRecord, PlayRules):
    """One engine session: the board, its history (for undo) and the search with its tree."""

    UNDO_REFUSAL = "cannot undo: no move has been played"

    def __init__(self, settings: Settings):
        _import_engine()
        self.settings = settings
        self.allow_swap = settings.swap
        self.networks = {}       # board size -> the policy network loaded for it
        self.game = None
        self.network = None      # the network of the current size (None: the search plays without one)
        self.new_game(settings.size if settings.size is not None else self.start_size())

    def start_size(self) -> int:
        """The size to start on when none is set: the network's (the smallest shipped one), else
        the prior file's, else DEFAULT_SIZE."""
        choice = self.settings.network
        if choice is None:
            prior = self.settings.prior
            return DEFAULT_SIZE if prior in (hex_search.SHIPPED, "none") else network_size(load_network(prior)[0])
        if choice == SHIPPED:
            sizes = shipped_sizes()
            if not sizes:
                raise NetworkError("no shipped network is installed (weights/hex/hex<size>.onnx)")
            return sizes[0]
        network, _sidecar = load_network(choice)
        size = network_size(network)
        self.networks[size] = network
        return size

    def network_for(self, size: int):
        """The policy network that plays size (None when the settings name none); NetworkError when
        the network cannot play size."""
        choice = self.settings.network
        if choice is None:
            return None
        if size not in self.networks:
            path = shipped_network_path(size) if choice == SHIPPED else Path(choice)
            if path is None:
                shipped = ", ".join(f"{n}x{n}" for n in shipped_sizes()) or "none"
                raise NetworkError(f"no shipped network for {size}x{size} (shipped: {shipped})")
            self.networks[size] = load_network(path, size)[0]
        return self.networks[size]

    # ---- the board ----------------------------------------------------------------------------
    def new_game(self, size: int):
        if self.game is None or self.game.size != size:
            network = self.network_for(size)  # first: a size the networks cannot play changes nothing
            settings = self.settings
            prior = hex_search.load_prior(settings.prior, size) if network is None else None
            game = make_game("hex", size=size)
            self.searcher = hex_search.make_hex_searcher(game, settings.search, settings.knowledge, network,
                                                         settings.mcts_config(network is not None), settings.seed,
                                                         settings.capacity, prior=prior)
            self.game, self.network = game, network
        else:
            self.searcher.reset()  # same size: keep the searcher (its random stream goes on)
        self.states = [self.game.initial_state()]
        self.moves = []          # (colour, action or hex_gtp.SWAP), in order
        self.tree_state = None   # the position the searcher's tree stands at, when it is still useful

    @property
    def state(self):
        return self.states[-1]

    def cell_name(self, action: int) -> str:
        return hex_gtp.format_cell(self.game.coords(action), self.game.size)

    def winner(self):
        return self.game.winner(self.state) if self.game.is_terminal(self.state) else None


    def position_for(self, colour: int):
        """The current position with colour to move (a new state when it is the other's turn)."""
        state = self.state
        if self.game.to_move(state) != colour:
            state = self.game.state_from_cells(self.game.cells(state), colour)
        return state

    def place(self, colour: int, action: int):
        """Put colour's stone on action (checked empty, game not over) and keep the tree if the
        game went on as the tree foresaw."""
        before = self.position_for(colour)
        self.went_on(before, action, self.game.play(before, action), (colour, action))

    def swap(self):
        self.states.append(self.state)  # the board stays; white moves again
        self.moves.append((1, hex_gtp.SWAP))

    # ---- the search ---------------------------------------------------------------------------
    def search(self, colour: int, arrival: float):
        state = self.position_for(colour)
        limits = Limits(time=self.settings.seconds, simulations=self.settings.simulations, start=arrival)
        result = self.searcher.search(state, limits)
        self.tree_state = state
        return result

    # ---- commands -----------------------------------------------------------------------------
    def cmd_boardsize(self, args):
        size = hex_gtp.parse_boardsize(args)
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"board size must be in {MIN_SIZE}..{MAX_SIZE}, got {size}")
        try:
            self.new_game(size)
        except NetworkError as err:
            raise ProtocolError(str(err)) from None
        return ""

    def cmd_clear_board(self, args):
        self.new_game(self.game.size)
        return ""

    @property
    def size(self) -> int:
        return self.game.size

    def occupied(self, point) -> bool:
        return self.game.cells(self.state)[point] != 0

    def place_point(self, colour: int, point):
        self.place(colour, self.game.action(*point))

    def cmd_genmove(self, args):
        arrival = time.perf_counter()
        colour = hex_gtp.parse_colour(args[0])
        if self.winner() is not None:
            raise ProtocolError(self.game_over_text())
        result = self.search(colour, arrival)
        if self.swap_allowed(colour) and result.values[result.moves.index(result.move)] < self.settings.swap_below:
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


make_engine = gtp_serve.make_engine


def build_parser() -> argparse.ArgumentParser:
    """A flag for every key of Settings (left at None when not given: the file and environment decide)."""
    return gtp_serve.build_parser("plies-gtp-hex", __doc__.splitlines()[0], Settings, "size = 7", epilog())


def epilog() -> str:
    return gtp_serve.epilog(ENV_PREFIX, "SIMULATIONS=2000", EXIT_STATUS)


def load_settings(args: argparse.Namespace, env=os.environ) -> Settings:
    """The settings of a command line: its flags over the environment over --config FILE over the
    defaults.  ConfigError for a bad key or value, naming it and where it came from."""
    return gtp_serve.load_settings(Settings, args, ENV_PREFIX, env)


class ColdStart(PlayRules):
    """The session while the compiled-kernel cache is cold (engines/players/coldstart.py): the same commands
    and answers on a pure-Python board (engines/games/reference/hex.py), genmove a quick fallback move (never a
    swap); at the first command after the background compile is done, a HexSession is built from the
    board and its history, and every command goes to it from then on."""

    def __init__(self, settings: Settings, compiler: Compiler, err=None):
        self.settings, self.compiler = settings, compiler
        self.err = err if err is not None else sys.stderr
        self.allow_swap = settings.swap
        self.engine = None            # the HexSession, once the compile is done
        self.engine_commands = None
        self.fallback_moves = 0       # genmoves answered by the fallback
        choice = settings.network
        if choice not in (None, SHIPPED) and not Path(choice).is_file():
            raise FileNotFoundError(f"no network file {choice}")
        said = self.start_size() if choice not in (None, SHIPPED) else None  # its sidecar's size, if any
        if settings.size is not None and said not in (None, DEFAULT_SIZE) and said != settings.size:
            raise ValueError(f"{choice} is a network for {said}x{said}, not for {settings.size}x{settings.size}")
        self.new_game(settings.size if settings.size is not None else self.start_size())

    def start_size(self) -> int:
        """HexSession.start_size without the engine: the network's sidecar size, the smallest shipped size."""
        import json

        import weights
        choice = self.settings.network
        if choice == SHIPPED:
            sizes = sorted(int(p.stem[3:]) for p in weights.HEX_DIR.glob("hex*.onnx") if p.stem[3:].isdigit())
            return sizes[0] if sizes else DEFAULT_SIZE
        if choice is not None:
            try:
                return int(json.loads(Path(choice).with_suffix(".json").read_text())["size"])
            except (OSError, ValueError, KeyError, TypeError):
                pass
        return DEFAULT_SIZE

    def new_game(self, size: int):
        self.size = size
        self.cells = hex_rules.empty_board(size)
        self.moves = []               # (colour, (row, col) or hex_gtp.SWAP), in order

    # ---- the switch to the engine -----------------------------------------------------------
    def switch(self) -> bool:
        """True when the engine plays (built now if the compile just finished)."""
        if self.engine is not None:
            return True
        if not self.compiler.ready():
            return False
        settings = dataclasses.replace(self.settings, size=self.size, swap=self.allow_swap)
        try:
            engine = HexSession(settings)
        except ValueError as err:  # a network that cannot play: said, and the fallback goes on
            print(f"plies-gtp-hex: error: {err}; moves stay the quick fallback's", file=self.err, flush=True)
            self.compiler.cold, self.compiler.failed = True, True
            return False
        for colour, move in self.moves:
            if move == hex_gtp.SWAP:
                engine.swap()
            else:
                engine.place(colour, engine.game.action(*move))
        self.engine, self.engine_commands = engine, engine.commands()
        return True

    def call(self, name: str, args):
        if self.switch():
            return self.engine_commands[name].handler(args)
        return getattr(self, "cmd_" + name.replace("-", "_"))(args)

    # ---- the board ----------------------------------------------------------------------------
    def to_move(self) -> int:
        if not self.moves:
            return 0
        colour, move = self.moves[-1]
        return 1 if move == hex_gtp.SWAP else 1 - colour

    def winner(self):
        return hex_rules.winner(self.cells)


    def place(self, colour: int, point):
        self.cells[point[0]][point[1]] = colour + 1
        self.moves.append((colour, tuple(point)))

    def fallback(self, colour: int):
        last = next((m for c, m in reversed(self.moves) if c != colour and m != hex_gtp.SWAP), None)
        return hex_rules.fallback_move(self.cells, colour, last)

    # ---- commands (HexSession's answers) ------------------------------------------------------
    def cmd_boardsize(self, args):
        size = hex_gtp.parse_boardsize(args)
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"board size must be in {MIN_SIZE}..{MAX_SIZE}, got {size}")
        self.new_game(size)
        return ""

    def cmd_clear_board(self, args):
        self.new_game(self.size)
        return ""

    def occupied(self, point) -> bool:
        return self.cells[point[0]][point[1]] != 0

    def place_point(self, colour: int, point):
        self.place(colour, point)

    def swap(self):
        self.moves.append((1, hex_gtp.SWAP))

    def cmd_genmove(self, args):
        colour = hex_gtp.parse_colour(args[0])
        if self.winner() is not None:
            raise ProtocolError(self.game_over_text())
        point = self.fallback(colour)
        self.place(colour, point)
        self.fallback_moves += 1
        return hex_gtp.format_cell(point, self.size)

    def cmd_reg_genmove(self, args):
        colour = hex_gtp.parse_colour(args[0])
        if self.winner() is not None:
            raise ProtocolError(self.game_over_text())
        return hex_gtp.format_cell(self.fallback(colour), self.size)

    def cmd_undo(self, args):
        if not self.moves:
            raise ProtocolError("cannot undo: no move has been played")
        _colour, move = self.moves.pop()
        if move != hex_gtp.SWAP:
            self.cells[move[0]][move[1]] = 0
        return ""

    def cmd_showboard(self, args):
        winner = self.winner()
        status = (f"{hex_gtp.COLOUR_NAMES[winner]} has won" if winner is not None
                  else f"{hex_gtp.COLOUR_NAMES[self.to_move()]} to move")
        return hex_gtp.format_board(self.cells, status)

    def cmd_final_score(self, args):
        return hex_gtp.format_result(self.winner())

    def cmd_all_legal_moves(self, args):
        if self.winner() is not None:
            return ""
        names = [hex_gtp.format_cell(p, self.size) for p in hex_rules.empty_cells(self.cells)]
        colour = hex_gtp.parse_colour(args[0]) if args else self.to_move()
        if self.swap_allowed(colour):
            names.append(hex_gtp.SWAP)
        return " ".join(names)

    cmd_param_game = HexSession.cmd_param_game
    cmd_quit = HexSession.cmd_quit

    def commands(self) -> dict:
        """HexSession's table (names, arities, usages), each command through ``call``."""
        table = HexSession.commands(self)
        return {name: gtp.Command(lambda args, name=name: self.call(name, args), c.min_args, c.usage)
                if hasattr(self, "cmd_" + name.replace("-", "_")) else c for name, c in table.items()}


def start(settings: Settings, err=None):
    """The session to serve: a HexSession from a warm cache, else a ColdStart (which compiles the
    kernels in the background and switches to the engine when they are ready)."""
    compiler = Compiler("hex", "plies-gtp-hex", err=err)
    if compiler.ready():
        return HexSession(settings), compiler
    return ColdStart(settings, compiler, err=err), compiler


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings(args)
    except ConfigError as err:
        print(f"plies-gtp-hex: {err}", file=sys.stderr)
        return EXIT_STATUS["refused"][0]
    try:
        session, compiler = start(settings)
    except (ValueError, FileNotFoundError) as err:  # NetworkError: a ValueError
        print(f"plies-gtp-hex: {err}", file=sys.stderr)
        return EXIT_STATUS["network"][0]
    try:
        served = make_engine(session).serve() == 0  # GtpEngine.serve: 0 after quit or EOF, 1 when cut off
    finally:
        compiler.close()
    return EXIT_STATUS["served" if served else "interrupted"][0]


if __name__ == "__main__":
    sys.exit(main())
