"""Go move-feature weights fitted by minorization-maximization (Coulom 2007, "Computing Elo ratings of
move patterns in the game of Go").

Model.  The generalized Bradley-Terry model with teams: in every position of a game record, every
legal candidate of the player to move (each legal point and the pass: engines/knowledge/go/features.py
compute_features) is a team whose members are its features; its strength is the product of their
gammas; the played move wins the competition with probability strength / sum of the strengths.

Feature set.  Exactly the Go5 one (engines/knowledge/go/go5_weights.py): the 26 basic features and 1054
3x3 pattern classes.  The classes are ours (``pattern_keys``): first EVERY canonical class of a
neighbourhood that can occur on a board of size 2..19 (570 classes: the off-board cells '#' are
at most one edge row and one edge column), sorted, then the smallest other canonical keys, which
no board position has, to fill the 1054 lines (their gamma stays 1).  So every legal point has a
pattern feature.

The model, the data arrays and the fit are game-free and live in engines/learn/mm.py (shared with the
Hex move patterns); this module gives Go's feature set, its competitions from SGF records and the files.

Data.  ``Competitions``: the teams of all positions in flat arrays.  ``feats`` (rows, MAX_FEATURES)
int32, padded with the dummy feature NUM_FEATURES (gamma 1); ``comp`` the competition of each row;
``start`` (J + 1) the first row of each competition (rows of one competition are contiguous);
``winner`` (J) the row of the played move; ``action`` the action of each row; ``move`` (J) the
move number of each position in its game (1 = the first move) and ``passed`` (J) whether the played
move was the pass.

Fit.  Features are updated group by group (``GROUPS``: the features of one group are never together
in one team, so a group's simultaneous update is an exact MM step): gamma_i <- (W_i + a) /
(sum_j C_ij / E_j + 2a / (gamma_i + 1)), where W_i is the number of wins of i, E_j the total
strength of competition j, C_ij the strength of i's team-mates in competition j (summed over i's
teams there), and a = ``prior`` virtual wins and a virtual losses against an opponent of gamma 1
(Coulom's prior: a feature never seen stays at 1).  One iteration updates every group once; after
each one the log-likelihood per position (training and held-out) and the held-out top-1 rate are
recorded (ties in the top strength share the hit: a uniform policy scores 1/candidates).

    python -m engines.learn.go.mm --games games/go9 --out weights/go/mm9.txt [--plot weights/go/mm9.png]
"""
import argparse
import datetime
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np
from sgfmill import sgf

from engines.knowledge.go.features import MAX_FEATURES, compute_features
from engines.knowledge.go.go5_weights import (BASIC_NAMES, NUM_BASIC, NUM_FEATURES, NUM_PATTERNS, PATTERN_ALPHABET,
                                          GoWeights, canonical, parse_weights)
from engines.learn.go.games import game_info, replay
from engines.learn.mm import (MAX_GAMMA, MIN_GAMMA, Builder, Competitions, Fit, group_rows, log_likelihood,  # noqa: F401
                               plot_history, record_paths, split_records, strengths, top1, top1_hits)
from engines.learn import mm as shared

DUMMY = NUM_FEATURES  # the padding feature: gamma 1, never updated
# feature groups (ranges of indices): no team holds two features of one group
GROUPS = ((0, 2), (2, 3), (3, 5), (5, 6), (6, 9), (9, 17), (17, 26), (NUM_BASIC, NUM_FEATURES))
GROUP_NAMES = ("pass", "capture", "atari", "self-atari", "line", "distance", "own distance", "pattern")


