"""Go game records the project makes itself: self-play of an outside Go program, written as SGF
(sgfmill).  The program is injected as a *player* (standins/gnugo_games.py gives GNU Go and the
command line: ``python -m standins.gnugo_games``); this module owns the game loop and the records, so
the engine names no outside program's wire format.

Player.  An object with ``info`` (a dict of short words for the record: ``generator``, ``level``,
...), ``start(size, komi)`` (a new empty board), ``play(player, action)`` (player 0 Black, 1 White;
actions of engines/games/go.py, the pass included), ``genmove(player)`` (its move for that colour,
already on its board: an action, or None when it resigns), ``final_score()`` (its score text, 'B+3.0')
and ``close()``.  ``factory(seed)`` makes the player of game ``seed``; with jobs > 1 the factory is
pickled into worker processes.

One game: a few random opening moves (0..random_moves, drawn by ``random.Random(seed)``, on points
at least on the third line from the edge on boards of 7x7 and more, checked with plies' rules and
sent with ``play``), then ``genmove`` for the side to move until two consecutive passes, a
resignation or the move cap (3 * n*n moves).  Every move the player makes is checked with plies'
rules (engines/games/go.py "standard": simple ko, suicide illegal); an illegal one fails the game
(``RecordFailure``; nothing is written).

Records.  ``DIR/go{n}-L{level}-s{seed:06d}.sgf``: FF[4] GM[1] SZ KM RU[Chinese], RE (the player's
final score after two passes, "B+R"/"W+R" on resignation, "?" at the cap), the moves (passes
included), and GC holding ``key=value`` words that go_mm reads: the player's ``info``, ``seed``,
``random=K`` (the first K moves are the random opening, not the player's choices) and
``cpu=SECONDS`` (the CPU time of the game: this process and the children it waited for).  A record
is written to a temporary name and renamed, so a file that exists is complete: generation is
resumable (game i has seed ``seed + i``; games whose file exists are skipped).
"""
import random
from pathlib import Path

import numpy as np
from sgfmill import sgf

from engines.errors import IllegalMove
from engines.games.go import Go
from engines.learn.records import cpu_seconds, game_comment, game_info, write_once  # noqa: F401 - game_info: this module's records too



class RecordFailure(RuntimeError):
    """The player failed a game (it died, refused a command, or made a move plies' rules reject)."""


def record_name(size: int, level, seed: int) -> str:
    return f"go{size}-L{level}-s{seed:06d}.sgf"


def sgf_point(game: Go, action: int):
    """sgfmill's (row, col) with row 0 at the BOTTOM, or None for the pass."""
    if action == game.pass_action:
        return None
    row, col = game.coords(action)
    return game.size - 1 - row, col


def action_of_sgf_point(game: Go, point) -> int:
    if point is None:
        return game.pass_action
    r, c = point
    return game.action(game.size - 1 - r, c)


def replay(record, skip_random: bool = True):
    """(game, state, played, action, move number) for each move of a record (sgfmill Sgf_game) made by the
    player to move: ``played`` the actions before it (passes included; do not keep the list, it grows),
    the side to move set from the record's colour.  Setup stones (AB/AW) start the game; the random
    opening moves of these records (GC ``random=K``) are played but not yielded when ``skip_random``.
    Replay stops at a move plies' rules reject."""
    n = record.get_size()
    game = Go(size=n, komi=record.get_komi(), rules="standard")
    root = record.get_root()
    black, white, _empty = root.get_setup_stones()
    state = game.initial_state()
    if black or white:
        cells = np.zeros((n, n), dtype=np.int8)
        for stones, v in ((black, 1), (white, 2)):
            for r, c in stones:
                cells[n - 1 - r, c] = v
        first = 1 if root.has_property("HA") and black and not white else 0
        state = game.state_from_cells(cells, first)
    nrandom = int(game_info(record).get("random", "0")) if skip_random else 0
    played = []
    for i, node in enumerate(record.get_main_sequence()[1:]):
        colour, point = node.get_move()
        if colour is None:
            continue
        if (colour == "w") != (game.to_move(state) == 1):
            state = game.set_to_move(state, 1 if colour == "w" else 0)
        a = action_of_sgf_point(game, point)
        if i >= nrandom:
            yield game, state, played, a, i + 1
        try:
            state = game.play(state, a)
        except ValueError:
            return
        played.append(a)


