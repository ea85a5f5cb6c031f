"""The ``local`` backend: chunks in threads of this process and in worker processes on this machine
(``--backend local``, the default).

A chunk's work is compiled code that releases the GIL (numba's ``nogil`` kernels) and polars, which
releases it too, so up to ``HERE_THREADS`` jobs run as threads of this process: no worker imports numba,
polars and the kernels (about a second of a core each), holds a second copy of them, or has its
chunks pickled to it. Jobs beyond those run in worker processes, a loky process pool (joblib's),
driven directly rather than through ``joblib.Parallel`` for the three things the runner needs:
specs are taken lazily from the runner's (possibly endless-looking) stream, at most
``IN_FLIGHT_PER_WORKER`` per worker and one per thread, so memory does not grow with ``--games``;
results come back as they finish; and a stopped run (Ctrl-C, an error) kills its workers at once
instead of waiting for their chunks (a thread finishes the chunk it is on). Workers ignore SIGINT (a
terminal sends it to the whole process group): the parent alone decides. One job runs the chunks in
this process's own thread, each chunk's file written by a second thread while the next chunk's
kernel runs (:func:`skatsim.run.chunks.run_in_turn`); a caller whose own thread has other work (the
ISS importer reads and unpacks its source while the chunks are imported) gets a thread for it too.

Each backend owns its pools, started on entry or at its first parallel map and stopped when the
backend is left (or :meth:`LocalBackend.shut_down`), and its workers never leave on
their own. Not joblib's process-wide reusable pool: its workers leave after 10 idle
seconds, a map that begins as they leave makes loky warn from its manager thread, and
under an "error" warnings filter (``-W error``, the test suite's) that warning ends the
thread: the map then waited forever. A watchdog turns any such silence into a one-line
error instead of a hang.
"""

from __future__ import annotations

import gc
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from itertools import chain, islice
from typing import Any

import numpy as np

from ..engine.layout import LOG_WIDTH, N_COLUMNS
from ..errors import SkatsimError
from .chunks import MATRICES, ChunkJob, leave_interrupts_to_the_run, run_chunk, run_in_turn, warm_up

#: Chunks given to each worker process at a time: one running, one queued, so no worker waits for
#: the next spec and nothing beyond that is planned ahead (memory independent of ``games``). A thread
#: of this process takes its next chunk the moment it is done: one each.
IN_FLIGHT_PER_WORKER = 2
#: Most jobs run as threads of this process (the rest in worker processes). What a chunk does with the
#: GIL held (building the frame's expressions, a recorded game's JSON as a Python string) is a few
#: percent of its time, so four threads barely wait for each other.
HERE_THREADS = 4
#: Seconds between the watchdog's looks at a pool that has not finished a chunk (:func:`_finished`).
WATCH_SECONDS = 5.0
#: The workers' environment beyond this process's: one BLAS thread. Numpy's OpenBLAS starts a thread
#: per core on import, and they spin for about 0.1 s of CPU each before they sleep; a worker only
#: runs compiled kernels and polars, and never multiplies a matrix.
WORKER_ENV = {"OPENBLAS_NUM_THREADS": "1"}
#: What a second Ctrl-C does first (:class:`skatsim.run.runner._Interrupts`): kill the worker
#: processes of the running map (pushed and popped by :meth:`LocalBackend.map_unordered`).
AT_ONCE: list[Callable[[], None]] = []


def _start_worker() -> None:
    """Worker initializer. Ctrl-C reaches the whole process group, but only the parent decides
    what to do (it stops the workers), so no worker dies half-way on its own. And the objects the
    imports made (this module imports everything a chunk needs) are frozen (``gc.freeze``): the
    collector never scans them again, nor at the worker's exit, which the parent waits for at the
    end of every run (0.3 s of teardown per worker otherwise)."""
    leave_interrupts_to_the_run()
    gc.freeze()


