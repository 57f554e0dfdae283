"""The Othello pattern training's deep labels (engines/learn/othello/train.py, issue 35 item 2): the
player's PVS as the label search, the fit towards prior weights, the phases kept from them, the
comparison on the same held-out labels, the resumed run and the CPU hours it owes; and
probcut_fit's rows for weights that are not shipped."""
import json

import numpy as np
import pytest

from engines.games.othello import Othello
from engines.knowledge.othello import patterns as OP
from engines.learn.othello import probcut_fit
from engines.learn.othello import train as T
from engines.search import make_searcher

GAME = Othello(8)


def symmetric_weights(seed, scale=3.0):
    w = np.random.default_rng(seed).normal(scale=scale, size=(OP.N_PHASES, OP.PHASE_STRIDE))
    return OP.quantize(OP.symmetrize(w))


def write_weights(path, weights, cpu_hours=0.5):
    held = {str(k): {"empties": list(OP.phase_empties(k)), "labels": "made up", "positions": 7,
                     "mean_abs_disc_error": 1.0 + k} for k in range(OP.N_PHASES)}
    OP.save_weights(path, weights, {"how": "a test", "from": "random numbers", "when": "today", "positions": 1,
                                    "cpu_hours": cpu_hours, "held_out": held})
    return path


def midgame_positions(count, seed, lo=40, hi=54):
    Ps, Os, _ = T.generate(40, seed, 30, 0.3)
    E = T.empties_of(Ps, Os)
    keep = np.nonzero((E >= lo) & (E <= hi))[0][:count]
    return Ps[keep], Os[keep]


def test_the_pvs_label_is_the_plain_alpha_beta_value():
    """The player's searcher (PVS, table, incremental evaluation; the mover put on black) values a
    position as the training's own alpha-beta does at the same depth (no pass within 3 plies of these
    early positions): a colour or sign slip, or the wrong weights, would show."""
    weights = symmetric_weights(1)
    params = OP.params_from_weights(weights)
    searcher = make_searcher("alphabeta", GAME, {"tt_size": 1 << 12}, OP.knowledge_of_params(params))
    nodes = np.zeros(1, np.int64)
    Ps, Os = midgame_positions(25, 2)
    assert len(Ps) == 25
    values = []
    for P, O in zip(Ps, Os):
        want = T.negamax(P, O, 3, -1e9, 1e9, 0, params, nodes)
        assert T.pvs_value(GAME, searcher, int(P), int(O), 3) == pytest.approx(want, abs=1e-9)
        values.append(want)
    assert len(set(np.round(values, 3))) > 5  # not a constant


def test_a_label_job_reads_the_checkpoint_weights(tmp_path):
    """A worker's job searches with the weights of the checkpoint it names (a new version: reread)."""
    Ps, Os = midgame_positions(6, 3)
    results = []
    for seed in (4, 5):
        path = tmp_path / f"w{seed}.npz"
        np.savez(path, weights=symmetric_weights(seed), done=np.zeros(0, np.int64))
        start, vals, cpu = T.label_job(("pvs", str(path), seed, (2,), 12, Ps, Os))
        assert start == 12 and cpu >= 0.0
        params = OP.params_from_weights(symmetric_weights(seed))
        nodes = np.zeros(1, np.int64)
        assert vals == pytest.approx([T.negamax(P, O, 2, -1e9, 1e9, 0, params, nodes) for P, O in zip(Ps, Os)])
        results.append(vals)
    assert not np.allclose(results[0], results[1])


@pytest.mark.parametrize("how", ["negamax", "pvs"])
def test_a_label_of_several_depths_is_the_mean_of_their_searches(tmp_path, how):
    """``--depth 2 3``: each label is the mean of the depth-2 and depth-3 values (the two parities' biases
    of the side to move cancel); a label of one of them only, or their sum, would show."""
    Ps, Os = midgame_positions(8, 6)
    path = tmp_path / "w.npz"
    np.savez(path, weights=symmetric_weights(7), done=np.zeros(0, np.int64))
    params = OP.params_from_weights(symmetric_weights(7))
    nodes = np.zeros(1, np.int64)
    by_depth = {d: np.array([T.negamax(P, O, d, -1e9, 1e9, 0, params, nodes) for P, O in zip(Ps, Os)]) for d in (2, 3)}
    assert np.abs(by_depth[2] - by_depth[3]).min() > 1e-6  # the two depths differ on every position
    _, vals, _ = T.label_job((how, str(path), 1, (2, 3), 0, Ps, Os))
    assert vals == pytest.approx((by_depth[2] + by_depth[3]) / 2)
    assert T.depth_name((2, 3)) == "mean of depth-2 and depth-3" and T.depth_name([4]) == "depth-4"


def test_the_fit_towards_prior_weights_keeps_what_the_data_does_not_reach():
    """With labels that the prior predicts exactly, the residual fit changes nothing; entries no
    position touches stay the prior's whatever the labels."""
    prior = symmetric_weights(6)
    Ps, Os = midgame_positions(200, 7, 40, 43)
    idx = np.empty((len(Ps), OP.N_INSTANCES), np.int64)
    sc = np.empty((len(Ps), OP.N_SCALARS))
    T.features_batch(Ps, Os, idx, sc)
    idx = T.canonical_positions()[idx]
    k = 10
    prior_pred = prior[k][:OP.N_PATTERN_WEIGHTS][idx].sum(axis=1) + sc @ prior[k][OP.N_PATTERN_WEIGHTS:]
    delta, _ = T.fit_phase(idx, sc, prior_pred - prior_pred, ridge=2.0, iterations=50)
    assert np.abs(delta).max() == 0.0
    delta, mae = T.fit_phase(idx, sc, np.full(len(Ps), 5.0) - prior_pred, ridge=2.0, iterations=50)
    untouched = np.setdiff1d(np.arange(OP.N_PATTERN_WEIGHTS), idx.reshape(-1))
    assert untouched.size > 0 and np.abs(delta[untouched]).max() == 0.0
    assert np.abs(delta).max() > 0.1


