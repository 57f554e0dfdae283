"""The Go player: every Go adapter's search, knowledge, policies and time (the Go engines and Little-Go).

How its data is represented: a position is the engine's state (engines/games/go.py: a flat int64
array, the game's ``Go`` object says how to read it); a point is ``(row, col)`` of the board view
(row 0 at the top) or ``PASS`` (None); colours are players 0 (Black) and 1 (White); a move the
player answers is a point, ``PASS`` or ``RESIGN``.  The player keeps one searcher per board size
(kept across games of that size), the position its tree stands at (``tree_state``: the tree follows
the moves played, ``moved``), the last search's ``(state, SearchResult)`` (ownership and analysis
read it) and, per colour, its moves in a row below the resign threshold.

What it owns:
  * the assembly: the game (``Go(size, komi, rules)``), the search (``search``: rave, mcts, auto =
    rave when it can be built else mcts, or go5 = Go5's knowledge-initialised MCTS, a configuration
    of mcts) and its knowledge (RAVE's heavy Go knowledge with the shipped weights or a weights file;
    Go5's priors and rollouts from its weights);
  * the policies: resign (the win rate below ``resign_threshold`` for ``resign_moves`` of our moves
    in a row), pass when the opponent passed and counting the board wins, cleanup (kgs-genmove_cleanup
    captures dead stones before it passes), the placement of free handicap stones;
  * the time: every deadline comes from ``engines.players.clock.TimeManager`` (a per-move budget on
    wall or CPU time, or a controller's game clock), and a fixed simulation count (``simulations``,
    Go5's ``num_total_sim``) bounds the search as well; the time a move took is charged to the game
    clock (``TimeManager.charge``).

A session that keeps a game (the Go engine's) has the player keep its record too (``new_record``:
engines/players/go_record.py over ``EngineBoards``, the tree following the moves) and asks for a
move with ``genmove``, which reads the opponent's pass from the record and plays the move there.

``GoSettings`` (engines/players/go_settings.py, importable while the kernels compile) is the player's
tunables; an adapter's own settings carry them under the same names (``GoSettings.of(adapter_settings)``
takes them).
"""
import dataclasses
import time

import numpy as np

from engines.errors import IllegalMove, Reason
from engines.games.go import Go
from engines.knowledge.go import ownership as go_ownership
from engines.knowledge.go.policy_network import TreePolicy
from engines.players.clock import CPU, TimeManager, think_on
from engines.players.go_record import GoRecord, SetupError
from engines.players.go_settings import GoSettings
from engines.search import Limits, make_searcher

