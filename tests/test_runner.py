"""The simulation runner and ``skatsim simulate``: typed frames, determinism, resume, bad input.

Runs are small (a few thousand random-bot games) except the kill -9 test,
which needs a run long enough to be interrupted mid-way.
"""

from __future__ import annotations

import gc
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from script_module import load_script

from skatsim import __version__
from skatsim.cli import main
from skatsim.engine.columns import KIND_DTYPES, KINDS, TILE, discard_pairs, narrow_columns
from skatsim.engine.layout import COL_BID, COL_DECLARER, LOG_WIDTH, N_COLUMNS
from skatsim.engine.layout import ROW_COLUMNS as COLUMNS
from skatsim.errors import SkatsimError
from skatsim.frames import block_frame, frame_schema, result_schema
from skatsim.records.record import GameRecord, replay
from skatsim.run import chunks, local_backend, runner
from skatsim.run.chunks import (
    BLOCK,
    Matrices,
    chunk_name,
    default_chunk_size,
    plan_chunks,
    run_chunk,
    searching_chunk,
    simulate_frame,
)
from skatsim.run.duel import default_duel_chunk
from skatsim.run.local_backend import LocalBackend
from skatsim.run.manifest import MANIFEST, RUN_ID_KEY, RunManifest, read_manifest
from skatsim.run.runner import plan_run, run_simulation, scan_run
from skatsim.schema import ENUMS, RESULT_COLUMNS
from skatsim.variant import load_variant, official_params

ROOT = Path(__file__).resolve().parent.parent
VARIANT = str(ROOT / "variants" / "official.yaml")
DOCS = ROOT / "docs" / "schema.md"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``skatsim`` in this process; returns (exit code, stdout, stderr)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    """Exit code 2, exactly one stderr line starting 'skatsim: error:', containing every fragment."""
    assert code == 2
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("skatsim: error: ")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def simulate(out: Path, games: int = 2_000, **options: object) -> None:
    """A quiet run with random bots unless told otherwise."""
    options.setdefault("bots", "random")
    run_simulation(VARIANT, games, options.pop("seed", 1), str(out), progress=False, **options)  # type: ignore[arg-type]


def rows_of(out: Path) -> pl.DataFrame:
    return scan_run(str(out)).collect().sort("game_id")


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Name -> (size, mtime in ns) of every file: to check nothing was touched."""
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


# --------------------------------------------------------------------------- frames


def test_block_frame_types_nulls_and_names() -> None:
    rows = np.zeros((2, N_COLUMNS), dtype=np.int64)
    col = {name: i for i, name in enumerate(COLUMNS)}
    played = {
        "game_id": 7,
        "deal": -123456789,
        "game_type": 3,
        "declarer": 1,
        "bid": 18,
        "matadors": -2,
        "declarer_points": 75,
        "declarer_tricks": 6,
        "won": 1,
        "game_value": 36,
        "score": 36,
        "score_mh": 36,
        "skat_discard": (1 << 11) | (1 << 31),  # HT, CA
        "max_bid_fh": 18,
        "max_bid_mh": 18,
        "dealer": 2,
    }
    for name, value in played.items():
        rows[0, col[name]] = value
    rows[1, col["game_id"]] = 8
    rows[1, col["game_type"]] = -1
    rows[1, col["declarer"]] = -1
    rows[1, col["dealer"]] = 2
    frame = block_frame(rows, ("random", "heuristic", "random"), "official", official_params())
    common = {"variant": "official", "dealer": 2, "bot_fh": "random", "bot_mh": "heuristic", "bot_rh": "random"}
    assert frame.row(0, named=True) == {
        "game_id": 7,
        "game_type": "clubs",
        "declarer": 1,
        "bid": 18,
        "hand": False,
        "ouvert": False,
        "schneider_announced": False,
        "schwarz_announced": False,
        "matadors": -2,
        "declarer_points": 75,
        "declarer_tricks": 6,
        "schneider": False,
        "schwarz": False,
        "overbid": False,
        "won": True,
        "game_value": 36,
        "score": 36,
        "score_fh": 0,
        "score_mh": 36,
        "score_rh": 0,
        "deal": -123456789,
        "skat_discard": "HT.CA",
        "max_bid_fh": 18,
        "max_bid_mh": 18,
        "max_bid_rh": 0,
        **common,
    }
    nulls = dict.fromkeys(
        ["declarer", "hand", "ouvert", "schneider_announced", "schwarz_announced", "matadors"]
        + ["declarer_points", "declarer_tricks", "schneider", "schwarz", "overbid", "won", "game_value"]
    )
    zeros = dict.fromkeys(["bid", "score", "score_fh", "score_mh", "score_rh", "deal"], 0)
    assert frame.row(1, named=True) == {
        "game_id": 8,
        "game_type": "passed",
        "skat_discard": None,
        "max_bid_fh": 0,
        "max_bid_mh": 0,
        "max_bid_rh": 0,
        **nulls,
        **zeros,
        **common,
    }
    assert frame.columns[:2] == ["game_id", "variant"]
    assert frame.columns[2 : 2 + len(RESULT_COLUMNS)] == list(RESULT_COLUMNS)
    labels = ("variant", "bot_fh", "bot_mh", "bot_rh")
    assert [frame.schema[c] for c in labels] == [pl.Categorical()] * 4
    assert frame.schema["skat_discard"] == pl.Enum(list(ENUMS["Discard"]))
    assert [frame.schema[name] for name in RESULT_COLUMNS] == list(result_schema().values())


def test_discard_pairs() -> None:
    masks = np.array([0, (1 << 0) | (1 << 1), (1 << 11) | (1 << 31)], dtype=np.int64)
    assert discard_pairs(masks).tolist() == [-1, 1, 11 * 32 + 31]
    with pytest.raises(ValueError, match="other than 0 or 2"):
        discard_pairs(np.array([1 << 5], dtype=np.int64))
    with pytest.raises(ValueError, match="other than 0 or 2"):
        discard_pairs(np.array([0b111], dtype=np.int64))
    with pytest.raises(ValueError, match="other than 0 or 2"):
        discard_pairs(np.array([(1 << 32) | 1], dtype=np.int64))


@settings(max_examples=30, deadline=None)
@given(n=st.integers(0, 3 * TILE + 5), seed=st.integers(0, 2**32 - 1))
def test_narrow_columns_copies_every_slot_into_its_type(n: int, seed: int) -> None:
    """Each kind's slots come out as ``rows[:, slot]`` in the kind's type (nonzero: true), tile edges
    included, and a value one past a type's range is reported."""
    rng = np.random.default_rng(seed)
    rows = rng.integers(-128, 128, size=(n, N_COLUMNS), dtype=np.int64)
    sources = tuple(rng.permutation(N_COLUMNS)[: rng.integers(0, 6)].astype(np.int64) for _ in KIND_DTYPES)
    outs = tuple(np.empty((len(s), n), dtype=t) for s, t in zip(sources, KIND_DTYPES, strict=True))
    assert narrow_columns(rows, sources, outs)
    for src, out, kind in zip(sources, outs, KIND_DTYPES, strict=True):
        expected = rows[:, src].T != 0 if kind is np.bool_ else rows[:, src].T
        assert out.dtype == kind and np.array_equal(out, expected)
    if n and len(sources[KINDS["Int8"]]):
        rows[n - 1, sources[KINDS["Int8"]][0]] = 128
        assert not narrow_columns(rows, sources, outs)


