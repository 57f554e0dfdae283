"""Search: the MCTS family and alpha-beta, generic over engines.kernels.GameKernels."""
from engines.search.result import Limits, SearchResult

__all__ = ["Limits", "SearchResult"]
