"""Expected scores under the variant's own scoring: the one measure of every heuristic decision.

A declaration's expected score is the sum over its outcomes (won, won Schneider, won Schwarz,
lost, lost Schneider, lost Schwarz; Null won or lost) of the outcome's probability
(:func:`skatsim.bots.winprob.outcome_probs`) times what the declarer scores then *under this
variant*: the game value and the deal score come from the engine's own kernels
(:func:`skatsim.engine.scoring.game_value`, :func:`~skatsim.engine.scoring.deal_score`,
:func:`~skatsim.engine.scoring.overbid_value` for an overbid game), so a lost hand game costs what
``scoring.lost_hand_factor`` says and nothing here copies a rule. On top come, where the variant
has them:

* Seeger-Fabian list points: the declarer's +50 / -50, read once per block off the engine's
  :func:`~skatsim.engine.scoring.list_points` (each seat maximises its own list points);
* Kontra: the chance that the declaration draws Kontra (``CAL_KONTRA``, calibrated by self-play of
  the variant from the defenders' own policy), the declarer's chance once it has (a Kontra says
  a defender is strong) and the Re he answers when it pays: the score is doubled or quadrupled.

A player's *utility* of a score is the score itself, a loss counted ``loss_aversion`` times
(1: risk-neutral; the one risk attitude of the bot, docs/bots.md).

:func:`prepare` derives the *scoring view* once per block (``V_*`` of :mod:`skatsim.bots.slots`),
including the bid thresholds: because every outcome probability is a function of the declarer's
log-odds ``z``, so is the expected score, and "worth more than passing" becomes ``z`` against a
threshold per game and matadors, the same comparison in cost as a fixed risk threshold.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import allocating_kernel, inlined_kernel, kernel
from ..engine.deal import mix64
from ..engine.declaration import normalise_flags
from ..engine.gametypes import GRAND, NULL, REVERSED
from ..engine.kontra import max_level
from ..engine.rules import ALL_PASS, KONTRA_LIST_POINTS, LIST_SCORING
from ..engine.scoring import (
    HAND,
    OUVERT,
    SCHNEIDER_ANNOUNCED,
    SCHWARZ_ANNOUNCED,
    deal_score,
    game_value,
    list_points,
    null_value,
    outcome,
    overbid_value,
)
from .handeval import BEFORE_PICKUP, HAND_GAME, N_SITUATIONS, NULL_CLASS, NULL_OUVERT_CLASS, class_of
from .slots import (
    CAL_ALL_PASS_MH,
    CAL_ALL_PASS_RH,
    CAL_DEFENDER,
    CAL_KONTRA,
    CAL_RAMSCH,
    K_A,
    K_B,
    K_SHIFT_KONTRA,
    K_SHIFT_NONE,
    N_BOT_PARAMS,
    N_CALIB,
    N_KONTRA_FIELDS,
    N_KONTRA_SITUATIONS,
    N_LEAST,
    N_OUTCOMES,
    N_PREPARED,
    N_RAMSCH_FEATURES,
    N_RUNGS,
    N_THRESHOLDS,
    P_HAND_BIAS,
    P_LOSS_AVERSION,
    P_NULL_HAND_BIAS,
    P_NULL_HAND_SPREAD,
    P_OUVERT_HAND_BIAS,
    V_BONUS_DOUBLES,
    V_BOUND_LOSE,
    V_BOUND_WIN,
    V_DEFENDER_BONUS,
    V_HAND_FLOOR,
    V_KONTRA,
    V_LOST_MALUS,
    V_OPEN_FLOOR,
    V_PASS,
    V_RAMSCH,
    V_RUNGS,
    V_TOP_LEVEL,
    V_WON,
    V_WON_BONUS,
    V_ZMIN_PASS,
    V_ZMIN_RUNGS,
    V_ZSTAR_PASS,
    V_ZSTAR_RUNGS,
)
from .winprob import O_WON, Z_MAX, Z_MIN, hand_gap_of_jacks, jack_bits, outcome_probs, win_probability

assert N_KONTRA_SITUATIONS == N_SITUATIONS

#: Card points and tricks that stand for each outcome when the engine's outcome kernel judges it.
_POINTS = np.array([0, 20, 45, 75, 100, 120], dtype=np.int64)
_TRICKS = np.array([0, 1, 3, 6, 8, 10], dtype=np.int64)
#: Where the outcome loop starts (an array, so that the compiler keeps the loop rather than unroll it).
_FIRST = np.zeros(1, dtype=np.int64)
#: Outcomes in which Schneider, Schwarz is reached (by either side).
_SCHNEIDER = np.array([1, 1, 0, 0, 1, 1], dtype=np.bool_)
_SCHWARZ = np.array([1, 0, 0, 0, 0, 1], dtype=np.bool_)
#: A bid threshold that no log-odds reach, and one that every log-odds reaches.
NEVER = 1e9
ALWAYS = -1e9
#: How far below a bid threshold (:func:`_threshold`) the log-odds must lie to be worth less for sure:
#: more than the bisection's last interval, (Z_MAX - Z_MIN) / 2**30 (2.2e-8), whose lower end is worth
#: less.
BELOW_THRESHOLD = 1e-6

# Threshold slots (see threshold_slot): games with the skat, then hand; per game its matadors 1..
_GAME_SLOTS = np.array([0, 11, 22, 33, 44, -1, -1, 48], dtype=np.int64)  # by game type; Null apart
_MAX_MATADORS = np.array([11, 11, 11, 11, 4, 0, 0, 4], dtype=np.int64)
_PER_KIND = 52
_NULL_SLOTS = 2 * _PER_KIND


@kernel
def sigmoid(x: float) -> float:
    """The logistic function."""
    return 1.0 / (1.0 + math.exp(-x))


@kernel
def threshold_slot(gt: int, hand: bool, ouvert: bool, mat: int) -> int:
    """Index (0 .. N_THRESHOLDS - 1) of the bid threshold of game ``gt`` played hand or with the skat,
    with ``mat`` matadors (suit games, Grand, the reversed game; clamped to the possible range);
    Null by its four kinds."""
    if gt == NULL:
        return _NULL_SLOTS + int(hand) + 2 * int(ouvert)
    m = min(max(mat, 1), _MAX_MATADORS[gt])
    return _PER_KIND * int(hand) + _GAME_SLOTS[gt] + m - 1


@kernel
def least_slot(gt: int, hand: bool, ouvert: bool) -> int:
    """Index (0 .. N_LEAST - 1) of the least bid threshold of a game played hand or with the skat."""
    return 8 * int(hand) + (6 if gt == NULL and ouvert else gt)


@kernel
def hand_bias(bot: np.ndarray, cls: int) -> float:
    """The player's confidence in playing without the skat: log-odds added to every hand game's
    estimate (Null apart: people play Null hand rarely, and riskier ones than other hand games; Null
    ouvert hand has a term of its own besides)."""
    if cls == NULL_CLASS:
        return bot[P_NULL_HAND_BIAS]
    if cls == NULL_OUVERT_CLASS:
        return bot[P_NULL_HAND_BIAS] + bot[P_OUVERT_HAND_BIAS]
    return bot[P_HAND_BIAS]


#: 1 / 2**32: a 32-bit draw as a fraction of 1.
_PER_32 = 1.0 / 4294967296.0


@kernel
def null_hand_misjudgement(bot: np.ndarray, cards: np.uint32) -> float:
    """How far the player misjudges a Null hand (not ouvert) with these ten ``cards``: log-odds added
    to its estimate, triangular between -``null_hand_spread`` and +``null_hand_spread`` and fixed for
    the hand (a pure function of the cards, so the same whenever he judges it: bidding, declaring,
    a what-if rollout). People misjudge the Null hand, the game they play least, both ways: they win
    fewer of them than a player who judges every hand alike would at their share (docs/bots.md)."""
    spread = bot[P_NULL_HAND_SPREAD]
    if spread == 0.0:
        return 0.0
    h = mix64(np.uint64(cards) + np.uint64(0x9E3779B97F4A7C15))
    low = float(h & np.uint64(0xFFFFFFFF)) * _PER_32
    high = float(h >> np.uint64(32)) * _PER_32
    return spread * (low + high - 1.0)


@kernel
def hand_floors(cards: np.uint32, seat: int) -> int:
    """Where the hand floors (``V_HAND_FLOOR``) of ``cards`` at ``seat`` lie in a prepared row: the entry
    of a game played hand is this plus its ``least_slot(gt, True, ouvert)`` (the hand slots are the upper
    half of ``N_LEAST``). Its log-odds with the skat below the floor, its hand log-odds cannot reach
    ``V_ZMIN_PASS`` (:func:`_hand_floors`)."""
    return _hand_floors_of(1 if seat == 0 else 0, jack_bits(cards))


@kernel
def _hand_floors_of(fh: int, jacks: int) -> int:
    """:func:`hand_floors` of a hand with these jacks, at forehand (``fh`` 1) or not."""
    half = N_LEAST // 2
    return V_HAND_FLOOR + (fh * 16 + jacks) * half - half


@kernel
def announced(flags: int) -> int:
    """0 nothing announced, 1 Schneider, 2 Schwarz (ouvert included): a row of ``V_WON``."""
    if flags & SCHWARZ_ANNOUNCED:
        return 2
    if flags & SCHNEIDER_ANNOUNCED:
        return 1
    return 0


@kernel
def utility(bot: np.ndarray, score: float) -> float:
    """What a score is worth to the player: a loss counts ``loss_aversion`` times."""
    return score if score >= 0.0 else bot[P_LOSS_AVERSION] * score


@kernel
def _bonus(bot: np.ndarray, won: bool, multiplier: int) -> float:
    """The declarer's list points beyond his score (0 without lists), multiplied by Kontra and Re when
    the variant says so."""
    factor = multiplier if bot[V_BONUS_DOUBLES] else 1
    return factor * (bot[V_WON_BONUS] if won else -bot[V_LOST_MALUS])


@inlined_kernel
def expected_at(
    bot: np.ndarray,
    params: np.ndarray,
    row: int,
    gt: int,
    flags: int,
    mat: int,
    bid: int,
    z: float,
    multiplier: int,
) -> float:
    """Expected utility of declaring ``gt`` with ``flags`` (normalised) and ``mat`` matadors (their
    count: ``game_value`` counts with or without alike) at bid ``bid``, when the outcome model row
    ``row`` gives log-odds ``z`` and the score counts ``multiplier`` times (Kontra 2, Re 4). Compiled
    into its callers (:func:`expected`, once a declaration weighed, and the declarer's answer to a
    doubling): no call with three arrays passed (docs/speed.md)."""
    p = outcome_probs(row, z)
    e = 0.0
    ann = announced(flags) * N_OUTCOMES
    for o in range(_FIRST[0], N_OUTCOMES):  # the bound is read from an array: the loop stays a loop
        q = p[o]
        if q > 0.0:
            won, value = _outcome(bot, gt, flags, mat, bid, ann, o)
            e += q * _worth(bot, won, deal_score(won, value, flags, params), multiplier)
    return e


@kernel
def _kontra_sums(
    bot: np.ndarray,
    params: np.ndarray,
    row: int,
    gt: int,
    flags: int,
    mat: int,
    bid: int,
    z: float,
    z_kontra: float,
    with_re: bool,
) -> tuple[float, float, float]:
    """Expected utilities of a declaration (:func:`expected_at`) without Kontra at log-odds ``z``, with
    Kontra at log-odds ``z_kontra`` and, when ``with_re``, with Kontra and Re there (else 0): each
    outcome's score worked out once for the three."""
    p = outcome_probs(row, z)
    pk = outcome_probs(row, z_kontra)
    ann = announced(flags) * N_OUTCOMES
    quiet = kontra = kontra_re = 0.0
    for o in range(_FIRST[0], N_OUTCOMES):
        q, qk = p[o], pk[o]
        if q <= 0.0 and qk <= 0.0:
            continue
        won, value = _outcome(bot, gt, flags, mat, bid, ann, o)
        score = deal_score(won, value, flags, params)
        if q > 0.0:
            quiet += q * _worth(bot, won, score, 1)
        if qk > 0.0:
            kontra += qk * _worth(bot, won, score, 2)
            if with_re:
                kontra_re += qk * _worth(bot, won, score, 4)
    return quiet, kontra, kontra_re