def test_block_frame_names_a_value_its_column_cannot_hold() -> None:
    params = official_params()
    cases = ((COL_DECLARER, 300, r"declarer: .* \(Int8\)"), (COL_BID, 70_000, r"bid: .* \(Int16\)"))
    for slot, value, message in cases:
        rows = np.zeros((3, N_COLUMNS), dtype=np.int64)
        rows[1, slot] = value
        with pytest.raises(ValueError, match=message):
            block_frame(rows, ("a", "b", "c"), "x", params)


@pytest.mark.parametrize("variant", ["official", "pub", "tournament"])
def test_every_column_is_documented_with_its_type(variant: str) -> None:
    """Every column, the house-rule columns of pub (Schieberamsch, Kontra, Bock) and tournament included."""
    documented = dict(re.findall(r"^\| `(\w+)` \| (\w+) \|", DOCS.read_text(encoding="utf-8"), flags=re.M))
    params = load_variant(Path(VARIANT).parent / f"{variant}.yaml").variant.params()
    for name, dtype in frame_schema(record=True, params=params).items():
        assert name in documented, name
        assert str(dtype).startswith(documented[name]), (name, dtype, documented[name])


def test_schema_page_is_generated_from_the_schema() -> None:
    """docs/schema.md is what scripts/schema_reference.py makes of skatsim/columns.toml (run it after a change)."""
    module = load_script("schema_reference")
    assert DOCS.read_text(encoding="utf-8") == module.render()


# --------------------------------------------------------------------------- chunk plan and determinism


def test_chunk_plan() -> None:
    assert plan_chunks(10, 4) == [(0, 4), (4, 4), (8, 2)]
    assert plan_chunks(3, 5) == [(0, 3)]
    assert chunk_name(62_500, 62_500) == "chunk-000000062500-62500.parquet"
    assert default_chunk_size(2_000, record_play=False) == 2_000
    assert default_chunk_size(100_000, record_play=False) == 10_000
    assert default_chunk_size(1_000_000, record_play=False) == 62_500
    assert default_chunk_size(10_000_000, record_play=False) == 250_000
    assert default_chunk_size(10_000_000, record_play=True) == 50_000


def test_runs_that_search_take_chunks_of_a_few_seconds(tmp_path: Path) -> None:
    """A pimc seat or --open-hand makes a game cost milliseconds: its runs (and a duel with pimc) are cut into
    chunks of a few seconds' work, so the progress bar moves and the jobs share the work; the rows never
    depend on it."""
    assert searching_chunk(("heuristic",) * 3, "") is None
    assert searching_chunk(("heuristic",) * 3, "points") == 1_000
    assert searching_chunk(("heuristic",) * 3, "won") == 5_000
    assert searching_chunk(("pimc:worlds=5", "heuristic", "heuristic"), "won") == 100
    assert default_chunk_size(6_000, record_play=False, searching=1_000) == 1_000
    assert default_chunk_size(500, record_play=False, searching=1_000) == 500
    assert default_chunk_size(10_000_000, record_play=False, searching=5_000) == 5_000
    variant = str(Path(__file__).resolve().parents[1] / "variants" / "official.yaml")
    plan = plan_run(variant, 6_000, 1, str(tmp_path / "run"), open_hand="points", progress=False)
    assert plan.fresh.chunk_size == 1_000
    assert plan_run(variant, 6_000, 1, str(tmp_path / "run"), progress=False).fresh.chunk_size == 6_000
    assert default_duel_chunk(200) == 200 and default_duel_chunk(200, searching_chunk(("pimc", "heuristic"), "")) == 16


