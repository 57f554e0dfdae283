"""Little-Go rules (specs/littlego.md): Go(rules="littlego") against the host's rules in pure Python
(engines/games/reference/littlego.py, by which the local host judges and the player writes its fallback move;
boards as the host keeps them, i = row from the top), plus every listed case."""
import numpy as np
import pytest

from engines.games.reference.littlego import Position, place
from engines.errors import IllegalMove, Reason
from engines.games import go as G
from engines.games.go import Go
from moves import gtp_text
from protocols import littlego
from protocols.common import ProtocolError
from protocols.gtp import format_score
from standins.littlego_host import Game

N = 5


def host_reason(h: Game, i: int, j: int):
    """The Reason the host gives for the mover's stone at (i, j) (None: valid), judged from what
    input.txt tells the mover (whether a stone of its vanished: Position.from_input)."""
    pos = Position.from_input(h.colour, h.previous, h.board)
    try:
        place(pos.board, pos.previous, pos.died, pos.colour, i, j)
    except IllegalMove as err:
        return err.reason
    return None


def host_board(game, state):
    return game.cells(state).tolist()  # the board view keeps the host's layout: row 0 at the top


def action(game, i, j):
    """The action of the host's move text 'i,j'."""
    return game.action_at(littlego.parse_move(f"{i},{j}"))


def from_boards(game, previous, current, colour, moves_played=None):
    """The Little-Go host's input (colour 1 black / 2 white, boards row 0 at the top) as a state."""
    return game.state_from_cells(current, colour - 1, previous=previous, moves_played=moves_played)


def input_txt(colour, previous, current):
    """The text of input.txt as the host writes it."""
    return "\n".join([str(colour)] + ["".join(map(str, row)) for row in previous + current]) + "\n"


# ---- random games against the host's rules ---------------------------------------------------------
def test_random_games_match_the_host():
    g = Go(rules="littlego")
    rng = np.random.default_rng(561)
    kos = ends_by_pass = ends_by_limit = 0
    for _ in range(300):
        s, h = g.initial_state(), Game()
        while True:
            assert g.is_terminal(s) == h.over
            if h.over:
                break
            assert host_board(g, s) == h.board
            legal = g.legal_moves(s)
            reasons = {(i, j): host_reason(h, i, j) for i in range(N) for j in range(N)}
            valid = [action(g, i, j) for (i, j), why in reasons.items() if why is None]
            assert legal == sorted(valid) + [g.pass_action]
            for (i, j), why in reasons.items():
                assert g.illegal_reason(s, action(g, i, j)) is why
            kos += Reason.KO in reasons.values()
            # the adapter's view: the same position rebuilt from input.txt
            colour, previous, current = littlego.read_input(input_txt(h.colour, h.previous, h.board))
            assert (colour, previous, current) == (h.colour, h.previous, h.board)
            r = from_boards(g, previous, current, colour, h.n_move)
            assert g.legal_moves(r) == legal and g.ko(r) == g.ko(s) and g.to_move(r) == g.to_move(s)
            assert g.hash(r) == g.hash(s) and not g.is_terminal(r)
            stones = legal[:-1]
            m = int(rng.choice(stones)) if stones and rng.random() > 0.08 else g.pass_action
            s = g.play(s, m)
            h.play(littlego.parse_move(littlego.format_move(g.point_of(m))))
            assert (m == g.pass_action) == (littlego.format_move(g.point_of(m)) == "PASS")
        assert host_board(g, s) == h.board
        assert g.winner(s) == littlego.player_of(h.winner)
        ends_by_limit += h.n_move == 24
        ends_by_pass += h.n_move < 24
    assert kos > 0 and ends_by_pass > 0 and ends_by_limit > 0


# ---- the spec's cases -------------------------------------------------------------------------------
KO_PREVIOUS = [[0, 0, 0, 0, 0],
               [0, 1, 2, 0, 0],
               [1, 0, 1, 2, 0],
               [0, 1, 2, 0, 0],
               [0, 0, 0, 0, 0]]
KO_CURRENT = [[0, 0, 0, 0, 0],   # White (2,1) took the black stone (2,2)
              [0, 1, 2, 0, 0],
              [1, 2, 0, 2, 0],
              [0, 1, 2, 0, 0],
              [0, 0, 0, 0, 0]]


def test_ko_is_judged_against_the_previous_board():
    g = Go(rules="littlego")
    s = from_boards(g, KO_PREVIOUS, KO_CURRENT, 1, 6)
    assert g.ko(s) == action(g, 2, 2)
    assert not g.is_legal(s, action(g, 2, 2)) and g.illegal_reason(s, action(g, 2, 2)) is Reason.KO
    assert action(g, 2, 2) not in g.legal_moves(s)
    # after a move elsewhere and the answer, the retake is fine and is itself a ko capture
    s = g.play(g.play(s, action(g, 0, 4)), action(g, 4, 4))
    assert g.is_legal(s, action(g, 2, 2))
    s = g.play(s, action(g, 2, 2))
    assert g.cells(s).tolist()[2] == [1, 0, 1, 2, 0] and g.ko(s) == action(g, 2, 1)
    # the same boards with White's capture two turns back (previous == current but for a stone
    # elsewhere): no stone of ours vanished, so the retake is legal
    prev = [row[:] for row in KO_CURRENT]
    cur = [row[:] for row in KO_CURRENT]
    cur[4][4] = 2
    s = from_boards(g, prev, cur, 1, 8)
    assert g.ko(s) is None and g.is_legal(s, action(g, 2, 2))


