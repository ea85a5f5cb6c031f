"""The open-hand solver's search: fail-soft alpha-beta over card plays with a transposition table.

:func:`search` walks the game tree one card at a time (a trick is three plies, so a position in the
middle of a trick is an ordinary node), the declarer maximising and both defenders minimising a
*future value*: the card points the declarer still takes (the current trick included), or in trick
mode the number of "good" tricks still to come. It is written as a loop over an explicit stack kept in
the caller's ``work`` array rather than as a recursive function: numba cannot reload a cached recursive
function that another cached function calls (numba issue #6061: a segfault on the second run), and
the loop allocates nothing.

Positions at trick boundaries (the three hands, the leader, the context) are stored in a transposition
table with lower and upper bounds of their value and the best lead found; see :func:`new_table`.
Cards are positions of :mod:`skatsim.engine.solver_tables` (bit order = trick order).
"""

from __future__ import annotations

import numpy as np

from .._jit import highest_bit, kernel, lowest_bit, popcount
from .gametypes import TRUMP_GROUP
from .solver_tables import P_BELOW, P_GROUP, P_GROUP_MASK, P_POINTS

# Bits of the search context ``ctx``; the context is part of every table key.
TRICK_MODE = 1  # the value counts "good" tricks (1 each) instead of the declarer's card points
ENDS_ON_DECLARER = 2  # the game ends when the declarer takes a trick (Null)
ENDS_ON_DEFENDERS = 4  # the game ends when a defender takes a trick (Schwarz announced)
GOOD_FOR_DEFENDERS = 8  # trick mode: a "good" trick is one the declarer does NOT take (Null objective)
GT_SHIFT = 4  # bits 4..6: game type; bits 7..8: declarer seat

# Fields of the ``work`` array (:func:`new_work`): counters, then the search stack.
NODES = 0  # search nodes (positions entered), summed over solves until the caller resets it
GENERATION = 1  # the current solve's generation (1..65535), for the table's replacement policy
STORES = 2  # table writes
HITS = 3  # table probes that found their position
N_COUNTERS = 8
# Fields of one stack frame: the position, the window, the best value so far, the moves left to try
# (``FIRST`` the table's move, then ``HIGH`` from the top, then ``LOW`` from the bottom), the card
# being tried and the value its trick added.
H0, H1, H2, LEAD, NIN, T0, T1, REST, ALPHA, BETA, A0, B0, BEST, BEST_CARD, FIRST, HIGH, LOW, CARD, GAIN = range(19)
FRAME = 20
MAX_DEPTH = 32  # 30 card plays at most, plus the root
N_WORK = N_COUNTERS + FRAME * MAX_DEPTH

#: Table entry: three uint64 words. Word 0 = hand of seat 0 | hand of seat 1 << 32 (positions);
#: word 1 = hand of seat 2 | leader << 32 | ctx << 34; word 2 = lower bound | upper bound << 8
#: | (best lead + 1) << 16 | generation << 24 | cards left << 40. Generation 0 marks an empty slot.
ENTRY_WORDS = 3
_B8 = np.uint64(0xFF)
_B16 = np.uint64(0xFFFF)
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_ONE = np.uint32(1)
_INF = 1 << 20


def new_table(log2_entries: int = 20) -> np.ndarray:
    """A transposition table of ``2**log2_entries`` entries (24 bytes each: 2**20 = 24 MiB).

    Allocate it once and pass it to every solve. Entries carry their whole key (hands, leader,
    game type, declarer, objective, early-end rules), so an entry is correct for any later solve and
    the table never needs clearing between solves. Replacement policy: a position lives in one of the
    two slots of its bucket; a new position takes a slot written by an earlier solve (an older
    generation, or an empty slot) first, otherwise the slot whose position has fewer cards left (the
    cheaper one to search again): deep results stay, shallow ones rotate.
    """
    if not 1 <= log2_entries <= 30:
        raise ValueError(f"log2_entries must be 1..30, got {log2_entries}")
    return np.zeros((1 << log2_entries, ENTRY_WORDS), dtype=np.uint64)


def new_work() -> np.ndarray:
    """The solver's scratch for one thread of solves: counters (``NODES``, ...) and the search stack."""
    return np.zeros(N_WORK, dtype=np.int64)


@kernel
def clear_table(tt: np.ndarray) -> None:
    """Empty a table (never needed for correctness: entries are keyed by the whole position)."""
    tt[:, :] = 0


@kernel
def next_generation(work: np.ndarray) -> None:
    """Start a solve: the entries earlier solves wrote become the first candidates for replacement."""
    g = work[GENERATION] + 1
    work[GENERATION] = 1 if g > 65535 else g


