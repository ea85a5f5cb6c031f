"""Deals played as lists (Bock rounds, Seeger-Fabian scoring): :func:`play_list`.

When the variant needs lists (``LIST_LENGTH`` = L > 0) game ``i`` is deal
``i % L`` of list ``i // L``: the players keep their places while the dealer
rotates, and the Bock queue (:mod:`skatsim.engine.bock`) and the players' running
totals are carried from deal to deal, so a list is a pure function of (seed,
list id, variant, bots), and any prefix of it too.
"""

from __future__ import annotations

import numpy as np

from .._jit import allocating_kernel, kernel
from . import bock
from .flow import play_game
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
    DEALER_SEAT,
)
from .rules import BOCK_ENABLED, BOCK_EVENTS, KONTRA_LIST_POINTS, LIST_LENGTH, LIST_SCORING
from .scoring import HAND, OUVERT, list_points


@allocating_kernel
def new_list_workspace(n_bot_params: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scratch arrays for :func:`play_list`: bot kinds and parameters by seat, running totals by
    player, list points by seat, the Bock queue."""
    return (
        np.zeros(3, dtype=np.int64),
        np.zeros((3, n_bot_params)),
        np.zeros(3, dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.zeros(bock.N_FIELDS, dtype=np.int64),
    )


@kernel
def _seat_bots(kinds: np.ndarray, bot_params: np.ndarray, k: int, lws: tuple) -> None:
    """Seat the players' bots for deal ``k`` of a list: the player at seat ``s`` is ``(s + k) % 3``."""
    seat_kinds, seat_params, _, _, _ = lws
    for s in range(3):
        p = (s + k) % 3
        seat_kinds[s] = kinds[p]
        for j in range(bot_params.shape[1]):
            seat_params[s, j] = bot_params[p, j]


@kernel
def _apply_bock(row: np.ndarray, multiplier: int) -> None:
    """Every score of the deal counts ``multiplier`` times (a Bock round)."""
    row[COL_BOCK] = multiplier
    row[COL_SCORE] *= multiplier
    for s in range(3):
        row[COL_SCORE_FH + s] *= multiplier


@kernel
def deal_list_points(row: np.ndarray, params: np.ndarray, out: np.ndarray) -> None:
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
def _total_reaches_100(row: np.ndarray, k: int, totals: np.ndarray, counted: np.ndarray) -> bool:
    """Add the deal's points (by seat) to the players' running totals; whether a total that changed is
    now a nonzero multiple of 100 (Bock event ``total_multiple_100``)."""
    hit = False
    for s in range(3):
        if counted[s] != 0:
            p = (s + k) % 3
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
    bot_params: np.ndarray,
    params: np.ndarray,
    rows: np.ndarray,
    logs: np.ndarray,
    record: bool,
    scratch: np.ndarray,
    ws: tuple,
    lws: tuple,
) -> None:
    """Play the first ``len(rows)`` deals of list ``list_id`` (game ids ``list_id * L + k``).

    Players 0, 1, 2 sit at FH, MH, RH in deal 0 and keep their places: in deal
    ``k`` player ``(s + k) % 3`` is at seat ``s`` (with his bot, ``kinds`` being
    by player) and player ``(k + 2) % 3`` deals. The Bock queue (:mod:`skatsim.engine.bock`)
    and the players' running totals are carried from deal to deal, so a list is a
    pure function of (seed, list id, variant, bots), and any prefix of it too.
    """
    seat_kinds, seat_params, totals, counted, queue = lws
    length = params[LIST_LENGTH]
    totals[:] = 0
    bock.new_queue(queue)
    for k in range(rows.shape[0]):
        row = rows[k]
        log = logs[k] if record else scratch
        _seat_bots(kinds, bot_params, k, lws)
        ramsch_round = bock.ramsch_round(queue, params)
        index = np.uint64(list_id * length + k)
        all_passed = play_game(seed, index, seat_kinds, seat_params, params, row, log, ws, ramsch_round)
        row[COL_LIST_ID] = list_id
        row[COL_DEAL_IN_LIST] = k
        row[COL_DEALER] = (k + DEALER_SEAT) % 3
        triggered = False
        if params[BOCK_ENABLED]:
            triggered = _deal_triggers(row, all_passed, params)
            _apply_bock(row, bock.multiplier(queue, triggered, params))
        if params[LIST_SCORING]:
            deal_list_points(row, params, counted)
            for s in range(3):
                row[COL_LIST_POINTS_FH + s] = counted[s]
        else:
            for s in range(3):
                counted[s] = row[COL_SCORE_FH + s]
        if _total_reaches_100(row, k, totals, counted) and params[BOCK_EVENTS] & bock.TOTAL_100:
            triggered = True
        if params[BOCK_ENABLED]:
            bock.advance(queue, triggered, params)
