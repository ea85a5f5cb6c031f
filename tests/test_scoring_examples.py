"""Scenario tests: the worked examples of RULES.md §5 and the rule edges around them.

Most tests are complete hand-made games: a deal, the bidding, the skat, the
declaration and every card in order, replayed through :func:`skatsim.records.record.replay`
(the same kernels the simulator uses) and checked against the exact figures
RULES.md states. Deals are written hand by hand (FH, MH, RH, skat) and play trick
by trick in playing order, ISS notation. Where a figure cannot come from legal
play (a Schwarz made while the defenders hold the top jack), the test calls the
scoring kernels directly. Bidding, declaration legality, legal moves and trick
winners (RULES.md §2-§4) are tested at the end.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from handmade import cards as _cards
from handmade import deal as _deal
from handmade import expect as _expect
from handmade import mask as _mask
from handmade import params as _params
from handmade import tricks as _tricks

from skatsim.engine import bidding, declaration
from skatsim.engine.bidding import BID_VALUES, HOLD, PASS
from skatsim.engine.cards import CARD_POINTS, parse_card
from skatsim.engine.gametypes import CLUBS_GAME, DIAMONDS_GAME, GRAND, HEARTS_GAME, NULL, RAMSCH, REVERSED, SPADES_GAME
from skatsim.engine.scoring import (
    HAND,
    OUVERT,
    SCHNEIDER_ANNOUNCED,
    SCHWARZ_ANNOUNCED,
    deal_score,
    game_value,
    list_points,
    matadors,
    outcome,
)
from skatsim.engine.tricks import legal_moves, trick_winner
from skatsim.records.record import GameRecord, GameResult, ReplayError, replay
from skatsim.variant import official_params

FH, MH, RH = 0, 1, 2

# ---------------------------------------------------------------- helpers


def _fh_declares(bid: int) -> tuple[tuple[int, int], ...]:
    """MH bids ``bid`` to FH, FH holds, MH passes, RH passes: FH declares at ``bid``."""
    return ((MH, bid), (FH, HOLD), (MH, PASS), (RH, PASS))


# ---------------------------------------------------------------- worked examples, RULES.md §5


def test_hearts_with_2_bid_24_scores_30() -> None:
    """Bid held at 24; hearts, with 2 after the skat; 74:46 points; value 10 x 3 = 30; +30."""
    record = GameRecord(
        deal=_deal(
            "CJ SJ HA HT HK H9 H8 SA CA D7",
            "HJ HQ ST SK SQ CT CK DA DT D9",
            "DJ S9 S8 CQ C9 C8 C7 DK DQ D8",
            "H7 S7",
        ),
        bids=((MH, 24), (FH, HOLD), (MH, PASS), (RH, PASS)),
        pickup=True,
        discards=_cards("S7 D7"),
        game_type=HEARTS_GAME,
        cards=_tricks(
            "HA HJ DJ", "DT DK SA", "CK C9 CA", "H8 HQ CQ", "ST S9 HK",
            "SJ SQ C7", "H7 CT S8", "CJ SK C8", "H9 D9 DQ", "HT DA D8",
        ),
    )  # fmt: skip
    _expect(
        replay(record),
        declarer=FH,
        bid=24,
        hand=False,
        matadors=2,
        declarer_points=74,
        declarer_tricks=7,
        schneider=False,
        schwarz=False,
        overbid=False,
        won=True,
        game_value=30,
        score=30,
        score_fh=30,
        score_mh=0,
        score_rh=0,
    )


def test_hearts_without_2_game_3_value_30() -> None:
    """Hearts with trumps HJ DJ HA HT HQ H8 H7 after the skat: without 2, game 3, value 30."""
    record = GameRecord(
        deal=_deal(
            "HJ DJ HA HT HQ H8 SA ST CA CT",
            "CJ HK SK SQ S9 CK CQ DA DT D9",
            "SJ H9 S8 S7 C9 C8 C7 DK DQ D8",
            "H7 D7",
        ),
        bids=_fh_declares(18),
        pickup=True,
        discards=_cards("D7 CT"),
        game_type=HEARTS_GAME,
        cards=_tricks(
            "DJ CJ H9", "CQ C8 CA", "HJ HK SJ", "C7 ST CK", "D9 DQ SA",
            "C9 H7 SQ", "HQ S9 S7", "H8 DT S8", "HA DA DK", "HT SK D8",
        ),
    )  # fmt: skip
    _expect(
        replay(record),
        matadors=-2,
        declarer_points=80,  # 70 in tricks + the discarded CT
        declarer_tricks=6,
        won=True,
        game_value=30,
        score=30,
    )


def test_hearts_without_2_schneider_schwarz_value_50() -> None:
    """Same trumps; if the declarer took every trick, Schneider and Schwarz add 2: value 50.

    With CJ and SJ in the defenders' hands every trick cannot be won in legal play
    (the CJ takes the trick it falls in), so this one goes through the scoring kernels.
    """
    cards12 = _mask("HJ DJ HA HT HQ H8 H7 SA ST CA CT D7")
    assert matadors(HEARTS_GAME, cards12) == -2
    assert game_value(HEARTS_GAME, 0, -2, False, False) == 30
    assert game_value(HEARTS_GAME, 0, -2, True, True) == 50
    assert outcome(HEARTS_GAME, 0, 18, cards12, 120, 10, False) == (True, 50, False, True, True, -2)


def test_grand_hand_schneider_announced_with_3_value_168() -> None:
    """Grand hand, Schneider announced, CJ SJ HJ, Schneider made.

    RULES.md §5 (from seed 003) lists "with 3 + game + hand + Schneider + Schneider
    announced = 6 x 24 = 144", but those five terms add up to 3 + 1 + 1 + 1 + 1 = 7,
    the ISkO multiplier (and the form RULES.md itself uses for the "with 4 ... 8 x 24"
    example): the value is 7 x 24 = 168. The 144 of the example is a Grand hand
    Schneider announced *with 2*, checked at the end.
    """
    record = GameRecord(
        deal=_deal(
            "CJ SJ HJ CA CT CK SA ST HA HT",
            "DJ CQ C9 SK SQ HK HQ DA DT DK",
            "C8 C7 S9 S8 S7 H9 H8 H7 DQ D9",
            "D7 D8",
        ),
        bids=_fh_declares(96),
        game_type=GRAND,
        flags=SCHNEIDER_ANNOUNCED,
        cards=_tricks(
            "CA C9 C7", "ST SQ S9", "HA HK H9", "CT CQ C8", "CK DJ DQ",
            "DT D9 HJ", "SJ HQ H7", "SA SK S7", "CJ DA S8", "HT DK H8",
        ),
    )  # fmt: skip
    _expect(
        replay(record),
        bid=96,
        hand=True,
        schneider_announced=True,
        schwarz_announced=False,
        matadors=3,
        declarer_points=111,
        declarer_tricks=9,
        schneider=True,
        schwarz=False,
        won=True,
        game_value=168,
        score=168,
    )
    assert game_value(GRAND, HAND | SCHNEIDER_ANNOUNCED, 3, True, False) == 7 * 24
    assert game_value(GRAND, HAND | SCHNEIDER_ANNOUNCED, 2, True, False) == 6 * 24 == 144


_GRAND_48_DEAL = _deal(
    "CJ CA CT CK SA ST SK HA HT D7",
    "SJ HJ CQ C9 SQ S9 HK HQ DA DT",
    "DJ C8 C7 S8 S7 H9 H8 DK DQ D9",
    "D8 H7",
)


def test_lowest_grand_with_1_won_48() -> None:
    """The lowest Grand (with 1) is 2 x 24 = 48; won +48 (here exactly at a bid of 48)."""
    record = GameRecord(
        deal=_GRAND_48_DEAL,
        bids=_fh_declares(48),
        pickup=True,
        discards=_cards("D7 D8"),
        game_type=GRAND,
        cards=_tricks(
            "ST S9 S8", "HT HQ H8", "H7 HK H9", "SQ S7 SA", "CK CQ C7",
            "SK HJ DQ", "DT DK CJ", "CT C9 C8", "CA DA DJ", "D9 HA SJ",
        ),
    )  # fmt: skip
    _expect(replay(record), matadors=1, declarer_points=70, overbid=False, won=True, game_value=48, score=48)


def test_lowest_grand_without_1_lost_96() -> None:
    """Without 1 is also 48: MH plays Grand holding SJ HJ but not CJ, takes 40 points: -96."""
    record = GameRecord(
        deal=_GRAND_48_DEAL,
        bids=((MH, 18), (FH, PASS), (RH, PASS)),
        pickup=True,
        discards=_cards("D8 H7"),
        game_type=GRAND,
        cards=_tricks(
            "HA HQ H9", "SK SQ S7", "ST S9 S8", "SA HK C7", "CT CQ C8",
            "HT SJ H8", "C9 DJ CA", "D9 D7 DA", "DT DQ CK", "HJ DK CJ",
        ),
    )  # fmt: skip
    _expect(
        replay(record),
        declarer=MH,
        bid=18,
        matadors=-1,
        declarer_points=40,
        won=False,
        game_value=48,
        score=-96,
        score_fh=0,
        score_mh=-96,
        score_rh=0,
    )


def test_clubs_ouvert_with_2_value_108() -> None:
    """Clubs ouvert with 2: 2 + game + hand + Schneider + ann. + Schwarz + ann. + ouvert = 9 x 12 = 108."""
    record = GameRecord(
        deal=_deal(
            "CJ SJ CA CT CK CQ C9 SA ST SK",
            "HJ C8 SQ S9 HA HT HK DA DT DK",
            "DJ C7 S8 S7 HQ H9 H8 DQ D9 D8",
            "H7 D7",
        ),
        bids=_fh_declares(18),
        game_type=CLUBS_GAME,
        flags=OUVERT,
        cards=_tricks(
            "ST SQ S8", "SA S9 S7", "SJ HJ DJ", "CJ C8 C7", "CQ DA HQ",
            "CA HA D8", "CK DK DQ", "C9 DT H8", "CT HT H9", "SK HK D9",
        ),
    )  # fmt: skip
    _expect(
        replay(record),
        hand=True,
        ouvert=True,
        schneider_announced=True,
        schwarz_announced=True,
        matadors=2,
        declarer_points=120,
        declarer_tricks=10,
        schneider=True,
        schwarz=True,
        won=True,
        game_value=108,
        score=108,
    )


def test_grand_ouvert_with_4_value_264() -> None:
    """Grand ouvert with 4: 11 x 24 = 264, the highest game value (ISkO 5.2.6)."""
    record = GameRecord(
        deal=_deal(
            "CJ SJ HJ DJ CA CT CK SA ST SK",
            "CQ C9 SQ S9 HA HT HK DA DT DK",
            "C8 C7 S8 S7 HQ H9 H8 DQ D9 D8",
            "H7 D7",
        ),
        bids=_fh_declares(264),
        game_type=GRAND,
        flags=OUVERT,
        cards=_tricks(
            "ST S9 S8", "HJ C9 C7", "CA CQ C8", "DJ HT D8", "CT HK HQ",
            "SJ HA H8", "SA SQ S7", "SK DT D9", "CJ DA DQ", "CK DK H9",
        ),
    )  # fmt: skip
    _expect(replay(record), bid=264, matadors=4, declarer_tricks=10, won=True, game_value=264, score=264)


_GRAND_SCHNEIDER_MISSED = GameRecord(
    deal=_deal(
        "CJ SJ HJ CA CT SA ST HA HT D7",
        "CK CQ C9 SK SQ HK HQ DT DK D9",
        "C8 C7 S9 S8 S7 H9 H8 H7 DQ D8",
        "DJ DA",
    ),
    bids=_fh_declares(48),
    game_type=GRAND,
    flags=SCHNEIDER_ANNOUNCED,
    cards=_tricks(
        "HT HK H8", "CJ DT D8", "SA SK S7", "D7 DK DQ", "D9 C8 HA",
        "HQ H9 CT", "C9 C7 CA", "HJ CK S8", "SJ CQ S9", "ST SQ H7",
    ),
)  # fmt: skip


def test_grand_hand_schneider_announced_missed_with_4_scores_minus_384() -> None:
    """Grand hand, Schneider announced, with 4 (DJ in the skat), defenders take 31: lost.

    with 4, game 5, hand 6, Schneider 7, Schneider announced 8: 8 x 24 = 192, score -384.
    """
    _expect(
        replay(_GRAND_SCHNEIDER_MISSED),
        hand=True,
        matadors=4,
        declarer_points=89,
        declarer_tricks=7,
        schneider=False,
        overbid=False,
        won=False,
        game_value=192,
        score=-384,
    )


def test_bid_30_hearts_overbid_by_club_jack_in_skat() -> None:
    """Bid 30 reckoning hearts "without 2"; CJ turns up in the skat: with 1, value 20 < 30.

    Overbid and lost even with 72 card points, charged 30 (smallest multiple of 10 >= 30): -60.
    """
    record = GameRecord(
        deal=_deal(
            "HJ DJ HA HT HK HQ H9 SA CA DA",
            "SJ H8 ST SK SQ CT CK DT DK D9",
            "H7 S9 S8 S7 CQ C9 C8 C7 DQ D8",
            "CJ D7",
        ),
        bids=((MH, 30), (FH, HOLD), (MH, PASS), (RH, PASS)),
        pickup=True,
        discards=_cards("D7 SA"),
        game_type=HEARTS_GAME,
        cards=_tricks(
            "HK SJ H7", "ST S9 DA", "DT D8 CA", "D9 DQ HJ", "HT H8 CQ",
            "DJ SQ C8", "HA DK S7", "CJ CT C9", "H9 CK S8", "HQ SK C7",
        ),
    )  # fmt: skip
    _expect(replay(record), bid=30, matadors=1, declarer_points=72, overbid=True, won=False, game_value=30, score=-60)


def test_bid_48_hearts_worth_40_charged_50() -> None:
    """Bid 48, hearts worth only 40 (with 3, game 4): charged 50, score -100 despite 85 points."""
    record = GameRecord(
        deal=_deal(
            "CJ SJ HJ HA HT HK SA ST CA D7",
            "DJ HQ SK SQ CT CK DA DT DK D9",
            "H8 H7 S9 S8 S7 CQ C9 C8 C7 DQ",
            "H9 D8",
        ),
        bids=((MH, 48), (FH, HOLD), (MH, PASS), (RH, PASS)),
        pickup=True,
        discards=_cards("D7 D8"),
        game_type=HEARTS_GAME,
        cards=_tricks(
            "HT DJ H7", "DT DQ ST", "SK S7 SA", "HJ HQ H8", "H9 DA C9",
            "CA CT C7", "HK SQ S8", "CJ CK CQ", "SJ DK S9", "HA D9 C8",
        ),
    )  # fmt: skip
    _expect(replay(record), bid=48, matadors=3, declarer_points=85, overbid=True, won=False, game_value=50, score=-100)


# Clubs with 1 after picking up S7 H7 and discarding them again (0 points in the skat).
_CLUBS_DEAL = _deal(
    "CJ CA CT C9 C8 SA HA HK D7 D8",
    "SJ HJ CK ST SK SQ HT HQ DA DT",
    "DJ CQ C7 S9 S8 H9 H8 DK DQ D9",
    "S7 H7",
)
_CLUBS_PLAYS = {
    45: ("D7 DT DQ", "HJ C7 C8", "ST S8 SA", "C9 SJ CQ", "HT H8 HK",
         "CK DJ CT", "D9 D8 DA", "SQ S9 HA", "HQ H9 CA", "CJ SK DK"),
    60: ("C8 SJ CQ", "SQ S9 SA", "D8 DA DQ", "HT H8 HA", "CA HJ C7",
         "CK DJ CJ", "C9 HQ S8", "CT SK H9", "D7 DT D9", "ST DK HK"),
    61: ("HK HT H9", "DA DQ D8", "CK CQ CJ", "CA HJ DJ", "SJ C7 C9",
         "SQ S8 SA", "C8 HQ D9", "HA DT H8", "D7 ST DK", "S9 CT SK"),
    30: ("C8 SJ CQ", "HJ C7 CA", "SK S8 SA", "HK HT H8", "DT DQ D8",
         "DA D9 D7", "ST S9 CJ", "CT CK DJ", "DK HA SQ", "H9 C9 HQ"),
    31: ("CT CK DJ", "DK D7 DT", "SJ C7 CA", "SQ S9 SA", "CJ HJ CQ",
         "D8 DA D9", "ST S8 HA", "HT H9 HK", "HQ H8 C9", "C8 SK DQ"),
}  # fmt: skip


def _clubs_game(points: int, params: np.ndarray | None = None) -> GameResult:
    """Replay the clubs game in which the declarer ends with ``points`` card points."""
    record = GameRecord(
        deal=_CLUBS_DEAL,
        bids=_fh_declares(18),
        pickup=True,
        discards=_cards("S7 H7"),
        game_type=CLUBS_GAME,
        cards=_tricks(*_CLUBS_PLAYS[points]),
    )
    ev = replay(record, params)
    assert ev.declarer_points == points
    return ev


def test_lost_clubs_with_1_scores_minus_48() -> None:
    """Lost clubs with 1: value 12 x 2 = 24, score -48."""
    _expect(_clubs_game(45), matadors=1, declarer_tricks=3, schneider=False, won=False, game_value=24, score=-48)


# ---------------------------------------------------------------- edges of RULES.md §5


def test_60_60_is_lost() -> None:
    """60:60 is a loss for the declarer (RULES.md §5: >= 61 needed)."""
    _expect(_clubs_game(60), won=False, game_value=24, score=-48)


def test_61_points_win() -> None:
    """61 points is the smallest win."""
    _expect(_clubs_game(61), won=True, game_value=24, score=24)


def test_defenders_make_declarer_schneider_at_30() -> None:
    """Declarer <= 30 points: the defenders' Schneider raises the loss to 12 x 3 = 36, score -72."""
    _expect(_clubs_game(30), declarer_tricks=3, schneider=True, schwarz=False, won=False, game_value=36, score=-72)