class LocalBackend:
    """Chunks in threads of this process and in worker processes on this machine (a loky process pool,
    as joblib uses): up to ``HERE_THREADS`` jobs here, the rest in workers; one job runs in the
    caller's own thread unless that one is busy.

    A context manager: entering compiles the kernel here (and starts the workers of a run of several
    chunks), leaving stops the threads and the workers.
    """

    def __init__(self, jobs: int, caller_busy: bool = False) -> None:
        """``jobs`` chunks run at a time: up to ``HERE_THREADS`` of them in threads of this process,
        the rest in worker processes. ``caller_busy``: the caller's own thread has other work while the
        chunks run (the ISS importer reads and unpacks its source: it makes the specs it hands out), so
        even one job runs in a thread of its own."""
        self.jobs = jobs
        self.caller_busy = caller_busy
        self._executor: Any = None
        self._threads: ThreadPoolExecutor | None = None
        self._chunks = 0
        self._blocks_per_chunk = 0
        self._logs = False

    @property
    def threads(self) -> int:
        """Jobs that run as threads of this process (one job, when the caller is not busy: its own thread)."""
        return min(self.jobs, HERE_THREADS)

    @property
    def workers(self) -> int:
        """Worker processes of a parallel map: the jobs that do not run here."""
        return self.jobs - self.threads

    def expect_chunks(self, chunks: int, blocks_per_chunk: int = 0, logs: bool = False) -> None:
        """Say how many chunks the coming maps hold (the runner does, before entering). With two or
        more and worker processes to run them, entering starts the workers before the kernel is loaded
        here, so their start-up (importing numba, polars and the kernels' modules: about a second) runs
        beside it instead of after it. Fewer, and no worker is started for nothing.

        ``blocks_per_chunk``: the simulation's row matrices a chunk fills (:class:`skatsim.run.chunks.Matrices`;
        0: none worth making ahead), ``logs`` with action logs beside them. Entering then has the matrices
        the threads of this process will hold at once made on a thread of their own
        (:meth:`~skatsim.run.chunks.Matrices.prepare`), while the kernel is loaded."""
        self._chunks = chunks
        self._blocks_per_chunk = blocks_per_chunk
        self._logs = logs

    def _prepare_matrices(self) -> None:
        """Have the matrices made that the chunks run here hold at once, and no more (each is 21 MB): for
        one job a chunk's blocks and one more (:func:`~skatsim.run.chunks.run_in_turn` plays the next
        chunk's blocks while the writer narrows the last one's, giving each back), for jobs in threads one
        each (a thread plays and frames its chunk block by block). Counted in runs of 10,000,000 games:
        one job took 5 matrices with chunks of four blocks, two jobs 2."""
        if not self._blocks_per_chunk:
            return
        held = self._blocks_per_chunk + 1 if self.jobs <= 1 and not self.caller_busy else self.threads
        count = min(held, self._chunks * self._blocks_per_chunk, MATRICES.KEEP)
        MATRICES.prepare(count, N_COLUMNS, np.int64)
        if self._logs:
            MATRICES.prepare(count, LOG_WIDTH, np.int16)

    def shut_down(self) -> None:
        """Stop the threads and the worker processes now (the next map starts new ones): when the
        backend is left, or for a caller that goes on alone and wants back the memory the workers hold."""
        if self._threads is not None:
            self._threads.shutdown(wait=True, cancel_futures=True)
            self._threads = None
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        MATRICES.clear()

    def __enter__(self) -> LocalBackend:
        if self.jobs > 1 and self.workers and self._chunks > 1:
            self._pool()
        self._prepare_matrices()
        warm_up()  # compile (or load) the kernel once here, so the workers load numba's disk cache
        return self

    def __exit__(self, *exc: object) -> None:
        self.shut_down()

    def map_unordered(self, fn: Callable[[Any], str], specs: Iterable[ChunkJob]) -> Iterator[str]:
        """Run chunks over ``jobs`` threads and processes, one in flight per thread and two per worker,
        yielding paths as they finish; a spec goes to a thread of this process when one is free."""
        specs = iter(specs)
        head = list(islice(specs, 2))
        if (self.jobs <= 1 or len(head) <= 1) and not self.caller_busy:
            yield from run_in_turn(chain(head, specs)) if fn is run_chunk else map(fn, chain(head, specs))
            return
        threads = self._thread_pool() if self.threads else None
        executor = self._pool() if self.workers else None
        here: set[Future[str]] = set()
        there: set[Future[str]] = set()
        finished = False
        if executor is not None:
            AT_ONCE.append(lambda: _kill_workers(executor))
        try:
            for spec in chain(head, specs):
                while len(here) >= self.threads and len(there) >= IN_FLIGHT_PER_WORKER * self.workers:
                    done, here, there = _finished(executor, here, there)
                    yield from (_local_result(future) for future in done)
                if threads is not None and len(here) < self.threads:
                    here.add(threads.submit(fn, spec))
                else:
                    assert executor is not None
                    there.add(executor.submit(fn, spec))
            while here or there:
                done, here, there = _finished(executor, here, there)
                yield from (_local_result(future) for future in done)
            finished = True
        finally:
            if executor is not None:
                AT_ONCE.pop()
            if not finished:  # stopped early (Ctrl-C, an error): stop the workers now, keep what is written
                _let_finish(here)
                if executor is not None:
                    _kill_workers(executor)  # now, not later in the pool's own thread: the process may exit first
                    # The pool finds its workers dead and fails the pending futures itself. Not
                    # ``kill_workers=True``: that drops the pending work items but not their queued ids,
                    # and loky's manager thread then dies on a KeyError, its traceback on stderr; nor
                    # cancelling the futures here, which trips loky the same way.
                    executor.shutdown(wait=False)
                    self._executor = None

    def _thread_pool(self) -> ThreadPoolExecutor:
        """This backend's threads, for the jobs that run in this process."""
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.threads, thread_name_prefix="skatsim-job")
        return self._threads

    def _pool(self) -> Any:
        """This backend's worker pool, its workers started on first use, with Ctrl-C ignored while they
        are started (a few milliseconds): they inherit that, so one pressed while they import (about a
        second) cannot end them with a traceback; the parent alone stops them."""
        if self._executor is None:
            from joblib.externals.loky import ProcessPoolExecutor  # imported here: only parallel runs need it

            executor = ProcessPoolExecutor(max_workers=self.workers, initializer=_start_worker, env=WORKER_ENV)
            with _sigint_ignored():
                executor.submit(int)  # a task that does nothing: the pool starts its workers now
            self._executor = executor
        return self._executor


