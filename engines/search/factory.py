"""The factory that builds a search by name: ``make_searcher(name, game, config, knowledge, seed)``.

It sits above every search (engines/search/{mcts,rave,alphabeta,parallel}.py); no search imports it,
so the searches' imports run one way.  ``from engines.search import make_searcher`` reaches it through
the package.
"""
from engines.search.base import Searcher, config_from
from engines.validate import check_choice, check_int

SEARCHERS = ("mcts", "alphabeta", "rave")
# keyword options of the constructors beyond (game, config, knowledge, seed)
OPTIONS = {"mcts": ("capacity", "clock"), "alphabeta": ("clock",), "rave": ("capacity", "clock", "threads")}


def searcher_classes(name: str):
    """(search class, config class) of a searcher name."""
    # imported when asked for, not at the top: a process loads the compiled kernels of the searches it uses only
    name = check_choice("searcher", name, SEARCHERS)
    if name == "mcts":
        from engines.search.mcts import MCTS, MCTSConfig
        return MCTS, MCTSConfig
    if name == "rave":
        from engines.search.rave import Rave, RaveConfig
        return Rave, RaveConfig
    from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig
    return AlphaBeta, AlphaBetaConfig


def make_searcher(name: str, game, config=None, knowledge=None, seed: int = 0, **options) -> Searcher:
    """Build the search called name ("mcts", "alphabeta" or "rave") for game.  config: the search's config
    dataclass, a mapping of its fields, or None; knowledge: None for knowledge_for(game); options:
    the constructor's other keywords (OPTIONS[name], e.g. capacity, clock), and for rave threads: k > 1
    runs k trees (seeds seed..seed + k - 1) in k threads, merged at the root (engines/search/parallel.py)."""
    cls, config_cls = searcher_classes(name)
    for key in options:
        if key not in OPTIONS[name]:
            raise ValueError(f"unknown option {key!r} for {name}; valid options: {', '.join(OPTIONS[name])}")
    threads = check_int("threads", options.pop("threads", 1), 1)
    config = config_from(config_cls, config)
    if threads == 1:
        return cls(game, config, knowledge, seed, **options)
    from engines.search.parallel import RootParallel
    return RootParallel([cls(game, config, knowledge, seed + i, **options) for i in range(threads)])
