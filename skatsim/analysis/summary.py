"""From an :class:`~skatsim.analysis.paired.Aggregate` to tables: paired differences with intervals.

* :func:`mean_differences` -- per metric and ratio, the values under A and B,
  the paired difference ``B - A`` with its interval, and the interval the
  same data would give as two independent samples, with the ratio of the two
  widths;
* :func:`independent_differences` -- the same table for two runs that do not
  hold the same deals (different seeds, bots or games): unpaired intervals;
* :func:`spread_differences` -- standard deviation and tail quantiles under A
  and B and their paired differences, with percentile bootstrap intervals
  (resampling deals: both variants' values of a deal move together);
* :func:`outcome_changes` -- how often a deal's outcome differs (Wilson).

Means per deal get the CLT interval of the per-deal difference. A ratio
(a rate among declared games, the win rate at one bid, the mean winning bid)
gets the delta-method interval: with ``R = sum x / sum d`` on each side, the
difference behaves like the mean of ``u = (x_B - R_B d_B) / mean(d_B) -
(x_A - R_A d_A) / mean(d_A)`` per deal, whose variance follows exactly from
the aggregate's sums of cross products.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl

from .intervals import (
    LEVEL,
    N_BOOT,
    moments_from_sums,
    percentile_interval,
    resample_counts,
    weighted_quantile,
    weighted_sd,
    wilson,
    z_value,
)
from .paired import CHANGES, GROUPS, METRICS, RATIOS, WIN_BID, Aggregate, decode_pairs, ratio

#: Spread statistics: name -> quantile (``None`` for the standard deviation).
SPREAD_STATS: dict[str, float | None] = {"sd": None, "q01": 0.01, "q05": 0.05, "q95": 0.95, "q99": 0.99}
#: A win rate at one final bid is shown only when both sides have at least this many games at that bid.
MIN_BID_GAMES = 30
_META = {m.name: m for m in METRICS}
#: Columns of :func:`mean_differences` and :func:`independent_differences`, with their types.
SCHEMA: dict[str, Any] = {
    "group": pl.String,
    "metric": pl.String,
    "label": pl.String,
    "unit": pl.String,
    "share": pl.Boolean,
    "n": pl.Int64,
    "sum_a": pl.Int64,
    "sum_b": pl.Int64,
    "den_a": pl.Int64,
    "den_b": pl.Int64,
    **dict.fromkeys(("mean_a", "lo_a", "hi_a", "mean_b", "lo_b", "hi_b", "diff", "lo", "hi"), pl.Float64),
    **dict.fromkeys(("sd_diff", "paired_half", "unpaired_half", "narrowing"), pl.Float64),
    "significant": pl.Boolean,
}


def _sums(values: np.ndarray, counts: np.ndarray) -> tuple[int, int]:
    """Exact ``sum x`` and ``sum x^2`` over a histogram (Python integers: no overflow, no rounding)."""
    v = [int(x) for x in values]
    c = [int(x) for x in counts]
    return sum(x * k for x, k in zip(v, c, strict=True)), sum(x * x * k for x, k in zip(v, c, strict=True))


def _half(sd: float, n: int, z: float) -> float:
    return z * sd / math.sqrt(n) if n >= 2 and not math.isnan(sd) else math.nan


def _row(
    name: str, n: int, sums: tuple[int, int, int, int], means: tuple[float, float], halves: dict[str, float]
) -> dict[str, Any]:
    """One table row: what the metric is, A and B with their intervals, ``B - A`` with paired and unpaired ones."""
    meta: Any = _META.get(name) or ratio(name)
    mean_a, mean_b = means
    diff, paired, unpaired = mean_b - mean_a, halves["paired"], halves["unpaired"]
    exact = paired == 0.0
    return {
        "group": meta.group,
        "metric": name,
        "label": meta.label,
        "unit": GROUPS.get(meta.group, ""),
        "share": bool(meta.share),
        "n": n,
        "sum_a": sums[0],
        "sum_b": sums[1],
        "den_a": sums[2],
        "den_b": sums[3],
        "mean_a": mean_a,
        "lo_a": mean_a - halves["a"],
        "hi_a": mean_a + halves["a"],
        "mean_b": mean_b,
        "lo_b": mean_b - halves["b"],
        "hi_b": mean_b + halves["b"],
        "diff": diff,
        "lo": diff - paired,
        "hi": diff + paired,
        "sd_diff": halves.get("sd", math.nan),
        "paired_half": paired,
        "unpaired_half": unpaired,
        "narrowing": unpaired / paired if paired > 0 else None,
        "significant": bool(diff != 0.0 if exact else abs(diff) > paired),
    }


_GROUP_ORDER = {name: i for i, name in enumerate(GROUPS)}
_METRIC_ORDER = {name: i for i, name in enumerate([m.name for m in METRICS] + [r.name for r in RATIOS])}


def row_order(group: str, metric: str) -> tuple[int, int, int]:
    """Where a row of a means table goes: by :data:`GROUPS`, then as the metrics and ratios are
    defined, win rates by bid value (the same order in every table and figure)."""
    bid = int(metric.removeprefix(WIN_BID)) if metric.startswith(WIN_BID) else 0
    return _GROUP_ORDER.get(group, len(_GROUP_ORDER)), _METRIC_ORDER.get(metric, len(_METRIC_ORDER)), bid


def _frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    """Rows in :func:`row_order`."""
    rows.sort(key=lambda r: row_order(r["group"], r["metric"]))
    return pl.DataFrame(rows, schema=SCHEMA)


def mean_differences(agg: Aggregate, level: float = LEVEL) -> pl.DataFrame:
    """One row per metric and ratio: values under A and B, ``diff = B - A`` with paired and unpaired half-widths.

    ``narrowing`` is the unpaired half-width over the paired one: how many
    times narrower pairing made the interval (``None`` when the paired
    variance is zero: the difference is then known exactly). ``significant``:
    the paired interval excludes zero. A game type that occurs under neither
    variant, and a win rate at a bid with fewer than :data:`MIN_BID_GAMES`
    games on either side, are left out.
    """
    z = z_value(level)
    rows = []
    for name, (keys, counts) in agg.joint.items():
        a, b = decode_pairs(keys)
        n = int(counts.sum())
        (sa, qa), (sb, qb), (sd_, qd) = _sums(a, counts), _sums(b, counts), _sums(b - a, counts)
        if name.startswith("type_") and sa == sb == 0:
            continue
        mean_a, sd_a = moments_from_sums(n, sa, qa)
        mean_b, sd_b = moments_from_sums(n, sb, qb)
        _, sd_d = moments_from_sums(n, sd_, qd)
        unpaired = z * math.sqrt((sd_a**2 + sd_b**2) / n) if n >= 2 else math.nan
        halves = {"a": _half(sd_a, n, z), "b": _half(sd_b, n, z), "paired": _half(sd_d, n, z), "unpaired": unpaired}
        rows.append(_row(name, n, (sa, sb, n, n), (mean_a, mean_b), {**halves, "sd": sd_d}))
    for name, (s, q) in agg.ratios.items():
        row = _ratio_row(name, agg.n, s, q, z)
        if row is not None:
            rows.append(row)
    return _frame(rows)


def _quadratic(alpha: list[Fraction], q: np.ndarray, idx: list[int]) -> Fraction:
    """``alpha' Q alpha`` over the rows and columns ``idx`` of ``Q``, exactly."""
    return sum(
        (alpha[i] * alpha[j] * int(q[idx[i], idx[j]]) for i in range(len(idx)) for j in range(len(idx))), Fraction(0)
    )


