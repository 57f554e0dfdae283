"""An Othello evaluation trained on deeper labels against today's weights (issue 35, item 2)
-> bench/results/othello_eval2.md (sections replaced in place) and othello_eval2_match.part*.json.

    python -m bench.othello_eval2 errors [--run runs/othello_eval2]
    python -m bench.othello_eval2 speed [--new runs/othello_eval2/patterns.npz]
    python -m bench.othello_eval2 match [--new W.npz] [--new-probcut R.json] [--games 64] [--seconds 1] [--part k/n]
    python -m bench.othello_eval2 report
    python -m bench.othello_eval2 curve [--phase 8] [--extra 12000] [--extra-held 1500] [--sizes 1500 3000 6000 12000]

errors: from a training run (engines/learn/othello/train.py with --compare-weights), per phase: the
  held-out positions (games with index % 10 == 9) and their labels (exact, or the run's deep search),
  the mean absolute disc error of the run's new weights and of today's (weights/othello/patterns.npz)
  on exactly those positions and labels, and the paired difference with its 95 % interval (mean +-
  1.96 standard errors of the per-position differences of absolute errors).  The run's searched
  labels value their leaves by the new weights of the later phases, which favours them a little; with
  --neutral N, up to N held-out positions a searched phase are also labelled by the same search
  (the player's PVS, the run's depth) over TODAY's weights, and both are measured against those too.
curve: how the fit gains with the number of labels, on one searched phase of a finished run: --extra
  more training positions and --extra-held more held-out ones of the phase, labelled as the run
  labelled it (the player's PVS at the run's depth over the run's weights, 2 workers at nice 19;
  kept in RUN/curve_<phase>.npz, so a rerun reuses them), then fits towards today's weights (the
  ridge chosen on validation games as in the run) on the first n training positions for each --sizes,
  each measured on all the held-out positions against today's weights.
speed: evaluations a second of both weight files through the same kernels, in one run, on the same
  random states (bench.othello_eval's loops: from scratch; from the kept features; incremental with the
  update), CPU time, median of 5.
match: the shipped player (engines.players.othello, OthelloSettings as shipped: PVS, Multi-ProbCut,
  the book, the solves) with the new weights and the new weights' own Multi-ProbCut rows, against the
  same player with today's weights and rows; --seconds a move from the request (perf_counter), games
  from games/2 seeded random openings (bench.othello_strength's), each with both colours, moves
  alternating in one process, both warmed up first.  --part k/n plays the openings k, k+n, .. (runs
  side by side); report merges every part: W/D/L, score, 95 % Wilson interval, both sides' median and
  max seconds a move and median depth.
"""
import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
OUT = RESULTS / "othello_eval2.md"
MATCH = RESULTS / "othello_eval2_match"


def _section(title: str, text: str) -> None:
    old = OUT.read_text(encoding="utf-8") if OUT.exists() else (
        "# Othello: an evaluation trained on deeper labels (issue 35, item 2)\n")
    head = f"## {title}\n"
    if head in old:
        before, rest = old.split(head, 1)
        after = rest.split("\n## ", 1)
        old = before + ("## " + after[1] if len(after) > 1 else "")
    OUT.write_text(old.rstrip("\n") + "\n\n" + head + text.rstrip("\n") + "\n", encoding="utf-8")


def _stamp(args) -> str:
    return (f"Command: `{args.command}`  \nMachine: {platform.machine()}, Python {platform.python_version()}, "
            f"{time.strftime('%Y-%m-%d %H:%M')}; a shared 2-core machine (other sessions' work running).\n")


