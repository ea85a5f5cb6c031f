"""``simulate --open-hand``: each declared game's value with perfect play by all, beside the bots' result.

The columns must be what ``skatsim solve`` says of the same game from its first lead (a different path
to the position: the game's record replayed, not the result row), null where nothing was declared, and
a run must not be resumed with the flag changed.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from skatsim.analysis.render import Table
from skatsim.analysis.report import open_hand_section
from skatsim.analysis.sources import scan
from skatsim.cli import main
from skatsim.records.record import GameRecord
from skatsim.run.manifest import read_manifest
from skatsim.run.runner import run_simulation
from skatsim.solve import Solver, position

VARIANTS = Path(__file__).resolve().parents[1] / "variants"
#: Lines of the real games the import test solves.
LINES = 12


def test_open_hand_columns_are_the_solvers_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    code = main(
        ["simulate", str(VARIANTS / "official.yaml"), "--games", "16", "--seed", "3", "--out", str(out), "--jobs",
         "1", "--chunk-size", "8", "--record-play", "--open-hand", "--quiet"]
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    manifest = read_manifest(str(out))
    assert manifest is not None and manifest.open_hand
    frame = pl.read_parquet(out / "*.parquet").sort("game_id")
    assert frame.columns[-2:] == ["open_hand_points", "open_hand_won"]
    assert frame.schema["open_hand_points"] == pl.Int16 and frame.schema["open_hand_won"] == pl.Boolean
    solver = Solver(16)
    checked = 0
    for row in frame.iter_rows(named=True):
        if row["declarer"] is None:
            assert row["open_hand_points"] is None and row["open_hand_won"] is None
            continue
        solution = solver.solve(position(GameRecord.from_json(row["record"]), 0), best=False)
        assert row["open_hand_points"] == solution.declarer_points
        assert row["open_hand_won"] == solution.won
        checked += 1
    assert checked >= 10
    # the report's section: per game type, the bots' results against the open-hand value
    section = open_hand_section(scan(str(out)), 0.95)
    assert section is not None and section.title == "Against perfect play"
    table = section.blocks[1]
    assert isinstance(table, Table)
    declared = frame.filter(pl.col("open_hand_won").is_not_null())
    assert sum(int(row[2].replace(",", "")) for row in table.rows) == declared.height
    for row in table.rows:
        games = declared.filter(pl.col("game_type").cast(pl.String) == row[1])
        allowed = games.filter(pl.col("open_hand_won"))
        assert int(row[2]) == games.height
        assert row[3].startswith(f"{100 * allowed.height / games.height:.2f}%")
        if allowed.height:
            assert row[4].startswith(f"{100 * allowed['won'].mean():.2f}%")  # type: ignore[operator]
    # the flag is part of what made the rows: a resume must not change it
    code = main(
        ["simulate", str(VARIANTS / "official.yaml"), "--games", "16", "--seed", "3", "--out", str(out), "--jobs",
         "1", "--record-play", "--resume", "--quiet"]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "cannot resume: the run was made with open-hand on, not off" in err


def test_runs_without_the_flag_have_no_open_hand_columns(tmp_path: Path) -> None:
    run_simulation(str(VARIANTS / "official.yaml"), 4, 1, str(tmp_path / "run"), jobs=1, progress=False)
    frame = pl.read_parquet(tmp_path / "run" / "*.parquet")
    assert "open_hand_points" not in frame.columns and "open_hand_won" not in frame.columns
    assert open_hand_section(scan(str(tmp_path / "run")), 0.95) is None


def test_import_iss_open_hand_columns_are_the_solvers_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (Path(__file__).parent / "fixtures" / "iss" / "real_games.sgf").read_text().splitlines(keepends=True)
    fixture = tmp_path / "games.sgf"
    fixture.write_text("".join(lines[:LINES]))  # the first games: a whole-file solve takes a minute
    out = tmp_path / "import"
    code = main(["import-iss", str(fixture), "--out", str(out), "--jobs", "1", "--chunk-size", "5", "--open-hand",
                 "--quiet"])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    frame = pl.read_parquet(out / "*.parquet").sort("iss_line")
    assert frame.columns[-2:] == ["open_hand_points", "open_hand_won"]
    solver = Solver(16)
    checked = 0
    for row in frame.iter_rows(named=True):
        record = GameRecord.from_json(row["record"])
        if row["declarer"] is None or row["game_type"] == "ramsch":
            assert row["open_hand_won"] is None
            continue
        assert row["open_hand_won"] is not None
        if not record.cards:  # no card play recorded: the solver still measures the cards dealt
            continue
        solution = solver.solve(position(record, 0), best=False)
        assert row["open_hand_points"] == solution.declarer_points
        assert row["open_hand_won"] == solution.won
        checked += 1
    assert checked >= LINES // 2
    section = open_hand_section(scan(str(out)), 0.95)
    assert section is not None and section.title == "Against perfect play"
    # the flag made the chunks: a resume without it is refused in one line
    code = main(["import-iss", str(fixture), "--out", str(out), "--jobs", "1", "--resume", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot resume: the import was made with --open-hand" in err
    assert len(err.strip().splitlines()) == 1
