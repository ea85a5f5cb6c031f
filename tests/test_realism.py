"""The figures compared with people's games are computed as stated."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from script_module import load_script

from skatsim.analysis.realism import PEOPLE, bot_figures, distance, realism_table


def _games() -> pl.LazyFrame:
    # 12 deals: 1 passed; played: 3 grand (2 won), 2 clubs (1 won), 1 hearts, 1 diamonds, 4 null (2 won): a Null
    # (won), a Null hand (lost), a Null ouvert (won) and a Null ouvert hand (lost)
    types = ["passed", "grand", "grand", "grand", "clubs", "clubs", "hearts", "diamonds"] + ["null"] * 4
    won = [None, True, True, False, True, False, True, True, True, False, True, False]
    schneider = [None, True, False, False, False, False, True, False, False, False, False, False]
    hand = [None, False, True, False, False, False, False, False, False, True, False, True]
    ouvert = [None, False, False, False, False, False, False, False, False, False, True, True]
    return pl.LazyFrame({"game_type": types, "won": won, "schneider": schneider, "hand": hand, "ouvert": ouvert})


def test_bot_figures_on_a_hand_made_table() -> None:
    f = bot_figures(_games())
    assert f["passed"] == pytest.approx(100 / 12)
    assert f["grand"] == pytest.approx(100 * 3 / 11)
    assert f["clubs"] == pytest.approx(100 * 2 / 11)
    assert f["null"] == pytest.approx(100 * 4 / 11)
    assert f["spades"] == 0.0
    assert f["win"] == pytest.approx(100 * 7 / 11)
    assert f["win_suit"] == pytest.approx(100 * 3 / 4)
    assert f["win_grand"] == pytest.approx(100 * 2 / 3)
    assert f["win_null"] == pytest.approx(50.0)
    assert f["schneider"] == pytest.approx(100 * 2 / 11)
    for kind, won in (("null_plain", 100.0), ("null_hand", 0.0), ("null_ouvert", 100.0), ("null_ouvert_hand", 0.0)):
        assert f[kind] == pytest.approx(25.0), kind
        assert f[f"win_{kind}"] == pytest.approx(won), kind


def test_people_are_at_distance_zero_and_the_table_marks_the_bands() -> None:
    people = {r.name: r.people for r in PEOPLE}
    assert distance(people) == 0.0
    # each deviation counts in units of half its band: passed (band 2.9-6.9) 2 points off is 1, Grand
    # (30.2-34.2) 4 points off is 2 (squared: 4), null_hand (0.9-3.6) 1.35 below is 1
    assert distance({**people, "passed": 6.9}) == pytest.approx(1.0)
    assert distance({**people, "passed": 2.9, "grand": 36.2}) == pytest.approx(1.0 + 4.0)
    assert distance({**people, "null_hand": 1.8 - 1.35}) == pytest.approx(1.0)
    table = realism_table(_games())
    assert table.height == len(PEOPLE)
    assert table["figure"].to_list() == [r.meaning for r in PEOPLE]
    assert table["people"].to_list() == [r.people for r in PEOPLE]
    assert table.filter(pl.col("figure") == "deals all passed")["within"].item() is False
    # the hand-made table's figures (see test_bot_figures_on_a_hand_made_table), rounded to 0.1
    bots = [8.3, 27.3, 18.2, 0.0, 9.1, 9.1, 36.4, 63.6, 75.0, 66.7, 50.0, 18.2]
    bots += [25.0, 25.0, 25.0, 25.0, 100.0, 0.0, 100.0, 0.0]  # the Null kinds: shares, then win rates
    assert table["bots"].to_list() == bots
    assert table["band"].to_list()[:3] == ["2.9-6.9", "30.2-34.2", "19.1-23.1"]
    # only two figures fall in their bands: diamonds (9.1 in 8.7-12.7) and suit wins (75.0 in 74.6-80.6)
    within = dict(zip([r.name for r in PEOPLE], table["within"].to_list(), strict=True))
    assert [name for name, inside in within.items() if inside] == ["diamonds", "win_suit"]


def test_the_rollout_break_even_prints_a_row_per_variant_and_level() -> None:
    """``scripts/realism.py --break-even-rollouts`` runs on a tiny sample and its summary table has one row
    per variant and bid level, each with the published break-even of that level; so has the table by
    seat, whose hands add up to the summary's."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "realism.py"
    args = ["--break-even-rollouts", "--hands", "24", "--pick-samples", "4", "--samples", "8"]
    out = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, check=True).stdout
    lines = [line.split(" | ") for line in out.splitlines() if line.startswith(("| tournament |", "| official |"))]
    rows, seats, costs = lines[:6], lines[6:12], lines[12:]  # the summary, by seat, the rejection cost
    levels = [(f"| {name}", str(v)) for name in ("tournament", "official") for v in (18, 48, 96)]
    assert [(r[0], r[1]) for r in rows] == [(r[0], r[1]) for r in seats] == [(r[0], r[1]) for r in costs] == levels
    for row, by_seat in zip(rows, seats, strict=True):
        counts = [int(cell.split("(")[1].split(")")[0].replace(",", "")) for cell in by_seat[2:5]]
        assert sum(counts) == int(row[2].replace(",", ""))
    published = [r[5] for r in rows]
    assert published == ["55.8%", "59.8%", "62.4%", "66.7%", "66.7%", "66.7%"]
    assert out.count("| 95-100% |") == 2  # a bin table per variant
    assert "worlds reached (the others push the hand to the level" in out  # the default yardstick
    # one level under one scoring: the same row as measured beside the others
    alone = subprocess.run(
        [sys.executable, str(script), *args, "--levels", "48", "--scorings", "official"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    only = [line for line in alone.splitlines() if line.startswith(("| tournament |", "| official |"))]
    assert only == [" | ".join(r) for r in (rows[4], seats[4], costs[4])]


def test_the_rollout_break_even_refuses_a_level_it_does_not_measure() -> None:
    """A level or scoring outside the measured ones is one line and exit 2, not a traceback."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "realism.py"
    for option, value in (("--levels", "18,50"), ("--scorings", "ramsch"), ("--levels", "x")):
        done = subprocess.run(
            [sys.executable, str(script), "--break-even-rollouts", option, value], capture_output=True, text=True
        )
        assert done.returncode == 2
        assert done.stderr.splitlines()[-1].endswith(
            f"{option} takes some of "
            + ("18,48,96" if option == "--levels" else "tournament,official")
            + f", not {value!r}"
        )


def _break_even(*bots: str) -> list[str]:
    script = Path(__file__).resolve().parents[1] / "scripts" / "realism.py"
    out = subprocess.run(
        [sys.executable, str(script), "--break-even", *bots], capture_output=True, text=True, check=True
    ).stdout
    return [line.split(" | ")[3] for line in out.splitlines() if line.startswith(("| tournament |", "| official |"))]


def test_the_model_based_break_even_is_of_the_bots_given() -> None:
    """``--break-even --bots`` reads the given bots' model: a loss-averse bot needs a higher chance of
    winning at every level (it used to print the default bots' figures whatever ``--bots`` said)."""
    default, averse = _break_even(), _break_even("--bots", "heuristic:loss_aversion=2")
    assert len(default) == len(averse) == 6
    assert all(float(a.rstrip("%")) > float(d.rstrip("%")) for d, a in zip(default, averse, strict=True))


def test_the_tune_holds_the_grand_bid_confidence_it_is_given() -> None:
    """``scripts/tune_bots.py --grand-bid-total T`` sets ``grand_bid_bias`` to ``T - grand_bias`` at every
    step, so the search moves what the bots declare, not how high they bid a Grand; without a total the
    values pass unchanged."""
    tune = load_script("tune_bots")
    values = {"grand_bias": -0.45, "grand_bid_bias": 0.0, "suit_bias": -0.3}
    tied = tune.tied(values, -0.25)
    assert tied["grand_bid_bias"] == pytest.approx(0.2)
    assert tied["grand_bias"] + tied["grand_bid_bias"] == pytest.approx(-0.25)
    assert tied["suit_bias"] == -0.3 and values["grand_bid_bias"] == 0.0  # the rest kept, the input untouched
    assert tune.tied(values, None) == values


def test_the_auction_check_compares_each_picked_up_game_with_the_models_chance() -> None:
    """``scripts/auction_check.py``: one row per suit game or Grand declared with the skat in the self-play
    games, with the declarer's seat, final bid and result as played, and the model's chance before the
    pickup for his ten cards (no confidence added: a hand the model gives 0.5 is a coin toss)."""
    from skatsim.bots.handeval import BEFORE_PICKUP, GRAND_CLASS
    from skatsim.bots.winprob import game_logit
    from skatsim.engine.deal import unpack_deal
    from skatsim.engine.gametypes import GRAND
    from skatsim.run.chunks import simulate_frame
    from skatsim.variant import load_variant

    check = load_script("auction_check")
    tournament = str(Path(__file__).resolve().parents[1] / "variants" / "tournament.yaml")
    rows = check.declarations(600, 3, tournament, "heuristic")
    variant = load_variant(tournament).variant
    frame = simulate_frame(3, 0, 600, variant.params(), ("heuristic",) * 3, variant.name)
    gt = frame["game_type"].cast(str)
    picked = frame.filter(gt.is_in(["diamonds", "hearts", "spades", "clubs", "grand"]) & ~frame["hand"])
    assert rows.shape == (picked.height, 5) and picked.height > 300
    assert rows[:, 1].tolist() == picked["declarer"].to_list() and rows[:, 2].tolist() == picked["bid"].to_list()
    assert rows[:, 3].tolist() == [float(w) for w in picked["won"]]
    assert rows[:, 0].sum() == (picked["game_type"].cast(str) == "grand").sum()
    assert ((rows[:, 4] > 0) & (rows[:, 4] < 1)).all()
    first = int(np.flatnonzero(rows[:, 0] == 1)[0])
    hands = np.zeros(3, dtype=np.uint32)
    unpack_deal(np.int64(picked["deal"][first]), hands)
    seat = int(rows[first, 1])
    z = game_logit(GRAND_CLASS, BEFORE_PICKUP, GRAND, np.uint32(hands[seat]), 0.0, seat)
    assert rows[first, 4] == pytest.approx(1 / (1 + np.exp(-z)))


def _script_rows(name: str, args: list[str], start: str) -> list[list[str]]:
    script = Path(__file__).resolve().parents[1] / "scripts" / f"{name}.py"
    out = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, check=True).stdout
    return [line.split(" | ") for line in out.splitlines() if line.startswith(start)]


def test_the_first_bid_by_kind_of_game_holds_the_break_evens_hands_at_18() -> None:
    """``scripts/first_bid.py`` takes every hand at the first bid on the worlds and rollouts of
    ``realism.py``'s 18: its hands whose best game is worth exactly 18 are those hands, with the same
    50% point; the kinds of game add up to all hands, and two jobs give the figures of one."""
    sample = ["--hands", "90", "--pick-samples", "4", "--samples", "8"]
    (at_18,) = _script_rows(
        "realism", [*sample, "--break-even-rollouts", "--levels", "18", "--scorings", "tournament"], "| tournament |"
    )[:1]
    rows = _script_rows("first_bid", sample, "| ")[2:]
    kinds = {row[0].lstrip("| "): row for row in rows}
    assert list(kinds) == ["diamonds, worth 18", "a suit worth 20 to 24", "a suit worth more", "Grand", "Null", "all"]
    diamonds = kinds["diamonds, worth 18"]
    assert int(diamonds[1]) > 0
    assert (diamonds[1], diamonds[3], diamonds[5]) == (at_18[2], at_18[3], at_18[7])  # hands, 50% point, with it
    assert diamonds[4] == "55.8%"  # the published break-even at 18
    count = [int(row[1].replace(",", "")) for row in rows]
    assert sum(count[:-1]) == count[-1] > 0
    assert _script_rows("first_bid", [*sample, "--jobs", "2"], "| ")[2:] == rows


def test_the_first_bid_refuses_what_it_cannot_measure(capsys: pytest.CaptureFixture[str]) -> None:
    """A count below 1, or a variant without a known break-even, is one line and exit 2, not a traceback."""
    first_bid = load_script("first_bid")
    for args, said in (
        (["--hands", "0"], "--hands must be at least 1, got 0"),
        (["--jobs", "0"], "--jobs must be at least 1, got 0"),
        (["--variant", "variants/ramsch.yaml"], "the break-even is known for tournament.yaml and official.yaml only"),
    ):
        with pytest.raises(SystemExit) as stop:
            first_bid.main(args)
        assert stop.value.code == 2
        assert capsys.readouterr().err.splitlines()[-1].endswith(said)


def test_a_fifty_percent_point_beyond_the_range_prints_as_beyond_it() -> None:
    """A bootstrap sample of a few hands can put the fit's 50% point at millions of percent: it prints as
    beyond 0% or 100%, a share inside as it is."""
    pct = load_script("realism")._pct
    assert [pct(x) for x in (0.5, 0.0, 1.0, -64603.1, 34014.3, float("nan"))] == [
        "50.0%",
        "0.0%",
        "100.0%",
        "<0%",
        ">100%",
        "n/a",
    ]
