"""Legal moves, trick winners and card points (RULES.md §1, §4).

Pure compiled kernels over card masks; the order tables come from
:mod:`skatsim.engine.gametypes`.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel, popcount
from .cards import ACES, JACKS, KINGS, QUEENS, TENS
from .gametypes import BEATERS, GROUP, GROUP_MASK

_ACES, _TENS, _KINGS, _QUEENS, _JACKS = (np.uint32(m) for m in (ACES, TENS, KINGS, QUEENS, JACKS))

#: Every card point of the pack (a side that takes every trick takes them all).
ALL_POINTS = 120


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
def trick_winner(gt: int, c0: int, c1: int, c2: int) -> int:
    """Position (0, 1, 2 from the leader) of the card that wins the trick (RULES.md §4): each card
    takes the trick from the card winning so far if it is one of that card's ``BEATERS``."""
    best = 0
    top = c0
    if BEATERS[gt, top] >> np.uint32(c1) & np.uint32(1):
        best, top = 1, c1
    if BEATERS[gt, top] >> np.uint32(c2) & np.uint32(1):
        best = 2
    return best
