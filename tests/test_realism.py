"""The figures compared with people's games are computed as stated."""

from __future__ import annotations

import polars as pl
import pytest

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
    assert distance({r.name: r.people for r in PEOPLE}) == 0.0
    table = realism_table(_games())
    assert table.height == len(PEOPLE)
    assert table.filter(pl.col("figure") == "deals all passed")["within"].item() is False
