"""Heuristic card play for the declarer and both defenders (suit games, Grand, reversed game, Null).

What a player knows: his hand, every card played, his own skat if declarer,
and which seats have shown a void in which group (``voids[seat]`` bit per
group, kept by the simulator as cards fall). Plays are the habits of club
players: the declarer pulls trumps while he holds the top one and cashes
aces and tens once they are masters; void in a led side suit he ruffs with his trump ten, else his
trump ace while it is no master, else his richest trump below the jacks, keeping the jacks for trump
control; in Grand, void in a led plain suit of a trick worth under 10 card points, he throws a loser (a plain
card that is no master) instead of spending a jack on it; defenders cash their aces, smear points
onto a trick the partner has won, trump in only when it pays (second to the
declarer's lead, with the lowest card that beats it: only the partner plays after him; in a suit game
not with a master trump when the declarer leads a trump worth under 10 card points, since a master is a
trick whenever he wants it) and lead
through the declarer; a defender with no master to cash and no ruff to give his partner forces the
declarer to trump, leading a low card (no ace or ten) of a suit the declarer is known void in, and
against Grand does not lead a suit the declarer led or has played two cards of (``voids[declarer]``
keeps his plain cards above the void bits). While the defence lacks the 31 card points that save it
from Schneider, a defender banks every sure trick: he leads any master the
declarer cannot ruff (kings too, not only aces and tens), and in middlehand,
with the declarer behind him, he takes his partner's lead with a card the
declarer cannot beat instead of ducking, and second to the declarer's lead and void in its
suit, he smears a plain card onto the trick when enough cards above the declarer's are unseen
for his partner behind him to be likely to take it. A defender keeps his jacks in a suit game: he
smears onto his side's trick any card but a jack, and gives a trick he leaves to the declarer
a queen or king rather than a jack (a jack is a trump trick to come). A suit none of whose cards
is left unseen counts as a void of the declarer's, shown or not. In Null the declarer ducks under the
trick; the defenders lead where he cannot duck (reading his open hand in Null
ouvert), keep their low cards once he is beaten and shed the cards that could
be forced to overtake him.

Ramsch (no declarer, every player for himself, RULES.md §6): a player avoids
card points and tricks. He leads the cheapest card someone can still beat;
when he cannot win a trick he sheds his most expensive card onto it (points
and high cards go to another player); when he must win he takes it as
cheaply as he can, with his highest card if he is last. A player without a
trick stays a Jungfrau by the same rules. When a Durchmarsch counts (variant
key ``ramsch.durchmarsch``) and he has won every trick so far with at most
one card left that another player could beat — at the start: three or four
jacks and masters elsewhere — he plays to take every trick instead.
"""

from __future__ import annotations

import numpy as np

from .._jit import inlined_kernel, kernel, lowest_bit, popcount
from ..engine.cards import ACES, CARD_POINTS, JACKS, TENS
from ..engine.gametypes import BEATERS, GRAND, GROUP, GROUP_MASK, NULL, RAMSCH, TRUMP_GROUP, TRUMPS
from ..engine.play import (
    DECLARER,
    FLAGS,
    GT,
    LEADER,
    N_IN_TRICK,
    PLAYED,
    POINTS0,
    SKAT,
    TRICK0,
    TRICK_NO,
    TRICKS0,
    hand_of,
    legal_now,
)
from ..engine.scoring import OUVERT
from .cardsel import above, beaters, bit, cheapest, highest, is_master, lowest, richest

