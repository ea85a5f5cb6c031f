"""Parameter sweeps: every (variant, bots) combination as one job on one backend.

A sweep of V variant files and B bot settings is V x B ordinary runs, one
run folder each (``OUT_ROOT/<variant stem>__<bots>``, with its own manifest,
so each can be read, checked and resumed like any run). All runs' chunks go
to the backend in one map, so a cluster stays busy until the last chunk of
the last run instead of idling at the end of each run. Every run uses the
same seed, so the same game number is the same deal in every run (common
random numbers: differences between variants are not blurred by different
cards).

Example (a Dask cluster at ``tcp://10.0.0.1:8786``)::

    from skatsim.run.sweep import run_sweep

    run_sweep(
        ["variants/official.yaml", "variants/pre1999.yaml"],
        ["heuristic", "heuristic,random,random"],
        games=1_000_000,
        seed=7,
        out_root="s3://bucket/sweeps/pre1999-vs-official",
        backend="dask",
        scheduler="tcp://10.0.0.1:8786",
    )
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import PurePath

from ..bots import parse_bots
from ..errors import SkatsimError
from . import storage
from .runner import RunResult, check_folder_of_runs, execute_runs, make_backend, plan_run


def run_name(variant_path: str, bots: str) -> str:
    """Folder name of one combination: the variant file's stem and the bots (one name, or one per player
    joined by ``-``; :func:`plan_run` checks their number against the variant's table)."""
    seats = parse_bots(bots, max(3, bots.count(",") + 1))
    who = seats[0] if len(set(seats)) == 1 else "-".join(seats)
    return f"{PurePath(variant_path).stem}__{who}"


def run_sweep(
    variants: Sequence[str],
    bots: Sequence[str],
    games: int,
    seed: int,
    out_root: str,
    backend: str = "local",
    scheduler: str | None = None,
    jobs: int | None = None,
    chunk_size: int | None = None,
    resume: bool = False,
    record_play: bool = False,
    progress: bool = True,
    force: bool = False,
) -> dict[str, RunResult]:
    """Simulate ``games`` games for every (variant, bots) pair into ``out_root/<run_name>``, as one job.

    ``backend`` and ``scheduler`` are ``simulate``'s ``--backend`` and
    ``--scheduler``; ``jobs`` defaults to the number of CPUs (for ``local``,
    and for ``dask`` without a scheduler). ``resume`` completes an
    interrupted sweep (each run folder is resumed, or started if empty);
    ``force`` starts even when the disk looks too small.
    Returns each run's result by folder name, in (variant, bots) order; the
    runs share one session, so each result's ``seconds`` is the whole sweep's.
    """
    if scheduler is not None and backend != "dask":
        raise SkatsimError("a scheduler needs backend='dask'")
    for what, given in (("variant file", list(variants)), ("--bots", list(bots))):
        twice = sorted({item for item in given if given.count(item) > 1})
        if twice:  # one folder for both: say so rather than run it once in silence
            raise SkatsimError(f"{what} {twice[0]!r} is given twice; give it once")
    names = {(v, b): run_name(v, b) for v in variants for b in bots}
    if not names:
        raise SkatsimError("a sweep needs at least one variant file and one bots setting")
    folders = list(names.values())
    shared = sorted({name for name in folders if folders.count(name) > 1})
    for name in shared:
        pairs = [pair for pair, folder in names.items() if folder == name]
        if len({v for v, _ in pairs}) == 1:  # one variant file: two ways of writing one bot setting
            settings = " and ".join(repr(b) for _, b in pairs)
            raise SkatsimError(f"--bots {settings} are the same setting ({name}); give it once")
    if shared:
        raise SkatsimError(f"variant files with the same name would share folders ({', '.join(shared)}); rename one")
    check_folder_of_runs(out_root, "--out", "a sweep")
    plans = [
        plan_run(v, games, seed, storage.join(out_root, name), b, resume, record_play, chunk_size, progress=progress)
        for (v, b), name in names.items()
    ]
    jobs = jobs or os.cpu_count() or 1
    options = {"scheduler": scheduler} if backend == "dask" else None
    results = execute_runs(plans, make_backend(backend, jobs, options), progress, force)
    return dict(zip(names.values(), results, strict=True))
