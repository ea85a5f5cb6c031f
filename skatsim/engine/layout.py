"""The layout of simulated games: the columns of a result row and the slots of an action log.

:func:`skatsim.engine.block.simulate_block` writes one ``int64`` row per game, its columns named
by :data:`COLUMNS` and indexed by the ``COL_*`` constants, and, with ``--record-play``, one
``int16`` action log per game (the ``LOG_*`` slots). :func:`record_from_log` turns a row and
its log back into a :class:`~skatsim.records.record.GameRecord`, so any simulated game can be
replayed through the rule kernels.
"""

from __future__ import annotations

import numpy as np

from ..errors import SkatsimError
from ..records.record import GameRecord
from ..schema import EVALUATION_COLUMNS
from .cards import from_mask
from .deal import unpack_deal
from .gametypes import RAMSCH
from .scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED

COLUMNS = (
    "game_id",
    "deal",
    *EVALUATION_COLUMNS,  # game_type ... score_rh, in their documented order
    "skat_discard",
    "max_bid_fh",
    "max_bid_mh",
    "max_bid_rh",
    "kontra_level",
    "bock",
    "ramsch_loser",
    "ramsch_points_fh",
    "ramsch_points_mh",
    "ramsch_points_rh",
    "jungfrau_count",
    "durchmarsch",
    "schiebe_count",
    "list_id",
    "deal_in_list",
    "dealer",
    "list_points_fh",
    "list_points_mh",
    "list_points_rh",
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
    COL_KONTRA_LEVEL,
    COL_BOCK,
    COL_RAMSCH_LOSER,
    COL_RAMSCH_POINTS_FH,
    COL_RAMSCH_POINTS_MH,
    COL_RAMSCH_POINTS_RH,
    COL_JUNGFRAU_COUNT,
    COL_DURCHMARSCH,
    COL_SCHIEBE_COUNT,
    COL_LIST_ID,
    COL_DEAL_IN_LIST,
    COL_DEALER,
    COL_LIST_POINTS_FH,
    COL_LIST_POINTS_MH,
    COL_LIST_POINTS_RH,
) = range(len(COLUMNS))
N_COLUMNS = len(COLUMNS)
#: Dealer of an independent deal (and of the first deal of a list): rearhand, player 2.
DEALER_SEAT = 2

# Layout of one game's action log (``--record-play``): int16 slots.
LOG_CARDS = 0  # 30 slots: cards in the order played, -1 after the end
LOG_N_BIDS = 30  # number of bidding actions logged (-1 when more than MAX_LOGGED_BIDS)
LOG_BIDS = 31  # MAX_LOGGED_BIDS slots: seat * 1024 + (action + 1), action as in skatsim.engine.bidding
MAX_LOGGED_BIDS = 130  # a stepwise auction has at most 2 x 63 bids and holds plus 3 passes
LOG_KONTRA = LOG_BIDS + MAX_LOGGED_BIDS  # 5 slots: the seat making each doubling call (Kontra, Re, ...), -1 none
LOG_PUSH = LOG_KONTRA + 5  # 6 slots: the two cards FH, MH, RH pushed in Schieberamsch, -1 -1 passed on unseen
LOG_INSTEAD = LOG_PUSH + 6  # seat that declared Grand hand instead of a Ramsch, -1 none
LOG_KIND = LOG_INSTEAD + 1  # kind of Ramsch the deal was (ALL_PASS codes: 1 Ramsch, 2 Schieberamsch), 0 none
LOG_ROUND = LOG_KIND + 1  # the Ramsch round of a Bock list the deal belonged to (its kind), 0 none
LOG_WIDTH = LOG_ROUND + 1

SCHIEBERAMSCH = 2  # ALL_PASS code


def record_from_log(row: np.ndarray, log: np.ndarray) -> GameRecord:
    """Rebuild the :class:`GameRecord` of a simulated game from its row and action log."""
    hands = np.zeros(3, dtype=np.uint32)
    skat = unpack_deal(np.int64(row[COL_DEAL]), hands)
    deal = tuple(c for seat in range(3) for c in from_mask(int(hands[seat]))) + tuple(from_mask(int(skat)))
    n_bids = int(log[LOG_N_BIDS])
    if n_bids < 0:
        raise SkatsimError(f"game {row[COL_GAME_ID]}: bidding too long to be logged ({MAX_LOGGED_BIDS}+ actions)")
    bids = tuple((int(v) // 1024, int(v) % 1024 - 1) for v in log[LOG_BIDS : LOG_BIDS + n_bids])
    context = {"ramsch_round": int(log[LOG_ROUND]), "bock": int(row[COL_BOCK])}
    gt = int(row[COL_GAME_TYPE])
    if gt < 0:
        return GameRecord(deal=deal, bids=bids, **context)
    cards = tuple(int(c) for c in log[LOG_CARDS : LOG_CARDS + 30] if c >= 0)
    if gt == RAMSCH:
        pushes: tuple[tuple[int, ...], ...] = ()
        if int(log[LOG_KIND]) == SCHIEBERAMSCH:
            pushed = [int(c) for c in log[LOG_PUSH : LOG_PUSH + 6]]
            pushes = tuple(() if pushed[2 * s] < 0 else (pushed[2 * s], pushed[2 * s + 1]) for s in range(3))
        return GameRecord(deal=deal, bids=bids, game_type=gt, cards=cards, pushes=pushes, **context)
    kontra_calls = tuple(int(s) for s in log[LOG_KONTRA : LOG_KONTRA + 5] if s >= 0)
    instead = int(log[LOG_INSTEAD])
    picked_up = not row[COL_HAND]
    flags = (
        (0 if picked_up else HAND)
        | (SCHNEIDER_ANNOUNCED if row[COL_SCHNEIDER_ANNOUNCED] else 0)
        | (SCHWARZ_ANNOUNCED if row[COL_SCHWARZ_ANNOUNCED] else 0)
        | (OUVERT if row[COL_OUVERT] else 0)
    )
    discards = tuple(from_mask(int(row[COL_SKAT_DISCARD]))) if picked_up else ()
    return GameRecord(
        deal=deal,
        bids=bids,
        pickup=picked_up,
        discards=discards,
        game_type=gt,
        flags=flags,
        cards=cards,
        kontra=kontra_calls,
        grand_hand_instead=None if instead < 0 else instead,
        **context,
    )
