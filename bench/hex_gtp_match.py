"""A match between two Hex GTP engines (plies-gtp-hex with different settings, or any Hex GTP
engine command), refereed over GTP the way HexGui drives an engine; every move is checked against
our own copy of the rules.  The tests (tests/test_gtp_hex.py) use the same referee.

    .venv/bin/python -m bench.hex_gtp_match --games 10 --size 7 --a "" --b "--simulations 2000"
"""
import argparse
import json
import random
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from engines.games import make_game
from protocols import hex_gtp

ROOT = Path(__file__).resolve().parents[1]
ENGINE = [sys.executable, "-m", "adapters.gtp_hex"]

class GtpProcess:
    """One engine process driven over pipes as HexGui drives it: a command, then its reply up to the
    empty line.  ``send`` returns (ok, text)."""

    def __init__(self, args=(), cmd=None):
        self.proc = subprocess.Popen(cmd or [*ENGINE, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=ROOT, text=True, bufsize=1)
        self.seconds = []  # wall time of each genmove (figures only, never asserted)

    def raw(self, line: str) -> str:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            got = self.proc.stdout.readline()
            if got == "":
                raise RuntimeError(f"engine closed its output after {line!r}")
            if got == "\n" and lines:
                return "".join(lines) + "\n"
            lines.append(got)

    def send(self, line: str):
        reply = self.raw(line)
        assert reply[0] in "=?" and reply.endswith("\n\n"), reply
        return reply[0] == "=", reply[1:].strip()

    def ok(self, line: str) -> str:
        ok, text = self.send(line)
        assert ok, f"{line!r} failed: {text}"
        return text

    def genmove(self, colour: str) -> str:
        start = time.perf_counter()
        text = self.ok(f"genmove {colour}")
        self.seconds.append(time.perf_counter() - start)
        return text

    def close(self):
        try:
            if self.proc.poll() is None:
                self.send("quit")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        finally:
            for stream in (self.proc.stdin, self.proc.stdout):
                stream.close()


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


def match(args_a: list[str], args_b: list[str], games: int, size: int, seed: int = 0) -> dict:
    """games between engine A and engine B, A black in the even games; wins and seconds per genmove."""
    a, b = GtpProcess(args_a), GtpProcess(args_b)
    rng = random.Random(seed)
    wins = {"A": 0, "B": 0}
    lengths = []
    try:
        for g in range(games):
            players = (a, b) if g % 2 == 0 else (b, a)
            winner, moves = referee_game(players, size, rng)
            wins["A" if players[winner] is a else "B"] += 1
            lengths.append(len(moves))
            print(f"game {g + 1}: A {'black' if g % 2 == 0 else 'white'}, "
                  f"{'A' if players[winner] is a else 'B'} won in {len(moves)} moves", flush=True)
    finally:
        a.close()
        b.close()

    def timing(p):
        return {"median_s": statistics.median(p.seconds), "max_s": max(p.seconds), "moves": len(p.seconds)}
    return {"A": args_a, "B": args_b, "size": size, "games": games, "wins": wins,
            "mean_length": statistics.mean(lengths), "time_A": timing(a), "time_B": timing(b)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="a plies-gtp-hex match refereed over GTP")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--a", default="", help="arguments of engine A (default settings when empty)")
    parser.add_argument("--b", default="--simulations 2000", help="arguments of engine B")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    print(json.dumps(match(shlex.split(options.a), shlex.split(options.b), options.games, options.size,
                           options.seed), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
