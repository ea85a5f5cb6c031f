"""One deal from (seed, game index) to its result row: :func:`play_game`.

A deal is bid, then declared and played, or — when all pass under
``all_pass: ramsch``/``schieberamsch``, in every deal under
``ramsch.every_deal``, or in a Bock list's Ramsch round — played as a Ramsch
(a Grand hand may be declared instead, ``ramsch.grand_hand_instead``), with
Schieberamsch pushes first. Declared games may be doubled (Kontra/Re) before
the first card. Every random choice comes from the game's own streams
(:mod:`skatsim.engine.deal`), so a row depends only on (seed, game index, variant,
bots). The row's columns are the ``COL_*`` constants of :mod:`skatsim.engine.layout`;
the actions go to a log row (``LOG_*``) for ``--record-play``.
"""

from __future__ import annotations

import numpy as np

from .._jit import allocating_kernel, highest_bit, kernel, lowest_bit
from ..bots import HEURISTIC, RANDOM, cardplay, heuristic, random_bot
from . import bidding, kontra, play, ramsch
from .deal import STREAM_BOTS, deal_into, pack_deal, stream_key
from .declaration import normalise_flags
from .gametypes import GRAND, PASSED, RAMSCH
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
    LOG_BIDS,
    LOG_CARDS,
    LOG_INSTEAD,
    LOG_KIND,
    LOG_KONTRA,
    LOG_N_BIDS,
    LOG_PUSH,
    LOG_ROUND,
    MAX_LOGGED_BIDS,
    SCHIEBERAMSCH,
)
from .result import (
    MATADORS,
    N_FIELDS,
    OVERBID,
    POINTS,
    SCHNEIDER,
    SCHWARZ,
    SCORE,
    TRICKS,
    VALUE,
    WON,
    evaluate_play,
)
from .rules import (
    ALL_PASS,
    KONTRA_ENABLED,
    KONTRA_WHEN,
    RAMSCH_DURCHMARSCH,
    RAMSCH_EVERY_DEAL,
    RAMSCH_GRAND_HAND,
    REVERSED_ALLOWED,
    SCHIEBE_JACKS,
)
from .scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED


@kernel
def _bid(
    kinds: np.ndarray, limits: np.ndarray, bstate: np.ndarray, rng: np.ndarray, row: np.ndarray, log: np.ndarray
) -> None:
    n = 0
    while bstate[bidding.STAGE] != bidding.DONE:
        seat = bstate[bidding.TURN]
        if kinds[seat] == RANDOM:
            action = random_bot.bid_action(bstate, rng)
        else:
            action = bidding.bot_action(bstate, limits[seat])
        bidding.bid_step(bstate, seat, action)
        if n < MAX_LOGGED_BIDS:
            log[LOG_BIDS + n] = seat * 1024 + action + 1
            n += 1
            log[LOG_N_BIDS] = n
        else:
            log[LOG_N_BIDS] = -1
        if action > 0:
            row[COL_MAX_BID_FH + seat] = action
        elif action == bidding.HOLD:
            row[COL_MAX_BID_FH + seat] = bstate[bidding.BID]


@kernel
def _limits(
    kinds: np.ndarray, bot_params: np.ndarray, hands: np.ndarray, limits: np.ndarray, params: np.ndarray
) -> None:
    reversed_ok = params[REVERSED_ALLOWED] == 1
    for seat in range(3):
        limits[seat] = 0
        if kinds[seat] == HEURISTIC:
            limits[seat] = heuristic.bid_limit(bot_params[seat], hands[seat], seat, reversed_ok)


@kernel
def _declare(
    kind: int,
    bot: np.ndarray,
    hands: np.ndarray,
    skat: np.uint32,
    declarer: int,
    bid: int,
    rng: np.ndarray,
    params: np.ndarray,
) -> tuple[int, int, np.uint32]:
    """Declaration of the declarer's bot: ``(game_type, flags, declarer_skat)``; updates his hand."""
    if kind == RANDOM:
        gt, picked_up, dskat = random_bot.declare(hands[declarer], skat, rng, params[REVERSED_ALLOWED] == 1)
        flags = 0 if picked_up else HAND
    else:
        reversed_ok = params[REVERSED_ALLOWED] == 1
        gt, flags, dskat = heuristic.declare(bot, hands[declarer], skat, declarer, bid, reversed_ok)
    if not flags & HAND:
        hands[declarer] = (hands[declarer] | skat) & ~dskat
    return gt, normalise_flags(gt, flags), dskat


@kernel
def play_out(
    state: np.ndarray, kinds: np.ndarray, voids: np.ndarray, rng: np.ndarray, log: np.ndarray, durchmarsch: bool
) -> None:
    """Play the cards to the end, each seat's bot choosing; cards go to ``log[LOG_CARDS:]``.
    ``durchmarsch`` tells Ramsch players whether a Durchmarsch counts."""
    voids[:] = 0
    watched = kinds[0] != RANDOM or kinds[1] != RANDOM or kinds[2] != RANDOM  # only bots that reason read voids
    n = 0
    while not state[play.OVER]:
        seat = play.to_move(state)
        if kinds[seat] == RANDOM:
            c = random_bot.uniform_card(play.legal_now(state), rng)
        else:
            c = cardplay.choose_card(state, seat, voids, durchmarsch)
        if watched:
            cardplay.note_voids(state, seat, c, voids)
        play.apply_card(state, seat, c)
        log[LOG_CARDS + n] = c
        n += 1


