"""Typed result tables: the simulator's ``int64`` row matrices turned into polars frames.

The kernel (:mod:`skatsim.engine.block`) writes plain integers so it can stay
compiled and allocation-free; this module gives them their documented types
(``docs/schema.md``) in one vectorised pass: enums for game types, nulls
where a value does not exist (no declarer, a passed deal), card names for the
discard. Only the optional ``record`` column is built row by row, because it
is JSON text made by :meth:`skatsim.records.record.GameRecord.to_json`. A variant's
house rules add their columns (:func:`skatsim.schema.rule_column_names`).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from ..engine.cards import iss_name
from ..engine.gametypes import GAME_TYPE_LABELS, RAMSCH
from ..engine.layout import COL_SKAT_DISCARD, COLUMNS, record_from_log
from ..engine.rules import official_params
from ..schema import EVALUATION_COLUMNS, GAME_TYPE, RULE_COLUMNS, rule_column_names

#: Evaluation columns that do not exist without a declarer (a passed deal, a Ramsch: null there).
PLAYED_ONLY = (
    "hand",
    "ouvert",
    "schneider_announced",
    "schwarz_announced",
    "matadors",
    "declarer_points",
    "declarer_tricks",
    "schneider",
    "schwarz",
    "overbid",
    "won",
    "game_value",
)

SEAT_SUFFIXES = ("fh", "mh", "rh")

#: ISS names of every two-card discard, keyed by ``low_card * 32 + high_card``.
_DISCARD_NAMES = {lo * 32 + hi: f"{iss_name(lo)}.{iss_name(hi)}" for lo in range(32) for hi in range(lo + 1, 32)}


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


def _discard_column(rows: np.ndarray) -> pl.Series:
    pairs = pl.Series("skat_discard", discard_pairs(rows[:, COL_SKAT_DISCARD]))
    return pairs.replace_strict(_DISCARD_NAMES, default=None, return_dtype=pl.String)


def _evaluation_exprs() -> list[pl.Expr]:
    """Cast every evaluation column to its schema type, with nulls where the value does not exist."""
    declared = pl.col("declarer") >= 0
    exprs = []
    for name, (dtype, _) in EVALUATION_COLUMNS.items():
        col = pl.col(name)
        if name == "game_type":
            expr = col.replace_strict(GAME_TYPE_LABELS, return_dtype=GAME_TYPE)
        elif name == "declarer":
            expr = pl.when(col >= 0).then(col).cast(dtype)
        elif name in PLAYED_ONLY:
            expr = pl.when(declared).then(col).cast(dtype)
        elif name == "score":
            expr = pl.when(pl.col("game_type") != RAMSCH).then(col).cast(dtype)
        else:
            expr = col.cast(dtype)
        exprs.append(expr.alias(name))
    return exprs


def _rule_exprs(names: list[str]) -> list[pl.Expr]:
    """The house-rule columns ``names``, typed, null where the value does not exist (docs/schema.md)."""
    ramsch = pl.col("game_type") == RAMSCH
    exprs = []
    for name in names:
        dtype = RULE_COLUMNS[name][0]
        col = pl.col(name)
        if name == "kontra_level":
            col = pl.when(pl.col("declarer") >= 0).then(col)
        elif name in ("ramsch_loser", "schiebe_count"):
            col = pl.when(ramsch & (col >= 0)).then(col)
        elif name.startswith(("ramsch_", "jungfrau", "durchmarsch")):
            col = pl.when(ramsch).then(col)
        exprs.append(col.cast(dtype).alias(name))
    return exprs


def _bot_exprs(bots: tuple[str, str, str], lists: bool) -> list[pl.Expr]:
    """``bot_fh/mh/rh``: the bot at each seat; in lists the players' bots rotate with the deal
    (player ``(s + deal_in_list) % 3`` sits at seat ``s``)."""
    exprs = []
    for s, suffix in enumerate(SEAT_SUFFIXES):
        if lists:
            by_shift = {k: bots[(s + k) % 3] for k in range(3)}
            expr = (pl.col("deal_in_list") % 3).replace_strict(by_shift, return_dtype=pl.String)
        else:
            expr = pl.lit(bots[s], pl.String)
        exprs.append(expr.alias(f"bot_{suffix}"))
    return exprs


def _record_column(rows: np.ndarray, logs: np.ndarray) -> pl.Series:
    """Each game's record as JSON: the one per-row Python loop, only with ``--record-play``."""
    return pl.Series("record", [record_from_log(rows[i], logs[i]).to_json() for i in range(len(rows))], pl.String)


def block_frame(
    rows: np.ndarray,
    logs: np.ndarray | None,
    bots: tuple[str, str, str],
    variant_name: str,
    params: np.ndarray | None = None,
) -> pl.DataFrame:
    """The typed frame of a block of simulated games (columns and types: ``docs/schema.md``).

    ``rows`` is the ``(n, N_COLUMNS)`` matrix filled by
    :func:`skatsim.engine.block.simulate_block` under the compiled variant
    ``params`` (official by default; it chooses the house-rule columns);
    ``logs`` its action logs (adds a ``record`` column) or ``None``; ``bots``
    the names seated at FH, MH, RH (in lists: players 0, 1, 2).
    """
    params = official_params() if params is None else params
    names = rule_column_names(params)
    columns = np.ascontiguousarray(rows.T)  # one transposing copy, then every column is contiguous
    raw = pl.DataFrame({name: columns[i] for i, name in enumerate(COLUMNS)})
    frame = raw.select(
        pl.col("game_id").cast(pl.Int64),
        pl.lit(variant_name, pl.String).alias("variant"),
        *_evaluation_exprs(),
        pl.col("dealer").cast(pl.Int8),
        pl.col("deal").cast(pl.Int64),
        _discard_column(rows),
        *(pl.col(f"max_bid_{s}").cast(pl.Int16) for s in SEAT_SUFFIXES),
        *_bot_exprs(bots, "list_id" in names),
        *_rule_exprs(names),
    )
    if logs is not None:
        frame = frame.with_columns(_record_column(rows, logs))
    return frame


def frame_schema(record: bool, params: np.ndarray | None = None) -> dict[str, pl.DataType | type[pl.DataType]]:
    """Column names and types of :func:`block_frame` output (used to check chunk files)."""
    empty = np.zeros((0, len(COLUMNS)), dtype=np.int64)
    frame = block_frame(empty, empty[:, :0] if record else None, ("x", "x", "x"), "x", params)
    return dict(frame.schema)
