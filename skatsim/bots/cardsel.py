"""Card-selection helpers shared by the bots: ranking cards of a mask by trick power or value."""

from __future__ import annotations

import numpy as np

from .._jit import kernel, lowest_bit
from ..cards import CARD_POINTS
from ..gametypes import ABOVE, GROUP, LED_BONUS, POWER, TRUMP_GROUP, TRUMP_POWER, TRUMPS

_ONE = np.uint32(1)


@kernel
def bit(c: int) -> np.uint32:
    """Mask of one card."""
    return _ONE << np.uint32(c)


@kernel
def highest(gt: int, mask: np.uint32) -> int:
    """The card of ``mask`` with the highest trick power (trumps above plain cards); -1 if empty."""
    best = -1
    top = -1
    m = mask
    while m:
        c = int(lowest_bit(m))
        m &= m - _ONE
        if POWER[gt, c] > top:
            best, top = c, POWER[gt, c]
    return best


@kernel
def lowest(gt: int, mask: np.uint32) -> int:
    """The card of ``mask`` with the lowest trick power; -1 if empty."""
    best = -1
    low = 1 << 20
    m = mask
    while m:
        c = int(lowest_bit(m))
        m &= m - _ONE
        if POWER[gt, c] < low:
            best, low = c, POWER[gt, c]
    return best


@kernel
def cheapest(gt: int, mask: np.uint32) -> int:
    """The card of ``mask`` worth the fewest points, trumps last, lowest power first; -1 if empty."""
    best = -1
    low = 1 << 20
    m = mask
    while m:
        c = int(lowest_bit(m))
        m &= m - _ONE
        key = CARD_POINTS[c] * 256 + POWER[gt, c] + (4096 if POWER[gt, c] >= TRUMP_POWER else 0)
        if key < low:
            best, low = c, key
    return best


@kernel
def richest(gt: int, mask: np.uint32) -> int:
    """The card of ``mask`` worth the most points, plain cards before trumps; -1 if empty."""
    best = -1
    top = -1
    m = mask
    while m:
        c = int(lowest_bit(m))
        m &= m - _ONE
        key = CARD_POINTS[c] * 256 - POWER[gt, c] - (4096 if POWER[gt, c] >= TRUMP_POWER else 0) + 8192
        if key > top:
            best, top = c, key
    return best


@kernel
def strength(gt: int, c: int, led_group: int) -> int:
    """Trick strength of a card against a led group (as in :func:`skatsim.tricks.trick_winner`)."""
    p = POWER[gt, c]
    if p < TRUMP_POWER and GROUP[gt, c] == led_group:
        p += LED_BONUS
    return p


@kernel
def beaters(gt: int, mask: np.uint32, best_card: int, led_group: int) -> np.uint32:
    """Cards of ``mask`` that would beat ``best_card``, the card winning a trick so far (it is of
    the led group or a trump): higher cards of its group, and any trump over a plain card."""
    out = ABOVE[gt, best_card]
    if GROUP[gt, best_card] != TRUMP_GROUP:
        out |= TRUMPS[gt]
    return mask & out


@kernel
def above(gt: int, c: int, mask: np.uint32) -> np.uint32:
    """Cards of ``mask`` in the same group as ``c`` and stronger."""
    return mask & ABOVE[gt, c]


@kernel
def is_master(gt: int, c: int, unseen: np.uint32) -> bool:
    """No unseen card of the same group outranks ``c``."""
    return (unseen & ABOVE[gt, c]) == 0
