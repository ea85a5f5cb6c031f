"""Runs: games planned in chunks, computed on a backend (local processes or Dask), written as Parquet.

:mod:`.chunks` computes one chunk, :mod:`.tables` types the engine's rows into frames,
:mod:`.runner` owns the output folder, progress and resume, :mod:`.manifest` records what
made a run, :mod:`.storage` reaches local folders and fsspec URLs alike.
"""
