"""Print how the default bots' games compare with games played by people.

    python scripts/realism.py --games 1000000

Simulates the games with the official rules and the default bots (in this process,
one core) and prints a Markdown table of :data:`skatsim.analysis.realism.PEOPLE`
beside the simulated figures.
"""

from __future__ import annotations

import argparse

import numpy as np
import polars as pl

from skatsim.analysis.realism import realism_table
from skatsim.bots import DEFAULT_BOTS, bot_arrays, parse_bots
from skatsim.engine.block import simulate_block
from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS
from skatsim.frames import block_frame
from skatsim.variant import official_params

BLOCK = 250_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--bots", default=DEFAULT_BOTS)
    args = parser.parse_args()
    seats = parse_bots(args.bots)
    kinds, bots = bot_arrays(seats)
    frames = []
    for first in range(0, args.games, BLOCK):
        rows = np.zeros((min(BLOCK, args.games - first), N_COLUMNS), dtype=np.int64)
        simulate_block(
            np.uint64(args.seed), first, kinds, bots, official_params(), rows, np.zeros((0, LOG_WIDTH), np.int16)
        )
        frames.append(block_frame(rows, seats, "official", official_params()))
    table = realism_table(pl.concat(frames).lazy())
    print(f"{args.games:,} games, official rules, bots {','.join(seats)}, seed {args.seed}\n")
    print("| figure | people | bots | band | within |")
    print("| --- | ---: | ---: | --- | --- |")
    for row in table.iter_rows(named=True):
        within = "yes" if row["within"] else "no"
        print(f"| {row['figure']} | {row['people']:.1f} | {row['bots']:.1f} | {row['band']} | {within} |")


if __name__ == "__main__":
    main()
