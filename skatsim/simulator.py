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
from .bots import RANDOM, random_bot
from .deal import STREAM_BOTS, deal_into, pack_deal, stream_key
from .declaration import normalise_flags
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


@kernel
def _bid(kinds: np.ndarray, limits: np.ndarray, bstate: np.ndarray, rng: np.ndarray, row: np.ndarray) -> None:
    bidding.new_bidding(bstate)
    while bstate[bidding.STAGE] != bidding.DONE:
        seat = bstate[bidding.TURN]
        if kinds[seat] == RANDOM:
            action = random_bot.bid_action(bstate, rng)
        else:
            action = bidding.bot_action(bstate, limits[seat])
        bidding.bid_step(bstate, seat, action)
        if action > 0:
            row[COL_MAX_BID_FH + seat] = action
        elif action == bidding.HOLD:
            row[COL_MAX_BID_FH + seat] = bstate[bidding.BID]


@kernel
def _choose_card(kind: int, state: np.ndarray, rng: np.ndarray) -> int:
    return random_bot.uniform_card(play.legal_now(state), rng)


@kernel
def new_workspace() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scratch arrays for :func:`play_game`: hands, rng, limits, bidding, play, result, deck."""
    return (
        np.zeros(3, dtype=np.uint32),
        np.zeros(2, dtype=np.uint64),
        np.zeros(3, dtype=np.int64),
        np.zeros(bidding.N_FIELDS, dtype=np.int64),
        np.zeros(play.N_FIELDS, dtype=np.int64),
        np.zeros(N_FIELDS, dtype=np.int64),
        np.zeros(32, dtype=np.int64),
    )


@kernel
def play_game(
    seed: np.uint64,
    index: np.uint64,
    kinds: np.ndarray,
    bot_params: np.ndarray,
    params: np.ndarray,
    row: np.ndarray,
    moves: np.ndarray,
    ws: tuple,
) -> None:
    """Play one deal and fill ``row`` (and ``moves`` with the cards played, -1 when unplayed)."""
    hands, rng, limits, bstate, state, result, deck = ws
    skat = deal_into(seed, index, hands, deck)
    rng[0] = stream_key(seed, index, STREAM_BOTS)
    rng[1] = 0
    row[:] = 0
    moves[:] = -1
    row[COL_GAME_ID] = index
    row[COL_DEAL] = pack_deal(hands, skat)
    _bid(kinds, limits, bstate, rng, row)
    declarer = bstate[bidding.DECLARER]
    row[COL_DECLARER] = declarer
    row[COL_BID] = bstate[bidding.BID]
    if declarer < 0:
        row[COL_GAME_TYPE] = PASSED
        return
    gt, picked_up, discard = random_bot.declare(hands[declarer], skat, rng)
    flags = normalise_flags(gt, 0 if picked_up else HAND)
    if picked_up:
        hands[declarer] = (hands[declarer] | skat) & ~discard
        row[COL_SKAT_DISCARD] = discard
    play.new_play(state, gt, flags, declarer, hands, discard)
    n = 0
    while not state[play.OVER]:
        seat = play.to_move(state)
        c = _choose_card(kinds[seat], state, rng)
        play.apply_card(state, seat, c)
        moves[n] = c
        n += 1
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
    moves: np.ndarray,
) -> None:
    """Play games ``first .. first + len(rows) - 1`` into ``rows`` (and ``moves`` if it has rows)."""
    record = moves.shape[0] == rows.shape[0]
    scratch = np.zeros(30, dtype=np.int8)
    ws = new_workspace()
    for i in range(rows.shape[0]):
        target = moves[i] if record else scratch
        play_game(seed, np.uint64(first + i), kinds, bot_params, params, rows[i], target, ws)
