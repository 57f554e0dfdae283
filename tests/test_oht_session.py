"""The Online Hex Tournament client's sessions (protocols/oht.py SessionA / SessionB with the agent's
handlers, adapters/oht_client.py) driven message by message as the server drives them: golden
replies, the decision the client makes as player 2, how each way of ending becomes an exit status,
and a network that cannot play the series' size refused at the series start."""
import ssl
import subprocess
import sys

import pytest

from adapters import oht_client as C
from adapters import oht_session
from conftest import OHT_WAIT, serving
from adapters.config import ConfigError
from adapters.oht_client import Settings
from engines.games import make_game
from engines.knowledge.hex.network import NetworkError, shipped_network_path
from hex_solver import hex_mover_wins
from protocols import oht
from protocols.common import ProtocolError, Quit
from standins import oht_server as S

# Player 2 to move (player 1 started: three stones against two).  Player 2 wins with (0, 2) or (2, 1)
# only; player 1, were it to move, would win with (1, 1) or (1, 2) only: the two sets are disjoint, so a
# client that searches for the wrong player answers a move that is not player 2's win.  That holds for
# every search the client can run (test_every_search_tells_player_2_from_player_1 below: the default
# included, so a change of default cannot disarm the six dialogue tests), and the default search
# answers (0, 2) at the tests' seeds.
DECISION = [[0, 0, 0, 0],
            [2, 0, 0, 2],
            [0, 0, 0, 0],
            [1, 1, 0, 1]]
P2_WINS = (0, 2)
P2_WINNING = [(0, 2), (2, 1)]
P1_WINNING = [(1, 1), (1, 2)]
WON = [[2 if (r, c) == P2_WINS else v for c, v in enumerate(row)] for r, row in enumerate(DECISION)]
SIMULATIONS = 2000
WAIT = OHT_WAIT


def winning_moves(cells, player: int) -> list:
    """The moves that win for the engine player to move (the brute-force solver, independent of the search)."""
    game = make_game("hex", size=len(cells))
    state = game.state_from_cells(cells, player)
    moves = []
    for a in game.legal_moves(state):
        after = game.play(state, a)
        if game.is_terminal(after) or not hex_mover_wins(after):
            moves.append(game.coords(a))
    return moves


def test_the_decision_position_is_what_the_test_says():
    assert winning_moves(DECISION, oht.engine_player(2)) == P2_WINNING and P2_WINS in P2_WINNING
    assert winning_moves(DECISION, oht.engine_player(1)) == P1_WINNING
    assert not set(P2_WINNING) & set(P1_WINNING)


def client_searches() -> list[dict]:
    """Every search the tournament client can run on a board without a shipped network: the default
    settings, each tree search with all, none and each piece of the knowledge, greedy without a network."""
    from engines.players.hex import PIECES, SEARCHES
    return ([{}] + [{"search": search, "knowledge": knowledge} for search in SEARCHES
                    for knowledge in ("all", "none", *PIECES)] + [{"mode": "greedy"}])


@pytest.mark.parametrize("search", client_searches(), ids=str)
def test_every_search_tells_player_2_from_player_1(search):
    """The premise of the six tests below, for each search: the right player's search (player 2's)
    plays one of player 2's winning moves, the wrong player's (player 1's) one that is not."""
    from engines.players.hex import HexPlayer
    size = len(DECISION)
    for seed in (0, 1, 2):
        settings = Settings(**{"simulations": SIMULATIONS, "network": "none", **search, "seed": seed})
        right = HexPlayer(settings, size, seed=seed + size).choose(DECISION, oht.engine_player(2))
        wrong = HexPlayer(settings, size, seed=seed + size).choose(DECISION, oht.engine_player(1))
        assert right in P2_WINNING and wrong not in P2_WINNING, (seed, right, wrong)
        if not search:
            assert right == P2_WINS   # the golden replies below


def flat(to_move: int, cells) -> tuple:
    return (to_move,) + tuple(v for row in cells for v in row)


