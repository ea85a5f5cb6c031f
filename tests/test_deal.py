"""The deal (RULES.md §1): 10/10/10/2, a pure function of (seed, index), packing, uniformity."""

from __future__ import annotations

import math

import numpy as np
import pytest

from skatsim.engine.cards import format_cards, from_mask
from skatsim.engine.deal import SKAT_OWNER, deal_cards, pack_deal, record_order, unpack_deal

SEEDS = (0, 1, 12345, 2**63 + 7, 2**64 - 1)


def _deal(seed: int, index: int) -> tuple[np.ndarray, int]:
    """FH/MH/RH masks and the skat mask of game ``index`` under ``seed``."""
    hands = np.zeros(3, dtype=np.uint32)
    skat = deal_cards(np.uint64(seed), np.uint64(index), hands)
    return hands, int(skat)


def _deals(seed: int, n: int) -> np.ndarray:
    """Masks of ``n`` consecutive deals as an ``(n, 4)`` array: FH, MH, RH, skat."""
    out = np.zeros((n, 4), dtype=np.uint32)
    hands = np.zeros(3, dtype=np.uint32)
    for i in range(n):
        out[i, 3] = deal_cards(np.uint64(seed), np.uint64(i), hands)
        out[i, :3] = hands
    return out


def _owners(masks: np.ndarray) -> np.ndarray:
    """Owner (0 FH, 1 MH, 2 RH, 3 skat) of every card in every deal: an ``(n, 32)`` array."""
    bits = (masks[:, :, None] >> np.arange(32, dtype=np.uint32)) & np.uint32(1)  # (n, 4, 32)
    assert np.all(bits.sum(axis=1) == 1), "every card has exactly one owner"
    return bits.argmax(axis=1)


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_is_10_10_10_2_and_covers_the_pack(seed: int) -> None:
    """Three hands of 10 and a skat of 2, pairwise disjoint, together all 32 cards."""
    for index in (0, 1, 2, 999, 2**40, 2**64 - 1):
        hands, skat = _deal(seed, index)
        parts = [int(h) for h in hands] + [skat]
        assert [p.bit_count() for p in parts] == [10, 10, 10, 2]
        union = 0
        for p in parts:
            assert union & p == 0
            union |= p
        assert union == 0xFFFFFFFF


def test_deal_is_a_pure_function_of_seed_and_index() -> None:
    """The same (seed, index) always gives the same deal; another index or seed another deal."""
    first = _deals(7, 200)
    again = _deals(7, 200)
    assert np.array_equal(first, again)
    assert len({tuple(row) for row in first.tolist()}) == 200  # 200 indices, 200 different deals
    other_seed = _deals(8, 200)
    assert not np.any(np.all(first == other_seed, axis=1))
    # order of generation does not matter: game 150 alone equals game 150 of the run
    hands, skat = _deal(7, 150)
    assert hands.tolist() + [skat] == first[150].tolist()


@pytest.mark.parametrize("index", [0, 1, 17, 4096])
def test_pack_unpack_round_trip(index: int) -> None:
    """pack_deal stores one 2-bit owner code per card; unpack_deal restores the masks."""
    hands, skat = _deal(3, index)
    packed = int(pack_deal(hands, np.uint32(skat)))
    restored = np.zeros(3, dtype=np.uint32)
    assert int(unpack_deal(np.int64(packed), restored)) == skat
    assert restored.tolist() == hands.tolist()
    bits = packed & 0xFFFFFFFFFFFFFFFF  # the int64 as 64 unsigned bits
    for c in range(32):
        owner = bits >> (2 * c) & 3
        expected = SKAT_OWNER if skat >> c & 1 else next(s for s in range(3) if int(hands[s]) >> c & 1)
        assert owner == expected


def test_record_order_lists_each_hand_then_the_skat() -> None:
    """record_order gives each packed deal's cards as a game record lists them: forehand's ten,
    middlehand's, rearhand's, each ascending, then the skat; the same as the masks unpack_deal gives."""
    packed = []
    expected = []
    for index in range(200):
        hands, skat = _deal(11, index)
        packed.append(int(pack_deal(hands, np.uint32(skat))))
        masks = [int(h) for h in hands] + [int(skat)]
        expected.append([c for m in masks for c in range(32) if m >> c & 1])
    out = np.zeros((len(packed), 32), dtype=np.int8)
    record_order(np.array(packed, dtype=np.int64), out, np.zeros(3, dtype=np.uint32))
    assert out.tolist() == expected


