"""``skatsim bots`` documents every bot and parameter."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from skatsim.bots import BOTS
from skatsim.cli import main

VARIANTS = Path(__file__).resolve().parents[1] / "variants"


def test_bots_lists_every_parameter_with_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    for spec in BOTS.values():
        assert out.count(f"{spec.name}") >= 1
        for param in spec.params:
            assert f"  {param.name} = {param.default:g}: {param.doc}" in out


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_bot_parameters_on_the_command_line_reach_the_rows_and_the_manifest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--bots heuristic:risk=0.7,random,heuristic`` seats a heuristic bot with another risk at FH; the
    manifest records every parameter of every seat; the rows name each seat's setting."""
    out = tmp_path / "run"
    code, _, err = _run(
        capsys, "simulate", str(VARIANTS / "official.yaml"), "--games", "300", "--out", str(out), "--quiet",
        "--bots", "heuristic: risk = 0.7 ,random,heuristic",
    )  # fmt: skip
    assert code == 0, err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["bots"] == ["heuristic:risk=0.7", "random", "heuristic"]
    params = manifest["bot_parameters"]
    assert params[0]["risk"] == 0.7 and params[2]["risk"] == BOTS["heuristic"].params[0].default
    assert params[1] == {} and set(params[0]) == {p.name for p in BOTS["heuristic"].params}
    frame = pl.read_parquet(out / "*.parquet")
    assert frame["bot_fh"].unique().to_list() == ["heuristic:risk=0.7"]
    assert frame["bot_mh"].unique().to_list() == ["random"]


@pytest.mark.parametrize(
    ("bots", "fragment"),
    [
        ("heuristic:nerve=3", "'nerve' is not a parameter; heuristic's parameters: risk (0..1), hand_risk (0..1)"),
        ("heuristic:risk=1.5", "risk must be between 0 and 1, got 1.5; heuristic's parameters: risk (0..1)"),
        ("heuristic:risk=high", "risk must be a number, got 'high'"),
        ("heuristic:risk=0.5:risk=0.6", "risk is set twice"),
        ("random:risk=0.5", "'risk' is not a parameter; bot 'random' has no parameters"),
        ("recorded", "unknown bot 'recorded'; known bots: heuristic, pimc, random"),
    ],
)
def test_a_bad_bot_setting_is_one_line_naming_the_parameters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bots: str, fragment: str
) -> None:
    out = tmp_path / "run"
    code, _, err = _run(
        capsys, "simulate", str(VARIANTS / "official.yaml"), "--games", "10", "--out", str(out), "--bots", bots
    )
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert fragment in err, err
    assert not out.exists() or not any(out.iterdir())
