"""Calibrate the heuristic bot's win-probability model by self-play and write calibration.json.

    python scripts/calibrate_bots.py --deals 100000 --seed 2024

The seat that wins the auction (bots bidding with the current model) plays
every candidate game hand and with the skat on each deal
(:mod:`skatsim.bots.calibrate`); run it twice or more so the auction and the
model agree; one logistic regression per game class and
situation is fitted and written to ``skatsim/bots/calibration.json`` with
the sample counts and the observed win rates, so the table can be audited.

    python scripts/calibrate_bots.py --deals 150000 --classes reversed

fits only the classes named (here the reversed game, which no official auction
reaches) and keeps every other class's rows of the current file as they are, so
adding a class leaves the bot's behaviour under the official rules untouched.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from skatsim.bots import bot_arrays
from skatsim.bots.calibrate import SAMPLES_PER_DEAL, calibration_samples, fit_logistic
from skatsim.bots.handeval import FEATURE_NAMES, N_CLASSES, N_FEATURES, N_SITUATIONS, NULL_FEATURE_NAMES
from skatsim.bots.heuristic import prepare
from skatsim.bots.winprob import CALIBRATION_FILE
from skatsim.variant import official_params

CLASS_NAMES = ("suit", "grand", "null", "null_ouvert", "reversed")
#: Win probability (first fit) above which a sample counts for the second, final fit.
STRONG = 0.2
SITUATION_NAMES = ("before_pickup", "hand", "after_pickup")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", default=str(CALIBRATION_FILE))
    parser.add_argument(
        "--classes", default=",".join(CLASS_NAMES), help="classes to fit; the others keep their rows of --out"
    )
    args = parser.parse_args()
    fit = [CLASS_NAMES.index(name) for name in args.classes.split(",")]
    only = fit[0] if len(fit) == 1 else -1
    n = args.deals * (SAMPLES_PER_DEAL if only < 0 else 3 * 4)  # a class has at most 4 candidates (suits)
    x = np.zeros((n, N_FEATURES), dtype=np.float64)
    y = np.zeros(n, dtype=np.float64)
    row = np.zeros(n, dtype=np.int64)
    start = time.perf_counter()
    kinds, bots = bot_arrays(("heuristic",) * 3)
    n = calibration_samples(
        np.uint64(args.seed), 0, args.deals, prepare(bots)[0], official_params(), x, y, row, only
    )
    x, y, row = x[:n], y[:n], row[:n]
    print(f"{n:,} samples from {args.deals:,} deals in {time.perf_counter() - start:.1f} s")
    coefficients = []
    summary = []
    with open(args.out, encoding="utf-8") as fh:
        kept = json.load(fh)
    for r in range(N_CLASSES * N_SITUATIONS):
        if r // N_SITUATIONS not in fit:
            coefficients.append(kept["coefficients"][r])
            summary.append(kept["rows"][r])
            continue
        sel = row == r
        w = fit_logistic(x[sel], y[sel])
        # Refit on the hands that are in play for a decision: the logistic form fitted to all hands is
        # dominated by hopeless ones and misjudges the strong hands bots actually declare.
        strong = sel & (1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30))) > STRONG)
        if strong.sum() > 20 * N_FEATURES:
            w = fit_logistic(x[strong], y[strong])
        coefficients.append([round(float(v), 5) for v in w])
        summary.append(
            {
                "class": CLASS_NAMES[r // N_SITUATIONS],
                "situation": SITUATION_NAMES[r % N_SITUATIONS],
                "samples": int(sel.sum()),
                "strong_samples": int(strong.sum()),
                "win_rate": round(float(y[sel].mean()), 4),
            }
        )
        print(summary[-1])
    partial = len(fit) < N_CLASSES
    data = {
        "note": "written by scripts/calibrate_bots.py; rows are class x situation, columns the features",
        "deals": kept["deals"] if partial else args.deals,
        "seed": kept["seed"] if partial else args.seed,
        "partial_fits": [
            *(kept.get("partial_fits", []) if partial else []),
            *([{"classes": args.classes.split(","), "deals": args.deals, "seed": args.seed}] if partial else []),
        ],
        "classes": CLASS_NAMES,
        "situations": SITUATION_NAMES,
        "feature_names": FEATURE_NAMES,
        "null_feature_names": NULL_FEATURE_NAMES,
        "rows": summary,
        "coefficients": coefficients,
    }
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
