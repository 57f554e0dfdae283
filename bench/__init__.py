"""Benchmarks of plies against OpenSpiel's C++ games and bots: ``python -m bench.run``.

Every rate is the median of 5 timed runs through ``engines.speed.median_rate`` (the one timing
helper, shared with ``plies bench``); ``median_seconds`` is its counterpart for durations.
``SPECS`` names the benchmarked games on both sides.
"""
import statistics

REPS = 5

# key -> (our make_game name, our options, OpenSpiel game string).  Go: area scoring, komi 7.5 on every
# size (in matches colours alternate, so the komi's bias cancels out).
SPECS = {
    "othello8": ("othello", {"size": 8}, "othello"),
    "hex5": ("hex", {"size": 5}, "hex(board_size=5)"),
    "hex7": ("hex", {"size": 7}, "hex(board_size=7)"),
    "hex8": ("hex", {"size": 8}, "hex(board_size=8)"),
    "hex11": ("hex", {"size": 11}, "hex(board_size=11)"),
    "hex13": ("hex", {"size": 13}, "hex(board_size=13)"),
    "go5": ("go", {"size": 5, "komi": 7.5}, "go(board_size=5,komi=7.5)"),
    "go7": ("go", {"size": 7, "komi": 7.5}, "go(board_size=7,komi=7.5)"),
    "go9": ("go", {"size": 9, "komi": 7.5}, "go(board_size=9,komi=7.5)"),
}


def make_ours(key: str):
    from engines.games import make_game
    name, options, _ = SPECS[key]
    return make_game(name, **options)


def median_seconds(measure, reps: int = REPS) -> float:
    """Median of ``reps`` calls of measure() -> seconds."""
    return statistics.median(measure() for _ in range(reps))
