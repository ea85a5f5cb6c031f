"""Card play: the state of a deal in play and the one step that advances it (RULES.md §4).

The state is an ``int64`` array; its fields are the constants below. Hands
and the declarer's skat are card masks. ``play_card`` checks a card against
the same legal-move kernel every caller uses, resolves complete tricks and
ends the game early when Null is lost (declarer's first trick) or an
announced Schwarz is lost (defenders' first trick).
"""

from __future__ import annotations

import numpy as np

from .._jit import inlined_kernel, kernel
from .cards import CARD_POINTS
from .gametypes import NULL
from .scoring import SCHWARZ_ANNOUNCED
from .tricks import card_points, legal_moves, trick_winner

# Fields of the play state array.
GT = 0  # game type code
FLAGS = 1  # declaration flags (scoring.HAND, ...)
DECLARER = 2  # seat 0..2, -1 in Ramsch
HAND0 = 3  # HAND0 + seat: the cards a seat still holds (mask)
SKAT = 6  # the declarer's skat: discards or the untouched skat (mask)
LEADER = 7  # seat that led the current trick
N_IN_TRICK = 8  # cards already in the current trick (0..2)
TRICK0 = 9  # TRICK0 + k: k-th card of the current trick
TRICK_NO = 12  # completed tricks (0..10)
TRICKS0 = 13  # TRICKS0 + seat: tricks won by a seat
POINTS0 = 16  # POINTS0 + seat: card points won in tricks by a seat
PLAYED = 19  # mask of all cards played so far
OVER = 20  # 1 when the play has ended (10 tricks or an early end)
LAST_WINNER = 21  # seat that won the last completed trick (-1 before the first)
CARDS12 = 22  # the declarer's 12 cards: hand at the first lead plus SKAT (for matadors)
LATEST0 = 23  # LATEST0 + seat: number (1..10) of the latest trick the seat won, 0 none (Ramsch ties)
N_FIELDS = 26

OK, E_OVER, E_NOT_HELD, E_MUST_FOLLOW = range(4)
ERRORS = {
    E_OVER: "the game is already over",
    E_NOT_HELD: "the player to move does not hold this card",
    E_MUST_FOLLOW: "the player must follow the led suit (or trump)",
}


@kernel
def new_play(state: np.ndarray, gt: int, flags: int, declarer: int, hands: np.ndarray, skat: np.uint32) -> None:
    """Start play: forehand (seat 0) leads the first trick."""
    state[:] = 0
    state[GT] = gt
    state[FLAGS] = flags
    state[DECLARER] = declarer
    for seat in range(3):
        state[HAND0 + seat] = hands[seat]
    state[SKAT] = skat
    state[LAST_WINNER] = -1
    if declarer >= 0:
        state[CARDS12] = hands[declarer] | skat


@kernel
def to_move(state: np.ndarray) -> int:
    """Seat whose turn it is."""
    seat = state[LEADER] + state[N_IN_TRICK]
    return seat - 3 if seat >= 3 else seat


@kernel
def hand_of(state: np.ndarray, seat: int) -> np.uint32:
    """Cards a seat still holds."""
    return np.uint32(state[HAND0 + seat])


@kernel
def led_card(state: np.ndarray) -> int:
    """First card of the current trick, -1 when leading."""
    if state[N_IN_TRICK] == 0:
        return -1
    return state[TRICK0]


@kernel
def legal_now(state: np.ndarray) -> np.uint32:
    """Legal cards for the seat to move."""
    return legal_moves(state[GT], hand_of(state, to_move(state)), led_card(state))


@kernel
def _ends_early(state: np.ndarray, winner: int) -> bool:
    declarer = state[DECLARER]
    if declarer < 0:
        return False
    if state[GT] == NULL:
        return winner == declarer
    return (state[FLAGS] & SCHWARZ_ANNOUNCED) != 0 and winner != declarer


@kernel
def play_card(state: np.ndarray, c: int) -> int:
    """Play card ``c`` for the seat to move; returns an error code (0 = played)."""
    if state[OVER]:
        return E_OVER
    seat = to_move(state)
    bit = np.uint32(1) << np.uint32(c)
    hand = hand_of(state, seat)
    if not hand & bit:
        return E_NOT_HELD
    if not legal_moves(state[GT], hand, led_card(state)) & bit:
        return E_MUST_FOLLOW
    apply_card(state, seat, c)
    return OK


@inlined_kernel
def apply_card(state: np.ndarray, seat: int, c: int) -> None:
    """Play a card already known to be legal for ``seat`` (the simulator's bots choose from
    :func:`legal_now`); :func:`play_card` is the checked entry point for everything else. Compiled
    into its callers (once a card: the call's cost is a fair share of its own)."""
    bit = np.uint32(1) << np.uint32(c)
    state[HAND0 + seat] = hand_of(state, seat) & ~bit
    state[PLAYED] |= bit
    state[TRICK0 + state[N_IN_TRICK]] = c
    state[N_IN_TRICK] += 1
    if state[N_IN_TRICK] == 3:
        _close_trick(state)


@kernel
def _close_trick(state: np.ndarray) -> None:
    c0, c1, c2 = state[TRICK0], state[TRICK0 + 1], state[TRICK0 + 2]
    winner = state[LEADER] + trick_winner(state[GT], c0, c1, c2)
    if winner >= 3:
        winner -= 3
    state[TRICKS0 + winner] += 1
    state[POINTS0 + winner] += CARD_POINTS[c0] + CARD_POINTS[c1] + CARD_POINTS[c2]
    state[TRICK_NO] += 1
    state[LATEST0 + winner] = state[TRICK_NO]
    state[LEADER] = winner
    state[LAST_WINNER] = winner
    state[N_IN_TRICK] = 0
    if state[TRICK_NO] == 10 or _ends_early(state, winner):
        state[OVER] = 1


@kernel
def concede_rest(state: np.ndarray, seat: int) -> None:
    """Give every card not yet won, and the tricks still to play, to ``seat``; end play
    (all ten tricks are then accounted for).

    Used when the defenders resign or the declarer claims the rest (ISS
    ``RE``/``SC``/a defender's timeout), even in the middle of a trick.
    """
    remaining = np.uint32(0)
    for s in range(3):
        remaining |= hand_of(state, s)
    for k in range(state[N_IN_TRICK]):
        remaining |= np.uint32(1) << np.uint32(state[TRICK0 + k])
    state[POINTS0 + seat] += card_points(remaining)
    if state[TRICK_NO] < 10:
        state[TRICKS0 + seat] += 10 - state[TRICK_NO]
        state[LATEST0 + seat] = 10
    state[TRICK_NO] = 10
    for s in range(3):
        state[HAND0 + s] = 0
    state[N_IN_TRICK] = 0
    state[OVER] = 1


@kernel
def declarer_result(state: np.ndarray) -> tuple[int, int, np.uint32]:
    """The declarer's card points (skat included), tricks, and 12 cards for matadors."""
    d = state[DECLARER]
    points = state[POINTS0 + d] + card_points(np.uint32(state[SKAT]))
    return points, state[TRICKS0 + d], np.uint32(state[CARDS12])