PASS = None
RESIGN = "resign"
def free_handicap_points(n: int, stones: int, fixed_points: list) -> list:
    """Where ``stones`` free handicap stones go on n x n: the fixed points first (``fixed_points``, the
    protocol's star points for up to 9), the rest on the third line and inwards, in board order."""
    points = list(fixed_points)
    if len(points) < stones:
        line = min(2, n // 3)
        candidates = sorted(((r, c) for r in range(n) for c in range(n)),
                            key=lambda p: (abs(min(p[0], n - 1 - p[0], p[1], n - 1 - p[1]) - line), p))
        for p in candidates:
            if len(points) == stones:
                break
            if p not in points:
                points.append(p)
    return points


class EngineBoards:
    """The Go engine's positions for a GoRecord (engines/players/go_record.py): the player's game,
    its tree following the moves played."""

    def __init__(self, player: "GoPlayer"):
        self.player = player

    def initial(self, size: int, komi: float):
        self.player.komi = komi
        return self.player.start(size).initial_state()

    def with_komi(self, states: list, komi: float) -> list:
        game = self.player.set_komi(komi)
        return [game.with_komi(s, komi) for s in states]

    def play(self, state, colour: int, point):
        """The position after colour's point (or PASS); a move only superko forbids is played (a
        controller's rules may know no superko), IllegalMove for any other the rules forbid."""
        game = self.player.game
        before = self.player.position_for(state, colour)
        action = game.action_at(point)
        reason = game.illegal_reason(before, action)
        if reason is not None and reason is not Reason.SUPERKO:
            raise IllegalMove(reason, action)
        after = game.play_tolerant(before, action)
        self.player.moved(before, action, after)
        return after

    def board(self, state):
        return self.player.game.cells(state), self.player.game.captures(state)

    def setup(self, size: int, komi: float, black, white, to_move: int):
        cells = np.zeros((size, size), dtype=np.int8)
        for point in black:
            cells[point] = 1
        for point in white:
            cells[point] = 2
        try:
            state = self.player.game.state_from_cells(cells, to_move, moves_played=to_move)
        except ValueError as err:
            raise SetupError(f"bad setup stones: {err}") from None
        self.player.forget()
        return state

    def stones(self, state) -> bool:
        return bool((self.player.game.cells(state) != 0).any())

    def forget(self):
        self.player.forget()


def best_allowed(game, action, result, allowed) -> int:
    """Little-Go: the search's action when the host allows it (``allowed``: the host's valid stones, as
    actions; the pass is always valid), else the most visited one it allows, else the pass."""
    if action == game.pass_action or action in allowed:
        return action
    ranked = sorted(zip(result.visits, result.moves), reverse=True) if result is not None else []
    return next((a for _, a in ranked if a == game.pass_action or a in allowed), game.pass_action)


class GoPlayer:
    """The Go player of one session (see the module's comment): ``start(size)`` a game, ``moved``
    when a move is played, ``choose`` a move (the policies), ``search`` / ``analysis`` for the
    analysis commands, ``ownership`` / ``statuses`` / ``counted_score`` for the end of the game."""

    def __init__(self, settings: GoSettings = GoSettings(), time_manager: TimeManager | None = None,
                 simulations: int | None = None, komi: float | None = 7.0, rules: str = "standard", clock=None,
                 weights=None):
        self.settings = settings
        self.time = time_manager if time_manager is not None else TimeManager()
        self.simulations = simulations       # at most this many simulations a move (None: time alone)
        self.clock = clock if clock is not None else self.time.clock   # the searches' clock
        self.komi, self.rules = komi, rules
        self.searchers = {}                  # board size -> searcher (rave/mcts: kept across games)
        self.search_name = None
        self.game = None
        self.searcher = None
        self.tree_state = None
        self.last_result = None              # (state, SearchResult) of the last search
        self.last_limits = None              # the Limits of the last timed move (None: none searched)
        self.low = [0, 0]
        self.record = None                   # a session's GoRecord (new_record), when it keeps one
        self._weights = weights              # move weights (GoWeights) given, else read from settings.weights
        self.policies = {}                   # board size -> PolicyNetwork (policy_prior > 0)

    # ---- the game and the searcher ------------------------------------------------------------
    def make_game(self, size: int):
        return Go(size, komi=self.komi, rules=self.rules)

    def start(self, size: int):
        """A new game on size x size: the game, its searcher (tree forgotten), the counters reset."""
        self.game = self.make_game(size)
        self.searcher = self.searcher_for(size)
        self.forget()
        self.last_result = None
        self.low = [0, 0]
        return self.game

    def set_komi(self, komi: float):
        """A new komi: the game is rebuilt and the tree forgotten."""
        self.komi = komi
        self.game = self.make_game(self.game.size)
        self.forget()
        return self.game

    def new_record(self, size: int) -> GoRecord:
        """A session's game record over this player's positions (engines/players/go_record.py)."""
        self.record = GoRecord(EngineBoards(self), size, self.komi)
        return self.record

    def position_for(self, state, colour: int):
        """state with colour to move; a finished game (two passes) goes on."""
        if self.game.is_terminal(state):
            state = self.game.resumed(state)
        if self.game.to_move(state) != colour:
            state = self.game.set_to_move(state, colour)
        return state

    def forget(self):
        """The game changed in a way the tree did not foresee (setup, undo, komi)."""
        self.tree_state = None
        if self.searcher is not None:
            self.searcher.reset()

    def moved(self, before, action: int, after):
        """The game went from before to after by action: the tree is kept when it stood at before."""
        if self.tree_state is not None and self.game.komi_of(self.tree_state) != self.game.komi_of(before):
            # the tree's positions carry the search's komi (avoid_jigo): compare and follow with it
            before, after = (self.game.with_komi(x, self.game.komi_of(self.tree_state)) for x in (before, after))
        if self.tree_state is not None and np.array_equal(self.tree_state, before):
            self.searcher.advance(action)
            self.tree_state = after
        else:
            self.tree_state = None

    def searcher_for(self, size: int):
        if self.settings.search == "go5":
            return self.build_searcher(self.game)  # Go5 builds its tree afresh (new_tree)
        if size not in self.searchers:
            searcher = self.build_searcher(self.game)
            # load the compiled kernels now (numba loads cached code at the first call), not on the clock
            searcher.search(self.game.initial_state(), Limits(simulations=16))
            searcher.reset()
            go_ownership.ownership(self.game.initial_state(), 1)
            self.searchers[size] = searcher
        return self.searchers[size]

    def build_searcher(self, game, seed: int | None = None):
        """The search of the ``search`` setting for game (ValueError when it cannot be built)."""
        s = self.settings
        seed = s.seed if seed is None else seed
        if s.search == "go5":
            self.search_name = "go5"
            return make_searcher("mcts", game, self.go5_config(), self.go5_knowledge(), seed,
                                 capacity=s.capacity, clock=self.clock)
        names = ["rave", "mcts"] if s.search == "auto" else [s.search]
        if s.policy_prior > 0 and (s.search in ("auto", "rave") or s.policy_network is not None) \
                and self.policy_network(game.size) is not None:
            # a network file is asked for and fits: a search without it is no fallback (the shipped one, the
            # default, steps aside for a search the user chose)
            if s.search not in ("auto", "rave"):
                raise ValueError(f"policy_prior needs the rave search, not {s.search}")
            names = ["rave"]
        last = None
        for name in names:
            options = {"capacity": s.capacity, "clock": self.clock}
            if name == "rave" and s.threads > 1:
                options["threads"] = s.threads
            try:
                searcher = make_searcher(name, game, self.mcts_config() if name == "mcts" else None,
                                         self.knowledge(name, game), seed, **options)
            except (ValueError, ImportError, FileNotFoundError) as err:
                last = err
                continue
            self.search_name = name
            if name == "rave" and s.policy_visits > 0 and s.policy_prior > 0:
                network = self.policy_network(game.size)
                if network is not None:
                    for tree in getattr(searcher, "searchers", [searcher]):
                        tree.batch_hook = TreePolicy(network, s.policy_prior, s.policy_visits,
                                                     prior_amaf=tree.config.prior_amaf)
            if self.time.kind == CPU:  # batches sized by wall time (engines/search/tree.py: run_batches)
                searcher.rate_clock = time.perf_counter
            return searcher
        raise ValueError(f"cannot build the search {s.search!r}: {last}")

    def mcts_config(self) -> dict:
        s = self.settings
        fields = {"selection": s.selection, "c": s.c, "expand_visits": s.expand_visits}
        return {key: value for key, value in fields.items() if value is not None}

    def weights(self):
        """The move weights: those given, else the weights file's (read once)."""
        if self._weights is None and self.settings.weights is not None:
            from engines.knowledge.go.go5_weights import load_weights
            self._weights = load_weights(self.settings.weights)
        return self._weights

    def knowledge(self, name: str, game):
        """The search's knowledge: its default (None: rave's heavy Go knowledge with the newest shipped
        weights, mcts's random playouts), or rave's with the ``weights`` file's move weights."""
        s = self.settings
        playout_changes, prior_changes = self.reading_changes()
        # room in the priors for the root's network prior (policy_visits 0); the tree-wide one is a batch hook
        network = s.policy_prior > 0 and s.policy_visits == 0 and self.policy_network(game.size) is not None
        if s.weights is None and not (name == "rave" and (s.legal_children or playout_changes or prior_changes
                                                          or network)):
            return None
        if name != "rave":
            raise ValueError(f"the {name} search takes no weights file")
        from engines.knowledge.go.registered import heavy_knowledge
        knowledge = heavy_knowledge(game, weights=self.weights() if s.weights is not None else None,
                                    playout_changes=playout_changes, prior_changes=prior_changes, network=network)
        if s.legal_children:  # every legal move, own eyes included (they can be worth a point)
            knowledge = dataclasses.replace(knowledge, children=game.kernels.legal)
        return knowledge

    def policy_network(self, size: int):
        """The policy network for size x size (read once), None when there is none for that size (no
        weights/go/policy<size>.onnx, or the policy_network file was made for another board: that size
        is played without it); NetworkError when the file given is missing or no Go policy network."""
        if size not in self.policies:
            import pathlib
            from engines.knowledge.go.policy_network import OtherBoardSize, PolicyNetwork
            path = self.settings.policy_network
            if path is None:
                path = pathlib.Path(__file__).resolve().parent.parent.parent / "weights" / "go" / f"policy{size}.onnx"
                if not path.is_file():
                    self.policies[size] = None
                    return None
            try:
                self.policies[size] = PolicyNetwork(path, size)
            except OtherBoardSize:
                self.policies[size] = None
        return self.policies[size]

    def root_policy(self, state):
        """With policy_prior: the network's probabilities at state into the searcher's tree priors; a
        tree grown before (its root's children made without them) starts afresh."""
        if self.settings.policy_visits > 0:
            return  # the prior at every node: the searcher's batch hook (TreePolicy), the tree kept across moves
        network = self.policy_network(self.game.size) if self.settings.policy_prior > 0 else None
        if network is None or self.search_name != "rave":
            return
        from engines.knowledge.go.registered import set_root_policy
        probabilities = network.probabilities(state, self.game.legal_moves(state))
        searchers = getattr(self.searcher, "searchers", [self.searcher])
        changed = False
        for searcher in searchers:
            changed |= set_root_policy(searcher.exp_params, state, probabilities, self.settings.policy_prior)
        if changed:
            self.searcher.reset()

    def reading_changes(self) -> tuple[dict, dict]:
        """The reading settings as changes of the heavy knowledge's playout and prior defaults
        (engines/knowledge/go/registered.py), only those that differ from the defaults."""
        s = self.settings
        playout, prior = {}, {}
        if s.twolib_reading:
            playout["twolib_read"] = 1.0
        if s.nakade_filled:
            playout["nakade_filled"] = 1.0
            prior["nakade_filled"] = 1.0
        if s.critical_prior:
            prior["critical"] = s.critical_prior
        return playout, prior

    def go5_config(self) -> dict:
        """Go5's search: UCT over the children K(X) then the pass, the first most visited move."""
        s = self.settings
        config = {"selection": "uct", "final_move": "first_most_visited", "parent_visits": "node",
                  "expand_descends": False}
        config.update({k: v for k, v in (("c", s.c), ("rollout_limit", s.rollout_limit)) if v is not None})
        if s.go5_knowledge:
            from engines.knowledge.go.go5_prior import STRENGTH
            config.update(prior_use="init", prior_strength=float(STRENGTH), prior_counts="rounded",
                          prior_view="player0")
        if s.go5_rollouts == "probabilistic":
            config.update(rollout="prior")
        return config

    def go5_knowledge(self):
        """Go5's knowledge: its children; its priors (as node initialisation, the integers
        prior_knowledge prints) and rollouts drawn by the move weights when asked for."""
        from engines.knowledge.bundle import Knowledge
        from engines.knowledge.go.go5_prior import go5_children, go5_prior, prior_params
        knowledge = Knowledge(children=go5_children)
        if self.settings.go5_knowledge or self.settings.go5_rollouts == "probabilistic":
            knowledge = knowledge.replace(prior=go5_prior, prior_params=prior_params(self.weights()))
        return knowledge

    # ---- the time ------------------------------------------------------------------------------
    def limits(self, colour: int, moves_played: int, arrival: float) -> Limits:
        """The search's budget for colour's move: the TimeManager's deadline (the game clock's
        allocation, else the per-move budget) and the simulation count."""
        points = self.game.size * self.game.size
        deadline = self.time.deadline(colour, moves_played, points, start=arrival)
        if deadline is None:
            return Limits(simulations=self.simulations, time=None, margin=0.0)
        return Limits(time=deadline.at - arrival, simulations=self.simulations, start=arrival, margin=0.0)

    def search(self, state, limits: Limits):
        self.root_policy(state)
        result = self.searcher.search(state, limits)
        self.tree_state = state
        self.last_result = (state, result)
        return result

    def timed_search(self, state, colour: int, arrival: float):
        """A move's search on the clock: at least ``min_simulations``; its time charged to colour."""
        limits = self.limits(colour, self.game.nmoves(state), arrival)
        result = self.think_on(state, colour, limits, self.allocated_search(state, limits))
        floor = self.settings.min_simulations
        searched = result.stats.get("simulations", 0)
        if limits.time is not None and searched < floor:
            result = self.search(state, Limits(simulations=floor - searched))
            result.stats["simulations"] = floor
            result.stats["floor"] = searched   # what the budget allowed before the floor
        self.time.charge(colour, self.clock() - arrival)
        self.last_limits = limits
        return result

    def on_game_clock(self, limits: Limits) -> bool:
        """A timed search with no simulation cap under a game clock: time saved or borrowed on this
        move is what the later moves get or give."""
        game_clock = self.time.game_clock
        return (limits.time is not None and limits.simulations is None and game_clock is not None
                and game_clock.control.limited)

    def allocated_search(self, state, limits: Limits, checks: int = 4):
        """The search of the move's allocation; with ``stop_early`` under a game clock, in ``checks``
        slices, stopped when the most visited move leads the runner-up by more visits than the time
        left could give at the rate so far (the move cannot change: it is the most visited that plays)."""
        if not (self.settings.stop_early and self.on_game_clock(limits)):
            return self.search(state, limits)
        end, searched = limits.start + limits.time, 0
        for k in range(1, checks + 1):
            result = self.search(state, Limits(time=max(limits.start + limits.time * k / checks - self.clock(), 0.0),
                                               simulations=None, margin=0.0))
            searched += result.stats.get("simulations", 0)
            now = self.clock()
            visits = sorted(result.visits, reverse=True) + [0]
            if k < checks and visits[0] - visits[1] > searched / max(now - limits.start, 1e-6) * (end - now):
                result.stats["stopped_early"] = k
                break
        result.stats["simulations"] = searched
        return result

    def think_on(self, state, colour: int, limits: Limits, result):
        """Under a game clock, an unstable root searches on (engines/players/clock.py think_on), up to
        ``think_longer`` times the allocation more and never past the clock's ceiling
        (TimeManager.ceiling); the later moves' allocations then shrink by what it took.  A fixed
        budget a move has nothing to stretch into."""
        if self.settings.think_longer <= 0 or not self.on_game_clock(limits):
            return result
        ceiling = self.time.ceiling(colour, self.game.nmoves(state), self.game.size * self.game.size)
        end = limits.start + min(ceiling, limits.time * (1.0 + self.settings.think_longer))
        return think_on(lambda seconds: self.search(state, Limits(time=seconds, simulations=None, margin=0.0)),
                        result, limits.time, end, self.settings.unstable_ratio, self.clock)

    def analysis(self, state, seconds: float):
        """Search state for seconds more (the tree grows on)."""
        return self.search(state, Limits(time=seconds, simulations=None, margin=0.0))

    # ---- the end of the game -------------------------------------------------------------------
    def ownership(self, state) -> np.ndarray:
        """Ownership of the board view (+1 Black): the last search's when it was on this position,
        else seeded playouts."""
        if self.last_result is not None:
            searched, result = self.last_result
            own = result.stats.get("ownership")
            if own is not None and np.array_equal(self.game.cells(searched), self.game.cells(state)):
                return go_ownership.to_view(own, self.game.size)
        own = go_ownership.ownership(state, self.settings.ownership_playouts, self.settings.seed)
        return go_ownership.to_view(own, self.game.size)

    def statuses(self, state) -> dict:
        """{"alive", "dead", "seki": [points]} of the stones on the board."""
        return go_ownership.stone_status(self.game.cells(state), self.ownership(state), self.settings.dead_threshold)

    def counted_score(self, state) -> float:
        """Black minus White by area with komi, dead stones removed."""
        cells = self.game.cells(state).copy()
        for r, c in self.statuses(state)["dead"]:
            cells[r, c] = 0
        return self.game.score(self.game.state_from_cells(cells, 0))

    # ---- the policies --------------------------------------------------------------------------
    def choose(self, state, colour: int, arrival: float, opponent_passed: bool = False, cleanup: bool = False,
               board=None):
        """The move for colour in state (colour to move): a point, PASS or RESIGN.  ``board`` is the
        position as counted (default: state; the session's record before a resumed finished game)."""
        board = state if board is None else board
        if not cleanup and opponent_passed and self.counted_margin(board, colour) > 0:
            return PASS  # the opponent passed and counting wins: end the game
        if cleanup:
            point = self.cleanup_move(state, board)
            if point is not PASS:
                return point
        searched = self.jigo_as_loss(state, colour)
        result = self.timed_search(searched, colour, arrival)
        if self.should_resign(colour, result.value) and not cleanup:
            if searched is state or self.counted_margin(board, colour) < 0:  # (a drawn count is no loss)
                return RESIGN
        return self.game.point_of(result.move)

    def jigo_as_loss(self, state, colour: int):
        """state as colour's search sees it: with avoid_jigo and a whole-number komi, the komi moved half a
        point against colour, so that a drawn count is a loss (the same state when nothing changes)."""
        komi = self.game.komi_of(state)
        if not self.settings.avoid_jigo or komi != int(komi) or self.rules == "littlego":
            return state
        return self.game.with_komi(state, komi + (0.5 if colour == 0 else -0.5))

    def counted_margin(self, board, colour: int) -> float:
        """colour's lead in the count of board (dead stones removed): above 0 won, 0 drawn, below 0 lost."""
        score = self.counted_score(board)
        return score if colour == 0 else -score

    def genmove(self, colour: int, arrival: float, cleanup: bool = False):
        """colour's move in the session's record (new_record), played there unless RESIGN: choose
        with the opponent's pass read from the record and the position as counted its current one."""
        record = self.record
        self.last_limits = None
        last = record.moves[-1] if record.moves else None
        opponent_passed = last is not None and last[1] is PASS and last[0] != colour
        point = self.choose(self.position_for(record.position, colour), colour, arrival, opponent_passed, cleanup,
                            board=record.position)
        if point != RESIGN:
            record.play(colour, point)
        return point

    def should_resign(self, colour: int, value: float) -> bool:
        """Count a move's win rate against the threshold; True when colour should resign."""
        low = self.settings.resign and value < self.settings.resign_threshold
        self.low[colour] = self.low[colour] + 1 if low else 0
        return self.low[colour] >= self.settings.resign_moves

    def cleanup_move(self, state, board=None):
        """kgs-genmove_cleanup: a legal liberty of dead opponent stones (the capture goes on until
        none are left); PASS when there is none."""
        board = state if board is None else board
        colour = self.game.to_move(state)
        dead = set(self.statuses(board)["dead"])
        cells = self.game.cells(board)
        targets = [p for p in dead if cells[p] == 2 - colour]
        n = self.game.size
        liberties = sorted({(r + dr, c + dc) for r, c in targets for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                            if 0 <= r + dr < n and 0 <= c + dc < n and cells[r + dr, c + dc] == 0})
        for point in liberties:
            if self.game.is_legal(state, self.game.action_at(point)):
                return point
        return PASS

    def searched_move(self, state, colour: int, arrival: float):
        """The point a search for colour in state chooses on the move's budget, not played and with no
        policy (neither resign nor pass when ahead): a regression test's question."""
        result = self.search(self.position_for(state, colour), self.limits(colour, self.game.nmoves(state), arrival))
        return self.game.point_of(result.move)

    def heat(self, result) -> tuple:
        """A heat map of the root: ([(point, win rate as -1..1)], [(point, visits)] with the passes
        left out, the most visited candidate or None)."""
        candidates = self.candidates(result)
        moves = [c for c in candidates if c[0] is not PASS]
        best = max(candidates, key=lambda c: c[1]) if candidates else None
        return [(c[0], 2 * c[2] - 1) for c in moves], [(c[0], c[1]) for c in moves], best

    def move_report(self, seconds_used: float) -> str:
        """One line on the last move: the time allocated and used, simulations, win rate, search."""
        limits, result = self.last_limits, self.last_result[1] if self.last_result else None
        searched = limits is not None and result is not None
        allocated = f"{limits.time:.4f}" if limits is not None and limits.time is not None else "none"
        return (f"allocated {allocated} used {seconds_used:.4f} simulations "
                f"{result.stats.get('simulations', 0) if searched else 0} winrate "
                f"{f'{result.value:.3f}' if searched else '-'} search {self.search_name}")

    def candidates(self, result) -> list:
        """The root moves the analysis shows: (point, visits, win rate for the mover, principal
        variation as points), the visited ones in the search's order."""
        pv_rest = result.pv[1:] if result.pv else []
        out = []
        for move, visits, value in zip(result.moves, result.visits, result.values):
            if visits < 1:
                continue
            pv = [move] + (pv_rest if result.pv and move == result.pv[0] else [])
            out.append((self.game.point_of(move), int(visits), float(value), [self.game.point_of(m) for m in pv]))
        return out

    # ---- a single-shot move (Little-Go: one process a move) ---------------------------------------
    def single_move(self, game, state, seed: int, start: float):
        """(action, SearchResult or None) for state: a forced move at once, else a fresh search with
        this seed on the TimeManager's budget counted from ``start`` (and ``simulations``)."""
        legal = game.legal_moves(state)
        if len(legal) == 1:
            return legal[0], None
        self.game = game
        self.searcher = self.build_searcher(game, seed)
        result = self.timed_search(state, game.to_move(state), start)
        return result.move, result

    # ---- Go5's genmove -------------------------------------------------------------------------
    def go5_reset(self, game):
        """Go5's new board (or in-tree knowledge switched on): no tree, the next genmove builds one."""
        self.game = game
        self.searcher = None
        self.go5_toplay = 0   # the colour the kept tree is for

    def go5_move(self, state, colour: int) -> tuple[int, dict]:
        """Go5's genmove for colour: ``simulations`` playouts, then the most visited root child (the
        first in child order on a tie); (action, the search's stats).  The tree is kept for the next
        genmove of the other colour (Go5's tree reuse) and thrown away otherwise; a pass never keeps it."""
        if self.searcher is None or colour != self.go5_toplay:
            self.searcher = self.build_searcher(self.game)
        limits = self.limits(colour, 0, self.clock())
        result = self.searcher.search(state, limits)
        if result.move == self.game.pass_action:
            self.searcher = None
        else:
            self.searcher.advance(result.move)
        self.go5_toplay = 1 - colour
        return result.move, result.stats

    go5_toplay = 0

