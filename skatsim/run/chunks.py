"""Chunks: the unit of work of a run, computed by a worker and written as one Parquet file.

:func:`run_chunk` is a pure top-level function of a picklable :class:`ChunkSpec`
(so any process pool or cluster can run it): it simulates games ``first ..
first + count - 1`` ``BLOCK`` games at a time and writes their typed frame
atomically (temporary file, then rename), so a chunk file is either complete
or absent. Because every row depends only on (seed, game index, variant,
bots), the chunk plan never changes the rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from ..bots import bot_arrays
from ..engine.block import simulate_block
from ..engine.layout import LOG_WIDTH, N_COLUMNS
from ..engine.rules import LIST_LENGTH
from ..errors import SkatsimError
from ..frames import block_frame
from ..records.record import record_from_log
from ..variant import official_params
from . import storage

#: Default chunk size: about ``TARGET_CHUNKS`` chunks so progress moves and
#: workers stay busy, at least ``MIN_DEFAULT_CHUNK`` games so per-file costs
#: stay small, at most ``MAX_DEFAULT_CHUNK`` per chunk (a 13 MB frame: ~55 bytes a row).
TARGET_CHUNKS = 16
MIN_DEFAULT_CHUNK = 10_000
MAX_DEFAULT_CHUNK = 250_000
#: With ``--record-play`` each row carries ~0.6 kB of JSON, so chunks are smaller (~30 MB).
MAX_DEFAULT_RECORD_CHUNK = 50_000
#: Upper bound of ``--chunk-size``: a chunk's frame is held in memory before it
#: is written, so this bounds memory per worker (~55 MB, ~600 MB with records).
MAX_CHUNK = 1_000_000
#: Games per ``simulate_block`` call inside a chunk: a 13 MB int64 matrix.
BLOCK = 65_536


def chunk_name(first: int, count: int) -> str:
    """File name of the chunk holding games ``first .. first + count - 1`` (sorts by ``first``)."""
    return f"chunk-{first:012d}-{count}.parquet"


def plan_chunks(games: int, chunk_size: int) -> list[tuple[int, int]]:
    """``(first, count)`` of each chunk: consecutive game ranges covering ``0 .. games - 1``."""
    return [(first, min(chunk_size, games - first)) for first in range(0, games, chunk_size)]


def default_chunk_size(games: int, record_play: bool) -> int:
    """Chunk size used when none is given (see ``TARGET_CHUNKS``); it never changes the rows."""
    cap = MAX_DEFAULT_RECORD_CHUNK if record_play else MAX_DEFAULT_CHUNK
    return min(games, cap, max(MIN_DEFAULT_CHUNK, math.ceil(games / TARGET_CHUNKS)))


def whole_lists(size: int, list_length: int) -> int:
    """``size`` rounded up to whole lists: when a variant plays lists of ``list_length`` deals
    (Bock, Seeger-Fabian) a chunk or block must start at a list's first deal."""
    if list_length <= 0:
        return size
    return -(-size // list_length) * list_length


@dataclass(frozen=True)
class ChunkSpec:
    """Everything a worker needs to compute one chunk: plain, picklable values only.

    ``params`` is the compiled variant (:meth:`skatsim.variant.Variant.params`)
    so workers need not see the variant file; ``out_dir`` must be reachable
    from the worker (a local folder; for a cluster backend a shared folder or
    an fsspec URL).
    """

    seed: int
    first: int
    count: int
    params: tuple[int, ...]
    variant_name: str
    bots: tuple[str, ...]
    record_play: bool
    out_dir: str

    @property
    def path(self) -> str:
        """Where the chunk's Parquet file goes."""
        return storage.join(self.out_dir, chunk_name(self.first, self.count))


def simulate_frame(
    seed: int,
    first: int,
    count: int,
    params: np.ndarray,
    bots: tuple[str, ...],
    variant_name: str,
    record_play: bool = False,
) -> pl.DataFrame:
    """Typed frame of games ``first .. first + count - 1``, simulated ``BLOCK`` games at a time.

    Blocks keep the raw int64 matrix (and the action logs) small whatever
    ``count`` is; only the typed frame, far more compact, grows with it.
    """
    kinds, bot_params = bot_arrays(bots)
    length = int(params[LIST_LENGTH])
    block = max(BLOCK // length * length, length) if length else BLOCK
    frames = []
    for start in range(first, first + count, block):
        n = min(block, first + count - start)
        rows = np.zeros((n, N_COLUMNS), dtype=np.int64)
        logs = np.zeros((n if record_play else 0, LOG_WIDTH), dtype=np.int16)
        simulate_block(np.uint64(seed), start, kinds, bot_params, params, rows, logs)
        records = [record_from_log(r, g).to_json() for r, g in zip(rows, logs, strict=True)] if record_play else None
        frames.append(block_frame(rows, bots, variant_name, params, records))
    return pl.concat(frames, rechunk=False)


def write_parquet_atomic(frame: pl.DataFrame, path: str) -> None:
    """Write ``frame`` to ``path`` so that ``path`` is either absent or complete, even after kill -9.

    The data goes to a temporary file in the same folder, is flushed to disk,
    then renamed over ``path`` (:func:`skatsim.run.storage.write_atomic`).
    """
    try:
        storage.write_atomic(path, frame.write_parquet)
    except OSError as exc:
        raise SkatsimError(f"{path}: cannot write chunk file ({exc.strerror or exc})") from None


def run_chunk(spec: ChunkSpec) -> str:
    """Simulate one chunk and write its Parquet file atomically; returns the file's path.

    A pure function of ``spec`` (top level, so process pools can pickle it):
    running it twice writes the same rows.
    """
    params = np.array(spec.params, dtype=np.int64)
    frame = simulate_frame(spec.seed, spec.first, spec.count, params, spec.bots, spec.variant_name, spec.record_play)
    write_parquet_atomic(frame, spec.path)
    return spec.path


def warm_up() -> None:
    """Compile (or load from numba's disk cache) the simulation kernel in this process.

    Done once in the parent before workers start, so they load the cached
    machine code instead of each compiling it at the same time.
    """
    simulate_frame(0, 0, 1, official_params(), ("random",) * 3, "warm-up", record_play=True)