# ---- errors -----------------------------------------------------------------------------------------
def errors(args) -> str:
    from engines.knowledge.othello import patterns as OP
    from engines.learn.othello import train as T
    run = Path(args.run)
    with np.load(run / "positions.npz") as d:
        Ps, Os, G = d["P"], d["O"], d["game"]
    with np.load(run / "labels.npz") as d:
        labels = d["labels"]
    with np.load(run / "weights.npz") as d:
        new = OP.params_from_weights(d["weights"].astype(np.float64))
        done = set(int(k) for k in d["done"])
    today = OP.load_params(args.today)
    history = json.loads((run / "state.json").read_text())["history"]
    E = T.empties_of(Ps, Os)
    held = (G % 10) == 9
    lines = [_stamp(args), f"Run: `{run}` (its command: `make train-othello-deep`); today's weights: "
             f"`{args.today}`.  Held-out positions: games with index % 10 == 9, never fitted.", "",
             "| phase | empties | labels | held-out positions | new MAE | today's MAE | new - today (95 %) |",
             "|---|---|---|---|---|---|---|"]
    total = {"n": 0, "new": 0.0, "today": 0.0}
    neutral = []
    if args.neutral:
        from engines.games import make_game
        from engines.search import make_searcher
        game = make_game("othello", size=8)
        searcher = make_searcher("alphabeta", game, {"tt_size": 1 << 18}, OP.knowledge_of_params(today))
    for k in range(OP.N_PHASES):
        h = history.get(str(k))
        if h is None or k not in done:
            continue
        lo, hi = h["empties"]
        test = np.nonzero(held & (E >= lo) & (E <= hi) & ~np.isnan(labels))[0]
        if h["labels"].startswith("kept") or not len(test):
            lines.append(f"| {k} | {lo}-{hi} | {h['labels']} | - | = today's | - | - |")
            continue
        y = labels[test]
        a = np.abs(T.predict(new, Ps[test], Os[test]) - y)
        b = np.abs(T.predict(today, Ps[test], Os[test]) - y)
        diff = a - b
        half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else float("nan")
        lines.append(f"| {k} | {lo}-{hi} | {h['labels']} | {len(test)} | {a.mean():.3f} | {b.mean():.3f} | "
                     f"{diff.mean():+.3f} ({diff.mean() - half:+.3f} .. {diff.mean() + half:+.3f}) |")
        if args.neutral and h["labels"].endswith("search"):
            depth = int(h["labels"].split("-")[1].split()[0])
            sub = test[:args.neutral]
            y2 = np.array([T.pvs_value(game, searcher, int(P), int(O), depth) for P, O in zip(Ps[sub], Os[sub])])
            a2 = np.abs(T.predict(new, Ps[sub], Os[sub]) - y2)
            b2 = np.abs(T.predict(today, Ps[sub], Os[sub]) - y2)
            d2 = a2 - b2
            half2 = 1.96 * d2.std(ddof=1) / np.sqrt(len(d2)) if len(d2) > 1 else float("nan")
            neutral.append(f"| {k} | {lo}-{hi} | depth-{depth} PVS over today's weights | {len(sub)} | {a2.mean():.3f} | "
                           f"{b2.mean():.3f} | {d2.mean():+.3f} ({d2.mean() - half2:+.3f} .. {d2.mean() + half2:+.3f}) |")
        total["n"] += len(test)
        total["new"] += a.sum()
        total["today"] += b.sum()
    if total["n"]:
        lines.append(f"| all fitted | | | {total['n']} | {total['new'] / total['n']:.3f} | "
                     f"{total['today'] / total['n']:.3f} | {(total['new'] - total['today']) / total['n']:+.3f} |")
    if neutral:
        lines += ["", "The same held-out positions (the first of each phase) labelled by the same search over today's "
                  "weights instead of the new ones:", "",
                  "| phase | empties | labels | positions | new MAE | today's MAE | new - today (95 %) |",
                  "|---|---|---|---|---|---|---|"] + neutral
    state = json.loads((run / "state.json").read_text())
    lines += ["", f"CPU hours of the run (workers' included; today's weights' 0.354 owed too): "
              f"{state.get('cpu_seconds_total', 0) / 3600:.3f}."]
    return "\n".join(lines) + "\n"


