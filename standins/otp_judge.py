"""A local stand-in for the Othello course judge (OTP over TCP; ours, not the course's code).

    python -m standins.otp_judge PORT ROUNDS -- CMD1 ... -- CMD2 ...     (PORT 0: any free port)

It listens on 127.0.0.1:PORT, starts CMD1 with "127.0.0.1 PORT" appended, waits for its connection,
then starts CMD2 the same way, so CMD1 connects first and is black in round 1; colours swap every
round.  Framing and rules as the real judge has them (specs/otp.md): one send() per message with
no newline, one recv() per reply, the reply's first word compared case-insensitively (a reply with a
trailing newline or other white space around it does not match), ``name`` first, then each round
``clear_board``, ``genmove`` to the side to move and ``play X Y`` of its move to the other, until
two passes in a row; ``quit`` at the end.  Limits: SHORT_LIMIT for name/clear_board/play/quit,
GENMOVE_LIMIT for genmove.  An illegal move, a malformed or late reply, or a disconnect forfeits:
the engine loses that round and every remaining round, and is never sent quit.  The report gives
WIN/LOSE/DRAW per engine per round and every genmove latency the judge measured.
"""
import socket
import subprocess
import sys
import time

from engines.games import make_game
from protocols import otp
from protocols.common import PASS, ProtocolError

SHORT_LIMIT = 1.0     # seconds for name, clear_board, play, quit
GENMOVE_LIMIT = 10.0  # seconds for genmove
CONNECT_LIMIT = 10.0  # seconds for an engine to connect after it is started


class Forfeit(Exception):
    """An engine broke a rule; args: (engine index, reason)."""


class Judge:
    """Listens on 127.0.0.1:port (0: any free port, then read .port) and plays rounds between two
    engine connections."""

    def __init__(self, port: int = 0, rounds: int = 2, short_limit: float = SHORT_LIMIT,
                 genmove_limit: float = GENMOVE_LIMIT, connect_limit: float = CONNECT_LIMIT, log=None):
        if rounds < 1:
            raise ValueError(f"rounds must be >= 1, got {rounds}")
        self.rounds = rounds
        self.short_limit, self.genmove_limit, self.connect_limit = short_limit, genmove_limit, connect_limit
        self.log = log
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", port))
        self.server.listen(2)
        self.port = self.server.getsockname()[1]
        self.conns = []
        self.game = make_game("othello", size=8)

    # ---- connections --------------------------------------------------------------------------
    def accept(self):
        """Wait for the next engine's connection (the first one is black in round 1)."""
        self.server.settimeout(self.connect_limit)
        conn, _ = self.server.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.conns.append(conn)

    def close(self):
        for conn in self.conns:
            conn.close()
        self.server.close()

    def exchange(self, index: int, command: str, limit: float) -> tuple[list[str], float]:
        """Send command to engine index, read one reply within limit: (its fields, seconds taken)."""
        conn = self.conns[index]
        word = command.split()[0]
        try:
            conn.settimeout(limit)
            start = time.perf_counter()
            conn.send(otp.encode(command))
            reply = conn.recv(otp.MAX_MESSAGE + 1)
            elapsed = time.perf_counter() - start
        except socket.timeout:
            raise Forfeit(index, f"no reply to {command!r} within {limit} s") from None
        except OSError as err:
            raise Forfeit(index, f"connection error on {command!r}: {err}") from None
        if not reply:
            raise Forfeit(index, f"disconnected on {command!r}")
        if self.log:
            self.log(f"-> {index}: {command!r}  <- {reply!r}  ({elapsed:.3f} s)")
        try:
            return otp.parse_reply(word, reply), elapsed
        except ProtocolError as err:
            raise Forfeit(index, str(err)) from None

    # ---- the match ----------------------------------------------------------------------------
    def play_round(self, black: int, latency: dict) -> int:
        """One game, engine black playing black; returns black discs minus white discs."""
        game = self.game
        seat = {otp.player_of("black"): black, otp.player_of("white"): 1 - black}  # player -> engine
        for i in (0, 1):
            self.exchange(i, otp.format_command("clear_board"), self.short_limit)
        state = game.initial_state()
        passes = 0
        player = otp.player_of("black")  # the judge's side to move; its own count of passes decides the end
        while passes < 2:
            mover = seat[player]
            fields, elapsed = self.exchange(mover, otp.format_command("genmove"), self.genmove_limit)
            latency[mover].append(elapsed)
            try:
                point = otp.parse_move(" ".join(fields))
            except ProtocolError as err:
                raise Forfeit(mover, f"malformed genmove reply: {err}") from None
            if point is PASS:
                if game.is_terminal(state):
                    pass  # the closing exchange
                elif game.must_pass(state):
                    state = game.play(state, game.pass_action)
                else:
                    raise Forfeit(mover, "passed while a placement exists")
                passes += 1
            else:
                move = game.action(*point)
                if game.is_terminal(state) or game.illegal_reason(state, move) is not None:
                    raise Forfeit(mover, f"illegal move {' '.join(fields)}")
                state = game.play(state, move)
                passes = 0
            self.exchange(1 - mover, otp.format_command("play", otp.format_move(point)), self.short_limit)
            player = 1 - player
        return otp.final_score(game.cells(state))

    def run(self) -> dict:
        """name, the rounds, quit; returns the report (the two connections must be accepted)."""
        names, rounds, latency, forfeits = [None, None], [], {0: [], 1: []}, {}
        for i in (0, 1):
            try:
                names[i] = " ".join(self.exchange(i, otp.format_command("name"), self.short_limit)[0])
            except Forfeit as f:
                forfeits[f.args[0]] = {"round": 0, "reason": f.args[1]}
        for r in range(self.rounds):
            black = r % 2
            result = {"round": r + 1, "black": black, "score": None, "forfeit": None}
            if forfeits:  # a forfeit loses every remaining round
                loser = min(forfeits)
                outcome = {loser: "LOSE", 1 - loser: "WIN"} if len(forfeits) == 1 else {0: "LOSE", 1: "LOSE"}
            else:
                try:
                    score = self.play_round(black, latency)
                    result["score"] = score
                    winner = None if score == 0 else (black if score > 0 else 1 - black)
                    outcome = {0: "DRAW", 1: "DRAW"} if winner is None else {winner: "WIN", 1 - winner: "LOSE"}
                except Forfeit as f:
                    forfeits[f.args[0]] = {"round": r + 1, "reason": f.args[1]}
                    result["forfeit"] = {"engine": f.args[0], "reason": f.args[1]}
                    outcome = {f.args[0]: "LOSE", 1 - f.args[0]: "WIN"}
            result["results"] = [outcome[0], outcome[1]]
            rounds.append(result)
        quit_ok = {}
        for i in (0, 1):
            if i not in forfeits:
                try:
                    self.exchange(i, otp.format_command("quit"), self.short_limit)
                    quit_ok[i] = True
                except Forfeit as f:
                    quit_ok[i] = False
                    forfeits[i] = {"round": None, "reason": f.args[1]}
        return {"names": names, "rounds": rounds, "latency": latency, "forfeits": forfeits, "quit": quit_ok}