@pytest.mark.parametrize("bots", ["random", "heuristic,random,heuristic"])
def test_rows_do_not_depend_on_jobs_or_chunk_size(tmp_path: Path, bots: str) -> None:
    games = 20_000
    simulate(tmp_path / "one", games, jobs=1, bots=bots)
    simulate(tmp_path / "two", games, jobs=2, chunk_size=3_000, bots=bots)
    simulate(tmp_path / "odd", games, jobs=1, chunk_size=7_777, bots=bots)
    one = rows_of(tmp_path / "one")
    assert one["game_id"].to_list() == list(range(games))
    assert one.equals(rows_of(tmp_path / "two"))
    assert one.equals(rows_of(tmp_path / "odd"))
    params = load_variant(VARIANT).variant.params()
    seats = tuple(bots.split(",")) if "," in bots else (bots,) * 3
    assert one.equals(simulate_frame(1, 0, games, params, seats, "official"))  # type: ignore[arg-type]
    assert len(list((tmp_path / "two").glob("chunk-*.parquet"))) == 7


class ReversedBackend:
    """A stand-in for a cluster backend: runs chunks last to first, in this process (it takes every
    spec first: a real backend takes them lazily)."""

    def __init__(self, jobs: int, label: str) -> None:
        self.label = label
        self.seen: list[int] = []

    def map_unordered(self, fn, specs):  # type: ignore[no-untyped-def]
        for spec in reversed(list(specs)):
            self.seen.append(spec.first)
            yield fn(spec)


def test_backend_seam_and_finish_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[ReversedBackend] = []

    def factory(jobs: int, label: str) -> ReversedBackend:
        made.append(ReversedBackend(jobs, label))
        return made[-1]

    monkeypatch.setitem(runner.BACKENDS, "reversed", factory)
    simulate(tmp_path / "rev", 5_000, chunk_size=2_000, backend="reversed", backend_options={"label": "x"})
    simulate(tmp_path / "local", 5_000)
    assert [(b.label, b.seen) for b in made] == [("x", [4_000, 2_000, 0])]
    assert rows_of(tmp_path / "rev").equals(rows_of(tmp_path / "local"))


