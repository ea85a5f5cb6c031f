"""Hand features and discards of the heuristic bot.

A hand is judged per *game class* — suit game (relative to its trump suit),
Grand, Null, Null ouvert, and the reversed game (Sächsische Spitze, RULES.md §6,
judged as the Grand its mirror image would be: the cards mapped rank for rank
onto the Grand order, DJ to CJ, 7 to A, 8 to 10, ...) — by a few features a Skat player counts (trumps,
jacks, aces, guarded tens, voids, losers; for Null the cards that can be
caught), counted per suit from the tables of :mod:`skatsim.bots.suitstats`.
A logistic model per class and situation (:mod:`skatsim.bots.winprob`) turns
the features into a win probability; its coefficients come from self-play
(``scripts/calibrate_bots.py``) and ship in ``calibration.json``.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel, lowest_bit, popcount
from ..engine.cards import ACE, CARD_POINTS, JACK, KING, QUEEN, SUIT_MASKS, TEN
from ..engine.gametypes import BASE_VALUE, GRAND, NULL, POWER, REVERSED, TRUMPS
from ..engine.scoring import HAND, OUVERT, matadors, null_value
from .cardsel import bit, lowest
from .suitstats import (
    LANE_ACES,
    LANE_HIGH,
    LANE_LOSERS,
    LANE_NULL_VOIDS,
    LANE_PAIRS,
    LANE_RISKY,
    LANE_RISKY_SUITS,
    LANE_SAFE_SUITS,
    LANE_TENS_GUARDED,
    LANE_VOIDS,
    N_PLAIN,
    NO_DISCARD,
    NULL_DISCARD_KEY,
    NULL_DISCARD_RANK,
    NULL_SUIT,
    NULL_WORST,
    SUIT_DISCARD_KEY,
    SUIT_DISCARD_RANK,
    SUIT_SIDE,
    TRUMP_ACE_TEN,
)

# Game classes (rows of the model table come in blocks of N_SITUATIONS per class).
SUIT_CLASS, GRAND_CLASS, NULL_CLASS, NULL_OUVERT_CLASS, REVERSED_CLASS = range(5)
N_CLASSES = 5
# Situations: judging 10 cards before the skat is seen (to pick it up), to play
# hand, and after pickup with the final 10 cards and the 2 discards known.
BEFORE_PICKUP, HAND_GAME, AFTER_PICKUP = range(3)
N_SITUATIONS = 3
#: Side-suit features that also enter per jack count (:data:`JACK_GROUPS`), in this order.
SIDE_FEATURES = (6, 7, 8, 9, 12)
#: Jack counts with side-suit weights and a constant of their own (fewer jacks: the base weights).
#: What the side suits are worth depends on the jacks beside them, which a sum of the two misses
#: (docs/bots.md, "Outcome probabilities").
JACK_GROUPS = (2, 3, 4)
#: Per jack group: its constant, then the side-suit features of :data:`SIDE_FEATURES` again.
GROUP_WIDTH = 1 + len(SIDE_FEATURES)
FIRST_GROUP_FEATURE = 14
#: Then one feature per holding of a side suit (its cards but the jack, 128 holdings): how many
#: side suits are held so. Counts and sums miss what a holding is worth as a whole (A-10-K-Q-9
#: stands, A-10-9 has a loser), above all in a Grand hand.
FIRST_HOLDING_FEATURE = FIRST_GROUP_FEATURE + GROUP_WIDTH * len(JACK_GROUPS)
N_HOLDINGS = 128
N_FEATURES = FIRST_HOLDING_FEATURE + N_HOLDINGS
_GROUP_NAMES = tuple(
    f"{name}_{jacks}_jacks"
    for jacks in JACK_GROUPS
    for name in ("constant", "side_aces", "side_tens_guarded", "side_voids", "side_losers", "side_ace_ten_suits")
)
_HOLDING_NAMES = tuple(
    "side_holding_" + ("".join("789TJQKA"[r] for r in range(7, -1, -1) if b >> r & 1) or "void")
    for b in range(256)
    if not b >> JACK & 1
)
FEATURE_NAMES = (
    "bias",
    "trumps",
    "jacks",
    "club_jack",
    "spade_jack",
    "trump_ace_ten",
    "side_aces",
    "side_tens_guarded",
    "side_voids",
    "side_losers",
    "skat_points",
    "forehand",
    "side_ace_ten_suits",
    "longest_side_suit",
) + _GROUP_NAMES + _HOLDING_NAMES
NULL_FEATURE_NAMES = (
    "bias",
    "risky_cards",
    "risky_suits",
    "worst_risk",
    "voids",
    "safe_suits",
    "high_cards",
    "unused",
    "unused",
    "unused",
    "skat_points",
    "forehand",
    "unused",
    "unused",
) + ("unused",) * (N_FEATURES - FIRST_GROUP_FEATURE)


@kernel
def holding_index(b: int) -> int:
    """A suit byte's holding without its jack, numbered 0..127 (:data:`N_HOLDINGS`): the bits below
    the jack's, then those above it shifted down by one."""
    low = b & ((1 << JACK) - 1)
    return low | ((b >> (JACK + 1)) << JACK)


