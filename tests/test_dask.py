"""The Dask backend, fsspec URLs and sweeps: same rows as a local run, no game lost when a worker dies.

One ``LocalCluster`` of two single-thread worker processes on loopback
serves the module (started after the kernel is compiled here, so workers
load numba's disk cache); its finalizer closes it whatever happens.
"""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import fsspec
import polars as pl
import pytest
from distributed import LocalCluster

from skatsim.cli import main
from skatsim.errors import SkatsimError
from skatsim.run import dask_backend, runner, storage
from skatsim.run.chunks import ChunkSpec, chunk_name, plan_chunks, warm_up
from skatsim.run.dask_backend import DaskBackend, chunk_key
from skatsim.run.manifest import read_manifest
from skatsim.run.runner import run_simulation, scan_run
from skatsim.run.sweep import run_name, run_sweep

ROOT = Path(__file__).resolve().parent.parent
VARIANT = str(ROOT / "variants" / "official.yaml")
PRE1999 = str(ROOT / "variants" / "pre1999.yaml")


@pytest.fixture(scope="module")
def cluster(request: pytest.FixtureRequest) -> LocalCluster:
    """Two worker processes, one thread each, on 127.0.0.1; closed by a finalizer.

    The dashboard gets a free port: the default, 8787, may be taken by another cluster.
    """
    warm_up()
    made = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.CRITICAL,
    )
    request.addfinalizer(made.close)
    return made


def local_rows(tmp_path: Path, games: int, bots: str, name: str = "local") -> pl.DataFrame:
    """The reference: the same games run in this process by the local backend."""
    run_simulation(VARIANT, games, 3, str(tmp_path / name), jobs=1, bots=bots, progress=False)
    return scan_run(str(tmp_path / name)).collect().sort("game_id")


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("skatsim: error: ")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# --------------------------------------------------------------------------- a cluster run equals a local run


def test_cluster_rows_equal_the_local_run(
    tmp_path: Path, cluster: LocalCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    games, bots, out = 40_000, "heuristic,random,random", tmp_path / "dask"
    args = ["simulate", VARIANT, "--games", str(games), "--seed", "3", "--bots", bots, "--out", str(out)]
    args += ["--chunk-size", "2500", "--backend", "dask", "--scheduler", cluster.scheduler_address, "--quiet"]
    code = main(args)
    stdout, stderr = capsys.readouterr()
    assert (code, stderr) == (0, "")
    assert stdout.startswith("40,000 games in ") and stdout.endswith(f"; 40,000 games in {out}\n")
    rows = scan_run(str(out)).collect().sort("game_id")
    assert rows["game_id"].to_list() == list(range(games))
    assert rows.equals(local_rows(tmp_path, games, bots))
    manifest = read_manifest(str(out))
    assert manifest is not None and manifest.finished is not None
    assert manifest.chunks_done == [(0, 16)]
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith("chunk-")) == ["manifest.json"]


class KillingBackend(DaskBackend):
    """The Dask backend, killing a worker that holds chunks as soon as the first chunk is done."""

    def __init__(self, jobs: int, scheduler: str | None = None) -> None:
        super().__init__(jobs, scheduler)
        self.killed: list[tuple[str, int]] = []  # (worker address, chunk tasks it held)

    def map_unordered(self, fn: Callable[[ChunkSpec], str], specs: Iterable[ChunkSpec]) -> Iterator[str]:
        for done, path in enumerate(super().map_unordered(fn, specs), start=1):
            if done == 1:
                held = {address: len(keys) for address, keys in self.client.processing().items()}
                victim = max(held, key=held.__getitem__)
                os.kill(self.client.run(os.getpid, workers=[victim])[victim], signal.SIGKILL)
                self.killed.append((victim, held[victim]))
            yield path


