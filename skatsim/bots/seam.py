"""The bot seam: the one place the deal flow asks a seat's player for a decision.

:mod:`skatsim.engine.flow` calls one function here per decision point of the rules —
bid or answer, hand or pickup, discard, declaration and announcements, Kontra/Re and
beyond, a Schieberamsch push, Grand hand instead of a Ramsch, and each card — with the
deal's :class:`~skatsim.engine.state.DealState` and the seat to decide. Each function
dispatches on the seat's bot kind (:mod:`skatsim.bots` registry); nothing outside
``bots/`` names a kind. A bot reads what its seat may know from the state (its own
hand, the auction, the cards played, the voids shown, an open declarer's hand) and
keeps what it worked out for later decisions of the same deal in its seat's ``memo``.

The recorded-decisions player (``RECORDED``) answers :data:`NONE` everywhere: a replayed
game's decisions are all in its action record, which the flow reads before it asks,
so a question reaching it means the record stops there (an aborted game, a forfeit).

Adding a bot: its kernels in its own module, an entry in the registry, and its branch in
each function below (and in :func:`prepare` when it derives values from its parameters).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from .._jit import allocating_kernel, inlined_kernel, kernel
from ..engine import bidding, kontra, play
from ..engine.gametypes import RAMSCH
from ..engine.rules import RAMSCH_DURCHMARSCH, REVERSED_ALLOWED, SCHIEBE_JACKS
from ..engine.scoring import HAND
from ..engine.state import DealState
from . import HEURISTIC, N_PREPARED, PIMC, RANDOM, RECORDED, cardplay, expected, heuristic, pimc, random_bot
from .handeval import choose_discard
from .slots import N_BOT_PARAMS, N_CALIB, X_WORLDS

#: "No decision": the player has none to give (the recorded player, asked beyond its record).
NONE = -9

# The heuristic bot's memory slots (``DealState.memo[seat]``), -1 when not worked out yet.
_LIMIT = 0  # how high it bids or holds (heuristic.ceiling)
_PLAN = 1  # 1 when the declaration plan below holds
_PLAN_GT = 2  # the game it plans to declare
_PLAN_FLAGS = 3  # its flags (HAND set for a hand game)
_PLAN_SKAT = 4  # the discards it plans (the skat itself for a hand game)


@allocating_kernel
def prepare(kinds: np.ndarray, bot_params: np.ndarray, params: np.ndarray) -> np.ndarray:
    """Prepared rows (one per seat or player) for the variant ``params``: what ``DealState.bots``
    holds. ``bot_params`` are :func:`skatsim.bots.bot_arrays` rows (a bot's parameters, then the
    variant's calibration); each bot derives what it needs from them once per block (the heuristic:
    its scoring view and bid thresholds, :func:`skatsim.bots.expected.prepare_row`)."""
    out = np.zeros((kinds.shape[0], N_PREPARED))
    scratch = np.zeros(3, dtype=np.int64)
    for row in range(kinds.shape[0]):
        if kinds[row] == HEURISTIC or kinds[row] == PIMC:  # the pimc bot bids and declares by the heuristic's row
            same = _same_bot(kinds, bot_params, row)
            if same >= 0:  # a row prepared already: the same bot with the same parameters
                out[row, :] = out[same, :]
            else:
                expected.prepare_row(out[row], bot_params[row], params, scratch)
        if kinds[row] == PIMC:
            out[row, X_WORLDS] = bot_params[row, N_BOT_PARAMS + N_CALIB]
    return out


@kernel
def _same_bot(kinds: np.ndarray, bot_params: np.ndarray, row: int) -> int:
    """The first row before ``row`` with the same kind and parameters, -1 if none."""
    for other in range(row):
        if kinds[other] != kinds[row]:
            continue
        same = True
        for k in range(bot_params.shape[1]):
            if bot_params[other, k] != bot_params[row, k]:
                same = False
                break
        if same:
            return other
    return -1


@allocating_kernel
def recorded_players() -> tuple[np.ndarray, np.ndarray]:
    """Kinds and prepared parameter rows of three recorded-decisions players: who sits at every
    seat of a replayed game."""
    kinds = np.full(3, RECORDED, dtype=np.int64)
    return kinds, np.zeros((3, N_PREPARED))


@kernel
def new_deal(st: DealState) -> None:
    """Clear every seat's bot memory before a deal."""
    st.memo[:] = -1
    for seat in range(3):
        heuristic.forget_kept(st.bots[seat])


@kernel
def watches_voids(st: DealState) -> bool:
    """Whether any seated bot reasons from the voids players show (then the flow keeps ``voids``)."""
    for seat in range(3):
        if st.kinds[seat] == HEURISTIC or st.kinds[seat] == PIMC:
            return True
    return False


