"""Deals at a table of players: who sits where, Bock rounds and list points (:func:`play_list`).

When the variant needs lists (``LIST_LENGTH`` = L > 0) game ``i`` is deal ``i % L`` of
list ``i // L``. The players keep their places while the deal moves round the table: the
list counts *turns*, one per dealer; at turn ``t`` player ``(s + t) % n`` sits at seat ``s``
and player ``(t + n - 1) % n`` deals (:func:`seat_bots`), so the deal flow only ever sees
three seats. At a three-player table the dealer is rearhand; at a four-player table
(``TABLE_PLAYERS``, ``n`` = 4) the dealer sits out. The turn moves on after every deal but a
Grand hand declared instead of a Ramsch of a Bock list's Ramsch round under
``BOCK_RAMSCH_ROUND_GRAND`` (xskat: the same dealer deals again), so without that rule
deal ``k`` is turn ``k``. The Bock queue (:mod:`skatsim.engine.bock`) and the players'
running totals are carried from deal to deal, so a list is a pure function of (seed, list
id, variant, bots), and any prefix of it too. :func:`score_in_list` is what a deal's place
in a list adds to its row — the Bock multiplier and Seeger-Fabian list points, the player
sitting out included — and serves a replayed deal too. :func:`replay_list` plays recorded
deals as one list, the list's rules deciding each deal's place.
"""

from __future__ import annotations

import numpy as np

from .._jit import allocating_kernel, kernel
from . import bock
from .deal import deal_game, unpack_deal
from .flow import compulsory_ramsch, new_record, play_deal
from .gametypes import GRAND, RAMSCH
from .layout import (
    COL_BOCK,
    COL_DEAL_IN_LIST,
    COL_DEALER,
    COL_DECLARER,
    COL_DURCHMARSCH,
    COL_GAME_TYPE,
    COL_HAND,
    COL_KONTRA_LEVEL,
    COL_LIST_ID,
    COL_LIST_POINTS_FH,
    COL_LIST_POINTS_OUT,
    COL_OUVERT,
    COL_POINTS,
    COL_SCORE,
    COL_SCORE_FH,
    COL_VALUE,
    COL_WON,
    LOG_BIDS,
    LOG_BOCK,
    LOG_N_BIDS,
    LOG_WIDTH,
)
from .rules import (
    BOCK_ENABLED,
    BOCK_PER_EVENT,
    BOCK_RAMSCH_ROUND_GRAND,
    KONTRA_LIST_POINTS,
    LIST_LENGTH,
    LIST_SCORING,
    RAMSCH_DURCHMARSCH,
    RAMSCH_DURCHMARSCH_VALUE,
)
from .scoring import HAND, OUVERT, list_points
from .state import ERR_CODE, DealState

#: Slots of the points a deal adds to the players' totals (``counted``): the three seats, then
#: the player sitting out at a four-player table.
OUT = 3
N_COUNTED = 4


