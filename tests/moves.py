"""Move text for tests, through the protocol modules and the board view (as an adapter does it),
plus the algebraic squares ('d3': column letter, row from 1 at the top) that the Othello drawing uses."""
from engines.errors import IllegalMove
from protocols import gtp, otp


def go5_attempt(game, state, move: int, colour: int | None = None):
    """(state after a go5 play attempt, None) or (the state it leaves behind, Reason) when illegal."""
    try:
        return game.go5_play(state, move, colour), None
    except IllegalMove as illegal:
        return illegal.after, illegal.reason


def gtp_move(game, text: str) -> int:
    """The action of a GTP vertex ('d4', 'pass')."""
    return game.action_at(gtp.parse_vertex(text, game.size))


def gtp_text(game, action: int) -> str:
    return gtp.format_vertex(game.point_of(action), game.size)


def otp_move(game, text: str) -> int:
    return game.action_at(otp.parse_move(text, game.size))


def square(game, text: str) -> int:
    """The action of an algebraic square ('d3'; 'pass')."""
    text = text.strip().lower()
    if text == "pass":
        return game.action_at(None)
    return game.action(int(text[1:]) - 1, ord(text[0]) - ord("a"))
