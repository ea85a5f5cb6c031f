"""Matplotlib figures of the analysis tables, drawn without pyplot (no GUI backend, no global state).

Every function takes tables from :mod:`skatsim.analysis.tables` (or
:mod:`~skatsim.analysis.summary`) and returns a ``Figure``; intervals are
drawn as error bars or bands, so a reader sees at once what is noise.
:func:`png` turns a figure into PNG bytes for the reports.

Conventions, the same in every figure: rates are drawn as percentages, as
the tables print them; every axis says what it counts and in which unit;
axes fit the data drawn; bars stand on a linear axis (a bar's length is
its value), and log scales carry points and lines only; each source keeps
its colour, marker and line style, so lines that coincide stay visible
(and the legend says which coincide); a legend appears only when a series
with a label was drawn.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Sequence

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import Formatter, FuncFormatter

#: Figure width in inches and resolution: readable in an 1100-pixel page column.
WIDTH = 10.0
DPI = 90
#: Per source, in order: marker and line style (colours follow matplotlib's cycle).
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*", "h", "d")
LINESTYLES = ("-", "--", "-.", ":")
#: Bid values labelled on bid axes (those inside the data are used), far enough apart on a log axis.
BID_TICKS = (18, 24, 30, 36, 48, 60, 72, 96, 120, 168, 264)


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    return buf.getvalue()


def _sources(frame: pl.DataFrame) -> list[str]:
    return [str(s) for s in frame["source"].unique(maintain_order=True)]


def _style(i: int) -> dict[str, object]:
    """Marker and line style of the ``i``-th source: distinct, so coinciding lines stay visible."""
    return {"marker": MARKERS[i % len(MARKERS)], "linestyle": LINESTYLES[i % len(LINESTYLES)]}


def _percent(x: float, _pos: object = None) -> str:
    """A fraction as a percentage tick label with the digits it needs: 50%, 2.5%, 0.01%."""
    value = 100.0 * x
    if abs(value - round(value)) < 1e-9 * max(1.0, abs(value)):
        return f"{value:.0f}%"  # 0%, 50%, 100%
    if abs(value) >= 10:
        return f"{value:.4g}%"  # 12.5%, not 12% (ticks at 2.5% steps)
    return f"{value:.2g}%" if abs(value) < 1 else f"{value:.3g}%"


def percent_axis(ax: Axes, axis: str = "y") -> None:
    """Tick labels of a rate axis (values are fractions) as percentages, like the tables."""
    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_formatter(FuncFormatter(_percent))
    if target.get_scale() == "log":  # one spanning less than a decade labels minor ticks too: in percent
        target.set_minor_formatter(_MinorPercent(target.get_minor_formatter()))


class _MinorPercent(Formatter):
    """The minor tick labels a log axis chooses (``inner`` says which), as percentages: 6%, not 6x10^-2."""

    def __init__(self, inner: Formatter) -> None:
        self.inner = inner

    def set_axis(self, axis: object) -> None:
        super().set_axis(axis)  # type: ignore[arg-type]
        self.inner.set_axis(axis)  # type: ignore[arg-type]

    def set_locs(self, locs: list[float]) -> None:
        self.inner.set_locs(locs)

    def __call__(self, x: float, pos: int | None = None) -> str:
        return _percent(x) if self.inner(x, pos) else ""


def legend(ax: Axes, **kwargs: object) -> None:
    """A legend for the series drawn with a label; none when nothing labelled was drawn."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        ax.legend(handles, labels, **kwargs)  # type: ignore[call-overload]


