"""``simulate --open-hand``: each declared game's value with perfect play by all, beside the bots' result.

The columns must be what ``skatsim solve`` says of the same game from its first lead (a different path
to the position: the game's record replayed, not the result row), null where nothing was declared, and
a run must not be resumed with the flag changed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from skatsim.analysis.render import Table, Text
from skatsim.analysis.report import open_hand_section
from skatsim.analysis.sources import scan
from skatsim.bots import bot_arrays, parse_bots
from skatsim.cli import app, main
from skatsim.engine.block import simulate_block
from skatsim.engine.gametypes import GRAND
from skatsim.engine.layout import (
    COL_GAME_TYPE,
    COL_HAND,
    COL_SCHNEIDER_ANNOUNCED,
    COL_SCHWARZ_ANNOUNCED,
    LOG_WIDTH,
    N_COLUMNS,
)
from skatsim.engine.openhand import open_hand_values
from skatsim.records.importer import default_chunk_lines
from skatsim.records.record import GameRecord
from skatsim.run.manifest import OPEN_HAND_MODES, open_hand_mode, read_manifest
from skatsim.run.runner import run_simulation
from skatsim.solve import Solver, position
from skatsim.variant import official_params

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
    assert code == 2 and "the run was made with --open-hand points; resume it with --open-hand points" in err


def test_open_hand_won_is_the_points_runs_won_without_the_points(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--open-hand won`` asks the game's question alone: the same ``open_hand_won``, no points, the mode
    in the manifest, and a resume with the other mode refused."""
    frames = {}
    for mode in ("points", "won"):
        out = tmp_path / mode
        code = main(["simulate", str(VARIANTS / "official.yaml"), "--games", "60", "--seed", "5", "--out", str(out),
                     "--jobs", "1", "--open-hand", mode, "--quiet"])  # fmt: skip
        assert code == 0, capsys.readouterr().err
        manifest = read_manifest(str(out))
        assert manifest is not None and manifest.open_hand == mode
        frames[mode] = pl.read_parquet(out / "*.parquet").sort("game_id")
    points, won = frames["points"], frames["won"]
    assert won["open_hand_won"].drop_nulls().len() >= 40
    assert won["open_hand_points"].null_count() == won.height
    assert won.drop("open_hand_points").equals(points.drop("open_hand_points"))
    # the report leaves out the points column a run without points would fill with dashes
    tables = {}
    for mode in ("points", "won"):
        section = open_hand_section(scan(str(tmp_path / mode)), 0.95)
        assert section is not None and isinstance(section.blocks[1], Table)
        tables[mode] = section.blocks[1]
    assert tables["points"].header[-1] == "card points, played - open hand"
    assert tables["won"].header == tables["points"].header[:-1]
    assert [row[1:] for row in tables["won"].rows] == [row[1:-1] for row in tables["points"].rows]  # [0]: the run
    capsys.readouterr()
    code = main(["simulate", str(VARIANTS / "official.yaml"), "--games", "60", "--seed", "5", "--out",
                 str(tmp_path / "won"), "--jobs", "1", "--open-hand", "--resume", "--quiet"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "cannot resume: the run was made with --open-hand won; resume it with --open-hand won" in err


def test_won_alone_answers_as_the_points_do_for_every_kind_of_game() -> None:
    """The kernel's one-search answer against the one read off the exact points, on simulated games and on
    their hand games declared again with Schneider and with Schwarz announced (the question moves to 90
    points and to every trick)."""
    params = official_params()
    kinds, bot_params = bot_arrays(parse_bots("heuristic"), params)
    rows = np.zeros((400, N_COLUMNS), dtype=np.int64)
    simulate_block(np.uint64(11), 0, kinds, bot_params, params, rows, np.zeros((0, LOG_WIDTH), np.int16))
    hand_suits = (rows[:, COL_HAND] == 1) & (rows[:, COL_GAME_TYPE] >= 0) & (rows[:, COL_GAME_TYPE] <= GRAND)
    schneider, schwarz = rows[hand_suits].copy(), rows[hand_suits].copy()
    schneider[:, COL_SCHNEIDER_ANNOUNCED] = 1
    schwarz[:, COL_SCHNEIDER_ANNOUNCED] = 1
    schwarz[:, COL_SCHWARZ_ANNOUNCED] = 1
    every = np.concatenate([rows, schneider, schwarz])
    exact, alone = open_hand_values(every, points=True), open_hand_values(every, points=False)
    assert (alone[:, 1] == exact[:, 1]).all() and (alone[:, 0] == -1).all()
    assert len(schneider) >= 10 and set(exact[len(rows) :, 1]) == {0, 1}  # announced games won and lost
    assert set(exact[: len(rows), 1]) == {-1, 0, 1}


def test_manifests_before_the_open_hand_modes_read_as_points_or_none() -> None:
    """``open_hand`` was true or false before ``--open-hand won``: true solved the points. The commands
    offer the modes the runs know (the CLI names them itself, to start without the run layer)."""
    assert open_hand_mode(True) == "points" and open_hand_mode(False) == "" and open_hand_mode("won") == "won"
    for command in ("simulate", "import-iss"):
        [option] = [p for p in app.commands[command].params if p.name == "open_hand"]
        assert list(option.type.choices) == list(OPEN_HAND_MODES)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="open_hand must be one of points, won"):
        open_hand_mode("all")


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
    # people played these games: the section says so, not "the bots'"
    text, table = section.blocks
    assert isinstance(text, Text) and isinstance(table, Table)
    assert "compare people's result" in text.text and "bots" not in text.text
    assert table.caption == "People's results and the open-hand value"
    # --open-hand won: the same answers, without the points
    code = main(["import-iss", str(fixture), "--out", str(tmp_path / "won"), "--jobs", "1", "--open-hand", "won",
                 "--quiet"])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    won = pl.read_parquet(tmp_path / "won" / "*.parquet").sort("iss_line")
    assert [default_chunk_lines(mode) for mode in ("", "points", "won")] == [10_000, 1_000, 5_000]
    assert won.drop("open_hand_points").equals(frame.drop("open_hand_points"))
    assert won["open_hand_points"].null_count() == won.height
    # the flag made the chunks: a resume without it is refused in one line
    code = main(["import-iss", str(fixture), "--out", str(out), "--jobs", "1", "--resume", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot resume: the import was made with --open-hand points" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("command", "file"), [("simulate", "VARIANT"), ("import-iss", "FILE")])
def test_open_hand_before_the_file_is_refused_with_where_to_write_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, file: str
) -> None:
    """The option takes an optional word, so written before the command's file it takes the file: one line
    that says where the option goes; a mistyped word keeps click's list of the choices."""
    variant = str(VARIANTS / "official.yaml")
    extra = ["--games", "10"] if command == "simulate" else []
    code = main([command, "--open-hand", variant, *extra, "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert f"is not points or won: write --open-hand after {file} or as --open-hand points" in err
    assert not (tmp_path / "run").exists()
    code = main(["simulate", variant, "--open-hand", "wons", "--games", "10", "--out", str(tmp_path / "run")])
    assert code == 2 and "'wons' is not one of 'points', 'won'" in capsys.readouterr().err
