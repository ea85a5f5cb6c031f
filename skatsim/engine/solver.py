"""Open-hand (double-dummy) solver: the exact value of a position when every seat sees every card.

The value of a position is the outcome of the rest of the game when the declarer and the two
defenders (one side) all play perfectly with all hands known. Each question is its own minimax (a
line that is best for card points need not be best for tricks: a 0-point trick matters for Schwarz):

* :func:`solve_points`: the declarer's final card points, the skat included as the rules count it
  (RULES.md §3, §5); :func:`declarer_reaches` asks only whether he reaches a number (61: won; 90).
* :func:`declarer_takes_all` / :func:`declarer_takes_one`: can the declarer take every remaining trick /
  at least one (Schwarz is about tricks, never points); :func:`solve_tricks`: how many he can take.
* :func:`declarer_avoids_tricks`: can he leave every remaining trick to the defenders (Null).
* :func:`best_moves`: the legal cards that keep the optimal value of one of these objectives.

Early ends follow the play kernels (:func:`skatsim.engine.play._ends_early`, asked once per solve):
Null stops at the declarer's first trick, an announced Schwarz at the defenders' first trick.

Every entry point takes a play state (:mod:`skatsim.engine.play`, any point of the game, mid-trick
included; it is not modified), a transposition table from :func:`new_table` and a scratch array from
:func:`new_work`, both allocated once by the caller and reused; nothing is allocated inside. The search
itself is :func:`skatsim.engine.solver_search.search` (see there and ``docs/solver.md``): fail-soft
alpha-beta over single cards with a perfectly keyed table, driven here by null-window searches, in
the card renumbering of :mod:`skatsim.engine.solver_tables`.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel, lowest_bit
from .play import (
    DECLARER,
    GT,
    HAND0,
    LEADER,
    N_IN_TRICK,
    OVER,
    POINTS0,
    SKAT,
    TRICK0,
    TRICK_NO,
    TRICKS0,
    _ends_early,
    legal_now,
    to_move,
)
from .solver_eval import (
    ENDS_ON_DECLARER,
    ENDS_ON_DEFENDERS,
    GOOD_FOR_DEFENDERS,
    GT_SHIFT,
    TRICK_MODE,
    close_trick,
    unplayed,
)
from .solver_search import (
    GENERATION,
    HITS,
    NODES,
    ROOT_FIRST,
    ROOT_HIGH,
    ROOT_LOW,
    STORES,
    clear_table,
    new_table,
    new_work,
    next_generation,
    root_bounds_reset,
    search,
)
from .solver_tables import P_POINTS, TO_POS, to_positions
from .tricks import card_points

#: A search position, as :func:`skatsim.engine.solver_search.search` takes it: context bits, the three
#: hands as masks of positions, the trick's leader, the number of cards in the trick and the first two
#: (positions, -1 none), the card points left in the hands.
Position = tuple[int, np.uint32, np.uint32, np.uint32, int, int, int, int, int]

__all__ = [
    "GENERATION",
    "HITS",
    "NODES",
    "OBJ_ALL_TRICKS",
    "OBJ_NO_TRICK",
    "OBJ_ONE_TRICK",
    "OBJ_POINTS",
    "ROOT_FIRST",
    "ROOT_HIGH",
    "ROOT_LOW",
    "STORES",
    "best_moves",
    "clear_table",
    "declarer_avoids_tricks",
    "declarer_reaches",
    "declarer_takes_all",
    "declarer_takes_one",
    "new_table",
    "new_work",
    "solve_points",
    "solve_tricks",
]

# Objectives: what a search counts and which answer it looks for.
OBJ_POINTS = 0  # the declarer's final card points (exact value)
OBJ_ALL_TRICKS = 1  # the declarer takes every remaining trick (yes/no); the declarer's tricks (exact value)
OBJ_ONE_TRICK = 2  # the declarer takes at least one remaining trick (yes/no)
OBJ_NO_TRICK = 3  # the declarer takes none of the remaining tricks (yes/no): the Null objective

_ONE = np.uint32(1)


@kernel
def _context(state: np.ndarray, objective: int) -> int:
    """The search context of an objective in the game of ``state``: game type, declarer, value kind,
    and the early-end rules as the play kernels decide them (asked for a declarer's and a
    defender's trick)."""
    gt = state[GT]
    d = state[DECLARER]
    ctx = gt << GT_SHIFT | d << (GT_SHIFT + 3)
    if objective != OBJ_POINTS:
        ctx |= TRICK_MODE
    if objective == OBJ_NO_TRICK:
        ctx |= GOOD_FOR_DEFENDERS
    if _ends_early(state, d):
        ctx |= ENDS_ON_DECLARER
    if _ends_early(state, d + 1 if d < 2 else 0):
        ctx |= ENDS_ON_DEFENDERS
    return ctx


@kernel
def _start(state: np.ndarray, objective: int) -> tuple[Position, int]:
    """The root of a search (its :data:`Position`) and the largest value the rest of the game can give."""
    gt = state[GT]
    ctx = _context(state, objective)
    hands = np.uint32(state[HAND0]) | np.uint32(state[HAND0 + 1]) | np.uint32(state[HAND0 + 2])
    h0 = to_positions(gt, np.uint32(state[HAND0]))
    h1 = to_positions(gt, np.uint32(state[HAND0 + 1]))
    h2 = to_positions(gt, np.uint32(state[HAND0 + 2]))
    nin = state[N_IN_TRICK]
    t0 = TO_POS[gt, state[TRICK0]] if nin >= 1 else -1
    t1 = TO_POS[gt, state[TRICK0 + 1]] if nin == 2 else -1
    rest = card_points(hands)
    if objective == OBJ_POINTS:
        upper = rest
        for k in range(nin):
            upper += P_POINTS[gt, TO_POS[gt, state[TRICK0 + k]]]
    else:
        upper = 10 - state[TRICK_NO]
    return (ctx, h0, h1, h2, state[LEADER], nin, t0, t1, rest), upper


@kernel
def _search_at(tt: np.ndarray, work: np.ndarray, pos: Position, alpha: int, beta: int) -> int:
    """:func:`skatsim.engine.solver_search.search` from the position ``pos``."""
    ctx, h0, h1, h2, leader, nin, t0, t1, rest = pos
    return search(tt, work, ctx, h0, h1, h2, leader, nin, t0, t1, rest, alpha, beta)


@kernel
def _bisect(tt: np.ndarray, work: np.ndarray, pos: Position, upper: int, guess: int) -> int:
    """Exact value by null-window searches: the first at ``guess``, then bisecting between the bounds
    proved so far (a fail-soft result can move a bound past the tested value). Plain MTD(f) creeps by one
    point per search in a points game (a fail-high proves little more than the value tested); bisection
    needs about seven. The table keeps what each search proved, so the next one re-searches little."""
    lower = 0
    beta = min(max(guess, lower + 1), upper)
    root_bounds_reset(work, True)  # the root moves' bounds serve the later searches
    while lower < upper:
        g = _search_at(tt, work, pos, beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
        beta = (lower + upper + 1) // 2
    root_bounds_reset(work, False)
    return lower


@kernel
def _exact(state: np.ndarray, tt: np.ndarray, work: np.ndarray, objective: int) -> int:
    """Exact future value of an objective (card points or tricks the declarer still takes)."""
    if state[OVER]:
        return 0
    next_generation(work)
    pos, upper = _start(state, objective)
    guess = upper // 2 if objective == OBJ_POINTS else upper
    return _bisect(tt, work, pos, upper, guess)


@kernel
def _reaches(state: np.ndarray, tt: np.ndarray, work: np.ndarray, objective: int, target: int) -> bool:
    """One null-window search: does the objective's future value reach ``target``?"""
    if target <= 0:
        return True
    if state[OVER]:
        return False
    next_generation(work)
    pos, _ = _start(state, objective)
    return _search_at(tt, work, pos, target - 1, target) >= target


@kernel
def solve_points(state: np.ndarray, tt: np.ndarray, work: np.ndarray) -> int:
    """The declarer's final card points (skat and tricks so far included) when every seat plays
    perfectly with open hands; early ends as the play kernels rule them. ``state`` is a play state
    (:mod:`skatsim.engine.play`) of a declared game, at any point; it is not modified."""
    d = state[DECLARER]
    return state[POINTS0 + d] + card_points(np.uint32(state[SKAT])) + _exact(state, tt, work, OBJ_POINTS)


@kernel
def declarer_reaches(state: np.ndarray, tt: np.ndarray, work: np.ndarray, points: int) -> bool:
    """Whether the declarer ends with at least ``points`` card points (skat and tricks so far included)
    against any defence: one null-window search, far cheaper than :func:`solve_points` (``points`` 61:
    does he win; 90: Schneider)."""
    d = state[DECLARER]
    return _reaches(state, tt, work, OBJ_POINTS, points - state[POINTS0 + d] - card_points(np.uint32(state[SKAT])))


@kernel
def solve_tricks(state: np.ndarray, tt: np.ndarray, work: np.ndarray) -> int:
    """The declarer's final number of tricks when he plays for as many tricks as he can and the
    defenders for as few (tricks so far included)."""
    return state[TRICKS0 + state[DECLARER]] + _exact(state, tt, work, OBJ_ALL_TRICKS)


@kernel
def declarer_takes_all(state: np.ndarray, tt: np.ndarray, work: np.ndarray) -> bool:
    """Whether the declarer can take every remaining trick against any defence (one null-window
    search); true when none remains."""
    return _reaches(state, tt, work, OBJ_ALL_TRICKS, 10 - state[TRICK_NO])


@kernel
def declarer_takes_one(state: np.ndarray, tt: np.ndarray, work: np.ndarray) -> bool:
    """Whether the declarer can take at least one of the remaining tricks against any defence."""
    return _reaches(state, tt, work, OBJ_ONE_TRICK, 1)


@kernel
def declarer_avoids_tricks(state: np.ndarray, tt: np.ndarray, work: np.ndarray) -> bool:
    """Whether the declarer can leave every remaining trick to the defenders whatever they do: the
    Null objective (a Null is won when this holds and he has taken no trick so far)."""
    return _reaches(state, tt, work, OBJ_NO_TRICK, 10 - state[TRICK_NO])


@kernel
def _after(tt: np.ndarray, work: np.ndarray, pos: Position, c: int, alpha: int, beta: int) -> int:
    """Fail-soft value (same units as :func:`_search_at`) of the position ``pos`` after the seat to move plays ``c``."""
    ctx, h0, h1, h2, leader, nin, t0, t1, rest = pos
    gt = (ctx >> GT_SHIFT) & 7
    bit = _ONE << np.uint32(c)
    n0, n1, n2 = h0 & ~bit, h1 & ~bit, h2 & ~bit
    left = rest - P_POINTS[gt, c]
    if nin == 0:
        return search(tt, work, ctx, n0, n1, n2, leader, 1, c, -1, left, alpha, beta)
    if nin == 1:
        return search(tt, work, ctx, n0, n1, n2, leader, 2, t0, c, left, alpha, beta)
    winner, gain, ends = close_trick(ctx, leader, t0, t1, c)
    if ends or (n0 | n1 | n2) == 0:
        mover = leader + 2 if leader == 0 else leader - 1
        return gain + unplayed(ctx, n0 if mover == 0 else (n1 if mover == 1 else n2))
    return gain + search(tt, work, ctx, n0, n1, n2, winner, 0, -1, -1, left, alpha - gain, beta - gain)


@kernel
def best_moves(state: np.ndarray, tt: np.ndarray, work: np.ndarray, objective: int) -> np.uint32:
    """Mask (engine card numbering) of the legal cards of the seat to move that keep the best value of
    ``objective``: ``OBJ_POINTS`` the exact card points, ``OBJ_ALL_TRICKS`` / ``OBJ_ONE_TRICK`` /
    ``OBJ_NO_TRICK`` the yes/no answer of :func:`declarer_takes_all` / :func:`declarer_takes_one` /
    :func:`declarer_avoids_tricks`. Empty when the game is over."""
    if state[OVER]:
        return np.uint32(0)
    gt = state[GT]
    legal = np.uint32(legal_now(state))
    next_generation(work)
    pos, upper = _start(state, objective)
    maximise = to_move(state) == state[DECLARER]
    if objective == OBJ_POINTS:
        value = _bisect(tt, work, pos, upper, upper // 2)
        target = value if maximise else value + 1  # the child must reach the value / stay below value + 1
        keep_high = maximise
    else:
        target = 1 if objective == OBJ_ONE_TRICK else upper
        reached = target <= 0 or _search_at(tt, work, pos, target - 1, target) >= target
        keep_high = reached
    out = np.uint32(0)
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - _ONE
        c = TO_POS[gt, card]
        high = target <= 0 or _after(tt, work, pos, c, target - 1, target) >= target
        if high == keep_high:
            out |= _ONE << np.uint32(card)
    return out
