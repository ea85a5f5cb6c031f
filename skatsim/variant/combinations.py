"""Impossible combinations of house rules: an option counts only under its parent rule
(:data:`skatsim.variant.model.COMBINATION_RULES` says each in words)."""

from __future__ import annotations

from typing import TYPE_CHECKING, get_args

from pydantic import BaseModel

from ..engine import rules
from .keys import KONTRA_EVENTS, BockEvent

if TYPE_CHECKING:
    from .model import Bock, Kontra, Tournament, Variant


def combination_problems(v: Variant) -> list[tuple[str, str]]:
    """Every impossible combination as (key path, problem with what is allowed); empty if none."""
    return [
        *_ramsch_problems(v),
        *_schieberamsch_problems(v),
        *_disabled_problems("kontra", v.kontra),
        *_disabled_problems("bock", v.bock),
        *_disabled_problems("tournament", v.tournament),
        *_bock_problems(v),
        *_list_point_problems(v),
    ]


def _ramsch_problems(v: Variant) -> list[tuple[str, str]]:
    """Ramsch options without a Ramsch, and options of another Ramsch scoring."""
    r = v.ramsch
    if not v.ramsch_possible:
        return [
            (
                f"ramsch.{key}",
                "set, but no rule here produces a Ramsch (allowed: all_pass: ramsch or "
                "schieberamsch, or bock.ramsch_round_after: true; else remove the key)",
            )
            for key in _ordered(r)
        ]
    problems = []
    wrong_scoring = {"fixed_values": "fixed", "winner_values": "winner"}
    for key, needed in wrong_scoring.items():
        if key in r.model_fields_set and r.scoring != needed:
            problems.append(
                (
                    f"ramsch.{key}",
                    f"set, but ramsch.scoring is {r.scoring} (allowed: only with ramsch.scoring: {needed})",
                )
            )
    if r.scoring == "winner":
        for key in ("tie", "three_way_tie", "jungfrau"):
            if key in r.model_fields_set:
                problems.append(
                    (f"ramsch.{key}", "does not apply to ramsch.scoring: winner (allowed: scoring points or fixed)")
                )
    if r.every_deal and v.all_pass == "redeal":
        problems.append(
            (
                "ramsch.every_deal",
                "true, but all_pass is redeal (allowed: all_pass: ramsch or schieberamsch, which names the "
                "kind of Ramsch every deal is)",
            )
        )
    if "durchmarsch_value" in r.model_fields_set and not r.durchmarsch:
        problems.append(
            ("ramsch.durchmarsch_value", "set, but ramsch.durchmarsch is false (allowed: only with durchmarsch: true)")
        )
    return problems


def _schieberamsch_problems(v: Variant) -> list[tuple[str, str]]:
    """Schieberamsch options without a Schieberamsch."""
    if v.schieberamsch_possible:
        return []
    return [
        (
            f"schieberamsch.{key}",
            f"set, but all_pass is {v.all_pass} and no Bock round plays Schieberamsch "
            "(allowed: all_pass: schieberamsch, or bock.ramsch_round_after: true with bock.ramsch_round_kind: "
            "schieberamsch; else remove the key)",
        )
        for key in _ordered(v.schieberamsch)
    ]


def _disabled_problems(section: str, model: Kontra | Bock | Tournament) -> list[tuple[str, str]]:
    """Options of a rule that is switched off (``enabled: false``)."""
    if model.enabled:
        return []
    return [
        (
            f"{section}.{key}",
            f"set while {section}.enabled is false (allowed: {section}.enabled: true, or remove the key)",
        )
        for key in _ordered(model)
        if key != "enabled"
    ]


def _bock_problems(v: Variant) -> list[tuple[str, str]]:
    """Bock events (none, twice, impossible without Kontra), the Ramsch round kind and the list length."""
    b = v.bock
    if not b.enabled:
        return []
    allowed = ", ".join(get_args(BockEvent))
    if not b.events:
        return [("bock.events", f"no event while bock.enabled is true (allowed: one or more of {allowed})")]
    problems = []
    seen: dict[int, str] = {}
    for i, event in enumerate(b.events):
        bit = rules.BOCK_EVENT_BITS[event]
        if bit in seen:
            problems.append(
                (
                    f"bock.events.{i}",
                    f"{event} is the same event as {seen[bit]}, listed before (allowed: each event once)",
                )
            )
        seen.setdefault(bit, event)
        if event in KONTRA_EVENTS and not v.kontra.enabled:
            problems.append(
                (
                    f"bock.events.{i}",
                    f"{event} cannot happen while kontra.enabled is false "
                    "(allowed: kontra.enabled: true, or remove the event)",
                )
            )
    if "ramsch_round_kind" in b.model_fields_set and not b.ramsch_round_after:
        problems.append(
            (
                "bock.ramsch_round_kind",
                "set, but bock.ramsch_round_after is false (allowed: only with ramsch_round_after: true)",
            )
        )
    if "list_length" in b.model_fields_set and v.tournament.enabled:
        problems.append(
            (
                "bock.list_length",
                "set, but tournament.enabled is true and the list is tournament.list_length "
                "(allowed: remove bock.list_length)",
            )
        )
    return problems


def _list_point_problems(v: Variant) -> list[tuple[str, str]]:
    """Kontra multiplying list points that are not kept."""
    if v.kontra.enabled and v.kontra.multiplies_list_points and not v.tournament.enabled:
        return [
            (
                "kontra.multiplies_list_points",
                "true, but tournament.enabled is false: there are no list points to multiply "
                "(allowed: tournament.enabled: true, or false here)",
            )
        ]
    return []


def _ordered(model: BaseModel) -> list[str]:
    """The keys written for ``model``, in declaration order (stable error messages)."""
    return [key for key in type(model).model_fields if key in model.model_fields_set]
