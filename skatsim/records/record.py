"""Game records: a complete, serialisable description of one game, and its replay.

A :class:`GameRecord` holds what happened at the table: the deal, every
bidding action, pickup or hand, the discards, the declaration, the cards in
the order played and an early end if there was one; under house rules
(RULES.md §6) also the Kontra/Re calls, the Schieberamsch pushes, a Grand
hand declared instead of a Ramsch, and the deal's place in a list (a Bock
multiplier, a compulsory Ramsch round). :func:`replay` walks the record
through the same compiled kernels the simulator uses (:mod:`skatsim.engine.bidding`,
:mod:`skatsim.engine.declaration`, :mod:`skatsim.engine.kontra`, :mod:`skatsim.engine.play`,
:mod:`skatsim.engine.result`, :mod:`skatsim.engine.ramsch`), checking every step, and
returns the evaluation.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

import numpy as np

from ..engine import bidding, declaration, kontra, play, ramsch
from ..engine.cards import CardError, format_cards, iss_name, parse_card, to_mask
from ..engine.gametypes import ABORTED, GAME_TYPE_LABELS, GRAND, NULL, PASSED, RAMSCH, game_type_code
from ..engine.result import (
    MATADORS,
    N_FIELDS,
    OVERBID,
    POINTS,
    SCHNEIDER,
    SCHWARZ,
    SCORE,
    TRICKS,
    VALUE,
    WON,
    evaluate_play,
)
from ..engine.rules import (
    ALL_PASS,
    BOCK_ENABLED,
    BOCK_RAMSCH_ROUND,
    KONTRA_ENABLED,
    KONTRA_LIST_POINTS,
    LIST_SCORING,
    RAMSCH_EVERY_DEAL,
    RAMSCH_GRAND_HAND,
    official_params,
)
from ..engine.scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED, list_points
from ..engine.tricks import card_points
from ..schema import EVALUATION_COLUMNS, RULE_COLUMNS

#: Early-end kinds (ISS: SC, RE, TI, LE).
END_KINDS = ("claim", "resign", "timeout", "left")


class ReplayError(ValueError):
    """A record step that the rules do not allow; the message names the step."""


@dataclass(frozen=True)
class EarlyEnd:
    """The game stopped early: ``kind`` (one of ``END_KINDS``) by ``seat``."""

    kind: str
    seat: int


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
        """Serialise with cards in ISS notation."""
        data = asdict(self)
        data["deal"] = [iss_name(c) for c in self.deal]
        data["discards"] = [iss_name(c) for c in self.discards]
        data["cards"] = [iss_name(c) for c in self.cards]
        data["pushes"] = [[iss_name(c) for c in pair] for pair in self.pushes]
        data["game_type"] = None if self.game_type is None else GAME_TYPE_LABELS[self.game_type]
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


@dataclass
class Evaluation:
    """The evaluation columns of one game (see ``docs/schema.md``), and the house-rule columns
    (:data:`skatsim.schema.RULE_COLUMNS`; ``None`` where a value does not exist)."""

    game_type: str
    declarer: int | None = None
    bid: int = 0
    hand: bool | None = None
    ouvert: bool | None = None
    schneider_announced: bool | None = None
    schwarz_announced: bool | None = None
    matadors: int | None = None
    declarer_points: int | None = None
    declarer_tricks: int | None = None
    schneider: bool | None = None
    schwarz: bool | None = None
    overbid: bool | None = None
    won: bool | None = None
    game_value: int | None = None
    score: int | None = 0
    score_fh: int = 0
    score_mh: int = 0
    score_rh: int = 0
    tricks: list[Trick] = field(default_factory=list, repr=False)
    kontra_level: int | None = None
    bock: int = 1
    ramsch_loser: int | None = None
    ramsch_points_fh: int | None = None
    ramsch_points_mh: int | None = None
    ramsch_points_rh: int | None = None
    jungfrau_count: int | None = None
    durchmarsch: bool | None = None
    schiebe_count: int | None = None
    list_points_fh: int | None = None
    list_points_mh: int | None = None
    list_points_rh: int | None = None

    def columns(self) -> dict[str, object]:
        """The evaluation columns (``EVALUATION_COLUMNS``) as a dict."""
        return {name: getattr(self, name) for name in EVALUATION_COLUMNS}

    def rule_columns(self, names: list[str]) -> dict[str, object]:
        """Those of the house-rule columns ``names`` (:func:`skatsim.schema.rule_column_names`) that
        describe the deal itself, as a dict: all but a list's ``list_id`` and ``deal_in_list``."""
        return {name: getattr(self, name) for name in names if RULE_COLUMNS[name][2] != "list"}


