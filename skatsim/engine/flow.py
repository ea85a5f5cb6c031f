"""One deal, phase by phase: :func:`play_deal`, the one flow for simulation, replay and what-if.

A deal is bid, then declared and played; or — when all pass under ``all_pass:
ramsch``/``schieberamsch``, in every deal under ``ramsch.every_deal``, or in a Bock
list's Ramsch round — played as a Ramsch (a Grand hand may be declared instead,
``ramsch.grand_hand_instead``), with Schieberamsch pushes first. A declared game may
be doubled (Kontra/Re) before the first card.

At every decision the flow first reads the deal's action record
(:mod:`skatsim.engine.layout`): a decision already there is checked against the rules
and taken; an empty slot is asked of the seat's player through the bot seam
(:mod:`skatsim.bots.seam`) and filled with the answer. So a simulated deal (empty
record), a replayed game (full record, the recorded-decisions player at every seat)
and a what-if (a record filled up to a forced decision) are one flow. A recorded
decision the rules refuse stops the deal with ``DealState.error`` naming it; a record
that stops (the player has no decision) ends the deal as aborted.

The result goes to the row (``COL_*`` of :mod:`skatsim.engine.layout`); Bock multipliers
and list points are the list's (:mod:`skatsim.engine.lists`).
"""

from __future__ import annotations

import numpy as np

# the seam module itself, not the bots' registry (skatsim.bots), which looks up variant calibrations
# learnt by playing deals through this engine
import skatsim.bots.seam as seam

from .._jit import highest_bit, kernel, lowest_bit
from . import bidding, kontra, play, ramsch
from .deal import pack_deal
from .declaration import declaration_error, normalise_flags
from .gametypes import ABORTED, GRAND, NULL, PASSED, RAMSCH
from .layout import (
    COL_BID,
    COL_BOCK,
    COL_DEAL,
    COL_DEALER,
    COL_DECLARER,
    COL_DURCHMARSCH,
    COL_GAME_ID,
    COL_GAME_TYPE,
    COL_HAND,
    COL_JUNGFRAU_COUNT,
    COL_KONTRA_LEVEL,
    COL_MATADORS,
    COL_MAX_BID_FH,
    COL_OUVERT,
    COL_OVERBID,
    COL_POINTS,
    COL_RAMSCH_LOSER,
    COL_RAMSCH_POINTS_FH,
    COL_SCHIEBE_COUNT,
    COL_SCHNEIDER,
    COL_SCHNEIDER_ANNOUNCED,
    COL_SCHWARZ,
    COL_SCHWARZ_ANNOUNCED,
    COL_SCORE,
    COL_SCORE_FH,
    COL_SKAT_DISCARD,
    COL_TRICKS,
    COL_VALUE,
    COL_WON,
    DEALER_SEAT,
    EMPTY,
    END_CLAIM,
    LOG_BIDS,
    LOG_BOCK,
    LOG_CARDS,
    LOG_DISCARD,
    LOG_END,
    LOG_FLAGS,
    LOG_GAME,
    LOG_INSTEAD,
    LOG_KIND,
    LOG_KONTRA,
    LOG_N_BIDS,
    LOG_PICKUP,
    LOG_PUSH,
    LOG_ROUND,
    MAX_LOGGED_BIDS,
    NO,
    SCHIEBERAMSCH,
)
from .result import MATADORS, OVERBID, POINTS, SCHNEIDER, SCHWARZ, SCORE, TRICKS, VALUE, WON, declared_result
from .rules import ALL_PASS, RAMSCH_EVERY_DEAL, RAMSCH_GRAND_HAND
from .scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from .state import ERR_CODE, ERR_PHASE, ERR_SEAT, ERR_STEP, ERR_VALUE, DealState