@kernel
def close_trick(ctx: int, leader: int, t0: int, t1: int, c: int) -> tuple[int, int, bool]:
    """Close the trick ``t0 t1 c`` (positions) led by ``leader``: the winner's seat, the value the trick
    adds (its card points when the declarer takes it; in trick mode 1 for a good trick) and whether the
    game ends with it (Null lost, announced Schwarz lost). The winner is the highest position among the
    cards of the led group and the trumps (bit order = trick order)."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    cards = (_ONE << np.uint32(t0)) | (_ONE << np.uint32(t1)) | (_ONE << np.uint32(c))
    top = highest_bit(cards & (P_GROUP_MASK[gt, P_GROUP[gt, t0]] | P_GROUP_MASK[gt, TRUMP_GROUP]))
    winner = leader + (0 if top == t0 else (1 if top == t1 else 2))
    if winner >= 3:
        winner -= 3
    by_declarer = winner == d
    if ctx & TRICK_MODE:
        gain = 1 if by_declarer != ((ctx & GOOD_FOR_DEFENDERS) != 0) else 0
    else:
        gain = P_POINTS[gt, t0] + P_POINTS[gt, t1] + P_POINTS[gt, c] if by_declarer else 0
    ends = (by_declarer and (ctx & ENDS_ON_DECLARER) != 0) or (not by_declarer and (ctx & ENDS_ON_DEFENDERS) != 0)
    return winner, gain, ends


@kernel
def unplayed(ctx: int, hand_after: np.uint32) -> int:
    """Value of the tricks an early end leaves unplayed (``hand_after``: the hand of the seat that closed
    the last trick, one card per unplayed trick). Nobody takes them, so they count as good tricks for the
    Null objective ("the declarer takes no trick") and as nothing for points or the declarer's tricks."""
    return popcount(hand_after) if ctx & GOOD_FOR_DEFENDERS else 0


@kernel
def _bucket(tt: np.ndarray, w0: np.uint64, w1: np.uint64) -> int:
    """First slot of the two-slot bucket of a key."""
    h = w0 * _M1 ^ w1 * _M2
    h ^= h >> np.uint64(31)
    return np.int64(h & np.uint64(tt.shape[0] - 2))


@kernel
def _store(tt: np.ndarray, work: np.ndarray, w0: np.uint64, w1: np.uint64, lo: int, hi: int, best: int, n: int) -> None:
    """Record ``lo <= value <= hi`` and the best lead of a position with ``n`` cards left, merged with
    what the table already knows of it (see :func:`new_table` for the replacement policy)."""
    s = _bucket(tt, w0, w1)
    gen = np.uint64(work[GENERATION])
    victim = -1
    for k in range(2):
        e = tt[s + k, 2]
        if tt[s + k, 0] == w0 and tt[s + k, 1] == w1 and (e >> np.uint64(24)) & _B16 != 0:
            lo = max(lo, np.int64(e & _B8))
            hi = min(hi, np.int64((e >> np.uint64(8)) & _B8))
            victim = s + k
            break
    if victim < 0:
        e0 = tt[s, 2]
        e1 = tt[s + 1, 2]
        if (e0 >> np.uint64(24)) & _B16 != gen:
            victim = s
        elif (e1 >> np.uint64(24)) & _B16 != gen:
            victim = s + 1
        else:
            victim = s if (e0 >> np.uint64(40)) < (e1 >> np.uint64(40)) else s + 1
    tt[victim, 0] = w0
    tt[victim, 1] = w1
    tt[victim, 2] = (
        np.uint64(lo)
        | np.uint64(hi) << np.uint64(8)
        | np.uint64(best + 1) << np.uint64(16)
        | gen << np.uint64(24)
        | np.uint64(n) << np.uint64(40)
    )
    work[STORES] += 1


@kernel
def _key(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int) -> tuple[np.uint64, np.uint64]:
    """The perfect table key of a trick-boundary position."""
    w0 = np.uint64(h0) | np.uint64(h1) << np.uint64(32)
    w1 = np.uint64(h2) | np.uint64(leader) << np.uint64(32) | np.uint64(ctx) << np.uint64(34)
    return w0, w1


@kernel
def _save(work: np.ndarray, sp: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, nin: int, t0: int,
          t1: int, rest: int, alpha: int, beta: int, a0: int, b0: int, best: int, best_card: int, first: int,
          high: np.uint32, low: np.uint32, card: int, gain: int) -> None:  # fmt: skip
    """Push the current frame (before descending into a child)."""
    f = N_COUNTERS + sp * FRAME
    work[f + H0] = h0
    work[f + H1] = h1
    work[f + H2] = h2
    work[f + LEAD] = leader
    work[f + NIN] = nin
    work[f + T0] = t0
    work[f + T1] = t1
    work[f + REST] = rest
    work[f + ALPHA] = alpha
    work[f + BETA] = beta
    work[f + A0] = a0
    work[f + B0] = b0
    work[f + BEST] = best
    work[f + BEST_CARD] = best_card
    work[f + FIRST] = first
    work[f + HIGH] = high
    work[f + LOW] = low
    work[f + CARD] = card
    work[f + GAIN] = gain


