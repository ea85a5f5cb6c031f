"""Paired comparison of two variants: the same deals, the same bots, both rule sets.

Common random numbers: a deal and every random choice of the bots depend
only on (seed, game index) (:mod:`skatsim.engine.deal`), so simulating games
``0 .. N - 1`` under variant A and under variant B plays each deal twice,
once under each rule set. A difference in the mean score of deals then
carries only the noise of ``B - A`` per deal, not that of A and B
separately: ``var(B - A) = var(A) + var(B) - 2 cov(A, B)``, and deals played
alike under both rules make the covariance large. The tables state both
widths, so the gain of pairing is visible.

A comparison is two ordinary runs (:mod:`skatsim.run.runner`), one per
variant, on the same seed, bots and chunk plan, executed together like a
sweep: on the runner's backends (local worker processes or a Dask cluster),
with its progress bar, locks, manifests and ``--resume``. The runs go into
``runs_dir`` (``--runs``), where they stay for ``skatsim report`` and resume,
or into a temporary folder removed once the comparison is made (kept, and
named, when the runs stop midway, so nothing computed is lost). Then the two
finished runs are read back deal by deal, chunk file by chunk file
(:func:`paired_comparison`), each pair of files reduced to an
:class:`~skatsim.analysis.paired.Aggregate` (joint histograms, change counts),
so memory stays bounded whatever N is, and the result depends neither on the
number of jobs nor on the chunk size.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import PurePath

import polars as pl

from .. import __version__
from ..bots import DEFAULT_BOTS, parse_bots
from ..errors import SkatsimError
from ..run import storage
from ..run.runner import (
    JobFolder,
    check_folder_of_runs,
    check_run_numbers,
    execute_runs,
    make_backend,
    plan_run,
    status,
)
from ..variant import load_variant
from .intervals import BOOT_RANGE, LEVEL, N_BOOT
from .paired import Aggregate, aggregate_pair, aggregate_scans
from .sources import Source, collect, find_sources, scan_games, scan_source
from .summary import mean_differences, outcome_changes, spread_differences

#: Games per slice when two runs are read back deal by deal: a multiple of 36 (lists of
#: deals never straddle slices) near 65,536.
CHUNK = 36 * 1820


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
        values = ratios.to_numpy()
        return None if values.size == 0 else (float(values.min()), float(values.max()))


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


def check_compare_options(games: int, seed: int, jobs: int, level: float, n_boot: int) -> None:
    """The numbers of a comparison, checked before anything runs."""
    check_run_numbers(games, seed, jobs)
    if not 0.5 <= level < 1.0:
        raise SkatsimError(f"--level must be at least 0.5 and below 1 (e.g. 0.95), got {level}")
    if n_boot < BOOT_RANGE[0]:
        raise SkatsimError(f"--bootstrap must be at least {BOOT_RANGE[0]} resamples, got {n_boot}")
    if n_boot > BOOT_RANGE[1]:
        raise SkatsimError(f"--bootstrap must be at most {BOOT_RANGE[1]:,} resamples, got {n_boot:,}")


def run_names(variant_a: str | os.PathLike[str], variant_b: str | os.PathLike[str]) -> tuple[str, str]:
    """Folder names of the two runs of a comparison: ``a-<stem of A>``, ``b-<stem of B>``."""
    return f"a-{PurePath(variant_a).stem}", f"b-{PurePath(variant_b).stem}"


def compare_variants(
    variant_a: str | os.PathLike[str],
    variant_b: str | os.PathLike[str],
    games: int,
    seed: int = 1,
    bots: str = DEFAULT_BOTS,
    jobs: int = 1,
    level: float = LEVEL,
    n_boot: int = N_BOOT,
    chunk_size: int | None = None,
    progress: bool = False,
    runs_dir: str | None = None,
    resume: bool = False,
    backend: str = "local",
    backend_options: Mapping[str, object] | None = None,
    force: bool = False,
) -> Comparison:
    """Play games ``0 .. games - 1`` under both variants with the same bots and compare them deal by deal.

    The two runs go into ``runs_dir/a-<A>`` and ``runs_dir/b-<B>`` (kept), or into
    a temporary folder removed afterwards when ``runs_dir`` is ``None``. ``resume``
    completes the runs of an interrupted comparison in ``runs_dir``; ``backend``,
    ``backend_options``, ``chunk_size`` and ``force`` are the runner's
    (:func:`skatsim.run.runner.run_simulation`). Raises :class:`SkatsimError` for bad
    numbers, variant files, bot names or folders, and :class:`RunStopped` (naming
    the folder that keeps the chunks written) when the runs stop midway.
    """
    start = time.perf_counter()
    check_compare_options(games, seed, jobs, level, n_boot)
    if resume and runs_dir is None:
        raise SkatsimError("--resume needs --runs DIR: the folder holding the interrupted comparison's runs")
    if backend_options and backend_options.get("scheduler") and runs_dir is None:
        raise SkatsimError("with --scheduler, give --runs DIR: a folder (or URL) every Dask worker can write to")
    if runs_dir is not None:
        check_folder_of_runs(runs_dir, "--runs", "a comparison")
    loaded = [load_variant(path) for path in (variant_a, variant_b)]
    for v in loaded:  # checked before any work, each with its own table's number of players
        parse_bots(bots, v.variant.table.players)
    lengths = [v.variant.list_length or 1 for v in loaded]
    folder = JobFolder.make(runs_dir, "--runs", "skatsim-compare-")
    dirs = [storage.join(folder.path, name) for name in run_names(variant_a, variant_b)]
    with folder.running():
        plans = [
            plan_run(
                str(v),
                games,
                seed,
                d,
                bots,
                resume,
                chunk_size=chunk_size,
                list_multiple=math.lcm(*lengths),
                progress=progress,
            )
            for v, d in zip((variant_a, variant_b), dirs, strict=True)
        ]
        execute_runs(plans, make_backend(backend, jobs, backend_options), progress, force)
    with folder.reading(2 * games):
        try:
            with status(progress, "comparing the two runs deal by deal"):
                result = paired_comparison(dirs[0], dirs[1], level, n_boot)
        except SkatsimError as exc:
            raise SkatsimError(
                f"{exc} (the two runs are kept in {folder.path})" if folder.temporary else str(exc)
            ) from None
    folder.remove()
    result.seconds = time.perf_counter() - start
    result.jobs = jobs
    return result


def paired_runs(
    a: Source, b: Source, names: Sequence[str], level: float, n_boot: int, by_chunk: bool | None = None
) -> Comparison:
    """Paired comparison of two finished runs over the same games, one slice of each in memory at a time.

    Runs with the same chunk plan (as :func:`compare_variants` makes them, or any two runs of as many
    games with the default chunk size) are read chunk file by chunk file, each pair of files holding the
    same games; others are joined on ``game_id`` in slices of game ids, which reads each chunk file's
    rows once per slice that falls in it. ``by_chunk``: ``None`` chooses so; ``False`` reads by slices
    whatever the plans (the tests compare the two ways).
    """
    ma, mb = a.manifest, b.manifest
    assert ma is not None and mb is not None
    same_plan = (ma.games, ma.chunk_size) == (mb.games, mb.chunk_size) and len(a.files) == len(b.files)
    if by_chunk is None:
        by_chunk = same_plan
    if by_chunk and not same_plan:
        raise ValueError("runs with different chunk plans cannot be read chunk by chunk")
    if by_chunk:
        total = Aggregate()
        for file_a, file_b in zip(a.files, b.files, strict=True):
            pair = [scan_source(replace(s, files=(f,)), names) for s, f in ((a, file_a), (b, file_b))]
            frame_a, frame_b = (collect(lf) for lf in pair)
            total = total + aggregate_pair(frame_a, frame_b)
    else:
        total = aggregate_scans(partial(scan_games, a, names), partial(scan_games, b, names), ma.games)
    info = [VariantInfo(m.variant_path, m.variant_name, m.variant_text) for m in (ma, mb)]
    return summarise(total, info[0], info[1], ma.seed, ma.bots, level, n_boot)


def paired_comparison(run_a: str, run_b: str, level: float = LEVEL, n_boot: int = N_BOOT) -> Comparison:
    """The paired comparison of two finished runs over the same games (same seed, bots and game count),
    read as :func:`paired_runs` reads them."""
    a, b = find_sources([run_a, run_b])
    return paired_runs(a, b, [a.name, b.name], level, n_boot)