# ---- curve ------------------------------------------------------------------------------------------
def curve(args) -> str:
    import multiprocessing
    from engines.knowledge.othello import patterns as OP
    from engines.learn.othello import train as T
    run = Path(args.run)
    with np.load(run / "positions.npz") as d:
        Ps, Os, G = d["P"], d["O"], d["game"]
    with np.load(run / "labels.npz") as d:
        labels = d["labels"].copy()
    history = json.loads((run / "state.json").read_text())["history"]
    h = history[str(args.phase)]
    lo, hi = h["empties"]
    depth = int(h["labels"].split("-")[1].split()[0])
    E = T.empties_of(Ps, Os)
    held = (G % 10) == 9
    members = np.nonzero((E >= lo) & (E <= hi))[0]
    store = run / f"curve_{args.phase}.npz"
    if store.is_file():
        with np.load(store) as d:
            extra, extra_labels = d["index"], d["labels"]
    else:
        rng = np.random.default_rng(args.phase)
        free = members[np.isnan(labels[members])]
        extra = np.concatenate([rng.permutation(free[~held[free]])[:args.extra],
                                rng.permutation(free[held[free]])[:args.extra_held]])
        snapshot = run / f"curve_{args.phase}_weights.npz"  # the run's weights as they are (a run may be going on:
        if not snapshot.is_file():                           # the phases below this one are final)
            import shutil
            shutil.copyfile(run / "weights.npz", snapshot)
        weights_path = str(snapshot)
        jobs = [("pvs", weights_path, 0, depth, start, Ps[extra[start:start + T.CHUNK]], Os[extra[start:start + T.CHUNK]])
                for start in range(0, len(extra), T.CHUNK)]
        extra_labels = np.full(len(extra), np.nan)
        with multiprocessing.get_context("spawn").Pool(2, T._worker_init, (19,)) as pool:
            for start, vals, _ in pool.imap_unordered(T.label_job, jobs):
                extra_labels[start:start + len(vals)] = vals
                print(f"curve: {np.count_nonzero(~np.isnan(extra_labels))}/{len(extra)} labelled", file=sys.stderr,
                      flush=True)
        np.savez(store, index=extra, labels=extra_labels)
    labels[extra] = extra_labels
    train = members[~held[members] & ~np.isnan(labels[members])]
    train = np.concatenate([train[np.isin(train, extra, invert=True)], train[np.isin(train, extra)]])  # the run's first
    test = members[held[members] & ~np.isnan(labels[members])]
    prior = OP.load_weights(args.today)
    today = OP.params_from_weights(prior)
    canon = T.canonical_positions()
    k = int(args.phase)
    base = np.abs(T.predict(today, Ps[test], Os[test]) - labels[test])
    lines = [_stamp(args), f"Phase {k} ({lo}-{hi} empties), depth-{depth} PVS labels over the run's weights; "
             f"{len(test)} held-out positions; today's weights there: MAE {base.mean():.3f}.", "",
             "| training labels | ridge chosen (validation games) | new MAE | new - today (95 %) |", "|---|---|---|---|"]
    fit_args = argparse.Namespace(ridge=2.0, ridge_grid=[30.0, 100.0, 300.0, 1000.0, 3000.0], iterations=200)
    for n in args.sizes:
        if n > len(train):
            continue
        sel = train[:n]
        idx = np.empty((len(sel), OP.N_INSTANCES), np.int64)
        sc = np.empty((len(sel), OP.N_SCALARS))
        T.features_batch(Ps[sel], Os[sel], idx, sc)
        idx = canon[idx]
        y = labels[sel] - (prior[k][:OP.N_PATTERN_WEIGHTS][idx].sum(axis=1) + sc @ prior[k][OP.N_PATTERN_WEIGHTS:])
        ridge, _ = T.choose_ridge(idx, sc, y, G[sel], fit_args, True)
        w = np.zeros(OP.PHASE_STRIDE) if ridge is None else T.fit_phase(idx, sc, y, ridge=ridge, iterations=200)[0]
        weights = prior.copy()
        weights[k] = OP.symmetrize((w + prior[k])[None, :])[0]
        err = np.abs(T.predict(OP.params_from_weights(weights), Ps[test], Os[test]) - labels[test])
        diff = err - base
        half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
        lines.append(f"| {n} | {'prior kept' if ridge is None else f'{ridge:g}'} | {err.mean():.3f} | "
                     f"{diff.mean():+.3f} ({diff.mean() - half:+.3f} .. {diff.mean() + half:+.3f}) |")
        print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines) + "\n"


