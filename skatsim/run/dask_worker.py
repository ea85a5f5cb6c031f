"""Set-up of the worker processes of the ``LocalCluster`` the ``dask`` backend starts (a Dask preload).

Ctrl-C in a terminal reaches the whole process group, the local cluster's worker processes too. Only
the run decides what a Ctrl-C does (it cancels the chunks still running and keeps those written), so
its workers ignore it, as the local backend's worker processes do: otherwise each printed a
``KeyboardInterrupt`` traceback, from its event loop or from the polars query its chunk was running.
Workers a user starts (``dask worker ADDRESS``) are theirs and keep Dask's own handling.
"""

from __future__ import annotations

import threading
from typing import Any

from .chunks import leave_interrupts_to_the_run  # imports polars, whose import would undo the ignoring


def dask_setup(worker: Any) -> None:
    """Dask's preload hook: ignore SIGINT in this worker process (its main thread runs the worker)."""
    if threading.current_thread() is threading.main_thread():
        leave_interrupts_to_the_run()
