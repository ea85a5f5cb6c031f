"""Variant files: YAML house rules validated into one frozen object, compiled to rule parameters.

Data flows one way: YAML text -> :class:`Variant` (validated; every default is
the official rule, ISkO) -> :meth:`Variant.params` (the ``int64`` array of
:mod:`skatsim.rules`) -> kernels. The keys are RULES.md §6's house rules and
their options, one section per rule; docs/variants.md is generated from these
models (``scripts/variant_reference.py``).

Options form a tree (as in jskat): an option counts only when its parent rule
is on, so setting ``kontra.when`` while ``kontra.enabled`` is false, or any
``ramsch`` option while no rule can produce a Ramsch, is an error rather than
a silent no-op. Keys written in the file are told apart from defaults with
pydantic's ``model_fields_set``.

Loading (:func:`load_variant`) is defensive: safe YAML only (tags that build
Python objects are refused), a size limit, a limit on values after anchor/alias
expansion ("billion laughs"), duplicate keys refused, ``extends`` resolved
relative to the file with cycle detection. Every problem is one
:class:`~skatsim.errors.SkatsimError` line ``FILE:LINE: key.path: what is wrong
(allowed: ...)``, the line found from the composed YAML node tree.
"""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

import numpy as np
import yaml
from annotated_types import Ge, Le, MaxLen, MinLen
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

from . import rules
from .errors import SkatsimError

#: A variant file larger than this is refused before parsing (real ones are ~2 KiB).
MAX_FILE_BYTES = 64 * 1024
#: Most YAML values (nodes) a document may expand to once aliases are followed.
MAX_NODES = 5_000
#: Longest chain of ``extends``.
MAX_EXTENDS = 16

AllPass = Literal["redeal", "ramsch", "schieberamsch"]
BockEvent = Literal[
    "all_passed",
    "kontra_re",
    "lost_after_kontra",
    "sixty_sixty",
    "lost_sixty_sixty",
    "lost_grand",
    "lost_grand_hand",
    "value_100",
    "won_grand_hand",
    "won_null_ouvert_hand",
    "total_multiple_100",
]
#: Bock events that only a Kontra can cause.
KONTRA_EVENTS = ("kontra_re", "lost_after_kontra")


class _Section(BaseModel):
    """Common settings: frozen, strict types (``"2"`` is not an integer), unknown keys refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def _list_length(value: int) -> int:
    """A list is whole rounds: every player deals equally often (3 seats)."""
    if value % 3:
        raise ValueError(f"{value} is not a multiple of 3 (allowed: a positive multiple of 3, e.g. 36 or 48)")
    return value


class Scoring(_Section):
    """How a played game's score is reckoned (RULES.md §5, §6 "Pre-1999 hand losses")."""

    lost_factor: int = Field(
        2, ge=1, le=4, description="A lost game costs this many times its value (2 since 1999, ISkO 5.7)."
    )
    lost_hand_factor: int = Field(
        2,
        ge=1,
        le=4,
        description="The same for a lost hand game (1 under the pre-1999 rules). It may exceed "
        "`lost_factor`: no known table does that, but nothing depends on the order, so it is allowed.",
    )


class FixedValues(_Section):
    """Fixed Ramsch values: the loser loses ``base + per_jungfrau * Jungfrauen`` (10 / 15 / 20)."""

    base: int = Field(10, ge=1, le=1000, description="Loss of the Ramsch loser without a Jungfrau.")
    per_jungfrau: int = Field(
        5, ge=0, le=1000, description="Added per player who took no trick (used when `ramsch.jungfrau` is true)."
    )


class WinnerValues(_Section):
    """Winner-Ramsch values (played in some tournaments): the player with fewest card points wins."""

    single: int = Field(23, ge=1, le=1000, description="Won by a single player with fewest card points.")
    tied: int = Field(37, ge=1, le=1000, description="Won by each of two players tied for fewest card points.")


