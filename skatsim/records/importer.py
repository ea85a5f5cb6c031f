"""Import a file of ISS game records into a Parquet table of evaluated games.

:func:`import_iss` reads an ISS file line by line (RULES.md §7), replays every
game with the rule kernels (:func:`skatsim.records.iss.replay_iss`) and writes
``iss_games.parquet``: ``iss_id``, the shared evaluation columns
(:mod:`skatsim.schema`, same order and dtypes as simulated runs), the
server's recorded result (``iss_*``) and a ``record`` column holding the
:class:`~skatsim.records.record.GameRecord` as JSON, so that ``skatsim replay`` can
show any row again. A line that cannot be imported is reported with its
number and skipped (or stops the import with ``strict``); the table is
written atomically (:func:`skatsim.run.storage.write_atomic`, as the runner
writes chunks) and never overwrites an earlier one unless asked to. Beside it,
``import.json`` records what made it: the source file with its size and
SHA-256, the lines read, the games imported and the lines skipped by reason.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import numpy as np
import polars as pl

from .. import __version__
from ..errors import SkatsimError
from ..frames import dtype, open_hand_frame, result_schema
from ..run import storage
from ..run.manifest import timestamp
from ..schema import ISS_COLUMNS as ISS_COLUMN_DEFS
from ..schema import RESULT_COLUMNS
from .iss import IssFormatError, IssGame, parse_line, replay_iss
from .record import GameRecord, GameResult, ReplayError

#: Name of the table :func:`import_iss` writes in its output directory.
ISS_TABLE = "iss_games.parquet"
#: Name of the import's manifest beside it.
IMPORT_MANIFEST = "import.json"
#: Rows gathered as dicts before they are packed into a columnar frame.
CHUNK_ROWS = 50_000

#: The server's recorded result of a game, after the result columns (:data:`skatsim.schema.ISS_COLUMNS`).
ISS_COLUMNS = tuple(c.name for c in ISS_COLUMN_DEFS)


def iss_table_schema() -> dict[str, pl.DataType]:
    """Column order and dtypes of ``iss_games.parquet``."""
    schema: dict[str, pl.DataType] = {"iss_id": pl.Int64()}
    schema.update(result_schema())
    schema.update({c.name: dtype(c) for c in ISS_COLUMN_DEFS})
    schema["record"] = pl.String()
    return schema


@dataclass
class ImportSummary:
    """What an import did: lines read, games imported, lines skipped with their reasons."""

    source: Path
    table: Path | None = None
    lines_read: int = 0
    blank: int = 0
    imported: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)
    source_bytes: int = 0
    source_sha256: str = ""

    def manifest(self) -> dict[str, object]:
        """What ``import.json`` records: the source (size, SHA-256), the counts, the lines skipped by reason."""
        by_reason: dict[str, list[int]] = {}
        for number, reason in self.skipped:
            by_reason.setdefault(reason, []).append(number)
        return {
            "format": "skatsim-iss-import",
            "format_version": 1,
            "skatsim_version": __version__,
            "source": str(self.source),
            "source_bytes": self.source_bytes,
            "source_sha256": self.source_sha256,
            "table": ISS_TABLE,
            "lines_read": self.lines_read,
            "blank_lines": self.blank,
            "games_imported": self.imported,
            "lines_skipped": len(self.skipped),
            "skipped_by_reason": [{"reason": r, "lines": lines} for r, lines in by_reason.items()],
            "created": timestamp(),
        }

    def line(self) -> str:
        """One-line summary for the user."""
        blank = f" ({self.blank} blank)" if self.blank else ""
        where = f" -> {self.table}" if self.table else ""
        return (
            f"{self.source}: {self.lines_read} lines read{blank}, {self.imported} games imported, "
            f"{len(self.skipped)} skipped{where}"
        )


def import_iss(
    path: str | Path,
    out_dir: str | Path,
    strict: bool = False,
    force: bool = False,
    open_hand: Callable[[list[GameRecord]], np.ndarray] | None = None,
) -> ImportSummary:
    """Import the ISS records in ``path`` into ``out_dir/iss_games.parquet``.

    ``open_hand`` (:func:`skatsim.solve.open_hand_values`, passed in: the solver layer sits above the
    records) adds each declared game's open-hand value (``open_hand_points``, ``open_hand_won``, as
    ``simulate --open-hand``) after the other columns.

    Bad lines are skipped and listed in the summary; with ``strict`` the first
    one raises :class:`SkatsimError` and nothing is written. An existing table
    is only replaced with ``force``. Raises :class:`SkatsimError` when the file
    cannot be read or no game could be imported.
    """
    path, target = Path(path), Path(out_dir) / ISS_TABLE
    _check_target(target, force)
    summary = ImportSummary(source=path)
    chunks: list[pl.DataFrame] = []
    rows: list[dict[str, object]] = []
    first_line: dict[int, int] = {}
    digest = hashlib.sha256()
    for number, text in _lines(path, digest):
        summary.lines_read += 1
        if not text.strip():
            summary.blank += 1
            continue
        try:
            rows.append(_row(number, text, first_line))
        except (IssFormatError, ReplayError) as exc:
            if strict:
                raise SkatsimError(f"{path}:{number}: {exc} (--strict: stopped, nothing written)") from None
            summary.skipped.append((number, str(exc)))
        if len(rows) == CHUNK_ROWS:
            chunks.append(_frame(rows))
            rows = []
    chunks.append(_frame(rows))
    table = pl.concat(chunks)
    if table.is_empty():
        raise SkatsimError(f"{path}: no game imported ({summary.lines_read} lines read, {len(summary.skipped)} bad)")
    if open_hand is not None:
        records = [GameRecord.from_json(text) for text in table["record"]]
        table = pl.concat([table, open_hand_frame(open_hand(records))], how="horizontal")
    summary.imported, summary.table = table.height, target
    summary.source_bytes, summary.source_sha256 = path.stat().st_size, digest.hexdigest()
    manifest = (json.dumps(summary.manifest(), indent=2) + "\n").encode("utf-8")
    _write(target, table.write_parquet)
    _write(target.parent / IMPORT_MANIFEST, lambda f: f.write(manifest))
    return summary


def _frame(rows: list[dict[str, object]]) -> pl.DataFrame:
    """Rows as a typed frame (columnar, far smaller than the row dicts of a large archive)."""
    return pl.DataFrame(rows, schema=iss_table_schema(), orient="row")


def _check_target(target: Path, force: bool) -> None:
    if target.parent.exists() and not target.parent.is_dir():
        raise SkatsimError(f"--out {target.parent}: not a directory")
    if target.exists() and not force:
        raise SkatsimError(f"{target} already exists; use --force to replace it")


def _lines(path: Path, digest: hashlib._Hash | None = None) -> Iterator[tuple[int, str]]:
    """Numbered lines of a file; undecodable bytes become U+FFFD (they only matter in names).

    ``digest``, when given, is fed every byte read (the import's manifest records the file's SHA-256).
    """
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise SkatsimError(f"cannot read {path}: {exc.strerror or exc}") from None
    with handle:
        try:
            for number, raw in enumerate(handle, start=1):
                if digest is not None:
                    digest.update(raw)
                yield number, raw.decode("utf-8", errors="replace")
        except OSError as exc:
            raise SkatsimError(f"cannot read {path}: {exc.strerror or exc}") from None


def _row(number: int, text: str, first_line: dict[int, int]) -> dict[str, object]:
    """The table row of one line; a game ID seen before is an error naming its first line."""
    game = parse_line(text)
    iss_id = int(game.result["iss_id"])  # type: ignore[call-overload]
    if iss_id in first_line:
        raise IssFormatError(f"game ID {iss_id} already imported from line {first_line[iss_id]}")
    evaluation = replay_iss(game)
    first_line[iss_id] = number
    return table_row(game, evaluation)


def table_row(game: IssGame, evaluation: GameResult) -> dict[str, object]:
    """One row of the table: ``iss_id``, evaluation columns, ``iss_*`` columns, ``record``."""
    row: dict[str, object] = {"iss_id": game.result["iss_id"]}
    row.update({name: getattr(evaluation, name) for name in RESULT_COLUMNS})  # columns() deep-copies tricks
    row.update({name: game.result[name] for name in ISS_COLUMNS})
    row["record"] = game.record.to_json()
    return row


def _write(target: Path, write: Callable[[IO[bytes]], object]) -> None:
    """Write ``target`` atomically through the runner's storage; a failure is a one-line error."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        storage.write_atomic(str(target), write)
    except (OSError, pl.exceptions.PolarsError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc).strip().splitlines()[0]
        raise SkatsimError(f"{target}: cannot write ({reason})") from None


