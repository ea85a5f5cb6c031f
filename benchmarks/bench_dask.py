"""Overhead of the Dask backend: N games through a 2-worker LocalCluster vs the local run.

Usage::

    python benchmarks/bench_dask.py --games 10000000 --workers 2 --bots heuristic

Three timings of :func:`skatsim.run.runner.run_simulation`, same games, same
chunk plan, Parquet written into a fresh temporary folder each time:

- ``local``: ``--backend local --jobs W`` (up to four jobs as threads of this process, the rest in
  loky worker processes);
- ``dask, running cluster``: ``--backend dask --scheduler ADDRESS`` on a
  ``LocalCluster`` of W single-thread worker processes started beforehand
  (how a real cluster is used: its start-up is not part of a run);
- ``dask, cluster started by the run``: ``--backend dask --jobs W`` without
  a scheduler, so the run starts and closes its own ``LocalCluster``.

The overhead is each Dask time over the local time, minus one. The kernel is
compiled (or loaded from numba's cache) before any timing. ``--repeat R``
runs each R times, in turns, and keeps each one's fastest time, which damps
noise from other processes on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial

from skatsim import __version__
from skatsim.bots import DEFAULT_BOTS, parse_bots
from skatsim.run.chunks import warm_up
from skatsim.run.dask_backend import local_cluster
from skatsim.run.runner import run_simulation

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANT = os.path.join(ROOT, "variants", "official.yaml")


def timed(run: Callable[[str], object]) -> float:
    """Seconds ``run`` takes to fill a fresh folder (removed afterwards)."""
    folder = tempfile.mkdtemp(prefix="bench-dask-")
    try:
        start = time.perf_counter()
        run(os.path.join(folder, "run"))
        return time.perf_counter() - start
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000, help="games per run (default 10,000,000)")
    parser.add_argument("--workers", type=int, default=2, help="local jobs and Dask worker processes (default 2)")
    parser.add_argument("--bots", default=DEFAULT_BOTS, help=f"bots, one or FH,MH,RH (default {DEFAULT_BOTS})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk-size", type=int, default=None, help="games per chunk (default: the runner's)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each kind, fastest kept (default 1)")
    args = parser.parse_args(argv)
    seats = parse_bots(args.bots)
    common = {"jobs": args.workers, "bots": args.bots, "chunk_size": args.chunk_size, "progress": False}

    def simulate(out: str, backend: str = "local", scheduler: str | None = None) -> None:
        options = {"scheduler": scheduler} if backend == "dask" else None
        run_simulation(VARIANT, args.games, args.seed, out, backend=backend, backend_options=options, **common)

    warm_up()
    times: dict[str, list[float]] = {"local": [], "running": [], "started": []}
    for _ in range(args.repeat):
        times["local"].append(timed(simulate))
        with local_cluster(args.workers) as cluster:  # the cluster the backend starts without --scheduler
            address = cluster.scheduler_address
            times["running"].append(timed(partial(simulate, backend="dask", scheduler=address)))
        times["started"].append(timed(partial(simulate, backend="dask")))

    best = {kind: min(values) for kind, values in times.items()}
    print(f"skatsim {__version__}, bots {','.join(seats)}, {args.games:,} games, {args.workers} workers, ", end="")
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, best of {args.repeat}")
    rows = [
        ("local", best["local"]),
        ("dask, running cluster", best["running"]),
        ("dask, cluster started by the run", best["started"]),
    ]
    for name, seconds in rows:
        ratio = seconds / best["local"]
        rate = args.games / seconds
        print(f"{name:<34} {seconds:8.2f} s  {rate:>12,.0f} games/s  ratio {ratio:.3f}  overhead {ratio - 1:+.1%}")
    if args.repeat > 1:
        print("all times (s): " + "; ".join(f"{k} {', '.join(f'{t:.2f}' for t in v)}" for k, v in times.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
