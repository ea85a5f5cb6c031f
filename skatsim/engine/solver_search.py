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
from .solver_tables import (
    P_BELOW,
    P_GROUP,
    P_GROUP_MASK,
    P_POINTS,
    canonical,
    cheapest,
    from_canonical,
    points_of,
    to_canonical,
)

# Bits of the search context ``ctx``; the context is part of every table key.
TRICK_MODE = 1  # the value counts "good" tricks (1 each) instead of the declarer's card points
ENDS_ON_DECLARER = 2  # the game ends when the declarer takes a trick (Null)
ENDS_ON_DEFENDERS = 4  # the game ends when a defender takes a trick (Schwarz announced)
GOOD_FOR_DEFENDERS = 8  # trick mode: a "good" trick is one the declarer does NOT take (Null objective)
GT_SHIFT = 4  # bits 4..6: game type; bits 7..8: declarer seat
HINT = 512  # a table entry holding only a best lead, for every position of one trick structure

# Fields of the ``work`` array (:func:`new_work`): counters, then the search stack.
NODES = 0  # search nodes (positions entered), summed over solves until the caller resets it
GENERATION = 1  # the current solve's generation (1..65535), for the table's replacement policy
STORES = 2  # table writes
HITS = 3  # table probes that found their position
N_COUNTERS = 8
# Fields of one stack frame: the position, the window, the best value so far, the card being tried
# and the value its trick added, then the moves in search order and the index of the next one to try.
H0, H1, H2, LEAD, NIN, T0, T1, REST, ALPHA, BETA, A0, B0, BEST, BEST_CARD, CARD, GAIN, N_MOVES, NEXT = range(18)
MOVES = 18  # MOVES + i: the i-th move to try (at most 10)
KEY0, KEY1, HKEY0, HKEY1 = 28, 29, 30, 31  # the node's table key and hint key (uint64 bits)
FRAME = 32
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
def _probe(tt: np.ndarray, w0: np.uint64, w1: np.uint64) -> tuple[bool, int, int, int]:
    """Look a key up: (found, lower bound, upper bound, best move or -1)."""
    s = _bucket(tt, w0, w1)
    for k in range(2):
        e = tt[s + k, 2]
        if tt[s + k, 0] == w0 and tt[s + k, 1] == w1 and (e >> np.uint64(24)) & _B16 != 0:
            return (
                True,
                np.int64(e & _B8),
                np.int64((e >> np.uint64(8)) & _B8),
                np.int64((e >> np.uint64(16)) & _B8) - 1,
            )
    return False, 0, 255, -1


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
def _beats(gt: int, top: int, c: int) -> bool:
    """Whether card ``c`` takes the trick from ``top``, the card winning it so far (which is of the led
    group or a trump)."""
    return c > top and (P_GROUP_MASK[gt, P_GROUP[gt, top]] | P_GROUP_MASK[gt, TRUMP_GROUP]) >> np.uint32(c) & _ONE != 0


@kernel
def _can_beat(gt: int, hand: np.uint32, led_group: int, top: int) -> bool:
    """Whether ``hand`` holds a legal card (in a trick of ``led_group``) that beats ``top``."""
    follow = hand & P_GROUP_MASK[gt, led_group]
    legal = follow if follow else hand
    above = ~((_ONE << np.uint32(top)) | ((_ONE << np.uint32(top)) - _ONE))
    return legal & (P_GROUP_MASK[gt, P_GROUP[gt, top]] | P_GROUP_MASK[gt, TRUMP_GROUP]) & above != 0


@kernel
def _seat_hand(h0: np.uint32, h1: np.uint32, h2: np.uint32, seat: int) -> np.uint32:
    """The hand of a seat."""
    return h0 if seat == 0 else (h1 if seat == 1 else h2)