@allocating_kernel
def new_list_workspace() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scratch arrays for :func:`play_list`: running totals by player, the points a deal adds by seat
    (and for the player sitting out), the Bock queue, and an action record for deals whose actions
    are not kept."""
    return (
        np.zeros(4, dtype=np.int64),
        np.zeros(N_COUNTED, dtype=np.int64),
        np.zeros(bock.N_FIELDS, dtype=np.int64),
        np.full(LOG_WIDTH, -1, dtype=np.int16),
    )


@kernel
def _alike(kinds: np.ndarray, bots: np.ndarray) -> bool:
    """Whether every player has the same bot kind and the same prepared row."""
    for p in range(1, kinds.shape[0]):
        if kinds[p] != kinds[0]:
            return False
        for j in range(bots.shape[1]):
            if bots[p, j] != bots[0, j]:
                return False
    return True


@kernel
def seat_bots(st: DealState, kinds: np.ndarray, bots: np.ndarray, turn: int) -> None:
    """Seat the players' bots for a deal of ``turn``: the player at seat ``s`` is ``(s + turn) % n``.

    When every player has the same bot and prepared row (``st.alike``; the same ``bots`` throughout a
    state's life), the rows are copied once: the bots write only their row's scratch, which every
    decision works out before it reads it (as in a block of single deals, seated once), so a list
    need not copy the rows every deal."""
    n = kinds.shape[0]
    copy = st.alike[0] != 1
    if st.alike[0] < 0:
        st.alike[0] = 1 if _alike(kinds, bots) else 0
    for s in range(3):
        p = (s + turn) % n
        st.kinds[s] = kinds[p]
        if copy:
            for j in range(bots.shape[1]):
                st.bots[s, j] = bots[p, j]


@kernel
def _apply_bock(row: np.ndarray, multiplier: int) -> None:
    """Every score of the deal counts ``multiplier`` times (a Bock round)."""
    row[COL_BOCK] = multiplier
    row[COL_SCORE] *= multiplier
    for s in range(3):
        row[COL_SCORE_FH + s] *= multiplier


@kernel
def _deal_list_points(row: np.ndarray, params: np.ndarray, out: np.ndarray) -> None:
    """Seeger-Fabian list points of a scored deal by seat, and of the player sitting out (RULES.md
    §5): the declarer's score +50/-50, +40 to each defender of a lost game (+30 to each of the three
    others at a four-player table), the 50s and 40s doubled with Kontra when ``KONTRA_LIST_POINTS``;
    a Ramsch counts its scores; a passed deal nothing."""
    declarer = row[COL_DECLARER]
    if declarer >= 0:
        factor = 1 << row[COL_KONTRA_LEVEL] if params[KONTRA_LIST_POINTS] else 1
        list_points(declarer, row[COL_WON] == 1, row[COL_SCORE], params, out, factor)
    else:
        for s in range(3):
            out[s] = row[COL_SCORE_FH + s]
        out[OUT] = 0


@kernel
def score_in_list(row: np.ndarray, multiplier: int, params: np.ndarray, counted: np.ndarray) -> None:
    """What the deal's place in a list adds to its scored row: the Bock ``multiplier`` on every score
    (under ``bock.enabled``) and the list points (under ``tournament.enabled``, else ``counted``
    gets the seats' scores: what the players' running totals add up; ``counted[OUT]`` is what the
    player sitting out at a four-player table gets)."""
    if params[BOCK_ENABLED]:
        _apply_bock(row, multiplier)
    if params[LIST_SCORING]:
        _deal_list_points(row, params, counted)
        for s in range(3):
            row[COL_LIST_POINTS_FH + s] = counted[s]
        row[COL_LIST_POINTS_OUT] = counted[OUT]
    else:
        for s in range(3):
            counted[s] = row[COL_SCORE_FH + s]
        counted[OUT] = 0


@kernel
def _total_events(turn: int, n: int, totals: np.ndarray, counted: np.ndarray, params: np.ndarray) -> int:
    """Add the deal's points to the ``n`` players' running totals (seats by ``turn``, the player sitting
    out at a four-player table too); how many players whose total changed now show a running-total
    Bock event (:func:`skatsim.engine.bock.total_event`)."""
    hits = 0
    for s in range(N_COUNTED):
        if counted[s] == 0 or (s == OUT and n == 3):
            continue
        p = (turn + n - 1) % n if s == OUT else (s + turn) % n
        totals[p] += counted[s]
        hits += bock.total_event(totals[p], params)
    return hits


@kernel
def _deal_events(row: np.ndarray, all_passed: bool, params: np.ndarray) -> int:
    """The deal's own Bock events (:func:`skatsim.engine.bock.deal_events`) from its row."""
    flags = HAND * row[COL_HAND] + OUVERT * row[COL_OUVERT]
    durchmarsch = 0
    if row[COL_GAME_TYPE] == RAMSCH and row[COL_DURCHMARSCH] and params[RAMSCH_DURCHMARSCH]:
        durchmarsch = params[RAMSCH_DURCHMARSCH_VALUE]
    return bock.deal_events(
        params,
        all_passed,
        row[COL_GAME_TYPE],
        flags,
        row[COL_WON] == 1,
        row[COL_POINTS],
        row[COL_VALUE],
        row[COL_KONTRA_LEVEL],
        durchmarsch,
    )


