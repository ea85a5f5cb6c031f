"""Which declarations are legal (RULES.md §3).

Announcements (Schneider, Schwarz, ouvert) are for hand games only; ouvert
in a suit game or Grand implies hand, Schneider and Schwarz announced;
Schwarz announced implies Schneider announced. Null may be ouvert with or
without the skat. Ramsch is never declared; the reversed game only when the
variant allows it (``REVERSED_ALLOWED``).
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from .gametypes import NULL, RAMSCH, REVERSED
from .rules import REVERSED_ALLOWED
from .scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED

OK, E_GAME_TYPE, E_REVERSED, E_HAND_AFTER_PICKUP, E_ANNOUNCE_WITHOUT_HAND, E_NULL_ANNOUNCE = range(6)
ERRORS = {
    E_GAME_TYPE: "not a game type a declarer can choose",
    E_REVERSED: "the reversed game is not allowed by this variant",
    E_HAND_AFTER_PICKUP: "a hand game cannot be declared after picking up the skat",
    E_ANNOUNCE_WITHOUT_HAND: "Schneider, Schwarz and ouvert can only be announced in a hand game",
    E_NULL_ANNOUNCE: "Null cannot be played with Schneider or Schwarz announced",
}


@kernel
def normalise_flags(gt: int, flags: int) -> int:
    """Add every announcement a declaration implies."""
    if gt != NULL and flags & OUVERT:
        flags |= HAND | SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED
    if flags & SCHWARZ_ANNOUNCED:
        flags |= SCHNEIDER_ANNOUNCED
    return flags


@kernel
def declaration_error(gt: int, flags: int, picked_up: bool, params: np.ndarray) -> int:
    """Error code of a declaration as written (before normalising); 0 when legal."""
    if gt < 0 or gt > REVERSED or gt == RAMSCH:
        return E_GAME_TYPE
    if gt == REVERSED and params[REVERSED_ALLOWED] == 0:
        return E_REVERSED
    if picked_up and flags & HAND:
        return E_HAND_AFTER_PICKUP
    if gt == NULL:
        if flags & (SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED):
            return E_NULL_ANNOUNCE
        return OK
    if picked_up and flags & (SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED | OUVERT):
        return E_ANNOUNCE_WITHOUT_HAND
    return OK
