"""Trains the Othello pattern evaluation (engines/knowledge/othello/patterns.py) from self-play.

python -m engines.learn.othello.train [--out DIR] [--games N] ...   (make train-othello: the shipped recipe)

1. games     self-play with randomised openings (the first 0..--random-opening moves uniform) and
             random moves (--epsilon) among one-ply choices of the strong evaluation (and, when a
             previous weights file is given, of the pattern evaluation): every position where the
             side to move can place is kept (de-duplicated).  A tenth of the games is held out.
2. labels    phase by phase from the end backwards (phase k = empties 2k..2k+1, patterns.phase_empties):
               empties <= --exact: the exact final disc difference (the project's endgame solver:
               engines.knowledge.othello.endgame, else engines.knowledge.othello.registered.solve_endgame);
               above: the value of a --depth ply alpha-beta search whose leaves are valued by the
               weights already fitted for the later phases (leaves of phase k lie in phase k-1):
               --label-search negamax, this module's plain alpha-beta over score_bits (the shipped
               recipe), or pvs, the player's own searcher (engines/search/alphabeta.py: PVS, table,
               the incremental evaluation) with those weights, about 4x cheaper a node, so deeper.
               Several depths (``--depth 4 5``): the label is the mean of those searches' values.  Why:
               a search of even depth ends with the mover to move, so any bias of the evaluation
               towards the side to move passes into the label whole, and phase after phase it adds
               up (the shipped weights value having the move at about 10-19 discs in the midgame:
               depth d+1 and d differ by that much); an odd depth passes it with the other sign,
               so a mean of the two parities stops it from adding up.
             --workers K labels in K spawned processes (niced to --nice) by chunks of CHUNK positions.
3. fit       after labelling phase k, its weights by ridge least squares (conjugate gradient on the
             normal equations over the sparse pattern features, numpy), on the positions of phase k
             and the two nearest empties counts of the phase below (those above are not labelled yet).  With --prior-weights the
             ridge pulls towards that file's weights of the phase instead of towards zero (the fit
             is of the residual y - prior's prediction: few deep labels correct a good evaluation
             instead of replacing it), every phase starts as the prior's, and the phases whose
             empties are all <= --keep-prior-up-to are kept as they are (not labelled, not fitted).
             With --ridge-grid each phase's ridge is the grid value with the lowest error on validation
             games (index % 10 == 8; the prior itself competes and may stay), then fitted on all.
Everything is checkpointed in DIR (positions.npz, labels.npz, weights.npz, state.json): a rerun resumes
where it stopped (labels are written at least every SAVE_SECONDS).  progress.log says what was done.  At
the end: the held-out mean absolute disc error by phase (and, with --compare-weights, that of another
weights file on the same held-out positions and labels), loss.png, and the weights file with its
sidecar (default weights/othello/patterns.npz + patterns.json).
"""
import argparse
import json
import os
import pathlib
import sys
import time

import numba as nb
import numpy as np

from engines.bits import lowest_bit_index, popcount
from engines.games.othello import bb_moves, flips_at
from engines.knowledge.othello import patterns as OP
from engines.knowledge.othello.registered import evaluate_strong
from engines.rng import below, make_rng, uniform

FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
ZERO = np.uint64(0)
START_BLACK = np.uint64(0x0000000810000000)  # d5 e4 (bit r*8+c)
START_WHITE = np.uint64(0x0000001008000000)  # d4 e5
MAX_POSITIONS_PER_GAME = 64
CHUNK = 400          # positions a worker labels per job
SAVE_SECONDS = 60.0  # labels.npz is rewritten at least this often while a phase is labelled


# ==== compiled helpers ===========================================================================

@nb.njit(cache=True)
def _strong_of(P, O, state):
    """evaluate_strong of the position (P to move against O) through a scratch bitboard state."""
    moves = bb_moves(P, O, FULL)
    status = 0
    if moves == ZERO:
        status = 2 if bb_moves(O, P, FULL) == ZERO else 1
    state[0] = 8
    state[1] = 0
    state[2] = 0
    state[3] = status
    state[4] = 0
    state[8] = np.int64(P)
    state[9] = np.int64(O)
    state[10] = -1
    state[11] = np.int64(moves)
    return evaluate_strong(state, np.zeros(0))


