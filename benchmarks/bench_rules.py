"""Speed of the rule kernels: complete games of uniformly random legal play on one core.

Usage::

    python benchmarks/bench_rules.py --games 2000000 --repeats 5

Each game is dealt from (seed, game index), bid, declared and played to the end
by the ``random`` bot (uniform legal choices everywhere) and evaluated by the
same kernels that replay recorded games. The figure is the best of
``--repeats`` timings of :func:`skatsim.engine.block.simulate_block` in this
process after compilation; deals that all pass are counted separately.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from skatsim.bots import bot_arrays
from skatsim.engine.block import simulate_block
from skatsim.engine.layout import COL_GAME_TYPE, LOG_WIDTH, N_COLUMNS
from skatsim.variant import official_params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    params = official_params()
    kinds, bots = bot_arrays(("random",) * 3, params)
    rows = np.zeros((args.games, N_COLUMNS), dtype=np.int64)
    no_log = np.zeros((0, LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(args.seed), 0, kinds, bots, params, rows[:1000], no_log)  # compile or load
    best = float("inf")
    for r in range(args.repeats):
        start = time.perf_counter()
        simulate_block(np.uint64(args.seed), r * args.games, kinds, bots, params, rows, no_log)
        best = min(best, time.perf_counter() - start)
    played = int((rows[:, COL_GAME_TYPE] >= 0).sum())
    print(f"random legal play, one core, best of {args.repeats} x {args.games:,} games")
    print(f"  all deals:    {args.games / best:>12,.0f} games/s ({best / args.games * 1e9:.0f} ns each)")
    print(f"  played games: {played / best:>12,.0f} games/s ({played / args.games:.1%} of deals were played)")


if __name__ == "__main__":
    main()
