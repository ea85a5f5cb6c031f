"""Paired statistics of two aligned game tables: one row per deal in each, the same deals in the same order.

The comparison of two variants (:mod:`skatsim.analysis.compare`) and of two
runs made with the same seed and bots (:mod:`skatsim.analysis.report`) both
reduce a pair of frames to an :class:`Aggregate`: for every metric, the joint
histogram of its value under A and under B (integer values, so exact), and
counts of deals whose outcome changed. Aggregates of chunks add up, in any
order, to the aggregate of the whole run; all means, variances, quantiles
and bootstrap resamples are then computed from the histograms, so no row is
kept in memory.

Metrics are built from columns by name. A house-rule metric (Kontra, Bock,
Ramsch, list points) is computed when its columns exist; when they exist in
one variant only, the other counts as the rule switched off (``absent``),
or the metric is left out when that has no meaning (list points).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import polars as pl

SEATS = ("fh", "mh", "rh")
#: Values are stored in pair keys as ``(a + OFFSET) * 2**31 + (b + OFFSET)``.
OFFSET = 2**30


@dataclass(frozen=True)
class Metric:
    """A per-deal integer quantity compared between the variants.

    ``needs``: columns it is computed from; ``absent``: its value when a
    variant lacks those columns (the rule is off), ``None`` to skip the metric
    then; ``spread``: also report its standard deviation and tail quantiles;
    ``share``: a 0/1 indicator, whose mean is a share of deals.
    """

    name: str
    group: str
    label: str
    expr: Callable[[], pl.Expr]
    needs: tuple[str, ...] = ()
    absent: int | None = None
    spread: bool = False
    share: bool = False


def _seat_score(seat: str) -> Callable[[], pl.Expr]:
    return lambda: pl.col(f"score_{seat}")


def _list_points(seat: str) -> Callable[[], pl.Expr]:
    return lambda: pl.col(f"list_points_{seat}")


def _defenders() -> pl.Expr:
    return pl.col("score_fh") + pl.col("score_mh") + pl.col("score_rh") - pl.col("score").fill_null(0)


def _share(name: str, group: str, label: str, expr: Callable[[], pl.Expr], needs: tuple[str, ...] = ()) -> Metric:
    """A 0/1 metric (its mean is a share of deals); a house rule absent from a variant counts as 0."""
    return Metric(name, group, label, expr, needs, absent=0 if needs else None, share=True)


def _col(name: str) -> pl.Expr:
    return pl.col(name)


METRICS: tuple[Metric, ...] = (
    *(
        Metric(f"score_{s}", "score per seat", f"{s.upper()} score per deal", _seat_score(s), spread=True)
        for s in SEATS
    ),
    Metric("declarer", "score per role", "declarer's score per deal", lambda: _col("score").fill_null(0), spread=True),
    Metric("defenders", "score per role", "defenders' scores per deal (together)", _defenders),
    _share("played", "outcome", "deals with a declarer", lambda: _col("declarer").is_not_null()),
    _share("won", "outcome", "deals won by the declarer", lambda: _col("won").fill_null(False)),
    _share("overbid", "outcome", "deals lost by overbidding", lambda: _col("overbid").fill_null(False)),
    _share("ramsch", "house rules", "Ramsch deals", lambda: _col("game_type") == "ramsch", ("ramsch_loser",)),
    _share(
        "jungfrau", "house rules", "Ramsch with a Jungfrau", lambda: _col("jungfrau_count") > 0, ("jungfrau_count",)
    ),
    _share("durchmarsch", "house rules", "Durchmarsch", lambda: _col("durchmarsch").cast(pl.Boolean), ("durchmarsch",)),
    _share("kontra", "house rules", "deals with Kontra", lambda: _col("kontra_level") >= 1, ("kontra_level",)),
    _share("re", "house rules", "deals with Re", lambda: _col("kontra_level") >= 2, ("kontra_level",)),
    _share("bock", "house rules", "deals under Bock", lambda: _col("bock") > 1, ("bock",)),
    *(
        Metric(
            f"list_points_{s}",
            "house rules",
            f"{s.upper()} list points per deal",
            _list_points(s),
            (f"list_points_{s}",),
        )
        for s in SEATS
    ),
)

#: Outcome changes counted deal by deal: name -> (label, columns compared).
CHANGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "declarer": ("another declarer (or none)", ("declarer",)),
    "game_type": ("another game type", ("game_type",)),
    "bid": ("another final bid", ("bid",)),
    "won": ("another result (won/lost)", ("won",)),
    "score": ("another score for some seat", ("score_fh", "score_mh", "score_rh")),
}


@dataclass
class Aggregate:
    """Sufficient statistics of a paired set of deals; ``+`` merges two disjoint sets."""

    n: int = 0
    joint: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    changed: dict[str, int] = field(default_factory=dict)

    def __add__(self, other: Aggregate) -> Aggregate:
        joint = dict(self.joint)
        for name, (keys, counts) in other.joint.items():
            joint[name] = _merge_hist(joint[name], (keys, counts)) if name in joint else (keys, counts)
        changed = {
            k: self.changed.get(k, 0) + other.changed.get(k, 0) for k in self.changed.keys() | other.changed.keys()
        }
        return Aggregate(self.n + other.n, joint, changed)


def _merge_hist(x: tuple[np.ndarray, np.ndarray], y: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    keys, inverse = np.unique(np.concatenate([x[0], y[0]]), return_inverse=True)
    return keys, np.bincount(inverse, weights=np.concatenate([x[1], y[1]]), minlength=keys.size).astype(np.int64)


def encode_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Joint histogram of integer pairs ``(a[i], b[i])`` as sorted pair keys and counts."""
    a, b = a.astype(np.int64), b.astype(np.int64)
    if a.size and (max(np.abs(a).max(), np.abs(b).max()) >= OFFSET):
        raise ValueError(f"paired metric values must lie within +-{OFFSET}")
    keys, counts = np.unique((a + OFFSET) * 2**31 + (b + OFFSET), return_counts=True)
    return keys, counts.astype(np.int64)