def test_31_points_is_not_schneider() -> None:
    """31 points is not Schneider: the plain loss, -48."""
    _expect(_clubs_game(31), schneider=False, won=False, game_value=24, score=-48)


def test_declarer_schwarz_counts_tricks_not_points() -> None:
    """Declarer takes no trick but has 13 points from his discards: Schneider and Schwarz.

    He picked up CA HA and laid away CJ CA: the discards count for matadors (with 1,
    RULES.md §5: the 12 cards) and for points. 12 x (1 + game + Schneider + Schwarz) = 48, -96.
    """
    record = GameRecord(
        deal=_deal(
            "CJ C7 C8 S7 S8 H7 H8 D7 D8 D9",
            "SJ HJ CT CK SA ST SK HT HK DA",
            "DJ CQ C9 SQ S9 HQ H9 DT DK DQ",
            "CA HA",
        ),
        bids=_fh_declares(18),
        pickup=True,
        discards=_cards("CJ CA"),
        game_type=CLUBS_GAME,
        cards=_tricks(
            "D9 DA DQ", "HJ C9 C8", "CK CQ C7", "HT HQ H7", "SK SQ S7",
            "SA S9 S8", "HK H9 H8", "ST DT HA", "SJ DJ D7", "CT DK D8",
        ),
    )  # fmt: skip
    _expect(
        replay(record),
        matadors=1,
        declarer_points=13,
        declarer_tricks=0,
        schneider=True,
        schwarz=True,
        won=False,
        game_value=48,
        score=-96,
    )


