"""The Little-Go single-shot player: read input.txt, think, write output.txt, keep notes, exit.

The course host runs ``python3 my_player3.py`` once per move in the player's folder
(specs/littlego.md); my_player3.py finds this package and calls ``main``.  One run:
  1. input.txt is read strictly (protocols/littlego.py); a missing or malformed file: a message on
     stderr, exit status 2, no output.txt (an older one is removed);
  2. a fallback move (the most captures, pure Python, milliseconds) is written to output.txt and a
     CPU-time watchdog is armed (WATCHDOG_SECONDS), before the engine loads: whatever fails or runs
     long later (a stale compiled-code cache, a bug), the host gets a valid move in time;
  3. the engine loads and the boards must be able to follow each other (the current board is the
     previous one after one opponent stone and its captures, or unchanged after a pass); else as 1;
  4. the move number comes from the notes (NOTES_FILE in the working directory: the colour, the
     moves played and the board after our last move).  A game start (previous board empty, at most
     one stone on the current one) resets them; notes that are missing, corrupt or from another game
     (their board is not this previous board) give way to an estimate from the stones;
  5. the position becomes a state of the "littlego" rules (24-move horizon, stones-only scoring,
     komi 2.5, the host's ko) with that move number, and MCTS searches it until the CPU budget,
     counted from process start (imports and compiled-code loading included), is spent;
  6. output.txt is replaced by the move (``i,j`` or ``PASS``, LF), then the notes are written.
The budget: PLIES_LITTLEGO_SECONDS, else "seconds" in CONFIG_FILE beside the player, else
DEFAULT_SECONDS; clamped to [MIN_SECONDS, MAX_SECONDS] (the host's limit is 10 s).
"""
import json
import math
import os
import sys
import time
import traceback
from pathlib import Path

from protocols.common import PASS, ProtocolError
from protocols.littlego import SIZE, read_input, write_output

INPUT_FILE = "input.txt"
OUTPUT_FILE = "output.txt"
NOTES_FILE = "my_player3.notes.json"   # in the working directory
CONFIG_FILE = "my_player3.json"        # beside my_player3.py: {"seconds": 2.0, "python": "..."}
ENV_SECONDS = "PLIES_LITTLEGO_SECONDS"
ENV_SEED = "PLIES_LITTLEGO_SEED"
DEFAULT_SECONDS = 2.0    # CPU seconds per move, process start included (the host allows 10)
MIN_SECONDS = 0.05
MAX_SECONDS = 8.5        # a larger setting is clamped: over 10 s the host forfeits the game
MARGIN = 0.12            # CPU seconds kept for writing the files and leaving the process
WATCHDOG_SECONDS = 9.3   # CPU seconds since process start after which the player leaves at once,
                         # with the fallback move already written (a stale compiled-code cache, a bug)
NOTES_FORMAT = 1
MAX_MOVES = SIZE * SIZE - 1
# the search: UCT with random playouts of the littlego rules; a leaf grows children after
# expand_visits visits, so a few seconds of search stay within CAPACITY nodes (32 bytes each)
SEARCH = {"selection": "uct", "c": 0.7, "expand_visits": 4}
CAPACITY = 1 << 21
BATCH_SECONDS = 0.02     # wall seconds of simulations between two readings of the CPU clock
FIRST_BATCH, MIN_BATCH = 256, 64


class InputError(Exception):
    """input.txt cannot be played from: exit status 2, no output.txt."""


