"""Kontra and Re: doubling a declared game's score (RULES.md §6 "Kontra / Re").

After the declaration and before the first card a defender may say Kontra
(the deal's game score x2); the declarer may answer Re (x4). With
``KONTRA_BEYOND_RE`` (variant key ``kontra.beyond_re``) the sides go on
alternately: a defender x8 (Bock/Hirsch/Supra), the declarer x16, a defender
x32. A call is identified by its level: level ``k`` (1-based) multiplies the
score by ``2**k``; odd levels are the defenders', even levels the declarer's.
``KONTRA_ONLY_IF_BID`` (``kontra.only_if_bid``) limits the defenders' calls
to a defender who bid or held at least 18 (:data:`skatsim.engine.bidding.BID_BY0`).
Whether the doubling also multiplies the Seeger-Fabian bonuses is
``KONTRA_LIST_POINTS``, applied by :func:`skatsim.engine.scoring.list_points`.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from .play import DECLARER, FLAGS, hand_of
from .rules import KONTRA_BEYOND_RE, KONTRA_ENABLED, KONTRA_ONLY_IF_BID, KONTRA_WHEN
from .scoring import OUVERT

#: Names of the levels, for messages and the ``kontra_level`` column (3 and more: beyond Re).
LEVEL_NAMES = ("none", "Kontra", "Re", "Bock", "Hirsch", "Supra")

OK, E_DISABLED, E_TOO_MANY, E_NOT_DEFENDER, E_NOT_DECLARER, E_NOT_BID = range(6)
ERRORS = {
    E_DISABLED: "this variant has no Kontra (kontra.enabled is false)",
    E_TOO_MANY: "no further doubling is allowed here (kontra.beyond_re)",
    E_NOT_DEFENDER: "Kontra and the calls after Re are the defenders'",
    E_NOT_DECLARER: "only the declarer can answer with Re (and the calls after it)",
    E_NOT_BID: "only a defender who bid or held at least 18 may say Kontra (kontra.only_if_bid)",
}


@kernel
def max_level(params: np.ndarray) -> int:
    """Highest doubling level the variant allows: 0 without Kontra, 2 (Re), up to 5 (x32)."""
    if params[KONTRA_ENABLED] == 0:
        return 0
    return 2 + params[KONTRA_BEYOND_RE]


@kernel
def call_error(level: int, seat: int, declarer: int, bid_by_seat: int, params: np.ndarray) -> int:
    """Error code of ``seat`` making the next call when ``level`` calls are already made; 0 when legal.

    ``bid_by_seat`` is the highest value that seat bid or held (0 if none).
    """
    if params[KONTRA_ENABLED] == 0:
        return E_DISABLED
    if level >= max_level(params):
        return E_TOO_MANY
    if level % 2 == 0:
        if seat == declarer:
            return E_NOT_DEFENDER
        if params[KONTRA_ONLY_IF_BID] and bid_by_seat < 18:
            return E_NOT_BID
    elif seat != declarer:
        return E_NOT_DECLARER
    return OK


@kernel
def doubled(score: int, level: int) -> int:
    """A game score after ``level`` doublings (Kontra x2, Re x4, ...)."""
    return score * (1 << level)


@kernel
def open_hand(state: np.ndarray, params: np.ndarray) -> np.uint32:
    """The declarer's cards the defenders see when they consider Kontra: an ouvert declarer's hand
    lies open before the first card, so it is seen when Kontra is said then (``kontra.when``:
    ``before_first_card``); otherwise none (0). ``state`` is the play state at the first lead."""
    if state[FLAGS] & OUVERT and params[KONTRA_WHEN] == 0:
        return hand_of(state, state[DECLARER])
    return np.uint32(0)
