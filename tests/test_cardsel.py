"""The bots' card-selection helpers agree with a plain scan over the power table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatsim.bots.cardsel import cheapest, highest, lowest, richest
from skatsim.engine.cards import CARD_POINTS, SUIT_MASKS
from skatsim.engine.gametypes import GRAND, N_GAME_TYPES, NULL, POWER, TRUMP_POWER


def _scan(gt: int, mask: int, pick) -> int:  # type: ignore[no-untyped-def]
    cards = [c for c in range(32) if mask >> c & 1]
    if not cards:
        return -1
    best = pick(POWER[gt, c] for c in cards)
    return next(c for c in cards if POWER[gt, c] == best)  # ties: the lowest card, i.e. the lowest suit


def _by_key(gt: int, mask: int, sign: int) -> int:
    """Scan for the card with the fewest (sign 1) or most (sign -1) points; plain cards before
    trumps, then the lowest power, then the lowest card."""
    cards = [c for c in range(32) if mask >> c & 1]
    if not cards:
        return -1
    return min(cards, key=lambda c: (POWER[gt, c] >= TRUMP_POWER, sign * CARD_POINTS[c], POWER[gt, c], c))


@settings(max_examples=3000, derandomize=True, deadline=None)  # the first call compiles
@given(st.integers(0, N_GAME_TYPES - 1), st.integers(0, 2**32 - 1))
def test_card_rankings_match_a_scan_of_the_tables(gt: int, mask: int) -> None:
    assert highest(gt, np.uint32(mask)) == _scan(gt, mask, max)
    assert lowest(gt, np.uint32(mask)) == _scan(gt, mask, min)
    assert cheapest(gt, np.uint32(mask)) == _by_key(gt, mask, 1)
    assert richest(gt, np.uint32(mask)) == _by_key(gt, mask, -1)


def _discard_reference(gt: int, twelve: int) -> int:
    """The suit/Grand discard rule as first written: score every plain card, keep the best."""
    from skatsim.engine.gametypes import GROUP_MASK, TRUMPS

    points = {3: 10, 5: 3, 6: 4}
    discard, cards = 0, twelve
    for _ in range(2):
        plain = [c for c in range(32) if cards >> c & 1 and not int(TRUMPS[gt]) >> c & 1]
        if not plain:
            trumps = [c for c in range(32) if cards >> c & 1]
            best = min(trumps, key=lambda c: (POWER[gt, c], c))
        else:
            best, best_key = -1, None
            for c in sorted(plain, key=lambda c: (POWER[gt, c], c)):
                side = cards & int(GROUP_MASK[gt, c // 8]) & ~int(TRUMPS[gt])
                n = bin(side).count("1")
                score = 12.0 - 4.0 * n
                if c % 8 == 7:
                    score -= 50.0
                elif c % 8 == 3:
                    score += -30.0 if side >> (c // 8 * 8 + 7) & 1 else (8.0 if n <= 2 else 2.0)
                else:
                    score += points.get(c % 8, 0) * 0.5
                if best_key is None or score > best_key:
                    best, best_key = c, score
        discard |= 1 << best
        cards &= ~(1 << best)
    return discard


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.integers(0, 4), st.lists(st.integers(0, 31), min_size=12, max_size=12, unique=True))
def test_suit_discards_follow_the_scoring_rule(gt: int, cards: list[int]) -> None:
    from skatsim.bots.handeval import choose_discard

    twelve = sum(1 << c for c in cards)
    assert int(choose_discard(gt, np.uint32(twelve))) == _discard_reference(gt, twelve)


def _null_discard_reference(twelve: int) -> int:
    """The Null discard rule as first written: score every card, keep the best (ties: low rank)."""
    discard, cards = 0, twelve
    for _ in range(2):
        best, best_score = -1, None
        for c in sorted((c for c in range(32) if cards >> c & 1), key=lambda c: (c % 8, c // 8)):
            mine = cards >> (8 * (c // 8)) & 0xFF
            below = bin(mine & ((1 << (c % 8)) - 1)).count("1")
            score = (c % 8 - 2 * below) * 4.0 + c % 8 - bin(mine).count("1")
            if best_score is None or score > best_score:
                best, best_score = c, score
        discard |= 1 << best
        cards &= ~(1 << best)
    return discard


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.lists(st.integers(0, 31), min_size=12, max_size=12, unique=True))
def test_null_discards_follow_the_scoring_rule(cards: list[int]) -> None:
    from skatsim.bots.handeval import choose_discard
    from skatsim.engine.gametypes import NULL

    twelve = sum(1 << c for c in cards)
    assert int(choose_discard(NULL, np.uint32(twelve))) == _null_discard_reference(twelve)


#: The holdings of a suit without its jack (bit 4), in increasing order of their byte.
_PLAIN_HOLDINGS = [b for b in range(256) if not b >> 4 & 1]


def _features_reference(gt: int, cards: int) -> list[float]:
    """The hand features as first written: a scan of each suit's cards (RULES.md ranks 0..7 = 7..A)."""
    from skatsim.engine.gametypes import GRAND, NULL

    x = [0.0] * 160
    x[0] = 1.0
    suit = [cards >> (8 * s) & 0xFF for s in range(4)]
    if gt == NULL:
        for b in suit:
            if b == 0:
                x[4] += 1
                continue
            ranks = [r for r in range(8) if b >> r & 1]
            gaps = [r - 2 * k for k, r in enumerate(ranks) if r - 2 * k > 0]
            x[1] += len(gaps)
            x[2] += bool(gaps)
            x[3] = max(x[3], max(gaps, default=0))
            x[5] += not gaps
            x[6] += sum(r >= 6 for r in ranks)
        return x
    jacks = [s for s in range(4) if suit[s] >> 4 & 1]
    x[2] = len(jacks)
    x[3], x[4] = float(3 in jacks), float(2 in jacks)
    x[1] = len(jacks)
    for s, b in enumerate(suit):
        plain = b & ~(1 << 4)
        n, ace, ten = bin(plain).count("1"), plain >> 7 & 1, plain >> 3 & 1
        if s == gt:
            x[1] += n
            x[5] = ace + ten
            continue
        x[32 + _PLAIN_HOLDINGS.index(plain)] += 1  # the side suit's holding, counted as a whole
        if n == 0:
            x[8] += 1
        else:
            x[6] += ace
            x[7] += bool(ten and (ace or n >= 3))
            x[9] += max(min(n, 3) - ace - ten * ace, 0)
            x[12] += ace * ten
            x[13] = max(x[13], n)
    assert gt <= GRAND
    if len(jacks) >= 2:  # the jack count's own constant and side-suit features
        first = 14 + 6 * (len(jacks) - 2)
        x[first : first + 6] = [1.0, x[6], x[7], x[8], x[9], x[12]]
    return x


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.integers(0, 5), st.lists(st.integers(0, 31), min_size=10, max_size=12, unique=True))
def test_hand_features_count_what_a_scan_of_the_suits_counts(gt: int, cards: list[int]) -> None:
    """The table-driven features (skatsim.bots.suitstats) equal a plain count, suit by suit."""
    from skatsim.bots.handeval import N_FEATURES, row_features

    mask = sum(1 << c for c in cards)
    out = np.zeros(N_FEATURES)
    row_features(gt, np.uint32(mask), 0.0, 1, out)
    assert out.tolist() == _features_reference(gt, mask)