def _alive(pid: int) -> bool:
    """Whether a process of this pid is running (a zombie or a reaped process is not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_up_to_four_jobs_run_as_threads_of_this_process_and_the_rest_in_workers(tmp_path: Path) -> None:
    for command in ("simulate", "import-iss"):
        assert f"up to {local_backend.HERE_THREADS} in threads" in " ".join(main_help(command).split())
    assert [(LocalBackend(j).threads, LocalBackend(j).workers) for j in (1, 2, 4, 6)] == [
        (1, 0),
        (2, 0),
        (4, 0),
        (4, 2),
    ]
    plan = plan_run(VARIANT, 4_000, 1, str(tmp_path), chunk_size=1_000)
    backend = LocalBackend(2)
    with backend:
        paths = list(backend.map_unordered(run_chunk, (plan.spec(plan.fresh, i, str(tmp_path)) for i in range(4))))
        assert len(paths) == 4 and backend._executor is None and backend._threads is not None
    assert backend._threads is None


def test_the_local_pool_is_the_backends_own_and_stops_with_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_backend, "HERE_THREADS", 1)
    plan = plan_run(VARIANT, 4_000, 1, str(tmp_path), chunk_size=1_000)
    backend = LocalBackend(3)  # two workers and a thread of this process
    with backend:
        paths = list(backend.map_unordered(run_chunk, (plan.spec(plan.fresh, i, str(tmp_path)) for i in range(4))))
        pids = list(backend._executor._processes)
        assert len(paths) == 4 and len(pids) == 2 and all(_alive(pid) for pid in pids)
    assert backend._executor is None and not any(_alive(pid) for pid in pids)


def test_a_backend_expecting_several_chunks_starts_its_workers_on_entry_and_for_one_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(local_backend, "HERE_THREADS", 1)
    several = LocalBackend(3)
    several.expect_chunks(2)
    with several:  # the workers start beside the kernel loading here, and freeze what their imports made
        assert len(several._executor._processes) == 2
        assert several._executor.submit(gc.get_freeze_count).result() > 10_000
    one = LocalBackend(2)
    one.expect_chunks(1)
    with one:
        assert one._executor is None


def test_matrices_made_ahead_are_kept_for_the_first_blocks_and_not_after_a_clear() -> None:
    pool = Matrices()
    pool.prepare(3, N_COLUMNS, np.int64).join()
    made = list(pool._free[(N_COLUMNS, np.dtype(np.int64))])
    taken = [pool.take(BLOCK, N_COLUMNS, np.int64).base for _ in range(4)]
    assert [any(m is k for k in made) for m in taken] == [True, True, True, False]  # three made, the fourth new
    assert all(m.shape == (BLOCK, N_COLUMNS) and not m.any() for m in made)
    making = pool.prepare(2, N_COLUMNS, np.int64)
    pool.clear()  # the run is over before they are made: none is kept
    making.join()
    assert not pool._free


@pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="Linux: the advice is read back from smaps")
def test_new_matrices_are_in_small_pages() -> None:
    """A row matrix is advised out of huge pages (``VmFlags`` ``nh``): they cost its first writes several
    times more system time and save the kernel nothing."""
    matrix = chunks._new_matrix(N_COLUMNS, np.int64)
    matrix.fill(0)
    inside = matrix.ctypes.data + matrix.nbytes // 2
    flags: list[str] = []
    in_mapping = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()[0]
        if re.fullmatch(r"[0-9a-f]+-[0-9a-f]+", head):  # a mapping's first line: its address range
            low, high = (int(x, 16) for x in head.split("-"))
            in_mapping = low <= inside < high
        elif in_mapping and head == "VmFlags:":
            flags = line.split()[1:]
    assert "nh" in flags and "hg" not in flags


@pytest.mark.parametrize(
    ("jobs", "chunks", "per_chunk", "logs", "made"),
    [(1, 40, 4, False, 5), (1, 1, 4, True, 4), (2, 40, 4, False, 2), (1, 16, 1, False, 2), (2, 16, 0, False, 0)],
)
def test_a_backend_has_the_matrices_its_first_chunks_take_made_on_entry(
    monkeypatch: pytest.MonkeyPatch, jobs: int, chunks: int, per_chunk: int, logs: bool, made: int
) -> None:
    """One job holds a chunk's blocks and one more (the next chunk played while the last one's blocks are
    narrowed), a job in a thread one block; never more than the run's blocks, and action logs beside the
    rows for a recorded run."""
    asked: list[tuple[int, int]] = []
    monkeypatch.setattr(local_backend.MATRICES, "prepare", lambda count, width, dtype: asked.append((count, width)))
    backend = LocalBackend(jobs)
    backend.expect_chunks(chunks, per_chunk, logs)
    with backend:
        pass
    expected = [(made, N_COLUMNS)] + ([(made, LOG_WIDTH)] if logs else []) if made else []
    assert asked == expected


def test_a_run_makes_its_matrices_ahead_only_for_chunks_of_half_a_block_or_more(tmp_path: Path) -> None:
    def blocks(games: int, chunk_size: int) -> int:
        return runner._blocks_per_chunk(plan_run(VARIANT, games, 1, str(tmp_path), chunk_size=chunk_size).fresh)

    assert blocks(10_000_000, 250_000) == 4
    assert blocks(1_000_000, 62_500) == 1
    assert blocks(20_000, 20_000) == 0  # a small run: a whole matrix would be mostly unused
    assert blocks(50_000, 250_000) == 1
    duel = plan_run(VARIANT, 100_000, 1, str(tmp_path), chunk_size=100_000).fresh.model_copy(update={"job": "duel"})
    assert runner._blocks_per_chunk(duel) == 0  # a duel's chunks take no row matrices


class _Pool:
    """A stand-in for the loky pool: one worker, a thread, slower than this process; records what it was given."""

    _executor_manager_thread = threading.main_thread()  # alive: the watchdog finds the pool working
    _processes: dict[int, object] = {}

    def __init__(self) -> None:
        self.given: list[str] = []
        self.thread = ThreadPoolExecutor(1)

    def submit(self, fn: Callable[[str], str], spec: str) -> Future[str]:
        self.given.append(spec)
        return self.thread.submit(lambda: (time.sleep(0.02), fn(spec))[1])


def test_a_thread_of_this_process_takes_a_chunk_when_free_and_the_workers_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(local_backend, "HERE_THREADS", 1)
    backend = LocalBackend(2)
    backend._executor = _Pool()
    specs = [f"c{k}" for k in range(12)]
    assert sorted(backend.map_unordered(str.upper, specs)) == sorted(s.upper() for s in specs)
    given = backend._executor.given
    assert len(given) == len(set(given))  # a chunk runs once, wherever
    # one worker with two in flight, slower than the thread here: most ran here
    assert backend.workers == 1 and 2 <= len(given) < len(specs)


def test_a_busy_caller_gets_a_thread_even_for_one_job() -> None:
    """The ISS importer's own thread reads the source (it makes the specs): its one job is another thread."""
    threads: set[str] = set()

    def job(spec: str) -> str:
        threads.add(threading.current_thread().name)
        return spec

    assert sorted(LocalBackend(1, caller_busy=True).map_unordered(job, ["a", "b", "c"])) == ["a", "b", "c"]
    assert threads and threading.current_thread().name not in threads
    threads.clear()
    assert sorted(LocalBackend(1).map_unordered(job, ["a", "b", "c"])) == ["a", "b", "c"]
    assert threads == {threading.current_thread().name}


def test_processes_started_while_the_pool_starts_ignore_ctrl_c_and_the_parent_gets_its_handler_back() -> None:
    # the workers inherit the ignored SIGINT, so a Ctrl-C while they import cannot end them with a traceback
    before = signal.getsignal(signal.SIGINT)
    with local_backend._sigint_ignored():
        child = subprocess.run(
            [sys.executable, "-c", "import signal; print(signal.getsignal(signal.SIGINT) == signal.SIG_IGN)"],
            capture_output=True,
            text=True,
            check=True,
        )
    assert child.stdout.strip() == "True" and signal.getsignal(signal.SIGINT) is before


def test_a_pool_that_ends_with_chunks_unfinished_is_an_error_not_a_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    class Ended:  # a pool whose manager thread is gone: it will never finish what it was given
        _executor_manager_thread = None

    monkeypatch.setattr(local_backend, "WATCH_SECONDS", 0.01)
    with pytest.raises(SkatsimError, match="stopped answering"):
        local_backend._finished(Ended(), set(), {Future()})
    finished: Future[str] = Future()
    finished.set_result("chunk")
    unfinished: Future[str] = Future()
    assert local_backend._finished(Ended(), set(), {finished, unfinished}) == ({finished}, set(), {unfinished})
    here: Future[str] = Future()
    here.set_result("here")  # a thread's chunk: finished whatever the pool does
    assert local_backend._finished(Ended(), {here}, {unfinished}) == ({here}, set(), {unfinished})


