"""``skatsim report``: figures, tables and provenance of one or more runs in one HTML file (and Markdown).

The report reads the runs lazily (:func:`~skatsim.analysis.sources.scan`),
computes the tables of :mod:`~skatsim.analysis.tables`, draws them with
:mod:`~skatsim.analysis.figures` and renders them with
:mod:`~skatsim.analysis.render`. With several runs it adds their
differences against the first: paired deal by deal (and so far narrower)
when the runs share seed, bots and number of games, otherwise as
independent samples.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import polars as pl

from .. import __version__
from . import figures as fg
from . import tables as tb
from .compare import CHUNK, Comparison, VariantInfo, summarise
from .compare_output import fmt_num, fmt_share, pairing_statement
from .intervals import LEVEL, N_BOOT, z_value
from .paired import METRICS, Aggregate, aggregate_pair, applicable
from .render import Code, Figure, Report, Section, Table, Text, table, wide_table, write_report_files
from .sources import Source, collect, columns, find_sources, scan_source, scan_sources

READING = (
    "How to read the numbers: every rate carries a {pct} Wilson score interval and every mean a {pct} "
    "interval from the central limit theorem (mean ± z·sd/√n); error bars and bands in the figures are these "
    "intervals. Seats are relative to the deal: FH leads the first trick, RH deals."
)


@dataclass(frozen=True)
class ReportResult:
    """Where the report went and how long it took."""

    html: str
    markdown: str
    sources: int
    figures: int
    seconds: float

    def summary(self) -> str:
        """One line for the user."""
        return (
            f"report of {self.sources} run{'s' if self.sources != 1 else ''} with {self.figures} figures in "
            f"{self.seconds:.1f} s: {self.html} and {self.markdown}"
        )


def pct(level: float) -> str:
    """A confidence level as a percentage: ``95%``."""
    return f"{100 * level:g}%"


def _figure(make: Callable[[], object], caption: str) -> Figure:
    return Figure(fg.png(make()), caption)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- sections


def provenance_section(sources: Sequence[Source], lf: pl.LazyFrame) -> Section:
    """What made each run: variant file and text, bots, seed, games, skatsim version."""
    counts = collect(lf.group_by("source").len()).rows_by_key("source", unique=True)
    rows, blocks = [], []
    for s in sources:
        m = s.manifest
        games = counts.get(s.name, (0,))[0]
        if m is not None:
            finished = (m.finished or "")[:19].replace("T", " ")
            rows.append(
                [
                    s.name,
                    m.variant_name,
                    m.variant_path,
                    ",".join(m.bots),
                    str(m.seed),
                    f"{m.games:,}",
                    m.skatsim_version,
                    finished,
                ]
            )
            blocks.append(Code(m.variant_text, f"{s.name}: variant file {m.variant_path} as simulated"))
        else:
            rows.append(
                [
                    s.name,
                    "(imported)" if s.kind == "iss" else "-",
                    s.path,
                    "people" if s.kind == "iss" else "-",
                    "-",
                    f"{games:,}",
                    "-",
                    "-",
                ]
            )
    header = ["run", "variant", "variant file", "bots (FH,MH,RH)", "seed", "games", "skatsim", "finished (UTC)"]
    return Section("Runs", [Table(header, rows, "Provenance, from each run's manifest.json"), *blocks])


def game_mix_section(lf: pl.LazyFrame, level: float) -> Section:
    """Game types among all deals (with passed deals) and among declared games."""
    mix = tb.game_mix(lf, level=level)
    played = tb.game_mix(lf, played_only=True, level=level)
    return Section(
        "Game mix",
        [
            _figure(lambda: fg.game_mix_figure(mix), "Share of all deals per game type (passed: all three passed)"),
            wide_table(
                played, "game_type", ["source"], f"Share of declared games per game type [{pct(level)} interval]"
            ),
        ],
    )


def bidding_section(lf: pl.LazyFrame, level: float) -> Section:
    """Winning bids, bids reached per seat, overbids."""
    bids = tb.bid_distribution(lf, level=level)
    blocks: list[Figure | Table | Text | Code] = [
        _figure(lambda: fg.bids_figure(bids), "Final bids of declared games (log scale)")
    ]
    reached = tb.bid_reached(lf, level=level)
    if reached is not None:
        blocks.append(_figure(lambda: fg.bid_reached_figure(reached), "How far each seat bid or held"))
        keys = [18, 20, 24, 30, 36, 48, 60]
        shown = reached.filter(pl.col("bid").is_in(keys)).sort("bid", "source", "seat")
        caption = f"Share of deals in which the seat bid or held at least the bid [{pct(level)} interval]"
        blocks.append(wide_table(shown, "bid", ["source", "seat"], caption))
    blocks.append(table(tb.overbid_rate(lf, level=level), "Declared games lost by overbidding", level))
    return Section("Bidding", blocks)


def wins_section(lf: pl.LazyFrame, level: float) -> Section:
    """Declarer win rates by game type, seat, bid and bot."""
    by_type = tb.win_rates(lf, "game_type", level)
    by_seat = tb.win_rates(lf, "declarer_seat", level)
    by_bid = tb.win_rates(lf, "bid", level)
    return Section(
        "Declarer win rates",
        [
            _figure(lambda: fg.win_rates_figure(by_type, by_seat), "Declarer win rates with Wilson intervals"),
            _figure(lambda: fg.win_by_bid_figure(by_bid), "Declarer win rate by final bid"),
            wide_table(by_type, "game_type", ["source"], f"Declarer win rate by game type [{pct(level)} interval]"),
            table(tb.win_rates(lf, "declarer_bot", level), "Declarer win rate by the declarer's bot", level),
        ],
    )


def values_section(lf: pl.LazyFrame, level: float) -> Section:
    """What declared hands were worth: game value and score by game type."""
    values = tb.hand_values(lf, "game_value", level=level)
    scores = tb.hand_values(lf, "score", level=level)
    return Section(
        "What hands are worth",
        [
            _figure(
                lambda: fg.hand_values_figure(values, scores), "Mean game value and declarer's score per game type"
            ),
            table(values, "Game value charged per declared game", level),
            table(scores, "Declarer's score per declared game", level),
        ],
    )


def scores_section(lf: pl.LazyFrame, level: float) -> Section:
    """Expected score per seat and role, the score distribution, and totals over 36-deal lists."""
    seats = tb.seat_scores(lf, level=level)
    dist = tb.hand_value_distribution(lf, "score", level).group_by(["source", "score"]).agg(pl.col("count").sum())
    totals = tb.list_totals(lf)
    blocks: list[Figure | Table | Text | Code] = [
        _figure(lambda: fg.seat_scores_figure(seats, dist), "Score per deal by seat, and the declarer's score"),
        table(seats, "Expected score per deal by seat", level),
        table(tb.role_scores(lf, level=level), "Mean score per declared game by role", level),
    ]
    if totals.height:
        blocks.append(_figure(lambda: fg.list_totals_figure(totals), "Forehand's total over 36-deal lists"))
        blocks.append(table(tb.list_scores(lf, level=level), "Expected total per 36-deal list, and its spread", level))
    return Section("Scores", blocks)


def house_rules_section(lf: pl.LazyFrame, level: float) -> Section | None:
    """Ramsch, Kontra/Re and Bock statistics, for the runs whose columns have them; ``None`` when none do."""
    blocks: list[Figure | Table | Text | Code] = []
    ramsch = tb.ramsch_stats(lf, level)
    if ramsch is not None:
        loser = ramsch["loser"]
        blocks.append(_figure(lambda: fg.rates_figure(loser, "loser", "Who loses the Ramsch"), "Ramsch loser by seat"))
        blocks += [table(frame, f"Ramsch: {name.replace('_', ' ')}", level) for name, frame in ramsch.items()]
    kontra = tb.kontra_stats(lf, level)
    if kontra is not None:
        calls = kontra["calls"]
        blocks.append(_figure(lambda: fg.rates_figure(calls, "call", "Kontra and Re"), "Share of games with each call"))
        blocks += [table(frame, f"Kontra: {name.replace('_', ' ')}", level) for name, frame in kontra.items()]
    bock = tb.bock_stats(lf, level)
    if bock is not None:
        mult = bock["multiplier"]
        blocks.append(
            _figure(lambda: fg.rates_figure(mult, "bock", "Bock multipliers"), "Share of deals per multiplier")
        )
        blocks += [table(frame, f"Bock: {name.replace('_', ' ')}", level) for name, frame in bock.items()]
    return Section("House rules", blocks) if blocks else None


# --------------------------------------------------------------------------- differences between runs


def pairable(a: Source, b: Source) -> bool:
    """Runs made with the same seed, bots and number of games hold the same deals: compare them deal by deal."""
    ma, mb = a.manifest, b.manifest
    return ma is not None and mb is not None and (ma.seed, ma.bots, ma.games) == (mb.seed, mb.bots, mb.games)


def paired_runs(a: Source, b: Source, names: Sequence[str], level: float, n_boot: int) -> Comparison:
    """Paired comparison of two runs over the same games, read in slices of game ids (memory stays bounded)."""
    assert a.manifest is not None and b.manifest is not None
    lfa, lfb = scan_source(a, names), scan_source(b, names)
    total = Aggregate()
    for first in range(0, a.manifest.games, CHUNK):
        in_slice = pl.col("game_id").is_between(first, first + CHUNK - 1)
        fa = collect(lfa.filter(in_slice).sort("game_id"))
        fb = collect(lfb.filter(in_slice).sort("game_id"))
        total = total + aggregate_pair(fa, fb)
    info = [VariantInfo(m.variant_path, m.variant_name, m.variant_text) for m in (a.manifest, b.manifest)]
    return summarise(total, info[0], info[1], a.manifest.seed, a.manifest.bots, level, n_boot)


def unpaired_differences(lf: pl.LazyFrame, a: Source, b: Source, names: Sequence[str], level: float) -> pl.DataFrame:
    """Differences of per-deal means between two independent sources (half-width z·sqrt(sa²/na + sb²/nb))."""
    cols = {s.name: set(scan_source(s, names).collect_schema().names()) for s in (a, b)}
    rows = []
    z = z_value(level)
    for metric in applicable(METRICS, cols[a.name], cols[b.name]):
        stats = []
        for s in (a, b):
            present = set(metric.needs) <= cols[s.name]
            expr = metric.expr().cast(pl.Int64).fill_null(0) if present else pl.lit(metric.absent, pl.Int64)
            part = lf.filter(pl.col("source") == s.name).select(expr.alias("v"))
            stats.append(collect(part.select(pl.col("v").mean(), pl.col("v").std().alias("sd"), pl.len())).row(0))
        (ma, sa, na), (mb, sb, nb) = stats
        half = z * math.sqrt((sa or 0.0) ** 2 / na + (sb or 0.0) ** 2 / nb)
        diff = mb - ma
        rows.append(
            {
                "group": metric.group,
                "metric": metric.name,
                "label": metric.label,
                "share": metric.share,
                "mean_a": ma,
                "mean_b": mb,
                "diff": diff,
                "lo": diff - half,
                "hi": diff + half,
            }
        )
    return pl.DataFrame(rows)


def _diff_table(frame: pl.DataFrame, caption: str, paired: bool) -> Table:
    header = ["group", "metric", "A", "B", "B - A", "interval"] + (["narrower than unpaired"] if paired else [])
    rows = []
    for r in frame.iter_rows(named=True):
        fmt = fmt_share if r["share"] else fmt_num
        row = [r["group"], r["label"], fmt(r["mean_a"]), fmt(r["mean_b"]), fmt(r["diff"], 3, True)]
        row.append(f"[{fmt(r['lo'], 3, True)}, {fmt(r['hi'], 3, True)}]")
        if paired:
            row.append("exact" if r["narrowing"] is None else f"{r['narrowing']:.1f}x")
        rows.append(row)
    return Table(header, rows, caption)


def _spread_table(frame: pl.DataFrame, caption: str) -> Table:
    header = ["metric", "statistic", "A", "B", "B - A", "bootstrap interval"]
    rows = [
        [
            r["label"],
            r["stat"],
            f"{r['a']:.2f}",
            f"{r['b']:.2f}",
            f"{r['diff']:+.2f}",
            f"[{r['lo']:+.2f}, {r['hi']:+.2f}]",
        ]
        for r in frame.iter_rows(named=True)
    ]
    return Table(header, rows, caption)


def differences_section(sources: Sequence[Source], lf: pl.LazyFrame, level: float, n_boot: int) -> Section | None:
    """Each run against the first: paired when they share seed, bots and games, else as independent samples."""
    if len(sources) < 2:
        return None
    names = [s.name for s in sources]
    base = sources[0]
    blocks: list[Figure | Table | Text | Code] = [
        Text(f"Differences B - A per deal, A = {base.name}, B = each other run, with {100 * level:g}% intervals.")
    ]
    forest = []
    for other in sources[1:]:
        label = f"{other.name} - {base.name}"
        if pairable(base, other):
            comp = paired_runs(base, other, names, level, n_boot)
            means = comp.means
            changes = comp.changes.drop("outcome").rename({"label": "outcome"})
            blocks += [
                Text(f"{label}: same seed, bots and games, compared deal by deal. {pairing_statement(comp)}"),
                _diff_table(means, f"{label}: paired differences of means per deal", paired=True),
                table(changes, f"{label}: deals whose outcome changed", level),
                _spread_table(comp.spread, f"{label}: spread, B - A with bootstrap intervals"),
            ]
        else:
            means = unpaired_differences(lf, base, other, names, level)
            blocks += [
                Text(
                    f"{label}: different seeds, bots or game counts, so the runs are compared as independent samples."
                ),
                _diff_table(means, f"{label}: differences of means per deal", paired=False),
            ]
        forest.append(
            means.select("group", "label", "diff", "lo", "hi").with_columns(pl.lit(label).alias("comparison"))
        )
    diffs = pl.concat(forest)
    scores = diffs.filter(pl.col("group").is_in(["score per seat", "score per role"]))
    rates = diffs.filter(~pl.col("group").is_in(["score per seat", "score per role"]))
    blocks.insert(1, _figure(lambda: fg.differences_figure(scores), "Score differences per deal, B - A"))
    blocks.insert(2, _figure(lambda: fg.differences_figure(rates), "Differences in outcome rates per deal, B - A"))
    return Section("Variant differences", blocks)


# --------------------------------------------------------------------------- the report


def build_report(paths: Sequence[str | os.PathLike[str]], level: float = LEVEL, n_boot: int = N_BOOT) -> Report:
    """Every section of the report on the runs (or imports) at ``paths``."""
    sources = find_sources(paths)
    lf = scan_sources(sources)
    names = ", ".join(s.name for s in sources)
    sections = [
        provenance_section(sources, lf),
        Section("Reading this report", [Text(READING.format(pct=f"{100 * level:g}%"))]),
        game_mix_section(lf, level),
        bidding_section(lf, level),
        wins_section(lf, level),
        values_section(lf, level),
        scores_section(lf, level),
        house_rules_section(lf, level),
        differences_section(sources, lf, level, n_boot),
    ]
    subtitle = f"Runs: {names}. Made by skatsim {__version__} (skatsim report)."
    if "list_points_fh" not in columns(lf):
        subtitle += " Lists are blocks of 36 consecutive deals."
    return Report(f"skatsim report: {names}", subtitle, [s for s in sections if s is not None])


def write_report(
    paths: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], level: float = LEVEL, n_boot: int = N_BOOT
) -> ReportResult:
    """Build the report and write ``out`` (HTML), the Markdown beside it and its figure folder."""
    start = time.perf_counter()
    report = build_report(paths, level, n_boot)
    html_path, md_path = write_report_files(report, out)
    n_figures = sum(isinstance(b, Figure) for s in report.sections for b in s.blocks)
    n_sources = len(report.sections[0].blocks[0].rows) if report.sections else 0  # type: ignore[union-attr]
    return ReportResult(str(html_path), str(md_path), n_sources, n_figures, time.perf_counter() - start)
