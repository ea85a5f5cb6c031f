"""Real ISS games as an answer key for the rule kernels, and the ISS import and replay commands.

The fixture ``tests/fixtures/iss/real_games.sgf`` holds 46 real games (see the
README beside it). Every game that was declared and played to the end, or
ended by SC, RE, a timeout or a player leaving, is replayed and compared with
the server's recorded result field by field. Where the record is not a clean
answer key, the differing field is listed in ``EXCEPTIONS`` with the engine's
exact value and the reason; nothing else is skipped.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatsim.cli import main
from skatsim.engine import bidding, declaration, kontra, play, ramsch
from skatsim.engine.cards import parse_card
from skatsim.engine.gametypes import CLUBS_GAME, GRAND
from skatsim.engine.scoring import HAND, OUVERT, SCHWARZ_ANNOUNCED
from skatsim.records.importer import IMPORT_MANIFEST, finished_import, import_iss, iss_table_schema
from skatsim.records.iss import (
    COMPARED,
    REASONS,
    WRONG_DECLARER,
    WRONG_SEAT,
    IssFormatError,
    IssGame,
    compare,
    parse_line,
    replay_iss,
)
from skatsim.records.record import RECORD_REASONS, EarlyEnd, GameRecord, GameResult, ReplayError, replay
from skatsim.schema import ISS_COLUMNS as ISS_COLUMN_DEFS
from skatsim.schema import RESULT_COLUMNS

FIXTURE = Path(__file__).parent / "fixtures" / "iss" / "real_games.sgf"
LINES = FIXTURE.read_text(encoding="utf-8").splitlines()
GAMES = {parse_line(line).result["iss_id"]: line for line in LINES}


#: (game ID, field) -> (the engine's exact value, why it differs from the server's record).
EXCEPTIONS: dict[tuple[int, str], tuple[object, str]] = {
    (10330141, "matadors"): (
        3,
        "the declarer timed out between declaring and discarding; the server's m:-11 counts matadors over no "
        "cards (README: artefact). The engine counts his 12 cards: CJ SJ HJ, with 3.",
    ),
    (10330141, "score"): (
        -96,
        "a forfeit before the first card is lost 'einfach' (ISkO 4.1.4): -2 x 12 x (with 3 + game) = -96; the "
        "server's -288 = -2 x 12 x 12 comes from its artefact m:-11.",
    ),
}

ISS_COLUMNS = tuple(c.name for c in ISS_COLUMN_DEFS)


def read_import(folder: Path) -> pl.DataFrame:
    """The table of the finished import in ``folder``, its chunk files in line order."""
    return pl.read_parquet(finished_import(str(folder))[1])


DECLARED = sorted(i for i, line in GAMES.items() if parse_line(line).result["iss_result"] in ("win", "loss"))


def _game(iss_id: int) -> tuple[IssGame, GameResult]:
    game = parse_line(GAMES[iss_id])
    return game, replay_iss(game)


# --- the answer key ------------------------------------------------------------------------------


@pytest.mark.parametrize("iss_id", DECLARED)
def test_engine_matches_recorded_result(iss_id: int) -> None:
    game, evaluation = _game(iss_id)
    engine = evaluation.columns()
    for name, iss_name in COMPARED.items():
        if (iss_id, name) in EXCEPTIONS:
            expected, reason = EXCEPTIONS[(iss_id, name)]
            assert reason
            assert engine[name] == expected, f"{name}: documented exception, engine value changed"
            assert engine[name] != game.result[iss_name], f"{name}: documented exception no longer needed"
        else:
            assert engine[name] == game.result[iss_name], f"game {iss_id} field {name}"


def test_every_exception_names_a_declared_game_and_field() -> None:
    for iss_id, name in EXCEPTIONS:
        assert iss_id in DECLARED and name in COMPARED


def test_compare_lists_exactly_the_documented_exceptions() -> None:
    found = {(i, name) for i in DECLARED for name in compare(_game(i)[1], parse_line(GAMES[i]).result)}
    assert found == set(EXCEPTIONS)


def test_counts_of_outcomes() -> None:
    outcomes = Counter()
    for iss_id in GAMES:
        game, evaluation = _game(iss_id)
        outcomes[(evaluation.game_type if evaluation.declarer is None else "declared", game.result["iss_result"])] += 1
        if evaluation.won is not None:
            outcomes[("won", evaluation.won)] += 1
        outcomes[("overbid", evaluation.overbid)] += 1
    assert outcomes == Counter(
        {
            ("declared", "win"): 32,
            ("declared", "loss"): 9,
            ("passed", "passed"): 3,
            ("aborted", "penalty"): 2,
            ("won", True): 32,
            ("won", False): 9,
            ("overbid", False): 39,
            ("overbid", True): 2,
            ("overbid", None): 5,
        }
    )


def test_passed_and_penalty_games() -> None:
    _, passed = _game(756788)
    assert passed.columns()["game_type"] == "passed" and passed.declarer is None and passed.score == 0
    game, aborted = _game(8)
    assert (aborted.game_type, aborted.declarer, aborted.bid, aborted.score) == ("aborted", None, 0, 0)
    assert game.record.end == EarlyEnd("timeout", 2)
    assert game.result["iss_result"] == "penalty" and game.result["iss_won"] is None
    assert parse_line(GAMES[30]).record.end == EarlyEnd("left", 2)


def test_early_ends_are_the_actions_that_ended_the_game() -> None:
    ends = {i: parse_line(GAMES[i]).record.end for i in GAMES}
    assert ends[727] == EarlyEnd("resign", 2)  # SC, RE by MH, a card, RE by RH: both defenders resigned
    assert ends[272095] == EarlyEnd("resign", 2)  # SC then one RE: the record stops, so that RE ended it
    assert ends[136415] == EarlyEnd("timeout", 2)
    assert ends[10330141] == EarlyEnd("timeout", 1)
    assert ends[4912814] is None  # SC and one RE, then played out: the claim was declined
    assert sum(e is not None and e.kind == "resign" for e in ends.values()) == 9


def test_mid_trick_ends_give_the_open_trick_to_the_declarer() -> None:
    mid = {i for i in DECLARED if parse_line(GAMES[i]).record.end and len(parse_line(GAMES[i]).record.cards) % 3}
    assert mid == {727, 136415, 6997012, 6997013, 6997014, 6997016}
    _, evaluation = _game(136415)  # RH times out after MH led DJ: DJ and the rest go to MH
    assert (evaluation.declarer_points, evaluation.declarer_tricks, evaluation.score) == (109, 9, 55)


def test_hidden_card_then_leave() -> None:
    game, evaluation = _game(18358)  # FH plays ?? in trick 1, then MH leaves: the rest goes to RH
    assert game.record.cards == () and game.record.end == EarlyEnd("left", 1)
    assert (evaluation.declarer_points, evaluation.declarer_tricks, evaluation.score) == (120, 10, 96)


def test_null_won_by_the_defenders_resigning() -> None:
    game, evaluation = _game(1390253)
    assert game.record.flags == OUVERT and game.record.discards == (parse_card("HA"), parse_card("HQ"))
    assert (evaluation.won, evaluation.declarer_tricks, evaluation.declarer_points, evaluation.score) == (
        True,
        0,
        14,
        46,
    )


def test_declaration_forms() -> None:
    split = parse_line(GAMES[596891]).record  # "2 D" then "2 D9.DQ"
    assert split.pickup and split.discards == (parse_card("D9"), parse_card("DQ"))
    hand = parse_line(GAMES[26496]).record  # "0 CHZ"
    assert (hand.pickup, hand.game_type, hand.flags) == (False, CLUBS_GAME, HAND | SCHWARZ_ANNOUNCED)
    ouvert = parse_line(GAMES[727]).record  # "0 GO"
    assert (ouvert.game_type, ouvert.flags) == (GRAND, OUVERT)
    assert _game(727)[1].schneider_announced is True


def test_result_fields_of_a_line() -> None:
    result = parse_line(GAMES[596891]).result
    assert result == {
        "iss_id": 596891,
        "iss_declarer": 2,
        "iss_result": "loss",
        "iss_won": False,
        "iss_score": -72,
        "iss_matadors": 1,
        "iss_overbid": True,
        "iss_points": 41,
        "iss_tricks": 4,
        "iss_schneider": False,
        "iss_schwarz": False,
        "iss_date": "2011-02-02/18:10:12/UTC",
        "iss_players": "xskat,Knesebec,bernie",
    }


def test_declarer_resigning_loses() -> None:
    head, rest = GAMES[9].split(" 2 CJ 0 S7 ", 1)
    line = head + " 2 RE ]R[" + rest.split("]R[", 1)[1]  # RH (declarer, clubs hand) resigns in trick 10
    evaluation = replay_iss(parse_line(line))
    assert parse_line(line).record.end == EarlyEnd("resign", 2)
    # played out he took 56 points and 5 tricks, the last one (HA CJ S7, 13 points) among them;
    # with 2, game, hand: 4 x 12 = 48, lost -96
    assert (evaluation.won, evaluation.declarer_tricks, evaluation.declarer_points) == (False, 4, 43)
    assert (evaluation.game_value, evaluation.score) == (48, -96)


# --- bad input -----------------------------------------------------------------------------------


def _error(line: str) -> str:
    with pytest.raises((IssFormatError, ReplayError)) as info:
        replay_iss(parse_line(line))
    return str(info.value)


def test_missing_mv() -> None:
    line = GAMES[9].split("MV[")[0] + "R[passed] ;)"
    assert _error(line) == "missing field MV[]"


def test_garbage_lines() -> None:
    assert _error("hello world") == "not an ISS game record (expected a line starting with '(;')"
    assert _error("(;GM[Skat]ID[1] junk MV[w] R[passed];)") == "unexpected text 'junk' (expected KEY[value] fields)"
    assert (
        _error("(;GM[Skat]ID[x]MV[w]R[passed];)") == "ID[]: expected an integer from 0 to 9223372036854775807, got 'x'"
    )
    assert _error(GAMES[9].replace("p:56", "p:560")) == "R[] p:: expected an integer from 0 to 120, got '560'"
    assert _error(GAMES[9].replace("2 20 1 p", "2 2000 1 p")).endswith(
        "(2 2000): not a bid (a number, y or p), a declaration or a pickup"
    )
    assert _error(GAMES[18358].replace("G.DT.ST", "G.??.??")) == (
        "MV move 8 (2 G.??.??): a hidden card (??) here cannot be replayed"
    )
    assert _error(GAMES[9].replace("R[d:2 loss", "R[d:2")) == (
        "R[]: expected one word of win/loss/penalty and one of bidok/overbid"
    )
    assert _error(GAMES[9].replace(" v:-96", "")) == "R[]: missing v:"


def test_unknown_card() -> None:
    line = GAMES[9].replace("w S7.ST.", "w XX.ST.")
    assert _error(line) == (
        "MV move 1 (deal) card 1: unknown card 'XX' (expected suit C/S/H/D + rank A/T/K/Q/J/9/8/7, e.g. CJ)"
    )


def test_duplicated_card_in_deal() -> None:
    line = GAMES[9].replace("w S7.ST.", "w CJ.ST.")
    assert _error(line).endswith("card CJ is dealt twice")


def test_hidden_card_in_deal_cannot_be_replayed() -> None:
    line = GAMES[9].replace("w S7.ST.", "w ??.ST.")
    assert _error(line) == "the deal has 1 hidden cards (??): a game with hidden cards cannot be replayed"


def test_hidden_skat_is_filled_by_the_pickup() -> None:
    line = GAMES[18358].replace("S9.ST.DA 1 18", "S9|??.?? 1 18")
    assert parse_line(line).record.deal == parse_line(GAMES[18358]).record.deal


def test_illegal_move_names_the_move() -> None:
    line = GAMES[9].replace("0 SQ 1 H9 2 SA", "0 SQ 1 H9 2 DA")  # RH holds spades
    assert _error(line) == ("MV move 9 (2 DA): card 3 (seat 2: DA): the player must follow the led suit (or trump)")


def test_illegal_bid_names_the_move() -> None:
    line = GAMES[9].replace("1 18 0 p", "1 17 0 p")
    assert _error(line).startswith("MV move 2 (1 17): bid 1 (seat 1: 17): not a legal bid value")


def test_wrong_seat_names_the_move() -> None:
    line = GAMES[9].replace("0 SQ 1 H9", "0 SQ 2 H9")
    assert _error(line) == "MV move 8 (2 H9): seat 2 plays, but it is seat 1's turn"


def test_wrong_declarer_names_the_move() -> None:
    line = GAMES[9].replace("2 CH", "1 CH")
    assert _error(line) == "MV move 6 (1 CH): seat 1 declares, but the bidding made seat 2 the declarer"


def test_moves_after_the_end() -> None:
    line = GAMES[8].replace("w TI.2 ]", "w TI.2 1 18 ]")
    assert _error(line) == "MV move 4 (1 18): a move after the game ended"


#: Every kind of problem a refused line is counted under (an import's skip reasons): the parser's, the
#: replay's (a step the rules refuse, a record that does not fit the deal) and replay_iss's seat checks.
KNOWN_REASONS = {
    *REASONS.values(),
    *RECORD_REASONS.values(),
    WRONG_DECLARER,
    WRONG_SEAT,
    "discard: a card not among the declarer's 12",
    *(f"bid: {m}" for m in bidding.ERRORS.values()),
    *(f"card: {m}" for m in play.ERRORS.values()),
    *(f"declaration: {m}" for m in declaration.ERRORS.values()),
    *(f"kontra call: {m}" for m in kontra.ERRORS.values()),
    *(f"push: {m}" for m in ramsch.ERRORS.values()),
}


def _fails_cleanly(exc: IssFormatError | ReplayError) -> None:
    """A refusal is one line that says what is wrong, under one of the known reasons."""
    message = str(exc)
    assert message.strip() and "\n" not in message, repr(message)
    assert exc.reason in KNOWN_REASONS, exc.reason


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=120))
def test_any_text_parses_or_fails_cleanly(text: str) -> None:
    real = GAMES[9]
    for line in (text, f"(;{text};)", f"(;{text}{real[2:]}"):
        try:
            game = parse_line(line)
        except IssFormatError as exc:
            _fails_cleanly(exc)
        else:
            assert line.strip().startswith("(;") and game.result["iss_id"] >= 0
            if line.endswith(real[2:]):
                assert game.record == parse_line(real).record  # the text was no move: the same game
    opened = text
    while "(;" in opened:
        opened = opened.replace("(;", "")
    with pytest.raises(IssFormatError) as info:
        parse_line(opened)  # no record without its opening
    assert info.value.reason == "not an ISS game record"


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(min_value=0, max_value=200), st.integers(min_value=1, max_value=4))
def test_damaged_real_lines_fail_cleanly(iss_id: int, start: int, length: int) -> None:
    """Moves cut out of a real line: the line is refused in one line under a known reason, or what is left
    is a game the rules allow, scored as any game: no card twice, at most ten tricks, the seats' scores
    the declarer's, a declared game's score its value won or -2 x its value lost (official rules)."""
    line = GAMES[iss_id]
    head, mv = line.split("MV[", 1)
    moves, tail = mv.split("]", 1)
    tokens = moves.split()
    start %= len(tokens)
    damaged = f"{head}MV[{' '.join(tokens[:start] + tokens[start + 2 * length :])}]{tail}"
    assert damaged != line
    try:
        ev = replay_iss(parse_line(damaged))
    except (IssFormatError, ReplayError) as exc:
        _fails_cleanly(exc)
        return
    cards = [c for trick in ev.tricks for c in trick.cards]
    assert len(set(cards)) == len(cards) and len(ev.tricks) <= 10
    assert ev.score_fh + ev.score_mh + ev.score_rh == (ev.score or 0)
    if ev.game_value is None:  # passed, or aborted before the declaration: nothing scored
        assert (ev.score, ev.won, ev.score_fh, ev.score_mh, ev.score_rh) == (0, None, 0, 0, 0)
    else:
        assert ev.score == (ev.game_value if ev.won else -2 * ev.game_value)
        assert [ev.score_fh, ev.score_mh, ev.score_rh][ev.declarer] == ev.score


# --- import --------------------------------------------------------------------------------------


def test_import_writes_every_game(tmp_path: Path) -> None:
    summary = import_iss(FIXTURE, tmp_path)
    assert (summary.lines_read, summary.imported, summary.skipped) == (46, 46, [])
    table = read_import(tmp_path)
    assert table.schema == pl.Schema(iss_table_schema())
    assert table.columns == ["iss_id", "iss_line", *RESULT_COLUMNS, *ISS_COLUMNS, "record"]
    assert table["iss_line"].to_list() == list(range(1, 47))
    assert table["game_type"].value_counts().sort("game_type").rows() == [
        ("passed", 3),
        ("aborted", 2),
        ("diamonds", 4),
        ("hearts", 3),
        ("spades", 4),
        ("clubs", 11),
        ("grand", 17),
        ("null", 2),
    ]
    row = table.filter(pl.col("iss_id") == 541932).row(0, named=True)
    assert (row["declarer"], row["bid"], row["score"], row["iss_score"], row["iss_players"]) == (
        2,
        18,
        -54,
        -54,
        "zoot,kermit,foo",
    )
    assert GameRecord.from_json(row["record"]) == parse_line(GAMES[541932]).record
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chunk-000000000000-46.parquet", IMPORT_MANIFEST]


def test_truncated_file(tmp_path: Path) -> None:
    source = tmp_path / "cut.sgf"
    source.write_text("\n".join(LINES[:2]) + "\n\n" + LINES[2][:150], encoding="utf-8")
    summary = import_iss(source, tmp_path / "out")
    assert (summary.lines_read, summary.blank, summary.imported) == (4, 1, 2)
    assert summary.skipped == [(4, "record is cut off (the line does not end with ';)')")]


def test_duplicate_game_id_is_skipped(tmp_path: Path) -> None:
    source = tmp_path / "dup.sgf"
    source.write_text(f"{LINES[1]}\n{LINES[1]}\n", encoding="utf-8")
    summary = import_iss(source, tmp_path / "out")
    assert summary.imported == 1 and summary.skipped == [(2, "game ID 9 already imported from line 1")]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_import_summary_groups_thousands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The summary writes its counts as every other command does: 1,002, not 1002."""
    source = tmp_path / "games.sgf"
    source.write_text(f"{LINES[0]}\n" + "garbage\n" * 1000 + f"{LINES[1]}\n", encoding="utf-8")
    code, out, _ = _run(capsys, "import-iss", source, "--out", tmp_path / "out", "--quiet", "--jobs", "1")
    assert code == 0
    assert out == f"{source}: 1,002 lines read, 2 games imported, 1,000 skipped -> {tmp_path / 'out'}\n"


