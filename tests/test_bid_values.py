"""Bid-value tables (``skatsim.analysis.bid_values``) of a run and an ISS import, and their report section."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from skatsim import analysis
from skatsim.analysis.bid_values import BidValues, _hands_from_deals, hand_bid_values
from skatsim.analysis.report import BUILD_STEPS, build_report
from skatsim.engine.cards import parse_card
from skatsim.engine.deal import deal_cards, pack_deal
from skatsim.records.importer import finished_import, import_iss
from skatsim.records.record import GameRecord
from skatsim.run.runner import run_simulation
from skatsim.whatif.hand import evaluate_hand

ROOT = Path(__file__).resolve().parent.parent
ISS = ROOT / "tests" / "fixtures" / "iss" / "real_games.sgf"


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("bid_values")
    run = base / "official"
    run_simulation(str(ROOT / "variants" / "official.yaml"), 4000, 3, str(run), jobs=1, progress=False)
    iss = base / "iss"
    import_iss(ISS, iss)
    return run, iss


@pytest.fixture(scope="module")
def tables(sources: tuple[Path, Path]) -> BidValues:
    return analysis.bid_values([str(p) for p in sources])


def _mask(text: str) -> int:
    return sum(1 << parse_card(c) for c in text.split())


def test_the_dealt_hands_are_read_back_from_the_deal_column() -> None:
    """The whole-column unpacking gives each seat the ten cards the engine dealt it (the skat to nobody),
    on 2,000 deals packed as a run's ``deal`` column holds them."""
    dealt = np.zeros((2000, 3), dtype=np.uint32)
    packed = np.zeros(2000, dtype=np.int64)
    for i in range(2000):
        skat = deal_cards(np.uint64(11), np.uint64(i), dealt[i])
        packed[i] = pack_deal(dealt[i], skat)
    assert np.array_equal(_hands_from_deals(packed), dealt)