# ---- the feature set -----------------------------------------------------------------------------
def _board_neighbourhoods():
    """Every 9-character neighbourhood (empty centre) that a point of a board of size >= 2 can have."""
    out = set()
    import itertools
    for off_row in (None, 0, 2):          # south row (0) or north row (2) off the board
        for off_col in (None, 0, 2):      # west column (0) or east column (2)
            cells = [k for k in range(9) if k != 4 and k // 3 != off_row and k % 3 != off_col]
            for fill in itertools.product(".OX", repeat=len(cells)):
                s = ["#"] * 9
                s[4] = "."
                for k, ch in zip(cells, fill):
                    s[k] = ch
                out.add("".join(s))
    return out


def pattern_keys() -> tuple[str, ...]:
    """The 1054 pattern keys of our weights files (see the module docstring)."""
    real = sorted({canonical(p) for p in _board_neighbourhoods()})
    others = set()
    import itertools
    for rest in itertools.product(PATTERN_ALPHABET, repeat=8):
        p = "".join(rest[:4]) + "." + "".join(rest[4:])
        c = canonical(p)
        if c not in real:
            others.add(c)
        if len(others) > 4 * NUM_PATTERNS:
            break
    keys = tuple(real) + tuple(sorted(others)[:NUM_PATTERNS - len(real)])
    assert len(keys) == NUM_PATTERNS and len(set(keys)) == NUM_PATTERNS
    return keys


_KEYS = None


def feature_names() -> tuple[str, ...]:
    global _KEYS
    if _KEYS is None:
        _KEYS = BASIC_NAMES + pattern_keys()
    return _KEYS


def weights_text(gammas) -> str:
    """The text of a weights file (go_weights format) with these NUM_FEATURES gammas."""
    gammas = np.asarray(gammas, dtype=np.float64)
    if gammas.shape != (NUM_FEATURES,) or not np.all(np.isfinite(gammas)) or not np.all(gammas > 0):
        raise ValueError(f"gammas must be {NUM_FEATURES} finite numbers > 0")
    return "".join(f"{i} {float(g)!r} {key}\n" for i, (g, key) in enumerate(zip(gammas, feature_names())))


def uniform_weights() -> GoWeights:
    """Our feature set with every gamma 1 (its table gives the pattern classes)."""
    return parse_weights(weights_text(np.ones(NUM_FEATURES)), "<uniform>")


# ---- competitions from game records --------------------------------------------------------------
class _Builder(Builder):
    def __init__(self):
        super().__init__(MAX_FEATURES, DUMMY)


_group_rows = group_rows


def fit(c: Competitions, num_features: int = NUM_FEATURES, groups=GROUPS, iterations: int = 30, prior: float = 1.0,
        heldout: Competitions | None = None, tol: float = 1e-7, log=None) -> Fit:
    """engines/learn/mm.py's fit with Go's feature set by default."""
    return shared.fit(c, num_features, groups, iterations=iterations, prior=prior, heldout=heldout, tol=tol, log=log)


def positions(record, table, skip_random: bool = True):
    """(game, state, feats, nfeat, played action, move number) for each move of a record (sgfmill Sgf_game) made by
    the player to move (games.replay), with the features computed with ``table`` (a GoWeights' table)."""
    nn = record.get_size() ** 2
    feats = np.empty((nn + 1, MAX_FEATURES), dtype=np.int32)
    nfeat = np.empty(nn + 1, dtype=np.int32)
    for game, state, _played, a, move in replay(record, skip_random):
        compute_features(state, table, feats, nfeat)
        yield game, state, feats, nfeat, a, move


def read_record(path) -> "sgf.Sgf_game":
    return sgf.Sgf_game.from_bytes(Path(path).read_bytes())


def competitions(paths, table, skip_random: bool = True) -> Competitions:
    """The competitions of every move of these SGF files (see ``positions``)."""
    return competitions_of_records((read_record(p) for p in paths), table, skip_random)


def competitions_of_records(records, table, skip_random: bool = True) -> Competitions:
    """The competitions of every move of these records (sgfmill Sgf_games; see ``positions``)."""
    b = _Builder()
    for record in records:
        b.games += 1
        b.sizes[record.get_size()] = b.sizes.get(record.get_size(), 0) + 1
        for game, _state, feats, nfeat, a, move in positions(record, table, skip_random):
            b.add(feats, nfeat, a, move, a == game.pass_action)
    return b.build()


# ---- files ---------------------------------------------------------------------------------------
def write_weights(path, gammas) -> GoWeights:
    """Write a weights file and return it as load_weights reads it back."""
    text = weights_text(gammas)
    parsed = parse_weights(text, path)
    Path(path).write_text(text, encoding="ascii")
    return parsed


def generation_info(paths) -> dict:
    """What made the records (go_games' GC words): CPU seconds, games per "generator version level"
    and per board size."""
    cpu, generators, sizes = 0.0, {}, {}
    for p in paths:
        record = read_record(p)
        info = game_info(record)
        cpu += float(info.get("cpu", 0.0))
        name = " ".join(filter(None, (info.get("generator", "unknown"), info.get("version"),
                                      f"level {info['level']}" if "level" in info else None)))
        generators[name] = generators.get(name, 0) + 1
        sizes[record.get_size()] = sizes.get(record.get_size(), 0) + 1
    return {"cpu_seconds": cpu, "generators": generators, "sizes": sizes}


def train(game_dirs, out, iterations: int = 30, prior: float = 1.0, holdout_every: int = 10, plot=None,
          log=print) -> dict:
    """Fit on the records of game_dirs, write ``out`` (weights), ``out``.json (sidecar) and the plot;
    returns the sidecar."""
    cpu0 = time.process_time()
    out = Path(out)
    paths = record_paths(game_dirs)
    if not paths:
        raise ValueError(f"no SGF records in {', '.join(map(str, game_dirs))}")
    train_paths, held_paths = split_records(paths, holdout_every)
    table = uniform_weights().table
    c = competitions(train_paths, table)
    h = competitions(held_paths, table) if held_paths else None
    log(f"{len(train_paths)} training games ({c.count} positions, {len(c.feats)} candidates), "
        f"{len(held_paths)} held-out games ({h.count if h else 0} positions)")

    def report(e):
        text = f"iteration {e['iteration']:3d}: train log-likelihood {e['train_loglik']:.5f}"
        if "heldout_loglik" in e:
            text += f", held-out {e['heldout_loglik']:.5f}, held-out top-1 {e['heldout_top1']:.4f}"
        log(text)

    result = fit(c, iterations=iterations, prior=prior, heldout=h, log=report)
    write_weights(out, result.gammas)
    gen = generation_info(paths)
    fit_cpu = time.process_time() - cpu0
    last = result.history[-1]
    ones = np.ones(NUM_FEATURES)
    sidecar = {
        "file": out.name,
        "format": "engines/knowledge/go/go5_weights.py: <index> <gamma> <key>, 26 basic features + 1054 3x3 pattern "
                  "classes (every class a board can show, then unused fillers at 1)",
        "how": f"Coulom (2007) minorization-maximization for the generalized Bradley-Terry model with teams "
               f"(engines/learn/go/mm.py): each candidate's team = its compute_features features, the played move "
               f"wins against every legal candidate and the pass; prior {prior:g} virtual win and {prior:g} virtual "
               f"loss against gamma 1; {len(result.history)} iterations over {len(GROUPS)} feature groups",
        "from": {
            "games": len(train_paths), "positions": c.count, "candidates": int(len(c.feats)),
            "heldout_games": len(held_paths), "heldout_positions": h.count if h else 0,
            "sizes": {str(k): v for k, v in sorted(gen["sizes"].items())},
            "generator": "self-play records of engines/learn/go/games.py (GNU Go: python -m standins.gnugo_games, "
                         "--chinese-rules, seeded, 0..4 random opening moves, which are not fitted)",
            "generators": gen["generators"],
            "records": sorted({str(Path(d)) for d in game_dirs}),
        },
        "when": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        "cpu_hours": {"generation": round(gen["cpu_seconds"] / 3600, 4), "fit": round(fit_cpu / 3600, 4)},
        "heldout": {"top1": last.get("heldout_top1"), "loglik_per_move": last.get("heldout_loglik"),
                    "uniform_top1": top1(h, ones) if h else None,
                    "uniform_loglik_per_move": log_likelihood(h, ones) if h else None},
        "train_loglik_per_move": last["train_loglik"],
        "history": result.history,
    }
    out.with_suffix(".json").write_text(json.dumps(sidecar, indent=1) + "\n")
    if plot:
        plot_history(plot, result.history, f"MM on {len(train_paths)} GNU Go games")
    return sidecar


PHASES = ((1, 20), (21, 40), (41, 10 ** 6))  # move numbers of the per-phase top-1 rates


def evaluate(weights: GoWeights, paths) -> dict:
    """A weights file (with its own pattern classes) on these records: positions, top-1 rate,
    log-likelihood per move, top-1 rate on the moves that are not passes, and per phase of the game
    (``PHASES``: "first-last" -> top-1)."""
    c = competitions(paths, weights.table)
    hits = top1_hits(c, weights.weights)
    phases = {}
    for lo, hi in PHASES:
        sel = (c.move >= lo) & (c.move <= hi)
        phases[f"{lo}-{hi}" if hi < 10 ** 6 else f"{lo}+"] = float(hits[sel].mean()) if sel.any() else None
    return {"positions": c.count, "top1": float(hits.mean()), "loglik": log_likelihood(c, weights.weights),
            "top1_no_pass": float(hits[~c.passed].mean()), "passes": int(c.passed.sum()), "phases": phases}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engines.learn.go.mm", description=__doc__.split("\n")[0],
                                     epilog="exit status: 0 done, 2 bad arguments, 3 no records / unwritable output")
    parser.add_argument("--games", nargs="+", required=True, help="folders (or files) of SGF records")
    parser.add_argument("--out", required=True, help="the weights file to write (sidecar: same name, .json)")
    parser.add_argument("--iterations", type=int, default=30, help="MM iterations at most")
    parser.add_argument("--prior", type=float, default=1.0, help="virtual wins and losses against gamma 1")
    parser.add_argument("--holdout-every", type=int, default=10, help="hold out every k-th record (0: none)")
    parser.add_argument("--plot", help="PNG of the log-likelihood and held-out top-1 per iteration")
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.prior <= 0 or args.holdout_every < 0:
        parser.error("--iterations >= 1, --prior > 0, --holdout-every >= 0")
    try:
        train(args.games, args.out, iterations=args.iterations, prior=args.prior,
              holdout_every=args.holdout_every, plot=args.plot)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"wrote {args.out} ({usage.ru_utime + usage.ru_stime:.1f} CPU seconds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