def _check_deal(deal: tuple[int, ...]) -> tuple[np.ndarray, np.uint32]:
    if len(deal) != 32:
        raise ReplayError(f"deal: expected 32 cards, got {len(deal)}")
    try:
        to_mask(deal)
    except CardError as exc:
        raise ReplayError(f"deal: {exc}") from None
    hands = np.array([to_mask(deal[10 * s : 10 * s + 10]) for s in range(3)], dtype=np.uint32)
    return hands, np.uint32(to_mask(deal[30:]))


def _replay_bidding(record: GameRecord) -> np.ndarray:
    state = np.zeros(bidding.N_FIELDS, dtype=np.int64)
    bidding.new_bidding(state)
    for step, (seat, action) in enumerate(record.bids, start=1):
        err = bidding.bid_step(state, seat, action)
        if err:
            word = {bidding.PASS: "pass", bidding.HOLD: "hold"}.get(action, str(action))
            raise ReplayError(f"bid {step} (seat {seat}: {word}): {bidding.ERRORS[err]}")
    if state[bidding.STAGE] != bidding.DONE and record.game_type is not None:
        raise ReplayError(f"bidding: unfinished after {len(record.bids)} actions, but a game was declared")
    return state


def _declare(
    record: GameRecord, declarer: int, hands: np.ndarray, skat: np.uint32, params: np.ndarray
) -> tuple[int, np.uint32]:
    gt = record.game_type
    assert gt is not None
    flags = record.flags | (0 if record.pickup else HAND)
    err = declaration.declaration_error(gt, flags, record.pickup, params)
    if err:
        raise ReplayError(f"declaration ({GAME_TYPE_LABELS.get(gt, gt)}): {declaration.ERRORS[err]}")
    if record.pickup:
        if not record.discards and _forfeit_before_discarding(record, declarer):
            return declaration.normalise_flags(gt, flags), skat
        if len(record.discards) != 2:
            raise ReplayError(f"discard: expected 2 cards after picking up the skat, got {len(record.discards)}")
        twelve = int(hands[declarer]) | int(skat)
        discard_mask = 0
        for c in record.discards:
            if not twelve >> c & 1 or discard_mask >> c & 1:
                raise ReplayError(f"discard: {iss_name(c)} is not among the declarer's 12 cards")
            discard_mask |= 1 << c
        hands[declarer] = np.uint32(twelve & ~discard_mask)
        return declaration.normalise_flags(gt, flags), np.uint32(discard_mask)
    if record.discards:
        raise ReplayError("discard: a hand game has no discards")
    return declaration.normalise_flags(gt, flags), skat


def _forfeit_before_discarding(record: GameRecord, declarer: int) -> bool:
    """Whether the declarer resigned, timed out or left after declaring and before discarding.

    He then holds all 12 cards: the untouched skat stays his (its points and
    matadors count for him) and the game is lost (ISS game 10330141).
    """
    end = record.end
    return end is not None and end.seat == declarer and end.kind != "claim" and not record.cards


def _replay_cards(record: GameRecord, state: np.ndarray) -> list[Trick]:
    tricks: list[Trick] = []
    for step, c in enumerate(record.cards, start=1):
        seat = play.to_move(state)
        leader = int(state[play.LEADER])
        err = play.play_card(state, c)
        if err:
            raise ReplayError(f"card {step} (seat {seat}: {iss_name(c)}): {play.ERRORS[err]}")
        if state[play.N_IN_TRICK] == 0:
            cards = tuple(record.cards[step - 3 : step])
            tricks.append(
                Trick(leader, cards, int(state[play.LAST_WINNER]), int(card_points(np.uint32(to_mask(cards)))))
            )
    return tricks


