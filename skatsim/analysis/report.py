"""``skatsim report``: the answers first, then figures, tables and provenance of one or more runs, in one
HTML file (and Markdown).

The report reads the runs lazily (:func:`~skatsim.analysis.sources.scan`),
computes the tables of :mod:`~skatsim.analysis.tables`, draws them with
:mod:`~skatsim.analysis.figures` and renders them with
:mod:`~skatsim.analysis.render`. It opens with the answers: the headline
rates of every run, and for each run its differences from the baseline
(``--baseline``, else the first run) whose interval excludes zero. Runs are
compared with the baseline by the paired-analysis layer
(:mod:`~skatsim.analysis.paired`, :mod:`~skatsim.analysis.summary`): deal by
deal (and so far narrower) when the runs share seed, bots and number of
games, otherwise as independent samples. The detail follows.
"""

from __future__ import annotations

import functools
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import polars as pl
from rich.progress import MofNCompleteColumn

from .. import __version__
from ..counts import plural
from ..errors import SkatsimError
from ..run import storage
from . import figures as fg
from . import tables as tb
from .bid_values import BidValues, bid_values, source_params
from .compare import Comparison, paired_runs
from .compare_output import group_heading, pairing_statement, row_cells
from .intervals import BOOT_RANGE, LEVEL, N_BOOT, wilson
from .paired import aggregate_scan_single
from .render import Code, Figure, Report, Section, Table, Text, table, wide_table, write_report_files
from .sources import (
    Source,
    collect,
    columns,
    find_sources,
    naming_damaged,
    scan_games,
    scan_source,
    scan_sources,
    source_columns,
)
from .summary import independent_differences, row_order

READING = (
    "How to read the numbers: every rate carries a {pct} Wilson score interval and every mean a {pct} "
    "interval from the central limit theorem (mean ± z·sd/√n); error bars and bands in the figures are these "
    "intervals. Rates are percentages of the deals or of the declared games, as each table says; differences "
    "of rates are in percentage points. In the tables of differences, A and B read value ± the half-width of "
    "their interval, or value [lo, hi] where the interval is not symmetric (a Wilson interval). "
    "Seats are relative to the deal: FH leads the first trick, RH deals."
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
            f"report of {plural(self.sources, 'run')} with {plural(self.figures, 'figure')} in "
            f"{self.seconds:.1f} s: {self.html} and {self.markdown}"
        )


def pct(level: float) -> str:
    """A confidence level as a percentage: ``95%``."""
    return f"{100 * level:g}%"


def check_options(level: float, n_boot: int, out: str | os.PathLike[str] | None = None) -> None:
    """Refuse a confidence level, a bootstrap count or a report file name before any work, in one line each."""
    if not (isinstance(level, int | float) and 0.5 <= level < 1.0):
        hint = f" (for {level:g}% write {level / 100:g})" if isinstance(level, int | float) and 1 < level < 100 else ""
        raise SkatsimError(f"--level {level}: a confidence level is a fraction from 0.5 to below 1, e.g. 0.95{hint}")
    if not BOOT_RANGE[0] <= n_boot <= BOOT_RANGE[1]:
        raise SkatsimError(
            f"--bootstrap {n_boot}: the number of bootstrap resamples must be from {BOOT_RANGE[0]} to "
            f"{BOOT_RANGE[1]:,} (e.g. 1000)"
        )
    if out is not None:
        target = os.fspath(out)
        if not target.lower().endswith((".html", ".htm")):
            raise SkatsimError(f"--out {target}: the report file name must end in .html (e.g. reports/official.html)")
        if os.path.isdir(target):
            raise SkatsimError(f"--out {target}: is a folder; name the report file, e.g. {target}/report.html")
        if why := storage.unwritable_file(target):
            raise SkatsimError(f"--out {target}: cannot write the report there ({why})")


def _figure(make: Callable[[], object], caption: str) -> Figure:
    return Figure(fg.png(make()), caption)  # type: ignore[arg-type]


def _cell(value: float | None, lo: float | None, hi: float | None, rate: bool) -> str:
    """``value [lo, hi]``: percentages for rates, two decimals for points and bids."""

    def num(x: float | None) -> str:
        if x is None or (isinstance(x, float) and math.isnan(x)):
            return "-"
        return f"{100 * x:.2f}%" if rate else f"{x:,.2f}"

    return f"{num(value)} [{num(lo)}, {num(hi)}]"


