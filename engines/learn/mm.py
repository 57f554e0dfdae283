"""Minorization-maximization for the generalized Bradley-Terry model with teams (Coulom 2007,
"Computing Elo ratings of move patterns in the game of Go"), game-free: the Go move weights
(engines/learn/go/mm.py) and the Hex move patterns (engines/learn/hex/patterns_mm.py) both fit through it.

Data.  ``Competitions``: the teams of all positions in flat arrays.  ``feats`` (rows, width) int32, each
row a candidate move's features, padded with a dummy feature (index num_features: gamma 1); ``comp``
the competition of each row; ``start`` (J + 1) the first row of each competition (rows of one
competition are contiguous); ``winner`` (J) the row of the played move; ``action`` the action of each
row; ``move`` (J) the move number of each position in its game (1 = the first move) and ``passed`` (J)
whether the played move was a pass (Go; all False elsewhere).  ``Builder(width, dummy)`` gathers them
position by position.

Fit.  Features are updated group by group (``groups``: ranges of feature indices such that no team
holds two features of one group, so a group's simultaneous update is an exact MM step): gamma_i <-
(W_i + a) / (sum_j C_ij / E_j + 2a / (gamma_i + 1)), where W_i is the number of wins of i, E_j the total
strength of competition j, C_ij the strength of i's team-mates in competition j (summed over i's teams
there), and a = ``prior`` virtual wins and a virtual losses against an opponent of gamma 1 (a feature
never seen stays at 1).  One iteration updates every group once; after each one the log-likelihood per
position (training and held-out) and the held-out top-1 rate are recorded (ties in the top strength
share the hit: a uniform policy scores 1/candidates).
"""
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

MIN_GAMMA, MAX_GAMMA = 1e-6, 1e6


@dataclass
class Competitions:
    feats: np.ndarray
    comp: np.ndarray
    start: np.ndarray
    winner: np.ndarray
    action: np.ndarray
    move: np.ndarray
    passed: np.ndarray
    games: int = 0
    sizes: dict = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.winner)


class Builder:
    """Competitions gathered position by position (rows ``width`` features wide, padded with ``dummy``)."""

    def __init__(self, width: int, dummy: int):
        self.width, self.dummy = width, dummy
        self.feats, self.action, self.counts, self.winner, self.move, self.passed = [], [], [], [], [], []
        self.rows = 0
        self.games = 0
        self.sizes = {}

    def add(self, feats, nfeat, played, move=0, passed=False) -> bool:
        """A position from per-action feature rows: the actions with nfeat >= 0 are the candidates,
        each with its first nfeat features; False (nothing added) when ``played`` is none of them."""
        legal = np.nonzero(nfeat >= 0)[0]
        f = feats[legal].copy()
        f[np.arange(self.width)[None, :] >= nfeat[legal][:, None]] = self.dummy
        return self.add_rows(f, legal, played, move, passed)

    def add_rows(self, feats, actions, played, move=0, passed=False) -> bool:
        """A position from its candidates' rows (``feats`` (k, width), padded with the dummy) and their
        actions; False (nothing added) when ``played`` is none of them."""
        where = np.nonzero(np.asarray(actions) == played)[0]
        if len(where) == 0:
            return False
        self.feats.append(np.asarray(feats, dtype=np.int32))
        self.action.append(np.asarray(actions).astype(np.int32))
        self.counts.append(len(actions))
        self.winner.append(self.rows + int(where[0]))
        self.move.append(move)
        self.passed.append(passed)
        self.rows += len(actions)
        return True

    def build(self) -> Competitions:
        counts = np.array(self.counts, dtype=np.int64)
        start = np.zeros(len(counts) + 1, dtype=np.int64)
        np.cumsum(counts, out=start[1:])
        feats = np.concatenate(self.feats) if self.feats else np.zeros((0, self.width), np.int32)
        return Competitions(feats=np.ascontiguousarray(feats, dtype=np.int32),
                            comp=np.repeat(np.arange(len(counts), dtype=np.int64), counts),
                            start=start, winner=np.array(self.winner, dtype=np.int64),
                            action=np.concatenate(self.action) if self.action else np.zeros(0, np.int32),
                            move=np.array(self.move, dtype=np.int64), passed=np.array(self.passed, dtype=bool),
                            games=self.games, sizes=dict(self.sizes))


# ---- the model -----------------------------------------------------------------------------------
def _log_gammas(gammas):
    lg = np.zeros(len(gammas) + 1)
    lg[:-1] = np.log(gammas)
    return lg  # last entry: the dummy feature


def strengths(c: Competitions, gammas) -> np.ndarray:
    """The strength (product of gammas) of every row."""
    return np.exp(_log_gammas(gammas)[c.feats].sum(axis=1))


