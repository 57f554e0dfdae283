"""The one set of argument checks used by constructors and configs: ValueError naming the argument.

bool is rejected where an integer is wanted (``True`` is an int in Python), and NaN or infinity
where a number is wanted.
"""
import math

import numpy as np


def check_int(name: str, value, low: int | None = None, high: int | None = None) -> int:
    """value as an int within [low, high] (either bound may be None)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            span = f"an integer in {low}..{high}"
        elif low is not None:
            span = f"an integer >= {low}"
        elif high is not None:
            span = f"an integer <= {high}"
        else:
            span = "an integer"
        raise ValueError(f"{name} must be {span}, got {value!r}")
    return int(value)


def check_number(name: str, value, low: float | None = None, high: float | None = None) -> float:
    """value as a finite float within [low, high] (either bound may be None)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(float(value)) or (low is not None and value < low) \
            or (high is not None and value > high):
        bounds = "" if low is None and high is None else (
            f" in [{low}, {high}]" if low is not None and high is not None
            else (f" >= {low}" if low is not None else f" <= {high}"))
        raise ValueError(f"{name} must be a finite number{bounds}, got {value!r}")
    return float(value)


def check_bool(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_choice(name: str, value, choices) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(str, choices))}, got {value!r}")
    return value


def check_player(value, name: str = "player") -> int:
    """A player index: 0 (moves first) or 1."""
    return check_int(name, value, 0, 1)