def decode_pairs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ``(a, b)`` values of pair keys made by :func:`encode_pairs`."""
    return keys // 2**31 - OFFSET, keys % 2**31 - OFFSET


def _values(frame: pl.DataFrame, metric: Metric) -> np.ndarray | None:
    """The metric's per-deal values in ``frame``, ``absent`` when its columns are missing, ``None`` to skip."""
    if all(name in frame.columns for name in metric.needs):
        return frame.select(metric.expr().cast(pl.Int64).fill_null(0)).to_series().to_numpy()
    if metric.absent is None:
        return None
    return np.full(frame.height, metric.absent, dtype=np.int64)


def applicable(metrics: Iterable[Metric], a_columns: Iterable[str], b_columns: Iterable[str]) -> list[Metric]:
    """Metrics whose columns exist in at least one table and that mean something for both."""
    a, b = set(a_columns), set(b_columns)
    out = []
    for m in metrics:
        in_a, in_b = set(m.needs) <= a, set(m.needs) <= b
        if (in_a and in_b) or ((in_a or in_b) and m.absent is not None):
            out.append(m)
    return out


def _physical(frame: pl.DataFrame, name: str) -> np.ndarray:
    """Column as integers for equality tests: enums by code, booleans 0/1, nulls -1."""
    col = frame[name]
    if isinstance(col.dtype, pl.Enum | pl.Categorical):
        col = col.to_physical()
    return col.cast(pl.Int64).fill_null(-1).to_numpy()


def aggregate_pair(a: pl.DataFrame, b: pl.DataFrame, metrics: Iterable[Metric] = METRICS) -> Aggregate:
    """Joint histograms and outcome changes of two frames holding the same deals in the same order."""
    if a.height != b.height:
        raise ValueError(f"paired frames differ in length: {a.height} and {b.height}")
    if "game_id" in a.columns and "game_id" in b.columns and not a["game_id"].equals(b["game_id"]):
        raise ValueError("paired frames do not hold the same deals (game_id differs)")
    joint = {}
    for metric in applicable(metrics, a.columns, b.columns):
        va, vb = _values(a, metric), _values(b, metric)
        if va is not None and vb is not None:
            joint[metric.name] = encode_pairs(va, vb)
    changed = {}
    any_change = np.zeros(a.height, dtype=bool)
    for name, (_, cols) in CHANGES.items():
        diff = np.zeros(a.height, dtype=bool)
        for col in cols:
            diff |= _physical(a, col) != _physical(b, col)
        changed[name] = int(diff.sum())
        any_change |= diff
    changed["any"] = int(any_change.sum())
    return Aggregate(a.height, joint, changed)
