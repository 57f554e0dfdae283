"""The Hex player: the Hex adapters (the HexGui / MoHex engine, the tournament clients) play through it,
so a setting means the same thing under the same name in each of them.

``HexSettings`` holds the player's tunables (a frozen dataclass; adapters subclass it for their own
session keys and generate their flags from it, adapters/config.py).  ``HexPlayer`` plays one board
size: it assembles the game, the network (``network_for_size``, next to the network loader), the
searcher with its knowledge, asks the one time manager (clock.py ``TimeManager``) for each move's
deadline, and owns the Hex policies:
  * the network by board size ('shipped', a file, 'none'; 'auto': shipped for greedy, none for search); a
    user's network of any other architecture (run by onnxruntime) plays greedy, or in a search gives
    the RAVE search's root its probabilities (engines/knowledge/hex/root_prior.py: the compiled search
    cannot call it below the root);
  * the swap: white swaps right after black's first stone when its best win rate is below
    ``swap_below`` (whether swap is allowed at all is the session's rule: ``may_swap``);
  * H-search's connections at the root (root_connections: a proven win at once, the move kept to
    the must-play cells) and, once few cells are empty, the DFPN solver within a share of the move's
    time (root_solver: a proven win at once, moves proven lost avoided; its table kept all game);
  * greedy (the network's best move, no search) or search: RAVE with the Hex knowledge by default, MCTS
    on request, MCTS in the network's playouts (and/or PUCT over its priors) with a network.

A player keeps a game record for a session that sends moves one by one (the HexGui engine:
``new_game``, ``place``, ``swap``, ``undo``, ``genmove``): engine states, and the search tree kept while the game goes on as
the tree foresaw.  A session that sends whole boards (the tournament) asks ``choose(cells, player)``,
through ``SizedPlayers`` (a player per board size, the fallback search's moves while the kernels compile).
Points are (row, col), row 0 at the top; player 0 joins the rows, player 1 the columns.

This module imports no compiled kernel at import (the adapters import it for the settings while the
cache may be cold); the engine is imported when a HexPlayer is built.
"""
from time import perf_counter
from dataclasses import dataclass
from pathlib import Path

from engines.games.reference.hex import MAX_SIZE, MIN_SIZE
from engines.players.clock import TimeManager, budget_problems, think_on
from engines.settings import setting

MODES = ("greedy", "search")
SEARCHES = ("rave", "mcts")
NETWORK_USES = ("rollout", "prior", "both")
PRIOR_USES = ("init", "additive", "multiplicative")   # engines/search/mcts.py, the ways that use priors
PIECES = ("patterns", "inferior", "connections")       # engines.knowledge.hex.registered.hex_knowledge's, in order
SHIPPED = "shipped"
DEFAULT_SECONDS = 1.0     # a move's budget when neither time nor simulations is set
SWAP = "swap"             # genmove's answer when the player swaps


def knowledge_pieces(text: str) -> tuple[bool, bool, bool]:
    """(patterns, inferior, connections) named by text: 'all', 'none', or pieces joined by '+'
    ('patterns+connections'); ValueError for anything else."""
    if text in ("all", "none"):
        return (text == "all",) * 3
    names = text.split("+")
    if any(name not in PIECES for name in names) or len(set(names)) != len(names):
        raise ValueError(f"knowledge {text!r}: 'all', 'none' or pieces of {'+'.join(PIECES)} joined by '+'")
    return tuple(piece in names for piece in PIECES)