@nb.njit(cache=True)
def _leaf(P, O, params):
    """Pattern score (discs, clamped) of a position with moves for someone; exact when final."""
    moves = bb_moves(P, O, FULL)
    if moves == ZERO and bb_moves(O, P, FULL) == ZERO:
        return np.float64(np.int64(popcount(P)) - np.int64(popcount(O)))
    return OP.clamp(OP.score_bits(P, O, moves, params))


@nb.njit(nb.float64(nb.uint64, nb.uint64, nb.int64, nb.float64, nb.float64, nb.int64, nb.float64[::1],
                    nb.int64[::1]), cache=True)
def negamax(P, O, depth, alpha, beta, passed, params, nodes):
    """Alpha-beta value (discs, for the mover P) of a depth-ply search with the pattern evaluation at
    the leaves and exact disc differences at the end of the game; nodes[0] counts the nodes."""
    nodes[0] += 1
    moves = bb_moves(P, O, FULL)
    if moves == ZERO:
        if passed == 1 or bb_moves(O, P, FULL) == ZERO:
            return np.float64(np.int64(popcount(P)) - np.int64(popcount(O)))
        return -negamax(O, P, depth, -beta, -alpha, passed + 1, params, nodes)
    if depth <= 0:
        return OP.clamp(OP.score_bits(P, O, moves, params))
    best = -1e9
    # order by the opponent's mobility after the move (fewest first), corners first
    n = np.int64(popcount(moves))
    keys = np.empty(n, np.int64)
    sqs = np.empty(n, np.uint64)
    k = 0
    m = moves
    while m != ZERO:
        x = m & (ZERO - m)
        m ^= x
        f = flips_at(lowest_bit_index(x), P, O)
        key = np.int64(popcount(bb_moves(O ^ f, P ^ f ^ x, FULL)))
        if x & np.uint64(0x8100000000000081):
            key -= 8
        j = k
        while j > 0 and keys[j - 1] > key:
            keys[j] = keys[j - 1]
            sqs[j] = sqs[j - 1]
            j -= 1
        keys[j] = key
        sqs[j] = x
        k += 1
    for j in range(n):
        x = sqs[j]
        f = flips_at(lowest_bit_index(x), P, O)
        v = -negamax(O ^ f, P ^ f ^ x, depth - 1, -beta, -alpha, passed * 0, params, nodes)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if v >= beta:
                    break
    return best


@nb.njit(cache=True)
def label_batch(Ps, Os, depth, params, out):
    """out[i] = negamax value of position i at depth; returns the nodes searched."""
    nodes = np.zeros(1, np.int64)
    for i in range(Ps.shape[0]):
        out[i] = negamax(Ps[i], Os[i], depth, -1e9, 1e9, 0, params, nodes)
    return nodes[0]


@nb.njit(cache=True)
def play_game(rng, n_random, epsilon, use_patterns, params, out_P, out_O):
    """One self-play game; the positions where the mover can place go to out_P/out_O (mover's
    discs, opponent's); returns their number.  The first n_random moves and a share epsilon of the
    rest are uniform; the others maximise the one-ply value (pattern evaluation when use_patterns,
    else the strong evaluation)."""
    P = START_BLACK
    O = START_WHITE
    state = np.zeros(12, np.int64)
    count = 0
    ply = 0
    while True:
        moves = bb_moves(P, O, FULL)
        if moves == ZERO:
            if bb_moves(O, P, FULL) == ZERO:
                break
            P, O = O, P
            continue
        out_P[count] = P
        out_O[count] = O
        count += 1
        n = np.int64(popcount(moves))
        if ply < n_random or uniform(rng) < epsilon:
            k = below(rng, n)
            m = moves
            for _ in range(k):
                m &= m - np.uint64(1)
            x = m & (ZERO - m)
        else:
            best = -1e18
            x = ZERO
            m = moves
            while m != ZERO:
                y = m & (ZERO - m)
                m ^= y
                f = flips_at(lowest_bit_index(y), P, O)
                if use_patterns:
                    v = -_leaf(O ^ f, P ^ f ^ y, params)
                else:
                    v = -_strong_of(O ^ f, P ^ f ^ y, state)
                v += 1e-3 * uniform(rng)  # ties broken at random
                if v > best:
                    best = v
                    x = y
        f = flips_at(lowest_bit_index(x), P, O)
        P, O = O ^ f, P ^ f ^ x
        ply += 1
    return count


