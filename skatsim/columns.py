"""The evaluation columns shared by imported and simulated games (documented in docs/schema.md).

Each entry: column name -> (polars dtype, meaning). Imported ISS games add
``iss_*`` columns, simulated games add the simulator's columns; both start
with these so the same analysis code reads both.
"""

from __future__ import annotations

import polars as pl

from .gametypes import GAME_TYPE_LABELS

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
    "score": (pl.Int32, "declarer's score for the deal (+value, -2 x value)"),
    "score_fh": (pl.Int32, "forehand's score for the deal"),
    "score_mh": (pl.Int32, "middlehand's score for the deal"),
    "score_rh": (pl.Int32, "rearhand's score for the deal"),
}


def evaluation_schema() -> dict[str, pl.DataType | type[pl.DataType]]:
    """Polars schema of the evaluation columns."""
    return {name: dtype for name, (dtype, _) in EVALUATION_COLUMNS.items()}