def test_cli_import_counts_one_in_the_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One line and one game read as such: not '1 lines read, 1 games imported'."""
    source = tmp_path / "games.sgf"
    source.write_text(f"{LINES[0]}\n", encoding="utf-8")
    code, out, _ = _run(capsys, "import-iss", source, "--out", tmp_path / "out", "--quiet", "--jobs", "1")
    assert (code, out) == (0, f"{source}: 1 line read, 1 game imported, 0 skipped -> {tmp_path / 'out'}\n")


def test_an_unreadable_lock_of_an_import_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "games.sgf"
    source.write_text(f"{LINES[0]}\n{LINES[1]}\n", encoding="utf-8")
    out = tmp_path / "out"
    assert _run(capsys, "import-iss", source, "--out", out, "--quiet")[0] == 0
    (out / "run.lock").write_bytes(b"")
    expected = (
        f"skatsim: error: {out / 'run.lock'}: the import's lock file cannot be read; if nothing is writing the "
        "import, remove that file and try again\n"
    )
    assert _run(capsys, "report", out, "--out", tmp_path / "r.html")[::2] == (2, expected)
    assert _run(capsys, "import-iss", source, "--out", out, "--resume", "--quiet")[::2] == (2, expected)


def test_cli_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "games.sgf"
    source.write_text(f"{LINES[0]}\ngarbage\n{LINES[1]}\n", encoding="utf-8")
    code, out, err = _run(capsys, "import-iss", source, "--out", tmp_path / "out", "--quiet")
    assert code == 0
    assert err == f"{source}:2: not an ISS game record (expected a line starting with '(;')\n"
    assert out == f"{source}: 3 lines read, 2 games imported, 1 skipped -> {tmp_path / 'out'}\n"
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    code, out, err = _run(capsys, "import-iss", FIXTURE, "--out", tmp_path / "out")
    assert code == 2 and out == ""
    assert err == (
        f"skatsim: error: {tmp_path / 'out'}: already holds a finished ISS import (2 games); choose another --out "
        "or pass --force to replace it (--resume only checks it)\n"
    )
    assert {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()} == before
    code, out, _ = _run(capsys, "import-iss", FIXTURE, "--out", tmp_path / "out", "--force")
    assert code == 0 and "46 games imported" in out
    assert read_import(tmp_path / "out").height == 46


def test_cli_strict_stops_with_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "games.sgf"
    source.write_text(f"{LINES[0]}\n{LINES[1].replace('0 SQ 1 H9 2 SA', '0 SQ 1 H9 2 DA')}\n", encoding="utf-8")
    code, out, err = _run(capsys, "import-iss", source, "--out", tmp_path / "out", "--strict")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"skatsim: error: {source}:2: MV move 9 (2 DA): card 3")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["import-iss", "missing.sgf", "--out", "out"],
        ["import-iss", "bad.sgf", "--out", "out"],
        ["import-iss", "missing.sgf"],
        ["replay"],
        ["replay", "--iss", "bad.sgf"],
        ["replay", "--iss", "bad.sgf", "--line", "1"],
        ["replay", "--iss", "bad.sgf", "--line", "7"],
        ["replay", "bad.sgf", "--row", "0"],
    ],
)
def test_cli_errors_are_one_line(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.sgf").write_text("garbage\n", encoding="utf-8")
    code, out, err = _run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("skatsim: error: ") and "Traceback" not in err


# --- replay --------------------------------------------------------------------------------------

REPLAY_541932 = [
    "Deal (sorted for diamonds: trumps first)",
    "  FH   ♠J ♦Q ♣Q ♣9 ♠A ♠K ♠8 ♥A ♥9 ♥7",
    "  MH   ♣J ♦J ♦K ♦9 ♣A ♣8 ♠Q ♠9 ♠7 ♥Q",
    "  RH   ♥J ♦A ♦10 ♦8 ♦7 ♣10 ♣7 ♠10 ♥10 ♥K",
    "  Skat ♣K ♥8",
    "Bidding: MH passes, RH 18, FH passes -> declarer RH at 18",
    "Skat: RH picks up ♣K ♥8, discards ♠10 ♥8",
    "Declaration: RH plays diamonds",
    "Tricks",
    "   1  FH ♠A   MH ♠7   RH ♦A   -> RH 22",
    "   2  RH ♥J   FH ♠J   MH ♦9   -> FH  4",
    "   3  FH ♦Q   MH ♦J   RH ♦7   -> MH  5",
    "   4  MH ♣J   RH ♦8   FH ♣Q   -> MH  5",
    "   5  MH ♣A   RH ♣7   FH ♣9   -> MH 11",
    "   6  MH ♠9   RH ♦10  FH ♠8   -> RH 10",
    "   7  RH ♣10  FH ♥7   MH ♣8   -> RH 10",
    "   8  RH ♣K   FH ♥9   MH ♥Q   -> RH  7",
    "   9  RH ♥K   FH ♥A   MH ♠Q   -> FH 18",
    "  10  FH ♠K   MH ♦K   RH ♥10  -> MH 18",
    "Result: lost: without 2, 59 card points, 4 tricks, no Schneider; value 27, score -54",
    "Server: loss, declarer RH: without 2, 59 card points, 4 tricks, no Schneider; score -54",
    "Engine and server agree.",
]


def test_cli_replay_from_iss_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "replay", "--iss", FIXTURE, "--id", "541932")
    assert code == 0 and err == ""
    title = f"{FIXTURE} line 9: ISS game 541932, 2010-12-06/18:59:24/UTC, players zoot,kermit,foo"
    assert out.splitlines() == [title, *REPLAY_541932]
    assert _run(capsys, "replay", "--iss", FIXTURE, "--line", "9")[1] == out


def test_cli_replay_of_a_missing_game_id_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "replay", "--iss", FIXTURE, "--id", "99")
    assert (code, out) == (2, "") and err == f"skatsim: error: {FIXTURE}: no game with ID 99\n"


def test_cli_replay_from_an_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import_iss(FIXTURE, tmp_path, chunk_lines=20)
    code, out, _ = _run(capsys, "replay", tmp_path, "--row", "8")
    assert code == 0 and out.splitlines()[1:] == REPLAY_541932
    code, out, _ = _run(capsys, "replay", tmp_path, "--row", "5")  # 13577: ISkO and server agree
    assert out.splitlines()[-1] == "Engine and server agree."
    code, out, _ = _run(capsys, "replay", tmp_path, "--row", "45")  # 10330141: server artefact (third chunk)
    assert (
        out.splitlines()[-1]
        == "Engine and server differ: score: engine -96, server -288; matadors: engine 3, server -11"
    )
    code, _, err = _run(capsys, "replay", tmp_path, "--row", "46")
    assert code == 2 and err == (
        f"skatsim: error: {tmp_path}: --row 46 out of range (the import has 46 rows, numbered from 0)\n"
    )
    chunk = tmp_path / "chunk-000000000000-20.parquet"  # one chunk file is a table of its own
    code, out, _ = _run(capsys, "replay", chunk, "--row", "8")
    assert code == 0 and out.splitlines()[1:] == REPLAY_541932
    code, _, err = _run(capsys, "replay", chunk, "--row", "20")
    assert code == 2 and err == (
        f"skatsim: error: {chunk}: --row 20 out of range (the table has 20 rows, numbered from 0)\n"
    )


def test_replay_view_of_an_early_end(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "replay", "--iss", FIXTURE, "--id", "727")
    lines = out.splitlines()
    assert code == 0
    assert lines[lines.index("Tricks") + 1 :][:3] == [
        "   1  FH ♣J   MH ♥9   (unfinished)",
        "End: RH (defender) resigns during trick 1",
        "Result: won: with 1, 120 card points, 10 tricks, Schneider, Schwarz; value 192, score +192",
    ]


def test_replay_uses_the_engine_directly() -> None:
    record = parse_line(GAMES[4913034]).record
    assert replay(record).score == 144


def test_import_in_chunks_gives_the_same_table(tmp_path: Path) -> None:
    import_iss(FIXTURE, tmp_path / "whole")
    import_iss(FIXTURE, tmp_path / "chunked", chunk_lines=7)
    assert len(finished_import(str(tmp_path / "chunked"))[1]) == 7
    assert read_import(tmp_path / "whole").equals(read_import(tmp_path / "chunked"))


def test_replay_view_of_a_penalty(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "replay", "--iss", FIXTURE, "--id", "8")
    assert code == 0 and out.splitlines()[-4:] == [
        "Bidding: MH passes",
        "End: RH times out before a declaration",
        "Result: aborted before a declaration, no score",
        "Server: penalty, score +0",
    ]