@kernel
def _finish_deal(
    row: np.ndarray,
    log: np.ndarray,
    all_passed: bool,
    ramsch_round: int,
    list_id: int,
    k: int,
    turn: int,
    n: int,
    params: np.ndarray,
    lws: tuple,
) -> int:
    """A played deal's place in its list: list columns, Bock multiplier, list points, the running
    totals and the Bock queue. Returns the next deal's turn."""
    totals, counted, queue, _ = lws
    row[COL_LIST_ID] = list_id
    row[COL_DEAL_IN_LIST] = k
    row[COL_DEALER] = (turn + n - 1) % n
    events = 0
    multiplier = 1
    if params[BOCK_ENABLED]:
        events = _deal_events(row, all_passed, params)
        multiplier = bock.multiplier(queue, events > 0, params)
    log[LOG_BOCK] = multiplier
    score_in_list(row, multiplier, params, counted)
    events += _total_events(turn, n, totals, counted, params)
    again = params[BOCK_RAMSCH_ROUND_GRAND] == 1 and ramsch_round > 0 and row[COL_GAME_TYPE] == GRAND
    if params[BOCK_ENABLED]:
        rounds = events if params[BOCK_PER_EVENT] else min(events, 1)
        bock.advance(queue, rounds, params, not again)
    return turn if again else turn + 1


@kernel
def _new_list(lws: tuple) -> None:
    totals, _, queue, _ = lws
    totals[:] = 0
    bock.new_queue(queue)


@kernel
def play_list(
    seed: np.uint64,
    list_id: int,
    kinds: np.ndarray,
    bots: np.ndarray,
    st: DealState,
    rows: np.ndarray,
    logs: np.ndarray,
    record: bool,
    scratch: np.ndarray,
    lws: tuple,
) -> None:
    """Play the first ``len(rows)`` deals of list ``list_id`` (game ids ``list_id * L + k``).

    ``kinds`` and ``bots`` are by player (three or four: ``TABLE_PLAYERS``); players 0, 1, 2 sit
    at FH, MH, RH in deal 0 (at four, player 3 deals it and sits out).
    """
    params = st.params
    length = params[LIST_LENGTH]
    _new_list(lws)
    queue = lws[2]
    n = kinds.shape[0]
    turn = 0
    for k in range(rows.shape[0]):
        row = rows[k]
        log = logs[k] if record else scratch
        index = np.uint64(list_id * length + k)
        seat_bots(st, kinds, bots, turn)
        deal_game(seed, index, st.hands, st.skat, st.deck, st.rng)
        new_record(log)
        ramsch_round = bock.ramsch_round(queue, params)
        all_passed = play_deal(st, index, row, log, ramsch_round)
        turn = _finish_deal(row, log, all_passed, ramsch_round, list_id, k, turn, n, params, lws)


@kernel
def _passes_only(log: np.ndarray) -> bool:
    """Whether the recorded auction is the three passes of a deal all passed."""
    if log[LOG_N_BIDS] != 3:
        return False
    for i in range(3):
        if log[LOG_BIDS + i] % 1024 != 0:  # action + 1 == 0: a pass
            return False
    return True


@kernel
def replay_list(
    st: DealState, n: int, deals: np.ndarray, logs: np.ndarray, rows: np.ndarray, errors: np.ndarray, lws: tuple
) -> None:
    """Replay recorded deals as one list at a table of ``n`` players (the first deal's forehand is
    player 0): each deal ``deals[i]`` (packed) played by the decisions of ``logs[i]`` into
    ``rows[i]``, its Bock multiplier, Ramsch round and dealer decided by the list's rules as in
    :func:`play_list`, not read from the record (whose ``LOG_ROUND`` and ``LOG_BOCK`` are
    overwritten). For a deal the rules make a compulsory Ramsch (a Ramsch round, ``ramsch.every_deal``),
    a recorded auction of three passes is read as no auction (logs that do not say which Ramsch deals
    were compulsory write each as passed). ``errors[i]`` receives the deal's ``DealState.error``; the list stops at the
    first refused deal (its rows after it stay zero)."""
    params = st.params
    _new_list(lws)
    queue = lws[2]
    turn = 0
    for k in range(rows.shape[0]):
        log = logs[k]
        st.skat[0] = unpack_deal(deals[k], st.hands)
        ramsch_round = bock.ramsch_round(queue, params)
        if compulsory_ramsch(params, ramsch_round) and _passes_only(log):
            log[LOG_N_BIDS] = 0
        all_passed = play_deal(st, np.uint64(k), rows[k], log, ramsch_round)
        for j in range(errors.shape[1]):
            errors[k, j] = st.error[j]
        if st.error[ERR_CODE] != 0:
            return
        turn = _finish_deal(rows[k], log, all_passed, ramsch_round, 0, k, turn, n, params, lws)
