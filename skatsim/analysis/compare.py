"""Paired comparison of two variants: the same deals, the same bots, both rule sets.

Common random numbers: a deal and every random choice of the bots depend
only on (seed, game index) (:mod:`skatsim.engine.deal`), so simulating games
``0 .. N - 1`` under variant A and under variant B plays each deal twice,
once under each rule set. A difference in the mean score of deals then
carries only the noise of ``B - A`` per deal, not that of A and B
separately: ``var(B - A) = var(A) + var(B) - 2 cov(A, B)``, and deals played
alike under both rules make the covariance large. The tables state both
widths, so the gain of pairing is visible.

Chunks of games run in joblib worker processes; each returns an
:class:`~skatsim.analysis.paired.Aggregate` (joint histograms, change
counts) and never its rows, so memory stays bounded whatever N is, and the
result does not depend on the number of jobs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import polars as pl
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from .. import __version__
from ..bots import DEFAULT_BOTS, parse_bots
from ..errors import SkatsimError
from ..run.chunks import simulate_frame, warm_up
from ..run.runner import check_run_numbers
from ..variant import load_variant
from .intervals import LEVEL, N_BOOT
from .paired import Aggregate, aggregate_pair
from .summary import mean_differences, outcome_changes, spread_differences

#: Games per chunk: a multiple of 36 (lists of deals never straddle chunks) near 65,536.
CHUNK = 36 * 1820


@dataclass(frozen=True)
class PairSpec:
    """One chunk of a comparison: plain values only, so worker processes can receive it."""

    seed: int
    first: int
    count: int
    params_a: tuple[int, ...]
    params_b: tuple[int, ...]
    name_a: str
    name_b: str
    bots: tuple[str, ...]
    #: B's bots by player when its table has another number of players than A's (empty: ``bots``).
    bots_b: tuple[str, ...] = ()


def compare_chunk(spec: PairSpec) -> Aggregate:
    """Simulate games ``first .. first + count - 1`` under both variants and aggregate the pairs."""
    a = simulate_frame(spec.seed, spec.first, spec.count, np.array(spec.params_a, np.int64), spec.bots, spec.name_a)
    bots_b = spec.bots_b or spec.bots
    b = simulate_frame(spec.seed, spec.first, spec.count, np.array(spec.params_b, np.int64), bots_b, spec.name_b)
    return aggregate_pair(a, b)


@dataclass(frozen=True)
class VariantInfo:
    """What identifies one side of the comparison: file, name and full text."""

    path: str
    name: str
    text: str


@dataclass
class Comparison:
    """Result of :func:`compare_variants` (or of two paired runs): the three tables and what made them."""

    a: VariantInfo
    b: VariantInfo
    games: int
    seed: int
    bots: tuple[str, ...]
    level: float
    n_boot: int
    means: pl.DataFrame
    spread: pl.DataFrame
    changes: pl.DataFrame
    seconds: float = 0.0
    jobs: int = 1
    version: str = __version__
    notes: list[str] = field(default_factory=list)

    def narrowing(self, group: str = "score per seat") -> tuple[float, float] | None:
        """Smallest and largest width ratio (unpaired / paired) over a metric group; ``None`` when exact."""
        ratios = self.means.filter((pl.col("group") == group) & pl.col("narrowing").is_not_null())["narrowing"]
        return None if ratios.is_empty() else (float(ratios.min()), float(ratios.max()))


def summarise(
    agg: Aggregate,
    a: VariantInfo,
    b: VariantInfo,
    seed: int,
    bots: tuple[str, ...],
    level: float = LEVEL,
    n_boot: int = N_BOOT,
) -> Comparison:
    """Turn an aggregate into a :class:`Comparison` (tables with intervals)."""
    return Comparison(
        a=a,
        b=b,
        games=agg.n,
        seed=seed,
        bots=bots,
        level=level,
        n_boot=n_boot,
        means=mean_differences(agg, level),
        spread=spread_differences(agg, level, n_boot, seed),
        changes=outcome_changes(agg, level),
    )


def _check(games: int, seed: int, jobs: int, level: float, n_boot: int) -> None:
    check_run_numbers(games, seed, jobs)
    if not 0.5 <= level < 1.0:
        raise SkatsimError(f"--level must be at least 0.5 and below 1 (e.g. 0.95), got {level}")
    if n_boot < 10:
        raise SkatsimError(f"--bootstrap must be at least 10 resamples, got {n_boot}")


def _run(specs: Sequence[PairSpec], jobs: int) -> Iterator[Aggregate]:
    """Aggregates of the chunks as they finish, over ``jobs`` processes (in this one when 1)."""
    if jobs <= 1 or len(specs) <= 1:
        yield from map(compare_chunk, specs)
        return
    from joblib import Parallel, delayed

    yield from Parallel(n_jobs=min(jobs, len(specs)), return_as="generator_unordered")(
        delayed(compare_chunk)(spec) for spec in specs
    )


def compare_variants(
    variant_a: str | os.PathLike[str],
    variant_b: str | os.PathLike[str],
    games: int,
    seed: int = 1,
    bots: str = DEFAULT_BOTS,
    jobs: int = 1,
    level: float = LEVEL,
    n_boot: int = N_BOOT,
    chunk_size: int = CHUNK,
    progress: bool = False,
) -> Comparison:
    """Play games ``0 .. games - 1`` under both variants with the same bots and compare them deal by deal.

    Raises :class:`SkatsimError` for bad numbers, variant files or bot names.
    """
    start = time.perf_counter()
    _check(games, seed, jobs, level, n_boot)
    loaded = [load_variant(path) for path in (variant_a, variant_b)]
    seats, seats_b = (parse_bots(bots, v.variant.table.players) for v in loaded)
    info = [VariantInfo(str(v.path), v.variant.name, v.text) for v in loaded]
    params = [tuple(int(p) for p in v.variant.params()) for v in loaded]
    other = () if seats_b == seats else seats_b
    specs = [
        PairSpec(
            seed, first, min(chunk_size, games - first), params[0], params[1], info[0].name, info[1].name, seats, other
        )
        for first in range(0, games, chunk_size)
    ]
    warm_up()
    total = Aggregate()
    console = Console(stderr=True)
    columns = (TextColumn("comparing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    bar = Progress(*columns, console=console, disable=not (progress and console.is_terminal))
    with bar:
        task = bar.add_task("compare", total=games)
        for agg in _run(specs, jobs):
            total = total + agg
            bar.advance(task, agg.n)
    result = summarise(total, info[0], info[1], seed, seats, level, n_boot)
    result.seconds = time.perf_counter() - start
    result.jobs = jobs
    return result