@dataclass(frozen=True)
class HexSettings:
    """Every tunable of the Hex player, with its default and meaning."""
    mode: str = setting("search", "greedy: the network's best move, no search; search: a tree search", choices=MODES)
    search: str | None = setting(None, "tree search: 'rave' (all-moves-as-first values from every cell a playout "
                                       "fills) or 'mcts' (UCT; a network plays in its playouts) (none: rave, or "
                                       "mcts with a network)", kind=str, choices=SEARCHES)
    knowledge: str = setting("all", "Hex knowledge of the search: 'all', 'none', or pieces joined by '+': patterns "
                                    "(bridge playouts), inferior (dead/captured/dominated cells), connections "
                                    "(virtual connections)")
    time: float | None = setting(None, f"seconds a move, counted from the request's arrival (none: "
                                       f"{DEFAULT_SECONDS:g}, or no time limit when simulations is set; 0: no time "
                                       "limit, then simulations is needed)", kind=float)
    simulations: int | None = setting(None, "MCTS simulations a move, at most (none: the time alone)", kind=int)
    margin: float = setting(0.1, "seconds of a move's time kept for the reply (at most a fifth of it; on a busy "
                                 "machine the last clock reading and the reply's way out take tens of ms)")
    network: str = setting("auto", "policy network: 'shipped' (weights/hex/hex<n>.onnx), an ONNX file, 'none', or "
                                   "'auto': shipped for greedy, none for search (its own playouts); a file of another "
                                   "architecture than plies' own runs in onnxruntime (its sidecar or shapes say its "
                                   "size and encoding): greedy, or its probabilities at the rave search's root")
    network_use: str = setting("rollout", "how the search uses a network: its rollouts, its priors (PUCT) or both",
                               choices=NETWORK_USES)
    prior: str = setting(SHIPPED, "policy network of the rave search's prior: 'shipped' (weights/hex/prior<n>.onnx, "
                                  "none for a size without one), 'none', or an ONNX network file (one of another "
                                  "architecture: its probabilities at the root only)")
    move_patterns: str = setting(SHIPPED, "learned local move patterns as the rave search's prior where no prior "
                                 "network plays: 'shipped' (weights/hex/patterns<n>.txt; none for a size without "
                                 "one; 60.8 % of 120 games against none on 9x9), a pattern table file, or 'none'")
    policy_network: str = setting("none", "a policy CNN (engines/learn/hex/policy.py) as the rave search's prior at "
                                  "every node, run by onnxruntime between the search's compiled batches: "
                                  "'shipped' (weights/hex/policy<n>.onnx; none for a size without one), its ONNX "
                                  "file, or 'none' (off until measured: bench/results/hex_policy_match.md)")
    policy_prior: float = setting(20.0, "policy_network: won virtual visits each child of a node gets, "
                                        "policy_prior x p / max p of the network's probabilities p")
    policy_visits: int = setting(16, "policy_network: the real visits a node needs before the network is asked "
                                     "about its children (the root at once); each node once, the tree kept "
                                     "across moves")
    playout_patterns: str = setting("none", "learned local move patterns as the rave search's playout policy (after "
                                    "the bridge answer, the cells around the last move drawn by their gammas "
                                    "against a uniform draw, MoHex 2.0 style): 'shipped' (weights/hex/patterns<n>"
                                    ".txt; none for a size without one), a pattern table file, or 'none' (the "
                                    "bridge playout)")
    playout_global: float = setting(1.0, "playout_patterns: the weight of each empty cell in the uniform draw, in "
                                         "gammas of a cell with nothing around it")
    seed: int = setting(0, "random seed of the search")
    capacity: int = setting(1 << 22, "MCTS tree nodes (32 bytes each, touched only as used)")
    uct_c: float = setting(0.7, "UCT exploration constant of the mcts search (results on a 0..1 scale)")
    puct_c: float = setting(1.5, "PUCT exploration constant (network_use prior or both)")
    prior_use: str = setting("multiplicative", "how PUCT applies the network's priors", choices=PRIOR_USES)
    expand_visits: int = setting(4, "visits a leaf of the mcts search needs before it grows children (saves memory)")
    epsilon: float = setting(0.1, "network playouts: the chance of a uniformly random move")
    fallback_simulations: int = setting(2000, "greedy mode without a network: simulations a move (unless "
                                              "simulations is set)")
    root_connections: bool = setting(True, "H-search's virtual connections at the root of each search: a proven "
                                           "win played at once, the move kept to the must-play cells (the "
                                           "carriers of the opponent's winning threats)")
    tree_connections: int = setting(0, "H-search at the rave tree's nodes with this many real visits (0: off): a "
                                       "node decided by its connections gets a proven win or loss, and the "
                                       "children outside the must-play cells a proven loss "
                                       "(engines/knowledge/hex/tree_connections.py)")
    root_solver: bool = setting(True, "with root_connections: the DFPN solver at the root once few cells are empty "
                                      "(solver_empties), within solver_share of the move's time and solver_nodes "
                                      "nodes: a proven win played at once, moves proven lost avoided (7x7 against "
                                      "MoHex at 1 s: every game as Black won; 9x9: even with it, "
                                      "bench/results/hex_solver_default.md)")
    solver_empties: int = setting(49, "the root solver runs when at most this many cells are empty (49: every "
                                      "move on the tournament's 5x5-7x7 boards)")
    solver_share: float = setting(0.6, "the root solver's share of the move's time (0..1)")
    solver_nodes: int = setting(1000, "the root solver's nodes a move, at most (the only bound without a time limit)")
    move_check: bool = setting(True, "with root_connections: the searched move checked by the DFPN solver before it "
                                     "is played, where the root solver does not run, within check_share of the "
                                     "move's time and check_nodes nodes: a move proven to lose gives way to the next "
                                     "most visited one (9x9 against MoHex at 1 s, as Black, side by side: 33/60 "
                                     "with it, 25/60 without, bench/results/hex_move_check.md)")
    check_share: float = setting(0.25, "move_check: the share of the move's time kept back from the search for it (0..1)")
    check_nodes: int = setting(1000, "move_check: its nodes a move, at most (a move of simulations only: also at "
                                     "most check_share x simulations / 100)")
    check_candidates: int = setting(4, "move_check: the most visited moves it may check, at most")
    swap_below: float = setting(0.5, "white swaps (where the session allows it) when its best win rate after "
                                     "black's first stone is below this")
    think_longer: float = setting(1.0, "under a game clock (a session's time settings), an unstable root "
                                       "(the runner-up's visits at least unstable_ratio of the best's) thinks on, up "
                                       "to this many times its allocation more, within what the clock allows (0: never)")
    unstable_ratio: float = setting(0.5, "the runner-up's share of the best move's visits that makes a root unstable")

    def __post_init__(self):
        problems = budget_problems(self.time, self.simulations)
        for name in ("capacity", "fallback_simulations"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, int) and value > 0):
                problems.append(f"{name} must be at least 1, got {value!r}")
        if self.expand_visits < 0:
            problems.append("expand_visits must be >= 0")
        if not (self.margin >= 0 and self.uct_c >= 0 and self.puct_c >= 0):
            problems.append("margin, uct_c and puct_c must be at least 0")
        if self.tree_connections < 0:
            problems.append(f"tree_connections must be >= 0, got {self.tree_connections!r}")
        if self.solver_empties < 0 or self.solver_nodes < 1:
            problems.append("solver_empties must be >= 0 and solver_nodes >= 1")
        if self.check_nodes < 1 or self.check_candidates < 1:
            problems.append("check_nodes and check_candidates must be >= 1")
        if not 0 <= self.policy_prior <= 1000 or not 0 <= self.policy_visits <= 1_000_000:
            problems.append(f"policy_prior must be in 0..1000 and policy_visits in 0..1000000, got "
                            f"{self.policy_prior!r} and {self.policy_visits!r}")
        if not self.playout_global > 0:
            problems.append(f"playout_global must be > 0, got {self.playout_global!r}")
        if not (0 <= self.think_longer <= 10 and 0 < self.unstable_ratio <= 1):
            problems.append("think_longer must be in 0..10 and unstable_ratio in (0, 1]")
        for name in ("epsilon", "swap_below", "solver_share", "check_share"):
            if not 0 <= getattr(self, name) <= 1:
                problems.append(f"{name} must be in 0..1, got {getattr(self, name)!r}")
        problems += self.search_problems()
        if problems:
            raise ValueError("; ".join(problems))

    def search_problems(self) -> list[str]:
        """What is wrong with the choice of search, knowledge, network and prior."""
        problems, network = [], self.network_choice() != "none"
        if self.prior not in (SHIPPED, "none") and (self.search == "mcts" or network):
            problems.append(f"prior {self.prior!r}: the prior is the rave search's, not with search mcts or a network")
        if self.move_patterns not in (SHIPPED, "none") and (self.search == "mcts" or network):
            problems.append(f"move_patterns {self.move_patterns!r}: the patterns are the rave search's prior, "
                            f"not with search mcts or a network")
        if self.policy_network not in (SHIPPED, "none") and (self.search == "mcts" or network):
            problems.append(f"policy_network {self.policy_network!r}: the policy CNN is the rave search's prior, "
                            f"not with search mcts or a network")
        if self.playout_patterns != "none" and (self.search == "mcts" or network):
            problems.append(f"playout_patterns {self.playout_patterns!r}: the pattern playouts are the rave "
                            f"search's, not with search mcts or a network")
        try:
            knowledge_pieces(self.knowledge)
        except ValueError as err:
            problems.append(str(err))
        if network and (self.search == "rave" or self.knowledge not in ("none", "all")):
            problems.append("a network plays alone in the playouts of the mcts search: not with search rave "
                            "or knowledge pieces")
        return problems

    def network_choice(self) -> str:
        """'shipped', 'none' or a file ('auto' resolved by the mode)."""
        if self.network == "auto":
            return SHIPPED if self.mode == "greedy" else "none"
        return self.network

    def seconds(self) -> float | None:
        """A move's time budget (None: simulations only)."""
        if self.time is None:
            return DEFAULT_SECONDS if self.simulations is None else None
        return self.time or None

    def time_manager(self, clock=perf_counter, game_clock=None) -> TimeManager:
        """The deadline of every move: the budget less the margin (at most a fifth of a short budget); a
        session's GameClock, once its time control is set, gives the budgets instead."""
        seconds = self.seconds()
        return TimeManager(seconds, margin=min(self.margin, 0.2 * seconds) if seconds else 0.0, clock=clock,
                           game_clock=game_clock)

    def mcts_config(self, with_network: bool) -> dict:
        """The MCTSConfig fields of the mcts search, with or without a network."""
        config = {"selection": "uct", "c": self.uct_c, "expand_visits": self.expand_visits}
        if with_network and self.network_use in ("prior", "both"):
            config.update(selection="puct", c=self.puct_c, prior_use=self.prior_use)
        if with_network and self.network_use in ("rollout", "both"):
            config.update(rollout="network", epsilon=self.epsilon)
        return config


