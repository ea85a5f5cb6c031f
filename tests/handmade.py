"""Helpers for hand-made deals in tests: cards, masks, deals and tricks written in ISS notation."""

from __future__ import annotations

import numpy as np

from skatsim.bots import cardplay
from skatsim.engine import play, rules
from skatsim.engine.cards import iss_name, parse_card, to_mask
from skatsim.records.record import GameResult
from skatsim.variant import official_params


def cards(text: str) -> tuple[int, ...]:
    """Card ints of space-separated ISS names."""
    return tuple(parse_card(t) for t in text.split())


def mask(text: str) -> np.uint32:
    """Card mask of space-separated ISS names."""
    return np.uint32(to_mask(cards(text)))


def deal(fh: str, mh: str, rh: str, skat: str) -> tuple[int, ...]:
    """The 32-card deal of a record: FH's 10, MH's 10, RH's 10, the skat."""
    dealt = cards(fh) + cards(mh) + cards(rh) + cards(skat)
    assert sorted(dealt) == list(range(32)), "a hand-made deal must hold every card once"
    return dealt


def tricks(*written: str) -> tuple[int, ...]:
    """Cards in playing order from tricks written as ``"CJ HJ DJ"`` (leader first)."""
    return tuple(c for trick in written for c in cards(trick))


def params(**changes: int) -> np.ndarray:
    """Official rule parameters with some entries changed (keys are ``skatsim.engine.rules`` constant names)."""
    values = official_params()
    for key, value in changes.items():
        values[getattr(rules, key)] = value
    return values


def expect(evaluation: GameResult, **expected: object) -> None:
    """Compare a subset of an evaluation's fields with exact values, all at once."""
    assert {key: getattr(evaluation, key) for key in expected} == expected


def in_play(gt: int, declarer: int, fh: str, mh: str, rh: str, skat: str, played: str = "") -> np.ndarray:
    """A game ``gt`` in play with these hands and skat, after the cards ``played`` (in order, FH leading)."""
    state = np.zeros(play.N_FIELDS, dtype=np.int64)
    hands = np.array([mask(fh), mask(mh), mask(rh)], dtype=np.uint32)
    play.new_play(state, gt, 0, declarer, hands, mask(skat))
    for c in cards(played):
        assert play.play_card(state, c) == play.OK
    return state


def bot_card(state: np.ndarray, voids: np.ndarray | None = None) -> str:
    """The card the heuristic bot plays for the seat to move (no voids known unless given), in ISS notation."""
    seat = int(play.to_move(state))
    return iss_name(cardplay.choose_card(state, seat, np.zeros(3, dtype=np.int64) if voids is None else voids))
