"""Duel speed: games/s of ``skatsim duel`` against the six plain simulations it is made of.

Usage::

    python benchmarks/bench_duel.py --deals 1000000 --jobs 2 --a heuristic --b random

Three figures, compilation excluded (a warm-up first):

* the six simulations alone: ``simulate_block`` once per seating over the same deals, on one
  core in this process: what a duel cannot beat;
* the duel's chunk computation (:func:`skatsim.run.duel.duel_frame`) on one core: the six
  simulations plus the list points, the per-side sums and the frame; the ratio of the two is
  the duel machinery's own cost (target: the 6 seatings cost about 6 simulations);
* the whole duel (:func:`skatsim.analysis.duel.run_duel`) on ``--jobs`` workers, from the call
  to the result: the runner, Parquet files in a temporary folder, reading them back.

Rates count games: every deal is played six times.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

from skatsim import __version__
from skatsim.analysis.duel import run_duel
from skatsim.bots import bot_arrays, parse_bots
from skatsim.engine.block import simulate_block
from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS
from skatsim.run.chunks import warm_up
from skatsim.run.duel import BLOCK_DEALS, SEATINGS, duel_frame, duel_params, seating_bots, warm_up_duel
from skatsim.variant import Variant


def plain_rate(deals: int, a: str, b: str, params: np.ndarray, seed: int) -> float:
    """Games/s of the six seatings' ``simulate_block`` calls alone (one core), in the duel's blocks."""
    play = duel_params(params)[0]
    rows = np.zeros((BLOCK_DEALS, N_COLUMNS), dtype=np.int64)
    logs = np.zeros((0, LOG_WIDTH), dtype=np.int16)
    seatings = [bot_arrays(bots, play) for bots in seating_bots(a, b)]
    start = time.perf_counter()
    for first in range(0, deals, BLOCK_DEALS):
        n = min(BLOCK_DEALS, deals - first)
        for kinds, bot_params in seatings:
            simulate_block(np.uint64(seed), first, kinds, bot_params, play, rows[:n], logs)
    return deals * len(SEATINGS) / (time.perf_counter() - start)


def frame_rate(deals: int, a: str, b: str, params: np.ndarray, seed: int) -> float:
    """Games/s of the duel's chunk computation (one core, one chunk of ``deals`` deals)."""
    start = time.perf_counter()
    duel_frame(seed, 0, deals, params, a, b)
    return deals * len(SEATINGS) / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000, help="deals of the whole duel (1,000,000)")
    parser.add_argument("--core-deals", type=int, default=200_000, help="deals of the one-core figures (200,000)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: CPUs)")
    parser.add_argument("--a", default="heuristic", help="bot setting A (heuristic)")
    parser.add_argument("--b", default="random", help="bot setting B (random)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    a, b = parse_bots(args.a, 1)[0], parse_bots(args.b, 1)[0]
    params = Variant().params()

    warm_up()
    warm_up_duel()
    duel_frame(args.seed, 0, 100, params, a, b)  # every kernel compiled (or loaded) before timing
    plain = plain_rate(args.core_deals, a, b, params, args.seed)
    framed = frame_rate(args.core_deals, a, b, params, args.seed)
    start = time.perf_counter()
    result = run_duel(a, b, args.deals, seed=args.seed, jobs=args.jobs)
    seconds = time.perf_counter() - start

    python = sys.version.split()[0]
    print(f"skatsim {__version__}, A = {a}, B = {b}, official rules, {os.cpu_count()} CPUs, Python {python}")
    print(f"six simulations alone, 1 core:  {plain:>12,.0f} games/s ({args.core_deals:,} deals)")
    print(f"duel chunk, 1 core:             {framed:>12,.0f} games/s ({plain / framed:.2f}x the simulations' time)")
    print(
        f"whole duel, {args.jobs} jobs:            {result.games / seconds:>12,.0f} games/s "
        f"({args.deals:,} deals = {result.games:,} games in {seconds:.1f} s)"
    )
    lo, hi = result.sf.ci
    print(f"A - B = {result.sf.difference:+.2f} Seeger-Fabian points per game ({lo:+.2f} .. {hi:+.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
