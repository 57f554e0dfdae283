"""Builds the Othello opening book (engines/knowledge/othello/book.py reads it).

python -m engines.learn.othello.book --out weights/othello/book.npz [--work DIR] [--depth D]
       [--max-plies N] [--max-drop DISCS] [--positions N] [--cpu-minutes M] [--workers K]
(make book-othello: the shipped recipe; a second run continues where the first stopped)

The book is a tree of positions (a DAG: transpositions and the 8 board symmetries merge under the
canonical key) grown from the start, best lines first:
  * a leaf is valued by the player's alpha-beta (the pattern evaluation) at ``--depth`` plies, one
    fewer at an odd number of plies from the start, so that every search ends at a horizon of the
    same parity (discs for the side to move; a game's end by its exact margin).  Why: the pattern
    evaluation favours the side to move in the opening by several discs, so a search of even depth
    and one of odd depth disagree by ten discs or more; a negamax over leaves of mixed parities would
    then prefer whichever lines happen to be expanded;
  * the book's own negamax over its leaves values every expanded position (the best of its moves);
  * the leaf to expand next is the one whose line from the start gives up least: the sum, over the
    line's moves, of how far each falls below the best move of its position ("drop-out" expansion:
    both sides' best and near-best replies are expanded first, which gives the player its variety);
    a leaf deeper than ``--max-plies`` discs past the start, or whose line gives up more than
    ``--max-drop`` discs, is not expanded;
  * to expand a leaf, every one of its moves' positions is valued (a batch of leaves at a time,
    in ``--workers`` processes).
Progress: DIR/progress.json (every position's search value, which are expanded, CPU seconds so far;
without it a run starts from the --out book and its sidecar when they are there),
rewritten after every batch, so a killed run loses at most a batch and a rerun continues; a SIGTERM
stops the run after the position being valued, and it writes its progress and the book as at a budget.  At the
end of a run (a budget reached, or nothing left to expand) the book (--out) and its sidecar (same name,
.json) are written: positions, depth, CPU hours, the command and the date.
"""
import argparse
import json
import os
import pathlib
import signal
import sys
import time

from engines.knowledge.othello.book import START, Book, canonical, successors

BATCH = 4  # leaves expanded between two negamax passes (and progress writes)


# ==== valuing leaves (in this process or in workers) ================================================

_SEARCH = {}


def _searcher(depth: int):
    if "searcher" not in _SEARCH:
        from engines.games import make_game
        from engines.knowledge.registry import knowledge_for
        from engines.search import make_searcher
        game = make_game("othello", size=8)
        _SEARCH["game"] = game
        _SEARCH["searcher"] = make_searcher("alphabeta", game, {"tt_size": 1 << 20}, knowledge_for(game, "patterns"))
    return _SEARCH["game"], _SEARCH["searcher"]


def leaf_depth(plies: int, depth: int) -> int:
    """The search depth of a leaf ``plies`` discs past the start: every horizon at the same parity."""
    return max(1, depth - plies % 2)


def value_position(job) -> tuple:
    """(key, value in discs for the side to move, CPU seconds): the depth-``depth`` alpha-beta value
    of the position whose side to move has discs P against O."""
    (P, O), depth = job
    began = time.process_time()
    from engines.games.othello import BLACK_BB, WHITE_BB, bb_refresh
    from engines.players.othello import disc_value
    from engines.search import Limits
    game, searcher = _searcher(depth)
    state = game.initial_state()
    state[BLACK_BB] = P - (1 << 64) if P >= 1 << 63 else P  # the mover plays black (the book knows no colours)
    state[WHITE_BB] = O - (1 << 64) if O >= 1 << 63 else O
    state[1] = 0
    bb_refresh(state)
    searcher.reset()
    result = searcher.search(state, Limits(depth=depth))
    return (P, O), disc_value(result.value), time.process_time() - began


# ==== the tree ======================================================================================

