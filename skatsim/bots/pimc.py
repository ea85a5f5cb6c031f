"""The pimc bot's card play: perfect-information Monte Carlo over the open-hand solver.

At each card of a declared game the seat to move samples ``worlds`` deals of the cards it cannot
see that agree with everything it has seen: its own hand, the cards played, the voids the others
have shown (``DealState.voids``), the declarer's skat when it is the declarer who picked it up, an
ouvert declarer's open hand, and the number of cards each seat still holds. Every world is then
solved with all hands open (:mod:`skatsim.engine.solver`) and the card that wins the game in the
most worlds is played: "wins" is the game's own yes/no question, one null-window search each —
the declarer reaches 61 (90 with Schneider announced), takes every trick (Schwarz announced), or
takes no trick (Null); for a defender, the declarer does not. Equivalent cards (next to each other
in trick order once the cards between them are gone, worth the same points) are tried once.

Cost is cut without changing the choice. In each world one search of the root (can any card win
there?) tries the heuristic's card (:func:`skatsim.bots.cardplay.choose_card`) first, and every card
that search settles on the way counts (the solver reports the root moves it proved to reach or to miss
the target: the first card that wins, every card refuted before it; in a world no card wins, all of
them); the heuristic's card is searched alone only where the root search did not settle it. When the
heuristic's card wins wherever any card does (or nowhere), nothing else is searched. The other cards
are then searched, the one with the most worlds already won first, each only while it can still take
over (more worlds won than the best so far; as many, when it is the lower card and the best is not the
heuristic's), so the result is the card with the most worlds won, ties to the heuristic's card, then
the lowest card, whatever the order. A Ramsch has no
declarer to solve for: the heuristic plays it.

Randomness comes from the deal's bot stream (``DealState.rng``, counter-based), so a game stays a
pure function of (seed, index, variant, bots). The solver's table, its stack and the worlds live in
the deal state (``search_tt``, ``search_work``, ``search``): kernels allocate nothing.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel, lowest_bit, popcount
from ..engine.deal import below
from ..engine.gametypes import GROUP, NULL
from ..engine.play import (
    DECLARER,
    FLAGS,
    GT,
    HAND0,
    N_FIELDS,
    N_IN_TRICK,
    PLAYED,
    SKAT,
    TRICK0,
    TRICKS0,
    apply_card,
    hand_of,
    legal_now,
)
from ..engine.scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from ..engine.solver import declarer_avoids_tricks, declarer_reaches, declarer_takes_all
from ..engine.solver_search import ROOT_FIRST, ROOT_HIGH, ROOT_LOW
from ..engine.solver_tables import FROM_POS, P_GROUP, P_POINTS, TO_POS, to_positions
from ..engine.state import DealState
from . import MAX_WORLDS, N_SEARCH
from .cardplay import choose_card as heuristic_card

# The ``search`` scratch of a deal state: a world's play state, a child's, then per world the
# hidden cards as dealt (first other seat, second other seat, skat) and whether the mover can win it.
_WORLD = 0
_CHILD = 32
_DEALS = 64
_WINNABLE = _DEALS + 3 * MAX_WORLDS
assert _WINNABLE + MAX_WORLDS <= N_SEARCH
_ONE = np.uint32(1)
_ALL = np.uint32(0xFFFFFFFF)


@kernel
def _nth(mask: np.uint32, n: int) -> int:
    """The ``n``-th lowest card of a mask."""
    for _ in range(n):
        mask &= mask - _ONE
    return lowest_bit(mask)


@kernel
def _group_cards(gt: int, voids: int) -> np.uint32:
    """The cards of the groups in ``voids`` (bit g: group g, as ``DealState.voids`` keeps them)."""
    out = np.uint32(0)
    for c in range(32):
        if voids >> GROUP[gt, c] & 1:
            out |= _ONE << np.uint32(c)
    return out


@kernel
def deal_hidden(
    rng: np.ndarray,
    hidden: np.uint32,
    allow_a: np.uint32,
    allow_b: np.uint32,
    allow_s: np.uint32,
    need_a: int,
    need_b: int,
    need_s: int,
    out: np.ndarray,
) -> bool:
    """Deal the ``hidden`` cards to two seats and the skat (``out[0..2]``, masks): ``need_*`` cards
    each, a card only where it is allowed (a seat's shown voids exclude a group). The most
    constrained cards are placed first, each to an owner chosen with probability proportional to
    the room it has left (without constraints this is a uniform deal). Retried when a placement runs
    into a dead end; False when 64 tries all did (the constraints contradict each other)."""
    for _ in range(64):
        a = np.uint32(0)
        b = np.uint32(0)
        s = np.uint32(0)
        ra, rb, rs = need_a, need_b, need_s
        ok = True
        for owners in range(1, 4):
            m = np.uint32(0)
            rest = hidden
            while rest:
                c = lowest_bit(rest)
                rest &= rest - _ONE
                bit = _ONE << np.uint32(c)
                n = (1 if allow_a & bit else 0) + (1 if allow_b & bit else 0) + (1 if allow_s & bit else 0)
                if n == owners or (owners == 1 and n == 0):
                    m |= bit
            while m and ok:
                c = _nth(m, below(rng, popcount(m)))
                bit = _ONE << np.uint32(c)
                m &= ~bit
                wa = ra if allow_a & bit else 0
                wb = rb if allow_b & bit else 0
                ws = rs if allow_s & bit else 0
                if wa + wb + ws == 0:
                    ok = False
                    break
                r = below(rng, wa + wb + ws)
                if r < wa:
                    a |= bit
                    ra -= 1
                elif r < wa + wb:
                    b |= bit
                    rb -= 1
                else:
                    s |= bit
                    rs -= 1
            if not ok:
                break
        if ok and ra == 0 and rb == 0 and rs == 0:
            out[0] = a
            out[1] = b
            out[2] = s
            return True
    return False


@kernel
def declarer_wins(state: np.ndarray, tt: np.ndarray, work: np.ndarray) -> bool:
    """Whether the declarer wins the game's yes/no question from ``state`` with open hands."""
    flags = state[FLAGS]
    if state[GT] == NULL:
        return state[TRICKS0 + state[DECLARER]] == 0 and declarer_avoids_tricks(state, tt, work)
    if flags & SCHWARZ_ANNOUNCED:
        return declarer_takes_all(state, tt, work)
    return declarer_reaches(state, tt, work, 90 if flags & SCHNEIDER_ANNOUNCED else 61)


@kernel
def _representative(gt: int, p: int, mine: np.uint32, gone: np.uint32, tricks_only: bool) -> int:
    """The lowest position of the class of cards equivalent to position ``p`` for the seat holding
    ``mine`` (positions): walking down its group over cards already gone, the next card is the
    mover's own and (unless only tricks count) worth the same points."""
    rep = p
    q = p - 1
    while q >= 0 and P_GROUP[gt, q] == P_GROUP[gt, p]:
        if gone >> np.uint32(q) & _ONE:
            q -= 1
            continue
        if mine >> np.uint32(q) & _ONE and (tricks_only or P_POINTS[gt, q] == P_POINTS[gt, p]):
            rep = q
            q -= 1
            continue
        break
    return rep


@kernel
def _set_world(st: DealState, w: int, seat: int, dst: int) -> None:
    """Write world ``w``'s play state into the scratch at ``dst``: the real state with the hidden
    cards as that world deals them."""
    state = st.play
    search = st.search
    for k in range(N_FIELDS):
        search[dst + k] = state[k]
    a = seat + 1 if seat < 2 else 0
    b = a + 1 if a < 2 else 0
    base = _DEALS + 3 * w
    # an empty deal is a seat (or skat) the mover sees: it keeps its real cards
    if search[base] != 0:
        search[dst + HAND0 + a] = search[base]
    if search[base + 1] != 0:
        search[dst + HAND0 + b] = search[base + 1]
    if search[base + 2] != 0:
        search[dst + SKAT] = search[base + 2]


#: A world's record in ``search[_WINNABLE + w]``: bit i set when candidate i (the i-th lowest card of
#: the candidates) is known to win there for the mover, bit 16 + i when it is known to lose, bit 32 when
#: some card wins there (a world no card wins has every candidate's lose bit).
_LOSE_BIT = 1 << 16
_WINNABLE_BIT = 1 << 32


@kernel
def _index(candidates: np.uint32, c: int) -> int:
    """The index of candidate card ``c`` among the candidates (lowest card first)."""
    return popcount(candidates & ((_ONE << np.uint32(c)) - _ONE))


@kernel
def settled_record(work: np.ndarray, gt: int, candidates: np.uint32, is_declarer: bool, win: bool) -> int:
    """A world's record (see :data:`_LOSE_BIT`) from the root search just made there: whether the mover
    can win it, and the candidates whose outcome that search proved on the way (the solver's
    ``ROOT_HIGH`` / ``ROOT_LOW``: the root moves proven to reach / to miss the declarer's target). In a
    world no card wins, every candidate loses."""
    high = np.uint32(work[ROOT_HIGH])
    low = np.uint32(work[ROOT_LOW])
    wins = high if is_declarer else low
    loses = low if is_declarer else high
    rec = _WINNABLE_BIT if win else 0
    m = candidates
    i = 0
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        p = np.uint32(TO_POS[gt, c])
        if not win or (loses >> p) & _ONE:
            rec |= _LOSE_BIT << i
        elif (wins >> p) & _ONE:
            rec |= 1 << i
        i += 1
    return rec


@kernel
def card_classes(state: np.ndarray, seat: int, legal: np.uint32, card: int) -> tuple[np.uint32, int]:
    """One legal card per class of equivalent cards (its lowest position stands for it: the search treats
    the class as one move), and the card standing for ``card``'s class."""
    gt = state[GT]
    tricks_only = gt == NULL or (state[FLAGS] & SCHWARZ_ANNOUNCED) != 0
    in_trick = np.uint32(0)
    for k in range(state[N_IN_TRICK]):
        in_trick |= _ONE << np.uint32(state[TRICK0 + k])
    gone = np.uint32(state[PLAYED]) & ~in_trick
    pmine = to_positions(gt, hand_of(state, seat))
    pgone = to_positions(gt, gone)
    classes = np.uint32(0)
    rep_of_card = -1
    m = to_positions(gt, legal)
    while m:
        p = lowest_bit(m)
        m &= m - _ONE
        rep = _representative(gt, p, pmine, pgone, tricks_only)
        if rep == p:
            classes |= _ONE << np.uint32(FROM_POS[gt, p])
        if FROM_POS[gt, p] == card:
            rep_of_card = FROM_POS[gt, rep]
    return classes, rep_of_card


@kernel
def world_constraints(
    state: np.ndarray, seat: int, voids: np.ndarray
) -> tuple[np.uint32, np.uint32, np.uint32, np.uint32, np.uint32, np.uint32, int, int, int]:
    """What ``seat`` knows of the cards it cannot see, for :func:`deal_world`: the hidden cards; where
    each may lie (the next seat, the one after, the skat: a shown void excludes its group, an open hand
    and a skat the seat has seen take none); where, the voids left aside; and how many each holds. The
    seat knows its hand, the cards played, its skat (declarer after a pickup), an open hand."""
    d = state[DECLARER]
    flags = state[FLAGS]
    a = seat + 1 if seat < 2 else 0
    b = a + 1 if a < 2 else 0
    known = hand_of(state, seat) | np.uint32(state[PLAYED])
    skat_hidden = seat != d or (flags & HAND) != 0
    if not skat_hidden:
        known |= np.uint32(state[SKAT])
    open_seat = -1
    if seat != d and flags & OUVERT:
        open_seat = d
        known |= hand_of(state, d)
    free_a = _ALL if open_seat != a else np.uint32(0)
    free_b = _ALL if open_seat != b else np.uint32(0)
    allow_a = free_a & ~_group_cards(state[GT], voids[a])
    allow_b = free_b & ~_group_cards(state[GT], voids[b])
    allow_s = _ALL if skat_hidden else np.uint32(0)
    need_a = 0 if open_seat == a else popcount(hand_of(state, a))
    need_b = 0 if open_seat == b else popcount(hand_of(state, b))
    need_s = 2 if skat_hidden else 0
    return _ALL & ~known, allow_a, allow_b, allow_s, free_a, free_b, need_a, need_b, need_s


@kernel
def deal_world(
    rng: np.ndarray,
    known: tuple[np.uint32, np.uint32, np.uint32, np.uint32, np.uint32, np.uint32, int, int, int],
    out: np.ndarray,
) -> None:
    """Deal the hidden cards of :func:`world_constraints` ``known`` into ``out`` (the next seat, the one
    after, the skat), ignoring the shown voids where they contradict each other (never in a real game)."""
    hidden, allow_a, allow_b, allow_s, free_a, free_b, need_a, need_b, need_s = known
    if not deal_hidden(rng, hidden, allow_a, allow_b, allow_s, need_a, need_b, need_s, out):
        deal_hidden(rng, hidden, free_a, free_b, allow_s, need_a, need_b, need_s, out)


@kernel
def choose_card(st: DealState, seat: int, worlds: int) -> int:
    """The pimc bot's card for ``seat`` (the seat to move) in a declared game."""
    state = st.play
    legal = legal_now(state)
    if popcount(legal) == 1:
        return lowest_bit(legal)
    fallback = heuristic_card(state, seat, st.voids, False)
    d = state[DECLARER]
    if d < 0:
        return fallback
    gt = state[GT]
    candidates, fb_rep = card_classes(state, seat, legal, fallback)
    if popcount(candidates) == 1:
        return fallback
    known = world_constraints(state, seat, st.voids)
    search = st.search
    tt = st.search_tt
    work = st.search_work
    is_declarer = seat == d
    n_worlds = min(max(worlds, 1), MAX_WORLDS)
    fb_index = _index(candidates, fb_rep)
    # Per world one search of the root (can any card win there?) with the heuristic's card tried first;
    # every root card it settles on the way is kept (see settled_record), the heuristic's card searched alone
    # only where the root search did not settle it.
    winnable = 0
    best = 0
    for w in range(n_worlds):
        base = _DEALS + 3 * w
        deal_world(st.rng, known, search[base : base + 3])
        _set_world(st, w, seat, _WORLD)
        work[ROOT_FIRST] = TO_POS[gt, fb_rep] + 1
        work[ROOT_HIGH] = 0
        work[ROOT_LOW] = 0
        win = declarer_wins(search[_WORLD : _WORLD + N_FIELDS], tt, work) == is_declarer
        work[ROOT_FIRST] = 0
        rec = settled_record(work, gt, candidates, is_declarer, win)
        if win and (rec >> fb_index) & _LOSE_BIT == 0:
            _set_world(st, w, seat, _CHILD)
            child = search[_CHILD : _CHILD + N_FIELDS]
            apply_card(child, seat, fb_rep)
            if declarer_wins(child, tt, work) == is_declarer:
                rec |= 1 << fb_index
            else:
                rec |= _LOSE_BIT << fb_index
        search[_WINNABLE + w] = rec
        if win:
            winnable += 1
            if rec >> fb_index & 1:
                best += 1
    if best == winnable:  # the heuristic's card wins wherever any card does (or nowhere is winnable)
        return fallback
    # The other candidates, the one with the most worlds already won first. The choice is the card with
    # the most worlds won, ties to the heuristic's card, then to the lowest card, whatever the order they
    # are searched in: a card is searched only while it can still take over by that rule.
    best_card = fallback
    todo = candidates & ~(_ONE << np.uint32(fb_rep))
    while todo:
        c = -1
        most = -1
        m = todo
        while m:
            x = lowest_bit(m)
            m &= m - _ONE
            i = _index(candidates, x)
            known = 0
            for w in range(n_worlds):
                known += search[_WINNABLE + w] >> i & 1
            if known > most:
                most = known
                c = x
        todo &= ~(_ONE << np.uint32(c))
        i = _index(candidates, c)
        need = best + 1 if best_card == fallback or c > best_card else best
        hits = 0
        misses = 0
        for w in range(n_worlds):
            rec = search[_WINNABLE + w]
            if rec & _WINNABLE_BIT == 0:
                continue
            if rec >> i & 1:
                hits += 1
            elif rec >> i & _LOSE_BIT:
                misses += 1
        for w in range(n_worlds):
            if winnable - misses < need:
                break
            rec = search[_WINNABLE + w]
            if rec & _WINNABLE_BIT == 0 or (rec >> i) & (1 | _LOSE_BIT) != 0:
                continue
            _set_world(st, w, seat, _CHILD)
            child = search[_CHILD : _CHILD + N_FIELDS]
            apply_card(child, seat, c)
            if declarer_wins(child, tt, work) == is_declarer:
                hits += 1
            else:
                misses += 1
        if winnable - misses >= need and hits >= need:
            best = hits
            best_card = c
    return best_card