def _apply_end(record: GameRecord, state: np.ndarray, declarer: int) -> bool:
    """Apply an early end; returns True when the declarer forfeits the game."""
    end = record.end
    if end is None:
        if not state[play.OVER]:
            raise ReplayError(
                f"cards: the game is not over after {len(record.cards)} cards and no early end is recorded"
            )
        return False
    if end.kind not in END_KINDS:
        raise ReplayError(f"end: unknown kind {end.kind!r}")
    if state[play.OVER]:
        return False
    if end.seat == declarer and end.kind != "claim":
        return True
    if state[play.GT] == NULL:
        state[play.OVER] = 1  # a Null claim or a defenders' resignation: no more tricks for the declarer
    else:
        play.concede_rest(state, declarer)
    return False


def _compulsory_ramsch(record: GameRecord, params: np.ndarray) -> int:
    """Kind of Ramsch played without bidding (a Bock list's Ramsch round, ``ramsch.every_deal``), 0 none."""
    if record.bock < 1 or (record.bock > 1 and not params[BOCK_ENABLED]):
        raise ReplayError(
            f"bock: multiplier {record.bock} (allowed: 1, or a Bock round's multiplier with bock.enabled)"
        )
    if record.ramsch_round:
        if record.ramsch_round != params[BOCK_RAMSCH_ROUND]:
            raise ReplayError(
                f"ramsch_round: this variant has no Ramsch round of kind {record.ramsch_round} "
                "(bock.ramsch_round_after, bock.ramsch_round_kind)"
            )
        return record.ramsch_round
    return int(params[ALL_PASS]) if params[RAMSCH_EVERY_DEAL] else 0


def _no_bidding(record: GameRecord) -> np.ndarray:
    """The bidding state of a compulsory Ramsch: nobody bid."""
    if record.bids:
        raise ReplayError("bids: a compulsory Ramsch (a Bock list's Ramsch round, ramsch.every_deal) is not bid")
    state = np.zeros(bidding.N_FIELDS, dtype=np.int64)
    bidding.new_bidding(state)
    return state


def _grand_hand_instead(record: GameRecord, params: np.ndarray) -> int:
    """The seat that declared Grand hand instead of a Ramsch, checked (``ramsch.grand_hand_instead``)."""
    seat = record.grand_hand_instead
    assert seat is not None
    if not params[RAMSCH_GRAND_HAND]:
        raise ReplayError("grand_hand_instead: this variant has no Grand hand instead of a Ramsch")
    if seat not in (0, 1, 2):
        raise ReplayError(f"grand_hand_instead: seat {seat} (allowed: 0, 1, 2)")
    if record.game_type != GRAND or record.pickup:
        raise ReplayError("grand_hand_instead: the game declared instead of a Ramsch is a Grand hand")
    return seat


def _replay_kontra(record: GameRecord, declarer: int, bid_state: np.ndarray, params: np.ndarray) -> int:
    """Check the doubling calls (RULES.md §6 "Kontra / Re"); returns the level reached."""
    for level, seat in enumerate(record.kontra):
        name = kontra.LEVEL_NAMES[min(level + 1, len(kontra.LEVEL_NAMES) - 1)]
        if seat not in (0, 1, 2):
            raise ReplayError(f"kontra call {level + 1} ({name}): seat {seat} (allowed: 0, 1, 2)")
        err = kontra.call_error(level, seat, declarer, int(bid_state[bidding.BID_BY0 + seat]), params)
        if err:
            raise ReplayError(f"kontra call {level + 1} ({name} by seat {seat}): {kontra.ERRORS[err]}")
    return len(record.kontra)


