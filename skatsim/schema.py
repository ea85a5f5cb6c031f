"""The evaluation columns shared by imported and simulated games (documented in docs/schema.md).

Each entry: column name -> (polars dtype, meaning). Imported ISS games add
``iss_*`` columns, simulated games add the simulator's columns; both start
with these so the same analysis code reads both. Simulated games of a
variant with house rules add the :data:`RULE_COLUMNS` of the rules it uses
(:func:`rule_column_names`): a column exists exactly when its rule can occur,
so analysis code tells "rule off" (no column) from "rule on, did not happen".
"""

from __future__ import annotations

import numpy as np
import polars as pl

from .engine.gametypes import GAME_TYPE_LABELS
from .engine.rules import ALL_PASS, BOCK_ENABLED, BOCK_RAMSCH_ROUND, KONTRA_ENABLED, LIST_LENGTH, LIST_SCORING

#: Enum of every value ``game_type`` can take.
GAME_TYPE = pl.Enum(list(GAME_TYPE_LABELS.values()))

EVALUATION_COLUMNS: dict[str, tuple[pl.DataType | type[pl.DataType], str]] = {
    "game_type": (GAME_TYPE, "diamonds hearts spades clubs grand null; passed (all passed); aborted; ramsch; reversed"),
    "declarer": (pl.Int8, "declarer's seat: 0 forehand, 1 middlehand, 2 rearhand; null when none"),
    "bid": (pl.Int16, "final bid (value bid or held); 0 when all passed"),
    "hand": (pl.Boolean, "played without picking up the skat"),
    "ouvert": (pl.Boolean, "declarer's cards open"),
    "schneider_announced": (pl.Boolean, "Schneider announced (implied by Schwarz announced and ouvert)"),
    "schwarz_announced": (pl.Boolean, "Schwarz announced (implied by ouvert in suit games and Grand)"),
    "matadors": (pl.Int8, "+N with N, -N without N, over the declarer's 12 cards; 0 for Null"),
    "declarer_points": (pl.Int16, "declarer's card points, skat included"),
    "declarer_tricks": (pl.Int8, "tricks won by the declarer"),
    "schneider": (pl.Boolean, "a side reached Schneider (<= 30 card points for the other)"),
    "schwarz": (pl.Boolean, "a side won no trick"),
    "overbid": (pl.Boolean, "game value below the bid: lost, charged the next multiple of the base value"),
    "won": (pl.Boolean, "declarer won"),
    "game_value": (pl.Int16, "value charged: game value, or the overbid value"),
    "score": (
        pl.Int32,
        "declarer's score for the deal (+value, -2 x value; Kontra and Bock included); null for a Ramsch",
    ),
    "score_fh": (pl.Int32, "forehand's score for the deal"),
    "score_mh": (pl.Int32, "middlehand's score for the deal"),
    "score_rh": (pl.Int32, "rearhand's score for the deal"),
}


def evaluation_schema() -> dict[str, pl.DataType | type[pl.DataType]]:
    """Polars schema of the evaluation columns."""
    return {name: dtype for name, (dtype, _) in EVALUATION_COLUMNS.items()}


#: House-rule columns (RULES.md §6): name -> (polars dtype, meaning, the rule that adds it).
RULE_COLUMNS: dict[str, tuple[pl.DataType | type[pl.DataType], str, str]] = {
    "kontra_level": (
        pl.Int8,
        "doublings said: 0 none, 1 Kontra (x2), 2 Re (x4), 3 and more beyond Re (x8, x16, x32); "
        "null when no game was declared",
        "kontra",
    ),
    "bock": (pl.Int8, "score multiplier from Bock rounds: 1 outside a Bock round", "bock"),
    "ramsch_loser": (
        pl.Int8,
        "seat of the single Ramsch loser; null when there is none (Durchmarsch, winner Ramsch, "
        "several tied losers) and for other deals",
        "ramsch",
    ),
    "ramsch_points_fh": (
        pl.Int16,
        "forehand's card points in a Ramsch, the skat included per ramsch.skat_to",
        "ramsch",
    ),
    "ramsch_points_mh": (pl.Int16, "the same for middlehand", "ramsch"),
    "ramsch_points_rh": (pl.Int16, "the same for rearhand", "ramsch"),
    "jungfrau_count": (pl.Int8, "players without a trick in a Ramsch (Jungfrau)", "ramsch"),
    "durchmarsch": (pl.Boolean, "one player took every trick of a Ramsch (recognised or not)", "ramsch"),
    "schiebe_count": (pl.Int8, "players who pushed in a Schieberamsch (0..3); null for other deals", "schiebe"),
    "list_id": (pl.Int64, "list the deal belongs to: game_id // list length", "list"),
    "deal_in_list": (pl.Int16, "position of the deal in its list: game_id % list length", "list"),
    "list_points_fh": (
        pl.Int32,
        "forehand's Seeger-Fabian list points for the deal (score +50/-50, +40 per defender of a lost game)",
        "list_points",
    ),
    "list_points_mh": (pl.Int32, "the same for middlehand", "list_points"),
    "list_points_rh": (pl.Int32, "the same for rearhand", "list_points"),
}


def rules_used(params: np.ndarray) -> set[str]:
    """Which column groups of :data:`RULE_COLUMNS` a compiled variant produces."""
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
    return used


def rule_column_names(params: np.ndarray) -> list[str]:
    """The house-rule columns a compiled variant's tables hold, in file order."""
    used = rules_used(params)
    return [name for name, (_, _, rule) in RULE_COLUMNS.items() if rule in used]
