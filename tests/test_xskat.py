"""xskat 4.0's own games replayed under variants/xskat.yaml: every score and dealer agrees.

The fixtures (tests/fixtures/xskat/) are five sessions of ``xskat -auto 300`` (Debian xskat
4.0-8), each made once with

    echo "random_seed SEED 0 2" > seed.txt
    LANG=C xskat -auto 300 -lang english -game seed.txt OPTIONS -log NAME.log -list NAME.lst

(the log gzipped), with the seeds and options of :data:`SESSIONS`. Each session is parsed
(:mod:`skatsim.records.xskat`) and replayed as one list (``replay_list``) under a variant that
says ``extends: xskat.yaml`` and the keys of its options (:func:`variant_keys`); every game's
scores (by seat) must equal xskat's game list and every dealer xskat's. Where xskat is
installed, fresh sessions with other seeds are replayed too. The five choices where xskat
decides otherwise than skatsim's defaults each show in these sessions:
:func:`test_each_choice_shows_in_xskats_games` names the first game each one decides.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from skatsim.engine.bidding import HOLD, PASS
from skatsim.engine.cards import parse_card
from skatsim.engine.gametypes import GRAND, RAMSCH
from skatsim.engine.layout import COL_DEALER, COL_SCORE_FH
from skatsim.engine.state import ERR_CODE
from skatsim.records.record import replay_error, replay_list_rows
from skatsim.records.xskat import (
    XskatFormatError,
    XskatGame,
    XskatListEntry,
    parse_list,
    parse_log,
    variant_keys,
)
from skatsim.variant import load_variant

ROOT = Path(__file__).resolve().parents[1]
XSKAT_YAML = ROOT / "variants" / "xskat.yaml"
FIXTURES = ROOT / "tests" / "fixtures" / "xskat"
GAMES = 300

#: name -> (random seed, xskat's rule options) of each fixture session.
SESSIONS: dict[str, tuple[int, list[str]]] = {
    "official": (12345, []),
    "ramsch": (40, "-ramsch -kontra -bock -bockevents 255 -bockramsch".split()),
    "schieberamsch": (12345, "-ramsch -sramsch -kontra -bock -bockevents 255 -bockramsch".split()),
    "skattoloser": (12345, "-ramsch -skattoloser -kontra18 -bock -bockevents 63 -bockramsch -oldrules -tlist".split()),
    "ramschonly": (104, ["-ramschonly"]),
}


def _variant(tmp_path: Path, name: str, keys: dict[str, Any]) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"name": name, "extends": str(XSKAT_YAML), **keys}), encoding="utf-8")
    return path


def _agreement(
    games: list[XskatGame], entries: list[XskatListEntry], variant: Path
) -> tuple[int, int | None, list[str]]:
    """Replay the session as one list: (games whose scores and dealer agree, the first that does not, why)."""
    params = load_variant(variant).variant.params()
    rows, _, errors = replay_list_rows([g.record for g in games], params)
    first_dealer = games[0].dealer
    agree, first, why = 0, None, []
    for k, (game, entry) in enumerate(zip(games, entries, strict=True)):
        if errors[k, ERR_CODE]:
            why.append(f"game {k}: {replay_error(errors[k], game.record)}")
            return agree, k if first is None else first, why
        xskat_scores = entry.scores()
        expected = tuple(xskat_scores[p] for p in game.players)
        scores = tuple(int(v) for v in rows[k, COL_SCORE_FH : COL_SCORE_FH + 3])
        dealer = (int(rows[k, COL_DEALER]) + first_dealer + 1) % 3  # skatsim's player 0 is xskat's first FH
        if scores == expected and dealer == game.dealer:
            agree += 1
        else:
            first = k if first is None else first
            why.append(f"game {k}: scores {scores}, xskat {expected}; dealer {dealer}, xskat {game.dealer}")
    return agree, first, why


def _cards(*names: str) -> tuple[int, ...]:
    """Card ints of cards written as xskat's suit letter and rank (``"H 10"``), sorted."""
    return tuple(sorted(parse_card(name.replace(" 10", "T").replace(" ", "")) for name in names))


def _fixture(name: str) -> tuple[list[XskatGame], list[XskatListEntry]]:
    log = gzip.decompress((FIXTURES / f"{name}.log.gz").read_bytes()).decode("latin-1")
    return parse_log(log), parse_list((FIXTURES / f"{name}.lst").read_text(encoding="latin-1"))


@pytest.mark.parametrize("name", list(SESSIONS))
def test_xskats_games_replay_under_xskat_yaml(name: str, tmp_path: Path) -> None:
    """All 300 games of each session agree with xskat's list: 1500 games in all."""
    games, entries = _fixture(name)
    assert len(games) == len(entries) == GAMES
    agree, first, why = _agreement(games, entries, _variant(tmp_path, name, variant_keys(SESSIONS[name][1], GAMES)))
    assert (agree, first) == (GAMES, None), why[:5]


