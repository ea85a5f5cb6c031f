"""Simulation runs: N games split into chunks, computed in parallel, written as Parquet files.

A run is a folder::

    manifest.json                          what made the run, the chunk plan, chunks done
    chunk-000000000000-62500.parquet       games 0 .. 62,499
    chunk-000000062500-62500.parquet       ...

Each chunk is computed by :func:`skatsim.run.chunks.run_chunk`, a pure top-level function of a
picklable :class:`~skatsim.run.chunks.ChunkSpec`, and written atomically (temporary file, then
``os.replace``), so a chunk file is either complete or absent. Because every
row depends only on (seed, game index, variant, bots), the chunk files, the
number of workers and the order chunks finish in never change the rows; a run
killed at any moment is completed by ``resume=True``, which verifies the
chunk files present and computes only the missing ones.

Where chunks run is a :class:`Backend`: ``local`` maps them over joblib
worker processes; ``dask`` (:mod:`skatsim.run.dask_backend`) over a Dask cluster
whose workers write into the same folder. The folder may be a local path or
an fsspec URL (``s3://...``): every file access goes through
:mod:`skatsim.run.storage`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np
import polars as pl
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.text import Text

from .. import __version__
from ..bots import DEFAULT_BOTS, parse_bots
from ..errors import SkatsimError
from ..frames import frame_schema
from ..variant import LoadedVariant, load_variant
from . import storage
from .chunks import (
    MAX_CHUNK,
    ChunkSpec,
    chunk_name,
    default_chunk_size,
    plan_chunks,
    run_chunk,
    warm_up,
    whole_lists,
)
from .manifest import (
    MANIFEST,
    RUN_FORMAT,
    RUN_FORMAT_VERSION,
    ChunkEntry,
    RunManifest,
    check_same_run,
    read_manifest,
    timestamp,
    write_manifest,
)

#: Largest game count and seed the kernels' uint64 game index and seed accept.
MAX_GAMES = 2**62
MAX_SEED = 2**64 - 1
#: Seconds between manifest rewrites while chunks finish (the chunk files are
#: the truth; the manifest's ``chunks_done`` is a progress record).
MANIFEST_INTERVAL = 1.0


# --------------------------------------------------------------------------- backends


class Backend(Protocol):
    """Where chunks run. An implementation maps ``fn`` over ``specs`` and yields results as they finish.

    ``fn`` is :func:`run_chunk` (top level, picklable); results may come in
    any order. A backend must let an exception from ``fn`` propagate. A
    backend that holds resources (a cluster connection) may also be a context
    manager: the runner enters it once the output folders are checked and
    exits it when the run ends (:func:`execute_runs`).
    """

    def map_unordered(self, fn: Callable[[ChunkSpec], str], specs: Sequence[ChunkSpec]) -> Iterator[str]:
        """Run ``fn`` on every spec, yielding each result when it is ready."""
        ...


class LocalBackend:
    """Worker processes on this machine through joblib (loky); one job runs in this process."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def __enter__(self) -> LocalBackend:
        warm_up()  # compile (or load) the kernel once here, so the workers load numba's disk cache
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map_unordered(self, fn: Callable[[ChunkSpec], str], specs: Sequence[ChunkSpec]) -> Iterator[str]:
        """Run chunks over ``jobs`` processes, yielding paths as they finish."""
        if not specs:
            return
        n_jobs = min(self.jobs, len(specs))
        if n_jobs <= 1:
            yield from map(fn, specs)
            return
        from joblib import Parallel, delayed  # imported here: only parallel runs need it
        from joblib.externals.loky.process_executor import TerminatedWorkerError

        try:
            yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered")(delayed(fn)(spec) for spec in specs)
        except TerminatedWorkerError:
            raise SkatsimError(
                "a worker process died (killed, or out of memory); the chunks done are kept: "
                "run the same command with --resume to complete the run"
            ) from None


def _dask_backend(jobs: int, **options: object) -> Backend:
    """The Dask backend (:mod:`skatsim.run.dask_backend`), imported only when asked for."""
    from .dask_backend import DaskBackend

    return DaskBackend(jobs, **options)  # type: ignore[arg-type]


