"""One job's chunks in turn (:func:`skatsim.run.chunks.run_in_turn`): the next chunk's kernel
runs while the last chunk is framed and written, the rows are those of the plain path, a file
is reported only once it is complete, and an error in a write ends the run with that error."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from skatsim import cli
from skatsim.run import chunks
from skatsim.run.chunks import ChunkSpec, ChunkWriteError, run_in_turn
from skatsim.variant import official_params

#: How long a fake chunk waits for the pipeline to do what it should before the test fails.
PATIENCE = 10.0


@dataclass
class _Chunk:
    """A staged chunk job that records its steps; its finish waits until the next chunk's stage began."""

    index: int
    out: Path
    events: list[str]
    started: dict[int, threading.Event] = field(default_factory=dict)
    fail: bool = False
    count: int = 1
    run_id: str = "run"

    @property
    def path(self) -> str:
        return str(self.out / f"{self.index}.parquet")

    def compute(self) -> pl.DataFrame:
        return self.finish(self.stage())

    def stage(self) -> int:
        self.events.append(f"stage {self.index}")
        self.started.setdefault(self.index, threading.Event()).set()
        return self.index

    def finish(self, staged: int) -> pl.DataFrame:
        nxt = self.started.setdefault(self.index + 1, threading.Event())
        if self.index < 2:  # the last chunk has no next one to wait for
            assert nxt.wait(PATIENCE), f"chunk {self.index + 1}'s stage did not run beside chunk {self.index}'s finish"
        if self.fail:
            raise ChunkWriteError(f"{self.path}: cannot write chunk file (test)")
        self.events.append(f"finish {self.index}")
        return pl.DataFrame({"x": [staged]})


def test_the_next_stage_runs_while_a_chunk_is_written(tmp_path: Path) -> None:
    events: list[str] = []
    started: dict[int, threading.Event] = {}
    chunks = [_Chunk(i, tmp_path, events, started) for i in range(3)]
    paths = []
    for path in run_in_turn(chunks):
        assert pl.read_parquet(path)["x"].to_list() == [int(Path(path).stem)]  # complete when reported
        paths.append(path)
    assert paths == [c.path for c in chunks]
    assert events.index("stage 1") < events.index("finish 0")
    assert events.index("stage 2") < events.index("finish 1")


def test_an_error_in_a_write_ends_the_run_with_it(tmp_path: Path) -> None:
    events: list[str] = []
    started: dict[int, threading.Event] = {}
    chunks = [_Chunk(i, tmp_path, events, started, fail=i == 1) for i in range(3)]
    with pytest.raises(ChunkWriteError, match="1.parquet"):
        list(run_in_turn(chunks))
    assert (tmp_path / "0.parquet").exists() and not (tmp_path / "1.parquet").exists()
    assert not (tmp_path / "2.parquet").exists()  # the chunk played beside the failed write is not written


def test_staged_simulation_gives_the_rows_of_the_plain_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chunks, "BLOCK", 1024)  # several blocks a chunk
    params = tuple(int(v) for v in official_params())
    spec = ChunkSpec(5, 100, 3000, params, "official", ("heuristic",) * 3, True, str(tmp_path), "run")
    staged = spec.finish(spec.stage())
    assert staged.equals(spec.compute())
    assert staged.height == 3000 and staged["game_id"].to_list() == list(np.arange(100, 3100))


def test_a_one_job_simulate_encodes_on_one_polars_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``simulate --jobs 1`` sizes polars' pool at one thread before polars is imported (its encoding then
    stays off the kernel's core); two jobs keep the pool, and the variable is not left to later processes."""
    asked: list[int] = []
    monkeypatch.setattr(cli, "_one_polars_thread", lambda: asked.append(1))
    variant = str(Path(__file__).resolve().parents[1] / "variants" / "official.yaml")
    for jobs in ("1", "2"):
        out = tmp_path / f"run{jobs}"
        assert cli.main(["simulate", variant, "--games", "20", "--jobs", jobs, "--out", str(out), "--quiet"]) == 0
    assert asked == [1]
    env = {k: v for k, v in os.environ.items() if k != "POLARS_MAX_THREADS"}
    code = (
        "import os; from skatsim.cli import _one_polars_thread; _one_polars_thread(); import polars; "
        "print(polars.thread_pool_size(), 'POLARS_MAX_THREADS' in os.environ)"
    )
    shown = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert shown.stdout.split() == ["1", "False"]
