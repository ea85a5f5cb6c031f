"""Speed of ``simulate --open-hand``'s extra work: each declared game solved open-handed, one core.

Usage::

    python benchmarks/bench_open_hand.py --games 500 [--won]

Games ``first .. first + games - 1`` of seed ``--seed`` are simulated under ``variants/official.yaml``
by three ``heuristic`` bots; then :func:`skatsim.run.chunks.open_hand_values` (what a chunk of a run
with ``--open-hand`` calls: exact card points and won for every declared game, one solver table for
the block; with ``--won`` what ``--open-hand won`` calls: won alone) is timed alone in this process,
after a warm-up (compilation excluded). Prints games per second over all games (passed deals cost
nothing) and the distribution of milliseconds per declared game (one more pass, game by game).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from skatsim.bots import bot_arrays, parse_bots
from skatsim.engine.block import simulate_block
from skatsim.engine.layout import COL_GAME_TYPE, LOG_WIDTH, N_COLUMNS
from skatsim.run.chunks import open_hand_values
from skatsim.variant import load_variant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANT = os.path.join(ROOT, "variants", "official.yaml")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games (default 500)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--won", action="store_true", help="won alone, as --open-hand won (default: the points)")
    args = parser.parse_args(argv)
    points = not args.won
    params = load_variant(VARIANT).variant.params()
    kinds, bot_params = bot_arrays(parse_bots("heuristic"), params)
    rows = np.zeros((args.games, N_COLUMNS), dtype=np.int64)
    logs = np.zeros((0, LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(args.seed), args.first, kinds, bot_params, params, rows, logs)
    open_hand_values(rows[:2], points)  # warm-up
    start = time.perf_counter()
    values = open_hand_values(rows, points)
    seconds = time.perf_counter() - start
    declared = int((values[:, 1] >= 0).sum())
    print(f"{'won alone' if args.won else 'points and won'}, "
          f"{args.games} games of seed {args.seed} ({declared} declared): {seconds:.1f} s, "
          f"{args.games / seconds:.1f} games/s on one core")  # fmt: skip
    ms = []
    for k in range(args.games):
        if rows[k, COL_GAME_TYPE] >= 0 and values[k, 1] >= 0:
            t = time.perf_counter()
            open_hand_values(rows[k : k + 1], points)
            ms.append((time.perf_counter() - t) * 1000)
    a = np.array(ms)
    print(f"  ms per declared game (fresh table each): median {np.median(a):.1f}, p90 {np.percentile(a, 90):.0f}, "
          f"p99 {np.percentile(a, 99):.0f}, max {a.max():.0f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
