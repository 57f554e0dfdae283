"""The pure-Python Go rules (engines/games/reference/go.py) against the compiled game (engines/games/go.py)
in seeded random games on every size 5x5 to 19x19, simple ko and positional superko: the legal points,
the boards, the captures and the area score agree move for move; the reference's SearchRules (the cold
fallback's view) count a finished game as the engine scores it and never pass while a point is legal."""
import random

import numpy as np
import pytest

from engines.games.go import Go
from engines.games.reference import go as ref
from engines.players.clock import Deadline
from engines.players.coldstart import fallback_search

SIZES = list(range(5, 20))


def reference_legal(position: ref.Position, colour: int) -> set:
    n = position.size
    return {(i, j) for i in range(n) for j in range(n) if position.is_legal(colour, (i, j))}


def engine_legal(game: Go, state) -> set:
    return {game.point_of(a) for a in game.legal_moves(state) if a != game.pass_action}


def play_random_game(n: int, seed: int, superko: bool, moves: int, check_every: int):
    """One seeded random game on both rule sets at once; every check_every moves (and at the end) the
    legal points are compared, every move the board and the captures."""
    rng = random.Random(seed)
    komi = 0.5 + rng.randrange(8)
    game = Go(n, komi=komi, rules="superko" if superko else "standard")
    state = game.initial_state()
    position = ref.Position(n, superko=superko)
    passes = 0
    for ply in range(moves):
        colour = game.to_move(state)
        legal = engine_legal(game, state)
        if ply % check_every == 0:
            assert reference_legal(position, colour + 1) == legal, (n, seed, ply, game.render(state))
        point = rng.choice(sorted(legal)) if legal and rng.random() > 0.03 else None
        state = game.play(state, game.action_at(point))
        position.play(colour + 1, point)
        assert (game.cells(state) == np.array(position.board)).all(), (n, seed, ply)
        assert tuple(game.captures(state)) == tuple(position.captures), (n, seed, ply)
        passes = passes + 1 if point is None else 0
        if game.is_terminal(state):
            assert passes >= 2
            break
    last = game.resumed(state) if game.is_terminal(state) else state
    assert reference_legal(position, game.to_move(last) + 1) == engine_legal(game, last), (n, seed)
    black, white = position.area()
    assert game.score(state) == pytest.approx(black - white - komi), (n, seed)
    return game, state, position, komi


@pytest.mark.parametrize("n", SIZES)
def test_reference_rules_agree_with_the_engine_in_random_games(n):
    games = 6 if n <= 9 else 2
    for k in range(games):
        # small boards to the end of the game; larger ones a long opening and middle game
        play_random_game(n, seed=1000 * n + k, superko=k % 2 == 1, moves=3 * n * n if n <= 9 else 400,
                         check_every=1 if n <= 9 else 5)


@pytest.mark.parametrize("seed", range(3))
def test_search_rules_count_a_finished_game_as_the_engine_scores_it(seed):
    game, state, position, komi = play_random_game(7, seed=seed, superko=False, moves=400, check_every=1)
    rules = ref.SearchRules(komi)
    for colour in (1, 2):
        outcome = rules.outcome(rules.node(position, colour, passes=2))
        score = game.score(state)
        mover = score if colour == 1 else -score
        assert outcome == (mover > 0) - (mover < 0)
        assert -1.0 < rules.evaluate(rules.node(position, colour)) < 1.0
    assert rules.outcome(rules.node(position, 1, passes=1)) is None


def test_search_rules_pass_only_when_no_point_but_an_eye_is_legal():
    rules = ref.SearchRules(0.5)
    empty = ref.Position(5)
    assert None not in rules.moves(rules.node(empty, 1)) and len(rules.moves(rules.node(empty, 1))) == 25
    # black owns the board but for two single-point eyes: only a pass is left to black
    eyes = ref.Position(5)
    eyes.board = [[0 if (i, j) in ((1, 1), (3, 3)) else 1 for j in range(5)] for i in range(5)]
    assert rules.moves(rules.node(eyes, 1)) == [None]
    move = fallback_search(rules, rules.node(empty, 1), Deadline.after(0.05), random.Random(0))
    assert move in rules.moves(rules.node(empty, 1))
