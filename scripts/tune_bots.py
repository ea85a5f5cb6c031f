"""Tune the heuristic bot's parameters so that its games look like human play.

    python scripts/tune_bots.py --games 200000

Coordinate search over the bidding and declaring parameters, minimising the
deviation of simulated statistics (official rules, heuristic bots on every
seat) from the published figures of games played by people
(:mod:`skatsim.analysis.realism`), each deviation in units of its tolerance.
Prints the best parameters; copy them into the defaults in
``skatsim/bots/__init__.py``.
"""

from __future__ import annotations

import argparse

import numpy as np

from skatsim.analysis.realism import bot_figures, distance
from skatsim.bots import BOTS, bot_arrays
from skatsim.engine.block import simulate_block
from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS
from skatsim.frames import block_frame
from skatsim.variant import official_params


def loss_of(values: np.ndarray, games: int, seed: int) -> tuple[float, dict[str, float]]:
    """Simulate with the given heuristic parameters on every seat; return (loss, statistics)."""
    kinds, params = bot_arrays(("heuristic",) * 3)
    params[:, : len(values)] = values
    rows = np.zeros((games, N_COLUMNS), dtype=np.int64)
    simulate_block(np.uint64(seed), 0, kinds, params, official_params(), rows, np.zeros((0, LOG_WIDTH), np.int16))
    stats = bot_figures(block_frame(rows, ("heuristic",) * 3, "official", official_params()).lazy())
    return distance(stats), stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    spec = BOTS["heuristic"]
    names = [p.name for p in spec.params]
    best = np.array([p.default for p in spec.params])
    steps = {"risk": 0.04, "hand_risk": 0.04, "win_bonus": 25.0}
    skip = {"kontra", "re", "push", "reversed_bias"}  # no effect under the official rules
    best_loss, stats = loss_of(best, args.games, args.seed)
    print(f"start loss {best_loss:.2f}", {k: round(v, 1) for k, v in stats.items()})
    for r in range(args.rounds):
        for k, name in enumerate(names):
            if name in skip:
                continue
            step = steps.get(name, 0.3) / (r + 1)
            for direction in (+1, -1):
                while True:
                    trial = best.copy()
                    trial[k] += direction * step
                    trial_loss, trial_stats = loss_of(trial, args.games, args.seed)
                    if trial_loss >= best_loss:
                        break
                    best, best_loss, stats = trial, trial_loss, trial_stats
                    print(f"  {name}={best[k]:.3f} loss {best_loss:.2f}")
        print(f"round {r + 1}: loss {best_loss:.2f}", dict(zip(names, np.round(best, 3), strict=True)))
    print({k: round(v, 1) for k, v in stats.items()})


if __name__ == "__main__":
    main()