_JACK_MASK = np.uint32(sum(1 << (s * 8 + JACK) for s in range(4)))
_CLUB_JACK = np.uint32(1 << (3 * 8 + JACK))
_SPADE_JACK = np.uint32(1 << (2 * 8 + JACK))


@kernel
def class_of(gt: int, flags_ouvert: bool) -> int:
    """Game class of a game type (suit games share one class)."""
    if gt == NULL:
        return NULL_OUVERT_CLASS if flags_ouvert else NULL_CLASS
    if gt == GRAND:
        return GRAND_CLASS
    if gt == REVERSED:
        return REVERSED_CLASS
    return SUIT_CLASS


def _mirror_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per byte of one suit, its plain cards moved to the ranks of equal trick power in Grand
    (reversed 7 8 9 10 Q K A, highest first, onto Grand A 10 K Q 9 8 7), and back."""
    reversed_high_first = [0, 1, 2, 3, 5, 6, 7]  # 7 8 9 10 Q K A
    grand_high_first = [ACE, TEN, KING, QUEEN, 2, 1, 0]  # A 10 K Q 9 8 7
    forward = np.zeros(256, dtype=np.uint32)
    back = np.zeros(256, dtype=np.uint32)
    for b in range(256):
        for r, g in zip(reversed_high_first, grand_high_first, strict=True):
            if b >> r & 1:
                forward[b] |= np.uint32(1 << g)
            if b >> g & 1:
                back[b] |= np.uint32(1 << r)
    return forward, back


_MIRROR, _UNMIRROR = _mirror_tables()


@kernel
def _mirrored(cards: np.uint32, table: np.ndarray) -> np.uint32:
    out = np.uint32(0)
    for s in range(4):
        plain = (cards >> np.uint32(8 * s)) & np.uint32(0xEF)  # the suit's byte without its jack
        out |= table[plain] << np.uint32(8 * s)
        if cards & bit(s * 8 + JACK):
            out |= bit((3 - s) * 8 + JACK)  # DJ <-> CJ, HJ <-> SJ
    return out


@kernel
def mirror(cards: np.uint32) -> np.uint32:
    """A reversed-game hand as the Grand hand of equal trick power (DJ -> CJ, 7 -> A, 8 -> 10, ...)."""
    return _mirrored(cards, _MIRROR)


@kernel
def unmirror(cards: np.uint32) -> np.uint32:
    """Inverse of :func:`mirror`."""
    return _mirrored(cards, _UNMIRROR)


_BYTE = np.uint32(0xFF)
_LANE = 0xFF


@kernel
def _suit_row(t: int, cards: np.uint32, out: np.ndarray) -> None:
    """Suit-game features with trump suit ``t`` (``t == GRAND``: jacks only), from the per-suit
    tables of :mod:`skatsim.bots.suitstats`."""
    jacks = popcount(cards & _JACK_MASK)
    out[2] = jacks
    out[3] = 1.0 if cards & _CLUB_JACK else 0.0
    out[4] = 1.0 if cards & _SPADE_JACK else 0.0
    trumps = jacks
    trump_ace_ten = 0
    side = 0
    longest = 0
    for s in range(4):
        b = (cards >> np.uint32(8 * s)) & _BYTE
        if s == t:
            trumps += N_PLAIN[b]
            trump_ace_ten = TRUMP_ACE_TEN[b]
        else:
            side += SUIT_SIDE[b]
            longest = max(longest, N_PLAIN[b])
            out[FIRST_HOLDING_FEATURE + holding_index(b)] += 1.0
    out[1] = trumps
    out[5] = trump_ace_ten
    out[6] = (side >> LANE_ACES) & _LANE
    out[7] = (side >> LANE_TENS_GUARDED) & _LANE
    out[8] = (side >> LANE_VOIDS) & _LANE
    out[9] = (side >> LANE_LOSERS) & _LANE
    out[12] = (side >> LANE_PAIRS) & _LANE
    out[13] = longest
    if jacks >= JACK_GROUPS[0]:
        first = FIRST_GROUP_FEATURE + GROUP_WIDTH * (jacks - JACK_GROUPS[0])
        out[first] = 1.0
        for i in range(len(SIDE_FEATURES)):
            out[first + 1 + i] = out[SIDE_FEATURES[i]]


@kernel
def _null_row(cards: np.uint32, out: np.ndarray) -> None:
    """Null features (risky cards and suits, the worst risk, voids, safe suits, high cards; see
    :func:`skatsim.bots.suitstats.null_counts`)."""
    packed = 0
    worst = 0
    for s in range(4):
        b = (cards >> np.uint32(8 * s)) & _BYTE
        packed += NULL_SUIT[b]
        worst = max(worst, NULL_WORST[b])
    out[1] = (packed >> LANE_RISKY) & _LANE
    out[2] = (packed >> LANE_RISKY_SUITS) & _LANE
    out[3] = worst
    out[4] = (packed >> LANE_NULL_VOIDS) & _LANE
    out[5] = (packed >> LANE_SAFE_SUITS) & _LANE
    out[6] = (packed >> LANE_HIGH) & _LANE


@kernel
def row_features(gt: int, cards: np.uint32, skat_points: float, seat: int, out: np.ndarray) -> None:
    """Fill ``out[N_FEATURES]`` with the features of ``cards`` for game type ``gt`` (the samples
    the model is fitted on, ``scripts/calibrate_bots.py``)."""
    out[:] = 0.0
    out[0] = 1.0
    out[10] = skat_points
    out[11] = 1.0 if seat == 0 else 0.0
    if gt == NULL:
        _null_row(cards, out)
    elif gt == REVERSED:
        _suit_row(GRAND, mirror(cards), out)
    else:
        _suit_row(gt, cards, out)


@kernel
def _table_discard(cards: np.uint32, keys: np.ndarray, ranks: np.ndarray, skip_suit: int) -> int:
    """The best-scored card of ``cards`` by a per-suit table (:mod:`skatsim.bots.suitstats`): for a suit
    holding the cards of byte ``b``, ``keys[b]`` scores its best candidate and ``ranks[b]`` is that card's
    rank. Suit ``skip_suit`` (the trump suit; -1: none) is passed over; a tie keeps the lower suit; -1 when
    no suit offers a card."""
    best = -1
    best_key = NO_DISCARD
    for s in range(4):
        if s == skip_suit:
            continue
        b = (cards >> np.uint32(8 * s)) & _BYTE
        if keys[b] > best_key:
            best, best_key = s * 8 + ranks[b], keys[b]
    return best


@kernel
def _pick_suit_discard(gt: int, cards: np.uint32) -> int:
    """The plain card a suit or Grand declarer puts back first; -1 when he holds only trumps.

    Scores ``12 - 4 x (cards left in its suit)`` (short suits first, to make voids) plus a rank
    bonus: an unguarded ten +8 in a suit of at most two (+2 in a longer one: its points are safe
    in the skat), king +2, queen +1.5, 7-8-9 0, a ten beside its ace -30, an ace -50. Ties go
    to the lower card, then the lower suit. Each suit's choice and score is a table entry
    (:data:`skatsim.bots.suitstats.SUIT_DISCARD_KEY`).
    """
    return _table_discard(cards, SUIT_DISCARD_KEY, SUIT_DISCARD_RANK, gt)


@kernel
def _pick_null_discard(cards: np.uint32) -> int:
    """The card a Null declarer puts back first: the one most easily caught.

    The ``k``-th lowest card (rank ``r``, ranks 0..7 from the seven) of a suit of ``n`` cards
    scores ``4 x (r - 2k) + r - n``: high cards with few low cards beneath them first. Ties go
    to the lower rank, then the lower suit (:data:`skatsim.bots.suitstats.NULL_DISCARD_KEY`).
    """
    return _table_discard(cards, NULL_DISCARD_KEY, NULL_DISCARD_RANK, -1)


@kernel
def _pick_reversed_discard(cards: np.uint32) -> int:
    """The plain card a reversed-game declarer puts back first; -1 when he holds only jacks.

    Aces and tens are the weakest cards there but carry most points, so the skat banks them:
    a card scores its points plus ``12 - 4 x (cards left in its suit)``, and the seven (the top
    of its suit) -50. Ties go to the weaker card.
    """
    best = -1
    best_score = -1e9
    plain = cards & ~TRUMPS[REVERSED]
    m = plain
    while m:
        c = lowest_bit(m)
        m &= m - np.uint32(1)
        n = popcount(plain & SUIT_MASKS[c // 8])
        score = CARD_POINTS[c] + 12.0 - 4.0 * n - (50.0 if c % 8 == 0 else 0.0)
        if score > best_score or (score == best_score and POWER[REVERSED, c] < POWER[REVERSED, best]):
            best, best_score = c, score
    return best


@kernel
def choose_discard(gt: int, twelve: np.uint32) -> np.uint32:
    """The two cards a declarer of ``gt`` puts back: keep trumps and aces, make voids, save points;
    in Null shed the cards that can be caught; in the reversed game bank aces and tens."""
    discard = np.uint32(0)
    cards = twelve
    for _ in range(2):
        if gt == NULL:
            best = _pick_null_discard(cards)
        elif gt == REVERSED:
            best = _pick_reversed_discard(cards)
            if best < 0:
                best = lowest(gt, cards)
        else:
            best = _pick_suit_discard(gt, cards)
            if best < 0:
                best = lowest(gt, cards)
        discard |= bit(best)
        cards &= ~bit(best)
    return discard


@kernel
def bidding_value(gt: int, cards: np.uint32, hand: bool, ouvert: bool) -> int:
    """What a hand is reckoned at before the skat is seen: base value x (matadors + 1, + 1 for
    hand) from its own cards, or the Null value."""
    if gt == NULL:
        return null_value(HAND * hand + OUVERT * ouvert)
    return BASE_VALUE[gt] * (abs(matadors(gt, cards)) + 1 + hand)
