"""Hand features, discards and the win-probability model of the heuristic bot.

A hand is judged per *game class* — suit game (relative to its trump suit),
Grand, Null, Null ouvert, and the reversed game (Sächsische Spitze, RULES.md §6,
judged as the Grand its mirror image would be: the cards mapped rank for rank
onto the Grand order, DJ to CJ, 7 to A, 8 to 10, ...) — by a few features a Skat player counts (trumps,
jacks, aces, guarded tens, voids, losers; for Null the cards that can be
caught). A logistic model per class and situation turns the features into
a win probability. Its coefficients come from self-play
(``scripts/calibrate_bots.py``) and ship in ``calibration.json``.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import kernel, lowest_bit, popcount
from ..cards import ACE, CARD_POINTS, JACK, KING, QUEEN, SUIT_MASKS, TEN
from ..gametypes import BASE_VALUE, GRAND, NULL, POWER, REVERSED, TRUMPS
from ..scoring import HAND, OUVERT, matadors, null_value
from .cardsel import bit, lowest

# Game classes (rows of the model table come in blocks of N_SITUATIONS per class).
SUIT_CLASS, GRAND_CLASS, NULL_CLASS, NULL_OUVERT_CLASS, REVERSED_CLASS = range(5)
N_CLASSES = 5
# Situations: judging 10 cards before the skat is seen (to pick it up), to play
# hand, and after pickup with the final 10 cards and the 2 discards known.
BEFORE_PICKUP, HAND_GAME, AFTER_PICKUP = range(3)
N_SITUATIONS = 3
N_FEATURES = 14
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
)
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
)

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


@kernel
def _suit_row(t: int, cards: np.uint32, out: np.ndarray) -> None:
    """Suit-game features with trump suit ``t`` (``t == GRAND``: jacks only)."""
    plain = cards & ~_JACK_MASK
    jacks = popcount(cards & _JACK_MASK)
    out[2] = jacks
    out[3] = 1.0 if cards & _CLUB_JACK else 0.0
    out[4] = 1.0 if cards & _SPADE_JACK else 0.0
    aces = 0.0
    tens = 0.0
    voids = 0.0
    losers = 0.0
    pairs = 0.0
    longest = 0.0
    for s in range(4):
        n = popcount(plain & SUIT_MASKS[s])
        ace = popcount(cards & bit(s * 8 + ACE))
        ten = popcount(cards & bit(s * 8 + TEN))
        if s == t:
            out[1] = jacks + n
            out[5] = ace + ten
            continue
        if n == 0:
            voids += 1.0
            continue
        aces += ace
        pairs += ace * ten
        longest = max(longest, float(n))
        if ten and (ace or n >= 3):
            tens += 1.0
        losers += max(min(n, 3) - ace - ten * ace, 0)
    if t == GRAND:
        out[1] = jacks
        out[5] = 0.0
    out[6] = aces
    out[7] = tens
    out[8] = voids
    out[9] = losers
    out[12] = pairs
    out[13] = longest


@kernel
def _null_row(cards: np.uint32, out: np.ndarray) -> None:
    """Null features: a card is at risk when fewer of the player's own cards lie below it in its
    suit than could be led under it (the k-th lowest card of rank r is risky if r > 2k)."""
    risky = 0.0
    suits = 0.0
    worst = 0.0
    voids = 0.0
    safe = 0.0
    high = 0.0
    for s in range(4):
        mine = (cards >> np.uint32(8 * s)) & np.uint32(0xFF)
        if mine == 0:
            voids += 1.0
            continue
        k = 0
        suit_risky = 0.0
        for r in range(8):
            if (mine >> np.uint32(r)) & np.uint32(1):
                gap = r - 2 * k
                if gap > 0:
                    suit_risky += 1.0
                    worst = max(worst, float(gap))
                if r >= 6:
                    high += 1.0
                k += 1
        risky += suit_risky
        if suit_risky > 0:
            suits += 1.0
        else:
            safe += 1.0
    out[1] = risky
    out[2] = suits
    out[3] = worst
    out[4] = voids
    out[5] = safe
    out[6] = high


#: Rows of the matrix filled by :func:`candidate_features`: four suit games, Grand, Null, reversed.
NULL_ROW = 5
REVERSED_ROW = 6
N_ROWS = 7


@kernel
def row_of(gt: int) -> int:
    """Row of game type ``gt`` in the candidate feature matrix."""
    if gt == NULL:
        return NULL_ROW
    if gt == REVERSED:
        return REVERSED_ROW
    return gt


@kernel
def row_features(gt: int, cards: np.uint32, skat_points: float, seat: int, out: np.ndarray) -> None:
    """Fill ``out[N_FEATURES]`` with the features of ``cards`` for game type ``gt``."""
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
def candidate_features(
    cards: np.uint32, skat_points: float, seat: int, x: np.ndarray, reversed_ok: bool = False
) -> None:
    """Features of ``cards`` for every game type into ``x[N_ROWS, N_FEATURES]``: rows 0-3 the
    suit games, 4 Grand, 5 Null, 6 the reversed game (only when ``reversed_ok``)."""
    for row in range(GRAND + 1):
        row_features(row, cards, skat_points, seat, x[row])
    row_features(NULL, cards, skat_points, seat, x[NULL_ROW])
    if reversed_ok:
        row_features(REVERSED, cards, skat_points, seat, x[REVERSED_ROW])


@kernel
def logit(model: np.ndarray, cls: int, situation: int, x: np.ndarray) -> float:
    """The model's log-odds of a win for class ``cls`` in ``situation`` with features ``x``."""
    row = cls * N_SITUATIONS + situation
    z = 0.0
    for k in range(N_FEATURES):
        z += model[row, k] * x[k]
    return z