# ---- speed ------------------------------------------------------------------------------------------
def speed(args) -> str:
    from bench.othello_eval import _children, _loop, _loop_features, _loop_update, _rate, random_states
    from engines.games.othello import Othello
    from engines.knowledge.othello import patterns as OP
    game = Othello(8)
    states = random_states(game, 400, 1)
    features = np.zeros((len(states), OP.FEATURES_LEN), np.int64)
    for s, row in zip(states, features):
        OP.features_init(s, row)
    parents, children = _children(game, states)
    reps = 500
    n = reps * len(states)
    child_reps = max(1, n // len(children))
    lines = [_stamp(args), "| weights | from scratch evals/s | from kept features | incremental incl. update |",
             "|---|---|---|---|"]
    rates = {}
    for name, path in (("today's", args.today), ("new", args.new)):
        params = OP.load_params(path)
        rates[name] = (
            _rate(lambda r: _loop(states, params, r or reps, OP.evaluate_patterns), n),
            _rate(lambda r: _loop_features(states, features, params, r or reps, OP.evaluate_features), n),
            _rate(lambda r: _loop_update(states, features, parents, children, params, r or child_reps,
                                         OP.features_play, OP.evaluate_features), child_reps * len(children)))
        lines.append(f"| {name} (`{path}`) | " + " | ".join(f"{x:,}" for x in rates[name]) + " |")
    lines.append("| ratio new / today's | " + " | ".join(f"{a / b:.2f}" for a, b in zip(rates["new"], rates["today's"]))
                 + " |")
    lines += ["", "Both weight files go through the same kernels and features (the layout is unchanged: the "
              "mobility and potential-mobility scalars were already there), so only memory effects can differ."]
    return "\n".join(lines) + "\n"


# ---- match ------------------------------------------------------------------------------------------
def _player(weights: str | None, probcut: str | None, margin: float):
    """The shipped player; with weights (and their ProbCut rows) in place of the shipped ones."""
    from engines.knowledge.othello import patterns as OP
    from engines.players.othello import OthelloPlayer, OthelloSettings
    from engines.search.alphabeta import load_probcut

    class Candidate(OthelloPlayer):
        def knowledge(self):
            if self._knowledge is None:
                self._knowledge = OP.knowledge(weights)
            return self._knowledge

        def _search_config(self, options):
            config = super()._search_config(options)
            if "probcut" in config:  # the rows fitted for these weights
                config["probcut"] = load_probcut(probcut)
            return config

    settings = OthelloSettings(margin=margin)
    player = Candidate(settings) if weights else OthelloPlayer(settings)
    return player.warm_up()


def match(args) -> None:
    from bench.othello_time import paired_games, tally
    from bench.othello_strength import openings
    from engines.games import make_game
    game = make_game("othello", size=8)
    k, n = (int(x) for x in args.part.split("/"))
    sides = {"new": _player(args.new, args.new_probcut, args.margin), "today": _player(None, None, args.margin)}
    part = MATCH.parent / f"{MATCH.name}.part{k}.json"
    log = {"new": [], "today": []}
    result = {"games": 0, "wins": 0, "losses": 0, "draws": 0}
    for score in paired_games(game, sides, ("new", "today"), openings(game, args.games // 2, args.seed), args.seconds,
                              log, (k, n)):
        tally(result, score)
        part.write_text(json.dumps({"command": args.command, "result": result, "moves": log}))
        print(f"othello_eval2 match part {k}: game {result['games']}: new {score}; W/L/D {result['wins']}/"
              f"{result['losses']}/{result['draws']}", file=sys.stderr, flush=True)


def match_report(args) -> str:
    from bench.othello_mpc import merged_parts, side_row as row
    from bench.strength import wilson
    parts = sorted(MATCH.parent.glob(MATCH.name + ".part*.json"))
    result, log, commands = merged_parts(parts, ("new", "today"))
    n = result["games"]
    score = (result["wins"] + result["draws"] / 2) / n if n else 0.0
    lo, hi = wilson(score, n) if n else (0.0, 0.0)

    return "\n".join([_stamp(args), "Parts: " + "; ".join(f"`{c}`" for c in commands), "",
                      "| games | new wins | losses | draws | new score | 95 % interval (Wilson) |",
                      "|---|---|---|---|---|---|",
                      f"| {n} | {result['wins']} | {result['losses']} | {result['draws']} | {score:.1%} | "
                      f"{lo:.1%} .. {hi:.1%} |", "",
                      "Seconds a move (wall clock, request to answer; forced moves left out) and median depth of the "
                      "searched moves:", "", "| side | moves | median s | max s | median depth |",
                      "|---|---|---|---|---|", row("new weights (own ProbCut rows)", log["new"]),
                      row("today's default", log["today"]), ""])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=("errors", "speed", "match", "report", "curve"))
    p.add_argument("--phase", type=int, default=8)
    p.add_argument("--extra", type=int, default=12000)
    p.add_argument("--extra-held", type=int, default=1500)
    p.add_argument("--sizes", type=int, nargs="+", default=[1500, 3000, 6000, 12000])
    p.add_argument("--run", default=str(ROOT / "runs" / "othello_eval2"))
    p.add_argument("--today", default=str(ROOT / "weights" / "othello" / "patterns.npz"))
    p.add_argument("--new", default=str(ROOT / "runs" / "othello_eval2" / "patterns.npz"))
    p.add_argument("--new-probcut", default=str(ROOT / "runs" / "othello_eval2" / "probcut_patterns.json"))
    p.add_argument("--neutral", type=int, default=0, help="errors: also label this many held-out positions a "
                   "searched phase by the search over today's weights")
    p.add_argument("--games", type=int, default=64)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--margin", type=float, default=0.05)
    p.add_argument("--part", default="0/1")
    args = p.parse_args(argv)
    args.command = "python -m bench.othello_eval2 " + " ".join(sys.argv[1:] if argv is None else argv)
    if args.what == "errors":
        _section("Held-out error by phase (the same positions and labels)", errors(args))
    elif args.what == "speed":
        _section("Evaluations a second", speed(args))
    elif args.what == "curve":
        _section(f"Held-out error against the number of labels (phase {args.phase})", curve(args))
    elif args.what == "match":
        match(args)
    else:
        _section("Strength at equal time", match_report(args))
    print(OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