@settings(max_examples=1500, derandomize=True, deadline=None)
@given(
    st.integers(0, 7),
    st.integers(0, 2),
    st.lists(st.integers(0, 31), min_size=10, max_size=10, unique=True),
    st.integers(0, 30),
    st.integers(0, 2),
)
def test_tabulated_log_odds_equal_the_model_applied_to_the_features(
    k: int, situation: int, cards: list[int], skat_points: int, seat: int
) -> None:
    """game_logit (per-suit tables) is the calibrated model times row_features, for every candidate game."""
    from skatsim.bots.handeval import N_FEATURES, N_SITUATIONS, row_features
    from skatsim.bots.heuristic import _CANDIDATE_CLASS, _CANDIDATE_GT
    from skatsim.bots.winprob import COEFFICIENTS, game_logit

    mask = np.uint32(sum(1 << c for c in cards))
    gt, cls = int(_CANDIDATE_GT[k]), int(_CANDIDATE_CLASS[k])
    x = np.zeros(N_FEATURES)
    row_features(gt, mask, float(skat_points), seat, x)
    expected = float(COEFFICIENTS[cls * N_SITUATIONS + situation] @ x)
    assert game_logit(cls, situation, gt, mask, float(skat_points), seat) == pytest.approx(expected, abs=1e-9)


