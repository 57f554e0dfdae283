"""A plain player for any game, and one game between two players (``plies play`` and ``plies demo``).

How its data is represented: a player here is a function ``state -> action`` over the game's own
states and actions (engines/kernels.py); ``make_player`` makes one that plays uniformly at random or
asks a search by name (engines/search: its config a mapping of the search's config fields) on a fixed
budget a move; ``play_game`` plays two of them from the start and gives each player's result;
``demo`` plays one short game of each game (DEMO_GAMES: MCTS against random).  The
games' own players (go.py, othello.py, hex.py) are what the harnesses ask; these are for trying the
searches against each other on the terminal.
"""
import sys
import time

DEFAULT_SIMULATIONS = 2000  # MCTS budget per move when neither seconds nor simulations is given
DEFAULT_SECONDS = 1.0       # the other searches' budget per move when seconds is not given
DEMO_GAMES = (("othello", {"size": 8}), ("hex", {"size": 5}), ("go", {"size": 5}))  # plies demo's games


def make_player(kind: str, game, seed: int, seconds: float | None = None, simulations: int | None = None,
                config: dict | None = None, evaluation: str | None = None):
    """A function state -> move: 'random', or a search by name with a config mapping."""
    from engines.rng import below, make_rng
    from engines.search import Limits, make_searcher
    if kind == "random":
        rng = make_rng(seed)

        def random_player(state):
            moves = game.legal_moves(state)
            return moves[below(rng, len(moves))]
        return random_player
    knowledge = None
    if evaluation is not None:
        from engines.knowledge.registry import knowledge_for
        knowledge = knowledge_for(game, evaluation)
    searcher = make_searcher(kind, game, config or {}, knowledge, seed)
    if kind == "mcts":
        budget = dict(time=seconds, simulations=simulations) if (seconds or simulations) \
            else dict(simulations=DEFAULT_SIMULATIONS)
    else:
        budget = dict(time=seconds or DEFAULT_SECONDS)

    def search_player(state):
        return searcher.search(state, Limits(start=time.perf_counter(), **budget)).move
    return search_player


def play_game(game, players, show=True, out=None):
    """Plays one game between two players (functions state -> move), the result (and with show, every
    board) shown on out; returns (the per-player result, the final state)."""
    out = out if out is not None else sys.stdout  # looked up at call time (tests capture it)
    state = game.initial_state()
    if show:
        print(game.render(state), file=out)
    ply = 0
    while not game.is_terminal(state):
        mover = game.to_move(state)
        move = players[mover](state)
        state = game.play(state, move)
        ply += 1
        if show:
            print(f"\nmove {ply}: player {mover + 1} plays {game.move_label(move)}", file=out)
            print(game.render(state), file=out)
    winner = game.winner(state)
    print(("\n" if show else "") + f"result after {ply} moves: "
          + ("draw" if winner is None else f"player {winner + 1} wins"), file=out)
    return game.returns(state), state


def demo(simulations: int, show: bool = False, out=None) -> None:
    """One short game of each of DEMO_GAMES, MCTS (player 1) against random (player 2): its final
    board and result on out (every board with show)."""
    import io
    from engines.games import make_game
    out = out if out is not None else sys.stdout
    for name, options in DEMO_GAMES:
        game = make_game(name, **options)
        print(f"===== {name} {options}: MCTS (player 1) against random (player 2) =====", file=out)
        players = [make_player("mcts", game, 1, None, simulations), make_player("random", game, 2, None, None)]
        if show:
            play_game(game, players, out=out)
        else:
            result = io.StringIO()
            _, final = play_game(game, players, show=False, out=result)
            print(game.render(final), file=out)
            print(result.getvalue(), end="", file=out)
        print(file=out)
