"""Go move weights of our own: GNU Go self-play records (engines/learn/go/games.py) and Coulom's MM fit
(engines/learn/go/mm.py).  Seeded; the GNU Go tests are skipped when GNU Go is absent, the others use
a scripted stand-in for it."""
import functools
import json
import os
import stat
import sys

import numpy as np
import pytest
from sgfmill import sgf

from engines.games.go import Go
from engines.knowledge.go import go5_weights as GW
from engines.knowledge.go.features import move_features
from engines.learn.go import games as G
from engines.learn.go import mm as M

GNUGO = "/usr/games/gnugo"
needs_gnugo = pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason=f"GNU Go is not installed at {GNUGO}")


# ---- MM on synthetic competitions ------------------------------------------------------------------
def synthetic(true, groups, competitions, teams, seed, p_member=0.7):
    """Competitions among `teams` teams; each team has, for every group, one of its features with
    probability p_member; the winner is drawn with probability strength / total."""
    rng = np.random.default_rng(seed)
    b = M._Builder()
    lg = np.log(np.append(true, 1.0))
    for _ in range(competitions):
        feats = np.full((teams, 6), M.DUMMY, dtype=np.int32)
        for t in range(teams):
            for k, (lo, hi) in enumerate(groups):
                if rng.random() < p_member:
                    feats[t, k] = rng.integers(lo, hi)
        s = np.exp(lg[np.where(feats == M.DUMMY, len(true), feats)].sum(axis=1))
        win = rng.choice(teams, p=s / s.sum())
        nfeat = np.full(teams, 6, dtype=np.int32)
        b.add(feats, nfeat, win)
    c = b.build()
    c.feats[c.feats == M.DUMMY] = len(true)  # the dummy of a feature set of len(true) features
    return c


TRUE = np.array([1.0, 3.0, 0.4, 6.0, 0.25, 1.5])
GROUPS = ((0, 3), (3, 6))


def test_mm_recovers_known_gammas():
    """Catches a wrong MM step: C_ij times E_j instead of divided, team strength not divided by the
    feature's own gamma, a stale E_j across groups, wins counted from the wrong rows."""
    c = synthetic(TRUE, GROUPS, competitions=6000, teams=6, seed=1)
    result = M.fit(c, num_features=len(TRUE), groups=GROUPS, iterations=200, prior=1.0, tol=1e-10)
    err = np.abs(np.log(result.gammas) - np.log(TRUE))
    assert err.max() < 0.12, (result.gammas, TRUE)


def test_mm_likelihood_never_decreases_and_unseen_stays_one():
    """MM's defining property, and the prior: a feature never seen stays at gamma 1 (catches a prior
    counting the virtual loss as a win, or no prior: an unseen gamma would go to 0 / nan)."""
    true = np.append(TRUE, 5.0)  # feature 6 never appears in a team
    c = synthetic(TRUE, GROUPS, competitions=800, teams=5, seed=2)
    c.feats[c.feats == len(TRUE)] = len(true)
    c.feats = np.ascontiguousarray(c.feats)
    result = M.fit(c, num_features=len(true), groups=GROUPS + ((6, 7),), iterations=30, tol=-1.0)
    lls = [h["train_loglik"] for h in result.history]
    assert all(b >= a - 1e-12 for a, b in zip(lls, lls[1:])), lls
    assert result.gammas[6] == 1.0
    assert lls[-1] > M.log_likelihood(c, np.ones(len(true))) + 0.05


def reference_iteration(teams_of, winners, gammas, groups, prior):
    """One MM iteration written from Coulom's formula with plain loops: groups in order, each
    group's E_j computed with the gammas the earlier groups have just updated."""
    gammas = list(gammas)

    def strength(team):
        out = 1.0
        for f in team:
            out *= gammas[f]
        return out

    for lo, hi in groups:
        e = [sum(strength(t) for t in teams) for teams in teams_of]
        new = {}
        for i in range(lo, hi):
            w = sum(i in teams[win] for teams, win in zip(teams_of, winners))
            c = sum(strength(t) / gammas[i] / e[j] for j, teams in enumerate(teams_of) for t in teams if i in t)
            new[i] = (w + prior) / (c + 2 * prior / (gammas[i] + 1))
        for i, g in new.items():
            gammas[i] = g
    return gammas