#: Backend name -> factory called with ``jobs`` and the backend's own options
#: (e.g. a scheduler address). A cluster backend registers here.
BACKENDS: dict[str, Callable[..., Backend]] = {"local": LocalBackend, "dask": _dask_backend}


def make_backend(name: str, jobs: int, options: Mapping[str, object] | None = None) -> Backend:
    """The backend called ``name``, with a one-line error naming the known ones."""
    factory = BACKENDS.get(name)
    if factory is None:
        raise SkatsimError(f"unknown backend {name!r}; available: {', '.join(sorted(BACKENDS))}")
    return factory(jobs, **(options or {}))


# --------------------------------------------------------------------------- output folder


def _prepare_out_dir(out_dir: str, resume: bool) -> RunManifest | None:
    """Check the output folder and return its manifest when resuming an existing run.

    A new or empty folder starts a run (with or without ``resume``); a folder
    holding a run needs ``resume``; any other non-empty folder is refused.
    """
    try:
        if storage.exists(out_dir) and not storage.isdir(out_dir):
            raise SkatsimError(f"{out_dir}: exists and is not a folder; choose another --out")
        storage.makedirs(out_dir)
        entries = storage.listdir(out_dir)
    except OSError as exc:
        raise SkatsimError(f"{out_dir}: cannot create or read the output folder ({exc.strerror or exc})") from None
    if not entries:
        return None
    manifest = read_manifest(out_dir)
    if manifest is None:
        raise SkatsimError(
            f"{out_dir}: folder is not empty and is not a skatsim run (no {MANIFEST}); choose another --out"
        )
    if not resume:
        done = len(manifest.chunks_done)
        raise SkatsimError(
            f"{out_dir}: already holds a skatsim run ({done} of {len(manifest.chunks)} chunks done); "
            "pass --resume to complete it, or choose another --out"
        )
    return manifest


def _verify_chunk(path: str, entry: ChunkEntry, schema: dict[str, pl.DataType | type[pl.DataType]]) -> None:
    """Read a chunk file in full and check its columns, row count and game ids; a damaged file is an error."""
    fix = "remove that file and run again with --resume to recompute it"
    try:
        frame = storage.read_parquet(path)
    # polars reports damaged files as PolarsError or OSError, and some as a Rust panic (a BaseException).
    except (pl.exceptions.PolarsError, OSError, pl.exceptions.PanicException) as exc:
        reason = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
        raise SkatsimError(f"{path}: corrupt chunk file ({reason}); {fix}") from None
    if dict(frame.schema) != schema:
        raise SkatsimError(f"{path}: chunk file has other columns than this run writes; {fix}")
    ids = frame["game_id"]
    expected = (entry.count, entry.first, entry.first + entry.count - 1, entry.count)
    found = (frame.height, ids.min(), ids.max(), ids.n_unique())
    if found != expected:
        raise SkatsimError(
            f"{path}: chunk file should hold games {entry.first}..{expected[2]} once each, "
            f"holds {frame.height} rows with ids {found[1]}..{found[2]}; {fix}"
        )


def _scan_existing(out_dir: str, manifest: RunManifest, params: np.ndarray) -> set[str]:
    """Delete stray temporary files, verify every chunk file present; return the names of chunks done."""
    planned = {entry.file: entry for entry in manifest.chunks}
    schema = frame_schema(manifest.record_play, params)
    done = set()
    for name in sorted(storage.listdir(out_dir)):
        path = storage.join(out_dir, name)
        if storage.is_temp_name(name):
            storage.remove_quietly(path)
        elif name.startswith("chunk-") and name.endswith(".parquet"):
            if name not in planned:
                raise SkatsimError(f"{path}: chunk file not in this run's plan (chunk size {manifest.chunk_size})")
            _verify_chunk(path, planned[name], schema)
            done.add(name)
    return done


# --------------------------------------------------------------------------- progress