def _ratio_row(name: str, n: int, s: np.ndarray, q: np.ndarray, z: float) -> dict[str, Any] | None:
    """The paired (delta-method) comparison of one ratio; ``None`` when a side has too few deals to say."""
    xa, da, xb, db = (int(v) for v in s)
    least = MIN_BID_GAMES if name.startswith(WIN_BID) else 1
    if min(da, db) < least or n < 2:
        return None
    ra, rb = Fraction(xa, da), Fraction(xb, db)
    alpha_a = [Fraction(-n, da), n * ra / da]
    alpha_b = [Fraction(n, db), -n * rb / db]
    scale = n * (n - 1)
    var_a = _quadratic(alpha_a, q, [0, 1]) / scale
    var_b = _quadratic(alpha_b, q, [2, 3]) / scale
    var_d = _quadratic(alpha_a + alpha_b, q, [0, 1, 2, 3]) / scale
    halves = {
        "a": z * math.sqrt(var_a),
        "b": z * math.sqrt(var_b),
        "paired": z * math.sqrt(var_d),
        "unpaired": z * math.sqrt(var_a + var_b),
        "sd": math.sqrt(var_d * n),
    }
    return _row(name, n, (xa, xb, da, db), (float(ra), float(rb)), halves)


def independent_differences(agg_a: Aggregate, agg_b: Aggregate, level: float = LEVEL) -> pl.DataFrame:
    """The table of :func:`mean_differences` for two runs holding different deals: unpaired intervals only.

    ``agg_a`` and ``agg_b`` are each run alone
    (:func:`~skatsim.analysis.paired.aggregate_single`, made with the other's
    columns, so both hold the same metrics). A mean's difference gets the
    half-width ``z sqrt(se_A^2 + se_B^2)``. A rate gets Wilson intervals on
    each side and Newcombe's hybrid score interval for the difference
    (R. G. Newcombe, Statistics in Medicine 17, 873-890, 1998, method 10),
    which stays honest when a side counts none: 0 of 41 games is not a
    rate known to be exactly zero. ``narrowing`` is null.
    """
    z = z_value(level)
    rows = []
    for name in agg_a.joint.keys() & agg_b.joint.keys():
        moments = []
        for agg in (agg_a, agg_b):
            keys, counts = agg.joint[name]
            values, _ = decode_pairs(keys)
            total, squares = _sums(values, counts)
            moments.append((agg.n, total, *moments_from_sums(agg.n, total, squares)))
        (na, sa, mean_a, sd_a), (nb, sb, mean_b, sd_b) = moments
        if name.startswith("type_") and sa == sb == 0:
            continue
        half_a, half_b = _half(sd_a, na, z), _half(sd_b, nb, z)
        half = math.hypot(half_a, half_b)
        halves = {"a": half_a, "b": half_b, "paired": half, "unpaired": half}
        row = {**_row(name, na + nb, (sa, sb, na, nb), (mean_a, mean_b), halves), "narrowing": None}
        rows.append(_newcombe(row, level) if row["share"] else row)
    for name in agg_a.ratios.keys() & agg_b.ratios.keys():
        sides = []
        for agg in (agg_a, agg_b):
            s, q = agg.ratios[name]
            x, d = int(s[0]), int(s[1])
            least = MIN_BID_GAMES if name.startswith(WIN_BID) else 1
            if d < least or agg.n < 2:
                break
            r = Fraction(x, d)
            var = _quadratic([Fraction(-agg.n, d), agg.n * r / d], q, [0, 1]) / (agg.n * (agg.n - 1))
            sides.append((agg.n, x, d, float(r), z * math.sqrt(var)))
        if len(sides) < 2:
            continue
        (na, xa, da, ra, half_a), (nb, xb, db, rb, half_b) = sides
        half = math.hypot(half_a, half_b)
        halves = {"a": half_a, "b": half_b, "paired": half, "unpaired": half}
        row = {**_row(name, na + nb, (xa, xb, da, db), (ra, rb), halves), "narrowing": None}
        rows.append(_newcombe(row, level) if row["share"] else row)
    return _frame(rows)


