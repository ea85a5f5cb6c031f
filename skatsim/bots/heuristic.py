"""The ``heuristic`` bot's bidding, declaring and calls (its card play is :mod:`skatsim.bots.cardplay`).

Every decision compares expected scores under the variant's own scoring
(:mod:`skatsim.bots.expected`): for every game the bot could play — four suits, Grand, Null,
Null ouvert, and the reversed game where the variant allows it; with the skat or hand; hand
with Schneider or Schwarz announced or ouvert — the calibrated outcome model
(:mod:`skatsim.bots.winprob`) gives the probability of each outcome the scoring tells apart,
and the engine's scoring kernels what each is worth. Against that stands the value of passing
(:func:`pass_value`): what a defender expects (0, or the +40 of a lost game in a
Seeger-Fabian list) once someone has bid, and before anyone has, the chance that all pass
times what follows then (a redeal: 0; a Ramsch: the seat's Ramsch expectation).

* Bid (:func:`bid_ceilings`): up to the highest value of a game worth more than defending; as
  the first bid, when some game is worth more than passing now.
* Declare (:func:`declare`): hand when the best hand game (announcements included) is worth
  more than the best game with the skat as the ten cards promise it; else pick up, choose
  discards per game and declare the game worth most.
* Kontra and the defenders' calls beyond Re (:func:`kontra`): a defender's own score seldom
  depends on them (only with ``kontra.multiplies_list_points``), so he weighs his standing —
  his own points minus the mean of the other two players' — and calls when the declarer is
  expected to lose more by it than he could win (:mod:`skatsim.bots.defence` estimates the
  declarer's chance from the defender's cards).
* Re and the declarer's calls beyond (:func:`re`): when doubling his expected score pays.
* Grand hand instead of a Ramsch (:func:`grand_hand_instead`): when the Grand is worth more
  than the seat's Ramsch expectation.
* Schieberamsch (:func:`push`): pick up and push when the hand it leaves is worth more than the
  doubling passing the skat on unseen brings (or costs, under ``doubling: push``).

Every kernel here takes ``bot``, one seat's prepared row (:mod:`skatsim.bots.slots`), and the
variant's rule parameters ``params``.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import inlined_kernel, kernel, lowest_bit, popcount
from ..engine.bidding import BID_VALUES
from ..engine.cards import JACKS, SUIT_MASKS
from ..engine.declaration import normalise_flags
from ..engine.gametypes import BASE_VALUE, GRAND, NULL, POWER, REVERSED, TRUMPS
from ..engine.rules import REVERSED_ALLOWED, SCHIEBE_DOUBLING
from ..engine.scoring import (
    HAND,
    OUVERT,
    SCHNEIDER_ANNOUNCED,
    SCHWARZ_ANNOUNCED,
    deal_score,
    matadors,
    null_value,
)
from ..engine.tricks import card_points
from . import defence, ramschmodel
from .cardsel import bit, highest, lowest
from .expected import (
    BELOW_THRESHOLD,
    bound,
    expected,
    expected_at,
    hand_bias,
    hand_floors,
    kontra_fields,
    least_slot,
    null_hand_misjudgement,
    open_pass_value,
    sigmoid,
    threshold_slot,
    win_lose_terms,
)
from .handeval import (
    AFTER_PICKUP,
    BEFORE_PICKUP,
    GRAND_CLASS,
    HAND_GAME,
    N_SITUATIONS,
    NULL_CLASS,
    NULL_OUVERT_CLASS,
    REVERSED_CLASS,
    SUIT_CLASS,
    choose_discard,
    class_of,
)
from .slots import (
    CAL_PUSH,
    CAL_RAMSCH,
    CAL_RE_SHIFT,
    K_SHIFT_KONTRA,
    N_LEAST,
    N_RUNGS,
    N_THRESHOLDS,
    P_FIRST_BID_BIAS,
    P_GRAND_BIAS,
    P_GRAND_BID_BIAS,
    P_NULL_BIAS,
    P_NULL_BID_BIAS,
    P_OUVERT_BIAS,
    P_REVERSED_BIAS,
    P_SUIT_BIAS,
    V_BONUS_DOUBLES,
    V_DEFENDER_BONUS,
    V_KEPT_CARDS,
    V_KEPT_SEAT,
    V_KEPT_Z,
    V_KONTRA,
    V_LOGITS,
    V_LOST_MALUS,
    V_MATS,
    V_PASS,
    V_RAMSCH,
    V_RUNGS,
    V_SCRATCH,
    V_WON_BONUS,
    V_ZMIN_PASS,
    V_ZMIN_RUNGS,
    V_ZSTAR_PASS,
    V_ZSTAR_RUNGS,
)
from .winprob import game_logit, null_logits, outcome_probs, suit_logits, suit_logits_after

# Candidate declarations: game type and ouvert flag (Null ouvert is its own candidate); the last,
# the reversed game, only where the variant allows it.
N_CANDIDATES = 8
_CANDIDATE_GT = np.array([0, 1, 2, 3, GRAND, NULL, NULL, REVERSED], dtype=np.int64)
_CANDIDATE_OUVERT = np.array([0, 0, 0, 0, 0, 0, 1, 0], dtype=np.int64)
_CANDIDATE_CLASS = np.array(
    [SUIT_CLASS] * 4 + [GRAND_CLASS, NULL_CLASS, NULL_OUVERT_CLASS, REVERSED_CLASS], dtype=np.int64
)
#: Announcements a hand game may carry (suit games, Grand, the reversed game), in the order tried.
_ANNOUNCEMENTS = np.array(
    [0, SCHNEIDER_ANNOUNCED, SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED, OUVERT | SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED],
    dtype=np.int64,
)


@kernel
def _bias(bot: np.ndarray, cls: int) -> float:
    """The player's confidence in a game class: log-odds added to every estimate of it."""
    if cls == NULL_OUVERT_CLASS:
        return bot[P_NULL_BIAS] + bot[P_OUVERT_BIAS]
    if cls == NULL_CLASS:
        return bot[P_NULL_BIAS]
    if cls == GRAND_CLASS:
        return bot[P_GRAND_BIAS]
    if cls == REVERSED_CLASS:
        return bot[P_REVERSED_BIAS]
    return bot[P_SUIT_BIAS]


