"""plies-go5: a GTP engine that answers like the course's Go5 player (knowledge-initialised MCTS).

    plies-go5 [--num_total_sim N] [--simulations random|probabilistic] [--movefilter]
              [--in_tree_knowledge probabilistic] [--weights PATH] [--seed N] [--config FILE]

The session (board, komi, the Go player's "go5" search: engines/players/go.py) lives in ``Go5Session``;
the wire format is protocols/gtp.py; the rules are the engine's "go5" preset.  Go5's quirks kept here:
ids are not repeated in replies; user errors of ``play`` are success replies with a message;
list_commands is one line.  The first four flags are Go5's own, meaning what they meant to Go5;
``--simulations rulebased`` is refused (the engine has no rule-based rollouts).  Settings (class
Settings), the cold start and the exit statuses: README.md, section "Go5-compatible GTP engine", and
``--help``.
"""
import argparse
import dataclasses
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from adapters import config, gtp_serve
from adapters.config import ConfigError, setting
from engines.players import coldstart  # reads the cache's stamp: imports neither numba nor the engine
from engines.errors import IllegalMove
from engines.knowledge.go.go5_weights import GoWeights, load_weights  # plain Python and NumPy
from protocols import gtp, gtp_go
from protocols.common import ProtocolError, parse_float, parse_int

NAME, VERSION = "Go5", "0.22"
START_SIZE, START_KOMI = 7, 0.5
MIN_SIZE, MAX_SIZE = 2, 19            # board sizes the engine's rules support
DEFAULT_SIMULATIONS = 300             # playouts per genmove (Go5's --num_total_sim default)
SIMULATION_POLICIES = ("random", "rulebased", "probabilistic")  # what Go5's --simulations accepts
PLAYABLE_POLICIES = ("random", "probabilistic")                 # the rollout policies this engine plays
ENV_PREFIX = "PLIES_GO5"
EXIT_STATUS = {  # how a run ends -> (the process's exit status, what --help says of it): the one place
    "served": (0, "quit, or the end of the input"),
    "unknown policy": (0, "a --simulations value Go5 does not know (Go5's own reaction: a message on stderr)"),
    "interrupted": (1, "the controller closed the pipe, or Ctrl-C"),
    "refused": (2, "bad settings (flags, --config, PLIES_GO5_*), an unreadable weights file, knowledge or "
                   "probabilistic simulations without --weights, or --simulations rulebased"),
}
BAD_COLOUR = ("Error: Valid color characters are: b, w, e, BORDER and FLOODFILL. "
              "please provide the input in this format ")
NO_WEIGHTS = "no move weights loaded: start the engine with --weights PATH"
ANALYZE_COMMANDS = ("pstring/Legal Moves For ToPlay/legal_moves_for_toPlay\n"
                    "pstring/Policy Moves/policy_moves\npstring/Random Moves/random_moves")
COMMANDS = ("protocol_version name version quit boardsize clear_board komi play genmove legal_moves "
            "legal_moves_for_toPlay random_moves policy_moves prior_knowledge score final_score showboard "
            "set_free_handicap num_total_sim in_tree_knowledge mcts_info gogui-analyze_commands selfatari "
            "use_pattern random_simulation use_ucb known_command list_commands").split()


@dataclass(frozen=True)
class Settings:
    """The project's own settings of the engine, with their defaults and meanings (adapters/config.py).
    The defaults of the search's constants are Go5's (spec 4.1)."""
    weights: str | None = setting(None, "move weights in the self-describing format (index weight key per line); "
                                        "in-tree knowledge and the probabilistic simulations need them", kind=str)
    seed: int = setting(0, "random seed of the rollouts")
    c: float = setting(0.4, "UCT exploration constant")
    rollout_limit: int = setting(100, "rollout moves after the tree, at most (then the position is scored)")
    capacity: int = setting(1 << 20, "MCTS tree nodes (a full tree goes on searching from its leaves)")

    def __post_init__(self):
        if not (self.c >= 0 and self.rollout_limit >= 1 and self.capacity >= 1):
            raise ValueError(f"c must be >= 0, rollout_limit and capacity >= 1; got c = {self.c}, "
                             f"rollout_limit = {self.rollout_limit}, capacity = {self.capacity}")


