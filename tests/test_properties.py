"""Property and differential tests: random deals, random declarations, random legal play.

Deals come from :func:`skatsim.engine.deal.deal_cards` with a hypothesis-drawn seed and
index; every card is drawn by hypothesis from the legal set, so a failure shrinks
to a short game. Each game is played in lockstep by the compiled kernels and by
the naive oracle in ``tests/reference.py``: at every step the legal sets, then the
trick winners, card points, tricks and the evaluation must agree. The contract
properties (120 points, no card twice, only legal cards, ten tricks unless an
early end, score identities) are checked on the same games. All runs are
derandomized, so the suite is deterministic.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import reference as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatsim.engine import declaration, play
from skatsim.engine.bidding import BID_VALUES, HOLD, PASS
from skatsim.engine.cards import from_mask
from skatsim.engine.deal import deal_cards
from skatsim.engine.gametypes import NULL
from skatsim.engine.result import (
    MATADORS,
    N_FIELDS,
    OVERBID,
    POINTS,
    SCHNEIDER,
    SCHWARZ,
    SCORE,
    TRICKS,
    VALUE,
    WON,
    declared_result,
)
from skatsim.engine.scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED, game_value, matadors, outcome
from skatsim.engine.tricks import card_points, legal_moves, trick_winner
from skatsim.records.record import GameRecord, replay
from skatsim.variant import official_params

#: Games are cheap (a few ms each); these counts keep the file well under 30 s.
GAMES = settings(
    max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
CASES = settings(max_examples=400, derandomize=True, deadline=None, database=None)

ALL = 0xFFFFFFFF
DECLARED_TYPES = range(6)  # diamonds, hearts, spades, clubs, Grand, Null
ALL_TYPES = range(8)  # ... and Ramsch, the reversed game
BIDS = [int(v) for v in BID_VALUES if v <= 120]  # up to 120 so that overbids happen too


def _mask(cards: list[int] | tuple[int, ...]) -> int:
    return sum(1 << c for c in cards)


# ---------------------------------------------------------------- drawing a game


@dataclass(frozen=True)
class Game:
    """One drawn deal and declaration; hands are after the declarer's pickup and discards."""

    deal: tuple[int, ...]  # 32 cards: FH, MH, RH, skat as dealt
    hands: tuple[tuple[int, ...], ...]  # cards held at the first lead, by seat
    skat: tuple[int, ...]  # the declarer's skat: discards, or the untouched skat
    gt: int
    flags: int  # with every implied announcement
    declarer: int
    bid: int
    pickup: bool
    discards: tuple[int, ...]


def _draw_flags(data: st.DataObject, gt: int, pickup: bool) -> int:
    """Legal flags for the declaration, as a declarer would say them (before implied flags)."""
    if gt == NULL:
        ouvert = OUVERT if data.draw(st.booleans(), label="ouvert") else 0
        return ouvert | (0 if pickup else HAND)
    if pickup:
        return 0
    return HAND | data.draw(st.sampled_from([0, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED, OUVERT]), label="announce")


def _draw_game(data: st.DataObject) -> Game:
    """A random deal, declarer, bid and legal declaration (pickup with random discards, or hand)."""
    seed = data.draw(st.integers(0, 2**64 - 1), label="seed")
    index = data.draw(st.integers(0, 2**40), label="index")
    masks = np.zeros(3, dtype=np.uint32)
    skat_mask = int(deal_cards(np.uint64(seed), np.uint64(index), masks))
    dealt = [tuple(from_mask(int(m))) for m in masks]
    skat = tuple(from_mask(skat_mask))
    gt = data.draw(st.sampled_from(DECLARED_TYPES), label="game type")
    declarer = data.draw(st.integers(0, 2), label="declarer")
    pickup = data.draw(st.booleans(), label="pickup")
    said = _draw_flags(data, gt, pickup)
    assert ref.declaration_legal(gt, said, pickup)
    assert declaration.declaration_error(gt, said, pickup, official_params()) == declaration.OK
    flags = ref.implied_flags(gt, said)
    assert declaration.normalise_flags(gt, said) == flags
    hands = list(dealt)
    discards: tuple[int, ...] = ()
    if pickup:
        twelve = sorted(dealt[declarer] + skat)
        discards = tuple(data.draw(st.lists(st.sampled_from(twelve), min_size=2, max_size=2, unique=True)))
        hands[declarer] = tuple(c for c in twelve if c not in discards)
        skat = discards
    bid = data.draw(st.sampled_from(BIDS), label="bid")
    deal = dealt[0] + dealt[1] + dealt[2] + tuple(from_mask(skat_mask))
    return Game(deal, tuple(hands), skat, gt, flags, declarer, bid, pickup, discards)


