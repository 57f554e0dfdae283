"""Hex learning figures: the seed's TOPP, the shipped networks against random and against OpenSpiel's
C++ MCTS bot, and training throughput.  Each part is run on its own and merged into
bench/results/hex_learn.{md,json}:

    nice .venv/bin/python -m bench.hex_learn topp            # make train-hex's run (200 episodes, K=4, 5x5) + TOPP
    nice .venv/bin/python -m bench.hex_learn random          # shipped 5/6/7 greedy vs uniform random, 200 games each
    nice .venv/bin/python -m bench.hex_learn openspiel       # shipped 5x5 + search vs OpenSpiel MCTS, 1 s a move
    nice .venv/bin/python -m bench.hex_learn versus --candidate 'runs/x/hex{size}.onnx' --baseline 'weights/hex/hex{size}.onnx'
                                                             # greedy against greedy from every one-stone opening
    nice .venv/bin/python -m bench.hex_learn throughput      # episodes/min (1 and 2 workers), rollouts/s

Strength matches report both sides' measured time per move.
"""
import argparse
import datetime
import json
import os
import pathlib
import platform
import sys
import time

import numpy as np

RESULTS = pathlib.Path(__file__).resolve().parent / "results"
ROOT = pathlib.Path(__file__).resolve().parents[1]


def part_topp(args) -> dict:
    """The seed's demonstration run from the committed config, then its TOPP."""
    from engines.learn.hex import config as C
    from engines.learn.hex.state_manager import HexStateManager
    from engines.learn.hex.topp import TOPP, load_agents
    from engines.learn.hex.trainer import Trainer
    cfg = C.load(ROOT / "weights" / "hex" / "hex.toml", {"display": 0, "topp": False})
    out = pathlib.Path(args.out or ROOT / "runs" / "hex-demo")
    if not (out / "training.json").is_file() or args.retrain:
        trainer = Trainer(cfg, out)
        trainer.run()
    summary = json.loads((out / "training.json").read_text())
    agents, _ = load_agents(out)
    result = TOPP(HexStateManager(cfg.size), agents, cfg.games, cfg.topp_policy, seed=cfg.seed).run()
    stochastic = TOPP(HexStateManager(cfg.size), agents, cfg.games, "stochastic", seed=cfg.seed).run()
    last = len(agents) - 1
    return {"command": "nice .venv/bin/python -m bench.hex_learn topp (= make train-hex)",
            "config": "weights/hex/hex.toml", "episodes": summary["episodes"], "networks": result.names,
            "games_per_pair": cfg.games, "training_minutes": summary["seconds"] / 60,
            "greedy": {"table": result.table(), "wins": result.wins, "totals": result.totals},
            "stochastic": {"table": stochastic.table(), "wins": stochastic.wins, "totals": stochastic.totals},
            "final_vs_untrained_greedy": f"{result.wins[last][0]}/{cfg.games}",
            "final_vs_untrained_stochastic": f"{stochastic.wins[last][0]}/{cfg.games}"}


def part_random(args) -> dict:
    """Each shipped network, greedy and without search, against uniform random: games/2 as each player."""
    from engines.games import make_game
    from engines.learn.hex.agents import NetworkAgent, RandomAgent, play_game
    from engines.knowledge.hex.network import load_network, shipped_network_path
    out = {"command": "nice .venv/bin/python -m bench.hex_learn random", "goal": 0.98}
    for size in args.sizes:
        path = shipped_network_path(size)
        if path is None:
            out[f"hex{size}"] = "no shipped network"
            continue
        net, meta = load_network(path, size)
        game = make_game("hex", size=size)
        me = NetworkAgent(game, net, "greedy")
        wins = [0, 0]
        for g in range(args.games):
            seat = g % 2
            other = RandomAgent(game, seed=1000 + g)
            seats = (me, other) if seat == 0 else (other, me)
            wins[seat] += play_game(game, *seats) == seat
        half = args.games // 2
        out[f"hex{size}"] = {"games": args.games, "wins": sum(wins), "win_rate": sum(wins) / args.games,
                             "as_first": f"{wins[0]}/{half}", "as_second": f"{wins[1]}/{args.games - half}",
                             "network": meta.get("layers") or meta.get("conv"),
                             "trained_on": meta.get("episode") or meta.get("teacher", {}).get("games")}
        print(f"hex{size}: {out[f'hex{size}']}", file=sys.stderr)
    return out


