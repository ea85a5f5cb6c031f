"""Where games come from: run folders, ISS imports and Parquet files, scanned lazily as one table.

:func:`scan` is the entry point of every analysis: it accepts simulated run
folders (``manifest.json`` and chunk files), ISS import folders
(``import.json`` and chunk files), single Parquet files, and folders holding several of
these — a run folder or Parquet file also as an fsspec URL (``s3://...``,
where a Dask run may have written it) — and returns one polars ``LazyFrame``
with a ``source`` column naming where each row came from. Files are checked
at the edge (readable Parquet footer, evaluation columns present) so a bad
file is one clear line naming it, not a traceback in the middle of a report.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import polars as pl

from ..counts import plural
from ..errors import SkatsimError, first_line
from ..records.importer import CHUNK_KEY, IMPORT_MANIFEST, ISS_TABLE, finished_import
from ..run import storage
from ..run.manifest import MANIFEST, RunManifest, parse_chunk_name
from ..run.reader import finished_run
from ..schema import RESULT_COLUMNS

#: Bot name given to the seats of imported ISS games: people played them.
PEOPLE = "people"
#: Columns every source must have (the shared evaluation columns).
REQUIRED = tuple(RESULT_COLUMNS)


@dataclass(frozen=True)
class Source:
    """One place games come from: a simulated run, an ISS import or a single Parquet file."""

    name: str
    path: str
    kind: Literal["run", "iss", "parquet"]
    files: tuple[str, ...]
    manifest: RunManifest | None = None


def _check_parquet(path: str) -> None:
    """Read the file's footer and schema; a corrupt file or missing evaluation column is a one-line error."""
    try:
        schema = storage.parquet_schema(path)
    except storage.UNREADABLE_FOOTER as exc:
        raise SkatsimError(f"{path}: not a readable Parquet file ({first_line(exc)})") from None
    missing = [name for name in REQUIRED if name not in schema]
    if missing:
        raise SkatsimError(f"{path}: not a skatsim game table (no column {', '.join(missing[:3])})")


def _run_source(folder: str) -> Source:
    manifest, files = finished_run(folder)
    return Source(_folder_name(folder), folder, "run", tuple(files), manifest)


def _folder_name(folder: str) -> str:
    """The last part of a folder path or URL (``runs/demo/`` -> ``demo``)."""
    if storage.is_url(folder):
        return storage.basename(folder.rstrip("/"))
    return os.path.basename(os.path.normpath(folder))


def _url_sources(url: str) -> list[Source]:
    """The run at ``url`` (a folder holding ``manifest.json``) or the Parquet file ``url``."""
    try:
        if storage.exists(storage.join(url, MANIFEST)):
            return [_run_source(url)]
        if url.endswith(".parquet") and storage.exists(url):
            return [Source(Path(storage.basename(url)).stem, url, "parquet", (url,))]
    except OSError as exc:
        raise SkatsimError(f"{url}: cannot read ({first_line(exc)})") from None
    raise SkatsimError(f"{url}: no skatsim run here (no {MANIFEST}) and not a .parquet file")


def _folder_sources(folder: str) -> list[Source]:
    """The run or import in ``folder``, else its Parquet files, else the runs in its direct subfolders.

    Chunk files (``chunk-....parquet``) without their manifest are refused (:func:`_refuse_headless`)."""
    if os.path.isfile(os.path.join(folder, MANIFEST)):
        return [_run_source(folder)]
    table = os.path.join(folder, ISS_TABLE)  # an import made before imports were chunked
    if os.path.isfile(table):
        return [Source(_folder_name(folder), folder, "iss", (table,))]
    if os.path.isfile(os.path.join(folder, IMPORT_MANIFEST)):
        return [Source(_folder_name(folder), folder, "iss", tuple(finished_import(folder)[1]))]
    parquet = sorted(e.path for e in os.scandir(folder) if e.is_file() and e.name.endswith(".parquet"))
    chunks = [p for p in parquet if parse_chunk_name(os.path.basename(p))]
    if chunks:
        _refuse_headless(folder, chunks)
    if parquet:
        return [Source(_folder_name(folder), folder, "parquet", tuple(parquet))]
    found = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        inner = entry.path
        if entry.is_dir() and any(
            os.path.isfile(os.path.join(inner, n)) for n in (MANIFEST, IMPORT_MANIFEST, ISS_TABLE)
        ):
            found.extend(_folder_sources(inner))
    return found


def _refuse_headless(folder: str, chunks: Sequence[str]) -> None:
    """Refuse a folder of chunk files whose manifest is gone: a run's (or an import's) rows cannot be
    trusted without it (plan, finish, run id), and ``--resume`` refuses such a folder too."""
    try:
        imported = CHUNK_KEY in storage.parquet_metadata(chunks[0])
    except storage.UNREADABLE_FOOTER:
        imported = False
    what, manifest, command = (
        ("an ISS import", IMPORT_MANIFEST, "import-iss") if imported else ("a skatsim run", MANIFEST, "simulate")
    )
    files = plural(len(chunks), "chunk file")
    raise SkatsimError(
        f"{folder}: looks like {what} whose {manifest} is missing ({files}, no {manifest}); it cannot be read "
        f"and {command} --resume cannot repair it: run the {command} command again into an empty folder"
    )