class Tree:
    """key -> [search value, plies from the start, expanded]; the start's key is ``root``."""

    def __init__(self, nodes: dict | None = None):
        self.root = canonical(*START)
        self.nodes = nodes if nodes is not None else {}
        self._successors = {}  # key -> successors(*key), computed once

    def successors(self, key) -> list:
        if key not in self._successors:
            self._successors[key] = successors(*key)
        return self._successors[key]

    def negamax(self) -> dict:
        """key -> the book's value of every position (expanded: its best move; a leaf: its search value)."""
        values = {}
        for key in sorted(self.nodes, key=lambda k: -self.nodes[k][1]):  # deepest first: children before parents
            searched, _, expanded = self.nodes[key]
            if not expanded:
                values[key] = searched
                continue
            values[key] = max(self.move_values(key, values).values())
        return values

    def move_values(self, key, values) -> dict:
        out = {}
        for square, child, sign, final in self.successors(key):
            out[square] = float(final) if child is None else sign * values[child]
        return out

    def frontier(self, values: dict, max_plies: int, max_drop: float) -> list:
        """Leaves to expand, cheapest line first: [(drop of the line, plies, key)]."""
        drop = {self.root: 0.0}
        for key in sorted(self.nodes, key=lambda k: self.nodes[k][1]):  # shallowest first: parents before children
            if key not in drop or not self.nodes[key][2]:
                continue
            moves = self.move_values(key, values)
            best = max(moves.values())
            for square, child, sign, final in self.successors(key):
                if child is not None:
                    cost = drop[key] + best - moves[square]
                    if cost < drop.get(child, float("inf")):
                        drop[child] = cost
        leaves = [(cost, self.nodes[k][1], k) for k, cost in drop.items()
                  if not self.nodes[k][2] and self.nodes[k][1] < max_plies and cost <= max_drop]
        leaves.sort()
        return leaves

    def book(self) -> Book:
        values = self.negamax()
        return Book({k: (values[k], bool(node[2])) for k, node in self.nodes.items()})


# ==== the run =======================================================================================

def _load(path: pathlib.Path) -> dict:
    if not path.is_file():
        return {}
    data = json.loads(path.read_text())
    data["nodes"] = {(int(p, 16), int(o, 16)): [float(v), int(ply), bool(x)] for p, o, v, ply, x in data["nodes"]}
    return data


def _from_book(path: pathlib.Path) -> dict:
    """The progress of a book file and its sidecar (a shipped book, without its work folder): a leaf's
    value is its search value; an expanded position's own search value is never used again (its
    value is its moves'), so the book's negamax value stands in for it."""
    sidecar_path = path.with_suffix(".json")
    if not (path.is_file() and sidecar_path.is_file()):
        return {}
    sidecar = json.loads(sidecar_path.read_text())
    book = Book.load(path)
    nodes = {key: [value, bin(key[0] | key[1]).count("1") - 4, expanded]
             for key, (value, expanded) in book.entries.items()}
    return {"depth": sidecar["depth"], "cpu_seconds": 3600.0 * float(sidecar["cpu_hours"]),
            "commands": list(sidecar.get("commands", [])), "nodes": nodes}


def _save(path: pathlib.Path, data: dict) -> None:
    out = dict(data)
    out["nodes"] = [[f"{p:016x}", f"{o:016x}", round(v, 4), ply, int(x)]
                    for (p, o), (v, ply, x) in data["nodes"].items()]
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    os.replace(tmp, path)  # a stop mid-write leaves the last whole file


def _progress(total, initial, quiet):
    if quiet:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        return None
    return tqdm(total=total, initial=initial, desc="book positions", file=sys.stderr, mininterval=5.0)


