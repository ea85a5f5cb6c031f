"""The run layer where the user meets it: one writer per folder, runs never mixed, stops that lose nothing.

Each test drives the command line (``skatsim.cli.main`` in this process, or the
installed ``skatsim`` script in a subprocess where a signal or the memory of a
real process matters) and checks the one line the user reads and the files left.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

import polars as pl
import psutil
import pytest

from skatsim import __version__, analysis
from skatsim.cli import main
from skatsim.counts import parse_count
from skatsim.errors import SkatsimError
from skatsim.run import storage
from skatsim.run.chunks import simulate_frame
from skatsim.run.lock import LOCK
from skatsim.run.manifest import MANIFEST, DoneChunks, chunk_name, read_manifest
from skatsim.run.runner import run_simulation, scan_run
from skatsim.variant import load_variant

ROOT = Path(__file__).resolve().parent.parent
OFFICIAL = str(ROOT / "variants" / "official.yaml")
PRE1999 = str(ROOT / "variants" / "pre1999.yaml")
SKATSIM = str(Path(sys.executable).with_name("skatsim"))


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``skatsim`` in this process; returns (exit code, stdout, stderr)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str, code: int, expected_code: int = 2) -> str:
    """The single stderr line of a refused command (no traceback), with its exit code checked."""
    assert code == expected_code, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


def simulate_args(out: Path, games: str = "3000", *extra: str) -> list[str]:
    return ["simulate", OFFICIAL, "--games", games, "--out", str(out), "--bots", "random", "--quiet", *extra]


def rows(out: Path) -> pl.DataFrame:
    return scan_run(str(out)).collect().sort("game_id")


def reference(first: int, count: int, bots: str = "random") -> pl.DataFrame:
    """Games ``first .. first + count - 1`` of seed 1 under the official rules, computed directly."""
    params = load_variant(OFFICIAL).variant.params()
    return simulate_frame(1, first, count, params, (bots,) * 3, "official")


def write_lock(folder: Path, host: str, pid: int, process_start: int | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    holder = {"host": host, "pid": pid, "started": "2026-01-01T00:00:00+00:00", "token": "t", "process_start": None}
    holder["process_start"] = process_start
    (folder / LOCK).write_text(json.dumps(holder), encoding="utf-8")


def dead_pid() -> int:
    """The pid of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


# --------------------------------------------------------------------------- counts


@pytest.mark.parametrize(
    ("text", "value"),
    [("1000", 1000), ("1_000_000", 10**6), ("1,000", 1000), ("1e6", 10**6), ("1M", 10**6), ("1.5M", 1_500_000)]
    + [("2k", 2000), ("3G", 3 * 10**9), ("1e13", 10**13), ("2.5e3", 2500)],
)
def test_counts_are_read_in_every_usual_spelling(text: str, value: int) -> None:
    assert parse_count(text) == value


def test_games_in_other_spellings_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for spelling in ("1.5k", "1_500", "1.5e3"):
        out = tmp_path / spelling
        code, stdout, err = cli(capsys, *simulate_args(out, spelling))
        assert (code, err) == (0, ""), err
        assert stdout.startswith("1,500 games in ")
        manifest = read_manifest(str(out))
        assert manifest is not None and manifest.games == 1500


def test_one_game_is_counted_in_the_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from skatsim.counts import plural

    assert [plural(1, "deal"), plural(0, "trick"), plural(1_000, "more line")] == [
        "1 deal",
        "0 tricks",
        "1,000 more lines",
    ]
    out = tmp_path / "one"
    code, stdout, err = cli(capsys, *simulate_args(out, "1"))
    assert (code, err) == (0, "")
    assert re.fullmatch(rf"1 game in \d+\.\d s \([\d,]+ games/s\); 1 game in {re.escape(str(out))}\n", stdout), stdout


@pytest.mark.parametrize(
    ("command", "value", "message"),
    [
        ("simulate", "1e-3", "Invalid value for '--games': 1e-3 is not a whole number"),
        ("simulate", "1.5", "Invalid value for '--games': 1.5 is not a whole number"),
        ("simulate", "lots", "Invalid value for '--games': 'lots' is not a count (allowed: 1000000, 1_000_000, 1e6"),
        ("simulate", "0", "Invalid value for '--games': 0 is below 1"),
        ("compare", "1e-3", "Invalid value for '--games': 1e-3 is not a whole number"),
        ("sweep", "2.5k5", "Invalid value for '--games': '2.5k5' is not a count"),
    ],
)
def test_a_count_that_is_not_a_whole_number_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, value: str, message: str
) -> None:
    out = tmp_path / "out"
    args = {
        "simulate": ["simulate", OFFICIAL, "--out", str(out)],
        "compare": ["compare", OFFICIAL, PRE1999],
        "sweep": ["sweep", OFFICIAL, "--out", str(out)],
    }[command]
    line = one_line(cli(capsys, *args, "--games", value)[2], 2)
    assert message in line, line
    assert not out.exists()


