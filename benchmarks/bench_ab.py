"""Kernel games/s of two checkouts alternated round by round: a before/after pair on a busy machine.

    python benchmarks/bench_ab.py variants/official.yaml ../main /tmp/main-cache . /tmp/branch-cache

Each checkout's kernel runs in its own long-lived worker process (``PYTHONPATH`` = the checkout,
``NUMBA_CACHE_DIR`` = its cache; compiled or loaded once), and the two take turns on the same games,
``--rounds`` rounds of ``--games`` each, who goes first swapped every round. On a shared machine whose
speed drifts by a third within a minute, best-of runs minutes apart settle nothing; paired rounds a
second apart see the same machine, so the median of the per-round ratios (thread CPU time, a
worker's own time only) shows differences of a few percent. An A/A pair (one checkout twice) shows
the noise floor.

A worker process has a speed of its own, beyond its code: in stop 43 two workers of one checkout
differed by up to 5%, the one started second faster in every pairing. So the pairing runs twice, the
second time with new workers started in the other order, and the figure is the geometric mean of
the first pass's median and the inverse of the second's (``--one-order``: the first pass only).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

BLOCK = 65520
#: Rounds start at multiples of this: a list variant's block must start at a list's first deal, and
#: 720,720 is a multiple of every list length up to 16 deals.
ROUND_START = 14 * 720_720


def _worker(variant: str) -> None:
    """Load the kernel of the checkout on ``PYTHONPATH``, then run ``first games`` per stdin line and
    print wall and thread CPU seconds."""
    import numpy as np

    from skatsim.bots import bot_arrays, parse_bots
    from skatsim.engine.block import simulate_block
    from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS
    from skatsim.variant import load_variant

    params = load_variant(variant).variant.params()
    kinds, bot_params = bot_arrays(parse_bots("heuristic"), params)
    rows = np.zeros((BLOCK, N_COLUMNS), dtype=np.int64)
    no_log = np.zeros((0, LOG_WIDTH), np.int16)
    simulate_block(np.uint64(1), 0, kinds, bot_params, params, rows[:3600], no_log)  # compile or load
    print("ready", flush=True)
    for line in sys.stdin:
        first, games = map(int, line.split())
        wall, cpu = time.perf_counter(), time.thread_time()
        for start in range(first, first + games, BLOCK):
            n = min(BLOCK, first + games - start)
            simulate_block(np.uint64(1), start, kinds, bot_params, params, rows[:n], no_log)
        print(time.perf_counter() - wall, time.thread_time() - cpu, flush=True)


def _start(variant: str, tree: str, cache: str) -> subprocess.Popen[str]:
    """A worker for the checkout ``tree`` with the kernel cache ``cache``, ready to run games."""
    env = {**os.environ, "PYTHONPATH": tree, "NUMBA_CACHE_DIR": cache}
    proc = subprocess.Popen(
        [sys.executable, __file__, "--worker", variant],
        cwd=tree,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        raise RuntimeError(f"the worker for {tree} did not start")
    return proc


def _run(proc: subprocess.Popen[str], first: int, games: int) -> float:
    """Thread CPU seconds the worker ``proc`` takes for games ``first .. first + games - 1``."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{first} {games}\n")
    proc.stdin.flush()
    return float(proc.stdout.readline().split()[1])


def _pairing(variant: str, first: tuple[str, str], second: tuple[str, str], rounds: int, games: int) -> float:
    """Start a worker for ``first`` (tree, cache), then one for ``second``, let them take turns for
    ``rounds`` rounds and print them; the median of second/first seconds per round."""
    workers = [_start(variant, *first), _start(variant, *second)]
    seconds: list[list[float]] = [[], []]
    for r in range(rounds):
        for w in (0, 1) if r % 2 == 0 else (1, 0):
            seconds[w].append(_run(workers[w], (r + 1) * ROUND_START, games))
    for proc in workers:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    for name, times in zip((first[0], second[0]), seconds, strict=True):
        print(f"{name} games/s by round: " + " ".join(f"{games / t / 1e3:.0f}k" for t in times))
    ratios = [b / a for a, b in zip(*seconds, strict=True)]  # above 1: the second took longer
    median = statistics.median(ratios)
    print(f"  median seconds {second[0]} / {first[0]}: {median:.3f}")
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("tree_a")
    parser.add_argument("cache_a")
    parser.add_argument("tree_b")
    parser.add_argument("cache_b")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--games", type=float, default=1e5)
    parser.add_argument("--one-order", action="store_true", help="start A's worker first only (half the time)")
    args = parser.parse_args()
    games = int(args.games)
    a, b = (args.tree_a, args.cache_a), (args.tree_b, args.cache_b)
    ab = _pairing(args.variant, a, b, args.rounds, games)
    if args.one_order:
        print(f"{args.variant}: median B/A seconds {ab:.3f} (B's worker started second)")
        return
    ba = _pairing(args.variant, b, a, args.rounds, games)
    both = (ab / ba) ** 0.5
    print(f"{args.variant}: B/A seconds {both:.3f}", end=" ")
    print(f"(medians {ab:.3f} with B's worker started second, {1 / ba:.3f} first)")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        _worker(sys.argv[2])
    else:
        main()