def ignored_flag(name):
    """use_pattern, random_simulation, use_ucb: Go5 stores them; here nothing reads them (the
    rule-based rollouts they would steer are refused at start-up), so they are only checked."""
    def handler(self, args):
        self.parse_flag(name, args[0])
        return ""
    return handler


class Go5Session(gtp_serve.Identity):
    """One engine session: the board and everything the commands change."""

    def __init__(self, weights: GoWeights | None = None, num_total_sim: int = DEFAULT_SIMULATIONS,
                 simulations: str = "random", movefilter: bool = False, knowledge: bool = False,
                 settings: Settings = Settings()):
        if simulations not in PLAYABLE_POLICIES:
            raise ValueError(f"simulations must be one of {', '.join(PLAYABLE_POLICIES)}, got {simulations!r}")
        from engines.players.clock import TimeManager
        from engines.players.go import GoPlayer, GoSettings
        self.weights = weights
        self.movefilter = movefilter
        self.settings = settings
        # Go5's search is the Go player's "go5" search; its budget a simulation count (no clock)
        self.player = GoPlayer(GoSettings.of(settings, search="go5", go5_knowledge=knowledge, go5_rollouts=simulations),
                               TimeManager(None), simulations=num_total_sim, weights=weights)
        self.komi = START_KOMI
        self.searched = False  # mcts_info: has a genmove built a tree yet
        self.new_board(START_SIZE)

    num_total_sim = property(lambda self: self.player.simulations)
    simulations = property(lambda self: self.player.settings.go5_rollouts)
    knowledge = property(lambda self: self.player.settings.go5_knowledge)
    searcher = property(lambda self: self.player.searcher)

    # ---- the board --------------------------------------------------------------------------
    def new_board(self, size: int):
        from engines.games.go import Go  # compiles the kernels when the cache is cold: not at import
        self.game = Go(size, komi=self.komi, rules="go5")
        self.state = self.game.initial_state()
        self.reset_search()

    def reset_search(self):
        self.player.go5_reset(self.game)

    def _vertex(self, action: int) -> str:
        return gtp.format_vertex(self.game.point_of(action), self.game.size)

    def _sorted_names(self, actions) -> str:
        return " ".join(sorted(self._vertex(a) for a in actions))

    def _need_weights(self) -> GoWeights:
        if self.weights is None:
            raise ProtocolError(NO_WEIGHTS)
        return self.weights

    # ---- commands ---------------------------------------------------------------------------
    def cmd_boardsize(self, args):
        size = parse_int(args[0], "board size")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"board size must be in {MIN_SIZE}..{MAX_SIZE}, got {size}")
        self.new_board(size)
        return ""

    def cmd_clear_board(self, args):
        self.new_board(self.game.size)
        return ""

    def cmd_komi(self, args):
        self.komi = parse_float(args[0], "komi")
        self.state = self.game.with_komi(self.state, self.komi)
        return ""

    def cmd_play(self, args):
        colour_text, vertex = args[0].lower(), args[1]
        try:
            colour = gtp.parse_colour(colour_text)
        except ProtocolError:
            return BAD_COLOUR
        try:
            point = gtp_go.parse_go5_vertex(vertex, self.game.size)
        except ProtocolError as err:
            return f"Error: {err}"
        try:
            self.state = self.game.go5_play(self.state, self.game.action_at(point), colour)
        except IllegalMove as illegal:
            self.state = illegal.after  # an illegal attempt still has its side effects (the pass counter, the ko ban)
            return f"Illegal Move: {vertex}"
        return ""

    def cmd_genmove(self, args):
        colour = gtp.parse_colour(args[0].lower())
        move = self.search_move(colour)
        if move == self.game.pass_action:
            return "pass"
        self.state = self.game.go5_play(self.state, move, colour)  # the search's moves are legal
        return self._vertex(move)

    def cmd_legal_moves(self, args):
        return self._sorted_names(self.game.go5_legal_points(self.state, gtp.parse_colour(args[0].lower())))

    def cmd_legal_moves_for_toPlay(self, args):
        return self._sorted_names(self.game.go5_legal_points(self.state, self.game.to_move(self.state)))

    def cmd_random_moves(self, args):
        moves = self.game.go5_candidates(self.state)
        return self._sorted_names(moves) if moves else "Pass"

    def cmd_policy_moves(self, args):
        from engines.knowledge.go.features import pattern_moves
        moves = pattern_moves(self.game, self.state, self._need_weights(), self.movefilter)
        if moves:
            return "Pattern " + self._sorted_names(moves)
        candidates = self.game.go5_candidates(self.state)
        return "Random " + self._sorted_names(candidates) if candidates else "Pass"

    def cmd_prior_knowledge(self, args):
        from engines.knowledge.go.go5_prior import prior_knowledge, vertex_name
        n = self.game.size
        entries = prior_knowledge(self.game, self.state, self._need_weights())
        return " ".join(f"{vertex_name(n, a)} {wins} {sims}" for a, wins, sims in entries)

    def cmd_score(self, args):
        return gtp.area_score_text(self.game.cells(self.state), self.komi)

    def cmd_showboard(self, args):
        return "\n" + str(np.array(self.game.cells(self.state)[::-1], dtype=np.int64))

    def cmd_set_free_handicap(self, args):
        self.state = self.game.initial_state()
        self.state = self.game.with_komi(self.state, self.komi)
        for vertex in args:
            try:
                point = gtp_go.parse_go5_vertex(vertex, self.game.size)
            except ProtocolError:
                continue
            if point is not None:
                try:
                    self.state = self.game.go5_play(self.state, self.game.action_at(point), 0)
                except IllegalMove:
                    pass  # Go5 skips a stone it cannot place
        return ""

    @staticmethod
    def parse_flag(name: str, text: str) -> bool:
        """The 0 or 1 of Go5's flag commands."""
        value = parse_int(text, name)
        if value not in (0, 1):
            raise ProtocolError(f"{name} takes 0 or 1, got {text}")
        return bool(value)

    def cmd_selfatari(self, args):
        self.movefilter = self.parse_flag("selfatari", args[0])
        return ""

    cmd_use_pattern = ignored_flag("use_pattern")
    cmd_random_simulation = ignored_flag("random_simulation")
    cmd_use_ucb = ignored_flag("use_ucb")

    def cmd_num_total_sim(self, args):
        value = parse_int(args[0], "num_total_sim", low=1)
        self.player.simulations = value
        return ""

    def cmd_in_tree_knowledge(self, args):
        if args[0] != "probabilistic":
            raise ProtocolError(f"unknown in_tree_knowledge value {args[0]!r}: the only one is probabilistic")
        self._need_weights()
        if not self.knowledge:  # already on: Go5 keeps its tree
            self.player.settings = dataclasses.replace(self.player.settings, go5_knowledge=True)
            self.reset_search()
        return ""

    def cmd_mcts_info(self, args):
        if not self.searched:
            return "No avaiable MCTS tree"
        stats = self.last_stats
        print(f"mcts_info: tree size {stats.get('tree_size')}, max depth {stats.get('max_depth')}, "
              f"simulations {stats.get('simulations')}", file=sys.stderr)
        return ""

    # ---- the search -------------------------------------------------------------------------
    def new_searcher(self):
        """Go5's search for the current board (engines/players/go.py: the "go5" search)."""
        return self.player.build_searcher(self.game)

    def search_move(self, colour: int) -> int:
        """The move of Go5's genmove for colour (engines/players/go.py: GoPlayer.go5_move)."""
        state = self.game.resumed(self.game.set_to_move(self.state, colour))
        move, self.last_stats = self.player.go5_move(state, colour)
        self.searched = True
        return move

    # ---- the command table ------------------------------------------------------------------
    NAME, version_text = NAME, staticmethod(lambda: VERSION)
    cmd_gogui_analyze_commands = staticmethod(lambda args: ANALYZE_COMMANDS)
    cmd_final_score = cmd_score

    def cmd_known_command(self, args):
        return "true" if args[0] in COMMANDS else "false"

    def cmd_list_commands(self, args):
        return " ".join(COMMANDS)  # Go5's list is one line

    def commands(self) -> dict:
        return gtp.command_table(self, COMMANDS, gtp_go.GO5_USAGES)