class Ramsch(_Section):
    """Ramsch: every player for himself, Grand trumps, most card points loses (RULES.md §6).

    Counts only when a Ramsch can happen: ``all_pass`` is ``ramsch`` or
    ``schieberamsch``, or ``bock.ramsch_round_after`` is true.
    """

    skat_to: Literal["last_trick", "loser", "nobody"] = Field(
        "last_trick",
        description="Whose card points the skat adds to: the winner of the last trick, the loser, or nobody.",
    )
    tie: Literal["all_lose", "last_trick_loses", "share"] = Field(
        "all_lose",
        description="A tie for most card points: every tied player loses, the tied player who took the last "
        "trick loses, or the tied players share the loss (40:40:40 shared three ways). Not with `scoring: winner`.",
    )
    scoring: Literal["points", "fixed", "winner"] = Field(
        "points",
        description="`points`: the loser scores minus his card points; `fixed`: minus `fixed_values`; "
        "`winner`: the player with fewest card points wins `winner_values` like a declarer.",
    )
    fixed_values: FixedValues = Field(FixedValues(), description="Values of `scoring: fixed` (only with it).")
    winner_values: WinnerValues = Field(WinnerValues(), description="Values of `scoring: winner` (only with it).")
    jungfrau: bool = Field(
        True,
        description="Each player who took no trick (Jungfrau) doubles the loss (`fixed`: adds "
        "`fixed_values.per_jungfrau`). A trick of three zero-point cards is a trick. Not with `scoring: winner`.",
    )
    durchmarsch: bool = Field(
        True,
        description="A player who takes every trick wins `durchmarsch_value` (Durchmarsch); if false he is "
        "the loser like anyone with most card points, doubled per Jungfrau.",
    )
    durchmarsch_value: int = Field(120, ge=1, le=1000, description="What a Durchmarsch wins (only with `durchmarsch`).")
    grand_hand_instead: bool = Field(
        False, description="Before the Ramsch starts, a player may declare Grand hand instead (FH first)."
    )
    every_deal: bool = Field(
        False,
        description="Every deal is a Ramsch, without bidding: Ramsch as a game of its own (the Ramsch-Ordnung; "
        "xskat's -ramschonly), Grand hand the only alternative when `grand_hand_instead`. Needs `all_pass: "
        "ramsch` or `schieberamsch`, which names the kind of Ramsch.",
    )


class Schieberamsch(_Section):
    """Schieberamsch: FH, MH, RH in turn may pick up the skat and pass two cards on (RULES.md §6).

    Counts only when a Schieberamsch can happen: ``all_pass: schieberamsch``, or a
    Bock Ramsch round of ``ramsch_round_kind: schieberamsch``.
    """

    jacks_may_be_pushed: bool = Field(False, description="Jacks may be among the two cards passed on.")
    doubling: Literal["decline", "push"] = Field(
        "decline",
        description="`decline`: each player who passes the skat on unseen doubles the result (all three: x8, "
        "as in the seeds); `push`: each player who picks it up and passes two cards doubles it.",
    )


class Kontra(_Section):
    """Kontra / Re: defenders double the game score, the declarer redoubles (RULES.md §6)."""

    enabled: bool = Field(False, description="A defender may say Kontra (x2) and the declarer answer Re (x4).")
    when: Literal["before_first_card", "after_declaration"] = Field(
        "before_first_card",
        description="When Kontra may be said: before the first card, or right after the declaration.",
    )
    only_if_bid: bool = Field(False, description="Only a defender who bid or held at least 18 may say Kontra.")
    beyond_re: int = Field(
        0,
        ge=0,
        le=3,
        description="Further doublings after Re (Bock/Hirsch, Supra, ...): 0 none (x4 is the top), 1 up to x8, "
        "2 up to x16, 3 up to x32.",
    )
    multiplies_list_points: bool = Field(
        False,
        description="Kontra/Re also multiply the Seeger-Fabian +50/-50/+40 (only with `tournament.enabled`).",
    )


