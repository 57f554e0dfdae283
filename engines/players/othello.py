"""The Othello player: every Othello adapter (the TCP engine, the game manager's pipe agent) asks it for moves.

It assembles the game (any size the engine plays, the standard rules or the manager's end-when-stuck
variant), the search and its knowledge (alpha-beta with an evaluation of engines/knowledge/othello/registered.py, a
table size, optional ProbCut; or one of the MCTS algorithms), warms their kernels up, and owns the
Othello policies:
  * a forced move (one legal move, or the pass) is answered at once, without a search or a clock reading;
  * the opening book (8x8, setting ``book``; engines/knowledge/othello/book.py), where the endgame
    solves would be used (no depth limit from the harness, or one that asks for the solves): a
    position the book has moves for is answered at once with one of the moves within the book's
    margin of its best, drawn by the player's seeded generator (under the manager's rules, not where a
    move would leave the opponent without a placement: the book passes there); a book file that
    cannot be read is said once on stderr and the player plays without it;
  * the endgame: on 8x8 (the exact solver's board), once at most ``solve_empties`` squares are empty an
    exact solve, up to ``wld_extra`` empties earlier (or when the exact one does not fit) a win/loss/draw
    solve.  With ``pacing`` (the default) a solve is started only when its predicted time
    (engines/knowledge/othello/endgame.py: predicted_nodes, at the rate this player's solves measured)
    fits ``solve_fit`` of the time left less ``solve_reserve``, with that reserve kept for a midgame
    search, which answers when the solve does not finish; one solver table a kind lives along the game.
    Without it: node budgets growing by ``solve_growth`` while the retry's predicted time fits in
    ``solve_share`` of the time left, a fresh table each.  A lost position, or a solve that does not
    fit, is searched.  A depth limit given by the harness (the manager's -l) is a request for a
    depth-limited search and is honoured: no solve then;
  * time: with ``pacing``, engines.players.clock.IterationPacer: the hard limit is the budget (from the
    request's arrival) less ``margin``, never passed; the soft target ``soft_share`` of it (a game
    clock's ``time_left``: an even share over our moves still to come); after each completed depth the
    search goes on to the hard limit when the root is unstable (the best move changed, or the value fell
    by more than ``unstable_drop``), stops at ``obvious_share`` of the target when the move is obvious,
    and starts no depth of which ``finish_share`` of its predicted time does not fit.  Without it, the
    deadline comes from engines.players.clock.TimeManager and the search starts no iteration
    predicted not to finish (``stop_share``).  Either way the opening (fewer discs than
    ``opening_fill`` of the squares, no depth limit) gets ``opening_share`` of the (soft) budget.

Data: a state is the engine's flat int64 array (engines/games/othello.py), a move an action (r*n + c,
the pass n*n); ``OthelloSettings`` is one frozen dataclass of every tunable, whose fields the adapters'
settings inherit under the same names (flags, TOML keys and PLIES_<ADAPTER>_<KEY> variables are made
from it).  ``last`` says what the latest choice did (a dict: forced / solved / the search's stats) and
``result`` is the latest SearchResult (None for a forced or solved move).

Importing this module loads no compiled kernel (an adapter imports it before its cache is warm); the
engine is imported when an ``OthelloPlayer`` is built.  While the cache is cold, ``fallback_move``
plays from the pure-Python rules (engines/games/reference/othello.py) with engines.players.coldstart's
shallow search within the move's deadline.
"""
import math
import random
import sys
import time
from dataclasses import dataclass

from engines.games.reference import othello as rules
from engines.players.clock import TimeManager
from engines.players.coldstart import fallback_search
from engines.settings import setting
from engines.validate import check_int, check_number

