"""The heuristic bot's Null defence: small positions where a club player's card is clear.

Seats: FH 0, MH 1, RH 2; the declarer is MH unless said otherwise, so FH and RH defend. Voids are
those the simulator would have noted from the cards played (:func:`cardplay.note_voids`).
"""

from __future__ import annotations

import numpy as np
from handmade import cards as _cards
from handmade import mask as _mask

from skatsim.bots import cardplay
from skatsim.engine import play
from skatsim.engine.cards import iss_name
from skatsim.engine.gametypes import NULL
from skatsim.engine.scoring import OUVERT


def _null_state(fh: str, mh: str, rh: str, flags: int = 0, declarer: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """A Null in play with these hands (the skat: the two cards left), and its voids."""
    state = np.zeros(play.N_FIELDS, dtype=np.int64)
    hands = np.array([_mask(fh), _mask(mh), _mask(rh)], dtype=np.uint32)
    assert int(hands[0]) & int(hands[1]) == 0 and int(hands[2]) & int(hands[0] | hands[1]) == 0
    rest = (1 << 32) - 1 - int(hands[0] | hands[1] | hands[2])
    assert bin(rest).count("1") == 2
    play.new_play(state, NULL, flags, declarer, hands, np.uint32(rest))
    return state, np.zeros(3, dtype=np.int64)


def _play(state: np.ndarray, voids: np.ndarray, played: str) -> None:
    for c in _cards(played):
        cardplay.note_voids(state, int(play.to_move(state)), c, voids)
        assert play.play_card(state, c) == play.OK


def _choice(state: np.ndarray, voids: np.ndarray) -> str:
    return iss_name(cardplay.choose_card(state, int(play.to_move(state)), voids, False))


def test_null_ouvert_lead_attacks_the_card_the_declarer_cannot_duck_with_the_partner_under_it() -> None:
    """Against the open hand FH holds D7 under the declarer's D8 and S7 under his S9. Only in spades
    can RH stay under the declarer's card too (S8 is unseen): FH leads S7, MH must play S9, RH
    plays S8 under it and the declarer has lost. In diamonds nobody but FH holds a card under D8:
    RH would have to overtake."""
    fh = "D7 DK DA S7 SK SA HK HA CK CA"
    mh = "D8 H7 H8 H9 S9 C7 C8 C9 CT CJ"
    rh = "D9 DT DJ DQ HT HJ HQ S8 ST SJ"  # the skat: SQ CQ
    state, voids = _null_state(fh, mh, rh, OUVERT)
    assert _choice(state, voids) == "S7"
    _play(state, voids, "S7 S9")
    assert _choice(state, voids) == "S8"


def test_null_defender_leads_the_suit_his_partner_is_void_in() -> None:
    """RH has shown a void in clubs, the declarer none: FH leads his low club, not his D7; the
    declarer must duck under C9 or take the trick, for RH cannot overtake."""
    fh = "C9 CA D7 DA HA HK SA SK DK DQ"
    mh = "C7 CT D8 D9 H7 H8 H9 S7 S8 S9"
    rh = "DT DJ HT HJ HQ ST SJ SQ CJ CQ"  # the skat: C8 CK
    state, voids = _null_state(fh, mh, rh)
    assert _choice(state, voids) == "D7"
    voids[2] = 1 << 3
    assert _choice(state, voids) == "C9"


def test_null_defender_keeps_his_low_card_once_the_declarer_has_ducked() -> None:
    """FH leads H9, the declarer ducks with H8: RH, last, cannot lose the trick to the declarer, so
    he plays his highest heart and keeps H7 to catch the declarer later."""
    fh = "H9 HA D7 D8 S7 S8 C7 C8 CA CK"
    mh = "H8 HT D9 DT S9 ST C9 CT DJ SJ"
    rh = "H7 HK HQ DA DK SA SK CQ CJ DQ"  # the skat: HJ SQ
    state, voids = _null_state(fh, mh, rh)
    _play(state, voids, "H9 H8")
    assert _choice(state, voids) == "HK"


def test_null_defender_forced_over_the_declarer_plays_his_highest() -> None:
    """The declarer (FH) leads HT; MH holds only higher hearts: the trick is the defenders' whatever
    he plays, so HA, not HJ (the low cards stay)."""
    fh = "HT D7 D8 D9 S7 S8 S9 C7 C8 C9"
    mh = "HJ HA DT DJ ST SJ CT CJ DQ SQ"
    rh = "H7 H8 H9 HQ HK DA DK SA SK CA"  # the skat: CQ CK
    state, voids = _null_state(fh, mh, rh, declarer=0)
    _play(state, voids, "HT")
    assert _choice(state, voids) == "HA"


def test_null_ouvert_second_hand_plays_high_where_the_declarer_ducks_anyway() -> None:
    """RH declares; FH leads S8 and the declarer will duck with S7 whatever MH plays under his SK:
    MH plays SQ and keeps S9 (with which a later spade lead catches SK)."""
    fh = "S8 D7 D8 H7 H8 C7 C8 DA HA CA"
    mh = "S9 SQ SA D9 DT H9 HT C9 CT DK"
    rh = "S7 SK DJ DQ HJ HQ CJ CQ CK HK"  # the skat: ST SJ
    state, voids = _null_state(fh, mh, rh, OUVERT, declarer=2)
    _play(state, voids, "S8")
    assert _choice(state, voids) == "SQ"


def test_null_ouvert_discard_sheds_the_card_that_would_have_to_overtake() -> None:
    """The declarer (FH) leads D7; MH is void in diamonds. His HK is the card RH's heart lead would
    force over the declarer's H8; in spades and clubs he holds cards under the declarer's: he sheds
    HK (not an ace)."""
    fh = "D7 D8 D9 DT DJ H8 S9 ST C9 CT"
    mh = "HK S7 SA SK SQ C7 CA CK CQ CJ"
    rh = "DA H7 H9 HT HJ HQ HA S8 SJ C8"  # the skat: DQ DK
    state, voids = _null_state(fh, mh, rh, OUVERT, declarer=0)
    _play(state, voids, "D7")
    assert _choice(state, voids) == "HK"