def find_sources(paths: Sequence[str | os.PathLike[str]]) -> list[Source]:
    """Resolve run folders, ISS import folders, folders of those, and Parquet files into checked sources.

    Raises :class:`SkatsimError` for a path that does not exist, a folder
    holding no run, an unfinished run, chunk files whose run's (or import's)
    manifest is missing, or a file that is not a readable game table. Names
    are the folder (or file) names, made unique with ``#2``...
    """
    if not paths:
        raise SkatsimError("no run given: name at least one run folder, ISS import folder or Parquet file")
    sources: list[Source] = []
    for raw in paths:
        path = os.fspath(raw)
        if storage.is_url(path):
            sources.extend(_url_sources(path))
        elif os.path.isdir(path):
            found = _folder_sources(path)
            if not found:
                raise SkatsimError(
                    f"{path}: no skatsim run here (no {MANIFEST}, no {ISS_TABLE}, no run folder inside); "
                    "make one with: skatsim simulate variants/official.yaml --games 100000 --out DIR"
                )
            sources.extend(found)
        elif os.path.isfile(path) and path.endswith(".parquet"):
            sources.append(Source(Path(path).stem, path, "parquet", (path,)))
        elif os.path.exists(path):
            raise SkatsimError(f"{path}: not a run folder, an ISS import folder or a .parquet file")
        else:
            raise SkatsimError(f"{path}: no such file or folder")
    for source in sources:
        for file in source.files:
            _check_parquet(file)
    return _unique_names(sources)


def _unique_names(sources: list[Source]) -> list[Source]:
    seen: dict[str, int] = {}
    out = []
    for source in sources:
        seen[source.name] = seen.get(source.name, 0) + 1
        name = source.name if seen[source.name] == 1 else f"{source.name}#{seen[source.name]}"
        out.append(Source(name, source.path, source.kind, source.files, source.manifest))
    return out


def scan_source(source: Source, names: Sequence[str]) -> pl.LazyFrame:
    """One source's rows with ``source`` (an Enum over ``names``), and ``game_id`` and bot columns filled in.

    ISS imports have no ``game_id`` (their row number is used) and no bots
    (their seats get the bot name ``people``), so bots and people go through
    the same code.
    """
    lf = storage.scan_parquet(source.files)
    schema = lf.collect_schema()
    extra = [pl.lit(source.name, pl.Enum(list(names))).alias("source")]
    if "game_id" not in schema:
        lf = lf.with_row_index("game_id").with_columns(pl.col("game_id").cast(pl.Int64))
    for seat in ("fh", "mh", "rh"):
        if f"bot_{seat}" not in schema:
            extra.append(pl.lit(PEOPLE, pl.String).alias(f"bot_{seat}"))
    return lf.with_columns(extra)


def scan_games(source: Source, names: Sequence[str], first: int, last: int) -> pl.LazyFrame:
    """Games ``first .. last`` of ``source`` (by ``game_id``), with the columns of :func:`scan_source`.

    A run's chunk files carry no min/max statistics to skip the others by
    (``skatsim.run.chunks.STATISTICS``): their names give the games each holds, so
    only the files holding some of these games are read. An ISS import numbers its
    games by row across all its files, and other Parquet files may hold any game:
    those are read whole.
    """
    files = source.files
    if source.kind == "run":
        files = tuple(f for f in files if _holds(f, first, last)) or files[:1]
    lf = scan_source(replace(source, files=files), names)
    return lf.filter(pl.col("game_id").is_between(first, last))


def _holds(path: str, first: int, last: int) -> bool:
    """Whether the file at ``path`` may hold a game of ``first .. last`` (any file not named as a chunk may)."""
    span = parse_chunk_name(storage.basename(path))
    return span is None or (span[0] <= last and first < span[0] + span[1])


def scan_sources(sources: Sequence[Source]) -> pl.LazyFrame:
    """All rows of ``sources`` as one lazy frame; a column missing from a source is null there."""
    names = [s.name for s in sources]
    frames = [scan_source(s, names) for s in sources]
    return frames[0] if len(frames) == 1 else pl.concat(frames, how="diagonal_relaxed")


def scan(paths: Sequence[str | os.PathLike[str]] | str | os.PathLike[str]) -> pl.LazyFrame:
    """Every game of the given run folders, ISS imports or Parquet files, with a ``source`` column.

    ``source`` is an Enum in the order the paths were given, so tables sort
    sources the way the user listed them.
    """
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    return scan_sources(find_sources(paths))


class UnreadableGames(SkatsimError):
    """A file's data could not be read while games were collected (its footer read at the edge, a page
    inside it not); :func:`naming_damaged` finds and names the file."""


def collect(lf: pl.LazyFrame) -> pl.DataFrame:
    """``lf.collect()``, with a damaged file deep inside a Parquet turned into a one-line error."""
    try:
        return lf.collect()
    except storage.UNREADABLE as exc:
        raise UnreadableGames(f"cannot read the games: {first_line(exc)}") from None


@contextmanager
def naming_damaged(sources: Sequence[Source]) -> Iterator[None]:
    """Name the damaged file when reading the games of ``sources`` fails inside a file (polars' error says
    what, not which file): each file is read in turn, on that failure only, and the first that cannot be
    read is named, with how to redo it."""
    try:
        yield
    except UnreadableGames:
        for source in sources:
            for file in source.files:
                try:
                    storage.read_parquet(file)
                except storage.UNREADABLE as exc:
                    fix = {
                        "run": "remove it and complete the run with --resume",
                        "iss": "remove it and run the import again with --resume",
                    }.get(source.kind, "replace the file")
                    raise SkatsimError(
                        f"{file}: damaged Parquet file, its games cannot be read ({first_line(exc, 160)}); {fix}"
                    ) from None
        raise


def columns(lf: pl.LazyFrame) -> set[str]:
    """Names of the columns of ``lf`` (a variant-specific statistic runs only when its columns exist)."""
    return set(lf.collect_schema().names())


def source_columns(sources: Sequence[Source]) -> dict[str, set[str]]:
    """Each source's own columns (a house-rule statistic is shown for the sources that have its column)."""
    names = [s.name for s in sources]
    return {s.name: columns(scan_source(s, names)) for s in sources}