def test_all_points_but_one_zero_point_trick_is_not_schwarz() -> None:
    """Declarer has 120 points but the defenders took a trick of 7-8-9: Schneider, not Schwarz.

    Clubs hand with 7 (CJ..CK): 12 x (7 + game + hand + Schneider) = 120.
    """
    record = GameRecord(
        deal=_deal(
            "CJ SJ HJ DJ CA CT CK SA ST D7",
            "D9 CQ C9 SQ S9 HA HT HK DA DT",
            "D8 C8 C7 S8 S7 HQ H9 H8 DK DQ",
            "SK H7",
        ),
        bids=_fh_declares(18),
        game_type=CLUBS_GAME,
        cards=_tricks(
            "D7 D9 D8", "HA HQ CT", "CA CQ C8", "SJ C9 C7", "ST SQ S7",
            "SA S9 S8", "CJ HT DK", "CK DT H8", "DJ DA H9", "HJ HK DQ",
        ),
    )  # fmt: skip
    _expect(
        replay(record),
        matadors=7,
        declarer_points=120,
        declarer_tricks=9,
        schneider=True,
        schwarz=False,
        won=True,
        game_value=120,
        score=120,
    )


def test_hand_game_overbid_by_jack_in_skat() -> None:
    """Grand hand reckoned "without 2, hand 4" = 96 at a bid of 96; the SJ lies in the skat.

    With the skat counted it is without 1: 3 x 24 = 72 < 96, so the game is overbid and lost
    although the declarer took 87 points; charged 96 (4 x 24), hand loss x 2: -192.
    """
    record = GameRecord(
        deal=_deal(
            "HJ DJ CA CT SA ST HA HT DA DT",
            "CJ CK CQ C9 SK SQ HK HQ DK DQ",
            "C8 S9 S8 S7 H9 H8 H7 D9 D8 D7",
            "SJ C7",
        ),
        bids=_fh_declares(96),
        game_type=GRAND,
        cards=_tricks(
            "CT C9 C8", "SA SK S8", "DA DQ D7", "HT HQ H9", "CA CQ D9",
            "ST SQ S9", "HJ CJ S7", "CK D8 DT", "DK H7 HA", "HK H8 DJ",
        ),
    )  # fmt: skip
    _expect(
        replay(record),
        hand=True,
        matadors=-1,
        declarer_points=87,
        overbid=True,
        won=False,
        game_value=96,
        score=-192,
    )


