"""The batch simulation kernel: whole deals from (seed, game index) to result rows.

``simulate_block`` plays games ``first .. first + n - 1`` and writes one row
per game into an ``int64`` matrix whose columns are the ``COL_*`` constants
(turned into typed Parquet columns by :mod:`skatsim.frames`). Every random
choice comes from the game's own streams (:mod:`skatsim.deal`), so a row
depends only on (seed, game index, variant, bots).
"""

from __future__ import annotations

import numpy as np

from . import bidding, play
from ._jit import kernel
from .bots import HEURISTIC, RANDOM, cardplay, heuristic, random_bot
from .bots.handeval import N_FEATURES, N_ROWS
from .bots.model import MODEL
from .cards import from_mask
from .deal import STREAM_BOTS, deal_into, pack_deal, stream_key, unpack_deal
from .declaration import normalise_flags
from .errors import SkatsimError
from .evaluation import (
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
from .gametypes import PASSED
from .record import GameRecord
from .scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED

COLUMNS = (
    "game_id",
    "deal",
    "game_type",
    "declarer",
    "bid",
    "hand",
    "ouvert",
    "schneider_announced",
    "schwarz_announced",
    "matadors",
    "declarer_points",
    "declarer_tricks",
    "schneider",
    "schwarz",
    "overbid",
    "won",
    "game_value",
    "score",
    "score_fh",
    "score_mh",
    "score_rh",
    "skat_discard",
    "max_bid_fh",
    "max_bid_mh",
    "max_bid_rh",
)
(
    COL_GAME_ID,
    COL_DEAL,
    COL_GAME_TYPE,
    COL_DECLARER,
    COL_BID,
    COL_HAND,
    COL_OUVERT,
    COL_SCHNEIDER_ANNOUNCED,
    COL_SCHWARZ_ANNOUNCED,
    COL_MATADORS,
    COL_POINTS,
    COL_TRICKS,
    COL_SCHNEIDER,
    COL_SCHWARZ,
    COL_OVERBID,
    COL_WON,
    COL_VALUE,
    COL_SCORE,
    COL_SCORE_FH,
    COL_SCORE_MH,
    COL_SCORE_RH,
    COL_SKAT_DISCARD,
    COL_MAX_BID_FH,
    COL_MAX_BID_MH,
    COL_MAX_BID_RH,
) = range(len(COLUMNS))
N_COLUMNS = len(COLUMNS)

# Layout of one game's action log (``--record-play``): int16 slots.
LOG_CARDS = 0  # 30 slots: cards in the order played, -1 after the end
LOG_N_BIDS = 30  # number of bidding actions logged (-1 when more than MAX_LOGGED_BIDS)
LOG_BIDS = 31  # MAX_LOGGED_BIDS slots: seat * 1024 + (action + 1), action as in skatsim.bidding
MAX_LOGGED_BIDS = 130  # a stepwise auction has at most 2 x 63 bids and holds plus 3 passes
LOG_WIDTH = LOG_BIDS + MAX_LOGGED_BIDS


@kernel
def _bid(
    kinds: np.ndarray, limits: np.ndarray, bstate: np.ndarray, rng: np.ndarray, row: np.ndarray, log: np.ndarray
) -> None:
    bidding.new_bidding(bstate)
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
def _limits(kinds: np.ndarray, bot_params: np.ndarray, hands: np.ndarray, limits: np.ndarray, x: np.ndarray) -> None:
    for seat in range(3):
        limits[seat] = 0
        if kinds[seat] == HEURISTIC:
            limits[seat] = heuristic.bid_limit(MODEL, bot_params[seat], hands[seat], seat, x)


@kernel
def _declare(
    kind: int,
    bot: np.ndarray,
    hands: np.ndarray,
    skat: np.uint32,
    declarer: int,
    bid: int,
    rng: np.ndarray,
    x: np.ndarray,
) -> tuple[int, int, np.uint32]:
    """Declaration of the declarer's bot: ``(game_type, flags, declarer_skat)``; updates his hand."""
    if kind == RANDOM:
        gt, picked_up, dskat = random_bot.declare(hands[declarer], skat, rng)
        flags = 0 if picked_up else HAND
    else:
        gt, flags, dskat = heuristic.declare(MODEL, bot, hands[declarer], skat, declarer, bid, x)
    if not flags & HAND:
        hands[declarer] = (hands[declarer] | skat) & ~dskat
    return gt, normalise_flags(gt, flags), dskat


@kernel
def play_out(state: np.ndarray, kinds: np.ndarray, voids: np.ndarray, rng: np.ndarray, log: np.ndarray) -> None:
    """Play the cards to the end, each seat's bot choosing; cards go to ``log[LOG_CARDS:]``."""
    voids[:] = 0
    n = 0
    while not state[play.OVER]:
        seat = play.to_move(state)
        if kinds[seat] == RANDOM:
            c = random_bot.uniform_card(play.legal_now(state), rng)
        else:
            c = cardplay.choose_card(state, seat, voids)
        cardplay.note_voids(state, seat, c, voids)
        play.apply_card(state, seat, c)
        log[LOG_CARDS + n] = c
        n += 1


@kernel
def new_workspace() -> tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]:
    """Scratch arrays for :func:`play_game`: hands, rng, limits, bidding, play, result, deck, voids,
    bot features."""
    return (
        np.zeros(3, dtype=np.uint32),
        np.zeros(2, dtype=np.uint64),
        np.zeros(3, dtype=np.int64),
        np.zeros(bidding.N_FIELDS, dtype=np.int64),
        np.zeros(play.N_FIELDS, dtype=np.int64),
        np.zeros(N_FIELDS, dtype=np.int64),
        np.zeros(32, dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.zeros((N_ROWS, N_FEATURES)),
    )


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
) -> None:
    """Play one deal: fill ``row`` with its result and ``log`` with its actions (see ``LOG_*``)."""
    hands, rng, limits, bstate, state, result, deck, voids, feats = ws
    skat = deal_into(seed, index, hands, deck)
    rng[0] = stream_key(seed, index, STREAM_BOTS)
    rng[1] = 0
    row[:] = 0
    log[:] = -1
    row[COL_GAME_ID] = index
    row[COL_DEAL] = pack_deal(hands, skat)
    _limits(kinds, bot_params, hands, limits, feats)
    _bid(kinds, limits, bstate, rng, row, log)
    declarer = bstate[bidding.DECLARER]
    row[COL_DECLARER] = declarer
    row[COL_BID] = bstate[bidding.BID]
    if declarer < 0:
        row[COL_GAME_TYPE] = PASSED
        return
    gt, flags, dskat = _declare(kinds[declarer], bot_params[declarer], hands, skat, declarer, row[COL_BID], rng, feats)
    if not flags & HAND:
        row[COL_SKAT_DISCARD] = dskat
    play.new_play(state, gt, flags, declarer, hands, dskat)
    play_out(state, kinds, voids, rng, log)
    evaluate_play(state, bstate[bidding.BID], False, params, result)
    row[COL_GAME_TYPE] = gt
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
    row[COL_SCORE] = result[SCORE]
    row[COL_SCORE_FH + declarer] = result[SCORE]


