"""The open-hand solver's rules and static values, over card positions (:mod:`skatsim.engine.solver_tables`).

The search context ``ctx`` (a small int, part of every table key) says what is counted and how the game
may end. Here: closing a trick, the cards a seat may play, the last two tricks evaluated without
search, and the bounds that stop a search early (points a side is sure to take).
"""

from __future__ import annotations

import numpy as np

from .._jit import highest_bit, inlined_kernel, kernel, lowest_bit, popcount
from .cards import N_CARDS
from .gametypes import TRUMP_GROUP
from .solver_tables import P_GROUP, P_GROUP_MASK, P_POINTS, cheapest, cheapest_cards, points_of

# Bits of the search context ``ctx``; the context is part of every table key.
TRICK_MODE = 1  # the value counts "good" tricks (1 each) instead of the declarer's card points
ENDS_ON_DECLARER = 2  # the game ends when the declarer takes a trick (Null)
ENDS_ON_DEFENDERS = 4  # the game ends when a defender takes a trick (Schwarz announced)
GOOD_FOR_DEFENDERS = 8  # trick mode: a "good" trick is one the declarer does NOT take (Null objective)
GT_SHIFT = 4  # bits 4..6: game type; bits 7..8: declarer seat
HINT = 512  # a table entry holding only a best lead, for every position of one trick structure

_ONE = np.uint32(1)
_INF = 1 << 20


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
def seat_to_move(leader: int, nin: int) -> int:
    """The seat to move when ``leader`` led and ``nin`` cards of the trick are played."""
    seat = leader + nin
    return seat - 3 if seat >= 3 else seat


@kernel
def seat_hand(h0: np.uint32, h1: np.uint32, h2: np.uint32, seat: int) -> np.uint32:
    """The hand of a seat."""
    return h0 if seat == 0 else (h1 if seat == 1 else h2)


@kernel
def beats(gt: int, top: int, c: int) -> bool:
    """Whether card ``c`` takes the trick from ``top``, the card winning it so far (which is of the led
    group or a trump)."""
    return c > top and (P_GROUP_MASK[gt, P_GROUP[gt, top]] | P_GROUP_MASK[gt, TRUMP_GROUP]) >> np.uint32(c) & _ONE != 0


@kernel
def can_beat(gt: int, hand: np.uint32, led_group: int, top: int) -> bool:
    """Whether ``hand`` holds a legal card (in a trick of ``led_group``) that beats ``top``."""
    follow = hand & P_GROUP_MASK[gt, led_group]
    playable = follow if follow else hand
    higher = ~((_ONE << np.uint32(top)) | ((_ONE << np.uint32(top)) - _ONE))
    return playable & (P_GROUP_MASK[gt, P_GROUP[gt, top]] | P_GROUP_MASK[gt, TRUMP_GROUP]) & higher != 0


@kernel
def above(c: int) -> np.uint32:
    """The positions above position ``c``."""
    return ~((_ONE << np.uint32(c)) | ((_ONE << np.uint32(c)) - _ONE))


@kernel
def legal(gt: int, hand: np.uint32, t0: int) -> np.uint32:
    """Cards of ``hand`` that may follow ``t0`` (any card when leading: ``t0 < 0``)."""
    if t0 < 0:
        return hand
    follow = hand & P_GROUP_MASK[gt, P_GROUP[gt, t0]]
    return follow if follow else hand