_ALL = np.uint32(0xFFFFFFFF)
_ACES_TENS = np.uint32(ACES | TENS)  # the cards worth 10 points or more
_JACKS = np.uint32(JACKS)
#: Cards above the declarer's lead left unseen from which a defender void in its group, second to
#: the trick, counts on his partner to take it: for a trump lead and for a side lead.
_TRUMPS_ABOVE = 3
_SIDE_ABOVE = 2
#: Bits of ``voids[declarer]`` above the void bits (0..4) in which :func:`note_voids` keeps what the
#: declarer's cards have shown every player: bit ``_LED + g``, he led plain group g; the four bits
#: from ``_SHOWN + 4 g``, how many cards of group g he has played.
_LED = 8
_SHOWN = 16
#: A Grand defender takes a plain group as the declarer's long one once he has played this many of it.
_LONG_SHOWN = 2
#: Without the top trump the declarer draws trumps while he holds at least as many as the defenders
#: less this many (before: only while he held more than they; one fewer draws more often and wins more).
_DRAW_SPARE = 1
#: Per game type and set of plain groups (bit g = group g, as in ``voids``): the cards of those groups.
_GROUP_SET_CARDS = np.array(
    [[sum(int(GROUP_MASK[gt, g]) for g in range(4) if groups >> g & 1) for groups in range(16)] for gt in range(8)],
    dtype=np.uint32,
)


@kernel
def _trick_state(state: np.ndarray) -> tuple[int, int, int]:
    """(winning card so far, its seat, points in the trick so far) of a started trick."""
    gt = state[GT]
    best = state[TRICK0]
    pos = 0
    pts = CARD_POINTS[best]
    if state[N_IN_TRICK] == 2:
        c = state[TRICK0 + 1]
        pts += CARD_POINTS[c]
        if BEATERS[gt, best] & bit(c):
            best, pos = c, 1
    seat = state[LEADER] + pos
    if seat >= 3:
        seat -= 3
    return best, seat, pts


@kernel
def _unseen(state: np.ndarray, seat: int) -> np.uint32:
    """Cards this seat has not seen: not in hand, not played, not in its own skat."""
    hidden = _ALL & ~np.uint32(state[PLAYED]) & ~hand_of(state, seat)
    if seat == state[DECLARER]:
        hidden &= ~np.uint32(state[SKAT])
    return hidden


@kernel
def _masters(gt: int, mask: np.uint32, unseen: np.uint32) -> np.uint32:
    """The cards of ``mask`` that no unseen card of their group outranks."""
    out = np.uint32(0)
    m = mask
    while m:
        c = lowest_bit(m)
        m &= m - np.uint32(1)
        if is_master(gt, c, unseen):
            out |= bit(c)
    return out


@kernel
def _outside_groups(gt: int, mask: np.uint32, groups: int) -> np.uint32:
    """The cards of ``mask`` not in any plain group of the ``groups`` bit set."""
    return mask & ~_GROUP_SET_CARDS[gt, groups & 0xF]


@kernel
def _shortest_suit(gt: int, mask: np.uint32) -> np.uint32:
    """The cards of the shortest nonempty plain group in ``mask``."""
    best = np.uint32(0)
    n_best = 99
    for g in range(4):
        cards = mask & GROUP_MASK[gt, g] & ~TRUMPS[gt]
        n = popcount(cards)
        if 0 < n < n_best:
            best, n_best = cards, n
    return best


@kernel
def _longest_suit(gt: int, mask: np.uint32, skip_groups: int) -> np.uint32:
    """The cards of the longest plain group in ``mask`` not in the ``skip_groups`` bit set."""
    best = np.uint32(0)
    n_best = 0
    for g in range(4):
        if skip_groups >> g & 1:
            continue
        cards = mask & GROUP_MASK[gt, g] & ~TRUMPS[gt]
        n = popcount(cards)
        if n > n_best:
            best, n_best = cards, n
    return best


@kernel
def _draw_card(gt: int, mine: np.uint32) -> int:
    """The trump the declarer leads to draw trumps without the top one: his lowest, but not his trump
    ten or ace while he holds another (led into a higher trump it is 10 or 11 card points for the
    defence)."""
    low = mine & ~_ACES_TENS
    return lowest(gt, low if low else mine)


