"""The one table of columns every game table is made of (documented in docs/schema.md).

The table is ``columns.toml`` beside this module: a purely declarative list that this
module reads into :class:`Column` entries (:data:`COLUMNS`, :data:`OPEN_HAND_COLUMNS`,
:data:`ISS_COLUMNS`). Each says what a column holds, its type, when it is null, which
house rule adds it and where its value comes from. Everything else is derived
from this table, so a new column is one entry there:

* the engine's result row (:mod:`skatsim.engine.layout`): one ``int64`` slot per
  column whose source is the engine;
* the typed Parquet frames (:mod:`skatsim.frames`): dtypes and null rules;
* a replayed game's :class:`~skatsim.records.record.GameResult` (the result columns);
* docs/schema.md (``scripts/schema_reference.py``; a test fails when it drifts).

Simulated and imported games share the **result columns** (``result=True``), so the
same analysis code reads both. A house-rule column exists only in the tables of a
variant whose rules can produce it (:func:`rule_column_names`), so analysis code tells
"rule off" (no column) from "rule on, did not happen". This module imports no polars:
the kernels' row layout is derived from it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .engine.cards import ISS_NAMES, N_CARDS
from .engine.gametypes import GAME_TYPE_LABELS
from .engine.rules import (
    ALL_PASS,
    BOCK_ENABLED,
    BOCK_RAMSCH_ROUND,
    KONTRA_ENABLED,
    LIST_LENGTH,
    LIST_SCORING,
    TABLE_PLAYERS,
)

#: Where a column's value comes from.
ENGINE = "engine"  # a slot of the engine's result row, cast to the column's type
CARDS = "cards"  # a slot of the engine's row holding a card mask, written as card names
RUN = "run"  # added by the run that wrote the table (variant name, bots, record)
ISS = "iss"  # the International Skat Server's own record of an imported game
SOLVER = "solver"  # the open-hand solver's value of the deal, added on request (``--open-hand``)
SOURCES = (ENGINE, CARDS, RUN, ISS, SOLVER)

#: When a column's value is null (the rule's name -> what it says; :mod:`skatsim.frames` applies them).
NULL_RULES = {
    "negative": "null when the engine wrote a negative number (none)",
    "undeclared": "null when nobody declared (a passed deal, a Ramsch)",
    "ramsch": "null for a Ramsch",
    "not_ramsch": "null unless the deal is a Ramsch",
    "not_ramsch_or_negative": "null unless the deal is a Ramsch with a value",
    "open_hand": "null when nobody declared (a passed deal, a Ramsch)",
    "open_hand_points": "null when nobody declared (a passed deal, a Ramsch), for Null, and with `--open-hand won`",
}

#: Values of the enum columns.
ENUMS = {
    "GameType": tuple(GAME_TYPE_LABELS.values()),
    "IssResult": ("win", "loss", "penalty", "passed"),
    # every two-card discard, lowest card first (card ints): a fixed set, so polars writes it from its
    # codes instead of hashing every game's string
    "Discard": tuple(f"{ISS_NAMES[a]}.{ISS_NAMES[b]}" for a in range(N_CARDS) for b in range(a + 1, N_CARDS)),
}


@dataclass(frozen=True)
class Column:
    """One column, an entry of ``columns.toml`` (whose header says what each field means): ``name``,
    ``dtype``, ``doc``, ``source`` (one of :data:`SOURCES`), ``null`` (a :data:`NULL_RULES` name),
    ``rule`` (a group of :func:`rules_used`) and ``result``."""

    name: str
    dtype: str
    doc: str
    source: str = ENGINE
    null: str | None = None
    rule: str | None = None
    result: bool = False


def _seats(
    name: str, dtype: str, doc: str, *, null: str | None = None, rule: str | None = None, result: bool = False
) -> tuple[Column, ...]:
    """The three per-seat columns ``name_fh``, ``name_mh``, ``name_rh``."""
    docs = (doc, "the same for middlehand", "the same for rearhand")
    return tuple(
        Column(f"{name}_{seat}", dtype, text, null=null, rule=rule, result=result)
        for seat, text in zip(("fh", "mh", "rh"), docs, strict=True)
    )


def _columns(entries: list[dict[str, Any]]) -> tuple[Column, ...]:
    """The columns of a list of ``columns.toml`` entries, each one column or (``seats``) three."""
    columns: list[Column] = []
    for entry in entries:
        fields = {key: value for key, value in entry.items() if key != "seats"}
        columns.extend(_seats(**fields) if entry.get("seats") else (Column(**fields),))
    for column in columns:
        if column.source not in SOURCES or (column.null is not None and column.null not in NULL_RULES):
            raise ValueError(f"columns.toml: {column.name}: unknown source {column.source!r} or null {column.null!r}")
    return tuple(columns)


_TABLE = tomllib.loads((Path(__file__).parent / "columns.toml").read_text(encoding="utf-8"))
#: Every column, in the order tables hold them.
COLUMNS: tuple[Column, ...] = _columns(_TABLE["columns"])
#: The open-hand values of a deal (:mod:`skatsim.engine.openhand`), after the columns above when a run
#: asks for them (``simulate --open-hand``); after ``record`` in an import made with ``import-iss --open-hand``.
OPEN_HAND_COLUMNS: tuple[Column, ...] = _columns(_TABLE["open_hand"])
#: The server's recorded result of an imported ISS game, after the result columns.
ISS_COLUMNS: tuple[Column, ...] = _columns(_TABLE["iss"])

BY_NAME = {c.name: c for c in (*COLUMNS, *OPEN_HAND_COLUMNS, *ISS_COLUMNS)}
#: The result columns every table of games has (simulated and imported), in file order.
RESULT_COLUMNS: tuple[str, ...] = tuple(c.name for c in COLUMNS if c.result and c.rule is None)
#: The house-rule columns, in file order: name -> the rule group that adds it.
RULE_COLUMNS: dict[str, str] = {c.name: c.rule for c in COLUMNS if c.rule is not None}


def rules_used(params: np.ndarray) -> set[str]:
    """Which rule groups (:attr:`Column.rule`) a compiled variant produces."""
    used = set()
    if params[KONTRA_ENABLED]:
        used.add("kontra")
    if params[BOCK_ENABLED]:
        used.add("bock")
    if params[ALL_PASS] or params[BOCK_RAMSCH_ROUND]:
        used.add("ramsch")
    if params[ALL_PASS] == 2 or params[BOCK_RAMSCH_ROUND] == 2:
        used.add("schiebe")
    if params[LIST_LENGTH]:
        used.add("list")
    if params[LIST_SCORING]:
        used.add("list_points")
    if params[TABLE_PLAYERS] == 4:
        used.add("four")
        if params[LIST_SCORING]:
            used.add("four_list_points")
    return used


def rule_column_names(params: np.ndarray) -> list[str]:
    """The house-rule columns a compiled variant's tables hold, in file order."""
    used = rules_used(params)
    return [name for name, rule in RULE_COLUMNS.items() if rule in used]
