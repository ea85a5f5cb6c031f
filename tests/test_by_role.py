"""``scripts/by_role.py``: the declarer's win rate by who declares and who defends, paired deal by deal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from script_module import load_script

from skatsim.run.runner import run_simulation

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "by_role.py"
VARIANT = ROOT / "variants" / "official.yaml"
by_role = load_script("by_role")


def _run(bots: list[tuple[str, str, str]], won: list[bool], declarer: list[int | None]) -> pl.LazyFrame:
    """A hand-made run: deal i with ``bots[i]`` at FH, MH, RH, all suit games bid 18 with the skat."""
    n = len(won)
    return pl.LazyFrame(
        {
            "game_id": list(range(n)),
            "declarer": declarer,
            "game_type": ["clubs"] * n,
            "bid": [18] * n,
            "hand": [False] * n,
            "won": won,
            "bot_fh": [b[0] for b in bots],
            "bot_mh": [b[1] for b in bots],
            "bot_rh": [b[2] for b in bots],
        }
    )


def test_roles_name_the_declarers_bot_and_the_two_defenders_from_the_seats() -> None:
    bots = [("x", "y", "z")] * 4
    games = by_role.roles(_run(bots, [True, False, True, True], [0, 1, 2, None]))
    assert games["role"].to_list() == ["x vs y + z", "y vs x + z", "z vs x + y"]  # the passed deal is left out


def test_paired_differences_are_exact_on_a_hand_made_pair_of_runs() -> None:
    """Four deals declared by forehand alike in both runs; run B swaps the defenders for ``p`` and
    loses two of the three games run A won (and wins the one A lost): A - B = (0 - 1 - 1 + 0) / 4."""
    plain = [("h", "h", "h")] * 4
    swapped = [("h", "p", "p")] * 4
    a = by_role.roles(_run(plain, [True, True, True, False], [0] * 4))
    b = by_role.roles(_run(swapped, [True, False, False, True], [0] * 4))
    rows = {(r[0], r[1], r[2]): r[3:] for r in by_role.compare(b, a)}
    n, b_won, diff, lo, hi = rows[("all", "h vs p + p", "h vs h + h")]
    assert (n, b_won, diff) == (4, 75.0, -25.0)
    assert lo < diff < hi
    assert rows[("suit", "h vs p + p", "h vs h + h")][:3] == (4, 75.0, -25.0)
    assert ("Grand", "h vs p + p", "h vs h + h") not in rows  # no Grand among the deals


def test_only_deals_declared_alike_are_compared() -> None:
    bots = [("h", "h", "h")] * 3
    a = by_role.roles(_run(bots, [True, True, True], [0, 1, 2]))
    b = by_role.roles(_run([("r", "h", "h")] * 3, [False, False, False], [0, 2, 1]))  # deals 1 and 2 differ
    rows = {(r[0], r[1], r[2]): r[3:] for r in by_role.compare(b, a)}
    assert rows[("all", "r vs h + h", "h vs h + h")][:3] == (1, 100.0, -100.0)
    assert len(rows) == 2  # that one deal, in "suit" and in "all"


@pytest.mark.slow
def test_the_script_compares_two_real_runs(tmp_path: Path) -> None:
    for name, bots in (("hhh", "heuristic"), ("rhh", "random,heuristic,heuristic")):
        run_simulation(str(VARIANT), 300, 5, str(tmp_path / name), jobs=1, bots=bots, progress=False)
    out = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "hhh"), str(tmp_path / "rhh")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "declared games declared alike" in out
    assert "| all | random vs heuristic + heuristic | heuristic vs heuristic + heuristic |" in out
    broken = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "hhh"), str(tmp_path / "none")], capture_output=True, text=True
    )
    assert broken.returncode == 2
    assert broken.stderr.startswith("by_role: ") and "Traceback" not in broken.stderr


def test_bid_compares_only_the_games_declared_at_that_bid(tmp_path: Path) -> None:
    """``--bid 18``: the same table, over the deals declared at a final bid of 18 alone (a loss-averse
    forehand declares most deals as the others do, at every bid)."""
    averse = "heuristic:loss_aversion=2"
    for name, bots in (("hhh", "heuristic"), ("ahh", f"{averse},heuristic,heuristic")):
        run_simulation(str(VARIANT), 300, 5, str(tmp_path / name), jobs=1, bots=bots, progress=False)
    runs = [str(tmp_path / "hhh"), str(tmp_path / "ahh")]

    def deals(*extra: str) -> int:
        """The deals of the "all" rows (the averse seat declaring, or defending)."""
        out = subprocess.run([sys.executable, str(SCRIPT), *runs, *extra], capture_output=True, text=True, check=True)
        rows = [line.split(" | ") for line in out.stdout.splitlines() if line.startswith("| all |")]
        assert len(rows) == 2
        return sum(int(row[3].replace(",", "")) for row in rows)

    a, b = (by_role.roles(pl.scan_parquet(f"{run}/*.parquet")) for run in runs)
    joined = a.join(b, on=["game_id", *by_role.DECLARATION]).filter(pl.col("role") != pl.col("role_right"))
    assert 0 < deals("--bid", "18") == joined.filter(pl.col("bid") == 18).height < deals() == joined.height


def test_three_runs_end_with_runs_2_to_n_against_run_1_pooled(tmp_path: Path) -> None:
    """The pooled table adds up what the tables of runs 2 and 3 against run 1 give for the same roles."""
    averse = "heuristic:loss_aversion=2"
    settings = (
        ("hhh", "heuristic"),
        ("ahh", f"{averse},heuristic,heuristic"),
        ("hah", f"heuristic,{averse},heuristic"),
    )
    for name, bots in settings:
        run_simulation(str(VARIANT), 300, 5, str(tmp_path / name), jobs=1, bots=bots, progress=False)
    runs = [str(tmp_path / name) for name, _ in settings]
    out = subprocess.run([sys.executable, str(SCRIPT), *runs], capture_output=True, text=True, check=True).stdout
    tables = out.split("\n\nRun")  # the pairwise tables, then the pooled one at the end of the last
    pooled = out.split("pooled (the same roles in several runs add up):")[1]

    def deals(text: str) -> dict[str, int]:
        rows = [line.split(" | ") for line in text.splitlines() if line.startswith("| all |")]
        return {f"{row[1]} | {row[2]}": int(row[3].replace(",", "")) for row in rows}

    against_1 = [deals(t.split("pooled")[0]) for t in tables if " against run 1:" in t.splitlines()[0]]
    assert len(against_1) == 2
    summed = {role: against_1[0].get(role, 0) + against_1[1].get(role, 0) for role in {*against_1[0], *against_1[1]}}
    assert deals(pooled) == summed
    assert sum(summed.values()) > 0