ALGOS = ("default", "ucb", "uct", "uct-pp")
EVALUATION_NAMES = ("strong", "disc_difference", "patterns")  # engines.knowledge.othello.registered.EVALUATIONS (a test
#                                                               keeps them equal; this module imports no kernel)
DEFAULT_EVALUATION = "patterns"                    # engines.knowledge.othello.registered.DEFAULT_EVALUATION
STANDARD, MANAGER = rules.STANDARD, rules.MANAGER
MIN_SIZE, MAX_SIZE = 4, 16   # the board sizes the engine plays (others: the reference rules' fallback)
SOLVER_SIZE = 8              # the exact endgame solver's board (bitboards)
WARM_UP_SIZES = (8, 9)       # one board of each state layout (bitboards up to 8x8 with the solver, the mailbox above)
WLD_TABLE_BITS = 20          # the win/loss/draw solve's table: 2**20 entries (24 MiB)
EXACT_TABLE_BITS = 21        # the paced exact solves' table: 2**21 entries (48 MiB)
LOADING_FALLBACK_SHARE = 0.5  # while the player loads in a thread (which holds the interpreter for long stretches:
#                               compiled calls, code loading) a fallback move ends by this share of its budget: the
#                               load's warm-up solve and LLVM loads held it 0.1-0.25 s at a time on a loaded machine,
#                               and one move at 0.7 ended 0.39 s late (1.088 s at 1 s a move, load 5)
WIN_SCORE = 1e4             # engines.knowledge.scores.WIN_SCORE (that module imports numba; a test keeps them equal)
WLD_SLICE = 50_000           # nodes between two readings of the clock in a win/loss/draw solve (a few ms)


@dataclass(frozen=True)
class OthelloSettings:
    """Every tunable of the Othello player, with its default and meaning.  Settings with a "default:"
    prefix concern the alpha-beta player (algo default), "ucb/uct/uct-pp:" the MCTS ones."""
    algo: str = setting("default", "the player: default (alpha-beta + exact endgame), ucb, uct or uct-pp",
                        choices=ALGOS)
    margin: float = setting(0.1, "seconds kept back inside the budget for the reply (on a busy machine the "
                                 "search's last clock reading and the reply's way out take tens of ms)")
    seed: int = setting(0, "random seed of the search")
    evaluation: str = setting(DEFAULT_EVALUATION, "default: the evaluation of the alpha-beta search "
                              "(engines/knowledge/othello/registered.py: patterns, the learned one (8x8; strong elsewhere); "
                              "strong, the hand-set one; disc_difference)", choices=EVALUATION_NAMES)
    tt_size: int = setting(1 << 20, "default: alpha-beta table slots, a power of two (24 bytes each: 24 MiB)")
    stop_share: float = setting(0.5, "default: an iteration is not started when its predicted time times this "
                                     "exceeds the time left (0: never skipped)")
    probcut: bool = setting(True, "default: Multi-ProbCut with the fitted parameters of the evaluation on 8x8 "
                                  "(weights/othello/probcut_<evaluation>.json: per band of empties and depth; none: off); "
                                  "not in a search whose options a harness sets (the manager's flags)")
    probcut_t: float = setting(1.5, "default: ProbCut's margin in standard deviations of the fit (larger: fewer, "
                                    "safer cuts)")
    opening_share: float = setting(0.5, "default: share of the budget a move of the opening spends")
    opening_fill: float = setting(0.2, "default: the opening lasts while fewer discs than this share of the "
                                       "squares are on the board")
    pacing: bool = setting(True, "default: the time manager of iterative deepening and of the endgame solves "
                                 "(engines/players/clock.py: IterationPacer; off: the stop_share rule and the "
                                 "solves' growing node budgets)")
    soft_share: float = setting(1.0, "default (pacing): the soft target, a share of the hard limit (the move's "
                                     "budget less margin: a fixed budget's time cannot be saved for later); an "
                                     "unstable root may go on to the hard limit")
    obvious_share: float = setting(0.5, "default (pacing): share of the soft target an obvious move spends (the same "
                                        "best move at the last 5 depths, its value steady)")
    finish_share: float = setting(0.5, "default (pacing): a depth is started only when this share of its predicted "
                                       "time fits before the target (1: it must finish)")
    unstable_drop: float = setting(2.0, "default (pacing): a fall of the root's value by more than this many discs "
                                        "since the last depth of the same parity makes the root unstable")
    solve_fit: float = setting(1.0, "default (pacing): a solve is started when its predicted time is at most this "
                                    "share of the time it may take")
    solve_reserve: float = setting(0.2, "default (pacing): share of the time left kept for a midgame search when "
                                        "a solve is started (its move if the solve does not finish in time)")
    solve_rate: float = setting(1e7, "default (pacing): nodes a second the solver is assumed to visit until "
                                     "this player has measured it")
    solve_empties: int = setting(22, "default: empty squares from which the exact endgame solve is tried (8x8)")
    first_solve_nodes: int = setting(1 << 16, "default: node budget of the first endgame solve")
    solve_growth: int = setting(4, "default: each retry of the solve has this many times the nodes")
    solve_share: float = setting(0.5, "default: a retry is made only if its predicted time fits in this "
                                      "share of the time left")
    wld_extra: int = setting(3, "default: a win/loss/draw solve is tried up to this many empties beyond "
                                "solve_empties (and where the exact solve does not fit)")
    exploration: float = setting(0.7, "ucb/uct/uct-pp: the exploration constant c (results on a 0..1 scale)")
    mcts_capacity: int = setting(1 << 22, "ucb/uct/uct-pp: MCTS nodes (32 bytes each: 128 MiB)")
    rd: float = setting(1.0, "uct-pp: pruning margin in standard deviations of the mean")
    min_samples: int = setting(50, "uct-pp: visits a root move needs before it can prune or be pruned")
    book: bool = setting(True, "the opening book (weights/othello/book.npz; 8x8 only): a book position's move "
                               "comes at once from it, one of those within a disc of its best")

    def __post_init__(self):
        check_number("margin", self.margin, 0.0)
        if check_int("tt_size", self.tt_size, 1) & (self.tt_size - 1):
            raise ValueError(f"tt_size must be a power of two, got {self.tt_size}")
        check_int("mcts_capacity", self.mcts_capacity, 2)
        check_int("solve_empties", self.solve_empties, 0, 64)
        check_int("first_solve_nodes", self.first_solve_nodes, 1)
        check_int("solve_growth", self.solve_growth, 2)
        check_number("solve_share", self.solve_share, 0.0, 1.0)
        check_int("wld_extra", self.wld_extra, 0, 64)
        check_number("opening_share", self.opening_share, 0.0, 1.0)
        check_number("opening_fill", self.opening_fill, 0.0, 1.0)
        check_number("stop_share", self.stop_share, 0.0)
        check_number("probcut_t", self.probcut_t, 0.0)
        check_number("soft_share", self.soft_share, 0.0, 1.0)
        check_number("obvious_share", self.obvious_share, 0.0, 1.0)
        if not 0 < check_number("finish_share", self.finish_share, 0.0, 1.0):
            raise ValueError("finish_share must be above 0")
        check_number("unstable_drop", self.unstable_drop, 0.0)
        check_number("solve_fit", self.solve_fit, 0.0)
        check_number("solve_reserve", self.solve_reserve, 0.0, 0.9)
        if not 0 < check_number("solve_rate", self.solve_rate, 0.0):
            raise ValueError("solve_rate must be above 0")
        check_number("exploration", self.exploration, 0.0)
        check_number("rd", self.rd, 0.0)
        check_int("min_samples", self.min_samples, 1)


