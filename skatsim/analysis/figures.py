"""Matplotlib figures of the analysis tables, drawn without pyplot (no GUI backend, no global state).

Every function takes tables from :mod:`skatsim.analysis.tables` (or
:mod:`~skatsim.analysis.summary`) and returns a ``Figure``; intervals are
drawn as error bars or bands, so a reader sees at once what is noise.
:func:`png` turns a figure into PNG bytes for the reports.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure

#: Figure width in inches and resolution: readable in an 1100-pixel page column.
WIDTH = 10.0
DPI = 90


#: Width of the score bins in score histograms.
SCORE_BIN = 24


def legend_below(fig: Figure, ax: Axes) -> None:
    """One legend for the whole figure, below the panels, where it hides no bar."""
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=max(1, len(labels)))


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    return buf.getvalue()


def _sources(frame: pl.DataFrame) -> list[str]:
    return [str(s) for s in frame["source"].unique(maintain_order=True)]


def _errors(part: pl.DataFrame, value: str) -> np.ndarray:
    """Asymmetric error-bar lengths ``[value - lo, hi - value]`` (zero where unknown)."""
    v = part[value].to_numpy().astype(float)
    lo, hi = part["lo"].to_numpy().astype(float), part["hi"].to_numpy().astype(float)
    return np.nan_to_num(np.vstack([v - lo, hi - v]), nan=0.0).clip(min=0.0)


def _values_and_errors(
    lookup: dict[object, dict[str, object]], keys: Sequence[object], value: str
) -> tuple[np.ndarray, np.ndarray]:
    """``value`` of each key's row (NaN when missing) and its error-bar lengths from ``lo`` and ``hi``."""

    def column(name: str) -> np.ndarray:
        return np.array([lookup[k][name] if k in lookup else np.nan for k in keys], dtype=float)

    values = column(value)
    err = np.vstack([values - column("lo"), column("hi") - values])
    return values, np.nan_to_num(err, nan=0.0).clip(min=0.0)


def grouped_bars(
    ax: Axes, frame: pl.DataFrame, category: str, value: str, categories: Sequence[object] | None = None
) -> None:
    """Bars of ``value`` per ``category``, one colour per source, with ``lo``/``hi`` error bars."""
    cats = list(categories) if categories is not None else list(frame[category].unique(maintain_order=True))
    sources = _sources(frame)
    width = 0.8 / max(1, len(sources))
    x = np.arange(len(cats))
    for i, source in enumerate(sources):
        part = frame.filter(pl.col("source") == source)
        lookup = {row[category]: row for row in part.iter_rows(named=True)}
        values, err = _values_and_errors(lookup, cats, value)
        ax.bar(x + (i - (len(sources) - 1) / 2) * width, values, width, yerr=err, capsize=2, label=source)
    ax.set_xticks(x, [str(c) for c in cats])
    ax.grid(axis="y", alpha=0.3)


