"""Paired comparison speed and the gain of pairing: official vs another variant on 1,000,000 deals.

Usage::

    python benchmarks/bench_compare.py --games 1000000 --jobs 2 --variant-b variants/pre1999.yaml

Times :func:`skatsim.analysis.compare.compare_variants` end to end (both
variants simulated as two runs on the runner, their Parquet files written to a
temporary folder and read back deal by deal, aggregated, bootstrap) after
compiling the kernels once, and reports for each seat's score the
half-width of the paired interval of ``B - A``, that of two independent runs
of the same size (``z sqrt((var A + var B) / n)`` from the same data), and
their ratio. Peak memory is the maximum resident set size of this process
and of the largest worker (``getrusage``; workers are shut down first).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

import polars as pl

from skatsim import __version__
from skatsim.analysis.compare import compare_variants
from skatsim.analysis.compare_output import pairing_statement
from skatsim.bots import DEFAULT_BOTS
from skatsim.run.chunks import warm_up

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OFFICIAL = os.path.join(ROOT, "variants", "official.yaml")
#: The variant compared by default: the one the engine plays today besides the official rules.
#: The issue's figure is official vs variants/kontra_re.yaml, once the kernels play Kontra/Re.
DEFAULT_B = os.path.join(ROOT, "variants", "pre1999.yaml")
MIB = 1024 * 1024


def peak_rss() -> tuple[float, float]:
    """Peak resident memory (MiB) of this process and of the largest reaped child (Linux reports KiB);
    a run's workers are stopped and reaped when it ends."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return own * 1024 / MIB, children * 1024 / MIB


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="deals, each played under both (1,000,000)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: CPUs)")
    parser.add_argument("--variant-a", default=OFFICIAL, help="variant A (default variants/official.yaml)")
    parser.add_argument("--variant-b", default=DEFAULT_B, help="variant B (default variants/pre1999.yaml)")
    parser.add_argument("--bots", default=DEFAULT_BOTS, help=f"bots, one or FH,MH,RH (default {DEFAULT_BOTS})")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    warm_up()  # compile (or load) the kernels once, so the timing is the comparison
    start = time.perf_counter()
    result = compare_variants(
        args.variant_a, args.variant_b, args.games, args.seed, args.bots, args.jobs, n_boot=args.bootstrap
    )
    seconds = time.perf_counter() - start
    own, worker = peak_rss()

    print(f"skatsim {__version__}, bots {args.bots}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print(f"A = {result.a.name} ({result.a.path}), B = {result.b.name} ({result.b.path})")
    rate = 2 * args.games / seconds
    print(f"{args.games:,} deals x 2 variants, {args.jobs} jobs: {seconds:.1f} s ({rate:,.0f} games/s)")
    print(f"peak RSS: main process {own:,.0f} MiB, largest worker {worker:,.0f} MiB")
    print()
    rows = result.means.filter(pl.col("group").is_in(["score per seat", "score per role"]))
    print(f"{'score per deal':<40}{'B - A':>10}{'paired ±':>12}{'unpaired ±':>12}{'ratio':>8}")
    for r in rows.iter_rows(named=True):
        ratio = "exact" if r["narrowing"] is None else f"{r['narrowing']:.1f}x"
        print(f"{r['label']:<40}{r['diff']:>+10.4f}{r['paired_half']:>12.4f}{r['unpaired_half']:>12.4f}{ratio:>8}")
    print()
    print(pairing_statement(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
