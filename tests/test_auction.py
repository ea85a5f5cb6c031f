"""The outcome model sees the auction at the declaration (docs/bots.md, "Outcome probabilities").

The auction bucket is how many of the declarer's two opponents bid or held a value
(:func:`skatsim.bots.handeval.auction_bucket`); the model adds a log-odds term per class, situation
and bucket (:data:`skatsim.bots.winprob.AUCTION`) where the auction is known (the declaration), and
none where it is not yet (the bid ceiling).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from handmade import mask as _mask

from skatsim.bots import bot_arrays, heuristic, seam, slots
from skatsim.bots.handeval import (
    BEFORE_PICKUP,
    GRAND_CLASS,
    HAND_GAME,
    N_AUCTION,
    N_CLASSES,
    N_SITUATIONS,
    NO_AUCTION,
    auction_bucket,
)
from skatsim.bots.winprob import AUCTION, auction_z
from skatsim.engine import bidding
from skatsim.variant import load_variant

VARIANTS = Path(__file__).resolve().parents[1] / "variants"
FH, MH, RH = 0, 1, 2


def _auction(limits: tuple[int, int, int]) -> np.ndarray:
    state = np.zeros(bidding.N_FIELDS, dtype=np.int64)
    bidding.run_bidding(state, np.array(limits, dtype=np.int64))
    return state


@pytest.mark.parametrize(
    ("limits", "declarer", "bucket"),
    [
        ((0, 0, 18), RH, 0),  # middlehand and forehand pass at once: rearhand plays at 18
        ((0, 0, 0), -1, 0),  # all pass
        ((18, 0, 0), FH, 0),  # forehand plays at 18 after two passes
        ((20, 0, 30), RH, 1),  # middlehand passes, forehand holds up to 20 against rearhand
        ((24, 18, 0), FH, 1),  # forehand holds middlehand's 18 (and outbids him), rearhand passes
        ((30, 22, 27), FH, 2),  # both others bid or hold before forehand wins at 27
        ((0, 36, 20), MH, 1),  # rearhand bids up to 20 against middlehand, forehand passed at once
    ],
)
def test_the_auction_bucket_counts_the_declarers_opponents_who_bid_or_held(
    limits: tuple[int, int, int], declarer: int, bucket: int
) -> None:
    state = _auction(limits)
    assert state[bidding.DECLARER] == declarer
    if declarer >= 0:
        assert auction_bucket(state, declarer) == bucket


def test_the_auction_table_has_a_term_per_class_situation_and_bucket_and_none_when_not_known() -> None:
    assert AUCTION.shape == (N_CLASSES * N_SITUATIONS, N_AUCTION)
    for row in range(N_CLASSES * N_SITUATIONS):
        assert auction_z(row, NO_AUCTION) == 0.0
        for b in range(N_AUCTION):
            assert auction_z(row, b) == AUCTION[row, b]


def test_a_grand_hand_is_likelier_won_after_two_passes_than_after_a_contested_auction() -> None:
    """Two early passes leave the defenders weaker cards than the self-play average, a contested
    auction stronger ones: in the calibration's samples (150,000 deals of seed 2024) the Grand hand
    is won more often after two passes, and the term says so, for the same hand."""
    row = GRAND_CLASS * N_SITUATIONS + HAND_GAME
    assert AUCTION[row, 0] > AUCTION[row, 1]
    before = GRAND_CLASS * N_SITUATIONS + BEFORE_PICKUP
    assert AUCTION[before, 0] > AUCTION[before, 1]


def _prepared(name: str) -> tuple[np.ndarray, np.ndarray]:
    params = load_variant(VARIANTS / f"{name}.yaml").variant.params()
    kinds, rows = bot_arrays(("heuristic",) * 3, params)
    return seam.prepare(kinds, rows, params)[0], params


def test_the_declarations_log_odds_carry_the_auctions_term_and_the_bid_ceilings_do_not() -> None:
    """Declaring after an auction adds its term to every candidate's log-odds, with the skat and hand;
    without an auction (``NO_AUCTION``, the default) they are those the bid ceiling works out."""
    bot, _ = _prepared("official")
    hand = _mask("D8 DK DA HJ HA ST SK SA C7 CT")
    n = 2 * heuristic.N_CANDIDATES
    heuristic._fill_logits(bot, hand, FH, True)
    plain = bot[slots.V_LOGITS : slots.V_LOGITS + n].copy()
    heuristic._fill_logits(bot, hand, FH, True, NO_AUCTION)
    assert np.array_equal(bot[slots.V_LOGITS : slots.V_LOGITS + n], plain)
    for bucket in range(N_AUCTION):
        heuristic._fill_logits(bot, hand, FH, True, bucket)
        seen = bot[slots.V_LOGITS : slots.V_LOGITS + n]
        for k in range(heuristic.N_CANDIDATES):
            cls = heuristic._CANDIDATE_CLASS[k]
            before, hand_row = cls * N_SITUATIONS + BEFORE_PICKUP, cls * N_SITUATIONS + HAND_GAME
            assert seen[k] == pytest.approx(plain[k] + AUCTION[before, bucket], abs=1e-12)
            h = heuristic.N_CANDIDATES + k
            assert seen[h] == pytest.approx(plain[h] + AUCTION[hand_row, bucket], abs=1e-12)
