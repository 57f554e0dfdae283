"""Little-Go player for the course host: ``python3 my_player3.py`` in a folder with input.txt.

Copy this file anywhere (``plies littlego install DIR`` also writes my_player3.toml beside it).  It
finds plies (the package ``adapters`` with the engine) in this order: the running Python; the
folder named by PLIES_HOME; else it restarts itself under the Python of the ``python`` setting
(PLIES_LITTLEGO_PYTHON, else ``python`` in my_player3.toml beside this file), or of the ``plies``
command on PATH.  The player
itself, its settings (the other keys of my_player3.toml) and its exit statuses are
adapters/littlego.py's; this file adds status 1: plies cannot be found.
"""

import os
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one thread: the host counts the CPU time of every thread

HERE = os.path.dirname(os.path.abspath(__file__))
SETTINGS = "my_player3.toml"  # adapters/littlego.py reads the other keys
RESTARTED = "PLIES_LITTLEGO_RESTARTED"


def _python_setting():
    """The ``python`` key of SETTINGS (None when the file or the key is missing or unreadable)."""
    try:
        with open(os.path.join(HERE, SETTINGS), "rb") as f:
            text = f.read()
        try:
            import tomllib
        except ImportError:  # a python3 older than 3.11: read the line `plies littlego install` writes
            import json
            import re
            line = re.search(rb'^python\s*=\s*("(?:[^"\\]|\\.)*")\s*$', text, re.MULTILINE)
            return json.loads(line.group(1)) if line else None
        return tomllib.loads(text.decode("utf-8")).get("python")
    except (OSError, ValueError):
        return None


def _interpreters():
    """Pythons that may have plies, best first."""
    found = [os.environ.get("PLIES_LITTLEGO_PYTHON") or _python_setting()]
    import shutil
    plies = shutil.which("plies")
    if plies:
        try:
            with open(plies, "rb") as f:
                line = f.readline().decode("utf-8", "replace").strip()
            if line.startswith("#!"):
                found.append(line[2:].strip().split()[0])
        except (OSError, IndexError):
            pass
    return [p for p in found if isinstance(p, str) and p]


def _load():
    home = os.environ.get("PLIES_HOME")
    if home:
        sys.path.insert(0, home)
    try:
        from adapters import littlego  # light: the engine loads once the fallback move is written
    except ImportError as e:
        return None, e
    from importlib.util import find_spec
    missing = [m for m in ("engines", "numpy", "numba") if find_spec(m) is None]
    if missing:
        return None, ImportError("no module named " + ", ".join(missing))
    return littlego, None


def main():
    littlego, error = _load()
    if littlego is not None:
        return littlego.main(HERE)
    if not os.environ.get(RESTARTED):
        me = os.path.abspath(sys.executable)  # not realpath: a venv's python links to its base one
        for python in _interpreters():
            if os.path.isfile(python) and os.access(python, os.X_OK) and os.path.abspath(python) != me:
                os.environ[RESTARTED] = "1"
                sys.stderr.flush()
                os.execv(python, [python, os.path.abspath(__file__)] + sys.argv[1:])
    sys.stderr.write(
        "my_player3.py: cannot import plies with %s (%s).\n"
        "Fix: run `plies littlego install %s` with the plies installation (it writes %s naming its Python), "
        "or set PLIES_LITTLEGO_PYTHON to that Python (e.g. /path/to/plies/.venv/bin/python), or install plies into "
        "this Python (pip install -e /path/to/plies).\n" % (sys.executable, error, HERE, SETTINGS))
    return 1


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # skip the interpreter's tear-down: its CPU time would count against the move
