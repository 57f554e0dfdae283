"""Where plies' Hex games against MoHex 2.0 were lost (issue 33): MoHex's own estimate after each of
plies' moves, and what plies' DFPN solver knew of the decisive position.

    PLIES_MOHEX=/path/to/mohex nice -n 5 .venv/bin/python -m bench.hex_mohex_review \\
        bench/results/hex_solver_default/hex9_mohex_p1.games.jsonl ... --as black --time 3 --out STEM

Input: the game records bench/hex_mohex.py writes (``STEM.games.jsonl``).  For each game plies lost
with the colour ``--as`` (default black: the first player's games are the ones a perfect player wins
on 9x9 without swap), a fresh MoHex (benzene; the binary named by PLIES_MOHEX) set up as the match's
(no swap, one thread, no pondering, no time management, ``max_time --time``, no subtree kept) is
asked, after each of plies' moves in turn, for its move in the position, and its log is read:
  * ``Score`` of its search: MoHex's win estimate as the side to move (plies' opponent);
  * "Winning SC" or "Winning sequence found" before or instead of a search: MoHex proved its win;
    the review of the game stops there, and plies' move just before is the *decisive* one.
Then plies' DFPN solver (engines/knowledge/hex/dfpn.py, HexDfpn with its defaults, a fresh table
each) is asked, each within --nodes evaluations and --cap seconds:
  * after the decisive move: does it prove the opponent's win, and in how many nodes;
  * before it (plies to move): ``HexDfpn.root``: a winning move (plies had a proven win and missed
    it), every move lost (the decisive move came earlier), or unproven.
One JSON line a game in STEM.jsonl (a rerun skips the games already there) and a table in STEM.md.
Without PLIES_MOHEX the bench says so and exits with status 0.
"""
import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

from regress.gtp_client import GtpClient

ENV = "PLIES_MOHEX"
PROVEN = re.compile(r"Winning SC|Winning sequence found")
SCORE = re.compile(r"^Score\s+([0-9.]+)", re.MULTILINE)


