"""Self-play calibration of the heuristic bot's card-play models (``calibration.json``).

For many deals, the bots bid as usual (official rules, the current model); the seat that
wins the auction then plays every candidate game (four suits, Grand, Null, Null ouvert),
once hand and once after picking up the skat, against heuristic defenders. Calibrating on
auction winners, not on random hands, accounts for what the auction reveals: a declarer who
had to bid high faces a strong opponent. Each play-out gives samples ``(class, situation,
features, outcome)`` (:func:`calibration_samples`; the outcome is one of the six the scoring
tells apart, :data:`skatsim.bots.winprob.O_WON` ...): a logistic regression per class and
situation gives the log-odds of winning, and on them the ordinal outcome model
(:data:`skatsim.bots.winprob.OUTCOME_MODELS`). The defenders' model
(:mod:`skatsim.bots.defence`) is fitted on the declared games of ordinary self-play
(:func:`defence_samples`). Run it with ``python scripts/calibrate_bots.py``.
"""

from __future__ import annotations

import numpy as np

from .._jit import allocating_kernel, kernel
from ..engine import bidding, play
from ..engine.deal import deal_cards, unpack_deal
from ..engine.declaration import normalise_flags
from ..engine.flow import new_record, play_cards
from ..engine.gametypes import NULL
from ..engine.layout import COL_BID, COL_DEAL, COL_DECLARER, COL_GAME_TYPE, COL_HAND, COL_OUVERT, COL_WON, LOG_WIDTH
from ..engine.result import POINTS, TRICKS, WON, declared_result
from ..engine.scoring import HAND, OUVERT
from ..engine.state import new_state
from ..engine.tricks import card_points
from . import HEURISTIC
from .defence import N_DEFENCE_FEATURES
from .defence import features as defence_features
from .handeval import (
    AFTER_PICKUP,
    BEFORE_PICKUP,
    HAND_GAME,
    N_FEATURES,
    N_SITUATIONS,
    choose_discard,
    class_of,
    row_features,
)
from .heuristic import _CANDIDATE_GT, _CANDIDATE_OUVERT, N_CANDIDATES, contested_ceiling
from .winprob import O_LOST, O_LOST_SCHNEIDER, O_LOST_SCHWARZ, O_WON, O_WON_SCHNEIDER, O_WON_SCHWARZ

SAMPLES_PER_DEAL = N_CANDIDATES * 3


@allocating_kernel
def calibration_samples(
    seed: np.uint64,
    first: int,
    n_deals: int,
    bot: np.ndarray,
    params: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    row: np.ndarray,
    only_class: int = -1,
) -> int:
    """Fill up to ``SAMPLES_PER_DEAL`` samples per deal: features ``x``, outcome ``y`` (``O_*`` of
    :mod:`skatsim.bots.winprob`) and model ``row``; returns the number of samples (deals that all
    pass give none). ``only_class`` >= 0 plays only that game class's candidates (the auction is
    always the official one). ``bot`` is a prepared row (:func:`skatsim.bots.expected.prepare`);
    ``params`` the rules the auction and the candidates are played under (the official ones)."""
    return _samples(new_state(params), seed, first, n_deals, bot, x, y, row, only_class)


@kernel
def outcome_of(gt: int, won: bool, points: int, tricks: int) -> int:
    """The outcome (``O_*``) of a game played without announcements, from the declarer's points and tricks."""
    if gt == NULL:
        return O_WON if won else O_LOST
    if won:
        if tricks == 10:
            return O_WON_SCHWARZ
        return O_WON_SCHNEIDER if points >= 90 else O_WON
    if tricks == 0:
        return O_LOST_SCHWARZ
    return O_LOST_SCHNEIDER if points <= 30 else O_LOST