@kernel
def win_probability(model: np.ndarray, cls: int, situation: int, x: np.ndarray) -> float:
    """Logistic model: P(win) for class ``cls`` in ``situation`` with features ``x``."""
    return 1.0 / (1.0 + math.exp(-logit(model, cls, situation, x)))


@kernel
def _pick_suit_discard(gt: int, cards: np.uint32) -> int:
    """The plain card a suit or Grand declarer puts back first; -1 when he holds only trumps.

    Scores ``12 - 4 x (cards left in its suit)`` (short suits first, to make voids) plus a rank
    bonus: an unguarded ten +8 in a suit of at most two (+2 in a longer one: its points are safe
    in the skat), king +2, queen +1.5, 7-8-9 0, a ten beside its ace -30, an ace -50. Ties go
    to the lower card, then the lower suit.
    """
    best = -1
    best_score = -1e9
    best_power = 99
    plain = cards & ~TRUMPS[gt]
    for s in range(4):
        side = (plain >> np.uint32(8 * s)) & np.uint32(0xFF)
        if side == 0:
            continue
        n = popcount(side)
        ace = (side >> np.uint32(ACE)) & np.uint32(1)
        ten = (side >> np.uint32(TEN)) & np.uint32(1)
        if ten and not ace and n <= 2:
            r, bonus = TEN, 8.0
        elif (side >> np.uint32(KING)) & np.uint32(1):
            r, bonus = KING, 2.0
        elif ten and not ace:
            r, bonus = TEN, 2.0
        elif (side >> np.uint32(QUEEN)) & np.uint32(1):
            r, bonus = QUEEN, 1.5
        elif side & np.uint32(0b111):
            r, bonus = lowest_bit(side), 0.0
        elif ten:
            r, bonus = TEN, -30.0
        else:
            r, bonus = ACE, -50.0
        score = 12.0 - 4.0 * n + bonus
        power = POWER[GRAND, r]
        if score > best_score or (score == best_score and power < best_power):
            best, best_score, best_power = s * 8 + r, score, power
    return best


@kernel
def _pick_null_discard(cards: np.uint32) -> int:
    """The card a Null declarer puts back first: the one most easily caught.

    The ``k``-th lowest card (rank ``r``, ranks 0..7 from the seven) of a suit of ``n`` cards
    scores ``4 x (r - 2k) + r - n``: high cards with few low cards beneath them first. Ties go
    to the lower rank, then the lower suit.
    """
    best = -1
    best_score = -(1 << 20)
    best_rank = 99
    for s in range(4):
        mine = (cards >> np.uint32(8 * s)) & np.uint32(0xFF)
        n = popcount(mine)
        k = 0
        while mine:
            r = lowest_bit(mine)
            mine &= mine - np.uint32(1)
            score = 4 * (r - 2 * k) + r - n
            if score > best_score or (score == best_score and r < best_rank):
                best, best_score, best_rank = s * 8 + r, score, r
            k += 1
    return best


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
