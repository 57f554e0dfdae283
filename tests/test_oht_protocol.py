"""protocols/oht.py (both generations' codecs, the state conversion; golden dialogues and hypothesis
fuzzing) and engines/players/hex.py (always a legal move, within its budget)."""
import json
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters import oht_session
from adapters.oht_client import Settings
from engines.players.hex import HexPlayer
from engines.games import make_game
from engines.learn.network_file import save_network
from protocols import oht
from protocols.common import ProtocolError
from standins.oht_server import HexBoard

FUZZ = settings(derandomize=True, max_examples=300, deadline=None)


# ==== states =========================================================================================
def test_a_state_becomes_a_board_and_back():
    flat = (2,) + (0,) * 10 + (1,) + (0,) * 14
    board = oht.parse_state(flat, 5)
    assert board.size == 5 and board.to_move == 2 and board.cells[2][0] == 1 and board.flat() == flat
    assert oht.parse_state(list(flat)).size == 5                       # JSON lists too; any size without a series
    assert oht.format_state(np.int64(1), np.zeros((3, 3), np.int64)) == (1,) + (0,) * 9
    assert all(type(v) is int for v in oht.format_state(np.int64(1), np.ones((3, 3), np.int64)))


@pytest.mark.parametrize("bad, says", [
    ((1,) + (0,) * 24, "has 26 values, got 25"),
    ((1,) + (0,) * 36, "has 26 values, got 37"),
    ((3,) + (0,) * 25, "player to move"),
    ((1,) + (0,) * 24 + (5,), "a cell must be in 0..2"),
    ((1,) + (0.0,) * 25, "a cell must be an integer"),
    ((True,) + (0,) * 25, "must be an integer"),
    ("(1, 0)", "must be a list or tuple"),
])
def test_a_bad_state_is_a_protocol_error(bad, says):
    with pytest.raises(ProtocolError, match=says.replace("(", r"\(").replace(".", r"\.")):
        oht.parse_state(bad, 5)


def test_a_state_of_no_square_size_is_refused_without_a_series():
    with pytest.raises(ProtocolError, match="1 \\+ K\\*K"):
        oht.parse_state((1,) + (0,) * 24)


def test_numpy_scalars_go_out_as_plain_ints():
    assert oht.encode_a((np.int64(3), np.int32(1))) == b"(3, 1)"       # never b"(np.int64(3), ...)"
    assert oht.encode_b([np.int64(3), np.int8(1)])[4:] == b"[3, 1]"       # json.dumps would raise
    assert type(oht.plain(np.float32(50.0))) is float
    with pytest.raises(ProtocolError):
        oht.plain(object())


# ==== generation A: a golden dialogue ================================================================
def test_reader_a_turns_a_dialogue_into_events():
    reader = oht.ReaderA()
    steps = [(m, reader.feed(m.encode())) for m in [
        "Please enter your NTNU username:", "Please enter your NTNU password:", "Please enter your player-name:",
        "Do you want to attempt to qualify for the tournament playoffs? (Y/n)", "Do you want a stress test?",
        "Welcome, plies!", "Series start", "-200", "[(-200, 1), (999, 2)]", "2", "[3]", "Game start", "2",
        "(1, 0, 0, 0, 0, 2, 0, 0, 0, 0)", "Game end", "1", "(2, 1, 1, 1, 0, 2, 0, 0, 2, 0)", "Series end",
        "[(-200, 1, 1, 0), (999, 2, 0, 1)]", "Tournament end", "100.0"]]
    events = [e for _, e in steps if e is not None]
    assert [e.kind for e in events[:6]] == ["username", "password", "player-name", "qualify", "stress", "welcome"]
    kinds = [e.kind for e in events[6:]]
    assert kinds == ["series_start", "game_start", "get_action", "game_over", "series_over", "tournament_over"]
    series = events[6]
    assert (series["unique_id"], series["series_id"], series["size"], series["num_games"]) == (-200, 1, 3, 2)
    assert events[8]["state"].cells == ((0, 0, 0), (0, 2, 0), (0, 0, 0))
    assert events[9]["winner"] == 1 and events[11]["score"] == 100.0
    assert oht.login_prompt("Invalid credentials") == "refused" and oht.login_prompt("Sorry, no more") == "refused"


