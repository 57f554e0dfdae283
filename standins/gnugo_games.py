"""GNU Go self-play records for the Go move weights: ``python -m standins.gnugo_games``.

GNU Go (``gnugo --mode gtp --chinese-rules --level L --seed S``, one process per game, driven over
GTP with regress/gtp_client.py) is the player of engines/learn/go/games.py's self-play loop, which
owns the random opening, the rules check, the SGF records and the resumable, parallel generation
(see its docstring).  The fitter is engines/learn/go/mm.py.

    python -m standins.gnugo_games --games 240 --size 9 --level 10 --out games/go9 --jobs 2

Exit status: 0 done, 1 some games failed (listed on stderr), 2 bad arguments.
"""
import argparse
import functools
import sys

from engines.games.go import Go
from engines.learn.go.games import RecordFailure, generate
from protocols.common import ProtocolError
from protocols.gtp import PASS, format_vertex, parse_vertex
from regress.gtp_client import EngineFailure, GtpClient, GtpFailure

GNUGO = "/usr/games/gnugo"
GENMOVE_TIMEOUT = 300.0  # seconds one genmove may take before GNU Go is taken for hung


class GnuGo:
    """GNU Go as the self-play player of engines.learn.go.games (one process per game)."""

    def __init__(self, seed: int, level: int = 10, program: str = GNUGO):
        self.command = [program, "--mode", "gtp", "--chinese-rules", "--level", str(level), "--seed", str(seed)]
        self.info = {"generator": "gnugo", "level": level}
        self.client = None
        self.game = None

    def _ok(self, line, timeout=60.0):
        try:
            return self.client.ok(line, timeout=timeout)
        except (EngineFailure, GtpFailure) as exc:
            raise RecordFailure(f"GNU Go: {exc}") from None

    def start(self, size: int, komi: float):
        self.game = Go(size=size, komi=komi)
        try:
            self.client = GtpClient(self.command)
        except OSError as exc:
            raise RecordFailure(f"cannot start {self.command[0]}: {exc}") from None
        self.info["version"] = self._ok("version") or "unknown"
        self._ok(f"boardsize {size}")
        self._ok("clear_board")
        self._ok(f"komi {komi:g}")

    def play(self, player: int, action: int):
        self._ok(f"play {'bw'[player]} {format_vertex(self.game.point_of(action), self.game.size)}")

    def genmove(self, player: int):
        reply = self._ok(f"genmove {'bw'[player]}", timeout=GENMOVE_TIMEOUT)
        if reply.lower() == "resign":
            return None
        try:
            point = parse_vertex(reply, self.game.size)
        except ProtocolError as exc:
            raise RecordFailure(f"GNU Go's move {reply!r}: {exc}") from None
        return self.game.pass_action if point is PASS else self.game.action_at(point)

    def final_score(self) -> str:
        return self._ok("final_score")

    def close(self):
        if self.client is not None:
            self.client.close()
            self.client = None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m standins.gnugo_games", description=__doc__.split("\n")[0],
                                     epilog="exit status: 0 done, 1 some games failed, 2 bad arguments")
    parser.add_argument("--games", type=int, default=200, help="number of games (seeds SEED .. SEED+GAMES-1)")
    parser.add_argument("--size", type=int, default=9, help="board size")
    parser.add_argument("--level", type=int, default=10, help="GNU Go level (0..10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--random-moves", type=int, default=4, help="at most this many random opening moves")
    parser.add_argument("--komi", type=float, default=7.0)
    parser.add_argument("--out", default="games/go9", help="folder of the SGF records")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--gnugo", default=GNUGO, help="the GNU Go program")
    args = parser.parse_args(argv)
    if args.games < 0 or not (2 <= args.size <= 19) or args.jobs < 1 or args.random_moves < 0:
        parser.error("--games >= 0, 2 <= --size <= 19, --jobs >= 1, --random-moves >= 0")
    from tqdm import tqdm
    factory = functools.partial(GnuGo, level=args.level, program=args.gnugo)
    with tqdm(total=args.games, desc=f"go{args.size} L{args.level}", unit="game") as bar:
        written, skipped, errors = generate(args.out, factory, args.games, level=args.level, size=args.size,
                                            seed=args.seed, jobs=args.jobs, random_moves=args.random_moves,
                                            komi=args.komi, progress=bar.update)
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    print(f"{written} games written, {skipped} already there, {len(errors)} failed: {args.out}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
