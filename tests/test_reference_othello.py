"""The Othello reference rules (engines/games/reference/othello.py, pure Python) against the compiled
game on every size the engine plays (4..16, odd sizes included) and both variants: the same legal
moves, boards, passes, end and score in seeded random games."""
import numpy as np
import pytest

from engines.games import make_game
from engines.games.reference import othello as rules

SIZES = range(4, 17)


@pytest.mark.parametrize("variant", ["standard", "manager"])
@pytest.mark.parametrize("size", SIZES)
def test_random_games_agree_with_the_compiled_game(size, variant):
    game = make_game("othello", size=size, variant=variant)
    rng = np.random.default_rng([size, variant == "manager"])
    for _ in range(3 if size <= 10 else 1):
        s, p = game.initial_state(), rules.Position.start(size, variant)
        while True:
            assert game.cells(s).tolist() == [list(r) for r in p.board] and game.to_move(s) + 1 == p.to_move
            assert game.is_terminal(s) == p.is_over()
            if p.is_over():
                break
            engine_moves = [None if m == game.pass_action else game.coords(m) for m in game.legal_moves(s)]
            assert engine_moves == p.legal()
            i = int(rng.integers(len(engine_moves)))
            s, p = game.play(s, game.legal_moves(s)[i]), p.play(engine_moves[i])
        assert game.score(s) == p.score()