def test_manifest_records_what_made_the_run(tmp_path: Path) -> None:
    simulate(tmp_path / "run", 2_500, chunk_size=1_000, seed=42)
    manifest = json.loads((tmp_path / "run" / MANIFEST).read_text(encoding="utf-8"))
    files = ["chunk-000000000000-1000.parquet", "chunk-000000001000-1000.parquet", "chunk-000000002000-500.parquet"]
    assert (manifest["format"], manifest["format_version"]) == ("skatsim-run", 3)
    assert re.fullmatch(r"[0-9a-f]{32}", manifest["run_id"])
    assert manifest["skatsim_version"] == __version__
    assert manifest["variant_path"] == VARIANT
    assert manifest["variant_name"] == "official"
    assert manifest["variant_text"] == Path(VARIANT).read_text(encoding="utf-8")
    assert manifest["bots"] == ["random", "random", "random"]
    settings = (manifest["seed"], manifest["games"], manifest["chunk_size"], manifest["record_play"])
    assert settings == (42, 2500, 1000, False)
    assert "chunks" not in manifest  # the plan is derived from games and chunk_size, never listed
    assert manifest["chunks_done"] == [[0, 3]]  # chunk numbers done, as ranges
    assert manifest["finished"] is not None
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == sorted([*files, MANIFEST])  # the lock is gone
    for name in files:
        assert pl.read_parquet_metadata(tmp_path / "run" / name)["skatsim_run_id"] == manifest["run_id"]


@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_recorded_games_replay_to_their_rows(tmp_path: Path, bots: str) -> None:
    simulate(tmp_path / "run", 2_000, record_play=True, bots=bots)
    rows = rows_of(tmp_path / "run")
    assert rows.columns[-1] == "record"
    params = load_variant(VARIANT).variant.params()
    for row in rows.iter_rows(named=True):
        evaluation = replay(GameRecord.from_json(row["record"]), params).columns()
        assert evaluation == {name: row[name] for name in RESULT_COLUMNS}, row["game_id"]


# --------------------------------------------------------------------------- resume


def test_resume_after_kill_9_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    games, chunk, out = 800_000, 10_000, tmp_path / "killed"
    command = [sys.executable, "-m", "skatsim", "simulate", VARIANT, "--games", str(games), "--seed", "5"]
    command += ["--out", str(out), "--jobs", "2", "--chunk-size", str(chunk), "--bots", "random", "--quiet"]
    child = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    while not list(out.glob("chunk-*.parquet")):
        assert child.poll() is None, child.stderr.read() if child.stderr else ""
        assert time.monotonic() < deadline
        time.sleep(0.005)
    os.killpg(child.pid, signal.SIGKILL)
    child.communicate()
    done_before = len(list(out.glob("chunk-*.parquet")))
    assert 0 < done_before < games // chunk
    stray = out / f".{chunk_name(0, chunk)}.999999.tmp"
    stray.write_bytes(b"half a chunk")

    run_simulation(VARIANT, games, 5, str(out), jobs=2, bots="random", resume=True, progress=False)
    run_simulation(VARIANT, games, 5, str(tmp_path / "whole"), jobs=1, bots="random", progress=False)

    resumed = rows_of(out)
    assert resumed.height == games
    assert resumed["game_id"].n_unique() == games
    assert resumed.equals(rows_of(tmp_path / "whole"))
    assert not stray.exists()
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]
    manifest = read_manifest(str(out))
    assert manifest is not None and manifest.finished is not None
    assert manifest.chunks_done == [(0, games // chunk)]


def test_resume_of_a_finished_run_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    simulate(out, 3_000, chunk_size=1_000)
    chunks_before = {k: v for k, v in snapshot(out).items() if k != MANIFEST}
    code, _, err = cli(capsys, "simulate", VARIANT, "--games", "3000", "--out", str(out), "--resume")
    made = "with --bots random,random,random"
    assert_one_line_error(code, err, f"was made {made}; resume it {made}")
    args = ["simulate", VARIANT, "--games", "3000", "--out", str(out), "--bots", "random", "--resume", "--quiet"]
    code, stdout, err = cli(capsys, *args)
    assert (code, err) == (0, "")
    assert re.fullmatch(r"0 games in \d+\.\d s \(0 games/s\) \(3,000 already done\); 3,000 games in .+\n", stdout)
    assert {k: v for k, v in snapshot(out).items() if k != MANIFEST} == chunks_before


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--seed", "2", "cannot resume: the run was made with --seed 1; resume it with --seed 1"),
        ("--games", "4000", "cannot resume: the run was made with --games 3000; resume it with --games 3000"),
        (
            "--bots",
            "random,heuristic,random",
            "made with --bots random,random,random; resume it with --bots random,random,random",
        ),
        ("--record-play", None, "the run was made without --record-play; resume it without --record-play"),
        ("--chunk-size", "500", "cannot resume with --chunk-size 500: the run uses 1000"),
    ],
)
def test_resume_refuses_other_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str | None, message: str
) -> None:
    out = tmp_path / "run"
    simulate(out, 3_000, chunk_size=1_000)
    before = snapshot(out)
    args = {"--seed": "1", "--games": "3000", "--bots": "random"}
    if value is None:
        extra = [option]
    else:
        args[option] = value
        extra = []
    flat = [item for pair in args.items() for item in pair]
    code, _, err = cli(capsys, "simulate", VARIANT, "--out", str(out), "--resume", *flat, *extra)
    assert_one_line_error(code, err, str(out), message)
    assert snapshot(out) == before


def test_discard_enum_holds_every_two_card_discard_once() -> None:
    discards = ENUMS["Discard"]
    assert len(discards) == len(set(discards)) == 32 * 31 // 2
    assert (discards[0], discards[-1]) == ("D7.D8", "CK.CA")  # lowest card first, by card number