def _finished(
    executor: Any, here: set[Future[str]], there: set[Future[str]]
) -> tuple[set[Future[str]], set[Future[str]], set[Future[str]]]:
    """Wait until one of the chunks in flight (``here`` in threads, ``there`` in the worker pool
    ``executor``) is finished: (finished, still here, still there). Every ``WATCH_SECONDS``
    without one, make sure the pool is still working on its chunks: a pool whose manager thread has
    ended cannot finish them any more, so that is an error rather than a wait without end."""
    while True:
        manager = getattr(executor, "_executor_manager_thread", None)
        alive = not there or (manager is not None and manager.is_alive())  # first: what it finished counts
        done, _ = wait(here | there, timeout=WATCH_SECONDS if alive else 0, return_when=FIRST_COMPLETED)
        if done:
            return done, here - done, there - done
        if not alive:
            raise SkatsimError("the worker processes stopped answering (their pool ended with chunks unfinished)")


def _let_finish(here: set[Future[str]]) -> None:
    """Wait for the chunks under way in this process's threads when a map stops early: a thread cannot be
    stopped half-way (one chunk at most), and the runner then adopts the files they wrote (they are
    complete, and the run's record and its folder agree)."""
    wait(here)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored for the block (main thread only; elsewhere a no-op). A process started in it
    inherits the ignoring, and Python keeps an ignored SIGINT ignored when it starts."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _kill_workers(executor: Any) -> None:
    """Kill the pool's worker processes at once (SIGKILL: they ignore Ctrl-C, and a second Ctrl-C
    leaves no time to shut the pool down politely)."""
    for pid in list(getattr(executor, "_processes", {})):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _local_result(future: Future[str]) -> str:
    """A finished chunk's path; a worker that died is a one-line error."""
    from joblib.externals.loky.process_executor import BrokenProcessPool

    try:
        return future.result()
    except BrokenProcessPool:  # TerminatedWorkerError and the like
        raise SkatsimError("a worker process died (killed, or out of memory)") from None