def time_share(settings: OthelloSettings, discs: int, squares: int) -> float:
    """The share of a move's budget to spend: ``opening_share`` while fewer than ``opening_fill`` of
    the squares hold a disc (a deeper search of the first moves changes little), else all of it.  Both
    harnesses give a fixed time per move, so time saved cannot be spent later: the rule only avoids
    waste."""
    return settings.opening_share if discs < settings.opening_fill * squares else 1.0


def probcut_path(evaluation: str):
    """The fitted ProbCut parameters of an Othello evaluation (engines/learn/othello/probcut_fit.py writes them)."""
    from pathlib import Path

    import weights
    return Path(weights.__file__).resolve().parent / "othello" / f"probcut_{evaluation}.json"


def disc_value(value: float) -> float:
    """A search value of the Othello evaluations in discs for the side to move: a final position's
    WIN_SCORE + margin (engines/knowledge/scores.py) becomes the margin; an estimate is in discs already
    (the pattern evaluation's unit)."""
    return float(value - math.copysign(WIN_SCORE, value)) if abs(value) > WIN_SCORE else float(value)


def fallback_move(position: "rules.Position", seconds: float, start: float | None = None,
                  settings: OthelloSettings = OthelloSettings(), clock=time.perf_counter):
    """The move of a cold cache: engines.players.coldstart's shallow search over the reference rules
    (a point, None for the pass), within the move's deadline from ``start``."""
    deadline = TimeManager(seconds, margin=settings.margin, clock=clock).deadline(start=start)
    return fallback_search(rules.SearchRules(), position, deadline)


