"""Bock rounds: events that queue rounds of doubled scores, and the queue a list carries (RULES.md §6).

An event (variant key ``bock.events``, bits ``BOCK_EVENTS``) in a deal queues
one Bock round: three deals, one per player, in which every score counts
``BOCK_MULTIPLIER`` times. A deal queues at most one round however many
events it shows. Rounds queued while a round runs are played after it, in
order ("stacked"); with ``BOCK_RAMSCH_ROUND`` every Bock round is followed by
a round of three compulsory Ramsch deals (played before the next Bock round
queued). With ``BOCK_TRIGGER_DOUBLE`` the deal that queues a round counts
with the multiplier itself (once, also inside a Bock round: multipliers never
compound).

The queue is a small ``int64`` array carried from deal to deal by the list
kernel (:func:`skatsim.engine.lists.play_list`); its fields are below.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from .gametypes import GRAND, NULL, RAMSCH
from .rules import BOCK_EVENT_BITS, BOCK_EVENTS, BOCK_MULTIPLIER, BOCK_RAMSCH_ROUND, BOCK_TRIGGER_DOUBLE
from .scoring import HAND, OUVERT

# Fields of the queue array.
ROUND = 0  # the round running: NONE, BOCK or RAMSCH_ROUND
LEFT = 1  # deals left in it
PENDING = 2  # Bock rounds queued behind it
N_FIELDS = 3
NONE, BOCK, RAMSCH_ROUND = 0, 1, 2
#: Deals per round: one per player at a 3-player table.
ROUND_DEALS = 3

_ALL_PASSED = BOCK_EVENT_BITS["all_passed"]
_KONTRA_RE = BOCK_EVENT_BITS["kontra_re"]
_LOST_AFTER_KONTRA = BOCK_EVENT_BITS["lost_after_kontra"]
_SIXTY = BOCK_EVENT_BITS["sixty_sixty"]
_LOST_GRAND = BOCK_EVENT_BITS["lost_grand"]
_LOST_GRAND_HAND = BOCK_EVENT_BITS["lost_grand_hand"]
_VALUE_100 = BOCK_EVENT_BITS["value_100"]
_WON_GRAND_HAND = BOCK_EVENT_BITS["won_grand_hand"]
_WON_NULL_OUVERT_HAND = BOCK_EVENT_BITS["won_null_ouvert_hand"]
#: Bit of the running-total event, checked by the list kernel once the deal is scored.
TOTAL_100 = BOCK_EVENT_BITS["total_multiple_100"]


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
def deal_event(
    params: np.ndarray,
    all_passed: bool,
    gt: int,
    flags: int,
    won: bool,
    declarer_points: int,
    value: int,
    level: int,
) -> bool:
    """Whether a deal shows one of the variant's Bock events (all but ``total_multiple_100``).

    ``gt`` < 0 or a Ramsch: only ``all_passed`` can apply. ``flags`` are the
    declaration flags, ``level`` the Kontra level. A game lost 60:60 is a suit
    game, Grand or reversed game whose declarer counts exactly 60.
    """
    events = params[BOCK_EVENTS]
    if all_passed and events & _ALL_PASSED:
        return True
    if gt < 0 or gt == RAMSCH:
        return False
    hand = (flags & HAND) != 0
    grand_hand = gt == GRAND and hand
    checks = (
        (_KONTRA_RE, level >= 2),
        (_LOST_AFTER_KONTRA, level >= 1 and not won),
        (_SIXTY, gt != NULL and declarer_points == 60),
        (_LOST_GRAND, gt == GRAND and not won),
        (_LOST_GRAND_HAND, grand_hand and not won),
        (_VALUE_100, value >= 100),
        (_WON_GRAND_HAND, grand_hand and won),
        (_WON_NULL_OUVERT_HAND, gt == NULL and hand and (flags & OUVERT) != 0 and won),
    )
    for bit, happened in checks:
        if events & bit and happened:
            return True
    return False


@kernel
def multiplier(queue: np.ndarray, triggered: bool, params: np.ndarray) -> int:
    """The deal's score multiplier: ``BOCK_MULTIPLIER`` inside a Bock round, or for the deal that
    queues one when ``BOCK_TRIGGER_DOUBLE``; else 1."""
    if queue[ROUND] == BOCK or (triggered and params[BOCK_TRIGGER_DOUBLE]):
        return params[BOCK_MULTIPLIER]
    return 1


@kernel
def advance(queue: np.ndarray, triggered: bool, params: np.ndarray) -> None:
    """After a deal: count it off the running round, start the next round when one ends, and queue a
    Bock round when the deal ``triggered`` one."""
    if queue[ROUND] != NONE:
        queue[LEFT] -= 1
        if queue[LEFT] == 0:
            if queue[ROUND] == BOCK and params[BOCK_RAMSCH_ROUND]:
                queue[ROUND] = RAMSCH_ROUND
                queue[LEFT] = ROUND_DEALS
            elif queue[PENDING] > 0:
                queue[PENDING] -= 1
                queue[ROUND] = BOCK
                queue[LEFT] = ROUND_DEALS
            else:
                queue[ROUND] = NONE
    if triggered:
        if queue[ROUND] == NONE:
            queue[ROUND] = BOCK
            queue[LEFT] = ROUND_DEALS
        else:
            queue[PENDING] += 1