@kernel
def observe_card(st: DealState, seat: int, c: int) -> None:
    """Every player sees ``seat`` play ``c`` (before it joins the trick): note a void it shows."""
    cardplay.note_voids(st.play, seat, c, st.voids)


@kernel
def _reversed_ok(st: DealState) -> bool:
    return st.params[REVERSED_ALLOWED] == 1


@inlined_kernel
def bid(st: DealState, seat: int) -> int:
    """The seat's bidding action at its turn: a bid value, ``bidding.HOLD`` or ``bidding.PASS``. Compiled
    into the auction's loop (its one caller, once a bid)."""
    kind = st.kinds[seat]
    if kind == RANDOM:
        return random_bot.bid_action(st.bidding, st.rng)
    if kind == HEURISTIC or kind == PIMC:
        return bidding.bot_action(st.bidding, bid_limit(st, seat))
    return NONE


@kernel
def bid_limit(st: DealState, seat: int) -> int:
    """The highest value the seat's player would bid or hold with its ten cards, -1 when it does not
    bid by a ceiling (the random bot, a recorded game's player): what a what-if checks a resampled
    hand against (:mod:`skatsim.whatif`: the bots must bid on it as they did). Asks nothing new of
    the bot: the heuristic's ceiling (:func:`skatsim.bots.heuristic.ceiling`) is the one :func:`bid`
    bids by, worked out once per deal."""
    if st.kinds[seat] == HEURISTIC or st.kinds[seat] == PIMC:
        if st.memo[seat, _LIMIT] < 0:
            st.memo[seat, _LIMIT] = heuristic.ceiling(st.bots[seat], st.params, st.hands[seat], seat, _reversed_ok(st))
        return st.memo[seat, _LIMIT]
    return -1


@kernel
def _plan(st: DealState, seat: int) -> None:
    """The heuristic declarer's whole declaration, worked out once: hand or pickup, discards, game."""
    gt, flags, dskat = heuristic.declare(
        st.bots[seat], st.params, st.hands[seat], st.skat[0], seat, st.bidding[bidding.BID], _reversed_ok(st)
    )
    _remember(st, seat, gt, flags, dskat)


@kernel
def _remember(st: DealState, seat: int, gt: int, flags: int, dskat: np.uint32) -> None:
    """Keep a declaration worked out for ``seat`` (game, flags, discards) in its memory, for the
    decisions that follow (pickup, discard, declare)."""
    st.memo[seat, _PLAN] = 1
    st.memo[seat, _PLAN_GT] = gt
    st.memo[seat, _PLAN_FLAGS] = flags
    st.memo[seat, _PLAN_SKAT] = dskat


@kernel
def pickup(st: DealState, seat: int) -> int:
    """The declarer's choice before seeing the skat: 1 pick it up, 0 play hand."""
    kind = st.kinds[seat]
    if kind == RANDOM:
        return random_bot.pickup(st.rng)
    if kind == HEURISTIC or kind == PIMC:
        _plan(st, seat)
        return 0 if st.memo[seat, _PLAN_FLAGS] & HAND else 1
    return NONE


@kernel
def discard(st: DealState, seat: int) -> int:
    """The two cards (a mask) the declarer puts away after picking up; his 12 cards are ``hands[seat]``."""
    kind = st.kinds[seat]
    twelve = st.hands[seat]
    if kind == RANDOM:
        return np.int64(random_bot.discard(twelve, st.rng))
    if kind == HEURISTIC or kind == PIMC:
        if st.memo[seat, _PLAN] != 1 or st.memo[seat, _PLAN_FLAGS] & HAND:
            gt, flags, dskat = heuristic.declare_after_pickup(
                st.bots[seat], st.params, twelve, seat, st.bidding[bidding.BID], _reversed_ok(st), np.uint32(0)
            )
            _remember(st, seat, gt, flags, dskat)
        return st.memo[seat, _PLAN_SKAT]
    return NONE


@kernel
def discard_for(st: DealState, seat: int, gt: int) -> int:
    """The two cards (a mask) the declarer puts away after picking up when his game ``gt`` is already
    decided (a what-if forces the declaration; the discards stay the player's): the heuristic's
    discard rule for that game (the one its own declaration uses), the random bot's random two."""
    kind = st.kinds[seat]
    twelve = st.hands[seat]
    if kind == RANDOM:
        return np.int64(random_bot.discard(twelve, st.rng))
    if kind == HEURISTIC or kind == PIMC:
        return np.int64(choose_discard(gt, twelve))
    return NONE


