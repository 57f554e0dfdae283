"""The Othello opening book's figures -> bench/results/othello_book.md (+ .json).

    python -m bench.othello_book [--games 40] [--seconds 0.5] [--book FILE] [--seed 0] [--out FILE]

1. The book: positions, positions with book moves, leaf depth, CPU hours (its sidecar).
2. Strength at equal time: the player with the book (OthelloSettings(book=True), the book ``--book``)
   against the same player without it (book=False), ``seconds`` a move each (the player's own time
   rule: the opening share, the endgame solves), from the start position, colours alternating.  The
   book side's choice among moves within a disc of the best varies the games (its generator runs on
   from game to game; the other side's searches are on the clock).  Both players are built once and
   told of every move; ``reset`` between games.
3. Time a move of each side (from the request to the answer, perf_counter), book moves a game.

Score: wins + draws / 2 of the book side, with a 95 % Wilson interval.  The report is rewritten after
every game, so a stopped run leaves its figures so far.
"""
import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

from regress.go_match import wilson

RESULTS = Path(__file__).resolve().parent / "results"


def players(seconds: float, seed: int, book_path):
    from engines.players.othello import OthelloSettings, make_player
    with_book = make_player(OthelloSettings(seed=seed, book=True))
    with_book.book_path, with_book._book = book_path, None
    if with_book.opening_book() is None:
        raise SystemExit(f"no book at {book_path}")
    without = make_player(OthelloSettings(seed=seed + 1, book=False))
    with_book.role, without.role = "book", "no book"
    return with_book, without


def play(game, black, white, seconds, times, book_moves) -> float:
    """One game from the start; black's result (1, 0.5, 0)."""
    for p in (black, white):
        p.reset()
    state = game.initial_state()
    sides = {0: black, 1: white}
    in_book = 0
    while not game.is_terminal(state):
        player = sides[game.to_move(state)]
        start = time.perf_counter()
        move = player.choose(state, seconds, start)
        times[player.role].append(time.perf_counter() - start)
        in_book += bool(player.last.get("book"))
        state = game.play(state, move)
        black.played(move)
        white.played(move)
    book_moves.append(in_book)
    return game.returns(state)[0]


def report(args, command, sidecar, match, times, book_moves) -> str:
    lines = ["# Othello opening book: its size, and the player with it against the player without it", "",
             f"Command: `{command}`  ",
             f"Machine: {platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')} "
             "(a busy 2-core machine: other jobs ran beside this one)", "",
             "## The book", "",
             "| positions | with book moves | deepest (discs past the start) | leaf depth | CPU hours | start value |",
             "|---|---|---|---|---|---|",
             f"| {sidecar.get('positions')} | {sidecar.get('expanded')} | {sidecar.get('deepest_plies')} | "
             f"{sidecar.get('depth')} | {sidecar.get('cpu_hours')} | {sidecar.get('start_value')} |", ""]
    n = match["games"]
    if n:
        score = (match["wins"] + match["draws"] / 2) / n
        lo, hi = wilson(score, n)
        lines += [f"## With the book against without it, {args.seconds:g} s a move each, from the start", "",
                  "| games | book wins | losses | draws | book score | 95 % interval |", "|---|---|---|---|---|---|",
                  f"| {n} | {match['wins']} | {match['losses']} | {match['draws']} | {score:.1%} | "
                  f"{lo:.1%} .. {hi:.1%} |", "",
                  f"Book moves a game (the book side's): median {statistics.median(book_moves)}, "
                  f"max {max(book_moves)}; distinct games (move sequences): {match['distinct']} of {n}.", ""]
    lines += ["## Time a move (seconds, from the request to the answer)", "",
              "| side | moves | median | mean | max |", "|---|---|---|---|---|"]
    for role, xs in times.items():
        if xs:
            lines.append(f"| {role} | {len(xs)} | {statistics.median(xs):.3f} | {statistics.mean(xs):.3f} | "
                         f"{max(xs):.3f} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seconds", type=float, default=0.5, help="seconds a move, each side")
    p.add_argument("--book", type=Path, default=None, help="the book file (default: the shipped one)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=RESULTS / "othello_book.md")
    args = p.parse_args(argv)
    command = "python -m bench.othello_book " + " ".join(sys.argv[1:] if argv is None else argv)
    from engines.games import make_game
    from engines.knowledge.othello.book import shipped_path
    book_path = args.book or shipped_path()
    sidecar_path = Path(book_path).with_suffix(".json")
    sidecar = json.loads(sidecar_path.read_text()) if sidecar_path.is_file() else {}
    game = make_game("othello", size=8)
    with_book, without = players(args.seconds, args.seed, book_path)
    times = {"book": [], "no book": []}
    book_moves, sequences = [], set()
    match = {"games": 0, "wins": 0, "losses": 0, "draws": 0, "distinct": 0}
    for g in range(args.games):
        book_black = g % 2 == 0
        black, white = (with_book, without) if book_black else (without, with_book)
        record = []
        original = black.played

        def recording(move, original=original):
            record.append(move)
            original(move)
        black.played = recording
        result = play(game, black, white, args.seconds, times, book_moves)
        black.played = original
        sequences.add(tuple(record))
        ours = result if book_black else 1.0 - result
        match["games"] += 1
        match["wins" if ours == 1.0 else "losses" if ours == 0.0 else "draws"] += 1
        match["distinct"] = len(sequences)
        print(f"game {g + 1}: book as {'black' if book_black else 'white'}: {ours} "
              f"(book moves {book_moves[-1]}; {match['wins']}-{match['draws']}-{match['losses']})",
              file=sys.stderr, flush=True)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(report(args, command, sidecar, match, times, book_moves))
        args.out.with_suffix(".json").write_text(json.dumps(
            {"command": command, "book": sidecar, "match": match, "book_moves": book_moves,
             "time_median": {k: statistics.median(v) for k, v in times.items() if v},
             "time_max": {k: max(v) for k, v in times.items() if v}}, indent=1) + "\n")
    print(args.out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