@kernel
def _moves(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, nin: int, t0: int, t1: int,
           first: int) -> tuple[int, np.uint32, np.uint32]:  # fmt: skip
    """The moves of the seat to move, one per class of equivalent cards, in search order: the table's
    move (``first`` if it is one of them, else -1), then ``high`` from its top card down, then ``low``
    from its bottom card up.

    Equivalence: a card is skipped when the live card just below it in trick order (live: still in a
    hand or in the current trick) is in the same hand, of the same group, and, in point mode, worth the
    same points. The two then beat and lose to exactly the same cards for the rest of the game, so
    either play gives the same outcome (exchange their names in every continuation).

    Order: leading, high cards first. Following, when an opponent's card is winning the trick: the
    cards that beat it (from the top), then the others (from the bottom); when the partner's card
    is winning: the cards that do not overtake it (from the top: points onto the partner's trick),
    then the overtaking ones.
    """
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    mover = leader + nin
    if mover >= 3:
        mover -= 3
    hand = h0 if mover == 0 else (h1 if mover == 1 else h2)
    if nin == 0:
        moves = hand
        live = h0 | h1 | h2
    else:
        follow = hand & P_GROUP_MASK[gt, P_GROUP[gt, t0]]
        moves = follow if follow else hand
        live = h0 | h1 | h2 | (_ONE << np.uint32(t0))
        if nin == 2:
            live |= _ONE << np.uint32(t1)
    reps = moves
    m = moves
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        below = live & P_BELOW[gt, c]
        if below:
            b = highest_bit(below)
            if hand >> np.uint32(b) & _ONE and ((ctx & TRICK_MODE) != 0 or P_POINTS[gt, b] == P_POINTS[gt, c]):
                reps &= ~(_ONE << np.uint32(c))
    high = reps
    low = np.uint32(0)
    if nin > 0:
        top = t0
        win_seat = leader
        if nin == 2:
            led = P_GROUP_MASK[gt, P_GROUP[gt, t0]] | P_GROUP_MASK[gt, TRUMP_GROUP]
            if led >> np.uint32(t1) & _ONE and t1 > t0:
                top = t1
                win_seat = leader + 1 if leader < 2 else 0
        beat = (P_GROUP_MASK[gt, P_GROUP[gt, top]] | P_GROUP_MASK[gt, TRUMP_GROUP]) & ~(
            (_ONE << np.uint32(top)) | ((_ONE << np.uint32(top)) - _ONE)
        )
        beaters = reps & beat
        if (win_seat == d) == (mover == d):  # the partner's card is winning
            high = reps & ~beaters
            low = beaters
        else:
            high = beaters
            low = reps & ~beaters
    if first >= 0 and reps >> np.uint32(first) & _ONE:
        high &= ~(_ONE << np.uint32(first))
        low &= ~(_ONE << np.uint32(first))
    else:
        first = -1
    return first, high, low


