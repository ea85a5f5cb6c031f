"""``export-iss``: the games of a run simulated with ``--record-play``, written as ISS game records.

Each game becomes one line in the format the International Skat Server writes and
:func:`skatsim.records.iss.parse_line` reads (RULES.md §7)::

    (;GM[Skat]PC[skatsim]ID[17]DT[2026-01-05/10:00:00/UTC]P0[heuristic]P1[heuristic]P2[heuristic]
    MV[w <deal> 1 18 0 y 1 20 0 p 2 p 1 s w <skat> 1 G.CJ.ST 0 SA 1 S7 ...]R[d:1 win v:48 ...] ;)

(one line): the deal (forehand's ten cards, middlehand's, rearhand's, the skat), every bid and
answer, the pickup and the skat shown, the declaration with its discards (letters ``O H S Z`` for
each announcement the record holds), every card with the seat that played it, an early end, and
the result ``R[]``. ``ID[]`` is the game's number in the run, ``P0[]``..``P2[]`` the bots at FH,
MH, RH, ``DT[]`` when the run was made.

What the ISS format cannot say is skipped and counted: a Ramsch (and a Bock list's Ramsch
round), a Kontra or Re, a Bock multiplier, the reversed game, a Grand hand declared instead of a
Ramsch. ``R[]`` always holds the result under the official rules (the ISS's): every game is
replayed under them (the lines are parsed and replayed by the importer's own compiled path), so
a run under other scoring (or other rules) says so in the summary, and a game those rules do not
allow is skipped too. Output is written atomically (:func:`skatsim.run.storage.write_atomic`) and
compressed by its name: ``.bz2``, ``.gz``, ``.xz``, anything else plain (the suffix of another archive,
``.zip``, ``.zst``..., is refused).
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
import polars as pl

from ..counts import plural
from ..engine import layout
from ..engine.block import replay_block
from ..engine.cards import iss_name
from ..engine.gametypes import GAME_TYPE_LABELS, ISS_LETTERS
from ..engine.state import ERR_CODE, N_ERROR
from ..errors import SkatsimError, first_line
from ..run import storage
from ..run.reader import finished_run
from ..variant import official_params
from . import issparse
from .iss import ParsedLines

#: Games read and written at a time.
BATCH = 20_000
#: Declaration letter of each game type, and the announcement letters in the order the ISS writes them.
LETTERS = {gt: letter for letter, gt in ISS_LETTERS.items()}
GAME_TYPES = {label: code for code, label in GAME_TYPE_LABELS.items()}
CARD = {iss_name(c): c for c in range(32)}
BID_WORDS = {0: "y", -1: "p"}
FLAG_LETTERS = (("O", 8), ("H", 1), ("S", 2), ("Z", 4))
END_MOVES = {"claim": "{seat} SC", "resign": "{seat} RE", "timeout": "w TI.{seat}", "left": "w LE.{seat}"}
#: Why a game is not exported, by what the ISS format cannot express.
RAMSCH_REASON = "Ramsch"
KONTRA_REASON = "Kontra/Re"
BOCK_REASON = "Bock"
REVERSED_REASON = "reversed game"
INSTEAD_REASON = "Grand hand instead of a Ramsch"
OFFICIAL_REASON = "not allowed by the official rules"


@dataclass
class ExportSummary:
    """What an export did: games read, lines written, games skipped by reason."""

    run: str
    out: Path
    games: int = 0
    written: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    #: Set when the run's rules are not the official ones: R[] holds the official results.
    note: str = ""

    def line(self) -> str:
        """One-line summary for the user."""
        reasons = ", ".join(f"{reason} {n:,}" for reason, n in self.skipped.items())
        skipped = f", {sum(self.skipped.values()):,} skipped ({reasons})" if self.skipped else ""
        return f"{self.run}: {plural(self.games, 'game')}, {self.written:,} written{skipped} -> {self.out}"


#: Archive and compression suffixes export-iss does not write (it writes ``.bz2``, ``.gz``, ``.xz``, else plain).
_NOT_WRITTEN = frozenset(
    {".zip", ".zst", ".zstd", ".lz4", ".7z", ".rar", ".tar", ".tgz", ".tbz2", ".lzma", ".br", ".z"}
)


def export_iss(run_dir: str, out: str | Path, force: bool = False) -> ExportSummary:
    """Write the games of the finished run ``run_dir`` (simulated with ``--record-play``) to ``out``
    as ISS lines (compressed by its name). An existing ``out`` is replaced only with ``force``."""
    named = os.fspath(out)
    out = Path(out)
    if out.is_dir() or named.endswith(("/", os.sep)):  # Path() drops the trailing slash: looked at as given
        what = "is" if out.is_dir() else "names"
        raise SkatsimError(f"--out {named}: {what} a folder; name the file to write (FILE.sgf, FILE.sgf.bz2, ...)")
    if out.suffix.lower() in _NOT_WRITTEN:  # else written plain under a name that promises an archive
        raise SkatsimError(
            f"--out {named}: export-iss does not write {out.suffix} files; name the file FILE.sgf (plain), "
            "FILE.sgf.bz2, FILE.sgf.gz or FILE.sgf.xz"
        )
    manifest, files = finished_run(run_dir)
    if not manifest.record_play:
        raise SkatsimError(f"{run_dir}: the run stored no game records; simulate it with --record-play to export it")
    if out.exists() and not force:
        raise SkatsimError(f"{out} already exists; use --force to replace it")
    summary = ExportSummary(run_dir, out)
    official = official_params()
    if manifest.params is not None and list(official) != list(manifest.params):
        summary.note = (
            f"the run's variant '{manifest.variant_name}' is not the official rules: R[] in the lines holds each "
            "game's result under the official rules (the ISS's), not the run's own scores"
        )
    date = manifest.created[:19].replace("T", "/") + "/UTC"

    def write(f: IO[bytes]) -> None:
        with _compressed(out, f) as sink:
            for batch in _batches(files):
                summary.games += batch.height
                lines = _lines(batch, date, official, summary)
                sink.write("".join(lines).encode("utf-8"))
                summary.written += len(lines)

    try:
        os.makedirs(out.parent or ".", exist_ok=True)
        storage.write_atomic(str(out), write)
    except OSError as exc:
        raise SkatsimError(f"{out}: cannot write ({exc.strerror or exc})") from None
    return summary


def _compressed(out: Path, f: IO[bytes]) -> AbstractContextManager[Any]:
    """A writer compressing into ``f`` by the suffix of ``out`` (reproducibly: no name or time in a
    gzip header), closed before ``f`` is; plain ``f`` for any other suffix."""
    suffix = out.suffix.lower()
    if suffix == ".bz2":
        return bz2.BZ2File(f, "wb")
    if suffix == ".gz":
        return gzip.GzipFile(filename="", fileobj=f, mode="wb", mtime=0)
    if suffix == ".xz":
        return lzma.LZMAFile(f, "wb")
    return nullcontext(f)


def _batches(files: list[str]) -> Iterator[pl.DataFrame]:
    """The run's games in order, ``BATCH`` at a time: game number, declarer, bots, record."""
    columns = ["game_id", "declarer", "bot_fh", "bot_mh", "bot_rh", "record"]
    for path in files:
        try:
            frame = pl.scan_parquet(path).select(columns).collect()
        except storage.UNREADABLE as exc:
            # a chunk damaged after the run finished: its footer read, its data not; nothing is written
            reason = first_line(exc, 160)
            raise SkatsimError(
                f"{path}: cannot read the chunk file ({reason}); remove it and complete the run with --resume"
            ) from None
        yield from frame.iter_slices(BATCH)


