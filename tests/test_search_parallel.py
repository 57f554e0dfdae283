"""Root parallelism (engines/search/parallel.py): k RAVE trees in k threads merged at the root;
the merge itself on hand-made results; the Go engine's --threads setting."""
import pytest

from adapters import go_gtp
from engines.games.go import Go
from engines.search import Limits, make_searcher
from engines.search.parallel import RootParallel, merge
from engines.search.result import WIN_PROBABILITY, SearchResult
from test_go_rave import LADDER, position

def ladder():
    """tests/test_go_rave.py's LADDER: Black to move, g5 starts the ladder that works."""
    return position(LADDER)


def result(moves, visits, values, pv, sims, ownership=None):
    stats = {"simulations": sims, "tree_size": sims + 1, "time": 0.1 * sims, "max_depth": len(pv),
             "tree_full": False}
    if ownership is not None:
        stats["ownership"] = ownership
    return SearchResult(move=pv[0], value=sum(v * m for v, m in zip(visits, values)) / sum(visits),
                        scale=WIN_PROBABILITY, moves=moves, visits=visits, values=values, pv=pv, stats=stats)


def test_merge_sums_the_root_children_and_plays_the_most_visited():
    # each tree alone prefers another move; together move 7 has the most visits
    a = result([3, 7, 9], [50.0, 40.0, 10.0], [0.6, 0.5, 0.2], [3, 1], 100, [1.0, 0.0])
    b = result([3, 7, 9], [5.0, 45.0, 50.0], [0.4, 0.7, 0.3], [9, 2], 100, [0.0, -1.0])
    m = merge([a, b])
    assert m.moves == [3, 7, 9] and m.visits == [55.0, 85.0, 60.0]
    assert m.move == 7 and m.values[1] == pytest.approx((40 * 0.5 + 45 * 0.7) / 85)
    assert m.value == pytest.approx((50 * .6 + 40 * .5 + 10 * .2 + 5 * .4 + 45 * .7 + 50 * .3) / 200)
    assert m.pv == [7]  # no tree's own variation starts with 7
    assert m.stats["simulations"] == 200 and m.stats["ownership"] == [0.5, -0.5]
    # the variation of the tree that gave the chosen move the most visits
    c = result([3, 7, 9], [10.0, 80.0, 10.0], [0.5, 0.6, 0.5], [7, 4, 5], 100)
    d = result([3, 7, 9], [30.0, 60.0, 10.0], [0.5, 0.6, 0.5], [7, 8], 100)
    assert merge([d, c]).pv == [7, 4, 5] and "ownership" not in merge([d, c]).stats
    # equal visits: the better mean
    e = result([1, 2], [10.0, 10.0], [0.4, 0.6], [1], 20)
    assert merge([e, e]).move == 2


def test_two_trees_split_a_simulation_budget_and_are_deterministic():
    g, s = ladder()
    runs = []
    for _ in range(2):
        searcher = make_searcher("rave", g, None, None, 3, capacity=1 << 16, threads=2)
        assert isinstance(searcher, RootParallel) and searcher.threads == 2
        runs.append(searcher.search(s, Limits(simulations=1001)))
    first, second = runs
    assert first.stats["simulations"] == 1002  # 501 a tree
    assert first.move == second.move and first.visits == second.visits and first.values == second.values
    # the trees differ (seeds 3 and 4): the merged visits are not twice one tree's
    one = make_searcher("rave", g, None, None, 3, capacity=1 << 16).search(s, Limits(simulations=501))
    assert first.visits != [2 * v for v in one.visits]
    assert len(first.stats["ownership"]) == 81


@pytest.mark.parametrize("seed", (0, 1))
def test_two_trees_play_the_ladder(seed):
    g, s = ladder()
    r = make_searcher("rave", g, None, None, seed, capacity=1 << 17, threads=2).search(s, Limits(simulations=4000))
    assert g.move_label(r.move) == "g5"


def test_reset_and_advance_reach_every_tree():
    g, s = ladder()
    searcher = make_searcher("rave", g, None, None, 0, capacity=1 << 16, threads=2)
    r = searcher.search(s, Limits(simulations=400))
    sizes = [t.tree_size for t in searcher.searchers]
    assert searcher.tree_size == sum(sizes) and min(sizes) > 1
    searcher.advance(r.move)
    assert all(t.root_state is not None and t.tree_size <= size for t, size in zip(searcher.searchers, sizes))
    searcher.reset()
    assert searcher.tree_size == 2


def test_threads_are_a_rave_option_only():
    g = Go(9)
    with pytest.raises(ValueError, match="threads"):
        make_searcher("rave", g, threads=0)
    with pytest.raises(ValueError, match="unknown option 'threads'"):
        make_searcher("mcts", g, threads=2)


def test_the_go_engine_searches_with_two_threads():
    session = go_gtp.GoSession(go_gtp.Settings(size=9, time=0.0, simulations=300, threads=2, seed=1,
                                               capacity=100_000))
    assert isinstance(session.searcher, RootParallel)
    session.genmove(0, session.clock())
    searched, result = session.last_result
    assert result.stats["simulations"] == 300 and result.move in session.game.legal_moves(searched)
    with pytest.raises(ValueError, match="threads 1..64"):
        go_gtp.Settings(threads=0)
