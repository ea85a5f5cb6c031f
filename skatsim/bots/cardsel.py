"""Card-selection helpers shared by the bots: ranking cards of a mask by trick power or value."""

from __future__ import annotations

import numpy as np

from .._jit import highest_bit, kernel, lowest_bit
from ..cards import ACES, JACK, JACKS, KINGS, QUEENS, TENS
from ..gametypes import (
    ABOVE,
    GROUP,
    N_GAME_TYPES,
    NULL,
    POWER,
    REVERSED,
    TRUMP_GROUP,
    TRUMPS,
)

_ONE = np.uint32(1)


@kernel
def bit(c: int) -> np.uint32:
    """Mask of one card."""
    return _ONE << np.uint32(c)


def _plain_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per game type: the power of a plain card by rank, and for every byte of one suit the rank
    of its highest and lowest plain card (-1 for none). A suit's non-jack trumps keep the plain
    order among themselves, so the same tables serve the trump suit."""
    plain_power = np.full((N_GAME_TYPES, 8), -1, dtype=np.int64)
    hi = np.full((N_GAME_TYPES, 256), -1, dtype=np.int64)
    lo = np.full((N_GAME_TYPES, 256), -1, dtype=np.int64)
    for gt in range(N_GAME_TYPES):
        suit = 1 if gt == 0 else 0  # a suit that is not trump in game type gt
        for r in range(8):
            if gt == NULL or r != JACK:
                plain_power[gt, r] = POWER[gt, suit * 8 + r]
        for b in range(1, 256):
            ranks = [r for r in range(8) if b >> r & 1 and plain_power[gt, r] >= 0]
            if ranks:
                hi[gt, b] = max(ranks, key=lambda r: plain_power[gt, r])
                lo[gt, b] = min(ranks, key=lambda r: plain_power[gt, r])
    return plain_power, hi, lo


_PLAIN_POWER, _HI_RANK, _LO_RANK = _plain_tables()
_JACKS = np.uint32(JACKS)
_BYTE = np.uint32(0xFF)


@kernel
def highest(gt: int, mask: np.uint32) -> int:
    """The card of ``mask`` with the highest trick power (trumps above plain cards; among equal
    plain cards of different suits the lowest suit); -1 if empty."""
    trumps = mask & TRUMPS[gt]
    if trumps:
        jacks = trumps & _JACKS
        if jacks:
            return lowest_bit(jacks) if gt == REVERSED else highest_bit(jacks)
        return gt * 8 + _HI_RANK[gt, (trumps >> np.uint32(8 * gt)) & _BYTE]
    best = -1
    top = -1
    for s in range(4):
        b = (mask >> np.uint32(8 * s)) & _BYTE
        if b:
            r = _HI_RANK[gt, b]
            if _PLAIN_POWER[gt, r] > top:
                best, top = s * 8 + r, _PLAIN_POWER[gt, r]
    return best


@kernel
def lowest(gt: int, mask: np.uint32) -> int:
    """The card of ``mask`` with the lowest trick power (plain cards below trumps; among equal
    plain cards of different suits the lowest suit); -1 if empty."""
    plain = mask & ~TRUMPS[gt]
    if plain:
        best = -1
        low = 1 << 20
        for s in range(4):
            b = (plain >> np.uint32(8 * s)) & _BYTE
            if b:
                r = _LO_RANK[gt, b]
                if _PLAIN_POWER[gt, r] < low:
                    best, low = s * 8 + r, _PLAIN_POWER[gt, r]
        return best
    if not mask:
        return -1
    suit_trumps = mask & ~_JACKS
    if suit_trumps:
        return gt * 8 + _LO_RANK[gt, (suit_trumps >> np.uint32(8 * gt)) & _BYTE]
    return highest_bit(mask) if gt == REVERSED else lowest_bit(mask)


#: Cards grouped by their points, ascending: 7-8-9 (0), jacks (2), queens, kings, tens, aces.
_POINT_CLASSES = np.array(
    [0x07070707, JACKS, QUEENS, KINGS, TENS, ACES],
    dtype=np.uint32,
)


@kernel
def cheapest(gt: int, mask: np.uint32) -> int:
    """The card of ``mask`` worth the fewest points, plain cards before trumps, then the lowest
    power (then the lowest suit); -1 if empty."""
    part = mask & ~TRUMPS[gt]
    if not part:
        part = mask
    for k in range(6):
        cls = part & _POINT_CLASSES[k]
        if cls:
            return lowest(gt, cls)
    return -1


@kernel
def richest(gt: int, mask: np.uint32) -> int:
    """The card of ``mask`` worth the most points, plain cards before trumps, then the lowest
    power (then the lowest suit); -1 if empty."""
    part = mask & ~TRUMPS[gt]
    if not part:
        part = mask
    for k in range(5, -1, -1):
        cls = part & _POINT_CLASSES[k]
        if cls:
            return lowest(gt, cls)
    return -1


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
