"""Game types and the card-order tables every rule kernel reads.

A game type is a small int. For each one this module derives, once, at
import time, the tables that make trick play branch-free:

* ``TRUMPS[gt]`` — mask of the trump cards (jacks belong to the trump suit
  in suit games and Grand, RULES.md §4);
* ``GROUP[gt, card]`` — the "suit" a card follows: 0..3 for a plain suit,
  ``TRUMP_GROUP`` (4) for a trump;
* ``GROUP_MASK[gt, group]`` — the cards of each group;
* ``POWER[gt, card]`` — trick strength: ``TRUMP_POWER + k`` for trumps,
  0..7 in the plain-suit order otherwise;
* ``TRUMP_SEQ[gt]`` — trumps from the top down, for matadors;
* ``ABOVE[gt, card]`` — mask of the cards of the same group that outrank it;
* ``BEATERS[gt, card]`` — the cards that take a trick this card is winning.

The reversed game (Sächsische Spitze, RULES.md §6) and Ramsch are game
types here so that the same kernels play them; variant keys decide whether
they can occur.
"""

from __future__ import annotations

import numpy as np

from .cards import ACE, CLUBS, DIAMONDS, EIGHT, HEARTS, JACK, KING, NINE, QUEEN, SEVEN, SPADES, TEN, card

DIAMONDS_GAME, HEARTS_GAME, SPADES_GAME, CLUBS_GAME = DIAMONDS, HEARTS, SPADES, CLUBS
GRAND = 4
NULL = 5
RAMSCH = 6
REVERSED = 7
N_GAME_TYPES = 8
#: Game-type code of a deal that was not played (all passed, official rules).
PASSED = -1
#: Game-type code of a recorded deal aborted before any declaration (ISS penalty).
ABORTED = -2

GAME_TYPE_NAMES = ("diamonds", "hearts", "spades", "clubs", "grand", "null", "ramsch", "reversed")
#: Every value the ``game_type`` column can take, by code.
GAME_TYPE_LABELS = {PASSED: "passed", ABORTED: "aborted", **dict(enumerate(GAME_TYPE_NAMES))}
#: ISS declaration letters of the types the server knows.
ISS_LETTERS = {"D": DIAMONDS_GAME, "H": HEARTS_GAME, "S": SPADES_GAME, "C": CLUBS_GAME, "G": GRAND, "N": NULL}

#: Base value (Grundwert) of suit games, Grand and the reversed game (RULES.md §3, §6).
BASE_VALUE = np.array([9, 10, 11, 12, 24, 0, 0, 20], dtype=np.int64)
#: Null values indexed by ``hand + 2 * ouvert``: Null 23, hand 35, ouvert 46, ouvert hand 59.
NULL_VALUES = np.array([23, 35, 46, 59], dtype=np.int64)

TRUMP_GROUP = 4
#: Trumps outrank every plain card (plain powers are 0..7).
TRUMP_POWER = 64

_JACKS_LOW_TO_HIGH = [card(s, JACK) for s in (DIAMONDS, HEARTS, SPADES, CLUBS)]
_PLAIN_LOW_TO_HIGH = [SEVEN, EIGHT, NINE, QUEEN, KING, TEN, ACE]  # suit and Grand, jacks excluded
_NULL_LOW_TO_HIGH = [SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE]
# Reversed game (RULES.md §6, seed 000): "7 8 9 10 Q K A" highest first, so the 10 sits between 9 and Q
# (the natural order reversed, not the Grand order 7 8 9 Q K 10 A reversed).
_REVERSED_LOW_TO_HIGH = [ACE, KING, QUEEN, TEN, NINE, EIGHT, SEVEN]


def _trumps_low_to_high(gt: int) -> list[int]:
    if gt <= CLUBS_GAME:
        return [card(gt, r) for r in _PLAIN_LOW_TO_HIGH] + _JACKS_LOW_TO_HIGH
    if gt in (GRAND, RAMSCH):
        return list(_JACKS_LOW_TO_HIGH)
    if gt == REVERSED:
        return list(reversed(_JACKS_LOW_TO_HIGH))  # DJ highest
    return []


