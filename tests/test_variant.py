"""Variant files: validation, one-line errors, extends, shipped variants, compiled parameters.

Broken files live in tests/fixtures/variants/broken/, one problem each; every one
must give exit code 2 and exactly one stderr line ``FILE:LINE: ...`` with no traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import numpy as np
import pytest
from pydantic import ValidationError
from script_module import load_script

from skatsim.cli import main
from skatsim.engine import rules
from skatsim.errors import SkatsimError
from skatsim.variant import MAX_FILE_BYTES, BockEvent, Variant, load_variant, official_params

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "variants"
BROKEN = ROOT / "tests" / "fixtures" / "variants" / "broken"

#: file -> (line named in the error, or None when the problem has no line; fragments of the message)
BROKEN_FILES: dict[str, tuple[int | None, tuple[str, ...]]] = {
    "syntax_unclosed.yaml": (3, ("not valid YAML", "expected ',' or ']'")),
    "syntax_indent.yaml": (5, ("not valid YAML", "block mapping")),
    "syntax_tab.yaml": (3, ("not valid YAML", "'\\t'")),
    "unknown_top_key.yaml": (3, ("kontr: unknown key", "did you mean kontra?", "allowed: name, description")),
    "unknown_section_key.yaml": (5, ("ramsch.jungfrauen: unknown key", "did you mean jungfrau?")),
    "unknown_nested_key.yaml": (6, ("ramsch.fixed_values.bse: unknown key", "allowed: base, per_jungfrau")),
    "wrong_type_int.yaml": (3, ("scoring.lost_factor: wrong type: got 'two'", "allowed: a whole number from 1 to 4")),
    "wrong_type_quoted_bool.yaml": (3, ("kontra.enabled: wrong type: got 'yes'", "allowed: true or false")),
    "wrong_type_section.yaml": (3, ("ramsch: wrong type: got 5", "allowed: a mapping with keys skat_to")),
    "wrong_type_float.yaml": (4, ("tournament.won_bonus: wrong type: got 50.5",)),
    "bad_enum.yaml": (2, ("all_pass: 'ramsh' is not allowed (allowed: redeal, ramsch, schieberamsch)",)),
    "bad_bock_event.yaml": (6, ("bock.events.1: 'sixty' is not allowed", "allowed: all_passed, kontra_re")),
    "negative_bonus.yaml": (4, ("tournament.won_bonus: -50 is not allowed (allowed: a whole number from 0 to 1000)",)),
    "list_length_not_multiple.yaml": (4, ("tournament.list_length: 35 is not a multiple of 3",)),
    "list_length_zero.yaml": (
        4,
        ("tournament.list_length: 0 is not allowed (allowed: a whole number from 3 to 3000)",),
    ),
    "schieberamsch_without_schieberamsch.yaml": (4, ("schieberamsch.doubling: set, but all_pass is ramsch",)),
    "ramsch_without_ramsch.yaml": (4, ("ramsch.tie: set, but no rule here produces a Ramsch", "all_pass: ramsch")),
    "kontra_option_disabled.yaml": (3, ("kontra.when: set while kontra.enabled is false",)),
    "bock_no_events.yaml": (4, ("bock.events: no event while bock.enabled is true", "allowed: one or more of")),
    "bock_kontra_event_without_kontra.yaml": (6, ("bock.events.1: kontra_re cannot happen while kontra.enabled",)),
    "bock_duplicate_event.yaml": (4, ("bock.events.1: lost_sixty_sixty is the same event as sixty_sixty",)),
    "bock_list_length_with_tournament.yaml": (7, ("bock.list_length: set, but tournament.enabled is true",)),
    "fixed_values_wrong_scoring.yaml": (5, ("ramsch.fixed_values: set, but ramsch.scoring is points",)),
    "winner_with_tie.yaml": (5, ("ramsch.tie: does not apply to ramsch.scoring: winner",)),
    "durchmarsch_value_without_durchmarsch.yaml": (
        5,
        ("ramsch.durchmarsch_value: set, but ramsch.durchmarsch is false",),
    ),
    "every_deal_without_all_pass.yaml": (7, ("ramsch.every_deal: true, but all_pass is redeal",)),
    "list_points_without_tournament.yaml": (
        4,
        ("kontra.multiplies_list_points: true, but tournament.enabled is false",),
    ),
    "extends_missing.yaml": (3, ("extends: 'no_such_parent.yaml' not found", "no_such_parent.yaml")),
    "extends_not_path.yaml": (2, ("extends: expected a file path, got 5",)),
    "python_tag.yaml": (2, ("YAML tag !!python/object/apply:os.system is not allowed",)),
    "custom_tag.yaml": (2, ("YAML tag !secret is not allowed",)),
    "billion_laughs.yaml": (7, ("YAML anchors and aliases expand to more than 5000 values",)),
    "recursive_alias.yaml": (3, ("an alias refers to the mapping or list that contains it",)),
    "duplicate_keys.yaml": (6, ("ramsch.tie: duplicate key, first written at line 4",)),
    "not_mapping_list.yaml": (2, ("a variant file must be a mapping of keys, got a list",)),
    "not_mapping_scalar.yaml": (2, ("must be a mapping of keys, got the value 'just some text'",)),
    "multi_document.yaml": (3, ("expected a single document in the stream",)),
    "int_key.yaml": (3, ("18: a key must be a plain name",)),
    "name_multiline.yaml": (2, ("name: 'two\\nlines' is not allowed", "one line")),
    "not_utf8.yaml": (None, ("not UTF-8 text",)),
    "control_character.yaml": (2, ("not valid YAML: control character #x0000", "allowed: printable text")),
}


def validate(capsys: pytest.CaptureFixture[str], *paths: Path | str) -> tuple[int, str, str]:
    """Run ``skatsim validate`` in this process; returns (exit code, stdout, stderr)."""
    code = main(["validate", *(str(p) for p in paths)])
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# --- broken files ---------------------------------------------------------------------------


def test_every_broken_fixture_is_listed() -> None:
    """At least 20 broken files, each with its expected error (none forgotten)."""
    files = {p.name for p in BROKEN.glob("*.yaml")}
    cycle_and_parent = {
        "extends_cycle_a.yaml",
        "extends_cycle_b.yaml",
        "extends_self.yaml",
        "extends_broken_parent.yaml",
    }
    assert files == set(BROKEN_FILES) | cycle_and_parent
    assert len(files) >= 20


@pytest.mark.parametrize("name", sorted(BROKEN_FILES))
def test_broken_file_is_one_line_error(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """Exit 2, nothing on stdout, exactly one stderr line FILE:LINE: ... with the problem, no traceback."""
    path = BROKEN / name
    line, fragments = BROKEN_FILES[name]
    code, out, err = validate(capsys, path)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    prefix = f"{path}:{line}: " if line is not None else f"{path}: "
    assert lines[0].startswith(prefix), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_extends_cycle_names_the_chain(capsys: pytest.CaptureFixture[str]) -> None:
    """a -> b -> a: one line at b's extends line, naming the whole chain."""
    a, b = BROKEN / "extends_cycle_a.yaml", BROKEN / "extends_cycle_b.yaml"
    code, _, err = validate(capsys, a)
    assert code == 2
    chain = f"extends: cycle {a} -> {b} -> {a} (allowed: a chain that ends in a file without extends)"
    assert err == f"{b}:3: (extended by {a}) {chain}\n"


