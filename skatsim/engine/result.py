"""A finished play state turned into the result fields every caller shares: :func:`declared_result`.

:func:`declared_result` is the single place where the play state, the bid and
the variant's parameters become the declarer's result and the deal's score.
The deal flow (:mod:`skatsim.engine.flow`) calls it for every declared game, simulated or replayed.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from .play import FLAGS, GT, TRICK_NO, declarer_result
from .rules import GRAND_OUVERT_36
from .scoring import deal_score, outcome

# Fields of the result array.
WON, VALUE, OVERBID, SCHNEIDER, SCHWARZ, MATADORS, POINTS, TRICKS, SCORE = range(9)
N_FIELDS = 9


@kernel
def declared_result(state: np.ndarray, bid: int, forfeit: bool, params: np.ndarray, result: np.ndarray) -> None:
    """Fill ``result`` for the declared game held in play ``state``."""
    points, tricks, cards12 = declarer_result(state)
    complete = state[TRICK_NO] == 10 and not forfeit
    won, value, overbid, schneider, schwarz, mat = outcome(
        state[GT], state[FLAGS], bid, cards12, points, tricks, forfeit, complete, params[GRAND_OUVERT_36] == 1
    )
    result[WON] = won
    result[VALUE] = value
    result[OVERBID] = overbid
    result[SCHNEIDER] = schneider
    result[SCHWARZ] = schwarz
    result[MATADORS] = mat
    result[POINTS] = points
    result[TRICKS] = tricks
    result[SCORE] = deal_score(won, value, state[FLAGS], params)
