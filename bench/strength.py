"""Matches at equal wall-clock time per move: our MCTS against OpenSpiel's C++ MCTS bot.

Both sides: UCT with uniformly random rollouts.  Ours: MCTS(game, MCTSConfig()) with
Limits(time=move_time) from the moment the move is asked for, reusing its subtree between moves
(``advance``).  OpenSpiel: MCTSBot(uct_c=2, one rollout per leaf, solve=True, a fresh tree each move)
stopped by its own max_wall_clock_time=move_time (checked to stop on time); with
``spiel_budget="calibrated"`` it also stops after max_simulations = its opening sims/s x move_time.
Colours alternate.  After every move both rule sets must agree on the player to move, the legal
moves, the board and, at the end, the result (bench.openspiel_ref.check_agreement).
"""
import sys
import time

from bench import openspiel_ref as ref
from regress.go_match import wilson  # the one interval of every match table (bench modules import it from here)

GAMES = ("othello8", "hex7", "go7")
TARGET = 0.80


def play_game(key: str, ours_player: int, move_time: float, seed: int, spiel_sims: int | None = None) -> dict:
    """One game; returns our score (1 win, 0.5 draw, 0 loss), the plies and the mean time per move."""
    from engines.search.mcts import MCTS, MCTSConfig
    from engines.search.result import Limits
    game, sgame = ref.match_games(key)
    mcts = MCTS(game, MCTSConfig(), seed=seed)
    bot = ref.bot(sgame, seed, max_simulations=spiel_sims or 10**9, move_time=move_time, solve=True)
    state, sstate = game.initial_state(), sgame.new_initial_state()
    think = {0: [], 1: []}  # 0: ours, 1: OpenSpiel

    def summary(score, superko_draw=False):
        return {"score": score, "plies": len(think[0]) + len(think[1]), "superko_draw": superko_draw,
                "ours_s": sum(think[0]) / max(1, len(think[0])), "spiel_s": sum(think[1]) / max(1, len(think[1]))}
    while not game.is_terminal(state):
        start = time.perf_counter()
        if game.to_move(state) == ours_player:
            move, side = mcts.search(state, Limits(time=move_time, start=start, margin=0.0)).move, 0
        else:
            move, side = bot.step(sstate), 1
        think[side].append(time.perf_counter() - start)
        sstate.apply_action(move)
        if side == 1 and ref.superko_draw(game, state, move, sstate):
            return summary(0.5, superko_draw=True)
        state = game.play(state, move)
        mcts.advance(move)
        ref.check_agreement(game, state, sstate)
    r0 = game.returns(state)[0]
    return summary(r0 if ours_player == 0 else 1.0 - r0)


def match(key: str, games: int, move_time: float, seed: int = 0, spiel_budget: str = "clock") -> dict:
    from tqdm import tqdm
    spiel_sims = None
    if spiel_budget == "calibrated":
        spiel_sims = max(1, int(ref.mcts_rate(ref.match_games(key)[1], 1.0, seed) * move_time))
    wins = losses = draws = plies = superko_draws = 0
    ours_s = spiel_s = 0.0
    bar = tqdm(range(games), desc=f"strength {key}", file=sys.stderr, unit="game")
    for i in bar:
        g = play_game(key, i % 2, move_time, seed + i, spiel_sims)
        wins += g["score"] == 1.0
        losses += g["score"] == 0.0
        draws += g["score"] == 0.5
        plies += g["plies"]
        superko_draws += g["superko_draw"]
        ours_s += g["ours_s"] / games
        spiel_s += g["spiel_s"] / games
        bar.set_postfix_str(f"W{wins} L{losses} D{draws}")
    rate = (wins + 0.5 * draws) / games
    low, high = wilson(rate, games)
    return {"games": games, "wins": wins, "losses": losses, "draws": draws, "win_rate": rate, "ci95": [low, high],
            "move_time": move_time, "ours_s_per_move": ours_s, "spiel_s_per_move": spiel_s,
            "mean_plies": plies / games, "superko_draws": superko_draws, "spiel_budget": spiel_budget, "spiel_max_simulations": spiel_sims,
            "target": TARGET}
