"""Game records: a complete, serialisable description of one game, and its replay.

A :class:`GameRecord` holds what happened at the table: the deal, every
bidding action, pickup or hand, the discards, the declaration, the cards in
the order played and an early end if there was one; under house rules
(RULES.md §6) also the Kontra/Re calls, the Schieberamsch pushes, a Grand
hand declared instead of a Ramsch, and the deal's place in a list (a Bock
multiplier, a compulsory Ramsch round).

A record and the engine's action record (:mod:`skatsim.engine.layout`) are two
forms of one thing: :func:`record_from_log` reads a simulated game's actions as a
record, :func:`action_record` writes a record's decisions into the slots the deal
flow reads. :func:`replay` plays a record through the one deal flow the simulator
uses (:func:`skatsim.engine.block.replay_block`, every seat the recorded-decisions
player), so every step is checked by the same rule kernels, and returns the game's
:class:`GameResult`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..engine import bidding, declaration, kontra, layout, play, ramsch
from ..engine.block import replay_block, replay_list_block
from ..engine.cards import ISS_NAMES, CardError, from_mask, iss_name, parse_card, to_mask
from ..engine.deal import pack_deal, record_order
from ..engine.flow import (
    PHASE_BID,
    PHASE_CARD,
    PHASE_DECLARE,
    PHASE_DISCARD,
    PHASE_KONTRA,
    PHASE_PUSH,
    R_BIDDING_UNFINISHED,
    R_COMPULSORY_BID,
    R_DISCARDS_MISSING,
    R_INSTEAD_NOT_RAMSCH,
    R_NO_INSTEAD,
    R_PASSED_DECLARED,
    R_PLAY_UNFINISHED,
    R_PUSHES_MISSING,
    R_PUSHES_NOT_SCHIEBE,
    R_RAMSCH_DECLARED,
    R_RAMSCH_NO_GAME,
)
from ..engine.gametypes import GAME_TYPE_LABELS, GRAND, RAMSCH, game_type_code
from ..engine.layout import EMPTY, NO
from ..engine.rules import BOCK_ENABLED, BOCK_RAMSCH_ROUND
from ..engine.scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from ..engine.state import ERR_CODE, N_ERROR
from ..engine.tricks import card_points, trick_winner
from ..errors import ReasonedError, SkatsimError
from ..schema import RESULT_COLUMNS, RULE_COLUMNS
from ..variant import official_params
from . import recordjson


class ReplayError(ReasonedError):
    """A record step that the rules do not allow; the message names the step, ``reason`` the kind of
    problem (import counts the games it skips by reason)."""


@dataclass(frozen=True)
class EarlyEnd:
    """The game stopped early: ``kind`` (one of ``layout.END_KINDS``) by ``seat``."""

    kind: str
    seat: int

    @property
    def log_code(self) -> int:
        """The action record's ``LOG_END`` slot for this end: ``kind * 3 + seat``."""
        return layout.END_KINDS.index(self.kind) * 3 + self.seat

    @classmethod
    def from_log_code(cls, code: int) -> EarlyEnd:
        """The end a ``LOG_END`` slot holds (``code >= 0``; a negative slot is no early end)."""
        return cls(layout.END_KINDS[code // 3], code % 3)


@dataclass(frozen=True)
class GameRecord:
    """One game as played.

    ``deal`` lists 32 cards: forehand's 10, middlehand's 10, rearhand's 10,
    then the 2 skat cards. ``bids`` are ``(seat, action)`` pairs with action a
    bid value, 0 (hold) or -1 (pass). ``declaration`` is ``None`` when all
    passed or the game was aborted before a declaration. A pickup game has no
    ``discards`` only when the declarer forfeited before discarding (``end``).

    House rules (RULES.md §6; every field defaults to "did not happen", so
    older records read unchanged): ``kontra`` lists the seat making each
    doubling call in order (Kontra, Re, ...); a Ramsch has ``game_type``
    ``RAMSCH`` and, in Schieberamsch, ``pushes``: for FH, MH, RH the two cards
    pushed, or ``()`` for passing the skat on unseen; ``grand_hand_instead`` is
    the seat that declared Grand hand instead of a Ramsch. A deal of a list
    carries its Bock multiplier ``bock`` and ``ramsch_round``, the kind of
    compulsory Ramsch (1 Ramsch, 2 Schieberamsch) when it belongs to a Bock
    list's Ramsch round (no bidding then).
    """

    deal: tuple[int, ...]
    bids: tuple[tuple[int, int], ...] = ()
    pickup: bool = False
    discards: tuple[int, ...] = ()
    game_type: int | None = None
    flags: int = 0
    cards: tuple[int, ...] = ()
    end: EarlyEnd | None = None
    kontra: tuple[int, ...] = ()
    pushes: tuple[tuple[int, ...], ...] = ()
    grand_hand_instead: int | None = None
    ramsch_round: int = 0
    bock: int = 1

    def to_json(self) -> str:
        """Serialise with cards in ISS notation: every field, in field order (what
        ``dataclasses.asdict`` gives, built directly: ``asdict`` copies each value deeply, which
        cost three quarters of a ``--record-play`` run)."""
        end = self.end
        data = {
            "deal": [ISS_NAMES[c] for c in self.deal],
            "bids": self.bids,
            "pickup": self.pickup,
            "discards": [ISS_NAMES[c] for c in self.discards],
            "game_type": None if self.game_type is None else GAME_TYPE_LABELS[self.game_type],
            "flags": self.flags,
            "cards": [ISS_NAMES[c] for c in self.cards],
            "end": None if end is None else {"kind": end.kind, "seat": end.seat},
            "kontra": self.kontra,
            "pushes": [[ISS_NAMES[c] for c in pair] for pair in self.pushes],
            "grand_hand_instead": self.grand_hand_instead,
            "ramsch_round": self.ramsch_round,
            "bock": self.bock,
        }
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Inverse of :meth:`to_json`."""
        data = json.loads(text)
        end = data.get("end")
        return cls(
            deal=tuple(parse_card(c) for c in data["deal"]),
            bids=tuple((int(s), int(a)) for s, a in data.get("bids", ())),
            pickup=bool(data.get("pickup", False)),
            discards=tuple(parse_card(c) for c in data.get("discards", ())),
            game_type=None if data.get("game_type") is None else game_type_code(data["game_type"]),
            flags=int(data.get("flags", 0)),
            cards=tuple(parse_card(c) for c in data.get("cards", ())),
            end=None if end is None else EarlyEnd(str(end["kind"]), int(end["seat"])),
            kontra=tuple(int(s) for s in data.get("kontra", ())),
            pushes=tuple(tuple(parse_card(c) for c in pair) for pair in data.get("pushes", ())),
            grand_hand_instead=None if data.get("grand_hand_instead") is None else int(data["grand_hand_instead"]),
            ramsch_round=int(data.get("ramsch_round", 0)),
            bock=int(data.get("bock", 1)),
        )


@dataclass(frozen=True)
class Trick:
    """One trick as replayed: leader seat, cards in order, winner seat and its points."""

    leader: int
    cards: tuple[int, ...]
    winner: int
    points: int


class GameResult:
    """One replayed game's result: every result column of the schema (``docs/schema.md``) and the
    house-rule columns of the variant it was replayed under, by name (``result.score``,
    ``result.won``; ``None`` where a value does not exist or the variant has no such rule), and
    its ``tricks``. Built from the engine's row by the same typing as every table
    (:func:`skatsim.frames.result_frame`), so a replayed game and a table row agree."""

    __slots__ = ("_values", "tricks")

    def __init__(self, values: dict[str, Any], tricks: list[Trick]) -> None:
        self._values = values
        self.tricks = tricks

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            if name in RULE_COLUMNS:
                return None
            raise AttributeError(f"GameResult has no column {name!r}") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameResult) and (self._values, self.tricks) == (other._values, other.tricks)

    def __repr__(self) -> str:
        return f"GameResult({', '.join(f'{k}={v!r}' for k, v in self._values.items())})"

    def columns(self) -> dict[str, object]:
        """The result columns (``RESULT_COLUMNS``) as a dict."""
        return {name: self._values[name] for name in RESULT_COLUMNS}

    def rule_columns(self, names: list[str]) -> dict[str, object]:
        """Those of the house-rule columns ``names`` (:func:`skatsim.schema.rule_column_names`) that
        describe the deal itself, as a dict: all but a list's ``list_id`` and ``deal_in_list`` and the
        run's columns (``bot_out``: who sits out is the list's, not the deal's)."""
        return {name: getattr(self, name) for name in names if RULE_COLUMNS[name] != "list" and name in self._values}


# --------------------------------------------------------------------------- record <-> action record


def _deals_in_record_order(packed: np.ndarray) -> np.ndarray:
    """The cards of packed deals in a record's order (:func:`skatsim.engine.deal.record_order`), ``(n, 32)``."""
    deals = np.zeros((packed.shape[0], 32), dtype=np.int8)
    record_order(np.ascontiguousarray(packed, dtype=np.int64), deals, np.zeros(3, dtype=np.uint32))
    return deals


def _check_logged(rows: np.ndarray, logs: np.ndarray) -> None:
    """A game whose auction was too long for its action record has no record: say which."""
    too_long = np.flatnonzero(logs[:, layout.LOG_N_BIDS] < 0)
    if too_long.size:
        game = rows[too_long[0], 0]
        raise SkatsimError(f"game {game}: bidding too long to be logged ({layout.MAX_LOGGED_BIDS}+ actions)")


def records_as_json(rows: np.ndarray, logs: np.ndarray) -> list[str]:
    """The records of a block of simulated games as JSON: :meth:`GameRecord.to_json` of
    :func:`record_from_log` of each, byte for byte, written by the compiled writer
    (:func:`skatsim.records.recordjson.write_json`) from the rows' deals and the action records."""
    _check_logged(rows, logs)
    deals = _deals_in_record_order(rows[:, layout.COL_DEAL])
    # a simulated record's flags say hand (record_from_log); an ISS line's, as the line announces, do not
    game, logged = logs[:, layout.LOG_GAME], logs.copy()
    logged[(game >= 0) & (game != RAMSCH) & (logs[:, layout.LOG_PICKUP] == 0), layout.LOG_FLAGS] |= HAND
    return recordjson.texts(*recordjson.json_bytes(deals, logged, np.arange(rows.shape[0])))


def record_from_log(row: np.ndarray, log: np.ndarray) -> GameRecord:
    """The :class:`GameRecord` of a simulated game from its row and action record."""
    _check_logged(row[None, :], log[None, :])
    deal = tuple(_deals_in_record_order(row[layout.COL_DEAL : layout.COL_DEAL + 1])[0].tolist())
    n_bids = int(log[layout.LOG_N_BIDS])
    bids = tuple((int(v) // 1024, int(v) % 1024 - 1) for v in log[layout.LOG_BIDS : layout.LOG_BIDS + n_bids])
    ramsch_round, bock = int(log[layout.LOG_ROUND]), int(row[layout.COL_BOCK])
    # what every record has, then what the deal went on to: a game's type and cards, a Ramsch's
    # pushes or a declaration
    gt = int(row[layout.COL_GAME_TYPE])
    if gt < 0:
        return GameRecord(deal=deal, bids=bids, ramsch_round=ramsch_round, bock=bock)
    cards = tuple(int(c) for c in log[layout.LOG_CARDS : layout.LOG_CARDS + 30] if c >= 0)
    if gt == RAMSCH:
        pushes: tuple[tuple[int, ...], ...] = ()
        if int(log[layout.LOG_KIND]) == layout.SCHIEBERAMSCH:
            pushed = [int(c) for c in log[layout.LOG_PUSH : layout.LOG_PUSH + 6]]
            pushes = tuple(() if pushed[2 * s] < 0 else (pushed[2 * s], pushed[2 * s + 1]) for s in range(3))
        return GameRecord(
            deal=deal, bids=bids, game_type=gt, cards=cards, pushes=pushes, ramsch_round=ramsch_round, bock=bock
        )
    kontra_calls = tuple(int(s) for s in log[layout.LOG_KONTRA : layout.LOG_KONTRA + layout.N_KONTRA_SLOTS] if s >= 0)
    instead = int(log[layout.LOG_INSTEAD])
    picked_up = not row[layout.COL_HAND]
    flags = (
        (0 if picked_up else HAND)
        | (SCHNEIDER_ANNOUNCED if row[layout.COL_SCHNEIDER_ANNOUNCED] else 0)
        | (SCHWARZ_ANNOUNCED if row[layout.COL_SCHWARZ_ANNOUNCED] else 0)
        | (OUVERT if row[layout.COL_OUVERT] else 0)
    )
    return GameRecord(
        deal=deal,
        bids=bids,
        pickup=picked_up,
        discards=tuple(from_mask(int(row[layout.COL_SKAT_DISCARD]))) if picked_up else (),
        game_type=gt,
        flags=flags,
        cards=cards,
        kontra=kontra_calls,
        grand_hand_instead=None if instead < 0 else instead,
        ramsch_round=ramsch_round,
        bock=bock,
    )


def _check_deal(deal: tuple[int, ...]) -> int:
    """The deal packed (:func:`skatsim.engine.deal.pack_deal`), after checking its 32 cards."""
    if len(deal) != 32:
        raise ReplayError(f"deal: expected 32 cards, got {len(deal)}")
    try:
        to_mask(deal)
    except CardError as exc:
        raise ReplayError(f"deal: {exc}") from None
    hands = np.array([to_mask(deal[10 * s : 10 * s + 10]) for s in range(3)], dtype=np.uint32)
    return int(pack_deal(hands, np.uint32(to_mask(deal[30:]))))


def _check_context(record: GameRecord, params: np.ndarray) -> None:
    """The deal's place in a list must be one the variant has."""
    if record.bock < 1 or (record.bock > 1 and not params[BOCK_ENABLED]):
        raise ReplayError(
            f"bock: multiplier {record.bock} (allowed: 1, or a Bock round's multiplier with bock.enabled)"
        )
    if record.ramsch_round and record.ramsch_round != params[BOCK_RAMSCH_ROUND]:
        raise ReplayError(
            f"ramsch_round: this variant has no Ramsch round of kind {record.ramsch_round} "
            "(bock.ramsch_round_after, bock.ramsch_round_kind)"
        )


def _check_shape(record: GameRecord) -> None:
    """What a record must look like whatever the rules make of the deal."""
    if record.game_type == RAMSCH and (
        record.kontra or record.pickup or record.discards or record.flags or record.end is not None
    ):
        raise ReplayError("ramsch: a Ramsch has no pickup, discards, announcements, Kontra or early end")
    if record.game_type is not None and record.game_type != RAMSCH and not record.pickup and record.discards:
        raise ReplayError("discard: a hand game has no discards")
    if record.pickup and len(record.discards) not in (0, 2):
        raise ReplayError(f"discard: expected 2 cards after picking up the skat, got {len(record.discards)}")
    if record.end is not None and record.end.kind not in layout.END_KINDS:
        raise ReplayError(f"end: unknown kind {record.end.kind!r}")
    for level, seat in enumerate(record.kontra):
        if seat not in (0, 1, 2):
            raise ReplayError(f"kontra call {level + 1} ({_level_name(level)}): seat {seat} (allowed: 0, 1, 2)")
    instead = record.grand_hand_instead
    if instead is not None:
        if instead not in (0, 1, 2):
            raise ReplayError(f"grand_hand_instead: seat {instead} (allowed: 0, 1, 2)")
        if record.game_type != GRAND or record.pickup:
            raise ReplayError("grand_hand_instead: the game declared instead of a Ramsch is a Grand hand")
    if len(record.pushes) > 3:
        raise ReplayError(f"pushes: a Schieberamsch records FH, MH and RH (3 entries), got {len(record.pushes)}")
    for seat, pair in enumerate(record.pushes):
        if not pair:
            continue
        try:
            pushed = to_mask(pair)
        except CardError as exc:
            raise ReplayError(f"push by seat {seat}: {exc}") from None
        if len(pair) != 2 or bin(pushed).count("1") != 2:
            names = " ".join(iss_name(c) for c in pair)
            raise ReplayError(f"push by seat {seat} ({names}): {ramsch.ERRORS[ramsch.E_PUSH_COUNT]}")


def action_record(record: GameRecord, params: np.ndarray) -> tuple[int, np.ndarray]:
    """The packed deal and the action record (:mod:`skatsim.engine.layout`) of a record: every
    decision it holds in its slot, "no" where it says a thing did not happen, so that the deal
    flow asks nobody. Checks what a record must look like (:class:`ReplayError` names the field)."""
    deal = _check_deal(record.deal)
    _check_context(record, params)
    _check_shape(record)
    log = np.full(layout.LOG_WIDTH, EMPTY, dtype=np.int16)
    bids = record.bids[: layout.MAX_LOGGED_BIDS]
    log[layout.LOG_N_BIDS] = len(bids)
    for n, (seat, action) in enumerate(bids):
        if seat not in (0, 1, 2) or not -1 <= action <= bidding.MAX_BID:
            word = {bidding.PASS: "pass", bidding.HOLD: "hold"}.get(action, str(action))
            raise ReplayError(
                f"bid {n + 1} (seat {seat}: {word}): not a seat (0, 1, 2) or not a bid value", BID_VALUE_REASON
            )
        log[layout.LOG_BIDS + n] = seat * 1024 + action + 1
    for k, c in enumerate(record.cards[:30]):
        log[layout.LOG_CARDS + k] = c
    if len(record.cards) > 30:
        raise ReplayError(f"card 31 (seat ?: {iss_name(record.cards[30])}): {play.ERRORS[play.E_OVER]}", CARDS_REASON)
    calls = record.kontra[: layout.N_KONTRA_SLOTS]
    for level, seat in enumerate(calls):
        log[layout.LOG_KONTRA + level] = seat
    if len(calls) < layout.N_KONTRA_SLOTS:
        log[layout.LOG_KONTRA + len(calls)] = NO
    for seat, pair in enumerate(record.pushes):
        log[layout.LOG_PUSH + 2 * seat : layout.LOG_PUSH + 2 * seat + 2] = sorted(pair) if pair else (NO, NO)
    log[layout.LOG_INSTEAD] = NO if record.grand_hand_instead is None else record.grand_hand_instead
    if record.game_type is None:
        log[layout.LOG_GAME] = NO
        log[layout.LOG_PICKUP] = 1 if record.pickup else NO
    else:
        log[layout.LOG_GAME] = record.game_type
        log[layout.LOG_FLAGS] = record.flags
        log[layout.LOG_PICKUP] = 1 if record.pickup else 0
    for k, c in enumerate(record.discards):
        log[layout.LOG_DISCARD + k] = c
    if record.end is not None:
        log[layout.LOG_END] = record.end.log_code
    log[layout.LOG_KIND] = 0
    log[layout.LOG_ROUND] = record.ramsch_round
    log[layout.LOG_BOCK] = record.bock
    return deal, log


# --------------------------------------------------------------------------- replay


def _level_name(level: int) -> str:
    """Name of the doubling call made at ``level`` (0: Kontra)."""
    return kontra.LEVEL_NAMES[min(level + 1, len(kontra.LEVEL_NAMES) - 1)]


def _bid_word(action: int) -> str:
    return {bidding.PASS: "pass", bidding.HOLD: "hold"}.get(action, str(action))


def _record_problem(code: int, record: GameRecord, value: int) -> str:
    """The message of a record whose shape does not fit what the rules made of the deal."""
    problems = {
        R_COMPULSORY_BID: "bids: a compulsory Ramsch (a Bock list's Ramsch round, ramsch.every_deal) is not bid",
        R_BIDDING_UNFINISHED: f"bidding: unfinished after {len(record.bids)} actions, but a game was declared",
        R_PASSED_DECLARED: "declaration: all players passed, nobody can declare",
        R_RAMSCH_NO_GAME: "declaration: this deal is a Ramsch under this variant, but no game is recorded",
        R_RAMSCH_DECLARED: "declaration: this deal is a Ramsch (no declarer); only a Grand hand instead may be "
        "declared",
        R_INSTEAD_NOT_RAMSCH: "grand_hand_instead: a Grand hand is declared instead of a Ramsch only",
        R_NO_INSTEAD: "grand_hand_instead: this variant has no Grand hand instead of a Ramsch",
        R_PUSHES_NOT_SCHIEBE: "pushes: only a Schieberamsch has pushes",
        R_PUSHES_MISSING: f"pushes: a Schieberamsch records FH, MH and RH (3 entries), got {len(record.pushes)}",
        R_DISCARDS_MISSING: f"discard: expected 2 cards after picking up the skat, got {value}",
    }
    if code == R_PLAY_UNFINISHED:
        what = "the Ramsch" if record.game_type == RAMSCH else "the game"
        tail = "" if record.game_type == RAMSCH else " and no early end is recorded"
        return f"cards: {what} is not over after {value} cards{tail}"
    return problems[code]


#: Reasons of the problems :func:`action_record` finds in an ISS-like record's bids and cards.
BID_VALUE_REASON = "bid: not a seat or not a bid value"
CARDS_REASON = f"card 31: {play.ERRORS[play.E_OVER]}"
#: The reason of each ``R_*`` problem (a record whose shape does not fit what the rules made of the deal).
RECORD_REASONS = {
    R_COMPULSORY_BID: "bids: a compulsory Ramsch is not bid",
    R_BIDDING_UNFINISHED: "bidding: unfinished, but a game was declared",
    R_PASSED_DECLARED: "declaration: all players passed, nobody can declare",
    R_RAMSCH_NO_GAME: "declaration: the deal is a Ramsch, but no game is recorded",
    R_RAMSCH_DECLARED: "declaration: the deal is a Ramsch; only a Grand hand instead may be declared",
    R_INSTEAD_NOT_RAMSCH: "grand_hand_instead: declared instead of something that is no Ramsch",
    R_NO_INSTEAD: "grand_hand_instead: this variant has no Grand hand instead of a Ramsch",
    R_PUSHES_NOT_SCHIEBE: "pushes: only a Schieberamsch has pushes",
    R_PUSHES_MISSING: "pushes: a Schieberamsch records FH, MH and RH",
    R_DISCARDS_MISSING: "discard: not 2 cards after picking up the skat",
    R_PLAY_UNFINISHED: "cards: the game is not over and no early end is recorded",
}


def replay_reason(error: np.ndarray) -> str:
    """The reason (:attr:`ReplayError.reason`) of the decision the deal flow refused (``DealState.error``)."""
    code, phase = int(error[0]), int(error[1])
    reasons = {
        PHASE_BID: lambda: f"bid: {bidding.ERRORS[code]}",
        PHASE_CARD: lambda: f"card: {play.ERRORS[code]}",
        PHASE_DISCARD: lambda: "discard: a card not among the declarer's 12",
        PHASE_DECLARE: lambda: f"declaration: {declaration.ERRORS[code]}",
        PHASE_KONTRA: lambda: f"kontra call: {kontra.ERRORS[code]}",
        PHASE_PUSH: lambda: f"push: {ramsch.ERRORS[code]}",
    }
    return reasons[phase]() if phase in reasons else RECORD_REASONS[code]


def replay_error(error: np.ndarray, record: GameRecord) -> ReplayError:
    """The :class:`ReplayError` naming the recorded decision the deal flow refused (``DealState.error``)."""
    code, phase, step, seat, value = (int(v) for v in error)
    reason = replay_reason(error)
    if phase == PHASE_BID:
        return ReplayError(f"bid {step} (seat {seat}: {_bid_word(value)}): {bidding.ERRORS[code]}", reason)
    if phase == PHASE_CARD:
        return ReplayError(f"card {step} (seat {seat}: {iss_name(value)}): {play.ERRORS[code]}", reason)
    if phase == PHASE_DISCARD:
        return ReplayError(f"discard: {iss_name(value)} is not among the declarer's 12 cards", reason)
    if phase == PHASE_DECLARE:
        label = GAME_TYPE_LABELS.get(value, value)
        return ReplayError(f"declaration ({label}): {declaration.ERRORS[code]}", reason)
    if phase == PHASE_KONTRA:
        name = _level_name(step - 1)
        return ReplayError(f"kontra call {step} ({name} by seat {seat}): {kontra.ERRORS[code]}", reason)
    if phase == PHASE_PUSH:
        names = f"{iss_name(value // 32)} {iss_name(value % 32)}"
        return ReplayError(f"push by seat {seat} ({names}): {ramsch.ERRORS[code]}", reason)
    return ReplayError(_record_problem(code, record, value), reason)


def _tricks(game_type: str, cards: Sequence[int]) -> list[Trick]:
    """The complete tricks of a card sequence: leader, cards, winner, points."""
    if len(cards) < 3:
        return []
    gt = game_type_code(game_type)
    tricks = []
    leader = 0
    for k in range(len(cards) // 3):
        trick = tuple(cards[3 * k : 3 * k + 3])
        winner = (leader + trick_winner(gt, *trick)) % 3
        tricks.append(Trick(leader, trick, winner, int(card_points(np.uint32(to_mask(trick))))))
        leader = winner
    return tricks


def _replayed(
    records: Sequence[GameRecord], params: np.ndarray, block: Callable[..., None]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The records' action records played by ``block`` (:mod:`skatsim.engine.block`): rows, action
    records and ``DealState.error`` rows."""
    deals = np.zeros(len(records), dtype=np.int64)
    logs = np.zeros((len(records), layout.LOG_WIDTH), dtype=np.int16)
    for i, record in enumerate(records):
        deals[i], logs[i] = action_record(record, params)
    rows = np.zeros((len(records), layout.N_COLUMNS), dtype=np.int64)
    errors = np.zeros((len(records), N_ERROR), dtype=np.int64)
    block(deals, logs, params, rows, errors)
    return rows, logs, errors


def replay_rows(records: Sequence[GameRecord], params: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Replay records through the deal flow: their engine rows, action records and
    ``DealState.error`` rows (all 0 for a game the rules accept). Shape problems raise."""
    return _replayed(records, params, replay_block)


def replay_list_rows(records: Sequence[GameRecord], params: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Replay records in order as one list of the variant ``params``: their engine rows, action
    records and ``DealState.error`` rows, as :func:`replay_rows`, but each deal's place in the list —
    its Bock multiplier, Ramsch round, dealer and the players' running totals — decided by the
    list's rules (:func:`skatsim.engine.lists.replay_list`); the records' own ``bock`` and
    ``ramsch_round`` are not read. The list stops at the first refused game."""
    return _replayed([replace(r, bock=1, ramsch_round=0) for r in records], params, replay_list_block)


def replay_list(records: Sequence[GameRecord], params: np.ndarray) -> list[GameResult]:
    """Replay records as one list (:func:`replay_list_rows`) and return each game's result. Raises
    :class:`ReplayError` naming the first game and step the rules reject."""
    rows, _, errors = replay_list_rows(records, params)
    for i, record in enumerate(records):
        if errors[i, ERR_CODE]:
            raise ReplayError(f"game {i + 1} of the list: {replay_error(errors[i], record)}")
    return [result_of(record, row, params) for record, row in zip(records, rows, strict=True)]


def result_of(record: GameRecord, row: np.ndarray, params: np.ndarray) -> GameResult:
    """A replayed game's :class:`GameResult` from its engine row."""
    from ..frames import result_frame  # polars: imported where a result is typed, not with the kernels

    values = result_frame(row[None, :], params).row(0, named=True)
    return GameResult(values, _tricks(values["game_type"], record.cards))


def replay(record: GameRecord, params: np.ndarray | None = None) -> GameResult:
    """Replay a record step by step through the deal flow under ``params`` (the official rules by
    default) and return its result. Raises :class:`ReplayError` naming the first step the rules reject."""
    params = official_params() if params is None else params
    rows, _, errors = replay_rows([record], params)
    if errors[0, ERR_CODE]:
        raise replay_error(errors[0], record)
    return result_of(record, rows[0], params)