class Bock(_Section):
    """Bock rounds: events queue rounds of one deal per player in which scores count double (RULES.md §6).

    Bock needs sequences of deals (lists) with the dealer rotating: a variant
    with Bock simulates lists of ``list_length`` deals.
    """

    enabled: bool = Field(False, description="Play Bock rounds.")
    events: tuple[BockEvent, ...] = Field(
        (),
        description="Events that queue a Bock round (at least one when enabled): `all_passed`; `kontra_re` "
        "(Kontra and Re said); `lost_after_kontra`; `sixty_sixty` or its other name `lost_sixty_sixty` "
        "(a game lost 60:60); `lost_grand`; `lost_grand_hand`; `value_100` (game value 100 or more); "
        "`won_grand_hand`; `won_null_ouvert_hand`; `total_multiple_100` (a running total reaches a multiple of 100).",
    )
    multiplier: int = Field(2, ge=2, le=8, description="Score multiplier inside a Bock round.")
    trigger_counts_double: bool = Field(False, description="The deal that triggers a Bock round itself counts with it.")
    ramsch_round_after: bool = Field(
        False, description="A round of compulsory Ramsch (one deal per player) follows each Bock round."
    )
    ramsch_round_kind: Literal["ramsch", "schieberamsch"] = Field(
        "ramsch", description="Kind of Ramsch played in that round (only with `ramsch_round_after`)."
    )
    list_length: int = Field(
        36,
        ge=3,
        le=3000,
        description="Deals per simulated list (a positive multiple of 3). With `tournament.enabled` the list "
        "is `tournament.list_length` and this key must not be set.",
    )

    @field_validator("events", mode="before")
    @classmethod
    def _list_to_tuple(cls, value: Any) -> Any:
        """YAML gives lists; the frozen model keeps a tuple."""
        return tuple(value) if isinstance(value, list) else value

    @field_validator("list_length")
    @classmethod
    def _whole_rounds(cls, value: int) -> int:
        """Lists are whole rounds (see :func:`_list_length`)."""
        return _list_length(value)


class ReversedGame(_Section):
    """Sächsische Spitze: a Grand-like game with reversed order, base value 20 (RULES.md §6)."""

    enabled: bool = Field(
        False,
        description="Declarers may play the reversed game: DJ HJ SJ CJ on top, then 7 8 9 10 Q K A in every "
        "suit; base value 20; matadors counted from DJ (at most 4).",
    )


class Tournament(_Section):
    """Seeger-Fabian list scoring (RULES.md §5; ISkO/SkWO)."""

    enabled: bool = Field(False, description="Keep Seeger-Fabian list points over lists of deals.")
    won_bonus: int = Field(50, ge=0, le=1000, description="List points added to a won game.")
    lost_malus: int = Field(50, ge=0, le=1000, description="List points subtracted from a lost game.")
    defender_bonus: int = Field(
        40, ge=0, le=1000, description="List points to each defender when the declarer loses (3-player table)."
    )
    list_length: int = Field(36, ge=3, le=3000, description="Deals per list (a positive multiple of 3; 36 or 48).")

    @field_validator("list_length")
    @classmethod
    def _whole_rounds(cls, value: int) -> int:
        """Lists are whole rounds (see :func:`_list_length`)."""
        return _list_length(value)


#: The rules between keys that :meth:`Variant._check_combinations` enforces (rendered in docs/variants.md).
COMBINATION_RULES = (
    "`ramsch` options need a rule that produces a Ramsch: `all_pass: ramsch` or `schieberamsch`, "
    "or `bock.ramsch_round_after: true`.",
    "`schieberamsch` options need `all_pass: schieberamsch`, or a Bock Ramsch round with "
    "`bock.ramsch_round_kind: schieberamsch`.",
    "`ramsch.fixed_values` needs `ramsch.scoring: fixed`; `ramsch.winner_values` needs `ramsch.scoring: winner`; "
    "`ramsch.tie` and `ramsch.jungfrau` do not apply to `scoring: winner`.",
    "`ramsch.durchmarsch_value` needs `ramsch.durchmarsch: true`; `ramsch.every_deal: true` needs `all_pass: "
    "ramsch` or `schieberamsch`.",
    "`kontra`, `bock` and `tournament` options need their section's `enabled: true`.",
    "`bock.events` must list at least one event when Bock is enabled, each once (`sixty_sixty` and "
    "`lost_sixty_sixty` are the same event); `kontra_re` and `lost_after_kontra` need `kontra.enabled: true`.",
    "`bock.ramsch_round_kind` needs `bock.ramsch_round_after: true`.",
    "`bock.list_length` must not be set with `tournament.enabled: true` (the list is `tournament.list_length`).",
    "`kontra.multiplies_list_points: true` needs `tournament.enabled: true`.",
)


