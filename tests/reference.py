"""A deliberately naive reference of the Skat trick and scoring rules: a test oracle.

Written from ``RULES.md`` §1, §4, §5 (and the reversed game of §6), not from the
kernels: it works on card *names* (``"CJ"``, ``"HT"``), lists and plain ``if``
statements, trading every bit of speed for being easy to check by eye. Only the
integer card encoding (``suit * 8 + rank``) and the flag bits are shared with
:mod:`skatsim`, because those are the interface the two are compared over.

It is a test tool, never a second engine: it plays one game slowly so that
property tests can compare every step of the compiled kernels against it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

# ---------------------------------------------------------------- encoding (RULES.md §1)

SUIT_LETTERS = "DHSC"  # card // 8: diamonds, hearts, spades, clubs
RANK_LETTERS = "789TJQKA"  # card % 8
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

DIAMONDS, HEARTS, SPADES, CLUBS, GRAND, NULL, RAMSCH, REVERSED = range(8)
SUIT_GAMES = (DIAMONDS, HEARTS, SPADES, CLUBS)

HAND, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED, OUVERT = 1, 2, 4, 8

BASE_VALUES = {DIAMONDS: 9, HEARTS: 10, SPADES: 11, CLUBS: 12, GRAND: 24, REVERSED: 20}
#: Null values by (hand, ouvert): Null 23, hand 35, ouvert 46, ouvert hand 59 (RULES.md §3).
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}


def name(card: int) -> str:
    """ISS name of a card int (``27`` -> ``"CJ"``)."""
    return SUIT_LETTERS[card // 8] + RANK_LETTERS[card % 8]


def card_of(card_name: str) -> int:
    """Card int of an ISS name (``"CJ"`` -> ``27``)."""
    return SUIT_LETTERS.index(card_name[0]) * 8 + RANK_LETTERS.index(card_name[1])


def points_of(cards: Sequence[int]) -> int:
    """Card points (Augen) of some cards: A 11, 10 10, K 4, Q 3, J 2, else 0."""
    return sum(POINTS[name(c)[1]] for c in cards)


# ---------------------------------------------------------------- card order (RULES.md §4, §6)


def trumps_high_to_low(gt: int) -> list[str]:
    """Trump cards of a game type, highest first; empty for Null."""
    jacks = ["CJ", "SJ", "HJ", "DJ"]
    if gt in SUIT_GAMES:
        return jacks + [SUIT_LETTERS[gt] + rank for rank in "ATKQ987"]
    if gt in (GRAND, RAMSCH):
        return jacks
    if gt == REVERSED:
        return ["DJ", "HJ", "SJ", "CJ"]
    return []


def plain_order_high_to_low(gt: int) -> str:
    """Rank letters of a plain (non-trump) suit, highest first."""
    if gt == NULL:
        return "AKQJT987"
    if gt == REVERSED:
        return "789TQKA"  # RULES.md §6: "7 8 9 10 Q K A (highest first)"
    return "ATKQ987"


def suit_followed(gt: int, card: int) -> str:
    """What a card counts as when following: ``"trump"`` or its printed suit letter."""
    if name(card) in trumps_high_to_low(gt):
        return "trump"
    return name(card)[0]


def legal_cards(gt: int, hand: Sequence[int], led: int | None) -> list[int]:
    """Cards of ``hand`` that may be played to a trick led by ``led`` (``None``: leading)."""
    if led is None:
        return sorted(hand)
    following = [c for c in hand if suit_followed(gt, c) == suit_followed(gt, led)]
    if following:
        return sorted(following)
    return sorted(hand)


def trick_winner(gt: int, trick: Sequence[int]) -> int:
    """Position (0, 1, 2 from the leader) of the card that takes a three-card trick."""
    trumps = trumps_high_to_low(gt)
    order = plain_order_high_to_low(gt)
    led_suit = suit_followed(gt, trick[0])
    best = 0
    for pos in (1, 2):
        challenger, holder = name(trick[pos]), name(trick[best])
        if challenger in trumps:
            if holder not in trumps or trumps.index(challenger) < trumps.index(holder):
                best = pos
        elif holder not in trumps and suit_followed(gt, trick[pos]) == led_suit:
            if order.index(challenger[1]) < order.index(holder[1]):
                best = pos
    return best


# ---------------------------------------------------------------- declarations (RULES.md §3)


def implied_flags(gt: int, flags: int) -> int:
    """Add what a declaration implies: ouvert (not Null) -> hand, Schneider, Schwarz; Schwarz -> Schneider."""
    if gt != NULL and flags & OUVERT:
        flags = flags | HAND | SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED
    if flags & SCHWARZ_ANNOUNCED:
        flags = flags | SCHNEIDER_ANNOUNCED
    return flags


def declaration_legal(gt: int, flags: int, picked_up: bool, reversed_allowed: bool = False) -> bool:
    """Whether a declaration may be made (flags as the declarer says them)."""
    if gt == RAMSCH or gt not in range(8):
        return False
    if gt == REVERSED and not reversed_allowed:
        return False
    announcements = flags & (SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED | OUVERT)
    if picked_up and flags & HAND:
        return False
    if gt == NULL:
        return not flags & (SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED)
    return not (picked_up and announcements)


# ---------------------------------------------------------------- evaluation (RULES.md §5)


def matadors(gt: int, cards12: Sequence[int]) -> int:
    """ "With N" (+N) or "without N" (-N) over the declarer's 12 cards; 0 without trumps (Null)."""
    if gt in (NULL, RAMSCH):
        return 0
    held = {name(c) for c in cards12}
    trumps = trumps_high_to_low(gt)
    has_top = trumps[0] in held
    run = 0
    for trump in trumps:
        if (trump in held) != has_top:
            break
        run += 1
    return run if has_top else -run


