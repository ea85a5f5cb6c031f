"""Chunks: the unit of work of a run, computed by a worker and written as one Parquet file.

A job the runner can run is a picklable chunk spec (plain values, a ``path``,
the ``count`` of games it holds, its run's ``run_id``) whose ``compute()`` is a
pure function of the spec returning the chunk's frame (:class:`ChunkJob`).
:func:`run_chunk`, a top-level function any process pool or cluster can call,
computes a spec's frame and writes it atomically (temporary file, then
rename) with the run id in the Parquet metadata, so a chunk file is either
complete or absent and always says which run it belongs to.
:class:`ChunkSpec` is the simulation's job: games ``first .. first + count - 1``
simulated ``BLOCK`` games at a time. Because every row depends only on (seed,
game index, variant, bots), the chunk plan never changes the rows. Other jobs
(duels, what-if rollouts) are further spec classes with their own ``compute``.
"""

from __future__ import annotations

import ctypes
import errno
import math
import mmap
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import IO, Any, Protocol, cast, runtime_checkable

import numpy as np
import polars as pl

from ..bots import PIMC, bot_arrays, parse_setting
from ..engine.block import simulate_block
from ..engine.layout import LOG_WIDTH, N_COLUMNS
from ..engine.openhand import open_hand_values
from ..engine.rules import LIST_LENGTH
from ..errors import SkatsimError, first_line
from ..frames import block_frame
from ..precompile import compile_simulation
from ..records.record import records_as_json
from ..variant import official_params
from . import storage
from .manifest import OPEN_HAND_MODES, RUN_ID_KEY, chunk_name, open_hand_mode

#: Default chunk size: about ``TARGET_CHUNKS`` chunks so progress moves and
#: workers stay busy, at least ``MIN_DEFAULT_CHUNK`` games so per-file costs
#: stay small, at most ``MAX_DEFAULT_CHUNK`` per chunk (a 13 MB frame: ~55 bytes a row).
TARGET_CHUNKS = 16
MIN_DEFAULT_CHUNK = 10_000
MAX_DEFAULT_CHUNK = 250_000
#: With ``--record-play`` each row carries ~0.6 kB of JSON, so chunks are smaller (~30 MB).
MAX_DEFAULT_RECORD_CHUNK = 50_000
#: Most games a chunk holds by default when its games search: a ``pimc`` seat (about 30 ms a game at 20
#: worlds), ``--open-hand`` (about 6 ms a declared game for the points, 1 ms for ``won`` alone). A few
#: seconds of work a chunk, so the progress bar moves and the jobs share the work: the plain sizes
#: (10,000 games and up) left a run of a few thousand such games on one chunk, its bar still to the end.
SEARCHING_CHUNK = {"pimc": 100, "points": 1_000, "won": 5_000}
#: Upper bound of ``--chunk-size``: a chunk's frame is held in memory before it
#: is written, so this bounds memory per worker (~55 MB, ~600 MB with records).
MAX_CHUNK = 1_000_000
#: Games per ``simulate_block`` call inside a chunk: a 21 MB int64 matrix (41 slots a game). Smaller
#: blocks run the kernel no faster and cost the frames more a game (docs/speed.md, stop 45).
BLOCK = 65_536
#: Parquet bytes per game, a little above what the shipped variants take (14 to 20 bytes
#: a game; ~90 to 115 with ``--record-play``), and per chunk file (footer and schema,
#: ~10 to 13 kB): what the runner reserves on disk before it starts.
BYTES_PER_GAME = 22
BYTES_PER_RECORDED_GAME = 130
BYTES_PER_CHUNK = 16_384
#: zstd level of chunk files: level 1 encodes a chunk in 7% less CPU time than polars' default (3)
#: and the files come out no larger (17.7 against 18.2 bytes a game, official rules;
#: ``benchmarks/bench_breakdown.py``); with ``--record-play`` 4% larger (116 against 112).
ZSTD_LEVEL = 1
#: Parquet statistics of chunk files: null counts, no min/max. Min/max cost 20% of the encoding
#: (0.046 CPU s a million games, 2.5% of a two-job run) and prune nothing in a chunk file but its
#: ``game_id`` range, which its name already gives (``manifest.parse_chunk_name``); a slice of a run
#: reads only the files that hold it (``analysis.sources.scan_games``).
STATISTICS = {"min": False, "max": False, "null_count": True}