@kernel
def _declarer_lead(gt: int, hand: np.uint32, unseen: np.uint32, voids: np.ndarray, seat: int) -> int:
    trumps = TRUMPS[gt]
    mine = hand & trumps
    theirs = unseen & trumps
    if mine and theirs:
        top = highest(gt, mine)
        if is_master(gt, top, unseen):
            return top
        if gt >= GRAND and popcount(mine) >= 2:
            return top  # jacks-only trumps: lead them from the top to draw the defenders' jacks
        if popcount(mine) + _DRAW_SPARE >= popcount(theirs):
            return _draw_card(gt, mine)
    side = hand & ~trumps
    opp_voids = voids[0] | voids[1] | voids[2]
    opp_voids &= ~voids[seat]
    safe = side if theirs == 0 else _outside_groups(gt, side, opp_voids)  # no defender can ruff
    cash = _masters(gt, safe, unseen)
    if cash & _ACES_TENS:
        return richest(gt, cash & _ACES_TENS)
    if cash:
        return richest(gt, cash)
    if mine and theirs and popcount(mine) >= 2:
        return _draw_card(gt, mine)
    if side:
        short = _shortest_suit(gt, side)
        low = short & ~_masters(gt, short & _ACES_TENS, unseen)
        return cheapest(gt, low if low else short)
    return lowest(gt, mine)


@kernel
def _take_or_duck(
    gt: int, legal: np.uint32, win: np.uint32, safe_from: np.uint32, unseen: np.uint32, pts: int, highest_first: bool
) -> int:
    """A follower who can beat the trick (``win``) before the last card: the lowest card of ``safe_from``
    that no unseen card beats; else, with 10 or more points in the trick, a winner anyway (the highest
    with ``highest_first``, else the lowest); else the cheapest ``legal`` card."""
    safe = _masters(gt, safe_from, unseen)
    if safe:
        return lowest(gt, safe)
    if pts >= 10:
        return highest(gt, win) if highest_first else lowest(gt, win)
    return cheapest(gt, legal)


@kernel
def _ruff_card(gt: int, lg: int, win: np.uint32, unseen: np.uint32, pts: int, last: bool) -> np.uint32:
    """The trump (a one-card mask) with which the declarer, void in a led side group, ruffs it, or none
    (then :func:`_declarer_follow` plays on by its other rules): his trump ten, which banks 10 card
    points a defender's jack would otherwise catch; else his trump ace unless it is a master (a master
    takes a trick of its own later); else his richest trump below the jacks (king, queen, then the low
    ones), keeping the jacks for trump control, but not last to a trick without card points (there he
    throws a card). A trump among his winners ``win`` means he is void in that group."""
    if lg == TRUMP_GROUP:
        return np.uint32(0)
    mine = win & TRUMPS[gt]
    ten = mine & np.uint32(TENS)
    if ten:
        return ten
    ace = mine & np.uint32(ACES)
    if ace and not _masters(gt, ace, unseen):
        return ace
    low = mine & ~np.uint32(JACKS | ACES)
    if low and (pts > 0 or not last):
        return bit(richest(gt, low))
    return np.uint32(0)


@kernel
def _declarer_follow(state: np.ndarray, seat: int, legal: np.uint32, unseen: np.uint32, voids: np.ndarray) -> int:
    gt = state[GT]
    best, _, pts = _trick_state(state)
    lg = GROUP[gt, state[TRICK0]]
    win = beaters(gt, legal, best)
    last = state[N_IN_TRICK] == 2
    nxt = seat + 1 if seat < 2 else 0
    behind_void = (voids[nxt] >> lg) & 1  # the defender behind him has shown a void in the led group
    if gt == GRAND and lg != TRUMP_GROUP and pts < 10 and win & ~TRUMPS[gt] == 0:
        # no plain card of his takes a cheap Grand trick (he is void, or under it): a loser thrown keeps
        # the jacks for trump control
        plain = legal & ~TRUMPS[gt]
        loser = plain & ~_masters(gt, plain, unseen)
        if loser:
            return cheapest(gt, loser)
    if win:
        # ruff (_ruff_card): last, or second with the defender behind him not known void (he could overruff)
        ruff = _ruff_card(gt, lg, win, unseen, pts, last)
        if ruff and (last or not behind_void):
            return lowest_bit(ruff)
    if last:
        if win:
            c = lowest(gt, win)
            if pts > 0 or GROUP[gt, c] != TRUMP_GROUP:
                return c
        return cheapest(gt, legal)
    if win:
        ruff_risk = lg != TRUMP_GROUP and behind_void and (unseen & TRUMPS[gt]) != 0
        return _take_or_duck(gt, legal, win, win & TRUMPS[gt] if ruff_risk else win, unseen, pts, True)
    return cheapest(gt, legal)