def legend_below(fig: Figure, ax: Axes) -> None:
    """One legend for the whole figure, below the panels, where it hides no bar (none if nothing is labelled)."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        fits = max(1, 110 // (max(len(label) for label in labels) + 8))  # entries side by side in the width
        ncols = min(len(labels), fits)
        # the legend's rows get room of their own: the panels keep their height, their labels their place
        fig.set_figheight(fig.get_figheight() + 0.24 * -(-len(labels) // ncols))
        fig.legend(handles, labels, loc="outside lower center", ncols=ncols)


def coincide_labels(series: dict[str, tuple[np.ndarray, np.ndarray]]) -> dict[str, str]:
    """Legend labels that say which sources draw exactly the same line (``b (coincides with a)``)."""
    labels: dict[str, str] = {}
    names = list(series)
    for i, name in enumerate(names):
        x, y = series[name]
        same = [
            other
            for other in names[:i]
            if series[other][0].shape == x.shape
            and np.array_equal(series[other][0], x)
            and np.allclose(series[other][1], y, equal_nan=True, rtol=0, atol=1e-12)
        ]
        labels[name] = f"{name} (coincides with {same[0]})" if same else name
    return labels


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
        hatch = "///" if i >= 10 else None  # matplotlib's ten colours repeat: the eleventh source on is hatched
        ax.bar(x + (i - (len(sources) - 1) / 2) * width, values, width, yerr=err, capsize=2, label=source, hatch=hatch)
    ax.set_xticks(x, [str(c) for c in cats])
    ax.set_xlim(-0.6, len(cats) - 0.4)
    ax.grid(axis="y", alpha=0.3)


def _new(rows: int = 1, cols: int = 1, height: float = 3.6) -> tuple[Figure, np.ndarray]:
    fig = Figure(figsize=(WIDTH, height * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    return fig, axes.ravel()


def _slant_if_crowded(ax: Axes, categories: int, fits: int = 6) -> None:
    """Slant the category labels of a half-width panel with more than ``fits`` of them: side by side,
    ``diamonds`` and ``hearts`` run together."""
    if categories > fits:
        ax.tick_params(axis="x", labelrotation=25)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
            label.set_rotation_mode("anchor")


def _types(frame: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """A table keyed by ``game_type`` with the type as text, and the types in their order."""
    order = [str(t) for t in frame["game_type"].cast(pl.String).unique(maintain_order=True)]
    return frame.with_columns(pl.col("game_type").cast(pl.String)), order


def _bid_axis(ax: Axes, bids: np.ndarray) -> None:
    """A log bid axis fitted to ``bids``, labelled with the usual bid values inside that range."""
    bids = bids[bids > 0]  # a log axis holds no bid 0 (a game declared without an auction)
    low, high = (float(bids.min()), float(bids.max())) if bids.size else (18.0, 24.0)
    if high <= low:
        high = low + 1.0
    ax.set_xscale("log")
    ax.minorticks_off()
    ticks = [t for t in BID_TICKS if low <= t <= high] or [int(low)]
    if high / ticks[-1] >= 1.2:  # the highest bid, unless a labelled value is close by
        ticks.append(int(high))
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.set_xlim(low / 1.04, high * 1.04)


def _rate_bars(
    frame: pl.DataFrame,
    category: str,
    order: Sequence[object] | None,
    title: str,
    xlabel: str,
    ylabel: str,
    height: float = 3.6,
) -> Figure:
    """One panel of grouped bars of ``rate`` per ``category`` (in ``order``), in percent, with a legend."""
    fig, (ax,) = _new(height=height)
    grouped_bars(ax, frame, category, "rate", order)
    percent_axis(ax)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    legend_below(fig, ax)  # inside, it would cover a bar
    return fig


def game_mix_figure(mix: pl.DataFrame) -> Figure:
    """Share of deals per game type, per source, with Wilson intervals."""
    frame, order = _types(mix)
    return _rate_bars(
        frame, "game_type", order, "Game mix", "game type (passed: all three passed)", "share of deals (%)"
    )


def bids_figure(shares: pl.DataFrame) -> Figure:
    """Share of declared games per final bid (:func:`~skatsim.analysis.tables.bid_shares`: rare bids as ``rest``)."""
    order = [str(b) for b in shares["bid"].unique(maintain_order=True)]
    order = sorted((b for b in order if b != "rest"), key=int) + (["rest"] if "rest" in order else [])
    return _rate_bars(
        shares,
        "bid",
        order,
        "Winning bids",
        "final bid (rest: the bids that reach 0.2% of games in no run, together)",
        "share of declared games (%)",
    )


def bid_reached_figure(reached: pl.DataFrame) -> Figure:
    """Per seat: share of deals in which the seat bid or held at least each value, with Wilson bands."""
    fig, axes = _new(1, 3, height=3.4)
    bids = reached.filter(pl.col("count") > 0)["bid"].to_numpy()
    for ax, seat in zip(axes, ("FH", "MH", "RH"), strict=True):
        part = reached.filter(pl.col("seat") == seat)
        series = {}
        for source in _sources(reached):
            rows = part.filter((pl.col("source") == source) & (pl.col("count") > 0)).sort("bid")
            series[source] = (rows["bid"].to_numpy(), rows["rate"].to_numpy())
        labels = coincide_labels(series)
        for i, source in enumerate(series):
            rows = part.filter((pl.col("source") == source) & (pl.col("count") > 0)).sort("bid")
            x = rows["bid"].to_numpy()
            ax.step(x, rows["rate"].to_numpy(), where="post", ms=3, label=labels[source], **_style(i))
            ax.fill_between(x, rows["lo"].to_numpy(), rows["hi"].to_numpy(), step="post", alpha=0.2)
        _bid_axis(ax, bids)
        percent_axis(ax)
        ax.set_title(f"{seat}: bid or held at least")
        ax.set_xlabel("bid value (log scale)")
        ax.set_ylabel("share of deals (%)")
        ax.grid(alpha=0.3)
    legend_below(fig, axes[0])
    return fig


def win_rates_figure(by_type: pl.DataFrame, by_seat: pl.DataFrame) -> Figure:
    """Declarer win rates by game type and by seat, with Wilson intervals."""
    fig, axes = _new(1, 2)
    frame, order = _types(by_type)
    grouped_bars(axes[0], frame, "game_type", "rate", order)
    _slant_if_crowded(axes[0], len(order))
    grouped_bars(axes[1], by_seat, "declarer_seat", "rate", ["FH", "MH", "RH"])
    for ax, title, xlabel in zip(
        axes, ("by game type", "by declarer's seat"), ("game type", "declarer's seat"), strict=True
    ):
        ax.set_ylim(0, 1)
        percent_axis(ax)
        ax.set_title(f"Declarer win rate {title}")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("declared games won (%)")
    legend_below(fig, axes[0])
    return fig


def win_by_bid_figure(by_bid: pl.DataFrame, min_games: int = 100) -> Figure:
    """Declarer win rate by final bid (bids with at least ``min_games`` games), with Wilson intervals.

    Games declared without an auction (bid 0: a Grand hand instead of a Ramsch) have no final bid and
    no place on the log bid axis: they are left out."""
    fig, (ax,) = _new()
    kept = by_bid.filter((pl.col("n") >= min_games) & (pl.col("bid") > 0))
    series = {}
    for source in _sources(kept):  # a source without a bid drawn is not in the legend
        rows = kept.filter(pl.col("source") == source).sort("bid")
        series[source] = (rows["bid"].to_numpy(), rows["rate"].to_numpy())
    labels = coincide_labels(series)
    for i, source in enumerate(series):
        rows = kept.filter(pl.col("source") == source).sort("bid")
        err = np.vstack([rows["rate"] - rows["lo"], rows["hi"] - rows["rate"]]).clip(min=0.0)
        x = rows["bid"].to_numpy()
        ax.errorbar(x, rows["rate"].to_numpy(), yerr=err, ms=4, capsize=2, label=labels[source], **_style(i))
    _bid_axis(ax, kept["bid"].to_numpy())
    percent_axis(ax)
    ax.set_xlabel("final bid (log scale)")
    ax.set_ylabel("declared games won (%)")
    ax.set_title(f"Declarer win rate by final bid (bids with at least {min_games} games)")
    ax.grid(alpha=0.3)
    legend_below(fig, ax)
    return fig


def hand_values_figure(values: pl.DataFrame, scores: pl.DataFrame) -> Figure:
    """Mean game value and mean score of declared games per game type, with CLT intervals."""
    fig, axes = _new(1, 2)
    for ax, frame, title in zip(axes, (values, scores), ("game value", "declarer's score"), strict=True):
        typed, order = _types(frame)
        grouped_bars(ax, typed, "game_type", "mean", order)
        _slant_if_crowded(ax, len(order))
        ax.axhline(0.0, color="black", lw=0.6)
        ax.set_title(f"Mean {title} per declared game")
        ax.set_xlabel("game type")
        ax.set_ylabel("points per declared game")
    legend_below(fig, axes[0])
    return fig


def seat_scores_figure(seats: pl.DataFrame, scores: pl.DataFrame) -> Figure:
    """Expected score per deal by seat (CLT intervals) and the distribution of the declarer's score.

    ``scores`` holds ``source``, ``score`` and ``count``. A score takes
    scattered values (multiples of the base values, doubled when lost), so
    the distribution is drawn as one point per value that occurs, on a log
    axis to show the rare large scores: no bins merge or split values.
    """
    fig, axes = _new(1, 2)
    grouped_bars(axes[0], seats, "seat", "mean", ["FH", "MH", "RH"])
    axes[0].axhline(0.0, color="black", lw=0.6)
    axes[0].set_title("Expected score per deal by seat")
    axes[0].set_xlabel("seat")
    axes[0].set_ylabel("points per deal")
    ax = axes[1]
    series = {}
    present = set(_sources(scores))
    for source in [s for s in _sources(seats) if s in present]:  # the bars' order, so the colours match
        rows = scores.filter(pl.col("source") == source).sort("score")
        total = max(1, int(rows["count"].sum()))
        series[source] = (rows["score"].to_numpy(), rows["count"].to_numpy() / total)
    labels = coincide_labels(series)
    for i, (source, (x, share)) in enumerate(series.items()):
        ax.plot(x, share, ls="none", marker=MARKERS[i % len(MARKERS)], ms=4, mfc="none", mew=1.0, label=labels[source])
    ax.set_yscale("log")
    percent_axis(ax)
    ax.set_xlabel("declarer's score (points; one point per score value)")
    ax.set_ylabel("share of declared games (%, log scale)")
    ax.set_title("Distribution of the declarer's score")
    ax.grid(alpha=0.3)
    legend_below(fig, ax)  # the markers' legend, with any coinciding sources named; colours match the bars
    return fig


def list_totals_figure(totals: pl.DataFrame, bins: int = 40) -> Figure:
    """Distribution of a player's total over a list (every player of every list), per source.

    ``totals`` is :func:`~skatsim.analysis.tables.list_totals`; a source
    with list points (tournament scoring) is drawn in list points, the
    others in scores, as the legend says.
    """
    fig, (ax,) = _new()
    values = totals["total"].to_numpy()
    edges = np.histogram_bin_edges(values, bins=bins) if values.size else np.array([0.0, 1.0])
    for i, source in enumerate(_sources(totals)):
        part = totals.filter(pl.col("source") == source)
        data = part["total"].to_numpy()
        lists = part["list"].n_unique()
        measure = "list points" if (part["measure"] == "list_points").any() else "score"
        weights = np.full(data.size, 1.0 / max(1, data.size))
        label = f"{source}: {measure} ({lists:,} lists)"
        ax.hist(
            data, bins=edges, weights=weights, histtype="step", lw=1.4, label=label, linestyle=_style(i)["linestyle"]
        )
    percent_axis(ax)
    ax.set_xlabel("a player's total over a list (points, or list points where kept)")
    ax.set_ylabel("share of players' lists (%)")
    ax.set_title("Spread of list totals")
    ax.grid(alpha=0.3)
    legend_below(fig, ax)  # inside, it would cover the histograms
    return fig


def rates_figure(frame: pl.DataFrame, category: str, title: str, xlabel: str = "", ylabel: str = "share") -> Figure:
    """Generic grouped bars of a rate table over ``category`` (house-rule statistics), in percent."""
    frame = frame.with_columns(pl.col(category).cast(pl.String))
    return _rate_bars(frame, category, None, title, xlabel or category, f"{ylabel} (%)", height=3.2)


def differences_figure(
    diffs: pl.DataFrame, unit: str = "points per deal", title: str = "Variant differences"
) -> Figure:
    """Forest plot: ``B - A`` with intervals per metric (rows) for each comparison (colours and markers).

    ``diffs`` holds ``label``, ``diff``, ``lo``, ``hi`` and ``comparison``;
    ``unit`` names the x axis (values as given: percentage points are
    multiplied by 100 by the caller).
    """
    labels = list(diffs["label"].unique(maintain_order=True))
    comparisons = list(diffs["comparison"].unique(maintain_order=True))
    height = 0.42 * max(1, len(labels)) * max(1, len(comparisons)) ** 0.5 + 1.4
    fig = Figure(figsize=(WIDTH, height), layout="constrained")
    ax = fig.subplots()
    step = 0.8 / max(1, len(comparisons))
    for i, comp in enumerate(comparisons):
        part = diffs.filter(pl.col("comparison") == comp)
        lookup = {r["label"]: r for r in part.iter_rows(named=True)}
        y = np.arange(len(labels)) + (i - (len(comparisons) - 1) / 2) * step
        d, err = _values_and_errors(lookup, labels, "diff")
        ax.errorbar(d, y, xerr=err, fmt=MARKERS[i % len(MARKERS)], ms=4, capsize=3, label=str(comp))
    ax.axvline(0.0, color="black", lw=0.8)
    ax.set_yticks(np.arange(len(labels)), labels)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.set_xlabel(f"difference B - A ({unit})")
    if height > 8:  # a tall plot: its scale at the top as well, where the reader starts
        ax.tick_params(axis="x", labeltop=True)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    legend_below(fig, ax)
    return fig


def _value_order(frame: pl.DataFrame, column: str) -> list[str]:
    """The values of a text column holding numbers and ``rest``: by number, ``rest`` last."""
    values = [str(v) for v in frame[column].unique(maintain_order=True)]
    return sorted((v for v in values if v != "rest"), key=int) + (["rest"] if "rest" in values else [])


def hand_bid_values_figure(hand_values: pl.DataFrame) -> Figure:
    """Per seat: the share of deals in which the seat's ten cards were worth each bid value
    (:func:`skatsim.analysis.bid_values.bid_values`; rest: the rare values). The share worth no bid is in
    each panel's title, not a bar: at more than half of the deals it would flatten the others."""
    fig, axes = _new(3, 1, height=2.6)
    order = [v for v in _value_order(hand_values, "hand_value") if str(v) != "0"]
    for ax, seat in zip(axes, ("FH", "MH", "RH"), strict=True):
        mine = hand_values.filter(pl.col("seat") == seat)
        # the hands without a game worth bidding (more than half) would dwarf every other bar: said in the title
        none = mine.filter(pl.col("hand_value") == "0")
        shares = ", ".join(f"{source} {rate:.1%}" for source, rate in none.select("source", "rate").iter_rows())
        grouped_bars(ax, mine.filter(pl.col("hand_value") != "0"), "hand_value", "rate", order)
        percent_axis(ax)
        title = f"{seat}: hand bidding value of the ten cards dealt (no game worth bidding: {shares or '-'})"
        ax.set_title(textwrap.fill(title, 110))  # one line would widen the figure past the page with many runs
        ax.set_ylabel("share of deals (%)")
        ax.tick_params(axis="x", labelsize=8)
    axes[-1].set_xlabel("hand bidding value (rest: the rare values, together)")
    legend_below(fig, axes[-1])
    return fig