_NULL_DEAL = _deal(
    "C7 C8 C9 S7 S8 S9 H7 H8 D7 D8",
    "CT CJ CQ ST SJ SQ HT HJ HQ D9",
    "CK SK SA HK HA H9 DT DJ DQ DK",
    "CA DA",
)
_NULL_CLEAN = _tricks(
    "H7 HQ H9", "SJ SK S8", "CK C8 CQ", "DK D7 D9", "HK H8 HJ",
    "HA C9 HT", "SA S9 ST", "DQ D8 CT", "DT S7 SQ", "DJ C7 CJ",
)  # fmt: skip


def test_null_declared_over_a_higher_bid_is_charged_46() -> None:
    """Null (23) after holding 24 cannot reach the bid: lost although the declarer took no trick.

    Project decision (RULES.md §5 leaves the amount open): an overbid Null is charged
    the smallest multiple of its own Null value that reaches the bid, as an overbid
    suit game is charged in multiples of its base value: Null 23 after 24 -> 46,
    score -2 x 46 = -92.
    """
    record = GameRecord(
        deal=_NULL_DEAL,
        bids=_fh_declares(24),
        pickup=True,
        discards=_cards("CA DA"),
        game_type=NULL,
        cards=_NULL_CLEAN,
    )
    _expect(
        replay(record),
        bid=24,
        matadors=0,
        declarer_tricks=0,
        overbid=True,
        won=False,
        game_value=46,
        score=-92,
    )


def test_null_ouvert_after_pickup_is_46() -> None:
    """Null ouvert may be played after picking up the skat: value 46, not hand."""
    record = GameRecord(
        deal=_NULL_DEAL,
        bids=_fh_declares(46),
        pickup=True,
        discards=_cards("CA DA"),
        game_type=NULL,
        flags=OUVERT,
        cards=_NULL_CLEAN,
    )
    _expect(
        replay(record), hand=False, ouvert=True, declarer_tricks=0, overbid=False, won=True, game_value=46, score=46
    )


_NULL_HAND_LOST = GameRecord(
    deal=_deal(
        "C7 C8 C9 S7 S8 SA H7 H8 D7 D8",
        "CT CJ CQ ST SJ SQ HT HJ HQ D9",
        "CK SK S9 HK HA H9 DT DJ DQ DK",
        "CA DA",
    ),
    bids=_fh_declares(35),
    game_type=NULL,
    cards=_tricks("S7 SQ S9", "HT H9 H7", "SJ SK SA"),
)


