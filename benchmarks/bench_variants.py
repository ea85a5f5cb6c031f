"""Every shipped variant: kernel speed against the official rules, and the rates that show each rule at work.

Usage::

    python benchmarks/bench_variants.py --games 100000 --bots heuristic

For each ``variants/*.yaml`` the compiled kernel (:func:`skatsim.engine.block.simulate_block`)
plays ``--games`` games in this process (best of three runs), one core, after a warm-up (compilation excluded), in
blocks as the runner uses them (whole lists for list variants). Printed per variant:

* ``games/s`` and ``vs official``: kernel speed and its ratio to ``official.yaml`` (the issue's
  target: every variant within 30%, i.e. a ratio of at least 0.70);
* ``ramsch``: share of deals played as a Ramsch; ``jungfrau`` and ``durchm.``: share of those
  Ramsch deals with a Jungfrau, with a Durchmarsch; ``pushes``: pushes per Schieberamsch;
* ``kontra`` and ``re``: share of declared games with Kontra, with Re (or more);
* ``bock``: share of deals played in a Bock round; ``reversed``: share of deals declared as
  the reversed game;
* ``list sd``: standard deviation of a player's total over a list (list points under
  Seeger-Fabian, else scores), players followed through the dealer rotation.

A dash means the rule does not occur in that variant.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from skatsim.bots import bot_arrays, parse_bots
from skatsim.engine.block import simulate_block
from skatsim.engine.gametypes import RAMSCH, REVERSED
from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS, ROW_COLUMNS
from skatsim.engine.rules import LIST_LENGTH, LIST_SCORING, TABLE_PLAYERS
from skatsim.run.chunks import BLOCK
from skatsim.variant import load_variant

ROOT = Path(__file__).resolve().parents[1]
COL = {name: k for k, name in enumerate(ROW_COLUMNS)}
NO_LOG = np.zeros((0, LOG_WIDTH), dtype=np.int16)
#: Timed runs per variant (the best counts: a single run also timed the first touch of its row array).
REPEATS = 3


def simulate(params: np.ndarray, games: int, bots: tuple[str, ...], seed: int) -> tuple[np.ndarray, float]:
    """Rows of ``games`` games and the kernel's games per second (best of ``REPEATS`` runs after a warm-up on
    other games)."""
    kinds, bot_params = bot_arrays(bots, params)
    length = int(params[LIST_LENGTH])
    block = max(BLOCK // length * length, length) if length else BLOCK
    warm = np.zeros((max(length, 100), N_COLUMNS), dtype=np.int64)
    simulate_block(np.uint64(seed + 1), 0, kinds, bot_params, params, warm, NO_LOG)
    rows = np.zeros((games, N_COLUMNS), dtype=np.int64)
    best = float("inf")
    for _ in range(REPEATS):  # the same games each time: the best run is the kernel's speed
        start = time.perf_counter()
        for first in range(0, games, block):
            n = min(block, games - first)
            simulate_block(np.uint64(seed), first, kinds, bot_params, params, rows[first : first + n], NO_LOG)
        best = min(best, time.perf_counter() - start)
    return rows, games / best


def _share(mask: np.ndarray, among: np.ndarray | None = None) -> float | None:
    """Mean of ``mask`` over the rows in ``among`` (all rows when None); None when there are none."""
    if among is not None:
        mask = mask[among]
    return float(mask.mean()) if mask.size else None


def list_spread(rows: np.ndarray, params: np.ndarray) -> float | None:
    """Standard deviation of a player's total over a complete list (players rotate through the seats);
    None at a four-player table, whose dealer sits out with list points of his own."""
    length = int(params[LIST_LENGTH])
    n_lists = rows.shape[0] // length if length else 0
    if n_lists == 0 or params[TABLE_PLAYERS] != 3:
        return None
    prefix = "list_points_" if params[LIST_SCORING] else "score_"
    seats = np.stack([rows[: n_lists * length, COL[prefix + s]] for s in ("fh", "mh", "rh")], axis=1)
    k = np.arange(n_lists * length) % length
    totals = np.zeros((n_lists, 3))
    for seat in range(3):
        player = (seat + k) % 3
        np.add.at(totals, (np.arange(n_lists * length) // length, player), seats[:, seat])
    return float(totals.std())


def rates(rows: np.ndarray, params: np.ndarray) -> dict[str, float | None]:
    """The rule rates of the table (see the module docstring)."""
    gt = rows[:, COL["game_type"]]
    ramsch = gt == RAMSCH
    declared = rows[:, COL["declarer"]] >= 0
    level = rows[:, COL["kontra_level"]]
    schiebe = ramsch & (rows[:, COL["schiebe_count"]] >= 0)
    ramsch_possible = ramsch.any()
    return {
        "ramsch": _share(ramsch) if ramsch_possible else None,
        "jungfrau": _share(rows[:, COL["jungfrau_count"]] > 0, ramsch),
        "durchm.": _share(rows[:, COL["durchmarsch"]] == 1, ramsch),
        "pushes": float(rows[schiebe, COL["schiebe_count"]].mean()) if schiebe.any() else None,
        "kontra": _share(level >= 1, declared) if level.any() else None,
        "re": _share(level >= 2, declared) if level.any() else None,
        "bock": _share(rows[:, COL["bock"]] > 1) if (rows[:, COL["bock"]] > 1).any() else None,
        "reversed": _share(gt == REVERSED) if (gt == REVERSED).any() else None,
        "list sd": list_spread(rows, params),
    }


def _cell(value: float | None, percent: bool) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.2f}%" if percent else f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    paths = sorted((ROOT / "variants").glob("*.yaml"), key=lambda p: (p.stem != "official", p.stem))
    header = ["variant", "games/s", "vs official", "ramsch", "jungfrau", "durchm.", "pushes", "kontra", "re"]
    header += ["bock", "reversed", "list sd"]
    lines = []
    official = None
    for path in paths:
        params = load_variant(path).variant.params()
        bots = parse_bots(args.bots, int(params[TABLE_PLAYERS]))
        rows, speed = simulate(params, args.games, bots, args.seed)
        official = official or speed
        r = rates(rows, params)
        percent = {"pushes": False, "list sd": False}
        lines.append(
            [path.stem, f"{speed:,.0f}", f"{speed / official:.2f}"]
            + [_cell(r[name], percent.get(name, True)) for name in header[3:]]
        )
        print(f"  {path.stem}: {speed:,.0f} games/s", file=sys.stderr)
    widths = [max(len(row[i]) for row in [header, *lines]) for i in range(len(header))]
    print(f"{args.games:,} games per variant, bots {args.bots}, seed {args.seed}, {os.cpu_count()} CPUs; 1 core")
    for row in [header, *lines]:
        print(
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )
        )


if __name__ == "__main__":
    main()
