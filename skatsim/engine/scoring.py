"""Scoring a played game: matadors, game value, overbid, score (RULES.md §5).

Declaration flags are a bit field (``HAND``, ``SCHNEIDER_ANNOUNCED``,
``SCHWARZ_ANNOUNCED``, ``OUVERT``), normalised by
:func:`skatsim.engine.declaration.normalise_flags` so that every implied
announcement is set.
"""

from __future__ import annotations

import numpy as np

from .._jit import highest_bit, kernel
from .gametypes import BASE_VALUE, GRAND, N_TRUMP_SEQ, NULL, NULL_VALUES, RAMSCH, TRUMP_SEQ_BITS
from .rules import (
    LIST_DEFENDER_BONUS,
    LIST_LOST_MALUS,
    LIST_WON_BONUS,
    LOST_FACTOR,
    LOST_HAND_FACTOR,
    TABLE_PLAYERS,
)

HAND = 1
SCHNEIDER_ANNOUNCED = 2
SCHWARZ_ANNOUNCED = 4
OUVERT = 8

# Grand counts jacks only because TRUMP_SEQ[GRAND] holds only the four jacks.
_BYTE = np.uint32(0xFF)


@kernel
def matadors(gt: int, cards: np.uint32) -> int:
    """Matadors over the declarer's 12 cards: +N "with N", -N "without N" (RULES.md §5).

    Counted from the top trump down through the whole trump sequence (11 in
    a suit game, the 4 jacks in Grand and the reversed game); 0 for Null and Ramsch.
    """
    n = N_TRUMP_SEQ[gt]
    if n == 0 or gt == RAMSCH:
        return 0
    seq = (
        TRUMP_SEQ_BITS[gt, 0, cards & _BYTE]
        | TRUMP_SEQ_BITS[gt, 1, (cards >> np.uint32(8)) & _BYTE]
        | TRUMP_SEQ_BITS[gt, 2, (cards >> np.uint32(16)) & _BYTE]
        | TRUMP_SEQ_BITS[gt, 3, cards >> np.uint32(24)]
    )
    top = np.uint32(1) << np.uint32(n - 1)
    if seq & top:  # "with": the run of held trumps ends below the highest one missing
        missing = ~seq & (top | (top - np.uint32(1)))
        return n if missing == 0 else n - 1 - highest_bit(missing)
    return -n if seq == 0 else -(n - 1 - highest_bit(seq))


@kernel
def null_value(flags: int) -> int:
    """Null 23, Null hand 35, Null ouvert 46, Null ouvert hand 59 (RULES.md §3)."""
    return NULL_VALUES[(flags & HAND) + 2 * ((flags & OUVERT) >> 3)]


@kernel
def base_value(gt: int, flags: int) -> int:
    """The value an overbid is charged in multiples of: the base value, or the Null value."""
    if gt == NULL:
        return null_value(flags)
    return BASE_VALUE[gt]


@kernel
def overbid_value(gt: int, flags: int, bid: int) -> int:
    """The value an overbid game is charged: the smallest multiple of its base value (the Null value
    for Null, docs/decisions.md) that reaches the bid (RULES.md §5)."""
    unit = base_value(gt, flags)
    return (bid + unit - 1) // unit * unit


@kernel
def game_value(gt: int, flags: int, mat: int, schneider: bool, schwarz: bool, grand_ouvert_36: bool = False) -> int:
    """Game value: base value x multiplier, or the fixed Null value (RULES.md §5).

    Announced levels count as reached even when missed (ISkO 5.2.5), and a
    level is counted once whichever side reached it. With ``grand_ouvert_36``
    (``GRAND_OUVERT_36``, variant key ``scoring.grand_ouvert: base_36``; the
    pre-1999 rules) a Grand ouvert has base value 36 and ouvert adds no level.
    """
    if gt == NULL:
        return null_value(flags)
    schneider_ann = (flags & SCHNEIDER_ANNOUNCED) != 0
    schwarz_ann = (flags & SCHWARZ_ANNOUNCED) != 0
    multiplier = (
        abs(mat)
        + 1
        + (flags & HAND)
        + (schneider or schneider_ann)
        + schneider_ann
        + (schwarz or schwarz_ann)
        + schwarz_ann
        + ((flags & OUVERT) >> 3)
    )
    if grand_ouvert_36 and gt == GRAND and flags & OUVERT:
        return 36 * (multiplier - 1)
    return BASE_VALUE[gt] * multiplier