@inlined_kernel
def _outcome(bot: np.ndarray, gt: int, flags: int, mat: int, bid: int, ann: int, o: int) -> tuple[bool, int]:
    """Whether outcome ``o`` of a declaration wins, and its value (``ann``: the row of ``V_WON`` for what
    is announced, times ``N_OUTCOMES``). An outcome whose value is below the bid is lost and charged what
    the engine charges an overbid game (:func:`~skatsim.engine.scoring.overbid_value`, which
    :func:`~skatsim.engine.scoring.outcome` charges too)."""
    if gt == NULL:
        won = o == O_WON
        value = null_value(flags)
    else:
        won = bot[V_WON + ann + o] > 0.5
        value = game_value(gt, flags, mat, _SCHNEIDER[o], _SCHWARZ[o])
    if value < bid:
        return False, overbid_value(gt, flags, bid)
    return won, value


@kernel
def _worth(bot: np.ndarray, won: bool, score: int, multiplier: int) -> float:
    """The utility of an outcome's score counted ``multiplier`` times, list points included."""
    return utility(bot, multiplier * score + _bonus(bot, won, multiplier))


@kernel
def kontra_fields(cls: int, situation: int) -> int:
    """Where the Kontra calibration of class ``cls`` in ``situation`` (before the pickup, hand, after the
    pickup: the situation whose log-odds it takes) starts in a bot row."""
    return CAL_KONTRA + (cls * N_KONTRA_SITUATIONS + situation) * N_KONTRA_FIELDS