@dataclass
class Lockstep:
    """A game played by the reference and the kernels side by side."""

    game: Game
    played: ref.PlayedGame
    state: np.ndarray  # the kernels' final play state
    kernel_winners: list[int]  # trick winners as the kernels resolved them


def _play_lockstep(
    data: st.DataObject, game: Game, on_turn: Callable[[np.ndarray, int, list[int]], None] | None = None
) -> Lockstep:
    """Play a drawn game card by card; each card is drawn from the reference's legal set.

    Before each card the kernels must agree on the seat to move and on the legal set,
    and accept the card; ``on_turn(state, seat, legal)`` may probe the state first.
    """
    state = np.zeros(play.N_FIELDS, dtype=np.int64)
    hand_masks = np.array([_mask(h) for h in game.hands], dtype=np.uint32)
    play.new_play(state, game.gt, game.flags, game.declarer, hand_masks, np.uint32(_mask(game.skat)))
    winners: list[int] = []

    def choose(seat: int, legal: list[int]) -> int:
        assert not state[play.OVER]
        assert play.to_move(state) == seat
        assert int(play.legal_now(state)) == _mask(legal)
        if on_turn is not None:
            on_turn(state, seat, legal)
        card = data.draw(st.sampled_from(legal), label="card")
        assert play.play_card(state, card) == play.OK
        if state[play.N_IN_TRICK] == 0:
            winners.append(int(state[play.LAST_WINNER]))
        return card

    played = ref.play_game(game.gt, game.flags, game.declarer, [list(h) for h in game.hands], choose)
    return Lockstep(game, played, state, winners)


def _is_early_end(game: Game, winner: int) -> bool:
    """Whether a trick won by ``winner`` ends play (RULES.md §4)."""
    if game.gt == NULL:
        return winner == game.declarer
    return bool(game.flags & SCHWARZ_ANNOUNCED) and winner != game.declarer


# ---------------------------------------------------------------- contract properties


@GAMES
@given(st.data())
def test_every_game_conserves_cards_and_points(data: st.DataObject) -> None:
    """No card twice; 30 cards and 120 points (tricks + skat) in a game played to the end."""
    run = _play_lockstep(data, _draw_game(data))
    state, cards = run.state, run.played.cards
    assert state[play.OVER] == 1
    assert len(set(cards)) == len(cards)
    assert int(state[play.PLAYED]).bit_count() == len(cards)
    assert int(state[play.PLAYED]) == _mask(cards)
    assert int(state[play.PLAYED]) & _mask(run.game.skat) == 0
    trick_points = sum(int(state[play.POINTS0 + s]) for s in range(3))
    skat_points = int(card_points(np.uint32(_mask(run.game.skat))))
    unplayed = sum(int(state[play.HAND0 + s]) for s in range(3))
    if not run.played.ended_early:
        assert len(cards) == 30
        assert int(state[play.PLAYED]) | _mask(run.game.skat) == ALL
        assert unplayed == 0
        assert trick_points + skat_points == 120
    else:
        assert trick_points + skat_points + int(card_points(np.uint32(unplayed))) == 120


@GAMES
@given(st.data())
def test_ten_tricks_unless_null_or_schwarz_announced_ends_early(data: st.DataObject) -> None:
    """Ten tricks are played unless Null is lost or an announced Schwarz is lost; then play stops at once."""
    run = _play_lockstep(data, _draw_game(data))
    game, state = run.game, run.state
    tricks = int(state[play.TRICK_NO])
    assert tricks == len(run.played.tricks) == len(run.played.cards) // 3
    assert sum(int(state[play.TRICKS0 + s]) for s in range(3)) == tricks
    early = [_is_early_end(game, w) for _, _, w in run.played.tricks]
    if tricks < 10:
        assert early[-1] and not any(early[:-1])
        assert game.gt == NULL or game.flags & SCHWARZ_ANNOUNCED
    else:
        assert not any(early[:-1])
    assert play.play_card(state, run.played.cards[0]) == play.E_OVER


