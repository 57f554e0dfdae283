"""Online Hex Tournament figures: our client (a process, `python -m adapters.oht_client`) through the
local server (standins/oht_server.py, in this process, over TLS on loopback) against a scripted
opponent.

Runs (``--only``):
  random-5 / random-7     the server's random opponent, 200 games on 5x5 and 100 on 7x7, per
                          generation (A and B); our client at ``--random-seconds`` a move
  openspiel-5 / -7        OpenSpiel's C++ MCTS bot (random rollouts, UCT c=2) at ``--spiel-seconds`` a
                          move as the server's opponent, 40 games each, our client at ``--seconds``
                          (generation A).  OpenSpiel's Hex always starts with its player 0 (joins
                          the rows); when the tournament's player 2 starts, the bot sees the board
                          transposed (a transposition keeps Hex's neighbours and swaps the two goals)
For each: games, our wins (as player 1 / as player 2), illegal moves, our thinking time per move
(median, max; from the request's arrival to the reply, in the client) and the server's measured
reply time, and the opponent's time per move.  A throwaway self-signed certificate is made with the
`cryptography` package.

    nice -n 10 .venv/bin/python -m bench.oht_match --only random-5 random-7
    nice -n 10 .venv/bin/python -m bench.oht_match --only openspiel-5 openspiel-7

Results are merged into bench/results/oht.md and .json (rewritten after each run).
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from standins import oht_server as S
from bench.strength import wilson

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
RUNS = {  # name -> (opponent, size, games, generations)
    "random-5": ("random", 5, 200, ("A", "B")),
    "random-7": ("random", 7, 100, ("A", "B")),
    "openspiel-5": ("openspiel", 5, 40, ("A",)),
    "openspiel-7": ("openspiel", 7, 40, ("A",)),
}
GAMES_PER_SERIES = 10


class SpielOpponent:
    """OpenSpiel's C++ MCTS bot, replaying the game so far into an OpenSpiel state each move."""
    name = "openspiel-mcts"

    def __init__(self, size: int, seconds: float, seed: int = 0):
        from bench import openspiel_ref
        self.game = openspiel_ref.load(f"hex{size}") if f"hex{size}" in openspiel_ref.SPECS else None
        if self.game is None:
            import pyspiel
            self.game = pyspiel.load_game(f"hex(board_size={size})")
        self.bot = openspiel_ref.bot(self.game, seed, move_time=seconds)

    def choose(self, board: S.HexBoard, player: int):
        n = board.size
        starter = board.moves[0][0] if board.moves else player
        flip = starter == 2  # OpenSpiel's player 0 starts: show it the transposed board

        def action(r, c):
            return c * n + r if flip else r * n + c

        state = self.game.new_initial_state()
        for _, r, c in board.moves:
            state.apply_action(action(r, c))
        a = self.bot.step(state)
        r, c = divmod(a, n)
        return (c, r) if flip else (r, c)