def run(args, stop=()) -> dict:
    """Grows the book of args (see parser) until a budget is reached, nothing is left to expand or
    ``stop`` (a list a signal handler appends to) is not empty; writes the progress and the book."""
    work = pathlib.Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    progress_path = work / "progress.json"
    data = _load(progress_path)
    if not data and args.out:  # no work folder: continue the book file (a shipped one) when it is there
        data = _from_book(pathlib.Path(args.out))
    if data and data.get("depth") != args.depth:
        raise SystemExit(f"{progress_path} was built at depth {data.get('depth')}, not {args.depth}: "
                         "another --work folder, or the same --depth")
    data.setdefault("depth", args.depth)
    data.setdefault("cpu_seconds", 0.0)
    data.setdefault("nodes", {})
    data.setdefault("commands", [])
    data["commands"].append(args.command)
    tree = Tree(data["nodes"])
    log = open(work / "progress.log", "a")

    def say(text):
        line = f"{time.strftime('%H:%M:%S')} {text}"
        print(line, file=log, flush=True)
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    pool = None
    if args.workers > 1:
        import multiprocessing
        pool = multiprocessing.get_context("spawn").Pool(args.workers)
    evaluate = pool.imap_unordered if pool is not None else map
    run_cpu, started_with = 0.0, len(tree.nodes)  # CPU seconds of the valuations (in whichever process)
    own_cpu0 = time.process_time()  # this process's own: the tree's bookkeeping (and, without workers, the valuations)
    bar = _progress(args.positions or None, started_with, args.quiet)
    if tree.root not in tree.nodes:
        (key, value, cpu), = evaluate(value_position, [(tree.root, leaf_depth(0, args.depth))])
        tree.nodes[key] = [value, 0, False]
        run_cpu += cpu
    try:
        while not stop:
            if args.positions and len(tree.nodes) >= args.positions:
                say(f"{len(tree.nodes)} positions: the --positions budget is reached")
                break
            if args.cpu_minutes and data["cpu_seconds"] + run_cpu >= 60.0 * args.cpu_minutes:
                say(f"{(data['cpu_seconds'] + run_cpu) / 60:.1f} CPU minutes: the --cpu-minutes budget is reached")
                break
            leaves = tree.frontier(tree.negamax(), args.max_plies, args.max_drop)
            if not leaves:
                say("nothing left to expand within --max-plies and --max-drop")
                break
            jobs, plies = [], {}
            for _, ply, key in leaves[:BATCH * max(1, args.workers)]:
                for _, child, _, _ in tree.successors(key):
                    if child is not None and child not in tree.nodes and child not in plies:
                        jobs.append((child, leaf_depth(ply + 1, args.depth)))
                        plies[child] = ply + 1
            for key, value, cpu in evaluate(value_position, jobs):
                tree.nodes[key] = [value, plies[key], False]
                run_cpu += cpu
                if bar is not None:
                    bar.update(1)
                if stop:
                    break
            for _, _, key in leaves[:BATCH * max(1, args.workers)]:  # those whose every move is valued
                tree.nodes[key][2] = all(child is None or child in tree.nodes
                                         for _, child, _, _ in tree.successors(key))
            _save(progress_path, {**data, "cpu_seconds": data["cpu_seconds"] + run_cpu})
    finally:
        if bar is not None:
            bar.close()
        if pool is not None:
            pool.terminate()
            run_cpu += time.process_time() - own_cpu0  # the workers' CPU is in run_cpu already
        else:
            run_cpu = time.process_time() - own_cpu0  # everything ran here
        data["cpu_seconds"] += run_cpu
        _save(progress_path, data)
    if stop:
        say(f"stopped ({stop[0]}): the progress is kept")
    book = tree.book()
    expanded = sum(1 for node in tree.nodes.values() if node[2])
    say(f"{len(tree.nodes)} positions ({expanded} with book moves; {len(tree.nodes) - started_with} new), "
        f"{data['cpu_seconds'] / 3600:.3f} CPU hours in all")
    sidecar = {
        "format": "plies-othello-book",
        "how": ("engines/learn/othello/book.py: drop-out expansion from the start (the leaf whose line gives up "
                "least below the best moves first), every move of an expanded position valued by the player's "
                f"alpha-beta with the pattern evaluation at depth {args.depth} ({args.depth - 1} at an odd number "
                "of plies: every horizon at the same parity), negamaxed back to the start"),
        "positions": len(tree.nodes),
        "expanded": expanded,
        "deepest_plies": max(node[1] for node in tree.nodes.values()),
        "depth": args.depth,
        "max_plies": args.max_plies,
        "max_drop": args.max_drop,
        "start_value": round(book.entries[tree.root][0], 3),
        "cpu_hours": round(data["cpu_seconds"] / 3600.0, 3),
        "commands": data["commands"],
        "when": time.strftime("%Y-%m-%d"),
    }
    if args.out:
        out = pathlib.Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        book.save(out)
        out.with_suffix(".json").write_text(json.dumps(sidecar, indent=1) + "\n")
        Book.load(out)  # what was written can be read back
        say(f"wrote {out} and {out.with_suffix('.json')}")
    return sidecar


def parser():
    p = argparse.ArgumentParser(prog="python -m engines.learn.othello.book", description=__doc__.splitlines()[0])
    p.add_argument("--out", default="weights/othello/book.npz", help="the book file to write ('' for none)")
    p.add_argument("--work", default="runs/othello_book", help="progress folder (a rerun continues from it)")
    p.add_argument("--depth", type=int, default=10, help="alpha-beta depth of a leaf's value")
    p.add_argument("--max-plies", type=int, default=14, help="expand no position this many discs past the start")
    p.add_argument("--max-drop", type=float, default=6.0,
                   help="expand no line that gives up more than this many discs below the best moves")
    p.add_argument("--positions", type=int, default=0, help="stop at this many positions in all (0: no limit)")
    p.add_argument("--cpu-minutes", type=float, default=0.0,
                   help="stop once the book has cost this many CPU minutes in all (0: no limit)")
    p.add_argument("--workers", type=int, default=1, help="worker processes valuing positions (1: this one)")
    p.add_argument("--nice", type=int, default=15, help="the niceness this process (and its workers) runs at")
    p.add_argument("--quiet", action="store_true")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    args.command = "python -m engines.learn.othello.book " + " ".join(sys.argv[1:] if argv is None else argv)
    try:  # a long CPU job: nice'd to --nice unless it already is
        os.nice(max(0, args.nice - os.nice(0)))
    except OSError:  # pragma: no cover
        pass
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append("SIGTERM"))  # stop after the position being valued
    sidecar = run(args, stop)
    print(f"{sidecar['positions']} positions, {sidecar['expanded']} with book moves, depth {sidecar['depth']}, "
          f"{sidecar['cpu_hours']} CPU hours; the start is worth {sidecar['start_value']:+.2f} discs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
