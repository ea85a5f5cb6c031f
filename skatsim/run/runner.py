"""Runs: N games split into chunks, computed in parallel, written as Parquet files; one writer per folder.

A run is a folder::

    manifest.json                          what made the run, its run id, the chunks done
    run.lock                               while a writer works on it: who (host, pid, start)
    chunk-000000000000-62500.parquet       games 0 .. 62,499
    chunk-000000062500-62500.parquet       ...

Each chunk is computed by :func:`skatsim.run.chunks.run_chunk`, a pure top-level function of a
picklable chunk spec, and written atomically (temporary file, then ``os.replace``) with the
run's id in its Parquet metadata, so a chunk file is either complete or absent and never
mixes into another run. Because every row depends only on (seed, game index, variant,
bots), the chunk files, the number of workers and the order chunks finish in never change
the rows; a run stopped at any moment (Ctrl-C, kill -9, a full disk, a dead worker) keeps
every chunk written and is completed by ``resume=True``, which verifies the chunk files
present and computes only the missing ones.

The chunk plan is lazy: chunk ``i`` is derived from ``games`` and ``chunk_size`` when the
backend asks for more work, at most a few chunks per worker are in flight, and the chunks
done are recorded as ranges, so memory does not grow with ``games``.

Every multi-run job (``sweep``, ``compare``) is a list of :class:`RunPlan` given to
:func:`execute_runs`, which runs all their chunks on one backend with one progress bar.
Where chunks run is a :class:`Backend`: ``local`` (:mod:`skatsim.run.local_backend`) maps
them over threads of this process and worker processes (loky, as joblib does); ``dask``
(:mod:`skatsim.run.dask_backend`) over a Dask cluster whose workers write into the same folder. The
folder may be a local path or an fsspec URL (``s3://...``): every file access goes through :mod:`skatsim.run.storage`.
"""

from __future__ import annotations

import math
import os
import shutil
import signal
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import Any, NoReturn, Protocol

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.text import Text

from ..bots import DEFAULT_BOTS, bot_calibration, bot_values, calibration_pending, parse_bots
from ..counts import plural
from ..errors import SkatsimError, first_line
from ..frames import frame_schema
from ..variant import LoadedVariant, load_variant
from . import storage
from .chunks import (
    BLOCK,
    MAX_CHUNK,
    ChunkJob,
    ChunkSpec,
    default_chunk_size,
    estimated_bytes,
    run_chunk,
    searching_chunk,
    warm_up_search,
    whole_lists,
)
from .local_backend import AT_ONCE, LocalBackend
from .lock import LOCK, RunLock, release_held
from .manifest import (
    MANIFEST,
    RUN_FORMAT,
    RUN_FORMAT_VERSION,
    RUN_ID_KEY,
    DoneChunks,
    RunManifest,
    check_same_run,
    open_hand_mode,
    read_manifest,
    timestamp,
    write_manifest,
)
from .reader import finished_run, scan_run

__all__ = ["finished_run", "scan_run"]  # the readers of a run, kept importable from here

#: Largest game count and seed the kernels' uint64 game index and seed accept.
MAX_GAMES = 2**62
MAX_SEED = 2**64 - 1
#: Seconds between manifest rewrites while chunks finish (the chunk files are
#: the truth; the manifest's ``chunks_done`` is a progress record).
MANIFEST_INTERVAL = 1.0
#: A backend start this long was compiling, not loading, the kernels (loading takes well under a
#: second): the summary line then says so and gives the rate after it.
COMPILING_SECONDS = 5.0


# --------------------------------------------------------------------------- backends


class Backend(Protocol):
    """Where chunks run. An implementation maps ``fn`` over ``specs`` and yields results as they finish.

    ``fn`` is :func:`~skatsim.run.chunks.run_chunk` (top level, picklable);
    ``specs`` is a lazy iterable, possibly of billions of chunks: take from it only as
    workers free up. Results may come in any order. A backend must let an exception
    from ``fn`` propagate, and when its generator is closed early (Ctrl-C, an error)
    stop the work still running or queued. A backend that holds resources (a cluster
    connection) may also be a context manager: the runner enters it once the output
    folders are checked and exits it when the run ends (:func:`execute_runs`).
    """

    def map_unordered(self, fn: Callable[[Any], str], specs: Iterable[ChunkJob]) -> Iterator[str]:
        """Run ``fn`` on every spec, yielding each result when it is ready."""
        ...


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


def _make_folder(out_dir: str) -> None:
    """Create the output folder (and parents); a file in the way or an unwritable place is a one-line error."""
    if not out_dir.strip():  # --out "$UNSET": not the current folder, and no name to report
        raise SkatsimError(f"{out_dir!r}: no output folder named (allowed: a folder path or URL, e.g. runs/demo)")
    try:
        if storage.exists(out_dir) and not storage.isdir(out_dir):
            raise SkatsimError(f"{out_dir}: exists and is not a folder; choose another --out")
        storage.makedirs(out_dir)
    except OSError as exc:
        raise SkatsimError(f"{out_dir}: cannot create or read the output folder ({exc.strerror or exc})") from None