@kernel
def _null_score(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, nin: int, t0: int, t1: int,
                c: int) -> int:  # fmt: skip
    """Move-ordering score in Null (the declarer must not take a trick): the declarer plays his highest
    card that still loses the trick, else his lowest; a defender plays under the declarer's winning
    card (highest such first), else low; leads are low cards first."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    mover = leader + nin
    if mover >= 3:
        mover -= 3
    rank = popcount(P_BELOW[gt, c])
    if nin == 0:
        return 1000 - rank
    top = t0
    top_seat = leader
    if nin == 2 and _beats(gt, t0, t1):
        top = t1
        top_seat = leader + 1 if leader < 2 else 0
    if mover == d:
        if not _beats(gt, top, c):
            return 2000 + rank
        return 1000 - rank
    if top_seat == d and not _beats(gt, top, c):
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
    mover = leader + nin
    if mover >= 3:
        mover -= 3
    nxt = mover + 1 if mover < 2 else 0
    third = nxt + 1 if nxt < 2 else 0
    if (ctx & GOOD_FOR_DEFENDERS) != 0 or (ctx & ENDS_ON_DECLARER) != 0:
        return _null_score(ctx, h0, h1, h2, leader, nin, t0, t1, c)
    pts = P_POINTS[gt, c]
    trumps = P_GROUP_MASK[gt, TRUMP_GROUP]
    if nin == 0:
        g = P_GROUP[gt, c]
        gmask = P_GROUP_MASK[gt, g]
        above = ~((_ONE << np.uint32(c)) | ((_ONE << np.uint32(c)) - _ONE))
        if mover == d:
            opps = _seat_hand(h0, h1, h2, nxt) | _seat_hand(h0, h1, h2, third)
        else:
            opps = _seat_hand(h0, h1, h2, d)
        if opps & gmask & above == 0:
            safe = True
            if g != TRUMP_GROUP:
                for o in range(3):
                    if o != mover and (mover == d or o == d):
                        ho = _seat_hand(h0, h1, h2, o)
                        if ho & gmask == 0 and ho & trumps != 0:
                            safe = False
            if safe:
                return 3000 + 32 * pts - c
        if mover == d and g == TRUMP_GROUP:
            return 2000 + c
        if mover != d:
            partner = 3 - mover - d
            hp = _seat_hand(h0, h1, h2, partner) & gmask
            hd = _seat_hand(h0, h1, h2, d)
            if hp and (hd & gmask & ~(_ONE << np.uint32(highest_bit(hp))) & _above(highest_bit(hp))) == 0:
                if hd & gmask or (hd & trumps == 0):
                    return 2500 - 32 * pts - popcount(P_BELOW[gt, c])
        return 1000 - 32 * pts - popcount(P_BELOW[gt, c])
    led = P_GROUP[gt, t0]
    if nin == 1:
        third_is_partner = mover != d and third != d
        h3 = _seat_hand(h0, h1, h2, third)
        if _beats(gt, t0, c):
            if third_is_partner or not _can_beat(gt, h3, led, c):
                return 3000 + 32 * (P_POINTS[gt, t0] + pts) - c
            return 1000 - 32 * (P_POINTS[gt, t0] + pts) - c
        if mover != d and leader != d:  # the partner led
            if not _can_beat(gt, h3, led, t0):
                return 2500 + 32 * pts - c
            return 1500 - 32 * pts - c
        if third_is_partner and _can_beat(gt, h3, led, t0):
            return 2000 + 16 * pts - c
        return 1500 - 32 * pts - c
    top = t0
    top_seat = leader
    if _beats(gt, t0, t1):
        top = t1
        top_seat = leader + 1 if leader < 2 else 0
    total = P_POINTS[gt, t0] + P_POINTS[gt, t1] + pts
    if _beats(gt, top, c) or (mover != d and top_seat != d):
        return 3000 + 32 * total - c
    return 1000 - 32 * total - c


@kernel
def _order(work: np.ndarray, f: int, ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, nin: int,
           t0: int, t1: int, first: int) -> int:  # fmt: skip
    """Write the moves of the seat to move into frame ``f`` in search order; returns their number.

    One move per class of equivalent cards: a card is skipped when the live card just below it in trick
    order (live: in a hand or in the current trick) is in the same hand, of the same group, and, in point
    mode, worth the same points. The two then beat and lose to exactly the same cards for the rest of
    the game, so either play gives the same outcome (exchange their names in every continuation).
    Order: the table's move ``first`` (if it is one of them), then by :func:`_score`.
    """
    gt = (ctx >> GT_SHIFT) & 7
    mover = leader + nin
    if mover >= 3:
        mover -= 3
    hand = _seat_hand(h0, h1, h2, mover)
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
    if reps & (reps - _ONE) == 0:  # a single move: nothing to order
        work[f + MOVES] = lowest_bit(reps)
        return 1
    n = 0
    m = reps
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        score = 1 << 14 if c == first else _score(ctx, h0, h1, h2, leader, nin, t0, t1, c) + (1 << 13)
        key = score * 32 + c
        k = n
        while k > 0 and work[f + MOVES + k - 1] < key:  # insertion sort, best first
            work[f + MOVES + k] = work[f + MOVES + k - 1]
            k -= 1
        work[f + MOVES + k] = key
        n += 1
    return n


@kernel
def _above(c: int) -> np.uint32:
    """The positions above position ``c``."""
    return ~((_ONE << np.uint32(c)) | ((_ONE << np.uint32(c)) - _ONE))


@kernel
def top_trump_points(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32) -> tuple[int, int]:
    """Card points of the declarer's trumps above every defender's trump, and of the defenders' trumps
    above every trump of the declarer: such a trump takes the trick it is played in, however it is
    played (no card beats a trump but a higher trump), so these points surely go to its side."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    trumps = P_GROUP_MASK[gt, TRUMP_GROUP]
    mine = _seat_hand(h0, h1, h2, d) & trumps
    theirs = (h0 | h1 | h2) & trumps & ~mine
    if not mine:
        return 0, points_of(gt, theirs)
    if not theirs:
        return points_of(gt, mine), 0
    return points_of(gt, mine & _above(highest_bit(theirs))), points_of(gt, theirs & _above(highest_bit(mine)))