def test_extends_naming_a_folder_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "rules").mkdir()
    path = tmp_path / "child.yaml"
    path.write_text("name: child\nextends: rules\n", encoding="utf-8")
    code, _, err = validate(capsys, path)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"{path}:2: extends: 'rules' is a folder (looked for {tmp_path / 'rules'};")


def test_extends_itself_is_a_cycle(capsys: pytest.CaptureFixture[str]) -> None:
    path = BROKEN / "extends_self.yaml"
    code, _, err = validate(capsys, path)
    assert code == 2
    assert err.startswith(f"{path}:2: extends: cycle {path} -> {path} ")


def test_error_in_extended_file_names_that_file_and_the_root(capsys: pytest.CaptureFixture[str]) -> None:
    """The parent's file and line, then which file extended it."""
    child, parent = BROKEN / "extends_broken_parent.yaml", BROKEN / "unknown_top_key.yaml"
    code, _, err = validate(capsys, child)
    assert code == 2
    assert err.startswith(f"{parent}:3: (extended by {child}) kontr: unknown key")
    assert len(err.splitlines()) == 1


def test_too_large_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path / "big.yaml", "description: " + "x" * MAX_FILE_BYTES + "\n")
    code, _, err = validate(capsys, path)
    assert code == 2
    assert err == f"{path}: file is {MAX_FILE_BYTES + 14} bytes (allowed: at most {MAX_FILE_BYTES} bytes)\n"


