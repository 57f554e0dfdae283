"""Figures of the OTP engine (plies-otp) -> bench/results/otp.{md,json}.

    python -m bench.othello_otp latency [--games 10] [--time 8]     genmove latency seen by the local judge
    python -m bench.othello_otp spiel [--games 40] [--time 1]       default against OpenSpiel's C++ MCTS bot
    python -m bench.othello_otp algos [--games 20] [--time 1]       default against --algo uct and --algo ucb
    python -m bench.othello_otp endgame [--positions 5]             exact solve time by number of empties

Each figure is merged into bench/results/otp.json (one key per figure) and otp.md is rewritten from it.
Matches alternate colours and report both sides' measured time per move (perf_counter around each choice).
"""
import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results"


def _game():
    from engines.games import make_game
    return make_game("othello", size=8)


def play_players(algo_a: str, algo_b: str, games: int, move_time: float, seed: int = 0, progress=None) -> dict:
    """algo_a against algo_b (the Othello player with plies-otp's settings, in process), colours alternating."""
    from adapters.otp import OtpSettings
    from engines.players.othello import make_player as Player
    game = _game()
    wins = losses = draws = 0
    times = {"a": [], "b": []}
    for i in range(games):
        a_colour = i % 2
        players = {a_colour: ("a", Player(OtpSettings(algo=algo_a, seed=seed + i))),
                   1 - a_colour: ("b", Player(OtpSettings(algo=algo_b, seed=seed + i)))}
        state = game.initial_state()
        while not game.is_terminal(state):
            side, player = players[game.to_move(state)]
            start = time.perf_counter()
            move = player.choose(state, move_time, start)
            times[side].append(time.perf_counter() - start)
            state = game.play(state, move)
            for _, p in players.values():
                p.played(move)
        r = game.returns(state)[a_colour]
        wins += r == 1.0
        losses += r == 0.0
        draws += r == 0.5
        print(f"{algo_a} vs {algo_b} game {i + 1}: W{wins} L{losses} D{draws}", file=sys.stderr, flush=True)
        if progress:
            progress(_tally(algo_a, algo_b, i + 1, wins, losses, draws, move_time, times))
    return _tally(algo_a, algo_b, games, wins, losses, draws, move_time, times)


def _tally(algo_a, algo_b, games, wins, losses, draws, move_time, times):
    from bench.strength import wilson
    rate = (wins + 0.5 * draws) / games
    return {"a": algo_a, "b": algo_b, "games": games, "wins": wins, "losses": losses, "draws": draws,
            "win_rate": rate, "ci95": list(wilson(rate, games)), "move_time": move_time,
            "a_s_per_move": statistics.mean(times["a"]), "b_s_per_move": statistics.mean(times["b"]),
            "a_max_s": max(times["a"]), "b_max_s": max(times["b"])}


def play_spiel(games: int, move_time: float, seed: int = 0, progress=None) -> dict:
    """The default player against OpenSpiel's C++ MCTS bot (UCT, random rollouts, solve=True, its
    own wall-clock limit = move_time), colours alternating, rules checked equal after every move."""
    from adapters.otp import OtpSettings
    from engines.players.othello import make_player as Player
    from bench import openspiel_ref as ref
    game, sgame = ref.match_games("othello8")
    wins = losses = draws = 0
    times = {"a": [], "b": []}
    for i in range(games):
        ours = i % 2
        player = Player(OtpSettings(seed=seed + i))
        bot = ref.bot(sgame, seed + i, move_time=move_time, solve=True)
        state = ref.play_against_bot(game, sgame, bot, ours,
                                     lambda state, start: player.choose(state, move_time, start), player.played, times)
        r = game.returns(state)[ours]
        wins += r == 1.0
        losses += r == 0.0
        draws += r == 0.5
        print(f"default vs openspiel game {i + 1}: W{wins} L{losses} D{draws}", file=sys.stderr, flush=True)
        if progress:
            progress(_tally("default", "openspiel_mcts", i + 1, wins, losses, draws, move_time, times))
    return _tally("default", "openspiel_mcts", games, wins, losses, draws, move_time, times)


def endgame(positions: int = 5, max_empties: int = 24, limit: float = 1.0, seed: int = 0, progress=None) -> dict:
    """Exact solve time (engines.knowledge.othello.registered.solve_endgame) by number of empties, on positions
    reached by random play; stops at the first size whose median exceeds limit."""
    from engines.knowledge.othello.registered import solve_endgame
    game = _game()
    rows, largest = [], 0
    for empties in range(10, max_empties + 1):
        times, nodes = [], []
        for k in range(positions):
            state = _random_position(game, empties, seed + 1000 * empties + k)
            start = time.perf_counter()
            solved = solve_endgame(state)
            times.append(time.perf_counter() - start)
            nodes.append(solved.nodes)
        row = {"empties": empties, "median_s": statistics.median(times), "max_s": max(times),
               "median_nodes": int(statistics.median(nodes)), "positions": positions}
        rows.append(row)
        print(row, file=sys.stderr, flush=True)
        if row["median_s"] <= limit:
            largest = empties
        else:
            break
        if progress:
            progress({"rows": rows, "largest_within_limit": largest, "limit_s": limit})
    return {"rows": rows, "largest_within_limit": largest, "limit_s": limit}