class ChunkWriteError(SkatsimError):
    """A chunk file could not be written (the chunks written before are kept)."""


class DiskFullError(ChunkWriteError):
    """A chunk file could not be written because the disk (or quota) is full."""


def estimated_bytes(games: int, chunks: int, record_play: bool) -> int:
    """Disk space ``games`` games in ``chunks`` chunk files will about take."""
    per_game = BYTES_PER_RECORDED_GAME if record_play else BYTES_PER_GAME
    return games * per_game + chunks * BYTES_PER_CHUNK


def plan_chunks(games: int, chunk_size: int) -> list[tuple[int, int]]:
    """``(first, count)`` of each chunk: consecutive game ranges covering ``0 .. games - 1``.

    A list, for small plans and tests; the runner derives chunk ``i`` lazily instead
    (:meth:`skatsim.run.manifest.RunManifest.chunk`), the same ranges.
    """
    return [(first, min(chunk_size, games - first)) for first in range(0, games, chunk_size)]


def default_chunk_size(games: int, record_play: bool, searching: int | None = None) -> int:
    """Chunk size used when none is given (see ``TARGET_CHUNKS``); it never changes the rows.
    ``searching``: the most games a chunk holds when its games search (:func:`searching_chunk`)."""
    if searching is not None:
        return min(games, searching)
    cap = MAX_DEFAULT_RECORD_CHUNK if record_play else MAX_DEFAULT_CHUNK
    return min(games, cap, max(MIN_DEFAULT_CHUNK, math.ceil(games / TARGET_CHUNKS)))


def searching_chunk(bots: Iterable[str], open_hand: str) -> int | None:
    """The most games a chunk holds by default when its games search (:data:`SEARCHING_CHUNK`: a
    ``pimc`` seat, ``--open-hand``), the least of those that apply; None when none does."""
    caps = [SEARCHING_CHUNK[open_hand]] if open_hand else []
    if any(parse_setting(setting)[0].kind == PIMC for setting in bots):
        caps.append(SEARCHING_CHUNK["pimc"])
    return min(caps, default=None)


