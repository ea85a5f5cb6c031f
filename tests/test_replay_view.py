"""``skatsim replay`` as a user meets it: a game of a run by its number, hands sorted as a player holds them."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from skatsim.cli import main
from skatsim.engine.cards import parse_cards
from skatsim.engine.gametypes import GRAND, HEARTS_GAME, NULL
from skatsim.records.gameview import sort_hand
from skatsim.run.runner import run_simulation

ROOT = Path(__file__).resolve().parent.parent
RAMSCH = str(ROOT / "variants" / "ramsch.yaml")


def _names(cards: list[int]) -> str:
    from skatsim.engine.cards import iss_name

    return " ".join(iss_name(c) for c in cards)


def test_a_hand_is_sorted_as_a_player_holds_it() -> None:
    hand = parse_cards("D7.HJ.CA.HA.SJ.H7.DT.CT.HT.C8")
    # hearts: the jacks, then hearts (the trump suit) A 10 7, then clubs, spades, hearts, diamonds
    assert _names(sort_hand(hand, HEARTS_GAME)) == "SJ HJ HA HT H7 CA CT C8 DT D7"
    # Grand: the jacks, then every suit A 10 K Q 9 8 7
    assert _names(sort_hand(hand, GRAND)) == "SJ HJ CA CT C8 HA HT H7 DT D7"
    # Null: no trumps, A K Q J 10 9 8 7 in every suit
    assert _names(sort_hand(hand, NULL)) == "CA CT C8 SJ HA HJ HT H7 DT D7"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("replay") / "ramsch"
    run_simulation(RAMSCH, 300, 4, str(folder), jobs=1, chunk_size=100, record_play=True, progress=False)
    return folder


def _replay(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main(["replay", *(str(a) for a in args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_a_game_of_a_run_by_its_number(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """RUN_DIR --game N finds the chunk through the manifest: the same view as the chunk file and its row."""
    code, out, err = _replay(capsys, run, "--game", 250)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"{run} game 250"
    chunk = run / "chunk-000000000200-100.parquet"
    assert pl.read_parquet(chunk)["game_id"][50] == 250
    old_code, old_out, _ = _replay(capsys, chunk, "--row", 50)
    assert old_code == 0
    assert old_out.splitlines()[1:] == out.splitlines()[1:]
    assert _replay(capsys, chunk, "--game", 250)[1].splitlines()[1:] == out.splitlines()[1:]


def test_replay_sorts_the_deal_for_the_game_played(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame = pl.read_parquet(run / "*.parquet")
    game = int(frame.filter(pl.col("game_type") == "hearts")["game_id"][0])
    lines = _replay(capsys, run, "--game", game)[1].splitlines()
    assert lines[1] == "Deal (sorted for hearts: trumps first)"
    ranks = {"J": 0, "A": 1, "10": 2, "K": 3, "Q": 4, "9": 5, "8": 6, "7": 7}
    for line in lines[2:5]:
        cards = line.split()[1:]
        trumps = [c for c in cards if c[1:] == "J" or c[0] == "♥"]
        assert cards[: len(trumps)] == trumps  # trumps first
        assert [c for c in trumps if c[1:] == "J"] == trumps[: sum(c[1:] == "J" for c in trumps)]
        rest = cards[len(trumps) :]
        assert [c[0] for c in rest] == sorted((c[0] for c in rest), key="♣♠♦".index)
        for suit in "♣♠♥♦":
            mine = [ranks[c[1:]] for c in cards if c[0] == suit and c[1:] != "J"]
            assert mine == sorted(mine)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "300"], "--game 300 out of range (the run has games 0 to 299)"),
        (["--row", "3"], "is a run folder: name the game with --game N, not --row"),
        ([], "a run folder needs --game N; a Parquet TABLE needs --row N (or --game N)"),
        (["--game", "-1"], "-1 is not in the range x>=0"),
        (["--game", "1", "--line", "2"], "--line and --id go with --iss FILE"),
    ],
)
def test_replay_mistakes_are_one_line(
    run: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = _replay(capsys, run, *args)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith("skatsim: error: ") and message in err


def test_replay_of_a_run_without_records_says_how_to_get_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_simulation(RAMSCH, 10, 1, str(tmp_path / "plain"), jobs=1, progress=False)
    code, _, err = _replay(capsys, tmp_path / "plain", "--game", 3)
    assert code == 2
    assert (
        err == f"skatsim: error: {tmp_path / 'plain'}: the run stored no game records; simulate it again with "
        "--record-play to replay games\n"
    )


@pytest.mark.parametrize("args", [["--game", "5"], ["--row", "5"]])
def test_an_unreadable_table_that_says_nothing_is_still_one_line(
    run: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    """A reading error with an empty message (an ``OSError()``) is named by its type, in one line, not an
    IndexError traceback from taking the first line of nothing."""
    table = sorted(run.glob("chunk-*.parquet"))[0]

    def unreadable(*_: object, **__: object) -> pl.LazyFrame:
        raise OSError()

    monkeypatch.setattr(pl, "scan_parquet", unreadable)
    code, out, err = _replay(capsys, table, *args)
    assert (code, out) == (2, "")
    assert err == f"skatsim: error: cannot read {table} as Parquet: OSError\n"


def test_a_game_number_beyond_a_tables_ids_is_one_line(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """TABLE --game N with N past what a game_id (Int64) can hold: no such game, not polars' OverflowError."""
    table = sorted(run.glob("chunk-*.parquet"))[0]
    code, out, err = _replay(capsys, table, "--game", 2**63)
    assert (code, out) == (2, "")
    assert err == f"skatsim: error: {table}: no game {2**63} in this table (it holds games 0 to 99)\n"
