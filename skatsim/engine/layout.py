"""The engine's two per-deal arrays: the result row and the action record.

**The result row** is one ``int64`` slot per column of :data:`skatsim.schema.COLUMNS`
whose value the engine computes (source ``engine`` or ``cards``), in table order;
:data:`ROW_COLUMNS` names them and the ``COL_*`` constants index them (derived from
the schema by name, so a new column is one schema entry and one constant here).

**The action record** (``int16`` slots, ``LOG_*``) holds every decision of a deal.
The deal flow (:mod:`skatsim.engine.flow`) reads it before asking a player: a slot
that holds a decision is taken as made (checked against the rules), an ``EMPTY``
slot is asked of the seat's player and filled with the answer. A simulated deal
starts from an empty record and ends with a full one (``--record-play``); a replay
starts from the full record of a game (:mod:`skatsim.records.record`); a what-if
starts from a record filled up to the decision it forces. Yes/no decisions and
pushes have an explicit ``NO`` so that "decided: no" differs from "not asked yet".
"""

from __future__ import annotations

from ..schema import CARDS, COLUMNS, ENGINE

#: Names of the result row's slots, in table order.
ROW_COLUMNS: tuple[str, ...] = tuple(c.name for c in COLUMNS if c.source in (ENGINE, CARDS))
N_COLUMNS = len(ROW_COLUMNS)


def _slot(name: str) -> int:
    return ROW_COLUMNS.index(name)


COL_GAME_ID = _slot("game_id")
COL_GAME_TYPE = _slot("game_type")
COL_DECLARER = _slot("declarer")
COL_BID = _slot("bid")
COL_HAND = _slot("hand")
COL_OUVERT = _slot("ouvert")
COL_SCHNEIDER_ANNOUNCED = _slot("schneider_announced")
COL_SCHWARZ_ANNOUNCED = _slot("schwarz_announced")
COL_MATADORS = _slot("matadors")
COL_POINTS = _slot("declarer_points")
COL_TRICKS = _slot("declarer_tricks")
COL_SCHNEIDER = _slot("schneider")
COL_SCHWARZ = _slot("schwarz")
COL_OVERBID = _slot("overbid")
COL_WON = _slot("won")
COL_VALUE = _slot("game_value")
COL_SCORE = _slot("score")
COL_SCORE_FH = _slot("score_fh")  # + seat
COL_DEALER = _slot("dealer")
COL_DEAL = _slot("deal")
COL_SKAT_DISCARD = _slot("skat_discard")
COL_MAX_BID_FH = _slot("max_bid_fh")  # + seat
COL_KONTRA_LEVEL = _slot("kontra_level")
COL_BOCK = _slot("bock")
COL_RAMSCH_LOSER = _slot("ramsch_loser")
COL_RAMSCH_POINTS_FH = _slot("ramsch_points_fh")  # + seat
COL_JUNGFRAU_COUNT = _slot("jungfrau_count")
COL_DURCHMARSCH = _slot("durchmarsch")
COL_SCHIEBE_COUNT = _slot("schiebe_count")
COL_LIST_ID = _slot("list_id")
COL_DEAL_IN_LIST = _slot("deal_in_list")
COL_LIST_POINTS_FH = _slot("list_points_fh")  # + seat
COL_LIST_POINTS_OUT = _slot("list_points_out")

#: Dealer of an independent deal (and of the first deal of a list): rearhand, player 2.
DEALER_SEAT = 2

# --- the action record ---------------------------------------------------------------------------

#: A slot not decided yet: the flow asks the seat's player.
EMPTY = -1
#: A yes/no decision taken as "no" (no Kontra call at this level, no push, no Grand instead).
NO = -2

LOG_CARDS = 0  # 30 slots: cards in the order played; EMPTY after the last
LOG_N_BIDS = 30  # number of bidding actions recorded (-1 when more than MAX_LOGGED_BIDS)
LOG_BIDS = 31  # MAX_LOGGED_BIDS slots: seat * 1024 + (action + 1), action as in skatsim.engine.bidding
MAX_LOGGED_BIDS = 130  # a stepwise auction has at most 2 x 63 bids and holds plus 3 passes
LOG_KONTRA = LOG_BIDS + MAX_LOGGED_BIDS  # 6 slots: the seat making each doubling call (Kontra, Re, ...); NO: none
N_KONTRA_SLOTS = 6
LOG_PUSH = LOG_KONTRA + N_KONTRA_SLOTS  # 6 slots: FH, MH, RH's two pushed cards in Schieberamsch; NO NO: passed on
LOG_INSTEAD = LOG_PUSH + 6  # seat that declared Grand hand instead of a Ramsch; NO: nobody
LOG_PICKUP = LOG_INSTEAD + 1  # 1 the declarer picked up the skat, 0 hand, NO no declaration (aborted)
LOG_DISCARD = LOG_PICKUP + 1  # 2 slots: the two cards put away after the pickup
LOG_GAME = LOG_DISCARD + 2  # game type declared (RAMSCH for a Ramsch deal); NO: none (passed, aborted)
LOG_FLAGS = LOG_GAME + 1  # declaration flags as announced (skatsim.engine.scoring: HAND, ... OUVERT)
LOG_END = LOG_FLAGS + 1  # a recorded early end: kind * 3 + seat (END_KINDS), EMPTY none
LOG_KIND = LOG_END + 1  # output: the kind of Ramsch the deal was (ALL_PASS codes: 1, 2), 0 none
LOG_ROUND = LOG_KIND + 1  # context: the Ramsch round of a Bock list the deal belongs to (its kind), 0 none
LOG_BOCK = LOG_ROUND + 1  # context: the deal's Bock multiplier (1 outside a Bock round)
LOG_WIDTH = LOG_BOCK + 1

#: Early ends of a recorded game, by code (ISS: SC, RE, TI, LE).
END_KINDS = ("claim", "resign", "timeout", "left")
END_CLAIM = 0

#: ``ALL_PASS`` code of a Schieberamsch.
SCHIEBERAMSCH = 2
