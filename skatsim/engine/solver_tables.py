"""The open-hand solver's card order: every game type's cards renumbered so that bit order is trick order.

The engine numbers a card ``suit * 8 + rank`` (:mod:`skatsim.engine.cards`); trick strength lives
in the ``GROUP`` and ``POWER`` tables of :mod:`skatsim.engine.gametypes`. The solver searches
millions of tricks, so it renumbers the cards once per game type ("positions" 0..31) such that

* each group (a plain suit, or the trumps) occupies consecutive positions,
* inside a group, a higher position is a stronger card (``POWER`` order),
* the trump group sits above every plain group.

Then the rules the search needs become single bit operations: the cards a seat may play are
``hand & P_GROUP_MASK[led group]`` (or the hand); the winner of a trick is the card at the highest
position among the cards of the led group and the trumps; the live card just below a card is the
highest set bit under it. Every table here is *derived* from the engine's ``GROUP``, ``POWER``,
``TRUMPS`` and ``CARD_POINTS`` at import time, and ``tests/test_solver.py`` checks the derived rules
against :func:`skatsim.engine.tricks.trick_winner` and :func:`skatsim.engine.tricks.legal_moves` for
every game type and every combination of cards, so the two cannot drift apart.
"""

from __future__ import annotations

import numpy as np

from .._jit import inlined_kernel, kernel, lowest_bit, popcount
from .cards import CARD_POINTS, N_CARDS
from .gametypes import GROUP, N_GAME_TYPES, POWER, TRUMP_GROUP

#: The card point values, ascending (``P_BY_POINTS`` is indexed like this).
POINT_VALUES = (0, 2, 3, 4, 10, 11)
_POINT_VALUES = np.array(POINT_VALUES, dtype=np.int64)


def _build() -> tuple[np.ndarray, ...]:
    to_pos = np.zeros((N_GAME_TYPES, N_CARDS), dtype=np.int64)
    from_pos = np.zeros((N_GAME_TYPES, N_CARDS), dtype=np.int64)
    group_mask = np.zeros((N_GAME_TYPES, TRUMP_GROUP + 1), dtype=np.uint32)
    pos_group = np.zeros((N_GAME_TYPES, N_CARDS), dtype=np.int64)
    pos_points = np.zeros((N_GAME_TYPES, N_CARDS), dtype=np.int64)
    below = np.zeros((N_GAME_TYPES, N_CARDS), dtype=np.uint32)
    for gt in range(N_GAME_TYPES):
        # Plain groups in suit order, the trumps last; inside a group by trick power.
        order = sorted(range(N_CARDS), key=lambda c, gt=gt: (int(GROUP[gt, c]), int(POWER[gt, c])))
        for p, c in enumerate(order):
            to_pos[gt, c] = p
            from_pos[gt, p] = c
            pos_group[gt, p] = GROUP[gt, c]
            pos_points[gt, p] = CARD_POINTS[c]
            group_mask[gt, GROUP[gt, c]] |= np.uint32(1 << p)
        for p in range(N_CARDS):
            below[gt, p] = group_mask[gt, pos_group[gt, p]] & np.uint32((1 << p) - 1)
    by_points = np.zeros((N_GAME_TYPES, len(POINT_VALUES)), dtype=np.uint32)
    for gt in range(N_GAME_TYPES):
        for p in range(N_CARDS):
            by_points[gt, POINT_VALUES.index(int(pos_points[gt, p]))] |= np.uint32(1 << p)
    for table in (to_pos, from_pos, group_mask, pos_group, pos_points, below, by_points):
        table.flags.writeable = False
    return to_pos, from_pos, group_mask, pos_group, pos_points, below, by_points


def _runs() -> tuple[np.ndarray, np.ndarray]:
    """``P_RUNS[mode, gt, k]``: the blocks of positions inside which live cards are interchangeable by
    rank (``P_N_RUNS[mode, gt]`` of them). Mode 0 (card points): maximal runs of consecutive positions
    of one group worth the same points (7 8 9, the jacks); mode 1 (tricks only): whole groups."""
    runs = np.zeros((2, N_GAME_TYPES, 16), dtype=np.uint32)
    n_runs = np.zeros((2, N_GAME_TYPES), dtype=np.int64)
    for gt in range(N_GAME_TYPES):
        for mode in (0, 1):
            p = 0
            while p < N_CARDS:
                q = p
                while (
                    q + 1 < N_CARDS
                    and P_GROUP[gt, q + 1] == P_GROUP[gt, p]
                    and (mode == 1 or P_POINTS[gt, q + 1] == P_POINTS[gt, p])
                ):
                    q += 1
                if q > p:
                    runs[mode, gt, n_runs[mode, gt]] = np.uint32(((1 << (q + 1)) - 1) & ~((1 << p) - 1))
                    n_runs[mode, gt] += 1
                p = q + 1
    runs.flags.writeable = False
    n_runs.flags.writeable = False
    return runs, n_runs


