"""Hex game records of strong play, for the move patterns (engines/learn/hex/patterns_mm.py): self-play
of an injected *player*, written as SGF (sgfmill).  standins/mohex_games.py gives MoHex as the player
and the command line; this module owns the game loop and the records, so the engine names no outside
program's wire format.

Player.  An object with ``info`` (a dict of short words for the record), ``start(size)`` (a new empty
board), ``play(player, action)`` (player 0 Black, who joins the top and bottom rows; actions r*n + c of
engines/games/hex.py), ``genmove(player)`` (its move, already on its board: an action, or None when it
resigns) and ``close()``.

One game (seed s): 1..random_moves uniformly random opening moves drawn by ``random.Random(s)`` (any
empty cell: variety, the player's own search being close to deterministic), then ``genmove`` for the
side to move until the game is won or a side resigns.  Every move is checked with plies' rules; an
illegal one fails the game (``RecordFailure``; nothing is written).

Records.  ``DIR/hex{n}-{tag}-s{seed:06d}.sgf``: FF[4] GM[11] SZ[n], RE ("B+", "W+", "B+R"/"W+R" on a
resignation), the moves as B[cell]/W[cell] with cell names as the Hex tools write them ('a1' the top
left corner, letter = column, number = row from 1), and GC holding ``key=value`` words: the player's
``info``, ``seed``, ``random=K`` (the first K moves are the random opening, not the player's choices)
and ``cpu=SECONDS`` (this process and the children it waited for).  A record is written to a
temporary name and renamed, so a file that exists is complete: generation is resumable.
"""
import random
from pathlib import Path

from sgfmill import sgf

from engines.games.hex import Hex
from engines.learn.records import cpu_seconds, game_comment, game_info, write_once

LETTERS = "abcdefghijklmnopqrstuvwxyz"


class RecordFailure(RuntimeError):
    """The player failed a game (it died, refused a command, or made a move plies' rules reject)."""


def record_name(size: int, tag: str, seed: int) -> str:
    return f"hex{size}-{tag}-s{seed:06d}.sgf"


def cell_name(action: int, size: int) -> str:
    row, col = divmod(action, size)
    return f"{LETTERS[col]}{row + 1}"


def action_of_cell(name: str, size: int) -> int:
    col = LETTERS.index(name[0].lower())
    row = int(name[1:]) - 1
    if not (0 <= row < size and col < size):
        raise ValueError(f"cell {name!r} is off the {size}x{size} board")
    return row * size + col


def play_game(player, size: int = 9, seed: int = 0, random_moves: int = 2) -> bytes:
    """One self-play game of ``player`` as SGF bytes (see the module docstring)."""
    game = Hex(size)
    rng = random.Random(seed)
    cpu0 = cpu_seconds()
    moves = []
    result = "?"
    try:
        player.start(size)
        state = game.initial_state()
        for _ in range(rng.randint(1, max(1, random_moves))):
            a = rng.choice([int(x) for x in game.legal_moves(state)])
            player.play(game.to_move(state), a)
            state = game.play(state, a)
            moves.append(a)
        nrandom = len(moves)
        while not game.is_terminal(state):
            colour = game.to_move(state)
            a = player.genmove(colour)
            if a is None:
                result = "BW"[1 - colour] + "+R"
                break
            if not (0 <= a < size * size) or game.cells(state).reshape(-1)[a] != 0:
                raise RecordFailure(f"{'BW'[colour]} {cell_name(a, size)} is illegal for plies")
            state = game.play(state, a)
            moves.append(a)
        if game.is_terminal(state):
            result = "BW"[game.winner(state)] + "+"
    finally:
        player.close()
    cpu = cpu_seconds() - cpu0
    record = sgf.Sgf_game(size=size)
    root = record.get_root()
    root.set_raw("GM", b"11")
    name = " ".join(str(player.info.get(k, "")) for k in ("generator", "level")).strip() or "player"
    root.set("PB", name)
    root.set("PW", name)
    root.set("RE", result)
    root.set("GC", game_comment(player.info, seed, nrandom, cpu))
    for i, a in enumerate(moves):
        record.extend_main_sequence().set_raw("BW"[i % 2], cell_name(a, size).encode())
    return record.serialise()


def read_record(path) -> tuple[int, list[int], dict, str]:
    """(size, moves as actions, the GC words, RE) of a record written by play_game."""
    record = sgf.Sgf_game.from_bytes(Path(path).read_bytes())
    size = record.get_size()
    root = record.get_root()
    info = game_info(record)
    result = root.get("RE") if root.has_property("RE") else "?"
    moves = []
    for node in record.get_main_sequence()[1:]:
        for colour in ("B", "W"):
            if node.has_property(colour):
                moves.append(action_of_cell(node.get_raw(colour).decode(), size))
    return size, moves, info, result


def write_game(out_dir, factory, tag: str, size: int, seed: int, random_moves: int = 2) -> tuple[Path, bool]:
    """Play and write game ``seed`` unless its record exists; (path, written)."""
    return write_once(Path(out_dir) / record_name(size, tag, seed),
                      lambda: play_game(factory(seed), size=size, seed=seed, random_moves=random_moves))