def test_null_ends_on_declarers_first_trick() -> None:
    """Null hand (35): the declarer takes trick 3 with SA, play stops there; lost, -70."""
    ev = replay(_NULL_HAND_LOST)
    _expect(ev, hand=True, declarer_tricks=1, won=False, game_value=35, score=-70)
    assert [t.winner for t in ev.tricks] == [MH, MH, FH]


def test_no_card_after_null_is_lost() -> None:
    """A card after the declarer's first trick in Null is rejected: the game is over."""
    record = replace(_NULL_HAND_LOST, cards=_NULL_HAND_LOST.cards + _cards("C7"))
    with pytest.raises(ReplayError, match="card 10 .*already over"):
        replay(record)


_SCHWARZ_LOST = GameRecord(
    deal=_deal(
        "CJ SJ CA CT SA ST HA HT DA D7",
        "HJ CK CQ SK SQ HK HQ DK DQ D9",
        "DJ C9 C8 S9 S8 H9 H8 H7 D8 DT",
        "C7 S7",
    ),
    bids=_fh_declares(18),
    game_type=GRAND,
    flags=SCHWARZ_ANNOUNCED,
    cards=_tricks("CJ HJ DJ", "HA HK H9", "D7 DK D8"),
)


def test_announced_schwarz_lost_on_defenders_first_trick() -> None:
    """Grand hand, Schwarz announced, with 2: the defenders take trick 3 and play ends.

    All announced levels count (ISkO 5.2.5): 2 + game + hand + Schneider + Schneider
    announced + Schwarz + Schwarz announced = 8 x 24 = 192, score -384.
    """
    ev = replay(_SCHWARZ_LOST)
    _expect(
        ev,
        hand=True,
        schneider_announced=True,
        schwarz_announced=True,
        matadors=2,
        declarer_points=21,
        declarer_tricks=2,
        schwarz=False,
        won=False,
        game_value=192,
        score=-384,
    )
    assert len(ev.tricks) == 3
    record = replace(_SCHWARZ_LOST, cards=_SCHWARZ_LOST.cards + _cards("HT"))
    with pytest.raises(ReplayError, match="already over"):
        replay(record)


def test_announced_schneider_missed_counts_both_levels() -> None:
    """Clubs hand, Schneider announced, with 1, 75 points: lost (ISkO 5.2.5).

    1 + game + hand + Schneider + Schneider announced = 5 x 12 = 60, score -120.
    """
    record = GameRecord(
        deal=_CLUBS_DEAL,
        bids=_fh_declares(18),
        game_type=CLUBS_GAME,
        flags=SCHNEIDER_ANNOUNCED,
        cards=_tricks(
            "CT HJ CQ", "SJ C7 CJ", "D8 DA DQ", "ST S8 SA", "D7 DT D9",
            "HQ H9 HK", "C9 CK DJ", "H8 HA HT", "C8 SK DK", "CA SQ S9",
        ),
    )  # fmt: skip
    _expect(replay(record), matadors=1, declarer_points=75, schneider=False, won=False, game_value=60, score=-120)


def test_levels_higher_than_announced_count_and_none_twice() -> None:
    """Schneider announced and Schwarz made: Schwarz counts too; declarer Schneider: counted once."""
    with_1 = _mask("CJ C7 C8 C9 S7 S8 S9 H7 H8 H9 D7 D8")
    flags = HAND | SCHNEIDER_ANNOUNCED
    # 1 + game + hand + Schneider + announced + Schwarz = 6 x 12
    assert outcome(CLUBS_GAME, flags, 18, with_1, 120, 10, False) == (True, 72, False, True, True, 1)
    # the declarer himself Schneider: 1 + game + hand + Schneider (once) + announced = 5 x 12
    assert outcome(CLUBS_GAME, flags, 18, with_1, 20, 2, False) == (False, 60, False, True, False, 1)


def test_schneider_and_schwarz_by_counts() -> None:
    """Schneider: a side <= 30 points; Schwarz: a side without a trick; checked at the thresholds."""
    cards12 = _mask("CJ C7 C8 C9 S7 S8 S9 H7 H8 H9 D7 D8")
    assert outcome(CLUBS_GAME, 0, 18, cards12, 89, 9, False)[3] is False
    assert outcome(CLUBS_GAME, 0, 18, cards12, 90, 9, False) == (True, 36, False, True, False, 1)
    assert outcome(CLUBS_GAME, 0, 18, cards12, 31, 1, False) == (False, 24, False, False, False, 1)
    assert outcome(CLUBS_GAME, 0, 18, cards12, 30, 1, False) == (False, 36, False, True, False, 1)
    assert outcome(CLUBS_GAME, 0, 18, cards12, 0, 0, False) == (False, 48, False, True, True, 1)


# ---------------------------------------------------------------- matadors over 12 cards


@pytest.mark.parametrize(
    ("gt", "cards12", "expected"),
    [
        (CLUBS_GAME, "CJ SJ HJ DJ CA CT CK CQ C9 C8 C7 HA", 11),
        (CLUBS_GAME, "HA HT HK HQ H9 H8 H7 SA ST SK SQ S9", -11),
        (HEARTS_GAME, "CJ SJ HJ DJ HA HT HK SA ST SK SQ S9", 7),
        (HEARTS_GAME, "HT HK HQ H9 H8 H7 SA ST SK SQ S9 S8", -5),
        (DIAMONDS_GAME, "CJ HJ DJ DA DT DK DQ D9 D8 D7 SA ST", 1),
        (SPADES_GAME, "DJ SA ST SK SQ S9 S8 S7 HA HT HK HQ", -3),
        (GRAND, "CJ SJ HJ DJ CA CT CK CQ C9 C8 C7 HA", 4),
        (GRAND, "CA CT CK CQ C9 C8 C7 HA HT HK HQ H9", -4),
        (GRAND, "CJ HJ DJ CA CT CK CQ C9 C8 C7 HA HT", 1),
        (GRAND, "HJ DJ CA CT CK CQ C9 C8 C7 HA HT HK", -2),
        (NULL, "CJ SJ HJ DJ CA CT CK CQ C9 C8 C7 HA", 0),
    ],
)
def test_matadors(gt: int, cards12: str, expected: int) -> None:
    """With/without N from CJ down: suit games through all 11 trumps, Grand the 4 jacks only."""
    assert matadors(gt, _mask(cards12)) == expected