def log_likelihood(c: Competitions, gammas) -> float:
    """Mean log-probability of the played moves (per competition)."""
    if c.count == 0:
        return float("nan")
    lg = _log_gammas(gammas)
    logs = lg[c.feats].sum(axis=1)
    m = np.maximum.reduceat(logs, c.start[:-1])
    log_e = m + np.log(np.add.reduceat(np.exp(logs - m[c.comp]), c.start[:-1]))
    return float(np.mean(logs[c.winner] - log_e))


def top1_hits(c: Competitions, gammas) -> np.ndarray:
    """Per competition: 1 when the played move alone has the top strength, 1/k when it ties with
    k - 1 others, else 0."""
    logs = _log_gammas(gammas)[c.feats].sum(axis=1)
    m = np.maximum.reduceat(logs, c.start[:-1])
    best = logs >= m[c.comp] - 1e-9
    ties = np.add.reduceat(best.astype(np.int64), c.start[:-1])
    return best[c.winner] / ties


def top1(c: Competitions, gammas) -> float:
    """Share of competitions whose played move has the top strength (ties share the hit)."""
    if c.count == 0:
        return float("nan")
    return float(np.mean(top1_hits(c, gammas)))


def group_rows(c: Competitions, groups):
    """For each group: (rows, feature) of the rows having a feature of the group; ValueError when a
    row has two features of one group."""
    out = []
    for lo, hi in groups:
        inside = (c.feats >= lo) & (c.feats < hi)
        per_row = inside.sum(axis=1)
        if np.any(per_row > 1):
            raise ValueError(f"a team has two features of the group {lo}..{hi - 1}")
        rows, cols = np.nonzero(inside)
        out.append((rows, c.feats[rows, cols].astype(np.int64)))
    return out


@dataclass
class Fit:
    gammas: np.ndarray
    history: list  # one dict per iteration: iteration, train_loglik, heldout_loglik, heldout_top1, cpu


def fit(c: Competitions, num_features: int, groups, iterations: int = 30, prior: float = 1.0,
        heldout: Competitions | None = None, tol: float = 1e-7, log=None) -> Fit:
    """Coulom's MM (see the module docstring); stops after ``iterations`` or when the training
    log-likelihood per position improves by less than ``tol``.  ``log(dict)`` is called after each
    iteration."""
    gammas = np.ones(num_features)
    wins = np.bincount(c.feats[c.winner].ravel(), minlength=num_features + 1)[:num_features].astype(np.float64)
    rows_of = group_rows(c, groups)
    history = []
    cpu0 = time.process_time()
    previous = -math.inf
    for it in range(1, iterations + 1):
        for (lo, hi), (rows, feat) in zip(groups, rows_of):
            s = strengths(c, gammas)
            e = np.bincount(c.comp, weights=s, minlength=c.count)
            cij = np.bincount(feat, weights=s[rows] / gammas[feat] / e[c.comp[rows]], minlength=num_features)
            g = gammas[lo:hi]
            new = (wins[lo:hi] + prior) / (cij[lo:hi] + 2.0 * prior / (g + 1.0))
            gammas[lo:hi] = np.clip(new, MIN_GAMMA, MAX_GAMMA)
        ll = log_likelihood(c, gammas)
        entry = {"iteration": it, "train_loglik": ll, "cpu": time.process_time() - cpu0}
        if heldout is not None:
            entry["heldout_loglik"] = log_likelihood(heldout, gammas)
            entry["heldout_top1"] = top1(heldout, gammas)
        history.append(entry)
        if log is not None:
            log(entry)
        if ll - previous < tol:
            break
        previous = ll
    return Fit(gammas=gammas, history=history)


# ---- files ---------------------------------------------------------------------------------------
def split_records(paths, every: int):
    """(train, held-out): every ``every``-th record of the sorted paths is held out (none when 0)."""
    paths = sorted(Path(p) for p in paths)
    if every <= 0:
        return paths, []
    held = [p for i, p in enumerate(paths) if i % every == every - 1]
    return [p for p in paths if p not in set(held)], held


def record_paths(dirs) -> list[Path]:
    out = []
    for d in dirs:
        d = Path(d)
        out.extend(sorted(d.glob("*.sgf")) if d.is_dir() else [d])
    return out


def plot_history(path, history, title="MM") -> Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    its = [h["iteration"] for h in history]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(its, [h["train_loglik"] for h in history], label="train log-likelihood / move")
    handles = []
    if "heldout_loglik" in history[0]:
        ax.plot(its, [h["heldout_loglik"] for h in history], label="held-out log-likelihood / move")
        ax2 = ax.twinx()
        handles = ax2.plot(its, [h["heldout_top1"] for h in history], "g--", label="held-out top-1 (right)")
        ax2.set_ylabel("held-out top-1", color="g")
    ax.set_xlabel("MM iteration")
    ax.set_ylabel("log-likelihood per move")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(handles=ax.get_lines() + handles, loc="center right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return Path(path)