def _replay_pushes(record: GameRecord, hands: np.ndarray, skat: np.uint32, params: np.ndarray) -> tuple[np.uint32, int]:
    """Walk the Schieberamsch pushes (FH, MH, RH); returns the final skat and the number of pushes."""
    if len(record.pushes) != 3:
        raise ReplayError(f"pushes: a Schieberamsch records FH, MH and RH (3 entries), got {len(record.pushes)}")
    n = 0
    for seat, pair in enumerate(record.pushes):
        if not pair:
            continue
        twelve = int(hands[seat]) | int(skat)
        try:
            pushed = to_mask(pair)
        except CardError as exc:
            raise ReplayError(f"push by seat {seat}: {exc}") from None
        err = ramsch.push_error(np.uint32(twelve), np.uint32(pushed), params)
        if err:
            names = " ".join(iss_name(c) for c in pair)
            raise ReplayError(f"push by seat {seat} ({names}): {ramsch.ERRORS[err]}")
        hands[seat] = np.uint32(twelve & ~pushed)
        skat = np.uint32(pushed)
        n += 1
    return skat, n


def _replay_ramsch(record: GameRecord, kind: int, hands: np.ndarray, skat: np.uint32, params: np.ndarray) -> Evaluation:
    """Replay and score a Ramsch (``kind`` 2: Schieberamsch) (RULES.md §6)."""
    if record.game_type != RAMSCH:
        raise ReplayError("declaration: this deal is a Ramsch (no declarer); only a Grand hand instead may be declared")
    if record.kontra or record.pickup or record.discards or record.flags or record.end is not None:
        raise ReplayError("ramsch: a Ramsch has no pickup, discards, announcements, Kontra or early end")
    factor, schiebe = 1, None
    if kind == 2:
        skat, schiebe = _replay_pushes(record, hands, skat, params)
        factor = ramsch.schiebe_factor(schiebe, 3 - schiebe, params)
    elif record.pushes:
        raise ReplayError("pushes: only a Schieberamsch has pushes")
    state = np.zeros(play.N_FIELDS, dtype=np.int64)
    play.new_play(state, RAMSCH, 0, -1, hands, skat)
    tricks = _replay_cards(record, state)
    if not state[play.OVER]:
        raise ReplayError(f"cards: the Ramsch is not over after {len(record.cards)} cards")
    res = np.zeros(ramsch.N_RESULT, dtype=np.int64)
    ramsch.evaluate_ramsch(state, factor, params, res)
    scores = [int(res[ramsch.SCORE0 + s]) * record.bock for s in range(3)]
    lists = scores if params[LIST_SCORING] else [None] * 3
    return Evaluation(
        game_type=GAME_TYPE_LABELS[RAMSCH],
        score=None,
        score_fh=scores[0],
        score_mh=scores[1],
        score_rh=scores[2],
        tricks=tricks,
        bock=record.bock,
        ramsch_loser=None if res[ramsch.LOSER] < 0 else int(res[ramsch.LOSER]),
        ramsch_points_fh=int(res[ramsch.POINTS_0]),
        ramsch_points_mh=int(res[ramsch.POINTS_0 + 1]),
        ramsch_points_rh=int(res[ramsch.POINTS_0 + 2]),
        jungfrau_count=int(res[ramsch.JUNGFRAU]),
        durchmarsch=bool(res[ramsch.DURCHMARSCH] >= 0),
        schiebe_count=schiebe,
        list_points_fh=lists[0],
        list_points_mh=lists[1],
        list_points_rh=lists[2],
    )