def test_matadors_count_the_untouched_skat_in_a_hand_game() -> None:
    """A hand game counts the untouched skat: the 4th jack there makes "with 4" (RULES.md §5)."""
    ev = replay(_GRAND_SCHNEIDER_MISSED)
    assert (ev.matadors, ev.hand) == (4, True)


# ---------------------------------------------------------------- list points and deal score


def test_seeger_fabian_list_points() -> None:
    """+50 to a won game, -50 to a lost one, +40 to each defender when the declarer loses."""
    params = official_params()
    out = np.zeros(3, dtype=np.int64)
    list_points(1, True, 48, params, out)
    assert out.tolist() == [0, 98, 0]
    list_points(2, False, -96, params, out)
    assert out.tolist() == [40, 40, -146]
    list_points(-1, False, 0, params, out)
    assert out.tolist() == [0, 0, 0]


def test_deal_score_official() -> None:
    """Since 1999 every lost game costs -2 x value, hand or not."""
    params = official_params()
    assert deal_score(True, 48, HAND, params) == 48
    assert deal_score(False, 48, 0, params) == -96
    assert deal_score(False, 48, HAND, params) == -96


def test_deal_score_pre_1999_lost_hand_costs_single_value() -> None:
    """Pre-1999 (LOST_HAND_FACTOR = 1): a lost hand game costs -1 x value, other losses still -2 x."""
    params = _params(LOST_HAND_FACTOR=1)
    assert deal_score(False, 192, HAND, params) == -192
    assert deal_score(False, 24, 0, params) == -48
    _expect(replay(_GRAND_SCHNEIDER_MISSED, params), won=False, game_value=192, score=-192)
    _expect(_clubs_game(45, params), won=False, game_value=24, score=-48)


# ---------------------------------------------------------------- bidding, RULES.md §2


def _bidding(*actions: tuple[int, int]) -> np.ndarray:
    """A bidding state after the given accepted ``(seat, action)`` steps."""
    state = np.zeros(bidding.N_FIELDS, dtype=np.int64)
    bidding.new_bidding(state)
    for seat, action in actions:
        assert bidding.bid_step(state, seat, action) == bidding.OK, (seat, action)
    return state


def _outcome(state: np.ndarray) -> tuple[int, int, int]:
    """(stage, declarer, bid) of a bidding state."""
    return int(state[bidding.STAGE]), int(state[bidding.DECLARER]), int(state[bidding.BID])


def test_bid_values() -> None:
    """The 63 values a game can reach, from 18 to 264."""
    assert len(BID_VALUES) == 63
    assert BID_VALUES[:20].tolist() == [18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60]
    assert BID_VALUES[-5:].tolist() == [198, 204, 216, 240, 264]
    assert not {19, 21, 25, 26, 252}.intersection(BID_VALUES.tolist())


def test_next_bid_is_the_smallest_value_above() -> None:
    """The bots bid step by step: after 0 comes 18, after 23 comes 24, after 60 comes 63, after 264 nothing."""
    values = BID_VALUES.tolist()
    for x in range(-1, 300):
        assert bidding.next_bid(x) == next((v for v in values if v > x), 0), x
    assert [bidding.next_bid(x) for x in (0, 23, 60, 263, 264)] == [18, 24, 63, 264, 0]


def test_middlehand_bids_to_forehand_first() -> None:
    """MH opens by bidding to FH; FH answers; a FH bid or a RH action first is out of turn."""
    state = _bidding()
    assert (state[bidding.TURN], state[bidding.BIDDER], state[bidding.ANSWERER]) == (MH, MH, FH)
    assert bidding.bid_step(state, FH, 18) == bidding.E_NOT_TURN
    assert bidding.bid_step(state, RH, 18) == bidding.E_NOT_TURN
    assert bidding.bid_step(state, MH, 18) == bidding.OK
    assert state[bidding.TURN] == FH


def test_holding_wins_ties() -> None:
    """FH holds MH's 18, so MH must go higher; the held value then binds RH as well."""
    state = _bidding((MH, 18), (FH, HOLD))
    assert bidding.bid_step(state, MH, 18) == bidding.E_BID_TOO_LOW
    state = _bidding((MH, 18), (FH, HOLD), (MH, PASS))
    assert (state[bidding.BIDDER], state[bidding.ANSWERER], state[bidding.TURN]) == (RH, FH, RH)
    assert bidding.bid_step(state, RH, 18) == bidding.E_BID_TOO_LOW
    state = _bidding((MH, 18), (FH, HOLD), (MH, PASS), (RH, 20), (FH, HOLD), (RH, PASS))
    assert _outcome(state) == (bidding.DONE, FH, 20)


def test_rearhand_bids_to_the_survivor() -> None:
    """FH passes MH's 20: MH survives and RH bids to MH; MH holds 22, passes 23: RH declares at 23."""
    state = _bidding((MH, 18), (FH, HOLD), (MH, 20), (FH, PASS))
    assert (state[bidding.BIDDER], state[bidding.ANSWERER], state[bidding.TURN]) == (RH, MH, RH)
    state = _bidding((MH, 18), (FH, HOLD), (MH, 20), (FH, PASS), (RH, 22), (MH, HOLD), (RH, 23), (MH, PASS))
    assert _outcome(state) == (bidding.DONE, RH, 23)
    state = _bidding((MH, 18), (FH, PASS), (RH, PASS))
    assert _outcome(state) == (bidding.DONE, MH, 18)


