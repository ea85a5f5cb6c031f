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

import numpy as np

from .._jit import kernel
from ..gametypes import GRAND, NULL
from ..scoring import HAND, OUVERT, base_value, matadors
from ..tricks import card_points
from .handeval import (
    AFTER_PICKUP,
    BEFORE_PICKUP,
    HAND_GAME,
    N_FEATURES,
    NULL_CLASS,
    NULL_OUVERT_CLASS,
    bidding_value,
    choose_discard,
    class_of,
    features,
    win_probability,
)

# Parameter vector of the heuristic bot (see skatsim.bots registry for the docs).
P_RISK, P_HAND_RISK, P_GRAND_BIAS, P_NULL_BIAS, P_SUIT_BIAS = range(5)

# Candidate declarations: game type and ouvert flag (Null ouvert is its own candidate).
N_CANDIDATES = 7
_CANDIDATE_GT = np.array([0, 1, 2, 3, GRAND, NULL, NULL], dtype=np.int64)
_CANDIDATE_OUVERT = np.array([0, 0, 0, 0, 0, 0, 1], dtype=np.int64)


@kernel
def _bias(bot: np.ndarray, cls: int) -> float:
    if cls == NULL_CLASS or cls == NULL_OUVERT_CLASS:
        return bot[P_NULL_BIAS]
    if cls == 1:
        return bot[P_GRAND_BIAS]
    return bot[P_SUIT_BIAS]


@kernel
def _p(
    model: np.ndarray,
    bot: np.ndarray,
    k: int,
    situation: int,
    cards: np.uint32,
    skat_pts: float,
    seat: int,
    x: np.ndarray,
) -> float:
    gt = _CANDIDATE_GT[k]
    cls = class_of(gt, _CANDIDATE_OUVERT[k] == 1)
    features(gt, cards, skat_pts, seat, x)
    p = win_probability(model, cls, situation, x)
    b = _bias(bot, cls)
    if b != 0.0:
        odds = p / max(1.0 - p, 1e-9) * np.exp(b)
        p = odds / (1.0 + odds)
    return p


@kernel
def bid_limit(model: np.ndarray, bot: np.ndarray, cards: np.uint32, seat: int) -> int:
    """Highest value the bot will bid or hold with these 10 cards (0 = pass at once)."""
    x = np.zeros(N_FEATURES)
    limit = 0
    for k in range(N_CANDIDATES):
        gt = _CANDIDATE_GT[k]
        ouvert = _CANDIDATE_OUVERT[k] == 1
        if _p(model, bot, k, BEFORE_PICKUP, cards, 0.0, seat, x) >= bot[P_RISK]:
            limit = max(limit, bidding_value(gt, cards, False, ouvert))
        if _p(model, bot, k, HAND_GAME, cards, 0.0, seat, x) >= bot[P_HAND_RISK]:
            limit = max(limit, bidding_value(gt, cards, True, ouvert))
    return limit


@kernel
def _expected(p: float, value: int, bid: int, unit: int) -> float:
    if value < bid:
        charged = (bid + unit - 1) // unit * unit
        return -2.0 * charged
    return p * value - (1.0 - p) * 2.0 * value


@kernel
def declare(
    model: np.ndarray, bot: np.ndarray, hand: np.uint32, skat: np.uint32, seat: int, bid: int
) -> tuple[int, int, np.uint32]:
    """Hand or pickup, discards and declaration: returns ``(game_type, flags, declarer_skat)``."""
    x = np.zeros(N_FEATURES)
    best_k = -1
    best_ev = -1e18
    for k in range(N_CANDIDATES):
        gt = _CANDIDATE_GT[k]
        ouvert = _CANDIDATE_OUVERT[k] == 1
        value = bidding_value(gt, hand, True, ouvert)
        if value < bid:
            continue
        p = _p(model, bot, k, HAND_GAME, hand, 0.0, seat, x)
        if p < bot[P_HAND_RISK]:
            continue
        ev = _expected(p, value, bid, 1)
        if ev > best_ev:
            best_k, best_ev = k, ev
    if best_k >= 0:
        gt = _CANDIDATE_GT[best_k]
        flags = HAND | (OUVERT if _CANDIDATE_OUVERT[best_k] else 0)
        return gt, flags, skat
    twelve = hand | skat
    best_discard = np.uint32(0)
    for k in range(N_CANDIDATES):
        gt = _CANDIDATE_GT[k]
        ouvert = _CANDIDATE_OUVERT[k] == 1
        discard = choose_discard(gt, twelve)
        cards = twelve & ~discard
        flags = OUVERT if ouvert else 0
        if gt == NULL:
            value = 46 if ouvert else 23
        else:
            value = base_value(gt, flags) * (abs(matadors(gt, twelve)) + 1)
        p = _p(model, bot, k, AFTER_PICKUP, cards, float(card_points(discard)), seat, x)
        ev = _expected(p, value, bid, base_value(gt, flags))
        if ev > best_ev:
            best_k, best_ev, best_discard = k, ev, discard
    flags = OUVERT if _CANDIDATE_OUVERT[best_k] else 0
    return _CANDIDATE_GT[best_k], flags, best_discard
