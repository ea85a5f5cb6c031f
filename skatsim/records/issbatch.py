"""ISS lines to a typed table, tens of thousands at a time: the inner loop of ``import-iss``.

:func:`import_lines` takes the raw bytes of consecutive lines and returns the table of the games
they hold (:func:`iss_table_schema`) and the lines it skipped, counted by reason. Each step runs
over a whole batch of lines, so no Python object is made per game:

1. the compiled parser (:func:`skatsim.records.issparse.parse_lines`) reads every line into the
   action record the deal flow replays, the server's result and byte spans of the names;
2. one compiled call replays them all (:func:`skatsim.engine.block.replay_block`), under the
   official rules, the ISS's;
3. a compiled check makes what a replay alone cannot: the declarer and the seat of each card
   are the ones the line names (:func:`skatsim.records.issparse.check_seats`);
4. the rows are typed as every table is (:func:`skatsim.frames.result_frame`), the ``record``
   column's JSON written by a compiled writer (:func:`skatsim.records.recordjson.write_json`),
   the names cut out of the lines by another.

A skipped line's reason comes from the codes the parser and the deal flow leave; its message,
for the first :data:`FIRST_LINES` lines of each reason, from the one-line path
(:func:`skatsim.records.iss.parse_line`, :func:`skatsim.records.iss.replay_iss`), so a message
reads the same however the line was met. The rows are the ones the one-line path gives: the same
parser, the same replay, the same typing (``tests/test_issbatch.py`` checks both agree line by line).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from ..engine import layout
from ..engine.bidding import MAX_BID
from ..engine.block import replay_block
from ..engine.openhand import open_hand_values
from ..engine.state import ERR_CODE, N_ERROR
from ..frames import dtype, open_hand_frame, result_frame, result_schema
from ..run.manifest import OPEN_HAND_MODES
from ..schema import ISS_COLUMNS, OPEN_HAND_COLUMNS
from ..variant import official_params
from . import issparse, recordjson
from .iss import REASONS, RESULTS, WRONG_DECLARER, WRONG_SEAT, IssFormatError, ParsedLines, parse_line, replay_iss
from .record import BID_VALUE_REASON, CARDS_REASON, ReplayError, replay_reason

#: Lines per call of the compiled parser and replay (bounds a batch's arrays to ~10 MB).
BATCH = 8_192
#: Lines listed, with their message, per reason a line was skipped (all are counted).
FIRST_LINES = 5
#: Reason of a game whose ID an earlier line already imported.
DUPLICATE = "duplicate game ID"
#: Reason of a line the reader did not keep (:data:`skatsim.records.issfile.MAX_LINE`).
TOO_LONG = "line too long"


def iss_table_schema(open_hand: bool = False) -> dict[str, pl.DataType]:
    """Column order and dtypes of an imported ISS table: ``iss_id``, ``iss_line`` (the game's line
    in the source file, from 1), the result columns, the server's ``iss_*`` columns, ``record``, and
    with ``open_hand`` the open-hand values of the declared games (``import-iss --open-hand``)."""
    schema: dict[str, pl.DataType] = {"iss_id": pl.Int64(), "iss_line": pl.Int64()}
    schema.update(result_schema())
    schema.update({c.name: dtype(c) for c in ISS_COLUMNS})
    schema["record"] = pl.String()
    if open_hand:
        schema.update({c.name: dtype(c) for c in OPEN_HAND_COLUMNS})
    return schema


@dataclass
class Reason:
    """Lines skipped for one reason: how many, and the first :data:`FIRST_LINES` (line, message)."""

    count: int = 0
    first: list[tuple[int, str]] = field(default_factory=list)

    def add(self, line: int, message: str | None) -> None:
        """Count a line; keep its message while fewer than :data:`FIRST_LINES` are kept."""
        self.count += 1
        if message is not None and len(self.first) < FIRST_LINES:
            self.first.append((line, message))

    def merge(self, other: Reason) -> None:
        """Add the lines of ``other``; the kept messages stay the first by line number."""
        self.count += other.count
        self.first = sorted(self.first + other.first)[:FIRST_LINES]


@dataclass
class Imported:
    """What :func:`import_lines` made of its lines: the games' table and the lines it skipped by reason."""

    frame: pl.DataFrame
    lines: int = 0
    blank: int = 0
    skipped: dict[str, Reason] = field(default_factory=dict)

    @property
    def skipped_lines(self) -> int:
        """How many lines were skipped, all reasons together."""
        return sum(r.count for r in self.skipped.values())

    def skip(self, reason: str, line: int, message: str | None) -> None:
        """Count line ``line`` as skipped for ``reason``."""
        self.skipped.setdefault(reason, Reason()).add(line, message)

    def wants_message(self, reason: str) -> bool:
        """Whether a line skipped for ``reason`` would still be listed with its message."""
        kept = self.skipped.get(reason)
        return kept is None or len(kept.first) < FIRST_LINES


