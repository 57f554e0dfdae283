"""Game registry: ``make_game("othello", size=8)`` and friends.

Nothing compiled is imported here, so that the pure-Python reference rules (engines/games/reference/)
load without numba while a cold cache compiles; ``Game`` is loaded on first use."""

GAMES = ("go", "othello", "hex")

# one game per compiled kernel set and rule option: what the warm-up and the speed figures cover
REPRESENTATIVES = (
    ("go", {"size": 5, "rules": "standard"}), ("go", {"size": 5, "rules": "go5"}),
    ("go", {"size": 5, "rules": "littlego"}), ("go", {"size": 5, "rules": "superko"}),
    ("othello", {"size": 8}), ("othello", {"size": 8, "variant": "manager"}), ("othello", {"size": 10}),
    ("hex", {"size": 5}),
)


def make_game(name: str, **options):
    """Build a game by name ('go', 'othello', 'hex') with its options; ValueError on bad input."""
    name = name.lower() if isinstance(name, str) else name
    if name == "go":
        from engines.games.go import Go
        return Go(**options)
    if name == "othello":
        from engines.games.othello import Othello
        return Othello(**options)
    if name == "hex":
        from engines.games.hex import Hex
        return Hex(**options)
    raise ValueError(f"unknown game {name!r}; choose go, othello or hex")


def representative_games() -> list:
    return [make_game(name, **options) for name, options in REPRESENTATIVES]


def __getattr__(name):
    if name == "Game":  # the compiled games' base class, loaded (with numba) only when asked for
        from engines.games.base import Game
        return Game
    raise AttributeError(f"module 'engines.games' has no attribute {name!r}")