@kernel
def _declarer_voids(gt: int, voids: np.ndarray, declarer: int, unseen: np.uint32) -> int:
    """The plain groups a defender knows the declarer void in: shown, or none of the group's cards
    left unseen (all played or in his own hand), while a trump is unseen to ruff with."""
    out = voids[declarer]
    if unseen & TRUMPS[gt]:
        for g in range(4):
            if not unseen & GROUP_MASK[gt, g]:
                out |= 1 << g
    return out


@kernel
def _for_31(state: np.ndarray, seat: int, declarer: int) -> bool:
    """Whether the defence still lacks the 31 card points that save it from Schneider: until then
    a defender banks every sure trick (:func:`_defender_lead`, :func:`_defender_follow`)."""
    return state[POINTS0 + seat] + state[POINTS0 + 3 - seat - declarer] < 31


@kernel
def _declarer_long(voids: np.ndarray, declarer: int) -> int:
    """The plain groups in which the declarer has shown length (bit g = group g): he led the group,
    or has played ``_LONG_SHOWN`` or more of its cards (kept by :func:`note_voids`)."""
    v = voids[declarer]
    out = int((v >> _LED) & 0xF)
    for g in range(4):
        if (v >> (_SHOWN + 4 * g)) & 0xF >= _LONG_SHOWN:
            out |= 1 << g
    return out


@kernel
def _defender_lead(
    gt: int, hand: np.uint32, unseen: np.uint32, voids: np.ndarray, seat: int, declarer: int, for_31: bool
) -> int:
    trumps = TRUMPS[gt]
    side = hand & ~trumps
    partner = 3 - seat - declarer
    dv = _declarer_voids(gt, voids, declarer, unseen)
    safe = _outside_groups(gt, side, dv)
    # masters the declarer cannot ruff: aces and tens; while the defence lacks 31, kings and below
    # too (every sure trick counts; richest takes an ace or ten first)
    cash = _masters(gt, safe if for_31 else safe & _ACES_TENS, unseen)
    if cash:
        return richest(gt, cash)
    ruff = side & _GROUP_SET_CARDS[gt, voids[partner] & ~voids[declarer] & 0xF]
    if ruff:
        return cheapest(gt, ruff)
    if unseen & trumps:
        # in a suit game, draw the trumps when the masters nearly suffice: the declarer's last
        # trump then falls to them or to the partner's
        top = _masters(gt, hand & trumps, unseen) if gt != GRAND else np.uint32(0)
        if top and side and popcount(unseen & trumps) <= popcount(top) + 1:
            return cheapest(gt, top)
        # force the declarer to trump: a low card (no ace or ten) of a group he is void in, while a
        # trump is left unseen for him to ruff with
        force = side & ~_ACES_TENS & _GROUP_SET_CARDS[gt, dv & 0xF]
        if force:
            return cheapest(gt, force)
    if gt == GRAND and side and not unseen & trumps:
        # no jack left unseen: lead into the declarer's shown void (its shortest suit), where he can
        # only discard
        into = side & _GROUP_SET_CARDS[gt, voids[declarer] & 0xF]
        if into:
            return cheapest(gt, _shortest_suit(gt, into))
    if side:
        # against Grand, not a group the declarer led or has played two cards of (his long one)
        shown = _declarer_long(voids, declarer) if gt == GRAND else 0
        if declarer == (seat + 1) % 3:
            suit = _longest_suit(gt, side, voids[declarer] | shown)
        else:
            suit = _shortest_suit(gt, _outside_groups(gt, side, shown))
        if not suit:  # every group skipped: the shortest, which a nonempty ``side`` always has
            suit = _shortest_suit(gt, side)
        return cheapest(gt, suit)
    return lowest(gt, hand)


