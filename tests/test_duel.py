"""``skatsim duel``: duplicate matches between two bot settings, the luck of the cards removed.

Hand-worked deals fix the yardstick and the statistic; the duel is checked against six plain
simulations of the same deals (with an independent copy of the Seeger-Fabian rule as the oracle);
a bot against itself differs by exactly zero on every deal; the runner's guarantees (chunking,
resume, one-line errors) hold for duels as for runs.
"""

from __future__ import annotations

import errno
import json
import math
import re
import shlex
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import IO

import numpy as np
import polars as pl
import pytest

from skatsim.analysis.duel import DuelResult, DuelStatistics, duel_statistics, read_duel, run_duel
from skatsim.bots import BOTS
from skatsim.cli import main
from skatsim.engine.duel import deal_list_points
from skatsim.engine.layout import COL_DECLARER, COL_LIST_POINTS_FH, COL_SCORE, COL_SCORE_FH, COL_WON, N_COLUMNS
from skatsim.engine.lists import N_COUNTED
from skatsim.engine.rules import BOCK_ENABLED, LIST_DEFENDER_BONUS, LIST_LENGTH, LIST_SCORING, TABLE_PLAYERS
from skatsim.errors import SkatsimError
from skatsim.run import storage
from skatsim.run.chunks import simulate_frame
from skatsim.run.duel import (
    DUEL_SCHEMA,
    OWNERS,
    SEATINGS,
    add_seating,
    duel_frame,
    duel_params,
    parse_duel_bot,
    seating_bots,
)
from skatsim.run.manifest import MANIFEST, RunManifest, chunk_name, read_manifest
from skatsim.variant import load_variant, official_params

VARIANTS = Path(__file__).resolve().parents[1] / "variants"
OFFICIAL = str(VARIANTS / "official.yaml")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``skatsim`` in this process; returns (exit code, stdout, stderr)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str, code: int) -> str:
    """The single stderr line of a refused command (exit 2, no traceback)."""
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


# --------------------------------------------------------------------------- seatings and the yardstick


