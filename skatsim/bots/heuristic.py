"""The ``heuristic`` bot's bidding and declaring (its card play is :mod:`skatsim.bots.cardplay`).

For every game it could play — four suits, Grand, Null, Null ouvert; hand
or with the skat — the bot estimates its win probability with the
calibrated model of :mod:`skatsim.bots.handeval` and reckons the value it
can bid from its own cards. It bids up to the highest value among the games
it would win with probability at least ``risk``. Having won the bid it
plays hand when a hand game is safe enough (``hand_risk``), otherwise picks
up the skat and declares the game with the best expected score that reaches
the bid, after choosing its discards for each candidate game.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import kernel
from ..gametypes import GRAND, NULL
from ..scoring import HAND, OUVERT, base_value, matadors, null_value
from ..tricks import card_points
from .handeval import (
    AFTER_PICKUP,
    BEFORE_PICKUP,
    GRAND_CLASS,
    HAND_GAME,
    NULL_CLASS,
    NULL_OUVERT_CLASS,
    NULL_ROW,
    bidding_value,
    candidate_features,
    choose_discard,
    class_of,
    logit,
    row_features,
)

# Parameter vector of the heuristic bot (see skatsim.bots registry for the docs).
P_RISK, P_HAND_RISK, P_GRAND_BIAS, P_NULL_BIAS, P_SUIT_BIAS, P_OUVERT_BIAS, P_WIN_BONUS = range(7)

# Candidate declarations: game type and ouvert flag (Null ouvert is its own candidate).
N_CANDIDATES = 7
_CANDIDATE_GT = np.array([0, 1, 2, 3, GRAND, NULL, NULL], dtype=np.int64)
_CANDIDATE_OUVERT = np.array([0, 0, 0, 0, 0, 0, 1], dtype=np.int64)


@kernel
def _bias(bot: np.ndarray, cls: int) -> float:
    if cls == NULL_OUVERT_CLASS:
        return bot[P_NULL_BIAS] + bot[P_OUVERT_BIAS]
    if cls == NULL_CLASS:
        return bot[P_NULL_BIAS]
    if cls == GRAND_CLASS:
        return bot[P_GRAND_BIAS]
    return bot[P_SUIT_BIAS]


@kernel
def _logit_of(p: float) -> float:
    p = min(max(p, 1e-9), 1.0 - 1e-9)
    return math.log(p / (1.0 - p))


@kernel
def _z(model: np.ndarray, bot: np.ndarray, k: int, situation: int, x: np.ndarray) -> float:
    """Biased log-odds of candidate ``k`` in ``situation`` from the candidate feature matrix."""
    gt = _CANDIDATE_GT[k]
    cls = class_of(gt, _CANDIDATE_OUVERT[k] == 1)
    row = NULL_ROW if gt == NULL else gt
    return logit(model, cls, situation, x[row]) + _bias(bot, cls)


@kernel
def bid_limit(model: np.ndarray, bot: np.ndarray, cards: np.uint32, seat: int, x: np.ndarray) -> int:
    """Highest value the bot will bid or hold with these 10 cards (0 = pass at once).

    A game counts when its win probability with the skat reaches ``risk``; its hand
    version (worth one multiplier more) only when that game counts and the hand
    probability reaches ``hand_risk``. ``x`` is scratch space of shape ``(N_ROWS, N_FEATURES)``.
    """
    candidate_features(cards, 0.0, seat, x)
    z_pickup = _logit_of(bot[P_RISK])
    z_hand = _logit_of(bot[P_HAND_RISK])
    limit = 0
    for k in range(N_CANDIDATES):
        if _z(model, bot, k, BEFORE_PICKUP, x) < z_pickup:
            continue
        gt = _CANDIDATE_GT[k]
        ouvert = _CANDIDATE_OUVERT[k] == 1
        limit = max(limit, bidding_value(gt, cards, False, ouvert))
        value = bidding_value(gt, cards, True, ouvert)
        if value > limit and _z(model, bot, k, HAND_GAME, x) >= z_hand:
            limit = value
    return limit


@kernel
def _expected(z: float, value: int, bid: int, unit: int, bonus: float) -> float:
    """Expected score of a declaration: +value (+bonus) won, -2 x value (-bonus) lost."""
    if value < bid:
        charged = (bid + unit - 1) // unit * unit
        return -2.0 * charged - bonus
    p = 1.0 / (1.0 + math.exp(-z))
    return p * (value + bonus) - (1.0 - p) * (2.0 * value + bonus)


@kernel
def declare(
    model: np.ndarray, bot: np.ndarray, hand: np.uint32, skat: np.uint32, seat: int, bid: int, x: np.ndarray
) -> tuple[int, int, np.uint32]:
    """Hand or pickup, discards and declaration: returns ``(game_type, flags, declarer_skat)``.

    ``x`` is scratch space of shape ``(N_ROWS, N_FEATURES)``.
    """
    candidate_features(hand, 0.0, seat, x)
    z_hand = _logit_of(bot[P_HAND_RISK])
    best_k = -1
    best_ev = -1e18
    for k in range(N_CANDIDATES):
        gt = _CANDIDATE_GT[k]
        value = bidding_value(gt, hand, True, _CANDIDATE_OUVERT[k] == 1)
        if value < bid:
            continue
        z = _z(model, bot, k, HAND_GAME, x)
        if z < z_hand:
            continue
        ev = _expected(z, value, bid, 1, bot[P_WIN_BONUS])
        if ev > best_ev:
            best_k, best_ev = k, ev
    if best_k >= 0:
        flags = HAND | (OUVERT if _CANDIDATE_OUVERT[best_k] else 0)
        return _CANDIDATE_GT[best_k], flags, skat
    twelve = hand | skat
    best_discard = np.uint32(0)
    discard = np.uint32(0)
    for k in range(N_CANDIDATES):
        gt = _CANDIDATE_GT[k]
        ouvert = _CANDIDATE_OUVERT[k] == 1
        if not (ouvert and gt == NULL and _CANDIDATE_GT[k - 1] == NULL):
            discard = choose_discard(gt, twelve)  # Null ouvert keeps the discards of Null
        row = NULL_ROW if gt == NULL else gt
        row_features(gt, twelve & ~discard, float(card_points(discard)), seat, x[row])
        flags = OUVERT if ouvert else 0
        if gt == NULL:
            value = null_value(flags)
        else:
            value = base_value(gt, flags) * (abs(matadors(gt, twelve)) + 1)
        ev = _expected(_z(model, bot, k, AFTER_PICKUP, x), value, bid, base_value(gt, flags), bot[P_WIN_BONUS])
        if ev > best_ev:
            best_k, best_ev, best_discard = k, ev, discard
    flags = OUVERT if _CANDIDATE_OUVERT[best_k] else 0
    return _CANDIDATE_GT[best_k], flags, best_discard
