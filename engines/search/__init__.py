"""Search: the MCTS family and alpha-beta, generic over engines.kernels.GameKernels, behind one
interface (engines/search/base.py), built by name (engines/search/factory.py):
``make_searcher(name, game, config, knowledge, seed)``.  No module of engines/search imports this
package's names: they import the module that defines them."""
from engines.search.base import Searcher
from engines.search.factory import SEARCHERS, make_searcher
from engines.search.result import SCORE, STATS_KEYS, WIN_PROBABILITY, Limits, SearchResult

__all__ = ["Limits", "SearchResult", "Searcher", "make_searcher", "SEARCHERS", "STATS_KEYS", "WIN_PROBABILITY",
           "SCORE"]