@GAMES
@given(st.data())
def test_only_legal_cards_are_accepted(data: st.DataObject) -> None:
    """An illegal card returns its error code and leaves the play state exactly as it was."""

    def probe(state: np.ndarray, seat: int, legal: list[int]) -> None:
        illegal = [c for c in range(32) if c not in legal]
        if not illegal:
            return
        card = data.draw(st.sampled_from(illegal), label="illegal card")
        held = int(state[play.HAND0 + seat]) >> card & 1
        before = state.copy()
        assert play.play_card(state, card) == (play.E_MUST_FOLLOW if held else play.E_NOT_HELD)
        assert np.array_equal(state, before)

    _play_lockstep(data, _draw_game(data), probe)


@GAMES
@given(st.data())
def test_replayed_records_obey_the_score_identities(data: st.DataObject) -> None:
    """Through record.replay: won -> score = value; lost -> score = -2 x value; seat scores sum to the score."""
    game = _draw_game(data)
    run = _play_lockstep(data, game)
    d, b = game.declarer, game.bid
    bids = {
        0: ((1, b), (0, HOLD), (1, PASS), (2, PASS)),
        1: ((1, b), (0, PASS), (2, PASS)),
        2: ((1, PASS), (2, b), (0, PASS)),
    }
    record = GameRecord(
        deal=game.deal,
        bids=bids[d],
        pickup=game.pickup,
        discards=game.discards,
        game_type=game.gt,
        flags=game.flags,
        cards=tuple(run.played.cards),
    )
    ev = replay(record)
    assert ev.declarer == d and ev.bid == b
    assert ev.game_value is not None
    assert ev.score == (ev.game_value if ev.won else -2 * ev.game_value)
    assert ev.score_fh + ev.score_mh + ev.score_rh == ev.score
    assert [ev.score_fh, ev.score_mh, ev.score_rh][d] == ev.score
    # and the replay agrees with the oracle
    points = run.played.points[d] + ref.points_of(game.skat)
    expected = ref.outcome(
        game.gt, game.flags, b, list(game.hands[d]) + list(game.skat), points, run.played.won_tricks[d]
    )
    assert (ev.declarer_points, ev.declarer_tricks) == (points, run.played.won_tricks[d])
    assert (ev.won, ev.game_value, ev.overbid, ev.matadors) == (
        expected.won,
        expected.value,
        expected.overbid,
        expected.matadors,
    )
    assert ev.score == ref.deal_score(expected.won, expected.value, bool(game.flags & HAND))
    assert [(t.leader, t.cards, t.winner) for t in ev.tricks] == run.played.tricks


# ---------------------------------------------------------------- differential: kernels vs reference


@GAMES
@given(st.data())
def test_kernels_match_the_reference_over_random_games(data: st.DataObject) -> None:
    """Legal sets (checked at every card), trick winners, points, tricks and the evaluation agree."""
    game = _draw_game(data)
    run = _play_lockstep(data, game)
    state, played = run.state, run.played
    assert run.kernel_winners == [w for _, _, w in played.tricks]
    for seat in range(3):
        assert int(state[play.POINTS0 + seat]) == played.points[seat]
        assert int(state[play.TRICKS0 + seat]) == played.won_tricks[seat]
    d = game.declarer
    points = played.points[d] + ref.points_of(game.skat)
    expected = ref.outcome(
        game.gt, game.flags, game.bid, list(game.hands[d]) + list(game.skat), points, played.won_tricks[d]
    )
    result = np.zeros(N_FIELDS, dtype=np.int64)
    declared_result(state, game.bid, False, official_params(), result)
    assert (result[POINTS], result[TRICKS]) == (points, played.won_tricks[d])
    got = (bool(result[WON]), int(result[VALUE]), bool(result[OVERBID]), int(result[MATADORS]))
    assert got == (expected.won, expected.value, expected.overbid, expected.matadors)
    if not played.ended_early:  # levels reached in play are only defined for a game played out
        assert (bool(result[SCHNEIDER]), bool(result[SCHWARZ])) == (expected.schneider, expected.schwarz)
    assert result[SCORE] == ref.deal_score(expected.won, expected.value, bool(game.flags & HAND))