def game_value(gt: int, flags: int, mat: int, schneider: bool, schwarz: bool) -> int:
    """Base value x multiplier; Null has its fixed value. ``flags`` must include implied flags."""
    if gt == NULL:
        return NULL_VALUES[(bool(flags & HAND), bool(flags & OUVERT))]
    multiplier = abs(mat) + 1  # matadors + game
    if flags & HAND:
        multiplier += 1
    if schneider or flags & SCHNEIDER_ANNOUNCED:  # a missed announcement counts as reached
        multiplier += 1
    if flags & SCHNEIDER_ANNOUNCED:
        multiplier += 1
    if schwarz or flags & SCHWARZ_ANNOUNCED:
        multiplier += 1
    if flags & SCHWARZ_ANNOUNCED:
        multiplier += 1
    if flags & OUVERT:
        multiplier += 1
    return BASE_VALUES[gt] * multiplier


@dataclass(frozen=True)
class Result:
    """The declarer's result, in the same order as ``skatsim.engine.scoring.outcome`` returns it."""

    won: bool
    value: int
    overbid: bool
    schneider: bool
    schwarz: bool
    matadors: int

    def as_tuple(self) -> tuple[bool, int, bool, bool, bool, int]:
        """The fields as a plain tuple."""
        return (self.won, self.value, self.overbid, self.schneider, self.schwarz, self.matadors)


def outcome(
    gt: int, flags: int, bid: int, cards12: Sequence[int], points: int, tricks: int, forfeit: bool = False
) -> Result:
    """Win or loss, charged value and levels of a declared game (flags with implied flags)."""
    if gt == NULL:
        mat, schneider, schwarz = 0, False, False
        won = tricks == 0
    else:
        mat = matadors(gt, cards12)
        schneider = points <= 30 or points >= 90  # either side has <= 30
        schwarz = tricks == 0 or tricks == 10  # tricks, never points
        won = points >= 61
        if flags & SCHNEIDER_ANNOUNCED and points < 90:
            won = False
        if flags & SCHWARZ_ANNOUNCED and tricks < 10:
            won = False
    value = game_value(gt, flags, mat, schneider, schwarz)
    overbid = value < bid
    if overbid:
        won = False
        unit = value if gt == NULL else BASE_VALUES[gt]
        value = unit
        while value < bid:
            value += unit
    if forfeit:
        won = False
    return Result(won, value, overbid, schneider, schwarz, mat)


def deal_score(won: bool, value: int, hand: bool, lost_factor: int = 2, lost_hand_factor: int = 2) -> int:
    """The declarer's score: +value if won, else -factor x value (factor 2 since 1999)."""
    if won:
        return value
    return -(lost_hand_factor if hand else lost_factor) * value


def list_points(declarer: int, won: bool, score: int) -> list[int]:
    """Seeger-Fabian list points by seat at a 3-player table: +-50 to the declarer, +40 to each defender on a loss."""
    out = [0, 0, 0]
    if won:
        out[declarer] = score + 50
    else:
        out[declarer] = score - 50
        for seat in range(3):
            if seat != declarer:
                out[seat] = 40
    return out


# ---------------------------------------------------------------- play (RULES.md §4)


@dataclass
class PlayedGame:
    """What happened in one game played card by card."""

    cards: list[int] = field(default_factory=list)  # every card, in order
    legal: list[list[int]] = field(default_factory=list)  # legal cards before each card
    tricks: list[tuple[int, tuple[int, int, int], int]] = field(default_factory=list)  # (leader, cards, winner)
    points: list[int] = field(default_factory=lambda: [0, 0, 0])  # card points won in tricks, by seat
    won_tricks: list[int] = field(default_factory=lambda: [0, 0, 0])  # tricks won, by seat
    ended_early: bool = False


def play_game(
    gt: int,
    flags: int,
    declarer: int,
    hands: Sequence[Sequence[int]],
    choose: Callable[[int, list[int]], int],
) -> PlayedGame:
    """Play ten tricks (or fewer on an early end); ``choose(seat, legal)`` picks each card.

    Forehand (seat 0) leads first; the trick winner leads next. Null ends when the
    declarer takes a trick; an announced Schwarz ends when the defenders take one.
    """
    holding = [list(h) for h in hands]
    game = PlayedGame()
    leader = 0
    for _ in range(10):
        trick: list[int] = []
        for k in range(3):
            seat = (leader + k) % 3
            legal = legal_cards(gt, holding[seat], trick[0] if trick else None)
            card = choose(seat, legal)
            assert card in legal, f"{name(card)} is not legal for seat {seat}"
            game.legal.append(legal)
            game.cards.append(card)
            holding[seat].remove(card)
            trick.append(card)
        winner = (leader + trick_winner(gt, trick)) % 3
        game.tricks.append((leader, (trick[0], trick[1], trick[2]), winner))
        game.points[winner] += points_of(trick)
        game.won_tricks[winner] += 1
        leader = winner
        null_lost = gt == NULL and winner == declarer
        schwarz_lost = gt != NULL and flags & SCHWARZ_ANNOUNCED and winner != declarer
        if null_lost or schwarz_lost:
            game.ended_early = len(game.tricks) < 10
            break
    return game