def bid_outcomes_figure(by_bid: pl.DataFrame, min_games: int = 30) -> Figure:
    """By winning bid: the declarer's win rate, mean score and Schneider share, with their intervals.

    A bid a source declared fewer than ``min_games`` games at has no bar there (its table row keeps it):
    a mean score over a handful of games carries an interval of hundreds of points, which set the scale
    and flattened every other bar."""
    fig, axes = _new(3, 1, height=2.6)
    order = _value_order(by_bid, "bid")
    by_bid = by_bid.filter(pl.col("games") >= min_games)
    panels = (
        ("win", "declared games won (%)", "Declarer win rate by winning bid", True),
        ("score", "declarer's score (points)", "Declarer's mean score by winning bid", False),
        ("schneider", "declared games with Schneider (%)", "Schneider share by winning bid", True),
    )
    for ax, (prefix, ylabel, title, rate) in zip(axes, panels, strict=True):
        value = f"{prefix}_rate" if rate else f"{prefix}_mean"
        frame = by_bid.select(
            "source",
            "bid",
            pl.col(value).alias("v"),
            pl.col(f"{prefix}_lo").alias("lo"),
            pl.col(f"{prefix}_hi").alias("hi"),
        )
        grouped_bars(ax, frame, "bid", "v", order)
        if rate:
            percent_axis(ax)
        else:
            ax.axhline(0.0, color="black", lw=0.6)
        ax.set_title(title)
        ax.set_ylabel(ylabel)
        ax.tick_params(axis="x", labelsize=8)
    axes[-1].set_xlabel(f"winning bid (rest: the rare bids, together; bars of {min_games} declared games or more)")
    legend_below(fig, axes[-1])
    return fig