class Variant(_Section):
    """A complete rule set. Every key defaults to the official rules (ISkO)."""

    name: str = Field(
        "official",
        min_length=1,
        max_length=80,
        pattern=r"^[^\x00-\x1f\x7f]+$",
        description="Short name, stored in every row's `variant` column.",
    )
    description: str = Field("", max_length=4000, description="What the variant models and its sources.")
    extends: str | tuple[str, ...] | None = Field(
        None,
        description="Another variant file, or a list of them, whose keys this file overrides (paths relative "
        "to this file). Merged deeply: mappings merge key by key, lists and values are replaced; in a list, "
        "later files override earlier ones and this file overrides them all.",
    )

    @field_validator("extends", mode="before")
    @classmethod
    def _extends_tuple(cls, value: Any) -> Any:
        """YAML gives lists; the frozen model keeps a tuple."""
        return tuple(value) if isinstance(value, list) else value

    all_pass: AllPass = Field(
        "redeal",
        description="When all three pass: `redeal` (official; the deal is counted as `passed`), `ramsch`, or "
        "`schieberamsch`.",
    )
    scoring: Scoring = Field(Scoring(), description="Score of a played game.")
    ramsch: Ramsch = Field(Ramsch(), description="Ramsch options.")
    schieberamsch: Schieberamsch = Field(Schieberamsch(), description="Schieberamsch options.")
    kontra: Kontra = Field(Kontra(), description="Kontra / Re.")
    bock: Bock = Field(Bock(), description="Bock rounds.")
    reversed_game: ReversedGame = Field(ReversedGame(), description="Sächsische Spitze.")
    tournament: Tournament = Field(Tournament(), description="Seeger-Fabian list scoring.")

    @model_validator(mode="after")
    def _check_combinations(self) -> Variant:
        """Refuse impossible combinations (:data:`COMBINATION_RULES`), naming the key path."""
        for path, problem in combination_problems(self):
            raise PydanticCustomError("impossible_combination", "{problem}", {"path": path, "problem": problem})
        return self

    @property
    def ramsch_possible(self) -> bool:
        """Whether any rule here produces a Ramsch deal."""
        return self.all_pass != "redeal" or (self.bock.enabled and self.bock.ramsch_round_after)

    @property
    def schieberamsch_possible(self) -> bool:
        """Whether any rule here produces a Schieberamsch deal."""
        bock_round = (
            self.bock.enabled and self.bock.ramsch_round_after and self.bock.ramsch_round_kind == "schieberamsch"
        )
        return self.all_pass == "schieberamsch" or bock_round

    @property
    def needs_lists(self) -> bool:
        """Whether deals must be simulated as sequences (lists) rather than independently.

        Bock rounds carry state from deal to deal and Seeger-Fabian points are
        summed per list; both need the dealer rotating through a list.
        """
        return self.bock.enabled or self.tournament.enabled

    @property
    def list_length(self) -> int:
        """Deals per list (0 when deals are independent)."""
        if self.tournament.enabled:
            return self.tournament.list_length
        return self.bock.list_length if self.bock.enabled else 0

    def params(self) -> np.ndarray:
        """Compile to the kernels' rule parameter array (index constants of :mod:`skatsim.rules`)."""
        p = rules.official_params()
        for index, value in self._param_values().items():
            p[index] = value
        return p

    def _param_values(self) -> dict[int, int]:
        """Each rules.py index and the value this variant gives it."""
        r, s, k, b, t = self.ramsch, self.schieberamsch, self.kontra, self.bock, self.tournament
        values = {
            rules.LOST_FACTOR: self.scoring.lost_factor,
            rules.LOST_HAND_FACTOR: self.scoring.lost_hand_factor,
            rules.LIST_SCORING: int(t.enabled),
            rules.LIST_WON_BONUS: t.won_bonus,
            rules.LIST_LOST_MALUS: t.lost_malus,
            rules.LIST_DEFENDER_BONUS: t.defender_bonus,
            rules.REVERSED_ALLOWED: int(self.reversed_game.enabled),
            rules.ALL_PASS: rules.ALL_PASS_CODES[self.all_pass],
            rules.RAMSCH_SKAT_TO: rules.RAMSCH_SKAT_TO_CODES[r.skat_to],
            rules.RAMSCH_TIE: rules.RAMSCH_TIE_CODES[r.tie],
            rules.RAMSCH_SCORING: rules.RAMSCH_SCORING_CODES[r.scoring],
            rules.RAMSCH_FIXED_BASE: r.fixed_values.base,
            rules.RAMSCH_FIXED_PER_JUNGFRAU: r.fixed_values.per_jungfrau,
            rules.RAMSCH_WINNER_SINGLE: r.winner_values.single,
            rules.RAMSCH_WINNER_TIED: r.winner_values.tied,
            rules.RAMSCH_JUNGFRAU: int(r.jungfrau),
            rules.RAMSCH_DURCHMARSCH: int(r.durchmarsch),
            rules.RAMSCH_DURCHMARSCH_VALUE: r.durchmarsch_value,
            rules.RAMSCH_GRAND_HAND: int(r.grand_hand_instead),
            rules.SCHIEBE_JACKS: int(s.jacks_may_be_pushed),
            rules.SCHIEBE_DOUBLING: rules.SCHIEBE_DOUBLING_CODES[s.doubling],
            rules.KONTRA_ENABLED: int(k.enabled),
            rules.KONTRA_WHEN: rules.KONTRA_WHEN_CODES[k.when],
            rules.KONTRA_ONLY_IF_BID: int(k.only_if_bid),
            rules.KONTRA_BEYOND_RE: k.beyond_re,
            rules.KONTRA_LIST_POINTS: int(k.multiplies_list_points),
            rules.BOCK_ENABLED: int(b.enabled),
            rules.BOCK_EVENTS: _event_bits(b.events),
            rules.BOCK_MULTIPLIER: b.multiplier,
            rules.BOCK_TRIGGER_DOUBLE: int(b.trigger_counts_double),
            rules.BOCK_RAMSCH_ROUND: rules.ALL_PASS_CODES[b.ramsch_round_kind] if b.ramsch_round_after else 0,
            rules.LIST_LENGTH: self.list_length,
            rules.RAMSCH_EVERY_DEAL: int(r.every_deal),
        }
        return values