def test_a_worker_killed_mid_run_loses_and_duplicates_no_game(
    tmp_path: Path, cluster: LocalCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    games, bots, out = 200_000, "heuristic", tmp_path / "killed"
    made: list[KillingBackend] = []
    monkeypatch.setitem(
        runner.BACKENDS, "dask-kill", lambda jobs, **o: made.append(KillingBackend(jobs, **o)) or made[-1]
    )
    result = run_simulation(
        VARIANT,
        games,
        3,
        str(out),
        bots=bots,
        chunk_size=10_000,
        backend="dask-kill",
        backend_options={"scheduler": cluster.scheduler_address},
        progress=False,
    )
    [(victim, held)] = made[0].killed
    assert held >= 1  # the worker died holding at least one unfinished chunk
    assert (result.games, result.games_run, result.chunks) == (games, games, 20)
    rows = scan_run(str(out)).collect().sort("game_id")
    assert rows.height == games
    assert rows["game_id"].n_unique() == games
    assert rows.equals(local_rows(tmp_path, games, bots))
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]
    deadline = time.monotonic() + 30
    while victim in cluster.scheduler_info["workers"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)


# --------------------------------------------------------------------------- errors at the edge


def test_unreachable_scheduler_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1.0)
    out = tmp_path / "run"
    address = f"tcp://127.0.0.1:{port}"
    args = ["simulate", VARIANT, "--games", "100", "--out", str(out), "--backend", "dask", "--scheduler", address]
    code = main(args)
    _, err = capsys.readouterr()
    assert_one_line_error(code, err, f"cannot reach the Dask scheduler at {address}", "dask scheduler")
    assert list(out.iterdir()) == []  # checked and created, nothing written: the same command works later


def test_scheduler_without_workers_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(dask_backend, "WORKER_TIMEOUT", 0.5)
    out = tmp_path / "run"
    with LocalCluster(n_workers=0, dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL) as empty:
        address = empty.scheduler_address
        args = ["simulate", VARIANT, "--games", "100", "--out", str(out), "--backend", "dask", "--scheduler", address]
        code = main(args)
    _, err = capsys.readouterr()
    assert_one_line_error(code, err, f"the Dask scheduler at {address} has no workers after 0.5 s", "dask worker")
    assert list(out.iterdir()) == []


def test_without_the_extra_backend_dask_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    out = tmp_path / "run"
    code = main(["simulate", VARIANT, "--games", "100", "--out", str(out), "--backend", "dask"])
    _, err = capsys.readouterr()
    assert err == "skatsim: error: --backend dask needs the Dask extra: pip install 'skatsim[dask]'\n"
    assert code == 2
    assert not out.exists()


def test_scheduler_without_backend_dask_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", VARIANT, "--games", "10", "--out", str(tmp_path / "r"), "--scheduler", "tcp://h:1"])
    _, err = capsys.readouterr()
    assert_one_line_error(code, err, "--scheduler needs --backend dask")


def test_chunk_keys_name_the_chunk_and_differ_per_run() -> None:
    spec = ChunkSpec(1, 2_000, 1_000, (0, 1), "official", ("random",) * 3, False, "/runs/a")
    other = ChunkSpec(1, 2_000, 1_000, (0, 1), "official", ("random",) * 3, False, "/runs/b")
    assert chunk_key(spec).startswith("skatsim-chunk-000000002000-1000-")  # the chunk file's name
    assert len(chunk_key(spec)) == len("skatsim-chunk-000000002000-1000-") + 16
    assert chunk_key(spec) == chunk_key(ChunkSpec(**vars(spec)))
    assert chunk_key(spec) != chunk_key(other)


# --------------------------------------------------------------------------- fsspec URLs


@pytest.fixture
def memory_root(request: pytest.FixtureRequest) -> str:
    """A fresh ``memory://`` folder, removed afterwards."""
    root = f"memory://skatsim-test-{request.node.name}"
    fs = fsspec.filesystem("memory")
    request.addfinalizer(lambda: fs.rm(root.removeprefix("memory://"), recursive=True) if fs.exists(root) else None)
    return root


def test_storage_on_a_memory_url(memory_root: str) -> None:
    folder = storage.join(memory_root, "run")
    assert (storage.is_url(folder), storage.is_url("/tmp/run"), storage.is_url("C:\\runs")) == (True, False, False)
    assert folder == f"{memory_root}/run"
    assert storage.listdir(folder) == []
    storage.makedirs(folder)
    storage.write_atomic(storage.join(folder, "a.bin"), lambda f: f.write(b"abc"))
    assert storage.listdir(folder) == ["a.bin"]
    assert storage.read_bytes(storage.join(folder, "a.bin")) == b"abc"
    assert (storage.exists(folder), storage.isdir(folder), storage.absolute(folder)) == (True, True, folder)
    with pytest.raises(ValueError, match="no"):
        storage.write_atomic(storage.join(folder, "b.bin"), lambda f: (f.write(b"half"), int("no")))
    assert storage.listdir(folder) == ["a.bin"]  # the failed write left neither file nor temporary file


