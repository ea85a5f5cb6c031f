"""Game records: a complete, serialisable description of one game, and its replay.

A :class:`GameRecord` holds what happened at the table: the deal, every
bidding action, pickup or hand, the discards, the declaration, the cards in
the order played and an early end if there was one. :func:`replay` walks the
record through the same compiled kernels the simulator uses
(:mod:`skatsim.bidding`, :mod:`skatsim.declaration`, :mod:`skatsim.play`,
:mod:`skatsim.evaluation`), checking every step, and returns the evaluation.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

import numpy as np

from . import bidding, declaration, play
from .cards import CardError, format_cards, iss_name, parse_card, to_mask
from .evaluation import (
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
from .gametypes import ABORTED, GAME_TYPE_LABELS, NULL, PASSED, game_type_code
from .rules import official_params
from .scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from .tricks import card_points

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
    """

    deal: tuple[int, ...]
    bids: tuple[tuple[int, int], ...] = ()
    pickup: bool = False
    discards: tuple[int, ...] = ()
    game_type: int | None = None
    flags: int = 0
    cards: tuple[int, ...] = ()
    end: EarlyEnd | None = None

    def to_json(self) -> str:
        """Serialise with cards in ISS notation."""
        data = asdict(self)
        data["deal"] = [iss_name(c) for c in self.deal]
        data["discards"] = [iss_name(c) for c in self.discards]
        data["cards"] = [iss_name(c) for c in self.cards]
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
    """The evaluation columns of one game (see ``docs/schema.md``)."""

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
    score: int = 0
    score_fh: int = 0
    score_mh: int = 0
    score_rh: int = 0
    tricks: list[Trick] = field(default_factory=list, repr=False)

    def columns(self) -> dict[str, object]:
        """The evaluation columns as a dict (tricks excluded)."""
        row = asdict(self)
        del row["tricks"]
        return row


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


def replay(record: GameRecord, params: np.ndarray | None = None) -> Evaluation:
    """Replay a record step by step with the rule kernels and evaluate it.

    Raises :class:`ReplayError` naming the first step the rules reject.
    """
    params = official_params() if params is None else params
    hands, skat = _check_deal(record.deal)
    bid_state = _replay_bidding(record)
    declarer = int(bid_state[bidding.DECLARER])
    bid = int(bid_state[bidding.BID])
    if record.game_type is None:
        if declarer < 0 and bid_state[bidding.STAGE] == bidding.DONE:
            return Evaluation(game_type=GAME_TYPE_LABELS[PASSED])
        return Evaluation(game_type=GAME_TYPE_LABELS[ABORTED], declarer=None if declarer < 0 else declarer, bid=bid)
    if declarer < 0:
        raise ReplayError("declaration: all players passed, nobody can declare")
    flags, declarer_skat = _declare(record, declarer, hands, skat, params)
    state = np.zeros(play.N_FIELDS, dtype=np.int64)
    play.new_play(state, record.game_type, flags, declarer, hands, declarer_skat)
    tricks = _replay_cards(record, state)
    forfeit = _apply_end(record, state, declarer)
    result = np.zeros(N_FIELDS, dtype=np.int64)
    evaluate_play(state, bid, forfeit, params, result)
    score = int(result[SCORE])
    seat_scores = [score if s == declarer else 0 for s in range(3)]
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
    )


def describe(record: GameRecord) -> str:
    """A short human summary of the deal (hands and skat)."""
    lines = [
        f"{name}: {format_cards(record.deal[10 * s : 10 * s + 10], display=True)}"
        for s, name in enumerate(("FH", "MH", "RH"))
    ]
    lines.append(f"skat: {format_cards(record.deal[30:], display=True)}")
    return "\n".join(lines)