def run(name: str, generation: str, args, certs) -> dict:
    opponent_kind, size, games, _ = RUNS[name]
    games = args.games or games
    seconds = args.random_seconds if opponent_kind == "random" else args.seconds
    opponent = S.RandomOpponent(args.seed) if opponent_kind == "random" else SpielOpponent(size, args.spiel_seconds,
                                                                                          args.seed)
    series = max(1, games // GAMES_PER_SERIES)
    config = S.ServerConfig(generation=generation, sizes=(size,), series=series,
                            games=min(games, GAMES_PER_SERIES), move_timeout=600)
    server = S.Server(*certs, config, opponent, out=None, timeout=600)
    thread = threading.Thread(target=server.serve_one)
    thread.start()
    with tempfile.TemporaryDirectory() as tmp:
        record_path = Path(tmp) / "record.json"
        command = [sys.executable, "-m", "adapters.oht_client", "--generation", generation, "--port", str(server.port),
                   "--cert", str(certs[0]), "--time", str(seconds), "--network", args.network, "--mode", args.mode,
                   "--log", str(Path(tmp) / "games.log"), "--record", str(record_path), "--quiet",
                   "--username", "bench", "--timeout", "600"]
        env = dict(os.environ, PLIES_OHT_PASSWORD="bench", IT3105_AUTH="bench")
        t0 = time.perf_counter()
        client = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        minutes = (time.perf_counter() - t0) / 60
        thread.join(600)
        server.close()
        record = json.loads(record_path.read_text()) if record_path.exists() else {}
    result = server.results[0] if server.results else S.TournamentResult()
    played = result.games
    wins = result.client_wins()
    as1 = [g for g in played if g["client_id"] == 1]
    as2 = [g for g in played if g["client_id"] == 2]
    think = [m[3] for g in record.get("games", []) for m in g["moves"] if m[3] is not None]
    low, high = wilson(wins / len(played), len(played)) if played else (0.0, 0.0)

    def spread(xs):
        return {"median": statistics.median(xs), "max": max(xs)} if xs else {"median": None, "max": None}
    return {
        "run": name + (f" [{args.tag}]" if args.tag else ""), "generation": generation, "opponent": opponent.name, "size": size, "games": len(played),
        "wins": wins, "win_rate": wins / len(played) if played else None, "ci95": [low, high],
        "as_player_1": [sum(g["winner"] == 1 for g in as1), len(as1)],
        "as_player_2": [sum(g["winner"] == 2 for g in as2), len(as2)],
        "starter_won": sum(g["winner"] == g["start"] for g in played),
        "illegal": len(result.illegal), "ended": result.ended, "client_status": client.returncode,
        "client_error": client.stderr.strip()[-300:] if client.returncode else "",
        "our_budget_seconds": seconds,
        "our_player": "; ".join(sorted({x.get("player", "?") for x in record.get("series", [])})) or "?",
        "opponent_budget_seconds": args.spiel_seconds if opponent_kind == "openspiel" else None,
        "our_thinking": spread(think), "our_reply_at_server": spread(result.client_times),
        "opponent_move": spread(result.opponent_times), "minutes": minutes,
    }


def report(rows: list, settings: dict) -> str:
    def s(x):
        return "-" if x is None else f"{x:.3f}"
    lines = ["# Online Hex Tournament: our client through the local server", "",
             f"{settings['date']} - {settings['machine']} - load average {settings['load']} at start - "
             f"Python {settings['python']}", "",
             "| run | gen | opponent | size | games | wins | win rate | ci95 | as P1 | as P2 | starter won | illegal | "
             "our think s median | max | reply at server median | max | opponent s/move median | max | our player |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['run']} | {r['generation']} | {r['opponent']} | {r['size']} | {r['games']} | {r['wins']} | "
            f"{s(r['win_rate'])} | [{r['ci95'][0]:.2f}, {r['ci95'][1]:.2f}] | {r['as_player_1'][0]}/{r['as_player_1'][1]} | "
            f"{r['as_player_2'][0]}/{r['as_player_2'][1]} | {r.get('starter_won', '-')} | {r['illegal']} | {s(r['our_thinking']['median'])} | "
            f"{s(r['our_thinking']['max'])} | {s(r['our_reply_at_server']['median'])} | "
            f"{s(r['our_reply_at_server']['max'])} | {s(r['opponent_move']['median'])} | {s(r['opponent_move']['max'])} | "
            f"{r['our_player']} |")
    lines += ["", "- our think: wall seconds in the client from a request's arrival to the reply; reply at server: "
                  "from the server sending the state to reading the action (TLS on loopback included).",
              "- the first move of a run includes loading the compiled kernels from the cache.",
              "- OpenSpiel: pyspiel.MCTSBot, random-rollout evaluator (1 rollout), UCT c=2, wall-clock budget "
              "per move; a fresh search each move (as ours: no tree kept between moves).",
              "- a run that did not end normally: " + (", ".join(f"{r['run']}/{r['generation']}: {r['ended']}"
                                                                 for r in rows if r['ended'] != 'finished') or "none"),
              "- commands: " + "; ".join(f"`{c}`" for c in settings["commands"])]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.oht_match", description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=tuple(RUNS), help="these runs only (default: all)")
    parser.add_argument("--generations", nargs="*", choices=("A", "B"), help="restrict the generations")
    parser.add_argument("--games", type=int, help="games per run instead of the default")
    parser.add_argument("--random-seconds", type=float, default=0.1, help="our time per move against random")
    parser.add_argument("--seconds", type=float, default=1.0, help="our time per move against OpenSpiel")
    parser.add_argument("--spiel-seconds", type=float, default=1.0, help="OpenSpiel's time per move")
    parser.add_argument("--network", default="shipped", help="our client's --network")
    parser.add_argument("--mode", default="search", choices=("search", "greedy"), help="our client's --mode")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tag", help="a label added to the run names (to keep rows of several configurations)")
    parser.add_argument("--out", default=str(RESULTS / "oht"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    previous = json.loads(out.with_suffix(".json").read_text()) if out.with_suffix(".json").exists() else {}
    rows = previous.get("rows", [])
    command = "python -m bench.oht_match " + " ".join(sys.argv[1:] if argv is None else argv)
    settings = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
                "load": [round(x, 2) for x in os.getloadavg()], "python": platform.python_version(),
                "commands": sorted(set(previous.get("settings", {}).get("commands", []) + [command]))}
    with tempfile.TemporaryDirectory() as tmp:
        certs = S.self_signed(tmp)
        for name in args.only or RUNS:
            for generation in RUNS[name][3]:
                if args.generations and generation not in args.generations:
                    continue
                row = run(name, generation, args, certs)
                rows = [r for r in rows if (r["run"], r["generation"]) != (row["run"], generation)] + [row]
                print(f"{name} {generation}: {row['wins']}/{row['games']} wins, {row['illegal']} illegal, our think "
                      f"median {row['our_thinking']['median']} max {row['our_thinking']['max']}, opponent median "
                      f"{row['opponent_move']['median']}; {row['minutes']:.1f} min; {row['ended']}", flush=True)
                out.with_suffix(".json").write_text(json.dumps({"settings": settings, "rows": rows}, indent=1) + "\n")
                out.with_suffix(".md").write_text(report(rows, settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
