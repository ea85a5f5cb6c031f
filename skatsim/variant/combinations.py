"""Impossible combinations of house rules: an option counts only under its parent rule
(:data:`skatsim.variant.model.COMBINATION_RULES` says each in words).

Two kinds of problem: an *unused* option (set, but the rule it belongs to is off: it would
change nothing) and a *conflict* (keys that contradict each other, or a rule switched on
without what it needs). A file that says ``unused_options: allowed`` keeps its unused
options (a file meant to be extended, holding a table's choice for every rule); conflicts
are always refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, get_args

from pydantic import BaseModel

from ..engine import rules
from .keys import KONTRA_EVENTS, TOTAL_EVENTS, BockEvent

if TYPE_CHECKING:
    from .model import Bock, Kontra, Tournament, Variant

#: (key path, problem with what is allowed, whether the problem is only an unused option)
_Found = tuple[str, str, bool]
UNUSED, CONFLICT = True, False


def combination_problems(v: Variant, unused_ok: Callable[[str], bool] | None = None) -> list[tuple[str, str]]:
    """Every impossible combination as (key path, problem with what is allowed); empty if none.

    ``unused_ok(path)`` says whether an unused option at ``path`` is kept rather than refused
    (``unused_options: allowed``); by default every unused option is refused.
    """
    found = [
        *_ramsch_problems(v),
        *_schieberamsch_problems(v),
        *_disabled_problems("kontra", v.kontra),
        *_disabled_problems("bock", v.bock),
        *_disabled_problems("tournament", v.tournament),
        *_bock_problems(v),
        *_list_point_problems(v),
        *_list_length_problems(v),
    ]
    return [(path, problem) for path, problem, unused in found if not (unused and unused_ok and unused_ok(path))]


def _ramsch_problems(v: Variant) -> list[_Found]:
    """Ramsch options without a Ramsch, and options of another Ramsch scoring."""
    r = v.ramsch
    if not v.ramsch_possible:
        return [
            (
                f"ramsch.{key}",
                "set, but no rule here produces a Ramsch (allowed: all_pass: ramsch or "
                "schieberamsch, or bock.ramsch_round_after: true; else remove the key)",
                UNUSED,
            )
            for key in _ordered(r)
        ]
    problems: list[_Found] = []
    wrong_scoring = {"fixed_values": "fixed", "winner_values": "winner"}
    for key, needed in wrong_scoring.items():
        if key in r.model_fields_set and r.scoring != needed:
            problems.append(
                (
                    f"ramsch.{key}",
                    f"set, but ramsch.scoring is {r.scoring} (allowed: only with ramsch.scoring: {needed})",
                    UNUSED,
                )
            )
    if r.scoring == "winner":
        for key in ("tie", "three_way_tie", "jungfrau"):
            if key in r.model_fields_set:
                problems.append(
                    (
                        f"ramsch.{key}",
                        "does not apply to ramsch.scoring: winner (allowed: scoring points or fixed)",
                        UNUSED,
                    )
                )
    if r.every_deal and v.all_pass == "redeal":
        problems.append(
            (
                "ramsch.every_deal",
                "true, but all_pass is redeal (allowed: all_pass: ramsch or schieberamsch, which names the "
                "kind of Ramsch every deal is)",
                CONFLICT,
            )
        )
    if "durchmarsch_value" in r.model_fields_set and not r.durchmarsch:
        problems.append(
            (
                "ramsch.durchmarsch_value",
                "set, but ramsch.durchmarsch is false (allowed: only with durchmarsch: true)",
                UNUSED,
            )
        )
    if r.grand_hand_instead == "ramsch_rounds" and not v.ramsch_rounds:
        problems.append(
            (
                "ramsch.grand_hand_instead",
                "ramsch_rounds, but no Bock list here has a Ramsch round (allowed: bock.ramsch_round_after: true, "
                "or true or false here)",
                UNUSED,
            )
        )
    return problems


def _schieberamsch_problems(v: Variant) -> list[_Found]:
    """Schieberamsch options without a Schieberamsch."""
    if v.schieberamsch_possible:
        return []
    return [
        (
            f"schieberamsch.{key}",
            f"set, but all_pass is {v.all_pass} and no Bock round plays Schieberamsch "
            "(allowed: all_pass: schieberamsch, or bock.ramsch_round_after: true with bock.ramsch_round_kind: "
            "schieberamsch; else remove the key)",
            UNUSED,
        )
        for key in _ordered(v.schieberamsch)
    ]


def _disabled_problems(section: str, model: Kontra | Bock | Tournament) -> list[_Found]:
    """Options of a rule that is switched off (``enabled: false``)."""
    if model.enabled:
        return []
    return [
        (
            f"{section}.{key}",
            f"set while {section}.enabled is false (allowed: {section}.enabled: true, or remove the key)",
            UNUSED,
        )
        for key in _ordered(model)
        if key != "enabled"
    ]


def _bock_problems(v: Variant) -> list[_Found]:
    """Bock events (none, twice, impossible without Kontra), the options that need another, the list length."""
    b = v.bock
    if not b.enabled:
        return []
    allowed = ", ".join(get_args(BockEvent))
    if not b.events:
        return [("bock.events", f"no event while bock.enabled is true (allowed: one or more of {allowed})", CONFLICT)]
    problems: list[_Found] = []
    seen: dict[int, str] = {}
    for i, event in enumerate(b.events):
        bit = rules.BOCK_EVENT_BITS[event]
        if bit in seen:
            problems.append(
                (
                    f"bock.events.{i}",
                    f"{event} is the same event as {seen[bit]}, listed before (allowed: each event once)",
                    CONFLICT,
                )
            )
        seen.setdefault(bit, event)
        if event in KONTRA_EVENTS and not v.kontra.enabled:
            problems.append(
                (
                    f"bock.events.{i}",
                    f"{event} cannot happen while kontra.enabled is false "
                    "(allowed: kontra.enabled: true, or remove the event)",
                    CONFLICT,
                )
            )
    if "ramsch_round_kind" in b.model_fields_set and not b.ramsch_round_after:
        problems.append(
            (
                "bock.ramsch_round_kind",
                "set, but bock.ramsch_round_after is false (allowed: only with ramsch_round_after: true)",
                UNUSED,
            )
        )
    if "zero_total_counts" in b.model_fields_set and not set(b.events) & set(TOTAL_EVENTS):
        problems.append(
            (
                "bock.zero_total_counts",
                "set, but no running-total event is in bock.events (allowed: with total_multiple_100 or "
                "total_three_equal_digits)",
                UNUSED,
            )
        )
    if "ramsch_round_grand_hand" in b.model_fields_set and not (b.ramsch_round_after and v.ramsch.grand_hand_instead):
        problems.append(
            (
                "bock.ramsch_round_grand_hand",
                "set, but no Ramsch round offers a Grand hand instead (allowed: with bock.ramsch_round_after: true "
                "and ramsch.grand_hand_instead: true or ramsch_rounds)",
                UNUSED,
            )
        )
    if "list_length" in b.model_fields_set and v.tournament.enabled:
        problems.append(
            (
                "bock.list_length",
                "set, but tournament.enabled is true and the list is tournament.list_length "
                "(allowed: remove bock.list_length)",
                CONFLICT,
            )
        )
    return problems


def _list_point_problems(v: Variant) -> list[_Found]:
    """Kontra multiplying list points that are not kept."""
    if v.kontra.enabled and v.kontra.multiplies_list_points and not v.tournament.enabled:
        return [
            (
                "kontra.multiplies_list_points",
                "true, but tournament.enabled is false: there are no list points to multiply "
                "(allowed: tournament.enabled: true, or false here)",
                UNUSED,
            )
        ]
    return []


def _list_length_problems(v: Variant) -> list[_Found]:
    """List lengths that are not whole rounds: every player must deal equally often."""
    n = v.table.players
    example = "36 or 48" if n == 3 else "48"
    problems: list[_Found] = []
    for name, section in (("tournament", v.tournament), ("bock", v.bock)):
        length = section.list_length
        if "list_length" in section.model_fields_set and length % n:
            problems.append(
                (
                    f"{name}.list_length",
                    f"{length} is not a multiple of {n} (allowed: a positive multiple of {n}, the players at the "
                    f"table, e.g. {example})",
                    CONFLICT,
                )
            )
    return problems


def _ordered(model: BaseModel) -> list[str]:
    """The keys written for ``model``, in declaration order (stable error messages)."""
    return [key for key in type(model).model_fields if key in model.model_fields_set]
