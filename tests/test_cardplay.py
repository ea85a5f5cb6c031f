"""The heuristic card play of the defenders: positions written out card by card, the bot's card for
the seat to move (:func:`skatsim.bots.cardplay.choose_card`)."""

from __future__ import annotations

import numpy as np
from handmade import bot_card as _choice
from handmade import cards as _cards
from handmade import in_play as _state

from skatsim.bots import cardplay
from skatsim.engine import play
from skatsim.engine.cards import parse_card
from skatsim.engine.gametypes import CLUBS_GAME as CLUBS
from skatsim.engine.gametypes import DIAMONDS_GAME as DIAMONDS
from skatsim.engine.gametypes import GRAND, GROUP, TRUMP_GROUP
from skatsim.engine.gametypes import HEARTS_GAME as HEARTS

FH, MH, RH = 0, 1, 2


# Grand, RH declares: FH leads through MH, the declarer plays last.
_FH = "CA SA H7 C8 C9 CK S9 SK D9 DT"
_MH = "CT ST HA H8 CQ SQ S8 D7 D8 H9"
_RH = "CJ SJ HJ DJ C7 S7 HT HK HQ DA"
_SKAT = "DQ DK"


def test_middlehand_takes_his_partners_lead_with_a_sure_card_while_the_defence_lacks_31() -> None:
    """FH leads H7; MH, with the declarer behind him, holds HA (no heart above it unseen): while the
    defence has under 31 card points he takes the trick with it instead of ducking with H8 (which lets
    the declarer's HT or HK through); with 42 (FH's CA and SA tricks, MH smearing CT and ST) he ducks as
    before. When the declarer is known to be void in hearts the ace is no sure trick: he ducks."""
    assert _choice(_state(GRAND, RH, _FH, _MH, _RH, _SKAT, "H7")) == "HA"
    after_two = _state(GRAND, RH, _FH, _MH, _RH, _SKAT, "CA CT C7 SA ST S7 H7")
    assert after_two[play.POINTS0 + FH] == 42
    assert _choice(after_two) == "H8"
    voids = np.zeros(3, dtype=np.int64)
    voids[RH] = 1 << int(GROUP[GRAND, parse_card("H7")])
    assert _choice(_state(GRAND, RH, _FH, _MH, _RH, _SKAT, "H7"), voids) == "H8"


_FH_LEAD = "SA SK S9 C9 C8 H7 H8 H9 D7 D8"
_MH_LEAD = "ST S8 CT CA HT HK D9 DT DK DQ"


def test_a_defender_cashes_a_master_king_while_the_defence_lacks_31() -> None:
    """FH has won SA ST S7 (21 card points) and leads again: SK is a master (SA and ST are gone) and he
    holds no master ace or ten, so while the defence lacks 31 he cashes it. When the first trick brought
    32 (the declarer, void in spades, threw HA onto it) he leads low as before."""
    lacking = _state(GRAND, RH, _FH_LEAD, _MH_LEAD, "CJ SJ HJ DJ S7 C7 HA HQ DA CK", "SQ CQ", "SA ST S7")
    assert lacking[play.POINTS0 + FH] == 21
    assert _choice(lacking) == "SK"
    saved = _state(GRAND, RH, _FH_LEAD, _MH_LEAD, "CJ SJ HJ DJ C7 HA HQ DA CK CQ", "S7 SQ", "SA ST HA")
    assert saved[play.POINTS0 + FH] == 32
    assert _choice(saved) != "SK"


def test_a_defender_keeps_his_jack_under_the_declarers_trump_trick() -> None:
    """Diamonds, FH declares (CT C7 discarded) and leads CJ; MH follows with D7. RH cannot beat it and
    holds SJ, DT and DK: he gives DK (4 points) and keeps SJ, the master once CJ has gone, instead of
    the cheapest card SJ (2 points; it took the declarer 93 card points, Schneider, in the game this
    position comes from). With SJ and DT only, the jack goes (a ten is 10 points)."""
    fh = "CJ HJ DJ DQ D9 D8 SA SQ SK H8"
    mh = "DA D7 CA CK CQ C9 C8 S9 HQ H7"
    assert _choice(_state(DIAMONDS, FH, fh, mh, "SJ DT DK ST S8 S7 HA HT HK H9", "CT C7", "CJ D7")) == "DK"
    assert _choice(_state(DIAMONDS, FH, fh, mh, "SJ DT SK ST S8 S7 HA HT HK H9", "CT C7", "CJ D7")) == "SJ"


