"""The open-hand solver's search: fail-soft alpha-beta over card plays with a transposition table.

:func:`search` walks the game tree one card at a time (a trick is three plies, so a position in the
middle of a trick is an ordinary node), the declarer maximising and both defenders minimising a
*future value*: the card points the declarer still takes (the current trick included), or in trick
mode the number of "good" tricks still to come (:mod:`skatsim.engine.solver_eval`). It is a loop over
an explicit stack kept in the caller's ``work`` array rather than a recursive function: numba cannot
reload a cached recursive function that another cached function calls (numba issue #6061: a segfault
on the second run), and the loop allocates nothing.

At a node: bounds first (the value lies between 0 and the points or tricks left), the last two or three
tricks evaluated directly (exact values, cached in ``work``), then the bounds that positions of the same
trick structure give (:func:`_quasi_probe`), what a side is sure to take, and the table; otherwise its
moves in the order of :mod:`skatsim.engine.solver_order`. Positions at trick boundaries are stored in the
table (:func:`new_table`; in a points game from eight tricks left) under their canonical hands
(:func:`skatsim.engine.solver_tables.canonical`) with lower and upper bounds of their value and the best
lead; "hint" entries keep the best lead for every position of one trick structure, card points ignored,
to order moves in positions the table has not seen; and the bounds of the last positions stored under
each trick structure bound every other position of that structure, up to the point differences of their
cards.
"""

from __future__ import annotations

import numpy as np

from .._jit import highest_bit, inlined_kernel, kernel, popcount, prefetch_row
from .solver_eval import (
    ENDS_ON_DECLARER,
    ENDS_ON_DEFENDERS,
    GT_SHIFT,
    HINT,
    TRICK_MODE,
    close_trick,
    declarer_sure_points,
    last_trick,
    legal,
    master_trumps,
    seat_hand,
    seat_to_move,
    sure_points,
    top_trump_points,
    two_tricks,
    unplayed,
)
from .solver_order import MOVES, equivalence_classes, order_moves
from .solver_tables import (
    P_GROUP,
    P_GROUP_MASK,
    P_POINTS,
    P_RANKS8,
    POINT_VALUES,
    canonical,
    from_canonical,
    pext,
    to_canonical,
)

# Fields of the ``work`` array (:func:`new_work`): counters, then the search stack.
NODES = 0  # search nodes (positions entered), summed over solves until the caller resets it
GENERATION = 1  # the current solve's generation (1..65535), for the table's replacement policy
STORES = 2  # table writes
HITS = 3  # table probes that found their position
#: Root move results, for a caller that wants more than the root's value (the pimc bot): before a
#: search the caller may set ``work[ROOT_FIRST]`` to a root move (position) + 1, tried first at the
#: root (0: none; the search reads it and resets it to 0). While searching, every root move whose
#: value is proven to reach the search's ``beta`` is added to the mask ``work[ROOT_HIGH]`` (positions),
#: every one proven to stay at or below its ``alpha`` to ``work[ROOT_LOW]``; both start empty. A root
#: answered by a bound or the table tries no move and leaves both empty.
ROOT_FIRST = 4
ROOT_HIGH = 5
ROOT_LOW = 6
#: 1 while a caller searches one root under several windows (:func:`skatsim.engine.solver._bisect`): the
#: fail-soft bounds each root move was proven to have are then kept at :data:`ROOT_BOUNDS` and settle or
#: order that move in the later searches (see :func:`root_bounds_reset`). 0: not kept, not asked.
ROOT_MEMO = 7
N_COUNTERS = 8
# Fields of one stack frame: the position, the window, the best value so far, the card being tried
# and the value its trick added, then the moves in search order and the index of the next one to try.
H0, H1, H2, LEAD, NIN, T0, T1, REST, ALPHA, BETA, A0, B0, BEST, BEST_CARD, CARD, GAIN, N_MOVES, NEXT = range(18)
# MOVES + i: the i-th move to try (solver_order.MOVES = 18, at most ten)
KEY0, KEY1, HKEY0, HKEY1 = 28, 29, 30, 31  # the node's table key and hint key (uint64 bits)
PENDING = 32  # 1 while only the suggested move is listed: the others are ordered when it has not cut
VALUES = 33  # VALUES + i: the fail-soft value the i-th move gave (see _bounded_by_sibling)
FRAME = 43
MAX_DEPTH = 32  # 30 card plays at most, plus the root
#: The move hints (a defender's best lead per trick structure; a second seat's answer is ordered well enough by its
#: move scores, docs/history/solver.md "Tenth round") live in a small direct-mapped table at the end of ``work``
#: (2**15 slots, 256 KiB: it stays in the core's cache, where a hint probe into the big table was a cache
#: miss costing a fifth of the search's time). Slot = the top bits of the key's hash; the entry keeps the
#: rest of the hash as a tag and the move + 1 in its low byte. A collision can only give a wrong
#: suggestion, which is checked for legality and costs ordering, never correctness.
HINT_BITS = 15
HINTS = N_COUNTERS + FRAME * MAX_DEPTH
#: The exact values of two-trick positions at a trick boundary (:func:`_two_tricks_at`): a direct-mapped
#: cache after the hints, 2**14 slots of two words (the position's key, its context | value + 1 << 20),
#: 256 KiB. The same last two tricks recur under many earlier lines; a slot holds the whole key, so a
#: hit is always the position's exact value (whatever the solve, game or window).
TWO_BITS = 14
TWO = HINTS + (1 << HINT_BITS)
#: The exact values of three-trick positions at a trick boundary (:func:`_three_tricks_at`): a direct-mapped
#: cache after the two-trick one, 2**THREE_BITS slots of two words like :data:`TWO`'s (1 MiB). A points game
#: reaches the same three-trick endgame under many windows (the gains on the way differ); a bound from the
#: table answers only some of them, the exact value answers every one. (Larger caches, 2**19 slots here and
#: 2**17 for two tricks: fewer misses, no faster.)
THREE_BITS = 16
THREE = TWO + 2 * (1 << TWO_BITS)
#: Bounds across card points ("quasi-symmetry", Kupferschmid & Helmert): for each trick structure (the hint
#: key: suits compressed to ranks, card points ignored) the last positions stored in the table, with their
#: bounds (:func:`_quasi_probe`): a set-associative cache after the three-trick one, 2**QUASI_BITS sets of
#: QWAYS slots, newest first, of two words: the hint key's word 0 (the compressed hands), then its word 1
#: (leader and context) | lower bound << 17 | upper bound << 24 | the live cards << 31. The structure and
#: the live cards are the whole position, so a slot is never mistaken for another. 1 MiB: eight slots a set
#: (four before the ninth round: the exact solve's searches under many thresholds keep more positions of a
#: structure worth asking; 5% fewer nodes there, 2% in the win search).
QUASI_BITS = 13
QWAYS = 8
QUASI = THREE + 2 * (1 << THREE_BITS)
#: The bounds of each root move (by position: lower bound at ``ROOT_BOUNDS + 2 * c``, upper bound at the next
#: word) proven by the searches of one root while ``work[ROOT_MEMO]`` is set.
ROOT_BOUNDS = QUASI + 2 * QWAYS * (1 << QUASI_BITS)
#: Scratch of :func:`_etc_order`: the structure keys of a third seat's children (two words each).
ETC_KEYS = ROOT_BOUNDS + 64
#: The killer leads (one slot per stack depth: the card + 1 that last cut off a node at that depth, 0 none). A
#: declarer's lead that refuted one position often refutes its siblings too, whose hands differ in a card or
#: two; it is tried right after the table's move (:func:`_killer`), in place of the structure's hint.
#: Defenders' leads and the following seats gain nothing from it (docs/history/solver.md, stop 56).
KILLERS = ETC_KEYS + 20
N_WORK = KILLERS + MAX_DEPTH
#: :func:`_etc_order` is asked at a third seat with this many tricks left (the current one included) or more.
ETC_TRICKS = 8
#: A points game asks and stores in the table the trick-boundary positions with this many tricks left or more (and
#: the root): :func:`_tabled`.
TABLE_TRICKS = 8