def test_every_option_counting_things_takes_the_count_spellings() -> None:
    """--games, --bootstrap, --samples and --chunk-size of every command read 1e3, 10k, 1_000 alike
    (skatsim.counts): report's --bootstrap and the rollouts' --samples took plain integers only."""
    from skatsim.cli import app
    from skatsim.counts import Count

    counting = {"--games", "--bootstrap", "--samples", "--chunk-size"}
    found = {
        (name, option): param.type
        for name, command in app.commands.items()
        for param in command.params
        for option in param.opts
        if option in counting
    }
    assert {("report", "--bootstrap"), ("hand", "--samples"), ("whatif", "--samples")} <= set(found)
    assert [key for key, kind in found.items() if not isinstance(kind, Count)] == []


# --------------------------------------------------------------------------- one writer per folder


def test_a_live_writer_holds_the_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    write_lock(out, socket.gethostname(), os.getpid())  # this process is alive: its lock holds
    code, _, err = cli(capsys, *simulate_args(out))
    line = one_line(err, code)
    assert f"{out}: another skatsim is writing this run (pid {os.getpid()} on host {socket.gethostname()}" in line
    assert sorted(p.name for p in out.iterdir()) == [LOCK]  # nothing written, the holder's lock untouched


def test_a_writer_on_another_host_is_never_taken_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    write_lock(out, "elsewhere.example", 4242)
    code, _, err = cli(capsys, *simulate_args(out))
    line = one_line(err, code)
    assert "(pid 4242 on host elsewhere.example since 2026-01-01T00:00:00+00:00)" in line
    assert f"if that writer is gone, remove {out / LOCK}" in line


@pytest.mark.parametrize("kind", ["pid gone", "pid reused"])
def test_a_stale_lock_is_taken_over_with_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    out = tmp_path / "run"
    if kind == "pid gone":
        pid, start = dead_pid(), None
    else:  # a live pid whose process started at another time than the lock's holder
        pid, start = os.getpid(), 1
    write_lock(out, socket.gethostname(), pid, start)
    code, stdout, err = cli(capsys, *simulate_args(out))
    assert code == 0, err
    assert err.splitlines() == [
        f"skatsim: note: {out}: taking over the lock of pid {pid} on host {socket.gethostname()} "
        "since 2026-01-01T00:00:00+00:00, which is no longer running"
    ]
    assert stdout.startswith("3,000 games in ")
    assert not (out / LOCK).exists()
    assert rows(out).equals(reference(0, 3000))