@kernel
def _z(bot: np.ndarray, k: int, situation: int, cards: np.uint32, skat_points: float, seat: int) -> float:
    """The player's log-odds of winning candidate ``k`` in ``situation`` with ``cards``."""
    cls = _CANDIDATE_CLASS[k]
    return _z_of(bot, k, situation, game_logit(cls, situation, _CANDIDATE_GT[k], cards, skat_points, seat), cards)


@kernel
def _z_of(bot: np.ndarray, k: int, situation: int, logit: float, cards: np.uint32) -> float:
    """:func:`_z` from the model's log-odds ``logit`` of candidate ``k`` with ``cards`` (:func:`game_logit`,
    or a kernel that shares its lookups: :func:`null_logits`): the bot's confidence added, and for
    Null hand its misjudgement of the hand."""
    cls = _CANDIDATE_CLASS[k]
    z = logit + _bias(bot, cls)
    if situation == HAND_GAME:
        z += hand_bias(bot, cls)
        if cls == NULL_CLASS:
            z += null_hand_misjudgement(bot, cards)
    return z


@kernel
def _candidates(reversed_ok: bool) -> int:
    """How many candidates the variant allows: all, or all but the reversed game (the last)."""
    return 8 if reversed_ok else 7


@kernel
def _mat(gt: int, cards: np.uint32) -> int:
    """The matadors a game counts (with or without alike), 0 for Null."""
    return abs(matadors(gt, cards)) if gt != NULL else 0


@kernel
def _value(gt: int, mat: int, hand: bool, ouvert: bool) -> int:
    """What a game is reckoned at before the skat is seen, from its matadors (:func:`bidding_value`)."""
    if gt == NULL:
        return null_value(HAND * int(hand) + OUVERT * int(ouvert))
    return BASE_VALUE[gt] * (mat + 1 + int(hand))


@kernel
def _flags(k: int, hand: bool) -> int:
    """The flags of candidate ``k`` played hand or not, without announcements."""
    return (OUVERT if _CANDIDATE_OUVERT[k] else 0) | (HAND if hand else 0)


@kernel
def ramsch_value(bot: np.ndarray, cards: np.uint32, seat: int) -> float:
    """The seat's expected score in the Ramsch that follows an all-pass (0 when none follows)."""
    if bot[V_RAMSCH] == 0.0:
        return 0.0
    return ramschmodel.value(bot, CAL_RAMSCH, cards, seat)


@kernel
def pass_value(bot: np.ndarray, cards: np.uint32, seat: int, anyone_bid: bool) -> float:
    """What passing is worth to the seat: a defender's expectation once anyone has bid, before that
    the chance of an all-pass times what follows it (:func:`skatsim.bots.expected.open_pass_value`)."""
    if anyone_bid:
        return bot[V_PASS]
    return open_pass_value(bot, seat, ramsch_value(bot, cards, seat))


@kernel
def _bid_caution(bot: np.ndarray, gt: int) -> float:
    """What the player adds to his Grand and Null estimates when deciding how high to bid."""
    if gt == GRAND:
        return bot[P_GRAND_BID_BIAS]
    if gt == NULL:
        return bot[P_NULL_BID_BIAS]
    return 0.0


@kernel
def _first_bid_shift(bot: np.ndarray, gt: int) -> float:
    """What the player adds to his estimate of every game but Null when deciding whether to make the first
    bid (``first_bid_bias``): a first bid wins the auction only where the others hold weak cards, and
    there those games win more often than the model, judging over every auction, says; a Null's chance
    need not rise with the others' weakness."""
    if gt == NULL:
        return 0.0
    return bot[P_FIRST_BID_BIAS]


@inlined_kernel
def _weigh_bid(
    bot: np.ndarray,
    params: np.ndarray,
    cards: np.uint32,
    k: int,
    hand: bool,
    z: float,
    mat: int,
    limit: int,
    opens: bool,
    exact: bool,
    open_value: float,
    rung: int,
    shift: float,
) -> tuple[int, bool]:
    """Candidate ``k`` (hand or not, log-odds ``z``, ``mat`` matadors) against the ceiling so far and
    the first-bid question (:func:`bid_ceilings`; ``rung``: :func:`_rung_of` ``open_value``; ``shift``:
    :func:`_first_bid_shift` while the first bid is in question, else 0)."""
    gt = _CANDIDATE_GT[k]
    ouvert = _CANDIDATE_OUVERT[k] == 1
    slot = threshold_slot(gt, hand, ouvert, mat)
    if z >= bot[V_ZSTAR_PASS + slot]:
        limit = max(limit, _value(gt, mat, hand, ouvert))
    zo = z + shift
    if zo >= bot[V_ZSTAR_PASS + slot]:
        opens |= open_value <= bot[V_PASS]
    # most candidates are below their rung's threshold: that first test of _worth_opening, here inline
    if exact and not opens and (rung < 0 or zo >= bot[V_ZSTAR_RUNGS + rung * N_THRESHOLDS + slot] - BELOW_THRESHOLD):
        opens = _worth_opening(bot, params, k, hand, zo, mat, slot, open_value, rung)
    return limit, opens


@kernel
def _rung_of(bot: np.ndarray, open_value: float) -> int:
    """The highest rung of the ladder of thresholds (``V_RUNGS``) at or below ``open_value``, -1 if
    none is (no value of passing lies below the floor, the lowest rung)."""
    r = -1
    while r + 1 < N_RUNGS and bot[V_RUNGS + r + 1] <= open_value:
        r += 1
    return r


