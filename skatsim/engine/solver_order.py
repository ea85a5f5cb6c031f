"""The open-hand solver's move generation and ordering: one move per class of equivalent cards, best first.

Only the order of the search depends on the scores here, never its result.
"""

from __future__ import annotations

import numpy as np

from .._jit import highest_bit, kernel, lowest_bit, popcount
from .gametypes import TRUMP_GROUP
from .solver_eval import (
    ENDS_ON_DECLARER,
    GOOD_FOR_DEFENDERS,
    GT_SHIFT,
    TRICK_MODE,
    above,
    beats,
    can_beat,
    seat_hand,
    seat_to_move,
)
from .solver_tables import P_BELOW, P_GROUP, P_GROUP_MASK, P_POINTS

#: Offset of the move list in a stack frame of :func:`skatsim.engine.solver_search.search`: at most ten
#: moves, each ``score * 32 + position``, best first.
MOVES = 18
_ONE = np.uint32(1)


@kernel
def _null_score(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, nin: int, t0: int, t1: int,
                c: int) -> int:  # fmt: skip
    """Move-ordering score in Null (the declarer must not take a trick): the declarer plays his highest
    card that still loses the trick, else his lowest; a defender plays under the declarer's winning
    card (highest such first), else low; leads are low cards first."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    mover = seat_to_move(leader, nin)
    rank = popcount(P_BELOW[gt, c])
    if nin == 0:
        return 1000 - rank
    top = t0
    top_seat = leader
    if nin == 2 and beats(gt, t0, t1):
        top = t1
        top_seat = leader + 1 if leader < 2 else 0
    if mover == d:
        if not beats(gt, top, c):
            return 2000 + rank
        return 1000 - rank
    if top_seat == d and not beats(gt, top, c):
        return 2000 + rank
    return 1000 - rank


@kernel
def _score(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, nin: int, t0: int, t1: int,
           c: int) -> int:  # fmt: skip
    """Move-ordering score of card ``c`` for the seat to move (higher is tried first): tricks the mover's
    side surely wins, with the most points; then cards that keep the partner's winning card on top
    (with points: "schmieren"); last the cards that lose the trick, cheapest first. Only the order of
    the search depends on it, never its result."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    mover = seat_to_move(leader, nin)
    nxt = mover + 1 if mover < 2 else 0
    third = nxt + 1 if nxt < 2 else 0
    if (ctx & GOOD_FOR_DEFENDERS) != 0 or (ctx & ENDS_ON_DECLARER) != 0:
        return _null_score(ctx, h0, h1, h2, leader, nin, t0, t1, c)
    pts = P_POINTS[gt, c]
    trumps = P_GROUP_MASK[gt, TRUMP_GROUP]
    if nin == 0:
        g = P_GROUP[gt, c]
        gmask = P_GROUP_MASK[gt, g]
        higher = above(c)
        if mover == d:
            opps = seat_hand(h0, h1, h2, nxt) | seat_hand(h0, h1, h2, third)
        else:
            opps = seat_hand(h0, h1, h2, d)
        if opps & gmask & higher == 0:
            safe = True
            if g != TRUMP_GROUP:
                for o in range(3):
                    if o != mover and (mover == d or o == d):
                        ho = seat_hand(h0, h1, h2, o)
                        if ho & gmask == 0 and ho & trumps != 0:
                            safe = False
            if safe:
                return 3000 + 32 * pts - c
        if mover == d and g == TRUMP_GROUP:
            return 2000 + c
        if mover != d:
            partner = 3 - mover - d
            hp = seat_hand(h0, h1, h2, partner) & gmask
            hd = seat_hand(h0, h1, h2, d)
            if hp and (hd & gmask & ~(_ONE << np.uint32(highest_bit(hp))) & above(highest_bit(hp))) == 0:
                if hd & gmask or (hd & trumps == 0):
                    return 2500 - 32 * pts - popcount(P_BELOW[gt, c])
        return 1000 - 32 * pts - popcount(P_BELOW[gt, c])
    led = P_GROUP[gt, t0]
    if nin == 1:
        # the seat still to play in this trick is ``nxt`` (``third`` is the leader, who has played)
        last_is_partner = mover != d and nxt != d
        h3 = seat_hand(h0, h1, h2, nxt)
        if beats(gt, t0, c):
            if last_is_partner or not can_beat(gt, h3, led, c):
                return 3000 + 32 * (P_POINTS[gt, t0] + pts) - c
            return 1000 - 32 * (P_POINTS[gt, t0] + pts) - c
        if mover != d and leader != d:  # the partner led
            if not can_beat(gt, h3, led, t0):
                return 2500 + 32 * pts - c
            return 1500 - 32 * pts - c
        if last_is_partner and can_beat(gt, h3, led, t0):
            return 2000 + 16 * pts - c
        return 1500 - 32 * pts - c
    top = t0
    top_seat = leader
    if beats(gt, t0, t1):
        top = t1
        top_seat = leader + 1 if leader < 2 else 0
    total = P_POINTS[gt, t0] + P_POINTS[gt, t1] + pts
    if beats(gt, top, c) or (mover != d and top_seat != d):
        return 3000 + 32 * total - c
    return 1000 - 32 * total - c


