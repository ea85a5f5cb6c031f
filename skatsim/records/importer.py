"""``import-iss``: an ISS file of any size into chunked Parquet, in parallel, resumable.

An import folder holds::

    import.json                              what made it, how far it got, and (finished) what it found
    run.lock                                 while a writer works on it (:mod:`skatsim.run.lock`)
    chunk-000000000000-10000.parquet         the games on lines 1 .. 10,000 (as a table: docs/schema.md)
    chunk-000000010000-10000.parquet         ...

One reader streams the source (plain, ``.bz2``, ``.gz`` or ``.xz``: :mod:`skatsim.records.issfile`)
and cuts it into chunks of whole lines; each chunk is a picklable spec (:class:`IssChunk`, its
lines' bytes inside) run on the runner's backend (:class:`skatsim.run.local_backend.LocalBackend`:
``jobs`` jobs, threads of this process up to four and worker processes beyond, one chunk in
flight per thread and two per worker, so memory stays bounded whatever the file's size) by
:func:`import_chunk`, which parses, replays and types the lines
(:func:`skatsim.records.issbatch.import_lines`) and writes the chunk's table atomically, with the
run id and the chunk's counts (lines, blank, games, lines skipped by reason with the first few
messages) in its Parquet metadata. A chunk file is therefore complete or absent and carries its
own account, so an import stopped at any moment (Ctrl-C, kill -9, a full disk) keeps every chunk
written and ``resume`` completes it: the source must have the size and SHA-256 recorded, the
chunk files present are checked, and only the missing chunks are computed.

Game IDs: within a chunk the first line of an ID is kept, later ones are skipped as duplicates
(naming the first); across chunks, once all are written, the same check runs over every chunk's
``iss_id`` column and removes later duplicates from their chunk files (rewritten atomically, their
counts updated), so the table holds each ID once, from its first line, whatever the chunking.
Only a line that is a game by itself (it parses and replays) takes part: a broken line with a
known ID is skipped for what is wrong with it.

When every chunk is done, ``import.json`` records the totals: lines read, blank lines, games
imported, lines skipped, and for each reason how many and the first :data:`FIRST_LINES` lines
with their messages.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
import polars as pl
from pydantic import BaseModel, ValidationError
from rich.progress import DownloadColumn, Progress

from .. import __version__
from ..counts import plural
from ..errors import SkatsimError, first_line
from ..run import storage
from ..run.chunks import MAX_CHUNK, SEARCHING_CHUNK, write_parquet_atomic
from ..run.local_backend import LocalBackend
from ..run.lock import LOCK, RunLock, read_lock, unreadable_lock
from ..run.manifest import (
    RUN_ID_KEY,
    DoneChunks,
    JobManifest,
    OpenHand,
    chunk_name,
    made_with,
    open_hand_mode,
    parse_chunk_name,
    timestamp,
)
from ..run.runner import FIRST_USE, RunStopped, catch_interrupts, stderr_progress
from .iss import IssGame, parse_line
from .issbatch import DUPLICATE, FIRST_LINES, Imported, Reason, import_lines, iss_table_schema
from .issfile import Chunk, LineChunker, Source, file_digest, read_error, source_format
from .record import GameRecord

#: The import's manifest in its folder.
IMPORT_MANIFEST = "import.json"
IMPORT_FORMAT = "skatsim-iss-import"
IMPORT_FORMAT_VERSION = 3
#: The single table of imports made before imports were chunked (still read).
ISS_TABLE = "iss_games.parquet"
#: Parquet metadata key of a chunk file's own account (:class:`ChunkCounts`, as JSON).
CHUNK_KEY = "skatsim_iss_chunk"
#: Lines per chunk by default: ~5 MB of an ISS file in a worker at a time, ~0.1 s of work.
DEFAULT_CHUNK_LINES = 10_000
#: A chunk also ends at the first line end past this many bytes (bounds a worker's memory).
CHUNK_BYTES = 1 << 26
#: Seconds between manifest rewrites while chunks finish (the chunk files are the truth).
MANIFEST_INTERVAL = 1.0


#: What reading a damaged chunk file's footer and its counts raises (a key missing: ``KeyError``).
_BAD_CHUNK: tuple[type[BaseException], ...] = (*storage.UNREADABLE_FOOTER, KeyError)


def default_chunk_lines(open_hand: str) -> int:
    """Lines per chunk when ``--chunk-size`` is not given: :data:`DEFAULT_CHUNK_LINES`, or with
    ``--open-hand`` the few seconds' work of a run's chunk that searches
    (:data:`~skatsim.run.chunks.SEARCHING_CHUNK`), so the progress bar moves."""
    return min(DEFAULT_CHUNK_LINES, SEARCHING_CHUNK[open_hand]) if open_hand else DEFAULT_CHUNK_LINES


# --------------------------------------------------------------------------- manifest and chunk counts


class ReasonLines(BaseModel):
    """Lines skipped for one reason: how many, and the first few with their messages."""

    reason: str
    count: int
    lines: list[tuple[int, str]]


class ImportManifest(JobManifest):
    """``import.json``: what made the import, how far it got, and once finished what it found."""

    format: Literal["skatsim-iss-import"]
    #: 2: ``skat_discard`` as plain strings (read, not resumed); 3: as an enum
    format_version: Literal[2, 3]
    source: str
    source_format: str
    source_bytes: int
    source_sha256: str
    chunk_lines: int
    chunk_bytes: int
    strict: bool
    #: Each declared game solved open-handed (``--open-hand``: ``open_hand_points``, ``open_hand_won``):
    #: ``points`` or ``won`` (:data:`~skatsim.run.manifest.OPEN_HAND_MODES`), "" without.
    open_hand: OpenHand = ""
    #: Known once the reader has reached the end of the source.
    chunks_total: int | None = None
    #: The end of the readable data, when the source is damaged or cut off (what follows cannot be read).
    source_error: str | None = None
    lines_read: int | None = None
    blank_lines: int | None = None
    games_imported: int | None = None
    lines_skipped: int | None = None
    skipped_by_reason: list[ReasonLines] = []


@dataclass
class ChunkCounts:
    """A chunk file's own account, kept in its Parquet metadata (:data:`CHUNK_KEY`)."""

    index: int
    first: int
    count: int
    blank: int
    imported: int
    skipped: dict[str, Reason] = field(default_factory=dict)

    def to_json(self) -> str:
        """As stored in the chunk file."""
        reasons = [{"reason": r, "count": c.count, "lines": c.first} for r, c in self.skipped.items()]
        data = {k: getattr(self, k) for k in ("index", "first", "count", "blank", "imported")}
        return json.dumps(data | {"skipped": reasons})

    @classmethod
    def from_json(cls, text: str) -> ChunkCounts:
        """Inverse of :meth:`to_json`."""
        data = json.loads(text)
        skipped = {
            r["reason"]: Reason(int(r["count"]), [(int(n), str(m)) for n, m in r["lines"]]) for r in data["skipped"]
        }
        index, first, count, blank, imported = (int(data[k]) for k in ("index", "first", "count", "blank", "imported"))
        return cls(index, first, count, blank, imported, skipped)

    @property
    def skipped_lines(self) -> int:
        """Lines skipped, all reasons together."""
        return sum(r.count for r in self.skipped.values())


