"""From an :class:`~skatsim.analysis.paired.Aggregate` to tables: paired differences with intervals.

* :func:`mean_differences` -- per metric, the means under A and B, the paired
  difference ``B - A`` with its CLT interval, and the interval the same data
  would give as two independent samples, with the ratio of the two widths;
* :func:`spread_differences` -- standard deviation and tail quantiles under A
  and B and their paired differences, with percentile bootstrap intervals
  (resampling deals: both variants' values of a deal move together);
* :func:`outcome_changes` -- how often a deal's outcome differs (Wilson).
"""

from __future__ import annotations

import math

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
from .paired import CHANGES, METRICS, Aggregate, decode_pairs

#: Spread statistics: name -> quantile (``None`` for the standard deviation).
SPREAD_STATS: dict[str, float | None] = {"sd": None, "q01": 0.01, "q05": 0.05, "q95": 0.95, "q99": 0.99}
_META = {m.name: m for m in METRICS}


def _sums(values: np.ndarray, counts: np.ndarray) -> tuple[int, int]:
    """Exact ``sum x`` and ``sum x^2`` over a histogram (Python integers: no overflow, no rounding)."""
    v = [int(x) for x in values]
    c = [int(x) for x in counts]
    return sum(x * k for x, k in zip(v, c, strict=True)), sum(x * x * k for x, k in zip(v, c, strict=True))


def _half(sd: float, n: int, z: float) -> float:
    return z * sd / math.sqrt(n) if n >= 2 and not math.isnan(sd) else math.nan


def mean_differences(agg: Aggregate, level: float = LEVEL) -> pl.DataFrame:
    """One row per metric: means under A and B, ``diff = B - A`` with paired and unpaired half-widths.

    ``narrowing`` is the unpaired half-width over the paired one: how many
    times narrower pairing made the interval (``None`` when the paired
    variance is zero: the difference is then known exactly).
    """
    z = z_value(level)
    rows = []
    for name, (keys, counts) in agg.joint.items():
        a, b = decode_pairs(keys)
        n = int(counts.sum())
        (sa, qa), (sb, qb), (sd_, qd) = _sums(a, counts), _sums(b, counts), _sums(b - a, counts)
        mean_a, sd_a = moments_from_sums(n, sa, qa)
        mean_b, sd_b = moments_from_sums(n, sb, qb)
        diff, sd_d = moments_from_sums(n, sd_, qd)
        half_a, half_b, paired = _half(sd_a, n, z), _half(sd_b, n, z), _half(sd_d, n, z)
        unpaired = z * math.sqrt((sd_a**2 + sd_b**2) / n) if n >= 2 else math.nan
        narrowing = unpaired / paired if paired > 0 else None
        meta = _META.get(name)
        rows.append(
            {
                "group": meta.group if meta else "",
                "metric": name,
                "label": meta.label if meta else name,
                "share": bool(meta and meta.share),
                "n": n,
                "sum_a": sa,
                "sum_b": sb,
                "mean_a": mean_a,
                "lo_a": mean_a - half_a,
                "hi_a": mean_a + half_a,
                "mean_b": mean_b,
                "lo_b": mean_b - half_b,
                "hi_b": mean_b + half_b,
                "diff": diff,
                "lo": diff - paired,
                "hi": diff + paired,
                "sd_diff": sd_d,
                "paired_half": paired,
                "unpaired_half": unpaired,
                "narrowing": narrowing,
            }
        )
    order = {m.name: i for i, m in enumerate(METRICS)}
    rows.sort(key=lambda r: order.get(r["metric"], len(order)))
    return pl.DataFrame(rows, schema_overrides={"sum_a": pl.Int64, "sum_b": pl.Int64, "narrowing": pl.Float64})


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
