"""Speed of the open-hand solver on the simulated game mix, from the first lead, one core.

Usage::

    python benchmarks/bench_solver.py --deals 10000 --what both

Deals ``0 .. deals-1`` of seed ``--seed`` are simulated under ``variants/official.yaml`` by three
``heuristic`` bots with their records kept (:func:`skatsim.run.chunks.simulate_frame`); every declared
game is rebuilt at its first lead from the ``record`` column (:func:`skatsim.solve.position`) and solved
in this process after the kernels are loaded and warmed up (compile time excluded), one position after
another with one transposition table (:func:`skatsim.engine.solver.new_table`, ``--table`` = log2 of
its entries) reused across positions. Two questions are timed separately:

* ``win``: the game's outcome with perfect play, as Kupferschmid & Helmert (2006) solve it: one
  null-window search "does the declarer reach 61 card points" (90 with Schneider announced; every trick
  with Schwarz announced; no trick in Null);
* ``exact``: :meth:`skatsim.solve.Solver.solve` without best cards: the declarer's exact card points
  (null-window searches until the bounds meet) and the two Schwarz searches; Null as for ``win``.

For each: median, 90th and 99th percentile and maximum milliseconds, and median / 99th percentile of
search nodes, per game type and overall.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from skatsim.engine import play, solver
from skatsim.engine.gametypes import GAME_TYPE_NAMES, GRAND, NULL
from skatsim.engine.scoring import SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from skatsim.records.record import GameRecord
from skatsim.run.chunks import simulate_frame
from skatsim.solve import Solver, position
from skatsim.variant import load_variant


def positions(seed: int, deals: int) -> list[np.ndarray]:
    """The first-lead play states of the declared games among ``deals`` simulated deals."""
    params = load_variant("variants/official.yaml").variant.params()
    frame = simulate_frame(seed, 0, deals, params, ("heuristic",) * 3, "official", record_play=True)
    out = []
    for text in frame["record"]:
        record = GameRecord.from_json(text)
        if record.game_type is not None and record.cards:
            out.append(position(record, 0, params))
    return out


def win(state: np.ndarray, tt: np.ndarray, work: np.ndarray) -> bool:
    """The outcome with perfect play, by one null-window search."""
    if state[play.GT] == NULL:
        return bool(solver.declarer_avoids_tricks(state, tt, work))
    if state[play.FLAGS] & SCHWARZ_ANNOUNCED:
        return bool(solver.declarer_takes_all(state, tt, work))
    need = 90 if state[play.FLAGS] & SCHNEIDER_ANNOUNCED else 61
    return bool(solver.declarer_reaches(state, tt, work, need))


def kind(state: np.ndarray) -> str:
    gt = int(state[play.GT])
    return "suit" if gt < GRAND else GAME_TYPE_NAMES[gt]


def report(name: str, ms: np.ndarray, nodes: np.ndarray, kinds: np.ndarray) -> None:
    print(f"{name}: {len(ms)} positions, {ms.sum() / 1000:.1f} s")
    print(f"  {'':9} {'n':>6} {'median':>8} {'p90':>8} {'p99':>9} {'max':>9}   {'nodes med':>10} {'nodes p99':>11}")
    for label in ("all", "suit", "grand", "null", "reversed"):
        mask = np.ones(len(ms), dtype=bool) if label == "all" else kinds == label
        if not mask.any():
            continue
        t, n = ms[mask], nodes[mask]
        print(
            f"  {label:9} {mask.sum():6d} {np.median(t):8.3f} {np.percentile(t, 90):8.3f} "
            f"{np.percentile(t, 99):9.3f} {t.max():9.2f}   {np.median(n):10.0f} {np.percentile(n, 99):11.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--what", choices=("win", "exact", "both"), default="both")
    parser.add_argument("--table", type=int, default=20, help="log2 of the transposition table's entries")
    args = parser.parse_args()
    states = positions(args.seed, args.deals)
    kinds = np.array([kind(s) for s in states])
    engine = Solver(args.table)
    for s in states[:20]:  # load or compile every kernel before timing
        win(s, engine.table, engine.work)
        engine.solve(s, best=False)
    print(f"{args.deals} deals (seed {args.seed}, official rules, heuristic bots): {len(states)} declared games")
    todo = ("win", "exact") if args.what == "both" else (args.what,)
    for what in todo:
        ms = np.zeros(len(states))
        nodes = np.zeros(len(states), dtype=np.int64)
        for i, state in enumerate(states):
            before = int(engine.work[solver.NODES])
            start = time.perf_counter()
            if what == "win":
                win(state, engine.table, engine.work)
            else:
                engine.solve(state, best=False)
            ms[i] = (time.perf_counter() - start) * 1000
            nodes[i] = int(engine.work[solver.NODES]) - before
        report(what, ms, nodes, kinds)


if __name__ == "__main__":
    main()
