"""README's first command on a fresh install: its run against the warm run (issue 15, cold start).

Usage::

    python benchmarks/bench_cold_start.py [--games 1000000] [--warm-runs 2] [--rev HEAD]

What a newcomer does, timed: the repository at ``--rev`` cloned into a temporary folder, a new venv,
``pip install -q .`` (which compiles the simulation's kernels, ``setup.py``), then README's
``skatsim simulate variants/official.yaml --games N --out runs/demo`` with an empty kernel cache
(``XDG_CACHE_HOME`` a new folder), then the same command ``--warm-runs`` times more. Prints the wall
time of the install, of the first run and of each warm run, and the first run against the best warm
run (the goal: at most 4x). Needs the package index pip uses (the install downloads what README's
install downloads); takes about as long as that install plus the runs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Wall seconds of ``command`` (its output kept back unless it fails)."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--warm-runs", type=int, default=2)
    parser.add_argument("--rev", default="HEAD", help="the commit to install (default: HEAD)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "skatsim"
        subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
        subprocess.run(["git", "checkout", "-q", args.rev], cwd=clone, check=True)
        env = {**os.environ, "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
        env.pop("NUMBA_CACHE_DIR", None)
        install = timed(["sh", "-c", "python3 -m venv .venv && .venv/bin/pip install -q ."], clone, env)
        print(f"pip install .: {install:.1f} s", flush=True)
        runs = []
        for i in range(1 + args.warm_runs):
            command = [".venv/bin/skatsim", "simulate", "variants/official.yaml", "--games", str(args.games)]
            runs.append(timed([*command, "--out", f"runs/demo{i}"], clone, env))
            print(f"{'first' if i == 0 else 'warm'} run: {runs[-1]:.2f} s", flush=True)
        if args.warm_runs:
            print(f"first run / best warm run: {runs[0] / min(runs[1:]):.2f}x (goal: at most 4x)")


if __name__ == "__main__":
    main()
