"""Calibrate the heuristic bot by self-play: its card-play models, or one variant's calibration.

    python scripts/calibrate_bots.py                       # the outcome model (calibration.json)
    python scripts/calibrate_bots.py --defence             # the defenders' model (calibration.json)
    python scripts/calibrate_bots.py variants/ramsch.yaml  # a variant's calibration, into the cache
    python scripts/calibrate_bots.py variants/*.yaml --ship  # the shipped variants' calibrations

**The card-play models** describe play, which no house rule changes, so they are learnt once,
under the official rules (:mod:`skatsim.bots.calibrate`): the seat that wins the auction (bots
bidding with the current model) plays every candidate game hand and with the skat on each deal;
one logistic regression per game class and situation gives the log-odds of winning, fitted
twice (the second time on the hands a decision is about: a first-fit win probability above
``STRONG``), and on them the ordinal model of the other outcomes (Schneider, Schwarz, won or
lost). Run it twice or more so the auction and the model agree, then ``--defence``: the
defenders' estimate of the declarer's chance, fitted on the declared games of ordinary
self-play with the new model. Both write ``skatsim/bots/calibration.json`` with the sample counts
and observed rates, so the tables can be audited. Changing it changes every variant's calibration
key: re-ship the shipped variants' calibrations afterwards.

**A variant's calibration** (:mod:`skatsim.bots.variantcal`): what self-play under the variant's
rules teaches (the chance of an all-pass, a defender's expectation, the Ramsch models, the Kontra
model). Written to the user cache (``~/.cache/skatsim/calibrations``), or with ``--ship`` to
``skatsim/bots/calibrations/<variant>.json`` (package data). Reproducible: a pure function of the
variant, ``--seed``, ``--deals`` and the card-play models.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from skatsim.bots import BOTS, HEURISTIC, N_BOT_PARAMS
from skatsim.bots.calibrate import SAMPLES_PER_DEAL, calibration_samples, defence_samples, fit_logistic
from skatsim.bots.defence import FEATURE_NAMES as DEFENCE_FEATURE_NAMES
from skatsim.bots.defence import N_DEFENCE_FEATURES
from skatsim.bots.defence import NULL_FEATURE_NAMES as DEFENCE_NULL_FEATURE_NAMES
from skatsim.bots.expected import prepare
from skatsim.bots.handeval import (
    FEATURE_NAMES,
    FIRST_HOLDING_FEATURE,
    N_CLASSES,
    N_FEATURES,
    N_SITUATIONS,
    NULL_FEATURE_NAMES,
)
from skatsim.bots.variantcal import DEALS, RAMSCH_DEALS, SEED, SHIPPED_DIR, cache_dir, calibrate, neutral, write
from skatsim.bots.winprob import (
    CALIBRATION_FILE,
    N_OUTCOME_COEFFICIENTS,
    O_LOST,
    O_WON,
    O_WON_SCHNEIDER,
    O_WON_SCHWARZ,
    hand_gaps,
    tabulate,
)
from skatsim.errors import SkatsimError
from skatsim.variant import load_variant, official_params

CLASS_NAMES = ("suit", "grand", "null", "null_ouvert", "reversed")
SITUATION_NAMES = ("before_pickup", "hand", "after_pickup")
#: Win probability (first fit) above which a sample counts for the second, final fit.
STRONG = 0.2
OUTCOME_MODEL_NAMES = ("schneider_if_won", "schwarz_if_won_schneider", "schneider_if_lost", "schwarz_if_lost_schneider")


def _default_rows() -> np.ndarray:
    """Prepared rows of three default heuristic bots under the official rules (no calibration needed)."""
    spec = BOTS["heuristic"]
    row = np.concatenate([[p.default for p in spec.params], neutral()])
    assert len(spec.params) == N_BOT_PARAMS
    return prepare(np.tile(row, (3, 1)), official_params())


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))


def outcome_model(x: np.ndarray, y: np.ndarray, row_of: np.ndarray) -> tuple[list[dict], list, list]:
    """Fit the win model and the ordinal outcome model per class and situation (``row_of``: each
    sample's model row)."""
    coefficients, outcomes, summary = [], [], []
    for r in range(N_CLASSES * N_SITUATIONS):
        sel = row_of == r
        xs = x[sel].astype(np.float64)
        won = (y[sel] >= O_WON).astype(np.float64)
        # A first fit on the counts (the 128 holdings left out: a far smaller fit) picks the hands in
        # play for a decision; the final fit is on them alone, because the logistic form fitted to all
        # hands is dominated by hopeless ones and misjudges the strong hands bots actually declare.
        w = np.zeros(N_FEATURES)
        w[:FIRST_HOLDING_FEATURE] = fit_logistic(xs[:, :FIRST_HOLDING_FEATURE], won)
        strong = _sigmoid(xs @ w) > STRONG
        if strong.sum() > 20 * N_FEATURES:
            w = fit_logistic(xs[strong], won[strong], start=w)
        coefficients.append([round(float(v), 5) for v in w])
        z = xs[strong] @ w
        o = y[sel][strong]
        model = [0.0] * N_OUTCOME_COEFFICIENTS
        if r // N_SITUATIONS not in (2, 3):  # Null has no Schneider
            conditions = ((o >= O_WON_SCHNEIDER, o >= O_WON), (o == O_WON_SCHWARZ, o >= O_WON_SCHNEIDER))
            conditions += ((o < O_LOST, o <= O_LOST), (o == 0, o < O_LOST))
            for j, (target, given) in enumerate(conditions):
                a, b = fit_logistic(np.column_stack([np.ones(given.sum()), z[given]]), target[given].astype(np.float64))
                model[2 * j : 2 * j + 2] = [round(float(a), 5), round(float(b), 5)]
        outcomes.append(model)
        summary.append(
            {
                "class": CLASS_NAMES[r // N_SITUATIONS],
                "situation": SITUATION_NAMES[r % N_SITUATIONS],
                "samples": int(sel.sum()),
                "strong_samples": int(strong.sum()),
                "win_rate": round(float(won.mean()), 4),
                "outcome_rates": [round(float((y[sel] == k).mean()), 4) for k in range(6)],
            }
        )
        print(summary[-1])
    return summary, coefficients, outcomes


def card_play(args: argparse.Namespace) -> None:
    """The outcome model: samples from auction winners, fits, ``calibration.json`` rewritten."""
    n = args.deals * SAMPLES_PER_DEAL
    x = np.zeros((n, N_FEATURES), dtype=np.float32)  # small counts, exact; a quarter of the memory
    y = np.zeros(n, dtype=np.int64)
    rows = np.zeros(n, dtype=np.int64)
    start = time.perf_counter()
    n = calibration_samples(np.uint64(args.seed), 0, args.deals, _default_rows()[0], official_params(), x, y, rows)
    x, y, rows = x[:n], y[:n], rows[:n]
    print(f"{n:,} samples from {args.deals:,} deals in {time.perf_counter() - start:.1f} s")
    summary, coefficients, outcomes = outcome_model(x, y, rows)
    model = np.array(coefficients, dtype=np.float64)
    data = json.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))
    data.update(
        {
            "note": "written by scripts/calibrate_bots.py; rows are class x situation, columns the features",
            "deals": args.deals,
            "seed": args.seed,
            "classes": CLASS_NAMES,
            "situations": SITUATION_NAMES,
            "feature_names": FEATURE_NAMES,
            "null_feature_names": NULL_FEATURE_NAMES,
            "outcome_model_names": OUTCOME_MODEL_NAMES,
            "rows": summary,
            "coefficients": coefficients,
            "outcome_models": outcomes,
            # a shade above the exact maxima, so that rounding never makes them a hair too small
            "hand_gaps": [round(float(g), 6) + 1e-6 for g in hand_gaps(model, tabulate(model)).ravel()],
        }
    )
    data.pop("partial_fits", None)
    _write(data)