def _event_bits(events: tuple[str, ...]) -> int:
    """The ``BOCK_EVENTS`` bit mask of a list of event names."""
    mask = 0
    for event in events:
        mask |= rules.BOCK_EVENT_BITS[event]
    return mask


# --- impossible combinations -------------------------------------------------------------


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
        for key in ("tie", "jungfrau"):
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


# --- describing keys (error hints and docs/variants.md) ------------------------------------


def field_at(loc: tuple[str, ...]) -> tuple[Any, Any]:
    """The type expected at a key path of :class:`Variant` and the field that declares it.

    List items (``bock.events.0``) give the item type and the list's field;
    an unknown path gives ``(None, None)``.
    """
    annotation: Any = Variant
    info: Any = None
    for part in loc:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if part not in annotation.model_fields:
                return None, None
            info = annotation.model_fields[part]
            annotation = info.annotation
        elif get_origin(annotation) is tuple:
            annotation = get_args(annotation)[0]
        else:
            return None, None
    return annotation, info


def describe_type(annotation: Any, info: Any = None) -> str:
    """What a key accepts, in words: the ``allowed`` of error messages and the reference page."""
    origin = get_origin(annotation)
    if origin is Literal:
        return ", ".join(str(arg) for arg in get_args(annotation))
    if origin is tuple:
        return f"a list of: {describe_type(get_args(annotation)[0])}"
    if origin in (Union, types.UnionType):
        return "a file path, or a list of file paths"
    if annotation is bool:
        return "true or false"
    if annotation is int:
        return _int_range(info)
    if annotation is str:
        return _text_limits(info)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "a mapping with keys " + ", ".join(annotation.model_fields)
    return str(annotation)


def _int_range(info: Any) -> str:
    """'a whole number from 1 to 4' from a field's ge/le constraints."""
    low = next((m.ge for m in getattr(info, "metadata", ()) if isinstance(m, Ge)), None)
    high = next((m.le for m in getattr(info, "metadata", ()) if isinstance(m, Le)), None)
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    return "a whole number" if low is None else f"a whole number >= {low}"


def _text_limits(info: Any) -> str:
    """'text, one line, at most 80 characters' from a str field's constraints."""
    metadata = getattr(info, "metadata", ())
    words = ["text"]
    if any(isinstance(m, MinLen) and m.min_length > 0 for m in metadata):
        words.append("not empty")
    if any(getattr(m, "pattern", None) for m in metadata):
        words.append("one line without control characters")
    longest = next((m.max_length for m in metadata if isinstance(m, MaxLen)), None)
    if longest is not None:
        words.append(f"at most {longest} characters")
    return ", ".join(words)


# --- loading YAML safely ------------------------------------------------------------------


