"""skatsim's simulator beside xskat's on this machine, games per second per core.

Usage::

    python benchmarks/bench_xskat.py --games 1000000 --xskat-games 200000

xskat (Debian package ``xskat``) plays ``-auto N`` games headless with its own bots,
single-threaded. skatsim's figure is the compiled kernel with the default bots on one
core (:func:`skatsim.engine.block.simulate_block`, compilation excluded), timed in the same
run. Both are best of ``--repeats``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time

import numpy as np

from skatsim.bots import DEFAULT_BOTS, bot_arrays, parse_bots
from skatsim.engine.block import simulate_block
from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS
from skatsim.variant import official_params

XSKAT_PATHS = ("xskat", "/usr/games/xskat")


def xskat_rate(games: int, repeats: int) -> float | None:
    """Games per second of ``xskat -auto``; None when xskat is not installed."""
    exe = next((p for p in (shutil.which(n) for n in XSKAT_PATHS) if p), None)
    if exe is None:
        return None
    best = float("inf")
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as home:  # xskat keeps lists and logs in $HOME
            start = time.perf_counter()
            subprocess.run(
                [exe, "-auto", str(games)],
                env={**os.environ, "HOME": home},
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            best = min(best, time.perf_counter() - start)
    return games / best


def skatsim_rate(games: int, repeats: int) -> float:
    """Games per second of the simulation kernel with the default bots on one core."""
    kinds, bots = bot_arrays(parse_bots(DEFAULT_BOTS), official_params())
    rows = np.zeros((games, N_COLUMNS), dtype=np.int64)
    no_log = np.zeros((0, LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(1), 0, kinds, bots, official_params(), rows[:1000], no_log)
    best = float("inf")
    for r in range(repeats):
        start = time.perf_counter()
        simulate_block(np.uint64(1), r * games, kinds, bots, official_params(), rows, no_log)
        best = min(best, time.perf_counter() - start)
    return games / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="skatsim games per timing")
    parser.add_argument("--xskat-games", type=int, default=200_000, help="xskat games per timing")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ours = skatsim_rate(args.games, args.repeats)
    theirs = xskat_rate(args.xskat_games, args.repeats)
    print(f"skatsim, {DEFAULT_BOTS} bots, one core: {ours:>12,.0f} games/s")
    if theirs is None:
        print("xskat: not installed (apt-get install xskat)")
        return
    print(f"xskat -auto, one core:           {theirs:>12,.0f} games/s")
    print(f"ratio skatsim / xskat:           {ours / theirs:>12.1f}x")


if __name__ == "__main__":
    main()
