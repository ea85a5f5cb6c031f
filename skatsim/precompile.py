"""Compile the simulation's kernels into numba's disk cache, ahead of the first run.

``pip install`` runs this module while it builds the package (``setup.py``), so a fresh install's
first ``skatsim simulate`` loads machine code instead of compiling it for a minute; every run calls
:func:`compile_simulation` too, in the parent process before workers start, so they load the cache
rather than each compiling at once. It imports the kernels, the bots and the variant model only
(numpy, numba, pydantic, pyyaml: what the build needs), never polars or the command line.
"""

from __future__ import annotations

import numba
import numpy as np

from .bots import COMPILE_BOTS, bot_arrays
from .engine.block import simulate_block
from .engine.columns import KIND_DTYPES, discard_pairs, narrow
from .engine.layout import COL_SKAT_DISCARD, LOG_WIDTH, N_COLUMNS
from .records.record import GameRecord, records_as_json, replay_rows
from .variant import official_params


def compile_simulation() -> str:
    """Compile (or load from numba's disk cache) every kernel a simulation and its game records call:
    the block of games, whatever the variant (the rules are a parameter vector) and the bots (but the
    searching ``pimc``, whose solver compiles at its first use), the narrowing of its rows into typed
    columns, and the records of ``--record-play``. Returns a simulated game's record (JSON)."""
    params = official_params()
    kinds, bot_params = bot_arrays(COMPILE_BOTS, params)
    rows = np.zeros((1, N_COLUMNS), dtype=np.int64)
    logs = np.zeros((1, LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(0), 0, kinds, bot_params, params, rows, logs)
    narrow(rows, tuple(np.zeros(1, dtype=np.int64) for _ in KIND_DTYPES))
    discard_pairs(rows[:, COL_SKAT_DISCARD])
    return records_as_json(rows, logs)[0]


def compile_ahead() -> None:
    """What ``pip install`` compiles: :func:`compile_simulation`, and a game record's replay, which every
    command reading records runs (replay, whatif, solve, import-iss, export-iss). A run loads only the
    first (its start pays for what it calls)."""
    replay_rows([GameRecord.from_json(compile_simulation())], official_params())


if __name__ == "__main__":
    compile_ahead()
    # where the kernels went, the cache skatsim set at import (setup.py ships this code's only); numba
    # declares its settings at run time, so a type checker does not know them
    print(numba.config.CACHE_DIR)  # type: ignore[attr-defined]