#: (session, the key set back to skatsim's default, its default, the first game (0-based) it decides).
CHOICES = [
    # 1. game 139 is a Ramsch of 40:40:40: xskat scores 0, tie: all_lose -40 each
    ("ramschonly", ("ramsch", "three_way_tie"), "by_tie_rule", 139),
    # 2. game 203: MH and RH tie at 44 in tricks, the skat holds 13: xskat charges both 57
    ("skattoloser", ("ramsch", "skat_to"), "loser", 203),
    # 3. game 25 is a Grand hand declared instead of a Ramsch-round Ramsch: xskat's dealer deals game 26 too
    ("ramsch", ("bock", "ramsch_round_grand_hand"), "counts", 26),
    # 4. game 4 brings player 0 from 60 back to 0: xskat plays games 5-7 as a Bock round
    ("ramsch", ("bock", "zero_total_counts"), False, 5),
    # 5. several events in a deal queue several rounds: game 40 is still a Bock game for xskat
    ("ramsch", ("bock", "rounds_per_deal"), "one", 40),
    # the old rules: game 41 is a lost hand game, -1 x value
    ("skattoloser", ("scoring", "lost_hand_factor"), 2, 41),
]


@pytest.mark.parametrize(("name", "key", "default", "first"), CHOICES)
def test_each_choice_shows_in_xskats_games(
    name: str, key: tuple[str, str], default: object, first: int, tmp_path: Path
) -> None:
    """With one of xskat's choices set back to skatsim's default the session stops agreeing, at the game
    that choice decides; every game before it still agrees."""
    games, entries = _fixture(name)
    keys = variant_keys(SESSIONS[name][1], GAMES)
    keys.setdefault(key[0], {})[key[1]] = default
    agree, found, _ = _agreement(games, entries, _variant(tmp_path, name, keys))
    assert found == first
    assert agree < GAMES


def test_parsed_game_and_list_entry() -> None:
    """Game 0 of the official session, read by hand from the log: Computer2 deals (random_seed 12345 0 2),
    so Computer3, Computer1, Computer2 are FH, MH, RH. Computer2 (RH) plays diamonds at 20 after picking up
    Club K, Club A (the skat dealt) and putting away Heart 10, Spade Q: he was dealt the ten he played
    minus the skat plus his discards. He wins with 99 points: with 2, game 3, Schneider 4: 4 x 9 = 36."""
    games, entries = _fixture("official")
    game, entry = games[0], entries[0]
    assert (game.dealer, game.players, game.seed, game.number) == (1, (2, 0, 1), 12345, 0)
    record = game.record
    assert (record.game_type, record.pickup, record.flags, record.end) == (0, True, 0, None)
    assert record.bids == ((1, PASS), (2, 20), (0, PASS))
    assert record.deal[30:] == _cards("C K", "C A") and record.discards == _cards("S Q", "H 10")
    assert sorted(record.deal[20:30]) == sorted(
        _cards("C J", "S J", "D A", "D 10", "D K", "D Q", "D 9", "C 7", "H 10", "S Q")
    )
    assert len(set(record.deal)) == 32 and len(record.cards) == 30
    assert entry == XskatListEntry(player=1, ramsch=False, durchmarsch=False, value=36, won=True)
    assert entry.scores() == (0, 36, 0)


def test_parsed_ramsch_round_and_kontra() -> None:
    """A Grand hand logged without a bid was declared instead of a Ramsch (game 25 of the ramsch session,
    by RH); a defender's name underlined said Kontra, and the rebuilt auction lets him have bid."""
    games, _ = _fixture("ramsch")
    instead = games[25].record
    assert (instead.game_type, instead.grand_hand_instead, instead.bids, instead.pickup) == (GRAND, 2, (), False)
    kontra = [g.record for g in games if g.record.kontra]
    assert kontra and all(r.game_type != RAMSCH for r in kontra)
    for record in kontra:
        caller, bid = record.kontra[0], max(action for _, action in record.bids)
        assert any(seat == caller and action != PASS for seat, action in record.bids) or bid == 18


def test_list_entry_scores() -> None:
    """xskat's list: a Ramsch whose ``player`` won (two tied for the loss) charges the other two."""
    assert XskatListEntry(1, True, False, 57, True).scores() == (-57, 0, -57)
    assert XskatListEntry(0, True, True, 120, True).scores() == (120, 0, 0)
    assert XskatListEntry(2, True, False, 48, False).scores() == (0, 0, -48)
    assert XskatListEntry(0, False, False, 0, False).scores() == (0, 0, 0)