class MoHexEstimate:
    """MoHex over GTP, its stderr appended to a file read after each genmove."""

    def __init__(self, binary: str, size: int, seconds: float, log: Path):
        self.log = log
        self.client = GtpClient(["sh", "-c", 'exec "$0" 2>>"$1"', binary, str(log)],
                                cwd=tempfile.mkdtemp(prefix="plies-review-"))
        for line in (f"boardsize {size} {size}", "param_game allow_swap 0", "param_mohex num_threads 1",
                     "param_mohex ponder 0", "param_mohex use_time_management 0",
                     f"param_mohex max_time {seconds:g}", "param_mohex reuse_subtree 0"):
            self.client.ok(line)

    def estimate(self, moves: list[str]) -> tuple[float | None, bool, str]:
        """(MoHex's Score as the side to move or None, proven win, its move) after ``moves``."""
        self.client.ok("clear_board")
        for i, move in enumerate(moves):
            self.client.ok(f"play {'bw'[i % 2]} {move}")
        offset = self.log.stat().st_size if self.log.exists() else 0
        answer = self.client.genmove("bw"[len(moves) % 2], timeout=120.0)
        time.sleep(0.1)  # stderr is written before the reply; let the file catch up
        with self.log.open("rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
        scores = SCORE.findall(text)
        return (float(scores[-1]) if scores else None), bool(PROVEN.search(text)), answer

    def close(self):
        self.client.close()


def solver_view(size: int, moves: list[str], decisive: int, nodes: int, cap: float) -> dict:
    """What plies' DFPN proves before and after the decisive move (moves[decisive - 1])."""
    from engines.games import make_game
    from engines.knowledge.hex.dfpn import DfpnBudgetExceeded, HexDfpn
    from engines.learn.hex.records import action_of_cell, cell_name
    game = make_game("hex", size=size)
    state = game.initial_state()
    for move in moves[:decisive - 1]:
        state = game.play(state, action_of_cell(move, size))
    after = game.play(state, action_of_cell(moves[decisive - 1], size))
    view = {}
    solver = HexDfpn(game)
    try:
        got = solver.solve(after, nodes, time.perf_counter() + cap)
        view["after"] = "opponent wins" if got.mover_wins else "plies wins"
        view["after_nodes"] = got.nodes
    except DfpnBudgetExceeded:
        view["after"], view["after_nodes"] = "unproven", solver.nodes
    solver = HexDfpn(game)
    started = time.perf_counter()
    verdict, move, lost = solver.root(state, nodes, started + cap)
    view["before"] = {True: "won", False: "lost", None: "unproven"}[verdict]
    view["before_move"] = cell_name(move, size) if verdict else None
    view["before_nodes"] = solver.nodes
    view["before_s"] = round(time.perf_counter() - started, 2)
    view["before_lost_moves"] = len(lost)
    view["legal"] = int(len(game.legal_moves(state)))
    return view


def review_game(mohex: MoHexEstimate, game: dict, colour: str) -> dict:
    """MoHex's estimates after each of plies' moves of one game, until MoHex proves its win."""
    moves = game["moves"]
    first = 0 if colour == "black" else 1
    rows, decisive = [], None
    for i in range(first, len(moves), 2):
        score, proven, answer = mohex.estimate(moves[:i + 1])
        rows.append({"ply": i + 1, "move": moves[i], "mohex_score": score, "proven": proven, "mohex_move": answer})
        if proven:
            decisive = i + 1
            break
    return {"game": game["game"], "moves": moves, "estimates": rows, "decisive": decisive}


def report(records: list[dict], command: str) -> str:
    lines = ["# Where plies lost against MoHex (bench/hex_mohex_review.py)", "", f"Command: `{command}`", "",
             "MoHex's Score: its win estimate as plies' opponent after plies' move; the decisive move: plies' last "
             "move before MoHex proved its win.  plies' DFPN (defaults, a fresh table each): after that move, and "
             "before it (plies to move: a winning move, every move lost, or unproven).", "",
             "| source | game | decisive ply | move | MoHex's Score 2 moves before / just before | after: plies' DFPN "
             "(nodes) | before: plies' DFPN (nodes, s) | moves proven lost before |",
             "|---|---|---|---|---|---|---|---|"]
    for r in records:
        if r["decisive"] is None:
            lines.append(f"| {r['source']} | {r['game']} | - | - | not proven by MoHex | | | |")
            continue
        scores = [e["mohex_score"] for e in r["estimates"][:-1]]
        shown = " / ".join("-" if s is None else f"{s:.2f}" for s in scores[-2:])
        v = r["solver"]
        before = v["before"] + (f" {v['before_move']}" if v["before_move"] else "")
        lines.append(f"| {r['source']} | {r['game']} | {r['decisive']} | {r['moves'][r['decisive'] - 1]} | {shown} | "
                     f"{v['after']} ({v['after_nodes']}) | {before} ({v['before_nodes']}, {v['before_s']}) | "
                     f"{v['before_lost_moves']}/{v['legal']} |")
    decided = [r for r in records if r["decisive"] is not None]
    count = lambda key, value: sum(r["solver"][key] == value for r in decided)
    lines += ["", f"Games: {len(records)}; decided by a move MoHex then proved: {len(decided)}; after it plies' DFPN "
              f"proved the opponent's win in {count('after', 'opponent wins')}; before it plies had a proven win "
              f"in {count('before', 'won')}, was proven lost already in {count('before', 'lost')}, unproven in "
              f"{count('before', 'unproven')}.", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="+", help="bench/hex_mohex.py game records (STEM.games.jsonl)")
    parser.add_argument("--as", dest="colour", choices=("black", "white"), default="black",
                        help="review the games plies lost with this colour")
    parser.add_argument("--time", type=float, default=3.0, help="MoHex's max_time a position")
    parser.add_argument("--nodes", type=int, default=20000, help="plies' DFPN evaluations a position, at most")
    parser.add_argument("--cap", type=float, default=30.0, help="plies' DFPN seconds a position, at most")
    parser.add_argument("--limit", type=int, default=0, help="review at most this many games (0: all)")
    parser.add_argument("--out", required=True, help="STEM: STEM.jsonl (records) and STEM.md (table)")
    args = parser.parse_args(argv)
    binary = os.environ.get(ENV, "")
    if not binary:
        print(f"{ENV} does not name a MoHex binary: nothing to review", file=sys.stderr)
        return 0
    stem = Path(args.out)
    path = stem.with_suffix(".jsonl")
    done = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    seen = {(r["source"], r["game"]) for r in done}
    log = stem.with_suffix(".mohex.log")
    estimator = None
    try:
        for source in args.games:
            for line in Path(source).read_text().splitlines():
                game = json.loads(line)
                key = (Path(source).name, game["game"])
                if game["winner"] != "mohex" or game["plies"] != args.colour or key in seen:
                    continue
                if args.limit and len(done) >= args.limit:
                    break
                size = game["key"]["size"]
                if estimator is None:
                    estimator = MoHexEstimate(binary, size, args.time, log)
                record = {"source": key[0], **review_game(estimator, game, args.colour)}
                if record["decisive"] is not None:
                    record["solver"] = solver_view(size, game["moves"], record["decisive"], args.nodes, args.cap)
                print(json.dumps({k: record[k] for k in ("source", "game", "decisive")} | record.get("solver", {})),
                      flush=True)
                with path.open("a") as f:
                    f.write(json.dumps(record) + "\n")
                done.append(record)
    finally:
        if estimator is not None:
            estimator.close()
    command = "python -m bench.hex_mohex_review " + " ".join(sys.argv[1:] if argv is None else argv)
    stem.with_suffix(".md").write_text(report(done, command))
    print(stem.with_suffix(".md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