# --------------------------------------------------------------------------- the runs compared


@dataclass(frozen=True)
class Difference:
    """One run B against the baseline A: the table of differences (paired or not) and, when paired, the rest."""

    a: Source
    b: Source
    means: pl.DataFrame
    comparison: Comparison | None

    @property
    def label(self) -> str:
        return f"{self.b.name} - {self.a.name}"


def choose_baseline(sources: Sequence[Source], baseline: str | None) -> Source:
    """The run every other is compared with: named by ``--baseline`` (its name, its path, or the start
    of one name), else the first."""
    if baseline is None:
        return sources[0]
    by_name = [s for s in sources if s.name == baseline]
    by_path = [s for s in sources if os.path.normpath(s.path) == os.path.normpath(baseline)]
    by_start = [s for s in sources if s.name.startswith(baseline)]
    for found in (by_name, by_path, by_start):
        if len(found) == 1:
            return found[0]
    names = ", ".join(s.name for s in sources)
    if len(by_start) > 1:
        raise SkatsimError(f"--baseline {baseline}: names several runs ({', '.join(s.name for s in by_start)})")
    raise SkatsimError(f"--baseline {baseline}: not one of the runs reported ({names})")


def pairable(a: Source, b: Source) -> bool:
    """Runs made with the same seed, bots and number of games hold the same deals: compare them deal by deal."""
    ma, mb = a.manifest, b.manifest
    return ma is not None and mb is not None and (ma.seed, ma.bots, ma.games) == (mb.seed, mb.bots, mb.games)


def unpaired_differences(a: Source, b: Source, names: Sequence[str], level: float) -> pl.DataFrame:
    """Differences between two runs that hold different deals, as independent samples (unpaired intervals)."""
    lfa, lfb = scan_source(a, names), scan_source(b, names)
    cols_a, cols_b = columns(lfa), columns(lfb)
    games = [collect(lf.select(pl.col("game_id").max())).item() for lf in (lfa, lfb)]
    agg_a = aggregate_scan_single(functools.partial(scan_games, a, names), int(games[0] or 0) + 1, cols_b)
    agg_b = aggregate_scan_single(functools.partial(scan_games, b, names), int(games[1] or 0) + 1, cols_a)
    return independent_differences(agg_a, agg_b, level)


def compare_with_baseline(sources: Sequence[Source], base: Source, level: float, n_boot: int) -> list[Difference]:
    """Every run against ``base``, in the order given: paired where they hold the same deals."""
    names = [s.name for s in sources]
    out = []
    for other in sources:
        if other is base:
            continue
        if pairable(base, other):
            comp = paired_runs(base, other, names, level, n_boot)
            out.append(Difference(base, other, comp.means, comp))
        else:
            out.append(Difference(base, other, unpaired_differences(base, other, names, level), None))
    return out


def _diff_rows(frame: pl.DataFrame, paired: bool) -> list[list[str]]:
    """Rows ``group (unit), metric, A, B, B - A [interval]`` (and the narrowing when paired)."""
    rows = []
    for r in frame.iter_rows(named=True):
        a, b, diff, narrow = row_cells(r)
        rows.append([group_heading(r["group"], r["unit"]), r["label"], a, b, diff] + ([narrow] if paired else []))
    return rows


# --------------------------------------------------------------------------- sections


#: Headline rows of a house rule, and the column a run that plays the rule has: a run without it reads
#: ``-`` there, not a Kontra rate of 0%.
RULE_ROWS = {"Ramsch": "ramsch_loser", "Kontra": "kontra_level"}