def _lines(batch: pl.DataFrame, date: str, official: np.ndarray, summary: ExportSummary) -> list[str]:
    """The ISS lines of a batch of games (those the format can express and the official rules allow)."""
    heads, games = [], []
    for game_id, declarer, fh, mh, rh, text in batch.iter_rows():
        game = json.loads(text)
        reason = unexpressible(game)
        if reason is not None:
            summary.skipped[reason] = summary.skipped.get(reason, 0) + 1
            continue
        players = "".join(f"P{s}[{_name(bot)}]" for s, bot in enumerate((fh, mh, rh)))
        heads.append(f"(;GM[Skat]PC[skatsim]ID[{game_id}]DT[{date}]{players}")
        games.append((game, declarer))
    moves = _move_lists(games)
    results = _official_results(moves, official)
    lines = []
    for head, mv, result in zip(heads, moves, results, strict=True):
        if result is None:
            summary.skipped[OFFICIAL_REASON] = summary.skipped.get(OFFICIAL_REASON, 0) + 1
        else:
            lines.append(f"{head}{mv}R[{result}] ;)\n")
    return lines


def _name(bot: str) -> str:
    """A bot setting as a player name: no brackets (they end a field)."""
    return bot.replace("[", "(").replace("]", ")")


def unexpressible(game: dict[str, Any]) -> str | None:
    """Why the ISS format cannot hold a game (its record as :meth:`GameRecord.to_json` writes it): a
    reason to count it under, or None when it can."""
    if game.get("game_type") == "ramsch" or game.get("ramsch_round"):
        return RAMSCH_REASON
    if game.get("grand_hand_instead") is not None:
        return INSTEAD_REASON
    if game.get("kontra"):
        return KONTRA_REASON
    if game.get("bock", 1) > 1:
        return BOCK_REASON
    if game.get("game_type") == "reversed":
        return REVERSED_REASON
    return None