@kernel
def outcome(  # type: ignore[no-untyped-def]
    gt: int,
    flags: int,
    bid: int,
    cards12: np.uint32,
    points: int,
    tricks: int,
    forfeit: bool,
    complete: bool = True,
    grand_ouvert_36: bool = False,
):
    """Result of a declared game from the declarer's side.

    ``points`` and ``tricks`` are the declarer's (skat included in points);
    ``forfeit`` marks a game the declarer lost outright (resignation, timeout);
    ``complete`` is False when play stopped before all tricks were accounted for
    (announced Schwarz lost early, a forfeit): then no Schneider or Schwarz is
    reached, and only announced levels count (ISkO 4.1.4, 5.2.5).
    ``grand_ouvert_36``: a Grand ouvert is valued by the pre-1999 rules (:func:`game_value`).
    Returns ``(won, value, overbid, schneider, schwarz, matadors)`` where
    ``value`` is the value charged: for an overbid game the smallest multiple
    of the base value that reaches the bid (RULES.md §5; Null in multiples of
    its own value, see docs/decisions.md).
    """
    if gt == NULL:
        mat = 0
        schneider = False
        schwarz = False
        won = tricks == 0
    else:
        mat = matadors(gt, cards12)
        schneider = complete and (points >= 90 or points <= 30)
        schwarz = complete and (tricks == 10 or tricks == 0)
        won = points >= 61
        if flags & SCHNEIDER_ANNOUNCED and points < 90:
            won = False
        if flags & SCHWARZ_ANNOUNCED and tricks < 10:
            won = False
    value = game_value(gt, flags, mat, schneider, schwarz, grand_ouvert_36)
    overbid = value < bid
    if overbid:
        won = False
        value = overbid_value(gt, flags, bid)
    if forfeit:
        won = False
    return won, value, overbid, schneider, schwarz, mat


@kernel
def deal_score(won: bool, value: int, flags: int, params: np.ndarray) -> int:
    """The declarer's score for the deal: +value, or -factor x value (RULES.md §5, §6).

    The factor is ``LOST_FACTOR`` (2), or ``LOST_HAND_FACTOR`` for a hand game
    (variant key ``scoring.lost_hand_factor``; 1 under pre-1999 rules).
    """
    if won:
        return value
    if flags & HAND:
        return -params[LOST_HAND_FACTOR] * value
    return -params[LOST_FACTOR] * value


@kernel
def list_points(
    declarer: int, won: bool, score: int, params: np.ndarray, out: np.ndarray, bonus_factor: int = 1
) -> None:
    """Seeger-Fabian list points of one deal into ``out[0..2]`` by seat (RULES.md §5), and into
    ``out[3]`` those of the player sitting out at a four-player table when ``out`` has four slots.

    The declarer gets his score +50 (won) or -50 (lost); when he loses, each
    other player gets ``LIST_DEFENDER_BONUS``: +40 to each defender at a
    three-player table, +30 to each of the three others at a four-player table
    (the dealer sitting out too; ``TABLE_PLAYERS``). ``bonus_factor`` multiplies
    the 50s and 40s: the Kontra/Re doubling when ``KONTRA_LIST_POINTS`` is set
    (variant key ``kontra.multiplies_list_points``), else 1.
    """
    out[:] = 0
    if declarer < 0:
        return
    if won:
        out[declarer] = score + params[LIST_WON_BONUS] * bonus_factor
    else:
        out[declarer] = score - params[LIST_LOST_MALUS] * bonus_factor
        for seat in range(3):
            if seat != declarer:
                out[seat] = params[LIST_DEFENDER_BONUS] * bonus_factor
        if out.shape[0] > 3 and params[TABLE_PLAYERS] == 4:
            out[3] = params[LIST_DEFENDER_BONUS] * bonus_factor
