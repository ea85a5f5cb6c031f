"""Every benchmark script runs: each at a tiny size as a new process, printing its figure.

The figures are measured by running the scripts at full size (README's speed table, docs/speed.md);
these runs keep the scripts working as the code under them changes. Three had stopped unnoticed:
two read the row's column names from the schema's column objects, and one started a list variant's
block in the middle of a list. Left out: ``bench_cold_start.py`` (clones and installs the package:
minutes) and ``profile_kernel.py`` (a tool for ``perf``, which prints no figure of its own).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from skatsim._jit import cache_base

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
#: Where this environment's compiled kernels are kept: ``bench_ab.py`` is handed it for both of its
#: trees, so that it loads them rather than compiling twice.
KERNEL_CACHE = cache_base()

CASES = [
    ("bench_breakdown.py", ["--games", "20000", "--repeats", "1"], "games per CPU-second"),
    ("bench_compare.py", ["--games", "20000", "--jobs", "1", "--bootstrap", "50"], "independent runs"),
    ("bench_dask.py", ["--games", "20000", "--workers", "1"], "dask, running cluster"),
    ("bench_duel.py", ["--deals", "2000", "--core-deals", "1000", "--jobs", "1"], "Seeger-Fabian points per game"),
    ("bench_iss.py", ["--games", "2000", "--jobs", "1", "--formats", "plain,gz", "--sample", "500"], "games/s"),
    ("bench_kernel.py", ["variants/official.yaml", "2e4", "1"], "games/s"),
    ("bench_kernel.py", ["variants/tournament.yaml", "2e4", "1"], "games/s"),
    ("bench_kernel.py", ["variants/tournament4.yaml", "2e4", "1"], "games/s"),
    ("bench_open_hand.py", ["--games", "10"], "games/s on one core"),
    ("bench_open_hand.py", ["--games", "10", "--won"], "won alone"),
    ("bench_pimc.py", ["--games", "3"], "games/s on one core"),
    ("bench_rules.py", ["--games", "20000", "--repeats", "1"], "played games:"),
    ("bench_simulate.py", ["--games", "20000", "--jobs", "1", "--kernel-games", "10000"], "bytes/game"),
    ("bench_solver.py", ["--deals", "30", "--what", "both"], "nodes med"),
    ("bench_variants.py", ["--games", "3000"], "tournament4"),
    ("bench_whatif.py", ["--deals", "20", "--samples", "10", "--hand-samples", "500", "--repeat", "1"], "rollouts/s"),
    ("bench_xskat.py", ["--games", "20000", "--xskat-games", "2000", "--repeats", "1"], "ratio kernel / xskat"),
    ("bench_xskat.py", ["--games", "20000", "--xskat-games", "2000", "--repeats", "1", "--jobs", "2"], "2 processes"),
    # last: its two worker processes load what the runs above compiled into the cache, where from an
    # empty cache (CI) they would both compile the same kernels at once
    ("bench_ab.py", ["variants/official.yaml", *[".", KERNEL_CACHE] * 2, "--rounds", "1", "--games", "2e4"], "median"),
]


def test_every_benchmark_script_is_covered() -> None:
    """A new benchmark script joins :data:`CASES` (or the docstring's list of those left out)."""
    left_out = {"bench_cold_start.py", "profile_kernel.py"}
    assert {p.name for p in BENCHMARKS.glob("*.py")} == {script for script, _, _ in CASES} | left_out


@pytest.mark.parametrize(("script", "args", "expected"), CASES, ids=[f"{s}:{a[0]}" for s, a, _ in CASES])
def test_benchmark_runs(script: str, args: list[str], expected: str, tmp_path: Path) -> None:
    if script == "bench_xskat.py" and not any(shutil.which(p) for p in ("xskat", "/usr/games/xskat")):
        pytest.skip("xskat is not installed (apt-get install xskat)")
    if script == "bench_iss.py":
        args = [*args, "--cache", str(tmp_path / "iss")]
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert expected in done.stdout, done.stdout[-2000:]
    assert "Traceback" not in done.stderr


SCRIPTS = sorted([*BENCHMARKS.glob("*.py"), *(ROOT / "scripts").glob("*.py")])


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_script_answers_help(script: Path) -> None:
    """Every benchmark and script says how it is called (``bench_kernel.py`` once read ``sys.argv`` by
    position and answered ``--help`` with a traceback)."""
    command = [sys.executable, str(script), "--help"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout.lower(), done.stdout[-500:]