@pytest.mark.parametrize("message, says", [
    ("__import__('os').system('true')", "not a Python literal"),   # literal_eval, never eval
    ("Intermission", "not a Python literal"),
    ("(1, 0, 0)", "26 values"),
])
def test_reader_a_refuses_what_is_not_play(message, says):
    reader = oht.ReaderA()
    for m in ("Welcome", "Series start", "-200", "[(-200, 1), (999, 2)]", "2", "[5]"):
        reader.feed(m)
    with pytest.raises(ProtocolError, match=says.replace("(", r"\(")):
        reader.feed(message)


def test_a_series_without_us_in_the_map_is_refused():
    with pytest.raises(ProtocolError, match="not once in the player map"):
        oht.series_event(-200, [(1, 1), (2, 2)], 2, [5])


# ==== generation B ===================================================================================
def test_frames_carry_a_native_length_and_json():
    frame = oht.encode_b({"topic": "game_start", "start_player": np.int64(2)})
    assert frame[:4] == (len(frame) - 4).to_bytes(4, "little") and json.loads(frame[4:]) == \
        {"topic": "game_start", "start_player": 2}
    event = oht.parse_b(json.loads(frame[4:]))
    assert event.kind == "game_start" and event["start_player"] == 2


@pytest.mark.parametrize("message, says", [
    ({"topic": "half_time"}, "unknown topic"),
    ({"state": [1]}, "with a topic"),
    ({"topic": "request_action"}, "lacks state"),
    ({"topic": "request_action", "state": [1] + [0] * 36}, "has 26 values"),
    ({"topic": "game_over", "winner": 3, "end_state": [1] + [0] * 25}, "winner must be in 1..2"),
])
def test_parse_b_refuses_malformed_messages(message, says):
    with pytest.raises(ProtocolError, match=says):
        oht.parse_b(message, 5)


@pytest.mark.parametrize("prefix", [(-1).to_bytes(4, "little", signed=True), (0).to_bytes(4, "little"),
                                    (oht.MAX_FRAME + 1).to_bytes(4, "little"), b"\x01\x00"])
def test_a_corrupt_length_prefix_is_refused(prefix):
    with pytest.raises(ProtocolError):
        oht.frame_length(prefix)


# ==== fuzzing ========================================================================================
class FakeSocket:
    def __init__(self, data: bytes):
        self.data = data

    def recv(self, n):
        chunk, self.data = self.data[:n], self.data[n:]
        return chunk


@FUZZ
@given(st.binary(max_size=200))
def test_fuzz_a_frame_stream_gives_messages_or_clear_errors(data):
    sock = FakeSocket(data)
    try:
        while True:
            oht.decode_b(oht_session.recv_frame(sock))
    except (ProtocolError, oht_session.ConnectionClosed):
        pass


@FUZZ
@given(st.lists(st.text(max_size=40) | st.sampled_from(list(oht.HEADERS) + ["Welcome", "(1, 0, 0, 0, 0, 0, 0, 0, 0, 0)"]),
                max_size=12))
def test_fuzz_reader_a_gives_events_or_clear_errors(messages):
    reader = oht.ReaderA()
    for m in messages:
        try:
            event = reader.feed(m)
        except ProtocolError:
            continue
        assert event is None or isinstance(event, oht.Event)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
                    max_leaves=20)


@FUZZ
@given(st.sampled_from(list(oht.TOPICS)), st.dictionaries(st.sampled_from(
    ["state", "winner", "end_state", "stats", "score", "start_player", "unique_player_id", "player_id_map",
     "num_games", "game_params", "message", "question", "error"]), JSON, max_size=6))
def test_fuzz_parse_b_gives_events_or_clear_errors(topic, fields):
    try:
        event = oht.parse_b(dict(fields, topic=topic), 5)
    except ProtocolError:
        return
    assert isinstance(event, oht.Event)


@FUZZ
@given(JSON)
def test_fuzz_frames_round_trip(value):
    frame = oht.encode_b(value)
    assert oht.decode_b(frame[4:4 + oht.frame_length(frame[:4])]) == value


@FUZZ
@given(st.lists(st.integers(-3, 4) | st.booleans() | st.floats(allow_nan=False), max_size=60),
       st.none() | st.integers(3, 7))
def test_fuzz_states_parse_or_fail_clearly(values, size):
    try:
        board = oht.parse_state(values, size)
    except ProtocolError:
        return
    assert board.flat() == tuple(values) and oht.literal(str(board.flat())) == board.flat()