@nb.njit(cache=True)
def features_batch(Ps, Os, idx, scalars):
    """Pattern table positions (N, N_INSTANCES) and scalars (N, N_SCALARS) of each position."""
    for i in range(Ps.shape[0]):
        OP.pattern_features(Ps[i], Os[i], idx[i], scalars[i])


# ==== labels by the player's search, in worker processes ======================================

_WORKER = {}


def _worker_init(niceness: int) -> None:
    try:  # a long CPU job: niced unless it already is
        os.nice(max(0, niceness - os.nice(0)))
    except OSError:  # pragma: no cover
        pass


def _pvs_searcher(weights_path: str, version: int):
    """The player's alpha-beta over the pattern evaluation with the weights of weights_path (a
    weights.npz checkpoint; reread when version changes), one per process."""
    if _WORKER.get("version") != (weights_path, version):
        from engines.games import make_game
        from engines.search import make_searcher
        with np.load(weights_path, allow_pickle=False) as d:
            params = OP.params_from_weights(d["weights"].astype(np.float64))
        game = make_game("othello", size=8)
        searcher = make_searcher("alphabeta", game, {"tt_size": 1 << 18}, OP.knowledge_of_params(params))
        _WORKER.update(version=(weights_path, version), game=game, searcher=searcher)
    return _WORKER["game"], _WORKER["searcher"]


def pvs_value(game, searcher, P: int, O: int, depth: int) -> float:
    """The depth-ply search value (discs for the mover, exact margin at a game's end) of the position
    whose mover has discs P against O (the mover plays black: the evaluation knows no colours)."""
    from engines.games.othello import BLACK_BB, WHITE_BB, bb_refresh
    from engines.players.othello import disc_value
    from engines.search import Limits
    state = game.initial_state()
    state[BLACK_BB] = P - (1 << 64) if P >= 1 << 63 else P
    state[WHITE_BB] = O - (1 << 64) if O >= 1 << 63 else O
    state[1] = 0
    bb_refresh(state)
    searcher.reset()
    return disc_value(searcher.search(state, Limits(depth=depth)).value)


def label_job(job) -> tuple:
    """A worker's job: (start, labels, CPU seconds) of ("exact" | "pvs" | "negamax", weights_path,
    version, depths, start, Ps, Os); a label is the mean of the searches' values at those depths."""
    how, weights_path, version, depths, start, Ps, Os = job
    began = time.process_time()
    if how == "exact":
        if "solve" not in _WORKER:
            _WORKER["solve"] = _default_solver()
        from engines.games.othello import Othello
        game = Othello(8)
        out = np.array([_WORKER["solve"](game, int(p), int(o)) for p, o in zip(Ps, Os)], dtype=np.float64)
    elif how == "pvs":
        game, searcher = _pvs_searcher(weights_path, version)
        out = np.mean([[pvs_value(game, searcher, int(p), int(o), d) for p, o in zip(Ps, Os)] for d in depths], axis=0)
    else:
        with np.load(weights_path, allow_pickle=False) as d:
            params = OP.params_from_weights(d["weights"].astype(np.float64))
        out = np.zeros(len(Ps))
        for d in depths:
            values = np.empty(len(Ps))
            label_batch(np.asarray(Ps, np.uint64), np.asarray(Os, np.uint64), d, params, values)
            out += values / len(depths)
    return start, out, time.process_time() - began


def depth_name(depths) -> str:
    """'depth-4', or 'mean of depth-4 and depth-5' for the labels of several searches."""
    names = [f"depth-{d}" for d in depths]
    return names[0] if len(names) == 1 else "mean of " + " and ".join(names)


# ==== stages =====================================================================================

def empties_of(Ps, Os):
    return np.array([64 - bin(int(p) | int(o)).count("1") for p, o in zip(Ps, Os)], dtype=np.int64)


def generate(n_games, seed, random_opening, epsilon, params=None, progress=None, pattern_share=1.0):
    """(P, O, game index) of the de-duplicated positions of n_games self-play games; with params, a
    share pattern_share of the games (every k-th) is played by the pattern evaluation."""
    rng = make_rng(seed)
    have = params is not None
    params = params if have else np.zeros(OP.PARAMS_LEN)
    outP = np.zeros(MAX_POSITIONS_PER_GAME + 8, np.uint64)
    outO = np.zeros(MAX_POSITIONS_PER_GAME + 8, np.uint64)
    Ps, Os, G = [], [], []
    seen = set()
    for g in range(n_games):
        n_random = int(below(rng, random_opening + 1))
        use = have and (g * pattern_share) % 1.0 + pattern_share >= 1.0
        k = play_game(rng, n_random, epsilon, use, params, outP, outO)
        for i in range(k):
            key = (int(outP[i]), int(outO[i]))
            if key not in seen:
                seen.add(key)
                Ps.append(outP[i])
                Os.append(outO[i])
                G.append(g)
        if progress is not None:
            progress.update(1)
    return np.array(Ps, np.uint64), np.array(Os, np.uint64), np.array(G, np.int64)