def test_memory_url_on_a_threaded_cluster(tmp_path: Path, memory_root: str) -> None:
    """Workers that are threads of this process share its ``memory://`` store, like workers sharing a bucket."""
    out = storage.join(memory_root, "run")
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.CRITICAL,
    ) as threaded:
        options = {"scheduler": threaded.scheduler_address}
        run_simulation(
            VARIANT, 9_000, 3, out, bots="random", chunk_size=2_000, backend="dask", backend_options=options,
            progress=False,
        )  # fmt: skip
    files = [chunk_name(first, count) for first, count in plan_chunks(9_000, 2_000)]
    assert sorted(storage.listdir(out)) == [*files, "manifest.json"]
    assert scan_run(out).collect().sort("game_id").equals(local_rows(tmp_path, 9_000, "random"))
    again = run_simulation(VARIANT, 9_000, 3, out, bots="random", resume=True, progress=False)
    assert (again.games, again.games_run) == (9_000, 0)


def test_analysis_reads_a_run_at_a_url(tmp_path: Path, memory_root: str) -> None:
    """skatsim.analysis.scan takes a run folder (or a Parquet file) given as an fsspec URL, where a Dask
    run may have written it; a URL holding no run is a one-line error."""
    from skatsim import analysis
    from skatsim.errors import SkatsimError

    out = storage.join(memory_root, "run")
    run_simulation(VARIANT, 3_000, 3, out, bots="random", chunk_size=1_000, progress=False)
    games = analysis.scan(out).collect()
    assert games.height == 3_000 and set(games["source"].cast(str)) == {"run"}
    assert games.drop("source").sort("game_id").equals(local_rows(tmp_path, 3_000, "random"))
    one_chunk = storage.join(out, chunk_name(0, 1_000))
    assert analysis.scan(one_chunk).collect().height == 1_000
    with pytest.raises(SkatsimError, match=r"memory://.*/nothing: no skatsim run here"):
        analysis.scan(storage.join(memory_root, "nothing"))


# --------------------------------------------------------------------------- sweeps


def test_sweep_of_two_variants_by_two_bot_settings_on_the_cluster(tmp_path: Path, cluster: LocalCluster) -> None:
    bots = ["random", "heuristic,random,random"]
    results = run_sweep(
        [VARIANT, PRE1999], bots, 3_000, 3, str(tmp_path / "sweep"), backend="dask",
        scheduler=cluster.scheduler_address, chunk_size=1_000, progress=False,
    )  # fmt: skip
    names = [f"{v}__{b}" for v in ("official", "pre1999") for b in ("random", "heuristic-random-random")]
    assert list(results) == names
    assert sorted(p.name for p in (tmp_path / "sweep").iterdir()) == sorted(names)
    for variant in (VARIANT, PRE1999):
        for who in bots:
            name = run_name(variant, who)
            alone = tmp_path / "alone" / name
            run_simulation(variant, 3_000, 3, str(alone), bots=who, chunk_size=1_000, progress=False)
            swept = scan_run(str(tmp_path / "sweep" / name)).collect().sort("game_id")
            assert swept.equals(scan_run(str(alone)).collect().sort("game_id")), name
            assert swept["variant"].unique().to_list() == [Path(variant).stem]
            assert (results[name].games, results[name].games_run, results[name].chunks) == (3_000, 3_000, 3)


class RecordingBackend:
    """Runs chunks in this process and records each ``map_unordered`` call's chunk folders."""

    def __init__(self, jobs: int) -> None:
        self.calls: list[list[str]] = []

    def map_unordered(self, fn: Callable[[ChunkSpec], str], specs: Iterable[ChunkSpec]) -> Iterator[str]:
        specs = list(specs)
        self.calls.append([os.path.basename(spec.out_dir) for spec in specs])
        return map(fn, specs)