def agent_for(tmp_path, seed: int) -> C.OHTAgent:
    return C.make_agent(Settings(simulations=SIMULATIONS, network="none", seed=seed, log=str(tmp_path / "games.log")))


@pytest.fixture(autouse=True)
def no_secrets_from_the_environment(monkeypatch):
    monkeypatch.delenv(oht_session.ENV_PASSWORD, raising=False)
    monkeypatch.delenv(oht_session.ENV_USERNAME, raising=False)
    monkeypatch.setenv(oht_session.ENV_TOKEN, "a-token")


# ==== generation A ==================================================================================
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_as_player_2_the_client_plays_player_2s_winning_move_a(tmp_path, seed):
    agent = agent_for(tmp_path, seed)
    login = oht_session.Login(username="student", player_name="me", ask_secret=lambda prompt: "hunter2")
    session = oht_session.session_a(agent, login)
    dialogue = [  # (what the server sends, what the client must answer)
        ("Please enter your NTNU username:", b"student"),
        ("Please enter your NTNU password:", b"hunter2"),
        ("Please enter your player-name:", b"me"),
        ("Do you want to attempt to qualify for the tournament playoffs? (Y/n)", b"n"),
        ("Do you want to run a stress test? (y/N)", b"n"),
        ("Welcome to the local Online Hex Tournament, me!", None),
        ("Series start", None), ("-200", None), ("[(999, 1), (-200, 2)]", None), ("1", None), ("[4]", None),
        ("Game start", None), ("1", None),
        (str(flat(2, DECISION)), str(P2_WINS).encode()),                       # we are player 2
        ("Game end", None), ("2", None), (str(flat(1, WON)), None),
        ("Series end", None), ("[(999, 1, 0, 1), (-200, 2, 1, 0)]", None),
    ]
    assert [session.handle(sent.encode()) for sent, _ in dialogue] == [reply for _, reply in dialogue]
    with pytest.raises(Quit):
        session.handle(b"Tournament end")
        session.handle(b"100.0")
    assert agent.record.finished and agent.record.games[0]["moves"][-1][:3] == (2,) + P2_WINS


# ==== generation B ==================================================================================
def body(**message) -> bytes:
    return oht.encode_json(message)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_as_player_2_the_client_plays_player_2s_winning_move_b(tmp_path, seed):
    agent = agent_for(tmp_path, seed)
    session = oht_session.session_b(agent, oht_session.Login(qualify=True))
    dialogue = [
        (body(topic="message", message="Welcome"), None),
        (body(topic="authentication"), b'"a-token"'),
        (body(topic="question", question="Qualify?"), b"true"),
        (body(topic="series_start", unique_player_id=-200, player_id_map=[[999, 1], [-200, 2]], num_games=1,
              game_params=[4]), None),
        (body(topic="game_start", start_player=1), None),
        (body(topic="request_action", state=list(flat(2, DECISION))), oht.encode_json(list(P2_WINS))),
        (body(topic="game_over", winner=2, end_state=list(flat(1, WON))), None),
        (body(topic="series_over", stats=[[999, 1, 0, 1], [-200, 2, 1, 0]]), None),
        (body(topic="tournament_over", score=100.0), None),
    ]
    assert [session.handle(sent) for sent, _ in dialogue] == [reply for _, reply in dialogue]
    assert dialogue[5][1] == b"[0, 2]"
    with pytest.raises(Quit):
        session.handle(body(topic="finish"))
    assert agent.record.finished and agent.record.score == 100.0


# ==== how a session ends =============================================================================
@pytest.mark.parametrize("message, outcome, says", [
    (b"Invalid credentials. Goodbye.", oht.LoginRefused, "login refused: Invalid credentials"),
    (b"Sorry, the tournament is full", oht.LoginRefused, "login refused: Sorry"),
])
def test_a_refused_login_ends_the_session_a(tmp_path, message, outcome, says):
    session = oht_session.session_a(agent_for(tmp_path, 0),
                                    oht_session.Login(username="u", ask_secret=lambda prompt: "p"))
    assert session.handle(b"Please enter your NTNU username:") == b"u"
    with pytest.raises(outcome, match=says):
        session.handle(message)


