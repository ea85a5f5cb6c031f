"""Reading a run: the one check every reader of a run folder makes before it reads rows.

:func:`finished_run` is used by :func:`scan_run` and by the analysis
(:mod:`skatsim.analysis.sources`, hence ``skatsim report`` and ``compare``): a run
still being written (its lock held by a live writer) or left unfinished is one
line saying so, and a chunk file of another run (its Parquet metadata names
another run id) is one line naming the file, never a silent mix of rows.
"""

from __future__ import annotations

import polars as pl

from ..errors import SkatsimError, first_line
from . import storage
from .lock import read_lock, unreadable_lock
from .manifest import MANIFEST, RUN_ID_KEY, RunManifest, read_manifest


def finished_run(folder: str, job: str = "simulate") -> tuple[RunManifest, list[str]]:
    """The manifest and chunk file paths (in game order) of the finished run in ``folder``.

    Raises :class:`SkatsimError` when ``folder`` holds no run or the output of another
    command than ``job`` (a duel's folder is no game table), when the run is
    still being written or unfinished, or when a chunk file is missing,
    unreadable or belongs to another run.
    """
    manifest = read_manifest(folder)
    if manifest is None:
        raise SkatsimError(f"{folder}: not a skatsim run (no {MANIFEST})")
    if manifest.job != job:
        raise SkatsimError(f"{folder}: holds the output of skatsim {manifest.job}, not of skatsim {job}")
    holder = read_lock(folder)
    if holder is not None and holder.unreadable:
        raise unreadable_lock(folder)
    if holder is not None and holder.alive() is not False:
        raise SkatsimError(
            f"{folder}: the run is still being written ({holder.describe()}); read it once it has finished"
        )
    if manifest.finished is None:
        raise SkatsimError(
            f"{folder}: the run is unfinished ({len(manifest.done())} of {manifest.n_chunks} chunks) and nothing "
            "is writing it; complete it with the command that made it and --resume"
        )
    files = [storage.join(folder, manifest.chunk_file(i)) for i in range(manifest.n_chunks)]
    for path in files:
        _check_run_id(path, folder, manifest.run_id)
    return manifest, files


def _check_run_id(path: str, folder: str, run_id: str) -> None:
    """A chunk file exists, has a readable footer and names ``run_id`` in its metadata."""
    try:
        found = storage.parquet_metadata(path).get(RUN_ID_KEY)
    except FileNotFoundError:
        raise SkatsimError(f"{path}: chunk file missing from the run in {folder}") from None
    except storage.UNREADABLE_FOOTER as exc:
        reason = first_line(exc)
        if "no such file" in reason.lower() or "not found" in reason.lower():
            raise SkatsimError(f"{path}: chunk file missing from the run in {folder}") from None
        raise SkatsimError(f"{path}: not a readable Parquet file ({reason})") from None
    if found != run_id:
        raise SkatsimError(
            f"{path}: chunk file of another run (run id {found}, the run in {folder} is {run_id}); "
            "remove it and complete the run with --resume"
        )


def scan_run(out_dir: str) -> pl.LazyFrame:
    """All games of a finished run as one lazy frame (chunk files in game order)."""
    return storage.scan_parquet(finished_run(out_dir)[1])
