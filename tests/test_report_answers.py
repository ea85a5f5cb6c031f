"""``skatsim report`` and ``skatsim compare`` as a first-time user meets them (issue 11).

Options checked before any work, the answers first, every paired row labelled
by what it is, text within 100 columns, figures with units and percentages,
no warning on stderr, Markdown links that work for paths with spaces, and a
sweep's folder reported against the baseline the user names.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from skatsim import analysis as an
from skatsim.analysis import figures as fg
from skatsim.analysis import tables as tb
from skatsim.analysis.intervals import wilson
from skatsim.analysis.paired import aggregate_pair
from skatsim.analysis.render import Report
from skatsim.analysis.report import build_report
from skatsim.analysis.summary import MIN_BID_GAMES, independent_differences, mean_differences
from skatsim.cli import main
from skatsim.frames import GAME_TYPE
from skatsim.run.runner import run_simulation
from skatsim.run.sweep import run_sweep

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "variants"
GAMES = 1440


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four runs on the same deals (seed 1): official, Kontra/Re, Ramsch and tournament lists; a folder
    name with a space holds them."""
    root = tmp_path_factory.mktemp("runs") / "my runs"
    for name in ("official", "kontra_re", "ramsch", "tournament"):
        run_simulation(str(VARIANTS / f"{name}.yaml"), GAMES, 1, str(root / name), jobs=1, progress=False)
    run_simulation(str(VARIANTS / "official.yaml"), GAMES, 2, str(root / "seed2"), jobs=1, progress=False)
    return root


def cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--level", "95"], "--level 95.0: a confidence level is a fraction from 0.5 to below 1, e.g. 0.95"),
        (["--level", "0.3"], "--level 0.3: a confidence level is a fraction"),
        (["--level", "nan"], "--level nan: a confidence level is a fraction"),
        (["--bootstrap", "0"], "--bootstrap 0: the number of bootstrap resamples must be from 10 to 100,000"),
        (["--bootstrap", "1000000000"], "--bootstrap 1000000000: the number of bootstrap resamples"),
        (["--baseline", "nope"], "--baseline nope: not one of the runs reported (official, ramsch)"),
    ],
)
def test_report_options_are_checked_before_any_work(
    runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = tmp_path / "r.html"
    code, stdout, err = cli(capsys, "report", runs / "official", runs / "ramsch", "--out", out, *args)
    assert (code, stdout) == (2, "")
    assert err.splitlines() == [f"skatsim: error: {message}"] or (
        len(err.splitlines()) == 1 and err.startswith(f"skatsim: error: {message}")
    )
    assert not out.exists()


def test_report_out_must_be_an_html_file(runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "report", runs / "official", "--out", tmp_path)
    assert code == 2
    assert (
        err
        == f"skatsim: error: --out {tmp_path}: the report file name must end in .html (e.g. reports/official.html)\n"
    )


# --------------------------------------------------------------------------- the report


@pytest.fixture(scope="module")
def report(runs: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, Path]:
    """The report of all runs against the Ramsch run, through the console script; (markdown, html, folder)."""
    out = tmp_path_factory.mktemp("report") / "with space" / "all runs.html"
    code = main(
        ["report", *(str(runs / n) for n in ("official", "kontra_re", "ramsch", "tournament", "seed2"))]
        + ["--out", str(out), "--baseline", "ramsch", "--bootstrap", "50"]
    )
    assert code == 0
    return out.with_suffix(".md").read_text(encoding="utf-8"), out.read_text(encoding="utf-8"), out.parent


def test_report_writes_nothing_on_stderr(runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No matplotlib warning (they are errors under pytest) and nothing else on stderr, runs with and
    without lists and house rules mixed."""
    code, out, err = cli(capsys, "report", runs, "--out", tmp_path / "r.html", "--bootstrap", "20")
    assert code == 0, err
    assert err == ""
    assert out.startswith("report of 5 runs with ")


def test_report_opens_with_the_answers(report: tuple[str, str, Path]) -> None:
    md, _, _ = report
    sections = re.findall(r"^## (.+)$", md, flags=re.M)
    assert sections[0] == "Answers"
    assert sections[-1] == "Variant differences"
    answers = md.split("## Answers", 1)[1].split("\n## ", 1)[0]
    assert "Baseline A = ramsch" in answers
    assert "*Headline rates of each run [95% interval]*" in answers
    for figure in ("all passed (% of deals)", "declarer wins (% of declared games)", "mean winning bid (bid value)"):
        assert f"| {figure} |" in answers
    # every other run against the baseline the user named, in the order given
    order = re.findall(r"\*(\S+) - ramsch: differences whose 95% interval excludes zero", answers)
    assert order == ["official", "kontra_re", "tournament", "seed2"]
    assert "official - ramsch: differences whose 95% interval excludes zero (deal by deal;" in answers
    assert "seed2 - ramsch: differences whose 95% interval excludes zero (as independent samples;" in answers
    # the Ramsch losses are labelled as what they are, with the same sign as in the role table
    assert "| score per role (points per deal) | Ramsch losers' scores |" in answers
    assert "defenders'" not in md


def test_report_bid_table_counts_every_bid(runs: Path, report: tuple[str, str, Path]) -> None:
    md, _, _ = report
    bidding = md.split("## Bidding", 1)[1].split("\n## ", 1)[0]
    assert "*Share of declared games per final bid [95% interval]; every bid is counted*" in bidding
    shares = tb.bid_shares(an.scan(runs / "official"))
    assert shares["count"].sum() == shares["n"][0]  # the rest row holds what is not shown: nothing dropped
    assert shares["bid"][-1] == "rest"
    assert "| rest |" in bidding


def test_report_lists_follow_players(report: tuple[str, str, Path]) -> None:
    md, _, _ = report
    scores = md.split("## Scores", 1)[1].split("\n## ", 1)[0]
    assert "| official | player 0 | score |" in scores
    assert "| tournament | player 0 | list_points |" in scores
    assert "| FH |" not in scores.split("Expected total per list")[1]
    assert not re.search(r"\| 0\.000 \| \[0\.000, 0\.000\] \| 0\.000 \|", scores)


def test_markdown_figure_links_work_for_paths_with_spaces(report: tuple[str, str, Path]) -> None:
    md, html, folder = report
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert links
    for link in links:
        assert " " not in link
        from urllib.parse import unquote

        assert (folder / unquote(link)).is_file()
    assert html.count('src="data:image/png;base64,') == len(links)


def test_house_rule_tables_show_only_the_runs_that_play_the_rule(report: tuple[str, str, Path]) -> None:
    md, _, _ = report
    house = md.split("## House rules", 1)[1].split("\n## ", 1)[0]
    kontra = house.split("*Kontra: share of declared games in which each call was reached*", 1)[1].split("\n\n*", 1)[0]
    assert "| kontra_re |" in kontra and "| official |" not in kontra
    # every table says what it shows, the calls in words
    assert "*Kontra: declarer's win rate by the last call of the game*" in house
    assert "| source | last call | count | rate |" in house and "| kontra_re | re |" in house
    assert "*Ramsch: each seat's mean score per Ramsch*" in house
    # and the headline reads '-' for the runs that play without the rule, not 0%
    answers = md.split("## Answers", 1)[1].split("\n## ", 1)[0]
    row = next(line for line in answers.splitlines() if line.startswith("| Kontra (% of declared games) |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "-" and cells[2].endswith("%]") and cells[3:] == ["-", "-", "-"]  # official, kontra_re, ...
    ramsch = next(line for line in answers.splitlines() if line.startswith("| Ramsch (% of deals) |"))
    assert [c.strip() for c in ramsch.strip("|").split("|")][1] == "-"


def test_sweep_report_against_the_named_baseline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "sweep"
    variants = [str(VARIANTS / "official.yaml"), str(VARIANTS / "pre1999.yaml")]
    run_sweep(variants, ["heuristic"], 360, 1, str(root), jobs=1, progress=False)
    out = tmp_path / "sweep.html"
    code, _, err = cli(capsys, "report", root, "--out", out, "--baseline", "pre1999", "--bootstrap", "20")
    assert code == 0, err
    md = out.with_suffix(".md").read_text(encoding="utf-8")
    assert "Baseline A = pre1999__heuristic" in md
    assert "official__heuristic - pre1999__heuristic: differences whose 95% interval excludes zero" in md


# --------------------------------------------------------------------------- compare's text


def test_compare_text_is_readable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Within 100 columns, answers first, every row named by what it is, each group with its unit."""
    args = ["compare", VARIANTS / "official.yaml", VARIANTS / "ramsch.yaml", "--games", GAMES, "--jobs", 1]
    code, out, err = cli(capsys, *args, "--bootstrap", 50, "--quiet")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 100
    first = next(i for i, line in enumerate(lines) if line.startswith("Differences whose 95% interval excludes zero"))
    assert first <= 6 and lines[first - 1] == ""  # right after the headline: the answers first
    assert "defenders" not in out
    text = "\n".join(lines)
    for heading in (
        "score per role (points per deal)",
        "game mix (% of deals; B - A in percentage points)",
        "declared games (% of declared games; B - A in percentage points)",
        "bidding (bid value)",
        "win rate by final bid (% of declared games won at that bid; B - A in percentage points)",
    ):
        assert f"\n{heading}\n" in text
    for label in (
        "Ramsch losers' scores",
        "all passed (redealt)",
        "Ramsch",
        "hand games",
        "Null hand",
        "Null ouvert",
        "Null ouvert hand",
        "Schneider",
        "Schwarz",
        "mean winning bid",
        "at bid 18",
    ):
        assert re.search(rf"^    {re.escape(label)} +", text, flags=re.M), label


def test_compare_kontra_rows(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["compare", VARIANTS / "official.yaml", VARIANTS / "kontra_re.yaml", "--games", GAMES, "--jobs", 1]
    code, out, _ = cli(capsys, *args, "--bootstrap", 20, "--quiet")
    assert code == 0
    assert "\nKontra and Re (% of declared games; B - A in percentage points)\n" in out
    assert re.search(r"^    games with Kontra +0\.00 ± 0\.00 +\d", out, flags=re.M)
    assert re.search(r"^    games with Re +0\.00 ± 0\.00 +\d", out, flags=re.M)


# --------------------------------------------------------------------------- ratios, by hand


def _frame(won: list[bool | None], bid: list[int], declarer: list[int | None]) -> pl.DataFrame:
    n = len(bid)
    return pl.DataFrame(
        {
            "game_id": list(range(n)),
            "game_type": pl.Series(["grand" if d is not None else "passed" for d in declarer], dtype=GAME_TYPE),
            "declarer": pl.Series(declarer, dtype=pl.Int8),
            "bid": pl.Series(bid, dtype=pl.Int16),
            "won": won,
            "hand": [False] * n,
            "ouvert": [False] * n,
            "schneider": [False] * n,
            "schwarz": [False] * n,
            "overbid": [False] * n,
            "score": [0] * n,
            "score_fh": [0] * n,
            "score_mh": [0] * n,
            "score_rh": [0] * n,
        }
    )


def test_ratio_interval_is_the_delta_method_on_the_deals() -> None:
    """The win rate at bid 18, paired: the interval equals the CLT interval of the per-deal influence
    values computed directly from the rows."""
    rng = np.random.default_rng(7)
    n = 400
    bid_a = rng.choice([0, 18, 20], n, p=[0.1, 0.6, 0.3])
    bid_b = np.where(rng.random(n) < 0.8, bid_a, rng.choice([0, 18, 20], n))
    won_a, won_b = rng.random(n) < 0.7, rng.random(n) < 0.75

    def frame(bids: np.ndarray, won: np.ndarray) -> pl.DataFrame:
        declarer = [0 if b else None for b in bids]
        return _frame([bool(w) if b else None for w, b in zip(won, bids, strict=True)], bids.tolist(), declarer)

    means = mean_differences(aggregate_pair(frame(bid_a, won_a), frame(bid_b, won_b)))
    row = means.filter(pl.col("metric") == "win_bid_18").row(0, named=True)
    da, db = (bid_a == 18).astype(float), (bid_b == 18).astype(float)
    xa, xb = da * won_a, db * won_b
    ra, rb = xa.sum() / da.sum(), xb.sum() / db.sum()
    u = (xb - rb * db) / db.mean() - (xa - ra * da) / da.mean()
    half = 1.959963984540054 * u.std(ddof=1) / math.sqrt(n)
    assert row["mean_a"] == pytest.approx(ra) and row["mean_b"] == pytest.approx(rb)
    assert row["lo"] == pytest.approx(rb - ra - half, rel=1e-9)
    assert row["hi"] == pytest.approx(rb - ra + half, rel=1e-9)
    assert (row["den_a"], row["den_b"]) == (int(da.sum()), int(db.sum()))
    bid = means.filter(pl.col("metric") == "bid").row(0, named=True)
    assert bid["mean_a"] == pytest.approx(bid_a[bid_a > 0].mean())
    # the same data unpaired: a rate, so Wilson on each side and Newcombe's interval for the difference
    single = independent_differences(
        aggregate_pair(frame(bid_a, won_a), frame(bid_a, won_a)),
        aggregate_pair(frame(bid_b, won_b), frame(bid_b, won_b)),
    ).filter(pl.col("metric") == "win_bid_18")
    _, la, ha = wilson(xa.sum(), da.sum())
    _, lb, hb = wilson(xb.sum(), db.sum())
    assert single["hi"][0] == pytest.approx(rb - ra + math.hypot(hb - rb, ra - la), rel=1e-9)
    assert single["lo"][0] == pytest.approx(rb - ra - math.hypot(rb - lb, ha - ra), rel=1e-9)
    # the mean winning bid is a mean: its unpaired interval is the delta method's on each side
    bid_single = independent_differences(
        aggregate_pair(frame(bid_a, won_a), frame(bid_a, won_a)),
        aggregate_pair(frame(bid_b, won_b), frame(bid_b, won_b)),
    ).filter(pl.col("metric") == "bid")
    se = [np.std(b[b > 0], ddof=1) / math.sqrt((b > 0).sum()) for b in (bid_a, bid_b)]
    half = bid_single["hi"][0] - bid_single["diff"][0]
    assert half == pytest.approx(1.959963984540054 * math.hypot(*se), rel=2e-2)


def test_rare_bids_get_no_win_rate_row() -> None:
    bids = [18] * MIN_BID_GAMES + [20] * (MIN_BID_GAMES - 1)
    frame = _frame([True] * len(bids), bids, [0] * len(bids))
    means = mean_differences(aggregate_pair(frame, frame))
    assert "win_bid_18" in means["metric"].to_list()
    assert "win_bid_20" not in means["metric"].to_list()


def test_joining_on_game_id_pairs_the_same_deals() -> None:
    a = _frame([True, False, True], [18, 20, 18], [0, 1, 2])
    b = a.reverse()  # the same deals in another order
    agg = aggregate_pair(a, b)
    assert agg.changed["any"] == 0 and agg.n == 3


# --------------------------------------------------------------------------- figures


def _every_axes(fig: Figure) -> list[Axes]:
    return [ax for ax in fig.axes if ax.get_visible()]


def test_every_figure_labels_its_axes_and_draws_no_bar_on_a_log_scale(runs: Path) -> None:
    lf = an.scan([runs / "official", runs / "kontra_re", runs / "tournament"])
    by_bid = an.win_rates(lf, "bid")
    seats = an.seat_scores(lf)
    dist = an.hand_value_distribution(lf, "score").group_by("source", "score").agg(pl.col("count").sum())
    reached = an.bid_reached(lf)
    assert reached is not None
    figures = {
        "game mix": fg.game_mix_figure(an.game_mix(lf)),
        "bids": fg.bids_figure(tb.bid_shares(lf)),
        "reached": fg.bid_reached_figure(reached),
        "wins": fg.win_rates_figure(an.win_rates(lf, "game_type"), an.win_rates(lf, "declarer_seat")),
        "win by bid": fg.win_by_bid_figure(by_bid, min_games=20),
        "values": fg.hand_values_figure(an.hand_values(lf), an.hand_values(lf, "score")),
        "scores": fg.seat_scores_figure(seats, dist),
        "lists": fg.list_totals_figure(an.list_totals(lf)),
    }
    for name, fig in figures.items():
        for ax in _every_axes(fig):
            assert ax.get_xlabel() and ax.get_ylabel(), name
            if ax.get_yscale() == "log":
                assert not ax.patches, f"{name}: bars on a log scale"
        fg.png(fig)
    # rates are percentages like the tables
    ax = figures["wins"].axes[0]
    assert ax.yaxis.get_major_formatter()(0.5, 0) == "50%"
    # the bid axis ends where the data end
    drawn = by_bid.filter(pl.col("n") >= 20)["bid"].max()
    assert figures["win by bid"].axes[0].get_xlim()[1] <= drawn * 1.05


def test_coinciding_lines_are_named_in_the_legend(runs: Path, tmp_path: Path) -> None:
    """Two runs with the same games (a copy of the official run under another name; since the bots
    answer Kontra/Re, no two shipped variants give the same line) are drawn once and named."""
    import shutil

    shutil.copytree(runs / "official", tmp_path / "again")
    lf = an.scan([runs / "official", tmp_path / "again"])
    fig = fg.win_by_bid_figure(an.win_rates(lf, "bid"), min_games=20)
    labels = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    assert labels == ["official", "again (coincides with official)"]


def test_a_figure_without_series_has_no_legend() -> None:
    empty = pl.DataFrame(
        {"source": [], "total": [], "list": [], "player": [], "measure": []},
        schema={"source": pl.String, "total": pl.Int64, "list": pl.Int64, "player": pl.String, "measure": pl.String},
    )
    fig = fg.list_totals_figure(empty)
    assert not fig.axes[0].get_legend()
    fg.png(fig)


def test_unpaired_rates_use_wilson_and_newcombe() -> None:
    """56 of 70 against 48 of 80 (Newcombe 1998, Table II, example (a)): method 10 gives -0.3339 to -0.0524
    for B - A; a side with none is not a rate known to be zero."""
    a = _frame([True] * 56 + [False] * 14, [18] * 70, [0] * 70)
    b = _frame([True] * 48 + [False] * 32, [18] * 80, [0] * 80)
    table = independent_differences(aggregate_pair(a, a), aggregate_pair(b, b))
    won = table.filter(pl.col("metric") == "won").row(0, named=True)
    assert won["diff"] == pytest.approx(-0.2)
    assert (round(won["lo"], 4), round(won["hi"], 4)) == (-0.3339, -0.0524)
    assert won["significant"] and won["narrowing"] is None
    none = _frame([False] * 41, [18] * 41, [0] * 41)
    some = _frame([True] * 30 + [False] * 370, [18] * 400, [0] * 400)
    rate = independent_differences(aggregate_pair(none, none), aggregate_pair(some, some))
    row = rate.filter(pl.col("metric") == "won").row(0, named=True)
    assert row["hi_a"] > 0.08 and row["lo"] < 0 < row["hi"] and not row["significant"]


def _rates(sources: list[str], key: str, values: list[object], rate: float = 0.5) -> pl.DataFrame:
    """A rate table (``source``, ``key``, ``rate``, ``lo``, ``hi``, ``n``) with every value at ``rate``."""
    rows = [(s, v) for s in sources for v in values]
    return pl.DataFrame(
        {
            "source": [s for s, _ in rows],
            key: [v for _, v in rows],
            "rate": [rate] * len(rows),
            "lo": [rate - 0.05] * len(rows),
            "hi": [rate + 0.05] * len(rows),
            "n": [1000] * len(rows),
        }
    )


def test_percent_ticks_keep_their_fraction_and_log_axes_label_minor_ticks_in_percent() -> None:
    """Ticks at 2.5% steps read 12.5% and 17.5%, not 12% and 18%; a log axis spanning less than a decade
    labels its minor ticks 3%, 4%, 6%, not 3x10^-2 beside 10%."""
    assert [fg._percent(x) for x in (0.125, 0.175, 0.5, 0.025, 1.0, 0.0)] == [
        "12.5%",
        "17.5%",
        "50%",
        "2.5%",
        "100%",
        "0%",
    ]
    seats = pl.DataFrame(
        {"source": ["a"] * 3, "seat": ["FH", "MH", "RH"], "mean": [1.0] * 3, "lo": [0.0] * 3, "hi": [2.0] * 3}
    )
    scores = pl.DataFrame({"source": ["a"] * 4, "score": [-48, 24, 36, 72], "count": [3, 5, 4, 8]})
    fig = fg.seat_scores_figure(seats, scores)
    fg.png(fig)
    minor = [t.get_text() for t in fig.axes[1].get_yticklabels(minor=True) if t.get_text()]
    assert minor and all(re.fullmatch(r"[\d.]+%", t) for t in minor), minor


def test_win_by_bid_leaves_out_games_declared_without_an_auction() -> None:
    """A Grand hand declared instead of a Ramsch has bid 0: no point on the log bid axis (it drew a line
    from the axis' edge, or failed when every game had bid 0), and a run with only such games has no
    legend entry."""
    by_bid = pl.concat(
        [_rates(["pub"], "bid", [0, 18, 20]), _rates(["ramsch_ordnung"], "bid", [0])], how="vertical_relaxed"
    )
    fig = fg.win_by_bid_figure(by_bid)
    fg.png(fig)
    xs = np.concatenate([line.get_xdata() for line in fig.axes[0].get_lines()])
    assert xs.size and (xs > 0).all()
    labels = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    assert labels == ["pub"]
    fg.png(fg.win_by_bid_figure(_rates(["ramsch_ordnung"], "bid", [0])))  # only games without an auction


def test_rate_bars_keep_their_legend_below_and_many_runs_stay_apart() -> None:
    """The legend of a bar figure sits below the panel (inside it covered the tallest bar); from the
    eleventh run on, whose colour repeats the first's, bars are hatched; seven game types in a half-width
    panel are slanted, not run together; a legend of many rows gets room of its own."""
    sources = [f"run{i}" for i in range(12)]
    types = ["passed", "diamonds", "hearts", "spades", "clubs", "grand", "null"]
    fig = fg.game_mix_figure(_rates(sources, "game_type", types))
    assert fig.axes[0].get_legend() is None and len(fig.legends) == 1
    hatches = [bar.get_hatch() for bar in fig.axes[0].patches]
    assert hatches.count("///") == 2 * len(types) and hatches[0] is None
    wins = fg.win_rates_figure(
        _rates(["a"], "game_type", types[1:] + ["reversed"]), _rates(["a"], "declarer_seat", ["FH", "MH", "RH"])
    )
    assert wins.axes[0].get_xticklabels()[0].get_rotation() > 0
    assert wins.axes[1].get_xticklabels()[0].get_rotation() == 0
    few = fg.game_mix_figure(_rates(sources[:1], "game_type", types))
    assert fig.get_figheight() > few.get_figheight()
    fg.png(fig)


def test_hand_value_titles_wrap_with_many_runs() -> None:
    """Each seat's title names every run's share of hands worth no bid: with twelve runs on one line it
    made the figure twice the page's width."""
    sources = [f"run{i:02d}" for i in range(12)]
    frame = pl.concat(
        [
            _rates(sources, "hand_value", ["0", "18", "rest"]).with_columns(pl.lit(seat).alias("seat"))
            for seat in ("FH", "MH", "RH")
        ]
    )
    fig = fg.hand_bid_values_figure(frame)
    for ax in fig.axes[:3]:
        assert max(len(line) for line in ax.get_title().splitlines()) <= 110
        assert "run11 50.0%" in ax.get_title().replace("\n", " ")


@pytest.fixture(scope="module")
def odd_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Runs whose rules leave parts of the report without meaning: no auction at all (ramsch_ordnung:
    every deal a Ramsch or a Grand hand), a fourth player (tournament4) and the reversed game."""
    root = tmp_path_factory.mktemp("odd")
    for name in ("ramsch_ordnung", "tournament4", "saechsische_spitze"):
        run_simulation(str(VARIANTS / f"{name}.yaml"), 480, 1, str(root / name), jobs=1, progress=False)
    return root


def _section(report: Report, title: str) -> list[object]:
    return next(s for s in report.sections if s.title == title).blocks  # type: ignore[return-value]


def test_a_run_without_any_auction_gets_a_sentence_not_empty_bid_figures(odd_runs: Path) -> None:
    """ramsch_ordnung: its report failed (the bid axis divided by zero); drawn, it showed a 'winning bid 0'
    at 100%, empty bid-reached and win-by-bid panels, empty tables, and a Ramsch-less role caption."""
    from skatsim.analysis.render import Figure as Picture
    from skatsim.analysis.render import Table, Text

    report = build_report([odd_runs / "ramsch_ordnung"], n_boot=10)
    bidding = _section(report, "Bidding")
    assert (
        len(bidding) == 1
        and isinstance(bidding[0], Text)
        and "No game in these runs followed an auction" in (bidding[0].text)
    )
    values = _section(report, "Bid values")
    assert sum(isinstance(b, Picture) for b in values) == 1  # the hands dealt, not the winning bids
    assert all(b.rows for b in values if isinstance(b, Table))  # no table without rows
    wins = _section(report, "Declarer win rates")
    assert [b.caption for b in wins if isinstance(b, Picture)] == ["Declarer win rates with Wilson intervals"]
    roles = next(b for b in _section(report, "Scores") if isinstance(b, Table) and b.caption.startswith("Mean score"))
    assert "Ramsch losers" in roles.caption  # this run plays Ramsch


def test_four_players_reversed_game_and_no_ramsch_are_said_so(odd_runs: Path) -> None:
    """The Runs table names a fourth bot (the first deal's dealer) at a four-player table; the headline
    gives the reversed game's share where it is played ('-' where not; Grand, suit games and Null no
    longer sum to 100% without it); the role table mentions no Ramsch where none was played."""
    from skatsim.analysis.render import Table

    report = build_report([odd_runs / "tournament4", odd_runs / "saechsische_spitze"], n_boot=10)
    runs = _section(report, "Runs")[0]
    assert isinstance(runs, Table) and runs.header[3] == "bots (FH,MH,RH of the first deal, then its dealer)"
    answers = next(b for b in _section(report, "Answers") if isinstance(b, Table) and b.caption.startswith("Headline"))
    reversed_row = next(r for r in answers.rows if r[0] == "reversed game (% of declared games)")
    assert reversed_row[1] == "-" and reversed_row[2].endswith("%]")
    roles = next(b for b in _section(report, "Scores") if isinstance(b, Table) and b.caption.startswith("Mean score"))
    assert "Ramsch" not in roles.caption
    # and a run with an auction keeps its Bidding figures, games without one counted as 'no auction'
    assert any(type(b).__name__ == "Figure" for b in _section(report, "Bidding"))


def test_code_in_a_paragraph_is_set_as_code_in_html_and_kept_in_markdown() -> None:
    """A paragraph's `backticks` (a command, a column) are code in the HTML report, as in its Markdown twin,
    and the rest of the text stays escaped."""
    from skatsim.analysis.render import Section, Text, render_html, render_markdown

    report = Report("t", "s", [Section("Part", [Text("made by `simulate --open-hand` for <all> `won`")])])
    page = render_html(report)
    assert "<p>made by <code>simulate --open-hand</code> for &lt;all&gt; <code>won</code></p>" in page
    assert "`" not in page
    markdown, _ = render_markdown(report, "fig", "t")
    assert "made by `simulate --open-hand` for <all> `won`" in markdown
