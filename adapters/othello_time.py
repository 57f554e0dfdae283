"""How much of a move's time the Othello adapters (plies-otp, the pipe agent) spend: one small rule,
its tunables fields of each adapter's settings dataclass.

Both harnesses give a fixed time per move (10 s; a late reply forfeits), so time saved on one move
cannot be spent on another.  The rule is therefore about not wasting time where it buys nothing:
  - a forced move (one legal move, or the pass) is answered at once, without a search;
  - the opening (fewer discs than ``opening_fill`` of the squares) gets ``opening_share`` of the
    move's time: a deeper search of the first moves changes little;
  - the middle game and the endgame get all of it; the search itself stops early once the game is
    solved (a complete search, an exact or win/loss/draw solve), and does not start an iteration it
    cannot finish (AlphaBetaConfig.stop_share);
and never more than the move's time (``time`` / ``seconds`` of the settings, at most 85 % of the
harness's 10 s by default), counted from the request's arrival.
"""


def move_seconds(seconds: float, discs: int, squares: int, legal_moves: int, opening_fill: float,
                 opening_share: float) -> float:
    """The seconds to spend on a move whose budget is ``seconds``: 0 for a forced move (at most one
    legal move), ``opening_share * seconds`` while fewer than ``opening_fill * squares`` discs are on
    the board, else ``seconds``."""
    if legal_moves <= 1:
        return 0.0
    if discs < opening_fill * squares:
        return seconds * opening_share
    return seconds
