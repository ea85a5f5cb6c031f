"""Compact numeric rule parameters: the contract between variants and kernels.

A validated variant (:mod:`skatsim.variant`) compiles to one ``int64`` array
of length ``N_PARAMS``; kernels read it by the index constants below, so a
new house rule is one constant here, one key in the variant model and one
branch in the kernel that uses it. The official rules' values are those of a variant that
changes nothing (:func:`skatsim.variant.official_params`).
"""

from __future__ import annotations

from enum import IntEnum

#: Multiple of the game value a lost game costs (2 since 1999, ISkO 5.7).
LOST_FACTOR = 0
#: The same for a lost hand game (1 under the pre-1999 rules, RULES.md §6).
LOST_HAND_FACTOR = 1
#: 1 when Seeger-Fabian list points are kept (RULES.md §5).
LIST_SCORING = 2
#: List points added for a won game, subtracted for a lost one (50).
LIST_WON_BONUS = 3
LIST_LOST_MALUS = 4
#: List points each other player gets when the declarer loses (40 at a 3-player table; 30 at a 4-player
#: table, where the dealer sitting out gets them too).
LIST_DEFENDER_BONUS = 5
#: 1 when the reversed game (Sächsische Spitze) may be declared.
REVERSED_ALLOWED = 6

# --- House rules of RULES.md §6 (variant keys in parentheses; enums as small ints) ---

#: What happens when all three pass (``all_pass``): 0 redeal (official, the deal is
#: counted as ``passed``), 1 Ramsch, 2 Schieberamsch. See ``ALL_PASS_CODES``.
ALL_PASS = 7
#: Whose card points the skat adds to in a Ramsch (``ramsch.skat_to``): 0 the winner of
#: the last trick, 1 the loser (of several tied for most points, the one who won the later trick),
#: 2 nobody (the skat is not counted), 3 each loser (every player tied for most points, xskat).
RAMSCH_SKAT_TO = 8
#: Tie for most card points in a Ramsch (``ramsch.tie``): 0 every tied player loses the
#: full amount, 1 the tied player who took the last trick loses, 2 the tied players share
#: the loss (how a 40:40:40 loss splits and rounds is the kernel's documented, tested decision).
RAMSCH_TIE = 9
#: How a Ramsch is scored (``ramsch.scoring``): 0 the loser's card points, 1 fixed values
#: (``RAMSCH_FIXED_BASE`` + ``RAMSCH_FIXED_PER_JUNGFRAU`` per Jungfrau), 2 "winner Ramsch"
#: (the player with fewest points wins ``RAMSCH_WINNER_SINGLE``, two tied ``RAMSCH_WINNER_TIED``).
RAMSCH_SCORING = 10
#: Fixed Ramsch loss without a Jungfrau (``ramsch.fixed_values.base``, 10).
RAMSCH_FIXED_BASE = 11
#: Added to the fixed loss per Jungfrau (``ramsch.fixed_values.per_jungfrau``, 5: 10/15/20).
RAMSCH_FIXED_PER_JUNGFRAU = 12
#: Winner-Ramsch value for a single winner (``ramsch.winner_values.single``, 23).
RAMSCH_WINNER_SINGLE = 13
#: Winner-Ramsch value for each of two tied winners (``ramsch.winner_values.tied``, 37).
RAMSCH_WINNER_TIED = 14
#: 1 when each player without a trick (Jungfrau) doubles the loss (``ramsch.jungfrau``);
#: under fixed scoring a Jungfrau adds ``RAMSCH_FIXED_PER_JUNGFRAU`` instead of doubling.
RAMSCH_JUNGFRAU = 15
#: 1 when a player taking every trick wins (Durchmarsch, ``ramsch.durchmarsch``); 0: he is
#: the loser like anyone with most points (doubled per Jungfrau).
RAMSCH_DURCHMARSCH = 16
#: What a Durchmarsch wins (``ramsch.durchmarsch_value``, 120).
RAMSCH_DURCHMARSCH_VALUE = 17
#: 1 when a player may declare Grand hand before the Ramsch starts (``ramsch.grand_hand_instead``); 2 only
#: before a Ramsch of a Bock list's Ramsch round (xskat).
RAMSCH_GRAND_HAND = 18
#: 1 when jacks may be passed on in Schieberamsch (``schieberamsch.jacks_may_be_pushed``).
SCHIEBE_JACKS = 19
#: Which Schieberamsch action doubles (``schieberamsch.doubling``): 0 passing the skat on
#: unseen ("decline"; three declines x8, as in the seeds), 1 every push (pick up and pass two cards).
SCHIEBE_DOUBLING = 20
#: 1 when defenders may say Kontra and the declarer Re (``kontra.enabled``).
KONTRA_ENABLED = 21
#: When Kontra may be said (``kontra.when``): 0 before the first card, 1 right after the declaration.
KONTRA_WHEN = 22
#: 1 when only a defender who bid or held at least 18 may say Kontra (``kontra.only_if_bid``).
KONTRA_ONLY_IF_BID = 23
#: Further doublings allowed after Re (``kontra.beyond_re``): 0 none (Re x4 is the top),
#: 1 Bock/Hirsch/Supra x8, 2 one more x16, 3 x32.
KONTRA_BEYOND_RE = 24
#: 1 when Kontra/Re also multiply the Seeger-Fabian +50/-50/+40 (``kontra.multiplies_list_points``).
KONTRA_LIST_POINTS = 25
#: 1 when Bock rounds are played (``bock.enabled``).
BOCK_ENABLED = 26
#: Events that queue a Bock round (``bock.events``): bit ``BOCK_EVENT_BITS[name]`` set per event.
BOCK_EVENTS = 27
#: Score multiplier inside a Bock round (``bock.multiplier``, 2).
BOCK_MULTIPLIER = 28
#: 1 when the deal that triggers a Bock round itself counts with the multiplier (``bock.trigger_counts_double``).
BOCK_TRIGGER_DOUBLE = 29
#: Round of compulsory Ramsch after each Bock round (``bock.ramsch_round_after`` and
#: ``bock.ramsch_round_kind``): 0 none, 1 Ramsch, 2 Schieberamsch (the codes of ``ALL_PASS``).
BOCK_RAMSCH_ROUND = 30
#: Deals per list when the variant needs sequences of deals (Bock rounds, Seeger-Fabian lists or a
#: four-player table: ``tournament.list_length``, ``bock.list_length``, else 12 per player); 0: independent deals.
LIST_LENGTH = 31
#: 1 when every deal is a Ramsch, without bidding (``ramsch.every_deal``; Ramsch as a game of
#: its own, xskat's ``-ramschonly``); the kind of Ramsch is ``ALL_PASS`` (1 or 2).
RAMSCH_EVERY_DEAL = 32
#: A three-way tie for most card points (40:40:40) (``ramsch.three_way_tie``): 0 scored by ``RAMSCH_TIE``,
#: 1 nobody loses: every player scores 0 (xskat).
RAMSCH_THREE_WAY_TIE = 33
#: A Grand hand declared instead of a Ramsch in a Bock list's Ramsch round (``bock.ramsch_round_grand_hand``):
#: 0 it counts as one of the round's deals, 1 it does not: the same dealer deals again (xskat).
BOCK_RAMSCH_ROUND_GRAND = 34
#: 1 when a running total returning to 0 counts for the running-total Bock events (``bock.zero_total_counts``;
#: xskat: 0 is a multiple of 100 and three equal digits, 000).
BOCK_ZERO_TOTAL = 35
#: Bock rounds a deal with several events queues (``bock.rounds_per_deal``): 0 one, 1 one per event (xskat).
BOCK_PER_EVENT = 36
#: A Grand ouvert's value (``scoring.grand_ouvert``): 0 base value 24 with ouvert one more multiplier level
#: (ISkO 1999), 1 base value 36 without the ouvert level (pre-1999 rules, xskat's -oldrules).
GRAND_OUVERT_36 = 37
#: Players at the table (``table.players``): 3, or 4 (the dealer sits out each deal; RULES.md §1).
TABLE_PLAYERS = 38
N_PARAMS = 39