# ---- budget ----------------------------------------------------------------------------------
def read_config(player_dir) -> dict:
    """CONFIG_FILE beside the player as a dict ({} when missing or unreadable)."""
    if player_dir is None:
        return {}
    try:
        data = json.loads((Path(player_dir) / CONFIG_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def budget(env=os.environ, config: dict | None = None, warn=None) -> float:
    """CPU seconds per move: the environment variable, else the config file, else the default."""
    for source, value in ((ENV_SECONDS, env.get(ENV_SECONDS)), (CONFIG_FILE, (config or {}).get("seconds"))):
        if value is None or value == "":
            continue
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            seconds = math.nan
        if not math.isfinite(seconds) or seconds <= 0:
            if warn:
                warn(f"ignoring {source} = {value!r}: not a positive number of seconds")
            continue
        if not MIN_SECONDS <= seconds <= MAX_SECONDS:
            clamped = min(max(seconds, MIN_SECONDS), MAX_SECONDS)
            if warn:
                warn(f"{source} = {value!r} is outside {MIN_SECONDS:g}..{MAX_SECONDS:g} s; using {clamped:g}")
            seconds = clamped
        return seconds
    return DEFAULT_SECONDS


# ---- boards ------------------------------------------------------------------------------------
def board_text(board) -> list[str]:
    return ["".join(str(int(v)) for v in row) for row in board]


def stone_count(board) -> int:
    return sum(1 for row in board for v in row if v)


def check_follows(game, colour: int, previous, current) -> None:
    """InputError unless current can follow previous by one opponent move (a stone and the captures
    it makes, or a pass) and neither board has a chain without liberty."""
    opp = 3 - colour
    try:
        game.state_from_cells(previous, colour - 1)
        game.state_from_cells(current, colour - 1)
    except ValueError as e:
        raise InputError(f"impossible board in {INPUT_FILE}: {e}") from None
    if previous == current:
        return  # the opponent passed (or the game starts)
    added = [(i, j) for i in range(SIZE) for j in range(SIZE) if previous[i][j] != current[i][j] and current[i][j]]
    gone = [(i, j) for i in range(SIZE) for j in range(SIZE) if previous[i][j] != current[i][j] and not current[i][j]]
    why = None
    if len(added) != 1 or previous[added[0][0]][added[0][1]] != 0 or current[added[0][0]][added[0][1]] != opp:
        why = f"the current board must differ from the previous one by one new stone of the opponent ({opp})"
    elif any(previous[i][j] != colour for i, j in gone):
        why = f"only our stones ({colour}) can disappear, captured by the opponent's move"
    else:
        state = game.state_from_cells(previous, opp - 1, moves_played=opp - 1)
        action = game.action(*added[0])
        if not game.is_legal(state, action):
            why = f"the opponent's stone at {added[0][0]},{added[0][1]} could not have been played"
        elif game.cells(game.play(state, action)).tolist() != current:
            why = f"the stones captured by the opponent's move at {added[0][0]},{added[0][1]} do not match"
    if why:
        raise InputError(f"the boards of {INPUT_FILE} cannot follow each other: {why}")


# ---- notes -------------------------------------------------------------------------------------
def load_notes(path) -> dict | None:
    """The notes as a dict, or None when missing, unreadable or malformed."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != NOTES_FORMAT:
        return None
    moves, colour, board = data.get("moves_played"), data.get("colour"), data.get("board")
    if not (isinstance(moves, int) and not isinstance(moves, bool) and 0 < moves <= MAX_MOVES
            and colour in (1, 2) and not isinstance(colour, bool)
            and isinstance(board, list) and len(board) == SIZE
            and all(isinstance(r, str) and len(r) == SIZE and set(r) <= set("012") for r in board)):
        return None
    return data


def save_notes(path, data: dict) -> None:
    """Write the notes atomically (a temporary file renamed over the old one)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def is_game_start(colour: int, previous, current) -> bool:
    """Our first move: nothing played before (Black) or only Black's first stone (White)."""
    return stone_count(previous) == 0 and stone_count(current) <= (colour - 1)


def move_number(notes: dict | None, colour: int, previous, current) -> tuple[int, str]:
    """(moves played before our move, where that number comes from: "start", "notes", "estimate")."""
    if is_game_start(colour, previous, current):
        return colour - 1, "start"
    if notes is not None and notes["colour"] == colour and notes["board"] == board_text(previous):
        moves = notes["moves_played"] + 1
        if moves % 2 == colour - 1 and moves >= stone_count(current) and moves < MAX_MOVES:
            return moves, "notes"
    return estimate_moves(colour, current), "estimate"


def estimate_moves(colour: int, current) -> int:
    """The fewest moves that can have put these stones on the board with colour to move."""
    n = stone_count(current)
    n += (n - (colour - 1)) % 2
    return min(n, MAX_MOVES - 1 if colour == 2 else MAX_MOVES - 2)


# ---- the move ----------------------------------------------------------------------------------
def choose(game, state, deadline: float, seed: int, cpu=time.process_time, wall=time.perf_counter):
    """(action, SearchResult or None) for state, searching until ``cpu()`` (CPU seconds since process
    start) reaches deadline less MARGIN.

    The search runs in batches of simulations on one tree (a search of the same state goes on with
    its tree), the CPU clock read between them.  ``process_time`` can tick coarsely (every 4-10 ms
    under a CPU-time limit such as a host's RLIMIT_CPU), so batches are sized from wall time: a
    single-threaded process never uses more CPU time than wall time, so the rate per wall second
    never overstates what a batch costs, and the last batch takes at most half of what is left."""
    legal = game.legal_moves(state)
    if len(legal) == 1:
        return legal[0], None
    from engines.search import Limits, make_searcher
    searcher = make_searcher("mcts", game, SEARCH, None, seed, capacity=CAPACITY)
    stop = deadline - MARGIN
    batch, total = FIRST_BATCH, 0
    while True:
        w0 = wall()
        result = searcher.search(state, Limits(simulations=batch))
        total += result.stats.get("simulations", batch)
        rate = batch / max(wall() - w0, 1e-6)
        left = stop - cpu()
        if left <= 0:
            break
        batch = int(max(MIN_BATCH, min(rate * BATCH_SECONDS, rate * left * 0.5)))
    result.stats["simulations"] = total
    return result.move, result


def read_position(workdir: Path) -> tuple[int, list, list]:
    """(colour, previous, current) from input.txt; InputError for a missing or malformed file."""
    try:
        text = (workdir / INPUT_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{INPUT_FILE} not found in {workdir.resolve()}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read {INPUT_FILE}: {e}") from None
    try:
        return read_input(text)
    except ProtocolError as e:
        raise InputError(f"{INPUT_FILE}: {e}") from None


def write_move(out_path: Path, point) -> None:
    """output.txt, written whole or not at all (a temporary file renamed over it)."""
    tmp = out_path.with_name(OUTPUT_FILE + ".tmp")
    tmp.write_text(write_output(point), encoding="utf-8", newline="\n")
    os.replace(tmp, out_path)


def fallback_move(colour: int, previous, current):
    """A valid move found in pure Python in milliseconds (the most captures), written before the
    engine loads so that a host still gets a move if anything later fails or runs out of time."""
    from standins.littlego_opponents import Position, play_greedy
    import random
    return play_greedy(Position.from_input(colour, previous, current), random.Random(0))


def arm_watchdog(limit: float = WATCHDOG_SECONDS) -> None:
    """Leave at ``limit`` CPU seconds since process start, whatever is running (the fallback move is
    already in output.txt): ITIMER_PROF counts the CPU time of the whole process."""
    import signal

    def leave(signum, frame):
        os._exit(0)
    signal.signal(signal.SIGPROF, leave)
    signal.setitimer(signal.ITIMER_PROF, max(0.01, limit - time.process_time()))


def play(workdir=".", player_dir=None, env=os.environ, err=sys.stderr, cpu=time.process_time, started: float = 0.0,
         watchdog: bool = False) -> int:
    """One move in workdir; returns the exit status (0, or 2 for bad input).  The budget counts CPU
    time from ``started`` (process_time at process start: 0); ``watchdog`` arms arm_watchdog."""
    workdir = Path(workdir)

    def warn(msg):
        print(f"my_player3: {msg}", file=err)

    out_path = workdir / OUTPUT_FILE

    def refuse(e):
        warn(str(e))
        try:
            out_path.unlink()  # never leave an older move for the host to read
        except OSError:
            pass
        return 2

    try:
        colour, previous, current = read_position(workdir)
    except InputError as e:
        return refuse(e)
    write_move(out_path, fallback_move(colour, previous, current))
    if watchdog:
        arm_watchdog(started + WATCHDOG_SECONDS)
    try:
        from engines.games.go import Go
        game = Go(rules="littlego")
        check_follows(game, colour, previous, current)
    except InputError as e:
        return refuse(e)
    except Exception as e:  # the engine cannot load: the fallback move stands
        warn(f"the engine failed to load ({type(e).__name__}: {e}); playing the fallback move")
        traceback.print_exc(file=err)
        return 0
    try:
        return think(game, workdir, player_dir, env, warn, cpu, started, colour, previous, current)
    except Exception:
        warn("unexpected error; the fallback move stands")
        traceback.print_exc(file=err)
        return 0


def think(game, workdir, player_dir, env, warn, cpu, started, colour, previous, current) -> int:
    """Search the position of input.txt and write output.txt, then the notes."""
    seconds = budget(env, read_config(player_dir), warn)
    notes_path = workdir / NOTES_FILE
    notes = load_notes(notes_path)
    moves, source = move_number(notes, colour, previous, current)
    state = game.state_from_cells(current, colour - 1, previous=previous, moves_played=moves)
    if game.is_terminal(state):  # the host would not ask; play on as if a move were left
        moves = estimate_moves(colour, current)
        state = game.state_from_cells(current, colour - 1, previous=previous, moves_played=moves)
    seed = env.get(ENV_SEED)
    seed = int.from_bytes(os.urandom(6), "little") if seed is None else hash_seed(seed, previous, current)
    action, result = choose(game, state, started + seconds, seed, cpu)
    point = game.point_of(action)
    write_move(workdir / OUTPUT_FILE, point)

    after = game.play(state, action)
    data = {"format": NOTES_FORMAT, "colour": colour, "moves_played": game.nmoves(after),
            "board": board_text(game.cells(after).tolist()), "move": write_output(point).strip(),
            "move_number_from": source, "budget": seconds}
    if result is not None:
        data.update(value=round(result.value, 4), simulations=result.stats.get("simulations"),
                    pv=[write_output(game.point_of(a)).strip() for a in result.pv[:6]])
    try:
        save_notes(notes_path, data)
    except OSError as e:
        warn(f"cannot write the notes {notes_path}: {e}")
    return 0


def hash_seed(seed: str, previous, current) -> int:
    """A reproducible seed from PLIES_LITTLEGO_SEED and the position."""
    import hashlib
    key = f"{seed}|{board_text(previous)}|{board_text(current)}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:6], "little")


def main(player_dir=None) -> int:
    """The entry my_player3.py calls (in the working directory the host chose)."""
    return play(".", player_dir, watchdog=True)