def _pext8() -> np.ndarray:
    """``PEXT8[m, x]``: the bits of the byte ``x`` at the set bits of the byte ``m``, packed to the bottom
    in order (a byte of the BMI2 ``pext`` instruction, as a 64 KiB table)."""
    x = np.arange(256, dtype=np.int64)
    table = np.zeros((256, 256), dtype=np.uint8)
    for m in range(256):
        out = np.zeros(256, dtype=np.int64)
        k = 0
        for b in range(8):
            if m >> b & 1:
                out |= ((x >> b) & 1) << k
                k += 1
        table[m] = out
    table.flags.writeable = False
    return table


def _run_union(runs: np.ndarray, n_runs: np.ndarray) -> np.ndarray:
    """``P_RUN_UNION[mode, gt]``: the positions in any block of ``P_RUNS[mode, gt]``."""
    union = np.zeros(n_runs.shape, dtype=np.uint32)
    for mode in range(n_runs.shape[0]):
        for gt in range(n_runs.shape[1]):
            for k in range(n_runs[mode, gt]):
                union[mode, gt] |= runs[mode, gt, k]
    union.flags.writeable = False
    return union


#: ``TO_POS[gt, card]``: the card's position in game type ``gt``; ``FROM_POS[gt, pos]`` the inverse.
#: ``P_GROUP_MASK[gt, group]``: the positions of a group (plain suits 0..3, ``TRUMP_GROUP`` 4).
#: ``P_GROUP[gt, pos]``: the group of a position. ``P_POINTS[gt, pos]``: its card points.
#: ``P_BELOW[gt, pos]``: the positions of the same group below it (weaker cards).
#: ``P_BY_POINTS[gt, k]``: the positions worth ``POINT_VALUES[k]`` points.
TO_POS, FROM_POS, P_GROUP_MASK, P_GROUP, P_POINTS, P_BELOW, P_BY_POINTS = _build()
P_RUNS, P_N_RUNS = _runs()
P_RUN_UNION = _run_union(P_RUNS, P_N_RUNS)
PEXT8 = _pext8()


def _point_ranks8(by_points: np.ndarray, pext8: np.ndarray) -> np.ndarray:
    """``P_RANKS8[gt, j, b]``: for the byte ``b`` of live cards at byte ``j`` of the positions, the bits of the
    live cards worth at least 2, 3, 4, 10, 11 points packed in order (:func:`pext` of those masks by ``b``), one
    byte each from the bottom: the five ``pext`` of ``solver_search._point_ranks`` for one byte in one lookup."""
    table = np.zeros((by_points.shape[0], 4, 256), dtype=np.uint64)
    for gt in range(by_points.shape[0]):
        at_least = 0
        for k in range(len(POINT_VALUES) - 1, 0, -1):
            at_least |= int(by_points[gt, k])
            for j in range(4):  # every byte b at once: column (mask byte) of PEXT8
                packed = pext8[:, (at_least >> (8 * j)) & 255].astype(np.uint64)
                table[gt, j] |= packed << np.uint64(8 * (k - 1))
    table.flags.writeable = False
    return table


P_RANKS8 = _point_ranks8(P_BY_POINTS, PEXT8)


@kernel
def _renumber(table: np.ndarray, gt: int, mask: np.uint32) -> np.uint32:
    """The mask of ``table[gt, i]`` for every bit ``i`` of ``mask`` (``table``: ``TO_POS`` or ``FROM_POS``)."""
    out = np.uint32(0)
    while mask:
        i = lowest_bit(mask)
        mask &= mask - np.uint32(1)
        out |= np.uint32(1) << np.uint32(table[gt, i])
    return out


@kernel
def to_positions(gt: int, mask: np.uint32) -> np.uint32:
    """A card mask in the engine's numbering as a mask of positions of game type ``gt``."""
    return _renumber(TO_POS, gt, mask)


@kernel
def to_cards(gt: int, mask: np.uint32) -> np.uint32:
    """A mask of positions of game type ``gt`` as a card mask in the engine's numbering."""
    return _renumber(FROM_POS, gt, mask)


