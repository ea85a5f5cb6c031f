"""Scenario tests of the house rules (RULES.md §6): exact numbers on hand-made deals.

Every game is a complete record (deal, bidding, pushes, declaration, Kontra calls, every card
in order) replayed through :func:`skatsim.records.record.replay` — the kernels the simulator uses —
under the variant parameters named in each test. Deals are written hand by hand (FH, MH, RH,
skat) and play trick by trick in playing order, ISS notation. The Ramsch deals were found in
seeded simulations (a 40:40:40 is rare) and frozen here; the expected figures are worked out
in each docstring from the rules, not taken from the engine. Lists (Bock rounds, Seeger-Fabian
totals) are checked on a hand-made event sequence and on seeded lists against a plain Python
reckoning of the rules.
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

from skatsim.bots import bot_arrays
from skatsim.engine import bock, kontra, ramsch, rules
from skatsim.engine.bidding import HOLD, PASS
from skatsim.engine.gametypes import GRAND, NULL, RAMSCH, REVERSED
from skatsim.engine.rules import RAMSCH_THREE_WAY_TIE
from skatsim.engine.scoring import HAND, OUVERT, list_points
from skatsim.records.record import GameRecord, GameResult, ReplayError, replay
from skatsim.variant import Variant, official_params

FH, MH, RH = 0, 1, 2

# ---------------------------------------------------------------- helpers


# ---------------------------------------------------------------- Kontra / Re

#: MH plays Grand at 20 without 1 (FH held 18, RH never bid) and takes 40 points: -96 plain.
_LOST_GRAND = GameRecord(
    deal=_deal(
        "CJ CA CT CK SA ST SK HA HT D7",
        "SJ HJ CQ C9 SQ S9 HK HQ DA DT",
        "DJ C8 C7 S8 S7 H9 H8 DK DQ D9",
        "D8 H7",
    ),
    bids=((MH, 18), (FH, HOLD), (MH, 20), (FH, PASS), (RH, PASS)),
    pickup=True,
    discards=_cards("D8 H7"),
    game_type=GRAND,
    cards=_tricks(
        "HA HQ H9", "SK SQ S7", "ST S9 S8", "SA HK C7", "CT CQ C8",
        "HT SJ H8", "C9 DJ CA", "D9 D7 DA", "DT DQ CK", "HJ DK CJ",
    ),
)  # fmt: skip
_KONTRA = _params(KONTRA_ENABLED=1)


def test_lost_grand_without_kontra() -> None:
    """The game the Kontra tests double: Grand without 1, value 48, lost with 40 points: -96."""
    _expect(replay(_LOST_GRAND, _KONTRA), declarer=MH, bid=20, won=False, game_value=48, score=-96, kontra_level=0)


def test_kontra_and_re_on_a_lost_grand() -> None:
    """Kontra (x2) by FH, Re (x4) by the declarer: -96 x 4 = -384; the game value stays 48."""
    ev = replay(replace(_LOST_GRAND, kontra=(FH,)), _KONTRA)
    _expect(ev, won=False, game_value=48, score=-192, score_mh=-192, kontra_level=1)
    ev = replay(replace(_LOST_GRAND, kontra=(FH, MH)), _KONTRA)
    _expect(ev, won=False, game_value=48, score=-384, score_fh=0, score_mh=-384, score_rh=0, kontra_level=2)


def test_calls_beyond_re() -> None:
    """With kontra.beyond_re = 1 a defender may answer Re (x8: -768); nothing after that."""
    beyond = _params(KONTRA_ENABLED=1, KONTRA_BEYOND_RE=1)
    _expect(replay(replace(_LOST_GRAND, kontra=(FH, MH, RH)), beyond), score=-768, kontra_level=3)
    with pytest.raises(ReplayError, match="no further doubling"):
        replay(replace(_LOST_GRAND, kontra=(FH, MH, RH)), _KONTRA)
    with pytest.raises(ReplayError, match="kontra call 4 .*no further doubling"):
        replay(replace(_LOST_GRAND, kontra=(FH, MH, RH, MH)), beyond)


def test_kontra_is_the_defenders_and_re_the_declarers() -> None:
    with pytest.raises(ReplayError, match="kontra call 1 \\(Kontra by seat 1\\): Kontra and the calls after Re"):
        replay(replace(_LOST_GRAND, kontra=(MH,)), _KONTRA)
    with pytest.raises(ReplayError, match="kontra call 2 \\(Re by seat 2\\): only the declarer"):
        replay(replace(_LOST_GRAND, kontra=(FH, RH)), _KONTRA)
    with pytest.raises(ReplayError, match="no Kontra"):
        replay(replace(_LOST_GRAND, kontra=(FH,)))


def test_kontra_refused_to_a_defender_who_never_bid() -> None:
    """kontra.only_if_bid: RH passed without bidding, so he may not say Kontra; FH held 18, so he may."""
    only_if_bid = _params(KONTRA_ENABLED=1, KONTRA_ONLY_IF_BID=1)
    with pytest.raises(ReplayError, match="only a defender who bid or held at least 18"):
        replay(replace(_LOST_GRAND, kontra=(RH,)), only_if_bid)
    _expect(replay(replace(_LOST_GRAND, kontra=(FH, MH)), only_if_bid), score=-384, kontra_level=2)
    _expect(replay(replace(_LOST_GRAND, kontra=(RH, MH)), _KONTRA), score=-384, kontra_level=2)


def test_kontra_and_list_points() -> None:
    """Seeger-Fabian: by default Kontra/Re double the game score only: -384 - 50 = -434 and +40 per
    defender; with kontra.multiplies_list_points the 50 and 40 are doubled too (x4): -584, +160."""
    base = {"KONTRA_ENABLED": 1, "LIST_SCORING": 1, "LIST_LENGTH": 36}
    record = replace(_LOST_GRAND, kontra=(FH, MH))
    ev = replay(record, _params(**base))
    assert (ev.list_points_fh, ev.list_points_mh, ev.list_points_rh) == (40, -434, 40)
    ev = replay(record, _params(**base, KONTRA_LIST_POINTS=1))
    assert (ev.list_points_fh, ev.list_points_mh, ev.list_points_rh) == (160, -584, 160)
    out = np.zeros(3, dtype=np.int64)
    list_points(1, True, 48 * 4, _params(**base), out, 4)
    assert out.tolist() == [0, 192 + 200, 0]


def test_kontra_levels_and_doubling() -> None:
    assert [kontra.doubled(-96, level) for level in range(6)] == [-96, -192, -384, -768, -1536, -3072]
    assert [kontra.max_level(_params(KONTRA_ENABLED=1, KONTRA_BEYOND_RE=b)) for b in range(4)] == [2, 3, 4, 5]
    assert kontra.max_level(official_params()) == 0


# ---------------------------------------------------------------- Ramsch

_ALL_PASS = ((MH, PASS), (RH, PASS), (FH, PASS))
_RAMSCH = _params(ALL_PASS=1)

#: A Ramsch ending 40:40:40 with the skat (ST C8, 10 points) to the last trick. Tricks won:
#: MH 3 (HQ), RH 13 (DT), MH 11 (SA), FH 7 (CK), MH 11 (D9), RH 21 (CT), FH 14 (SK), MH 15 (HK),
#: RH 6 (CJ), FH 9 (SJ, last trick): FH 30 + 10, MH 40, RH 40. Latest tricks: FH 10, RH 9, MH 8.
_TIE = GameRecord(
    deal=_deal(
        "CK SK SJ S8 HJ H8 H7 DA DQ D8",
        "C9 C7 SA HK HQ HT DK DJ D9 D7",
        "CA CQ CJ CT SQ S9 S7 HA H9 DT",
        "ST C8",
    ),
    bids=_ALL_PASS,
    game_type=RAMSCH,
    cards=_tricks(
        "H7 HQ H9", "D7 DT DQ", "S7 S8 SA", "C7 CQ CK", "D8 D9 HA",
        "C9 CT DA", "S9 SK HT", "H8 HK CA", "DJ CJ HJ", "SQ SJ DK",
    ),
)  # fmt: skip

#: MH takes no trick (Jungfrau). FH wins D9, HQ, CQ, CT, SJ, DK: 53; RH SA, DA, CJ, HJ: 64 + skat S8 SQ (3,
#: RH took the last trick) = 67.
_JUNGFRAU = GameRecord(
    deal=_deal(
        "CQ CT SJ S7 HQ HT DK DQ DT D9",
        "C9 C7 SK ST S9 HA HK H9 H7 D8",
        "CA CK CJ C8 SA HJ H8 DA DJ D7",
        "S8 SQ",
    ),
    bids=_ALL_PASS,
    game_type=RAMSCH,
    cards=_tricks(
        "S7 S9 SA", "D7 D9 D8", "DQ HA DA", "H8 HQ H9", "CQ C9 C8",
        "CT C7 CK", "SJ ST DJ", "DK HK CA", "DT SK CJ", "HJ HT H7",
    ),
)  # fmt: skip

#: MH takes all ten tricks: 120 points with the skat, FH and RH are both Jungfrau.
_DURCHMARSCH = GameRecord(
    deal=_deal(
        "CK CQ C9 C7 SA SK SQ S9 DJ D7",
        "CA CJ CT HA HQ HJ HT H8 DK DT",
        "C8 SJ S8 HK H9 H7 DA DQ D9 D8",
        "S7 ST",
    ),
    bids=_ALL_PASS,
    game_type=RAMSCH,
    cards=_tricks(
        "D7 DK DQ", "H8 H7 SA", "HQ H9 SK", "DT D9 CK", "CJ SJ DJ",
        "HJ DA SQ", "HA HK CQ", "CA C8 C9", "HT D8 S9", "CT S8 C7",
    ),
)  # fmt: skip


def _ramsch_scores(ev: GameResult) -> tuple[int, int, int]:
    return ev.score_fh, ev.score_mh, ev.score_rh


def test_ramsch_with_one_jungfrau_doubles_the_loss() -> None:
    """RH has most points (67) and MH took no trick: RH loses 67 x 2 = -134 (RULES.md §6)."""
    ev = replay(_JUNGFRAU, _RAMSCH)
    _expect(
        ev,
        game_type="ramsch",
        declarer=None,
        bid=0,
        won=None,
        score=None,
        ramsch_points_fh=53,
        ramsch_points_mh=0,
        ramsch_points_rh=67,
        jungfrau_count=1,
        durchmarsch=False,
        ramsch_loser=RH,
        schiebe_count=None,
    )
    assert _ramsch_scores(ev) == (0, 0, -134)
    assert _ramsch_scores(replay(_JUNGFRAU, _params(ALL_PASS=1, RAMSCH_JUNGFRAU=0))) == (0, 0, -67)


def test_ramsch_fixed_and_winner_scoring() -> None:
    """Fixed: 10 + 5 per Jungfrau = -15. Winner Ramsch: MH has fewest points (0) and wins 23."""
    assert _ramsch_scores(replay(_JUNGFRAU, _params(ALL_PASS=1, RAMSCH_SCORING=1))) == (0, 0, -15)
    ev = replay(_JUNGFRAU, _params(ALL_PASS=1, RAMSCH_SCORING=2))
    assert (_ramsch_scores(ev), ev.ramsch_loser) == ((0, 23, 0), None)


def test_durchmarsch_recognised_and_not() -> None:
    """Recognised: MH wins +120. Not recognised: he is the loser with 120 points, doubled for each of the
    two Jungfrauen: -480 (the figure of the seed)."""
    ev = replay(_DURCHMARSCH, _RAMSCH)
    _expect(ev, ramsch_points_mh=120, jungfrau_count=2, durchmarsch=True, ramsch_loser=None)
    assert _ramsch_scores(ev) == (0, 120, 0)
    ev = replay(_DURCHMARSCH, _params(ALL_PASS=1, RAMSCH_DURCHMARSCH=0))
    _expect(ev, durchmarsch=True, ramsch_loser=MH)
    assert _ramsch_scores(ev) == (0, -480, 0)
    assert _ramsch_scores(replay(_DURCHMARSCH, _params(ALL_PASS=1, RAMSCH_DURCHMARSCH_VALUE=150))) == (0, 150, 0)


def test_forty_forty_forty_under_each_tie_rule() -> None:
    """40:40:40: all lose 40 each; or FH, who took the last trick, loses 40; or the 40 is shared: 40 = 3 x 13
    + 1, the extra point to the tied player with the latest trick (FH): -14, -13, -13 (docs/decisions.md)."""
    ev = replay(_TIE, _RAMSCH)
    _expect(ev, ramsch_points_fh=40, ramsch_points_mh=40, ramsch_points_rh=40, jungfrau_count=0, ramsch_loser=None)
    assert _ramsch_scores(ev) == (-40, -40, -40)
    ev = replay(_TIE, _params(ALL_PASS=1, RAMSCH_TIE=1))
    assert (_ramsch_scores(ev), ev.ramsch_loser) == ((-40, 0, 0), FH)
    ev = replay(_TIE, _params(ALL_PASS=1, RAMSCH_TIE=2))
    assert (_ramsch_scores(ev), ev.ramsch_loser) == ((-14, -13, -13), None)
    assert _ramsch_scores(replay(_TIE, _params(ALL_PASS=1, RAMSCH_SCORING=2))) == (0, 0, 0)  # nobody has fewest


def test_forty_forty_forty_costs_nobody_anything_under_three_way_tie_nobody_loses() -> None:
    """ramsch.three_way_tie: nobody_loses (xskat): 40:40:40 scores 0 for everyone whatever the tie rule; a
    tie of two still costs both (skat to nobody: MH and RH tie at 40 and lose 40 each)."""
    for tie in (0, 1, 2):
        ev = replay(_TIE, _params(ALL_PASS=1, RAMSCH_TIE=tie, RAMSCH_THREE_WAY_TIE=1))
        assert (_ramsch_scores(ev), ev.ramsch_loser) == ((0, 0, 0), None)
    ev = replay(_TIE, _params(ALL_PASS=1, RAMSCH_SKAT_TO=2, RAMSCH_THREE_WAY_TIE=1))
    assert _ramsch_scores(ev) == (0, -40, -40)
    loaded = Variant.model_validate({"all_pass": "ramsch", "ramsch": {"three_way_tie": "nobody_loses"}})
    assert loaded.params()[RAMSCH_THREE_WAY_TIE] == 1 and Variant().params()[RAMSCH_THREE_WAY_TIE] == 0


def test_skat_to_the_last_trick_the_loser_or_nobody() -> None:
    """The same deal: the skat's 10 points to FH (last trick) make 40:40:40; to the loser they go to RH (MH
    and RH tie at 40 in tricks, RH won the later trick): RH alone loses 50; to nobody, MH and RH lose 40."""
    ev = replay(_TIE, _params(ALL_PASS=1, RAMSCH_SKAT_TO=1))
    _expect(ev, ramsch_points_fh=30, ramsch_points_mh=40, ramsch_points_rh=50, ramsch_loser=RH)
    assert _ramsch_scores(ev) == (0, 0, -50)
    ev = replay(_TIE, _params(ALL_PASS=1, RAMSCH_SKAT_TO=2))
    _expect(ev, ramsch_points_fh=30, ramsch_points_mh=40, ramsch_points_rh=40, ramsch_loser=None)
    assert _ramsch_scores(ev) == (0, -40, -40)


def test_skat_to_each_tied_loser() -> None:
    """ramsch.skat_to: each_loser (xskat's -skattoloser): MH and RH tie at 40 in tricks, so the skat's 10
    points count for both: 50 each, and under tie: all_lose both lose 50 (-50, -50; FH keeps his 30). Under
    `loser` only RH, who won the later trick, gets them and alone loses 50. Shared, the 50 goes 25 and 25;
    with last_trick_loses RH (his latest trick, the 9th, beats MH's 8th) loses 50. A single loser (MH a
    Jungfrau, RH 64 in tricks + 3) loses as under `loser`: 67 x 2 = -134."""
    each = {"ALL_PASS": 1, "RAMSCH_SKAT_TO": 3}
    ev = replay(_TIE, _params(**each))
    _expect(ev, ramsch_points_fh=30, ramsch_points_mh=50, ramsch_points_rh=50, ramsch_loser=None)
    assert _ramsch_scores(ev) == (0, -50, -50)
    assert _ramsch_scores(replay(_TIE, _params(ALL_PASS=1, RAMSCH_SKAT_TO=1))) == (0, 0, -50)
    assert _ramsch_scores(replay(_TIE, _params(**each, RAMSCH_TIE=2))) == (0, -25, -25)
    ev = replay(_TIE, _params(**each, RAMSCH_TIE=1))
    assert (_ramsch_scores(ev), ev.ramsch_loser) == ((0, 0, -50), RH)
    assert _ramsch_scores(replay(_JUNGFRAU, _params(**each))) == (0, 0, -134)
    loaded = Variant.model_validate({"all_pass": "ramsch", "ramsch": {"skat_to": "each_loser"}})
    assert loaded.params()[rules.RAMSCH_SKAT_TO] == 3


def test_ramsch_only_when_the_variant_plays_it() -> None:
    with pytest.raises(ReplayError, match="all players passed, nobody can declare"):
        replay(_TIE)
    with pytest.raises(ReplayError, match="this deal is a Ramsch under this variant, but no game is recorded"):
        replay(replace(_TIE, game_type=None, cards=()), _RAMSCH)
    every_deal = replace(_TIE, bids=())
    ev = replay(every_deal, _params(ALL_PASS=1, RAMSCH_EVERY_DEAL=1))
    assert _ramsch_scores(ev) == (-40, -40, -40)
    with pytest.raises(ReplayError, match="a compulsory Ramsch .* is not bid"):
        replay(_TIE, _params(ALL_PASS=1, RAMSCH_EVERY_DEAL=1))


# ---------------------------------------------------------------- Schieberamsch

#: FH passes the skat (HA SK) on unseen; MH picks it up and pushes DA HA; RH picks those up and pushes
#: DA SA. MH loses with 30 in tricks + the final skat DA SA (22, he took the last trick) = 52.
_SCHIEBE = GameRecord(
    deal=_deal(
        "CJ C9 C7 SQ S8 HK H9 DQ D9 D8",
        "CQ C8 SJ S7 HJ H7 DA DK DT D7",
        "CA CK CT SA ST S9 HQ HT H8 DJ",
        "HA SK",
    ),
    bids=_ALL_PASS,
    pushes=((), _cards("DA HA"), _cards("DA SA")),
    game_type=RAMSCH,
    cards=_tricks(
        "C7 C8 CK", "H8 H9 H7", "D8 D7 HA", "S8 S7 S9", "HQ HK DT",
        "D9 DK CA", "CQ CT C9", "ST SQ SK", "DJ CJ HJ", "DQ SJ HT",
    ),
)  # fmt: skip
_SCHIEBERAMSCH = _params(ALL_PASS=2)


def test_schieberamsch_two_pushes_under_both_doubling_rules() -> None:
    """One player declined: x2 under "decline" doubling (-104); two pushed: x4 under "push" doubling (-208)."""
    ev = replay(_SCHIEBE, _SCHIEBERAMSCH)
    _expect(ev, ramsch_points_fh=34, ramsch_points_mh=52, ramsch_points_rh=34, schiebe_count=2, ramsch_loser=MH)
    assert _ramsch_scores(ev) == (0, -104, 0)
    assert _ramsch_scores(replay(_SCHIEBE, _params(ALL_PASS=2, SCHIEBE_DOUBLING=1))) == (0, -208, 0)
    ev = replay(_SCHIEBE, _params(ALL_PASS=2, RAMSCH_SCORING=2))  # FH and RH tie for fewest: 37 each, x2
    assert _ramsch_scores(ev) == (74, 0, 74)


def test_three_declines_are_x8() -> None:
    assert [ramsch.schiebe_factor(p, 3 - p, _SCHIEBERAMSCH) for p in range(4)] == [8, 4, 2, 1]
    assert [ramsch.schiebe_factor(p, 3 - p, _params(ALL_PASS=2, SCHIEBE_DOUBLING=1)) for p in range(4)] == [1, 2, 4, 8]


def test_refused_jack_push() -> None:
    """MH may not pass HJ on (schieberamsch.jacks_may_be_pushed is false); with it true he may."""
    record = replace(_SCHIEBE, pushes=((), _cards("DA HJ"), _cards("DA SA")))
    with pytest.raises(ReplayError, match="push by seat 1 \\(DA HJ\\): jacks may not be passed on"):
        replay(record, _SCHIEBERAMSCH)
    twelve = _mask("CQ C8 SJ S7 HJ H7 DA DK DT D7 HA SK")
    assert ramsch.push_error(twelve, _mask("DA HJ"), _SCHIEBERAMSCH) == ramsch.E_PUSH_JACK
    assert ramsch.push_error(twelve, _mask("DA HJ"), _params(ALL_PASS=2, SCHIEBE_JACKS=1)) == ramsch.OK
    assert ramsch.push_error(twelve, _mask("DA CA"), _SCHIEBERAMSCH) == ramsch.E_PUSH_NOT_HELD
    assert ramsch.push_error(twelve, _mask("DA"), _SCHIEBERAMSCH) == ramsch.E_PUSH_COUNT
    with pytest.raises(ReplayError, match="FH, MH and RH \\(3 entries\\), got 2"):
        replay(replace(_SCHIEBE, pushes=((), _cards("DA HA"))), _SCHIEBERAMSCH)


# ---------------------------------------------------------------- Grand hand instead of a Ramsch

#: All pass; FH declares Grand hand instead of the Ramsch: with 4, game 5, hand 6: 6 x 24 = 144, won with 84.
_INSTEAD = GameRecord(
    deal=_deal(
        "CA CJ SK SJ HJ H7 DA DK DJ DT",
        "CQ C9 C7 SA S7 HQ H8 D9 D8 D7",
        "CT C8 SQ ST S9 S8 HA HK H9 DQ",
        "HT CK",
    ),
    bids=_ALL_PASS,
    game_type=GRAND,
    grand_hand_instead=FH,
    cards=_tricks(
        "DA D7 DQ", "CA C7 C8", "DT D8 S8", "DK D9 H9", "H7 H8 HA",
        "CT DJ C9", "SK SA ST", "HQ HK HJ", "SJ S7 S9", "CJ CQ SQ",
    ),
)  # fmt: skip


def test_grand_hand_instead_of_a_ramsch() -> None:
    ev = replay(_INSTEAD, _params(ALL_PASS=1, RAMSCH_GRAND_HAND=1))
    _expect(ev, game_type="grand", declarer=FH, bid=0, hand=True, matadors=4, declarer_points=84, won=True)
    _expect(ev, game_value=144, score=144, score_fh=144)
    with pytest.raises(ReplayError, match="no Grand hand instead of a Ramsch"):
        replay(_INSTEAD, _RAMSCH)
    with pytest.raises(ReplayError, match="instead of a Ramsch only"):
        replay(_INSTEAD)


def test_grand_hand_instead_only_in_a_bock_ramsch_round() -> None:
    """ramsch.grand_hand_instead: ramsch_rounds (xskat): the Grand hand (+144) may be declared instead of the
    Ramsch of a Bock list's Ramsch round, not instead of a Ramsch after all passed."""
    only_rounds = {"RAMSCH_GRAND_HAND": 2, "BOCK_ENABLED": 1, "BOCK_RAMSCH_ROUND": 1}
    in_round = replace(_INSTEAD, bids=(), ramsch_round=1)
    _expect(replay(in_round, _params(**only_rounds)), declarer=FH, game_value=144, score=144)
    with pytest.raises(ReplayError, match="no Grand hand instead of a Ramsch"):
        replay(_INSTEAD, _params(ALL_PASS=1, **only_rounds))
    _expect(replay(_INSTEAD, _params(ALL_PASS=1, RAMSCH_GRAND_HAND=1)), score=144)


# ---------------------------------------------------------------- the pre-1999 Grand ouvert

#: FH holds the four jacks, the aces and tens of clubs, spades and hearts: Grand ouvert at 18, all ten
#: tricks. With 4, game 5, hand 6, Schneider 7, announced 8, Schwarz 9, announced 10, ouvert 11.
_GRAND_OUVERT = GameRecord(
    deal=_deal(
        "CJ SJ HJ DJ CA CT SA ST HA HT",
        "CK CQ C9 C8 SK SQ S9 HK HQ DA",
        "C7 S8 S7 H9 H8 H7 DT DK DQ D9",
        "D8 D7",
    ),
    bids=((MH, PASS), (RH, PASS), (FH, 18)),
    game_type=GRAND,
    flags=HAND | OUVERT,
    cards=_tricks(
        "CJ C8 C7", "SJ C9 S7", "HJ CQ S8", "DJ CK H7", "CA DA H8",
        "CT SK H9", "SA SQ DT", "ST S9 DK", "HA HK DQ", "HT HQ D9",
    ),
)  # fmt: skip


def test_grand_ouvert_before_1999() -> None:
    """scoring.grand_ouvert: official: 11 x 24 = 264 (ISkO 5.2.6). base_36 (the pre-1999 rules, xskat's
    -oldrules): base value 36 and ouvert is no level: 10 x 36 = 360. Other games keep their value."""
    _expect(replay(_GRAND_OUVERT), matadors=4, won=True, schwarz=True, game_value=264, score=264)
    _expect(replay(_GRAND_OUVERT, _params(GRAND_OUVERT_36=1)), game_value=360, score=360)
    _expect(replay(_INSTEAD, _params(ALL_PASS=1, RAMSCH_GRAND_HAND=1, GRAND_OUVERT_36=1)), game_value=144)
    loaded = Variant.model_validate({"scoring": {"grand_ouvert": "base_36", "lost_hand_factor": 1}})
    assert loaded.params()[rules.GRAND_OUVERT_36] == 1


# ---------------------------------------------------------------- the reversed game (Sächsische Spitze)

#: FH plays the reversed game hand at 22. DJ (in the skat), HJ, SJ are his, CJ is RH's: with 3, game 4,
#: hand 5: 5 x 20 = 100; he takes 71 points.
_REVERSED_GAME = GameRecord(
    deal=_deal(
        "SJ S9 S8 S7 HK HQ HJ DK DT D8",
        "CT C9 SA SK HT H8 H7 DA DQ D7",
        "CA CK CJ C8 C7 SQ ST HA H9 D9",
        "DJ CQ",
    ),
    bids=((MH, 18), (FH, HOLD), (MH, 20), (FH, HOLD), (MH, 22), (FH, HOLD), (MH, PASS), (RH, PASS)),
    game_type=REVERSED,
    cards=_tricks(
        "D8 DQ D9", "S7 SA ST", "S9 SK SQ", "DT D7 CA", "H8 HA HK",
        "HT H9 HQ", "C8 SJ CT", "HJ H7 CJ", "DK DA CK", "S8 C9 C7",
    ),
)  # fmt: skip


def test_reversed_game_tricks_matadors_and_value() -> None:
    """7 beats A in a suit (S7 takes SA ST), 9 beats 10, HJ beats CJ; matadors from DJ: with 3; 20 x 5 = 100."""
    ev = replay(_REVERSED_GAME, _params(REVERSED_ALLOWED=1))
    _expect(ev, game_type="reversed", declarer=FH, bid=22, hand=True, matadors=3, declarer_points=71)
    _expect(ev, won=True, game_value=100, score=100)
    winners = [(t.leader, t.winner, t.points) for t in ev.tricks]
    assert winners[1] == (FH, FH, 21)  # S7 SA ST
    assert winners[5] == (MH, RH, 13)  # HT H9 HQ: the 9 beats the 10
    assert winners[7] == (FH, FH, 4)  # HJ H7 CJ
    with pytest.raises(ReplayError, match="reversed game is not allowed"):
        replay(_REVERSED_GAME)


# ---------------------------------------------------------------- Bock rounds and lists


def _queue_run(events: set[int], n: int, params: np.ndarray) -> tuple[list[int], list[int]]:
    """Walk the Bock queue kernels over ``n`` deals with events at the given deals: (multipliers,
    compulsory Ramsch kinds) per deal."""
    queue = np.zeros(bock.N_FIELDS, dtype=np.int64)
    bock.new_queue(queue)
    multipliers, ramsch_rounds = [], []
    for k in range(n):
        ramsch_rounds.append(int(bock.ramsch_round(queue, params)))
        triggered = k in events
        multipliers.append(int(bock.multiplier(queue, triggered, params)))
        bock.advance(queue, triggered, params)
    return multipliers, ramsch_rounds


def test_bock_round_triggered_stacked_and_consumed_with_a_ramsch_round_after() -> None:
    """Events in deals 1, 2 and 8. Deal 1 queues a Bock round (deals 2-4), deal 2's event, inside it, a
    second one: after the first Bock round comes its Ramsch round (5-7), then the stacked Bock round
    (8-10), its Ramsch round (11-13), then deal 8's Bock round (14-16) and Ramsch round (17-19)."""
    params = _params(BOCK_ENABLED=1, BOCK_RAMSCH_ROUND=1)
    multipliers, ramsch_rounds = _queue_run({1, 2, 8}, 21, params)
    assert multipliers == [1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1]
    assert ramsch_rounds == [0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0]


def test_bock_rounds_without_ramsch_round_and_counting_the_trigger() -> None:
    """Without a Ramsch round the stacked round follows at once (2-4, 5-7); deal 8 comes after them and
    opens a new round (9-11). With trigger_counts_double the triggering deals count double too, once."""
    multipliers, ramsch_rounds = _queue_run({1, 2, 8}, 13, _params(BOCK_ENABLED=1))
    assert multipliers == [1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 1]
    assert set(ramsch_rounds) == {0}
    params = _params(BOCK_ENABLED=1, BOCK_TRIGGER_DOUBLE=1, BOCK_MULTIPLIER=3)
    assert _queue_run({1, 2, 8}, 13, params)[0] == [1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1]


def test_bock_events() -> None:
    """Each event on its own: a deal that shows it queues a round, a deal that does not, none."""
    bits = rules.BOCK_EVENT_BITS

    def fires(event: str, **deal: object) -> bool:
        args = {"all_passed": False, "gt": GRAND, "flags": 0, "won": True, "points": 70, "value": 48, "level": 0}
        args.update(deal)
        params = _params(BOCK_ENABLED=1, BOCK_EVENTS=bits[event])
        return bool(bock.deal_events(params, *args.values()))

    assert fires("all_passed", all_passed=True, gt=-1) and not fires("all_passed")
    assert fires("kontra_re", level=2) and not fires("kontra_re", level=1)
    assert fires("lost_after_kontra", level=1, won=False) and not fires("lost_after_kontra", level=1)
    assert fires("sixty_sixty", points=60, won=False) and not fires("sixty_sixty", points=61)
    assert fires("lost_grand", won=False) and not fires("lost_grand", gt=3, won=False)
    assert fires("lost_grand_hand", won=False, flags=HAND) and not fires("lost_grand_hand", won=False)
    assert fires("value_100", value=100) and not fires("value_100", value=99)
    assert fires("won_grand_hand", flags=HAND) and not fires("won_grand_hand", flags=HAND, won=False)
    assert fires("won_null_ouvert_hand", gt=NULL, flags=HAND | OUVERT) and not fires("won_null_ouvert_hand", gt=NULL)
    assert not fires("value_100", gt=RAMSCH, value=120)


def test_xskat_bock_events() -> None:
    """won_value_72 / won_value_96: a won game worth 72 (96) or more before any doubling; a lost one never
    (xskat's "+72", "+96"), a recognised Durchmarsch as a won game of 120. Related events count once in a
    deal: Kontra and Re on a lost game, a lost Grand hand, a won game worth 100 with both value events."""
    bits = rules.BOCK_EVENT_BITS

    def events(names: list[str], **deal: object) -> int:
        args = {"all_passed": False, "gt": GRAND, "flags": 0, "won": True, "points": 70, "value": 48, "level": 0}
        args.update(deal)
        mask = sum(bits[name] for name in names)
        return int(bock.deal_events(_params(BOCK_ENABLED=1, BOCK_EVENTS=mask), *args.values()))

    assert events(["won_value_72"], value=72) == 1 and events(["won_value_72"], value=71) == 0
    assert events(["won_value_72"], value=144, won=False) == 0
    assert events(["won_value_96"], value=96) == 1 and events(["won_value_96"], value=95) == 0
    assert events(["won_value_72", "won_value_96"], value=100) == 1
    assert events(["won_value_72"], gt=RAMSCH, value=0, durchmarsch=120) == 1
    assert events(["won_value_72"], gt=RAMSCH, value=0) == 0
    assert events(["value_100"], gt=RAMSCH, value=0, durchmarsch=120) == 0
    assert events(["kontra_re", "lost_after_kontra"], level=2, won=False) == 1
    assert events(["kontra_re", "lost_grand"], level=2, won=False) == 2
    assert events(["lost_grand", "lost_grand_hand"], flags=HAND, won=False) == 1
    assert events(["won_grand_hand", "value_100", "won_value_96"], flags=HAND, value=144) == 3


def test_running_total_events() -> None:
    """total_multiple_100: 100, -200, 1000; total_three_equal_digits: the last three digits equal, 111 to
    999, 1000, 1111, 2111, -333 (a multiple of 1000 is one event, not two); never 11, 110 or 1110. A total
    back at 0 counts only with bock.zero_total_counts (xskat: 0 is a multiple of 100 and 000)."""
    bits = rules.BOCK_EVENT_BITS
    hundreds = _params(BOCK_ENABLED=1, BOCK_EVENTS=bits["total_multiple_100"])
    digits = _params(BOCK_ENABLED=1, BOCK_EVENTS=bits["total_three_equal_digits"])
    assert [bool(bock.total_event(t, hundreds)) for t in (100, -200, 1000, 150, 111, 0)] == [True] * 3 + [False] * 3
    same = (111, 999, 1000, 1111, 2111, -333)
    assert [bool(bock.total_event(t, digits)) for t in same] == [True] * 6
    assert [bool(bock.total_event(t, digits)) for t in (11, 110, 1110, 100, 0)] == [False] * 5
    for params in (hundreds, digits):
        params[rules.BOCK_ZERO_TOTAL] = 1
        assert bock.total_event(0, params)


_LOST = _LOST_GRAND  # MH plays Grand at 20 and loses: -96 (an event "lost_grand")
_PASSED = GameRecord(deal=_TIE.deal, bids=_ALL_PASS)  # all pass: redealt, scores nothing


def _list_of(records: list[GameRecord], variant: dict) -> dict[str, list[int]]:
    """Replay records as one list under a variant (mapping): per deal the Bock multiplier, the dealer and
    the three seats' scores (``scores``: FH, MH, RH)."""
    from skatsim.engine.layout import COL_DEALER
    from skatsim.records.record import replay_list, replay_list_rows

    params = Variant.model_validate(variant).params()
    results = replay_list(records, params)
    rows, _, _ = replay_list_rows(records, params)
    return {
        "bock": [r.bock for r in results],
        "dealer": [int(d) for d in rows[:, COL_DEALER]],
        "scores": [_ramsch_scores(r) for r in results],
    }


def test_grand_hand_instead_in_a_ramsch_round_deals_again() -> None:
    """bock.ramsch_round_grand_hand: deals_again (xskat). MH loses a Grand (deal 0: -96): a Bock round of
    three deals (1-3, passed, x2), then a Ramsch round. Its first deal (4) is a Grand hand FH declares
    instead (+144, not doubled): it does not count, so the same player (0) deals again and three Ramsch
    deals (5-7, -40 each) follow before deal 8 is bid again. Dealers: 2 0 1 2 0 0 1 2 0. With `counts`
    the Grand hand is the round's first deal: two Ramsch deals follow (dealers 2 0 1 2 0 1 2 0), and the
    first list's deal 7 is bid, so its Ramsch record (no auction) is refused."""
    instead, ramsch_deal = replace(_INSTEAD, bids=()), replace(_TIE, bids=())
    variant = {
        "ramsch": {"grand_hand_instead": True},
        "bock": {"enabled": True, "events": ["lost_grand"], "ramsch_round_after": True},
    }
    again = {**variant, "bock": {**variant["bock"], "ramsch_round_grand_hand": "deals_again"}}
    records = [_LOST, _PASSED, _PASSED, _PASSED, instead, ramsch_deal, ramsch_deal, ramsch_deal, _LOST]
    played = _list_of(records, again)
    assert played["bock"] == [1, 2, 2, 2, 1, 1, 1, 1, 1]
    assert played["dealer"] == [2, 0, 1, 2, 0, 0, 1, 2, 0]
    assert played["scores"] == [(0, -96, 0)] + [(0, 0, 0)] * 3 + [(144, 0, 0)] + [(-40, -40, -40)] * 3 + [(0, -96, 0)]
    counted = _list_of([*records[:7], _LOST], variant)
    assert counted["dealer"] == [2, 0, 1, 2, 0, 1, 2, 0]
    assert counted["scores"][4:] == [(144, 0, 0), (-40, -40, -40), (-40, -40, -40), (0, -96, 0)]
    with pytest.raises(ReplayError, match="game 8 of the list: bidding: unfinished"):
        _list_of(records, variant)


def test_a_running_total_back_at_zero_opens_a_bock_round() -> None:
    """bock.zero_total_counts (xskat). MH (player 1) makes a Durchmarsch: +120; three Ramsch deals of
    40:40:40 cost everybody 40: player 1 stands at 80, 40, 0, the others at -40, -80, -120 (no multiple of
    100 yet). Back at 0 opens a Bock round with the option: the next 40:40:40 costs 80 each; without it, 40."""
    variant = {"all_pass": "ramsch", "bock": {"enabled": True, "events": ["total_multiple_100"]}}
    zero = {**variant, "bock": {**variant["bock"], "zero_total_counts": True}}
    records = [_DURCHMARSCH, _TIE, _TIE, _TIE, _TIE]
    played = _list_of(records, zero)
    assert played["scores"] == [(0, 120, 0)] + [(-40, -40, -40)] * 3 + [(-80, -80, -80)]
    assert played["bock"] == [1, 1, 1, 1, 2]
    not_zero = _list_of(records, variant)
    assert (not_zero["bock"], not_zero["scores"][4]) == ([1] * 5, (-40, -40, -40))


def test_one_bock_round_per_event() -> None:
    """bock.rounds_per_deal: per_event (xskat). MH loses a Grand after Kontra and Re (-384): with the events
    kontra_re and lost_grand that deal queues two Bock rounds (deals 1-6 count double: 40:40:40 Ramsch deals
    cost 80), one under `one` (deals 1-3). Kontra and Re on a lost game are one event (xskat: "a Kontra
    where the Soloist said Re but lost counts as one event"): with kontra_re and lost_after_kontra, one round."""
    variant = {"all_pass": "ramsch", "kontra": {"enabled": True}, "bock": {"enabled": True}}
    records = [replace(_LOST, kontra=(FH, MH))] + [_TIE] * 7

    def bock_column(events: list[str], rounds: str) -> list[int]:
        bock_keys = {**variant["bock"], "events": events, "rounds_per_deal": rounds}
        played = _list_of(records, {**variant, "bock": bock_keys})
        assert played["scores"][0] == (0, -384, 0)
        assert all(scores == (-40 * m,) * 3 for scores, m in zip(played["scores"][1:], played["bock"][1:], strict=True))
        return played["bock"]

    assert bock_column(["kontra_re", "lost_grand"], "one") == [1, 2, 2, 2, 1, 1, 1, 1]
    assert bock_column(["kontra_re", "lost_grand"], "per_event") == [1, 2, 2, 2, 2, 2, 2, 1]
    assert bock_column(["kontra_re", "lost_after_kontra"], "per_event") == [1, 2, 2, 2, 1, 1, 1, 1]


def _simulate(params: np.ndarray, n: int, seed: int, bots: tuple[str, str, str] = ("heuristic",) * 3) -> dict:
    from skatsim.engine.block import simulate_block
    from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS
    from skatsim.engine.layout import ROW_COLUMNS as COLUMNS

    kinds, bot_params = bot_arrays(bots, params)
    rows = np.zeros((n, N_COLUMNS), dtype=np.int64)
    simulate_block(np.uint64(seed), 0, kinds, bot_params, params, rows, np.zeros((0, LOG_WIDTH), dtype=np.int16))
    return {name: rows[:, k] for k, name in enumerate(COLUMNS)}


def test_seeded_bock_list() -> None:
    """A seeded 36-deal list (random bots) with Bock after a game worth 100, a lost Grand or a won Null
    ouvert hand, and a Ramsch round after each Bock round. Deal 5 triggers (Bock 6-8, Ramsch 9-11); deal
    16 triggers (Bock 17-19) and deal 18, inside that round, stacks another: Ramsch 20-22, Bock 23-25,
    Ramsch 26-28; then the queue is empty. The multipliers equal a plain reckoning of the rules from
    the list's own deals."""
    from skatsim.variant import Variant

    events = ["value_100", "lost_grand_hand", "won_null_ouvert_hand", "lost_grand"]
    bock_on = {"enabled": True, "events": events, "ramsch_round_after": True, "list_length": 36}
    params = Variant.model_validate({"bock": bock_on}).params()
    rows = _simulate(params, 36, seed=3, bots=("random",) * 3)
    multipliers = "".join(str(m) for m in rows["bock"])
    assert multipliers == "111111222111111112221112221111111111"
    queue: list[str] = []  # rounds of three deals: "B" Bock, "R" Ramsch
    expected = []
    for k in range(36):
        kind = queue.pop(0) if queue else "-"
        expected.append("2" if kind == "B" else "1")
        assert (rows["game_type"][k] == RAMSCH) == (kind == "R")
        if kind == "R":
            assert rows["max_bid_fh"][k] == rows["max_bid_mh"][k] == rows["max_bid_rh"][k] == 0  # not bid
        gt, won, value = rows["game_type"][k], rows["won"][k] == 1, rows["game_value"][k]
        null_ouvert_hand = gt == NULL and rows["hand"][k] and rows["ouvert"][k]
        if rows["declarer"][k] >= 0 and (value >= 100 or (gt == GRAND and not won) or (null_ouvert_hand and won)):
            queue.extend(["B"] * 3 + ["R"] * 3)
    assert "".join(expected) == multipliers
    in_bock = rows["bock"] == 2
    assert list(rows["score"][in_bock] % 2) == [0] * int(in_bock.sum())  # every score there counts double
    assert list(rows["list_id"]) == [0] * 36 and list(rows["deal_in_list"]) == list(range(36))
    assert list(rows["dealer"][:4]) == [2, 0, 1, 2]


def test_tournament_list_summed_by_hand() -> None:
    """A seeded 36-deal Seeger-Fabian list (random bots): each deal's list points are the declarer's score +50 (won) or
    -50 (lost), +40 to each defender of a lost game, 0 for a passed deal; players keep their places while
    the deal rotates (player (seat + deal) % 3 sits at a seat), and their list totals are summed here.
    The first three deals, all lost by the declarer: player 1 -66 - 50, players 0 and 2 +40; player 1
    -90 - 50, players 2 and 0 +40; player 2 -70 - 50, players 0 and 1 +40: 120, -216, -40 so far."""
    from skatsim.variant import Variant

    params = Variant.model_validate({"tournament": {"enabled": True}}).params()
    rows = _simulate(params, 36, seed=1, bots=("random",) * 3)
    totals = [0, 0, 0]
    for k in range(36):
        declarer = rows["declarer"][k]
        points = [0, 0, 0]
        if declarer >= 0:
            won = rows["won"][k] == 1
            points[declarer] = rows["score"][k] + (50 if won else -50)
            if not won:
                points = [p if s == declarer else 40 for s, p in enumerate(points)]
        assert [rows[f"list_points_{s}"][k] for s in ("fh", "mh", "rh")] == points, k
        for seat in range(3):
            totals[(seat + k) % 3] += points[seat]
        if k == 2:
            assert totals == [120, -216, -40]
    assert totals == [609, -594, -505]
    assert int(rows["score"].sum()) + 50 * (2 * int(rows["won"].sum()) - int((rows["declarer"] >= 0).sum())) + 40 * (
        2 * int(((rows["declarer"] >= 0) & (rows["won"] == 0)).sum())
    ) == sum(totals)


def test_lists_do_not_depend_on_how_they_are_split(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Chunks hold whole lists: a chunk size of 50 becomes 72 (two lists of 36); the rows equal one run."""
    from pathlib import Path

    from skatsim.run.runner import run_simulation, scan_run

    variant = str(Path(__file__).resolve().parents[1] / "variants" / "pub.yaml")
    run_simulation(variant, 200, 3, str(tmp_path / "a"), bots="random", progress=False, chunk_size=50)
    run_simulation(variant, 200, 3, str(tmp_path / "b"), bots="random", progress=False)
    a = scan_run(str(tmp_path / "a")).collect()
    b = scan_run(str(tmp_path / "b")).collect()
    assert a.equals(b)
    assert sorted(p.name for p in (tmp_path / "a").glob("chunk-*")) == [
        "chunk-000000000000-72.parquet",
        "chunk-000000000072-72.parquet",
        "chunk-000000000144-56.parquet",
    ]
    assert a["list_id"].to_list() == [i // 36 for i in range(200)]


def test_reversed_hand_mirrors_onto_grand() -> None:
    """The heuristic bot judges a reversed-game hand as the Grand of equal trick power: DJ is CJ, the 7
    an ace, the 8 a ten, the 9 a king, the 10 a queen, the queen a 9, the king an 8, the ace a 7."""
    from skatsim.bots.handeval import mirror, unmirror

    assert mirror(_mask("DJ HJ SJ CJ")) == _mask("CJ SJ HJ DJ")
    assert mirror(_mask("S7 S8 S9 ST SQ SK SA")) == _mask("SA ST SK SQ S9 S8 S7")
    assert mirror(_mask("DJ H7 C8 SA")) == _mask("CJ HA CT S7")
    for c in range(32):
        one = np.uint32(1 << c)
        assert unmirror(mirror(one)) == one


# ---------------------------------------------------------------- the heuristic bot's house-rule habits


def _ramsch_state(fh: str, mh: str, rh: str, played: str = "") -> np.ndarray:
    """A Ramsch in play with these hands, after the cards ``played`` (in order, FH leading)."""
    from skatsim.engine import play

    state = np.zeros(play.N_FIELDS, dtype=np.int64)
    hands = np.array([_mask(fh), _mask(mh), _mask(rh)], dtype=np.uint32)
    rest = (1 << 32) - 1 - int(hands[0] | hands[1] | hands[2])
    play.new_play(state, RAMSCH, 0, -1, hands, np.uint32(rest))
    for c in _cards(played):
        assert play.play_card(state, c) == play.OK
    return state


def _ramsch_choice(state: np.ndarray, durchmarsch: bool = False) -> str:
    from skatsim.bots import cardplay
    from skatsim.engine import play
    from skatsim.engine.cards import iss_name

    return iss_name(cardplay.choose_card(state, int(play.to_move(state)), np.zeros(3, dtype=np.int64), durchmarsch))


_FH = "CJ SJ HJ CA CT CK SA ST HA D7"
_MH = "DJ C9 C8 S9 S8 HK HQ H9 DA DT"
_RH = "C7 SQ SK S7 HT H8 H7 DK DQ D9"


def test_ramsch_play_avoids_points_and_tricks() -> None:
    """FH leads the cheapest card another can beat (D7, not a master); MH, unable to beat SA, sheds his
    richest spade... he has only S9 S8, so the higher; RH under SA sheds SK (4 points) onto FH's trick;
    forced to take a trick as last, a player takes it with the cheapest card (DT, not DA)."""
    assert _ramsch_choice(_ramsch_state(_FH, _MH, _RH)) == "D7"
    assert _ramsch_choice(_ramsch_state(_FH, _MH, _RH, "SA")) == "S9"
    assert _ramsch_choice(_ramsch_state(_FH, _MH, _RH, "SA S8")) == "SK"
    assert _ramsch_choice(_ramsch_state(_FH, _MH, _RH, "D7")) == "DT"


def test_ramsch_play_goes_for_a_durchmarsch_only_when_it_counts() -> None:
    """FH holds three jacks and masters everywhere but D7: with a Durchmarsch counting he leads CJ."""
    assert _ramsch_choice(_ramsch_state(_FH, _MH, _RH), durchmarsch=True) == "CJ"
    assert _ramsch_choice(_ramsch_state(_FH, _MH, _RH), durchmarsch=False) == "D7"


def test_replay_command_uses_the_runs_rules(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """`skatsim replay` on a chunk of a house-rule run replays under that run's variant (its manifest)."""
    from pathlib import Path

    import polars as pl

    from skatsim.cli import main
    from skatsim.run.runner import run_simulation

    variant = str(Path(__file__).resolve().parents[1] / "variants" / "pub.yaml")
    run_simulation(variant, 72, 3, str(tmp_path / "run"), bots="heuristic", progress=False, record_play=True)
    [chunk] = sorted((tmp_path / "run").glob("chunk-*.parquet"))
    frame = pl.read_parquet(chunk).with_row_index()
    ramsch_row = frame.filter(pl.col("game_type") == "ramsch")["index"][0]
    assert main(["replay", str(chunk), "--row", str(ramsch_row)]) in (0, None)
    out = capsys.readouterr().out
    row = frame.row(ramsch_row, named=True)
    scores = ", ".join(f"{seat} {row[f'score_{s}']:+d}" for seat, s in (("FH", "fh"), ("MH", "mh"), ("RH", "rh")))
    assert f"scores {scores}" in out and "Result: Ramsch, card points" in out
