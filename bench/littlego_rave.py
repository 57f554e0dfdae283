"""Little-Go: the player's RAVE search (heavy Go knowledge) against today's plain MCTS and the "strong" yardstick.

Two ways to measure, both writing bench/results/littlego_rave.md (and .json):

  host mode (the figure proper; about 1 h per 40 games on a free core):
    .venv/bin/python -m bench.littlego_rave --host --games 40 --seed lr
  Real my_player3.py processes through the local host (standins/littlego_host.py), as
  ``plies littlego match me strong`` plays: "me" at --seconds (2 s, the default budget) with
  search = mcts (before) and search = rave (after), each against "strong" (our player at
  --strong-seconds, 5 s, its search pinned to mcts so that the yardstick stays the same whatever
  the default), and rave against mcts head to head; same seeds for every match.

  quick mode (in one process, counted in simulations, deterministic; minutes):
    .venv/bin/python -m bench.littlego_rave --games 20 --sims 10000 --seed lr
  Games on the engine's "littlego" rules through adapters.littlego.choose with fixed simulation
  counts: mcts at --sims, the "strong" stand-in mcts at 2.5x --sims (the 5 s / 2 s ratio), and rave
  at --sims times rave's measured speed relative to mcts (equal CPU time; --rave-sims to override).

Win rates with their 95 % Wilson intervals; colours alternate (A black in even games).
"""
import argparse
import dataclasses
import datetime
import hashlib
import json
import os
import platform
import time
from pathlib import Path

from bench.strength import wilson

RESULTS = Path(__file__).resolve().parent / "results"
STRONG_RATIO = 2.5  # standins.littlego_host.STRONG_SECONDS / the player's default seconds


# ---- quick mode ---------------------------------------------------------------------------------
def rates(sims: int = 20000) -> dict:
    """Simulations per CPU second of each search from the empty 5x5 board and after 6 moves."""
    from adapters.littlego import LittleGoSettings, choose
    from engines.games.go import Go
    game = Go(rules="littlego")
    state = game.initial_state()
    for a in (12, 7, 17, 11, 13, 6):
        state = game.play(state, a)
    out = {}
    for search in ("mcts", "rave"):
        n = sims if search == "mcts" else sims // 4
        total = 0.0
        for s in (game.initial_state(), state):
            choose(game, s, LittleGoSettings(search=search, simulations=64), 0.0, 1)  # compiled, allocated
            t0 = time.process_time()
            choose(game, s, LittleGoSettings(search=search, simulations=n), 0.0, 1)
            total += time.process_time() - t0
        out[search] = 2 * n / total
    return out


def play_quick(black: dict, white: dict, seed: str) -> tuple[int, float]:
    """One game on the engine's littlego rules: (winner 1/2, Black's margin)."""
    from adapters.littlego import LittleGoSettings, choose
    from engines.games.go import Go
    game = Go(rules="littlego")
    state = game.initial_state()
    sides = {0: LittleGoSettings(**black), 1: LittleGoSettings(**white)}
    while not game.is_terminal(state):
        k = game.nmoves(state)
        s = int.from_bytes(hashlib.sha256(f"{seed}|{k}".encode()).digest()[:6], "little")
        action, _ = choose(game, state, sides[game.to_move(state)], 0.0, s)
        state = game.play(state, action)
    margin = game.score(state)
    return (1 if margin > 0 else 2), margin


def quick_match(a: dict, b: dict, games: int, seed: str, log=None) -> dict:
    wins = [0, 0, 0, 0]  # A as black won, A as black games, A as white won, A as white games
    for k in range(games):
        a_black = k % 2 == 0
        winner, margin = play_quick(a, b, f"{seed}.{k}") if a_black else play_quick(b, a, f"{seed}.{k}")
        won = winner == (1 if a_black else 2)
        i = 0 if a_black else 2
        wins[i] += won
        wins[i + 1] += 1
        if log:
            log(f"game {k + 1}: A {'black' if a_black else 'white'} {'wins' if won else 'loses'} (margin {margin:+g})")
    return summary(wins[0] + wins[2], games, wins)


def summary(won: int, n: int, wins) -> dict:
    low, high = wilson(won / n, n)
    return {"games": n, "wins": won, "win_rate": won / n, "ci95": [low, high], "black": wins[:2], "white": wins[2:]}


# ---- host mode ----------------------------------------------------------------------------------
def host_match(a_search: str, b_spec: str, games: int, seed: str, seconds: float, strong_seconds: float,
               jobs: int, b_search: str = "mcts") -> dict:
    from standins import littlego_host as host
    a = host.make_player("me", seconds)
    a = dataclasses.replace(a, name=f"me-{a_search}", env=a.env + (("PLIES_LITTLEGO_SEARCH", a_search),))
    if b_spec == "strong":
        b = host.make_player("me", strong_seconds)
        b = dataclasses.replace(b, name="strong", env=b.env + (("PLIES_LITTLEGO_SEARCH", "mcts"),))
    else:
        b = host.make_player("me", seconds)
        b = dataclasses.replace(b, name=f"me-{b_search}", env=b.env + (("PLIES_LITTLEGO_SEARCH", b_search),))
    result = host.run_match(a, b, games, jobs=jobs, seed=seed)
    wb, nb = result.wins(True, 1)
    ww, nw = result.wins(True, 2)
    lost = [m.verdict for g in result.games for m in g.moves if m.verdict != "ok"]
    return {**summary(wb + ww, nb + nw, [wb, nb, ww, nw]), "invalid_moves": lost}