def _existing_run(out_dir: str, resume: bool, alone: bool = True) -> RunManifest | None:
    """The manifest of the run already in ``out_dir`` (when resuming), ``None`` for an empty folder.

    Called with the folder's lock held. A folder holding a run needs
    ``resume`` (which, for a finished run, only verifies its chunk files); any other
    non-empty folder is refused. ``alone``: the run is the job's only one (``simulate``,
    ``duel``), not one of a comparison's or a sweep's, whose ``--resume`` uses the runs there. The lock file and
    temporary files left by a killed writer do not count.
    """
    try:
        entries = [e for e in storage.listdir(out_dir) if e != LOCK and not storage.is_temp_name(e)]
    except OSError as exc:
        raise SkatsimError(f"{out_dir}: cannot create or read the output folder ({exc.strerror or exc})") from None
    if not entries:
        return None
    manifest = read_manifest(out_dir)
    if manifest is None:
        raise SkatsimError(
            f"{out_dir}: folder is not empty and is not a skatsim run (no {MANIFEST}); choose another --out"
        )
    if not resume and manifest.finished is not None:
        unit = f"{count_unit(manifest)}s"
        hint = (
            "choose another --out (--resume only checks it)"
            if alone
            else "pass --resume to use the runs there (finished ones are only checked), or choose another folder"
        )
        raise SkatsimError(f"{out_dir}: already holds a finished skatsim run ({manifest.games:,} {unit}); {hint}")
    if not resume:
        raise SkatsimError(
            f"{out_dir}: already holds a skatsim run ({len(manifest.done())} of {manifest.n_chunks} chunks done); "
            "pass --resume to complete it, or choose another --out"
        )
    return manifest


def _verify_chunk(path: str, manifest: RunManifest, i: int, schema: dict[str, Any]) -> None:
    """Read a chunk file in full and check its run id, columns, row count and game ids; a bad file is an error."""
    fix = "remove that file and run again with --resume to recompute it"
    try:
        run_id = storage.parquet_metadata(path).get(RUN_ID_KEY)
        frame = storage.read_parquet(path)
    except storage.UNREADABLE as exc:
        reason = first_line(exc, 160)
        raise SkatsimError(f"{path}: corrupt chunk file ({reason}); {fix}") from None
    if run_id != manifest.run_id:
        raise SkatsimError(f"{path}: chunk file of another run (run id {run_id}, this run is {manifest.run_id}); {fix}")
    if dict(frame.schema) != schema:
        raise SkatsimError(f"{path}: chunk file has other columns than this run writes; {fix}")
    first, count = manifest.chunk(i)
    ids = frame["game_id"]
    expected = (count, first, first + count - 1, count)
    found = (frame.height, ids.min(), ids.max(), ids.n_unique())
    if found != expected:
        raise SkatsimError(
            f"{path}: chunk file should hold games {first}..{expected[2]} once each, "
            f"holds {frame.height} rows with ids {found[1]!s}..{found[2]!s}; {fix}"
        )


def _scan_existing(out_dir: str, manifest: RunManifest, schema: dict[str, Any]) -> DoneChunks:
    """Delete stray temporary files, verify every chunk file present (``schema``: the columns a chunk
    of this run has); return the chunks done."""
    done = DoneChunks()
    for name in sorted(storage.listdir(out_dir)):
        path = storage.join(out_dir, name)
        if storage.is_temp_name(name):
            storage.remove_quietly(path)
        elif name.startswith("chunk-") and name.endswith(".parquet"):
            i = manifest.chunk_index(name)
            if i is None:
                raise SkatsimError(f"{path}: chunk file not in this run's plan (chunk size {manifest.chunk_size})")
            _verify_chunk(path, manifest, i, schema)
            done.add(i)
    return done