#: ``all_pass`` names and their codes (also used by ``BOCK_RAMSCH_ROUND``).
ALL_PASS_CODES = {"redeal": 0, "ramsch": 1, "schieberamsch": 2}
RAMSCH_SKAT_TO_CODES = {"last_trick": 0, "loser": 1, "nobody": 2, "each_loser": 3}
RAMSCH_TIE_CODES = {"all_lose": 0, "last_trick_loses": 1, "share": 2}
RAMSCH_THREE_WAY_TIE_CODES = {"by_tie_rule": 0, "nobody_loses": 1}
RAMSCH_SCORING_CODES = {"points": 0, "fixed": 1, "winner": 2}
SCHIEBE_DOUBLING_CODES = {"decline": 0, "push": 1}
KONTRA_WHEN_CODES = {"before_first_card": 0, "after_declaration": 1}
BOCK_RAMSCH_ROUND_GRAND_CODES = {"counts": 0, "deals_again": 1}
BOCK_PER_EVENT_CODES = {"one": 0, "per_event": 1}
GRAND_OUVERT_CODES = {"official": 0, "base_36": 1}
#: ``ramsch.grand_hand_instead`` values and their codes at ``RAMSCH_GRAND_HAND``: 2 offers it only in a Bock
#: list's Ramsch round (xskat), not in a Ramsch after all passed.
RAMSCH_GRAND_HAND_CODES = {False: 0, True: 1, "ramsch_rounds": 2}


class BockBit(IntEnum):
    """Bock events and their bits in ``BOCK_EVENTS`` (RULES.md §6), named as the kernels test them.
    ``SIXTY_SIXTY`` and ``LOST_SIXTY_SIXTY`` are one event (60:60 always loses under the ISkO), so
    one bit (the second name is an alias)."""

    ALL_PASSED = 1 << 0  # all three passed (redealt or played as Ramsch)
    KONTRA_RE = 1 << 1  # Kontra and Re were both said
    LOST_AFTER_KONTRA = 1 << 2  # a game lost after Kontra (by either side)
    SIXTY_SIXTY = 1 << 3  # a suit or Grand game ending 60:60
    LOST_SIXTY_SIXTY = 1 << 3  # the same event under its other name
    LOST_GRAND = 1 << 4  # any lost Grand
    LOST_GRAND_HAND = 1 << 5  # a lost Grand hand
    VALUE_100 = 1 << 6  # a game value of 100 or more (won or lost)
    WON_GRAND_HAND = 1 << 7  # a won Grand hand
    WON_NULL_OUVERT_HAND = 1 << 8  # a won Null ouvert hand
    TOTAL_MULTIPLE_100 = 1 << 9  # a player's running total reaches a multiple of 100
    TOTAL_THREE_EQUAL_DIGITS = 1 << 10  # a player's running total ends in three equal digits (111, 222, 1000)
    WON_VALUE_72 = 1 << 11  # a won game worth 72 or more (before any doubling; xskat's "+72")
    WON_VALUE_96 = 1 << 12  # a won game worth 96 or more (xskat's "+96")


#: The Bock events by their names in ``bock.events`` (:class:`BockBit`, aliases included) and their bits.
BOCK_EVENT_BITS = {name.lower(): int(bit) for name, bit in BockBit.__members__.items()}