def _replay_declared(
    record: GameRecord,
    declarer: int,
    bid: int,
    bid_state: np.ndarray,
    hands: np.ndarray,
    skat: np.uint32,
    params: np.ndarray,
) -> Evaluation:
    """Replay a declared game: declaration, Kontra/Re, cards, early end, evaluation."""
    assert record.game_type is not None
    if record.pushes:
        raise ReplayError("pushes: only a Schieberamsch has pushes")
    flags, declarer_skat = _declare(record, declarer, hands, skat, params)
    level = _replay_kontra(record, declarer, bid_state, params)
    state = np.zeros(play.N_FIELDS, dtype=np.int64)
    play.new_play(state, record.game_type, flags, declarer, hands, declarer_skat)
    tricks = _replay_cards(record, state)
    forfeit = _apply_end(record, state, declarer)
    result = np.zeros(N_FIELDS, dtype=np.int64)
    evaluate_play(state, bid, forfeit, params, result)
    score = kontra.doubled(int(result[SCORE]), level) * record.bock
    seat_scores = [score if s == declarer else 0 for s in range(3)]
    lists: list[int | None] = [None] * 3
    if params[LIST_SCORING]:
        out = np.zeros(3, dtype=np.int64)
        factor = 1 << level if params[KONTRA_LIST_POINTS] else 1
        list_points(declarer, bool(result[WON]), score, params, out, factor)
        lists = [int(v) for v in out]
    return Evaluation(
        game_type=GAME_TYPE_LABELS[record.game_type],
        declarer=declarer,
        bid=bid,
        hand=bool(flags & HAND),
        ouvert=bool(flags & OUVERT),
        schneider_announced=bool(flags & SCHNEIDER_ANNOUNCED),
        schwarz_announced=bool(flags & SCHWARZ_ANNOUNCED),
        matadors=int(result[MATADORS]),
        declarer_points=int(result[POINTS]),
        declarer_tricks=int(result[TRICKS]),
        schneider=bool(result[SCHNEIDER]),
        schwarz=bool(result[SCHWARZ]),
        overbid=bool(result[OVERBID]),
        won=bool(result[WON]),
        game_value=int(result[VALUE]),
        score=score,
        score_fh=seat_scores[0],
        score_mh=seat_scores[1],
        score_rh=seat_scores[2],
        tricks=tricks,
        kontra_level=level if params[KONTRA_ENABLED] else None,
        bock=record.bock,
        list_points_fh=lists[0],
        list_points_mh=lists[1],
        list_points_rh=lists[2],
    )


def _passed(record: GameRecord, params: np.ndarray) -> Evaluation:
    """A deal all three passed (official: redealt, counted as ``passed``)."""
    zero = 0 if params[LIST_SCORING] else None
    return Evaluation(
        game_type=GAME_TYPE_LABELS[PASSED],
        bock=record.bock,
        list_points_fh=zero,
        list_points_mh=zero,
        list_points_rh=zero,
    )


def replay(record: GameRecord, params: np.ndarray | None = None) -> Evaluation:
    """Replay a record step by step with the rule kernels and evaluate it under ``params``
    (the official rules by default).

    Raises :class:`ReplayError` naming the first step the rules reject.
    """
    params = official_params() if params is None else params
    hands, skat = _check_deal(record.deal)
    kind = _compulsory_ramsch(record, params)
    bid_state = _no_bidding(record) if kind else _replay_bidding(record)
    declarer = int(bid_state[bidding.DECLARER])
    bid = int(bid_state[bidding.BID])
    all_passed = not kind and declarer < 0 and bid_state[bidding.STAGE] == bidding.DONE
    if all_passed:
        kind = int(params[ALL_PASS])
    if record.game_type is None:
        if all_passed and not kind:
            return _passed(record, params)
        if kind:
            raise ReplayError("declaration: this deal is a Ramsch under this variant, but no game is recorded")
        return Evaluation(game_type=GAME_TYPE_LABELS[ABORTED], declarer=None if declarer < 0 else declarer, bid=bid)
    if kind and record.grand_hand_instead is None:
        return _replay_ramsch(record, kind, hands, skat, params)
    if kind:
        declarer, bid = _grand_hand_instead(record, params), 0
    elif record.grand_hand_instead is not None:
        raise ReplayError("grand_hand_instead: a Grand hand is declared instead of a Ramsch only")
    elif declarer < 0:
        raise ReplayError("declaration: all players passed, nobody can declare")
    return _replay_declared(record, declarer, bid, bid_state, hands, skat, params)


def describe(record: GameRecord) -> str:
    """A short human summary of the deal (hands and skat)."""
    lines = [
        f"{name}: {format_cards(record.deal[10 * s : 10 * s + 10], display=True)}"
        for s, name in enumerate(("FH", "MH", "RH"))
    ]
    lines.append(f"skat: {format_cards(record.deal[30:], display=True)}")
    return "\n".join(lines)
