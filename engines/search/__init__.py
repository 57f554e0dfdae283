"""Search: the MCTS family and alpha-beta, generic over engines.kernels.GameKernels, behind one
interface (engines/search/base.py): ``make_searcher(name, game, config, knowledge, seed)``."""
from engines.search.base import SEARCHERS, Searcher, make_searcher
from engines.search.result import SCORE, STATS_KEYS, WIN_PROBABILITY, Limits, SearchResult

__all__ = ["Limits", "SearchResult", "Searcher", "make_searcher", "SEARCHERS", "STATS_KEYS", "WIN_PROBABILITY",
           "SCORE"]