def test_readers_say_a_run_is_being_written_or_unfinished(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    run_simulation(OFFICIAL, 3000, 1, str(out), bots="random", chunk_size=1000, progress=False)
    write_lock(out, socket.gethostname(), os.getpid())
    with pytest.raises(SkatsimError, match=rf"^{re.escape(str(out))}: the run is still being written \(pid"):
        analysis.scan(str(out))
    code, _, err = cli(capsys, "report", str(out), "--out", str(tmp_path / "r.html"))
    assert "the run is still being written" in one_line(err, code)
    (out / LOCK).unlink()
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    manifest.update(finished=None, chunks_done=[[0, 2]])
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(SkatsimError, match=r"unfinished \(2 of 3 chunks\) and nothing is writing it; .* --resume$"):
        scan_run(str(out))


def test_an_unreadable_lock_is_named_not_described_as_a_writer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    run_simulation(OFFICIAL, 1000, 1, str(out), bots="random", progress=False)
    (out / LOCK).write_text('{"host": "h', encoding="utf-8")  # a writer killed while writing it
    expected = (
        f"skatsim: error: {out / LOCK}: the run's lock file cannot be read; if nothing is writing the run, "
        "remove that file and try again"
    )
    code, _, err = cli(capsys, "report", str(out), "--out", str(tmp_path / "r.html"))
    assert one_line(err, code) == expected
    code, _, err = cli(capsys, *simulate_args(out, "1000", "--resume"))
    assert one_line(err, code) == expected
    assert (out / LOCK).read_text(encoding="utf-8") == '{"host": "h'  # never taken over


# --------------------------------------------------------------------------- nothing mixed


def test_a_chunk_of_another_run_is_refused_by_resume_and_readers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine, other = tmp_path / "mine", tmp_path / "other"
    for out in (mine, other):
        assert cli(capsys, *simulate_args(out, "3000", "--chunk-size", "1000"))[0] == 0
    foreign = mine / chunk_name(1000, 1000)
    foreign.write_bytes((other / chunk_name(1000, 1000)).read_bytes())  # same games, same rows: another run
    run_ids = [read_manifest(str(out)).run_id for out in (mine, other)]  # type: ignore[union-attr]
    with pytest.raises(SkatsimError, match=rf"^{re.escape(str(foreign))}: chunk file of another run"):
        analysis.scan(str(mine))
    code, _, err = cli(capsys, "report", str(mine), "--out", str(tmp_path / "r.html"))
    assert f"{foreign}: chunk file of another run (run id {run_ids[1]}, the run in {mine} is {run_ids[0]})" in (
        one_line(err, code)
    )
    code, _, err = cli(capsys, *simulate_args(mine, "3000", "--resume"))
    line = one_line(err, code)
    assert f"{foreign}: chunk file of another run (run id {run_ids[1]}, this run is {run_ids[0]})" in line
    assert "remove that file and run again with --resume" in line
    foreign.unlink()
    assert cli(capsys, *simulate_args(mine, "3000", "--resume"))[0] == 0
    assert rows(mine).equals(reference(0, 3000))


@pytest.mark.parametrize(
    ("field", "recorded", "message"),
    [
        ("skatsim_version", "0.0.9", f"made with skatsim version 0.0.9, not {__version__}"),
        ("bots", ["random", "random", "heuristic"], "made with --bots random,random,heuristic; resume it with --bots"),
    ],
)
def test_resume_refuses_another_version_or_bot_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, recorded: object, message: str
) -> None:
    out = tmp_path / "run"
    assert cli(capsys, *simulate_args(out, "3000", "--chunk-size", "1000"))[0] == 0
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    manifest.update({field: recorded, "finished": None, "chunks_done": [[0, 1]]})
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    (out / chunk_name(2000, 1000)).unlink()
    before = sorted(p.name for p in out.iterdir())
    code, _, err = cli(capsys, *simulate_args(out, "3000", "--resume"))
    assert f"{out}: cannot resume: the run was {message}" in one_line(err, code)
    assert sorted(p.name for p in out.iterdir()) == before


# --------------------------------------------------------------------------- a full disk


def failing_writes(after: int, error: BaseException) -> Callable[[str, Callable[[IO[bytes]], object]], None]:
    """``storage.write_atomic`` that writes ``after`` chunk files, then fails every write (the disk is full):
    chunk files with ``error`` (as the Parquet writer reports it), other files with ``OSError(ENOSPC)``."""
    real = storage.write_atomic
    written = [0]
    lock = threading.Lock()  # two jobs are two threads: the count and its test in one step

    def write_atomic(path: str, write: Callable[[IO[bytes]], object]) -> None:
        chunk = storage.basename(path).startswith("chunk-")
        with lock:
            full = written[0] >= after
            written[0] += chunk and not full
        if full:
            raise error if chunk else OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, write)

    return write_atomic


@pytest.mark.parametrize(
    "error",
    [
        OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)),
        # what polars raises when its writer meets a full disk (seen on an 8 MB tmpfs)
        pl.exceptions.ComputeError(
            "parquet: File out of specification: underlying IO error: No space left on device (os error 28)"
        ),
    ],
    ids=["OSError", "polars"],
)
def test_a_full_disk_keeps_the_chunks_and_resume_completes_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    out = tmp_path / "run"
    args = simulate_args(out, "5000", "--chunk-size", "1000", "--jobs", "1")
    with monkeypatch.context() as patch:
        patch.setattr(storage, "write_atomic", failing_writes(2, error))
        code, _, err = cli(capsys, *args)
    line = one_line(err, code)
    assert line.startswith(f"skatsim: error: {out / chunk_name(2000, 1000)}: cannot write chunk file: the disk is full")
    command = "skatsim " + shlex.join(args[:] + ["--resume"])
    assert line.endswith(f"; 2,000 of 5,000 games kept in {out}; to continue: {command}"), line
    assert sorted(p.name for p in out.iterdir()) == [chunk_name(0, 1000), chunk_name(1000, 1000), MANIFEST]
    code, stdout, err = cli(capsys, *shlex.split(command)[1:])
    assert (code, err) == (0, "")
    assert stdout.startswith("3,000 games in ") and "(2,000 already done)" in stdout
    assert rows(out).equals(reference(0, 5000))