@kernel
def _least(bot: np.ndarray, ls: int, exact: bool, rung: int, shift: float = 0.0) -> float:
    """The log-odds below which a candidate of least slot ``ls`` neither raises the ceiling nor, when the
    first bid is in question (``exact``), is worth opening at the value of passing of ``rung``
    (``shift``: the first bid's, when in question, :func:`_first_bid_shift`)."""
    if not exact:
        return bot[V_ZMIN_PASS + ls] - max(shift, 0.0)
    if rung < 0:
        return -math.inf
    return min(bot[V_ZMIN_PASS + ls], bot[V_ZMIN_RUNGS + rung * N_LEAST + ls] - BELOW_THRESHOLD - shift)


@kernel
def _worth_opening(
    bot: np.ndarray,
    params: np.ndarray,
    k: int,
    hand: bool,
    z: float,
    mat: int,
    slot: int,
    open_value: float,
    rung: int,
) -> bool:
    """Whether candidate ``k`` (hand or not, log-odds ``z``, ``mat`` matadors, threshold ``slot``) is
    worth more than passing before anyone has bid, ``open_value``: its expected score reaches it.

    Read off the ladder of thresholds where it settles the question: an expected score rises with the
    log-odds, so below the threshold of ``rung`` (:func:`_rung_of` ``open_value``: at or under it) the
    game is worth less, and at or above the threshold of the rung over it, more. Only log-odds between
    the two have their expected score worked out."""
    if rung >= 0:
        below = bot[V_ZSTAR_RUNGS + rung * N_THRESHOLDS + slot]
        if z < below - BELOW_THRESHOLD:
            return False
        if bot[V_RUNGS + rung] == open_value and z >= below:
            return True
    if rung + 1 < N_RUNGS and z >= bot[V_ZSTAR_RUNGS + (rung + 1) * N_THRESHOLDS + slot]:
        return True
    situation = HAND_GAME if hand else BEFORE_PICKUP
    cls = _CANDIDATE_CLASS[k]
    return expected(bot, params, cls, situation, _CANDIDATE_GT[k], _flags(k, hand), mat, 0, z) >= open_value


@kernel
def _suit_z(bot: np.ndarray, suits: tuple[float, float, float, float], k: int, hand: bool) -> float:
    """Suit game ``k``'s log-odds from the four of :func:`suit_logits` with the bot's confidence in suit
    games, and in hand games when ``hand``: the one sum the bid ceiling and declaring both take (so the
    log-odds the ceiling keeps are the ones declaring would work out, to the bit)."""
    z = suits[k] + _bias(bot, SUIT_CLASS)
    if hand:
        z += hand_bias(bot, SUIT_CLASS)
    return z


@kernel
def bid_ceilings(
    bot: np.ndarray, params: np.ndarray, cards: np.uint32, seat: int, reversed_ok: bool, first_word: bool
) -> tuple[int, bool]:
    """The highest value the seat bids or holds once someone has bid (0: none), and, when
    ``first_word``, whether it makes the first bid when nobody has (else False).

    Once someone has bid, a game counts when its expected score (:func:`skatsim.bots.expected.expected`)
    beats what the seat expects as a defender: its log-odds reach the block's threshold for that
    game and matadors (``V_ZSTAR_PASS``), with the skat or hand (one multiplier more); Grand estimates
    move by ``grand_bid_bias`` here, Null estimates by ``null_bid_bias``. The first bid is made when
    some game, its estimate moved by :func:`_first_bid_shift`, is worth more than passing before anyone
    has bid (:func:`pass_value`): read off the block's thresholds against a ladder of such values where
    they settle it, else worked out exactly (:func:`_worth_opening`).
    """
    limit = 0
    opens = False
    open_value = bot[V_PASS]
    if first_word:
        open_value = pass_value(bot, cards, seat, False)
    exact = open_value != bot[V_PASS]  # else the first bid is a bid like any other
    rung = _rung_of(bot, open_value) if exact else -1
    n = _candidates(reversed_ok)
    _begin_kept(bot, cards, seat)
    suits = suit_logits(BEFORE_PICKUP, cards, seat)
    nulls = null_logits(BEFORE_PICKUP, cards, 0.0, seat)
    # with the skat: every game's log-odds (kept for the hand games below, and for declaring)
    for k in range(n):
        gt = _CANDIDATE_GT[k]
        if k < 4:
            z = _suit_z(bot, suits, k, False)
            bot[V_KEPT_Z + k] = z
        else:
            if gt == NULL:  # Null and Null ouvert share their lookups
                z = _z_of(bot, k, BEFORE_PICKUP, nulls[k - 5], cards)
            else:
                z = _z(bot, k, BEFORE_PICKUP, cards, 0.0, seat)
            bot[V_KEPT_Z + k] = z
            z += _bid_caution(bot, gt)
        bot[V_LOGITS + k] = z
        ouvert = _CANDIDATE_OUVERT[k] == 1
        shift = _first_bid_shift(bot, gt) if first_word and not opens else 0.0
        if z < _least(bot, least_slot(gt, False, ouvert), exact, rung, shift):
            continue
        limit, opens = _weigh_bid(
            bot, params, cards, k, False, z, _mat(gt, cards), limit, opens, exact, open_value, rung, shift
        )
    # hand: only games whose hand log-odds can reach a threshold (their log-odds with the skat under the
    # hand floor, raised by as much as the first bid's threshold lies under V_ZMIN_PASS when it is in
    # question), and (no first bid in question) whose hand value would raise the ceiling; the four
    # suits' hand log-odds share their lookups
    floors = hand_floors(cards, seat)
    hand_suits = (0.0, 0.0, 0.0, 0.0)
    have_suits = False
    hand_nulls = (0.0, 0.0)
    have_nulls = False
    for k in range(n):
        gt = _CANDIDATE_GT[k]
        ouvert = _CANDIDATE_OUVERT[k] == 1
        ls = least_slot(gt, True, ouvert)
        floor = bot[floors + ls]
        shift = _first_bid_shift(bot, gt) if first_word and not opens else 0.0
        if first_word and not opens:  # once the seat opens, only the ceiling (V_ZMIN_PASS) is in question
            floor += _least(bot, ls, exact, rung, shift) - bot[V_ZMIN_PASS + ls]
        if bot[V_LOGITS + k] < floor:
            continue
        least = _least(bot, ls, exact and not opens, rung, shift)
        if k < 4:
            if not have_suits:
                hand_suits = suit_logits(HAND_GAME, cards, seat)
                have_suits = True
                for j in range(4):
                    bot[V_KEPT_Z + N_CANDIDATES + j] = _suit_z(bot, hand_suits, j, True)
            z = bot[V_KEPT_Z + N_CANDIDATES + k]
        else:
            if gt == NULL:
                if not have_nulls:
                    hand_nulls = null_logits(HAND_GAME, cards, 0.0, seat)
                    have_nulls = True
                z = _z_of(bot, k, HAND_GAME, hand_nulls[k - 5], cards)
            else:
                z = _z(bot, k, HAND_GAME, cards, 0.0, seat)
            bot[V_KEPT_Z + N_CANDIDATES + k] = z
            z += _bid_caution(bot, gt)
        if z < least:
            continue
        mat = _mat(gt, cards)
        if not (exact and not opens) and _value(gt, mat, True, ouvert) <= limit:
            continue
        limit, opens = _weigh_bid(bot, params, cards, k, True, z, mat, limit, opens, exact, open_value, rung, shift)
    return limit, opens and first_word