def make_engine(session: Go5Session) -> gtp.GtpEngine:
    return gtp.GtpEngine(session.commands(), echo_ids=False, unknown="Unknown command")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="plies-go5", description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=epilog())
    # Go5's own flags, as Go5 spelled them
    p.add_argument("--num_total_sim", type=int, default=DEFAULT_SIMULATIONS, help="playouts per genmove")
    p.add_argument("--simulations", default="random",
                   help="rollout policy: random or probabilistic (rulebased is refused)")
    p.add_argument("--movefilter", action="store_true", help="filter self-atari moves in the policies")
    p.add_argument("--in_tree_knowledge", default="None", help="'probabilistic' initialises new nodes with priors")
    # the project's own
    p.add_argument("--config", type=Path, help="a TOML file of settings (the keys below)")
    config.add_setting_flags(p, Settings, skip=("c", "rollout_limit", "capacity"))  # --weights, --seed
    return p


def epilog() -> str:
    statuses = "\n".join(f"  {status}  {meaning}" for status, meaning in EXIT_STATUS.values())
    return (f"settings (--config FILE, environment {ENV_PREFIX}_<KEY>; --weights and --seed override both):\n"
            f"{config.describe(Settings, ENV_PREFIX)}\n\nexit status:\n{statuses}")


class UnknownPolicy(Exception):
    """A --simulations value Go5 does not know: Go5's message goes to stderr, and Go5 exits normally."""