@kernel
def _shed(gt: int, legal: np.uint32) -> int:
    """A defender's card to a trick he leaves to the declarer: the cheapest, but a jack only when no
    other card worth at most a king is legal (a jack is a trump trick to come; a queen or king
    costs one or two points more)."""
    c = cheapest(gt, legal)
    if bit(c) & _JACKS:
        low = legal & ~_JACKS & ~_ACES_TENS
        if low:
            return cheapest(gt, low)
    return c


@kernel
def _smear(gt: int, legal: np.uint32, unseen: np.uint32) -> int:
    """A defender's card to a trick his side has won: the richest, but not a jack (two points for
    a trick to come) while he has another card, and against Grand not a plain master while he has
    another plain card (in a suit game the declarer ruffs a kept ace later: smearing it pays more)."""
    other = legal & ~_JACKS
    # against Grand a plain master is a trick to come: smear another card while one is left
    spare = other & ~_masters(gt, other & ~TRUMPS[gt], unseen)
    if gt == GRAND and spare:
        return richest(gt, spare)
    return richest(gt, other if other else legal)


@kernel
def _partner_smear(gt: int, legal: np.uint32, lg: int, best: int, unseen: np.uint32, partner_voids: int) -> np.uint32:
    """The plain cards a defender second to the declarer's lead smears onto the trick, or none: when he
    is void in the led group and his partner, behind him, has not shown a void there, with at least
    ``_TRUMPS_ABOVE`` (a trump lead) or ``_SIDE_ABOVE`` (a side lead) cards above the declarer's card
    unseen the partner is likely to take the trick (in the bots' games: 79-94% of such trump leads,
    95-100% of such side leads)."""
    if GROUP[gt, lowest_bit(legal)] == lg or (partner_voids >> lg) & 1:
        return np.uint32(0)
    if popcount(above(gt, best, unseen)) < (_TRUMPS_ABOVE if lg == TRUMP_GROUP else _SIDE_ABOVE):
        return np.uint32(0)
    return legal & ~TRUMPS[gt]


@kernel
def _defender_follow(
    state: np.ndarray, seat: int, legal: np.uint32, unseen: np.uint32, voids: np.ndarray, declarer: int
) -> int:
    gt = state[GT]
    best, holder, pts = _trick_state(state)
    lg = GROUP[gt, state[TRICK0]]
    win = beaters(gt, legal, best)
    last = state[N_IN_TRICK] == 2
    if holder != declarer:
        # the last seat needs no view of the declarer's voids: nobody plays after him
        void = 0 if last else (_declarer_voids(gt, voids, declarer, unseen) >> lg) & 1
        secure = last or (
            not above(gt, best, unseen) and not (lg != TRUMP_GROUP and GROUP[gt, best] != TRUMP_GROUP and void)
        )
        if secure:
            return _smear(gt, legal, unseen)
        if win and _for_31(state, seat, declarer):
            # the declarer is still to play: take the trick with a card he cannot beat
            sure = _masters(gt, win, unseen)
            if lg != TRUMP_GROUP and void:
                sure &= TRUMPS[gt]
            if sure:
                return richest(gt, sure)
        return _shed(gt, legal)
    if win:
        low = lowest(gt, win)
        # a master trump is a trick whenever he wants it: not spent on the declarer's cheap trump lead
        keep = lg == TRUMP_GROUP and gt < GRAND and pts < 10 and is_master(gt, low, unseen)
        if last or pts >= 10 or (_masters(gt, win, unseen) and not keep):
            return low  # only the partner plays after him: the lowest winner is as sure
    if not last and _for_31(state, seat, declarer):
        plain = _partner_smear(gt, legal, lg, best, unseen, voids[3 - seat - declarer])
        if plain:
            return richest(gt, plain)
    return _shed(gt, legal)


