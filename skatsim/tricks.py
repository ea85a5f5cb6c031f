"""Legal moves, trick winners and card points (RULES.md §1, §4).

Pure compiled kernels over card masks; the order tables come from
:mod:`skatsim.gametypes`.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel, popcount
from .cards import ACES, JACKS, KINGS, QUEENS, TENS
from .gametypes import GROUP, GROUP_MASK, LED_BONUS, POWER, TRUMP_POWER

_ACES, _TENS, _KINGS, _QUEENS, _JACKS = (np.uint32(m) for m in (ACES, TENS, KINGS, QUEENS, JACKS))


@kernel
def card_points(mask: np.uint32) -> int:
    """Card points (Augen) of a set of cards (RULES.md §1)."""
    return (
        11 * popcount(mask & _ACES)
        + 10 * popcount(mask & _TENS)
        + 4 * popcount(mask & _KINGS)
        + 3 * popcount(mask & _QUEENS)
        + 2 * popcount(mask & _JACKS)
    )


@kernel
def legal_moves(gt: int, hand: np.uint32, led: int) -> np.uint32:
    """Cards of ``hand`` that may be played; ``led`` is the trick's first card or -1.

    Follow the led card's group if possible (jacks follow trump, not their
    printed suit, outside Null: RULES.md §4), otherwise play anything.
    """
    if led < 0:
        return hand
    follow = hand & GROUP_MASK[gt, GROUP[gt, led]]
    if follow:
        return follow
    return hand


@kernel
def strength(gt: int, c: int, led_group: int) -> int:
    """Trick strength of card ``c`` in a trick led in ``led_group``: trumps above the led
    group's cards above every other card (RULES.md §4)."""
    p = POWER[gt, c]
    if p < TRUMP_POWER and GROUP[gt, c] == led_group:
        p += LED_BONUS
    return p


@kernel
def trick_winner(gt: int, c0: int, c1: int, c2: int) -> int:
    """Position (0, 1, 2 from the leader) of the card that wins the trick (RULES.md §4)."""
    g = GROUP[gt, c0]
    best = 0
    top = strength(gt, c0, g)
    s1 = strength(gt, c1, g)
    if s1 > top:
        best, top = 1, s1
    if strength(gt, c2, g) > top:
        best = 2
    return best
