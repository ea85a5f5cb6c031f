"""ISS archive speed and memory: ``import-iss`` on a generated archive of a million lines or more.

Usage::

    python benchmarks/bench_iss.py --games 1000000 --jobs 1,2 --formats plain,gz,bz2,xz --cache /tmp/iss-bench
    python benchmarks/bench_iss.py --games 1000000 --repeat 9 --jobs 2 --formats plain   # 9 million games

1. The archive: ``--games`` games simulated under the official rules with the default bots and
   ``--record-play``, written as ISS lines by ``skatsim export-iss`` (its speed timed in CPU
   seconds when it runs, or with ``--time-export``), then
   compressed with the gzip (level 6), bzip2 (level 9) and xz (preset 6) modules. Kept in
   ``--cache`` and reused when there.
2. Each format is imported with each ``--jobs`` value by the installed ``skatsim import-iss`` in a
   subprocess, into a fresh folder. Measured: wall time; CPU time of the whole process tree
   (the command and its workers, ``RUSAGE_CHILDREN``); peak resident memory of the tree, sampled
   every 20 ms (psutil). ``games/s per job`` is games / wall / jobs; ``games per CPU-s`` is games /
   CPU time, the work a core does whatever else the machine runs (the load average is printed:
   on a shared machine the wall figures carry the other users' load, the CPU figures do not).
3. Peers in the same run: the one-line path (``parse_line`` + ``replay_iss`` per line, what
   ``import-iss`` did before) on a sample of the same lines, and the reader alone (decompressing
   and cutting chunks, no parsing) per format, so each format's decompression share is seen.
"""

from __future__ import annotations

import argparse
import bz2
import gzip
import lzma
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import psutil

from skatsim.records.export import export_iss
from skatsim.records.iss import parse_line, replay_iss
from skatsim.records.issfile import LineChunker, Source
from skatsim.run.runner import run_simulation

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "variants" / "official.yaml"
SKATSIM = str(Path(sys.executable).with_name("skatsim"))
MIB = 1 << 20
COMPRESS = {
    "gz": lambda data: gzip.compress(data, compresslevel=6, mtime=0),
    "bz2": lambda data: bz2.compress(data, compresslevel=9),
    "xz": lambda data: lzma.compress(data, preset=6),
}


def archive(cache: Path, games: int, jobs: int, time_export: bool) -> tuple[Path, float]:
    """The plain archive of ``games`` exported games (made if missing) and the export's games per
    CPU-second (0 when the archive was there and ``time_export`` is off)."""
    plain = cache / f"archive-{games}.sgf"
    run = cache / f"run-{games}"
    if plain.exists() and not time_export:
        return plain, 0.0
    if not run.exists():
        print(f"simulating {games:,} games with --record-play ...", flush=True)
        run_simulation(str(VARIANT), games, 2026, str(run), jobs=jobs, record_play=True, progress=False)
    print("exporting ...", flush=True)
    target = plain if not plain.exists() else cache / "export-timing.sgf"
    start = time.process_time()
    export_iss(str(run), target, force=True)
    rate = games / (time.process_time() - start)
    if target != plain:
        target.unlink()
    return plain, rate


def repeated(plain: Path, games: int, times: int) -> Path:
    """``times`` copies of the archive one after the other, game IDs renumbered (made if missing): a file
    of ``times * games`` distinct games, to see that memory does not grow with the file."""
    if times == 1:
        return plain
    path = plain.with_name(f"archive-{games}x{times}.sgf")
    if not path.exists():
        print(f"writing {times} copies ...", flush=True)
        tmp = path.with_name(path.name + ".tmp")
        with tmp.open("wb") as out:
            for k in range(times):
                with plain.open("rb") as f:
                    for line in f:
                        head, rest = line.split(b"ID[", 1)
                        number, tail = rest.split(b"]", 1)
                        out.write(b"%sID[%d]%s" % (head, int(number) + k * games, tail))
        tmp.rename(path)
    return path


