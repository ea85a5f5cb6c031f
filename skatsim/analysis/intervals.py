"""Confidence intervals: Wilson for rates, the central limit theorem and the bootstrap for means.

Every statistic skatsim reports carries an interval so that simulation noise
is not mistaken for a house-rule effect. The formulas, with ``z`` the
standard normal quantile ``Phi^-1((1 + level) / 2)`` (1.96 for 95%):

* **Wilson score interval** for a rate ``p = k / n`` (E. B. Wilson, "Probable
  inference, the law of succession, and statistical inference", JASA 22,
  209-212, 1927; recommended over the Wald interval by Brown, Cai and
  DasGupta, Statistical Science 16, 101-133, 2001)::

      centre = (p + z^2 / (2n)) / (1 + z^2 / n)
      half   = z / (1 + z^2 / n) * sqrt(p (1 - p) / n + z^2 / (4 n^2))

  It stays inside [0, 1] and keeps close to its nominal coverage even for
  rare events (a Schwarz, a Re), where ``p +- z sqrt(p(1-p)/n)`` does not.
* **CLT interval** for a mean: ``mean +- z s / sqrt(n)``, ``s`` the sample
  standard deviation (``n - 1`` in the denominator). For a paired difference
  ``d = b - a`` the same formula on ``d``; as if the samples were independent
  the standard error would be ``sqrt((s_a^2 + s_b^2) / n)`` instead.
* **Percentile bootstrap** (B. Efron and R. Tibshirani, "An Introduction to
  the Bootstrap", 1993, ch. 13): the ``(1 - level) / 2`` and ``(1 + level) / 2``
  quantiles of the statistic over resamples drawn with replacement. Scores
  take few distinct values, so a resample of ``n`` rows is drawn as a
  multinomial over the distinct values (or value pairs) with probabilities
  ``count / n``: the same distribution as resampling rows, at a cost that
  grows with the number of distinct values, not with ``n``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from statistics import NormalDist

import numpy as np
import polars as pl

#: Confidence level used when none is given.
LEVEL = 0.95
#: Bootstrap resamples used when none is given.
N_BOOT = 1000
#: Bootstrap resamples allowed (report and compare): fewer give no usable percentile interval, more only
#: cost time and memory (the resampled counts are one array of resamples x values).
BOOT_RANGE = (10, 100_000)


def z_value(level: float = LEVEL) -> float:
    """Two-sided standard normal quantile for ``level`` (1.959964 for 0.95)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence level must be between 0 and 1, got {level}")
    return NormalDist().inv_cdf(0.5 + level / 2.0)


def wilson(k: float, n: float, level: float = LEVEL) -> tuple[float, float, float]:
    """Rate ``k / n`` and its Wilson score interval ``(rate, lo, hi)``; all NaN when ``n == 0``."""
    if n <= 0:
        return math.nan, math.nan, math.nan
    z = z_value(level)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n))
    lo = 0.0 if k <= 0 else max(0.0, centre - half)  # exactly 0 and 1 at the ends, not a rounding residue
    hi = 1.0 if k >= n else min(1.0, centre + half)
    return p, lo, hi


def wilson_exprs(k: pl.Expr, n: pl.Expr, level: float = LEVEL) -> list[pl.Expr]:
    """Polars columns ``rate``, ``lo``, ``hi``, ``n`` from successes ``k`` and trials ``n`` (null when n = 0)."""
    z = z_value(level)
    nf = n.cast(pl.Float64)
    ok = nf > 0
    p = k.cast(pl.Float64) / nf
    denom = 1.0 + z * z / nf
    centre = (p + z * z / (2.0 * nf)) / denom
    half = z / denom * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt()
    return [
        pl.when(ok).then(p).alias("rate"),
        pl.when(ok & (k <= 0)).then(0.0).when(ok).then((centre - half).clip(0.0, 1.0)).alias("lo"),
        pl.when(ok & (k >= n)).then(1.0).when(ok).then((centre + half).clip(0.0, 1.0)).alias("hi"),
        n.cast(pl.Int64).alias("n"),
    ]


def clt_interval(mean: float, sd: float, n: float, level: float = LEVEL) -> tuple[float, float]:
    """``mean +- z sd / sqrt(n)``; NaN when ``n < 2`` (no spread to estimate)."""
    if n < 2 or math.isnan(sd):
        return math.nan, math.nan
    half = z_value(level) * sd / math.sqrt(n)
    return mean - half, mean + half


def mean_aggs(value: pl.Expr) -> list[pl.Expr]:
    """Aggregations ``mean``, ``sd``, ``n`` of ``value`` (nulls ignored) for a ``group_by``."""
    return [value.mean().alias("mean"), value.std(ddof=1).alias("sd"), value.count().cast(pl.Int64).alias("n")]


