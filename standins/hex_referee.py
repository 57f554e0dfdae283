"""A stand-in of HexGui and of a match referee for Hex GTP engines: ``GtpProcess`` drives an engine
process over pipes as HexGui drives it (one command, then its reply up to the empty line), and
``referee_game`` plays one game between two engines (or an engine and uniformly random moves),
checking every move and board against our own copy of the rules.  tests/test_gtp_hex.py and the
match figures (bench/hex_gtp_match.py) use it.
"""
import random
import sys
from pathlib import Path

import numpy as np

from engines.games import make_game
from protocols import hex_gtp
from regress.gtp_client import GtpClient

ROOT = Path(__file__).resolve().parents[1]
ENGINE = [sys.executable, "-m", "adapters.gtp_hex"]


class GtpProcess(GtpClient):
    """One plies-gtp-hex process (or ``cmd``) driven over pipes as HexGui drives it: a command, then
    its reply up to the empty line (regress/gtp_client.py: ``raw``, ``send`` -> (ok, text), ``ok``,
    ``genmove``, ``seconds``, ``close``), run from the project's root."""

    def __init__(self, args=(), cmd=None):
        super().__init__(cmd or [*ENGINE, *args], cwd=ROOT)


def board_cells(showboard_text: str, size: int) -> np.ndarray:
    """The cells of a showboard reply, parsed from its drawing (0 empty, 1 black, 2 white)."""
    rows = [line for line in showboard_text.splitlines() if "\\" in line]
    assert len(rows) == size, showboard_text
    cells = [[".BW".index(ch) for ch in row.split("\\")[1].split()] for row in rows]
    return np.array(cells, dtype=np.int8)


def referee_game(players, size: int, rng: random.Random, check_boards: bool = False):
    """One game: players[0] is black, players[1] white, each a GtpProcess or "random" (a uniformly
    random empty cell, told to the engine(s)).  Alternates genmove and play until the engines'
    final_score names a winner; checks every move against our own copy of the rules.  Returns
    (winner 0/1, moves as cell names)."""
    game = make_game("hex", size=size)
    state = game.initial_state()
    engines = [p for p in players if p != "random"]
    for engine in engines:
        engine.ok(f"boardsize {size} {size}")
        engine.ok("clear_board")
    moves = []
    colour = 0
    while True:
        scores = {engine.ok("final_score") for engine in engines}
        assert len(scores) == 1, scores
        score = scores.pop()
        if score in ("B+", "W+"):
            break
        assert score == "cannot score" and not game.is_terminal(state)
        assert len(moves) < size * size, "the board is full and nobody has won"
        mover = players[colour]
        name = "bw"[colour]
        if mover == "random":
            move = hex_gtp.format_cell(game.coords(rng.choice(game.legal_moves(state))), size)
        else:
            move = mover.genmove(name)
        point = hex_gtp.parse_cell(move, size)  # a cell, never resign or swap here
        assert game.cells(state)[point] == 0, f"{move} is not empty"
        state = game.play(state, game.action(*point))
        for engine in engines:
            if engine is not mover:
                engine.ok(f"play {name} {move}")
            if check_boards:
                assert (board_cells(engine.ok("showboard"), size) == game.cells(state)).all()
        moves.append(move)
        colour = 1 - colour
    assert game.is_terminal(state)
    winner = game.winner(state)
    assert score == ("B+", "W+")[winner]
    return winner, moves
