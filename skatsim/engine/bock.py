"""Bock rounds: events that queue rounds of doubled scores, and the queue a list carries (RULES.md §6).

An event (variant key ``bock.events``, bits ``BOCK_EVENTS``) in a deal queues
one Bock round: one deal per player (``TABLE_PLAYERS``: three, or four at a
four-player table), in which every score counts ``BOCK_MULTIPLIER`` times. A
deal queues one round however many events it shows, or one per event with
``BOCK_PER_EVENT`` (``bock.rounds_per_deal: per_event``, xskat), related events
counted once (:func:`deal_events`). Rounds queued while a round runs are played
after it, in order ("stacked"); with ``BOCK_RAMSCH_ROUND`` every Bock round is
followed by a round of compulsory Ramsch deals, one per player (played before
the next Bock round queued); with ``BOCK_RAMSCH_ROUND_GRAND`` a Grand hand
declared instead of such a Ramsch is not counted off the round (the list kernel
lets the same dealer deal again). With ``BOCK_TRIGGER_DOUBLE`` the deal that
queues a round counts with the multiplier itself (once, also inside a Bock
round: multipliers never compound).

The queue is a small ``int64`` array carried from deal to deal by the list
kernel (:func:`skatsim.engine.lists.play_list`); its fields are below.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from .gametypes import GRAND, NULL, RAMSCH
from .rules import (
    BOCK_EVENTS,
    BOCK_MULTIPLIER,
    BOCK_RAMSCH_ROUND,
    BOCK_TRIGGER_DOUBLE,
    BOCK_ZERO_TOTAL,
    TABLE_PLAYERS,
    BockBit,
)
from .scoring import HAND, OUVERT

# Fields of the queue array.
ROUND = 0  # the round running: NONE, BOCK or RAMSCH_ROUND
LEFT = 1  # deals left in it
PENDING = 2  # Bock rounds queued behind it
N_FIELDS = 3
NONE, BOCK, RAMSCH_ROUND = 0, 1, 2

#: Bits of the running-total events, checked by the list kernel once the deal is scored (:func:`total_event`).
TOTAL_100 = BockBit.TOTAL_MULTIPLE_100
TOTAL_NNN = BockBit.TOTAL_THREE_EQUAL_DIGITS


@kernel
def new_queue(queue: np.ndarray) -> None:
    """No round running, none queued (the start of a list)."""
    queue[ROUND] = NONE
    queue[LEFT] = 0
    queue[PENDING] = 0


@kernel
def ramsch_round(queue: np.ndarray, params: np.ndarray) -> int:
    """Kind of compulsory Ramsch the next deal is (``BOCK_RAMSCH_ROUND`` code), 0 when none."""
    return params[BOCK_RAMSCH_ROUND] if queue[ROUND] == RAMSCH_ROUND else 0


@kernel
def deal_events(
    params: np.ndarray,
    all_passed: bool,
    gt: int,
    flags: int,
    won: bool,
    declarer_points: int,
    value: int,
    level: int,
    durchmarsch: int = 0,
) -> int:
    """How many of the variant's Bock events a deal shows (all but the running-total ones), related
    events counted once: Kontra and Re with a game lost after Kontra (xskat: "a Kontra where the
    Soloist said Re but lost counts as one event"), a lost Grand with a lost Grand hand, a won game
    worth 72 with one worth 96.

    ``gt`` < 0 or a Ramsch: only ``all_passed`` and, for a recognised Durchmarsch
    (``durchmarsch``: what it wins before any doubling, 0 when none), the won-value
    events can apply. ``flags`` are the declaration flags, ``level`` the Kontra
    level, ``value`` the game value (before any doubling). A game lost 60:60 is a
    suit game, Grand or reversed game whose declarer counts exactly 60.
    """
    events = params[BOCK_EVENTS]
    n = 0
    if all_passed and events & BockBit.ALL_PASSED:
        n += 1
    won_value = durchmarsch
    if gt >= 0 and gt != RAMSCH:
        won_value = value if won else 0
        hand = (flags & HAND) != 0
        grand_hand = gt == GRAND and hand
        if (_on(events, BockBit.KONTRA_RE) and level >= 2) or (
            _on(events, BockBit.LOST_AFTER_KONTRA) and level >= 1 and not won
        ):
            n += 1
        if _on(events, BockBit.SIXTY_SIXTY) and gt != NULL and declarer_points == 60:
            n += 1
        if (_on(events, BockBit.LOST_GRAND) and gt == GRAND and not won) or (
            _on(events, BockBit.LOST_GRAND_HAND) and grand_hand and not won
        ):
            n += 1
        if _on(events, BockBit.VALUE_100) and value >= 100:
            n += 1
        if _on(events, BockBit.WON_GRAND_HAND) and grand_hand and won:
            n += 1
        if _on(events, BockBit.WON_NULL_OUVERT_HAND) and gt == NULL and hand and (flags & OUVERT) != 0 and won:
            n += 1
    if (_on(events, BockBit.WON_VALUE_72) and won_value >= 72) or (
        _on(events, BockBit.WON_VALUE_96) and won_value >= 96
    ):
        n += 1
    return n


@kernel
def _on(events: int, bit: int) -> bool:
    return (events & bit) != 0


@kernel
def total_event(total: int, params: np.ndarray) -> bool:
    """Whether a player's running total that just changed shows a running-total event of the variant:
    a multiple of 100 (``total_multiple_100``), or a total whose last three digits are equal, 111 to 999,
    1000, 1111, 2000 ... (``total_three_equal_digits``; the absolute total). A total of 0 counts for
    both only with ``BOCK_ZERO_TOTAL`` (xskat: 0 is a multiple of 100 and 000)."""
    events = params[BOCK_EVENTS]
    t = abs(total)
    if t == 0:
        return params[BOCK_ZERO_TOTAL] == 1 and _on(events, TOTAL_100 | TOTAL_NNN)
    if _on(events, TOTAL_100) and t % 100 == 0:
        return True
    return _on(events, TOTAL_NNN) and t >= 100 and t % 10 == t // 10 % 10 and t % 10 == t // 100 % 10


@kernel
def multiplier(queue: np.ndarray, triggered: bool, params: np.ndarray) -> int:
    """The deal's score multiplier: ``BOCK_MULTIPLIER`` inside a Bock round, or for the deal that
    queues one when ``BOCK_TRIGGER_DOUBLE``; else 1."""
    if queue[ROUND] == BOCK or (triggered and params[BOCK_TRIGGER_DOUBLE]):
        return params[BOCK_MULTIPLIER]
    return 1


@kernel
def advance(queue: np.ndarray, rounds: int, params: np.ndarray, counted: bool = True) -> None:
    """After a deal: count it off the running round (unless not ``counted``: a Grand hand instead of a
    Ramsch round's Ramsch under ``BOCK_RAMSCH_ROUND_GRAND``), start the next round when one ends, and
    queue the ``rounds`` Bock rounds the deal triggered. A round is one deal per player."""
    deals = params[TABLE_PLAYERS]
    if queue[ROUND] != NONE and counted:
        queue[LEFT] -= 1
        if queue[LEFT] == 0:
            if queue[ROUND] == BOCK and params[BOCK_RAMSCH_ROUND]:
                queue[ROUND] = RAMSCH_ROUND
                queue[LEFT] = deals
            elif queue[PENDING] > 0:
                queue[PENDING] -= 1
                queue[ROUND] = BOCK
                queue[LEFT] = deals
            else:
                queue[ROUND] = NONE
    left = np.int64(rounds)
    if left > 0 and queue[ROUND] == NONE:
        queue[ROUND] = BOCK
        queue[LEFT] = deals
        left -= 1
    queue[PENDING] += left
