"""Bid values and the bidding protocol (RULES.md §2).

The protocol is a small state machine over an ``int64`` array so that the
simulator and the replay of a recorded game walk exactly the same steps:

* stage 0 — middlehand bids to forehand;
* stage 1 — rearhand bids to the survivor;
* stage 2 — both others passed without a bid: forehand may play (bid 18) or pass;
* stage 3 — done; ``declarer`` is -1 when all passed.

An action is a bid value (> 0), ``HOLD`` (0, "yes") or ``PASS`` (-1).
Holding wins ties, so the earlier seat keeps priority on equal values.
The state also keeps, per seat, the highest value that seat bid or held:
Kontra may be limited to defenders who bid or held at least 18 (variant key
``kontra.only_if_bid``, RULES.md §6).
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel


def _legal_bid_values() -> np.ndarray:
    values = {base * m for base in (9, 10, 11, 12) for m in range(2, 19)}
    values |= {24 * m for m in range(2, 12)}
    values |= {23, 35, 46, 59}
    return np.array(sorted(values), dtype=np.int64)


#: The 63 values a game can reach, ascending: 18, 20, 22, 23, 24, 27, ... 264.
BID_VALUES = _legal_bid_values()
_IS_BID = np.zeros(BID_VALUES[-1] + 1, dtype=np.bool_)
_IS_BID[BID_VALUES] = True
MAX_BID = int(BID_VALUES[-1])
#: Per value 0 .. MAX_BID: the smallest legal bid value above it (0 above the last).
_NEXT_BID = np.array([next((int(v) for v in BID_VALUES if v > x), 0) for x in range(MAX_BID + 1)], dtype=np.int64)

PASS = -1
HOLD = 0

# Fields of the bidding state array.
STAGE, BIDDER, ANSWERER, TURN, BID, DECLARER = range(6)
BID_BY0 = 6  # BID_BY0 + seat: highest value the seat bid or held (0: it never did)
N_FIELDS = 9
DONE = 3

# Error codes returned by bid_step (0 = accepted).
OK, E_DONE, E_NOT_TURN, E_NOT_A_BID_VALUE, E_BID_TOO_LOW, E_HOLD_BY_BIDDER, E_BID_BY_ANSWERER = range(7)
ERRORS = {
    E_DONE: "bidding is already over",
    E_NOT_TURN: "it is not this seat's turn to bid",
    E_NOT_A_BID_VALUE: "not a legal bid value (18, 20, 22, 23, 24, 27, ... 264)",
    E_BID_TOO_LOW: "a bid must be higher than the bid standing",
    E_HOLD_BY_BIDDER: "only the seat being bid to can hold",
    E_BID_BY_ANSWERER: "the seat being bid to can only hold or pass",
}


@kernel
def is_bid_value(value: int) -> bool:
    """Whether a number is one of the 63 legal bid values."""
    return 0 < value <= MAX_BID and _IS_BID[value]


@kernel
def next_bid(value: int) -> int:
    """Smallest legal bid value above ``value`` (0 when none is left)."""
    if value < 0:
        return BID_VALUES[0]
    return _NEXT_BID[value] if value <= MAX_BID else 0


@kernel
def new_bidding(state: np.ndarray) -> None:
    """Start bidding: middlehand (seat 1) bids to forehand (seat 0)."""
    state[STAGE] = 0
    state[BIDDER] = 1
    state[ANSWERER] = 0
    state[TURN] = 1
    state[BID] = 0
    state[DECLARER] = -1
    for seat in range(3):
        state[BID_BY0 + seat] = 0


@kernel
def _to_rearhand(state: np.ndarray, survivor: int) -> None:
    state[STAGE] = 1
    state[BIDDER] = 2
    state[ANSWERER] = survivor
    state[TURN] = 2


@kernel
def bid_step(state: np.ndarray, seat: int, action: int) -> int:
    """Apply one bidding action by ``seat``; returns an error code (0 = accepted)."""
    if state[STAGE] == DONE:
        return E_DONE
    if seat != state[TURN]:
        return E_NOT_TURN
    if action > 0:
        if not is_bid_value(action):
            return E_NOT_A_BID_VALUE
        if action <= state[BID]:
            return E_BID_TOO_LOW
    if state[STAGE] == 2:  # forehand alone: play at a bid or pass
        if action == HOLD:
            return E_HOLD_BY_BIDDER
        if action > 0:
            state[BID] = action
            state[BID_BY0] = action
            state[DECLARER] = 0
        state[STAGE] = DONE
        return OK
    if seat == state[BIDDER]:
        if action == HOLD:
            return E_HOLD_BY_BIDDER
        if action > 0:
            state[BID] = action
            state[BID_BY0 + seat] = action
            state[TURN] = state[ANSWERER]
        elif state[STAGE] == 0:
            _to_rearhand(state, state[ANSWERER])
        elif state[BID] > 0:
            state[DECLARER] = state[ANSWERER]
            state[STAGE] = DONE
        else:
            state[STAGE] = 2
            state[TURN] = 0
        return OK
    if action > 0:
        return E_BID_BY_ANSWERER
    if action == HOLD:
        state[BID_BY0 + seat] = state[BID]
        state[TURN] = state[BIDDER]
    elif state[STAGE] == 0:
        _to_rearhand(state, state[BIDDER])
    else:
        state[DECLARER] = state[BIDDER]
        state[STAGE] = DONE
    return OK


@kernel
def bot_action(state: np.ndarray, limit: int) -> int:
    """The action of a player willing to go up to ``limit``: bid step by step, hold while possible."""
    seat = state[TURN]
    if state[STAGE] == 2 or seat == state[BIDDER]:
        v = next_bid(state[BID])
        if v > 0 and v <= limit:
            return v
        return PASS
    if state[BID] <= limit:
        return HOLD
    return PASS


@kernel
def run_bidding(state: np.ndarray, limits: np.ndarray) -> None:
    """Bid to the end with each seat going up to ``limits[seat]`` (0 = pass at once)."""
    new_bidding(state)
    while state[STAGE] != DONE:
        bid_step(state, state[TURN], bot_action(state, limits[state[TURN]]))
