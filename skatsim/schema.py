"""The one table of columns every game table is made of (documented in docs/schema.md).

Each :class:`Column` says what a column holds, its type, when it is null, which
house rule adds it and where its value comes from. Everything else is derived
from this table, so a new column is one entry here:

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

from dataclasses import dataclass

import numpy as np

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

#: When a column's value is null (the rule's name -> what it says; :mod:`skatsim.frames` applies them).
NULL_RULES = {
    "negative": "null when the engine wrote a negative number (none)",
    "undeclared": "null when nobody declared (a passed deal, a Ramsch)",
    "ramsch": "null for a Ramsch",
    "not_ramsch": "null unless the deal is a Ramsch",
    "not_ramsch_or_negative": "null unless the deal is a Ramsch with a value",
    "open_hand": "null when nobody declared (a passed deal, a Ramsch)",
    "open_hand_points": "null when nobody declared (a passed deal, a Ramsch) and for Null",
}

#: Values of the enum columns.
ENUMS = {
    "GameType": tuple(GAME_TYPE_LABELS.values()),
    "IssResult": ("win", "loss", "penalty", "passed"),
}


@dataclass(frozen=True)
class Column:
    """One column: ``name``, ``dtype`` (a polars type name or an :data:`ENUMS` name), ``doc``;
    ``source`` (:data:`ENGINE`, :data:`CARDS`, :data:`RUN`, :data:`ISS`); ``null`` (a
    :data:`NULL_RULES` name); ``rule``, the house-rule group that adds it (None: every table of
    its source has it); ``result``, one of the result columns shared by simulated and imported games."""

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


def _declared(name: str, dtype: str, doc: str) -> Column:
    """A result column that describes a declared game: null when nobody declared."""
    return Column(name, dtype, doc, null="undeclared", result=True)


#: Every column, in the order tables hold them.
COLUMNS: tuple[Column, ...] = (
    Column("game_id", "Int64", "game index within the run, 0 .. games - 1; with the seed it determines the deal"),
    Column("variant", "String", "the variant's `name` (its full text is in `manifest.json`)", source=RUN),
    Column(
        "game_type",
        "GameType",
        "diamonds hearts spades clubs grand null; passed (all passed); aborted; ramsch; reversed",
        result=True,
    ),
    Column(
        "declarer",
        "Int8",
        "declarer's seat: 0 forehand, 1 middlehand, 2 rearhand; null when none",
        null="negative",
        result=True,
    ),
    Column("bid", "Int16", "final bid (value bid or held); 0 when all passed", result=True),
    _declared("hand", "Boolean", "played without picking up the skat"),
    _declared("ouvert", "Boolean", "declarer's cards open"),
    _declared(
        "schneider_announced",
        "Boolean",
        "Schneider announced (implied by Schwarz announced and ouvert)",
    ),
    _declared(
        "schwarz_announced",
        "Boolean",
        "Schwarz announced (implied by ouvert in suit games and Grand)",
    ),
    _declared("matadors", "Int8", "+N with N, -N without N, over the declarer's 12 cards; 0 for Null"),
    _declared("declarer_points", "Int16", "declarer's card points, skat included"),
    _declared("declarer_tricks", "Int8", "tricks won by the declarer"),
    _declared(
        "schneider",
        "Boolean",
        "a side reached Schneider (<= 30 card points for the other)",
    ),
    _declared("schwarz", "Boolean", "a side won no trick"),
    _declared(
        "overbid",
        "Boolean",
        "game value below the bid: lost, charged the next multiple of the base value",
    ),
    _declared("won", "Boolean", "declarer won"),
    _declared("game_value", "Int16", "value charged: game value, or the overbid value"),
    Column(
        "score",
        "Int32",
        "declarer's score for the deal (+value, -2 x value; Kontra and Bock included); null for a Ramsch",
        null="ramsch",
        result=True,
    ),
    *_seats("score", "Int32", "forehand's score for the deal", result=True),
    Column(
        "dealer",
        "Int8",
        "player who dealt: 2 for an independent deal (players are numbered as the seats of the deal, "
        "rearhand deals); in a list (`list_id`), players keep their numbers — forehand, middlehand, "
        "rearhand of the list's first deal are players 0, 1, 2, and at a four-player table (`table.players`) "
        "player 3 deals it — and deal in turn, so at a table of `n` players forehand is player "
        "`(dealer + 1) % n` and seat `s` is player `(dealer + 1 + s) % n`; at four the dealer sits out. Deal "
        "`k` of a list is dealt by player `(k + n - 1) % n` unless a Grand hand instead of a Ramsch-round "
        "Ramsch let the same dealer deal again (`bock.ramsch_round_grand_hand: deals_again`)",
    ),
    Column(
        "deal",
        "Int64",
        "the whole deal packed: for card `c` (suit × 8 + rank, suits D H S C, ranks 7 8 9 T J Q K A), bits "
        "`2c` and `2c+1` hold its owner: 0 FH, 1 MH, 2 RH, 3 skat (`skatsim.engine.deal.unpack_deal`)",
    ),
    Column(
        "skat_discard",
        "String",
        "the two cards the declarer put away after picking up the skat, lowest card first, joined by `.` "
        "(e.g. `HT.CA`); null for hand games and passed deals",
        source=CARDS,
    ),
    *_seats("max_bid", "Int16", "highest value forehand bid or held; 0 when forehand never bid or held"),
    Column(
        "bot_fh",
        "String",
        "bot seated at forehand, with its parameters where they differ from the defaults "
        "(`heuristic:loss_aversion=2`; registry: `skatsim.bots.BOTS`); in a list the bots belong to the players "
        "(`--bots` names players 0, 1, 2, and 3 at a four-player table) and move with them (`dealer`)",
        source=RUN,
    ),
    Column("bot_mh", "String", "bot seated at middlehand", source=RUN),
    Column("bot_rh", "String", "bot seated at rearhand", source=RUN),
    Column(
        "bot_out",
        "String",
        "only at a four-player table (`table.players: 4`): the bot of the player sitting out, the dealer",
        source=RUN,
        rule="four",
    ),
    Column(
        "kontra_level",
        "Int8",
        "only with `kontra.enabled`: doublings said before the first card: 0 none, 1 Kontra (x2), 2 Re (x4), "
        "3 and more beyond Re (3: x8, 4: x16, 5: x32, `kontra.beyond_re`); null when no game was declared",
        null="undeclared",
        rule="kontra",
        result=True,
    ),
    Column(
        "bock",
        "Int8",
        "only with `bock.enabled`: the Bock multiplier the deal's scores count with (`bock.multiplier` in a "
        "Bock round, else 1)",
        rule="bock",
        result=True,
    ),
    Column(
        "ramsch_loser",
        "Int8",
        "only when a Ramsch can occur (`all_pass: ramsch`/`schieberamsch`, `bock.ramsch_round_after`): seat "
        "of the single Ramsch loser; null when there is none (a recognised Durchmarsch, winner Ramsch, "
        "several tied losers under `tie: all_lose` or `share`) and for deals that are not a Ramsch",
        null="not_ramsch_or_negative",
        rule="ramsch",
        result=True,
    ),
    *_seats(
        "ramsch_points",
        "Int16",
        "the same condition: forehand's card points in a Ramsch, the skat's included when they go to him "
        "(`ramsch.skat_to`); null for other deals",
        null="not_ramsch",
        rule="ramsch",
        result=True,
    ),
    Column(
        "jungfrau_count",
        "Int8",
        "the same condition: players who took no trick in a Ramsch (0..2); null for other deals",
        null="not_ramsch",
        rule="ramsch",
        result=True,
    ),
    Column(
        "durchmarsch",
        "Boolean",
        "the same condition: one player took every trick of a Ramsch (recognised or not, "
        "`ramsch.durchmarsch`); null for other deals",
        null="not_ramsch",
        rule="ramsch",
        result=True,
    ),
    Column(
        "schiebe_count",
        "Int8",
        "only when a Schieberamsch can occur: players who picked up the skat and pushed two cards (0..3); "
        "null for other deals",
        null="not_ramsch_or_negative",
        rule="schiebe",
        result=True,
    ),
    Column(
        "list_id",
        "Int64",
        "only when the variant plays lists (`bock.enabled` or `tournament.enabled`): the list, `game_id // L` "
        "for lists of L deals",
        rule="list",
    ),
    Column(
        "deal_in_list",
        "Int16",
        "the same condition: the deal's position in its list, `game_id % L`",
        rule="list",
    ),
    *_seats(
        "list_points",
        "Int32",
        "only with `tournament.enabled`: forehand's Seeger-Fabian list points for the deal: the declarer's "
        "score (Kontra and Bock included) +50 won, -50 lost, +40 to each defender of a lost game (the 50s "
        "and 40s doubled with Kontra when `kontra.multiplies_list_points`); a Ramsch's scores; 0 for a "
        "passed deal",
        rule="list_points",
        result=True,
    ),
    Column(
        "list_points_out",
        "Int32",
        "only with `tournament.enabled` at a four-player table: the list points of the player sitting out "
        "(the dealer): +30 (`tournament.defender_bonus`) when the declarer loses, else 0",
        rule="four_list_points",
        result=True,
    ),
    Column(
        "record",
        "String",
        "only with `--record-play`: the game as a `GameRecord` JSON (deal, bids, pickup, discards, declaration, "
        "cards in the order played; under house rules also the Kontra calls, Schieberamsch pushes, a Grand "
        "hand instead of a Ramsch, the Bock multiplier and a compulsory Ramsch round); `skatsim replay DIR "
        "--game N` shows it",
        source=RUN,
    ),
)

#: The open-hand values of a deal (:mod:`skatsim.engine.openhand`), after the columns above when a run
#: asks for them (``simulate --open-hand``); after ``record`` in an import made with ``import-iss --open-hand``.
OPEN_HAND_COLUMNS: tuple[Column, ...] = (
    Column(
        "open_hand_points",
        "Int16",
        "only with `--open-hand`: the declarer's card points (skat included) in the declared game after the "
        "discard when every seat sees every card and plays perfectly (`skatsim.engine.solver`)",
        source=SOLVER,
        null="open_hand_points",
    ),
    Column(
        "open_hand_won",
        "Boolean",
        "only with `--open-hand`: the declared game is won with perfect play by all: >= 61 card points "
        "(90 with Schneider announced), every trick with Schwarz announced, no trick in Null; the bid is not "
        "looked at",
        source=SOLVER,
        null="open_hand",
    ),
)

#: The server's recorded result of an imported ISS game, after the result columns.
ISS_COLUMNS: tuple[Column, ...] = (
    Column("iss_declarer", "Int8", "declarer's seat as the server recorded it (d:); null when none", source=ISS),
    Column("iss_result", "IssResult", "the server's verdict", source=ISS),
    Column("iss_won", "Boolean", "win -> true, loss -> false; null for penalty and passed", source=ISS),
    Column("iss_score", "Int32", "declarer's score (v:)", source=ISS),
    Column("iss_matadors", "Int8", "matadors (m:), +with / -without, 0 for Null", source=ISS),
    Column("iss_overbid", "Boolean", "recorded as overbid", source=ISS),
    Column("iss_points", "Int16", "declarer's card points incl. skat (p:)", source=ISS),
    Column("iss_tricks", "Int8", "declarer's tricks (t:)", source=ISS),
    Column("iss_schneider", "Boolean", "Schneider reached (s:)", source=ISS),
    Column("iss_schwarz", "Boolean", "Schwarz reached (z:)", source=ISS),
    Column("iss_date", "String", "date and time of the game (DT[])", source=ISS),
    Column("iss_players", "String", "player names of seats 0, 1, 2 (P0..P2), joined with ','", source=ISS),
)

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
