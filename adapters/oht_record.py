"""The Online Hex Tournament client's record (adapters/oht_client.py): each game (size, our id, starter,
moves with our thinking time, winner) and each series as plain data, a text log appended line by line
(the file closed after each line) and its summary."""
import statistics
from pathlib import Path

SYMBOLS = {0: ".", 1: "X", 2: "O"}


class Record:
    """Each game (size, our id, starter, moves with our thinking time, winner) and each series, as
    plain data (``as_dict``), and a text log (``log_path``, appended line by line, file closed after
    each line) ending with ``summary()``."""

    def __init__(self, log_path=None, echo=None):
        self.log_path = Path(log_path) if log_path else None
        self.echo = echo              # a stream to show the log on as well (None: quiet)
        self.series, self.games = [], []
        self.illegal, self.errors, self.notes = [], [], []
        self.score = None
        self.finished = False

    def log(self, line: str):
        if self.log_path is not None:
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write(line + "\n")
        if self.echo is not None:
            print(line, file=self.echo, flush=True)

    @property
    def latencies(self) -> list:
        return [m[3] for g in self.games for m in g["moves"] if m[3] is not None]

    def totals(self) -> dict:
        done = [g for g in self.games if g["winner"] is not None]
        lat = self.latencies
        return {"games": len(done), "wins": sum(g["won"] for g in done),
                "losses": sum(not g["won"] for g in done), "illegal": len(self.illegal),
                "moves": len(lat), "latency_median": statistics.median(lat) if lat else None,
                "latency_max": max(lat) if lat else None, "score": self.score, "errors": list(self.errors)}

    def summary(self) -> str:
        t = self.totals()
        lines = [f"summary: {t['games']} games, {t['wins']} wins, {t['losses']} losses, "
                 f"{len(self.series)} series, {t['illegal']} illegal actions, score {t['score']}"]
        for s in self.series:
            lines.append(f"  series {s['number']}: {s['size']}x{s['size']} as player {s['series_id']}, "
                         f"{s['wins']} wins / {s['played']} games" + (f", server stats {s['stats']}" if s['stats'] else ""))
        if t["moves"]:
            lines.append(f"  our moves: {t['moves']}, thinking time median {t['latency_median']:.3f} s, "
                         f"max {t['latency_max']:.3f} s")
        lines += [f"  note: {n}" for n in self.notes] + [f"  error: {e}" for e in self.errors]
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return {"series": self.series, "games": self.games, "illegal": self.illegal, "totals": self.totals(),
                "notes": self.notes, "finished": self.finished}


def move_text(player: int, row: int, col: int) -> str:
    return f"{SYMBOLS[player]}({row},{col})"
