"""The result rows as column arrays of their schema types, in one compiled pass.

The kernels write each game as a row of ``int64`` slots (:mod:`skatsim.engine.layout`); a table
holds columns of ``Int8``, ``Int16``, ``Boolean``, ... (``columns.toml``). :func:`narrow_columns`
copies the wanted slots of a block of rows into one contiguous array per column of its type,
a tile of rows at a time so each tile is read from the core's cache, and checks that every value
fits its type; :func:`discard_pairs` names the two discarded cards of each row. The polars side
(:mod:`skatsim.frames`) then only adds enums and nulls.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel, lowest_bit, popcount

#: Output kinds of :func:`narrow_columns`, by the schema's dtype name (``columns.toml``); the game type's
#: engine codes are small integers, narrowed as ``Int8``.
KINDS = {"Int8": 0, "Int16": 1, "Int32": 2, "Int64": 3, "Boolean": 4, "GameType": 0}
#: The numpy type of each kind.
KIND_DTYPES = (np.int8, np.int16, np.int32, np.int64, np.bool_)
#: Rows narrowed at a time: 512 rows of 41 slots (168 kB) stay in the core's cache while every
#: column is copied out of them.
TILE = 512


@kernel
def _copy(rows: np.ndarray, lo: int, hi: int, sources: np.ndarray, out: np.ndarray) -> bool:
    """Rows ``lo .. hi - 1`` of slot ``sources[j]`` into ``out[j]`` (one compiled copy per output type);
    whether every value fits the type."""
    fits = True
    for j in range(sources.shape[0]):
        c = sources[j]
        for i in range(lo, hi):
            v = rows[i, c]
            out[j, i] = v
            fits &= out[j, i] == v
    return fits


@kernel
def _truths(rows: np.ndarray, lo: int, hi: int, sources: np.ndarray, out: np.ndarray) -> None:
    """Rows ``lo .. hi - 1`` of slot ``sources[j]`` into ``out[j]``: true for a nonzero slot."""
    for j in range(sources.shape[0]):
        c = sources[j]
        for i in range(lo, hi):
            out[j, i] = rows[i, c] != 0


@kernel
def narrow_columns(rows: np.ndarray, sources: tuple, outs: tuple) -> bool:
    """Each kind's slots (``sources``: five index arrays, :data:`KIND_DTYPES`' order) of every row into
    that kind's output (``outs``: five arrays, ``(len(sources[k]), len(rows))``, of those types), a
    tile of rows at a time; a boolean is true for a nonzero slot. Whether every integer fits its type."""
    fits = True
    for lo in range(0, rows.shape[0], TILE):
        hi = min(lo + TILE, rows.shape[0])
        fits &= _copy(rows, lo, hi, sources[0], outs[0])
        fits &= _copy(rows, lo, hi, sources[1], outs[1])
        fits &= _copy(rows, lo, hi, sources[2], outs[2])
        fits &= _copy(rows, lo, hi, sources[3], outs[3])
        _truths(rows, lo, hi, sources[4], outs[4])
    return fits


def narrow(rows: np.ndarray, sources: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...] | None:
    """The slots ``sources[k]`` (five ``int64`` index arrays, :data:`KIND_DTYPES`' order) of every row as
    one array per kind, ``(len(sources[k]), len(rows))`` of its type (:func:`narrow_columns`); ``None``
    when a value does not fit its type."""
    outs = tuple(np.empty((len(s), rows.shape[0]), dtype=t) for s, t in zip(sources, KIND_DTYPES, strict=True))
    return outs if narrow_columns(np.ascontiguousarray(rows, dtype=np.int64), sources, outs) else None


@kernel
def _pairs(masks: np.ndarray, out: np.ndarray) -> int:
    """``low * 32 + high`` of each two-card mask into ``out``, -1 for an empty one; the first row
    holding another number of cards, or -1."""
    for i in range(masks.shape[0]):
        v = masks[i]
        if v == 0:
            out[i] = -1
            continue
        if v < 0 or v > 0xFFFFFFFF or popcount(np.uint32(v)) != 2:
            return i
        m = np.uint32(v)
        out[i] = lowest_bit(m) * 32 + lowest_bit(m & (m - np.uint32(1)))
    return -1


def discard_pairs(masks: np.ndarray) -> np.ndarray:
    """``low * 32 + high`` of each two-card discard mask, -1 for an empty mask.

    Raises ``ValueError`` for a mask of another size: the kernel only writes
    0 (hand game, passed deal) or exactly two cards.
    """
    out = np.empty(masks.shape[0], dtype=np.int16)
    if _pairs(np.ascontiguousarray(masks, dtype=np.int64), out) >= 0:
        raise ValueError("skat_discard: a discard mask holds a number of cards other than 0 or 2")
    return out
