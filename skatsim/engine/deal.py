"""Counter-based randomness and the deal (RULES.md §1).

Every random number is a pure function of ``(seed, game index, stream)``:
a SplitMix64 key is derived from the three and advanced by a counter. So any
game can be regenerated alone, in any order, on any worker, and the deal of
game ``i`` is the same under every variant and every bot (common random
numbers for paired comparisons).

A deal is stored as 32 two-bit owner codes packed in one ``int64``
(bit ``2c``: 0 forehand, 1 middlehand, 2 rearhand, 3 skat).
"""

from __future__ import annotations

import numpy as np

from .._jit import allocating_kernel, kernel

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)

#: Stream ids: independent random sequences within one game.
STREAM_DEAL = 0
STREAM_BOTS = 1
STREAM_LIST = 2
#: What-if rollouts (:mod:`skatsim.whatif`): the world sampled for rollout ``i`` (the unknown cards),
#: and the bots' stream of its play (the same for every alternative tried on that world).
STREAM_WORLD = 3
STREAM_ROLLOUT_BOTS = 4

SKAT_OWNER = 3


@kernel
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64 finaliser: a bijective scrambling of 64 bits."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@kernel
def stream_key(seed: np.uint64, index: np.uint64, stream: int) -> np.uint64:
    """The starting key of one random stream of one game."""
    return mix64(mix64(seed ^ mix64(np.uint64(stream) * _GOLDEN + _GOLDEN)) + index * _GOLDEN)


@kernel
def draw(rng: np.ndarray) -> np.uint64:
    """Next 64 random bits of the stream whose counter is ``rng[0]`` (``rng`` holds 2 uint64)."""
    rng[0] += _GOLDEN
    return mix64(rng[0])


_HALF_READY = np.uint64(1 << 32)


@kernel
def draw32(rng: np.ndarray) -> np.uint64:
    """Next 32 random bits; each 64-bit draw serves two calls (``rng[1]`` keeps the spare half)."""
    spare = rng[1]
    if spare:
        rng[1] = np.uint64(0)
        return spare & _LOW32
    bits = draw(rng)
    rng[1] = _HALF_READY | (bits >> np.uint64(32))
    return bits & _LOW32


@kernel
def below(rng: np.ndarray, n: int) -> int:
    """A uniform int in ``[0, n)`` (multiply-shift on 32 random bits; bias < 2**-27)."""
    return np.int64((draw32(rng) * np.uint64(n)) >> np.uint64(32))


@allocating_kernel
def deal_cards(seed: np.uint64, index: np.uint64, hands: np.ndarray) -> np.uint32:
    """Deal game ``index``: fills ``hands[0..2]`` (FH, MH, RH) and returns the skat mask."""
    return deal_into(seed, index, hands, np.empty(32, dtype=np.int64))


@kernel
def deal_into(seed: np.uint64, index: np.uint64, hands: np.ndarray, deck: np.ndarray) -> np.uint32:
    """:func:`deal_cards` with a caller-owned 32-slot scratch ``deck`` (no allocation in hot loops)."""
    for c in range(32):
        deck[c] = c
    key = stream_key(seed, index, STREAM_DEAL)
    bits = np.uint64(0)
    for i in range(31, 0, -1):
        if i % 2 == 1:
            key += _GOLDEN
            bits = mix64(key)
        j = np.int64(((bits & _LOW32) * np.uint64(i + 1)) >> np.uint64(32))
        bits >>= np.uint64(32)
        deck[i], deck[j] = deck[j], deck[i]
    for seat in range(3):
        m = np.uint32(0)
        for k in range(10):
            m |= np.uint32(1) << np.uint32(deck[seat * 10 + k])
        hands[seat] = m
    return (np.uint32(1) << np.uint32(deck[30])) | (np.uint32(1) << np.uint32(deck[31]))


@kernel
def deal_game(
    seed: np.uint64, index: np.uint64, hands: np.ndarray, skat: np.ndarray, deck: np.ndarray, rng: np.ndarray
) -> None:
    """Deal game ``index`` into ``hands`` and ``skat[0]``, and start its bots' random stream ``rng``."""
    skat[0] = deal_into(seed, index, hands, deck)
    rng[0] = stream_key(seed, index, STREAM_BOTS)
    rng[1] = 0


@kernel
def _spread(mask: np.uint32) -> np.uint64:
    """Move bit ``c`` of a 32-bit mask to bit ``2c`` of a 64-bit word (bit interleaving)."""
    x = np.uint64(mask)
    x = (x | (x << np.uint64(16))) & np.uint64(0x0000FFFF0000FFFF)
    x = (x | (x << np.uint64(8))) & np.uint64(0x00FF00FF00FF00FF)
    x = (x | (x << np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    x = (x | (x << np.uint64(2))) & np.uint64(0x3333333333333333)
    x = (x | (x << np.uint64(1))) & np.uint64(0x5555555555555555)
    return x


@kernel
def pack_deal(hands: np.ndarray, skat: np.uint32) -> np.int64:
    """Pack a deal as 32 two-bit owner codes in one int64 (0 FH, 1 MH, 2 RH, 3 skat: the low bit
    of a code marks middlehand or skat, the high bit rearhand or skat)."""
    low = _spread(np.uint32(hands[1]) | skat)
    high = _spread(np.uint32(hands[2]) | skat)
    return np.int64(low | (high << np.uint64(1)))


@kernel
def unpack_deal(packed: np.int64, hands: np.ndarray) -> np.uint32:
    """Inverse of :func:`pack_deal`: fills ``hands`` and returns the skat mask."""
    bits = np.uint64(packed)
    skat = np.uint32(0)
    for seat in range(3):
        hands[seat] = 0
    for c in range(32):
        owner = np.int64((bits >> np.uint64(2 * c)) & np.uint64(3))
        if owner == SKAT_OWNER:
            skat |= np.uint32(1) << np.uint32(c)
        else:
            hands[owner] |= np.uint32(1) << np.uint32(c)
    return skat


@kernel
def unpack_hands(packed: np.ndarray, hands: np.ndarray) -> None:
    """``hands[i]``: forehand's, middlehand's and rearhand's cards of deal ``packed[i]`` (:func:`unpack_deal`),
    for a block of deals at once (``hands``: ``(n, 3)`` uint32)."""
    for i in range(packed.shape[0]):
        unpack_deal(packed[i], hands[i])


@kernel
def record_order(packed: np.ndarray, out: np.ndarray, hands: np.ndarray) -> None:
    """``out[i]``: the 32 cards of deal ``packed[i]`` in a game record's order (forehand's ten,
    middlehand's, rearhand's, each ascending, then the skat's two), for a block of deals at once;
    ``hands``: three uint32 of scratch."""
    for i in range(packed.shape[0]):
        skat = unpack_deal(packed[i], hands)
        k = 0
        for owner in range(SKAT_OWNER + 1):
            mask = skat if owner == SKAT_OWNER else hands[owner]
            for c in range(32):
                if mask >> np.uint32(c) & np.uint32(1):
                    out[i, k] = c
                    k += 1