def make_hex_searcher(game, search: str | None, knowledge: str, network, mcts_config: dict, seed: int,
                      capacity: int, prior=None, root_prior=None, move_patterns=None, playout_patterns=None,
                      playout_global: float = 1.0, **options):
    """The Hex searcher: RAVE with the knowledge's traced playouts and the prior network's experience
    (search 'rave', or None without a network), MCTS with the knowledge (search 'mcts'), or MCTS over
    the network (mcts_config then holds its rollout / PUCT settings).  With ``root_prior`` (a
    RootPrior: a network the compiled search cannot run), RAVE with that network's experience at the
    root (the caller asks ``root_prior.prepare(state)`` before each search).  ``move_patterns`` (a
    move_patterns.PatternTable): the RAVE children's prior when no network gives one; ``playout_patterns``
    (one too): the RAVE playouts' policy (``playout_global``: its uniform draw's weight).  options go to
    make_searcher (clock=...).  The player builds its searcher here; so do the benchmarks."""
    from engines.knowledge.hex.registered import RAVE_CONFIG, heavy_knowledge, hex_knowledge
    from engines.knowledge.hex.network import policy_knowledge
    from engines.search import make_searcher
    pieces = knowledge_pieces(knowledge)
    if root_prior is not None:
        searcher = make_searcher("rave", game, RAVE_CONFIG, root_prior.knowledge(heavy_knowledge(game, *pieces)),
                                 seed, capacity=capacity, **options)
        root_prior.attach(searcher)
        return searcher
    if search == "rave" or (search is None and network is None):
        return make_searcher("rave", game, RAVE_CONFIG,
                             heavy_knowledge(game, *pieces, network=prior, move_patterns=move_patterns,
                                             playout_patterns=playout_patterns, playout_global=playout_global),
                             seed, capacity=capacity, **options)
    if network is not None:
        bundle = policy_knowledge(network)
    else:
        bundle = hex_knowledge(game, *pieces) if any(pieces) else None
    return make_searcher("mcts", game, mcts_config, bundle, seed, capacity=capacity, **options)