def test_from_mask_lists_the_cards_of_bits_0_to_31() -> None:
    """from_mask: the set bits of a mask, ascending; bits above the 32 cards are not cards."""
    rng = np.random.default_rng(5)
    masks = [0, 1, 1 << 31, (1 << 32) - 1, (1 << 40) | 5, -1, *(int(m) for m in rng.integers(0, 1 << 32, 2000))]
    for m in masks:
        assert from_mask(m) == [c for c in range(32) if m >> c & 1], m


def test_pack_known_deal() -> None:
    """A hand-made deal packs to the owner codes written out by hand."""
    hands = np.array([0x000003FF, 0x000FFC00, 0x3FF00000], dtype=np.uint32)  # cards 0-9, 10-19, 20-29
    skat = np.uint32(0xC0000000)  # cards 30, 31
    expected = sum((0 if c < 10 else 1 if c < 20 else 2 if c < 30 else 3) << (2 * c) for c in range(32))
    assert int(pack_deal(hands, skat)) & 0xFFFFFFFFFFFFFFFF == expected


def test_cards_are_spread_uniformly() -> None:
    """Over 20,000 deals each card is in the skat 1/16 of the time and with each seat 10/32.

    Each count is binomial(n, p); every card must lie within 5 binomial SDs of n p, and
    the chi-square statistic over all 32 x 4 (card, owner) cells must stay below the
    mean + 6 SD of its distribution (df = 31 x 3 = 93 free cells, SD sqrt(2 df)).
    The seed is fixed, so the test is deterministic.
    """
    n = 20_000
    owners = _owners(_deals(2024, n))
    counts = np.stack([(owners == o).sum(axis=0) for o in range(4)], axis=1)  # (32 cards, 4 owners)
    probs = np.array([10, 10, 10, 2]) / 32
    expected = n * probs
    sd = np.sqrt(n * probs * (1 - probs))
    assert np.all(counts.sum(axis=1) == n)
    assert np.all(np.abs(counts - expected) < 5 * sd), np.abs(counts - expected).max(axis=0) / sd
    skat_sd = math.sqrt(n * (1 / 16) * (15 / 16))
    assert np.all(np.abs(counts[:, 3] - n / 16) < 5 * skat_sd)
    chi2 = float((((counts - expected) ** 2) / expected).sum())
    df = 31 * 3
    assert chi2 < df + 6 * math.sqrt(2 * df), chi2
    # and not suspiciously perfect either (a stratified, non-random deal would give chi2 ~ 0)
    assert chi2 > df - 6 * math.sqrt(2 * df), chi2


@pytest.mark.parametrize(
    ("seed", "index", "fh", "mh", "rh", "skat"),
    [
        (1, 0,
         "CK CT C9 C8 SK ST S9 HA DK DT", "CQ C7 SA SQ SJ H9 H8 DQ DJ D9", "CA CJ S8 S7 HK HT H7 DA D8 D7", "HQ HJ"),
        (1, 999_999,
         "CA C9 C8 SK HA HT H8 DQ D9 D7", "CQ SA SQ ST S8 S7 HK H9 H7 DA", "CK CJ CT C7 SJ S9 HQ HJ DK D8", "DJ DT"),
        (2**64 - 1, 12,
         "CA C9 C8 SK ST HT H8 H7 DA DQ", "CQ C7 SA S9 HA HQ HJ H9 DT D9", "CK CJ CT SQ SJ S8 S7 HK DJ D7", "DK D8"),
    ],
)  # fmt: skip
def test_a_deal_is_pinned_by_its_seed_and_index(seed: int, index: int, fh: str, mh: str, rh: str, skat: str) -> None:
    """Three deals written out. Every result of every run rests on them: a change to the generator (the
    mixing, the stream keys, the shuffle) would pass the tests of uniformity and self-consistency above
    and change every figure, so it has to fail here and be made on purpose."""
    hands, skat_mask = _deal(seed, index)
    assert [format_cards(int(h)) for h in hands] == [fh, mh, rh]
    assert format_cards(skat_mask) == skat