def test_the_six_seatings_put_each_bot_in_every_seat_and_nine_seat_games_each() -> None:
    assert SEATINGS == ("ABB", "BAB", "BBA", "BAA", "ABA", "AAB")
    assert OWNERS.tolist() == [[0, 1, 1], [1, 0, 1], [1, 1, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert (OWNERS == 0).sum() == (OWNERS == 1).sum() == 9
    assert ((OWNERS == 0).sum(axis=0) == 3).all()  # each seat held three times by each side
    assert seating_bots("x", "y")[3] == ("y", "x", "x")


def _row(declarer: int, won: bool, score: int) -> np.ndarray:
    """A scored deal: ``declarer`` (-1: passed) played and got ``score`` (the other seats 0)."""
    row = np.zeros(N_COLUMNS, dtype=np.int64)
    row[COL_DECLARER] = declarer
    if declarer >= 0:
        row[COL_WON] = int(won)
        row[COL_SCORE] = score
        row[COL_SCORE_FH + declarer] = score
    return row


def _list_points(rows: np.ndarray, variant: str = OFFICIAL) -> list[list[int]]:
    score = duel_params(load_variant(variant).variant.params())[1]
    deal_list_points(rows, score, np.zeros(N_COUNTED, dtype=np.int64))
    return rows[:, COL_LIST_POINTS_FH : COL_LIST_POINTS_FH + 3].tolist()


def test_list_points_of_handmade_deals_follow_seeger_fabian_at_a_three_player_table() -> None:
    # won Grand 48 by MH: 48 + 50; lost Clubs 24 (score -48) by FH: -48 - 50, +40 to each defender;
    # won Null 23 by RH: 73; a passed deal: nothing; the official rules keep no lists, the duel scores them anyway
    rows = np.array([_row(1, True, 48), _row(0, False, -48), _row(2, True, 23), _row(-1, False, 0)])
    assert _list_points(rows) == [[0, 98, 0], [-98, 40, 40], [0, 0, 73], [0, 0, 0]]
    assert official_params()[LIST_SCORING] == 0  # untouched: the duel scores on a copy


def test_list_points_of_a_lost_hand_game_under_the_pre1999_rules() -> None:
    # pre-1999 a lost hand game costs its value once: Grand hand 72 lost -> -72 - 50, defenders +40
    rows = np.array([_row(2, False, -72)])
    assert _list_points(rows, str(VARIANTS / "pre1999.yaml")) == [[40, 40, -122]]


def _handmade_deal() -> tuple[np.ndarray, np.ndarray]:
    """One deal, six seatings: FH always declares a suit game worth 30; A wins it, B loses it (-60).

    By hand, list points (FH, MH, RH) and what each side gets:
    ABB  A 80, B 0, B 0            A 80    B 0
    BAB  B -110, A 40, B 40        A 40    B -70
    BBA  B -110, B 40, A 40        A 40    B -70
    BAA  B -110, A 40, A 40        A 80    B -110
    ABA  A 80, B 0, A 0            A 80    B 0
    AAB  A 80, A 0, B 0            A 80    B 0
    sums over nine seat-games each: A 400, B -250; scores A 3 x 30 = 90, B 3 x -60 = -180.
    One seating alone, 2 (a_j - b_j), a_j and b_j per seat held: 160, 150, 150, 300, 80, 80
    (sum 920, sum of squares 173,400).
    """
    totals = np.zeros((1, 2, 4), dtype=np.int64)
    single = np.zeros((1, 2), dtype=np.int64)
    for owners in OWNERS:
        a_declares = owners[0] == 0
        rows = np.array([_row(0, a_declares, 30 if a_declares else -60)])
        _list_points(rows)
        add_seating(totals, single, rows, owners)
    return totals, single


def test_a_handmade_deal_is_summed_as_worked_out_by_hand() -> None:
    totals, single = _handmade_deal()
    #                       SF    score  declared  won
    assert totals[0].tolist() == [[400, 90, 3, 3], [-250, -180, 3, 0]]
    assert single[0].tolist() == [920, 173_400]


def test_the_statistics_of_two_handmade_deals() -> None:
    frame = pl.DataFrame(
        {
            "game_id": [0, 1],
            "sf_a": [400, 0],
            "sf_b": [-250, 0],
            "score_a": [90, 0],
            "score_b": [-180, 0],
            "declared_a": [3, 0],
            "declared_b": [3, 0],
            "won_a": [3, 0],
            "won_b": [0, 0],
            "single_sum": [920, 0],
            "single_sq": [173_400, 0],
        }
    )  # the handmade deal, then a deal all three pass in every seating
    stats = duel_statistics(frame)
    assert stats.deals == 2
    assert stats.sf.per_game_a == pytest.approx(400 / 18)  # nine seat-games a deal, two deals
    assert stats.sf.per_game_b == pytest.approx(-250 / 18)
    assert stats.sf.difference == pytest.approx(650 / 18)
    sd = 650 / 9 / math.sqrt(2)  # the two per-deal differences are 650/9 and 0
    assert stats.sf.sd == pytest.approx(sd)
    half = 1.959964 * sd / math.sqrt(2)
    assert stats.sf.ci == pytest.approx((650 / 18 - half, 650 / 18 + half), rel=1e-6)
    assert stats.score.difference == pytest.approx(270 / 18)
    assert stats.declared_per_game == pytest.approx((3 / 18, 3 / 18))
    assert stats.declarer_wins[0] == 1.0 and stats.declarer_wins[1] == 0.0
    # one seating alone: t = 2 (a_j - b_j) over 12 (deal, seating) pairs, var(a_j - b_j) = var(t) / 4
    var_t = (173_400 - 920**2 / 12) / 11
    assert stats.single_sd == pytest.approx(math.sqrt(var_t / 4))
    # deals for a 95% interval of +-1 point: (1.96 sd)^2 = 3.8415 x 2,608.02 = 10,018.6 -> 10,019
    result = _result(stats)
    assert result.deals_for_one_point == 10_019
    assert result.ordinary_ratio == pytest.approx(var_t / 4 / (6 * sd**2))


def _result(stats: DuelStatistics) -> DuelResult:
    """A duel's result from its statistics (the settings do not enter the figures)."""
    return DuelResult(**vars(stats), run=RunManifest.model_construct(bots=("a", "b")), level=0.95)


# --------------------------------------------------------------------------- the duel is six simulations


def _sf_oracle(frame: pl.DataFrame) -> np.ndarray:
    """Seeger-Fabian list points by seat, written out independently of the engine (+50/-50/+40;
    a Ramsch counts its scores; a passed deal nothing)."""
    scores = frame.select("score_fh", "score_mh", "score_rh").to_numpy().astype(np.int64)
    declarer = frame["declarer"].fill_null(-1).to_numpy()
    won = frame["won"].fill_null(False).to_numpy()
    out = np.zeros_like(scores)
    ramsch = (frame["game_type"] == "ramsch").to_numpy()
    out[ramsch] = scores[ramsch]
    for i in np.flatnonzero((declarer >= 0) & ~ramsch):
        d = declarer[i]
        if won[i]:
            out[i, d] = scores[i, d] + 50
        else:
            out[i] = 40
            out[i, d] = scores[i, d] - 50
    return out


@pytest.mark.parametrize("variant", ["official.yaml", "ramsch.yaml"])
def test_a_duel_is_the_six_simulations_of_the_same_deals(variant: str) -> None:
    params = load_variant(VARIANTS / variant).variant.params()
    a, b = "heuristic", "random"
    first, count = 1000, 400
    expected = {name: np.zeros(count, dtype=np.int64) for name in DUEL_SCHEMA if name != "game_id"}
    deals = None
    for bots, owners in zip(seating_bots(a, b), OWNERS, strict=True):
        games = simulate_frame(7, first, count, params, bots, "v")
        if deals is None:
            deals = games["deal"]
        assert games["deal"].equals(deals)  # the same cards in every seating
        sf = _sf_oracle(games)
        declarer = games["declarer"].fill_null(-1).to_numpy()
        won = games["won"].fill_null(False).to_numpy()
        here = np.zeros((count, 2), dtype=np.int64)
        for seat, suffix in enumerate(("fh", "mh", "rh")):
            side = "ab"[owners[seat]]
            here[:, owners[seat]] += sf[:, seat]
            expected[f"sf_{side}"] += sf[:, seat]
            expected[f"score_{side}"] += games[f"score_{suffix}"].to_numpy()
            expected[f"declared_{side}"] += declarer == seat
            expected[f"won_{side}"] += (declarer == seat) & won
        seats_a = int((owners == 0).sum())
        twice = (2 // seats_a) * here[:, 0] - (2 // (3 - seats_a)) * here[:, 1]
        expected["single_sum"] += twice
        expected["single_sq"] += twice * twice
    frame = duel_frame(7, first, count, params, a, b)
    assert frame.schema == DUEL_SCHEMA
    assert frame["game_id"].to_list() == list(range(first, first + count))
    for name, values in expected.items():
        assert frame[name].to_numpy().tolist() == values.tolist(), name
    if variant == "ramsch.yaml":
        assert (frame["declared_a"] + frame["declared_b"] < 6).any()  # some deals were Ramsch


def test_a_bot_against_itself_differs_by_exactly_zero_on_every_deal() -> None:
    """The bots' random stream, like the cards, depends only on (seed, deal): the six seatings of a
    self-duel are the same game six times, so A - B is exactly 0 deal by deal, not only on average."""
    params = official_params()
    for bot in ("random", "heuristic:loss_aversion=2.5"):
        frame = duel_frame(3, 0, 300, params, bot, bot)
        for name in ("sf", "score", "declared", "won"):
            assert frame[f"{name}_a"].equals(frame[f"{name}_b"].alias(f"{name}_a")), (bot, name)
        assert frame["sf_a"].abs().sum() > 0


def test_swapping_the_bots_swaps_the_sides() -> None:
    params = official_params()
    ab = duel_frame(5, 0, 200, params, "heuristic", "random")
    ba = duel_frame(5, 0, 200, params, "random", "heuristic")
    for name in ("sf", "score", "declared", "won"):
        assert ab[f"{name}_a"].to_list() == ba[f"{name}_b"].to_list()
    assert ab["single_sum"].to_list() == (-ba["single_sum"]).to_list()
    assert ab["single_sq"].to_list() == ba["single_sq"].to_list()


@pytest.mark.parametrize("variant", ["tournament.yaml", "tournament4.yaml"])
def test_lists_tables_and_bock_rounds_do_not_enter_a_duel(variant: str) -> None:
    """Deals are played on their own at a three-player table and scored +50/-50/+40: the tournament
    variants (36-deal lists; four players, 48-deal lists and +30) play and score the duel exactly as
    the same rules without lists at three players. The bots play for the variant's own list points
    (issue 13), so what stays of the four-player table is its +30 to each defender; Bock rounds never
    double a duel's score."""
    params = load_variant(VARIANTS / variant).variant.params()
    plain = load_variant(VARIANTS / "tournament.yaml").variant.params().copy()
    plain[LIST_LENGTH] = 0
    plain[LIST_DEFENDER_BONUS] = params[LIST_DEFENDER_BONUS]
    tournament = duel_frame(2, 72, 144, params, "heuristic", "random")
    assert tournament.equals(duel_frame(2, 72, 144, plain, "heuristic", "random"))
    play, score = duel_params(load_variant(VARIANTS / "bock.yaml").variant.params())
    assert play[LIST_LENGTH] == 0 and play[TABLE_PLAYERS] == 3
    assert score[LIST_SCORING] == 1 and score[BOCK_ENABLED] == 0


def test_heuristic_is_ahead_of_random_with_the_interval_above_zero() -> None:
    result = run_duel("heuristic", "random", 3000, seed=11)
    assert result.deals == 3000 and result.games == 18_000
    lo, hi = result.sf.ci
    assert 0 < lo < result.sf.difference < hi
    assert result.sf.difference > 30  # about 54 points per game on a large run (README)
    assert result.sf.per_game_a > 0 > result.sf.per_game_b


# --------------------------------------------------------------------------- on the runner


def test_the_result_depends_neither_on_chunks_nor_jobs_and_the_manifest_records_both_settings(tmp_path: Path) -> None:
    whole = run_duel("heuristic:loss_aversion=2.5", "random", 1000, seed=4, out_dir=str(tmp_path / "whole"))
    chunked = run_duel(
        "heuristic:loss_aversion=2.5", "random", 1000, seed=4, out_dir=str(tmp_path / "c"), chunk_size=137, jobs=2
    )
    assert chunked.to_json() | {"seconds": 0, "jobs": 0} == whole.to_json() | {"seconds": 0, "jobs": 0}
    manifest = read_manifest(str(tmp_path / "c"))
    assert manifest is not None and manifest.job == "duel" and manifest.finished is not None
    assert manifest.bots == ("heuristic:loss_aversion=2.5", "random") and manifest.n_chunks == 8
    assert manifest.bot_parameters[0]["loss_aversion"] == 2.5
    assert set(manifest.bot_parameters[0]) == {p.name for p in BOTS["heuristic"].params}
    assert manifest.bot_parameters[1] == {}
    assert read_duel(str(tmp_path / "c")).to_json()["difference"] == whole.sf.difference


def _failing_writes(after: int) -> Callable[[str, Callable[[IO[bytes]], object]], None]:
    """``storage.write_atomic`` that writes ``after`` chunk files, then finds the disk full."""
    real = storage.write_atomic
    written = [0]

    def write_atomic(path: str, write: Callable[[IO[bytes]], object]) -> None:
        chunk = storage.basename(path).startswith("chunk-")
        if written[0] >= after:
            raise OSError(errno.ENOSPC, "No space left on device")
        written[0] += chunk
        real(path, write)

    return write_atomic


def duel_text(stdout: str) -> str:
    """A duel's text without how long it took."""
    return re.sub(r" in [\d.]+ s on \d+ jobs?", "", stdout)


def test_a_stopped_duel_resumes_to_the_same_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "duel"
    args = ["duel", "heuristic", "random", "--games", "5000", "--chunk-size", "1000", "--jobs", "1", "--quiet"]
    code, whole, err = cli(capsys, *args)
    assert (code, err) == (0, "")
    with monkeypatch.context() as patch:
        patch.setattr(storage, "write_atomic", _failing_writes(2))
        code, _, err = cli(capsys, *args, "--out", str(out))
    line = one_line(err, code)
    assert line.startswith(f"skatsim: error: {out / chunk_name(2000, 1000)}: cannot write chunk file: the disk is full")
    command = shlex.join(["skatsim", *args, "--out", str(out), "--resume"])
    assert line.endswith(f"; 2,000 of 5,000 deals kept in {out}; to continue: {command}"), line  # --games counts deals
    assert sorted(p.name for p in out.iterdir()) == [chunk_name(0, 1000), chunk_name(1000, 1000), MANIFEST]
    code, resumed, err = cli(capsys, *shlex.split(command)[1:])
    assert (code, err) == (0, "")
    assert duel_text(resumed) == duel_text(whole).replace("games\n", f"games; kept in {out}\n", 1)


def test_a_duel_stopped_in_a_temporary_folder_names_it_in_the_resume_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["duel", "random", "heuristic", "--games", "3000", "--chunk-size", "1000", "--jobs", "1", "--quiet"]
    with monkeypatch.context() as patch:
        patch.setattr(storage, "write_atomic", _failing_writes(1))
        code, _, err = cli(capsys, *args)
    match = re.search(r"; 1,000 of 3,000 deals kept in (\S+); to continue: (.+)$", one_line(err, code))
    assert match, err
    folder = Path(match[1])
    try:
        assert folder.name.startswith("skatsim-duel-")
        assert match[2] == shlex.join(["skatsim", *args, "--out", str(folder), "--resume"])
        code, stdout, err = cli(capsys, *shlex.split(match[2])[1:], "--json")
        assert (code, err) == (0, "")
        assert json.loads(stdout)["deals"] == 3000
    finally:
        shutil.rmtree(folder)


def test_json_has_the_keys_of_the_issue(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("duel", "heuristic:loss_aversion=2.50", "random", "--games", "200", "--json", "--quiet")
    code, stdout, err = cli(capsys, *args)
    assert (code, err) == (0, "")
    data = json.loads(stdout)
    assert list(data)[:7] == [
        "a",
        "b",
        "deals",
        "points_per_game_a",
        "points_per_game_b",
        "difference",
        "difference_ci",
    ]
    assert (data["a"], data["b"], data["deals"], data["games"]) == ("heuristic:loss_aversion=2.5", "random", 200, 1200)
    lo, hi = data["difference_ci"]
    assert lo < data["difference"] < hi
    assert data["difference"] == pytest.approx(data["points_per_game_a"] - data["points_per_game_b"])


def test_the_text_names_the_variant_and_both_yardsticks(capsys: pytest.CaptureFixture[str]) -> None:
    pre1999 = str(VARIANTS / "pre1999.yaml")
    code, stdout, err = cli(capsys, "duel", "random", "random", "--games", "100", "--variant", pre1999, "--quiet")
    assert (code, err) == (0, "")
    assert stdout.startswith(
        "duel: A = random, B = random; variant pre1999, seed 1\n100 deals x 6 seatings = 600 games"
    )
    assert re.search(r"Seeger-Fabian points +[-+]\d+\.\d\d +[-+]\d+\.\d\d +\+0\.00 +\+0\.00 \.\. \+0\.00", stdout)
    assert "score (pre1999)" in stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nobot", "random"], "skatsim: error: BOT_A: unknown bot 'nobot'; known bots: heuristic, pimc, random"),
        (
            ["random", "heuristic:loss_aversion=5"],
            "skatsim: error: BOT_B: 'heuristic:loss_aversion=5': loss_aversion must be between 0.25 and 4",
        ),
        (["random,heuristic", "random"], "skatsim: error: BOT_A: give one bot setting, got 'random,heuristic'"),
        (["random", "random", "--resume"], "skatsim: error: --resume needs --out DIR"),
        (["random", "random", "--level", "1.5"], "skatsim: error: --level must be at least 0.5 and below 1"),
        (["random", "random", "--variant", "nofile.yaml"], "skatsim: error: nofile.yaml"),
        (["random", "random", "--games", "0"], "skatsim: error: Invalid value for '--games': 0 is below 1"),
        (["random", "random", "--scheduler", "tcp://x:1"], "skatsim: error: --scheduler needs --backend dask"),
    ],
)
def test_every_mistake_is_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    full = ["duel", *args] if "--games" in args else ["duel", *args, "--games", "10"]
    code, _, err = cli(capsys, *full, "--quiet")
    assert one_line(err, code).startswith(message), err


def test_a_duel_folder_and_a_simulation_folder_are_not_mistaken_for_each_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    duel, run = tmp_path / "duel", tmp_path / "run"
    assert cli(capsys, "duel", "random", "random", "--games", "50", "--out", str(duel), "--quiet")[0] == 0
    assert cli(capsys, "simulate", OFFICIAL, "--games", "50", "--out", str(run), "--quiet")[0] == 0
    code, _, err = cli(capsys, "report", str(duel), "--out", str(tmp_path / "r.html"))
    assert one_line(err, code) == f"skatsim: error: {duel}: holds the output of skatsim duel, not of skatsim simulate"
    code, _, err = cli(capsys, "duel", "random", "random", "--games", "50", "--out", str(run), "--resume", "--quiet")
    assert one_line(err, code) == (
        f"skatsim: error: {run}: cannot resume: the folder holds the output of skatsim simulate, not of skatsim duel"
    )
    code, _, err = cli(capsys, "duel", "random", "heuristic", "--games", "50", "--out", str(duel), "--resume")
    assert (
        one_line(err, code)
        == f"skatsim: error: {duel}: cannot resume: the run was made with bots random,random, not random,heuristic"
    )
    with pytest.raises(SkatsimError, match="not of skatsim duel"):
        read_duel(str(run))


def test_a_bot_setting_is_read_as_in_bots() -> None:
    assert parse_duel_bot(" heuristic : loss_aversion = 2.5 ", "BOT_A") == "heuristic:loss_aversion=2.5"
    assert parse_duel_bot("heuristic:loss_aversion=1", "BOT_A") == "heuristic"  # the default: the same setting