@kernel
def ceiling(bot: np.ndarray, params: np.ndarray, cards: np.uint32, seat: int, reversed_ok: bool) -> int:
    """How high the seat bids or holds: the highest value of a game worth more than defending
    (:func:`bid_ceilings`), and at least the first bid, 18, when some game is worth more than passing
    before anyone has bid. One ceiling whatever the auction: a seat speaks first before anyone has
    bid, except forehand, whose first-bid question is the one he faces alone (after two passes); when
    he answers a bid of 18 instead, he holds it on that ceiling too (a documented approximation)."""
    limit, opens = bid_ceilings(bot, params, cards, seat, reversed_ok, True)
    if opens:
        return max(limit, BID_VALUES[0])
    return limit


@kernel
def contested_ceiling(bot: np.ndarray, params: np.ndarray, cards: np.uint32, seat: int) -> int:
    """The seat's ceiling once someone has bid (:func:`bid_ceilings`)."""
    return bid_ceilings(bot, params, cards, seat, params[REVERSED_ALLOWED] == 1, False)[0]


@kernel
def _begin_kept(bot: np.ndarray, cards: np.uint32, seat: int) -> None:
    """Start keeping the log-odds :func:`bid_ceilings` works out for ``cards`` at ``seat``
    (``V_KEPT_Z``, none worked out yet), so that declaring with the same cards takes them."""
    bot[V_KEPT_CARDS] = cards
    bot[V_KEPT_SEAT] = seat
    for k in range(2 * N_CANDIDATES):
        bot[V_KEPT_Z + k] = math.nan


@kernel
def forget_kept(bot: np.ndarray) -> None:
    """Drop the log-odds kept by :func:`bid_ceilings` (a new deal: they were for its cards)."""
    bot[V_KEPT_CARDS] = 0.0


@kernel
def _kept(bot: np.ndarray, cards: np.uint32, seat: int, k: int) -> bool:
    """Whether ``bot[V_KEPT_Z + k]`` holds a log-odds :func:`bid_ceilings` worked out for ``cards`` at
    ``seat`` (the same sums as :func:`_z` and :func:`suit_logits` give, in the same order)."""
    return bot[V_KEPT_CARDS] == cards and bot[V_KEPT_SEAT] == seat and not math.isnan(bot[V_KEPT_Z + k])


@kernel
def _fill_pickup_logits(bot: np.ndarray, cards: np.uint32, seat: int, reversed_ok: bool) -> None:
    """The player's log-odds of every candidate with these ten cards, with the skat (``bot[V_LOGITS + k]``);
    those the bid ceiling worked out already are taken from it (:func:`_kept`)."""
    if _kept(bot, cards, seat, 0):  # the four suits are worked out together
        for k in range(4):
            bot[V_LOGITS + k] = bot[V_KEPT_Z + k]
    else:
        suits = suit_logits(BEFORE_PICKUP, cards, seat)
        for k in range(4):
            bot[V_LOGITS + k] = _suit_z(bot, suits, k, False)
    for k in range(4, _candidates(reversed_ok)):
        if _kept(bot, cards, seat, k):
            bot[V_LOGITS + k] = bot[V_KEPT_Z + k]
        else:
            bot[V_LOGITS + k] = _z(bot, k, BEFORE_PICKUP, cards, 0.0, seat)


@kernel
def _fill_hand_logits(bot: np.ndarray, cards: np.uint32, seat: int, reversed_ok: bool) -> None:
    """The player's log-odds of every candidate with these ten cards, hand
    (``bot[V_LOGITS + N_CANDIDATES + k]``); those the bid ceiling worked out already are taken from it,
    and Null's and Null ouvert's share their lookups as the ceiling's do."""
    if _kept(bot, cards, seat, N_CANDIDATES):  # the four suits are worked out together
        for k in range(4):
            bot[V_LOGITS + N_CANDIDATES + k] = bot[V_KEPT_Z + N_CANDIDATES + k]
    else:
        hand_suits = suit_logits(HAND_GAME, cards, seat)
        for k in range(4):
            bot[V_LOGITS + N_CANDIDATES + k] = _suit_z(bot, hand_suits, k, True)
    hand_nulls = (0.0, 0.0)
    have_nulls = False
    for k in range(4, _candidates(reversed_ok)):
        if _kept(bot, cards, seat, N_CANDIDATES + k):
            bot[V_LOGITS + N_CANDIDATES + k] = bot[V_KEPT_Z + N_CANDIDATES + k]
        elif _CANDIDATE_GT[k] == NULL:  # Null and Null ouvert share their lookups
            if not have_nulls:
                hand_nulls = null_logits(HAND_GAME, cards, 0.0, seat)
                have_nulls = True
            bot[V_LOGITS + N_CANDIDATES + k] = _z_of(bot, k, HAND_GAME, hand_nulls[k - 5], cards)
        else:
            bot[V_LOGITS + N_CANDIDATES + k] = _z(bot, k, HAND_GAME, cards, 0.0, seat)


