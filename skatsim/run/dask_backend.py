"""The ``dask`` backend: simulation chunks as tasks on a Dask cluster (``--backend dask``).

Why ``dask.distributed`` directly rather than joblib's Dask backend: the
runner only needs "run this function on these chunk specs, tell me as each
finishes", which is ``Client.submit`` plus ``as_completed``. Used directly,

- results come back unordered, as they finish, so the progress bar and the
  manifest follow the cluster, not the slowest early chunk;
- a chunk lost with its worker is recomputed by the scheduler (up to
  ``distributed.scheduler.allowed-failures`` workers, then ``KilledWorker``),
  and a chunk whose function fails is retried (``retries=``) on any worker;
- every chunk is one task with its own key (``skatsim-chunk-<first>-<digest of
  the spec>``): a resubmitted chunk never collides with another run's, and
  the dashboard shows chunks by name.

joblib's Dask backend adds a batching layer that hides these per-task
controls and keeps joblib's ordered-result bookkeeping, for nothing the
runner uses. Workers run :func:`skatsim.run.chunks.run_chunk` and write their
chunk files straight to the run's folder, which must be reachable from every
worker under the same name: a shared path or an fsspec URL (``s3://...``).

Without ``scheduler`` a ``LocalCluster`` with ``jobs`` worker processes (one
thread each) is started on this machine and closed after the run. ``dask``
and ``distributed`` are optional (``pip install 'skatsim[dask]'``) and are
imported only when this backend is used.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, islice
from types import TracebackType
from typing import Any

from ..errors import SkatsimError, first_line
from . import storage
from .chunks import ChunkJob, warm_up

INSTALL_HINT = "pip install 'skatsim[dask]'"
#: Seconds to wait for the scheduler to answer, then for its first worker.
CONNECT_TIMEOUT = 10.0
WORKER_TIMEOUT = 60.0
#: Times a chunk whose function raised is run again (e.g. a passing object-store error).
RETRIES = 2
#: Tasks submitted per worker thread at a time: one running, one waiting, so no worker idles
#: between chunks and the scheduler never holds more than that (memory independent of ``--games``).
IN_FLIGHT_PER_THREAD = 2


def _distributed() -> Any:
    """The ``distributed`` package, or a one-line error saying what to install."""
    try:
        import distributed
    except ImportError:
        raise SkatsimError(f"--backend dask needs the Dask extra: {INSTALL_HINT}") from None
    return distributed


def chunk_key(spec: ChunkJob) -> str:
    """The Dask key of a chunk's task: readable, and unique per (run folder, chunk, settings)."""
    digest = hashlib.sha1(repr(spec).encode(), usedforsecurity=False).hexdigest()[:16]
    return f"skatsim-{storage.basename(spec.path).removesuffix('.parquet')}-{digest}"


def local_cluster(workers: int) -> Any:
    """A ``LocalCluster`` on 127.0.0.1 of ``workers`` single-thread worker processes, tuned for chunks.

    Dask starts workers with ``MALLOC_TRIM_THRESHOLD_=65536`` to hand freed
    memory back to the system; fixing it also turns off glibc's adaptive mmap
    threshold, so every block's fresh 13 MB arrays are new mmapped pages: four
    250,000-game chunks took 5.57 s instead of 5.35 s in one process (4%). A
    chunk's memory is freed whole once it is written, so the variable is dropped.
    """
    import dask

    distributed = _distributed()
    with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
        return distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",  # a free port: None would still try 8787
            silence_logs=logging.CRITICAL,  # failures reach the caller through the tasks
            preload=["skatsim.run.dask_worker"],  # Ctrl-C is the run's to handle, not the workers'
        )


class DaskBackend:
    """Chunks as tasks on a Dask cluster: at ``scheduler`` (``tcp://host:8786``), or a local one.

    A context manager: entering connects to the scheduler (or starts a
    ``LocalCluster`` of ``jobs`` single-thread worker processes), exiting
    closes the client (and that cluster). :attr:`client` is the connection
    while entered.
    """

    def __init__(self, jobs: int, scheduler: str | None = None, connect_timeout: float | None = None) -> None:
        self._dist = _distributed()
        self.jobs = jobs
        self.scheduler = scheduler
        self.connect_timeout = CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
        self.client: Any = None
        self._cluster: Any = None

    def __enter__(self) -> DaskBackend:
        if self.scheduler is None:
            warm_up()  # compile (or load) the kernel once here, so the workers load numba's disk cache
            self._cluster = local_cluster(self.jobs)
            self.client = self._dist.Client(self._cluster, set_as_default=False)
        else:
            self.client = self._connect(self.scheduler)
        return self

    def _connect(self, address: str) -> Any:
        """A client of the scheduler at ``address`` with at least one worker, or a one-line error."""
        try:
            client = self._dist.Client(address, timeout=self.connect_timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            reason = first_line(exc)
            raise SkatsimError(
                f"cannot reach the Dask scheduler at {address} ({reason}); start one with 'dask scheduler' "
                "and workers with 'dask worker ADDRESS', or check --scheduler"
            ) from None
        try:
            client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        except TimeoutError:
            client.close()
            raise SkatsimError(
                f"the Dask scheduler at {address} has no workers after {WORKER_TIMEOUT:g} s; "
                f"start some with 'dask worker {address}'"
            ) from None
        return client

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    def map_unordered(self, fn: Callable[[Any], str], specs: Iterable[ChunkJob]) -> Iterator[str]:
        """Keep a few tasks per worker thread submitted, yield each result as it finishes, submit
        the next spec in its place; cancel what is still submitted on the way out (Ctrl-C, an error).

        Specs are taken from ``specs`` only as tasks finish, so a run of billions of games
        never plans, pickles or tracks more than a few chunks per worker at a time.
        """
        specs = iter(specs)
        if self.client is None:  # used outside ``with``: open a session for this map only
            first = next(specs, None)
            if first is None:
                return
            with self:
                yield from self.map_unordered(fn, chain([first], specs))
            return
        threads = sum(self.client.nthreads().values()) or 1
        outstanding = {self._submit(fn, spec) for spec in islice(specs, IN_FLIGHT_PER_THREAD * threads)}
        if not outstanding:
            return
        queue = self._dist.as_completed(list(outstanding), loop=self.client.loop)
        try:
            for future in queue:
                outstanding.discard(future)
                path = future.result()
                spec = next(specs, None)
                if spec is not None:
                    nxt = self._submit(fn, spec)
                    outstanding.add(nxt)
                    queue.add(nxt)
                yield path
        except self._dist.KilledWorker as exc:
            raise SkatsimError(
                f"chunk task {exc.task} was on {exc.allowed_failures + 1} Dask workers that all died "
                "(killed, or out of memory)"
            ) from None
        finally:
            if outstanding:
                self.client.cancel(list(outstanding))

    def _submit(self, fn: Callable[[Any], str], spec: ChunkJob) -> Any:
        """One chunk as a task with its own key, retried on failure."""
        return self.client.submit(fn, spec, key=chunk_key(spec), retries=RETRIES)
