"""``skatsim bots`` documents every bot and parameter."""

from __future__ import annotations

import pytest

from skatsim.bots import BOTS
from skatsim.cli import main


def test_bots_lists_every_parameter_with_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    for spec in BOTS.values():
        assert out.count(f"{spec.name}") >= 1
        for param in spec.params:
            assert f"  {param.name} = {param.default:g}: {param.doc}" in out