@kernel
def _null_declarer(state: np.ndarray, hand: np.uint32, legal: np.uint32, unseen: np.uint32) -> int:
    gt = NULL
    if state[N_IN_TRICK] == 0:
        best = -1
        best_key = 1 << 20
        for g in range(4):
            cards = hand & GROUP_MASK[gt, g]
            if not cards:
                continue
            c = lowest(gt, cards)
            others = unseen & GROUP_MASK[gt, g]
            n_under = popcount(others & ~above(gt, c, others) & ~bit(c))
            n_over = popcount(above(gt, c, others))
            key = n_under * 16 - n_over if n_over else 1000 + c
            if key < best_key:
                best, best_key = c, key
        return best
    win_card, _, _ = _trick_state(state)
    lg = GROUP[gt, state[TRICK0]]
    under = legal & ~beaters(gt, legal, win_card)
    if under:
        return highest(gt, under)
    if GROUP[gt, lowest(gt, legal)] != lg:
        return highest(gt, legal)
    if state[N_IN_TRICK] == 2:
        return highest(gt, legal)
    return lowest(gt, legal)


_NULL_SUITS = GROUP_MASK[NULL]  # the cards of each suit in Null (its 8 bits, in Null order)


@kernel
def _below(c: int) -> np.uint32:
    """The cards of ``c``'s suit lower than ``c`` in Null (the suit's bits under ``c``'s)."""
    return (bit(c) - np.uint32(1)) & _NULL_SUITS[c >> 3]


@kernel
def _null_gaps(theirs: np.uint32, others: np.uint32) -> int:
    """How far the declarer's cards ``theirs`` of one suit can be caught by the defenders' cards
    ``others`` of that suit: the most, over his ``i``-th lowest card (from 0), of the defenders'
    cards under it less ``i`` (the lower cards he can duck with first). Below 1 he always ducks."""
    worst = -99
    i = 0
    m = theirs
    while m:
        d = lowest_bit(m)
        m &= m - np.uint32(1)
        n = popcount(others & _below(d)) - i
        if n > worst:
            worst = n
        i += 1
    return worst


@kernel
def _null_ouvert_lead(hand: np.uint32, open_hand: np.uint32, partner: np.uint32, partner_voids: int) -> int:
    """A Null ouvert defender's lead against the open hand, -1 when no suit is worth attacking.

    ``partner``: the cards the partner may hold (the unseen ones: his and the skat). Best a suit in
    which the declarer's lowest card is above the lowest of mine and the partner can stay under it
    too (he holds a lower card or is void): the declarer must take the trick. Next, with no such
    suit, the one the defenders hold most cards under the declarer's (:func:`_null_gaps`)."""
    best = -1
    best_key = 0
    for g in range(4):
        mine = hand & _NULL_SUITS[g]
        theirs = open_hand & _NULL_SUITS[g]
        if not mine or not theirs:
            continue
        a = lowest(NULL, mine)
        d1 = lowest(NULL, theirs)
        his = np.uint32(0) if (partner_voids >> g) & 1 else partner & _NULL_SUITS[g]
        if a < d1:
            if not his:
                key = 200  # the partner is void: he cannot overtake
            elif his & _below(d1):
                key = 100 + popcount(his & _below(d1))
            else:
                key = 20  # the partner, if he holds the suit, must overtake (unless it lies in the skat)
        else:
            gaps = _null_gaps(theirs, mine | his)
            key = 10 + gaps if gaps > 0 else 0
        if key > best_key:
            best, best_key = a, key
    return best


@kernel
def _null_discard(hand: np.uint32, declarers: np.uint32, declarer_voids: int) -> int:
    """A Null defender's discard (void in the led suit): the highest card of the suit, of those whose
    lowest card is above the declarer's lowest there (the card would be forced to overtake him when
    the partner leads it), with the fewest cards; else the highest card.

    ``declarers``: the cards the declarer may hold (his open hand in Null ouvert, else every card
    unseen), with ``declarer_voids`` his known voids."""
    best = -1
    n_best = 99
    for g in range(4):
        mine = hand & _NULL_SUITS[g]
        if not mine or (declarer_voids >> g) & 1:
            continue
        his = declarers & _NULL_SUITS[g]
        if his and lowest(NULL, his) < lowest(NULL, mine):
            n = popcount(mine)
            if n < n_best:
                best, n_best = highest(NULL, mine), n
    return best if best >= 0 else highest(NULL, hand)