@kernel
def points_of(gt: int, mask: np.uint32) -> int:
    """Card points of a mask of positions."""
    total = 0
    for k in range(1, len(_POINT_VALUES)):
        total += _POINT_VALUES[k] * popcount(mask & P_BY_POINTS[gt, k])
    return total


@kernel
def cheapest(gt: int, mask: np.uint32, n: int) -> int:
    """Card points of the ``n`` cheapest cards of a mask of positions (all of them if it has fewer)."""
    total = 0
    for k in range(len(_POINT_VALUES)):
        if n <= 0:
            break
        take = min(n, popcount(mask & P_BY_POINTS[gt, k]))
        total += take * _POINT_VALUES[k]
        n -= take
    return total


@kernel
def cheapest_cards(gt: int, mask: np.uint32, n: int) -> np.uint32:
    """``n`` cheapest cards of a mask of positions (all of them if it has fewer; among cards of equal
    points the lowest positions)."""
    out = np.uint32(0)
    for k in range(len(_POINT_VALUES)):
        if n <= 0:
            break
        m = mask & P_BY_POINTS[gt, k]
        c = popcount(m)
        if c <= n:
            out |= m
            n -= c
            continue
        while n > 0:
            low = m & (~m + np.uint32(1))
            out |= low
            m &= ~low
            n -= 1
    return out


@kernel
def pext(x: np.uint32, m: np.uint32) -> np.uint32:
    """The bits of ``x`` at the set bits of ``m``, packed to the bottom in order (BMI2 ``pext``, done a
    byte at a time with :data:`PEXT8` so that it runs on any CPU)."""
    out = np.uint32(0)
    shift = np.uint32(0)
    for j in range(4):
        mb = (m >> np.uint32(8 * j)) & np.uint32(255)
        if mb:
            out |= np.uint32(PEXT8[mb, (x >> np.uint32(8 * j)) & np.uint32(255)]) << shift
            shift += np.uint32(popcount(mb))
    return out


@inlined_kernel
def canonical(
    gt: int, mode: int, h0: np.uint32, h1: np.uint32, h2: np.uint32
) -> tuple[np.uint32, np.uint32, np.uint32]:
    """The hands with the live cards of every block of ``P_RUNS[mode, gt]`` moved to the bottom of the
    block, in order and with their owners. Positions that differ only by which cards of a block are gone
    have the same canonical hands and the same value: inside a block, cards that are next to each other
    among the live ones win and lose against the same cards (and are worth the same in mode 0).

    Done with three :func:`pext` over all the blocks at once (the live cards of the blocks packed in
    order, each hand's among them), then each block's share shifted to the block's bottom: no loop over
    cards (the loop over cards it replaces cost 45 ns in mode 0, 87 ns in mode 1)."""
    union = P_RUN_UNION[mode, gt]
    live = (h0 | h1 | h2) & union
    p0 = pext(h0, live)
    p1 = pext(h1, live)
    p2 = pext(h2, live)
    keep = ~union
    c0 = h0 & keep
    c1 = h1 & keep
    c2 = h2 & keep
    off = np.uint32(0)
    for k in range(P_N_RUNS[mode, gt]):
        run = P_RUNS[mode, gt, k]
        n = np.uint32(popcount(live & run))
        if n == 0:
            continue
        sel = (np.uint32(1) << n) - np.uint32(1)
        base = np.uint32(lowest_bit(run))
        c0 |= ((p0 >> off) & sel) << base
        c1 |= ((p1 >> off) & sel) << base
        c2 |= ((p2 >> off) & sel) << base
        off += n
    return c0, c1, c2


@kernel
def to_canonical(gt: int, mode: int, live: np.uint32, p: int) -> int:
    """The canonical position (see :func:`canonical`) of the live position ``p``."""
    for k in range(P_N_RUNS[mode, gt]):
        run = P_RUNS[mode, gt, k]
        if run >> np.uint32(p) & np.uint32(1):
            return lowest_bit(run) + popcount(live & run & ((np.uint32(1) << np.uint32(p)) - np.uint32(1)))
    return p


@kernel
def from_canonical(gt: int, mode: int, live: np.uint32, q: int) -> int:
    """The live position whose canonical position is ``q`` (-1 if none)."""
    for k in range(P_N_RUNS[mode, gt]):
        run = P_RUNS[mode, gt, k]
        if run >> np.uint32(q) & np.uint32(1):
            m = live & run
            for _ in range(q - lowest_bit(run)):
                m &= m - np.uint32(1)
            return lowest_bit(m) if m else -1
    return q