def test_variant_keys_of_xskat_options() -> None:
    keys = variant_keys("-ramsch -sramsch -kontra18 -bock -bockevents 255 -bockramsch -oldrules".split(), 36)
    assert keys == {
        "all_pass": "schieberamsch",
        "kontra": {"enabled": True, "only_if_bid": True},
        "bock": {
            "enabled": True,
            "events": [
                "lost_sixty_sixty",
                "won_grand_hand",
                "lost_after_kontra",
                "kontra_re",
                "total_three_equal_digits",
                "total_multiple_100",
                "won_value_72",
                "won_value_96",
            ],
            "ramsch_round_after": True,
            "ramsch_round_kind": "schieberamsch",
            "list_length": 36,
        },
        "scoring": {"lost_hand_factor": 1, "grand_ouvert": "base_36"},
    }
    assert variant_keys(["-bock", "-bockevents", "12"]) == {}  # Kontra events without -kontra never happen
    assert variant_keys(["-skattoloser"]) == {}  # no Ramsch: nothing to give the skat to
    with pytest.raises(ValueError, match="-spitze: not a rule"):
        variant_keys(["-spitze"])


def test_xskat_yaml_is_xskats_defaults(tmp_path: Path) -> None:
    """Without options xskat plays the official rules; its choices take effect once a rule is on. A file
    extending it still has its own unused options refused."""
    from skatsim.bots import bot_arrays
    from skatsim.engine.block import simulate_block
    from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS
    from skatsim.errors import SkatsimError
    from skatsim.variant import Variant

    def rows(params: np.ndarray) -> np.ndarray:
        out = np.zeros((120, N_COLUMNS), dtype=np.int64)
        kinds, bots = bot_arrays(("heuristic",) * 3, params)
        simulate_block(np.uint64(5), 0, kinds, bots, params, out, np.zeros((0, LOG_WIDTH), dtype=np.int16))
        return out

    xskat = load_variant(XSKAT_YAML).variant
    assert not xskat.needs_lists and xskat.all_pass == "redeal"
    np.testing.assert_array_equal(rows(xskat.params()), rows(Variant().params()))
    ramsch = load_variant(_variant(tmp_path, "r", {"all_pass": "ramsch"})).variant
    assert (ramsch.ramsch.three_way_tie, ramsch.ramsch.grand_hand_instead) == ("nobody_loses", "ramsch_rounds")
    with pytest.raises(SkatsimError, match="kontra.when: set while kontra.enabled is false"):
        load_variant(_variant(tmp_path, "k", {"kontra": {"when": "before_first_card"}}))


def test_not_an_xskat_log() -> None:
    with pytest.raises(XskatFormatError, match="game 1 of the log: no player header"):
        parse_log("(;GM[Skat]...;)\n" + "=" * 40 + "\n")


def test_rebuilt_auctions() -> None:
    """The declarer reaches the final bid; a Kontra caller bid or held on the way where the bid allows."""
    from skatsim.records.xskat import _auction

    assert _auction(0, 18, None) == ((1, PASS), (2, PASS), (0, 18))
    assert _auction(0, 20, 1) == ((1, 20), (0, HOLD), (1, PASS), (2, PASS))
    assert _auction(1, 23, 0) == ((1, 18), (0, HOLD), (1, 23), (0, PASS), (2, PASS))
    assert _auction(2, 18, 1) == ((1, PASS), (2, 18), (0, PASS))  # at 18 MH cannot have bid


XSKAT = shutil.which("xskat") or shutil.which("/usr/games/xskat")


@pytest.mark.skipif(XSKAT is None, reason="xskat is not installed (apt-get install xskat)")
@pytest.mark.parametrize("name", list(SESSIONS))
def test_fresh_xskat_sessions_replay(name: str, tmp_path: Path) -> None:
    """xskat plays a new session of each option set (another seed); every game agrees."""
    assert XSKAT is not None
    seed_file = tmp_path / "seed.txt"
    seed_file.write_text("random_seed 2024 0 2\n", encoding="ascii")
    log, lst = tmp_path / "games.log", tmp_path / "games.lst"
    options = SESSIONS[name][1]
    command = [XSKAT, "-auto", str(GAMES), "-lang", "english", "-game", str(seed_file), *options]
    command += ["-log", str(log), "-list", str(lst)]
    subprocess.run(command, check=True, capture_output=True, timeout=120, env={"LANG": "C", "HOME": str(tmp_path)})
    games = parse_log(log.read_text(encoding="latin-1"))
    entries = parse_list(lst.read_text(encoding="latin-1"))
    assert len(games) == len(entries) == GAMES
    agree, first, why = _agreement(games, entries, _variant(tmp_path, name, variant_keys(options, GAMES)))
    assert (agree, first) == (GAMES, None), why[:5]
