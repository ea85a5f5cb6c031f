"""Card encoding and notation.

A card is an int 0..31: ``suit * 8 + rank``. A set of cards (a hand, a trick
history, the skat) is a ``uint32`` mask with bit ``card`` set.

* suit: 0 diamonds, 1 hearts, 2 spades, 3 clubs — ascending base value
  (9, 10, 11, 12), and the order of the jacks (DJ lowest, CJ highest).
* rank: 0 seven, 1 eight, 2 nine, 3 ten, 4 jack, 5 queen, 6 king, 7 ace — the
  natural order, which is also the Null order (A K Q J 10 9 8 7).

ISS notation is suit letter + rank letter (``CJ``, ``HT``, ``D7``); the
display form uses suit symbols (``♣J``, ``♥10``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

N_CARDS = 32
DIAMONDS, HEARTS, SPADES, CLUBS = 0, 1, 2, 3
SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

SUIT_LETTERS = "DHSC"
RANK_LETTERS = "789TJQKA"
SUIT_SYMBOLS = "♦♥♠♣"
RANK_DISPLAY = ("7", "8", "9", "10", "J", "Q", "K", "A")

#: Card points (Augen) by rank: 7 8 9 -> 0, 10 -> 10, J 2, Q 3, K 4, A 11.
RANK_POINTS = np.array([0, 0, 0, 10, 2, 3, 4, 11], dtype=np.int64)
#: Card points by card.
CARD_POINTS = np.array([RANK_POINTS[c % 8] for c in range(N_CARDS)], dtype=np.int64)


#: Mask of all cards of one rank: bit r of every suit byte.
def _rank_mask(rank: int) -> int:
    return sum(1 << (suit * 8 + rank) for suit in range(4))


JACKS = np.uint32(_rank_mask(JACK))
ACES = np.uint32(_rank_mask(ACE))
TENS = np.uint32(_rank_mask(TEN))
KINGS = np.uint32(_rank_mask(KING))
QUEENS = np.uint32(_rank_mask(QUEEN))
#: Mask of all 32 cards.
ALL_CARDS = np.uint32(0xFFFFFFFF)
#: Mask of one suit's eight cards (jacks included), by suit.
SUIT_MASKS = np.array([0xFF << (8 * s) for s in range(4)], dtype=np.uint32)


class CardError(ValueError):
    """A card name that is not one of the 32 cards."""


def card(suit: int, rank: int) -> int:
    """The card int for a suit and rank index."""
    return suit * 8 + rank


def parse_card(text: str) -> int:
    """Parse ISS notation (``CJ``, ``HT``, ``D7``) to a card int."""
    if len(text) != 2 or text[0] not in SUIT_LETTERS or text[1] not in RANK_LETTERS:
        raise CardError(f"unknown card {text!r} (expected suit C/S/H/D + rank A/T/K/Q/J/9/8/7, e.g. CJ)")
    return SUIT_LETTERS.index(text[0]) * 8 + RANK_LETTERS.index(text[1])


def iss_name(c: int) -> str:
    """ISS notation of a card int."""
    return SUIT_LETTERS[c // 8] + RANK_LETTERS[c % 8]


#: :func:`iss_name` of every card, by card int: a lookup for code that names many cards (game records).
ISS_NAMES: tuple[str, ...] = tuple(iss_name(c) for c in range(N_CARDS))


def display_name(c: int) -> str:
    """Human display of a card int (``♣J``, ``♥10``)."""
    return SUIT_SYMBOLS[c // 8] + RANK_DISPLAY[c % 8]


def to_mask(cards: Iterable[int]) -> int:
    """Mask of a collection of card ints; duplicates are an error."""
    mask = 0
    for c in cards:
        if mask >> c & 1:
            raise CardError(f"card {iss_name(c)} given twice")
        mask |= 1 << c
    return mask


def from_mask(mask: int) -> list[int]:
    """Card ints of a mask, ascending (bits 0..31; any others are not cards)."""
    mask = int(mask) & ((1 << N_CARDS) - 1)
    cards = []
    while mask:
        low = mask & -mask  # the lowest card left
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def parse_cards(text: str, sep: str = ".") -> list[int]:
    """Parse a separated list of ISS card names (``CJ.SJ.HA``)."""
    return [parse_card(t) for t in text.split(sep) if t]


def format_cards(mask_or_cards: int | Iterable[int], display: bool = False) -> str:
    """A readable list of cards, highest suit first (clubs, spades, hearts, diamonds)."""
    cards = from_mask(mask_or_cards) if isinstance(mask_or_cards, int | np.integer) else list(mask_or_cards)
    cards.sort(key=lambda c: (-(c // 8), -c))
    name = display_name if display else iss_name
    return " ".join(name(c) for c in cards)
