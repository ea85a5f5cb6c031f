"""Contract tests of the batch simulator: every simulated game is a legal game that the replay
kernels score identically (under every shipped variant), rows do not depend on how games are
split, and the heuristic bot plays clearly better than the random one."""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from pathlib import Path

import numpy as np
import pytest

from skatsim.bots import bot_arrays
from skatsim.engine.block import simulate_block
from skatsim.engine.cards import iss_name
from skatsim.engine.columns import TILE
from skatsim.engine.gametypes import GAME_TYPE_LABELS, GRAND, RAMSCH
from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS
from skatsim.engine.layout import ROW_COLUMNS as COLUMNS
from skatsim.engine.rules import LIST_LENGTH
from skatsim.engine.scoring import HAND
from skatsim.engine.tricks import card_points
from skatsim.frames import _narrowed, block_frame
from skatsim.records.record import EarlyEnd, GameRecord, record_from_log, records_as_json, replay
from skatsim.run.chunks import BLOCK, MATRICES, simulate_frame
from skatsim.schema import COLUMNS as SCHEMA_COLUMNS
from skatsim.schema import ENGINE, RESULT_COLUMNS, rule_column_names
from skatsim.variant import load_variant, official_params

VARIANTS = sorted((Path(__file__).resolve().parents[1] / "variants").glob("*.yaml"))

COL = {name: k for k, name in enumerate(COLUMNS)}
NO_LOG = np.zeros((0, LOG_WIDTH), dtype=np.int16)
EVALUATED = tuple(RESULT_COLUMNS)[1:]  # every evaluation column but game_type


def simulate(bots: tuple[str, str, str], n: int, seed: int = 11, first: int = 0, log: bool = False):
    kinds, params = bot_arrays(bots, official_params())
    rows = np.zeros((n, N_COLUMNS), dtype=np.int64)
    logs = np.zeros((n, LOG_WIDTH), dtype=np.int16) if log else NO_LOG
    simulate_block(np.uint64(seed), first, kinds, params, official_params(), rows, logs)
    return rows, logs


