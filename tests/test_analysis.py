"""skatsim.analysis: interval formulas and coverage, tables on hand-made games, paired comparisons, reports.

Exact expectations come from small hand-made tables (every number below
can be checked by hand) and from published values of the Wilson interval.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from skatsim import analysis as an
from skatsim.analysis.compare import compare_variants
from skatsim.analysis.compare_output import format_markdown, format_text, to_dict
from skatsim.analysis.intervals import (
    clt_interval,
    moments_from_sums,
    weighted_quantile,
    weighted_sd,
    wilson,
    wilson_exprs,
    z_value,
)
from skatsim.analysis.paired import aggregate_pair, decode_pairs, encode_pairs
from skatsim.analysis.report import write_report
from skatsim.bots import parse_bots
from skatsim.cli import main
from skatsim.frames import result_schema
from skatsim.run.chunks import simulate_frame
from skatsim.run.runner import run_simulation
from skatsim.variant import load_variant

ROOT = Path(__file__).resolve().parent.parent
OFFICIAL = str(ROOT / "variants" / "official.yaml")
Z95 = 1.959963984540054


# --------------------------------------------------------------------------- interval formulas


def test_z_value_is_the_normal_quantile() -> None:
    assert z_value(0.95) == pytest.approx(Z95, rel=1e-12)
    assert z_value(0.90) == pytest.approx(1.6448536269514722, rel=1e-12)


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [  # Newcombe (1998), Statistics in Medicine 17:857-872, Table II, method 3 (Wilson score, no correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0000),
    ],
)
def test_wilson_matches_published_values(k: int, n: int, lo: float, hi: float) -> None:
    rate, got_lo, got_hi = wilson(k, n)
    assert rate == k / n
    assert round(got_lo, 4) == lo
    assert round(got_hi, 4) == hi


def test_wilson_small_cases_in_closed_form() -> None:
    z2 = Z95 * Z95
    # k = 0: the interval is [0, z^2 / (n + z^2)]
    assert wilson(0, 10) == (0.0, 0.0, pytest.approx(z2 / (10 + z2), rel=1e-12))
    # k = n/2: symmetric around 1/2, half-width z / (1 + z^2/n) * sqrt(1/(4n) + z^2/(4n^2))
    rate, lo, hi = wilson(5, 10)
    half = Z95 / (1 + z2 / 10) * math.sqrt(0.25 / 10 + z2 / 400)
    assert rate == 0.5
    assert lo == pytest.approx(0.5 - half, rel=1e-12)
    assert hi == pytest.approx(0.5 + half, rel=1e-12)
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_wilson_polars_expressions_equal_the_scalar_formula() -> None:
    frame = pl.DataFrame({"k": [0, 1, 5, 81, 29, 0], "n": [10, 10, 10, 263, 29, 0]})
    got = frame.select(wilson_exprs(pl.col("k"), pl.col("n")))
    for (k, n), row in zip(frame.iter_rows(), got.iter_rows(named=True), strict=True):
        if n == 0:
            assert row == {"rate": None, "lo": None, "hi": None, "n": 0}
            continue
        rate, lo, hi = wilson(k, n)
        assert row["rate"] == rate
        assert row["lo"] == pytest.approx(lo, abs=1e-15)
        assert row["hi"] == pytest.approx(hi, abs=1e-15)


def test_wilson_interval_covers_a_known_rate_93_to_97_percent_of_the_time() -> None:
    rng = np.random.default_rng(20240501)
    p, n, samples = 0.3, 200, 2000
    hits = rng.binomial(n, p, size=samples)
    covered = 0
    for k in hits:
        _, lo, hi = wilson(int(k), n)
        covered += lo <= p <= hi
    assert 0.93 <= covered / samples <= 0.97


def test_clt_interval_covers_a_known_mean_93_to_97_percent_of_the_time() -> None:
    rng = np.random.default_rng(7)
    mean, n, samples = 3.0, 200, 2000
    data = rng.poisson(mean, size=(samples, n))  # skewed, discrete, like scores
    covered = 0
    for row in data:
        lo, hi = clt_interval(float(row.mean()), float(row.std(ddof=1)), n)
        covered += lo <= mean <= hi
    assert 0.93 <= covered / samples <= 0.97


def test_clt_interval_formula() -> None:
    lo, hi = clt_interval(10.0, 4.0, 16)
    assert lo == pytest.approx(10.0 - Z95, rel=1e-12)
    assert hi == pytest.approx(10.0 + Z95, rel=1e-12)
    assert all(math.isnan(x) for x in clt_interval(1.0, math.nan, 1))


def test_moments_from_integer_sums_are_exact() -> None:
    assert moments_from_sums(3, 3 * 7, 3 * 49) == (7.0, 0.0)  # constant sample: exactly zero spread
    mean, sd = moments_from_sums(4, 1 + 2 + 3 + 4, 1 + 4 + 9 + 16)
    assert mean == 2.5
    assert sd == pytest.approx(math.sqrt(5 / 3), rel=1e-15)


def test_weighted_quantile_is_the_lower_empirical_quantile() -> None:
    values = np.array([4, 1, 3, 2])
    weights = np.ones((1, 4))
    assert weighted_quantile(values, weights, 0.25)[0] == 1
    assert weighted_quantile(values, weights, 0.5)[0] == 2
    assert weighted_quantile(values, weights, 0.51)[0] == 3
    assert weighted_quantile(values, weights, 1.0)[0] == 4
    counts = np.array([[0, 2, 0, 2], [1, 0, 0, 1]])  # two weightings at once
    assert weighted_quantile(values, counts, 0.5).tolist() == [1.0, 2.0]
    assert weighted_sd(np.array([1, 3]), np.array([[1, 1]]))[0] == pytest.approx(math.sqrt(2))


def test_bootstrap_mean_brackets_the_mean() -> None:
    mean, lo, hi = an.bootstrap_mean(np.arange(100), n_boot=500, seed=1)
    assert mean == 49.5
    assert lo < 49.5 < hi
    assert hi - lo == pytest.approx(2 * Z95 * np.arange(100).std(ddof=1) / 10, rel=0.15)


# --------------------------------------------------------------------------- tables on hand-made games

#: Six hand-made deals: (game_type, declarer, bid, hand, won, overbid, game_value, score,
#: max_bid_fh, max_bid_mh, max_bid_rh). Scores follow the official rules (lost: -2 x value).
DEALS = [
    ("grand", 0, 24, False, True, False, 48, 48, 24, 23, 0),
    ("clubs", 1, 18, True, False, False, 24, -48, 0, 18, 0),
    ("passed", None, 0, None, None, None, None, 0, 0, 0, 0),
    ("null", 2, 23, False, True, False, 23, 23, 0, 20, 23),
    ("clubs", 0, 30, False, False, True, 36, -72, 30, 27, 0),
    ("diamonds", 2, 18, False, True, False, 18, 18, 0, 0, 18),
]


def deals_frame(deals: list[tuple[object, ...]] = DEALS, **extra: list[object]) -> pl.DataFrame:
    """A typed table of hand-made deals with every evaluation column (unset ones null or 0)."""
    schema = result_schema()
    rows = []
    for i, (gt, decl, bid, hand, won, overbid, value, score, mfh, mmh, mrh) in enumerate(deals):
        row: dict[str, object] = dict.fromkeys(schema)
        row.update(game_type=gt, declarer=decl, bid=bid, hand=hand, won=won, overbid=overbid)
        row.update(game_value=value, score=score, score_fh=0, score_mh=0, score_rh=0)
        if decl is not None:
            row[f"score_{('fh', 'mh', 'rh')[decl]}"] = score  # type: ignore[index]
        row.update(game_id=i, max_bid_fh=mfh, max_bid_mh=mmh, max_bid_rh=mrh)
        row.update(bot_fh="heuristic", bot_mh="heuristic", bot_rh="random")
        rows.append(row)
    seats = ("fh", "mh", "rh")
    types = {"game_id": pl.Int64, **{f"max_bid_{s}": pl.Int16 for s in seats}, **{f"bot_{s}": pl.String for s in seats}}
    frame = pl.DataFrame(rows, schema={**schema, **types})
    return frame.with_columns(pl.Series(name, values) for name, values in extra.items())


@pytest.fixture
def games(tmp_path: Path) -> pl.LazyFrame:
    path = tmp_path / "hand.parquet"
    deals_frame(kontra_level=[0, 1, None, 2, 0, 0]).write_parquet(path)
    return an.scan([path])


def rows(frame: pl.DataFrame, *names: str) -> list[tuple[object, ...]]:
    return [tuple(r) for r in frame.select(names).iter_rows()]


def test_scan_names_the_source(games: pl.LazyFrame) -> None:
    frame = games.collect()
    assert frame["source"].cast(pl.String).to_list() == ["hand"] * 6
    assert frame.height == 6


def test_game_mix_counts_every_deal_or_only_declared_games(games: pl.LazyFrame) -> None:
    mix = an.game_mix(games)
    assert rows(mix, "game_type", "count", "rate", "n") == [
        ("passed", 1, 1 / 6, 6),  # game types sort in the Enum's order: passed, aborted, diamonds, ...
        ("diamonds", 1, 1 / 6, 6),
        ("clubs", 2, 2 / 6, 6),
        ("grand", 1, 1 / 6, 6),
        ("null", 1, 1 / 6, 6),
    ]
    played = an.game_mix(games, played_only=True)
    assert rows(played, "game_type", "count", "n") == [
        ("diamonds", 1, 5),
        ("clubs", 2, 5),
        ("grand", 1, 5),
        ("null", 1, 5),
    ]
    assert played["lo"][1] == pytest.approx(wilson(2, 5)[1], abs=1e-15)


def test_win_rates_by_seat_type_bot_and_bid(games: pl.LazyFrame) -> None:
    assert rows(an.win_rates(games, "declarer_seat"), "declarer_seat", "count", "n") == [
        ("FH", 1, 2),
        ("MH", 0, 1),
        ("RH", 2, 2),
    ]
    assert rows(an.win_rates(games, "game_type"), "game_type", "rate") == [
        ("diamonds", 1.0),
        ("clubs", 0.0),
        ("grand", 1.0),
        ("null", 1.0),
    ]
    assert rows(an.win_rates(games, "declarer_bot"), "declarer_bot", "count", "n") == [
        ("heuristic", 1, 3),
        ("random", 2, 2),
    ]
    assert rows(an.win_rates(games, "bid"), "bid", "count", "n") == [(18, 1, 2), (23, 1, 1), (24, 1, 1), (30, 0, 1)]


def test_bids_and_overbids(games: pl.LazyFrame) -> None:
    assert rows(an.overbid_rate(games), "count", "n") == [(1, 5)]
    assert rows(an.bid_distribution(games), "bid", "count", "n") == [(18, 2, 5), (23, 1, 5), (24, 1, 5), (30, 1, 5)]
    dist = an.max_bid_distribution(games)
    assert dist is not None
    assert rows(dist.filter(pl.col("seat") == "FH"), "max_bid", "count", "n") == [(0, 4, 6), (24, 1, 6), (30, 1, 6)]
    reached = an.bid_reached(games)
    assert reached is not None
    assert rows(reached.filter(pl.col("seat") == "MH"), "bid", "count", "n") == [
        (18, 4, 6),
        (20, 3, 6),
        (23, 2, 6),
        (27, 1, 6),
    ]


def test_scores_per_seat_and_role(games: pl.LazyFrame) -> None:
    seats = an.seat_scores(games)
    assert rows(seats, "seat", "mean", "n") == [("FH", -4.0, 6), ("MH", -8.0, 6), ("RH", 41 / 6, 6)]
    fh = seats.row(0, named=True)
    sd = float(np.std([48, 0, 0, 0, -72, 0], ddof=1))
    assert fh["sd"] == pytest.approx(sd, rel=1e-12)
    assert fh["lo"] == pytest.approx(-4.0 - Z95 * sd / math.sqrt(6), rel=1e-12)
    roles = an.role_scores(games)
    assert rows(roles, "role", "mean", "n") == [("declarer", -31 / 5, 5)]  # defenders score nothing: no row
    boot = an.seat_scores(games, method="bootstrap")
    assert rows(boot, "seat", "mean", "n") == rows(seats, "seat", "mean", "n")
    assert all(lo <= m <= hi for lo, m, hi in rows(boot, "lo", "mean", "hi"))


def test_hand_values_by_game_type(games: pl.LazyFrame) -> None:
    values = an.hand_values(games)
    clubs = values.filter(pl.col("game_type") == "clubs").row(0, named=True)
    assert (clubs["mean"], clubs["n"]) == (30.0, 2)
    assert clubs["sd"] == pytest.approx(math.sqrt(72), rel=1e-12)
    dist = an.hand_value_distribution(games, "score")
    assert rows(dist.filter(pl.col("game_type") == "clubs"), "score", "count", "n") == [(-72, 1, 2), (-48, 1, 2)]


def test_kontra_statistics_when_the_column_exists(games: pl.LazyFrame) -> None:
    stats = an.kontra_stats(games)
    assert stats is not None
    assert rows(stats["calls"], "call", "count", "n") == [("kontra", 2, 5), ("re", 1, 5), ("beyond re", 0, 5)]
    assert rows(stats["win_rate"], "kontra_level", "count", "n") == [(0, 2, 3), (1, 0, 1), (2, 1, 1)]
    assert an.ramsch_stats(games) is None
    assert an.bock_stats(games) is None


def test_house_rule_statistics_are_omitted_without_their_columns(tmp_path: Path) -> None:
    deals_frame().write_parquet(tmp_path / "plain.parquet")
    lf = an.scan(tmp_path / "plain.parquet")
    assert an.kontra_stats(lf) is None
    assert an.ramsch_stats(lf) is None
    assert an.bock_stats(lf) is None


def test_ramsch_and_bock_statistics(tmp_path: Path) -> None:
    ramsch = ("ramsch", None, 0, None, None, None, None, 0, 0, 0, 0)
    deals = [*DEALS[:2], ramsch, ramsch]
    frame = deals_frame(deals, ramsch_loser=[None, None, 0, 2], bock=[1, 2, 2, 1])
    frame = frame.with_columns(
        pl.Series("score_fh", [48, 0, -30, 0], pl.Int32), pl.Series("score_rh", [0, 0, 0, -20], pl.Int32)
    )
    frame.write_parquet(tmp_path / "house.parquet")
    lf = an.scan(tmp_path / "house.parquet")
    stats = an.ramsch_stats(lf)
    assert stats is not None
    assert rows(stats["share"], "count", "n") == [(2, 4)]
    assert rows(stats["loser"], "loser", "count", "n") == [("FH", 1, 2), ("RH", 1, 2)]
    assert rows(stats["seat_score"], "seat", "mean") == [("FH", -15.0), ("MH", 0.0), ("RH", -10.0)]
    # the role table names the Ramsch losers (not "defenders"): -30 and -20 in the two Ramsch deals
    assert rows(an.role_scores(lf), "role", "mean", "n") == [("Ramsch losers", -25.0, 2), ("declarer", 0.0, 2)]
    bock = an.bock_stats(lf)
    assert bock is not None
    assert rows(bock["share"], "count", "n") == [(2, 4)]
    assert rows(bock["multiplier"], "bock", "count") == [(1, 2), (2, 2)]


def test_list_totals_follow_the_players_in_blocks_of_36_deals_or_list_id(tmp_path: Path) -> None:
    """A run without lists is read in blocks of 36 deals with the deal passing round the table: forehand's
    48 points in every deal go to each player in turn, 12 deals each, never to one seat for a whole list."""
    deal = ("grand", 0, 24, False, True, False, 48, 48, 24, 0, 0)
    frame = deals_frame([deal] * 80)  # two complete lists of 36, 8 deals left over
    frame.write_parquet(tmp_path / "lists.parquet")
    lf = an.scan(tmp_path / "lists.parquet")
    totals = an.list_totals(lf)
    assert rows(totals, "list", "player", "deals", "total", "measure") == [
        (block, f"player {p}", 36, 12 * 48, "score") for block in (0, 1) for p in range(3)
    ]
    scores = an.list_scores(lf)
    assert rows(scores, "player", "mean", "sd", "n") == [(f"player {p}", 576.0, 0.0, 2) for p in range(3)]
    listed = deals_frame([deal] * 4, list_id=[7, 7, 8, 8], list_points_fh=[98, 98, 98, 98], list_points_mh=[0] * 4)
    listed = listed.with_columns(pl.lit(0).alias("list_points_rh"), pl.Series("deal_in_list", [0, 1, 0, 1]))
    listed.write_parquet(tmp_path / "tournament.parquet")
    totals = an.list_totals(an.scan(tmp_path / "tournament.parquet"))
    assert rows(totals.filter(pl.col("player") == "player 0"), "list", "total", "measure") == [
        (7, 98, "list_points"),
        (8, 98, "list_points"),
    ]


def test_list_totals_of_runs_with_and_without_lists_together(tmp_path: Path) -> None:
    """Mixing a list run with one that has no lists: each is read on its own terms, nobody gets 0.000."""
    off = tmp_path / "off"
    tournament = write_variant(tmp_path / "t.yaml", "name: t\ntournament: {enabled: true, list_length: 36}\n")
    run_simulation(OFFICIAL, 720, 3, str(off), jobs=1, progress=False)
    run_simulation(tournament, 720, 3, str(tmp_path / "t"), jobs=1, progress=False)
    lf = an.scan([off, tmp_path / "t"])
    scores = an.list_scores(lf)
    assert scores.height == 6
    assert rows(scores, "n") == [(20,)] * 6
    assert all(sd > 0 for (sd,) in rows(scores, "sd"))  # real spreads, no list of zeros
    assert set(rows(scores, "source", "measure")) == {("off", "score"), ("t", "list_points")}
    single = an.list_scores(an.scan(off))
    assert rows(single, "mean") == rows(scores.filter(pl.col("source") == "off"), "mean")


def test_a_list_the_run_stopped_inside_is_not_a_list_total(tmp_path: Path) -> None:
    """750 deals of 36-deal lists: 20 whole lists and 30 deals of a 21st, which the run's end cut short;
    its totals would be a shorter list's, so only the 20 count (as a run without lists drops its last
    incomplete block)."""
    tournament = write_variant(tmp_path / "t.yaml", "name: t\ntournament: {enabled: true, list_length: 36}\n")
    run_simulation(tournament, 750, 3, str(tmp_path / "t"), jobs=1, progress=False)
    totals = an.list_totals(an.scan(tmp_path / "t"))
    assert totals["list"].n_unique() == 20 and set(totals["deals"]) == {36}
    assert rows(an.list_scores(an.scan(tmp_path / "t")), "n") == [(20,)] * 3


def test_several_sources_keep_the_order_given(tmp_path: Path) -> None:
    for name in ("zeta", "alpha"):
        deals_frame().write_parquet(tmp_path / f"{name}.parquet")
    lf = an.scan([tmp_path / "zeta.parquet", tmp_path / "alpha.parquet"])
    assert an.overbid_rate(lf)["source"].cast(pl.String).to_list() == ["zeta", "alpha"]


def test_iss_imports_are_read_with_people_as_bots(tmp_path: Path) -> None:
    from skatsim.records.importer import import_iss

    import_iss(ROOT / "tests" / "fixtures" / "iss" / "real_games.sgf", tmp_path / "iss")
    lf = an.scan(tmp_path / "iss")
    wins = an.win_rates(lf, "declarer_bot")
    assert wins["declarer_bot"].to_list() == ["people"]
    # the fixture's 41 declared games, 32 won (the server's results: test_iss.test_counts_of_outcomes)
    assert rows(wins, "count", "n") == [(32, 41)]
    assert wins["rate"][0] == 32 / 41
    assert an.max_bid_distribution(lf) is None


# --------------------------------------------------------------------------- paired statistics


def test_pair_keys_round_trip() -> None:
    a, b = np.array([-1000, 0, 5, 5]), np.array([7, 0, -3, -3])
    keys, counts = encode_pairs(a, b)
    da, db = decode_pairs(keys)
    assert sorted(zip(da.tolist(), db.tolist(), counts.tolist(), strict=True)) == [(-1000, 7, 1), (0, 0, 1), (5, -3, 2)]


def test_aggregate_of_a_frame_with_itself_changes_nothing() -> None:
    frame = deals_frame()
    agg = aggregate_pair(frame, frame)
    assert agg.n == 6
    assert set(agg.changed.values()) == {0}
    other = frame.with_columns(pl.Series("score_fh", [48, 0, 0, 0, -36, 0], pl.Int32))
    expected = {"declarer": 0, "game_type": 0, "bid": 0, "won": 0, "score": 1, "any": 1}
    assert aggregate_pair(frame, other).changed == expected


def write_variant(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_compare_identical_variants_gives_exactly_zero(tmp_path: Path) -> None:
    copy = write_variant(tmp_path / "copy.yaml", "name: copy\n")
    result = compare_variants(OFFICIAL, copy, games=3000, seed=5, jobs=1, n_boot=200)
    assert result.means["diff"].to_list() == [0.0] * result.means.height
    assert result.means["lo"].to_list() == result.means["hi"].to_list() == [0.0] * result.means.height
    assert (result.means["sum_a"] == result.means["sum_b"]).all()
    assert result.changes["count"].to_list() == [0] * 6
    assert result.spread["diff"].to_list() == [0.0] * result.spread.height
    assert result.spread["lo"].to_list() == [0.0] * result.spread.height
    assert result.narrowing() is None
    assert "carries no sampling noise" in format_text(result)


def test_pre1999_scoring_changes_the_bots_hand_games_and_rescoring_only_lost_hand_games(tmp_path: Path) -> None:
    """The bots decide under the variant's scoring (issue 13): where a lost hand game costs its single
    value they play more hand games. On the deals where every decision came out the same, the scores
    differ exactly on the lost hand games, by the game value (the declarer's -2 x value becomes -value)."""
    pre = write_variant(tmp_path / "pre.yaml", "name: pre\nscoring: {lost_hand_factor: 1}\n")
    games, seed = 4000, 11
    result = compare_variants(OFFICIAL, pre, games=games, seed=seed, jobs=1, n_boot=200)
    means = {row["metric"]: row for row in result.means.iter_rows(named=True)}
    assert means["hand"]["lo"] > 0  # more hand games, the interval above zero
    params = load_variant(OFFICIAL).variant.params()
    pre_params = load_variant(pre).variant.params()
    bots = parse_bots("heuristic")
    decided = ["declarer", "game_type", "bid", "hand", "ouvert", "won", "game_value"]
    a = simulate_frame(seed, 0, games, params, bots, "official")
    b = simulate_frame(seed, 0, games, pre_params, bots, "pre")
    both = a.join(b, on="game_id", suffix="_b")
    same = both.filter(pl.all_horizontal([pl.col(c).eq_missing(pl.col(f"{c}_b")) for c in decided]))
    assert 0.5 * games < same.height < games
    lost_hand = same.filter(pl.col("hand") & ~pl.col("won"))
    assert lost_hand.height > 0
    rescored = same.filter(pl.col("score") != pl.col("score_b"))
    assert rescored["game_id"].to_list() == lost_hand["game_id"].to_list()
    assert (rescored["score_b"] - rescored["score"]).to_list() == rescored["game_value"].to_list()


def test_compare_does_not_depend_on_chunks_or_jobs(tmp_path: Path) -> None:
    pre = write_variant(tmp_path / "pre.yaml", "name: pre\nscoring: {lost_hand_factor: 1}\n")
    one = compare_variants(OFFICIAL, pre, games=2500, seed=3, jobs=1, n_boot=100)
    many = compare_variants(OFFICIAL, pre, games=2500, seed=3, jobs=2, n_boot=100, chunk_size=36 * 20)
    assert one.means.equals(many.means)
    assert one.spread.equals(many.spread)
    assert one.changes.equals(many.changes)
    data = to_dict(many)
    assert data["games"] == 2500 and len(data["means"]) == many.means.height
    assert "## Means per deal" in format_markdown(many)


def test_compare_cli_writes_json_and_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = write_variant(tmp_path / "copy.yaml", "name: copy\n")
    args = ["--games", "500", "--jobs", "1", "--bootstrap", "50", "--out", str(tmp_path / "c.json"), "--quiet"]
    code = main(["compare", OFFICIAL, copy, *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith("Paired comparison B - A: A = official")
    assert (tmp_path / "c.json").read_text().startswith("{")
    code = main(["compare", OFFICIAL, copy, "--games", "500", "--out", str(tmp_path / "c.txt")])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.splitlines() == [f"skatsim: error: --out {tmp_path / 'c.txt'}: the file name must end in .json or .md"]


# --------------------------------------------------------------------------- reports


def one_line_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("skatsim: error: ")
    return lines[0]


def test_report_on_a_folder_without_runs_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    line = one_line_error(capsys, "report", str(tmp_path / "empty"), "--out", str(tmp_path / "r.html"))
    assert f"{tmp_path / 'empty'}: no skatsim run here" in line
    line = one_line_error(capsys, "report", str(tmp_path / "missing"), "--out", str(tmp_path / "r.html"))
    assert line == f"skatsim: error: {tmp_path / 'missing'}: no such file or folder"
    assert not (tmp_path / "r.html").exists()


def test_report_refuses_an_out_file_it_could_not_write_before_reading_any_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A report path under a file is refused first, not after the report is built (the run is not even read)."""
    (tmp_path / "afile").write_text("")
    out = tmp_path / "afile" / "r.html"
    line = one_line_error(capsys, "report", str(tmp_path / "missing"), "--out", str(out))
    assert line == f"skatsim: error: --out {out}: cannot write the report there ({tmp_path / 'afile'} is not a folder)"


def test_report_on_a_corrupt_parquet_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "games.parquet").write_bytes(b"PAR1 this is not a parquet file")
    line = one_line_error(capsys, "report", str(folder), "--out", str(tmp_path / "r.html"))
    assert f"{folder / 'games.parquet'}: not a readable Parquet file" in line


def test_report_on_a_run_with_a_corrupt_chunk_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run"
    run_simulation(OFFICIAL, 200, 1, str(run), jobs=1, chunk_size=100, progress=False)
    chunk = sorted(run.glob("chunk-*.parquet"))[1]
    chunk.write_bytes(chunk.read_bytes()[:50])
    line = one_line_error(capsys, "report", str(run), "--out", str(tmp_path / "r.html"))
    assert f"{chunk}: not a readable Parquet file" in line


def test_report_on_a_run_with_a_chunk_damaged_inside_names_the_chunk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A chunk whose footer reads but whose data pages are damaged fails only once the games are read:
    the one line names that chunk file (polars' own message does not), and nothing is written."""
    run = tmp_path / "run"
    run_simulation(OFFICIAL, 200, 1, str(run), jobs=1, chunk_size=100, progress=False)
    chunk = sorted(run.glob("chunk-*.parquet"))[1]
    data = bytearray(chunk.read_bytes())
    pages_end = len(data) - 8 - int.from_bytes(data[-8:-4], "little")  # then the footer, its length, "PAR1"
    for i in range(pages_end // 4, pages_end // 2):
        data[i] ^= 0x5A
    chunk.write_bytes(bytes(data))
    line = one_line_error(capsys, "report", str(run), "--out", str(tmp_path / "r.html"))
    assert line.startswith(f"skatsim: error: {chunk}: damaged Parquet file, its games cannot be read ("), line
    assert line.endswith("; remove it and complete the run with --resume"), line
    assert not (tmp_path / "r.html").exists() and not (tmp_path / "r.md").exists()


def test_report_refuses_chunk_files_whose_manifest_is_gone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A run (or import) folder without its manifest is refused, not read as a plain Parquet folder."""
    from skatsim.records.importer import import_iss

    run = tmp_path / "run"
    run_simulation(OFFICIAL, 200, 1, str(run), jobs=1, chunk_size=100, progress=False)
    (run / "manifest.json").unlink()
    line = one_line_error(capsys, "report", str(run), "--out", str(tmp_path / "r.html"))
    assert line == (
        f"skatsim: error: {run}: looks like a skatsim run whose manifest.json is missing (2 chunk files, no "
        "manifest.json); it cannot be read and simulate --resume cannot repair it: run the simulate command again "
        "into an empty folder"
    )
    iss = tmp_path / "iss"
    import_iss(ROOT / "tests" / "fixtures" / "iss" / "real_games.sgf", iss)
    (iss / "import.json").unlink()
    line = one_line_error(capsys, "report", str(iss), "--out", str(tmp_path / "r.html"))
    assert f"{iss}: looks like an ISS import whose import.json is missing (1 chunk file, no import.json)" in line
    assert "import-iss --resume cannot repair it" in line
    assert not (tmp_path / "r.html").exists()
    plain = tmp_path / "plain"  # Parquet files named otherwise are still a source
    plain.mkdir()
    deals_frame().write_parquet(plain / "games.parquet")
    assert an.scan(plain).collect().height == deals_frame().height


def test_report_of_two_paired_runs(tmp_path: Path) -> None:
    pre = write_variant(tmp_path / "pre.yaml", "name: pre\nscoring: {lost_hand_factor: 1}\n")
    run_simulation(OFFICIAL, 3000, 2, str(tmp_path / "official"), jobs=1, progress=False)
    run_simulation(pre, 3000, 2, str(tmp_path / "pre"), jobs=1, progress=False)
    result = write_report([tmp_path / "official", tmp_path / "pre"], tmp_path / "out" / "r.html", n_boot=100)
    html = (tmp_path / "out" / "r.html").read_text()
    md = (tmp_path / "out" / "r.md").read_text()
    assert result.figures >= 9
    assert html.count('src="data:image/png;base64,') == result.figures
    assert "<script" not in html and "http://" not in html and "https://" not in html
    assert "compared deal by deal" in html
    assert "scoring: {lost_hand_factor: 1}" in html  # provenance: the variant text
    pngs = sorted((tmp_path / "out" / "r_files").glob("*.png"))
    assert len(pngs) == result.figures
    assert md.count("](r_files/figure-") == result.figures


def test_list_totals_follow_players_round_the_table() -> None:
    from skatsim.analysis.tables import list_totals

    # one list of three deals: forehand scores 10, 20, 40 in deals 0, 1, 2 (players 0, 1, 2 in turn),
    # rearhand loses 5 in deal 1 (player (2 + 1) % 3 = 0)
    lf = pl.LazyFrame(
        {
            "source": ["run"] * 3,
            "game_id": [0, 1, 2],
            "list_id": [0, 0, 0],
            "deal_in_list": [0, 1, 2],
            "score_fh": [10, 20, 40],
            "score_mh": [0, 0, 0],
            "score_rh": [0, -5, 0],
        }
    )
    totals = dict(list_totals(lf).select("player", "total").iter_rows())
    assert totals == {"player 0": 5, "player 1": 20, "player 2": 40}