# ---- report -------------------------------------------------------------------------------------
def report(rows: list, info: dict) -> str:
    lines = ["# Little-Go: RAVE with the heavy Go knowledge vs today's MCTS (issue 18)", "",
             f"{info['date']} - {info['machine']} - Python {info['python']} - mode: {info['mode']}", "",
             f"Command: `{info['command']}`", "", info["what"], "",
             "| A | B | games | A wins | win rate | ci95 | A as black | A as white |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['a']} | {r['b']} | {r['games']} | {r['wins']} | {r['win_rate']:.0%} | "
                     f"{r['ci95'][0]:.0%}-{r['ci95'][1]:.0%} | {r['black'][0]}/{r['black'][1]} | "
                     f"{r['white'][0]}/{r['white'][1]} |")
    if info.get("rates"):
        rt = info["rates"]
        lines += ["", f"Simulations per CPU second on 5x5 (littlego): mcts {rt['mcts']:,.0f}, rave "
                      f"{rt['rave']:,.0f} (ratio {rt['mcts'] / rt['rave']:.1f})."]
    lines += ["", info.get("verdict", ""), ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.littlego_rave", description=__doc__.split("\n")[0])
    p.add_argument("--host", action="store_true", help="real player processes through the local host")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", default="lr")
    p.add_argument("--seconds", type=float, default=2.0, help="host mode: the player's CPU budget per move")
    p.add_argument("--strong-seconds", type=float, default=5.0, help="host mode: the yardstick's budget")
    p.add_argument("--jobs", type=int, default=1, help="host mode: games at once")
    p.add_argument("--sims", type=int, default=10000, help="quick mode: mcts simulations per move")
    p.add_argument("--rave-sims", type=int, help="quick mode: rave simulations per move (default: equal CPU time)")
    p.add_argument("--skip-head-to-head", action="store_true")
    p.add_argument("--log", help="progress file")
    p.add_argument("--out", default=str(RESULTS / "littlego_rave.md"))
    args = p.parse_args(argv)
    logf = open(args.log, "a") if args.log else None

    def log(msg):
        if logf:
            print(msg, file=logf, flush=True)

    info = {"date": datetime.datetime.now().isoformat(timespec="minutes"), "machine": platform.machine(),
            "python": platform.python_version(), "mode": "host" if args.host else "quick",
            "command": "python -m bench.littlego_rave " + " ".join(argv if argv is not None else os.sys.argv[1:])}
    rows = []
    out = Path(args.out)

    def save():
        out.write_text(report(rows, info))
        out.with_suffix(".json").write_text(json.dumps({"info": info, "rows": rows}, indent=1) + "\n")

    if args.host:
        info["what"] = (f"Real my_player3.py processes through standins/littlego_host.py: me at {args.seconds:g} s CPU "
                        f"per move, 'strong' = our player at {args.strong_seconds:g} s with search = mcts.")
        plan = [("me-mcts", "strong", "mcts", "strong"), ("me-rave", "strong", "rave", "strong")]
        if not args.skip_head_to_head:
            plan.append(("me-rave", "me-mcts", "rave", "me"))
        for a_name, b_name, a_search, b_spec in plan:
            log(f"{a_name} vs {b_name}")
            r = host_match(a_search, b_spec, args.games, args.seed, args.seconds, args.strong_seconds, args.jobs)
            rows.append({"a": a_name, "b": b_name, **r})
            log(json.dumps(rows[-1]))
            save()
    else:
        rt = rates()
        info["rates"] = rt
        rave_sims = args.rave_sims or max(1, int(args.sims * rt["rave"] / rt["mcts"]))
        strong = {"search": "mcts", "simulations": int(args.sims * STRONG_RATIO)}
        mcts = {"search": "mcts", "simulations": args.sims}
        rave = {"search": "rave", "simulations": rave_sims}
        info["what"] = (f"In-process games (adapters.littlego.choose, engine littlego rules), counted in simulations: "
                        f"mcts {args.sims} sims/move, 'strong' stand-in mcts {strong['simulations']} "
                        f"({STRONG_RATIO:g}x, the 5 s / 2 s ratio), rave {rave_sims} (equal CPU time to mcts at the "
                        f"measured rates).  A proxy for the host figure: `--host` measures the real yardstick.")
        plan = [("mcts", "strong", mcts, strong), ("rave", "strong", rave, strong)]
        if not args.skip_head_to_head:
            plan.append(("rave", "mcts", rave, mcts))
        for a_name, b_name, a, b in plan:
            log(f"{a_name} vs {b_name}")
            r = quick_match(a, b, args.games, args.seed, log)
            rows.append({"a": f"{a_name} ({a['simulations']} sims)", "b": f"{b_name} ({b['simulations']} sims)", **r})
            log(json.dumps(rows[-1]))
            save()
    if len(rows) >= 2:
        before, after = rows[0], rows[1]
        info["verdict"] = (f"Against the yardstick: before {before['win_rate']:.0%} ({before['ci95'][0]:.0%}-"
                           f"{before['ci95'][1]:.0%}), after (rave) {after['win_rate']:.0%} ({after['ci95'][0]:.0%}-"
                           f"{after['ci95'][1]:.0%}).  The default search stays mcts unless a host-mode run shows "
                           f"rave at least as strong.")
    save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