def test_a_run_of_format_2_is_read_but_not_resumed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Format 2 wrote the label columns as plain strings: its rows are read as they are, and a resume (which
    would add chunks of the new types) is refused in one line."""
    out = tmp_path / "run"
    simulate(out, 2_000, chunk_size=1_000)
    strings = ("variant", "bot_fh", "bot_mh", "bot_rh", "skat_discard")
    for path in out.glob("chunk-*.parquet"):  # the chunks as format 2 wrote them
        run_id = pl.read_parquet_metadata(path)[RUN_ID_KEY]
        old = pl.read_parquet(path).with_columns(pl.col(c).cast(pl.String) for c in strings)
        old.write_parquet(path, metadata={RUN_ID_KEY: run_id})
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    (out / MANIFEST).write_text(json.dumps({**manifest, "format_version": 2}), encoding="utf-8")
    rows = rows_of(out)
    assert rows.height == 2_000 and [rows.schema[c] for c in strings] == [pl.String()] * 5
    before = snapshot(out)
    args = ("--games", "2000", "--out", str(out), "--bots", "random", "--resume")
    code, _, err = cli(capsys, "simulate", VARIANT, *args)
    assert_one_line_error(code, err, str(out), "cannot resume: the run was made with run format 2, not 3")
    assert snapshot(out) == before


def test_a_run_of_format_1_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A format this version does not read (1) is refused by every reader, saying which formats it reads."""
    out = tmp_path / "run"
    simulate(out, 1_000)
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    (out / MANIFEST).write_text(json.dumps({**manifest, "format_version": 1}), encoding="utf-8")
    code, _, err = cli(capsys, "report", str(out), "--out", str(tmp_path / "r.html"))
    assert_one_line_error(code, err, "a run of format 1 (an older skatsim); this version reads formats 2 and 3")


def test_resume_refuses_another_variant_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    simulate(out, 2_000)
    variant = tmp_path / "official.yaml"
    variant.write_text(Path(VARIANT).read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    before = snapshot(out)
    code, _, err = cli(
        capsys, "simulate", str(variant), "--games", "2000", "--out", str(out), "--bots", "random", "--resume"
    )
    assert_one_line_error(code, err, "cannot resume: the variant file text differs", "variant 'official'")
    assert snapshot(out) == before  # refused before anything was written


def test_corrupt_chunk_found_on_resume_is_named_and_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    simulate(out, 4_000, chunk_size=1_000)
    reference = rows_of(out)
    bad = out / chunk_name(2_000, 1_000)
    bad.write_bytes(bad.read_bytes()[:300])
    args = ["simulate", VARIANT, "--games", "4000", "--out", str(out), "--bots", "random", "--resume"]
    code, _, err = cli(capsys, *args)
    assert_one_line_error(code, err, f"{bad}: corrupt chunk file", "remove that file and run again with --resume")
    assert bad.stat().st_size == 300
    bad.unlink()
    code, _, err = cli(capsys, *args, "--quiet")
    assert (code, err) == (0, "")
    assert rows_of(out).equals(reference)


def test_chunk_with_wrong_games_found_on_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    simulate(out, 4_000, chunk_size=1_000)
    wrong = out / chunk_name(1_000, 1_000)
    wrong.write_bytes((out / chunk_name(0, 1_000)).read_bytes())
    before = snapshot(out)
    args = ["simulate", VARIANT, "--games", "4000", "--out", str(out), "--bots", "random", "--resume"]
    code, _, err = cli(capsys, *args)
    assert_one_line_error(code, err, f"{wrong}: chunk file should hold games 1000..1999 once each", "ids 0..999")
    assert snapshot(out) == before  # the wrong chunk is named and kept, as a corrupt one is


# --------------------------------------------------------------------------- output folder and bad input


def test_existing_run_without_resume_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    simulate(out, 2_000)
    before = snapshot(out)
    code, _, err = cli(capsys, "simulate", VARIANT, "--games", "2000", "--out", str(out), "--bots", "random")
    assert code == 2
    assert err == (
        f"skatsim: error: {out}: already holds a finished skatsim run (2,000 games); "
        "choose another --out (--resume only checks it)\n"
    )
    assert snapshot(out) == before
    code, stdout, err = cli(
        capsys, "simulate", VARIANT, "--games", "2000", "--out", str(out), "--bots", "random", "--resume", "--quiet"
    )
    assert (code, err) == (0, "")
    assert stdout.startswith("0 games in ") and "(2,000 already done)" in stdout


def test_unfinished_run_without_resume_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    simulate(out, 2_000, chunk_size=1_000)
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    manifest.update(finished=None, chunks_done=[[0, 1]])
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    (out / chunk_name(1_000, 1_000)).unlink()
    before = snapshot(out)
    code, _, err = cli(capsys, "simulate", VARIANT, "--games", "2000", "--out", str(out), "--bots", "random")
    assert_one_line_error(code, err, "already holds a skatsim run (1 of 2 chunks done); pass --resume to complete it")
    assert snapshot(out) == before
    assert sorted(before) == [chunk_name(0, 1_000), MANIFEST]


@pytest.mark.parametrize("resume", [[], ["--resume"]])
@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("notes.txt", "mine", "folder is not empty and is not a skatsim run (no manifest.json)"),
        (MANIFEST, '{"project": "other"}', "manifest.json: not a skatsim run manifest"),
    ],
)
def test_foreign_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], resume: list[str], name: str, content: str, message: str
) -> None:
    (tmp_path / name).write_text(content, encoding="utf-8")
    code, _, err = cli(capsys, "simulate", VARIANT, "--games", "100", "--out", str(tmp_path), *resume)
    assert_one_line_error(code, err, message)
    assert [p.name for p in tmp_path.iterdir()] == [name]
    assert (tmp_path / name).read_text(encoding="utf-8") == content