def line_spans(data: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive, without the newline) of the ``count`` lines of ``data``: lines end
    at a newline, the last one may lack it (as Python reads a file)."""
    breaks = np.flatnonzero(data == 10)
    starts = np.empty(count, dtype=np.int64)
    ends = np.empty(count, dtype=np.int64)
    starts[:1] = 0
    starts[1:] = breaks[: count - 1] + 1
    ends[: min(count, breaks.size)] = breaks[:count]
    if breaks.size < count:
        ends[breaks.size :] = data.size
    return starts, ends


def import_lines(data: bytes, first: int, count: int, too_long: Sequence[int] = (), open_hand: str = "") -> Imported:
    """The games on the ``count`` lines in ``data``, lines ``first + 1`` .. ``first + count`` of their file.

    ``too_long`` lists lines (by index in ``data``) the reader dropped for their length: they
    are skipped. A game ID met twice keeps its first line; later ones are skipped as
    :data:`DUPLICATE`, naming it. ``open_hand``: solve every declared game open-handed after the
    discard, ``points`` or ``won`` (:data:`~skatsim.run.manifest.OPEN_HAND_MODES`,
    :func:`skatsim.engine.openhand.open_hand_values`; slow), "" not. Returns the table
    (:func:`iss_table_schema`) in line order.
    """
    buf = np.frombuffer(data, dtype=np.uint8)
    starts, ends = line_spans(buf, count)
    result = Imported(frame=pl.DataFrame(schema=iss_table_schema(bool(open_hand))), lines=count)
    dropped = np.zeros(count, dtype=bool)
    dropped[list(too_long)] = True
    frames = []
    for at in range(0, count, BATCH):
        stop = min(at + BATCH, count)
        frames.append(_batch(buf, starts[at:stop], ends[at:stop], dropped[at:stop], first + at, result, open_hand))
    result.frame = _without_duplicates(pl.concat(frames), result)
    return result


def _line(buf: np.ndarray, start: int, end: int) -> str:
    return buf[start:end].tobytes().decode("utf-8", errors="replace")


def _batch(
    buf: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    dropped: np.ndarray,
    first: int,
    result: Imported,
    open_hand: str,
) -> pl.DataFrame:
    """A batch of lines (from the file's line ``first + 1``): its games; its skipped lines go into ``result``."""
    parsed = ParsedLines.allocate(starts.size)
    parsed.parse(buf, starts, ends)
    info, codes = parsed.info, parsed.err[:, issparse.X_CODE]
    blank = (info[:, issparse.I_BLANK] == 1) & ~dropped
    result.blank += int(blank.sum())

    def skip(i: np.integer, reason: str | None) -> bool:
        return _skip(result, reason, _line(buf, starts[i], ends[i]), first + int(i) + 1)

    for i in np.flatnonzero(dropped):
        result.skip(TOO_LONG, first + int(i) + 1, f"{TOO_LONG}: not an ISS game record")
    for i in np.flatnonzero((codes != 0) & ~blank & ~dropped):
        skip(i, REASONS[int(codes[i])])
    parsed_ok = np.flatnonzero(codes == 0)
    shaped = parsed_ok[info[parsed_ok, issparse.I_SHAPE] == 0]
    for i in parsed_ok[info[parsed_ok, issparse.I_SHAPE] != 0]:
        skip(i, _shape_reason(parsed.log[i]))
    rows, errors = _replay(info[shaped, issparse.I_DEAL], parsed.log[shaped])
    replayed = errors[:, ERR_CODE] == 0
    for j in np.flatnonzero(~replayed):
        skip(shaped[j], replay_reason(errors[j]))
    lines, rows = shaped[replayed], rows[replayed]
    verdicts = np.zeros(lines.size, dtype=np.int64)
    issparse.check_seats(info, parsed.log, parsed.card_seats, lines, rows, verdicts)
    keep = verdicts == 0
    reasons = {issparse.WRONG_DECLARER: WRONG_DECLARER, issparse.WRONG_SEAT: WRONG_SEAT, issparse.UNDECIDED: None}
    for j in np.flatnonzero(verdicts):
        keep[j] = skip(lines[j], reasons[int(verdicts[j])])
    lines, rows = lines[keep], rows[keep]
    records = _records(parsed, lines)
    for j in np.flatnonzero(parsed.info[lines, issparse.I_N_BIDS] > layout.MAX_LOGGED_BIDS):
        records[j] = parse_line(_line(buf, starts[lines[j]], ends[lines[j]])).record.to_json()  # (never replays)
    frame = _frame(buf, parsed, lines, rows, records, first)
    if open_hand:
        values = open_hand_values(rows, OPEN_HAND_MODES[open_hand])
        frame = pl.concat([frame, open_hand_frame(values)], how="horizontal")
    return frame


def _skip(result: Imported, reason: str | None, text: str, line: int) -> bool:
    """Count line ``line`` (``text``) as skipped for ``reason``, with its message while the reason's
    first lines are listed. ``reason`` None: not decided by the batch, the one-line path decides.
    Returns whether the line is a game after all."""
    if reason is not None and not result.wants_message(reason):
        result.skip(reason, line, None)
        return False
    problem = line_problem(text)
    if problem is None:
        if reason is None:
            return True
        raise AssertionError(f"line {line}: the batch skips it ({reason}), the one-line path imports it")
    result.skip(problem[0], line, problem[1])
    return False


def line_problem(text: str) -> tuple[str, str] | None:
    """Why the one-line path (:func:`parse_line`, :func:`replay_iss`) refuses a line: (reason, message),
    or None when it imports it."""
    try:
        replay_iss(parse_line(text))
    except (IssFormatError, ReplayError) as exc:
        return exc.reason, str(exc)
    return None


def _shape_reason(log: np.ndarray) -> str:
    """Why :func:`~skatsim.records.record.action_record` refuses a parsed line: a bid value out of
    range (checked first), or more than 30 cards."""
    bids = log[layout.LOG_BIDS : layout.LOG_BIDS + int(log[layout.LOG_N_BIDS])].astype(np.int64)
    return BID_VALUE_REASON if np.any(bids % 1024 - 1 > MAX_BID) else CARDS_REASON


def _replay(deals: np.ndarray, logs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Engine rows and ``DealState.error`` rows of parsed lines, replayed under the official rules."""
    rows = np.zeros((deals.size, layout.N_COLUMNS), dtype=np.int64)
    errors = np.zeros((deals.size, N_ERROR), dtype=np.int64)
    replay_block(deals, logs.copy(), official_params(), rows, errors)  # (the flow writes into the log)
    return rows, errors


def _records(parsed: ParsedLines, lines: np.ndarray) -> list[str]:
    """The ``record`` column: each game's :meth:`GameRecord.to_json`, written by the compiled writer."""
    return recordjson.texts(*recordjson.json_bytes(parsed.deal, parsed.log, lines))


def _names(buf: np.ndarray, info: np.ndarray, lines: np.ndarray, slot: int, count: int) -> list[str]:
    """``count`` fields of each line joined by ``,`` (``DT[]``; ``P0[]`` to ``P2[]``), cut out of ``buf``."""
    size = count * lines.size
    for k in range(count):
        lo, hi = info[lines, slot + 2 * k], info[lines, slot + 2 * k + 1]
        size += int(np.sum(np.where(lo >= 0, hi - lo, 0)))
    out = np.empty(size, dtype=np.uint8)
    ends = np.zeros(lines.size, dtype=np.int64)
    issparse.join_spans(buf, info, lines, slot, count, out, ends)
    return recordjson.texts(out, ends, "utf-8")


def _frame(
    buf: np.ndarray, parsed: ParsedLines, lines: np.ndarray, rows: np.ndarray, records: list[str], first: int
) -> pl.DataFrame:
    """The table rows of the games on ``lines`` (indices into the batch) with engine rows ``rows``."""
    info = parsed.info[lines]
    raw = pl.DataFrame(
        {
            "iss_id": info[:, issparse.I_ID],
            "iss_line": first + lines + 1,
            "played": info[:, issparse.I_RESULT] < 3,
            "result": info[:, issparse.I_RESULT],
            **{key: info[:, issparse.I_R + k] for k, key in enumerate(issparse.R_KEYS)},
            "overbid": info[:, issparse.I_OVERBID],
            "has_date": info[:, issparse.I_DT] >= 0,
            "date": pl.Series(_names(buf, parsed.info, lines, issparse.I_DT, 1), dtype=pl.String),
            "players": pl.Series(_names(buf, parsed.info, lines, issparse.I_PLAYERS, 3), dtype=pl.String),
            "record": pl.Series(records, dtype=pl.String),
        }
    )
    schema = iss_table_schema()
    iss = raw.select(*_iss_columns(), "record")
    frame = pl.concat([raw.select("iss_id", "iss_line"), result_frame(rows, official_params()), iss], how="horizontal")
    return frame.cast(schema)  # type: ignore[arg-type]


def _iss_columns() -> list[pl.Expr]:
    """The server's result as the ``iss_*`` columns (null where a passed game has no value)."""
    played = pl.when(pl.col("played"))
    enum = dtype(next(c for c in ISS_COLUMNS if c.name == "iss_result"))
    return [
        played.then(pl.when(pl.col("d") >= 0).then(pl.col("d"))).alias("iss_declarer"),
        pl.col("result").replace_strict(dict(enumerate(RESULTS)), return_dtype=enum).alias("iss_result"),
        pl.when(pl.col("result") < 2).then(pl.col("result") == 0).alias("iss_won"),
        played.then(pl.col("v")).alias("iss_score"),
        played.then(pl.col("m")).alias("iss_matadors"),
        played.then(pl.col("overbid") == 1).alias("iss_overbid"),
        played.then(pl.col("p")).alias("iss_points"),
        played.then(pl.col("t")).alias("iss_tricks"),
        played.then(pl.col("s") == 1).alias("iss_schneider"),
        played.then(pl.col("z") == 1).alias("iss_schwarz"),
        pl.when(pl.col("has_date")).then(pl.col("date")).alias("iss_date"),
        pl.col("players").alias("iss_players"),
    ]


def _without_duplicates(frame: pl.DataFrame, result: Imported) -> pl.DataFrame:
    """``frame`` with each game ID's first line only; later ones counted as skipped (:data:`DUPLICATE`)."""
    first = frame.select(pl.col("iss_id").is_first_distinct()).to_series()
    if first.all():
        return frame
    repeated = frame.filter(~first).select("iss_id", "iss_line")
    kept = frame.filter(first & pl.col("iss_id").is_in(repeated["iss_id"].implode()))
    firsts = dict(kept.select("iss_id", "iss_line").iter_rows())
    for iss_id, line in repeated.iter_rows():
        result.skip(DUPLICATE, line, f"game ID {iss_id} already imported from line {firsts[iss_id]}")
    return frame.filter(first)