#: Table entry: two uint64 words, so that a bucket of :data:`WAYS` entries is one 64-byte cache line.
#: Word 0 = the three hands as two 32-bit masks (seats 0 and 2 | seats 1 and 2 << 32; see
#: :func:`_key`); word 1 = the leader | ctx << 2 (bits 0..16, :data:`_KEY_BITS`) | lower bound << 17
#: | upper bound << 24 (7 bits each: a value is at most 120; 127 = none) | (best lead + 1) << 31
#: | generation << 37 | cards left << 53. Generation 0 marks an empty slot.
ENTRY_WORDS = 2
WAYS = 4  # slots per bucket (see new_table)
_B7 = np.uint64(0x7F)
_B8 = np.uint64(0xFF)
_B16 = np.uint64(0xFFFF)
_KEY_BITS = np.uint64((1 << 17) - 1)
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_LIVE_KEY = np.uint64(0xFFFFFFFF << 31) | _KEY_BITS
_ONE = np.uint32(1)
_INF = 1 << 20
assert POINT_VALUES == (0, 2, 3, 4, 10, 11)  # the steps of _point_shift


#: Alignment of a table's first entry (:func:`aligned_zeros`): a 2 MiB boundary, so that the memory numpy
#: marks for transparent huge pages (``madvise``, arrays of 4 MiB and more) starts at a huge page and
#: every :data:`WAYS`-slot bucket is one 64-byte cache line.
TABLE_ALIGN = 1 << 21