@settings(max_examples=500, derandomize=True, deadline=None)
@given(st.integers(0, 1), st.lists(st.integers(0, 31), min_size=10, max_size=10, unique=True), st.integers(0, 2))
def test_four_suit_log_odds_at_once_equal_one_at_a_time(situation: int, cards: list[int], seat: int) -> None:
    """suit_logits shares the lookups of the four suit games and gives exactly game_logit's values."""
    from skatsim.bots.handeval import SUIT_CLASS
    from skatsim.bots.winprob import game_logit, suit_logits

    mask = np.uint32(sum(1 << c for c in cards))
    one_by_one = [game_logit(SUIT_CLASS, situation, t, mask, 0.0, seat) for t in range(4)]
    assert list(suit_logits(situation, mask, seat)) == one_by_one


@settings(max_examples=500, derandomize=True, deadline=None)
@given(st.lists(st.integers(0, 31), min_size=10, max_size=10, unique=True), st.integers(0, 30), st.integers(0, 2))
def test_four_suit_log_odds_after_the_pickup_at_once_equal_one_at_a_time(
    cards: list[int], skat_points: int, seat: int
) -> None:
    """suit_logits_after shares the lookups of the four suit games after the pickup and gives exactly
    game_logit's values."""
    from skatsim.bots.handeval import AFTER_PICKUP, SUIT_CLASS
    from skatsim.bots.winprob import game_logit, suit_logits_after

    mask = np.uint32(sum(1 << c for c in cards))
    one_by_one = [game_logit(SUIT_CLASS, AFTER_PICKUP, t, mask, float(skat_points), seat) for t in range(4)]
    assert list(suit_logits_after(mask, float(skat_points), seat)) == one_by_one


@settings(max_examples=500, derandomize=True, deadline=None)
@given(
    st.integers(0, 2),
    st.lists(st.integers(0, 31), min_size=10, max_size=10, unique=True),
    st.integers(0, 30),
    st.integers(0, 2),
)
def test_null_log_odds_at_once_equal_one_at_a_time(
    situation: int, cards: list[int], skat_points: int, seat: int
) -> None:
    """null_logits shares the lookups of Null and Null ouvert and gives exactly game_logit's values."""
    from skatsim.bots.handeval import NULL_CLASS, NULL_OUVERT_CLASS
    from skatsim.bots.winprob import game_logit, null_logits

    mask = np.uint32(sum(1 << c for c in cards))
    points = float(skat_points)
    one_by_one = [game_logit(c, situation, NULL, mask, points, seat) for c in (NULL_CLASS, NULL_OUVERT_CLASS)]
    assert list(null_logits(situation, mask, points, seat)) == one_by_one


@settings(max_examples=500, derandomize=True, deadline=None)
@given(st.lists(st.integers(0, 31), min_size=12, max_size=12, unique=True))
def test_a_suit_game_discards_as_grand_unless_a_discard_is_a_trump(cards: list[int]) -> None:
    """declare_after_pickup gives a suit game Grand's discards when neither lies in its trump suit:
    choose_discard for that suit would put back the same two cards."""
    from skatsim.bots.handeval import choose_discard

    twelve = np.uint32(sum(1 << c for c in cards))
    grand = int(choose_discard(GRAND, twelve))
    for t in range(4):
        if not grand & int(SUIT_MASKS[t]):
            assert int(choose_discard(t, twelve)) == grand


@settings(max_examples=1500, derandomize=True, deadline=None)
@given(st.integers(0, 7), st.lists(st.integers(0, 31), min_size=10, max_size=10, unique=True), st.integers(0, 2))
def test_hand_log_odds_exceed_the_log_odds_with_the_skat_by_at_most_the_hand_gap(
    k: int, cards: list[int], seat: int
) -> None:
    """The hand gap for the seat and the hand's jacks bounds how far a candidate's hand log-odds exceed
    its log-odds before the pickup (the bound the heuristic skips hand games by)."""
    from skatsim.bots.handeval import BEFORE_PICKUP, HAND_GAME, REVERSED_CLASS, mirror
    from skatsim.bots.heuristic import _CANDIDATE_CLASS, _CANDIDATE_GT
    from skatsim.bots.winprob import HAND_GAPS, game_logit, jack_bits

    mask = np.uint32(sum(1 << c for c in cards))
    gt, cls = int(_CANDIDATE_GT[k]), int(_CANDIDATE_CLASS[k])
    gap = game_logit(cls, HAND_GAME, gt, mask, 0.0, seat) - game_logit(cls, BEFORE_PICKUP, gt, mask, 0.0, seat)
    jacks = jack_bits(mirror(mask) if cls == REVERSED_CLASS else mask)  # as game_logit reads them
    assert gap <= HAND_GAPS[cls, int(seat == 0), jacks]


