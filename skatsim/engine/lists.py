"""Deals at a table of players: who sits where, Bock rounds and list points (:func:`play_list`).

When the variant needs lists (``LIST_LENGTH`` = L > 0) game ``i`` is deal ``i % L`` of
list ``i // L``. The players keep their places while the deal moves round the table:
in deal ``k`` player ``(s + k) % n`` sits at seat ``s`` and player ``(k + n - 1) % n``
deals (:func:`seat_bots`), so the deal flow only ever sees three seats. The Bock queue
(:mod:`skatsim.engine.bock`) and the players' running totals are carried from deal to
deal, so a list is a pure function of (seed, list id, variant, bots), and any prefix
of it too. :func:`score_in_list` is what a deal's place in a list adds to its row —
the Bock multiplier and Seeger-Fabian list points — and serves a replayed deal too.
"""

from __future__ import annotations

import numpy as np

from .._jit import allocating_kernel, kernel
from . import bock
from .deal import deal_game
from .flow import new_record, play_deal
from .layout import (
    COL_BOCK,
    COL_DEAL_IN_LIST,
    COL_DEALER,
    COL_DECLARER,
    COL_GAME_TYPE,
    COL_HAND,
    COL_KONTRA_LEVEL,
    COL_LIST_ID,
    COL_LIST_POINTS_FH,
    COL_OUVERT,
    COL_POINTS,
    COL_SCORE,
    COL_SCORE_FH,
    COL_VALUE,
    COL_WON,
    LOG_BOCK,
    LOG_WIDTH,
)
from .rules import BOCK_ENABLED, BOCK_EVENTS, KONTRA_LIST_POINTS, LIST_LENGTH, LIST_SCORING
from .scoring import HAND, OUVERT, list_points
from .state import DealState


@allocating_kernel
def new_list_workspace() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scratch arrays for :func:`play_list`: running totals by player, list points by seat, the Bock
    queue, and an action record for deals whose actions are not kept."""
    return (
        np.zeros(4, dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.zeros(bock.N_FIELDS, dtype=np.int64),
        np.full(LOG_WIDTH, -1, dtype=np.int16),
    )


@kernel
def seat_bots(st: DealState, kinds: np.ndarray, bots: np.ndarray, k: int) -> None:
    """Seat the players' bots for deal ``k``: the player at seat ``s`` is ``(s + k) % n``."""
    n = kinds.shape[0]
    for s in range(3):
        p = (s + k) % n
        st.kinds[s] = kinds[p]
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
    """Seeger-Fabian list points of a scored deal by seat (RULES.md §5): the declarer's score
    +50/-50, +40 to each defender of a lost game (the 50s and 40s doubled with Kontra when
    ``KONTRA_LIST_POINTS``); a Ramsch counts its scores; a passed deal nothing."""
    declarer = row[COL_DECLARER]
    if declarer >= 0:
        factor = 1 << row[COL_KONTRA_LEVEL] if params[KONTRA_LIST_POINTS] else 1
        list_points(declarer, row[COL_WON] == 1, row[COL_SCORE], params, out, factor)
    else:
        for s in range(3):
            out[s] = row[COL_SCORE_FH + s]


@kernel
def score_in_list(row: np.ndarray, multiplier: int, params: np.ndarray, counted: np.ndarray) -> None:
    """What the deal's place in a list adds to its scored row: the Bock ``multiplier`` on every score
    (under ``bock.enabled``) and the list points (under ``tournament.enabled``, else ``counted``
    gets the seats' scores: what the players' running totals add up)."""
    if params[BOCK_ENABLED]:
        _apply_bock(row, multiplier)
    if params[LIST_SCORING]:
        _deal_list_points(row, params, counted)
        for s in range(3):
            row[COL_LIST_POINTS_FH + s] = counted[s]
    else:
        for s in range(3):
            counted[s] = row[COL_SCORE_FH + s]


@kernel
def _total_reaches_100(k: int, n: int, totals: np.ndarray, counted: np.ndarray) -> bool:
    """Add the deal's points (by seat) to the ``n`` players' running totals; whether a total that
    changed is now a nonzero multiple of 100 (Bock event ``total_multiple_100``)."""
    hit = False
    for s in range(3):
        if counted[s] != 0:
            p = (s + k) % n
            totals[p] += counted[s]
            hit |= totals[p] % 100 == 0 and totals[p] != 0
    return hit


@kernel
def _deal_triggers(row: np.ndarray, all_passed: bool, params: np.ndarray) -> bool:
    flags = HAND * row[COL_HAND] + OUVERT * row[COL_OUVERT]
    return bock.deal_event(
        params,
        all_passed,
        row[COL_GAME_TYPE],
        flags,
        row[COL_WON] == 1,
        row[COL_POINTS],
        row[COL_VALUE],
        row[COL_KONTRA_LEVEL],
    )


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

    ``kinds`` and ``bots`` are by player; players 0, 1, 2 sit at FH, MH, RH in deal 0.
    """
    totals, counted, queue, _ = lws
    params = st.params
    length = params[LIST_LENGTH]
    totals[:] = 0
    bock.new_queue(queue)
    n = kinds.shape[0]
    for k in range(rows.shape[0]):
        row = rows[k]
        log = logs[k] if record else scratch
        index = np.uint64(list_id * length + k)
        seat_bots(st, kinds, bots, k)
        deal_game(seed, index, st.hands, st.skat, st.deck, st.rng)
        new_record(log)
        ramsch_round = bock.ramsch_round(queue, params)
        all_passed = play_deal(st, index, row, log, ramsch_round)
        row[COL_LIST_ID] = list_id
        row[COL_DEAL_IN_LIST] = k
        row[COL_DEALER] = (k + n - 1) % n
        triggered = False
        multiplier = 1
        if params[BOCK_ENABLED]:
            triggered = _deal_triggers(row, all_passed, params)
            multiplier = bock.multiplier(queue, triggered, params)
        log[LOG_BOCK] = multiplier
        score_in_list(row, multiplier, params, counted)
        if _total_reaches_100(k, n, totals, counted) and params[BOCK_EVENTS] & bock.TOTAL_100:
            triggered = True
        if params[BOCK_ENABLED]:
            bock.advance(queue, triggered, params)