@kernel
def _fill_logits(bot: np.ndarray, cards: np.uint32, seat: int, reversed_ok: bool) -> None:
    """The player's log-odds of every candidate with these ten cards, with the skat
    (``bot[V_LOGITS + k]``) and hand (``bot[V_LOGITS + N_CANDIDATES + k]``): what declaring weighs."""
    _fill_pickup_logits(bot, cards, seat, reversed_ok)
    _fill_hand_logits(bot, cards, seat, reversed_ok)


@kernel
def _hand_may_reach(bot: np.ndarray, cards: np.uint32, seat: int, reversed_ok: bool) -> bool:
    """Whether some candidate's hand log-odds may reach the least hand threshold of its game, judged
    from its log-odds with the skat (``_fill_pickup_logits``) against its hand floor
    (:func:`skatsim.bots.expected.hand_floors`: that threshold less the hand bias and the largest amount
    by which the hand log-odds of a hand with these jacks, at this seat, can exceed them): when none
    may, the hand log-odds need not be worked out (:func:`_hand_worth_weighing` would skip every one)."""
    floors = hand_floors(cards, seat)
    for k in range(_candidates(reversed_ok)):
        if bot[V_LOGITS + k] >= bot[floors + least_slot(_CANDIDATE_GT[k], True, _CANDIDATE_OUVERT[k] == 1)]:
            return True
    return False


@kernel
def _bound(bot: np.ndarray, gt: int, flags: int, mat: int, z: float) -> float:
    """An upper bound of :func:`skatsim.bots.expected.expected` cheaper than it: the chance of
    winning times the best a win can score, plus the chance of losing times the least a loss costs
    (:func:`skatsim.bots.expected.bound`, per threshold slot in the prepared row; with Kontra
    no bound)."""
    if bot[V_KONTRA] != 0.0:
        return 1e18
    return bound(bot, gt, flags, mat, z)


@kernel
def _fill_mats(bot: np.ndarray, n: int, cards: np.uint32) -> None:
    """``bot[V_MATS + k]``: the matadors (:func:`_mat`) of each of the ``n`` candidates in ``cards``,
    counted once for every kernel below that weighs the candidates with these cards."""
    for k in range(n):
        bot[V_MATS + k] = _mat(_CANDIDATE_GT[k], cards)


@kernel
def _mats(bot: np.ndarray, k: int) -> int:
    """Candidate ``k``'s matadors as :func:`_fill_mats` counted them."""
    return int(bot[V_MATS + k])


@kernel
def _fill_bounds(bot: np.ndarray, n: int, hand: bool, logits: int) -> None:
    """``bot[V_SCRATCH + k]``: the bound (:func:`_bound`) of each of the ``n`` candidates played hand
    or with the skat, at the log-odds ``bot[logits + k]``, its matadors those of :func:`_fill_mats`."""
    for k in range(n):
        bot[V_SCRATCH + k] = _bound(bot, _CANDIDATE_GT[k], _flags(k, hand), _mats(bot, k), bot[logits + k])


@kernel
def _best_by_bounds(
    bot: np.ndarray,
    params: np.ndarray,
    n: int,
    situation: int,
    hand: bool,
    bid: int,
    logits: int,
    best_k: int,
    best: float,
    done: int,
) -> tuple[int, float]:
    """The candidate whose expected score (:func:`skatsim.bots.expected.expected`, log-odds
    ``bot[logits + k]``, matadors of :func:`_fill_mats`) is highest and above the floor ``best``, and
    that score; ``(-1, floor)`` when none is. Candidates are weighed in the order of their bounds
    (:func:`_fill_bounds`) until no bound beats the best: branch and bound, one expected score for
    most declarations instead of seven. ``best_k`` (-1: none yet), ``best`` and ``done`` (bits: the
    candidates weighed) are where the search starts: (-1, floor, 0), or after a first step taken
    elsewhere (:func:`_pickup_estimate`)."""
    while True:
        # the candidate with the largest bound not yet in done (the first of equal ones); -1 none
        k = -1
        top = 0.0
        for j in range(n):
            if not done >> j & 1 and (k < 0 or bot[V_SCRATCH + j] > top):
                k, top = j, bot[V_SCRATCH + j]
        if k < 0 or top <= best:
            break
        done |= 1 << k
        gt = _CANDIDATE_GT[k]
        cls = _CANDIDATE_CLASS[k]
        e = expected(bot, params, cls, situation, gt, _flags(k, hand), _mats(bot, k), bid, bot[logits + k])
        if e > best:
            best_k, best = k, e
    return best_k, best


@kernel
def _best_hand_game(
    bot: np.ndarray, params: np.ndarray, bid: int, reversed_ok: bool, floor: float
) -> tuple[int, int, float]:
    """The hand game (candidate, flags with announcements) worth most, and its expected score, among
    the games that may beat ``floor``; ``(-1, 0, floor)``: none. Reads the log-odds of
    :func:`_fill_logits` and the matadors of :func:`_fill_mats` (the ten cards). Games are weighed in
    the order of a cheap upper bound of their expected score (:func:`_bound`) until no bound beats
    the best; announcements only for the best plain game (a stronger announcement needs what a
    weaker one missed)."""
    n = _candidates(reversed_ok)
    _fill_bounds(bot, n, True, V_LOGITS + N_CANDIDATES)
    best_k, best = _best_by_bounds(bot, params, n, HAND_GAME, True, bid, V_LOGITS + N_CANDIDATES, -1, floor, 0)
    if best_k < 0:
        return -1, 0, floor
    best_flags = _flags(best_k, True)
    gt = _CANDIDATE_GT[best_k]
    if gt != NULL:
        mat = _mats(bot, best_k)
        z = bot[V_LOGITS + N_CANDIDATES + best_k]
        cls = _CANDIDATE_CLASS[best_k]
        p = outcome_probs(cls * N_SITUATIONS + HAND_GAME, z)
        for a in range(1, 4):
            flags = normalise_flags(gt, _flags(best_k, True) | _ANNOUNCEMENTS[a])
            # won only when the announced level is reached: bound as in _bound with that chance
            reach = p[5] if a >= 2 else p[4] + p[5]
            win, lose = win_lose_terms(bot, params, gt, flags, mat, True, a >= 2)
            if bot[V_KONTRA] == 0.0 and (reach + 1e-4) * win + (1.0 - reach - 1e-4) * lose <= best:
                break
            e = expected(bot, params, cls, HAND_GAME, gt, flags, mat, bid, z)
            if e <= best:
                break
            best_flags, best = flags, e
    return best_k, best_flags, best


