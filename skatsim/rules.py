"""Compact numeric rule parameters: the contract between variants and kernels.

A validated variant (:mod:`skatsim.variant`) compiles to one ``int64`` array
of length ``N_PARAMS``; kernels read it by the index constants below, so a
new house rule is one constant here, one key in the variant model and one
branch in the kernel that uses it. Defaults are the official rules (ISkO).
"""

from __future__ import annotations

import numpy as np

#: Multiple of the game value a lost game costs (2 since 1999, ISkO 5.7).
LOST_FACTOR = 0
#: The same for a lost hand game (1 under the pre-1999 rules, RULES.md §6).
LOST_HAND_FACTOR = 1
#: 1 when Seeger-Fabian list points are kept (RULES.md §5).
LIST_SCORING = 2
#: List points added for a won game, subtracted for a lost one (50).
LIST_WON_BONUS = 3
LIST_LOST_MALUS = 4
#: List points each defender gets when the declarer loses (40 at a 3-player table).
LIST_DEFENDER_BONUS = 5
#: 1 when the reversed game (Sächsische Spitze) may be declared.
REVERSED_ALLOWED = 6
N_PARAMS = 7

_OFFICIAL = {
    LOST_FACTOR: 2,
    LOST_HAND_FACTOR: 2,
    LIST_SCORING: 0,
    LIST_WON_BONUS: 50,
    LIST_LOST_MALUS: 50,
    LIST_DEFENDER_BONUS: 40,
    REVERSED_ALLOWED: 0,
}


def official_params() -> np.ndarray:
    """The parameter array of the official rules (ISkO)."""
    params = np.zeros(N_PARAMS, dtype=np.int64)
    for index, value in _OFFICIAL.items():
        params[index] = value
    return params
