"""The state of one deal in progress: a :data:`DEAL_STATE` record with named fields.

Everything the deal flow (:mod:`skatsim.engine.flow`) and the players (through
:mod:`skatsim.bots.seam`) read or write while a deal is played lives in one numpy record,
by name (``st.hands``, ``st.play``). Numba passes a record to a kernel as one pointer and
reads a field as an array view of it, so the whole state costs one argument, however
many fields it grows. One state serves every deal of a block: :func:`new_state` makes
it once, the flow resets what a deal starts from.

Seats are the deal's: 0 forehand, 1 middlehand, 2 rearhand. The players behind the
seats (their bot kinds and parameters) are written into ``kinds`` and ``bots`` before
each deal by whoever seats them (:mod:`skatsim.engine.lists` rotates a table's players
through the seats), so the flow never knows how many players sit at the table.
"""

from __future__ import annotations

import numpy as np

from .._jit import allocating_kernel
from ..bots.slots import N_PREPARED, N_SEARCH, SEARCH_TABLE_LOG2
from . import bidding, play, ramsch, result
from .rules import N_PARAMS
from .solver_search import ENTRY_WORDS, N_WORK, aligned_zeros

#: Slots of each seat's private bot memory (``memo``), cleared before every deal.
N_MEMO = 8

# Fields of ``error``: what the flow refused when a recorded decision broke a rule.
ERR_CODE = 0  # the rule module's error code (0: no error)
ERR_PHASE = 1  # which decision (``PHASE_*`` of skatsim.engine.flow)
ERR_STEP = 2  # its number within the phase (1-based: the 3rd bid, the 12th card)
ERR_SEAT = 3  # the seat whose decision it was
ERR_VALUE = 4  # the decision itself (a bid, a card, a game type)
N_ERROR = 5

#: The fields of a deal's state; where a field has three rows they are the seats.
_FIELDS = [
    ("params", np.int64, N_PARAMS),  # the variant's rule parameters (skatsim.engine.rules)
    ("kinds", np.int64, 3),  # bot kind at each seat (skatsim.bots registry codes)
    ("bots", np.float64, (3, N_PREPARED)),  # each seat's prepared bot parameters (skatsim.bots.seam.prepare)
    ("memo", np.int64, (3, N_MEMO)),  # each seat's bot's private memory for this deal
    ("hands", np.uint32, 3),  # the cards each seat holds before play (the declarer's after the skat)
    ("skat", np.uint32, 1),  # the skat as dealt (after Schieberamsch pushes: as passed on)
    ("rng", np.uint64, 2),  # the bots' random stream (skatsim.engine.deal.draw)
    ("bidding", np.int64, bidding.N_FIELDS),  # the auction (skatsim.engine.bidding)
    ("play", np.int64, play.N_FIELDS),  # card play (skatsim.engine.play)
    ("result", np.int64, result.N_FIELDS),  # a declared game's result (skatsim.engine.result)
    ("ramsch", np.int64, ramsch.N_RESULT),  # a Ramsch's result (skatsim.engine.ramsch)
    ("deck", np.int64, 32),  # scratch for dealing
    ("voids", np.int64, 3),  # per seat, the plain groups it has shown void in (bit g: group g); the declarer's
    # entry also the plain groups he led and his cards played of each, from bit 8 (bots.cardplay.note_voids)
    ("ceiling", np.int64, 3),  # a bid ceiling forced on a seat (what-if); -1: the seat's player bids
    ("alike", np.int64, 1),  # seat_bots' players: -1 not seen yet, 0 rows differ, 1 one row for all and it is seated
    ("error", np.int64, N_ERROR),  # a recorded decision the rules refused (ERR_* fields)
]
DEAL_STATE = np.dtype(_FIELDS, align=True)
#: The state of a deal where a bot that searches sits (:func:`skatsim.bots.seam.searches`): the same
#: fields and the search's scratch (:mod:`skatsim.bots.pimc`: an open-hand solver table of 16 MiB,
#: its stack, the worlds). A separate type, so the kernels compiled for every other deal (and their
#: first compilation, a third shorter) leave the search out: numba specialises them on the state's type.
#: The search's fields come first: numba takes a record whose fields extend another's at the same
#: offsets for a subtype of it, and would run a search state through the plain state's kernels.
SEARCH_STATE = np.dtype(
    [
        ("search_tt", np.uint64, (1 << SEARCH_TABLE_LOG2, ENTRY_WORDS)),
        ("search_work", np.int64, N_WORK),
        ("search", np.int64, N_SEARCH),
        *_FIELDS,
    ],
    align=True,
)
#: What kernels take as ``st``: one record of :data:`DEAL_STATE` (or :data:`SEARCH_STATE`).
DealState = np.void


@allocating_kernel
def new_state(params: np.ndarray) -> np.ndarray:
    """A one-element array holding a deal state for the variant ``params``; its element (``[0]``) is
    the state kernels take. The array owns the memory: keep it while the state is used."""
    buf = np.zeros(1, dtype=DEAL_STATE)
    st = buf[0]
    st.params[:] = params
    st.ceiling[:] = -1
    st.alike[0] = -1
    return buf


def new_search_state(params: np.ndarray) -> np.ndarray:
    """:func:`new_state` with the search's scratch (:data:`SEARCH_STATE`), for deals where a bot searches.
    Allocated by numpy, aligned (:func:`skatsim.engine.solver_search.aligned_zeros`): the table (the first
    field) starts on a huge page and its buckets on cache lines."""
    buf = aligned_zeros(1, SEARCH_STATE)
    buf[0]["params"][:] = params
    buf[0]["ceiling"][:] = -1
    buf[0]["alike"][0] = -1
    return buf