@kernel
def _voids_of(mask: np.uint32) -> int:
    """The bit set of the suits ``mask`` holds no card of (bit g = suit g, as in ``voids``): an open
    hand's voids, known exactly."""
    out = 0
    for g in range(4):
        if not mask & _NULL_SUITS[g]:
            out |= 1 << g
    return out


@kernel
def _null_defender(
    state: np.ndarray, seat: int, hand: np.uint32, legal: np.uint32, unseen: np.uint32, voids: np.ndarray
) -> int:
    """A Null defender's card. He leads low where the declarer must take the trick; once the
    declarer has played to a trick he cannot win, or must win, the highest card of the led suit (the
    low ones stay to catch him later); when the declarer plays after him, the highest card that does
    not let him duck with a higher card than he must; void, he sheds a card that could be forced to
    overtake the declarer (:func:`_null_discard`). In Null ouvert he reads the declarer's cards and
    counts the unseen ones as his partner's."""
    gt = NULL
    declarer = state[DECLARER]
    partner = 3 - seat - declarer
    ouvert = (state[FLAGS] & OUVERT) != 0
    open_hand = hand_of(state, declarer) if ouvert else np.uint32(0)
    declarer_voids = _voids_of(open_hand) if ouvert else voids[declarer]
    if state[N_IN_TRICK] == 0:
        if ouvert:
            c = _null_ouvert_lead(hand, open_hand, unseen & ~open_hand, voids[partner])
            if c >= 0:
                return c
        else:
            for g in range(4):  # the partner is void, the declarer not: he must duck under my card
                mine = hand & _NULL_SUITS[g]
                if mine and (voids[partner] >> g) & 1 and not (declarer_voids >> g) & 1:
                    return lowest(gt, mine)
        ok = _outside_groups(gt, hand, declarer_voids)
        return lowest(gt, ok if ok else hand)
    win_card, holder, _ = _trick_state(state)
    lg = GROUP[gt, state[TRICK0]]
    if GROUP[gt, lowest(gt, legal)] != lg:  # void in the led suit
        return _null_discard(hand, open_hand if ouvert else unseen, declarer_voids)
    if holder == declarer:
        under = legal & ~beaters(gt, legal, win_card)
        if under:
            return highest(gt, under)
        return highest(gt, legal)  # he is beaten whatever I play: keep the low cards
    if state[N_IN_TRICK] == 2:
        return highest(gt, legal)  # the declarer has played and lost this trick
    # the partner led, the declarer plays last
    if ouvert:
        his = open_hand & _NULL_SUITS[lg]
        if not his:
            return highest(gt, legal)
        duck = highest(gt, his & _below(win_card))
        if duck < 0:
            limit = _below(lowest(gt, his))  # he cannot duck: keep the trick under all his cards
        else:
            over = above(gt, duck, his)
            limit = _below(lowest(gt, over)) if over else _NULL_SUITS[lg]  # he ducks with that card anyway
        cards = legal & limit
        return highest(gt, cards) if cards else lowest(gt, legal)
    under = legal & ~beaters(gt, legal, win_card)
    return highest(gt, under) if under else lowest(gt, legal)


_POINTLESS = np.uint32(0x07070707)  # sevens, eights and nines


@kernel
def _beatable(gt: int, mask: np.uint32, unseen: np.uint32) -> int:
    """Cards of ``mask`` that a card still unseen outranks."""
    out = np.uint32(0)
    m = mask
    while m:
        c = lowest_bit(m)
        m &= m - np.uint32(1)
        if not is_master(gt, c, unseen):
            out |= bit(c)
    return out


@kernel
def _marching(state: np.ndarray, seat: int, hand: np.uint32, unseen: np.uint32) -> bool:
    """Whether a Ramsch player goes for a Durchmarsch: every trick so far his, at most one card left
    that another could beat, and at the start three or four jacks."""
    if state[TRICKS0 + seat] != state[TRICK_NO]:
        return False
    if state[TRICK_NO] == 0 and popcount(hand & _JACKS) < 3:
        return False
    return popcount(_beatable(RAMSCH, hand, unseen)) <= 1