def _size(n: float) -> str:
    """Bytes in the unit a person reads (``12.3 GB``)."""
    for unit in ("bytes", "kB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1000
    raise AssertionError("unreachable")


def _check_space(runs: Sequence[_OpenRun], force: bool) -> None:
    """Refuse to start when the chunks still to write would not fit on their disk (``force``: try anyway).

    Runs on one filesystem add up; object stores (URLs) are not checked.
    """
    need: dict[int, tuple[int, str]] = {}
    for run in runs:
        if storage.is_url(run.out_dir):
            continue
        todo_games = run.manifest.games - run.manifest.games_in(run.done)
        todo_chunks = run.manifest.n_chunks - len(run.done)
        device = os.stat(run.out_dir).st_dev
        before = need.get(device, (0, run.out_dir))[0]
        need[device] = (before + estimated_bytes(todo_games, todo_chunks, run.manifest.record_play), run.out_dir)
    for size, folder in need.values():
        free = storage.free_bytes(folder)
        if free is not None and size > free and not force:
            raise SkatsimError(
                f"{folder}: the run needs about {_size(size)} of disk space and {_size(free)} are free there; "
                "free some space, choose another --out, or pass --force to try anyway"
            )


# --------------------------------------------------------------------------- progress


class _GamesDone(ProgressColumn):
    """Games done of the total, in thousands as every count is written (``175,000/200,000``)."""

    def render(self, task) -> Text:  # type: ignore[no-untyped-def]
        total = f"{int(task.total):,}" if task.total is not None else "?"
        done = f"{int(task.completed):,}".rjust(len(total))
        return Text(f"{done}/{total}", style="progress.download")


def count_unit(manifest: RunManifest) -> str:
    """What a run's ``games`` count: ``deal`` for a duel's (each played in six seatings), else ``game``."""
    return "deal" if manifest.job == "duel" else "game"


def _games_per_second(task) -> float | None:  # type: ignore[no-untyped-def]
    """Games per second since the bar started, the games a resumed run had before (the task's ``before``
    field) left out; None for the first half second. Not rich's estimate over its last few updates: two
    chunks finishing together made that read hundreds of millions."""
    elapsed = task.finished_time if task.finished_time is not None else task.elapsed
    if not elapsed or elapsed < 0.5:
        return None
    return float((task.completed - task.fields.get("before", 0)) / elapsed)


class _GamesPerSecond(ProgressColumn):
    """:func:`_games_per_second`, shown from half a second on, in the task's ``unit`` (a duel counts deals)."""

    def render(self, task) -> Text:  # type: ignore[no-untyped-def]
        speed = _games_per_second(task)
        unit = f"{task.fields.get('unit', 'game')}s/s"
        if speed is None:
            return Text(f"    - {unit}", style="progress.data.speed")
        return Text(f"{speed:>11,.0f} {unit}", style="progress.data.speed")


class _TimeLeft(ProgressColumn):
    """The time the games left take at :func:`_games_per_second` (rich's own estimate rests on its last
    few updates, and two chunks finishing together made it read seconds for minutes of work)."""

    def render(self, task) -> Text:  # type: ignore[no-untyped-def]
        speed = _games_per_second(task)
        if task.finished:
            left = 0.0
        elif not speed or task.total is None:
            return Text("-:--:--", style="progress.remaining")
        else:
            left = (task.total - task.completed) / speed
        minutes, seconds = divmod(math.ceil(left), 60)
        hours, minutes = divmod(minutes, 60)
        return Text(f"{hours}:{minutes:02d}:{seconds:02d}", style="progress.remaining")


def status(enabled: bool, message: str) -> AbstractContextManager[object]:
    """A spinner with ``message`` on stderr while work goes on (shown only when enabled and stderr is a
    terminal; gone when it ends)."""
    console = Console(stderr=True)
    if not (enabled and console.is_terminal):
        return nullcontext()
    return console.status(message)


#: What a command that compiles its kernels at their first use says while it works.
FIRST_USE = "(the first use compiles the kernels: up to 30 s)"


def working(what: str) -> AbstractContextManager[object]:
    """:func:`status` for a command without a progress bar whose kernels ``pip install`` did not compile
    (what-if rollouts, the solver, the ISS parser): ``what`` it does, and that a first use compiles."""
    return status(True, f"{what} {FIRST_USE}")


def _starting(enabled: bool) -> AbstractContextManager[object]:
    """A spinner on stderr while the backend starts (shown only when enabled and stderr is a terminal)."""
    return status(enabled, "starting: loading the compiled kernels (a first run compiles them, ~30 s)")


def stderr_progress(enabled: bool, *counts: ProgressColumn, left: ProgressColumn | None = None) -> Progress:
    """A progress bar on stderr, shown only when enabled and stderr is a terminal: the task's
    description, the bar, the ``counts`` columns (done of total, speed), the time remaining (``left``,
    by default rich's estimate)."""
    console = Console(stderr=True)
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        *counts,
        left or TimeRemainingColumn(),
        console=console,
        disable=not (enabled and console.is_terminal),
    )


def _progress(enabled: bool) -> Progress:
    """The progress bar of runs: games done of total, games per second, the time the rest takes at it."""
    return stderr_progress(enabled, _GamesDone(), _GamesPerSecond(), left=_TimeLeft())


# --------------------------------------------------------------------------- runs