_ID = re.compile(r"ID\[(\d+)\]")


def find_iss_line(
    path: str | os.PathLike[str], line: int | None = None, game_id: int | None = None
) -> tuple[int, IssGame]:
    """The game on line ``line`` (1-based) of an ISS file, or the first with ``ID[game_id]``."""
    path = Path(path)
    for number, text in _lines(path):
        if number == line or (game_id is not None and _line_id(text) == game_id):
            try:
                return number, parse_line(text)
            except IssFormatError as exc:
                raise SkatsimError(f"{path}:{number}: {exc}") from None
    wanted = f"line {line}" if line is not None else f"a game with ID {game_id}"
    raise SkatsimError(f"{path}: no {wanted}")


def _line_id(text: str) -> int | None:
    match = _ID.search(text)
    return int(match.group(1)) if match else None


def read_row(path: str | Path, row: int) -> tuple[GameRecord, dict[str, object]]:
    """The record of row ``row`` (0-based) of a Parquet table with a ``record`` column, and the row.

    Any table that stores :meth:`GameRecord.to_json` in ``record`` works: the
    ISS import, and simulated runs that keep their records.
    """
    path = Path(path)
    try:
        frame = pl.scan_parquet(path)
        names = frame.collect_schema().names()
        size = frame.select(pl.len()).collect().item()
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise SkatsimError(f"cannot read {path} as Parquet: {str(exc).splitlines()[0]}") from None
    if "record" not in names:
        raise SkatsimError(f"{path}: no 'record' column; only tables that store game records can be replayed")
    if not 0 <= row < size:
        raise SkatsimError(f"{path}: --row {row} out of range (the table has {size} rows, numbered from 0)")
    values = frame.slice(row, 1).collect().row(0, named=True)
    try:
        return GameRecord.from_json(values["record"]), values
    except (ValueError, KeyError, TypeError) as exc:
        raise SkatsimError(f"{path}: row {row}: the record is not a valid game record ({exc})") from None
