"""Open-hand values of played deals: what the declared game makes with perfect play by all.

For each result row of a declared game (:mod:`skatsim.engine.layout`) the deal, the declarer's
discards and the declaration give the position at the first lead; the open-hand solver
(:mod:`skatsim.engine.solver`) then answers, every seat seeing every card and playing perfectly:

* points: the declarer's final card points, skat included (-1 for Null, where points decide nothing);
* won: the game's own question — >= 61 card points (>= 90 with Schneider announced); every trick with
  Schwarz announced; no trick in Null. The bid is not looked at: the cards, not the auction, are
  measured (an overbid game is lost whatever the cards do).

Rows without a declared game (passed, Ramsch) get -1 in both. This is the yardstick the report holds
the bots' results against (``simulate --open-hand``): how often a declarer whose cards win with
perfect play wins, and how often one whose cards lose loses.

Two depths (``points`` of :func:`open_hand_values`; ``--open-hand points`` or ``won``): the exact card
points (about seven null-window searches a game, bisecting), with won read off them; or the game's own
question alone, one search a game, about five times faster, the points left at -1. Both give the same
``won``.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from .deal import unpack_deal
from .gametypes import NULL, RAMSCH
from .layout import (
    COL_DEAL,
    COL_DECLARER,
    COL_GAME_TYPE,
    COL_HAND,
    COL_OUVERT,
    COL_SCHNEIDER_ANNOUNCED,
    COL_SCHWARZ_ANNOUNCED,
    COL_SKAT_DISCARD,
)
from .play import N_FIELDS, new_play
from .scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from .solver import declarer_avoids_tricks, declarer_reaches, declarer_takes_all, new_table, new_work, solve_points
from .tricks import ALL_POINTS

#: The scratch :func:`open_hand_rows` needs: a play state and three hands.
N_SCRATCH = N_FIELDS + 3


@kernel
def open_hand_rows(
    rows: np.ndarray, out: np.ndarray, tt: np.ndarray, work: np.ndarray, scratch: np.ndarray, points: bool
) -> None:
    """``out[i, 0]``: the open-hand card points of row ``i``'s declared game, ``out[i, 1]``: 1 won,
    0 lost (-1 both where nothing was declared; points -1 for Null, and for every game unless
    ``points``: then won is one search). ``tt``, ``work``: a solver table and stack
    (:func:`skatsim.engine.solver.new_table`, ``new_work``); ``scratch``: ``N_SCRATCH`` int64 slots."""
    state = scratch[:N_FIELDS]
    hands = scratch[N_FIELDS:]
    for i in range(rows.shape[0]):
        row = rows[i]
        out[i, 0] = -1
        out[i, 1] = -1
        gt = row[COL_GAME_TYPE]
        d = row[COL_DECLARER]
        if gt < 0 or gt == RAMSCH or d < 0:
            continue
        skat = unpack_deal(row[COL_DEAL], hands)
        discard = np.uint32(row[COL_SKAT_DISCARD])
        flags = 0
        if row[COL_HAND]:
            flags |= HAND
        if row[COL_SCHNEIDER_ANNOUNCED]:
            flags |= SCHNEIDER_ANNOUNCED
        if row[COL_SCHWARZ_ANNOUNCED]:
            flags |= SCHWARZ_ANNOUNCED
        if row[COL_OUVERT]:
            flags |= OUVERT
        if discard:
            hands[d] = (np.uint32(hands[d]) | skat) & ~discard
            skat = discard
        new_play(state, gt, flags, d, hands, skat)
        target = 90 if flags & SCHNEIDER_ANNOUNCED else 61
        if gt == NULL:
            won = declarer_avoids_tricks(state, tt, work)
        elif not points and flags & SCHWARZ_ANNOUNCED:
            won = declarer_takes_all(state, tt, work)
        elif not points:
            won = declarer_reaches(state, tt, work, target)
        else:
            out[i, 0] = solve_points(state, tt, work)
            if flags & SCHWARZ_ANNOUNCED:
                # every trick takes every point: short of 120 there is nothing to search
                won = out[i, 0] == ALL_POINTS and declarer_takes_all(state, tt, work)
            else:
                won = out[i, 0] >= target
        out[i, 1] = 1 if won else 0


def open_hand_values(rows: np.ndarray, points: bool = True) -> np.ndarray:
    """The open-hand points and won (``(n, 2)``, -1 where none) of played games' result rows
    (:func:`open_hand_rows`; the points only when ``points``), simulated or replayed, with one solver
    table for the whole block: its entries are keyed by the whole position, so they stay valid from deal
    to deal."""
    out = np.zeros((rows.shape[0], 2), dtype=np.int64)
    open_hand_rows(rows, out, new_table(), new_work(), np.zeros(N_SCRATCH, dtype=np.int64), points)
    return out