class Refused(Exception):
    """The engine cannot start as asked: the message goes to stderr, the exit status is "refused"."""


def report_cold_cache(err=None) -> bool:
    """Say on stderr when the compiled-kernel cache of Go is cold (True then); imports no engine module."""
    return coldstart.report_cold_cache(
        "go", "the first command that needs the engine waits for the compile (about 20 s)",
        lambda text: print(f"plies-go5: {text}", file=err if err is not None else sys.stderr, flush=True),
        " (or `make warmup`)")


def start(args) -> Go5Session:
    """The session the command line asks for (UnknownPolicy or Refused when it cannot be had)."""
    if args.simulations not in SIMULATION_POLICIES:  # checked first, as Go5 does
        raise UnknownPolicy(f"simulations must be one of {', '.join(SIMULATION_POLICIES)}, "
                            f"got {args.simulations!r}")
    if args.simulations == "rulebased":
        raise Refused("--simulations rulebased is not available: this engine has no rule-based rollout policy "
                      "(use random or probabilistic)")
    if args.num_total_sim < 1:
        raise Refused("--num_total_sim must be at least 1")
    try:
        settings = config.command_line_settings(Settings, args, ENV_PREFIX)
    except ConfigError as err:
        raise Refused(str(err)) from None
    knowledge = args.in_tree_knowledge == "probabilistic"
    weights = None
    if settings.weights is not None:
        try:
            weights = load_weights(settings.weights)
        except (OSError, ValueError) as err:
            raise Refused(f"cannot load the weights: {err}") from None
    elif knowledge or args.simulations == "probabilistic":
        raise Refused("--in_tree_knowledge=probabilistic and the probabilistic simulations need the move "
                      "weights: add --weights PATH (the self-describing weights file)")
    return Go5Session(weights, args.num_total_sim, args.simulations, args.movefilter, knowledge, settings)


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    report_cold_cache()
    try:
        session = start(args)
    except UnknownPolicy as err:
        print(err, file=sys.stderr)
        return EXIT_STATUS["unknown policy"][0]
    except Refused as err:
        print(f"plies-go5: {err}", file=sys.stderr)
        return EXIT_STATUS["refused"][0]
    served = make_engine(session).serve() == 0  # GtpEngine.serve: 0 after quit or EOF, 1 when cut off
    return EXIT_STATUS["served" if served else "interrupted"][0]


if __name__ == "__main__":
    sys.exit(main())