def read_import_manifest(folder: str) -> ImportManifest | None:
    """The import's manifest in ``folder``, or None when there is none; any other ``import.json`` is an error."""
    path = storage.join(folder, IMPORT_MANIFEST)
    try:
        raw = storage.read_bytes(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SkatsimError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except ValueError:
        data = None
    if isinstance(data, dict) and data.get("format") == IMPORT_FORMAT and data.get("format_version") == 1:
        raise SkatsimError(
            f"{path}: an import made by an older skatsim (one table); import the file again into a new folder"
        )
    try:
        return ImportManifest.model_validate(data)
    except ValidationError:
        raise SkatsimError(f"{path}: not a skatsim ISS import manifest") from None


def _write_manifest(folder: str, manifest: ImportManifest) -> None:
    data = (manifest.model_dump_json(indent=2) + "\n").encode("utf-8")
    try:
        storage.write_atomic(storage.join(folder, IMPORT_MANIFEST), lambda f: f.write(data))
    except OSError as exc:
        raise SkatsimError(f"{folder}: cannot write {IMPORT_MANIFEST} ({exc.strerror or exc})") from None


# --------------------------------------------------------------------------- chunks


@dataclass(frozen=True)
class IssChunk:
    """Everything a worker needs to import one chunk: the chunk's lines (:class:`~.issfile.Chunk`),
    where its file goes and the import's run id. Picklable, and its table a pure function of it."""

    chunk: Chunk
    out_dir: str
    run_id: str
    open_hand: str = ""

    @property
    def count(self) -> int:
        """Lines in the chunk."""
        return self.chunk.count

    @property
    def path(self) -> str:
        """Where the chunk's Parquet file goes."""
        return storage.join(self.out_dir, chunk_name(self.chunk.first, self.chunk.count))

    def imported(self) -> Imported:
        """The chunk's games and skipped lines."""
        c = self.chunk
        return import_lines(c.data, c.first, c.count, c.too_long, self.open_hand)

    def compute(self) -> pl.DataFrame:
        """The chunk's table (:class:`skatsim.run.chunks.ChunkJob`)."""
        return self.imported().frame


def import_chunk(spec: IssChunk) -> str:
    """Import one chunk and write its file atomically, with the run id and its counts; returns the path.

    Top level, so process pools can pickle it; running it twice writes the same file.
    """
    imported = spec.imported()
    c = spec.chunk
    counts = ChunkCounts(c.index, c.first, c.count, imported.blank, imported.frame.height, imported.skipped)
    write_parquet_atomic(imported.frame, spec.path, spec.run_id, {CHUNK_KEY: counts.to_json()})
    return spec.path


def _chunk_counts(path: str, open_hand: str, run_id: str | None = None) -> ChunkCounts:
    """A chunk file's counts from its footer, after checking it belongs to the import ``run_id``
    and holds the table's columns (with the open-hand ones when ``open_hand`` names some) and as many rows as
    it says; a bad file is a one-line error."""
    fix = "remove that file and run the import again with --resume"
    try:
        meta = storage.parquet_metadata(path)
        schema = storage.parquet_schema(path)
        rows = pl.scan_parquet(path).select(pl.len()).collect().item()
        counts = ChunkCounts.from_json(meta[CHUNK_KEY])
    except _BAD_CHUNK as exc:
        reason = first_line(exc, 160)
        raise SkatsimError(f"{path}: not a chunk file of this import ({reason}); {fix}") from None
    if run_id is not None and meta.get(RUN_ID_KEY) != run_id:
        raise SkatsimError(f"{path}: chunk file of another import (run id {meta.get(RUN_ID_KEY)}); {fix}")
    if schema != iss_table_schema(bool(open_hand)) or rows != counts.imported:
        raise SkatsimError(f"{path}: chunk file with other columns or rows than it says; {fix}")
    if parse_chunk_name(storage.basename(path)) != (counts.first, counts.count):
        raise SkatsimError(f"{path}: chunk file named for other lines than it holds; {fix}")
    return counts


def _chunk_files(folder: str) -> list[str]:
    """The chunk files in ``folder``, in line order."""
    names = sorted(n for n in storage.listdir(folder) if parse_chunk_name(n) is not None)
    return [storage.join(folder, n) for n in names]


# --------------------------------------------------------------------------- the import


@dataclass
class ImportSummary:
    """What an import did: lines read, games imported, lines skipped by reason (the first few listed)."""

    source: Path
    out_dir: str = ""
    lines_read: int = 0
    blank: int = 0
    imported: int = 0
    #: ``(line, message)`` of the lines listed: the first :data:`FIRST_LINES` of each reason, by line.
    skipped: list[tuple[int, str]] = field(default_factory=list)
    #: Every reason with how many lines it skipped.
    reasons: dict[str, int] = field(default_factory=dict)
    source_error: str | None = None
    lines_before: int = 0
    seconds: float = 0.0

    @property
    def skipped_count(self) -> int:
        """Lines skipped, all reasons together."""
        return sum(self.reasons.values())

    def unlisted(self) -> list[tuple[str, int]]:
        """``(reason, lines)`` of the lines skipped but not listed in :attr:`skipped`."""
        listed: dict[str, int] = {}
        for reason, count in self.reasons.items():
            listed[reason] = count - min(count, FIRST_LINES)
        return [(r, n) for r, n in listed.items() if n]

    def line(self) -> str:
        """One-line summary for the user."""
        blank = f" ({self.blank:,} blank)" if self.blank else ""
        where = f" -> {self.out_dir}" if self.out_dir else ""
        return (
            f"{self.source}: {plural(self.lines_read, 'line')} read{blank}, {plural(self.imported, 'game')} imported, "
            f"{self.skipped_count:,} skipped{where}"
        )


class ImportStopped(RunStopped):
    """An import stopped before its end (Ctrl-C, a full disk, a dead worker); every chunk written is kept."""

    def __init__(self, reason: str, interrupted: bool, lines: int, where: str) -> None:
        super().__init__(reason, interrupted, lines, 0, where)

    def progress(self) -> str:
        """Why it stopped and what is kept, without the way to continue."""
        return f"{self.reason}; the chunks done ({plural(self.kept, 'line')}) are kept in {self.where}"


def check_import_options(jobs: int, chunk_lines: int | None) -> None:
    """The numbers an import takes, checked at the edge."""
    if jobs < 1:
        raise SkatsimError(f"--jobs must be at least 1, got {jobs}")
    if chunk_lines is not None and not 1 <= chunk_lines <= MAX_CHUNK:
        raise SkatsimError(f"--chunk-size must be between 1 and {MAX_CHUNK:,}, got {chunk_lines}")


def import_iss(
    path: str | Path,
    out_dir: str | Path,
    strict: bool = False,
    force: bool = False,
    resume: bool = False,
    jobs: int = 1,
    chunk_lines: int | None = None,
    progress: bool = False,
    open_hand: bool | str = False,
) -> ImportSummary:
    """Import the ISS records in ``path`` (plain, ``.bz2``, ``.gz`` or ``.xz``) into the folder ``out_dir``.

    Lines that are no game are skipped and counted by reason. ``strict``: the first such line
    (in file order) stops the import with :class:`SkatsimError` and nothing is written. ``force``
    replaces an import already in ``out_dir``; ``resume`` completes a stopped one (same source,
    same settings). ``jobs`` jobs (threads of this process) parse and replay while this thread reads.
    ``open_hand`` adds each declared game's open-hand value (the solver): ``"points"`` (or True) the exact
    card points and won (about 170 games a second per job), ``"won"`` won alone (about 900).
    Raises :class:`SkatsimError` for a source or folder that cannot be used, when no game could
    be imported, and :class:`ImportStopped` when stopped midway.
    """
    start = time.perf_counter()
    source, out = Path(path), str(out_dir)
    check_import_options(jobs, chunk_lines)
    if force and resume:
        raise SkatsimError("--force replaces the import in --out and --resume completes it: pass one of them")
    if source.is_dir():
        raise SkatsimError(f"{source}: is a folder, not an ISS file")
    kind = source_format(source)
    created = not os.path.exists(out)
    _make_folder(out)
    lock = RunLock(out, "import").acquire()
    try:
        manifest = _open_import(out, source, kind, strict, force, resume, chunk_lines, open_hand_mode(open_hand))
        before = _lines_in(out, manifest)
        manifest = _run_chunks(source, out, manifest, jobs, progress)
        summary = _finish(out, manifest, strict, created)
    finally:
        lock.release()
    summary.lines_before = before
    summary.seconds = time.perf_counter() - start
    return summary


def _make_folder(out: str) -> None:
    if os.path.exists(out) and not os.path.isdir(out):
        raise SkatsimError(f"--out {out}: exists and is not a folder")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise SkatsimError(f"--out {out}: cannot create the folder ({exc.strerror or exc})") from None


def _ours(name: str) -> bool:
    """Whether a file in an import folder is one an import writes."""
    return name in (IMPORT_MANIFEST, ISS_TABLE, LOCK) or storage.is_temp_name(name) or bool(parse_chunk_name(name))


def _open_import(
    out: str,
    source: Path,
    kind: str,
    strict: bool,
    force: bool,
    resume: bool,
    chunk_lines: int | None,
    open_hand: str,
) -> ImportManifest:
    """The manifest to work with (the folder locked): a fresh import's, or the one being resumed."""
    entries = [e for e in os.listdir(out) if e != LOCK]
    if force:
        if not all(_ours(e) for e in entries):
            raise SkatsimError(f"{out}: holds other files than an ISS import; --force replaces an import only")
        for entry in entries:
            storage.remove_quietly(os.path.join(out, entry))
        entries = []
    old = read_import_manifest(out) if entries else None
    if entries and old is None:
        raise SkatsimError(f"{out}: folder is not empty and holds no ISS import; choose another --out")
    if old is not None and not resume and old.finished:
        raise SkatsimError(
            f"{out}: already holds a finished ISS import ({old.games_imported or 0:,} games); choose another --out "
            "or pass --force to replace it (--resume only checks it)"
        )
    if old is not None and not resume:
        raise SkatsimError(
            f"{out}: already holds an unfinished ISS import; pass --resume to complete it or --force to replace it"
        )
    size, sha256 = file_digest(source)
    if old is not None:
        _check_same_import(old, out, source, size, sha256, strict, chunk_lines, open_hand)
        return old.model_copy(update={"finished": None, "updated": timestamp()})
    manifest = ImportManifest.started(
        format=IMPORT_FORMAT,
        format_version=IMPORT_FORMAT_VERSION,
        run_id=uuid.uuid4().hex,
        source=str(source),
        source_format=kind,
        source_bytes=size,
        source_sha256=sha256,
        chunk_lines=chunk_lines or default_chunk_lines(open_hand),
        chunk_bytes=CHUNK_BYTES,
        strict=strict,
        open_hand=open_hand,
    )
    _write_manifest(out, manifest)
    return manifest


def _check_same_import(
    old: ImportManifest,
    out: str,
    source: Path,
    size: int,
    sha256: str,
    strict: bool,
    chunk_lines: int | None,
    open_hand: str,
) -> None:
    """Refuse to resume from another source or with settings that would change the chunks."""
    fix = "import it into another folder, or pass --force to start again"
    if (old.source_bytes, old.source_sha256) != (size, sha256):
        raise SkatsimError(
            f"{out}: cannot resume: {source} is not the file imported there ({old.source}, {old.source_bytes:,} "
            f"bytes, SHA-256 {old.source_sha256[:12]}...); {fix}"
        )
    if chunk_lines is not None and chunk_lines != old.chunk_lines:
        raise SkatsimError(
            f"{out}: cannot resume with --chunk-size {chunk_lines}: the import uses {old.chunk_lines} (omit it)"
        )
    for option, recorded, asked in (("--strict", old.strict, strict), ("--open-hand", old.open_hand, open_hand)):
        if asked != recorded:
            made = made_with(option, recorded)
            raise SkatsimError(f"{out}: cannot resume: the import was made {made}; resume it {made}")
    if old.skatsim_version != __version__:
        raise SkatsimError(
            f"{out}: cannot resume: the import was made by skatsim {old.skatsim_version}, this is {__version__}; {fix}"
        )
    if old.format_version != IMPORT_FORMAT_VERSION:
        raise SkatsimError(
            f"{out}: cannot resume: the import is of format {old.format_version} (an older skatsim's column types), "
            f"this version writes format {IMPORT_FORMAT_VERSION}; {fix}"
        )


def _lines_in(out: str, manifest: ImportManifest) -> int:
    """Lines in the chunk files already in ``out`` (checked; stray temporary files removed)."""
    lines = 0
    for name in os.listdir(out):
        if storage.is_temp_name(name):
            storage.remove_quietly(os.path.join(out, name))
    for path in _chunk_files(out):
        lines += _chunk_counts(path, manifest.open_hand, manifest.run_id).count
    return lines


# --------------------------------------------------------------------------- reading and running chunks


@dataclass
class _Reader:
    """The one reader: streams the source, cuts it into chunks, skips the chunks already done.

    ``position`` is how many bytes of the source (as stored) it has read, for progress;
    ``chunks`` how many chunks it has cut, ``ended`` whether it reached the end (or could read
    no further: ``error``).
    """

    source: Path
    manifest: ImportManifest
    out_abs: str
    done: set[str]
    index: dict[str, int] = field(default_factory=dict)
    position: int = 0
    chunks: int = 0
    error: str | None = None
    ended: bool = False

    def specs(self) -> Iterator[IssChunk]:
        """The chunks not done yet, in line order, made as the backend asks for them."""
        chunker = LineChunker(self.manifest.chunk_lines, self.manifest.chunk_bytes)
        with Source(self.source) as source:
            while not self.ended:
                block, damage = source.read_block()
                self.position = source.position()
                pieces = list(chunker.feed(block))
                if damage is not None:  # damaged or cut-off compressed data: what came before is read
                    self.error = str(read_error(self.source, damage, chunker.lines_done + chunker.lines_pending))
                if damage is not None or not block:
                    pieces += chunker.finish()
                    self.ended = True
                for chunk in pieces:
                    name = chunk_name(chunk.first, chunk.count)
                    self.index[name] = chunk.index
                    self.chunks = chunk.index + 1
                    if name not in self.done:
                        yield IssChunk(chunk, self.out_abs, self.manifest.run_id, self.manifest.open_hand)


def _run_chunks(source: Path, out: str, manifest: ImportManifest, jobs: int, show: bool) -> ImportManifest:
    """Import every chunk not done yet on ``jobs`` jobs (threads of this process, beyond four worker
    processes: :mod:`skatsim.run.local_backend`) while this thread reads the source, recording the
    chunks done in ``import.json``; returns the manifest as recorded."""
    done = {storage.basename(p) for p in _chunk_files(out)}
    if manifest.chunks_total is not None and len(done) == manifest.chunks_total:
        return manifest
    reader = _Reader(source, manifest, storage.absolute(out), done)
    indices = DoneChunks()
    backend = LocalBackend(jobs, caller_busy=True)  # this thread reads and unpacks the source
    results = backend.map_unordered(import_chunk, reader.specs())
    stopped: tuple[str, bool] | None = None
    last_write = time.monotonic()
    with catch_interrupts() as interrupts, _progress(show) as bar:
        # the jobs compile the parser and the replay at their first use: say so until a chunk is in
        task = bar.add_task(f"importing {FIRST_USE}", total=manifest.source_bytes)
        try:
            for path in results:
                indices.add(reader.index[storage.basename(path)])
                bar.update(task, completed=reader.position, description="importing")
                if time.monotonic() - last_write >= MANIFEST_INTERVAL:
                    _write_manifest(out, manifest.progressed(indices))
                    last_write = time.monotonic()
        except KeyboardInterrupt:
            stopped = ("interrupted", True)
        except SkatsimError as exc:  # a full disk, a dead worker, a chunk that cannot be written
            stopped = ("interrupted", True) if interrupts.count else (str(exc), False)
        finally:
            close = getattr(results, "close", None)
            if close is not None:  # a generator stopped early stops its jobs now
                close()
            backend.shut_down()  # the last pass runs here alone: the jobs' memory back
    for path in _chunk_files(out):  # every chunk written, also those whose results never arrived
        name = storage.basename(path)
        indices.add(reader.index[name] if name in reader.index else _chunk_counts(path, manifest.open_hand).index)
    ended: dict[str, object] = {"chunks_total": reader.chunks, "source_error": reader.error} if reader.ended else {}
    manifest = manifest.progressed(indices, **ended)
    _write_manifest(out, manifest)
    if stopped is not None:
        lines = sum(_chunk_counts(p, manifest.open_hand).count for p in _chunk_files(out))
        raise ImportStopped(stopped[0], stopped[1], lines, out)
    return manifest


def _progress(show: bool) -> Progress:
    """A progress bar over the source's bytes, on stderr, shown only when stderr is a terminal."""
    return stderr_progress(show, DownloadColumn())


# --------------------------------------------------------------------------- finishing


def _finish(out: str, manifest: ImportManifest, strict: bool, created: bool) -> ImportSummary:
    """Once every chunk is written: remove game IDs repeated across chunks, total the counts,
    record them in ``import.json``. Strict, or nothing imported: remove everything, raise."""
    files = _chunk_files(out)
    counts = [_chunk_counts(p, manifest.open_hand, manifest.run_id) for p in files]
    _check_tiling(out, counts, manifest)
    _remove_repeated_ids(files, counts, manifest.run_id)
    reasons: dict[str, Reason] = {}
    for c in counts:
        for reason, lines in c.skipped.items():
            reasons.setdefault(reason, Reason()).merge(lines)
    summary = ImportSummary(
        source=Path(manifest.source),
        out_dir=out,
        lines_read=sum(c.count for c in counts),
        blank=sum(c.blank for c in counts),
        imported=sum(c.imported for c in counts),
        skipped=sorted(line for r in reasons.values() for line in r.first),
        reasons={r: c.count for r, c in reasons.items()},
        source_error=manifest.source_error,
    )
    if strict and summary.skipped:
        _discard(out, created)
        number, message = summary.skipped[0]
        raise SkatsimError(f"{manifest.source}:{number}: {message} (--strict: stopped, nothing written)")
    if summary.imported == 0:
        _discard(out, created)
        if manifest.source_error and not summary.lines_read:  # damaged before its first line: that is all there is
            raise SkatsimError(f"{manifest.source_error}; nothing imported")
        end = f"; {manifest.source_error}" if manifest.source_error else ""
        raise SkatsimError(
            f"{manifest.source}: no game imported "
            f"({plural(summary.lines_read, 'line')} read, {summary.skipped_count:,} bad){end}"
        )
    now = timestamp()
    finished = manifest.model_copy(
        update={
            "updated": now,
            "finished": now,
            "chunks_done": [(0, len(files))],
            "lines_read": summary.lines_read,
            "blank_lines": summary.blank,
            "games_imported": summary.imported,
            "lines_skipped": summary.skipped_count,
            "skipped_by_reason": [ReasonLines(reason=r, count=c.count, lines=c.first) for r, c in reasons.items()],
        }
    )
    _write_manifest(out, finished)
    return summary


def _check_tiling(out: str, counts: list[ChunkCounts], manifest: ImportManifest) -> None:
    """The chunk files cover the source's lines once each, as the reader cut them."""
    at = 0
    for k, c in enumerate(counts):
        if c.first != at or c.index != k:
            raise SkatsimError(
                f"{out}: chunk files do not cover the source's lines once each (at line {at + 1}); "
                "run the import again with --force"
            )
        at += c.count
    if manifest.chunks_total is not None and len(counts) != manifest.chunks_total:
        raise SkatsimError(f"{out}: {len(counts)} chunk files, the source has {manifest.chunks_total} chunks")


def _remove_repeated_ids(files: list[str], counts: list[ChunkCounts], run_id: str) -> None:
    """Keep each game ID's first line across chunks: later lines are removed from their chunk
    files (rewritten atomically) and counted as :data:`DUPLICATE`. Reads the ``iss_id`` column
    alone (8 bytes a game, sorted once), so memory stays small for millions of games."""
    if len(files) < 2:
        return  # within a chunk, its own import kept each ID once
    ids = np.sort(np.concatenate([pl.read_parquet(path, columns=["iss_id"])["iss_id"].to_numpy() for path in files]))
    repeated = np.unique(ids[1:][ids[1:] == ids[:-1]])
    del ids
    if repeated.size == 0:
        return
    scan = pl.scan_parquet(files).filter(pl.col("iss_id").is_in(pl.Series(repeated).implode()))
    lines = scan.select("iss_id", "iss_line").collect()
    lines = lines.with_columns(pl.col("iss_line").min().over("iss_id").alias("first"))
    later = lines.filter(pl.col("iss_line") != pl.col("first"))
    for k, (path, c) in enumerate(zip(files, counts, strict=True)):
        mine = later.filter(pl.col("iss_line").is_between(c.first + 1, c.first + c.count))
        if mine.is_empty():
            continue
        frame = storage.read_parquet(path).filter(~pl.col("iss_line").is_in(mine["iss_line"].implode()))
        for iss_id, line, first in mine.sort("iss_line").iter_rows():
            c.skipped.setdefault(DUPLICATE, Reason()).add(line, f"game ID {iss_id} already imported from line {first}")
        counts[k] = ChunkCounts(c.index, c.first, c.count, c.blank, frame.height, c.skipped)
        write_parquet_atomic(frame, path, run_id, {CHUNK_KEY: counts[k].to_json()})


def _discard(out: str, created: bool) -> None:
    """Remove what the import wrote (and the folder, when it made it)."""
    for name in os.listdir(out):
        if _ours(name) and name != LOCK:
            storage.remove_quietly(os.path.join(out, name))
    if created and not [n for n in os.listdir(out) if n != LOCK]:
        shutil.rmtree(out, ignore_errors=True)


# --------------------------------------------------------------------------- reading an import


def finished_import(folder: str) -> tuple[ImportManifest, list[str]]:
    """The manifest and chunk files (in line order) of the finished import in ``folder``.

    Raises :class:`SkatsimError` when the folder holds no import, one still being written or
    unfinished, or a chunk file of another import.
    """
    manifest = read_import_manifest(folder)
    if manifest is None:
        raise SkatsimError(f"{folder}: not an ISS import (no {IMPORT_MANIFEST})")
    holder = read_lock(folder)
    if holder is not None and holder.unreadable:
        raise unreadable_lock(folder, "import")
    if holder is not None and holder.alive() is not False:
        raise SkatsimError(f"{folder}: the import is still being written ({holder.describe()})")
    if manifest.finished is None:
        raise SkatsimError(
            f"{folder}: the import is unfinished; complete it with the command that made it and --resume"
        )
    files = _chunk_files(folder)
    for path in files:
        if _footer_run_id(path) != manifest.run_id:
            raise SkatsimError(f"{path}: chunk file of another import; import the file again with --force")
    return manifest, files


def _footer_run_id(path: str) -> str | None:
    """The import a chunk file names in its footer; a file without a readable footer (cut short, damaged)
    is a one-line error saying how to redo it, not polars' traceback."""
    try:
        return storage.parquet_metadata(path).get(RUN_ID_KEY)
    except storage.UNREADABLE_FOOTER as exc:
        reason = first_line(exc, 160)
        raise SkatsimError(
            f"{path}: not a readable chunk file ({reason}); remove that file and run the import again with --resume"
        ) from None


def import_row(folder: str, row: int) -> tuple[str, int]:
    """The chunk file holding row ``row`` (from 0) of a finished import, and the row's place in it."""
    _, files = finished_import(folder)
    at = 0
    for path in files:
        size = pl.scan_parquet(path).select(pl.len()).collect().item()
        if row < at + size:
            return path, row - at
        at += size
    raise SkatsimError(f"{folder}: --row {row} out of range (the import has {at} rows, numbered from 0)")


def find_iss_line(
    path: str | os.PathLike[str], line: int | None = None, game_id: int | None = None
) -> tuple[int, IssGame]:
    """The game on line ``line`` (1-based) of an ISS file (plain or compressed), or the first with ``ID[game_id]``."""
    path = Path(path)
    number = 0
    needle = None if game_id is None else f"ID[{game_id}]".encode()
    with Source(path) as source:
        try:
            for number, raw in enumerate(source.stream, start=1):
                if number == line or (needle is not None and needle in raw and _line_id(raw) == game_id):
                    try:
                        return number, parse_line(raw.decode("utf-8", errors="replace"))
                    except ValueError as exc:
                        raise SkatsimError(f"{path}:{number}: {exc}") from None
        except (OSError, EOFError) as exc:
            raise read_error(path, exc, number) from None
    wanted = f"line {line}" if line is not None else f"game with ID {game_id}"
    raise SkatsimError(f"{path}: no {wanted}")


def _line_id(raw: bytes) -> int | None:
    try:
        return int(parse_line(raw.decode("utf-8", errors="replace")).result["iss_id"])  # type: ignore[call-overload]
    except ValueError:
        return None


def read_row(path: str | Path, row: int) -> tuple[GameRecord, dict[str, object]]:
    """The record of row ``row`` (0-based) of a Parquet table with a ``record`` column, and the row.

    Any table that stores :meth:`GameRecord.to_json` in ``record`` works: an ISS import's chunk
    files, and simulated runs that keep their records.
    """
    path = Path(path)
    try:
        frame = pl.scan_parquet(path)
        names = frame.collect_schema().names()
        size = frame.select(pl.len()).collect().item()
        if "record" not in names:
            raise SkatsimError(f"{path}: no 'record' column; only tables that store game records can be replayed")
        if not 0 <= row < size:
            raise SkatsimError(f"{path}: --row {row} out of range (the table has {size} rows, numbered from 0)")
        values = frame.slice(row, 1).collect().row(0, named=True)  # the data: a damaged page shows only here
    except storage.UNREADABLE as exc:
        raise SkatsimError(f"cannot read {path} as Parquet: {first_line(exc)}") from None
    try:
        return GameRecord.from_json(values["record"]), values
    except (ValueError, KeyError, TypeError) as exc:
        raise SkatsimError(f"{path}: row {row}: the record is not a valid game record ({exc})") from None