class _GamesPerSecond(ProgressColumn):
    """The task's current speed in games per second."""

    def render(self, task) -> Text:  # type: ignore[no-untyped-def]
        speed = task.finished_speed or task.speed
        return Text("    - games/s" if speed is None else f"{speed:>11,.0f} games/s", style="progress.data.speed")


def _starting(enabled: bool) -> AbstractContextManager[object]:
    """A spinner on stderr while the backend starts (shown only when enabled and stderr is a terminal)."""
    console = Console(stderr=True)
    if not (enabled and console.is_terminal):
        return nullcontext()
    return console.status("starting: loading the compiled kernels (the first run on a machine compiles them, ~30 s)")


def _progress(enabled: bool) -> Progress:
    """A progress bar on stderr, shown only when enabled and stderr is a terminal."""
    console = Console(stderr=True)
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _GamesPerSecond(),
        TimeRemainingColumn(),
        console=console,
        disable=not (enabled and console.is_terminal),
    )


# --------------------------------------------------------------------------- runs


@dataclass(frozen=True)
class RunResult:
    """What a call to :func:`run_simulation` did."""

    out_dir: str
    games: int
    games_run: int
    chunks: int
    seconds: float

    def summary(self) -> str:
        """One line: games simulated now, time, rate, where the run is."""
        rate = self.games_run / self.seconds if self.seconds > 0 else 0.0
        resumed = f" ({self.games - self.games_run:,} already done)" if self.games_run < self.games else ""
        return (
            f"{self.games_run:,} games in {self.seconds:.1f} s ({rate:,.0f} games/s){resumed}; "
            f"{self.games:,} games in {self.out_dir}"
        )


def check_run_numbers(games: int, seed: int, jobs: int) -> None:
    """The numbers every simulating command takes, checked at the edge with what is allowed."""
    if not 1 <= games <= MAX_GAMES:
        raise SkatsimError(f"--games must be between 1 and {MAX_GAMES:,}, got {games}")
    if not 0 <= seed <= MAX_SEED:
        raise SkatsimError(f"--seed must be between 0 and 2**64 - 1, got {seed}")
    if jobs < 1:
        raise SkatsimError(f"--jobs must be at least 1, got {jobs}")


def _check_numbers(games: int, seed: int, jobs: int, chunk_size: int | None) -> None:
    check_run_numbers(games, seed, jobs)
    if chunk_size is not None and not 1 <= chunk_size <= MAX_CHUNK:
        raise SkatsimError(f"--chunk-size must be between 1 and {MAX_CHUNK:,}, got {chunk_size}")


def _new_manifest(
    loaded: LoadedVariant, games: int, seed: int, bots: tuple[str, ...], record_play: bool, chunk_size: int
) -> RunManifest:
    """The manifest of a run starting now, with its chunk plan."""
    chunks = [ChunkEntry(first=f, count=c, file=chunk_name(f, c)) for f, c in plan_chunks(games, chunk_size)]
    now = timestamp()
    return RunManifest(
        format=RUN_FORMAT,
        format_version=RUN_FORMAT_VERSION,
        skatsim_version=__version__,
        variant_path=loaded.path,
        variant_name=loaded.variant.name,
        variant_text=loaded.text,
        bots=bots,
        seed=seed,
        games=games,
        chunk_size=chunk_size,
        record_play=record_play,
        chunks=chunks,
        chunks_done=[],
        created=now,
        updated=now,
        params=[int(p) for p in loaded.variant.params()],
    )


def _resumed_manifest(old: RunManifest, fresh: RunManifest, chunk_size: int | None, out_dir: str) -> RunManifest:
    """The manifest to continue with: the old plan, after checking the settings match."""
    check_same_run(old, fresh, out_dir)
    if chunk_size is not None and chunk_size != old.chunk_size:
        raise SkatsimError(
            f"{out_dir}: cannot resume with --chunk-size {chunk_size}: the run uses {old.chunk_size} "
            "(omit --chunk-size to keep it)"
        )
    return old.model_copy(update={"variant_path": fresh.variant_path})