# Decisions a recorded deal can break (``ERR_PHASE``); the code is the rule module's error code.
PHASE_BID = 1  # skatsim.engine.bidding.ERRORS
PHASE_DISCARD = 2  # the card (ERR_VALUE) is not among the declarer's 12 cards
PHASE_DECLARE = 3  # skatsim.engine.declaration.ERRORS
PHASE_KONTRA = 4  # skatsim.engine.kontra.ERRORS
PHASE_PUSH = 5  # skatsim.engine.ramsch.ERRORS
PHASE_CARD = 6  # skatsim.engine.play.ERRORS
#: A record whose shape does not fit what the rules made of the deal; the code is one of ``R_*``.
PHASE_RECORD = 7
R_COMPULSORY_BID = 1  # bids recorded for a compulsory Ramsch
R_BIDDING_UNFINISHED = 2  # the bidding stops, but a game is recorded
R_PASSED_DECLARED = 3  # all passed (redeal), but a game is recorded
R_RAMSCH_NO_GAME = 4  # the deal is a Ramsch, but the record has no game
R_RAMSCH_DECLARED = 5  # the deal is a Ramsch, but the record declares a game
R_INSTEAD_NOT_RAMSCH = 6  # a Grand hand instead of a Ramsch recorded for a deal that is not one
R_NO_INSTEAD = 7  # a Grand hand instead recorded under a variant without it
R_PUSHES_NOT_SCHIEBE = 8  # pushes recorded for a deal that is not a Schieberamsch
R_PUSHES_MISSING = 9  # a Schieberamsch whose pushes the record lacks
R_DISCARDS_MISSING = 10  # a pickup without two discards (ERR_VALUE: how many)
R_PLAY_UNFINISHED = 11  # the cards stop before the game is over, no early end recorded (ERR_VALUE: cards)


@kernel
def _fail(st: DealState, phase: int, code: int, step: int, seat: int, value: int) -> None:
    err = st.error
    err[ERR_CODE] = code
    err[ERR_PHASE] = phase
    err[ERR_STEP] = step
    err[ERR_SEAT] = seat
    err[ERR_VALUE] = value


@kernel
def failed(st: DealState) -> bool:
    """Whether the deal stopped on a recorded decision the rules refused."""
    return st.error[ERR_CODE] != 0


@kernel
def new_record(log: np.ndarray) -> None:
    """An empty action record: every decision still to be asked."""
    log[:] = EMPTY
    log[LOG_N_BIDS] = 0
    log[LOG_KIND] = 0
    log[LOG_ROUND] = 0
    log[LOG_BOCK] = 1


@kernel
def _begin(st: DealState, index: np.uint64, row: np.ndarray) -> None:
    """A new row for deal ``index`` with the cards in ``st``, and the bots' memory cleared."""
    row[:] = 0
    row[COL_GAME_ID] = index
    row[COL_DEAL] = pack_deal(st.hands, st.skat[0])
    row[COL_DECLARER] = -1
    row[COL_BOCK] = 1
    row[COL_RAMSCH_LOSER] = -1
    row[COL_SCHIEBE_COUNT] = -1
    row[COL_DEALER] = DEALER_SEAT
    st.error[:] = 0
    bidding.new_bidding(st.bidding)
    seam.new_deal(st)


@kernel
def _record_bid(row: np.ndarray, state: np.ndarray, seat: int, action: int) -> None:
    if action > 0:
        row[COL_MAX_BID_FH + seat] = action
    elif action == bidding.HOLD:
        row[COL_MAX_BID_FH + seat] = state[bidding.BID]


@kernel
def _auction(st: DealState, row: np.ndarray, log: np.ndarray) -> bool:
    """Bid to the end (RULES.md §2); False when the record stops before (the deal is aborted)."""
    state = st.bidding
    recorded = log[LOG_N_BIDS]
    n = 0
    while state[bidding.STAGE] != bidding.DONE:
        seat = state[bidding.TURN]
        if n < recorded:
            entry = log[LOG_BIDS + n]
            seat, action = entry // 1024, entry % 1024 - 1
            err = bidding.bid_step(state, seat, action)
            if err:
                _fail(st, PHASE_BID, err, n + 1, seat, action)
                return False
        else:
            if st.ceiling[seat] >= 0:
                action = bidding.bot_action(state, st.ceiling[seat])
            else:
                action = seam.bid(st, seat)
            if action == seam.NONE:
                if log[LOG_GAME] >= 0:
                    _fail(st, PHASE_RECORD, R_BIDDING_UNFINISHED, n, seat, n)
                return False
            bidding.bid_step(state, seat, action)
            if n < MAX_LOGGED_BIDS:
                log[LOG_BIDS + n] = seat * 1024 + action + 1
                log[LOG_N_BIDS] = n + 1
            else:
                log[LOG_N_BIDS] = -1
        _record_bid(row, state, seat, action)
        n += 1
    if n < recorded:  # a bid after the auction ended
        entry = log[LOG_BIDS + n]
        seat, action = entry // 1024, entry % 1024 - 1
        _fail(st, PHASE_BID, bidding.bid_step(state, seat, action), n + 1, seat, action)
        return False
    row[COL_BID] = state[bidding.BID]
    return True