def _newcombe(row: dict[str, Any], level: float) -> dict[str, Any]:
    """A rate row of two independent samples with Wilson intervals per side (``sum_a`` of ``den_a`` and
    ``sum_b`` of ``den_b``) and Newcombe's hybrid score interval for ``B - A``."""
    pa, lo_a, hi_a = wilson(row["sum_a"], row["den_a"], level)
    pb, lo_b, hi_b = wilson(row["sum_b"], row["den_b"], level)
    diff = pb - pa
    lo = diff - math.hypot(pb - lo_b, hi_a - pa)
    hi = diff + math.hypot(hi_b - pb, pa - lo_a)
    half = max(diff - lo, hi - diff)
    return {
        **row,
        **{"lo_a": lo_a, "hi_a": hi_a, "lo_b": lo_b, "hi_b": hi_b, "lo": lo, "hi": hi},
        **{"paired_half": half, "unpaired_half": half, "significant": bool(lo > 0 or hi < 0)},
    }


def _stat(values: np.ndarray, weights: np.ndarray, q: float | None) -> np.ndarray:
    return weighted_sd(values, weights) if q is None else weighted_quantile(values, weights, q)


def spread_differences(agg: Aggregate, level: float = LEVEL, n_boot: int = N_BOOT, seed: int = 0) -> pl.DataFrame:
    """Standard deviation and tail quantiles of each spread metric under A and B, and ``B - A``.

    Intervals are percentile bootstrap intervals over ``n_boot`` resamples of
    deals, drawn from the joint histogram (see :mod:`.intervals`); the same
    resample feeds A, B and the difference, which keeps the pairing.
    """
    rows = []
    spread = [m.name for m in METRICS if m.spread and m.name in agg.joint]
    for index, name in enumerate(spread):
        keys, counts = agg.joint[name]
        a, b = decode_pairs(keys)
        resampled = resample_counts(counts, n_boot, np.random.default_rng([seed, index]))
        observed = counts[None, :]
        for stat, q in SPREAD_STATS.items():
            est_a, est_b = float(_stat(a, observed, q)[0]), float(_stat(b, observed, q)[0])
            rep_a, rep_b = _stat(a, resampled, q), _stat(b, resampled, q)
            lo_a, hi_a = percentile_interval(rep_a, level)
            lo_b, hi_b = percentile_interval(rep_b, level)
            lo_d, hi_d = percentile_interval(rep_b - rep_a, level)
            rows.append(
                {
                    "metric": name,
                    "label": _META[name].label,
                    "stat": stat,
                    "a": est_a,
                    "lo_a": lo_a,
                    "hi_a": hi_a,
                    "b": est_b,
                    "lo_b": lo_b,
                    "hi_b": hi_b,
                    "diff": est_b - est_a,
                    "lo": lo_d,
                    "hi": hi_d,
                }
            )
    return pl.DataFrame(
        rows,
        schema={
            **dict.fromkeys(("metric", "label", "stat"), pl.String),
            **dict.fromkeys(("a", "lo_a", "hi_a", "b", "lo_b", "hi_b", "diff", "lo", "hi"), pl.Float64),
        },
    )


def outcome_changes(agg: Aggregate, level: float = LEVEL) -> pl.DataFrame:
    """How many deals changed declarer, game type, bid, result, score (and any of these), with Wilson intervals."""
    rows = []
    labels = {**{k: label for k, (label, _) in CHANGES.items()}, "any": "any of these"}
    for name, label in labels.items():
        count = agg.changed.get(name, 0)
        rate, lo, hi = wilson(count, agg.n, level)
        rows.append({"outcome": name, "label": label, "count": count, "rate": rate, "lo": lo, "hi": hi, "n": agg.n})
    return pl.DataFrame(rows, schema_overrides={"count": pl.Int64, "n": pl.Int64})
