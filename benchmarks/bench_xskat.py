"""skatsim's simulator beside xskat's on this machine, games per second on one core, end to end.

Usage::

    python benchmarks/bench_xskat.py --games 1000000 --xskat-games 200000 [--cold]
    python benchmarks/bench_xskat.py --games 10000000 --xskat-games 1000000 --jobs 2

xskat (Debian package ``xskat``) plays ``-auto N`` games headless with its own bots,
single-threaded, as a new process; with ``--jobs J``, J such processes at once (one a core, their
games per second summed): the peer of a run on J cores. skatsim is timed two ways in the same run:

* **end to end**: ``skatsim simulate variants/official.yaml --games N --jobs J`` as a new
  process, Parquet written, warm numba cache: what a user runs. Wall time of the whole
  process (start-up included) and its CPU time (user + system, every thread: one job runs
  one kernel at a time, with the writing of the last chunk on a second thread);
* **kernel**: :func:`skatsim.engine.block.simulate_block` with the default bots in this
  process, in blocks of ``skatsim.run.chunks.BLOCK`` games into one kept matrix as a run plays them
  (``bench_simulate.kernel_rate``)
  (one block of a million games ran at three quarters of that speed), compilation excluded.

``--cold`` adds one end-to-end run on an empty numba cache (everything compiled) and its
ratio to the warm run. Every figure is the best of ``--repeats``, the runs interleaved.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_simulate import kernel_rate  # this folder's: the kernel timed as a run plays it

from skatsim.bots import DEFAULT_BOTS, parse_bots
from skatsim.variant import official_params

XSKAT_PATHS = ("xskat", "/usr/games/xskat")
VARIANT = Path(__file__).resolve().parent.parent / "variants" / "official.yaml"


def xskat_rate(games: int, repeats: int, processes: int = 1) -> float | None:
    """Games per second of ``xskat -auto`` (``processes`` at once, ``games`` each, their rates summed:
    the time of the slowest); None when xskat is not installed."""
    exe = next((p for p in (shutil.which(n) for n in XSKAT_PATHS) if p), None)
    if exe is None:
        return None
    best = float("inf")
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as home:  # xskat keeps lists and logs in $HOME
            start = time.perf_counter()
            running = []
            for k in range(processes):
                os.makedirs(f"{home}/{k}")
                running.append(
                    subprocess.Popen(
                        [exe, "-auto", str(games)],
                        env={**os.environ, "HOME": f"{home}/{k}"},
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                )
            if any(p.wait() != 0 for p in running):
                raise SystemExit("xskat -auto failed")
            best = min(best, time.perf_counter() - start)
    return processes * games / best


def end_to_end(games: int, cache: str | None = None, jobs: int = 1) -> tuple[float, float]:
    """Wall and CPU seconds (the child's user + system) of ``skatsim simulate --jobs JOBS`` as a new
    process; ``cache`` an empty numba cache folder for a cold run."""
    env = dict(os.environ, **({"NUMBA_CACHE_DIR": cache} if cache else {}))
    with tempfile.TemporaryDirectory() as out:
        command = [sys.executable, "-m", "skatsim", "simulate", str(VARIANT), "--games", str(games)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([*command, "--jobs", str(jobs), "--out", f"{out}/run", "--quiet"], env=env, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="skatsim games per timing")
    parser.add_argument("--xskat-games", type=int, default=200_000, help="xskat games per timing")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="also one end-to-end run on an empty numba cache")
    parser.add_argument(
        "--jobs", type=int, default=1, help="skatsim's jobs, and as many xskat processes at once (default 1)"
    )
    args = parser.parse_args()
    jobs = args.jobs
    end_to_end(1000)  # fills the numba cache: the warm runs below load it
    kernel, theirs, walls, cpus = 0.0, None, [], []
    for _ in range(args.repeats):
        kernel = max(kernel, kernel_rate(args.games, parse_bots(DEFAULT_BOTS), official_params(), 1))
        rate = xskat_rate(args.xskat_games, 1, jobs)
        theirs = None if rate is None else max(theirs or 0.0, rate)
        wall, cpu = end_to_end(args.games, jobs=jobs)
        walls.append(wall)
        cpus.append(cpu)
    wall, cpu = min(walls), min(cpus)
    print(f"skatsim simulate --jobs {jobs}, {args.games:,} games, end to end (warm cache):")
    print(f"  wall {wall:.2f} s = {args.games / wall:>10,.0f} games/s")
    print(f"  CPU  {cpu:.2f} s = {args.games / cpu:>10,.0f} games per CPU-second")
    print(f"skatsim kernel, {DEFAULT_BOTS} bots, one core:     {kernel:>10,.0f} games/s")
    if args.cold:
        with tempfile.TemporaryDirectory() as cache:
            cold, _ = end_to_end(args.games, cache, jobs)
        print(f"cold start (empty numba cache): {cold:.1f} s, {cold / wall:.1f}x the warm run")
    if theirs is None:
        print("xskat: not installed (apt-get install xskat)")
        return
    cores = "one core" if jobs == 1 else f"{jobs} processes at once"
    print(f"{'xskat -auto, ' + cores + ':':<49}{theirs:>10,.0f} games/s")
    print(f"ratio end to end (wall) / xskat:                 {args.games / wall / theirs:>10.1f}x")
    print(f"ratio end to end (CPU) / xskat:                  {args.games / cpu * jobs / theirs:>10.1f}x")
    print(f"ratio kernel / xskat:                            {kernel * jobs / theirs:>10.1f}x")


if __name__ == "__main__":
    main()