def test_sweep_sends_every_run_chunk_in_one_map(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[RecordingBackend] = []
    monkeypatch.setitem(runner.BACKENDS, "recording", lambda jobs: made.append(RecordingBackend(jobs)) or made[-1])
    run_sweep([VARIANT, PRE1999], ["random", "heuristic"], 2_000, 3, str(tmp_path), "recording", chunk_size=1_000)
    names = ["official__random", "official__heuristic", "pre1999__random", "pre1999__heuristic"]
    assert made[0].calls == [[name for name in names for _ in range(2)]]
    resumed = run_sweep([VARIANT, PRE1999], ["random", "heuristic"], 2_000, 3, str(tmp_path), "recording", resume=True)
    assert [(r.games, r.games_run) for r in resumed.values()] == [(2_000, 0)] * 4


def test_sweep_refuses_clashing_folders_and_a_stray_scheduler(tmp_path: Path) -> None:
    other = tmp_path / "elsewhere" / "official.yaml"
    other.parent.mkdir()
    other.write_text(Path(VARIANT).read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(
        SkatsimError, match=r"^variant files with the same name would share folders \(official__random\)"
    ):
        run_sweep([VARIANT, str(other)], ["random"], 100, 1, str(tmp_path / "s"), progress=False)
    with pytest.raises(SkatsimError, match=r"^a scheduler needs backend='dask'$"):
        run_sweep([VARIANT], ["random"], 100, 1, str(tmp_path / "s"), scheduler="tcp://h:1")
    assert not (tmp_path / "s").exists()


# --------------------------------------------------------------------------- compare on the cluster


def test_compare_on_the_cluster_then_resumed(
    tmp_path: Path, cluster: LocalCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    """compare runs its two runs on the Dask backend like a sweep; --resume completes a damaged pair of
    runs in --runs and gives the same comparison as the local backend."""
    runs = tmp_path / "runs"
    args = ["compare", VARIANT, PRE1999, "--games", "3000", "--seed", "3", "--bots", "random", "--chunk-size", "1000"]
    args += ["--bootstrap", "50", "--quiet"]
    dask = ["--runs", str(runs), "--backend", "dask", "--scheduler", cluster.scheduler_address]
    code = main([*args, *dask])
    on_cluster, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert sorted(p.name for p in runs.iterdir()) == ["a-official", "b-pre1999"]
    code = main([*args, "--jobs", "1"])
    local, err = capsys.readouterr()
    assert (code, err) == (0, "")

    def text(stdout: str) -> str:
        return re.sub(r"; [\d.]+ s on \d+ jobs?", "", stdout)

    assert text(on_cluster) == text(local)
    b = runs / "b-pre1999"
    (b / chunk_name(1000, 1000)).unlink()
    manifest = json.loads((b / "manifest.json").read_text(encoding="utf-8"))
    manifest.update(finished=None, chunks_done=[[0, 1], [2, 3]])
    (b / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    code = main([*args, *dask])
    _, err = capsys.readouterr()
    assert code == 2 and "/a-official: already holds a finished skatsim run (3,000 games); pass --resume to use" in err
    code = main([*args, *dask, "--resume"])
    resumed, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert text(resumed) == text(local)
    assert (b / chunk_name(1000, 1000)).exists()


def test_one_writer_per_run_on_a_memory_url(memory_root: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The lock is created exclusively through fsspec: a second writer is refused, readers wait."""
    from skatsim import analysis
    from skatsim.run.lock import LOCK, RunLock

    out = storage.join(memory_root, "run")
    run_simulation(VARIANT, 2_000, 3, out, bots="random", chunk_size=1_000, progress=False)
    assert LOCK not in storage.listdir(out)
    holder = RunLock(out).acquire()
    try:
        with pytest.raises(SkatsimError, match=r"another skatsim is writing this run \(pid \d+ on host"):
            RunLock(out).acquire()
        args = ["simulate", VARIANT, "--games", "2000", "--seed", "3", "--out", out, "--bots", "random"]
        code = main([*args, "--resume"])
        _, err = capsys.readouterr()
        assert_one_line_error(code, err, f"{out}: another skatsim is writing this run")
        with pytest.raises(SkatsimError, match="the run is still being written"):
            analysis.scan(out)
    finally:
        holder.release()
    assert LOCK not in storage.listdir(out)
    assert analysis.scan(out).collect().height == 2_000