def test_middlehand_ducks_a_trump_lead_with_a_queen_not_a_jack() -> None:
    """Diamonds, FH declares and leads D8; MH holds the trumps SJ and DQ, neither sure to hold the trick
    (CJ and DJ are out), and the trick holds no points: he plays DQ, keeping the jack, not SJ (the
    cheapest by points)."""
    state = _state(
        DIAMONDS,
        FH,
        "CJ HJ DJ DA D8 SA SK SQ HA H8",
        "SJ DQ CA CK CQ C9 C8 S9 HQ H7",
        "DT DK D9 D7 ST S8 S7 HT HK H9",
        "CT C7",
        "D8",
    )
    assert _choice(state) == "DQ"


def test_second_to_the_declarers_trump_lead_a_defender_wins_with_his_lowest_winner_not_his_master() -> None:
    """Hearts, FH declares and leads H8; MH holds CJ (a master) and HK, which beats H8 as surely, since
    only his partner plays after him. He takes the trick with HK and keeps CJ (before: with CJ, his
    lowest master; the first place where a pimc defence parts from the heuristic's most often,
    docs/bots.md, "Measured on rollouts")."""
    state = _state(
        HEARTS,
        FH,
        "SJ HA HT HQ H8 SA SK DA DK C7",
        "CJ HK H7 S7 S8 S9 D7 D8 C8 C9",
        "HJ DJ H9 SQ ST DQ DT CA CT CK",
        "D9 CQ",
        "H8",
    )
    assert _choice(state) == "HK"


def test_second_to_the_declarers_cheap_trump_lead_a_defender_keeps_his_master_trump() -> None:
    """Hearts, FH declares and leads H8 (no card points); MH's only winner is CJ, a master: a trick
    whenever he wants it, so he plays H7 and keeps it (before: CJ on the empty trick). Led HT (10 card
    points) he takes it with CJ."""
    fh = "SJ HA HT HQ H8 SA SK DA DK C7"
    mh = "CJ H7 S7 S8 S9 D7 D8 C8 C9 CK"
    rh = "HJ DJ H9 SQ ST DQ DT CA CT HK"
    assert _choice(_state(HEARTS, FH, fh, mh, rh, "D9 CQ", "H8")) == "H7"
    assert _choice(_state(HEARTS, FH, fh, mh, rh, "D9 CQ", "HT")) == "CJ"


def test_a_defender_smears_a_trump_onto_his_partners_trick_but_not_a_jack() -> None:
    """Clubs, FH declares; after DA and HA he leads CQ, MH takes it with HJ and RH, last, must follow
    with CJ C9 C8 C7: the trick is his side's, and he plays C7, not CJ (richest by two points, and a
    trump trick to come: it cost the defence 20 card points in the game this comes from)."""
    state = _state(
        CLUBS,
        FH,
        "SJ DJ CT CK CQ HA H9 H8 DA D8",
        "HJ CA SA ST S9 HT HQ H7 DK D7",
        "CJ C9 C8 C7 SK SQ S7 HK DT D9",
        "S8 DQ",
        "DA D7 D9 HA H7 HK CQ HJ",
    )
    assert _choice(state) == "C7"


# Grand, RH declares (ST DK discarded): after six tricks every heart but HT is gone and HJ is a trump.
_G_FH = "SK S9 S8 S7 HT HK HQ DA DT DQ"
_G_MH = "HJ CT C9 C8 SA SQ D9 H8 H7 D8"
_G_RH = "CJ SJ DJ CA CK CQ C7 HA H9 D7"
_G_PLAY = "DA D8 D7 DT D9 DJ CJ S7 HJ HA HQ H7 CA S8 C8 H9 HK H8"


def test_a_defender_reads_the_declarer_void_where_no_card_of_the_suit_is_left() -> None:
    """FH is on lead with HT, a master: every other heart has been played, so the declarer (who still
    holds SJ) is void in hearts though he never showed it, and would ruff it; FH does not cash it (the
    bots used to) but leads from his shortest suit, DQ. And when FH leads HT, MH does not smear SA onto
    it: no heart is left for the declarer, who ruffs (SJ took HT and CT, 22 points, in the game this
    comes from); he sheds C9."""
    state = _state(GRAND, RH, _G_FH, _G_MH, _G_RH, "ST DK", _G_PLAY)
    assert state[play.POINTS0 + FH] == 15
    assert _choice(state) == "DQ"
    state = _state(GRAND, RH, _G_FH, _G_MH, _G_RH, "ST DK", _G_PLAY + " HT")
    assert _choice(state) == "C9"