def answers_section(
    lf: pl.LazyFrame,
    base: Source,
    differences: Sequence[Difference],
    level: float,
    have: dict[str, set[str]] | None = None,
) -> Section:
    """The answers, first: the headline rates of every run, and each run's significant differences from the baseline.

    ``have`` maps each source to its own columns: a house rule's row is ``-`` for the runs without it."""
    rates = tb.headline_rates(lf, level)
    sources = [str(s) for s in rates["source"].unique(maintain_order=True)]
    rows = []
    for (figure, unit), part in rates.group_by(["figure", "unit"], maintain_order=True):
        cells = {
            str(r["source"]): _cell(r["value"], r["lo"], r["hi"], unit.startswith("%"))
            for r in part.iter_rows(named=True)
            if (have is None or figure not in RULE_ROWS or RULE_ROWS[figure] in have.get(str(r["source"]), set()))
            and not (figure == "reversed game" and not r["value"])  # no column says who plays it: who did
        }
        rows.append([f"{figure} ({unit})", *[cells.get(s, "-") for s in sources]])
    blocks: list[Figure | Table | Text | Code] = [
        Table(["figure (unit)", *sources], rows, f"Headline rates of each run [{pct(level)} interval]")
    ]
    if differences:
        blocks.insert(
            0,
            Text(
                f"Baseline A = {base.name}; every other run B is compared with it: deal by deal where both hold "
                "the same deals (same seed, bots and number of games), else as independent samples. Below are "
                f"the differences B - A whose {pct(level)} interval excludes zero; every difference, with its "
                "interval, is under 'Variant differences'."
            ),
        )
    tested = 0
    for d in differences:
        found = d.means.filter(pl.col("significant"))
        tested = max(tested, d.means.height)
        how = "deal by deal" if d.comparison is not None else "as independent samples"
        caption = (
            f"{d.label}: differences whose {pct(level)} interval excludes zero "
            f"({how}; {found.height} of {d.means.height})"
        )
        if found.height:
            header = ["group (unit)", "metric", f"A: {d.a.name}", f"B: {d.b.name}", "B - A [interval]"]
            blocks.append(Table(header, _diff_rows(found, paired=False), caption))
        else:
            blocks.append(Text(f"{caption}: none; every difference is zero or within the noise of these deals."))
    if differences:
        blocks.append(
            Text(
                f"About {tested} differences are tested per run: even without any real effect, one interval in "
                f"{round(1 / (1 - level)):g} would exclude zero by chance, so a lone difference near the edge of "
                "its interval is weak evidence; more deals narrow every interval."
            )
        )
    return Section("Answers", blocks)


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
    four = any(s.manifest is not None and len(s.manifest.bots) == 4 for s in sources)
    bots = "bots (FH,MH,RH of the first deal, then its dealer)" if four else "bots (FH,MH,RH)"
    header = ["run", "variant", "variant file", bots, "seed", "games", "skatsim", "finished (UTC)"]
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


NO_AUCTION = "no auction"


def _auctions(lf: pl.LazyFrame) -> int:
    """Declared games that followed an auction (a bid above 0; a Grand hand instead of a Ramsch has none)."""
    return int(collect(lf.select((tb.declared() & (pl.col("bid") > 0)).sum())).item() or 0)


def bidding_section(lf: pl.LazyFrame, level: float) -> Section:
    """Winning bids (figure and table, rare bids summed in a ``rest`` row), bids reached per seat, overbids.

    Games declared without an auction (bid 0) are counted as ``no auction``; runs without any auction
    get a sentence, not empty figures."""
    if not _auctions(lf):
        return Section(
            "Bidding",
            [Text("No game in these runs followed an auction (every deal a Ramsch or a Grand hand): no bids to show.")],
        )
    shares = tb.bid_shares(lf, level=level)
    shares = shares.with_columns(pl.col("bid").replace("0", NO_AUCTION))
    blocks: list[Figure | Table | Text | Code] = [
        _figure(
            lambda: fg.bids_figure(shares.filter(pl.col("bid") != NO_AUCTION)),
            "Final bids of declared games (rest: the rare bids, together)",
        ),
        wide_table(
            shares.with_columns(pl.when(pl.col("bid") == "rest").then(pl.lit("rest")).otherwise(pl.col("bid"))),
            "bid",
            ["source"],
            f"Share of declared games per final bid [{pct(level)} interval]; every bid is counted",
        ),
    ]
    if (shares["bid"] == NO_AUCTION).any():
        blocks.append(
            Text(
                f"{NO_AUCTION}: games declared without bidding (a Grand hand declared instead of a Ramsch); "
                "in the table, not the figure, whose bars are the other declared games."
            )
        )
    rest = shares.filter(pl.col("bid") == "rest")
    if rest.height:
        held = sorted({int(b) for text in rest["holds"].drop_nulls() for b in text.split(", ")})
        blocks.append(Text(f"rest: the bids reaching 0.2% of declared games in no run ({', '.join(map(str, held))})."))
    reached = tb.bid_reached(lf, level=level)
    if reached is not None:
        blocks.append(_figure(lambda: fg.bid_reached_figure(reached), "How far each seat bid or held"))
        keys = [18, 20, 24, 30, 36, 48, 60]
        shown = reached.filter(pl.col("bid").is_in(keys)).sort("bid", "seat", "source")
        shown = shown.with_columns((pl.col("bid").cast(pl.String) + " " + pl.col("seat")).alias("bid, seat"))
        caption = f"Share of deals in which the seat bid or held at least the bid [{pct(level)} interval]"
        blocks.append(wide_table(shown, "bid, seat", ["source"], caption))
    blocks.append(table(tb.overbid_rate(lf, level=level), "Declared games lost by overbidding", level))
    return Section("Bidding", blocks)