@kernel
def _forfeits_before_discarding(log: np.ndarray, declarer: int) -> bool:
    """The record ends with the declarer resigning, timing out or leaving after the pickup and
    before discarding: he keeps all 12 cards (the skat's points and matadors count for him) and
    loses (ISS game 10330141)."""
    end = log[LOG_END]
    return end >= 0 and end % 3 == declarer and end // 3 != END_CLAIM and log[LOG_CARDS] < 0


@kernel
def _take_skat(st: DealState, log: np.ndarray, declarer: int) -> np.int64:
    """The declarer picks up the skat and puts two cards away: returns them (a mask), the skat
    itself when he forfeits first, or -1 when a recorded discard is refused."""
    skat = st.skat[0]
    ten = st.hands[declarer]
    twelve = ten | skat
    st.hands[declarer] = twelve
    a, b = log[LOG_DISCARD], log[LOG_DISCARD + 1]
    if a >= 0 and b >= 0:
        for c in (a, b):
            if not twelve >> np.uint32(c) & np.uint32(1) or (a == b and c == b):
                _fail(st, PHASE_DISCARD, 1, 1, declarer, c)
                return -1
        discard = (np.uint32(1) << np.uint32(a)) | (np.uint32(1) << np.uint32(b))
    elif a != EMPTY or b != EMPTY:
        _fail(st, PHASE_RECORD, R_DISCARDS_MISSING, 1, declarer, 1)
        return -1
    else:
        gt = log[LOG_GAME]  # decided before the discards only in a what-if: discard for that game
        chosen = seam.discard_for(st, declarer, gt) if gt >= 0 else seam.discard(st, declarer)
        if chosen == seam.NONE:
            if _forfeits_before_discarding(log, declarer):
                st.hands[declarer] = ten
                return np.int64(skat)
            _fail(st, PHASE_RECORD, R_DISCARDS_MISSING, 1, declarer, 0)
            return -1
        discard = np.uint32(chosen)
        log[LOG_DISCARD] = lowest_bit(discard)
        log[LOG_DISCARD + 1] = highest_bit(discard)
    st.hands[declarer] = twelve & ~discard
    return np.int64(discard)


@kernel
def _declare(st: DealState, row: np.ndarray, log: np.ndarray) -> tuple[int, int, np.uint32]:
    """Hand or pickup, discards, game and announcements (RULES.md §3): ``(game type, flags,
    declarer's skat)``; game type ``ABORTED`` when the record stops first, -1 on a refused one."""
    declarer = st.bidding[bidding.DECLARER]
    skat = st.skat[0]
    p = log[LOG_PICKUP]
    if p == EMPTY:
        p = seam.pickup(st, declarer)
        if p == seam.NONE:
            return ABORTED, 0, skat
        log[LOG_PICKUP] = p
    elif p == NO:
        return ABORTED, 0, skat
    picked_up = p == 1
    dskat = skat
    if picked_up:
        taken = _take_skat(st, log, declarer)
        if taken < 0:
            return -1, 0, skat
        dskat = np.uint32(taken)
        row[COL_SKAT_DISCARD] = dskat
    gt = log[LOG_GAME]
    flags = log[LOG_FLAGS]
    if gt == EMPTY:
        gt, flags = seam.declare(st, declarer, picked_up, dskat)
        if gt == seam.NONE:
            return ABORTED, 0, skat
        log[LOG_GAME] = gt
        log[LOG_FLAGS] = flags
    elif gt == NO:
        return ABORTED, 0, skat
    if not picked_up:
        flags |= HAND
    err = declaration_error(gt, flags, picked_up, st.params)
    if err:
        _fail(st, PHASE_DECLARE, err, 1, declarer, gt)
        return -1, 0, skat
    return gt, normalise_flags(gt, flags), dskat