@allocating_kernel
def new_workspace() -> tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
]:
    """Scratch arrays for :func:`play_game`: hands, rng, limits, bidding, play, result, deck, voids,
    Ramsch result."""
    return (
        np.zeros(3, dtype=np.uint32),
        np.zeros(2, dtype=np.uint64),
        np.zeros(3, dtype=np.int64),
        np.zeros(bidding.N_FIELDS, dtype=np.int64),
        np.zeros(play.N_FIELDS, dtype=np.int64),
        np.zeros(N_FIELDS, dtype=np.int64),
        np.zeros(32, dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.zeros(ramsch.N_RESULT, dtype=np.int64),
    )


@kernel
def _kontra_calls(
    kinds: np.ndarray,
    bot_params: np.ndarray,
    bstate: np.ndarray,
    declarer: int,
    gt: int,
    flags: int,
    hands: np.ndarray,
    dskat: np.uint32,
    params: np.ndarray,
    rng: np.ndarray,
    log: np.ndarray,
) -> int:
    """Kontra, Re and the calls beyond, before the first card (RULES.md §6); returns the level reached.

    The defenders speak in seat order; the declarer answers. An ouvert declarer's cards lie open
    before the first card, so with ``kontra.when: before_first_card`` the defenders see them.
    """
    top = kontra.max_level(params)
    open_hand = np.uint32(0)
    if flags & OUVERT and params[KONTRA_WHEN] == 0:
        open_hand = hands[declarer]
    bid = bstate[bidding.BID]
    level = 0
    while level < top:
        caller = -1
        for k in range(3):
            seat = k
            if level % 2 == 1:  # the declarer's call: he alone speaks
                if k > 0:
                    break
                seat = declarer
            if kontra.call_error(level, seat, declarer, bstate[bidding.BID_BY0 + seat], params):
                continue
            if kinds[seat] == RANDOM:
                yes = random_bot.calls(rng)
            elif seat == declarer:
                yes = heuristic.re(bot_params[seat], gt, flags, hands[seat], dskat, seat, level)
            else:
                yes = heuristic.kontra(bot_params[seat], hands[seat], gt, bid, open_hand, level)
            if yes:
                caller = seat
                break
        if caller < 0:
            break
        log[LOG_KONTRA + level] = caller
        level += 1
    return level


@kernel
def _grand_hand_instead(kinds: np.ndarray, bot_params: np.ndarray, hands: np.ndarray, rng: np.ndarray) -> int:
    """The first seat (FH, MH, RH) that declares Grand hand instead of a Ramsch, -1 when none."""
    for seat in range(3):
        if kinds[seat] == RANDOM:
            yes = random_bot.calls(rng)
        else:
            yes = heuristic.grand_hand_instead(bot_params[seat], hands[seat], seat)
        if yes:
            return seat
    return -1


@kernel
def _push_round(
    kinds: np.ndarray,
    bot_params: np.ndarray,
    hands: np.ndarray,
    skat: np.uint32,
    params: np.ndarray,
    rng: np.ndarray,
    log: np.ndarray,
) -> tuple[np.uint32, int]:
    """Schieberamsch: FH, MH, RH in turn push two cards or pass the skat on unseen (RULES.md §6).
    Returns the final skat and the number of pushes."""
    jacks_ok = params[SCHIEBE_JACKS] == 1
    pushes = 0
    for seat in range(3):
        if kinds[seat] == RANDOM:
            pushed = random_bot.push(hands[seat], skat, jacks_ok, rng)
        else:
            pushed = heuristic.push(bot_params[seat], hands[seat], skat, jacks_ok)
        if pushed:
            hands[seat] = (hands[seat] | skat) & ~pushed
            skat = pushed
            pushes += 1
            log[LOG_PUSH + 2 * seat] = lowest_bit(pushed)
            log[LOG_PUSH + 2 * seat + 1] = highest_bit(pushed)
    return skat, pushes


@kernel
def _play_ramsch(
    kind: int,
    kinds: np.ndarray,
    bot_params: np.ndarray,
    params: np.ndarray,
    hands: np.ndarray,
    skat: np.uint32,
    row: np.ndarray,
    log: np.ndarray,
    ws: tuple,
) -> None:
    """Play and score a Ramsch (``kind`` 2: Schieberamsch, pushes first) into ``row``."""
    _, rng, _, _, state, _, _, voids, rres = ws
    factor = 1
    if kind == SCHIEBERAMSCH:
        skat, pushes = _push_round(kinds, bot_params, hands, skat, params, rng, log)
        factor = ramsch.schiebe_factor(pushes, 3 - pushes, params)
        row[COL_SCHIEBE_COUNT] = pushes
    play.new_play(state, RAMSCH, 0, -1, hands, skat)
    play_out(state, kinds, voids, rng, log, params[RAMSCH_DURCHMARSCH] == 1)
    ramsch.evaluate_ramsch(state, factor, params, rres)
    row[COL_GAME_TYPE] = RAMSCH
    for s in range(3):
        row[COL_SCORE_FH + s] = rres[ramsch.SCORE0 + s]
        row[COL_RAMSCH_POINTS_FH + s] = rres[ramsch.POINTS_0 + s]
    row[COL_RAMSCH_LOSER] = rres[ramsch.LOSER]
    row[COL_JUNGFRAU_COUNT] = rres[ramsch.JUNGFRAU]
    row[COL_DURCHMARSCH] = rres[ramsch.DURCHMARSCH] >= 0


@kernel
def _play_declared(
    gt: int,
    flags: int,
    dskat: np.uint32,
    declarer: int,
    kinds: np.ndarray,
    bot_params: np.ndarray,
    params: np.ndarray,
    row: np.ndarray,
    log: np.ndarray,
    ws: tuple,
) -> None:
    """Kontra/Re, play and evaluation of a declared game into ``row``."""
    hands, rng, _, bstate, state, result, _, voids, _ = ws
    level = 0
    if params[KONTRA_ENABLED]:
        level = _kontra_calls(kinds, bot_params, bstate, declarer, gt, flags, hands, dskat, params, rng, log)
    play.new_play(state, gt, flags, declarer, hands, dskat)
    play_out(state, kinds, voids, rng, log, False)
    evaluate_play(state, bstate[bidding.BID], False, params, result)
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
def _compulsory_ramsch(params: np.ndarray, ramsch_round: int) -> int:
    """Kind of Ramsch played without bidding: a Bock list's Ramsch round, or every deal
    (``ramsch.every_deal``); 0 when the deal is bid."""
    if ramsch_round > 0:
        return ramsch_round
    if params[RAMSCH_EVERY_DEAL]:
        return params[ALL_PASS]
    return 0


@kernel
def _new_row(index: np.uint64, hands: np.ndarray, skat: np.uint32, row: np.ndarray, log: np.ndarray) -> None:
    row[:] = 0
    log[:] = -1
    row[COL_GAME_ID] = index
    row[COL_DEAL] = pack_deal(hands, skat)
    row[COL_DECLARER] = -1
    row[COL_BOCK] = 1
    row[COL_RAMSCH_LOSER] = -1
    row[COL_SCHIEBE_COUNT] = -1
    row[COL_DEALER] = DEALER_SEAT
    log[LOG_N_BIDS] = 0
    log[LOG_KIND] = 0
    log[LOG_ROUND] = 0


@kernel
def play_game(
    seed: np.uint64,
    index: np.uint64,
    kinds: np.ndarray,
    bot_params: np.ndarray,
    params: np.ndarray,
    row: np.ndarray,
    log: np.ndarray,
    ws: tuple,
    ramsch_round: int,
) -> bool:
    """Play one deal: fill ``row`` with its result and ``log`` with its actions (see ``LOG_*``).

    ``ramsch_round`` is the kind of compulsory Ramsch when the deal belongs to a Bock list's
    Ramsch round (0 otherwise). ``bot_params`` are prepared (:func:`skatsim.bots.heuristic.prepare`).
    Returns whether all three passed in the bidding.
    """
    hands, rng, limits, bstate, _, _, deck, _, _ = ws
    skat = deal_into(seed, index, hands, deck)
    rng[0] = stream_key(seed, index, STREAM_BOTS)
    rng[1] = 0
    _new_row(index, hands, skat, row, log)
    bidding.new_bidding(bstate)
    kind = _compulsory_ramsch(params, ramsch_round)
    log[LOG_ROUND] = ramsch_round
    all_passed = False
    if kind == 0:
        _limits(kinds, bot_params, hands, limits, params)
        _bid(kinds, limits, bstate, rng, row, log)
        row[COL_BID] = bstate[bidding.BID]
        all_passed = bstate[bidding.DECLARER] < 0
        if all_passed:
            kind = params[ALL_PASS]
            if kind == 0:
                row[COL_GAME_TYPE] = PASSED
                return True
    if kind == 0:
        declarer = bstate[bidding.DECLARER]
        gt, flags, dskat = _declare(
            kinds[declarer], bot_params[declarer], hands, skat, declarer, row[COL_BID], rng, params
        )
        if not flags & HAND:
            row[COL_SKAT_DISCARD] = dskat
        _play_declared(gt, flags, dskat, declarer, kinds, bot_params, params, row, log, ws)
        return False
    log[LOG_KIND] = kind
    declarer = -1
    if params[RAMSCH_GRAND_HAND]:
        declarer = _grand_hand_instead(kinds, bot_params, hands, rng)
    if declarer >= 0:
        log[LOG_INSTEAD] = declarer
        _play_declared(GRAND, HAND, skat, declarer, kinds, bot_params, params, row, log, ws)
    else:
        _play_ramsch(kind, kinds, bot_params, params, hands, skat, row, log, ws)
    return all_passed