def compressed(plain: Path, kind: str) -> Path:
    """``plain`` compressed as ``kind`` (made if missing)."""
    if kind == "plain":
        return plain
    path = plain.with_name(f"{plain.name}.{kind}")
    if not path.exists():
        print(f"compressing {kind} ...", flush=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(COMPRESS[kind](plain.read_bytes()))
        tmp.rename(path)
    return path


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure_import(source: Path, out: Path, jobs: int) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds of the process tree, peak tree RSS (bytes) and the summary line of one import."""
    shutil.rmtree(out, ignore_errors=True)
    cpu_before = children_cpu()
    start = time.perf_counter()
    args = [SKATSIM, "import-iss", str(source), "--out", str(out), "--jobs", str(jobs), "--quiet"]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process = psutil.Process(child.pid)
    peak = 0
    while child.poll() is None:
        total = 0
        try:
            for each in [process, *process.children(recursive=True)]:
                try:
                    total += each.memory_info().rss
                except psutil.Error:
                    pass
        except psutil.Error:
            pass
        peak = max(peak, total)
        time.sleep(0.02)
    stdout, stderr = child.communicate()
    wall = time.perf_counter() - start
    if child.returncode:
        raise SystemExit(f"import failed: {stderr.strip()}")
    return wall, children_cpu() - cpu_before, peak, stdout.strip()


def reader_rate(source: Path) -> float:
    """Lines per second of the reader alone: decompress and cut chunks as the import does, parse nothing."""
    chunker = LineChunker(10_000)
    lines = 0
    start = time.process_time()
    with Source(source) as stream:
        while True:
            block, _ = stream.read_block()
            if not block:
                break
            lines += sum(c.count for c in chunker.feed(block))
    lines += sum(c.count for c in chunker.finish())
    return lines / (time.process_time() - start)


def one_line_rate(plain: Path, sample: int) -> float:
    """Games per CPU-second of the one-line path on the first ``sample`` lines."""
    with plain.open(encoding="utf-8") as f:
        lines = [f.readline() for _ in range(sample)]
    replay_iss(parse_line(lines[0]))  # compiled before timing
    start = time.process_time()
    for line in lines:
        replay_iss(parse_line(line))
    return sample / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="games in the archive (default 1,000,000)")
    parser.add_argument("--jobs", default="1,2", help="--jobs values to import with (default 1,2)")
    parser.add_argument("--formats", default="plain,gz,bz2,xz", help="formats to import (default all four)")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/skatsim-iss-bench"), help="folder of the archive")
    parser.add_argument("--sample", type=int, default=5_000, help="lines timed on the one-line path")
    parser.add_argument("--time-export", action="store_true", help="time export-iss even when the archive exists")
    parser.add_argument("--repeat", type=int, default=1, help="import this many copies of the archive as one file")
    args = parser.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    jobs = [int(j) for j in args.jobs.split(",")]
    formats = args.formats.split(",")
    plain, export_rate = archive(args.cache, args.games, max(jobs), args.time_export)
    plain = repeated(plain, args.games, args.repeat)
    games = args.games * args.repeat
    sources = {kind: compressed(plain, kind) for kind in formats}
    print(f"\nskatsim import-iss, {games:,} games; {os.cpu_count()} CPUs; load average {os.getloadavg()}")
    if export_rate:
        print(f"export-iss: {export_rate:,.0f} games per CPU-s (one process)")
    header = f"{'format':>6} {'MB':>7} {'jobs':>4} {'wall s':>7} {'games/s':>9} {'per job':>9} {'CPU s':>6}"
    print(f"{header} {'per CPU-s':>9} {'peak MiB':>8} {'reader lines/CPU-s':>18}")
    per_cpu = {}
    for kind, source in sources.items():
        reader = reader_rate(source)
        for j in jobs:
            wall, cpu, peak, summary = measure_import(source, args.cache / "import", j)
            assert f"{games:,} games imported, 0 skipped" in summary, summary
            rate = games / wall
            per_cpu[(kind, j)] = games / cpu
            print(
                f"{kind:>6} {source.stat().st_size / 1e6:7.1f} {j:4d} {wall:7.1f} {rate:9,.0f} {rate / j:9,.0f} "
                f"{cpu:6.1f} {games / cpu:9,.0f} {peak / MIB:8.0f} {reader:18,.0f}",
                flush=True,
            )
    baseline = one_line_rate(plain, args.sample)
    print(f"\none-line path (parse_line + replay_iss): {baseline:,.0f} games per CPU-s")
    for (kind, j), rate in per_cpu.items():
        print(f"  {kind} --jobs {j}: {rate / baseline:,.1f}x the one-line path per CPU-s")
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
