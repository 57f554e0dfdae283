"""Othello strength of plies-otp's default player -> bench/results/othello_strength.md.

    python -m bench.othello_strength [--games 100] [--seconds 1.0] [--spiel-games 20] [--seed 0]
                                     [--new-evaluation NAME] [--probcut] [--out FILE]

1. The new default against today's default, at ``seconds`` a move: ``games`` games from games/2
   seeded random openings (4 to 7 random plies, all different), each played with both colours.
   New: engines.players.othello's player with OtpSettings(...) as shipped (PVS, the player's time rule,
   win/loss/draw solves, the evaluation ``--new-evaluation``).
   Today's: the same Player reconstructed with today's options: the "strong" evaluation, alpha-beta
   without PVS, no iteration predictor (stop_share 0), the whole time in the opening
   (opening_share 1), exact solves only (wld_extra 0).  Both have time = 0.8 x seconds and margin
   0.005 x seconds (the adapter's 8 s and 0.05 s of the judge's 10), counted from the moment the
   move is asked for (perf_counter).  The endgame solver is today's engines' (both sides).
2. The new default against OpenSpiel's C++ MCTS bot (UCT, random rollouts, solve=True, its own
   wall-clock limit = seconds), colours alternating, rules checked equal after every move.
3. Time: every move's measured time (from the request to the answer, perf_counter) of both
   players, its median and maximum against 85 % of ``seconds`` (the judge's 10 s scaled), over
   every move of both matches.

Score: wins + draws / 2 over games, with a 95 % Wilson interval.  Progress on stderr; the report is
rewritten after every game, so a stopped run leaves its figures so far.
"""
import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from bench.strength import wilson

RESULTS = Path(__file__).resolve().parent / "results"
TIME_SHARE, MARGIN_SHARE, LIMIT_SHARE = 0.8, 0.005, 0.85  # of the move's seconds: the adapter's time, margin, the cap


def openings(game, count: int, seed: int, plies: int | None = None) -> list:
    """count different positions after seeded random plies, 4..7 of them (drawn) or a fixed number
    ``plies`` (each position with a move for the side to move)."""
    rng = np.random.default_rng(seed)
    out, seen = [], set()
    while len(out) < count:
        s = game.initial_state()
        moves = []
        for _ in range(int(rng.integers(4, 8)) if plies is None else plies):
            m = int(rng.choice(game.legal_moves(s)))
            moves.append(m)
            s = game.play(s, m)
        key = game.cells(s).tobytes() + bytes([game.to_move(s)])
        if key not in seen and not game.is_terminal(s):
            seen.add(key)
            out.append(moves)
    return out


def new_player(seconds: float, seed: int, evaluation: str | None, probcut: bool):
    from adapters.otp import OtpSettings
    from engines.players.othello import make_player as Player
    options = {} if evaluation is None else {"evaluation": evaluation}
    return Player(OtpSettings(time=TIME_SHARE * seconds, margin=MARGIN_SHARE * seconds, seed=seed, probcut=probcut,
                              **options))


def todays_player(seconds: float, seed: int):
    """Today's default, as a configuration of the new code."""
    from adapters.otp import OtpSettings
    from engines.players.othello import make_player as Player
    from engines.knowledge.registry import knowledge_for
    from engines.search import make_searcher
    settings = OtpSettings(time=TIME_SHARE * seconds, margin=MARGIN_SHARE * seconds, seed=seed, evaluation="strong",
                           stop_share=0.0, opening_share=1.0, wld_extra=0, probcut=False)
    player = Player(settings)
    player.searcher = make_searcher("alphabeta", player.game, {"tt_size": settings.tt_size, "use_pvs": False},
                                    knowledge_for(player.game, "strong"), seed=seed, clock=player.clock)
    return player


def _depth(player):
    last = player.last
    return last.get("depth") if not last.get("solved") and not last.get("forced") else None


def _note_late(player, state, seconds):
    """Say on stderr when a move took longer than the cap (85 % of the move's seconds)."""
    cap = LIMIT_SHARE * player.settings.time / TIME_SHARE
    if seconds > cap:
        empties = int((player.game.cells(state) == 0).sum())
        print(f"othello_strength: LATE {player.role} move: {seconds:.3f} s > {cap:.3f} s at {empties} empties "
              f"({player.last})", file=sys.stderr, flush=True)


def play(game, black, white, opening, times, depths) -> float:
    """One game from the opening's moves; black's result (1, 0.5, 0).  times/depths: side -> list."""
    state = game.initial_state()
    for m in opening:
        state = game.play(state, m)
        black.played(m)
        white.played(m)
    players = {0: black, 1: white}
    while not game.is_terminal(state):
        side = game.to_move(state)
        player = players[side]
        start = time.perf_counter()
        move = player.choose(state, player.settings.time, start)
        times[player.role].append(time.perf_counter() - start)
        _note_late(player, state, times[player.role][-1])
        d = _depth(player)
        if d is not None:
            depths[player.role].append(d)
        state = game.play(state, move)
        black.played(move)
        white.played(move)
    return game.returns(state)[0]


def play_spiel_game(game, sgame, player, ours: int, seconds: float, seed: int, times) -> float:
    from bench import openspiel_ref as ref
    bot = ref.bot(sgame, seed, move_time=seconds, solve=True)
    state, sstate = game.initial_state(), sgame.new_initial_state()
    while not game.is_terminal(state):
        start = time.perf_counter()
        if game.to_move(state) == ours:
            move = player.choose(state, player.settings.time, start)
            times["new"].append(time.perf_counter() - start)
            _note_late(player, state, times["new"][-1])
        else:
            move = bot.step(sstate)
            times["openspiel"].append(time.perf_counter() - start)
        sstate.apply_action(move)
        state = game.play(state, move)
        player.played(move)
        ref.check_agreement(game, state, sstate)
    return game.returns(state)[ours]


