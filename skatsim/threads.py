"""Compiled work spread over threads of this process: the kernels release the GIL (``nogil``), so
``jobs`` threads, each on its own span of the rows, run on ``jobs`` cores."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np


def in_spans(n: int, jobs: int, part: Callable[[int, int], None], name: str = "skatsim-span") -> None:
    """Call ``part(lo, hi)`` on rows ``0 .. n - 1`` cut into at most ``jobs`` spans of nearly equal length,
    each in a thread of its own (a single span in the caller's thread; none when ``n`` is 0). ``part``
    must write only its own span, so the cut changes no result."""
    cuts = np.linspace(0, n, max(1, min(jobs, n)) + 1).astype(int)
    spans = [(int(lo), int(hi)) for lo, hi in zip(cuts[:-1], cuts[1:], strict=True) if hi > lo]
    if len(spans) <= 1:
        for lo, hi in spans:
            part(lo, hi)
        return
    with ThreadPoolExecutor(len(spans), thread_name_prefix=name) as pool:
        for done in [pool.submit(part, lo, hi) for lo, hi in spans]:
            done.result()
