"""Two Othello engines that speak OTP on stdin/stdout (plies-otp of two revisions of plies, say) played
against each other from seeded openings, each opening with both colours -> a JSONL of games and a report.

    python -m bench.othello_versions --a "CMD" --b "CMD" [--games 100] [--seed 1] [--part K/N]
                                     [--jsonl FILE] [--out FILE.md] [--names A B] [--report-only]

Why: a figure such as "the new default against the default of some earlier day" needs the earlier
code, which cannot share a process with today's; an engine of another revision runs from its own
checkout (``git worktree add --detach DIR REV``, then ``PYTHONPATH=DIR python -m engines.warmup --game
othello``; its command ``env PYTHONPATH=DIR .venv/bin/python -m adapters.otp --time 1``).  The engines
run with PYTHONSAFEPATH=1: ``python -m`` would otherwise put this bench's working directory (today's
checkout) ahead of PYTHONPATH, and every "revision" would run today's code.

The referee keeps the board with engines/games/othello.py ("standard" rules, the judge's): for game i
(0-based) the opening is number i // 2 of bench.othello_strength.openings(games / 2, seed) (4 to 7 random
plies, all different), A plays Black when i is even.  Each engine gets ``clear_board``, the opening as
``play X Y``, then ``genmove`` on its turn and ``play X Y`` of the other's move (``8 0`` a pass), as the
judge does (specs/otp.md), one command a line; the winner by the final disc count (Black's less White's,
kept in the record with the moves).  An engine answering an illegal move or nothing within
FORFEIT_SECONDS, or dying, loses the game (it is restarted for the next one).  Seconds a move: from
writing ``genmove`` to reading its answer (perf_counter), the engine's load included where it loads in
its first genmove.  ``--part K/N`` plays the games i with i % N == K - 1, so parts run side by side
append to one JSONL; games already there are skipped (a stopped run resumes).  The report (every game
in the JSONL): A's score with its 95 % Wilson interval, as Black and as White, and both sides' median and
maximum seconds a move.
"""
import argparse
import json
import os
import platform
import select
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.othello_strength import openings
from bench.strength import wilson
from engines.games import make_game

RESULTS = Path(__file__).resolve().parent / "results"
FORFEIT_SECONDS = 10.0  # the judge's genmove limit
SHORT_SECONDS = 30.0    # clear_board / play answers (generous: an engine may load at clear_board)


class EngineFault(Exception):
    """An engine answered wrongly, late or not at all."""


def engine_environment(environ=os.environ) -> dict:
    """An engine's environment: this one with PYTHONSAFEPATH=1, so that its PYTHONPATH (the checkout of
    the revision it stands for) is not shadowed by the working directory ``python -m`` puts first."""
    return {**environ, "PYTHONSAFEPATH": "1"}


class Engine:
    """An OTP engine on stdin/stdout: one command a line, one answer a line."""

    def __init__(self, command: str):
        self.command = command
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1, env=engine_environment())

    def ask(self, line: str, limit: float) -> tuple[str, float]:
        """Send a command; (its answer, seconds until it came)."""
        start = time.perf_counter()
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError as e:
            raise EngineFault(f"{line!r}: cannot write ({e})") from None
        ready, _, _ = select.select([self.proc.stdout], [], [], limit)
        if not ready:
            raise EngineFault(f"{line!r}: no answer within {limit:g} s")
        answer = self.proc.stdout.readline()
        spent = time.perf_counter() - start
        if not answer:
            raise EngineFault(f"{line!r}: the engine closed its output")
        return answer.strip(), spent

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def _move_words(game, move: int) -> str:
    return "8 0" if move == game.pass_action else f"{move // 8} {move % 8}"


def play_game(game, engines: dict, black: str, opening: list) -> dict:
    """One game; engines: name -> Engine (both fresh from clear_board).  The record of the game."""
    names = {0: black, 1: next(n for n in engines if n != black)}
    state = game.initial_state()
    for engine in engines.values():
        engine.ask("clear_board", SHORT_SECONDS)
    for m in opening:
        for engine in engines.values():
            engine.ask(f"play {_move_words(game, m)}", SHORT_SECONDS)
        state = game.play(state, m)
    seconds = {n: [] for n in engines}
    moves = list(opening)
    while not game.is_terminal(state):
        mover = names[game.to_move(state)]
        other = names[1 - game.to_move(state)]
        try:
            answer, spent = engines[mover].ask("genmove", FORFEIT_SECONDS)
            words = answer.split()
            if len(words) != 3 or words[0].lower() != "genmove":
                raise EngineFault(f"genmove: answer {answer!r}")
            x, y = int(words[1]), int(words[2])
            move = game.pass_action if (x, y) == (8, 0) else x * 8 + y
            if not (0 <= x < 8 and 0 <= y < 8 or (x, y) == (8, 0)) or not game.is_legal(state, move):
                raise EngineFault(f"illegal move {x} {y}")
        except (EngineFault, ValueError) as e:
            return {"black": black, "winner": other, "forfeit": mover, "reason": str(e), "moves": moves,
                    "seconds": seconds}
        seconds[mover].append(round(spent, 4))
        engines[other].ask(f"play {_move_words(game, move)}", SHORT_SECONDS)
        state = game.play(state, move)
        moves.append(move)
    margin = int(game.score(state))  # Black's discs less White's
    winner = names[0] if margin > 0 else names[1] if margin < 0 else None
    return {"black": black, "winner": winner, "margin": margin, "moves": moves, "seconds": seconds}