def _move_lists(games: list[tuple[dict[str, Any], int | None]]) -> list[str]:
    """``MV[...]`` of each game (its record's JSON, the seat that won the bidding): deal, bids, pickup
    and skat, declaration, cards with the seat playing each (one compiled call for the batch), end."""
    cards = np.zeros((len(games), 32), dtype=np.int64)
    counts = np.zeros(len(games), dtype=np.int64)
    game_types = np.zeros(len(games), dtype=np.int64)
    for i, (game, _) in enumerate(games):
        played = game.get("cards", [])
        counts[i] = min(len(played), 32)
        cards[i, : counts[i]] = [CARD[name] for name in played[:32]]
        game_types[i] = GAME_TYPES.get(game.get("game_type") or "", 0)
    seats = np.zeros_like(cards)
    issparse.card_seats(game_types, cards, counts, seats)
    return [f"MV[{move_list(game, declarer, seats[i])} ]" for i, (game, declarer) in enumerate(games)]


def move_list(game: dict[str, Any], declarer: int | None, seats: Sequence[int]) -> str:
    """The moves of a game the format can express (its record's JSON; ``declarer``: the seat that won
    the bidding; ``seats``: who played each card): deal, bids, pickup and skat, declaration, cards, end."""
    deal = game["deal"]
    moves = ["w " + ".".join(deal)]
    moves += [f"{seat} {BID_WORDS.get(action, action)}" for seat, action in game.get("bids", ())]
    if game.get("pickup"):
        moves.append(f"{declarer} s w {deal[30]}.{deal[31]}")
    label = game.get("game_type")
    if label is not None:
        flags = int(game.get("flags", 0))
        letters = "".join(letter for letter, flag in FLAG_LETTERS if flags & flag)
        discards = "".join(f".{c}" for c in game.get("discards", ()))
        moves.append(f"{declarer} {LETTERS[GAME_TYPES[label]]}{letters}{discards}")
        moves += [f"{seat} {c}" for seat, c in zip(seats, game.get("cards", ()), strict=False)]
    end = game.get("end")
    if end is not None:
        moves.append(END_MOVES[end["kind"]].format(seat=end["seat"]))
    return " ".join(moves)


def _official_results(moves: list[str], official: np.ndarray) -> list[str | None]:
    """``R[]`` of each move list under the official rules, by the importer's own path: parse the
    moves (:class:`~skatsim.records.iss.ParsedLines`) and replay them; None for a game they refuse."""
    text = "".join(f"(;ID[0]{mv}R[passed];)\n" for mv in moves).encode("utf-8")
    data = np.frombuffer(text, dtype=np.uint8)
    ends = np.flatnonzero(data == 10)
    starts = np.concatenate(([0], ends[:-1] + 1)) if ends.size else ends
    parsed = ParsedLines.allocate(len(moves))
    parsed.parse(data, starts.astype(np.int64), ends.astype(np.int64))
    good = np.flatnonzero((parsed.err[:, issparse.X_CODE] == 0) & (parsed.info[:, issparse.I_SHAPE] == 0))
    rows = np.zeros((good.size, layout.N_COLUMNS), dtype=np.int64)
    errors = np.zeros((good.size, N_ERROR), dtype=np.int64)
    replay_block(parsed.info[good, issparse.I_DEAL], parsed.log[good].copy(), official, rows, errors)
    results: list[str | None] = [None] * len(moves)
    for j, i in enumerate(good):
        if errors[j, ERR_CODE] == 0:
            results[i] = result_field(rows[j])
    return results


def result_field(row: np.ndarray) -> str:
    """``R[]`` of an engine row: ``passed``, or the server's fields (an aborted game is a penalty)."""
    gt = int(row[layout.COL_GAME_TYPE])
    if gt == -1:
        return "passed"
    if gt < 0:
        return "d:-1 penalty v:0 m:0 bidok p:0 t:0 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0"
    won = "win" if row[layout.COL_WON] else "loss"
    bid_ok = "overbid" if row[layout.COL_OVERBID] else "bidok"
    return (
        f"d:{row[layout.COL_DECLARER]} {won} v:{row[layout.COL_SCORE]} m:{row[layout.COL_MATADORS]} {bid_ok} "
        f"p:{row[layout.COL_POINTS]} t:{row[layout.COL_TRICKS]} s:{int(row[layout.COL_SCHNEIDER])} "
        f"z:{int(row[layout.COL_SCHWARZ])} p0:0 p1:0 p2:0 l:-1 to:-1 r:0"
    )