def test_one_iteration_is_coulom_update_group_after_group():
    """Catches E_j computed once per iteration instead of after each group (a Jacobi step, not MM),
    and any slip in the formula, against a plain-loop reference."""
    teams_of = [[(0, 3), (1,), (2, 4), ()], [(1, 4), (0, 3), (2,)], [(0,), (1, 3), (2, 4), (4,)]]
    winners = [0, 2, 1]
    b = M._Builder()
    for teams, win in zip(teams_of, winners):
        feats = np.full((len(teams), 6), 5, dtype=np.int32)
        for r, t in enumerate(teams):
            feats[r, :len(t)] = t
        b.add(feats, np.full(len(teams), 6, dtype=np.int32), win)
    c = b.build()
    groups = ((0, 3), (3, 5))
    result = M.fit(c, num_features=5, groups=groups, iterations=1, prior=0.5)
    assert result.gammas == pytest.approx(reference_iteration(teams_of, winners, [1.0] * 5, groups, 0.5), rel=1e-12)
    result = M.fit(c, num_features=5, groups=groups, iterations=2, prior=0.5, tol=-1.0)
    once = reference_iteration(teams_of, winners, [1.0] * 5, groups, 0.5)
    assert result.gammas == pytest.approx(reference_iteration(teams_of, winners, once, groups, 0.5), rel=1e-12)


def test_fit_refuses_a_team_with_two_features_of_one_group():
    c = synthetic(TRUE, GROUPS, competitions=5, teams=3, seed=3)
    with pytest.raises(ValueError, match="two features"):
        M.fit(c, num_features=len(TRUE), groups=((0, 6),), iterations=1)


def test_top1_shares_ties():
    """A uniform model scores 1/candidates per position (catches counting every tie as a hit)."""
    c = synthetic(TRUE, GROUPS, competitions=50, teams=4, seed=4)
    assert M.top1(c, np.ones(len(TRUE))) == pytest.approx(0.25)
    assert M.top1(c, TRUE) > 0.25


# ---- the feature set and the weights file ----------------------------------------------------------
def test_pattern_keys_cover_every_board_neighbourhood():
    """Every 3x3 neighbourhood of every point of boards 2..19 has a pattern class in our file (catches a
    key list that misses edge or corner patterns, or a wrong '#' layout)."""
    keys = M.pattern_keys()
    assert len(keys) == GW.NUM_PATTERNS == len(set(keys))
    assert all(GW.canonical(k) == k for k in keys)
    table = M.uniform_weights().table
    real = {GW.pattern_code(p) for p in M._board_neighbourhoods()}
    assert all(table[code] >= GW.NUM_BASIC for code in real)
    assert len({GW.canonical(p) for p in M._board_neighbourhoods()}) == 570  # 490 inside, 70 edge, 10 corner
    rng = np.random.default_rng(6)
    for n in (2, 3, 4, 5, 9):  # and on random positions: every legal point gets a pattern feature
        game = Go(size=n)
        for _ in range(20):
            state = game.initial_state()
            for _ in range(int(rng.integers(0, n * n))):
                legal = game.legal_moves(state)
                state = game.play(state, int(rng.choice(legal)))
                if game.is_terminal(state):
                    break
            if game.is_terminal(state):
                continue
            feats = move_features(game, state, M.uniform_weights())
            assert all(any(f >= GW.NUM_BASIC for f in fs) for a, fs in feats.items() if a != game.pass_action)


def test_written_file_loads_and_round_trips(tmp_path):
    """Catches a lossy weight format (%g), a wrong line count or key order, a weight 0 let through."""
    gammas = np.exp(np.random.default_rng(5).normal(0, 2, GW.NUM_FEATURES))
    path = tmp_path / "w.txt"
    M.write_weights(path, gammas)
    loaded = GW.load_weights(path)
    assert np.array_equal(loaded.weights, gammas)
    assert loaded.names == M.feature_names()
    assert M.weights_text(loaded.weights) == path.read_text()
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        g = gammas.copy()
        g[30] = bad
        with pytest.raises(ValueError):
            M.weights_text(g)


# ---- records --------------------------------------------------------------------------------------
RECORD = b"(;FF[4]GM[1]SZ[5]KM[7]GC[generator=gnugo level=1 seed=9 random=2 cpu=0.1];B[cc];W[bc];B[cb];W[dc]" \
         b";B[bb];W[cd];B[ac];W[dd];B[bd];W[];B[ce])"