@kernel
def simulate_block(
    seed: np.uint64,
    first: int,
    kinds: np.ndarray,
    bot_params: np.ndarray,
    params: np.ndarray,
    rows: np.ndarray,
    logs: np.ndarray,
) -> None:
    """Play games ``first .. first + len(rows) - 1`` into ``rows``.

    ``logs`` is ``(len(rows), LOG_WIDTH)`` to record every game's actions, or
    ``(0, LOG_WIDTH)`` to record none.
    """
    record = logs.shape[0] == rows.shape[0]
    scratch = np.zeros(LOG_WIDTH, dtype=np.int16)
    ws = new_workspace()
    for i in range(rows.shape[0]):
        target = logs[i] if record else scratch
        play_game(seed, np.uint64(first + i), kinds, bot_params, params, rows[i], target, ws)


def record_from_log(row: np.ndarray, log: np.ndarray) -> GameRecord:
    """Rebuild the :class:`GameRecord` of a simulated game from its row and action log."""
    hands = np.zeros(3, dtype=np.uint32)
    skat = unpack_deal(np.int64(row[COL_DEAL]), hands)
    deal = tuple(c for seat in range(3) for c in from_mask(int(hands[seat]))) + tuple(from_mask(int(skat)))
    n_bids = int(log[LOG_N_BIDS])
    if n_bids < 0:
        raise SkatsimError(f"game {row[COL_GAME_ID]}: bidding too long to be logged ({MAX_LOGGED_BIDS}+ actions)")
    bids = tuple((int(v) // 1024, int(v) % 1024 - 1) for v in log[LOG_BIDS : LOG_BIDS + n_bids])
    gt = int(row[COL_GAME_TYPE])
    if gt < 0:
        return GameRecord(deal=deal, bids=bids)
    picked_up = not row[COL_HAND]
    flags = (
        (0 if picked_up else HAND)
        | (SCHNEIDER_ANNOUNCED if row[COL_SCHNEIDER_ANNOUNCED] else 0)
        | (SCHWARZ_ANNOUNCED if row[COL_SCHWARZ_ANNOUNCED] else 0)
        | (OUVERT if row[COL_OUVERT] else 0)
    )
    cards = tuple(int(c) for c in log[LOG_CARDS : LOG_CARDS + 30] if c >= 0)
    discards = tuple(from_mask(int(row[COL_SKAT_DISCARD]))) if picked_up else ()
    return GameRecord(deal=deal, bids=bids, pickup=picked_up, discards=discards, game_type=gt, flags=flags, cards=cards)