def test_the_shipped_hand_gaps_are_those_of_the_shipped_model() -> None:
    """calibration.json's hand gaps are :func:`hand_gaps` of its own coefficients, a shade above (so that
    rounding never makes one too small), for every class, seat and set of jacks."""
    from skatsim.bots.winprob import COEFFICIENTS, HAND_GAPS, TABLES, hand_gaps

    exact = hand_gaps(COEFFICIENTS, TABLES)
    assert HAND_GAPS.shape == exact.shape == (5, 2, 16)
    assert np.all(HAND_GAPS >= exact)
    assert np.all(HAND_GAPS - exact < 2e-6)


@pytest.fixture(scope="module")
def prepared_rows() -> dict[str, np.ndarray]:
    """A default heuristic bot's prepared row under the official rules and under a variant with the
    reversed game (its hand floor bounds by the largest gap over every jacks), and one that misjudges
    Null hands."""
    from skatsim.bots import bot_arrays, parse_bots, seam
    from skatsim.variant import load_variant

    variants = Path(__file__).resolve().parents[1] / "variants"
    rows = {}
    for key, name, bots in (
        ("official", "official", "heuristic"),
        ("saechsische_spitze", "saechsische_spitze", "heuristic"),
        ("misjudging", "official", "heuristic:null_hand_spread=1.5:ouvert_hand_bias=0.4"),
    ):
        params = load_variant(variants / f"{name}.yaml").variant.params()
        kinds, bot_params = bot_arrays(parse_bots(bots), params)
        rows[key] = seam.prepare(kinds, bot_params, params)[0]
    return rows


@settings(max_examples=1500, derandomize=True, deadline=None)
@given(
    st.sampled_from(["official", "saechsische_spitze", "misjudging"]),
    st.integers(0, 7),
    st.lists(st.integers(0, 31), min_size=10, max_size=10, unique=True),
    st.integers(0, 2),
)
def test_a_hand_floor_bounds_the_hand_log_odds(
    prepared_rows: dict[str, np.ndarray], variant: str, k: int, cards: list[int], seat: int
) -> None:
    """The hand floor of a prepared row is the least hand threshold less the hand bias, the hand gap
    (for the reversed game, the largest gap over every jacks) and for Null hand the spread of its
    misjudgement, so that log-odds with the skat under it leave the hand log-odds, biased and misjudged
    as the bot biases and misjudges them, under that threshold."""
    from skatsim.bots.expected import hand_bias, hand_floors, least_slot
    from skatsim.bots.handeval import BEFORE_PICKUP, HAND_GAME, NULL_CLASS, REVERSED_CLASS
    from skatsim.bots.heuristic import _CANDIDATE_CLASS, _CANDIDATE_GT, _CANDIDATE_OUVERT, _z
    from skatsim.bots.slots import P_NULL_HAND_SPREAD, V_ZMIN_PASS
    from skatsim.bots.winprob import HAND_GAPS, jack_bits

    bot = prepared_rows[variant]
    mask = np.uint32(sum(1 << c for c in cards))
    gt, cls = int(_CANDIDATE_GT[k]), int(_CANDIDATE_CLASS[k])
    ls = least_slot(gt, True, bool(_CANDIDATE_OUVERT[k]))
    floor = bot[hand_floors(mask, seat) + ls]
    gaps = HAND_GAPS[cls, int(seat == 0)]
    gap = gaps.max() if cls == REVERSED_CLASS else gaps[jack_bits(mask)]
    spread = bot[P_NULL_HAND_SPREAD] if cls == NULL_CLASS else 0.0
    assert floor == bot[V_ZMIN_PASS + ls] - hand_bias(bot, cls) - spread - gap
    rise = _z(bot, k, HAND_GAME, mask, 0.0, seat) - _z(bot, k, BEFORE_PICKUP, mask, 0.0, seat)
    assert rise <= bot[V_ZMIN_PASS + ls] - floor