class LoadedVariant(BaseModel):
    """A validated variant with the text it came from (stored in run manifests).

    ``text`` is the file's text; with ``extends`` the texts of the files it
    extends follow, each after a ``# --- extends: PATH ---`` line, so a run's
    manifest records every rule that made it. ``files`` is the chain, this file first.
    """

    model_config = ConfigDict(frozen=True)

    path: str
    text: str
    variant: Variant
    files: tuple[str, ...] = ()


class _Problem(Exception):
    """A problem in one YAML file, at a line (1-based) when known; becomes a SkatsimError."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


class _VariantLoader(yaml.SafeLoader):
    """PyYAML's SafeLoader, refusing duplicate keys (PyYAML would silently keep the last one).

    ``key_paths`` maps a mapping node (by id) to its key path, filled by
    :func:`_check_graph`, so that a duplicate is named by its full path.
    """

    key_paths: dict[int, tuple[str, ...]]

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """Check the keys as written (before ``<<`` merges), then construct as SafeLoader does."""
        prefix = _dotted(getattr(self, "key_paths", {}).get(id(node), ()))
        seen: dict[str, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge" or not isinstance(key_node, yaml.ScalarNode):
                continue
            line = key_node.start_mark.line + 1
            if key_node.value in seen:
                raise _Problem(
                    line,
                    f"{prefix + '.' if prefix else ''}{key_node.value}: duplicate key, first written at line "
                    f"{seen[key_node.value]} "
                    "(allowed: each key once per mapping)",
                )
            seen[key_node.value] = line
        return super().construct_mapping(node, deep=deep)


def _read(path: Path) -> str:
    """The file's text, refusing what is not a small UTF-8 file."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _Problem(None, f"file is {size} bytes (allowed: at most {MAX_FILE_BYTES} bytes)")
        return path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise _Problem(None, f"cannot read variant file ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise _Problem(None, f"not UTF-8 text (byte {exc.start}) (allowed: a UTF-8 YAML file)") from None


def _parse(text: str) -> tuple[Any, dict[tuple[str, ...], int]]:
    """Parse one document: (data, line of every key path). Raises :class:`_Problem`."""
    loader = _VariantLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return {}, {}
        loader.key_paths = _check_graph(node)
        data = loader.construct_document(node)
    except RecursionError:
        raise _Problem(None, "YAML nested too deeply (allowed: a few levels of mappings)") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise _Problem(mark.line + 1 if mark else None, f"not valid YAML: {_yaml_problem(exc)}") from None
    except yaml.YAMLError as exc:
        raise _Problem(None, f"not valid YAML: {_one_line(str(exc))}") from None
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else f"the value {_show(data)}"
        raise _Problem(
            node.start_mark.line + 1,
            f"a variant file must be a mapping of keys, got {kind} "
            "(allowed: key: value lines, e.g. 'all_pass: ramsch')",
        )
    lines: dict[tuple[str, ...], int] = {}
    _collect_lines(node, (), lines)
    return data, lines


def _yaml_problem(exc: yaml.MarkedYAMLError) -> str:
    """PyYAML's context and problem ('while scanning ...: could not find ...') on one line."""
    parts = [part for part in (exc.context, exc.problem) if part]
    return _one_line(": ".join(parts)) or "cannot be parsed"


def _check_graph(root: yaml.Node) -> dict[int, tuple[str, ...]]:
    """Refuse object-building tags, recursive aliases and alias bombs, before anything is constructed.

    The composed graph shares a node for every alias, so counting the values it
    would expand to is linear with memoisation; the count stops at ``MAX_NODES``.
    Returns the key path of every mapping node (by id; the first path that reaches it).
    """
    sizes: dict[int, int] = {}
    paths: dict[int, tuple[str, ...]] = {}
    on_path: set[int] = set()

    def size(node: yaml.Node, path: tuple[str, ...]) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        line = node.start_mark.line + 1
        if key in on_path:
            raise _Problem(line, "an alias refers to the mapping or list that contains it (allowed: plain values)")
        _check_tag(node)
        on_path.add(key)
        if isinstance(node, yaml.MappingNode):
            paths.setdefault(key, path)
        total = 1
        for child, child_path in _children(node, path):
            total += size(child, child_path)
            if total > MAX_NODES:
                raise _Problem(
                    line,
                    f"YAML anchors and aliases expand to more than {MAX_NODES} values "
                    f"(allowed: at most {MAX_NODES}; variant files are small)",
                )
        on_path.discard(key)
        sizes[key] = total
        return total

    size(root, ())
    return paths


def _children(node: yaml.Node, path: tuple[str, ...]) -> list[tuple[yaml.Node, tuple[str, ...]]]:
    """Keys and values of a mapping, items of a list (nothing for a scalar), each with its key path."""
    if isinstance(node, yaml.MappingNode):
        out = []
        for key_node, value_node in node.value:
            name = key_node.value if isinstance(key_node, yaml.ScalarNode) else "?"
            out += [(key_node, path), (value_node, (*path, name))]
        return out
    if isinstance(node, yaml.SequenceNode):
        return [(item, (*path, str(i))) for i, item in enumerate(node.value)]
    return []


def _check_tag(node: yaml.Node) -> None:
    """Only YAML's own types (mapping, list, text, number, bool, null) are allowed."""
    tag = node.tag or ""
    if tag.startswith("tag:yaml.org,2002:") and "python/" not in tag:
        return
    shown = tag.replace("tag:yaml.org,2002:", "!!")
    raise _Problem(
        node.start_mark.line + 1,
        f"YAML tag {shown} is not allowed (allowed: plain YAML mappings, "
        "lists, text, numbers, true/false; tags that build objects are refused)",
    )


def _collect_lines(node: yaml.Node, path: tuple[str, ...], lines: dict[tuple[str, ...], int]) -> None:
    """Map every key path (list items by index) to its line; keys must be plain names."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            if not (isinstance(key_node, yaml.ScalarNode) and key_node.tag == "tag:yaml.org,2002:str"):
                raise _Problem(
                    line,
                    f"{_dotted(path) + '.' if path else ''}{getattr(key_node, 'value', '?')}: "
                    "a key must be a plain name (allowed: names such as all_pass, ramsch)",
                )
            lines[(*path, key_node.value)] = line
            _collect_lines(value_node, (*path, key_node.value), lines)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines[(*path, str(index))] = item.start_mark.line + 1
            _collect_lines(item, (*path, str(index)), lines)


# --- extends ------------------------------------------------------------------------------


class _Tree(typing.NamedTuple):
    """A file merged with the files it extends: data, (file, line) per key path, texts in chain order."""

    data: dict[str, Any]
    sources: dict[tuple[str, ...], tuple[Path, int]]
    texts: list[tuple[Path, str]]


def _load_tree(path: Path, chain: tuple[Path, ...], root: Path) -> _Tree:
    """Parse ``path`` and, through ``extends``, its ancestors; merge them (this file wins).

    ``chain`` holds the files from the root down to ``path``, as named, to detect cycles.
    """
    try:
        text = _read(path)
        data, lines = _parse(text)
    except _Problem as problem:
        raise SkatsimError(_where(path, problem.line, root) + problem.message) from None
    own = _Tree(data, {key: (path, line) for key, line in lines.items()}, [(path, text)])
    if "extends" not in data:
        return own
    merged: dict[str, Any] = {}
    sources: dict[tuple[str, ...], tuple[Path, int]] = {}
    texts = list(own.texts)
    for parent in _extends_targets(path, data["extends"], lines, chain, root):
        base = _load_tree(parent, (*chain, parent), root)
        merged = _merge(merged, base.data)
        sources.update(base.sources)
        texts += base.texts
    merged = _merge(merged, data)
    return _Tree(merged, {**sources, **own.sources}, texts)


def _extends_targets(
    path: Path, value: Any, lines: dict[tuple[str, ...], int], chain: tuple[Path, ...], root: Path
) -> list[Path]:
    """The files named by ``extends`` (one path or a list), each checked by :func:`_extends_target`."""
    if isinstance(value, list) and value:
        return [
            _extends_target(path, item, lines.get(("extends", str(i))), chain, root) for i, item in enumerate(value)
        ]
    return [_extends_target(path, value, lines.get(("extends",)), chain, root)]


def _extends_target(path: Path, value: Any, line: int | None, chain: tuple[Path, ...], root: Path) -> Path:
    """The file named by one ``extends`` entry, refusing a non-path, a missing file, a cycle or a long chain."""
    where = _where(path, line, root) + "extends: "
    if not isinstance(value, str) or not value.strip():
        raise SkatsimError(
            where + f"expected a file path, got {_show(value)} (allowed: a variant file "
            "relative to this one, e.g. official.yaml, or a list of them)"
        )
    target = path.parent / value
    if target.resolve() in {p.resolve() for p in chain}:
        names = " -> ".join(str(p) for p in (*chain, target))
        raise SkatsimError(where + f"cycle {names} (allowed: a chain that ends in a file without extends)")
    if len(chain) >= MAX_EXTENDS:
        raise SkatsimError(where + f"more than {MAX_EXTENDS} files in the extends chain (allowed: {MAX_EXTENDS})")
    if not target.is_file():
        raise SkatsimError(
            where + f"{value!r} not found (looked for {target}; allowed: an existing variant "
            "file, relative to this one)"
        )
    return target


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Deep merge: mappings merge key by key; anything else in ``override`` replaces."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _where(path: Path, line: int | None, root: Path) -> str:
    """``FILE:LINE: `` (or ``FILE: ``), naming the root file when the problem is in a file it extends."""
    via = "" if path == root else f"(extended by {root}) "
    return f"{path}:{line}: {via}" if line else f"{path}: {via}"


# --- validation errors as one line --------------------------------------------------------


def _validation_message(root: Path, sources: dict[tuple[str, ...], tuple[Path, int]], exc: ValidationError) -> str:
    """``FILE:LINE: key.path: problem (allowed: ...)`` for the first error, counting the others."""
    errors = exc.errors()
    loc, problem = _describe_error(errors[0])
    path, line = _source(loc, sources, root)
    more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    return f"{_where(path, line, root)}{_dotted(loc) or '(top level)'}: {problem}{more}"


def _source(
    loc: tuple[str, ...], sources: dict[tuple[str, ...], tuple[Path, int]], root: Path
) -> tuple[Path, int | None]:
    """The file and line that wrote ``loc`` (or its closest written parent)."""
    for end in range(len(loc), 0, -1):
        if loc[:end] in sources:
            return sources[loc[:end]]
    return root, None


def _describe_error(err: Any) -> tuple[tuple[str, ...], str]:
    """One pydantic error as (key path, problem with what is allowed)."""
    loc = tuple(str(part) for part in err["loc"])
    kind = err["type"]
    if kind == "impossible_combination":
        return tuple(err["ctx"]["path"].split(".")), err["ctx"]["problem"]
    if kind == "extra_forbidden":
        return loc, _unknown_key(loc)
    annotation, info = field_at(loc)
    allowed = describe_type(annotation, info) if annotation is not None else "see docs/variants.md"
    got = _show(err["input"])
    if kind == "value_error":
        return loc, str(err["ctx"]["error"])
    if kind == "literal_error":
        return loc, f"{got} is not allowed (allowed: {allowed})"
    if kind.endswith(("_type", "_parsing")) or kind == "int_from_float":
        return loc, f"wrong type: got {got} (allowed: {allowed})"
    return loc, f"{got} is not allowed (allowed: {allowed})"


def _unknown_key(loc: tuple[str, ...]) -> str:
    """'unknown key' with a close match and the keys that section allows."""
    import difflib

    owner, _ = field_at(loc[:-1])
    keys = list(owner.model_fields) if isinstance(owner, type) and issubclass(owner, BaseModel) else []
    close = difflib.get_close_matches(loc[-1], keys, n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    return f"unknown key ({hint}allowed: {', '.join(keys)})"


def _dotted(loc: tuple[str, ...]) -> str:
    return ".".join(loc)


def _show(value: Any) -> str:
    """A value as the user wrote it in YAML, shortened."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "an empty value"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    shown = repr(value) if isinstance(value, str) else str(value)
    return _one_line(shown if len(shown) <= 40 else shown[:37] + "...")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def load_variant(path: str | Path) -> LoadedVariant:
    """Read, parse (safe YAML only), merge ``extends`` and validate a variant file.

    Raises :class:`SkatsimError` with one line ``FILE:LINE: key.path: problem (allowed: ...)``.
    """
    root = Path(path)
    tree = _load_tree(root, (root,), root)
    try:
        variant = Variant.model_validate(tree.data)
    except ValidationError as exc:
        raise SkatsimError(_validation_message(root, tree.sources, exc)) from None
    text = tree.texts[0][1] + "".join(f"\n# --- extends: {p} ---\n{t}" for p, t in tree.texts[1:])
    return LoadedVariant(path=str(root), text=text, variant=variant, files=tuple(str(p) for p, _ in tree.texts))
