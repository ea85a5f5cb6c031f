"""Speed of the pimc bot: games per second on one core with ``pimc`` in all three seats.

Usage::

    python benchmarks/bench_pimc.py --games 200 --bots pimc:worlds=20

Times :func:`skatsim.engine.block.simulate_block` alone in this process (one core), after a warm-up
of a few games so compilation (or loading numba's cache) is excluded. Every game of the simulated
mix counts: declared games (where the bot searches) and passed deals and Ramsch alike, as a run
plays them. The seed and first game index can be moved so repeated measurements see other deals.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from skatsim.bots import bot_arrays, parse_bots
from skatsim.engine.block import simulate_block
from skatsim.engine.layout import COL_GAME_TYPE, LOG_WIDTH, N_COLUMNS
from skatsim.variant import load_variant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANT = os.path.join(ROOT, "variants", "official.yaml")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games timed (default 200)")
    parser.add_argument("--bots", default="pimc:worlds=20", help="--bots setting (default pimc:worlds=20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="first game index timed (default 0)")
    parser.add_argument("--variant", default=VARIANT)
    args = parser.parse_args(argv)
    params = load_variant(args.variant).variant.params()
    kinds, bot_params = bot_arrays(parse_bots(args.bots), params)
    logs = np.zeros((0, LOG_WIDTH), dtype=np.int16)
    warm = np.zeros((3, N_COLUMNS), dtype=np.int64)
    simulate_block(np.uint64(args.seed + 1), 0, kinds, bot_params, params, warm, logs)
    rows = np.zeros((args.games, N_COLUMNS), dtype=np.int64)
    per_game = []
    for k in range(args.games):
        start = time.perf_counter()
        simulate_block(np.uint64(args.seed), args.first + k, kinds, bot_params, params, rows[k : k + 1], logs)
        per_game.append(time.perf_counter() - start)
    seconds = np.array(per_game)
    declared = rows[:, COL_GAME_TYPE] >= 0
    print(
        f"bots {args.bots!r}, {args.games} games of seed {args.seed} from index {args.first} "
        f"({declared.sum()} declared)"
    )
    print(f"  {args.games / seconds.sum():.2f} games/s on one core ({seconds.sum():.1f} s)")
    ms = seconds * 1000
    print(
        f"  ms per game: median {np.median(ms):.0f}, p90 {np.percentile(ms, 90):.0f}, "
        f"p99 {np.percentile(ms, 99):.0f}, max {ms.max():.0f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