def _plain_low_to_high(gt: int) -> list[int]:
    if gt == NULL:
        return _NULL_LOW_TO_HIGH
    if gt == REVERSED:
        return _REVERSED_LOW_TO_HIGH
    return _PLAIN_LOW_TO_HIGH


def _build_tables() -> tuple[np.ndarray, ...]:
    trumps = np.zeros(N_GAME_TYPES, dtype=np.uint32)
    group = np.zeros((N_GAME_TYPES, 32), dtype=np.int64)
    group_mask = np.zeros((N_GAME_TYPES, 5), dtype=np.uint32)
    power = np.zeros((N_GAME_TYPES, 32), dtype=np.int64)
    trump_seq = np.full((N_GAME_TYPES, 11), -1, dtype=np.int64)
    n_trump_seq = np.zeros(N_GAME_TYPES, dtype=np.int64)
    for gt in range(N_GAME_TYPES):
        trump_list = _trumps_low_to_high(gt)
        for k, c in enumerate(trump_list):
            trumps[gt] |= np.uint32(1 << c)
            group[gt, c] = TRUMP_GROUP
            power[gt, c] = TRUMP_POWER + k
        for k, c in enumerate(reversed(trump_list)):
            trump_seq[gt, k] = c
        n_trump_seq[gt] = len(trump_list)
        for suit in range(4):
            for k, rank in enumerate(_plain_low_to_high(gt)):
                c = card(suit, rank)
                if group[gt, c] != TRUMP_GROUP:
                    group[gt, c] = suit
                    power[gt, c] = k
        for c in range(32):
            group_mask[gt, group[gt, c]] |= np.uint32(1 << c)
    above = np.zeros((N_GAME_TYPES, 32), dtype=np.uint32)
    for gt in range(N_GAME_TYPES):
        for c in range(32):
            for x in range(32):
                if group[gt, x] == group[gt, c] and power[gt, x] > power[gt, c]:
                    above[gt, c] |= np.uint32(1 << x)
    for table in (trumps, group, group_mask, power, trump_seq, n_trump_seq, above):
        table.flags.writeable = False
    return trumps, group, group_mask, power, trump_seq, n_trump_seq, above


TRUMPS, GROUP, GROUP_MASK, POWER, TRUMP_SEQ, N_TRUMP_SEQ, ABOVE = _build_tables()


def _beaters() -> np.ndarray:
    """``BEATERS[gt, card]``: the cards that take a trick from ``card`` when it is winning the trick
    so far (so it is of the led group, or a trump): higher cards of its group, and every trump
    over a plain card (RULES.md §4)."""
    table = ABOVE.copy()
    for gt in range(N_GAME_TYPES):
        for c in range(32):
            if GROUP[gt, c] != TRUMP_GROUP:
                table[gt, c] |= TRUMPS[gt]
    table.flags.writeable = False
    return table


BEATERS = _beaters()


def _trump_seq_bits() -> np.ndarray:
    """``TRUMP_SEQ_BITS[gt, suit, byte]``: the trumps among a suit's cards (its byte of a hand mask)
    as bits of the trump sequence, the top trump at bit ``N_TRUMP_SEQ[gt] - 1``; OR-ing the four
    suits' entries gives a hand's trumps in sequence order, for counting matadors."""
    table = np.zeros((N_GAME_TYPES, 4, 256), dtype=np.uint32)
    for gt in range(N_GAME_TYPES):
        n = int(N_TRUMP_SEQ[gt])
        for k in range(n):
            c = int(TRUMP_SEQ[gt, k])
            for b in range(256):
                if b >> (c % 8) & 1:
                    table[gt, c // 8, b] |= np.uint32(1 << (n - 1 - k))
    table.flags.writeable = False
    return table


TRUMP_SEQ_BITS = _trump_seq_bits()


def game_type_code(name: str) -> int:
    """Code of a game-type name (``clubs``, ``grand``, ``null``, ...)."""
    for code, label in GAME_TYPE_LABELS.items():
        if label == name:
            return code
    raise ValueError(f"unknown game type {name!r}; expected one of {', '.join(GAME_TYPE_LABELS.values())}")
