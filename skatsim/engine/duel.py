"""Seeger-Fabian list points of deals played on their own: the yardstick of a duel (``skatsim duel``).

A duel plays every deal independently (no lists: a deal's score never depends on the deals
before it), under the variant's rules, and measures each seat by its Seeger-Fabian list
points at a three-player table, whether or not the variant keeps lists. This module is the
one kernel that does it, over a block of scored rows: each row is scored as the only deal of
a list of its own (:func:`skatsim.engine.lists.score_in_list`, multiplier 1), so the rule
(:func:`skatsim.engine.scoring.list_points`: +50 and the score for a won game, -50 and the
score for a lost one, +40 to each defender of a lost game at a three-player table, a Ramsch
counting its scores, a passed deal nothing) exists once, in the engine.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from .lists import score_in_list


@kernel
def deal_list_points(rows: np.ndarray, params: np.ndarray, counted: np.ndarray) -> None:
    """Write each row's Seeger-Fabian list points by seat into its ``list_points_*`` slots.

    ``rows`` are scored deals played on their own (``simulate_block`` under a variant without
    lists); ``params`` the compiled variant with ``LIST_SCORING`` set (the caller sets it: the
    duel's yardstick, not the variant's own scoring), ``BOCK_ENABLED`` clear, so each row keeps
    its scores, and ``TABLE_PLAYERS`` 3; ``counted`` a scratch of ``lists.N_COUNTED`` slots.
    """
    for i in range(rows.shape[0]):
        score_in_list(rows[i], 1, params, counted)
