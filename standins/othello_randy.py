"""A random agent for the Othello game manager (like the course's randy_ai.py): ``python3 othello_randy.py``.

It prints its name, reads the flags line, then answers each ``SCORE`` + board with a uniformly
random legal move (the rules of standins/othello_manager.py); it quits on ``FINAL`` or end of input.
OTHELLO_RANDY_SEED seeds it (default: unseeded, as randy_ai.py).
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the plies tree
from protocols.othello_pipe import format_move, parse_board, parse_flags  # noqa: E402  (pure Python: no engine)
from standins.othello_manager import possible_moves  # noqa: E402


def main() -> int:
    seed = os.environ.get("OTHELLO_RANDY_SEED")
    rng = random.Random(int(seed) if seed else None)
    print("Randy", flush=True)
    color = parse_flags(sys.stdin.readline()).color
    while True:
        line = sys.stdin.readline().strip()
        if not line or line.startswith("FINAL"):
            return 0
        board = parse_board(sys.stdin.readline())
        i, j = rng.choice(possible_moves(board, color))  # (column, row)
        print(format_move((j, i), len(board)), flush=True)


if __name__ == "__main__":
    sys.exit(main())