def test_hand_values_counted_in_blocks_are_the_counts_of_one_pass(
    sources: tuple[Path, Path], tables: BidValues, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hand values are counted a block of deals at a time (memory bounded whatever the run's size): with
    blocks of 333 deals the counts are those of one pass (the module fixture's 4,000-deal run and the ISS
    import), and they add up to three hands a deal."""
    module = sys.modules["skatsim.analysis.bid_values"]  # the package's bid_values is the function
    monkeypatch.setattr(module, "COUNT_BLOCK", 333)
    blocked = analysis.bid_values([str(p) for p in sources]).hand_values
    assert blocked.equals(tables.hand_values)
    run = blocked.filter(pl.col("source") == "official")
    assert run.group_by("seat").agg(pl.col("n").first())["n"].to_list() == [4000] * 3


def test_hand_bidding_values_split_over_threads_are_the_same() -> None:
    """The values of 3,000 deals worked out in one thread and in three (the kernel's own state per
    thread): the same, seat by seat, and not all alike."""
    dealt = np.zeros((3000, 3), dtype=np.uint32)
    for i in range(3000):
        deal_cards(np.uint64(5), np.uint64(i), dealt[i])
    one = hand_bid_values(dealt, jobs=1)
    assert np.array_equal(hand_bid_values(dealt, jobs=3), one)
    assert len(np.unique(one)) > 10


def test_a_hand_bidding_value_is_what_the_default_bot_bids_on() -> None:
    """Four jacks and the aces: a Grand hand with 4 (144); seven clubs 'without two', strong enough that
    the bot's expected score puts the clubs hand game (48) above clubs with the skat (36); a hand
    without a game worth bidding: 0. The same ceiling as the evaluator's bot choice."""
    hands = np.array(
        [
            [_mask("CJ SJ HJ DJ CA CT CK SA HA DA"), 0, 0],
            [0, _mask("HJ CA CT CK CQ C9 C8 SA H9 D7"), 0],
            [0, 0, _mask("C7 S8 S9 SQ H7 HK D7 D8 DQ DK")],
        ],
        dtype=np.uint32,
    )
    values = hand_bid_values(hands)
    assert values[0, 0] == 144 and values[1, 1] == 48 and values[2, 2] == 0
    cards = [parse_card(c) for c in "HJ CA CT CK CQ C9 C8 SA H9 D7".split()]
    assert evaluate_hand(cards, seat=1, samples=10, games=[3]).bot_choice.bid_limit == 48


def test_every_deal_and_every_game_is_counted(tables: BidValues, sources: tuple[Path, Path]) -> None:
    """Shares add up to 1 in every group: values below 0.2% are in one rest row that says which they are."""
    run, _ = sources
    games = pl.read_parquet(run / "*.parquet")
    for frame, keys in ((tables.hand_values, ["source", "seat"]), (tables.winning_bids, ["source"])):
        sums = frame.group_by(keys).agg(pl.col("rate").sum(), pl.col("count").sum(), pl.col("n").first())
        assert (sums["rate"] - 1.0).abs().max() < 1e-9
        assert (sums["count"] == sums["n"]).all()
    hv = tables.hand_values.filter(pl.col("source") == "official")
    assert hv.group_by("seat").agg(pl.col("count").sum())["count"].to_list() == [4000, 4000, 4000]
    declared = games.filter(pl.col("declarer").is_not_null())
    wb = tables.winning_bids.filter(pl.col("source") == "official")
    assert wb["count"].sum() == declared.height
    rest = wb.filter(pl.col("bid") == "rest")
    held = [int(b) for b in rest["holds"].item().split(", ")]
    shown = [int(b) for b in wb["bid"] if b != "rest"]
    rare = declared.group_by("bid").len().filter(~pl.col("bid").is_in(shown))
    assert sorted(held) == sorted(rare["bid"].to_list()) and rest["count"].item() == rare["len"].sum()
    assert (rare["len"] / declared.height < 0.002).all()  # rare here, and in the import too


def test_outcomes_by_bid_and_seat_are_the_games_own(tables: BidValues, sources: tuple[Path, Path]) -> None:
    run, _ = sources
    declared = pl.read_parquet(run / "*.parquet").filter(pl.col("declarer").is_not_null())
    by_bid = tables.by_bid.filter(pl.col("source") == "official")
    assert by_bid["games"].sum() == declared.height
    at18 = by_bid.filter(pl.col("bid") == "18").row(0, named=True)
    games18 = declared.filter(pl.col("bid") == 18)
    assert at18["games"] == games18.height
    assert at18["win_rate"] == pytest.approx(games18["won"].mean())
    assert at18["score_mean"] == pytest.approx(games18["score"].mean())
    assert at18["schneider_rate"] == pytest.approx(games18["schneider"].mean())
    assert at18["win_lo"] < at18["win_rate"] < at18["win_hi"]
    by_seat = tables.by_seat.filter(pl.col("source") == "official")
    assert by_seat["seat"].to_list() == ["FH", "MH", "RH"]
    fh = declared.filter(pl.col("declarer") == 0)
    assert by_seat.row(0, named=True)["games"] == fh.height
    assert by_seat.row(0, named=True)["score_mean"] == pytest.approx(fh["score"].mean())


def test_imported_games_are_read_from_their_records(tables: BidValues, sources: tuple[Path, Path]) -> None:
    """ISS imports have no packed deal: the hands come from each game's record, the same 46 deals."""
    _, iss = sources
    hv = tables.hand_values.filter(pl.col("source") == "iss")
    assert hv.group_by("seat").agg(pl.col("count").sum())["count"].to_list() == [46, 46, 46]
    records = pl.read_parquet(finished_import(str(iss))[1])["record"]
    first = GameRecord.from_json(records[0])
    hands = np.array([[sum(1 << c for c in first.deal[10 * s : 10 * s + 10]) for s in range(3)]], dtype=np.uint32)
    expected = hand_bid_values(hands)[0]
    from skatsim.analysis.bid_values import _hands_from_records

    assert (_hands_from_records(records[:1]) == hands).all()
    assert expected.shape == (3,)
    assert tables.winning_bids.filter(pl.col("source") == "iss")["count"].sum() == 41


def test_the_report_shows_bid_values_as_figures_and_tables(sources: tuple[Path, Path]) -> None:
    """... and tells its progress bar each part it works out, the comparisons first."""
    steps: list[str] = []
    report = build_report([str(p) for p in sources], step=steps.append)
    assert len(steps) == BUILD_STEPS and steps[0] == "comparing the runs with the baseline"
    assert steps[1:3] == ["answers", "reading"] and "bid values" in steps
    section = next(s for s in report.sections if s.title == "Bid values")
    kinds = [type(b).__name__ for b in section.blocks]
    assert kinds.count("Figure") == 2 and kinds.count("Table") == 3
    values = next(b for b in section.blocks if type(b).__name__ == "Table")
    assert values.rows[0][0] == "0" and values.rows[-1][0] == "rest"  # type: ignore[attr-defined]


def test_the_hand_value_figure_gives_the_hands_worth_no_bid_in_its_titles(tables: BidValues) -> None:
    """More than half the hands are worth no bid: their share is in each seat's title, not a bar that would
    flatten the others."""
    from skatsim.analysis import figures as fg

    fig = fg.hand_bid_values_figure(tables.hand_values)
    for ax, seat in zip(fig.axes[:3], ("FH", "MH", "RH"), strict=True):
        zero = tables.hand_values.filter((pl.col("seat") == seat) & (pl.col("hand_value") == "0"))
        official = zero.filter(pl.col("source") == "official")["rate"].item()
        assert f"(no game worth bidding: official {official:.1%}" in ax.get_title()
        assert "0" not in [t.get_text() for t in ax.get_xticklabels()]


def test_the_bid_outcome_figure_leaves_out_bids_of_a_handful_of_games(tables: BidValues) -> None:
    """A mean score over a handful of games has an interval of hundreds of points: such a bid gets no bar
    (the 46 real games spread over their bids get none, the run's common bids do), its table row stays."""
    import math

    from skatsim.analysis import figures as fg

    fig = fg.bid_outcomes_figure(tables.by_bid, min_games=30)
    drawn = [p for p in fig.axes[1].patches if math.isfinite(p.get_height()) and p.get_height() != 0]
    assert len(drawn) == tables.by_bid.filter(pl.col("games") >= 30).height > 0
    assert tables.by_bid.filter((pl.col("source") == "iss") & (pl.col("games") < 30)).height > 0