def test_forehand_may_play_at_18_when_both_others_pass() -> None:
    """MH and RH pass without a bid: FH may play at 18 (holding is not an answer here)."""
    state = _bidding((MH, PASS), (RH, PASS))
    assert (state[bidding.STAGE], state[bidding.TURN]) == (2, FH)
    assert bidding.bid_step(state, FH, HOLD) == bidding.E_HOLD_BY_BIDDER
    assert bidding.bid_step(state, FH, 18) == bidding.OK
    assert _outcome(state) == (bidding.DONE, FH, 18)


def test_all_pass() -> None:
    """All three pass: bidding ends without a declarer; further actions are rejected."""
    state = _bidding((MH, PASS), (RH, PASS), (FH, PASS))
    assert _outcome(state) == (bidding.DONE, -1, 0)
    assert bidding.bid_step(state, FH, 18) == bidding.E_DONE
    ev = replay(GameRecord(deal=_NULL_DEAL, bids=((MH, PASS), (RH, PASS), (FH, PASS))))
    _expect(ev, game_type="passed", declarer=None, bid=0, score=0)


@pytest.mark.parametrize(
    ("before", "seat", "action", "error"),
    [
        ((), MH, 19, bidding.E_NOT_A_BID_VALUE),
        ((), MH, 265, bidding.E_NOT_A_BID_VALUE),
        ((), MH, 17, bidding.E_NOT_A_BID_VALUE),
        (((MH, 20),), FH, 22, bidding.E_BID_BY_ANSWERER),
        (((MH, 20), (FH, HOLD)), MH, 20, bidding.E_BID_TOO_LOW),
        (((MH, 20), (FH, HOLD)), MH, 18, bidding.E_BID_TOO_LOW),
        ((), MH, HOLD, bidding.E_HOLD_BY_BIDDER),
        (((MH, 20), (FH, PASS)), RH, HOLD, bidding.E_HOLD_BY_BIDDER),
        ((), FH, PASS, bidding.E_NOT_TURN),
        (((MH, 20),), MH, 22, bidding.E_NOT_TURN),
        (((MH, PASS), (RH, PASS), (FH, PASS)), MH, 18, bidding.E_DONE),
    ],
)
def test_illegal_bidding_actions(before: tuple[tuple[int, int], ...], seat: int, action: int, error: int) -> None:
    """Each illegal action returns its documented error code and leaves the state unchanged."""
    state = _bidding(*before)
    snapshot = state.copy()
    assert bidding.bid_step(state, seat, action) == error
    assert np.array_equal(state, snapshot)


def test_run_bidding_with_limits() -> None:
    """Bots bid step by step: FH (limit 30) holds MH (limit 20) up to 20, RH (0) passes: FH at 20."""
    state = np.zeros(bidding.N_FIELDS, dtype=np.int64)
    bidding.run_bidding(state, np.array([30, 20, 0], dtype=np.int64))
    assert _outcome(state) == (bidding.DONE, FH, 20)
    bidding.run_bidding(state, np.array([0, 0, 0], dtype=np.int64))
    assert _outcome(state) == (bidding.DONE, -1, 0)


# ---------------------------------------------------------------- declaration, RULES.md §3


@pytest.mark.parametrize(
    ("gt", "flags", "picked_up", "error"),
    [
        (CLUBS_GAME, 0, True, declaration.OK),
        (CLUBS_GAME, HAND | SCHNEIDER_ANNOUNCED, False, declaration.OK),
        (GRAND, HAND | SCHWARZ_ANNOUNCED, False, declaration.OK),
        (GRAND, HAND | OUVERT, False, declaration.OK),
        (CLUBS_GAME, SCHNEIDER_ANNOUNCED, True, declaration.E_ANNOUNCE_WITHOUT_HAND),
        (HEARTS_GAME, SCHWARZ_ANNOUNCED, True, declaration.E_ANNOUNCE_WITHOUT_HAND),
        (GRAND, OUVERT, True, declaration.E_ANNOUNCE_WITHOUT_HAND),
        (GRAND, HAND, True, declaration.E_HAND_AFTER_PICKUP),
        (NULL, OUVERT, True, declaration.OK),
        (NULL, HAND | OUVERT, False, declaration.OK),
        (NULL, HAND | SCHNEIDER_ANNOUNCED, False, declaration.E_NULL_ANNOUNCE),
        (NULL, SCHNEIDER_ANNOUNCED, True, declaration.E_NULL_ANNOUNCE),
        (NULL, HAND | SCHWARZ_ANNOUNCED, False, declaration.E_NULL_ANNOUNCE),
        (RAMSCH, HAND, False, declaration.E_GAME_TYPE),
        (REVERSED, HAND, False, declaration.E_REVERSED),
        (-1, 0, True, declaration.E_GAME_TYPE),
    ],
)
def test_declaration_legality(gt: int, flags: int, picked_up: bool, error: int) -> None:
    """Announcements only in hand games; Null announces neither Schneider nor Schwarz."""
    assert declaration.declaration_error(gt, flags, picked_up, official_params()) == error


def test_reversed_game_needs_the_variant() -> None:
    """The reversed game is declarable only when ``REVERSED_ALLOWED`` is set (RULES.md §6)."""
    assert declaration.declaration_error(REVERSED, HAND, False, _params(REVERSED_ALLOWED=1)) == declaration.OK


def test_implied_announcements() -> None:
    """Ouvert (suit, Grand) implies hand, Schneider, Schwarz; Schwarz implies Schneider; Null ouvert nothing."""
    everything = HAND | SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED | OUVERT
    assert declaration.normalise_flags(GRAND, OUVERT) == everything
    assert declaration.normalise_flags(DIAMONDS_GAME, HAND | OUVERT) == everything
    assert declaration.normalise_flags(CLUBS_GAME, HAND | SCHWARZ_ANNOUNCED) == HAND | SCHNEIDER_ANNOUNCED | (
        SCHWARZ_ANNOUNCED
    )
    assert declaration.normalise_flags(NULL, OUVERT) == OUVERT
    assert declaration.normalise_flags(HEARTS_GAME, HAND | SCHNEIDER_ANNOUNCED) == HAND | SCHNEIDER_ANNOUNCED