def _times_row(name, xs, limit):
    if not xs:
        return f"| {name} | 0 | - | - | - | - |"
    return (f"| {name} | {len(xs)} | {statistics.median(xs):.3f} | {statistics.mean(xs):.3f} | {max(xs):.3f} | "
            f"{'yes' if max(xs) <= limit else 'NO'} |")


def report(args, command, match, spiel, times, depths) -> str:
    limit = LIMIT_SHARE * args.seconds
    lines = [f"# Othello strength: the new default (plies-otp) at {args.seconds:g} s a move", "",
             f"Command: `{command}`  ", f"Machine: {platform.machine()}, Python {platform.python_version()}, "
             f"{time.strftime('%Y-%m-%d %H:%M')}; new evaluation: {match['evaluation']}, "
             f"ProbCut {'on' if args.probcut else 'off'}", ""]
    n = match["games"]
    if n:
        score = (match["wins"] + match["draws"] / 2) / n
        lo, hi = wilson(score, n)
        lines += ["## New default against today's default", "",
                  "| games | openings | new wins | losses | draws | new score | 95 % interval | goal |",
                  "|---|---|---|---|---|---|---|---|",
                  f"| {n} | {match['openings']} | {match['wins']} | {match['losses']} | {match['draws']} | "
                  f"{score:.1%} | {lo:.1%} .. {hi:.1%} | >= 90 % |", "",
                  "Search depth reached (searched moves, not solved or forced): median new "
                  f"{statistics.median(depths['new']) if depths['new'] else '-'}, today's "
                  f"{statistics.median(depths['today']) if depths['today'] else '-'}.", ""]
    m = spiel["games"]
    if m:
        score = (spiel["wins"] + spiel["draws"] / 2) / m
        lo, hi = wilson(score, m)
        lines += ["## New default against OpenSpiel's MCTS", "",
                  "| games | new wins | losses | draws | new score | 95 % interval | goal |",
                  "|---|---|---|---|---|---|---|",
                  f"| {m} | {spiel['wins']} | {spiel['losses']} | {spiel['draws']} | {score:.1%} | "
                  f"{lo:.1%} .. {hi:.1%} | 100 % |", ""]
    lines += [f"## Time per move (seconds, from the request to the answer; cap = 85 % of {args.seconds:g} s = "
              f"{limit:.3f} s)", "",
              "| player | moves | median | mean | max | max within the cap |", "|---|---|---|---|---|---|",
              _times_row("new (both matches)", times["new"], limit), _times_row("today's", times["today"], limit),
              _times_row("OpenSpiel MCTS", times["openspiel"], limit), ""]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=100, help="games against today's default (even)")
    p.add_argument("--seconds", type=float, default=1.0, help="the judge's seconds a move (scaled from its 10)")
    p.add_argument("--spiel-games", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--new-evaluation", default=None, help="the new player's evaluation (default: the adapter's)")
    p.add_argument("--probcut", action="store_true", help="the new player with the fitted ProbCut parameters")
    p.add_argument("--out", type=Path, default=RESULTS / "othello_strength.md")
    args = p.parse_args(argv)
    command = "python -m bench.othello_strength " + " ".join(sys.argv[1:] if argv is None else argv)
    from adapters.otp import OtpSettings
    from engines.games import make_game
    game = make_game("othello", size=8)
    evaluation = args.new_evaluation or OtpSettings().evaluation
    times = {"new": [], "today": [], "openspiel": []}
    depths = {"new": [], "today": []}
    match = {"games": 0, "wins": 0, "losses": 0, "draws": 0, "openings": args.games // 2, "evaluation": evaluation}
    spiel = {"games": 0, "wins": 0, "losses": 0, "draws": 0}

    def save():
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(report(args, command, match, spiel, times, depths), encoding="utf-8")

    for i, opening in enumerate(openings(game, args.games // 2, args.seed)):
        for new_colour in (0, 1):
            new = new_player(args.seconds, args.seed + i, args.new_evaluation, args.probcut)
            old = todays_player(args.seconds, args.seed + i)
            new.role, old.role = "new", "today"
            black, white = (new, old) if new_colour == 0 else (old, new)
            r = play(game, black, white, opening, times, depths)
            r = r if new_colour == 0 else 1.0 - r
            match["games"] += 1
            match["wins"] += r == 1.0
            match["losses"] += r == 0.0
            match["draws"] += r == 0.5
            print(f"othello_strength: game {match['games']}/{args.games}: new W{match['wins']} L{match['losses']} "
                  f"D{match['draws']}, max move {max(times['new']):.3f} s", file=sys.stderr, flush=True)
            save()
    if args.spiel_games:
        from bench import openspiel_ref as ref
        _, sgame = ref.match_games("othello8")
        for i in range(args.spiel_games):
            ours = i % 2
            player = new_player(args.seconds, args.seed + 1000 + i, args.new_evaluation, args.probcut)
            player.role = "new"
            r = play_spiel_game(game, sgame, player, ours, args.seconds, args.seed + i, times)
            spiel["games"] += 1
            spiel["wins"] += r == 1.0
            spiel["losses"] += r == 0.0
            spiel["draws"] += r == 0.5
            print(f"othello_strength: openspiel game {i + 1}/{args.spiel_games}: W{spiel['wins']} L{spiel['losses']} "
                  f"D{spiel['draws']}", file=sys.stderr, flush=True)
            save()
    save()
    print(args.out.read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