def _opening_points(game: Go):
    n = game.size
    low = 2 if n >= 7 else 0
    return [game.action(r, c) for r in range(low, n - low) for c in range(low, n - low)]


def play_game(player, size: int = 9, seed: int = 0, random_moves: int = 4, komi: float = 7.0,
              max_moves: int | None = None) -> bytes:
    """One self-play game of ``player`` as SGF bytes (see the module docstring)."""
    game = Go(size=size, komi=komi, rules="standard")
    rng = random.Random(seed)
    cap = 3 * size * size if max_moves is None else max_moves
    cpu0 = cpu_seconds()
    moves = []
    result = "?"
    try:
        player.start(size, komi)
        state = game.initial_state()
        points = _opening_points(game)
        for _ in range(rng.randint(0, random_moves)):
            free = [a for a in points if game.is_legal(state, a)]
            if not free:
                break
            a = rng.choice(free)
            player.play(game.to_move(state), a)
            state = game.play(state, a)
            moves.append(a)
        nrandom = len(moves)
        passes = 0
        while len(moves) < cap and passes < 2:
            colour = game.to_move(state)
            a = player.genmove(colour)
            if a is None:
                result = "BW"[1 - colour] + "+R"
                break
            try:
                state = game.play(state, a)
            except IllegalMove as exc:
                raise RecordFailure(f"{'BW'[colour]} {game.move_label(a)} is illegal for plies: {exc}") from None
            moves.append(a)
            passes = passes + 1 if a == game.pass_action else 0
        if passes >= 2:
            result = player.final_score()
    finally:
        player.close()
    cpu = cpu_seconds() - cpu0
    record = sgf.Sgf_game(size=size)
    root = record.get_root()
    root.set("KM", float(komi))
    root.set("RU", "Chinese")
    name = f"{player.info.get('generator', 'player')} level {player.info.get('level', '?')}"
    root.set("PB", name)
    root.set("PW", name)
    root.set("RE", result)
    root.set("GC", game_comment(player.info, seed, nrandom, cpu))
    for i, a in enumerate(moves):
        node = record.extend_main_sequence()
        node.set_move("b" if i % 2 == 0 else "w", sgf_point(game, a))
    return record.serialise()


def write_game(out_dir, factory, level, size: int, seed: int, random_moves: int = 4,
               komi: float = 7.0) -> tuple[Path, bool]:
    """Play and write game ``seed`` unless its record exists; (path, written)."""
    return write_once(Path(out_dir) / record_name(size, level, seed),
                      lambda: play_game(factory(seed), size=size, seed=seed, random_moves=random_moves, komi=komi))


def _job(args):
    try:
        return write_game(*args)[1], None
    except RecordFailure as exc:
        return False, f"seed {args[4]}: {exc}"


def generate(out_dir, factory, games: int, level=0, size: int = 9, seed: int = 1, jobs: int = 1,
             random_moves: int = 4, komi: float = 7.0, progress=None) -> tuple[int, int, list]:
    """Games seed .. seed+games-1 of ``factory``'s players into out_dir (existing records skipped;
    ``level`` names the files); (written, skipped, errors).  ``progress(k)`` is called as games finish
    (a tqdm's update, say)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    todo = [(out_dir, factory, level, size, s, random_moves, komi) for s in range(seed, seed + games)
            if not (out_dir / record_name(size, level, s)).exists()]
    skipped = games - len(todo)
    written, errors = 0, []
    if progress is not None and skipped:
        progress(skipped)
    pool = None
    if jobs <= 1:
        results = map(_job, todo)
    else:
        import multiprocessing
        pool = multiprocessing.get_context("spawn").Pool(jobs)
        results = pool.imap_unordered(_job, todo)
    try:
        for ok, error in results:
            written += ok
            if error:
                errors.append(error)
            if progress is not None:
                progress(1)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return written, skipped, errors
