"""The learned Hex move patterns (engines/knowledge/hex/move_patterns.py): the canonical keys respect
Hex's symmetries, the shipped table answers a bridge intrusion, the prior reaches the RAVE tree, the
setting exists in both Hex adapters, and the MM fit (engines/learn/hex/patterns_mm.py) learns a
pattern from records."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.knowledge.hex import move_patterns as MP


def keys_of(cells, n, mover):
    k12, k6 = np.empty(n * n, np.int64), np.empty(n * n, np.int64)
    MP.board_keys(np.ascontiguousarray(cells.reshape(-1), dtype=np.int64), n, mover, k12, k6)
    return k12.reshape(n, n), k6.reshape(n, n)


boards = st.integers(3, 9).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 2), min_size=n * n, max_size=n * n).map(lambda v: np.array(v).reshape(n, n)),
    st.integers(0, 1)))


@settings(max_examples=60, deadline=None)
@given(boards)
def test_keys_are_invariant_under_the_rotation_and_the_colour_swap_with_the_transpose(board):
    cells, mover = board
    n = len(cells)
    k12, k6 = keys_of(cells, n, mover)
    r12, r6 = keys_of(cells[::-1, ::-1], n, mover)  # the 180-degree rotation
    assert (r12 == k12[::-1, ::-1]).all() and (r6 == k6[::-1, ::-1]).all()
    swapped = np.where(cells == 0, 0, 3 - cells).T   # colours swapped, board transposed, other player
    s12, s6 = keys_of(swapped, n, 1 - mover)
    assert (s12 == k12.T).all() and (s6 == k6.T).all()


def test_keys_tell_own_from_opponent_stones_and_edges():
    """A plausible bug: the mover's frame ignored (one colour's key for both) or the edges' owners swapped."""
    n = 5
    cells = np.zeros((n, n), np.int64)
    cells[1, 2] = 1
    k12, _ = keys_of(cells, n, 0)
    w12, _ = keys_of(cells, n, 1)
    assert k12[2, 2] != w12[2, 2]
    empty = np.zeros((n, n), np.int64)
    b12, _ = keys_of(empty, n, 0)
    assert b12[0, 2] != b12[2, 0]  # Black's own edge above (0, 2), White's edge left of (2, 0)


def test_the_shipped_table_answers_a_bridge_intrusion_first():
    """Black's bridge e5-f3 (cells (4,4), (2,5)); White intrudes at e4 (3,4): of all empty cells, the
    patterns rank the other carrier f4 (3,5) first, for Black, and (the same position transposed with
    the colours swapped) for White."""
    table = MP.table_for_size("shipped", 9)
    assert table is not None
    params = table.pack()
    n = 9
    cells = np.zeros((n, n), np.int64)
    cells[4, 4] = cells[2, 5] = 1
    cells[3, 4] = 2
    for board, mover, answer in ((cells, 0, (3, 5)), (np.where(cells == 0, 0, 3 - cells).T.copy(), 1, (5, 3))):
        flat = board.reshape(-1)
        strength = {a: MP.log_strength(params, flat, n, a, mover) for a in range(n * n) if flat[a] == 0}
        assert max(strength, key=strength.get) == answer[0] * n + answer[1]


def favouring(key12, gamma=100.0):
    return MP.PatternTable({key12: gamma}, {}, 1.0)


def test_the_prior_gives_children_experience_in_the_order_of_their_gammas():
    from engines.games.hex import Hex
    game = Hex(5)
    state = game.initial_state()
    cells = game.cells(state).reshape(-1).astype(np.int64)
    k12, _ = keys_of(cells.reshape(5, 5), 5, 0)
    favoured = int(k12[0, 2])  # a cell on Black's own edge
    table = MP.PatternTable({favoured: 100.0, int(k12[2, 2]): 10.0}, {}, 1.0)
    actions = np.arange(25, dtype=np.int32)
    visits, wins = np.empty(25), np.empty(25)
    MP.pattern_experience(state, actions, 25, visits, wins, table.pack())
    rate = (wins / visits).reshape(5, 5)
    assert (visits == MP.VISITS).all()
    assert rate[0, 2] == pytest.approx(MP.HIGH) and rate[k12 == favoured] == pytest.approx(MP.HIGH)
    assert rate[2, 2] == pytest.approx(MP.LOW + (MP.HIGH - MP.LOW) * 0.1)
    assert rate[4, 0] == pytest.approx(MP.LOW + (MP.HIGH - MP.LOW) * 0.01)


def test_the_prior_reaches_the_tree_and_moves_the_search_s_visits(tmp_path):
    """A table favouring the pattern of cells on Black's own edge (row 0, away from the corners):
    200 simulations on an empty 7x7 (the root's connections off: a search, not a proof) give those
    cells most of the root's visits, far more than without the table."""
    from adapters.gtp_hex import HexSession, Settings
    import time
    n = 7
    k12, _ = keys_of(np.zeros((n, n), np.int64), n, 0)
    key = int(k12[0, 3])
    path = tmp_path / "favour.txt"
    path.write_text(favouring(key, 1e4).text())
    share = {}
    for choice in ("none", str(path)):
        session = HexSession(Settings(size=n, time=0, simulations=200, seed=0, move_patterns=choice,
                                              root_connections=False))
        result = session.search(0, time.perf_counter())
        visits = dict(zip(result.moves, result.visits))
        edge = [a for a in range(n * n) if k12.reshape(-1)[a] == key]
        share[choice] = sum(visits.get(a, 0) for a in edge) / sum(visits.values())
    print(share)
    assert share[str(path)] > 0.5 and share[str(path)] > 2 * share["none"]