@kernel
def equivalence_classes(gt: int, trick_mode: bool, hand: np.uint32, moves: np.uint32, live: np.uint32) -> np.uint32:
    """One card of ``moves`` per class of equivalent cards: a card goes when the live card just below it
    in trick order (live: in a hand or in the current trick) is in the same ``hand``, of the same group,
    and, in point mode (not ``trick_mode``), worth the same points. The two then beat and lose to exactly
    the same cards for the rest of the game, so either play gives the same outcome (exchange their names
    in every continuation)."""
    reps = moves
    m = moves
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        below = live & P_BELOW[gt, c]
        if below:
            b = highest_bit(below)
            if hand >> np.uint32(b) & _ONE and (trick_mode or P_POINTS[gt, b] == P_POINTS[gt, c]):
                reps &= ~(_ONE << np.uint32(c))
    return reps


@kernel
def order_moves(work: np.ndarray, f: int, ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, nin: int,
           t0: int, t1: int, first: int, skip: int, start: int, killer: int) -> int:  # fmt: skip
    """Write the moves of the seat to move into frame ``f`` in search order, from the ``start``-th slot of
    its move list on, leaving out ``skip`` (a move already tried, or -1); returns their number.

    One move per class of equivalent cards (:func:`equivalence_classes`). Order: the table's move
    ``first`` (if it is one of them), then the ``killer`` (at the declarer's lead, the card that last cut
    off a node at this depth; else -1), then by :func:`_score`.
    """
    gt = (ctx >> GT_SHIFT) & 7
    mover = seat_to_move(leader, nin)
    hand = seat_hand(h0, h1, h2, mover)
    if nin == 0:
        moves = hand
        live = h0 | h1 | h2
    else:
        follow = hand & P_GROUP_MASK[gt, P_GROUP[gt, t0]]
        moves = follow if follow else hand
        live = h0 | h1 | h2 | (_ONE << np.uint32(t0))
        if nin == 2:
            live |= _ONE << np.uint32(t1)
    reps = equivalence_classes(gt, (ctx & TRICK_MODE) != 0, hand, moves, live)
    if skip >= 0:
        reps &= ~(_ONE << np.uint32(skip))
    if reps & (reps - _ONE) == 0:  # one move or none: nothing to order
        if reps:
            work[f + MOVES + start] = lowest_bit(reps)
        return popcount(reps)
    g = f + start  # the list starts at g + MOVES
    n = 0
    m = reps
    if nin == 2 and (ctx & (GOOD_FOR_DEFENDERS | ENDS_ON_DECLARER)) == 0:
        # The third seat: _score's last case with the trick's top card worked out once, not per move.
        d = (ctx >> (GT_SHIFT + 3)) & 3
        top = t0
        top_seat = leader
        if beats(gt, t0, t1):
            top = t1
            top_seat = leader + 1 if leader < 2 else 0
        wins = (P_GROUP_MASK[gt, P_GROUP[gt, top]] | P_GROUP_MASK[gt, TRUMP_GROUP]) & above(top)
        if mover != d and top_seat != d:
            wins = ~np.uint32(0)
        base = P_POINTS[gt, t0] + P_POINTS[gt, t1]
        while m:
            c = lowest_bit(m)
            m &= m - _ONE
            if c == first:
                score = 1 << 14
            elif wins >> np.uint32(c) & _ONE:
                score = 3000 + 32 * (base + P_POINTS[gt, c]) - c + (1 << 13)
            else:
                score = 1000 - 32 * (base + P_POINTS[gt, c]) - c + (1 << 13)
            _insert(work, g + MOVES, n, score * 32 + c)
            n += 1
        return n
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        if c == first:
            score = 1 << 14
        elif c == killer:
            score = (1 << 14) - 1
        else:
            score = _score(ctx, h0, h1, h2, leader, nin, t0, t1, c) + (1 << 13)
        _insert(work, g + MOVES, n, score * 32 + c)
        n += 1
    return n


@kernel
def _insert(work: np.ndarray, at: int, n: int, key: int) -> None:
    """Insert ``key`` among the ``n`` keys from ``work[at]`` on, kept best (largest) first: an
    insertion sort, for the few moves of a position."""
    k = n
    while k > 0 and work[at + k - 1] < key:
        work[at + k] = work[at + k - 1]
        k -= 1
    work[at + k] = key
