"""Four-player tables (``table.players: 4``, variants/tournament4.yaml): the dealer sits out each deal,
lists of 48 deals, Seeger-Fabian +30 to each of the three others when the declarer loses, Bock and Ramsch
rounds of four deals, one bot per player, and the analysis following four players.

Players keep their numbers: forehand, middlehand, rearhand of a list's first deal are players 0, 1, 2,
and player 3 deals it and sits out; in deal ``k`` player ``(k + 3) % 4`` deals (docs/schema.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from handmade import params as _params

from skatsim.bots import bot_arrays
from skatsim.engine import bock
from skatsim.engine.block import simulate_block
from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS, ROW_COLUMNS
from skatsim.errors import SkatsimError
from skatsim.variant import Variant, load_variant

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT4 = ROOT / "variants" / "tournament4.yaml"
SEATS = ("fh", "mh", "rh")


def _list(params: np.ndarray, bots: tuple[str, ...], n: int = 48, seed: int = 1) -> dict[str, np.ndarray]:
    kinds, bot_params = bot_arrays(bots, params)
    rows = np.zeros((n, N_COLUMNS), dtype=np.int64)
    simulate_block(np.uint64(seed), 0, kinds, bot_params, params, rows, np.zeros((0, LOG_WIDTH), dtype=np.int16))
    return {name: rows[:, k] for k, name in enumerate(ROW_COLUMNS)}


def test_tournament4_compiles() -> None:
    """Four players, lists of 48 deals, 30 list points to each of the three others (unless written)."""
    v = load_variant(TOURNAMENT4).variant
    assert (v.table.players, v.needs_lists, v.list_length, v.defender_bonus) == (4, True, 48, 30)
    plain = Variant.model_validate({"table": {"players": 4}, "tournament": {"enabled": True}})
    assert (plain.list_length, plain.defender_bonus) == (48, 30)
    assert Variant.model_validate({"table": {"players": 4}}).list_length == 48  # the dealer rotates in lists
    own = Variant.model_validate({"table": {"players": 4}, "tournament": {"enabled": True, "defender_bonus": 40}})
    assert own.defender_bonus == 40


def test_a_list_is_whole_rounds_of_four() -> None:
    with pytest.raises(ValueError, match="tournament.list_length: 50 is not a multiple of 4"):
        Variant.model_validate({"table": {"players": 4}, "tournament": {"enabled": True, "list_length": 50}})
    with pytest.raises(ValueError, match="table.players"):
        Variant.model_validate({"table": {"players": 5}})


def test_48_deal_four_player_list_summed_by_hand() -> None:
    """A seeded 48-deal list at a four-player table (random bots). Each deal's list points: the declarer's
    score +50 won, -50 lost; when he loses +30 to each of the three others, the dealer sitting out too.
    The first four deals are all lost by the declarer, with the dealer 3, 0, 1, 2 sitting out:
    deal 0: player 1 (MH) -66 - 50 = -116, players 0, 2 and 3 (out) +30 -> 30, -116, 30, 30;
    deal 1: player 1 (FH) -90 - 50 = -140, players 2, 3, 0 (out) +30 -> 60, -256, 60, 60;
    deal 2: player 2 (FH) -70 - 50 = -120, players 3, 0, 1 (out) +30 -> 90, -226, -60, 90;
    deal 3: player 1 (RH) -60 - 50 = -110, players 3, 0, 2 (out) +30 -> 120, -336, -30, 120.
    Every player deals (sits out) 12 times; the list totals equal the same reckoning over all 48 deals."""
    rows = _list(load_variant(TOURNAMENT4).variant.params(), ("random",) * 4)
    assert list(rows["dealer"]) == [(k + 3) % 4 for k in range(48)]
    assert list(rows["deal_in_list"]) == list(range(48)) and set(rows["list_id"]) == {0}
    totals = [0, 0, 0, 0]
    for k in range(48):
        declarer, dealer = rows["declarer"][k], (k + 3) % 4
        points = [0, 0, 0, 0]  # FH, MH, RH, the player sitting out
        if declarer >= 0:
            won = rows["won"][k] == 1
            points[declarer] = rows["score"][k] + (50 if won else -50)
            if not won:
                points = [p if s == declarer else 30 for s, p in enumerate(points)]
        assert [rows[f"list_points_{s}"][k] for s in (*SEATS, "out")] == points, k
        for seat in range(3):
            totals[(dealer + 1 + seat) % 4] += points[seat]
        totals[dealer] += points[3]
        if k == 3:
            assert totals == [120, -336, -30, 120]
    assert totals == [322, -840, -148, -104]
    declared = rows["declarer"] >= 0
    lost = int((declared & (rows["won"] == 0)).sum())
    won = int((declared & (rows["won"] == 1)).sum())
    assert sum(totals) == int(rows["score"].sum()) + 50 * (won - lost) + 3 * 30 * lost


def test_bock_and_ramsch_rounds_are_four_deals() -> None:
    """At a four-player table a round is one deal per player: an event in deal 1 makes deals 2-5 Bock
    deals and, with a Ramsch round after each Bock round, deals 6-9 compulsory Ramsch deals."""
    params = _params(BOCK_ENABLED=1, BOCK_RAMSCH_ROUND=1, TABLE_PLAYERS=4)
    queue = np.zeros(bock.N_FIELDS, dtype=np.int64)
    bock.new_queue(queue)
    multipliers, ramsch_rounds = [], []
    for k in range(11):
        ramsch_rounds.append(int(bock.ramsch_round(queue, params)))
        multipliers.append(int(bock.multiplier(queue, k == 1, params)))
        bock.advance(queue, int(k == 1), params)
    assert multipliers == [1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 1]
    assert ramsch_rounds == [0] * 6 + [1] * 4 + [0]


def test_one_bot_per_player_and_the_analysis_follows_four_players(tmp_path: Path) -> None:
    """`--bots` names four players; each deal seats those of forehand, middlehand and rearhand, and
    `bot_out` names the dealer sitting out. The list totals of the analysis are the four players' own."""
    from skatsim import analysis as an
    from skatsim.run.runner import run_simulation

    bots = "random,heuristic,random,heuristic:loss_aversion=2.5"
    run_simulation(str(TOURNAMENT4), 96, 1, str(tmp_path / "run"), bots=bots, jobs=1, progress=False)
    frame = pl.read_parquet(tmp_path / "run" / "*.parquet").sort("game_id")
    names = bots.split(",")
    for row in frame.iter_rows(named=True):
        dealer = row["dealer"]
        seated = [names[(dealer + 1 + s) % 4] for s in range(3)]
        assert [row["bot_fh"], row["bot_mh"], row["bot_rh"], row["bot_out"]] == [*seated, names[dealer]]
    totals = an.list_totals(an.scan(tmp_path / "run"))
    assert totals["player"].unique().sort().to_list() == [f"player {p}" for p in range(4)]
    assert set(totals["deals"]) == {48} and set(totals["measure"]) == {"list_points"}
    for list_id in (0, 1):
        part = frame.filter(pl.col("list_id") == list_id)
        expected = [0, 0, 0, 0]
        for row in part.iter_rows(named=True):
            for s, seat in enumerate(SEATS):
                expected[(row["dealer"] + 1 + s) % 4] += row[f"list_points_{seat}"]
            expected[row["dealer"]] += row["list_points_out"]
        found = totals.filter(pl.col("list") == list_id).sort("player")["total"].to_list()
        assert found == expected
    with pytest.raises(SkatsimError, match="give one bot setting or 4"):
        run_simulation(str(TOURNAMENT4), 48, 1, str(tmp_path / "three"), bots="random,heuristic,random")


def test_three_and_four_player_tables_compared_deal_by_deal(tmp_path: Path) -> None:
    """The same deals and bots at three and four players: the seats play alike (the dealer sitting out
    takes no part), so only the list points differ: 30 to the player sitting out, who does not exist at
    three players. The three-player side pays each defender of a lost game the same 30 as the four-player
    table: the bots play for their list points (issue 13), so with its own +40 they would bid otherwise."""
    from skatsim.analysis.compare import compare_variants

    three = tmp_path / "tournament30.yaml"
    text = (ROOT / "variants" / "tournament.yaml").read_text(encoding="utf-8")
    three.write_text(text.replace("defender_bonus: 40", "defender_bonus: 30"), encoding="utf-8")
    assert load_variant(three).variant.tournament.defender_bonus == 30
    result = compare_variants(three, TOURNAMENT4, 480, jobs=1, n_boot=50)
    means = {row["metric"]: row for row in result.means.iter_rows(named=True)}
    assert means["score_fh"]["diff"] == 0 and means["declarer"]["diff"] == 0
    out = means["list_points_out"]
    assert out["mean_a"] == 0 and out["mean_b"] > 0