def test_replay_rejects_announcement_after_pickup() -> None:
    """A record announcing Schneider after picking up the skat fails at the declaration."""
    record = GameRecord(
        deal=_CLUBS_DEAL,
        bids=_fh_declares(18),
        pickup=True,
        discards=_cards("S7 H7"),
        game_type=CLUBS_GAME,
        flags=SCHNEIDER_ANNOUNCED,
    )
    with pytest.raises(ReplayError, match="only be announced in a hand game"):
        replay(record)


# ---------------------------------------------------------------- legal moves and trick winners, RULES.md §4


@pytest.mark.parametrize(
    ("gt", "hand", "led", "legal"),
    [
        (HEARTS_GAME, "SJ S7 H7 CA", "SA", "S7"),  # SJ is a trump, not a spade
        (HEARTS_GAME, "SJ H7 CA", "SA", "SJ H7 CA"),  # no spade: anything
        (HEARTS_GAME, "SJ H7 D8 CK", "DJ", "SJ H7"),  # a jack led: follow trump
        (HEARTS_GAME, "D8 CK DA", "DJ", "D8 CK DA"),  # no trump: anything, D8 does not "follow" DJ
        (HEARTS_GAME, "HJ HA S7", "H7", "HJ HA"),
        (GRAND, "CJ C7 HA", "CA", "C7"),  # CJ does not follow clubs in Grand
        (GRAND, "DJ H7 HA", "HJ", "DJ"),  # a jack led in Grand: follow with a jack
        (GRAND, "H7 HA C7", "HJ", "H7 HA C7"),
        (NULL, "CJ HA D7", "C7", "CJ"),  # in Null the jack is a club
        (NULL, "C8 DJ HJ", "CJ", "C8"),
        (NULL, "DJ HJ S7", "CJ", "DJ HJ S7"),
        (CLUBS_GAME, "CJ SA D7", None, "CJ SA D7"),  # leading: anything
    ],
)
def test_legal_moves(gt: int, hand: str, led: str | None, legal: str) -> None:
    """Follow suit; jacks follow trump in suit games and Grand, their printed suit in Null."""
    led_card = -1 if led is None else parse_card(led)
    assert legal_moves(gt, _mask(hand), led_card) == _mask(legal)


@pytest.mark.parametrize(
    ("gt", "trick", "winner"),
    [
        (HEARTS_GAME, "HJ SJ CJ", 2),
        (HEARTS_GAME, "CJ SJ HJ", 0),
        (HEARTS_GAME, "DJ HA HT", 0),  # lowest jack over the trump ace
        (HEARTS_GAME, "HA HT HK", 0),
        (HEARTS_GAME, "H7 DA CA", 0),  # trump 7 led, plain aces discarded
        (HEARTS_GAME, "SA H7 ST", 1),  # trump 7 ruffs the ace
        (HEARTS_GAME, "S7 SA CA", 1),
        (HEARTS_GAME, "S7 CA DA", 0),  # off-suit aces never win
        (HEARTS_GAME, "ST SK SQ", 0),  # 10 above K
        (HEARTS_GAME, "S9 SQ SK", 2),
        (HEARTS_GAME, "S8 S9 S7", 1),
        (CLUBS_GAME, "SA ST DJ", 2),
        (GRAND, "CJ SJ HJ", 0),
        (GRAND, "DJ CA ST", 0),
        (GRAND, "CA CT DJ", 2),
        (GRAND, "CT CK CA", 2),
        (GRAND, "HK HT DA", 1),
        (GRAND, "H7 CA SA", 0),
        (NULL, "HT HJ HQ", 2),  # Null: A K Q J 10 9 8 7
        (NULL, "H9 HT H8", 1),
        (NULL, "CJ CQ C7", 1),
        (NULL, "D7 CA HA", 0),
        (NULL, "SJ DJ CJ", 0),  # jacks are plain cards
        (NULL, "HK HA HQ", 1),
        (RAMSCH, "CJ DJ HA", 0),
        (RAMSCH, "HA HT DJ", 2),
        (REVERSED, "CJ SJ HJ", 2),  # DJ HJ SJ CJ
        (REVERSED, "DJ HJ CJ", 0),  # DJ is the highest trump
        (REVERSED, "H7 CJ D7", 1),  # the lowest jack still trumps
        (REVERSED, "HA H7 H8", 1),  # 7 is the highest plain card
        (REVERSED, "H8 H9 H7", 2),
        (REVERSED, "HT HQ H9", 2),  # 7 8 9 10 Q K A, highest first
        (REVERSED, "HK HT HQ", 1),
        (REVERSED, "HA HK S7", 1),
    ],
)
def test_trick_winner(gt: int, trick: str, winner: int) -> None:
    """Trick order per RULES.md §4 (and §6 for the reversed game, where 7 8 9 10 Q K A runs highest first)."""
    c0, c1, c2 = _cards(trick)
    assert trick_winner(gt, c0, c1, c2) == winner


def test_card_points_total_120() -> None:
    """A 11, 10 10, K 4, Q 3, J 2: 30 per suit, 120 in all (RULES.md §1)."""
    assert int(CARD_POINTS.sum()) == 120
    hearts = [int(CARD_POINTS[parse_card(c)]) for c in ("HA", "HT", "HK", "HQ", "HJ", "H9", "H8", "H7")]
    assert hearts == [11, 10, 4, 3, 2, 0, 0, 0]


def test_null_claimed_by_the_declarer_is_won_without_further_tricks() -> None:
    """A Null declarer who claims the rest (ISS ``SC``) takes no more tricks: he wins
    (docs/decisions.md, "Games that stop early"); the rest must not be handed to him."""
    from skatsim.records.record import EarlyEnd

    record = GameRecord(
        deal=_deal(
            "D7 H7 S7 C7 H8 S8 C8 H9 S9 C9",
            "D8 DT DJ DQ DK DA HT HJ HQ HK",
            "D9 HA ST SJ SQ SK SA CT CJ CQ",
            "CK CA",
        ),
        bids=((MH, PASS), (RH, PASS), (FH, 18)),
        game_type=NULL,
        cards=_tricks("D7 D8 D9"),
        end=EarlyEnd("claim", FH),
    )
    ev = replay(record)
    assert (ev.won, ev.declarer_tricks, ev.game_value, ev.score) == (True, 0, 35, 35)
