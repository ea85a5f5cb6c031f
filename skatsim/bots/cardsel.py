"""Card-selection helpers shared by the bots: ranking cards of a mask by trick power or value."""

from __future__ import annotations

import numpy as np

from .._jit import kernel, lowest_bit
from ..engine.cards import CARD_POINTS
from ..engine.gametypes import (
    ABOVE,
    BEATERS,
    N_GAME_TYPES,
    POWER,
    TRUMPS,
)

_ONE = np.uint32(1)


@kernel
def bit(c: int) -> np.uint32:
    """Mask of one card."""
    return _ONE << np.uint32(c)


def _order_tables(key) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    """One order of the 32 cards per game type, as tables that sort a mask in four lookups.

    ``key(gt, card)`` sorts the cards; ``permute[gt, s, b]`` moves the cards of byte ``b`` of
    suit ``s`` to their places in that order (bit ``i`` = the ``i``-th card), and
    ``card_at[gt, i]`` names the ``i``-th card. So the first or last card of a mask in the order
    is one ``cttz``/``ctlz`` of the permuted mask.
    """
    byte_bits = (np.arange(256)[:, None] >> np.arange(8)) & 1  # [b, r]: bit r of byte b
    permute = np.zeros((N_GAME_TYPES, 4, 256), dtype=np.uint32)
    card_at = np.zeros((N_GAME_TYPES, 32), dtype=np.int64)
    for gt in range(N_GAME_TYPES):
        order = sorted(range(32), key=lambda c: key(gt, c))
        card_at[gt] = order
        place = np.argsort(order)  # place[c]: where card c stands in the order
        for s in range(4):
            permute[gt, s] = byte_bits @ (np.uint64(1) << place[s * 8 : s * 8 + 8].astype(np.uint64))
    permute.flags.writeable = False
    card_at.flags.writeable = False
    return permute, card_at


def _is_trump(gt: int, c: int) -> bool:
    return bool(int(TRUMPS[gt]) >> c & 1)


#: Orders, each read from its first card (:func:`_first`): by trick power, lowest first, and highest
#: first (ties: the lower suit first in both), and by card points, plain cards before trumps (ties:
#: the lower power, then the lower suit), fewest or most first.
_BY_POWER, _BY_POWER_CARD = _order_tables(lambda gt, c: (POWER[gt, c], c // 8))
_BY_POWER_HIGH, _BY_POWER_HIGH_CARD = _order_tables(lambda gt, c: (-POWER[gt, c], c // 8))
_CHEAP, _CHEAP_CARD = _order_tables(lambda gt, c: (_is_trump(gt, c), CARD_POINTS[c], POWER[gt, c], c // 8))
_RICH, _RICH_CARD = _order_tables(lambda gt, c: (_is_trump(gt, c), -CARD_POINTS[c], POWER[gt, c], c // 8))
_BYTE = np.uint32(0xFF)


@kernel
def _permuted(table: np.ndarray, gt: int, mask: np.uint32) -> np.uint32:
    return (
        table[gt, 0, mask & _BYTE]
        | table[gt, 1, (mask >> np.uint32(8)) & _BYTE]
        | table[gt, 2, (mask >> np.uint32(16)) & _BYTE]
        | table[gt, 3, mask >> np.uint32(24)]
    )


@kernel
def _first(permute: np.ndarray, card_at: np.ndarray, gt: int, mask: np.uint32) -> int:
    """The first card of ``mask`` in the order of ``gt`` that ``permute`` and ``card_at`` hold
    (:func:`_order_tables`); -1 if empty."""
    if not mask:
        return -1
    return card_at[gt, lowest_bit(_permuted(permute, gt, mask))]


@kernel
def highest(gt: int, mask: np.uint32) -> int:
    """The card of ``mask`` with the highest trick power (trumps above plain cards; among equal
    plain cards of different suits the lowest suit); -1 if empty."""
    return _first(_BY_POWER_HIGH, _BY_POWER_HIGH_CARD, gt, mask)


@kernel
def lowest(gt: int, mask: np.uint32) -> int:
    """The card of ``mask`` with the lowest trick power (plain cards below trumps; among equal
    plain cards of different suits the lowest suit); -1 if empty."""
    return _first(_BY_POWER, _BY_POWER_CARD, gt, mask)


@kernel
def cheapest(gt: int, mask: np.uint32) -> int:
    """The card of ``mask`` worth the fewest points, plain cards before trumps, then the lowest
    power (then the lowest suit); -1 if empty."""
    return _first(_CHEAP, _CHEAP_CARD, gt, mask)


@kernel
def richest(gt: int, mask: np.uint32) -> int:
    """The card of ``mask`` worth the most points, plain cards before trumps, then the lowest
    power (then the lowest suit); -1 if empty."""
    return _first(_RICH, _RICH_CARD, gt, mask)


@kernel
def beaters(gt: int, mask: np.uint32, best_card: int) -> np.uint32:
    """Cards of ``mask`` that would beat ``best_card``, the card winning a trick so far (it is of
    the led group or a trump): higher cards of its group, and any trump over a plain card."""
    return mask & BEATERS[gt, best_card]


@kernel
def above(gt: int, c: int, mask: np.uint32) -> np.uint32:
    """Cards of ``mask`` in the same group as ``c`` and stronger."""
    return mask & ABOVE[gt, c]


@kernel
def is_master(gt: int, c: int, unseen: np.uint32) -> bool:
    """No unseen card of the same group outranks ``c``."""
    return (unseen & ABOVE[gt, c]) == 0
