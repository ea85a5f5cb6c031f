"""Ramsch and Schieberamsch: scoring a deal played without a declarer (RULES.md §6 "Ramsch").

A Ramsch is played as game type ``RAMSCH`` (Grand trumps, no declarer, the
skat untouched) by the same play kernels as every game; this module turns
the finished play state into each seat's card points and score. Each table
choice is a parameter (variant keys in parentheses):

* the skat's points go to the winner of the last trick, to the loser, or to
  nobody (``ramsch.skat_to``); "the loser" is the seat with most card points
  in tricks, on a tie the one of them who won the latest trick; or to each
  loser (``each_loser``, xskat): every seat tied for most points in tricks
  counts the skat's points, and the tie rule then charges them that;
* a Jungfrau (a player without a trick; a trick of three zero-point cards is a
  trick) doubles the loss (``ramsch.jungfrau``), or adds
  ``per_jungfrau`` under fixed scoring;
* a Durchmarsch (one player takes all ten tricks) wins ``durchmarsch_value``
  (``ramsch.durchmarsch``), or is not recognised: he is the loser with all the
  points, doubled per Jungfrau (-480 with 120 points, as the seed states);
* a tie for most points (``ramsch.tie``): every tied player loses his points;
  or only the tied player who won the latest trick; or the tied players share
  the loss: it is split in whole points, the remainder going one point each to
  the tied players who won the latest tricks (40:40:40 -> 14, 13, 13; see
  docs/decisions.md); a tie of all three may instead cost nobody anything
  (``ramsch.three_way_tie: nobody_loses``, as xskat scores it);
* scoring (``ramsch.scoring``) by the loser's points, fixed values, or
  "winner Ramsch" (fewest points wins ``single``; two tied ``tied`` each;
  three tied: nobody scores).

The Schieberamsch factor (:func:`schiebe_factor`) and Bock multiply the
result; the Durchmarsch value is multiplied by them but never by Jungfrau.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel, popcount
from .cards import JACKS
from .play import LAST_WINNER, LATEST0, POINTS0, SKAT, TRICKS0
from .rules import (
    RAMSCH_DURCHMARSCH,
    RAMSCH_DURCHMARSCH_VALUE,
    RAMSCH_FIXED_BASE,
    RAMSCH_FIXED_PER_JUNGFRAU,
    RAMSCH_JUNGFRAU,
    RAMSCH_SCORING,
    RAMSCH_SKAT_TO,
    RAMSCH_THREE_WAY_TIE,
    RAMSCH_TIE,
    RAMSCH_WINNER_SINGLE,
    RAMSCH_WINNER_TIED,
    SCHIEBE_DOUBLING,
    SCHIEBE_JACKS,
)
from .tricks import card_points

# Fields of the Ramsch result array.
SCORE0 = 0  # SCORE0 + seat: the seat's score for the deal
POINTS_0 = 3  # POINTS_0 + seat: card points the seat counts (skat included per ramsch.skat_to)
LOSER = 6  # seat of the single loser; -1 when none (Durchmarsch, winner Ramsch, several tied losers)
JUNGFRAU = 7  # players who took no trick
DURCHMARSCH = 8  # seat that took every trick, -1 when none (recognised or not)
N_RESULT = 9

# Codes of the options (rules.RAMSCH_*_CODES).
SKAT_TO_LAST_TRICK, SKAT_TO_LOSER, SKAT_TO_NOBODY, SKAT_TO_EACH_LOSER = 0, 1, 2, 3
TIE_ALL_LOSE, TIE_LAST_TRICK, TIE_SHARE = 0, 1, 2
THREE_WAY_BY_TIE_RULE, THREE_WAY_NOBODY_LOSES = 0, 1
SCORING_POINTS, SCORING_FIXED, SCORING_WINNER = 0, 1, 2

OK, E_PUSH_COUNT, E_PUSH_NOT_HELD, E_PUSH_JACK = range(4)
ERRORS = {
    E_PUSH_COUNT: "exactly two cards are passed on",
    E_PUSH_NOT_HELD: "a card passed on must be among the player's 12 cards (hand and skat)",
    E_PUSH_JACK: "jacks may not be passed on (schieberamsch.jacks_may_be_pushed)",
}

_JACKS = np.uint32(JACKS)


@kernel
def push_error(twelve: np.uint32, pushed: np.uint32, params: np.ndarray) -> int:
    """Error code of passing ``pushed`` on from ``twelve`` (hand plus skat); 0 when legal (RULES.md §6)."""
    if popcount(pushed) != 2:
        return E_PUSH_COUNT
    if pushed & ~twelve:
        return E_PUSH_NOT_HELD
    if pushed & _JACKS and params[SCHIEBE_JACKS] == 0:
        return E_PUSH_JACK
    return OK


@kernel
def schiebe_factor(pushes: int, declines: int, params: np.ndarray) -> int:
    """Multiplier of a Schieberamsch (``schieberamsch.doubling``): each decline doubles
    (three declines x8, as in the seeds), or each push doubles."""
    return 1 << (pushes if params[SCHIEBE_DOUBLING] == 1 else declines)


@kernel
def _latest_of(state: np.ndarray, seats: int) -> int:
    """Of the seats in the bit set ``seats``, the one that won the latest trick."""
    best = -1
    latest = -1
    for s in range(3):
        if seats >> s & 1 and state[LATEST0 + s] > latest:
            best, latest = s, state[LATEST0 + s]
    return best


@kernel
def _most(points: np.ndarray) -> int:
    """Bit set of the seats with most points."""
    top = max(points[0], max(points[1], points[2]))
    seats = 0
    for s in range(3):
        if points[s] == top:
            seats |= 1 << s
    return seats


@kernel
def _count_points(state: np.ndarray, params: np.ndarray, out: np.ndarray) -> None:
    """Each seat's card points, the skat added per ``ramsch.skat_to`` (to each tied loser with ``each_loser``)."""
    for s in range(3):
        out[POINTS_0 + s] = state[POINTS0 + s]
    skat_points = card_points(np.uint32(state[SKAT]))
    pts = out[POINTS_0 : POINTS_0 + 3]
    skat_to = params[RAMSCH_SKAT_TO]
    if skat_to == SKAT_TO_LAST_TRICK:
        pts[state[LAST_WINNER]] += skat_points
    elif skat_to == SKAT_TO_LOSER:
        pts[_latest_of(state, _most(pts))] += skat_points
    elif skat_to == SKAT_TO_EACH_LOSER:
        losers = _most(pts)
        for s in range(3):
            if losers >> s & 1:
                pts[s] += skat_points


