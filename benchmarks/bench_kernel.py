"""Kernel games/s of the default bots on one core: best of REPS runs of GAMES games, compilation excluded.

    python benchmarks/bench_kernel.py variants/official.yaml 1000000 3

Works on older checkouts too (``bot_arrays`` without the variant), so a before/after pair is measured
with the same script in one session, e.g. against main exported to a folder::

    git archive main | tar -x -C /tmp/main
    PYTHONPATH=/tmp/main NUMBA_CACHE_DIR=/tmp/main-cache python benchmarks/bench_kernel.py variants/official.yaml 1e6 3
    python benchmarks/bench_kernel.py variants/official.yaml 1e6 3
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from skatsim.bots import bot_arrays, parse_bots
from skatsim.engine.block import simulate_block
from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS
from skatsim.engine.rules import TABLE_PLAYERS
from skatsim.variant import load_variant

BLOCK = 65520
#: Where repetition ``r`` starts: ``(r + 1) * START``, a multiple of every list length up to 16 deals
#: (a list variant's block must start at a list's first deal), as ``bench_ab.py``'s rounds.
START = 14 * 720_720


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", help="the variant file, e.g. variants/official.yaml")
    parser.add_argument("games", type=lambda s: int(float(s)), help="games per repetition (1e6 works)")
    parser.add_argument("reps", type=int, nargs="?", default=3, help="repetitions; the best is reported (default 3)")
    args = parser.parse_args()
    path, games, reps = args.variant, args.games, args.reps
    params = load_variant(path).variant.params()
    seats = parse_bots("heuristic", int(params[TABLE_PLAYERS]))
    try:
        kinds, bot_params = bot_arrays(seats, params)
    except TypeError:  # a checkout from before the bots read the variant
        kinds, bot_params = bot_arrays(seats)  # type: ignore[call-arg]
    rows = np.zeros((BLOCK, N_COLUMNS), dtype=np.int64)
    no_log = np.zeros((0, LOG_WIDTH), np.int16)
    simulate_block(np.uint64(1), 0, kinds, bot_params, params, rows[:3600], no_log)  # compile or load
    best = 1e9
    for r in range(reps):
        start = time.perf_counter()
        for first in range(0, games, BLOCK):
            n = min(BLOCK, games - first)
            simulate_block(np.uint64(1), (r + 1) * START + first, kinds, bot_params, params, rows[:n], no_log)
        best = min(best, time.perf_counter() - start)
    print(f"{path}: {games / best:,.0f} games/s")


if __name__ == "__main__":
    main()