def bid_values_section(sources: Sequence[Source], level: float) -> Section:
    """What the hands dealt were worth in the auction (per seat) and what each winning bid brought: figures
    and tables, every value counted (rare ones in a ``rest`` row)."""
    bv = bid_values_of(sources, level)
    blocks: list[Figure | Table | Text | Code] = [
        Text(
            "A seat's hand bidding value is the highest bid its best playable game covers: how high the default "
            "bot bids with the ten cards dealt (0: no game worth bidding). It is reckoned the same way for every "
            "run and import, so the hands dealt compare; the winning bids are what the auctions reached."
        ),
        _figure(
            lambda: fg.hand_bid_values_figure(bv.hand_values), "Hand bidding values of the ten cards dealt, per seat"
        ),
        wide_table(
            bv.hand_values.sort(
                pl.col("hand_value").replace("rest", "100000").cast(pl.Int64), "seat", maintain_order=True
            ),
            "hand_value",
            ["source", "seat"],
            f"Share of deals per hand bidding value and seat [{pct(level)} interval]; every deal is counted",
        ),
    ]
    if bv.by_bid.height:
        blocks += [
            _figure(lambda: fg.bid_outcomes_figure(bv.by_bid), "What each winning bid brought the declarer"),
            _outcome_table(
                bv.by_bid,
                "bid",
                f"By winning bid: declarer's win rate, mean score, Schneider share [{pct(level)} interval]",
            ),
            _outcome_table(bv.by_seat, "seat", f"By the declarer's seat [{pct(level)} interval]"),
        ]
    else:
        blocks.append(Text("No game in these runs followed an auction: no winning bids to show."))
    for frame, what in ((bv.hand_values, "hand bidding values"), (bv.winning_bids, "winning bids")):
        held = sorted({int(v) for text in frame["holds"].drop_nulls() for v in text.split(", ")})
        if held:
            blocks.append(
                Text(f"rest ({what}): the values reaching 0.2% of their group in no run ({', '.join(map(str, held))}).")
            )
    return Section("Bid values", blocks)


def bid_values_of(sources: Sequence[Source], level: float) -> BidValues:
    """:func:`skatsim.analysis.bid_values.bid_values` of already resolved sources (each run's own variant)."""
    return bid_values(scan_sources(sources), level, params=source_params(sources))


def _outcome_table(frame: pl.DataFrame, key: str, caption: str) -> Table:
    header = ["source", key, "games", "win rate", "mean score", "Schneider"]
    rows = [
        [
            str(r["source"]),
            str(r[key]),
            f"{r['games']:,}",
            _cell(r["win_rate"], r["win_lo"], r["win_hi"], True),
            _cell(r["score_mean"], r["score_lo"], r["score_hi"], False),
            _cell(r["schneider_rate"], r["schneider_lo"], r["schneider_hi"], True),
        ]
        for r in frame.iter_rows(named=True)
    ]
    return Table(header, rows, caption)


#: Declared games a final bid needs for its point in the figure of win rates by final bid.
WIN_BY_BID_GAMES = 100