@dataclass(frozen=True)
class RunResult:
    """What a call to :func:`run_simulation` did."""

    out_dir: str
    games: int
    games_run: int
    chunks: int
    seconds: float
    #: Seconds the backend took to start: loading the compiled kernels, or compiling them on the
    #: first run of a skatsim version on a machine.
    start_seconds: float = 0.0
    #: Seconds spent learning the bots' calibration for the variant (its first run; 0 when shipped or cached).
    calibration_seconds: float = 0.0

    def summary(self) -> str:
        """One line: games simulated now, time, rate, where the run is; a first run's compiling and a new
        variant's calibrating apart, with the rate after them."""
        rate = self.games_run / self.seconds if self.seconds > 0 else 0.0
        resumed = f" ({self.games - self.games_run:,} already done)" if self.games_run < self.games else ""
        once = []  # (seconds, doing what, how often)
        if self.start_seconds >= COMPILING_SECONDS:
            once.append((self.start_seconds, "compiling the kernels", "once per machine and skatsim version"))
        if self.calibration_seconds > 0:
            once.append((self.calibration_seconds, "calibrating the bots for this variant", "once per variant"))
        aside = ""
        spent = sum(seconds for seconds, _, _ in once)
        if once and self.seconds > spent:
            said = ", and ".join(
                f"{seconds:.1f} s{' of it' if i == 0 else ''} {doing}, {often}"
                for i, (seconds, doing, often) in enumerate(once)
            )
            aside = f", {said}: {self.games_run / (self.seconds - spent):,.0f} games/s after that"
        return (
            f"{plural(self.games_run, 'game')} in {self.seconds:.1f} s ({rate:,.0f} games/s){aside}{resumed}; "
            f"{plural(self.games, 'game')} in {self.out_dir}"
        )


class RunStopped(SkatsimError):
    """Runs stopped before their end (Ctrl-C, a full disk, a dead worker); every chunk written is kept.

    ``reason`` says why (``interrupted`` for Ctrl-C); ``kept`` and ``total`` count
    games over all the runs (``unit``: a duel's are deals); ``where`` names their folder(s); ``extra_args`` are
    options the command needs besides ``--resume`` to continue (a comparison's
    ``--runs DIR`` when it ran in a temporary folder). The message ends with how
    to continue; the command line replaces that with the exact command.
    """

    def __init__(
        self,
        reason: str,
        interrupted: bool,
        kept: int,
        total: int,
        where: str,
        extra_args: tuple[str, ...] = (),
        unit: str = "game",
    ) -> None:
        self.reason, self.interrupted, self.kept, self.total = reason, interrupted, kept, total
        self.where, self.extra_args, self.unit = where, extra_args, unit
        how = " ".join([*extra_args, "--resume"])
        super().__init__(f"{self.progress()}; run the same command with {how} to complete it")

    def progress(self) -> str:
        """Why the run stopped and what is kept, without the way to continue."""
        return f"{self.reason}; {self.kept:,} of {plural(self.total, self.unit)} kept in {self.where}"


@dataclass(frozen=True)
class JobFolder:
    """The folder of a job that runs runs and then reads them (compare, duel): the user's folder,
    kept, or a temporary one (``temporary``) removed once the result is read. ``extra`` is what the
    command needs besides ``--resume`` to continue: ``(option, path)`` for a temporary folder."""

    path: str
    temporary: bool
    extra: tuple[str, ...]

    @classmethod
    def make(cls, given: str | None, option: str, prefix: str) -> JobFolder:
        """``given`` (the value of ``option``), or a new temporary folder named ``prefix...``."""
        if given is not None:
            return cls(given, False, ())
        path = tempfile.mkdtemp(prefix=prefix)
        return cls(path, True, (option, path))

    @contextmanager
    def running(self) -> Iterator[None]:
        """Around running the runs: a stop names this folder (which keeps what was computed); any
        other failure removes a temporary folder."""
        try:
            yield
        except RunStopped as stopped:  # keep what was computed, and say where it is
            raise RunStopped(
                stopped.reason, stopped.interrupted, stopped.kept, stopped.total, self.path, self.extra, stopped.unit
            ) from None
        except BaseException:
            self.remove()
            raise

    @contextmanager
    def reading(self, games: int, unit: str = "game") -> Iterator[None]:
        """Around reading the complete runs (``games`` games in all, or deals: ``unit``): Ctrl-C keeps them,
        the same command reads them again."""
        try:
            yield
        except KeyboardInterrupt:
            raise RunStopped("interrupted", True, games, games, self.path, self.extra, unit) from None

    def remove(self) -> None:
        """Remove the folder if it is a temporary one."""
        if self.temporary:
            shutil.rmtree(self.path, ignore_errors=True)


def check_folder_of_runs(path: str, option: str, what: str) -> None:
    """Refuse ``path`` (the value of ``option``) as the folder holding run folders (a sweep's, a comparison's)
    when it is itself a run: the new runs would sit inside that run, where its readers and resume do not look."""
    if storage.exists(storage.join(path, MANIFEST)):
        raise SkatsimError(
            f"{path}: holds a skatsim run ({MANIFEST}), not {what}'s run folders; choose another {option} "
            f"({what} writes its run folders inside it)"
        )