@kernel
def _doubling(st: DealState, log: np.ndarray, declarer: int) -> int:
    """Kontra, Re and the calls beyond, before the first card (RULES.md §6): the level reached,
    -1 on a refused recorded call. The defenders speak in seat order; the declarer answers."""
    top = kontra.max_level(st.params)
    level = 0
    while True:
        caller = log[LOG_KONTRA + level]
        if caller >= 0:
            err = kontra.call_error(level, caller, declarer, st.bidding[bidding.BID_BY0 + caller], st.params)
            if err:
                _fail(st, PHASE_KONTRA, err, level + 1, caller, level + 1)
                return -1
            level += 1
            continue
        if caller == NO or level >= top:
            return level
        for k in range(3):
            seat = k
            if level % 2 == 1:  # the declarer's call: he alone speaks
                if k > 0:
                    break
                seat = declarer
            if kontra.call_error(level, seat, declarer, st.bidding[bidding.BID_BY0 + seat], st.params):
                continue
            if seam.doubles(st, seat, level):
                caller = seat
                break
        if caller < 0:
            log[LOG_KONTRA + level] = NO
            return level
        log[LOG_KONTRA + level] = caller
        level += 1


@kernel
def _end_early(st: DealState, end: int) -> bool:
    """Apply a recorded early end (``kind * 3 + seat``); True when the declarer forfeits the game.

    The declarer resigning, timing out or leaving loses; the defenders resigning (or timing out,
    leaving) or the declarer claiming the rest give him the remaining tricks and points — in
    Null: no further trick, so he wins (docs/decisions.md)."""
    state = st.play
    declarer = state[play.DECLARER]
    if end % 3 == declarer and end // 3 != END_CLAIM:
        return True
    if state[play.GT] == NULL:
        state[play.OVER] = 1
    else:
        play.concede_rest(state, declarer)
    return False


@kernel
def play_cards(st: DealState, log: np.ndarray) -> int:
    """Play the cards to the end (RULES.md §4): 0, 1 when the declarer forfeits, -1 on a refused
    recorded card or a record that stops before the game is over."""
    state = st.play
    watched = seam.watches_voids(st)
    st.voids[:] = 0
    n = 0
    while not state[play.OVER]:
        seat = play.to_move(state)
        c = log[LOG_CARDS + n]
        if c >= 0:
            if watched:
                seam.observe_card(st, seat, c)
            err = play.play_card(state, c)
            if err:
                _fail(st, PHASE_CARD, err, n + 1, seat, c)
                return -1
        else:
            if log[LOG_END] >= 0:
                return 1 if _end_early(st, log[LOG_END]) else 0
            c = seam.card(st, seat)
            if c == seam.NONE:
                _fail(st, PHASE_RECORD, R_PLAY_UNFINISHED, n + 1, seat, n)
                return -1
            if watched:
                seam.observe_card(st, seat, c)
            play.apply_card(state, seat, c)
            log[LOG_CARDS + n] = c
        n += 1
    if n < 30 and log[LOG_CARDS + n] >= 0:  # a card after the game ended
        c = log[LOG_CARDS + n]
        _fail(st, PHASE_CARD, play.play_card(state, c), n + 1, play.to_move(state), c)
        return -1
    return 0


@kernel
def _play_declared(st: DealState, row: np.ndarray, log: np.ndarray, gt: int, flags: int, dskat: np.uint32) -> None:
    """Kontra/Re, card play and the result of a declared game into ``row``."""
    declarer = st.bidding[bidding.DECLARER]
    play.new_play(st.play, gt, flags, declarer, st.hands, dskat)
    level = _doubling(st, log, declarer)
    if level < 0:
        return
    forfeit = play_cards(st, log)
    if forfeit < 0:
        return
    result = st.result
    declared_result(st.play, st.bidding[bidding.BID], forfeit == 1, st.params, result)
    score = kontra.doubled(result[SCORE], level)
    row[COL_GAME_TYPE] = gt
    row[COL_DECLARER] = declarer
    row[COL_HAND] = (flags & HAND) != 0
    row[COL_OUVERT] = (flags & OUVERT) != 0
    row[COL_SCHNEIDER_ANNOUNCED] = (flags & SCHNEIDER_ANNOUNCED) != 0
    row[COL_SCHWARZ_ANNOUNCED] = (flags & SCHWARZ_ANNOUNCED) != 0
    row[COL_MATADORS] = result[MATADORS]
    row[COL_POINTS] = result[POINTS]
    row[COL_TRICKS] = result[TRICKS]
    row[COL_SCHNEIDER] = result[SCHNEIDER]
    row[COL_SCHWARZ] = result[SCHWARZ]
    row[COL_OVERBID] = result[OVERBID]
    row[COL_WON] = result[WON]
    row[COL_VALUE] = result[VALUE]
    row[COL_SCORE] = score
    row[COL_SCORE_FH + declarer] = score
    row[COL_KONTRA_LEVEL] = level


