"""Game registry: ``make_game("othello", size=8)`` and friends."""
from engines.games.base import Game


def make_game(name: str, **options) -> Game:
    """Build a game by name ('go', 'othello', 'hex') with its options; ValueError on bad input."""
    name = name.lower()
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


GAMES = ("go", "othello", "hex")