def check_run_numbers(games: int, seed: int, jobs: int) -> None:
    """The numbers every simulating command takes, checked at the edge with what is allowed."""
    if not 1 <= games <= MAX_GAMES:
        raise SkatsimError(f"--games must be between 1 and {MAX_GAMES:,}, got {games}")
    if not 0 <= seed <= MAX_SEED:
        raise SkatsimError(f"--seed must be between 0 and 2**64 - 1, got {seed}")
    if jobs < 1:
        raise SkatsimError(f"--jobs must be at least 1, got {jobs}")


def check_chunk_size(chunk_size: int | None) -> None:
    """``--chunk-size``, when given, within what a worker's memory allows."""
    if chunk_size is not None and not 1 <= chunk_size <= MAX_CHUNK:
        raise SkatsimError(f"--chunk-size must be between 1 and {MAX_CHUNK:,}, got {chunk_size}")


def _new_manifest(
    loaded: LoadedVariant,
    games: int,
    seed: int,
    bots: tuple[str, ...],
    record_play: bool,
    chunk_size: int,
    open_hand: str = "",
) -> RunManifest:
    """The manifest of a run starting now (its run id is drawn when its folder is opened)."""
    return RunManifest.started(
        format=RUN_FORMAT,
        format_version=RUN_FORMAT_VERSION,
        run_id="",
        variant_path=loaded.path,
        variant_name=loaded.variant.name,
        variant_text=loaded.text,
        bots=bots,
        bot_parameters=[bot_values(b) for b in bots],
        bot_calibration=bot_calibration(bots, loaded.variant.params()),
        seed=seed,
        games=games,
        chunk_size=chunk_size,
        record_play=record_play,
        open_hand=open_hand,
        params=[int(p) for p in loaded.variant.params()],
    )


def _resumed_manifest(old: RunManifest, fresh: RunManifest, chunk_size: int | None, out_dir: str) -> RunManifest:
    """The manifest to continue with: the old plan and run id, after checking the settings match."""
    check_same_run(old, fresh, out_dir)
    if chunk_size is not None and chunk_size != old.chunk_size:
        raise SkatsimError(
            f"{out_dir}: cannot resume with --chunk-size {chunk_size}: the run uses {old.chunk_size} "
            "(omit --chunk-size to keep it)"
        )
    return old.model_copy(update={"variant_path": fresh.variant_path})


@dataclass(frozen=True)
class RunPlan:
    """A run's checked settings (:func:`plan_run`): everything needed to open its folder and run it.

    The job-specific part is :meth:`spec` (the picklable spec of chunk ``i``, whose
    ``compute`` makes the chunk's frame) and :meth:`schema` (the columns a chunk has,
    to verify the files found on resume); a new kind of job (duels, what-if rollouts)
    is a subclass overriding both, and everything else (locks, lazy plan, backends,
    progress, manifest, resume, stops) is the runner's.
    """

    out_dir: str
    fresh: RunManifest
    params: tuple[int, ...]
    chunk_size: int | None
    resume: bool
    #: Seconds planning took to learn the bots' calibration for the variant (0: shipped or cached).
    calibration_seconds: float = 0.0

    def spec(self, manifest: RunManifest, i: int, out_dir: str) -> ChunkJob:
        """The picklable spec of chunk ``i`` of this run, writing into ``out_dir`` (absolute)."""
        first, count = manifest.chunk(i)
        return ChunkSpec(
            seed=manifest.seed,
            first=first,
            count=count,
            params=self.params,
            variant_name=manifest.variant_name,
            bots=manifest.bots,
            record_play=manifest.record_play,
            out_dir=out_dir,
            run_id=manifest.run_id,
            open_hand=manifest.open_hand,
        )

    def schema(self, manifest: RunManifest) -> dict[str, Any]:
        """Column names and types of this run's chunk files."""
        return frame_schema(manifest.record_play, np.array(self.params, dtype=np.int64), bool(manifest.open_hand))


