"""What a deciding seat knows, and the arrays that let the kernel draw worlds consistent with it.

:class:`Knowledge` is the deciding seat's view of a deal at one point: the cards it has seen
and where they are, the cards it has not (to be dealt into the *holes* of the other seats and
the skat), the suits other seats have shown void in, the bounds the auction puts on each
other seat's bidding ceiling, and the declaration it saw. :func:`world_arrays` turns it
into what :func:`skatsim.whatif.kernels.rollout_block` reads (``spec``, ``order``,
``allowed``, ``ways``); :func:`fill_counts` is the exact count of fillings the kernel draws
from (see :mod:`skatsim.whatif.kernels`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..engine import bidding
from ..errors import SkatsimError
from . import kernels as k

#: Worlds drawn at most per rollout before the consistent mode gives up on a rollout.
MAX_TRIES = 1_000_000
#: No bound on a seat's ceiling.
NO_BOUND = 1 << 20


@dataclass(frozen=True)
class Knowledge:
    """The deciding seat's view of a deal (cards as masks; seats 0 FH, 1 MH, 2 RH).

    ``hands[s]``: the cards known to be in seat ``s``'s dealt hand (for ``pool``: in its twelve
    cards); ``skat``: the cards known to be in the dealt skat. ``holes``: how many unseen cards
    seats ``seat_a``, ``seat_b`` and the skat (the declarer's discards for a pool) still hold;
    ``barred[s]``: cards seat ``s`` cannot hold among its unseen ones (voids shown).
    ``bounds[s]``: ``(lo, hi)`` on seat ``s``'s bidding ceiling implied by its bids, or ``None``
    (not checked); ``declaration``: ``(declarer, picked_up, game_type, ouvert, bid)`` to check
    the declarer's player against, or ``None``; ``game_type``: the game declared (-1 none yet).
    ``reach[s]``: with some non-zero, at least one checked seat's ceiling must reach its own (the
    auction went that far, :func:`reached_auction_reach`); 0 for a seat that cannot satisfy it.
    """

    decider: int
    hands: tuple[int, int, int]
    skat: int
    seat_a: int
    seat_b: int
    holes: tuple[int, int, int]
    barred: tuple[int, int, int] = (0, 0, 0)
    pool: int = -1
    bounds: tuple[tuple[int, int] | None, ...] = (None, None, None)
    declaration: tuple[int, int, int, int, int] | None = None
    game_type: int = -1
    reach: tuple[int, int, int] = (0, 0, 0)

    @property
    def unknown(self) -> int:
        """The cards the decider has not seen (in none of the known places)."""
        seen = self.skat
        for h in self.hands:
            seen |= h
        return 0xFFFFFFFF & ~seen


def fill_counts(allowed: np.ndarray, holes: tuple[int, int, int]) -> np.ndarray:
    """``ways[j, a, b]``: how many ways the unknown cards ``j ..`` (each allowed in the bins of its
    ``allowed`` bits: 1 A, 2 B, 4 S) fill ``a`` holes of A, ``b`` of B and the rest of S exactly.

    Counts reach at most 22! / (10! 10! 2!) (about 2.0e8), exact in ``float64``.
    """
    m = len(allowed)
    ha, hb, hs = holes
    ways = np.zeros((m + 1, ha + 1, hb + 1), dtype=np.float64)
    ways[m, 0, 0] = 1.0
    for j in range(m - 1, -1, -1):
        ok = int(allowed[j])
        for a in range(ha + 1):
            for b in range(hb + 1):
                s = m - j - a - b
                if s < 0 or s > hs:
                    continue
                total = 0.0
                if ok & k.BIN_A and a > 0:
                    total += ways[j + 1, a - 1, b]
                if ok & k.BIN_B and b > 0:
                    total += ways[j + 1, a, b - 1]
                if ok & k.BIN_S and s > 0:
                    total += ways[j + 1, a, b]
                ways[j, a, b] = total
    return ways


def fixed_arrays(hands: tuple[int, int, int], skat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's arrays for a fixed deal: every rollout plays these cards."""
    spec = np.zeros(k.N_SPEC, dtype=np.int64)
    spec[k.SP_MODE] = k.FIXED
    for seat in range(3):
        spec[k.SP_HAND0 + seat] = hands[seat]
    spec[k.SP_SKAT] = skat
    spec[k.SP_SEAT_A] = spec[k.SP_SEAT_B] = spec[k.SP_POOL] = spec[k.SP_DECL_SEAT] = -1
    empty = np.zeros(0, dtype=np.int64)
    return spec, empty, empty, np.ones((1, 1, 1), dtype=np.float64)