def warm_up(settings: HexSettings, size: int = 5) -> None:
    """Load the engine and the compiled kernels of the settings' search (a first call of each loads it
    from the cache: about 0.2-0.4 s, too long for a first move on a 1 s clock).  An adapter calls it
    before a harness's clock runs.  A throwaway player of its own: the players' random streams, and so
    their moves, are untouched."""
    from engines.search import Limits
    try:
        player = HexPlayer(settings, size)
    except ValueError:  # a network file for another size: its kernels load at its own first move
        return
    state = player.game.initial_state()
    if player.searcher is None:
        player._greedy(state)
    else:
        player._search(state, Limits(simulations=16))
    if player.connections is not None and player.connections.dfpn is not None:
        # the root solver's node evaluation: the search above may never call it (H-search decides
        # 5x5's empty board), and its first call loads it (about 0.2 s)
        from engines.knowledge.hex import dfpn
        dfpn.warm_up(player.game)


def game_length(size: int) -> int:
    """The moves a game on size x size is expected to last, for a game clock's shares (9x9 games
    against MoHex: a median of 34-45 moves, bench/results/hex_*.games.jsonl)."""
    return size * size // 2


def start_size(settings: HexSettings, default: int) -> int:
    """The size to start on when the session names none: the network file's, the smallest shipped
    network's ('shipped'), the prior file's, else ``default`` (loads the files: a warm engine only)."""
    from engines.knowledge.hex.network import NetworkError, load_network, network_size, shipped_sizes
    choice = settings.network_choice()
    if choice == SHIPPED:
        sizes = shipped_sizes()
        if not sizes:
            raise NetworkError("no shipped network is installed (weights/hex/hex<size>.onnx)")
        return sizes[0]
    if choice == "none":
        choice = settings.prior if settings.prior not in (SHIPPED, "none") else None
    return default if choice is None else network_size(load_network(choice)[0])