@kernel
def search(tt: np.ndarray, work: np.ndarray, ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int,
           nin: int, t0: int, t1: int, rest: int, alpha: int, beta: int) -> int:  # fmt: skip
    """Fail-soft alpha-beta value of the rest of the game from a position: hands ``h0 h1 h2`` (positions),
    ``nin`` cards ``t0``, ``t1`` already in the trick led by ``leader``, ``rest`` card points left in
    the hands. The result ``g`` is exact inside ``(alpha, beta)``; ``g <= alpha`` is an upper bound and
    ``g >= beta`` a lower bound. The declarer maximises, the defenders minimise."""
    d = (ctx >> (GT_SHIFT + 3)) & 3
    gt = (ctx >> GT_SHIFT) & 7
    trick_mode = (ctx & TRICK_MODE) != 0
    sp = 0
    ret = 0
    a0 = alpha
    b0 = beta
    best = 0
    best_card = -1
    first = -1
    high = np.uint32(0)
    low = np.uint32(0)
    card = -1
    gain = 0
    entering = True
    while True:
        if entering:
            # A new node: bounds, the table, then its moves.
            entering = False
            work[NODES] += 1
            mover = leader + nin
            if mover >= 3:
                mover -= 3
            hand = h0 if mover == 0 else (h1 if mover == 1 else h2)
            if trick_mode:
                upper = popcount(hand)
            else:
                upper = rest
                if nin >= 1:
                    upper += P_POINTS[gt, t0]
                if nin == 2:
                    upper += P_POINTS[gt, t1]
            done = True
            if upper <= alpha:
                ret = upper
            elif beta <= 0:
                ret = 0
            else:
                done = False
                first = -1
                if nin == 0:
                    w0, w1 = _key(ctx, h0, h1, h2, leader)
                    s = _bucket(tt, w0, w1)
                    for k in range(2):
                        e = tt[s + k, 2]
                        if tt[s + k, 0] == w0 and tt[s + k, 1] == w1 and (e >> np.uint64(24)) & _B16 != 0:
                            work[HITS] += 1
                            lo = np.int64(e & _B8)
                            hi = np.int64((e >> np.uint64(8)) & _B8)
                            if lo >= beta:
                                ret = lo
                                done = True
                            elif hi <= alpha:
                                ret = hi
                                done = True
                            elif lo == hi:
                                ret = lo
                                done = True
                            else:
                                alpha = max(alpha, lo)
                                beta = min(beta, hi)
                                first = np.int64((e >> np.uint64(16)) & _B8) - 1
                            break
            if not done:
                a0 = alpha
                b0 = beta
                first, high, low = _moves(ctx, h0, h1, h2, leader, nin, t0, t1, first)
                best = -_INF if mover == d else _INF
                best_card = -1
        else:
            done = False
        if not done:
            # Try the next move; a child position is entered on the next turn of the loop.
            if first >= 0:
                c = first
                first = -1
            elif high:
                c = highest_bit(high)
                high &= ~(_ONE << np.uint32(c))
            elif low:
                c = lowest_bit(low)
                low &= ~(_ONE << np.uint32(c))
            else:
                c = -1
            if c < 0:
                if nin == 0:
                    w0, w1 = _key(ctx, h0, h1, h2, leader)
                    n = popcount(h0 | h1 | h2)
                    if best <= a0:
                        _store(tt, work, w0, w1, 0, best, best_card, n)
                    elif best >= b0:
                        _store(tt, work, w0, w1, best, 255, best_card, n)
                    else:
                        _store(tt, work, w0, w1, best, best, best_card, n)
                ret = best
                done = True
            else:
                bit = _ONE << np.uint32(c)
                n0 = h0 & ~bit
                n1 = h1 & ~bit
                n2 = h2 & ~bit
                left = rest - P_POINTS[gt, c]
                if nin < 2:
                    _save(work, sp, h0, h1, h2, leader, nin, t0, t1, rest, alpha, beta, a0, b0, best, best_card,
                          first, high, low, c, 0)  # fmt: skip
                    sp += 1
                    if nin == 0:
                        t0 = c
                    else:
                        t1 = c
                    nin += 1
                    h0, h1, h2, rest = n0, n1, n2, left
                    entering = True
                    continue
                winner, g, ends = close_trick(ctx, leader, t0, t1, c)
                if not ends and (n0 | n1 | n2) != 0:
                    _save(work, sp, h0, h1, h2, leader, nin, t0, t1, rest, alpha, beta, a0, b0, best, best_card,
                          first, high, low, c, g)  # fmt: skip
                    sp += 1
                    h0, h1, h2, rest = n0, n1, n2, left
                    leader, nin, t0, t1 = winner, 0, -1, -1
                    alpha -= g
                    beta -= g
                    entering = True
                    continue
                mover = leader + 2 if leader == 0 else leader - 1
                v = g + unplayed(ctx, n0 if mover == 0 else (n1 if mover == 1 else n2))
                card = c
                gain = 0
                ret = v
        if done:
            # The node is finished with value ``ret``: back to its parent.
            if sp == 0:
                return ret
            sp -= 1
            f = N_COUNTERS + sp * FRAME
            h0 = np.uint32(work[f + H0])
            h1 = np.uint32(work[f + H1])
            h2 = np.uint32(work[f + H2])
            leader = work[f + LEAD]
            nin = work[f + NIN]
            t0 = work[f + T0]
            t1 = work[f + T1]
            rest = work[f + REST]
            alpha = work[f + ALPHA]
            beta = work[f + BETA]
            a0 = work[f + A0]
            b0 = work[f + B0]
            best = work[f + BEST]
            best_card = work[f + BEST_CARD]
            first = work[f + FIRST]
            high = np.uint32(work[f + HIGH])
            low = np.uint32(work[f + LOW])
            card = work[f + CARD]
            gain = work[f + GAIN]
        # Fold a child's value ``gain + ret`` into the current node.
        v = gain + ret
        mover = leader + nin
        if mover >= 3:
            mover -= 3
        if mover == d:
            if v > best:
                best = v
                best_card = card
                if best > alpha:
                    alpha = best
        elif v < best:
            best = v
            best_card = card
            if best < beta:
                beta = best
        if alpha >= beta:  # cut: no more moves
            first = -1
            high = np.uint32(0)
            low = np.uint32(0)