def _specs(manifest: RunManifest, params: np.ndarray, out_dir: str) -> list[ChunkSpec]:
    """Specs of the planned chunks not yet done, in game order."""
    skip = set(manifest.chunks_done)
    return [
        ChunkSpec(
            seed=manifest.seed,
            first=e.first,
            count=e.count,
            params=tuple(int(p) for p in params),
            variant_name=manifest.variant_name,
            bots=manifest.bots,
            record_play=manifest.record_play,
            out_dir=storage.absolute(out_dir),  # workers may run in another working directory
        )
        for e in manifest.chunks
        if e.file not in skip
    ]


@dataclass(frozen=True)
class RunPlan:
    """A run's checked settings (:func:`plan_run`): everything needed to open its folder and run it."""

    out_dir: str
    fresh: RunManifest
    params: tuple[int, ...]
    chunk_size: int | None
    resume: bool


def plan_run(
    variant_path: str,
    games: int,
    seed: int,
    out_dir: str,
    bots: str = DEFAULT_BOTS,
    resume: bool = False,
    record_play: bool = False,
    chunk_size: int | None = None,
) -> RunPlan:
    """Check a run's settings and plan its chunks; reads the variant file, touches no other file."""
    _check_numbers(games, seed, 1, chunk_size)
    loaded = load_variant(variant_path)
    seats = parse_bots(bots, loaded.variant.table.players)
    length = loaded.variant.list_length
    size = whole_lists(chunk_size or default_chunk_size(games, record_play), length)
    fresh = _new_manifest(loaded, games, seed, seats, record_play, size)
    asked = None if chunk_size is None else whole_lists(chunk_size, length)
    return RunPlan(out_dir, fresh, tuple(int(p) for p in loaded.variant.params()), asked, resume)


@dataclass
class _OpenRun:
    """A run whose folder is checked: its manifest, the chunk names done (growing) and the specs to run."""

    out_dir: str
    manifest: RunManifest
    specs: list[ChunkSpec]
    done: list[str]


def _open_run(plan: RunPlan) -> _OpenRun:
    """Check (or create) the run's folder and, when resuming, verify the chunk files already there."""
    old = _prepare_out_dir(plan.out_dir, plan.resume)
    manifest = plan.fresh if old is None else _resumed_manifest(old, plan.fresh, plan.chunk_size, plan.out_dir)
    params = np.array(plan.params, dtype=np.int64)
    done = _scan_existing(plan.out_dir, manifest, params) if old is not None else set()
    manifest = manifest.model_copy(update={"chunks_done": sorted(done), "finished": None, "updated": timestamp()})
    specs = _specs(manifest, np.array(plan.params, dtype=np.int64), plan.out_dir)
    return _OpenRun(plan.out_dir, manifest, specs, list(manifest.chunks_done))


def _write_progress(run: _OpenRun) -> None:
    write_manifest(
        run.out_dir, run.manifest.model_copy(update={"chunks_done": sorted(run.done), "updated": timestamp()})
    )


def _execute(runs: list[_OpenRun], backend: Backend, show: bool) -> None:
    """Run every run's specs in one backend map, appending finished chunks to their run's ``done``
    and, every ``MANIFEST_INTERVAL`` seconds, to the manifests on disk."""
    owner = {spec.path: (run, spec.count) for run in runs for spec in run.specs}
    total = sum(run.manifest.games for run in runs)
    games_done = sum(e.count for run in runs for e in run.manifest.chunks if e.file in set(run.done))
    changed: dict[str, _OpenRun] = {}
    last_write = time.monotonic()
    with _progress(show) as bar:
        task = bar.add_task("simulating", total=total, completed=games_done)
        for path in backend.map_unordered(run_chunk, [spec for run in runs for spec in run.specs]):
            run, count = owner[path]
            run.done.append(storage.basename(path))
            changed[run.out_dir] = run
            bar.advance(task, count)
            if time.monotonic() - last_write >= MANIFEST_INTERVAL:
                for each in changed.values():
                    _write_progress(each)
                changed.clear()
                last_write = time.monotonic()


