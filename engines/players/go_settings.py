"""The Go player's settings (engines/players/go.py), in a module of their own so that an adapter can
read and extend them while the compiled kernels are cold (this module imports no kernel).

``GoSettings`` is a frozen dataclass of ``engines.settings.setting`` fields: each a default, one line
of meaning, a type and, where they are few, the allowed values; the same names in every Go adapter.
"""
import dataclasses
from dataclasses import dataclass

from engines.settings import setting

SEARCHES = ("auto", "rave", "mcts", "go5")
GO5_ROLLOUTS = ("random", "probabilistic")


@dataclass(frozen=True)
class GoSettings:
    """The Go player's tunables (one meaning each, the same name in every Go adapter)."""
    search: str = setting("auto", "rave, mcts, auto (rave when it can be built, else mcts), go5", choices=SEARCHES)
    c: float | None = setting(None, "mcts / go5: the UCT exploration constant (None: the search's default)",
                              kind=float)
    selection: str | None = setting(None, "mcts: the selection rule (None: the search's default)", kind=str)
    expand_visits: int | None = setting(None, "mcts: visits a leaf needs before it grows children (None: default)",
                                        kind=int)
    rollout_limit: int | None = setting(None, "go5: rollout moves after the tree, at most", kind=int)
    capacity: int = setting(1 << 22, "search tree nodes (per tree)")
    threads: int = setting(1, "rave: trees searched at once in as many threads, merged at the root (a core each; "
                              "engines/search/parallel.py)")
    seed: int = setting(0, "random seed of the search and the ownership playouts")
    weights: str | None = setting(None, "a move-weights file: rave's priors, go5's priors and rollouts (none: the "
                                        "search's default knowledge)", kind=str)
    twolib_reading: bool = setting(False, "rave's playouts: answer a chain of 2 liberties next to the last move "
                                          "with the ladder reader (the ladder's atari, the escape that works) "
                                          "instead of the shallow rule")
    nakade_filled: bool = setting(False, "rave: the vital point also of an eye space that already holds the "
                                         "attacker's stones (playouts and priors)")
    critical_prior: float = setting(0.0, "rave: won visits of the prior for a move that saves a critical own chain "
                                         "(4+ stones, 2 liberties) or plays a liberty race (0: none)")
    policy_prior: float = setting(20.0, "rave: won visits for the policy network's moves, p / max p of each, at the "
                                       "root or with policy_visits at every node (0: no network; at the root only 20 "
                                       "scored 55.0 % of 80 games against 0 at 1 s a move on 9x9, 44.1-65.4 %; at every "
                                       "node of 16 visits 20 scored 71.2 %, 60.5-80.0 %, and 40 73.8 %, 63.2-82.1 %: "
                                       "bench/results/go_policy_match.md, go_policy_tree_match.md)")
    policy_visits: int = setting(16, "rave: with policy_prior, the real visits a node needs before the network's "
                                    "prior reaches its children, at every node of the tree (the root at once); "
                                    "0: at the root only, a tree started afresh each move; 16 tried). The shipped "
                                    "network (9x9; 13x13's, weights/go/candidate/policy13.onnx, is given with "
                                    "policy_network until it wins: bench/results/go_policy13_match.md) plays with the rave "
                                    "search only: other searches, and sizes without one, play without it")
    policy_network: str | None = setting(None, "the Go policy network (ONNX) of policy_prior (none: "
                                               "weights/go/policy<size>.onnx)", kind=str)
    legal_children: bool = setting(False, "rave: every legal move is a child (Little-Go's stones-only scoring)")
    go5_knowledge: bool = setting(False, "go5: new nodes start from the weights' priors (in_tree_knowledge)")
    go5_rollouts: str = setting("random", "go5: random or probabilistic (drawn by the move weights) rollouts",
                                choices=GO5_ROLLOUTS)
    min_simulations: int = setting(0, "a timed search searches at least this many simulations")
    think_longer: float = setting(1.0, "under a game clock, an unstable root (the runner-up's visits at least "
                                       "unstable_ratio of the best's) thinks on, up to this many times its "
                                       "allocation more, within what the clock allows (0: never; 1 won 61.7 % "
                                       "of 120 games against 0, bench/results/go_time_policy.md)")
    unstable_ratio: float = setting(0.5, "the runner-up's share of the best move's visits that makes a root unstable")
    stop_early: bool = setting(False, "under a game clock, a move stops when its most visited move can no longer be "
                                      "overtaken in the time left (checked at each quarter of its allocation)")
    avoid_jigo: bool = setting(False, "with a whole-number komi (a drawn count, jigo, possible), the search counts a "
                                      "draw as a loss for the side it plays, so that it plays for the win; it resigns "
                                      "only when the count is lost, not drawn (even: 80 against 78.5 of 100 games "
                                      "against GNU Go on 9x9, bench/results/go_jigo.md)")
    resign: bool = setting(True, "resign lost games (false: never, for course and tournament use)")
    resign_threshold: float = setting(0.1, "resign when the win rate stays below this ...")
    resign_moves: int = setting(3, "... for this many of our moves in a row")
    ownership_playouts: int = setting(400, "playouts of the ownership estimate when the search gave none")
    dead_threshold: float = setting(0.2, "a chain is dead when its mean ownership (or its region's), from its "
                                         "own side, is below minus this (engines/knowledge/go/ownership.py)")

    def __post_init__(self):
        problems = self.problems()
        if problems:
            raise ValueError("; ".join(problems))

    def problems(self) -> list[str]:
        """What is wrong with the settings, one sentence each (an adapter adds its own keys')."""
        problems = []
        if self.search not in SEARCHES:
            problems.append(f"search must be one of {', '.join(SEARCHES)}, got {self.search!r}")
        if self.go5_rollouts not in GO5_ROLLOUTS:
            problems.append(f"go5_rollouts must be one of {', '.join(GO5_ROLLOUTS)}, got {self.go5_rollouts!r}")
        if not 0 <= self.resign_threshold < 1 or self.resign_moves < 1:
            problems.append("resign_threshold must be in 0..1 and resign_moves >= 1")
        if not (0 <= self.think_longer <= 10 and 0 < self.unstable_ratio <= 1):
            problems.append("think_longer must be in 0..10 and unstable_ratio in (0, 1]")
        if not 0 <= self.policy_prior <= 1000:
            problems.append(f"policy_prior must be in 0..1000, got {self.policy_prior}")
        if not 0 <= self.policy_visits <= 1_000_000:
            problems.append(f"policy_visits must be in 0..1000000, got {self.policy_visits}")
        if self.ownership_playouts < 1 or not 1 <= self.threads <= 64 or not 0 <= self.dead_threshold < 1:
            problems.append("ownership_playouts >= 1, threads 1..64 and dead_threshold in 0..1 are needed")
        return problems

    @classmethod
    def of(cls, settings, **changes) -> "GoSettings":
        """The player's settings from an adapter's (the fields of the same name), then ``changes``."""
        names = {f.name for f in dataclasses.fields(cls)}
        values = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings) if f.name in names}
        values.update(changes)
        return cls(**values)
