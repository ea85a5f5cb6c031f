"""Typed frames: the engine's ``int64`` result rows as polars frames, typed by the one schema.

The kernels (:mod:`skatsim.engine.block`) write plain integers so they stay compiled and
allocation-free; this module gives them the types of :data:`skatsim.schema.COLUMNS` in one
vectorised pass: enums for game types, card names for the discard, and nulls where a value
does not exist, each by its column's null rule (:data:`skatsim.schema.NULL_RULES`). Simulated
runs (:mod:`skatsim.run.chunks`), replayed records (:mod:`skatsim.records.record`) and ISS
imports all type their rows here, so a column means the same in every table.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from .engine.cards import iss_name
from .engine.gametypes import GAME_TYPE_LABELS, RAMSCH
from .engine.layout import COL_SKAT_DISCARD, ROW_COLUMNS
from .engine.rules import TABLE_PLAYERS
from .schema import (
    BY_NAME,
    CARDS,
    COLUMNS,
    ENGINE,
    ENUMS,
    OPEN_HAND_COLUMNS,
    RESULT_COLUMNS,
    RUN,
    Column,
    rule_column_names,
)

_PLAIN: dict[str, pl.DataType] = {
    "Int8": pl.Int8(),
    "Int16": pl.Int16(),
    "Int32": pl.Int32(),
    "Int64": pl.Int64(),
    "Boolean": pl.Boolean(),
    "String": pl.String(),
}
#: Enum of every value ``game_type`` can take.
GAME_TYPE = pl.Enum(list(ENUMS["GameType"]))
SEAT_SUFFIXES = ("fh", "mh", "rh")

#: ISS names of every two-card discard, keyed by ``low_card * 32 + high_card``.
_DISCARD_NAMES = {lo * 32 + hi: f"{iss_name(lo)}.{iss_name(hi)}" for lo in range(32) for hi in range(lo + 1, 32)}


def dtype(column: Column) -> pl.DataType:
    """The polars type of a schema column."""
    if column.dtype in ENUMS:
        return pl.Enum(list(ENUMS[column.dtype]))
    return _PLAIN[column.dtype]


def result_schema() -> dict[str, pl.DataType]:
    """Names and types of the result columns every table of games has."""
    return {name: dtype(BY_NAME[name]) for name in RESULT_COLUMNS}


def _null_condition(rule: str | None, col: pl.Expr) -> pl.Expr | None:
    """When the value exists, per the column's null rule (on the raw integer columns)."""
    game_type = pl.col("game_type")
    if rule == "negative":
        return col >= 0
    if rule == "undeclared":
        return (pl.col("declarer") >= 0) & (game_type >= 0)
    if rule == "ramsch":
        return game_type != RAMSCH
    if rule == "not_ramsch":
        return game_type == RAMSCH
    if rule == "not_ramsch_or_negative":
        return (game_type == RAMSCH) & (col >= 0)
    return None


