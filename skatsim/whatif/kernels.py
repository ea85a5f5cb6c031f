"""Compiled what-if rollouts: sample a world, play every alternative on it through the one deal flow.

A *rollout* is one deal whose cards are a *world* (the cards the deciding seat knows, plus a
sample of the ones it does not) and whose action record starts as a *template*: the
decisions taken before the point in question, the one decision forced there, and every
later slot ``EMPTY`` so the seated bots decide it (:func:`skatsim.engine.flow.play_deal`).
:func:`rollout_block` plays rollouts ``first .. first + n - 1`` of a query, each world with
every template (common random numbers: the alternatives meet the same worlds, and the bots'
random stream of rollout ``i`` is the same for each of them).

Rollout ``i`` is a pure function of ``(seed, i)`` and the query: its world comes from the
counter-based stream :data:`~skatsim.engine.deal.STREAM_WORLD` of index ``i``, its bots from
:data:`~skatsim.engine.deal.STREAM_ROLLOUT_BOTS`, so numbers never depend on how rollouts
are cut into blocks, threads or chunks.

**Sampling a world.** The unknown cards fill *holes* in three bins: ``A`` and ``B`` (the
cards two seats hold that the decider has not seen) and ``S`` (the skat, or the declarer's
discards when he picked it up and the decider is a defender). A card may be barred from a
bin: a seat that showed a void holds no card of that suit. Among all fillings that respect
the bars, one is drawn uniformly and exactly: ``ways[j, a, b]`` counts the fillings of the
holes left (``a`` in ``A``, ``b`` in ``B``, the rest in ``S``) by the unknown cards from the
``j``-th on, so card ``j`` goes to each bin with probability proportional to the fillings
that remain (a sequential draw with exact counts; the table is built once per query, by
:func:`skatsim.whatif.worlds.fill_counts`). When the declarer picked up the skat and the
decider is a defender, the declarer's twelve cards are one pool: the dealt skat is a
uniform two of them (any split is as likely under a uniform deal).

Then, in the *consistent* mode, a world is kept only if the bots would have done on it what
the record says (rejection): each other seat that bids by a ceiling
(:func:`skatsim.bots.seam.bid_limit`) has a ceiling inside the bounds its bids and passes
imply, and, seen from a defender, the declarer's player would have chosen hand or pickup
and the game as declared. A query may also ask that at least one of the checked seats' ceilings
reaches a value of its own (``SP_REACH0``): the auction went at least that far (a hand with the rest
random played at a bid the others pushed it to, :func:`skatsim.whatif.worlds.reached_auction_reach`).
"""

from __future__ import annotations

import numpy as np

from .._jit import allocating_kernel, highest_bit, kernel, lowest_bit, popcount
from ..bots import seam
from ..engine import bidding
from ..engine.deal import STREAM_ROLLOUT_BOTS, STREAM_WORLD, draw, stream_key
from ..engine.flow import play_deal
from ..engine.layout import LOG_BOCK, LOG_DISCARD, LOG_ROUND, LOG_WIDTH
from ..engine.lists import score_in_list
from ..engine.scoring import OUVERT
from ..engine.state import ERR_CODE, ERR_PHASE, new_state

#: How a query's worlds are drawn, as :func:`skatsim.whatif.worlds.world_arrays` makes them: ``spec``
#: (the ``SP_*`` fields), ``order`` (the unknown cards), ``allowed`` (the bins each may go to) and
#: ``ways`` (the filling counts).
WorldDraw = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]

# --- the query's scalar fields (``spec``) ---------------------------------------------------------
SP_MODE = 0  # FIXED, SAMPLE or CONSISTENT
SP_HAND0 = 1  # + seat: the cards known to be in the seat's dealt hand (its pool, for SP_POOL)
SP_SKAT = 4  # the cards known to be in the dealt skat
SP_SEAT_A = 5  # the seat whose holes are bin A (-1: none)
SP_SEAT_B = 6  # the seat whose holes are bin B (-1: none)
SP_HOLES_A = 7
SP_HOLES_B = 8
SP_HOLES_S = 9
SP_POOL = 10  # the declarer whose dealt hand and skat are one pool (bin S: his discards); -1 none
SP_LO0 = 11  # + seat: the lowest ceiling the seat's bids imply (checked when SP_CHECK0 + seat)
SP_HI0 = 14  # + seat: the highest
SP_CHECK0 = 17  # + seat: 1 when the seat's ceiling is checked
SP_DECL_SEAT = 20  # the declarer whose declaration is checked, -1 none
SP_DECL_PICKUP = 21  # 1 he picked up the skat, 0 hand
SP_DECL_GT = 22  # the game he declared
SP_DECL_OUVERT = 23  # 1 when declared ouvert
SP_BID = 24  # the final bid (what the declarer declared for)
SP_MAX_TRIES = 25  # worlds drawn at most per rollout in the consistent mode
SP_POOL_BOT = 26  # 1: the pool's discards are its player's for the game (bin A holds all its unseen cards)
SP_POOL_GT = 27  # the game the pool's declarer discarded for
SP_POOL_BARRED = 28  # the cards his final hand cannot hold among its unseen ones (voids shown)
SP_REACH0 = 29  # + seat: a ceiling that pushes the auction far enough (0: none; all 0: no such condition)
N_SPEC = 32