def aligned_zeros(shape: int | tuple[int, ...], dtype: np.dtype | type, align: int = TABLE_ALIGN) -> np.ndarray:
    """``np.zeros(shape, dtype)`` whose data starts at a multiple of ``align`` bytes. numpy leaves large
    arrays 16 bytes past a page boundary (numba's allocator on a cache line or 32 bytes past one, by
    run), so the 64-byte buckets of a table straddled two cache lines; and numpy backs its large arrays
    with huge pages where the kernel allows it (fewer TLB misses for random probes into 16 MiB). Only
    where the memory lies changes, never a value."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape)) * dt.itemsize
    raw = np.zeros(n + align, dtype=np.uint8)
    off = -raw.ctypes.data % align
    return raw[off : off + n].view(dt).reshape(shape)


def new_table(log2_entries: int = 20) -> np.ndarray:
    """A transposition table of ``2**log2_entries`` entries (16 bytes each: 2**20 = 16 MiB).

    Allocate it once and pass it to every solve. Entries carry their whole key (hands, leader,
    game type, declarer, objective, early-end rules), so an entry is correct for any later solve and
    the table never needs clearing between solves. Replacement policy: a position lives in one of the
    :data:`WAYS` (4) slots of its bucket; a new position takes a slot written by an earlier solve (an
    older generation, or an empty slot) first, otherwise the slot whose position has fewer cards left
    (the cheaper one to search again): deep results stay, shallow ones rotate. Four slots instead of
    two: 17% fewer nodes on the benchmark's first leads, most in the hardest deals (the 99th
    percentile of nodes 2.4 -> 1.8 million), where two slots let the endgames evict each other.
    Entries of 16 bytes (24 before): a bucket is one cache line, and the same entries take two thirds
    of the memory. At least :data:`WAYS` entries are allocated.
    """
    if not 1 <= log2_entries <= 30:
        raise ValueError(f"log2_entries must be 1..30, got {log2_entries}")
    return aligned_zeros((max(1 << log2_entries, WAYS), ENTRY_WORDS), np.uint64)


def new_work() -> np.ndarray:
    """The solver's scratch for one thread of solves: counters (``NODES``, ...), the search stack, the
    move hints (:data:`HINT_BITS`), the two- and three-trick caches (:data:`TWO_BITS`, :data:`THREE_BITS`)
    and the positions of each trick structure (:data:`QUASI_BITS`); 2.5 MiB in all. Like the table, it is
    reused from solve to solve."""
    return np.zeros(N_WORK, dtype=np.int64)


@kernel
def clear_table(tt: np.ndarray) -> None:
    """Empty a table (never needed for correctness: entries are keyed by the whole position)."""
    tt[:, :] = 0


@kernel
def root_bounds_reset(work: np.ndarray, on: bool) -> None:
    """Start (``on``) or stop keeping the bounds of each root move across the searches of one root.

    A root move's child is one fixed position, so a fail-soft value the search proved for it (a lower bound
    when it reached the window's top, an upper bound when it stayed at its bottom) holds for every later
    search of the same root: there a move whose bound already settles the new window is not searched
    again (its bound is its fail-soft value), and a move whose lower bound reaches the new window is tried
    first. A bisection (:func:`skatsim.engine.solver._bisect`) searches one root about seven times: the
    leads refuted by one search need no second refutation under a higher threshold."""
    for c in range(32):
        work[ROOT_BOUNDS + 2 * c] = -_INF
        work[ROOT_BOUNDS + 2 * c + 1] = _INF
    work[ROOT_MEMO] = 1 if on else 0


@kernel
def next_generation(work: np.ndarray) -> None:
    """Start a solve: the entries earlier solves wrote become the first candidates for replacement."""
    g = work[GENERATION] + 1
    work[GENERATION] = 1 if g > 65535 else g


@kernel
def _bucket(tt: np.ndarray, w0: np.uint64, w1: np.uint64) -> int:
    """First slot of the :data:`WAYS`-slot bucket of a key: high bits of a multiplicative hash, which
    depend on every bit of the key."""
    h = w0 * _M1 ^ w1 * _M2
    h ^= h >> np.uint64(29)
    return np.int64((h * _M1) >> np.uint64(32)) & (tt.shape[0] - WAYS)


@kernel
def _hash(w0: np.uint64, w1: np.uint64) -> np.uint64:
    """The 64-bit hash of a key (its two words)."""
    h = w0 * _M1 ^ w1 * _M2
    return h ^ (h >> np.uint64(29))


@kernel
def _hint_probe(work: np.ndarray, w0: np.uint64, w1: np.uint64) -> int:
    """The hinted move of a hint key (-1 if none is stored; see :data:`HINT_BITS`)."""
    h = _hash(w0, w1)
    e = np.uint64(work[HINTS + np.int64(h >> np.uint64(64 - HINT_BITS))])
    if e != 0 and (e ^ h) & ~_B8 == 0:
        return np.int64(e & _B8) - 1
    return -1


@kernel
def _hint_store(work: np.ndarray, w0: np.uint64, w1: np.uint64, move: int) -> None:
    """Keep ``move`` as the hint of a hint key (the newest hint replaces whatever held the slot)."""
    h = _hash(w0, w1)
    work[HINTS + np.int64(h >> np.uint64(64 - HINT_BITS))] = np.int64((h & ~_B8) | np.uint64(move + 1))


@kernel
def _probe(tt: np.ndarray, w0: np.uint64, w1: np.uint64) -> tuple[bool, int, int, int]:
    """Look a key up: (found, lower bound, upper bound, best move or -1)."""
    s = _bucket(tt, w0, w1)
    for k in range(WAYS):
        e = tt[s + k, 1]
        if tt[s + k, 0] == w0 and e & _KEY_BITS == w1 and (e >> np.uint64(37)) & _B16 != 0:
            return (
                True,
                np.int64((e >> np.uint64(17)) & _B7),
                np.int64((e >> np.uint64(24)) & _B7),
                np.int64((e >> np.uint64(31)) & np.uint64(63)) - 1,
            )
    return False, 0, 127, -1


@kernel
def _store(tt: np.ndarray, work: np.ndarray, w0: np.uint64, w1: np.uint64, lo: int, hi: int, best: int, n: int) -> None:
    """Record ``lo <= value <= hi`` and the best lead of a position with ``n`` cards left, merged with
    what the table already knows of it (see :func:`new_table` for the replacement policy)."""
    s = _bucket(tt, w0, w1)
    gen = np.uint64(work[GENERATION])
    victim = -1
    for k in range(WAYS):
        e = tt[s + k, 1]
        if tt[s + k, 0] == w0 and e & _KEY_BITS == w1 and (e >> np.uint64(37)) & _B16 != 0:
            lo = max(lo, np.int64((e >> np.uint64(17)) & _B7))
            hi = min(hi, np.int64((e >> np.uint64(24)) & _B7))
            victim = s + k
            break
    if victim < 0:
        fewest = np.uint64(255)
        for k in range(WAYS):
            e = tt[s + k, 1]
            if (e >> np.uint64(37)) & _B16 != gen:  # empty, or written by an earlier solve
                victim = s + k
                break
            if (e >> np.uint64(53)) < fewest:
                fewest = e >> np.uint64(53)
                victim = s + k
    lo = min(max(lo, 0), 127)
    hi = min(max(hi, 0), 127)
    tt[victim, 0] = w0
    tt[victim, 1] = (
        w1
        | np.uint64(lo) << np.uint64(17)
        | np.uint64(hi) << np.uint64(24)
        | np.uint64(best + 1) << np.uint64(31)
        | gen << np.uint64(37)
        | np.uint64(n) << np.uint64(53)
    )
    work[STORES] += 1


@inlined_kernel
def _point_ranks(gt: int, live: np.uint32) -> tuple[np.uint32, np.uint32, np.uint32, np.uint32, np.uint32]:
    """For each card point value above 0 (2, 3, 4, 10, 11): the live cards worth at least that much, as a
    mask over the live cards in bit order (bit i: the i-th live card; :func:`_point_shift`): five :func:`pext`
    done at once, a byte of the live cards at a time (:data:`P_RANKS8`: one lookup a byte instead of five)."""
    r1 = np.uint32(0)
    r2 = np.uint32(0)
    r3 = np.uint32(0)
    r4 = np.uint32(0)
    r5 = np.uint32(0)
    shift = np.uint32(0)
    for j in range(4):
        b = (live >> np.uint32(8 * j)) & np.uint32(255)
        if b:
            e = P_RANKS8[gt, j, b]
            r1 |= np.uint32(e & _B8) << shift
            r2 |= np.uint32((e >> np.uint64(8)) & _B8) << shift
            r3 |= np.uint32((e >> np.uint64(16)) & _B8) << shift
            r4 |= np.uint32((e >> np.uint64(24)) & _B8) << shift
            r5 |= np.uint32((e >> np.uint64(32)) & _B8) << shift
            shift += np.uint32(popcount(b))
    return r1, r2, r3, r4, r5


@inlined_kernel
def _point_shift(
    a: tuple[np.uint32, np.uint32, np.uint32, np.uint32, np.uint32],
    b: tuple[np.uint32, np.uint32, np.uint32, np.uint32, np.uint32],
    fixed: np.uint32,
    loose: np.uint32,
) -> tuple[int, int]:
    """Pair the live cards of two positions in bit order (the i-th with the i-th) and return how much more
    (``up``) and less (``down``) the declarer can take in the first than in the second along one line of
    play, from their :func:`_point_ranks` ``a`` and ``b``: the sums of ``max(0, x - y)`` and
    ``max(0, y - x)`` over the pairs' card points ``x``, ``y`` at the ``loose`` bits (``max(0, x - y)`` is
    the sum of the steps between point values, 2, 1, 1, 6, 1 up to 2, 3, 4, 10, 11, that ``x`` reaches and
    ``y`` does not), plus ``x - y`` of the pairs at the ``fixed`` bits in both (cards he takes in every
    line). Pairs in neither never reach his tricks."""
    up = 2 * popcount(a[0] & ~b[0] & loose) + popcount(a[1] & ~b[1] & loose) + popcount(a[2] & ~b[2] & loose)
    up += 6 * popcount(a[3] & ~b[3] & loose) + popcount(a[4] & ~b[4] & loose)
    down = 2 * popcount(b[0] & ~a[0] & loose) + popcount(b[1] & ~a[1] & loose) + popcount(b[2] & ~a[2] & loose)
    down += 6 * popcount(b[3] & ~a[3] & loose) + popcount(b[4] & ~a[4] & loose)
    if fixed:
        shift = 2 * (popcount(a[0] & fixed) - popcount(b[0] & fixed)) + popcount(a[1] & fixed) - popcount(b[1] & fixed)
        shift += popcount(a[2] & fixed) - popcount(b[2] & fixed)
        shift += 6 * (popcount(a[3] & fixed) - popcount(b[3] & fixed)) + popcount(a[4] & fixed) - popcount(b[4] & fixed)
        up += shift
        down -= shift
    return up, down


@kernel
def _quasi_probe(
    work: np.ndarray,
    ctx: int,
    w0: np.uint64,
    w1: np.uint64,
    h0: np.uint32,
    h1: np.uint32,
    h2: np.uint32,
    alpha: int,
    beta: int,
) -> tuple[int, int]:
    """Bounds (lower, upper) of the value of a trick-boundary position (hands ``h0..h2``, hint key
    ``w0, w1``) from stored positions of its trick structure; (-1, 128) when none is known.

    A stored position B of the same trick structure (the same hint key: the same leader and context, and
    hands that are the same once every group is compressed to ranks) pairs its live cards with ours in bit
    order: paired cards have the same owner, group and rank among the live cards of their group. So every
    line of play in one position is a line in the other (same legal moves, same trick winners, same early
    ends), and its values differ by the points of the paired cards the declarer takes: by at most ``up`` =
    the sum of ``max(0, ours - B's)`` over all pairs, and at least ``-down`` likewise. The minimax values
    then differ by as much, so ``lo_B - down <= value <= hi_B + up``. Master trumps narrow this (the ninth
    round): a pair of the defenders' trumps above all of the declarer's never reaches his tricks, and a
    pair of his trumps above all of theirs always does when no early end can leave it unplayed, so it
    shifts both bounds by its exact difference (:func:`_point_shift`). The tightest bounds of the stored
    positions that may settle the window ``(alpha, beta)`` are returned (a bound that cannot is not
    computed: only a cut uses the result)."""
    gt = (ctx >> GT_SHIFT) & 7
    live = h0 | h1 | h2
    base = QUASI + 2 * QWAYS * np.int64(_hash(w0, w1) >> np.uint64(64 - QUASI_BITS))
    qlo = -1
    qhi = 128
    mine = (_ONE, _ONE, _ONE, _ONE, _ONE)
    fixed = _ONE
    loose = _ONE
    known = False
    for k in range(QWAYS):
        slot = base + 2 * k
        e = np.uint64(work[slot + 1])
        if np.uint64(work[slot]) != w0 or e & _KEY_BITS != w1 or e == 0:
            continue
        lo = np.int64((e >> np.uint64(17)) & _B7)
        hi = np.int64((e >> np.uint64(24)) & _B7)
        if lo < beta and hi > alpha:
            continue  # cannot settle the window, whatever the points
        if not known:
            mine = _point_ranks(gt, live)
            dmask, emask = master_trumps(ctx, h0, h1, h2)
            fixed = pext(dmask, live) if ctx & (ENDS_ON_DECLARER | ENDS_ON_DEFENDERS) == 0 else np.uint32(0)
            loose = ~(fixed | pext(emask, live))
            known = True
        up, down = _point_shift(mine, _point_ranks(gt, np.uint32(e >> np.uint64(31))), fixed, loose)
        qlo = max(qlo, lo - down)
        if hi != 127:
            qhi = min(qhi, hi + up)
    return qlo, qhi


@kernel
def _quasi_store(work: np.ndarray, w0: np.uint64, w1: np.uint64, live: np.uint32, lo: int, hi: int) -> None:
    """Keep the bounds ``lo <= value <= hi`` of the position with live cards ``live`` under its trick
    structure (hint key ``w0, w1``; :func:`_quasi_probe`), in the first slot of its set: merged with the
    slot holding the same position if there is one (which leaves the set), else the last slot leaves."""
    base = QUASI + 2 * QWAYS * np.int64(_hash(w0, w1) >> np.uint64(64 - QUASI_BITS))
    lo = min(max(lo, 0), 127)
    hi = min(max(hi, 0), 127)
    tag = w1 | np.uint64(live) << np.uint64(31)
    m = QWAYS - 1
    for k in range(QWAYS):
        e = np.uint64(work[base + 2 * k + 1])
        if np.uint64(work[base + 2 * k]) == w0 and e & _LIVE_KEY == tag:
            lo = max(lo, np.int64((e >> np.uint64(17)) & _B7))
            hi = min(hi, np.int64((e >> np.uint64(24)) & _B7))
            m = k
            break
    for k in range(m, 0, -1):
        work[base + 2 * k] = work[base + 2 * k - 2]
        work[base + 2 * k + 1] = work[base + 2 * k - 1]
    work[base] = np.int64(w0)
    work[base + 1] = np.int64(tag | np.uint64(lo) << np.uint64(17) | np.uint64(hi) << np.uint64(24))


@kernel
def _tabled(trick_mode: bool, sp: int, per_hand: int) -> bool:
    """Whether a trick-boundary position (``per_hand`` cards in each hand, at stack depth ``sp``) is asked
    of and stored in the table: always when only tricks count and at the root; in a points game from
    :data:`TABLE_TRICKS` tricks left. Below that the positions of each trick structure (:func:`_quasi_probe`,
    asked first) answer whatever the table would: it settled 7,000 of the exact solve's 40 million
    trick-boundary nodes from five tricks left, and its key, fetch, probe and store cost 5 to 8% of the time
    (docs/history/solver.md, fourteenth round)."""
    return trick_mode or sp == 0 or per_hand >= TABLE_TRICKS


@kernel
def _key(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int) -> tuple[np.uint64, np.uint64]:
    """The perfect table key of a trick-boundary position: the hands as two 32-bit masks, seats 0 and 2
    in the low half, seats 1 and 2 in the high half (a card in both is seat 2's: the hands are disjoint,
    so this is the whole deal in one word: two bits per position, not interleaved, which took ten shifts
    and masks), and the leader and context (``ctx`` below 2**15, hint keys included)."""
    w0 = np.uint64(h0 | h2) | np.uint64(h1 | h2) << np.uint64(32)
    w1 = np.uint64(leader) | np.uint64(ctx) << np.uint64(2)
    return w0, w1


@kernel
def _cached(work: np.ndarray, base: int, bits: int, w0: np.uint64, w1: np.uint64) -> tuple[int, int]:
    """The slot of key ``(w0, w1)`` in the direct-mapped cache of exact values at ``base`` in ``work``
    (``2**bits`` slots of two words: ``w0``, then ``w1 | (value + 1) << 20``), and the value it holds
    there, or -1."""
    slot = base + 2 * np.int64(_hash(w0, w1) >> np.uint64(64 - bits))
    e = np.uint64(work[slot + 1])
    if np.uint64(work[slot]) == w0 and e & np.uint64(0xFFFFF) == w1 and e >> np.uint64(20) != 0:
        return slot, np.int64(e >> np.uint64(20)) - 1
    return slot, -1


@kernel
def _cache(work: np.ndarray, slot: int, w0: np.uint64, w1: np.uint64, v: int) -> None:
    """Keep the exact value ``v`` of key ``(w0, w1)`` in ``slot`` (:func:`_cached`)."""
    work[slot] = np.int64(w0)
    work[slot + 1] = np.int64(w1 | np.uint64(v + 1) << np.uint64(20))


@kernel
def _two_tricks_at(work: np.ndarray, ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int) -> int:
    """Exact value of a two-trick position at a trick boundary (every hand holds two cards):
    :func:`skatsim.engine.solver_eval.two_tricks`, through the cache at :data:`TWO` in ``work``."""
    w0, w1 = _key(ctx, h0, h1, h2, leader)
    slot, v = _cached(work, TWO, TWO_BITS, w0, w1)
    if v < 0:
        v = two_tricks(ctx, h0, h1, h2, leader, 0, -1, -1)
        _cache(work, slot, w0, w1, v)
    return v


@kernel
def _minimax_step(maximise: bool, v: int, best: int, a: int, b: int) -> tuple[int, int, int]:
    """A child's value ``v`` taken into its parent's ``best`` and window ``[a, b]``, for the side that
    maximises (the declarer) or minimises."""
    if maximise:
        if v > best:
            return v, max(a, v), b
    elif v < best:
        return v, a, min(b, v)
    return best, a, b


@kernel
def _push_frame(
    work: np.ndarray,
    f: int,
    h0: np.uint32,
    h1: np.uint32,
    h2: np.uint32,
    leader: int,
    nin: int,
    t0: int,
    t1: int,
    rest: int,
    alpha: int,
    beta: int,
    a0: int,
    b0: int,
    best: int,
    best_card: int,
    card: int,
    gain: int,
) -> None:
    """Save a node's state in its frame at ``f`` before the search enters the child that ``card`` leads to."""
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
    work[f + CARD] = card
    work[f + GAIN] = gain


@kernel
def _pop_frame(work: np.ndarray, f: int) -> tuple:
    """The state :func:`_push_frame` saved at ``f``, in its argument order, when the search returns to the node."""
    return (
        np.uint32(work[f + H0]),
        np.uint32(work[f + H1]),
        np.uint32(work[f + H2]),
        work[f + LEAD],
        work[f + NIN],
        work[f + T0],
        work[f + T1],
        work[f + REST],
        work[f + ALPHA],
        work[f + BETA],
        work[f + A0],
        work[f + B0],
        work[f + BEST],
        work[f + BEST_CARD],
        work[f + CARD],
        work[f + GAIN],
    )


@kernel
def _pop_highest(mask: np.uint32) -> tuple[int, np.uint32]:
    """The highest card of a nonempty ``mask`` and the mask without it."""
    c = highest_bit(mask)
    return c, mask & ~(_ONE << np.uint32(c))


@kernel
def _three_tricks(work: np.ndarray, ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int) -> int:
    """Exact value of a three-trick position at a trick boundary: the first trick's lines (one card per
    class of equivalent cards, highest first: in a points game that is the most points, 6% faster than
    lowest first; alpha-beta inside an infinite window, so the result is exact), each closed and the last
    two tricks valued by :func:`_two_tricks_at`."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    trick_mode = (ctx & TRICK_MODE) != 0
    s1 = leader + 1 if leader < 2 else 0
    s2 = s1 + 1 if s1 < 2 else 0
    hl = seat_hand(h0, h1, h2, leader)
    ha = seat_hand(h0, h1, h2, s1)
    hb = seat_hand(h0, h1, h2, s2)
    live = h0 | h1 | h2
    max0 = leader == d
    max1 = s1 == d
    max2 = s2 == d
    a0, b0, best0 = -_INF, _INF, (-_INF if max0 else _INF)
    m0 = equivalence_classes(gt, trick_mode, hl, hl, live)
    while m0:
        c0, m0 = _pop_highest(m0)
        a1, b1, best1 = a0, b0, (-_INF if max1 else _INF)
        m1 = equivalence_classes(gt, trick_mode, ha, legal(gt, ha, c0), live)
        follow_b = legal(gt, hb, c0)
        while m1:
            c1, m1 = _pop_highest(m1)
            a2, b2, best2 = a1, b1, (-_INF if max2 else _INF)
            m2 = equivalence_classes(gt, trick_mode, hb, follow_b, live)
            while m2:
                c2, m2 = _pop_highest(m2)
                x = ~((_ONE << np.uint32(c0)) | (_ONE << np.uint32(c1)) | (_ONE << np.uint32(c2)))
                winner, gain, ends = close_trick(ctx, leader, c0, c1, c2)
                if ends:
                    v = gain + unplayed(ctx, hb & x)
                else:
                    v = gain + _two_tricks_at(work, ctx, h0 & x, h1 & x, h2 & x, winner)
                best2, a2, b2 = _minimax_step(max2, v, best2, a2, b2)
                if a2 >= b2:
                    break
            best1, a1, b1 = _minimax_step(max1, best2, best1, a1, b1)
            if a1 >= b1:
                break
        best0, a0, b0 = _minimax_step(max0, best1, best0, a0, b0)
    return best0


@kernel
def _three_tricks_at(work: np.ndarray, ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int) -> int:
    """Exact value of a three-trick position at a trick boundary (:func:`_three_tricks`), through the cache at
    :data:`THREE` in ``work``, keyed by the whole position (as the two-trick cache: canonical hands would
    merge a few more positions but cost more than they save, 2 to 3% of the exact solve's time)."""
    w0, w1 = _key(ctx, h0, h1, h2, leader)
    slot, v = _cached(work, THREE, THREE_BITS, w0, w1)
    if v < 0:
        v = _three_tricks(work, ctx, h0, h1, h2, leader)
        _cache(work, slot, w0, w1, v)
    return v


@kernel
def _bounded_by_sibling(
    work: np.ndarray, f: int, k: int, c: int, gt: int, others: np.uint32, maximise: bool, alpha: int, beta: int
) -> int:
    """A fail-soft value for the ``k``-th move ``c`` of the node at frame ``f`` without searching it, or
    ``-_INF`` when its siblings tried so far do not settle it.

    Two cards of the mover's hand in one group with no card of another seat (in a hand or in the current
    trick) between them win and lose against the same cards for the rest of the game: exchanging their
    names in any continuation changes no trick winner and moves only their points, so the values after
    playing either differ by at most the difference ``delta`` of their points. A sibling ``j`` searched
    before left a fail-soft value ``v_j`` that bounds its true value from the side the node needs: at a
    max node, which did not cut, ``v_j`` is exact or an upper bound; at a min node exact or a lower bound. So
    at a max node ``v_j + delta <= alpha`` proves ``c`` cannot raise the value above alpha, and
    ``v_j + delta`` is an upper bound of ``c``'s value (fail-soft); at a min node ``v_j - delta >= beta``
    likewise. The tightest such bound is returned."""
    g = P_GROUP_MASK[gt, P_GROUP[gt, c]]
    out = -_INF
    for j in range(k):
        cj = work[f + MOVES + j] & 31
        if (g >> np.uint32(cj)) & _ONE == 0:
            continue
        lo = min(c, cj)
        hi = max(c, cj)
        between = ((_ONE << np.uint32(hi)) - _ONE) & ~((_ONE << np.uint32(lo + 1)) - _ONE)
        if others & between:
            continue
        delta = abs(P_POINTS[gt, c] - P_POINTS[gt, cj])
        vj = work[f + VALUES + j]
        if maximise:
            v = vj + delta
            if v <= alpha and (out == -_INF or v < out):
                out = v
        else:
            v = vj - delta
            if v >= beta and v > out:
                out = v
    return out


@kernel
def _killer(work: np.ndarray, sp: int, leader: int, nin: int, d: int) -> int:
    """The killer lead of stack depth ``sp`` (:data:`KILLERS`) when the declarer is on lead there, else -1."""
    if nin == 0 and leader == d:
        return work[KILLERS + sp] - 1
    return -1


@kernel
def _etc_order(
    work: np.ndarray,
    f: int,
    ctx: int,
    h0: np.uint32,
    h1: np.uint32,
    h2: np.uint32,
    leader: int,
    t0: int,
    t1: int,
    alpha: int,
    beta: int,
) -> None:
    """At the third seat, before any move is tried: move to the front of the move list a later move whose
    child (a trick-boundary position) positions of its trick structure already bound beyond the window
    (:func:`_quasi_probe`: the child would be settled on entry), so that it is tried first ("enhanced
    transposition cutoff"). Only the order changes, never a value or a bound.

    Asked with :data:`ETC_TRICKS` or more tricks left, where the moves tried before a late cut hold large
    subtrees: lower in the tree the probes cost more than they save (docs/history/solver.md, thirteenth round).
    The children's structure keys come from this node's canonical hands (a child lacks one card: the
    cards of its group above it move down one place), and their sets are fetched before any is probed."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    maximise = seat_to_move(leader, 2) == d
    n = work[f + N_MOVES]
    live = h0 | h1 | h2
    p0, p1, p2 = canonical(gt, 1, h0, h1, h2)
    for j in range(1, n):  # the first move is tried first anyway
        cj = work[f + MOVES + j] & 31
        winner, _, _ = close_trick(ctx, leader, t0, t1, cj)
        run = P_GROUP_MASK[gt, P_GROUP[gt, cj]]
        q = to_canonical(gt, 1, live, cj)
        low = (_ONE << np.uint32(q)) - _ONE
        high = run & ~low & ~(_ONE << np.uint32(q))
        k0 = (p0 & ~run) | (p0 & run & low) | ((p0 & high) >> _ONE)
        k1 = (p1 & ~run) | (p1 & run & low) | ((p1 & high) >> _ONE)
        k2 = (p2 & ~run) | (p2 & run & low) | ((p2 & high) >> _ONE)
        hw0, hw1 = _key(ctx | HINT, k0, k1, k2, winner)
        work[ETC_KEYS + 2 * j] = np.int64(hw0)
        work[ETC_KEYS + 2 * j + 1] = np.int64(hw1)
        prefetch_row(work, QUASI + 2 * QWAYS * np.int64(_hash(hw0, hw1) >> np.uint64(64 - QUASI_BITS)))
    for j in range(1, n):
        cj = work[f + MOVES + j] & 31
        winner, g, ends = close_trick(ctx, leader, t0, t1, cj)
        if ends:
            continue
        x = ~(_ONE << np.uint32(cj))
        hw0 = np.uint64(work[ETC_KEYS + 2 * j])
        hw1 = np.uint64(work[ETC_KEYS + 2 * j + 1])
        lo, hi = _quasi_probe(work, ctx, hw0, hw1, h0 & x, h1 & x, h2 & x, alpha - g, beta - g)
        if (maximise and lo + g >= beta) or (not maximise and hi + g <= alpha):
            m = work[f + MOVES + j]
            work[f + MOVES + j] = work[f + MOVES]
            work[f + MOVES] = m
            return


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
    root_first = work[ROOT_FIRST] - 1
    memo = work[ROOT_MEMO] != 0
    work[ROOT_FIRST] = 0
    work[ROOT_HIGH] = 0
    work[ROOT_LOW] = 0
    root_alpha = alpha
    root_beta = beta
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
            mover = seat_to_move(leader, nin)
            hand = seat_hand(h0, h1, h2, mover)
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
                ret = last_trick(ctx, h0, h1, h2, leader, nin, t0, t1)
            elif popcount(hand) == 2:
                if nin == 0:
                    ret = _two_tricks_at(work, ctx, h0, h1, h2, leader)
                else:
                    ret = two_tricks(ctx, h0, h1, h2, leader, nin, t0, t1)
            else:
                done = False
                quasi = nin == 0 and (popcount(hand) > 3 or sp == 0) and not trick_mode
                if quasi:
                    # The structure's key first, and its set in work fetched while the table's key is
                    # made (2-3% less time than without the prefetch).
                    k0, k1, k2 = canonical(gt, 1, h0, h1, h2)
                    hw0, hw1 = _key(ctx | HINT, k0, k1, k2, leader)
                    work[f + HKEY0] = np.int64(hw0)
                    work[f + HKEY1] = np.int64(hw1)
                    prefetch_row(work, QUASI + 2 * QWAYS * np.int64(_hash(hw0, hw1) >> np.uint64(64 - QUASI_BITS)))
                if nin == 0 and _tabled(trick_mode, sp, popcount(hand)):
                    # The table will be asked unless a bound settles the node: its key is made here
                    # (read below) and its bucket fetched while the bounds are computed. Not below
                    # TABLE_TRICKS tricks left in a points game: the positions of each trick structure
                    # answer there.
                    k0, k1, k2 = canonical(gt, ctx & TRICK_MODE, h0, h1, h2)
                    w0, w1 = _key(ctx, k0, k1, k2, leader)
                    work[f + KEY0] = np.int64(w0)
                    work[f + KEY1] = np.int64(w1)
                    prefetch_row(tt, _bucket(tt, w0, w1))
                if quasi:
                    # Positions of the same trick structure bound this one up to their point
                    # differences: asked before the table (whose probe is a miss) and before the static
                    # bounds too (measured: 1% fewer nodes, 3% less time).
                    hw0 = np.uint64(work[f + HKEY0])
                    hw1 = np.uint64(work[f + HKEY1])
                    qlo, qhi = _quasi_probe(work, ctx, hw0, hw1, h0, h1, h2, alpha, beta)
                    if qlo >= beta:
                        ret = qlo
                        done = True
                    elif qhi <= alpha:
                        ret = qhi
                        done = True
                if nin == 0 and not trick_mode and not done:
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
                    else:
                        # The declarer's winners (on lead or not), only where the cheaper bounds failed.
                        low = declarer_sure_points(ctx, h0, h1, h2)
                        if low >= beta:
                            ret = low
                            done = True
            if not done and nin == 0 and popcount(hand) == 3 and sp > 0:
                # Three tricks left: the exact value, cached (it answers every window). Not at the root,
                # whose moves a caller may want reported (ROOT_HIGH, ROOT_LOW).
                ret = _three_tricks_at(work, ctx, h0, h1, h2, leader)
                done = True
            if not done:
                first = -1
                if nin == 0:
                    if _tabled(trick_mode, sp, popcount(hand)):
                        w0 = np.uint64(work[f + KEY0])
                        w1 = np.uint64(work[f + KEY1])
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
                    if not trick_mode and not done and first < 0 and leader != d:
                        # A position of the same trick structure (other card points) suggests a defender's
                        # lead. The declarer's leads take the killer instead (KILLERS): with both, the
                        # hint first, 3% more nodes.
                        move = _hint_probe(work, np.uint64(work[f + HKEY0]), np.uint64(work[f + HKEY1]))
                        if move >= 0:
                            first = from_canonical(gt, 1, h0 | h1 | h2, move)
                if not done:
                    a0 = alpha
                    b0 = beta
                    kl = _killer(work, sp, leader, nin, d)
                    if sp == 0 and root_first >= 0:
                        first = root_first
                    if sp == 0 and memo:
                        # The root of a repeated search: every move listed at once, so that one its
                        # earlier bounds show to cut is found before any other is searched.
                        if first >= 0 and not legal(gt, hand, t0 if nin else -1) >> np.uint32(first) & _ONE:
                            first = -1
                        work[f + N_MOVES] = order_moves(work, f, ctx, h0, h1, h2, leader, nin, t0, t1, first, -1, 0, kl)
                        work[f + PENDING] = 0
                    elif first >= 0 and legal(gt, hand, t0 if nin else -1) >> np.uint32(first) & _ONE:
                        # Try the suggested move alone first; order the others only if it does not cut.
                        work[f + MOVES] = first
                        work[f + N_MOVES] = 1
                        work[f + PENDING] = 1
                    else:
                        n_moves = order_moves(work, f, ctx, h0, h1, h2, leader, nin, t0, t1, -1, -1, 0, kl)
                        work[f + N_MOVES] = n_moves
                        work[f + PENDING] = 0
                        if nin == 2 and n_moves > 1 and popcount(h0 | h1 | h2) == 10:
                            # The children are three-trick positions, looked up in their cache one after
                            # another: fetch every child's slot now, so that the misses overlap.
                            for j in range(n_moves):
                                c = work[f + MOVES + j] & 31
                                winner, g, ends = close_trick(ctx, leader, t0, t1, c)
                                x = ~(_ONE << np.uint32(c))
                                w0, w1 = _key(ctx, h0 & x, h1 & x, h2 & x, winner)
                                prefetch_row(work, THREE + 2 * np.int64(_hash(w0, w1) >> np.uint64(64 - THREE_BITS)))
                    work[f + NEXT] = 0
                    best = -_INF if mover == d else _INF
                    best_card = -1
        if not done:
            k = work[f + NEXT]
            if k == work[f + N_MOVES] and work[f + PENDING]:
                work[f + PENDING] = 0
                skip = work[f + MOVES] & 31
                kl = _killer(work, sp, leader, nin, d)
                work[f + N_MOVES] += order_moves(work, f, ctx, h0, h1, h2, leader, nin, t0, t1, -1, skip, 1, kl)
            if k < work[f + N_MOVES]:
                # Try the next move; a child position is entered on the next turn of the loop.
                if k == 0 and nin == 2 and sp > 0 and not trick_mode and popcount(h0 | h1 | h2) >= 3 * ETC_TRICKS - 2:
                    # A third seat high in the tree (not the root, whose order a caller may set): a move
                    # whose child is settled on entry goes first.
                    _etc_order(work, f, ctx, h0, h1, h2, leader, t0, t1, alpha, beta)
                sibling = -_INF
                if sp == 0 and memo:
                    # A move whose bound from an earlier search of this root cuts goes first; a move whose
                    # bound settles the window is not searched (root_bounds_reset).
                    maximise = seat_to_move(leader, nin) == d
                    for j in range(k, work[f + N_MOVES]):
                        cj = work[f + MOVES + j] & 31
                        cuts = (
                            work[ROOT_BOUNDS + 2 * cj] >= beta if maximise else work[ROOT_BOUNDS + 2 * cj + 1] <= alpha
                        )
                        if cuts:
                            if j > k:
                                x = work[f + MOVES + j]
                                work[f + MOVES + j] = work[f + MOVES + k]
                                work[f + MOVES + k] = x
                            break
                    c = work[f + MOVES + k] & 31
                    if work[ROOT_BOUNDS + 2 * c] >= beta:
                        sibling = work[ROOT_BOUNDS + 2 * c]
                    elif work[ROOT_BOUNDS + 2 * c + 1] <= alpha:
                        sibling = work[ROOT_BOUNDS + 2 * c + 1]
                c = work[f + MOVES + k] & 31
                work[f + NEXT] = k + 1
                if k > 0 and sp > 0 and not trick_mode:
                    # A sibling may settle this move (not at the root: little gain there, and its moves
                    # are reported to the caller).
                    mover = seat_to_move(leader, nin)
                    hand = seat_hand(h0, h1, h2, mover)
                    if hand & P_GROUP_MASK[gt, P_GROUP[gt, c]] & ~(_ONE << np.uint32(c)):
                        others = (h0 | h1 | h2) & ~hand
                        if nin >= 1:
                            others |= _ONE << np.uint32(t0)
                        if nin == 2:
                            others |= _ONE << np.uint32(t1)
                        sibling = _bounded_by_sibling(work, f, k, c, gt, others, mover == d, alpha, beta)
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
                in_hands = popcount(h0 | h1 | h2)
                if sibling != -_INF:
                    # A sibling's value settles this move (see _bounded_by_sibling): no search.
                    ret = sibling
                    card = c
                    gain = 0
                elif nin == 2 and not ends and (in_hands == 7 or in_hands == 10):
                    # The child is a two- or three-trick position at a trick boundary: its exact (cached)
                    # value here, no frame.
                    work[NODES] += 1
                    if in_hands == 7:
                        ret = _two_tricks_at(work, ctx, n0, n1, n2, winner)
                    else:
                        ret = _three_tricks_at(work, ctx, n0, n1, n2, winner)
                    card = c
                    gain = g
                elif nin < 2 or not ends:
                    _push_frame(
                        work, f, h0, h1, h2, leader, nin, t0, t1, rest, alpha, beta, a0, b0, best, best_card, c, g
                    )
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
                else:
                    # The game ends with this trick.
                    closer = leader + 2 if leader == 0 else leader - 1
                    ret = g + unplayed(ctx, seat_hand(n0, n1, n2, closer))
                    card = c
                    gain = 0
            else:
                # Every move tried (or cut off): the node's value is ``best``.
                n = popcount(h0 | h1 | h2)
                if nin == 0:
                    w0 = np.uint64(work[f + KEY0])
                    w1 = np.uint64(work[f + KEY1])
                    move = to_canonical(gt, ctx & TRICK_MODE, h0 | h1 | h2, best_card) if best_card >= 0 else -1
                    lo = 0
                    hi = 127
                    if best <= a0:
                        hi = best
                    elif best >= b0:
                        lo = best
                    else:
                        lo = best
                        hi = best
                    if _tabled(trick_mode, sp, n // 3):
                        _store(tt, work, w0, w1, lo, hi, move, n)
                    if not trick_mode:
                        _quasi_store(work, np.uint64(work[f + HKEY0]), np.uint64(work[f + HKEY1]), h0 | h1 | h2, lo, hi)
                    if not trick_mode and best_card >= 0 and leader != d:
                        hint = to_canonical(gt, 1, h0 | h1 | h2, best_card)
                        _hint_store(work, np.uint64(work[f + HKEY0]), np.uint64(work[f + HKEY1]), hint)
                ret = best
                done = True
        if done:
            # Back to the parent with the value ``ret``.
            if sp == 0:
                return ret
            sp -= 1
            f -= FRAME
            h0, h1, h2, leader, nin, t0, t1, rest, alpha, beta, a0, b0, best, best_card, card, gain = _pop_frame(
                work, f
            )
        # Fold the child's value ``gain + ret`` into the current node.
        v = gain + ret
        work[f + VALUES + work[f + NEXT] - 1] = v
        if sp == 0:
            # A root move's value: the child was searched inside the root's window, which only narrows
            # (root_alpha <= alpha < beta <= root_beta), so v >= root_beta is a lower bound reaching
            # beta and v <= root_alpha an upper bound staying at alpha (fail-soft).
            if v >= root_beta:
                work[ROOT_HIGH] |= np.int64(1) << np.int64(card)
                if memo and v > work[ROOT_BOUNDS + 2 * card]:
                    work[ROOT_BOUNDS + 2 * card] = v
            elif v <= root_alpha:
                work[ROOT_LOW] |= np.int64(1) << np.int64(card)
                if memo and v < work[ROOT_BOUNDS + 2 * card + 1]:
                    work[ROOT_BOUNDS + 2 * card + 1] = v
        mover = seat_to_move(leader, nin)
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
            work[KILLERS + sp] = card + 1
            work[f + NEXT] = work[f + N_MOVES]
            work[f + PENDING] = 0