def clt_exprs(level: float = LEVEL) -> list[pl.Expr]:
    """Columns ``lo``, ``hi`` from the ``mean``, ``sd``, ``n`` columns of :func:`mean_aggs`."""
    half = z_value(level) * pl.col("sd") / pl.col("n").cast(pl.Float64).sqrt()
    ok = pl.col("n") >= 2
    return [pl.when(ok).then(pl.col("mean") - half).alias("lo"), pl.when(ok).then(pl.col("mean") + half).alias("hi")]


def moments_from_sums(n: int, total: float, total_sq: float) -> tuple[float, float]:
    """Mean and sample standard deviation from ``n``, ``sum x`` and ``sum x^2`` (exact integers stay exact).

    The variance is ``(sum x^2 - (sum x)^2 / n) / (n - 1)``; with Python
    integers the numerator is computed exactly, so identical samples give an
    exact zero rather than a rounding residue.
    """
    if n == 0:
        return math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, math.nan
    if isinstance(total, int) and isinstance(total_sq, int):
        numerator = total_sq * n - total * total  # n^2 times the biased variance, exact
        var = numerator / (n * (n - 1))
    else:
        var = (total_sq - total * total / n) / (n - 1)
    return mean, math.sqrt(max(var, 0.0))


def percentile_interval(replicates: np.ndarray, level: float = LEVEL) -> tuple[float, float]:
    """``(lo, hi)``: the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of bootstrap replicates."""
    finite = replicates[np.isfinite(replicates)]
    if finite.size == 0:
        return math.nan, math.nan
    lo, hi = np.quantile(finite, [(1.0 - level) / 2.0, (1.0 + level) / 2.0], method="inverted_cdf")
    return float(lo), float(hi)


def resample_counts(counts: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """``(n_boot, len(counts))`` resampled counts: each row a multinomial draw of ``sum(counts)`` rows.

    Drawing ``n`` rows with replacement from data whose distinct values have
    these counts is a multinomial with probabilities ``counts / n``.
    """
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    if n == 0:
        return np.zeros((n_boot, counts.size), dtype=np.int64)
    return rng.multinomial(n, counts / n, size=n_boot)


def bootstrap_counts(
    values: np.ndarray,
    counts: np.ndarray,
    statistic: Callable[[np.ndarray, np.ndarray], np.ndarray],
    n_boot: int = N_BOOT,
    level: float = LEVEL,
    seed: int = 0,
) -> tuple[float, float, float]:
    """Statistic of a sample given as distinct ``values`` with ``counts``, and its percentile bootstrap interval.

    ``statistic(values, weights)`` must accept ``weights`` of shape ``(k,)``
    (returns a scalar) and ``(B, k)`` (returns ``B`` replicates).
    """
    values = np.asarray(values)
    counts = np.asarray(counts, dtype=np.int64)
    estimate = float(statistic(values, counts[None, :])[0])
    replicates = statistic(values, resample_counts(counts, n_boot, np.random.default_rng(seed)))
    lo, hi = percentile_interval(np.asarray(replicates, dtype=np.float64), level)
    return estimate, lo, hi


def weighted_mean(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Mean of ``values`` under each row of ``weights`` (shape ``(B, k)``)."""
    w = weights.astype(np.float64)
    return (w @ values.astype(np.float64)) / w.sum(axis=1)


def weighted_sd(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Sample standard deviation (``n - 1``) of ``values`` under each row of ``weights``."""
    w = weights.astype(np.float64)
    n = w.sum(axis=1)
    x = values.astype(np.float64)
    mean = (w @ x) / n
    ss = w @ (x * x) - n * mean * mean
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sqrt(np.maximum(ss, 0.0) / (n - 1.0))


def weighted_quantile(values: np.ndarray, weights: np.ndarray, q: float) -> np.ndarray:
    """Lower empirical ``q``-quantile (smallest value whose cumulative share reaches ``q``) per weight row.

    The inverse of the empirical distribution function (Hyndman and Fan 1996,
    definition 1): always a value that occurs, which suits integer scores.
    """
    order = np.argsort(values, kind="stable")
    sorted_values = values[order]
    cum = np.cumsum(weights[:, order], axis=1)
    target = q * cum[:, -1:]
    index = np.minimum((cum < target - 1e-9 * np.maximum(target, 1.0)).sum(axis=1), values.size - 1)
    return sorted_values[index].astype(np.float64)


def bootstrap_mean(values: np.ndarray, n_boot: int = N_BOOT, level: float = LEVEL, seed: int = 0) -> tuple[float, ...]:
    """Mean of ``values`` with its percentile bootstrap interval: ``(mean, lo, hi)``."""
    distinct, counts = np.unique(np.asarray(values), return_counts=True)
    return bootstrap_counts(distinct, counts, weighted_mean, n_boot, level, seed)