FIXED, SAMPLE, CONSISTENT = 0, 1, 2
BIN_A, BIN_B, BIN_S = 1, 2, 4

# --- the world (``world``): dealt hands, dealt skat, the declarer's discards (pool worlds) ---------
W_HAND0 = 0
W_SKAT = 3
W_DISCARD = 4
N_WORLD = 5

#: ``errors`` of a rollout whose world could not be drawn (no consistent world within SP_MAX_TRIES).
NO_WORLD = -1

_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@kernel
def _uniform(rng: np.ndarray) -> float:
    """A uniform float in [0, 1) from 53 random bits."""
    return float(draw(rng) >> np.uint64(11)) * _TO_UNIT


@kernel
def _bit(c: int) -> np.uint32:
    return np.uint32(1) << np.uint32(c)


@kernel
def _draw_fill(
    spec: np.ndarray, order: np.ndarray, allowed: np.ndarray, ways: np.ndarray, rng: np.ndarray, world: np.ndarray
) -> None:
    """Deal the unknown cards into bins A, B, S uniformly among the fillings that respect the bars, and
    build the world's dealt hands and skat from them (see the module docstring)."""
    a = spec[SP_HOLES_A]
    b = spec[SP_HOLES_B]
    m = order.shape[0]
    in_a = np.uint32(0)
    in_b = np.uint32(0)
    in_s = np.uint32(0)
    for j in range(m):
        c = order[j]
        ok = allowed[j]
        s = m - j - a - b
        wa = ways[j + 1, a - 1, b] if ok & BIN_A and a > 0 else 0.0
        wb = ways[j + 1, a, b - 1] if ok & BIN_B and b > 0 else 0.0
        ws = ways[j + 1, a, b] if ok & BIN_S and s > 0 else 0.0
        u = _uniform(rng) * (wa + wb + ws)
        if u < wa:
            in_a |= _bit(c)
            a -= 1
        elif u < wa + wb:
            in_b |= _bit(c)
            b -= 1
        else:
            in_s |= _bit(c)
    for seat in range(3):
        world[W_HAND0 + seat] = spec[SP_HAND0 + seat]
    world[W_SKAT] = spec[SP_SKAT]
    world[W_DISCARD] = 0
    if spec[SP_SEAT_A] >= 0:
        world[W_HAND0 + spec[SP_SEAT_A]] |= in_a
    if spec[SP_SEAT_B] >= 0:
        world[W_HAND0 + spec[SP_SEAT_B]] |= in_b
    pool = spec[SP_POOL]
    if pool < 0:
        world[W_SKAT] |= in_s
        return
    # the declarer's twelve cards: which two were the dealt skat is a uniform pair of them
    twelve = np.uint32(world[W_HAND0 + pool]) | in_s
    world[W_DISCARD] = in_s
    skat = np.uint32(0)
    for _ in range(2):
        n = popcount(twelve & ~skat)
        pick = np.int64(_uniform(rng) * n)
        rest = twelve & ~skat
        for _skip in range(pick):
            rest &= rest - np.uint32(1)
        skat |= _bit(lowest_bit(rest))
    world[W_SKAT] = skat
    world[W_HAND0 + pool] = twelve & ~skat


@kernel
def _set_world(st: np.void, world: np.ndarray) -> None:
    for seat in range(3):
        st.hands[seat] = np.uint32(world[W_HAND0 + seat])
    st.skat[0] = np.uint32(world[W_SKAT])


@kernel
def _bids_as_recorded(st: np.void, spec: np.ndarray) -> bool:
    """Whether every checked seat's ceiling on its dealt hand lies within the bounds its bids imply and,
    when some seat has a reach (``SP_REACH0``), at least one of them reaches it (a seat that does not bid
    by a ceiling counts as reaching)."""
    asked = False
    reached = False
    for seat in range(3):
        if spec[SP_CHECK0 + seat]:
            limit = seam.bid_limit(st, seat)
            if limit >= 0 and (limit < spec[SP_LO0 + seat] or limit > spec[SP_HI0 + seat]):
                return False
            reach = spec[SP_REACH0 + seat]
            if reach > 0:
                asked = True
                if limit < 0 or limit >= reach:
                    reached = True
    return reached or not asked


