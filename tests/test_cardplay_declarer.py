"""The declarer's card play in suit games and Grand: exact positions (issue 13, the suit declarer)."""

from __future__ import annotations

import numpy as np
from handmade import bot_card as _choice
from handmade import in_play as _state

from skatsim.engine.cards import parse_card
from skatsim.engine.gametypes import GRAND, GROUP
from skatsim.engine.gametypes import HEARTS_GAME as HEARTS

FH, MH, RH = 0, 1, 2


# Hearts; the declarer's hand (void in spades, ST S8 put away), the spade leader's and the other defender's.
_DECL = "CJ SJ HT HK H8 H7 DA DT CA C7"
_LEADER = "SA SK S9 HJ DJ HA D9 D8 C8 C9"
_OTHER = "SQ S7 HQ H9 DK DQ D7 CK CQ CT"
_SKAT = "ST S8"


def test_the_declarer_last_to_a_side_lead_he_is_void_in_ruffs_with_his_trump_ten() -> None:
    """Hearts, RH declares, void in spades: FH leads SA, MH follows S7. The declarer ruffs with HT,
    which banks its 10 card points (a defender's jack would catch it later), not with H7, the lowest
    trump, as before."""
    assert _choice(_state(HEARTS, RH, _LEADER, _OTHER, _DECL, _SKAT, "SA S7")) == "HT"


def test_the_declarer_second_to_a_side_lead_ruffs_with_his_ten_unless_the_next_defender_is_void() -> None:
    """Hearts, MH declares, void in spades: FH leads SA. With RH, behind him, not known void in
    spades the declarer ruffs with HT, not with SJ (his lowest sure trump, as before: a jack spent on
    a side trick). When RH has shown a spade void (he could overruff the ten) he keeps to SJ."""
    state = _state(HEARTS, MH, _LEADER, _DECL, _OTHER, _SKAT, "SA")
    assert _choice(state) == "HT"
    voids = np.zeros(3, dtype=np.int64)
    voids[RH] = 1 << int(GROUP[HEARTS, parse_card("S7")])
    assert _choice(state, voids) == "SJ"


def test_without_the_ten_the_declarer_ruffs_with_his_richest_trump_below_the_jacks() -> None:
    """Hearts, MH declares, void in spades, without HT (RH holds it) and HA (FH holds it): FH leads SA
    and the declarer ruffs with HK, his richest trump below the jacks, keeping CJ and SJ for trump
    control (before: SJ, his lowest sure trump, a jack spent on a side trick); last to the trick, after
    SA S7, with HK too (before: H7)."""
    decl = "CJ SJ HK HQ H8 H7 DA DT CA C7"
    other = "SQ S7 HT H9 DK DQ D7 CK CT C8"
    leader = "SA SK S9 HJ DJ HA D9 D8 CQ C9"
    assert _choice(_state(HEARTS, MH, leader, decl, other, _SKAT, "SA")) == "HK"
    assert _choice(_state(HEARTS, RH, leader, other, decl, _SKAT, "SA S7")) == "HK"


def test_the_declarer_ruffs_with_his_trump_ace_unless_it_is_a_master() -> None:
    """Hearts, MH declares, void in spades, with HA and without HT: FH leads SA. While a jack is unseen
    the ace is no master (a jack could take it later), so he ruffs with it and banks 11 card points;
    holding all four jacks his ace is a master, a trick of its own to come, and he ruffs with HK."""
    decl = "CJ SJ HA HK HQ H7 DA DT CA C7"
    other = "SQ S7 HT H9 DK DQ D7 CK CT C8"
    leader = "SA SK S9 HJ DJ H8 D9 D8 CQ C9"
    assert _choice(_state(HEARTS, MH, leader, decl, other, _SKAT, "SA")) == "HA"
    jacks = "CJ SJ HJ DJ HA HK HQ DA CA C7"
    leader = "SA SK S9 H7 DT H8 D9 D8 CQ C9"
    assert _choice(_state(HEARTS, MH, leader, jacks, other, _SKAT, "SA")) == "HK"


def test_the_declarer_last_to_a_trick_without_card_points_ruffs_only_with_a_ten_or_an_ace() -> None:
    """Hearts, RH declares, void in spades, without HT and HA: after S9 S8 (no card points) he does not
    spend a trump on the trick and throws his cheapest card, C7."""
    decl = "CJ SJ HK HQ H8 H7 DA DT CA C7"
    leader = "S9 SK SA HJ DJ HA D9 D8 CQ C9"
    other = "S8 S7 HT H9 DK DQ D7 CK CT C8"
    assert _choice(_state(HEARTS, RH, leader, other, decl, "ST SQ", "S9 S8")) == "C7"


def test_the_declarer_draws_trumps_with_a_jack_rather_than_his_trump_ten() -> None:
    """Hearts, FH declares and leads: his trumps SJ and HT, CJ unseen (SJ no master), and no side
    master to cash (SK, DK, CK with the aces out). He draws trumps with SJ, not HT (his lowest trump,
    as before: a ten led into seven unseen trumps is ten card points for the defence)."""
    decl = "SJ HT SK SQ S9 DK DQ D9 CK CQ"
    state = _state(HEARTS, FH, decl, "CJ HJ HA HK H9 SA ST S7 DA D7", "DJ HQ H8 H7 S8 DT D8 CA CT C9", "C8 C7")
    assert _choice(state) == "SJ"


def test_the_declarer_draws_trumps_holding_one_fewer_than_the_defenders() -> None:
    """Hearts, FH declares (HT H7 put away) and leads with SJ DJ H9 H8 against five unseen trumps (CJ
    HJ HA HK HQ): one fewer than the defenders now suffices to draw trumps, with H8, before he cashes
    his side aces (before: only with more trumps than theirs, so he led an ace)."""
    state = _state(
        HEARTS,
        FH,
        "SJ DJ H9 H8 SA SK CA CK DA DK",
        "CJ HJ HA S7 S8 S9 C7 C8 D7 D8",
        "HK HQ ST SQ CT CQ C9 DT DQ D9",
        "HT H7",
    )
    assert _choice(state) == "H8"


def test_the_grand_declarer_void_in_a_cheap_trick_throws_a_loser_and_keeps_his_jacks() -> None:
    """Grand, RH declares, void in diamonds: FH leads D7, MH plays DQ (3 card points). Last to the
    trick, he throws S7, his one loser (CA and the hearts are masters), and keeps his jacks for trump
    control (before: DJ, his lowest jack, on 3 points). When MH plays DA instead (11 card points) he
    ruffs it with DJ."""
    fh = "D7 D8 D9 SA SK S9 C8 C9 CK H7"
    mh = "DT DA DQ CT ST H8 CQ SQ S8 H9"
    decl = "CJ SJ HJ DJ CA S7 HT HK HQ HA"
    assert _choice(_state(GRAND, RH, fh, mh, decl, "C7 DK", "D7 DQ")) == "S7"
    assert _choice(_state(GRAND, RH, fh, mh, decl, "C7 DK", "D7 DA")) == "DJ"
