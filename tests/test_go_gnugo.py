"""Go legality and captures against GNU Go over GTP.

GNU Go's defaults are our "standard" rules for legality: suicide forbidden (--forbid-suicide) and
simple ko (--simple-ko: the opponent may not retake a single stone at once; any move or pass clears
the ban).  We pass both options explicitly.  On random positions reached by random legal play with
our engine, GNU Go's ``all_legal`` for the side to move must equal our legal stones, and after each
move ``list_stones`` and ``captures`` must match ours.  A second GNU Go started with
--positional-superko checks our "superko" rules the same way on tiny boards.
"""
import os
import subprocess

import numpy as np
import pytest

from engines.games import go as G
from engines.games.go import Go
from moves import gtp_text

GNUGO = "/usr/games/gnugo"

pytestmark = pytest.mark.skipif(not os.access(GNUGO, os.X_OK),
                                reason=f"GNU Go is not installed at {GNUGO} (apt-get install gnugo)")


class GnuGo:
    def __init__(self, ko="--simple-ko"):
        self.proc = subprocess.Popen([GNUGO, "--mode", "gtp", "--forbid-suicide", ko, "--level", "0"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True)

    def __call__(self, command: str) -> str:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError(f"GNU Go exited during {command!r}")
            if line.strip() == "":
                if lines:
                    break
                continue
            lines.append(line.rstrip("\n"))
        reply = "\n".join(lines)
        assert reply.startswith("="), f"GNU Go refused {command!r}: {reply}"
        return reply[1:].strip()

    def close(self):
        try:
            self("quit")
        except (RuntimeError, AssertionError, OSError):
            pass
        finally:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def gnugo():
    engine = GnuGo()
    try:
        yield engine
    finally:
        engine.close()


def vertices(text: str) -> set[str]:
    return {v.lower() for v in text.split()}


@pytest.fixture(scope="module")
def gnugo_superko():
    engine = GnuGo("--positional-superko")
    try:
        yield engine
    finally:
        engine.close()


@pytest.mark.parametrize("n,games,max_len", [(5, 60, 60), (9, 4, 140), (7, 8, 90)])
def test_legal_moves_and_captures_match_gnugo(gnugo, n, games, max_len):
    g = Go(n)
    rng = np.random.default_rng(38 + n)
    positions = kos = captured = 0
    for _ in range(games):
        gnugo(f"boardsize {n}")
        gnugo("clear_board")
        s = g.initial_state()
        for _ in range(max_len):
            if g.is_terminal(s):
                break
            colour = ("black", "white")[g.to_move(s)]
            legal = g.legal_moves(s)
            ours = {gtp_text(g, a) for a in legal[:-1]}
            assert vertices(gnugo(f"all_legal {colour}")) == ours, g.render(s)
            positions += 1
            kos += g.ko(s) is not None
            stones = legal[:-1]
            m = int(rng.choice(stones)) if stones and rng.random() > 0.03 else g.pass_action
            s = g.play(s, m)
            gnugo(f"play {colour} {gtp_text(g, m)}")
            cells = g.cells(s)
            for c, name in ((1, "black"), (2, "white")):
                expect = {gtp_text(g, g.action(int(i), int(j))) for i, j in zip(*np.nonzero(cells == c))}
                assert vertices(gnugo(f"list_stones {name}")) == expect, g.render(s)
            caps = g.captures(s)
            assert (int(gnugo("captures black")), int(gnugo("captures white"))) == caps
        captured += sum(g.captures(s))
    print(f"{n}x{n}: {positions} positions, {kos} with a ko ban, {captured} stones captured")
    assert positions >= 100 and kos > 0 and captured > 0


@pytest.mark.parametrize("n,games", [(2, 40), (3, 60), (4, 60)])
def test_positional_superko_matches_gnugo(gnugo_superko, n, games):
    """Our "superko" rules against GNU Go's --positional-superko on tiny boards, where positions
    repeat often (games stay far below our history capacity of 4*n*n stone moves)."""
    gnugo = gnugo_superko
    g = Go(n, rules="superko")
    rng = np.random.default_rng(77 + n)
    banned = 0
    for _ in range(games):
        gnugo(f"boardsize {n}")
        gnugo("clear_board")
        s = g.initial_state()
        for _ in range(3 * n * n):
            if g.is_terminal(s):
                break
            colour = ("black", "white")[g.to_move(s)]
            legal = g.legal_moves(s)
            assert vertices(gnugo(f"all_legal {colour}")) == {gtp_text(g, a) for a in legal[:-1]}, g.render(s)
            simple = s.copy()
            simple[G.RULES] = G.STANDARD  # the rules live in the state: the same position, simple ko
            banned += len(g.legal_moves(simple)) - len(legal)
            stones = legal[:-1]
            m = int(rng.choice(stones)) if stones and rng.random() > 0.03 else g.pass_action
            s = g.play(s, m)
            gnugo(f"play {colour} {gtp_text(g, m)}")
    print(f"{n}x{n}: {banned} moves banned by superko alone")
    if n <= 3:  # repetitions are rarer on 4x4
        assert banned > 0
