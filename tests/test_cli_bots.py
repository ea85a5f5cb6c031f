"""``skatsim bots`` documents every bot and parameter."""

from __future__ import annotations

import json
import re
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


def test_every_bot_setting_in_the_docs_is_one_skatsim_takes() -> None:
    """A setting written in the docs (``heuristic:loss_aversion=2``) names parameters that exist
    today, not retired ones (``heuristic:risk=0.8``)."""
    from skatsim.bots import parse_setting
    from skatsim.errors import SkatsimError

    root = VARIANTS.parent
    setting = re.compile(rf"\b(?:{'|'.join(BOTS)})(?::[a-z_]+=-?[0-9.]+)+")
    wrong = []
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for found in setting.findall(line):
                try:
                    parse_setting(found)
                except SkatsimError as exc:
                    wrong.append(f"{doc.name}:{number}: {found}: {exc}")
    assert wrong == []


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_bot_parameters_on_the_command_line_reach_the_rows_and_the_manifest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--bots heuristic:loss_aversion=1.5,random,heuristic`` seats a more cautious heuristic bot at FH;
    the manifest records every parameter of every seat and the calibration the bots used (the
    official rules need none); the rows name each seat's setting."""
    out = tmp_path / "run"
    code, _, err = _run(
        capsys, "simulate", str(VARIANTS / "official.yaml"), "--games", "300", "--out", str(out), "--quiet",
        "--bots", "heuristic: loss_aversion = 1.5 ,random,heuristic",
    )  # fmt: skip
    assert code == 0, err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["bots"] == ["heuristic:loss_aversion=1.5", "random", "heuristic"]
    params = manifest["bot_parameters"]
    assert params[0]["loss_aversion"] == 1.5 and params[2]["loss_aversion"] == BOTS["heuristic"].params[0].default
    assert params[1] == {} and set(params[0]) == {p.name for p in BOTS["heuristic"].params}
    assert manifest["bot_calibration"] == {"key": "none", "source": "not needed"}
    frame = pl.read_parquet(out / "*.parquet")
    assert frame["bot_fh"].unique().to_list() == ["heuristic:loss_aversion=1.5"]
    assert frame["bot_mh"].unique().to_list() == ["random"]


def test_a_run_records_the_calibration_of_its_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Under Ramsch the bots use the variant's shipped calibration, and the manifest names it; random
    bots need none."""
    from skatsim.bots.variantcal import calibration_key
    from skatsim.variant import load_variant

    key = calibration_key(load_variant(VARIANTS / "ramsch.yaml").variant.params())
    for bots, recorded in (("heuristic", {"key": key, "source": "shipped (ramsch.json)"}), ("random", {})):
        out = tmp_path / bots
        code, _, err = _run(
            capsys, "simulate", str(VARIANTS / "ramsch.yaml"), "--games", "50", "--out", str(out), "--quiet",
            "--bots", bots,
        )  # fmt: skip
        assert code == 0, err
        assert json.loads((out / "manifest.json").read_text())["bot_calibration"] == recorded


@pytest.mark.parametrize(
    ("bots", "fragment"),
    [
        (
            "heuristic:nerve=3",
            "'nerve' is not a parameter; heuristic's parameters: loss_aversion (0.25..4), hand_bias (-10..10)",
        ),
        (
            "heuristic:loss_aversion=5",
            "loss_aversion must be between 0.25 and 4, got 5; heuristic's parameters: loss_aversion (0.25..4)",
        ),
        ("heuristic:hand_bias=high", "hand_bias must be a number, got 'high'"),
        ("heuristic:hand_bias=0.5:hand_bias=0.6", "hand_bias is set twice"),
        ("pimc:worlds=2.5", "'pimc:worlds=2.5': worlds must be a whole number, got 2.5"),
        ("random:hand_bias=0.5", "'hand_bias' is not a parameter; bot 'random' has no parameters"),
        (
            "heuristic:risk=0.7",
            "risk is no longer a heuristic parameter (risk -> loss_aversion (bids follow the expected score under "
            "the variant)); its parameters now: loss_aversion, hand_bias,",
        ),
        ("heuristic:win_bonus=50", "win_bonus -> the variant's own bonus (tournament.won_bonus)"),
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


def test_resuming_a_run_whose_bots_had_retired_parameters_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run recorded by bots with parameters an older skatsim had (``risk``, ``win_bonus``) is not
    continued by today's bots: one line names what replaced them."""
    out = tmp_path / "run"
    args = ["simulate", str(VARIANTS / "official.yaml"), "--games", "300", "--out", str(out), "--quiet"]
    assert _run(capsys, *args, "--chunk-size", "100")[0] == 0
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["bot_parameters"] = [{"risk": 0.613, "hand_risk": 0.893, "win_bonus": 16.5}] * 3
    manifest["chunks_done"] = [[0, 1]]
    (out / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = _run(capsys, *args, "--resume")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert "cannot resume: the run's bots had parameters of an older skatsim: risk, hand_risk, win_bonus" in err
    assert "win_bonus -> the variant's own bonus" in err
