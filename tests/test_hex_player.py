"""engines/players/hex.py: a player is built for one board size and refuses a network of another
size there; the tournament client's one settings dataclass (plies_oht.toml, PLIES_OHT_<KEY>,
flags) and the MCTS configuration it gives; the stand-in server's engine opponent."""
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from conftest import ROOT, FakeClock

from adapters import oht_client as C
from adapters import oht_session
from adapters.config import ConfigError
from adapters.oht_client import Settings
from engines.players.hex import HexPlayer
from engines.knowledge.hex.conv import policy_shape
from engines.knowledge.hex.network import NetworkError, shipped_network_path
from standins.oht_server import EngineOpponent, HexBoard

WAIT = 120


# ==== networks and board sizes ======================================================================
def test_a_network_file_of_another_size_is_refused_when_the_player_is_built():
    """The issue's case: hex5.onnx for a 7x7 board is a clear error naming both sizes, before any move."""
    with pytest.raises(NetworkError, match=r"5x5.*7x7"):
        HexPlayer(Settings(network=str(ROOT / "weights" / "hex" / "hex5.onnx")), 7)


def test_a_file_that_is_not_a_network_is_refused_when_the_player_is_built(tmp_path):
    with pytest.raises(NetworkError, match="no network file"):
        HexPlayer(Settings(network=str(tmp_path / "absent.onnx")), 5)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_the_shipped_network_is_the_one_for_the_size(size):
    player = HexPlayer(Settings(network="shipped", simulations=20), size)
    assert player.network is not None and policy_shape(player.network) == (3 * size * size, size * size)
    assert "network rollout" in player.describe()


def test_a_size_without_a_shipped_network_plays_the_search_with_the_knowledge():
    assert shipped_network_path(4) is None
    player = HexPlayer(Settings(network="shipped", simulations=50), 4)
    assert player.network is None and player.notes == [] and "RAVE (knowledge all)" in player.describe()
    row, col = player.choose([[0] * 4 for _ in range(4)], 0)
    assert 0 <= row < 4 and 0 <= col < 4
    greedy = HexPlayer(Settings(mode="greedy"), 4)       # auto: shipped for greedy, and there is none
    assert greedy.network is None and "no network for 4x4" in greedy.notes[0]


def test_the_search_and_its_knowledge_come_from_the_settings():
    from engines.knowledge.hex import patterns as HP
    from engines.search.mcts import MCTS
    from engines.search.rave import Rave
    default = HexPlayer(Settings(simulations=50), 5)
    assert isinstance(default.searcher, Rave) and default.searcher.knowledge.children is HP.children_full
    mcts = HexPlayer(Settings(simulations=50, search="mcts", knowledge="patterns"), 5)
    assert isinstance(mcts.searcher, MCTS) and mcts.searcher.knowledge.playout is HP.playout_bridge
    assert "MCTS (knowledge patterns), 50 simulations a move" == mcts.describe()
    with pytest.raises(ValueError, match="network plays alone"):
        Settings(network="shipped", search="rave")
    with pytest.raises(ValueError, match="knowledge 'bridges'"):
        Settings(knowledge="bridges")


def test_the_rave_prior_comes_from_the_settings_and_is_refused_for_another_size(tmp_path):
    """A prior file reaches the player's RAVE search (its experience params are the file's network);
    'none' leaves the search without one; a file for another size is refused when the player is built."""
    from engines.knowledge.hex.registered import network_experience_params
    from engines.learn.network_file import save_network
    from test_hex_teacher import favouring
    net = favouring(6, 14)
    path = save_network(tmp_path / "favour6.onnx", net, {"size": 6})
    taught = HexPlayer(Settings(simulations=50, prior=str(path)), 6)
    assert np.array_equal(taught.searcher.knowledge.experience_params, network_experience_params(net))
    assert HexPlayer(Settings(simulations=50, prior="none"), 6).searcher.knowledge.experience is None
    with pytest.raises(NetworkError, match=r"6x6, not for 7x7"):
        HexPlayer(Settings(simulations=50, prior=str(path)), 7)
    with pytest.raises(ValueError, match="prior"):
        Settings(prior=str(path), search="mcts")


