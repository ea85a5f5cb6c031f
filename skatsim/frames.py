"""Typed frames: the engine's ``int64`` result rows as polars frames, typed by the one schema.

The kernels (:mod:`skatsim.engine.block`) write plain integers so they stay compiled and
allocation-free; this module gives them the types of :data:`skatsim.schema.COLUMNS` in one
compiled pass that narrows each column to its type (:mod:`skatsim.engine.columns`), then enums for
game types, card names for the discard, and nulls where a value does not exist, each by its
column's null rule (:data:`skatsim.schema.NULL_RULES`). Simulated
runs (:mod:`skatsim.run.chunks`), replayed records (:mod:`skatsim.records.record`) and ISS
imports all type their rows here, so a column means the same in every table.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import polars as pl

from .engine.cards import iss_name
from .engine.columns import KIND_DTYPES, KINDS, discard_pairs, narrow
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
    "Categorical": pl.Categorical(),
}
#: Enum of every value ``game_type`` can take.
GAME_TYPE = pl.Enum(list(ENUMS["GameType"]))
SEAT_SUFFIXES = ("fh", "mh", "rh")

#: The least engine code of a game type (``ABORTED``), and each code's label from it up, as the enum.
_LEAST_CODE = min(GAME_TYPE_LABELS)
_GAME_TYPES = pl.Series([GAME_TYPE_LABELS[c] for c in range(_LEAST_CODE, max(GAME_TYPE_LABELS) + 1)], dtype=GAME_TYPE)
#: ISS names of every two-card discard at ``low_card * 32 + high_card``, null elsewhere (0: no discard).
_DISCARD_SERIES = pl.Series(
    [f"{iss_name(k // 32)}.{iss_name(k % 32)}" if k // 32 < k % 32 else None for k in range(32 * 32)],
    dtype=pl.Enum(list(ENUMS["Discard"])),
)
#: The type of the labels a run adds (variant, bots): one of a few values per run, so polars writes them
#: from their codes instead of hashing every game's string.
_LABEL = pl.Categorical()


def dtype(column: Column) -> pl.DataType:
    """The polars type of a schema column."""
    if column.dtype in ENUMS:
        return pl.Enum(list(ENUMS[column.dtype]))
    return _PLAIN[column.dtype]


def result_schema() -> dict[str, pl.DataType]:
    """Names and types of the result columns every table of games has."""
    return {name: dtype(BY_NAME[name]) for name in RESULT_COLUMNS}


def _null_condition(rule: str | None, col: pl.Expr) -> pl.Expr | None:
    """When the value exists, per the column's null rule (on the narrowed columns: the engine's own values)."""
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


def _typed(column: Column) -> pl.Expr:
    """A narrowed column (:func:`_narrowed`) in its type, null where its null rule says the value does not exist."""
    col = pl.col(column.name)
    expr = col
    if column.name == "game_type":
        expr = pl.lit(_GAME_TYPES).gather(col.cast(pl.Int16) - _LEAST_CODE)
    condition = _null_condition(column.null, col)
    if condition is not None:
        expr = pl.when(condition).then(expr)
    return expr.cast(dtype(column)).alias(column.name)


def _discards(rows: np.ndarray, name: str) -> pl.Series:
    """The discard column: the two cards' ISS names, null for none."""
    pairs = discard_pairs(rows[:, COL_SKAT_DISCARD])
    return _DISCARD_SERIES.gather(np.where(pairs < 0, 0, pairs)).alias(name)


def _player_bot(bots: tuple[str, ...], player: pl.Expr) -> pl.Expr:
    """The bot of the player numbered ``player`` (``--bots`` order)."""
    return player.replace_strict(dict(enumerate(bots)), return_dtype=_LABEL)


def _bot_exprs(bots: tuple[str, ...], lists: bool) -> list[pl.Expr]:
    """``bot_fh/mh/rh``: the bot at each seat; in lists the players' bots move round the table
    (at a table of ``n`` players seat ``s`` is player ``(dealer + 1 + s) % n``)."""
    exprs = []
    n = len(bots)
    for s, suffix in enumerate(SEAT_SUFFIXES):
        if lists:
            expr = _player_bot(bots, (pl.col("dealer") + 1 + s) % n)
        else:
            expr = pl.lit(bots[s], _LABEL)
        exprs.append(expr.alias(f"bot_{suffix}"))
    return exprs


def _run_column(name: str, bots: tuple[str, ...], variant_name: str, lists: bool) -> list[pl.Expr]:
    if name == "variant":
        return [pl.lit(variant_name, _LABEL).alias("variant")]
    if name == "bot_fh":
        return _bot_exprs(bots, lists)
    if name == "bot_out":  # a four-player table: the dealer sits out
        return [_player_bot(bots, pl.col("dealer") % len(bots)).alias("bot_out")]
    return []  # bot_mh and bot_rh come with bot_fh; the record column is added after


def _narrowed(rows: np.ndarray, columns: list[Column]) -> pl.DataFrame:
    """The engine columns ``columns`` of the ``(n, N_COLUMNS)`` row matrix, each narrowed to its type by one
    compiled pass (:func:`skatsim.engine.columns.narrow_columns`; the game type as its engine code) and
    handed to polars without a copy."""
    by_kind: list[list[Column]] = [[] for _ in KIND_DTYPES]
    for c in columns:
        by_kind[KINDS[c.dtype]].append(c)
    sources = tuple(np.array([ROW_COLUMNS.index(c.name) for c in cs], dtype=np.int64) for cs in by_kind)
    outs = narrow(rows, sources)
    if outs is None:
        misfit = _misfit(rows, columns)
        raise ValueError(f"{misfit.name}: a value does not fit the column's type ({misfit.dtype})")
    arrays = {c.name: out[j] for cs, out in zip(by_kind, outs, strict=True) for j, c in enumerate(cs)}
    return pl.DataFrame({c.name: arrays[c.name] for c in columns})


def _misfit(rows: np.ndarray, columns: list[Column]) -> Column:
    """The first integer column holding a value its type cannot (once :func:`narrow` found one)."""
    for c in columns:
        raw = rows[:, ROW_COLUMNS.index(c.name)]
        if c.dtype != "Boolean" and np.any(raw.astype(KIND_DTYPES[KINDS[c.dtype]]) != raw):
            return c
    raise AssertionError("narrow: a value out of its type's range in none of the columns")


def _typed_frame(
    rows: np.ndarray, columns: list[Column], run: Callable[[str], list[pl.Expr]] | None = None
) -> pl.DataFrame:
    """The typed ``columns`` (in that order) of the row matrix; ``run`` gives the expressions that
    stand at a run column's place (source ``run``)."""
    exprs: list[pl.Expr | pl.Series] = []
    for c in columns:
        if c.source == RUN:
            exprs += run(c.name) if run is not None else []
        elif c.source == CARDS:
            exprs.append(_discards(rows, c.name))
        else:
            exprs.append(_typed(c))
    return _narrowed(rows, [c for c in columns if c.source == ENGINE]).select(*exprs)


def result_frame(rows: np.ndarray, params: np.ndarray) -> pl.DataFrame:
    """The result columns and the house-rule columns of ``params`` of engine rows, typed."""
    wanted = set(RESULT_COLUMNS) | set(rule_column_names(params))
    return _typed_frame(rows, [c for c in COLUMNS if c.name in wanted and c.source != RUN])


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
    columns = [c for c in COLUMNS if c.rule is None or c.name in rules]
    frame = _typed_frame(rows, columns, lambda name: _run_column(name, bots, variant_name, lists))
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
