"""The batch simulation kernel: games ``first .. first + n - 1`` to result rows.

:func:`simulate_block` writes one row per game into an ``int64`` matrix whose
columns are the ``COL_*`` constants (laid out in :mod:`skatsim.engine.layout`, typed
into Parquet columns by :mod:`skatsim.run.tables`), deal by deal
(:func:`skatsim.engine.flow.play_game`) or list by list (:func:`skatsim.engine.lists.play_list`).
Every random choice comes from the game's own streams (:mod:`skatsim.engine.deal`),
so a row depends only on (seed, game index, variant, bots), never on how the
games are cut into blocks.
"""

from __future__ import annotations

import numpy as np

from .._jit import allocating_kernel
from ..bots import heuristic
from .flow import new_workspace, play_game
from .layout import LOG_WIDTH
from .lists import new_list_workspace, play_list
from .rules import LIST_LENGTH


@allocating_kernel
def simulate_block(
    seed: np.uint64,
    first: int,
    kinds: np.ndarray,
    bot_params: np.ndarray,
    params: np.ndarray,
    rows: np.ndarray,
    logs: np.ndarray,
) -> None:
    """Play games ``first .. first + len(rows) - 1`` into ``rows``.

    ``logs`` is ``(len(rows), LOG_WIDTH)`` to record every game's actions, or
    ``(0, LOG_WIDTH)`` to record none. When the variant plays lists
    (``LIST_LENGTH`` = L > 0) ``first`` must be a multiple of L: the block holds
    whole lists, the last one possibly cut short. ``kinds`` and ``bot_params``
    are by seat, or by player in lists (players sit at FH, MH, RH in a list's first deal).
    """
    bots = heuristic.prepare(bot_params)
    record = logs.shape[0] == rows.shape[0]
    scratch = np.full(LOG_WIDTH, -1, dtype=np.int16)
    ws = new_workspace()
    length = params[LIST_LENGTH]
    if length == 0:
        for i in range(rows.shape[0]):
            target = logs[i] if record else scratch
            play_game(seed, np.uint64(first + i), kinds, bots, params, rows[i], target, ws, 0)
        return
    if first % length:
        raise ValueError("simulate_block: a block of lists must start at a multiple of the list length")
    lws = new_list_workspace(bots.shape[1])
    for start in range(0, rows.shape[0], length):
        stop = min(start + length, rows.shape[0])
        list_logs = logs[start:stop] if record else logs
        play_list(
            seed,
            (first + start) // length,
            kinds,
            bots,
            params,
            rows[start:stop],
            list_logs,
            record,
            scratch,
            ws,
            lws,
        )