def run_args(tmp_path, prior, **extra):
    argv = ["--out", str(tmp_path / "run"), "--weights-out", str(tmp_path / "new.npz"), "--games", "12",
            "--seed", "3", "--random-opening", "20", "--epsilon", "0.3", "--exact", "7", "--depth", "2",
            "--label-search", "pvs", "--per-phase", "25", "--iterations", "5", "--prior-weights", str(prior),
            "--keep-prior-up-to", "3", "--compare-weights", str(prior), "--quiet"]
    for key, value in extra.items():
        argv += [f"--{key.replace('_', '-')}", str(value)]
    return T.parser().parse_args(argv)


def test_a_run_with_prior_weights_keeps_fits_compares_and_resumes(tmp_path):
    prior = write_weights(tmp_path / "prior.npz", symmetric_weights(8), cpu_hours=0.5)
    sidecar = T.run(run_args(tmp_path, prior))
    new = OP.load_weights(tmp_path / "new.npz")
    old = OP.load_weights(prior)
    assert np.array_equal(new[0], old[0]) and np.array_equal(new[1], old[1])  # empties 0-1, 2-3 <= 3: kept
    assert all(not np.array_equal(new[k], old[k]) for k in range(2, OP.N_PHASES - 1))  # fitted
    held = sidecar["held_out"]
    assert held["1"]["mean_abs_disc_error"] == 2.0 and held["1"]["labels"].startswith("kept from")
    assert held["1"]["empties"] == [2, 3]
    assert held["3"]["labels"] == "exact" and held["4"]["labels"] == "depth-2 search"
    for k in range(2, OP.N_PHASES - 1):
        if held[str(k)]["positions"]:  # the prior's error on the same held-out labels
            assert held[str(k)]["compare_mean_abs_disc_error"] >= 0.0
    assert sidecar["cpu_hours"] >= 0.5  # the prior's hours are owed (and counted once: it also played)
    assert "towards the weights of" in sidecar["how"] and "PVS" in sidecar["how"]
    # a run stopped after phase 5: the rerun labels nothing again and ends with the same weights
    run = tmp_path / "run"
    with np.load(run / "labels.npz") as d:
        labels = d["labels"].copy()
    with np.load(run / "weights.npz") as d:
        np.savez(run / "weights.npz", weights=d["weights"], done=d["done"][:6])
    state = json.loads((run / "state.json").read_text())
    T.run(run_args(tmp_path, prior))
    with np.load(run / "labels.npz") as d:
        assert np.array_equal(d["labels"], labels, equal_nan=True)
    assert np.array_equal(OP.load_weights(tmp_path / "new.npz"), new)
    assert json.loads((run / "state.json").read_text())["cpu_seconds_total"] >= state["cpu_seconds_total"]


def test_knowledge_of_params_refuses_a_vector_of_another_length():
    with pytest.raises(ValueError, match="length"):
        OP.knowledge_of_params(np.zeros(OP.PARAMS_LEN - 1))


def test_probcut_fit_searches_with_the_weights_it_is_given(tmp_path):
    path = write_weights(tmp_path / "cand.npz", symmetric_weights(9))
    probcut_fit._init_worker("patterns", 3, 1, 0, str(path))
    try:
        knowledge = probcut_fit._WORKER["knowledge"]
        assert np.array_equal(knowledge.eval_params, OP.load_params(path))
        assert not np.array_equal(knowledge.eval_params, OP.load_params())
    finally:
        probcut_fit._WORKER.clear()
    with pytest.raises(SystemExit):
        probcut_fit.main(["--weights", str(path), "--fit-only"])  # no --out: the shipped rows are not overwritten


def test_the_ridge_is_chosen_on_validation_games_and_the_prior_may_stay():
    """Pure noise around the prior: no fit beats the prior on the validation games, so it stays (the
    small-data overfit this guards against: 1444 exact labels at ridge 2 raised the held-out error from
    6.8 to 8.5 discs); a real pattern in the residual: a ridge of the grid is chosen."""
    Ps, Os = midgame_positions(400, 10, 36, 47)
    games = np.arange(len(Ps)) % 10
    idx = np.empty((len(Ps), OP.N_INSTANCES), np.int64)
    sc = np.empty((len(Ps), OP.N_SCALARS))
    T.features_batch(Ps, Os, idx, sc)
    idx = T.canonical_positions()[idx]
    args = T.parser().parse_args(["--ridge-grid", "3", "30", "300", "--iterations", "30"])
    noise = np.random.default_rng(11).normal(scale=4.0, size=len(Ps))
    ridge, scores = T.choose_ridge(idx, sc, noise, games, args, True)
    assert ridge is None and scores["prior"] == min(scores.values())
    signal = 3.0 * sc[:, 2] - 2.0 * sc[:, 3]  # the residual is a mobility term the prior lacks
    ridge, scores = T.choose_ridge(idx, sc, signal, games, args, True)
    assert ridge in (3.0, 30.0, 300.0) and scores[f"{ridge}"] < scores["prior"]
    assert T.choose_ridge(idx, sc, signal, games, T.parser().parse_args([]), True) == (2.0, {})