@kernel
def sure_points(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int) -> int:
    """Card points the side on lead at a trick boundary is sure to take: a lower bound, by a plan the
    other side cannot stop. The leader first leads his trumps that are higher than every opposing trump
    (the opponents must follow with trumps while they have any: their cheapest ones count), then, in each
    plain suit, his cards higher than every opposing card of the suit, as many times as no opponent who
    still holds a trump can be void of it (an opponent following every such lead gives his cheapest cards
    of the suit; one who may have discarded is counted as giving nothing). Each of these tricks is won,
    so the leader keeps the lead; his partner's cards are counted as nothing."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    trumps = P_GROUP_MASK[gt, TRUMP_GROUP]
    hand = _seat_hand(h0, h1, h2, leader)
    if leader == d:
        s1 = leader + 1 if leader < 2 else 0
        s2 = s1 + 1 if s1 < 2 else 0
        o1 = _seat_hand(h0, h1, h2, s1)
        o2 = _seat_hand(h0, h1, h2, s2)
    else:
        o1 = _seat_hand(h0, h1, h2, d)
        o2 = np.uint32(0)
    opp = o1 | o2
    mine = hand & trumps
    theirs = opp & trumps
    masters = mine & _above(highest_bit(theirs)) if theirs else mine
    n_cash = popcount(masters)
    total = points_of(gt, masters)
    n1 = popcount(o1 & trumps)
    n2 = popcount(o2 & trumps)
    total += cheapest(gt, o1 & trumps, n_cash) + cheapest(gt, o2 & trumps, n_cash)
    r1 = n1 - n_cash  # trumps an opponent keeps after the trump leads
    r2 = n2 - n_cash
    for g in range(TRUMP_GROUP):
        gm = P_GROUP_MASK[gt, g]
        mine = hand & gm
        if not mine:
            continue
        theirs = opp & gm
        masters = mine & _above(highest_bit(theirs)) if theirs else mine
        safe = popcount(masters)
        c1 = popcount(o1 & gm)
        c2 = popcount(o2 & gm)
        if r1 > 0:
            safe = min(safe, c1)
        if r2 > 0:
            safe = min(safe, c2)
        if safe <= 0:
            continue
        total += points_of(gt, masters) - cheapest(gt, masters, popcount(masters) - safe)
        if r1 > 0:
            total += cheapest(gt, o1 & gm, safe)
        if r2 > 0:
            total += cheapest(gt, o2 & gm, safe)
    return total


@kernel
def _second_key(
    ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, t0: int
) -> tuple[np.uint64, np.uint64, np.uint32]:
    """Hint key of a position after the lead ``t0``: its trick structure (the led card counted with the
    leader's cards, its rank among them in the key) and the live cards, for mapping moves."""
    gt = (ctx >> GT_SHIFT) & 7
    bit = _ONE << np.uint32(t0)
    live = h0 | h1 | h2 | bit
    k0, k1, k2 = canonical(
        gt, 1, h0 | bit if leader == 0 else h0, h1 | bit if leader == 1 else h1, h2 | bit if leader == 2 else h2
    )
    w0, w1 = _key((ctx & 511) | HINT | to_canonical(gt, 1, live, t0) << 10, k0, k1, k2, leader)
    return w0, w1, live


@kernel
def _last_trick(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, nin: int, t0: int, t1: int) -> int:
    """Value of the last trick, where every seat has one card left (or none, having played it)."""
    s1 = leader + 1 if leader < 2 else 0
    s2 = s1 + 1 if s1 < 2 else 0
    c0 = t0 if nin >= 1 else lowest_bit(_seat_hand(h0, h1, h2, leader))
    c1 = t1 if nin == 2 else lowest_bit(_seat_hand(h0, h1, h2, s1))
    c2 = lowest_bit(_seat_hand(h0, h1, h2, s2))
    winner, gain, ends = close_trick(ctx, leader, c0, c1, c2)
    return gain


@kernel
def _finish(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, t0: int, t1: int, c: int) -> int:
    """Value of closing the second-to-last trick with ``c`` (the hands hold the last trick's cards)."""
    winner, gain, ends = close_trick(ctx, leader, t0, t1, c)
    if ends:
        s = leader + 2 if leader == 0 else leader - 1
        return gain + unplayed(ctx, _seat_hand(h0, h1, h2, s))
    return gain + _last_trick(ctx, h0, h1, h2, winner, 0, -1, -1)


@kernel
def _legal(gt: int, hand: np.uint32, t0: int) -> np.uint32:
    """Cards of ``hand`` that may follow ``t0`` (any card when leading: ``t0 < 0``)."""
    if t0 < 0:
        return hand
    follow = hand & P_GROUP_MASK[gt, P_GROUP[gt, t0]]
    return follow if follow else hand


@kernel
def _two_tricks(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, nin: int, t0: int, t1: int) -> int:
    """Exact value of the last two tricks (the seat to move holds two cards): at most eight lines of
    play, evaluated directly instead of as search nodes. Cards already in the trick are the only
    "choice" of the seats that played them."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    s1 = leader + 1 if leader < 2 else 0
    s2 = s1 + 1 if s1 < 2 else 0
    m0 = _seat_hand(h0, h1, h2, leader) if nin == 0 else _ONE << np.uint32(t0)
    best0 = -_INF if leader == d else _INF
    while m0:
        c0 = lowest_bit(m0)
        m0 &= m0 - _ONE
        x0 = ~(_ONE << np.uint32(c0)) if nin == 0 else ~np.uint32(0)
        m1 = _legal(gt, _seat_hand(h0, h1, h2, s1), c0) if nin <= 1 else _ONE << np.uint32(t1)
        best1 = -_INF if s1 == d else _INF
        while m1:
            c1 = lowest_bit(m1)
            m1 &= m1 - _ONE
            x1 = x0 & ~(_ONE << np.uint32(c1)) if nin <= 1 else x0
            m2 = _legal(gt, _seat_hand(h0, h1, h2, s2), c0)
            best2 = -_INF if s2 == d else _INF
            while m2:
                c2 = lowest_bit(m2)
                m2 &= m2 - _ONE
                x2 = x1 & ~(_ONE << np.uint32(c2))
                v = _finish(ctx, h0 & x2, h1 & x2, h2 & x2, leader, c0, c1, c2)
                best2 = max(best2, v) if s2 == d else min(best2, v)
            best1 = max(best1, best2) if s1 == d else min(best1, best2)
        best0 = max(best0, best1) if leader == d else min(best0, best1)
    return best0


@kernel
def search(tt: np.ndarray, work: np.ndarray, ctx: int, hand0: np.uint32, hand1: np.uint32, hand2: np.uint32,
           leader: int, nin: int, t0: int, t1: int, rest: int, alpha: int, beta: int) -> int:  # fmt: skip
    """Fail-soft alpha-beta value of the rest of the game from a position: hands ``hand0..2`` (positions),
    ``nin`` cards ``t0``, ``t1`` already in the trick led by ``leader``, ``rest`` card points left in
    the hands. The result ``g`` is exact inside ``(alpha, beta)``; ``g <= alpha`` is an upper bound and
    ``g >= beta`` a lower bound. The declarer maximises, the defenders minimise."""
    h0 = np.uint32(hand0)  # whatever integer type the caller passes, the hands are uint32 masks
    h1 = np.uint32(hand1)
    h2 = np.uint32(hand2)
    d = (ctx >> (GT_SHIFT + 3)) & 3
    gt = (ctx >> GT_SHIFT) & 7
    trick_mode = (ctx & TRICK_MODE) != 0
    sp = 0
    f = N_COUNTERS
    ret = 0
    a0 = alpha
    b0 = beta
    best = 0
    best_card = -1
    card = -1
    gain = 0
    entering = True
    while True:
        done = False
        if entering:
            # A new node: bounds, the last two tricks, the table; else its moves.
            entering = False
            work[NODES] += 1
            mover = leader + nin
            if mover >= 3:
                mover -= 3
            hand = _seat_hand(h0, h1, h2, mover)
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
            elif popcount(hand) == 1:
                ret = _last_trick(ctx, h0, h1, h2, leader, nin, t0, t1)
            elif popcount(hand) == 2:
                ret = _two_tricks(ctx, h0, h1, h2, leader, nin, t0, t1)
            else:
                done = False
                if nin == 0 and not trick_mode:
                    # What the side on lead surely takes bounds the value from its side.
                    sure = sure_points(ctx, h0, h1, h2, leader)
                    mine, theirs = top_trump_points(ctx, h0, h1, h2)
                    if leader != d:
                        sure = max(sure, theirs)
                    else:
                        sure = max(sure, mine)  # he leads: he can play them at once
                    if leader != d:
                        low = 0 if ctx & ENDS_ON_DEFENDERS else mine
                    else:
                        low = sure
                    high = rest - (sure if leader != d else theirs)
                    if high <= alpha:
                        ret = high
                        done = True
                    elif low >= beta and (ctx & ENDS_ON_DECLARER) == 0:
                        ret = low
                        done = True
            if not done:
                first = -1
                if nin == 0:
                    k0, k1, k2 = canonical(gt, ctx & TRICK_MODE, h0, h1, h2)
                    w0, w1 = _key(ctx, k0, k1, k2, leader)
                    work[f + KEY0] = np.int64(w0)
                    work[f + KEY1] = np.int64(w1)
                    found, lo, hi, move = _probe(tt, w0, w1)
                    if found:
                        work[HITS] += 1
                        if lo >= beta or lo == hi:
                            ret = lo
                            done = True
                        elif hi <= alpha:
                            ret = hi
                            done = True
                        else:
                            alpha = max(alpha, lo)
                            beta = min(beta, hi)
                            if move >= 0:
                                first = from_canonical(gt, ctx & TRICK_MODE, h0 | h1 | h2, move)
                    if not trick_mode and not done:
                        # A position of the same trick structure (other card points) suggests a lead.
                        k0, k1, k2 = canonical(gt, 1, h0, h1, h2)
                        w0, w1 = _key(ctx | HINT, k0, k1, k2, leader)
                        work[f + HKEY0] = np.int64(w0)
                        work[f + HKEY1] = np.int64(w1)
                        if first < 0:
                            found, lo, hi, move = _probe(tt, w0, w1)
                            if found and move >= 0:
                                first = from_canonical(gt, 1, h0 | h1 | h2, move)
                elif nin == 1:
                    # The same for the second seat, by the structure after the lead.
                    w0, w1, live1 = _second_key(ctx, h0, h1, h2, leader, t0)
                    work[f + HKEY0] = np.int64(w0)
                    work[f + HKEY1] = np.int64(w1)
                    found, lo, hi, move = _probe(tt, w0, w1)
                    if found and move >= 0:
                        first = from_canonical(gt, 1, live1, move)
                if not done:
                    a0 = alpha
                    b0 = beta
                    work[f + N_MOVES] = _order(work, f, ctx, h0, h1, h2, leader, nin, t0, t1, first)
                    work[f + NEXT] = 0
                    best = -_INF if mover == d else _INF
                    best_card = -1
        if not done:
            k = work[f + NEXT]
            if k < work[f + N_MOVES]:
                # Try the next move; a child position is entered on the next turn of the loop.
                c = work[f + MOVES + k] & 31
                work[f + NEXT] = k + 1
                bit = _ONE << np.uint32(c)
                n0 = h0 & ~bit
                n1 = h1 & ~bit
                n2 = h2 & ~bit
                left = rest - P_POINTS[gt, c]
                g = 0
                ends = False
                winner = leader
                if nin == 2:
                    winner, g, ends = close_trick(ctx, leader, t0, t1, c)
                if nin < 2 or not ends:
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
                    work[f + CARD] = c
                    work[f + GAIN] = g
                    sp += 1
                    f += FRAME
                    h0, h1, h2, rest = n0, n1, n2, left
                    if nin == 0:
                        t0 = c
                        nin = 1
                    elif nin == 1:
                        t1 = c
                        nin = 2
                    else:
                        leader, nin, t0, t1 = winner, 0, -1, -1
                        alpha -= g
                        beta -= g
                    entering = True
                    continue
                # The game ends with this trick.
                closer = leader + 2 if leader == 0 else leader - 1
                ret = g + unplayed(ctx, _seat_hand(n0, n1, n2, closer))
                card = c
                gain = 0
            else:
                # Every move tried (or cut off): the node's value is ``best``.
                n = popcount(h0 | h1 | h2)
                if nin == 0:
                    w0 = np.uint64(work[f + KEY0])
                    w1 = np.uint64(work[f + KEY1])
                    move = to_canonical(gt, ctx & TRICK_MODE, h0 | h1 | h2, best_card) if best_card >= 0 else -1
                    if best <= a0:
                        _store(tt, work, w0, w1, 0, best, move, n)
                    elif best >= b0:
                        _store(tt, work, w0, w1, best, 255, move, n)
                    else:
                        _store(tt, work, w0, w1, best, best, move, n)
                    if not trick_mode and best_card >= 0:
                        hint = to_canonical(gt, 1, h0 | h1 | h2, best_card)
                        _store(tt, work, np.uint64(work[f + HKEY0]), np.uint64(work[f + HKEY1]), 0, 255, hint, n)
                elif nin == 1 and best_card >= 0:
                    live1 = h0 | h1 | h2 | (_ONE << np.uint32(t0))
                    hint = to_canonical(gt, 1, live1, best_card)
                    _store(tt, work, np.uint64(work[f + HKEY0]), np.uint64(work[f + HKEY1]), 0, 255, hint, n + 1)
                ret = best
                done = True
        if done:
            # Back to the parent with the value ``ret``.
            if sp == 0:
                return ret
            sp -= 1
            f -= FRAME
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
            card = work[f + CARD]
            gain = work[f + GAIN]
        # Fold the child's value ``gain + ret`` into the current node.
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
            work[f + NEXT] = work[f + N_MOVES]