def test_an_illegal_action_called_out_is_recorded_and_ends_the_session_a(tmp_path):
    agent = agent_for(tmp_path, 0)
    session = oht_session.session_a(agent, oht_session.Login(username="u", ask_secret=lambda prompt: "p"))
    for message in ("Welcome", "Series start", "-200", "[(-200, 1), (999, 2)]", "1", "[4]", "Game start", "1"):
        assert session.handle(message.encode()) is None
    state = str(flat(1, [[0] * 4] * 4))
    assert session.handle(b"Illegal action") is None
    assert session.handle(state.encode()) is None
    with pytest.raises(oht.ServerError, match="called out our action"):
        session.handle(b"(0, 0)")
    assert agent.record.illegal == [{"state": list(flat(1, [[0] * 4] * 4)), "action": "(0, 0)"}]


def test_a_server_error_ends_the_session_b(tmp_path):
    session = oht_session.session_b(agent_for(tmp_path, 0), oht_session.Login())
    with pytest.raises(oht.ServerError, match="server error: Illegal action"):
        session.handle(body(topic="error", error="Illegal action [9, 9]"))


def test_a_session_needs_a_handler_for_every_kind_its_generation_has():
    with pytest.raises(ValueError, match="needs a handler for question"):
        oht.SessionB({kind: print for kind in oht.SessionB.kinds if kind != "question"})


@pytest.mark.parametrize("outcome, status, says", [
    (Quit(), oht_session.EXIT_OK, None),
    (oht.LoginRefused("login refused: Sorry"), oht_session.EXIT_REFUSED, "login refused: Sorry"),
    (ProtocolError("not a Python literal"), oht_session.EXIT_PROTOCOL,
     "malformed server message: not a Python literal"),
    (oht_session.ConnectionClosed("the server closed the connection"), oht_session.EXIT_DROPPED,
     "the server closed the connection before the tournament was over"),
    (TimeoutError("timed out"), oht_session.EXIT_DROPPED, "the connection failed: TimeoutError: timed out"),
    (ssl.SSLError("bad record"), oht_session.EXIT_DROPPED, "the connection failed: SSLError"),
    (oht.ServerError("server error: Illegal action"), oht_session.EXIT_SERVER_ERROR, "server error: Illegal action"),
    (NetworkError("hex5.onnx is a network for 5x5, not for 7x7"), oht_session.EXIT_SETTINGS,
     "our settings cannot play: hex5.onnx is a network for 5x5"),
    (ConfigError("seconds = 'soon'"), oht_session.EXIT_SETTINGS, "our settings cannot play: seconds"),
])
def test_each_outcome_has_its_exit_status(outcome, status, says):
    got_status, got_says = oht_session.outcome_of(outcome)
    assert got_status == status
    assert (got_says is None) if says is None else got_says.startswith(says)


def test_the_exit_statuses_are_documented_in_the_help():
    done = subprocess.run([sys.executable, "-m", "adapters.cli", "hex", "connect", "--help"],
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    for status in sorted({status for status, _ in oht_session.OUTCOMES.values()}):
        assert any(line.startswith(f"  {status}  ") for line in lines), status
    assert "PLIES_OHT_<KEY>" in done.stdout and "--uct-c" in done.stdout


# ==== a network that cannot play the series' size =====================================================
def test_a_network_of_another_size_is_refused_at_the_series_start(tmp_path, certs):
    network = shipped_network_path(5)
    settings = Settings(simulations=30, network=str(network), seed=0, log=str(tmp_path / "games.log"))
    agent = C.make_agent(settings)
    with serving(certs, S.ServerConfig(generation="B", sizes=(7,), series=1, games=1)) as server:
        status = oht_session.play("B", "127.0.0.1", server.port, certs[0], agent, oht_session.Login(), timeout=WAIT)
    assert status == oht_session.EXIT_SETTINGS
    assert "5x5" in agent.record.errors[0] and "7x7" in agent.record.errors[0]
    assert server.results[0].client_times == [] and agent.record.games == []   # not a move was asked for
