"""What-if rollouts: from a point of a deal, force one decision and let the bots play the rest many times.

A question has three parts:

* a :class:`Start` — the deal: a game of a run (:func:`from_run`), a game record
  (:func:`from_record`), an ISS line (:func:`from_iss`), or a hand with the rest dealt at
  random (:func:`from_hand`);
* the alternatives, one :data:`Decision` each, all at the same point of the deal: a bid
  ceiling (:class:`Ceiling`), hand or pickup (:class:`Pickup`), a game and its
  announcements (:class:`Declare`), a discard (:class:`Discard`) or a card (:class:`Card`);
  the decisions before that point are the record's, every one after it the bots';
* the worlds: ``"fixed"`` (the real cards), ``"uniform"`` (the cards the deciding seat has
  not seen dealt uniformly among the places they can be, voids shown respected) or
  ``"consistent"`` (also only deals on which the other seats' bots bid, and the declarer
  declared, as recorded: rejection sampling; for a hand with the rest random played at a bid
  given, deals on which its seat wins the auction at that bid).

:func:`evaluate` plays every alternative on the same ``samples`` worlds (common random
numbers: the differences between alternatives are measured deal by deal) and returns one
row per rollout and alternative. :func:`plan` makes the picklable :class:`Query` behind it,
whose :meth:`Query.frame` is a pure function of ``(query, first, count)``: a large job can
be cut into chunks run anywhere, and rollout ``i`` is the same whatever the cut.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypedDict, Unpack

import numpy as np

from ..bots import DEFAULT_BOTS, bot_arrays, parse_bots, seam
from ..engine import bidding, layout
from ..engine.cards import iss_name
from ..engine.declaration import ERRORS as DECLARATION_ERRORS
from ..engine.declaration import declaration_error, normalise_flags
from ..engine.flow import new_record
from ..engine.gametypes import GAME_TYPE_LABELS, GAME_TYPE_NAMES, GROUP, GROUP_MASK, NULL, RAMSCH
from ..engine.layout import EMPTY
from ..engine.rules import LIST_SCORING, RAMSCH_EVERY_DEAL
from ..engine.scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED, game_value, matadors
from ..engine.tricks import legal_moves, trick_winner
from ..errors import SkatsimError
from ..threads import in_spans
from ..variant import official_params
from . import kernels as k
from .worlds import (
    MAX_TRIES,
    Knowledge,
    bid_bounds,
    fixed_arrays,
    reached_auction_reach,
    won_auction_bounds,
    world_arrays,
)

if TYPE_CHECKING:  # polars and the records are imported where used: a hand's evaluation needs neither
    import polars as pl

    from ..records.record import GameRecord

Worlds = Literal["fixed", "uniform", "consistent"]
WORLDS: tuple[str, ...] = ("fixed", "uniform", "consistent")
SEATS = ("FH", "MH", "RH")


# --------------------------------------------------------------------------- starts


@dataclass(frozen=True)
class Start:
    """A deal to ask what-if questions about.

    ``hands`` (FH, MH, RH) and ``skat`` are card masks, ``0`` where the cards are unknown (a hand
    with the rest random); ``record`` holds the decisions taken in the deal, if any. A hand with
    the rest random is ``seat``'s and has no record: its declarations are played as if the seat
    won the auction at ``bid`` (``None``: each declaration's own bid value) with both others
    passing; with a ``bid`` given, consistent worlds are the deals on which it does win there (the
    other seats' ceilings below ``bid`` as the tie rule implies, :func:`~skatsim.whatif.worlds.won_auction_bounds`),
    and with ``reached`` too, those on which the others push it to a bid from ``reached`` to ``bid``
    (one of their ceilings reaches that far, :func:`~skatsim.whatif.worlds.reached_auction_reach`).
    ``label`` names the deal in reports.
    """

    hands: tuple[int, int, int]
    skat: int
    record: GameRecord | None = None
    seat: int | None = None
    bid: int | None = None
    label: str = ""
    reached: int | None = None

    @property
    def complete(self) -> bool:
        """Whether every card's place is known (a real deal)."""
        return all(bin(h).count("1") == 10 for h in self.hands) and bin(self.skat).count("1") == 2


def _masks_of(deal: Sequence[int]) -> tuple[tuple[int, int, int], int]:
    hands = tuple(sum(1 << c for c in deal[10 * s : 10 * s + 10]) for s in range(3))
    return hands, sum(1 << c for c in deal[30:32])  # type: ignore[return-value]


def from_record(record: GameRecord, label: str = "") -> Start:
    """A recorded game (simulated, imported or written by hand): its deal and decisions."""
    hands, skat = _masks_of(record.deal)
    return Start(hands, skat, record, label=label)


def from_iss(path: str | os.PathLike[str], line: int | None = None, game_id: int | None = None) -> Start:
    """The game on ``line`` (from 1) of an ISS game-record file, or the one with ``ID[game_id]``."""
    from ..records.importer import find_iss_line

    number, game = find_iss_line(path, line=line, game_id=game_id)
    iss_id = game.result.get("iss_id")
    label = f"{os.fspath(path)} line {number}" + (f" (ISS game {iss_id})" if iss_id is not None else "")
    return from_record(game.record, label)


def from_run(seed: int, game: int, params: np.ndarray | None = None, bots: str = DEFAULT_BOTS) -> Start:
    """Game ``game`` of a run with ``seed``, ``params`` and ``bots`` (as ``skatsim simulate`` plays it):
    the deal and the bots' decisions, simulated again (a game is a pure function of these). In a
    variant that plays lists the list is played from its first deal, so the game keeps its Bock
    multiplier and Ramsch round."""
    from ..engine.block import simulate_block
    from ..engine.rules import LIST_LENGTH, TABLE_PLAYERS
    from ..records.record import record_from_log

    params = official_params() if params is None else params
    kinds, bot_params = bot_arrays(parse_bots(bots, int(params[TABLE_PLAYERS])), params)
    length = int(params[LIST_LENGTH])
    first = game - game % length if length else game
    count = game - first + 1
    rows = np.zeros((count, layout.N_COLUMNS), dtype=np.int64)
    logs = np.zeros((count, layout.LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(seed), first, kinds, bot_params, params, rows, logs)
    return from_record(record_from_log(rows[-1], logs[-1]), f"seed {seed} game {game}")


def from_hand(
    cards: Sequence[int], seat: int = 0, skat: Sequence[int] = (), bid: int | None = None, reached: int | None = None
) -> Start:
    """Ten cards at ``seat`` (0 FH, 1 MH, 2 RH), the other 22 unknown (the skat's two fixed when
    given): what :func:`skatsim.whatif.hand.evaluate_hand` rolls out. ``bid``: the seat won the
    auction there (consistent worlds: the deals on which its bot, bidding up to ``bid``, would win it);
    ``reached`` (at most ``bid``): and the others pushed the auction to at least that bid."""
    if reached is not None and (bid is None or reached > bid):
        raise SkatsimError("what-if: reached needs a bid at least as high (the auction reached it, won at the bid)")
    hands = [0, 0, 0]
    hands[seat] = sum(1 << c for c in cards)
    return Start((hands[0], hands[1], hands[2]), sum(1 << c for c in skat), None, seat, bid, "hand", reached)


# --------------------------------------------------------------------------- decisions


@dataclass(frozen=True)
class Ceiling:
    """``seat`` bids (and holds) up to ``value`` (0: passes at once; ``None``: as its bot likes), from
    the start of the auction; everything after is the bots'."""

    seat: int
    value: int | None


@dataclass(frozen=True)
class Pickup:
    """The declarer plays hand (``hand=True``) or picks up the skat (``None``: as his bot likes); his
    bot discards and declares."""

    hand: bool | None


@dataclass(frozen=True)
class Declare:
    """The declarer plays ``game`` (a game-type code) with ``flags`` (``HAND`` for a hand game, and
    the announcements); with the skat, his bot discards for that game. ``game=None``: his bot
    decides hand or pickup, discards and game. ``bid``: for a hand with the rest random, the bid
    the seat won the auction at (default: the declaration's bid value)."""

    game: int | None
    flags: int = 0
    bid: int | None = None


@dataclass(frozen=True)
class Discard:
    """The declarer, having picked up the skat, puts ``cards`` away (``None``: as his bot likes); his
    bot declares for them."""

    cards: tuple[int, int] | None


@dataclass(frozen=True)
class Card:
    """The ``index``-th card of the play (from 0) is ``card`` (``None``: as the bot likes)."""

    index: int
    card: int | None


Decision = Ceiling | Pickup | Declare | Discard | Card


def declaration_label(game: int, flags: int) -> str:
    """``clubs``, ``grand hand``, ``null ouvert hand``, ``spades hand schneider``, ..."""
    flags = normalise_flags(game, flags)
    words = [GAME_TYPE_LABELS[game]]
    if flags & HAND:
        words.append("hand")
    if flags & OUVERT:
        words.append("ouvert")
    elif flags & SCHWARZ_ANNOUNCED:
        words.append("schwarz")
    elif flags & SCHNEIDER_ANNOUNCED:
        words.append("schneider")
    return " ".join(words)


def label(decision: Decision) -> str:
    """A short name of a decision for tables."""
    if isinstance(decision, Ceiling):
        if decision.value is None:
            return f"{SEATS[decision.seat]} bids as its bot likes"
        return (
            f"{SEATS[decision.seat]} passes"
            if decision.value == 0
            else f"{SEATS[decision.seat]} bids to {decision.value}"
        )
    if isinstance(decision, Pickup):
        return "bots decide" if decision.hand is None else ("hand" if decision.hand else "pick up")
    if isinstance(decision, Declare):
        return "bots' declaration" if decision.game is None else declaration_label(decision.game, decision.flags)
    if isinstance(decision, Discard):
        return "bots' discard" if decision.cards is None else "discard " + " ".join(iss_name(c) for c in decision.cards)
    return f"card {decision.index + 1}: " + ("bots' card" if decision.card is None else iss_name(decision.card))


def bid_value(game: int, flags: int, cards: int) -> int:
    """The value a hand is bid on before the skat is seen: the declaration's game value counted from
    the ten ``cards`` (matadors, hand, announcements; Null's fixed value), Schneider and Schwarz
    only as announced (the engine's :func:`~skatsim.engine.scoring.game_value`)."""
    flags = normalise_flags(game, flags)
    mat = 0 if game in (NULL, RAMSCH) else int(matadors(game, np.uint32(cards)))
    return int(game_value(game, flags, mat, False, False))


# --------------------------------------------------------------------------- the deal as replayed


@dataclass(frozen=True)
class _Played:
    """A recorded game as the rules made it: its action record, declarer, game and the seat of each card."""

    log: np.ndarray
    declarer: int
    game_type: int
    flags: int
    picked_up: bool
    bid: int
    discards: int
    card_seats: tuple[int, ...]
    next_seat: int  # the seat to play the card after the recorded ones


def _replayed(record: GameRecord, params: np.ndarray) -> _Played:
    from ..records.record import ReplayError, action_record, replay_error, replay_rows

    try:
        rows, _, errors = replay_rows([record], params)
    except ReplayError as exc:
        raise SkatsimError(f"what-if: the game cannot be replayed: {exc}") from None
    if errors[0, 0]:
        raise SkatsimError(f"what-if: the game cannot be replayed: {replay_error(errors[0], record)}")
    _, log = action_record(record, params)
    row = rows[0]
    gt = int(row[layout.COL_GAME_TYPE])
    seats = []
    leader = 0
    cards = record.cards
    for t in range(0, len(cards), 3):
        trick = cards[t : t + 3]
        seats += [(leader + p) % 3 for p in range(len(trick))]
        if len(trick) == 3 and gt >= 0:
            leader = (leader + int(trick_winner(gt, *trick))) % 3
    next_seat = (leader + len(cards) % 3) % 3
    return _Played(
        log=log,
        declarer=int(row[layout.COL_DECLARER]),
        game_type=gt,
        flags=record.flags | (0 if record.pickup else HAND),
        picked_up=record.pickup,
        bid=_final_bid(record),
        discards=sum(1 << c for c in record.discards),
        card_seats=tuple(seats),
        next_seat=next_seat,
    )


def _final_bid(record: GameRecord) -> int:
    state = np.zeros(bidding.N_FIELDS, dtype=np.int64)
    bidding.new_bidding(state)
    for seat, action in record.bids:
        if bidding.bid_step(state, seat, action):
            break
    return int(state[bidding.BID])


# --------------------------------------------------------------------------- templates and knowledge


def _blank(log: np.ndarray, keep_bids: bool) -> np.ndarray:
    """The record's action record with every decision EMPTY (the bids kept with ``keep_bids``)."""
    out = log.copy()
    out[layout.LOG_CARDS : layout.LOG_CARDS + 30] = EMPTY
    if not keep_bids:
        out[layout.LOG_N_BIDS] = 0
        out[layout.LOG_BIDS : layout.LOG_KONTRA] = EMPTY
    out[layout.LOG_KONTRA : layout.LOG_KONTRA + layout.N_KONTRA_SLOTS] = EMPTY
    out[layout.LOG_PUSH : layout.LOG_PUSH + 6] = EMPTY
    out[layout.LOG_INSTEAD : layout.LOG_END + 1] = EMPTY  # Grand instead, pickup, discards, game, flags, end
    out[layout.LOG_KIND] = 0
    return out


def _auction_won(seat: int, bid: int) -> list[tuple[int, int]]:
    """Bids that make ``seat`` the declarer at ``bid`` with both others passing without a bid."""
    if seat == 0:
        return [(1, bidding.PASS), (2, bidding.PASS), (0, bid)]
    if seat == 1:
        return [(1, bid), (0, bidding.PASS), (2, bidding.PASS)]
    return [(1, bidding.PASS), (2, bid), (0, bidding.PASS)]


def _empty_log() -> np.ndarray:
    """A new empty action record (:func:`skatsim.engine.flow.new_record`): every decision still to be asked."""
    log = np.empty(layout.LOG_WIDTH, dtype=np.int16)
    new_record(log)
    return log


def _synthetic_log(seat: int, bid: int) -> np.ndarray:
    log = _empty_log()
    log[layout.LOG_N_BIDS] = 3
    for n, (s, action) in enumerate(_auction_won(seat, bid)):
        log[layout.LOG_BIDS + n] = s * 1024 + action + 1
    return log


def _point(decision: Decision) -> tuple[str, int]:
    if isinstance(decision, Ceiling):
        return "auction", 0
    if isinstance(decision, Card):
        return "card", decision.index
    if isinstance(decision, Discard):
        return "discard", 0
    return "declaration", 0  # Pickup and Declare: before the declarer sees the skat


@dataclass
class _Built:
    templates: list[np.ndarray] = field(default_factory=list)
    ceilings: list[list[int]] = field(default_factory=list)
    deciders: list[int] = field(default_factory=list)


def _check_declaration(game: int, flags: int, params: np.ndarray) -> None:
    if game not in range(len(GAME_TYPE_NAMES)) or game == RAMSCH:
        raise SkatsimError(f"what-if: {game} is not a game a declarer can choose")
    err = int(declaration_error(game, flags, not flags & HAND, params))
    if err:
        raise SkatsimError(f"what-if: {declaration_label(game, flags)}: {DECLARATION_ERRORS[err]}")


def _hand_templates(start: Start, decisions: Sequence[Decision], params: np.ndarray) -> _Built:
    """Templates for a hand with the rest random: the seat wins the auction (others pass)."""
    assert start.seat is not None
    seat = start.seat
    cards = start.hands[seat]
    built = _Built()
    for d in decisions:
        ceilings = [-1, -1, -1]
        if isinstance(d, Ceiling):
            if d.seat != seat:
                raise SkatsimError(f"what-if: only the hand's seat ({SEATS[seat]}) decides, not {SEATS[d.seat]}")
            log = _empty_log()
            if d.value is not None:
                ceilings[seat] = d.value
        elif isinstance(d, Declare | Pickup | Discard):
            if isinstance(d, Declare) and d.game is not None:
                _check_declaration(d.game, d.flags, params)
                # the highest bid the value covers (a reversed game's 220 is no bid value: 198 is)
                covered = max(18, bid_value(d.game, d.flags, cards))
                default = max(int(v) for v in bidding.BID_VALUES if v <= covered)
            else:
                default = bidding.BID_VALUES[0]
            bid = (d.bid if isinstance(d, Declare) else None) or start.bid or default
            if not bidding.is_bid_value(bid):
                raise SkatsimError(f"what-if: {bid} is not a bid value (18, 20, 22, 23, 24, 27, ... 264)")
            log = _synthetic_log(seat, int(bid))
            _force(log, d, start.hands[seat] | start.skat, params)
        else:
            raise SkatsimError("what-if: a hand with the rest random has no cards played to force one after")
        built.templates.append(log)
        built.ceilings.append(ceilings)
        built.deciders.append(seat)
    return built


def _force(log: np.ndarray, d: Decision, twelve: int, params: np.ndarray) -> None:
    """Write a declarer's decision (pickup, declaration, discard) into a template."""
    if isinstance(d, Pickup):
        if d.hand is not None:
            log[layout.LOG_PICKUP] = 0 if d.hand else 1
    elif isinstance(d, Declare):
        if d.game is not None:
            _check_declaration(d.game, d.flags, params)
            log[layout.LOG_PICKUP] = 0 if d.flags & HAND else 1
            log[layout.LOG_GAME] = d.game
            log[layout.LOG_FLAGS] = d.flags
    elif isinstance(d, Discard):
        log[layout.LOG_PICKUP] = 1
        if d.cards is not None:
            a, b = sorted(d.cards)
            if a == b or not (twelve >> a & 1 and twelve >> b & 1):
                names = " ".join(iss_name(c) for c in d.cards)
                raise SkatsimError(f"what-if: discard {names}: two different cards of the declarer's twelve")
            log[layout.LOG_DISCARD], log[layout.LOG_DISCARD + 1] = a, b


def _record_templates(start: Start, decisions: Sequence[Decision], params: np.ndarray, played: _Played) -> _Built:
    record = start.record
    assert record is not None
    built = _Built()
    for d in decisions:
        ceilings = [-1, -1, -1]
        kind, n = _point(d)
        if kind == "auction":
            assert isinstance(d, Ceiling)
            log = _blank(played.log, keep_bids=False)
            if d.value is not None:
                ceilings[d.seat] = d.value
            decider = d.seat
        elif kind in ("declaration", "discard"):
            if played.declarer < 0 or played.game_type == RAMSCH or record.grand_hand_instead is not None:
                raise SkatsimError("what-if: nobody won the auction in this deal: there is no declaration to change")
            log = _blank(played.log, keep_bids=True)
            decider = played.declarer
            if isinstance(d, Discard) and not record.pickup and d.cards is not None:
                pass  # forcing a discard means picking up, whatever the record did
            _force(log, d, start.hands[decider] | start.skat, params)
        else:
            assert isinstance(d, Card)
            log = played.log.copy()
            if n > len(record.cards):
                raise SkatsimError(f"what-if: card {n + 1}: the game has only {len(record.cards)} cards recorded")
            log[layout.LOG_CARDS + n : layout.LOG_CARDS + 30] = EMPTY
            log[layout.LOG_END] = EMPTY
            decider = played.card_seats[n] if n < len(played.card_seats) else played.next_seat
            if d.card is not None:
                _check_card(start, played, n, decider, d.card)
                log[layout.LOG_CARDS + n] = d.card
        built.templates.append(log)
        built.ceilings.append(ceilings)
        built.deciders.append(decider)
    return built


def _held_at(start: Start, played: _Played, seat: int, n: int) -> int:
    """The cards ``seat`` holds before card ``n`` in the real deal."""
    hand = start.hands[seat]
    if seat == played.declarer and played.picked_up:
        hand = (hand | start.skat) & ~played.discards
    record = start.record
    assert record is not None
    for c, s in zip(record.cards[:n], played.card_seats, strict=False):
        if s == seat:
            hand &= ~(1 << c)
    return hand


def _check_card(start: Start, played: _Played, n: int, seat: int, c: int) -> None:
    record = start.record
    assert record is not None
    hand = _held_at(start, played, seat, n)
    led = record.cards[n - n % 3] if n % 3 else -1
    legal = int(legal_moves(played.game_type, np.uint32(hand), led))
    if not legal >> c & 1:
        names = " ".join(iss_name(x) for x in range(32) if legal >> x & 1)
        raise SkatsimError(f"what-if: card {n + 1}: {iss_name(c)} is not a legal card for {SEATS[seat]} ({names})")


def _voids(gt: int, cards: Sequence[int], seats: Sequence[int]) -> list[int]:
    """Per seat, the cards of the groups it has shown void in (a card of another group on a led one)."""
    barred = [0, 0, 0]
    for t in range(0, len(cards), 3):
        trick = cards[t : t + 3]
        group = int(GROUP[gt, trick[0]])
        for p in range(1, len(trick)):
            if int(GROUP[gt, trick[p]]) != group:
                barred[seats[t + p]] |= int(GROUP_MASK[gt, group])
    return barred


def _won_bid(start: Start, decisions: Sequence[Decision]) -> int | None:
    """The bid a hand with the rest random won the auction at, when its decisions are played at a bid
    given (``from_hand(..., bid=...)`` or ``Declare(..., bid=...)``, one for all): what its consistent
    worlds condition on. ``None`` when no bid is given (each declaration at its own bid value)."""
    bids = {
        None if isinstance(d, Ceiling) else ((d.bid if isinstance(d, Declare) else None) or start.bid)
        for d in decisions
    }
    if bids == {None}:
        return None
    if len(bids) > 1:
        raise SkatsimError(
            "what-if: consistent worlds for a hand with the rest random are those in which it won the auction "
            "at the bid given: play every decision at one bid (a Ceiling is decided before the auction)"
        )
    return bids.pop()


def _knowledge(
    start: Start, decisions: Sequence[Decision], played: _Played | None, decider: int, consistent: bool = False
) -> Knowledge:
    """What ``decider`` knows at the (common) point of ``decisions`` (with ``consistent``, for a hand with
    the rest random played at a bid given: that it won the auction there)."""
    others = [s for s in range(3) if s != decider]
    if played is None:  # a hand with the rest random: the hand and a given skat (and the auction it won)
        known_skat = start.skat
        bid = _won_bid(start, decisions) if consistent else None
        return Knowledge(
            decider,
            start.hands,
            known_skat,
            others[0],
            others[1],
            (10, 10, 2 - bin(known_skat).count("1")),
            bounds=(None, None, None) if bid is None else tuple(won_auction_bounds(decider, bid)),
            reach=(0, 0, 0) if bid is None or start.reached is None else reached_auction_reach(decider, start.reached),
        )
    record = start.record
    assert record is not None
    kind, n = _point(decisions[0])
    hands = [0, 0, 0]
    hands[decider] = start.hands[decider]
    bounds = bid_bounds(record.bids) if kind != "auction" else [None, None, None]
    if kind == "auction":
        return Knowledge(decider, tuple(hands), 0, others[0], others[1], (10, 10, 2))  # type: ignore[arg-type]
    if kind in ("declaration", "discard"):
        sees_skat = kind == "discard" or (
            record.pickup
            and all(isinstance(d, Declare) and d.game is not None and not d.flags & HAND for d in decisions)
        )
        skat = start.skat if sees_skat else 0
        return Knowledge(
            decider,
            (hands[0], hands[1], hands[2]),
            skat,
            others[0],
            others[1],
            (10, 10, 0 if sees_skat else 2),
            bounds=tuple(bounds),
        )
    # a card: the cards played so far are seen, voids shown bar suits, an open hand is seen
    gt = played.game_type
    if record.pushes and any(record.pushes):
        raise SkatsimError("what-if: drawing worlds after Schieberamsch pushes is not supported; use the real cards")
    seats = played.card_seats
    cards = record.cards[:n]
    declarer = played.declarer
    pool = -1
    skat = 0
    holes_s = 2
    if decider == declarer and played.picked_up:
        skat = start.skat  # he saw the skat and knows his discards
        holes_s = 0
    elif declarer >= 0 and played.picked_up:
        pool = declarer  # his twelve cards: the final ten and the two discards he knows alone
    for c, s in zip(cards, seats, strict=False):
        if s != decider:
            hands[s] |= 1 << c
    declaration = None
    if declarer >= 0 and declarer != decider:
        if played.flags & OUVERT:
            final = start.hands[declarer]
            if played.picked_up:
                final = (final | start.skat) & ~played.discards
            hands[declarer] |= final
        if record.grand_hand_instead is None:
            declaration = (declarer, int(played.picked_up), gt, int(bool(played.flags & OUVERT)), played.bid)
    barred = _voids(gt, cards, seats) if cards else [0, 0, 0]
    barred[decider] = 0
    if pool >= 0 and others[0] != pool:
        others.reverse()  # the pool is bin A
    holes = [10 - bin(hands[s]).count("1") for s in others]
    return Knowledge(
        decider,
        tuple(hands),  # type: ignore[arg-type]
        skat,
        others[0],
        others[1],
        (holes[0], holes[1], holes_s),
        barred=tuple(barred),  # type: ignore[arg-type]
        pool=pool,
        bounds=tuple(bounds),
        declaration=declaration,
        game_type=gt,
    )


# --------------------------------------------------------------------------- the query


def _available_memory() -> int | None:
    """Bytes of memory this machine can give a process now (Linux: MemAvailable; else the physical
    memory), ``None`` where it cannot tell."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def _check_memory(count: int, need: int) -> None:
    """Refuse ``count`` rollouts whose rows (``need`` bytes) exceed the memory available, in one line,
    before allocating them (an absurd ``--samples`` would otherwise end in a traceback or the OOM killer)."""
    available = _available_memory()
    if available is not None and need > available:
        raise SkatsimError(
            f"--samples {count:,}: the rollouts' rows need {need / 2**30:,.1f} GiB of memory, "
            f"{available / 2**30:,.1f} GiB are available; use fewer samples"
        )


@dataclass(frozen=True)
class Query:
    """Everything the kernel needs to play a what-if's rollouts: picklable arrays and numbers only.

    :meth:`block` and :meth:`frame` are pure functions of the query and the rollout range, so a
    large job can be cut into chunks (``first``, ``count``) and run anywhere (the project's
    runner: one chunk per file).
    """

    seed: int
    params: np.ndarray
    kinds: np.ndarray
    bots: np.ndarray
    spec: np.ndarray
    order: np.ndarray
    allowed: np.ndarray
    ways: np.ndarray
    templates: np.ndarray
    ceilings: np.ndarray
    labels: tuple[str, ...]
    decider: int
    worlds: str
    bot_settings: tuple[str, ...]
    n_samples: int = 0

    def block(
        self, first: int, count: int, jobs: int = 1, missing_ok: bool = False
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rollouts ``first .. first + count - 1``: engine rows ``(count, K, layout.N_COLUMNS)``, error codes
        ``(count, K)`` and worlds drawn ``(count,)``, on ``jobs`` threads (the kernel releases the GIL;
        the numbers do not depend on ``jobs``). ``missing_ok``: a rollout that found no consistent world
        within the query's tries is returned (worlds drawn 0, errors ``NO_WORLD``) instead of raising."""
        n_options = self.templates.shape[0]
        _check_memory(count, count * (n_options * (layout.N_COLUMNS + 1) + 1) * 8)
        try:
            rows = np.zeros((count, n_options, layout.N_COLUMNS), dtype=np.int64)
            errors = np.zeros((count, n_options), dtype=np.int64)
            tries = np.zeros(count, dtype=np.int64)
        except MemoryError:
            raise SkatsimError(f"--samples {count:,}: not enough memory for the rollouts; use fewer samples") from None

        def part(lo: int, hi: int) -> None:
            k.rollout_block(
                np.uint64(self.seed),
                first + lo,
                self.params,
                self.kinds,
                self.bots,
                (self.spec, self.order, self.allowed, self.ways),
                self.templates,
                self.ceilings,
                rows[lo:hi],
                errors[lo:hi],
                tries[lo:hi],
            )

        in_spans(count, jobs, part, "skatsim-rollouts")
        self._check(errors, tries, first, missing_ok)
        return rows, errors, tries

    def _check(self, errors: np.ndarray, tries: np.ndarray, first: int, missing_ok: bool = False) -> None:
        if np.any(tries == 0) and not missing_ok:
            i = int(np.argmax(tries == 0))
            raise SkatsimError(
                f"what-if: no deal consistent with what {SEATS[self.decider]} knows found in "
                f"{int(self.spec[k.SP_MAX_TRIES]):,} draws (rollout {first + i}): the bots would not have bid "
                "and declared like this; use --worlds uniform"
            )
        bad = np.argwhere(errors > 0)
        if len(bad):
            i, option = (int(x) for x in bad[0])
            code = int(errors[i, option])
            raise SkatsimError(
                f"what-if: {self.labels[option]}: the rules refused a decision in rollout {first + i} "
                f"(phase {code // 100}, code {code % 100})"
            )

    def frame(self, first: int = 0, count: int | None = None, jobs: int = 1) -> pl.DataFrame:
        """One row per rollout and alternative: ``option`` (index), ``decision`` (its label),
        ``rollout``, ``tries`` (worlds drawn until one was kept), ``decider_score`` (the deciding
        seat's score for the deal under the variant: its list points under tournament scoring),
        then the result columns of a run's table (``docs/schema.md``) and the variant's house-rule
        columns."""
        import polars as pl

        from ..frames import result_frame

        count = self.n_samples if count is None else count
        rows, _, tries = self.block(first, count, jobs)
        n_options = self.templates.shape[0]
        flat = rows.reshape(count * n_options, layout.N_COLUMNS)
        typed = result_frame(flat, self.params)
        column = layout.COL_LIST_POINTS_FH if self.params[LIST_SCORING] else layout.COL_SCORE_FH
        labels = pl.Enum(list(dict.fromkeys(self.labels)))
        head = pl.DataFrame(
            {
                "option": np.tile(np.arange(n_options, dtype=np.int32), count),
                "decision": pl.Series([self.labels[i] for i in range(n_options)] * count, dtype=labels),
                "rollout": np.repeat(np.arange(first, first + count, dtype=np.int64), n_options),
                "tries": np.repeat(tries.astype(np.int32), n_options),
                "decider_score": flat[:, column + self.decider].astype(np.int32),
            }
        )
        return pl.concat([head, typed], how="horizontal")


def plan(
    start: Start,
    decisions: Sequence[Decision],
    params: np.ndarray | None = None,
    bots: str = DEFAULT_BOTS,
    samples: int = 1000,
    seed: int = 1,
    worlds: Worlds = "consistent",
    max_tries: int = MAX_TRIES,
) -> Query:
    """The :class:`Query` of a what-if: ``decisions`` (alternatives at one point of ``start``'s deal)
    each played out ``samples`` times by the ``bots`` (one setting, or three as FH,MH,RH) under the
    variant ``params`` (official rules by default), on worlds drawn as ``worlds`` says."""
    params = official_params() if params is None else np.asarray(params, dtype=np.int64)
    if not decisions:
        raise SkatsimError("what-if: no decision to try")
    if worlds not in WORLDS:
        raise SkatsimError(f"what-if: worlds must be one of {', '.join(WORLDS)}, got {worlds!r}")
    if samples < 1:
        raise SkatsimError(f"what-if: samples must be at least 1, got {samples}")
    if params[RAMSCH_EVERY_DEAL] and any(not isinstance(d, Card) for d in decisions):
        raise SkatsimError("what-if: this variant plays every deal as a Ramsch: nothing is bid or declared")
    settings = parse_bots(bots)
    kinds, bot_params = bot_arrays(settings, params)
    if seam.searches(kinds):
        raise SkatsimError(
            f"what-if: --bots {bots!r}: rollouts cannot seat the pimc bot (it plays about two games a second, "
            "a what-if plays thousands); use heuristic or random"
        )
    prepared = seam.prepare(kinds, bot_params, params)
    if start.record is None:
        if start.seat is None:
            raise SkatsimError("what-if: a start needs a game record or a hand's seat")
        built = _hand_templates(start, decisions, params)
        played = None
        decider = start.seat
    else:
        played = _replayed(start.record, params)
        points = {_point(d) for d in decisions}
        if len(points) > 1:
            raise SkatsimError("what-if: the decisions compared must be taken at the same point of the deal")
        built = _record_templates(start, decisions, params, played)
        decider = built.deciders[0]
    if worlds == "fixed":
        if not start.complete:
            raise SkatsimError("what-if: the real cards are unknown here (a hand with the rest random): draw worlds")
        spec, order, allowed, ways = fixed_arrays(start.hands, start.skat)
    else:
        spec, order, allowed, ways = world_arrays(
            _knowledge(start, decisions, played, decider, worlds == "consistent"), worlds == "consistent", max_tries
        )
    return Query(
        seed=int(seed),
        params=params,
        kinds=kinds,
        bots=prepared,
        spec=spec,
        order=order,
        allowed=allowed,
        ways=ways,
        templates=np.stack(built.templates).astype(np.int16),
        ceilings=np.array(built.ceilings, dtype=np.int64),
        labels=tuple(label(d) for d in decisions),
        decider=decider,
        worlds=worlds,
        bot_settings=settings,
        n_samples=int(samples),
    )


class RolloutOptions(TypedDict, total=False):
    """How the alternatives of a what-if are played out: :func:`plan`'s arguments after ``params``
    (their defaults are :func:`plan`'s), taken by :func:`evaluate` as keywords."""

    bots: str
    samples: int
    seed: int
    worlds: Worlds
    max_tries: int


def evaluate(
    start: Start,
    decisions: Sequence[Decision],
    params: np.ndarray | None = None,
    *,
    jobs: int | None = None,
    **options: Unpack[RolloutOptions],
) -> pl.DataFrame:
    """Play every decision of ``decisions`` out ``samples`` times on the same worlds (the what-if of
    :func:`plan`, whose arguments these are: ``bots``, ``samples``, ``seed``, ``worlds`` and
    ``max_tries`` as keywords); one row per rollout and decision (:meth:`Query.frame`). ``jobs``
    threads (default: every CPU) share the work; rollout ``i`` depends only on ``(seed, i)``, never
    on ``jobs``."""
    query = plan(start, decisions, params, **options)
    return query.frame(0, query.n_samples, jobs or os.cpu_count() or 1)


def summary(frame: pl.DataFrame, level: float = 0.95) -> pl.DataFrame:
    """Per decision of an :func:`evaluate` frame: rollouts, the declarer's win rate (Wilson interval)
    where a game was played, and the deciding seat's mean score (CLT interval)."""
    import polars as pl

    from ..analysis.intervals import clt_interval, wilson

    out = []
    for (option, decision), part in frame.group_by(["option", "decision"], maintain_order=True):
        won = part["won"].drop_nulls()
        rate, lo, hi = wilson(int(won.sum()), won.len(), level) if won.len() else (math.nan,) * 3
        scores = part["decider_score"].cast(pl.Float64)
        mean, sd = float(scores.mean()), float(scores.std() or 0.0)  # type: ignore[arg-type]
        slo, shi = clt_interval(mean, sd, part.height, level)
        out.append(
            {
                "option": option,
                "decision": str(decision),
                "rollouts": part.height,
                "win_rate": rate,
                "win_lo": lo,
                "win_hi": hi,
                "score": mean,
                "score_lo": slo,
                "score_hi": shi,
            }
        )
    return pl.DataFrame(out)