def exact_labels(Ps, Os, solver=None, progress=None):
    """Exact final disc difference for the mover of each position (it can place)."""
    from engines.games.othello import Othello
    solve = solver or _default_solver()
    game = Othello(8)
    out = np.empty(len(Ps))
    for i, (p, o) in enumerate(zip(Ps, Os)):
        out[i] = solve(game, int(p), int(o))
        if progress is not None:
            progress.update(1)
    return out


def _default_solver():
    """The project's exact solver: engines.knowledge.othello.endgame's EndgameSolver (one table kept
    across solves) when present, else engines.knowledge.othello.registered.solve_endgame."""
    try:
        from engines.knowledge.othello.endgame import EndgameSolver
    except ImportError:  # pragma: no cover - the older solver
        EndgameSolver = None
    if EndgameSolver is not None:
        solver = EndgameSolver(tt_bits=18)

        def solve(game, p, o):
            return solver.solve(p, o).score
        return solve
    from engines.games.othello import BLACK_BB, WHITE_BB, bb_refresh
    from engines.knowledge.othello.registered import solve_endgame

    def solve(game, p, o):
        s = game.initial_state()
        s[BLACK_BB] = p - (1 << 64) if p >= 1 << 63 else p
        s[WHITE_BB] = o - (1 << 64) if o >= 1 << 63 else o
        s[1] = 0
        bb_refresh(s)
        return solve_endgame(s).score
    return solve


def canonical_positions() -> np.ndarray:
    """raw table position -> canonical table position (within one phase)."""
    out = np.arange(OP.N_PATTERN_WEIGHTS, dtype=np.int64)
    for t, cmap in enumerate(OP.canonical_maps()):
        o = int(OP.TYPE_OFFSET[t])
        out[o:o + cmap.size] = o + cmap
    return out


def fit_phase(idx, scalars, y, ridge=2.0, iterations=300, w0=None):
    """Ridge least squares: y ~ sum_i w[idx[:, i]] + scalars @ v, by conjugate gradient on the normal
    equations; returns (weights of one phase, PHASE_STRIDE long, and the training MAE)."""
    n_pat = OP.N_PATTERN_WEIGHTS
    flat = idx.reshape(-1)
    counts = np.bincount(flat, minlength=n_pat).astype(np.float64)
    reg = np.concatenate([np.full(n_pat, ridge), np.full(OP.N_SCALARS, 1e-3)])

    def matvec(w):
        pred = w[:n_pat][idx].sum(axis=1) + scalars @ w[n_pat:]
        back = np.concatenate([np.bincount(flat, weights=np.repeat(pred, idx.shape[1]), minlength=n_pat),
                               scalars.T @ pred])
        return back + reg * w

    b = np.concatenate([np.bincount(flat, weights=np.repeat(y, idx.shape[1]), minlength=n_pat), scalars.T @ y])
    w = np.zeros(n_pat + OP.N_SCALARS) if w0 is None else w0.copy()
    r = b - matvec(w)
    diag = np.concatenate([counts, (scalars ** 2).sum(axis=0)]) + reg  # Jacobi preconditioner
    z = r / diag
    p = z.copy()
    rz = r @ z
    for _ in range(iterations):
        if rz == 0.0:  # already exact (e.g. zero labels: a residual fit the prior predicts exactly)
            break
        Ap = matvec(p)
        alpha = rz / (p @ Ap)
        w += alpha * p
        r -= alpha * Ap
        z = r / diag
        rz_new = r @ z
        if np.sqrt(r @ r) < 1e-6 * np.sqrt(b @ b):
            break
        p = z + (rz_new / rz) * p
        rz = rz_new
    pred = w[:n_pat][idx].sum(axis=1) + scalars @ w[n_pat:]
    return w, float(np.abs(pred - y).mean())