def test_the_setting_exists_in_both_adapters_and_refuses_mcts(tmp_path):
    """'shipped' is the default (it steps aside where no table is shipped, for search mcts or a
    network); a table file given with search mcts is refused."""
    from adapters import gtp_hex, oht_client
    for module in (gtp_hex, oht_client):
        assert module.Settings().move_patterns == "shipped"
        assert module.Settings(move_patterns="none").move_patterns == "none"
    assert gtp_hex.Settings(search="mcts").move_patterns == "shipped"
    table = tmp_path / "table.txt"
    table.write_text(MP.shipped_path(9).read_text())
    with pytest.raises(ValueError, match="move_patterns"):
        gtp_hex.Settings(move_patterns=str(table), search="mcts")


def test_the_default_search_has_the_patterns_where_a_table_is_shipped():
    from adapters.gtp_hex import HexSession, Settings
    for size, shipped in ((9, True), (11, False)):
        for search in (None, "mcts"):
            session = HexSession(Settings(size=size, time=0, simulations=10, search=search))
            knowledge = session.searcher.knowledge
            has = getattr(knowledge, "experience", None) is MP.pattern_experience
            assert has == (shipped and search is None), (size, search)


def test_a_bad_table_is_refused_with_its_line():
    with pytest.raises(ValueError, match=r"x.txt:2"):
        MP.parse_table("p12 5 2.0\np12 5 -1\n", "x.txt")
    with pytest.raises(ValueError, match=r"x.txt:1"):
        MP.parse_table("q 1 1\n", "x.txt")


def test_mm_learns_the_pattern_the_records_always_play(tmp_path):
    """Records that open d4 g1 e2 d3 (White intrudes into Black's bridge d4-e2) and in which Black then
    answers e3, followed by random moves: the fitted table ranks e3 first in that position."""
    from sgfmill import sgf
    from engines.learn.hex import patterns_mm
    from engines.learn.hex.records import cell_name
    rng = np.random.default_rng(0)
    n = 7
    opening = [3 * n + 3, 6, 1 * n + 4, 2 * n + 3]
    answer = 2 * n + 4
    for g in range(12):
        record = sgf.Sgf_game(size=n)
        record.get_root().set("GC", "random=0")
        rest = [int(a) for a in rng.permutation(n * n) if a not in opening and a != answer][:10]
        for i, a in enumerate(opening + [answer] + rest):
            record.extend_main_sequence().set_raw("BW"[i % 2], cell_name(a, n).encode())
        (tmp_path / f"g{g:02d}.sgf").write_bytes(record.serialise())
    out = tmp_path / "p.txt"
    side = patterns_mm.train([tmp_path], out, iterations=10, holdout_every=0, min_count=1, log=lambda *_: None)
    params = MP.load_table(out).pack()
    cells = np.zeros(n * n, np.int64)
    for i, a in enumerate(opening):
        cells[a] = i % 2 + 1
    strength = {a: MP.log_strength(params, cells, n, a, 0) for a in range(n * n) if cells[a] == 0}
    assert max(strength, key=strength.get) == answer
    assert side["from"]["games"] == 12 and side["from"]["positions"] == 12 * 15


class FirstEmpty:
    """A self-play player that plays the first empty cell (row-major), resigning at move ``resign_at``."""

    info = {"generator": "first", "level": "0"}

    def __init__(self, seed, resign_at=None):
        self.resign_at = resign_at
        self.cells = None

    def start(self, size):
        self.cells = np.zeros(size * size, np.int64)

    def play(self, player, action):
        self.cells[action] = player + 1

    def genmove(self, player):
        if self.resign_at is not None and np.count_nonzero(self.cells) >= self.resign_at:
            return None
        action = int(np.flatnonzero(self.cells == 0)[0])
        self.cells[action] = player + 1
        return action

    def close(self):
        pass


def test_records_round_trip_and_generation_resumes(tmp_path):
    from engines.games.hex import Hex
    from engines.learn.hex import records as R
    path, written = R.write_game(tmp_path, FirstEmpty, "t", 5, seed=3, random_moves=2)
    assert written and path.name == "hex5-t-s000003.sgf"
    size, moves, info, result = R.read_record(path)
    game, state = Hex(5), Hex(5).initial_state()
    for a in moves:
        state = game.play(state, a)
    assert size == 5 and game.is_terminal(state) and result == "BW"[game.winner(state)] + "+"
    assert 1 <= int(info["random"]) <= 2 and info["generator"] == "first" and info["seed"] == "3"
    assert R.write_game(tmp_path, FirstEmpty, "t", 5, seed=3) == (path, False)  # already there: skipped
    resigning = lambda seed: FirstEmpty(seed, resign_at=4)  # noqa: E731
    path, _ = R.write_game(tmp_path, resigning, "r", 5, seed=1)
    size, moves, info, result = R.read_record(path)
    assert result == "BW"[1 - len(moves) % 2] + "+R" and len(moves) == 4