@kernel
def _declares_as_recorded(st: np.void, spec: np.ndarray, discards: np.uint32) -> bool:
    """Whether the declarer's player, holding the world's cards, would have played hand or picked up
    as recorded and declared the recorded game (for a pickup: with the world's discards). Checked
    only for a player that bids by a ceiling (one that decides by its own rules, not at random)."""
    d = spec[SP_DECL_SEAT]
    if seam.bid_limit(st, d) < 0:
        return True
    bidding.new_bidding(st.bidding)
    st.bidding[bidding.BID] = spec[SP_BID]
    st.bidding[bidding.DECLARER] = d
    picked = seam.pickup(st, d)
    if picked != spec[SP_DECL_PICKUP]:
        return False
    dealt = st.hands[d]
    if picked == 1:
        st.hands[d] = (dealt | st.skat[0]) & ~discards
        gt, flags = seam.declare(st, d, True, discards)
        st.hands[d] = dealt
    else:
        gt, flags = seam.declare(st, d, False, st.skat[0])
    return gt == spec[SP_DECL_GT] and ((flags & OUVERT) != 0) == (spec[SP_DECL_OUVERT] == 1)


@kernel
def _discards_as_seen(st: np.void, spec: np.ndarray, world: np.ndarray) -> bool:
    """The pool's declarer's player puts away two of his twelve cards for his game: neither may be a
    card he has been seen to hold after the pickup (played, or shown open), and the ten he keeps
    must fit the voids he showed. Sets the world's discards."""
    d = spec[SP_POOL]
    dealt = st.hands[d]
    twelve = dealt | st.skat[0]
    st.hands[d] = twelve
    chosen = seam.discard_for(st, d, spec[SP_POOL_GT])
    st.hands[d] = dealt
    if chosen == seam.NONE:
        return True
    discards = np.uint32(chosen)
    seen = np.uint32(spec[SP_HAND0 + d])
    if discards & seen or twelve & ~discards & ~seen & np.uint32(spec[SP_POOL_BARRED]):
        return False
    world[W_DISCARD] = discards
    return True


@kernel
def sample_world(
    st: np.void,
    seed: np.uint64,
    index: np.uint64,
    draw: WorldDraw,
    world: np.ndarray,
    rng: np.ndarray,
) -> int:
    """Draw the world of rollout ``index`` into ``world``: returns how many worlds were drawn until
    one was kept (1 outside the consistent mode), 0 when none was within ``SP_MAX_TRIES``."""
    spec, order, allowed, ways = draw
    mode = spec[SP_MODE]
    if mode == FIXED:
        for seat in range(3):
            world[W_HAND0 + seat] = spec[SP_HAND0 + seat]
        world[W_SKAT] = spec[SP_SKAT]
        world[W_DISCARD] = 0
        return 1
    rng[0] = stream_key(seed, index, STREAM_WORLD)
    rng[1] = 0
    tries = 0
    while tries < spec[SP_MAX_TRIES]:
        tries += 1
        _draw_fill(spec, order, allowed, ways, rng, world)
        if mode != CONSISTENT:
            return tries
        _set_world(st, world)
        seam.new_deal(st)
        if spec[SP_POOL] >= 0 and spec[SP_POOL_BOT] and not _discards_as_seen(st, spec, world):
            continue
        if not _bids_as_recorded(st, spec):
            continue
        if spec[SP_DECL_SEAT] >= 0 and not _declares_as_recorded(st, spec, np.uint32(world[W_DISCARD])):
            continue
        return tries
    return 0