@kernel
def declare(st: DealState, seat: int, picked_up: bool, dskat: np.uint32) -> tuple[int, int]:
    """Game type and announcement flags the declarer declares (``dskat``: his discards after a pickup)."""
    kind = st.kinds[seat]
    if kind == RANDOM:
        return random_bot.game_type(st.rng, _reversed_ok(st)), 0
    if kind == HEURISTIC or kind == PIMC:
        bot = st.bots[seat]
        planned_hand = st.memo[seat, _PLAN_FLAGS] & HAND != 0
        if st.memo[seat, _PLAN] == 1 and planned_hand != picked_up:
            # the plan stands, unless he put away other cards than it did: then choose for those (below)
            if not (picked_up and st.memo[seat, _PLAN_SKAT] != dskat):
                return st.memo[seat, _PLAN_GT], st.memo[seat, _PLAN_FLAGS]
        if picked_up:
            gt, flags, _ = heuristic.declare_after_pickup(
                bot, st.params, st.hands[seat] | dskat, seat, st.bidding[bidding.BID], _reversed_ok(st), dskat
            )
            return gt, flags
        return heuristic.declare_hand(bot, st.params, st.hands[seat], seat, st.bidding[bidding.BID], _reversed_ok(st))
    return NONE, 0


@kernel
def doubles(st: DealState, seat: int, level: int) -> bool:
    """Whether ``seat`` makes the doubling call at ``level`` (0 Kontra, 1 Re, 2 and up beyond);
    the declared game is in ``st.play``, its declarer's open cards visible per the variant."""
    kind = st.kinds[seat]
    if kind == RANDOM:
        return random_bot.calls(st.rng)
    if kind == HEURISTIC or kind == PIMC:
        state = st.play
        declarer = state[play.DECLARER]
        gt = state[play.GT]
        flags = state[play.FLAGS]
        hand = play.hand_of(state, seat)
        bid = st.bidding[bidding.BID]
        if seat == declarer:
            skat = np.uint32(state[play.SKAT])
            return heuristic.re(st.bots[seat], st.params, gt, flags, hand, skat, seat, bid, level)
        shown = kontra.open_hand(state, st.params)
        return heuristic.kontra(st.bots[seat], st.params, hand, gt, flags, bid, shown, level, seat == 0)
    return False


@kernel
def grand_hand_instead(st: DealState, seat: int) -> bool:
    """Whether ``seat`` declares Grand hand instead of playing the Ramsch (``ramsch.grand_hand_instead``)."""
    kind = st.kinds[seat]
    if kind == RANDOM:
        return random_bot.calls(st.rng)
    if kind == HEURISTIC or kind == PIMC:
        return heuristic.grand_hand_instead(st.bots[seat], st.params, st.hands[seat], seat)
    return False


@kernel
def push(st: DealState, seat: int) -> int:
    """Schieberamsch: the two cards (a mask) ``seat`` pushes after picking up the skat, 0 to pass it on
    unseen."""
    kind = st.kinds[seat]
    jacks_ok = st.params[SCHIEBE_JACKS] == 1
    if kind == RANDOM:
        return np.int64(random_bot.push(st.hands[seat], st.skat[0], jacks_ok, st.rng))
    if kind == HEURISTIC or kind == PIMC:
        return np.int64(heuristic.push(st.bots[seat], st.params, st.hands[seat], st.skat[0], seat, jacks_ok))
    return NONE


def searches(kinds: np.ndarray) -> bool:
    """Whether a bot that searches (pimc) sits among ``kinds``: its deals need a
    :data:`skatsim.engine.state.SEARCH_STATE`, whose scratch holds the search."""
    return bool(np.any(np.asarray(kinds) == PIMC))


def _search_card(st: DealState, seat: int, worlds: int) -> int:
    """The pimc bot's card (compiled through :func:`_search_card_for`)."""
    raise NotImplementedError("compiled only")


@overload(_search_card, jit_options={"nogil": True, "_nrt": False})
def _search_card_for(st, seat, worlds):  # type: ignore[no-untyped-def]
    """The pimc bot's card where the state holds the search's scratch; :data:`NONE` in any other state,
    so the solver is compiled only into the kernels that run deals with a searching bot."""
    if isinstance(st, types.Record) and "search_tt" in st.fields:
        return lambda st, seat, worlds: pimc.choose_card(st, seat, worlds)
    return lambda st, seat, worlds: NONE


@inlined_kernel
def card(st: DealState, seat: int) -> int:
    """The card ``seat`` (the seat to move) plays. Compiled into its one caller, the card play's loop
    (``flow.play_cards``, once a card; docs/speed.md)."""
    kind = st.kinds[seat]
    state = st.play
    if kind == RANDOM:
        return random_bot.uniform_card(play.legal_now(state), st.rng)
    if kind == HEURISTIC or (kind == PIMC and state[play.GT] == RAMSCH):
        durchmarsch = state[play.GT] == RAMSCH and st.params[RAMSCH_DURCHMARSCH] == 1
        return cardplay.choose_card(state, seat, st.voids, durchmarsch)
    if kind == PIMC:
        return _search_card(st, seat, np.int64(st.bots[seat, X_WORLDS]))
    return NONE
