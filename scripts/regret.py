"""The default bots' regret at the declaration: their choice against the best alternative, on rollouts.

    python scripts/regret.py variants/tournament.yaml --points 2000 --samples 40

Decision points are the declarations of ``--points`` games the default bots declared in self-play
under the variant (seed ``--seed``): after the auction, the declarer chooses hand or pickup and
the game (announcements included). At each point every declaration the variant allows, and the
bot's own choice, is played out by the bots with the what-if engine (:mod:`skatsim.whatif`) on
the same worlds (common random numbers), and so is picking up the skat to choose the game after
seeing it (the bot's own game then): the declarer's ten cards and the auction as recorded,
the other 22 cards dealt at random (``uniform`` worlds: what the declarer sees of them). The
best alternative is picked on one set of ``--samples`` rollouts and scored, with the bot's
choice, on a second, independent set, so the winner's curse does not inflate the regret. The
declarer's score is his score under the variant (his list points where the variant keeps
lists). Prints the mean regret per decision point with its 95% interval (CLT), and how often
the bot's own choice was the best on the first set. ``--bots`` measures another setting (its own
self-play and rollouts), ``--worlds consistent`` deals the unseen cards consistent with the auction
too, ``--breakdown N`` lists the N (bot's declaration, best alternative) pairs that make up most of
the regret.

Runs on older checkouts too (the bots' parameters without the variant), so a before/after pair
is measured with the same script: ``PYTHONPATH=/tmp/main python scripts/regret.py ...``.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict

import numpy as np

from skatsim import whatif as w
from skatsim.bots import DEFAULT_BOTS, bot_arrays, parse_bots
from skatsim.engine.block import simulate_block
from skatsim.engine.gametypes import RAMSCH
from skatsim.engine.layout import (
    COL_DECLARER,
    COL_GAME_TYPE,
    COL_HAND,
    COL_LIST_POINTS_FH,
    COL_SCORE_FH,
    LOG_WIDTH,
    N_COLUMNS,
)
from skatsim.engine.rules import LIST_SCORING
from skatsim.engine.scoring import HAND
from skatsim.records.record import record_from_log
from skatsim.variant import load_variant
from skatsim.whatif.hand import declarations
from skatsim.whatif.rollouts import WORLDS, Worlds, declaration_label, label


def self_play(params: np.ndarray, games: int, seed: int, bots: str = DEFAULT_BOTS) -> tuple[np.ndarray, np.ndarray]:
    """Rows and action records of ``games`` games of the ``bots`` (the default bots unless told)."""
    seats = parse_bots(bots)
    try:
        kinds, bot_params = bot_arrays(seats, params)
    except TypeError:  # a checkout from before the bots read the variant
        kinds, bot_params = bot_arrays(seats)  # type: ignore[call-arg]
    rows = np.zeros((games, N_COLUMNS), dtype=np.int64)
    logs = np.zeros((games, LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(seed), 0, kinds, bot_params, params, rows, logs)
    return rows, logs


def set_seed(point: int, part: int) -> int:
    """The seed of set ``part`` (0: the set that picks the best alternative, 1: the set that scores it) of
    decision point ``point``: two independent sets of worlds per point, so picking does not flatter
    what is scored (no winner's curse)."""
    return 2 * point + part


def rollout_rows(
    start: w.Start,
    decisions: list,
    params: np.ndarray,
    samples: int,
    seed: int,
    bots: str = DEFAULT_BOTS,
    worlds: Worlds = "uniform",
) -> np.ndarray:
    """Engine rows ``(samples, len(decisions), N_COLUMNS)``: every decision played out by the ``bots`` on
    the same ``samples`` worlds of ``seed`` (common random numbers), the cards the decider has not seen
    dealt at random (``uniform`` worlds) or consistent with the auction too (``consistent``)."""
    return w.plan(start, decisions, params, bots, samples=samples, seed=seed, worlds=worlds).block(0, samples)[0]


def declarer_scores(rows: np.ndarray, params: np.ndarray) -> np.ndarray:
    """The declarer's score under the variant (his list points where it keeps lists) per rollout and
    decision of :func:`rollout_rows`."""
    base = COL_LIST_POINTS_FH if params[LIST_SCORING] else COL_SCORE_FH
    return np.take_along_axis(rows, (base + rows[:, :, COL_DECLARER])[:, :, None], axis=2)[:, :, 0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--points", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=40, help="rollouts per alternative in each of the two sets")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--bots", default=DEFAULT_BOTS, help="the bots whose regret is measured (self-play and rollouts), as --bots"
    )
    parser.add_argument(
        "--worlds",
        choices=[x for x in WORLDS if x != "fixed"],
        default="uniform",
        help="how the cards the declarer has not seen are dealt in the rollouts",
    )
    parser.add_argument(
        "--breakdown", type=int, default=0, metavar="N", help="also print the N largest sources of regret"
    )
    args = parser.parse_args()
    loaded = load_variant(args.variant).variant
    params = loaded.params()
    start_time = time.perf_counter()
    rows, logs = self_play(params, 4 * args.points, args.seed, args.bots)
    options = declarations(params)
    # every declaration, and picking up to choose the game after seeing the skat (as the bot does)
    decisions: list = [w.Declare(gt, flags) for gt, flags in options]
    decisions.append(w.Pickup(False))
    decisions.append(w.Declare(None))
    regrets: list[float] = []
    sources: dict[tuple[str, str], list[float]] = defaultdict(list)
    chose_best = 0
    for i in range(rows.shape[0]):
        if len(regrets) == args.points:
            break
        if rows[i, COL_GAME_TYPE] < 0 or rows[i, COL_GAME_TYPE] == RAMSCH:
            continue
        start = w.from_record(record_from_log(rows[i], logs[i]))
        sets = [
            rollout_rows(start, decisions, params, args.samples, set_seed(i, part), args.bots, args.worlds)
            for part in range(2)
        ]
        means = [declarer_scores(out, params).mean(axis=0) for out in sets]
        best = int(np.argmax(means[0][:-1]))
        chose_best += int(means[0][-1] >= means[0][best])
        regrets.append(float(means[1][best] - means[1][-1]))
        own = declaration_label(int(rows[i, COL_GAME_TYPE]), HAND if rows[i, COL_HAND] else 0)
        sources[(own, label(decisions[best]))].append(regrets[-1])
    r = np.array(regrets)
    half = 1.96 * r.std(ddof=1) / math.sqrt(r.size)
    print(
        f"{loaded.name}: {r.size:,} declarations, {args.samples} + {args.samples} rollouts per alternative "
        f"({len(decisions)} alternatives), bots {args.bots}, {args.worlds} worlds, seed {args.seed}: mean regret "
        f"{r.mean():+.2f} [{r.mean() - half:+.2f}, {r.mean() + half:+.2f}] points per decision; the bot's choice "
        f"was the best on the first set in {100 * chose_best / r.size:.1f}%; {time.perf_counter() - start_time:.0f} s"
    )
    if args.breakdown:
        print("\nshare of the mean | points | decisions | the bot played | the best alternative")
        ranked = sorted(sources.items(), key=lambda item: -sum(item[1]))[: args.breakdown]
        for (own, alternative), values in ranked:
            print(f"{sum(values) / r.size:+.2f} | {np.mean(values):+.1f} | {len(values)} | {own} | {alternative}")


if __name__ == "__main__":
    main()