@kernel
def _hand_worth_weighing(bot: np.ndarray, hand: np.uint32, bid: int, reversed_ok: bool) -> bool:
    """Whether a hand game may be worth more than picking up; False when the block's thresholds
    settle it: some game with the skat reaching the bid is worth more than passing (``V_PASS``) and
    no hand game is (its log-odds under its threshold; announcements need more still). The exact
    comparison (:func:`declare`) then picks up too: this only spares working it out. Reads the
    log-odds of :func:`_fill_logits`."""
    pickup_ok = False
    for k in range(_candidates(reversed_ok)):
        gt = _CANDIDATE_GT[k]
        ouvert = _CANDIDATE_OUVERT[k] == 1
        z = bot[V_LOGITS + k]
        zh = bot[V_LOGITS + N_CANDIDATES + k]
        mat = -1
        if not pickup_ok and z >= bot[V_ZMIN_PASS + least_slot(gt, False, ouvert)]:
            mat = _mat(gt, hand)
            pickup_ok = (
                z >= bot[V_ZSTAR_PASS + threshold_slot(gt, False, ouvert, mat)]
                and _value(gt, mat, False, ouvert) >= bid
            )
        if zh < bot[V_ZMIN_PASS + least_slot(gt, True, ouvert)]:
            continue
        if mat < 0:
            mat = _mat(gt, hand)
        if zh >= bot[V_ZSTAR_PASS + threshold_slot(gt, True, ouvert, mat)]:
            return True
    return not pickup_ok


@kernel
def _hand_may_beat(bot: np.ndarray, params: np.ndarray, bid: int, reversed_ok: bool) -> tuple[bool, int, float]:
    """Whether some plain hand game's bound (:func:`_bound`) beats the expected score of the game with
    the skat whose bound is highest: a lower bound of what picking up promises, one expected score
    instead of all (the exact comparison follows when it may). Plain games suffice: announcements are
    weighed only for a plain hand game worth more than picking up (:func:`_best_hand_game`).
    Reads the bounds of the games with the skat (:func:`_fill_bounds`) and the matadors of
    :func:`_fill_mats`. Also returns that game and its expected score, the first step of
    :func:`_pickup_estimate` (-1 when not worked out: with Kontra, any hand game may beat it)."""
    n = _candidates(reversed_ok)
    if bot[V_KONTRA] != 0.0:
        return True, -1, 0.0
    best_k = 0
    for k in range(1, n):
        if bot[V_SCRATCH + k] > bot[V_SCRATCH + best_k]:
            best_k = k
    gt = _CANDIDATE_GT[best_k]
    cls = _CANDIDATE_CLASS[best_k]
    mat = _mats(bot, best_k)
    floor = expected(bot, params, cls, BEFORE_PICKUP, gt, _flags(best_k, False), mat, bid, bot[V_LOGITS + best_k])
    for k in range(n):
        gt = _CANDIDATE_GT[k]
        if bound(bot, gt, _flags(k, True), _mats(bot, k), bot[V_LOGITS + N_CANDIDATES + k]) > floor:
            return True, best_k, floor
    return False, best_k, floor


@kernel
def _pickup_estimate(
    bot: np.ndarray, params: np.ndarray, bid: int, reversed_ok: bool, first_k: int, first: float
) -> float:
    """What picking up the skat promises: the best game's expected score as the ten cards show it
    (the log-odds of :func:`_fill_logits`, the bounds of :func:`_fill_bounds`, the matadors of
    :func:`_fill_mats`). ``first_k`` (-1: none) is the candidate of the highest bound, already weighed
    (:func:`_hand_may_beat`): its expected score ``first`` is taken as :func:`_best_by_bounds` would
    take it as its first step, not worked out again."""
    n = _candidates(reversed_ok)
    best_k, best, done = -1, -1e18, 0
    if first_k >= 0 and bot[V_SCRATCH + first_k] > best:
        done = 1 << first_k
        if first > best:
            best_k, best = first_k, first
    return _best_by_bounds(bot, params, n, BEFORE_PICKUP, False, bid, V_LOGITS, best_k, best, done)[1]