def test_a_full_disk_under_two_jobs_keeps_what_was_written_and_resume_completes_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two jobs run as threads of this process, so a full disk meets them here too: the first error ends
    the run, the other thread's chunk under way is waited for, and the message counts what is on disk."""
    out = tmp_path / "run"
    args = simulate_args(out, "6000", "--chunk-size", "1000", "--jobs", "2")
    with monkeypatch.context() as patch:
        patch.setattr(storage, "write_atomic", failing_writes(2, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))))
        code, _, err = cli(capsys, *args)
    line = one_line(err, code)
    assert re.match(
        rf"skatsim: error: {re.escape(str(out))}/chunk-\d+-1000\.parquet: cannot write chunk file: the disk", line
    )
    kept = sorted(p.name for p in out.iterdir() if p.name.startswith("chunk-"))
    assert len(kept) == 2 and line.endswith(
        f"; 2,000 of 6,000 games kept in {out}; to continue: " + shlex.join(["skatsim", *args, "--resume"])
    )
    code, stdout, err = cli(capsys, *args, "--resume")
    assert (code, err) == (0, "") and "(2,000 already done)" in stdout
    assert rows(out).equals(reference(0, 6000))


def test_a_run_that_cannot_fit_on_the_disk_is_refused_before_it_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage, "free_bytes", lambda path: 1_000_000)
    out = tmp_path / "run"
    code, _, err = cli(capsys, *simulate_args(out, "1M"))
    line = one_line(err, code)
    assert line == (
        f"skatsim: error: {out}: the run needs about 22.3 MB of disk space and 1.0 MB are free there; "
        "free some space, choose another --out, or pass --force to try anyway"
    )
    assert list(out.iterdir()) == []
    code, _, err = cli(capsys, *simulate_args(out, "3000", "--force"))
    assert (code, err) == (0, "")


# --------------------------------------------------------------------------- Ctrl-C and huge runs


