"""The ``heuristic`` bot's bidding and declaring (its card play is :mod:`skatsim.bots.cardplay`).

For every game it could play — four suits, Grand, Null, Null ouvert, and the
reversed game where the variant allows it (``reversed_game.enabled``); hand
or with the skat — the bot estimates its win probability with the
calibrated model of :mod:`skatsim.bots.winprob` and reckons the value it
can bid from its own cards. It bids up to the highest value among the games
it would win with probability at least ``risk``. Having won the bid it
plays hand when a hand game is safe enough (``hand_risk``), otherwise picks
up the skat and declares the game with the best expected score that reaches
the bid, after choosing its discards for each candidate game.

Every kernel here takes ``bot``, one seat's parameter vector as prepared by
:func:`prepare` (the registry's parameters plus the thresholds derived from
them once per block).

House rules (RULES.md §6), each a documented rule with a parameter:

* Kontra (defender): his "defence count" — trumps of the declared game he
  holds, plus his jacks again, plus side suits whose top card he holds —
  reaches ``kontra`` plus the declarer's bid multiplier above 2 (a declarer
  who bid high holds more); never against Null, unless an open (ouvert) hand
  shows a suit the defender can duck under. Against an open suit game or
  Grand he doubles when he holds a trump above all of the declarer's (the
  declarer announced Schwarz). Each further call (x8, x32) needs 2 more.
* Re (declarer): his own calibrated win probability for the declared game
  reaches ``re``; a further call (x16) needs half the remaining doubt.
* Grand hand instead of a Ramsch: the Grand hand estimate reaches ``hand_risk``.
* Schieberamsch: pick up the skat and push when the hand's danger count
  (jacks + aces + tens) reaches ``push``; the two cards pushed are the most
  dangerous allowed (jacks if allowed, then high cards of short suits).
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import allocating_kernel, kernel, lowest_bit, popcount
from ..engine.cards import ACES, CARD_POINTS, JACKS, SUIT_MASKS, TENS
from ..engine.gametypes import BASE_VALUE, GRAND, GROUP_MASK, NULL, POWER, RAMSCH, REVERSED, TRUMPS
from ..engine.scoring import HAND, OUVERT, base_value, matadors, null_value
from ..engine.tricks import card_points
from . import N_BOT_PARAMS, N_PREPARED
from .cardsel import bit, highest, lowest
from .handeval import (
    AFTER_PICKUP,
    BEFORE_PICKUP,
    GRAND_CLASS,
    HAND_GAME,
    NULL_CLASS,
    NULL_OUVERT_CLASS,
    REVERSED_CLASS,
    SUIT_CLASS,
    bidding_value,
    choose_discard,
    class_of,
)
from .winprob import game_logit, suit_logits

# Parameter vector of the heuristic bot (see skatsim.bots registry for the docs).
P_RISK, P_HAND_RISK, P_GRAND_BIAS, P_NULL_BIAS, P_SUIT_BIAS, P_OUVERT_BIAS, P_WIN_BONUS = range(7)
P_KONTRA, P_RE, P_PUSH, P_REVERSED_BIAS, P_GRAND_BID_BIAS = 7, 8, 9, 10, 11
#: Slots after the registry's parameters, derived once per block by :func:`prepare`: the log-odds
#: of ``risk`` and ``hand_risk``, the thresholds every bid and hand decision compares against.
P_Z_RISK, P_Z_HAND_RISK = N_BOT_PARAMS, N_BOT_PARAMS + 1

# Candidate declarations: game type and ouvert flag (Null ouvert is its own candidate); the last,
# the reversed game, only where the variant allows it.
N_CANDIDATES = 8
_CANDIDATE_GT = np.array([0, 1, 2, 3, GRAND, NULL, NULL, REVERSED], dtype=np.int64)
_CANDIDATE_OUVERT = np.array([0, 0, 0, 0, 0, 0, 1, 0], dtype=np.int64)
_CANDIDATE_CLASS = np.array(
    [SUIT_CLASS] * 4 + [GRAND_CLASS, NULL_CLASS, NULL_OUVERT_CLASS, REVERSED_CLASS], dtype=np.int64
)


@kernel
def _bias(bot: np.ndarray, cls: int) -> float:
    if cls == NULL_OUVERT_CLASS:
        return bot[P_NULL_BIAS] + bot[P_OUVERT_BIAS]
    if cls == NULL_CLASS:
        return bot[P_NULL_BIAS]
    if cls == GRAND_CLASS:
        return bot[P_GRAND_BIAS]
    if cls == REVERSED_CLASS:
        return bot[P_REVERSED_BIAS]
    return bot[P_SUIT_BIAS]


@kernel
def _logit_of(p: float) -> float:
    p = min(max(p, 1e-9), 1.0 - 1e-9)
    return math.log(p / (1.0 - p))


@allocating_kernel
def prepare(bot_params: np.ndarray) -> np.ndarray:
    """Parameter vectors (one row per seat or player, from :func:`skatsim.bots.bot_arrays`) with
    the derived slots (``P_Z_*``) appended: what every heuristic kernel here takes as ``bot``."""
    out = np.zeros((bot_params.shape[0], N_PREPARED))
    for s in range(bot_params.shape[0]):
        for k in range(N_BOT_PARAMS):
            out[s, k] = bot_params[s, k]
        out[s, P_Z_RISK] = _logit_of(bot_params[s, P_RISK])
        out[s, P_Z_HAND_RISK] = _logit_of(bot_params[s, P_HAND_RISK])
    return out


@kernel
def _z(
    bot: np.ndarray,
    k: int,
    situation: int,
    cards: np.uint32,
    skat_points: float,
    seat: int,
) -> float:
    """Biased log-odds of candidate ``k`` in ``situation`` with ``cards``."""
    cls = _CANDIDATE_CLASS[k]
    return game_logit(cls, situation, _CANDIDATE_GT[k], cards, skat_points, seat) + _bias(bot, cls)


@kernel
def _candidates(reversed_ok: bool) -> int:
    """How many candidates the variant allows: all, or all but the reversed game (the last)."""
    return N_CANDIDATES if reversed_ok else N_CANDIDATES - 1


@kernel
def bid_limit(bot: np.ndarray, cards: np.uint32, seat: int, reversed_ok: bool = False) -> int:
    """Highest value the bot will bid or hold with these 10 cards (0 = pass at once).

    A game counts when its win probability with the skat reaches ``risk``; its hand
    version (worth one multiplier more) only when that game counts and the hand
    probability reaches ``hand_risk``. Grand estimates are shifted by ``grand_bid_bias``.
    ``reversed_ok``: the variant allows the reversed game.
    """
    z_pickup = bot[P_Z_RISK]
    z_hand = bot[P_Z_HAND_RISK]
    limit = 0
    suits = suit_logits(BEFORE_PICKUP, cards, seat)
    for k in range(_candidates(reversed_ok)):
        gt = _CANDIDATE_GT[k]
        caution = bot[P_GRAND_BID_BIAS] if gt == GRAND else 0.0
        if k < 4:
            z = suits[k] + _bias(bot, SUIT_CLASS)
        else:
            z = _z(bot, k, BEFORE_PICKUP, cards, 0.0, seat)
        if z + caution < z_pickup:
            continue
        ouvert = _CANDIDATE_OUVERT[k] == 1
        limit = max(limit, bidding_value(gt, cards, False, ouvert))
        value = bidding_value(gt, cards, True, ouvert)
        if value > limit and _z(bot, k, HAND_GAME, cards, 0.0, seat) + caution >= z_hand:
            limit = value
    return limit


@kernel
def _expected(z: float, value: int, bid: int, unit: int, bonus: float) -> float:
    """Expected score of a declaration: +value (+bonus) won, -2 x value (-bonus) lost."""
    if value < bid:
        charged = (bid + unit - 1) // unit * unit
        return -2.0 * charged - bonus
    p = 1.0 / (1.0 + math.exp(-z))
    return p * (value + bonus) - (1.0 - p) * (2.0 * value + bonus)


@kernel
def _best_hand_game(bot: np.ndarray, hand: np.uint32, seat: int, bid: int, reversed_ok: bool, safe: bool) -> int:
    """The candidate (index) of the hand game with the best expected score, -1 when none.

    ``safe``: only games whose value reaches the bid and whose hand win probability reaches
    ``hand_risk`` (the bot's own choice to play hand); otherwise every candidate counts (a hand
    game the bot was made to play: an overbid one is charged as such).
    """
    z_hand = bot[P_Z_HAND_RISK]
    best_k = -1
    best_ev = -1e18
    for k in range(_candidates(reversed_ok)):
        gt = _CANDIDATE_GT[k]
        value = bidding_value(gt, hand, True, _CANDIDATE_OUVERT[k] == 1)
        if safe and value < bid:
            continue
        z = _z(bot, k, HAND_GAME, hand, 0.0, seat)
        if safe and z < z_hand:
            continue
        ev = _expected(z, value, bid, base_value(gt, HAND), bot[P_WIN_BONUS])
        if ev > best_ev:
            best_k, best_ev = k, ev
    return best_k


@kernel
def _best_pickup_game(
    bot: np.ndarray, twelve: np.uint32, seat: int, bid: int, reversed_ok: bool, forced: np.uint32
) -> tuple[int, np.uint32]:
    """The candidate (index) with the best expected score after picking up the skat, and its two
    discards (``forced``: the discards already made, else 0 and the bot chooses per candidate)."""
    best_k = -1
    best_ev = -1e18
    best_discard = np.uint32(0)
    discard = forced
    for k in range(_candidates(reversed_ok)):
        gt = _CANDIDATE_GT[k]
        ouvert = _CANDIDATE_OUVERT[k] == 1
        if not forced and not (ouvert and gt == NULL and _CANDIDATE_GT[k - 1] == NULL):
            discard = choose_discard(gt, twelve)  # Null ouvert keeps the discards of Null
        flags = OUVERT if ouvert else 0
        if gt == NULL:
            value = null_value(flags)
        else:
            value = base_value(gt, flags) * (abs(matadors(gt, twelve)) + 1)
        z = _z(bot, k, AFTER_PICKUP, twelve & ~discard, float(card_points(discard)), seat)
        ev = _expected(z, value, bid, base_value(gt, flags), bot[P_WIN_BONUS])
        if ev > best_ev:
            best_k, best_ev, best_discard = k, ev, discard
    return best_k, best_discard


@kernel
def _declaration(k: int, hand: bool) -> tuple[int, int]:
    """Game type and flags of candidate ``k``, played hand or not."""
    flags = OUVERT if _CANDIDATE_OUVERT[k] else 0
    if hand:
        flags |= HAND
    return _CANDIDATE_GT[k], flags


@kernel
def declare(
    bot: np.ndarray,
    hand: np.uint32,
    skat: np.uint32,
    seat: int,
    bid: int,
    reversed_ok: bool = False,
) -> tuple[int, int, np.uint32]:
    """Hand or pickup, discards and declaration: returns ``(game_type, flags, declarer_skat)``.

    A hand game when one is safe enough (:func:`_best_hand_game`), else the best game after
    the pickup with its discards. ``reversed_ok``: the variant allows the reversed game.
    """
    k = _best_hand_game(bot, hand, seat, bid, reversed_ok, True)
    if k >= 0:
        gt, flags = _declaration(k, True)
        return gt, flags, skat
    k, discard = _best_pickup_game(bot, hand | skat, seat, bid, reversed_ok, np.uint32(0))
    gt, flags = _declaration(k, False)
    return gt, flags, discard


@kernel
def declare_hand(bot: np.ndarray, hand: np.uint32, seat: int, bid: int, reversed_ok: bool) -> tuple[int, int]:
    """The hand game to declare when the bot plays hand although it would not have chosen to."""
    return _declaration(_best_hand_game(bot, hand, seat, bid, reversed_ok, False), True)


@kernel
def declare_after_pickup(
    bot: np.ndarray, twelve: np.uint32, seat: int, bid: int, reversed_ok: bool, discard: np.uint32
) -> tuple[int, int, np.uint32]:
    """Game type, flags and discards after picking up the skat (``twelve`` cards); ``discard`` the
    two cards already put away, or 0 to choose them."""
    k, discard = _best_pickup_game(bot, twelve, seat, bid, reversed_ok, discard)
    gt, flags = _declaration(k, False)
    return gt, flags, discard


# --------------------------------------------------------------------------- house rules (RULES.md §6)

_JACKS = np.uint32(JACKS)
_DANGER = np.uint32(JACKS | ACES | TENS)


@kernel
def _side_tops(gt: int, hand: np.uint32) -> int:
    """Plain suits of ``gt`` whose top card (the ace; the seven in the reversed game) ``hand`` holds."""
    n = 0
    for g in range(4):
        top = highest(gt, GROUP_MASK[gt, g] & ~TRUMPS[gt])
        if top >= 0 and hand & bit(top):
            n += 1
    return n


@kernel
def _open_kontra(gt: int, hand: np.uint32, open_hand: np.uint32) -> bool:
    """Against an open hand: a trump above all the declarer's (suit, Grand: he announced Schwarz), or
    in Null a suit where the defender holds a card below the declarer's lowest."""
    if gt == NULL:
        for s in range(4):
            mine = hand & SUIT_MASKS[s]
            theirs = open_hand & SUIT_MASKS[s]
            if mine and theirs and lowest(NULL, mine) < lowest(NULL, theirs):
                return True
        return False
    mine = highest(gt, hand & TRUMPS[gt])
    theirs = highest(gt, open_hand & TRUMPS[gt])
    return mine >= 0 and (theirs < 0 or POWER[gt, mine] > POWER[gt, theirs])