@kernel
def _pushes(st: DealState, log: np.ndarray) -> int:
    """Schieberamsch: FH, MH, RH in turn push two cards or pass the skat on unseen (RULES.md §6);
    the number of pushes, -1 on a refused recorded push or a record without them."""
    pushes = 0
    for seat in range(3):
        a, b = log[LOG_PUSH + 2 * seat], log[LOG_PUSH + 2 * seat + 1]
        skat = st.skat[0]
        if a == EMPTY:
            chosen = seam.push(st, seat)
            if chosen == seam.NONE:
                _fail(st, PHASE_RECORD, R_PUSHES_MISSING, seat + 1, seat, seat)
                return -1
            pushed = np.uint32(chosen)
            log[LOG_PUSH + 2 * seat] = lowest_bit(pushed) if pushed else NO
            log[LOG_PUSH + 2 * seat + 1] = highest_bit(pushed) if pushed else NO
        elif a == NO:
            pushed = np.uint32(0)
        else:
            pushed = (np.uint32(1) << np.uint32(a)) | (np.uint32(1) << np.uint32(b))
            err = ramsch.push_error(st.hands[seat] | skat, pushed, st.params)
            if err:
                _fail(st, PHASE_PUSH, err, seat + 1, seat, a * 32 + b)
                return -1
        if pushed:
            st.hands[seat] = (st.hands[seat] | skat) & ~pushed
            st.skat[0] = pushed
            pushes += 1
    return pushes


@kernel
def _no_pushes(log: np.ndarray) -> bool:
    return log[LOG_PUSH] == EMPTY and log[LOG_PUSH + 2] == EMPTY and log[LOG_PUSH + 4] == EMPTY


@kernel
def _play_ramsch(st: DealState, row: np.ndarray, log: np.ndarray, kind: int) -> None:
    """Play and score a Ramsch (``kind`` 2: Schieberamsch, pushes first) into ``row``."""
    game = log[LOG_GAME]
    if game == NO:
        _fail(st, PHASE_RECORD, R_RAMSCH_NO_GAME, 1, -1, 0)
        return
    if game >= 0 and game != RAMSCH:
        _fail(st, PHASE_RECORD, R_RAMSCH_DECLARED, 1, -1, game)
        return
    log[LOG_GAME] = RAMSCH
    log[LOG_KIND] = kind
    factor = 1
    if kind == SCHIEBERAMSCH:
        pushes = _pushes(st, log)
        if pushes < 0:
            return
        factor = ramsch.schiebe_factor(pushes, 3 - pushes, st.params)
        row[COL_SCHIEBE_COUNT] = pushes
    elif not _no_pushes(log):
        _fail(st, PHASE_RECORD, R_PUSHES_NOT_SCHIEBE, 1, -1, 0)
        return
    play.new_play(st.play, RAMSCH, 0, -1, st.hands, st.skat[0])
    if play_cards(st, log) < 0:
        return
    out = st.ramsch
    ramsch.ramsch_result(st.play, factor, st.params, out)
    row[COL_GAME_TYPE] = RAMSCH
    for s in range(3):
        row[COL_SCORE_FH + s] = out[ramsch.SCORE0 + s]
        row[COL_RAMSCH_POINTS_FH + s] = out[ramsch.POINTS_0 + s]
    row[COL_RAMSCH_LOSER] = out[ramsch.LOSER]
    row[COL_JUNGFRAU_COUNT] = out[ramsch.JUNGFRAU]
    row[COL_DURCHMARSCH] = out[ramsch.DURCHMARSCH] >= 0


@kernel
def _instead_offered(params: np.ndarray, ramsch_round: int) -> bool:
    """Whether a Grand hand may be declared instead of this Ramsch (``ramsch.grand_hand_instead``: before
    every Ramsch, or only before one of a Bock list's Ramsch round)."""
    return params[RAMSCH_GRAND_HAND] == 1 or (params[RAMSCH_GRAND_HAND] == 2 and ramsch_round > 0)