def _new(rows: int = 1, cols: int = 1, height: float = 3.6) -> tuple[Figure, np.ndarray]:
    fig = Figure(figsize=(WIDTH, height * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    return fig, axes.ravel()


def game_mix_figure(mix: pl.DataFrame) -> Figure:
    """Share of deals per game type, per source, with Wilson intervals."""
    fig, (ax,) = _new()
    order = [t for t in mix["game_type"].cast(pl.String).unique(maintain_order=True)]
    grouped_bars(ax, mix.with_columns(pl.col("game_type").cast(pl.String)), "game_type", "rate", order)
    ax.set_ylabel("share of deals")
    ax.set_title("Game mix")
    ax.legend()
    return fig


def bids_figure(bids: pl.DataFrame, min_share: float = 0.002) -> Figure:
    """Share of declared games per final bid (bids reached in at least ``min_share`` of games)."""
    fig, (ax,) = _new()
    common = bids.group_by("bid").agg(pl.col("rate").max()).filter(pl.col("rate") >= min_share)["bid"].sort()
    grouped_bars(ax, bids.filter(pl.col("bid").is_in(common.implode())), "bid", "rate", common.to_list())
    ax.set_xlabel("final bid")
    ax.set_ylabel("share of declared games")
    ax.set_yscale("log")
    ax.set_title("Winning bids")
    ax.legend()
    return fig


def bid_reached_figure(reached: pl.DataFrame) -> Figure:
    """Per seat: share of deals in which the seat bid or held at least each value, with Wilson bands."""
    fig, axes = _new(1, 3, height=3.4)
    for ax, seat in zip(axes, ("FH", "MH", "RH"), strict=True):
        part = reached.filter(pl.col("seat") == seat)
        for source in _sources(reached):
            rows = part.filter(pl.col("source") == source).sort("bid")
            x = rows["bid"].to_numpy()
            ax.step(x, rows["rate"].to_numpy(), where="post", label=source)
            ax.fill_between(x, rows["lo"].to_numpy(), rows["hi"].to_numpy(), step="post", alpha=0.25)
        ax.set_xscale("log")
        ax.minorticks_off()
        ax.set_xticks([18, 24, 36, 48, 72, 120], ["18", "24", "36", "48", "72", "120"])
        ax.set_xlim(18, 130)
        ax.set_title(f"{seat}: bid or held at least")
        ax.set_xlabel("bid value")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("share of deals")
    axes[0].legend()
    return fig


def win_rates_figure(by_type: pl.DataFrame, by_seat: pl.DataFrame) -> Figure:
    """Declarer win rates by game type and by seat, with Wilson intervals."""
    fig, axes = _new(1, 2)
    order = [t for t in by_type["game_type"].cast(pl.String).unique(maintain_order=True)]
    grouped_bars(axes[0], by_type.with_columns(pl.col("game_type").cast(pl.String)), "game_type", "rate", order)
    grouped_bars(axes[1], by_seat, "declarer_seat", "rate", ["FH", "MH", "RH"])
    for ax, title in zip(axes, ("by game type", "by declarer's seat"), strict=True):
        ax.set_ylim(0, 1)
        ax.set_title(f"Declarer win rate {title}")
    axes[0].set_ylabel("games won")
    legend_below(fig, axes[0])
    return fig


def win_by_bid_figure(by_bid: pl.DataFrame, min_games: int = 100) -> Figure:
    """Declarer win rate by final bid (bids with at least ``min_games`` games), with Wilson bands."""
    fig, (ax,) = _new()
    for source in _sources(by_bid):
        rows = by_bid.filter((pl.col("source") == source) & (pl.col("n") >= min_games)).sort("bid")
        x = rows["bid"].to_numpy()
        ax.errorbar(x, rows["rate"].to_numpy(), yerr=_errors(rows, "rate"), marker="o", ms=3, capsize=2, label=source)
    ax.set_xscale("log")
    ax.minorticks_off()
    ax.set_xticks([18, 24, 36, 48, 72, 120], ["18", "24", "36", "48", "72", "120"])
    ax.set_xlabel("final bid")
    ax.set_ylabel("games won")
    ax.set_title(f"Declarer win rate by final bid (bids with at least {min_games} games)")
    ax.grid(alpha=0.3)
    ax.legend()
    return fig


def hand_values_figure(values: pl.DataFrame, scores: pl.DataFrame) -> Figure:
    """Mean game value and mean score of declared games per game type, with CLT intervals."""
    fig, axes = _new(1, 2)
    for ax, frame, title in zip(axes, (values, scores), ("game value", "declarer's score"), strict=True):
        order = [t for t in frame["game_type"].cast(pl.String).unique(maintain_order=True)]
        grouped_bars(ax, frame.with_columns(pl.col("game_type").cast(pl.String)), "game_type", "mean", order)
        ax.set_title(f"Mean {title} per declared game")
    legend_below(fig, axes[0])
    return fig


def seat_scores_figure(seats: pl.DataFrame, scores: pl.DataFrame, width: int = SCORE_BIN) -> Figure:
    """Expected score per deal by seat (CLT intervals) and the distribution of the declarer's score.

    ``scores`` holds ``source``, ``score`` and ``count``; scores are binned
    ``width`` points wide, as game values fall on scattered multiples of the
    base values and a bar per value would be mostly gaps.
    """
    fig, axes = _new(1, 2)
    grouped_bars(axes[0], seats, "seat", "mean", ["FH", "MH", "RH"])
    axes[0].set_title("Expected score per deal by seat")
    values = scores["score"].to_numpy()
    edges = np.arange(values.min() // width * width, values.max() + 2 * width, width) if values.size else 10
    for source in _sources(scores):
        rows = scores.filter(pl.col("source") == source)
        weights = rows["count"].to_numpy() / max(1, rows["count"].sum())
        axes[1].hist(rows["score"].to_numpy(), bins=edges, weights=weights, histtype="step", lw=1.4, label=source)
    axes[1].set_yscale("log")
    axes[1].set_xlabel(f"declarer's score ({width}-point bins)")
    axes[1].set_ylabel("share of declared games")
    axes[1].set_title("Distribution of the declarer's score")
    axes[1].grid(alpha=0.3)
    legend_below(fig, axes[0])
    return fig


def list_totals_figure(totals: pl.DataFrame) -> Figure:
    """Histogram of forehand's total over 36-deal lists, per source."""
    fig, (ax,) = _new()
    fh = totals.filter(pl.col("seat") == "FH")
    values = fh["total"].to_numpy()
    bins = np.linspace(values.min(), values.max(), 41) if values.size else 10
    for source in _sources(fh):
        part = fh.filter(pl.col("source") == source)["total"].to_numpy()
        ax.hist(part, bins=bins, histtype="step", density=True, label=f"{source} ({part.size:,} lists)")
    ax.set_xlabel("forehand's total over a list of 36 deals")
    ax.set_ylabel("density")
    ax.set_title("Spread of list totals")
    ax.grid(alpha=0.3)
    ax.legend()
    return fig


def rates_figure(frame: pl.DataFrame, category: str, title: str) -> Figure:
    """Generic grouped bars of a rate table over ``category`` (house-rule statistics)."""
    fig, (ax,) = _new(height=3.2)
    grouped_bars(ax, frame.with_columns(pl.col(category).cast(pl.String)), category, "rate")
    ax.set_title(title)
    ax.legend()
    return fig


def differences_figure(diffs: pl.DataFrame) -> Figure:
    """Forest plot: ``B - A`` with intervals per metric (rows) for each compared source (colours)."""
    labels = list(diffs["label"].unique(maintain_order=True))
    comparisons = list(diffs["comparison"].unique(maintain_order=True))
    fig = Figure(figsize=(WIDTH, 0.45 * len(labels) * max(1, len(comparisons)) ** 0.5 + 1.2), layout="constrained")
    ax = fig.subplots()
    step = 0.8 / max(1, len(comparisons))
    for i, comp in enumerate(comparisons):
        part = diffs.filter(pl.col("comparison") == comp)
        lookup = {r["label"]: r for r in part.iter_rows(named=True)}
        y = np.arange(len(labels)) + (i - (len(comparisons) - 1) / 2) * step
        d, err = _values_and_errors(lookup, labels, "diff")
        ax.errorbar(d, y, xerr=err, fmt="o", ms=4, capsize=3, label=comp)
    ax.axvline(0.0, color="black", lw=0.8)
    ax.set_yticks(np.arange(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlabel("difference B - A per deal")
    ax.set_title("Variant differences")
    ax.grid(axis="x", alpha=0.3)
    ax.legend()
    return fig
