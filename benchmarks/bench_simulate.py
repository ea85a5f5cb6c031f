"""Simulation speed and memory: kernel games/s per core, end-to-end games/s with Parquet written, peak RSS.

Usage::

    python benchmarks/bench_simulate.py --games 10000000 --jobs 2 --bots heuristic

The kernel figure times :func:`skatsim.engine.block.simulate_block` alone in this
process after a warm-up (compilation excluded). The end-to-end figure times
:func:`skatsim.run.runner.run_simulation` from the call to the last chunk file
written, everything included (worker start, typed frames, Parquet, manifest).
Peak memory is the maximum resident set size of this process (up to four jobs run as its threads) and
of the largest worker process beyond those (``getrusage``; workers are shut down first so they count).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time

import numpy as np

from skatsim import __version__
from skatsim.bots import DEFAULT_BOTS, bot_arrays, parse_bots
from skatsim.engine.block import simulate_block
from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS
from skatsim.run.chunks import BLOCK, warm_up
from skatsim.run.local_backend import LocalBackend
from skatsim.run.runner import run_simulation
from skatsim.variant import load_variant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANT = os.path.join(ROOT, "variants", "official.yaml")
MIB = 1024 * 1024


def kernel_rate(games: int, bots: tuple[str, str, str], params: np.ndarray, seed: int) -> float:
    """Games per second of the compiled kernel alone on one core, in blocks as the runner uses them."""
    kinds, bot_params = bot_arrays(bots, params)
    rows = np.zeros((BLOCK, N_COLUMNS), dtype=np.int64)
    logs = np.zeros((0, LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(seed), 0, kinds, bot_params, params, rows[:1000], logs)  # warm-up
    start = time.perf_counter()
    for first in range(0, games, BLOCK):
        n = min(BLOCK, games - first)
        simulate_block(np.uint64(seed), first, kinds, bot_params, params, rows[:n], logs)
    return games / (time.perf_counter() - start)


def end_to_end(games: int, jobs: int, bots: str, seed: int, out: str) -> tuple[float, int]:
    """Seconds for a full run into ``out`` and the bytes it wrote."""
    warm_up()  # compile (or load) once here so the timing is the run, not numba's first compilation
    start = time.perf_counter()
    run_simulation(VARIANT, games, seed, out, jobs=jobs, bots=bots, progress=False)
    seconds = time.perf_counter() - start
    size = sum(entry.stat().st_size for entry in os.scandir(out))
    return seconds, size


def peak_rss() -> tuple[float, float]:
    """Peak resident memory (MiB) of this process and of the largest reaped child (Linux reports KiB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return own * 1024 / MIB, children * 1024 / MIB


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="games end to end (default 1,000,000)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="jobs, as simulate --jobs")
    parser.add_argument("--bots", default=DEFAULT_BOTS, help=f"bots, one or FH,MH,RH (default {DEFAULT_BOTS})")
    parser.add_argument("--kernel-games", type=int, default=500_000, help="games for the kernel-only timing")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    seats = parse_bots(args.bots)
    params = load_variant(VARIANT).variant.params()

    out = tempfile.mkdtemp(prefix="bench-simulate-")
    try:
        seconds, size = end_to_end(args.games, args.jobs, args.bots, args.seed, os.path.join(out, "run"))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    own, worker = peak_rss()
    workers = LocalBackend(args.jobs).workers  # worker processes beside this one
    kernel = kernel_rate(args.kernel_games, seats, params, args.seed)

    print(f"skatsim {__version__}, bots {','.join(seats)}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    table = [
        ("kernel games/s per core", f"{kernel:,.0f}", f"{args.kernel_games:,} games, one process"),
        (f"end to end games/s, {args.jobs} jobs", f"{args.games / seconds:,.0f}", f"{args.games:,} games"),
        ("end to end seconds", f"{seconds:.2f}", "Parquet files and manifest written"),
        ("Parquet written", f"{size / MIB:,.1f} MiB", f"{size / args.games:.1f} bytes/game"),
        ("peak RSS, main process", f"{own:,.0f} MiB", f"jobs as its threads: {LocalBackend(args.jobs).threads}"),
        (
            "peak RSS, largest worker",
            f"{worker:,.0f} MiB",
            f"worker processes: {workers}; total <= {own + workers * worker:,.0f} MiB",
        ),
    ]
    width = max(len(row[0]) for row in table)
    for name, value, note in table:
        print(f"{name:<{width}}  {value:>14}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