def test_auto_means_shipped_for_greedy_and_none_for_search():
    assert HexPlayer(Settings(mode="greedy"), 5).network is not None
    assert HexPlayer(Settings(mode="search", simulations=10), 5).network is None


def test_a_board_of_another_size_is_refused():
    with pytest.raises(ValueError, match="5x5 board given to the 4x4 player"):
        HexPlayer(Settings(simulations=10, network="none"), 4).choose([[0] * 5 for _ in range(5)], 0)


# ==== the settings =================================================================================
@pytest.mark.parametrize("use, config", [
    (None, {"selection": "uct", "c": 0.7}),
    ("rollout", {"selection": "uct", "c": 0.7, "rollout": "network", "epsilon": 0.1}),
    ("prior", {"selection": "puct", "c": 1.5, "prior_use": "multiplicative"}),
    ("both", {"selection": "puct", "c": 1.5, "prior_use": "multiplicative", "rollout": "network", "epsilon": 0.1}),
])
def test_the_search_configuration_of_each_use_of_a_network(use, config):
    settings = Settings(network_use=use or "rollout")
    assert settings.mcts_config(with_network=use is not None) == {**config, "expand_visits": 4}


def test_the_budget():
    assert Settings().seconds() == 1.0                       # nothing set: one second a move
    assert Settings(simulations=30).seconds() is None         # simulations alone: no clock
    assert Settings(simulations=30, time=2.0).seconds() == 2.0
    assert Settings(simulations=30, time=0).seconds() is None  # 0: no time limit
    player = HexPlayer(Settings(time=0.1, network="none"), 3)
    limits = player.limits(start=10.0)                        # the deadline is the time manager's
    assert limits.start == 10.0 and limits.deadline(10.0) == pytest.approx(10.0 + 0.1 - 0.02)  # a short budget
    player = HexPlayer(Settings(time=2.0, network="none"), 3)                              # keeps most of itself
    assert player.limits(start=10.0).deadline(10.0) == pytest.approx(10.0 + 2.0 - 0.1)


def test_the_file_the_environment_and_the_flags_in_that_order(tmp_path):
    file = tmp_path / C.SETTINGS_FILE
    file.write_text('time = 2.5\nnetwork_use = "prior"\nuct_c = 0.9\nrecord = "r.json"\n')
    env = {"PLIES_OHT_TIME": "3", "PLIES_OHT_CAPACITY": "4096"}
    settings = C.load_settings(file, {"capacity": 1024, "seed": None}, env=env)
    assert (settings.time, settings.network_use, settings.uct_c, settings.capacity, settings.seed,
            settings.record) == (3.0, "prior", 0.9, 1024, 0, "r.json")


@pytest.mark.parametrize("text, env, says", [
    ("secnds = 2\n", {}, "unknown key"),
    ("seconds = 2\n", {}, "unknown key"),      # the one name of a move's time is time, as in plies-gtp-hex
    ('mode = "fast"\n', {}, "mode"),
    ("", {"PLIES_OHT_EPSILON": "2"}, "epsilon must be in 0..1"),
    ("", {"PLIES_OHT_SIMULATIONS": "0"}, "simulations must be at least 1"),
])
def test_a_bad_setting_is_a_clear_error(tmp_path, text, env, says):
    file = tmp_path / C.SETTINGS_FILE
    file.write_text(text)
    with pytest.raises(ConfigError, match=says):
        C.load_settings(file, env=env)