class OthelloPlayer:
    """Chooses moves for the side to move of Othello states of one size and variant (see the module)."""

    def __init__(self, settings: OthelloSettings = OthelloSettings(), size: int = 8, variant: str = STANDARD,
                 clock=time.perf_counter):
        from engines.games import make_game  # the engine: imported once its kernels are in the cache
        self.game = make_game("othello", size=size, variant=variant)
        self.settings, self.clock = settings, clock
        self.solves = settings.algo == "default" and size == SOLVER_SIZE
        self.last, self.result = {}, None
        self._searchers = {}      # alpha-beta options (the manager's flags) -> searcher
        self._knowledge = None
        self._wld_solver = None   # the win/loss/draw solves' EndgameSolver, made at the first
        self._exact_solver = None  # the paced exact solves' (its table kept: its bounds stay true)
        self.solve_rate = settings.solve_rate  # nodes a second of this player's solves (measured)
        self.book_path = None     # the opening book's file (None: the shipped one)
        self._book, self._book_rng = None, random.Random(settings.seed)
        self.searcher = self.searcher_for({})

    # ---- assembly ----------------------------------------------------------------------------------
    def _search_config(self, options: dict) -> dict:
        s = self.settings
        if s.algo != "default":
            config = {"selection": "ucb1" if s.algo == "ucb" else "uct", "c": s.exploration}
            if s.algo == "uct-pp":
                config.update(progressive_pruning=True, pp_rd=s.rd, pp_min_samples=s.min_samples)
            return config
        config = {**options, "tt_size": s.tt_size, "stop_share": options.get("stop_share", s.stop_share)}
        if s.probcut and self.game.size == SOLVER_SIZE and not options and probcut_path(s.evaluation).exists():
            # (not when a harness asks for a particular search by its options: its values are that search's;
            # not for an evaluation without fitted parameters)
            from engines.search.alphabeta import load_probcut
            config["probcut"] = load_probcut(probcut_path(s.evaluation))
            config["probcut_t"] = s.probcut_t
        return config

    def searcher_for(self, options: dict):
        """The searcher of these alpha-beta options (built once; MCTS ignores them)."""
        key = tuple(sorted(options.items())) if self.settings.algo == "default" else ()
        if key not in self._searchers:
            from engines.search import make_searcher
            s = self.settings
            if s.algo == "default":
                self._searchers[key] = make_searcher("alphabeta", self.game, self._search_config(options),
                                                     self.knowledge(), seed=s.seed, clock=self.clock)
            else:
                self._searchers[key] = make_searcher("mcts", self.game, self._search_config({}), seed=s.seed,
                                                     capacity=s.mcts_capacity, clock=self.clock)
        return self._searchers[key]

    def knowledge(self):
        if self._knowledge is None:
            from engines.knowledge.registry import knowledge_for
            self._knowledge = knowledge_for(self.game, self.settings.evaluation)
        return self._knowledge

    def warm_up(self) -> "OthelloPlayer":
        """Load the compiled kernels of the search, its evaluation and the endgame solves now, so that
        no move pays for loading them (a cache hit: a fraction of a second a move's clock cannot spare).
        Uses its own searcher and solves: nothing reads self.clock."""
        self.opening_book()
        if self.settings.algo != "default":
            return self
        from engines.search import Limits, make_searcher
        game = self.game
        probe = make_searcher("alphabeta", game, {**self._search_config({}), "tt_size": 1 << 10}, self.knowledge())
        probe.search(game.initial_state(), Limits(depth=3))
        if not self.solves:
            return self
        from engines.knowledge.othello.registered import solve_endgame
        from engines.knowledge.othello.endgame import solve_state
        s = game.initial_state()
        while int((game.cells(s) == 0).sum()) > 10 or game.must_pass(s):  # a small endgame, the mover placing
            s = game.play(s, int(game.legal_moves(s)[0]))
            if game.is_terminal(s):
                return self
        solve_endgame(s)
        solve_state(s, wld=True)
        return self

    # ---- a move ------------------------------------------------------------------------------------
    def pacer(self, seconds: float, start: float, empties: int, share: float = 1.0,
              time_left: float | None = None):
        """The move's IterationPacer (engines/players/clock.py): the hard limit ``seconds`` less margin
        from ``start``, the soft target soft_share x share of it; with ``time_left`` (seconds on a game
        clock) the soft target is an even share of it over our moves still to come (half the empty
        squares) and the hard limit three times that, within ``seconds`` still."""
        from engines.players.clock import IterationPacer
        s = self.settings
        options = {"drop": s.unstable_drop, "obvious_share": s.obvious_share, "finish_share": s.finish_share}
        fixed = IterationPacer.for_budget(seconds, start, self.clock, margin=s.margin, soft_share=s.soft_share * share,
                                          **options)
        if time_left is None:
            return fixed
        paced = IterationPacer.for_game_clock(time_left, max(1, math.ceil(empties / 2)), start, self.clock,
                                              margin=s.margin, **options)
        hard = min(paced.hard, fixed.hard)
        return IterationPacer(min(paced.soft, hard), hard, start, self.clock, **options)

    def choose(self, state, seconds: float, start: float | None = None, depth: int | None = None,
               search: dict | None = None, solve: bool | None = None, time_left: float | None = None) -> int:
        """The action to play (the state must not be final): at most ``seconds`` from ``start`` on the
        clock (default: now).  ``depth``: a depth limit of the harness (the budget still bounds it; no
        opening share, and no solve unless ``solve``); ``search``: AlphaBetaConfig fields for this
        move's search (the manager's flags); ``solve``: try the endgame solves (default: when no depth
        is given; a harness whose depth is a midgame depth asks for them with True); ``time_left``:
        seconds left on a game clock (the move then gets its share of them, within ``seconds``).
        The MCTS algorithms take none of these (they run on the clock)."""
        legal = self.game.legal_moves(state)
        if len(legal) == 1:  # a forced move or the pass: nothing to think about
            self.last, self.result = {"forced": True}, None
            return int(legal[0])
        booked = self._book_move(state) if (depth is None if solve is None else solve) else None
        if booked is not None:  # (a harness's depth limit asks for that search: no book, as no solve)
            return booked
        from engines.search import Limits
        start = self.clock() if start is None else start
        s = self.settings
        if s.algo != "default":
            depth = search = None
        cells = self.game.cells(state)
        empties = int((cells == 0).sum())
        share = time_share(s, cells.size - empties, cells.size) if s.algo == "default" and depth is None else 1.0
        if s.algo == "default" and s.pacing:
            pacer = self.pacer(seconds, start, empties, share, time_left)
            hard = pacer.deadline
            if depth is not None:
                pacer = None  # the harness's depth is a request: searched to it (or to the hard limit)
        else:
            pacer = None
            hard = TimeManager(seconds, margin=s.margin, clock=self.clock).deadline(start=start, share=share).at
        if self.solves and (depth is None if solve is None else solve):
            move = self._endgame_paced(state, empties, hard) if s.pacing else self._endgame(state, empties, hard)
            if move is not None:
                return move
        searcher = self.searcher_for(search) if search else self.searcher
        result = searcher.search(state, Limits(time=max(hard - start, 0.0), start=start, margin=0.0, depth=depth,
                                               pacer=pacer))
        self.last, self.result = {"solved": False, **result.stats}, result
        if pacer is not None:
            self.last["pace"] = pacer.summary()
        return int(result.move)

    def _endgame_paced(self, state, empties: int, deadline: float) -> int | None:
        """The paced solve policy: the exact solve when its predicted time (endgame.predicted_nodes at
        the measured rate) fits solve_fit of the time left less solve_reserve, else the win/loss/draw
        solve when it fits so; each with the deadline that leaves the reserve to a midgame search.  The
        solve's move; None (search instead) when none fits, when it does not finish, or when the
        position is lost (a win/loss/draw solve whose every move loses)."""
        from engines.knowledge.othello.endgame import (EndgameSolver, SolveBudgetExceeded, predicted_nodes,
                                                       state_bits, stuck_ends)
        from engines.knowledge.othello.patterns import estimate_bits
        s = self.settings
        if empties > s.solve_empties + s.wld_extra:
            return None
        began = self.clock()
        usable = (deadline - began) * (1.0 - s.solve_reserve)
        for wld in (False, True):
            if (empties <= s.solve_empties or wld) and predicted_nodes(empties, wld) / self.solve_rate <= s.solve_fit * usable:
                break
        else:
            self.last = {"solved": False, "solve_skipped": True}
            return None
        bits = state_bits(state)
        solver = self._wld_solver if wld else self._exact_solver
        if solver is None:  # one table a kind for every solve of the game (its entries stay true)
            solver = EndgameSolver(tt_bits=WLD_TABLE_BITS if wld else EXACT_TABLE_BITS, clock=self.clock,
                                   slice_nodes=WLD_SLICE, stuck_ends=stuck_ends(state))
            if wld:
                self._wld_solver = solver
            else:
                self._exact_solver = solver
        try:
            solved = solver.solve(*bits, deadline=began + usable, wld=wld, guess=0 if wld else estimate_bits(*bits))
        except SolveBudgetExceeded:
            return None  # it did not finish: the reserve goes to the midgame search
        spent = self.clock() - began
        if spent >= 0.05:  # long enough to measure the rate (a warm table makes it look faster: that is true too)
            self.solve_rate = 0.5 * self.solve_rate + 0.5 * solved.nodes / spent
        if wld and solved.score < 0:
            return None  # lost: the search picks the move that loses least by its evaluation
        self.last = ({"solved": True, "wld": True, "score": solved.score, "nodes": solved.nodes} if wld
                     else {"solved": True, "score": solved.score, "nodes": solved.nodes})
        self.result = None
        return solved.move

    def opening_book(self):
        """The opening book (loaded once; None when off, on another board, or unreadable)."""
        if self._book is None:
            self._book = False
            if self.settings.book and self.game.size == SOLVER_SIZE:
                from engines.knowledge.othello.book import Book, BookError
                try:
                    self._book = Book.load(self.book_path)
                except BookError as e:
                    print(f"plies: playing without the opening book: {e}", file=sys.stderr, flush=True)
        return self._book or None

    def _book_move(self, state) -> int | None:
        """The book's move for this state (no search: self.last says book), or None off the book."""
        book = self.opening_book()
        if book is None:
            return None
        from engines.knowledge.othello.endgame import state_bits
        P, O = state_bits(state)
        found = book.choose(int(P), int(O), self._book_rng, passes=self.game.variant == STANDARD)
        if found is None:
            return None
        square, value = found
        self.last, self.result = {"book": True, "score": value, "nodes": 0}, None
        return self.game.action(square // SOLVER_SIZE, square % SOLVER_SIZE)

    def _endgame(self, state, empties: int, deadline: float) -> int | None:
        """The solve policy: the exact solve's move, else a win/loss/draw solve's winning or drawing
        move, else None (too early, no solve fits the time left, or the position is lost)."""
        from engines.knowledge.othello.registered import SolveBudgetExceeded
        s = self.settings
        if empties <= s.solve_empties:
            try:
                return self._solve(state, deadline)
            except SolveBudgetExceeded:
                pass  # no exact solve fits the time left: a win/loss/draw solve, else search
        if empties <= s.solve_empties + s.wld_extra:
            try:
                return self._solve(state, deadline, wld=True)
            except SolveBudgetExceeded:
                pass  # no solve fits the time left (or every move loses): search instead
        return None

    def _solve(self, state, deadline: float, wld: bool = False) -> int:
        """The exact solve's move (wld: a win/loss/draw solve's winning or drawing move), retrying with
        solve_growth times more nodes while the retry's predicted time fits; SolveBudgetExceeded once
        it does not (and for a win/loss/draw solve that finds every move losing: the search then
        picks the move that loses least by its evaluation)."""
        from engines.knowledge.othello.registered import SolveBudgetExceeded, solve_endgame
        from engines.knowledge.othello.endgame import EndgameSolver, SolveDeadlineExceeded, state_bits, stuck_ends
        from engines.knowledge.othello.patterns import estimate_bits
        s = self.settings
        budget = s.first_solve_nodes
        guess = 0 if wld else estimate_bits(*state_bits(state))
        if wld:  # one table for every attempt and move (its entries stay true); the clock read every WLD_SLICE nodes
            if self._wld_solver is None:
                self._wld_solver = EndgameSolver(tt_bits=WLD_TABLE_BITS, clock=self.clock, slice_nodes=WLD_SLICE,
                                                 stuck_ends=stuck_ends(state))
            solver = self._wld_solver
            bits = state_bits(state)
        while True:
            began = self.clock()
            try:
                solved = (solver.solve(*bits, budget, deadline, wld=True) if wld
                          else solve_endgame(state, budget, deadline=deadline, clock=self.clock, guess=guess))
            except SolveBudgetExceeded as out:
                if isinstance(out, SolveDeadlineExceeded) or out.nodes == 0:
                    raise  # the time is up
                now = self.clock()
                rate = out.nodes / max(now - began, 1e-6)
                budget *= s.solve_growth
                if budget / rate > s.solve_share * (deadline - now):
                    raise
                continue
            if wld:
                if solved.score < 0:
                    raise SolveBudgetExceeded(solved.nodes)
                self.last = {"solved": True, "wld": True, "score": solved.score, "nodes": solved.nodes}
            else:
                self.last = {"solved": True, "score": solved.score, "nodes": solved.nodes}
            self.result = None
            return solved.move

    # ---- what a move is worth (a GUI's hints) -----------------------------------------------------
    def report(self, move: int) -> dict:
        """What the latest ``choose`` knew of its move: a dict of move, value (discs for the side to
        move: exact after a solve or a search that reached the end, else the evaluation's estimate;
        None for a forced move or an MCTS search), depth (plies of the deepest completed iteration),
        exact (the value is the game's outcome), wld (only its sign is proved) and pv (actions from
        the move on)."""
        done, result = self.last, self.result
        if result is None:
            if done.get("forced"):
                return {"move": move, "value": None, "depth": 0, "exact": False, "wld": False, "pv": [move]}
            wld = bool(done.get("wld"))
            return {"move": move, "value": float(done["score"]), "depth": 0, "exact": not wld and not done.get("book"),
                    "wld": wld,
                    "pv": [move]}
        stats = result.stats
        complete = bool(stats.get("complete"))
        return {"move": move, "value": disc_value(result.value) if result.scale == "score" else None,  # MCTS: no discs
                "depth": int(stats.get("depth", 0)), "exact": complete, "wld": False,
                "pv": list(result.pv) or [move]}

    def hints(self, state, seconds: float, start: float | None = None, depth: int | None = None,
              count: int = 1) -> list:
        """The best ``count`` moves of a state that is not final, best first, each as ``report``
        describes it.  One move: the player's own choice (its solves included).  Several: every
        legal move's position is searched in turn (``depth`` - 1 plies; the time left shared among the
        positions still to search), so each value is a search value, not a bound."""
        game = self.game
        legal = [int(a) for a in game.legal_moves(state)]
        start = self.clock() if start is None else start
        if count <= 1 and len(legal) > 1 or self.settings.algo != "default":
            return [self.report(self.choose(state, seconds, start, depth=depth, solve=True))]
        from engines.knowledge.othello.registered import SolveBudgetExceeded
        from engines.search import Limits
        deadline = TimeManager(seconds, margin=self.settings.margin, clock=self.clock).deadline(start=start).at
        mover = game.to_move(state)
        found = []
        for i, move in enumerate(legal):
            child = game.play(state, move)  # the opponent may have to pass there: the solver and search take that
            if game.is_terminal(child):
                margin = game.score(child) * (1 if mover == 0 else -1)
                found.append({"move": move, "value": margin, "depth": 0, "exact": True, "wld": False, "pv": [move]})
                continue
            now = self.clock()
            share = (deadline - now) / (len(legal) - i)
            sign = 1.0 if game.to_move(child) == mover else -1.0  # the opponent passes: still our view
            if self.solves and int((game.cells(child) == 0).sum()) <= self.settings.solve_empties:
                try:  # the endgame is solved exactly where it fits, as in a move
                    self._solve(child, now + share)
                    found.append({"move": move, "value": sign * self.last["score"], "depth": 0, "exact": True,
                                  "wld": False, "pv": [move]})
                    continue
                except SolveBudgetExceeded:
                    pass  # searched instead
            limit = None if depth is None else max(1, depth - 1)
            limits = (Limits(time=share, start=now, margin=0.0, depth=limit) if share > 0.005
                      else Limits(depth=1))  # out of time: one ply, a few milliseconds
            result = self.searcher.search(child, limits)
            stats = result.stats
            found.append({"move": move, "value": sign * disc_value(result.value), "depth": int(stats["depth"]) + 1,
                          "exact": bool(stats["complete"]), "wld": False, "pv": [move] + list(result.pv)})
        self.searcher.reset()  # the positions searched are not the game's: no tree to keep
        self.last, self.result = {}, None
        found.sort(key=lambda h: -h["value"])
        return found[:max(1, count)]

    # ---- the game goes on --------------------------------------------------------------------------
    def played(self, move: int) -> None:
        """A move was played on the board the next choice will see (tree and table reuse)."""
        for searcher in {*self._searchers.values(), self.searcher}:
            searcher.advance(move)

    def reset(self) -> None:
        """The next position does not follow from the last (a new game, an undo, a forced board)."""
        for searcher in {*self._searchers.values(), self.searcher}:
            searcher.reset()


def make_player(settings: OthelloSettings = OthelloSettings(), size: int = 8, variant: str = STANDARD,
                clock=time.perf_counter) -> OthelloPlayer:
    """A player with its kernels loaded (the adapters' way to build one)."""
    return OthelloPlayer(settings, size, variant, clock).warm_up()


class OthelloRecord:
    """The game an adapter keeps, and where its moves come from: the board (a pure-Python
    ``rules.Position``, kept while the engine loads or compiles), ``history`` (the positions before each
    move, for undo) and the player, told of every move.  ``source`` is a player (``game``, ``choose``,
    ``played``, ``reset``) or an engines.players.coldstart.ColdStart that builds it (in the background);
    until it is there ``choose_point`` plays the shallow fallback search over the reference rules within
    the move's budget.  ``fallbacks`` / ``searched`` count the moves each answered.  Adapters subclass it
    with their protocol's commands."""

    def __init__(self, source, settings: OthelloSettings, clock=time.perf_counter, warn=None, size: int = 8,
                 variant: str = STANDARD):
        from engines.players.coldstart import ColdStart
        self.cold = source if isinstance(source, ColdStart) else None
        self._player = None if self.cold is not None else source
        self.settings, self.clock = settings, clock
        self.warn = warn or (lambda text: None)
        self.size, self.variant = size, variant
        self.fallbacks = self.searched = 0
        self.position, self.history = rules.Position.start(size, variant), []

    @property
    def player(self):
        """The player if it has been built (None while it loads or compiles)."""
        return self.cold.player if self.cold is not None else self._player

    def current(self):
        """The player once it is built (after a cold start: from the first call after the compile); None until then."""
        if self.cold is not None:
            return self.cold.player if self.cold.ready() else None
        return self._player

    @property
    def game(self):
        """The engine's game (builds the player: not for a cold start)."""
        return self.current().game

    @property
    def state(self):
        """The board as an engine state (tests; builds the player)."""
        return self.game.state_from_cells(self.position.board, self.position.to_move - 1)

    @state.setter
    def state(self, state):
        game = self.game
        self.restart(rules.Position(game.cells(state).tolist(), game.to_move(state) + 1, self.variant))

    def restart(self, position=None) -> None:
        """A new game from position (default: the start); the player forgets the last one."""
        self.position = position or rules.Position.start(self.size, self.variant)
        self.history = []
        self.reset_player()

    def reset_player(self) -> None:
        """The next position does not follow from the last by a move (the player's tree is dropped)."""
        if self.player is not None:
            self.player.reset()

    def moved(self, after, point) -> None:
        """The side to move played point (None: the pass), which led to ``after``."""
        self.history.append(self.position)
        self.position = after
        player = self.player
        if player is not None:
            player.played(player.game.pass_action if point is None else player.game.action(*point))

    def choose_point(self, seconds: float, received: float, wait_share: float = 0.0, **options):
        """The move (a point; None for the pass) for the side to move of a position that is not over,
        within ``seconds`` from ``received`` on ``clock``; ``options`` go to the player's ``choose``.
        A player still loading in the background is waited for up to ``wait_share`` of the budget."""
        position = self.position
        if position.status == rules.MUST_PASS:
            return None
        player = self.current()
        if player is None and self.cold is not None and self.cold.loading() and wait_share > 0:
            self.cold.wait(received + wait_share * seconds - self.clock())
            player = self.current()
        if player is None:  # loading or compiling: a shallow search over the reference rules, in the budget
            self.fallbacks += 1
            if self.cold is not None:
                self.cold.fallbacks += 1
            share = LOADING_FALLBACK_SHARE if self.cold is not None and self.cold.loading() else 1.0
            return fallback_move(position, share * seconds, received, self.settings, self.clock)
        game = player.game
        state = game.state_from_cells(position.board, position.to_move - 1)
        start = player.clock() - (self.clock() - received) if hasattr(player, "clock") else None
        point = game.point_of(player.choose(state, seconds, start, **options))
        if self.fallbacks and not self.searched:
            self.warn(f"the engine takes over at move {len(self.history) + 1} (after {self.fallbacks} fallback moves)")
        self.searched += 1
        return point
