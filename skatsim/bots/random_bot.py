"""The ``random`` bot: uniform choices among legal actions, a baseline.

Bidding: at each turn pass or go on (bid the next value / hold) with equal
chance. Declaring: hand or pickup with equal chance, two uniform discards,
a uniform game type among diamonds, hearts, spades, clubs, Grand and Null
(and the reversed game where the variant allows it), no announcements.
Play: a uniform legal card. House rules (RULES.md §6): every allowed Kontra,
Re or further doubling, and a Grand hand instead of a Ramsch, with the small
fixed chance ``1 / CALL_ONE_IN`` (a uniform choice would double half of all
games); in Schieberamsch push or pass on unseen with equal chance, pushing
two uniform cards among those allowed.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel, popcount
from ..engine.bidding import BID, BIDDER, HOLD, PASS, STAGE, TURN, next_bid
from ..engine.cards import JACKS
from ..engine.deal import below, draw


@kernel
def nth_card(mask: np.uint32, n: int) -> int:
    """The ``n``-th lowest card (0-based) of a mask, by a branch-free binary search on bit counts."""
    m = np.uint32(mask)
    k = np.uint32(n)
    pos = np.uint32(0)
    for width in (16, 8, 4, 2, 1):
        w = np.uint32(width)
        low = popcount(m & ((np.uint32(1) << w) - np.uint32(1)))
        step = np.uint32(k >= low)
        k -= step * low
        m >>= step * w
        pos += step * w
    return np.int64(pos)


@kernel
def uniform_card(mask: np.uint32, rng: np.ndarray) -> int:
    """A uniformly chosen card of a nonempty mask."""
    return nth_card(mask, below(rng, popcount(mask)))


@kernel
def bid_action(state: np.ndarray, rng: np.ndarray) -> int:
    """Pass or go on, each with probability 1/2."""
    if draw(rng) & np.uint64(1):
        return PASS
    if state[STAGE] == 2 or state[TURN] == state[BIDDER]:
        v = next_bid(state[BID])
        return v if v > 0 else PASS
    return HOLD


#: A house-rule call (Kontra, Re, beyond, Grand hand instead of a Ramsch) is made once in this many chances.
CALL_ONE_IN = 10
_JACKS = np.uint32(JACKS)
#: Game types the random bot declares: the six official ones, then the reversed game (7) when allowed.
_REVERSED = 7


@kernel
def calls(rng: np.ndarray) -> bool:
    """A house-rule call with chance ``1 / CALL_ONE_IN``."""
    return below(rng, CALL_ONE_IN) == 0


@kernel
def push(hand: np.uint32, skat: np.uint32, jacks_ok: bool, rng: np.ndarray) -> np.uint32:
    """Schieberamsch: with chance 1/2 pick up the skat and push two uniform allowed cards; 0 = pass it on unseen."""
    if draw(rng) & np.uint64(1):
        return np.uint32(0)
    allowed = hand | skat
    if not jacks_ok:
        allowed &= ~_JACKS
    first = uniform_card(allowed, rng)
    allowed &= ~(np.uint32(1) << np.uint32(first))
    second = uniform_card(allowed, rng)
    return (np.uint32(1) << np.uint32(first)) | (np.uint32(1) << np.uint32(second))


@kernel
def pickup(rng: np.ndarray) -> int:
    """Pick up the skat (1) or play hand (0), each with probability 1/2."""
    return np.int64(draw(rng) & np.uint64(1))


@kernel
def discard(twelve: np.uint32, rng: np.ndarray) -> np.uint32:
    """Two uniform cards of the twelve to put away."""
    first = uniform_card(twelve, rng)
    twelve &= ~(np.uint32(1) << np.uint32(first))
    second = uniform_card(twelve, rng)
    return (np.uint32(1) << np.uint32(first)) | (np.uint32(1) << np.uint32(second))


@kernel
def game_type(rng: np.ndarray, reversed_ok: bool) -> int:
    """A uniform game type among the six official ones, and the reversed game where allowed."""
    if reversed_ok:
        gt = below(rng, 7)
        return _REVERSED if gt == 6 else gt
    return below(rng, 6)