@kernel
def _grand_hand_instead(st: DealState, log: np.ndarray, offered: bool) -> int:
    """The seat (FH, MH, RH first) that declares Grand hand instead of the Ramsch, -1 none."""
    seat = log[LOG_INSTEAD]
    if seat != EMPTY or not offered:
        return seat
    for s in range(3):
        if seam.grand_hand_instead(st, s):
            log[LOG_INSTEAD] = s
            return s
    log[LOG_INSTEAD] = NO
    return NO


@kernel
def _instead(st: DealState, row: np.ndarray, log: np.ndarray, seat: int) -> None:
    """A Grand hand declared instead of a Ramsch by ``seat``: no bid, the skat untouched (a recorded
    one may carry announcements)."""
    st.bidding[bidding.DECLARER] = seat
    if log[LOG_PICKUP] == EMPTY:
        log[LOG_PICKUP] = 0
    if log[LOG_GAME] == EMPTY:
        log[LOG_GAME] = GRAND
        log[LOG_FLAGS] = HAND
    gt, flags, dskat = _declare(st, row, log)
    if gt >= 0:
        _play_declared(st, row, log, gt, flags, dskat)


@kernel
def compulsory_ramsch(params: np.ndarray, ramsch_round: int) -> int:
    """Kind of Ramsch played without bidding: a Bock list's Ramsch round, or every deal
    (``ramsch.every_deal``); 0 when the deal is bid."""
    if ramsch_round > 0:
        return ramsch_round
    if params[RAMSCH_EVERY_DEAL]:
        return params[ALL_PASS]
    return 0


@kernel
def play_deal(st: DealState, index: np.uint64, row: np.ndarray, log: np.ndarray, ramsch_round: int) -> bool:
    """Play deal ``index`` with the cards in ``st.hands`` and ``st.skat`` into ``row``, deciding
    from the action record ``log`` where it holds a decision and asking the seats' players where
    it does not (filling it). ``ramsch_round`` is the kind of compulsory Ramsch when the deal
    belongs to a Bock list's Ramsch round (0 otherwise).

    Returns whether all three passed in the bidding. A recorded decision the rules refuse stops
    the deal with ``st.error`` set (:func:`failed`); the row is then incomplete.
    """
    _begin(st, index, row)
    params = st.params
    kind = compulsory_ramsch(params, ramsch_round)
    log[LOG_ROUND] = ramsch_round
    all_passed = False
    if kind:
        if log[LOG_N_BIDS] > 0:
            _fail(st, PHASE_RECORD, R_COMPULSORY_BID, 1, -1, 0)
            return False
    else:
        if not _auction(st, row, log):
            if not failed(st):
                row[COL_GAME_TYPE] = ABORTED
                row[COL_DECLARER] = st.bidding[bidding.DECLARER]
                row[COL_BID] = st.bidding[bidding.BID]
            return False
        all_passed = st.bidding[bidding.DECLARER] < 0
        if all_passed:
            kind = params[ALL_PASS]
            if kind == 0:
                if log[LOG_INSTEAD] >= 0:
                    _fail(st, PHASE_RECORD, R_INSTEAD_NOT_RAMSCH, 1, log[LOG_INSTEAD], 0)
                elif log[LOG_GAME] >= 0:
                    _fail(st, PHASE_RECORD, R_PASSED_DECLARED, 1, -1, log[LOG_GAME])
                row[COL_GAME_TYPE] = PASSED
                return True
    if kind == 0:
        if log[LOG_INSTEAD] >= 0:
            _fail(st, PHASE_RECORD, R_INSTEAD_NOT_RAMSCH, 1, log[LOG_INSTEAD], 0)
            return False
        if not _no_pushes(log):
            _fail(st, PHASE_RECORD, R_PUSHES_NOT_SCHIEBE, 1, -1, 0)
            return False
        gt, flags, dskat = _declare(st, row, log)
        if gt == ABORTED:
            row[COL_GAME_TYPE] = ABORTED
            row[COL_DECLARER] = st.bidding[bidding.DECLARER]
        elif gt >= 0:
            _play_declared(st, row, log, gt, flags, dskat)
        return False
    log[LOG_KIND] = kind
    offered = _instead_offered(params, ramsch_round)
    if log[LOG_INSTEAD] >= 0 and not offered:
        _fail(st, PHASE_RECORD, R_NO_INSTEAD, 1, log[LOG_INSTEAD], 0)
        return all_passed
    seat = _grand_hand_instead(st, log, offered)
    if seat >= 0:
        _instead(st, row, log, seat)
    else:
        _play_ramsch(st, row, log, kind)
    return all_passed