@kernel
def kontra_probability(bot: np.ndarray, cls: int, situation: int, z: float) -> float:
    """The chance that a declaration of class ``cls`` draws Kontra, when the declarer's log-odds of
    winning it, judged in ``situation``, are ``z``."""
    k = kontra_fields(cls, situation)
    return sigmoid(bot[k + K_A] + bot[k + K_B] * z)


@kernel
def expected(
    bot: np.ndarray,
    params: np.ndarray,
    cls: int,
    situation: int,
    gt: int,
    flags: int,
    mat: int,
    bid: int,
    z: float,
) -> float:
    """Expected utility of a declaration (see :func:`expected_at`), Kontra anticipated where the
    variant has it: it comes with :func:`kontra_probability`, moves the declarer's log-odds by the
    calibrated shift, and he answers it with Re (x4) when that pays more than x2 (as
    :func:`skatsim.bots.heuristic.re` decides). The Kontra model is the one calibrated on the log-odds
    of ``situation``: the ``z`` this is called with."""
    row = cls * N_SITUATIONS + situation
    if bot[V_KONTRA] == 0.0:
        return expected_at(bot, params, row, gt, flags, mat, bid, z, 1)
    k = kontra_fields(cls, situation)
    pk = kontra_probability(bot, cls, situation, z)
    with_re = bot[V_TOP_LEVEL] >= 2
    quiet, kontra, kontra_re = _kontra_sums(
        bot, params, row, gt, flags, mat, bid, z + bot[k + K_SHIFT_NONE], z + bot[k + K_SHIFT_KONTRA], with_re
    )
    doubled = kontra_re if with_re and kontra_re > kontra else kontra  # he answers with Re when it pays more
    return (1.0 - pk) * quiet + pk * doubled