def wins_section(lf: pl.LazyFrame, level: float) -> Section:
    """Declarer win rates by game type, seat, bid and bot."""
    by_type = tb.win_rates(lf, "game_type", level)
    by_seat = tb.win_rates(lf, "declarer_seat", level)
    by_bid = tb.win_rates(lf, "bid", level)
    bids = by_bid.filter(pl.col("bid") > 0)
    blocks: list[Figure | Table | Text | Code] = [
        _figure(lambda: fg.win_rates_figure(by_type, by_seat), "Declarer win rates with Wilson intervals")
    ]
    if bids.filter(pl.col("n") >= WIN_BY_BID_GAMES).height:
        blocks.append(_figure(lambda: fg.win_by_bid_figure(by_bid, WIN_BY_BID_GAMES), "Declarer win rate by final bid"))
    elif bids.height:  # without any auction (every deal a Ramsch or a Grand hand) the Bidding section says so
        blocks.append(
            Text(
                f"Declarer win rate by final bid: no bid was the final bid of {WIN_BY_BID_GAMES} declared games or "
                "more; the win rate of every winning bid is under 'Bid values'."
            )
        )
    return Section(
        "Declarer win rates",
        [
            *blocks,
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


def scores_section(lf: pl.LazyFrame, level: float, people: Sequence[str] = ()) -> Section:
    """Expected score per seat and role, the score distribution, and players' totals over lists.

    ``people``: sources of imported games, whose players are not followed
    from deal to deal; they have no list totals.
    """
    seats = tb.seat_scores(lf, level=level)
    dist = tb.hand_value_distribution(lf, "score", level).group_by(["source", "score"]).agg(pl.col("count").sum())
    listed = lf.filter(~pl.col("source").cast(pl.String).is_in(list(people))) if people else lf
    totals = tb.list_totals(listed)
    blocks: list[Figure | Table | Text | Code] = [
        _figure(lambda: fg.seat_scores_figure(seats, dist), "Score per deal by seat, and the declarer's score"),
        table(seats, "Expected score per deal by seat", level),
        table(tb.role_scores(lf, level=level), _role_caption(lf), level),
    ]
    if totals.height:
        lengths = sorted(set(tb.list_lengths(listed).values()))
        blocks.append(
            Text(
                "Lists: a run that plays lists (Bock, tournament scoring, a four-player table) is read in its own "
                "lists; any other run in blocks of 36 consecutive deals. In both the deal passes round the table, "
                "so each total is a player's (player 0 sits in forehand in the first deal and deals the second: "
                "rearhand at three players, sitting out at four), never a seat's. Deals per list: "
                f"{', '.join(map(str, lengths))}."
            )
        )
        blocks.append(_figure(lambda: fg.list_totals_figure(totals), "A player's total over a list"))
        blocks.append(
            table(tb.list_scores(listed, level=level), "Expected total per list and player, and its spread", level)
        )
    return Section("Scores", blocks)


def _role_caption(lf: pl.LazyFrame) -> str:
    """The caption of the role table: the Ramsch losers only where a Ramsch was played."""
    if collect(lf.select((pl.col("game_type") == "ramsch").any())).item():
        return (
            "Mean score per game by role: the declarer per declared game, the Ramsch losers together per Ramsch "
            "(defenders score nothing)"
        )
    return "Mean score of the declarer per declared game (defenders score nothing)"


@dataclass(frozen=True)
class _RuleFigure:
    """One house rule's statistics in a report: the table function, the column that shows a run plays
    the rule, the table drawn and its caption, the rule's name, and the figure's (category column,
    title, x label, y label)."""

    stats: Callable[[pl.LazyFrame, float], dict[str, pl.DataFrame] | None]
    column: str
    key: str
    caption: str
    label: str
    axes: tuple[str, str, str, str]


_HOUSE_RULE_FIGURES = (
    _RuleFigure(
        tb.ramsch_stats,
        "ramsch_loser",
        "loser",
        "Ramsch loser by seat",
        "Ramsch",
        ("loser", "Who loses the Ramsch", "loser's seat", "share of Ramsch deals"),
    ),
    _RuleFigure(
        tb.kontra_stats,
        "kontra_level",
        "calls",
        "Share of declared games with each call",
        "Kontra",
        ("call", "Kontra and Re", "call", "share of declared games"),
    ),
    _RuleFigure(
        tb.bock_stats,
        "bock",
        "multiplier",
        "Share of deals per multiplier",
        "Bock",
        ("bock", "Bock multipliers", "score multiplier", "share of deals"),
    ),
)


#: What each house-rule table shows (its caption after the rule's name).
RULE_CAPTIONS = {
    ("Ramsch", "share"): "share of all deals played as a Ramsch",
    ("Ramsch", "loser"): "the loser's seat, among the Ramsch deals with one loser (none: a Durchmarsch or a tie)",
    ("Ramsch", "seat_score"): "each seat's mean score per Ramsch",
    ("Ramsch", "jungfrau"): "share of Ramsch deals with a Jungfrau (a player without a trick)",
    ("Ramsch", "durchmarsch"): "share of Ramsch deals won by a Durchmarsch (one player takes every trick)",
    ("Ramsch", "pushes"): "mean number of players who passed the skat on (schieben), per Schieberamsch",
    ("Kontra", "calls"): "share of declared games in which each call was reached",
    ("Kontra", "win_rate"): "declarer's win rate by the last call of the game",
    ("Kontra", "score"): "declarer's mean score by the last call of the game",
    ("Bock", "share"): "share of deals played under Bock (score multiplied)",
    ("Bock", "multiplier"): "share of deals per score multiplier (1: no Bock)",
    ("Bock", "abs_score"): "mean size of the declarer's score |score| per declared game, outside and under Bock",
}

#: ``kontra_level`` in words.
KONTRA_CALLS = {0: "none", 1: "kontra", 2: "re", 3: "beyond re"}


def _kontra_calls(frame: pl.DataFrame) -> pl.DataFrame:
    """A table by ``kontra_level`` keyed by the call in words (``last call``), not 0 to 3."""
    if "kontra_level" not in frame.columns:
        return frame
    words = pl.col("kontra_level").replace_strict(KONTRA_CALLS, default=None, return_dtype=pl.String)
    return frame.with_columns(words.alias("kontra_level")).rename({"kontra_level": "last call"})


def house_rules_section(lf: pl.LazyFrame, level: float, have: dict[str, set[str]] | None = None) -> Section | None:
    """Ramsch, Kontra/Re and Bock statistics of the runs that play each rule; ``None`` when none does.

    ``have`` maps each source to its own columns: a rule's statistics show
    only the sources whose tables have its column (a run without Kontra has
    no Kontra row at 0%).
    """
    blocks: list[Figure | Table | Text | Code] = []

    def playing(column: str) -> pl.LazyFrame:
        """The games of the sources whose tables have ``column`` (none: a frame without the column)."""
        if have is None:
            return lf
        names = [name for name, cols in have.items() if column in cols]
        if not names:
            return lf.select(pl.exclude(column))
        return lf.filter(pl.col("source").cast(pl.String).is_in(names))

    for rule in _HOUSE_RULE_FIGURES:
        frames = rule.stats(playing(rule.column), level)
        if frames is None:
            continue
        rates = frames[rule.key]
        blocks.append(_figure(functools.partial(fg.rates_figure, rates, *rule.axes), rule.caption))
        blocks += [
            table(_kontra_calls(frame), f"{rule.label}: {RULE_CAPTIONS.get((rule.label, name), name)}", level)
            for name, frame in frames.items()
        ]
    return Section("House rules", blocks) if blocks else None


def open_hand_section(lf: pl.LazyFrame, level: float) -> Section | None:
    """The players' results against what the cards make with perfect play by all (``simulate --open-hand``,
    ``import-iss --open-hand``): per game type, how often the declarer wins where the cards allow it and loses
    where they do not; ``None`` when no source has the open-hand columns."""
    have = columns(lf)
    if "open_hand_won" not in have:
        return None
    imported = pl.col("iss_id").is_not_null() if "iss_id" in have else pl.lit(False)
    frame = (
        lf.filter(pl.col("open_hand_won").is_not_null() & pl.col("won").is_not_null())
        .group_by("source", "game_type")
        .agg(
            pl.len().alias("games"),
            imported.any().alias("imported"),
            pl.col("open_hand_won").sum().alias("allow"),
            (pl.col("open_hand_won") & pl.col("won")).sum().alias("won_allowed"),
            (~pl.col("open_hand_won") & ~pl.col("won")).sum().alias("lost_denied"),
            (pl.col("declarer_points") - pl.col("open_hand_points")).mean().alias("points_gap"),
        )
        .sort("source", "game_type")
        .collect()
    )
    if frame.is_empty():
        return None
    rows = []
    for r in frame.iter_rows(named=True):
        games, allow = int(r["games"]), int(r["allow"])
        share = wilson(allow, games, level)
        wins = wilson(int(r["won_allowed"]), allow, level)
        losses = wilson(int(r["lost_denied"]), games - allow, level)
        gap = r["points_gap"]
        rows.append(
            [
                str(r["source"]),
                str(r["game_type"]),
                f"{games:,}",
                _cell(*share, True),
                _cell(*wins, True) if allow else "-",
                _cell(*losses, True) if games - allow else "-",
                "-" if gap is None else f"{gap:+.1f}",
            ]
        )
    # runs made with `--open-hand won` solve no points: then the points column would hold dashes only
    points = frame["points_gap"].is_not_null().any()
    header = [
        "source",
        "game type",
        "games",
        "cards win",
        "declarer wins where the cards win",
        "declarer loses where the cards lose",
        "card points, played - open hand",
    ]
    who = _players(frame["imported"])
    which = _WHICH if frame["imported"].n_unique() > 1 else ""
    last = (
        f"; the last column is the mean card points {who} play made beyond the open-hand value (none for "
        "Null, and for a run with `--open-hand won`, which solves won alone)"
        if points
        else ""
    )
    if not points:
        header, rows = header[:-1], [row[:-1] for row in rows]
    text = (
        "Every declared game solved open-handed after the discard (`simulate --open-hand`, `import-iss --open-hand`): "
        "the value when every seat sees every card and plays perfectly. 'Cards win': the share of games the declarer "
        f"wins so; the next two columns compare {who} result with it{which}. A declarer wins a game the cards lose "
        "when the defenders err, and loses one they win when he errs (with the cards hidden the open-hand line is "
        f"not always to be found){last} [{pct(level)} intervals]."
    )
    caption = f"{who[0].upper()}{who[1:]} results and the open-hand value"
    return Section("Against perfect play", [Text(text), Table(header, rows, caption)])


#: Which players a section of both simulated runs and ISS imports means (:func:`_players`).
_WHICH = " (the bots in a simulated run, people in an ISS import)"


def _players(imported: pl.Series) -> str:
    """Whose play a section of simulated runs and ISS imports (``imported``, one flag a row) describes: the
    bots', people's, or, for both, the players' (the section then says which is which)."""
    if not imported.any():
        return "the bots'"
    return "people's" if imported.all() else "the players'"


# --------------------------------------------------------------------------- differences between runs


#: Groups whose differences are points (a forest plot of their own); the others are rates.
POINT_GROUPS = ("score per seat", "score per role", "list points")


def differences_section(differences: Sequence[Difference], level: float) -> Section | None:
    """Every run against the baseline, every difference with its interval; ``None`` with one run."""
    if not differences:
        return None
    base = differences[0].a
    blocks: list[Figure | Table | Text | Code] = [
        Text(
            f"Differences B - A, A = {base.name}, B = each other run, with {pct(level)} intervals: points per deal "
            "for scores, percentage points for rates (each group says its unit)."
        )
    ]
    forest = []
    for d in differences:
        if d.comparison is not None:
            comp = d.comparison
            changes = comp.changes.drop("outcome").rename({"label": "outcome"})
            header = ["group (unit)", "metric", "A", "B", "B - A [interval]", "narrower than unpaired"]
            blocks += [
                Text(f"{d.label}: same seed, bots and games, compared deal by deal. {pairing_statement(comp)}"),
                Table(header, _diff_rows(d.means, paired=True), f"{d.label}: paired differences"),
                table(changes, f"{d.label}: deals whose outcome changed", level),
                _spread_table(comp.spread, f"{d.label}: spread, B - A with bootstrap intervals"),
            ]
        else:
            header = ["group (unit)", "metric", "A", "B", "B - A [interval]"]
            blocks += [
                Text(
                    f"{d.label}: different seeds, bots or game counts, so the runs are compared as independent samples."
                ),
                Table(header, _diff_rows(d.means, paired=False), f"{d.label}: differences (unpaired)"),
            ]
        forest.append(d.means.with_columns(pl.lit(d.label).alias("comparison")))
    diffs = pl.concat(forest, how="vertical_relaxed")
    ranks = [row_order(g, m) for g, m in diffs.select("group", "metric").iter_rows()]
    diffs = diffs.with_columns(pl.Series("_rank", [r[0] * 10**6 + r[1] * 10**3 + r[2] for r in ranks]))
    diffs = diffs.sort("_rank", maintain_order=True)  # rows in the tables' order, comparisons as given
    scores = diffs.filter(pl.col("group").is_in(POINT_GROUPS))
    named = pl.col("group") + pl.lit(": ") + pl.col("label")
    rates = diffs.filter(pl.col("share"))
    rates = rates.filter(pl.col("metric").is_in(rates.filter(pl.col("significant"))["metric"].implode()))
    figures = []
    if scores.height:
        figures.append(
            _figure(
                lambda: fg.differences_figure(scores, title="Score differences"), "Score differences per deal, B - A"
            )
        )
    if rates.height:
        in_points = rates.with_columns(named.alias("label"), *(pl.col(c) * 100 for c in ("diff", "lo", "hi")))
        figures.append(
            _figure(
                lambda: fg.differences_figure(in_points, "percentage points", "Rate differences"),
                "Rate differences B - A whose interval excludes zero in some run (percentage points)",
            )
        )
    blocks[1:1] = figures
    return Section("Variant differences", blocks)


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


# --------------------------------------------------------------------------- the report


def build_report(
    paths: Sequence[str | os.PathLike[str]],
    level: float = LEVEL,
    n_boot: int = N_BOOT,
    baseline: str | None = None,
    step: Callable[[str], None] = lambda _: None,
) -> Report:
    """Every section of the report on the runs (or imports) at ``paths``: the answers first, then the detail.

    ``baseline`` names the run the others are compared with (its name, its
    path or the start of its name; default: the first run). ``step`` is told what is worked out next
    (``BUILD_STEPS`` times: the comparisons, then each section), for a progress bar.
    """
    check_options(level, n_boot)
    sources = find_sources(paths)
    with naming_damaged(sources):
        return _build_report(sources, level, n_boot, baseline, step)


def _build_report(
    sources: list[Source], level: float, n_boot: int, baseline: str | None, step: Callable[[str], None]
) -> Report:
    """:func:`build_report` on the sources found."""
    base = choose_baseline(sources, baseline)
    lf = scan_sources(sources)
    names = ", ".join(s.name for s in sources)
    step("comparing the runs with the baseline")
    differences = compare_with_baseline(sources, base, level, n_boot)
    people = [s.name for s in sources if s.kind == "iss"]
    have = source_columns(sources)
    makers: list[tuple[str, Callable[[], Section | None]]] = [
        ("answers", lambda: answers_section(lf, base, differences, level, have)),
        ("reading", lambda: Section("Reading this report", [Text(READING.format(pct=pct(level)))])),
        ("runs", lambda: provenance_section(sources, lf)),
        ("game mix", lambda: game_mix_section(lf, level)),
        ("bidding", lambda: bidding_section(lf, level)),
        ("bid values", lambda: bid_values_section(sources, level)),
        ("declarer win rates", lambda: wins_section(lf, level)),
        ("what hands are worth", lambda: values_section(lf, level)),
        ("scores", lambda: scores_section(lf, level, people)),
        ("house rules", lambda: house_rules_section(lf, level, have)),
        ("open-hand values", lambda: open_hand_section(lf, level)),
        ("differences", lambda: differences_section(differences, level)),
    ]
    assert len(makers) + 1 == BUILD_STEPS
    sections = []
    for what, make in makers:
        step(what)
        sections.append(make())
    subtitle = f"Runs: {names}. Made by skatsim {__version__} (skatsim report)."
    if differences:
        subtitle += f" Baseline: {base.name}."
    return Report(f"skatsim report: {names}", subtitle, [s for s in sections if s is not None])


#: How often :func:`build_report` calls its ``step``: the comparisons and each of twelve sections.
BUILD_STEPS = 13


def write_report(
    paths: Sequence[str | os.PathLike[str]],
    out: str | os.PathLike[str],
    level: float = LEVEL,
    n_boot: int = N_BOOT,
    baseline: str | None = None,
    progress: bool = False,
) -> ReportResult:
    """Build the report and write ``out`` (HTML), the Markdown beside it and its figure folder.

    ``progress``: a bar on stderr (on a terminal) naming the part being worked out, of ``BUILD_STEPS``
    and the writing: a report of millions of deals per run takes seconds per run."""
    from ..run.runner import stderr_progress

    start = time.perf_counter()
    check_options(level, n_boot, out)
    with stderr_progress(progress, MofNCompleteColumn()) as bar:
        task = bar.add_task("report", total=BUILD_STEPS + 1)

        begun = 0

        def step(what: str) -> None:
            nonlocal begun
            bar.update(task, completed=begun, description=f"report: {what}")
            begun += 1

        report = build_report(paths, level, n_boot, baseline, step)
        step("writing the files")
        html_path, md_path = write_report_files(report, out)
        bar.update(task, completed=begun)
    n_figures = sum(isinstance(b, Figure) for s in report.sections for b in s.blocks)
    runs = next(s for s in report.sections if s.title == "Runs")
    n_sources = len(runs.blocks[0].rows)  # type: ignore[union-attr]
    return ReportResult(str(html_path), str(md_path), n_sources, n_figures, time.perf_counter() - start)