def plan_run(
    variant_path: str,
    games: int,
    seed: int,
    out_dir: str,
    bots: str = DEFAULT_BOTS,
    resume: bool = False,
    record_play: bool = False,
    chunk_size: int | None = None,
    list_multiple: int | None = None,
    open_hand: bool | str = False,
    progress: bool = True,
) -> RunPlan:
    """Check a run's settings and plan its chunks; reads the variant file, touches no other file but the
    bots' calibration cache (a variant's first run learns it: :func:`learn_calibration`).

    ``list_multiple``: make the chunk size a multiple of this many deals too (runs compared
    chunk by chunk must share their plan even when one variant plays lists and the other not).
    ``progress``: a spinner while the calibration is learnt (on a terminal). ``open_hand``: as
    :func:`run_simulation`'s.
    """
    check_run_numbers(games, seed, 1)
    check_chunk_size(chunk_size)
    loaded = load_variant(variant_path)
    seats = parse_bots(bots, loaded.variant.table.players)
    length = loaded.variant.list_length
    mode = open_hand_mode(open_hand)
    default = default_chunk_size(games, record_play, searching_chunk(seats, mode))
    size = whole_lists(whole_lists(chunk_size or default, length), list_multiple or 0)
    learnt = learn_calibration(seats, loaded.variant.params(), progress)
    fresh = _new_manifest(loaded, games, seed, seats, record_play, size, mode)
    asked = None if chunk_size is None else whole_lists(whole_lists(chunk_size, length), list_multiple or 0)
    return RunPlan(out_dir, fresh, tuple(int(p) for p in loaded.variant.params()), asked, resume, learnt)


#: What the spinner says while a variant's calibration is learnt.
CALIBRATING = "calibrating the bots for this variant (self-play, once per variant)"


def learn_calibration(seats: tuple[str, ...], params: np.ndarray, progress: bool) -> float:
    """Learn the bots' calibration for the variant ``params`` now if it is neither shipped nor cached
    (:func:`skatsim.bots.calibration_pending`), under a spinner that says so; the seconds it took (0 when
    there was nothing to learn). The manifest's :func:`~skatsim.bots.bot_calibration` then finds it."""
    if not calibration_pending(seats, params):
        return 0.0
    start = time.perf_counter()
    with status(progress, CALIBRATING):
        bot_calibration(seats, params)
    return time.perf_counter() - start


@dataclass
class _OpenRun:
    """A run whose folder is locked and checked: its manifest, the chunks done (growing), its lock."""

    plan: RunPlan
    manifest: RunManifest
    done: DoneChunks
    lock: RunLock
    games_before: int = 0
    out_abs: str = field(init=False)

    def __post_init__(self) -> None:
        self.out_abs = storage.absolute(self.plan.out_dir)  # workers may run in another working directory
        self.games_before = self.manifest.games_in(self.done)

    @property
    def out_dir(self) -> str:
        """The folder as the caller named it."""
        return self.plan.out_dir

    def specs(self) -> Iterator[ChunkJob]:
        """Specs of the chunks not done when the run was opened, in game order, made as they are asked for."""
        for i in DoneChunks(self.done.ranges()).missing(self.manifest.n_chunks):
            yield self.plan.spec(self.manifest, i, self.out_abs)

    def record(self) -> RunManifest:
        """The manifest with the chunks done so far."""
        return self.manifest.progressed(self.done)


def _open_run(plan: RunPlan, alone: bool = True) -> _OpenRun:
    """Lock (or create and lock) the run's folder and, when resuming, verify the chunk files already there."""
    _make_folder(plan.out_dir)
    lock = RunLock(plan.out_dir).acquire()
    try:
        old = _existing_run(plan.out_dir, plan.resume, alone)
        if old is None:
            manifest = plan.fresh.model_copy(update={"run_id": uuid.uuid4().hex})
            done = DoneChunks()
        else:
            manifest = _resumed_manifest(old, plan.fresh, plan.chunk_size, plan.out_dir)
            done = _scan_existing(plan.out_dir, manifest, plan.schema(manifest))
        manifest = manifest.progressed(done, finished=None)
    except BaseException:
        lock.release()
        raise
    return _OpenRun(plan, manifest, done, lock)


class _Interrupts:
    """Ctrl-C while chunks run: the first raises ``KeyboardInterrupt`` (the runner stops the workers
    and keeps every chunk written), a second kills the workers, releases the run's lock and ends the
    process at once (exit status 130; the chunks written are kept, a resumed run finds them).

    The second ends the process itself (``os._exit``) rather than raising: a signal's handler runs
    wherever the main thread is, and an exception raised inside a weakref callback or a ``__del__``
    (an import's module lock, say, while the first Ctrl-C unwinds) is printed with its traceback and
    dropped, and the run would go on stopping slowly."""

    def __init__(self) -> None:
        self.count = 0

    def handle(self, signum: int, frame: object) -> None:
        global _stopped_by_ctrl_c
        self.count += 1
        if self.count == 1:
            _stopped_by_ctrl_c = True
            raise KeyboardInterrupt
        _stop_at_once()


#: Whether a Ctrl-C has stopped a run of this process (:class:`_Interrupts`): a command line then ends on
#: the next one at once (:func:`command_ctrl_c`).
_stopped_by_ctrl_c = False