@allocating_kernel
def _samples(
    buf: np.ndarray,
    seed: np.uint64,
    first: int,
    n_deals: int,
    bot: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    row: np.ndarray,
    only_class: int,
) -> int:
    """:func:`calibration_samples` in the deal state ``buf[0]`` (the array keeps its memory alive)."""
    st = buf[0]
    for seat in range(3):
        st.kinds[seat] = HEURISTIC
        st.bots[seat, : bot.shape[0]] = bot
    bstate = st.bidding
    limits = np.zeros(3, dtype=np.int64)
    hands = np.zeros(3, dtype=np.uint32)
    work = np.zeros(3, dtype=np.uint32)
    state = st.play
    result = st.result
    log = np.zeros(LOG_WIDTH, dtype=np.int16)
    f = np.zeros(N_FEATURES)
    s = 0
    for i in range(n_deals):
        skat = deal_cards(seed, np.uint64(first + i), hands)
        for seat in range(3):
            limits[seat] = contested_ceiling(bot, st.params, hands[seat], seat)
        bidding.run_bidding(bstate, limits)
        d = bstate[bidding.DECLARER]
        if d < 0:
            continue
        for k in range(N_CANDIDATES):
            gt = _CANDIDATE_GT[k]
            ouvert = _CANDIDATE_OUVERT[k] == 1
            cls = class_of(gt, ouvert)
            if only_class >= 0 and cls != only_class:
                continue
            for hand in range(2):
                work[:] = hands
                if hand:
                    flags = HAND | (OUVERT if ouvert else 0)
                    dskat = skat
                else:
                    flags = OUVERT if ouvert else 0
                    dskat = choose_discard(gt, hands[d] | skat)
                    work[d] = (hands[d] | skat) & ~dskat
                play.new_play(state, gt, normalise_flags(gt, flags), d, work, dskat)
                new_record(log)
                play_cards(st, log)
                declared_result(state, 0, False, st.params, result)
                won = outcome_of(gt, result[WON], result[POINTS], result[TRICKS])
                if hand:
                    row_features(gt, hands[d], 0.0, d, f)
                    x[s, :] = f
                    y[s] = won
                    row[s] = cls * N_SITUATIONS + HAND_GAME
                    s += 1
                else:
                    row_features(gt, hands[d], 0.0, d, f)
                    x[s, :] = f
                    y[s] = won
                    row[s] = cls * N_SITUATIONS + BEFORE_PICKUP
                    s += 1
                    row_features(gt, work[d], float(card_points(dskat)), d, f)
                    x[s, :] = f
                    y[s] = won
                    row[s] = cls * N_SITUATIONS + AFTER_PICKUP
                    s += 1
    return s


@allocating_kernel
def defence_samples(rows: np.ndarray, x: np.ndarray, y: np.ndarray, cls: np.ndarray) -> int:
    """Per declared game of ``rows`` (simulated rows), a sample per defender: his features for the
    declared game (:func:`skatsim.bots.defence.features`), whether the declarer won, and the game's
    class. Returns the number of samples."""
    hands = np.zeros(3, dtype=np.uint32)
    f = np.zeros(N_DEFENCE_FEATURES)
    k = 0
    for i in range(rows.shape[0]):
        d = rows[i, COL_DECLARER]
        if d < 0:
            continue
        gt = rows[i, COL_GAME_TYPE]
        flags = HAND * rows[i, COL_HAND] + OUVERT * rows[i, COL_OUVERT]
        unpack_deal(rows[i, COL_DEAL], hands)
        for seat in range(3):
            if seat == d:
                continue
            defence_features(gt, flags, hands[seat], rows[i, COL_BID], seat == 0, f)
            x[k, :] = f
            y[k] = rows[i, COL_WON]
            cls[k] = class_of(gt, (flags & OUVERT) != 0)
            k += 1
    return k


def fit_logistic(
    x: np.ndarray,
    y: np.ndarray,
    l2: float = 1e-3,
    iterations: int = 25,
    tolerance: float = 1e-8,
    start: np.ndarray | None = None,
) -> np.ndarray:
    """Logistic regression by Newton's method with a small ridge penalty (no intercept added:
    feature 0 is the constant); stops after ``iterations`` or once no weight moves by ``tolerance``.
    ``start``: the weights to start from (zeros by default); the optimum is the same, reached in
    fewer steps from a close start."""
    w = np.zeros(x.shape[1]) if start is None else np.array(start, dtype=np.float64)
    for _ in range(iterations):
        z = np.clip(x @ w, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = x.T @ (p - y) + l2 * len(y) * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + l2 * len(y) * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < tolerance:
            break
    return w
