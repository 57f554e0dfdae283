"""What the game records of every game share (engines/learn/go/games.py, engines/learn/hex/records.py):
the key=value words of a record's GC property, the CPU time a game cost, and a record written once
under its final name.

A record's GC holds words such as ``generator=gnugo seed=12 random=3 cpu=4.20`` (each game's module
says which; ``game_comment`` writes them); ``game_info`` reads them back as text.  ``cpu_seconds``
counts this process and the children it waited for (an engine driven over a pipe runs in a child).  ``write_once`` writes a record to a temporary
name and renames it, so a file that exists is complete and generation is resumable.
"""
import os
import re
import resource
import time
from pathlib import Path

_GC_WORD = re.compile(r"([a-z]+)=(\S+)")


def game_info(record) -> dict:
    """The key=value words of a record's GC (sgfmill Sgf_game) as text; {} when absent."""
    root = record.get_root()
    if not root.has_property("GC"):
        return {}
    return dict(_GC_WORD.findall(root.get("GC")))


def cpu_seconds() -> float:
    """CPU seconds so far of this process and of the children it has waited for (user and system);
    a game's cost is the difference of two readings."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def game_comment(info: dict, seed: int, random_moves: int, cpu: float) -> str:
    """A record's GC: the player's info words, then seed=, random= (opening moves played at random) and cpu=."""
    words = " ".join(f"{k}={v}" for k, v in info.items())
    return f"{words} seed={seed} random={random_moves} cpu={cpu:.2f}".strip()


def write_once(path, make_record) -> tuple[Path, bool]:
    """Write make_record()'s bytes to path unless it exists (atomically: a temporary name, then a
    rename); (path, written)."""
    path = Path(path)
    if path.exists():
        return path, False
    data = make_record()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path, True
