"""The figures compared with people's games are computed as stated."""

from __future__ import annotations

import polars as pl
import pytest

from skatsim.analysis.realism import PEOPLE, bot_figures, distance, realism_table


def _games() -> pl.LazyFrame:
    # 10 deals: 1 passed; played: 3 grand (2 won), 2 clubs (1 won), 1 hearts, 1 diamonds, 2 null (1 won)
    types = ["passed", "grand", "grand", "grand", "clubs", "clubs", "hearts", "diamonds", "null", "null"]
    won = [None, True, True, False, True, False, True, True, True, False]
    schneider = [None, True, False, False, False, False, True, False, False, False]
    return pl.LazyFrame({"game_type": types, "won": won, "schneider": schneider})


def test_bot_figures_on_a_hand_made_table() -> None:
    f = bot_figures(_games())
    assert f["passed"] == pytest.approx(10.0)
    assert f["grand"] == pytest.approx(100 * 3 / 9)
    assert f["clubs"] == pytest.approx(100 * 2 / 9)
    assert f["spades"] == 0.0
    assert f["win"] == pytest.approx(100 * 6 / 9)
    assert f["win_suit"] == pytest.approx(100 * 3 / 4)
    assert f["win_grand"] == pytest.approx(100 * 2 / 3)
    assert f["win_null"] == pytest.approx(50.0)
    assert f["schneider"] == pytest.approx(100 * 2 / 9)


def test_people_are_at_distance_zero_and_the_table_marks_the_bands() -> None:
    assert distance({r.name: r.people for r in PEOPLE}) == 0.0
    table = realism_table(_games())
    assert table.height == len(PEOPLE)
    assert table.filter(pl.col("figure") == "deals all passed")["within"].item() is False