@kernel
def open_pass_value(bot: np.ndarray, seat: int, ramsch: float) -> float:
    """The value of passing before anyone has bid, for a seat whose Ramsch expectation is ``ramsch``
    (0 without Ramsch): forehand passes last (all have passed: the Ramsch is certain); middlehand and
    rearhand may see another seat bid, then they defend (``V_PASS``)."""
    if seat == 0:
        p = 1.0
    elif seat == 1:
        p = bot[CAL_ALL_PASS_MH]
    else:
        p = bot[CAL_ALL_PASS_RH]
    return p * ramsch + (1.0 - p) * bot[V_PASS]


# --------------------------------------------------------------------------- the per-block view


@kernel
def _threshold(
    bot: np.ndarray, params: np.ndarray, gt: int, hand: bool, ouvert: bool, mat: int, target: float
) -> float:
    """The least log-odds at which declaring the game (no announcement, bid reached) is worth
    ``target``; ``NEVER`` or ``ALWAYS`` when no log-odds on the grid or every one is."""
    cls = class_of(gt, ouvert)
    situation = HAND_GAME if hand else BEFORE_PICKUP
    flags = normalise_flags(gt, HAND * int(hand) + OUVERT * int(ouvert))
    lo, hi = Z_MIN, Z_MAX
    if expected(bot, params, cls, situation, gt, flags, mat, 0, hi) < target:
        return NEVER
    if expected(bot, params, cls, situation, gt, flags, mat, 0, lo) >= target:
        return ALWAYS
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        if expected(bot, params, cls, situation, gt, flags, mat, 0, mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi


def _slot_games() -> np.ndarray:
    """Every game a threshold slot stands for, as rows (game type, hand, ouvert, matadors)."""
    rows = []
    for gt in (0, 1, 2, 3, GRAND, REVERSED):
        for hand in (0, 1):
            rows += [(gt, hand, 0, mat) for mat in range(1, int(_MAX_MATADORS[gt]) + 1)]
    rows += [(NULL, hand, ouvert, 0) for hand in (0, 1) for ouvert in (0, 1)]
    return np.array(rows, dtype=np.int64)


#: The game of each threshold slot (one row per slot, in no particular order; :func:`threshold_slot`
#: gives a row's slot): what the per-slot tables of :func:`prepare_row` loop over.
SLOT_GAMES = _slot_games()


@kernel
def _thresholds(bot: np.ndarray, params: np.ndarray, slot: int, least: int, target: float) -> None:
    """Fill the ``N_THRESHOLDS`` bid thresholds at ``bot[slot:]`` against the value ``target``, and
    their least per game and way of playing at ``bot[least:]``."""
    bot[least : least + N_LEAST] = NEVER
    for row in range(SLOT_GAMES.shape[0]):
        gt, hand, ouvert, mat = SLOT_GAMES[row]
        z = _threshold(bot, params, gt, hand == 1, ouvert == 1, mat, target)
        bot[slot + threshold_slot(gt, hand == 1, ouvert == 1, mat)] = z
        i = least + least_slot(gt, hand == 1, ouvert == 1)
        bot[i] = min(bot[i], z)


@kernel
def _hand_floors(bot: np.ndarray) -> None:
    """Fill ``V_HAND_FLOOR`` (:func:`hand_floors`): per forehand or not, jacks and game played hand, its
    least hand threshold ``V_ZMIN_PASS`` less the bot's hand bias, the hand gap
    (:func:`skatsim.bots.winprob.hand_gap_of_jacks`) and, for Null hand, the most it may be misjudged
    upwards (:func:`null_hand_misjudgement`). Log-odds with the skat ``z`` under it give
    ``z + gap + bias (+ misjudgement)`` under the threshold: the bound of the hand log-odds as a single
    comparison."""
    for row in range(SLOT_GAMES.shape[0]):  # every game played hand (a row per matadors: the same floors)
        gt, hand, ouvert, _ = SLOT_GAMES[row]
        if hand == 0:
            continue
        ls = least_slot(gt, True, ouvert == 1)
        cls = class_of(gt, ouvert == 1)
        least = bot[V_ZMIN_PASS + ls] - hand_bias(bot, cls)
        if cls == NULL_CLASS:
            least -= bot[P_NULL_HAND_SPREAD]
        for fh in range(2):
            for jacks in range(16):
                bot[_hand_floors_of(fh, jacks) + ls] = least - hand_gap_of_jacks(cls, fh, jacks)


@kernel
def win_lose_terms(
    bot: np.ndarray, params: np.ndarray, gt: int, flags: int, mat: int, schneider: bool, schwarz: bool
) -> tuple[float, float]:
    """The utility of the best a win can score (Schneider and Schwarz) and of a loss valued with
    ``schneider`` and ``schwarz``, no Kontra. Null: its one value each time."""
    if gt == NULL:
        best = least = null_value(flags)
    else:
        best = game_value(gt, flags, mat, True, True)
        least = game_value(gt, flags, mat, schneider, schwarz)
    win = utility(bot, deal_score(True, best, flags, params) + bot[V_WON_BONUS])
    lose = utility(bot, deal_score(False, least, flags, params) - bot[V_LOST_MALUS])
    return win, lose


@kernel
def bound(bot: np.ndarray, gt: int, flags: int, mat: int, z: float) -> float:
    """An upper bound of :func:`expected` without Kontra and without announcements, cheaper than it, at
    log-odds ``z``: the chance of winning times the best a win can score, plus the chance of losing
    times the least a loss costs (:func:`win_lose_terms` with neither Schneider nor Schwarz, per
    threshold slot in the prepared row)."""
    won = min(1.0, win_probability(z) + 1e-9)  # the outcome tables' own chance of winning, to rounding
    slot = threshold_slot(gt, flags & HAND != 0, flags & OUVERT != 0, mat)
    return won * bot[V_BOUND_WIN + slot] + (1.0 - won) * bot[V_BOUND_LOSE + slot]


@kernel
def _bounds(bot: np.ndarray, params: np.ndarray) -> None:
    """Fill ``V_BOUND_WIN`` and ``V_BOUND_LOSE`` (:func:`win_lose_terms` per threshold slot; the game
    played with the skat or hand, ouvert only for Null, no announcement)."""
    for row in range(SLOT_GAMES.shape[0]):
        gt, hand, ouvert, mat = SLOT_GAMES[row]
        slot = threshold_slot(gt, hand == 1, ouvert == 1, mat)
        win, lose = win_lose_terms(bot, params, gt, HAND * hand | OUVERT * ouvert, mat, False, False)
        bot[V_BOUND_WIN + slot] = win
        bot[V_BOUND_LOSE + slot] = lose


@kernel
def ramsch_extreme(bot: np.ndarray, highest: bool) -> float:
    """A bound of the Ramsch model over every hand: each feature at its least helpful count (a lower
    bound), or with ``highest`` at its most helpful (an upper bound)."""
    w = bot[CAL_RAMSCH : CAL_RAMSCH + N_RAMSCH_FEATURES]
    most = (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 3.0, 2.0, 4.0)
    out = w[0]
    for k in range(1, N_RAMSCH_FEATURES):
        out += max(0.0, w[k] * most[k]) if highest else min(0.0, w[k] * most[k])
    return out


@kernel
def _rungs(bot: np.ndarray) -> None:
    """The values of passing before anyone has bid that the ladder of thresholds stands at
    (``V_RUNGS``, ascending): with a Ramsch after an all-pass, evenly from the floor to the most
    passing can then be worth; without one, the floor and the three values passing is worth at the
    three seats (every first-bid question is then settled by a rung's thresholds), the rungs left
    unused (``NEVER``: above every value)."""
    floor = bot[V_OPEN_FLOOR]
    for j in range(N_RUNGS):
        bot[V_RUNGS + j] = NEVER
    if bot[V_RAMSCH]:
        top = max(bot[V_PASS], ramsch_extreme(bot, True))
        for j in range(N_RUNGS):
            bot[V_RUNGS + j] = floor + (top - floor) * j / (N_RUNGS - 1)
        return
    bot[V_RUNGS] = floor
    for seat in range(3):
        bot[V_RUNGS + 1 + seat] = open_pass_value(bot, seat, 0.0)
    for j in range(1, 4):  # insertion sort: ascending
        v = bot[V_RUNGS + j]
        i = j
        while i > 0 and bot[V_RUNGS + i - 1] > v:
            bot[V_RUNGS + i] = bot[V_RUNGS + i - 1]
            i -= 1
        bot[V_RUNGS + i] = v


@kernel
def prepare_row(bot: np.ndarray, source: np.ndarray, params: np.ndarray, scratch: np.ndarray) -> None:
    """Fill the prepared row ``bot`` (``N_PREPARED`` wide, :mod:`skatsim.bots.slots`) from ``source``,
    a row of the registry's parameters followed by the variant's calibration
    (:func:`skatsim.bots.bot_arrays`), for the variant ``params``: the scoring view and the bid
    thresholds, once per block. ``scratch``: three ``int64`` for the engine's list points."""
    bot[:] = 0.0
    for k in range(min(source.shape[0], N_BOT_PARAMS + N_CALIB)):
        bot[k] = source[k]
    if params[LIST_SCORING]:  # the engine's own list points of a won and a lost game scored 0
        list_points(0, True, 0, params, scratch)
        bot[V_WON_BONUS] = scratch[0]
        list_points(0, False, 0, params, scratch)
        bot[V_LOST_MALUS] = -scratch[0]
        bot[V_DEFENDER_BONUS] = scratch[1]
    bot[V_BONUS_DOUBLES] = 1.0 if params[LIST_SCORING] and params[KONTRA_LIST_POINTS] else 0.0
    bot[V_TOP_LEVEL] = max_level(params)
    bot[V_KONTRA] = 1.0 if max_level(params) > 0 else 0.0
    bot[V_RAMSCH] = 1.0 if params[ALL_PASS] else 0.0
    bot[V_PASS] = bot[CAL_DEFENDER]
    ramsch = ramsch_extreme(bot, False) if params[ALL_PASS] else 0.0
    bot[V_OPEN_FLOOR] = min(0.0, bot[V_PASS], ramsch)
    for ann in range(3):  # which outcomes the engine counts as won under each announcement
        flags = (0, SCHNEIDER_ANNOUNCED, SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED)[ann]
        for o in range(N_OUTCOMES):
            won = outcome(GRAND, flags, 0, np.uint32(0), _POINTS[o], _TRICKS[o], False, True)[0]
            bot[V_WON + ann * N_OUTCOMES + o] = 1.0 if won else 0.0
    _thresholds(bot, params, V_ZSTAR_PASS, V_ZMIN_PASS, bot[V_PASS])
    _hand_floors(bot)
    _bounds(bot, params)
    _rungs(bot)
    for r in range(N_RUNGS):
        if bot[V_RUNGS + r] == NEVER:  # an unused rung: no game reaches it
            bot[V_ZSTAR_RUNGS + r * N_THRESHOLDS : V_ZSTAR_RUNGS + (r + 1) * N_THRESHOLDS] = NEVER
            bot[V_ZMIN_RUNGS + r * N_LEAST : V_ZMIN_RUNGS + (r + 1) * N_LEAST] = NEVER
        else:
            _thresholds(bot, params, V_ZSTAR_RUNGS + r * N_THRESHOLDS, V_ZMIN_RUNGS + r * N_LEAST, bot[V_RUNGS + r])


@allocating_kernel
def prepare(bot_params: np.ndarray, params: np.ndarray) -> np.ndarray:
    """Prepared rows of heuristic bots (:func:`prepare_row`), one per row of ``bot_params``."""
    out = np.zeros((bot_params.shape[0], N_PREPARED))
    scratch = np.zeros(3, dtype=np.int64)
    for s in range(bot_params.shape[0]):
        prepare_row(out[s], bot_params[s], params, scratch)
    return out