def test_empty_folder_and_resume_without_a_run_start_a_run(tmp_path: Path) -> None:
    simulate(tmp_path, 1_000)
    simulate(tmp_path / "new", 1_000, resume=True)
    assert rows_of(tmp_path).equals(rows_of(tmp_path / "new"))


def test_unwritable_output_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    code, _, err = cli(capsys, "simulate", VARIANT, "--games", "100", "--out", str(blocker / "run"))
    assert_one_line_error(code, err, f"{blocker / 'run'}: cannot create or read the output folder (Not a directory)")
    code, _, err = cli(capsys, "simulate", VARIANT, "--games", "100", "--out", str(blocker))
    assert_one_line_error(code, err, "is a file")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "Invalid value for '--games': 0 is below 1"),
        (["--games", "-5"], "Invalid value for '--games': -5 is below 1"),
        (["--games", "10", "--bots", "randon"], "--bots: unknown bot 'randon'; known bots: heuristic, pimc, random"),
        (["--games", "10", "--bots", "random,random"], "--bots: give one bot setting or 3 (one per player), got 2"),
        (["--games", "10", "--jobs", "0"], "Invalid value for '--jobs': 0 is not in the range x>=1"),
        (["--games", "10", "--seed", "-1"], "Invalid value for '--seed'"),
        (["--games", "10", "--chunk-size", "2000000"], "--chunk-size must be between 1 and 1,000,000"),
    ],
)
def test_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    out = tmp_path / "run"
    code, _, err = cli(capsys, "simulate", VARIANT, "--out", str(out), *args)
    assert_one_line_error(code, err, message)
    assert not out.exists()


def test_bad_variant_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    code, _, err = cli(capsys, "simulate", str(tmp_path / "missing.yaml"), "--games", "10", "--out", str(out))
    assert_one_line_error(code, err, "missing.yaml: cannot read variant file")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nscoring:\n  lost_factr: 2\n", encoding="utf-8")
    code, _, err = cli(capsys, "simulate", str(bad), "--games", "10", "--out", str(out))
    assert_one_line_error(code, err, "bad.yaml:3: scoring.lost_factr: unknown key")
    assert not out.exists()


def test_library_checks_and_unknown_backend(tmp_path: Path) -> None:
    with pytest.raises(SkatsimError, match=r"^--games must be between 1 and"):
        run_simulation(VARIANT, 0, 1, str(tmp_path / "a"))
    with pytest.raises(SkatsimError, match=r"^unknown backend 'spark'; available: dask, local$"):
        run_simulation(VARIANT, 10, 1, str(tmp_path / "b"), backend="spark")
    assert list(tmp_path.iterdir()) == []