def part_versus(args) -> dict:
    """A candidate network against a baseline (default: the shipped one), both greedy: from every
    one-stone opening (black's first stone on each cell), once with each network as black.  Greedy
    play is deterministic, so the openings are what makes the games differ."""
    from bench.strength import wilson
    from engines.games import make_game
    from engines.knowledge.hex.network import greedy_move, load_network
    if not args.candidate:
        raise SystemExit("versus: --candidate PATTERN (a network file, {size} for the board size)")
    out = {"command": f"nice .venv/bin/python -m bench.hex_learn versus --candidate '{args.candidate}' "
                      f"--baseline '{args.baseline}'"}
    for size in args.sizes:
        game = make_game("hex", size=size)
        nets = [load_network(pattern.format(size=size), size)[0] for pattern in (args.candidate, args.baseline)]
        wins = [0, 0]  # the candidate's wins as black, as white
        for cell in range(game.num_actions):
            for black in (0, 1):  # which network plays black (0: the candidate)
                state = game.play(game.initial_state(), cell)
                while not game.is_terminal(state):
                    net = nets[black if game.to_move(state) == 0 else 1 - black]
                    state = game.play(state, greedy_move(game, state, net))
                wins[black] += (game.winner(state) == 0) == (black == 0)
        n = game.num_actions
        low, high = wilson(sum(wins) / (2 * n), 2 * n)
        out[f"hex{size}"] = {"games": 2 * n, "candidate_wins": sum(wins), "ci95": [round(low, 3), round(high, 3)],
                             "as_black": f"{wins[0]}/{n}", "as_white": f"{wins[1]}/{n}"}
        print(f"hex{size}: {out[f'hex{size}']}", file=sys.stderr)
    return out


def part_openspiel(args) -> dict:
    """The shipped 5x5 network with search (NetworkAgent "search": PUCT over its priors) against
    OpenSpiel's C++ MCTS bot, both at move_time seconds a move, games/2 as each player."""
    from bench import openspiel_ref as ref
    from bench.strength import wilson
    from engines.learn.hex.agents import NetworkAgent
    from engines.knowledge.hex.network import load_network, shipped_network_path
    from tqdm import tqdm
    net, _ = load_network(shipped_network_path(5), 5)
    sides = {}
    for ours in (0, 1):
        wins, think = 0, {0: [], 1: []}
        n = args.games // 2
        for g in tqdm(range(n), desc=f"vs OpenSpiel as player {ours + 1}", file=sys.stderr):
            game, sgame = ref.match_games("hex5")
            me = NetworkAgent(game, net, "search", time=args.move_time, seed=g)
            bot = ref.bot(sgame, 100 + g + 1000 * ours, move_time=args.move_time, solve=True)
            state, sstate = game.initial_state(), sgame.new_initial_state()
            while not game.is_terminal(state):
                start = time.perf_counter()
                if game.to_move(state) == ours:
                    me.limits = type(me.limits)(time=args.move_time, start=start, margin=0.0)
                    move, side = me.move(state), 0
                else:
                    move, side = bot.step(sstate), 1
                think[side].append(time.perf_counter() - start)
                sstate.apply_action(move)
                state = game.play(state, move)
                me.advance(move)
                ref.check_agreement(game, state, sstate)
            wins += game.winner(state) == ours
        low, high = wilson(wins / n, n)
        sides[f"as_player_{ours + 1}"] = {"games": n, "wins": wins, "win_rate": wins / n, "ci95": [low, high],
                                          "ours_s_per_move": float(np.mean(think[0])),
                                          "spiel_s_per_move": float(np.mean(think[1]))}
        print(sides, file=sys.stderr)
    return {"command": "nice .venv/bin/python -m bench.hex_learn openspiel", "move_time": args.move_time,
            "ours": "shipped hex5.onnx, MCTS PUCT over its priors, random rollouts, tree reuse",
            "openspiel": "MCTSBot(uct_c=2, 1 random rollout, solve=True, max_wall_clock_time=move time)",
            **sides}