@kernel
def master_trumps(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32) -> tuple[np.uint32, np.uint32]:
    """The declarer's trumps above every trump of the defenders, and the defenders' trumps above every trump
    of his (``h0..h2``: the cards still to be played, with those of the current trick). Such a trump wins
    the trick it is played in for its side, however it is played: no card beats a trump but a higher one."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    trumps = P_GROUP_MASK[gt, TRUMP_GROUP]
    mine = seat_hand(h0, h1, h2, d) & trumps
    theirs = (h0 | h1 | h2) & trumps & ~mine
    if mine and theirs:
        return mine & above(highest_bit(theirs)), theirs & above(highest_bit(mine))
    return mine, theirs


@kernel
def declarer_winners(gt: int, dh: np.uint32, o1: np.uint32, o2: np.uint32) -> np.uint32:
    """Cards of the declarer (``dh``) that each take a trick whoever leads, when the defenders (``o1``,
    ``o2``) hold no trump and no early end can stop the game (0 when no such plan is sure): his trumps,
    his plain cards above every defender's card of their suit (masters), and his other cards of a suit
    whose masters are at least as many as either defender's cards of it (drawn whole).

    His plan: until he first takes a trick, when a suit is led in which he holds one of these cards he
    plays a master of it (it wins: nobody can ruff); void in the suit led, he ruffs when he holds a
    trump (it wins), else discards a card that is not one of these; otherwise he follows with another
    card. Once he takes a trick he is on lead and cashes the rest: trumps, then each suit's masters, then
    the cards of the suits they drew (the defenders then hold none of the suit). Before that first
    trick he plays none of the counted cards but the one that takes it, so all of them win. Without a
    trump he must not run out of other cards before that trick: only the defenders' leads of suits in
    which he holds no master can delay it, at most as many as they hold cards of those suits (each such
    lead uses one), and each costs him one other card; when they hold more, nothing is counted. (When the
    defenders hold trumps, :func:`declarer_sure_points` says what of this still holds.)"""
    trumps = P_GROUP_MASK[gt, TRUMP_GROUP]
    out = dh & trumps
    opp = o1 | o2
    delay = 0
    for g in range(TRUMP_GROUP):
        gm = P_GROUP_MASK[gt, g]
        mine = dh & gm
        theirs = opp & gm
        masters = mine & above(highest_bit(theirs)) if theirs else mine
        if masters == 0:
            delay += popcount(theirs)
            continue
        if popcount(masters) >= max(popcount(o1 & gm), popcount(o2 & gm)):
            out |= mine
        else:
            out |= masters
    if out & trumps == 0 and delay > popcount(dh & ~out):
        return np.uint32(0)
    return out


@inlined_kernel
def top_trump_points(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32) -> tuple[int, int]:
    """Card points a side surely takes with its trumps above every opposing trump (the declarer's first,
    the defenders' second), at a trick boundary. Such a trump takes the trick it is played in, however it
    is played (no card beats a trump but a higher trump), and every card is played before the game ends:
    the declarer's ``n`` such trumps take ``n`` tricks, each with a card of either defender (at least
    each one's ``n`` cheapest cards); the defenders' take at least as many tricks as one of them holds
    such trumps, each with a card of the declarer (at least his cheapest ones). The captured cards are
    counted only when no early end can stop the game."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    dh = seat_hand(h0, h1, h2, d)
    mine, theirs = master_trumps(ctx, h0, h1, h2)
    a = points_of(gt, mine)
    b = points_of(gt, theirs)
    if ctx & (ENDS_ON_DECLARER | ENDS_ON_DEFENDERS) == 0:
        s1 = d + 1 if d < 2 else 0
        o1 = seat_hand(h0, h1, h2, s1)
        o2 = seat_hand(h0, h1, h2, s1 + 1 if s1 < 2 else 0)
        n = popcount(mine)
        if n:
            a += cheapest(gt, o1, n) + cheapest(gt, o2, n)
        n = max(popcount(theirs & o1), popcount(theirs & o2))
        if n:
            b += cheapest(gt, dh, n)
    return a, b


@kernel
def declarer_sure_points(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32) -> int:
    """Card points the declarer surely takes at a trick boundary, on lead or not, from his winners
    (:func:`declarer_winners`), when the defenders hold no trump, or hold trumps and his trumps above
    every one of theirs outnumber either defender's trumps (-1 otherwise, and when an early end can stop
    the game). With their trumps he plays as there, but ruffs and answers a trump lead with such a
    trump: it wins. Once on lead he has at least as many of them left as either defender has trumps
    (the first trick he took used at most one), draws their trumps, and then every trump of his and
    every counted plain card wins. Before that each trump of theirs can ruff at most one of his counted
    plain cards (those he must play to a suit led when he holds no other card of it): his most valuable
    ones are taken off. Each trick taken holds a card of each defender: at least their cheapest ones.
    (The twelfth round; before it, with a defender on lead, only his trumps above theirs counted.)"""
    if ctx & (ENDS_ON_DECLARER | ENDS_ON_DEFENDERS):
        return -1
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    trumps = P_GROUP_MASK[gt, TRUMP_GROUP]
    dh = seat_hand(h0, h1, h2, d)
    s1 = d + 1 if d < 2 else 0
    o1 = seat_hand(h0, h1, h2, s1)
    o2 = seat_hand(h0, h1, h2, s1 + 1 if s1 < 2 else 0)
    t1 = popcount(o1 & trumps)
    t2 = popcount(o2 & trumps)
    if t1 + t2:
        if popcount(dh & trumps & above(highest_bit((o1 | o2) & trumps))) <= max(t1, t2):
            return -1
    win = declarer_winners(gt, dh, o1, o2)
    plain = win & ~trumps
    lost = min(t1 + t2, popcount(plain))
    n = popcount(win) - lost
    return (
        points_of(gt, win & trumps)
        + cheapest(gt, plain, popcount(plain) - lost)
        + cheapest(gt, o1, n)
        + cheapest(gt, o2, n)
    )


@kernel
def sure_points(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int) -> int:
    """Card points the side on lead at a trick boundary is sure to take: a lower bound, by a plan the other
    side cannot stop. The leader first leads his trumps that are higher than every opposing trump (the
    opponents must follow with trumps while they have any: their cheapest ones count), then, in each plain
    suit, his cards higher than every opposing card of the suit, as many times as no opponent who still
    holds a trump can be void of it; when no opponent keeps a trump and the masters of a suit draw every
    opponent's cards of it, the leader's lower cards of the suit too (and of the trumps, when his top trumps
    draw every opposing trump and a defender leader's partner holds none: the twelfth round). Each of these
    tricks is won, so the leader keeps the lead. Every card an opponent plays to them is the leader's
    side's: of a group led ``k`` times he gives at least his ``min(k, held)`` cheapest cards of it (he
    follows while he can; a card of it he discarded before is in these tricks too), and the rest of his
    cards in these tricks (discards: only once he holds no trump) at least his cheapest others. A defender's
    partner plays to each of these tricks too, and chooses his cards: his most valuable trumps to the trump
    leads, his most valuable ``min(k, held)`` cards of a suit led ``k`` times (all below the leader's), and
    his most valuable other plain cards when void (never a trump). (Until the eleventh round opponents
    without trumps and the partner were counted as giving nothing, and only masters were cashed.)

    A defender's partner must not take the lead from him either: the leader's cards count only when
    they are higher than the partner's too (following suit, the partner cannot overtake), and while the
    partner keeps trumps after the trump leads, no more suit leads count than he holds other cards (void
    in the suit led he can always play one of those rather than trump it). Without this the plan failed
    in the reversed game, where a partner's lone seven or eight of a suit had to overtake the leader's
    ten (stop 32: 16 wrong values in a million three-trick endgames)."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    trumps = P_GROUP_MASK[gt, TRUMP_GROUP]
    hand = seat_hand(h0, h1, h2, leader)
    if leader == d:
        s1 = leader + 1 if leader < 2 else 0
        s2 = s1 + 1 if s1 < 2 else 0
        o1 = seat_hand(h0, h1, h2, s1)
        o2 = seat_hand(h0, h1, h2, s2)
        partner = np.uint32(0)
    else:
        o1 = seat_hand(h0, h1, h2, d)
        o2 = np.uint32(0)
        partner = seat_hand(h0, h1, h2, 3 - leader - d)
    opp = o1 | o2
    mine = hand & trumps
    theirs = (opp | partner) & trumps
    masters = mine & above(highest_bit(theirs)) if theirs else mine
    if partner & trumps == 0 and popcount(masters) >= max(popcount(o1 & trumps), popcount(o2 & trumps)):
        masters = mine  # the masters draw every opposing trump: the leader's lower trumps win after them
    n_cash = popcount(masters)
    total = points_of(gt, masters)
    r1 = popcount(o1 & trumps) - n_cash  # trumps an opponent keeps after the trump leads
    r2 = popcount(o2 & trumps) - n_cash
    # The opponents' cards in these tricks (see above). One who keeps a trump follows every lead counted
    # (his cheapest); one who does not plays all his trumps now, and his discards are counted at the end.
    total += cheapest(gt, o1 & trumps, n_cash) if r1 > 0 else points_of(gt, o1 & trumps)
    total += cheapest(gt, o2 & trumps, n_cash) if r2 > 0 else points_of(gt, o2 & trumps)
    left1 = o1 & ~trumps
    left2 = o2 & ~trumps
    # suit leads the partner can answer without a trump (he keeps trumps: as many as his other cards)
    kept = popcount(partner & trumps) - n_cash
    budget = popcount(partner & ~trumps) if kept > 0 else N_CARDS
    n_leads = n_cash
    # The partner's cards in these tricks are his side's too, and he picks them: his most valuable trumps
    # on the trump leads, of a suit led k times his k most valuable cards (all below the leader's), and
    # his most valuable other plain cards when void (never a trump: he must not take the lead).
    tp = popcount(partner & trumps)
    if tp:
        total += points_of(gt, partner & trumps) - cheapest(gt, partner & trumps, tp - min(n_cash, tp))
    pool = partner & ~trumps
    followed = min(n_cash, tp)
    for g in range(TRUMP_GROUP):
        gm = P_GROUP_MASK[gt, g]
        mine = hand & gm
        if not mine:
            continue
        theirs = (opp | partner) & gm
        masters = mine & above(highest_bit(theirs)) if theirs else mine
        c1 = popcount(o1 & gm)
        c2 = popcount(o2 & gm)
        if (
            r1 <= 0
            and r2 <= 0
            and popcount(masters) >= max(c1, c2)
            and budget >= popcount(mine)
            and partner & gm & above(lowest_bit(mine)) == 0
        ):
            masters = mine  # the masters draw the suit: no opponent can follow or ruff the rest
        safe = min(popcount(masters), budget)
        if r1 > 0:
            safe = min(safe, c1)
        if r2 > 0:
            safe = min(safe, c2)
        if safe <= 0:
            continue
        budget -= safe
        n_leads += safe
        total += points_of(gt, masters) - cheapest(gt, masters, popcount(masters) - safe)
        if r1 > 0:
            total += cheapest(gt, o1 & gm, safe)
        elif c1:
            f1 = o1 & gm if c1 <= safe else cheapest_cards(gt, o1 & gm, safe)
            total += points_of(gt, f1)
            left1 &= ~f1
        if r2 > 0:
            total += cheapest(gt, o2 & gm, safe)
        elif c2:
            f2 = o2 & gm if c2 <= safe else cheapest_cards(gt, o2 & gm, safe)
            total += points_of(gt, f2)
            left2 &= ~f2
        ps = partner & gm
        if ps:
            k = popcount(ps)
            pe = ps if k <= safe else ps & ~cheapest_cards(gt, ps, k - safe)
            total += points_of(gt, pe)
            pool &= ~pe
            followed += min(k, safe)
    # discards: an opponent without trumps plays n_leads cards in all
    if r1 <= 0 and o1:
        total += cheapest(gt, left1, n_leads - (popcount(o1) - popcount(left1)))
    if r2 <= 0 and o2:
        total += cheapest(gt, left2, n_leads - (popcount(o2) - popcount(left2)))
    if partner:
        disc = min(n_leads - followed, popcount(pool))
        if disc > 0:
            total += points_of(gt, pool) - cheapest(gt, pool, popcount(pool) - disc)
    return total


@kernel
def last_trick(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, nin: int, t0: int, t1: int) -> int:
    """Value of the last trick, where every seat has one card left (or none, having played it)."""
    s1 = leader + 1 if leader < 2 else 0
    s2 = s1 + 1 if s1 < 2 else 0
    c0 = t0 if nin >= 1 else lowest_bit(seat_hand(h0, h1, h2, leader))
    c1 = t1 if nin == 2 else lowest_bit(seat_hand(h0, h1, h2, s1))
    c2 = lowest_bit(seat_hand(h0, h1, h2, s2))
    winner, gain, ends = close_trick(ctx, leader, c0, c1, c2)
    return gain


@kernel
def two_tricks(ctx: int, h0: np.uint32, h1: np.uint32, h2: np.uint32, leader: int, nin: int, t0: int, t1: int) -> int:
    """Exact value of the last two tricks (the seat to move holds two cards): at most eight lines of
    play, evaluated directly instead of as search nodes. Cards already in the trick are the only
    "choice" of the seats that played them."""
    gt = (ctx >> GT_SHIFT) & 7
    d = (ctx >> (GT_SHIFT + 3)) & 3
    s1 = leader + 1 if leader < 2 else 0
    s2 = s1 + 1 if s1 < 2 else 0
    hl = seat_hand(h0, h1, h2, leader)
    ha = seat_hand(h0, h1, h2, s1)
    hb = seat_hand(h0, h1, h2, s2)
    m0 = hl if nin == 0 else _ONE << np.uint32(t0)
    best0 = -_INF if leader == d else _INF
    while m0:
        c0 = lowest_bit(m0)
        m0 &= m0 - _ONE
        r0 = hl & ~(_ONE << np.uint32(c0))  # the leader's card for the last trick
        m1 = legal(gt, ha, c0) if nin <= 1 else _ONE << np.uint32(t1)
        best1 = -_INF if s1 == d else _INF
        while m1:
            c1 = lowest_bit(m1)
            m1 &= m1 - _ONE
            r1 = ha & ~(_ONE << np.uint32(c1))
            m2 = legal(gt, hb, c0)
            best2 = -_INF if s2 == d else _INF
            while m2:
                c2 = lowest_bit(m2)
                m2 &= m2 - _ONE
                r2 = hb & ~(_ONE << np.uint32(c2))
                winner, v, ends = close_trick(ctx, leader, c0, c1, c2)
                if ends:
                    v += unplayed(ctx, r2)
                else:
                    # the last trick, led by the winner: here, not by a call per line (a third faster)
                    k = winner - leader if winner >= leader else winner - leader + 3
                    if k == 0:
                        a, b, c = r0, r1, r2
                    elif k == 1:
                        a, b, c = r1, r2, r0
                    else:
                        a, b, c = r2, r0, r1
                    v += close_trick(ctx, winner, lowest_bit(a), lowest_bit(b), lowest_bit(c))[1]
                best2 = max(best2, v) if s2 == d else min(best2, v)
            best1 = max(best1, best2) if s1 == d else min(best1, best2)
        best0 = max(best0, best1) if leader == d else min(best0, best1)
    return best0