def test_middlehand_void_in_trumps_smears_onto_the_trick_his_partner_is_likely_to_take() -> None:
    """Hearts, FH declares (hand) and leads H7. MH holds no trump: seven trumps above H7 are unseen, most
    likely with RH behind him (with 3 or more above, the partner took the trick in 79-94% of such
    positions in the bots' games), so he smears CA instead of shedding D7 (the partner took it with HQ;
    the declarer made 98 card points where open-handed play holds him to 82). Once RH has shown a void
    in trumps he sheds D7 as before, and so he does once the defence holds its 31 card points (set here
    on the same cards)."""
    state = _state(
        HEARTS,
        FH,
        "DJ DA H7 H8 H9 HJ HK HA SJ CQ",
        "D7 D8 D9 DT S7 SK C7 C8 CK CA",
        "DQ DK HT HQ S8 S9 SA C9 CT CJ",
        "ST SQ",
        "H7",
    )
    assert _choice(state) == "CA"
    voids = np.zeros(3, dtype=np.int64)
    voids[RH] = 1 << TRUMP_GROUP
    assert _choice(state, voids) == "D7"
    saved = state.copy()
    saved[play.POINTS0 + RH] = 31
    assert _choice(saved) == "D7"


def _watched(
    gt: int, declarer: int, fh: str, mh: str, rh: str, skat: str, played: str
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_state` with the ``voids`` every player keeps as the cards fall
    (:func:`cardplay.note_voids`: voids shown, the declarer's plain cards)."""
    state = _state(gt, declarer, fh, mh, rh, skat)
    voids = np.zeros(3, dtype=np.int64)
    for c in _cards(played):
        cardplay.note_voids(state, int(play.to_move(state)), c, voids)
        assert play.play_card(state, c) == play.OK
    return state, voids


# Grand, FH declares and leads D7; MH takes it with DA (the cards, then the skat and the cards played).
_LED_BACK = (
    GRAND,
    FH,
    "HJ DJ DT D9 D7 SA ST HA HT CA",
    "DA DK CJ SJ HK H9 H8 SK S9 C7",
    "DQ D8 HQ H7 SQ S8 S7 CT CK CQ",
    "C9 C8",
    "D7 DA D8",
)


def test_against_grand_a_defender_does_not_lead_back_the_suit_the_declarer_led() -> None:
    """Grand, FH declares and leads D7; MH takes it with DA and leads, the declarer playing last: his
    shortest suit, but not diamonds (DK, a king into the declarer's DT), which the declarer led: C7.
    Without the declarer's lead noted (no ``voids`` kept) he leads DK."""
    state, voids = _watched(*_LED_BACK)
    assert _choice(state, voids) == "C7"
    assert _choice(state) == "DK"


# Grand, RH declares, void in spades: FH leads.
_F_FH = "SQ S9 S8 H9 H8 H7 D9 D8 C9 C8"
_F_MH = "SA ST SK S7 HQ DQ D7 CA CT CK"
_F_RH = "CJ SJ HJ DJ HA HT HK DA DT DK"


def test_a_defender_forces_the_declarer_to_trump_with_a_low_card_of_his_void() -> None:
    """Grand, RH declares and has shown a void in spades; FH, on lead with no master, leads a low
    spade (S8), which the declarer must trump with a jack, instead of his shortest suit (D8). The same
    in a suit game: hearts, RH void in clubs, FH leads C7 rather than D7."""
    voids = np.zeros(3, dtype=np.int64)
    voids[RH] = 1 << int(GROUP[GRAND, parse_card("S7")])
    state = _state(GRAND, RH, _F_FH, _F_MH, _F_RH, "CQ C7")
    assert _choice(state) == "D8"
    assert _choice(state, voids) == "S8"
    state = _state(
        HEARTS,
        RH,
        "C9 C8 C7 SQ S9 S8 S7 D9 D8 D7",
        "CA CT CK CQ SA ST SK DA DT DK",
        "CJ SJ HJ DJ HA HT HK HQ H9 H8",
        "H7 DQ",
    )
    assert _choice(state) == "D7"
    voids[RH] = 1 << int(GROUP[HEARTS, parse_card("C7")])
    assert _choice(state, voids) == "C7"


def test_a_defender_with_only_the_declarers_void_suits_leads_his_shortest() -> None:
    """Grand, MH declares (void in spades and hearts) and plays right after FH, who holds the four
    jacks (no trump to force out) and only spades and hearts: from his shortest suit, S7, not the
    cheapest side card (H7) as before."""
    voids = np.zeros(3, dtype=np.int64)
    voids[MH] = 1 << int(GROUP[GRAND, parse_card("S7")]) | 1 << int(GROUP[GRAND, parse_card("H7")])
    state = _state(
        GRAND,
        MH,
        "CJ SJ HJ DJ S8 S7 H9 H8 H7 HQ",
        "CA CT CK CQ C9 C8 DA DT DK DQ",
        "SA ST SK SQ S9 HA HT HK C7 D9",
        "D8 D7",
    )
    assert _choice(state, voids) == "S7"


def test_the_declarers_plain_cards_are_noted_above_the_void_bits() -> None:
    """:func:`cardplay.note_voids` keeps, for the declarer, the plain groups he led and how many of
    each he has played, above the void bits (which stay as before)."""
    state, voids = _watched(*_LED_BACK)
    g = int(GROUP[GRAND, parse_card("D7")])
    assert voids[FH] & 0xFF == 0 and voids[MH] == 0 and voids[RH] == 0
    assert cardplay._declarer_long(voids, FH) == 1 << g
    assert voids[FH] >> (cardplay._SHOWN + 4 * g) & 0xF == 1


def test_against_grand_with_no_jack_unseen_a_defender_leads_into_the_declarers_void() -> None:
    """Grand, RH declares (void in spades shown) and FH, on lead, holds the four jacks: no trump is
    left for the declarer, so a spade lets him only discard. FH leads S7 (of his shortest suit among
    the declarer's voids) instead of his shortest suit (D7). Without the void known he leads D7."""
    voids = np.zeros(3, dtype=np.int64)
    voids[RH] = 1 << int(GROUP[GRAND, parse_card("S7")])
    state = _state(
        GRAND,
        RH,
        "CJ SJ HJ DJ S9 S8 S7 H8 H7 D7",
        "HA HQ H9 CT CQ C9 DK DQ CA CK",
        "SA ST SK SQ HT HK DA DT D9 D8",
        "C8 C7",
    )
    assert _choice(state) == "D7"
    assert _choice(state, voids) == "S7"


# FH leads SA; MH, void in spades, smears onto his partner's trick (the declarer, RH, plays last).
_SMEAR = ("SA S9 S8 H8 H7 D9 D8 D7 C8 C7", "HA HQ H9 CT CQ C9 DK DQ DJ CK", "CJ SJ HJ ST SK SQ S7 HT HK CA", "DA DT")


def test_against_grand_a_defender_smears_a_ten_and_keeps_his_master_ace() -> None:
    """Grand: MH smears CT (CA is unseen: no trick to come) and keeps HA, a trick to come. In a suit
    game (diamonds) he smears HA: the declarer would ruff it later."""
    assert _choice(_state(GRAND, RH, *_SMEAR, "SA")) == "CT"
    assert _choice(_state(DIAMONDS, RH, *_SMEAR, "SA")) == "HA"


def test_in_a_suit_game_a_defender_draws_the_trumps_when_his_masters_nearly_suffice() -> None:
    """Hearts, RH declares and has ruffed a club and a spade (voids shown); every heart is out. MH,
    on lead with CJ (a master) and DJ, sees two trumps unseen (SJ, HJ), at most his masters and one:
    he leads CJ, drawing a jack, instead of forcing the declarer with a low club or spade."""
    state, voids = _watched(
        HEARTS,
        RH,
        "C9 CT DQ CK SQ SK D7 C8 H8 DT",
        "S8 ST HA CJ HT DK CA C7 SA DJ",
        "D9 DA H7 HK HJ S9 H9 D8 SJ HQ",
        "S7 CQ",
        "SQ SA S9 CA HK C8 H7 H8 HA ST HQ SK H9 DT HT",
    )
    assert int(play.to_move(state)) == MH
    assert _choice(state, voids) == "CJ"