def choose_ridge(idx, scalars, y, games, args, have_prior: bool):
    """The ridge of a phase's fit: --ridge, or with --ridge-grid the grid's value whose fit on the
    training games (index % 10 < 8) gives the lowest mean absolute error on the validation games
    (index % 10 == 8; the held-out games, == 9, are never looked at), None when no value beats the prior
    itself there (with --prior-weights: the residual 0).  Returns (ridge, {ridge: validation MAE})."""
    if not args.ridge_grid:
        return args.ridge, {}
    val = (games % 10) == 8
    if val.sum() < 20 or (~val).sum() < 20:
        return args.ridge, {}
    n_pat = OP.N_PATTERN_WEIGHTS
    scores = {"prior": round(float(np.abs(y[val]).mean()), 3)} if have_prior else {}
    for ridge in args.ridge_grid:
        w, _ = fit_phase(idx[~val], scalars[~val], y[~val], ridge=ridge, iterations=args.iterations)
        pred = w[:n_pat][idx[val]].sum(axis=1) + scalars[val] @ w[n_pat:]
        scores[str(ridge)] = round(float(np.abs(pred - y[val]).mean()), 3)
    best = min(scores, key=scores.get)
    return (None if best == "prior" else float(best)), scores


def predict(params, Ps, Os):
    return np.array([_leaf(p, o, params) for p, o in zip(Ps, Os)])


# ==== the run ====================================================================================

def _progress(total, desc, quiet):
    if quiet:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        return None
    return tqdm(total=total, desc=desc, file=sys.stderr, mininterval=5.0)


def _close(bar):
    if bar is not None:
        bar.close()


def _cpu():
    t = os.times()
    return t.user + t.system


