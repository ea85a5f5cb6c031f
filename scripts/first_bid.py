"""The first bid by the kind of game a hand holds: where the bots open, against where it pays.

    python scripts/first_bid.py --hands 9000 --jobs 2

``scripts/realism.py --break-even-rollouts`` measures the break-even at 18 on the hands whose best game
is worth exactly 18 (diamonds). This script takes every hand at the first bid instead, on the same
worlds and rollouts, and groups them by their best game: whether the bots are as timid (or as bold)
with hearts, spades or clubs, Grand or Null as with diamonds, and so whether opening one kind more
boldly could be paid for by opening another less, holding the share of deals all passed.

For each hand (each seat's ten cards of ``--hands / 3`` deals of ``--seed``, every seat its own):

* **the worlds**: the other 22 cards kept only when the hand wins the auction at 18 (the others'
  ceilings below 18, forehand's at most 18 as the tie rule allows): the deals in which this hand
  alone decides whether all pass;
* **its best game**: among the declarations worth at least 18, the one with the highest mean score
  under the variant on ``--pick-samples`` rollouts; its win probability and mean score on
  ``--samples`` further rollouts on worlds drawn alike (no winner's curse), as ``realism.py`` does;
* **whether it opens**: the bots' bid ceiling reaches 18 (``whatif.kernels.bid_limits``);
* **the value of passing**: the bots' own (``heuristic.pass_value``), the lower of before and after
  someone has bid, as ``realism.py`` counts it at 18.

Per kind of best game: the share that opens, the 50% point of opening on the win probability (a
logistic fit, 95% bootstrap interval over hands), the published break-even (2v + 50) / (3v + 100)
at the kind's values (tournament; 2/3 under the official scoring) and the same with the bots' value
of passing, and the hands whose game's mean score beats passing though they do not open (timid) and
those that open though passing is better (bold). The hands worth exactly 18 are ``realism.py``'s
hands at 18, to the figure.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

sys.path.insert(0, str(Path(__file__).parent))
from realism import TOURNAMENT, _fifty, _fifty_interval, _pct, found_rows, published_break_even  # noqa: E402

from skatsim.bots import DEFAULT_BOTS  # noqa: E402
from skatsim.engine.gametypes import GRAND, NULL  # noqa: E402

#: One row per hand of :func:`measure`: these columns.
HAND, SEAT, VALUE, GAME, WIN, SCORE, OPENS, PASSING = range(8)
FIRST_BID = 18


def measure(variant: str, seed: int, first: int, hands: int, pick: int, samples: int, bots: str) -> np.ndarray:
    """Rows (:data:`HAND` ... :data:`PASSING`) of hands ``first`` .. ``first + hands - 1`` (see the module
    doc); a hand without worlds (half its rollouts find none) has no row."""
    from regret import dealt_hands, declarer_scores, set_seed

    from skatsim import whatif as w
    from skatsim.bots import bot_arrays, parse_bots, seam
    from skatsim.bots.heuristic import pass_value
    from skatsim.engine.layout import COL_WON
    from skatsim.variant import load_variant
    from skatsim.whatif.hand import declarations
    from skatsim.whatif.kernels import bid_limits

    params = load_variant(variant).variant.params()
    kinds, bot_params = bot_arrays(parse_bots(bots), params)
    prepared = seam.prepare(kinds, bot_params, params)
    deals = dealt_hands(seed, math.ceil((first + hands) / 3))
    ceilings = np.zeros(deals.shape, dtype=np.int64)
    bid_limits(params, kinds, prepared, deals, ceilings)
    decisions = [w.Declare(gt, flags) for gt, flags in declarations(params)]

    out = []
    for h in range(first, first + hands):
        seat = h % 3
        mask = int(deals[h // 3, seat])
        values = np.array([w.bid_value(d.game, d.flags, mask) for d in decisions])
        eligible = np.flatnonzero(values >= FIRST_BID)
        start = w.from_hand([c for c in range(32) if mask >> c & 1], seat, bid=FIRST_BID)
        picking = found_rows(start, [decisions[k] for k in eligible], params, bots, pick, set_seed(h, 0))[0]
        if 2 * len(picking) < pick:
            continue
        k = int(eligible[np.argmax(declarer_scores(picking, params).mean(axis=0))])
        rows = found_rows(start, [decisions[k]], params, bots, samples, set_seed(h, 1))[0]
        if 2 * len(rows) < samples:
            continue
        bot, cards = prepared[seat], np.uint32(mask)
        passing = min(pass_value(bot, cards, seat, False), pass_value(bot, cards, seat, True))
        won = (rows[:, 0, COL_WON] == 1).mean()
        score = declarer_scores(rows, params)[:, 0].mean()
        opens = ceilings[h // 3, seat] >= FIRST_BID
        out.append((h, seat, values[k], decisions[k].game, won, score, opens, passing))
    return np.array(out, dtype=np.float64).reshape(-1, 8)


def kinds_of_game(rows: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """The groups of hands by their best game, each a label and a mask over ``rows``."""
    game, value = rows[:, GAME], rows[:, VALUE]
    suit = game < GRAND
    return [
        ("diamonds, worth 18", suit & (value == FIRST_BID)),
        ("a suit worth 20 to 24", suit & (value > FIRST_BID) & (value <= 24)),
        ("a suit worth more", suit & (value > 24)),
        ("Grand", game == GRAND),
        ("Null", game == NULL),
        ("all", np.ones(len(rows), dtype=bool)),
    ]


def report(rows: np.ndarray, scoring: str, seed: int) -> None:
    """Print the table of the module doc for ``rows`` measured under ``scoring`` (tournament or official)."""
    print(
        "| best game | hands | open | 50% point of opening [95% interval] | published | with the bots' value "
        "of passing | 50% point - with it | beats passing, not opened | opened, passing better |"
    )
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for label, inside in kinds_of_game(rows):
        part = rows[inside]
        if not len(part):
            continue
        p, opens = part[:, WIN], part[:, OPENS]
        fifty = _fifty(p, opens)
        lo, hi = _fifty_interval(p, opens, seed)
        published = float(np.mean([published_break_even(scoring, int(v)) for v in part[:, VALUE]]))
        adjusted = float(np.mean([published_break_even(scoring, int(v), x) for v, x in part[:, [VALUE, PASSING]]]))
        beats = part[:, SCORE] > part[:, PASSING]
        off = "n/a" if math.isnan(fifty) else f"{100 * (fifty - adjusted):+.1f}"
        print(
            f"| {label} | {len(part):,} | {100 * opens.mean():.0f}% | {_pct(fifty)} [{_pct(lo)}, {_pct(hi)}] | "
            f"{_pct(published)} | {_pct(adjusted)} | {off} | {int((beats & (opens == 0)).sum()):,} | "
            f"{int((~beats & (opens == 1)).sum()):,} |"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=9000, help="hands dealt (default 9000, realism.py's)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--variant", default=TOURNAMENT, help="tournament.yaml (default) or official.yaml")
    parser.add_argument("--bots", default=DEFAULT_BOTS)
    parser.add_argument("--pick-samples", type=int, default=32, help="rollouts per declaration picking the best game")
    parser.add_argument("--samples", type=int, default=400, help="rollouts measuring the best game")
    parser.add_argument("--jobs", type=int, default=1, help="processes, each a share of the hands (same figures)")
    args = parser.parse_args(argv)
    for option, value in (
        ("--hands", args.hands),
        ("--jobs", args.jobs),
        ("--pick-samples", args.pick_samples),
        ("--samples", args.samples),
    ):
        if value < 1:
            parser.error(f"{option} must be at least 1, got {value}")
    scoring = Path(args.variant).stem
    if scoring not in ("tournament", "official"):
        parser.error(f"--variant {args.variant}: the break-even is known for tournament.yaml and official.yaml only")
    step = math.ceil(args.hands / args.jobs)
    parts = Parallel(n_jobs=args.jobs)(
        delayed(measure)(
            args.variant, args.seed, first, min(step, args.hands - first), args.pick_samples, args.samples, args.bots
        )
        for first in range(0, args.hands, step)
    )
    rows = np.concatenate(parts)
    print(
        f"The first bid by the best game: {args.hands:,} hands ({math.ceil(args.hands / 3):,} deals, seed "
        f"{args.seed}), {scoring} scoring, worlds in which the hand alone decides whether all pass; the best "
        f"game picked on {args.pick_samples} rollouts, measured on {args.samples}; bots {args.bots}\n"
    )
    report(rows, scoring, args.seed)


if __name__ == "__main__":
    main()