def test_command_line_end_to_end(tmp_path: Path) -> None:
    """The installed entry point: a summary line on stdout, no progress bar without a terminal, clean errors."""
    out = tmp_path / "run"
    base = [sys.executable, "-m", "skatsim", "simulate", VARIANT, "--out", str(out), "--bots", "random"]
    done = subprocess.run([*base, "--games", "1500", "--jobs", "1"], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert re.fullmatch(
        rf"1,500 games in \d+\.\d s \([\d,]+ games/s\); 1,500 games in {re.escape(str(out))}\n", done.stdout
    )
    failed = subprocess.run([*base, "--games", "1500"], capture_output=True, text=True, check=False)
    assert_one_line_error(failed.returncode, failed.stderr, "already holds a finished skatsim run (1,500 games)")
    assert failed.stdout == ""


def test_the_progress_bar_groups_thousands() -> None:
    """The bar shows games done of the total as every count is written: 175,000/200,000."""
    import io

    from rich.console import Console

    bar = runner._progress(False)
    bar.add_task("simulating", total=200_000, completed=175_000)
    console = Console(file=io.StringIO(), width=160, color_system=None)
    console.print(bar.make_tasks_table(bar.tasks))
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert " 175,000/200,000 " in shown, shown


def test_the_games_per_second_are_counted_since_the_bar_started() -> None:
    """Two chunks that finish together do not read as hundreds of millions of games a second: the rate is
    the games done since the start (not those a resumed run had before) over the time since then."""
    from rich.progress import Progress

    now = [100.0]
    bar = Progress(runner._GamesPerSecond(), get_time=lambda: now[0], disable=True)
    task = bar.add_task("simulating", total=1_000_000, completed=200_000, before=200_000)
    column = runner._GamesPerSecond()
    now[0] += 0.2
    bar.advance(task, 250_000)
    assert column.render(bar.tasks[0]).plain == "    - games/s"  # too soon to say
    bar.advance(task, 250_000)  # the second chunk at the same moment
    now[0] += 0.8
    assert column.render(bar.tasks[0]).plain == "    500,000 games/s"


def test_a_duels_bar_counts_deals() -> None:
    """A duel's --games are deals (six games each): its bar says deals a second, as its total counts them."""
    from rich.progress import Progress

    now = [100.0]
    bar = Progress(runner._GamesPerSecond(), get_time=lambda: now[0], disable=True)
    task = bar.add_task("simulating", total=200, unit=runner.count_unit(RunManifest.model_construct(job="duel")))
    column = runner._GamesPerSecond()
    assert column.render(bar.tasks[0]).plain == "    - deals/s"
    now[0] += 2.0
    bar.advance(task, 100)
    assert column.render(bar.tasks[0]).plain == "         50 deals/s"


def test_the_time_left_is_the_games_left_at_the_rate_since_the_start() -> None:
    """Two chunks finishing together do not make minutes of work read as seconds: the games left over the
    games per second since the bar started (a resumed run's earlier games left out)."""
    from rich.progress import Progress

    now = [100.0]
    bar = Progress(runner._TimeLeft(), get_time=lambda: now[0], disable=True)
    task = bar.add_task("simulating", total=6_000, completed=1_000, before=1_000)
    column = runner._TimeLeft()
    assert column.render(bar.tasks[0]).plain == "-:--:--"  # nothing to go by yet
    now[0] += 6.0
    bar.advance(task, 500)
    bar.advance(task, 500)  # two chunks at the same moment: 1,000 games in 6 s
    assert column.render(bar.tasks[0]).plain == "0:00:24"  # 4,000 games left at 166.7 a second
    bar.update(task, completed=6_000)
    assert column.render(bar.tasks[0]).plain == "0:00:00"


def test_the_summary_tells_a_first_runs_compiling_apart() -> None:
    from skatsim.run.runner import RunResult

    warm = RunResult("runs/demo", 1_000_000, 1_000_000, 16, 2.5, 0.4).summary()
    assert warm == "1,000,000 games in 2.5 s (400,000 games/s); 1,000,000 games in runs/demo"
    cold = RunResult("runs/demo", 1_000_000, 1_000_000, 16, 34.0, 32.0).summary()
    assert cold == (
        "1,000,000 games in 34.0 s (29,412 games/s), 32.0 s of it compiling the kernels, once per machine"
        " and skatsim version: 500,000 games/s after that; 1,000,000 games in runs/demo"
    )


def test_the_summary_tells_a_new_variants_calibrating_apart() -> None:
    from skatsim.run.runner import RunResult

    learnt = RunResult("runs/mine", 100_000, 100_000, 2, 7.4, 0.3, 6.9).summary()
    assert learnt == (
        "100,000 games in 7.4 s (13,514 games/s), 6.9 s of it calibrating the bots for this variant, once per"
        " variant: 200,000 games/s after that; 100,000 games in runs/mine"
    )
    both = RunResult("runs/mine", 100_000, 100_000, 2, 40.0, 30.0, 6.0).summary()
    assert both == (
        "100,000 games in 40.0 s (2,500 games/s), 30.0 s of it compiling the kernels, once per machine and"
        " skatsim version, and 6.0 s calibrating the bots for this variant, once per variant: 25,000 games/s"
        " after that; 100,000 games in runs/mine"
    )


def test_a_new_variants_first_run_learns_its_calibration_and_counts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A variant no calibration ships for (Ramsch with shared ties, skat to the loser) is calibrated as its
    first run is planned, timed apart from the games; its second run finds the calibration cached."""
    from skatsim.bots import variantcal

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(variantcal, "DEALS", 7_200)
    monkeypatch.setattr(variantcal, "RAMSCH_DEALS", 20_000)
    monkeypatch.setattr(variantcal, "_MEMO", {})
    mine = tmp_path / "mine.yaml"
    mine.write_text("name: mine\nall_pass: ramsch\nramsch:\n  tie: share\n  skat_to: loser\n", encoding="utf-8")
    first = run_simulation(str(mine), 2_000, 1, str(tmp_path / "a"), progress=False)
    assert first.calibration_seconds > 0
    assert ", of it" not in first.summary() and "s of it calibrating the bots for this variant" in first.summary()
    assert read_manifest(str(tmp_path / "a")).bot_calibration["source"] == "computed"  # type: ignore[union-attr]
    second = run_simulation(str(mine), 2_000, 1, str(tmp_path / "b"), progress=False)
    assert second.calibration_seconds == 0 and "calibrating" not in second.summary()


def main_help(command: str) -> str:
    """A command's ``--help`` text."""
    done = subprocess.run(
        [sys.executable, "-m", "skatsim", command, "--help"], capture_output=True, text=True, check=True
    )
    return done.stdout


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
@pytest.mark.parametrize(
    ("env", "threads"),
    [
        ({}, "1 1"),
        pytest.param(
            {"OPENBLAS_NUM_THREADS": "2"},
            "2 2",
            marks=pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="OpenBLAS starts no more threads than cores"),
        ),
    ],
)
def test_the_command_line_starts_one_blas_thread_unless_told(env: dict[str, str], threads: str) -> None:
    """``skatsim`` (``skatsim.__main__.console``) sets numpy's OpenBLAS to one thread before numpy loads: the
    process holds one thread at its end, not one more per core; a value the user set is kept."""
    code = (
        "import atexit, os, sys\n"
        "atexit.register(lambda: print(len(os.listdir('/proc/self/task')), os.environ['OPENBLAS_NUM_THREADS']))\n"
        "sys.argv = ['skatsim', 'bots']\n"
        "from skatsim.__main__ import console\n"
        "console()\n"
    )
    base = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=base | env)
    assert done.stdout.splitlines()[-1] == threads


def test_workers_start_with_one_blas_thread() -> None:
    """Worker processes get ``WORKER_ENV`` (numpy's OpenBLAS would spin a thread per core at import)."""
    backend = LocalBackend(6)  # four threads here, two workers
    try:
        assert backend._pool().submit(os.getenv, "OPENBLAS_NUM_THREADS").result() == "1"
    finally:
        backend.shut_down()
