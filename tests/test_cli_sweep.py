"""``skatsim sweep``: every variant with every bot setting, one run folder each."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from skatsim.cli import main

ROOT = Path(__file__).resolve().parent.parent
OFFICIAL = str(ROOT / "variants" / "official.yaml")
PRE1999 = str(ROOT / "variants" / "pre1999.yaml")


def test_sweep_writes_one_run_per_pair_on_the_same_deals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sweep"
    args = ["sweep", OFFICIAL, PRE1999, "--bots", "heuristic", "--bots", "random", "--games", "900"]
    assert main([*args, "--out", str(out), "--jobs", "1", "--quiet"]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["official__heuristic", "official__random", "pre1999__heuristic", "pre1999__random"]
    assert capsys.readouterr().out.count("900 games") == 4
    deals = [pl.read_parquet(out / name / "*.parquet").sort("game_id")["deal"] for name in names]
    assert all(d.equals(deals[0]) for d in deals)


def test_sweep_refuses_a_scheduler_without_dask(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sweep", OFFICIAL, "--games", "10", "--out", str(tmp_path / "s"), "--scheduler", "tcp://127.0.0.1:1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--scheduler needs --backend dask" in err


def test_sweep_names_two_spellings_of_one_bot_setting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two --bots that are one setting (a parameter at its default) would share a folder: the error
    names the bot settings, not the variant files, and nothing is written."""
    out = tmp_path / "s"
    args = ["sweep", OFFICIAL, "--bots", "heuristic", "--bots", "heuristic:loss_aversion=1", "--games", "10"]
    code = main([*args, "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err == (
        "skatsim: error: --bots 'heuristic' and 'heuristic:loss_aversion=1' are the same setting "
        "(official__heuristic); give it once\n"
    )
    assert not out.exists()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([OFFICIAL, OFFICIAL], f"variant file {OFFICIAL!r} is given twice; give it once"),
        ([OFFICIAL, "--bots", "random", "--bots", "random"], "--bots 'random' is given twice; give it once"),
    ],
)
def test_sweep_refuses_a_variant_or_bots_given_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    """The same file or setting twice would be one run folder: refused in one line, not run once in silence."""
    out = tmp_path / "s"
    code = main(["sweep", *extra, "--games", "10", "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err == f"skatsim: error: {message}\n"
    assert not out.exists()


def test_simulate_refuses_an_empty_out(capsys: pytest.CaptureFixture[str]) -> None:
    """--out "$UNSET" names no folder: one line saying so, not ': cannot create or read the output folder'."""
    code = main(["simulate", OFFICIAL, "--games", "10", "--out", "", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == "skatsim: error: '': no output folder named (allowed: a folder path or URL, e.g. runs/demo)\n"


def test_sweep_and_compare_refuse_a_run_folder_for_their_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """sweep --out or compare --runs naming a run's own folder would put their runs inside that run, where
    neither report nor resume look: refused in one line, the run untouched."""
    run = tmp_path / "run"
    assert main(["simulate", OFFICIAL, "--games", "100", "--out", str(run), "--jobs", "1", "--quiet"]) == 0
    before = sorted(p.name for p in run.iterdir())
    capsys.readouterr()
    code = main(["sweep", PRE1999, "--games", "100", "--out", str(run), "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"skatsim: error: {run}: holds a skatsim run (manifest.json), not a sweep's run folders")
    assert sorted(p.name for p in run.iterdir()) == before
    code = main(["compare", OFFICIAL, PRE1999, "--games", "100", "--runs", str(run), "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"skatsim: error: {run}: holds a skatsim run (manifest.json), not a comparison's run")
    assert sorted(p.name for p in run.iterdir()) == before