def world_arrays(
    knowledge: Knowledge, consistent: bool, max_tries: int = MAX_TRIES
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's ``spec``, ``order``, ``allowed`` and ``ways`` for drawing worlds the decider cannot
    tell from the real one: uniform over the fillings of the holes that respect the voids shown,
    and with ``consistent`` also on which the other seats' bots bid (and the declarer declared)
    as recorded. Raises :class:`SkatsimError` when no filling exists (the view contradicts itself)."""
    kn = knowledge
    bot_discards = consistent and kn.pool >= 0
    if bot_discards:
        # the declarer's discards are his player's choice for the game on the world's twelve cards
        # (checked in the kernel), so his unseen cards are one bin, barred only after the choice
        barred = list(kn.barred)
        pool_barred = barred[kn.pool]
        barred[kn.pool] = 0
        holes = (kn.holes[0] + kn.holes[2], kn.holes[1], 0) if kn.seat_a == kn.pool else kn.holes
        kn = replace(kn, barred=tuple(barred), holes=holes)  # type: ignore[arg-type]
    unknown = kn.unknown
    cards = [c for c in range(32) if unknown >> c & 1]
    if len(cards) != sum(kn.holes):
        raise SkatsimError(
            f"what-if: {len(cards)} unseen cards for {sum(kn.holes)} places (the deal's cards do not add up)"
        )
    allowed = np.zeros(len(cards), dtype=np.int64)
    for j, c in enumerate(cards):
        bins = k.BIN_S
        if kn.seat_a >= 0 and not kn.barred[kn.seat_a] >> c & 1:
            bins |= k.BIN_A
        if kn.seat_b >= 0 and not kn.barred[kn.seat_b] >> c & 1:
            bins |= k.BIN_B
        allowed[j] = bins
    # the most constrained cards first: fewer branches the draw can take late
    rank = np.argsort([bin(int(a)).count("1") for a in allowed], kind="stable")
    order = np.array(cards, dtype=np.int64)[rank]
    allowed = allowed[rank]
    ways = fill_counts(allowed, kn.holes)
    if ways[0, kn.holes[0], kn.holes[1]] <= 0:
        raise SkatsimError("what-if: no deal fits what the deciding seat has seen (its voids leave no place)")
    spec = np.zeros(k.N_SPEC, dtype=np.int64)
    spec[k.SP_MODE] = k.CONSISTENT if consistent else k.SAMPLE
    for seat in range(3):
        spec[k.SP_HAND0 + seat] = kn.hands[seat]
        spec[k.SP_LO0 + seat] = 0
        spec[k.SP_HI0 + seat] = NO_BOUND
        bound = kn.bounds[seat] if consistent and seat != kn.decider else None
        if bound is not None:
            spec[k.SP_CHECK0 + seat] = 1
            spec[k.SP_LO0 + seat], spec[k.SP_HI0 + seat] = bound
            spec[k.SP_REACH0 + seat] = kn.reach[seat]
    spec[k.SP_SKAT] = kn.skat
    spec[k.SP_SEAT_A] = kn.seat_a
    spec[k.SP_SEAT_B] = kn.seat_b
    spec[k.SP_HOLES_A], spec[k.SP_HOLES_B], spec[k.SP_HOLES_S] = kn.holes
    spec[k.SP_POOL] = kn.pool
    spec[k.SP_DECL_SEAT] = -1
    if consistent and kn.declaration is not None:
        seat, picked_up, gt, ouvert, bid = kn.declaration
        spec[k.SP_DECL_SEAT] = seat
        spec[k.SP_DECL_PICKUP] = picked_up
        spec[k.SP_DECL_GT] = gt
        spec[k.SP_DECL_OUVERT] = ouvert
        spec[k.SP_BID] = bid
    spec[k.SP_MAX_TRIES] = max_tries
    if bot_discards:
        spec[k.SP_POOL_BOT] = 1
        spec[k.SP_POOL_GT] = kn.game_type
        spec[k.SP_POOL_BARRED] = pool_barred
    return spec, order, allowed, ways


def bid_bounds(bids: tuple[tuple[int, int], ...]) -> list[tuple[int, int] | None]:
    """Per seat, ``(lo, hi)`` on the ceiling of a player who bids step by step up to it
    (:func:`skatsim.engine.bidding.bot_action`), implied by its recorded actions; ``None`` for a
    seat that never acted. A bid of ``v`` or a hold at ``v`` means a ceiling of at least ``v``; a
    pass when the next bid was ``v`` (or when holding ``v`` was asked) means one below ``v``. For
    such a player these bounds hold exactly when it would have acted as recorded; a person's jump
    bids are read as bids of their value."""
    state = np.zeros(bidding.N_FIELDS, dtype=np.int64)
    bidding.new_bidding(state)
    lo = [0, 0, 0]
    hi = [NO_BOUND, NO_BOUND, NO_BOUND]
    acted = [False, False, False]
    for seat, action in bids:
        if state[bidding.STAGE] == bidding.DONE:
            break
        acted[seat] = True
        answering = state[bidding.STAGE] != 2 and seat != state[bidding.BIDDER]
        if action > 0:
            lo[seat] = max(lo[seat], action)
        elif action == bidding.HOLD:
            lo[seat] = max(lo[seat], int(state[bidding.BID]))
        elif answering:
            hi[seat] = min(hi[seat], int(state[bidding.BID]) - 1)
        elif bidding.next_bid(int(state[bidding.BID])) > 0:
            hi[seat] = min(hi[seat], int(bidding.next_bid(int(state[bidding.BID]))) - 1)
        if bidding.bid_step(state, seat, action):
            break
    return [(lo[s], hi[s]) if acted[s] else None for s in range(3)]


def won_auction_bounds(seat: int, bid: int) -> list[tuple[int, int] | None]:
    """Per seat, ``(lo, hi)`` on the other seats' ceilings under which ``seat``, bidding step by step up
    to ``bid`` (:func:`skatsim.engine.bidding.bot_action`), wins the auction; ``None`` for ``seat``.
    Holding wins ties (RULES.md §2: the earlier seat keeps priority on equal values): a seat before
    ``seat`` would hold ``bid`` itself, so its ceiling is below ``bid``; a seat after it is held up to
    ``bid``, so its highest bid is at most ``bid``: its ceiling is below the next bid value (no bound
    above the last). What a hand with the rest random conditions its consistent worlds on when it
    is played at ``bid`` (:func:`skatsim.whatif.rollouts.from_hand`)."""
    above = int(bidding.next_bid(bid))
    bounds: list[tuple[int, int] | None] = []
    for other in range(3):
        if other == seat:
            bounds.append(None)
        elif other < seat:
            bounds.append((0, bid - 1))
        else:
            bounds.append((0, above - 1 if above > 0 else NO_BOUND))
    return bounds


def reached_auction_reach(seat: int, low: int) -> tuple[int, int, int]:
    """Per seat, the lowest ceiling with which another seat pushes ``seat`` (bidding step by step, as
    :func:`won_auction_bounds` lets it win) to play at ``low`` or above; 0 for ``seat``, and for all
    when ``low`` is the first bid (nobody needs to push). Holding wins ties (RULES.md §2): a seat after
    ``seat`` bids to it and is held, so the auction stops at that seat's highest bid value: its
    ceiling must reach ``low``; a seat before it holds, so ``seat`` bids the next value above what
    it held: its ceiling must reach the bid value below ``low``. With :func:`won_auction_bounds`, the
    deals on which ``seat``, bidding up to ``bid``, wins the auction at a bid from ``low`` to ``bid``
    are those in which some other seat's ceiling reaches its value here."""
    below = int(bidding.BID_VALUES[bidding.BID_VALUES < low][-1]) if low > int(bidding.BID_VALUES[0]) else 0
    if below == 0:
        return (0, 0, 0)
    reach = [0 if other == seat else (below if other < seat else low) for other in range(3)]
    return (reach[0], reach[1], reach[2])