@kernel
def _rollouts(
    buf: np.ndarray,
    seed: np.uint64,
    first: int,
    draw: WorldDraw,
    templates: np.ndarray,
    ceilings: np.ndarray,
    kinds: np.ndarray,
    bots: np.ndarray,
    rows: np.ndarray,
    errors: np.ndarray,
    tries: np.ndarray,
    log: np.ndarray,
    world: np.ndarray,
    counted: np.ndarray,
    rng: np.ndarray,
) -> None:
    """:func:`rollout_block` in the deal state ``buf[0]``, with the caller's scratch arrays (an action
    record, the world, the points a deal adds in a list, the world's random stream)."""
    st = buf[0]
    for s in range(3):
        st.kinds[s] = kinds[s]
        for j in range(bots.shape[1]):
            st.bots[s, j] = bots[s, j]
    pool = draw[0][SP_POOL]
    for i in range(rows.shape[0]):
        index = np.uint64(first + i)
        st.ceiling[:] = -1
        found = sample_world(st, seed, index, draw, world, rng)
        tries[i] = found
        for k in range(templates.shape[0]):
            row = rows[i, k]
            if found == 0:
                row[:] = 0
                errors[i, k] = NO_WORLD
                continue
            for j in range(LOG_WIDTH):
                log[j] = templates[k, j]
            if pool >= 0:
                discards = np.uint32(world[W_DISCARD])
                log[LOG_DISCARD] = lowest_bit(discards)
                log[LOG_DISCARD + 1] = highest_bit(discards)
            _set_world(st, world)
            for s in range(3):
                st.ceiling[s] = ceilings[k, s]
            st.rng[0] = stream_key(seed, index, STREAM_ROLLOUT_BOTS)
            st.rng[1] = 0
            play_deal(st, index, row, log, log[LOG_ROUND])
            if st.error[ERR_CODE] != 0:
                errors[i, k] = st.error[ERR_PHASE] * 100 + st.error[ERR_CODE]
            else:
                errors[i, k] = 0
                score_in_list(row, log[LOG_BOCK], st.params, counted)
        st.ceiling[:] = -1


@allocating_kernel
def rollout_block(
    seed: np.uint64,
    first: int,
    params: np.ndarray,
    kinds: np.ndarray,
    bots: np.ndarray,
    draw: WorldDraw,
    templates: np.ndarray,
    ceilings: np.ndarray,
    rows: np.ndarray,
    errors: np.ndarray,
    tries: np.ndarray,
) -> None:
    """Play rollouts ``first .. first + len(rows) - 1`` of a query, every template on each world.

    ``params``: the variant; ``kinds``, ``bots``: the bot at each seat (kind codes and prepared
    parameter rows, :func:`skatsim.bots.seam.prepare`); ``draw``: how worlds are drawn
    (:data:`WorldDraw`); ``templates``: ``(K, LOG_WIDTH)`` action records, one per alternative; ``ceilings``:
    ``(K, 3)`` bid ceilings forced per alternative and seat (-1: none). Fills ``rows``
    ``(n, K, N_COLUMNS)`` (engine rows, scored in a list of one deal: Bock multiplier and list points
    of the template's context), ``errors`` ``(n, K)`` (0; ``phase * 100 + code`` of a forced decision
    the rules refused; :data:`NO_WORLD`) and ``tries`` ``(n,)`` (worlds drawn per rollout, 0: none kept).
    """
    _rollouts(
        new_state(params),
        seed,
        first,
        draw,
        templates,
        ceilings,
        kinds,
        bots,
        rows,
        errors,
        tries,
        np.empty(LOG_WIDTH, dtype=np.int16),
        np.zeros(N_WORLD, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(2, dtype=np.uint64),
    )


@kernel
def _bid_limit(buf: np.ndarray, kinds: np.ndarray, bots: np.ndarray, seat: int, hand: np.uint32) -> int:
    st = buf[0]
    for s in range(3):
        st.kinds[s] = kinds[s]
        for j in range(bots.shape[1]):
            st.bots[s, j] = bots[s, j]
    st.hands[seat] = hand
    seam.new_deal(st)
    return seam.bid_limit(st, seat)


@allocating_kernel
def bid_limit_of(params: np.ndarray, kinds: np.ndarray, bots: np.ndarray, seat: int, hand: np.uint32) -> int:
    """How high the bot at ``seat`` would bid with the ten cards ``hand`` (-1: it does not bid by a ceiling)."""
    return _bid_limit(new_state(params), kinds, bots, seat, hand)


@kernel
def _bid_limits(buf: np.ndarray, kinds: np.ndarray, bots: np.ndarray, hands: np.ndarray, out: np.ndarray) -> None:
    st = buf[0]
    for s in range(3):
        st.kinds[s] = kinds[s]
        for j in range(bots.shape[1]):
            st.bots[s, j] = bots[s, j]
    for i in range(hands.shape[0]):
        seam.new_deal(st)
        for s in range(3):
            st.hands[s] = hands[i, s]
        for s in range(3):
            out[i, s] = seam.bid_limit(st, s) if hands[i, s] else -1


@allocating_kernel
def bid_limits(params: np.ndarray, kinds: np.ndarray, bots: np.ndarray, hands: np.ndarray, out: np.ndarray) -> None:
    """Per row of ``hands`` (``(n, 3)`` dealt hands of FH, MH, RH as masks): how high each seat's bot would
    bid (``out``, -1 where the hand is unknown or the bot does not bid by a ceiling)."""
    _bid_limits(new_state(params), kinds, bots, hands, out)