def test_recorded_moves_agree_with_compute_features():
    """Each competition is exactly move_features of the position, replayed independently, with the
    recorded move as winner; the 2 random opening moves are skipped.  Catches an SGF row flip (the
    winner would be another point), a padding slot taken as a feature, a wrong skip count."""
    record = sgf.Sgf_game.from_bytes(RECORD)
    weights = M.uniform_weights()
    c = M.competitions_of_records([record], weights.table)
    game = Go(size=5, komi=7)
    state = game.initial_state()
    expected_moves = []
    for node in record.get_main_sequence()[1:]:
        colour, point = node.get_move()
        a = game.pass_action if point is None else game.action(4 - point[0], point[1])  # sgfmill: row 0 = bottom
        expected_moves.append((state, a))
        state = game.play(state, a)
    expected_moves = expected_moves[2:]
    assert c.count == len(expected_moves) == 9
    assert game.move_label(int(c.action[c.winner[0]])) == "c4"  # B[cb]: the first move after the 2 random ones
    for j, (state, a) in enumerate(expected_moves):
        rows = range(c.start[j], c.start[j + 1])
        got = {int(c.action[r]): sorted(int(f) for f in c.feats[r] if f != M.DUMMY) for r in rows}
        want = {k: sorted(v) for k, v in move_features(game, state, weights).items()}
        assert got == want
        assert int(c.action[c.winner[j]]) == a


# ---- generation ------------------------------------------------------------------------------------
class PassingPlayer:
    """A scripted player: plays `script` (actions; None = resign) then passes; logs what it is told."""

    def __init__(self, seed, log, script=()):
        self.seed, self.log, self.script = seed, log, list(script)
        self.info = {"generator": "scripted", "level": 3}

    def start(self, size, komi):
        self.log.append(("start", self.seed, size, komi))
        self.size = size

    def play(self, player, action):
        self.log.append(("play", player, action))

    def genmove(self, player):
        return self.script.pop(0) if self.script else self.size * self.size  # then the pass

    def final_score(self):
        return "W+7.0"

    def close(self):
        self.log.append(("close", self.seed))


def test_generation_resumes_skipping_written_games(tmp_path):
    """Catches regenerating (overwriting) an existing record, a seed numbering that shifts on resume,
    and a temporary file left behind."""
    log = []
    factory = lambda seed: PassingPlayer(seed, log)  # noqa: E731 (jobs=1: never pickled)
    out = tmp_path / "games"
    out.mkdir()
    existing = out / G.record_name(5, 3, 11)
    existing.write_bytes(b"(;FF[4]GM[1]SZ[5])")
    written, skipped, errors = G.generate(out, factory, 3, level=3, size=5, seed=10, random_moves=0)
    assert (written, skipped, errors) == (2, 1, [])
    assert existing.read_bytes() == b"(;FF[4]GM[1]SZ[5])"
    assert [e[1] for e in log if e[0] == "start"] == [10, 12]
    assert [e[1] for e in log if e[0] == "close"] == [10, 12]
    assert sorted(p.name for p in out.iterdir()) == [G.record_name(5, 3, s) for s in (10, 11, 12)]
    record = sgf.Sgf_game.from_bytes((out / G.record_name(5, 3, 10)).read_bytes())
    assert [n.get_move() for n in record.get_main_sequence()[1:]] == [("b", None), ("w", None)]
    assert record.get_root().get("RE") == "W+7.0"
    assert G.game_info(record) == {"generator": "scripted", "level": "3", "seed": "10", "random": "0",
                                   "cpu": G.game_info(record)["cpu"]}
    assert G.generate(out, factory, 3, level=3, size=5, seed=10)[:2] == (0, 3)
    assert len([e for e in log if e[0] == "start"]) == 2


def test_random_opening_is_recorded_and_an_illegal_move_fails_the_game(tmp_path):
    """The random opening moves are told to the player and counted in GC; a move plies' rules reject
    fails the game and writes nothing (catches a record with an illegal move in it)."""
    log = []
    data = G.play_game(PassingPlayer(5, log), size=9, seed=5, random_moves=4)
    record = sgf.Sgf_game.from_bytes(data)
    k = int(G.game_info(record)["random"])
    assert k == 4  # random.Random(5).randint(0, 4)
    told = [e for e in log if e[0] == "play"]
    assert len(told) == k and [e[1] for e in told] == [i % 2 for i in range(k)]
    moves = [G.action_of_sgf_point(Go(9), n.get_move()[1]) for n in record.get_main_sequence()[1:]]
    assert moves[:k] == [e[2] for e in told] and moves[k:] == [81, 81]
    for a in moves[:k]:  # on the third line or further in
        r, c = Go(9).coords(a)
        assert 2 <= r <= 6 and 2 <= c <= 6
    bad = lambda seed: PassingPlayer(seed, [], script=[40, 40])  # noqa: E731  (the same point twice)
    written, _, errors = G.generate(tmp_path, bad, 1, size=9, seed=1, random_moves=0)
    assert written == 0 and len(errors) == 1 and "illegal" in errors[0] and list(tmp_path.iterdir()) == []


