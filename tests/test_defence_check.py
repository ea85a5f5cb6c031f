"""``scripts/defence_check.py``: the heuristic's card against the best card by open-hand worlds."""

from __future__ import annotations

from pathlib import Path

import pytest
from script_module import load_script

from skatsim.bots import PIMC
from skatsim.bots.pimc import choose_card
from skatsim.engine import play
from skatsim.engine.state import new_search_state
from skatsim.variant import load_variant

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "defence_check.py"
VARIANT = ROOT / "variants" / "official.yaml"
defence_check = load_script("defence_check")


def test_the_best_card_is_pimcs_on_set_one_and_the_tables_add_up() -> None:
    """On a few games of every seat: the best card wins at least as many set-1 worlds as the heuristic's
    and is the card pimc plays on those same worlds (same sampler, same stream, same tie rule), losses lie
    in [-1, 1], and every table counts every decision once."""
    decisions, declared = defence_check.run(8, 5, 6, str(VARIANT), "all")
    assert declared >= 5 and len(decisions) >= 40
    roles = {x.situation["role"] for x in decisions}
    assert roles == {"declarer", "defender"}
    buf = new_search_state(load_variant(VARIANT).variant.params())
    st = buf[0]
    buf["kinds"][0] = PIMC
    for x in decisions:
        assert x.set1[0] >= x.set1[1]
        assert -1 <= x.loss <= 1
        assert x.only_best - x.only_heuristic == x.set2[0] - x.set2[1]
        seat = int(play.to_move(x.state))
        buf["play"][0] = x.state
        buf["voids"][0] = x.voids
        buf["rng"][0] = x.rng
        pimc_card = choose_card(st, seat, x.worlds)
        assert defence_check.candidates(x.state, seat, pimc_card)[1] == x.best
    assert sum(x.set1[0] > x.set1[1] for x in decisions) >= 3  # decisions where the cards differ
    for x in decisions:  # who wins the trick so far, from the mover's side (he has not played to it)
        allowed = {"-", "a defender"} if x.situation["role"] == "declarer" else {"-", "declarer", "partner"}
        assert x.situation["winning"] in allowed
    for field in defence_check.FIELDS:
        groups = defence_check.grouped(decisions, (field,))
        assert sum(len(g) for g in groups.values()) == len(decisions)
    text = defence_check.report(decisions, declared, "header")
    assert text.count("The 10 largest single losses") == 1


@pytest.mark.parametrize("option", [["--games", "0"], ["--worlds", "0"], ["--variant", "no/such.yaml"]])
def test_bad_options_get_one_line_and_exit_2(option: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert defence_check.main(option) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("defence_check: ") and "\n" not in err