def test_a_bad_flag_exits_with_the_settings_status(tmp_path):
    done = subprocess.run([sys.executable, "-m", "adapters.oht_client", "--epsilon", "3", "--log",
                           str(tmp_path / "g.log")], cwd=ROOT, capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == oht_session.EXIT_SETTINGS and "epsilon must be in 0..1" in done.stderr


def test_the_course_subclass_reads_plies_oht_toml_beside_it(tmp_path):
    """The subclass's settings come from the file beside it (an import of the copied file, no server)."""
    folder = tmp_path / "course"
    folder.mkdir()
    (folder / "ActorClient.py").write_text("class ActorClient:\n"
                                           "    def __init__(self, *args, **kwargs):\n        pass\n")
    (folder / "oht_actor_b.py").write_text((ROOT / "adapters" / "oht_actor_b.py").read_text())
    (folder / C.SETTINGS_FILE).write_text('simulations = 30\nnetwork = "none"\nlog = "toml.log"\n')
    script = ("from oht_actor_b import PliesActorClient\n"
              "c = PliesActorClient(verbose=False, settings={'seed': 4})\n"
              "s = c.settings\nprint(s.simulations, s.network, s.log, s.seed, s.time)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLIES_OHT_") and k != "PYTHONPATH"}
    env["PLIES_OHT_TIME"] = "0.5"
    done = subprocess.run([sys.executable, "-c", script], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=WAIT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["30", "none", "toml.log", "4", "0.5"]


# ==== the stand-in server's engine opponent =========================================================
def test_the_engine_opponent_plays_every_size_it_meets():
    opponent = EngineOpponent(seconds=None, simulations=30, seed=1)
    for size in (4, 5):
        board = HexBoard(size)
        board.play(1, (0, 0))
        row, col = opponent.choose(board, 2)
        assert board.legal((row, col))
    assert sorted(opponent.players) == [4, 5] and opponent.players[5].network is not None


def test_sized_players_keep_the_fallback_for_a_series_the_network_cannot_play():
    """The kernels compiled mid-series, with a network of another size (engines/players/hex.py
    SizedPlayers): said once, and the series goes on with the fallback's legal moves instead of
    failing at the next action; a size the network plays gets the network's player."""
    from engines.players.hex import SizedPlayers, HexSettings
    compiled, notes = [False], []
    players = SizedPlayers(HexSettings(network=str(shipped_network_path(5)), simulations=8, seed=0),
                           lambda: compiled[0], notes.append)
    players.start(7)                                 # cold: no player is built, the series starts
    cells = [[0] * 7 for _ in range(7)]
    first = players.choose(cells, 0, time.perf_counter())
    compiled[0] = True                               # the compile is done: 7x7 is not the network's size
    cells[first[0]][first[1]] = 1
    second = players.choose(cells, 1, time.perf_counter())
    assert players.fallback_moves == 2 and players.player is None and players.players == {7: None}
    assert cells[second[0]][second[1]] == 0 and len([n for n in notes if "cannot play 7x7" in n]) == 1
    players.choose(cells, 1, time.perf_counter())
    assert players.fallback_moves == 3 and len(notes) == 1  # not said again
    players.start(5)
    assert players.player is not None and players.player.network is not None and players.describe() != \
        SizedPlayers(HexSettings(), lambda: False, notes.append).describe()


# ==== H-search's connections at the root (issue 33) ================================================
def test_the_player_plays_a_proven_win_and_keeps_to_must_play_cells():
    """With root_connections (the default) a position the connections prove won is answered with a
    move that keeps the win (checked by the exact solver), and a threatened side's move lies in its
    must-play cells; the same search without them, given one simulation, often plays elsewhere (counted,
    so that the test decides something)."""
    from engines.knowledge.hex.solver import HexSolver
    from engines.knowledge.hex.vc import HSearch
    players = [HexPlayer(Settings(time=0, simulations=1, seed=3, root_connections=on, network="none",
                                  prior="none"), 5) for on in (True, False)]
    game, rng = players[0].game, np.random.default_rng(7)
    solver, hsearch, differed = HexSolver(game), HSearch(5), {"win": 0, "must": 0}
    for _ in range(80):
        for p in players:
            p.new_game()
        for _ in range(int(rng.integers(2, 9))):
            state = players[0].state
            move = game.point_of(int(rng.choice(game.legal_moves(state))))
            for p in players:
                p.place(int(game.to_move(state)), move)
            if game.is_terminal(players[0].state):
                break
        state = players[0].state
        if game.is_terminal(state):
            continue
        mover = int(game.to_move(state))
        with_vc, without = (game.action(*p.genmove(mover)) for p in players)
        after = game.play(state, with_vc)
        proof, must = hsearch.winning_move(state), hsearch.must_play(state, mover)
        if proof is not None:
            assert game.is_terminal(after) or not solver.solve(after).mover_wins  # the mover still wins
            differed["win"] += without != with_vc
        elif must:
            assert with_vc in must
            differed["must"] += without not in must
    assert differed["win"] and differed["must"], differed


# ==== a game clock (plies-gtp-hex's param_game game_time): its allocations, and thinking on =========

class RootCounts:
    """A searcher whose root has the visits the test sets (cells 40 and 41 of 9x9, the first the
    move); each search takes its whole time on the fake clock."""

    def __init__(self, clock, visits):
        self.clock, self.visits, self.times = clock, visits, []

    def search(self, state, limits):
        from engines.search.result import WIN_PROBABILITY, SearchResult
        self.times.append(limits.time)
        self.clock.now = (self.clock.now if limits.start is None else limits.start) + limits.time
        moves = [40, 41][:len(self.visits)]
        return SearchResult(move=40, value=0.5, scale=WIN_PROBABILITY, moves=moves, visits=list(self.visits),
                            values=[0.5] * len(moves), pv=[40], stats={"simulations": 10})

    def advance(self, move):
        pass

    def reset(self):
        pass


def clocked_hex_player(visits, think_longer=1.0, game_time=60.0, move_check=False):
    """A 9x9 player of 1 s a move whose session's game clock gives each side ``game_time`` seconds
    (None: no game clock), its searcher replaced by RootCounts; (player, clock)."""
    from engines.players.clock import ABSOLUTE, GameClock, TimeControl
    from engines.players.hex import HexSettings
    clock = FakeClock(0.0)
    game_clock = GameClock(margin=0.1, clock=clock)
    if game_time is not None:
        game_clock.set_control(TimeControl(ABSOLUTE, game_time))
    p = HexPlayer(HexSettings(time=1.0, think_longer=think_longer, move_check=move_check, prior="none",
                              move_patterns="none"), 9, clock=clock, game_clock=game_clock)
    p.searcher = p.connections.searcher = RootCounts(clock, visits)
    return p, clock


@pytest.mark.parametrize("visits, think_longer, game_time, searches", [
    ([100, 60], 1.0, 60.0, 3),   # unstable (60 >= 0.5 x 100): two more slices of half the allocation
    ([100, 40], 1.0, 60.0, 1),   # stable: the allocation only
    ([100, 60], 0.0, 60.0, 1),   # think_longer off
    ([100, 60], 1.0, None, 1),   # a fixed budget a move: nothing to stretch into
])
def test_under_a_game_clock_an_unstable_root_thinks_on(visits, think_longer, game_time, searches):
    p, clock = clocked_hex_player(visits, think_longer, game_time)
    arrival = clock.now
    allocation = p.limits(arrival, 0, 0).time
    result = p.search(0, arrival)
    assert len(p.searcher.times) == searches and result.stats.get("thought_on", 0) == searches - 1
    assert clock.now - arrival == pytest.approx(allocation * (1 + 0.5 * (searches - 1)))
    assert result.stats["simulations"] == 10 * searches
    if game_time is None:
        assert allocation == pytest.approx(0.9)  # 1 s less the margin
    else:  # the clock's share of the game: 60 s over the 20 moves a side of a 40-move game, more at first
        assert 60 / 20 < allocation < 60 / 20 * 1.2


def test_the_move_check_keeps_its_share_after_thinking_on():
    """Thinking on stops a check's share (0.25) of the allocation early, and the check then runs: with
    its deadline counted from the move's start it would find its time gone and play the move unchecked."""
    p, clock = clocked_hex_player([100, 60], move_check=True)
    arrival = clock.now
    allocation = p.limits(arrival, 0, 0).time
    result = p.search(0, arrival)
    assert result.stats["thought_on"] == 2 and clock.now - arrival == pytest.approx(1.75 * allocation)
    assert p.connections.dfpn.nodes > 0   # the check searched (its clock stands still here)
