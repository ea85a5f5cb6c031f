"""What a hand is worth in a Ramsch: the features of the heuristic bot's Ramsch models.

A Ramsch (RULES.md §6) punishes tricks and points: jacks (the top trumps) and aces and tens
without low cards beside them take tricks whoever leads; sevens and eights, voids and long
suits of low cards let a player duck. :func:`features` counts that for a ten-card hand; the
variant's calibration (:mod:`skatsim.bots.variantcal`, self-play of the variant's own Ramsch)
fits two linear models over them, stored in the bot's row (:mod:`skatsim.bots.slots`):

* ``CAL_RAMSCH``: the seat's expected score in the Ramsch that follows when all pass, from the
  hand it was dealt (pushes and their doubling included): the value of passing
  (:func:`skatsim.bots.heuristic.pass_value`) and what a Grand hand instead of a Ramsch is
  weighed against;
* ``CAL_PUSH``: a Schieberamsch's score per unit of its doubling, from the hand a seat ends with:
  what a push improves (:func:`skatsim.bots.heuristic.push`).
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel, lowest_bit, popcount
from ..engine.cards import ACE, EIGHT, JACK, KING, NINE, QUEEN, SEVEN, TEN
from .cardsel import bit
from .slots import N_RAMSCH_FEATURES, N_SCRATCH, V_SCRATCH

FEATURE_NAMES = (
    "bias",
    "forehand",
    "middlehand",
    "club_jack",
    "spade_jack",
    "heart_jack",
    "diamond_jack",
    "aces",
    "tens",
    "kings",
    "queens",
    "nines",
    "eights",
    "voids",
    "long_suits",
    "suits_without_low_card",
)
assert len(FEATURE_NAMES) == N_RAMSCH_FEATURES <= N_SCRATCH

_BYTE = np.uint32(0xFF)
_PLAIN = np.uint32(0xFF & ~(1 << JACK))
_LOW = np.uint32((1 << SEVEN) | (1 << EIGHT))

#: The ranks whose plain cards the model counts, in the order of their features (``aces`` .. ``eights``,
#: from index ``_FIRST_RANK_FEATURE``), and per rank its feature's index (-1: the seven, not counted;
#: the jack has a feature per suit instead). :func:`features` and :func:`card_weight` both read them.
_COUNTED_RANKS = np.array([ACE, TEN, KING, QUEEN, NINE, EIGHT], dtype=np.int64)
_FIRST_RANK_FEATURE = FEATURE_NAMES.index("aces")
_RANK_FEATURE = np.full(8, -1, dtype=np.int64)
_RANK_FEATURE[_COUNTED_RANKS] = _FIRST_RANK_FEATURE + np.arange(len(_COUNTED_RANKS))


@kernel
def _rank_count(cards: np.uint32, rank: int) -> int:
    """How many plain cards of ``rank`` (not a jack) the mask holds."""
    return popcount(cards & np.uint32(0x01010101 << rank))


@kernel
def features(cards: np.uint32, seat: int, out: np.ndarray) -> None:
    """Fill ``out[N_RAMSCH_FEATURES]`` with the Ramsch features of ``cards`` held at ``seat``."""
    out[0] = 1.0
    out[1] = 1.0 if seat == 0 else 0.0
    out[2] = 1.0 if seat == 1 else 0.0
    for s in range(4):  # clubs, spades, hearts, diamonds: the jacks from the top
        out[3 + s] = 1.0 if cards & bit((3 - s) * 8 + JACK) else 0.0
    for k in range(_COUNTED_RANKS.size):
        out[_FIRST_RANK_FEATURE + k] = _rank_count(cards, _COUNTED_RANKS[k])
    voids = 0
    long = 0
    no_low = 0
    for s in range(4):
        b = (cards >> np.uint32(8 * s)) & _PLAIN
        n = popcount(b)
        if n == 0:
            voids += 1
        elif b & _LOW == 0:
            no_low += 1
        if n >= 4:
            long += 1
    out[13] = voids
    out[14] = long
    out[15] = no_low


@kernel
def value(bot: np.ndarray, slot: int, cards: np.uint32, seat: int) -> float:
    """The linear model at ``bot[slot : slot + N_RAMSCH_FEATURES]`` for ``cards`` at ``seat``."""
    scratch = bot[V_SCRATCH : V_SCRATCH + N_RAMSCH_FEATURES]
    features(cards, seat, scratch)
    v = 0.0
    for k in range(N_RAMSCH_FEATURES):
        v += bot[slot + k] * scratch[k]
    return v


@kernel
def card_weight(bot: np.ndarray, slot: int, c: int) -> float:
    """What one card adds to the model's count features (its jack's or its rank's weight)."""
    if c % 8 == JACK:
        return bot[slot + 3 + (3 - c // 8)]
    f = _RANK_FEATURE[c % 8]
    return bot[slot + f] if f >= 0 else 0.0


@kernel
def unseen_mean(bot: np.ndarray, slot: int, unseen: np.uint32) -> float:
    """The mean of :func:`card_weight` over the cards of ``unseen``: what a card from there adds."""
    n = popcount(unseen)
    if n == 0:
        return 0.0
    total = 0.0
    m = unseen
    while m:
        c = lowest_bit(m)
        m &= m - np.uint32(1)
        total += card_weight(bot, slot, c)
    return total / n
