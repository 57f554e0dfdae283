"""Cold start of the Go adapters: the worst time to the move of the Little-Go player (through the local
host, which enforces the course's limits: 10 s of CPU per move, RLIMIT_CPU) and to the first reply and
the first genmove of plies-go5, from a cold and from a warm compiled-kernel cache.

    .venv/bin/python -m bench.coldstart_go [--moves 4] [--out bench/results/coldstart_go.md]

Cold: NUMBA_CACHE_DIR is a fresh empty folder (the warm-up stamp lives there too, so it is cold); the
Little-Go player is run move after move on the same folder, as the host does, so the moves show how
the compile carries over.  Warm: the environment as it is (run `make warmup` first).  Figures, not a test.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from adapters import littlego
from standins import littlego_host as host

ROOT = Path(__file__).resolve().parent.parent
GTP_SCRIPT = "name\ngenmove b\nquit\n"


def littlego_moves(env: dict, moves: int) -> list[dict]:
    """``moves`` runs of the player on the empty board (a new game each time), each a fresh process."""
    me = host.make_player("me")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = host.prepare(me, Path(tmp))
        for k in range(moves):
            (workdir / littlego.NOTES_FILE).unlink(missing_ok=True)
            line, cpu, wall, rss, code, tail = host.run_move(me, workdir, host.Game().input_text(), env=env)
            searched = (workdir / littlego.NOTES_FILE).exists()  # written only after the searched move
            rows.append({"move": k + 1, "cpu": cpu, "wall": wall, "code": code, "output": line.strip(),
                         "searched": searched, "cold_told": "cache of go is cold" in tail,
                         "over": cpu > host.TIME_LIMIT})
    return rows


def go5_times(env: dict) -> dict:
    """Wall seconds from spawn to the first reply (name) and to the genmove's reply of plies-go5."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "adapters.go5"], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdin.write(GTP_SCRIPT)
    proc.stdin.flush()
    marks = []
    for line in proc.stdout:
        if line.startswith("="):
            marks.append(time.perf_counter() - t0)
    err = proc.stderr.read()
    proc.wait()
    return {"first_reply": marks[0] if marks else None, "genmove": marks[1] if len(marks) > 1 else None,
            "cold_told": "cache of go is cold" in err, "code": proc.returncode}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.coldstart_go", description=__doc__.splitlines()[0])
    p.add_argument("--moves", type=int, default=4, help="Little-Go moves per run (cold: the compile carries over)")
    p.add_argument("--out", default=str(ROOT / "bench" / "results" / "coldstart_go.md"))
    args = p.parse_args(argv)
    lines = ["# Cold start of the Go adapters", "",
             f"Command: `.venv/bin/python -m bench.coldstart_go --moves {args.moves}` "
             f"({time.strftime('%Y-%m-%d')}; 2 shared cores).", ""]
    for label in ("cold", "warm"):
        env = dict(os.environ)
        tmp = None
        if label == "cold":
            tmp = tempfile.TemporaryDirectory(prefix="numba-cold-")
            env["NUMBA_CACHE_DIR"] = tmp.name
        try:
            rows = littlego_moves(env, args.moves)
            lines += [f"## Little-Go player, {label} cache (host limit: 10 s of CPU per move)", "",
                      "| run | CPU s | wall s | exit | output.txt | searched (else the fallback) | cold told |",
                      "|---|---|---|---|---|---|---|"]
            lines += [f"| {r['move']} | {r['cpu']:.2f} | {r['wall']:.2f} | {r['code']} | {r['output']} | "
                      f"{'yes' if r['searched'] else 'no'} | {'yes' if r['cold_told'] else 'no'} |" for r in rows]
            worst = max(rows, key=lambda r: r["cpu"])
            lines += ["", f"Worst: {worst['cpu']:.2f} s of CPU, {max(r['wall'] for r in rows):.2f} s wall "
                          f"({'OVER' if any(r['over'] for r in rows) else 'within'} the 10 s limit); every run "
                          f"wrote a move: {all(r['output'] for r in rows)}.", ""]
            if label == "cold":  # the compile of the first runs is in the cache: go5 starts from there
                tmp2 = tempfile.TemporaryDirectory(prefix="numba-cold-")
                env["NUMBA_CACHE_DIR"] = tmp2.name
            g = go5_times(env)
            if label == "cold":
                tmp2.cleanup()
            lines += [f"## plies-go5, {label} cache (gogui-regress: no clock)", "",
                      f"first reply (`name`) after {g['first_reply']:.2f} s wall, first `genmove b` after "
                      f"{g['genmove']:.2f} s; cold cache told on stderr: {'yes' if g['cold_told'] else 'no'}; "
                      f"exit {g['code']}.", ""]
        finally:
            if tmp is not None:
                tmp.cleanup()
        print("\n".join(lines[-12:]), flush=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"written {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