@pytest.mark.parametrize(
    "bots", [("random",) * 3, ("heuristic",) * 3, ("heuristic", "random", "heuristic")], ids=lambda b: ",".join(b)
)
def test_every_simulated_game_replays_to_the_same_row(bots: tuple[str, str, str]) -> None:
    rows, logs = simulate(bots, 1500, log=True)
    played = 0
    for row, log in zip(rows, logs, strict=True):
        record = record_from_log(row, log)
        evaluation = replay(record)  # raises on any illegal bid, declaration or card
        if row[COL["game_type"]] < 0:
            assert evaluation.game_type == "passed" and row[COL["declarer"]] == -1
            continue
        played += 1
        for name in EVALUATED:
            assert int(getattr(evaluation, name)) == int(row[COL[name]]), name
        complete = len(record.cards) == 30
        if complete:
            assert len(set(record.cards)) == 30 and len(evaluation.tricks) == 10
            put_away = (1 << 32) - 1 - sum(1 << c for c in record.cards)  # the skat or the discards
            assert sum(t.points for t in evaluation.tricks) + card_points(np.uint32(put_away)) == 120
        else:
            assert evaluation.game_type == "null" or evaluation.schwarz_announced
    assert played > 1000


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_every_variant_replays_to_the_same_rows(path: Path) -> None:
    """Under every shipped variant each simulated deal (Ramsch, pushes, Kontra, Bock, list points
    included) replays from its record to the same typed row, and cards and points are conserved; the
    compiled writer of a run's records gives :meth:`GameRecord.to_json`'s bytes for every game."""
    variant = load_variant(path).variant
    params = variant.params()
    names = rule_column_names(params)
    players = variant.table.players  # one bot per player: four at a four-player table
    for bots in (("heuristic",) * players, ("random", "heuristic", "random", "heuristic")[:players]):
        kinds, bot_params = bot_arrays(bots, params)
        n = 216
        rows = np.zeros((n, N_COLUMNS), dtype=np.int64)
        logs = np.zeros((n, LOG_WIDTH), dtype=np.int16)
        simulate_block(np.uint64(5), 0, kinds, bot_params, params, rows, logs)
        records = records_as_json(rows, logs)  # the compiled writer: GameRecord.to_json's bytes
        assert records == [record_from_log(r, g).to_json() for r, g in zip(rows, logs, strict=True)]
        frame = block_frame(rows, bots, path.stem, params, records)
        for k, row in enumerate(frame.iter_rows(named=True)):
            record = GameRecord.from_json(row["record"])
            assert record == record_from_log(rows[k], logs[k])
            evaluation = replay(record, params)
            replayed = {**evaluation.columns(), **evaluation.rule_columns(names)}
            assert replayed == {name: row[name] for name in replayed}, (path.stem, bots, k)
            if len(record.cards) == 30:
                unplayed = (1 << 32) - 1 - sum(1 << c for c in record.cards)  # the skat or the discards
                assert sum(t.points for t in evaluation.tricks) + card_points(np.uint32(unplayed)) == 120
        if params[LIST_LENGTH]:
            assert frame["list_id"].to_list() == [k // params[LIST_LENGTH] for k in range(n)]


@pytest.mark.parametrize(
    "record",
    [
        GameRecord(deal=tuple(range(32))),
        GameRecord(
            deal=tuple(range(31, -1, -1)),
            bids=((1, 18), (0, 0), (2, -1), (1, -1)),
            pickup=True,
            discards=(3, 30),
            game_type=GRAND,
            flags=0,
            cards=(1, 2, 28),
            end=EarlyEnd("resign", 1),
            kontra=(1, 0),
            bock=2,
        ),
        GameRecord(
            deal=tuple(range(32)),
            game_type=RAMSCH,
            cards=(0, 9),
            pushes=((4, 5), (), (6, 7)),
            grand_hand_instead=None,
            ramsch_round=2,
        ),
        GameRecord(deal=tuple(range(32)), game_type=GRAND, flags=HAND, grand_hand_instead=2),
    ],
)
def test_a_record_as_json_is_every_field_in_order(record: GameRecord) -> None:
    """``to_json`` builds its dict by hand (``dataclasses.asdict`` cost most of a ``--record-play`` run):
    it must stay what ``asdict`` gives, every field in order (a field added to the record and not to
    the JSON fails here), with cards in ISS notation and the game type by name."""
    data = json.loads(record.to_json())
    assert list(data) == [f.name for f in fields(GameRecord)]
    expected = json.loads(json.dumps(asdict(record)))
    for name in ("deal", "discards", "cards"):
        expected[name] = [iss_name(c) for c in getattr(record, name)]
    expected["pushes"] = [[iss_name(c) for c in pair] for pair in record.pushes]
    expected["game_type"] = None if record.game_type is None else GAME_TYPE_LABELS[record.game_type]
    assert data == expected
    assert GameRecord.from_json(record.to_json()) == record


def test_rows_do_not_depend_on_how_games_are_split() -> None:
    bots = ("heuristic", "random", "heuristic")
    whole, _ = simulate(bots, 600)
    first, _ = simulate(bots, 250)
    rest, _ = simulate(bots, 350, first=250)
    assert np.array_equal(whole, np.vstack([first, rest]))
    logged, _ = simulate(bots, 600, log=True)
    assert np.array_equal(whole, logged)


@pytest.mark.parametrize("n", [1, TILE - 1, TILE, 2 * TILE + 5])
def test_the_narrowed_frame_holds_every_engine_column(n: int) -> None:
    """Every engine column of the rows, in its narrow type, across the compiled copy's tile edges."""
    rows, _ = simulate(("heuristic", "random", "heuristic"), n)
    engine = [c for c in SCHEMA_COLUMNS if c.source == ENGINE]
    frame = _narrowed(rows, engine)
    assert frame.columns == [c.name for c in engine] and frame.height == n
    for c in engine:
        expected = rows[:, COL[c.name]] != 0 if c.dtype == "Boolean" else rows[:, COL[c.name]]
        assert np.array_equal(frame[c.name].to_numpy(), expected), c.name


def test_rows_depend_on_the_seed() -> None:
    a, _ = simulate(("heuristic",) * 3, 200, seed=1)
    b, _ = simulate(("heuristic",) * 3, 200, seed=2)
    assert not np.array_equal(a[:, COL["deal"]], b[:, COL["deal"]])


def _declarer_win_rate(rows: np.ndarray, seats: tuple[int, ...]) -> float:
    declarer = rows[:, COL["declarer"]]
    mask = np.isin(declarer, seats)
    return float(rows[mask, COL["won"]].mean())


def test_heuristic_bots_beat_random_bots_as_declarers_and_defenders() -> None:
    n = 20_000
    random_table, _ = simulate(("random",) * 3, n)
    mixed, _ = simulate(("heuristic", "random", "random"), n)
    # as declarer: the heuristic forehand wins far more of its games than a random declarer
    assert _declarer_win_rate(mixed, (0,)) > _declarer_win_rate(random_table, (0,)) + 0.35
    # as defenders: a random declarer wins far less against two heuristic defenders
    defended, _ = simulate(("random", "heuristic", "heuristic"), n)
    assert _declarer_win_rate(defended, (0,)) < _declarer_win_rate(random_table, (0,)) - 0.05


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_a_chunk_does_not_read_the_matrices_it_is_given(path: Path) -> None:
    """A run's blocks write into kept matrices (:data:`skatsim.run.chunks.MATRICES`) without clearing them:
    under every shipped variant, with matrices full of garbage kept, a chunk (rows and records) is the
    same as the frame of rows and action records played into zeroed matrices."""
    variant = load_variant(path).variant
    params = variant.params()
    bots = ("heuristic",) * variant.table.players
    n = 300
    MATRICES.give(np.full((BLOCK, N_COLUMNS), -7, np.int64), np.full((BLOCK, LOG_WIDTH), -7, np.int16))
    frame = simulate_frame(11, 0, n, params, bots, path.stem, record_play=True)
    assert not MATRICES._free  # let go of once the frame is made
    kinds, bot_params = bot_arrays(bots, params)
    rows = np.zeros((n, N_COLUMNS), dtype=np.int64)
    logs = np.zeros((n, LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(11), 0, kinds, bot_params, params, rows, logs)
    expected = block_frame(rows, bots, path.stem, params, records_as_json(rows, logs))
    assert frame.equals(expected, null_equal=True)