def run_match(commands, rounds: int = 2, port: int = 0, log=None, **limits) -> dict:
    """Start the two engine commands (argv lists; "127.0.0.1 PORT" appended), play rounds, and
    return the report with each engine's exit status and standard error."""
    judge = Judge(port, rounds, log=log, **limits)
    procs = []
    try:
        for argv in commands:
            procs.append(subprocess.Popen([*argv, "127.0.0.1", str(judge.port)], stdin=subprocess.DEVNULL,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
            judge.accept()
        report = judge.run()
    finally:
        judge.close()
        statuses, errors = [], []
        for p in procs:
            try:
                _, err = p.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                _, err = p.communicate()
            statuses.append(p.returncode)
            errors.append(err)
    report["exit_status"] = statuses
    report["stderr"] = errors
    return report


def summary(report: dict) -> str:
    lines = []
    for r in report["rounds"]:
        line = (f"round {r['round']}: black {report['names'][r['black']]}  "
                f"{report['names'][0]} {r['results'][0]}, {report['names'][1]} {r['results'][1]}")
        if r["score"] is not None:
            line += f"  (black - white = {r['score']})"
        if r["forfeit"]:
            line += f"  forfeit of engine {r['forfeit']['engine']}: {r['forfeit']['reason']}"
        lines.append(line)
    for i in (0, 1):
        lat = sorted(report["latency"][i])
        if lat:
            lines.append(f"{report['names'][i]}: {len(lat)} genmoves, median {lat[len(lat) // 2]:.3f} s, "
                         f"max {lat[-1]:.3f} s")
    return "\n".join(lines)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["random"]:
        from standins.otp_random import main as random_main
        return random_main(argv[1:])
    if argv.count("--") != 2 or argv.index("--") != 2:
        print("usage: python -m standins.otp_judge PORT ROUNDS -- CMD1 ... -- CMD2 ...\n"
              "       python -m standins.otp_judge random HOST PORT   (a random OTP engine)", file=sys.stderr)
        return 2
    port, rounds = int(argv[0]), int(argv[1])
    second = argv.index("--", 3)
    commands = [argv[3:second], argv[second + 1:]]
    report = run_match(commands, rounds, port)
    print(summary(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
