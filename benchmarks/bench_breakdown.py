"""Where the time of ``skatsim simulate`` goes: CPU seconds per million games of each stage.

Usage::

    python benchmarks/bench_breakdown.py [--games 262144] [--repeats 5]

Stages, each timed alone on the same block of games (best of ``--repeats``, CPU time of
this process with every thread, so other load on the machine counts less than in wall time):

* **kernel**: :func:`skatsim.engine.block.simulate_block`, the default bots;
* **columns**: the int64 row matrix turned into one contiguous array per column of its type (the
  compiled pass of :func:`skatsim.engine.columns.narrow_columns`, :func:`skatsim.frames._narrowed`);
* **typing**: the typed polars frame of :func:`skatsim.frames.block_frame` (casts, enums,
  nulls, discard names, bot and variant columns), beyond the columns;
* **encoding**: Parquet encoding and zstd compression into memory, at the chunk files' level;
* **file**: the chunk file written atomically (temporary file, fsync, rename) beyond encoding;
* **start-up** (per run, not per game): a new interpreter importing the run path, and loading the
  compiled kernels from numba's cache.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from skatsim.bots import DEFAULT_BOTS, bot_arrays, parse_bots
from skatsim.engine.block import simulate_block
from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS
from skatsim.frames import _narrowed, block_frame
from skatsim.run.chunks import STATISTICS, ZSTD_LEVEL, write_parquet_atomic
from skatsim.schema import COLUMNS, ENGINE
from skatsim.variant import official_params


def cpu(fn: Callable[[], object], repeats: int) -> float:
    """Least CPU seconds (all threads of this process) of ``repeats`` calls of ``fn``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def start_up(repeats: int) -> tuple[float, float]:
    """Wall seconds of a new interpreter importing the run path, and of loading the kernels after that."""
    code = (
        "import time; t = time.perf_counter(); import skatsim.cli, skatsim.run.runner; i = time.perf_counter() - t;"
        "t = time.perf_counter(); from skatsim.run.chunks import warm_up; warm_up();"
        "print(i, time.perf_counter() - t)"
    )
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True) for _ in range(repeats)
    ]
    imports, kernels = zip(*(map(float, r.stdout.split()) for r in runs), strict=True)
    return min(imports), min(kernels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=262_144, help="games in the timed block")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    n, repeats, params, bots = args.games, args.repeats, official_params(), parse_bots(DEFAULT_BOTS)
    kinds, bot_params = bot_arrays(bots, params)
    rows = np.zeros((n, N_COLUMNS), np.int64)
    no_log = np.zeros((0, LOG_WIDTH), np.int16)
    simulate_block(np.uint64(1), 0, kinds, bot_params, params, rows, no_log)
    frame = block_frame(rows, bots, "official", params)
    engine = [c for c in COLUMNS if c.source == ENGINE and c.rule is None]
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "chunk.parquet")
        stages = {
            "kernel": cpu(
                lambda: simulate_block(np.uint64(1), 0, kinds, bot_params, params, rows, no_log), args.repeats
            ),
            "columns": cpu(lambda: _narrowed(rows, engine), repeats),
            "typing": cpu(lambda: block_frame(rows, bots, "official", params), repeats),
            "encoding": cpu(
                lambda: frame.write_parquet(io.BytesIO(), compression_level=ZSTD_LEVEL, statistics=STATISTICS), repeats
            ),
            "file": cpu(lambda: write_parquet_atomic(frame, path), repeats),
        }
    stages["typing"] -= stages["columns"]
    stages["file"] -= stages["encoding"]
    total = sum(stages.values())
    print(f"CPU seconds per million games ({n:,} games a block, best of {args.repeats}):")
    for name, seconds in stages.items():
        print(f"  {name:<9} {seconds * 1e6 / n:6.3f} s  {seconds / total:6.1%}")
    print(f"  {'total':<9} {total * 1e6 / n:6.3f} s  = {n / total:,.0f} games per CPU-second")
    imports, kernels = start_up(args.repeats)
    print(f"start-up per run: interpreter and imports {imports:.2f} s, loading the compiled kernels {kernels:.2f} s")


if __name__ == "__main__":
    main()
