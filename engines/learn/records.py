"""What the game records of every game share (engines/learn/go/games.py, engines/learn/hex/records.py):
the key=value words of a record's GC property, and a record written once under its final name.

A record's GC holds words such as ``generator=gnugo seed=12 random=3 cpu=4.20`` (each game's module
says which); ``game_info`` reads them back as text.  ``write_once`` writes a record to a temporary
name and renames it, so a file that exists is complete and generation is resumable.
"""
import os
import re
from pathlib import Path

_GC_WORD = re.compile(r"([a-z]+)=(\S+)")


def game_info(record) -> dict:
    """The key=value words of a record's GC (sgfmill Sgf_game) as text; {} when absent."""
    root = record.get_root()
    if not root.has_property("GC"):
        return {}
    return dict(_GC_WORD.findall(root.get("GC")))


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