def test_trick_winner_matches_the_reference_on_every_trick() -> None:
    """All 29,760 ordered three-card tricks in all eight game types (incl. Ramsch and reversed)."""
    for gt in ALL_TYPES:
        for trick in itertools.permutations(range(32), 3):
            assert trick_winner(gt, *trick) == ref.trick_winner(gt, trick), (gt, [ref.name(c) for c in trick])


@CASES
@given(
    gt=st.sampled_from(ALL_TYPES),
    hand=st.sets(st.integers(0, 31), min_size=1, max_size=10),
    led=st.integers(-1, 31),
)
def test_legal_moves_match_the_reference(gt: int, hand: set[int], led: int) -> None:
    """Legal cards for any hand and led card (or a lead) in all eight game types."""
    hand.discard(led)
    if not hand:
        return
    expected = ref.legal_cards(gt, sorted(hand), None if led < 0 else led)
    assert int(legal_moves(gt, np.uint32(_mask(sorted(hand))), led)) == _mask(expected)


@st.composite
def _twelve_cards(draw: st.DrawFn, gt: int) -> list[int]:
    """12 cards with a chosen run from the top trump: "with k" or "without k" (k may be the whole sequence)."""
    trumps = [ref.card_of(t) for t in ref.trumps_high_to_low(gt)]
    cards: set[int] = set()
    excluded: set[int] = set()
    if trumps:
        k = draw(st.integers(1, len(trumps)))
        with_run = draw(st.booleans())
        run, rest = trumps[:k], trumps[k:]
        (cards if with_run else excluded).update(run)
        if rest:
            (excluded if with_run else cards).add(rest[0])
    pool = [c for c in range(32) if c not in cards and c not in excluded]
    fill = draw(st.lists(st.sampled_from(pool), unique=True, min_size=12 - len(cards), max_size=12 - len(cards)))
    return sorted(cards | set(fill))


@CASES
@given(st.data())
def test_matadors_match_the_reference(data: st.DataObject) -> None:
    """With/without N over 12 cards in all game types, long runs included."""
    gt = data.draw(st.sampled_from(ALL_TYPES), label="game type")
    cards12 = data.draw(_twelve_cards(gt), label="cards")
    assert len(cards12) == 12
    assert matadors(gt, np.uint32(_mask(cards12))) == ref.matadors(gt, cards12)


@CASES
@given(st.data())
def test_evaluation_matches_the_reference(data: st.DataObject) -> None:
    """outcome and game_value over random declarations, bids, point and trick counts."""
    gt = data.draw(st.sampled_from([*DECLARED_TYPES, ref.REVERSED]), label="game type")
    pickup = data.draw(st.booleans(), label="pickup")
    flags = ref.implied_flags(gt, _draw_flags(data, gt, pickup))
    cards12 = data.draw(_twelve_cards(gt), label="cards")
    tricks = data.draw(st.integers(0, 10), label="tricks")
    if tricks == 10:
        points = 120
    elif tricks == 0:
        points = data.draw(st.integers(0, 21), label="points")  # the skat alone holds at most A + 10
    else:
        points = data.draw(st.integers(0, 120), label="points")
    bid = data.draw(st.sampled_from([int(v) for v in BID_VALUES]), label="bid")
    forfeit = data.draw(st.booleans(), label="forfeit")
    expected = ref.outcome(gt, flags, bid, cards12, points, tricks, forfeit)
    got = outcome(gt, flags, bid, np.uint32(_mask(cards12)), points, tricks, forfeit)
    assert tuple(got) == expected.as_tuple()
    mat = ref.matadors(gt, cards12)
    for schneider, schwarz in itertools.product((False, True), repeat=2):
        assert game_value(gt, flags, mat, schneider, schwarz) == ref.game_value(gt, flags, mat, schneider, schwarz)


def test_declaration_rules_match_the_reference() -> None:
    """Every (game type, flags, pickup) combination: legality and implied announcements."""
    official = official_params()
    for gt, flags, pickup in itertools.product(range(-1, 9), range(16), (False, True)):
        if not pickup and not flags & HAND:
            continue  # a hand game always carries HAND as the declarer says it
        legal = declaration.declaration_error(gt, flags, pickup, official) == declaration.OK
        assert legal == ref.declaration_legal(gt, flags, pickup), (gt, flags, pickup)
        if legal:
            assert declaration.normalise_flags(gt, flags) == ref.implied_flags(gt, flags)
