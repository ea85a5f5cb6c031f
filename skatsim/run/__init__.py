"""Runs: games planned in chunks, computed on a backend (local processes or Dask), written as Parquet.

:mod:`.chunks` computes one chunk (typing the engine's rows with :mod:`skatsim.frames`),
:mod:`.runner` owns the output folder, progress, resume and safe stops (every multi-run job,
sweeps and comparisons, runs through it), :mod:`.local_backend` and :mod:`.dask_backend`
are where chunks run, :mod:`.manifest` records what made a run, :mod:`.lock` keeps one
writer per folder, :mod:`.reader` is the check every reader of a run makes, and
:mod:`.storage` reaches local folders and fsspec URLs alike.
"""