def _stop_at_once() -> NoReturn:
    """A second Ctrl-C: kill the workers, release this process's run locks, say so, end the process."""
    for hook in reversed(AT_ONCE):
        hook()
    release_held()
    os.write(2, b"skatsim: interrupted again: stopped at once; the chunks written are kept (--resume)\n")
    os._exit(130)


def _command_handler(signum: int, frame: object) -> None:
    """SIGINT of a command line outside a run's own handler: Python's ``KeyboardInterrupt``, unless a Ctrl-C
    stopped a run already: then this one is the second, and stops at once."""
    if _stopped_by_ctrl_c:
        _stop_at_once()
    raise KeyboardInterrupt


@contextmanager
def command_ctrl_c() -> Iterator[None]:
    """SIGINT for a command line's whole run (main thread only). Between a run's handler
    (:func:`catch_interrupts`, which restores the one before it when the run stops) and the command's
    last line, the process unwinds the stopped run; a second Ctrl-C that lands there is still the second
    (stop at once), not a ``KeyboardInterrupt`` out of the command ("aborted", the resume line lost).
    Once a Ctrl-C stopped a run the handler stays: the process is ending."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _command_handler)
    try:
        yield
    finally:
        if not _stopped_by_ctrl_c:
            signal.signal(signal.SIGINT, previous)


@contextmanager
def catch_interrupts() -> Iterator[_Interrupts]:
    """Install :class:`_Interrupts` as the SIGINT handler for the block (main thread only)."""
    state = _Interrupts()
    if threading.current_thread() is not threading.main_thread():
        yield state
        return
    previous = signal.signal(signal.SIGINT, state.handle)
    try:
        yield state
    finally:
        signal.signal(signal.SIGINT, previous)


def _execute(runs: list[_OpenRun], backend: Backend, show: bool) -> None:
    """Run every run's missing chunks in one backend map, recording finished chunks in their run's
    ``done`` and, every ``MANIFEST_INTERVAL`` seconds, in the manifests on disk."""
    owner = {storage.dirname(storage.join(run.out_abs, "x")): run for run in runs}
    total = sum(run.manifest.games for run in runs)
    changed: dict[str, _OpenRun] = {}
    last_write = time.monotonic()
    results = backend.map_unordered(run_chunk, chain.from_iterable(run.specs() for run in runs))
    try:
        with _progress(show) as bar:
            before = sum(run.games_before for run in runs)
            unit = count_unit(runs[0].manifest)
            task = bar.add_task("simulating", total=total, completed=before, before=before, unit=unit)
            for path in results:
                run = owner[storage.dirname(path)]
                i = run.manifest.chunk_index(storage.basename(path))
                assert i is not None, path
                run.done.add(i)
                changed[run.out_dir] = run
                bar.advance(task, run.manifest.chunk(i)[1])
                if time.monotonic() - last_write >= MANIFEST_INTERVAL:
                    for each in changed.values():
                        write_manifest(each.out_dir, each.record())
                    changed.clear()
                    last_write = time.monotonic()
    finally:
        close = getattr(results, "close", None)
        if close is not None:  # a generator stopped early stops its workers now
            close()


def _adopt_written(run: _OpenRun) -> None:
    """Record the chunk files of this run that workers finished but whose results never arrived
    (the run stopped first). The folder is locked and was verified when opened, so every
    planned chunk file in it now is one this session wrote, complete (written atomically)."""
    try:
        names = storage.listdir(run.out_dir)
    except OSError:
        return
    for name in names:
        i = run.manifest.chunk_index(name)
        if i is not None:
            run.done.add(i)


def _close_run(run: _OpenRun, stopping: bool) -> None:
    """Record the chunks done at the end of a session; once all are, the finish time, and remove
    temporary files left by workers that died while writing (their chunks were written again).

    When the session is stopping on an error or Ctrl-C, a manifest that cannot be written
    (a full disk) is left as it was: the chunk files are the truth and ``--resume`` reads them.
    """
    if stopping:
        _adopt_written(run)
    now = timestamp()
    complete = len(run.done) == run.manifest.n_chunks
    if complete:
        _remove_temp_files(run.out_dir)
    try:
        write_manifest(run.out_dir, run.manifest.progressed(run.done, updated=now, finished=now if complete else None))
    except SkatsimError:
        if not stopping:
            raise


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


def _where(runs: Sequence[_OpenRun]) -> str:
    """The folder of the runs, for a message: the run's own, or the folder holding them all."""
    folders = [run.out_dir for run in runs]
    if len(folders) == 1:
        return folders[0]
    if not any(storage.is_url(f) for f in folders):
        return os.path.commonpath([os.path.abspath(f) for f in folders])
    return f"{len(folders)} run folders"