class HexPlayer:
    """The moves of one board size (see the module's docstring).  ``seed``: the searcher's (default the
    settings'); ``require_network``: a 'shipped' network missing for the size is a NetworkError (else
    the player plays without one); ``clock``: the clock of the deadlines and the searcher; ``game_clock``:
    a session's GameClock (engines/players/clock.py), whose allocations replace the fixed budget a move
    once a time control is set."""

    def __init__(self, settings: HexSettings, size: int, *, seed: int | None = None,
                 require_network: bool = False, clock=perf_counter, game_clock=None):
        from engines.games import make_game
        from engines.knowledge.hex.network import RuntimeNetwork, network_for_size
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"board size must be in {MIN_SIZE}..{MAX_SIZE}, got {size}")
        self.settings, self.size, self.clock = settings, size, clock
        self.network = network_for_size(settings.network_choice(), size, required=require_network)
        self.game = make_game("hex", size=size)
        self.time_manager = settings.time_manager(clock, game_clock)
        self.notes = []       # what the player had to work around (no network, an engine failure)
        self.searcher = None
        self.root_prior = None  # a network the compiled search cannot run, asked at the root of each search
        self.move_patterns = None  # the learned patterns' table: the rave prior when no network gives one
        self.playout_patterns = None  # the patterns' table of the rave playouts' policy
        prior = None
        if settings.mode == "search" or self.network is None:
            prior = network_for_size(settings.prior, size, "prior") if self.network is None else None
            runtime = next((net for net in (self.network, prior) if isinstance(net, RuntimeNetwork)), None)
            if runtime is not None:
                self._use_root_prior(runtime)
                prior = None
            if prior is None and self.root_prior is None and self.network is None and settings.search != "mcts":
                from engines.knowledge.hex.move_patterns import table_for_size
                self.move_patterns = table_for_size(settings.move_patterns, size)
            if self.network is None and settings.search != "mcts" and settings.playout_patterns != "none":
                from engines.knowledge.hex.move_patterns import table_for_size
                self.playout_patterns = table_for_size(settings.playout_patterns, size)
            self.searcher = self._make_searcher(settings.seed if seed is None else seed, prior)
        self.tree_policy = None  # the policy CNN's prior at every node: the rave searcher's batch hook
        if (self.searcher is not None and self.network is None and self.root_prior is None and prior is None
                and settings.search != "mcts" and settings.policy_prior > 0):
            from engines.knowledge.hex.policy_network import OtherBoardSize, TreePolicy
            from engines.knowledge.hex.policy_network import network_for_size as policy_for_size
            try:
                policy = policy_for_size(settings.policy_network, size)
            except OtherBoardSize as err:  # a file for another size: this size plays without it
                self.notes.append(f"{err}; {size}x{size} plays without it")
                policy = None
            if policy is not None:
                self.tree_policy = TreePolicy(policy, settings.policy_prior, settings.policy_visits,
                                              prior_amaf=self.searcher.config.prior_amaf)
                self.searcher.batch_hook = self.tree_policy
        self.tree_connections = None  # H-search at the tree's nodes: a rave searcher's batch hook too
        if self.searcher is not None and settings.tree_connections > 0 and settings.search != "mcts" \
                and self.network is None:
            from engines.knowledge.hex.tree_connections import Hooks, TreeConnections
            self.tree_connections = TreeConnections(size, settings.tree_connections)
            self.searcher.batch_hook = Hooks(self.tree_policy, self.tree_connections)
        self.connections = None  # the searcher with H-search at its root (issue 33), when the settings ask
        if self.searcher is not None and settings.root_connections:
            from engines.knowledge.hex.root import ConnectionRoot, MoveCheck, SolverUse
            solver = (SolverUse(settings.solver_empties, settings.solver_share, settings.solver_nodes)
                      if settings.root_solver else None)
            check = (MoveCheck(settings.check_share, settings.check_nodes, settings.check_candidates)
                     if settings.move_check else None)
            self.connections = ConnectionRoot(self.searcher, self.game, clock=clock, solver=solver, check=check)
        if settings.mode == "greedy" and self.network is None:
            self.notes.append(f"greedy mode: no network for {size}x{size}; searching "
                              f"{self.limits().simulations} simulations a move instead")
        self.new_game()

    def _use_root_prior(self, network):
        """A network of another architecture (onnxruntime) in a search: the compiled search cannot call
        it, so it gives the RAVE search's root its experience, once a move
        (engines/knowledge/hex/root_prior.py)."""
        from engines.knowledge.hex.registered import NET_HIGH, NET_LOW, NET_VISITS
        from engines.knowledge.hex.root_prior import RootPrior
        self.root_prior = RootPrior(self.game, network, NET_VISITS, NET_LOW, NET_HIGH)
        if self.settings.search == "mcts":
            self.notes.append(f"{network.path.name} runs in onnxruntime, which the compiled mcts search cannot "
                              f"call: the rave search plays, with the network's probabilities at its root")

    def _make_searcher(self, seed: int, prior):
        s = self.settings
        return make_hex_searcher(self.game, s.search, s.knowledge, self.network, s.mcts_config(self.network is not None),
                                 seed, s.capacity, prior=prior, root_prior=self.root_prior,
                                 move_patterns=self.move_patterns, playout_patterns=self.playout_patterns,
                                 playout_global=s.playout_global, clock=self.clock)

    def _search(self, state, limits, think=None):
        """The searcher's result for state (the root prior's network asked first, when there is one);
        ``think(search, result)``: what more the tree's search does with the result (``thinker``)."""
        if self.root_prior is not None:
            self.root_prior.prepare(state)
        if self.connections is not None:
            return self.connections.search(state, limits, think)
        result = self.searcher.search(state, limits)
        if think is None:
            return result
        from engines.search import Limits
        return think(lambda seconds: self.searcher.search(state, Limits(time=seconds, simulations=None, margin=0.0)),
                     result)

    def thinker(self, colour: int, stones: int, limits):
        """Under a game clock, ``think(search, result)`` for ``_search``: an unstable root thinks on
        (engines/players/clock.py think_on) up to ``think_longer`` times the allocation more, never past
        the clock's ceiling, the move check's share of the allocation kept for it; else None."""
        s, manager = self.settings, self.time_manager
        if (s.think_longer <= 0 or limits.time is None or limits.simulations is not None
                or manager.game_clock is None or not manager.game_clock.control.limited):
            return None
        ceiling = manager.ceiling(colour, stones, game_length(self.size))
        end = limits.start + min(ceiling, limits.time * (1.0 + s.think_longer))
        if self.connections is not None and self.connections.check is not None:
            end -= self.connections.check.share * limits.time
        return lambda search, result: think_on(search, result, limits.time, end, s.unstable_ratio, self.clock)


    def describe(self) -> str:
        s = self.settings
        if self.root_prior is not None:
            search = f"RAVE (knowledge {s.knowledge}, the root's prior from {self.root_prior.network.path.name})"
        elif self.network is not None:
            search = f"MCTS (network {s.network_use})"
        elif self.move_patterns is not None:
            search = f"RAVE (knowledge {s.knowledge}, the prior from move patterns {Path(self.move_patterns.path).name})"
        else:
            search = f"{'MCTS' if s.search == 'mcts' else 'RAVE'} (knowledge {s.knowledge})"
        if self.tree_policy is not None:
            search = f"{search[:-1]}, every node's prior from {self.tree_policy.network.path.name})"
        if self.playout_patterns is not None:
            search = f"{search[:-1]}, playouts by move patterns {Path(self.playout_patterns.path).name})"
        if s.mode == "greedy":
            return "greedy policy network" if self.network is not None else \
                f"{search}, {self.limits().simulations} simulations a move (greedy, but no network)"
        seconds = s.seconds()
        budget = ", ".join(x for x in (f"{seconds:g} s" if seconds else "",
                                       f"{s.simulations} simulations" if s.simulations else "") if x)
        return f"{search}, {budget} a move"

    def limits(self, start: float | None = None, colour: int = 0, stones: int = 0):
        """The search's Limits of a move: its deadline from the time manager (under a game clock, the
        allocation of colour's move with ``stones`` on the board) and the simulations."""
        from engines.search import Limits
        s = self.settings
        if s.mode == "greedy":
            return Limits(simulations=s.simulations or s.fallback_simulations)
        start = self.clock() if start is None else start
        deadline = self.time_manager.deadline(colour, stones, game_length(self.size), start=start)
        if deadline is None:
            return Limits(simulations=s.simulations)
        return Limits(simulations=s.simulations, time=deadline.at - start, start=start, margin=0.0)

    # ---- a game record (a session that sends moves one by one) ----------------------------------
    def new_game(self):
        """An empty board; the searcher forgets its tree (its random stream goes on)."""
        if self.searcher is not None and getattr(self, "states", None) is not None:
            self.searcher.reset()
        self.states = [self.game.initial_state()]
        self.tree_state = None   # the position the searcher's tree stands at, while it is still useful

    @property
    def state(self):
        return self.states[-1]

    def position_for(self, colour: int):
        """The current position with colour to move (a new state when it is the other's turn)."""
        state = self.state
        if self.game.to_move(state) != colour:
            state = self.game.state_from_cells(self.game.cells(state), colour)
        return state

    def place(self, colour: int, point):
        """colour's stone on point (the session checked it); the tree is kept when it stood here."""
        import numpy as np
        action = self.game.action(*point)
        before = self.position_for(colour)
        after = self.game.play(before, action)
        if self.tree_state is not None and self.searcher is not None and np.array_equal(self.tree_state, before):
            self.searcher.advance(action)
            self.tree_state = after
        else:
            self.tree_state = None
        self.states.append(after)

    def swap(self):
        """The swap move: the board stays, white moves again."""
        self.states.append(self.state)

    def undo(self):
        self.states.pop()
        self.tree_state = None

    def search(self, colour: int, start: float | None = None):
        """The search's result for colour to move now (the tree stays at this position)."""
        state = self.position_for(colour)
        stones = int((self.game.cells(state) != 0).sum())
        limits = self.limits(start, colour, stones)
        result = self._search(state, limits, self.thinker(colour, stones, limits))
        self.tree_state = state
        return result

    def genmove(self, colour: int, start: float | None = None, may_swap: bool = False):
        """colour's move: a point (not played yet: the session plays it with ``place``), or SWAP when
        ``may_swap`` and the search rates black's first stone too good for any white reply."""
        if self.searcher is None:
            return self.game.coords(self._greedy(self.position_for(colour)))
        result = self.search(colour, start)
        if may_swap and result.values[result.moves.index(result.move)] < self.settings.swap_below:
            return SWAP
        return self.game.coords(result.move)

    def _greedy(self, state) -> int:
        from engines.knowledge.hex.network import greedy_move
        return int(greedy_move(self.game, state, self.network))

    # ---- whole boards (a session that sends the board each move) -------------------------------
    def choose(self, cells, player: int, start: float | None = None) -> tuple[int, int]:
        """(row, col) for player (0: joins the rows, 1: the columns) on this size's grid of 0/1/2;
        start: the clock's reading when the request arrived.  Whatever goes wrong inside the engine,
        a legal move (the first empty cell, noted in ``notes``): a tournament forfeits a lot for an
        illegal or missing move, nothing for a weak one."""
        if len(cells) != self.size:
            raise ValueError(f"a {len(cells)}x{len(cells)} board given to the {self.size}x{self.size} player")
        state = self.game.state_from_cells(cells, player)
        legal = self.game.legal_moves(state)
        if not len(legal):  # a won board still has empty cells to offer; a full one has none
            empty = [(r, c) for r in range(self.size) for c in range(self.size) if int(cells[r][c]) == 0]
            if not empty:
                raise ValueError("the board is full: there is no move to make")
            return empty[0]
        try:
            if self.searcher is None:
                move = self._greedy(state)
            else:
                move = int(self._search(state, self.limits(start)).move)
            if move not in legal:
                raise ValueError(f"the engine chose {move}, not a legal move")
        except Exception as err:  # noqa: BLE001 - a legal move matters more than the engine's failure
            self.notes.append(f"engine failure ({type(err).__name__}: {err}); played the first legal move")
            move = int(legal[0])
        row, col = self.game.coords(move)
        return int(row), int(col)


