"""The Little-Go assignment's opponents, written from their descriptions, as single-shot players.

Run in a folder with input.txt as ``python -m standins.littlego_opponents NAME``: each reads
input.txt and writes output.txt exactly like my_player3.py, so the host treats all players alike.
Pure Python on the host's own rules (engines/games/reference/littlego.py): no engine, quick to start.

  random      a uniformly random valid move; PASS only when there is none
  greedy      the move capturing the most enemy stones (ties at random)
  aggressive  looks two moves ahead on captures: the move maximising its captures minus the most the
              opponent can capture in reply (ties: more immediate captures, then at random)
  alphabeta   minimax with alpha-beta pruning, depth 2 (its move, the reply), at most 10 moves per
              node (the best 10 by a capture / atari / liberty ordering), leaves scored by stones on
              the board with komi plus a small liberty term

The random choices draw from os.urandom, or from PLIES_LITTLEGO_SEED (mixed with the position)
when it is set (the host's SEED_VARIABLE), for reproducible matches.
"""
import hashlib
import os
import random
import sys

from engines.games.reference.littlego import KOMI, SIZE, Position, group, stones
from protocols.common import PASS, ProtocolError
from protocols.littlego import POSITION, PlayerSession
from standins.littlego_host import SEED_VARIABLE

BRANCHING = 10     # alpha-beta: moves searched per node
DEPTH = 2          # alpha-beta: plies
LIBERTY_WEIGHT = 0.1  # alpha-beta evaluation: points per liberty of advantage
INF = float("inf")


def liberties(board, colour) -> int:
    """Liberties summed over the groups of colour."""
    seen, total = set(), 0
    for i in range(SIZE):
        for j in range(SIZE):
            if board[i][j] == colour and (i, j) not in seen:
                members, libs = group(board, i, j)
                seen.update(members)
                total += len(libs)
    return total


def in_atari(board, colour) -> int:
    """Stones of colour in groups with one liberty."""
    seen, total = set(), 0
    for i in range(SIZE):
        for j in range(SIZE):
            if board[i][j] == colour and (i, j) not in seen:
                members, libs = group(board, i, j)
                seen.update(members)
                total += len(members) if len(libs) == 1 else 0
    return total


# ---- the players: Position, rng -> point or PASS --------------------------------------------------
def play_random(pos, rng):
    moves = pos.placements()
    return rng.choice(moves)[0] if moves else PASS


def play_greedy(pos, rng):
    best = pos.most_captures()
    return rng.choice(best) if best else PASS


def play_aggressive(pos, rng):
    moves = pos.placements()
    if not moves:
        return PASS
    scored = []
    for point, nxt, c in moves:
        reply = max((c2 for _, _, c2 in nxt.placements()), default=0)
        scored.append((c - reply, c, point))
    top = max(s[:2] for s in scored)
    return rng.choice([p for n, c, p in scored if (n, c) == top])


def evaluate(board, colour) -> float:
    """The alpha-beta leaf value for colour: stones (with komi for white) and liberties."""
    b, w = stones(board)
    diff = b - (w + KOMI)
    if colour == 2:
        diff = -diff
    return diff + LIBERTY_WEIGHT * (liberties(board, colour) - liberties(board, 3 - colour))


def ordered(pos, rng):
    """The moves of pos, best first by captures, then saving own stones from atari, then threatening
    the opponent's, then liberties; ties in random order; at most BRANCHING of them."""
    keyed = []
    own = in_atari(pos.board, pos.colour)
    for point, nxt, c in pos.placements():
        saved = own - in_atari(nxt.board, pos.colour)
        threat = in_atari(nxt.board, 3 - pos.colour)
        keyed.append(((c, saved, threat, liberties(nxt.board, pos.colour), rng.random()), point, nxt))
    keyed.sort(key=lambda t: t[0], reverse=True)
    return [(p, n) for _, p, n in keyed[:BRANCHING]]


def alphabeta(pos, depth, alpha, beta, me, rng):
    if depth == 0:
        return evaluate(pos.board, me)
    moves = ordered(pos, rng)
    if not moves:
        return evaluate(pos.board, me)
    if pos.colour == me:
        value = -INF
        for _, nxt in moves:
            value = max(value, alphabeta(nxt, depth - 1, alpha, beta, me, rng))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    else:
        value = INF
        for _, nxt in moves:
            value = min(value, alphabeta(nxt, depth - 1, alpha, beta, me, rng))
            beta = min(beta, value)
            if alpha >= beta:
                break
    return value


def play_alphabeta(pos, rng):
    moves = ordered(pos, rng)
    if not moves:
        return PASS
    best, best_value, alpha = moves[0][0], -INF, -INF
    for point, nxt in moves:
        value = alphabeta(nxt, DEPTH - 1, alpha, INF, pos.colour, rng)
        if value > best_value:
            best, best_value = point, value
        alpha = max(alpha, value)
    return best


PLAYERS = {"random": play_random, "greedy": play_greedy, "aggressive": play_aggressive,
           "alphabeta": play_alphabeta}


def make_rng(colour, previous, current) -> random.Random:
    seed = os.environ.get(SEED_VARIABLE)
    if seed is None:
        return random.Random(os.urandom(16))
    key = f"{seed}|{colour}|{previous}|{current}".encode()
    return random.Random(hashlib.sha256(key).digest())


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] not in PLAYERS:
        print("usage: python -m standins.littlego_opponents " + "|".join(PLAYERS), file=sys.stderr)
        return 2
    choose = PLAYERS[argv[0]]
    session = PlayerSession({POSITION: lambda turn: choose(Position.from_input(*turn), make_rng(*turn))})
    try:
        with open("input.txt", encoding="utf-8") as f:
            output = session.handle(f.read())
    except (OSError, UnicodeDecodeError, ProtocolError) as e:
        print(f"{argv[0]}: input.txt: {e}", file=sys.stderr)
        return 2
    with open("output.txt", "w", encoding="utf-8", newline="\n") as f:
        f.write(output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