def _lowest_card(masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index of the lowest set bit of each (nonzero) mask, and that bit; exact via log2 of a power of two."""
    bit = masks & (~masks + np.uint64(1))
    safe = np.where(bit == 0, np.uint64(1), bit)
    return np.log2(safe.astype(np.float64)).astype(np.int64), bit


def discard_pairs(masks: np.ndarray) -> np.ndarray:
    """``low * 32 + high`` of each two-card discard mask, -1 for an empty mask.

    Raises ``ValueError`` for a mask of another size: the kernel only writes
    0 (hand game, passed deal) or exactly two cards.
    """
    m = masks.astype(np.uint64)
    low, low_bit = _lowest_card(m)
    rest = m ^ low_bit
    high, high_bit = _lowest_card(rest)
    empty = m == 0
    if np.any(~empty & ((high_bit == 0) | (rest != high_bit))):
        raise ValueError("skat_discard: a discard mask holds a number of cards other than 0 or 2")
    return np.where(empty, -1, low * 32 + high)


def _typed(column: Column, rows: np.ndarray) -> pl.Expr | pl.Series:
    """A row column cast to its type, null where its null rule says the value does not exist."""
    if column.source == CARDS:
        pairs = pl.Series(column.name, discard_pairs(rows[:, COL_SKAT_DISCARD]))
        return pairs.replace_strict(_DISCARD_NAMES, default=None, return_dtype=pl.String)
    col = pl.col(column.name)
    if column.name == "game_type":
        expr = col.replace_strict(GAME_TYPE_LABELS, return_dtype=GAME_TYPE)
    else:
        expr = col
    condition = _null_condition(column.null, col)
    if condition is not None:
        expr = pl.when(condition).then(expr)
    return expr.cast(dtype(column)).alias(column.name)


def _player_bot(bots: tuple[str, ...], player: pl.Expr) -> pl.Expr:
    """The bot of the player numbered ``player`` (``--bots`` order)."""
    return player.replace_strict(dict(enumerate(bots)), return_dtype=pl.String)


def _bot_exprs(bots: tuple[str, ...], lists: bool) -> list[pl.Expr]:
    """``bot_fh/mh/rh``: the bot at each seat; in lists the players' bots move round the table
    (at a table of ``n`` players seat ``s`` is player ``(dealer + 1 + s) % n``)."""
    exprs = []
    n = len(bots)
    for s, suffix in enumerate(SEAT_SUFFIXES):
        if lists:
            expr = _player_bot(bots, (pl.col("dealer") + 1 + s) % n)
        else:
            expr = pl.lit(bots[s], pl.String)
        exprs.append(expr.alias(f"bot_{suffix}"))
    return exprs


def _run_column(name: str, bots: tuple[str, ...], variant_name: str, lists: bool) -> list[pl.Expr]:
    if name == "variant":
        return [pl.lit(variant_name, pl.String).alias("variant")]
    if name == "bot_fh":
        return _bot_exprs(bots, lists)
    if name == "bot_out":  # a four-player table: the dealer sits out
        return [_player_bot(bots, pl.col("dealer") % len(bots)).alias("bot_out")]
    return []  # bot_mh and bot_rh come with bot_fh; the record column is added after


#: Rows transposed at a time by :func:`_columns`: a block of 1,024 rows (about 330 kB) stays in the
#: core's cache while it is copied, where one transposing copy of a whole block of games (86 MB)
#: loads each of its cache lines from memory again for every column (0.10 instead of 0.16 to 0.26
#: CPU-seconds a million games, the "columns" stage of ``benchmarks/bench_breakdown.py``).
TRANSPOSE_ROWS = 1024


def _columns(rows: np.ndarray) -> np.ndarray:
    """The ``(n, N_COLUMNS)`` row matrix as ``(N_COLUMNS, n)``: every column contiguous."""
    columns = np.empty((rows.shape[1], rows.shape[0]), dtype=rows.dtype)
    for first in range(0, rows.shape[0], TRANSPOSE_ROWS):
        columns[:, first : first + TRANSPOSE_ROWS] = rows[first : first + TRANSPOSE_ROWS].T
    return columns


def _raw(rows: np.ndarray) -> pl.DataFrame:
    columns = _columns(rows)
    return pl.DataFrame({name: columns[i] for i, name in enumerate(ROW_COLUMNS)})


def result_frame(rows: np.ndarray, params: np.ndarray) -> pl.DataFrame:
    """The result columns and the house-rule columns of ``params`` of engine rows, typed."""
    wanted = set(RESULT_COLUMNS) | set(rule_column_names(params))
    return _raw(rows).select(*(_typed(c, rows) for c in COLUMNS if c.name in wanted and c.source != RUN))


def open_hand_frame(values: np.ndarray) -> pl.DataFrame:
    """The open-hand columns (:data:`skatsim.schema.OPEN_HAND_COLUMNS`) from the ``(n, 2)`` values of
    :func:`skatsim.engine.openhand.open_hand_rows` (points, won; -1 where the value does not exist)."""
    points, won = OPEN_HAND_COLUMNS
    raw = pl.DataFrame({"p": values[:, 0], "w": values[:, 1]}, schema={"p": pl.Int64, "w": pl.Int64})
    return raw.select(
        pl.when(pl.col("p") >= 0).then(pl.col("p")).cast(dtype(points)).alias(points.name),
        pl.when(pl.col("w") >= 0).then(pl.col("w") == 1).cast(dtype(won)).alias(won.name),
    )


def block_frame(
    rows: np.ndarray,
    bots: tuple[str, ...],
    variant_name: str,
    params: np.ndarray,
    records: list[str] | None = None,
    open_hand: np.ndarray | None = None,
) -> pl.DataFrame:
    """The typed frame of a block of simulated games (columns and types: ``docs/schema.md``).

    ``rows`` is the ``(n, N_COLUMNS)`` matrix filled by :func:`skatsim.engine.block.simulate_block`
    under the compiled variant ``params`` (it chooses the house-rule columns); ``bots`` the
    settings seated at FH, MH, RH (in lists: players 0, 1, 2, and 3 at a four-player table);
    ``records`` each game's record as JSON (adds the ``record`` column) or ``None``; ``open_hand`` the
    games' open-hand values (adds ``open_hand_points`` and ``open_hand_won``, :func:`open_hand_frame`) or
    ``None``.
    """
    rules = set(rule_column_names(params))
    lists = "list_id" in rules
    exprs: list[pl.Expr | pl.Series] = []
    for column in COLUMNS:
        if column.rule is not None and column.name not in rules:
            continue
        if column.source == RUN:
            exprs += _run_column(column.name, bots, variant_name, lists)
        elif column.source in (ENGINE, CARDS):
            exprs.append(_typed(column, rows))
    frame = _raw(rows).select(*exprs)
    if records is not None:
        frame = frame.with_columns(pl.Series("record", records, pl.String))
    if open_hand is not None:
        frame = pl.concat([frame, open_hand_frame(open_hand)], how="horizontal")
    return frame


def frame_schema(record: bool, params: np.ndarray, open_hand: bool = False) -> dict[str, pl.DataType]:
    """Column names and types of :func:`block_frame` output (used to check chunk files)."""
    empty = np.zeros((0, len(ROW_COLUMNS)), dtype=np.int64)
    values = np.zeros((0, 2), dtype=np.int64) if open_hand else None
    frame = block_frame(empty, ("x",) * int(params[TABLE_PLAYERS]), "x", params, [] if record else None, values)
    return dict(frame.schema)