FAKE_GNUGO = """\
#!{python}
import sys
log = open({log!r}, "a")
log.write(" ".join(sys.argv[1:]) + "\\n")
genmoves = 0
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    log.write(line)
    log.flush()
    reply = ""
    if cmd[0] == "genmove":
        genmoves += 1
        reply = "E5" if genmoves == 1 else "PASS"
    elif cmd[0] == "final_score":
        reply = "B+3.0"
    print("= " + reply + "\\n", flush=True)
    if cmd[0] == "quit":
        break
"""


def test_gnugo_player_speaks_to_the_program(tmp_path):
    """The GNU Go player through a scripted program: its command line (level, seed, Chinese rules),
    the board set-up, vertices both ways (catches an 'I' column or rows counted from the top)."""
    from standins.gnugo_games import GnuGo
    log = tmp_path / "calls.log"
    program = tmp_path / "gnugo"
    program.write_text(FAKE_GNUGO.format(python=sys.executable, log=str(log)))
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    game = Go(9)
    data = G.play_game(GnuGo(7, level=5, program=str(program)), size=9, seed=7, random_moves=0, komi=6.5)
    record = sgf.Sgf_game.from_bytes(data)
    moves = [n.get_move() for n in record.get_main_sequence()[1:]]
    assert moves[0] == ("b", (4, 4)) and all(m[1] is None for m in moves[1:])
    assert record.get_root().get("RE") == "B+3.0"
    lines = log.read_text().splitlines()
    assert lines[0] == "--mode gtp --chinese-rules --level 5 --seed 7"
    assert lines[1:5] == ["version", "boardsize 9", "clear_board", "komi 6.5"]
    gnugo = GnuGo(1, program=str(program))
    gnugo.start(9, 7.0)
    try:
        gnugo.play(0, game.action(0, 8))  # top right: J9
        gnugo.play(1, game.action(8, 0))  # bottom left: A1
    finally:
        gnugo.close()
    assert log.read_text().splitlines()[-3:-1] == ["play b j9", "play w a1"]


@needs_gnugo
def test_end_to_end_fit_on_two_generated_games(tmp_path):
    """Two short GNU Go games (5x5, level 1) -> records -> MM -> a weights file load_weights reads,
    a sidecar saying how and from what, a log-likelihood above the uniform one."""
    out = tmp_path / "games"
    from standins.gnugo_games import GnuGo
    factory = functools.partial(GnuGo, level=1)
    written, _, errors = G.generate(out, factory, 2, level=1, size=5, seed=3, random_moves=2)
    assert (written, errors) == (2, [])
    for p in out.iterdir():  # every GNU Go move replays legally under plies' rules
        record = M.read_record(p)
        moves = [n.get_move() for n in record.get_main_sequence()[1:]]
        assert len(list(M.positions(record, M.uniform_weights().table, skip_random=False))) == len(moves)
    weights = tmp_path / "w.txt"
    lines = []
    sidecar = M.train([out], weights, iterations=5, holdout_every=2, log=lines.append)
    loaded = GW.load_weights(weights)
    assert np.all(loaded.weights > 0) and loaded.names == M.feature_names()
    saved = json.loads(weights.with_suffix(".json").read_text())
    assert saved == json.loads(json.dumps(sidecar))
    assert saved["from"]["games"] == 1 and saved["from"]["heldout_games"] == 1
    assert saved["from"]["positions"] > 0 and "gnugo" in saved["from"]["generator"].lower()
    assert saved["cpu_hours"]["generation"] > 0
    assert 0.0 <= saved["heldout"]["top1"] <= 1.0
    assert saved["train_loglik_per_move"] > M.log_likelihood(
        M.competitions(M.split_records(list(out.iterdir()), 2)[0], M.uniform_weights().table),
        np.ones(GW.NUM_FEATURES))
    assert len(saved["history"]) == len([line for line in lines if line.startswith("iteration")])