@kernel
def declare_after_pickup(
    bot: np.ndarray,
    params: np.ndarray,
    twelve: np.uint32,
    seat: int,
    bid: int,
    reversed_ok: bool,
    forced: np.uint32,
) -> tuple[int, int, np.uint32]:
    """Game type, flags and discards after picking up the skat (``twelve`` cards): the candidate with
    the best expected score, and its two discards (``forced``: the discards already made, else 0 and
    the bot chooses per candidate). Games are weighed in the order of their bounds (:func:`_bound`)
    until none beats the best."""
    n = _candidates(reversed_ok)
    discard = forced
    # Grand's discards are two plain cards; a suit game's are the same unless one lies in its trump suit
    # (its choice passes over that suit only), and then the four suit games share their lookups
    shared = forced if forced else choose_discard(GRAND, twelve)
    suits = suit_logits_after(twelve & ~shared, float(card_points(shared)), seat)
    nulls = (0.0, 0.0)
    for k in range(n):
        gt = _CANDIDATE_GT[k]
        # Null ouvert keeps the discards of Null
        if not forced and not (_CANDIDATE_OUVERT[k] == 1 and gt == NULL and _CANDIDATE_GT[k - 1] == NULL):
            if gt == GRAND or (gt < GRAND and not shared & SUIT_MASKS[gt]):
                discard = shared
            else:
                discard = choose_discard(gt, twelve)
        if gt < GRAND and discard == shared:
            bot[V_LOGITS + k] = _suit_z(bot, suits, k, False)  # _z's sum, the lookups shared
        elif gt == NULL:  # Null and Null ouvert: the same discards, the lookups shared
            if _CANDIDATE_OUVERT[k] == 0:
                nulls = null_logits(AFTER_PICKUP, twelve & ~discard, float(card_points(discard)), seat)
            bot[V_LOGITS + k] = _z_of(bot, k, AFTER_PICKUP, nulls[k - 5], twelve & ~discard)
        else:
            bot[V_LOGITS + k] = _z(bot, k, AFTER_PICKUP, twelve & ~discard, float(card_points(discard)), seat)
        bot[V_LOGITS + N_CANDIDATES + k] = discard
    _fill_mats(bot, n, twelve)
    _fill_bounds(bot, n, False, V_LOGITS)
    k = _best_by_bounds(bot, params, n, AFTER_PICKUP, False, bid, V_LOGITS, -1, -1e18, 0)[0]
    return _CANDIDATE_GT[k], _flags(k, False), np.uint32(bot[V_LOGITS + N_CANDIDATES + k])


@kernel
def declare(
    bot: np.ndarray,
    params: np.ndarray,
    hand: np.uint32,
    skat: np.uint32,
    seat: int,
    bid: int,
    reversed_ok: bool = False,
) -> tuple[int, int, np.uint32]:
    """Hand or pickup, discards and declaration: returns ``(game_type, flags, declarer_skat)``.

    Hand when the best hand game (:func:`_best_hand_game`, announcements included) is worth more than
    what picking up promises (:func:`_pickup_estimate`); else the best game after the pickup with
    its discards (:func:`declare_after_pickup`). ``reversed_ok``: the variant allows the reversed game.
    """
    _fill_pickup_logits(bot, hand, seat, reversed_ok)
    # the hand log-odds only where some may reach a hand threshold (else no hand game is worth
    # weighing unless no game with the skat is, and then they are worked out too)
    reach = _hand_may_reach(bot, hand, seat, reversed_ok)
    if reach:
        _fill_hand_logits(bot, hand, seat, reversed_ok)
    else:  # below every least hand threshold: what _hand_worth_weighing needs of them
        for k in range(_candidates(reversed_ok)):
            bot[V_LOGITS + N_CANDIDATES + k] = -1e9
    worth = _hand_worth_weighing(bot, hand, bid, reversed_ok)
    if worth and not reach:
        _fill_hand_logits(bot, hand, seat, reversed_ok)
    if worth:
        _fill_mats(bot, _candidates(reversed_ok), hand)
        _fill_bounds(bot, _candidates(reversed_ok), False, V_LOGITS)  # the games with the skat
        may, first_k, first = _hand_may_beat(bot, params, bid, reversed_ok)
        if may:
            pickup = _pickup_estimate(bot, params, bid, reversed_ok, first_k, first)
            k, flags, _ = _best_hand_game(bot, params, bid, reversed_ok, pickup)
            if k >= 0:
                return _CANDIDATE_GT[k], flags, skat
    return declare_after_pickup(bot, params, hand | skat, seat, bid, reversed_ok, np.uint32(0))


@kernel
def declare_hand(
    bot: np.ndarray, params: np.ndarray, hand: np.uint32, seat: int, bid: int, reversed_ok: bool
) -> tuple[int, int]:
    """The hand game to declare when the bot plays hand although it would not have chosen to."""
    _fill_logits(bot, hand, seat, reversed_ok)
    _fill_mats(bot, _candidates(reversed_ok), hand)
    k, flags, _ = _best_hand_game(bot, params, bid, reversed_ok, -1e18)
    return _CANDIDATE_GT[k], flags


# --------------------------------------------------------------------------- calls and Ramsch

_JACKS = np.uint32(JACKS)


@kernel
def _open_kontra(gt: int, hand: np.uint32, open_hand: np.uint32) -> bool:
    """A sure defence in sight of an open hand: a trump above all the declarer's (suit, Grand: he
    announced Schwarz), or in Null a suit where the defender holds a card below the declarer's lowest."""
    if gt == NULL:
        for s in range(4):
            mine = hand & SUIT_MASKS[s]
            theirs = open_hand & SUIT_MASKS[s]
            if mine and theirs and lowest(NULL, mine) < lowest(NULL, theirs):
                return True
        return False
    mine = highest(gt, hand & TRUMPS[gt])
    theirs = highest(gt, open_hand & TRUMPS[gt])
    return mine >= 0 and (theirs < 0 or POWER[gt, mine] > POWER[gt, theirs])


@kernel
def kontra(
    bot: np.ndarray,
    params: np.ndarray,
    hand: np.uint32,
    gt: int,
    flags: int,
    bid: int,
    open_hand: np.uint32,
    level: int,
    leads_first: bool,
) -> bool:
    """Whether a defender holding ``hand`` makes the defenders' call at ``level`` (0 Kontra, 2 and 4
    beyond Re), doubling the game score.

    ``open_hand`` is the declarer's hand when it lies open (ouvert, seen before the call), else 0:
    then he calls on a sure defence (:func:`_open_kontra`). Otherwise his estimate ``p`` of the
    declarer's chance (:mod:`skatsim.bots.defence`; after Re moved by the calibrated ``CAL_RE_SHIFT``)
    gives the declarer's expected score for the least the game can be worth; the call changes it by
    that much again, and each defender's own points by his +40 of a lost game when the variant
    doubles list bonuses too. He calls when that improves his standing: his own gain minus half the
    declarer's and half the other defender's.
    """
    if open_hand:
        return _open_kontra(gt, hand, open_hand)
    z = defence.declarer_logit(bot, gt, flags, hand, bid, leads_first)
    if level >= 2:
        z += bot[CAL_RE_SHIFT]
    p = sigmoid(z)
    value = defence.value_at_least(gt, flags, bid)
    m = 1 << level
    declarer = p * deal_score(True, value, flags, params) + (1.0 - p) * deal_score(False, value, flags, params)
    own = 0.0
    if bot[V_BONUS_DOUBLES]:
        declarer += p * bot[V_WON_BONUS] - (1.0 - p) * bot[V_LOST_MALUS]
        own = (1.0 - p) * bot[V_DEFENDER_BONUS]
    return m * (own - 0.5 * (declarer + own)) > 0.0