@FUZZ
@given(st.integers(0, 6), st.integers(0, 6), st.sampled_from([np.int64, np.int32, int]))
def test_fuzz_actions_round_trip_as_plain_literals(row, col, kind):
    text = oht.encode_a((kind(row), kind(col))).decode()
    assert oht.parse_action(text, 7) == (row, col) and "np" not in text


# ==== the player =====================================================================================
def random_position(size: int, stones: int, seed: int):
    """A position reached by random play that is not over yet (the referee's rules), and the mover."""
    rng = np.random.default_rng(seed)
    while True:
        board, player = HexBoard(size), 1
        for _ in range(stones):
            empty = board.empty()
            board.play(player, empty[rng.integers(len(empty))])
            player = 3 - player
        if board.winner() is None:
            return board, player


@pytest.mark.parametrize("size", [5, 6, 7])
def test_the_player_always_answers_an_empty_cell(size):
    player = HexPlayer(Settings(simulations=50, network="none"), size)
    for seed in range(12):
        board, mover = random_position(size, seed * 2 % (size * size - 4), seed)
        row, col = player.choose(board.cells, oht.engine_player(mover))
        assert type(row) is int and type(col) is int and board.cells[row][col] == 0


def test_the_player_takes_a_winning_move():
    cells = [[0, 1, 0], [0, 1, 0], [0, 0, 0]]   # player 1 joins row 0 to row 2 at (2, 0) or (2, 1)
    assert HexPlayer(Settings(simulations=2000, network="none"), 3).choose(cells, 0) in ((2, 0), (2, 1))


def test_the_time_budget_is_kept_on_the_thread_clock():
    player = HexPlayer(Settings(time=0.3, network="none"), 7, clock=time.thread_time)
    cells = [[0] * 7 for _ in range(7)]
    player.choose(cells, 0)                       # compiled code loaded
    start = time.thread_time()
    player.choose(cells, 0, start=start)
    assert time.thread_time() - start <= 0.3 + 0.05


def test_an_engine_failure_still_gives_a_legal_move():
    player = HexPlayer(Settings(simulations=10, network="none"), 3)
    cells = [[1, 2, 0], [0, 0, 0], [0, 0, 0]]
    player._search = lambda *a: (_ for _ in ()).throw(RuntimeError("boom"))  # the search, connections and all
    assert player.choose(cells, 0) == (0, 2) and "RuntimeError: boom" in player.notes[0]


def test_greedy_without_a_network_searches_and_says_so():
    player = HexPlayer(Settings(mode="greedy", network="none"), 5)
    row, col = player.choose([[0] * 5 for _ in range(5)], 1)
    assert 0 <= row < 5 and 0 <= col < 5 and "no network" in player.notes[0]


@pytest.mark.parametrize("mode, use", [("greedy", "rollout"), ("search", "rollout"), ("search", "prior"),
                                       ("search", "both")])
def test_a_network_file_plays_legal_moves(tmp_path, mode, use):
    """A network file (random weights, written as the trainer writes them) in each way of using it."""
    from engines.knowledge.bundle import Network
    from engines.knowledge.mlp import param_count
    size = 5
    layers = (3 * size * size, 16, size * size)
    weights = np.random.default_rng(3).normal(0, 0.3, param_count(layers)).astype(np.float32)
    path = save_network(tmp_path / "net.onnx", Network(weights, layers, "relu"), {"size": size})
    player = HexPlayer(Settings(mode=mode, simulations=50, network=str(path), network_use=use), size)
    assert player.network is not None and "network" in player.describe()
    for seed in range(6):
        board, mover = random_position(size, seed * 3, seed)
        row, col = player.choose(board.cells, oht.engine_player(mover))
        assert board.cells[row][col] == 0
    assert player.notes == []


def test_the_engine_and_the_referee_agree_on_winners():
    """The server's plain-Python referee against the engine's rules, over random games."""
    rng = np.random.default_rng(5)
    for size in (3, 5, 7):
        game = make_game("hex", size=size)
        for _ in range(20):
            board, state, player = HexBoard(size), game.initial_state(), 1
            while board.winner() is None:
                assert not game.is_terminal(state)
                empty = board.empty()
                r, c = empty[rng.integers(len(empty))]
                board.play(player, (r, c))
                state = game.play(state, game.action(r, c))
                player = 3 - player
            assert game.is_terminal(state) and game.winner(state) == oht.engine_player(board.winner())