def test_deep_nesting_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A document nested past Python's recursion limit is an error, not a RecursionError traceback."""
    path = write(tmp_path / "deep.yaml", "a: " + "[" * 5000 + "]" * 5000 + "\n")
    code, _, err = validate(capsys, path)
    assert code == 2
    assert err == f"{path}: YAML nested too deeply (allowed: a few levels of mappings)\n"


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    code, _, err = validate(capsys, path)
    assert code == 2
    assert err == f"{path}: cannot read variant file (No such file or directory)\n"


def test_validate_several_files_reports_each(capsys: pytest.CaptureFixture[str]) -> None:
    """Valid files get an ok line on stdout, invalid ones an error line on stderr; exit 2 if any fails."""
    good, bad = VARIANTS / "ramsch.yaml", BROKEN / "bad_enum.yaml"
    code, out, err = validate(capsys, good, bad, VARIANTS / "official.yaml")
    assert code == 2
    assert out == f"{good}: ok (name: ramsch)\n{VARIANTS / 'official.yaml'}: ok (name: official)\n"
    assert err.startswith(f"{bad}:2: all_pass:")
    assert len(err.splitlines()) == 1


def test_python_tag_is_never_constructed(tmp_path: Path) -> None:
    """The refused tag would create a file if anything constructed it."""
    marker = tmp_path / "pwned"
    path = write(tmp_path / "evil.yaml", f'name: !!python/object/apply:os.system ["touch {marker}"]\n')
    with pytest.raises(SkatsimError, match="YAML tag !!python/object/apply:os.system is not allowed"):
        load_variant(path)
    assert not marker.exists()


def test_model_refuses_impossible_combination_from_python() -> None:
    """The combination checks hold for the Python API too, not only for files."""
    with pytest.raises(ValidationError) as info:
        Variant.model_validate({"kontra": {"when": "after_declaration"}})
    message = "set while kontra.enabled is false (allowed: kontra.enabled: true, or remove the key)"
    [error] = info.value.errors(include_url=False, include_input=False)
    assert (error["type"], error["msg"]) == ("impossible_combination", f"kontra.when: {message}")
    assert error["ctx"]["problems"] == [("kontra.when", message)]


def test_variant_is_frozen() -> None:
    """Neither the variant nor its sections can be changed once validated: the values stay as they were."""
    variant = Variant()
    with pytest.raises(ValidationError, match="Instance is frozen") as info:
        variant.all_pass = "ramsch"  # type: ignore[misc]
    assert [(e["type"], e["loc"]) for e in info.value.errors()] == [("frozen_instance", ("all_pass",))]
    with pytest.raises(ValidationError, match="Instance is frozen"):
        variant.kontra.enabled = True  # type: ignore[misc]
    assert (variant.all_pass, variant.kontra.enabled) == (Variant().all_pass, False)
    np.testing.assert_array_equal(variant.params(), official_params())


# --- valid files --------------------------------------------------------------------------


def test_every_shipped_variant_validates(capsys: pytest.CaptureFixture[str]) -> None:
    """All of variants/ in one call: exit 0 and one ok line each, named like its file."""
    paths = sorted(VARIANTS.glob("*.yaml"))
    assert [p.stem for p in paths] == [
        "bock",
        "kontra_re",
        "official",
        "pre1999",
        "pub",
        "ramsch",
        "ramsch_ordnung",
        "saechsische_spitze",
        "schieberamsch",
        "tournament",
        "tournament4",
        "xskat",
    ]
    code, out, err = validate(capsys, *paths)
    assert (code, err) == (0, "")
    assert out == "".join(f"{p}: ok (name: {p.stem})\n" for p in paths)