def defence(args: argparse.Namespace) -> None:
    """The defenders' model, fitted on the declared games of official self-play."""
    from skatsim.engine.block import simulate_block
    from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS

    spec = BOTS["heuristic"]
    row = np.concatenate([[p.default for p in spec.params], neutral()])
    kinds = np.full(3, HEURISTIC, dtype=np.int64)
    games = np.zeros((args.deals, N_COLUMNS), dtype=np.int64)
    no_log = np.zeros((0, LOG_WIDTH), np.int16)
    simulate_block(np.uint64(args.seed), 0, kinds, np.tile(row, (3, 1)), official_params(), games, no_log)
    x = np.zeros((2 * args.deals, N_DEFENCE_FEATURES))
    y = np.zeros(2 * args.deals)
    cls = np.zeros(2 * args.deals, dtype=np.int64)
    n = defence_samples(games, x, y, cls)
    x, y, cls = x[:n], y[:n], cls[:n]
    model, summary = [], []
    for c in range(N_CLASSES):
        sel = cls == (1 if c == 4 else c)  # the reversed game is judged as the Grand of equal power
        w = fit_logistic(x[sel], y[sel], l2=1e-3)
        model.append([round(float(v), 5) for v in w])
        won = round(float(y[sel].mean()), 4)
        summary.append({"class": CLASS_NAMES[c], "samples": int(sel.sum()), "declarer_won": won})
        print(summary[-1])
    data = json.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))
    data.update(
        {
            "defence": model,
            "defence_rows": summary,
            "defence_feature_names": DEFENCE_FEATURE_NAMES,
            "defence_null_feature_names": DEFENCE_NULL_FEATURE_NAMES,
            "defence_deals": args.deals,
            "defence_seed": args.seed,
        }
    )
    _write(data)


def _write(data: dict) -> None:
    with open(CALIBRATION_FILE, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")
    print(f"wrote {CALIBRATION_FILE}")


def variants(args: argparse.Namespace) -> None:
    """Each variant's calibration, into the cache or (``--ship``) the package."""
    for path in args.variants:
        try:
            loaded = load_variant(path)
        except SkatsimError as exc:
            print(f"calibrate_bots.py: {exc}", file=sys.stderr)
            sys.exit(2)
        params = loaded.variant.params()
        start = time.perf_counter()
        made = calibrate(params, loaded.variant.name, deals=args.deals, ramsch_deals=args.ramsch_deals, seed=args.seed)
        took = time.perf_counter() - start
        if made.key == "none":
            print(f"{path}: needs no calibration (no Ramsch, Kontra or list points)")
            continue
        out = SHIPPED_DIR / f"{Path(path).stem}.json" if args.ship else cache_dir() / f"{made.key}.json"
        write(made, out, loaded.variant.name)
        print(f"{path}: key {made.key} in {took:.1f} s -> {out}")
        print(json.dumps(made.info, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", help="variant files to calibrate (none: the card-play models)")
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--ramsch-deals", type=int, default=RAMSCH_DEALS)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--defence", action="store_true", help="fit the defenders' model")
    parser.add_argument("--ship", action="store_true", help="write variants' calibrations into the package")
    args = parser.parse_args()
    if args.variants:
        args.deals = args.deals or DEALS
        args.seed = SEED if args.seed is None else args.seed
        variants(args)
    elif args.defence:
        args.deals = args.deals or 500_000
        args.seed = 2025 if args.seed is None else args.seed
        defence(args)
    else:
        args.deals = args.deals or 150_000
        args.seed = 2024 if args.seed is None else args.seed
        card_play(args)


if __name__ == "__main__":
    main()
