"""Principal-variation search, ProbCut and the iteration predictor of engines/search/alphabeta.py,
and the Othello decisions the search makes on fixed node budgets.

Everything is counted in depths and nodes; the one clock used is injected (conftest.TickingClock)."""
import itertools
import json

import numpy as np
import pytest

from engines.games import make_game
from engines.knowledge.othello import registered as oth
from engines.knowledge.registry import knowledge_for
from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig, load_probcut
from engines.search.result import Limits
from conftest import TickingClock, random_positions

MINIMAX = AlphaBetaConfig(use_alphabeta=False, use_cache=False, use_ordering=False, iterative_deepening=False)


CASES = {  # game, evaluation (None: the registered default), positions, random plies, depths
    "othello8": (("othello", {"size": 8}), "strong", 6, 40, (3, 4, 5)),
    "othello6": (("othello", {"size": 6}), "disc_difference", 6, 24, (2, 3, 5)),
    "hex4": (("hex", {"size": 4}), None, 6, 8, (2, 3, 5)),
    "go4": (("go", {"size": 4}), None, 4, 6, (2, 3)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_pvs_gives_the_values_of_plain_alphabeta_and_minimax(case):
    """Every combination of PVS, table, ordering and deepening gives minimax's root value at a fixed
    depth; root moves' scores are bounds from above (exact for the best move).  Catches a null window
    read the wrong way round, a re-search that keeps the bound, a table bound taken as exact."""
    (name, options), evaluation, count, plies, depths = CASES[case]
    game = make_game(name, **options)
    knowledge = knowledge_for(game, evaluation) if evaluation else knowledge_for(game)
    configs = [AlphaBetaConfig(use_pvs=p, use_cache=c, use_ordering=o, iterative_deepening=i, tt_size=1 << 14)
               for p, c, o, i in itertools.product((True, False), repeat=4)]
    searches = [AlphaBeta(game, cfg, knowledge) for cfg in configs]
    minimax = AlphaBeta(game, MINIMAX, knowledge)
    for s in random_positions(game, count, plies, seed=7):
        for d in depths:
            ref = minimax.search(s, Limits(depth=d))
            exact = dict(zip(ref.moves, ref.values))
            for cfg, search in zip(configs, searches):
                r = search.search(s, Limits(depth=d))
                assert r.value == ref.value, (case, cfg, d)
                assert r.values[r.moves.index(r.move)] == r.value
                assert all(v >= exact[m] for m, v in zip(r.moves, r.values)), (case, cfg, d)


def test_pvs_changes_the_search_not_the_answer():
    """On Othello mid-game positions PVS visits other (here fewer) nodes for the same values: the
    switch reaches the kernel (a USE_PVS bit never set would give equal counts)."""
    game = make_game("othello", size=8)
    knowledge = knowledge_for(game, "strong")
    pvs, plain = (AlphaBeta(game, AlphaBetaConfig(use_pvs=flag), knowledge) for flag in (True, False))
    nodes = {True: 0, False: 0}
    for s in random_positions(game, 6, 30, seed=8, min_plies=16):
        a, b = pvs.search(s, Limits(depth=6)), plain.search(s, Limits(depth=6))
        assert a.value == b.value
        nodes[True] += a.stats["nodes"]
        nodes[False] += b.stats["nodes"]
    assert nodes[True] < nodes[False]


def test_the_table_does_not_change_the_value_with_pvs():
    game = make_game("othello", size=8)
    knowledge = knowledge_for(game, "strong")
    with_table, without = (AlphaBeta(game, AlphaBetaConfig(use_cache=flag), knowledge) for flag in (True, False))
    for s in random_positions(game, 8, 44, seed=9, min_plies=10):
        a, b = with_table.search(s, Limits(depth=5)), without.search(s, Limits(depth=5))
        assert a.value == b.value and a.stats["tt_hits"] > 0


# ---- ProbCut ------------------------------------------------------------------------------------
def _othello_midgame(count=4, seed=10):
    game = make_game("othello", size=8)
    return game, knowledge_for(game, "strong"), random_positions(game, count, 30, seed=seed, min_plies=20)


def test_probcut_that_never_fires_changes_nothing():
    """A margin no prediction can cross: the same values and nodes as without ProbCut."""
    game, knowledge, states = _othello_midgame()
    rows = tuple((d, d % 2, 1.0, 0.0, 1e6) for d in range(2, 8))
    off, on = AlphaBeta(game, AlphaBetaConfig(), knowledge), AlphaBeta(game, AlphaBetaConfig(probcut=rows), knowledge)
    for s in states:
        a, b = off.search(s, Limits(depth=6)), on.search(s, Limits(depth=6))
        assert (a.move, a.value, a.stats["nodes"]) == (b.move, b.value, b.stats["nodes"])


@pytest.mark.parametrize("shallow", [0, 1])
def test_probcut_rows_are_honoured(shallow):
    """Rows whose prediction always lies far above any window (b huge, sigma 0) cut every node with
    that many plies left: far fewer nodes, and a result marked not exact; a row for a depth never
    reached changes nothing.  Catches the rows not reaching the kernel, a cut on the wrong side.
    (The nodes saved: about half before the nodes one ply above the horizon stopped at a cut-off,
    which made the search without ProbCut smaller; every test a cut is the sharper check.)"""
    game, knowledge, states = _othello_midgame()
    base = AlphaBeta(game, AlphaBetaConfig(), knowledge)
    always = AlphaBeta(game, AlphaBetaConfig(probcut=((3, shallow, 0.0, 1e5, 0.0),)), knowledge)
    elsewhere = AlphaBeta(game, AlphaBetaConfig(probcut=((40, shallow, 0.0, 1e5, 0.0),)), knowledge)
    for s in states:
        ref = base.search(s, Limits(depth=6))
        always.clear_probcut_counts()
        cut = always.search(s, Limits(depth=6))
        assert cut.stats["nodes"] < 0.85 * ref.stats["nodes"] and cut.move in game.legal_moves(s)
        counts = always.probcut_counts()
        assert counts and {d for _, d in counts} == {3} and all(c == t for t, c, _ in counts.values())
        same = elsewhere.search(s, Limits(depth=6))
        assert (same.value, same.stats["nodes"]) == (ref.value, ref.stats["nodes"])
    # a prediction far BELOW every window fails every node low instead: no move can be preferred to the
    # first, and the root's value is a bound
    low = AlphaBeta(game, AlphaBetaConfig(probcut=((3, shallow, 0.0, -1e5, 0.0),)), knowledge)
    r = low.search(states[0], Limits(depth=6))
    assert r.stats["nodes"] < base.search(states[0], Limits(depth=6)).stats["nodes"]


@pytest.mark.parametrize("rows", [((1, 0, 1.0, 0.0, 1.0),), ((3, 3, 1.0, 0.0, 1.0),), ((3, 1, 1.0, 0.0, -1.0),),
                                  ((3, 1, 1.0),), ((3, 1, 1.0, float("nan"), 1.0),),
                                  ((3, 1, 1.0, 0.0, 1.0), (3, 0, 1.0, 0.0, 1.0)), "rows"])
def test_probcut_config_validation(rows):
    with pytest.raises(ValueError):
        AlphaBetaConfig(probcut=rows)


def test_probcut_file_loader(tmp_path):
    good = tmp_path / "probcut.json"
    good.write_text(json.dumps({"rows": [[4, 0, 1.2, 3.0, 30.0], [3, 1, 1.1, -6.0, 20.0]], "evaluation": "x"}))
    assert load_probcut(good) == ((0, 4095, 3, 1, 1.1, -6.0, 20.0), (0, 4095, 4, 0, 1.2, 3.0, 30.0))  # every phase
    for text, fault in (("{", "not JSON"), ('{"row": []}', "rows"), ('{"rows": [[4, 0, 1.2]]}', "depth, shallow"),
                        ('{"rows": [[4, 5, 1, 0, 1]]}', "shallow")):
        bad = tmp_path / "bad.json"
        bad.write_text(text)
        with pytest.raises(ValueError, match=fault) as err:
            load_probcut(bad)
        assert str(bad) in str(err.value)
    with pytest.raises(ValueError, match="cannot read"):
        load_probcut(tmp_path / "absent.json")


def test_the_shipped_probcut_parameters_load():
    from engines.players.othello import probcut_path
    path = probcut_path("strong")
    if not path.exists():
        pytest.skip("no fitted ProbCut parameters shipped")
    rows = load_probcut(path)
    assert rows and all(row[2] % 2 == row[3] for row in rows)
    data = json.loads(path.read_text())
    assert {"how", "from", "made", "cpu_seconds", "evaluation"} <= set(data)


# ---- the iteration predictor (stop_share) on an injected clock ----------------------------------------
def test_stop_share_skips_iterations_predicted_not_to_finish():
    """A huge stop_share predicts every third iteration too long: on a clock the search stops after
    two, long before its deadline, with the answer of depth 2; the same search without a clock (a
    node budget only) deepens further.  Each clock reading costs 10 ms of fake time (more than
    STOP_MIN_SECONDS per iteration)."""
    game = make_game("othello", size=8)
    knowledge = knowledge_for(game, "strong")
    s = random_positions(game, 1, 20, seed=11, min_plies=20)[0]
    ref = AlphaBeta(game, AlphaBetaConfig(), knowledge).search(s, Limits(depth=2))
    clock = TickingClock(0.01)
    search = AlphaBeta(game, AlphaBetaConfig(stop_share=1e9), knowledge, clock=clock)
    r = search.search(s, Limits(time=1e6, start=0.0, margin=0.0, nodes=50_000))
    assert r.stats["depth"] == 2 and (r.move, r.value) == (ref.move, ref.value) and r.stats["nodes"] < 50_000
    assert search.search(s, Limits(nodes=50_000)).stats["depth"] > 2


def test_a_cut_short_iteration_answers_once_it_has_searched_the_last_answer_first():
    """Node budgets between the end of depth 3 and the end of depth 4: once the cut-short depth-4
    iteration has completed its first root move (depth 3's answer), the answer is the best move among
    those it completed, with that move's exact depth-4 value (minimax's); before that, depth 3's
    answer.  In positions where depth 4 changes the move, some budget already gives depth 4's move.
    Catches a partial iteration ignored, one taken before its first move is done (a bound or a
    stale best), and a partial best read with the wrong value."""
    game = make_game("othello", size=8)
    knowledge = knowledge_for(game, "strong")
    search = AlphaBeta(game, AlphaBetaConfig(), knowledge)
    minimax = AlphaBeta(game, MINIMAX, knowledge)
    changed = 0
    for s in random_positions(game, 12, 30, seed=5, min_plies=16):
        three, four = search.search(s, Limits(depth=3)), search.search(s, Limits(depth=4))
        exact = dict(zip(*(lambda r: (r.moves, r.values))(minimax.search(s, Limits(depth=4)))))
        taken = False
        for budget in np.linspace(three.stats["nodes"] + 1, four.stats["nodes"] - 1, 40).astype(int):
            r = search.search(s, Limits(depth=4, nodes=int(budget)))
            if r.stats["depth"] == 4:  # the budget is checked between steps: the last few nodes may finish it
                assert (r.move, r.value) == (four.move, four.value)
            elif r.stats["partial_depth"] == 4:
                taken = True
                assert r.value == pytest.approx(exact[r.move]) and exact[r.move] >= exact[three.move] - 1e-9
                changed += r.move == four.move != three.move
            else:
                assert r.stats["partial_depth"] == 0 and (r.move, r.value) == (three.move, three.value)
        assert taken
    assert changed > 0


# ---- decisions on fixed node budgets (Othello 8x8, the adapters' evaluation) -------------------------
def _exact_move_values(game, s):
    """Every legal move's exact final disc margin for the mover (full disc-difference solves)."""
    solver = AlphaBeta(game, AlphaBetaConfig(use_pvs=False), knowledge_for(game, "disc_difference"))
    values = {}
    for m in game.legal_moves(s):
        child = game.play(s, m)
        if game.is_terminal(child):
            values[m] = -oth.evaluate_disc_difference(child, np.zeros(0))
        else:
            r = solver.search(child, Limits(depth=64))
            assert r.stats["complete"]
            values[m] = -r.value
    return values


CORNERS = {0, 7, 56, 63}
X_SQUARES = {9: 0, 14: 7, 49: 56, 54: 63}  # X-square -> its corner


def _late_positions(game, seed, count, empties):
    out = []
    rng = np.random.default_rng(seed)
    while len(out) < count:
        s = game.initial_state()
        while not game.is_terminal(s) and int((game.cells(s) == 0).sum()) > empties:
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
        if not game.is_terminal(s) and len(game.legal_moves(s)) > 1:
            out.append(s)
    return out


def test_takes_the_corner_that_wins_and_avoids_the_x_square_that_loses():
    """Late positions (9 empties) where the only winning moves are corners, or where an X-square next
    to an empty corner loses while another move wins: the default search on 20,000 nodes takes a
    winning corner and never the losing X-square.  Catches a sign error, a PVS re-search that keeps
    a bound, a ProbCut or ordering that drops the best move."""
    game = make_game("othello", size=8)
    search = AlphaBeta(game, AlphaBetaConfig(), knowledge_for(game, "strong"))
    corner_cases = x_cases = 0
    for s in _late_positions(game, seed=12, count=200, empties=9):
        legal = set(game.legal_moves(s))
        if not (legal & CORNERS or any(x in legal and game.cells(s).flat[c] == 0 for x, c in X_SQUARES.items())):
            continue
        values = _exact_move_values(game, s)
        winners = {m for m, v in values.items() if v > 0}
        losing_x = {x for x, c in X_SQUARES.items() if x in legal and game.cells(s).flat[c] == 0 and values[x] < 0}
        corner_only = winners and winners <= CORNERS
        if not (corner_only or (losing_x and winners)):
            continue
        move = search.search(s, Limits(nodes=20_000)).move
        if corner_only:
            corner_cases += 1
            assert move in winners, (game.render(s), values, move)
        if losing_x and winners:
            x_cases += 1
            assert move not in losing_x, (game.render(s), values, move)
    assert corner_cases >= 3 and x_cases >= 3, (corner_cases, x_cases)


@pytest.mark.parametrize("case", ["othello8", "othello6", "hex4"])
def test_reply_ordering_and_horizon_cutoffs_keep_minimax_values(case):
    """Ordering by replies near the horizon (reply_order_below), the nodes one ply above it stopping at
    a cut-off and the table's move tried before the ordering change which nodes are visited, never the
    root's value at a fixed depth, nor that the best move's score is its value.  Catches a cut-off one
    ply above the horizon taken at alpha instead of beta, or its lower bound stored as exact; the
    ordering of a pending node lost or applied to the wrong row."""
    (name, options), evaluation, count, plies, depths = CASES[case]
    game = make_game(name, **options)
    knowledge = knowledge_for(game, evaluation) if evaluation else knowledge_for(game)
    minimax = AlphaBeta(game, MINIMAX, knowledge)
    searches = {below: AlphaBeta(game, AlphaBetaConfig(reply_order_below=below, tt_size=1 << 14), knowledge)
                for below in (0, 3, 4, 9)}
    nodes = {below: 0 for below in searches}
    for s in random_positions(game, count, plies, seed=11):
        for d in depths:
            ref = minimax.search(s, Limits(depth=d))
            exact = dict(zip(ref.moves, ref.values))
            for below, search in searches.items():
                r = search.search(s, Limits(depth=d))
                assert r.value == ref.value, (case, below, d)
                assert r.values[r.moves.index(r.move)] == r.value
                assert all(v >= exact[m] for m, v in zip(r.moves, r.values)), (case, below, d)
                nodes[below] += r.stats["nodes"]
    if name == "othello":  # the switch reaches the kernel (Hex: every child has as many replies)
        assert len(set(nodes.values())) > 1
