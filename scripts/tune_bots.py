"""Tune the heuristic bot's attitudes so that its games look like games played by people.

    python scripts/tune_bots.py --games 200000

Levenberg-Marquardt over the heuristic bot's attitudes (its confidence in each class of game: the
log-odds it adds to its estimates; how far it misjudges a Null hand), minimising the squared
deviations of simulated statistics from the published figures of games played by people
(:mod:`skatsim.analysis.realism`), each deviation in units of half its band; the Jacobian by finite
differences of ``--delta`` log-odds. The
people played tournaments under Seeger-Fabian scoring, so the bots play
``variants/tournament.yaml`` (``--variant``) and decide by its scoring: the +50 a won game
earns is the variant's own, no parameter stands in for it. Every evaluation plays the same
deals (``--seed``), so the statistics move smoothly with the parameters. ``loss_aversion`` stays
1 (``--fix``): the bots maximise their expected score; the attitude is there for users who want
cautious or bold bots. ``first_bid_bias`` stays fixed too (at its default, 0.25, unless ``--start``
sets it): it is chosen on the measured break-even at 18, which it meets, and takes the all-pass share
below people's (3.4% against 4.9%, inside its band; docs/bots.md, Break-even).
Prints the best parameters; copy them into the defaults in ``skatsim/bots/__init__.py``, then
recalibrate the shipped variants (``scripts/calibrate_bots.py variants/*.yaml --ship``) and print the
table (``scripts/realism.py``).

``--grand-bid-total T`` ties ``grand_bid_bias`` to ``T - grand_bias``: the bots then bid a Grand on
the same confidence whatever the search does with ``grand_bias``, which moves only what they
declare. The measured break-even at 48 and 96 (``scripts/realism.py --break-even-rollouts``) follows
that total, so it is chosen there and held while the search fits the game mix.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from skatsim.analysis.realism import PEOPLE, bot_figures, distance
from skatsim.bots import BOTS, bot_values, parse_bots
from skatsim.run.chunks import simulate_frame
from skatsim.variant import load_variant

TOURNAMENT = str(Path(__file__).resolve().parents[1] / "variants" / "tournament.yaml")
#: Parameters with no effect under the tournament rules, and those the bots keep as they are.
SKIP = {"reversed_bias"}
FIXED = {"loss_aversion", "first_bid_bias"}
#: The middle of each band the search does not push against.
CORE = 0.6


def setting(values: dict[str, float]) -> str:
    """The ``--bots`` setting of these heuristic parameters."""
    return "heuristic:" + ":".join(f"{k}={v:.4g}" for k, v in values.items())


def tied(values: dict[str, float], grand_bid_total: float | None) -> dict[str, float]:
    """``values`` with ``grand_bid_bias`` set to ``grand_bid_total - grand_bias`` (unchanged without a total)."""
    if grand_bid_total is None:
        return values
    return {**values, "grand_bid_bias": grand_bid_total - values["grand_bias"]}


def loss_of(values: dict[str, float], params: np.ndarray, games: int, seed: int) -> tuple[float, dict[str, float]]:
    """Simulate with these heuristic parameters on every seat; return (loss, statistics)."""
    frame = simulate_frame(seed, 0, games, params, (setting(values),) * 3, "tuning")
    stats = bot_figures(frame.lazy())
    return soft_loss(stats), stats


def residuals(stats: dict[str, float]) -> np.ndarray:
    """Each figure's deviation from people's in units of half its band, counted in full only beyond
    the middle ``CORE`` of the band (inside it a tenth): the search aims at every figure inside its
    band rather than at a few figures on people's point."""
    r = np.array([(stats[p.name] - p.people) / ((p.high - p.low) / 2) for p in PEOPLE])
    return np.sign(r) * np.maximum(np.abs(r) - CORE, 0.0) + 0.1 * r


def soft_loss(stats: dict[str, float]) -> float:
    """The search's loss: the sum of the squared :func:`residuals`."""
    return float((residuals(stats) ** 2).sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default=TOURNAMENT)
    parser.add_argument("--games", type=int, default=216_000)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--delta", type=float, default=0.15)
    parser.add_argument("--start", default="heuristic", help="the setting to start from (default: the defaults)")
    parser.add_argument(
        "--fix",
        default=",".join(sorted(FIXED)),
        help="parameters not tuned: kept at their values in --start, the defaults unless it sets them "
        "(default: %(default)s; a list given replaces it, so name these too)",
    )
    parser.add_argument(
        "--grand-bid-total",
        type=float,
        help="hold grand_bias + grand_bid_bias (the Grand's confidence at the bid) at this value",
    )
    args = parser.parse_args()
    fixed = set(filter(None, args.fix.split(",")))
    if args.grand_bid_total is not None:
        fixed.add("grand_bid_bias")
    params = load_variant(args.variant).variant.params()
    spec = BOTS["heuristic"]
    best = tied(bot_values(parse_bots(args.start)[0]), args.grand_bid_total)
    bounds = {p.name: (p.low, p.high) for p in spec.params}
    best_loss, stats = loss_of(best, params, args.games, args.seed)
    print(f"start loss {best_loss:.2f}", {k: round(v, 1) for k, v in stats.items()})
    names = [n for n in best if n not in SKIP and n not in fixed]
    damping = 1.0
    for r in range(args.rounds):
        r0 = residuals(stats)
        jacobian = np.zeros((len(r0), len(names)))
        for j, name in enumerate(names):
            trial = dict(best)
            trial[name] += args.delta
            trial = tied(trial, args.grand_bid_total)
            jacobian[:, j] = (residuals(loss_of(trial, params, args.games, args.seed)[1]) - r0) / args.delta
        normal = jacobian.T @ jacobian
        for _ in range(4):
            step = np.linalg.solve(normal + damping * np.diag(np.diag(normal) + 1e-6), -jacobian.T @ r0)
            trial = dict(best)
            for j, name in enumerate(names):
                low, high = bounds[name]
                trial[name] = float(np.clip(best[name] + step[j], low, high))
            trial = tied(trial, args.grand_bid_total)
            trial_loss, trial_stats = loss_of(trial, params, args.games, args.seed)
            if trial_loss < best_loss:
                best, best_loss, stats = trial, trial_loss, trial_stats
                damping /= 3
                break
            damping *= 4
        print(f"round {r + 1}: loss {best_loss:.2f}", {k: round(v, 3) for k, v in best.items()}, flush=True)
    print({k: round(v, 1) for k, v in stats.items()})
    outside = [p.name for p in PEOPLE if not p.low <= stats[p.name] <= p.high]
    print(f"distance from people {distance(stats):.2f}; outside the bands: {', '.join(outside) or 'none'}")
    print(setting(best))


if __name__ == "__main__":
    main()