@kernel
def declared_z(bot: np.ndarray, gt: int, flags: int, hand: np.uint32, skat: np.uint32, seat: int) -> float:
    """The player's log-odds of winning the declared game with the final ``hand`` (``skat``: the
    discards, or the untouched skat of a hand game, which he has not seen)."""
    cls = class_of(gt, (flags & OUVERT) != 0)
    z = _bias(bot, cls)
    if flags & HAND:
        z = z + hand_bias(bot, cls) + game_logit(cls, HAND_GAME, gt, hand, 0.0, seat)
        return z + null_hand_misjudgement(bot, hand) if cls == NULL_CLASS else z
    return z + game_logit(cls, AFTER_PICKUP, gt, hand, float(card_points(skat)), seat)


@kernel
def pickup_z(bot: np.ndarray, gt: int, ouvert: bool, cards: np.uint32, seat: int) -> float:
    """The player's log-odds of winning game ``gt`` (Null: ouvert or not) with the skat, judged from his
    ten ``cards`` before the pickup: what he bids and decides hand or pickup on."""
    cls = class_of(gt, ouvert)
    return _bias(bot, cls) + game_logit(cls, BEFORE_PICKUP, gt, cards, 0.0, seat)


@kernel
def re(
    bot: np.ndarray,
    params: np.ndarray,
    gt: int,
    flags: int,
    hand: np.uint32,
    skat: np.uint32,
    seat: int,
    bid: int,
    level: int,
) -> bool:
    """Whether the declarer answers at ``level`` (1: Re, 3: the call after the defenders' x8): when
    doubling again pays, his chance as a doubled declarer (the calibrated shift of a Kontra) weighed
    in his expected score under the variant."""
    cls = class_of(gt, (flags & OUVERT) != 0)
    situation = HAND_GAME if flags & HAND else AFTER_PICKUP
    cards = hand if flags & HAND else hand | skat  # the skat of a hand game is unseen
    z = declared_z(bot, gt, flags, hand, skat, seat) + bot[kontra_fields(cls, situation) + K_SHIFT_KONTRA]
    row = cls * N_SITUATIONS + situation
    mat = _mat(gt, cards)
    now = expected_at(bot, params, row, gt, flags, mat, bid, z, 1 << level)
    return expected_at(bot, params, row, gt, flags, mat, bid, z, 2 << level) > now


@kernel
def grand_hand_instead(bot: np.ndarray, params: np.ndarray, hand: np.uint32, seat: int) -> bool:
    """Whether to declare Grand hand instead of playing a Ramsch (``ramsch.grand_hand_instead``): when
    the Grand hand (not bid: it cannot be overbid) is worth more than the seat's Ramsch expectation."""
    z = declared_z(bot, GRAND, HAND, hand, np.uint32(0), seat)
    e = expected(bot, params, GRAND_CLASS, HAND_GAME, GRAND, HAND, _mat(GRAND, hand), 0, z)
    return e > ramschmodel.value(bot, CAL_RAMSCH, hand, seat)


@kernel
def _shed(bot: np.ndarray, cards: np.uint32, allowed: np.uint32, seat: int) -> int:
    """The allowed card whose loss leaves the hand the best Schieberamsch score (``CAL_PUSH``)."""
    best = -1
    best_value = -1e18
    m = allowed
    while m:
        c = lowest_bit(m)
        m &= m - np.uint32(1)
        v = ramschmodel.value(bot, CAL_PUSH, cards & ~bit(c), seat)
        if v > best_value:
            best, best_value = c, v
    return best


@kernel
def push(bot: np.ndarray, params: np.ndarray, hand: np.uint32, skat: np.uint32, seat: int, jacks_ok: bool) -> np.uint32:
    """Schieberamsch: the two cards to push after picking up the skat, or 0 to pass it on unseen.

    Decided before the skat is seen: the Schieberamsch model (``CAL_PUSH``, score per unit of the
    doubling) of the hand as it is, against the hand without the two cards it would push plus two
    cards of the average unseen worth; passing the skat on unseen doubles the score (or, under
    ``schieberamsch.doubling: push``, pushing does). Having picked up, it pushes the two allowed
    cards of its twelve whose loss leaves the best hand.
    """
    allowed = hand if jacks_ok else hand & ~_JACKS
    if popcount(allowed) < 2:
        return np.uint32(0)
    keep = ramschmodel.value(bot, CAL_PUSH, hand, seat)
    c1 = _shed(bot, hand, allowed, seat)
    c2 = _shed(bot, hand & ~bit(c1), allowed & ~bit(c1), seat)
    left = hand & ~bit(c1) & ~bit(c2)
    swapped = ramschmodel.value(bot, CAL_PUSH, left, seat) + 2.0 * ramschmodel.unseen_mean(bot, CAL_PUSH, ~hand)
    if params[SCHIEBE_DOUBLING] == 1:  # each push doubles
        if 2.0 * swapped <= keep:
            return np.uint32(0)
    elif swapped <= 2.0 * keep:  # passing the skat on unseen doubles
        return np.uint32(0)
    cards = hand | skat
    allowed = cards if jacks_ok else cards & ~_JACKS
    c1 = _shed(bot, cards, allowed, seat)
    c2 = _shed(bot, cards & ~bit(c1), allowed & ~bit(c1), seat)
    return bit(c1) | bit(c2)
