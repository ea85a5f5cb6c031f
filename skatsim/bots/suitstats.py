"""What one suit's cards contribute to the heuristic bot's hand features and discards.

A hand mask holds each suit in one byte (bit = rank, :mod:`skatsim.engine.cards`).
Everything the bot counts per suit — length, ace, ten, guarded ten, losers,
Null risk, which card to put back first — depends on that byte alone, so it
is worked out here once for all 256 bytes and read by the kernels with one
lookup per suit instead of a loop over the ranks.

Counts that are summed over suits are packed into byte lanes of one integer
(``LANE_*``): adding the packed values of four suits adds every count at once
(no lane exceeds 255), and a suit game's side-suit totals are the hand's
totals minus the packed value of its trump suit.
"""

from __future__ import annotations

import numpy as np

from ..engine.cards import ACE, JACK, KING, QUEEN, TEN
from ..engine.gametypes import GRAND, POWER

#: Byte lanes of :data:`SUIT_SIDE` (suit and Grand features, the suit's plain cards: jack excluded).
LANE_ACES, LANE_TENS_GUARDED, LANE_VOIDS, LANE_LOSERS, LANE_PAIRS = 0, 8, 16, 24, 32
#: Byte lanes of :data:`NULL_SUIT` (Null features, all eight cards of the suit).
LANE_RISKY, LANE_RISKY_SUITS, LANE_NULL_VOIDS, LANE_SAFE_SUITS, LANE_HIGH = 0, 8, 16, 24, 32
#: Discard key of a suit with no card to put back.
NO_DISCARD = -(1 << 20)

_JACK_BIT = 1 << JACK


def _bits(b: int, r: int) -> int:
    return b >> r & 1


def side_counts(b: int) -> tuple[int, int, int, int, int]:
    """A side suit's (ace, guarded ten, void, losers, ace-ten pair); ``b`` without its jack."""
    n = bin(b).count("1")
    if n == 0:
        return 0, 0, 1, 0, 0
    ace, ten = _bits(b, ACE), _bits(b, TEN)
    guarded = 1 if ten and (ace or n >= 3) else 0
    losers = max(min(n, 3) - ace - ten * ace, 0)
    return ace, guarded, 0, losers, ace * ten


def null_counts(b: int) -> tuple[int, int, int, int, int, int]:
    """A suit's Null (risky cards, risky suit, void, safe suit, high cards, worst risk).

    The ``k``-th lowest card of rank ``r`` is at risk when ``r > 2k``: fewer of the player's own
    cards lie below it than could be led under it; its risk is ``r - 2k``.
    """
    if b == 0:
        return 0, 0, 1, 0, 0, 0
    risky = worst = high = k = 0
    for r in range(8):
        if _bits(b, r):
            if r - 2 * k > 0:
                risky += 1
                worst = max(worst, r - 2 * k)
            high += r >= 6
            k += 1
    return risky, int(risky > 0), 0, int(risky == 0), high, worst


def _suit_discard(b: int) -> tuple[int, int]:
    """(key, rank) of the plain card a suit or Grand declarer puts back first from a side suit
    ``b`` (jack excluded): see :func:`skatsim.bots.handeval.choose_discard`. The key orders
    by score (twice the score, so it is whole), then by lower Grand power."""
    if b == 0:
        return NO_DISCARD, -1
    n = bin(b).count("1")
    ace, ten = _bits(b, ACE), _bits(b, TEN)
    if ten and not ace and n <= 2:
        r, bonus = TEN, 8.0
    elif _bits(b, KING):
        r, bonus = KING, 2.0
    elif ten and not ace:
        r, bonus = TEN, 2.0
    elif _bits(b, QUEEN):
        r, bonus = QUEEN, 1.5
    elif b & 0b111:
        r, bonus = (b & -b).bit_length() - 1, 0.0
    elif ten:
        r, bonus = TEN, -30.0
    else:
        r, bonus = ACE, -50.0
    score = 12.0 - 4.0 * n + bonus
    return int(2 * score) * 16 + 15 - int(POWER[GRAND, r]), r


def _null_discard(b: int) -> tuple[int, int]:
    """(key, rank) of the card a Null declarer puts back first from suit ``b``: the ``k``-th lowest
    card of rank ``r`` in a suit of ``n`` scores ``4 (r - 2k) + r - n``; the key orders by score,
    then by lower rank."""
    if b == 0:
        return NO_DISCARD, -1
    n = bin(b).count("1")
    best = (NO_DISCARD, -1)
    k = 0
    for r in range(8):
        if _bits(b, r):
            key = (4 * (r - 2 * k) + r - n) * 8 + 7 - r
            best = max(best, (key, r))
            k += 1
    return best


def _build() -> tuple[np.ndarray, ...]:
    n_plain = np.zeros(256, dtype=np.int64)
    trump_ace_ten = np.zeros(256, dtype=np.int64)
    side = np.zeros(256, dtype=np.int64)
    null = np.zeros(256, dtype=np.int64)
    worst = np.zeros(256, dtype=np.int64)
    suit_key = np.zeros(256, dtype=np.int64)
    suit_rank = np.zeros(256, dtype=np.int64)
    null_key = np.zeros(256, dtype=np.int64)
    null_rank = np.zeros(256, dtype=np.int64)
    lanes_side = (LANE_ACES, LANE_TENS_GUARDED, LANE_VOIDS, LANE_LOSERS, LANE_PAIRS)
    lanes_null = (LANE_RISKY, LANE_RISKY_SUITS, LANE_NULL_VOIDS, LANE_SAFE_SUITS, LANE_HIGH)
    for b in range(256):
        plain = b & ~_JACK_BIT
        n_plain[b] = bin(plain).count("1")
        trump_ace_ten[b] = _bits(b, ACE) + _bits(b, TEN)
        side[b] = sum(v << lane for v, lane in zip(side_counts(plain), lanes_side, strict=True))
        *counts, worst[b] = null_counts(b)
        null[b] = sum(v << lane for v, lane in zip(counts, lanes_null, strict=True))
        suit_key[b], suit_rank[b] = _suit_discard(plain)
        null_key[b], null_rank[b] = _null_discard(b)
    tables = (n_plain, trump_ace_ten, side, null, worst, suit_key, suit_rank, null_key, null_rank)
    for table in tables:
        table.flags.writeable = False
    return tables


#: Per suit byte: plain cards (jack excluded); ace + ten (the trump suit's count); the packed side-suit
#: counts; the packed Null counts; the worst Null risk; the suit/Grand discard key and rank; the Null
#: discard key and rank.
(
    N_PLAIN,
    TRUMP_ACE_TEN,
    SUIT_SIDE,
    NULL_SUIT,
    NULL_WORST,
    SUIT_DISCARD_KEY,
    SUIT_DISCARD_RANK,
    NULL_DISCARD_KEY,
    NULL_DISCARD_RANK,
) = _build()