def match(args, games_path: Path) -> None:
    game = make_game("othello", size=8, variant="standard")
    table = openings(game, (args.games + 1) // 2, args.seed)
    done = set()
    if games_path.exists():
        done = {json.loads(line)["game"] for line in games_path.read_text().splitlines() if line.strip()}
    k, n = args.part
    todo = [i for i in range(args.games) if i % n == k - 1 and i not in done]
    commands = dict(zip(args.names, (args.a, args.b)))
    engines = {}
    try:
        for i in todo:
            for name, command in commands.items():
                if name not in engines:
                    engines[name] = Engine(command)
            black = args.names[0] if i % 2 == 0 else args.names[1]
            try:
                record = play_game(game, engines, black, table[i // 2])
            except EngineFault as e:  # an answer to clear_board / play: restart both
                record = {"black": black, "winner": None, "error": str(e), "seconds": {}}
            if "forfeit" in record or "error" in record:
                for engine in engines.values():
                    engine.close()
                engines = {}
            record = {"game": i, "opening": i // 2, **record, "commands": commands}
            with open(games_path, "a") as f:
                f.write(json.dumps(record) + "\n")
            print(f"othello_versions: game {i}: black {black}, winner {record['winner']}"
                  f"{' (forfeit: ' + record['reason'] + ')' if 'forfeit' in record else ''}", file=sys.stderr, flush=True)
    finally:
        for engine in engines.values():
            engine.close()


def report(args, games_path: Path, command: str) -> str:
    a, b = args.names
    records = [json.loads(line) for line in games_path.read_text().splitlines() if line.strip()]
    records = [r for r in records if "error" not in r]
    # the engines' commands as given, else as the games recorded them (a --report-only run)
    played = sorted({json.dumps(r["commands"]) for r in records if "commands" in r})
    commands = {a: args.a, b: args.b} if args.a else json.loads(played[-1]) if len(played) == 1 else {}
    lines = [f"# Othello: {a} against {b}, engines on stdin/stdout", "",
             f"Command: `{command}`  ", f"A ({a}): `{commands.get(a, 'not recorded')}`  ",
             f"B ({b}): `{commands.get(b, 'not recorded')}`  ",
             f"Machine: {platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}; "
             f"load average at the report {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.", ""]

    def score(rs):
        pts = sum(1.0 if r["winner"] == a else 0.5 if r["winner"] is None else 0.0 for r in rs)
        return pts, len(rs)

    rows = [("all", records), (f"{a} as Black", [r for r in records if r["black"] == a]),
            (f"{a} as White", [r for r in records if r["black"] != a])]
    lines += [f"| games | {a} wins | losses | draws | {a} score | 95 % interval (Wilson) |", "|---|---|---|---|---|---|"]
    for label, rs in rows:
        if not rs:
            continue
        pts, m = score(rs)
        lo, hi = wilson(pts / m, m)
        wins = sum(r["winner"] == a for r in rs)
        draws = sum(r["winner"] is None for r in rs)
        lines.append(f"| {label}: {m} | {wins} | {m - wins - draws} | {draws} | {pts / m:.1%} | {lo:.1%} .. {hi:.1%} |")
    forfeits = [r for r in records if "forfeit" in r]
    lines += ["", f"Forfeits: {len(forfeits)}" + "".join(f"; game {r['game']}: {r['forfeit']} ({r['reason']})"
                                                          for r in forfeits), "",
              "Seconds a move (from writing genmove to reading the answer):", "",
              "| side | moves | median | mean | max |", "|---|---|---|---|---|"]
    for name in (a, b):
        xs = [s for r in records for s in r["seconds"].get(name, [])]
        if xs:
            lines.append(f"| {name} | {len(xs)} | {statistics.median(xs):.3f} | {statistics.mean(xs):.3f} | "
                         f"{max(xs):.3f} |")
    return "\n".join(lines) + "\n"


def _part(text: str) -> tuple[int, int]:
    k, n = (int(x) for x in text.split("/"))
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"--part K/N needs 1 <= K <= N, got {text!r}")
    return k, n


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--a", help="engine A's command (OTP on stdin/stdout); with --report-only, as the games recorded it")
    p.add_argument("--b", help="engine B's command")
    p.add_argument("--names", nargs=2, default=("A", "B"), help="the two engines' names in the report")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--part", type=_part, default=(1, 1))
    p.add_argument("--jsonl", type=Path, default=RESULTS / "othello_versions.jsonl")
    p.add_argument("--out", type=Path, help="the report (default: the --jsonl file's name with .md)")
    p.add_argument("--report-only", action="store_true")
    args = p.parse_args(argv)
    if not args.report_only and not (args.a and args.b):
        p.error("--a and --b are needed to play (only --report-only goes without)")
    command = "python -m bench.othello_versions " + " ".join(shlex.quote(x) for x in (sys.argv[1:] if argv is None else argv))
    if not args.report_only:
        match(args, args.jsonl)
    text = report(args, args.jsonl, command)
    (args.out or args.jsonl.with_suffix(".md")).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