@pytest.mark.parametrize("path", sorted(VARIANTS.glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_variant_starts_with_its_sources(path: Path) -> None:
    """Each file opens with a comment saying what it models and its sources."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# ")
    header = text.split("\nname:")[0]
    assert "Source" in header


@pytest.mark.parametrize("text", ["{}\n", "name: official\n", "# the official rules\n{}\n"])
def test_braces_or_only_a_name_is_the_official_rules(tmp_path: Path, text: str) -> None:
    """Decision: '{}' or a lone name is the official rules (docs/variants.md)."""
    loaded = load_variant(write(tmp_path / "official.yaml", text))
    assert loaded.variant == Variant()
    assert loaded.variant.name == "official"
    np.testing.assert_array_equal(loaded.variant.params(), official_params())


@pytest.mark.parametrize("text", ["", "\n  \n", "# nothing here\n"])
def test_empty_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Decision: a file truncated to nothing (or holding only comments) is an error, not the official rules."""
    path = write(tmp_path / "cut.yaml", text)
    with pytest.raises(SkatsimError, match=r"cut\.yaml: the file is empty \(allowed: '\{\}' or 'name: NAME'"):
        load_variant(path)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the file is empty" in err


@pytest.mark.parametrize("name", ["", " "])
def test_an_empty_file_name_is_named_as_given(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """An empty name (an unset shell variable) is not read as the current folder ('.: ... Is a directory')."""
    code, out, err = validate(capsys, name)
    assert (code, out) == (2, "")
    assert err == f"{name!r}: no variant file named (allowed: a YAML file, e.g. variants/official.yaml)\n"


def test_extends_merges_deeply(tmp_path: Path) -> None:
    """Mappings merge key by key at every depth; lists and values are replaced; the child wins."""
    write(
        tmp_path / "base.yaml",
        "name: base\nall_pass: ramsch\nramsch:\n  tie: share\n  skat_to: loser\n  scoring: fixed\n"
        "  fixed_values:\n    base: 20\n    per_jungfrau: 10\n"
        "bock:\n  enabled: true\n  events: [won_grand_hand, value_100]\n",
    )
    child = write(
        tmp_path / "child.yaml",
        "name: child\nextends: base.yaml\nramsch:\n  skat_to: nobody\n  fixed_values:\n    base: 30\n"
        "bock:\n  events: [lost_grand]\n",
    )
    loaded = load_variant(child)
    v = loaded.variant
    assert (v.name, v.all_pass, v.extends) == ("child", "ramsch", "base.yaml")
    assert (v.ramsch.tie, v.ramsch.skat_to, v.ramsch.scoring) == ("share", "nobody", "fixed")
    assert (v.ramsch.fixed_values.base, v.ramsch.fixed_values.per_jungfrau) == (30, 10)
    assert (v.bock.enabled, v.bock.events) == (True, ("lost_grand",))
    assert loaded.files == (str(child), str(tmp_path / "base.yaml"))
    assert loaded.text.startswith("name: child\n")
    assert f"\n# --- extends: {tmp_path / 'base.yaml'} ---\nname: base\n" in loaded.text


def test_extends_list_later_files_win(tmp_path: Path) -> None:
    write(tmp_path / "a.yaml", "name: a\nscoring:\n  lost_factor: 3\n  lost_hand_factor: 3\n")
    write(tmp_path / "b.yaml", "name: b\nscoring:\n  lost_hand_factor: 1\n")
    v = load_variant(write(tmp_path / "c.yaml", "extends: [a.yaml, b.yaml]\n")).variant
    assert (v.name, v.scoring.lost_factor, v.scoring.lost_hand_factor) == ("b", 3, 1)


def test_pub_combines_three_files() -> None:
    """pub.yaml = schieberamsch (-> ramsch) + kontra_re + bock, then its own overrides."""
    v = load_variant(VARIANTS / "pub.yaml").variant
    assert v.all_pass == "schieberamsch"
    assert (v.schieberamsch.jacks_may_be_pushed, v.schieberamsch.doubling) == (False, "decline")
    assert (v.ramsch.skat_to, v.ramsch.tie, v.ramsch.grand_hand_instead) == ("loser", "all_lose", True)
    assert (v.kontra.enabled, v.kontra.only_if_bid, v.kontra.when) == (True, True, "before_first_card")
    assert v.bock.events == (
        "lost_sixty_sixty",
        "won_grand_hand",
        "lost_grand_hand",
        "won_null_ouvert_hand",
        "value_100",
        "kontra_re",
        "lost_after_kontra",
    )
    assert (v.bock.ramsch_round_after, v.needs_lists, v.list_length) == (True, True, 36)


def test_error_in_merged_file_points_to_the_line_that_set_the_key(tmp_path: Path) -> None:
    """A combination made impossible by the child is reported where the parent set the key."""
    parent = write(tmp_path / "p.yaml", "all_pass: ramsch\nramsch:\n  tie: share\n")
    child = write(tmp_path / "c.yaml", "extends: p.yaml\nramsch:\n  scoring: winner\n")
    with pytest.raises(SkatsimError) as info:
        load_variant(child)
    assert str(info.value) == (
        f"{parent}:3: (extended by {child}) ramsch.tie: does not apply to ramsch.scoring: winner "
        "(allowed: scoring points or fixed)"
    )


# --- compiled parameters ------------------------------------------------------------------


#: The official rules (ISkO) as the kernels read them, written out by hand from RULES.md §5:
#: lost games cost 2 x value, hand games too; no lists, no reversed game, all-pass redealt, three
#: players; the house-rule options at their documented defaults, every rule off.
OFFICIAL = {
    rules.LOST_FACTOR: 2,
    rules.LOST_HAND_FACTOR: 2,
    rules.LIST_WON_BONUS: 50,
    rules.LIST_LOST_MALUS: 50,
    rules.LIST_DEFENDER_BONUS: 40,
    rules.RAMSCH_FIXED_BASE: 10,
    rules.RAMSCH_FIXED_PER_JUNGFRAU: 5,
    rules.RAMSCH_WINNER_SINGLE: 23,
    rules.RAMSCH_WINNER_TIED: 37,
    rules.RAMSCH_JUNGFRAU: 1,
    rules.RAMSCH_DURCHMARSCH: 1,
    rules.RAMSCH_DURCHMARSCH_VALUE: 120,
    rules.BOCK_MULTIPLIER: 2,
    rules.TABLE_PLAYERS: 3,
}


def test_official_compiles_to_official_params() -> None:
    expected = np.zeros(rules.N_PARAMS, dtype=np.int64)
    for index, value in OFFICIAL.items():
        expected[index] = value
    np.testing.assert_array_equal(Variant().params(), expected)
    np.testing.assert_array_equal(official_params(), expected)
    assert official_params().shape == (rules.N_PARAMS,) == (39,)


def test_existing_indices_keep_their_order() -> None:
    """Kernels written before the house rules read indices 0-6: they must not move."""
    assert (rules.LOST_FACTOR, rules.LOST_HAND_FACTOR, rules.LIST_SCORING, rules.LIST_WON_BONUS) == (0, 1, 2, 3)
    assert (rules.LIST_LOST_MALUS, rules.LIST_DEFENDER_BONUS, rules.REVERSED_ALLOWED) == (4, 5, 6)


def test_pub_params_exact() -> None:
    """Every index of a variant that sets many keys (pub.yaml)."""
    expected = official_params()
    expected[rules.ALL_PASS] = 2
    expected[rules.RAMSCH_SKAT_TO] = 1
    expected[rules.RAMSCH_GRAND_HAND] = 1
    expected[rules.KONTRA_ENABLED] = 1
    expected[rules.KONTRA_ONLY_IF_BID] = 1
    expected[rules.BOCK_ENABLED] = 1
    expected[rules.BOCK_EVENTS] = 8 + 128 + 32 + 256 + 64 + 2 + 4
    expected[rules.BOCK_RAMSCH_ROUND] = 1
    expected[rules.LIST_LENGTH] = 36
    params = load_variant(VARIANTS / "pub.yaml").variant.params()
    assert params.dtype == np.int64
    np.testing.assert_array_equal(params, expected)


def test_every_key_reaches_its_index() -> None:
    """A variant with every option away from its default: each value lands at its own index."""
    v = Variant.model_validate(
        {
            "scoring": {"lost_factor": 3, "lost_hand_factor": 1, "grand_ouvert": "base_36"},
            "all_pass": "schieberamsch",
            "ramsch": {
                "skat_to": "each_loser",
                "tie": "share",
                "scoring": "fixed",
                "fixed_values": {"base": 11, "per_jungfrau": 6},
                "jungfrau": False,
                "durchmarsch": True,
                "durchmarsch_value": 99,
                "grand_hand_instead": "ramsch_rounds",
                "every_deal": True,
                "three_way_tie": "nobody_loses",
            },
            "schieberamsch": {"jacks_may_be_pushed": True, "doubling": "push"},
            "kontra": {
                "enabled": True,
                "when": "after_declaration",
                "only_if_bid": True,
                "beyond_re": 2,
                "multiplies_list_points": True,
            },
            "bock": {
                "enabled": True,
                "events": ["all_passed", "total_multiple_100", "total_three_equal_digits", "won_value_96"],
                "multiplier": 3,
                "trigger_counts_double": True,
                "ramsch_round_after": True,
                "ramsch_round_kind": "schieberamsch",
                "rounds_per_deal": "per_event",
                "zero_total_counts": True,
                "ramsch_round_grand_hand": "deals_again",
            },
            "reversed_game": {"enabled": True},
            "tournament": {"enabled": True, "won_bonus": 51, "lost_malus": 52, "defender_bonus": 41, "list_length": 48},
            "table": {"players": 4},
        }
    )
    expected = {
        rules.LOST_FACTOR: 3,
        rules.LOST_HAND_FACTOR: 1,
        rules.LIST_SCORING: 1,
        rules.LIST_WON_BONUS: 51,
        rules.LIST_LOST_MALUS: 52,
        rules.LIST_DEFENDER_BONUS: 41,
        rules.REVERSED_ALLOWED: 1,
        rules.ALL_PASS: 2,
        rules.RAMSCH_SKAT_TO: 3,
        rules.RAMSCH_TIE: 2,
        rules.RAMSCH_SCORING: 1,
        rules.RAMSCH_FIXED_BASE: 11,
        rules.RAMSCH_FIXED_PER_JUNGFRAU: 6,
        rules.RAMSCH_WINNER_SINGLE: 23,
        rules.RAMSCH_WINNER_TIED: 37,
        rules.RAMSCH_JUNGFRAU: 0,
        rules.RAMSCH_DURCHMARSCH: 1,
        rules.RAMSCH_DURCHMARSCH_VALUE: 99,
        rules.RAMSCH_GRAND_HAND: 2,
        rules.SCHIEBE_JACKS: 1,
        rules.SCHIEBE_DOUBLING: 1,
        rules.KONTRA_ENABLED: 1,
        rules.KONTRA_WHEN: 1,
        rules.KONTRA_ONLY_IF_BID: 1,
        rules.KONTRA_BEYOND_RE: 2,
        rules.KONTRA_LIST_POINTS: 1,
        rules.BOCK_ENABLED: 1,
        rules.BOCK_EVENTS: 1 + 512 + 1024 + 4096,
        rules.BOCK_MULTIPLIER: 3,
        rules.BOCK_TRIGGER_DOUBLE: 1,
        rules.BOCK_RAMSCH_ROUND: 2,
        rules.LIST_LENGTH: 48,
        rules.RAMSCH_EVERY_DEAL: 1,
        rules.RAMSCH_THREE_WAY_TIE: 1,
        rules.BOCK_RAMSCH_ROUND_GRAND: 1,
        rules.BOCK_ZERO_TOTAL: 1,
        rules.BOCK_PER_EVENT: 1,
        rules.GRAND_OUVERT_36: 1,
        rules.TABLE_PLAYERS: 4,
    }
    assert sorted(expected) == list(range(rules.N_PARAMS))
    np.testing.assert_array_equal(v.params(), [expected[i] for i in range(rules.N_PARAMS)])


def test_winner_ramsch_values_compile() -> None:
    v = Variant.model_validate(
        {"all_pass": "ramsch", "ramsch": {"scoring": "winner", "winner_values": {"single": 25, "tied": 40}}}
    )
    p = v.params()
    assert (p[rules.RAMSCH_SCORING], p[rules.RAMSCH_WINNER_SINGLE], p[rules.RAMSCH_WINNER_TIED]) == (2, 25, 40)


def test_bock_event_vocabulary_matches_rules() -> None:
    """The YAML vocabulary and rules.BOCK_EVENT_BITS list the same events; only the 60:60 names share a bit."""
    assert list(get_args(BockEvent)) == list(rules.BOCK_EVENT_BITS)
    bits = list(rules.BOCK_EVENT_BITS.values())
    assert len(set(bits)) == len(bits) - 1
    assert rules.BOCK_EVENT_BITS["sixty_sixty"] == rules.BOCK_EVENT_BITS["lost_sixty_sixty"] == 8


@pytest.mark.parametrize(
    ("name", "needs_lists", "length"),
    [("official", False, 0), ("ramsch", False, 0), ("bock", True, 36), ("tournament", True, 36), ("pub", True, 36)],
)
def test_lists(name: str, needs_lists: bool, length: int) -> None:
    """Bock and Seeger-Fabian need sequences of deals; the list length is the tournament's when both are on."""
    v = load_variant(VARIANTS / f"{name}.yaml").variant
    assert (v.needs_lists, v.list_length) == (needs_lists, length)
    assert v.params()[rules.LIST_LENGTH] == length


def test_tournament_list_length_wins_over_bock(tmp_path: Path) -> None:
    text = f"extends: [{VARIANTS / 'bock.yaml'}, {VARIANTS / 'tournament.yaml'}]\ntournament:\n  list_length: 48\n"
    v = load_variant(write(tmp_path / "tb.yaml", text)).variant
    assert (v.needs_lists, v.list_length, v.bock.list_length) == (True, 48, 36)


# --- what the engine plays ----------------------------------------------------------------


# --- the reference page -------------------------------------------------------------------


def test_reference_page_is_up_to_date() -> None:
    """docs/variants.md is what scripts/variant_reference.py makes from the models (run it after a change)."""
    module = load_script("variant_reference")
    assert (ROOT / "docs" / "variants.md").read_text(encoding="utf-8") == module.render()


def test_reference_page_lists_every_key() -> None:
    """Each key of every section appears in the page as a table row."""
    page = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    for section, info in Variant.model_fields.items():
        assert f"| `{section}` |" in page
        annotation = info.annotation
        if isinstance(annotation, type) and hasattr(annotation, "model_fields"):
            for key in annotation.model_fields:
                assert f"| `{key}` |" in page


def test_reference_page_examples_validate(tmp_path: Path) -> None:
    """Every YAML example of docs/variants.md validates next to copies of the shipped files."""
    for path in VARIANTS.glob("*.yaml"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    page = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    examples = [block.split("```")[0] for block in page.split("```yaml\n")[1:]]
    assert len(examples) == 4
    for i, example in enumerate(examples):
        loaded = load_variant(write(tmp_path / f"example{i}.yaml", example))
        assert loaded.variant.name in ("fixed_ramsch", "my_pub", "bock_tournament", "my_xskat")


# --- every problem of a file --------------------------------------------------------------


def test_validate_reports_every_problem_with_its_key_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Five wrong values in one file: five lines, in the file's order, each FILE:LINE: key: problem; exit 2."""
    path = write(
        tmp_path / "many.yaml",
        "name: off\nall_pass: no\nkontra:\n  enabled: true\n  when: never\n  beyond_re: 9\n"
        "scoring:\n  lost_factor: two\n",
    )
    code, out, err = validate(capsys, path)
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"{path}:1: name: got false: YAML reads an unquoted off as false; quote it to keep the word: name: 'off'",
        f"{path}:2: all_pass: wrong type: got false (YAML reads an unquoted no as false) "
        "(allowed: redeal, ramsch, schieberamsch)",
        f"{path}:5: kontra.when: 'never' is not allowed (allowed: before_first_card, after_declaration)",
        f"{path}:6: kontra.beyond_re: 9 is not allowed (allowed: a whole number from 0 to 3)",
        f"{path}:8: scoring.lost_factor: wrong type: got 'two' (allowed: a whole number from 1 to 4)",
    ]
    assert "more problem" not in err


def test_every_impossible_combination_is_a_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Rules between keys: all of them, each at the line that set the key."""
    path = write(
        tmp_path / "combo.yaml", "kontra:\n  when: after_declaration\n  only_if_bid: true\nramsch:\n  tie: share\n"
    )
    code, _, err = validate(capsys, path)
    assert code == 2
    lines = err.splitlines()
    assert [line.split(": ")[0:2] for line in lines] == [
        [f"{path}:2", "kontra.when"],
        [f"{path}:3", "kontra.only_if_bid"],
        [f"{path}:5", "ramsch.tie"],
    ]


def test_simulate_with_a_broken_variant_gives_each_problem_a_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Through another command: every line carries the 'skatsim: error:' prefix, nothing is written."""
    path = write(tmp_path / "two.yaml", "name: on\nscoring:\n  lost_factor: 9\n")
    code = main(["simulate", str(path), "--games", "10", "--out", str(tmp_path / "run")])
    out, err = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in err
    assert err.splitlines() == [
        f"skatsim: error: {path}:1: name: got true: YAML reads an unquoted on as true; quote it to keep the word: "
        "name: 'on'",
        f"skatsim: error: {path}:3: scoring.lost_factor: 9 is not allowed (allowed: a whole number from 1 to 4)",
    ]
    assert not (tmp_path / "run").exists()


def test_quoted_yaml_boolean_word_is_text(tmp_path: Path) -> None:
    assert load_variant(write(tmp_path / "q.yaml", "name: 'off'\n")).variant.name == "off"


# --- options kept for files that extend ---------------------------------------------------


def test_unused_options_are_kept_only_where_a_file_says_so(tmp_path: Path) -> None:
    """`unused_options: allowed` keeps a file's options of rules it leaves off; a file extending it gets
    them (and plays them once it switches the rule on), but not the allowance for its own keys."""
    write(tmp_path / "base.yaml", "name: base\nunused_options: allowed\nkontra:\n  when: after_declaration\n")
    assert load_variant(tmp_path / "base.yaml").variant.kontra.when == "after_declaration"
    child = load_variant(write(tmp_path / "child.yaml", "extends: base.yaml\nkontra:\n  enabled: true\n")).variant
    assert (child.kontra.enabled, child.kontra.when, child.unused_options) == (True, "after_declaration", "refused")
    with pytest.raises(SkatsimError, match=r"own.yaml:3: bock.multiplier: set while bock.enabled is false"):
        load_variant(write(tmp_path / "own.yaml", "extends: base.yaml\nbock:\n  multiplier: 3\n"))
    with pytest.raises(SkatsimError, match="bock.events: no event while bock.enabled is true"):
        load_variant(write(tmp_path / "conflict.yaml", "unused_options: allowed\nbock:\n  enabled: true\n"))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "bock:\n  enabled: true\n  events: [value_100]\n  zero_total_counts: true\n",
            "bock.zero_total_counts: set, but no running-total event is in bock.events",
        ),
        (
            "bock:\n  enabled: true\n  events: [value_100]\n  ramsch_round_after: true\n"
            "  ramsch_round_grand_hand: deals_again\n",
            "bock.ramsch_round_grand_hand: set, but no Ramsch round offers a Grand hand instead",
        ),
        (
            "all_pass: ramsch\nramsch:\n  grand_hand_instead: ramsch_rounds\n",
            "ramsch.grand_hand_instead: ramsch_rounds, but no Bock list here has a Ramsch round",
        ),
        ("table:\n  players: 4\nbock:\n  enabled: true\n  events: [value_100]\n  list_length: 36\n", None),
        (
            "table:\n  players: 4\nbock:\n  enabled: true\n  events: [value_100]\n  list_length: 30\n",
            "bock.list_length: 30 is not a multiple of 4",
        ),
    ],
)
def test_the_new_options_need_their_rules(tmp_path: Path, text: str, problem: str | None) -> None:
    path = write(tmp_path / "v.yaml", text)
    if problem is None:
        assert load_variant(path).variant.list_length == 36
        return
    with pytest.raises(SkatsimError, match=problem):
        load_variant(path)


def test_a_value_that_fits_no_member_of_a_union_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`ramsch.grand_hand_instead` takes true, false or ramsch_rounds: a wrong word is one line naming all three."""
    path = write(tmp_path / "u.yaml", "all_pass: ramsch\nramsch:\n  grand_hand_instead: rounds\n")
    code, _, err = validate(capsys, path)
    assert code == 2
    assert err.splitlines() == [
        f"{path}:3: ramsch.grand_hand_instead: 'rounds' is not allowed (allowed: true, false or ramsch_rounds)"
    ]
