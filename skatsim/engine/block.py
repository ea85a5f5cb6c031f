"""Blocks of games: simulated from a seed (:func:`simulate_block`) or replayed from records
(:func:`replay_block`), one result row per game.

Rows are ``int64`` with the columns of :mod:`skatsim.engine.layout` (typed into Parquet
by :mod:`skatsim.frames`). A simulated game depends only on (seed, game index, variant,
bots), never on how games are cut into blocks: every random choice comes from the
game's own streams (:mod:`skatsim.engine.deal`). Both kinds of block run every deal
through the one deal flow (:func:`skatsim.engine.flow.play_deal`).
"""

from __future__ import annotations

import numpy as np

# the seam module itself, not the bots' registry (skatsim.bots), which looks up variant calibrations
# learnt by playing deals through this engine
import skatsim.bots.seam as seam

from .._jit import allocating_kernel, kernel
from .deal import deal_game, unpack_deal
from .flow import new_record, play_deal
from .layout import LOG_BOCK, LOG_ROUND
from .lists import new_list_workspace, play_list, replay_list, score_in_list, seat_bots
from .rules import LIST_LENGTH, TABLE_PLAYERS
from .state import ERR_CODE, new_search_state, new_state


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
    are by seat, or by player in lists (players sit at FH, MH, RH in a list's first deal;
    one per player: four at a four-player table, ``TABLE_PLAYERS``); ``bot_params`` rows as
    :func:`skatsim.bots.bot_arrays` makes them for ``params``.
    """
    if params[LIST_LENGTH] and first % params[LIST_LENGTH]:
        raise ValueError("simulate_block: a block of lists must start at a multiple of the list length")
    if kinds.shape[0] != params[TABLE_PLAYERS]:
        raise ValueError("simulate_block: give one bot per player of the table (TABLE_PLAYERS)")
    bots = seam.prepare(kinds, bot_params, params)
    buf = new_search_state(params) if seam.searches(kinds) else new_state(params)  # kernels compiled per state type
    _simulate(buf, np.uint64(seed), first, kinds, bots, rows, logs, new_list_workspace())


@kernel
def _simulate(
    buf: np.ndarray,
    seed: np.uint64,
    first: int,
    kinds: np.ndarray,
    bots: np.ndarray,
    rows: np.ndarray,
    logs: np.ndarray,
    lws: tuple,
) -> None:
    """:func:`simulate_block` in the deal state ``buf[0]`` (the array keeps the state's memory alive)."""
    st = buf[0]
    record = logs.shape[0] == rows.shape[0]
    scratch = lws[3]
    length = st.params[LIST_LENGTH]
    if length == 0:
        seat_bots(st, kinds, bots, 0)
        for i in range(rows.shape[0]):
            log = logs[i] if record else scratch
            index = np.uint64(first + i)
            deal_game(seed, index, st.hands, st.skat, st.deck, st.rng)
            new_record(log)
            play_deal(st, index, rows[i], log, 0)
        return
    for start in range(0, rows.shape[0], length):
        stop = min(start + length, rows.shape[0])
        list_logs = logs[start:stop] if record else logs
        play_list(seed, (first + start) // length, kinds, bots, st, rows[start:stop], list_logs, record, scratch, lws)


@allocating_kernel
def replay_block(deals: np.ndarray, logs: np.ndarray, params: np.ndarray, rows: np.ndarray, errors: np.ndarray) -> None:
    """Replay recorded games: deal ``deals[i]`` (packed, :func:`skatsim.engine.deal.pack_deal`) played
    by the decisions of action record ``logs[i]`` under ``params``, into ``rows[i]``; a deal in a
    list gets its recorded Bock multiplier and list points. ``errors[i]`` receives the deal's
    ``DealState.error`` (all 0 when the rules accept every recorded decision)."""
    kinds, bots = seam.recorded_players()
    _replay(new_state(params), kinds, bots, deals, logs, rows, errors, new_list_workspace(), False)


@allocating_kernel
def replay_list_block(
    deals: np.ndarray, logs: np.ndarray, params: np.ndarray, rows: np.ndarray, errors: np.ndarray
) -> None:
    """Replay recorded games in order as one list of the variant ``params`` (its Bock rounds, Ramsch
    rounds, dealers and running totals decided by the rules: :func:`skatsim.engine.lists.replay_list`);
    as :func:`replay_block` otherwise, except that the list stops at the first refused game."""
    kinds, bots = seam.recorded_players()
    _replay(new_state(params), kinds, bots, deals, logs, rows, errors, new_list_workspace(), True)


@kernel
def _replay(
    buf: np.ndarray,
    kinds: np.ndarray,
    bots: np.ndarray,
    deals: np.ndarray,
    logs: np.ndarray,
    rows: np.ndarray,
    errors: np.ndarray,
    lws: tuple,
    as_list: bool,
) -> None:
    """:func:`replay_block` (``as_list`` false) or :func:`replay_list_block` in the deal state ``buf[0]``,
    the recorded players ``kinds``, ``bots`` seated; ``lws`` is the list's workspace
    (:func:`skatsim.engine.lists.new_list_workspace`), whose per-seat points a deal by deal replay uses."""
    st = buf[0]
    seat_bots(st, kinds, bots, 0)
    if as_list:
        replay_list(st, st.params[TABLE_PLAYERS], deals, logs, rows, errors, lws)
        return
    counted = lws[1]
    for i in range(rows.shape[0]):
        log = logs[i]
        st.skat[0] = unpack_deal(deals[i], st.hands)
        play_deal(st, np.uint64(i), rows[i], log, log[LOG_ROUND])
        for k in range(errors.shape[1]):
            errors[i, k] = st.error[k]
        if st.error[ERR_CODE] == 0:
            score_in_list(rows[i], log[LOG_BOCK], st.params, counted)