def whole_lists(size: int, list_length: int) -> int:
    """``size`` rounded up to whole lists: when a variant plays lists of ``list_length`` deals
    (Bock, Seeger-Fabian) a chunk or block must start at a list's first deal."""
    if list_length <= 0:
        return size
    return -(-size // list_length) * list_length


class ChunkJob(Protocol):
    """What :func:`run_chunk` needs of a spec: where its file goes, its run, its size, its frame."""

    @property
    def count(self) -> int:
        """How many games the chunk holds."""
        ...

    @property
    def run_id(self) -> str:
        """The id of the run the chunk belongs to."""
        ...

    @property
    def path(self) -> str:
        """Where the chunk's Parquet file goes."""
        ...

    def compute(self) -> pl.DataFrame:
        """The chunk's frame: a pure function of the spec."""
        ...


class ChunkFile:
    """Where a chunk spec's Parquet file goes, from its ``out_dir``, ``first`` and ``count`` (a base of
    the :class:`ChunkJob` specs)."""

    out_dir: str
    first: int
    count: int

    @property
    def path(self) -> str:
        """Where the chunk's Parquet file goes."""
        return storage.join(self.out_dir, chunk_name(self.first, self.count))


@dataclass(frozen=True)
class ChunkSpec(ChunkFile):
    """Everything a worker needs to simulate one chunk: plain, picklable values only.

    ``params`` is the compiled variant (:meth:`skatsim.variant.Variant.params`)
    so workers need not see the variant file; ``out_dir`` must be reachable
    from the worker (a local folder; for a cluster backend a shared folder or
    an fsspec URL); ``run_id`` goes into the file's metadata.
    """

    seed: int
    first: int
    count: int
    params: tuple[int, ...]
    variant_name: str
    bots: tuple[str, ...]
    record_play: bool
    out_dir: str
    run_id: str = ""
    #: Add each declared game's open-hand value (``simulate --open-hand``, :func:`open_hand_values`): what
    #: to solve, a name of :data:`~skatsim.run.manifest.OPEN_HAND_MODES` (``points``, ``won``); empty for none.
    open_hand: str = ""

    def compute(self) -> pl.DataFrame:
        """The chunk's games as a typed frame (block by block, so only one block's raw rows are held)."""
        blocks = _blocks(self.first, self.count, self._params())
        return pl.concat([self._frame(*self._simulate(start, n)) for start, n in blocks], rechunk=False)

    def stage(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]:
        """The compiled half of :meth:`compute`: every block's raw rows, action logs and open-hand values.

        :func:`run_in_turn` runs it for the next chunk while this chunk's frame is built and written.
        """
        return [self._simulate(start, n) for start, n in _blocks(self.first, self.count, self._params())]

    def finish(self, staged: list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]) -> pl.DataFrame:
        """The other half of :meth:`compute`: the typed frame of :meth:`stage`'s blocks."""
        return pl.concat([self._frame(*block) for block in staged], rechunk=False)

    def _params(self) -> np.ndarray:
        return np.array(self.params, dtype=np.int64)

    def _simulate(self, start: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        kinds, bot_params = bot_arrays(self.bots, self._params())
        rows = MATRICES.take(n, N_COLUMNS, np.int64)
        logs = MATRICES.take(n if self.record_play else 0, LOG_WIDTH, np.int16)
        simulate_block(np.uint64(self.seed), start, kinds, bot_params, self._params(), rows, logs)
        return rows, logs, open_hand_values(rows, OPEN_HAND_MODES[self.open_hand]) if self.open_hand else None

    def _frame(self, rows: np.ndarray, logs: np.ndarray, values: np.ndarray | None = None) -> pl.DataFrame:
        records = None
        if self.record_play:
            records = records_as_json(rows, logs)
        frame = block_frame(rows, self.bots, self.variant_name, self._params(), records, values)
        MATRICES.give(rows, logs)  # the frame holds copies: the next block may write over them
        return frame


class Matrices:
    """Row and action-log matrices kept for the next blocks of this process's run.

    A block's matrices are 21 MB of rows (24 MB more of action logs with ``--record-play``). Fresh
    ones each block cost the kernel a page fault and a page cleared by the OS for every 4 kB it
    first writes (``clear_page_erms``: about 4% of a two-job run's CPU in ``perf``); taken from here
    they are pages it wrote before. No zeroing is needed: the kernel begins every row and every
    action record before it writes the game into it. Thread-safe: a one-job run simulates the next
    chunk while its writer thread builds the frames of the last one (:func:`run_in_turn`), and jobs
    run as threads of one process (:mod:`skatsim.run.local_backend`). Released when the run's backend
    is left (:meth:`clear`), so a session that goes on holds none.
    """

    #: Matrices kept per shape: more than a run holds at once (a one-job run of chunks of four blocks five:
    #: the next chunk's four while the last one's are narrowed; a job in a thread one).
    KEEP = 8

    def __init__(self) -> None:
        self._free: dict[tuple[int, np.dtype], list[np.ndarray]] = {}
        self._lock = threading.Lock()
        self._generation = 0  # bumped by :meth:`clear`: a matrix prepared before it is not kept

    def take(self, n: int, width: int, dtype: type) -> np.ndarray:
        """An ``(n, width)`` matrix of ``dtype`` with arbitrary contents (``BLOCK`` rows kept, so any block fits)."""
        if n == 0 or n > BLOCK:
            return np.empty((n, width), dtype=dtype)
        with self._lock:
            free = self._free.get((width, np.dtype(dtype)))
            matrix = free.pop() if free else None
        if matrix is None:
            matrix = _new_matrix(width, dtype)
        return matrix[:n]

    def give(self, *matrices: np.ndarray) -> None:
        """Keep matrices :meth:`take` gave for the next blocks; their contents are no longer needed."""
        with self._lock:
            self._keep(matrices)

    def _keep(self, matrices: Iterable[np.ndarray]) -> None:
        for matrix in matrices:
            base = matrix.base if matrix.base is not None else matrix
            if not isinstance(base, np.ndarray) or base.shape[0] != BLOCK:
                continue
            free = self._free.setdefault((base.shape[1], base.dtype), [])
            if len(free) < self.KEEP:
                free.append(base)

    def prepare(self, count: int, width: int, dtype: type) -> threading.Thread:
        """Make ``count`` matrices of ``(BLOCK, width)`` on a thread of their own, every page written once,
        and keep each as it is ready, for a run's first blocks.

        A matrix's first writes cost page faults: about 50 ms for a 21 MB row matrix on this project's
        machine with numpy's huge pages, 7 to 10 ms with small ones (:func:`_new_matrix`), paid by the
        kernel in the first two chunks of a run (a one-job run of 10,000,000 games holds five). Made here,
        at the run's start, they cost the core the kernel does not use. ``fill`` releases the GIL."""
        with self._lock:
            generation = self._generation

        def make() -> None:
            for _ in range(count):
                matrix = _new_matrix(width, dtype)
                matrix.fill(0)
                with self._lock:
                    if self._generation != generation:
                        return
                    self._keep((matrix,))

        thread = threading.Thread(target=make, name="skatsim-matrices", daemon=True)
        thread.start()
        return thread

    def clear(self) -> None:
        """Let go of every kept matrix (a run is over), and of those :meth:`prepare` is still making."""
        with self._lock:
            self._free.clear()
            self._generation += 1


def _new_matrix(width: int, dtype: type) -> np.ndarray:
    """A new ``(BLOCK, width)`` matrix in small pages: numpy advises the OS to back large arrays with huge
    pages, and on Linux finding and clearing those cost a fresh 21 MB row matrix 25 to 90 ms of system time
    on this project's machine, against 7 to 10 ms in 4 kB pages (``madvise(MADV_NOHUGEPAGE)`` on its whole
    pages). The kernel writes a matrix row after row: huge pages save it nothing measurable (a two-job run
    of 4,000,000 games, alternated: user time 8.05-8.42 s with them, 7.98-8.10 s without; system time
    0.58-0.63 -> 0.38-0.44 s)."""
    matrix: np.ndarray = np.empty((BLOCK, width), dtype=dtype)
    if _MADVISE is not None:
        page = mmap.PAGESIZE
        start = -(-matrix.ctypes.data // page) * page
        end = (matrix.ctypes.data + matrix.nbytes) // page * page
        if end > start:
            _MADVISE(start, end - start, _MADV_NOHUGEPAGE)  # advice: a failure changes nothing but the speed
    return matrix


def _madvise() -> Callable[[int, int, int], int] | None:
    """libc's ``madvise`` on Linux, else None (no huge-page advice to undo)."""
    if sys.platform != "linux":
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return None
    fn.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    fn.restype = ctypes.c_int
    return cast(Callable[[int, int, int], int], fn)


_MADVISE = _madvise()
#: Linux's ``MADV_NOHUGEPAGE`` (``<sys/mman.h>``).
_MADV_NOHUGEPAGE = 15

#: This process's kept matrices (:class:`Matrices`).
MATRICES = Matrices()


def _blocks(first: int, count: int, params: np.ndarray) -> list[tuple[int, int]]:
    """``(start, n)`` of the blocks of games ``first .. first + count - 1``: ``BLOCK`` games each
    (whole lists when the variant plays lists), so the raw int64 matrix stays small whatever ``count`` is."""
    length = int(params[LIST_LENGTH])
    block = max(BLOCK // length * length, length) if length else BLOCK
    return [(start, min(block, first + count - start)) for start in range(first, first + count, block)]


def simulate_frame(
    seed: int,
    first: int,
    count: int,
    params: np.ndarray,
    bots: tuple[str, ...],
    variant_name: str,
    record_play: bool = False,
    open_hand: bool | str = False,
) -> pl.DataFrame:
    """Typed frame of games ``first .. first + count - 1`` (:meth:`ChunkSpec.compute` without a file);
    ``open_hand`` as :func:`skatsim.run.runner.run_simulation`'s."""
    values = tuple(int(v) for v in params)
    spec = ChunkSpec(seed, first, count, values, variant_name, bots, record_play, "", open_hand_mode(open_hand))
    try:
        return spec.compute()
    finally:
        MATRICES.clear()


def write_parquet_atomic(
    frame: pl.DataFrame, path: str, run_id: str = "", metadata: dict[str, str] | None = None
) -> None:
    """Write ``frame`` to ``path`` so that ``path`` is either absent or complete, even after kill -9.

    The data goes to a temporary file in the same folder, is flushed to disk,
    then renamed over ``path`` (:func:`skatsim.run.storage.write_atomic`);
    ``run_id`` (when given) and ``metadata`` go into the file's Parquet metadata.
    """
    metadata = ({RUN_ID_KEY: run_id} if run_id else {}) | (metadata or {}) or None
    def write(f: IO[bytes]) -> None:
        frame.write_parquet(f, compression_level=ZSTD_LEVEL, statistics=STATISTICS, metadata=metadata)

    try:
        storage.write_atomic(path, write)
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise DiskFullError(f"{path}: cannot write chunk file: the disk is full ({exc.strerror})") from None
        raise ChunkWriteError(f"{path}: cannot write chunk file ({exc.strerror or exc})") from None
    except pl.exceptions.PolarsError as exc:  # polars wraps the writer's IO errors in its own
        reason = first_line(exc)
        if any(f"os error {code})" in reason for code in (errno.ENOSPC, errno.EDQUOT)):
            raise DiskFullError(f"{path}: cannot write chunk file: the disk is full ({reason})") from None
        raise ChunkWriteError(f"{path}: cannot write chunk file ({reason})") from None


def run_chunk(spec: ChunkJob) -> str:
    """Compute one chunk and write its Parquet file atomically, with its run id; returns the file's path.

    A pure function of ``spec`` (top level, so process pools can pickle it):
    running it twice writes the same rows.
    """
    write_parquet_atomic(spec.compute(), spec.path, spec.run_id)
    return spec.path


def leave_interrupts_to_the_run() -> None:
    """Ignore SIGINT in this worker process: Ctrl-C in a terminal reaches the whole process group, and
    only the run decides what it does (it stops the workers and keeps the chunks written).

    This module imports polars first on purpose: importing polars installs its own SIGINT handler at
    the system level, over an ignored SIGINT too, and that handler aborts whatever query is running
    with ``KeyboardInterrupt``: a worker that ignored SIGINT before polars was imported still died
    mid-chunk with a traceback. Ignoring it afterwards replaces polars' handler."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@runtime_checkable
class StagedJob(ChunkJob, Protocol):
    """A chunk job whose :meth:`compute` is ``finish(stage())``, the stage being compiled code that
    releases the GIL, so one process can run the next chunk's stage beside this chunk's finish."""

    def stage(self) -> object:
        """The compiled part of the chunk's work."""
        ...

    def finish(self, staged: Any) -> pl.DataFrame:
        """The chunk's frame from what :meth:`stage` returned."""
        ...


def run_in_turn(specs: Iterable[ChunkJob]) -> Iterator[str]:
    """Run chunks one at a time in this process, yielding each written file's path: one job.

    One kernel runs at a time, but not alone: while the next chunk's compiled stage runs here
    (:class:`StagedJob`; it releases the GIL), a second thread builds the last chunk's frame and
    writes its file, so a one-job run is about as fast as its kernel. A chunk's path is yielded
    only once its file is complete; an error or an early stop waits for the write under way.
    """
    with ThreadPoolExecutor(1, thread_name_prefix="skatsim-writer") as writer:
        previous: Future[str] | None = None
        for spec in specs:
            staged = spec.stage() if isinstance(spec, StagedJob) else None
            if previous is not None:
                yield previous.result()
            previous = writer.submit(_finish_chunk, spec, staged)
        if previous is not None:
            yield previous.result()


def _finish_chunk(spec: ChunkJob, staged: object) -> str:
    frame = spec.finish(staged) if isinstance(spec, StagedJob) else spec.compute()
    write_parquet_atomic(frame, spec.path, spec.run_id)
    return spec.path


def warm_up_search(bots: Iterable[str], open_hand: str) -> None:
    """Compile (or load from numba's disk cache) what a run calls beyond :func:`warm_up`: the block of
    games with a searching seat (``pimc``: the block compiled again around the solver in its deal state)
    and the open-hand values (``open_hand``). Called on no games, so it plays none. In the parent before
    workers take chunks, so they load the cache instead of each compiling for most of a minute, and under
    the run's "starting" spinner, so a first use says that it compiles."""
    if any(parse_setting(setting)[0].kind == PIMC for setting in bots):
        params = official_params()
        kinds, bot_params = bot_arrays(("pimc",) * 3, params)
        no_games = np.zeros((0, N_COLUMNS), dtype=np.int64)
        simulate_block(np.uint64(0), 0, kinds, bot_params, params, no_games, np.zeros((0, LOG_WIDTH), np.int16))
    if open_hand:
        open_hand_values(np.zeros((0, N_COLUMNS), dtype=np.int64))


def warm_up() -> None:
    """Compile (or load from numba's disk cache) the simulation kernel in this process.

    Done once in the parent before workers start, so they load the cached
    machine code instead of each compiling it at the same time. What ``pip install`` compiled
    ahead (:mod:`skatsim.precompile`) is loaded.
    """
    compile_simulation()