def _random_position(game, empties, seed):
    rng = np.random.default_rng(seed)
    while True:
        s = game.initial_state()
        while not game.is_terminal(s):
            if int((game.cells(s) == 0).sum()) == empties and not game.must_pass(s):
                return s
            moves = game.legal_moves(s)
            s = game.play(s, int(moves[rng.integers(len(moves))]))


def latency(games: int, move_time: float | None, progress=None) -> dict:
    """plies-otp (default player, default budget unless move_time) against the random engine through
    the local judge, colours alternating: every genmove latency the judge measured."""
    from standins.otp_judge import run_match
    engine = [sys.executable, "-m", "adapters.otp"] + ([] if move_time is None else ["--time", str(move_time)])
    seen, results, forfeits = [], [], 0
    for i in range(games):
        report = run_match([engine, [sys.executable, "-m", "standins.otp_random", "--seed", str(i)]], rounds=1) \
            if i % 2 == 0 else \
            run_match([[sys.executable, "-m", "standins.otp_random", "--seed", str(i)], engine], rounds=1)
        ours = 0 if i % 2 == 0 else 1
        seen += report["latency"][ours]
        results.append(report["rounds"][0]["results"][ours])
        forfeits += ours in report["forfeits"]
        print(f"latency game {i + 1}: {results[-1]}", file=sys.stderr, flush=True)
        out = {"games": i + 1, "genmoves": len(seen), "median_s": statistics.median(seen), "max_s": max(seen),
               "results": results, "our_forfeits": forfeits, "move_time": move_time or "default"}
        if progress:
            progress(out)
    return out


# ---- results files ---------------------------------------------------------------------------------

def _stored() -> dict:
    path = RESULTS / "otp.json"
    return json.loads(path.read_text()) if path.exists() else {}


def save(key: str, value) -> None:
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "otp.json"
    data = _stored()
    data[key] = value
    data.setdefault("machine", {})[key] = {"when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                           "python": platform.python_version(), "cpus": __import__("os").cpu_count()}
    path.write_text(json.dumps(data, indent=1))
    (RESULTS / "otp.md").write_text(markdown(data))


def markdown(data) -> str:
    out = ["# plies-otp figures", "", "Written by `python -m bench.othello_otp ...` (see bench/othello_otp.py).", ""]
    if "latency" in data:
        d = data["latency"]
        out += ["## genmove latency seen by the local judge", "",
                f"`python -m bench.othello_otp latency --games {d['games']}`: {d['games']} games against the random engine, "
                f"{d['genmoves']} genmoves, budget {d['move_time']}: median {d['median_s']:.3f} s, max {d['max_s']:.3f} s; "
                f"our forfeits {d['our_forfeits']}; results {d['results']}", ""]
    for key, title in (("spiel", "default against OpenSpiel's C++ MCTS bot"), ("uct", "default against --algo uct"),
                       ("ucb", "default against --algo ucb")):
        if key in data:
            d = data[key]
            cmd = f"spiel --games {d['games']}" if key == "spiel" else f"algos --opponents {key} --games {d['games']}"
            out += [f"## {title}", "", f"`python -m bench.othello_otp {cmd} --time {d['move_time']}`: "
                    f"{d['games']} games, W{d['wins']} L{d['losses']} D{d['draws']}, win rate {d['win_rate']:.3f} "
                    f"(95% CI {d['ci95'][0]:.2f}-{d['ci95'][1]:.2f}); time per move: ours {d['a_s_per_move']:.3f} s "
                    f"(max {d['a_max_s']:.3f}), theirs {d['b_s_per_move']:.3f} s (max {d['b_max_s']:.3f})", ""]
    if "endgame" in data:
        d = data["endgame"]
        out += ["## exact endgame solve", "", f"`python -m bench.othello_otp endgame`: largest number of empties "
                f"solved with a median within {d['limit_s']} s: **{d['largest_within_limit']}**", "",
                "| empties | positions | median s | max s | median nodes |", "|---|---|---|---|---|"]
        out += [f"| {r['empties']} | {r['positions']} | {r['median_s']:.3f} | {r['max_s']:.3f} | {r['median_nodes']} |"
                for r in d["rows"]]
        out.append("")
    return "\n".join(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.othello_otp")
    parser.add_argument("figure", choices=("latency", "spiel", "algos", "endgame"))
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--time", type=float, default=None, help="seconds per move (latency: default budget)")
    parser.add_argument("--opponents", default="uct,ucb")
    parser.add_argument("--positions", type=int, default=5)
    args = parser.parse_args(argv)
    if args.figure == "latency":
        kept = _stored().get("latency", {})  # a shorter new run does not replace a longer one (an equal one does)
        latency(args.games or 10, args.time,
                progress=lambda d: save("latency", d) if d["games"] >= kept.get("games", 0) or
                d["move_time"] != kept.get("move_time") else None)
    elif args.figure == "spiel":
        play_spiel(args.games or 40, args.time or 1.0, progress=lambda d: save("spiel", d))
    elif args.figure == "algos":
        for algo in args.opponents.split(","):
            play_players("default", algo, args.games or 20, args.time or 1.0, progress=lambda d, a=algo: save(a, d))
    else:
        save("endgame", endgame(args.positions, progress=lambda d: save("endgame", d)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