@kernel
def _charge(state: np.ndarray, losers: int, loss: int, tie: int, out: np.ndarray) -> None:
    """Charge ``loss`` to the losers per the tie rule (each, the latest trick's, or shared)."""
    n = popcount(np.uint32(losers))
    if n == 1 or tie == TIE_LAST_TRICK:
        loser = _latest_of(state, losers)
        out[SCORE0 + loser] = -loss
        out[LOSER] = loser
        return
    if tie == TIE_ALL_LOSE:
        for s in range(3):
            if losers >> s & 1:
                out[SCORE0 + s] = -loss
        return
    share, rest = loss // n, loss % n
    left = losers
    while left:
        s = _latest_of(state, left)
        out[SCORE0 + s] = -(share + (1 if rest > 0 else 0))
        rest -= 1
        left &= ~(1 << s)


@kernel
def _loser_scores(state: np.ndarray, params: np.ndarray, factor: int, out: np.ndarray) -> None:
    """Scoring by points or fixed values: the player(s) with most card points lose."""
    pts = out[POINTS_0 : POINTS_0 + 3]
    losers = _most(pts)
    if losers == 7 and params[RAMSCH_THREE_WAY_TIE] == THREE_WAY_NOBODY_LOSES:
        return
    top = max(pts[0], max(pts[1], pts[2]))
    jungfrau = out[JUNGFRAU] if params[RAMSCH_JUNGFRAU] else 0
    if params[RAMSCH_SCORING] == SCORING_FIXED:
        loss = params[RAMSCH_FIXED_BASE] + params[RAMSCH_FIXED_PER_JUNGFRAU] * jungfrau
    else:
        loss = top << jungfrau
    _charge(state, losers, loss * factor, params[RAMSCH_TIE], out)


@kernel
def _winner_scores(params: np.ndarray, factor: int, out: np.ndarray) -> None:
    """Winner Ramsch: the single player with fewest points wins ``single``, two tied ``tied`` each."""
    pts = out[POINTS_0 : POINTS_0 + 3]
    low = min(pts[0], min(pts[1], pts[2]))
    n = (pts[0] == low) + (pts[1] == low) + (pts[2] == low)
    if n == 3:
        return
    value = params[RAMSCH_WINNER_SINGLE] if n == 1 else params[RAMSCH_WINNER_TIED]
    for s in range(3):
        if pts[s] == low:
            out[SCORE0 + s] = value * factor


@kernel
def ramsch_result(state: np.ndarray, factor: int, params: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out`` (fields above) for the finished Ramsch in play ``state``; ``factor`` is the
    Schieberamsch multiplier (1 for a plain Ramsch)."""
    out[:] = 0
    out[LOSER] = -1
    out[DURCHMARSCH] = -1
    for s in range(3):
        tricks = state[TRICKS0 + s]
        out[JUNGFRAU] += tricks == 0
        if tricks == 10:
            out[DURCHMARSCH] = s
    _count_points(state, params, out)
    d = out[DURCHMARSCH]
    if d >= 0 and params[RAMSCH_DURCHMARSCH]:
        out[SCORE0 + d] = params[RAMSCH_DURCHMARSCH_VALUE] * factor
    elif params[RAMSCH_SCORING] == SCORING_WINNER:
        _winner_scores(params, factor, out)
    else:
        _loser_scores(state, params, factor, out)