def test_snapback_after_a_capture_is_no_ko():
    g = Go(rules="littlego")
    previous = [[0, 2, 1, 0, 0],
                [2, 2, 1, 2, 1],
                [2, 0, 0, 1, 0],
                [0, 2, 1, 1, 2],
                [0, 1, 2, 0, 1]]
    current = [[0, 2, 1, 0, 0],  # White (4,3) took the black stone (4,4)
               [2, 2, 1, 2, 1],
               [2, 0, 0, 1, 0],
               [0, 2, 1, 1, 2],
               [0, 1, 2, 2, 0]]
    s = from_boards(g, previous, current, 1, 18)
    assert g.ko(s) is None and g.is_legal(s, action(g, 4, 4))
    t = g.play(s, action(g, 4, 4))  # takes two stones: the board differs from `previous`
    assert g.cells(t).tolist()[4] == [0, 1, 0, 0, 1] and g.captures(t) == (2, 0)


def test_suicide_is_invalid_and_a_capture_without_own_liberty_is_valid():
    g = Go(rules="littlego")
    cur = [[0, 2, 0, 0, 0],
           [2, 0, 0, 0, 0],
           [0, 0, 0, 0, 0],
           [0, 0, 0, 0, 0],
           [0, 0, 0, 0, 0]]
    s = from_boards(g, cur, cur, 1, 2)
    assert not g.is_legal(s, action(g, 0, 0)) and g.illegal_reason(s, action(g, 0, 0)) is Reason.SUICIDE
    cur = [[1, 1, 2, 0, 0],  # filling (1,0) would leave the black chain without liberty
           [0, 2, 0, 0, 0],
           [2, 0, 0, 0, 0],
           [0, 0, 0, 0, 0],
           [0, 0, 0, 0, 0]]
    s = from_boards(g, cur, cur, 1, 6)
    assert not g.is_legal(s, action(g, 1, 0)) and g.illegal_reason(s, action(g, 1, 0)) is Reason.SUICIDE
    assert g.is_legal(from_boards(g, cur, cur, 2, 5), action(g, 1, 0))  # White captures there
    # the spec's example 4: the stone has no liberty until the white pair is removed
    cur = [[0, 0, 0, 0, 0],
           [0, 0, 0, 0, 0],
           [0, 0, 0, 1, 1],
           [0, 0, 1, 2, 2],
           [0, 0, 2, 1, 0]]
    s = from_boards(g, cur, cur, 1, 8)
    assert g.is_legal(s, action(g, 4, 4))
    s = g.play(s, action(g, 4, 4))
    assert g.cells(s).tolist()[3:] == [[0, 0, 1, 0, 0], [0, 0, 2, 1, 1]] and g.captures(s) == (2, 0)


def test_pass_handling_and_game_end():
    g = Go(rules="littlego")
    s = g.initial_state()
    assert g.is_terminal(g.play(s, g.pass_action))  # a black pass on move 1 ends the game
    assert g.winner(g.play(s, g.pass_action)) == 1  # 0 > 0 + 2.5 is false: White wins
    s = g.play(s, action(g, 2, 2))
    t = g.play(s, g.pass_action)  # White passes: not over, previous becomes current
    assert not g.is_terminal(t)
    assert g.is_terminal(g.play(t, g.pass_action))  # two consecutive passes
    u = g.play(t, action(g, 0, 0))
    assert not g.is_terminal(g.play(u, g.pass_action))  # a pass after a stone does not end it
    # as the adapter sees it: previous == current means the opponent passed (or the game start)
    b = [[0] * 5 for _ in range(5)]
    b[2][2] = 1
    r = from_boards(g, b, b, 1, 2)
    assert g.is_terminal(g.play(r, g.pass_action))
    r = from_boards(g, [[0] * 5 for _ in range(5)], b, 2, 1)
    assert not g.is_terminal(g.play(r, g.pass_action))
    e = [[0] * 5 for _ in range(5)]
    assert g.is_terminal(g.play(from_boards(g, e, e, 1), g.pass_action))


