"""The size of each install route (setup.cfg's extras), measured in fresh virtual environments.

    python -m bench.install_sizes [--work /tmp/plies-sizes] [--before] [--out bench/results/install_sizes.md]

One venv under --work, filled one job at a time as the Makefile does (torch==2.13.0, the local CPU
build, before the train extra): the runtime (`pip install .`), + demo, + train, + dev (what `make test`
has: dev and train; dev holds the demo's packages too), + bench; `du -sm` of the venv after each step.
With --before, also the install `make demo` did before the extras were split (`.[dev]` with the
setup.cfg of --before-rev, default 906665f). The project is installed from a copy (a build writes build/
and *.egg-info beside its sources), never into the tree's .venv. Figures, not a test.
"""
import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STEPS = (  # (label, what pip installs in this step; the project copy is {src})
    ("runtime (`pip install .`, `make install`)", ["{src}"]),
    ("+ demo (`pip install .[demo]`, `make demo`)", ["{src}[demo]"]),
    ("+ train (`make train-extra`: torch 2.13.0 CPU, Ray, matplotlib, tqdm)", ["torch==2.13.0", "{src}[train]"]),
    ("+ dev (`make test`: dev and train)", ["{src}[dev,train]"]),
    ("+ bench (`make bench`: OpenSpiel, psutil)", ["{src}[bench]"]),
)


def copy_project(dest: Path, setup_cfg: str | None = None) -> Path:
    ignore = shutil.ignore_patterns(".venv", "runs", "build", "*.egg-info", "__pycache__", ".git", ".pytest_cache")
    shutil.copytree(ROOT, dest, ignore=ignore)
    if setup_cfg is not None:
        (dest / "setup.cfg").write_text(setup_cfg)
    return dest


def du_mb(path: Path) -> int:
    return int(subprocess.run(["du", "-sm", str(path)], capture_output=True, text=True, check=True).stdout.split()[0])


def make_venv(path: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    return path / "bin" / "pip"


def pip_install(pip: Path, specs: list[str]) -> float:
    t0 = time.perf_counter()
    for spec in specs:
        subprocess.run([str(pip), "install", "--quiet", spec], check=True)
    return time.perf_counter() - t0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.install_sizes", description=__doc__.splitlines()[0])
    p.add_argument("--work", type=Path, default=Path("/tmp/plies-install-sizes"), help="scratch folder (emptied)")
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "install_sizes.md")
    p.add_argument("--before", action="store_true", help="also measure the old single install of `make demo`")
    p.add_argument("--before-rev", default="906665f", help="the git revision whose setup.cfg is 'before'")
    args = p.parse_args(argv)
    if args.work.exists():
        shutil.rmtree(args.work)
    args.work.mkdir(parents=True)
    src = copy_project(args.work / "src")
    venv = args.work / "venv"
    pip = make_venv(venv)
    empty = du_mb(venv)
    rows = [("empty venv (python -m venv)", empty, 0, 0.0)]
    previous = empty
    for label, specs in STEPS:
        seconds = pip_install(pip, [s.format(src=src) for s in specs])
        size = du_mb(venv)
        rows.append((label, size, size - previous, seconds))
        previous = size
        print(f"{label}: {size} MB (+{rows[-1][2]}) in {seconds:.0f} s", file=sys.stderr)
    before = None
    if args.before:
        old_cfg = subprocess.run(["git", "-C", str(ROOT), "show", f"{args.before_rev}:setup.cfg"],
                                 capture_output=True, text=True, check=True).stdout
        old_src = copy_project(args.work / "src-before", old_cfg)
        old_venv = args.work / "venv-before"
        seconds = pip_install(make_venv(old_venv), [f"{old_src}[dev]"])
        before = (du_mb(old_venv), seconds)
        print(f"before: {before[0]} MB in {seconds:.0f} s", file=sys.stderr)
    lines = ["# Install sizes", "",
             "`python -m bench.install_sizes" + (" --before" if args.before else "") + "`: one fresh venv (Python "
             f"{sys.version.split()[0]}) filled one job at a time, `du -sm` of the whole venv after each step "
             "(pip, setuptools and the project itself included). Cumulative: each row adds its extra to the rows "
             "above it.", "",
             "| install | venv size (MB) | added (MB) | pip time (s) |", "|---|---:|---:|---:|"]
    lines += [f"| {label} | {size} | {added if added else ''} | {seconds:.0f} |" if seconds else
              f"| {label} | {size} | | |" for label, size, added, seconds in rows]
    if before is not None:
        lines += ["", f"Before the split (`make demo` installed `.[dev]` with setup.cfg of `{args.before_rev}`): "
                  f"{before[0]} MB (pip {before[1]:.0f} s)."]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