@kernel
def kontra(bot: np.ndarray, hand: np.uint32, gt: int, bid: int, open_hand: np.uint32, level: int) -> bool:
    """Whether a defender holding ``hand`` makes the defenders' call at ``level`` (0 Kontra, 2 beyond Re).

    ``open_hand`` is the declarer's hand when it lies open (ouvert, seen before the call), else 0.
    """
    if open_hand:
        return _open_kontra(gt, hand, open_hand)
    if gt == NULL:
        return False
    count = popcount(hand & TRUMPS[gt]) + popcount(hand & _JACKS) + _side_tops(gt, hand)
    need = bot[P_KONTRA] + max(0, bid // BASE_VALUE[gt] - 2) + level
    return count >= need


@kernel
def declared_z(bot: np.ndarray, gt: int, flags: int, hand: np.uint32, skat: np.uint32, seat: int) -> float:
    """Biased log-odds of winning the declared game with the final ``hand`` (``skat``: the discards,
    or the untouched skat of a hand game)."""
    cls = class_of(gt, (flags & OUVERT) != 0)
    if flags & HAND:
        return game_logit(cls, HAND_GAME, gt, hand, 0.0, seat) + _bias(bot, cls)
    return game_logit(cls, AFTER_PICKUP, gt, hand, float(card_points(skat)), seat) + _bias(bot, cls)


@kernel
def re(bot: np.ndarray, gt: int, flags: int, hand: np.uint32, skat: np.uint32, seat: int, level: int) -> bool:
    """Whether the declarer answers at ``level`` (1: Re, 3: the call after the defenders' x8)."""
    need = 1.0 - (1.0 - bot[P_RE]) / (1 << (level // 2))
    return declared_z(bot, gt, flags, hand, skat, seat) >= _logit_of(need)


@kernel
def grand_hand_instead(bot: np.ndarray, hand: np.uint32, seat: int) -> bool:
    """Whether to declare Grand hand instead of playing a Ramsch (``ramsch.grand_hand_instead``)."""
    return declared_z(bot, GRAND, HAND, hand, np.uint32(0), seat) >= bot[P_Z_HAND_RISK]


@kernel
def _push_danger(c: int, cards: np.uint32) -> float:
    """How badly a card takes tricks and points in a Ramsch: jacks first (CJ most), then points and
    trick power, more in a short suit."""
    if bit(c) & _JACKS:
        return 100.0 + c
    n = popcount(cards & SUIT_MASKS[c // 8] & ~_JACKS)
    return 4.0 * CARD_POINTS[c] + POWER[RAMSCH, c] - 2.0 * n


@kernel
def push(bot: np.ndarray, hand: np.uint32, skat: np.uint32, jacks_ok: bool) -> np.uint32:
    """Schieberamsch: the two cards to push after picking up the skat, or 0 to pass it on unseen."""
    if popcount(hand & _DANGER) < bot[P_PUSH]:
        return np.uint32(0)
    cards = hand | skat
    pushed = np.uint32(0)
    for _ in range(2):
        allowed = cards if jacks_ok else cards & ~_JACKS
        best = -1
        best_danger = -1e9
        m = allowed
        while m:
            c = lowest_bit(m)
            m &= m - np.uint32(1)
            d = _push_danger(c, cards)
            if d > best_danger:
                best, best_danger = c, d
        pushed |= bit(best)
        cards &= ~bit(best)
    return pushed