def _run_guarded(runs: list[_OpenRun], backend: Backend, show: bool) -> None:
    """:func:`_execute`, then close every run; Ctrl-C or an error while chunks run becomes
    :class:`RunStopped`, saying how many games are kept."""
    stopped: tuple[str, bool] | None = None
    with catch_interrupts() as interrupts:
        try:
            _execute(runs, backend, show)
        except KeyboardInterrupt:
            stopped = ("interrupted", True)
        except SkatsimError as exc:  # a full disk, a dead worker, a chunk that cannot be written
            stopped = ("interrupted", True) if interrupts.count else (str(exc), False)
        finally:
            for run in runs:
                _close_run(run, stopping=stopped is not None)
    if stopped is not None:
        kept = sum(run.manifest.games_in(run.done) for run in runs)
        total = sum(run.manifest.games for run in runs)
        raise RunStopped(stopped[0], stopped[1], kept, total, _where(runs), unit=count_unit(runs[0].manifest))


def _blocks_per_chunk(manifest: RunManifest) -> int:
    """The row matrices (:data:`skatsim.run.chunks.BLOCK` rows each) a chunk of a simulation fills, counting
    a block of at least half a matrix; 0 when its chunks are smaller (not worth making ahead), and for
    another job (a duel's chunks play their deals into arrays of their own)."""
    size = min(manifest.chunk_size, manifest.games)
    return -(-size // BLOCK) if manifest.job == "simulate" and 2 * size >= BLOCK else 0


def execute_runs(
    plans: Sequence[RunPlan], backend: Backend, progress: bool = True, force: bool = False
) -> list[RunResult]:
    """Run the planned runs' chunks together on one backend; one result per plan, in order.

    Every folder is locked and checked (and the disk space for what is left to
    write, unless ``force``) before the backend is entered (connected to a
    cluster, say), and manifests are written only once it is, so a refused
    folder or an unreachable cluster leaves at most empty folders. Runs share
    the backend, so a sweep of many runs keeps every worker busy to the end.
    A run stopped by Ctrl-C, a full disk or a dead worker raises
    :class:`RunStopped` after recording every chunk written; the locks are
    released however the runs end.
    """
    start = time.perf_counter()
    if len({storage.absolute(plan.out_dir) for plan in plans}) < len(plans):
        raise SkatsimError("two runs share an output folder; give each its own")
    runs: list[_OpenRun] = []
    start_seconds = 0.0
    try:
        for plan in plans:
            runs.append(_open_run(plan, alone=len(plans) == 1))
        _check_space(runs, force)
        if isinstance(backend, LocalBackend):
            backend.expect_chunks(
                sum(run.manifest.n_chunks - len(run.done) for run in runs),
                max(_blocks_per_chunk(run.manifest) for run in runs),
                any(run.manifest.record_play for run in runs),
            )
        with ExitStack() as session:
            starting = time.perf_counter()
            with _starting(progress):
                session.enter_context(_session(backend))
                for plan in plans:
                    warm_up_search(plan.fresh.bots, plan.fresh.open_hand)
            start_seconds = time.perf_counter() - starting
            for run in runs:
                write_manifest(run.out_dir, run.manifest)
            _run_guarded(runs, backend, progress)
    finally:
        for run in runs:
            run.lock.release()
    seconds = time.perf_counter() - start
    return [
        RunResult(
            run.out_dir,
            run.manifest.games,
            run.manifest.games - run.games_before,
            run.manifest.n_chunks,
            seconds,
            start_seconds,
            run.plan.calibration_seconds,
        )
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
    force: bool = False,
    open_hand: bool | str = False,
) -> RunResult:
    """Simulate games ``0 .. games - 1`` into ``out_dir`` (Parquet chunk files and ``manifest.json``).

    ``bots``: one setting, or one per player (FH,MH,RH of the first deal; four at a four-player
    table). ``resume``: complete the run already in ``out_dir`` (same variant text, bots, seed,
    games, record flag, skatsim version). ``chunk_size`` changes only how rows are split into
    files. ``backend`` (with ``backend_options``) chooses where chunks run (:data:`BACKENDS`).
    ``force``: start even when the disk looks too small. ``open_hand``: add each declared game's
    open-hand value (``open_hand_points``, ``open_hand_won``: :mod:`skatsim.engine.openhand`): ``"points"``
    (or True) the exact card points and won, ``"won"`` won alone (the points null; one search a game).
    ``out_dir`` may be an fsspec URL (``s3://bucket/run``). Expected problems
    raise :class:`SkatsimError` with a one-line message; a run stopped midway
    raises :class:`RunStopped`.
    """
    start = time.perf_counter()
    check_run_numbers(games, seed, jobs)
    plan = plan_run(
        variant_path,
        games,
        seed,
        out_dir,
        bots,
        resume,
        record_play,
        chunk_size,
        open_hand=open_hand,
        progress=progress,
    )
    executor = make_backend(backend, jobs, backend_options)
    [result] = execute_runs([plan], executor, progress, force)
    return replace(result, seconds=time.perf_counter() - start)
