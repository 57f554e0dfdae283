"""Little-Go player for the course host: ``python3 my_player3.py`` in a folder with input.txt.

Copy this file anywhere (``plies littlego install DIR`` also writes my_player3.json beside it).  It
finds plies (the package ``adapters`` with the engine) in this order: the running Python; the
folder named by PLIES_HOME; else it restarts itself under the Python named by PLIES_PYTHON, by
"python" in my_player3.json beside this file, or by the ``plies`` command on PATH.  The CPU budget
per move: PLIES_LITTLEGO_SECONDS, else "seconds" in my_player3.json, else the default (2 s), all
counted from process start.  The player itself is adapters/littlego.py.
"""
import time  # first: the budget is CPU time since process start (time.process_time), imports included

import os
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one thread: the host counts the CPU time of every thread

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = "my_player3.json"
RESTARTED = "PLIES_LITTLEGO_RESTARTED"


def _config():
    import json
    try:
        with open(os.path.join(HERE, CONFIG)) as f:
            data = json.load(f)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _interpreters():
    """Pythons that may have plies, best first."""
    found = [os.environ.get("PLIES_PYTHON"), _config().get("python")]
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
        "or set PLIES_PYTHON to that Python (e.g. /path/to/plies/.venv/bin/python), or install plies into "
        "this Python (pip install -e /path/to/plies).\n" % (sys.executable, error, HERE, CONFIG))
    return 1


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # skip the interpreter's tear-down: its CPU time would count against the move
