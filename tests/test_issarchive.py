"""The ISS archive at scale: the batch path against the one-line path, streaming compressed files,
chunks, resume, duplicates across chunks, lines skipped by reason, and the export round trip.

Speed and memory are measured by ``benchmarks/bench_iss.py``, not here.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import random
import re
import signal
import subprocess
import sys
import time
import zlib
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest
from test_issparse import LINES, damaged

from skatsim.cli import main
from skatsim.errors import SkatsimError
from skatsim.records import issbatch
from skatsim.records.importer import (
    CHUNK_KEY,
    IMPORT_MANIFEST,
    ImportStopped,
    finished_import,
    import_iss,
    read_import_manifest,
)
from skatsim.records.iss import parse_line, replay_iss
from skatsim.records.issbatch import DUPLICATE, TOO_LONG, import_lines, line_problem
from skatsim.records.issfile import LineChunker
from skatsim.records.record import EarlyEnd, GameRecord, replay
from skatsim.schema import ISS_COLUMNS, RESULT_COLUMNS

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "iss" / "real_games.sgf"
SKATSIM = str(Path(sys.executable).with_name("skatsim"))


def cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def read_import(folder: Path) -> pl.DataFrame:
    return pl.read_parquet(finished_import(str(folder))[1])


def with_id(line: str, game_id: int) -> str:
    return re.sub(r"ID\[\d+\]", f"ID[{game_id}]", line, count=1)


def archive(n: int, seed: int = 1, bad: float = 0.2) -> list[str]:
    """``n`` lines: real games under fresh IDs, a share of them damaged, some blank, some IDs repeated."""
    rng = random.Random(seed)
    lines = []
    for k in range(n):
        line = with_id(rng.choice(LINES), 1000 + k)
        roll = rng.random()
        if roll < bad:
            line = damaged(rng, line)
        elif roll < bad + 0.02:
            line = rng.choice(["", "   ", "\t"])
        elif roll < bad + 0.04:
            line = with_id(line, 1000 + rng.randrange(max(k, 1)))  # an ID met before
        lines.append(line)
    return lines


# --------------------------------------------------------------------------- batch = one line at a time


def test_the_batch_imports_what_the_one_line_path_imports(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = archive(1500)
    data = ("\n".join(lines) + "\n").encode("utf-8")
    monkeypatch.setattr(issbatch, "FIRST_LINES", 10**6)  # every skipped line listed with its message
    monkeypatch.setattr(issbatch, "BATCH", 256)  # several batches
    result = import_lines(data, 100, len(lines))
    table = result.frame
    expected_rows, expected_skips, seen = [], {}, {}
    for number, line in enumerate(lines, start=101):
        if not line.strip():
            continue
        problem = line_problem(line)
        if problem is not None:
            expected_skips[number] = problem
            continue
        game = parse_line(line)
        iss_id = game.result["iss_id"]
        if iss_id in seen:
            expected_skips[number] = (DUPLICATE, f"game ID {iss_id} already imported from line {seen[iss_id]}")
            continue
        seen[iss_id] = number
        evaluation = replay_iss(game)
        row = {"iss_id": iss_id, "iss_line": number, **evaluation.columns()}
        row |= {name: game.result[name] for name in (c.name for c in ISS_COLUMNS)}
        expected_rows.append(row | {"record": game.record.to_json()})
    assert table.rows(named=True) == expected_rows
    skips = {line: (reason, message) for reason, kept in result.skipped.items() for line, message in kept.first}
    assert skips == expected_skips
    assert result.blank == sum(not line.strip() for line in lines)
    assert len(expected_rows) > 1000 and len({r for r, _ in expected_skips.values()}) > 10


def test_reasons_are_counted_alike_with_or_without_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = archive(1200, seed=3, bad=0.5)
    data = "\n".join(lines).encode("utf-8")
    listed = import_lines(data, 0, len(lines))
    monkeypatch.setattr(issbatch, "FIRST_LINES", 0)  # counted from the codes alone
    counted = import_lines(data, 0, len(lines))
    assert {r: c.count for r, c in listed.skipped.items()} == {r: c.count for r, c in counted.skipped.items()}
    assert all(len(c.first) == min(c.count, 5) for c in listed.skipped.values())
    assert listed.frame.equals(counted.frame)


# --------------------------------------------------------------------------- the reader


def test_the_chunker_cuts_whole_lines_as_python_reads_them() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        lines_per_chunk, cap, longest = rng.randint(1, 6), rng.randint(1, 60), rng.randint(2, 20)
        pieces = [b"a", b"bb", b"\n", b"cccccc", b"\n\n", b"x" * rng.randint(0, 30)]
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        lines = data.split(b"\n")[:-1] if data.endswith(b"\n") or not data else data.split(b"\n")
        expected, current, size = [], [], 0
        for line in lines:
            current.append(line)
            size += 1 if len(line) > longest else len(line) + 1
            if len(current) == lines_per_chunk or size >= cap:
                expected.append(current)
                current, size = [], 0
        expected += [current] if current else []
        chunker = LineChunker(lines_per_chunk, cap, longest)
        chunks, at = [], 0
        while at < len(data):
            step = rng.randint(1, 40)
            chunks += chunker.feed(data[at : at + step])
            at += step
        chunks += chunker.finish()
        first = 0
        assert len(chunks) == len(expected)
        for k, (chunk, want) in enumerate(zip(chunks, expected, strict=True)):
            got = chunk.data.split(b"\n")[:-1] if chunk.data.endswith(b"\n") else chunk.data.split(b"\n")
            got += [b""] * (chunk.count - len(got))
            assert (chunk.index, chunk.first, chunk.count) == (k, first, len(want))
            assert got == [b"" if len(line) > longest else line for line in want]
            assert chunk.too_long == tuple(i for i, line in enumerate(want) if len(line) > longest)
            first += chunk.count


@pytest.mark.parametrize("suffix", ["", ".bz2", ".gz", ".xz"])
def test_plain_and_compressed_files_import_alike(tmp_path: Path, suffix: str) -> None:
    data = FIXTURE.read_bytes()
    compress = {"": bytes, ".bz2": bz2.compress, ".gz": gzip.compress, ".xz": lzma.compress}[suffix]
    source = tmp_path / f"games.sgf{suffix}"
    source.write_bytes(compress(data))
    summary = import_iss(source, tmp_path / "out", chunk_lines=10)
    assert (summary.lines_read, summary.imported) == (46, 46)
    manifest = read_import_manifest(str(tmp_path / "out"))
    assert manifest is not None and manifest.source_format == (suffix[1:] or "plain")
    plain = tmp_path / "plain.sgf"
    plain.write_bytes(data)
    import_iss(plain, tmp_path / "plain", chunk_lines=10)
    assert read_import(tmp_path / "out").equals(read_import(tmp_path / "plain"))


def test_the_format_is_told_by_the_content_not_the_name(tmp_path: Path) -> None:
    source = tmp_path / "games.sgf"  # gzip data under a plain name
    source.write_bytes(gzip.compress(FIXTURE.read_bytes()))
    assert import_iss(source, tmp_path / "out").imported == 46


def test_compressed_data_cut_before_its_first_line_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A bzip2 file cut inside its first block (900 kB) yields no line at all: one line that says so, not
    'no game imported (0 lines read)' and 'past line 0'."""
    source = tmp_path / "cut.sgf.bz2"
    source.write_bytes(bz2.compress(FIXTURE.read_bytes())[:1000])
    code, out, err = cli(capsys, "import-iss", source, "--out", tmp_path / "out")
    assert (code, out) == (2, "")
    assert err == (
        f"skatsim: error: {source}: cannot read even its first line: the compressed data is damaged or cut off "
        "(Compressed file ended before the end-of-stream marker was reached); nothing imported\n"
    )
    assert not (tmp_path / "out").exists()