def start(args: list[str]) -> subprocess.Popen[str]:
    """The installed ``skatsim`` in its own process group (a terminal's Ctrl-C reaches the whole group)."""
    return subprocess.Popen(
        [SKATSIM, *args], start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def wait_for_chunks(child: subprocess.Popen[str], out: Path, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not list(out.glob("chunk-*.parquet")):
        if child.poll() is not None:
            raise AssertionError(child.communicate())
        assert time.monotonic() < deadline
        time.sleep(0.02)


def tree_rss(pid: int) -> int:
    """Resident memory (bytes) of a process and all its children."""
    process = psutil.Process(pid)
    total = 0
    for each in [process, *process.children(recursive=True)]:
        try:
            total += each.memory_info().rss
        except psutil.Error:
            pass
    return total


def test_ctrl_c_on_ten_trillion_games_is_quick_keeps_chunks_and_memory_stays_small(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--games 10**13 used to plan every chunk first (6.8 GB in 36 s, nothing written). Now chunks
    start at once, memory stays flat, the folder is locked, and Ctrl-C stops within 2 s.

    The first Ctrl-C lets the chunk in flight in the run's own thread finish, so the chunks are small: a
    default chunk of 250,000 games took 2.02 s to finish in a CI run on a loaded 2-core machine."""
    out = tmp_path / "huge"
    args = ["simulate", OFFICIAL, "--games", "1e13", "--out", str(out), "--jobs", "2", "--chunk-size", "50k"]
    args += ["--force", "--quiet"]
    child = start(args)
    wait_for_chunks(child, out)
    peak = 0
    for _ in range(10):  # a second of chunks at full speed
        peak = max(peak, tree_rss(child.pid))
        time.sleep(0.1)
    assert peak < 1_500 * 2**20, peak  # the process and its two workers together
    manifest_size = (out / MANIFEST).stat().st_size
    assert manifest_size < 8_000

    code, _, err = cli(capsys, "simulate", OFFICIAL, "--games", "1e13", "--out", str(out), "--resume", "--force")
    assert f"another skatsim is writing this run (pid {child.pid} on host {socket.gethostname()}" in one_line(err, code)
    with pytest.raises(SkatsimError, match="the run is still being written"):
        analysis.scan(str(out))

    os.killpg(child.pid, signal.SIGINT)
    stopped = time.monotonic()
    stdout, stderr = child.communicate(timeout=30)
    assert time.monotonic() - stopped < 2.0
    line = one_line(stderr, child.returncode, 130)
    kept = len(list(out.glob("chunk-*.parquet"))) * 50_000
    command = shlex.join(["skatsim", *args, "--resume"])
    assert line == f"skatsim: interrupted; {kept:,} of 10,000,000,000,000 games kept in {out}; to continue: {command}"
    manifest = read_manifest(str(out))
    assert manifest is not None and manifest.games_in(manifest.done()) == kept
    assert not (out / LOCK).exists()
    assert stdout == ""


def test_ctrl_c_on_a_local_dask_cluster_stops_the_run_without_a_workers_traceback(tmp_path: Path) -> None:
    """The cluster's worker processes are in the run's process group, so a terminal's Ctrl-C reaches them
    too: they leave it to the run (each printed a ``KeyboardInterrupt`` traceback before)."""
    out = tmp_path / "run"
    args = ["simulate", OFFICIAL, "--games", "1e9", "--out", str(out), "--jobs", "2", "--chunk-size", "50k"]
    child = start([*args, "--backend", "dask", "--quiet"])
    wait_for_chunks(child, out)
    os.killpg(child.pid, signal.SIGINT)
    _, stderr = child.communicate(timeout=60)
    assert one_line(stderr, child.returncode, 130).startswith("skatsim: interrupted; "), stderr


#: A worker's set-up, then polars queries in a thread (as a chunk runs them) while SIGINT reaches the
#: process: importing polars after SIGINT is ignored installs polars' own handler, which aborted the
#: running query with ``KeyboardInterrupt`` (seen in CI as a dask worker's traceback).
_WORKER_SIGINT_SCRIPT = """
import os, signal, sys, threading, time
{setup}
import polars as pl
started, stop, outcome = threading.Event(), threading.Event(), []
def queries():
    try:
        while not stop.is_set():
            frame = pl.LazyFrame({{"a": range(300_000)}})
            frame.select(pl.col("a").sort(descending=True).cum_sum()).collect()
            started.set()
        outcome.append("no interrupt")
    except KeyboardInterrupt:
        outcome.append("KeyboardInterrupt")
        started.set()
thread = threading.Thread(target=queries)
thread.start()
started.wait()
for _ in range(5):
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.05)
stop.set()
thread.join()
print(outcome[0])
"""


@pytest.mark.parametrize(
    "setup",
    [
        "from skatsim.run.dask_worker import dask_setup; dask_setup(None)",
        "from skatsim.run.local_backend import _start_worker; _start_worker()",
    ],
    ids=["dask", "local"],
)
def test_a_workers_polars_queries_ignore_ctrl_c(setup: str) -> None:
    script = _WORKER_SIGINT_SCRIPT.format(setup=setup)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "no interrupt"), done.stderr


#: A second Ctrl-C that arrives while a weakref callback runs (as an import's module lock is dropped
#: while the first Ctrl-C unwinds): an exception raised there would be printed with its traceback and
#: dropped, and the process would go on ("went on").
_SECOND_CTRL_C_SCRIPT = """
import os, signal, sys, weakref
from skatsim.run.lock import RunLock
from skatsim.run.runner import catch_interrupts
RunLock(sys.argv[1]).acquire()
with catch_interrupts():
    try:
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(10**6): pass
    except KeyboardInterrupt:
        pass
    class Held: pass
    def dropped(ref):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(10**6): pass
    held = Held()
    ref = weakref.ref(held, dropped)
    del held
    print("went on")
"""


def test_a_second_ctrl_c_ends_the_process_at_once_wherever_it_lands(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SECOND_CTRL_C_SCRIPT, str(tmp_path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 130, done.stderr
    assert done.stdout == ""
    assert done.stderr == "skatsim: interrupted again: stopped at once; the chunks written are kept (--resume)\n"
    assert not (tmp_path / LOCK).exists()  # released on the way out


class _ProcessEnded(Exception):
    """Stands in for ``os._exit`` in :func:`test_a_second_ctrl_c_inside_the_locks_release_still_removes_it`."""


def test_a_second_ctrl_c_inside_the_locks_release_still_removes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first Ctrl-C's unwinding releases the lock; a second that lands inside that release runs
    :func:`release_held` and ends the process. A CI run of stop 52 left the lock behind so (the resumed
    run said "taking over the lock of pid ..."): the lock counted as released before its file was gone."""
    from skatsim.run import lock as lock_module

    held = lock_module.RunLock(str(tmp_path)).acquire()
    read_lock = lock_module.read_lock
    landed = []

    def second_ctrl_c_lands(folder: str) -> lock_module.LockHolder | None:
        if not landed:  # as the signal's handler would: release what is held, then the process ends
            landed.append(True)
            lock_module.release_held()
            raise _ProcessEnded
        return read_lock(folder)

    monkeypatch.setattr(lock_module, "read_lock", second_ctrl_c_lands)
    with pytest.raises(_ProcessEnded):
        held.release()
    assert not (tmp_path / LOCK).exists()
    assert held not in lock_module._HELD


_COMMAND_CTRL_C_SCRIPT = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # as a command line starts (see the test)
from skatsim.run import runner
with runner.command_ctrl_c():
    pass
assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored after a quiet command
try:
    with runner.command_ctrl_c():
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(10**6): pass
except KeyboardInterrupt:
    print("first: KeyboardInterrupt")
with runner.command_ctrl_c():
    runner._stopped_by_ctrl_c = True  # as once a run's own handler took a first Ctrl-C and the run unwinds
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(10**6): pass
    print("went on")
"""


def test_a_second_ctrl_c_between_the_runs_handler_and_the_commands_end_still_stops_at_once() -> None:
    """The run's handler is gone once the stopped run unwinds (a clean-clone run of stop 39: the second Ctrl-C landed
    there, a ``KeyboardInterrupt`` left the command: "skatsim: aborted", no resume line). A command
    line's own handler takes it: the first Ctrl-C of a command is Python's, the second stops at once.

    The script starts as a command line does, with Python's own handler: a child inherits an ignored
    SIGINT, and in one of three full test runs of stop 46 the script started with SIGINT ignored (its
    first assertion failed), so the test's worker process had it ignored then; which earlier test in
    that worker left it so is not known yet."""
    done = subprocess.run([sys.executable, "-c", _COMMAND_CTRL_C_SCRIPT], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (130, "first: KeyboardInterrupt\n"), done.stderr
    assert done.stderr == "skatsim: interrupted again: stopped at once; the chunks written are kept (--resume)\n"


def test_ctrl_c_twice_then_the_printed_command_completes_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = ["simulate", OFFICIAL, "--games", "600k", "--out", str(out), "--jobs", "2", "--chunk-size", "10k"]
    child = start([*args, "--quiet"])
    wait_for_chunks(child, out)
    os.killpg(child.pid, signal.SIGINT)
    time.sleep(0.05)
    os.killpg(child.pid, signal.SIGINT)  # the second: at once, whatever the first was doing
    stopped = time.monotonic()
    _, stderr = child.communicate(timeout=30)
    assert time.monotonic() - stopped < 2.0
    assert child.returncode == 130 and "Traceback" not in stderr, stderr
    assert re.search(r"skatsim: interrupted(; [\d,]+ of 600,000 games kept| again: stopped at once)", stderr)
    kept = sorted(out.glob("chunk-*.parquet"))
    assert 0 < len(kept) < 60
    code, stdout, err = cli(capsys, *args, "--quiet", "--resume")
    assert (code, err) == (0, "")
    games = rows(out)
    assert games.height == games["game_id"].n_unique() == 600_000
    heuristic = ("heuristic",) * 3
    params = load_variant(OFFICIAL).variant.params()
    for first in (0, 590_000):
        chunk = games.filter(pl.col("game_id").is_between(first, first + 9_999))
        assert chunk.equals(simulate_frame(1, first, 10_000, params, heuristic, "official")), first  # type: ignore[arg-type]


# --------------------------------------------------------------------------- compare on the runner


def compare_text(stdout: str) -> str:
    """A comparison's text without the line that says how long it took."""
    return re.sub(r"; [\d.]+ s on \d+ jobs?", "", stdout)


def test_skatsim_alone_prints_the_help_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    """``skatsim`` without a command shows the help (on stderr, exit 2 since click 8.2; stdout, exit 0
    before), never as ``skatsim: error: Usage: ...``."""
    code, out, err = cli(capsys)
    text = err if code == 2 else out
    assert code in (0, 2) and text.startswith("Usage: skatsim [OPTIONS] COMMAND [ARGS]...\n"), (code, out, err)
    assert "skatsim: error" not in out + err and "  simulate " in text


def test_compare_checks_out_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start_time = time.monotonic()
    code, _, err = cli(capsys, "compare", OFFICIAL, PRE1999, "--games", "1e9", "--out", str(tmp_path / "c.csv"))
    assert one_line(err, code) == f"skatsim: error: --out {tmp_path / 'c.csv'}: the file name must end in .json or .md"
    assert time.monotonic() - start_time < 5
    code, _, err = cli(capsys, "compare", OFFICIAL, PRE1999, "--games", "100", "--resume")
    assert "--resume needs --runs DIR" in one_line(err, code)


def test_compare_refuses_what_it_could_not_finish_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An --out file that cannot be written and a bootstrap too large for memory are refused before the
    runs, not after the comparison has been played and printed."""
    (tmp_path / "afile").write_text("")
    out = tmp_path / "afile" / "c.json"
    args = ["compare", OFFICIAL, PRE1999, "--games", "200", "--jobs", "1", "--quiet"]
    code, stdout, err = cli(capsys, *args, "--out", str(out))
    assert (
        one_line(err, code) == f"skatsim: error: --out {out}: cannot write there ({tmp_path / 'afile'} is not a folder)"
    )
    assert stdout == ""
    code, stdout, err = cli(capsys, *args, "--bootstrap", "1e9")
    assert one_line(err, code) == "skatsim: error: --bootstrap must be at most 100,000 resamples, got 1,000,000,000"
    assert stdout == ""


def test_compare_stopped_in_a_temporary_folder_resumes_from_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["compare", OFFICIAL, PRE1999, "--games", "4000", "--chunk-size", "1000", "--jobs", "1"]
    args += ["--bots", "random", "--bootstrap", "50", "--quiet"]
    code, whole, err = cli(capsys, *args)
    assert (code, err) == (0, "")
    with monkeypatch.context() as patch:
        patch.setattr(storage, "write_atomic", failing_writes(5, OSError(errno.ENOSPC, "No space left on device")))
        code, _, err = cli(capsys, *args)
    line = one_line(err, code)
    match = re.search(r"; 5,000 of 8,000 games kept in (\S+); to continue: (.+)$", line)
    assert match, line
    folder = Path(match[1])
    assert folder.name.startswith("skatsim-compare-") and folder.is_dir()
    assert match[2] == shlex.join(["skatsim", *args, "--runs", str(folder), "--resume"])
    code, resumed, err = cli(capsys, *shlex.split(match[2])[1:])
    assert (code, err) == (0, "")
    assert compare_text(resumed) == compare_text(whole)
    assert sorted(p.name for p in folder.iterdir()) == ["a-official", "b-pre1999"]  # --runs keeps the runs
    report = tmp_path / "r.html"
    try:
        assert cli(capsys, "report", str(folder), "--out", str(report))[0] == 0
    finally:
        shutil.rmtree(folder)  # the comparison kept it, as told: the test removes it


# --------------------------------------------------------------------------- ISS import manifest


def test_import_records_its_source_and_what_it_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixture = ROOT / "tests" / "fixtures" / "iss" / "real_games.sgf"
    source = tmp_path / "games.sgf"
    lines = fixture.read_text(encoding="utf-8").splitlines()
    source.write_text("\n".join([*lines[:3], "garbage", lines[1], ""]), encoding="utf-8")
    code, stdout, _ = cli(capsys, "import-iss", str(source), "--out", str(tmp_path / "out"))
    assert code == 0 and "3 games imported, 2 skipped" in stdout
    recorded = json.loads((tmp_path / "out" / "import.json").read_text(encoding="utf-8"))
    data = source.read_bytes()
    assert recorded["format"] == "skatsim-iss-import"
    assert (recorded["source"], recorded["source_bytes"]) == (str(source), len(data))
    assert recorded["source_sha256"] == hashlib.sha256(data).hexdigest()
    assert (recorded["lines_read"], recorded["games_imported"], recorded["lines_skipped"]) == (5, 3, 2)
    assert recorded["skipped_by_reason"] == [
        {
            "reason": "not an ISS game record",
            "count": 1,
            "lines": [[4, "not an ISS game record (expected a line starting with '(;')"]],
        },
        {"reason": "duplicate game ID", "count": 1, "lines": [[5, "game ID 9 already imported from line 2"]]},
    ]


def test_done_chunks_stay_ranges() -> None:
    done = DoneChunks()
    for i in [5, 0, 2, 1, 4, 3, 9]:
        done.add(i)
    assert done.ranges() == [(0, 6), (9, 10)]
    assert (len(done), 6 in done, 9 in done, list(done.missing(12))) == (7, False, True, [6, 7, 8, 10, 11])


def test_compare_reads_its_runs_chunk_by_chunk_as_the_report_reads_them_by_slices(tmp_path: Path) -> None:
    """Runs of one chunk plan are read chunk by chunk; the slices of game ids, which runs of different plans
    take, give the same tables."""
    from skatsim.analysis.compare import compare_variants, paired_comparison
    from skatsim.analysis.report import paired_runs
    from skatsim.analysis.sources import find_sources

    runs = tmp_path / "runs"
    made = compare_variants(
        OFFICIAL, PRE1999, 5000, seed=4, bots="random", n_boot=50, chunk_size=36 * 40, runs_dir=str(runs)
    )
    by_chunk = paired_comparison(str(runs / "a-official"), str(runs / "b-pre1999"), n_boot=50)
    a, b = find_sources([runs / "a-official", runs / "b-pre1999"])
    by_slice = paired_runs(a, b, [a.name, b.name], 0.95, 50, by_chunk=False)
    for table in ("means", "spread", "changes"):
        assert getattr(made, table).equals(getattr(by_chunk, table)), table
        assert getattr(by_chunk, table).equals(getattr(by_slice, table)), table
    assert made.changes["count"].sum() > 0  # the rules differ on some deals: the test compares something


def test_a_slice_of_a_run_reads_only_the_chunk_files_that_hold_it(tmp_path: Path) -> None:
    """Chunk files carry no min/max statistics (``chunks.STATISTICS``): a slice of a run chooses its files by
    their names. A broken file outside the slice is never opened; inside it, it is."""
    from skatsim.analysis.sources import find_sources, scan_games
    from skatsim.run.chunks import STATISTICS

    assert STATISTICS == {"min": False, "max": False, "null_count": True}
    out = tmp_path / "run"
    run_simulation(OFFICIAL, 3000, 1, str(out), bots="random", chunk_size=1000, progress=False)
    (source,) = find_sources([out])
    (out / chunk_name(2000, 1000)).write_bytes(b"not a parquet file")
    got = scan_games(source, [source.name], 900, 1999).collect()
    expected = reference(900, 1100)
    assert got["game_id"].to_list() == list(range(900, 2000))
    assert got.select(expected.columns).equals(expected)
    with pytest.raises(pl.exceptions.PolarsError):
        scan_games(source, [source.name], 1999, 2000).collect()


def test_a_command_compiling_at_first_use_says_so_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pip install`` compiles the simulation and a record's replay; the solver, the what-if
    rollouts and the ISS parser compile at their first use (up to half a minute). The commands that
    use them say so while they work: a spinner on a terminal, nothing when stderr is not one."""
    from rich.console import Console
    from rich.status import Status

    from skatsim.run import runner

    with runner.working("solving") as quiet:
        assert quiet is None  # the tests' stderr is no terminal: nothing shown
    monkeypatch.setattr(Console, "is_terminal", property(lambda self: True))
    with runner.working("solving") as shown:
        assert isinstance(shown, Status)
        assert str(shown.renderable.text) == f"solving {runner.FIRST_USE}"  # type: ignore[attr-defined]
    monkeypatch.undo()
    capsys.readouterr()
    said: list[str] = []
    real = runner.working
    monkeypatch.setattr(runner, "working", lambda what: (said.append(what), real(what))[1])
    iss = str(Path(__file__).parent / "fixtures" / "iss" / "real_games.sgf")
    assert main(["solve", iss, "--line", "21", "--after", "30"]) == 0
    assert main(["replay", "--iss", iss, "--line", "21"]) == 0
    assert said == ["solving", "replaying"]
    assert "solving" not in capsys.readouterr().err


def test_a_run_compiles_its_search_before_any_chunk(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A run with a searching seat (pimc) or --open-hand compiles the solver's kernels in this process
    while it starts (under the 'starting' spinner, counted as compiling in its summary), on no games, so
    workers load them instead of each compiling: the runner asks for it with the run's bots and
    --open-hand, and the warm-up plays no game."""
    from skatsim.run import chunks, runner

    calls: list[tuple[tuple[str, ...], str]] = []
    real = chunks.warm_up_search
    monkeypatch.setattr(runner, "warm_up_search", lambda bots, oh: (calls.append((tuple(bots), oh)), real(bots, oh))[1])
    variant = str(Path(__file__).resolve().parents[1] / "variants" / "official.yaml")
    out = tmp_path / "run"
    assert main(["simulate", variant, "--games", "3", "--open-hand", "--jobs", "1", "--out", str(out), "--quiet"]) == 0
    assert calls == [(read_manifest(str(out)).bots, "points")]
    real(("pimc:worlds=2", "heuristic", "random"), "")  # the searching seat's block, on no games