def part_throughput(args) -> dict:
    from engines.learn.hex import config as C
    from engines.learn.hex.trainer import Trainer
    out = {"command": "nice .venv/bin/python -m bench.hex_learn throughput"}
    base = {"size": 5, "episodes": args.episodes, "networks": 2, "search_games": 500, "epsilon": 0.3,
            "progress": False, "topp": False, "display": 0}
    for workers in (1, 2):
        cfg = C.load(None, {**base, "workers": workers})
        t = Trainer(cfg, ROOT / "runs" / f"throughput-{workers}")
        t.run()
        out[f"episodes_per_minute_{workers}_workers"] = t.summary["episodes_per_minute"]
        print(out, file=sys.stderr)
    out["episode_config"] = "5x5, 500 search games a move, ANET [75,128,128,25] relu rollouts, epsilon 0.3"
    out.update(rollout_rates(args))
    return out


def rollout_rates(args) -> dict:
    """Greedy network rollouts from the empty 5x5 board: inside the compiled MCTS (one rollout per
    simulation, mlp.forward per move), and a Python loop calling onnxruntime per move."""
    from engines.games import make_game
    from engines.knowledge.hex.network import OnnxPolicy, load_network, shipped_network_path
    from engines.learn.hex.anet_mcts import PolicyMCTS
    path = shipped_network_path(5)
    net, _ = load_network(path, 5)
    game = make_game("hex", size=5)
    mcts = PolicyMCTS(game, net, search_games=2000, epsilon=0.0)
    mcts.distribution(game.initial_state())  # compile / warm
    mcts = PolicyMCTS(game, net, search_games=20000, epsilon=0.0)
    start = time.perf_counter()
    mcts.distribution(game.initial_state())
    compiled = 20000 / (time.perf_counter() - start)
    session = OnnxPolicy(path)
    rng = np.random.default_rng(0)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        state = game.play(game.initial_state(), int(rng.integers(25)))
        while not game.is_terminal(state):
            z = session.logits(game.observation(state).reshape(1, -1))[0]
            legal = game.legal_moves(state)
            state = game.play(state, legal[int(np.argmax(z[legal]))])
        n += 1
    ort = n / (time.perf_counter() - start)
    return {"rollouts_per_s_compiled_in_mcts": compiled, "rollouts_per_s_onnxruntime_per_move": ort,
            "compiled_over_onnxruntime": compiled / ort}


PARTS = {"topp": part_topp, "random": part_random, "openspiel": part_openspiel, "throughput": part_throughput,
         "versus": part_versus}


def write(results: dict) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "hex_learn.json").write_text(json.dumps(results, indent=1) + "\n")
    lines = ["# Hex learning figures", ""]
    for name, part in results.items():
        if not isinstance(part, dict):
            continue
        lines += [f"## {name}", "", f"`{part.get('command', '')}`  ({part.get('when', '')}, load {part.get('load', '')})", ""]
        for key, value in part.items():
            if key in ("command", "when", "load"):
                continue
            if isinstance(value, dict) and "table" in value:
                lines += [f"{key}:", "", "```", value["table"], "```", ""]
            else:
                lines.append(f"- {key}: {json.dumps(value) if not isinstance(value, str) else value}")
        lines.append("")
    (RESULTS / "hex_learn.md").write_text("\n".join(lines))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("parts", nargs="+", choices=sorted(PARTS))
    p.add_argument("--games", type=int, help="games (random: 200; openspiel: 40)")
    p.add_argument("--sizes", type=int, nargs="+", default=[5, 6, 7])
    p.add_argument("--move-time", type=float, default=1.0)
    p.add_argument("--episodes", type=int, default=20, help="throughput: episodes per run")
    p.add_argument("--seconds", type=float, default=5.0, help="throughput: seconds of onnxruntime rollouts")
    p.add_argument("--out", help="topp: the training directory (default runs/hex-demo)")
    p.add_argument("--retrain", action="store_true", help="topp: train again even if the directory has a run")
    p.add_argument("--candidate", help="versus: the candidate network, a path with {size} for the board size")
    p.add_argument("--baseline", default=str(ROOT / "weights" / "hex" / "hex{size}.onnx"),
                   help="versus: the network it plays (default: the shipped one)")
    args = p.parse_args(argv)
    path = RESULTS / "hex_learn.json"
    results = json.loads(path.read_text()) if path.is_file() else {}
    for name in args.parts:
        a = argparse.Namespace(**vars(args))
        if a.games is None:
            a.games = {"random": 200, "openspiel": 40}.get(name, 0)
        part = PARTS[name](a)
        part["when"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        part["load"] = [round(x, 2) for x in os.getloadavg()]
        part["machine"] = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
        results[name] = part
        write(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