def test_damaged_compressed_data_imports_what_can_be_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [with_id(LINES[k % len(LINES)], k) for k in range(400)]
    packed = gzip.compress(("\n".join(lines) + "\n").encode("utf-8"))
    source = tmp_path / "cut.sgf.gz"
    source.write_bytes(packed[: len(packed) * 2 // 3])  # a download cut short
    code, out, err = cli(capsys, "import-iss", source, "--out", tmp_path / "out", "--jobs", "1", "--chunk-size", "50")
    assert code == 2 and "Traceback" not in err
    assert err.splitlines()[-1].startswith(f"skatsim: error: {source}: cannot read past line ")
    assert err.splitlines()[-1].endswith("; the lines before it are imported")
    assert "the compressed data is damaged or cut off" in err
    readable = zlib.decompressobj(31).decompress(source.read_bytes())  # what any reader gets out of it
    complete = readable.count(b"\n")
    assert 40 < complete < 400
    cut = 1 if readable[readable.rfind(b"\n") + 1 :] else 0  # the line the damage cuts in two
    read = f"{complete + cut} lines read, {complete} games imported, {cut} skipped"
    assert out == f"{source}: {read} -> {tmp_path / 'out'}\n"
    assert read_import(tmp_path / "out")["iss_id"].to_list() == list(range(complete))


def test_a_line_too_long_is_skipped_by_number(tmp_path: Path) -> None:
    source = tmp_path / "long.sgf"
    source.write_text(f"{LINES[0]}\n(;{'x' * 70_000};)\n{LINES[1]}\n", encoding="utf-8")
    summary = import_iss(source, tmp_path / "out")
    assert summary.imported == 2 and summary.skipped == [(2, f"{TOO_LONG}: not an ISS game record")]


# --------------------------------------------------------------------------- chunks, duplicates, reasons


def test_chunking_never_changes_the_table_and_ids_stay_unique_across_chunks(tmp_path: Path) -> None:
    lines = archive(900, seed=8)
    source = tmp_path / "games.sgf"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    whole = import_iss(source, tmp_path / "whole")
    parts = import_iss(source, tmp_path / "parts", jobs=2, chunk_lines=37)
    assert len(finished_import(str(tmp_path / "parts"))[1]) == 25
    table = read_import(tmp_path / "parts")
    assert table.equals(read_import(tmp_path / "whole"))
    assert table["iss_id"].is_unique().all() and table["iss_line"].is_sorted()
    assert (whole.lines_read, whole.blank, whole.imported, whole.reasons) == (
        parts.lines_read,
        parts.blank,
        parts.imported,
        parts.reasons,
    )
    assert whole.skipped == parts.skipped
    assert parts.reasons[DUPLICATE] > 5
    recorded = json.loads((tmp_path / "parts" / IMPORT_MANIFEST).read_text(encoding="utf-8"))
    assert recorded["games_imported"] == table.height and recorded["lines_read"] == 900
    by_reason = {entry["reason"]: entry for entry in recorded["skipped_by_reason"]}
    assert sum(entry["count"] for entry in by_reason.values()) == recorded["lines_skipped"]
    duplicates = by_reason[DUPLICATE]["lines"]
    assert len(duplicates) == 5 and duplicates == sorted(duplicates)
    number, message = duplicates[0]
    first = int(message.rsplit(" ", 1)[1])
    assert first < number and table.filter(pl.col("iss_line") == first).height == 1
    assert parse_line(lines[number - 1]).result["iss_id"] == parse_line(lines[first - 1]).result["iss_id"]


def test_the_first_lines_of_each_reason_are_listed_the_rest_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "games.sgf"
    source.write_text("\n".join([LINES[0], *(["garbage"] * 8), LINES[1], "(;cut"]) + "\n", encoding="utf-8")
    code, out, err = cli(capsys, "import-iss", source, "--out", tmp_path / "out", "--chunk-size", "3", "--jobs", "1")
    expected = [f"{source}:{n}: not an ISS game record (expected a line starting with '(;')" for n in range(2, 7)]
    expected += [
        f"{source}:11: record is cut off (the line does not end with ';)')",
        f"{source}: 3 more lines skipped: not an ISS game record",
    ]
    assert code == 0 and err.splitlines() == expected
    assert out == f"{source}: 11 lines read, 2 games imported, 9 skipped -> {tmp_path / 'out'}\n"


def test_strict_stops_at_the_first_bad_line_in_file_order_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [with_id(LINES[k % len(LINES)], k) for k in range(60)]
    lines[41] = "garbage"
    lines[55] = "(;cut"
    source = tmp_path / "games.sgf"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ("import-iss", source, "--out", tmp_path / "out", "--strict", "--chunk-size", "10", "--jobs", "2")
    code, out, err = cli(capsys, *args)
    assert (code, out) == (2, "")
    assert err == (
        f"skatsim: error: {source}:42: not an ISS game record (expected a line starting with '(;') "
        "(--strict: stopped, nothing written)\n"
    )
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- resume


def test_a_stopped_import_resumes_with_only_the_missing_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = archive(400, seed=4)
    source = tmp_path / "games.sgf"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    import_iss(source, tmp_path / "fresh", chunk_lines=40)
    import importlib

    importer = importlib.import_module("skatsim.records.importer")
    real = importer.import_chunk
    calls: list[int] = []

    def stop_at_the_fourth(spec):  # type: ignore[no-untyped-def]
        calls.append(spec.chunk.index)
        if calls == [0, 1, 2, 3]:
            raise KeyboardInterrupt
        return real(spec)

    monkeypatch.setattr(importer, "import_chunk", stop_at_the_fourth)
    out = tmp_path / "out"
    with pytest.raises(ImportStopped, match=r"interrupted; the chunks done \(120 lines\) are kept in"):
        import_iss(source, out, chunk_lines=40)
    assert len(list(out.glob("chunk-*.parquet"))) == 3 and not (out / "run.lock").exists()
    code, _, err = cli(capsys, "import-iss", source, "--out", out)
    assert code == 2 and "already holds an unfinished ISS import; pass --resume" in err
    with pytest.raises(SkatsimError, match="the import is unfinished"):
        finished_import(str(out))
    calls.clear()
    summary = import_iss(source, out, resume=True)
    assert calls == [3, 4, 5, 6, 7, 8, 9] and summary.lines_before == 120
    assert read_import(out).equals(read_import(tmp_path / "fresh"))
    assert json.loads((out / IMPORT_MANIFEST).read_text())["lines_read"] == 400
    calls.clear()
    assert import_iss(source, out, resume=True).imported == summary.imported and calls == []


def test_a_full_disk_stops_the_import_in_one_line_and_resume_completes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from skatsim.records import importer
    from skatsim.run.chunks import DiskFullError

    real = importer.write_parquet_atomic
    written: list[str] = []

    def full_after_two(frame, path, run_id="", metadata=None):  # type: ignore[no-untyped-def]
        if len(written) == 2:
            raise DiskFullError(f"{path}: cannot write chunk file: the disk is full (No space left on device)")
        written.append(path)
        real(frame, path, run_id, metadata)

    monkeypatch.setattr(importer, "write_parquet_atomic", full_after_two)
    out = tmp_path / "out"
    args = ("import-iss", FIXTURE, "--out", out, "--chunk-size", "10", "--jobs", "1")
    code, stdout, err = cli(capsys, *args)
    assert (code, stdout) == (2, "") and err.count("\n") == 1
    assert err.startswith("skatsim: error: ") and "the disk is full" in err
    assert err.rstrip().endswith(
        f"the chunks done (20 lines) are kept in {out}; to continue: skatsim "
        + " ".join(str(a) for a in args)
        + " --resume"
    )
    monkeypatch.setattr(importer, "write_parquet_atomic", real)
    code, stdout, err = cli(capsys, *args, "--resume")
    assert (code, err) == (0, "") and "46 games imported" in stdout


def test_resume_checks_the_source_the_settings_and_the_chunk_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "games.sgf"
    source.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    import_iss(source, out, chunk_lines=10)
    base = ("import-iss", source, "--out", out, "--resume")
    code, _, err = cli(capsys, *base, "--chunk-size", "20")
    assert code == 2 and err.endswith("cannot resume with --chunk-size 20: the import uses 10 (omit it)\n")
    code, _, err = cli(capsys, *base, "--strict")
    assert code == 2 and err.endswith("the import was made without --strict; resume it without --strict\n")
    before = sorted((p.name, p.stat().st_mtime_ns) for p in out.iterdir())
    code, _, err = cli(capsys, *base, "--force")  # replace and complete at once: which one was meant?
    assert code == 2 and err.endswith("and --resume completes it: pass one of them\n") and err.count("\n") == 1
    assert sorted((p.name, p.stat().st_mtime_ns) for p in out.iterdir()) == before
    chunk = sorted(out.glob("chunk-*.parquet"))[1]
    chunk.write_bytes(b"not parquet")
    code, _, err = cli(capsys, *base)
    assert code == 2 and err.count("\n") == 1
    assert f"{chunk}: not a chunk file of this import" in err and "remove that file" in err
    chunk.unlink()
    assert import_iss(source, out, resume=True).imported == 46
    source.write_text("\n".join(LINES[:-1]) + "\n", encoding="utf-8")
    code, _, err = cli(capsys, *base)
    assert code == 2 and f"cannot resume: {source} is not the file imported there" in err and err.count("\n") == 1
    (out / "notes.txt").write_text("mine")
    code, _, err = cli(capsys, "import-iss", source, "--out", out, "--force")
    assert code == 2 and "holds other files than an ISS import" in err


def test_an_import_of_format_2_is_read_but_not_resumed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Format 2 wrote ``skat_discard`` as plain strings: read as it is; resumed, it would mix the types."""
    from skatsim import analysis

    source = tmp_path / "games.sgf"
    source.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    import_iss(source, out, chunk_lines=10)
    manifest = json.loads((out / IMPORT_MANIFEST).read_text(encoding="utf-8"))
    assert manifest["format_version"] == 3
    (out / IMPORT_MANIFEST).write_text(json.dumps({**manifest, "format_version": 2}), encoding="utf-8")
    assert analysis.scan(out).collect().height == 46
    before = sorted((p.name, p.stat().st_mtime_ns) for p in out.iterdir())
    code, _, err = cli(capsys, "import-iss", source, "--out", out, "--resume")
    assert code == 2 and err.count("\n") == 1 and "cannot resume: the import is of format 2" in err
    assert sorted((p.name, p.stat().st_mtime_ns) for p in out.iterdir()) == before


def test_a_damaged_chunk_of_a_finished_import_is_one_line_for_its_readers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A chunk file cut short after the import finished (a copy, a full disk elsewhere): report and replay
    say which file and how to redo it, in one line, instead of polars' traceback; --resume redoes it."""
    source = tmp_path / "games.sgf"
    source.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    import_iss(source, out, chunk_lines=10)
    chunk = sorted(out.glob("chunk-*.parquet"))[1]
    chunk.write_bytes(chunk.read_bytes()[:500])
    for args in (("report", out, "--out", tmp_path / "r.html"), ("replay", out, "--row", 3)):
        code, stdout, err = cli(capsys, *args)
        assert (code, stdout) == (2, "") and err.count("\n") == 1, err
        assert f"{chunk}: not a readable chunk file" in err and "run the import again with --resume" in err
    chunk.unlink()
    assert import_iss(source, out, resume=True).imported == 46
    assert read_import(out).height == 46


@pytest.fixture(scope="module")
def big_source(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """40,000 games in a gzip file, for the tests that stop a real import process."""
    lines = [with_id(LINES[k % len(LINES)], k) for k in range(40_000)]
    source = tmp_path_factory.mktemp("big") / "games.sgf.gz"
    source.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8"), compresslevel=1))
    return source, lines


def start_import(source: Path, out: Path, chunks: int) -> tuple[subprocess.Popen[str], list[str]]:
    """The installed ``skatsim import-iss`` in its own process group, once ``chunks`` chunk files are written."""
    args = ["import-iss", str(source), "--out", str(out), "--jobs", "2", "--chunk-size", "1000", "--quiet"]
    child = subprocess.Popen(
        [SKATSIM, *args], start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 120
    while len(list(out.glob("chunk-*.parquet"))) < chunks:
        assert child.poll() is None and time.monotonic() < deadline, child.communicate()
        time.sleep(0.02)
    return child, args


def test_ctrl_c_stops_the_workers_and_the_printed_command_completes_the_import(
    tmp_path: Path, big_source: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    source, _ = big_source
    out = tmp_path / "out"
    child, args = start_import(source, out, 2)
    os.killpg(child.pid, signal.SIGINT)
    stopped = time.monotonic()
    stdout, stderr = child.communicate(timeout=30)
    assert time.monotonic() - stopped < 3.0 and (child.returncode, stdout) == (130, "")
    kept = 1000 * len(list(out.glob("chunk-*.parquet")))
    command = " ".join(["skatsim", *args, "--resume"])
    kept_line = f"skatsim: interrupted; the chunks done ({kept:,} lines) are kept in {out}"
    assert stderr == f"{kept_line}; to continue: {command}\n"
    assert not (out / "run.lock").exists() and 0 < kept < 40_000
    code, stdout, err = cli(capsys, *args, "--resume")
    assert (code, err) == (0, "") and "40,000 games imported" in stdout


def test_kill_9_then_resume_gives_the_table_of_an_import_never_stopped(
    tmp_path: Path, big_source: tuple[Path, list[str]]
) -> None:
    source, lines = big_source
    out = tmp_path / "out"
    child, _ = start_import(source, out, 3)
    os.killpg(child.pid, signal.SIGKILL)
    child.communicate()
    kept = len(list(out.glob("chunk-*.parquet")))
    assert 3 <= kept < 40
    summary = import_iss(source, out, resume=True)
    assert summary.lines_before == 1000 * kept and summary.imported == 40_000
    table = read_import(out)
    assert table["iss_id"].to_list() == list(range(40_000))
    expected = import_lines(("\n".join(lines[-1000:]) + "\n").encode(), 39_000, 1000).frame
    assert table.tail(1000).equals(expected)


# --------------------------------------------------------------------------- export


def simulate(tmp_path: Path, variant: str, games: int, bots: str = "random,heuristic,heuristic") -> Path:
    from skatsim.run.runner import run_simulation

    out = tmp_path / Path(variant).stem
    run_simulation(str(ROOT / "variants" / variant), games, 7, str(out), bots=bots, record_play=True, progress=False)
    return out


KINDS = ("game_type", "hand", "ouvert", "schneider_announced", "schwarz_announced")


def round_trip(tmp_path: Path, run: Path, suffix: str = ".sgf") -> tuple[pl.DataFrame, pl.DataFrame]:
    """The run's games and the same games exported and imported again, both by game number."""
    sgf = tmp_path / f"{run.name}{suffix}"
    from skatsim.records.export import export_iss

    summary = export_iss(str(run), sgf)
    assert summary.skipped == {} and summary.note == ""
    import_iss(sgf, tmp_path / f"{run.name}-import", jobs=2, chunk_lines=700)
    games = pl.scan_parquet(sorted(run.glob("chunk-*.parquet"))).collect().sort("game_id")
    back = read_import(tmp_path / f"{run.name}-import").sort("iss_id")
    return games, back


def test_export_then_import_gives_the_runs_own_evaluation_of_every_game(tmp_path: Path) -> None:
    run = simulate(tmp_path, "official.yaml", 3000)
    games, back = round_trip(tmp_path, run, ".sgf.bz2")
    assert back["iss_id"].to_list() == games["game_id"].to_list()
    assert back.select(RESULT_COLUMNS).equals(games.select(RESULT_COLUMNS))
    assert [GameRecord.from_json(r) for r in back["record"]] == [GameRecord.from_json(r) for r in games["record"]]
    played = back.filter(pl.col("iss_result") != "passed")
    assert played.select(pl.col("iss_score") == pl.col("score")).to_series().all()
    kinds = set(games.select(KINDS).unique().rows())
    for game_type in ("diamonds", "hearts", "spades", "clubs", "grand", "null"):
        assert {(game_type, False, False, False, False), (game_type, True, False, False, False)} <= kinds
    assert ("null", False, True, False, False) in kinds and ("passed", None, None, None, None) in kinds


def write_run(folder: Path, records: list[GameRecord]) -> None:
    """A finished official-rules run holding ``records`` (made the way the runner makes one)."""
    import numpy as np

    from skatsim.frames import block_frame
    from skatsim.records.record import replay_rows
    from skatsim.run.chunks import write_parquet_atomic
    from skatsim.run.manifest import write_manifest
    from skatsim.run.runner import plan_run
    from skatsim.variant import official_params

    params = official_params()
    rows, _, errors = replay_rows(records, params)
    assert not errors.any()
    rows[:, 0] = np.arange(len(records))
    plan = plan_run(str(ROOT / "variants" / "official.yaml"), len(records), 1, str(folder), record_play=True)
    manifest = plan.fresh.model_copy(update={"run_id": "r", "chunks_done": [(0, 1)], "finished": "now"})
    frame = block_frame(rows, ("people",) * 3, "official", params, [r.to_json() for r in records])
    folder.mkdir()
    write_parquet_atomic(frame, str(folder / manifest.chunk_file(0)), "r")
    write_manifest(str(folder), manifest)


def test_every_declaration_and_early_end_people_made_survives_the_round_trip(tmp_path: Path) -> None:
    """The bots never announce Schneider or Schwarz nor play a suit game or Grand ouvert; the real games do
    (clubs hand Schwarz announced, Grand and clubs ouvert, Null ouvert hand) and end by SC, RE, TI, LE."""
    records = [parse_line(line).record for line in LINES if "R[passed]" not in line]
    played = next(r for r in records if r.end is None and len(r.cards) == 30)
    declarer = replay(played).declarer
    records.append(replace(played, cards=played.cards[:16], end=EarlyEnd("claim", declarer)))  # SC, claim accepted
    run = tmp_path / "people"
    write_run(run, records)
    games, back = round_trip(tmp_path, run, ".sgf.xz")
    assert back.select(RESULT_COLUMNS).equals(games.select(RESULT_COLUMNS))
    assert [GameRecord.from_json(r) for r in back["record"]] == records
    kinds = set(games.select(KINDS).unique().rows())
    assert {("clubs", True, False, True, True), ("grand", True, True, True, True)} <= kinds
    assert {("clubs", True, True, True, True), ("null", True, True, False, False)} <= kinds
    assert {r.end.kind for r in records if r.end is not None} == {"claim", "resign", "timeout", "left"}


@pytest.mark.parametrize(
    ("variant", "reasons"),
    [
        ("kontra_re.yaml", {"Kontra/Re"}),
        ("ramsch.yaml", {"Ramsch"}),
        ("saechsische_spitze.yaml", {"reversed game"}),
        ("bock.yaml", {"Bock", "Ramsch"}),
    ],
)
def test_what_the_iss_cannot_express_is_skipped_and_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str, reasons: set[str]
) -> None:
    run = simulate(tmp_path, variant, 1500, bots="heuristic")
    sgf = tmp_path / "out.sgf.gz"
    code, out, err = cli(capsys, "export-iss", run, "--out", sgf)
    assert (code, err) == (0, "")
    summary, note = out.splitlines()
    found = dict(re.findall(r"([A-Za-z/ ]+?) ([\d,]+)(?:, |\))", summary.split(" skipped (")[1]))
    assert set(found) >= reasons and all(int(n.replace(",", "")) > 0 for n in found.values())
    written = int(re.search(r"([\d,]+) written", summary)[1].replace(",", ""))  # type: ignore[index]
    assert note.startswith(f"note: the run's variant '{run.name}' is not the official rules: R[] in the lines holds")
    back = import_iss(sgf, tmp_path / "back")
    assert back.imported == written and back.skipped == []


def test_the_lines_hold_the_official_result_under_other_scoring(tmp_path: Path) -> None:
    run = simulate(tmp_path, "pre1999.yaml", 1000, bots="random")
    from skatsim.records.export import export_iss

    summary = export_iss(str(run), tmp_path / "old.sgf")
    assert summary.skipped == {} and "is not the official rules" in summary.note
    import_iss(tmp_path / "old.sgf", tmp_path / "back")
    games = pl.scan_parquet(sorted(run.glob("chunk-*.parquet"))).collect().sort("game_id")
    back = read_import(tmp_path / "back").sort("iss_id")
    lost_hand = (games["hand"] & ~games["won"]).fill_null(False)
    assert lost_hand.sum() > 100
    assert (back.filter(lost_hand)["score"] == 2 * games.filter(lost_hand)["score"]).all()  # single under pre1999
    assert back.filter(~lost_hand).select(RESULT_COLUMNS).equals(games.filter(~lost_hand).select(RESULT_COLUMNS))
    assert (back["iss_score"].fill_null(0) == back["score"]).all()


def test_export_mistakes_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from skatsim.run.runner import run_simulation

    plain = tmp_path / "plain"
    run_simulation(str(ROOT / "variants" / "official.yaml"), 50, 1, str(plain), progress=False)
    (tmp_path / "taken.sgf").write_text("x")
    cases = [
        ((plain, "--out", tmp_path / "x.sgf"), "the run stored no game records; simulate it with --record-play"),
        ((tmp_path / "nothing", "--out", tmp_path / "x.sgf"), "not a skatsim run"),
    ]
    records = simulate(tmp_path, "official.yaml", 50)
    cases += [
        ((records, "--out", tmp_path / "taken.sgf"), "already exists; use --force to replace it"),
        ((records, "--out", tmp_path), "is a folder; name the file to write"),
        ((records, "--out", f"{tmp_path / 'new'}/"), f"--out {tmp_path / 'new'}/: names a folder; name the file"),
        ((tmp_path / "nothing", "--out", f"{tmp_path}/"), f"--out {tmp_path}/: is a folder; name the file to write"),
        ((records, "--out", tmp_path / "x.sgf.zip"), "export-iss does not write .zip files; name the file FILE.sgf"),
    ]
    for args, message in cases:
        code, out, err = cli(capsys, "export-iss", *args)
        assert (code, out) == (2, "") and err.count("\n") == 1 and message in err, err
    assert (tmp_path / "taken.sgf").read_text() == "x" and not (tmp_path / "new").exists()
    assert not (tmp_path / "x.sgf.zip").exists()
    code, _, _ = cli(capsys, "export-iss", records, "--out", tmp_path / "taken.sgf", "--force")
    assert code == 0 and (tmp_path / "taken.sgf").read_text().count("\n") == 50


def test_a_run_chunk_damaged_inside_is_one_line_for_replay_and_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A chunk file whose footer reads but whose data pages are damaged: replay and export-iss name the
    file in one line (export writes nothing) instead of polars' traceback."""
    records = simulate(tmp_path, "official.yaml", 200)
    [chunk] = sorted(records.glob("chunk-*.parquet"))
    data = bytearray(chunk.read_bytes())
    for i in range(len(data) // 3, len(data) // 3 + 2000):
        data[i] ^= 0x5A
    chunk.write_bytes(bytes(data))
    for args in (("replay", records, "--game", 5), ("export-iss", records, "--out", tmp_path / "x.sgf")):
        code, out, err = cli(capsys, *args)
        assert (code, out) == (2, "") and err.count("\n") == 1, err
        assert str(chunk) in err and "Traceback" not in err
    assert not (tmp_path / "x.sgf").exists()


def test_the_chunk_files_carry_their_counts(tmp_path: Path) -> None:
    import_iss(FIXTURE, tmp_path, chunk_lines=20)
    counts = []
    for path in finished_import(str(tmp_path))[1]:
        meta = pl.read_parquet_metadata(path)
        counts.append(json.loads(meta[CHUNK_KEY]))
    assert [(c["first"], c["count"], c["imported"]) for c in counts] == [(0, 20, 20), (20, 20, 20), (40, 6, 6)]


def test_an_import_made_before_chunks_is_still_read_and_replaced_only_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from skatsim import analysis

    import_iss(FIXTURE, tmp_path / "new")
    old = tmp_path / "old"
    old.mkdir()
    read_import(tmp_path / "new").drop("iss_line").write_parquet(old / "iss_games.parquet")
    (old / IMPORT_MANIFEST).write_text(json.dumps({"format": "skatsim-iss-import", "format_version": 1}))
    assert analysis.scan(old).collect().height == 46
    code, _, err = cli(capsys, "import-iss", FIXTURE, "--out", old)
    assert code == 2 and "an import made by an older skatsim" in err and err.count("\n") == 1
    code, _, err = cli(capsys, "import-iss", FIXTURE, "--out", old, "--force", "--jobs", "1")
    assert code == 0 and sorted(p.name for p in old.iterdir()) == ["chunk-000000000000-46.parquet", IMPORT_MANIFEST]