def run(args) -> dict:
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = open(out / "progress.log", "a")

    def say(text):
        line = f"{time.strftime('%H:%M:%S')} {text}"
        print(line, file=log, flush=True)
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    state_path = out / "state.json"
    state = json.loads(state_path.read_text()) if state_path.is_file() else {}
    if "cpu_seconds_total" in state:  # a resumed run: what it spent before
        state["cpu_seconds"] = state["cpu_seconds_total"]
        state["worker_cpu_seconds"] = 0.0  # (counted in the total)
    else:  # the run that made the self-play weights counts too
        earlier = args.extra_cpu_seconds
        if not earlier:  # each weights file this run builds on, once (they may be the same file)
            owed = {str(pathlib.Path(f).resolve()) for f in (args.self_play_weights, args.prior_weights) if f}
            earlier = sum(float(OP.read_sidecar(f)["cpu_hours"]) * 3600.0 for f in sorted(owed))
        state["cpu_seconds"] = earlier
    cpu0 = _cpu()

    def save_state():  # this process's CPU and its workers' (which they report with their labels)
        state["cpu_seconds_total"] = state["cpu_seconds"] + _cpu() - cpu0 + state.get("worker_cpu_seconds", 0.0)
        state_path.write_text(json.dumps(state, indent=1) + "\n")

    # 1. positions
    pos_path = out / "positions.npz"
    if pos_path.is_file():
        with np.load(pos_path, allow_pickle=False) as d:
            Ps, Os, G = d["P"], d["O"], d["game"]
        say(f"resumed {len(Ps)} positions from {pos_path}")
    else:
        prev = OP.load_params(args.self_play_weights) if args.self_play_weights else None
        bar = _progress(args.games, "self-play games", args.quiet)
        Ps, Os, G = generate(args.games, args.seed, args.random_opening, args.epsilon, prev, bar, args.pattern_share)
        _close(bar)
        np.savez(pos_path, P=Ps, O=Os, game=G)
        say(f"{args.games} games: {len(Ps)} distinct positions")
    E = empties_of(Ps, Os)
    held = (G % 10) == 9

    # 2-3. labels and fits, phase by phase from the end
    lab_path = out / "labels.npz"
    if lab_path.is_file():
        with np.load(lab_path, allow_pickle=False) as d:
            labels, kind = d["labels"], d["kind"]
    else:
        labels, kind = np.full(len(Ps), np.nan), np.zeros(len(Ps), np.int64)  # kind 1 exact, 2 search
    w_path = out / "weights.npz"
    prior = OP.load_weights(args.prior_weights) if args.prior_weights else None
    compare = OP.load_params(args.compare_weights) if args.compare_weights else None
    if w_path.is_file():
        with np.load(w_path, allow_pickle=False) as d:
            weights, done = d["weights"].astype(np.float64), list(d["done"])
    else:
        weights, done = (np.zeros((OP.N_PHASES, OP.PHASE_STRIDE)) if prior is None else prior.copy()), []
        np.savez(w_path, weights=weights, done=np.array(done, np.int64))
    rng = np.random.default_rng(args.seed)
    canon = canonical_positions()
    history = state.setdefault("history", {})
    pool = None
    if args.workers > 1:
        import multiprocessing
        # the workers get this module by its name even when it runs as __main__: a spawned worker would
        # otherwise run the labelling kernels as __mp_main__'s, and numba would cache them under that name,
        # which no later import of this module can load (it failed every later run of the tests)
        from engines.learn.othello import train as this
        pool = multiprocessing.get_context("spawn").Pool(args.workers, this._worker_init, (args.nice,))
    try:
        for k in range(OP.N_PHASES):
            if k in done:
                continue
            lo, hi = OP.phase_empties(k)
            if prior is not None and hi <= args.keep_prior_up_to:
                weights[k] = prior[k]
                done.append(k)
                np.savez(w_path, weights=weights, done=np.array(done, np.int64))
                history[str(k)] = {"empties": [lo, hi], "labels": "kept from --prior-weights", "train_positions": 0,
                                   "train_mae": None, "held_out_positions": 0, "held_out_mae": None}
                save_state()
                say(f"phase {k} (empties {lo}-{hi}): kept from {args.prior_weights}")
                continue
            members = np.nonzero((E >= lo) & (E <= hi))[0]
            exact = hi <= args.exact
            per_phase = args.per_phase_exact if exact and args.per_phase_exact else args.per_phase
            if per_phase and len(members) > per_phase:  # the labelled ones (a resumed run), then at random
                have = members[~np.isnan(labels[members])][:per_phase]
                rest = np.setdiff1d(members, have)
                extra = rng.choice(rest, per_phase - len(have), replace=False) if len(have) < per_phase else rest[:0]
                members = np.sort(np.concatenate([have, extra]))
            todo = members[np.isnan(labels[members])]
            how = "exact" if exact else args.label_search
            t0, worker_cpu0 = _cpu(), state.get("worker_cpu_seconds", 0.0)
            bar = _progress(len(todo), f"phase {k}: " + ("exact solves" if exact else f"{depth_name(args.depth)} labels"),
                            args.quiet)
            chunk = CHUNK if pool is not None else 2000
            jobs = [(how, str(w_path), len(done), tuple(args.depth), start, Ps[todo[start:start + chunk]],
                     Os[todo[start:start + chunk]]) for start in range(0, len(todo), chunk)]
            results = pool.imap_unordered(this.label_job, jobs) if pool is not None else map(label_job, jobs)
            saved, count = time.monotonic(), 0
            for start, vals, cpu in results:
                part = todo[start:start + len(vals)]
                labels[part] = vals
                kind[part] = 1 if exact else 2
                count += len(part)
                if pool is not None:
                    state["worker_cpu_seconds"] = state.get("worker_cpu_seconds", 0.0) + cpu
                if bar is not None:
                    bar.update(len(part))
                if time.monotonic() - saved >= SAVE_SECONDS or pool is None:
                    np.savez(lab_path, labels=labels, kind=kind)
                    save_state()
                    saved = time.monotonic()
                    say(f"phase {k}: {count}/{len(todo)} labelled")
            np.savez(lab_path, labels=labels, kind=kind)
            _close(bar)
            t1 = _cpu()
            label_cpu = t1 - t0 + state.get("worker_cpu_seconds", 0.0) - worker_cpu0
            # fit on this phase's positions and the two nearest empties counts of the phase below (the
            # phase above is not labelled yet in a fresh run; a resumed run must fit the same positions)
            near = np.nonzero((E >= lo - 2) & (E <= hi) & ~np.isnan(labels) & ~held)[0]
            idx = np.empty((len(near), OP.N_INSTANCES), np.int64)
            sc = np.empty((len(near), OP.N_SCALARS))
            features_batch(Ps[near], Os[near], idx, sc)
            idx = canon[idx]
            y = labels[near]
            if prior is not None:  # the residual of the prior's phase-k weights: the ridge pulls towards them
                y = y - (prior[k][:OP.N_PATTERN_WEIGHTS][idx].sum(axis=1) + sc @ prior[k][OP.N_PATTERN_WEIGHTS:])
            ridge, validation = choose_ridge(idx, sc, y, G[near], args, prior is not None)
            if ridge is None:  # nothing in the grid beat the prior on the validation games: the prior stays
                w, mae = np.zeros(OP.PHASE_STRIDE), float(np.abs(y).mean())
            else:
                w, mae = fit_phase(idx, sc, y, ridge=ridge, iterations=args.iterations)
            if prior is not None:
                w = w + prior[k]
            weights[k] = OP.symmetrize(w[None, :])[0]
            done.append(k)
            np.savez(w_path, weights=weights, done=np.array(done, np.int64))
            # held-out error of this phase against its labels (and of --compare-weights on the same)
            test = members[held[members] & ~np.isnan(labels[members])]
            params = OP.params_from_weights(weights)
            err = float(np.abs(predict(params, Ps[test], Os[test]) - labels[test]).mean()) if len(test) else float("nan")
            entry = {"empties": [lo, hi], "labels": "exact" if exact else f"{depth_name(args.depth)} search",
                     "train_positions": int(len(near)), "train_mae": round(mae, 3),
                     "held_out_positions": int(len(test)), "held_out_mae": round(err, 3),
                     "label_cpu_s": round(label_cpu, 1), "fit_cpu_s": round(_cpu() - t1, 1),
                     "ridge": "prior kept" if ridge is None else ridge}
            if validation:
                entry["validation_mae"] = validation
            if compare is not None and len(test):
                entry["compare_held_out_mae"] = round(float(np.abs(predict(compare, Ps[test], Os[test])
                                                                   - labels[test]).mean()), 3)
            history[str(k)] = entry
            save_state()
            say(f"phase {k} (empties {lo}-{hi}): {len(todo)} labelled in {label_cpu:.0f} CPU s, fit on {len(near)} "
                f"(train MAE {mae:.2f}), held-out MAE {err:.2f} on {len(test)}"
                + (f" ({args.compare_weights}: {entry['compare_held_out_mae']:.2f})" if "compare_held_out_mae" in entry
                   else ""))
    finally:
        if pool is not None:
            pool.terminate()
    state["cpu_seconds"] = state["cpu_seconds"] + _cpu() - cpu0
    cpu0 = _cpu()
    save_state()
    _plot(out / "loss.png", history)
    sidecar = {
        "how": ("engines/learn/othello/train.py: ridge least squares (conjugate gradient, numpy) per phase"
                + (f" towards the weights of {args.prior_weights} (the phases up to {args.keep_prior_up_to} empties "
                   "kept as they are)" if args.prior_weights else "")
                + (" (each phase's ridge chosen on validation games among " + ", ".join(f"{r:g}" for r in args.ridge_grid)
                   + (" and the prior itself" if args.prior_weights else "") + ")" if args.ridge_grid else "")
                + f", labels from the end backwards: exact solves up to {args.exact} empties, then {depth_name(args.depth)} "
                + ("alpha-beta" if args.label_search == "negamax" else
                   "PVS (the player's searcher, incremental evaluation)")
                + " with the weights of the later phases"),
        "from": (f"{args.games} self-play games (seed {args.seed}; the first 0..{args.random_opening} moves random, "
                 f"then {args.epsilon:.0%} random moves, else one-ply choices of the strong evaluation"
                 + (f" or, in {args.pattern_share:.0%} of the games, of the pattern weights {args.self_play_weights}"
                    if args.self_play_weights else "") + f"), {len(Ps)} distinct positions, "
                 "games with index % 10 == 9 held out"),
        "when": time.strftime("%Y-%m-%d"),
        "positions": int(np.count_nonzero(~np.isnan(labels))),
        "cpu_hours": round(state["cpu_seconds_total"] / 3600.0, 3),
        "held_out": {k: _held_out_entry(v, k, args) for k, v in sorted(history.items(), key=lambda x: int(x[0]))},
        "settings": {k: v for k, v in vars(args).items() if k not in ("quiet",)},
    }
    if args.weights_out:
        OP.save_weights(args.weights_out, weights, sidecar)
        OP.load_weights(args.weights_out)  # what was written can be read back
        say(f"wrote {args.weights_out} and its sidecar")
    return sidecar