class SizedPlayers:
    """The player of each board size, for a session that sends whole boards (the tournament clients):
    built when a series starts on a size once the kernels are compiled (``ready()``: a cold start's
    compiler says so); until then, and on a size the network cannot play, the fallback search's moves.
    Each size's searcher has its own seed (the settings' seed plus the size); ``note(text)`` is told
    what the players had to work around."""

    def __init__(self, settings: HexSettings, ready, note, clock=perf_counter):
        self.settings, self.ready, self.note, self.clock = settings, ready, note, clock
        self.players = {}        # board size -> HexPlayer (None: it cannot play that size, said mid-series)
        self.player = None       # the current size's player (None: fallback moves, the engine compiling)
        self.size = None
        self.fallback_moves = 0  # moves answered by the fallback search

    def start(self, size: int):
        """A series on size: its player when the kernels are compiled (a NetworkError for a network
        file of another size comes here, before any move)."""
        self.size, self.player = size, None
        if self.ready():
            self._build(size)

    def _build(self, size: int):
        if self.players.get(size) is None:
            self.players[size] = HexPlayer(self.settings, size, seed=self.settings.seed + size, clock=self.clock)
        self.player = self.players[size]
        self._pass_notes()

    def _pass_notes(self):
        for note in self.player.notes:
            self.note(note)
        self.player.notes.clear()

    def describe(self) -> str:
        if self.player is not None:
            return self.player.describe()
        return "quick fallback moves (a shallow search) until the engine is compiled"

    def engine_ready(self) -> bool:
        """True when the size's player plays; builds it once the compile is done (mid-series: a network
        that cannot play the size is noted, and the fallback goes on for the series)."""
        if self.player is not None:
            return True
        if self.size in self.players or not self.ready():  # in players (as None): cannot play it
            return False
        try:
            self._build(self.size)
        except ValueError as err:  # NetworkError; said at the next series start, before any move
            self.players[self.size] = None
            self.note(f"the engine is compiled but cannot play {self.size}x{self.size}: {err}; quick fallback "
                      f"moves for the rest of the series")
            return False
        warm_up(self.settings)   # its kernels load now, not on the next move's clock
        self.note(f"the engine is compiled: it plays from now on ({self.player.describe()})")
        return True

    def choose(self, cells, player: int, start: float) -> tuple[int, int]:
        """player's (row, col) on the board cells: the size's player's, else the fallback search's
        within the move's time."""
        if self.engine_ready():
            point = self.player.choose(cells, player, start=start)
            self._pass_notes()
            return point
        self.fallback_moves += 1
        return fallback_move(self.settings, cells, player, start, self.clock)


def fallback_move(settings: HexSettings, cells, player: int, start: float, clock=perf_counter,
                  without_time: float = 0.2, game_clock=None) -> tuple[int, int]:
    """A cold start's move (never a swap): a shallow search of the board ``cells`` for ``player`` over
    the reference rules (engines/players/coldstart.py), within the move's own deadline (a session's
    ``game_clock``'s allocation once it is set), or ``without_time`` seconds when the settings give
    simulations only (a fallback cannot count them)."""
    from engines.games.reference.hex import SearchRules
    from engines.players.clock import Deadline
    from engines.players.coldstart import fallback_search
    stones = sum(1 for row in cells for cell in row if int(cell) != 0)
    deadline = settings.time_manager(clock, game_clock).deadline(player, stones, game_length(len(cells)), start=start)
    deadline = deadline if deadline is not None else Deadline.after(without_time, clock, start)
    rules = SearchRules(len(cells))
    return rules.point(fallback_search(rules, rules.position(cells, player), deadline))