@kernel
def _cheapest_high(gt: int, mask: np.uint32) -> int:
    """Of the cards worth fewest points, the strongest (to take a trick that cannot be avoided)."""
    if mask & _POINTLESS:
        return highest(gt, mask & _POINTLESS)
    c = cheapest(gt, mask)
    return highest(gt, mask & _same_points(c))


@kernel
def _same_points(c: int) -> np.uint32:
    """The cards of ``c``'s rank (equal card points)."""
    return np.uint32(0x01010101) << np.uint32(c % 8)


@kernel
def _ramsch_card(state: np.ndarray, seat: int, legal: np.uint32, unseen: np.uint32, durchmarsch: bool) -> int:
    gt = RAMSCH
    hand = hand_of(state, seat)
    lead = state[N_IN_TRICK] == 0
    if durchmarsch and _marching(state, seat, hand, unseen):
        if lead:
            return highest(gt, legal)
        best, _, _ = _trick_state(state)
        win = beaters(gt, legal, best)
        return highest(gt, win) if win else cheapest(gt, legal)
    if lead:
        soft = _beatable(gt, legal, unseen)
        return cheapest(gt, soft if soft else legal)
    best, _, _ = _trick_state(state)
    under = legal & ~beaters(gt, legal, best)
    if under:
        return richest(gt, under) if under & ~_POINTLESS else highest(gt, under)
    if state[N_IN_TRICK] == 2:
        return _cheapest_high(gt, legal)
    return cheapest(gt, legal)


@inlined_kernel
def choose_card(state: np.ndarray, seat: int, voids: np.ndarray, durchmarsch: bool = False) -> int:
    """The heuristic bot's card for ``seat`` (the seat to move); ``durchmarsch`` tells a Ramsch player
    whether a Durchmarsch counts (``ramsch.durchmarsch``). Compiled into its callers, the bot seam's
    ``card`` (once a card: no call, and no state and voids arrays built for it; 6% fewer instructions a
    game, docs/speed.md) and ``pimc``'s fallback."""
    legal = legal_now(state)
    if popcount(legal) == 1:
        return lowest_bit(legal)
    gt = state[GT]
    hand = hand_of(state, seat)
    unseen = _unseen(state, seat)
    if gt == RAMSCH:
        return _ramsch_card(state, seat, legal, unseen, durchmarsch)
    declarer = state[DECLARER]
    if gt == NULL:
        if seat == declarer:
            return _null_declarer(state, hand, legal, unseen)
        return _null_defender(state, seat, hand, legal, unseen, voids)
    if seat == declarer:
        if state[N_IN_TRICK] == 0:
            return _declarer_lead(gt, hand, unseen, voids, seat)
        return _declarer_follow(state, seat, legal, unseen, voids)
    if state[N_IN_TRICK] == 0:
        return _defender_lead(gt, hand, unseen, voids, seat, declarer, _for_31(state, seat, declarer))
    return _defender_follow(state, seat, legal, unseen, voids, declarer)


@kernel
def note_voids(state: np.ndarray, seat: int, c: int, voids: np.ndarray) -> None:
    """Record a void shown by ``seat`` playing ``c`` to the current trick (before the card is applied),
    and, for the declarer, each plain card he plays: the group he led (bit ``_LED + g``) and how many
    cards of it he has played (the four bits from ``_SHOWN + 4 g``)."""
    gt = state[GT]
    if seat == state[DECLARER]:
        g = GROUP[gt, c]
        if g != TRUMP_GROUP:
            if state[N_IN_TRICK] == 0:
                voids[seat] |= 1 << (_LED + g)
            voids[seat] += 1 << (_SHOWN + 4 * g)
    if state[N_IN_TRICK] == 0:
        return
    lg = GROUP[gt, state[TRICK0]]
    if GROUP[gt, c] != lg:
        voids[seat] |= 1 << lg