def _close_run(run: _OpenRun) -> None:
    """Record the chunks done at the end of a session; once all are, the finish time, and remove
    temporary files left by workers that died while writing (their chunks were written again)."""
    now = timestamp()
    complete = len(run.done) == len(run.manifest.chunks)
    if complete:
        _remove_temp_files(run.out_dir)
    update = {"chunks_done": sorted(run.done), "updated": now, "finished": now if complete else None}
    write_manifest(run.out_dir, run.manifest.model_copy(update=update))


def _remove_temp_files(out_dir: str) -> None:
    """Remove every temporary file in ``out_dir``; best effort (they are hidden and harmless)."""
    try:
        names = storage.listdir(out_dir)
    except OSError:
        return
    for name in names:
        if storage.is_temp_name(name):
            storage.remove_quietly(storage.join(out_dir, name))


def _session(backend: Backend) -> AbstractContextManager[object]:
    """The backend itself when it is a context manager (it connects on entry, cleans up on exit)."""
    return backend if isinstance(backend, AbstractContextManager) else nullcontext()


def execute_runs(plans: Sequence[RunPlan], backend: Backend, progress: bool = True) -> list[RunResult]:
    """Run the planned runs' chunks together on one backend; one result per plan, in order.

    Every folder is checked before the backend is entered (connected to a
    cluster, say) and manifests are written only once it is, so a refused
    folder or an unreachable cluster leaves at most empty folders. Runs share
    the backend, so a sweep of many runs keeps every worker busy to the end.
    """
    start = time.perf_counter()
    if len({storage.absolute(plan.out_dir) for plan in plans}) < len(plans):
        raise SkatsimError("two runs share an output folder; give each its own")
    runs = [_open_run(plan) for plan in plans]
    with ExitStack() as session:
        with _starting(progress):
            session.enter_context(_session(backend))
        for run in runs:
            write_manifest(run.out_dir, run.manifest)
        try:
            _execute(runs, backend, progress)
        finally:
            for run in runs:
                _close_run(run)
    seconds = time.perf_counter() - start
    return [
        RunResult(run.out_dir, run.manifest.games, sum(s.count for s in run.specs), len(run.manifest.chunks), seconds)
        for run in runs
    ]


def run_simulation(
    variant_path: str,
    games: int,
    seed: int,
    out_dir: str,
    jobs: int = 1,
    bots: str = DEFAULT_BOTS,
    resume: bool = False,
    record_play: bool = False,
    chunk_size: int | None = None,
    backend: str = "local",
    progress: bool = True,
    backend_options: Mapping[str, object] | None = None,
) -> RunResult:
    """Simulate games ``0 .. games - 1`` into ``out_dir`` (Parquet chunk files and ``manifest.json``).

    ``bots``: one name, or one per player (FH,MH,RH of the first deal; four at a four-player table).
    ``resume``: complete the run already in ``out_dir`` (same variant text, bots, seed, games, record flag).
    ``chunk_size`` changes only how rows are split into files. ``backend``
    (with ``backend_options``) chooses where chunks run (:data:`BACKENDS`).
    ``out_dir`` may be an fsspec URL (``s3://bucket/run``). Expected problems
    raise :class:`SkatsimError` with a one-line message.
    """
    start = time.perf_counter()
    _check_numbers(games, seed, jobs, chunk_size)
    plan = plan_run(variant_path, games, seed, out_dir, bots, resume, record_play, chunk_size)
    executor = make_backend(backend, jobs, backend_options)
    [result] = execute_runs([plan], executor, progress)
    return replace(result, seconds=time.perf_counter() - start)


def scan_run(out_dir: str) -> pl.LazyFrame:
    """All games of a finished run as one lazy frame (chunk files in game order)."""
    manifest = read_manifest(out_dir)
    if manifest is None:
        raise SkatsimError(f"{out_dir}: not a skatsim run (no {MANIFEST})")
    if manifest.finished is None:
        raise SkatsimError(f"{out_dir}: the run is not finished; complete it with --resume")
    paths = [storage.join(out_dir, e.file) for e in manifest.chunks]
    return storage.scan_parquet(paths)