def test_the_game_ends_after_move_24():
    g = Go(rules="littlego")
    s = g.initial_state()
    played = 0
    rng = np.random.default_rng(24)
    while played < 23:
        legal = g.legal_moves(s)[:-1]
        s = g.play(s, int(rng.choice(legal)))
        played += 1
        assert not g.is_terminal(s)
    assert g.nmoves(s) == 23 and g.to_move(s) == 1  # White plays move 24
    assert g.is_terminal(g.play(s, g.legal_moves(s)[0]))
    assert g.is_terminal(g.play(s, g.pass_action))
    cur = g.cells(s).tolist()
    r = from_boards(g, cur, cur, 2, 23)
    assert not g.is_terminal(r) and g.is_terminal(g.play(r, g.legal_moves(r)[0]))
    assert g.is_terminal(from_boards(g, cur, cur, 1, 24))
    # playouts stop there too
    for seed in range(20):
        t = g.initial_state()
        g.kernels.playout(t, np.array([seed + 1], dtype=np.uint64))
        assert g.is_terminal(t) and g.nmoves(t) <= 24


def test_stones_only_scoring_with_komi():
    g = Go(rules="littlego")
    assert g.komi == 2.5
    # the seed's example: White 10 + 2.5 = 12.5 > Black 12
    cur = [[1, 1, 1, 1, 1],
           [1, 1, 1, 1, 1],
           [1, 1, 0, 0, 0],
           [2, 2, 2, 2, 2],
           [2, 2, 2, 2, 2]]
    s = from_boards(g, cur, cur, 1, 24)
    assert g.is_terminal(s) and g.score(s) == 12 - 12.5 and g.winner(s) == 1 and format_score(g.score(s)) == "W+0.5"
    cur[2][2] = 1  # 13 against 10: Black
    s = from_boards(g, cur, cur, 1, 24)
    assert g.score(s) == 0.5 and g.winner(s) == 0 and g.returns(s) == (1.0, 0.0)
    # territory does not count: one black stone against an empty board still loses to komi
    e = [[0] * 5 for _ in range(5)]
    e[2][2] = 1
    s = from_boards(g, e, e, 2, 1)
    assert g.score(s) == 1 - 2.5
    assert Go(7, rules="littlego").komi == 3.5 and Go(7, rules="littlego").max_moves == 48


def test_state_from_cells_reads_the_host_layout():
    g = Go(rules="littlego")
    prev = [[0] * 5 for _ in range(5)]
    cur = [[0, 0, 1, 1, 0],  # the seed's figure 2
           [0, 0, 2, 1, 0],
           [0, 0, 2, 0, 0],
           [0, 2, 0, 0, 0],
           [0, 0, 0, 0, 0]]
    assert littlego.read_input(input_txt(1, prev, cur)) == (1, prev, cur)
    colour, previous, current = littlego.read_input(input_txt(1, prev, cur))
    s = from_boards(g, previous, current, colour)
    assert g.cells(s).tolist() == cur  # the board view keeps the host's rows
    # i = 0 is the top row (GTP row 5), i = 3 is GTP row 2
    stones = {k: {gtp_text(g, g.action(int(i), int(j))) for i, j in zip(*np.nonzero(g.cells(s) == k))} for k in (1, 2)}
    assert stones == {1: {"c5", "d5", "d4"}, 2: {"c4", "c3", "b2"}}
    assert g.to_move(s) == 0 and g.nmoves(s) == 6  # smallest even count >= 6 stones
    assert g.nmoves(from_boards(g, prev, cur, 2)) == 7
    assert littlego.format_move(g.point_of(action(g, 0, 2))) == "0,2"
    assert g.cells(s)[::-1].reshape(-1)[action(g, 0, 2)] == 1  # the action indexes the stone at (0, 2)
    assert g.is_legal(s, action(g, 0, 0)) and not g.is_legal(s, action(g, 1, 2))
    # the state continues like any other: the opponent's stones can be captured
    s2 = g.play(s, action(g, 3, 2))
    assert g.to_move(s2) == 1
    for bad in ([[0] * 5] * 4, [[0] * 4] * 5, [[0, 0, 3, 0, 0]] * 5, [["a"] * 5] * 5):
        with pytest.raises(ValueError):
            from_boards(g, prev, bad, 1)
        with pytest.raises(ProtocolError):  # the same boards as input.txt text
            littlego.read_input(input_txt(1, prev, bad))
    with pytest.raises(ValueError):
        from_boards(g, prev, cur, 0)  # colour 0: no player -1
    with pytest.raises(ValueError):
        from_boards(g, prev, cur, 3)
    for bad_colour in (0, 3):
        with pytest.raises(ProtocolError, match="colour"):
            littlego.read_input(input_txt(bad_colour, prev, cur))
    with pytest.raises(ValueError):
        from_boards(g, prev, cur, 1, 7)  # Black moves after an even number of moves
    with pytest.raises(ValueError):
        from_boards(g, prev, cur, 1, -2)
    dead = [[2, 1, 0, 0, 0], [1, 0, 0, 0, 0], [0] * 5, [0] * 5, [0] * 5]
    with pytest.raises(ValueError, match="liberties"):
        from_boards(g, prev, dead, 1)
    assert s[G.PREV_EQ] == 0 and from_boards(g, cur, cur, 1)[G.PREV_EQ] == 1