def _held_out_entry(v: dict, k: str, args) -> dict:
    """The sidecar's held-out entry of phase k (a phase kept from --prior-weights: that file's own)."""
    if v["held_out_mae"] is None and args.prior_weights:
        prior_sidecar = OP.read_sidecar(args.prior_weights)
        entry = dict(prior_sidecar["held_out"].get(OP.sidecar_phase(prior_sidecar, int(k)), {}))
        entry["empties"] = v["empties"]
        entry["labels"] = f"kept from {args.prior_weights}: " + str(entry.get("labels", ""))
        return entry
    entry = {"empties": v["empties"], "labels": v["labels"], "positions": v["held_out_positions"],
             "mean_abs_disc_error": v["held_out_mae"]}
    if "compare_held_out_mae" in v:
        entry["compare_mean_abs_disc_error"] = v["compare_held_out_mae"]
    return entry


def _plot(path, history):
    try:
        from engines.learn.plots import _pyplot
        plt = _pyplot()
    except ImportError:  # pragma: no cover
        return
    ks = sorted(int(k) for k in history)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    def values(key):
        return [np.nan if history[str(k)][key] is None else history[str(k)][key] for k in ks]
    ax.plot(ks, values("train_mae"), "o-", label="training")
    ax.plot(ks, values("held_out_mae"), "s-", label="held out")
    ax.set_xlabel("phase (empties 2k..2k+1)")
    ax.set_ylabel("mean absolute error (discs)")
    ax.set_title("Othello pattern evaluation: error against the labels")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def parser():
    p = argparse.ArgumentParser(prog="python -m engines.learn.othello.train", description=__doc__.splitlines()[0])
    p.add_argument("--out", default="runs/othello_patterns", help="checkpoint folder (resumes from it)")
    p.add_argument("--weights-out", default=str(OP.SHIPPED), help="the weights file to write ('' for none)")
    p.add_argument("--games", type=int, default=6000, help="self-play games")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--random-opening", type=int, default=20, help="at most this many random opening moves")
    p.add_argument("--epsilon", type=float, default=0.1, help="share of random moves after the opening")
    p.add_argument("--self-play-weights", default="", help="a patterns .npz whose evaluation plays the games")
    p.add_argument("--pattern-share", type=float, default=0.5,
                   help="share of the games the --self-play-weights play (the strong evaluation the others)")
    p.add_argument("--extra-cpu-seconds", type=float, default=0.0,
                   help="CPU seconds spent before this run that the weights owe (default: the cpu_hours of the "
                   "--self-play-weights sidecar)")
    p.add_argument("--exact", type=int, default=15, help="solve exactly up to this many empties")
    p.add_argument("--depth", type=int, nargs="+", default=[4],
                   help="search depth of the labels above --exact; several: the label is the mean of those searches")
    p.add_argument("--per-phase", type=int, default=0, help="label at most this many positions a phase (0: all)")
    p.add_argument("--label-search", choices=("negamax", "pvs"), default="negamax",
                   help="the search of the labels above --exact: this module's alpha-beta, or the player's PVS")
    p.add_argument("--workers", type=int, default=1, help="label in this many spawned processes (1: this one)")
    p.add_argument("--nice", type=int, default=19, help="the niceness of the workers")
    p.add_argument("--prior-weights", default="",
                   help="a patterns .npz: every phase starts from it and the ridge pulls towards it")
    p.add_argument("--keep-prior-up-to", type=int, default=-1,
                   help="with --prior-weights, keep the phases whose empties are all <= this as they are")
    p.add_argument("--compare-weights", default="",
                   help="a patterns .npz whose held-out error on the same positions and labels is reported too")
    p.add_argument("--per-phase-exact", type=int, default=0,
                   help="label at most this many positions in a phase of exact labels (0: as --per-phase)")
    p.add_argument("--ridge", type=float, default=2.0)
    p.add_argument("--ridge-grid", type=float, nargs="*", default=[],
                   help="choose each phase's ridge among these by the error on validation games (index %% 10 == 8; "
                   "with --prior-weights the prior itself competes)")
    p.add_argument("--iterations", type=int, default=300, help="conjugate-gradient iterations a phase")
    p.add_argument("--quiet", action="store_true")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    sidecar = run(args)
    for k, v in sidecar["held_out"].items():
        print(f"phase {k:>2} empties {v['empties'][0]:>2}-{v['empties'][1]:>2}: held-out MAE "
              f"{v['mean_abs_disc_error']} discs ({v['labels']}, {v['positions']} positions)"
              + (f"; {args.compare_weights}: {v['compare_mean_abs_disc_error']}" if "compare_mean_abs_disc_error" in v
                 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
